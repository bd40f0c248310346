"""The benchmark's synthetic book: both twins build without a warning and hold what
the generator's plan says, so the benchmark compares like with like."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import REPO
from sphinx.cmd.build import build_main

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
    # The baseline first: building ours in the same process first leaks our
    # search-field template into a later pydata-sphinx-theme build (not so in
    # separate processes, as the benchmark runs them).
    for side, source in (("baseline", baseline), ("ours", ours)):
        out = root / f"{side}-html"
        status = build_main(["-W", "-q", "-b", "html", str(source), str(out)])
        assert status == 0, f"the {side} book does not build cleanly with -W"
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
