"""Figures and grids: images, legends, fragments, iframes, side-by-side panels."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any

from bs4 import Comment, NavigableString, Tag
from docutils.nodes import make_id

from ...directives import css_values
from . import markdown as md
from .context import Context
from .elements import LAYOUT_CLASSES, UNWRAP, classes_of, style_of
from .inline import paragraph
from .layout import layout_of, layout_wrap
from .scripted import scripted, shell
from .source import attr_value

#: The displays that lay a figure's panels out side by side.
PANEL_DISPLAYS = {"grid", "inline-grid", "flex", "inline-flex"}


# -- legends ----------------------------------------------------------------------------


def with_legend(cx: Context, text: str, node: Tag, legend: Tag | None) -> str:
    """``text`` followed by the ``figure-legend`` that stood after ``node``."""
    if legend is None or not text.strip():
        return text
    cx.consumed.add(id(legend))
    cx.report.done("figure-legend")
    return text + "\n\n" + legend_directive(cx, legend, None)


def legend_directive(cx: Context, legend: Tag, name: str | None) -> str:
    inner = cx.nested(legend.children)
    options = {"name": name} if name else {}
    return md.directive("figure-legend", "", options, inner)


def legend_alone(cx: Context, node: Tag) -> str:
    """A ``<div class="figure-legend">`` after nothing it could caption."""
    cx.report.done("figure-legend")
    return legend_directive(cx, node, cx.label_name(node))


def figcaption_alone(cx: Context, node: Tag) -> str:
    """A ``<figcaption>`` outside a ``<figure>`` (in a ``<d-figure>``, a ``<div>``): the
    legend of what stands before it."""
    cx.report.done("figcaption")
    return legend_directive(cx, node, cx.label_name(node))


def _take_legend(cx: Context, legend: Tag | None) -> list[Tag]:
    """The legend after a figure or image, as its caption (written once, there)."""
    if legend is None:
        return []
    cx.consumed.add(id(legend))
    cx.report.done("figure-legend")
    return [legend]


def _captions_text(cx: Context, captions: list[Tag]) -> str:
    return "\n\n".join(cx.nested(caption.children) for caption in captions)


# -- figures ----------------------------------------------------------------------------


def figure(cx: Context, node: Tag, legend: Tag | None) -> str:
    """``<figure>``: an image, a fragment or an iframe with their legend, panels side by
    side, or its blocks with the legend after them."""
    if scripted(cx, node):
        return shell(cx, node)
    # Its own captions only: a panel's <figcaption> belongs to the panel.
    own = node.find_all("figcaption", recursive=False)
    content = [c for c in node.children if not any(c is caption for caption in own)]
    tags = [c for c in content if isinstance(c, Tag)]
    texts = [c for c in content if isinstance(c, NavigableString) and c.strip()]
    captions = [*own, *_take_legend(cx, legend)]
    cx.report.done("figure")
    row = caption_row(tags) if not captions else None
    if row is not None:
        # A row of captions under the image (building-blocks): the image's legend.
        content = [c for c in content if c is not row]
        tags = [c for c in tags if c is not row]
        inner = "\n\n".join(cx.blocks(content))
        # Captions of unequal length start level, as in the article's grid.
        inner += "\n\n" + md.directive("figure-legend", "", {}, grid(cx, row, align="start"))
        return layout_wrap(cx, node, cx.label(node) + inner)
    if not tags and not texts:
        if captions:
            cx.report.doubt(
                "figure", node.sourceline, "a figure holding only a caption: written as its text"
            )
        return cx.label(node) + _captions_text(cx, captions)
    single = _single_content(cx, node, tags, bool(texts), captions)
    if single is not None:
        return _beside_next_paragraph(cx, node, single) if floated(node) else single
    if _panels(node):
        inner = grid(cx, node, skip=own)
        cx.report.done("multi-panel figure")
    else:
        inner = "\n\n".join(cx.blocks(content))
    if captions and not inner.strip():
        return cx.label(node) + _captions_text(cx, captions)
    if captions:
        # The side-by-side carries the figure's id, else the legend does.
        name = None if _panels(node) else cx.label_name(node)
        options = {"name": name.lower()} if name else {}
        inner += "\n\n" + md.directive("figure-legend", "", options, _captions_text(cx, captions))
        if len(tags) > 1 and not inner.lstrip(":").startswith("{side-by-side}"):
            cx.report.doubt(
                "figure",
                node.sourceline,
                "a figure of several blocks: the legend captions the last one",
            )
    elif not _panels(node):
        # No legend to carry the figure's id: a label before its blocks keeps it.
        inner = cx.label(node) + inner
    return layout_wrap(cx, node, inner)


def caption_row(tags: list[Tag]) -> Tag | None:
    """The last block of a figure when it is a grid or flex row of ``<figcaption>`` only,
    after something it captions; else None."""
    if len(tags) < 2 or tags[-1].name not in UNWRAP or not _panels(tags[-1]):
        return None
    items = [c for c in tags[-1].children if isinstance(c, Tag)]
    texts = [c for c in tags[-1].children if isinstance(c, NavigableString) and c.strip()]
    if len(items) > 1 and not texts and all(item.name == "figcaption" for item in items):
        return tags[-1]
    return None


def _panels(node: Tag) -> bool:
    """Whether a figure's style lays its children out in a row or a grid."""
    style = style_of(node)
    return style.get("display") in PANEL_DISPLAYS and not (
        style.get("flex-direction", "row").startswith("column")
    )


