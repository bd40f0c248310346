"""Cross-reference cards as a reader uses them: hover, focus, Escape, a phone, dark mode, axe."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ROOTS, _build
from .test_accessibility import blocking_violations
from .test_layout import rect, viewport_width

pytestmark = pytest.mark.browser

PAGE = "ref-previews/index.html"
#: One link of each kind of card on the MyST page, by its address.
LINKS = {
    "figure": "targets.html#fig-throughput",
    "table": "targets.html#tab-memory",
    "equation": "targets.html#equation-eq-activations",
    "section": "targets.html#sec-memory",
    "page": "targets.html",
    "local section": "#sec-local-target",
}


@pytest.fixture(scope="module")
def previews_site(site_dir: Path) -> str:
    """The test root built beside the shared sites, served with them."""
    if not (site_dir / "ref-previews" / "index.html").exists():
        _build(ROOTS / "test-ref-previews", site_dir / "ref-previews")
    return PAGE


def host(href: str) -> str:
    return f'.pb-xref:has(> a[href="{href}"]) >> nth=0'


def card_of(page, href: str):
    return page.locator(host(href)).locator(".pb-card")


def centre(page, href: str) -> None:
    page.locator(host(href)).evaluate("el => el.scrollIntoView({block: 'center'})")


def test_card_opens_on_hover_and_stays_while_the_pointer_moves_into_it(page_at, previews_site):
    page = page_at(1440, path=previews_site)
    href = LINKS["figure"]
    centre(page, href)
    link = page.locator(host(href)).locator("a")
    assert not page.locator(".pb-preview").first.is_visible()
    link.hover()
    card = card_of(page, href)
    assert card.is_visible()
    box, link_box = card.bounding_box(), link.bounding_box()
    x = link_box["x"] + link_box["width"] / 2
    for y in range(int(link_box["y"] + link_box["height"]), int(box["y"] + 30), 3):
        page.mouse.move(x, y)
        assert card.is_visible(), f"the card closed with the pointer at y={y}"
    page.mouse.move(5, 5)
    assert not card.is_visible()


def test_a_card_with_no_room_below_its_link_opens_above_it(page_at, previews_site):
    page = page_at(1440, path=previews_site, height=600)
    href = LINKS["figure"]
    link = page.locator(host(href)).locator("a")
    # The link on the window's last lines: the figure's card cannot fit below it.
    link.evaluate("a => scrollBy(0, a.getBoundingClientRect().bottom - innerHeight + 40)")
    link.hover()
    card = card_of(page, href)
    box, link_box = card.bounding_box(), link.bounding_box()
    assert link_box["y"] + link_box["height"] + box["height"] > 600, "no room below"
    assert box["y"] >= 0 and box["y"] + box["height"] <= link_box["y"], (box, link_box)
    x = link_box["x"] + link_box["width"] / 2
    for y in range(int(link_box["y"]), int(box["y"] + box["height"] - 30), -3):
        page.mouse.move(x, y)
        assert card.is_visible(), f"the card closed with the pointer at y={y}"


def test_card_opens_on_focus_and_escape_closes_it(page_at, previews_site):
    page = page_at(1440, path=previews_site)
    page.locator(host(LINKS["figure"])).locator("a").focus()
    assert card_of(page, LINKS["figure"]).is_visible()
    page.keyboard.press("Escape")
    assert not card_of(page, LINKS["figure"]).is_visible()
    page.keyboard.press("Tab")  # on to the table's link
    assert card_of(page, LINKS["table"]).is_visible()
    described = page.locator(host(LINKS["table"])).get_attribute("aria-describedby")
    assert page.locator(f"#{described}").get_attribute("role") == "tooltip"
    assert page.evaluate("document.activeElement.getAttribute('href')") == LINKS["table"]


def test_the_image_is_sized_before_it_loads(page_at, previews_site):
    """The card does not grow when its lazy image arrives: no layout shift."""
    page = page_at(1440, path=previews_site)
    centre(page, LINKS["figure"])
    page.locator(host(LINKS["figure"])).locator("a").hover()
    image = card_of(page, LINKS["figure"]).locator("img")
    before = image.bounding_box()
    assert before["width"] > 200 and before["height"] == pytest.approx(
        before["width"] * 180 / 320, abs=1
    )
    image.evaluate("img => img.complete || new Promise(done => img.onload = done)")
    assert image.bounding_box()["height"] == pytest.approx(before["height"], abs=0.5)


@pytest.mark.parametrize("width", [1440, 390])
def test_every_card_stays_inside_the_window(page_at, previews_site, width):
    """Hover opens a card on a desktop; on a phone a tap does, and it fits the screen."""
    page = page_at(width, path=previews_site)
    height = page.viewport_size["height"]
    for kind, href in LINKS.items():
        centre(page, href)
        link = page.locator(host(href)).locator("a")
        if width == 390:
            link.click()  # a tap: the first one opens the card instead of following the link
            assert page.evaluate("location.hash") == ""
        else:
            link.hover()
        card = card_of(page, href)
        assert card.is_visible(), f"{kind} opens at {width}px"
        box = rect(page, f'.pb-xref:has(> a[href="{href}"]) .pb-card')
        assert box["left"] >= 0 and box["right"] <= viewport_width(page), (kind, box)
        assert box["top"] >= 0 and box["bottom"] <= height, (kind, box)
        page.keyboard.press("Escape")
        assert not card.is_visible()


def test_a_second_tap_follows_the_link(page_at, previews_site):
    page = page_at(390, path=previews_site)
    link = page.locator(host(LINKS["section"])).locator("a")
    link.click()
    assert card_of(page, LINKS["section"]).is_visible()
    link.click()
    page.wait_for_url("**/targets.html#sec-memory")


def test_without_javascript_the_link_is_a_link(page_at, previews_site):
    page = page_at(1440, javascript=False, path=previews_site)
    link = page.locator(host(LINKS["figure"])).locator("a")
    link.hover()
    assert not page.locator(".pb-preview").first.is_visible()
    link.click()
    page.wait_for_url("**/targets.html#fig-throughput")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_open_cards_follow_the_colour_mode_and_pass_axe(page_at, previews_site, scheme):
    page = page_at(1440, scheme, path=previews_site)
    body = page.evaluate("getComputedStyle(document.body).backgroundColor")
    for kind, href in LINKS.items():
        centre(page, href)
        page.locator(host(href)).locator("a").focus()
        card = card_of(page, href)
        assert card.is_visible(), kind
        assert card.evaluate("c => getComputedStyle(c).backgroundColor") == body, kind
        found = blocking_violations(page)
        assert not found, (kind, found)
        page.keyboard.press("Escape")
