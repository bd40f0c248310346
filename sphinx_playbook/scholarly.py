"""How an article is cited and indexed: the "cite this article" text and BibTeX,
Google Scholar's ``citation_*`` tags, Open Graph and Twitter cards.

Everything here is plain data computed from :class:`ArticleMetadata`; the
appendix (``appendix.py``) and the page's ``<head>`` (``theme``) render it.
"""

from __future__ import annotations

import codecs
import posixpath
import re
from dataclasses import dataclass, replace
from html import escape
from typing import TYPE_CHECKING, cast
from urllib.parse import quote, urljoin

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.util.osutil import relative_uri

from .machinery.state import builder_of
from .metadata import DEFAULT_METADATA, ArticleMetadata, Author, is_local, page_metadata
from .other_extensions import left_to_another
from .pdf_links import pdf_link
from .urls import page_url

if TYPE_CHECKING:
    # pybtex and latexcodec are imported by the functions that use them: a
    # preview's one-page rebuild of a page without authors does not load them.
    from pybtex.database import Person

_WORD = re.compile(r"[A-Za-z0-9]+")
_STOP_WORDS = frozenset({"a", "an", "the", "on", "of", "in", "for", "and", "to"})
#: What BibTeX calls a name's "Jr" part, recognised after the family name.
_LINEAGE = frozenset({"Jr", "Jr.", "Sr", "Sr.", "II", "III", "IV"})
_PARTS = ("first", "middle", "prelast", "last", "lineage")


@dataclass(frozen=True)
class PersonName:
    """An author's name read once: as BibTeX must read it, and as it is cited."""

    #: The parts BibTeX gets (pybtex's reading of what is written in the entry).
    bibtex: Person
    #: The parts the short citation and Google Scholar use: the same, except for
    #: a name with a title after a comma, whose title they leave out.
    cited: Person


def read_name(name: str) -> PersonName:
    """How a name as written in front matter is split, with pybtex's own parser.

    - ``Ada Lovelace``, ``Ludwig van Beethoven``: First von Last, BibTeX's reading;
    - ``Martin Luther King Jr.`` or ``Martin Luther King, Jr.``: the same, with the
      last word a lineage (Jr., Sr., II, III, IV);
    - ``Tazi, Nouamane``, ``van Rossum, Guido``, ``King, Jr., Martin Luther``: a
      comma after a family name (a part with no first name in BibTeX's reading);
    - any other comma follows a full name: ``Ada Lovelace, Countess of Lovelace``,
      ``Jane Doe, PhD``. What comes after it is a title, not a first name: the
      whole name is one braced token in the BibTeX, so no style splits it, and
      citations name the person before the comma (Lovelace).
    """
    from pybtex.bibtex.utils import split_tex_string
    from pybtex.database import Person

    name = _balanced(name)
    parts = split_tex_string(name, ",")
    before = Person(parts[0] if parts else "")
    if len(parts) <= 1:
        words = split_tex_string(name)
        if len(words) > 1 and words[-1] in _LINEAGE:
            person = _with_lineage(Person(" ".join(words[:-1])), words[-1])
        else:
            person = before
    elif len(parts) == 2 and parts[1] in _LINEAGE:
        person = _with_lineage(before, parts[1])
    elif not before.first_names and (len(parts) == 2 or parts[1] in _LINEAGE):
        person = Person(name)
    else:
        return PersonName(bibtex=Person(last=f"{{{name}}}"), cited=before)
    if not any(getattr(person, f"{part}_names") for part in _PARTS):
        # No word BibTeX calls a name ("~", ","): kept, braced, so the field holds.
        return PersonName(bibtex=Person(last=f"{{{name}}}"), cited=person)
    return PersonName(bibtex=person, cited=person)


def _balanced(name: str) -> str:
    """The name, without its braces unless they pair up (BibTeX's grouping: a
    stray one would end the field; pybtex's ``check_braces`` misses a "}" first)."""
    depth = 0
    for char in name:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            break
    return name if depth == 0 else name.replace("{", "").replace("}", "")


