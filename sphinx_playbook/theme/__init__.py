"""The ``sphinx_playbook`` HTML theme: registration and the page context it reads.

Templates live in ``theme/sphinx_playbook/``. This module gives them what
pydata-sphinx-theme does not: the title block and byline data, the inline
icons, and per-page pruning of assets a page does not use.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.dates import format_date
from docutils import nodes
from markupsafe import Markup, escape
from pygments.formatters import HtmlFormatter
from pygments.styles import get_style_by_name
from pygments.util import ClassNotFound
from sphinx import addnodes
from sphinx.application import Sphinx

from ..citations.collect import cited_page
from ..diagnostics import PlaybookWarning, warn
from ..metadata import ArticleMetadata, page_metadata
from ..scholarly import head_tags
from .icons import icon_svg
from .page_toc import page_toc_html

THEME_NAME = "sphinx_playbook"
THEME_DIR = Path(__file__).parent / THEME_NAME
#: Builders that write one page per document with this theme's layout.html;
#: singlehtml joins documents and epub uses its own templates.
ARTICLE_BUILDERS = ("html", "dirhtml")

# Assets that extensions add to every page but that only some pages use, keyed by
# the node class prefix whose presence in the page means "used".
_PAGE_SPECIFIC_ASSETS = {
    "sd-": ("sphinx-design.min.css", "design-tabs.js"),
}


def uses_playbook_theme(app: Sphinx) -> bool:
    """True when the HTML theme is this one or inherits from it."""
    theme = getattr(app.builder, "theme", None)
    if theme is None:
        return False
    dirs = getattr(theme, "_dirs", None) or getattr(theme, "themedirs", ())
    return any(Path(d).resolve() == THEME_DIR.resolve() for d in dirs)


@dataclass(frozen=True)
class _Date:
    iso: str
    text: str


def _formatted_date(value: dt.date, language: str) -> str:
    try:
        return format_date(value, format="medium", locale=language or "en")
    except Exception:  # an unknown locale name: fall back to English
        return format_date(value, format="medium", locale="en")


def _date(value: Any, language: str, known: Mapping[tuple[str, str], str]) -> _Date | None:
    if value is None:
        return None
    iso = value.isoformat()
    text = known.get((iso, language)) or _formatted_date(value, language)
    return _Date(iso=iso, text=text)


#: The environment's dates as the byline shows them, by (ISO date, language).
_FORMATTED_DATES = "playbook_formatted_dates"


def _format_dates(app: Sphinx, env: Any) -> list[str]:
    """Format each new date of the site once, before the environment is pickled.

    Babel loads its locale data (about 10 ms) the first time it formats a date:
    a rebuild that changes no date then never loads it.
    """
    known = getattr(env, _FORMATTED_DATES, None)
    if not isinstance(known, dict):
        known = {}
        setattr(env, _FORMATTED_DATES, known)
    language = app.config.language
    pages = [getattr(env, "playbook_default_metadata", ArticleMetadata())]
    pages += [page_metadata(env, docname) for docname in env.all_docs]
    for meta in pages:
        for value in (meta.published, meta.updated):
            if value is not None and (value.isoformat(), language) not in known:
                known[value.isoformat(), language] = _formatted_date(value, language)
    return []


def byline_context(
    meta: ArticleMetadata, language: str, known_dates: Mapping[tuple[str, str], str] | None = None
) -> dict[str, Any]:
    """Plain data for components/byline.html (strings are escaped there);
    ``known_dates`` are those :func:`_format_dates` formatted already."""
    affiliations = list(meta.affiliations or ())
    index = {}
    for number, affiliation in enumerate(affiliations, start=1):
        index.setdefault(affiliation.key, number)
        index.setdefault(affiliation.name, number)
    authors = []
    for author in meta.authors or ():
        marks = sorted({index[a] for a in author.affiliations if a in index})
        authors.append(
            {
                "name": author.name,
                "url": author.url,
                "orcid": author.orcid,
                "orcid_url": f"https://orcid.org/{author.orcid}" if author.orcid else None,
                "marks": marks,
            }
        )
    distinct_sets = {tuple(a["marks"]) for a in authors}
    return {
        "description": meta.description,
        "authors": authors,
        "affiliations": [
            {"name": a.name, "url": a.url, "mark": n} for n, a in enumerate(affiliations, start=1)
        ],
        "show_marks": len(affiliations) > 1 and len(distinct_sets) > 1,
        "published": _date(meta.published, language, known_dates or {}),
        "updated": _date(meta.updated, language, known_dates or {}),
        "doi": {"text": meta.doi, "url": f"https://doi.org/{meta.doi}"} if meta.doi else None,
    }


def reference_tags(app: Sphinx, docname: str) -> list[str]:
    """Google Scholar's ``citation_reference`` for each entry the page cites."""
    page = cited_page(app.env, docname)
    if page is None:
        return []
    tags = []
    for key in page.keys:
        reference = page.references[key]
        parts = [f"citation_title={reference.title}"]
        parts += [f"citation_author={a.last}, {a.first}" for a in reference.authors[:20]]
        if reference.year:
            parts.append(f"citation_publication_date={reference.year}")
        if reference.venue:
            parts.append(f"citation_journal_title={reference.venue}")
        tags.append(";".join(parts))
    return tags


