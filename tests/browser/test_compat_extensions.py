"""Extensions of the compatibility matrix doing their job in the browser, beside ours."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator

import pytest
from compat.matrix import MATRIX
from compat.test_extensions import build
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

ENTRIES = {entry.name: entry for entry in MATRIX}


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Playwright sees every response."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The copy-button and toggle books, built with ours listed first, on loopback."""
    site = tmp_path_factory.mktemp("compat-site")
    for name in ("sphinx_copybutton", "sphinx_togglebutton"):
        out = build(ENTRIES[name], site / f"{name}-build", ours_first=True)
        out.rename(site / name)
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


def open_page(browser: Browser, url: str, *, clipboard: bool = False) -> Page:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    if clipboard:
        context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("load")
    return page


def test_one_copy_button_per_block_copies_without_prompts(browser, served):
    page = open_page(browser, served + "sphinx_copybutton/sphinx_copybutton.html", clipboard=True)
    page.wait_for_selector("div.highlight .copybtn", state="attached")
    counts = page.eval_on_selector_all(
        ".pb-body div.highlight",
        "blocks => blocks.map(b => b.querySelectorAll('button.copybtn, button.pb-copy').length)",
    )
    assert counts and set(counts) == {1}, counts
    assert page.locator("button.pb-copy").count() == 0
    block = page.locator(".pb-body div.highlight").first
    block.hover()
    block.locator(".copybtn").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == "first = 1\nfirst + 1"
    page.context.close()


def test_toggles_open_on_click(browser, served):
    page = open_page(browser, served + "sphinx_togglebutton/sphinx_togglebutton.html")
    # The {toggle} directive: a <details> the extension draws, opened by its summary.
    answer = page.get_by_text("The hidden answer.")
    summary = page.locator("details.toggle-details summary")
    summary.wait_for()
    assert not answer.is_visible()
    summary.click()
    answer.wait_for(state="visible")
    # A dropdown admonition: the extension's button hides and shows it.
    shown = page.get_by_text("Shown on demand.")
    button = page.locator(".admonition.dropdown button.toggle-button")
    assert not shown.is_visible()
    box = button.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 16, box
    button.click()
    shown.wait_for(state="visible")
    page.context.close()
