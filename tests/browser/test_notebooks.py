"""A notebook page as a reader gets it: Plotly outputs drawn when scrolled to, from
the site only, and their fallbacks without JavaScript.

tests/roots/test-notebooks (its outputs stored, no kernel) is built into the served
site under ``notebooks/``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import build

from .conftest import ROOTS

pytestmark = pytest.mark.browser

PAGE = "notebooks/article.html"
#: The drawn plot inside a figure's frame, or null while the frame has not drawn.
DRAWN = """(id) => {
  const frame = document.querySelector(`#${id} iframe`);
  const root = frame && frame.contentDocument;
  const plot = root && root.querySelector(".plotly-graph-div .main-svg");
  return plot ? root.querySelectorAll(".scatterlayer .trace, .barlayer .point").length : null;
}"""


@pytest.fixture(scope="module")
def notebook_site(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("notebooks-source") / "src"
    shutil.copytree(ROOTS / "test-notebooks", source)
    build(source, site_dir / "notebooks", "html", "-d", str(source / ".doctrees"))
    return site_dir


def _open(page_at, site_url: str, width: int, javascript: bool = True):
    page = page_at(width, javascript=javascript, path=None)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(site_url + PAGE, wait_until="networkidle")
    return page, requests


@pytest.mark.parametrize("width", [1440, 390])
def test_the_plotly_figure_draws_when_scrolled_to_from_the_site_only(
    notebook_site, page_at, site_url, width
):
    page, requests = _open(page_at, site_url, width)
    figure = page.locator("#fig-loss")
    if width == 1440:
        figure.scroll_into_view_if_needed()
        page.wait_for_function(f"({DRAWN})('fig-loss') > 0", timeout=15_000)
        assert not figure.locator(".pb-interactive__fallback").is_visible()
    else:
        # Phones get the output's own PNG, and the frame is never fetched.
        figure.scroll_into_view_if_needed()
        assert figure.locator(".pb-interactive__fallback img").is_visible()
        assert not figure.locator("iframe").is_visible()
    # The last figure (plotly's text/html, which loaded plotly.js from a CDN).
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(300)
    if width == 1440:
        last = page.locator("figure.pb-interactive").nth(2)
        last.scroll_into_view_if_needed()
        page.wait_for_function(
            """() => { const f = document.querySelectorAll('figure.pb-interactive iframe')[2];
              const d = f && f.contentDocument;
              return !!(d && d.querySelector('.plotly-graph-div .main-svg')); }""",
            timeout=15_000,
        )
    origin = urlsplit(site_url).netloc
    assert [url for url in requests if urlsplit(url).netloc != origin] == []
    plotly = [
        url for url in requests if "/_static/interactive/plotly-" in url and url.endswith(".js")
    ]
    # One plotly.js for the page's three figures (each frame asks for the same file;
    # tests/browser/test_interactive.py checks that a caching server sends it once).
    assert len(set(plotly)) == (1 if width == 1440 else 0), plotly


def test_without_javascript_the_fallbacks_show(notebook_site, page_at, site_url):
    page, requests = _open(page_at, site_url, 1440, javascript=False)
    figure = page.locator("#fig-loss")
    image = figure.locator(".pb-interactive__fallback img")
    image.scroll_into_view_if_needed()
    assert image.is_visible() and not figure.locator(".pb-interactive__frame").is_visible()
    page.wait_for_function(
        "document.querySelector('#fig-loss .pb-interactive__fallback img').complete"
    )
    assert image.evaluate("img => img.naturalWidth") > 0
    bar = page.locator("figure.pb-interactive").nth(1)
    assert bar.locator(".pb-interactive__alt").is_visible()
    # Hidden input is a native disclosure: it opens without script.
    details = page.locator(".cell details.hide").first
    code = details.locator("pre")
    assert not code.is_visible()
    # Closed, its label sits in the middle of the box (myst-nb's stylesheet takes the
    # bottom padding off an admonition, ours puts it back).
    space = details.evaluate(
        """d => { const box = d.getBoundingClientRect();
                  const label = d.querySelector("summary").getBoundingClientRect();
                  return [label.top - box.top, box.bottom - label.bottom]; }"""
    )
    assert space[0] > 8 and abs(space[0] - space[1]) < 1, space
    details.locator("summary").click()
    assert code.is_visible()
    assert not [
        url for url in requests if "/_static/interactive/plotly-" in url and url.endswith(".js")
    ]


#: The number of marks vega-embed drew in a chart's frame, or null before it drew.
VEGA_DRAWN = """(id) => {
  const frame = document.querySelector(`#${id} iframe`);
  const root = frame && frame.contentDocument;
  const chart = root && root.querySelector(".pb-vega svg, .pb-vega canvas");
  const marks = ".pb-vega .mark-line path, .pb-vega .mark-symbol path";
  return chart ? root.querySelectorAll(marks).length : null;
}"""


def test_the_vegalite_chart_draws_when_scrolled_to_from_the_site_only(
    notebook_site, page_at, site_url
):
    page = page_at(1440, path=None)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(site_url + "notebooks/charts.html", wait_until="networkidle")
    figure = page.locator("#fig-vl")
    figure.scroll_into_view_if_needed()
    page.wait_for_function(f"({VEGA_DRAWN})('fig-vl') > 0", timeout=15_000)
    assert not figure.locator(".pb-interactive__fallback").is_visible()
    # The chart fits the box reserved for it: the page did not move when it drew.
    box = figure.locator(".pb-interactive__frame").bounding_box()
    chart = page.frame_locator("#fig-vl iframe").locator(".pb-vega svg").bounding_box()
    assert box is not None and chart is not None and chart["height"] <= box["height"] + 1
    origin = urlsplit(site_url).netloc
    assert [url for url in requests if urlsplit(url).netloc != origin] == []
    bundles = {url for url in requests if "/_static/interactive/vega-bundle-" in url}
    assert len(bundles) == 1, bundles


#: Whether BokehJS drew the plot in a figure's frame (its canvas is in nested shadow roots).
BOKEH_DRAWN = """(id) => {
  const frame = document.querySelector(`#${id} iframe`);
  const root = frame && frame.contentDocument;
  const box = root && root.querySelector(".pb-bokeh");
  const drawn = (node) => [...node.querySelectorAll("*")].some(
    (e) => (e.tagName === "CANVAS" && e.width > 0) || (e.shadowRoot && drawn(e.shadowRoot)));
  return !!box && drawn(box);
}"""


def test_the_bokeh_plot_draws_when_scrolled_to_from_the_site_only(notebook_site, page_at, site_url):
    page = page_at(1440, path=None)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(site_url + "notebooks/charts.html", wait_until="networkidle")
    page.locator("#fig-bokeh").scroll_into_view_if_needed()
    page.wait_for_function(f"({BOKEH_DRAWN})('fig-bokeh')", timeout=15_000)
    origin = urlsplit(site_url).netloc
    assert [url for url in requests if urlsplit(url).netloc != origin] == []
    assert len({url for url in requests if "/_static/interactive/bokeh-" in url}) == 1


#: The chart's title colour and background in a figure's frame, once it drew.
VEGA_COLOURS = """(id) => {
  const frame = document.querySelector(`#${id} iframe`);
  const root = frame && frame.contentDocument;
  const title = root && root.querySelector(".pb-vega .role-title-text text");
  if (!title) return null;
  const svg = root.querySelector(".pb-vega svg");
  return { title: getComputedStyle(title).fill, background: svg.style.backgroundColor,
           scheme: getComputedStyle(root.documentElement).colorScheme };
}"""


def _luminance(colour: str) -> float:
    red, green, blue = (int(part) for part in colour[colour.index("(") + 1 :].split(",")[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_the_vegalite_chart_follows_the_dark_mode(notebook_site, page_at, site_url):
    page = page_at(1440, scheme="dark", path="notebooks/charts.html")
    page.locator("#fig-vl").scroll_into_view_if_needed()
    page.wait_for_function(f"({VEGA_DRAWN})('fig-vl') > 0", timeout=15_000)
    page.wait_for_function(
        f"(({VEGA_COLOURS})('fig-vl') || {{}}).scheme === 'dark'", timeout=15_000
    )
    colours = page.evaluate(f"({VEGA_COLOURS})('fig-vl')")
    # Light text on the page's own background, not vega's white one.
    assert _luminance(colours["title"]) > 150, colours
    assert colours["background"] == "transparent", colours
