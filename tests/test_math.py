"""Math rendered at build time by KaTeX: HTML and MathML in the page, no script, no CDN."""

from __future__ import annotations

import pytest
from conftest import playbook_warnings, read_html

from sphinx_playbook.math.renderers import KATEX, render


def test_katex_renders_html_and_mathml():
    result = render(KATEX, r"\frac{1}{2} + \underbrace{a+b}_{\text{sum}}", False)
    assert result.error is None
    assert 'class="katex"' in result.html
    assert "<math" in result.html and "<mfrac>" in result.html
    broken = render(KATEX, r"\frac{1}{2", False)
    assert broken.html is None
    assert broken.error.startswith("KaTeX parse error: Unexpected end of input")


@pytest.mark.sphinx("html", testroot="math")
def test_pages_carry_rendered_math_and_only_math_pages_link_katex(app):
    app.build()
    page = read_html(app)
    formulas = page.select(".pb-body .katex")
    assert len(formulas) == 4  # 2 inline, 2 display; the broken one is shown as TeX
    assert all(f.select_one(".katex-mathml math") for f in formulas), "MathML for readers"
    assert page.select_one(".katex .mord.mathbb") is not None, "the \\RR macro was expanded"
    display = page.select_one("div.pb-math-display#equation-eq-memory")
    assert display.select_one(".eqno").get_text(strip=True).startswith("(1)")
    assert display.select_one(".katex-display") is not None
    references = page.select('a.reference[href="#equation-eq-memory"]')
    assert [a.get_text() for a in references] == ["(1)"], "{eq} links to the equation"
    error = page.select_one(".pb-math-error code")
    assert error.get_text() == r"\frac{1}{2"
    stylesheets = [link["href"] for link in page.find_all("link", rel="stylesheet")]
    assert "_static/katex/katex.css" in [s.split("?")[0] for s in stylesheets]
    scripts = [s.get("src", "") for s in page.find_all("script")]
    assert not any("mathjax" in s.lower() or s.startswith("http") for s in scripts), scripts
    plain = read_html(app, "plain")
    assert not any("katex" in link["href"] for link in plain.find_all("link", rel="stylesheet"))
    assert (app.outdir / "_static" / "katex" / "fonts" / "KaTeX_Main-Regular.woff2").exists()


@pytest.mark.sphinx("html", testroot="math", freshenv=True)
def test_a_broken_formula_warns_at_its_line(app):
    app.build()
    assert playbook_warnings(app) == [
        f"{app.srcdir / 'index.md'}:18: WARNING: math: KaTeX parse error: Unexpected end of "
        "input in a macro argument, expected '}' at end of input: \\frac{1}{2; the formula is "
        "shown as TeX [playbook.math]"
    ]


@pytest.mark.sphinx("html", testroot="math", freshenv=True, confoverrides={"playbook_math": "off"})
def test_off_leaves_sphinxs_renderer(app):
    app.build()
    assert read_html(app).select(".katex") == []
