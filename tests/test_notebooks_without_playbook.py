"""A myst-nb project that does not load sphinx_playbook, built where sphinx-playbook is
installed: myst-nb asks our MIME renderer plugin (an entry point, so every project
meets it) about each output, and the plugin must leave them all to myst-nb rather
than read settings the project does not have (it crashed the build with a traceback
on the first Plotly output)."""

from __future__ import annotations

import base64
import json

from helpers import png, read_page, sphinx_build, write_project

PANDAS = (
    "<div><style scoped>.dataframe tbody tr th { vertical-align: top; }</style>"
    '<table border="1" class="dataframe"><thead><tr><th></th><th>gpus</th></tr></thead>'
    "<tbody><tr><th>0</th><td>8</td></tr></tbody></table></div>"
)


def notebook() -> str:
    plotly = {"data": [{"type": "bar", "x": [0, 1], "y": [3, 1]}], "layout": {}}
    image = base64.b64encode(png(16, 12)).decode("ascii")
    cells = [
        {"cell_type": "markdown", "id": "m0", "metadata": {}, "source": "# Plain myst-nb\n"},
        {
            "cell_type": "code",
            "execution_count": 1,
            "id": "c1",
            "metadata": {"playbook": {"legend": "A bar chart.", "label": "fig-bars"}},
            "outputs": [
                {
                    "output_type": "display_data",
                    "metadata": {},
                    "data": {
                        "application/vnd.plotly.v1+json": plotly,
                        "image/png": image,
                        "text/plain": "Figure()",
                    },
                }
            ],
            "source": "px.bar(y=[3, 1])",
        },
        {
            "cell_type": "code",
            "execution_count": 2,
            "id": "c2",
            "metadata": {},
            "outputs": [
                {
                    "output_type": "execute_result",
                    "execution_count": 2,
                    "metadata": {},
                    "data": {"text/html": PANDAS, "text/plain": "   gpus\n0     8"},
                }
            ],
            "source": "df",
        },
    ]
    metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5})


def test_plain_myst_nb_project_builds_without_our_figures(tmp_path):
    src = write_project(
        tmp_path / "src",
        {"index.ipynb": notebook()},
        conf='extensions = ["myst_nb"]\nnb_execution_mode = "off"\n',
    )
    result = sphinx_build("-q", "-b", "html", str(src), str(tmp_path / "out"))
    assert "Traceback" not in result.stderr
    page = read_page(tmp_path / "out")
    assert page.find(class_="pb-interactive") is None
    assert page.find(attrs={"data-pb-component": True}) is None
    table = page.find("table", class_="dataframe")
    assert table is not None and table.get("border") == "1"  # pandas' own, left alone
    assert page.find(class_="pst-scrollable-table-container") is None