def _single_content(
    cx: Context, node: Tag, tags: list[Tag], texts: bool, captions: list[Tag]
) -> str | None:
    """A figure of one image (and no text), one fragment placeholder or one local
    iframe; else None."""
    only = only_image(tags) if not texts else None
    if only is not None:
        return image_figure(cx, only, node, captions)
    only_id = attr_value(tags[0], "id") if len(tags) == 1 else ""
    if only_id.startswith("fragment-"):
        return fragment(cx, tags[0], only_id[len("fragment-") :], node, captions)
    if len(tags) == 1 and tags[0].name == "iframe":
        local = cx.assets.local(attr_value(tags[0], "src"))
        if local and local.suffix.lower() in {".html", ".htm"}:
            cx.report.done("iframe")
            return interactive(cx, tags[0], attr_value(tags[0], "src"), None, node, captions)
    return None


def image_block(cx: Context, image: Tag, legend: Tag | None) -> str:
    """An ``<img>`` standing as a block: a figure when it has a legend or a layout."""
    captions = _take_legend(cx, legend)
    if not captions and not layout_of(cx, image):
        return paragraph(cx, [image])
    return image_figure(cx, image, image, captions)


def image_figure(cx: Context, image: Tag, holder: Tag, captions: list[Tag]) -> str:
    """``figure`` (``wide-image`` across the screen) for ``image`` in ``holder``."""
    source = cx.assets.image(attr_value(image, "src"), image.sourceline)
    alt = " ".join(attr_value(image, "alt").split())
    cx.report.done("image")
    if not alt:
        cx.report.doubt("image", image.sourceline, f"{source} has no alt text")
    name = cx.label_name(holder) or (cx.label_name(image) if holder is not image else None)
    layout = layout_of(cx, holder) or (layout_of(cx, image) if holder is not image else None)
    if floated(holder) and layout is None:
        # Beside the text as published: in the margin (in the text column below 1000 px).
        layout = "gutter"
        cx.report.done("floated figure (in the margin)")
    legend = _captions_text(cx, captions)
    options = {"alt": alt} if alt else {}
    width = _width(image) or (_width(holder) if floated(holder) else None)
    if width:
        # The width the article gave the image (an SVG at 85 % of its column).
        options["width"] = width
    if name:
        options["name"] = name.lower()
    if layout == "screen":
        cx.report.done("wide-image")
        return md.directive("wide-image", source, options, legend)
    classes = _figure_classes(cx, holder, layout)
    if classes:
        options["figclass"] = " ".join(classes)
    if not legend:
        if not options:
            return paragraph(cx, [image])
        cx.report.doubt("figure", holder.sourceline, "a figure without a caption")
    return md.directive("figure", source, options, legend)


def floated(node: Tag) -> bool:
    """A figure the text flows around: ``float: left|right`` in its style, or v1's
    ``side`` class (template.v1 floats ``.side.l-body`` right)."""
    return node.name == "figure" and (
        style_of(node).get("float") in {"left", "right"} or "side" in classes_of(node)
    )


#: A paragraph shorter than this (a "Case 2:" line) is passed for the next one.
SHORT_PARAGRAPH = 80


def _beside_next_paragraph(cx: Context, node: Tag, written: str) -> str:
    """A floated figure written after the paragraph that flows beside it: the margin
    holds a block beside the one before it, as the float stood beside the next one
    (past a short line such as "Case 2:", whose row the figure would stretch)."""
    taken: list[Tag] = []
    sibling = node.next_sibling
    while sibling is not None and len(taken) < 3:
        if isinstance(sibling, Tag):
            if sibling.name != "p" or id(sibling) in cx.consumed:
                break
            text = sibling.get_text().strip()
            # html.parser leaves a v1 <p><figure>...</figure></p> as two empty <p>s.
            if text or sibling.find(True):
                taken.append(sibling)
                if len(text) >= SHORT_PARAGRAPH:
                    break
        elif not isinstance(sibling, Comment) and str(sibling).strip():
            break
        sibling = sibling.next_sibling
    if taken and len(taken[-1].get_text().strip()) < SHORT_PARAGRAPH:
        # Only short lines follow: after the first of them.
        taken = taken[:1]
    if not taken:
        return written
    before = "\n\n".join(block for block in cx.blocks(taken) if block.strip())
    cx.consumed.update(id(paragraph) for paragraph in taken)
    return f"{before}\n\n{written}" if before else written


