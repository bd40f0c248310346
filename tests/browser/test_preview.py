"""``sphinx-playbook preview`` in a browser (issue 41): a real preview process on a free
port, a small book with ``html_baseurl``, and Chromium looking at it.

An edit to a chapter shows on the open page without a reload by hand, at the same
scroll position; a build that fails shows a banner on the page, and the next good
build removes it; the book is served under the sub-path of ``html_baseurl`` only.
The process group is killed whatever happens.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import CONF, write_project
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

#: Generous: the first build and each rebuild run on a machine shared by the suite.
START_S = 240
REBUILD_MS = 90_000
BANNER = "#playbook-preview-build-failed"
BASEURL = "https://example.github.io/my-book/"
#: With the strict policy asked for: the preview must still reload its pages.
CONF_TEXT = (
    CONF + f'html_baseurl = "{BASEURL}"\nexclude_patterns = ["_build"]\nplaybook_csp = True\n'
)

#: A chapter long enough to scroll; MARKER is the text the edits change.
PARAGRAPHS = "\n\n".join(f"Paragraph {n} of the first chapter, to scroll past." for n in range(60))
CHAPTER = (
    "# Chapter one\n\nThe marker says {marker}.\n\n" + PARAGRAPHS + "\n\nThe end says {marker}.\n"
)


@dataclass
class Running:
    url: str
    book: Path
    log: Path


def _chapter(marker: str) -> str:
    return CHAPTER.format(marker=marker)


@contextmanager
def _running(book: Path, log: Path) -> Iterator[str]:
    """``sphinx-playbook preview BOOK --port 0`` until the block ends; yields its URL.
    The whole process group is killed on the way out, whatever happened."""
    command = [
        sys.executable,
        "-c",
        "import sys; from sphinx_playbook.cli import main; sys.exit(main())",
        "preview",
        str(book),
        "--port",
        "0",
    ]
    with log.open("w") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + START_S
        while not (found := re.search(r"serving (http://[^\s;]+)", log.read_text())):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the preview did not start:\n{log.read_text()}", pytrace=False)
            time.sleep(0.2)
        yield found.group(1)
    finally:
        for sent in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sent)
            except ProcessLookupError:
                break
            try:
                process.wait(10)
                break
            except subprocess.TimeoutExpired:
                continue


@pytest.fixture(scope="module")
def preview(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A small book with html_baseurl, previewed until the module ends."""
    folder = tmp_path_factory.mktemp("preview")
    book = write_project(
        folder / "book",
        {
            "index.md": "---\ntitle: A previewed book\n---\n# A previewed book\n\n"
            "Start here.\n\n```{toctree}\nch1\n```\n",
            "ch1.md": _chapter("first"),
        },
        conf=CONF_TEXT,
    )
    log = folder / "preview.log"
    with _running(book, log) as url:
        yield Running(url=url, book=book, log=log)


@pytest.fixture
def page(browser: Browser, preview: Running) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(REBUILD_MS)
    yield context.new_page()
    context.close()


def _marker_shown(page: Page, marker: str) -> None:
    page.wait_for_function(
        "marker => document.body && document.body.innerText.includes(marker)",
        arg=f"The marker says {marker}.",
        timeout=REBUILD_MS,
    )


def test_an_edit_shows_without_a_reload_at_the_same_place(page: Page, preview: Running) -> None:
    page.goto(preview.url + "ch1.html", wait_until="load")
    _marker_shown(page, "first")
    page.evaluate("() => window.scrollTo(0, 1200)")
    page.wait_for_function("() => window.scrollY > 1100")
    before = page.evaluate("() => window.scrollY")
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))

    (preview.book / "ch1.md").write_text(_chapter("second"), encoding="utf-8")
    _marker_shown(page, "second")
    # The page the reader had open is the page shown, reloaded by the preview itself,
    # and the browser put the reader back where they were.
    page.wait_for_load_state("load")
    page.wait_for_function("y => Math.abs(window.scrollY - y) < 5", arg=before)
    assert loads and loads[-1] == preview.url + "ch1.html"
    (preview.book / "ch1.md").write_text(_chapter("first"), encoding="utf-8")
    _marker_shown(page, "first")


