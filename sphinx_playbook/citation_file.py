"""CITATION.cff: written by ``sphinx-playbook new``, compared with the article at each build.

GitHub's "Cite this repository", Zenodo and reference managers read a repository's
``CITATION.cff`` (Citation File Format 1.2.0), while the page shows the article's
own front matter: two copies of the title, authors, DOI and date that drift apart
unnoticed. Each build reads the file ``playbook_citation_file`` names (relative to
conf.py: ``CITATION.cff`` beside it by default, ``../CITATION.cff`` at the repository
root of a ``sphinx-playbook new`` project) and warns once per value the root article
disagrees on, at the file's line, naming the article's value to compare. Not one
folder up by default: there, in a software project's repository, the file cites the
software, not its documentation.
Names are split into given and family names as the site's citations split them.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from .config import CONFIG_FIELDS, read_config
from .diagnostics import PlaybookWarning, warn
from .metadata import (
    DEFAULT_METADATA,
    ArticleMetadata,
    Author,
    RawField,
    key_lines,
    page_metadata,
    read_yaml_mapping,
)
from .scholarly import page_title, read_name
from .source_types import is_markdown_source

FILE_NAME = "CITATION.cff"
CFF_VERSION = "1.2.0"
DEFAULT_MESSAGE = "If you use this playbook, please cite it as below."

_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)


# -- writing: the file ``sphinx-playbook new`` puts at the repository root ------------------


def cff_author(author: Author, affiliations: Mapping[str, str] | None = None) -> dict[str, str]:
    """One CFF author: a person's given and family names (``name-particle`` for "van",
    ``name-suffix`` for "Jr."), or ``name`` for a one-word name or an organisation.

    ``affiliations`` maps the author's affiliation keys to names.
    """
    entry: dict[str, str] = {}
    parts = None if author.organization else _person_parts(author.name)
    if parts is None or not parts["given-names"] or not parts["family-names"]:
        entry["name"] = _spaces(author.name)
    else:
        entry.update({key: value for key, value in parts.items() if value})
    if "name" not in entry and author.affiliations:
        names = [(affiliations or {}).get(key, key) for key in author.affiliations]
        entry["affiliation"] = "; ".join(names)  # a person has one affiliation string
    if author.orcid:
        entry["orcid"] = f"https://orcid.org/{author.orcid}"
    if author.url:
        entry["website"] = author.url
    return entry


def citation_cff(meta: ArticleMetadata, title: str, message: str = DEFAULT_MESSAGE) -> str:
    """The text of a CITATION.cff (CFF 1.2.0) for an article with ``meta`` and ``title``."""
    affiliations = {a.key: a.name for a in meta.affiliations or ()}
    data: dict[str, Any] = {
        "cff-version": CFF_VERSION,
        "message": message,
        "title": title,
        "authors": [cff_author(a, affiliations) for a in meta.authors or ()],
    }
    if meta.doi:
        data["doi"] = meta.doi
    if meta.published:
        data["date-released"] = meta.published.isoformat()  # a string, as the schema says
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)


def _spaces(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def _person_parts(name: str) -> dict[str, str]:
    """The parts of a name as the site cites it (:func:`.scholarly.read_name`: BibTeX's
    "First von Last", a trailing "Jr.", a title after a comma left out), in CFF's keys."""
    person = read_name(_spaces(name)).cited

    def joined(names: list[str]) -> str:
        return " ".join(names).replace("{", "").replace("}", "")

    return {
        "family-names": joined(person.last_names),
        "given-names": joined(person.first_names + person.middle_names),
        "name-particle": joined(person.prelast_names),
        "name-suffix": joined(person.lineage_names),
    }


# -- reading: the file as the build finds it ------------------------------------------------


def find_citation_file(app: Sphinx) -> Path | None:
    """The file ``playbook_citation_file`` names, if it exists. The default one may be
    missing; a missing file the author named is a warning at conf.py."""
    setting = read_config(app.config).citation_file
    if setting is None:
        return None
    path = Path(os.path.normpath(Path(app.confdir, setting)))
    if path.is_file():
        return path
    if setting != CONFIG_FIELDS["citation_file"].default:
        warn(
            f"playbook_citation_file: {path} does not exist; fix the path (relative to "
            "conf.py) or set it to None",
            PlaybookWarning.METADATA,
            _setting_line(Path(app.confdir, "conf.py"), "playbook_citation_file"),
        )
    return None


