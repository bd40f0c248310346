"""An existing Sphinx project's pages under our theme (issue 40), measured in Chromium:
autodoc signatures and long code-font names that wrap instead of widening the page,
version directives as callouts, footnotes with several blocks, transparent figures
on a light backdrop in dark mode, tables too wide for the text column, sphinx-design.

The test root (tests/roots/test-api-pages) is built here, once per session, beside
the SITES of conftest.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .conftest import ROOTS, _build
from .test_accessibility import blocking_violations
from .test_color_modes import parse
from .test_layout import OVERFLOWING, PAGE_WIDTH, TEXT_WIDTH, middle, rect, rects

pytestmark = pytest.mark.browser

VERSION_CALLOUTS = ("versionadded", "versionchanged", "deprecated", "versionremoved")


@pytest.fixture(scope="session")
def api_page(site_dir) -> str:
    """The api-pages root built into the served site; its page's path there."""
    _build(ROOTS / "test-api-pages", site_dir / "api-pages")
    return "api-pages/index.html"


def open_toc(page: Page) -> None:
    if not page.locator(".pb-toc__details").evaluate("d => d.open"):
        page.click(".pb-toc__summary")


def test_nothing_overflows_a_phone_with_the_toc_open(page_at, api_page):
    page = page_at(390, path=api_page)
    open_toc(page)
    found = page.evaluate(OVERFLOWING)
    assert found["scrollWidth"] == found["width"], found["offenders"]
    assert found["offenders"] == []
    # The signatures wrap inside the column, their long names included.
    for box in page.locator(".pb-body dt.sig").evaluate_all(
        "els => els.map(el => [el.scrollWidth, el.clientWidth])"
    ):
        assert box[0] <= box[1]


