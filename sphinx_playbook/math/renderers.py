"""KaTeX and Temml, the two build-time math renderers, behind one ``render`` call.

KaTeX writes HTML (drawn with its webfonts) plus MathML for screen readers; Temml
writes MathML Core alone, which browsers draw with a system math font and which
EPUB readers understand. Each library is pinned in vendor/ and runs in the
engine :mod:`.engines` picks, one context per process, loaded on first use.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .engines import JSContext, chosen_engine, new_context

VENDOR = Path(__file__).parent / "vendor"


@dataclass(frozen=True)
class Rendered:
    html: str | None
    error: str | None


@dataclass(frozen=True)
class Library:
    """A vendored math library and the glue that calls it with our options."""

    name: str
    script: str
    stylesheet: str
    glue: str

    @property
    def folder(self) -> Path:
        return VENDOR / self.name

    @property
    def version(self) -> str:
        return _version(self.folder)


@cache
def _version(folder: Path) -> str:
    return (folder / "VERSION").read_text(encoding="utf-8").split()[0]


# Shared by both libraries: one formula, or a batch in one call into the engine (a
# call costs more than a formula in V8). Each formula gets its own copy of the
# macros, so a \gdef in one never leaks into the next; the definitions of the
# page's earlier formulas (``\gdef``s) are read into that copy first, as MathJax
# keeps them for the whole page. JSON out of the engine: QuickJS's binding cannot
# return rope strings directly.
_BATCH = """
function pbWithDefinitions(tex, display, macros, definitions) {
  if (definitions) {
    const defined = pbOne(definitions, false, macros);
    if (defined.error) {
      return {error: defined.error + " (in a macro an earlier formula of the page defines)"};
    }
  }
  return pbOne(tex, display, macros);
}
function pbRender(tex, display, macros, definitions) {
  return JSON.stringify(pbWithDefinitions(tex, display, JSON.parse(macros), definitions));
}
function pbRenderAll(items, macros) {
  const shared = JSON.parse(macros);
  return JSON.stringify(JSON.parse(items).map(
    ([tex, display, definitions]) =>
      pbWithDefinitions(tex, display, Object.assign({}, shared), definitions)));
}
"""
KATEX = Library(
    "katex",
    "katex.min.js",
    "katex-swap.min.css",
    """
function pbOne(tex, display, macros) {
  try {
    return {html: katex.renderToString(tex, {
      displayMode: display, output: "htmlAndMathml", throwOnError: true,
      macros: macros, trust: false, strict: "ignore"})};
  } catch (error) {
    return {error: String(error && error.message || error)};
  }
}
"""
    + _BATCH,
)
TEMML = Library(
    "temml",
    "temml.min.js",
    "Temml-Local.css",
    """
function pbOne(tex, display, macros) {
  try {
    return {html: temml.renderToString(tex, {
      displayMode: display, annotate: true, throwOnError: true,
      macros: macros, trust: false, strict: false})};
  } catch (error) {
    return {error: String(error && error.message || error)};
  }
}
"""
    + _BATCH,
)
LIBRARIES = {library.name: library for library in (KATEX, TEMML)}


@cache
def _context(library: Library, engine: str | None = None) -> JSContext:
    context = new_context(engine)
    context.eval((library.folder / library.script).read_text(encoding="utf-8"))
    context.eval(library.glue)
    return context


def load(library: Library, engine: str | None = None) -> None:
    """Start the engine and load the library now, before the first formula asks for it."""
    _context(library, engine)


def render(
    library: Library,
    tex: str,
    display: bool,
    macros_json: str = "{}",
    engine: str | None = None,
    definitions: str = "",
) -> Rendered:
    """The library's markup for ``tex``, or its error message (never an exception);
    ``definitions`` (``\\gdef``s) are read first, their output discarded."""
    context = _context(library, engine)
    result = json.loads(context.call("pbRender", tex, display, macros_json, definitions))
    return Rendered(result.get("html"), result.get("error"))


#: (TeX, display?) or (TeX, display?, definitions): :data:`.collect.Formula`.
FormulaItem = tuple[str, bool] | tuple[str, bool, str]


def render_many(
    library: Library,
    formulas: Sequence[FormulaItem],
    macros_json: str = "{}",
    engine: str | None = None,
) -> list[Rendered]:
    """``render`` for each (TeX, display[, definitions]), in one call into the engine."""
    if not formulas:
        return []
    items = json.dumps([list(formula) for formula in formulas])
    results = json.loads(_context(library, engine).call("pbRenderAll", items, macros_json))
    return [Rendered(result.get("html"), result.get("error")) for result in results]


def render_batch(
    library_name: str, formulas: Sequence[FormulaItem], macros_json: str = "{}"
) -> list[tuple[Rendered, dict[str, str]]]:
    """``render_many`` plus what each formula draws, by KaTeX font file: the work a
    worker process does (:mod:`..machinery.workers`), with picklable arguments."""
    from .fonts import katex_characters  # the worker needs it; the caller may not

    library = LIBRARIES[library_name]
    results = []
    for rendered in render_many(library, formulas, macros_json):
        characters = katex_characters(rendered.html) if library is KATEX and rendered.html else {}
        results.append((rendered, characters))
    return results


def engine_name() -> str:
    """The engine formulas are rendered with (part of the cache key)."""
    return chosen_engine() or "none"