def _has_class_prefix(doctree: nodes.document, prefix: str) -> bool:
    return any(
        any(c.startswith(prefix) for c in node.get("classes", ()))
        for node in doctree.findall(nodes.Element)
    )


def _prune_unused_assets(context: dict[str, Any], doctree: nodes.document | None) -> None:
    for prefix, filenames in _PAGE_SPECIFIC_ASSETS.items():
        if doctree is not None and _has_class_prefix(doctree, prefix):
            continue
        for key in ("css_files", "script_files"):
            assets = context.get(key)
            if assets is None:
                continue
            assets[:] = [
                a for a in assets if Path(str(getattr(a, "filename", a))).name not in filenames
            ]


def _on_builder_inited(app: Sphinx) -> None:
    article_layout = uses_playbook_theme(app) and app.builder.name in ARTICLE_BUILDERS
    app.env.playbook_article_layout = article_layout
    app.env.playbook_theme = uses_playbook_theme(app)
    if uses_playbook_theme(app):
        _take_over_pygments_css(app)


def _take_over_pygments_css(app: Sphinx) -> None:
    """pydata-sphinx-theme's pygments.css is replaced by ours (:func:`_write_pygments_css`):
    its handler need not write it first, importing every Pygments style to check two
    names (about a hundredth of a second at the end of each build)."""
    for listener in list(app.events.listeners.get("build-finished", [])):
        handler = listener.handler
        if (
            getattr(handler, "__module__", None) == "pydata_sphinx_theme.pygments"
            and getattr(handler, "__name__", None) == "overwrite_pygments_css"
        ):
            app.disconnect(listener.id)


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


def _collect_chapters(app: Sphinx, env: Any) -> list[str]:
    """The root page's toctrees, as (caption, [(title, docname or URL)]), once per build.

    Sphinx's ``toctree()`` copies the table of contents of every chapter for each
    page it is called on: O(pages²), 2,400 copies for a 49-page book.

    Every page shows this menu: when it changed (a chapter renamed, added or
    moved), every page is written again, not only the root page Sphinx rewrites.
    """
    before = getattr(env, "playbook_chapters", None)
    groups = []
    if env.config.root_doc in env.all_docs:
        for toctree in env.master_doctree.findall(addnodes.toctree):
            entries = []
            for title, ref in toctree["entries"]:
                if ref in env.titles:
                    entries.append((title or env.titles[ref].astext(), ref))
                elif "://" in ref:
                    entries.append((title or ref, ref))
            groups.append((toctree.get("caption") or "", entries))
    env.playbook_chapters = groups
    if before is not None and before != groups:
        return sorted(env.found_docs)
    return []


def chapter_groups(app: Sphinx, pagename: str, pathto: Any) -> list[ChapterGroup]:
    """The chapters menu from ``pagename``: a chapter is current on itself and its sub-pages."""
    parents = {
        child: parent
        for parent, children in app.env.toctree_includes.items()
        for child in children
    }
    ancestors, node = {pagename}, pagename
    while node in parents and parents[node] not in ancestors:
        node = parents[node]
        ancestors.add(node)
    groups = []
    for caption, entries in getattr(app.env, "playbook_chapters", []):
        links = [
            ChapterLink(title, ref, False, False, True)
            if "://" in ref
            else ChapterLink(title, pathto(ref), ref in ancestors, ref == pagename, False)
            for title, ref in entries
        ]
        if links:
            groups.append(ChapterGroup(caption, links))
    return groups


