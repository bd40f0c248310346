"""Distill article HTML -> MyST Markdown with sphinx_playbook's directives.

The walk follows the tree html5lib builds (the one a browser builds), block by
block. Each construct is counted in the :class:`Report`; what has no
equivalent is written as raw HTML, never dropped, and its line is listed.
The parts live in their own modules: ``walk`` (state and dispatch), ``inline``,
``blocks``, ``figures`` (figures and grids), ``math``, ``assets`` (files and
URLs) and ``markdown`` (the writer).
"""

from __future__ import annotations

from .blocks import BlocksMixin
from .figures import FiguresMixin
from .inline import InlineMixin
from .math import MathMixin


class Converter(InlineMixin, BlocksMixin, FiguresMixin, MathMixin):
    """One article's conversion; :meth:`body` returns the title and the MyST text."""
