"""``{compat-matrix}``: the compatibility matrix, as tests/compat/matrix.py defines it.

The page lists exactly what the test suite builds and checks, so the two cannot
drift apart. tests/ ships in the sdist beside docs/.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

MATRIX_FILE = Path(__file__).parents[2] / "tests" / "compat" / "matrix.py"
COLUMNS = ("Extension", "Package", "Checked in the tests", "What sphinx_playbook does")


def load_matrix() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compat_matrix_data", MATRIX_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def row(*cells: nodes.Node) -> nodes.row:
    return nodes.row("", *(nodes.entry("", nodes.paragraph("", "", cell)) for cell in cells))


class CompatMatrix(SphinxDirective):
    """A table row per extension of the matrix."""

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(MATRIX_FILE))
        matrix = load_matrix().MATRIX
        group = nodes.tgroup(cols=len(COLUMNS))
        group += [nodes.colspec(colwidth=width) for width in (3, 3, 6, 5)]
        group += nodes.thead("", row(*(nodes.Text(title) for title in COLUMNS)))
        body = nodes.tbody()
        for entry in matrix:
            names = nodes.inline()
            for index, name in enumerate(entry.extensions):
                if index:
                    names += nodes.Text(", ")
                names += nodes.literal(name, name)
            body += row(
                names,
                nodes.Text(entry.package),
                nodes.Text(entry.checked),
                nodes.Text(entry.ours),
            )
        group += body
        return [nodes.table("", group, classes=["pb-compat-matrix"])]


def setup(app: Sphinx) -> dict[str, bool]:
    app.add_directive("compat-matrix", CompatMatrix)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
