"""Where the article's boxes land, measured in Chromium at Distill's breakpoints.

The theme promises Distill's grid: a centred 704px text column on wide screens,
a 1072px page column for ``.l-page``, the table of contents sticky in the left
margin from 1200px, and one column with nothing wider than the screen on a
phone. These tests read getBoundingClientRect rather than the stylesheet, so a
rule that exists but loses (specificity, order, a missing breakpoint) fails too.
"""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

#: Distill's text column from 1180px: 8 columns of 60px and 7 gaps of 32px.
TEXT_WIDTH = 704
#: Distill's page column (``.l-page``) from 1180px: 12 columns of 60px, 11 gaps of 32px.
PAGE_WIDTH = 1072
#: Block paragraphs of the article that use no layout class, i.e. the text column.
BODY_PARAGRAPHS = ':is(.pb-body, .pb-body section) > p:not([class*="l-"])'

RECTS = """elements => elements.map(el => {
  const {left, right, top, bottom, width, height} = el.getBoundingClientRect();
  return {left, right, top, bottom, width, height};
})"""
#: The box of an element's text itself (not of the element), to see how it is aligned.
TEXT_EXTENT = """el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const r = range.getBoundingClientRect();
  return {left: r.left, right: r.right};
}"""
#: Every rendered element whose box leaves the viewport sideways, except those
#: that scroll inside a container of their own (the container is checked itself).
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = (el) => /^(auto|scroll)$/.test(getComputedStyle(el).overflowX);
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + [...el.classList].map((c) => "." + c).join("");
  const offenders = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.checkVisibility()) continue;
    let scroller = el.parentElement;
    while (scroller && scroller !== document.body && !scrolls(scroller)) {
      scroller = scroller.parentElement;
    }
    if (scroller && scroller !== document.body) continue;
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.right > width + 0.5) {
      offenders.push(`${name(el)} spans x=${r.left.toFixed(1)}..${r.right.toFixed(1)}`);
    }
  }
  return {width, scrollWidth: document.documentElement.scrollWidth, offenders};
}"""


def rects(page: Page, selector: str) -> list[dict[str, float]]:
    """The viewport boxes of every element matching ``selector``, in document order."""
    return page.locator(selector).evaluate_all(RECTS)


def rect(page: Page, selector: str) -> dict[str, float]:
    """The viewport box of the first element matching ``selector``."""
    found = rects(page, selector)
    assert found, f"no element matches {selector!r}"
    return found[0]


def middle(box: dict[str, float]) -> float:
    return (box["left"] + box["right"]) / 2


def viewport_width(page: Page) -> float:
    return page.evaluate("document.documentElement.clientWidth")


def text_column(page: Page) -> dict[str, float]:
    """The box the body paragraphs share: the article's text column."""
    boxes = rects(page, BODY_PARAGRAPHS)
    assert len(boxes) >= 3, f"expected several body paragraphs, found {len(boxes)}"
    return {
        "left": min(b["left"] for b in boxes),
        "right": max(b["right"] for b in boxes),
        "top": min(b["top"] for b in boxes),
        "bottom": max(b["bottom"] for b in boxes),
    }


def assert_text_column(page: Page, width: float | None, tolerance: float = 8) -> None:
    """Body paragraphs all ``width``±``tolerance`` wide (at most 704 if None),
    on one left edge, centred in the viewport."""
    viewport = viewport_width(page)
    boxes = rects(page, BODY_PARAGRAPHS)
    assert len(boxes) >= 3, f"expected several body paragraphs, found {len(boxes)}"
    widths = sorted({round(b["width"], 1) for b in boxes})
    lefts = sorted({round(b["left"], 1) for b in boxes})
    if width is None:
        assert widths[-1] <= TEXT_WIDTH, (
            f"at {viewport}px the text column should be at most {TEXT_WIDTH}px, measured {widths}"
        )
    else:
        assert all(abs(w - width) <= tolerance for w in widths), (
            f"at {viewport}px body paragraphs should be {width}±{tolerance}px wide, "
            f"measured widths {widths}"
        )
    assert lefts[-1] - lefts[0] <= 0.5, (
        f"at {viewport}px body paragraphs should share one left edge, measured lefts {lefts}"
    )
    assert abs(middle(boxes[0]) - viewport / 2) <= 4, (
        f"at {viewport}px the text column {boxes[0]['left']}..{boxes[0]['right']} "
        f"should be centred on {viewport / 2}"
    )


