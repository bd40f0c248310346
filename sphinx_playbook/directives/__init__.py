"""The Distill content directives, one module each, wired up by :func:`setup_directives`."""

from __future__ import annotations

from sphinx.application import Sphinx

from .aside import setup_aside
from .figure_legend import setup_figure_legend
from .html_nodes import setup_html_components
from .layout import setup_layout
from .side_by_side import setup_side_by_side
from .wide_image import setup_wide_image


def setup_directives(app: Sphinx) -> None:
    setup_aside(app)
    setup_figure_legend(app)
    setup_wide_image(app)
    setup_side_by_side(app)
    setup_layout(app)
    setup_html_components(app)
