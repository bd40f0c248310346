"""Which keys each page cites, in order (read phase), and the entries they point to
(env-updated, when the .bib files are parsed, or read back from the build's cache).

The entries a page cites are stored with the page in the environment, so the
write phase (possibly in another process) needs no .bib file, and every .bib a
page uses is a dependency of that page: editing it re-reads exactly the pages
that use it.
"""

from __future__ import annotations

import functools
import importlib.metadata
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ..config import read_config
from ..diagnostics import PlaybookWarning, warn
from ..machinery.cache import cache_folder, digest, load_pickle
from ..machinery.registry import Shown, note_shown
from ..machinery.state import PageStore, SiteValue
from ..metadata import page_metadata
from . import bibliography as bibliography_module
from .bibliography import Bibliography, Reference, parse_and_keep, read_bibliography
from .roles import cite_ref


@dataclass
class CitedPage:
    """The citations of one page: keys in order of first appearance, their entries,
    and the keys of each citation in the page's order (for the book's backlinks)."""

    keys: list[str] = field(default_factory=list)
    references: dict[str, Reference] = field(default_factory=dict)
    occurrences: list[list[str]] = field(default_factory=list)
    #: The page's own .bib files (front matter ``bibliography``).
    bibfiles: list[str] = field(default_factory=list)
    #: Read but not yet looked up in the .bib files: each citation's keys, source
    #: and line. Pages are resolved together at env-updated, so that reading never
    #: waits for a .bib file still being parsed.
    unresolved: list[tuple[list[str], str | None, int | None]] | None = None


@dataclass
class BookNumbering:
    """``playbook_citation_numbering = "book"``: one numbering in reading order, and
    one reference list, on the book's last page."""

    keys: list[str] = field(default_factory=list)
    references: dict[str, Reference] = field(default_factory=dict)
    list_page: str = ""
    backlinks: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: What each page shows: its numbers, and for the list page the whole list.
    signatures: dict[str, tuple] = field(default_factory=dict)

    @property
    def numbers(self) -> dict[str, int]:
        return {key: index for index, key in enumerate(self.keys, start=1)}


