"""BibTeX files read with pybtex, and the few fields a reader sees, decoded from LaTeX.

pybtex does the parsing; its errors are captured (not printed) so each one
becomes a located ``playbook.citation`` warning and the build goes on with the
entries that could be read.
"""

from __future__ import annotations

import codecs
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..urls import is_safe_url

if TYPE_CHECKING:  # pybtex is imported only when a file is parsed: not when cached
    from pybtex.database import Person

#: How many authors a hover card lists before "...".
CARD_AUTHORS = 3

_BRACES = re.compile(r"(?<!\\)[{}]")
_SPACES = re.compile(r"\s+")


#: Text the LaTeX codec returns unchanged (no command, brace, tie or quote; the
#: caller also rules out "--" and ",,"): most fields of a large .bib, kept out of
#: the codec's lexer, which costs ~1 s per 1,000 entries.
_PLAIN = re.compile(r"[\w\s.,:;()/+!?-]*")


def latex_to_text(value: str) -> str:
    """``J{\\'e}gou`` -> ``Jégou``; ``{GPT}-3 \\& co`` -> ``GPT-3 & co``."""
    if _PLAIN.fullmatch(value) and "--" not in value and ",," not in value:
        return _SPACES.sub(" ", value).strip()
    import latexcodec  # noqa: F401 (registers the "ulatex" codec)

    try:
        # "ulatex" decodes str to str; typeshed's codecs.decode only takes str for rot13 & co.
        text = codecs.decode(value, "ulatex")  # type: ignore[call-overload]
    except (ValueError, UnicodeError):
        text = value
    text = _BRACES.sub("", text).replace("\\", "")
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class Author:
    first: str
    last: str

    @property
    def initials(self) -> str:
        """``T. Dao``, ``D. Y. Fu``: Distill's short form."""
        parts = [p for p in re.split(r"[\s.]+", self.first) if p]
        letters = " ".join(f"{p[0]}." for p in parts)
        return f"{letters} {self.last}".strip()

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}".strip()


@dataclass(frozen=True)
class Reference:
    """One bibliography entry, with every shown field already decoded."""

    key: str
    entry_type: str
    title: str
    authors: tuple[Author, ...]
    year: str = ""
    venue: str = ""
    doi: str = ""
    url: str = ""
    line: int | None = None
    fingerprint: str = ""

    @property
    def link(self) -> str:
        """Where the title links: the DOI, else the URL."""
        if self.doi:
            return f"https://doi.org/{self.doi}"
        return self.url

    def card_authors(self, limit: int = CARD_AUTHORS) -> str:
        names = [a.initials for a in self.authors[:limit]]
        if len(self.authors) > limit:
            names.append("...")
        return ", ".join(names)

    def textual(self) -> str:
        """``Dao et al.``, ``Dao and Fu``, ``Dao``: the author part of {cite:t}."""
        if not self.authors:
            return self.title or self.key
        if len(self.authors) == 1:
            return self.authors[0].last
        if len(self.authors) == 2:
            return f"{self.authors[0].last} and {self.authors[1].last}"
        return f"{self.authors[0].last} et al."


@dataclass
class Bibliography:
    """The entries of one .bib file and what went wrong reading it."""

    path: Path
    entries: dict[str, Reference] = field(default_factory=dict)
    problems: list[tuple[int | None, str]] = field(default_factory=list)


def _person(person: Person) -> Author:
    first = " ".join(person.first_names + person.middle_names)
    last = " ".join(person.prelast_names + person.last_names + person.lineage_names)
    return Author(latex_to_text(first), latex_to_text(last))


def _venue(fields: dict[str, str]) -> str:
    for name in ("journal", "booktitle", "publisher", "howpublished", "school", "institution"):
        if fields.get(name):
            return latex_to_text(fields[name])
    if fields.get("eprint") and fields.get("archiveprefix", "").lower() == "arxiv":
        return f"arXiv:{fields['eprint']}"
    return ""


def _entry_lines(text: str) -> dict[str, list[int]]:
    """The 1-based lines where each key's ``@type{key,`` starts."""
    lines: dict[str, list[int]] = {}
    for match in re.finditer(r"@\s*\w+\s*[{(]\s*([^,\s]+)\s*,", text):
        lines.setdefault(match.group(1), []).append(text.count("\n", 0, match.start()) + 1)
    return lines


def read_bibliography(path: Path) -> Bibliography:
    """Parse ``path``; problems are collected with their line, never raised."""
    result = Bibliography(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        result.problems.append((None, f"the file cannot be read ({error.strerror or error})"))
        return result
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line: int | None = raw.count(b"\n", 0, error.start) + 1
        result.problems.append((line, "the file is not UTF-8; save it as UTF-8"))
        text = raw.decode("utf-8", errors="replace")
    lines = _entry_lines(text)
    import pybtex.errors
    from pybtex.database.input.bibtex import Parser

    with pybtex.errors.capture() as errors:
        try:
            data = Parser().parse_string(text)
        except Exception as error:  # pybtex raised instead of reporting
            errors.append(error)
            data = None
    for problem in errors:
        message = str(problem)
        line = getattr(problem, "lineno", None)
        duplicate = re.match(r"repeated bibliography entry: (.+)", message)
        if duplicate:
            key = duplicate.group(1)
            found = lines.get(key, [])
            line = found[1] if len(found) > 1 else None
            message = f"the key {key!r} is defined twice; the first entry is used"
        elif message.startswith("syntax error"):
            message += (
                "; fix the BibTeX syntax at or above this line (often an unclosed brace or "
                "a missing comma); the entries that parse are used"
            )
        result.problems.append((line, message))
    if data is None:
        return result
    for key, entry in data.entries.items():
        fields = {name.lower(): value for name, value in entry.fields.items()}
        entry_line = lines[key][0] if key in lines else None
        persons = entry.persons.get("author") or entry.persons.get("editor") or []
        doi = fields.get("doi", "").strip()
        doi = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", doi, flags=re.I)
        url = fields.get("url", "").strip()
        if url and not is_safe_url(url):
            result.problems.append(
                (
                    entry_line,
                    f"entry {key!r}: url {url!r} is refused: use an http(s), mailto or "
                    "relative link; the entry is shown without it",
                )
            )
            url = ""
        digest = hashlib.sha256(
            repr((entry.type, sorted(fields.items()), [str(p) for p in persons])).encode()
        ).hexdigest()[:16]
        result.entries[key] = Reference(
            key=key,
            entry_type=entry.type.lower(),
            title=latex_to_text(fields.get("title", "")),
            authors=tuple(_person(p) for p in persons),
            year=latex_to_text(fields.get("year", "")),
            venue=_venue(fields),
            doi=doi,
            url=url,
            line=entry_line,
            fingerprint=digest,
        )
    return result


def parse_and_keep(path: Path, kept: Path | None) -> Bibliography:
    """``read_bibliography(path)``, pickled to ``kept`` (the build's cache) as well:
    so that the next build reads the entries back instead of parsing them."""
    from ..machinery.cache import save_pickle

    bibliography = read_bibliography(path)
    if kept is not None:
        save_pickle(kept, bibliography)
    return bibliography
