"""Inline text: emphasis, links, citations, footnotes, inline images; text and paragraphs.

Each converter takes the :class:`Context` and one element inside a line of text and
returns its MyST; ``tables.INLINE`` says which element goes to which.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit

from bs4 import NavigableString, Tag

from . import markdown as md
from .context import Context
from .elements import attr_html, attributes_html, char_after, char_before, classes_of
from .math import math_role
from .source import attr_value

#: A link to #id in the text, resolved once every label is known.
LINK = "\x00LINK{}\x00"
#: A display formula met in a line of text, until the paragraph splits around it.
DISPLAY = "\x00DISPLAY{}\x00"


def paragraph(cx: Context, run: list[Any]) -> str:
    """A run of inline nodes as a paragraph; display formulas in it stand between parts."""
    meaningful = [
        node for node in run if not (isinstance(node, NavigableString) and not node.strip())
    ]
    if not meaningful:
        return ""
    text = cx.inline(run).strip()
    if not text:
        return ""
    cx.report.done("paragraph")
    if "\x00DISPLAY" not in text:
        return md.escape_line_starts(text)
    # Display formulas in the text: the paragraph splits around them, as it shows.
    parts = re.split("\x00DISPLAY(\\d+)\x00", text)
    blocks = []
    for index, part in enumerate(parts):
        if index % 2:
            blocks.append(f"$$\n{cx.display_math[int(part)]}\n$$")
        elif part.strip().strip("\\").strip():
            blocks.append(md.escape_line_starts(part.strip()))
    return "\n\n".join(blocks)


def text(cx: Context, text: str) -> str:
    """Text as itself, except the formulas between the page's math delimiters."""
    text = md.collapse(text)
    if not cx.math_pattern:
        return md.escape(text)
    pattern, flags = cx.math_pattern
    out = []
    position = 0
    dollars = any(d.left == "$" for d in cx.math.delimiters) if cx.math else False

    def plain(part: str) -> str:
        # With $ as a delimiter, \$ is how the article wrote a dollar sign.
        return md.escape(part.replace("\\$", "$") if dollars else part)

    for match in pattern.finditer(text):
        out.append(plain(text[position : match.start()]))
        index = next(i for i in range(len(flags)) if match.group(f"m{i}") is not None)
        out.append(_formula(cx, match.group(f"m{index}").strip(), flags[index]))
        position = match.end()
    out.append(plain(text[position:]))
    return "".join(out)


def _formula(cx: Context, tex: str, display: bool) -> str:
    cx.formulas.append((tex, display, cx.text_line))
    if display:
        cx.report.done("math (display, text delimiters)")
        cx.display_math.append(tex)
        return DISPLAY.format(len(cx.display_math) - 1)
    cx.report.done("math (text delimiters)")
    return math_role(tex)


# -- converters -------------------------------------------------------------------------


def has_attributes(node: Tag) -> bool:
    """An icon font's <i class="material-icons">play_arrow</i>, a script's target."""
    return bool(node.get("class") or node.get("id"))


def tags_kept(cx: Context, node: Tag) -> str:
    """The element's tags (its id, class and style) around its converted text."""
    cx.report.done(f"<{node.name}> (tags kept around its text)")
    return f"<{node.name}{attributes_html(node)}>{cx.inline(node.children)}</{node.name}>"


def emphasis(cx: Context, node: Tag) -> str:
    return _emphasis(cx, node, "*", "emphasis")


def strong(cx: Context, node: Tag) -> str:
    return _emphasis(cx, node, "**", "strong")


def _emphasis(cx: Context, node: Tag, marker: str, role: str) -> str:
    inner = cx.inline(node.children)
    stripped = inner.strip(" ")
    if not stripped:
        return inner
    lead = inner[: len(inner) - len(inner.lstrip(" "))]
    trail = inner[len(inner.rstrip(" ")) :]
    before = char_before(node)
    after = char_after(node)
    punctuation_inside = not stripped[0].isalnum() or not stripped[-1].isalnum()
    words_outside = (before.isalnum() and not lead) or (after.isalnum() and not trail)
    if punctuation_inside and words_outside:
        plain = md.collapse(node.get_text())
        if "`" not in plain and not node.find(True):
            return f"{lead}{{{role}}}{md.inline_code(plain.strip())}{trail}"
        cx.report.doubt(
            f"<{node.name}>", node.sourceline, "emphasis between letters may not render"
        )
    return f"{lead}{marker}{stripped}{marker}{trail}"


def code(cx: Context, node: Tag) -> str:
    cx.report.done("inline code")
    return md.inline_code(md.collapse(node.get_text()))


