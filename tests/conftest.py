"""Shared fixtures: Sphinx's own test fixtures, pointed at tests/roots/."""

from __future__ import annotations

import itertools
import re
import struct
import zlib
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sphinx_process import run_sphinx

pytest_plugins = ("sphinx.testing.fixtures",)

ROOTS = Path(__file__).parent / "roots"
REPO = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot="x")`` finds ``test-x``."""
    return ROOTS


def read_html(app, docname: str = "index") -> BeautifulSoup:
    """Parse one written page of an HTML build."""
    path = Path(app.outdir, f"{docname}.html")
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


_ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def playbook_warnings(app) -> list[str]:
    """The build's warning lines that carry the ``playbook`` type, without colours."""
    text = _ANSI_ESCAPE.sub("", app.warning.getvalue())
    return [line for line in text.splitlines() if "[playbook." in line]


#: Which fork server builds next: one after the other, so that two builds a test
#: compares (a rebuild and a fresh build) never share a hash seed.
_INTERPRETERS = itertools.cycle(range(3))


def sphinx_build(*arguments: str) -> None:
    """``sphinx-build ARGUMENTS`` in a process of its own, as authors and CI run it
    (forked with its imports done: tests/sphinx_process.py); a failed build fails
    the test with Sphinx's own messages."""
    result = run_sphinx(list(arguments), interpreter=next(_INTERPRETERS))
    assert result.returncode == 0, result.stderr


def png(width: int, height: int) -> bytes:
    """A white PNG of that size, for figures and images in generated projects."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        checksum = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + checksum

    rows = b"".join(b"\0" + b"\xff\xff\xff" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks
