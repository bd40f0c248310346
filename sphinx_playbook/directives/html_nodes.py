"""HTML-only post-transform: the semantic elements behind the directives' containers.

Other builders never see these nodes, so they need no visitors there: latex,
text, man and the rest write the plain containers and figures the directives
made, and lose no content.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..images import is_dark_variant, sized_image, to_sized_image
from ..machinery import priorities
from .base import find_components


class aside_node(nodes.Element, nodes.General):
    """Rendered as ``<aside>``."""


class aside_stack(nodes.Element, nodes.General):
    """Consecutive asides, stacked in one gutter cell so they never overlap."""


class band_node(nodes.Element, nodes.General):
    """The wide-image band; its background and image width are CSS variables."""


class band_strip(nodes.Element, nodes.General):
    """The coloured strip behind the image; the legend sits below it, on the page."""


class columns_node(nodes.Element, nodes.General):
    """The side-by-side grid; its track list is a CSS variable."""


def _style(declarations: dict[str, str]) -> str:
    return " ".join(f"{name}: {value};" for name, value in declarations.items())


def visit_aside(self: Any, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "aside"))


def depart_aside(self: Any, node: nodes.Element) -> None:
    self.body.append("</aside>\n")


def visit_div(self: Any, node: nodes.Element) -> None:
    attributes = {"style": node["style"]} if node.get("style") else {}
    self.body.append(self.starttag(node, "div", **attributes))


def depart_div(self: Any, node: nodes.Element) -> None:
    self.body.append("</div>\n")


class PlaybookHtmlComponents(SphinxPostTransform):
    """Swap the directives' containers for the nodes above."""

    default_priority = priorities.HTML_COMPONENTS
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        # Found before any is replaced: a replacement keeps the children, so the
        # components found inside others stay in the tree.
        found = find_components(self.document, "aside", "wide-image", "side-by-side")
        asides = [self._replace(node, aside_node) for node in found["aside"]]
        self._stack_asides(asides)
        for node in found["wide-image"]:
            self._band(node)
        for node in found["side-by-side"]:
            self._columns(node)

    @staticmethod
    def _replace(node: nodes.Element, cls: type[nodes.Element], **attributes: Any) -> nodes.Element:
        new = cls("", *node.children, classes=node["classes"], ids=node["ids"], **attributes)
        new.source, new.line = node.source, node.line
        node.replace_self(new)
        return new

    def _stack_asides(self, asides: list[nodes.Element]) -> None:
        for aside in asides:
            parent = aside.parent
            if parent is None or isinstance(parent, aside_stack):
                continue
            index = parent.index(aside)
            if index > 0 and isinstance(parent[index - 1], aside_node | aside_stack):
                continue  # joined to the run that starts before it
            run = [aside]
            for sibling in parent.children[index + 1 :]:
                if not isinstance(sibling, aside_node):
                    break
                run.append(sibling)
            if len(run) > 1:
                stack = aside_stack("", classes=["pb-aside-stack"])
                parent.insert(index, stack)
                for item in run:
                    parent.remove(item)
                    stack += item

    def _band(self, node: nodes.Element) -> None:
        style = {"--pb-band-bg": node.get("background", "white")}
        if node.get("max_width"):
            style["--pb-band-max"] = node["max_width"]
        band = self._replace(node, band_node, style=_style(style))
        # The band's own image only: an image in the legend stays inline (a <div>
        # strip inside the caption's <p> would be invalid HTML).
        for image in list(band.findall(nodes.image))[:1]:
            sized = image if isinstance(image, sized_image) else to_sized_image(image)
            shown = sized.parent if isinstance(sized.parent, nodes.reference) else sized
            # Its dark variant (images.DarkVariants) follows it into the strip.
            after = shown.parent.children[shown.parent.index(shown) + 1 :][:1]
            dark = [
                to_sized_image(n)
                for n in after
                if isinstance(n, nodes.image) and is_dark_variant(n)
            ]
            strip = band_strip("", classes=["pb-wide-image__strip"])
            shown.replace_self(strip)
            strip += shown
            # replace_self gave the strip the image's classes: not its colour mode.
            strip["classes"] = [c for c in strip["classes"] if c not in ("only-light", "only-dark")]
            for variant in dark:
                variant.parent.remove(variant)
                strip += variant

    def _columns(self, node: nodes.Element) -> None:
        tracks = node.get("columns")
        if tracks is None:
            # Equal columns, one per top-level child (after legends joined their blocks).
            children = [c for c in node.children if not isinstance(c, nodes.target)]
            tracks = f"repeat({max(len(children), 1)}, minmax(0, 1fr))"
        self._replace(node, columns_node, style=_style({"--pb-columns": tracks}))


def setup_html_components(app: Sphinx) -> None:
    app.add_node(aside_node, html=(visit_aside, depart_aside))
    app.add_node(aside_stack, html=(visit_div, depart_div))
    app.add_node(band_node, html=(visit_div, depart_div))
    app.add_node(band_strip, html=(visit_div, depart_div))
    app.add_node(columns_node, html=(visit_div, depart_div))
    app.add_post_transform(PlaybookHtmlComponents)
