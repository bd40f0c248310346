"""Math rendered at build time: KaTeX HTML + MathML (or Temml MathML), no script, no CDN."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import REPO, playbook_warnings, read_html
from fontTools.ttLib import TTFont

import sphinx_playbook.math as math_module
import sphinx_playbook.math.background as background_module
import sphinx_playbook.math.renderers as renderers_module
from sphinx_playbook.math.background import BackgroundRenderer
from sphinx_playbook.math.cache import FormulaCache, FormulaKeys
from sphinx_playbook.math.engines import ENGINES
from sphinx_playbook.math.fonts import FontFaces, characters_by_font, drawn_characters
from sphinx_playbook.math.renderers import KATEX, TEMML, render, render_many, render_site

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
    return json.dumps(json.loads((CORPUS / "macros.json").read_text()), sort_keys=True)


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


FORK_AFTER_ENGINE = """
import json, sys
from sphinx_playbook.math.renderers import KATEX, render, render_site
render(KATEX, "x", False)  # the engine is started in this process
formulas = [(f"x^{{{i}}}", False) for i in range(100)]  # enough to split in two processes
print(json.dumps([result.html for result in render_site(KATEX, formulas)]))
"""


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_site_renders_with_every_engine_after_the_engine_started(engine, tmp_path):
    """V8 cannot run in a child forked after it started (its threads are gone): with
    mini-racer the site is rendered in this process, and the markup is the same."""
    run = subprocess.run(
        [sys.executable, "-c", FORK_AFTER_ENGINE],
        env={**os.environ, "SPHINX_PLAYBOOK_JS_ENGINE": engine},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    markup = json.loads(run.stdout)
    assert markup == [render(KATEX, f"x^{{{i}}}", False).html for i in range(100)]


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


def test_a_site_rendered_in_two_processes_gets_the_same_markup():
    """render_site splits a large site over a forked child: same output, same order."""
    macros = corpus_macros()
    formulas = [*read_corpus(), (r"\frac{1}{2", False)]  # an error travels back too
    assert len(formulas) >= renderers_module._SPLIT_FROM, "large enough to be split"
    assert render_site(KATEX, formulas, macros) == render_many(KATEX, formulas, macros)


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


def test_the_background_child_renders_what_this_process_would():
    """Formulas sent page by page while Sphinx reads come back as render_many's markup,
    errors included, with the characters each font draws."""
    macros = corpus_macros()
    formulas = [*read_corpus(), (r"\frac{1}{2", False)]
    child = BackgroundRenderer.start(KATEX, macros, drawn_by_font)
    assert child is not None, "forking is allowed here (see the fixture below)"
    for start in range(0, len(formulas), 7):  # a page's worth at a time, some sent twice
        child.send(formulas[max(0, start - 2) : start + 7])
    wait_until(lambda: all(child._claims[: len(child._batches)]))  # the child took them all
    results = child.results()
    expected = render_many(KATEX, formulas, macros)
    assert [results[formula][0] for formula in formulas] == expected
    for formula, rendered in zip(formulas, expected, strict=True):
        fonts = results[formula][1]
        assert fonts == {k: "".join(sorted(v)) for k, v in drawn_by_font(rendered.html).items()}


def test_the_background_child_answers_page_by_page_at_a_lower_priority():
    """A page written waits for its own formulas only; nothing comes twice or is lost;
    the child takes what the build leaves of the cores."""
    macros = corpus_macros()
    formulas = read_corpus()
    pages = [formulas[start : start + 6] for start in range(0, len(formulas), 6)]
    child = BackgroundRenderer.start(KATEX, macros, drawn_by_font)
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    wait_until(lambda: os.getpriority(os.PRIO_PROCESS, child._pid) > ours)
    for page in pages:
        child.send(page)
    first = child.wait_for(pages[0][0])
    assert set(pages[0]) <= set(first), "the first page's batch came back whole"
    received = dict(first)
    while not child.finished:
        received.update(child.wait_for(next(f for f in formulas if f not in received)))
    later = child.take()
    assert not set(later) & set(first), "taken once"
    received.update(later)
    assert child.results() == {}, "everything had been taken"
    expected = render_many(KATEX, formulas, macros)
    assert [received[formula][0] for formula in formulas] == expected


def test_asked_early_this_process_renders_the_last_batches_itself():
    """The two meet in the middle: nothing is missing, nothing differs."""
    formulas = read_corpus()
    child = BackgroundRenderer.start(KATEX, corpus_macros(), drawn_by_font)
    for start in range(0, len(formulas), 5):
        child.send(formulas[start : start + 5])
    rendered_here: list[tuple[str, bool]] = []
    batch = child._render.batch
    child._render.batch = lambda part: (rendered_here.extend(part), batch(part))[1]
    results = child.results()
    assert rendered_here, "the last batches were not left to the child"
    assert len(rendered_here) < len(formulas), "the child rendered the first ones"
    expected = render_many(KATEX, formulas, corpus_macros())
    assert [results[formula][0] for formula in formulas] == expected


def test_waiting_for_a_batch_the_child_has_not_started_renders_it_here(monkeypatch):
    """After a -j read the child is behind: the page being written renders its own
    batch rather than wait, the child skips it, and the results still add up."""
    batch = background_module._Render.batch

    def slow_batch(self, formulas):  # inherited by the child: 0.3 s a batch
        time.sleep(0.3)
        return batch(self, formulas)

    monkeypatch.setattr(background_module._Render, "batch", slow_batch)
    formulas = read_corpus()[:9]
    pages = [formulas[start : start + 3] for start in range(0, 9, 3)]
    child = BackgroundRenderer.start(KATEX, corpus_macros(), drawn_by_font)
    for page in pages:
        child.send(page)
    rendered_here: list[tuple[str, bool]] = []

    def rendering_here(part):  # in this process, at full speed
        rendered_here.extend(part)
        return batch(child._render, part)

    monkeypatch.setattr(child._render, "batch", rendering_here)
    last_page = child.wait_for(pages[2][0])
    assert rendered_here == pages[2], "the last page's batch was rendered here"
    assert set(pages[2]) <= set(last_page)
    received = {**last_page, **child.results()}
    # results() then renders from the end what the child has not started: not page 3 again.
    assert len(rendered_here) == len(set(rendered_here)), "a batch was rendered here twice"
    expected = render_many(KATEX, formulas, corpus_macros())
    assert [received[formula][0] for formula in formulas] == expected


def test_a_background_child_that_dies_costs_only_what_it_had_claimed():
    """No hang, no exception: unclaimed batches are rendered here, the rest by the caller."""
    child = BackgroundRenderer.start(KATEX, "{}")
    child.send([("x", False)])
    wait_until(lambda: child._claims[0])
    os.kill(child._pid, signal.SIGKILL)
    delivered = child.results()  # "x" if its answer was sent before the child died
    assert delivered in ({}, {("x", False): (render(KATEX, "x", False), {})}), (
        "the child had claimed the batch: it is its, delivered or lost"
    )
    child = BackgroundRenderer.start(KATEX, "{}")
    os.kill(child._pid, signal.SIGKILL)
    child.send([("y", False)])
    assert child.results() == {("y", False): (render(KATEX, "y", False), {})}


@pytest.fixture(autouse=True)
def _fork_even_on_one_core(monkeypatch):
    """The background child's tests run on any machine with fork, one core or two."""
    monkeypatch.setattr(background_module, "can_fork", lambda: hasattr(os, "fork"))


