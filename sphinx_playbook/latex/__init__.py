"""The article on paper through Sphinx's LaTeX builder (``make latexpdf``, Read the
Docs' ``formats: [pdf]``): a title block with the byline, asides as margin notes,
side-by-side blocks as columns, characters pdflatex cannot set caught before LaTeX
runs. :mod:`.transforms` swaps our containers for LaTeX-only nodes, :mod:`.writer`
writes them, :mod:`.preamble` loads ``sphinxplaybook.sty`` and the math macros,
:mod:`.svg` converts SVG images to PDF, :mod:`.chapters` adds a PDF per chapter.
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .chapters import setup_chapters
from .preamble import setup_preamble
from .svg import setup_svg
from .transforms import setup_latex_transforms
from .writer import setup_latex_nodes


def setup_latex(app: Sphinx) -> None:
    setup_preamble(app)
    setup_latex_nodes(app)
    setup_latex_transforms(app)
    setup_svg(app)
    setup_chapters(app)
