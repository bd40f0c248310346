"""Math however the article set it up: MathJax's configuration or defaults, KaTeX
auto-render's options or defaults, ``<script type="math/tex">``: every formula is
rendered at build time (KaTeX markup with its TeX annotation), none left as text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import read_page, sphinx_build, write_project

from sphinx_playbook.cli import main

PAGE = """<!doctype html>
<html><head><meta charset="utf8">
<script src="https://distill.pub/template.v2.js"></script>
{head}
</head><body>
<d-front-matter><script type="text/json">{{"title": "Math"}}</script></d-front-matter>
<d-title><h1>Math</h1></d-title>
<d-article>
{body}
</d-article>
</body></html>
"""

MATHJAX_CONFIG = """<script type="text/x-mathjax-config">
  MathJax.Hub.Config({tex2jax: {inlineMath: [['$','$'], ['\\\\(','\\\\)']]}});
</script>
<script src="https://cdn.jsdelivr.net/npm/mathjax@2/MathJax.js?config=TeX-AMS_HTML"></script>"""
MATHJAX_DEFAULTS = '<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js"></script>'
KATEX_AUTO = """<script src="katex/auto-render.min.js"
  onload="renderMathInElement(document.body, {delimiters: [
    {left: '$$', right: '$$', display: true}, {left: '$', right: '$', display: false}]});">
</script>"""
KATEX_DEFAULTS = (
    '<script src="katex/auto-render.min.js" onload="renderMathInElement(document.body);"></script>'
)

CASES = {
    "mathjax-config": (
        MATHJAX_CONFIG,
        r"<p>An adjacency matrix is $n_{nodes} \times n_{nodes}$, also \(A\); it costs \$5."
        r" Summed: $$\sum_i a_i$$ and after.</p>"
        r"<p>\begin{align} a &= b \\ c &= d \end{align}</p>",
        [
            r"n_{nodes} \times n_{nodes}",
            "A",
            r"\sum_i a_i",
            r"\begin{align} a &= b \\ c &= d \end{align}",
        ],
        ["it costs $5. Summed:", "and after."],
    ),
    "mathjax-defaults": (
        MATHJAX_DEFAULTS,
        r"<p>Dollars stay $5 and $6, \(x^2\) is inline, \[y = x^2\] is shown.</p>"
        '<p>A preprocessed <script type="math/tex">a_i</script> and</p>'
        '<script type="math/tex; mode=display">b = \\frac{1}{2}</script>',
        ["x^2", "y = x^2", "a_i", r"b = \frac{1}{2}"],
        ["Dollars stay $5 and $6, ", "is inline,", "is shown."],
    ),
    "katex-auto-render": (
        KATEX_AUTO,
        r"<p>Inline $e^{i\pi}$ and display $$\int_0^1 f$$ here.</p>",
        [r"e^{i\pi}", r"\int_0^1 f"],
        ["here."],
    ),
    "katex-defaults": (
        KATEX_DEFAULTS,
        r"<p>Only \(k\) and \[K\]; $not$ math.</p>",
        ["k", "K"],
        ["$not$ math."],
    ),
}


def _import_and_build(tmp_path: Path, head: str, body: str) -> tuple[int, int, BeautifulSoup]:
    source = write_project(tmp_path / "article", {"index.html": PAGE.format(head=head, body=body)})
    out = tmp_path / "out"
    code = main(["import-distill", str(source), str(out)])
    build = sphinx_build("-W", "-q", "-b", "html", str(out), str(out / "_html")).returncode
    return code, build, read_page(out / "_html")


@pytest.mark.parametrize("case", CASES)
def test_every_formula_is_rendered_at_build_time(tmp_path, case):
    head, body, formulas, texts = CASES[case]
    code, build, soup = _import_and_build(tmp_path, head, body)
    assert (code, build) == (0, 0)
    page = soup.select_one(".pb-body")
    rendered = [
        " ".join(a.get_text().split())
        for a in page.select('.katex annotation[encoding="application/x-tex"]')
    ]
    # KaTeX is given the TeX as written, but for MathJax's numbered AMS environments:
    # their starred forms (Sphinx numbers equations, not KaTeX; math/mathjax_compat.py).
    assert [r.removeprefix("\\displaystyle ") for r in rendered] == [
        " ".join(f.replace("{align}", "{align*}").split()) for f in formulas
    ]
    for math in page.select(".katex, .katex-display"):
        math.decompose()
    text = " ".join(page.get_text().split())
    for fragment in texts:
        assert " ".join(fragment.split()) in text
    # No TeX left as text.
    assert "\\(" not in text and "$$" not in text and "\\begin" not in text


def test_display_formulas_in_text_are_display_blocks(tmp_path):
    head, body, _, _ = CASES["mathjax-config"]
    _, _, soup = _import_and_build(tmp_path, head, body)
    blocks = soup.select(".pb-body .katex-display")
    assert len(blocks) == 2
    # The paragraph split around the formula, as MathJax shows it.
    assert soup.select_one(".pb-body p:-soup-contains('and after.')").get_text().strip() == (
        "and after."
    )


def test_report_says_which_delimiters(tmp_path, capsys):
    head, body, _, _ = CASES["mathjax-config"]
    source = write_project(tmp_path / "a", {"index.html": PAGE.format(head=head, body=body)})
    assert main(["import-distill", str(source), str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "formulas in text are read with $…$, \\(…\\), $$…$$ (display)" in out
    assert "(MathJax's configuration)" in out
    assert "MathJax.js?config=TeX-AMS_HTML is not loaded: formulas are rendered at build" in out


def test_a_formula_katex_cannot_read_is_reported_with_its_line(tmp_path, capsys):
    """MathJax reads ``\\matrix`` as a primitive, KaTeX does not: the build would warn,
    and the report says so before the build does."""
    body = "<p>Powers:\n $A^3 = A \\matrix A^2$ and $A^2$.</p>"
    source = write_project(
        tmp_path / "a", {"index.html": PAGE.format(head=MATHJAX_CONFIG, body=body)}
    )
    assert main(["import-distill", str(source), str(tmp_path / "o")]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "KaTeX cannot" in line]
    assert len(lines) == 1
    assert lines[0] == (
        f"  {source / 'index.html'}:12: math (check): KaTeX cannot read 'A^3 = A \\\\matrix A^2' "
        "(Undefined control sequence: \\matrix): the build warns; write it in TeX KaTeX "
        "knows, or define the macro in playbook_math_macros"
    )
