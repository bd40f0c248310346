"""What importing the Ultra-Scale Playbook (a real Distill article) showed the import
lacked, each in a small hand-written article: a title with a line break, the
article's own "Citation" section beside the theme's, and code listings a script
loads from GitHub when the page is read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import read_page, sphinx_build, write_project

from sphinx_playbook.cli import main
from sphinx_playbook.cli.distill.structure import embedded_listing

LISTING = (
    "https://github.com/huggingface/picotron/blob/0035cce/picotron/data_parallel/"
    "data_parallel.py#L10-L60"
)
EMBED = (
    "https://emgithub.com/embed-v2.js?target="
    "https%3A%2F%2Fgithub.com%2Fhuggingface%2Fpicotron%2Fblob%2F0035cce%2Fpicotron"
    "%2Fdata_parallel%2Fdata_parallel.py%23L10-L60&amp;style=github&amp;type=code"
)

BIB = "@article{ada, title={Notes on the Engine}, author={Lovelace, Ada}, year={1843}}\n"

ARTICLE = f"""\
<!doctype html>
<html lang="en">
<head><meta charset="utf8"><title>Scale</title></head>
<body>
<d-front-matter>
  <script type="text/json">{{
  "title": "The Scale Book:\u00a0Training on Many Machines",
  "description": "How to train on many machines.",
  "published": "Feb 19, 2025",
  "authors": [{{"author": "Ada Lovelace"}}, {{"author": "Charles Babbage"}}]
}}</script>
</d-front-matter>
<d-title>
  <h1 style="text-align: center;">The Scale Book:<br>Training on Many Machines</h1>
</d-title>
<d-byline></d-byline>
<d-article>
  <p>Opening paragraph.</p>
  <p>Here is the code:</p>
  <details>
    <summary>Naive implementation (click to expand)</summary>
    <div class="code-embed-container" style="margin: 0;"></div>
    <script src="{EMBED}"></script>
  </details>
  <p>Paragraph after the code, citing <d-cite key="ada"></d-cite>.</p>
  <h2>References</h2>
  <p>A reading list: <a href="https://example.org/paper">Landmark paper</a>.</p>
</d-article>
<d-appendix>
  <d-bibliography src="refs.bib"></d-bibliography>
  <h3 id="citation">Citation</h3>
  <p>For attribution in academic contexts, please cite this work as</p>
  <pre class="citation short">Lovelace et al., "The Scale Book: Training on Many Machines",
  2025.</pre>
  <p>BibTeX citation</p>
  <pre class="citation long">@misc{{scale_book_key,
  title={{The Scale Book: Training on Many Machines}},
  author={{Ada Lovelace, Charles Babbage}},
  year={{2025}},
}}</pre>
  <p>Figures are reused from the Picotron repository with permission.</p>
</d-appendix>
</body>
</html>
"""


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The article imported (its report kept) and built with -W."""
    folder = tmp_path_factory.mktemp("playbook")
    source = write_project(folder / "article", {"index.html": ARTICLE, "refs.bib": BIB})
    out = folder / "project"
    assert main(["import-distill", str(source), str(out)]) == 0
    html = out / "_build" / "html"
    result = sphinx_build("-W", "-q", "-N", "-b", "html", str(out), str(html))
    assert result.returncode == 0, result.stderr
    report = (out / "import-report.txt").read_text(encoding="utf-8")
    return {"out": out, "page": read_page(html), "report": report.splitlines()}


def _lines(report: list[str], construct: str) -> list[str]:
    return [line for line in report if f": {construct} (" in line]


def _squeezed(text: str) -> str:
    return " ".join(text.split())


# -- (a) the title's line break ------------------------------------------------------------


def test_a_line_break_in_the_title_reads_as_a_space(imported: dict) -> None:
    page: BeautifulSoup = imported["page"]
    title = "The Scale Book: Training on Many Machines"
    assert _squeezed(page.select_one(".pb-title-block h1").get_text()) == title
    assert page.title is not None and title in page.title.get_text()
    # The theme's citation is made from the title: the words stay apart there too.
    short = page.select_one("#pb-appendix-citation .pb-cite-short")
    assert short is not None and f'"{title}"' in short.get_text()
    # The front matter's title (a no-break space there) now says the same: only the
    # line break is reported, not a title left out.
    lines = _lines(imported["report"], "title block")
    assert any("line break (<br>)" in line for line in lines), lines
    assert not any("is left out" in line for line in lines), lines


