"""Fixtures for the browser tests: built test roots, a loopback server, Chromium.

Each test root is built once per session and served by a plain HTTP server on
127.0.0.1 under ``/sub/path/``: every URL a page uses has to be relative for the
site to work there, so a hard-coded ``/_static/...`` shows up as a 404.
Pages are driven by Debian's Chromium headless shell through Playwright;
Playwright's own browser download is not available, and a missing browser fails
the run rather than skipping it, so a green run always means the pages were
really looked at.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import build
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

ROOTS = Path(__file__).parent.parent / "roots"
DOCS = Path(__file__).parent.parent.parent / "docs"
#: The test roots the browser tests read, each served at ``SUB_PATH + name``.
SITES = ("article-myst", "article-rst", "directives-myst", "citations")
#: The site lives below this path, never at the server's root.
SUB_PATH = "/sub/path/"
INDEX = "article-myst/index.html"

#: Debian's build of Chromium's headless shell: the same Blink, V8 and Skia as
#: /usr/bin/chromium, without the browser's user interface and services, which the
#: tests never see. It is what Playwright itself runs for headless Chromium, and it
#: takes about half the CPU (a new page: 0.07 core-seconds against 0.18).
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Playwright's wait for clicks, locators and navigation (its default is 30 s).
ACTION_TIMEOUT_MS = 10_000
#: Where a failed test leaves full-page screenshots of its pages (git-ignored).
SCREENSHOTS = Path(__file__).parent / "screenshots"
_FAILED = pytest.StashKey[bool]()


def _build(src: Path, out: Path) -> None:
    """A plain, quiet ``sphinx-build -b html src out``, as an author would run it (in a
    process of its own: tests/helpers.py)."""
    build(src, out)


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every root in SITES built to HTML once, side by side in one directory."""
    site = tmp_path_factory.mktemp("site")
    for name in SITES:
        _build(ROOTS / f"test-{name}", site / name)
    return site


@pytest.fixture(scope="session")
def docs_site(site_dir: Path) -> str:
    """The project's own docs/ built to HTML, served at ``SUB_PATH + "docs/"``.

    Built on first use only (it is the largest site), into the served directory;
    returns the path prefix to pass to ``page_at(path=...)``, e.g.
    ``docs_site + "index.html"``.
    """
    _build(DOCS, site_dir / "docs")
    return "docs/"


class _SubPathHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site directory under SUB_PATH only; anything else is a 404."""

    def translate_path(self, path: str) -> str:
        if not path.startswith(SUB_PATH):
            return str(Path(self.directory) / "outside-the-sub-path")  # never exists
        return super().translate_path("/" + path[len(SUB_PATH) :])

    def log_message(self, format: str, *args: object) -> None:
        """Keep the test output quiet; Playwright sees every response anyway."""


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """``http://127.0.0.1:<port>/sub/path/``, serving ``site_dir`` until the session ends."""
    handler = functools.partial(_SubPathHandler, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}{SUB_PATH}"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium headless shell, shared by the session."""
    if not CHROMIUM.is_file():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's Chromium "
            "headless shell (apt-get install chromium-headless-shell); they fail rather "
            "than skip without it.",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


PageFactory = Callable[..., Page]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> pytest.TestReport:
    """Note whether the test body failed, for page_at to take screenshots."""
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


@pytest.fixture(scope="session")
def _contexts(browser: Browser) -> Iterator[dict[tuple, BrowserContext]]:
    """Browser contexts by (width, height, scheme, javascript), shared by the session.

    A new context costs about a second of Chromium's time, a new page in an
    existing one a fraction of it; reusing them keeps the suite fast.
    """
    contexts: dict[tuple, BrowserContext] = {}
    yield contexts
    for context in contexts.values():
        context.close()


@pytest.fixture
def page_at(
    request: pytest.FixtureRequest, _contexts, browser: Browser, site_url: str
) -> Iterator[PageFactory]:
    """Open a page of the built site.

    ``page_at(width, scheme="light", javascript=True, path=INDEX, height=900)``
    loads ``path`` (relative to the sub-path) and returns the Page once it has
    fired ``load``; ``path=None`` returns a blank page, for tests that listen to
    the network before navigating. Pages close after the test, and their
    storage is cleared, so a colour mode one test chooses does not leak into
    the next test that shares the context. When the test failed, each page is
    first saved to SCREENSHOTS, to see what the measurements describe.
    """
    pages: list[Page] = []

    def open_page(
        width: int,
        scheme: str = "light",
        javascript: bool = True,
        *,
        path: str | None = INDEX,
        height: int = 900,
    ) -> Page:
        key = (width, height, scheme, javascript)
        if key not in _contexts:
            context = browser.new_context(
                viewport={"width": width, "height": height},
                color_scheme=scheme,
                java_script_enabled=javascript,
            )
            # A local page answers at once; fail a broken test in seconds, not 30.
            context.set_default_timeout(ACTION_TIMEOUT_MS)
            _contexts[key] = context
        page = _contexts[key].new_page()
        pages.append(page)
        if path is not None:
            page.goto(site_url + path, wait_until="load")
        return page

    yield open_page
    failed = request.node.stash.get(_FAILED, False)
    for number, page in enumerate(pages):
        if failed:
            name = re.sub(r"[^\w.-]+", "_", request.node.name).strip("_")
            page.screenshot(path=SCREENSHOTS / f"{name}-{number}.png", full_page=True)
        page.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch {} }")
        page.close()
