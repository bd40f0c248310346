"""Tool folders in the source folder (node_modules, virtual environments, caches) are
never read as pages, so `npm install` where the docs say keeps a -W build passing."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from helpers import CONF, build_app, read_page, soup, sphinx_build, write_project
from test_plotly_bundles import RELEASE, _export

from sphinx_playbook.source_folders import TOOL_FOLDERS, tool_folder_patterns

PAGE = "# Home\n\nText.\n"
#: What a tool folder holds that Sphinx would read as a page.
STRAY = "# A package's README\n\nNot a page of the book.\n"


def test_tool_folders_hold_no_pages(tmp_path: Path) -> None:
    files = {"index.md": PAGE, "notes/index.md": "# Notes\n"}
    for folder in ("node_modules/left-pad", ".venv/lib", "notes/.ipynb_checkpoints", ".tox/py"):
        files[f"{folder}/README.md"] = STRAY
    files["env/pyvenv.cfg"] = "home = /usr/bin\n"  # a virtual environment by another name
    files["env/lib/README.md"] = STRAY
    files["index.md"] = PAGE + "\n```{toctree}\nnotes/index\n```\n"
    root = write_project(tmp_path / "src", files, conf=CONF)
    outdir = tmp_path / "html"
    sphinx_build("-q", "-W", "-b", "html", str(root), str(outdir))
    pages = sorted(p.relative_to(outdir).as_posix() for p in outdir.rglob("*.html"))
    assert [p for p in pages if not p.startswith(("_", "genindex", "search"))] == [
        "index.html",
        "notes/index.html",
    ]


def test_the_authors_patterns_come_first_and_are_not_repeated(
    make_app: Any, tmp_path: Path
) -> None:
    root = write_project(tmp_path / "src", {"index.md": PAGE}, conf=CONF)
    (root / "conf.py").write_text(
        CONF + 'exclude_patterns = ["_build", "**/node_modules", "node_modules"]\n'
    )
    patterns = list(build_app(make_app, root).config.exclude_patterns)
    assert patterns[:3] == ["_build", "**/node_modules", "node_modules"]
    assert patterns.count("node_modules") == 1 and patterns.count("**/node_modules") == 1
    assert {".venv", "**/.venv", "__pycache__", "**/__pycache__"} <= set(patterns)


def test_patterns_cover_each_tool_folder_at_any_depth(tmp_path: Path) -> None:
    patterns = tool_folder_patterns(tmp_path)
    for name in TOOL_FOLDERS:
        assert name in patterns and f"**/{name}" in patterns


def test_a_real_npm_install_in_the_source_folder(tmp_path: Path) -> None:
    """As docs/interactive-figures.md says: plotly.js's partial bundle installed with
    npm in the source folder. The build passes with -W, and the page's figure still
    loads that bundle from node_modules."""
    page = (
        "# Plots\n\n:::{interactive-figure} figures/line.html\n:alt: The line figure.\n"
        ":aspect-ratio: 4/3\n\nThe line figure.\n:::\n"
    )
    root = write_project(
        tmp_path / "src",
        {"index.md": page, "figures/line.html": _export("scatter")},
        conf=CONF + 'project = "Plots"\n',
    )
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", f"plotly.js-basic-dist-min@{RELEASE}"],
        cwd=root,
        check=True,
        capture_output=True,
        timeout=300,
    )
    package = root / "node_modules" / "plotly.js-basic-dist-min"
    assert (package / "README.md").is_file()  # what Sphinx read as a page before
    outdir = tmp_path / "html"
    sphinx_build("-q", "-W", "-b", "html", str(root), str(outdir))
    assert not (outdir / "node_modules").exists()
    frame = read_page(outdir).select_one("iframe")
    assert frame is not None
    script = next(
        s for s in soup(outdir / frame["src"]).select("script[src]") if "plotly" in s["src"]
    )
    served = ((outdir / frame["src"]).parent / script["src"]).resolve().read_bytes()
    assert served == (package / "plotly-basic.min.js").read_bytes()
