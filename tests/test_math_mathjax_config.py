"""Macros a project defined for MathJax in conf.py keep working with our KaTeX."""

from __future__ import annotations

from pathlib import Path

from helpers import CONF as CONF_MINIMAL
from helpers import build, read_page, write_project

CONF = """
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
mathjax3_config = {"tex": {"macros": {
    "RR": "\\\\mathbb{R}",
    "norm": ["\\\\left\\\\lVert #1 \\\\right\\\\rVert", 1],
    "E": "\\\\mathrm{MathJax's E}",
}}}
mathjax2_config = {"TeX": {"Macros": {"half": "\\\\frac{1}{2}"}}}
playbook_math_macros = {"\\\\E": "\\\\mathbb{E}"}
"""

PAGE = r"""# Macros

$x \in \RR$, $\norm{x}$, $\half$ and $\E[x]$.
"""


def build_source(tmp_path: Path, builder: str) -> Path:
    source = write_project(tmp_path / "source", {"index.md": PAGE}, conf=CONF)
    return build(source, tmp_path / builder, builder, "-W")


def test_mathjax_macros_render_with_katex(tmp_path):
    out = build_source(tmp_path, "html")
    page = read_page(out)
    formulas = page.select('[role="main"] .katex')
    assert len(formulas) == 4
    assert not page.select(".katex-error")
    drawn = [formula.select_one(".katex-html").get_text() for formula in formulas]
    assert "R" in drawn[0] and "∥" in drawn[1] and "2" in drawn[2]
    # playbook_math_macros wins over MathJax's macro of the same name.
    assert "MathJax" not in drawn[3]


def test_mathjax_macros_reach_the_latex_preamble(tmp_path):
    out = build_source(tmp_path, "latex")
    tex = next(out.glob("*.tex")).read_text(encoding="utf-8")
    assert "\\renewcommand{\\RR}{\\mathbb{R}}" in tex
    assert "\\renewcommand{\\norm}[1]{\\left\\lVert #1 \\right\\rVert}" in tex
    assert "\\renewcommand{\\E}{\\mathbb{E}}" in tex


NOTE_PAGE = r"""# Notes

$$
\newcommand{\norm}[1]{\left\lVert #1 \right\rVert}
\norm{x} \ge 0 \label{eq-positive}
$$

Later, $\norm{x + y} \le \norm{x} + \norm{y}$, as $\eqref{eq-positive}$ says.
"""


def test_latex_keeps_page_macros_and_equation_references(tmp_path):
    """LaTeX keeps a definition inside its formula: for the PDF, a page's definitions
    are global as in MathJax, and \\eqref points at the equation's LaTeX label."""
    source = write_project(tmp_path / "source", {"index.md": NOTE_PAGE}, conf=CONF_MINIMAL)
    build(source, tmp_path / "latex", "latex", "-W")
    tex = next((tmp_path / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "\\gdef\\norm#1{\\left\\lVert #1 \\right\\rVert}" in tex
    assert "\\newcommand{\\norm}" not in tex
    assert "\\label{equation:index:eq-positive}" in tex
    assert "\\eqref{equation:index:eq-positive}" in tex


def test_a_renderer_conf_py_names_is_honoured(tmp_path):
    """html_math_renderer = "mathjax" in conf.py: the author's MathJax draws the
    formulas (as with playbook_math = "off"); listing sphinx.ext.mathjax alone does not
    stop build-time math."""
    pages = {}
    for name, extra in (("chosen", 'html_math_renderer = "mathjax"\n'), ("listed", "")):
        source = write_project(
            tmp_path / name,
            {"index.md": "# Math\n\nA formula, $x^2$.\n"},
            conf='extensions = ["sphinx.ext.mathjax", "sphinx_playbook"]\n'
            'html_theme = "sphinx_playbook"\n' + extra,
        )
        pages[name] = read_page(build(source, tmp_path / f"{name}-html", "html", "-W"))
    chosen, listed = pages["chosen"], pages["listed"]
    assert not chosen.select(".katex")
    assert any("mathjax" in (script.get("src") or "") for script in chosen.find_all("script"))
    assert listed.select('[role="main"] .katex')
    assert not any("mathjax" in (script.get("src") or "") for script in listed.find_all("script"))
