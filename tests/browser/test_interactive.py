"""Interactive figures as a reader gets them: drawn, loaded once, lazily, without shifts.

tests/roots/test-interactive (with its Plotly exports written at test time) is built
with html and dirhtml into the served site directory, and served by a server of
this module that counts what each file costs the network. That server sends
``Cache-Control: max-age=600``, as GitHub Pages does: without any caching header a
browser would revalidate a shared file from each frame, whatever the site does.
"""

from __future__ import annotations

import collections
import functools
import http.server
import importlib.util
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import build

from .conftest import ACTION_TIMEOUT_MS, ROOTS, SUB_PATH, _SubPathHandler
from .test_loading import LAYOUT_SHIFT

pytestmark = pytest.mark.browser

#: The site as each builder writes it: (directory under the site, path of a page).
BUILDS = {"html": "interactive/", "dirhtml": "interactive-dirhtml/"}
PAGES = {
    "html": {"index": "index.html", "sandbox": "sandbox.html"},
    "dirhtml": {"index": "", "sandbox": "sandbox/"},
}
IFRAME_FIGURES = ("fig-bar", "fig-scatter", "fig-snippet")
PLOTLY_FIGURES = ("fig-bar", "fig-scatter", "fig-fragment")
ALL_FIGURES = ("fig-bar", "fig-scatter", "fig-fragment", "fig-snippet")


class _CountingHandler(_SubPathHandler):
    """The sub-path server, counting responses by (file name, status)."""

    counts: collections.Counter

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def log_request(self, code: object = "-", size: object = "-") -> None:
        name = urlsplit(self.path).path.rstrip("/").rsplit("/", 1)[-1]
        self.counts[(name, int(getattr(code, "value", code)))] += 1


