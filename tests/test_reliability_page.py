"""docs/reliability.md quotes the suites' counts: they must match the tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import test_all_builders
import test_determinism
import test_properties
from bad_input.cases import CASES, CONFIG_TYPE_CASES, CONFIG_VALUE_CASES, HUGE_CASES
from helpers import REPO
from hypothesis import settings
from markdown_it import MarkdownIt

PAGE = REPO / "docs" / "reliability.md"


def _counts() -> dict[str, int]:
    """The page's table, parsed as Markdown: suite name -> count."""
    tokens = MarkdownIt().enable("table").parse(PAGE.read_text(encoding="utf-8"))
    cells: list[str] = []
    rows: list[list[str]] = []
    inside_body = False
    for token in tokens:
        if token.type == "tbody_open":
            inside_body = True
        elif token.type == "tr_close" and inside_body:
            rows.append(cells)
            cells = []
        elif token.type == "inline" and inside_body:
            cells.append(token.content)
    return {row[0]: int(row[-1].replace(",", "")) for row in rows}


def test_counts_on_the_reliability_page_match_the_tests():
    assert _counts() == {
        "Bad-input pages": len(CASES),
        "Huge inputs": len(HUGE_CASES),
        "conf.py values": len(CONFIG_TYPE_CASES) + len(CONFIG_VALUE_CASES),
        "Property examples in CI": settings.get_profile("ci").max_examples,
        "Property examples for a release": settings.get_profile("release").max_examples,
        "Builders": len(test_all_builders.ALL_BUILDERS),
        "Incremental edits": len(test_determinism.EDITS),
        "Other themes": len(test_all_builders.OTHER_THEMES),
    }


@pytest.mark.parametrize(
    ("environment", "profile"), [(None, "ci"), ("ci", "ci"), ("release", "release")]
)
def test_the_property_suite_runs_the_profile_the_page_names(environment, profile):
    """CI (no HYPOTHESIS_PROFILE) runs the page's "in CI" count, a release run the
    other: tests/test_properties.py, imported by a Python of its own, picks the
    profile from the environment."""
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    if environment is not None:
        env["HYPOTHESIS_PROFILE"] = environment
    script = (
        "import test_properties\n"
        "from hypothesis import settings\n"
        "print(test_properties.PROFILE, settings.get_profile(test_properties.PROFILE).max_examples)"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(test_properties.__file__).parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    name, examples = run.stdout.split()
    assert name == profile
    assert int(examples) == _counts()[f"Property examples {ROWS[profile]}"]


#: The page's row of each profile.
ROWS = {"ci": "in CI", "release": "for a release"}