@pytest.mark.parametrize("site", ["article-myst", "article-rst"])
def test_wide_title_text_and_page_columns(page_at, site):
    """At 1440px the title is centred, the byline follows it, text and .l-page
    blocks sit in Distill's text and page columns (for MyST and reST alike)."""
    page = page_at(1440, path=f"{site}/index.html")
    centre = viewport_width(page) / 2

    title = rect(page, ".pb-title")
    assert abs(middle(title) - centre) <= 4, (
        f"the title box spans {title['left']}..{title['right']}, its middle should be {centre}±4"
    )
    text = page.locator(".pb-title").evaluate(TEXT_EXTENT)
    assert abs(middle(text) - centre) <= 4, (
        f"the title's text spans {text['left']}..{text['right']}, so it is not centred on {centre}"
    )

    byline = rect(page, ".pb-byline")
    assert byline["top"] >= title["bottom"], (
        f"the byline (top {byline['top']}) should lie below the title (bottom {title['bottom']})"
    )

    assert_text_column(page, TEXT_WIDTH)

    wide = rect(page, ".l-page")
    assert abs(wide["width"] - PAGE_WIDTH) <= 8, (
        f".l-page should span Distill's page column, {PAGE_WIDTH}±8px; it is {wide['width']}px"
    )
    assert abs(middle(wide) - centre) <= 4, (
        f".l-page spans {wide['left']}..{wide['right']}, its middle should be {centre}±4"
    )


def test_wide_toc_sits_in_the_left_margin(page_at):
    """From 1200px the table of contents is open, left of the text, and no link
    of it reaches into the text column."""
    page = page_at(1440)
    expect(page.locator(".pb-toc__list"), "the TOC should be open at 1440px").to_be_visible()
    column = text_column(page)
    toc = rect(page, ".pb-toc__details")
    assert toc["right"] <= column["left"], (
        f"the TOC (x={toc['left']}..{toc['right']}) should end left of the text column "
        f"(which starts at x={column['left']})"
    )
    for link in rects(page, ".pb-toc a"):
        overlaps = (
            link["left"] < column["right"]
            and link["right"] > column["left"]
            and link["top"] < column["bottom"]
            and link["bottom"] > column["top"]
        )
        assert not overlaps, f"a TOC link at {link} overlaps the text column {column}"


def test_wide_toc_is_sticky(page_at):
    """The TOC follows the reader down the page instead of scrolling away."""
    page = page_at(1440)
    before = rect(page, ".pb-toc__details")
    page.evaluate("window.scrollBy(0, 3000)")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > before["bottom"], (
        f"the page scrolled only {scrolled}px, not past the TOC's bottom ({before['bottom']}px): "
        "too short to tell a sticky TOC from a static one"
    )
    after = rect(page, ".pb-toc__details")
    height = page.viewport_size["height"]
    assert 0 <= after["top"] < height, (
        f"after scrolling {scrolled}px the TOC's top is at {after['top']}px, "
        f"outside the {height}px viewport: it is not sticky"
    )


def test_toc_marks_the_section_in_view(page_at):
    """Scrolling to a section marks its TOC link (class and aria-current), and only it."""
    page = page_at(1440)
    page.locator("#data-parallelism > h2").evaluate("h => h.scrollIntoView({block: 'start'})")
    link = page.locator('.pb-toc a[href="#data-parallelism"]')
    expect(link, "the link of the section in view should have aria-current").to_have_attribute(
        "aria-current", re.compile(r".+")
    )
    expect(link, "the link of the section in view should have class active").to_have_class(
        re.compile(r"(^|\s)active(\s|$)")
    )
    marked = page.locator(".pb-toc a").evaluate_all(
        "links => links"
        ".filter(a => a.classList.contains('active') || a.hasAttribute('aria-current'))"
        ".map(a => a.getAttribute('href'))"
    )
    assert marked == ["#data-parallelism"], f"exactly one TOC link should be current: {marked}"


def test_wide_layout_without_javascript(page_at):
    """The layout is CSS: without JavaScript the title is centred, the text column
    keeps its width, the TOC list is shown, and the JS-only mode switch is hidden."""
    page = page_at(1440, javascript=False)
    centre = viewport_width(page) / 2
    title = rect(page, ".pb-title")
    assert abs(middle(title) - centre) <= 4, (
        f"without JS the title spans {title['left']}..{title['right']}, not centred on {centre}"
    )
    assert_text_column(page, TEXT_WIDTH)

    toc_list = page.locator(".pb-toc__list")
    expect(toc_list, "without JS the TOC's <details> content should be displayed").to_be_visible()
    toc = rect(page, ".pb-toc__list")
    assert toc["height"] > 50, f"the TOC list is displayed but only {toc['height']}px tall"
    # This page has a page-wide block: without JS its TOC sits above the text, where no
    # wide block can cover it (tests/browser/test_reader.py); otherwise in the margin.
    column = text_column(page)
    assert toc["right"] <= column["left"] or toc["bottom"] <= column["top"], (
        "the TOC should stay left of the text or above it"
    )
    expect(
        page.locator(".pb-theme-switch"), "the colour-mode switch needs JS and should be hidden"
    ).to_be_hidden()


