"""Moving around a book: previous/next links, the chapters menu, and search.

The site is served under ``/sub/path/``, so each of these also checks that the
links the theme writes are relative and land on the right page there.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

INDEX = "article-myst/index.html"
CHAPTER = "article-myst/chapter2.html"


def test_prev_and_next_link_the_chapters(page_at, site_url):
    """The index links forward to chapter 2, which links back; neither has a link
    past the ends of the book."""
    page = page_at(1440, path=INDEX)
    assert page.locator(".pb-prev-next a[rel=prev]").count() == 0, "the first page has no previous"
    page.locator(".pb-prev-next a[rel=next]").click()
    expect(page, "Next on the index should open chapter 2").to_have_url(site_url + CHAPTER)
    expect(page.locator(".pb-title")).to_have_text("Second chapter")

    assert page.locator(".pb-prev-next a[rel=next]").count() == 0, "the last page has no next"
    page.locator(".pb-prev-next a[rel=prev]").click()
    expect(page, "Previous on chapter 2 should open the index").to_have_url(site_url + INDEX)


@pytest.mark.parametrize("path", [INDEX, CHAPTER], ids=["index", "chapter2"])
def test_chapters_menu_lists_every_page(page_at, site_url, path):
    """The chapters menu opens on click and offers every page of the book,
    the first one included, from any page."""
    page = page_at(1440, path=path)
    menu = page.locator("details.pb-chapters")
    page.locator(".pb-chapters__summary").click()
    expect(menu, "a click on the summary should open the menu").to_have_attribute("open", "")
    expect(page.locator(".pb-chapters__nav")).to_be_visible()
    targets = page.locator(".pb-chapters__nav a").evaluate_all(
        "links => links.map(a => a.href.split('#')[0])"
    )
    expected = [site_url + INDEX, site_url + CHAPTER]
    missing = [url for url in expected if url not in targets]
    assert not missing, f"the chapters menu on {path} links to {targets}, missing {missing}"


def test_chapters_menu_fits_a_phone(page_at):
    """Opened at 390px, the menu lies inside the viewport; a part left of x=0
    could not be scrolled to and would be cut off."""
    page = page_at(390)
    page.locator(".pb-chapters__summary").click()
    nav = page.locator(".pb-chapters__nav")
    expect(nav).to_be_visible()
    box = nav.evaluate("el => { const r = el.getBoundingClientRect(); return [r.left, r.right]; }")
    assert box[0] >= 0 and box[1] <= 390, (
        f"the open chapters menu spans x={box[0]}..{box[1]}, outside the 390px viewport"
    )


def test_search_button_opens_the_dialog(page_at):
    """With JavaScript the search button opens the dialog, ready to type in."""
    page = page_at(1440)
    page.locator(".pb-search-button").first.click()
    dialog = page.locator("dialog#pst-search-dialog")
    expect(dialog, "the search dialog should open").to_have_attribute("open", "")
    expect(dialog.locator("input"), "the search input should have the focus").to_be_focused()


def test_search_button_without_javascript_goes_to_the_search_page(page_at, site_url):
    """Without JavaScript the button is a plain link to search.html."""
    page = page_at(1440, javascript=False)
    page.locator(".pb-search-button").first.click()
    expect(page).to_have_url(site_url + "article-myst/search.html")


def test_search_page_finds_results(page_at, site_url):
    """search.html runs Sphinx's search on ?q= and links to the pages found."""
    page = page_at(1440, path="article-myst/search.html?q=GPU")
    results = page.locator("#search-results li")
    expect(results.first, "searching for GPU should list a result").to_be_visible()
    hrefs = results.locator("a").evaluate_all("links => links.map(a => a.href)")
    assert any(href.startswith(site_url + INDEX) for href in hrefs), (
        f"the results should link to the index under the sub-path: {hrefs}"
    )


@pytest.mark.parametrize("width", [1440, 390])
def test_search_excerpts_come_from_the_body(page_at, width):
    """An excerpt is the text around the term in the article's body: not the byline,
    the table of contents or the previous and next links, which list section titles
    first. The search page itself passes axe and fits the screen."""
    from .test_accessibility import blocking_violations

    page = page_at(width, path="article-myst/search.html?q=memory")
    excerpt = page.locator("#search-results li p.context").first
    expect(excerpt, "a result should show an excerpt").to_be_visible()
    text = " ".join(excerpt.inner_text().split())
    for chrome in ("Table of Contents", "Authors", "Published", "Previous", "Next"):
        assert chrome not in text, f"the excerpt comes from the page's chrome: {text!r}"
    assert blocking_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    body = page_at(width, path=INDEX).locator('[role="main"]').inner_text()
    assert text.strip(".")[:60] in " ".join(body.split()), text
