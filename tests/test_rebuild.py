"""What a rebuild writes after an edit: the pages that changed and those that show them."""

from __future__ import annotations

from pathlib import Path

from helpers import CONF, build_app, read_html, write_project

PAGES = {
    "index.md": "# Book\n\n```{toctree}\n:maxdepth: 2\n\none\ntwo\n```\n",
    "one.md": "# One\n\nText.\n\n## Part\n\nMore text.\n",
    "two.md": "# Two\n\nText.\n",
}


def _book(tmp_path: Path, pages: dict[str, str] = PAGES) -> Path:
    return write_project(tmp_path / "source", pages, conf=CONF)


def _rebuild(make_app, source: Path, build: Path, edit: tuple[str, str, str] | None = None):
    """Build (after replacing ``old`` with ``new`` in ``page``); the pages it wrote."""
    if edit:
        page, old, new = edit
        path = source / page
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    written: list[str] = []
    app = build_app(
        make_app,
        source,
        builddir=build,
        connect={"html-page-context": lambda _app, pagename, *_rest: written.append(pagename)},
    )
    return app, {name for name in written if name in PAGES_BY_DOCNAME}


PAGES_BY_DOCNAME = {name.removesuffix(".md") for name in PAGES}


def _menu(app, docname: str) -> list[str]:
    return [a.get_text() for a in read_html(app, docname).select(".pb-chapters__nav a")]


def test_an_edit_to_the_prose_writes_that_page_and_its_parent(make_app, tmp_path):
    """As plain Sphinx does: the parent's toctree may show the page; no other page."""
    source, build = _book(tmp_path), tmp_path / "build"
    _app, written = _rebuild(make_app, source, build)
    assert written == {"index", "one", "two"}
    app, written = _rebuild(make_app, source, build, ("one.md", "More text.", "Other text."))
    assert written == {"one", "index"}
    assert "Other text." in read_html(app, "one").get_text()


def test_a_renamed_section_rewrites_the_page_that_lists_it(make_app, tmp_path):
    source, build = _book(tmp_path), tmp_path / "build"
    _rebuild(make_app, source, build)
    app, written = _rebuild(make_app, source, build, ("one.md", "## Part", "## Piece"))
    assert written == {"one", "index"}
    toctree = [a.get_text() for a in read_html(app, "index").select(".toctree-wrapper a")]
    assert toctree == ["One", "Piece", "Two"]


def test_a_renamed_chapter_rewrites_every_page_of_the_menu(make_app, tmp_path):
    source, build = _book(tmp_path), tmp_path / "build"
    _rebuild(make_app, source, build)
    app, written = _rebuild(make_app, source, build, ("one.md", "# One", "# First"))
    assert written == {"index", "one", "two"}
    assert _menu(app, "two") == ["Book", "First", "Two"]
    toctree = [a.get_text() for a in read_html(app, "index").select(".toctree-wrapper a")]
    assert toctree == ["First", "Part", "Two"]
