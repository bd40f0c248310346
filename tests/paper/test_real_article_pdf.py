"""What a real article (the Ultra-Scale Playbook, imported with import-distill)
needed of the PDF, each reproduced by a small hand-written page: an aside with
line breaks, a grid with more blocks than columns, notes, images and a citation
written in raw HTML, animated GIFs, an SVG image whose file is missing."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import build, png, write_project
from PIL import Image

from .conftest import Pdf, build_pdf

CONF = """\
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Real Article"
latex_theme = "howto"
exclude_patterns = ["_build", "_published"]
html_extra_path = ["_published"]
"""

PAGE = """\
# Real Article

Opening paragraph.

:::{aside}
First line of the note.\\
\\
Second paragraph of the note.
:::

Paragraph beside the note.

:::{side-by-side}
:columns: 1fr 1fr

**Row one label**

- Row one detail

**Row two label**

- Row two detail
:::

```{raw} html
<div class="boxed-image">
  <img alt="Published picture" src="assets/published.png" style="width: 1200px">
  <img alt="Nowhere" src="assets/not-there.png">
  <img alt="Remote" src="https://example.org/remote.png">
</div>
```

Paragraph after the raw HTML.

```{raw} html
<div class="note-box">
  <p class="note-box-title">Note title</p>
  <div class="note-box-content">
    <p>Boxed <strong>note</strong> text with <code>nvidia-smi</code> and
      <a href="https://example.org/guide">a guide</a>.</p>
    <ul><li>First boxed item</li><li>Second boxed item</li></ul>
    Closing sentence of the box.
  </div>
</div>
```

```{raw} html
<div class="info">Hover over the drawing to see its parts.</div>
<select id="preset"><option>Preset option</option></select>
<audio controls><source src="talk.wav">Your browser cannot play audio.</audio>
<script>document.title = "Script text";</script>
<pre class="citation">Lovelace et al., "Real Article", 2026.</pre>
```

Paragraph after the boxes.

![Animated diagram](animation.gif)

Paragraph after the animation.

![Missing drawing](missing.svg)

We are GPU-rich 🤑 (!) and ✓ done; press ⌘ to open it.

