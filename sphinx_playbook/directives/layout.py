"""``layout``: any content in any Distill column (``:::{layout} page``)."""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from sphinx.application import Sphinx

from ..diagnostics import PlaybookWarning
from .base import (
    CLASS_OPTION,
    LAYOUT_CLASSES,
    NAME_OPTION,
    OptionSpec,
    PlaybookDirective,
    component,
)


class LayoutDirective(PlaybookDirective):
    """Wraps its content in a block placed in the named column of the grid."""

    subtype = PlaybookWarning.LAYOUT
    has_content = True
    optional_arguments = 1
    spec: ClassVar[OptionSpec] = {"class": CLASS_OPTION, "name": NAME_OPTION}

    def run(self) -> list[nodes.Node]:
        options = self.valid_options()
        value = self.arguments[0].strip().lower() if self.arguments else ""
        if value not in LAYOUT_CLASSES:
            valid = ", ".join(LAYOUT_CLASSES)
            given = f"unknown column {value!r}" if value else "no column given"
            self.warn(f"{given}; write one of {valid} (the content is shown in the text column)")
            value = "body"
        if not self.require_content():
            return []
        node = component("layout", [LAYOUT_CLASSES[value], *options.get("class", [])])
        self.fill(node, options)
        return [node]


def setup_layout(app: Sphinx) -> None:
    app.add_directive("layout", LayoutDirective)
