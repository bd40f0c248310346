"""The article's table of contents, built from the page's toc node.

pydata-sphinx-theme's ``generate_toc_html`` parses the rendered table of contents
with BeautifulSoup and matches CSS selectors on it to add Bootstrap classes this
theme does not use. Its first call in a build compiles soupsieve's parser, about
60 ms, and each page costs a few more: here the same list comes from the node
Sphinx renders ``toc`` from, with only the ``toc-hN`` level classes.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment.adapters.toctree import TocTree


def page_toc_html(builder: StandaloneHTMLBuilder, pagename: str) -> str:
    """The page's sections as nested ``<ul>``, as pydata-sphinx-theme lists them.

    A page whose only top-level heading is its title lists what is under the
    title; a page with nothing under its title, or one heading at most, has none.
    """
    env = builder.env
    if env.toc_num_entries.get(pagename, 0) <= 1:  # Sphinx leaves ``toc`` empty then
        return ""
    toc = TocTree(env).get_toc_for(pagename, builder)
    if not isinstance(toc, nodes.bullet_list):
        return ""
    _mark_levels(toc, 1)
    top = [item for item in toc.children if isinstance(item, nodes.list_item)]
    if len(top) == 1:
        below = [child for child in top[0].children if isinstance(child, nodes.bullet_list)]
        if not below:
            return ""
        toc = below[0]
    return builder.render_partial(toc)["fragment"]


def _mark_levels(bullets: nodes.bullet_list, level: int) -> None:
    for item in bullets.children:
        if not isinstance(item, nodes.list_item):
            continue
        item["classes"].append(f"toc-h{level}")
        for child in item.children:
            if isinstance(child, nodes.bullet_list):
                _mark_levels(child, level + 1)
