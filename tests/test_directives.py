"""The content directives: same doctree from MyST and reST, HTML a reader gets, bad input."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import sphinx
from helpers import CONF, build, playbook_warnings, read_html, read_page, write_project
from page_styles import page_rules, style_of


def resolved_doctree(app, docname: str = "index") -> str:
    """The doctree as the HTML writer sees it, minus what only differs by syntax.

    Left out: source paths, the ``name`` reST gives named links, MyST's MathJax
    marker classes on sections and the empty text nodes of its soft line breaks;
    booleans are written the way the newest docutils writes them.
    """
    # Sphinx 9 wants the tags passed; 8.2 does not know the keyword.
    keywords = {"tags": app.tags} if sphinx.version_info >= (9,) else {}
    doctree = app.env.get_and_resolve_doctree(docname, app.builder, **keywords)
    text = doctree.pformat()
    text = re.sub(r'source="[^"]*"', 'source=""', text)
    text = re.sub(r'(<reference) name="[^"]*"', r"\1", text)
    text = text.replace('classes="tex2jax_ignore mathjax_ignore" ', "")
    # docutils 0.21 writes booleans as True/False, 0.22 as 1/0.
    text = text.replace('="True"', '="1"').replace('="False"', '="0"')
    return "\n".join(line for line in text.splitlines() if line.strip()) + "\n"


def legend_text(figure) -> str:
    """What the figure's legend says, without its number and permalink."""
    caption = copy.copy(figure.find("figcaption"))
    for extra in caption.select(".caption-number, .headerlink"):
        extra.decompose()
    return caption.get_text(" ", strip=True)


@pytest.mark.parametrize("flavour", ["myst", "rst"])
def test_doctree_snapshot_is_the_same_for_myst_and_rst(
    make_app, rootdir, tmp_path, flavour, file_regression
):
    """One snapshot file for both syntaxes: they must produce the same tree."""
    app = make_app(
        "html", srcdir=rootdir / f"test-directives-{flavour}", builddir=tmp_path / "build"
    )
    app.build()
    assert app.warning.getvalue() == ""
    file_regression.check(resolved_doctree(app), basename="directives_doctree", extension=".txt")


@pytest.mark.sphinx("html", testroot="directives-myst")
def test_html_a_reader_gets(app):
    app.build()
    page = read_html(app)
    body = page.select_one(".pb-body")
    # Style attributes are classes of the page's own stylesheet (strict CSP).
    rules = page_rules(page, Path(app.outdir, "index.html"))

    # aside: a real <aside>, named, right after the paragraph it annotates
    first = body.select_one("aside#first-aside")
    assert "pb-aside" in first["class"]
    assert first.find_previous_sibling().name == "p"
    # two asides in a row share one gutter cell
    stack = body.select_one(".pb-aside-stack")
    assert [a.get_text(strip=True)[:9] for a in stack.select("aside")] == ["The first", "The secon"]
    assert "extra" in stack.select("aside")[1]["class"]

    # figure-legend: the image and the legend became one numbered figure
    figure = body.select_one("figure#fig-host")
    assert figure.find("img")["alt"] == "Host and device"
    caption = figure.find("figcaption")
    assert caption.select_one(".caption-number").get_text(strip=True) == "Figure 1"
    assert caption.find("a")["href"] == "https://example.org/gpu-computing"
    refs = [a.get_text() for a in body.select("a .std-numref")]
    assert refs == ["Figure 1", "Figure 2", "Figure 3"]
    # every figure-like block joins its legend: code, table, raw HTML, a figure
    code = body.select_one("figure#fig-code")
    assert code.select_one(".highlight-python") is not None
    assert legend_text(code) == "The backward pass."
    captions = {legend_text(figure): figure for figure in body.find_all("figure")}
    assert captions["A table with its legend."].find("table") is not None
    assert captions["Raw HTML with its legend."].find("svg") is not None
    own = captions["Its own caption. A legend added under the caption."]
    assert own.find("img")["alt"] == "A figure of its own"
    column = body.select(".pb-side-by-side")[1]
    assert style_of(column, rules) == "--pb-columns: repeat(2, minmax(0, 1fr));"
    assert legend_text(column.find("figure")) == "The left column\u2019s legend."  # smart quote
    # the named aside is a cross-reference target
    assert body.find("a", string=None, href="#first-aside").get_text() == ("the reading-time note")

    # wide-image: a band across the screen, image sized from the file, lazy
    band = body.select_one(".pb-wide-image")
    assert "l-screen" in band["class"]
    assert "--pb-band-bg: white;" in style_of(band, rules)
    assert "--pb-band-max: 1200px;" in style_of(band, rules)
    image = band.select_one(".pb-wide-image__strip img")
    assert (image["width"], image["height"]) == ("1600", "400")
    assert image["loading"] == "lazy"
    assert image["alt"] == "A wide blue band"
    assert band.select_one("figure#fig-band figcaption").get_text(strip=True).startswith("Figure 2")

    # side-by-side: one column per code block, highlighting kept
    columns = body.select_one(".pb-side-by-side")
    assert style_of(columns, rules) == "--pb-columns: 1fr 1fr;"
    assert len(columns.find_all(recursive=False)) == 2
    assert columns.select(".highlight-c .highlight pre .kt")

    # layout: containers in the named columns
    assert body.select_one(".l-page").get_text(strip=True) == "Content in the page column."
    assert body.select_one(".l-screen-inset") is not None


