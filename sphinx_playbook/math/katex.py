"""KaTeX, run at build time in QuickJS (a pip-installed JavaScript engine).

One engine per process, loaded on first use; each formula is rendered once per
(options, TeX) in a process, and errors come back as KaTeX's message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

VENDOR = Path(__file__).parent / "vendor" / "katex"

_GLUE = """
function pbRender(tex, display, macros) {
  try {
    return JSON.stringify({html: katex.renderToString(tex, {
      displayMode: display, output: "htmlAndMathml", throwOnError: true,
      macros: JSON.parse(macros), trust: false, strict: "ignore"})});
  } catch (error) {
    return JSON.stringify({error: String(error && error.message || error)});
  }
}
"""


@dataclass(frozen=True)
class Rendered:
    html: str | None
    error: str | None


@lru_cache(maxsize=1)
def _engine() -> Any:
    import quickjs  # imported late: only builds with math pay for the engine

    context = quickjs.Context()
    context.eval((VENDOR / "katex.min.js").read_text(encoding="utf-8"))
    context.eval(_GLUE)
    return context.get("pbRender")


@lru_cache(maxsize=8192)
def render(tex: str, display: bool, macros_json: str = "{}") -> Rendered:
    """KaTeX's HTML and MathML for ``tex``, or KaTeX's error message."""
    # JSON out of the engine: QuickJS's binding cannot return rope strings directly.
    result = json.loads(_engine()(tex, display, macros_json))
    return Rendered(result.get("html"), result.get("error"))
