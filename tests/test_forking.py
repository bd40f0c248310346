"""Work handed to a forked child gives what it would give here, whatever happens to it."""

from __future__ import annotations

import os
import signal

import pytest

import sphinx_playbook.forking as forking_module
from sphinx_playbook.forking import InChild

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX fork (Windows has none)")


@pytest.fixture(autouse=True)
def _fork_even_on_one_core(monkeypatch):
    """Two cores decide whether forking pays, not whether it works: test it anywhere."""
    monkeypatch.setattr(forking_module, "can_fork", lambda: True)


def test_the_result_comes_back_from_the_child():
    job = InChild(lambda: (os.getpid(), {"nested": [1, 2.5, "three"]}))
    child_pid, value = job.result()
    assert child_pid != os.getpid(), "computed in another process"
    assert value == {"nested": [1, 2.5, "three"]}
    assert job.result() is job.result(), "collected once"


def test_a_child_that_dies_is_replaced_by_the_work_done_here():
    job = InChild(lambda: (os.getpid(), "done"))
    os.kill(job._pid, signal.SIGKILL)
    assert job.result() == (os.getpid(), "done")


def test_an_error_in_the_child_is_raised_here_as_it_would_be_without_one():
    def failing() -> None:
        raise ValueError("bad entry")

    with pytest.raises(ValueError, match="bad entry"):
        InChild(failing).result()


def test_a_process_forked_later_computes_the_result_itself():
    """A -j worker inherits the job but must not read the pipe its parent owns."""
    job = InChild(lambda: "value")
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.close(reader)
            os.write(writer, b"ok" if job.result() == "value" and job._pid is not None else b"no")
            status = 0
        finally:
            os._exit(status)
    os.close(writer)
    answer = os.read(reader, 2)
    os.close(reader)
    os.waitpid(pid, 0)
    assert answer == b"ok"
    assert job.result() == "value", "the owner still collects its child's result"


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity (Linux)")
def test_a_process_pinned_to_one_core_does_the_work_itself(monkeypatch):
    """Two cores on the machine, one allowed to the build (taskset, a CI cpuset):
    a child would only take turns with it."""
    monkeypatch.undo()  # the real can_fork, not the fixture's
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert not forking_module.can_fork()
    assert InChild(os.getpid).result() == os.getpid(), "computed here"
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert forking_module.can_fork()