def _with_lineage(person: Person, lineage: str) -> Person:
    from pybtex.database import Person

    parts = {part: " ".join(getattr(person, f"{part}_names")) for part in _PARTS[:-1]}
    return Person(**parts, lineage=lineage)


def _plain(names: list[str]) -> str:
    """Name words as a reader sees them: BibTeX's grouping braces are not shown."""
    return " ".join(names).replace("{", "").replace("}", "")


def bibtex_name(author: Author) -> str:
    """One person of a BibTeX ``author`` field, as pybtex's writer formats it:
    ``von Last, Jr, First``, each word encoded with the writer's codec (``\\_``,
    ``\\&``...), braced when BibTeX would split it (a group's name, a title)."""
    from pybtex.database import Person

    if author.organization:
        person = Person(last=f"{{{_balanced(author.name)}}}")
    else:
        person = read_name(author.name).bibtex
    encoded = {
        part: " ".join(_bibtex_word(word) for word in getattr(person, f"{part}_names"))
        for part in _PARTS
    }
    return str(Person(**encoded))


def _bibtex_word(word: str) -> str:
    import latexcodec  # noqa: F401  (registers "ulatex", the codec pybtex's BibTeX writer uses)
    from pybtex.bibtex.utils import split_tex_string

    text = cast(str, codecs.encode(word, "ulatex+utf8"))
    # "and" separates people; a space (from an encoded "~") separates words.
    if text.lower() == "and" or len(split_tex_string(text)) > 1:
        return f"{{{text}}}"
    return text


def family_name(author: Author) -> str:
    """What a short citation names: the last name, or a group's whole name."""
    if author.organization:
        return author.name
    return _plain(read_name(author.name).cited.last_names) or author.name


def scholar_name(author: Author) -> str:
    """Google Scholar's ``von Last, First`` (``, Jr.`` after); a group's name as written."""
    if author.organization:
        return author.name
    person = read_name(author.name).cited
    last = _plain(person.prelast_names + person.last_names)
    names = [last, _plain(person.first_names + person.middle_names)]
    names.append(_plain(person.lineage_names))
    return ", ".join(part for part in names if part) or author.name


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
        """A ``@misc`` entry; the people written by pybtex, read back the same."""
        lines = [f"@misc{{{self.key},", f"  title = {{{_bib(self.title)}}},"]
        if self.authors:
            people = " and ".join(bibtex_name(author) for author in self.authors)
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
    meta = page_metadata(env, docname)
    if meta.pdf is None:  # a page's own pdf key wins; then its generated PDF
        meta = replace(meta, pdf=pdf_link(env, docname))
    return meta.with_defaults(defaults)


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
        if meta.pdf:
            tags.append(("name", "citation_pdf_url", urljoin(url, meta.pdf) if url else meta.pdf))
        tags.extend(("name", "citation_reference", ref) for ref in reference_tags)
    if title and meta.description:
        tags.append(("name", "description", meta.description))
    if title and not left_to_another(env, "sphinxext.opengraph"):
        tags.append(("property", "og:type", "article"))
        tags.append(("property", "og:title", title))
        if meta.description:
            tags.append(("property", "og:description", meta.description))
        if url:
            tags.append(("property", "og:url", url))
        image = thumbnail_url(app.builder, docname, meta.thumbnail)
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


def thumbnail_url(builder: Builder, docname: str, thumbnail: str | None) -> str | None:
    """Where the page's thumbnail is: an external URL as given; a local image where
    Sphinx copied it (``metadata.CopyThumbnail``), under ``html_baseurl`` when it is
    set (Open Graph wants an absolute URL), else relative to the page; None when
    there is no image to show."""
    if not thumbnail:
        return None
    if not is_local(thumbnail):
        return thumbnail
    name = builder.images.get(thumbnail)
    if name is None:
        return None  # the file is missing, or this builder copies no images
    path = posixpath.join(builder.imagedir, quote(name))
    base = builder.config.html_baseurl
    if base:
        return posixpath.join(base, path)
    return relative_uri(builder.get_target_uri(docname), path)
