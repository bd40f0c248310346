"""Writes article.ipynb: a small notebook with its outputs stored (no kernel needed).

Run it again after changing a cell here: `python generate.py`. The outputs stand for
what plotly, matplotlib, pandas and sympy would store; the images are tiny PNGs.
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

NOTEBOOK = {
    "cells": CELLS,
    "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}

if __name__ == "__main__":
    for index, cell in enumerate(CELLS):
        cell["id"] = f"cell-{index}"
    Path(__file__).with_name("article.ipynb").write_text(
        json.dumps(NOTEBOOK, indent=1) + "\n", encoding="utf-8"
    )