def _setting_line(conf: Path, name: str) -> str:
    """``conf.py:<line>`` where ``name`` is assigned (line 1 if it cannot be told)."""
    try:
        lines = conf.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    found = next((n for n, line in enumerate(lines, 1) if line.startswith(name)), 1)
    return f"{conf}:{found}"


@dataclass(frozen=True)
class CitationFile:
    """A CITATION.cff's top-level values with their 1-based lines, and its authors' lines."""

    path: Path
    fields: dict[str, RawField]
    author_lines: tuple[int, ...] = ()

    def where(self, line: int | None = None) -> str:
        """A warning location Sphinx prints as is: ``path:line``."""
        return f"{self.path}:{line or 1}"


def read_citation_file(path: Path) -> CitationFile | None:
    """The file's values; None after a located warning when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        _warn(f"cannot be read ({error}); fix or remove it", f"{path}:1")
        return None
    root, data, problem = read_yaml_mapping(text)
    if problem is not None and problem.syntax:
        _warn(
            f"is not valid YAML ({problem.detail}); fix the syntax, its values are not "
            "compared with the article",
            f"{path}:{problem.line + 1}",
        )
        return None
    if root is None:
        _warn(
            "is not keys and values; write one 'key: value' per line (cff-version, message, "
            "title, authors...)",
            f"{path}:1",
        )
        return None
    lines = key_lines(root, 1)
    author_lines: tuple[int, ...] = ()
    for key_node, value_node in root.value:
        if key_node.value == "authors" and isinstance(value_node, yaml.SequenceNode):
            author_lines = tuple(item.start_mark.line + 1 for item in value_node.value)
    fields = {str(key): RawField(value, lines.get(str(key))) for key, value in data.items()}
    return CitationFile(path, fields, author_lines)


# -- comparing: one warning per value the article disagrees on ------------------------------


@dataclass(frozen=True)
class _ArticleValue:
    """What the article says for one key (authors: their names), and where an author
    changes it."""

    value: Any
    where: str


def check_citation_file(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``, at every build (an unchanged book still fails ``-W``): compare the
    root article with the project's CITATION.cff. Nothing to do without one."""
    path = find_citation_file(app)
    root_doc = app.config.root_doc
    if path is None or root_doc not in env.all_docs:
        return []
    citation = read_citation_file(path)
    if citation is None:
        return []
    article = _article_values(app, env, root_doc, path.parent)
    cff_values = {
        "title": _cff_text(citation, "title"),
        "authors": _cff_authors(citation),
        "doi": _cff_doi(citation),
        "date-released": _cff_date(citation),
    }
    for key, (cff_value, comparable) in cff_values.items():
        if not comparable:
            continue  # a value of the wrong type: warned about already
        _compare(citation, key, cff_value, article[key])
    return []


def _compare(citation: CitationFile, key: str, cff: Any, article: _ArticleValue) -> None:
    ours, theirs = _comparable(key, cff), _comparable(key, article.value)
    if ours == theirs:
        return
    line = citation.fields[key].line if key in citation.fields else None
    if key == "authors" and ours is not None and theirs is not None:
        # The line of the first author that differs, when the file has it.
        pairs = zip(ours, theirs, strict=False)
        index = next((i for i, (a, b) in enumerate(pairs) if a != b), len(theirs))
        if index < len(citation.author_lines):
            line = citation.author_lines[index]
    here, there = _shown(key, cff), _shown(key, article.value)
    if cff is None:
        addition = "an authors list" if key == "authors" else f"'{key}: {there}'"
        message = (
            f"has no {key}, but the article has {there!r} ({article.where}); add {addition} here"
        )
    elif article.value is None:
        message = (
            f"{key} is {here!r}, but the article has none; add it to the article "
            f"({article.where}) or remove it here"
        )
    else:
        message = (
            f"{key}: {here!r} here, {there!r} in the article ({article.where}); "
            "change one of them so they match"
        )
    _warn(message, citation.where(line))


def _comparable(key: str, value: Any) -> Any:
    """The form two values are compared in: whitespace and Unicode normalised, DOIs in
    lower case (they are case-insensitive), authors as names in order."""
    if value is None:
        return None
    if key == "authors":
        return tuple(_spaces(name) for name in value)
    text = _spaces(str(value))
    if key == "doi":
        return _DOI_PREFIX.sub("", text).lower()
    return text


def _shown(key: str, value: Any) -> str:
    return "; ".join(value) if key == "authors" and value is not None else str(value)


