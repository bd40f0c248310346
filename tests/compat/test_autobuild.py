"""sphinx-autobuild serves a playbook and rebuilds it when a page is saved."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from bs4 import BeautifulSoup

from .test_extensions import BOOK

#: Seconds to wait for the first build, then for the rebuild after an edit.
PATIENCE = 90


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def served_title(url: str) -> str | None:
    """The first paragraph of the served page, or None while nothing is served."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            html = response.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None
    paragraph = BeautifulSoup(html, "html.parser").select_one('[role="main"] p')
    return paragraph.get_text() if paragraph else None


def wait_for(url: str, text: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        assert process.poll() is None, "sphinx-autobuild stopped"
        shown = served_title(url)
        if shown is not None and text in shown:
            return
        time.sleep(0.5)
    raise AssertionError(f"{url} did not show {text!r} within {PATIENCE} s (shown: {shown!r})")


def test_an_edit_is_served_after_the_rebuild(tmp_path: Path):
    source = tmp_path / "source"
    shutil.copytree(BOOK, source)
    (source / "conf.py").write_text(
        'project = "Preview"\nextensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n',
        encoding="utf-8",
    )
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sphinx_autobuild",
            str(source),
            str(tmp_path / "html"),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/index.html"
    try:
        wait_for(url, "Text with a footnote", process)
        page = source / "index.md"
        page.write_text(
            page.read_text(encoding="utf-8").replace("Text with a footnote", "Edited text"),
            encoding="utf-8",
        )
        wait_for(url, "Edited text", process)
    finally:
        process.terminate()
        process.wait(timeout=30)
