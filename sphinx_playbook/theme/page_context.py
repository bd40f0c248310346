"""What each page's templates read: the title block, the byline, the ``<head>`` tags.

The page's metadata (``metadata.py``) merged with conf.py's defaults, its dates
formatted once per site, Google Scholar's and social tags (``scholarly.py``),
the inline icons and the article's table of contents.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from babel.dates import format_date
from markupsafe import Markup, escape
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

from ..citations.collect import cited_page
from ..machinery.state import SiteValue, build_facts
from ..metadata import DEFAULT_METADATA, ArticleMetadata, page_metadata
from ..other_extensions import left_to_another
from ..scholarly import article_metadata, head_tags
from .icons import icon_svg
from .page_toc import page_toc_html
from .registration import ARTICLE_BUILDERS, uses_playbook_theme


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


#: The site's dates as the byline shows them, by (ISO date, language).
FORMATTED_DATES: SiteValue[dict[tuple[str, str], str]] = SiteValue("formatted_dates", dict)


def format_dates(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: format each new date of the site once, before the environment
    is pickled.

    Babel loads its locale data (about 10 ms) the first time it formats a date:
    a rebuild that changes no date then never loads it.
    """
    known = FORMATTED_DATES.get(env)
    FORMATTED_DATES.set(env, known)
    language = app.config.language
    pages = [DEFAULT_METADATA.get(env)]
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
    ``known_dates`` are those :func:`format_dates` formatted already."""
    affiliations = list(meta.affiliations or ())
    index: dict[str, int] = {}
    for number, affiliation in enumerate(affiliations, start=1):
        index.setdefault(affiliation.key, number)
        index.setdefault(affiliation.name, number)
    authors: list[dict[str, Any]] = []
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
        "pdf": meta.pdf,
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


def _is_default(config: Config, name: str) -> bool:
    """Whether conf.py (or ``-D``) left ``name`` at the value Sphinx gives it."""
    default = config.values[name].default
    return bool(config[name] == (default(config) if callable(default) else default))


def untitled_site_title(app: Sphinx) -> str | None:
    """The root document's title, when conf.py sets neither ``project`` nor
    ``html_title``: the header and ``<title>`` then read it instead of Sphinx's
    "Project name not set documentation". None otherwise, or when the root
    document has no title.
    """
    config = app.config
    if not (_is_default(config, "project") and _is_default(config, "html_title")):
        return None
    title = app.env.titles.get(config.root_doc)
    text = title.astext().strip() if title is not None else ""
    return text or None


def add_article_to_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``: the title block, byline, ``<head>`` tags, icons and TOC."""
    if not uses_playbook_theme(app):
        return
    context["playbook_icon"] = icon_svg
    context["playbook_copy_buttons"] = not left_to_another(app.env, "sphinx_copybutton")
    root_title = untitled_site_title(app)
    if root_title is not None:
        context["docstitle"] = root_title
        # The root page's <title> is the site's title once, not "Title — Title".
        context["playbook_title_is_site"] = pagename == app.config.root_doc
    else:
        # singlehtml leaves docstitle unset; the header's logo text falls back to it.
        context["docstitle"] = context.get("docstitle") or app.config.html_title
    builder = app.builder
    if builder.name in ARTICLE_BUILDERS and isinstance(builder, StandaloneHTMLBuilder):
        context["playbook_page_toc"] = lambda: page_toc_html(builder, pagename)
    if doctree is None or pagename not in app.env.all_docs:
        context["playbook_title"] = None
        context["playbook_article"] = byline_context(ArticleMetadata(), app.config.language)
        return
    meta = article_metadata(app.env, pagename)  # with its generated PDF (latex/chapters.py)
    known_dates = FORMATTED_DATES.get(app.env)
    context["playbook_article"] = byline_context(meta, app.config.language, known_dates)
    context["playbook_meta_tags"] = Markup(head_tags(app, pagename, reference_tags(app, pagename)))
    if not build_facts(app.env).article_layout:
        context["playbook_title"] = None  # the body keeps its own first heading
    elif meta.title and page_metadata(app.env, pagename).title:
        context["playbook_title"] = escape(meta.title)
    elif doctree.get("playbook_title_lifted"):
        context["playbook_title"] = Markup(context.get("title", ""))
    else:
        context["playbook_title"] = None
