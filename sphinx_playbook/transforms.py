"""Doctree post-transforms that only the article theme's HTML output needs."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .build.state import build_facts
from .theme import ARTICLE_BUILDERS


class lifted_title(nodes.title):
    """The page's first heading, shown by the title block: the HTML writes nothing
    in its place, while Sphinx's search index still reads it as the page's title
    (so the next heading is a section with its own anchor, not the page title)."""


def skip_lifted_title(self: Any, node: lifted_title) -> None:
    raise nodes.SkipNode


class LiftArticleTitle(SphinxPostTransform):
    """Move the page's first heading out of the body into the title block.

    The template renders the title (with the description and byline) above the
    body grid, as Distill's ``d-title`` does; the heading stays in
    ``env.titles`` for navigation, so only the written body changes.
    """

    default_priority = 200
    builders = ARTICLE_BUILDERS

    def is_supported(self) -> bool:
        return super().is_supported() and build_facts(self.env).article_layout

    def run(self, **kwargs: Any) -> None:
        section = next((n for n in self.document.children if isinstance(n, nodes.section)), None)
        if section is None or not section.children or not isinstance(section[0], nodes.title):
            return
        title = section[0]
        lifted = lifted_title(title.rawsource, "", *title.children, **title.attributes)
        lifted.source, lifted.line = title.source, title.line
        title.replace_self(lifted)
        self.document["playbook_title_lifted"] = True
