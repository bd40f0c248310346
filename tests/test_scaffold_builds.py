"""``sphinx-playbook new``: every build the project documents passes ``-W`` exactly as
written (the README's commands, the CI workflow's, what Read the Docs runs for
.readthedocs.yaml), under html, dirhtml, latex and epub, before and after a README.md
and a CONTRIBUTING.md that are not pages sit at the repository root; the built book
shows each building block once. With ``--notebooks``, a chapter is a Jupyter notebook
whose stored outputs (a Plotly and a matplotlib figure) become figures with no kernel
run, and requirements.txt installs myst-nb, the notebook's libraries and its kernel."""

from __future__ import annotations

import base64
import datetime
import json
import os
import runpy
import shlex
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from helpers import read_page, run_sphinx, sphinx_build
from markdown_it import MarkdownIt
from packaging.requirements import Requirement

from sphinx_playbook.cli import main

BUILDERS = ("html", "dirhtml", "latex", "epub")
#: Read the Docs' own command for a ``sphinx:`` project, run in the folder of conf.py.
READTHEDOCS = "readthedocs"
TODAY = datetime.date.today()

#: Root files a repository gains: MyST that fails -W the moment Sphinx reads it as a page.
NOT_PAGES = {
    "CONTRIBUTING.md": "# Contributing\n\n```{no-such-directive}\n```\n\n### Skipped level\n",
    "README.md": "\n## Notes\n\n{no-such-role}`x`\n",  # appended to the scaffold's README
}


@dataclass(frozen=True)
class Build:
    command: str
    cwd: Path
    returncode: int
    stderr: str


def documented_commands(root: Path) -> dict[str, str]:
    """The README's ``sphinx-build`` lines (in its console blocks), by builder name."""
    tokens = MarkdownIt().parse((root / "README.md").read_text(encoding="utf-8"))
    lines = [
        line.strip()
        for token in tokens
        if token.type == "fence" and token.info.strip() == "console"
        for line in token.content.splitlines()
    ]
    commands = {}
    for line in lines:
        words = shlex.split(line)
        if words and words[0] == "sphinx-build":
            commands[words[words.index("-b") + 1]] = line
    return commands


def workflow(root: Path) -> dict:
    return yaml.safe_load(
        (root / ".github" / "workflows" / "build.yml").read_text(encoding="utf-8")
    )


def readthedocs_command(root: Path) -> tuple[str, Path]:
    """What Read the Docs runs for .readthedocs.yaml, and where: in conf.py's folder."""
    settings = yaml.safe_load((root / ".readthedocs.yaml").read_text(encoding="utf-8"))["sphinx"]
    warnings = "-W --keep-going " if settings.get("fail_on_warning") else ""
    command = (
        f"sphinx-build -T {warnings}-b html -d _build/doctrees -D language=en . "
        f"{shlex.quote(str(root / '_readthedocs' / 'html'))}"
    )
    return command, root / Path(settings["configuration"]).parent


def run(command: str, cwd: Path) -> Build:
    """``command`` as written, from ``cwd``: sphinx-build is this Python's Sphinx."""
    words = shlex.split(command)
    assert words[0] == "sphinx-build"
    result = run_sphinx(words[1:], cwd=cwd)
    return Build(command, cwd, result.returncode, result.stderr)


def build_all(root: Path) -> dict[str, Build]:
    builds = {name: run(command, root) for name, command in documented_commands(root).items()}
    builds[READTHEDOCS] = run(*readthedocs_command(root))
    return builds


#: The projects built: each format, and MyST with ``--notebooks``.
VARIANTS = {"md": ["--format", "md"], "rst": ["--format", "rst"], "notebooks": ["--notebooks"]}
_BUILT: dict[str, dict] = {}


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def project(request, tmp_path_factory) -> dict:
    return _project(request.param, tmp_path_factory)


@pytest.fixture(scope="module")
def notebook_project(tmp_path_factory) -> dict:
    """The ``--notebooks`` project (built once for the module, shared with ``project``)."""
    return _project("notebooks", tmp_path_factory)


def _project(variant: str, tmp_path_factory) -> dict:
    """One project per variant: every documented build, then again once the repository
    has a README.md and a CONTRIBUTING.md that Sphinx must never read."""
    if variant in _BUILT:
        return _BUILT[variant]
    root = tmp_path_factory.mktemp(f"scaffold-{variant}") / "playbook"
    code = main(
        [
            "new", str(root), "--title", "Training on one GPU", "--author", "Ada Lovelace",
            "--author", "Charles Babbage", "--affiliation", "Analytical Engine Lab",
            *VARIANTS[variant],
        ]
    )  # fmt: skip
    fresh = build_all(root)
    for name, text in NOT_PAGES.items():
        with (root / name).open("a", encoding="utf-8") as file:
            file.write(text)
    with_root_files = build_all(root)
    _BUILT[variant] = {
        "variant": variant,
        "root": root,
        "code": code,
        "rounds": {"fresh": fresh, "with README.md and CONTRIBUTING.md": with_root_files},
    }
    return _BUILT[variant]


