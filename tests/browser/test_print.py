"""Printing an article (Print / Save as PDF) gives the article, read back from the PDF.

Chromium prints the built pages to A4 and Letter with ``page.pdf`` (the engine
behind its print dialog) and pypdf reads the text back with its position on
the page. The reader's checks: every paragraph and margin note is there in
reading order, the reference list too, nothing of the site's chrome, nothing
off the page, no figure torn from its legend, formulas as text, and a light
page whatever colour mode the screen was in.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from helpers import png
from playwright.sync_api import Page
from pypdf import PageObject, PdfReader
from pypdf.generic import ContentStream

from .conftest import SITES, _build

pytestmark = pytest.mark.browser

#: The page sizes readers print on, with their width in CSS px at 96 px per inch.
FORMATS = {"A4": 210 / 25.4 * 96, "Letter": 8.5 * 96}
#: The print stylesheet's page margins (top, right, bottom, left) in mm.
MARGINS_MM = (18, 17, 20, 17)
PRINT_STYLESHEET = "sphinx-playbook-print.css"
#: The source: a template whose comments are Jinja's (Sphinx renders it when it copies it).
SCREEN_STYLESHEET = "styles/sphinx-playbook.css_t"
THEME_STATIC = Path(__file__).parents[2] / "sphinx_playbook/theme/sphinx_playbook/static"

#: The text of each rendered (for print) paragraph of the article as runs of text
#: between formulas: a formula's glyphs are checked on their own, not as words.
PARAGRAPHS = """(selector) => {
  const skip = ".katex, .math, .MathJax, mjx-container, math";
  const walk = (node, runs) => {
    if (node.nodeType === Node.TEXT_NODE) { runs[runs.length - 1] += node.textContent; return; }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    if (node.matches(skip)) { runs.push(""); return; }
    if (!node.checkVisibility({visibilityProperty: true})) return;
    for (const child of node.childNodes) walk(child, runs);
    // Text the stylesheet adds after an element (a link's address) ends the run.
    if (!["none", "normal"].includes(getComputedStyle(node, "::after").content)) runs.push("");
  };
  const result = [];
  for (const block of document.querySelectorAll(selector)) {
    if (!block.checkVisibility({visibilityProperty: true})) continue;
    const runs = [""];
    walk(block, runs);
    result.push({
      runs: runs.filter((r) => r.trim()),
      inColumns: !!block.closest(".pb-side-by-side, td, th"),
      html: block.outerHTML.slice(0, 200),
    });
  }
  return result;
}"""


#: A text run of a printed page: x and y of its start in points (origin bottom
#: left), its font size in points, its text.
Run = tuple[float, float, float, str]


@dataclass
class Printed:
    """A printed page: the PDF and, per page, its height and its text runs."""

    reader: PdfReader
    heights: list[float]
    runs: list[list[Run]]

    def body_text(self) -> str:
        """The pages' text inside the margins (no running header or footer), in
        reading order."""
        return "\n".join(
            _reading_order([r for r in runs if self._inside(i, r)])
            for i, runs in enumerate(self.runs)
        )

    def margin_text(self, index: int) -> str:
        """The text of one page's running header and footer."""
        return " ".join(r[3] for r in self.runs[index] if not self._inside(index, r))

    def _inside(self, index: int, run: Run) -> bool:
        top, _, bottom, _ = MARGINS_PT
        return bottom <= run[1] <= self.heights[index] - top


#: The page margins in points.
MARGINS_PT = tuple(mm / 25.4 * 72 for mm in MARGINS_MM)


def _reading_order(runs: list[Run]) -> str:
    """The runs as lines top to bottom, each read left to right.

    A run belongs to the line begun by the run above it when it sits less than
    0.6 em lower, so a superscript (a footnote number) stays on its line.
    """
    lines: list[list[Run]] = []
    for run in sorted(runs, key=lambda r: -r[1]):
        if lines and lines[-1][0][1] - run[1] < 0.6 * max(run[2], lines[-1][0][2]):
            lines[-1].append(run)
        else:
            lines.append([run])
    return "\n".join("".join(r[3] for r in sorted(line)) for line in lines)


def read_pdf(data: bytes) -> Printed:
    """The PDF with each text run's position, from pypdf's text visitor."""
    reader = PdfReader(io.BytesIO(data))
    pages: list[list[Run]] = []
    for page in reader.pages:
        runs: list[Run] = []

        def visit(text: str, cm: list, tm: list, font: Any, size: float, runs: list = runs) -> None:
            if not text.strip():
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            scale = math.hypot(tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3])
            runs.append((x, y, size * scale, text))

        page.extract_text(visitor_text=visit)
        pages.append(runs)
    return Printed(reader, [float(p.mediabox.height) for p in reader.pages], pages)


