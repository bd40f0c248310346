"""Article metadata: front matter (MyST), docinfo (reST) and conf.py defaults.

MyST turns a list of author mappings into a docinfo string (JSON with smart
quotes, split on commas by docutils), so the YAML front matter is read here
from the source itself. reST documents give the same keys as docinfo fields in
simple string forms, read before docutils' DocInfo transform reshapes them.
Both become one validated :class:`ArticleMetadata` per page, stored in the
environment; conf.py defaults are merged in when a page is written.

A local ``thumbnail`` is an image of the page as far as Sphinx knows: noted in
``env.images`` and as a dependency when the page is read, handed to the HTML
builder's images when the page is written (:class:`CopyThumbnail`), so Sphinx
copies it under ``_images/``, rewrites the page when the file changes, and the
leftover sweep deletes it once no page uses it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml
from docutils import nodes
from docutils.transforms import Transform
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform

from .config import read_config
from .diagnostics import PlaybookWarning, warn
from .front_matter_keys import is_known_key, unknown_key_advice
from .machinery import priorities
from .machinery.state import PageStore, SiteValue, build_facts, builder_of
from .source_types import is_markdown_source
from .urls import is_safe_url

_DATE_FORMATS = ("%Y-%m-%d", "%b %d, %Y", "%B %d, %Y", "%d %B %Y", "%d %b %Y", "%Y/%m/%d")
_ORCID = re.compile(r"^(?:https?://orcid\.org/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/?$")
_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)?(10\.\d{4,9}/\S+)$", re.IGNORECASE)
_HTML_TAG = re.compile(r"<\s*/?\s*[a-zA-Z!][^>]*>")
# "Name <https://url> [aff-1, aff-2]": the reST simple form of one author.
_REST_AUTHOR = re.compile(
    r"^(?P<name>[^<\[]*?)\s*(?:<(?P<url>[^>]*)>)?\s*(?:\[(?P<affs>[^\]]*)\])?$"
)
_REST_ORG = re.compile(r"^(?P<name>[^<]*?)\s*(?:<(?P<url>[^>]*)>)?$")


@dataclass(frozen=True)
class Affiliation:
    """An institution; ``key`` is what authors refer to (its id, else its name)."""

    key: str
    name: str
    url: str | None = None


@dataclass(frozen=True)
class Author:
    """One author; ``affiliations`` holds affiliation keys."""

    name: str
    url: str | None = None
    orcid: str | None = None
    affiliations: tuple[str, ...] = ()
    #: A group ("The sphinx_playbook developers"): cited as written, never as "Last, First".
    organization: bool = False


@dataclass(frozen=True)
class ArticleMetadata:
    """What one page (or conf.py) says about the article; ``None``: not given."""

    title: str | None = None
    description: str | None = None
    published: dt.date | None = None
    updated: dt.date | None = None
    doi: str | None = None
    authors: tuple[Author, ...] | None = None
    affiliations: tuple[Affiliation, ...] | None = None
    #: As read: the text given. In the environment: an external URL as given, or
    #: a local image's path relative to the source folder (a file that does not
    #: exist is reported and gives no image, and not conf.py's either).
    thumbnail: str | None = None
    #: The article as a PDF: a URL, absolute or relative to the page.
    pdf: str | None = None
    license: str | None = None
    bibliography: tuple[str, ...] = ()
    #: Where ``bibliography`` is written, so a missing file is reported at its line.
    bibliography_line: int | None = None

    def with_defaults(self, defaults: ArticleMetadata) -> ArticleMetadata:
        """Fill every field this page left unset from ``defaults``."""
        merged = {
            f.name: getattr(defaults, f.name)
            if getattr(self, f.name) in (None, ())
            else getattr(self, f.name)
            for f in dataclasses.fields(self)
        }
        # Authors and affiliations belong together: a page with its own authors
        # keeps its own affiliation list, even when empty.
        if self.authors is not None:
            merged["affiliations"] = self.affiliations or ()
        return ArticleMetadata(**merged)


@dataclass
class RawField:
    """One front-matter value and the source line it came from."""

    value: Any
    line: int | None


@dataclass
class _Reader:
    """Turns raw fields into :class:`ArticleMetadata`, warning at their lines."""

    docname: str | None
    where: str = "front matter"
    warnings: list[tuple[str, int | None]] = field(default_factory=list)

    def warn(self, message: str, line: int | None, key: str) -> None:
        location = (self.docname, line) if self.docname else None
        prefix = "" if self.docname else "conf.py: "
        warn(f"{prefix}{self.where} key {key!r}: {message}", PlaybookWarning.METADATA, location)

    def text(self, raw: RawField, key: str) -> str | None:
        value = raw.value
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self.warn(f"expected text, got {type(value).__name__}; ignored", raw.line, key)
            return None
        text = str(value).strip()
        return text or None

    def plain_text(self, raw: RawField, key: str) -> str | None:
        """Text that will be shown: HTML tags are reported (and escaped later)."""
        text = self.text(raw, key)
        if text and _HTML_TAG.search(text):
            self.warn(
                f"{text!r} contains HTML, which is shown as typed, not interpreted; "
                "remove the tags",
                raw.line,
                key,
            )
        return text

    def url(self, value: Any, line: int | None, key: str) -> str | None:
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            self.warn(f"expected a URL, got {type(value).__name__}; ignored", line, key)
            return None
        url = value.strip()
        if not is_safe_url(url):
            self.warn(
                f"URL {url!r} is refused: only http(s), mailto and relative links are allowed",
                line,
                key,
            )
            return None
        return url

    def date(self, raw: RawField, key: str) -> dt.date | None:
        value = raw.value
        if value is None or value == "":
            return None
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        if isinstance(value, str):
            text = value.strip()
            for fmt in _DATE_FORMATS:
                try:
                    return dt.datetime.strptime(text, fmt).date()
                except ValueError:
                    continue
        self.warn(
            f"{value!r} is not a date; write it as YYYY-MM-DD, e.g. 2025-02-19",
            raw.line,
            key,
        )
        return None

    def doi(self, raw: RawField) -> str | None:
        text = self.text(raw, "doi")
        if text is None:
            return None
        match = _DOI.match(text)
        if not match:
            self.warn(f"{text!r} is not a DOI; write it as 10.xxxx/suffix", raw.line, "doi")
            return None
        return match.group(1)

    def orcid(self, value: Any, line: int | None) -> str | None:
        if value is None or value == "":
            return None
        match = _ORCID.match(str(value).strip())
        if not match:
            self.warn(
                f"{value!r} is not an ORCID iD; write it as 0000-0002-1825-0097",
                line,
                "orcid",
            )
            return None
        return match.group(1)

    def affiliations(self, raw: RawField) -> tuple[Affiliation, ...]:
        items = raw.value
        if isinstance(items, str | Mapping):
            items = [items]
        if not isinstance(items, list | tuple):
            self.warn("expected a list of affiliations; ignored", raw.line, "affiliations")
            return ()
        result: list[Affiliation] = []
        for item in items:
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, Mapping):
                self.warn(f"{item!r} is not an affiliation; ignored", raw.line, "affiliations")
                continue
            unknown = set(item) - {"id", "name", "url"}
            if unknown:
                self.warn(
                    f"unknown affiliation field(s) {', '.join(sorted(map(str, unknown)))}; "
                    "use id, name and url",
                    raw.line,
                    "affiliations",
                )
            name = self.plain_text(RawField(item.get("name"), raw.line), "affiliations")
            if not name:
                self.warn(
                    f"affiliation {dict(item)!r} has no name; add one", raw.line, "affiliations"
                )
                continue
            key = self.text(RawField(item.get("id"), raw.line), "affiliations") or name
            url = self.url(item.get("url"), raw.line, "affiliations")
            result.append(Affiliation(key=key, name=name, url=url))
        return tuple(result)

    def authors(self, raw: RawField, key: str) -> tuple[Author, ...]:
        items = raw.value
        if isinstance(items, str | Mapping):
            items = [items]
        if not isinstance(items, list | tuple):
            self.warn("expected a list of authors; ignored", raw.line, key)
            return ()
        result: list[Author] = []
        for item in items:
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, Mapping):
                self.warn(f"{item!r} is not an author; ignored", raw.line, key)
                continue
            unknown = set(item) - {
                "name", "url", "orcid", "affiliations", "affiliation", "organization"
            }  # fmt: skip
            if unknown:
                self.warn(
                    f"unknown author field(s) {', '.join(sorted(map(str, unknown)))}; "
                    "use name, url, orcid, affiliations and organization",
                    raw.line,
                    key,
                )
            name = self.plain_text(RawField(item.get("name"), raw.line), key)
            if not name:
                self.warn(f"author {dict(item)!r} has no name; add a name", raw.line, key)
                continue
            affs = item.get("affiliations", item.get("affiliation", ()))
            if isinstance(affs, str | int):
                affs = [affs]
            if not isinstance(affs, list | tuple):
                self.warn(f"affiliations of {name!r} must be a list; ignored", raw.line, key)
                affs = ()
            organization = item.get("organization", False)
            if not isinstance(organization, bool):
                self.warn(
                    f"organization of {name!r} must be true or false, not {organization!r}; "
                    "read as false",
                    raw.line,
                    key,
                )
                organization = False
            result.append(
                Author(
                    name=name,
                    url=self.url(item.get("url"), raw.line, key),
                    orcid=self.orcid(item.get("orcid"), raw.line),
                    affiliations=tuple(str(a).strip() for a in affs if str(a).strip()),
                    organization=organization,
                )
            )
        return tuple(result)

    def link_affiliations(
        self,
        authors: tuple[Author, ...],
        affiliations: tuple[Affiliation, ...] | None,
        line: int | None,
    ) -> tuple[tuple[Author, ...], tuple[Affiliation, ...]]:
        """Point each author's references at an affiliation's key, ignoring case.

        A reference is an affiliation's id or name ("lab" finds "Lab"). Without
        an ``affiliations`` key the references are the affiliations (a short
        page's shorthand); with one, a reference that matches none is reported,
        and shown as an affiliation of its own, as written.
        """
        known = list(affiliations or ())
        linked: list[Author] = []
        for author in authors:
            keys: list[str] = []
            for reference in author.affiliations:
                match = _find_affiliation(reference, known)
                if match is None:
                    if affiliations is not None:
                        self.warn(
                            f"author {author.name!r}: the affiliation {reference!r} is neither "
                            "the id nor the name of an affiliation "
                            f"({_listing(affiliations)}); write one of those, or add "
                            f"{reference!r} to affiliations (it is shown as written meanwhile)",
                            line,
                            "authors",
                        )
                    match = Affiliation(key=reference, name=reference)
                    known.append(match)
                keys.append(match.key)
            linked.append(dataclasses.replace(author, affiliations=tuple(dict.fromkeys(keys))))
        return tuple(linked), tuple(known)

    def strings(self, raw: RawField, key: str) -> tuple[str, ...]:
        value = raw.value
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            self.warn("expected a file name or a list of file names", raw.line, key)
            return ()
        return tuple(v.strip() for v in value if v.strip())

    def read(self, fields: Mapping[str, RawField]) -> ArticleMetadata:
        get = fields.get
        authors_raw = get("authors") or get("author")
        affiliations_raw = get("affiliations")
        affiliations = self.affiliations(affiliations_raw) if affiliations_raw else None
        authors = self.authors(authors_raw, "authors") if authors_raw else None
        if authors is not None and authors_raw is not None:
            authors, affiliations = self.link_affiliations(authors, affiliations, authors_raw.line)
        title, description = get("title"), get("description")
        published, updated, doi = get("published"), get("updated"), get("doi")
        thumbnail, license_raw, bibliography = get("thumbnail"), get("license"), get("bibliography")
        pdf = get("pdf")
        return ArticleMetadata(
            title=self.plain_text(title, "title") if title else None,
            description=self.plain_text(description, "description") if description else None,
            published=self.date(published, "published") if published else None,
            updated=self.date(updated, "updated") if updated else None,
            doi=self.doi(doi) if doi else None,
            authors=authors,
            affiliations=affiliations,
            thumbnail=self.url(thumbnail.value, thumbnail.line, "thumbnail") if thumbnail else None,
            pdf=self.url(pdf.value, pdf.line, "pdf") if pdf else None,
            license=self.text(license_raw, "license") if license_raw else None,
            bibliography=self.strings(bibliography, "bibliography") if bibliography else (),
            bibliography_line=bibliography.line if bibliography else None,
        )


def _find_affiliation(reference: str, affiliations: Iterable[Affiliation]) -> Affiliation | None:
    """The affiliation whose id or name is ``reference``: exactly, else ignoring case."""
    candidates = list(affiliations)
    folded = reference.casefold()
    for same in (lambda text: text == reference, lambda text: text.casefold() == folded):
        for attribute in ("key", "name"):
            for affiliation in candidates:
                if same(getattr(affiliation, attribute)):
                    return affiliation
    return None


def _listing(affiliations: Iterable[Affiliation]) -> str:
    """``hf: Hugging Face; EPFL``: what an author may refer to, for a warning."""
    items = [a.name if a.key == a.name else f"{a.key}: {a.name}" for a in affiliations]
    return "; ".join(items) if items else "none is defined"


def read_metadata(
    fields: Mapping[str, RawField], docname: str | None, where: str = "front matter"
) -> ArticleMetadata:
    """Validate raw fields; ``docname`` None means conf.py defaults."""
    return _Reader(docname=docname, where=where).read(fields)


def metadata_from_config(app: Sphinx) -> ArticleMetadata:
    """conf.py's ``playbook_*`` defaults, validated as front matter is."""
    config = read_config(app.config)
    settings = {  # front-matter key: the PlaybookConfig field that gives its default
        "authors": "authors",
        "affiliations": "affiliations",
        "published": "published",
        "updated": "updated",
        "doi": "doi",
        "description": "description",
        "thumbnail": "thumbnail",
        "pdf": "pdf_url",
        "license": "license",
    }
    fields = {
        key: RawField(getattr(config, name), None)
        for key, name in settings.items()
        if getattr(config, name) not in (None, [], ())
    }
    return _Reader(docname=None, where="playbook_ setting").read(fields)


# -- MyST: YAML front matter read from the source -------------------------------------

_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?\r?\n)?---[ \t]*(?:\r?\n|\Z)", re.S)


