"""The JavaScript engine that runs KaTeX and Temml at build time, installed by pip alone.

No node, no compiler: QuickJS through the ``quickjs-ng`` wheel where it has one,
else V8 through ``mini-racer`` (pyproject.toml picks one per platform by
environment marker; see docs/math.md for the matrix). Both give byte-identical
output, which the test suite checks on the formula corpus. Set
``SPHINX_PLAYBOOK_JS_ENGINE`` to ``quickjs`` or ``mini_racer`` to choose one.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any, Protocol

ENGINE_VARIABLE = "SPHINX_PLAYBOOK_JS_ENGINE"


class JSContext(Protocol):
    """What a renderer needs of an engine: run a script, call a global function."""

    name: str

    def eval(self, source: str) -> None: ...

    def call(self, function: str, *args: Any) -> str: ...


class QuickJSContext:
    name = "quickjs"

    def __init__(self) -> None:
        import quickjs  # imported late: only builds with math pay for an engine

        self._context = quickjs.Context()

    def eval(self, source: str) -> None:
        self._context.eval(source)

    def call(self, function: str, *args: Any) -> str:
        return self._context.get(function)(*args)


class MiniRacerContext:
    name = "mini_racer"

    def __init__(self) -> None:
        from py_mini_racer import MiniRacer

        self._context = MiniRacer()
        # mini-racer runs an event loop in a daemon thread and joins it when the
        # context closes; left to garbage collection at interpreter exit, that join
        # never returns on Python 3.13 (daemon threads are stopped by then) and the
        # process (a worker, the build) hangs. Closed while the thread still runs.
        atexit.register(self._context.close)

    def eval(self, source: str) -> None:
        self._context.eval(source)

    def call(self, function: str, *args: Any) -> str:
        return self._context.call(function, *args)


ENGINES: dict[str, Callable[[], JSContext]] = {
    "quickjs": QuickJSContext,
    "mini_racer": MiniRacerContext,
}


#: The module each engine is imported from: found without importing it.
ENGINE_MODULES = {"quickjs": "quickjs", "mini_racer": "py_mini_racer"}


def chosen_engine(name: str | None = None) -> str | None:
    """The engine ``new_context(name)`` would start, without starting it."""
    name = name or os.environ.get(ENGINE_VARIABLE) or None
    if name:
        return name
    return next((engine for engine, module in ENGINE_MODULES.items() if find_spec(module)), None)


class NoEngineError(RuntimeError):
    """No JavaScript engine is installed (or the one asked for is not)."""


def new_context(name: str | None = None) -> JSContext:
    """A fresh context of engine ``name``, or of the first installed engine."""
    name = name or os.environ.get(ENGINE_VARIABLE) or None
    candidates = [name] if name else list(ENGINES)
    for candidate in candidates:
        if candidate not in ENGINES:
            raise NoEngineError(
                f"unknown JavaScript engine {candidate!r}; choose one of {', '.join(ENGINES)}"
            )
        try:
            return ENGINES[candidate]()
        except ImportError:
            continue
    raise NoEngineError(
        "no JavaScript engine to render math at build time: pip install quickjs-ng "
        "(or mini-racer), or set playbook_math = 'off'"
    )
