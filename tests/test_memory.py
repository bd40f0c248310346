"""``playbook_gc_freeze``: Python's ``gc.freeze()`` only when the author asks for it.

Each build runs in a Python of its own: a frozen object is never freed, so the
test process must not freeze its own.
"""

from __future__ import annotations

import subprocess
import sys

from helpers import CONF, write_project

#: Builds the project given as argv[1] into argv[2] and prints how many objects
#: the build froze (``gc.get_freeze_count()`` after it, less before it).
#: Guarded, as spawned worker processes import the main script again.
BUILD_AND_COUNT = """import gc, sys
from sphinx.cmd.build import build_main

if __name__ == "__main__":
    before = gc.get_freeze_count()  # not 0 on every Python (3.12 starts with some)
    status = build_main(["-q", "-b", "html", sys.argv[1], sys.argv[2]])
    print(status, gc.get_freeze_count() - before)
"""


def frozen_after_build(tmp_path, conf: str) -> int:
    source = write_project(tmp_path / "src", {"index.md": "# Memory\n\nA page.\n"}, conf=conf)
    script = tmp_path / "count.py"
    script.write_text(BUILD_AND_COUNT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), str(source), str(tmp_path / "out")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    status, count = done.stdout.split()
    assert status == "0", done.stderr
    return int(count)


def test_nothing_is_frozen_by_default(tmp_path):
    assert frozen_after_build(tmp_path, CONF) == 0


def test_the_author_can_freeze_what_lives_as_long_as_the_build(tmp_path):
    assert frozen_after_build(tmp_path, CONF + "playbook_gc_freeze = True\n") > 10_000
