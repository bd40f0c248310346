"""``figure-legend``: Distill's figure legend, joined to the block it follows.

The directive leaves a marked container; :class:`JoinFigureLegends` (a read-phase
transform, so numfig and ``{numref}`` see a real figure) turns the block before
it and the legend into one ``figure`` whose caption is the legend's first
paragraph, with any further paragraphs as the figure's legend.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

from ..diagnostics import PlaybookWarning, warn
from ..images import add_dark_variant, is_dark_variant
from ..machinery import priorities
from .base import (
    ALL_LAYOUT_CLASSES,
    ContentDirective,
    OptionSpec,
    PlaybookDirective,
    find_components,
    is_component,
)


class FigureLegendDirective(ContentDirective):
    subtype = PlaybookWarning.FIGURE_LEGEND
    component_name = "figure-legend"
    css_class = "pb-figure-legend"
    spec: ClassVar[OptionSpec] = {**ContentDirective.spec, "dark": directives.uri}

    def run(self) -> list[nodes.Node]:
        result = super().run()
        dark = self.options.get("dark")
        first = result[0] if result else None
        if isinstance(first, nodes.Element) and dark and dark_variant_exists(self, dark):
            first["pb_dark"] = dark
        return result


def dark_variant_exists(directive: PlaybookDirective, uri: str) -> bool:
    """Whether the ``:dark:`` image exists; a located warning when it does not."""
    if Path(directive.env.relfn2path(uri, directive.env.docname)[1]).is_file():
        return True
    directive.warn(f":dark: {uri!r} does not exist; the image is shown in both modes")
    return False


def _figure_like(node: nodes.Node) -> nodes.Element | None:
    """The block a legend may caption, or None.

    A Markdown image is a paragraph holding only the image (maybe linked); it
    is unwrapped so the figure holds the image itself.
    """
    if isinstance(node, nodes.paragraph):
        children = [c for c in node.children if not (isinstance(c, nodes.Text) and not c.strip())]
        if len(children) == 1 and isinstance(children[0], nodes.image | nodes.reference):
            only = children[0]
            if isinstance(only, nodes.image) or (
                len(only.children) == 1 and isinstance(only[0], nodes.image)
            ):
                return only
        return None
    if isinstance(node, nodes.image | nodes.figure | nodes.literal_block | nodes.table):
        return node
    if isinstance(node, nodes.raw) and "html" in node.get("format", "").split():
        return node
    if isinstance(node, nodes.container) and (
        "literal-block-wrapper" in node["classes"]
        or is_component(node, "side-by-side")
        or is_component(node, "wide-image")
    ):
        return node
    return None


def _previous_block(node: nodes.Element) -> nodes.Node | None:
    parent = node.parent
    index = parent.index(node)
    for sibling in reversed(parent.children[:index]):
        if isinstance(sibling, nodes.comment | nodes.target | nodes.system_message):
            continue
        return sibling
    return None


def _caption_and_legend(legend: nodes.Element) -> tuple[nodes.caption | None, nodes.legend | None]:
    children = list(legend.children)
    caption = None
    first = children[0] if children else None
    if isinstance(first, nodes.paragraph):
        children.pop(0)
        caption = nodes.caption(first.rawsource, "", *first.children)
        caption.source, caption.line = first.source, first.line
    rest = nodes.legend("", *children) if children else None
    return caption, rest


def _move_ids(document: nodes.document, source: nodes.Element, target: nodes.Element) -> None:
    for node_id in source["ids"]:
        target["ids"].append(node_id)
        document.ids[node_id] = target
    target["names"].extend(source["names"])
    source["ids"], source["names"] = [], []


class JoinFigureLegends(SphinxTransform):
    """Block + legend -> one figure (before AutoNumbering, 210, numbers figures)."""

    default_priority = priorities.JOIN_FIGURE_LEGENDS

    def apply(self, **kwargs: Any) -> None:
        for legend in find_components(self.document, "figure-legend")["figure-legend"]:
            self._join(legend)

    def _join(self, legend: nodes.Element) -> None:
        previous = _previous_block(legend)
        block = _figure_like(previous) if previous is not None else None
        if block is None:
            # Stands alone: keep the legend block, styled as a legend.
            if previous is None or isinstance(previous, nodes.title):
                warn(
                    "figure-legend: nothing before it to caption; it is shown as a "
                    "standalone legend. Put it right after an image, figure, code block, "
                    "table, wide-image or side-by-side.",
                    PlaybookWarning.FIGURE_LEGEND,
                    legend,
                )
            return
        # Only now: the caption takes the legend's nodes (their parent changes), so a
        # legend that stays must keep them, or later transforms edit detached copies.
        caption, rest = _caption_and_legend(legend)
        classes = [c for c in legend["classes"] if c != "pb-figure-legend"]
        if is_component(block, "wide-image"):
            block = next(iter(block.findall(nodes.figure)))
        if isinstance(block, nodes.figure):
            figure = block
            figure["classes"].extend(classes)
            # HTML writers want at most one caption, then at most one legend: the
            # caption opens <figcaption>, and a legend not after a caption opens another.
            existing = next((c for c in figure.children if isinstance(c, nodes.legend)), None)
            more: list[nodes.Node] = []
            if caption is not None and not any(
                isinstance(c, nodes.caption) for c in figure.children
            ):
                at = figure.index(existing) if existing is not None else len(figure.children)
                figure.insert(at, caption)
            elif caption is not None:
                more.append(nodes.paragraph("", "", *caption.children))
            if rest is not None:
                more.extend(rest.children)
            if more and existing is not None:
                existing.extend(more)
            elif more:
                figure += nodes.legend("", *more)
            self._add_dark(figure, legend)
            _move_ids(self.document, legend, figure)
            legend.parent.remove(legend)
            return
        figure = nodes.figure("")
        figure.source, figure.line = legend.source, legend.line
        # The figure takes the block's place in the grid.
        layout = [c for c in block["classes"] if c in ALL_LAYOUT_CLASSES]
        container = previous if isinstance(previous, nodes.Element) else block
        # replace_self copies the container's ids, names and classes to the figure:
        # the figure keeps its own classes, and the ids are the figure's alone (the
        # block's :name: numbers the figure; written twice, it was two equal ids).
        container.replace_self(figure)
        figure["classes"] = ["pb-figure", *classes, *layout]
        for node_id in figure["ids"]:
            self.document.ids[node_id] = figure
        for moved in {container, block}:
            moved["ids"], moved["names"] = [], []
        figure += block
        if caption is not None:
            figure += caption
        if rest is not None:
            figure += rest
        self._add_dark(figure, legend)
        _move_ids(self.document, legend, figure)
        legend.parent.remove(legend)

    @staticmethod
    def _add_dark(block: nodes.Element, legend: nodes.Element) -> None:
        """``:dark:``: the dark variant of the figure's (first) image."""
        if not legend.get("pb_dark"):
            return
        image = next(iter(block.findall(nodes.image)), None)
        if image is None:
            warn(
                "figure-legend: :dark: needs an image before the legend; it is ignored",
                PlaybookWarning.FIGURE_LEGEND,
                legend,
            )
        elif not any(is_dark_variant(n) for n in block.findall(nodes.image)):
            add_dark_variant(image, legend["pb_dark"])


def setup_figure_legend(app: Sphinx) -> None:
    app.add_directive("figure-legend", FigureLegendDirective)
    app.add_transform(JoinFigureLegends)
