"""``aside``: a note in the right margin, beside the block before it (Distill's <aside>)."""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from sphinx.application import Sphinx

from ..diagnostics import PlaybookWarning
from .base import CLASS_OPTION, NAME_OPTION, OptionSpec, PlaybookDirective, component, is_component


class AsideDirective(PlaybookDirective):
    """Margin note; the theme puts it in the gutter from 1000 px, inline below."""

    subtype = PlaybookWarning.ASIDE
    has_content = True
    spec: ClassVar[OptionSpec] = {"class": CLASS_OPTION, "name": NAME_OPTION}

    def run(self) -> list[nodes.Node]:
        options = self.valid_options()
        if not self.require_content():
            return []
        node = component("aside", ["pb-aside", *options.get("class", [])])
        self.fill(node, options)
        if any(is_component(inner, "aside") for inner in node.findall(include_self=False)):
            self.warn("contains another aside; the inner one is shown inline in this one")
        return [node]


def register_aside(app: Sphinx) -> None:
    """(Re-)register ``aside`` as ours: sphinx-design 0.8 has a directive of that name."""
    app.add_directive("aside", AsideDirective, override=True)


def setup_aside(app: Sphinx) -> None:
    register_aside(app)
    # Whatever loaded after us (sphinx-design included) has registered by now.
    app.connect("builder-inited", register_aside)