def _article_values(
    app: Sphinx, env: BuildEnvironment, docname: str, project_root: Path
) -> dict[str, _ArticleValue]:
    """The root article's values (conf.py defaults filled in), each with the place
    where an author changes it."""
    own = page_metadata(env, docname)
    defaults = DEFAULT_METADATA.get(env)
    meta = own.with_defaults(defaults)
    source = env.doc2path(docname)
    try:
        page = source.relative_to(project_root).as_posix()
    except ValueError:
        page = str(source)
    markdown = is_markdown_source(app, source)

    def where(key: str, own_value: Any, setting: str | None) -> str:
        """The page's own field, else the conf.py setting it inherits."""
        if own_value in (None, ()) and setting is not None:
            return f"{setting} in conf.py"
        return f"'{key}' in the front matter of {page}" if markdown else f":{key}: in {page}"

    title_where = where("title", own.title, None) if own.title else f"the first heading of {page}"
    authors = tuple(_article_author_name(a) for a in meta.authors) if meta.authors else None
    return {
        "title": _ArticleValue(page_title(env, docname, meta) or None, title_where),
        "authors": _ArticleValue(
            authors,
            where("authors", own.authors, "playbook_authors" if defaults.authors else None),
        ),
        "doi": _ArticleValue(
            meta.doi, where("doi", own.doi, "playbook_doi" if defaults.doi else None)
        ),
        "date-released": _ArticleValue(
            meta.published.isoformat() if meta.published else None,
            where("published", own.published, "playbook_published" if defaults.published else None),
        ),
    }


def _article_author_name(author: Author) -> str:
    """The name as CFF would spell it: "Lovelace, Ada" reads as "Ada Lovelace"."""
    parts = None if author.organization else _person_parts(author.name)
    if parts is None or not parts["given-names"] or not parts["family-names"]:
        return _spaces(author.name)
    return _joined_parts(parts)


def _joined_parts(parts: Mapping[str, Any]) -> str:
    keys = ("given-names", "name-particle", "family-names", "name-suffix")
    return " ".join(_spaces(str(parts[k])) for k in keys if parts.get(k) not in (None, ""))


def _cff_text(citation: CitationFile, key: str) -> tuple[str | None, bool]:
    raw = citation.fields.get(key)
    if raw is None or raw.value is None:
        return None, True
    if isinstance(raw.value, bool) or not isinstance(raw.value, str | int | float):
        _warn(
            f"{key} must be text, not {type(raw.value).__name__}; write it on one line",
            citation.where(raw.line),
        )
        return None, False
    return str(raw.value), True


def _cff_doi(citation: CitationFile) -> tuple[str | None, bool]:
    return _cff_text(citation, "doi")


def _cff_date(citation: CitationFile) -> tuple[str | None, bool]:
    raw = citation.fields.get("date-released")
    if raw is None or raw.value is None:
        return None, True
    value = raw.value
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date):
        return value.isoformat(), True
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()).isoformat(), True
        except ValueError:
            pass
    _warn(
        f"date-released {value!r} is not a date; write it as YYYY-MM-DD, e.g. '2025-02-19'",
        citation.where(raw.line),
    )
    return None, False


def _cff_authors(citation: CitationFile) -> tuple[tuple[str, ...] | None, bool]:
    raw = citation.fields.get("authors")
    if raw is None or raw.value is None:
        return None, True
    if not isinstance(raw.value, list):
        _warn(
            "authors must be a list, one '- given-names: ...' or '- name: ...' entry per author",
            citation.where(raw.line),
        )
        return None, False
    names: list[str] = []
    for number, entry in enumerate(raw.value):
        line = citation.author_lines[number] if number < len(citation.author_lines) else raw.line
        name = _cff_author_name(entry)
        if name is None:
            _warn(
                f"author {number + 1} has no name; give it family-names and given-names "
                "(a person) or name (an organisation)",
                citation.where(line),
            )
            return None, False
        names.append(name)
    return tuple(names), True


def _cff_author_name(entry: Any) -> str | None:
    """A CFF person's names joined in reading order, or an entity's ``name``."""
    if not isinstance(entry, Mapping):
        return None
    joined = _joined_parts(entry)
    if joined:
        return joined
    name = entry.get("name")
    return _spaces(str(name)) if name not in (None, "") else None


def _warn(message: str, location: str) -> None:
    warn(f"{FILE_NAME} {message}", PlaybookWarning.METADATA, location)


def setup_citation_file(app: Sphinx) -> None:
    """Compare the project's CITATION.cff with the root article once the pages are read."""
    app.connect("env-updated", check_citation_file)
