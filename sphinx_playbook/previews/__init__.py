"""Hover previews of cross-references, written into the page at build time.

``collect.py`` keeps, while each page is read, what a card shows of each target
the page holds (a figure's image and legend, a table's first rows, an equation,
a section's first paragraph, the page's title and description); ``render.py``
finds the page's internal links once references are resolved, and writes each
target's card once per page, in a hidden store that the theme's script moves
next to the link the reader points at (the link works as a link without it).
"""

from __future__ import annotations

from sphinx.application import Sphinx

from ..machinery import priorities
from .collect import collect_previews
from .render import NODES, AddPreviews


def setup_previews(app: Sphinx) -> None:
    for node, visit, depart in NODES:
        app.add_node(node, html=(visit, depart))
    app.connect("doctree-read", collect_previews, priority=priorities.COLLECT_PREVIEWS)
    app.add_post_transform(AddPreviews)
