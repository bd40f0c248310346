"""The article's BibTeX, made buildable: what a browser's citation code forgave, fixed and said.

Distill's runtime reads a .bib leniently; pybtex and ``sphinx-build -W`` do not. Two
mistakes are common in published articles: a key defined twice, and authors
separated by commas instead of ``and``; and an ``ftp://`` url, valid BibTeX, is not a
link the theme writes. Each is fixed in the written .bib and
reported with its line, so the import still builds.
"""

from __future__ import annotations

import re

_ENTRY = re.compile(r"^[ \t]*@(\w+)\s*[{(]\s*([^,\s]+)\s*,", re.MULTILINE)
_NAME_FIELD = re.compile(r"\b(author|editor)\s*=\s*", re.IGNORECASE)
_INITIALS = re.compile(r"^(?:[A-Z][a-z]?\.?[\s-]*)+$")
#: A ``url`` field whose scheme the theme refuses (ftp://): kept as text instead.
_REFUSED_URL = re.compile(r"\burl(\s*=\s*[{\"]\s*)(ftp|gopher|file)://", re.IGNORECASE)


def tidy(bibtex: str) -> tuple[str, list[tuple[int, str]]]:
    """The BibTeX with duplicate entries dropped and comma lists of names joined by
    ``and``; (line, what was done) for each change."""
    problems: list[tuple[int, str]] = []
    matches = list(_ENTRY.finditer(bibtex))
    seen: set[str] = set()
    pieces: list[str] = [bibtex[: matches[0].start()] if matches else bibtex]
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(bibtex)
        entry = bibtex[match.start() : end]
        line = bibtex.count("\n", 0, match.start()) + 1
        key = match.group(2)
        if match.group(1).lower() in {"comment", "preamble", "string"}:
            pieces.append(entry)
            continue
        if key in seen:
            problems.append(
                (line, f"the key {key!r} is defined twice; the second entry is left out")
            )
            continue
        seen.add(key)
        pieces.append(_refused_url(_names(entry, line, problems), line, key, problems))
    return "".join(pieces), problems


def _names(entry: str, line: int, problems: list[tuple[int, str]]) -> str:
    for field in list(_NAME_FIELD.finditer(entry)):
        start = field.end()
        if start >= len(entry) or entry[start] not in '{"':
            continue
        end = _closing(entry, start)
        if end is None:
            continue
        value = entry[start + 1 : end]
        fixed = _join_names(value)
        if fixed is not None and fixed != value:
            where = line + entry.count("\n", 0, field.start())
            problems.append(
                (where, f"{field.group(1)} names separated by commas; read as {fixed!r}")
            )
            return _names(entry[: start + 1] + fixed + entry[end:], line, problems)
    return entry


def _refused_url(entry: str, line: int, key: str, problems: list[tuple[int, str]]) -> str:
    """An ``ftp://`` url (valid BibTeX, refused as a link by the theme, which fails the
    ``-W`` build): the address kept as the entry's ``howpublished``, shown as text
    (``note`` when the entry has a ``howpublished``)."""
    match = _REFUSED_URL.search(entry)
    if match is None:
        return entry
    field = "note" if re.search(r"\bhowpublished\s*=", entry, re.IGNORECASE) else "howpublished"
    if re.search(rf"\b{field}\s*=", entry, re.IGNORECASE):
        return entry
    where = line + entry.count("\n", 0, match.start())
    problems.append(
        (where, f"{key}: the {match.group(2)}:// url is not a link the theme writes; kept as "
         f"the entry's {field}")
    )  # fmt: skip
    return entry[: match.start()] + field + entry[match.start() + 3 :]


def _closing(text: str, start: int) -> int | None:
    """The index of the brace or quote closing the value that opens at ``start``."""
    if text[start] == '"':
        end = text.find('"', start + 1)
        return end if end != -1 else None
    depth = 0
    for index in range(start, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return None


def _join_names(value: str) -> str | None:
    """``Last, F., Other, G. et al.`` -> ``Last, F. and Other, G. and others``."""
    flat = " ".join(value.split())
    if re.search(r"\band\b", flat) or flat.count(",") < 2 or "{" in flat:
        return None
    others = bool(re.search(r"\bet\s+al\.?\s*$", flat))
    flat = re.sub(r"\s*\bet\s+al\.?\s*$", "", flat)
    parts = [part.strip() for part in flat.split(",") if part.strip()]
    if len(parts) % 2 == 0 and all(_INITIALS.match(part) for part in parts[1::2]):
        names = [f"{last}, {first}" for last, first in zip(parts[::2], parts[1::2], strict=True)]
    else:
        names = parts
    if others:
        names.append("others")
    return " and ".join(names)
