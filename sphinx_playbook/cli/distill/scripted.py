"""Elements scripts draw into: their tags kept as raw HTML around the converted text."""

from __future__ import annotations

from typing import Any

from bs4 import Comment, Tag

from . import markdown as md
from .assets import is_code_script
from .context import Context
from .elements import INLINE, attributes_html, style_of
from .inline import paragraph
from .math import block_math
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
    if node.name == "d-math" and node.has_attr("block"):
        return [block_math(cx, node)]
    if node.name in {"d-math", "d-cite", "d-footnote"}:
        # Converted even when their only child is text (_unchanged looks at descendants).
        text = paragraph(cx, [node])
        return [text] if text else []
    if _unchanged(cx, node):
        # Nothing a conversion would change: the element exactly as it was.
        cx.assets.referenced_by(node)
        return [raw_block(str(node))]
    if node.name in INLINE:
        text = paragraph(cx, [node])
        return [text] if text else []
    attributes = attributes_html(node)  # as written, before the URLs are made relative
    cx.assets.referenced_by(node)
    children = list(node.children)
    if node.name == "p" and not node.attrs and all(cx.is_inline(c) for c in children):
        text = paragraph(cx, children)
        return [text] if text else []
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
            parts.append(_run_part(cx, run))
            run = []
        if isinstance(child, Tag):
            parts += _shell_parts(cx, child)
    if run:
        parts.append(_run_part(cx, run))
    return parts


def _run_part(cx: Context, run: list[Any]) -> str:
    """A run of inline children: a paragraph, or, when it holds only elements that a
    conversion would not change (``<label>`` after its ``<input>``), those elements as
    they were: a ``<p>`` around them would break the article's sibling selectors
    (``input:checked + label``)."""
    elements = [c for c in run if isinstance(c, Tag)]
    loose = [c for c in run if not isinstance(c, Tag | Comment) and str(c).strip()]
    if elements and not loose and all(_kept_as_is(cx, e) for e in elements):
        for element in elements:
            cx.assets.referenced_by(element)
        return raw_block("".join(str(c) for c in run if not isinstance(c, Comment)).strip())
    return paragraph(cx, run)


def _kept_as_is(cx: Context, element: Tag) -> bool:
    """An inline element a conversion would not change (a ``<d-cite>`` or a link is
    converted even when it holds only text)."""
    return (
        element.name in INLINE
        and element.name not in CONVERTED
        and not element.name.startswith("d-")
        and _unchanged(cx, element)
    )


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


# -- elements the article's own CSS or JS addresses -------------------------------------

#: Elements whose converters keep what the article's CSS and JS need already.
_NOT_SHELLED = frozenset(
    {"d-title", "d-appendix", "d-article", "d-front-matter", "d-bibliography", "d-math",
     "d-cite", "d-footnote", "d-code", "script", "style", "link", "template", "noscript",
     "h1", "h2", "h3", "h4", "h5", "h6", "html", "head", "body"}
)  # fmt: skip
#: What a conversion changes inside kept HTML: formulas, citations, footnotes.
_CONVERTED_INSIDE = ["d-math", "d-cite", "d-footnote", "d-code", "math"]
#: Attributes MyST's ``{#id .class}`` carries; any other keeps the element as HTML.
_ATTRS_BLOCK = {"p", "ol", "ul", "blockquote"}


