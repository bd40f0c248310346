"""At a phone's width, an <img> written in raw HTML stays on the screen and moves
nothing as it arrives (sphinx_playbook/raw_images.py)."""

from __future__ import annotations

import functools
import http.server
import threading
import time
from collections.abc import Iterator

import pytest
from helpers import sphinx_build
from playwright.sync_api import Browser
from test_raw_images import make_book

pytestmark = pytest.mark.browser

#: Layout shifts from navigation on, as Chromium reports them to the page.
SHIFTS = """window.__shifts = [];
new PerformanceObserver((list) => { for (const e of list.getEntries())
  if (!e.hadRecentInput) window.__shifts.push(e.value); })
  .observe({type: "layout-shift", buffered: true});"""


class _SlowImages(http.server.SimpleHTTPRequestHandler):
    """Images arrive after the page is drawn, as they do on a phone's network."""

    def do_GET(self) -> None:
        if self.path.split("?")[0].endswith((".png", ".webp", ".avif")):
            time.sleep(0.6)
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def raw_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = make_book(tmp_path_factory.mktemp("raw-images") / "src")
    outdir = root.parent / "html"
    sphinx_build("-q", "-b", "html", str(root), str(outdir))
    handler = functools.partial(_SlowImages, directory=str(outdir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _open(browser: Browser, url: str, width: int):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.add_init_script(SHIFTS)
    page.goto(url + "index.html", wait_until="domcontentloaded")
    page.wait_for_function(
        "['Wide', 'Published'].every(a => document.querySelector(`img[alt='${a}']`).complete)"
    )
    return context, page


@pytest.mark.parametrize("width", [390, 1440])
def test_a_raw_image_is_no_wider_than_the_screen(
    browser: Browser, raw_site: str, width: int
) -> None:
    context, page = _open(browser, raw_site, width)
    try:
        screen = page.evaluate("document.documentElement.clientWidth")
        for alt in ("Wide", "Published"):
            box = page.get_by_alt_text(alt, exact=True).bounding_box()
            assert box is not None and box["width"] > 0
            assert box["x"] >= 0 and box["x"] + box["width"] <= screen, (alt, box, screen)
        assert page.evaluate("document.documentElement.scrollWidth") <= screen
    finally:
        context.close()


def test_a_raw_image_arriving_late_moves_nothing(browser: Browser, raw_site: str) -> None:
    context, page = _open(browser, raw_site, 390)
    try:
        page.wait_for_timeout(100)  # let the last frame's shifts be reported
        assert page.evaluate("window.__shifts") == []
    finally:
        context.close()
