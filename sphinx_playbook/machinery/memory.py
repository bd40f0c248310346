"""Long-lived objects kept out of the garbage collector's full passes.

Once the builder is set up, the objects alive (modules, the registry, the theme,
the environment) live until the process ends, yet every full collection walks
them all again. ``gc.freeze()`` (Python's public API for exactly this) moves them
to a generation the collector never scans: 10 % less CPU for a fresh build of the
benchmark's size-4 book (farm-bench, paired runs, median of 5). It is done once per
process, so a process that builds again and again (a test suite, a server) keeps
the garbage of its later builds collectable.
"""

from __future__ import annotations

import gc

from sphinx.application import Sphinx

from . import priorities

_FROZEN: list[bool] = []


def _freeze_long_lived_objects(app: Sphinx) -> None:
    if not _FROZEN:
        _FROZEN.append(True)
        gc.freeze()


def setup_memory(app: Sphinx) -> None:
    # Late among builder-inited handlers: what they set up lives as long.
    app.connect("builder-inited", _freeze_long_lived_objects, priority=priorities.FREEZE_LONG_LIVED)
