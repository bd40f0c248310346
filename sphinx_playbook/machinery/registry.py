"""One registry of what each page shows of other pages and of the site; from it,
the pages an incremental build reads and writes again.

Sphinx reads again the pages whose source changed and writes those, plus the
pages whose toctree lists one of them. Everything else a page shows of other
pages or of the whole site is recorded here, under a :class:`Shown` kind, by the
feature that shows it, and one handler decides from all of it:

* **read phase** (``doctree-read``): what other pages show *of this page* when
  they refer to it, beyond what Sphinx keeps (titles, numbers, labels:
  :mod:`.dependencies` reads those from the environment). The hover cards note
  theirs with :func:`note_page_fact` (kind :attr:`Shown.CARDS`); it is purged
  and merged with the page, like every :class:`.state.PageStore`.
* **after reading** (``env-updated``, or ``env-get-updated`` at Sphinx's default
  priority): the site-wide facts each page shows, with :func:`note_shown` (a
  value per page: its navigation, its citation numbers) or :func:`note_shown_by`
  (one value and the pages that show it: the chapters menu, a stylesheet's
  version). They are computed again by every build and live only until the
  handler below has read them. A feature that keeps its own record of what
  pages showed when they were written (:mod:`.linked_assets`) notes the pages it
  finds stale with :func:`note_stale`, at ``env-get-updated``.
* ``env-get-outdated``: :func:`.dependencies.pages_to_reread`, the pages a fresh
  build would read differently (a toctree naming a removed page, a MyST link to
  a page that appeared).
* ``env-get-updated`` (:data:`.priorities.PAGES_TO_WRITE`, after Sphinx's
  TocTreeCollector numbered sections and figures and after every feature noted
  its facts): each page's signature, a digest per kind of what it shows
  (:func:`.dependencies.signatures` for what Sphinx knows, with the page facts of
  the pages it refers to; the site facts noted for it), is compared with the one
  kept from the last build **with the same builder** (builders may share one
  environment: ``sphinx-build -M`` does, and each has its own output). The pages
  whose signature differs are returned, to be written again, except those Sphinx
  writes anyway (read in this build, noted at ``env-before-read-docs``, or listed
  in the toctree of one read); so are the pages this builder kept no signature
  of, not knowing what their output shows.
* ``build-finished``, when the build raised nothing: the signatures are kept,
  by builder, in the cache folder (:mod:`.cache`), not in the environment,
  which Sphinx pickles before writing, and only when it read or was given pages
  to write: a builder's first build on an environment another builder made
  reads nothing.

A signature kept is what the page showed when it was last written, provided the
build wrote what it was asked to: a build that stops while writing keeps the
previous signatures; one given a list of files (``sphinx-build ... FILE``, which
writes only those) leaves the other pages to an ``-a`` build.
"""

from __future__ import annotations

import enum
import hashlib
import weakref
from collections.abc import Iterable, Mapping
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from . import dependencies, priorities
from .cache import cache_folder, load_pickle, save_pickle
from .state import PageStore

logger = logging.getLogger(__name__)


class Shown(enum.StrEnum):
    """What a page shows of other pages or of the site, by kind."""

    #: Its previous and next pages and their titles, its ancestors (Sphinx's
    #: relations: the previous/next links, the breadcrumbs).
    NEIGHBOURS = "neighbours"
    #: The titles, sections and numbers of the pages its toctrees show.
    TOCTREES = "toctrees"
    #: What its cross-references show of their targets' pages: titles, section,
    #: figure and equation numbers, labels, MyST slugs, and their page facts.
    REFERENCES = "references"
    #: A page fact: what a hover card shows of the page's figures, tables,
    #: equations, sections and of the page itself (shown through REFERENCES).
    CARDS = "cards"
    #: The chapters menu: the root page's toctrees and their titles.
    CHAPTERS = "chapters"
    #: The page's place in the menu (its current chapter), previous and next pages.
    NAVIGATION = "navigation"
    #: Citation numbers and the reference list, when the book is numbered as one.
    CITATIONS = "citations"
    #: A site-wide file the page links, whose link changes with its content.
    SITE_ASSET = "site asset"


#: The kinds :func:`.dependencies.signatures` computes from Sphinx's environment,
#: in the order of its :class:`.dependencies.SphinxFacts`.
FROM_SPHINX: tuple[str, ...] = tuple(
    Shown(field).value for field in dependencies.SphinxFacts._fields
)

#: What other pages show of a page, by kind (a digest), noted while it is read.
PAGE_FACTS: PageStore[dict[str, bytes]] = PageStore("page_facts")
#: A page's signature: kind -> digest of what it shows.
Signature = dict[str, bytes]


def _digest(value: object) -> bytes:
    return hashlib.blake2b(repr(value).encode("utf-8"), digest_size=16).digest()


# -- the read phase: facts of a page ---------------------------------------------------


def note_page_fact(env: BuildEnvironment, docname: str, kind: Shown, value: object) -> None:
    """``doctree-read``: what pages referring to ``docname`` show of it (``repr``-able)."""
    PAGE_FACTS.of(env).setdefault(docname, {})[kind.value] = _digest(value)


def page_facts(env: BuildEnvironment) -> Mapping[str, Mapping[str, bytes]]:
    return PAGE_FACTS.of(env)


# -- after reading: the facts of the site each page shows ------------------------------


