"""The browser takes the copy that fits the column, at the reader's width: AVIF where
Pillow writes it (Chromium decodes it), else WebP."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import sphinx_build
from playwright.sync_api import Browser
from test_responsive_images import AVIF, make_book

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
