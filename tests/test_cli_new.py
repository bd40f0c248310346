"""``sphinx-playbook new``: the scaffold builds with -W under four builders, shows each
building block once, and its CI and Read the Docs files are valid."""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from sphinx.cmd.build import build_main

from sphinx_playbook.cli import main
from sphinx_playbook.cli.new import create_project

BUILDERS = ("html", "dirhtml", "latex", "epub")
TODAY = datetime.date.today()


@pytest.fixture(scope="module")
def projects(tmp_path_factory) -> dict[str, dict]:
    """One MyST and one reST project, each built once per builder."""
    results = {}
    for source_format in ("md", "rst"):
        root = tmp_path_factory.mktemp(f"new-{source_format}") / "book"
        code = main(
            [
                "new", str(root), "--title", "Training on one GPU", "--author", "Ada Lovelace",
                "--author", "Charles Babbage", "--affiliation", "Analytical Engine Lab",
                "--format", source_format,
            ]
        )  # fmt: skip
        builds = {}
        for builder in BUILDERS:
            doctrees = root / "_build" / f"doctrees-{builder}"
            arguments = ["-W", "-q", "-b", builder, "-d", str(doctrees)]
            builds[builder] = build_main([*arguments, str(root), str(root / "_build" / builder)])
        results[source_format] = {"root": root, "code": code, "builds": builds}
    return results


def _page(root: Path, name: str = "index") -> BeautifulSoup:
    return BeautifulSoup((root / "_build" / "html" / f"{name}.html").read_text(), "html.parser")


@pytest.mark.parametrize("source_format", ["md", "rst"])
@pytest.mark.parametrize("builder", BUILDERS)
def test_scaffold_builds_with_W(projects, source_format, builder):
    assert projects[source_format]["code"] == 0
    assert projects[source_format]["builds"][builder] == 0


@pytest.mark.parametrize("source_format", ["md", "rst"])
def test_front_matter_from_the_options(projects, source_format):
    page = _page(projects[source_format]["root"])
    assert " ".join(page.select_one(".pb-title-block h1").get_text().split()) == (
        "Training on one GPU"
    )
    byline = page.select_one(".pb-byline")
    text = " ".join(byline.get_text().split())
    assert "Ada Lovelace" in text and "Charles Babbage" in text
    assert "Analytical Engine Lab" in text
    assert byline.select_one("time")["datetime"].startswith(TODAY.isoformat())


@pytest.mark.parametrize("source_format", ["md", "rst"])
def test_each_building_block_once(projects, source_format):
    body = _page(projects[source_format]["root"]).select_one(".pb-body")
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


@pytest.mark.parametrize("source_format", ["md", "rst"])
def test_second_chapter_is_a_book_page(projects, source_format):
    root = projects[source_format]["root"]
    chapter = _page(root, "chapter-2")
    assert " ".join(chapter.select_one(".pb-title-block h1").get_text().split()) == (
        "A second chapter"
    )
    next_links = [a["href"] for a in _page(root).select("a.right-next, .pb-next a, a[rel=next]")]
    assert "chapter-2.html" in next_links


def test_readthedocs_and_ci_are_valid_yaml(projects):
    root = projects["md"]["root"]
    readthedocs = yaml.safe_load((root / ".readthedocs.yaml").read_text())
    assert readthedocs["version"] == 2
    assert readthedocs["sphinx"] == {"configuration": "conf.py", "fail_on_warning": True}
    assert readthedocs["python"]["install"] == [{"requirements": "requirements.txt"}]
    assert set(readthedocs["build"]["tools"]) == {"python"}
    workflow = yaml.safe_load((root / ".github" / "workflows" / "build.yml").read_text())
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare on as true
    assert set(triggers) == {"push", "pull_request"}
    commands = [step.get("run", "") for step in workflow["jobs"]["html"]["steps"]]
    assert "pip install -r requirements.txt" in commands
    assert any(c.startswith("sphinx-build -W") for c in commands)
    requirements = (root / "requirements.txt").read_text().split()
    assert requirements[0].startswith("sphinx-playbook>=")
    readme = (root / "README.md").read_text()
    assert "sphinx-build -W -b html . _build/html" in readme and "git push" in readme


def test_refuses_a_non_empty_folder(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["new", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error == (
        f"sphinx-playbook: error: {tmp_path}: the folder is not empty; use --force to write "
        "into it\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert main(["new", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert (tmp_path / "index.md").is_file()


def test_refuses_a_file(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("")
    assert main(["new", str(target)]) == 2
    assert capsys.readouterr().err == (
        f"sphinx-playbook: error: {target}: exists and is not a folder\n"
    )


def test_asks_nothing_off_a_terminal(tmp_path, capsys):
    """Under pytest stdin is not a terminal: defaults are used and nothing is asked."""
    assert main(["new", str(tmp_path / "book")]) == 0
    assert "[My Playbook]" not in capsys.readouterr().out
    text = (tmp_path / "book" / "index.md").read_text()
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["title"] == "My Playbook" and front["authors"] == ["Your Name"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_asks_for_title_and_author_on_a_terminal(tmp_path):
    stdout = io.StringIO()
    create_project(
        tmp_path / "book", stdin=_Terminal("Scaling laws\n\n"), stdout=stdout,
        today=datetime.date(2025, 2, 19),
    )  # fmt: skip
    assert stdout.getvalue().startswith("Title [My Playbook]: Author [Your Name]: ")
    front = yaml.safe_load((tmp_path / "book" / "index.md").read_text().split("---\n")[1])
    assert front == {
        "title": "Scaling laws",
        "description": "A playbook started with sphinx-playbook new.",
        "published": datetime.date(2025, 2, 19),
        "authors": ["Your Name"],
    }