def image_sizes(page: PageObject) -> Iterator[tuple[int, int]]:
    """(width, height) of each raster image the page draws, in its forms too."""

    def walk(resources: Any) -> Iterator[tuple[int, int]]:
        xobjects = resources.get("/XObject") if resources else None
        for reference in (xobjects or {}).values():
            xobject = reference.get_object()
            if xobject["/Subtype"] == "/Image":
                yield int(xobject["/Width"]), int(xobject["/Height"])
            elif xobject["/Subtype"] == "/Form":
                yield from walk(xobject.get("/Resources"))

    yield from walk(page.get("/Resources"))


def squash(text: str) -> str:
    """Text compared as printed: no whitespace, no hyphens a line break may add or drop."""
    return re.sub(r"[\s\u00ad\u2010\u2011-]+", "", text)


def print_page(page: Page, paper: str) -> Printed:
    """The page printed as the print dialog would, backgrounds on."""
    return read_pdf(page.pdf(format=paper, print_background=True))


@pytest.fixture
def printed(page_at: Callable[..., Page], docs_site: str) -> Iterator[Callable[..., tuple]]:
    """``printed(path, paper, scheme="light")`` -> (the page, its PDF), a docs/ page."""

    def open_and_print(path: str, paper: str = "A4", scheme: str = "light") -> tuple:
        page = page_at(1280, scheme, path=docs_site + path)
        pdf = print_page(page, paper)
        page.emulate_media(media="print")
        return page, pdf

    yield open_and_print


def _assert_in_order(expected: list[str], text: str, what: str) -> None:
    """Each string of ``expected`` in ``text``, each after the one before it."""
    squashed, cursor = squash(text), 0
    for item in expected:
        found = squashed.find(squash(item), cursor)
        assert found >= 0, (
            f"{what}: {item[:90]!r} is not in the printed text after what precedes it; "
            f"the text there reads {squashed[cursor : cursor + 160]!r}"
        )
        cursor = found + len(squash(item))


@pytest.mark.parametrize("paper", FORMATS)
@pytest.mark.parametrize("path", ["directives.html", "citations.html", "math.html"])
def test_every_paragraph_prints_in_reading_order(printed, path: str, paper: str) -> None:
    page, pdf = printed(path, paper)
    blocks = page.evaluate(PARAGRAPHS, ".pb-body p, .pb-body li:not(:has(p))")
    assert len(blocks) > 10
    text = pdf.body_text()
    runs = [run for block in blocks if not block["inColumns"] for run in block["runs"]]
    _assert_in_order(runs, text, f"{path} on {paper}")
    # Side-by-side columns, and the cells of a table row, print side by side: their
    # lines interleave (a cell wrapped on two lines is read across the row), so each
    # line's words are looked for on their own.
    squashed = squash(text)
    for block in blocks:
        if block["inColumns"]:
            for word in re.findall(r"\w{4,}", " ".join(block["runs"])):
                assert word in squashed, f"{word!r} of {block['html']}"


