"""docs/moving-a-project.md shows the matrix the tests build, row for row.

The docs carry the table itself (they build from a copy of docs/ alone); this test
keeps it equal to matrix.py. After changing the matrix, refresh the page with
``PLAYBOOK_UPDATE_DOCS=1 pytest tests/compat/test_matrix_docs.py``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .matrix import markdown_table

PAGE = Path(__file__).parents[2] / "docs" / "moving-a-project.md"
REGION = re.compile(
    r"(<!-- compat-matrix: generated from tests/compat/matrix.py -->\n)"
    r"(.*?)(<!-- /compat-matrix -->)",
    re.DOTALL,
)


def test_the_docs_show_the_matrix_the_tests_build():
    text = PAGE.read_text(encoding="utf-8")
    match = REGION.search(text)
    assert match, f"{PAGE.name} has no compat-matrix region"
    if os.environ.get("PLAYBOOK_UPDATE_DOCS") and match.group(2) != markdown_table():
        PAGE.write_text(REGION.sub(lambda m: m.group(1) + markdown_table() + m.group(3), text))
        return
    assert match.group(2) == markdown_table(), (
        "the table differs from tests/compat/matrix.py; run "
        "PLAYBOOK_UPDATE_DOCS=1 pytest tests/compat/test_matrix_docs.py"
    )
