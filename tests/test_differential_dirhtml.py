"""The randomized differential test of tests/test_differential.py, for dirhtml: a file
of its own so that pytest-xdist runs it beside the html sessions."""

from __future__ import annotations

import pytest
from test_differential import SEEDS, check_incremental_builds


@pytest.mark.parametrize("seed", SEEDS["dirhtml"], ids=lambda value: f"dirhtml-{value}")
def test_incremental_build_equals_fresh_build(tmp_path, seed):
    check_incremental_builds(tmp_path, "dirhtml", seed)