def test_every_margin_note_prints_under_its_paragraph(printed) -> None:
    page, pdf = printed("directives.html", "A4")
    asides = page.evaluate(PARAGRAPHS, ".pb-body .pb-aside")
    assert len(asides) >= 3
    text = pdf.body_text()
    for aside in asides:
        _assert_in_order(aside["runs"], text, "margin note")
    # Folded in: as wide as the text column, below the paragraph before it.
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.pb-body .pb-aside')].map(a => {
             const p = (a.closest('.pb-aside-stack') || a).previousElementSibling;
             const r = a.getBoundingClientRect(), q = p.getBoundingClientRect();
             const c = document.querySelector('.pb-body').getBoundingClientRect();
             return {top: r.top, above: q.bottom, right: r.right, column: c.right};
           })"""
    )
    for box in boxes:
        assert box["top"] >= box["above"] - 0.5, box
        assert abs(box["right"] - box["column"]) < 1, box


def test_the_reference_list_prints_with_addresses_and_only_there(printed) -> None:
    page, pdf = printed("citations.html", "A4")
    soup = BeautifulSoup(page.content(), "html.parser")
    text = pdf.body_text()
    # The heading, then every entry.
    blocks = page.evaluate(
        PARAGRAPHS, ".pb-appendix section:has(.pb-reference-list) > h2, .pb-reference-list > li"
    )
    assert len(blocks) == 1 + len(soup.select(".pb-reference-list > li")) > 1
    assert blocks[0]["runs"] == ["References"]
    _assert_in_order([r for block in blocks for r in block["runs"]], text, "reference list")
    # The address after an external link that is not the DOI already printed.
    shown = 0
    for link in soup.select(".pb-reference-list a.reference.external"):
        href = str(link["href"])
        if href.startswith("https://doi.org/") and link.find_previous_sibling("a") is not None:
            continue
        assert squash(f"{link.get_text()}<{href}>") in squash(text), href
        shown += 1
    assert shown
    # Everywhere else a link prints as its text alone.
    for link in soup.select(".pb-body a.reference.external"):
        if link.find_parent(class_="pb-reference-list") is None and link.get_text() != link["href"]:
            assert squash(f"{link.get_text()}<{link['href']}>") not in squash(text)
    # Citations print as their numbers, footnotes in the appendix's list.
    cards = page.evaluate(
        "() => [...document.querySelectorAll('.pb-card')].filter(c => c.checkVisibility()).length"
    )
    assert cards == 0
    for note in soup.select(".pb-appendix .footnote > p"):
        assert squash(note.get_text()) in squash(text)


def test_the_site_chrome_does_not_print(printed) -> None:
    page, pdf = printed("directives.html", "A4")
    runs = [r[3] for page_runs in pdf.runs for r in page_runs]
    spaced, squashed = " ".join(" ".join(runs).split()), squash("".join(runs))
    chrome = page.evaluate(
        """() => ['.pb-header', '.pb-toc', '.pb-prev-next', '.pb-search-dialog', '.pb-copy',
                  '.pb-skip-link', '.pb-search-button', '.pb-theme-switch',
                  '.pb-card:not(.pb-previews *)', '.pb-previews']
             .flatMap(s => [...document.querySelectorAll(s)].map(e => ({
               selector: s, shown: e.checkVisibility(), text: e.textContent})))"""
    )
    assert {c["selector"] for c in chrome} >= {".pb-header", ".pb-toc", ".pb-copy"}
    for part in chrome:
        assert not part["shown"], part["selector"]
        if part["selector"] == ".pb-previews":
            continue  # previews repeat what the page prints: a figure's legend, a section's text
        text = " ".join(part["text"].split())
        if len(squash(text)) > 20:
            assert squash(text) not in squashed, part["selector"]
        elif text:  # a short label ("Copy"), as a word of its own
            assert not re.search(rf"(?<!\w){re.escape(text)}(?!\w)", spaced), part["selector"]


@pytest.mark.parametrize("paper", FORMATS)
def test_nothing_prints_outside_the_page(printed, paper: str) -> None:
    page, pdf = printed("directives.html", paper)
    for index, runs in enumerate(pdf.runs):
        box = pdf.reader.pages[index].mediabox
        _, right, _, left = MARGINS_PT
        for x, y, _, text in runs:
            assert 0 <= y <= float(box.height), (index, text)
            assert left - 1 <= x <= float(box.width) - right, (index, x, text)
    # Laid out at the printed width, no box reaches past the right margin.
    content = math.floor(FORMATS[paper] - (MARGINS_MM[1] + MARGINS_MM[3]) / 25.4 * 96)
    page.set_viewport_size({"width": content, "height": 1000})
    wider = page.evaluate(
        """(width) => [...document.querySelectorAll('.pb-main *')]
             .filter(e => e.checkVisibility() && e.getBoundingClientRect().right > width + 0.5)
             .map(e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)""",
        content,
    )
    assert wider == []


def test_formulas_print_as_text(printed) -> None:
    page, pdf = printed("math.html", "A4")
    assert [size for p in pdf.reader.pages for size in image_sizes(p)] == [], "no raster image"
    formulas = page.evaluate(
        """() => [...document.querySelectorAll('.pb-body .katex-html')]
             .map(k => k.textContent.replace(/[\\u200b\\u2061-\\u2064\\s]/g, ''))"""
    )
    assert formulas
    text = squash(pdf.body_text())
    for formula in formulas:
        letters = [c for c in formula if c.isalnum()]
        assert all(c in text for c in letters), formula


#: The title of the generated article's interactive figure, which has no static image.
NO_FALLBACK_ALT = "A plot drawn by a script, with no static image."


@pytest.fixture(scope="module")
def figures_site(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A long article with raster figures and their legends at every height of the page,
    after an interactive figure without a static fallback.

    Each image has its own size, so its XObject in the PDF tells which figure it is;
    paragraphs of growing length put some figure across a page break on either paper.
    """
    source = tmp_path_factory.mktemp("print-figures")
    (source / "conf.py").write_text(
        'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
        'project = "Printed figures"\nnumfig = True\n',
        encoding="utf-8",
    )
    (source / "images").mkdir()
    (source / "figures").mkdir()
    (source / "figures" / "plot.html").write_text("<div>drawn by a script</div>", encoding="utf-8")
    parts = [
        "# Printed figures\n",
        f":::{{interactive-figure}} figures/plot.html\n:alt: {NO_FALLBACK_ALT}\n\nIts legend.\n:::",
    ]
    for number in range(14):
        (source / "images" / f"f{number}.png").write_bytes(png(*figure_size(number)))
        parts.append(
            " ".join(["A sentence of running text before the next figure."] * (3 + 4 * number))
        )
        parts.append(f"![Figure {number}](images/f{number}.png)")
        parts.append(f"```{{figure-legend}}\nLegend of figure number {number}.\n```")
    (source / "index.md").write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    _build(source, site_dir / "print-figures")
    return "print-figures/index.html"


