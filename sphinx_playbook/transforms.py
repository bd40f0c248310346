"""Doctree post-transforms that only the article theme's HTML output needs."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .theme import uses_playbook_theme

#: Builders that write one page per document with this theme's layout.html;
#: singlehtml joins documents and epub uses its own templates.
ARTICLE_BUILDERS = ("html", "dirhtml")


class LiftArticleTitle(SphinxPostTransform):
    """Move the page's first heading out of the body into the title block.

    The template renders the title (with the description and byline) above the
    body grid, as Distill's ``d-title`` does; the heading stays in
    ``env.titles`` for navigation, so only the written body changes.
    """

    default_priority = 200
    formats = ("html",)

    def is_supported(self) -> bool:
        return self.app.builder.name in ARTICLE_BUILDERS and uses_playbook_theme(self.app)

    def run(self, **kwargs: Any) -> None:
        section = next((n for n in self.document.children if isinstance(n, nodes.section)), None)
        if section is None or not section.children or not isinstance(section[0], nodes.title):
            return
        section.remove(section[0])
        self.document["playbook_title_lifted"] = True
