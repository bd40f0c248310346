"""Highlighted code kept between builds: a rebuild highlights only the code that changed.

Pygments compiles a lexer's rules the first time a process uses it: 40 ms for
Python's, paid by every rebuild of a page with a Python block before a line of it
is highlighted. The HTML Sphinx's highlighter returns for each block is kept in the
doctree directory, under a hash of everything it depends on: the code, its
language and options, the formatter and its style, the Pygments and Sphinx
versions and the lexers extensions added. A block whose highlighting gave a
warning is not kept, so that the warning is given again.

Entries are kept by page: a page written again keeps the blocks it has now, a
page removed loses its own, so the file never outgrows the site. In a ``-j``
write the workers highlight what the cache lacks and it stays unsaved.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from pathlib import Path
from typing import Any

import pygments
import sphinx
import sphinx.highlighting
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

FILE_NAME = "playbook-highlighting.pickle"
#: Bumped when what is stored changes: a file of another format is ignored.
FORMAT = 1


def _name(value: Any) -> str:
    """A class or function by module and name (a repr may hold a memory address)."""
    qualname = getattr(value, "__qualname__", None)
    if qualname is None:
        return repr(value)
    return f"{getattr(value, '__module__', '')}.{qualname}"


class _Warnings(logging.Filter):
    """Counts the warnings of Sphinx's highlighter (bad lexer name, lexing error)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            self.count += 1
        return True


class HighlightCache:
    """``key -> HTML`` by page, loaded from and saved to one pickle."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._by_page: dict[str, dict[str, str]] = {}
        self._written: dict[str, dict[str, str]] = {}
        try:
            with path.open("rb") as file:
                stored = pickle.load(file)
        except Exception:  # missing, truncated, or written by another version
            stored = None
        if isinstance(stored, dict) and stored.get("format") == FORMAT:
            pages = stored.get("pages")
            self._by_page = pages if isinstance(pages, dict) else {}
        self._index = {key: html for page in self._by_page.values() for key, html in page.items()}

    def get(self, key: str) -> str | None:
        return self._index.get(key)

    def keep(self, docname: str, key: str, html: str) -> None:
        """``html`` is what ``docname``'s block highlights to in this build."""
        self._written.setdefault(docname, {})[key] = html
        self._index[key] = html

    def page_written(self, docname: str) -> None:
        self._written.setdefault(docname, {})

    def save(self, docnames: set[str]) -> None:
        """The blocks of the pages written now, and the others' of the pages that remain."""
        pages = {name: page for name, page in self._by_page.items() if name in docnames}
        pages.update(self._written)
        if pages == self._by_page:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".partial")
        with partial.open("wb") as file:
            pickle.dump({"format": FORMAT, "pages": pages}, file, pickle.HIGHEST_PROTOCOL)
        partial.replace(self.path)
        self._by_page, self._written = pages, {}


class _CachedHighlighter:
    """``highlight_block`` of one builder's highlighter, answered from the cache."""

    def __init__(self, app: Sphinx, cache: HighlightCache, warnings: _Warnings) -> None:
        bridge = app.builder.highlighter
        self.app, self.cache, self.warnings = app, cache, warnings
        self.highlight_block = bridge.highlight_block
        shared = [
            FORMAT,
            sphinx.__version__,
            pygments.__version__,
            bridge.dest,
            _name(bridge.formatter),
            sorted((name, _name(value)) for name, value in bridge.formatter_args.items()),
            sorted(
                (name, _name(value)) for name, value in sphinx.highlighting.lexer_classes.items()
            ),
        ]
        self._shared = hashlib.sha256(repr(shared).encode("utf-8"))

    def __call__(
        self,
        source: str,
        lang: str,
        opts: dict[str, Any] | None = None,
        force: bool = False,
        location: Any = None,
        **kwargs: Any,
    ) -> str:
        if not isinstance(source, str):
            return self.highlight_block(source, lang, opts, force, location, **kwargs)
        digest = self._shared.copy()
        options = sorted((opts or {}).items())
        digest.update(repr((source, lang, options, force, sorted(kwargs.items()))).encode())
        key = digest.hexdigest()
        docname = getattr(self.app.builder, "current_docname", "")
        html = self.cache.get(key)
        if html is None:
            warned = self.warnings.count
            html = self.highlight_block(source, lang, opts, force, location, **kwargs)
            if self.warnings.count != warned:
                return html  # not kept: the next build gives the warning again
        if docname:
            self.cache.keep(docname, key, html)
        return html


#: The builds in progress: their cache and the filter on Sphinx's highlighter logger.
_BUILDS: dict[int, tuple[HighlightCache, _Warnings]] = {}


def _highlighter_logger() -> logging.Logger:
    return sphinx.highlighting.logger.logger


def _start(app: Sphinx) -> None:
    bridge = getattr(app.builder, "highlighter", None)
    if bridge is None or getattr(bridge, "dest", None) != "html":
        return  # not an HTML builder: LaTeX output is written whole anyway
    cache = HighlightCache(Path(app.doctreedir) / FILE_NAME)
    warnings = _Warnings()
    _highlighter_logger().addFilter(warnings)
    _BUILDS[id(app)] = cache, warnings
    bridge.highlight_block = _CachedHighlighter(app, cache, warnings)


def _page_written(
    app: Sphinx, pagename: str, templatename: str, context: Any, doctree: Any
) -> None:
    build = _BUILDS.get(id(app))
    if build is not None and doctree is not None:
        build[0].page_written(pagename)


def _finish(app: Sphinx, exception: Exception | None) -> None:
    build = _BUILDS.pop(id(app), None)
    if build is None:
        return
    cache, warnings = build
    _highlighter_logger().removeFilter(warnings)
    env: BuildEnvironment = app.env
    if exception is None:
        cache.save(set(env.all_docs))


def setup_highlighting(app: Sphinx) -> None:
    app.connect("builder-inited", _start)
    app.connect("html-page-context", _page_written)
    app.connect("build-finished", _finish)
