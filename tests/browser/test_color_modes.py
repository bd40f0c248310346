"""Light and dark colour modes, and whether text stays readable in both.

Every colour of the theme comes from ``light-dark()`` tokens that follow the
system setting, or the reader's choice once the mode switch sets
``html[data-theme]``. A component that hard-codes a colour, or a third-party
style (Pygments, sphinx-design) that is not mapped to the tokens, stays light
in dark mode or ends up as light text on a light box; these tests look at the
computed colours of each component and at the WCAG contrast of all its text.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

#: The parts of an article page whose colours must follow the mode.
COMPONENTS = {
    "body": "body",
    "header": ".pb-header",
    "byline": ".pb-byline",
    "table of contents": ".pb-toc",
    "code block": ".pb-body .highlight",
    "admonition": ".pb-body .admonition",
    "table": ".pb-body table",
    "card": ".pb-body .sd-card",
}
#: WCAG 2 AA for body text.
MIN_CONTRAST = 4.5

#: For each component: its own text colour and background layers, and the same
#: for every rendered element in it that holds text. Background layers run from
#: the root element down to the element, as computed CSS strings.
READ_COLOURS = """(components) => {
  const layers = (el) => {
    const found = [];
    for (let e = el; e; e = e.parentElement) found.unshift(getComputedStyle(e).backgroundColor);
    return found;
  };
  const holdsText = (el) =>
    [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const result = {};
  for (const [name, selector] of Object.entries(components)) {
    const root = document.querySelector(selector);
    if (!root) { result[name] = null; continue; }
    const texts = [];
    for (const el of [root, ...root.querySelectorAll("*")]) {
      const shown = el.checkVisibility({opacityProperty: true, visibilityProperty: true});
      if (!shown || !holdsText(el)) continue;
      texts.push({
        element: el.tagName.toLowerCase() + [...el.classList].map((c) => "." + c).join(""),
        text: el.textContent.trim().slice(0, 40),
        color: getComputedStyle(el).color,
        layers: layers(el),
      });
    }
    result[name] = {color: getComputedStyle(root).color, layers: layers(root), texts};
  }
  return result;
}"""

Colour = tuple[float, float, float, float]


def parse(css: str) -> Colour:
    """``rgb(…)``/``rgba(…)`` as Chromium computes them, to (r, g, b, alpha)."""
    match = re.fullmatch(r"rgba?\(([^)]*)\)", css.strip())
    assert match, f"cannot read the computed colour {css!r}"
    parts = [float(p) for p in re.split(r"[\s,/]+", match[1].strip()) if p]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def over(top: Colour, base: Colour) -> Colour:
    """``top`` painted over the opaque ``base``."""
    alpha = top[3]
    r, g, b = (top[i] * alpha + base[i] * (1 - alpha) for i in range(3))
    return (r, g, b, 1.0)


def flatten(layers: list[str]) -> Colour:
    """The opaque colour the background layers (outermost first) add up to.

    Painting starts at the innermost opaque layer: what lies under it is hidden.
    The body's background is that layer at least, or the page has no defined
    background to read text against.
    """
    colours = [parse(layer) for layer in layers]
    opaque = [i for i, c in enumerate(colours) if c[3] == 1]
    assert opaque, f"no opaque background under the text: {layers}"
    result = colours[opaque[-1]]
    for colour in colours[opaque[-1] + 1 :]:
        result = over(colour, result)
    return result


def luminance(colour: Colour) -> float:
    """WCAG relative luminance of an opaque sRGB colour."""

    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def read_components(page: Page) -> dict[str, dict]:
    """Per component: its background and text colour, and its least readable text."""
    raw = page.evaluate(READ_COLOURS, COMPONENTS)
    missing = [name for name, found in raw.items() if found is None]
    assert not missing, f"the page has no {missing} to check"
    components = {}
    for name, found in raw.items():
        background = flatten(found["layers"])
        texts = []
        for text in found["texts"]:
            behind = flatten(text["layers"])
            ratio = contrast(over(parse(text["color"]), behind), behind)
            texts.append((ratio, text["element"], text["text"], text["color"], behind))
        assert texts, f"the {name} shows no text to check"
        components[name] = {
            "background": background,
            "color": over(parse(found["color"]), background),
            "worst": min(texts),
        }
    return components


def assert_readable(components: dict[str, dict], mode: str) -> None:
    """Every component's least readable text reaches MIN_CONTRAST."""
    failures = [
        f"{name}: {element} {text!r} is {color} on rgb{tuple(round(v) for v in bg[:3])}, "
        f"contrast {ratio:.2f}"
        for name, found in components.items()
        for ratio, element, text, color, bg in [found["worst"]]
        if ratio < MIN_CONTRAST
    ]
    assert not failures, f"text below {MIN_CONTRAST}:1 in {mode} mode: {failures}"


def mode_of(page: Page) -> tuple[str | None, str | None]:
    """The colour mode chosen (auto, light, dark) and the one shown (light, dark)."""
    data = page.evaluate("() => ({...document.documentElement.dataset})")
    return data.get("mode"), data.get("theme")


def test_theme_switch_darkens_every_component(page_at):
    """The switch cycles auto → light → dark; in dark every component changes both
    its background and its text colour, text stays readable, and the choice
    survives a reload."""
    page = page_at(1440, scheme="light")
    assert mode_of(page) == ("auto", "light"), "a first visit follows the (light) system"
    light = read_components(page)
    assert_readable(light, "light")

    steps = []
    while mode_of(page)[1] != "dark" and len(steps) < 3:
        page.click(".pb-theme-switch")
        steps.append(mode_of(page))
    assert steps == [("light", "light"), ("dark", "dark")], (
        f"clicking the switch should go auto → light → dark; it went {steps}"
    )
    dark = read_components(page)
    unchanged = [
        f"{name} ({part} stays rgb{tuple(round(v) for v in light[name][part][:3])})"
        for name in COMPONENTS
        for part in ("background", "color")
        if light[name][part] == dark[name][part]
    ]
    assert not unchanged, f"in dark mode these colours do not change: {unchanged}"
    assert_readable(dark, "dark")

    page.reload()
    assert mode_of(page) == ("dark", "dark"), "the chosen mode should survive a reload"


@pytest.mark.parametrize("javascript", [False, True], ids=["no-js", "js"])
def test_dark_system_preference_is_followed(page_at, javascript):
    """A reader whose system is dark gets a dark page on first visit, also without
    JavaScript (the tokens use light-dark(), not a script), with readable text."""
    page = page_at(1440, scheme="dark", javascript=javascript)
    components = read_components(page)
    light_boxes = [
        f"{name} background rgb{tuple(round(v) for v in found['background'][:3])}"
        for name, found in components.items()
        if luminance(found["background"]) > 0.1
    ]
    assert not light_boxes, f"with a dark system these stay light: {light_boxes}"
    dark_text = [
        name
        for name, found in components.items()
        if luminance(found["color"]) <= luminance(found["background"])
    ]
    assert not dark_text, f"with a dark system these have dark text on dark: {dark_text}"
    assert_readable(components, "system dark" + ("" if javascript else " without JS"))
