"""Math rendered at build time: KaTeX HTML + MathML (or Temml MathML), no script, no CDN."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import threading
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fontTools.ttLib import TTFont
from helpers import (
    FORKS_IN_THE_TEST_PROCESS,
    REPO,
    playbook_warnings,
    read_html,
    read_page,
    sphinx_build,
)

from sphinx_playbook.machinery import workers
from sphinx_playbook.math.cache import FormulaKeys
from sphinx_playbook.math.engines import ENGINES
from sphinx_playbook.math.fonts import (
    FontFaces,
    characters_by_font,
    drawn_characters,
    subset_font,
)
from sphinx_playbook.math.renderers import KATEX, TEMML, render, render_batch, render_many

CORPUS = REPO / "tests" / "data" / "math"
KATEX_FONTS = REPO / "sphinx_playbook" / "math" / "vendor" / "katex" / "fonts"


def read_corpus() -> list[tuple[str, bool]]:
    """corpus.tex as (TeX, display?) pairs, in the order golden.json has them."""
    entries: list[tuple[list[str], bool]] = []
    for line in (CORPUS / "corpus.tex").read_text(encoding="utf-8").splitlines():
        header = re.fullmatch(r"% (inline|display)", line)
        if header:
            entries.append(([], header[1] == "display"))
        elif entries:
            entries[-1][0].append(line)
    return [("\n".join(lines).strip(), display) for lines, display in entries]


def corpus_macros() -> str:
    return json.dumps(
        json.loads((CORPUS / "macros.json").read_text(encoding="utf-8")), sort_keys=True
    )


def test_the_corpus_covers_the_kinds_of_formulas_articles_use():
    formulas = read_corpus()
    assert len(formulas) >= 100
    text = "\n".join(tex for tex, _ in formulas)
    for construct in (
        r"\begin{aligned}",
        r"\begin{cases}",
        r"\begin{pmatrix}",
        r"\text{",
        r"\underbrace",
        r"\operatorname",
        r"\left(",
        r"\RR",
        r"\KL",
    ):
        assert construct in text, construct
    assert sum(display for _, display in formulas) >= 25


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_engine_gives_node_katex_output_byte_for_byte(engine):
    """golden.json is KaTeX run by node (tests/data/math/golden.js), not by our code."""
    golden = json.loads((CORPUS / "golden.json").read_text(encoding="utf-8"))
    assert [(g["tex"], g["display"]) for g in golden] == read_corpus(), "regenerate golden.json"
    macros = corpus_macros()
    different = [
        g["tex"]
        for g in golden
        if render(KATEX, g["tex"], g["display"], macros, engine=engine).html != g["html"]
    ]
    assert different == []


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_process_that_rendered_with_each_engine_ends(engine: str) -> None:
    """A process that rendered formulas (the build's own, a worker's, this test
    run's) exits once done, whichever engine it used: mini-racer 0.14 on Python 3.13
    hung at exit when its context was left to garbage collection."""
    code = (
        "from sphinx_playbook.math.renderers import KATEX, render\n"
        f"print(render(KATEX, 'x^2', False, engine={engine!r}).html is not None)\n"
    )
    # A hung process is killed at the timeout, which fails the test.
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stdout.strip()) == (0, "True"), done.stderr


def test_katex_renders_html_and_mathml_and_reports_errors():
    result = render(KATEX, r"\frac{1}{2} + \underbrace{a+b}_{\text{sum}}", False)
    assert result.error is None
    assert 'class="katex"' in result.html
    assert "<math" in result.html and "<mfrac>" in result.html
    broken = render(KATEX, r"\frac{1}{2", False)
    assert broken.html is None
    assert broken.error.startswith("KaTeX parse error: Unexpected end of input")


def test_temml_renders_mathml_core_with_the_tex_annotation():
    result = render(TEMML, r"\frac{1}{2} + \RR", True, json.dumps({r"\RR": r"\mathbb{R}"}))
    assert result.error is None
    (formula,) = BeautifulSoup(result.html, "html.parser").contents
    assert formula.name == "math" and formula["display"] == "block"
    assert formula.select(".katex, span") == [], "MathML alone, no HTML drawing"
    annotation = formula.select_one('annotation[encoding="application/x-tex"]')
    assert annotation.get_text() == r"\frac{1}{2} + \RR"
    assert "\N{DOUBLE-STRUCK CAPITAL R}" in [mi.get_text() for mi in formula.select("mi")]
    assert render(TEMML, r"\frac{1}{2", False).html is None


def test_a_cache_key_changes_with_everything_the_markup_depends_on():
    """Same formula, same settings: the same key in any process; any change: another."""
    key = FormulaKeys(KATEX, "{}")
    assert key("x^2", False) == FormulaKeys(KATEX, "{}")("x^2", False)
    others = {
        key("x^2", True),
        key("x^3", False),
        FormulaKeys(KATEX, json.dumps({"\\R": "\\mathbb{R}"}))("x^2", False),
        FormulaKeys(TEMML, "{}")("x^2", False),
    }
    assert len(others) == 4 and key("x^2", False) not in others


def test_a_worker_process_renders_what_this_process_would():
    """The markup a worker sends back is render_many's, errors included, with the
    characters each font draws; the worker is a spawned interpreter, not a fork."""
    macros = corpus_macros()
    formulas = [*read_corpus(), (r"\\frac{1}{2", False)]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = pool.submit(render_batch, "katex", formulas, macros).result()
    expected = render_many(KATEX, formulas, macros)
    assert [rendered for rendered, _fonts in results] == expected
    for (_rendered, fonts), rendered in zip(results, expected, strict=True):
        drawn = drawn_by_font(rendered.html)
        assert fonts == {font: "".join(sorted(chars)) for font, chars in drawn.items()}


def drawn_by_font(markup: str | None) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    if markup:
        characters_by_font(markup, KATEX_FACES, found)
    return found


KATEX_FACES = FontFaces.from_css((KATEX.folder / KATEX.stylesheet).read_text(encoding="utf-8"))


def test_drawn_characters_ignore_the_mathml_and_its_tex():
    markup = render(KATEX, r"\alpha + \text{ab}", False).html
    assert drawn_characters(markup, KATEX_FACES) >= {"\N{GREEK SMALL LETTER ALPHA}", "+", "a"}
    assert "\\" not in drawn_characters(markup, KATEX_FACES), "the TeX annotation is not drawn"


@pytest.mark.parametrize(
    ("tex", "display", "character", "font"),
    [
        ("x", False, "x", "KaTeX_Math-Italic.woff2"),
        (r"\mathrm{x}", False, "x", "KaTeX_Main-Regular.woff2"),
        (r"\text{x}", False, "x", "KaTeX_Main-Regular.woff2"),
        (r"\textbf{x}", False, "x", "KaTeX_Main-Bold.woff2"),
        (r"\textbf{\textit{x}}", False, "x", "KaTeX_Main-BoldItalic.woff2"),
        (r"\boldsymbol{\theta}", False, "θ", "KaTeX_Math-BoldItalic.woff2"),
        (r"\mathbb{R}", False, "R", "KaTeX_AMS-Regular.woff2"),
        (r"\mathcal{L}", False, "L", "KaTeX_Caligraphic-Regular.woff2"),
        (r"\texttt{x}", False, "x", "KaTeX_Typewriter-Regular.woff2"),
        (r"\sum_i", False, "\N{N-ARY SUMMATION}", "KaTeX_Size1-Regular.woff2"),
        (r"\sum_i", True, "\N{N-ARY SUMMATION}", "KaTeX_Size2-Regular.woff2"),
        (r"\left(\frac{a}{b}\right)", True, "(", "KaTeX_Size2-Regular.woff2"),
        (r"\bigg(", False, "(", "KaTeX_Size3-Regular.woff2"),
    ],
)
def test_each_character_is_kept_in_the_font_that_draws_it(tex, display, character, font):
    """KaTeX's stylesheet decides the face, as in the browser: an italic x is not a roman x."""
    found: dict[str, set[str]] = {}
    characters_by_font(render(KATEX, tex, display).html, KATEX_FACES, found)
    holders = sorted(name for name, kept in found.items() if character in kept)
    assert holders == [font]


def stylesheets(page) -> list[str]:
    return [link["href"].split("?")[0] for link in page.find_all("link", rel="stylesheet")]


@pytest.mark.sphinx("html", testroot="math", freshenv=True)
def test_pages_carry_rendered_math_and_only_math_pages_link_katex(app):
    app.build()
    page = read_html(app)
    formulas = page.select(".pb-body .katex:not(.pb-previews *)")  # not the {eq} link's card
    assert len(formulas) == 4  # 2 inline, 2 display; the broken one is shown as TeX
    assert all(f.select_one(".katex-mathml math") for f in formulas), "MathML for readers"
    assert page.select_one(".katex .mord.mathbb") is not None, "the \\RR macro was expanded"
    display = page.select_one("div.pb-math-display#equation-eq-memory")
    assert "pb-math-left" in display["class"], "Distill's left-aligned display math"
    assert display.select_one(".eqno").get_text(strip=True).startswith("(1)")
    assert display.select_one(".katex-display") is not None
    references = page.select('a.reference[href="#equation-eq-memory"]')
    assert [a.get_text() for a in references] == ["(1)"], "{eq} links to the equation"
    error = page.select_one(".pb-math-error code")
    assert error.get_text() == r"\frac{1}{2"
    assert "_static/katex/katex.css" in stylesheets(page)
    scripts = [s.get("src", "") for s in page.find_all("script")]
    assert not any("mathjax" in s.lower() or s.startswith("http") for s in scripts), scripts
    plain = read_html(app, "plain")
    assert not any("katex" in href for href in stylesheets(plain))


def _font_urls(app) -> dict[str, str]:
    """The fonts the stylesheet names, with the version in each URL."""
    css = (app.outdir / "_static" / "katex" / "katex.css").read_text(encoding="utf-8")
    return dict(url.split("?v=") for url in re.findall(r"url\(([^)]+)\)", css))


@pytest.mark.sphinx("html", testroot="math", freshenv=True)
def test_the_stylesheet_names_only_files_that_exist(app):
    app.build()
    css_file = app.outdir / "_static" / "katex" / "katex.css"
    urls = list(_font_urls(app))
    written = sorted(f"fonts/{font.name}" for font in (css_file.parent / "fonts").glob("*"))
    assert sorted(urls) == written, "one woff2 font per face the site draws with, nothing else"
    assert {"fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_AMS-Regular.woff2"} <= set(urls)
    assert len(urls) < 20, "faces no formula draws with are left out"
    assert (css_file.parent / "LICENSE.txt").is_file()


def test_a_font_that_changes_changes_its_url(rootdir, tmp_path):
    """A browser that has a font keeps it until its URL changes: a formula that draws
    a new glyph gives that font a new ``?v=``, and so the stylesheet a new checksum;
    the other fonts keep theirs. (sphinx-build in processes of their own: Sphinx
    keeps a file's checksum for the life of the process.)"""
    source, out = tmp_path / "source", tmp_path / "out"
    shutil.copytree(rootdir / "test-math", source)

    def build() -> tuple[dict[str, str], bytes, str]:
        sphinx_build("-q", "-b", "html", str(source), str(out))
        css = (out / "_static" / "katex" / "katex.css").read_text(encoding="utf-8")
        urls = dict(url.split("?v=") for url in re.findall(r"url\(([^)]+)\)", css))
        font = (out / "_static" / "katex" / "fonts" / "KaTeX_Main-Regular.woff2").read_bytes()
        page = read_page(out)
        link = page.select_one('link[href^="_static/katex/katex.css"]')["href"]
        assert link.endswith(f"?v={zlib.crc32(css.encode()):08x}"), "Sphinx's checksum"
        return urls, font, link

    urls, font, link = build()
    index = source / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\nAnd $\\Omega$.\n", encoding="utf-8")
    new_urls, new_font, new_link = build()
    assert new_font != font, "the font has the new glyph"
    main, ams = "fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_AMS-Regular.woff2"
    assert new_urls[main] != urls[main]
    assert new_urls[ams] == urls[ams]
    assert new_link != link


@pytest.mark.sphinx("html", testroot="math", freshenv=True)
def test_fonts_keep_exactly_the_glyphs_the_site_draws(app):
    app.build()
    drawn: set[int] = set()
    for docname in ("index", "plain"):
        for formula in read_html(app, docname).select(".katex-html"):
            drawn |= {ord(c) for c in formula.get_text()}
    assert {ord("∑"), ord("R"), ord("=")} <= drawn
    total_before = total_after = 0
    kept_anywhere: set[int] = set()
    available_anywhere: set[int] = set()
    for original in sorted(KATEX_FONTS.glob("*.ttf")):
        subset = app.outdir / "_static" / "katex" / "fonts" / f"{original.stem}.woff2"
        kept = set(TTFont(subset).getBestCmap()) if subset.is_file() else set()
        # The space stays for the invisible U+200B; fontTools keeps a code point that
        # shares a glyph with a kept one (∈ and ∋).
        assert len(kept - drawn - {ord(" ")}) <= 2, f"{original.name} kept {sorted(kept - drawn)}"
        kept_anywhere |= kept
        available_anywhere |= set(TTFont(original).getBestCmap())
        total_before += original.stat().st_size
        total_after += subset.stat().st_size if subset.is_file() else 0
    assert available_anywhere & drawn <= kept_anywhere, "a drawn glyph is in no font"
    assert total_after < total_before / 8


@pytest.mark.sphinx("html", testroot="math", freshenv=True)
def test_pages_preload_the_fonts_their_formulas_draw_with(app):
    """Fonts arrive with the stylesheet, not after it: no reflow when they swap in."""
    app.build()
    page = read_html(app)
    preloaded = sorted(link["href"] for link in page.select('head link[rel="preload"][as="font"]'))
    assert all(link["crossorigin"] == "anonymous" for link in page.select('link[as="font"]'))
    written = sorted(f"_static/katex/{url}?v={version}" for url, version in _font_urls(app).items())
    # The test root's one math page draws with every font the site uses.
    assert preloaded == written
    italic = "_static/katex/fonts/KaTeX_Math-Italic.woff2?v="
    assert any(url.startswith(italic) for url in preloaded)
    assert read_html(app, "plain").select('link[rel="preload"]') == []


@pytest.mark.sphinx("html", testroot="math", freshenv=True)
def test_a_broken_formula_warns_at_its_line(app):
    app.build()
    assert playbook_warnings(app) == [
        f"{app.srcdir / 'index.md'}:18: WARNING: math: KaTeX parse error: Unexpected end of "
        "input in a macro argument, expected '}' at end of input: \\frac{1}{2; the formula is "
        "shown as TeX [playbook.math]"
    ]


def _recording_submissions(monkeypatch, fonts: list[str] | None = None) -> list[tuple[int, str]]:
    """The formulas sent to the workers, with the process that sent them (and the
    fonts sent to be cut, into ``fonts``)."""
    sent: list[tuple[int, str]] = []
    submit = workers.submit

    def recording(app, function, *arguments):
        if function is render_batch:
            sent.extend((os.getpid(), formula[0]) for formula in arguments[1])
        elif function is subset_font and fonts is not None:
            fonts.append(arguments[0].name)
        return submit(app, function, *arguments)

    monkeypatch.setattr(workers, "submit", recording)
    return sent


def test_an_unchanged_formula_is_never_rendered_twice(make_app, tmp_path, monkeypatch, rootdir):
    """A fresh environment and a new application (its own cache, as in a new process)
    still find the formulas, their characters and their fonts in the cache folder."""
    fonts_cut: list[str] = []
    sent = _recording_submissions(monkeypatch, fonts_cut)
    build = tmp_path / "build"
    pages: list[str] = []
    for run in range(2):
        app = make_app("html", srcdir=rootdir / "test-math", builddir=build, freshenv=True)
        app.build(force_all=True)
        pages.append(Path(app.outdir, "index.html").read_text(encoding="utf-8"))
        if run == 0:
            assert len(sent) == 5, sent
            assert fonts_cut, "the first build cut the fonts"
            sent.clear()
            fonts_cut.clear()
    assert sent == [], "every formula came from the cache"
    assert fonts_cut == [], "every font came from the cache"
    assert read_html(app).select(".katex")
    assert pages[0] == pages[1], "the page (its font preloads included) changed"


def test_markup_missing_from_the_cache_is_rendered_again(make_app, tmp_path, monkeypatch, rootdir):
    """The cache's index names a formula whose markup file is gone (a build stopped
    while writing, a cleaned folder): the formula is rendered again, the page whole."""
    sent = _recording_submissions(monkeypatch)
    build = tmp_path / "build"
    app = make_app("html", srcdir=rootdir / "test-math", builddir=build, freshenv=True)
    app.build(force_all=True)
    first = read_html(app)
    cache = Path(app.doctreedir) / "playbook-cache" / "math"
    markup = sorted(path for path in cache.glob("*.pickle") if path.name != "index.pickle")
    assert (cache / "index.pickle").is_file() and markup
    markup[0].unlink()
    sent.clear()
    app = make_app("html", srcdir=rootdir / "test-math", builddir=build, freshenv=True)
    app.build(force_all=True)
    assert 1 <= len(sent) < 5, "only the formulas of the missing file are rendered again"
    assert [str(math) for math in read_html(app).select(".katex")] == [
        str(math) for math in first.select(".katex")
    ]
    assert markup[0].is_file(), "the cache has the markup again"


def test_a_changed_macro_misses_the_cache(make_app, tmp_path, monkeypatch, rootdir):
    sent = _recording_submissions(monkeypatch)
    build = tmp_path / "build"
    app = make_app("html", srcdir=rootdir / "test-math", builddir=build, freshenv=True)
    app.build(force_all=True)
    sent.clear()
    app = make_app(
        "html",
        srcdir=rootdir / "test-math",
        builddir=build,
        freshenv=True,
        confoverrides={"playbook_math_macros": {"\\RR": "\\mathbf{R}"}},
    )
    app.build(force_all=True)
    assert len(sent) == 5, "every formula is rendered again with the new macros"


def _pages_with_one_formula_each(tmp_path: Path, count: int) -> tuple[Path, list[str]]:
    """A project of ``count`` pages, page N with the formula ``x_{N}``."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["sphinx_playbook"]\n', encoding="utf-8")
    pages = [f"page{number:02}" for number in range(count)]
    toctree = "\n".join(f"   {page}" for page in pages)
    (source / "index.rst").write_text(f"Index\n=====\n\n.. toctree::\n\n{toctree}\n")
    for number, page in enumerate(pages):
        (source / f"{page}.rst").write_text(f"Page\n====\n\nSee :math:`x_{{{number}}}`.\n")
    return source, pages


def _assert_each_page_has_its_formula(app, pages: list[str]) -> None:
    for number, page in enumerate(pages):
        (formula,) = read_html(app, page).select(".katex annotation")
        assert formula.get_text() == f"x_{{{number}}}"


@FORKS_IN_THE_TEST_PROCESS
def test_a_parallel_build_forks_no_process_that_has_threads(make_app, tmp_path, monkeypatch):
    """-j 2: Sphinx forks its readers and writers; at each of those points this
    process has no thread of ours (Python 3.12 warns about fork() with threads),
    the formulas are sent by the main process between reading and writing, and
    every page gets its markup."""
    source, pages = _pages_with_one_formula_each(tmp_path, 12)
    sent = _recording_submissions(monkeypatch)
    threads: dict[str, list[str]] = {}
    before = set(threading.enumerate())  # this test process may have its own (an engine's)

    def count(moment: str):
        def note(*_arguments):
            threads[moment] = [t.name for t in set(threading.enumerate()) - before]

        return note

    app = make_app("html", srcdir=source, builddir=tmp_path / "build", parallel=2)
    app.connect("env-before-read-docs", count("reading"), priority=1000)
    app.connect("write-started", count("writing"), priority=1000)
    app.build(force_all=True)
    assert app.is_parallel_allowed("read") and app.is_parallel_allowed("write")
    assert threads == {"reading": [], "writing": []}, "threads started by the build"
    assert sorted(tex for _pid, tex in sent) == sorted(f"x_{{{n}}}" for n in range(12))
    assert {pid for pid, _tex in sent} == {os.getpid()}, "sent by the main process only"
    _assert_each_page_has_its_formula(app, pages)


#: ``python FORK_CHECK ARGUMENTS`` is ``sphinx-build ARGUMENTS`` where ``os.fork()``
#: warns (DeprecationWarning) when the process has more than one thread, as Python
#: 3.12 and later do by themselves; on 3.11 the wrapper makes the same check (the
#: threads the kernel counts, as 3.12 does on Linux), so the test can fail there too.
FORK_CHECK = """import os, sys, threading, warnings

if sys.version_info < (3, 12):
    _fork = os.fork

    def _threads():
        try:
            with open("/proc/self/stat") as stat:
                return int(stat.read().rsplit(")", 1)[1].split()[17])
        except OSError:
            return threading.active_count()

    def fork():
        threads = _threads()
        pid = _fork()
        if pid and threads > 1:
            warnings.warn(
                f"This process is multi-threaded ({threads} threads), use of fork() may "
                "lead to deadlocks in the child.", DeprecationWarning, stacklevel=2)
        return pid

    os.fork = fork

# Guarded: the math workers are started with "spawn", which imports the main
# script again in each worker; unguarded, every worker would run a build of its own.
if __name__ == "__main__":
    from sphinx.cmd.build import main

    raise SystemExit(main(sys.argv[1:]))
"""


def test_a_parallel_build_gives_no_fork_warning(tmp_path):
    """The same in a process of its own, with deprecation warnings as errors."""
    source, _pages = _pages_with_one_formula_each(tmp_path, 12)
    script = tmp_path / "fork_check.py"
    script.write_text(FORK_CHECK, encoding="utf-8")
    # "always", not "error": an exception raised in the parent of a fork leaves
    # Sphinx's parallel build waiting for its children.
    run = subprocess.run(
        [sys.executable, "-W", "always::DeprecationWarning", str(script), "-q", "-j", "2",
         "-b", "html", str(source), str(tmp_path / "out")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "DeprecationWarning" not in run.stderr
    assert (tmp_path / "out" / "page11.html").is_file()


def test_a_serial_build_renders_while_it_reads(make_app, tmp_path, monkeypatch):
    """-j 1: each page's formulas go to a worker as soon as the page is read."""
    source, pages = _pages_with_one_formula_each(tmp_path, 6)
    sent = _recording_submissions(monkeypatch)
    read: list[str] = []
    app = make_app("html", srcdir=source, builddir=tmp_path / "build")
    app.connect("doctree-read", lambda _app, doctree: read.append(str(len(sent))), priority=1000)
    app.build(force_all=True)
    assert read == ["0", "1", "2", "3", "4", "5", "6"], "sent page by page as they are read"
    _assert_each_page_has_its_formula(app, pages)


@pytest.mark.sphinx(
    "html", testroot="math", freshenv=True, confoverrides={"playbook_math_display_align": "center"}
)
def test_display_math_can_be_centred(app):
    app.build()
    display = read_html(app).select_one("div.pb-math-display#equation-eq-memory")
    assert "pb-math-center" in display["class"]


@pytest.mark.sphinx("html", testroot="math", freshenv=True, confoverrides={"playbook_math": "off"})
def test_off_leaves_sphinxs_renderer(app):
    app.build()
    page = read_html(app)
    assert page.select(".katex") == []
    assert not any("katex" in href for href in stylesheets(page))


@pytest.mark.sphinx(
    "html", testroot="math", freshenv=True, confoverrides={"playbook_math": "mathml"}
)
def test_mathml_mode_writes_mathml_core_and_temml_css(app):
    app.build()
    page = read_html(app)
    assert page.select(".katex") == []
    formulas = page.select(".pb-body math:not(.pb-previews *)")  # not the {eq} link's card
    assert len(formulas) == 4
    assert formulas[0].select_one('annotation[encoding="application/x-tex"]') is not None
    assert "_static/temml/temml.css" in stylesheets(page)
    assert (app.outdir / "_static" / "temml" / "Temml.woff2").is_file()
    assert not any("katex" in href for href in stylesheets(page))


def _built_file(app, pattern: str) -> str:
    (path,) = Path(app.outdir).glob(pattern)
    return path.read_text(encoding="utf-8")


@pytest.mark.sphinx("epub", testroot="math", freshenv=True)
def test_epub_gets_mathml(app):
    app.build()
    page = BeautifulSoup(_built_file(app, "index.xhtml"), "html.parser")
    assert page.select(".katex") == []
    assert len(page.select("math")) == 4
    assert "_static/temml/temml.css" in stylesheets(page)
    manifest = _built_file(app, "content.opf")
    assert "_static/temml/temml.css" in manifest, "the stylesheet is packed into the EPUB"


@pytest.mark.sphinx("latex", testroot="math", freshenv=True)
def test_latex_keeps_native_math(app):
    app.build()
    tex = _built_file(app, "*.tex")
    assert r"\(\frac{1}{2} + \sum_{i=0}^{n} x_i^2\)" in tex
    assert "katex" not in tex


@pytest.mark.sphinx("text", testroot="math", freshenv=True)
def test_text_shows_the_tex(app):
    app.build()
    assert r"\frac{1}{2} + \sum_{i=0}^{n} x_i^2" in _built_file(app, "index.txt")