def test_the_readme_documents_every_builder(project):
    assert project["code"] == 0
    assert sorted(documented_commands(project["root"])) == sorted(BUILDERS)


@pytest.mark.parametrize("round_name", ["fresh", "with README.md and CONTRIBUTING.md"])
@pytest.mark.parametrize("builder", [*BUILDERS, READTHEDOCS])
def test_documented_build_passes_with_W(project, builder, round_name):
    build = project["rounds"][round_name][builder]
    assert "-W" in shlex.split(build.command)
    assert build.returncode == 0, f"{build.command} (in {build.cwd}):\n{build.stderr}"


def test_builds_write_what_they_document(project):
    """Each output where its command says, and nothing of the root files in it."""
    root = project["root"]
    assert (root / "_build" / "html" / "index.html").is_file()
    assert (root / "_build" / "dirhtml" / "chapter-2" / "index.html").is_file()
    assert (root / "_build" / "latex" / "playbook.tex").is_file()
    assert (root / "_readthedocs" / "html" / "index.html").is_file()
    for output in ("html", "dirhtml"):
        built = {
            p.relative_to(root / "_build" / output).as_posix()
            for p in (root / "_build" / output).rglob("*.html")
        }
        assert not {name for name in built if "README" in name or "CONTRIBUTING" in name}


def test_the_epub_packs_no_doctrees(project):
    (epub,) = (project["root"] / "_build" / "epub").glob("*.epub")
    names = zipfile.ZipFile(epub).namelist()
    assert "index.xhtml" in names
    assert not [name for name in names if ".doctree" in name or name.endswith(".pickle")]


