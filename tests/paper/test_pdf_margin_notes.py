"""Margin notes (asides) stay on the page: LaTeX's \\marginpar moves a note down
below the one above it, and a note pushed near the bottom ran off the page (one of
the Ultra-Scale Playbook's 42 did). marginfix carries what does not fit to the next
page's margin."""

from __future__ import annotations

import pytest
from helpers import write_project

from .conftest import Pdf, build_pdf

CONF = """\
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Margins"
latex_theme = "howto"
"""

WORDS = " ".join(f"word{number}" for number in range(1, 140))


def _page() -> str:
    parts = ["# Margins\n"]
    for number in range(1, 4):
        # Three long notes beside three one-line paragraphs: each note starts below
        # the one before, the third well down the page.
        parts.append(f"Short paragraph {number}.\n")
        parts.append(f":::{{aside}}\nNote {number} starts. {WORDS} Note {number} ends.\n:::\n")
    parts.append("Paragraph after the notes.\n")
    parts += [f"Filler paragraph {number} " + "text " * 60 + "\n" for number in range(30)]
    return "\n".join(parts)


@pytest.fixture(scope="module")
def margins(tmp_path_factory: pytest.TempPathFactory) -> Pdf:
    source = write_project(tmp_path_factory.mktemp("src"), {"index.md": _page()}, conf=CONF)
    return build_pdf(source, tmp_path_factory.mktemp("out"), "margins", "-W")


def test_no_margin_note_runs_past_the_bottom_of_the_page(margins: Pdf) -> None:
    bottom_margin = 72  # 1in (the package's geometry): the text block ends there
    for index in range(len(margins.reader.pages)):
        for fragment in margins.fragments(index):
            # The page number sits in the bottom margin, at about 42pt.
            assert fragment.y > bottom_margin - 35, (index, fragment)
    for number in range(1, 4):
        start_page, start = margins.find(f"Note {number} starts.")
        end_page, end = margins.find(f"Note {number} ends.")
        assert end_page >= start_page and end.x == pytest.approx(start.x, abs=1)


def test_a_note_that_does_not_fit_goes_to_the_next_page_margin(margins: Pdf) -> None:
    page, paragraph = margins.find("Short paragraph 3.")
    first_page, _ = margins.find("Note 1 starts.")
    note_page, note = margins.find("Note 3 starts.")
    assert first_page == page
    assert note_page > page  # carried over, whole, to the top of a later margin
    _, end = margins.find("Note 3 ends.")
    height = float(margins.reader.pages[note_page].mediabox.height)
    assert note.y > height - 72 - 20 and end.y < note.y
    width = float(margins.reader.pages[note_page].mediabox.width)
    # In the margin (the outer one of a left-hand page), not in the text.
    text_x = min(f.x for f in margins.fragments(note_page) if f.text.startswith("Filler"))
    assert note.x < text_x or note.x > 0.6 * width
    assert paragraph.y > 0
