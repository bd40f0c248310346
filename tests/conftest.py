"""Shared fixtures: Sphinx's own test fixtures, pointed at tests/roots/.

Everything a test uses to make, build and read a project is in tests/helpers.py;
the names below are that module's, kept importable from here for the tests that
still import them from conftest.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import (  # noqa: F401 (re-exported)
    REPO,
    ROOTS,
    playbook_warnings,
    png,
    read_html,
    sphinx_build,
)

pytest_plugins = ("sphinx.testing.fixtures",)


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot="x")`` finds ``test-x``."""
    return ROOTS