def wait_until(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the background child never got there"
        time.sleep(0.01)


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
    formulas = page.select(".pb-body .katex")
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


@pytest.mark.sphinx("html", testroot="math", freshenv=True)
def test_the_stylesheet_names_only_files_that_exist(app):
    app.build()
    css_file = app.outdir / "_static" / "katex" / "katex.css"
    urls = re.findall(r"url\(([^)]+)\)", css_file.read_text(encoding="utf-8"))
    written = sorted(f"fonts/{font.name}" for font in (css_file.parent / "fonts").glob("*"))
    assert sorted(urls) == written, "one woff2 font per face the site draws with, nothing else"
    assert {"fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_AMS-Regular.woff2"} <= set(urls)
    assert len(urls) < 20, "faces no formula draws with are left out"
    assert (css_file.parent / "LICENSE.txt").is_file()


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
    written = sorted(
        f"_static/katex/fonts/{font.name}"
        for font in (app.outdir / "_static" / "katex" / "fonts").glob("*.woff2")
    )
    # The test root's one math page draws with every font the site uses.
    assert preloaded == written
    assert "_static/katex/fonts/KaTeX_Math-Italic.woff2" in preloaded
    assert read_html(app, "plain").select('link[rel="preload"]') == []


@pytest.mark.sphinx("html", testroot="math", freshenv=True)
def test_a_broken_formula_warns_at_its_line(app):
    app.build()
    assert playbook_warnings(app) == [
        f"{app.srcdir / 'index.md'}:18: WARNING: math: KaTeX parse error: Unexpected end of "
        "input in a macro argument, expected '}' at end of input: \\frac{1}{2; the formula is "
        "shown as TeX [playbook.math]"
    ]


def test_an_unchanged_formula_is_never_rendered_twice(make_app, tmp_path, monkeypatch, rootdir):
    """A fresh environment and a fresh process (a new cache object) still find the formulas.

    Formulas are rendered in the background child (what is sent to it is counted
    here, the child's own calls are in its memory) or in this process.
    """
    calls: list[str] = []

    def counting_render(library, formulas, macros="{}", engine=None):
        calls.extend(tex for tex, _display in formulas)
        return render_many(library, formulas, macros, engine)

    def counting_send(self, formulas):
        new = [formula for formula in formulas if formula not in self.sent]
        calls.extend(tex for tex, _display in dict.fromkeys(new))
        send(self, formulas)

    send, start = BackgroundRenderer.send, BackgroundRenderer.start.__func__
    children: list[BackgroundRenderer | None] = []
    monkeypatch.setattr(renderers_module, "render_many", counting_render)
    monkeypatch.setattr(BackgroundRenderer, "send", counting_send)

    def counting_start(cls, *arguments):
        children.append(start(cls, *arguments))
        return children[-1]

    monkeypatch.setattr(BackgroundRenderer, "start", classmethod(counting_start))
    build = tmp_path / "build"
    read_markup: list[str] = []
    katex_characters = math_module._katex_characters

    def counting_characters(markup: str) -> dict[str, set[str]]:
        read_markup.append(markup)
        return katex_characters(markup)

    monkeypatch.setattr(math_module, "_katex_characters", counting_characters)
    pages: list[str] = []
    for _ in range(2):
        monkeypatch.setattr(math_module, "CACHE", FormulaCache())
        app = make_app("html", srcdir=rootdir / "test-math", builddir=build, freshenv=True)
        app.build(force_all=True)
        pages.append(Path(app.outdir, "index.html").read_text(encoding="utf-8"))
        if _ == 0:
            assert len(calls) == 5, calls
            assert len(children) == 1 and children[0] is not None, "one child rendered them"
            calls.clear()
            read_markup.clear()
    assert calls == []
    assert len(children) == 1, "every formula was cached: no child was forked for nothing"
    assert read_markup == [], "the fonts' characters were read again, not taken from the cache"
    assert read_html(app).select(".katex")
    assert pages[0] == pages[1], "the page (its font preloads included) changed"


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


def test_a_parallel_read_sends_each_merged_page_to_the_child(make_app, tmp_path, monkeypatch):
    """-j 2: the workers read, the main process hands their formulas to the child as
    it merges them, and every page gets its markup."""
    source, pages = _pages_with_one_formula_each(tmp_path, 8)
    sent: list[tuple[int, str]] = []
    send = BackgroundRenderer.send

    def recording_send(self, formulas):
        sent.extend((os.getpid(), tex) for tex, _display in formulas)
        send(self, formulas)

    monkeypatch.setattr(BackgroundRenderer, "send", recording_send)
    monkeypatch.setattr(math_module, "CACHE", FormulaCache())
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", parallel=2)
    app.build(force_all=True)
    assert app.parallel == 2 and app.is_parallel_allowed("read"), "the read ran in workers"
    assert sorted(tex for _pid, tex in sent) == sorted(f"x_{{{n}}}" for n in range(8))
    assert {pid for pid, _tex in sent} == {os.getpid()}, "sent by the main process only"
    _assert_each_page_has_its_formula(app, pages)


def test_a_parallel_write_does_not_wait_for_the_whole_site(make_app, tmp_path, monkeypatch):
    """-j 2: a page's formulas are waited for when the main process resolves it, so
    a worker writes the first pages while the last ones are still being rendered.
    The worker inherits its pages' markup: it neither renders nor asks the child."""
    source, pages = _pages_with_one_formula_each(tmp_path, 40)
    log = tmp_path / "events.txt"

    def record(event: str, formulas: list | None = None) -> None:
        texts = ",".join(tex for tex, _display in formulas or ())
        with log.open("a", encoding="utf-8") as file:
            file.write(f"{os.getpid()} {event} {time.monotonic()} {texts}\n")

    batch = background_module._Render.batch

    def slow_batch(self, formulas):  # 40 batches of 50 ms: a second at least
        time.sleep(0.05)
        results = batch(self, formulas)
        record("batch-rendered", formulas)
        return results

    def recording_render(*arguments, **options):
        record("rendered-alone")
        return render(*arguments, **options)

    wait_for = BackgroundRenderer.wait_for

    def recording_wait_for(self, formula):
        record("waited")
        return wait_for(self, formula)

    monkeypatch.setattr(background_module._Render, "batch", slow_batch)
    monkeypatch.setattr(math_module, "render", recording_render)
    monkeypatch.setattr(BackgroundRenderer, "wait_for", recording_wait_for)
    monkeypatch.setattr(math_module, "CACHE", FormulaCache())
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", parallel=2)
    app.connect("html-page-context", lambda *_arguments: record("page-written"))
    app.build(force_all=True)

    main = os.getpid()
    events = [line.split(" ") for line in log.read_text(encoding="utf-8").splitlines()]
    workers = {pid for pid, event, *_ in events if event == "page-written" and int(pid) != main}
    assert workers, "no page was written by a -j worker"
    assert {event for pid, event, *_ in events if pid in workers} == {"page-written"}, (
        "a worker rendered a formula or asked the child for one"
    )
    rendered = [texts for _pid, event, _at, texts in events if event == "batch-rendered"]
    assert sorted(rendered) == sorted(f"x_{{{n}}}" for n in range(40))
    first_by_worker = min(float(at) for pid, _event, at, _ in events if pid in workers)
    last_rendered = max(float(at) for _pid, event, at, _ in events if event == "batch-rendered")
    assert first_by_worker < last_rendered, "the workers waited for every formula of the site"
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
    formulas = page.select(".pb-body math")
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
