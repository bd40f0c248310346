"""Notebook pages (myst-nb): outputs become our figures, tables and math.

The fixture notebook (tests/roots/test-notebooks, written by its generate.py) has
its outputs stored, so no kernel runs except in the execution test.
"""

from __future__ import annotations

import json
import re
import shutil
from importlib.metadata import version
from pathlib import Path

import pytest
from helpers import (
    build,
    copy_root,
    page_path,
    playbook_warnings,
    read_page,
    soup,
    sphinx_build,
    warning_text,
    write_project,
)

from sphinx_playbook.notebooks.plotly import PLOTLY_MIME

ORIGIN = re.compile(r"^(?:https?:)?//", re.IGNORECASE)
ROOT = Path(__file__).parent / "roots" / "test-notebooks"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    srcdir = copy_root("notebooks", tmp_path_factory.mktemp("nb") / "src")
    outdir = srcdir.parent / "html"
    result = sphinx_build("-N", "-q", "-b", "html", str(srcdir), str(outdir))
    return outdir, warning_text(result)


@pytest.fixture(scope="module")
def page(built: tuple[Path, str]):
    return read_page(built[0], "article")


def _figures(page) -> list:
    return page.select("figure.pb-interactive")


def test_a_plotly_output_is_an_interactive_figure(built, page) -> None:
    outdir, _ = built
    figure = page.find("figure", id="fig-loss")
    assert "pb-interactive" in figure["class"]
    frame = figure.find("iframe")
    assert frame["loading"] == "lazy"
    assert frame["src"].startswith("_interactive/")
    # The box is reserved before the frame loads (plotly's 450 px default height).
    frame_box = figure.select_one(".pb-interactive__frame")
    assert frame_box is not None and frame_box.get("class") != ["pb-interactive__frame"]
    # The frame page draws with the site's plotly.js, nothing from another origin.
    frame_page = soup(outdir / frame["src"])
    sources = [s["src"] for s in frame_page.find_all("script", src=True)]
    assert any("_static/interactive/plotly-" in s for s in sources)
    assert not [s for s in sources if ORIGIN.match(s)]
    # The output's own PNG is the static fallback.
    fallback = figure.select_one(".pb-interactive__fallback img")
    assert fallback is not None and fallback["src"].startswith("_images/")
    # One Plotly figure: no plain image of it besides.
    assert len(page.find("figure", id="fig-loss").find_all("img")) == 1


def test_plotly_is_served_once_for_the_site(built) -> None:
    outdir, _ = built
    bundles = list((outdir / "_static" / "interactive").glob("plotly*.js"))
    assert len(bundles) == 1


def test_without_an_image_the_alt_text_stands_with_a_located_warning(built, page) -> None:
    _, warnings = built
    bar = _figures(page)[1]
    assert bar.select_one(".pb-interactive__alt") is not None
    assert bar.find("img") is None
    # The bar chart's layout gives 600 x 400: its ratio is reserved.
    lines = [
        line for line in warnings.splitlines() if "Plotly figure without a static image" in line
    ]
    assert any("article.ipynb" in line and "cell 3 " in line for line in lines), warnings
    assert all("kaleido" in line for line in lines)


def test_plotly_html_from_a_cdn_is_served_from_the_site(built, page) -> None:
    outdir, warnings = built
    html_figure = _figures(page)[2]
    frame_page = soup(outdir / html_figure.find("iframe")["src"])
    sources = [s["src"] for s in frame_page.find_all("script", src=True)]
    assert sources and not [s for s in sources if ORIGIN.match(s)]
    assert any("_static/interactive/plotly-" in s for s in sources)
    assert any(
        "cell 4 of article.ipynb" in line and "cdn.plot.ly" in line
        for line in warnings.splitlines()
    )
    # Nothing on the article page itself loads from another origin either.
    assert not [t for t in page.find_all(src=True) if ORIGIN.match(t["src"])]


# -- Vega-Lite (Altair): tests/roots/test-notebooks/charts.ipynb ----------------------