def _version_of(path: Path) -> tuple[Path, int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (path, stat.st_mtime_ns, stat.st_size)


class BibFiles:
    """One build's .bib files: each parsed once per version of the file, through
    the cache folder (:mod:`..machinery.cache`), and its problems reported once.

    Files are parsed when the citations are resolved (env-updated), not in a
    worker while the pages are read: the worker is KaTeX's then, and a .bib parse
    queued before the formulas made the build wait longer (measured on the
    benchmark's 1,000 entries, docs/performance.md); a real .bib of a hundred
    entries takes pybtex some 30 ms. One object per application (:func:`bib_files`),
    made at builder-inited, so two builds in one process share nothing.
    """

    def __init__(self, cache: Path) -> None:
        self._folder = cache / "bib"
        self._parsed: dict[tuple[Path, int, int], Bibliography] = {}
        self._used: set[Path] = set()
        self._reported: set[str] = set()

    def load(self, path: Path) -> Bibliography:
        """``path``'s entries, parsed once per version of the file."""
        key = _version_of(path)
        if key is None:
            return read_bibliography(path)
        if key not in self._parsed:
            self._parsed[key] = self._read_through_disk_cache(path)
        return self._parsed[key]

    def load_and_report(self, path: Path) -> Bibliography:
        """``load``, and the file's problems reported the first time the build reads it."""
        bibliography = self.load(path)
        stored = self._disk_cache_file(path)
        if stored is not None:
            self._used.add(stored)
        if str(path) not in self._reported:
            self._reported.add(str(path))
            report_problems(bibliography, str(path))
        return bibliography

    def prune(self) -> None:
        """Drop the parsed files no page used in this build (edited or removed .bib files)."""
        if self._folder.is_dir():
            for stored in self._folder.glob("*.pickle"):
                if stored not in self._used:
                    stored.unlink(missing_ok=True)

    def _read_through_disk_cache(self, path: Path) -> Bibliography:
        """pybtex takes about 0.3 s per 1,000 entries: an unchanged file is parsed once."""
        stored = self._disk_cache_file(path)
        if stored is not None:
            found = load_pickle(stored)
            if isinstance(found, Bibliography):
                return found
        return parse_and_keep(path, stored)

    def _disk_cache_file(self, path: Path) -> Path | None:
        """Where ``path``'s parsed entries are kept: named by the file's bytes and the
        code that reads them, so a changed file or reader never finds them."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return self._folder / f"{digest(data, _reader_identity())}.pickle"


_BIB_FILES: weakref.WeakKeyDictionary[Sphinx, BibFiles] = weakref.WeakKeyDictionary()


def bib_files(app: Sphinx) -> BibFiles:
    """This build's :class:`BibFiles`."""
    files = _BIB_FILES.get(app)
    if files is None:
        files = _BIB_FILES[app] = BibFiles(cache_folder(app.doctreedir))
    return files


@functools.cache
def _reader_identity() -> bytes:
    """The code that turns a .bib into entries: ours and pybtex's version."""
    return b"\0".join(
        [
            Path(bibliography_module.__file__).read_bytes(),
            importlib.metadata.version("pybtex").encode(),
        ]
    )


def site_bibfiles(app: Sphinx) -> list[Path]:
    return [Path(app.confdir, name) for name in read_config(app.config).bibfiles]


def report_problems(bibliography: Bibliography, shown: str) -> None:
    """One warning per problem, located at the .bib file and line pybtex reported."""
    for line, message in bibliography.problems:
        location = f"{shown}:{line}" if line else shown
        warn(message, PlaybookWarning.CITATION, location)


#: The book's numbering (``playbook_citation_numbering = "book"``), for the writers.
BOOK: SiteValue[BookNumbering | None] = SiteValue("citation_book", lambda: None)

#: Each page's citations.
CITATIONS: PageStore[CitedPage] = PageStore("citations")


def _store(env: BuildEnvironment) -> dict[str, CitedPage]:
    return CITATIONS.of(env)


def cited_page(env: BuildEnvironment, docname: str) -> CitedPage | None:
    return _store(env).get(docname)


def on_builder_inited(app: Sphinx) -> None:
    """A missing site-wide .bib file is reported once, at the start of the build."""
    _BIB_FILES[app] = BibFiles(cache_folder(app.doctreedir))
    for path in site_bibfiles(app):
        if not path.exists():
            warn(
                f"playbook_bibfiles: {path} does not exist; fix the path (relative to conf.py)",
                PlaybookWarning.CITATION,
            )
            continue


def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    """Note the page's citations and .bib files; they are looked up at env-updated."""
    env = app.env
    docname = env.docname
    citations = list(doctree.findall(cite_ref))
    _store(env).pop(docname, None)
    if not citations:
        return
    own = _page_bibfiles(env, docname)
    for path in site_bibfiles(app) + own:
        if path.exists():  # a missing one is reported at builder-inited or in _page_bibfiles
            env.note_dependency(str(path))
    _store(env)[docname] = CitedPage(
        bibfiles=[str(path) for path in own],
        unresolved=[(list(node["keys"]), node.source, node.line) for node in citations],
    )


def _resolve(app: Sphinx, page: CitedPage) -> None:
    """Look the page's citations up in its .bib files; unknown keys warn at their line."""
    entries: dict[str, Reference] = {}
    for path in site_bibfiles(app) + [Path(name) for name in page.bibfiles]:
        if path.exists():
            for key, reference in bib_files(app).load_and_report(path).entries.items():
                entries.setdefault(key, reference)
    for keys, source, line in page.unresolved or ():
        page.occurrences.append([key for key in keys if key in entries])
        for key in keys:
            if key not in entries:
                located = nodes.inline()
                located.source, located.line = source, line
                warn(
                    f"unknown citation key {key!r}; add it to a .bib file or fix the key",
                    PlaybookWarning.CITATION,
                    located,
                )
                continue
            if key not in page.references:
                page.keys.append(key)
                page.references[key] = entries[key]
    page.unresolved = None


def _page_bibfiles(env: BuildEnvironment, docname: str) -> list[Path]:
    paths = []
    meta = page_metadata(env, docname)
    for name in meta.bibliography:
        _relative, absolute = env.relfn2path(name, docname)
        path = Path(absolute)
        if not path.exists():
            warn(
                f"front matter key 'bibliography': {name!r} does not exist; "
                "give a path relative to this page",
                PlaybookWarning.CITATION,
                (docname, meta.bibliography_line),
            )
            continue
        paths.append(path)  # its problems are reported once, where it is first read
    return paths


def reading_order(env: BuildEnvironment, root: str) -> list[str]:
    """Documents in the order a reader meets them through the toctrees from ``root``."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(docname: str) -> None:
        if docname in seen or docname not in env.all_docs:
            return
        seen.add(docname)
        order.append(docname)
        for child in env.toctree_includes.get(docname, []):
            visit(child)

    visit(root)
    return order


def on_env_updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Report the .bib files' problems once per build, and look up the citations of
    the pages read; in book numbering, number every citation of the book and note
    in the registry what each page shows of it (its numbers, the list), so that the
    pages whose numbers or list changed are written again."""
    site = [path for path in site_bibfiles(app) if path.exists()]
    own = sorted({f for page in _store(env).values() for f in page.bibfiles} - set(map(str, site)))
    files = bib_files(app)
    for path in [*site, *map(Path, own)]:
        files.load_and_report(path)
    files.prune()
    for docname in sorted(_store(env)):
        if _store(env)[docname].unresolved is not None:
            _resolve(app, _store(env)[docname])
    if read_config(app.config).citation_numbering != "book":
        return []
    book = BookNumbering()
    store = _store(env)
    book_pages = reading_order(env, app.config.root_doc)
    # Pages outside the toctrees come last, so every citation has a number.
    everything = book_pages + sorted(set(store) - set(book_pages))
    order = [d for d in everything if d in store]
    for docname in order:
        page = store[docname]
        for key in page.keys:
            if key not in book.references:
                book.keys.append(key)
                book.references[key] = page.references[key]
        for index, keys in enumerate(page.occurrences, start=1):
            for key in keys:
                book.backlinks.setdefault(key, []).append((docname, f"pb-cite-{index}"))
    # The list closes the book: the last page a reader reaches through the toctrees.
    book.list_page = book_pages[-1] if book_pages else (order[-1] if order else "")
    numbers = book.numbers
    for docname in dict.fromkeys([*order, book.list_page]):
        if not docname:
            continue
        cited = store[docname].keys if docname in store else []
        signature: tuple = (book.list_page, tuple(numbers[k] for k in cited))
        if docname == book.list_page:
            signature += (
                tuple((k, book.references[k].fingerprint) for k in book.keys),
                tuple(sorted((k, tuple(v)) for k, v in book.backlinks.items())),
            )
        book.signatures[docname] = signature
    BOOK.set(env, book)
    note_shown(env, Shown.CITATIONS, book.signatures)
    return []
