"""The math renderer's wiring into Sphinx.

Kept out of ``__init__.py``: worker processes import this package
(:mod:`sphinx_playbook.machinery.workers`) and need none of Sphinx.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from ..config import read_config
from ..machinery import priorities
from .assets import prepare_assets, write_assets, write_fonts
from .collect import FORMULAS, collect_page
from .html import link_stylesheet, visit_displaymath, visit_math
from .site import RENDERER, send_page, send_site

logger = logging.getLogger(__name__)


def _collect(app: Sphinx, doctree: nodes.document) -> None:
    """Each page's formulas, translated from MathJax's TeX; with ``"off"`` the
    author's MathJax reads the TeX as written, labels and all."""
    if read_config(app.config).math == "off":
        return
    docname = app.env.docname
    FORMULAS.of(app.env)[docname] = collect_page(app.env, docname, doctree)
    send_page(app, docname)


def _use_renderer(app: Sphinx, config: Any) -> None:
    chosen = config.html_math_renderer
    if chosen and chosen != RENDERER and read_config(config).math != "off":
        # conf.py names its renderer (MathJax, imgmath): the author's choice stands,
        # as playbook_math = "off" would have it.
        config.playbook_math = "off"
        logger.info(
            "sphinx_playbook: html_math_renderer = %r in conf.py: formulas are left to it; "
            "remove the setting to render them at build time.",
            chosen,
        )
    if read_config(config).math != "off":
        config.html_math_renderer = RENDERER
    elif not config.html_math_renderer:
        # With two renderers registered Sphinx would pick ours; "off" means Sphinx's own.
        config.html_math_renderer = "mathjax"


def setup_math(app: Sphinx) -> None:
    app.add_html_math_renderer(
        RENDERER, inline_renderers=(visit_math, None), block_renderers=(visit_displaymath, None)
    )
    # Before the hover cards copy the equations (priority 600): \label promoted.
    app.connect("doctree-read", _collect)
    app.connect("env-updated", send_site)
    app.connect("env-get-updated", prepare_assets)
    app.connect("write-started", write_assets)
    app.connect("html-collect-pages", write_fonts)
    app.connect("html-page-context", link_stylesheet)
    app.connect("config-inited", _use_renderer, priority=priorities.CHOOSE_MATH_RENDERER)
