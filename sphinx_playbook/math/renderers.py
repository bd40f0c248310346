"""KaTeX and Temml, the two build-time math renderers, behind one ``render`` call.

KaTeX writes HTML (drawn with its webfonts) plus MathML for screen readers; Temml
writes MathML Core alone, which browsers draw with a system math font and which
EPUB readers understand. Each library is pinned in vendor/ and runs in the
engine :mod:`.engines` picks, one context per process, loaded on first use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .engines import JSContext, new_context

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
        return (self.folder / "VERSION").read_text(encoding="utf-8").split()[0]


# JSON out of the engine: QuickJS's binding cannot return rope strings directly.
KATEX = Library(
    "katex",
    "katex.min.js",
    "katex-swap.min.css",
    """
function pbRender(tex, display, macros) {
  try {
    return JSON.stringify({html: katex.renderToString(tex, {
      displayMode: display, output: "htmlAndMathml", throwOnError: true,
      macros: JSON.parse(macros), trust: false, strict: "ignore"})});
  } catch (error) {
    return JSON.stringify({error: String(error && error.message || error)});
  }
}
""",
)
TEMML = Library(
    "temml",
    "temml.min.js",
    "Temml-Local.css",
    """
function pbRender(tex, display, macros) {
  try {
    return JSON.stringify({html: temml.renderToString(tex, {
      displayMode: display, annotate: true, throwOnError: true,
      macros: JSON.parse(macros), trust: false, strict: false})});
  } catch (error) {
    return JSON.stringify({error: String(error && error.message || error)});
  }
}
""",
)
LIBRARIES = {library.name: library for library in (KATEX, TEMML)}


@cache
def _context(library: Library, engine: str | None = None) -> JSContext:
    context = new_context(engine)
    context.eval((library.folder / library.script).read_text(encoding="utf-8"))
    context.eval(library.glue)
    return context


def render(
    library: Library, tex: str, display: bool, macros_json: str = "{}", engine: str | None = None
) -> Rendered:
    """The library's markup for ``tex``, or its error message (never an exception)."""
    result = json.loads(_context(library, engine).call("pbRender", tex, display, macros_json))
    return Rendered(result.get("html"), result.get("error"))
