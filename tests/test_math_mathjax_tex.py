"""TeX written for MathJax (Sphinx's default) builds with KaTeX: issue 40's drop-in.

Real projects write ``\\mbox``, ``\\require``, numbered ``align``, ``\\label`` and
``\\eqref``, and macros one formula defines for the rest of the page. The roots
test-math-mathjax-myst and -rst hold each construct, as MyST and as reST; both
must build with ``-W`` and every formula must come out drawn by KaTeX.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import playbook_warnings, read_page, sphinx_build

from sphinx_playbook.math.cache import FormulaKeys
from sphinx_playbook.math.mathjax_compat import INSTEAD, advice, resolve_references, translate
from sphinx_playbook.math.renderers import KATEX, TEMML, render, render_many

#: What KaTeX rejects, or numbers itself, as MathJax authors write it.
MATHJAX_ONLY = [
    (r"\mbox{hello} + x", False),
    (r"\text{a \mbox{b}}", False),
    (r"\require{cancel} \cancel{x}", False),
    (r"\begin{align} a &= b \\ c &= d \end{align}", True),
    (r"\begin{equation} a = b \end{equation}", True),
    (r"\begin{gather} a \\ b \end{gather}", True),
    (r"\begin{alignat}{2} a &= b & c &= d \end{alignat}", True),
    (r"\begin{multline} a + b \\ = c \end{multline}", True),
    (r"\begin{multline*} a + b \\ = c \end{multline*}", True),
    (r"\begin{flalign} a &= b \end{flalign}", True),
    (r"\begin{eqnarray} a &=& b \\ c &\le& d \end{eqnarray}", True),
    (r"\begin{eqnarray*} a &=& b \end{eqnarray*}", True),
    (r"\displaylines{a = b \\ c = d}", True),
    (r"E = mc^2 \label{eq:energy}", True),
    (r"\unicode{x221E} + \unicode{8734}", False),
    (r"\class{important}{x} + \cssId{here}{y}", False),
    (r"\DeclareMathOperator{\tr}{tr} \tr A", False),
    (r"\DeclareMathOperator*{\argmax}{arg\,max} \argmax_x f", True),
    (r"\renewcommand{\foo}{a} \foo", False),
    (r"\mathbfit{x} + \overparen{ab} + \mspace{3mu} \skew{2}\hat{x}", False),
]


@pytest.mark.parametrize(("tex", "display"), MATHJAX_ONLY)
def test_mathjax_tex_is_translated_into_tex_katex_renders(tex, display):
    original = render(KATEX, tex, display)
    translated = translate(tex).tex
    result = render(KATEX, translated, display)
    assert result.error is None, (translated, result.error)
    assert 'class="eqn-num"' not in result.html, "Sphinx numbers display math, not KaTeX"
    assert original.error is not None or 'class="eqn-num"' in original.html, "not needed"
    assert render(TEMML, translated, display).error is None


@pytest.mark.parametrize(
    "tex",
    [
        r"\bm{x}",
        r"\bold{x}",
        r"\boldsymbol{\theta}",
        r"\operatorname*{arg\,max}_x",
        r"\textsf{a} \texttt{b}",
        r"\Bbb{R}",
        r"\begin{align*} a &= b \end{align*}",
        r"\begin{equation*}\begin{split} a &= b \\ &= c \end{split}\end{equation*}",
        r"\begin{gather*} a \\ b \end{gather*}",
        r"a \nonumber \notag",
        r"\lt \gt",
    ],
)
def test_what_katex_already_takes_is_left_as_written(tex):
    assert translate(tex).tex == tex
    assert render(KATEX, tex, True).error is None


def test_labels_leave_the_tex_and_references_become_numbers():
    result = translate(r"\begin{align} a &= b \label{one} \\ c &= d \label{two} \end{align}")
    assert result.labels == ["one", "two"]
    assert "\\label" not in result.tex
    numbers = {"one": "4", "two": "4"}
    assert resolve_references(r"\eqref{one} + \ref{ two }", numbers) == r"\text{(4)} + \text{4}"
    assert resolve_references(r"\eqref{elsewhere}", numbers) == r"\text{(?)}"


def test_definitions_are_kept_for_later_formulas_as_gdefs():
    result = translate(
        r"\newcommand{\R}{\mathbb{R}} \renewcommand\norm[1]{\lVert #1 \rVert}"
        r"\def\v#1{\mathbf{#1}} \DeclareMathOperator{\tr}{tr} \let\eps=\varepsilon x"
    )
    assert result.definitions == (
        r"\gdef\R{\mathbb{R}}\gdef\norm#1{\lVert #1 \rVert}\gdef\v#1{\mathbf{#1}}"
        r"\gdef\tr{\operatorname{tr}}\global\let\eps=\varepsilon"
    )
    # The formula itself defines them as the later formulas get them.
    assert result.tex.replace(" ", "") == result.definitions.replace(" ", "") + "x"
    later = render_many(KATEX, [(r"\norm{\v{x}} \in \R, \tr A, \eps", False, result.definitions)])
    assert later[0].error is None
    assert "∥" in later[0].html and "ε" in later[0].html


def test_a_definition_in_an_align_cell_outlives_the_cell():
    """MathJax's definitions are global; KaTeX's \\newcommand ends with its group."""
    tex = r"\begin{align} \newcommand{\R}{\mathbb{R}} a &\in \R \\ b &\in \R \end{align}"
    assert render(KATEX, translate(tex).tex, True).error is None


def test_a_macro_is_defined_for_the_formulas_after_its_definition_only():
    """MathJax reads a page in order: a macro used before its definition is undefined."""
    definitions = translate(r"\newcommand{\half}{\frac12} x").definitions
    before, after = render_many(KATEX, [(r"\half", False, ""), (r"\half", False, definitions)])
    assert before.error is not None and "\\half" in before.error
    assert after.error is None
    broken = render(KATEX, "x", False, definitions="\\gdef\\bad{")
    assert "an earlier formula of the page" in (broken.error or "")


def test_the_cache_key_holds_the_definitions_a_formula_is_rendered_with():
    key = FormulaKeys(KATEX, "{}")
    assert key("\\R", False) == key("\\R", False, "")
    real, complex_ = "\\gdef\\R{\\mathbb{R}}", "\\gdef\\R{\\mathbb{C}}"
    assert key("\\R", False, real) != key("\\R", False, complex_)
    assert key("\\R", False, real) != key("\\R", False)
    # The definitions and the TeX are not simply concatenated.
    assert key("b", False, "a") != key("ab", False, "")


def test_commands_without_translation_say_what_to_write_instead():
    assert advice("KaTeX parse error: Undefined control sequence: \\ce at position 1: …") == (
        "KaTeX has no \\ce: (MathJax's mhchem) write \\mathrm{H_2O}, with _ and ^ for the numbers"
    )
    assert "alignat*" in (advice("KaTeX parse error: No such environment: xalignat at …") or "")
    assert advice("KaTeX parse error: Undefined control sequence: \\madeup at position 1") is None
    problem = translate(r"\newcommand{\f}[2][0]{#1 + #2} \f{x}").problems
    assert problem == [
        "KaTeX's \\newcommand takes no optional argument: define \\f without one and "
        "write the default [0] where it is used"
    ]


# -- whole projects --------------------------------------------------------------------


def _formulas(page: BeautifulSoup) -> list:
    """The page's own formulas (not the copies in the hover cards)."""
    body = page.select_one(".pb-body")
    return [f for f in body.select(".katex") if f.find_parent(class_="pb-previews") is None]


