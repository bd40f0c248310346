"""The site's formulas rendered in worker processes, all of them ready before a page is written.

While Sphinx reads a serial build, each page's formulas missing from the cache
go to a worker (:mod:`..machinery.workers`) as soon as the page is read; a ``-j``
build sends the rest once reading is over. ``write-started`` then waits for
every batch, saves the cache and writes the stylesheet and the fonts, so that
every page links files that are final (their ``?v=`` checksum included) and a
``-j`` writer, forked after it, inherits every formula's markup.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from ..config import read_config
from ..machinery import workers
from .cache import FormulaCache, FormulaKeys
from .collect import FORMULAS, Formula, has_references, page_formulas
from .engines import NoEngineError
from .mathjax_compat import translate
from .renderers import KATEX, TEMML, Library, Rendered, render_batch
from .site_macros import site_macros

RENDERER = "playbook"
#: Formulas per batch sent to a worker: small enough that two workers share a
#: site's formulas evenly, large enough that a call into the engine is worth it.
_BATCH = 64

Result = tuple[Rendered, dict[str, str]]


@dataclass
class SiteMath:
    """What one builder's formulas share: settings read once, and the batches out."""

    app: Sphinx
    library: Library
    macros_json: str
    display_align: str
    _keys: dict[Formula, str] = field(default_factory=dict)
    _sent: set[Formula] = field(default_factory=set)
    _batches: list[tuple[list[Formula], Future[list[Result]]]] = field(default_factory=list)
    #: Each font file's version, for the URLs that name it (written at write-started).
    font_versions: dict[str, str] = field(default_factory=dict)
    #: The files under ``_static/<library>/`` the pages link, by name.
    files: dict[str, bytes] = field(default_factory=dict)
    #: Fonts no formula draws with any more, removed with the fonts written.
    unused_fonts: list[Path] = field(default_factory=list)
    #: Writes the fonts, some cut in the workers meanwhile.
    finish_fonts: Callable[[], None] | None = None
    #: The formulas rendered by earlier builds of this doctree folder, and this one's.
    cache: FormulaCache = field(default_factory=FormulaCache)

    def __post_init__(self) -> None:
        self._key_of = FormulaKeys(self.library, self.macros_json)
        self.cache.load(self.app.doctreedir)

    def key(self, formula: Formula) -> str:
        if formula not in self._keys:
            self._keys[formula] = self._key_of(*formula)
        return self._keys[formula]

    def send(self, formulas: Iterable[Formula]) -> None:
        """Have the formulas the cache lacks rendered, in batches, by the workers."""
        missing = [
            formula
            for formula in dict.fromkeys(formulas)
            if formula not in self._sent and self.key(formula) not in self.cache
        ]
        self._submit(missing)

    def _submit(self, formulas: list[Formula]) -> None:
        self._sent.update(formulas)
        for start in range(0, len(formulas), _BATCH):
            batch = formulas[start : start + _BATCH]
            library, macros = self.library.name, self.macros_json
            future = workers.submit(self.app, render_batch, library, batch, macros)
            self._batches.append((batch, future))

    def collect(self) -> None:
        """Wait for every batch sent and put its markup into the cache."""
        batches, self._batches = self._batches, []
        for batch, future in batches:
            try:
                results = workers.result(
                    future, render_batch, self.library.name, batch, self.macros_json
                )
            except NoEngineError as error:
                results = [(Rendered(None, str(error)), {})] * len(batch)
            for formula, (rendered, characters) in zip(batch, results, strict=True):
                self.cache.put(self.key(formula), rendered, characters)

    def rendered(self, formula: Formula) -> Rendered:
        """A formula's markup: from the cache, else rendered now (one no page had
        when it was read, one whose markup the cache lost, or in a process that has
        no worker)."""
        result = self.cache.get(self.key(formula))
        if result is None:  # its markup file may be gone while the index names it
            self._submit([formula])
            self.collect()
            result = self.cache.get(self.key(formula))
        return result if result is not None else Rendered(None, "the formula was not rendered")

    def complete_fonts(self) -> None:
        finish, self.finish_fonts = self.finish_fonts, None
        if finish is not None:
            finish()

    def characters(self, formula: Formula) -> dict[str, str]:
        """What a formula draws, by KaTeX font file (read from the cache's index, without
        its markup, for a formula rendered before)."""
        key = self.key(formula)
        if key not in self.cache:
            self.rendered(formula)
        return self.cache.characters(key) or {}


_SITES: weakref.WeakKeyDictionary[Builder, SiteMath] = weakref.WeakKeyDictionary()


def uses_renderer(builder: Builder) -> bool:
    return getattr(builder, "math_renderer_name", None) == RENDERER


def site_math(app: Sphinx) -> SiteMath:
    builder = app.builder
    if builder not in _SITES:
        settings = read_config(app.config)
        epub = builder.name.startswith("epub")
        library = TEMML if epub or settings.math == "mathml" else KATEX
        # conf.py's macros may be MathJax's too (``\\mbox`` in a body, say).
        bodies = {name: translate(body).tex for name, body in site_macros(app.config).items()}
        macros = json.dumps(bodies, sort_keys=True)
        _SITES[builder] = SiteMath(app, library, macros, settings.math_display_align)
    return _SITES[builder]


def site_of(builder: Builder) -> SiteMath:
    """The builder's formulas, set up by :func:`site_math` before any page is written
    (the translator knows its builder, not the application)."""
    return _SITES[builder]


def site_formulas(env: BuildEnvironment) -> set[Formula]:
    """Every formula as rendered: final once numfig's numbers are (env-get-updated)."""
    return {formula for docname in FORMULAS.of(env) for formula in page_formulas(env, docname)}


def _numbered_early(formulas: Iterable[Formula]) -> list[Formula]:
    """What can be rendered before equations are numbered: no ``\\eqref`` in it."""
    return [formula for formula in formulas if not has_references(formula)]


def send_page(app: Sphinx, docname: str) -> None:
    """A page is read: in a serial build its formulas go to a worker at once (a -j
    reader is a forked process; the main process sends its pages at env-updated)."""
    if uses_renderer(app.builder) and not workers.sphinx_may_fork(app):
        site_math(app).send(_numbered_early(FORMULAS.of(app.env).get(docname, ())))


def send_site(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Reading is over: what no page sent yet goes to the workers now."""
    if uses_renderer(app.builder):
        pages = FORMULAS.of(env).values()
        site_math(app).send(sorted(_numbered_early({f for page in pages for f in page})))
    return []