def test_narrow_nothing_is_wider_than_the_viewport(page_at):
    """At 390px no rendered element sticks out sideways, so the page never pans."""
    page = page_at(390)
    result = page.evaluate(OVERFLOWING)
    assert not result["offenders"], (
        f"elements outside the {result['width']}px viewport: {result['offenders']}"
    )
    assert result["scrollWidth"] == result["width"] == 390, (
        f"the document is {result['scrollWidth']}px wide in a {result['width']}px viewport"
    )


def test_narrow_byline_columns_stack(page_at):
    """At 390px the byline's columns stack: one left edge, each below the last."""
    page = page_at(390)
    columns = rects(page, ".pb-byline__column")
    assert len(columns) >= 2, f"the article has {len(columns)} byline columns"
    lefts = [round(c["left"], 1) for c in columns]
    assert max(lefts) - min(lefts) <= 0.5, f"byline columns should share a left edge: {lefts}"
    for upper, lower in itertools.pairwise(columns):
        assert lower["top"] >= upper["bottom"] - 0.5, (
            f"a byline column (top {lower['top']}) overlaps the one above it "
            f"(bottom {upper['bottom']})"
        )


def test_narrow_toc_is_collapsed_above_the_text(page_at):
    """At 390px the TOC is a closed <details> before the first paragraph."""
    page = page_at(390)
    assert not page.locator(".pb-toc__details").evaluate("d => d.open"), (
        "the TOC should start collapsed on a phone"
    )
    expect(page.locator(".pb-toc__list")).to_be_hidden()
    toc = rect(page, ".pb-toc")
    first = rect(page, BODY_PARAGRAPHS)
    assert toc["bottom"] <= first["top"], (
        f"the TOC (bottom {toc['bottom']}) should sit above the first paragraph "
        f"(top {first['top']})"
    )


def test_narrow_long_code_line_scrolls_inside_its_block(page_at):
    """A long code line scrolls inside the <pre> instead of widening the page."""
    page = page_at(390)
    pre = page.locator("pre", has_text="deliberately long comment")
    box = pre.evaluate(
        """el => {
          const r = el.getBoundingClientRect();
          return {scrollWidth: el.scrollWidth, clientWidth: el.clientWidth,
                  overflowX: getComputedStyle(el).overflowX, left: r.left, right: r.right};
        }"""
    )
    assert box["scrollWidth"] > box["clientWidth"], (
        f"the long line should overflow its block (scrollWidth {box['scrollWidth']} "
        f"<= clientWidth {box['clientWidth']})"
    )
    assert box["overflowX"] in ("auto", "scroll"), (
        f"the block should scroll sideways, its overflow-x is {box['overflowX']}"
    )
    assert box["left"] >= 0 and box["right"] <= 390, (
        f"the code block spans x={box['left']}..{box['right']}, outside the 390px viewport"
    )


@pytest.mark.parametrize(
    ("width", "expected"),
    [(800, None), (1000, 8 * 50 + 7 * 16), (1180, 8 * 60 + 7 * 32)],
    ids=["800", "1000", "1180"],
)
def test_text_column_follows_distills_breakpoints(page_at, width, expected):
    """Distill's grid steps at 1000px (50px columns, 16px gaps) and 1180px (60px, 32px);
    below 1000px the column is fluid, at most 704px, and centred."""
    page = page_at(width)
    assert_text_column(page, expected, tolerance=1)


def test_wide_blocks_pass_over_the_sticky_toc(page_at):
    """Where a page-wide block meets the TOC in the margin, the block is on top."""
    page = page_at(1440)
    block = page.locator(".pb-body .l-page").first
    block.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + scrollY - 120)")
    page.wait_for_timeout(100)
    box = rect(page, ".pb-body .l-page")
    toc = rect(page, ".pb-toc__details")
    assert toc["top"] <= box["top"] <= toc["bottom"], "the block and the TOC meet"
    x = (box["left"] + toc["right"]) / 2  # inside both boxes
    assert box["left"] < x < toc["right"]
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.l-page, .pb-toc') ?.className",
        [x, box["top"] + box["height"] / 2],
    )
    assert on_top is not None and "l-page" in on_top, f"the TOC covers the block ({on_top})"
