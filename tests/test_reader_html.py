"""The reader's side in the written pages (issue 30): dark variants of images, zoom
links, interactive figures that follow the mode, [role=main] for search excerpts, the
``myst`` highlighting of MyST listings and the docs' fallback image.

The browser tests (tests/browser/test_reader.py) look at the same root in Chromium.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import REPO, ROOTS, build_in_process, playbook_warnings, read_html, soup
from pygments.token import Generic, Name

from sphinx_playbook.theme.myst_lexer import MystLexer

ROOT = ROOTS / "test-reader-myst"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    """The reader root built with html and text, once for the module."""
    return {
        builder: build_in_process(ROOT, builder, tmp_path_factory.mktemp(f"reader-{builder}"))
        for builder in ("html", "text")
    }


@pytest.fixture(scope="module")
def html(built):
    return built["html"]


def test_the_build_is_clean(html):
    assert not playbook_warnings(html)


@pytest.mark.parametrize(
    ("docname", "figure", "stem"),
    [
        ("index", "fig-band", "band"),
        ("index", "fig-chart", "chart"),
        ("rest", "rst-band", "band"),
        ("rest", "rst-chart", "chart"),
    ],
)
def test_an_image_and_its_dark_variant(html, docname, figure, stem):
    """``:dark:`` on wide-image and figure-legend, in MyST and reST: the light image and
    then the dark one, each in its own zoom link marked with its mode, same alt text."""
    links = read_html(html, docname).find(id=figure).select("a.pb-zoom")
    assert [link["class"] for link in links] == [
        ["pb-zoom", "only-light"],
        ["pb-zoom", "only-dark"],
    ]
    assert [link.img["src"] for link in links] == [
        f"_images/{stem}-light.svg",
        f"_images/{stem}-dark.svg",
    ]
    assert [link["href"] for link in links] == [link.img["src"] for link in links]
    assert links[0].img["alt"] == links[1].img["alt"] != ""
    for link in links:
        assert Path(html.outdir, link.img["src"]).is_file()
        assert link.img["width"] and link.img["height"]


def test_the_band_strip_keeps_its_own_classes(html):
    strip = read_html(html).find(id="fig-band").select_one(".pb-wide-image__strip")
    assert strip["class"] == ["pb-wide-image__strip"]


def test_other_builders_show_one_image(built):
    """The text builder (and LaTeX, EPUB...) get the light image only."""
    text = Path(built["text"].outdir, "rest.txt").read_text(encoding="utf-8")
    assert text.count("[image: Three circles on a band]") == 1
    assert text.count("[image: Three bars, falling]") == 1


def test_images_of_figures_link_to_their_file_and_fallbacks_do_not(html):
    soup = read_html(html)
    side = soup.select(".pb-side-by-side figure")
    assert len(side) == 2
    for figure in side:
        link = figure.select_one("a.pb-zoom")
        assert link is not None and link["href"] == "_images/chart-light.svg"
    for fallback in soup.select(".pb-interactive__fallback"):
        assert not fallback.select("a.pb-zoom")


def _frame(html, figure: str) -> tuple[dict, BeautifulSoup]:
    iframe = read_html(html).find(id=figure).find("iframe")
    page = Path(html.outdir, iframe["src"]).read_text(encoding="utf-8")
    return iframe.attrs, BeautifulSoup(page, "html.parser")


def test_interactive_figures_follow_the_mode_unless_fixed(html):
    follow, page = _frame(html, "fig-throughput")
    assert follow.get("data-pb-theme") == "follow"
    # The frame's own script (a file: no inline script under a strict CSP) is told to
    # follow the mode.
    assert page.select('script[src*="sphinx-playbook-frame.js"][data-pb-follow]')
    fixed, page = _frame(html, "fig-fixed")
    assert "data-pb-theme" not in fixed
    assert page.select('script[src*="sphinx-playbook-frame.js"]')
    assert not page.select("script[data-pb-follow]")


@pytest.mark.parametrize("docname", ["index", "search"])
def test_main_is_the_role_main_search_reads(html, docname):
    """Sphinx's searchtools.js reads excerpts from [role=main]: one, the <main>."""
    mains = read_html(html, docname).select('[role="main"]')
    assert [main.name for main in mains] == ["main"]


