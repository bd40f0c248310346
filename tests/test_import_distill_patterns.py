"""Patterns of published Distill articles, each in a small hand-written fixture:
the title block, multi-panel figures, an equation grid, an unknown element around
text, a malformed .bib, and Distill template v1 (``dt-*`` elements, YAML front
matter, ``dt-include``). Each imports, builds with -W, and reads as the original.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import read_page, sphinx_build, write_project

from sphinx_playbook.cli import main

FIXTURES = Path(__file__).parent / "data" / "distill"


def _norm(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, dict]:
    results = {}
    base = tmp_path_factory.mktemp("patterns")
    for name in ("panels", "v1"):
        out = base / name
        code = main(["import-distill", str(FIXTURES / name), str(out)])
        build = sphinx_build("-W", "-q", "-b", "html", str(out), str(out / "_html")).returncode
        results[name] = {
            "code": code,
            "build": build,
            "soup": read_page(out / "_html"),
            "report": (out / "import-report.txt").read_text("utf-8"),
        }
    return results


def _formulas(root) -> list[str]:
    return [
        _norm(a.get_text()) for a in root.select('.katex annotation[encoding="application/x-tex"]')
    ]


@pytest.mark.parametrize("name", ["panels", "v1"])
def test_imports_and_builds_with_W(built, name):
    assert (built[name]["code"], built[name]["build"]) == (0, 0)


def test_the_visible_title_block_wins(built):
    soup = built["panels"]["soup"]
    block = soup.select_one(".pb-title-block")
    assert _norm(block.h1.get_text()) == "Panels and grids"
    assert "The visible subtitle wins." in _norm(block.get_text())
    assert "meta description" not in soup.select_one(".pb-body").get_text()
    assert "search engines" not in block.get_text()
    # The meta description is nowhere visible; the subtitle is the page's description.
    assert soup.find("meta", attrs={"name": "description"})["content"] == (
        "The visible subtitle wins."
    )


def test_panels_side_by_side_each_with_its_caption_none_repeated(built):
    soup = built["panels"]["soup"]
    row = soup.select_one(".pb-side-by-side")
    # The id is the figure's, whose legend ("Both panels together.") is under the row.
    assert row is not None and row.parent.name == "figure"
    assert row.parent.get("id") == "two-panels" and row.get("id") is None
    panels = row.select("figure")
    captions = [panel.select_one("figcaption") for panel in panels]
    assert [_norm(c.get_text()).split(" shows")[0] for c in captions] == ["Panel A", "Panel B"]
    # Each caption's formula rendered, its citation linked.
    assert [_formulas(c) for c in captions] == [["a_i"], ["b_i"]]
    assert captions[0].select_one(".pb-cite__link")["href"] == "#pb-ref-knuth"
    assert [c.get("style") for c in captions] == [None, None]
    for link in soup.select("a.headerlink"):
        link.decompose()
    all_captions = [_norm(c.get_text()) for c in soup.select(".pb-body figcaption")]
    assert all_captions.count("Both panels together.") == 1
    assert sum(caption.startswith("Panel A") for caption in all_captions) == 1


def test_equation_grid_is_one_display_formula_with_its_labels(built):
    soup = built["panels"]["soup"]
    formulas = _formulas(soup.select_one(".pb-body"))
    assert (
        r"\underset{\text{State value}}{V(s_t)} \hookleftarrow \underset{\text{Return}}{R_t}"
        in formulas
    )
    orphans = [f for f in soup.select(".pb-body figcaption") if _norm(f.get_text()) in {"Return"}]
    assert orphans == []


def test_an_unknown_element_is_unwrapped_and_its_content_converted(built):
    soup = built["panels"]["soup"]
    body = soup.select_one(".pb-body")
    assert "x^2" in _formulas(body)
    paragraph = next(p for p in body.select("p") if "Inside an unknown" in p.get_text())
    assert paragraph.select_one(".pb-cite__link")["href"] == "#pb-ref-knuth"
    assert soup.find("o") is None
    assert "$x^2$" not in body.get_text()
    notes = soup.select("#pb-appendix-footnotes aside.footnote, .footnote-list aside.footnote")
    assert any("Converted, not frozen." in note.get_text() for note in notes)
    assert "<o> (unwrapped)" in built["panels"]["report"]


def test_a_malformed_bib_is_fixed_and_reported_with_its_lines(built):
    report = built["panels"]["report"]
    assert "references.bib line 6: the key 'knuth' is defined twice" in report
    assert (
        "references.bib line 13: author names separated by commas; read as "
        "'Krakauer, D. and Bertschinger, N. and Olbrich, E. and others'"
    ) in report


def test_the_report_groups_and_lists_every_place(tmp_path, capsys):
    assert main(["import-distill", str(FIXTURES / "panels"), str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    table = {
        match.group(1): [match.group(2), match.group(3), match.group(4)]
        for line in out.splitlines()
        if (match := re.fullmatch(r"(.+?)\s{2,}(\d+)\s+(\d+)\s+(\d+)", line.strip()))
    }
    assert table["multi-panel figure"] == ["1", "1", "0"]
    assert table["eq-grid (one display formula)"] == ["1", "1", "0"]
    assert table["<o> (unwrapped)"] == ["1", "1", "0"]
    # What is left out is said, with its line.
    assert re.search(r"index\.html:\d+: grid \(check\): an empty grid or flex row", out)
    every = (tmp_path / "o" / "import-report.txt").read_text("utf-8")
    assert "Every place:" in every and every.count("(check)") == out.count("(check)")


def test_template_v1(built):
    soup = built["v1"]["soup"]
    block = soup.select_one(".pb-title-block")
    assert _norm(block.h1.get_text()) == "A template v1 article"
    assert "Its subtitle is the h2 right after the h1." in _norm(block.get_text())
    body = soup.select_one(".pb-body")
    assert r"\sum_{i=1}^n i = \frac{n(n+1)}{2}" in _formulas(body)
    assert r"e^{i\pi}" in _formulas(soup.select_one(".footnote-list, #pb-appendix-footnotes"))
    assert body.select_one(".pb-cite__link")["href"] == "#pb-ref-knuth"
    assert soup.select_one("#included") is not None
    assert "comes from part.html, through dt-include." in _norm(body.get_text())
    assert body.select_one("#pb-references") is not None
    byline = soup.select_one(".pb-byline")
    assert byline is not None and "Ada Lovelace" in byline.get_text()


def test_a_link_the_original_resolved_by_heading_text_reaches_the_heading(built):
    soup = built["panels"]["soup"]
    link = next(a for a in soup.select(".pb-body a") if a.get_text() == "mixed precision")
    target = soup.find(id=link["href"].removeprefix("#"))
    assert target is not None and target.name == "section"
    assert _norm(target.find(["h2", "h3"]).get_text()).startswith("Mixed Precision Training")
    assert (
        "the link to #mixed_precision_training named no id; the original resolved it by the "
        "text of the heading 'Mixed Precision Training'"
    ) in built["panels"]["report"]


def test_an_unclosed_title_heading_does_not_swallow_the_article(tmp_path, capsys):
    """A browser puts the whole article inside an unclosed <h1>: its text is kept as the
    article, the front matter's title is the title, and the report says why."""
    source = write_project(
        tmp_path / "a",
        {
            "index.html": '<!doctype html><d-front-matter><script type="text/json">'
            '{"title": "Kept"}</script>'
            "</d-front-matter><d-title><h1>Kept\n</d-title><d-article><h2>Part</h2>"
            "<p>Every word stays.</p></d-article>"
        },
    )
    out = tmp_path / "o"
    assert main(["import-distill", str(source), str(out)]) == 0
    assert "the <h1> is never closed; its text is not the title" in capsys.readouterr().out
    assert sphinx_build("-W", "-q", "-b", "html", str(out), str(out / "_html")).returncode == 0
    soup = read_page(out / "_html")
    assert _norm(soup.select_one(".pb-title-block h1").get_text()) == "Kept"
    assert "Every word stays." in _norm(soup.select_one(".pb-body").get_text())
