"""Writing MyST Markdown safely: escaping text, choosing fences, indenting blocks.

Text from the article must come out as the same text, never as markup: every
character CommonMark or MyST could read as syntax is backslash-escaped.
"""

from __future__ import annotations

import re

#: Characters that start markup anywhere in a line (CommonMark, MyST roles,
#: dollarmath, HTML and entities, table cells).
_ANYWHERE = re.compile(r"([\\`*_\[\]<>$&{}|~])")
#: What makes a line start a block: headings, quotes, lists, MyST comments,
#: colon fences, block breaks, setext underlines, targets.
_LINE_START = re.compile(r"^([#>+\-=%:(])")
_ORDERED_MARKER = re.compile(r"^(\d{1,9})([.)])")
_WHITESPACE = re.compile(r"[ \t\n\r\f]+")


def collapse(text: str) -> str:
    """HTML whitespace as a browser shows it: any run becomes one space."""
    return _WHITESPACE.sub(" ", text)


def escape(text: str) -> str:
    """Escape ``text`` so that it reads as itself anywhere inside a line."""
    return _ANYWHERE.sub(r"\\\1", text)


def escape_line_starts(text: str) -> str:
    """Escape what would start a block at the beginning of each line of ``text``."""
    lines = []
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        indent = line[: len(line) - len(stripped)]
        stripped = _LINE_START.sub(r"\\\1", stripped)
        stripped = _ORDERED_MARKER.sub(r"\1\\\2", stripped)
        lines.append(indent + stripped)
    return "\n".join(lines)


def fence(content: str, char: str = "`", minimum: int = 3) -> str:
    """A fence of ``char`` longer than any run of it at a line start in ``content``."""
    longest = 0
    for match in re.finditer(rf"^[ \t]*({re.escape(char)}+)", content, flags=re.MULTILINE):
        longest = max(longest, len(match.group(1)))
    return char * max(minimum, longest + 1)


def inline_code(text: str) -> str:
    """A code span for ``text``, with as many backticks as it needs."""
    text = text.replace("\n", " ")
    runs = [len(run) for run in re.findall(r"`+", text)]
    ticks = "`" * (max(runs, default=0) + 1)
    if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.strip()):
        text = f" {text} "
    return f"{ticks}{text}{ticks}"


def indent(text: str, prefix: str, first: str | None = None) -> str:
    """Indent every non-empty line by ``prefix`` (the first line by ``first``)."""
    lines = text.split("\n")
    out = []
    for number, line in enumerate(lines):
        lead = first if (number == 0 and first is not None) else prefix
        out.append(lead + line if line.strip() else "")
    return "\n".join(out)


def directive(name: str, argument: str, options: dict[str, str], body: str) -> str:
    """A colon-fenced MyST directive, its fence longer than any fence inside."""
    marker = fence(body, ":")
    head = f"{marker}{{{name}}}" + (f" {argument}" if argument else "")
    lines = [head] + [f":{key}: {value}" for key, value in options.items()]
    if body.strip():
        if not options and body.lstrip().startswith(":"):
            lines.append("")
        lines += ["", body] if options else [body]
    lines.append(marker)
    return "\n".join(lines)


def url(target: str) -> str:
    """A link destination that survives spaces, parentheses and angle brackets."""
    target = target.replace("<", "%3C").replace(">", "%3E")
    if re.search(r"[\s()]", target):
        return f"<{target}>"
    return target
