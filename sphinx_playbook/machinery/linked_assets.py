"""No page links a stale version of a site-wide file.

Sphinx writes each local stylesheet and script of a page as
``href="_static/x.css?v=<checksum>"``, the checksum of the file as the output
folder holds it when the page is written; a page that is not written again keeps
the checksum it was written with. A site-wide file can change while no page that
links it changes: the math stylesheet when a formula on one page needs a font no
other formula drew, linked by every page that shows a formula (a hover card's
equation copied from another page included). So a rebuild writes again every
page whose linked files a fresh build would link with another checksum.

Through public events only:

* ``html-page-context`` (last): the page's local stylesheets and
  scripts (``css_files``, ``script_files``, after every handler added or removed
  one) and the checksum each is linked with are appended to a journal in the
  cache folder, one line per page (the writers of a ``-j`` build are processes
  of their own, each with its journal).
* ``build-finished``: the journals folded into the record (by builder: builders
  may share an environment and each has its own output). A file that was not
  there when a page was written, and is there now, is *late*: its extension
  writes it after the pages (myst-nb writes its stylesheet at build-finished).
* ``env-get-updated`` (after every handler that prepares a file): the pages whose
  linked files a fresh build would link with another checksum are noted in the
  registry (:func:`.registry.note_stale`), which has them written again. A file's
  next version is what its maker declared (:func:`declare`: made before the
  pages, as the math stylesheet is at env-get-updated), else the file as the
  output folder holds it.
* ``write-started``: late files are removed before any page is written, so that
  pages link them as a fresh build does (without a checksum: the file does not
  exist yet) and their extension writes them again afterwards. A late file no
  page of a build links (myst-nb's stylesheet, which only notebook pages link) is
  named by its feature (:func:`note_late_file`): removed all the same, it is gone
  from a rebuild whose configuration no longer makes it, as from a fresh build.

Files a page links without a checksum, under a folder a feature owns
(:func:`own_folder`, :func:`note_link`: an interactive figure's frame page and
libraries), are kept while a page links them and removed once none does, as a
fresh build never writes them.

A file that Sphinx copies from a static folder (``html_static_path``, the theme)
is checked as the output folder holds it when reading is over, that is as the
previous build copied it: Sphinx's own behaviour for files it copies.
"""

from __future__ import annotations

import contextlib
import json
import os
import weakref
import zlib
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from . import priorities
from .cache import cache_folder, load_pickle, save_pickle
from .registry import Shown, note_stale

#: Builders whose links carry no checksum (Sphinx leaves it out for them).
_NO_CHECKSUM = ("epub", "htmlhelp")
_RECORD = "linked-assets.pickle"
_JOURNALS = "linked-assets"

#: {builder name: {"pages": {docname: {file: checksum}}, "late": [file, ...]}};
#: a file linked without a checksum (:func:`note_link`) has None.
Record = dict[str, dict[str, Any]]


class _Build:
    """What one application knows during a build: declared files, checksums read."""

    def __init__(self) -> None:
        self.declared: dict[str, str] = {}
        self.checksums: dict[Path, str] = {}
        #: Folders of the output whose files exist only while a page links them.
        self.owned: list[str] = []
        #: Files written after the pages, linked by a page or not (note_late_file).
        self.late: set[str] = set()


_BUILDS: weakref.WeakKeyDictionary[Sphinx, _Build] = weakref.WeakKeyDictionary()


def _build(app: Sphinx) -> _Build:
    build = _BUILDS.get(app)
    if build is None:
        build = _BUILDS[app] = _Build()
    return build


def checksum_of(data: bytes | None) -> str:
    """The checksum Sphinx puts after ``?v=`` for a file of ``data`` (``""``: none,
    for a missing or empty file)."""
    if not data:
        return ""
    content = data.translate(None, b"\r")
    return f"{zlib.crc32(content):08x}" if content else ""


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def declare(app: Sphinx, filename: str, data: bytes | None) -> None:
    """At env-get-updated or before: the site-wide file ``filename`` (relative to the
    output folder, ``_static/...``) will hold ``data`` when pages are written
    (None: it will not exist)."""
    _build(app).declared[filename] = checksum_of(data)


def own_folder(app: Sphinx, folder: str) -> None:
    """At setup: the files under ``folder`` (relative to the output folder) are made
    for the pages that link them (:func:`note_link`); at build-finished a file no
    page links any more is removed, as a fresh build never writes it."""
    _build(app).owned.append(folder)


def note_link(builder: Builder, pagename: str, filename: str) -> None:
    """While ``pagename`` is written: it links ``filename`` (relative to the output
    folder) without a checksum, for instance an interactive figure's frame."""
    if _applies(builder):
        _journal(builder, pagename, {filename: None})


def note_late_file(app: Sphinx, filename: str) -> None:
    """At build-finished, before the late files are noted: ``filename`` (relative to the
    output folder) was written after the pages, whether or not a page links it."""
    _build(app).late.add(filename)


def _remove_unlinked(outdir: Path, folder: str, linked: set[str]) -> None:
    root = outdir / folder
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*"), reverse=True):
        if path.is_file() and path.relative_to(outdir).as_posix() not in linked:
            path.unlink(missing_ok=True)
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if not any(root.iterdir()):
        root.rmdir()


def _applies(builder: Builder | None) -> bool:
    return (
        builder is not None
        and builder.format == "html"
        and not builder.name.startswith(_NO_CHECKSUM)
    )


