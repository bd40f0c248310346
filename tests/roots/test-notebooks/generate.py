"""Writes article.ipynb and charts.ipynb: small notebooks with their outputs stored
(no kernel needed); bokeh_outputs.json holds what bokeh stored.

Run it again after changing a cell here: `python generate.py`. The outputs stand for
what plotly, altair, matplotlib, pandas and sympy would store; the images are tiny PNGs.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path


def png(width: int, height: int, rgb: bytes = b"\x33\x66\x99") -> str:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    rows = b"".join(b"\0" + rgb * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return base64.b64encode(b"\x89PNG\r\n\x1a\n" + data).decode("ascii")


def markdown(source: str, **metadata: object) -> dict:
    return {"cell_type": "markdown", "metadata": metadata, "source": source}


def code(source: str, outputs: list[dict], **metadata: object) -> dict:
    return {
        "cell_type": "code",
        "execution_count": 1,
        "metadata": metadata,
        "outputs": outputs,
        "source": source,
    }


def display(data: dict, **metadata: object) -> dict:
    return {"output_type": "display_data", "data": data, "metadata": metadata}


PLOTLY = {
    "data": [{"type": "scatter", "mode": "lines", "x": [1, 2, 3, 4], "y": [3.0, 2.1, 1.6, 1.4]}],
    "layout": {"title": {"text": "Training loss"}, "template": {"layout": {}}},
    "config": {"plotlyServerURL": "https://plot.ly"},
}
PLOTLY_BAR = {
    "data": [{"type": "bar", "x": ["a", "b", "c"], "y": [1, 3, 2]}],
    "layout": {"width": 600, "height": 400},
}
PLOTLY_HTML = """<div>
<script src="https://cdn.plot.ly/plotly-2.35.2.min.js"></script>
<div id="c0ffee" class="plotly-graph-div" style="height:420px; width:100%;"></div>
<script type="text/javascript">window.PLOTLYENV=window.PLOTLYENV || {};
if (document.getElementById("c0ffee")) {Plotly.newPlot("c0ffee", [{"type": "scatter", "x": [1, 2], "y": [2, 1]}], {"height": 420}, {"responsive": true})};</script>
</div>"""  # noqa: E501 (the script as plotly writes it)
PANDAS = """<div>
<style scoped>
    .dataframe tbody tr th:only-of-type { vertical-align: middle; }
</style>
<table border="1" class="dataframe">
  <thead><tr style="text-align: right;"><th></th><th>gpus</th><th>throughput</th></tr></thead>
  <tbody>
    <tr><th>0</th><td>8</td><td>1.0</td></tr>
    <tr><th>1</th><td>64</td><td>7.6</td></tr>
  </tbody>
