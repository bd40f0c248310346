"""``sphinx-playbook preview`` without a browser (issue 41): what it runs, and the
one-line errors. The served book, live reload and the banner are in
tests/browser/test_preview.py.
"""

from __future__ import annotations

import importlib.metadata
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import CONF, write_project

from sphinx_playbook.cli import main
from sphinx_playbook.cli.preview import build_failed, plan_preview


def _option(command: list[str], name: str) -> list[str]:
    """Every value given to ``name`` in ``command``."""
    return [command[i + 1] for i, word in enumerate(command[:-1]) if word == name]


def _book(tmp_path: Path, conf: str = CONF) -> Path:
    return write_project(tmp_path / "book", {"index.md": "# Book\n\nText.\n"}, conf=conf)


def test_it_runs_sphinx_autobuild_incrementally_into_its_own_folder(tmp_path: Path) -> None:
    book = _book(tmp_path, CONF + 'html_baseurl = "https://someone.github.io/my-book/"\n')
    preview = plan_preview(book, jobs="2", port=8123)
    command = preview.autobuild_command()
    assert command[:3] == [sys.executable, "-m", "sphinx_autobuild"]
    # Incremental: never a fresh environment nor all files rewritten.
    assert not {"-E", "-a", "--fresh-env", "--write-all"} & set(command)
    assert _option(command, "-b") == ["html"]
    assert _option(command, "-j") == ["2"]
    # Into the book's own preview folder, which it does not watch; never the real build.
    preview_folder = book.resolve() / "_build" / "preview"
    assert command[command.index(str(book.resolve())) + 1] == str(preview_folder / "html")
    assert _option(command, "--ignore") == [str(preview_folder)]
    assert Path(_option(command, "-w")[0]).parent == preview_folder
    # The first build is ours (to know how it ended), with the same Sphinx arguments.
    assert "--no-initial" in command
    first = preview.build_command()
    assert first[:4] == [sys.executable, "-m", "sphinx", "build"]
    assert first[4:] == command[3 : 3 + len(first) - 4]
    # sphinx-autobuild listens on a port of its own; the preview's address is the
    # sub-path of html_baseurl on the asked-for port.
    assert _option(command, "--host") == ["127.0.0.1"]
    assert _option(command, "--port") != ["8123"]
    assert preview.url == "http://127.0.0.1:8123/my-book/"
    # The hooks record each build's state.
    assert len(_option(command, "--pre-build")) == len(_option(command, "--post-build")) == 1
    assert "-D" not in command


def test_a_book_without_a_sub_path_is_served_at_the_root(tmp_path: Path) -> None:
    assert plan_preview(_book(tmp_path), port=8123).url == "http://127.0.0.1:8123/"


def test_the_content_security_policy_is_off_in_the_preview_only(tmp_path: Path) -> None:
    """The policy would refuse sphinx-autobuild's inline reload script."""
    command = plan_preview(_book(tmp_path, CONF + "playbook_csp = True\n")).autobuild_command()
    assert _option(command, "-D") == ["playbook_csp=0"]


def test_a_build_that_ended_without_the_post_build_hook_failed(tmp_path: Path) -> None:
    preview = plan_preview(_book(tmp_path))
    preview.folder.mkdir(parents=True)
    command = preview.autobuild_command()
    pre, post = _option(command, "--pre-build")[0], _option(command, "--post-build")[0]
    # The hook's parent is the process that runs the build: while it lives, the
    # build is running (and a page waits for it); once it has ended, it failed.
    subprocess.run(shlex.split(pre), check=True)
    assert build_failed(preview, wait=0) is False
    runner = "import shlex, subprocess, sys; subprocess.run(shlex.split(sys.argv[1]), check=True)"
    subprocess.run([sys.executable, "-c", runner, pre], check=True)  # a runner that ends
    assert build_failed(preview, wait=0) is True
    subprocess.run(shlex.split(post), check=True)
    assert build_failed(preview, wait=0) is False


def test_a_folder_without_conf_py_is_one_line_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["preview", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("sphinx-playbook: error: ") and "conf.py" in error


def test_without_sphinx_autobuild_it_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sphinx_autobuild", None)  # as if not installed
    assert main(["preview", str(_book(tmp_path))]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert 'pip install "sphinx-playbook[preview]"' in error


def test_a_wrong_number_of_processes_is_one_line_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["preview", str(_book(tmp_path)), "-j", "many"]) == 2
    assert "-j many" in capsys.readouterr().err


def test_without_book_it_previews_the_book_folder_of_a_new_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sphinx-playbook new`` puts conf.py in book/; the preview runs from the root."""
    book = _book(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert plan_preview(None).book == book.resolve()
    monkeypatch.chdir(book)
    assert plan_preview(None).book == book.resolve()


def test_an_older_sphinx_autobuild_is_one_line_saying_which_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """2024.10 (the oldest the extra allowed) has no --post-build."""
    version = importlib.metadata.version
    monkeypatch.setattr(
        importlib.metadata,
        "version",
        lambda name: "2024.10.3" if name == "sphinx-autobuild" else version(name),
    )
    assert main(["preview", str(_book(tmp_path))]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "2024.10.3 is installed" in error and '"sphinx-autobuild>=2025.8.25"' in error