def _width(image: Tag) -> str | None:
    """The image's width from its ``style`` or ``width`` attribute, as the figure
    directive's ``:width:`` reads it (a length or a percentage), or None."""
    value = style_of(image).get("width") or attr_value(image, "width").strip()
    if value.isdigit():
        value += "px"
    return value if re.fullmatch(r"\d+(?:\.\d+)?(?:px|%|em|pt|cm|mm|in)", value) else None


def _figure_classes(cx: Context, holder: Tag, layout: str | None) -> list[str]:
    classes = [f"l-{layout}"] if layout else []
    if layout:
        cx.report.done(f"layout ({layout})")
    if holder.name == "figure":
        # The article's stylesheets and scripts select figures by class (gif-slider).
        classes += [
            c
            for c in classes_of(holder)
            if c not in LAYOUT_CLASSES and c not in cx.full_bleed and make_id(c) == c
        ]
    return classes


# -- interactive figures ----------------------------------------------------------------


def fragment(
    cx: Context, placeholder: Tag, name: str, figure: Tag | None, captions: list[Tag] | None
) -> str:
    """``<div id="fragment-NAME">``: ``fragments/NAME.html`` as an interactive figure."""
    path = f"fragments/{name}.html"
    if not (cx.article.root / path).is_file():
        return cx.raw(
            placeholder, f"the fragment placeholder has no file {path}; kept for its script"
        )
    cx.report.done("fragment")
    return interactive(cx, placeholder, path, None, figure, captions)


def interactive(
    cx: Context,
    element: Tag,
    source: str,
    alt: str | None,
    figure: Tag | None,
    captions: list[Tag] | None,
) -> str:
    """An ``interactive-figure`` of the page ``source``, with a static fallback image."""
    path = cx.assets.file(source, element.sourceline)
    stem = PurePosixPath(path).stem
    inner_image = element.find("img")
    fallback = (
        cx.assets.image(attr_value(inner_image, "src"), element.sourceline)
        if inner_image is not None and inner_image.get("src")
        else cx.assets.same_stem_image(stem)
    )
    caption_nodes = list(captions or [])
    legend = _captions_text(cx, caption_nodes)
    alt = _interactive_alt(element, alt, inner_image, caption_nodes)
    if not alt:
        alt = f"Interactive figure {stem}"
        cx.report.doubt("fragment", element.sourceline, f"no alt text: wrote {alt!r}")
    options = {"alt": " ".join(alt.split())}
    if fallback:
        options["fallback"] = fallback
    elif not has_size(cx.article.root / path):
        options["aspect-ratio"] = "16/9"
        cx.report.doubt(
            "fragment",
            element.sourceline,
            f"{path} gives no size: a 16:9 box is reserved; set :aspect-ratio: to its shape",
        )
    if not fallback:
        cx.report.doubt(
            "fragment",
            element.sourceline,
            f"no static image {stem}.png/.svg next to it: readers without JavaScript "
            "see only the legend",
        )
    name = cx.label_name(figure) if figure is not None else None
    if name:
        options["name"] = name.lower()
    layout = layout_of(cx, figure) if figure is not None else layout_of(cx, element)
    if layout:
        options["layout"] = layout
    return md.directive("interactive-figure", path, options, legend)


def _interactive_alt(
    element: Tag, alt: str | None, inner_image: Tag | None, captions: list[Tag]
) -> str:
    """The first of: the given alt, the element's label or title, its image's alt,
    the first caption's text."""
    alt = (
        alt
        or attr_value(element, "aria-label")
        or attr_value(element, "title")
        or attr_value(element, "data-alt")
    )
    if not alt and inner_image is not None:
        alt = attr_value(inner_image, "alt")
    if not alt and captions:
        alt = " ".join(captions[0].get_text().split())
    return alt


# -- grids ------------------------------------------------------------------------------


