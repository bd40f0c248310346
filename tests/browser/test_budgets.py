"""The deterministic budgets of the benchmark (issues 6 and 44), checked on the docs site.

Timings are the benchmark's business (benchmarks/run.py); what can be counted
exactly is tested here, on the project's own documentation as a reader gets it:
the bytes of CSS, JavaScript and fonts an article loads (gzip, against plain
pydata-sphinx-theme's page built from the same source, and at most 18 KB for an
article without math), no script that blocks rendering but the tiny colour-mode
one, no request to another origin, no layout shift while the page loads and is
scrolled, and nothing wider than a 390 px phone on any page.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import build, soup

from .conftest import DOCS
from .test_loading import LAYOUT_SHIFT, MAX_CLS

pytestmark = pytest.mark.browser

#: The issue's ceiling for an article's CSS + JS + fonts, gzip (Distill's template
#: ships about this much render-blocking code).
MAX_WEIGHT_GZIP = 120 * 1024
#: Issue 44's ceiling for an article without math or sphinx-design: our stylesheets
#: and scripts, Sphinx's, the page's own stylesheet (21.6 KB before, 17.3 KB now).
MAX_PLAIN_ARTICLE_GZIP = 18 * 1024
#: Articles of the docs with neither math nor sphinx-design's components.
PLAIN_ARTICLES = ("directives.html", "citations.html")
#: The one script in <head>: the colour mode before first paint (theme/assets.py).
MODE_SCRIPT = "_static/scripts/sphinx-playbook-mode.js"
#: Its size: it blocks the first paint, so it stays tiny.
MAX_MODE_SCRIPT = 1024
#: What the reader's browser downloads and gzip shrinks; images are content.
WEIGHED = ("stylesheet", "script", "font")
#: Articles of the docs: the front page, a page of figures, wide images and side-by-side
#: code, and one with citations and footnote cards.
ARTICLES = ("index.html", "directives.html", "citations.html", "math.html")
#: Every page of the docs: one per source file, plus Sphinx's own pages.
SOURCES = sorted(source for source in DOCS.iterdir() if source.suffix in (".md", ".rst"))
ALL_PAGES = [*(f"{source.stem}.html" for source in SOURCES), "genindex.html", "search.html"]
PHONE = 390

#: Elements whose box leaves the viewport and is not clipped by a scrolling or
#: clipping ancestor (a code block scrolls inside its column: that is allowed).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const clippedByAncestor = (element) => {
    for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  const wide = [];
  for (const element of document.body.querySelectorAll("*")) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (getComputedStyle(element).visibility === "hidden") continue;
    if (box.left >= -0.5 && box.right <= width + 0.5) continue;
    if (clippedByAncestor(element)) continue;
    wide.push(`${element.tagName.toLowerCase()}.${[...element.classList].join(".")}`
      + ` [${Math.round(box.left)}, ${Math.round(box.right)}]`);
  }
  return {width, scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 10)};
}"""


@pytest.fixture(scope="module")
def pydata_docs(site_dir: Path, docs_site: str) -> str:
    """docs/ built with plain pydata-sphinx-theme, served beside ours at ``docs-pydata/``.

    The extension stays on (the pages use its directives and roles); only the theme
    changes (pydata warns about our ``toc_title`` option and ignores it).
    """
    out = site_dir / "docs-pydata"
    # A child process: in the one running the tests, our theme's templates from
    # the docs build would leak into this one through Jinja's shared state.
    build(DOCS, out, "html", "-D", "html_theme=pydata_sphinx_theme")
    return "docs-pydata/"


def _weigh(page, site_url: str, site_dir: Path, path: str) -> tuple[int, list[str], list[str]]:
    """Gzip bytes of the CSS, JS and fonts ``path`` loads once scrolled to its end (read
    from the served files), those files, and the URLs it asked another origin for
    (refused: the tests run offline)."""
    origin = urlsplit(site_url).netloc
    loaded: list[str] = []
    elsewhere: list[str] = []

    def route(route_request) -> None:
        url = route_request.request.url
        if urlsplit(url).netloc == origin:
            route_request.continue_()
        else:
            elsewhere.append(url)
            route_request.abort()

    page.route("**/*", route)
    page.on(
        "requestfinished",
        lambda request: loaded.append(request.url) if request.resource_type in WEIGHED else None,
    )
    page.goto(site_url + path, wait_until="networkidle")
    page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_load_state("networkidle")
    sub_path = urlsplit(site_url).path
    files = sorted({urlsplit(url).path.removeprefix(sub_path) for url in loaded})
    total = sum(len(gzip.compress((site_dir / name).read_bytes(), 6)) for name in files)
    return total, files, elsewhere