def test_toc_entries_wrap_inside_their_box_on_a_wide_screen(page_at, api_page):
    page = page_at(1440, path=api_page)
    box = rect(page, ".pb-toc__details")
    links = page.locator(".pb-toc a:has(code)")
    assert links.count() == 4
    texts = links.evaluate_all(
        """links => links.map(a => {
          const range = document.createRange();
          range.selectNodeContents(a);
          const r = range.getBoundingClientRect();
          return {right: r.right, height: r.height,
                  line: parseFloat(getComputedStyle(a).lineHeight)};
        })"""
    )
    for text in texts:
        assert text["right"] <= box["right"] + 0.5, (text, box)
    # The longest name is on several lines, not cut at the box's edge.
    assert max(text["height"] / text["line"] for text in texts) > 1.9


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_version_callouts_have_a_coloured_rule(page_at, api_page, scheme):
    page = page_at(1440, scheme, path=api_page)
    background = parse(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    colours = set()
    for kind in VERSION_CALLOUTS:
        callout = page.locator(f".pb-body > section > div.{kind}").first
        style = callout.evaluate(
            """el => {
              const s = getComputedStyle(el), label = el.querySelector('.versionmodified');
              return {width: parseFloat(s.borderLeftWidth), style: s.borderLeftStyle,
                      colour: s.borderLeftColor, padding: parseFloat(s.paddingLeft),
                      label: getComputedStyle(label).color,
                      caps: getComputedStyle(label).fontVariantCaps};
            }"""
        )
        assert style["width"] >= 1.5 and style["style"] == "solid", (kind, style)
        assert style["padding"] > 8, kind
        rule = parse(style["colour"])
        assert rule[3] > 0.5 and rule[:3] != background[:3], (kind, style)
        # The label in small capitals, in the rule's colour.
        assert style["caps"] == "all-small-caps"
        assert parse(style["label"])[:3] == rule[:3]
        colours.add(style["colour"])
    assert len(colours) == 4  # added, changed, deprecated and removed each their own


def test_transparent_images_stand_on_a_backdrop_in_dark_mode_only(page_at, api_page):
    def backgrounds(page: Page) -> dict[str, tuple[float, ...]]:
        found = page.locator(".pb-body img[alt]").evaluate_all(
            """imgs => imgs.filter(i => i.checkVisibility()).map(
                i => [i.alt, getComputedStyle(i).backgroundColor])"""
        )
        return {alt: tuple(parse(colour)) for alt, colour in found}

    dark = backgrounds(page_at(1440, "dark", path=api_page))
    for alt in ("Black axes on a transparent background", "A transparent GIF"):
        red, green, blue, alpha = dark[alt]
        assert alpha == 1 and min(red, green, blue) > 200, (alt, dark[alt])
    # Opted out, opaque, or with a dark variant of its own: no backdrop.
    for alt in ("Opted out", "An opaque image", "An opaque image with an alpha channel"):
        assert dark[alt][3] == 0, alt
    assert dark["Light variant"][3] == 0  # the visible one is the dark variant
    # In light mode nothing changes, even with the reader's mode switched back and forth.
    page = page_at(1440, "light", path=api_page)
    assert all(colour[3] == 0 for colour in backgrounds(page).values())
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    assert backgrounds(page)["A transparent GIF"][3] == 1


def test_too_wide_a_table_uses_the_page_column(page_at, api_page):
    page = page_at(1440, path=api_page)
    text = rect(page, ".pb-body > section > p")
    assert text["width"] == pytest.approx(TEXT_WIDTH, abs=1)
    wrapper = page.locator("#wide-table").locator("xpath=..")
    box = wrapper.evaluate(
        """el => { const r = el.getBoundingClientRect();
                   return {left: r.left, right: r.right, width: r.width,
                           scrolls: el.scrollWidth > el.clientWidth}; }"""
    )
    assert TEXT_WIDTH < box["width"] <= PAGE_WIDTH
    assert not box["scrolls"]
    assert middle(box) == pytest.approx(middle(text), abs=1)
    # With an aside beside it in the gutter, it scrolls in the text column instead.
    beside = page.locator("#wide-table-with-aside").locator("xpath=..")
    assert beside.evaluate("el => el.getBoundingClientRect().width") == pytest.approx(
        TEXT_WIDTH, abs=1
    )
    assert beside.evaluate("el => el.scrollWidth > el.clientWidth")
    aside = rect(page, ".pb-body .pb-aside")
    assert aside["left"] >= text["right"]
    # A narrow table stays in the text column; :align: center centres it there.
    centred = rect(page, "#centred-table")
    assert centred["width"] < TEXT_WIDTH / 2
    assert middle(centred) == pytest.approx(middle(text), abs=1)
    narrow_wrapper = page.locator("#centred-table").locator("xpath=..")
    assert narrow_wrapper.evaluate("el => el.getBoundingClientRect().width") == pytest.approx(
        TEXT_WIDTH, abs=1
    )
    # On a phone it scrolls inside the column.
    phone = page_at(390, path=api_page)
    wrapper = phone.locator("#wide-table").locator("xpath=..")
    assert wrapper.evaluate("el => el.scrollWidth > el.clientWidth")
    assert wrapper.evaluate("el => el.getBoundingClientRect().right") <= 390 - 15


def test_footnote_blocks_stay_apart(page_at, api_page):
    page = page_at(1440, path=api_page)
    # In the appendix: the label beside a column of paragraphs and lists.
    label, first, second = rects(page, "#blocks > :is(.label, p)")
    assert second["top"] >= first["bottom"] - 0.5
    assert first["left"] == pytest.approx(second["left"], abs=0.5)
    assert label["right"] <= first["left"]
    assert rect(page, "#listed > ul")["left"] == pytest.approx(first["left"], abs=0.5)
    # In the cards (CSS alone shows them on hover).
    page.hover("#id1")
    paragraphs = rects(page, "#blocks-card > .pb-card__p")
    assert paragraphs[1]["top"] >= paragraphs[0]["bottom"]
    page.hover("#id2")
    items = page.locator("#listed-card .pb-card__item")
    assert items.evaluate_all("els => els.map(e => getComputedStyle(e).display)") == [
        "list-item",
        "list-item",
    ]
    first_item, second_item = rects(page, "#listed-card .pb-card__item")
    assert second_item["top"] >= first_item["bottom"]
    page.hover("#id3")
    code = page.locator("#code-card .pb-card__code")
    lines = code.evaluate(
        "el => el.getClientRects().length === 1 && getComputedStyle(el).whiteSpace"
    )
    assert lines == "pre"
    assert rect(page, "#code-card .pb-card__code")["height"] > 2 * 14


@pytest.mark.parametrize("width", [1440, 390])
def test_sphinx_design_dropdown_icons_and_card_images(page_at, api_page, width):
    page = page_at(width, path=api_page)
    summary = page.locator("#long-dropdown > summary")
    summary.scroll_into_view_if_needed()
    title = rect(page, "#long-dropdown .sd-summary-text")
    line = float(summary.evaluate("s => parseFloat(getComputedStyle(s).lineHeight)"))
    assert title["height"] > 1.5 * line  # the title wraps at both widths
    font = float(summary.evaluate("s => parseFloat(getComputedStyle(s).fontSize)"))
    icon = rect(page, "#long-dropdown .sd-summary-icon svg")
    assert icon["width"] == pytest.approx(font, abs=0.5)  # 1em, not squeezed
    chevron = rect(page, "#long-dropdown .sd-summary-state-marker svg")
    assert chevron["width"] == pytest.approx(1.5 * font, abs=0.5)
    # An img-background card's image fills the card: no strip of card below it.
    card = rect(page, ".background-card")
    image = rect(page, ".background-card img")
    assert card["bottom"] - image["bottom"] <= 1.5  # the card's border


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1440, 390])
def test_axe_finds_no_serious_violation_on_an_api_page(page_at, api_page, width, scheme):
    """Contrast of the callouts' small-caps labels and the signatures' muted parts too."""
    page = page_at(width, scheme, path=api_page)
    assert blocking_violations(page) == []
