"""The reader's side (issue 30): search excerpts, Distill's headings, the table of
contents beside wide blocks, zoom, and figures that follow the colour mode.

tests/roots/test-reader-myst (a long article with a band, a page-wide paragraph and
interactive figure, a screen-wide block, figures with dark variants and figures side
by side) is built into the served site; the docs are scrolled through too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import build
from playwright.sync_api import Page, expect

from .conftest import ROOTS
from .test_accessibility import blocking_violations
from .test_layout import OVERFLOWING

pytestmark = pytest.mark.browser

READER = "reader/index.html"

#: Boxes of the body grid's blocks (sections are only containers) and the TOC's box,
#: with whether the TOC is shown; every box that overlaps the TOC's.
OVERLAPS = """() => {
  const toc = document.querySelector(".pb-toc__details");
  const style = getComputedStyle(toc);
  const t = toc.getBoundingClientRect();
  const shown = style.visibility === "visible" && Number(style.opacity) > 0 && t.height > 0;
  const blocks = [...document.querySelectorAll(".pb-body > *, .pb-body section > *")]
    .filter((el) => !el.matches("section:not(.pb-appendix)") && !el.closest(".pb-toc"));
  const overlapping = blocks.filter((el) => {
    const b = el.getBoundingClientRect();
    return b.width > 0 && b.height > 0 && b.left < t.right - 0.5 && b.right > t.left + 0.5
      && b.top < t.bottom - 0.5 && b.bottom > t.top + 0.5;
  }).map((el) => el.tagName.toLowerCase() + "." + [...el.classList].join("."));
  return {shown, overlapping, y: scrollY};
}"""


@pytest.fixture(scope="module")
def reader_site(site_dir: Path) -> str:
    """The reader root built into the served site; its path under the sub-path."""
    build(ROOTS / "test-reader-myst", site_dir / "reader")
    return "reader/"


def settle(page: Page, javascript: bool) -> None:
    """Two animation frames: the scroll handlers have run and the page is painted
    (without JavaScript the page has no frame callbacks to wait for)."""
    if javascript:
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
    else:
        page.wait_for_timeout(30)


def scroll_through(page: Page, javascript: bool, step: int = 300) -> list[dict]:
    """The TOC and its overlaps at each scroll position from the top to the bottom."""
    page.emulate_media(reduced_motion="reduce")  # the fade is instant
    seen = []
    height = page.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height, step):
        page.evaluate(f"window.scrollTo(0, {y})")
        settle(page, javascript)
        seen.append(page.evaluate(OVERLAPS))
    return seen


# 1. Things a reader sees -------------------------------------------------------------


@pytest.mark.parametrize("width", [1440, 390])
def test_search_results_show_excerpts(page_at, site_url, reader_site, width):
    """Sphinx's results read excerpts from [role=main]: each result has one with the
    word searched for, and the search logs no warning about a missing block."""
    page = page_at(width, path=None)
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.goto(site_url + reader_site + "search.html?q=replicates")
    excerpts = page.locator("#search-results li p.context")
    expect(excerpts.first).to_be_visible()
    texts = excerpts.all_inner_texts()
    assert len(texts) == page.locator("#search-results li").count()
    assert all("replicates" in text.lower() for text in texts), texts
    assert not [w for w in warnings if "role=main" in w], warnings


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1440, 390])
def test_search_page_passes_axe_and_fits_a_phone(page_at, reader_site, width, scheme):
    page = page_at(width, scheme, path=reader_site + "search.html?q=replicates")
    expect(page.locator("#search-results li p.context").first).to_be_visible()
    assert not blocking_violations(page)
    result = page.evaluate(OVERFLOWING)
    assert not result["offenders"], result["offenders"]
    assert result["scrollWidth"] <= result["width"]


@pytest.mark.parametrize(
    ("width", "h2", "h3"), [(1440, "36px", "20px"), (1024, "36px", "20px"), (390, "24px", "18px")]
)
def test_headings_follow_distills_hierarchy(page_at, reader_site, width, h2, h3):
    """Distill's d-article: h2 at weight 600 (24 px, 36 px from 1024 px), h3 at 700."""
    page = page_at(width, path=READER)
    style = "el => [getComputedStyle(el).fontSize, getComputedStyle(el).fontWeight]"
    assert page.locator(".pb-body h2").first.evaluate(style) == [h2, "600"]
    assert page.locator(".pb-body h3").first.evaluate(style) == [h3, "700"]


# 2. The table of contents beside wide blocks -------------------------------------------


@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize("width", [1440, 1920])
def test_toc_never_overlaps_a_wide_block(page_at, reader_site, docs_site, width, javascript):
    """Scrolling through the reader page and the docs' layout and directives pages,
    the shown TOC's box never meets a block's; with JavaScript it fades out beside
    a wide block and comes back after it."""
    for path in (READER, docs_site + "layout.html", docs_site + "directives.html"):
        page = page_at(width, javascript=javascript, path=path)
        seen = scroll_through(page, javascript)
        bad = [s for s in seen if s["shown"] and s["overlapping"]]
        assert not bad, f"{path}: the TOC overlaps {bad[:3]}"
        if javascript and path == READER:
            shown = [s["shown"] for s in seen]
            assert False in shown, "the TOC never faded beside a wide block"
            assert shown[-1] or True in shown[shown.index(False) :], "the TOC never came back"