Closing paragraph.
"""


def _animation() -> bytes:
    """Three frames, red, green, blue; the last (blue) shown longest, as an
    animated diagram rests on its final state."""
    frames = [Image.new("RGB", (60, 30), colour) for colour in ("red", "lime", "blue")]
    out = io.BytesIO()
    frames[0].save(
        out, "GIF", save_all=True, append_images=frames[1:], duration=[500, 500, 2000], loop=0
    )
    return out.getvalue()


@pytest.fixture(scope="module")
def article(tmp_path_factory: pytest.TempPathFactory) -> Pdf:
    root = write_project(
        tmp_path_factory.mktemp("src"),
        {
            "index.md": PAGE,
            "animation.gif": _animation(),
            "_published/assets/published.png": png(120, 60),
        },
        conf=CONF,
    )
    return build_pdf(root, tmp_path_factory.mktemp("out"), "realarticle")


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_an_aside_with_line_breaks_compiles_as_one_margin_note(article: Pdf) -> None:
    # Two line breaks in a row ended LaTeX with "There's no line here to end".
    note_page, first = article.find("First line of the note.")
    _, second = article.find("Second paragraph of the note.")
    text_page, paragraph = article.find("Opening paragraph")
    assert note_page == text_page
    width = float(article.reader.pages[note_page].mediabox.width)
    assert first.x > 0.6 * width > paragraph.x and second.x == pytest.approx(first.x, abs=1)
    assert second.y < first.y


def test_a_grid_with_more_blocks_than_columns_is_set_row_by_row(article: Pdf) -> None:
    # 1fr 1fr and four blocks: two rows of two, as the browser lays the grid out,
    # not four columns a quarter wide.
    page, label_one = article.find("Row one label")
    _, detail_one = article.find("Row one detail")
    _, label_two = article.find("Row two label")
    _, detail_two = article.find("Row two detail")
    width = float(article.reader.pages[page].mediabox.width)
    assert abs(label_one.y - detail_one.y) < 2 and abs(label_two.y - detail_two.y) < 2
    assert label_two.y < label_one.y - 5  # the second row under the first
    assert label_two.x == pytest.approx(label_one.x, abs=1)
    assert detail_one.x - label_one.x > 0.2 * width  # half the line apart
    assert article.tex.count(r"\begin{sphinxplaybookcolumns}") == 2


def test_images_of_raw_html_are_in_the_pdf(article: Pdf) -> None:
    page, _ = article.find("Paragraph after the raw HTML")
    assert "{published}.png}" in article.tex  # found in html_extra_path
    assert article.image_count(page) >= 1
    assert "not-there" not in article.tex and "remote" not in article.tex
    assert "not-there" not in article.warnings  # the HTML misses it too: the import says so


def test_the_text_of_raw_html_is_in_the_pdf_and_its_controls_are_not(article: Pdf) -> None:
    text = _squeezed(article.text)
    for expected in (
        "Note title",
        "Boxed note text with nvidia-smi and a guide.",
        "First boxed item",
        "Second boxed item",
        "Closing sentence of the box.",
        'Lovelace et al., "Real Article", 2026.',
    ):
        assert expected in text, expected
    assert text.find("Closing sentence of the box.") < text.find("Paragraph after the boxes")
    for screen_only in ("Hover over", "Preset option", "cannot play audio", "Script text"):
        assert screen_only not in text, screen_only
    # The note is one framed box; the link keeps its address; the citation is code.
    assert article.tex.count(r"\begin{sphinxtopic}") == 1
    assert r"\sphinxhref{https://example.org/guide}{a guide}" in article.tex
    assert r"\begin{sphinxVerbatim}" in article.tex


def test_an_emoji_is_left_out_and_other_unknown_characters_print_as_boxes(article: Pdf) -> None:
    text = _squeezed(article.text)
    assert "We are GPU-rich (!) and" in text  # no box, no double space
    assert r"\(\checkmark\) done" in article.tex  # a symbol pdflatex sets stays
    assert "\U0001f911" not in article.tex and "\u2318" in article.tex
    warnings = [line for line in article.warnings.splitlines() if "[playbook.latex]" in line]
    assert len(warnings) == 2, article.warnings
    emoji, box = sorted(warnings, key=lambda line: "U+2318" in line)
    assert "U+1F911" in emoji and "is left out of the PDF" in emoji and "emoji" in emoji
    assert "prints as a box" in box
    # Raw HTML is not set by LaTeX: its characters are never warned about.
    assert all("U+1F4DD" not in line for line in warnings)


def test_an_animated_gif_prints_the_frame_it_rests_on(article: Pdf) -> None:
    assert "{animation}.png}" in article.tex
    assert "[Animated diagram]" not in article.text
    with Image.open(article.path.parent / "animation.png") as frame:
        assert frame.convert("RGB").getpixel((30, 15)) == (0, 0, 255)
    assert "animation.gif" not in article.warnings


def test_a_missing_svg_is_sphinx_s_one_warning_and_its_alt_text(article: Pdf) -> None:
    # The SVG converter took it for a file Sphinx had copied (KeyError: the build
    # stopped); now the PDF prints its alt text, and Sphinx's warning says why.
    assert "[Missing drawing]" in _squeezed(article.text)
    warnings = [line for line in article.warnings.splitlines() if "missing.svg" in line]
    assert len(warnings) == 1, article.warnings
    assert "image file not readable: missing.svg" in warnings[0]
    assert "Closing paragraph" in article.text


def test_the_html_page_shows_the_raw_html_images_once(tmp_path: Path) -> None:
    """The PDF's copies of raw HTML images are for LaTeX only: the page shows each
    raw HTML <img> once (as an image of the page: raw_images.py), with no second
    image from the PDF's copy."""
    files = {"index.md": PAGE, "animation.gif": _animation()}
    files["_published/assets/published.png"] = png(8, 8)
    out = build(write_project(tmp_path / "src", files, conf=CONF), tmp_path / "html")
    page = BeautifulSoup((out / "index.html").read_text(encoding="utf-8"), "html.parser")
    shown = page.find_all("img", alt="Published picture")
    assert len(shown) == 1
    assert (out / shown[0]["src"]).is_file()
    assert (out / "assets" / "published.png").is_file()  # html_extra_path, as before
