"""pydata-sphinx-theme's version switcher, external links and URL announcement, as a
reader uses them on a phone and on a wide screen (theme/options.py; HTML checks in
tests/test_theme_options.py and tests/test_book_theme_options.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import build
from playwright.sync_api import Page

from .conftest import ROOTS
from .test_accessibility import blocking_violations

ROOT = ROOTS / "test-theme-options"
PAGE = "api/module.html"
VERSIONS = ["3.0 (stable)", "2.0", "1.0"]


def _build(src: Path, out: Path) -> None:
    build(src, out)


@pytest.fixture(scope="session")
def options_sites(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The theme-options root, twice: its switcher JSON read at build time, and read
    by the script (a json_url the build does not find, served with the site)."""
    _build(ROOT, site_dir / "theme-options")
    src = tmp_path_factory.mktemp("fetched") / "src"
    shutil.copytree(ROOT, src)
    with (src / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(
            'html_theme_options["switcher"] = '
            '{"json_url": "_static/fetched.json", "version_match": "2.0"}\n'
        )
    out = site_dir / "theme-options-fetched"
    _build(src, out)
    shutil.copy(ROOT / "_static/switcher.json", out / "_static/fetched.json")
    return {"built": "theme-options/", "fetched": "theme-options-fetched/"}


def _open(page_at, site_url: str, width: int, path: str) -> tuple[Page, list[str]]:
    page = page_at(width, path=None)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(site_url + path, wait_until="load")
    return page, requests


def _inside(page: Page, selector: str, width: int) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)


@pytest.mark.parametrize("width", [390, 1440])
@pytest.mark.parametrize("site", ["built", "fetched"])
def test_the_version_switcher_opens_a_list_of_versions(
    page_at, site_url, options_sites, site, width
):
    page, requests = _open(page_at, site_url, width, options_sites[site] + PAGE)
    switcher = page.locator(".pb-header .pb-version-switcher")
    summary = switcher.locator("summary")
    summary.wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelectorAll('.pb-version-switcher li').length === 3"
    )
    assert "2.0" in summary.inner_text()
    summary.click()
    links = switcher.locator(".pb-version-switcher__nav a")
    assert links.all_inner_texts() == VERSIONS
    for name, href in zip(VERSIONS, ("3.0", "2.0", "1.0"), strict=True):
        link = switcher.get_by_role("link", name=name, exact=True)
        assert link.is_visible()
        assert link.get_attribute("href") == f"https://book.example.org/{href}/"
    assert switcher.locator("a[aria-current]").inner_text() == "2.0"
    _inside(page, ".pb-version-switcher__nav", width)
    # Over the page, under the header: nothing else moved.
    nav_top = page.locator(".pb-version-switcher__nav").bounding_box()["y"]
    header = page.locator(".pb-header").bounding_box()
    assert nav_top >= header["y"] + header["height"] * 0.5
    page.keyboard.press("Escape")
    assert not switcher.evaluate("menu => menu.open")
    banner = page.locator(".pb-version-warning")
    assert banner.is_visible() and "Switch to 3.0 (stable)" in banner.inner_text()
    origin = site_url.split("/sub/")[0]
    assert all(url.startswith(origin) for url in requests), requests


@pytest.mark.parametrize("width", [390, 1440])
def test_external_links_are_in_the_header_or_its_menu(page_at, site_url, options_sites, width):
    page, requests = _open(page_at, site_url, width, options_sites["built"] + PAGE)
    inline = page.locator(".pb-header .pb-external-links a", has_text="Blog")
    if width >= 768:
        assert inline.is_visible()
        assert inline.get_attribute("href") == "https://blog.example.org/"
        _inside(page, ".pb-header .pb-external-links", width)
        page.locator(".pb-chapters summary").click()
        assert not page.locator(".pb-chapters__external").is_visible(), "not twice"
    else:
        assert not inline.is_visible()
        page.locator(".pb-chapters summary").click()
        in_menu = page.locator(".pb-chapters__external a", has_text="Blog")
        assert in_menu.is_visible()
        assert in_menu.get_attribute("href") == "https://blog.example.org/"
        _inside(page, ".pb-chapters__nav", width)
    # Search stays in the header although navbar_end does not name it.
    assert page.locator(".pb-header .pb-search-button").is_visible()
    # Nothing in the header overflows the window.
    overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0
    origin = site_url.split("/sub/")[0]
    assert all(url.startswith(origin) for url in requests), requests


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1440])
def test_axe_finds_no_serious_violation_with_the_menus_open(page_at, options_sites, width, scheme):
    """The banner, breadcrumbs, edit link, external links and both menus, opened."""
    page = page_at(width, scheme, path=options_sites["built"] + PAGE)
    assert blocking_violations(page) == []
    page.locator(".pb-version-switcher summary").click()
    assert blocking_violations(page) == []
    page.keyboard.press("Escape")
    page.locator(".pb-chapters summary").click()
    assert blocking_violations(page) == []


@pytest.fixture(scope="session")
def announcement_sites(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The theme-options root with a URL announcement: a path of the site, and a URL of
    html_baseurl's origin (not the origin the tests serve the site from)."""
    sites = {}
    for name, value in (
        ("path", "_static/news.html"),
        ("other-origin", "https://docs.example.org/news.html"),
    ):
        src = tmp_path_factory.mktemp(name) / "src"
        shutil.copytree(ROOT, src)
        (src / "_static/news.html").write_text("Version <b>3.0</b> is out", encoding="utf-8")
        with (src / "conf.py").open("a", encoding="utf-8") as conf:
            conf.write('html_baseurl = "https://docs.example.org/book/"\n')
            conf.write(f'html_theme_options["announcement"] = {value!r}\n')
        _build(src, site_dir / f"announcement-{name}")
        sites[name] = f"announcement-{name}/"
    return sites


def test_a_url_announcement_is_fetched_from_the_site_s_own_origin_only(
    page_at, site_url, announcement_sites
):
    origin = site_url.split("/sub/")[0]
    page, requests = _open(page_at, site_url, 1440, announcement_sites["path"] + PAGE)
    banner = page.locator(".pb-announcement:not(.pb-version-warning)")
    banner.locator("b").wait_for()
    assert banner.is_visible() and "Version 3.0 is out" in banner.inner_text()
    assert any(url.endswith("/_static/news.html") for url in requests), requests
    # Of html_baseurl's origin, but the page is read from another: no request, no banner.
    page, requests = _open(page_at, site_url, 1440, announcement_sites["other-origin"] + PAGE)
    page.wait_for_timeout(300)
    assert all(url.startswith(origin) for url in requests), requests
    assert page.locator(".pb-announcement:not(.pb-version-warning)").is_hidden()
