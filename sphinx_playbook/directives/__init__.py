"""The Distill content directives, one module each, wired up by :func:`setup_directives`."""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from ..theme import uses_playbook_theme
from .aside import setup_aside
from .figure_legend import setup_figure_legend
from .html_nodes import setup_html_components
from .includes import setup_include_guard
from .layout import setup_layout
from .side_by_side import setup_side_by_side
from .wide_image import setup_wide_image

STATIC_DIR = Path(__file__).parent.parent / "static"


def _add_fallback_css(app: Sphinx) -> None:
    """Under other HTML themes, ship the CSS the directives need (ours has it built in)."""
    if app.builder.format != "html" or uses_playbook_theme(app):
        return
    app.config.html_static_path.append(str(STATIC_DIR))
    app.add_css_file("sphinx-playbook-components.css")


def setup_directives(app: Sphinx) -> None:
    app.connect("builder-inited", _add_fallback_css)
    setup_aside(app)
    setup_figure_legend(app)
    setup_wide_image(app)
    setup_side_by_side(app)
    setup_layout(app)
    setup_html_components(app)
    setup_include_guard(app)