def test_myst_listings_are_highlighted_as_myst(html):
    block = read_html(html, "rest").select_one("div.highlight-myst pre")
    assert block.select_one("span.nt").get_text() == "{code-block}"
    assert not block.select("span.ge"), "a * in C code is not emphasis"
    assert "float" in [span.get_text() for span in block.select("span.kt")]


MYST = """Some *emphasis*, **strong** and {numref}`fig-a`, $a*b$.

````{aside}
:name: note

Reading time: 2-4 days.

```{code-block} c
void add(float *a, float *b) { /* sum */ }
```
````

```python
x = 2 * 3 * 4
```

:::{note}
A colon fence.
:::
"""


def test_the_myst_lexer_reads_directives_roles_and_code():
    tokens = list(MystLexer().get_tokens(MYST))
    assert "".join(value for _, value in tokens) == MYST
    of = {}
    for token, value in tokens:
        of.setdefault(value, token)
    assert of["{aside}"] is Name.Tag and of["{code-block}"] is Name.Tag
    assert of["{note}"] is Name.Tag
    assert of[":name:"] is Name.Attribute
    assert of["{numref}"] is Name.Function
    assert of["*emphasis*"] is Generic.Emph and of["**strong**"] is Generic.Strong
    emphasised = [value for token, value in tokens if token is Generic.Emph]
    assert emphasised == ["*emphasis*"], "only *emphasis*: not the C or Python stars"
    assert of["float"] in (Name.Builtin, Name.Builtin.Type) or "Keyword" in str(of["float"])


def test_the_docs_fallback_shows_the_exports_axis_titles():
    """The phone fallback of the docs' Plotly figure names both axes like the export."""
    export = (REPO / "docs/figures/dp_scaling.html").read_text(encoding="utf-8")
    layout = json.loads(
        re.search(r"Plotly\.newPlot\(\s*\"[^\"]+\",\s*\[.*?\],\s*(\{.*\}),", export, re.S).group(1)
    )
    titles = [layout[axis]["title"]["text"] for axis in ("xaxis", "yaxis")]
    svg = soup(REPO / "docs/figures/dp_scaling.svg")
    texts = [text.get_text() for text in svg.find_all("text")]
    for title in titles:
        assert title in texts


BAD_MYST = """# Bad

```{wide-image} band.svg
:alt: A band
:dark: missing-band.svg
```

Text.

```{figure-legend}
:dark: missing-chart.svg

A legend with nothing before it.
```
"""

BAD_RST = """Bad
===

.. wide-image:: band.svg
   :alt: A band
   :dark: missing-band.svg
"""


@pytest.mark.parametrize(("name", "text"), [("index.md", BAD_MYST), ("index.rst", BAD_RST)])
def test_a_missing_dark_variant_is_a_located_warning(tmp_path, make_app, name, text):
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(ROOT / "conf.py", source / "conf.py")
    shutil.copy(ROOT / "images/band-light.svg", source / "band.svg")
    (source / name).write_text(text, encoding="utf-8")
    app = make_app("html", srcdir=source)
    app.build()
    warnings = playbook_warnings(app)
    band = [w for w in warnings if "missing-band.svg" in w]
    assert len(band) == 1 and "[playbook.wide_image]" in band[0]
    assert re.search(rf"{name}:\d+: WARNING", band[0]), band[0]
    if name.endswith(".md"):
        chart = [w for w in warnings if "missing-chart.svg" in w]
        assert len(chart) == 1 and "[playbook.figure_legend]" in chart[0]
    soup = read_html(app)
    assert not soup.select(".only-dark")
    assert len(soup.select(".pb-wide-image img")) == 1
