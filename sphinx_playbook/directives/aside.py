"""``aside``: a note in the right margin, beside the block before it (Distill's <aside>)."""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from ..diagnostics import PlaybookWarning
from .base import ContentDirective, is_component


class AsideDirective(ContentDirective):
    """Margin note; the theme puts it in the gutter from 1000 px, inline below."""

    subtype = PlaybookWarning.ASIDE
    component_name = "aside"
    css_class = "pb-aside"

    def check(self, node: nodes.Element) -> None:
        inner = list(node.findall(include_self=False))
        if any(is_component(n, "aside") for n in inner):
            self.warn("contains another aside; the inner one is shown inline in this one")
        if any(is_component(n, "appendix") for n in inner):
            self.warn(
                "contains an appendix, which is moved to the end of the article; "
                "put the appendix outside the aside"
            )


def register_aside(app: Sphinx) -> None:
    """(Re-)register ``aside`` as ours: sphinx-design 0.8 has a directive of that name."""
    app.add_directive("aside", AsideDirective, override=True)


def setup_aside(app: Sphinx) -> None:
    register_aside(app)
    # Whatever loaded after us (sphinx-design included) has registered by now.
    app.connect("builder-inited", register_aside)
