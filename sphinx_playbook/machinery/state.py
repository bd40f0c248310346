"""What sphinx_playbook keeps in Sphinx's environment: one typed object, and views of it.

Everything lives in one :class:`PlaybookData` on the environment, pickled with it.
A page's entries are purged when Sphinx reads the page again or it is removed
(``env-purge-doc``), and what ``-j`` readers collected is merged back
(``env-merge-info``). When the shape of what is stored changes, the
``env_version`` that ``setup()`` returns is bumped: Sphinx then starts from a
fresh environment, so data pickled by another version is never misread. (A
Domain would do the same, but Sphinx cannot add one when the extension is
loaded through ``html_theme`` alone, after the environment exists.)

- :class:`PageStore`: a value per page (its formulas, citations, metadata);
- :class:`SiteValue`: one value for the site, computed from the pages once they
  are read (the book's citation numbering, the chapters menu), for the writers
  (what each page shows of it is noted in :mod:`.registry`, which decides the
  pages to write again);
- :func:`build_facts`: what the current builder is, for post-transforms, which
  Sphinx gives the environment and not the builder (never pickled).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

T = TypeVar("T")

ATTRIBUTE = "sphinx_playbook"


@dataclass
class PlaybookData:
    """Per-page values by store name and page, and the site's values by name."""

    pages: dict[str, dict[str, Any]] = field(default_factory=dict)
    site: dict[str, Any] = field(default_factory=dict)


def _data(env: BuildEnvironment) -> PlaybookData:
    data = getattr(env, ATTRIBUTE, None)
    if not isinstance(data, PlaybookData):
        data = PlaybookData()
        setattr(env, ATTRIBUTE, data)
    return data


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for values in _data(env).pages.values():
        values.pop(docname, None)


def _merge(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    ours = _data(env).pages
    for name, theirs in _data(other).pages.items():
        into = ours.setdefault(name, {})
        for docname in docnames:
            if docname in theirs:
                into[docname] = theirs[docname]


class PageStore(Generic[T]):
    """``{docname: value}`` under ``name``, purged and merged with the pages."""

    def __init__(self, name: str) -> None:
        self.name = name

    def of(self, env: BuildEnvironment) -> dict[str, T]:
        pages: dict[str, T] = _data(env).pages.setdefault(self.name, {})
        return pages


class SiteValue(Generic[T]):
    """One value for the whole site under ``name``; ``default()`` until it is set."""

    def __init__(self, name: str, default: Callable[[], T]) -> None:
        self.name, self.default = name, default

    def get(self, env: BuildEnvironment) -> T:
        site = _data(env).site
        if self.name not in site:
            return self.default()
        value: T = site[self.name]
        return value

    def set(self, env: BuildEnvironment, value: T) -> None:
        _data(env).site[self.name] = value


@dataclass(frozen=True)
class BuildFacts:
    """What post-transforms and the read phase need to know of the builder."""

    builder_name: str
    builder_format: str
    #: The HTML theme is sphinx_playbook or inherits from it.
    playbook_theme: bool
    #: Pages get the article layout (title block, byline): html and dirhtml.
    article_layout: bool
    #: The extensions loaded (their names as in ``extensions``).
    extensions: frozenset[str] = frozenset()

    @property
    def html(self) -> bool:
        return self.builder_format == "html"


_FACTS: weakref.WeakKeyDictionary[BuildEnvironment, tuple[Builder, BuildFacts]] = (
    weakref.WeakKeyDictionary()
)
_NO_BUILD = BuildFacts("", "", playbook_theme=False, article_layout=False)


def build_facts(env: BuildEnvironment) -> BuildFacts:
    """The current build's facts (empty outside a build)."""
    noted = _FACTS.get(env)
    return noted[1] if noted else _NO_BUILD


def builder_of(env: BuildEnvironment) -> Builder | None:
    """The builder of the current build of ``env`` (None outside a build)."""
    noted = _FACTS.get(env)
    return noted[0] if noted else None


def note_build(app: Sphinx, *, playbook_theme: bool, article_layout: bool) -> None:
    """Record the build's facts; the theme package calls it first at builder-inited
    (it knows whether the build uses the theme: this folder imports no feature)."""
    facts = BuildFacts(
        app.builder.name,
        app.builder.format,
        playbook_theme,
        article_layout,
        frozenset(app.extensions),
    )
    _FACTS[app.env] = (app.builder, facts)


def setup_state(app: Sphinx) -> None:
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
