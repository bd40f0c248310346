"""What each page shows of other pages through Sphinx: the part of the registry
(:mod:`.registry`) that Sphinx's environment knows.

Sphinx writes again the pages it read and the pages whose toctree lists them
directly. A page also shows facts of other pages that Sphinx does not track: its
neighbours' titles (the previous/next links), the titles and sections of
grandchildren in its toctrees, and the text of its cross-references (a section
title, a figure or equation number, a page title). Without this module an author
needs ``-E`` after renaming a section.

The record, through public events and APIs only:

* ``doctree-read`` (:func:`record`): for each page, the targets of its
  ``pending_xref`` nodes (refdomain, reftype, reftarget, refdoc and MyST's
  reftargetid) and its toctrees (``maxdepth``, ``titlesonly``,
  ``includehidden``, ``hidden`` and the pages they include). It is kept with the
  page in the environment (:mod:`.state`: dropped when the page is read again,
  merged from ``-j`` readers).
* :func:`signatures` (called by the registry at ``env-get-updated``, after
  Sphinx's own handler has numbered sections and figures; ``env-updated`` comes
  before that, with the re-read pages unnumbered): per page, a digest of each
  kind of fact it shows of other pages

  - neighbours: its place in the reading order (Sphinx's relations): the
    previous and next pages and their titles (HTML builders), its ancestors (the
    chapters menu marks the current chapter), and their titles under themes
    with breadcrumbs;
  - toctrees: for each page its toctrees show, down to their ``maxdepth``: the
    title and section number, and, above the last shown level, its table of
    contents (``env.tocs``) and section numbers;
  - references: for each cross-reference, the pages its target resolves to and,
    for labels, pages and equations, those pages' titles, section and figure
    numbers, std labels (anchor, section name), anonymous labels, equations,
    MyST heading slugs and the page facts features noted for them (what the
    hover cards show). Other objects (terms, Python objects...) show the written
    text: only the page they resolve to counts (the link's address).

  Before that, the section numbers Sphinx left in the titles and tables of
  contents of pages no numbered toctree includes any more are dropped (see
  :func:`drop_stale_section_numbers`).
* :func:`pages_to_reread` (the registry's ``env-get-outdated``): a page whose
  toctree (or MyST path link) names a page that was deleted is read again, as a
  fresh build reads it: Sphinx warns at the toctree's file and line and leaves
  the entry out, and the neighbours' links follow. A MyST path link to a file
  that did not exist reads again when the file appears. Pages read before this
  module kept records are read again once.

Targets that resolve nowhere (a missing label, an intersphinx target) are kept
in the signature as unresolved: Sphinx warns about them where they are written,
and the page is written again when the target appears. Resolution follows Sphinx
and MyST loosely (every candidate domain counts), which can only add pages.
A page's facts are taken whole: a reference to one section of a page is written
again when another section of that page is renamed.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import docname_join, logging, url_re

from .state import PageStore

logger = logging.getLogger(__name__)

#: A page's toctree: (maxdepth, titlesonly, includehidden, hidden, pages).
Toctree = tuple[int, bool, bool, bool, tuple[str, ...]]
#: A cross-reference's target: (refdomain, reftype, reftarget, refdoc, reftargetid).
Xref = tuple[str, str, str, str, str]
#: What is kept of a page: its toctrees and its cross-references' targets.
Record = tuple[tuple[Toctree, ...], tuple[Xref, ...]]


#: Each page's toctrees and cross-reference targets, as read.
RECORDS: PageStore[Record] = PageStore("dependencies")


class SphinxFacts(NamedTuple):
    """A digest of each kind of fact a page shows of other pages through Sphinx."""

    neighbours: bytes
    toctrees: bytes
    references: bytes


# -- doctree-read: what a page refers to ----------------------------------------------


def record(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the page's toctrees and cross-reference targets."""
    env = app.env
    toctrees: list[Toctree] = []
    for toctree in doctree.findall(addnodes.toctree):
        included = tuple(
            dict.fromkeys(
                ref for _title, ref in toctree["entries"] if ref != "self" and not url_re.match(ref)
            )
        )
        toctrees.append(
            (
                int(toctree.get("maxdepth", -1) or -1),
                bool(toctree.get("titlesonly")),
                bool(toctree.get("includehidden")),
                bool(toctree.get("hidden")),
                included,
            )
        )
    xrefs = {
        (
            node.get("refdomain") or "",
            node.get("reftype") or "",
            node.get("reftarget") or "",
            node.get("refdoc") or env.docname,
            node.get("reftargetid") or "",
        )
        for node in doctree.findall(addnodes.pending_xref)
    }
    RECORDS.of(env)[env.docname] = (tuple(toctrees), tuple(sorted(xrefs)))


