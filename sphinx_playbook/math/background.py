"""Formulas rendered in a forked process while Sphinx reads the pages.

Reading is the longest phase of a build and runs on one core. The formulas of
each page are known as soon as it is read, and they depend on nothing else: a
child process renders them on the second core, page by page, and sends each
page's markup back as soon as it is done. The child also works out which font
draws which character (:func:`.fonts.characters_by_font`), for the font subsets
and the preloads.

The child runs at a lower priority (``nice``). On two cores the build's own
process and the .bib parser, which reading must wait for, keep a core each; the
child renders with what is left while the pages are read, then at full speed
while they are written. Pages are written in the order they were read, so the
writer waits, if at all, only for the page it is writing.

The protocol is two pipes. Requests are JSON lines (one batch, a page's
formulas, each) written without blocking, so the main process never waits for
the child while it reads; each answer is a length-prefixed JSON frame (a batch's
markup), read whenever the main process looks. A ``null`` line asks for the
rest: the main process then renders batches too, from the last one back, while
the child goes on from the front: each batch is claimed in a byte of shared
memory before it is rendered, so they meet in the middle. In the same way a
page being written that needs a batch the child has not started renders it
itself rather than wait (after a -j read the child is behind: two readers had
the cores). (Two claiming the same batch at once would render it twice, which
changes nothing.) Whatever the
child could not deliver (it died, or its frame is short) is rendered the
ordinary way by the caller.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import select
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
#: The child's priority below the build's: it takes what reading leaves of the cores.
_NICENESS = 10
#: Room in the pipe for the markup of several pages, so that the child seldom
#: waits for the main process to read (Linux; elsewhere the default size).
_RESPONSE_PIPE_BYTES = 1 << 20


class BackgroundRenderer:
    """A child process rendering formulas sent to it.

    :meth:`take` hands over what has arrived, :meth:`wait_for` waits for one
    formula's batch, :meth:`results` collects everything and ends the child.
    """

    def __init__(
        self, pid: int, requests: int, responses: int, claims: mmap.mmap, render: _Render
    ) -> None:
        self._pid, self._requests, self._responses = pid, requests, responses
        self._claims, self._render = claims, render
        self._unsent = bytearray()
        self._inbox = bytearray()
        self._batches: list[list[Formula]] = []
        self._batch_of: dict[Formula, int] = {}
        self._mine: set[int] = set()  # batches this process claimed and rendered
        self._arrived: dict[Formula, Result] = {}
        self._answered: set[Formula] = set()
        self._ended = False  # the child closed its end: nothing more will come
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
        with contextlib.suppress(ImportError, AttributeError, OSError):  # Linux only, capped
            import fcntl  # POSIX only: imported where there is a fork

            fcntl.fcntl(response_writer, fcntl.F_SETPIPE_SZ, _RESPONSE_PIPE_BYTES)
        pid = os.fork()
        if pid == 0:  # the child: serve, then leave without running the parent's exit code
            status = 1
            try:
                os.close(request_writer)
                os.close(response_reader)
                with contextlib.suppress(OSError):
                    os.nice(_NICENESS)
                _serve(request_reader, response_writer, render, claims)
                status = 0
            finally:
                os._exit(status)
        os.close(request_reader)
        os.close(response_writer)
        os.set_blocking(request_writer, False)
        os.set_blocking(response_reader, False)
        return cls(pid, request_writer, response_reader, claims, render)

    def send(self, formulas: Iterable[Formula]) -> None:
        """Queue formulas (those not sent before); never blocks."""
        new = [formula for formula in dict.fromkeys(formulas) if formula not in self.sent]
        if new:
            self.sent.update(new)
            self._batch_of.update(dict.fromkeys(new, len(self._batches)))
            self._batches.append(new)
            self._unsent += json.dumps(new).encode() + b"\n"
        self._exchange(block=False)

    @property
    def finished(self) -> bool:
        """Every formula sent has come back (or never will: the child is gone)."""
        self._exchange(block=False)
        return self._ended or len(self._answered) == len(self.sent)

    def take(self) -> dict[Formula, Result]:
        """What has arrived since the last call, without waiting."""
        self._exchange(block=False)
        arrived, self._arrived = self._arrived, {}
        return arrived

    def wait_for(self, formula: Formula) -> dict[Formula, Result]:
        """:meth:`take`, once the batch that holds ``formula`` has arrived.

        A batch the child has not started is claimed and rendered here instead:
        this process would only wait, and the child goes on with the others.
        """
        if formula in self.sent and formula not in self._answered:
            self._exchange(block=False)
            index = self._batch_of[formula]
            if formula not in self._answered and index < _CLAIMABLE and not self._claims[index]:
                self._render_here(index)
            while formula not in self._answered and not self._ended:
                self._exchange(block=True)
        return self.take()

    def _render_here(self, index: int) -> None:
        self._claims[index] = 1
        self._mine.add(index)
        batch = self._batches[index]
        self._arrived.update(self._render.batch(batch))
        self._answered.update(batch)

    def _exchange(self, block: bool) -> None:
        """Write what the request pipe takes and read what the child has answered;
        with ``block``, wait until one of the two can be done."""
        while not self._ended:
            writing = [self._requests] if self._unsent else []
            readable, writable, _ = select.select(
                [self._responses], writing, [], None if block else 0
            )
            if writable:
                self._flush()
            if readable:
                self._read()
            if block or not (readable or writable):
                return

    def _flush(self) -> None:
        try:
            written = os.write(self._requests, self._unsent)
        except BlockingIOError:  # the pipe is full: the rest goes later
            return
        except OSError:  # the child is gone: nothing more will come
            self._unsent.clear()
            return
        del self._unsent[:written]

    def _read(self) -> None:
        try:
            chunk = os.read(self._responses, _RESPONSE_PIPE_BYTES)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._ended = True
            return
        self._inbox += chunk
        while len(self._inbox) >= _LENGTH.size:
            size = _LENGTH.unpack_from(self._inbox)[0]
            if len(self._inbox) < _LENGTH.size + size:
                return
            frame = bytes(self._inbox[_LENGTH.size : _LENGTH.size + size])
            del self._inbox[: _LENGTH.size + size]
            for tex, display, html, error, fonts in json.loads(frame):
                formula = (tex, display)
                self._arrived[formula] = (Rendered(html, error), fonts)
                self._answered.add(formula)

    def results(self) -> dict[Formula, Result]:
        """Everything not taken yet: this process renders the batches the child has
        not started, from the end, and collects the rest; the child then leaves."""
        mine: dict[Formula, Result] = {}
        try:
            self._unsent += b"null\n"
            for index in reversed(range(min(len(self._batches), _CLAIMABLE))):
                if index in self._mine:
                    continue  # rendered here while waiting for it
                if self._claims[index]:
                    break  # the child got this far: the rest is its
                self._claims[index] = 1
                mine.update(self._render.batch(self._batches[index]))
            while not self._ended:
                self._exchange(block=True)
        finally:
            for pipe in (self._requests, self._responses):
                with contextlib.suppress(OSError):
                    os.close(pipe)
            self._ended = True
            with contextlib.suppress(ChildProcessError):  # reaped elsewhere: nothing lost
                os.waitpid(self._pid, 0)
        return {**self._arrived, **mine}


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
    """Render each batch not claimed by the main process, and answer it at once."""
    load(render.library)  # while the first page is still being parsed
    with os.fdopen(requests, "rb") as pipe, os.fdopen(responses, "wb", buffering=0) as answers:
        for index, line in enumerate(pipe):
            formulas = json.loads(line)
            if formulas is None:
                return
            if index < _CLAIMABLE:
                if claims[index]:
                    continue  # the main process is rendering it
                claims[index] = 1
            rows = [
                [tex, display, result.html, result.error, drawn]
                for (tex, display), (result, drawn) in render.batch(
                    [(tex, display) for tex, display in formulas]
                ).items()
            ]
            payload = json.dumps(rows).encode()
            answer = memoryview(_LENGTH.pack(len(payload)) + payload)
            while answer:  # a pipe may take part of a large write
                answer = answer[answers.write(answer) :]
