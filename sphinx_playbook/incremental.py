"""A rebuild writes the pages an edit changed, not also the pages that list them.

When a page is re-read, Sphinx writes again every page whose toctree includes it
(``env.files_to_rebuild``), in case its title or sections changed. What such a
toctree shows of the page is its title, its table of contents and the pages it
includes in turn: when none of these changed (an edit to the prose, the usual
case), the parents' output cannot have changed, and writing them again is time
lost (the root page of a book: a twentieth of a one-chapter rebuild).
Renumbered pages are still written: Sphinx's collectors report them on their own.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

#: What a page's entry in a parent's toctree is made of, before it was re-read.
_BEFORE: weakref.WeakKeyDictionary[BuildEnvironment, dict[str, tuple[str, str, tuple]]] = (
    weakref.WeakKeyDictionary()
)
#: The environment's own ``files_to_rebuild``, while a filtered copy serves the write.
_KEPT: weakref.WeakKeyDictionary[BuildEnvironment, dict[str, set[str]]] = (
    weakref.WeakKeyDictionary()
)


def toctree_entry(env: BuildEnvironment, docname: str) -> tuple[str, str, tuple] | None:
    """What a parent's toctree shows of ``docname``: title, sections, included pages."""
    if docname not in env.titles or docname not in env.tocs:
        return None
    return (
        env.titles[docname].pformat(),
        env.tocs[docname].pformat(),
        tuple(env.toctree_includes.get(docname, ())),
    )


def _before_reading(app: Sphinx, env: BuildEnvironment, docnames: Iterable[str]) -> None:
    """Note the entries of the pages about to be re-read (they are cleared as read)."""
    _BEFORE[env] = {
        docname: entry for docname in docnames if (entry := toctree_entry(env, docname)) is not None
    }


def _before_writing(app: Sphinx, builder: Builder) -> None:
    """Leave out of ``files_to_rebuild``, for this write, the re-read pages whose
    toctree entry is unchanged. (The environment is pickled already.)"""
    env = builder.env
    before = _BEFORE.pop(env, {})
    unchanged = {d for d, entry in before.items() if toctree_entry(env, d) == entry}
    if not unchanged:
        return
    _KEPT[env] = env.files_to_rebuild
    env.files_to_rebuild = {
        docname: parents
        for docname, parents in env.files_to_rebuild.items()
        if docname not in unchanged
    }


def _after_writing(app: Sphinx, exception: Exception | None) -> None:
    """The environment gets its own mapping back (a later build in this process)."""
    kept = _KEPT.pop(app.env, None)
    if kept is not None:
        app.env.files_to_rebuild = kept


def setup_incremental(app: Sphinx) -> None:
    app.connect("env-before-read-docs", _before_reading)
    app.connect("write-started", _before_writing)
    app.connect("build-finished", _after_writing)