def _local(filename: str) -> bool:
    """A file of the output folder, which Sphinx links with a checksum."""
    return (
        bool(filename)
        and not filename.startswith("/")
        and "://" not in filename
        and "?" not in filename
    )


def _linked(context: dict[str, Any]) -> list[str]:
    names = []
    for key in ("css_files", "script_files"):
        for asset in context.get(key) or ():
            name = os.fspath(getattr(asset, "filename", asset) or "")
            if isinstance(name, str) and _local(name):
                names.append(name)
    return sorted(set(names))


def _journal_folder(app: Sphinx) -> Path:
    return cache_folder(app.doctreedir) / _JOURNALS


def _note_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """html-page-context: what the page links, with the checksum Sphinx will write
    (read once per file and process, as Sphinx reads it)."""
    if not _applies(app.builder):
        return
    build = _build(app)
    outdir = Path(app.builder.outdir)
    linked: dict[str, str | None] = {}
    for name in _linked(context):
        path = (outdir / name).resolve()
        if path not in build.checksums:
            build.checksums[path] = checksum_of(_read(path))
        linked[name] = build.checksums[path]
    _journal(app.builder, pagename, linked)


def _journal(builder: Builder, pagename: str, linked: dict[str, str | None]) -> None:
    line = json.dumps([builder.name, pagename, linked], sort_keys=True) + "\n"
    folder = cache_folder(builder.doctreedir) / _JOURNALS
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / f"{os.getpid()}.jsonl", "a", encoding="utf-8") as journal:
            journal.write(line)


def _load(app: Sphinx) -> Record:
    record = load_pickle(cache_folder(app.doctreedir) / _RECORD)
    return record if isinstance(record, dict) else {}


def _fold(app: Sphinx, exception: Exception | None) -> None:
    """build-finished: the journals into the record; late files noted."""
    if not _applies(app.builder):
        return
    folder = _journal_folder(app)
    record = _load(app)
    outdir = Path(app.builder.outdir)
    journals = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    written: dict[tuple[str, str], dict[str, str | None]] = {}
    for journal in journals:
        try:
            lines = journal.read_text(encoding="utf-8").splitlines()
        except OSError:
            lines = []
        for text in lines:
            try:
                builder, pagename, linked = json.loads(text)
            except ValueError:
                continue
            written.setdefault((builder, pagename), {}).update(linked)
        journal.unlink(missing_ok=True)
    for (builder, pagename), linked in written.items():
        record.setdefault(builder, {"pages": {}, "late": []})["pages"][pagename] = linked
    mine = record.get(app.builder.name)
    if mine is not None:
        env = app.env
        pages = {name: linked for name, linked in mine["pages"].items() if name in env.found_docs}
        late = set(mine["late"])
        for linked in pages.values():
            for name, checksum in linked.items():
                if checksum == "" and checksum_of(_read(outdir / name)):
                    late.add(name)
        still = {name for linked in pages.values() for name in linked}
        mine["pages"], mine["late"] = pages, sorted((late & still) | _build(app).late)
        if env.found_docs <= set(pages):  # every page's links are known
            for owned in _build(app).owned:
                _remove_unlinked(outdir, owned, still)
    save_pickle(cache_folder(app.doctreedir) / _RECORD, record)
    _build(app).declared.clear()
    _build(app).late.clear()


def next_checksum(app: Sphinx, name: str, late: set[str]) -> str:
    if name in late:
        return ""
    build = _build(app)
    if name in build.declared:
        return build.declared[name]
    return checksum_of(_read(Path(app.builder.outdir, name)))


def _stale_pages(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """env-get-updated: the pages that link a file with another checksum than a fresh
    build would write."""
    if not _applies(app.builder):
        return []
    mine = _load(app).get(app.builder.name)
    if not mine:
        return []
    late = set(mine["late"])
    upcoming: dict[str, str] = {}
    stale = []
    for docname, linked in sorted(mine["pages"].items()):
        if docname not in env.found_docs:
            continue
        for name, checksum in linked.items():
            if checksum is None:  # linked without a checksum
                continue
            if name not in upcoming:
                upcoming[name] = next_checksum(app, name, late)
            if upcoming[name] != checksum:
                stale.append(docname)
                break
    note_stale(env, Shown.SITE_ASSET, stale, name="linked files")
    return []


def _remove_late_files(app: Sphinx, builder: Builder) -> None:
    """write-started: files written after the pages are not there while pages are
    written, in every build alike."""
    if not _applies(builder):
        return
    build = _build(app)
    build.checksums.clear()
    folder = _journal_folder(app)
    for journal in folder.glob("*.jsonl") if folder.is_dir() else ():
        journal.unlink(missing_ok=True)  # left by a build that stopped
    mine = _load(app).get(builder.name)
    for name in (mine or {}).get("late", ()):
        with contextlib.suppress(OSError):
            Path(builder.outdir, name).unlink(missing_ok=True)


def setup_linked_assets(app: Sphinx) -> None:
    app.connect("html-page-context", _note_page, priority=priorities.NOTE_PAGE_LINKS)
    app.connect("env-get-updated", _stale_pages, priority=priorities.STALE_LINKS)
    app.connect("write-started", _remove_late_files)
    app.connect("build-finished", _fold, priority=priorities.NOTE_LATE_FILES)
