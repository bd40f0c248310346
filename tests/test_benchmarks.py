"""The benchmark's synthetic book: both twins build without a warning and hold what
the generator's plan says, so the benchmark compares like with like."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import REPO

# The generator lives in benchmarks/, beside the command that uses it, not in the package.
sys.path.insert(0, str(REPO / "benchmarks"))
generate = importlib.import_module("generate")

PLAN = generate.PLAN
#: Chapter 1 of every book: an odd chapter has one aside less (45 in six chapters).
ASIDES = PLAN.asides - 1


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BeautifulSoup]:
    """A one-chapter book in both syntaxes, built with -W; its chapter page parsed."""
    root = tmp_path_factory.mktemp("bench")
    pages = {}
    ours, baseline = generate.write_books(root, 1)
    # In a child process each, as the benchmark builds them: two Sphinx builds in
    # one process share docutils' and Jinja's global state.
    for side, source in (("ours", ours), ("baseline", baseline)):
        out = root / f"{side}-html"
        command = [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", source, out]
        build = subprocess.run(command, capture_output=True, text=True, check=False)
        assert build.returncode == 0, f"the {side} book fails with -W:\n{build.stderr}"
        html = Path(out, "chapter-001.html").read_text(encoding="utf-8")
        pages[side] = BeautifulSoup(html, "html.parser")
    return pages


def test_our_chapter_holds_the_plan(books):
    page = books["ours"]
    assert len(page.select("aside.pb-aside")) == ASIDES
    assert len(page.select(".katex")) == PLAN.inline_math + PLAN.display_math
    assert len(page.select(".katex-display")) == PLAN.display_math
    figures = PLAN.figures + PLAN.wide_images + PLAN.side_by_side
    assert len(page.select("figure")) == figures
    assert len(page.select("figure .pb-side-by-side")) == PLAN.side_by_side
    assert len(page.select("a.pb-cite__link")) == PLAN.citations
    assert len(page.select("aside.footnote")) == PLAN.footnotes
    assert len(page.select("table")) == PLAN.tables
    assert len(page.select(".admonition")) == PLAN.admonitions


def test_baseline_chapter_says_the_same_with_stock_sphinx(books):
    page = books["baseline"]
    assert len(page.select("aside.sidebar")) == ASIDES
    assert len(page.select("span.math")) == PLAN.inline_math
    assert len(page.select("div.math")) == PLAN.display_math
    assert len(page.select("figure")) == PLAN.figures + PLAN.wide_images
    # Citations become footnotes carrying the reference.
    assert len(page.select("aside.footnote")) == PLAN.footnotes + PLAN.citations
    assert len(page.select("table")) == PLAN.tables
    assert len(page.select(".admonition")) == PLAN.admonitions
    assert not page.select("[class^=pb-]"), "the baseline must not use sphinx_playbook"