def test_each_rebuild_is_incremental_and_prints_its_warnings_located(
    page: Page, preview: Running
) -> None:
    page.goto(preview.url + "ch1.html", wait_until="load")
    chapter = preview.book / "ch1.md"
    broken = _chapter("third") + "\nSee {doc}`a-page-that-is-not-there`.\n"
    chapter.write_text(broken, encoding="utf-8")
    try:
        _marker_shown(page, "third")
        line = broken.splitlines().index("See {doc}`a-page-that-is-not-there`.") + 1
        # Without the colours Sphinx writes where CI=true is set.
        log = re.sub(r"\x1b\[[0-9;]*m", "", preview.log.read_text(errors="replace"))
        # The warning, located, in the terminal; and only the edited page was read again.
        assert re.search(rf"ch1\.md:{line}: WARNING: unknown document", log), log[-3000:]
        assert "updating environment: 0 added, 1 changed, 0 removed" in log
    finally:
        chapter.write_text(_chapter("first"), encoding="utf-8")
    _marker_shown(page, "first")


def test_a_failed_build_shows_a_banner_until_the_next_good_build(
    page: Page, preview: Running
) -> None:
    page.goto(preview.url + "ch1.html", wait_until="load")
    assert page.locator(BANNER).count() == 0
    conf = preview.book / "conf.py"
    conf.write_text(CONF_TEXT + "extensions = [\n", encoding="utf-8")
    try:
        banner = page.locator(BANNER)
        expect(banner).to_be_visible(timeout=REBUILD_MS)
        expect(banner).to_contain_text("The last build failed")
        # Sphinx's own message, from its warning file.
        expect(banner).to_contain_text("syntax error")
        # The last good build stays readable under the banner.
        expect(page.locator("body")).to_contain_text("The marker says first.")
    finally:
        conf.write_text(CONF_TEXT, encoding="utf-8")
    page.wait_for_selector(BANNER, state="detached", timeout=REBUILD_MS)
    _marker_shown(page, "first")


def test_the_book_is_served_under_the_sub_path_of_html_baseurl(
    page: Page, preview: Running
) -> None:
    assert preview.url.endswith("/my-book/")
    response = page.goto(preview.url, wait_until="load")
    assert response is not None and response.status == 200
    assert page.title().startswith("A previewed book")
    # conf.py asks for the strict policy; the preview's pages leave it out, as it would
    # refuse sphinx-autobuild's reload script (the edit test sees that script work).
    assert page.locator('meta[http-equiv="Content-Security-Policy"]').count() == 0
    # Every stylesheet and script the page loads resolves under the sub-path.
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.reload(wait_until="networkidle")
    assert failed == []
    # The server's root leads to the book; a path outside the sub-path is a 404, as
    # it would be on the published site.
    root = preview.url.removesuffix("my-book/")
    page.goto(root, wait_until="load")
    assert page.url == preview.url
    with pytest.raises(urllib.error.HTTPError) as outside:
        urllib.request.urlopen(root + "ch1.html", timeout=30)
    assert outside.value.code == 404


def test_a_first_build_that_fails_shows_why_then_the_book_once_fixed(
    browser: Browser, tmp_path: Path
) -> None:
    book = write_project(
        tmp_path / "book", {"index.md": "# Fixed\n\nText.\n"}, conf=CONF + "x = [\n"
    )
    with _running(book, tmp_path / "preview.log") as url:
        context = browser.new_context()
        context.set_default_timeout(REBUILD_MS)
        page = context.new_page()
        response = page.goto(url, wait_until="load")
        assert response is not None and response.status == 404  # no page was ever built
        # The page refreshes itself: expect() retries across those navigations.
        expect(page.locator(BANNER)).to_contain_text("No good build wrote this page")
        (book / "conf.py").write_text(CONF, encoding="utf-8")
        page.wait_for_selector(BANNER, state="detached", timeout=REBUILD_MS)
        expect(page).to_have_title(re.compile("^Fixed"), timeout=REBUILD_MS)
        context.close()