@pytest.fixture(scope="module")
def interactive_site(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The root built with html and dirhtml into the served site directory."""
    source = tmp_path_factory.mktemp("interactive-source") / "src"
    shutil.copytree(ROOTS / "test-interactive", source)
    spec = importlib.util.spec_from_file_location("exports", source / "generate_exports.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write_exports(source / "figures")
    for builder, directory in BUILDS.items():
        out = site_dir / directory
        doctrees = str(out / ".doctrees")
        build(source, out, builder, "-d", doctrees)
    return site_dir


@pytest.fixture(scope="module")
def counting_server(interactive_site: Path) -> Iterator[tuple[str, collections.Counter]]:
    """(base URL ending in the sub-path, response counter) for the built site."""
    counts: collections.Counter = collections.Counter()
    handler = functools.partial(
        type("Handler", (_CountingHandler,), {"counts": counts}), directory=str(interactive_site)
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH}", counts
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def open_page(browser, counting_server):
    """Open a page of the built root in a fresh context (an empty cache), counting responses.

    ``open_page(builder, name, width, javascript=True)`` returns (page, requested URLs,
    response counts since the page was opened).
    """
    base, counts = counting_server
    contexts = []

    def open_one(builder: str, name: str, width: int, *, javascript: bool = True):
        context = browser.new_context(
            viewport={"width": width, "height": 900}, java_script_enabled=javascript
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        counts.clear()
        page.goto(base + BUILDS[builder] + PAGES[builder][name], wait_until="networkidle")
        return page, requests, counts

    yield open_one
    for context in contexts:
        context.close()


#: For each figure: the drawn plot's box and the box reserved for it, in page pixels,
#: and how many data marks (bars, points, the snippet's rectangles) it drew.
DRAWN = """(id) => {
  const MARKS = ".barlayer .point, .scatterlayer .point, [data-pb-box] > svg rect";
  const figure = document.getElementById(id);
  const box = figure.querySelector(".pb-interactive__frame").getBoundingClientRect();
  const iframe = figure.querySelector("iframe");
  const root = iframe ? iframe.contentDocument : figure;
  if (!root) return null;
  const plot = root.querySelector(".plotly-graph-div .main-svg, [data-pb-box] > svg");
  if (!plot) return null;
  const drawn = plot.getBoundingClientRect();
  const offset = iframe ? box : {x: 0, y: 0};
  return {
    frame: [box.x, box.y, box.width, box.height].map(Math.round),
    plot: [drawn.x + offset.x, drawn.y + offset.y, drawn.width, drawn.height].map(Math.round),
    marks: root.querySelectorAll(MARKS).length,
  };
}"""


def wait_drawn(page, figure_id: str) -> dict:
    page.locator(f"#{figure_id}").scroll_into_view_if_needed()
    page.wait_for_function(f"({DRAWN})({figure_id!r}) !== null", timeout=15_000)
    page.wait_for_timeout(200)  # the resize to the frame runs on the frame's load
    return page.evaluate(DRAWN, figure_id)


def same_box(a: list[int], b: list[int]) -> bool:
    return all(abs(x - y) <= 1 for x, y in zip(a, b, strict=True))


def frames_requested(counts: collections.Counter) -> set[str]:
    """The figure frames requested so far, by export name (without their hash)."""
    pages = {"index.html", "sandbox.html"}
    return {name.rsplit("-", 1)[0] for name, _ in counts if name.endswith(".html")} - pages


@pytest.mark.parametrize("builder", BUILDS)
def test_a_reader_scrolling_through_the_figures(open_page, counting_server, builder):
    """A reader at 1440 px scrolls from the top to the bottom. One page load checks it
    all (a load of this page draws Plotly figures, the costliest thing the suite asks
    of Chromium): no frame is requested before it nears the viewport, nothing shifts,
    every figure is drawn at the size of its frame, plotly.js is downloaded once and
    nothing comes from another origin. Then a sandboxed figure draws too."""
    page, requests, counts = open_page(builder, "index", 1440)
    assert page.evaluate("typeof window.Plotly") == "undefined"  # not in the article page
    # Figures 1 and 2 are on the first screens; 3 and 4 are 5000 px further down.
    assert frames_requested(counts) == {"bar_inlined", "scatter_cdn"}

    shift = page.evaluate(LAYOUT_SHIFT)  # scrolls to the bottom
    assert round(shift["total"], 2) == 0.0, shift["shifts"]

    marks = {"fig-bar": 6, "fig-scatter": 6, "fig-fragment": 6, "fig-snippet": 2}
    for figure_id in ALL_FIGURES:
        drawn = wait_drawn(page, figure_id)
        assert drawn["marks"] == marks[figure_id], figure_id
        # Fixed-size plots are resized to the frame (Plotly.relayout), not cropped.
        assert same_box(drawn["plot"], drawn["frame"]), (figure_id, drawn)
    assert {"scatter_fragment", "snippet"} <= frames_requested(counts)

    origin = urlsplit(counting_server[0]).netloc
    elsewhere = [url for url in requests if urlsplit(url).netloc != origin]
    assert elsewhere == []
    # plotly.js itself once (its stylesheets, plotly-styles-*.css, are small files the
    # article links with Sphinx's ?v= and the frames without: one request each).
    plotly = {
        key: n
        for key, n in counts.items()
        if key[0].startswith("plotly-") and key[0].endswith(".js")
    }
    assert list(plotly.values()) == [1] and next(iter(plotly))[1] == 200, plotly
    failed = {key: n for key, n in counts.items() if key[1] >= 400 and key[0] != "favicon.ico"}
    assert failed == {}
    with_plotly = [f.url for f in page.frames if f.evaluate("typeof window.Plotly") == "object"]
    # The two framed Plotly figures, and the page once its inline figure was injected.
    assert len(with_plotly) == 3, with_plotly

    # A sandboxed frame is another origin: the page cannot look in, Playwright can.
    page, _, _ = open_page(builder, "sandbox", 1440)
    page.locator("#fig-sandbox").scroll_into_view_if_needed()
    frame = page.frame_locator("#fig-sandbox iframe")
    expect_bars = frame.locator(".barlayer .point")
    expect_bars.first.wait_for()
    assert expect_bars.count() == 3


def test_scrolling_through_every_figure_on_a_phone_shifts_nothing(open_page):
    page, _, _ = open_page("html", "index", 390)
    result = page.evaluate(LAYOUT_SHIFT)
    assert round(result["total"], 2) == 0.0, result["shifts"]


def test_without_javascript_every_figure_shows_its_fallback(open_page):
    page, _, _ = open_page("html", "index", 1440, javascript=False)
    for figure_id in ALL_FIGURES:
        figure = page.locator(f"#{figure_id}")
        assert figure.locator(".pb-interactive__fallback").is_visible(), figure_id
        assert not figure.locator(".pb-interactive__frame").is_visible(), figure_id
        assert not figure.locator(".pb-interactive__open").is_visible(), figure_id
    for figure_id in ("fig-bar", "fig-scatter"):
        image = page.locator(f"#{figure_id} .pb-interactive__fallback img")
        image.scroll_into_view_if_needed()
        page.wait_for_function(
            f"document.querySelector('#{figure_id} .pb-interactive__fallback img').complete"
        )
        assert image.evaluate("img => img.naturalWidth") > 0
    alt = page.locator("#fig-snippet .pb-interactive__alt")
    assert alt.inner_text() == "Two blue bars, the left one taller."


def test_phones_get_the_image_the_scaled_frame_or_a_sideways_scroll(open_page):
    page, _, counts = open_page("html", "index", 390)
    bar = page.locator("#fig-bar")
    assert bar.locator(".pb-interactive__fallback img").is_visible()
    assert bar.locator(".pb-interactive__open").is_visible()
    assert not bar.locator("iframe").is_visible()
    assert not [name for name, _ in counts if name.startswith("bar_inlined-")]  # never loaded
    scatter = wait_drawn(page, "fig-scatter")  # :narrow: scale
    column = page.evaluate("document.querySelector('#fig-scatter').getBoundingClientRect().width")
    assert scatter["frame"][2] == round(column)
    assert abs(scatter["frame"][2] / scatter["frame"][3] - 4 / 3) < 0.02
    page, _, _ = open_page("html", "sandbox", 390)
    scroller = page.locator("#fig-sandbox .pb-interactive__scroll")
    sizes = scroller.evaluate("s => [s.scrollWidth, s.clientWidth]")
    assert sizes[0] == 640 and sizes[1] < 390  # :narrow: scroll keeps the export's width


def test_page_css_cannot_break_a_framed_figure(open_page):
    page, _, _ = open_page("html", "index", 1440)
    page.add_style_tag(content="svg { display: none !important; }")
    for figure_id in IFRAME_FIGURES:
        drawn = wait_drawn(page, figure_id)
        assert drawn["plot"][2] > 200 and drawn["plot"][3] > 100, figure_id


def test_print_shows_the_fallbacks_instead_of_the_frames(open_page):
    page, _, _ = open_page("html", "index", 1440)
    page.emulate_media(media="print")
    for figure_id in ALL_FIGURES:
        figure = page.locator(f"#{figure_id}")
        assert figure.locator(".pb-interactive__fallback").is_visible(), figure_id
        assert not figure.locator(".pb-interactive__frame").is_visible(), figure_id