@pytest.fixture(scope="module")
def charts(built: tuple[Path, str]):
    return read_page(built[0], "charts")


def _frame_page(outdir: Path, figure):
    return soup(outdir / figure.find("iframe")["src"])


def _loads(page) -> list[str]:
    """Every URL a page loads or links to (scripts, stylesheets, images, frames)."""
    return [
        tag.get("src") or tag.get("href")
        for tag in page.find_all(["script", "link", "img", "iframe"])
        if tag.get("src") or tag.get("href")
    ]


def test_a_vegalite_output_is_an_interactive_figure(built, charts) -> None:
    outdir, _ = built
    figure = charts.find("figure", id="fig-vl")
    assert "pb-interactive" in figure["class"]
    frame = figure.find("iframe")
    assert frame["loading"] == "lazy" and frame["src"].startswith("_interactive/charts-")
    # The box's height is reserved before the frame loads (a class from the page's
    # stylesheet, which the theme makes of the style attribute).
    assert figure.select_one(".pb-interactive__frame")["class"] != ["pb-interactive__frame"]
    assert "Throughput by GPU count" in figure.find("figcaption").get_text()
    frame_page = _frame_page(outdir, figure)
    sources = [s["src"] for s in frame_page.find_all("script", src=True)]
    assert [s for s in sources if "_static/interactive/vega-bundle-" in s]
    assert not [url for url in _loads(frame_page) if ORIGIN.match(url)]
    assert frame_page.select_one(".pb-vega") is not None
    # No image was stored: vl-convert drew the fallback, an SVG, when the site was built.
    fallback = figure.select_one(".pb-interactive__fallback img")
    assert fallback is not None and fallback["src"].endswith(".svg")
    drawn = soup(outdir / fallback["src"])
    assert drawn.find("svg") is not None and "Throughput" in drawn.get_text()
    assert frame_page.find("noscript").find("img") is not None


def test_vega_is_served_once_for_the_site(built, charts) -> None:
    outdir, _ = built
    assert len(list((outdir / "_static" / "interactive").glob("vega-bundle-*.js"))) == 1
    frames = [
        _frame_page(outdir, f) for f in charts.select("figure.pb-interactive") if f.find("iframe")
    ][:3]
    bundles = {
        s["src"]
        for page in frames
        for s in page.find_all("script", src=True)
        if "vega-bundle" in s["src"]
    }
    assert len(bundles) == 1


def test_altair_html_from_a_cdn_draws_with_the_site_copy(built, charts) -> None:
    outdir, _ = built
    figure = charts.select("figure.pb-interactive")[1]
    frame_page = _frame_page(outdir, figure)
    assert not [url for url in _loads(frame_page) if ORIGIN.match(url)]
    scripts = [
        outdir / "_interactive" / s["src"]
        for s in frame_page.find_all("script", src=True)
        if not s["src"].startswith("..")
    ]
    text = "".join(path.read_text(encoding="utf-8") for path in scripts)
    assert "Speed-up" in text and "jsdelivr" not in text and "vegaEmbed" in text
    assert figure.select_one(".pb-interactive__fallback img")["src"].endswith(".svg")
    # Nothing on the article page loads from another origin either.
    assert not [url for url in _loads(charts) if ORIGIN.match(url)]


def test_a_stored_image_is_the_vegalite_fallback(charts) -> None:
    figure = charts.select("figure.pb-interactive")[2]
    assert figure.find("iframe") is not None
    assert figure.select_one(".pb-interactive__fallback img")["src"].endswith(".png")


def test_vegalite_data_from_another_origin_stays_static_with_a_located_warning(
    built, charts
) -> None:
    _, warnings = built
    cell = next(c for c in charts.select(".cell") if "data.cars.url" in c.get_text())
    assert cell.find("iframe") is None
    assert cell.select_one(".pb-interactive__alt") is not None
    lines = [line for line in warnings.splitlines() if "cell 5 of charts.ipynb" in line]
    assert len(lines) == 1 and "cars.json" in lines[0] and "another origin" in lines[0]