</table>
</div>"""

CELLS = [
    markdown(
        "# Scaling a model\n\n"
        "A notebook written as an article. The loss falls as $1/\\sqrt{t}$ "
        "{cite}`kaplan2020`, see {numref}`fig-loss` and {numref}`fig-grid`.\n\n"
        "$$\nL(t) = \\frac{a}{\\sqrt{t}} + b\n$$\n"
    ),
    code(
        "import plotly.express as px\npx.line(x=[1, 2, 3, 4], y=[3.0, 2.1, 1.6, 1.4])",
        [
            display(
                {
                    "application/vnd.plotly.v1+json": PLOTLY,
                    "image/png": png(64, 36),
                    "text/plain": "Figure()",
                }
            )
        ],
        playbook={
            "legend": "Training loss by step. The curve flattens after step 3.",
            "label": "fig-loss",
        },
    ),
    code(
        "fig = px.bar(x=['a', 'b', 'c'], y=[1, 3, 2], width=600, height=400)\nfig.show()",
        [display({"application/vnd.plotly.v1+json": PLOTLY_BAR, "text/plain": "Figure()"})],
    ),
    code(
        "fig.show(renderer='notebook_connected')",
        [display({"text/html": PLOTLY_HTML, "text/plain": "Figure()"})],
    ),
    code(
        "import matplotlib.pyplot as plt\nplt.imshow(grid)",
        [display({"image/png": png(80, 60, b"\xcc\x44\x22"), "text/plain": "<Figure>"})],
        tags=["hide-input"],
        playbook={"legend": "The device grid.", "label": "fig-grid", "layout": "page"},
    ),
    code(
        "df",
        [
            {
                "output_type": "execute_result",
                "execution_count": 1,
                "metadata": {},
                "data": {"text/html": PANDAS, "text/plain": "   gpus  throughput"},
            }
        ],
    ),
    code(
        "sympy.Integral(x**2, x)",
        [
            {
                "output_type": "execute_result",
                "execution_count": 1,
                "metadata": {},
                "data": {
                    "text/latex": "$\\displaystyle \\int x^{2}\\, dx$",
                    "text/plain": "Integral(x**2, x)",
                },
            }
        ],
    ),
    code("secret = 42", [], tags=["remove-input"]),
    markdown("## Conclusion\n\nThe end.\n"),
]


def vegalite(version: str, title: str, values: list[dict], **extra: object) -> dict:
    return {
        "$schema": f"https://vega.github.io/schema/vega-lite/{version}.json",
        "config": {"view": {"continuousWidth": 300, "continuousHeight": 300}},
        "data": {"values": values},
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "gpus", "type": "quantitative"},
            "y": {"field": "throughput", "type": "quantitative"},
        },
        "title": title,
        **extra,
    }


THROUGHPUT = [{"gpus": 8, "throughput": 1.0}, {"gpus": 64, "throughput": 7.6}]


def altair_html(spec: dict) -> str:
    """What altair 5 and 6's default (html) renderer stores, shortened: a script that
    loads Vega from a CDN, then calls vegaEmbed with the spec."""
    return (
        "<style>\n  #altair-viz-1.vega-embed {\n    width: 100%;\n    display: flex;\n  }\n"
        '</style>\n<div id="altair-viz-1"></div>\n<script type="text/javascript">\n'
        '  var VEGA_DEBUG = (typeof VEGA_DEBUG == "undefined") ? {} : VEGA_DEBUG;\n'
        "  (function(spec, embedOpt){\n"
        "    let outputDiv = document.currentScript.previousElementSibling;\n"
        "    const paths = {\n"
        '      "vega": "https://cdn.jsdelivr.net/npm/vega@6?noext",\n'
        '      "vega-lite": "https://cdn.jsdelivr.net/npm/vega-lite@6.4.1?noext",\n'
        '      "vega-embed": "https://cdn.jsdelivr.net/npm/vega-embed@7?noext",\n'
        "    };\n"
        "    function maybeLoadScript(lib, version) {\n"
        "      return new Promise(function(resolve, reject) {\n"
        "        var s = document.createElement('script');\n"
        '        document.getElementsByTagName("head")[0].appendChild(s);\n'
        "        s.onload = () => resolve(paths[lib]);\n"
        "        s.src = paths[lib];\n"
        "      });\n"
        "    }\n"
        "    function displayChart(vegaEmbed) { vegaEmbed(outputDiv, spec, embedOpt); }\n"
        '    maybeLoadScript("vega", "6")\n'
        '      .then(() => maybeLoadScript("vega-lite", "6.4.1"))\n'
        '      .then(() => maybeLoadScript("vega-embed", "7"))\n'
        "      .then(() => displayChart(vegaEmbed));\n"
        f'  }})({json.dumps(spec)}, {{"mode": "vega-lite"}});\n'
        "</script>"
    )


CHART_CELLS = [
    markdown("# Charts\n\nAltair's charts as the notebook stores them: see {numref}`fig-vl`.\n"),
    code(
        "alt.renderers.enable('mimetype')\nalt.Chart(df).mark_line(point=True).encode(...)",
        [
            display(
                {
                    "application/vnd.vegalite.v5+json": vegalite(
                        "v5.20.1", "Throughput", THROUGHPUT
                    ),
                    "text/plain": "<VegaLite 5 object>",
                }
            )
        ],
        playbook={
            "legend": "Throughput by GPU count. It grows almost linearly.",
            "label": "fig-vl",
        },
    ),
    code(
        "alt.Chart(df).mark_line(point=True).encode(...)  # the default renderer",
        [
            {
                "output_type": "execute_result",
                "execution_count": 1,
                "metadata": {},
                "data": {
                    "text/html": altair_html(vegalite("v6.4.1", "Speed-up", THROUGHPUT)),
                    "text/plain": "alt.Chart(...)",
                },
            }
        ],
    ),
    code(
        "chart  # altair 4, with its PNG",
        [
            display(
                {
                    "application/vnd.vegalite.v4+json": vegalite("v4.17.0", "Old", THROUGHPUT),
                    "image/png": png(60, 40, b"\x22\x88\x44"),
                    "text/plain": "<VegaLite 4 object>",
                }
            )
        ],
    ),
    code(
        "alt.Chart(data.cars.url).mark_point()",
        [
            display(
                {
                    "application/vnd.vegalite.v5+json": {
                        "$schema": "https://vega.github.io/schema/vega-lite/v5.20.1.json",
                        "data": {
                            "url": "https://cdn.jsdelivr.net/npm/vega-datasets@2/data/cars.json"
                        },
                        "mark": {"type": "point"},
                        "encoding": {"x": {"field": "Horsepower", "type": "quantitative"}},
                    },
                    "text/plain": "<VegaLite 5 object>",
                }
            )
        ],
    ),
]

#: What bokeh 3.9 stored for output_notebook() and show(p), run in a kernel (the
#: outputs as they were, so that the test sees bokeh's own loader and scripts).
BOKEH = json.loads(Path(__file__).with_name("bokeh_outputs.json").read_text(encoding="utf-8"))
CHART_CELLS += [
    code(BOKEH[0]["source"], BOKEH[0]["outputs"]),
    code(
        BOKEH[1]["source"],
        BOKEH[1]["outputs"],
        playbook={"legend": "A Bokeh line.", "label": "fig-bokeh", "alt": "A line: 3, 1, 2."},
    ),
]


def notebook(cells: list[dict]) -> dict:
    for index, cell in enumerate(cells):
        cell["id"] = f"cell-{index}"
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


if __name__ == "__main__":
    for name, cells in (("article", CELLS), ("charts", CHART_CELLS)):
        Path(__file__).with_name(f"{name}.ipynb").write_text(
            json.dumps(notebook(cells), indent=1) + "\n", encoding="utf-8"
        )
