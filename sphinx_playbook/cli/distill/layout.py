"""Distill's columns: an element's layout class or grid-column, as a ``layout`` value."""

from __future__ import annotations

from bs4 import Tag

from . import markdown as md
from .context import Context
from .elements import GRID_COLUMNS, LAYOUT_CLASSES, classes_of, style_of


def layout_of(cx: Context, node: Tag) -> str | None:
    """The column ``node`` spans, None for the text column (the default)."""
    for css_class in classes_of(node):
        if css_class in LAYOUT_CLASSES:
            layout = LAYOUT_CLASSES[css_class]
            return None if layout == "body" else layout
        if css_class in cx.full_bleed:
            return "screen"
    column = style_of(node).get("grid-column", "").split("/")[0].strip()
    if column in GRID_COLUMNS:
        layout = GRID_COLUMNS[column]
        return None if layout == "body" else layout
    if column:
        cx.report.doubt(
            f"<{node.name}>", node.sourceline, f"grid-column {column!r} is not a known column"
        )
    return None


def layout_directive(cx: Context, layout: str, body: str) -> str:
    cx.report.done(f"layout ({layout})")
    return md.directive("layout", layout, {}, body)


def layout_wrap(cx: Context, node: Tag, text: str, allow: set[str] | None = None) -> str:
    """``text`` in a ``layout`` directive when ``node`` spans another column (of ``allow``)."""
    layout = layout_of(cx, node)
    if not layout or not text.strip() or (allow is not None and layout not in allow):
        return text
    return layout_directive(cx, layout, text)


def image_layout(cx: Context, image: Tag) -> str | None:
    """The column of an image with a layout class of its own (then it is a block)."""
    if not any(c in LAYOUT_CLASSES or c in cx.full_bleed for c in classes_of(image)):
        return None
    return layout_of(cx, image)
