"""Math in the browser: drawn with JavaScript off, from subset fonts, within its budget.

The corpus page holds every formula of tests/data/math/corpus.tex. Each font is
cut down to the glyphs the site draws with it; with KaTeX's full fonts swapped
in, Chromium must draw every piece of formula text with the same font and lay
out every formula in the same box, which proves no glyph was lost (a missing one
falls back to another font).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Route
from test_math import CORPUS, KATEX_FONTS, read_corpus

from .conftest import _build

pytestmark = pytest.mark.browser

CORPUS_PAGE = "math-corpus/index.html"
PLAIN_PAGE = "math-corpus/plain.html"
#: A paragraph of prose and inline formulas, whose lines wrap where the formulas end.
FLOW_PAGE = "math-corpus/flow.html"
#: Budget from the math issue: KaTeX's CSS and fonts for a page of ~250 formulas.
MATH_BUDGET_GZIP = 35 * 1024


@pytest.fixture(scope="module")
def corpus_site(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The formula corpus as a one-article site, plus a page with no math."""
    source = tmp_path_factory.mktemp("math-corpus")
    macros = json.loads((CORPUS / "macros.json").read_text(encoding="utf-8"))
    (source / "conf.py").write_text(
        'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
        f'project = "Math corpus"\nplaybook_math_macros = {macros!r}\n',
        encoding="utf-8",
    )
    blocks = ["# Formula corpus", ""]
    for number, (tex, display) in enumerate(read_corpus(), start=1):
        if display:
            blocks += [f"Display formula {number}:", "", "$$", tex, "$$", ""]
        else:
            blocks += [f"Inline formula {number}: ${tex}$ in a sentence.", ""]
    blocks += ["```{toctree}", ":hidden:", "", "plain", "flow", "```"]
    (source / "index.md").write_text("\n".join(blocks), encoding="utf-8")
    inline = [f"${tex}$" for tex, display in read_corpus() if not display][:60]
    flow = " and then ".join(inline)
    (source / "flow.md").write_text(
        f"# Prose with math\n\nA paragraph where {flow} wrap across lines.\n", encoding="utf-8"
    )
    (source / "plain.md").write_text("# No math\n\nJust words.\n", encoding="utf-8")
    _build(source, site_dir / "math-corpus")


def _record(page: Page) -> list:
    responses: list = []
    page.on("response", lambda response: responses.append(response))
    return responses


def _transfer_size(response) -> int:
    """Bytes on the wire from a server that compresses text: gzip for CSS, fonts as they are."""
    body = response.body()
    is_font = urlsplit(response.url).path.endswith(".woff2")
    return len(body) if is_font else len(gzip.compress(body, 6))


def test_math_costs_nothing_on_a_page_without_it(corpus_site, page_at, site_url):
    page = page_at(1440, path=None)
    responses = _record(page)
    page.goto(site_url + PLAIN_PAGE, wait_until="networkidle")
    assert [r.url for r in responses if "/katex/" in r.url] == []


def test_the_corpus_page_stays_within_the_math_budget(corpus_site, page_at, site_url):
    page = page_at(1440, javascript=False, path=None)
    responses = _record(page)
    page.goto(site_url + CORPUS_PAGE, wait_until="networkidle")
    page.evaluate("document.fonts.ready")
    math = [r for r in responses if "/_static/katex/" in r.url]
    assert any(urlsplit(r.url).path.endswith("/katex.css") for r in math)
    fonts = [r for r in math if urlsplit(r.url).path.endswith(".woff2")]
    assert len(fonts) >= 5, "the corpus draws with several KaTeX faces"
    total = sum(_transfer_size(r) for r in math)
    assert total <= MATH_BUDGET_GZIP, {r.url.rsplit("/", 1)[-1]: _transfer_size(r) for r in math}
    assert all(r.url.startswith(site_url) for r in responses), "nothing from another origin"


def _full_fonts(route: Route) -> None:
    """KaTeX's whole font (vendored as TrueType) in place of the site's subset."""
    name = route.request.url.rsplit("/", 1)[-1].removesuffix(".woff2")
    route.fulfill(body=(KATEX_FONTS / f"{name}.ttf").read_bytes(), content_type="font/ttf")


_MARK_DRAWN_TEXT = """() => {
    const drawn = [...document.querySelectorAll('.katex-html *')].filter(element =>
        [...element.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.data.trim()));
    drawn.forEach(element => element.setAttribute('data-drawn', ''));
    return drawn.length;
}"""
_FORMULA_BOXES = """() => [...document.querySelectorAll('.katex-html')].map(formula => {
    const box = formula.getBoundingClientRect();
    return [box.x, box.y, box.width, box.height].map(v => Math.round(v * 100) / 100);
})"""


