"""Readers of any ability: axe-core, link colours and reduced motion, in Chromium.

axe-core (shipped by axe-playwright-python) runs on the documentation's article
and two book pages, in light and dark mode, on a wide screen and a phone: no
serious or critical violation is allowed, including colour contrast, which axe
checks for every piece of text. A hover card is closed while axe looks, so its
colours are checked on an open one separately. Links are measured too: their
colour against what is behind them, and how they differ from the text around
them. ``prefers-reduced-motion: reduce`` must turn transitions and animations
off, which getAnimations() shows while the page changes state.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from .test_color_modes import contrast, flatten, over, parse

pytestmark = pytest.mark.browser

#: The docs article (front page) and two book pages: directives and citations.
PAGES = ("index.html", "directives.html", "citations.html")
BLOCKING = ("serious", "critical")
#: WCAG 2 AA for text; links are text.
MIN_TEXT_CONTRAST = 4.5

AXE = Axe()


def blocking_violations(page: Page, context: dict | None = None, rules: list | None = None):
    """axe's serious and critical violations, as readable lines."""
    options: dict = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = rules
    results = AXE.run(page, context=context, options=options)
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} {node['failureSummary']}"
        for violation in results.response["violations"]
        if violation["impact"] in BLOCKING
        for node in violation["nodes"]
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1440, 390])
def test_axe_finds_no_serious_violation(page_at, docs_site, width, scheme):
    failures = {}
    for name in PAGES:
        page = page_at(width, scheme, path=docs_site + name)
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        found = blocking_violations(page)
        if found:
            failures[name] = found
    assert not failures, failures


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_open_cards_have_readable_text(page_at, docs_site, scheme):
    """axe skips hidden cards; open a citation's and a footnote's and check them."""
    page = page_at(1440, scheme, path=docs_site + "citations.html")
    for cite in ("#pb-cite-2", ".pb-fn"):
        page.locator(cite).first.evaluate("el => el.setAttribute('data-open', '')")
        assert page.locator(f"{cite} > .pb-card").first.is_visible()
        found = blocking_violations(
            page, context={"include": [[f"{cite} > .pb-card"]]}, rules=["color-contrast"]
        )
        assert not found, found
        page.locator(cite).first.evaluate("el => el.removeAttribute('data-open')")


#: Every visible link in the page's main parts: its colour and the backgrounds behind
#: it, and whether its text differs from the text around it by more than colour.
READ_LINKS = """() => {
  const layers = (el) => {
    const found = [];
    for (let e = el; e; e = e.parentElement) found.unshift(getComputedStyle(e).backgroundColor);
    return found;
  };
  const links = [];
  const selector = ".pb-header a[href], .pb-body a[href], .pb-toc a[href]";
  for (const link of document.querySelectorAll(selector)) {
    if (!link.checkVisibility({opacityProperty: true}) || !link.textContent.trim()) continue;
    const style = getComputedStyle(link);
    // The paragraph (or list item, cell) the link sits in, as axe compares them.
    const block = link.parentElement.closest("p, li, dd, td, th") ?? link.parentElement;
    const parent = getComputedStyle(block);
    const inText = block.textContent.trim().length > link.textContent.trim().length + 3;
    links.push({
      name: link.outerHTML.slice(0, 80), color: style.color, layers: layers(link),
      parentColor: parent.color, inText,
      marked: style.textDecorationLine.includes("underline")
        || style.fontWeight !== parent.fontWeight || style.fontSize !== parent.fontSize,
    });
  }
  return links;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_link_colours_read_and_links_in_text_are_marked(page_at, docs_site, scheme):
    """Links (accent-coloured citation numbers and backlinks too) reach 4.5:1 against
    their background; in running text a link that differs from the text only by
    colour fails WCAG 1.4.1, so those are underlined."""
    page = page_at(1440, scheme, path=docs_site + "citations.html")
    links = page.evaluate(READ_LINKS)
    assert len(links) > 20, links
    problems = []
    for link in links:
        behind = flatten(link["layers"])
        ratio = contrast(over(parse(link["color"]), behind), behind)
        if ratio < MIN_TEXT_CONTRAST:
            problems.append(f"{link['name']}: contrast {ratio:.2f}")
        if link["inText"] and link["color"] != link["parentColor"] and not link["marked"]:
            problems.append(f"{link['name']}: set apart from the text by colour only")
    assert not problems, "\n".join(problems)


#: Puts the page through changes the stylesheet animates (a code block's copy button
#: fades in on hover, the TOC's arrow turns when it closes) and counts the animations
#: running; also lists the elements whose computed style still animates.
MOVE_AND_COUNT = """() => {
  const block = document.querySelector(".pb-body .highlight");
  block.dispatchEvent(new PointerEvent("pointerover", {bubbles: true}));
  document.querySelector(".pb-toc__details").open = false;
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
    const moving = [];
    for (const el of document.querySelectorAll("*")) {
      for (const pseudo of [null, "::before", "::after"]) {
        const s = getComputedStyle(el, pseudo);
        const durations = (s.transitionDuration + "," + s.animationDuration).split(",");
        if (s.animationName !== "none" || durations.some((d) => parseFloat(d) > 0)) {
          moving.push(el.tagName.toLowerCase() + [...el.classList].map((c) => "." + c).join("")
            + (pseudo || ""));
        }
      }
    }
    resolve({running: document.getAnimations().length, moving: moving.slice(0, 10)});
  })));
}"""


@pytest.mark.parametrize("reduce", [False, True], ids=["motion", "reduced-motion"])
def test_reduced_motion_turns_animations_off(page_at, docs_site, reduce):
    """Without the preference the same changes do animate: the test sees them."""
    page = page_at(1440, path=docs_site + "citations.html")
    page.emulate_media(reduced_motion="reduce" if reduce else "no-preference")
    page.locator(".pb-body .highlight").first.hover()
    found = page.evaluate(MOVE_AND_COUNT)
    if reduce:
        assert found == {"running": 0, "moving": []}, found
    else:
        assert found["running"] > 0 and found["moving"], found