EXPECTED_BAD = [
    (
        3,
        "figure_legend",
        "figure-legend: nothing before it to caption; it is shown as a standalone legend.",
    ),
    (9, "aside", "aside: unknown option :colour:; the options are :class:, :name:"),
    (15, "aside", "aside: has no content; write the text to show inside the directive"),
    (18, "wide_image", "wide-image: invalid value 'red; position: fixed' for :background:"),
    (18, "wide_image", "wide-image: invalid value '100vh; color: red' for :width:"),
    (18, "wide_image", "wide-image: 'images/band.png' has no :alt: text; describe the image"),
    (18, "wide_image", "wide-image: :target: 'javascript:alert(1)' is refused"),
    (28, "side_by_side", "side-by-side: invalid value '1fr; position: fixed' for :columns:"),
    (
        28,
        "side_by_side",
        "side-by-side: invalid value 'middle' for :align: (expected one of start, center, end)",
    ),
    (
        37,
        "layout",
        "layout: unknown column 'sidebar'; write one of body, body-outset, page, "
        "screen, screen-inset, gutter",
    ),
    (41, "aside", "aside: contains another aside; the inner one is shown inline in this one"),
]


@pytest.mark.sphinx("html", testroot="directives-bad")
def test_bad_input_warns_at_its_line_and_the_page_still_builds(app):
    app.build()
    warnings = playbook_warnings(app)
    path = str(app.srcdir / "index.md")
    for line, subtype, text in EXPECTED_BAD:
        matches = [
            w
            for w in warnings
            if w.startswith(f"{path}:{line}: WARNING: {text}")
            and w.endswith(f"[playbook.{subtype}]")
        ]
        assert len(matches) == 1, (line, text, warnings)
    assert len(warnings) == len(EXPECTED_BAD), warnings
    everything = app.warning.getvalue()
    assert "Traceback" not in everything
    assert "image file not readable: images/missing.png" in everything  # Sphinx's own warning
    page = read_html(app)
    rules = page_rules(page, Path(app.outdir, "index.html"))
    # Nothing unsafe reached the page, and the rest of it is there.
    band = page.select(".pb-wide-image")[0]
    assert "--pb-band-bg" in style_of(band, rules)
    assert "position" not in style_of(band, rules)
    assert not page.select('a[href^="javascript"]')
    columns = page.select_one(".pb-side-by-side")
    assert "--pb-columns" in style_of(columns, rules)
    assert "position" not in style_of(columns, rules)
    assert page.select(".pb-body section > p")[-1].get_text() == (
        "The rest of the page still builds."
    )


@pytest.mark.sphinx(
    "html",
    testroot="directives-bad",
    confoverrides={
        "suppress_warnings": [
            "playbook.aside",
            "playbook.figure_legend",
            "playbook.wide_image",
            "playbook.side_by_side",
            "playbook.layout",
            "image.not_readable",
        ]
    },
)
def test_each_directive_has_its_own_suppressible_subtype(app):
    app.build()
    assert app.warning.getvalue() == ""


@pytest.mark.parametrize(
    "extensions",
    [
        ["sphinx_playbook"],
        ["sphinx_design", "sphinx_playbook"],
        ["sphinx_playbook", "sphinx_design"],
    ],
)
def test_aside_is_ours_whatever_the_extension_order(make_app, rootdir, tmp_path, extensions):
    """sphinx-design 0.8 registers ``aside`` too; ours must win, silently."""
    app = make_app(
        "html",
        srcdir=rootdir / "test-directives-myst",
        builddir=tmp_path / "build",
        confoverrides={"extensions": extensions},
    )
    app.build()
    assert app.warning.getvalue() == ""
    page = read_html(app)
    assert page.select_one("aside#first-aside.pb-aside") is not None
    assert page.select(".sd-aside") == []


