"""A reader with a keyboard only: Tab through a whole page of the documentation.

The walk presses Tab from the top of the page until focus leaves it and looks at
every stop as a sighted keyboard user would: is it something they need (the table
of contents, every citation and footnote, the colour-mode switch, the copy
buttons), does it come in reading order, can they see where focus is (a ring
that differs from the unfocused element, thick enough, in contrast with what is
behind it, not cut off by a scrolling box, on screen), and do the hover cards
open on focus and close on Escape without losing the reader's place.
"""

from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import Page

from .test_color_modes import contrast, flatten, over, parse

pytestmark = pytest.mark.browser

#: A book page with the TOC, citations, a footnote and code blocks.
PAGE = "citations.html"
#: WCAG 2.2 (1.4.11, 2.4.13): a focus indicator at least 2 CSS px thick, 3:1 against
#: the colours next to it.
MIN_RING_WIDTH = 2
MIN_RING_CONTRAST = 3
#: More Tab presses than the page has stops: the walk ends when focus leaves the page.
MAX_STOPS = 400

#: Installs window.pbWalk: the unfocused look of every element that can take focus,
#: taken before the walk, and step(), which describes the element focused now.
SETUP = """() => {
  const FOCUSABLE = "a[href], button, summary, input, select, textarea, [tabindex]";
  const ring = (el) => {
    const s = getComputedStyle(el);
    return {
      outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) || 0,
      outlineColor: s.outlineColor, outlineOffset: parseFloat(s.outlineOffset) || 0,
      boxShadow: s.boxShadow,
    };
  };
  const seen = [];
  // Named once, before the walk: the TOC's highlight changes classes as it scrolls.
  const names = new Map();
  const name = (el) => names.get(el) ?? describe(el);
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + [...el.classList].map((c) => "." + c).join("")
    + ` "${(el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 30)}"`;
  const unfocused = new Map();
  // Chromium also stops on a box that scrolls: it is focusable from the start.
  const scrolls = (el) => /auto|scroll/.test(getComputedStyle(el).overflow);
  for (const el of document.querySelectorAll("*")) {
    if (!el.matches(FOCUSABLE) && !scrolls(el)) continue;
    unfocused.set(el, ring(el));
    names.set(el, describe(el));
  }
  const kind = (el) => {
    if (el.closest(".pb-card")) return "card";
    if (el.matches(".pb-cite__link")) return "cite";
    if (el.matches(".pb-fn > a.footnote-reference")) return "footnote";
    if (el.closest(".pb-toc")) return "toc";
    if (el.matches(".pb-theme-switch")) return "theme-switch";
    if (el.matches(".pb-copy")) return "copy";
    if (el.matches(".pb-skip-link")) return "skip-link";
    if (el.closest(".pb-header")) return "header";
    if (el.closest(".pb-body")) return "body";
    return "other";
  };
  // The ring lies outside the element (outline-offset >= 0): what is behind it is
  // the parent's background, painted from the root down.
  const layersBehind = (el) => {
    const found = [];
    for (let e = el.parentElement; e; e = e.parentElement) {
      found.unshift(getComputedStyle(e).backgroundColor);
    }
    return found;
  };
  // Every box between the element and the page that clips what overflows it.
  const clippedBy = (el, box) => {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const r = e.getBoundingClientRect();
      const inner = {
        left: r.left + e.clientLeft, top: r.top + e.clientTop,
        right: r.left + e.clientLeft + e.clientWidth, bottom: r.top + e.clientTop + e.clientHeight,
      };
      if (box.left < inner.left - 0.5 || box.right > inner.right + 0.5
          || box.top < inner.top - 0.5 || box.bottom > inner.bottom + 0.5) return name(e);
    }
    return null;
  };
  const opacity = (el) => {
    let value = 1;
    for (let e = el; e; e = e.parentElement) value *= parseFloat(getComputedStyle(e).opacity);
    return value;
  };
  const cardOf = (el) => el.closest(".pb-cite")?.querySelector(":scope > .pb-card") ?? null;
  window.pbWalk = {
    current: () => name(document.activeElement),
    cardOpen: () => {
      const card = cardOf(document.activeElement);
      return card ? card.checkVisibility() : null;
    },
    step: async () => {
      const el = document.activeElement;
      if (!el || el === document.body || el === document.documentElement) return null;
      // Let transitions (a copy button fading in) end before the ring is measured.
      await Promise.race([
        Promise.all(document.getAnimations().map((a) => a.finished)),
        new Promise((resolve) => setTimeout(resolve, 1000)),
      ]);
      let index = seen.indexOf(el);
      const first = index < 0;
      if (first) index = seen.push(el) - 1;
      const before = index > 0 ? seen[index - 1] : null;
      const rect = el.getBoundingClientRect();
      const focused = ring(el);
      const spread = Math.max(0, focused.outlineOffset) + focused.outlineWidth;
      const ringBox = {
        left: rect.left - spread, right: rect.right + spread,
        top: rect.top - spread, bottom: rect.bottom + spread,
      };
      return {
        index, first, name: name(el), kind: kind(el),
        after: before ? Boolean(before.compareDocumentPosition(el)
          & Node.DOCUMENT_POSITION_FOLLOWING) : true,
        top: rect.top + window.scrollY, height: rect.height,
        focused, unfocused: unfocused.get(el) ?? null,
        behind: layersBehind(el), clippedBy: clippedBy(el, ringBox),
        visible: el.checkVisibility({opacityProperty: true, visibilityProperty: true}),
        opacity: opacity(el),
        onScreen: rect.bottom > 0 && rect.top < innerHeight && rect.right > 0
          && rect.left < document.documentElement.clientWidth,
        card: cardOf(el) ? cardOf(el).checkVisibility() : null,
        expanded: el.matches("summary") ? el.parentElement.open : null,
      };
    },
    targets: () => ({
      toc: [...document.querySelectorAll(".pb-toc a[href]")].map(name),
      cite: [...document.querySelectorAll(".pb-cite__link")].map(name),
      footnote: [...document.querySelectorAll(".pb-fn > a.footnote-reference")].map(name),
      "theme-switch": [...document.querySelectorAll(".pb-theme-switch")].map(name),
      copy: [...document.querySelectorAll(".pb-copy")].map(name),
    }),
  };
}"""