def figure_size(number: int) -> tuple[int, int]:
    """The pixel size of figure ``number``: unique, and tall enough to need room."""
    return 600 + number, 260 + 3 * number


@pytest.mark.parametrize("paper", FORMATS)
def test_no_figure_is_torn_from_its_legend(page_at, figures_site: str, paper: str) -> None:
    page = page_at(1280, path=figures_site)
    pdf = print_page(page, paper)
    where_image = {}
    for index, pdf_page in enumerate(pdf.reader.pages):
        for size in image_sizes(pdf_page):
            where_image[size] = index
    legend_pages = {}
    for index, runs in enumerate(pdf.runs):
        page_text = squash("".join(t for *_, t in runs))
        for number in re.findall(r"Legendoffigurenumber(\d+)\.", page_text):
            legend_pages[int(number)] = index
    assert sorted(legend_pages) == list(range(14))
    assert len(where_image) == 14
    for number, legend_page in legend_pages.items():
        assert where_image[figure_size(number)] == legend_page, f"figure {number} is split"
    assert len(set(legend_pages.values())) > 1, "the article fills more than one page"


def test_an_interactive_figure_prints_its_fallback(printed) -> None:
    page, pdf = printed("interactive-figures.html", "A4")
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.pb-interactive')].map(f => ({
             frame: !!f.querySelector('iframe')?.checkVisibility(),
             image: !!f.querySelector('.pb-interactive__fallback img')?.checkVisibility(),
             caption: f.querySelector('figcaption')?.checkVisibility()}))"""
    )
    assert shown
    assert all(f == {"frame": False, "image": True, "caption": True} for f in shown), shown
    assert "Opentheinteractivefigure" not in squash(pdf.body_text())


def test_an_interactive_figure_without_fallback_prints_its_title_and_address(
    page_at, figures_site: str
) -> None:
    page = page_at(1280, path=figures_site)
    text = squash(print_page(page, "A4").body_text())
    href = page.get_attribute(".pb-interactive__open", "href")
    assert href and href.startswith("_interactive/")
    _assert_in_order([NO_FALLBACK_ALT, f"Open the interactive figure: {href}"], text, "figure")


#: Luminance (0-1) of an sRGB colour given as 0-1 components.
def luminance(rgb: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def over_white(css: str) -> tuple[float, float, float]:
    """An ``rgb()``/``rgba()`` computed colour drawn on white paper, as 0-1 components."""
    r, g, b, *alpha = (float(v) for v in re.findall(r"[\d.]+", css))
    a = alpha[0] if alpha else 1.0
    return (r / 255 * a + 1 - a, g / 255 * a + 1 - a, b / 255 * a + 1 - a)


def fills(reader: PdfReader, page_index: int) -> tuple[list[tuple[float, tuple]], list[tuple]]:
    """The page's filled rectangles (area share, colour) and the colours text is drawn in."""
    page = reader.pages[page_index]
    area = float(page.mediabox.width) * float(page.mediabox.height)
    stream = ContentStream(page.get_contents(), reader)
    colour: tuple = (0.0, 0.0, 0.0)
    stack: list[tuple] = []
    ctm = [1.0, 0, 0, 1.0, 0, 0]
    ctm_stack: list[list[float]] = []
    rects: list[tuple[float, float]] = []
    filled: list[tuple[float, tuple]] = []
    text_colours: list[tuple] = []
    for operands, operator in stream.operations:
        op = operator.decode("latin-1")
        if op == "q":
            stack.append(colour)
            ctm_stack.append(ctm)
        elif op == "Q":
            colour = stack.pop() if stack else colour
            ctm = ctm_stack.pop() if ctm_stack else ctm
        elif op == "cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, C, D, E, F = ctm
            ctm = [
                a * A + b * C,
                a * B + b * D,
                c * A + d * C,
                c * B + d * D,
                e * A + f * C + E,
                e * B + f * D + F,
            ]
        elif op == "rg":
            colour = tuple(float(v) for v in operands)
        elif op == "g":
            colour = (float(operands[0]),) * 3
        elif op == "re":
            w, h = float(operands[2]), float(operands[3])
            rects.append((w * math.hypot(ctm[0], ctm[1]), h * math.hypot(ctm[2], ctm[3])))
        elif op in ("f", "f*", "F"):
            filled.extend((abs(w * h) / area, colour) for w, h in rects)
            rects = []
        elif op == "n":
            rects = []
        elif op in ("Tj", "TJ", "'", '"'):
            text_colours.append(colour)
    return filled, text_colours


