"""``interactive-figure``: real Plotly exports embedded as figures, checked in the HTML.

The root tests/roots/test-interactive holds the pages and a hand-written snippet;
its Plotly exports (plotly.js inlined: megabytes) are written at test time by the
root's generate_exports.py, into a copy of the root. Each build is made once per
module and read by many tests.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shutil
from pathlib import Path

import plotly
import pytest
from bs4 import BeautifulSoup
from helpers import FORKS_IN_THE_TEST_PROCESS, ROOTS, build_in_process, playbook_warnings, read_html
from page_styles import page_rules, style_of

from sphinx_playbook.csp import POLICY, policy
from sphinx_playbook.interactive.exports import read_export
from sphinx_playbook.latex.svg import converter as svg_converter

ROOT = ROOTS / "test-interactive"
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
FIGURE_IDS = ("fig-bar", "fig-scatter", "fig-fragment", "fig-snippet")


def copy_root_with_exports(target: Path) -> Path:
    """A copy of the root with its Plotly exports written into figures/."""
    shutil.copytree(ROOT, target)
    spec = importlib.util.spec_from_file_location("generate_exports", ROOT / "generate_exports.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write_exports(target / "figures")
    return target


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return copy_root_with_exports(tmp_path_factory.mktemp("interactive") / "src")


@pytest.fixture(scope="module")
def builds(source, tmp_path_factory):
    """One build per builder, made on first use."""
    made = {}

    def build(builder: str):
        if builder not in made:
            out = tmp_path_factory.mktemp(f"interactive-{builder}")
            made[builder] = build_in_process(source, builder, out)
        return made[builder]

    return build


@pytest.fixture(scope="module")
def html(builds):
    return builds("html")


@pytest.fixture(scope="module")
def page(html) -> BeautifulSoup:
    """index.md, with every figure of sandbox.md appended (one soup to search by id)."""
    soup = read_html(html, "index")
    soup.body.append(read_html(html, "sandbox").find(id="fig-sandbox"))
    return soup


def frame_of(soup: BeautifulSoup, figure_id: str):
    figure = soup.find(id=figure_id)
    return figure, figure.select_one(".pb-interactive__frame")


def frame_source(figure) -> str:
    """The frame page's URL, from the iframe or the inline loader's attribute."""
    iframe = figure.find("iframe")
    return iframe["src"] if iframe else figure.select_one("[data-pb-src]")["data-pb-src"]


def test_the_build_is_clean(html):
    assert playbook_warnings(html) == []


def test_each_figure_is_numbered_and_referenced(page):
    numbers = [page.find(id=i).select_one(".caption-number").text.strip() for i in FIGURE_IDS]
    assert numbers == [f"Figure {n}" for n in range(1, 5)]
    references = [a.get_text(strip=True) for a in page.select("p a.reference")][:2]
    assert references == ["Figure 1", "Figure 2"]
    bar = page.find(id="fig-bar")
    assert "l-body-outset" in bar["class"]
    assert bar.select_one(".legend").get_text(strip=True) == (
        "The export inlines plotly.js; the site serves its own copy instead."
    )


def test_frames_are_lazy_same_origin_pages_of_their_own(page, html):
    outdir = Path(html.outdir)
    for figure_id in ("fig-bar", "fig-scatter", "fig-sandbox", "fig-snippet"):
        iframe = page.find(id=figure_id).find("iframe")
        assert iframe["loading"] == "lazy"
        assert iframe["title"]
        src = iframe["src"]
        assert re.fullmatch(r"_interactive/[\w-]+-[0-9a-f]{12}\.html", src), src
        frame = outdir / src
        assert frame.is_file()
        # The name is the hash of the content: an edited export gets a new URL.
        assert src.endswith(hashlib.sha256(frame.read_bytes()).hexdigest()[:12] + ".html")
    assert page.find(id="fig-sandbox").find("iframe")["sandbox"] == ["allow-scripts"]
    assert page.find(id="fig-bar").find("iframe").get("sandbox") is None


def test_plotly_js_is_one_shared_file_loaded_only_inside_frames(page, html):
    outdir = Path(html.outdir)
    article_scripts = [s["src"] for s in page.find_all("script", src=True)]
    assert not [s for s in article_scripts if "plotly" in s or "://" in s]
    assert any(s.split("?")[0].endswith("sphinx-playbook-interactive.js") for s in article_scripts)

    shared = sorted((outdir / "_static" / "interactive").glob("*.js"))
    assert [p.name for p in shared] == [
        f"plotly-{hashlib.sha256(PLOTLY_JS.read_bytes()).hexdigest()[:12]}.js"
    ]
    assert shared[0].read_bytes() == PLOTLY_JS.read_bytes()
    plotly_frames = ("fig-bar", "fig-scatter", "fig-fragment", "fig-sandbox")
    for figure_id in plotly_frames:
        frame_path = outdir / frame_source(page.find(id=figure_id))
        frame = BeautifulSoup(frame_path.read_text(encoding="utf-8"), "html.parser")
        sources = [s["src"] for s in frame.find_all("script", src=True)]
        plotly_sources = [s for s in sources if "plotly" in s or "://" in s]
        assert plotly_sources == [f"../_static/interactive/{shared[0].name}"], figure_id
        # The export's own scripts are files beside the frame (a strict CSP runs no
        # inline script); none of them is plotly.js left inlined.
        assert not frame.find_all("script", src=False), figure_id
        own = [frame_path.parent / s for s in sources if not s.startswith("../")]
        assert own and max(p.stat().st_size for p in own) < 20_000, "plotly.js was left inlined"
        assert frame_path.stat().st_size < 40_000
    snippet = outdir / frame_source(page.find(id="fig-snippet"))
    snippet_frame = BeautifulSoup(snippet.read_text(encoding="utf-8"), "html.parser")
    # No library: the snippet's own script (a file beside it) and the frame's.
    snippet_sources = [s["src"].split("?")[0] for s in snippet_frame.find_all("script")]
    assert not [s for s in snippet_sources if "plotly" in s or "/" in s.removeprefix("../_static/")]
    assert snippet_sources[-1] == "../_static/sphinx-playbook-frame.js"
    assert snippet_frame.find("svg") is not None


def test_the_box_is_reserved_from_the_export_or_the_options(page, html):
    rules = {
        **page_rules(read_html(html, "index"), Path(html.outdir, "index.html")),
        **page_rules(read_html(html, "sandbox"), Path(html.outdir, "sandbox.html")),
    }
    styles = {
        i: style_of(page.find(id=i).select_one(".pb-interactive__frame"), rules)
        for i in (*FIGURE_IDS, "fig-sandbox")
    }
    assert "aspect-ratio: 800 / 500;" in styles["fig-bar"]  # Plotly layout.width/height
    assert "aspect-ratio: 4 / 3;" in styles["fig-scatter"]  # :aspect-ratio:
    assert styles["fig-fragment"] == "height: 420px;"  # :height:
    assert "aspect-ratio: 640 / 400;" in styles["fig-sandbox"]
    assert "--pb-min-width: 640px;" in styles["fig-sandbox"]  # :narrow: scroll keeps it
    assert "aspect-ratio: 300 / 150;" in styles["fig-snippet"]  # the snippet's <svg> size


def test_fallbacks_follow_the_frame_and_fill_the_frame_without_javascript(page, html):
    outdir = Path(html.outdir)
    expected = {
        "fig-bar": "_images/bar_inlined.svg",  # same stem, chosen among .svg and .png
        "fig-scatter": "_images/scatter-static.svg",  # :fallback:
        "fig-sandbox": "_images/bar_sandbox.svg",
    }
    for figure_id, image in expected.items():
        figure = page.find(id=figure_id)
        fallback = figure.select_one(".pb-interactive__fallback")
        img = fallback.find("img")
        assert img["src"] == image and (outdir / image).is_file()
        assert img["alt"] == figure.find("iframe")["title"]
        assert fallback.find("a")["href"] == frame_source(figure)
        frame = BeautifulSoup(
            (outdir / frame_source(figure)).read_text(encoding="utf-8"), "html.parser"
        )
        noscript = BeautifulSoup(frame.find("noscript").decode_contents(), "html.parser")
        assert noscript.find("img")["src"] == "../" + image
    for figure_id in ("fig-fragment", "fig-snippet"):
        alt = page.find(id=figure_id).select_one(".pb-interactive__fallback .pb-interactive__alt")
        assert alt.get_text(strip=True) == page.find(id=figure_id).find(
            class_="pb-interactive__alt"
        ).get_text(strip=True)
    assert (
        page.find(id="fig-snippet").select_one(".pb-interactive__alt").get_text(strip=True)
        == "Two blue bars, the left one taller."
    )


def test_narrow_modes_are_classes_the_css_reads(page):
    modes = {
        i: [c for c in page.find(id=i)["class"] if c.startswith("pb-interactive--")]
        for i in (*FIGURE_IDS, "fig-sandbox")
    }
    assert modes == {
        "fig-bar": ["pb-interactive--narrow-image"],
        "fig-scatter": ["pb-interactive--narrow-scale"],
        "fig-fragment": ["pb-interactive--narrow-image"],
        "fig-sandbox": ["pb-interactive--narrow-scroll"],
        "fig-snippet": ["pb-interactive--narrow-image"],
    }


def test_the_inline_loader_is_small_and_only_on_pages_with_inline_figures(html):
    loader = Path(html.outdir, "_static", "sphinx-playbook-interactive.js")
    # It also links the export's own stylesheet and runs its scripts as files (CSP).
    assert loader.stat().st_size <= 1200
    rest = read_html(html, "rest")
    assert not [s for s in rest.find_all("script", src=True) if "interactive" in s["src"]]


def test_myst_and_rest_make_the_same_figure(page, html):
    rest = read_html(html, "rest")
    myst_figure, rest_figure = page.find(id="fig-bar"), rest.find(id="fig-rest-bar")
    assert myst_figure.find("iframe")["src"] == rest_figure.find("iframe")["src"]
    for selector in (".caption-text", ".legend", ".pb-interactive__frame"):
        assert str(myst_figure.select_one(selector)) == str(rest_figure.select_one(selector))
    assert myst_figure["class"] == rest_figure["class"]


def test_dirhtml_computes_each_pages_frame_url(builds):
    app = builds("dirhtml")
    outdir = Path(app.outdir)
    for page_path, prefix in (("index.html", ""), ("rest/index.html", "../")):
        soup = BeautifulSoup((outdir / page_path).read_text(encoding="utf-8"), "html.parser")
        src = soup.find("iframe")["src"]
        assert src.startswith(prefix + "_interactive/")
        assert (outdir / page_path).parent.joinpath(src).resolve().is_file()


@pytest.mark.parametrize("builder", ["text", "latex", "epub"])
def test_other_builders_get_the_static_figure_and_its_legend(builds, builder):
    app = builds(builder)
    warnings = playbook_warnings(app)
    converted = builder == "latex" and not isinstance(svg_converter(), str)
    if builder == "latex" and not converted:
        # No Cairo library (macOS and Windows runners): the SVG fallbacks print their
        # alt text, and the build says so once, with the install command.
        assert len(warnings) == 1, warnings
        assert 'pip install "sphinx-playbook[pdf]"' in warnings[0]
        assert warnings[0].endswith("[playbook.svg_pdf]")
    else:
        assert warnings == []
    outdir = Path(app.outdir)
    written = " ".join(
        " ".join(p.read_text(encoding="utf-8").split())
        for p in outdir.rglob("*")
        if p.suffix in (".txt", ".tex", ".xhtml")
    )
    assert "Throughput as data parallelism scales." in written
    assert "A fragment that calls Plotly without loading it, shown inline." in written
    assert "<iframe" not in written and "_interactive" not in written
    assert not (outdir / "_interactive").exists()
    if converted:
        # Every fallback's SVG as a vector PDF (latex/svg.py; tests/paper reads them back),
        # bar_inlined's too, though a PNG is beside it.
        for name in ("bar_inlined", "bar_sandbox", "scatter-static"):
            assert rf"\sphinxincludegraphics{{{{{name}}}.pdf}}" in written, name
    elif builder == "latex":
        assert r"\sphinxincludegraphics{{bar_inlined}.png}" in written  # PNG where SVG cannot go


BAD_WARNINGS = [
    "index.md:3: WARNING: interactive-figure: the export 'figures/missing.html' does not "
    "exist; only the static fallback is shown [playbook.interactive]",
    "index.md:7: WARNING: interactive-figure: invalid value 'shadow' for :isolation: "
    "(expected one of iframe, inline, sandbox); ignored [playbook.interactive]",
    "index.md:7: WARNING: interactive-figure: invalid value 'shrink' for :narrow: "
    "(expected one of image, scale, scroll); ignored [playbook.interactive]",
    "index.md:7: WARNING: interactive-figure: invalid value 'later' for :loading: "
    "(expected one of lazy, eager); ignored [playbook.interactive]",
    "index.md:7: WARNING: interactive-figure: invalid value 'wide' for :aspect-ratio: "
    "(expected a ratio such as 16/9, 4:3 or 1.5); ignored [playbook.interactive]",
    "index.md:7: WARNING: interactive-figure: no size could be read from "
    "'figures/unsized.html'; reserving a 16:9 box. Give :aspect-ratio: (e.g. 4/3) or "
    ":height: (e.g. 450px) [playbook.interactive]",
    "index.md:15: WARNING: interactive-figure: 'figures/remote.html' loads "
    "https://cdn.example.com/charts.min.js from another origin and it is not a library the "
    "site can serve; it is removed. Inline it in the export, or load a library that "
    "playbook_interactive_libraries names [playbook.interactive]",
    "index.md:20: WARNING: interactive-figure: 'figures/vega.html' needs the vega library "
    "from another origin and the site has no local copy; it is removed. Set "
    'playbook_interactive_libraries = {"vega": "path/to/vega.min.js"} in conf.py '
    "[playbook.interactive]",
    "index.md:24: WARNING: interactive-figure: 'figures/unsized.html' has no static fallback "
    "and no :alt: text; readers without JavaScript, print and other formats get nothing. Add "
    ":alt: or :fallback:, or put an image with the same name (.svg, .png, .webp) beside the "
    "export [playbook.interactive]",
    "index.md:28: WARNING: interactive-figure: :fallback: 'figures/nowhere.png' does not "
    "exist; the alt text is shown instead [playbook.interactive]",
]


def test_bad_input_is_reported_where_it_is_and_the_page_still_builds(make_app, tmp_path):
    app = make_app("html", srcdir=ROOTS / "test-interactive-bad", builddir=tmp_path / "build")
    app.build()
    warnings = [line.split("test-interactive-bad/", 1)[1] for line in playbook_warnings(app)]
    assert warnings == BAD_WARNINGS
    soup = read_html(app, "index")
    figures = soup.select("figure.pb-interactive")
    assert len(figures) == 6
    # The missing export leaves its alt text; the remote scripts are gone from every frame.
    assert figures[0].find("iframe") is None
    assert figures[0].get_text(" ", strip=True) == "A figure whose export is missing."
    for frame in Path(app.outdir, "_interactive").iterdir():
        assert "https://" not in frame.read_text(encoding="utf-8")
    rules = page_rules(soup, Path(app.outdir, "index.html"))
    assert style_of(figures[1].select_one(".pb-interactive__frame"), rules) == (
        "aspect-ratio: 16 / 9;"
    )


def test_editing_an_export_rewrites_only_the_pages_that_embed_it(source, tmp_path, make_app):
    src = tmp_path / "src"
    shutil.copytree(source, src)
    first = make_app("html", srcdir=src, builddir=tmp_path / "build")
    first.build()
    before = read_html(first, "index").find(id="fig-snippet").find("iframe")["src"]
    snippet = src / "figures" / "snippet.html"
    snippet.write_text(
        snippet.read_text(encoding="utf-8").replace("#3b82c4", "#e4572e"), encoding="utf-8"
    )
    again = make_app("html", srcdir=src, builddir=tmp_path / "build")
    again.build()
    status = re.sub(r"\x1b\[[0-9;]*m", "", again.status.getvalue())
    assert "1 changed" in status  # index.md, not rest.rst
    assert "reading sources... [100%] index" in status
    after = read_html(again, "index").find(id="fig-snippet").find("iframe")["src"]
    assert after != before and Path(again.outdir, after).is_file()


@FORKS_IN_THE_TEST_PROCESS
def test_parallel_build_writes_what_a_serial_build_writes(source, tmp_path, make_app):
    """Six pages (Sphinx reads in parallel from six), each with one figure."""
    src = tmp_path / "src"
    shutil.copytree(source, src)
    index = (src / "index.md").read_text(encoding="utf-8")
    pages = [f"p{n}" for n in range(6)]
    for name in pages:
        (src / f"{name}.md").write_text(
            f"# Page {name}\n\n:::{{interactive-figure}} figures/scatter_fragment.html\n"
            ":alt: A curve.\n:height: 300px\n\nA curve.\n:::\n",
            encoding="utf-8",
        )
    (src / "index.md").write_text(index.replace("rest\n```", "rest\n" + "\n".join(pages) + "\n```"))
    outputs = {}
    for jobs in (1, 2):
        app = make_app("html", srcdir=src, builddir=tmp_path / f"j{jobs}", parallel=jobs)
        app.build()
        assert playbook_warnings(app) == []
        out = Path(app.outdir)
        outputs[jobs] = {
            str(p.relative_to(out)): p.read_bytes()
            for pattern in ("*.html", "_interactive/*", "_static/interactive/*")
            for p in out.glob(pattern)
            if p.name not in ("genindex.html", "search.html")
        }
    assert outputs[1].keys() == outputs[2].keys()
    assert {k for k in outputs[1] if k.startswith("_static/interactive/")}  # merged libraries
    assert outputs[1] == outputs[2]


def test_reading_exports_without_plotly_or_with_other_libraries():
    vega = read_export(
        '<script src="https://cdn.jsdelivr.net/npm/vega-lite@5"></script>'
        '<script>vegaEmbed("#v", {"width": 420, "height": 260, "mark": "bar"})</script>'
    )
    assert vega.libraries == ("vega-lite",) and vega.size == (420.0, 260.0)
    bokeh = read_export(
        '<script src="https://cdn.bokeh.org/bokeh/release/bokeh-3.4.1.min.js"></script>'
        '<script type="application/json">{"attributes": {"width": 600, "height": 350}}</script>'
    )
    assert bokeh.libraries == ("bokeh",) and bokeh.size == (600.0, 350.0)
    assert "cdn.bokeh.org" not in bokeh.html
    plain = read_export('<canvas width="320" height="200"></canvas>')
    assert plain.libraries == () and plain.size == (320.0, 200.0)


def test_plotly_layout_size_when_the_layout_is_the_last_argument():
    for config in ("", ', {"responsive": true}'):
        html = f'<script>Plotly.newPlot("d", [], {{"width": 500, "height": 300}}{config})</script>'
        assert read_export(html).size == (500.0, 300.0)


def _plotly_stylesheet_link(soup: BeautifulSoup):
    return soup.head.find("link", id="plotly.js-style-global")


def test_plotly_css_is_a_linked_file_so_a_strict_policy_holds(source, tmp_path):
    """plotly.js's stylesheet is read from the bundle into one file, linked with the id
    and class that stop plotly.js injecting a <style>: every page that runs plotly.js
    (its frames, the article of an inline figure) gets the strict policy."""
    built = build_in_process(source, "html", tmp_path / "csp", playbook_csp=True)
    out = Path(built.outdir)
    pages = [("index", read_html(built, "index"))]  # holds the inline Plotly fragment
    pages += [
        (path.name, BeautifulSoup(path.read_text("utf-8"), "html.parser"))
        for path in sorted((out / "_interactive").glob("*.html"))
    ]
    plotly_pages = [
        (name, soup)
        for name, soup in pages
        if name == "index" or any("plotly" in s["src"] for s in soup.find_all("script", src=True))
    ]
    assert len(plotly_pages) >= 4
    sheets = set()
    for name, soup in plotly_pages:
        meta = soup.head.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
        assert meta is not None and meta["content"] == POLICY, name
        link = _plotly_stylesheet_link(soup)
        assert link is not None and link["class"] == ["no-inline-styles"], name
        sheets.add(link["href"].split("?")[0].rsplit("/", 1)[-1])
    assert len(sheets) == 1, sheets  # one file for the site
    css = (out / "_static" / "interactive" / sheets.pop()).read_text("utf-8")
    assert ".js-plotly-plot .plotly .modebar{position:absolute;" in css.replace(" {", "{")


def test_a_plotly_without_the_hook_gets_inline_style_elements_allowed(source, tmp_path):
    """plotly.js 2.x injects its <style> whatever is linked: its figures' pages keep
    allowing inline style elements (and only those), as docs/security.md says."""
    src = tmp_path / "src"
    shutil.copytree(source, src)
    old = PLOTLY_JS.read_text("utf-8").replace("no-inline-styles", "no-such-class")
    (src / "plotly-old.min.js").write_text(old, "utf-8")
    built = build_in_process(
        src,
        "html",
        tmp_path / "out",
        playbook_csp=True,
        playbook_interactive_libraries={"plotly": "plotly-old.min.js"},
    )
    index = read_html(built, "index")
    meta = index.head.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
    assert meta["content"] == policy(True) != POLICY
    assert _plotly_stylesheet_link(index) is None
