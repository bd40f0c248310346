"""Validation of the CSS values authors pass in options.

Each value ends up in a ``style`` attribute, so it must be one value of its
kind and nothing else: ``red; position: fixed`` or ``url(...)`` are refused.
"""

from __future__ import annotations

import re

_NUMBER = r"(?:\d+(?:\.\d+)?|\.\d+)"
_LENGTH = re.compile(rf"^{_NUMBER}(?:px|em|rem|%|vw|ch)?$")
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
_NAMED = re.compile(r"^[a-zA-Z]{3,20}$")
_FUNCTION_COLOR = re.compile(
    r"^(?:rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch)\(\s*[-+0-9.%,/ a-z]*\)$"
)
_TRACK = re.compile(rf"(?:{_NUMBER}(?:fr|px|em|rem|%|ch|vw)|auto|min-content|max-content|0)")
_TRACK_FUNCTION = re.compile(r"(?:minmax|fit-content|repeat)\(")


def length(value: str | None) -> str:
    """A width such as ``1200px``, ``80%``, ``40rem``; a bare number means px."""
    # None: the option was given without a value (or MyST read "#..." as a comment).
    text = (value or "").strip()
    if not _LENGTH.match(text):
        raise ValueError("expected a length such as 1200px, 80% or 40rem")
    return f"{text}px" if re.fullmatch(_NUMBER, text) else text


def color(value: str | None) -> str:
    """A CSS colour: a name, #hex, or rgb()/hsl()/oklch()... with plain numbers."""
    text = (value or "").strip()
    if _HEX.match(text) or _NAMED.match(text) or _FUNCTION_COLOR.match(text.lower()):
        return text
    raise ValueError("expected a CSS colour such as white, #f5f5f5 or rgb(245 245 245)")


def track_list(value: str | None) -> str:
    """A grid track list such as ``1fr 2fr`` or ``repeat(3, minmax(0, 1fr))``."""
    text = " ".join((value or "").split())
    if not text:
        raise ValueError("expected column sizes such as 1fr 1fr")
    remainder = _TRACK_FUNCTION.sub(" ", text)
    remainder = _TRACK.sub(" ", remainder)
    remainder = re.sub(r"[\s,()]|\d+", " ", remainder)
    if remainder.strip() or text.count("(") != text.count(")"):
        raise ValueError("expected column sizes such as 1fr 2fr, 300px auto or repeat(3, 1fr)")
    return text


def column_count(tracks: str) -> int | None:
    """How many columns a simple track list makes (None when repeat() hides it)."""
    if "repeat(" in tracks:
        return None
    depth, count, token = 0, 0, False
    for char in tracks:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        if depth == 0 and char == " ":
            if token:
                count += 1
            token = False
        elif not char.isspace():
            token = True
    return count + (1 if token else 0)
