"""Writes the notebook ``sphinx-playbook new --notebooks`` puts in a book, with real outputs.

Its outputs are stored so that the new book's first build runs no kernel. They are
what plotly and matplotlib give when the cells run, not hand-written stand-ins: this
script runs the notebook in a Jupyter kernel (nbclient, ipykernel) and keeps the
result, without timestamps, so that running it twice writes the same figures.

Needs plotly, matplotlib, kaleido (the Plotly figure's PNG; it finds an installed
Chrome or Chromium, or the one ``BROWSER_PATH`` names) and ipykernel::

    .venv/bin/python scripts/make_scaffold_notebook.py
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient

TARGET = (
    Path(__file__).resolve().parents[1]
    / "sphinx_playbook"
    / "cli"
    / "scaffold"
    / "notebooks"
    / "figures.ipynb"
)
#: The scaffold must stay small: a package file and a file of every new book.
MAX_BYTES = 200_000

SETUP = """\
import matplotlib.pyplot as plt
import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

# Store each Plotly figure twice: as its JSON, drawn on the page, and as a PNG for
# readers without JavaScript, print and the PDF (the PNG needs kaleido).
pio.renderers.default = "plotly_mimetype+png"
plt.rcParams["figure.dpi"] = 100"""

PLOTLY = """\
steps = list(range(1, 61))
loss = [2.4 / step**0.5 + 1.1 for step in steps]
fig = go.Figure(go.Scatter(x=steps, y=loss, mode="lines", name="training loss"))
fig.update_layout(
    xaxis_title="step", yaxis_title="loss", height=360, margin={"t": 20, "r": 20}
)
fig.show()"""

MATPLOTLIB = """\
x = np.linspace(0, 2 * np.pi, 200)
fig, ax = plt.subplots(figsize=(6, 2.8))
for k in (1, 2, 3):
    ax.plot(x, np.sin(k * x) / k, label=f"k = {k}")
ax.set_xlabel("x")
ax.legend(frameon=False)
plt.show()"""

INTRO = """\
# Figures from a notebook

This chapter is a Jupyter notebook, `figures.ipynb`: open it in JupyterLab or VS
Code, change a cell, run it, save it, and the next build shows the new outputs.
The book is built from the outputs saved in the notebook (`nb_execution_mode =
"off"` in `conf.py`), so building it runs no Python of the notebook.

The first cell sets up the libraries; its input is folded away on the page."""

INTERACTIVE = """\
## An interactive figure

A Plotly figure is drawn on the page, with hover and zoom, and its saved PNG
stands in where JavaScript does not run. The legend and the label of
{numref}`fig-loss` come from the cell's metadata: `"playbook": {"legend": ...,
"label": "fig-loss"}` (in JupyterLab, the property inspector; in VS Code, Edit
Cell Tags / metadata)."""

STATIC = """\
## A matplotlib figure

Images (matplotlib, seaborn) are figures like any image of the book:
{numref}`fig-waves` spans the page column (`"layout": "page"` in its metadata)."""

OUTRO = """\
To run the notebook while the book builds, set `nb_execution_mode = "cache"` in
`conf.py`: a notebook whose code changed runs again, the others keep their
outputs from the cache."""


def cells() -> list:
    v4 = nbformat.v4
    return [
        v4.new_markdown_cell(INTRO),
        v4.new_code_cell(SETUP, metadata={"tags": ["hide-input"]}),
        v4.new_markdown_cell(INTERACTIVE),
        v4.new_code_cell(
            PLOTLY,
            metadata={
                "playbook": {
                    "legend": "Training loss by step: it falls as one over the square "
                    "root of the step. Hover over the curve for its values.",
                    "label": "fig-loss",
                    "alt": "A curve falling from 3.5 at step 1 towards 1.4 at step 60.",
                }
            },
        ),
        v4.new_markdown_cell(STATIC),
        v4.new_code_cell(
            MATPLOTLIB,
            metadata={
                "playbook": {
                    "legend": "Three sine waves, each of a higher frequency and a "
                    "smaller amplitude than the one before.",
                    "label": "fig-waves",
                    "layout": "page",
                }
            },
        ),
        v4.new_markdown_cell(OUTRO),
    ]


def main() -> None:
    notebook = nbformat.v4.new_notebook(
        cells=cells(),
        metadata={
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "description": "A chapter written in a Jupyter notebook: an interactive Plotly "
            "figure and a matplotlib figure, from the notebook's saved outputs.",
        },
    )
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{index}"
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    for cell in notebook.cells:
        cell["metadata"].pop("execution", None)
    del notebook.metadata["language_info"]
    notebook.metadata["language_info"] = {"name": "python"}
    text = json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise SystemExit(f"{TARGET.name}: {len(text)} bytes, over {MAX_BYTES}: smaller figures")
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    print(f"{TARGET}: {len(text.encode('utf-8'))} bytes")


if __name__ == "__main__":
    main()