@pytest.mark.parametrize("theme", ["alabaster", "pydata_sphinx_theme"])
def test_other_themes_get_the_directives_css(make_app, rootdir, tmp_path, theme):
    app = make_app(
        "html",
        srcdir=rootdir / "test-directives-myst",
        builddir=tmp_path / "build",
        confoverrides={"html_theme": theme},
    )
    app.build()
    assert app.warning.getvalue() == ""
    page = read_html(app)
    links = [link["href"] for link in page.find_all("link", rel="stylesheet")]
    assert any("sphinx-playbook-components.css" in href for href in links)
    assert not any("styles/sphinx-playbook.css" in href for href in links)
    assert page.select_one("aside.pb-aside") is not None
    assert (app.outdir / "_static" / "sphinx-playbook-components.css").exists()


@pytest.mark.sphinx("text", testroot="directives-myst")
def test_text_builder_keeps_every_word(app):
    app.build()
    text = (app.outdir / "index.txt").read_text(encoding="utf-8")
    for phrase in (
        "Reading time: 2-4 days.",
        "The second of two asides in a row",
        "Source: Coding Confessions.",
        "An optional legend for the band.",
        "__global__ void VecAdd",
        "Content in the page column.",
    ):
        assert phrase in text


def test_a_second_legend_captions_a_figure_that_has_a_legend(make_app, tmp_path):
    """Found by the property test: the caption came after the legend, and the HTML
    writers closed <figcaption> before opening it (invalid HTML)."""
    import shutil
    from pathlib import Path

    import html5lib

    source = tmp_path / "src"
    (source / "images").mkdir(parents=True)
    shutil.copy(Path(__file__).parent.parent / "docs/images/band.png", source / "images")
    (source / "conf.py").write_text('extensions = ["sphinx_playbook"]\n', encoding="utf-8")
    (source / "index.rst").write_text(
        "T\n=\n\n.. image:: images/band.png\n\n.. figure-legend::\n\n"
        "   .. image:: images/band.png\n\n.. figure-legend::\n\n   The caption.\n",
        encoding="utf-8",
    )
    app = make_app("html", srcdir=source, builddir=tmp_path / "build")
    app.build()
    assert playbook_warnings(app) == []
    parser = html5lib.HTMLParser(strict=False)
    parser.parse((app.outdir / "index.html").read_text(encoding="utf-8"))
    assert parser.errors == []
    figcaption = read_html(app).select_one("figure figcaption")
    assert figcaption.select_one("p").get_text().removesuffix("¶") == "The caption."
    assert figcaption.select_one(".legend img") is not None


SIDE_BY_SIDE_WITH_LEGEND = {
    "index.md": (
        "# T\n\n::::{side-by-side}\n:name: panels\n\nLeft.\n\nRight.\n::::\n\n"
        ":::{figure-legend}\nBoth panels.\n:::\n\nSee {numref}`panels`.\n"
    ),
    "index.rst": (
        "T\n=\n\n.. side-by-side::\n   :name: panels\n\n   Left.\n\n   Right.\n\n"
        ".. figure-legend::\n\n   Both panels.\n\nSee :numref:`panels`.\n"
    ),
}


@pytest.mark.parametrize("page", sorted(SIDE_BY_SIDE_WITH_LEGEND))
def test_a_named_block_with_a_legend_is_one_numbered_figure(tmp_path, page):
    """Found on an imported article: the block's :name: was written on the figure the
    legend makes and on the block inside it, two elements with one id; and the
    figure took the grid's classes."""
    source = write_project(
        tmp_path / "src", {page: SIDE_BY_SIDE_WITH_LEGEND[page]}, conf=CONF + "numfig = True\n"
    )
    html = read_page(build(source, tmp_path / "out"))
    named = html.select("#panels")
    assert [element.name for element in named] == ["figure"]
    assert "pb-side-by-side" not in named[0]["class"]
    assert named[0].select_one(".pb-side-by-side") is not None
    references = html.select("a.reference[href='#panels']")
    assert [link.get_text(strip=True) for link in references] == ["Fig. 1"]
