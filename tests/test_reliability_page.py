"""docs/reliability.md quotes the suites' counts: they must match the tests."""

from __future__ import annotations

import test_all_builders
import test_determinism
import test_properties
from bad_input.cases import CASES, CONFIG_TYPE_CASES, CONFIG_VALUE_CASES, HUGE_CASES
from conftest import REPO
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
    assert test_properties.PROFILE in ("ci", "release")
