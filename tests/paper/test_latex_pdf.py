"""The LaTeX route: what a reader of the PDF finds (compiled with latexmk, read back)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import REPO, ROOTS, Pdf, build_pdf


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_title_block_shows_the_byline(paper_book: Pdf) -> None:
    first = _squeezed(paper_book.page_text(0))
    for expected in (
        "Training on One Thousand",
        "What fills the memory of a GPU",
        "Ada Lovelace",
        "Charles Babbage",
        "Analytical Engine Lab",
        "Royal Society",
        "Mar 14, 2026",
        "10.5555/paper.2026",
    ):
        assert expected in first, expected
    assert "Author name not set" not in paper_book.text


def test_every_part_of_the_book_in_reading_order(paper_book: Pdf) -> None:
    text = _squeezed(paper_book.text)
    parts = [
        "Opening paragraph",
        "Second paragraph, after the aside",
        "is the average loss",
        "Left panel legend",
        "Right panel legend",
        "Interactive chart legend",
        "Closing paragraph of the first chapter",
        "Chapter paragraph one",
        "Chapter paragraph two",
        "Left column text",
        "REFERENCES",
        "For attribution in academic contexts",
        "Creative Commons Attribution 4.0",
    ]
    positions = [text.find(part) for part in parts]
    assert all(p >= 0 for p in positions), dict(zip(parts, positions, strict=True))
    assert positions == sorted(positions)


@pytest.mark.parametrize(
    ("note", "paragraph"),
    [
        ("Margin note: the aside", "Second paragraph, after the aside"),
        ("Chapter margin note", "Chapter paragraph two"),
        ("Gutter note", "Chapter paragraph three"),
    ],
    ids=["myst-aside", "rst-aside", "rst-gutter-layout"],
)
def test_asides_are_margin_notes_beside_their_paragraph(
    paper_book: Pdf, note: str, paragraph: str
) -> None:
    note_page, note_at = paper_book.find(note)
    text_page, text_at = paper_book.find(paragraph)
    assert note_page == text_page
    width = float(paper_book.reader.pages[note_page].mediabox.width)
    # The text column ends well before 60 % of the page; the note starts after it,
    # and stays on the page.
    assert note_at.x > 0.6 * width > text_at.x
    assert note_at.x < width - 20
    assert abs(note_at.y - text_at.y) < 40


@pytest.mark.parametrize(
    ("left", "right"),
    [("Left panel legend", "Right panel legend"), ("Left column text", "Right column text")],
    ids=["myst-figures", "rst-paragraphs"],
)
def test_side_by_side_blocks_are_columns(paper_book: Pdf, left: str, right: str) -> None:
    left_page, left_at = paper_book.find(left)
    right_page, right_at = paper_book.find(right)
    assert left_page == right_page
    assert abs(left_at.y - right_at.y) < 2  # one baseline: side by side, not stacked
    layout = paper_book.reader.pages[left_page].extract_text(extraction_mode="layout")
    line = next(line for line in layout.splitlines() if left in line and right in line)
    gap = line.index(right) - line.index(left)
    assert gap > len(left) + 10, line  # a column's width apart, not one running line


def test_figures_are_numbered_and_interactive_figures_print_their_fallback(
    paper_book: Pdf,
) -> None:
    text = _squeezed(paper_book.text)
    assert "Fig. 1: Left panel legend." in text
    assert "Fig. 3: Interactive chart legend." in text
    page, _ = paper_book.find("Interactive chart legend")
    assert paper_book.image_count(page) == 3  # both panels and the chart's fallback
    assert "{chart}.png}" in paper_book.tex


def test_citations_are_numbers_with_the_references_in_citation_order(paper_book: Pdf) -> None:
    text = _squeezed(paper_book.text)
    assert "Research debt is real [1], and attention is all you need [2]" in text
    assert "cites [1] again" in text
    references = text[text.find("REFERENCES") :]
    assert references.find("Research Debt") < references.find("Attention Is All You Need")
    assert references.count("Research Debt") == 1


def test_footnotes_are_footnotes_at_the_foot_of_their_page(paper_book: Pdf) -> None:
    page, note = paper_book.find("Footnote text: parameters")
    mark_page, _ = paper_book.find("Opening paragraph")
    assert page == mark_page
    _, closing = paper_book.find("Closing paragraph")
    assert note.y < closing.y  # below the page's last paragraph


def test_math_is_typeset_text_from_the_tex_source(paper_book: Pdf) -> None:
    assert r"\(E = mc^2\)" in paper_book.tex
    page, _ = paper_book.find("is the average loss")
    text = paper_book.page_text(page).replace(" ", "")
    assert "\U0001d45a\U0001d4502" in text  # m c 2 in math italic: glyphs, not a picture
    assert "(1)" in text  # the equation's number
    # playbook_math_macros are LaTeX macros too: \norm{x} and \RR expanded.
    assert "\u2016\U0001d465\u2016" in text  # ‖x‖


def test_the_citation_block_links_the_html_page(paper_book: Pdf) -> None:
    assert "url = {https://example.org/paper/index.html}" in _squeezed(paper_book.text)


@pytest.mark.parametrize("engine", ["xelatex", "lualatex"])
def test_the_unicode_engines_compile_the_same_book(tmp_path: Path, engine: str) -> None:
    # Sphinx asks these engines for xindy, a separate Debian package; makeindex does here.
    pdf = build_pdf(
        ROOTS / "test-paper",
        tmp_path,
        "paper",
        "-W",
        "-D",
        f"latex_engine={engine}",
        "-D",
        "latex_use_xindy=0",
    )
    assert "Charles Babbage" in pdf.page_text(0)
    note_page, note_at = pdf.find("Margin note: the aside")
    assert note_at.x > 0.6 * float(pdf.reader.pages[note_page].mediabox.width)


def test_what_latex_cannot_take_is_a_located_warning_not_a_latex_error(tmp_path: Path) -> None:
    root = ROOTS / "test-paper-bad"
    pdf = build_pdf(root, tmp_path, "paperwithwhatlatexcannottake")
    warnings = [line for line in pdf.warnings.splitlines() if "[playbook.latex]" in line]
    assert len(warnings) == 2, pdf.warnings
    image, character = sorted(warnings, key=lambda line: "U+2318" in line)
    assert f"{root / 'index.md'}:5:" in image and "diagram.tiff" in image and "'.*'" in image
    assert f"{root / 'index.md'}:7:" in character and "U+2318" in character
    assert "xelatex" in character
    text = _squeezed(pdf.text)
    assert "[Diagram only in TIFF]" in text
    assert "the rest of the page still prints" in text


def test_the_documentation_compiles_to_a_pdf(tmp_path: Path) -> None:
    pdf = build_pdf(REPO / "docs", tmp_path, "sphinx_playbook", "-W")
    assert len(pdf.reader.pages) > 30
    first = _squeezed(pdf.page_text(0))
    assert "Josiah Carberry" in first and "DOI" in first


def test_a_new_playbook_compiles_to_a_pdf_whatever_its_title(tmp_path: Path) -> None:
    from sphinx_playbook.cli import main

    root = tmp_path / "playbook"
    title = "R&D_notes: 100% of #GPUs"
    assert main(["new", str(root), "--title", title, "--author", "Ada Lovelace"]) == 0
    pdf = build_pdf(root / "book", tmp_path / "latex", "playbook", "-W")
    first = _squeezed(pdf.page_text(0))
    assert title in first and "Ada Lovelace" in first
    assert pdf.reader.metadata is not None and pdf.reader.metadata.title == title
