"""Nothing changes by chance: the same sources always give the same pages.

Two clean builds of docs/ (in two folders) give byte-identical output, and so does
``-j 2``; an incremental build after each everyday edit equals a fresh build of
the edited sources.
"""

from __future__ import annotations

import filecmp
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import REPO, ROOTS, build, sphinx_build

#: Output that is not the site: the pickled environment and doctrees, and Sphinx's
#: record of the settings (kept as .buildinfo.bak when an edit changes them).
_NOT_THE_SITE = (".doctrees", ".buildinfo", ".buildinfo.bak")


def _site_files(outdir: Path) -> dict[str, Path]:
    return {
        path.relative_to(outdir).as_posix(): path
        for path in sorted(outdir.rglob("*"))
        if path.is_file() and not any(part in _NOT_THE_SITE for part in path.parts)
    }


def _differences(first: Path, second: Path) -> list[str]:
    """Files present in one output only, or with different bytes."""
    a, b = _site_files(first), _site_files(second)
    different = sorted(set(a) ^ set(b))
    for name in sorted(set(a) & set(b)):
        if not filecmp.cmp(a[name], b[name], shallow=False):
            different.append(name)
    return different


def _sphinx_build(src: Path, out: Path, *extra: str) -> None:
    """A new Python per build, as authors and CI run it: no state shared, and each
    its own hash seed, so that output that follows a set's order differs."""
    sphinx_build("-q", "-E", *extra, "-b", "html", str(src), str(out), new_interpreter=True)


@pytest.fixture(scope="module")
def docs_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """docs/ copied to two folders (absolute paths must not leak), built three times."""
    root = tmp_path_factory.mktemp("determinism")
    builds = {}
    for name, folder, extra in (
        ("first", "a", ()),
        ("second", "b", ()),
        ("parallel", "a", ("-j", "2")),
    ):
        src = root / folder / "docs"
        if not src.exists():
            shutil.copytree(REPO / "docs", src, ignore=shutil.ignore_patterns("_build"))
        out = root / f"out-{name}"
        _sphinx_build(src, out, *extra)
        builds[name] = out
    return builds


def test_two_clean_builds_are_byte_identical(docs_builds):
    assert _site_files(docs_builds["first"]), "the build wrote pages"
    assert _differences(docs_builds["first"], docs_builds["second"]) == []


def test_parallel_build_equals_serial_build(docs_builds):
    assert _differences(docs_builds["first"], docs_builds["parallel"]) == []


# -- incremental builds -------------------------------------------------------------------


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path.name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def edit_bib_entry(src: Path) -> None:
    _replace(src / "references.bib", "Bag of Tricks", "A Bag of Edited Tricks")


def remove_a_citation(src: Path) -> None:
    _replace(src / "index.md", "FastText {cite}`joulin2016fasttext` and", "FastText and")


def add_a_page(src: Path) -> None:
    (src / "added.md").write_text("# Added\n\nIt cites {cite}`joulin2016bag`.\n", encoding="utf-8")
    _replace(src / "chapter2.md", "# ", "```{toctree}\n:hidden:\n\nadded\n```\n\n# ")


def remove_the_page(src: Path) -> None:
    (src / "added.md").unlink()
    _replace(src / "chapter2.md", "```{toctree}\n:hidden:\n\nadded\n```\n\n", "")


def rename_a_heading(src: Path) -> None:
    _replace(src / "index.md", "## More", "## Further reading")


def change_front_matter(src: Path) -> None:
    _replace(src / "index.md", "published: 2025-02-19", "published: 2025-03-01")


EDITS: tuple[Callable[[Path], None], ...] = (
    edit_bib_entry,
    remove_a_citation,
    add_a_page,
    remove_the_page,
    rename_a_heading,
    change_front_matter,
)


def _quiet_build(src: Path, out: Path) -> None:
    build(src, out)


@pytest.fixture(scope="module")
def incremental_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The citations root plus a second chapter, built once: each edit builds on it."""
    src = tmp_path_factory.mktemp("incremental") / "src"
    shutil.copytree(ROOTS / "test-citations", src)
    (src / "chapter2.md").write_text("# Chapter two\n\nMore text.\n", encoding="utf-8")
    _replace(src / "index.md", "## More", "```{toctree}\n:hidden:\n\nchapter2\n```\n\n## More")
    _quiet_build(src, src.parent / "incremental")
    return src


@pytest.mark.parametrize("edit", EDITS, ids=lambda edit: edit.__name__)
def test_incremental_build_equals_fresh_build(incremental_source, edit):
    """The edits run in order on one source tree, as an author makes them."""
    src = incremental_source
    edit(src)
    incremental = src.parent / "incremental"
    _quiet_build(src, incremental)
    fresh = src.parent / f"fresh-{edit.__name__}"
    _quiet_build(src, fresh)
    assert _differences(incremental, fresh) == []