def addressed_block(cx: Context, node: Tag, legend: Tag | None) -> str | None:
    """An element the article's CSS or JS addresses (a class, its id, a handler): its
    tag, id, classes, style, ``data-*`` and handlers kept; None when the element's
    own converter keeps them (a heading, a script, a formula, raw HTML)."""
    from .elements import GENERATED, KEPT_RAW

    if node.name in _NOT_SHELLED or node.name in GENERATED or node.name in KEPT_RAW:
        return None
    element_id = attr_value(node, "id")
    if element_id.startswith("fragment-") or (
        element_id and not node.get_text().strip() and not node.find("img")
    ):
        return None  # an interactive fragment, a mount point: kept by their converters
    if node.name in {"div", "section", "figure", "d-figure"} and scripted(cx, node):
        return None  # scripts draw into it: its shell keeps its tags
    if node.find(["h1", "h2", "h3"]) is not None and _collapsed(cx, node):
        # Collapsed until a button or heading opens it: kept closed, its headings rubrics
        # (a section cannot start inside it), its text converted.
        cx.report.doubt(
            f"<{node.name}> (collapsed)",
            node.sourceline,
            f"hidden by the article's CSS until a script opens it ({_why(cx, node)}): kept "
            "closed with its tags; the headings inside are not sections",
        )
        cx.nesting += 1
        try:
            return "\n\n".join(_merge_raw(_shell_parts(cx, node)))
        finally:
            cx.nesting -= 1
    if node.find(["h1", "h2", "h3"]) is not None:
        # A section's headings must stay headings (the table of contents, the labels).
        cx.report.doubt(
            f"<{node.name}> (addressed)",
            node.sourceline,
            f"the article's CSS or JS addresses it ({_why(cx, node)}) but it holds "
            "headings: its content is converted, its tags are not kept",
        )
        return None
    construct = f"<{node.name}> (addressed: tags kept)"
    cx.report.found[construct] += 1
    cx.report.converted[construct] += 1
    cx.report.doubt(
        construct,
        node.sourceline,
        f"the article's CSS or JS addresses it ({_why(cx, node)}): its tag and attributes are kept",
    )
    attributes = set(node.attrs) - {"id", "class"}
    if (
        node.name in _ATTRS_BLOCK
        and not attributes
        and _myst_ids(node)
        and not any(isinstance(child, Tag) and child.attrs for child in node.find_all("li"))
    ):
        # MyST's block attributes hold an id and classes: the block stays Markdown.
        written = cx.walker.table_block(node, legend)
        element_id = attr_value(node, "id")
        attrs = " ".join(
            ([f"#{element_id}"] if element_id else []) + [f".{c}" for c in node.get("class") or []]
        )
        cx.addressed_as_markdown.add(id(node))
        return f"{{{attrs}}}\n{_without_label(written, node)}"
    if _nothing_to_convert(cx, node):
        cx.assets.referenced_by(node)
        return raw_block(str(node))
    cx.nesting += 1
    try:
        return "\n\n".join(_merge_raw(_shell_parts(cx, node)))
    finally:
        cx.nesting -= 1


def _collapsed(cx: Context, node: Tag) -> bool:
    classes = set(node.get("class") or [])
    return bool(classes & cx.behaviour.hidden_classes)


def _why(cx: Context, node: Tag) -> str:
    from .behaviour import describe

    return describe(cx.behaviour, node)


def _myst_ids(node: Tag) -> bool:
    """Whether MyST writes the element's id exactly as it is (lower case, no ``_``)."""
    from docutils.nodes import make_id

    element_id = node.get("id")
    return not isinstance(element_id, str) or make_id(element_id) == element_id


def _without_label(written: str, node: Tag) -> str:
    """The block without the ``(id)=`` label its converter put before it (the block
    attributes carry the id)."""
    element_id = node.get("id")
    if isinstance(element_id, str) and written.startswith(f"({element_id.lower()})=\n"):
        return written[len(f"({element_id.lower()})=\n") :]
    return written


def _nothing_to_convert(cx: Context, node: Tag) -> bool:
    """Whether the element holds nothing a conversion writes differently (formulas,
    citations, footnotes, math between delimiters): then it is kept exactly."""
    if node.find(_CONVERTED_INSIDE) is not None:
        return False
    if any(
        attr_value(script, "type").lower().startswith("math/tex")
        for script in node.find_all("script")
    ):
        return False
    return not (cx.math_pattern and cx.math_pattern[0].search(node.get_text()))


def addressed_inline(cx: Context, node: Tag) -> str | None:
    """An element inside text the article's CSS or JS addresses (a link with
    ``onclick``): its tags and attributes kept around its converted text."""
    if node.name in {"d-math", "d-cite", "d-footnote", "d-code", "script", "br", "wbr"}:
        return None
    construct = f"<{node.name}> (addressed: tags kept)"
    cx.report.found[construct] += 1
    cx.report.converted[construct] += 1
    cx.assets.referenced_by(node)
    if node.name in {"img", "input"} or not node.contents:
        return md.collapse(str(node))
    return f"<{node.name}{attributes_html(node)}>{cx.inline(node.children)}</{node.name}>"