@dataclass(frozen=True)
class YamlProblem:
    """Why a YAML text is not a mapping: a syntax error (with PyYAML's words) at a
    0-based line of the text, or a document of another type (its Python type name)."""

    syntax: bool
    detail: str
    line: int = 0


def read_yaml_mapping(
    text: str,
) -> tuple[yaml.MappingNode | None, dict[Any, Any], YamlProblem | None]:
    """A YAML text's top-level mapping: its node (whose marks give each key's line)
    and its values. An empty text gives ``(None, {}, None)``."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or "it does not parse"
        return None, {}, YamlProblem(True, problem, mark.line if mark is not None else 0)
    if root is None:
        return None, {}, None
    if not isinstance(data, dict) or not isinstance(root, yaml.MappingNode):
        return None, {}, YamlProblem(False, type(data).__name__)
    return root, data, None


def key_lines(root: yaml.MappingNode, first_line: int) -> dict[str, int]:
    """Each top-level key's line in the file, the text starting at ``first_line``."""
    return {
        key_node.value: key_node.start_mark.line + first_line
        for key_node, _ in root.value
        if isinstance(key_node, yaml.ScalarNode)
    }


@dataclass(frozen=True)
class FrontMatterError:
    """Why a page's front matter cannot be read, and the file line to look at."""

    message: str
    line: int