#: The formulas each root's first page holds.
FORMULAS = {"myst": 32, "rst": 30}


@pytest.mark.parametrize("flavour", ["myst", "rst"])
def test_mathjax_tex_builds_with_katex_under_w(rootdir, tmp_path, flavour):
    """-W: not one warning. Every formula drawn by KaTeX, none shown as TeX, none
    numbered by KaTeX itself; \\eqref shows the number Sphinx gives the equation."""
    out = tmp_path / "out"
    sphinx_build("-W", "-b", "html", str(rootdir / f"test-math-mathjax-{flavour}"), str(out))
    page = read_page(out)
    formulas = _formulas(page)
    # MyST's root adds a gather outside $$ (MyST's amsmath), and \eqref to it.
    assert len(formulas) == FORMULAS[flavour]
    assert page.select(".pb-math-error") == []
    assert page.select(".eqn-num") == []
    tex = [f.select_one('annotation[encoding="application/x-tex"]').get_text() for f in formulas]
    for command in ("\\mbox", "\\require", "\\label", "\\eqref", "\\ref{", "{align}", "{eqnarray}"):
        assert not any(command in formula for formula in tex), command
    # The page's macros reach the formulas after their definition.
    drawn = {t: f.select_one(".katex-html").get_text() for t, f in zip(tex, formulas, strict=True)}
    assert "∥x∥∈R" in drawn[r"\norm{x} \in \R"].replace("\u200b", "")
    assert "tr(A)" in drawn[r"\tr(A)"]
    # \label{eq:energy} became the equation's label: numbered, linked, referenced.
    numbers = {
        div["id"]: div.select_one(".eqno").get_text(strip=True).rstrip("#")
        for div in page.select(".pb-body div.pb-math-display[id]")
        if div.find_parent(class_="pb-previews") is None
    }
    expected = {
        "equation-eq-energy": "(1)",
        "equation-eq-momentum": "(2)",
        "equation-eq-force": "(3)",
    }
    references = [r"\text{(1)}", r"\text{2}", r"\text{(3)}", r"\text{(3)}"]
    if flavour == "myst":  # MyST's random label for the gather gave way to its \label
        expected["equation-eq-power"] = "(4)"
        references.append(r"\text{(4)}")
        assert [a.get_text() for a in page.select('a.reference[href="#equation-eq-power"]')] == [
            "(4)"
        ]
    assert numbers == expected
    assert [a.get_text() for a in page.select('a.reference[href="#equation-eq-energy"]')] == ["(1)"]
    assert _references(page) == references


