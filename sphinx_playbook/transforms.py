"""The title block as an overlay: the page's first heading shown above the byline.

Sphinx and other extensions keep seeing the page as Sphinx made it: the heading
stays in the doctree as a :class:`nodes.title` where Sphinx puts it, and in the
body HTML that ``html-page-context`` handlers read (sphinx-tippy's tips, search
and Open Graph extensions). Only after every other handler has run is the heading
taken out of the body that the template writes, and the title block shows it.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from .machinery import priorities
from .machinery.state import build_facts
from .theme import ARTICLE_BUILDERS

#: The class sphinx-design's ``sd_hide_title`` page key gives the first heading.
HIDDEN_TITLE_CLASS = "sd-d-none"


class lifted_title(nodes.title):
    """The page's first heading, shown by the title block. Written like any title
    (its HTML is recorded on the node), a :class:`nodes.title` for every reader of
    the doctree (Sphinx's search index, other extensions)."""


def visit_lifted_title(self: Any, node: lifted_title) -> None:
    node["playbook_html_start"] = len(self.body)
    self.visit_title(node)


def depart_lifted_title(self: Any, node: lifted_title) -> None:
    self.depart_title(node)
    node["playbook_html"] = "".join(self.body[node["playbook_html_start"] :])


class LiftArticleTitle(SphinxPostTransform):
    """Mark the page's first heading as the one the title block shows.

    The template renders the title (with the description and byline) above the
    body grid, as Distill's ``d-title`` does; the heading stays in
    ``env.titles`` for navigation and in the body other extensions read.
    """

    default_priority = priorities.LIFT_ARTICLE_TITLE
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


def cut_lifted_title(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``, last: take the lifted heading out of the written body.

    Should another extension have rewritten the heading's HTML, the body keeps it
    and the title block shows no second title.
    """
    if doctree is None or not doctree.get("playbook_title_lifted") or "body" not in context:
        return
    lifted = next(iter(doctree.findall(lifted_title)), None)
    html = lifted.get("playbook_html") if lifted is not None else None
    body = context["body"]
    if lifted is None or not html or html not in body:
        context["playbook_title"] = None
        return
    context["body"] = body.replace(html, "", 1)
    context["playbook_title_hidden"] = HIDDEN_TITLE_CLASS in lifted["classes"]


def setup_title_overlay(app: Sphinx) -> None:
    """Wire the title block's heading: marked after reading, cut after writing."""
    app.add_node(lifted_title, html=(visit_lifted_title, depart_lifted_title))
    app.add_post_transform(LiftArticleTitle)
    app.connect("html-page-context", cut_lifted_title, priority=priorities.CUT_LIFTED_TITLE)
