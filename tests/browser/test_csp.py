"""The docs under a strict Content-Security-Policy (``playbook_csp = True``).

The docs are built with the option and served as they are: every page carries the
policy as a ``<meta http-equiv>``, and so does each interactive figure's own page.
Chromium then enforces it; the tests collect every ``securitypolicyviolation``
event (in the page and in its frames) and every console error while each kind of
page loads and is used, and check that the features still work: the colour-mode
switch, the table of contents, search with its highlighted terms, an interactive
figure drawing its plot, the asides and citation cards, math laid out by its
page's stylesheet.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import build, soup
from playwright.sync_api import Page

from sphinx_playbook.csp import POLICY

from .conftest import DOCS

pytestmark = pytest.mark.browser

#: An article, math, an interactive figure, asides and citations, search.
PAGES = (
    "index.html",
    "math.html",
    "interactive-figures.html",
    "citations.html",
    "directives.html",
    "search.html",
)

#: Collects the violations the policy reports, in every frame, before any script of
#: the page runs (Playwright's init scripts run outside the page's policy).
COLLECT = """
window.__pbViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__pbViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile || location.pathname}:${event.lineNumber}`
  );
});
"""


@pytest.fixture(scope="module")
def csp_docs(site_dir: Path) -> str:
    """docs/ built with ``playbook_csp = True``, served at ``docs-csp/``."""
    out = site_dir / "docs-csp"
    build(DOCS, out, "html", "-D", "playbook_csp=1")
    return "docs-csp/"


class Watched:
    """A page with its policy violations and console errors, from all its frames."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.add_init_script(COLLECT)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def violations(self) -> list[str]:
        found: list[str] = []
        for frame in self.page.frames:
            try:
                found += frame.evaluate("() => window.__pbViolations || []")
            except Exception as error:  # a frame gone meanwhile: say so, do not hide it
                found.append(f"could not read {frame.url}: {error}")
        return found

    def assert_clean(self, what: str) -> None:
        violations = self.violations()
        assert not violations, f"{what}: Content-Security-Policy violations {violations}"
        assert not self.errors, f"{what}: console errors {self.errors}"


def _open(page_at, site_url: str, path: str, width: int = 1440) -> Watched:
    watched = Watched(page_at(width, path=None))
    watched.page.goto(site_url + path, wait_until="load")
    return watched


def _scroll_through(page: Page) -> None:
    """To the end and back, so lazy frames and images load."""
    page.evaluate(
        """async () => {
          const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
          for (let y = 0; y <= document.documentElement.scrollHeight; y += innerHeight / 2) {
            scrollTo(0, y);
            await frame();
          }
        }"""
    )
    # Not "networkidle": Playwright never reports the end of a request a frame's
    # memory cache answers (plotly.js, loaded by an earlier test), and waits forever.
    # Each frame's load event, then its scripts' work (plotly.js parses for seconds).
    for frame in page.frames:
        frame.wait_for_load_state("load", timeout=60_000)
    page.wait_for_timeout(500)


@pytest.mark.parametrize("name", PAGES)
def test_every_page_carries_the_policy_and_nothing_of_ours_is_inline(site_dir, csp_docs, name):
    """The policy comes first in <head>, and the page holds no inline script or
    style, nor a style attribute, that it would block."""
    page = soup(site_dir / csp_docs / name)
    meta = page.head.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
    assert meta is not None and meta["content"] == POLICY
    assert page.head.find(["script", "style", "link"]).sourceline > meta.sourceline
    assert not page.find_all("script", src=False)
    assert not page.find_all("style")
    assert not page.select("[style]"), [str(e)[:80] for e in page.select("[style]")][:5]


def test_each_figure_page_carries_the_policy_too(site_dir, csp_docs):
    frames = sorted((site_dir / csp_docs / "_interactive").glob("*.html"))
    assert frames, "the docs have interactive figures"
    for path in frames:
        frame = soup(path)
        meta = frame.head.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
        # The installed plotly.js has the hook for strict policies: its stylesheet is
        # a file, linked with the id and class that stop it injecting a <style>.
        plotly = any("plotly" in s["src"] for s in frame.find_all("script", src=True))
        assert meta is not None and meta["content"] == POLICY, path.name
        if plotly:
            link = frame.head.find("link", id="plotly.js-style-global")
            assert link is not None and "no-inline-styles" in link["class"], path.name
            assert (path.parent / link["href"]).resolve().is_file(), link["href"]
        assert not frame.find_all("script", src=False), path.name
        assert not frame.select("[style]"), path.name


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_under_the_policy_without_a_violation(page_at, site_url, csp_docs, name):
    watched = _open(page_at, site_url, csp_docs + name)
    _scroll_through(watched.page)
    watched.assert_clean(name)
    # Every class that stands for a style attribute has its rule in a loaded stylesheet.
    missing = watched.page.evaluate(
        """() => {
          const rules = new Set();
          for (const sheet of document.styleSheets) {
            for (const rule of sheet.cssRules) {
              const selector = rule.selectorText || "";
              for (const m of selector.matchAll(/\\.(pb-s-[0-9a-f]+)/g)) rules.add(m[1]);
            }
          }
          const used = new Set([...document.querySelectorAll("[class*='pb-s-']")]
            .flatMap((e) => [...e.classList].filter((c) => c.startsWith("pb-s-"))));
          return [...used].filter((c) => !rules.has(c));
        }"""
    )
    assert not missing, f"{name}: classes without their rule: {missing}"


def test_the_collector_sees_a_violation(page_at, site_url, csp_docs):
    """The check above can fail: an inline script added to a page is refused and reported."""
    watched = _open(page_at, site_url, csp_docs + "index.html")
    ran = watched.page.evaluate(
        """async () => {
          const script = document.createElement("script");
          script.textContent = "window.__pbInlineRan = true";
          document.body.append(script);
          await new Promise((resolve) => setTimeout(resolve, 100));
          return window.__pbInlineRan === true;
        }"""
    )
    assert not ran, "the policy is not in force"
    assert any("script-src" in v for v in watched.violations()), watched.violations()


def test_the_colour_mode_switch_and_toc_work(page_at, site_url, csp_docs):
    watched = _open(page_at, site_url, csp_docs + "directives.html")
    page = watched.page
    assert page.evaluate("() => document.querySelector('.pb-toc__details').open")
    root = page.locator("html")
    assert root.get_attribute("data-mode") == "auto"
    page.locator(".pb-theme-switch").first.click()
    assert root.get_attribute("data-theme") == "light"
    page.locator(".pb-theme-switch").first.click()
    assert root.get_attribute("data-theme") == "dark"
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(22, 24, 28)", "the dark tokens apply"
    # The choice is kept on the next page, before its first paint.
    page.goto(site_url + csp_docs + "citations.html", wait_until="load")
    assert root.get_attribute("data-theme") == "dark"
    watched.assert_clean("mode switch")


def test_search_finds_pages_and_highlights_the_terms(page_at, site_url, csp_docs):
    watched = _open(page_at, site_url, csp_docs + "search.html?q=aside")
    page = watched.page
    results = page.locator("#search-results li a")
    results.first.wait_for()
    assert results.count() > 0
    results.first.click()
    page.wait_for_load_state("load")
    # sphinx_highlight.js, loaded by the theme's script only after a search.
    page.locator(".pb-body span.highlighted").first.wait_for()
    watched.assert_clean("search and highlighting")


def test_an_interactive_figure_draws_its_plot(page_at, site_url, csp_docs):
    watched = _open(page_at, site_url, csp_docs + "interactive-figures.html")
    page = watched.page
    frame_element = page.locator(".pb-interactive__frame iframe").first
    frame_element.scroll_into_view_if_needed()
    frame = frame_element.content_frame
    frame.locator(".plotly-graph-div .main-svg").first.wait_for()
    box = frame_element.bounding_box()
    plot = frame.locator(".plotly-graph-div").first.bounding_box()
    assert box and plot and plot["width"] > 0.9 * box["width"], (box, plot)
    # plotly.js injected no <style> (the policy would refuse it), and its own rules
    # apply from the linked file: the mode bar sits in the plot's corner.
    assert frame.locator("style").count() == 0
    frame.locator(".plotly-graph-div").first.hover()
    modebar = frame.locator(".modebar").first
    modebar.wait_for(state="attached")
    assert modebar.evaluate("(e) => getComputedStyle(e).position") == "absolute"
    watched.assert_clean("interactive figure")


def test_citation_cards_and_asides_are_styled(page_at, site_url, csp_docs):
    watched = _open(page_at, site_url, csp_docs + "citations.html")
    page = watched.page
    cite = page.locator(".pb-body .pb-cite").first
    cite.hover()
    card = cite.locator(".pb-card")
    card.wait_for(state="visible")
    assert card.bounding_box()["height"] > 20
    watched.assert_clean("citation cards")


#: When the table of contents was opened, and whether it was open when first inserted.
OPENED_AT = """
window.__pbTocOpened = null;
new MutationObserver((records) => {
  for (const record of records) {
    const details = record.target.closest?.(".pb-toc__details");
    if (details && details.open && window.__pbTocOpened === null) {
      window.__pbTocOpened = performance.now();
    }
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["open"] });
"""


def test_the_toc_is_open_before_the_first_paint(page_at, site_url, csp_docs):
    """On a wide screen the mode script (a file: no inline script) opens the table of
    contents as the parser inserts it, before anything is painted: no flash, no shift."""
    page = page_at(1440, path=None)
    page.add_init_script(OPENED_AT)
    page.goto(site_url + csp_docs + "directives.html", wait_until="load")
    # "load" can fire before the first paint is recorded (seen in CI): wait for the entry.
    first_paint = page.wait_for_function(
        """() => performance.getEntriesByType("paint")
            .find((entry) => entry.name === "first-paint")?.startTime ?? null"""
    ).json_value()
    opened = page.evaluate("() => window.__pbTocOpened")
    assert opened is not None, "the table of contents was never opened"
    assert first_paint is not None and opened < first_paint, (opened, first_paint)
