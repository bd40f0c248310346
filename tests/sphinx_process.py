"""``sphinx-build`` in a process of its own, without paying for its imports each time.

A test that builds in its own process wants what an author's ``sphinx-build`` run
has: nothing left in memory by an earlier build. Starting Python and importing
Sphinx, MyST, sphinx-design, pydata-sphinx-theme and this package costs about
0.7 s of CPU before a file is read, and the suite builds a few hundred times. So
each test process starts one server (this file, run as a script) that imports
those modules and does nothing else; for each build it forks, and the child runs
Sphinx's command line and exits. Every build thus starts from freshly imported
modules, in a process that ends with it, as ``python -m sphinx`` would.

Builds that need other interpreter flags (``python -W error ...``) still run a
real ``python -m sphinx``.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
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


_SERVER: list[subprocess.Popen[str]] = []


def _server() -> subprocess.Popen[str]:
    if not _SERVER or _SERVER[0].poll() is not None:
        _SERVER[:] = [
            subprocess.Popen(
                [sys.executable, __file__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        ]
        atexit.register(_SERVER[0].communicate)  # its input closed: it ends
    return _SERVER[0]


def run_sphinx(arguments: list[str], cwd: Path | str | None = None) -> Result:
    """``python -m sphinx ARGUMENTS`` in a new process (forked, its imports done)."""
    with tempfile.TemporaryDirectory(prefix="sphinx-process-") as folder:
        out = os.path.join(folder, "output")
        request = {
            "arguments": [str(a) for a in arguments],
            "cwd": str(cwd or os.getcwd()),
            "environment": dict(os.environ),
            "out": out,
        }
        server = _server()
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
