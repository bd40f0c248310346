"""``side-by-side``: blocks in columns; each top-level child is one column."""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from sphinx.application import Sphinx

from ..diagnostics import PlaybookWarning
from . import css_values
from .base import (
    CLASS_OPTION,
    LAYOUT_CLASSES,
    NAME_OPTION,
    OptionSpec,
    PlaybookDirective,
    choice,
    component,
    is_component,
)

LAYOUTS = ("body", "body-outset", "page")
ALIGNS = ("start", "center", "end")


class SideBySideDirective(PlaybookDirective):
    subtype = PlaybookWarning.SIDE_BY_SIDE
    has_content = True
    spec: ClassVar[OptionSpec] = {
        "columns": css_values.track_list,
        "align": choice(*ALIGNS),
        "layout": choice(*LAYOUTS),
        "name": NAME_OPTION,
        "class": CLASS_OPTION,
    }

    def run(self) -> list[nodes.Node]:
        options = self.valid_options()
        if not self.require_content():
            return []
        layout = options.get("layout", "body")
        align = options.get("align", "center")
        node = component(
            "side-by-side",
            [
                "pb-side-by-side",
                LAYOUT_CLASSES[layout],
                f"pb-align-{align}",
                *options.get("class", []),
            ],
        )
        if "columns" in options:
            node["columns"] = options["columns"]
        self.fill(node, options)
        if any(is_component(inner, "wide-image") for inner in node.findall(include_self=False)):
            self.warn(
                "contains a wide-image, which cannot span the screen from inside a column; "
                "move the wide-image before or after the side-by-side"
            )
        return [node]


def setup_side_by_side(app: Sphinx) -> None:
    app.add_directive("side-by-side", SideBySideDirective)