def grid(cx: Context, node: Tag, skip: list[Tag] | None = None, align: str | None = None) -> str:
    """An inline-style CSS grid or flex row: ``side-by-side`` with its column tracks
    (and ``align``, how its columns line up)."""
    skipped = {id(tag) for tag in skip or []}
    children = [
        c for c in node.children
        if id(c) not in skipped and (isinstance(c, Tag) or (
            isinstance(c, NavigableString) and not isinstance(c, Comment) and c.strip()))
    ]  # fmt: skip
    options = _grid_options(cx, node, children)
    if align:
        options["align"] = align
    cx.report.done("grid / flex row")
    cx.nesting += 1
    columns = [column for child in children if (column := _grid_column(cx, child))]
    cx.nesting -= 1
    if not columns and (node.get("class") or node.get("id")):
        return cx.raw(node, "an empty grid or flex row, kept for its script or style")
    if not columns:
        cx.report.doubt(
            "grid", node.sourceline, "an empty grid or flex row (filled by nothing) is left out"
        )
        return ""
    if len(columns) < 2:
        # A single panel: no side-by-side.
        return cx.label(node) + columns[0]
    name = cx.label_name(node)
    if name:
        options["name"] = name.lower()
    return md.directive("side-by-side", "", options, "\n\n".join(columns))


def _grid_options(cx: Context, node: Tag, children: list[Any]) -> dict[str, str]:
    """``side-by-side``'s columns (the grid's tracks, or the items' flex-grow) and layout."""
    style = style_of(node)
    columns_value = style.get("grid-template-columns")
    if not columns_value and style.get("display", "").endswith("flex"):
        columns_value = _flex_tracks(children)
    options: dict[str, str] = {}
    if columns_value:
        try:
            options["columns"] = css_values.track_list(columns_value)
        except ValueError:
            cx.report.doubt("grid", node.sourceline, f"columns {columns_value!r} are not kept")
    layout = layout_of(cx, node)
    if layout in {"body-outset", "page"}:
        options["layout"] = layout
    return options


def _flex_tracks(children: list[Any]) -> str | None:
    """``2fr 1fr``... when every item of a flex row grows by a number, not all the same."""
    grows = []
    for child in children:
        child_style = style_of(child) if isinstance(child, Tag) else {}
        flex = (child_style.get("flex") or child_style.get("flex-grow") or "").split()
        grows.append(flex[0] if flex and re.fullmatch(r"\d+(\.\d+)?", flex[0]) else None)
    if grows and all(grows) and len(set(grows)) > 1:
        return " ".join(f"{grow}fr" for grow in grows)
    return None


def _grid_column(cx: Context, child: Any) -> str:
    """One item of a grid as one column ("" when it holds nothing)."""
    if isinstance(child, NavigableString):
        blocks = [paragraph(cx, [child])]
    elif child.name == "figcaption":
        # A caption of its own column: nothing before it in the column to caption.
        cx.report.done("figcaption")
        blocks = [b for b in cx.blocks(child.children) if b.strip()]
        blocks[:1] = [cx.label(child) + block for block in blocks[:1]]
    elif column_wrapper(child):
        blocks = [cx.label(child) + "\n\n".join(cx.blocks(child.children))]
    else:
        blocks = cx.blocks([child])
    blocks = [b for b in blocks if b.strip()]
    joins_legend = len(blocks) == 2 and blocks[1].lstrip(":").startswith("{figure-legend}")
    if len(blocks) > 1 and not joins_legend:
        return md.directive("container", "", {}, "\n\n".join(blocks))
    return "\n\n".join(blocks)


COLUMN_STYLES = {"flex", "flex-grow", "flex-shrink", "flex-basis", "width", "min-width",
                  "max-width", "grid-column", "grid-row", "min-height"}  # fmt: skip


def column_wrapper(node: Tag) -> bool:
    """A grid or flex item that only sizes its column (its size is in :columns:)."""
    return (
        node.name in UNWRAP
        and not node.get("class")
        and not attr_value(node, "id").startswith("fragment-")
        and set(style_of(node)) <= COLUMN_STYLES
    )


def has_size(path: Path) -> bool:
    """Whether a fragment states its size (width and height attributes or style)."""
    try:
        html = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    attributes = re.search(r'\bwidth="\d+(?:px)?"[^>]*\bheight="\d+(?:px)?"', html)
    style = re.search(r"width:\s*\d+px;\s*height:\s*\d+px", html)
    return bool(attributes or style)


def only_image(tags: list[Tag]) -> Tag | None:
    """The single <img> of a figure, possibly wrapped in a link-less <p>/<div>/<picture>."""
    if len(tags) != 1:
        return None
    tag = tags[0]
    while tag.name in {"p", "div", "picture", "d-figure"}:
        inner = [c for c in tag.children if isinstance(c, Tag)]
        text = [c for c in tag.children if isinstance(c, NavigableString) and c.strip()]
        if len(inner) != 1 or text or tag.get("id") or tag.get("class"):
            return None
        tag = inner[0]
    return tag if tag.name == "img" and tag.get("src") else None