def test_a_faded_toc_comes_back_for_the_keyboard(page_at, reader_site):
    """Beside a wide block the TOC fades, but a link focused in it shows it again."""
    page = page_at(1440, path=READER)
    page.emulate_media(reduced_motion="reduce")
    seen = scroll_through(page, javascript=True)
    y = next(s["y"] for s in seen if not s["shown"])
    page.evaluate(f"window.scrollTo(0, {y})")
    settle(page, javascript=True)
    details = page.locator(".pb-toc__details")
    assert details.evaluate("d => getComputedStyle(d).opacity") == "0"
    page.locator(".pb-toc a").first.focus()
    assert details.evaluate("d => getComputedStyle(d).opacity") == "1"
    box = page.locator(".pb-toc a").first.bounding_box()
    on_top = page.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y).closest('.pb-toc')",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert on_top, "the focused TOC should be drawn over the wide block"


def test_toc_without_javascript_sits_above_an_article_with_wide_blocks(page_at, reader_site):
    page = page_at(1440, javascript=False, path=READER)
    toc = page.locator(".pb-toc__details").bounding_box()
    first = page.locator(".pb-body > section > p").first.bounding_box()
    assert toc["y"] + toc["height"] <= first["y"], "the TOC should come before the text"
    expect(page.locator(".pb-toc__list")).to_be_visible()


# 3. Zoom ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["click", "Enter"])
def test_figure_image_opens_in_a_dialog_and_focus_returns(page_at, reader_site, key):
    page = page_at(1440, path=READER)
    link = page.locator("#fig-chart a.pb-zoom.only-light")
    link.scroll_into_view_if_needed()
    if key == "click":
        link.click()
    else:
        link.focus()
        page.keyboard.press("Enter")
    dialog = page.locator("dialog.pb-zoom-dialog")
    expect(dialog).to_be_visible()
    image = dialog.locator("img")
    expect(image).to_have_attribute("src", re.compile(r"/reader/_images/chart-light\.svg$"))
    page.wait_for_function("() => document.querySelector('.pb-zoom-dialog img').naturalWidth > 0")
    assert image.get_attribute("alt") == "Three bars, falling"
    assert page.evaluate(
        "() => document.querySelector('.pb-zoom-dialog').contains(document.activeElement)"
    )
    assert not blocking_violations(page)
    # Focus stays in the dialog: Tab cannot reach the page behind it.
    for _ in range(3):
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.matches('.pb-zoom-dialog__close')"), (
            "Tab left the dialog"
        )
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate("() => document.activeElement.matches('#fig-chart a.pb-zoom.only-light')")


@pytest.mark.parametrize(
    "selector",
    ["#fig-band a.pb-zoom.only-light", ".pb-side-by-side figure a.pb-zoom"],
)
def test_bands_and_side_by_side_figures_zoom_too(page_at, reader_site, selector):
    page = page_at(1440, path=READER)
    page.locator(selector).first.click()
    expect(page.locator("dialog.pb-zoom-dialog")).to_be_visible()
    page.locator(".pb-zoom-dialog__close").click()
    expect(page.locator("dialog.pb-zoom-dialog")).to_be_hidden()


def test_a_resized_image_zooms_and_an_authors_link_is_followed(page_at, reader_site):
    """Sphinx links a resized image to its own file: that zooms. An image whose
    :target: is a page stays a link to that page."""
    page = page_at(1440, path=reader_site + "rest.html")
    page.locator("#rst-resized a.image-reference").click()
    expect(page.locator("dialog.pb-zoom-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog.pb-zoom-dialog")).to_be_hidden()
    with page.expect_navigation():
        page.locator("#rst-target a.image-reference").click()
    assert page.url.endswith("/reader/index.html")


def test_zoom_on_a_phone_fits_and_can_be_pinched(page_at, reader_site):
    page = page_at(390, path=READER)
    for viewport in page.locator("meta[name=viewport]").all():
        content = (viewport.get_attribute("content") or "").replace(" ", "")
        assert "user-scalable=no" not in content and "maximum-scale=1" not in content
    page.locator("#fig-chart a.pb-zoom.only-light").click()
    dialog = page.locator("dialog.pb-zoom-dialog")
    expect(dialog).to_be_visible()
    assert dialog.evaluate("d => getComputedStyle(d).touchAction") in ("manipulation", "auto")
    image = dialog.locator("img").bounding_box()
    assert image["x"] >= 0 and image["x"] + image["width"] <= 390.5