def front_matter_fields(source: str) -> tuple[dict[str, RawField], FrontMatterError | None]:
    """Top-level keys of a Markdown file's YAML front matter, with 1-based lines.

    Returns the fields and, when the front matter is not a YAML mapping, what
    is wrong and where (MyST's own warning says neither).
    """
    match = _FRONT_MATTER.match(source)
    if not match or not match.group(1):
        return {}, None
    root, data, problem = read_yaml_mapping(match.group(1))
    first_line = 2  # the line after "---", 1-based
    if problem is not None and problem.syntax:
        return {}, FrontMatterError(
            f"front matter is not valid YAML ({problem.detail}); fix the syntax, "
            "the page is built without its front matter",
            problem.line + first_line,
        )
    if problem is not None:
        return {}, FrontMatterError(
            f"front matter is a {problem.detail}, not keys and values; write one "
            "'key: value' per line, the page is built without its front matter",
            first_line,
        )
    if root is None:
        return {}, None
    lines = key_lines(root, first_line)
    return {str(key): RawField(value, lines.get(str(key))) for key, value in data.items()}, None


def _is_markdown(app: Sphinx, docname: str) -> bool:
    return is_markdown_source(app, app.env.doc2path(docname))


_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_ANCHOR = re.compile(r"(?:&\S+\s+)+")


