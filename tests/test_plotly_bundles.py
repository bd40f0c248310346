"""plotly.js: each figure gets the smallest official bundle that draws its traces."""

from __future__ import annotations

import re
from pathlib import Path

import plotly
import pytest
from helpers import CONF, read_page, soup, sphinx_build, write_project

FULL = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
RELEASE = re.search(rb"v(\d+\.\d+\.\d+)", FULL.read_bytes()[:200]).group(1).decode()  # type: ignore[union-attr]


def _bundle(name: str, release: str, traces: list[str], size: int) -> str:
    """A stand-in for an npm partial bundle: its banner and its trace modules."""
    modules = "".join(f'{{moduleType:"trace",name:"{t}"}};' for t in traces)
    text = f"/**\n* plotly.js ({name} - minified) v{release}\n*/\n{modules}\n"
    return text + "/*" + "x" * (size - len(text) - 4) + "*/"


def _export(kind: str, data: str | None = None) -> str:
    data = data or f'[{{"type": "{kind}", "z": [[1, 2]], "x": [1, 2], "y": [3, 4]}}]'
    return (
        f'<div id="{kind}" style="width:400px;height:300px"></div>\n'
        f'<script>Plotly.newPlot("{kind}", {data}, {{"width": 400, "height": 300}})</script>\n'
    )


def make_project(root: Path) -> Path:
    book = root / "book"
    modules = root / "node_modules"  # beside the book, as `npm install` in the repository
    for name, release, traces, size in (
        ("basic", RELEASE, ["bar", "pie", "scatter"], 40_000),
        ("cartesian", RELEASE, ["bar", "heatmap", "histogram", "pie", "scatter"], 60_000),
        ("geo", "0.0.1", ["scatter", "scattergeo", "sankey"], 30_000),  # another release
    ):
        bundle = f"plotly.js-{name}-dist-min/plotly-{name}.min.js"
        write_project(modules, {bundle: _bundle(name, release, traces, size)})
    figures = {
        "line": _export("scatter"),
        "untyped": _export("line", '[{"x": [1, 2], "y": [3, 4]}]'),  # no type: a scatter
        "heat": _export("heatmap"),
        "flow": _export("sankey"),
        "computed": _export("scatter", "window.traces"),  # not JSON: cannot be read
        # As a minifier writes it (the Ultra-Scale Playbook's exports): JS, not JSON,
        # with a tab in a string (JavaScript allows it, JSON does not).
        "minified": _export("bar", "[{type:'bar',x:[.5,1.],y:[3,4e1],visible:!0,text:\"a\tb\"}]"),
        # A menu button that restyles the scatter into a heatmap.
        "menu": _export("scatter").replace(
            '{"width": 400, "height": 300}',
            '{"updatemenus": [{"buttons": [{"method": "restyle", '
            '"args": [{"type": "heatmap"}]}]}]}',
        ),
        # A trace added after the first drawing, of a type the call does not show.
        "added": _export("scatter").replace(
            ")</script>", ").then(() => Plotly.addTraces('added', {type: 'heatmap'}))</script>"
        ),
    }
    pages = {  # page: its figures
        "index": ["line", "untyped"],
        "heat": ["heat"],
        "mixed": ["line", "heat"],
        "flow": ["flow"],
        "computed": ["computed"],
        "minified": ["minified"],
        "menu": ["menu"],
        "added": ["added"],
    }
    files = {f"figures/{name}.html": html for name, html in figures.items()}
    for page, names in pages.items():
        lines = [f"# Page {page}", ""]
        for name in names:
            lines += [
                f":::{{interactive-figure}} figures/{name}.html",
                f":alt: The {name} figure.",
                ":aspect-ratio: 4/3",
                "",
                f"The {name} figure.",
                ":::",
                "",
            ]
        if page == "index":
            lines += ["```{toctree}", *[p for p in pages if p != "index"], "```"]
        files[f"{page}.md"] = "\n".join(lines)
    return write_project(book, files, conf=CONF + 'project = "Plots"\n')


def _plotly_of_each_figure(outdir: Path, page: str) -> dict[str, bytes]:
    chosen = {}
    for frame in read_page(outdir, page).select("iframe"):
        name = frame["title"].removeprefix("The ").removesuffix(" figure.")
        script = next(
            s for s in soup(outdir / frame["src"]).select("script[src]") if "plotly" in s["src"]
        )
        chosen[name] = ((outdir / frame["src"]).parent / script["src"]).resolve().read_bytes()
    return chosen


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(tmp_path_factory.mktemp("bundles"))


def test_each_page_loads_the_smallest_bundle_that_draws_its_figures(project: Path) -> None:
    outdir = project.parent / "html"
    sphinx_build("-q", "-W", "-b", "html", str(project), str(outdir))
    modules = project.parent / "node_modules"
    basic = (modules / "plotly.js-basic-dist-min" / "plotly-basic.min.js").read_bytes()
    cartesian = (modules / "plotly.js-cartesian-dist-min" / "plotly-cartesian.min.js").read_bytes()
    full = FULL.read_bytes()
    assert _plotly_of_each_figure(outdir, "index") == {"line": basic, "untyped": basic}
    assert _plotly_of_each_figure(outdir, "heat") == {"heat": cartesian}
    # One bundle per page: two scatter plots and a heatmap load the cartesian one once.
    assert _plotly_of_each_figure(outdir, "mixed") == {"line": cartesian, "heat": cartesian}
    # Only another release's bundle registers sankey; unknown traces need the whole.
    assert _plotly_of_each_figure(outdir, "flow") == {"flow": full}
    assert _plotly_of_each_figure(outdir, "computed") == {"computed": full}
    assert _plotly_of_each_figure(outdir, "minified") == {"minified": basic}
    # What a menu can switch to, or a later call add, must be drawable too.
    assert _plotly_of_each_figure(outdir, "menu") == {"menu": cartesian}
    assert _plotly_of_each_figure(outdir, "added") == {"added": full}
    # Each bundle once on the site, shared by the pages that need it.
    written = sorted(
        p.read_bytes() for p in (outdir / "_static" / "interactive").glob("plotly-*.js")
    )
    assert written == sorted([basic, cartesian, full])


def test_a_configured_file_is_used_as_it_is(project: Path, tmp_path: Path) -> None:
    outdir = tmp_path / "html"
    sphinx_build(
        "-q", "-b", "html", "-D", f"playbook_interactive_libraries.plotly={FULL}",
        str(project), str(outdir),
    )  # fmt: skip
    for page in ("index", "heat", "mixed"):
        assert set(_plotly_of_each_figure(outdir, page).values()) == {FULL.read_bytes()}