def test_the_drawn_fallback_is_cached_by_content(tmp_path: Path) -> None:
    srcdir = copy_root("notebooks", tmp_path / "src")
    doctrees = tmp_path / "doctrees"
    build(srcdir, tmp_path / "one", "html", "-N", "-d", str(doctrees))
    cached = sorted((doctrees / "playbook-cache" / "vega").glob("*.svg"))
    # The two charts without a stored image, and the one stored as a PNG (its size).
    assert len(cached) == 3
    stamps = [path.stat().st_mtime_ns for path in cached]
    (srcdir / "charts.ipynb").touch()
    build(srcdir, tmp_path / "two", "html", "-N", "-E", "-d", str(doctrees))
    assert [path.stat().st_mtime_ns for path in cached] == stamps
    # A chart no page shows any more: its SVG leaves the cache (an incremental build).
    path = srcdir / "charts.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    del notebook["cells"][1]
    path.write_text(json.dumps(notebook), encoding="utf-8")
    build(srcdir, tmp_path / "two", "html", "-N", "-d", str(doctrees))
    kept = sorted((doctrees / "playbook-cache" / "vega").glob("*.svg"))
    assert len(kept) == 2 and set(kept) < set(cached)
    assert len(list((doctrees / "playbook-cache" / "vega").glob("vega-bundle-*.js"))) == 1


# -- Bokeh: what bokeh 3.9 stored for output_notebook() and show(p), in charts.ipynb ---


def test_a_bokeh_plot_is_an_interactive_figure_from_the_site_only(built, charts) -> None:
    outdir, warnings = built
    figure = charts.find("figure", id="fig-bokeh")
    assert "pb-interactive" in figure["class"]
    frame = figure.find("iframe")
    assert frame["loading"] == "lazy"
    assert "A Bokeh line." in figure.find("figcaption").get_text()
    frame_page = _frame_page(outdir, figure)
    assert not [url for url in _loads(frame_page) if ORIGIN.match(url)]
    sources = [s["src"] for s in frame_page.find_all("script", src=True)]
    assert [s for s in sources if "_static/interactive/bokeh-" in s]
    # The plot's own div, for Bokeh.embed.embed_items in the frame's script.
    assert frame_page.select_one(".pb-bokeh [data-root-id]") is not None
    scripts = [outdir / "_interactive" / s for s in sources if not s.startswith("..")]
    text = "".join(path.read_text(encoding="utf-8") for path in scripts)
    assert "Bokeh.embed.embed_items(" in text and "cdn.bokeh.org" not in text
    # No image: the cell's alt text, which the author gave, so no warning.
    assert figure.select_one(".pb-interactive__alt").get_text(strip=True) == "A line: 3, 1, 2."
    # charts.ipynb stores Bokeh 3.9.2: another release is said, naming both (an
    # environment with the oldest or newest packages may install one).
    served = version("bokeh")
    said = [line for line in warnings.splitlines() if "cell 7 of charts.ipynb" in line]
    if served.split(".")[:2] == ["3", "9"]:
        assert not said
    else:
        assert len(said) == 1
        assert "Bokeh 3.9.2" in said[0] and f"BokehJS {served}" in said[0]
        assert "bokeh==3.9.2" in said[0]


def test_a_plot_from_another_bokeh_release_is_said_with_what_to_install(tmp_path: Path) -> None:
    srcdir = copy_root("notebooks", tmp_path / "src")
    (srcdir / "article.ipynb").unlink()
    path = srcdir / "charts.ipynb"
    # The release show() wrote into the plot's document (JSON inside the cell's script).
    text = path.read_text(encoding="utf-8")
    assert text.count('\\"version\\":\\"3.9.2\\"') == 1
    path.write_text(text.replace('\\"version\\":\\"3.9.2\\"', '\\"version\\":\\"2.4.3\\"'))
    result = sphinx_build("-N", "-q", "-b", "html", str(srcdir), str(tmp_path / "out"))
    said = [line for line in warning_text(result).splitlines() if "Bokeh 2.4.3" in line]
    assert len(said) == 1
    assert "cell 7 of charts.ipynb" in said[0] and "[playbook.notebook]" in said[0]
    assert f"BokehJS {version('bokeh')}" in said[0] and "bokeh==2.4.3" in said[0]


