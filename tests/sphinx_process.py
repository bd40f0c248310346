"""``sphinx-build`` in a process of its own, without paying for its imports each time.

A test that builds in its own process wants what an author's ``sphinx-build`` run
has: nothing left in memory by an earlier build. Starting Python and importing
Sphinx, MyST, sphinx-design, pydata-sphinx-theme and this package costs about
0.7 s of CPU before a file is read, and the suite builds a few hundred times. So
each test process starts one server (this file, run as a script) that imports
those modules and does nothing else; for each build it forks, and the child runs
Sphinx's command line and exits. Every build thus starts from freshly imported
modules, in a process that ends with it, as ``python -m sphinx`` would.

The children share their server's hash seed (Python picks it when it starts), so
an output that follows the order of a set of strings would look the same in every
build. There is a server per ``interpreter`` number, each with its own random seed:
tests that compare builds use two or more of them, or ``new_interpreter=True`` for a
Python of its own. Builds that need other interpreter flags (``python -W error
...``) run their own ``python -m sphinx`` too.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

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


@dataclass
class Result:
    """What ``subprocess.run(..., capture_output=True, text=True)`` would give."""

    returncode: int
    stdout: str
    stderr: str


_SERVERS: dict[int, subprocess.Popen[str]] = {}


def _server(interpreter: int) -> subprocess.Popen[str]:
    server = _SERVERS.get(interpreter)
    if server is None or server.poll() is not None:
        seed = str(random.SystemRandom().randrange(1, 2**32))
        server = subprocess.Popen(
            [sys.executable, __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        _SERVERS[interpreter] = server
        atexit.register(server.communicate)  # its input closed: it ends
    return server


def run_sphinx(
    arguments: list[str],
    cwd: Path | str | None = None,
    *,
    interpreter: int = 0,
    new_interpreter: bool = False,
) -> Result:
    """``python -m sphinx ARGUMENTS`` in a new process, forked (its imports done) from
    server number ``interpreter``; with ``new_interpreter``, a new Python."""
    if new_interpreter:
        done = subprocess.run(
            [sys.executable, "-m", "sphinx", *map(str, arguments)],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
        )
        return Result(done.returncode, done.stdout, done.stderr)
    with tempfile.TemporaryDirectory(prefix="sphinx-process-") as folder:
        out = os.path.join(folder, "output")
        request = {
            "arguments": [str(a) for a in arguments],
            "cwd": str(cwd or os.getcwd()),
            "environment": dict(os.environ),
            "out": out,
        }
        server = _server(interpreter)
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(request) + "\n")
        server.stdin.flush()
        returncode = json.loads(server.stdout.readline() or "-1")
        captured = [Path(f"{out}.{name}") for name in ("out", "err")]
        stdout, stderr = (
            p.read_text(encoding="utf-8", errors="replace") if p.is_file() else "" for p in captured
        )
        return Result(returncode, stdout, stderr)


def _build(request: dict) -> None:
    """In the forked child: the caller's folder and environment, then Sphinx's own
    command line, its output into files; it exits with Sphinx's status."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["environment"])
    stdout = open(f"{request['out']}.out", "w")  # noqa: SIM115 (open until exit)
    stderr = open(f"{request['out']}.err", "w")  # noqa: SIM115
    os.dup2(stdout.fileno(), 1)
    os.dup2(stderr.fileno(), 2)
    from sphinx.cmd.build import main

    raise SystemExit(main(request["arguments"]))  # atexit handlers run as usual


def serve() -> None:
    """Import once, then fork a build for each request line, answering its status."""
    for module in PRELOAD:
        importlib.import_module(module)
    answers = os.fdopen(os.dup(1), "w")
    for line in sys.stdin:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            _build(json.loads(line))
        _, status = os.waitpid(pid, 0)
        answers.write(f"{os.waitstatus_to_exitcode(status)}\n")
        answers.flush()


if __name__ == "__main__":
    serve()
