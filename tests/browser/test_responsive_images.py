"""The browser takes the copy that fits the column, at the reader's width: AVIF where
Pillow writes it (Chromium decodes it), else WebP; an author-sized image its own
width at 1x and 2x; on paper a copy of at least 200 dpi."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from helpers import sphinx_build
from playwright.sync_api import Browser, Page
from pypdf import PdfReader
from test_author_sized_images import make_book as make_sized_book
from test_responsive_images import AVIF, make_book

from sphinx_playbook.delivery.responsive_images import PAPER_WIDTH, PRINT_DPI

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def images_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_book(tmp_path_factory.mktemp("images") / "src")
    outdir = root.parent / "html"
    sphinx_build("-q", "-b", "html", str(root), str(outdir))
    return outdir


@pytest.mark.parametrize(
    ("width", "alt", "chosen"),
    [
        (390, "A photo in the text column", "360w"),
        (1440, "A photo in the text column", "704w"),
        (1440, "The photo in the page column", "1072w"),
        (1440, "The photo as a band", "1600w"),
        (1440, "Left photo", "360w"),
    ],
)
def test_the_copy_that_fits_is_downloaded(
    browser: Browser, images_site: Path, width: int, alt: str, chosen: str
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto((images_site / "index.html").as_uri())
        image = page.get_by_alt_text(alt, exact=True)
        image.scroll_into_view_if_needed()
        page.wait_for_function(
            "alt => document.querySelector(`img[alt='${alt}']`).complete", arg=alt
        )
        current = image.evaluate("img => img.currentSrc")
        assert current.endswith(f"-{chosen}.{'avif' if AVIF else 'webp'}"), current
        # The box is the original's shape: width and height are written as before.
        box = image.bounding_box()
        assert box is not None and abs(box["height"] - box["width"] * 900 / 1600) < 2
    finally:
        context.close()


@pytest.fixture(scope="module")
def sized_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_sized_book(tmp_path_factory.mktemp("sized") / "src")
    outdir = root.parent / "html"
    sphinx_build("-q", "-b", "html", str(root), str(outdir))
    return outdir


def _current(page: Page, alt: str) -> str:
    image = page.get_by_alt_text(alt, exact=True)
    image.scroll_into_view_if_needed()
    page.wait_for_function("alt => document.querySelector(`img[alt='${alt}']`).complete", arg=alt)
    return str(image.evaluate("img => img.currentSrc"))


@pytest.mark.parametrize(
    ("width", "scale", "chosen"),
    [(390, 1, "360w"), (1440, 1, "500w"), (1440, 2, "1000w"), (390, 2, "1000w")],
)
def test_an_author_sized_image_takes_its_own_width(
    browser: Browser, sized_site: Path, width: int, scale: int, chosen: str
) -> None:
    """``:width: 500px``: 360 px on a phone's 358-pixel column, the 500 px copy at
    1x on a wide screen, the 1,000 px one at 2x."""
    context = browser.new_context(
        viewport={"width": width, "height": 900}, device_scale_factor=scale
    )
    try:
        page = context.new_page()
        page.goto((sized_site / "index.html").as_uri())
        current = _current(page, "Fixed width")
        assert current.endswith(f"-{chosen}.{'avif' if AVIF else 'webp'}"), current
        box = page.get_by_alt_text("Fixed width", exact=True).bounding_box()
        assert box is not None and box["width"] == min(500, width - 32)
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1440])
def test_paper_takes_at_least_200_dpi(browser: Browser, sized_site: Path, width: int) -> None:
    """Laid out for print, each image's copy has at least 200 pixels per inch of the
    width it prints at (96 CSS pixels to the inch), whatever the screen took: the
    ``<source media="print">`` alone, as a browser without our script takes it."""
    context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto((sized_site / "index.html").as_uri())
        screen = _current(page, "In the text column")
        page.set_viewport_size({"width": PAPER_WIDTH, "height": 900})  # Letter's text width
        page.emulate_media(media="print")
        page.wait_for_function(  # the copies for paper in: Chromium switches to them
            "[...document.querySelectorAll('.pb-body picture img')].every(img => img.complete"
            f" && img.naturalWidth * 96 >= {PRINT_DPI} * img.getBoundingClientRect().width)"
        )
        printed = page.eval_on_selector_all(
            ".pb-body picture img",
            "images => images.map(img => [img.alt, img.currentSrc, img.naturalWidth,"
            " img.getBoundingClientRect().width])",
        )
        assert len(printed) >= 6
        for alt, current, pixels, shown in printed:
            assert pixels * 96 / shown >= PRINT_DPI, (alt, current, pixels, shown)
        column = next(p for p in printed if p[0] == "In the text column")
        if width == 390:
            assert column[1] != screen  # the phone's 360 px copy is not printed
    finally:
        context.close()


def _drawn_images(pdf: bytes) -> list[tuple[int, float]]:
    """Each image drawn on the PDF's pages: its width in pixels and in inches."""
    drawn: list[tuple[int, float]] = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        xobjects = page["/Resources"].get_object().get("/XObject", {})

        def visit(
            operator: bytes, arguments: list, matrix: list, _text: list, xobjects=xobjects
        ) -> None:
            if operator == b"Do" and arguments[0] in xobjects:
                image = xobjects[arguments[0]].get_object()
                if image.get("/Subtype") == "/Image":
                    drawn.append((int(image["/Width"]), matrix[0] / 72))  # points to inches

        page.extract_text(visitor_operand_before=visit)
    return drawn


@pytest.mark.parametrize("width", [390, 1440])
def test_the_first_print_has_200_dpi(browser: Browser, sized_site: Path, width: int) -> None:
    """Printed at once, as a reader does: Chromium prints without waiting for a
    ``<source media="print">`` it switches to, so the theme's script shows each copy
    for paper as a new image while the page prints. Every image drawn in the PDF has
    at least 200 pixels per inch of its printed width; after printing, the page is
    as it was."""
    context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto((sized_site / "index.html").as_uri())
        page.wait_for_load_state("load")
        pictures = page.locator(".pb-body picture").count()
        drawn = _drawn_images(page.pdf(format="Letter"))
        assert len(drawn) >= 8  # every raster image of the page, the SVG aside
        for pixels, inches in drawn:
            assert pixels / inches >= PRINT_DPI, (pixels, inches)
        assert pictures >= 8 and page.locator(".pb-body picture").count() == pictures  # put back
    finally:
        context.close()
