"""myst-nb's public hook for MIME types: our renderer plugin (entry point
``myst_nb.mime_renderers``), which myst-nb asks first for every output.

It takes Plotly figures (:mod:`.plotly`) and HTML tables (pandas), and leaves
every other output to myst-nb's own renderer by returning None. Its priority
overrides make HTML builders choose the Plotly figure over the image and HTML
that plotly stores beside it. Other builders (LaTeX, EPUB, text...) show no
frame, and myst-nb's priorities would give them the output's ``text/plain``
("Figure()") whenever they take none of the stored images, or none is stored:
:class:`ChooseNotebookFigures` gives them the figure instead, as
``interactive-figure`` does, which shows the stored image or else the alt text,
with the legend.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..directives.base import COMPONENT
from ..interactive.directive import COMPONENT_NAME
from ..machinery import priorities
from ..machinery.state import build_facts
from .bokeh import (
    JS_MIME,
    draws_with_bokeh,
    from_bokeh_exec,
    from_bokeh_html,
    is_loader,
    is_notebook_html,
)
from .plotly import PLOTLY_MIME, CellContext, draws_with_plotly, from_plotly_html, from_plotly_json
from .vega import VEGALITE_MIMES, from_vegalite, is_vegalite, spec_from_altair_html

#: Builders whose pages show the interactive figure itself.
HTML_BUILDERS = ("html", "dirhtml", "singlehtml")
#: What Sphinx writes on its own tables (our theme styles every table in the body).
TABLE_CLASSES = "docutils align-default"
#: pydata-sphinx-theme's wrapper, which our theme scrolls sideways when a table is wide.
SCROLLER = '<div class="pst-scrollable-table-container">{}</div>'

_STYLE_ELEMENT = re.compile(r"<style\b[^>]*>.*?</style\s*>", re.IGNORECASE | re.DOTALL)
_DATAFRAME = re.compile(
    r"<table\b([^>]*)\bclass\s*=\s*\"([^\"]*\bdataframe\b[^\"]*)\"", re.IGNORECASE
)


def table_html(html: str) -> str | None:
    """A pandas table as our tables: its ``<style scoped>`` (an inline style, which a
    strict policy refuses) and ``border="1"`` go, Sphinx's table classes come, and
    a wide table scrolls sideways."""
    if not _DATAFRAME.search(html) or re.search(r"<script\b", html, re.IGNORECASE):
        return None
    html = _STYLE_ELEMENT.sub("", html)
    html = re.sub(r'(<table\b[^>]*?)\s+border\s*=\s*"1"', r"\1", html, flags=re.IGNORECASE)
    html = re.sub(
        r'(<tr\b[^>]*?)\s+style\s*=\s*"text-align:\s*right;?"', r"\1", html, flags=re.IGNORECASE
    )
    html = _DATAFRAME.sub(
        lambda m: f'<table{m.group(1)}class="{m.group(2)} {TABLE_CLASSES}"', html, count=1
    )
    return SCROLLER.format(html.strip())


class PlaybookMimeRenderer:
    """A ``myst_nb.core.render.MimeRenderPlugin``."""

    # Elsewhere (LaTeX, EPUB, text...) ChooseNotebookFigures chooses the figure.
    mime_priority_overrides: ClassVar[list[tuple[str, str, int | None]]] = [
        (builder, mime, 5) for builder in HTML_BUILDERS for mime in (PLOTLY_MIME, *VEGALITE_MIMES)
    ]

    @staticmethod
    def handle_mime(renderer: Any, data: Any, inline: bool) -> list[nodes.Element] | None:
        env = getattr(renderer.renderer, "sphinx_env", None)
        if inline or env is None:
            return None  # myst-nb's docutils-only tools, and inline outputs: as myst-nb does
        if "sphinx_playbook" not in build_facts(env).extensions:
            # myst-nb asks every installed plugin, also in a project that does not
            # load sphinx_playbook (and has none of its settings): myst-nb's own then
            return None
        if data.mime_type == PLOTLY_MIME:
            return from_plotly_json(renderer, data)
        if is_vegalite(data.mime_type):
            return from_vegalite(renderer, data, data.content)
        if data.mime_type.startswith("application/vnd.bokehjs_"):
            return []  # beside the script below, which is the figure (or goes)
        if data.mime_type == JS_MIME and "Bokeh" in data.string:
            if is_loader(CellContext(renderer, data).bundle()):
                return []  # output_notebook(): the site serves BokehJS itself
            if "embed_items_notebook" in data.string:
                return from_bokeh_exec(renderer, data)
        if data.mime_type == "text/html":
            html = data.string
            if draws_with_plotly(html):
                return from_plotly_html(renderer, data)
            spec = spec_from_altair_html(html)
            if spec is not None:
                return from_vegalite(renderer, data, spec)
            if is_notebook_html(html):
                return []  # show()'s empty plot div, output_notebook()'s logo
            if draws_with_bokeh(html):
                return from_bokeh_html(renderer, data)
            table = table_html(html)
            if table is not None:
                return [nodes.raw("", table, format="html", classes=["output", "text_html"])]
        return None


def _figure_of(choice: nodes.Element) -> nodes.figure | None:
    """The interactive figure our plugin made of one MIME type of an output, if it did."""
    if len(choice.children) != 1:
        return None
    node = choice.children[0]
    if isinstance(node, nodes.figure) and node.get(COMPONENT) == COMPONENT_NAME:
        return node
    return None


class ChooseNotebookFigures(SphinxPostTransform):
    """Builders that draw no frame (LaTeX, EPUB, text...): an output our plugin made an
    interactive figure of becomes that figure, its stored image or alt text with
    the legend, before myst-nb's SelectMimeType would choose its ``text/plain``.

    A MIME type that ``nb_mime_priority_overrides`` turns off for the builder
    (priority None) is left to myst-nb.
    """

    default_priority = priorities.CHOOSE_NOTEBOOK_FIGURES

    def is_supported(self) -> bool:
        facts = build_facts(self.env)
        framed = facts.html and not facts.builder_name.startswith("epub")
        return "myst_nb" in facts.extensions and not framed

    def _turned_off(self) -> set[str]:
        builder = build_facts(self.env).builder_name
        priority: dict[str, int | None] = {}
        for entry in getattr(self.config, "nb_mime_priority_overrides", None) or ():
            if len(entry) == 3 and entry[0] in ("*", builder):
                priority[entry[1]] = entry[2]
        return {mime for mime, value in priority.items() if value is None}

    def run(self, **kwargs: Any) -> None:
        turned_off = self._turned_off()
        bundles = [
            node
            for node in self.document.findall(nodes.container)
            if node.get("nb_element") == "mime_bundle"
        ]
        for bundle in bundles:
            figures = {
                child["mime_type"]: figure
                for child in bundle.children
                if isinstance(child, nodes.container)
                and child.get("mime_type") not in turned_off
                and (figure := _figure_of(child)) is not None
            }
            # The JSON first, as the HTML builders choose it (plotly may store both).
            figure = figures.get(PLOTLY_MIME) or next(iter(figures.values()), None)
            if figure is not None:
                figure.parent.remove(figure)
                bundle.replace_self(figure)