def _references(page: BeautifulSoup) -> list[str]:
    """What each \\eqref and \\ref became, in order."""
    tex = [f.select_one("annotation").get_text() for f in _formulas(page)]
    return [formula for formula in tex if re.fullmatch(r"\\text\{\(?\d+\)?\}", formula)]


def _shown_numbers(page: BeautifulSoup) -> list[str]:
    return [
        div.select_one(".eqno").get_text(strip=True).rstrip("#")
        for div in page.select(".pb-body div.pb-math-display[id]")
        if div.find_parent(class_="pb-previews") is None
    ]


@pytest.mark.parametrize("numfig", ["1", "0"])
def test_eqref_shows_the_number_beside_the_equation(rootdir, tmp_path, numfig):
    """With numfig, Sphinx numbers equations across pages (the second page's
    first is (5)); without, page by page. \\eqref follows, and each page has
    its own macros: other.md defines its own \\norm."""
    out = tmp_path / "out"
    source = rootdir / "test-math-mathjax-myst"
    sphinx_build("-W", "-b", "html", "-D", f"numfig={numfig}", str(source), str(out))
    other = read_page(out, "other")
    number = "(5)" if numfig == "1" else "(1)"
    assert _shown_numbers(other) == [number]
    assert _references(other) == [rf"\text{{{number}}}"]
    (later,) = [f for f in _formulas(other) if f.select_one("annotation").get_text() == r"\norm{b}"]
    assert later.select_one(".katex-html").get_text() == "\N{DIVIDES}b\N{DIVIDES}"


@pytest.mark.parametrize("flavour", ["myst", "rst"])
def test_mathjax_tex_builds_as_mathml_too(rootdir, tmp_path, flavour):
    out = tmp_path / "out"
    source = rootdir / f"test-math-mathjax-{flavour}"
    sphinx_build("-W", "-b", "html", "-D", "playbook_math=mathml", str(source), str(out))
    page = read_page(out)
    assert page.select(".pb-math-error") == []
    formulas = [m for m in page.select(".pb-body math") if not m.find_parent(class_="pb-previews")]
    assert len(formulas) == FORMULAS[flavour]


def test_latex_keeps_the_authors_tex(rootdir, tmp_path):
    """LaTeX knows \\mbox and the AMS environments: nothing is translated there."""
    out = tmp_path / "latex"
    sphinx_build("-W", "-b", "latex", str(rootdir / "test-math-mathjax-rst"), str(out))
    (tex,) = out.glob("*.tex")
    text = tex.read_text(encoding="utf-8")
    assert r"\mbox{hello}" in text and r"\begin{eqnarray}" in text and r"\require{cancel}" in text
    assert r"\begin{equation}\label{equation:index:eq:energy}" in text


def test_a_changed_page_macro_rebuilds_as_a_fresh_build_does(rootdir, tmp_path):
    """Edit the formula that defines \\norm: the later formulas that use it are
    unchanged TeX, yet the incremental build must draw them with the new macro.
    A new labelled equation on the first page moves the numbers of the second
    (numfig): its \\eqref follows, as in a fresh build."""
    source, out, fresh = tmp_path / "source", tmp_path / "out", tmp_path / "fresh"
    shutil.copytree(rootdir / "test-math-mathjax-myst", source)
    sphinx_build("-W", "-b", "html", str(source), str(out))
    assert "∥" in read_page(out).get_text()
    index = source / "index.md"
    text = index.read_text(encoding="utf-8")
    old = r"\newcommand{\norm}[1]{\left\lVert #1 \right\rVert}"
    text = text.replace(old, r"\newcommand{\norm}[1]{\left| #1 \right|}")
    new = "$$\na \\label{eq:new}\n$$\n\n## Environments"
    index.write_text(text.replace("## Environments", new), encoding="utf-8")
    sphinx_build("-W", "-b", "html", str(source), str(out))
    sphinx_build("-W", "-b", "html", str(source), str(fresh))
    for page in ("index", "other"):
        incremental = (out / f"{page}.html").read_text(encoding="utf-8")
        assert incremental == (fresh / f"{page}.html").read_text(encoding="utf-8"), page
    assert _references(read_page(out, "other")) == [r"\text{(6)}"]
    later = [f for f in _formulas(read_page(out)) if "\\norm{x}" in f.get_text()]
    assert later and "∥" not in later[0].select_one(".katex-html").get_text()