def _how_formulas_draw(page: Page, url: str, full_fonts: bool) -> tuple[list, list]:
    """Which font draws each piece of formula text (Chromium's own answer), and the boxes.

    A glyph missing from a subset is drawn by a fallback font, which
    ``CSS.getPlatformFontsForNode`` names; a wrong advance width moves a box.
    """
    if full_fonts:
        page.route("**/_static/katex/fonts/*.woff2", _full_fonts)
    page.goto(url, wait_until="networkidle")
    page.evaluate("document.fonts.ready")
    assert page.evaluate(_MARK_DRAWN_TEXT) > 1000, "the corpus draws text in its formulas"
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-drawn]"})
    fonts = [
        sorted(
            (font["familyName"], font["isCustomFont"], font["glyphCount"])
            for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        )
        for node in nodes["nodeIds"]
    ]
    return fonts, page.evaluate(_FORMULA_BOXES)


def test_subset_fonts_draw_every_glyph_the_full_fonts_draw(corpus_site, page_at, site_url):
    """With JavaScript off, the build-time markup is the whole rendering.

    Not a pixel comparison: Chromium on Linux hints with FreeType's autohinter,
    which sets its alignment zones from reference letters of each font (o, x,
    H...), so a subset without them draws the same glyph up to a pixel apart.
    """
    subset_fonts, subset_boxes = _how_formulas_draw(
        page_at(1440, javascript=False, path=None), site_url + CORPUS_PAGE, False
    )
    full_fonts, full_boxes = _how_formulas_draw(
        page_at(1440, javascript=False, path=None), site_url + CORPUS_PAGE, True
    )
    families = {family for node in full_fonts for family, custom, _ in node if custom}
    assert len(families) >= 10, f"the corpus draws with most KaTeX families: {families}"
    changed = [
        (index, subset, full)
        for index, (subset, full) in enumerate(zip(subset_fonts, full_fonts, strict=True))
        if subset != full
    ]
    assert changed == [], "text drawn by another font than with KaTeX's full fonts"
    assert subset_boxes == full_boxes, "a formula's box moved with the subset fonts"


def test_display_math_sits_left_with_an_indent_and_never_overflows(corpus_site, page_at, site_url):
    page = page_at(1440, path=CORPUS_PAGE)
    offsets = page.evaluate(
        """() => [...document.querySelectorAll('.pb-math-display')].slice(0, 5).map(d => {
            const text = d.previousElementSibling.getBoundingClientRect().left;
            const formula = d.querySelector('.katex-display > .katex');
            const em = parseFloat(getComputedStyle(formula).fontSize);
            const drawn = formula.querySelector('.katex-html').getBoundingClientRect().left;
            return (drawn - text) / em;
        })"""
    )
    assert offsets and all(0.9 < offset < 1.1 for offset in offsets), offsets
    phone = page_at(390, path=CORPUS_PAGE)
    widths = phone.evaluate(
        """() => ({page: document.documentElement.scrollWidth,
                  wrappers: Math.max(...[...document.querySelectorAll('.math-wrapper')]
                                     .map(w => w.getBoundingClientRect().right))})"""
    )
    assert widths["page"] <= 390 and widths["wrappers"] <= 390, widths


@pytest.mark.parametrize("width", [1440, 390])
def test_every_font_a_page_draws_with_is_preloaded(corpus_site, page_at, site_url, width):
    """Prose with inline math does not wrap anew when KaTeX's fonts swap in, because
    each font the page draws with is requested by a preload in its head, before any
    text is laid out, not when the stylesheet's rule first applies. (The layout shift
    itself depends on timing and is measured by the benchmark, not here.)"""
    page = page_at(width, path=None, height=844)
    page.goto(site_url + FLOW_PAGE, wait_until="load")
    height = page.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height, 600):
        page.evaluate(f"window.scrollTo(0, {y})")
    page.evaluate("document.fonts.ready")
    fetched = page.evaluate(
        """() => performance.getEntriesByType('resource')
                 .filter(e => new URL(e.name).pathname.endsWith('.woff2'))
                 .map(e => [new URL(e.name).pathname, e.initiatorType])"""
    )
    preloaded = page.evaluate(
        """() => [...document.querySelectorAll('head link[rel=preload][as=font]')]
                 .map(link => new URL(link.href).pathname)"""
    )
    drawn = page.evaluate(
        "() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
    )
    assert any("KaTeX" in family for family in drawn), "the page draws with KaTeX's fonts"
    assert fetched, "the page fetched its fonts"
    assert {path for path, _ in fetched} <= set(preloaded), (fetched, preloaded)
    assert {initiator for _, initiator in fetched} == {"link"}, fetched
