"""The directives as a reader sees them: boxes measured in Chromium at 1440 px and 390 px.

The page is tests/roots/test-directives-myst: a paragraph with one aside, a
paragraph with two asides in a row, an image with its figure-legend, a
wide-image band, two code blocks side by side and two layout blocks.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .test_layout import OVERFLOWING, rect, rects, viewport_width

pytestmark = pytest.mark.browser

PAGE = "directives-myst/index.html"
#: Boxes a margin note must not overlap: every other block of the body.
BLOCKS = (
    ":is(.pb-body section) > :not(.pb-aside, .pb-aside-stack, .l-screen, .l-screen-inset, .l-page)"
)


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (0 when they only touch)."""
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(width, 0) * max(height, 0)


def paragraph_before(page: Page, selector: str) -> dict[str, float]:
    """The box of the block right before the element matching ``selector``."""
    return page.locator(selector).first.evaluate(
        """el => { const r = el.previousElementSibling.getBoundingClientRect();
                   return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"""
    )


def test_wide_asides_sit_in_the_gutter_beside_their_block(page_at):
    page = page_at(1440, path=PAGE)
    paragraph = paragraph_before(page, "aside#first-aside")
    aside = rect(page, "aside#first-aside")
    assert aside["left"] >= paragraph["right"] + 16, (
        f"the aside {aside} should be right of its paragraph {paragraph}, in the gutter"
    )
    assert aside["right"] <= viewport_width(page), "the gutter lies inside the window"
    assert abs(aside["top"] - paragraph["top"]) <= 2, (
        f"the aside should start level with its paragraph: {aside['top']} vs {paragraph['top']}"
    )
    font = page.locator("aside#first-aside").evaluate("el => getComputedStyle(el).fontSize")
    assert float(font.removesuffix("px")) < 15, f"asides are small text, got {font}"


def test_wide_asides_overlap_nothing(page_at):
    page = page_at(1440, path=PAGE)
    asides = rects(page, ".pb-body aside.pb-aside")
    assert len(asides) == 3
    for i, first in enumerate(asides):
        for second in asides[i + 1 :]:
            assert overlap(first, second) == 0, f"asides overlap: {first} and {second}"
    blocks = rects(page, BLOCKS)
    assert len(blocks) > 5
    for aside in asides:
        for block in blocks:
            assert overlap(aside, block) == 0, f"the aside {aside} overlaps the block {block}"
    first, second = asides[1], asides[2]
    assert second["top"] >= first["bottom"], "two asides in a row stack top to bottom"
    assert abs(first["left"] - second["left"]) <= 0.5


@pytest.mark.parametrize("width", [390, 999])
def test_narrow_asides_flow_inline_after_their_paragraph(page_at, width):
    page = page_at(width, path=PAGE)
    paragraph = paragraph_before(page, "aside#first-aside")
    aside = rect(page, "aside#first-aside")
    assert aside["top"] >= paragraph["bottom"], "below its paragraph, not beside it"
    assert abs(aside["left"] - paragraph["left"]) <= 0.5, "in the text column"
    assert page.locator("aside#first-aside").is_visible()
    border = page.locator("aside#first-aside").evaluate(
        "el => parseFloat(getComputedStyle(el).borderLeftWidth)"
    )
    assert border >= 1, "set apart from the text by a rule"


@pytest.mark.parametrize("width", [1440, 390])
def test_wide_image_band_spans_the_window_with_the_image_centred(page_at, width):
    page = page_at(width, path=PAGE)
    page.locator(".pb-wide-image").scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('.pb-wide-image img').complete")
    viewport = viewport_width(page)
    strip = rect(page, ".pb-wide-image__strip")
    assert abs(strip["left"]) <= 0.5 and abs(strip["right"] - viewport) <= 0.5, (
        f"the band {strip['left']}..{strip['right']} should span the window 0..{viewport}"
    )
    image = rect(page, ".pb-wide-image__strip img")
    assert abs((image["left"] + image["right"]) / 2 - viewport / 2) <= 1, "image centred"
    assert image["width"] <= min(1200, viewport) + 0.5, f"at most :width: 1200px, {image}"
    assert abs(image["width"] / image["height"] - 4) < 0.05, "the 1600x400 image keeps its shape"
    caption = rect(page, ".pb-wide-image figcaption")
    text = rect(page, ".pb-body section > p")
    assert abs(caption["left"] - text["left"]) <= 0.5, "the legend sits in the text column"


