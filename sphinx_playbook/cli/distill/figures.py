"""Figures and grids: images, legends, layouts, fragments, side-by-side panels."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any

from bs4 import Comment, NavigableString, Tag
from docutils.nodes import make_id

from ...directives import css_values
from . import markdown as md
from .assets import is_code_script
from .elements import (
    GRID_COLUMNS,
    INLINE,
    LAYOUT_CLASSES,
    UNWRAP,
    attr_html,
    classes_of,
    style_of,
)
from .source import attr_value
from .walk import Walk


class FiguresMixin(Walk):
    """Figures, their legends and layouts; grids and flex rows of panels."""

    def with_legend(self, text: str, node: Tag, legend: Tag | None) -> str:
        if legend is None or not text.strip():
            return text
        self.consumed.add(id(legend))
        self.report.done("figure-legend")
        return text + "\n\n" + self.legend_directive(legend, None)

    def _legend_after(self, following: list[Any]) -> Tag | None:
        for node in following:
            if isinstance(node, NavigableString) and not isinstance(node, Comment):
                if node.strip():
                    return None
                continue
            if isinstance(node, Tag):
                return node if node.name == "div" and "figure-legend" in classes_of(node) else None
            return None
        return None

    def legend_directive(self, legend: Tag, name: str | None) -> str:
        inner = self.nested(legend.children)
        options = {"name": name} if name else {}
        return md.directive("figure-legend", "", options, inner)

    def legend_alone(self, node: Tag) -> str:
        self.report.done("figure-legend")
        return self.legend_directive(node, self.label_name(node))

    def layout_of(self, node: Tag) -> str | None:
        for css_class in classes_of(node):
            if css_class in LAYOUT_CLASSES:
                layout = LAYOUT_CLASSES[css_class]
                return None if layout == "body" else layout
            if css_class in self.full_bleed:
                return "screen"
        column = style_of(node).get("grid-column", "").split("/")[0].strip()
        if column in GRID_COLUMNS:
            layout = GRID_COLUMNS[column]
            return None if layout == "body" else layout
        if column:
            self.report.doubt(
                f"<{node.name}>", node.sourceline, f"grid-column {column!r} is not a known column"
            )
        return None

    def layout_directive(self, layout: str, body: str) -> str:
        self.report.done(f"layout ({layout})")
        return md.directive("layout", layout, {}, body)

    def layout_wrap(self, node: Tag, text: str, allow: set[str] | None = None) -> str:
        layout = self.layout_of(node)
        if not layout or not text.strip() or (allow is not None and layout not in allow):
            return text
        return self.layout_directive(layout, text)

    def _image_layout(self, image: Tag) -> str | None:
        if not any(c in LAYOUT_CLASSES or c in self.full_bleed for c in classes_of(image)):
            return None
        return self.layout_of(image)

    def scripted(self, node: Tag) -> bool:
        """Whether scripts draw into ``node`` (a mount point, a script, absolute positions):
        then its tags are what the scripts and the layout need, and they are kept."""
        # A section's headings must stay headings; a figure's (a panel's <h4>) need not.
        if node.name != "figure" and node.find(["h1", "h2", "h3"]) is not None:
            return False
        for element in [node, *node.find_all(True)]:
            if element.name == "script" and is_code_script(element):
                return True
            if style_of(element).get("position") == "absolute":
                return True
            if (
                element is not node
                and element.get("id")
                and not attr_value(element, "id").startswith("fragment-")
                and element.name not in {"img", "svg", "video"}
                and not element.get_text().strip()
                and not element.find(["img", "video"])
            ):
                return True
        element_id = attr_value(node, "id")
        return bool(element_id) and self.assets.script_names(self.article.soup, element_id)

    def shell(self, node: Tag) -> str:
        """``node`` kept with its tags for its scripts, the text inside converted."""
        self.report.raw(
            f"<{node.name}> (scripted)",
            node.sourceline,
            "scripts draw into it: its tags, ids and styles are kept; its text, formulas and "
            "citations are converted",
        )
        self.shelled = True
        self.nesting += 1
        try:
            return "\n\n".join(_merge_raw(self._shell_parts(node)))
        finally:
            self.nesting -= 1

    def _shell_parts(self, node: Tag) -> list[str]:
        converted = ["d-math", "d-cite", "d-footnote", "a", "em", "strong", "i", "b", "img"]
        if (
            not node.get_text().strip()
            or node.name in {"script", "style", "svg"}
            or (
                node.find(converted) is None
                and all(self._is_inline(c) for c in node.children)
                and not (self.math_pattern and self.math_pattern[0].search(node.get_text()))
            )
        ):
            # Nothing a conversion would change: the element exactly as it was.
            self.assets.referenced_by(node)
            return [_raw_block(str(node))]
        if node.name in {"d-math", "d-cite", "d-footnote"} or node.name in INLINE:
            text = self.paragraph([node])
            return [text] if text else []
        attributes = "".join(f' {k}="{attr_html(v)}"' for k, v in node.attrs.items())
        self.assets.referenced_by(node)
        if node.name == "p" and all(self._is_inline(c) for c in node.children):
            # A <p> cannot hold the paragraph MyST writes: its attributes go on a <span>.
            text = self.inline(node.children).strip()
            return [md.escape_line_starts(f"<span{attributes}>{text}</span>")] if text else []
        parts = [_raw_block(f"<{node.name}{attributes}>")]
        children = list(node.children)
        if all(self._is_inline(child) for child in children):
            text = self.paragraph(children)
            if text:
                parts.append(text)
        else:
            run: list[Any] = []
            for child in children:
                if self._is_inline(child) and not (
                    isinstance(child, Tag) and child.name in {"script"}
                ):
                    run.append(child)
                    continue
                if run:
                    parts.append(self.paragraph(run))
                    run = []
                if isinstance(child, Tag):
                    parts += self._shell_parts(child)
            if run:
                parts.append(self.paragraph(run))
        parts.append(_raw_block(f"</{node.name}>"))
        return [part for part in parts if part.strip()]

    def figure(self, node: Tag, legend: Tag | None) -> str:
        if self.scripted(node):
            return self.shell(node)
        # Its own captions only: a panel's <figcaption> belongs to the panel.
        own = node.find_all("figcaption", recursive=False)
        content = [c for c in node.children if not any(c is caption for caption in own)]
        tags = [c for c in content if isinstance(c, Tag)]
        texts = [c for c in content if isinstance(c, NavigableString) and c.strip()]
        if legend is not None:
            self.consumed.add(id(legend))
            self.report.done("figure-legend")
        captions = [*own, *([legend] if legend is not None else [])]
        self.report.done("figure")
        if not tags and not texts:
            if captions:
                self.report.doubt(
                    "figure",
                    node.sourceline,
                    "a figure holding only a caption: written as its text",
                )
            return self.label(node) + "\n\n".join(self.nested_text(c) for c in captions)
        only = only_image(tags) if not texts else None
        if only is not None:
            return self.image_figure(only, node, captions)
        only_id = attr_value(tags[0], "id") if len(tags) == 1 else ""
        if only_id.startswith("fragment-"):
            return self.fragment(tags[0], only_id[len("fragment-") :], node, captions)
        if len(tags) == 1 and tags[0].name == "iframe":
            local = self.assets.local(attr_value(tags[0], "src"))
            if local and local.suffix.lower() in {".html", ".htm"}:
                self.report.done("iframe")
                return self.interactive(tags[0], attr_value(tags[0], "src"), None, node, captions)
        style = style_of(node)
        if style.get("display") in {"grid", "inline-grid", "flex", "inline-flex"} and not (
            style.get("flex-direction", "row").startswith("column")
        ):
            inner = self.grid(node, skip=own)
            self.report.done("multi-panel figure")
            named = True  # the side-by-side carries the figure's id
        else:
            inner = "\n\n".join(self.blocks(content))
            named = False
        if captions and not inner.strip():
            return self.label(node) + "\n\n".join(self.nested_text(c) for c in captions)
        if captions:
            name = None if named else self.label_name(node)
            legend_text = "\n\n".join(self.nested_text(c) for c in captions)
            inner += "\n\n" + md.directive(
                "figure-legend", "", {"name": name.lower()} if name else {}, legend_text
            )
            if len(tags) > 1 and not inner.lstrip(":").startswith("{side-by-side}"):
                self.report.doubt(
                    "figure",
                    node.sourceline,
                    "a figure of several blocks: the legend captions the last one",
                )
        return self.layout_wrap(node, inner)

    def nested_text(self, node: Tag) -> str:
        return self.nested(node.children)

    def image_block(self, image: Tag, legend: Tag | None) -> str:
        captions = [legend] if legend is not None else []
        if legend is not None:
            self.consumed.add(id(legend))
            self.report.done("figure-legend")
        if not captions and not self.layout_of(image):
            return self.paragraph([image])
        return self.image_figure(image, image, captions)

    def image_figure(self, image: Tag, holder: Tag, captions: list[Tag]) -> str:
        source = self.assets.image(attr_value(image, "src"), image.sourceline)
        alt = " ".join(attr_value(image, "alt").split())
        self.report.done("image")
        if not alt:
            self.report.doubt("image", image.sourceline, f"{source} has no alt text")
        name = self.label_name(holder) or (self.label_name(image) if holder is not image else None)
        layout = self.layout_of(holder) or (self.layout_of(image) if holder is not image else None)
        legend = "\n\n".join(self.nested_text(c) for c in captions)
        if layout == "screen":
            self.report.done("wide-image")
            options = {"alt": alt} if alt else {}
            if name:
                options["name"] = name.lower()
            return md.directive("wide-image", source, options, legend)
        options = {"alt": alt} if alt else {}
        if name:
            options["name"] = name.lower()
        classes = [f"l-{layout}"] if layout else []
        if layout:
            self.report.done(f"layout ({layout})")
        if holder.name == "figure":
            # The article's stylesheets and scripts select figures by class (gif-slider).
            classes += [
                c
                for c in classes_of(holder)
                if c not in LAYOUT_CLASSES and c not in self.full_bleed and make_id(c) == c
            ]
        if classes:
            options["figclass"] = " ".join(classes)
        if not legend:
            if not options:
                return self.paragraph([image])
            self.report.doubt("figure", holder.sourceline, "a figure without a caption")
        return md.directive("figure", source, options, legend)

    def fragment(
        self, placeholder: Tag, name: str, figure: Tag | None, captions: list[Tag] | None
    ) -> str:
        path = f"fragments/{name}.html"
        if not (self.article.root / path).is_file():
            return self.raw(
                placeholder, f"the fragment placeholder has no file {path}; kept for its script"
            )
        self.report.done("fragment")
        return self.interactive(placeholder, path, None, figure, captions)

    def interactive(
        self,
        element: Tag,
        source: str,
        alt: str | None,
        figure: Tag | None,
        captions: list[Tag] | None,
    ) -> str:
        path = self.assets.file(source, element.sourceline)
        stem = PurePosixPath(path).stem
        inner_image = element.find("img")
        fallback = (
            self.assets.image(attr_value(inner_image, "src"), element.sourceline)
            if inner_image is not None and inner_image.get("src")
            else self.assets.same_stem_image(stem)
        )
        alt = (
            alt
            or attr_value(element, "aria-label")
            or attr_value(element, "title")
            or attr_value(element, "data-alt")
        )
        if not alt and inner_image is not None:
            alt = attr_value(inner_image, "alt")
        caption_nodes = list(captions or [])
        legend = "\n\n".join(self.nested_text(c) for c in caption_nodes)
        if not alt and caption_nodes:
            alt = " ".join(caption_nodes[0].get_text().split())
        if not alt:
            alt = f"Interactive figure {stem}"
            self.report.doubt("fragment", element.sourceline, f"no alt text: wrote {alt!r}")
        options = {"alt": " ".join(alt.split())}
        if fallback:
            options["fallback"] = fallback
        elif not has_size(self.article.root / path):
            options["aspect-ratio"] = "16/9"
            self.report.doubt(
                "fragment",
                element.sourceline,
                f"{path} gives no size: a 16:9 box is reserved; set :aspect-ratio: to its shape",
            )
        if not fallback:
            self.report.doubt(
                "fragment",
                element.sourceline,
                f"no static image {stem}.png/.svg next to it: readers without JavaScript "
                "see only the legend",
            )
        name = self.label_name(figure) if figure is not None else None
        if name:
            options["name"] = name.lower()
        layout = self.layout_of(figure) if figure is not None else self.layout_of(element)
        if layout:
            options["layout"] = layout
        return md.directive("interactive-figure", path, options, legend)

    def grid(self, node: Tag, skip: list[Tag] | None = None) -> str:
        """An inline-style CSS grid or flex row: ``side-by-side`` with its column tracks."""
        style = style_of(node)
        skipped = {id(tag) for tag in skip or []}
        children = [
            c for c in node.children
            if id(c) not in skipped and (isinstance(c, Tag) or (
                isinstance(c, NavigableString) and not isinstance(c, Comment) and c.strip()))
        ]  # fmt: skip
        columns_value = style.get("grid-template-columns")
        if not columns_value and style.get("display", "").endswith("flex"):
            grows = []
            for child in children:
                child_style = style_of(child) if isinstance(child, Tag) else {}
                flex = (child_style.get("flex") or child_style.get("flex-grow") or "").split()
                grows.append(flex[0] if flex and re.fullmatch(r"\d+(\.\d+)?", flex[0]) else None)
            if grows and all(grows) and len(set(grows)) > 1:
                columns_value = " ".join(f"{grow}fr" for grow in grows)
        options: dict[str, str] = {}
        if columns_value:
            try:
                options["columns"] = css_values.track_list(columns_value)
            except ValueError:
                self.report.doubt(
                    "grid", node.sourceline, f"columns {columns_value!r} are not kept"
                )
        layout = self.layout_of(node)
        if layout in {"body-outset", "page"}:
            options["layout"] = layout
        self.report.done("grid / flex row")
        self.nesting += 1
        columns = []
        for child in children:
            if isinstance(child, NavigableString):
                blocks = [self.paragraph([child])]
            elif column_wrapper(child):
                blocks = [self.label(child) + "\n\n".join(self.blocks(child.children))]
            else:
                blocks = self.blocks([child])
            blocks = [b for b in blocks if b.strip()]
            if not blocks:
                continue
            joins_legend = len(blocks) == 2 and blocks[1].lstrip(":").startswith("{figure-legend}")
            if len(blocks) > 1 and not joins_legend:
                columns.append(md.directive("container", "", {}, "\n\n".join(blocks)))
            else:
                columns.append("\n\n".join(blocks))
        self.nesting -= 1
        if not columns and (node.get("class") or node.get("id")):
            return self.raw(node, "an empty grid or flex row, kept for its script or style")
        if not columns:
            self.report.doubt(
                "grid", node.sourceline, "an empty grid or flex row (filled by nothing) is left out"
            )
            return ""
        if len(columns) < 2:
            # A single panel: no side-by-side.
            return self.label(node) + columns[0]
        name = self.label_name(node)
        if name:
            options["name"] = name.lower()
        return md.directive("side-by-side", "", options, "\n\n".join(columns))


def _raw_block(html: str) -> str:
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