def test_the_workflow_runs_the_documented_build_and_deploys_its_output(project):
    root = project["root"]
    jobs = workflow(root)["jobs"]
    steps = jobs["html"]["steps"]
    builds = [s["run"] for s in steps if s.get("run", "").startswith("sphinx-build")]
    assert builds == [documented_commands(root)["html"]]
    (upload,) = [s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert upload["with"]["path"] == shlex.split(builds[0])[-1]


def _page(root: Path, name: str = "index") -> BeautifulSoup:
    return read_page(root / "_build" / "html", name)


def test_front_matter_from_the_options(project):
    page = _page(project["root"])
    assert " ".join(page.select_one(".pb-title-block h1").get_text().split()) == (
        "Training on one GPU"
    )
    byline = page.select_one(".pb-byline")
    text = " ".join(byline.get_text().split())
    assert "Ada Lovelace" in text and "Charles Babbage" in text
    assert "Analytical Engine Lab" in text
    assert byline.select_one("time")["datetime"].startswith(TODAY.isoformat())


def test_each_building_block_once(project):
    body = _page(project["root"]).select_one(".pb-body")
    assert len(body.select("aside.pb-aside")) == 1
    assert len(body.select(".pb-side-by-side")) == 1
    assert len(body.select(".pb-side-by-side div.highlight")) == 2
    assert len(body.select(".pb-wide-image img")) == 1
    assert len(body.select(".l-page")) == 1
    legends = [" ".join(c.get_text().split()) for c in body.select("figcaption .caption-text")]
    assert any(legend.startswith("A legend under the block it follows.") for legend in legends)
    assert [a.get_text() for a in body.select(".pb-cite__link")] == ["1", "2"]
    assert len(body.select("#pb-references li")) == 2
    assert len(body.select("#pb-appendix-footnotes aside.footnote")) == 1
    tex = [a.get_text() for a in body.select('annotation[encoding="application/x-tex"]')]
    assert tex == ["12 h^2", "m = 2 \\Psi + 2 \\Psi + 12 \\Psi = 16 \\Psi ."]
    headings = [h.get_text().rstrip("#") for h in body.select("#pb-appendix h2")]
    assert headings[0] == "Acknowledgements"


def test_second_chapter_is_a_book_page(project):
    root = project["root"]
    chapter = _page(root, "chapter-2")
    assert " ".join(chapter.select_one(".pb-title-block h1").get_text().split()) == (
        "A second chapter"
    )
    next_links = [a["href"] for a in _page(root).select("a.right-next, .pb-next a, a[rel=next]")]
    assert "chapter-2.html" in next_links


# -- --notebooks: a chapter written in a Jupyter notebook ----------------------------------


def test_the_notebook_chapter_comes_after_the_second(notebook_project):
    root = notebook_project["root"]
    assert (root / "book" / "figures.ipynb").is_file()
    next_links = [a["href"] for a in _page(root, "chapter-2").select("a[rel=next]")]
    assert "figures.html" in next_links
    chapter = _page(root, "figures")
    assert " ".join(chapter.select_one(".pb-title-block h1").get_text().split()) == (
        "Figures from a notebook"
    )
    assert chapter.select_one(".pb-title-block .pb-description").get_text(strip=True)


def test_the_plotly_output_is_an_interactive_figure_with_its_png(notebook_project):
    root = notebook_project["root"]
    figure = _page(root, "figures").find("figure", id="fig-loss")
    assert "pb-interactive" in figure["class"]
    frame = figure.find("iframe")
    assert frame["src"].startswith("_interactive/")
    assert (root / "_build" / "html" / frame["src"]).is_file()
    fallback = figure.select_one(".pb-interactive__fallback img")
    assert fallback["src"].startswith("_images/")
    assert (root / "_build" / "html" / fallback["src"]).is_file()
    assert "Training loss by step" in figure.find("figcaption").get_text()


def test_the_matplotlib_output_is_a_numbered_figure_in_the_page_column(notebook_project):
    page = _page(notebook_project["root"], "figures")
    figure = page.find("figure", id="fig-waves")
    assert "l-page" in figure["class"]
    image = figure.find("img")
    assert image["src"].startswith("_images/") and image.get("width") and image.get("height")
    assert figure.select_one(".caption-number").get_text(strip=True).startswith("Fig.")
    refs = {a["href"] for a in page.select("a.reference.internal")}
    assert {"#fig-loss", "#fig-waves"} <= refs


def test_the_first_build_runs_no_kernel(notebook_project):
    """The outputs are stored and conf.py asks for none to be made."""
    root = notebook_project["root"]
    conf = runpy.run_path(str(root / "book" / "conf.py"))
    assert conf["extensions"] == ["sphinx_playbook", "myst_nb"]
    assert conf["nb_execution_mode"] == "off"
    assert not (root / "_build" / ".jupyter_cache").exists()
    notebook = json.loads((root / "book" / "figures.ipynb").read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    outputs = [cell["outputs"] for cell in code if cell["outputs"]]
    assert len(outputs) == 2  # the setup cell shows nothing
    (plotly,), (matplotlib,) = outputs
    assert set(plotly["data"]) >= {"application/vnd.plotly.v1+json", "image/png"}
    assert plotly["data"]["application/vnd.plotly.v1+json"]["data"][0]["type"] == "scatter"
    for output in (plotly, matplotlib):
        assert base64.b64decode(output["data"]["image/png"]).startswith(b"\x89PNG")


def test_the_notebook_stays_small(notebook_project):
    """No plotly.js inlined: the page takes the site's."""
    path = notebook_project["root"] / "book" / "figures.ipynb"
    assert path.stat().st_size < 200_000


def test_requirements_install_myst_nb_the_libraries_and_the_kernel(notebook_project):
    """Read the Docs and the workflow both install requirements.txt (test_cli_new.py)."""
    root = notebook_project["root"]
    lines = (root / "requirements.txt").read_text(encoding="utf-8").splitlines()
    requirements = {
        r.name: r for r in (Requirement(line) for line in lines if not line.startswith("#"))
    }
    assert requirements["sphinx-playbook"].extras == {"pdf", "notebooks"}
    assert {"ipykernel", "plotly", "matplotlib", "kaleido"} <= set(requirements)
    steps = workflow(root)["jobs"]["html"]["steps"]
    assert "pip install -r requirements.txt" in [step.get("run") for step in steps]
    settings = yaml.safe_load((root / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert {"requirements": "requirements.txt"} in settings["python"]["install"]


def _output_kinds(notebook: dict) -> list[set[str]]:
    """The kinds of each output but stderr's: a fresh environment's first run adds
    notes there ("Matplotlib is building the font cache"), no output of the author's."""
    return [
        set(output.get("data", {}))
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        for output in cell["outputs"]
        if not (output["output_type"] == "stream" and output.get("name") == "stderr")
    ]


def test_the_notebook_runs_as_it_is_with_what_requirements_lists(notebook_project, tmp_path):
    """``nb_execution_mode = "force"``: a real kernel runs the shipped notebook (plotly,
    kaleido with the machine's Chromium, matplotlib) and the build passes -W with outputs
    of the kinds stored, as after an author's edit with "cache"."""
    book = shutil.copytree(notebook_project["root"] / "book", tmp_path / "book")
    shutil.copy(notebook_project["root"] / "CITATION.cff", tmp_path / "CITATION.cff")
    outdir = tmp_path / "_build" / "html"
    # kaleido draws the PNG in a Chromium: the headless shell the browser tests use,
    # which dev.sh installs (kaleido finds a full Chrome or Chromium by itself).
    environment = {**os.environ, "BROWSER_PATH": "/usr/bin/chromium-headless-shell"}
    # As on a fresh machine, whatever ran before: matplotlib builds its font cache.
    environment["MPLCONFIGDIR"] = str(tmp_path / "matplotlib")
    sphinx_build(
        "-W", "-N", "-q", "-b", "html", "-D", "nb_execution_mode=force", str(book), str(outdir),
        timeout=600, environment=environment,
    )  # fmt: skip
    executed_path = tmp_path / "_build" / "jupyter_execute" / "figures.ipynb"
    executed = json.loads(executed_path.read_text(encoding="utf-8"))
    stored = json.loads((book / "figures.ipynb").read_text(encoding="utf-8"))
    assert _output_kinds(executed) == _output_kinds(stored)
    page = read_page(outdir, "figures")
    assert page.select_one("#fig-loss iframe") is not None
    assert page.select_one("#fig-loss .pb-interactive__fallback img") is not None
    assert page.select_one("#fig-waves img") is not None
