"""Formulas rendered in a forked process while Sphinx reads the pages.

Reading is the longest phase of a build and runs on one core. The formulas of
each page are known as soon as it is read, and they depend on nothing else: a
child process renders them on the second core, page by page, and hands all the
markup back when reading is over (env-updated). On two cores math then costs
the build almost nothing on its critical path. The child also works out which
font draws which character (:func:`.fonts.characters_by_font`), for the font
subsets and the preloads.

The protocol is two pipes. Requests are JSON lines (one batch, a page's
formulas, each) written without blocking, so the main process never waits for
the child while it reads; a ``null`` line asks for the results, which come back
as one length-prefixed JSON payload. When the results are asked for before the
child is through, the main process renders batches too, from the last one back,
while the child goes on from the front: each batch is claimed in a byte of
shared memory before it is rendered, so they meet in the middle. (Two claiming
the same batch at once would render it twice, which changes nothing.) Whatever
the child could not deliver (it died, or its payload is short) is rendered the
ordinary way by the caller.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import struct
from collections.abc import Callable, Iterable

from ..forking import can_fork
from .engines import forks_safely
from .renderers import Library, Rendered, load, render_many

Formula = tuple[str, bool]
#: What the child returns for a formula: its markup, and its characters by font file.
Result = tuple[Rendered, dict[str, str]]
_LENGTH = struct.Struct("!Q")
#: Batches that can be claimed (a byte each); later ones are all the child's.
_CLAIMABLE = 1 << 16


class BackgroundRenderer:
    """A child process rendering formulas sent to it; :meth:`results` collects them."""

    def __init__(
        self, pid: int, requests: int, responses: int, claims: mmap.mmap, render: _Render
    ) -> None:
        self._pid, self._requests, self._responses = pid, requests, responses
        self._claims, self._render = claims, render
        self._unsent = bytearray()
        self._batches: list[list[Formula]] = []
        self.sent: set[Formula] = set()

    @classmethod
    def start(
        cls,
        library: Library,
        macros_json: str,
        characters: Callable[[str], dict[str, set[str]]] | None = None,
    ) -> BackgroundRenderer | None:
        """Fork the child, or ``None`` where there is no fork, only one core, or an
        engine that cannot run in a forked child (V8).

        ``characters(markup)`` gives a formula's characters by font file (KaTeX);
        it runs in the child.
        """
        if not can_fork() or not forks_safely():
            return None
        render = _Render(library, macros_json, characters)
        claims = mmap.mmap(-1, _CLAIMABLE)  # anonymous and shared with the child
        request_reader, request_writer = os.pipe()
        response_reader, response_writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: serve, then leave without running the parent's exit code
            status = 1
            try:
                os.close(request_writer)
                os.close(response_reader)
                _serve(request_reader, response_writer, render, claims)
                status = 0
            finally:
                os._exit(status)
        os.close(request_reader)
        os.close(response_writer)
        os.set_blocking(request_writer, False)
        return cls(pid, request_writer, response_reader, claims, render)

    def send(self, formulas: Iterable[Formula]) -> None:
        """Queue formulas (those not sent before); never blocks."""
        new = [formula for formula in dict.fromkeys(formulas) if formula not in self.sent]
        if not new:
            return
        self.sent.update(new)
        self._batches.append(new)
        self._unsent += json.dumps(new).encode() + b"\n"
        self._flush()

    def _flush(self) -> None:
        while self._unsent:
            try:
                written = os.write(self._requests, self._unsent)
            except BlockingIOError:  # the pipe is full: the rest goes with the next send
                return
            except OSError:  # the child is gone: results() will find nothing
                self._unsent.clear()
                return
            del self._unsent[:written]

    def results(self) -> dict[Formula, Result]:
        """Render what the child has not started, from the end, then collect the rest."""
        mine: dict[Formula, Result] = {}
        payload = b""
        try:
            os.set_blocking(self._requests, True)
            self._unsent += b"null\n"
            self._flush()
            for index in reversed(range(min(len(self._batches), _CLAIMABLE))):
                if self._claims[index]:
                    break  # the child got this far: the rest is its
                self._claims[index] = 1
                mine.update(self._render.batch(self._batches[index]))
            with os.fdopen(self._responses, "rb") as pipe:
                header = pipe.read(_LENGTH.size)
                if len(header) == _LENGTH.size:
                    payload = pipe.read(_LENGTH.unpack(header)[0])
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                os.close(self._requests)
            with contextlib.suppress(ChildProcessError):  # reaped elsewhere: the payload tells
                os.waitpid(self._pid, 0)
        try:
            rows = json.loads(payload)
        except ValueError:  # the child died before it wrote everything
            rows = []
        theirs = {
            (tex, display): (Rendered(html, error), fonts)
            for tex, display, html, error, fonts in rows
        }
        return {**theirs, **mine}


class _Render:
    """One batch of formulas rendered, each with its characters by font file."""

    def __init__(
        self,
        library: Library,
        macros_json: str,
        characters: Callable[[str], dict[str, set[str]]] | None,
    ) -> None:
        self.library, self.macros_json, self.characters = library, macros_json, characters

    def batch(self, formulas: list[Formula]) -> dict[Formula, Result]:
        results = {}
        for formula, result in zip(
            formulas, render_many(self.library, formulas, self.macros_json), strict=True
        ):
            fonts = self.characters(result.html) if self.characters and result.html else {}
            results[formula] = (result, {f: "".join(sorted(c)) for f, c in fonts.items()})
        return results


def _serve(requests: int, responses: int, render: _Render, claims: mmap.mmap) -> None:
    rows: list[list[object]] = []
    load(render.library)  # while the first page is still being parsed
    with os.fdopen(requests, "rb") as pipe:
        for index, line in enumerate(pipe):
            formulas = json.loads(line)
            if formulas is None:
                break
            if index < _CLAIMABLE:
                if claims[index]:
                    continue  # the main process is rendering it
                claims[index] = 1
            for (tex, display), (result, drawn) in render.batch(
                [(tex, display) for tex, display in formulas]
            ).items():
                rows.append([tex, display, result.html, result.error, drawn])
        else:  # the main process ended without asking: nobody wants the results
            return
    payload = json.dumps(rows).encode()
    with os.fdopen(responses, "wb") as pipe:
        pipe.write(_LENGTH.pack(len(payload)) + payload)