@pytest.mark.sphinx("html", testroot="math-mathjax-myst", freshenv=True)
def test_the_myst_root_gives_no_playbook_warning(app):
    app.build()
    assert playbook_warnings(app) == []


def _project(tmp_path: Path, body: str) -> Path:
    source = tmp_path / "source"
    source.mkdir()
    conf = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
    (source / "conf.py").write_text(conf, encoding="utf-8")
    (source / "index.md").write_text(f"# Page\n\n{body}\n", encoding="utf-8")
    return source


def test_what_cannot_be_translated_is_warned_about_at_its_line(make_app, tmp_path):
    source = _project(
        tmp_path,
        "Water $\\ce{H2O}$.\n\n"
        "$$\n\\newcommand{\\f}[2][0]{#1 + #2}\nx\n$$\n\n"
        "As $\\eqref{nowhere}$ shows.\n",
    )
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", freshenv=True)
    app.build()
    index = source / "index.md"
    assert playbook_warnings(app) == [
        f"{index}:5: WARNING: math: KaTeX's \\newcommand takes no optional argument: define "
        "\\f without one and write the default [0] where it is used [playbook.math]",
        f"{index}:10: WARNING: math: no equation of this page is labelled 'nowhere'; label it "
        "(:label: nowhere, or $$ ... $$ (nowhere) in MyST) and write {eq}`nowhere` "
        "(:eq:`nowhere` in reST) outside the formula [playbook.math]",
        f"{index}:3: WARNING: math: KaTeX parse error: Undefined control sequence: \\ce at "
        "position 1: \\̲c̲e̲{H2O}; KaTeX has no \\ce: (MathJax's mhchem) write \\mathrm{H_2O}, "
        "with _ and ^ for the numbers; the formula is shown as TeX [playbook.math]",
    ]


def test_site_macros_and_page_macros_meet(make_app, tmp_path):
    """A page may redefine a conf.py macro (\\newcommand, as MathJax allows), and
    conf.py's macros may be written for MathJax too."""
    source = _project(
        tmp_path,
        "$$\n\\newcommand{\\RR}{\\mathbb{C}}\nx\n$$\n\nThen $\\RR$, $3\\unit$.\n",
    )
    macros = {"\\RR": "\\mathbb{R}", "\\unit": "\\mbox{ m}"}
    app = make_app(
        "html",
        srcdir=source,
        builddir=tmp_path / "build",
        freshenv=True,
        confoverrides={"playbook_math_macros": macros},
    )
    app.build()
    assert playbook_warnings(app) == []
    formulas = _formulas(read_page(Path(app.outdir)))
    (later,) = [f for f in formulas if f.select_one("annotation").get_text() == "\\RR"]
    assert later.select_one(".katex-html").get_text().strip() == "C"


@pytest.mark.parametrize("name", sorted(INSTEAD))
def test_every_command_without_translation_gets_its_advice_from_katexs_error(name):
    """The table matches what KaTeX says: each entry is rejected by KaTeX, after
    translation, and the error leads to the entry's advice."""
    tex = f"{name}{{x}}" if name.startswith("\\") else f"\\begin{{{name}}}x\\end{{{name}}}"
    result = render(KATEX, translate(tex).tex, True)
    assert result.error is not None
    assert advice(result.error) == f"KaTeX has no {name}: {INSTEAD[name]}"


def test_off_leaves_the_tex_to_the_authors_mathjax(rootdir, tmp_path):
    """playbook_math = "off": MathJax reads the formulas as written, \\label included
    (so :eq:`eq:energy` finds no equation, as in any Sphinx project: no -W)."""
    out = tmp_path / "out"
    source = rootdir / "test-math-mathjax-rst"
    sphinx_build("-b", "html", "-D", "playbook_math=off", str(source), str(out))
    text = (out / "index.html").read_text(encoding="utf-8")
    assert r"E = mc^2 \label{eq:energy}" in text and r"\mbox{hello}" in text
    assert "katex" not in text
