"""What a rebuild writes after an edit: the pages that changed, and only those."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup
from conftest import read_html

from sphinx_playbook.highlighting import HighlightCache

PAGES = {
    "index.md": "# Book\n\n```{toctree}\n:maxdepth: 2\n\none\ntwo\n```\n",
    "one.md": "# One\n\nText.\n\n## Part\n\nMore text.\n",
    "two.md": "# Two\n\nText.\n",
}


def _book(tmp_path: Path, pages: dict[str, str] = PAGES) -> Path:
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(
        'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n', encoding="utf-8"
    )
    for name, text in pages.items():
        (source / name).write_text(text, encoding="utf-8")
    return source


def _rebuild(make_app, source: Path, build: Path, edit: tuple[str, str, str] | None = None):
    """Build (after replacing ``old`` with ``new`` in ``page``); the pages it wrote."""
    if edit:
        page, old, new = edit
        path = source / page
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    app = make_app("html", srcdir=source, builddir=build)
    written: list[str] = []
    app.connect("html-page-context", lambda _app, pagename, *_rest: written.append(pagename))
    app.build()
    return app, {name for name in written if name in PAGES_BY_DOCNAME}


PAGES_BY_DOCNAME = {name.removesuffix(".md") for name in PAGES}


def _menu(app, docname: str) -> list[str]:
    return [a.get_text() for a in read_html(app, docname).select(".pb-chapters__nav a")]


def test_an_edit_to_the_prose_writes_that_page_only(make_app, tmp_path):
    source, build = _book(tmp_path), tmp_path / "build"
    _app, written = _rebuild(make_app, source, build)
    assert written == {"index", "one", "two"}
    app, written = _rebuild(make_app, source, build, ("one.md", "More text.", "Other text."))
    assert written == {"one"}, "the root page lists One, whose entry did not change"
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


CODE_PAGES = {
    "index.md": "# Book\n\n```{toctree}\ncode\n```\n",
    "code.md": (
        "# Code\n\nProse.\n\n```python\ndef forward(x):\n    return x * 2\n```\n\n"
        "```nosuchlang\nsome text\n```\n\n```python\nprint('unchanged')\n```\n"
    ),
}


def _code_blocks(app) -> list[str]:
    return [str(block) for block in read_html(app, "code").select("div.highlight")]


def test_a_rebuild_highlights_only_the_code_that_changed(make_app, tmp_path, monkeypatch):
    """Unchanged blocks come from the cache (the same HTML, no Pygments run); an edited
    block is highlighted again; a block that warned is never kept, so it warns again."""
    import sphinx.highlighting

    highlighted: list[str] = []
    highlight = sphinx.highlighting.highlight

    def counting_highlight(source, lexer, formatter):
        highlighted.append(source)
        return highlight(source, lexer, formatter)

    monkeypatch.setattr(sphinx.highlighting, "highlight", counting_highlight)
    source, build = _book(tmp_path, CODE_PAGES), tmp_path / "build"
    page = source / "code.md"

    app = make_app("html", srcdir=source, builddir=build)
    app.build()
    first = _code_blocks(app)
    assert len(first) == 3 and len(highlighted) == 3
    assert "nosuchlang" in app.warning.getvalue()

    highlighted.clear()
    page.write_text(page.read_text(encoding="utf-8").replace("Prose.", "Other prose."))
    app = make_app("html", srcdir=source, builddir=build)
    app.build()
    assert _code_blocks(app) == first
    assert highlighted == ["some text\n"], "only the block that warned was highlighted again"
    assert "nosuchlang" in app.warning.getvalue(), "its warning was given again"

    highlighted.clear()
    page.write_text(page.read_text(encoding="utf-8").replace("x * 2", "x * 3"))
    app = make_app("html", srcdir=source, builddir=build)
    app.build()
    blocks = _code_blocks(app)
    assert [b == a for a, b in zip(first, blocks, strict=True)] == [False, True, True]
    assert "3" in BeautifulSoup(blocks[0], "html.parser").get_text()
    assert sorted(highlighted) == ["def forward(x):\n    return x * 3\n", "some text\n"]


def test_the_highlighting_cache_keeps_the_blocks_of_pages_that_remain(tmp_path):
    path = tmp_path / "playbook-highlighting.pickle"
    cache = HighlightCache(path)
    cache.keep("a", "ka", "<a>")
    cache.keep("b", "kb", "<b>")
    cache.save({"a", "b"})
    cache = HighlightCache(path)
    assert (cache.get("ka"), cache.get("kb")) == ("<a>", "<b>")
    cache.keep("a", "ka2", "<a2>")  # page a written again with other code; b not written
    cache.save({"a", "b"})
    cache = HighlightCache(path)
    assert (cache.get("ka"), cache.get("ka2"), cache.get("kb")) == (None, "<a2>", "<b>")
    cache.save({"a"})  # page b removed
    assert HighlightCache(path).get("kb") is None
