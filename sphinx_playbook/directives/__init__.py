"""The Distill content directives, one module each, wired up by :func:`setup_directives`."""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util.fileutil import copy_asset_file

from ..theme import uses_playbook_theme
from .aside import setup_aside
from .figure_legend import setup_figure_legend
from .html_nodes import setup_html_components
from .includes import setup_include_guard
from .layout import setup_layout
from .side_by_side import setup_side_by_side
from .wide_image import setup_wide_image

STATIC_DIR = Path(__file__).parent.parent / "static"


FALLBACK_CSS = "sphinx-playbook-components.css"


def _needs_fallback_css(app: Sphinx) -> bool:
    return app.builder.format == "html" and not uses_playbook_theme(app)


def _add_fallback_css(app: Sphinx) -> None:
    """Under other HTML themes, link the CSS the directives need (ours has it built in)."""
    if _needs_fallback_css(app):
        app.add_css_file(FALLBACK_CSS)


def _copy_fallback_css(app: Sphinx) -> list:
    """Copy the file into _static while the builder finishes (epub still packs it).

    Appending to ``html_static_path`` instead changed the configuration Sphinx
    compares between builds, so every incremental build re-read every page.
    """
    if _needs_fallback_css(app):
        copy_asset_file(STATIC_DIR / FALLBACK_CSS, Path(app.outdir, "_static"))
    return []


def setup_directives(app: Sphinx) -> None:
    app.connect("builder-inited", _add_fallback_css)
    app.connect("html-collect-pages", _copy_fallback_css)
    setup_aside(app)
    setup_figure_legend(app)
    setup_wide_image(app)
    setup_side_by_side(app)
    setup_layout(app)
    setup_html_components(app)
    setup_include_guard(app)