def _on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if not uses_playbook_theme(app):
        return
    context["playbook_icon"] = icon_svg
    # singlehtml leaves docstitle unset; the header's logo text falls back to it.
    context["docstitle"] = context.get("docstitle") or app.config.html_title
    root_title = app.env.titles.get(app.config.root_doc)
    context["playbook_root_title"] = root_title.astext() if root_title else app.config.project
    if "pathto" in context:
        context["playbook_chapters"] = chapter_groups(app, pagename, context["pathto"])
    _prune_unused_assets(context, doctree)
    if app.builder.name in ARTICLE_BUILDERS:
        context["playbook_page_toc"] = lambda: page_toc_html(app.builder, pagename)
    defaults = getattr(app.env, "playbook_default_metadata", ArticleMetadata())
    if doctree is None or pagename not in app.env.all_docs:
        context["playbook_title"] = None
        context["playbook_article"] = byline_context(ArticleMetadata(), app.config.language)
        return
    meta = page_metadata(app.env, pagename).with_defaults(defaults)
    known_dates = getattr(app.env, _FORMATTED_DATES, {})
    context["playbook_article"] = byline_context(meta, app.config.language, known_dates)
    context["playbook_meta_tags"] = Markup(head_tags(app, pagename, reference_tags(app, pagename)))
    if not getattr(app.env, "playbook_article_layout", False):
        context["playbook_title"] = None  # the body keeps its own first heading
    elif meta.title and page_metadata(app.env, pagename).title:
        context["playbook_title"] = escape(meta.title)
    elif doctree.get("playbook_title_lifted"):
        context["playbook_title"] = Markup(context.get("title", ""))
    else:
        context["playbook_title"] = None


def _on_config_inited(app: Sphinx, config: Any) -> None:
    """Let this theme's components win over pydata-sphinx-theme's of the same name.

    pydata-sphinx-theme resolves the names in its ``navbar_*`` and ``footer_*``
    options through ``templates_path``, where it adds its components folder; ours
    go just before it, and only when this theme is the one in use.
    """
    if config.html_theme != THEME_NAME:
        return
    # A list of this build's own: where conf.py sets none, the value is Sphinx's
    # default list, shared by every build in the process, which pydata-sphinx-theme
    # appends to; a second build in the process then had a new configuration
    # (and wrote every page again).
    config.templates_path = [*config.templates_path]
    ours = str(THEME_DIR / "components")
    if ours in config.templates_path:
        return
    pydata = [i for i, p in enumerate(config.templates_path) if "pydata_sphinx_theme" in str(p)]
    config.templates_path.insert(pydata[0] if pydata else len(config.templates_path), ours)


def pygments_css(light_style: str, dark_style: str) -> str:
    """Highlighting for both modes, following the reader's system without JavaScript.

    pydata-sphinx-theme scopes both styles to ``html[data-theme=...]``, which only
    its script sets; here the light style is the default, and the dark one applies
    when the reader chose dark, or has no choice stored and a dark system.
    """
    light = HtmlFormatter(style=light_style).get_style_defs(".highlight")
    dark = HtmlFormatter(style=dark_style)
    chosen_dark = dark.get_style_defs('html[data-theme="dark"] .highlight')
    # No choice stored (no JavaScript), or pydata's default_mode "auto".
    system_dark = dark.get_style_defs(
        'html:not([data-theme="light"], [data-theme="dark"]) .highlight'
    )
    return f"{light}\n{chosen_dark}\n@media (prefers-color-scheme: dark) {{\n{system_dark}\n}}\n"


def _write_pygments_css(app: Sphinx, exception: Exception | None) -> None:
    """Replace the pygments.css written by Sphinx and pydata-sphinx-theme."""
    if exception is not None or not uses_playbook_theme(app):
        return
    chosen = getattr(app.builder, "theme_options", None) or {}
    defaults = app.builder.theme.get_options()

    def option(key: str, fallback: str) -> str:
        return chosen.get(key) or defaults.get(key) or fallback

    css = pygments_css(
        _pygments_style(option("pygments_light_style", LIGHT_STYLE), LIGHT_STYLE, "light"),
        _pygments_style(option("pygments_dark_style", DARK_STYLE), DARK_STYLE, "dark"),
    )
    static = Path(app.builder.outdir, "_static")
    static.mkdir(parents=True, exist_ok=True)
    (static / "pygments.css").write_text(css, encoding="utf-8")


#: The highlighting styles of pydata-sphinx-theme's theme.conf, which ours inherits.
LIGHT_STYLE, DARK_STYLE = "a11y-high-contrast-light", "a11y-high-contrast-dark"


def _pygments_style(name: str, fallback: str, mode: str) -> str:
    """``name`` if Pygments knows it, else the default, with a warning."""
    try:
        get_style_by_name(name)
    except ClassNotFound:
        warn(
            f"html_theme_options: pygments_{mode}_style {name!r} is not a Pygments style; "
            f"code is highlighted with {fallback!r}",
            PlaybookWarning.CONFIG,
        )
        return fallback
    return name


def setup_theme(app: Sphinx, *, config_inited: bool) -> None:
    """Register the theme and its page-context hook."""
    app.add_html_theme(THEME_NAME, str(THEME_DIR))
    if config_inited:
        _on_config_inited(app, app.config)
    else:
        app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("html-page-context", _on_html_page_context)
    app.connect("env-updated", _collect_chapters)
    app.connect("env-updated", _format_dates)
    # After pydata-sphinx-theme's own build-finished handler, which writes the file too.
    app.connect("build-finished", _write_pygments_css, priority=900)