# -- (b) the article's own Citation section ---------------------------------------------------


def test_the_article_citation_section_is_left_out_for_the_theme_s(imported: dict) -> None:
    page: BeautifulSoup = imported["page"]
    headings = [
        _squeezed(heading.get_text()).rstrip("#").strip()
        for heading in page.select("h2, h3, h4")
        if _squeezed(heading.get_text()).rstrip("#").strip() == "Citation"
    ]
    assert headings == ["Citation"]  # the theme's, once
    assert page.select_one("#pb-appendix-citation") is not None
    text = _squeezed(page.get_text(" "))
    assert text.count("For attribution in academic contexts") == 1
    assert "scale_book_key" not in text and "Lovelace et al." not in text
    assert not page.select("pre.citation")
    # What only the article said is kept.
    assert "Figures are reused from the Picotron repository with permission." in text
    (line,) = _lines(imported["report"], "appendix")
    assert "index.html:" in line and "'Citation'" in line
    assert "'scale_book_key'" in line and "the rest of the section is kept" in line
    # Left out on purpose: not also reported as elements the page lost.
    assert not [line for line in imported["report"] if "(.citation)" in line]


# -- (c) code listings loaded from GitHub -----------------------------------------------------


def test_a_code_listing_loaded_from_github_is_a_note_linking_it(imported: dict) -> None:
    page: BeautifulSoup = imported["page"]
    # No script of another site in the page: the reader's browser asks no one.
    assert not [s for s in page.find_all("script", src=True) if "emgithub" in s["src"]]
    (details,) = [d for d in page.find_all("details") if "Naive implementation" in d.get_text()]
    note = details.select_one(".admonition.note")
    assert note is not None
    link = note.find("a", href=LISTING)
    assert link is not None
    assert _squeezed(link.get_text()) == "picotron/data_parallel/data_parallel.py, lines 10-60"
    (line,) = _lines(imported["report"], "code listing from GitHub")
    assert re.search(r"index\.html:\d+: ", line) and LISTING in line
    assert "not imported" in line and "Paste the lines into a code block" in line


def test_the_author_finds_where_to_paste_the_listing(imported: dict) -> None:
    source = (imported["out"] / "index.md").read_text(encoding="utf-8")
    comments = [line for line in source.splitlines() if line.startswith("% import-distill:")]
    assert len(comments) == 1 and LISTING in comments[0]
    # Right before the note, inside the dropdown, where the listing was.
    after = source[source.index(comments[0]) :]
    assert after.index("{note}") < after.index("Paragraph after the code")


def test_other_scripts_are_kept_as_before(tmp_path: Path) -> None:
    article = ARTICLE.replace(f'<script src="{EMBED}"></script>', '<script src="draw.js"></script>')
    files = {"index.html": article, "draw.js": "1;\n", "refs.bib": BIB}
    source = write_project(tmp_path / "article", files)
    out = tmp_path / "project"
    assert main(["import-distill", str(source), str(out)]) == 0
    text = (out / "index.md").read_text(encoding="utf-8")
    assert '<script src="draw.js"></script>' in text and "{note}" not in text


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        (
            EMBED.replace("&amp;", "&"),
            (LISTING, "picotron/data_parallel/data_parallel.py, lines 10-60"),
        ),
        (
            "https://gist.github.com/ada/abc123.js?file=train.py",
            ("https://gist.github.com/ada/abc123", "train.py (gist)"),
        ),
        ("https://cdn.plot.ly/plotly-3.0.0.min.js", None),
        ("https://emgithub.com/embed-v2.js?target=javascript%3Aalert(1)", None),
    ],
)
def test_which_scripts_load_a_listing_from_github(src: str, expected: object) -> None:
    assert embedded_listing(src) == expected


# -- (b) the article's own "References" section -----------------------------------------------


def test_a_section_named_like_the_bibliography_is_kept_and_reported(imported: dict) -> None:
    page: BeautifulSoup = imported["page"]
    text = _squeezed(page.get_text(" "))
    assert "A reading list:" in text  # the article's own words
    assert page.find("a", href="https://example.org/paper", string="Landmark paper")
    bibliography = page.select_one("#pb-references")
    assert bibliography is not None and "Notes on the Engine" in bibliography.get_text()
    lines = [line for line in _lines(imported["report"], "heading") if "'References'" in line]
    assert len(lines) == 1 and "rename the article's section" in lines[0], lines