@pytest.mark.parametrize("article", ARTICLES)
def test_article_weighs_less_than_pydata_and_the_budget(
    page_at, site_url, site_dir, docs_site, pydata_docs, article
):
    """CSS + JS + fonts, gzip: at most plain pydata-sphinx-theme's page from the same
    source, and at most MAX_WEIGHT_GZIP."""
    ours, our_files, elsewhere = _weigh(
        page_at(1440, path=None), site_url, site_dir, docs_site + article
    )
    theirs, their_files, _ = _weigh(
        page_at(1440, path=None), site_url, site_dir, pydata_docs + article
    )
    assert not elsewhere, f"{article} asks another origin for {elsewhere}"
    assert our_files, f"{article} loads no CSS at all: the measurement is broken"
    assert ours <= theirs, (
        f"{article}: {ours} B gzip ({our_files}) > pydata-sphinx-theme's {theirs} B ({their_files})"
    )
    assert ours <= MAX_WEIGHT_GZIP, f"{article}: {ours} B gzip > {MAX_WEIGHT_GZIP} B: {our_files}"


@pytest.mark.parametrize("article", PLAIN_ARTICLES)
def test_plain_article_weighs_at_most_18_kb(page_at, site_url, site_dir, docs_site, article):
    """Without math or sphinx-design: at most MAX_PLAIN_ARTICLE_GZIP, every file
    counted (the print stylesheet and the page's own are fetched on screen too)."""
    ours, files, _ = _weigh(page_at(1440, path=None), site_url, site_dir, docs_site + article)
    assert any(f.endswith("sphinx-playbook.css") for f in files), files
    assert not [f for f in files if "katex" in f or "sphinx-design" in f], files
    assert ours <= MAX_PLAIN_ARTICLE_GZIP, f"{article}: {ours} B gzip: {files}"


def test_no_script_in_head_blocks_rendering_but_the_tiny_mode_script(site_dir, docs_site):
    """Every page's external scripts in <head> are deferred, async or modules, but
    the colour-mode script, which must run before the first paint (no flash): it is
    the only one, and under MAX_MODE_SCRIPT bytes. No page has an inline script."""
    blocking = []
    for name in ALL_PAGES:
        page = soup(site_dir / docs_site / name)
        assert not page.find_all("script", src=False), f"{name}: an inline script"
        for script in page.head.find_all("script", src=True):
            if (
                not (script.has_attr("defer") or script.has_attr("async"))
                and script.get("type") != "module"
            ):
                blocking.append(script["src"].split("?")[0])
    assert set(blocking) == {MODE_SCRIPT}, f"render-blocking scripts in <head>: {blocking}"
    assert len(blocking) == len(ALL_PAGES), "once on every page"
    assert (site_dir / docs_site / MODE_SCRIPT).stat().st_size <= MAX_MODE_SCRIPT


@pytest.mark.parametrize("article", ARTICLES)
def test_browser_finds_no_render_blocking_script(page_at, docs_site, article):
    """Chromium's own verdict (renderBlockingStatus) on each script the article loads."""
    page = page_at(1440, path=docs_site + article)
    scripts = page.evaluate(
        """() => performance.getEntriesByType("resource")
            .filter((entry) => entry.initiatorType === "script")
            .map((entry) => [entry.name, entry.renderBlockingStatus])"""
    )
    assert scripts, f"{article} loads no script: nothing was checked"
    blocking = [name for name, status in scripts if status == "blocking"]
    assert [urlsplit(n).path.rsplit("/_static/", 1)[-1] for n in blocking] == [
        MODE_SCRIPT.removeprefix("_static/")
    ], f"{article}: render-blocking scripts {blocking}"


@pytest.mark.parametrize("name", ALL_PAGES)
def test_page_stays_on_its_origin_and_inside_a_phone(page_at, site_url, docs_site, name):
    """At 390 px, scrolled to the end (lazy images in): no request leaves the site's
    origin and no element is wider than the viewport or sticks out of it."""
    page = page_at(PHONE, path=None)
    origin = urlsplit(site_url).netloc
    elsewhere: list[str] = []
    page.on(
        "request",
        lambda request: (
            elsewhere.append(request.url)
            if not request.url.startswith("data:") and urlsplit(request.url).netloc != origin
            else None
        ),
    )
    page.goto(site_url + docs_site + name, wait_until="load")
    page.evaluate(
        """async () => {
          const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
          for (let y = 0; y <= document.documentElement.scrollHeight; y += innerHeight) {
            scrollTo(0, y);
            await frame();
          }
          scrollTo(0, 0);
        }"""
    )
    page.wait_for_load_state("networkidle")
    assert not elsewhere, f"{name} asks another origin for {elsewhere}"
    result = page.evaluate(OVERFLOW)
    assert result["width"] == PHONE
    assert result["scrollWidth"] <= PHONE, f"{name} scrolls sideways: {result}"
    assert not result["wide"], f"{name}: elements outside the {PHONE} px viewport: {result}"


@pytest.mark.parametrize("width", [1440, PHONE])
@pytest.mark.parametrize("article", ARTICLES)
def test_article_does_not_shift(page_at, docs_site, article, width):
    """Loading and scrolling through the whole article (images and wide images
    included) shifts the layout by at most MAX_CLS."""
    page = page_at(width, path=docs_site + article)
    result = page.evaluate(LAYOUT_SHIFT)
    assert result["total"] <= MAX_CLS, (
        f"{article}: cumulative layout shift {result['total']:.4f} at {width}px: {result['shifts']}"
    )
