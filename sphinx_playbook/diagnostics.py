"""Located warnings with the ``playbook`` type, so ``suppress_warnings`` works.

Every message the extension emits goes through :func:`warn`, which names the
file and line (through Sphinx's ``location``) and carries a subtype from
:class:`PlaybookWarning`; authors silence one family with, for example,
``suppress_warnings = ["playbook.metadata"]``.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from sphinx.util import logging

WARNING_TYPE = "playbook"

logger = logging.getLogger("sphinx_playbook")


class PlaybookWarning(Enum):
    """Warning subtypes; the value is what ``suppress_warnings`` matches."""

    CONFIG = "config"
    """A ``playbook_*`` value in conf.py has the wrong type or an unknown value."""
    METADATA = "metadata"
    """A front-matter or docinfo value is invalid (bad date, URL, author...)."""
    METADATA_KEY = "metadata_key"
    """A front-matter key that neither this extension nor Sphinx knows."""
    ASIDE = "aside"
    """An ``aside`` directive's options or content."""
    FIGURE_LEGEND = "figure_legend"
    """A ``figure-legend`` with bad options or nothing to caption."""
    WIDE_IMAGE = "wide_image"
    """A ``wide-image``: missing alt text, bad width, background or target."""
    SIDE_BY_SIDE = "side_by_side"
    """A ``side-by-side``: bad columns, align or layout."""
    LAYOUT = "layout"
    """A ``layout`` directive naming an unknown column."""
    APPENDIX = "appendix"
    """An ``appendix`` or ``citation`` directive used wrongly."""
    MATH = "math"
    """A formula KaTeX (or Temml) cannot render."""
    INTERACTIVE = "interactive"
    """An ``interactive-figure``: missing file, bad option, remote script, no fallback."""
    CITATION = "citation"
    """An unknown citation key, or a .bib file that is missing or malformed."""
    INCLUDE = "include"
    """A Markdown file that includes itself, directly or through others."""
    LATEX = "latex"
    """What the LaTeX builder cannot put on paper: an image format, a character."""
    SVG_PDF = "svg_pdf"
    """An SVG image the PDF cannot show as drawn: no converter (with the install
    command, once per build), a file it cannot read, a ``foreignObject`` left out."""
    THEME = "theme"
    """An ``html_theme_options`` value our layout cannot honour, and what to use instead."""
    NOTEBOOK = "notebook"
    """A notebook output or cell option a page cannot show as written (myst-nb pages)."""

    @property
    def qualified(self) -> str:
        """``playbook.<subtype>``, as written in ``suppress_warnings``."""
        return f"{WARNING_TYPE}.{self.value}"


def warn(
    message: str,
    subtype: PlaybookWarning,
    location: Any = None,
) -> None:
    """Log a warning with the ``playbook`` type and a subtype.

    ``location`` is anything Sphinx accepts: a node, a docname, or a
    ``(docname, line)`` pair. The message ends with the subtype so an author
    knows what to put in ``suppress_warnings``.
    """
    logger.warning(
        message,
        type=WARNING_TYPE,
        subtype=subtype.value,
        location=location,
    )
