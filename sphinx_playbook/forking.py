"""Work done in a forked child while Sphinx goes on, on a machine with two cores.

sphinx-build runs one thread on one core. Some of our work needs nothing from
the build once it has started (parsing a .bib file, subsetting fonts, half of
the formulas) and is wanted only later: a child process does it meanwhile and
hands back the result, pickled through a pipe. Where there is no fork, or one
core, or the child fails, the work is done here when its result is asked for,
so the outcome (and any error) is the same.
"""

from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
_MISSING = object()


def can_fork() -> bool:
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2


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