def test_without_javascript_the_image_links_to_its_file(page_at, reader_site):
    page = page_at(1440, javascript=False, path=READER)
    link = page.locator("#fig-chart a.pb-zoom.only-light")
    with page.expect_navigation():
        link.click()
    assert page.url.endswith("/_images/chart-light.svg")


# 4. Figures that follow the colour mode ----------------------------------------------


def _plot(page: Page, figure: str):
    """The page or frame that draws the figure's plot (an iframe, or the page itself
    for an inline figure), once the plot is drawn."""
    iframe = page.locator(f"#{figure} iframe")
    where = iframe.element_handle().content_frame() if iframe.count() else page
    where.wait_for_function(
        f"() => document.querySelector('#{figure} .plotly-graph-div, .plotly-graph-div')"
        "?._fullLayout"
    )
    return where


def _plot_colours(page: Page, figure: str) -> dict:
    return _plot(page, figure).evaluate(
        f"""() => {{ const d = document.querySelector('#{figure} .plotly-graph-div')
                     || document.querySelector('.plotly-graph-div');
        const l = d._fullLayout;
        return {{paper: l.paper_bgcolor, plot: l.plot_bgcolor, font: l.font.color,
                grid: l.yaxis.gridcolor}}; }}"""
    )


def _wait_for_paper(page: Page, figure: str, colour: str) -> None:
    _plot(page, figure).wait_for_function(
        f"""c => (document.querySelector('#{figure} .plotly-graph-div')
                  || document.querySelector('.plotly-graph-div'))
                 ._fullLayout.paper_bgcolor === c""",
        arg=colour,
    )


def _set_mode(page: Page, mode: str) -> None:
    for _ in range(3):
        if page.evaluate("document.documentElement.dataset.mode") == mode:
            return
        page.locator(".pb-theme-switch").first.click()
    assert page.evaluate("document.documentElement.dataset.mode") == mode


def _page_colour(page: Page, css: str) -> str:
    return page.evaluate(
        f"""() => {{ const i = document.createElement('i'); i.style.color = '{css}';
        document.body.append(i); const c = getComputedStyle(i).color; i.remove(); return c; }}"""
    )


@pytest.mark.parametrize("figure", ["fig-throughput", "fig-inline"])
def test_plotly_figure_follows_the_mode_and_back(page_at, reader_site, figure):
    """An iframe and an inline figure recolour on a mode change; :theme: fixed does not."""
    page = page_at(1440, "light", path=READER)
    for name in (figure, "fig-fixed"):
        page.locator(f"#{name}").scroll_into_view_if_needed()
    light = _plot_colours(page, figure)
    fixed = _plot_colours(page, "fig-fixed")
    assert light["paper"] == fixed["paper"]
    _set_mode(page, "dark")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    text = _page_colour(page, "var(--pb-text)")
    _wait_for_paper(page, figure, background)
    dark = _plot_colours(page, figure)
    assert dark["plot"] == background and dark["font"] == text
    assert dark["grid"] != light["grid"]
    assert _plot_colours(page, "fig-fixed") == fixed, ":theme: fixed should keep its colours"
    _set_mode(page, "auto")  # a light system
    _wait_for_paper(page, figure, light["paper"])
    assert _plot_colours(page, figure) == light


@pytest.mark.parametrize("figure", ["fig-throughput", "fig-inline"])
def test_plotly_figure_loads_dark_in_a_dark_system(page_at, reader_site, figure):
    page = page_at(1440, "dark", path=READER)
    page.locator(f"#{figure}").scroll_into_view_if_needed()
    _wait_for_paper(page, figure, page.evaluate("getComputedStyle(document.body).backgroundColor"))


@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_images_show_the_variant_of_the_system_mode(page_at, reader_site, scheme, javascript):
    """Without any script, prefers-color-scheme picks the band's and the figure's variant;
    the other one is not rendered and leaves no tab stop."""
    page = page_at(1440, scheme, javascript=javascript, path=READER)
    for figure, stem in (("fig-band", "band"), ("fig-chart", "chart")):
        shown = page.locator(f"#{figure} img:visible")
        expect(shown).to_have_count(1)
        assert shown.get_attribute("src") == f"_images/{stem}-{scheme}.svg"
        other = "dark" if scheme == "light" else "light"
        hidden = page.locator(f"#{figure} a.pb-zoom.only-{other}")
        assert hidden.evaluate("a => getComputedStyle(a).display") == "none"


def test_images_follow_the_mode_switch(page_at, reader_site):
    page = page_at(1440, "light", path=READER)
    _set_mode(page, "dark")
    assert page.locator("#fig-chart img:visible").get_attribute("src") == "_images/chart-dark.svg"
    strip = page.locator("#fig-band .pb-wide-image__strip")
    assert strip.evaluate("s => getComputedStyle(s).backgroundColor") == page.evaluate(
        "getComputedStyle(document.body).backgroundColor"
    )
    _set_mode(page, "light")
    assert page.locator("#fig-chart img:visible").get_attribute("src") == "_images/chart-light.svg"
