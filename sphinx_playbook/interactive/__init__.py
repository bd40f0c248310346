"""``interactive-figure``: Plotly, Bokeh, Vega or hand-written HTML as a numbered figure.

:mod:`.exports` reads and rewrites an export, :mod:`.libraries` serves each shared
library once from the site, :mod:`.directive` makes the figure (a static fallback
any builder writes), :mod:`.html` writes the frame page and the iframe.
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .directive import InteractiveFigureDirective
from .html import setup_html


def setup_interactive(app: Sphinx) -> None:
    app.add_directive("interactive-figure", InteractiveFigureDirective)
    setup_html(app)
