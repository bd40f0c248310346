"""Randomized differential test: an incremental build gives a fresh build's bytes.

A generated book (tests/differential/book.py) is built, then edited at random for
``PLAYBOOK_DIFFERENTIAL_ROUNDS`` rounds of 1-3 edits; after each round the
incremental build of the working copy must equal, file for file and byte for
byte, a fresh build of a copy of the same sources (tests/differential/harness.py
says what is not compared and why). A failure names the seed, the edits, the
files that differ with a short diff, and the command that replays it. Longer
runs: ``python -m tests.differential --rounds 100 --seed 7`` (``--help``).
"""

from __future__ import annotations

import os
import random

import nbformat
import pytest
from differential import book as books
from differential.harness import Session, compare, compare_jobs, write_sources
from helpers import write_project

#: Rounds per seed after the first build: about 3 s each on an idle 2-core machine,
#: so the file takes about 2 minutes (4 sessions of 9 build pairs, and -j 2).
ROUNDS = int(os.environ.get("PLAYBOOK_DIFFERENTIAL_ROUNDS", "8"))
#: Each builder gets its own books.
SEEDS = {"html": (1, 2), "dirhtml": (3, 4)}
if os.environ.get("PLAYBOOK_DIFFERENTIAL_SEEDS"):
    _seeds = tuple(int(s) for s in os.environ["PLAYBOOK_DIFFERENTIAL_SEEDS"].split(","))
    SEEDS = {"html": _seeds, "dirhtml": _seeds}


def check_incremental_builds(tmp_path, builder: str, seed: int) -> None:
    """A fresh build, then ROUNDS rounds of edits, each rebuild compared with a fresh one.

    The dirhtml seeds run from tests/test_differential_dirhtml.py: pytest-xdist keeps a
    file on one worker, and the two builders' sessions then run side by side."""
    session = Session(tmp_path, seed, builder=builder)
    first = session.run_round(edit=False)
    if not first.equal:
        pytest.fail("two fresh builds of the same sources differ:\n" + first.report, False)
    for _ in range(ROUNDS):
        result = session.run_round()
        if not result.equal:
            pytest.fail(result.report, pytrace=False)


@pytest.mark.parametrize("seed", SEEDS["html"], ids=lambda value: f"html-{value}")
def test_incremental_build_equals_fresh_build(tmp_path, seed):
    check_incremental_builds(tmp_path, "html", seed)


def test_parallel_build_equals_serial_build(tmp_path):
    report, _edits = compare_jobs(tmp_path, seed=5, builder="html", jobs=2)
    if report:
        pytest.fail(report, pytrace=False)


# -- the harness itself (no builds) --------------------------------------------------------


def test_the_comparison_sees_one_changed_byte_and_nothing_else(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    files = {"index.html": b"<p>same</p>\n", "_static/x.css": b"a{}", ".buildinfo": b"config: 1"}
    write_project(first, files)
    write_project(second, files)
    assert compare(first, second) == ([], [])
    (second / ".buildinfo.bak").write_bytes(b"not output")
    (second / "_images/.doctrees").mkdir(parents=True)  # a hidden file in any folder is
    (second / "_images/.doctrees/x").write_bytes(b"output")  # output like any other
    (second / "_static/x.css").write_bytes(b"a{ }")
    (first / "gone.html").write_bytes(b"stale")
    differences, tolerated = compare(first, second)
    assert [(d.name, d.kind) for d in differences] == [
        ("_images/.doctrees/x", "only-fresh"),
        ("_static/x.css", "bytes"),
        ("gone.html", "only-incremental"),
    ]
    assert "-a{}" in differences[1].detail and "+a{ }" in differences[1].detail
    (second / "_images/.doctrees/x").unlink()
    differences, tolerated = compare(first, second, leftovers=frozenset({"gone.html"}))
    assert [d.name for d in differences] == ["_static/x.css"] and len(tolerated) == 1
    differences, _ = compare(first, second, leftovers=frozenset({"gone.html"}), strict=True)
    assert len(differences) == 2


def test_only_changed_sources_are_written(tmp_path):
    """An unchanged file keeps its mtime: that is what an incremental build looks at."""
    src = tmp_path / "src"
    assert write_sources({"a.md": b"a", "part/b.md": b"b"}, src) == ["a.md", "part/b.md"]
    before = (src / "a.md").stat().st_mtime_ns
    assert write_sources({"a.md": b"a", "c.md": b"c"}, src) == ["c.md", "-part/b.md"]
    assert (src / "a.md").stat().st_mtime_ns == before
    assert not (src / "part").exists()


def test_edits_follow_from_the_seed_alone_in_both_flavours():
    """The same seed gives the same book and edits, with and without our extension."""
    for seed in range(3):
        logs = []
        for ours in (True, True, False):
            rng = random.Random(seed)
            book, done = books.random_edits(books.generate(rng, ours=ours), rng, 40)
            logs.append((done, sorted(book.pages), book.counter))
        assert logs[0] == logs[1] == logs[2]


def test_every_edit_kind_applies_and_changes_the_sources():
    applied = set()
    for seed in range(6):
        book = books.generate(random.Random(seed))
        # a page outside every toctree, for toctree_entry_added
        unlisted = books.EDITS["toctree_entry_removed"](book, random.Random(seed))
        for name, edit in books.EDITS.items():
            for before in (book, unlisted):
                changed = edit(before, random.Random(seed))
                if changed is not None:
                    applied.add(name)
                    assert books.render(changed) != books.render(before), name
    assert applied == set(books.EDITS)


def test_notebooks_are_valid_and_myst_nb_comes_in_either_order():
    """The book's notebooks are valid nbformat 4 with stored outputs and cell
    metadata, and myst_nb is loaded before and after sphinx_playbook (and alone,
    in place of myst_parser, in the baseline)."""
    orders, outputs, metadata = set(), set(), set()
    for seed in range(4):
        rng = random.Random(seed)
        for ours in (True, False):
            book, _done = books.random_edits(books.generate(rng, ours=ours), rng, 30)
            files = books.render(book)
            conf: dict = {}
            exec(files["conf.py"].decode(), conf)  # our generated conf.py
            if not books.has_notebooks(book):
                continue
            assert conf["nb_execution_mode"] == "off"
            if not ours:
                assert conf["extensions"] == ["myst_nb"]
                continue
            orders.add(tuple(conf["extensions"]))
            for name, data in files.items():
                if name.endswith(".ipynb"):
                    notebook = nbformat.reads(data.decode(), as_version=4)
                    nbformat.validate(notebook)
                    for cell in notebook.cells:
                        outputs |= {o["output_type"] for o in cell.get("outputs", ())}
                        metadata |= set(cell.metadata.get("playbook", {}))
    assert orders == {("myst_nb", "sphinx_playbook"), ("sphinx_playbook", "myst_nb")}
    assert outputs == {"display_data", "execute_result", "stream"}
    assert metadata == {"legend", "label", "layout", "aside"}
