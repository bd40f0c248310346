"""Math: ``<d-math>``, MathJax's scripts, Distill's eq-grid; every formula checked with KaTeX."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from bs4 import Comment, NavigableString, Tag

from . import markdown as md
from .context import Context
from .elements import attr_html, char_after, style_of


def math_inline(cx: Context, node: Tag) -> str:
    """``<d-math>`` or MathJax's ``<script type="math/tex">`` in text."""
    tex = " ".join(_source(node).split())
    cx.report.done("d-math (inline)" if node.name == "d-math" else "math/tex script")
    if not tex:
        return ""
    cx.formulas.append((tex, False, node.sourceline))
    following = char_after(node)
    if "$" in tex or "`" in tex or following.isdigit() or tex.endswith("\\"):
        written = math_role(tex)
    else:
        written = f"${tex}$"
    attributes = {k: v for k, v in node.attrs.items() if k not in {"block", "type"}}
    if not attributes:
        return written
    # A class or id a script reads the rendered formula by (MathCache("star")).
    html = "".join(f' {k}="{attr_html(v)}"' for k, v in attributes.items())
    return f"<span{html}>{written}</span>"


def block_math(cx: Context, node: Tag) -> str:
    """``<d-math block>``, a display ``math/tex`` script: a ``$$`` block."""
    tex = tex_block(_source(node))
    cx.report.done("d-math (block)" if node.name == "d-math" else "math/tex script")
    cx.formulas.append((tex, True, node.sourceline))
    # A label (not dollarmath's equation label) so {ref} links keep their text.
    return f"{cx.label(node)}$$\n{tex}\n$$"


def eq_grid(cx: Context, node: Tag) -> str | None:
    """Distill's ``eq-grid``: formulas in one grid row, their labels in the next, as
    one display formula with each label under its term; None if it is not one."""
    cells = _grid_cells(node)
    if cells is None:
        return None
    formulas = {
        (row, column): cell for row, column, cell in cells if cell.find("d-math") is not None
    }
    labels = {(row, column): cell for row, column, cell in cells if cell.find("d-math") is None}
    if not formulas:
        return None
    terms = []
    for row, column in sorted(formulas, key=lambda place: (place[0], place[1])):
        tex = " ".join(
            " ".join(_source(math).split()) for math in formulas[(row, column)].find_all("d-math")
        )
        label = labels.pop((row + 1, column), None)
        text = " ".join(label.get_text().split()) if label is not None else ""
        terms.append(f"\\underset{{\\text{{{_tex_text(text)}}}}}{{{tex}}}" if text else tex)
    for (_, _), label in labels.items():
        cx.report.doubt(
            "eq-grid",
            label.sourceline,
            f"the label {' '.join(label.get_text().split())!r} stands under no formula; "
            "written after the formula",
        )
    tail = [" ".join(label.get_text().split()) for label in labels.values()]
    cx.report.done("eq-grid (one display formula)")
    cx.formulas.append((" ".join(terms), True, node.sourceline))
    formula = "$$\n" + " ".join(terms) + "\n$$"
    return formula + ("\n\n" + md.escape(" ".join(tail)) if tail else "")


def _grid_cells(node: Tag) -> list[tuple[int, int, Tag]] | None:
    """(row, column, cell) of each child placed by grid-row and grid-column; None when a
    child is text or is not placed."""
    cells: list[tuple[int, int, Tag]] = []
    for child in node.children:
        if isinstance(child, NavigableString):
            if child.strip() and not isinstance(child, Comment):
                return None
            continue
        if not isinstance(child, Tag):
            continue
        style = style_of(child)
        row_match = re.match(r"\s*(\d+)", style.get("grid-row", ""))
        column_match = re.match(r"\s*(\d+)", style.get("grid-column", ""))
        if not row_match or not column_match:
            return None
        cells.append((int(row_match.group(1)), int(column_match.group(1)), child))
    return cells


def check_formulas(
    formulas: list[tuple[str, bool, int | None]], macros: dict[str, Any], report: Any
) -> None:
    """Each formula KaTeX cannot read is a line of the report (the build would warn)."""
    import json

    from ...math.engines import NoEngineError
    from ...math.renderers import KATEX, render_many

    try:
        results = render_many(KATEX, [(tex, display) for tex, display, _ in formulas],
                              json.dumps(macros))  # fmt: skip
    except NoEngineError:
        report.doubt("math", None, "no JavaScript engine: the formulas were not checked")
        return
    for (tex, _, line), rendered in zip(formulas, results, strict=True):
        if rendered.error:
            report.doubt(
                "math",
                line,
                f"KaTeX cannot read {tex!r} ({_reason(rendered.error)}): "
                "the build warns; write it in TeX KaTeX knows, or define the macro in "
                "playbook_math_macros",
            )


def _reason(error: str) -> str:
    """KaTeX's message without its prefix and its underlined excerpt."""
    return error.removeprefix("KaTeX parse error:").split(" at position")[0].strip()


def _tex_text(text: str) -> str:
    """Plain text inside ``\\text{}``."""
    return re.sub(r"([{}\\$%&#_^~])", r"\\\1", text)


def _source(node: Tag) -> str:
    """The TeX of ``<d-math>`` or of a ``math/tex`` script (whose text get_text skips)."""
    if node.name == "script":
        return "".join(str(child) for child in node.children)
    return node.get_text()


def tex_block(text: str) -> str:
    lines = [line for line in text.split("\n") if line.strip()]
    return textwrap.dedent("\n".join(lines)).strip()


def math_role(tex: str) -> str:
    return f"{{math}}{md.inline_code(' '.join(tex.split()))}"
