"""What the converter knows of Distill's elements: names, layout classes, styles."""

from __future__ import annotations

import re
from typing import Any

from bs4 import Comment, NavigableString, Tag

from .source import attr_value

HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
INLINE = frozenset(
    {
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "br",
        "cite",
        "code",
        "data",
        "dfn",
        "em",
        "i",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "time",
        "u",
        "var",
        "wbr",
        "img",
        "del",
        "ins",
        "label",
        "tt",
        "d-cite",
        "d-footnote",
    }
)
#: Layout classes and Distill's grid-column names -> the ``layout`` directive's values.
LAYOUT_CLASSES = {
    "l-body": "body",
    "l-body-outset": "body-outset",
    "l-middle": "body-outset",
    "l-page": "page",
    "l-page-outset": "page",
    "l-screen": "screen",
    "l-screen-inset": "screen-inset",
    "l-gutter": "gutter",
}
GRID_COLUMNS = {
    "text": "body",
    "middle": "body-outset",
    "page": "page",
    "screen": "screen",
    "gutter": "gutter",
    "kicker": "page",
}
NOTE_CLASSES = {"note": "note", "note-box": "note", "callout": "note", "info": "note",
                "tip": "tip", "warning": "warning", "caution": "caution"}  # fmt: skip
GENERATED = {
    "d-byline": "the byline is written from the front matter",
    "d-toc": "the theme writes the table of contents",
    "d-contents": "the theme writes the table of contents",
    "d-footnote-list": "the appendix lists the footnotes",
    "d-citation-list": "the appendix lists the references",
    "d-bibliography": "the entries are in the .bib file",
    "distill-header": "the theme writes the header",
    "distill-footer": "the theme writes the footer",
    "d-front-matter": "read into the front matter",
    "distill-appendix": "the appendix is written by the theme",
}
UNWRAP = frozenset(
    {
        "div",
        "section",
        "article",
        "main",
        "header",
        "footer",
        "hgroup",
        "center",
        "d-figure",
        "d-acknowledgements",
        "d-article",
        "d-abstract",
    }
)
#: Elements kept as raw HTML: they draw or run something, there is no text to convert.
KEPT_RAW = frozenset(
    {
     "svg", "canvas", "video", "audio", "picture", "object", "embed", "form", "input",
     "button", "select", "textarea", "map", "math", "iframe", "table", "dialog",
    }
)  # fmt: skip
#: HTML elements that end a line of text: an inline element holding one is not inline.
BLOCK_TAGS = [
    "p", "div", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
    "blockquote", "figure", "section", "article", "aside", "details", "hr", "d-figure",
]  # fmt: skip
#: Distill's elements that stand as blocks (the others are inline, like <d-cite>).
BLOCK_ELEMENTS = UNWRAP | {"d-title", "d-appendix", "d-interstitial"}
CLASS_SELECTOR = re.compile(r"\s*(?:[a-z-]*)\.([A-Za-z0-9_-]+)\s*(?:img)?\s*")


def holds_blocks(node: Tag) -> bool:
    """Whether an inline element holds a block (outside its footnotes, whose blocks are
    the footnote's own): then a browser ends the line of text there."""
    if node.name == "d-footnote":
        return False
    return any(
        block.find_parent("d-footnote") in (None, *node.find_parents("d-footnote"))
        for block in node.find_all(BLOCK_TAGS)
    )


def is_block_math(element: Tag) -> bool:
    return element.name == "d-math" and element.has_attr("block")


def is_block_code(element: Tag) -> bool:
    return element.name == "d-code" and element.has_attr("block")


def style_of(element: Tag) -> dict[str, str]:
    declarations: dict[str, str] = {}
    for part in attr_value(element, "style").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            declarations[key.strip().lower()] = " ".join(value.split())
    return declarations


def classes_of(element: Tag) -> list[str]:
    return list(element.get("class") or [])


def attr_html(value: Any) -> str:
    text = " ".join(value) if isinstance(value, list) else str(value)
    return text.replace("&", "&amp;").replace('"', "&quot;")


def attributes_html(node: Tag) -> str:
    """The element's attributes as written in an opening tag (with a space before each)."""
    return "".join(f' {key}="{attr_html(value)}"' for key, value in node.attrs.items())


def char_before(node: Tag) -> str:
    previous = node.previous_sibling
    if isinstance(previous, NavigableString) and not isinstance(previous, Comment):
        return str(previous)[-1:] or " "
    if isinstance(previous, Tag):
        text = previous.get_text()
        return text[-1:] or " "
    return " "


def char_after(node: Tag) -> str:
    following = node.next_sibling
    if isinstance(following, NavigableString) and not isinstance(following, Comment):
        return str(following)[:1] or " "
    if isinstance(following, Tag):
        return following.get_text()[:1] or " "
    return " "


def full_bleed_classes(soup: Any) -> set[str]:
    """Classes whose CSS (in the page's <style>) makes an element span the window."""
    classes: set[str] = set()
    for style in soup.find_all("style"):
        css = style.string or ""
        for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
            rule = " ".join(body.split()).lower()
            if re.search(
                # Not width: 100%: that is the column's width (often a grid of panels).
                r"grid-column\s*:\s*(screen|1\s*/\s*-1)|width\s*:\s*100vw",
                rule,
            ):
                for selector in selectors.split(","):
                    match = CLASS_SELECTOR.fullmatch(selector)
                    if match:
                        classes.add(match.group(1))
    return classes
