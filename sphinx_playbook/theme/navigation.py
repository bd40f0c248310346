"""What every page shows of the book: the chapters menu, and its previous and next pages.

Sphinx's ``toctree()`` copies the table of contents of every chapter for each
page it is called on: O(pages²), 2,400 copies for a 49-page book. Here the root
page's toctrees are noted when the page is read (``doctree-read``, kept per page
by :class:`PageStore` through ``env-purge-doc`` and ``env-merge-info``) and the
menu is built from them and ``env.titles`` at ``env-updated``, once per build.

Sphinx rewrites a page when its source changes, and the pages whose toctree
lists it; here the menu (shown by every page) and each page's navigation (its
current chapter, its previous and next pages and their titles) are noted in the
build's registry of what pages show (:mod:`..machinery.registry`, kinds
``chapters`` and ``navigation``), which writes again the pages whose navigation
changed since the same builder last wrote them: every page when the menu did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ..machinery.registry import Shown, note_shown, note_shown_by
from ..machinery.state import PageStore, SiteValue
from .registration import uses_playbook_theme

#: One toctree of a page: (caption, ((explicit title or None, docname or URL), ...)).
Toctree = tuple[str, tuple[tuple[str | None, str], ...]]

#: Each page's toctrees, noted only for the root page.
ROOT_TOCTREES: PageStore[tuple[Toctree, ...]] = PageStore("root_toctrees")


@dataclass(frozen=True)
class ChaptersMenu:
    """The root page's title and its toctrees' entries, titled."""

    root_title: str
    groups: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # (caption, ((title, ref), ...))


@dataclass(frozen=True)
class PageNavigation:
    """What one page shows of the book besides the menu."""

    chapters: frozenset[str]  # the menu's entries the page is, or is under
    previous: tuple[str, str] | None  # (docname, title as pseudo-XML)
    next: tuple[str, str] | None


@dataclass(frozen=True)
class ChapterLink:
    title: str
    href: str
    current: bool  # the page itself, or the chapter it belongs to
    here: bool  # the page itself
    external: bool


@dataclass(frozen=True)
class ChapterGroup:
    caption: str
    links: list[ChapterLink]


#: This build's menu and each page's navigation, as the pages are written.
MENU: SiteValue[ChaptersMenu | None] = SiteValue("chapters_menu", lambda: None)
NAVIGATION: SiteValue[dict[str, PageNavigation]] = SiteValue("page_navigation", dict)


def _toctrees(doctree: nodes.document) -> tuple[Toctree, ...]:
    return tuple(
        (toctree.get("caption") or "", tuple((title, ref) for title, ref in toctree["entries"]))
        for toctree in doctree.findall(addnodes.toctree)
    )


def note_root_toctrees(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the root page's toctrees, as its source gives them."""
    if app.env.docname == app.config.root_doc:
        ROOT_TOCTREES.of(app.env)[app.env.docname] = _toctrees(doctree)


def _root_toctrees(env: BuildEnvironment) -> tuple[Toctree, ...]:
    root, noted = env.config.root_doc, ROOT_TOCTREES.of(env)
    if root not in noted and root in env.all_docs:
        # An environment pickled before the toctrees were noted: read the root
        # page's doctree once, from the file its last reading wrote.
        noted[root] = _toctrees(env.get_doctree(root))
    return noted.get(root, ())


def chapters_menu(env: BuildEnvironment) -> ChaptersMenu:
    """The menu from the root page's toctrees and the titles of the pages they list."""
    root = env.config.root_doc
    groups = []
    for caption, entries in _root_toctrees(env):
        titled = []
        for title, ref in entries:
            if ref in env.titles:
                titled.append((title or env.titles[ref].astext(), ref))
            elif "://" in ref:
                titled.append((title or ref, ref))
        groups.append((caption, tuple(titled)))
    root_title = env.titles.get(root)
    return ChaptersMenu(
        root_title=root_title.astext() if root_title is not None else env.config.project,
        groups=tuple(groups),
    )


def _parents(env: BuildEnvironment) -> dict[str, str]:
    """Each page's parent in the toctrees; by sorted parent, as Sphinx sorts them
    before writing, so a page listed twice has the same parent in every build."""
    return {
        child: parent
        for parent, children in sorted(env.toctree_includes.items())
        for child in children
    }


def _menu_refs(menu: ChaptersMenu) -> frozenset[str]:
    return frozenset(ref for _caption, entries in menu.groups for _title, ref in entries)


def _chapters_of(pagename: str, parents: Mapping[str, str], refs: frozenset[str]) -> frozenset[str]:
    """The menu's entries (``refs``) that are ``pagename`` or one of its toctree ancestors."""
    ancestors, node = {pagename}, pagename
    while node in parents and parents[node] not in ancestors:
        node = parents[node]
        ancestors.add(node)
    return refs & ancestors


def pages_navigation(env: BuildEnvironment, menu: ChaptersMenu) -> dict[str, PageNavigation]:
    """Each page's navigation, from the toctrees (``env.collect_relations()``) and titles."""
    parents, refs = _parents(env), _menu_refs(menu)
    relations = env.collect_relations() if env.config.root_doc in env.all_docs else {}
    titles: dict[str, str] = {}

    def neighbour(docname: str | None) -> tuple[str, str] | None:
        if docname is None:
            return None
        if docname not in titles:
            title = env.titles.get(docname)
            titles[docname] = title.pformat() if title is not None else ""
        return docname, titles[docname]

    navigation = {}
    for docname in env.all_docs:
        _parent, previous, following = relations.get(docname, (None, None, None))
        navigation[docname] = PageNavigation(
            _chapters_of(docname, parents, refs), neighbour(previous), neighbour(following)
        )
    return navigation


def update_navigation(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: this build's menu and navigation, noted in the registry (the
    pages to write again are its to find)."""
    menu = chapters_menu(env)
    pages = pages_navigation(env, menu)
    MENU.set(env, menu)
    NAVIGATION.set(env, pages)
    note_shown_by(env, Shown.CHAPTERS, menu, env.all_docs)
    note_shown(env, Shown.NAVIGATION, pages)
    return []


def chapter_groups(app: Sphinx, pagename: str, pathto: Callable[..., str]) -> list[ChapterGroup]:
    """The chapters menu from ``pagename``: a chapter is current on itself and its sub-pages."""
    menu = _menu(app.env)
    noted = NAVIGATION.get(app.env).get(pagename)
    if noted is not None:
        chapters = noted.chapters
    else:  # a page of no document (search, genindex), or one added by an extension
        chapters = _chapters_of(pagename, _parents(app.env), _menu_refs(menu))
    groups = []
    for caption, entries in menu.groups:
        links = [
            ChapterLink(title, ref, False, False, True)
            if "://" in ref
            else ChapterLink(title, pathto(ref), ref in chapters, ref == pagename, False)
            for title, ref in entries
        ]
        if links:
            groups.append(ChapterGroup(caption, links))
    return groups


def _menu(env: BuildEnvironment) -> ChaptersMenu:
    menu = MENU.get(env)
    return menu if menu is not None else chapters_menu(env)


def add_menu_to_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``: ``playbook_chapters`` and ``playbook_root_title``."""
    if not uses_playbook_theme(app):
        return
    context["playbook_root_title"] = _menu(app.env).root_title
    if "pathto" in context:
        context["playbook_chapters"] = chapter_groups(app, pagename, context["pathto"])
