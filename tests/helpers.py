"""How the tests make, build and read a project: one module, used by every test.

- :func:`write_project` writes conf.py and pages (MyST or reST) and any other file
  into a folder; :func:`copy_root` copies one of ``tests/roots/test-*``.
- :func:`build_in_process` builds with Sphinx's public test application
  (``sphinx.testing.util.SphinxTestApp``) in this process, and releases it;
  Sphinx's ``app``/``make_app`` fixtures (``conftest.py``) are the same application
  kept for the test.
- :func:`sphinx_build` runs ``sphinx-build ARGUMENTS`` in a process of its own
  (``tests/sphinx_process.py``: forked from a server that has imported Sphinx, or
  a plain subprocess where forking is not safe), with a timeout; a failed build
  fails the test with Sphinx's own messages. :func:`build` is its common form.
- :func:`read_page` parses a written page as BeautifulSoup, from an application
  or an output folder, for the html and dirhtml layouts.
- :func:`playbook_warnings` lists a build's warnings of type ``playbook``.
"""

from __future__ import annotations

import itertools
import re
import shutil
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from sphinx_process import Result, run_sphinx

ROOTS = Path(__file__).parent / "roots"
REPO = Path(__file__).parent.parent

#: The smallest conf.py of a playbook: the extension and the theme.
CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'

#: For a ``-j`` build in the test process: Python 3.12+ warns at each of Sphinx's
#: forks that *the test process* has a thread. quickjs starts one when it is
#: imported, and earlier tests render formulas here. A real ``sphinx-build -j``
#: forks no thread of ours: test_math.py's test_a_parallel_build_gives_no_fork_warning
#: runs one in a process of its own with the warning on.
FORKS_IN_THE_TEST_PROCESS = pytest.mark.filterwarnings(
    r"ignore:This process \(pid=\d+\) is multi-threaded:DeprecationWarning"
)


# -- writing a project ----------------------------------------------------------------


def write_project(
    folder: Path, files: Mapping[str, str | bytes], *, conf: str | None = None
) -> Path:
    """Write ``files`` (relative name: text or bytes) under ``folder``, creating
    folders as needed; ``conf``, if given, is conf.py. Returns ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    everything: dict[str, str | bytes] = {} if conf is None else {"conf.py": conf}
    everything.update(files)
    for name, content in everything.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def copy_root(name: str, to: Path) -> Path:
    """A copy of ``tests/roots/test-NAME`` at ``to`` (to edit without touching it)."""
    shutil.copytree(ROOTS / f"test-{name}", to)
    return to


def png(width: int, height: int) -> bytes:
    """A white PNG of that size, for figures and images in generated projects."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        checksum = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + checksum

    rows = b"".join(b"\0" + b"\xff\xff\xff" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


# -- building -------------------------------------------------------------------------


@dataclass
class Built:
    """What an in-process build leaves for the test once its application is gone."""

    srcdir: Path
    outdir: Path
    statuscode: int
    status: str
    warnings: str
    #: The application, released (its config and environment can still be read).
    app: Any = None


def build_in_process(
    srcdir: Path,
    builder: str = "html",
    builddir: Path | None = None,
    **confoverrides: Any,
) -> Built:
    """Build ``srcdir`` with Sphinx's test application in this process (output in
    ``builddir/<builder>``, else ``srcdir/_build/<builder>``), then release the
    application (its node and directive registrations)."""
    from sphinx.testing.util import SphinxTestApp

    app = SphinxTestApp(
        builder,
        srcdir=srcdir,
        builddir=builddir,
        status=StringIO(),
        warning=StringIO(),
        confoverrides=confoverrides,
    )
    try:
        app.build()
        return Built(
            srcdir=Path(app.srcdir),
            outdir=Path(app.outdir),
            statuscode=app.statuscode,
            status=app.status.getvalue(),
            warnings=app.warning.getvalue(),
            app=app,
        )
    finally:
        app.cleanup()


#: Which fork server builds next: one after the other, so that two builds a test
#: compares (a rebuild and a fresh build) never share a hash seed.
_INTERPRETERS = itertools.cycle(range(3))


def sphinx_build(*arguments: str, cwd: Path | str | None = None, **options: Any) -> Result:
    """``sphinx-build ARGUMENTS`` in a process of its own, as authors and CI run it
    (tests/sphinx_process.py; ``options`` go to its ``run_sphinx``: ``timeout``,
    ``python_options``, ``new_interpreter``, ``environment``); a failed build fails
    the test with Sphinx's own messages."""
    options.setdefault("interpreter", next(_INTERPRETERS))
    result = run_sphinx([str(a) for a in arguments], cwd, **options)
    assert result.returncode == 0, result.stderr
    return result


def build(srcdir: Path, outdir: Path, builder: str = "html", *options: str) -> Path:
    """``sphinx-build -q -b BUILDER OPTIONS SRCDIR OUTDIR`` in a process of its own;
    returns ``outdir``."""
    sphinx_build("-q", "-b", builder, *options, str(srcdir), str(outdir))
    return outdir


# -- reading what was built -----------------------------------------------------------


def page_path(outdir: Path, docname: str = "index", builder: str = "html") -> Path:
    """Where ``builder`` writes page ``docname`` (dirhtml: ``name/index.html``)."""
    if builder == "dirhtml" and docname != "index" and not docname.endswith("/index"):
        return outdir / docname / "index.html"
    return outdir / f"{docname}.html"


def soup(path: Path) -> BeautifulSoup:
    """A written HTML file, parsed."""
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def read_page(where: Any, docname: str = "index", builder: str | None = None) -> BeautifulSoup:
    """Page ``docname`` of a build: ``where`` is an application (Sphinx's fixtures),
    a :class:`Built`, or an output folder."""
    if isinstance(where, Path | str):
        outdir, name = Path(where), builder or "html"
    else:
        outdir = Path(where.outdir)
        name = builder or getattr(getattr(where, "builder", None), "name", "html")
    return soup(page_path(outdir, docname, name))


def read_html(app: Any, docname: str = "index") -> BeautifulSoup:
    """Parse one written page of an HTML build (:func:`read_page`)."""
    return read_page(app, docname)


_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def warning_text(where: Any) -> str:
    """A build's warnings without colours: from an application, a :class:`Built`,
    a :class:`sphinx_process.Result` (its stderr) or a string."""
    if isinstance(where, str):
        text = where
    elif isinstance(where, Built):
        text = where.warnings
    elif isinstance(where, Result):
        text = where.stderr
    else:
        text = where.warning.getvalue()
    return _ANSI_ESCAPE.sub("", text)


def playbook_warnings(where: Any) -> list[str]:
    """The build's warning lines that carry the ``playbook`` type, without colours."""
    return [line for line in warning_text(where).splitlines() if "[playbook." in line]


def build_app(
    make_app: Any,
    srcdir: Path,
    builder: str = "html",
    *,
    connect: Mapping[str, Any] | None = None,
    **options: Any,
) -> Any:
    """Build with Sphinx's ``make_app`` fixture (the application stays for the test
    to read ``app.env``, ``app.warning``; the fixture releases it) and return it.
    ``connect`` maps events to handlers connected before the build; ``options`` go
    to ``make_app``: ``builddir``, ``confoverrides``, ``parallel``..."""
    app = make_app(builder, srcdir=srcdir, **options)
    for event, handler in (connect or {}).items():
        app.connect(event, handler)
    app.build()
    return app
