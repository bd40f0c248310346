"""myst-nb's public hook for MIME types: our renderer plugin (entry point
``myst_nb.mime_renderers``), which myst-nb asks first for every output.

It takes Plotly figures (:mod:`.plotly`) and HTML tables (pandas), and leaves
every other output to myst-nb's own renderer by returning None. Its priority
overrides make HTML builders choose the Plotly figure over the image and HTML
that plotly stores beside it, and other builders the image first.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from docutils import nodes

from .plotly import PLOTLY_MIME, draws_with_plotly, from_plotly_html, from_plotly_json

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

    mime_priority_overrides: ClassVar[list[tuple[str, str, int | None]]] = [
        # Elsewhere (LaTeX, EPUB...) the stored image first, the figure's alt text after it.
        ("*", PLOTLY_MIME, 95),
        *[(builder, PLOTLY_MIME, 5) for builder in HTML_BUILDERS],
    ]

    @staticmethod
    def handle_mime(renderer: Any, data: Any, inline: bool) -> list[nodes.Element] | None:
        if inline or getattr(renderer.renderer, "sphinx_env", None) is None:
            return None  # myst-nb's docutils-only tools, and inline outputs: as myst-nb does
        if data.mime_type == PLOTLY_MIME:
            return from_plotly_json(renderer, data)
        if data.mime_type == "text/html":
            html = data.string
            if draws_with_plotly(html):
                return from_plotly_html(renderer, data)
            table = table_html(html)
            if table is not None:
                return [nodes.raw("", table, format="html", classes=["output", "text_html"])]
        return None
