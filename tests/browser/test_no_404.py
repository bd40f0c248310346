"""Pages load whole once pydata-sphinx-theme's static files are left out of the site.

The theme removes the files Sphinx copies from pydata-sphinx-theme's static
folder (no page of the theme links them); here a small project, written by the
html and dirhtml builders, is served and every page is loaded in Chromium:
no request may fail, and every script and stylesheet the browser fetches
carries Sphinx's ``?v=`` checksum, so it is never one cached from an older build.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from helpers import build, write_project
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
ROOT = """\
# Tiny Models

```{toctree}
second
```

:::{card} A card
sphinx-design's stylesheet and script load on this page.
:::
"""
SECOND = """\
Second page
===========

Quantisation shrinks a model.

.. code-block:: python

   print("hello")
"""
#: Each builder's pages, relative to the build's folder.
PAGES = {
    "html": ("index.html", "second.html", "genindex.html", "search.html?q=quantisation"),
    "dirhtml": ("", "second/", "genindex/", "search/?q=quantisation"),
}


@pytest.fixture(scope="module")
def shipped_sites(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The project built with each builder into the served folder; returns its prefix."""
    src = write_project(
        tmp_path_factory.mktemp("shipped-src"),
        {"index.md": ROOT, "second.rst": SECOND},
        conf=CONF,
    )
    for builder in PAGES:
        build(src, site_dir / "shipped" / builder, builder)
    return "shipped/"


@pytest.mark.parametrize(
    ("builder", "path"),
    [(builder, path) for builder, paths in PAGES.items() for path in paths],
)
def test_page_loads_without_a_failed_request(page_at, site_url, shipped_sites, builder, path):
    page = page_at(1440, path=None)
    failures: list[str] = []
    fetched: list[tuple[str, str]] = []
    page.on("requestfailed", lambda request: failures.append(f"failed {request.url}"))
    page.on("request", lambda request: fetched.append((request.resource_type, request.url)))

    def on_response(response):
        if response.status >= 400:
            failures.append(f"{response.status} {response.url}")

    page.on("response", on_response)
    page.goto(site_url + shipped_sites + f"{builder}/{path}", wait_until="networkidle")
    if "search" in path:
        # Sphinx's search ran: its scripts and the index loaded, in order.
        expect(page.locator("#search-results li").first).to_be_visible()
    assert not failures, failures
    assets = [
        url
        for kind, url in fetched
        if kind in ("script", "stylesheet") and not url.endswith("/searchindex.js")
    ]
    assert any("sphinx-playbook.js" in url for url in assets), assets
    unversioned = [url for url in assets if "v" not in parse_qs(urlsplit(url).query)]
    assert not unversioned, f"fetched without ?v=: {unversioned}"
