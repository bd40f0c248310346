"""sphinx_playbook: the Distill article look for Sphinx (extension and HTML theme).

The wiring is in :mod:`.extension`, imported when Sphinx calls :func:`setup`: the
worker processes that render math and cut fonts import parts of this package and
need none of Sphinx (:mod:`.machinery.workers`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__version__ = "0.1.0"


def setup(app: Sphinx) -> dict[str, Any]:
    """Set up the extension and register the theme (see :func:`.extension.setup`)."""
    from .extension import setup as set_up

    return set_up(app)
