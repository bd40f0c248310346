"""Work done in a forked child while Sphinx goes on, on a machine with two cores.

sphinx-build runs one thread on one core. Some of our work needs nothing from
the build once it has started (parsing a .bib file, subsetting fonts, half of
the formulas) and is wanted only later: a child process does it meanwhile and
hands back the result, pickled through a pipe. Where there is no fork, or one
core, or the child fails, the work is done here when its result is asked for,
so the outcome (and any error) is the same.

Before the first fork, the objects alive once the builder is set up (modules,
registries, the theme, the environment) are frozen out of the garbage
collector's reach: they live until the process ends, yet each full collection
walked them all, about 15 % of a build's time. Frozen, they are also shared
with the forked children instead of copied on the collector's first write.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
from collections.abc import Callable
from typing import Generic, TypeVar

from sphinx.application import Sphinx

T = TypeVar("T")
_MISSING = object()


_FROZEN: list[bool] = []


def _freeze_long_lived_objects(app: Sphinx) -> None:
    """``gc.freeze()``, once per process: a process that builds again and again (a
    test suite, a server) keeps the garbage of its later builds collectable."""
    if not _FROZEN:
        _FROZEN.append(True)
        gc.freeze()


def setup_forking(app: Sphinx) -> None:
    # Early among builder-inited handlers: before the first child is forked.
    app.connect("builder-inited", _freeze_long_lived_objects, priority=100)


def usable_cores() -> int:
    """The cores this process may run on: a CI job pinned to one core (``taskset``,
    a cpuset) has one, however many the machine has."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def can_fork() -> bool:
    """Where forking pays: two cores. (Threads are not counted: importing quickjs
    starts an idle worker thread, and Sphinx's own -j forks in the same way.)"""
    return hasattr(os, "fork") and usable_cores() >= 2


class InChild(Generic[T]):
    """``function()``, computed in a forked child from now on; :meth:`result` waits for it.

    Only the process that started the child reads its result: a process forked
    from it later (a ``-j`` worker) computes the result itself.
    """

    def __init__(self, function: Callable[[], T]) -> None:
        self._function = function
        self._owner = os.getpid()
        self._pid: int | None = None
        self._reader: int | None = None
        self._result: object = _MISSING
        if can_fork():
            self._start()

    def _start(self) -> None:
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, leave without running the parent's exit code
            status = 1
            try:
                os.close(reader)
                payload = pickle.dumps(self._function(), pickle.HIGHEST_PROTOCOL)
                with os.fdopen(writer, "wb") as pipe:
                    pipe.write(payload)
                status = 0
            finally:
                os._exit(status)
        os.close(writer)
        self._pid, self._reader = pid, reader

    def result(self) -> T:
        if self._result is _MISSING:
            self._result = self._collect()
        return self._result  # type: ignore[return-value]

    def _collect(self) -> T:
        if self._pid is None or os.getpid() != self._owner:
            return self._function()
        payload = b""
        try:
            with os.fdopen(self._reader, "rb") as pipe:
                payload = pipe.read()
        except OSError:
            pass
        with contextlib.suppress(ChildProcessError):  # reaped elsewhere: the payload tells
            os.waitpid(self._pid, 0)
        self._pid = None
        if payload:
            try:
                return pickle.loads(payload)
            except Exception:  # a short payload: the child died while sending
                pass
        return self._function()  # here, so that an error shows as it would without a child