class _SiteFacts:
    """This build's site facts: kind -> per-page digests, and shared digests."""

    def __init__(self) -> None:
        self.by_page: dict[str, dict[str, bytes]] = {}
        self.shared: dict[str, list[tuple[bytes, frozenset[str]]]] = {}
        self.stale: dict[str, set[str]] = {}

    def of(self, docname: str) -> dict[str, object]:
        facts: dict[str, object] = {}
        for kind, pages in self.by_page.items():
            facts[kind] = pages.get(docname)
        for kind, values in self.shared.items():
            shown = tuple(value for value, docnames in values if docname in docnames)
            facts[kind] = (facts.get(kind), shown)
        return facts


_SITE: weakref.WeakKeyDictionary[BuildEnvironment, _SiteFacts] = weakref.WeakKeyDictionary()


def _site(env: BuildEnvironment) -> _SiteFacts:
    return _SITE.setdefault(env, _SiteFacts())


def _key(kind: Shown, name: str) -> str:
    return f"{kind.value}:{name}" if name else kind.value


def note_shown(
    env: BuildEnvironment, kind: Shown, shown: Mapping[str, object], *, name: str = ""
) -> None:
    """After reading: what each page shows of the site (a page not named shows none).

    ``name`` tells apart two facts of one kind (two site assets)."""
    _site(env).by_page[_key(kind, name)] = {d: _digest(v) for d, v in shown.items()}


def note_shown_by(
    env: BuildEnvironment, kind: Shown, value: object, pages: Iterable[str], *, name: str = ""
) -> None:
    """After reading: one site-wide ``value`` (digested once) that ``pages`` show."""
    key = _key(kind, name)
    _site(env).shared.setdefault(key, []).append((_digest(value), frozenset(pages)))


def note_stale(env: BuildEnvironment, kind: Shown, pages: Iterable[str], *, name: str = "") -> None:
    """At env-get-updated, before :data:`.priorities.PAGES_TO_WRITE`: ``pages`` show a
    fact that changed, by the feature's own record of what they showed when they
    were written (:mod:`.linked_assets`: the checksum each linked file had)."""
    _site(env).stale.setdefault(_key(kind, name), set()).update(pages)


# -- env-get-outdated and env-get-updated: the pages to read and write again ------------


def _pages_to_read(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    return dependencies.pages_to_reread(env, added, changed, removed)


def current_signatures(
    app: Sphinx, env: BuildEnvironment, site: _SiteFacts | None = None
) -> dict[str, dict[str, bytes]]:
    """Every page's signature now: kind -> digest of what it shows."""
    site = site or _SITE.pop(env, _SiteFacts())
    result: dict[str, dict[str, bytes]] = {}
    for docname, shown in dependencies.signatures(app, env, page_facts(env)).items():
        signature = dict(zip(FROM_SPHINX, shown, strict=True))
        for kind, facts in site.of(docname).items():
            signature[kind] = _digest(facts)
        result[docname] = signature
    return result


class _Build:
    """What the registry knows of a build between its events (never pickled)."""

    def __init__(self) -> None:
        self.read: set[str] = set()
        self.signatures: dict[str, Signature] | None = None


_BUILDS: weakref.WeakKeyDictionary[BuildEnvironment, _Build] = weakref.WeakKeyDictionary()


def _signatures_file(app: Sphinx) -> Path:
    return cache_folder(app.doctreedir) / f"signatures-{app.builder.name}.pickle"


def _note_pages_read(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``, after every handler that adds pages to read."""
    _BUILDS[env] = build = _Build()
    build.read = set(docnames)


def _pages_to_write(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """The pages whose signature changed since this builder last wrote them.

    Left out: the pages Sphinx writes anyway, those read in this build and the
    pages whose toctree lists one of them. Each page returned also brings the
    pages whose toctree lists it (Sphinx's ``files_to_rebuild``), so returning a
    page that is written anyway is not free.
    """
    dependencies.drop_stale_section_numbers(env)
    build = _BUILDS.setdefault(env, _Build())
    kept = load_pickle(_signatures_file(app))
    before: dict[str, Signature] = kept if isinstance(kept, dict) else {}
    site = _SITE.pop(env, _SiteFacts())
    after = current_signatures(app, env, site)
    build.signatures = after
    written = build.read.union(*(env.files_to_rebuild.get(d, ()) for d in build.read))
    stale: dict[str, list[str]] = {}
    for docname, signature in after.items():
        if docname in written:
            continue
        old = before.get(docname)
        if old is None:
            stale[docname] = ["no signature kept"]
            continue
        changed = sorted(k for k in old.keys() | signature.keys() if old.get(k) != signature.get(k))
        if changed:
            stale[docname] = changed
    for kind, pages in sorted(site.stale.items()):
        for docname in sorted((pages & after.keys()) - written):
            stale.setdefault(docname, []).append(kind)
    if stale:
        logger.debug(
            "[playbook] pages that show facts that changed: %s",
            "; ".join(f"{d} ({', '.join(kinds)})" for d, kinds in sorted(stale.items())),
        )
    return sorted(stale)


def _keep_signatures(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: what the pages showed, now that they are written."""
    build = _BUILDS.pop(app.env, None)
    if exception is None and build is not None and build.signatures is not None:
        save_pickle(_signatures_file(app), build.signatures)


def setup_registry(app: Sphinx) -> None:
    app.connect("doctree-read", dependencies.record)
    app.connect("env-get-outdated", _pages_to_read)
    app.connect("env-before-read-docs", _note_pages_read, priority=priorities.NOTE_PAGES_READ)
    app.connect("env-get-updated", _pages_to_write, priority=priorities.PAGES_TO_WRITE)
    app.connect("build-finished", _keep_signatures)