def test_side_by_side_columns_then_stacked(page_at):
    wide = page_at(1440, path=PAGE)
    left, right = rects(wide, "#code-columns > *")
    assert abs(left["top"] - right["top"]) <= 0.5, "columns side by side"
    assert left["right"] <= right["left"], "columns do not overlap"
    assert abs(left["width"] - right["width"]) <= 1, ":columns: 1fr 1fr gives equal columns"
    narrow = page_at(390, path=PAGE)
    first, second = rects(narrow, "#code-columns > *")
    assert second["top"] >= first["bottom"], "below 768px the columns stack"
    pre = narrow.locator(".pb-side-by-side pre").first
    sizes = pre.evaluate("el => ({scroll: el.scrollWidth, client: el.clientWidth})")
    assert sizes["scroll"] > sizes["client"], "the long line scrolls inside its column"
    assert rect(narrow, ".pb-side-by-side pre")["right"] <= 390


@pytest.mark.parametrize("width", [1440, 390])
def test_layout_blocks_take_their_column(page_at, width):
    page = page_at(width, path=PAGE)
    viewport = viewport_width(page)
    page_block = rect(page, ".pb-body .l-page")
    text = rect(page, ".pb-body section > p")
    if width == 1440:
        assert abs(page_block["width"] - 1072) <= 8
    else:
        assert abs(page_block["left"] - text["left"]) <= 0.5
    screen = rect(page, ".pb-body .l-screen-inset")
    assert abs(screen["left"]) <= 0.5 and abs(screen["right"] - viewport) <= 0.5


@pytest.mark.parametrize("width", [1440, 390])
def test_no_overflow_and_no_layout_shift(page_at, site_url, width):
    page = page_at(width, path=None)
    page.add_init_script(
        """window.__shift = 0;
        new PerformanceObserver(list => { for (const e of list.getEntries())
          if (!e.hadRecentInput) window.__shift += e.value; })
          .observe({type: 'layout-shift', buffered: true});"""
    )
    page.goto(site_url + PAGE, wait_until="load")
    for _ in range(6):
        page.mouse.wheel(0, 700)
        page.wait_for_timeout(120)
    result = page.evaluate(OVERFLOWING)
    assert result["offenders"] == [] and result["scrollWidth"] == result["width"], result
    assert page.evaluate("window.__shift") <= 0.01


def test_code_in_columns_keeps_its_copy_button(page_at):
    """The script adds a copy button to every code block, inside columns too."""
    page = page_at(1440, path=PAGE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    block = page.locator("#code-columns .highlight").nth(1)
    block.hover()
    button = block.locator("button.pb-copy")
    assert button.is_visible()
    button.click()
    assert page.evaluate("navigator.clipboard.readText()").startswith("__global__ void VecAdd(")
    assert button.text_content() == "Copied"


def test_plain_images_reserve_their_space(page_at):
    """Images carry width and height from the file: the box is sized before they load."""
    page = page_at(390, path=PAGE)
    sizes = page.locator("#fig-host img").evaluate(
        "img => ({w: img.getAttribute('width'), h: img.getAttribute('height'),"
        " box: img.getBoundingClientRect().height, width: img.getBoundingClientRect().width})"
    )
    assert (sizes["w"], sizes["h"]) == ("600", "300")
    assert abs(sizes["box"] - sizes["width"] / 2) <= 1, "2:1 aspect ratio at any width"