def test_bokehs_loader_and_placeholders_leave_nothing_on_the_page(built, charts) -> None:
    outdir, _ = built
    # output_notebook()'s loader (BokehJS from a CDN) and logo, show()'s empty div.
    assert charts.find("script", string=lambda s: bool(s and "Bokeh" in s)) is None
    assert not charts.select(".bk-notebook-logo, [data-root-id]")
    assert not [url for url in _loads(charts) if ORIGIN.match(url)]
    assert "Loading BokehJS" not in charts.get_text()
    assert len(list((outdir / "_static" / "interactive").glob("bokeh-*.js"))) == 1


def test_the_height_of_a_bokeh_plot_is_reserved() -> None:
    from sphinx_playbook.notebooks.bokeh import read_exec_script, root_height

    outputs = json.loads((ROOT / "bokeh_outputs.json").read_text(encoding="utf-8"))
    read = read_exec_script(outputs[1]["outputs"][1]["data"]["application/javascript"])
    assert read is not None
    assert root_height(*read) == 300  # figure(width=400, height=300)


def test_legend_and_label_number_the_figure(page) -> None:
    figure = page.find("figure", id="fig-loss")
    caption = figure.find("figcaption")
    assert caption.select_one(".caption-number").get_text(strip=True) == "Fig. 1"
    assert "Training loss by step" in caption.get_text()
    refs = {a["href"]: a.get_text(" ", strip=True) for a in page.select("a.reference.internal")}
    assert refs.get("#fig-loss") == "Fig. 1"
    assert refs.get("#fig-grid") == "Fig. 2"
    # One <figure> per output: the legend went into the interactive figure.
    assert figure.find("figure") is None and figure.find_parent("figure") is None


def test_an_image_output_with_a_legend_in_a_layout_column(page) -> None:
    figure = page.find("figure", id="fig-grid")
    assert "l-page" in figure["class"]
    image = figure.find("img")
    assert image["src"].startswith("_images/")
    assert image.get("width") and image.get("height")  # sized: no layout shift
    assert figure.find("figcaption").select_one(".caption-number").get_text(strip=True)


def test_hidden_input_is_a_disclosure_without_javascript(page) -> None:
    figure = page.find("figure", id="fig-grid")
    cell = figure.find_parent(class_="cell")
    details = cell.find("details")
    assert details is not None and details.find("summary") is not None
    assert "plt.imshow" in details.get_text()
    assert details.find_parent("figure") is None  # the output stays visible


def test_removed_input_is_gone(page) -> None:
    assert "secret = 42" not in page.get_text()


def test_a_pandas_table_is_one_of_our_tables(page) -> None:
    table = page.find("table", class_="dataframe")
    assert {"docutils", "align-default"} <= set(table["class"])
    assert table.get("border") is None
    assert table.find_parent(class_="pst-scrollable-table-container") is not None
    assert not page.select(".pb-body style, article style")


def test_math_citations_and_title_in_a_notebook(page) -> None:
    assert page.select_one(".pb-title-block .pb-title").get_text(strip=True) == "Scaling a model"
    latex = page.find(class_="text_latex")
    assert latex is not None and latex.select_one(".katex") is not None
    assert len(page.select(".katex")) >= 3  # inline, display, and the text/latex output
    assert page.select("a[href^='#pb-cite']") or page.select(".pb-cite")


