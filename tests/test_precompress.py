"""playbook_precompress: .gz and .br beside the site's text files, kept in step."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import brotli
import pytest
from helpers import ROOTS, sphinx_build

TEXT = (".html", ".js", ".css", ".json", ".svg", ".txt", ".xml")


def _copies(outdir: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in outdir.rglob("*") if p.suffix in (".gz", ".br")}


@pytest.fixture
def book(tmp_path: Path) -> Path:
    source = tmp_path / "src"
    shutil.copytree(ROOTS / "test-article-myst", source)
    return source


def test_large_text_files_get_copies_that_decompress_to_them(book: Path, tmp_path: Path) -> None:
    outdir = tmp_path / "html"
    sphinx_build("-q", "-b", "html", "-D", "playbook_precompress=1", str(book), str(outdir))
    files = [p for p in outdir.rglob("*") if p.is_file() and p.suffix not in (".gz", ".br")]
    large = [p for p in files if p.suffix in TEXT and p.stat().st_size >= 1024]
    assert {outdir / "index.html", outdir / "searchindex.js"} <= set(large)
    for path in large:
        data = path.read_bytes()
        assert gzip.decompress(path.with_name(path.name + ".gz").read_bytes()) == data
        assert brotli.decompress(path.with_name(path.name + ".br").read_bytes()) == data
    copied = {p.with_suffix("") for p in _copies(outdir)}
    assert copied == set(large)  # not small files, not images or fonts


def test_a_rebuild_rewrites_only_what_changed_and_drops_what_went(
    book: Path, tmp_path: Path
) -> None:
    outdir = tmp_path / "html"
    build = ("-q", "-b", "html", "-D", "playbook_precompress=1", str(book), str(outdir))
    sphinx_build(*build)
    first = _copies(outdir)
    sphinx_build(*build)
    assert _copies(outdir) == first  # nothing changed, nothing compressed again

    (book / "chapter2.md").unlink()
    index = book / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("chapter2\n", ""), "utf-8")
    sphinx_build(*build)
    after = _copies(outdir)
    assert not (outdir / "chapter2.html").exists()
    assert not any(p.name.startswith("chapter2.html.") for p in after)
    page = outdir / "index.html"
    assert gzip.decompress((outdir / "index.html.gz").read_bytes()) == page.read_bytes()


def test_off_by_default_and_never_in_an_epub(book: Path, tmp_path: Path) -> None:
    sphinx_build("-q", "-b", "html", str(book), str(tmp_path / "html"))
    assert _copies(tmp_path / "html") == {}
    epub = tmp_path / "epub"
    sphinx_build("-q", "-b", "epub", "-D", "playbook_precompress=1", str(book), str(epub))
    assert _copies(epub) == {}
