"""Per-page data kept in Sphinx's environment, safe for incremental and parallel reads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

T = TypeVar("T")


class PageStore(Generic[T]):
    """A ``{docname: value}`` dict on the environment under ``attribute``.

    A page's value is dropped when Sphinx re-reads or removes the page, and the
    values read by parallel workers are merged back into the main environment.
    """

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute

    def of(self, env: BuildEnvironment) -> dict[str, T]:
        if not hasattr(env, self.attribute):
            setattr(env, self.attribute, {})
        return getattr(env, self.attribute)

    def connect(self, app: Sphinx) -> None:
        app.connect("env-purge-doc", self._purge)
        app.connect("env-merge-info", self._merge)

    def _purge(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        self.of(env).pop(docname, None)

    def _merge(
        self, app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
    ) -> None:
        theirs, ours = self.of(other), self.of(env)
        for docname in docnames:
            if docname in theirs:
                ours[docname] = theirs[docname]
