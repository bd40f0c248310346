"""The test house's process builds (tests/sphinx_process.py) on every system.

Both paths are run here whatever the system: the fork server, where it is used
(Linux), and the plain subprocess that Windows and macOS use, forced on Linux with
``PLAYBOOK_TEST_NO_FORK=1``. A build that hangs is killed with what it started.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
import sphinx_process
from helpers import CONF, write_project
from sphinx_process import BuildTimeout, ForkServer, fork_server_usable, run_sphinx

MODES = ["fork-server", "subprocess"]


@pytest.fixture(params=MODES)
def mode(request, monkeypatch) -> str:
    """Each test once through each path (the fork server only where it is used)."""
    if request.param == "fork-server":
        if not fork_server_usable():
            pytest.skip("this system builds in a plain subprocess (no safe fork)")
        monkeypatch.delenv(sphinx_process.NO_FORK_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(sphinx_process.NO_FORK_VARIABLE, "1")
    return request.param


def _project(folder: Path, conf_extra: str = "", page: str = "# Title\n\nText.\n") -> Path:
    return write_project(folder, {"index.md": page}, conf=CONF + conf_extra)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, waiting to be reaped, does not)."""
    stat = Path(f"/proc/{pid}/stat")
    if stat.parent.parent.is_dir() and Path("/proc/self").exists():
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except (FileNotFoundError, ProcessLookupError):
            return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError, OSError):
        return False
    return True


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return not _alive(pid)


def test_a_build_gives_its_status_and_its_own_output(tmp_path, mode):
    source = _project(tmp_path / "src", 'print("said by conf.py")\n')
    result = run_sphinx(["-b", "html", str(source), str(tmp_path / "out")])
    assert result.returncode == 0, result.stderr
    assert "said by conf.py" in result.stdout.splitlines()
    assert (tmp_path / "out" / "index.html").is_file()


def test_a_failed_build_gives_its_status_and_messages(tmp_path, mode):
    source = _project(tmp_path / "src", 'raise RuntimeError("conf.py breaks")\n')
    result = run_sphinx(["-q", "-b", "html", str(source), str(tmp_path / "out")])
    assert result.returncode == 2
    assert "conf.py breaks" in result.stderr


def test_the_fallback_is_a_python_of_its_own_started_here(tmp_path, mode):
    """Forced by PLAYBOOK_TEST_NO_FORK=1, the build is this process's child; from
    the fork server, a child of the server."""
    source = _project(
        tmp_path / "src",
        "import os, pathlib\n"
        "pathlib.Path(__file__).with_name('parent').write_text(str(os.getppid()))\n",
    )
    result = run_sphinx(["-q", "-b", "html", str(source), str(tmp_path / "out")])
    assert result.returncode == 0, result.stderr
    parent = int((source / "parent").read_text())
    assert (parent == os.getpid()) == (mode == "subprocess")


def test_a_hung_build_is_killed_with_what_it_started(tmp_path, mode):
    """conf.py starts a process and then sleeps: after the timeout both are gone and
    the test gets a message naming the build and what it printed."""
    source = _project(
        tmp_path / "src",
        "import os, pathlib, subprocess, sys, time\n"
        "here = pathlib.Path(__file__).parent\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
        "(here / 'pids').write_text(f'{os.getpid()} {child.pid}')\n"
        "print('about to hang', flush=True)\n"
        "time.sleep(120)\n",
    )
    started = time.monotonic()
    with pytest.raises(BuildTimeout) as raised:
        run_sphinx(["-b", "html", str(source), str(tmp_path / "out")], timeout=8)
    assert time.monotonic() - started < 60
    message = str(raised.value)
    assert "did not finish within 8 s and was killed" in message
    assert str(source) in message
    assert "about to hang" in message
    build, grandchild = map(int, (source / "pids").read_text().split())
    assert _gone_within(build, 10), "the build still runs"
    assert _gone_within(grandchild, 10), "the process the build started still runs"
    # The next build works (a new server, if the old one was killed with its child).
    after = run_sphinx(["-q", "-b", "html", str(_project(tmp_path / "next")), str(tmp_path / "o2")])
    assert after.returncode == 0, after.stderr


NOISY = """import sys
sys.stdout.write('{"returncode": 7}\\n{"pid": 1}\\n0\\n')
sys.stdout.flush()
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the fork server needs os.fork")
def test_what_the_server_prints_is_never_read_as_an_answer(tmp_path, monkeypatch):
    """A module the server imports prints lines that look like answers: the
    builds' statuses are still their own."""
    (tmp_path / "modules").mkdir()
    (tmp_path / "modules" / "noisy_module.py").write_text(NOISY, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "modules"))
    server = ForkServer((*sphinx_process.PRELOAD, "noisy_module"))
    try:
        good = _project(tmp_path / "good")
        bad = _project(tmp_path / "bad", "raise RuntimeError('no')\n")
        assert server.run(["-q", "-b", "html", str(good), str(tmp_path / "o1")]).returncode == 0
        assert server.run(["-q", "-b", "html", str(bad), str(tmp_path / "o2")]).returncode == 2
        assert server.run(["-q", "-b", "html", str(good), str(tmp_path / "o3")]).returncode == 0
    finally:
        server.close()


def test_no_fork_variable_turns_the_server_off(monkeypatch):
    monkeypatch.setenv(sphinx_process.NO_FORK_VARIABLE, "1")
    assert not fork_server_usable()
    monkeypatch.setenv(sphinx_process.NO_FORK_VARIABLE, "0")
    assert fork_server_usable() == (hasattr(os, "fork") and sys.platform != "darwin")
