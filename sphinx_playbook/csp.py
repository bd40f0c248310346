"""What a strict Content-Security-Policy needs of the pages we write.

``playbook_csp = True`` writes :data:`POLICY` into every page as a
``<meta http-equiv="Content-Security-Policy">``. The pages are the same without it:
they hold no inline script, no ``<style>`` element and no ``style`` attribute of
ours, so a site may also send the policy (or a stricter one) as an HTTP header.

- :func:`move_style_attributes`: every ``style="..."`` attribute of a fragment (a
  page's body: Sphinx's image and table widths, the bands' and columns' custom
  properties, an interactive figure's reserved size, KaTeX's metrics, an author's
  raw HTML) becomes a class, whose rule goes into the page's own stylesheet.
  Each declaration is ``!important``, as an inline style outranks every rule.
- :func:`move_inline_scripts`: every inline ``<script>`` of a fragment (an
  interactive figure's export) becomes a file, named by its content.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Callable

#: The policy the issue asks every page to work under: our own origin only, images
#: also from data: URLs (Sphinx's and extensions' small icons).
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-src 'self'"
)

#: Where a library injects its own stylesheet as ``<style>`` elements that the page
#: cannot link instead (a plotly.js older than its hook for strict policies, see
#: interactive/plotly_styles.py; the policy refuses the element): the figure's own
#: page, or an article whose figure is inline, then allows style elements, and
#: nothing else, inline. Scripts stay strict.
LIBRARY_STYLE_ELEMENTS = "style-src-elem 'self' 'unsafe-inline'"


def policy(library_style_elements: bool = False) -> str:
    """:data:`POLICY`, with :data:`LIBRARY_STYLE_ELEMENTS` for pages that need it."""
    return f"{POLICY}; {LIBRARY_STYLE_ELEMENTS}" if library_style_elements else POLICY


#: Comments, elements whose content is text (skipped), and start tags.
HTML_TOKEN = re.compile(
    r"""(?P<comment><!--.*?-->)
      | (?P<raw><(?P<rawname>script|style|textarea|title)\b
          (?P<rawattrs>(?:"[^"]*"|'[^']*'|[^'">])*)>(?P<rawbody>.*?)</(?P=rawname)\s*>)
      | (?P<tag><[a-zA-Z][\w:.-]*)(?P<attrs>(?:"[^"]*"|'[^']*'|[^'">])*)>""",
    re.IGNORECASE | re.DOTALL | re.VERBOSE,
)
#: One attribute of a start tag, its value quoted or not.
HTML_ATTRIBUTE = re.compile(
    r"""(?P<space>\s*)(?P<name>[^\s"'>/=]+)(?:\s*=\s*(?P<value>"[^"]*"|'[^']*'|[^\s"'=<>`]+))?""",
)
#: A script the browser does not run (data: JSON, templates): no policy applies.
_DATA_SCRIPT = re.compile(
    r"""\btype\s*=\s*["']?(?!(?:text|application)/(?:java|ecma)script\b|module\b)[\w/+.-]+""", re.I
)

#: A ``media`` attribute.
_MEDIA = re.compile(r"""\bmedia\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)

#: Prefix of the classes that replace style attributes.
CLASS_PREFIX = "pb-s-"


def attribute_value(value: str | None) -> str:
    if value is None:
        return ""
    if value[:1] in "\"'":
        value = value[1:-1]
    return html.unescape(value)


def split_declarations(text: str) -> list[str] | None:
    """The declarations of a style attribute, or None when they could break out of a
    rule in a stylesheet (braces, an unclosed string or comment)."""
    if "{" in text or "}" in text or "/*" in text or "<" in text:
        return None
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    depth = 0
    for char in text.replace("\n", " ").replace("\r", " "):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif char == ";" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    if quote:
        return None
    parts.append("".join(current))
    return [p.strip() for p in parts if ":" in p and p.strip()]


def _important(declaration: str) -> str:
    if re.search(r"!\s*important\s*$", declaration, re.IGNORECASE):
        return declaration
    return declaration + " !important"


def _rewrite_start_tags(markup: str, rewrite: Callable[[str, str], str | None]) -> str:
    """Each start tag outside comments and text elements through ``rewrite(tag, attrs)``
    (None leaves it as it is)."""

    def one(match: re.Match[str]) -> str:
        if match.group("tag") is None:
            return match.group(0)
        new = rewrite(match.group("tag"), match.group("attrs"))
        return match.group(0) if new is None else new

    return HTML_TOKEN.sub(one, markup)


def move_style_attributes(markup: str) -> tuple[str, dict[str, str]]:
    """``markup`` with each ``style`` attribute replaced by a class, and the rules
    (class name -> declarations) in the order they first appear.

    A style whose text could escape its rule stays where it is (a strict policy
    then ignores it, as it would have anyway).
    """
    rules: dict[str, str] = {}

    def rewrite(tag: str, attrs: str) -> str | None:
        if "style" not in attrs.lower():
            return None
        items = [
            (m.group("space"), m.group("name"), m.group("value"))
            for m in HTML_ATTRIBUTE.finditer(attrs)
        ]
        style = [i for i, (_, name, _v) in enumerate(items) if name.lower() == "style"]
        if not style:
            return None
        declarations = split_declarations(attribute_value(items[style[0]][2]))
        if declarations is None:
            return None
        kept = [item for i, item in enumerate(items) if i not in style]
        if declarations:
            body = "; ".join(_important(d) for d in declarations)
            name = CLASS_PREFIX + hashlib.sha256(body.encode("utf-8")).hexdigest()[:10]
            rules.setdefault(name, body)
            classes = [i for i, (_, n, _v) in enumerate(kept) if n.lower() == "class"]
            if classes:
                space, n, value = kept[classes[0]]
                joined = f"{attribute_value(value)} {name}".strip()
                kept[classes[0]] = (space, n, f'"{html.escape(joined)}"')
            else:
                kept.append((" ", "class", f'"{name}"'))
        written = "".join(
            f"{space or ' '}{name}" + (f"={value}" if value is not None else "")
            for space, name, value in kept
        )
        return f"{tag}{written}{_tail(attrs)}>"

    return _rewrite_start_tags(markup, rewrite), rules


def _tail(attrs: str) -> str:
    """What follows a tag's last attribute: a self-closing slash and spaces."""
    match = re.search(r"\s*/?\s*$", attrs)
    tail = match.group(0) if match else ""
    return " /" if "/" in tail else ""


def stylesheet(rules: dict[str, str]) -> str:
    """The rules of :func:`move_style_attributes`, one a line."""
    return "".join(f".{name}{{{body}}}\n" for name, body in rules.items())


def move_inline_scripts(markup: str, src: Callable[[str], str]) -> tuple[str, dict[str, str]]:
    """``markup`` with each inline script that runs replaced by ``<script src>``: the
    file names (``src(code)`` gives each one's URL, by content) and their code.

    Scripts of data (JSON, templates) stay: a browser never runs them, so no policy
    applies to them.
    """
    files: dict[str, str] = {}

    def one(match: re.Match[str]) -> str:
        if match.group("raw") is None or match.group("rawname").lower() != "script":
            return match.group(0)
        attrs, code = match.group("rawattrs"), match.group("rawbody")
        if re.search(r"""(?:^|\s)src\s*=""", attrs, re.I) or _DATA_SCRIPT.search(attrs):
            return match.group(0)
        if not code.strip():
            return match.group(0)
        url = src(code)
        files[url] = code
        return f'<script{attrs.rstrip()} src="{html.escape(url)}"></script>'

    return HTML_TOKEN.sub(one, markup), files


def move_style_elements(markup: str) -> tuple[str, str]:
    """``markup`` without its ``<style>`` elements, and their text (media kept)."""
    sheets: list[str] = []

    def one(match: re.Match[str]) -> str:
        if match.group("raw") is None or match.group("rawname").lower() != "style":
            return match.group(0)
        media = re.search(
            r"""\bmedia\s*=\s*(?:"([^"]*)"|'([^']*)')""", match.group("rawattrs"), re.I
        )
        text = match.group("rawbody").strip()
        if text:
            query = media and (media.group(1) or media.group(2))
            sheets.append(f"@media {query}{{\n{text}\n}}\n" if query else text + "\n")
        return ""

    return HTML_TOKEN.sub(one, markup), "".join(sheets)


def script_name(code: str) -> str:
    """A file name for an inline script, by its content."""
    return hashlib.sha256(code.encode("utf-8")).hexdigest()[:16] + ".js"


def css_string(text: str) -> str:
    """``text`` as a CSS string literal, safe in any stylesheet."""
    escaped = text.replace("\\", "\\5c ").replace('"', "\\22 ").replace("<", "\\3c ")
    return '"' + re.sub(r"[\r\n\f]+", " ", escaped) + '"'


def meta_tag(policy: str = POLICY) -> str:
    return f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}"/>'
