"""Citation cards as a reader uses them: hover, keyboard focus, Escape, a phone's screen."""

from __future__ import annotations

import pytest

from .test_layout import rect, viewport_width

pytestmark = pytest.mark.browser

PAGE = "citations/index.html"


def card_visible(page, cite: str) -> bool:
    return page.locator(f"{cite} .pb-card").is_visible()


def test_card_opens_on_hover_and_stays_while_the_pointer_moves_into_it(page_at):
    page = page_at(1440, path=PAGE)
    assert not card_visible(page, "#pb-cite-2")
    page.locator("#pb-cite-2 .pb-cite__link").first.hover()
    assert card_visible(page, "#pb-cite-2")
    card = rect(page, "#pb-cite-2 .pb-card")
    link = rect(page, "#pb-cite-2 .pb-cite__link")
    # Walk the pointer from the number down into the card, through the gap.
    x = (link["left"] + link["right"]) / 2
    for y in range(int(link["bottom"]), int(card["top"] + 20), 3):
        page.mouse.move(x, y)
        assert card_visible(page, "#pb-cite-2"), f"the card closed with the pointer at y={y}"
    page.mouse.move(5, 5)
    assert not card_visible(page, "#pb-cite-2")


def test_card_opens_on_focus_and_escape_closes_it(page_at):
    page = page_at(1440, path=PAGE)
    page.locator("#pb-cite-1 .pb-cite__link").focus()
    assert card_visible(page, "#pb-cite-1")
    page.keyboard.press("Escape")
    assert not card_visible(page, "#pb-cite-1")
    page.keyboard.press("Tab")  # on to the next citation's first number
    assert card_visible(page, "#pb-cite-2")
    assert not card_visible(page, "#pb-cite-1")


@pytest.mark.parametrize("width", [1440, 390])
def test_card_is_announced_and_stays_inside_the_window(page_at, width):
    """Hover opens it on a desktop; on a phone a tap does, and the card fits the screen."""
    page = page_at(width, path=PAGE)
    height = page.viewport_size["height"]
    for cite in ("#pb-cite-4", "#pb-cite-5"):
        link = page.locator(f"{cite} .pb-cite__link")
        if width == 390:
            link.click()  # a tap: the first one opens the card instead of jumping
        else:
            link.hover()
        assert card_visible(page, cite), f"{cite} opens at {width}px"
        card = rect(page, f"{cite} .pb-card")
        assert card["left"] >= 0 and card["right"] <= viewport_width(page), card
        assert card["top"] >= 0 and card["bottom"] <= height, card
        described = page.locator(cite).get_attribute("aria-describedby")
        assert page.locator(f"#{described}").get_attribute("role") == "tooltip"


def test_number_jumps_to_the_reference_and_back(page_at):
    page = page_at(1440, path=PAGE)
    page.locator("#pb-cite-1 .pb-cite__link").click()
    assert page.evaluate("location.hash") == "#pb-ref-joulin2016fasttext"
    page.locator("#pb-ref-joulin2016fasttext a.pb-backlink").first.click()
    assert page.evaluate("location.hash") == "#pb-cite-1"


def test_footnote_card_opens_on_focus_and_lists_in_the_appendix(page_at):
    page = page_at(1440, path=PAGE)
    note = page.locator(".pb-fn").first
    note.locator("a.footnote-reference").focus()
    card = note.locator(".pb-card")
    assert card.is_visible()
    assert card.text_content() == "The note\u2019s text, with a link."
    page.keyboard.press("Escape")
    assert not card.is_visible()
    number = note.locator("a.footnote-reference")
    assert number.evaluate("a => getComputedStyle(a).verticalAlign") == "super"
    assert page.locator("#pb-appendix-footnotes #note").is_visible()


def test_appendix_passes_over_the_sticky_toc(page_at):
    page = page_at(1440, path=PAGE)
    page.locator("#pb-appendix").scroll_into_view_if_needed()
    heading = rect(page, "#pb-appendix-footnotes > h2")
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('#pb-appendix, .pb-toc')?.id",
        [heading["left"] + 5, heading["top"] + heading["height"] / 2],
    )
    assert on_top == "pb-appendix"


def test_the_citation_to_copy_wraps_on_a_phone(page_at, docs_site):
    """The whole "cite this article" line is readable at 390 px, not cut off in a
    box that scrolls (the docs' is 66 characters long)."""
    page = page_at(390, path=docs_site + "index.html")
    page.locator("#pb-appendix-citation").scroll_into_view_if_needed()
    short = page.locator(".pb-cite-short pre")
    sizes = short.evaluate("e => [e.scrollWidth, e.clientWidth, e.getClientRects().length]")
    assert sizes[0] <= sizes[1], f"the citation overflows its box: {sizes}"
    assert rect(page, ".pb-cite-short pre")["right"] <= viewport_width(page)
    lines = page.evaluate(
        "() => { const p = document.querySelector('.pb-cite-short pre');"
        " return Math.round(p.getBoundingClientRect().height /"
        " parseFloat(getComputedStyle(p).lineHeight)); }"
    )
    assert lines >= 2, "a citation longer than a phone's width takes more than one line"