@pytest.mark.parametrize("order", ["myst_nb,sphinx_playbook", "sphinx_playbook,myst_nb"])
def test_either_order_of_extensions(tmp_path: Path, order: str) -> None:
    srcdir = copy_root("notebooks", tmp_path / "src")
    result = sphinx_build(
        "-N", "-q", "-b", "html", "-D", f"extensions={order}", str(srcdir), str(tmp_path / "out")
    )
    assert "unknown output mime type" not in warning_text(result)
    page = read_page(tmp_path / "out", "article")
    assert page.find("figure", id="fig-loss").find("iframe") is not None


def _edit(srcdir: Path) -> None:
    path = srcdir / "article.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cell = notebook["cells"][1]
    cell["metadata"]["playbook"]["legend"] = "Validation loss by step."
    figure = cell["outputs"][0]["data"]["application/vnd.plotly.v1+json"]
    figure["data"][0]["y"] = [4.0, 3.0, 2.0, 1.0]
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")


def _html_files(outdir: Path) -> dict[str, bytes]:
    """Every page, frame page, shared library and image a build wrote, by path."""
    return {
        str(path.relative_to(outdir)): path.read_bytes()
        for pattern in ("**/*.html", "_interactive/*", "_static/interactive/*", "_images/**/*")
        for path in outdir.glob(pattern)
        if path.is_file() and ".doctrees" not in path.parts
    }


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_a_rebuild_after_an_edit_equals_a_fresh_build(tmp_path: Path, builder: str) -> None:
    srcdir = copy_root("notebooks", tmp_path / "src")
    build(srcdir, tmp_path / "inc", builder, "-N")
    _edit(srcdir)
    build(srcdir, tmp_path / "inc", builder, "-N")
    fresh = copy_root("notebooks", tmp_path / "fresh-src")
    _edit(fresh)
    build(fresh, tmp_path / "fresh", builder, "-N")
    rebuilt = page_path(tmp_path / "inc", "article", builder).read_text(encoding="utf-8")
    again = page_path(tmp_path / "fresh", "article", builder).read_text(encoding="utf-8")
    assert "Validation loss by step." in rebuilt
    assert rebuilt == again
    frames = sorted(p.name for p in (tmp_path / "inc" / "_interactive").glob("*.html"))
    assert frames == sorted(p.name for p in (tmp_path / "fresh" / "_interactive").glob("*.html"))
    # Every file: the old figure's frame page is gone, the index page is the same.
    inc, fresh_files = _html_files(tmp_path / "inc"), _html_files(tmp_path / "fresh")
    assert sorted(inc) == sorted(fresh_files)
    assert [name for name in inc if inc[name] != fresh_files[name]] == []


def _notebook_book(srcdir: Path, copies: int = 6) -> list[str]:
    """Six more notebooks, each with its own labels and data (Sphinx reads and writes
    in parallel from six pages)."""
    text = (srcdir / "article.ipynb").read_text(encoding="utf-8")
    names = [f"nb{n}" for n in range(copies)]
    for n, name in enumerate(names):
        notebook = json.loads(
            text.replace("fig-loss", f"fig-loss-{n}").replace("fig-grid", f"fig-grid-{n}")
        )
        figure = notebook["cells"][1]["outputs"][0]["data"][PLOTLY_MIME]
        figure["data"][0]["y"] = [3.0 + n, 2.1, 1.6, 1.4]
        (srcdir / f"{name}.ipynb").write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    index = srcdir / "index.md"
    index.write_text(
        index.read_text(encoding="utf-8").replace(
            "article\n", "article\n" + "\n".join(names) + "\n"
        ),
        encoding="utf-8",
    )
    return names


