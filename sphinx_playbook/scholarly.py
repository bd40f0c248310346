"""How an article is cited and indexed: the "cite this article" text and BibTeX,
Google Scholar's ``citation_*`` tags, Open Graph and Twitter cards.

Everything here is plain data computed from :class:`ArticleMetadata`; the
appendix (``appendix.py``) and the page's ``<head>`` (``theme``) render it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from .build.state import builder_of
from .metadata import DEFAULT_METADATA, ArticleMetadata, Author, page_metadata
from .urls import page_url

_WORD = re.compile(r"[A-Za-z0-9]+")
_STOP_WORDS = frozenset({"a", "an", "the", "on", "of", "in", "for", "and", "to"})


def split_name(name: str) -> tuple[str, str]:
    """(first, last): ``"Tazi, Nouamane"`` and ``"Nouamane Tazi"`` both give Tazi as last."""
    if "," in name:
        last, first = (part.strip() for part in name.split(",", 1))
        return first, last
    parts = name.split()
    return " ".join(parts[:-1]), parts[-1] if parts else name


def family_name(author: Author) -> str:
    """What a short citation names: the last name, or a group's whole name."""
    return author.name if author.organization else split_name(author.name)[1]


def scholar_name(author: Author) -> str:
    """Google Scholar's ``Last, First``; a group's name as written."""
    if author.organization:
        return author.name
    first, last = split_name(author.name)
    return f"{last}, {first}" if first else last


@dataclass(frozen=True)
class ArticleCitation:
    """What a reader needs to cite the page."""

    title: str
    authors: tuple[Author, ...]
    year: str
    url: str
    doi: str | None

    @property
    def key(self) -> str:
        """``tazi2025ultrascale``: first author's last name, year, first word of the title."""
        if not self.authors:
            name = "article"
        elif self.authors[0].organization:  # "The sphinx_playbook developers": sphinx
            name = _first_word(self.authors[0].name)
        else:  # O'Brien: obrien
            name = "".join(_WORD.findall(family_name(self.authors[0]))).lower()
        return name + self.year + _first_word(self.title)

    def short(self) -> str:
        """``Tazi, et al., "The Ultra-Scale Playbook", 2025.`` as Distill writes it."""
        if not self.authors:
            names = ""
        else:
            first = family_name(self.authors[0])
            if len(self.authors) == 1:
                names = f"{first}, "
            elif len(self.authors) == 2:
                names = f"{first} & {family_name(self.authors[1])}, "
            else:
                names = f"{first}, et al., "
        return f'{names}"{self.title}", {self.year}.'

    def bibtex(self) -> str:
        lines = [f"@misc{{{self.key},", f"  title = {{{_bib(self.title)}}},"]
        if self.authors:
            # A group in braces: BibTeX then never reads it as "First von Last".
            people = " and ".join(
                f"{{{_bib(a.name)}}}" if a.organization else _bib(scholar_name(a))
                for a in self.authors
            )
            lines.append(f"  author = {{{people}}},")
        lines.append(f"  year = {{{self.year}}},")
        if self.url:
            lines.append(f"  url = {{{self.url}}},")
        if self.doi:
            lines.append(f"  doi = {{{self.doi}}},")
        lines[-1] = lines[-1].rstrip(",")
        return "\n".join([*lines, "}"])


def _first_word(text: str) -> str:
    """The first word that is not a stop word, lower-cased: a part of the BibTeX key."""
    words = (word.lower() for word in _WORD.findall(text))
    return next((word for word in words if word not in _STOP_WORDS), "")


def _bib(text: str) -> str:
    """Escape BibTeX's special characters in a field value."""
    return re.sub(r"([&%$#_{}])", r"\\\1", text)


def article_url(env: BuildEnvironment, docname: str) -> str:
    """The page's absolute URL, as its canonical link gives it; '' without ``html_baseurl``."""
    builder = builder_of(env)
    return page_url(builder, docname) if builder is not None else ""


def article_metadata(env: BuildEnvironment, docname: str) -> ArticleMetadata:
    """The page's metadata with conf.py's defaults filled in."""
    defaults = DEFAULT_METADATA.get(env)
    return page_metadata(env, docname).with_defaults(defaults)


def page_title(env: BuildEnvironment, docname: str, meta: ArticleMetadata) -> str:
    if meta.title:
        return meta.title
    title = env.titles.get(docname)
    return title.astext() if title is not None else ""


def article_citation(env: BuildEnvironment, docname: str) -> ArticleCitation | None:
    """The citation of a page, when it has a published date (as Distill requires)."""
    meta = article_metadata(env, docname)
    if meta.published is None:
        return None
    return ArticleCitation(
        title=page_title(env, docname, meta),
        authors=tuple(meta.authors or ()),
        year=str(meta.published.year),
        url=article_url(env, docname),
        doi=meta.doi,
    )


def head_tags(app: Sphinx, docname: str, reference_tags: list[str]) -> str:
    """``<meta>`` tags for Google Scholar, Open Graph and Twitter, escaped."""
    env = app.env
    meta = article_metadata(env, docname)
    title = page_title(env, docname, meta)
    url = page_url(app.builder, docname)
    tags: list[tuple[str, str, str]] = []  # (attribute, name, content)
    if title and (meta.authors or meta.published):
        tags.append(("name", "citation_title", title))
        affiliations = {a.key: a.name for a in meta.affiliations or ()}
        for author in meta.authors or ():
            tags.append(("name", "citation_author", scholar_name(author)))
            for key in author.affiliations:
                tags.append(("name", "citation_author_institution", affiliations.get(key, key)))
        if meta.published:
            tags.append(("name", "citation_publication_date", meta.published.strftime("%Y/%m/%d")))
        if meta.doi:
            tags.append(("name", "citation_doi", meta.doi))
        if url:
            tags.append(("name", "citation_fulltext_html_url", url))
        tags.extend(("name", "citation_reference", ref) for ref in reference_tags)
    if title:
        tags.append(("property", "og:type", "article"))
        tags.append(("property", "og:title", title))
        if meta.description:
            tags.append(("property", "og:description", meta.description))
            tags.append(("name", "description", meta.description))
        if url:
            tags.append(("property", "og:url", url))
        image = _absolute(meta.thumbnail, env.config.html_baseurl)
        if image:
            tags.append(("property", "og:image", image))
        tags.append(("name", "twitter:card", "summary_large_image" if image else "summary"))
        tags.append(("name", "twitter:title", title))
        if meta.description:
            tags.append(("name", "twitter:description", meta.description))
        if image:
            tags.append(("name", "twitter:image", image))
    return "\n  ".join(
        f'<meta {attribute}="{escape(name)}" content="{escape(content)}"/>'
        for attribute, name, content in tags
    )


def _absolute(path: str | None, base: str) -> str | None:
    if not path:
        return None
    if "://" in path or not base:
        return path
    return base.rstrip("/") + "/" + path.lstrip("/")
