"""Write phase: each internal link to a previewed target gets a hover card.

Runs once references are resolved, so every kind of reference (``{numref}``,
``{ref}``, ``{eq}``, ``{doc}``, MyST links, ``:any:``) is a plain ``reference``
whose address names the target: its page from the path, its node from the
anchor. The link is wrapped in a ``.pb-xref`` host, which the theme treats
like a citation's ``.pb-cite``; each target's card is written once, in a hidden
store at the end of the page, and the theme's script moves it beside the link
being pointed at. Its content is copied into the page's tree, so images and
math are written like the page's own.
"""

from __future__ import annotations

import posixpath
import urllib.parse
import weakref
from typing import Any

from docutils import nodes
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..config import read_config
from ..machinery import priorities
from ..machinery.state import build_facts, builder_of
from ..other_extensions import left_to_another
from .collect import PREVIEWS, Preview


class preview_host(nodes.Inline, nodes.TextElement):
    """A link with a card: ``card_id`` names the card in the page's store (a TextElement:
    Sphinx writes a link whose parent is not one as an image link)."""


class preview_store(nodes.General, nodes.Element):
    """The page's cards, hidden until the script shows one beside its link."""


class preview_card(nodes.General, nodes.Element):
    """One target's card (``kind``: figure, table, equation, section, page)."""


def visit_preview_host(self: Any, node: preview_host) -> None:
    self.body.append(f'<span class="pb-xref" aria-describedby="{node["card_id"]}">')


def depart_preview_host(self: Any, node: preview_host) -> None:
    self.body.append("</span>")


def visit_preview_store(self: Any, node: preview_store) -> None:
    self.body.append('<div class="pb-previews" hidden>\n')


def depart_preview_store(self: Any, node: preview_store) -> None:
    self.body.append("</div>\n")


def visit_preview_card(self: Any, node: preview_card) -> None:
    css = f"pb-card pb-preview pb-preview--{node['kind']}"
    self.body.append(self.starttag(node, "div", CLASS=css, role="tooltip"))


def depart_preview_card(self: Any, node: preview_card) -> None:
    self.body.append("</div>\n")


NODES = (
    (preview_host, visit_preview_host, depart_preview_host),
    (preview_store, visit_preview_store, depart_preview_store),
    (preview_card, visit_preview_card, depart_preview_card),
)

#: Each builder's pages by the path it writes them to, normalised.
_PAGES: weakref.WeakKeyDictionary[Builder, dict[str, str]] = weakref.WeakKeyDictionary()


def _page_paths(builder: Builder, env: BuildEnvironment) -> dict[str, str]:
    paths = _PAGES.get(builder)
    if paths is None or len(paths) != len(env.all_docs):
        paths = {posixpath.normpath(builder.get_target_uri(d)): d for d in env.all_docs}
        _PAGES[builder] = paths
    return paths


class AddPreviews(SphinxPostTransform):
    """Wrap the page's links to previewed targets and write their cards.

    After Sphinx's ReferencesResolver (10); before SizeImages (210) sizes the
    cards' images like the page's and NumberCitations (300) writes citations.
    """

    default_priority = priorities.ADD_PREVIEWS
    formats = ("html",)

    def is_supported(self) -> bool:
        return (
            super().is_supported()
            and build_facts(self.env).article_layout
            and read_config(self.config).ref_previews
            and not left_to_another(self.env, "sphinx_tippy")
        )

    def run(self, **kwargs: Any) -> None:
        builder = builder_of(self.env)
        if builder is None:
            return
        previews = PREVIEWS.of(self.env)
        cards: dict[tuple[str, str], str] = {}
        store = preview_store(classes=["no-search"])  # the search finds the targets' pages
        for reference in list(self.document.findall(nodes.reference)):
            if "pb-backlink" in reference["classes"] or isinstance(reference.parent, preview_host):
                continue
            target = self._target(builder, reference)
            if target is None:
                continue
            docname, anchor = target
            preview = previews.get(docname, {}).get(anchor)
            if preview is None:
                continue
            key = (docname, preview.node_id)
            if key not in cards:
                cards[key] = f"pb-preview-{len(cards) + 1}"
                store += self._card(cards[key], docname, preview)
            host = preview_host("", "", card_id=cards[key])
            reference.replace_self(host)
            host += reference
        if cards:
            self.document += store

    def _target(self, builder: Builder, reference: nodes.reference) -> tuple[str, str] | None:
        """The page and anchor a link leads to, if it leads into the book."""
        docname = self.env.docname
        if "refid" in reference:
            return docname, reference["refid"]
        if not reference.get("internal"):
            return None
        path, _hash, anchor = reference.get("refuri", "").partition("#")
        if not path:
            return docname, anchor
        here = posixpath.dirname(builder.get_target_uri(docname))
        page = posixpath.normpath(posixpath.join(here, urllib.parse.unquote(path)))
        found = _page_paths(builder, self.env).get(page)
        return None if found is None else (found, anchor)

    def _card(self, card_id: str, docname: str, preview: Preview) -> preview_card:
        card = preview_card("", ids=[card_id], kind=preview.kind)
        label = self._label(docname, preview)
        if label:
            card += nodes.paragraph("", label, classes=["pb-preview__label"])
        card.extend(child.deepcopy() for child in preview.content.children)
        return card

    def _label(self, docname: str, preview: Preview) -> str:
        """The card's first line, as the book numbers the target ("Fig. 2", "Equation (3)")."""
        env, config = self.env, self.config
        if preview.kind == "equation":
            number = self._number(docname, "displaymath", preview.node_id)
            if not number:
                found = env.domains.math_domain.equations.get(preview.label)
                number = str(found[1]) if found and found[1] else ""
            return f"Equation ({number})" if number else ""
        if preview.kind == "section":
            numbers = env.toc_secnumbers.get(docname, {}).get("#" + preview.node_id)
            number = ".".join(map(str, numbers or ()))
        else:
            number = self._number(docname, preview.kind, preview.node_id)
        template = config.numfig_format.get(preview.kind, "")
        if not number or "%s" not in template:
            return ""
        return template.replace("%s", number)

    def _number(self, docname: str, kind: str, node_id: str) -> str:
        if not self.config.numfig:
            return ""
        if kind == "displaymath" and not self.config.math_numfig:
            return ""
        numbers = self.env.toc_fignumbers.get(docname, {}).get(kind, {}).get(node_id)
        return ".".join(map(str, numbers or ()))
