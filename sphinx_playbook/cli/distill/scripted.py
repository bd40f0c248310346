"""Elements scripts draw into: their tags kept as raw HTML around the converted text."""

from __future__ import annotations

from typing import Any

from bs4 import Tag

from . import markdown as md
from .assets import is_code_script
from .context import Context
from .elements import INLINE, attributes_html, style_of
from .inline import paragraph
from .source import attr_value

#: Elements a conversion changes (the rest of a scripted element is kept as it is).
CONVERTED = ["d-math", "d-cite", "d-footnote", "a", "em", "strong", "i", "b", "img"]


def scripted(cx: Context, node: Tag) -> bool:
    """Whether scripts draw into ``node`` (a mount point, a script, absolute positions):
    then its tags are what the scripts and the layout need, and they are kept."""
    # A section's headings must stay headings; a figure's (a panel's <h4>) need not.
    if node.name != "figure" and node.find(["h1", "h2", "h3"]) is not None:
        return False
    if any(_drawn_into(element, node) for element in [node, *node.find_all(True)]):
        return True
    element_id = attr_value(node, "id")
    return bool(element_id) and cx.assets.script_names(cx.article.soup, element_id)


def _drawn_into(element: Tag, node: Tag) -> bool:
    """A script, an absolutely placed element, or an empty mount point with an id."""
    if element.name == "script" and is_code_script(element):
        return True
    if style_of(element).get("position") == "absolute":
        return True
    return bool(
        element is not node
        and element.get("id")
        and not attr_value(element, "id").startswith("fragment-")
        and element.name not in {"img", "svg", "video"}
        and not element.get_text().strip()
        and not element.find(["img", "video"])
    )


def shell(cx: Context, node: Tag) -> str:
    """``node`` kept with its tags for its scripts, the text inside converted."""
    cx.report.raw(
        f"<{node.name}> (scripted)",
        node.sourceline,
        "scripts draw into it: its tags, ids and styles are kept; its text, formulas and "
        "citations are converted",
    )
    cx.shelled = True
    cx.nesting += 1
    try:
        return "\n\n".join(_merge_raw(_shell_parts(cx, node)))
    finally:
        cx.nesting -= 1


def _unchanged(cx: Context, node: Tag) -> bool:
    """Whether converting ``node`` would change nothing (then it is kept exactly)."""
    return bool(
        not node.get_text().strip()
        or node.name in {"script", "style", "svg"}
        or (
            node.find(CONVERTED) is None
            and all(cx.is_inline(c) for c in node.children)
            and not (cx.math_pattern and cx.math_pattern[0].search(node.get_text()))
        )
    )


def _shell_parts(cx: Context, node: Tag) -> list[str]:
    if _unchanged(cx, node):
        # Nothing a conversion would change: the element exactly as it was.
        cx.assets.referenced_by(node)
        return [raw_block(str(node))]
    if node.name in {"d-math", "d-cite", "d-footnote"} or node.name in INLINE:
        text = paragraph(cx, [node])
        return [text] if text else []
    attributes = attributes_html(node)  # as written, before the URLs are made relative
    cx.assets.referenced_by(node)
    children = list(node.children)
    if node.name == "p" and all(cx.is_inline(c) for c in children):
        # A <p> cannot hold the paragraph MyST writes: its attributes go on a <span>.
        text = cx.inline(children).strip()
        return [md.escape_line_starts(f"<span{attributes}>{text}</span>")] if text else []
    parts = [raw_block(f"<{node.name}{attributes}>")]
    if all(cx.is_inline(child) for child in children):
        text = paragraph(cx, children)
        if text:
            parts.append(text)
    else:
        parts += _children_parts(cx, children)
    parts.append(raw_block(f"</{node.name}>"))
    return [part for part in parts if part.strip()]


def _children_parts(cx: Context, children: list[Any]) -> list[str]:
    """Runs of text as paragraphs, elements as shells of their own (scripts too)."""
    parts: list[str] = []
    run: list[Any] = []
    for child in children:
        if cx.is_inline(child) and not (isinstance(child, Tag) and child.name == "script"):
            run.append(child)
            continue
        if run:
            parts.append(paragraph(cx, run))
            run = []
        if isinstance(child, Tag):
            parts += _shell_parts(cx, child)
    if run:
        parts.append(paragraph(cx, run))
    return parts


def raw_block(html: str) -> str:
    fence = md.fence(html)
    return f"{fence}{{raw}} html\n{html}\n{fence}"


def _merge_raw(parts: list[str]) -> list[str]:
    """Adjacent raw HTML blocks written as one."""
    merged: list[str] = []
    for part in parts:
        if (
            merged
            and part.startswith("```{raw} html\n")
            and merged[-1].startswith("```{raw} html\n")
            and part.endswith("\n```")
            and merged[-1].endswith("\n```")
        ):
            merged[-1] = merged[-1][: -len("\n```")] + "\n" + part[len("```{raw} html\n") :]
        else:
            merged.append(part)
    return merged