def kbd(cx: Context, node: Tag) -> str:
    return f"{{kbd}}{md.inline_code(md.collapse(node.get_text()))}"


def sub_sup(cx: Context, node: Tag) -> str:
    text = md.collapse(node.get_text())
    if node.find(True):
        return cx.raw_inline(node, f"<{node.name}> with markup inside")
    return f"{{{node.name}}}{md.inline_code(text)}" if text.strip() else ""


def line_break(cx: Context, node: Tag) -> str:
    return "\\\n"


def nothing(cx: Context, node: Tag) -> str:
    return ""


def quotation(cx: Context, node: Tag) -> str:
    return f"“{cx.inline(node.children)}”"


def styled(cx: Context, node: Tag) -> str:
    """<u>, <mark>, <s>, <del>, <ins>: no Markdown for them; their tags kept."""
    cx.report.raw(f"<{node.name}>", node.sourceline, "kept as HTML tags around the text")
    return f"<{node.name}{attributes_html(node)}>{cx.inline(node.children)}</{node.name}>"


def span(cx: Context, node: Tag) -> str:
    """<span>, <small>, <abbr>...: their text, with their tags when they have attributes."""
    if node.name == "span" and "katex" in classes_of(node):
        return cx.raw_inline(node, "KaTeX output without its TeX source")
    if not node.attrs:
        return cx.inline(node.children)
    if not node.get_text().strip():
        return cx.raw_inline(node, "an empty element with attributes, kept for its script")
    # Its id, class and style (a script's target, a colour) kept around the text.
    return tags_kept(cx, node)


def unknown(cx: Context, node: Tag) -> str:
    if node.name in {"d-math", "d-code"} or not cx.is_inline(node):
        return cx.raw_inline(node, f"a block <{node.name}> inside text")
    return cx.raw_inline(node, f"<{node.name}> has no equivalent")


def link(cx: Context, node: Tag) -> str:
    href = attr_value(node, "href").strip()
    inner = cx.inline(node.children)
    if not href:
        return _anchor(cx, node, inner)
    cx.report.done("link")
    if href.startswith("#"):
        plain = md.collapse(node.get_text()).strip()
        cx.links.append((unquote(href[1:]), inner, plain, node.sourceline))
        return LINK.format(len(cx.links) - 1)
    scheme = urlsplit(href).scheme.lower()
    if scheme in {"http", "https", "mailto", "ftp"}:
        return f"[{inner}]({md.url(href)})"
    local = cx.assets.local(href)
    if local is not None and local.suffix.lower() not in {".html", ".htm"}:
        path = cx.assets.file(href, node.sourceline)
        plain = md.collapse(node.get_text()).strip()
        if plain and not re.search(r"[<>`]", plain):
            return f"{{download}}`{plain} <{path}>`"
    cx.report.found["link"] -= 1
    cx.report.converted["link"] -= 1
    cx.report.raw("link", node.sourceline, f"a link to {href!r} outside the article")
    return f'<a href="{attr_html(href)}">{inner}</a>'


def _anchor(cx: Context, node: Tag, inner: str) -> str:
    """<a id> without href: an anchor MyST cannot place inside text."""
    name = cx.label_name(node) if (node.get("id") or node.get("name")) else None
    if name:
        cx.report.doubt("anchor", node.sourceline, f"the anchor #{name} inside text is not kept")
        cx.labels.discard(name.lower())
    return inner


def image_inline(cx: Context, node: Tag) -> str:
    source = cx.assets.image(attr_value(node, "src"), node.sourceline)
    alt = " ".join(attr_value(node, "alt").split())
    cx.report.done("image")
    if not alt:
        cx.report.doubt("image", node.sourceline, f"{source} has no alt text")
    return f"![{md.escape(alt)}]({md.url(source)})"


def cite(cx: Context, node: Tag) -> str:
    keys = attr_value(node, "key") or attr_value(node, "bibtex-key")
    keys = ",".join(key.strip() for key in keys.split(",") if key.strip())
    if not keys or "`" in keys:
        return cx.raw_inline(node, "a citation without a key")
    cx.report.done("d-cite")
    return f"{{cite}}`{keys}`"


def footnote(cx: Context, node: Tag) -> str:
    cx.report.done("d-footnote")
    number = len(cx.footnotes) + 1
    cx.nesting += 1
    body = "\n\n".join(cx.blocks(node.children)) or " "
    cx.nesting -= 1
    cx.footnotes.append(md.indent(body, "    ", first=f"[^fn-{number}]: "))
    return f"[^fn-{number}]"
