"""``sphinx-build`` in a process of its own, without paying for its imports each time.

A test that builds in its own process wants what an author's ``sphinx-build`` run
has: nothing left in memory by an earlier build. Starting Python and importing
Sphinx, MyST, sphinx-design, pydata-sphinx-theme and this package costs about
0.7 s of CPU before a file is read, and the suite builds a few hundred times. So,
where ``fork`` is safe, each test process starts one server (this file, run as a
script) that imports those modules and does nothing else; for each build it forks,
and the child runs Sphinx's command line and exits. Every build thus starts from
freshly imported modules, in a process that ends with it, as ``python -m sphinx``
would.

Where ``fork`` is missing (Windows) or unsafe (macOS: system frameworks loaded by
an import are not fork-safe, which is why Python spawns there by default), and
wherever ``PLAYBOOK_TEST_NO_FORK=1`` is set (so that Linux can run that path),
each build is a plain ``python -m sphinx`` subprocess instead: slower, the same
outcome.

Every build has a timeout (``timeout=``, else ``PLAYBOOK_TEST_BUILD_TIMEOUT``
seconds, else :data:`DEFAULT_TIMEOUT`): a build that hangs is killed with the
processes it started, and the test fails with :class:`BuildTimeout`, which names
the command and shows the end of what it printed.

The server reads requests (one JSON object a line) on its stdin and answers on a
pipe of its own, never on stdout: what an imported module or a build prints cannot
be read as an answer. A build's stdout and stderr go to files, returned in
:class:`Result`.

The forked children share their server's hash seed (Python picks it when it
starts), so an output that follows the order of a set of strings would look the
same in every build. There is a server per ``interpreter`` number, each with its own
random seed: tests that compare builds use two or more of them, or
``new_interpreter=True`` for a Python of its own (every build in the subprocess
fallback has one). Builds that need interpreter flags (``python -W error ...``)
pass ``python_options`` and run their own ``python -m sphinx`` too.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: What every build imports: loaded once, in the server.
PRELOAD = (
    "sphinx.cmd.build",
    "sphinx.application",
    "sphinx.builders.html",
    "sphinx.builders.dirhtml",
    "sphinx.builders.latex",
    "myst_parser.sphinx_ext.main",
    "sphinx_design",
    "pydata_sphinx_theme",
    "sphinx_playbook",
    "sphinx_playbook.extension",
)

#: Seconds a build may take unless the caller or ``PLAYBOOK_TEST_BUILD_TIMEOUT`` says
#: otherwise: the docs build takes about a minute on a loaded CI machine.
DEFAULT_TIMEOUT = 900.0
#: Set to 1 to build in a plain subprocess even where the fork server would run.
NO_FORK_VARIABLE = "PLAYBOOK_TEST_NO_FORK"
TIMEOUT_VARIABLE = "PLAYBOOK_TEST_BUILD_TIMEOUT"
#: How much of a timed-out build's output its message shows.
_TAIL = 3000


@dataclass
class Result:
    """What ``subprocess.run(..., capture_output=True, text=True)`` would give."""

    returncode: int
    stdout: str
    stderr: str


class BuildTimeout(AssertionError):
    """A build ran longer than its timeout; it was killed."""


def fork_server_usable() -> bool:
    """Whether builds fork from a server here: ``os.fork`` exists, the platform
    is not macOS, and ``PLAYBOOK_TEST_NO_FORK`` is not set (read at each call)."""
    if os.environ.get(NO_FORK_VARIABLE, "").strip() not in ("", "0"):
        return False
    return hasattr(os, "fork") and sys.platform != "darwin"


def default_timeout() -> float:
    value = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    return float(value) if value else DEFAULT_TIMEOUT


def _tail(text: str) -> str:
    return text if len(text) <= _TAIL else "..." + text[-_TAIL:]


def _timeout_message(command: str, timeout: float, stdout: str, stderr: str) -> str:
    return (
        f"the build `{command}` did not finish within {timeout:g} s and was killed"
        f" (raise {TIMEOUT_VARIABLE} if it is only slow)\n"
        f"--- its stdout, last part ---\n{_tail(stdout)}\n"
        f"--- its stderr, last part ---\n{_tail(stderr)}"
    )


def _read_outputs(prefix: str) -> tuple[str, str]:
    captured = [Path(f"{prefix}.{name}") for name in ("out", "err")]
    out, err = (
        p.read_text(encoding="utf-8", errors="replace") if p.is_file() else "" for p in captured
    )
    return out, err


def _kill_tree(pid: int) -> None:
    """Kill ``pid`` and the processes it started (its own process group on POSIX,
    its process tree on Windows)."""
    if os.name == "nt":
        subprocess.run(
            ["taskkill", "/F", "/T", "/PID", str(pid)],
            capture_output=True,
            check=False,
        )
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def _quoted(arguments: Iterable[str]) -> str:
    return " ".join(arguments)


# -- the plain subprocess (Windows, macOS, PLAYBOOK_TEST_NO_FORK=1, new_interpreter) --


def run_subprocess(
    arguments: Sequence[str],
    cwd: Path | str | None = None,
    *,
    environment: Mapping[str, str] | None = None,
    python_options: Sequence[str] = (),
    timeout: float | None = None,
) -> Result:
    """``python [python_options] -m sphinx ARGUMENTS`` in a new Python, its output
    in files (no pipe a surviving grandchild could hold open)."""
    timeout = default_timeout() if timeout is None else timeout
    # -P: the working folder is not put on sys.path (sphinx-build does not do it).
    command = [sys.executable, "-P", *python_options, "-m", "sphinx", *map(str, arguments)]
    env = dict(os.environ if environment is None else environment)
    env.setdefault("PYTHONIOENCODING", "utf-8")  # Windows consoles' code page otherwise
    with tempfile.TemporaryDirectory(prefix="sphinx-process-") as folder:
        prefix = os.path.join(folder, "output")
        with open(f"{prefix}.out", "wb") as out, open(f"{prefix}.err", "wb") as err:
            options: dict[str, Any] = {}
            if os.name == "nt":
                options["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
            else:
                options["start_new_session"] = True  # its own process group, killed whole
            process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                **options,
            )
            try:
                returncode = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_tree(process.pid)
                process.wait()
                stdout, stderr = _read_outputs(prefix)
                raise BuildTimeout(
                    _timeout_message(_quoted(command), timeout, stdout, stderr)
                ) from None
        stdout, stderr = _read_outputs(prefix)
        return Result(returncode, stdout, stderr)


# -- the fork server ------------------------------------------------------------------


class ForkServer:
    """A Python that has imported ``preload`` and forks a child per build.

    Requests go to its stdin, one JSON line each; answers come back on a pipe of
    their own (its stdout is not read): first ``{"pid": ...}`` when the child is
    forked, then ``{"returncode": ...}`` when it has ended.
    """

    def __init__(self, preload: Sequence[str] = PRELOAD, *, seed: int | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**32)
        reading, writing = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, __file__, str(writing), *preload],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                text=True,
                env={**os.environ, "PYTHONHASHSEED": str(seed)},
                pass_fds=(writing,),
            )
        except BaseException:
            os.close(reading)
            raise
        finally:
            os.close(writing)
        self._answers = reading
        self._buffer = b""
        atexit.register(self.close)

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        """Close its input (it ends) and wait for it; kill it if it does not end."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self._answers >= 0:
            os.close(self._answers)
            self._answers = -1

    def _answer(self, deadline: float) -> dict[str, Any] | None:
        """The next answer line; None if the deadline passes or the server dies."""
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._answers], [], [], left)
            if not ready:
                return None
            chunk = os.read(self._answers, 4096)
            if not chunk:  # the server is gone
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        answer: dict[str, Any] = json.loads(line)
        return answer

    def run(
        self,
        arguments: Sequence[str],
        cwd: Path | str | None = None,
        *,
        environment: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> Result:
        """One build, forked; on timeout the child's process group and this server
        are killed (the next build starts a new server) and :class:`BuildTimeout`
        is raised."""
        timeout = default_timeout() if timeout is None else timeout
        deadline = time.monotonic() + timeout
        command = _quoted(["sphinx-build", *map(str, arguments)])
        with tempfile.TemporaryDirectory(prefix="sphinx-process-") as folder:
            prefix = os.path.join(folder, "output")
            request = {
                "arguments": [str(a) for a in arguments],
                "cwd": str(cwd or os.getcwd()),
                "environment": dict(os.environ if environment is None else environment),
                "out": prefix,
            }
            assert self.process.stdin is not None
            try:
                self.process.stdin.write(json.dumps(request) + "\n")
                self.process.stdin.flush()
            except BrokenPipeError:
                raise RuntimeError("the fork server has died (see its stderr)") from None
            started = self._answer(deadline)
            finished = self._answer(deadline) if started is not None else None
            if finished is None:
                if started is not None:
                    _kill_tree(int(started["pid"]))
                alive = self.alive()
                self.process.kill()
                self.close()
                stdout, stderr = _read_outputs(prefix)
                if alive:
                    raise BuildTimeout(_timeout_message(command, timeout, stdout, stderr))
                raise RuntimeError(f"the fork server died during `{command}`:\n{_tail(stderr)}")
            stdout, stderr = _read_outputs(prefix)
            return Result(int(finished["returncode"]), stdout, stderr)


_SERVERS: dict[int, ForkServer] = {}


def _server(interpreter: int) -> ForkServer:
    server = _SERVERS.get(interpreter)
    if server is None or not server.alive():
        server = _SERVERS[interpreter] = ForkServer()
    return server


def run_sphinx(
    arguments: Sequence[str],
    cwd: Path | str | None = None,
    *,
    interpreter: int = 0,
    new_interpreter: bool = False,
    python_options: Sequence[str] = (),
    timeout: float | None = None,
    environment: Mapping[str, str] | None = None,
) -> Result:
    """``python -m sphinx ARGUMENTS`` in a new process: forked (its imports done)
    from server number ``interpreter``; a new Python with ``new_interpreter`` or
    ``python_options``, and wherever the fork server is not used
    (:func:`fork_server_usable`). ``environment`` replaces ``os.environ`` for the
    build; ``timeout`` in seconds (see :func:`default_timeout`)."""
    if new_interpreter or python_options or not fork_server_usable():
        return run_subprocess(
            arguments,
            cwd,
            environment=environment,
            python_options=python_options,
            timeout=timeout,
        )
    return _server(interpreter).run(arguments, cwd, environment=environment, timeout=timeout)


# -- in the server --------------------------------------------------------------------


def _build(request: dict[str, Any], answers: int) -> None:
    """In the forked child: its own process group (killed whole on timeout), the
    caller's folder and environment, then Sphinx's own command line, its output
    into files; it exits with Sphinx's status."""
    os.setsid()
    os.close(answers)
    stdout = open(f"{request['out']}.out", "w", encoding="utf-8")  # noqa: SIM115 (open until exit)
    stderr = open(f"{request['out']}.err", "w", encoding="utf-8")  # noqa: SIM115
    os.dup2(stdout.fileno(), 1)
    os.dup2(stderr.fileno(), 2)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["environment"])
    from sphinx.cmd.build import main

    raise SystemExit(main(request["arguments"]))  # atexit handlers run as usual


def serve(answers: int, preload: Sequence[str]) -> None:
    """Import once, then fork a build for each request line, answering on the
    file descriptor ``answers``."""
    for module in preload:
        importlib.import_module(module)

    def answer(message: dict[str, Any]) -> None:
        os.write(answers, (json.dumps(message) + "\n").encode())

    for line in sys.stdin:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _build(json.loads(line), answers)  # raises SystemExit: never returns
        answer({"pid": pid})
        _, status = os.waitpid(pid, 0)
        answer({"returncode": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2:])
