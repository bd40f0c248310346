"""The build machinery's wiring into Sphinx.

Kept out of ``__init__.py``: worker processes import this package
(:mod:`sphinx_playbook.machinery.workers`) and need none of Sphinx.
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .cache import setup_cache
from .leftovers import setup_leftovers
from .memory import setup_memory
from .registry import setup_registry
from .state import setup_state
from .templates import setup_templates
from .workers import setup_workers


def setup_build(app: Sphinx) -> None:
    setup_state(app)
    setup_workers(app)
    setup_cache(app)
    setup_templates(app)
    setup_registry(app)
    setup_leftovers(app)
    setup_memory(app)