def test_a_parallel_build_writes_what_a_serial_build_writes(tmp_path: Path) -> None:
    srcdir = copy_root("notebooks", tmp_path / "src")
    names = _notebook_book(srcdir)
    outputs, warnings = {}, {}
    for jobs in ("1", "2"):
        outdir = tmp_path / f"j{jobs}"
        result = sphinx_build("-N", "-q", "-j", jobs, "-b", "html", str(srcdir), str(outdir))
        warnings[jobs] = sorted(playbook_warnings(result))
        outputs[jobs] = _html_files(outdir)
    assert {f"{name}.html" for name in names} <= outputs["1"].keys()
    frames = [k for k in outputs["1"] if k.startswith("_interactive/") and k.endswith(".html")]
    # Three Plotly figures on each of the seven notebooks, three Vega-Lite charts, a
    # Bokeh plot.
    assert len(frames) == 3 * 7 + 3 + 1
    assert [k for k in outputs["1"] if k.startswith("_static/interactive/plotly")]
    assert sorted(outputs["1"]) == sorted(outputs["2"])
    assert [name for name in outputs["1"] if outputs["1"][name] != outputs["2"][name]] == []
    # Each notebook's warnings, once, whichever process read it.
    assert len([w for w in warnings["1"] if "without a static image" in w]) == 2 * 7
    assert warnings["1"] == warnings["2"]


# -- builders without frames: the figure, never its text/plain "Figure()" -------------

#: What cell 3 (a Plotly bar chart stored without an image) gets in the copy below.
BARS_ALT = "Three bars, a, b and c, of heights 1, 3 and 2."
BARS_CAPTION = "Throughput by group."
BARS_LEGEND = "Group b leads by a factor of three."
#: Cell 4 (plotly's text/html, no image) keeps the alt text made for it.
HTML_ALT = "Interactive figure (cell 4 of article.ipynb)"


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture with a legend, a label and alt text on the bar chart, built by the
    LaTeX, text and EPUB builders."""
    root = tmp_path_factory.mktemp("nb-elsewhere")
    srcdir = copy_root("notebooks", root / "src")
    path = srcdir / "article.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    bars = notebook["cells"][2]
    assert "image/png" not in bars["outputs"][0]["data"]
    bars["metadata"]["playbook"] = {
        "legend": f"{BARS_CAPTION}\n\n{BARS_LEGEND}",
        "label": "fig-bars",
        "alt": BARS_ALT,
    }
    path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    for builder in ("latex", "text", "epub"):
        build(srcdir, root / builder, builder, "-N")
    return root


def _tex_figures(tex: str) -> list[str]:
    return re.findall(r"\\begin\{figure\}.*?\\end\{figure\}", tex, re.DOTALL)


def _words(text: str) -> str:
    return " ".join(text.split())


def test_latex_shows_the_alt_text_and_legend_of_a_figure_without_an_image(elsewhere) -> None:
    tex = next((elsewhere / "latex").glob("*.tex")).read_text(encoding="utf-8")
    verbatim = re.findall(
        r"\\begin\{sphinxVerbatim\}.*?\n(.*?)\\end\{sphinxVerbatim\}", tex, re.DOTALL
    )
    assert verbatim and "Figure()" not in [block.strip() for block in verbatim]
    figures = {
        label: _words(figure)
        for figure in _tex_figures(tex)
        for label in re.findall(r"\\label\{\\detokenize\{article:([\w-]+)\}\}", figure) or [None]
    }
    bars = figures["fig-bars"]
    assert BARS_ALT in bars and f"\\caption{{{BARS_CAPTION}}}" in bars
    assert BARS_LEGEND in bars  # the legend below the caption, in the same figure
    assert "includegraphics" not in bars
    # The Plotly output stored as text/html, without an image: its alt text, as a figure.
    assert any(HTML_ALT in _words(figure) for figure in _tex_figures(tex))
    # A Plotly figure with its PNG: the image, captioned, labelled, as one figure.
    loss = figures["fig-loss"]
    assert "\\sphinxincludegraphics" in loss and "\\caption{Training loss by step." in loss


def test_text_shows_the_alt_text_and_legend_of_a_figure_without_an_image(elsewhere) -> None:
    text = (elsewhere / "text" / "article.txt").read_text(encoding="utf-8")
    blocks = [_words(block) for block in re.split(r"\n\s*\n", text) if block.strip()]
    assert "Figure()" not in blocks
    at = blocks.index(BARS_ALT)
    assert blocks[at + 1] == BARS_CAPTION and blocks[at + 2] == BARS_LEGEND
    assert HTML_ALT in blocks
    # Text takes no image: the one stored with the loss curve is its alt text.
    assert any(b.startswith("[image: Interactive figure: Training loss]") for b in blocks)


def test_epub_shows_the_image_or_the_alt_text_with_the_legend(elsewhere) -> None:
    page = soup(elsewhere / "epub" / "article.xhtml")
    assert page.find("iframe") is None and page.find("script", src=True) is None
    cells = [c.get_text(" ", strip=True) for c in page.select(".cell_output")]
    assert "Figure()" not in cells
    bars = page.find("figure", id="fig-bars")
    assert bars.select_one(".pb-interactive__alt").get_text(strip=True) == BARS_ALT
    assert BARS_CAPTION in bars.find("figcaption").get_text()
    assert BARS_LEGEND in bars.get_text(" ", strip=True)
    loss = page.find("figure", id="fig-loss")
    assert loss.find("img")["alt"] == "Interactive figure: Training loss"
    assert len(loss.find_all("img")) == 1 and loss.find_parent("figure") is None
    assert page.find(string=HTML_ALT) is not None


def test_a_priority_of_none_leaves_the_output_to_myst_nb(tmp_path: Path) -> None:
    srcdir = copy_root("notebooks", tmp_path / "src")
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(f"nb_mime_priority_overrides = [('text', {PLOTLY_MIME!r}, None)]\n")
    text = (build(srcdir, tmp_path / "text", "text", "-N") / "article.txt").read_text("utf-8")
    blocks = [_words(block) for block in re.split(r"\n\s*\n", text) if block.strip()]
    assert blocks.count("Figure()") == 2  # the JSON outputs, as myst-nb chooses
    assert HTML_ALT in blocks  # the text/html one is still the figure


EXECUTED = """---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  name: python3
  display_name: Python 3
