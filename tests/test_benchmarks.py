"""The benchmark's synthetic book: both twins build without a warning and hold what
the generator's plan says, so the benchmark compares like with like."""

from __future__ import annotations

import importlib
import sys

import pytest
from bs4 import BeautifulSoup
from helpers import REPO, read_page, run_sphinx

# The generator lives in benchmarks/, beside the command that uses it, not in the package.
sys.path.insert(0, str(REPO / "benchmarks"))
generate = importlib.import_module("generate")
run = importlib.import_module("run")

PLAN = generate.PLAN
#: Chapter 1 of every book: an odd chapter has one aside less (45 in six chapters).
ASIDES = PLAN.asides - 1


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BeautifulSoup]:
    """A one-chapter book in both syntaxes, built with -W; its chapter page parsed."""
    root = tmp_path_factory.mktemp("bench")
    pages = {}
    ours, baseline = generate.write_books(root, 1)
    math_off = run.without_math(ours, root / run.MATH_OFF)
    # In a child process each, as the benchmark builds them: two Sphinx builds in
    # one process share docutils' and Jinja's global state.
    for side, source in (("ours", ours), ("baseline", baseline), (run.MATH_OFF, math_off)):
        out = root / f"{side}-html"
        build = run_sphinx(["-W", "-q", "-b", "html", str(source), str(out)])
        assert build.returncode == 0, f"the {side} book fails with -W:\n{build.stderr}"
        pages[side] = read_page(out, "chapter-001")
    return pages


def test_our_chapter_holds_the_plan(books):
    page = books["ours"]
    assert len(page.select(".pb-xref")) == PLAN.cross_references
    for store in page.select(".pb-previews"):  # the hover cards copy sections' formulas
        store.decompose()
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


def test_the_math_off_twin_differs_only_by_its_math(books):
    """What the benchmark's "cost of math" compares: the same page, TeX left to MathJax."""
    plain, ours = books[run.MATH_OFF], books["ours"]
    for store in plain.select(".pb-previews"):  # the hover cards copy sections' formulas
        store.decompose()
    assert not plain.select(".katex")
    assert len(plain.select("span.math")) == PLAN.inline_math
    assert len(plain.select("div.math")) == PLAN.display_math
    assert len(plain.select("aside.pb-aside")) == len(ours.select("aside.pb-aside"))
    assert len(plain.select("a.pb-cite__link")) == len(ours.select("a.pb-cite__link"))


def test_the_report_judges_each_budget_by_the_runs_own_ratios():
    """The table gives the ratio of the medians; a budget is judged by the median
    of each run's own ratio, its two builds made back to back."""
    samples = {"build_s/ours/4": [2.5, 2.4, 2.9], "build_s/baseline/4": [2.0, 1.9, 2.1]}
    result = {
        "sizes": [4],
        "jobs_size": 4,
        "incremental_size": 4,
        "math_size": 4,
        "samples": samples,
        "summary": {name: run.Samples(samples).summary(name) for name in samples},
    }
    row = next(line for line in run.table(result) if "full build, size 4" in line)
    assert row.split("|")[-2].strip() == "1.25"
    line = "- full build (wall) ours / baseline at size 4, math included"
    budget = next(text for text in run.budgets(result) if text.startswith(line))
    # The runs' ratios: 1.25, 1.263, 1.381.
    assert budget.endswith("1.26 (1.25 to 1.38 in 3 runs) (budget 1.25) FAIL")
    # A slow spell during the second run's baseline, another during the third's
    # own build: the medians (2.5 / 2.0 = 1.25) would hide neither.
    slow_spell = {"build_s/ours/4": [2.4, 2.4, 3.4], "build_s/baseline/4": [2.0, 2.9, 2.0]}
    budget = next(
        text for text in run.budgets({**result, "samples": slow_spell}) if text.startswith(line)
    )
    assert budget.endswith("1.20 (0.83 to 1.70 in 3 runs) (budget 1.25) PASS")
