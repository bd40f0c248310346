"""Worker processes for our CPU-heavy work, beside Sphinx's single-threaded build.

KaTeX runs in a JavaScript engine and fontTools cuts fonts: each takes a second
or more on a large book and needs nothing from the build once it has its input.
A :class:`concurrent.futures.ProcessPoolExecutor` with the ``spawn`` start
method runs them: a fresh interpreter, safe in a
process that has threads and on every platform (no ``fork()`` of this process).
The workers run at a lower priority, so that Sphinx's own reading keeps its core.

Sphinx itself forks this process for ``-j N`` (``sphinx.util.parallel``), and a
fork while a pool's threads are alive is unsafe (Python 3.12 warns about it). So
a pool lives only while Sphinx cannot fork: the whole build when it is serial;
for ``-j N``, only between reading and writing (:func:`close` ends it before the
writers are forked). Where no pool may run, work is done here, when it is asked
for; the outcome, and any error, is the same.

The pool outlives a build in a process that builds again (a test suite, a
server), so a worker starts (about half a second) once, not per build: it is the
one thing of ours a process keeps, and holds no build's data (each task brings its
whole input). Which phase a build is in is kept with its application.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import weakref
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from sphinx.application import Sphinx

from . import priorities

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")
P = ParamSpec("P")

#: The workers' priority below the build's: they take the core reading leaves.
_NICENESS = 10
#: The one pool of this process, while it is open.
_POOL: list[ProcessPoolExecutor] = []
#: The applications between their env-updated and the end of their write-started:
#: the window in which a -j build does not fork.
_BETWEEN_READING_AND_WRITING: weakref.WeakSet[Sphinx] = weakref.WeakSet()


def usable_cores() -> int:
    """The cores this process may run on: a CI job pinned to one core has one."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _lower_priority() -> None:
    """Worker initializer: yield the cores to the build's own process."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(_NICENESS)


def sphinx_may_fork(app: Sphinx) -> bool:
    """Whether Sphinx may fork this process now: a -j build (``app.parallel``,
    public) forks its readers and its writers, not in between."""
    return app.parallel > 1 and app not in _BETWEEN_READING_AND_WRITING


def sphinx_forks_writers(app: Sphinx) -> bool:
    """Whether the pool ends at the end of write-started (a -j build)."""
    return app.parallel > 1


def _pool(app: Sphinx) -> ProcessPoolExecutor | None:
    """The open pool, started now if need be; None where none may run."""
    if sphinx_may_fork(app):
        close()
        return None
    if not _POOL:
        # Imported when a pool starts: a build that starts none (a preview's
        # one-page rebuild without math) does not pay for multiprocessing.
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        try:
            # One worker beside a serial build, which reads on the other core
            # meanwhile (a second would pay its start and its engine's warm-up for
            # little); two between a -j build's reading and writing, when this
            # process only waits.
            workers = min(2, usable_cores()) if app.parallel > 1 else 1
            pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        except (OSError, ImportError, NotImplementedError):  # no semaphores, say
            return None
        _POOL.append(pool)
    return _POOL[0]


def submit(app: Sphinx, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
    """``function(*args)`` in a worker, or here and now where no worker may run.

    ``function`` and its arguments must pickle (a module-level function).
    """
    pool = _pool(app)
    if pool is not None:
        try:
            return pool.submit(function, *args, **kwargs)
        except RuntimeError:  # the pool broke (a worker was killed): work here
            close()
    done: Future[T] = Future()
    try:
        done.set_result(function(*args, **kwargs))
    except Exception as error:  # raised where the result is asked for, as from a worker
        done.set_exception(error)
    return done


def result(future: Future[T], function: Callable[..., T], *args: Any) -> T:
    """``future``'s result; if its worker died, or the pool was closed before it
    ran, the work is done again here."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return future.result()
    except (BrokenProcessPool, CancelledError):
        close()
        return function(*args)


def close() -> None:
    """End the pool and join its threads (before Sphinx forks, and at exit)."""
    while _POOL:
        _POOL.pop().shutdown(wait=True, cancel_futures=True)


def _before_reading(app: Sphinx, *args: Any) -> None:
    """A -j build forks its readers next: a pool left by an earlier build ends."""
    _BETWEEN_READING_AND_WRITING.discard(app)
    if sphinx_may_fork(app):
        close()


def _read(app: Sphinx, *args: Any) -> None:
    _BETWEEN_READING_AND_WRITING.add(app)


def _before_writing(app: Sphinx, *args: Any) -> None:
    """Last of the write-started handlers: a -j build forks its writers next."""
    _BETWEEN_READING_AND_WRITING.discard(app)
    if sphinx_forks_writers(app):
        close()


def setup_workers(app: Sphinx) -> None:
    """Follow the build's phases through Sphinx's public events."""
    app.connect("env-before-read-docs", _before_reading, priority=priorities.READING_STARTS)
    app.connect("env-updated", _read, priority=priorities.READING_ENDS)
    app.connect("write-started", _before_writing, priority=priorities.WRITING_STARTS)
    app.connect("build-finished", _before_reading, priority=priorities.BUILD_ENDS)


atexit.register(close)