@pytest.mark.parametrize("path", ["index.html", "directives.html"])
def test_a_page_in_dark_mode_prints_light(printed, path: str) -> None:
    page, pdf = printed(path, "A4", scheme="dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    # As the browser's print preview lays it out (media print, system still dark).
    colours = page.evaluate(
        """() => [document.body, ...document.querySelectorAll('.pb-body :is(p, h2, td, pre)')]
             .map(e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor])"""
    )
    assert colours[0][1] == "rgb(255, 255, 255)"
    for colour, _ in colours:
        assert luminance(over_white(colour)) < 0.3, colour
    for index in range(len(pdf.reader.pages)):
        filled, text_colours = fills(pdf.reader, index)
        for share, colour in filled:
            if share > 0.02:
                assert luminance(colour) > 0.8, (index, share, colour)
        dark_text = [c for c in text_colours if luminance(c) < 0.4]
        assert text_colours and len(dark_text) / len(text_colours) > 0.9, (index, text_colours[:5])
    # Highlighted code prints in the light style's colours, as a light page would.
    tokens = (
        "() => [...document.querySelectorAll('.highlight span')]"
        ".map(e => getComputedStyle(e).color)"
    )
    printed_dark = page.evaluate(tokens)
    page.evaluate("document.documentElement.dataset.theme = 'light'")
    assert printed_dark and printed_dark == page.evaluate(tokens)


def test_the_running_header_and_footer(printed) -> None:
    page, pdf = printed("directives.html", "A4")
    title = page.evaluate("document.querySelector('.pb-title').textContent.trim()")
    pages = len(pdf.runs)
    assert pages > 1
    for index in range(pages):
        margin = squash(pdf.margin_text(index))
        assert f"{index + 1}/{pages}" in margin, margin
        # The title block shows the title on the first page; the others repeat it.
        assert (squash(title) in margin) == (index > 0), margin


def test_the_screen_stylesheet_has_no_print_rules() -> None:
    screen = (THEME_STATIC / SCREEN_STYLESHEET).read_text(encoding="utf-8")
    without_comments = re.sub(r"/\*.*?\*/|\{#.*?#\}", "", screen, flags=re.DOTALL)
    assert not re.search(r"@media[^{]*\bprint\b", without_comments)
    assert not re.search(r"@page\b", without_comments)


def test_every_page_links_the_print_stylesheet(site_dir: Path) -> None:
    """Every page of every built site, search page included, with Sphinx's checksum."""
    pages = [p for name in SITES for p in (site_dir / name).rglob("*.html")]
    pages = [p for p in pages if "_interactive" not in p.parts]
    assert len(pages) >= len(SITES) * 2
    for path in pages:
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        links = [
            (link, str(link["href"]))
            for link in soup.select('link[rel="stylesheet"]')
            if PRINT_STYLESHEET in str(link["href"])
        ]
        assert len(links) == 1, path
        link, href = links[0]
        assert link.get("media") == "print", path
        assert re.search(r"\?v=[0-9a-f]{8}$", href), href
        # After every stylesheet for all media, so that it adjusts them on paper.
        assert link is soup.select('link[rel="stylesheet"]')[-1], path
        target = (path.parent / href.split("?")[0]).resolve()
        assert target.is_file(), target
        assert "@page" in target.read_text(encoding="utf-8")
