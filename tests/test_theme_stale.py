"""What the theme shows on every page after an incremental build is what a fresh build
shows: the chapters menu, and the highlighting stylesheet with its ``?v=`` checksum."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import CONF as PLAYBOOK_CONF
from helpers import build, build_app, page_path, read_html, read_page, write_project
from pygments.styles import get_style_by_name

CONF = PLAYBOOK_CONF + 'project = "Proj"\n'
BOOK = {
    "index.md": "# Book\n\n```{toctree}\none\ntwo\n```\n",
    "one.md": "# One\n\nText.\n\n```python\nprint('one')\n```\n\n```{toctree}\nsub_a\nsub_b\n```\n",
    "two.md": "# Two\n\nText.\n",
    "sub_a.md": "# Sub A\n\nText.\n",
    "sub_b.md": "# Sub B\n\nText.\n",
}
DOCNAMES = ("index", "one", "two", "sub_a", "sub_b", "three")


def _menu(page: BeautifulSoup) -> list[tuple[str, str, bool]]:
    """The menu as a reader sees it: captions, and each link's text, target and state."""
    nav = page.select_one(".pb-chapters__nav")
    shown = []
    for element in nav.select(".caption-text, a"):
        if element.name == "a":
            current = element.has_attr("aria-current") or "current" in element["class"]
            shown.append((element.get_text(), element["href"], current))
        else:
            shown.append((element.get_text(), "", False))
    return shown


def _previous_next(page: BeautifulSoup) -> list[tuple[str, str]]:
    return [(a.get_text(" ", strip=True), a["href"]) for a in page.select(".pb-prev-next a")]


EDITS = {
    "a chapter added, the chapters reordered and captioned": {
        "index.md": (
            "# Book\n\n```{toctree}\n:caption: Part I\n\ntwo\none\n```\n\n"
            "```{toctree}\n:caption: Part II\n\nthree\nhttps://example.org\n```\n"
        ),
        "three.md": "# Three\n\nText.\n",
    },
    "the root page renamed": {"index.md": BOOK["index.md"].replace("# Book", "# The Book")},
    "a section moved to another chapter": {
        "one.md": BOOK["one.md"].replace("sub_b\n", ""),
        "two.md": BOOK["two.md"] + "\n```{toctree}\nsub_b\n```\n",
    },
    "a section renamed": {"sub_b.md": "# Section B\n\nText.\n"},
}


@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_every_page_shows_the_book_as_it_is_now(make_app, tmp_path, edit):
    """The menu, the chapter it marks current and the previous and next pages, after an
    edit elsewhere in the book, are a fresh build's, on pages whose source did not change."""
    source = tmp_path / "source"
    write_project(source, BOOK, conf=CONF)
    build_app(make_app, source, builddir=tmp_path / "build")
    write_project(source, edit, conf=CONF)
    again = build_app(make_app, source, builddir=tmp_path / "build")
    fresh = build_app(make_app, source, builddir=tmp_path / "fresh")
    for docname in DOCNAMES:
        if page_path(Path(fresh.outdir), docname).exists():
            page, expected = read_html(again, docname), read_html(fresh, docname)
            assert _menu(page) == _menu(expected), docname
            assert _previous_next(page) == _previous_next(expected), docname


def test_the_menu_follows_the_root_page(make_app, tmp_path):
    source = tmp_path / "source"
    write_project(source, BOOK, conf=CONF)
    build_app(make_app, source, builddir=tmp_path / "build")
    write_project(source, EDITS["a chapter added, the chapters reordered and captioned"], conf=CONF)
    (source / "index.md").write_text(
        (source / "index.md").read_text(encoding="utf-8").replace("# Book", "# The Book"),
        encoding="utf-8",
    )
    app = build_app(make_app, source, builddir=tmp_path / "build")
    assert _menu(read_html(app, "sub_a")) == [
        ("The Book", "index.html", False),
        ("Part I", "", False),
        ("Two", "two.html", False),
        ("One", "one.html", True),
        ("Part II", "", False),
        ("Three", "three.html", False),
        ("https://example.org", "https://example.org", False),
    ]


def _sphinx_checksum(path: Path) -> str:
    """The ``?v=`` Sphinx gives a file it links: CRC-32 of its bytes without carriage
    returns (``sphinx.builders.html._assets``)."""
    content = path.read_bytes().replace(b"\r", b"")
    return f"{zlib.crc32(content):08x}"


def _highlighting(out: Path) -> tuple[bytes, str]:
    """The highlighting stylesheet every page links, and the ``?v=`` of those links;
    each link's checksum is the one Sphinx computes for the file it points at."""
    served: set[tuple[bytes, str]] = set()
    for docname in ("index", "one", "two", "search", "genindex"):
        page = read_page(out, docname)
        links = [
            link["href"]
            for link in page.find_all("link", rel="stylesheet")
            if "pygments" in link["href"]
        ]
        assert len(links) == 1, (docname, links)
        path, _, version = links[0].partition("?v=")
        assert version == _sphinx_checksum(out / path), (docname, "stale ?v=")
        served.add(((out / path).read_bytes(), version))
    (stylesheet,) = served
    return stylesheet


def _light_background(css: bytes) -> str:
    rules = css.decode().split("}")
    (light,) = [r for r in rules if r.strip().startswith(".highlight {")]
    return light.split("background:")[1].split(";")[0].strip()


def _dark_background(css: bytes) -> str:
    rules = css.decode().split("}")
    (dark,) = [r for r in rules if r.strip().startswith('html[data-theme="dark"] .highlight {')]
    return dark.split("background:")[1].split(";")[0].strip()


def test_a_changed_highlighting_style_changes_the_stylesheet_and_its_checksum(tmp_path):
    """Each build in its own process, as authors run it: Sphinx keeps a file's checksum
    for the life of the process."""
    source, out = tmp_path / "source", tmp_path / "out"
    write_project(source, BOOK, conf=CONF)
    build(source, out)
    first = _highlighting(out)
    default = get_style_by_name("a11y-high-contrast-light").background_color
    assert _light_background(first[0]) == default

    steps = [
        (
            'html_theme_options = {"pygments_light_style": "friendly",'
            ' "pygments_dark_style": "monokai"}\n',
            ("friendly", "monokai"),
        ),
        ('pygments_style = "solarized-light"\n', ("solarized-light", "a11y-high-contrast-dark")),
    ]
    before = first
    for number, (setting, (light, dark)) in enumerate(steps):
        (source / "conf.py").write_text(CONF + setting, encoding="utf-8")
        build(source, out)
        rebuilt = _highlighting(out)
        assert rebuilt[1] != before[1], setting
        assert _light_background(rebuilt[0]) == get_style_by_name(light).background_color
        assert _dark_background(rebuilt[0]) == get_style_by_name(dark).background_color
        fresh = tmp_path / f"fresh{number}"
        build(source, fresh)
        assert _highlighting(fresh) == rebuilt, setting
        before = rebuilt