---
# Executed

```{code-cell} ipython3
print(1 + 1)
```

```{code-cell} ipython3
raise ValueError("the data file is missing")
```

```{code-cell} ipython3
print("after")
```
"""


def test_a_cell_that_raises_is_named_in_a_located_warning(tmp_path: Path) -> None:
    conf = (
        'extensions = ["sphinx_playbook", "myst_nb"]\nhtml_theme = "sphinx_playbook"\n'
        'nb_execution_mode = "force"\nexclude_patterns = ["_build", "jupyter_execute"]\n'
    )
    srcdir = write_project(tmp_path / "src", {"index.md": EXECUTED}, conf=conf)
    result = sphinx_build("-N", "-q", "-b", "html", str(srcdir), str(tmp_path / "out"))
    lines = [line for line in warning_text(result).splitlines() if "[playbook.notebook]" in line]
    assert len(lines) == 1, lines
    assert "index.md:17" in lines[0]
    assert "cell 3" in lines[0] and "ValueError: the data file is missing" in lines[0]
    page = read_page(tmp_path / "out")
    assert "2" in page.select(".cell")[0].get_text()  # the first cell ran
    shutil.rmtree(tmp_path / "out")


def test_under_a_strict_policy_vega_interprets_its_expressions(tmp_path: Path) -> None:
    """Vega compiles expressions with Function(), which script-src 'self' refuses:
    vega-embed's ``ast`` interprets them instead (checked in Chromium by hand)."""
    srcdir = copy_root("notebooks", tmp_path / "src")
    with (srcdir / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write("playbook_csp = True\n")
    outdir = build(srcdir, tmp_path / "out", "html", "-N")
    figure = read_page(outdir, "charts").find("figure", id="fig-vl")
    frame_page = _frame_page(outdir, figure)
    policy = frame_page.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
    assert policy is not None and "'unsafe-eval'" not in policy["content"]
    sources = [s["src"] for s in frame_page.find_all("script", src=True)]
    scripts = [outdir / "_interactive" / s for s in sources if not s.startswith("..")]
    text = "".join(path.read_text(encoding="utf-8") for path in scripts)
    assert "ast: true" in text