def quote_yaml_dates(text: str) -> str:
    """``text`` with each plain YAML date (or timestamp) in quotes: the same value as a
    string, on the same line. A text that does not parse is left as it is."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return text
    spans, stack, seen = [], [root] if root is not None else [], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:  # an alias is the anchored node again
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _TIMESTAMP and node.style is None:
                start, end = node.start_mark.index, node.end_mark.index
                prefix = _ANCHOR.match(text, start, end)  # the node's text includes "&day "
                spans.append((prefix.end() if prefix else start, end))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in node.value for part in pair)
    for start, end in sorted(spans, reverse=True):
        text = f'{text[:start]}"{text[start:end]}"{text[end:]}'
    return text


#: A ``{code-cell}``'s YAML options: the ``---`` block right after its fence line.
_CELL_OPTIONS = re.compile(
    r"^[ \t]*(?:`{3,}|~{3,})[ \t]*\{code-cell\}.*\n[ \t]*---[ \t]*\n((?:.*\n)*?)[ \t]*---[ \t]*$",
    re.M,
)


def quote_text_notebook_dates(source: str) -> str:
    """A MyST text notebook with the YAML dates of its front matter and of its code
    cells' options quoted: myst-nb writes both into the notebook's JSON, where a date
    (``published: 2025-02-19``) crashed the build in every execution mode."""
    spans = [match.span(1) for match in _CELL_OPTIONS.finditer(source)]
    front = _FRONT_MATTER.match(source)
    if front and front.group(1):
        spans.append(front.span(1))
    for start, end in sorted(spans, reverse=True):
        source = source[:start] + quote_yaml_dates(source[start:end]) + source[end:]
    return source


def _is_text_notebook(app: Sphinx, source: str) -> bool:
    if "myst_nb" not in app.extensions:
        return False
    from myst_nb.core.read import is_myst_markdown_notebook  # type: ignore[import-untyped]

    return bool(is_myst_markdown_notebook(source))


def _on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    if not _is_markdown(app, docname):
        return
    fields, error = front_matter_fields(source[0])
    if error is not None:
        warn(error.message, PlaybookWarning.METADATA, (docname, error.line))
    app.env.temp_data["playbook_fields"] = fields
    if error is None and _is_text_notebook(app, source[0]):
        # The fields above were read first, so they keep their dates.
        source[0] = quote_text_notebook_dates(source[0])


# -- reST: docinfo fields, read before docutils reshapes them -----------------------------


def _rest_author(text: str) -> dict[str, Any]:
    match = _REST_AUTHOR.match(text.strip())
    if not match:
        return {"name": text.strip()}
    author: dict[str, Any] = {"name": match.group("name").strip()}
    if match.group("url"):
        author["url"] = match.group("url").strip()
    if match.group("affs"):
        author["affiliations"] = [a.strip() for a in match.group("affs").split(",")]
    return author


def _rest_affiliation(text: str) -> dict[str, Any]:
    match = _REST_ORG.match(text.strip())
    if not match:
        return {"name": text.strip()}
    org: dict[str, Any] = {"name": match.group("name").strip()}
    if match.group("url"):
        org["url"] = match.group("url").strip()
    return org


def _split_list(text: str) -> list[str]:
    separator = ";" if ";" in text else ","
    return [part.strip() for part in text.split(separator) if part.strip()]


#: reST docinfo keys holding lists or mappings, where broken YAML cannot be read as text.
_STRUCTURED_KEYS = frozenset({"authors", "author", "affiliations", "bibliography"})


def rest_field_value(key: str, text: str) -> Any:
    """The structured value of a reST docinfo field given as a simple string.

    ``authors``: ``Name <url> [affiliation, ...]`` entries separated by ``;``;
    ``affiliations``: ``Name <url>`` entries separated by ``;``; a value that
    starts with ``[`` or ``{`` is read as YAML for full control; for the keys
    in :data:`_STRUCTURED_KEYS`, invalid YAML raises ``ValueError`` (the message
    says what to fix).
    """
    stripped = text.strip()
    if stripped[:1] in "[{":
        try:
            return yaml.safe_load(stripped)
        except yaml.YAMLError as error:
            if key not in _STRUCTURED_KEYS:
                return stripped  # "[Draft] A title" is text
            problem = getattr(error, "problem", None) or "it does not parse"
            raise ValueError(
                f"{stripped!r} starts like YAML but is not valid YAML ({problem}); fix it, or "
                "write the simple form, e.g. 'Jane Doe <https://jane.example> [lab]; John Smith'"
            ) from error
    if key in ("authors", "author"):
        return [
            _rest_author(part)
            for part in (
                stripped.split(";")
                if ";" in stripped
                else [stripped]
                if key == "author"
                else stripped.split(",")
            )
            if part.strip()
        ]
    if key == "affiliations":
        return [_rest_affiliation(part) for part in _split_list(stripped)]
    if key == "bibliography":
        return _split_list(stripped)
    return stripped


class ReadDocinfoFields(Transform):
    """Capture a reST document's leading field list before DocInfo (340) converts it."""

    default_priority = priorities.READ_DOCINFO_FIELDS

    def apply(self, **kwargs: Any) -> None:
        settings = self.document.settings
        env: BuildEnvironment | None = getattr(settings, "env", None)
        if env is None or "playbook_fields" in env.temp_data:
            return  # not Sphinx, or a Markdown page whose front matter was read already
        # PreBibliographic is a mixin, not a Node: the stubs reject what docutils itself does.
        candidate_index = self.document.first_child_not_matching_class(
            nodes.PreBibliographic  # type: ignore[arg-type]
        )
        if candidate_index is None:
            return
        candidate = self.document[candidate_index]
        if not isinstance(candidate, nodes.field_list):
            return
        fields: dict[str, RawField] = {}
        for field_node in candidate.findall(nodes.field):
            name = field_node[0].astext().strip().lower()
            line = field_node.line or candidate.line
            try:
                value = rest_field_value(name, field_node[1].astext())
            except ValueError as error:
                location = (env.docname, line)
                warn(f"docinfo key {name!r}: {error}", PlaybookWarning.METADATA, location)
                continue
            fields[name] = RawField(value, line)
        env.temp_data["playbook_fields"] = fields


# -- storage in the environment ----------------------------------------------------------


def _on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    fields = env.temp_data.pop("playbook_fields", None) or {}
    where = "front matter" if _is_markdown(app, env.docname) else "docinfo"
    for key, raw in fields.items():
        if not is_known_key(key, app.extensions, app.config):
            warn(
                f"unknown {where} key {key!r}: {unknown_key_advice(key)}",
                PlaybookWarning.METADATA_KEY,
                (env.docname, raw.line),
            )
    meta = read_metadata(fields, env.docname, where)
    METADATA.of(env)[env.docname] = _note_thumbnail(env, meta, fields.get("thumbnail"), where)


# -- thumbnails: images of the page, copied by Sphinx ------------------------------------


def is_local(thumbnail: str) -> bool:
    """A path in the project, not a URL on another site (``https:``, ``//host``)."""
    parts = urlsplit(thumbnail)
    return not parts.scheme and not parts.netloc


def _note_image(env: BuildEnvironment, relative: str) -> None:
    """Make ``relative`` (to the source folder) an image of the page being read.

    A dependency even when missing: Sphinx reads the page again until the
    file exists, so the warning repeats and the image appears once it is there.
    """
    absolute = Path(env.srcdir, relative)
    env.note_dependency(absolute)
    if absolute.is_file():
        env.images.add_file(env.docname, relative)


def _note_thumbnail(
    env: BuildEnvironment, meta: ArticleMetadata, raw: RawField | None, where: str
) -> ArticleMetadata:
    """Resolve a local thumbnail against the page, as Sphinx resolves image paths."""
    docname = env.docname
    if meta.thumbnail is None:
        default = DEFAULT_METADATA.get(env).thumbnail  # resolved by _on_builder_inited
        if default and is_local(default):
            _note_image(env, default)
        return meta
    if not is_local(meta.thumbnail):
        return meta
    relative, absolute = env.relfn2path(meta.thumbnail, docname)
    _note_image(env, relative)
    if not Path(absolute).is_file():
        warn(
            f"{where} key 'thumbnail': there is no image {meta.thumbnail!r} (looked for "
            f"{absolute}); fix the path, relative to this page (or to the source folder "
            "when it starts with /); the page has no og:image meanwhile",
            PlaybookWarning.METADATA,
            (docname, raw.line if raw else None),
        )
    return dataclasses.replace(meta, thumbnail=relative)


def _default_thumbnail(app: Sphinx, meta: ArticleMetadata) -> ArticleMetadata:
    """conf.py's local thumbnail, relative to conf.py, as a path from the source folder."""
    if not meta.thumbnail or not is_local(meta.thumbnail):
        return meta
    absolute = Path(app.confdir, meta.thumbnail.lstrip("/"))
    if not absolute.is_file():
        warn(
            f"conf.py: playbook_thumbnail = {meta.thumbnail!r}: there is no such image "
            f"(looked for {absolute}); fix the path, relative to the folder of conf.py; "
            "pages without their own thumbnail have no og:image meanwhile",
            PlaybookWarning.METADATA,
        )
    relative = Path(os.path.relpath(absolute, app.srcdir)).as_posix()
    return dataclasses.replace(meta, thumbnail=relative)


class CopyThumbnail(SphinxPostTransform):
    """Add the page's local thumbnail to the images the HTML builder copies.

    Post-transforms run in the main process, before Sphinx collects the page's
    own images, also when pages are written in parallel; only for the HTML
    builders whose pages carry our ``<head>`` tags (not EPUB).
    """

    default_priority = priorities.COPY_THUMBNAIL
    formats = ("html",)

    def is_supported(self) -> bool:
        builder = builder_of(self.env)
        return (
            super().is_supported()
            and build_facts(self.env).playbook_theme
            and isinstance(builder, StandaloneHTMLBuilder)
            and not builder.embedded
        )

    def run(self, **kwargs: Any) -> None:
        builder = builder_of(self.env)
        meta = page_metadata(self.env, self.env.docname)
        thumbnail = meta.with_defaults(DEFAULT_METADATA.get(self.env)).thumbnail
        if builder is None or not thumbnail or not is_local(thumbnail):
            return
        if thumbnail in self.env.images:
            builder.images[thumbnail] = self.env.images[thumbnail][1]


#: Each page's own metadata (without conf.py defaults).
METADATA: PageStore[ArticleMetadata] = PageStore("metadata")


#: conf.py's defaults for pages that set none.
DEFAULT_METADATA: SiteValue[ArticleMetadata] = SiteValue("default_metadata", ArticleMetadata)


def page_metadata(env: BuildEnvironment, docname: str) -> ArticleMetadata:
    """The page's own metadata (without conf.py defaults)."""
    return METADATA.of(env).get(docname, ArticleMetadata())


def _on_builder_inited(app: Sphinx) -> None:
    """conf.py's defaults, validated once per build (warnings name the setting)."""
    DEFAULT_METADATA.set(app.env, _default_thumbnail(app, metadata_from_config(app)))


def setup_metadata(app: Sphinx) -> None:
    """Wire metadata reading into the read phase."""
    app.connect("builder-inited", _on_builder_inited)
    app.connect("source-read", _on_source_read)
    app.add_transform(ReadDocinfoFields)
    app.connect("doctree-read", _on_doctree_read)
    app.add_post_transform(CopyThumbnail)