# -- env-get-outdated: pages a fresh build would read differently --------------------


def _myst_path(env: BuildEnvironment, xref: Xref) -> str | None:
    """The page a MyST link that named no page (``[text](other.md)``) names now."""
    path = xref[2].split("#", 1)[0]
    if not path or url_re.match(path):
        return None
    try:
        _relative, absolute = env.relfn2path(path, xref[3])
        return env.path2doc(absolute)
    except Exception:  # a target no path can be made of: not a page
        return None


def pages_to_reread(
    env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated``: the pages a fresh build would read differently."""
    pages = RECORDS.of(env)
    reread = {d for d in env.all_docs if d not in pages} - removed - changed - added
    if removed:
        for parent, children in env.toctree_includes.items():
            if not removed.isdisjoint(children):
                reread.add(parent)
        for docname, (_toctrees, xrefs) in pages.items():
            if any(x[0] == "doc" and x[1] == "myst" and x[2] in removed for x in xrefs):
                reread.add(docname)
    if added:
        for docname, (_toctrees, xrefs) in pages.items():
            if any(x[0] == "" and x[1] == "myst" and _myst_path(env, x) in added for x in xrefs):
                reread.add(docname)
    return sorted((reread & env.found_docs) - removed)


# -- env-get-updated: the signatures ----------------------------------------------------


def _digest(value: object) -> bytes:
    return hashlib.blake2b(repr(value).encode("utf-8"), digest_size=16).digest()


def _sorted_items(mapping: dict | None) -> tuple:
    if not mapping:
        return ()
    return tuple(
        sorted(
            (
                (key, _sorted_items(value) if isinstance(value, dict) else value)
                for key, value in mapping.items()
            ),
            key=lambda item: repr(item[0]),
        )
    )


class _Facts:
    """The facts of each page, hashed once per build."""

    def __init__(self, env: BuildEnvironment, page_facts: Mapping[str, Mapping[str, bytes]]):
        self.env = env
        self.page_facts = page_facts
        self.std = env.domains.standard_domain
        self.equations: dict[str, tuple[str, int]] = env.domains.math_domain.equations
        self._memo: dict[tuple[str, str], bytes] = {}
        self._by_doc: dict[str, dict[str, list]] | None = None
        self._objects: dict[str, dict[str, set[str]]] | None = None

    def _title(self, docname: str) -> str | None:
        title = self.env.titles.get(docname)
        return None if title is None else title.pformat()

    def _memoised(self, kind: str, docname: str, facts: Any) -> bytes:
        key = (kind, docname)
        if key not in self._memo:
            self._memo[key] = _digest(facts() if docname in self.env.titles else None)
        return self._memo[key]

    def entry(self, docname: str) -> bytes:
        """A page as the last shown level of a toctree shows it: its title and number."""
        return self._memoised(
            "entry",
            docname,
            lambda: (
                self._title(docname),
                (self.env.toc_secnumbers.get(docname) or {}).get(""),
            ),
        )

    def toc(self, docname: str) -> bytes:
        """A page as a toctree shows it above its last level: its sections too."""
        tocs = self.env.tocs.get(docname)
        return self._memoised(
            "toc",
            docname,
            lambda: (
                self._title(docname),
                None if tocs is None else tocs.pformat(),
                _sorted_items(self.env.toc_secnumbers.get(docname)),
            ),
        )

    def _doc_index(self) -> dict[str, dict[str, list]]:
        if self._by_doc is None:
            by_doc: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
            for name, (docname, labelid, sectname) in self.std.labels.items():
                by_doc[docname]["labels"].append((name, labelid, sectname))
            for name, (docname, labelid) in self.std.anonlabels.items():
                by_doc[docname]["anonlabels"].append((name, labelid))
            for name, (docname, number) in self.equations.items():
                by_doc[docname]["equations"].append((name, number))
            self._by_doc = by_doc
        return self._by_doc

    def target(self, docname: str) -> bytes:
        """A page as a reference to it, or into it, shows it."""

        def facts() -> tuple:
            index = self._doc_index().get(docname, {})
            slugs = (self.env.metadata.get(docname) or {}).get("myst_slugs") or {}
            return (
                self._title(docname),
                _sorted_items(self.env.toc_secnumbers.get(docname)),
                _sorted_items(self.env.toc_fignumbers.get(docname)),
                tuple(sorted(index.get("labels", ()))),
                tuple(sorted(index.get("anonlabels", ()))),
                tuple(sorted(index.get("equations", ()))),
                tuple(sorted((slug, tuple(entry)[1:]) for slug, entry in slugs.items())),
                _sorted_items(dict(self.page_facts.get(docname) or {})),
            )

        return self._memoised("target", docname, facts)

    # -- where a cross-reference leads ------------------------------------------------

    def _object_index(self) -> dict[str, dict[str, set[str]]]:
        """Every domain's objects (``get_objects``): domain -> name -> pages."""
        if self._objects is None:
            objects: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
            for domain in self.env.domains.values():
                try:
                    found = list(domain.get_objects())
                except Exception:  # a domain that cannot list its objects
                    continue
                for name, _dispname, objtype, docname, _anchor, _priority in found:
                    if domain.name == "std" and objtype in {"doc", "label"}:
                        continue  # looked up as pages and labels
                    objects[domain.name][name].add(docname)
                    if domain.name == "std":
                        objects[domain.name][name.lower()].add(docname)
            self._objects = objects
        return self._objects

    def _objects_named(self, domain: str | None, target: str) -> set[str]:
        index = self._object_index()
        domains = [index.get(domain, {})] if domain else list(index.values())
        target = target.lstrip(".~")
        found: set[str] = set()
        for names in domains:
            found |= names.get(target, set()) | names.get(target.lower(), set())
            if not found and domain not in (None, "std"):
                suffix = "." + target
                for name, docnames in names.items():
                    if name.endswith(suffix):
                        found |= docnames
        return found

    def _label_pages(self, target: str) -> set[str]:
        found = set()
        for key in {target, target.lower()}:
            if key in self.std.labels:
                found.add(self.std.labels[key][0])
            if key in self.std.anonlabels:
                found.add(self.std.anonlabels[key][0])
        return found

    def _page(self, refdoc: str, target: str) -> set[str]:
        docname = docname_join(refdoc, target)
        return {docname} if docname in self.env.all_docs else set()

    def resolve(self, xref: Xref) -> tuple[set[str], set[str]]:
        """The pages whose facts the reference shows, and the pages it only links to."""
        refdomain, reftype, target, refdoc, _targetid = xref
        if refdomain == "doc" and reftype == "myst":  # MyST [text](other.md#id)
            return ({target} if target in self.env.all_docs else set()), set()
        if refdomain == "std" and reftype in {"ref", "numref"}:
            shown = self._label_pages(target)
            if reftype == "numref" and target in self.equations:
                shown.add(self.equations[target][0])
            return shown, set()
        if refdomain == "std" and reftype == "doc":
            return self._page(refdoc, target), set()
        if refdomain == "math":
            return ({self.equations[target][0]} if target in self.equations else set()), set()
        if not refdomain:  # MyST [text](#target) and the any role: every domain
            shown = self._label_pages(target) | self._page(refdoc, target)
            if target in self.equations:
                shown.add(self.equations[target][0])
            return shown, self._objects_named(None, target)
        return set(), self._objects_named(refdomain, target)


def _ancestors(relations: dict[str, list[str | None]], docname: str) -> list[str]:
    ancestors: list[str] = []
    parent = (relations.get(docname) or [None])[0]
    while parent is not None and parent not in ancestors and parent != docname:
        ancestors.append(parent)
        parent = (relations.get(parent) or [None])[0]
    return ancestors


def _toctree_facts(
    facts: _Facts, pages: dict[str, Record], docname: str
) -> Iterator[tuple[str, str, bytes]]:
    """What the visible toctrees of ``docname`` show of other pages, to their maxdepth.

    A page included at depth ``d`` shows at level ``d`` or deeper (a toctree inside
    a section goes one level further down), so counting depth by pages can only
    show more of them than Sphinx's pruning keeps.
    """
    for maxdepth, titlesonly, includehidden, hidden, included in pages[docname][0]:
        if hidden:
            continue
        seen = {docname}
        todo = [(child, 1) for child in reversed(included)]
        while todo:
            child, depth = todo.pop()
            if child in seen:
                continue
            seen.add(child)
            last = maxdepth > 0 and depth >= maxdepth
            yield ("toc", child, facts.entry(child) if last or titlesonly else facts.toc(child))
            if last:
                continue
            if child in pages:
                subtrees = [sub[4] for sub in pages[child][0] if includehidden or not sub[3]]
            else:  # read without a record: every toctree counts
                subtrees = [tuple(facts.env.toctree_includes.get(child, ()))]
            todo.extend(
                (grandchild, depth + 1)
                for sub in reversed(subtrees)
                for grandchild in reversed(sub)
            )


def _relations(env: BuildEnvironment) -> dict[str, list[str | None]]:
    """Sphinx's relations (previous, next, parent), without its warnings: the
    builder computes them again, and warns, when it writes."""
    try:
        with logging.suppress_logging():
            return env.collect_relations()
    except (RecursionError, StopIteration, KeyError):  # left to the builder to report
        return {}


def _uses_breadcrumbs(app: Sphinx) -> bool:
    """Whether pages show their ancestors' titles: Sphinx's basic themes do, and ours
    does above the title block of pages deeper than one level (``breadcrumbs``)."""
    return True


def signatures(
    app: Sphinx, env: BuildEnvironment, page_facts: Mapping[str, Mapping[str, bytes]]
) -> dict[str, SphinxFacts]:
    """What every page shows of other pages through Sphinx, a digest per kind;
    ``page_facts``: what features noted of each page (:mod:`.registry`)."""
    pages = RECORDS.of(env)
    facts = _Facts(env, page_facts)
    html = getattr(app.builder, "format", None) == "html"
    relations = _relations(env) if html else {}
    breadcrumbs = html and _uses_breadcrumbs(app)
    result: dict[str, SphinxFacts] = {}
    for docname in sorted(env.found_docs & env.all_docs.keys()):
        place: tuple = ()
        toctrees: list[object] = []
        references: list[object] = []
        related = relations.get(docname)
        if related:
            _parent, previous, following = related
            ancestors = _ancestors(relations, docname)
            place = (
                previous,
                following,
                *(None if d is None else facts.entry(d) for d in (previous, following)),
                tuple(ancestors),
                tuple(facts.entry(d) for d in ancestors) if breadcrumbs else (),
            )
        if docname in pages:
            toctrees.extend(_toctree_facts(facts, pages, docname))
            for xref in pages[docname][1]:
                through, linked = facts.resolve(xref)
                references.append(
                    (
                        "xref",
                        xref,
                        tuple(sorted(through)),
                        tuple(facts.target(d) for d in sorted(through) if d != docname),
                        tuple(sorted(linked)),
                    )
                )
        result[docname] = SphinxFacts(_digest(place), _digest(toctrees), _digest(references))
    return result


def drop_stale_section_numbers(env: BuildEnvironment) -> None:
    """Forget the section numbers of pages no numbered toctree includes any more.

    Sphinx's TocTreeCollector writes each number into the page's title
    (``env.titles``) and its table of contents (``env.tocs``) as a ``secnumber``
    attribute, and only for the pages it numbers: when ``:numbered:`` is removed,
    the pages that are not read again keep their old numbers, shown in their own
    heading, their neighbours' links and every toctree. A fresh read has no such
    attribute; every page it numbered has one on its title (``None`` when only
    its sections are numbered).
    """
    for docname, title in env.titles.items():
        if "secnumber" not in title or docname in env.toc_secnumbers:
            continue
        del title["secnumber"]
        toc = env.tocs.get(docname)
        if toc is not None:
            for reference in toc.findall(nodes.reference):
                if "secnumber" in reference:
                    del reference["secnumber"]