def walk(page: Page, open_toc: bool = False) -> list[dict]:
    """Tab through the page once; on each citation or footnote, Escape its card.

    ``open_toc``: press Enter on the collapsed table of contents (a phone's
    screen), as a reader who wants it would.
    """
    page.evaluate(SETUP)
    stops: list[dict] = []
    for _ in range(MAX_STOPS):
        page.keyboard.press("Tab")
        stop = page.evaluate("window.pbWalk.step()")
        if stop is None or not stop["first"]:
            return stops
        if stop["kind"] in ("cite", "footnote"):
            page.keyboard.press("Escape")
            stop["card_after_escape"] = page.evaluate("window.pbWalk.cardOpen()")
            stop["focus_after_escape"] = page.evaluate("window.pbWalk.current()")
        if open_toc and stop["kind"] == "toc" and stop["expanded"] is False:
            page.keyboard.press("Enter")
        stops.append(stop)
    pytest.fail(f"focus never left the page after {MAX_STOPS} Tab presses")


def ring_problems(stop: dict) -> list[str]:
    """What keeps a sighted reader from seeing that this element has focus."""
    focused, unfocused = stop["focused"], stop["unfocused"]
    problems = []
    if unfocused is None:
        problems.append("took focus but was not on the page when the walk began")
    elif focused == unfocused:
        problems.append(f"looks the same focused and unfocused ({focused})")
    has_outline = focused["outlineStyle"] != "none" and focused["outlineWidth"] > 0
    if not has_outline:
        problems.append(f"has no outline ({focused})")
    else:
        if focused["outlineWidth"] < MIN_RING_WIDTH:
            problems.append(f"ring {focused['outlineWidth']}px thin")
        behind = flatten(stop["behind"])
        ratio = contrast(over(parse(focused["outlineColor"]), behind), behind)
        if ratio < MIN_RING_CONTRAST:
            problems.append(
                f"ring {focused['outlineColor']} on rgb{tuple(round(c) for c in behind[:3])}"
                f" has contrast {ratio:.2f}"
            )
    if stop["clippedBy"]:
        problems.append(f"ring cut off by {stop['clippedBy']}")
    if not stop["visible"] or stop["opacity"] < 0.99:
        problems.append(f"not fully visible (opacity {stop['opacity']:.2f})")
    if not stop["onScreen"]:
        problems.append("off screen")
    return problems


@pytest.fixture(scope="module")
def walks() -> dict:
    """Walks shared by the tests of this module, by (width, scheme)."""
    return {}


def walked(page_at, docs_site: str, walks: dict, width: int, scheme: str) -> tuple[list, dict]:
    """The walk at this width and colour scheme, and what the page offers to reach."""
    key = (width, scheme)
    if key not in walks:
        page = page_at(width, scheme, path=docs_site + PAGE)
        stops = walk(page, open_toc=width < 1200)
        walks[key] = (stops, page.evaluate("window.pbWalk.targets()"))
    return walks[key]


WALKS = [(1440, "light"), (1440, "dark"), (390, "light")]


@pytest.mark.parametrize(("width", "scheme"), WALKS)
def test_tab_reaches_toc_citations_footnotes_switch_and_copy_buttons(
    page_at, docs_site, walks, width, scheme
):
    stops, targets = walked(page_at, docs_site, walks, width, scheme)
    reached = {stop["name"] for stop in stops}
    for kind, names in targets.items():
        assert names, f"the page has no {kind} to reach"
        missing = [name for name in names if name not in reached]
        assert not missing, f"Tab never reaches these {kind} stops: {missing}"


@pytest.mark.parametrize(("width", "scheme"), WALKS)
def test_tab_follows_reading_order(page_at, docs_site, walks, width, scheme):
    """Header, then the TOC, then the article, top to bottom, in document order."""
    stops, _ = walked(page_at, docs_site, walks, width, scheme)
    backwards = [stop["name"] for stop in stops if not stop["after"]]
    assert not backwards, f"focus jumps back up the document to {backwards}"
    sections = {"skip-link": 0, "header": 1, "theme-switch": 1, "toc": 2, "body": 3}
    ranks = [sections[stop["kind"]] for stop in stops if stop["kind"] in sections]
    assert ranks == sorted(ranks), [stop["name"] for stop in stops]
    # In the article, each stop is below the one before, or on the same line (a card's
    # links, shown below its number, are left out: they belong to the number).
    article = [stop for stop in stops if stop["kind"] in ("body", "cite", "footnote", "copy")]
    upward = [
        f"{later['name']} at y={later['top']:.0f} after {earlier['name']} at y={earlier['top']:.0f}"
        for earlier, later in itertools.pairwise(article)
        if later["top"] < earlier["top"] - max(earlier["height"], 30)
    ]
    assert not upward, upward


@pytest.mark.parametrize(("width", "scheme"), WALKS)
def test_every_stop_shows_a_visible_focus_ring(page_at, docs_site, walks, width, scheme):
    stops, _ = walked(page_at, docs_site, walks, width, scheme)
    failures = [f"{stop['name']}: {'; '.join(ring_problems(stop))}" for stop in stops]
    failures = [failure for failure in failures if not failure.endswith(": ")]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(("width", "scheme"), WALKS)
def test_cards_open_on_focus_and_close_on_escape(page_at, docs_site, walks, width, scheme):
    stops, _ = walked(page_at, docs_site, walks, width, scheme)
    numbers = [stop for stop in stops if stop["kind"] in ("cite", "footnote")]
    assert {stop["kind"] for stop in numbers} == {"cite", "footnote"}
    for stop in numbers:
        assert stop["card"] is True, f"{stop['name']}: its card stays closed on focus"
        assert stop["card_after_escape"] is False, f"{stop['name']}: Escape leaves the card open"
        assert stop["focus_after_escape"] == stop["name"], (
            f"{stop['name']}: Escape moves focus to {stop['focus_after_escape']}"
        )


def test_tab_enters_an_open_card_and_escape_returns_to_its_number(page_at, docs_site):
    """The card's links (title, DOI) are reachable; Escape there does not lose focus."""
    page = page_at(1440, path=docs_site + PAGE)
    number = page.locator("#pb-cite-1 .pb-cite__link")
    card = page.locator("#pb-cite-1 .pb-card")
    number.focus()
    page.keyboard.press("Tab")
    in_card = page.evaluate("document.activeElement.closest('#pb-cite-1 .pb-card') !== null")
    assert in_card and card.is_visible(), "Tab from the number does not enter its open card"
    page.keyboard.press("Escape")
    assert not card.is_visible()
    assert number.evaluate("el => el === document.activeElement"), (
        "Escape in the card leaves focus on a hidden link instead of the number"
    )
