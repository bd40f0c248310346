"""A figure whose traces share a long binary array: its frame's script carries the
array once (gzip finds no repeat 32 KB away, so each copy cost its full size)."""

from __future__ import annotations

import base64
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
from bs4 import BeautifulSoup
from helpers import build, read_page, write_project

from sphinx_playbook.interactive.shared_data import share_in_script

CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
PAGE = """# Memory

:::{interactive-figure} memory.html
:alt: Memory over time, stacked by kind.

Memory over time.
:::
"""
#: Time steps (not evenly spaced, so the base64 is not a repeat of itself).
TIME = np.cumsum(np.random.default_rng(3).random(3000))
SERIES = 4


def _written(values: np.ndarray) -> str:
    """An array as plotly.py's JSON writes it: base64, ``/`` escaped."""
    return base64.b64encode(values.tobytes()).decode().replace("/", "\\u002f")


def _export(path: Path) -> None:
    figure = go.Figure(
        [
            go.Scatter(x=TIME, y=np.sin(TIME / (k + 1)) + 2, stackgroup="one", name=f"kind {k}")
            for k in range(SERIES)
        ]
    )
    figure.update_layout(width=640, height=360)
    figure.write_html(path, include_plotlyjs=False, full_html=True)


def _frame_scripts(out: Path) -> str:
    frame = read_page(out).select_one("iframe")
    frame_path = out / frame["src"]
    page = BeautifulSoup(frame_path.read_text(encoding="utf-8"), "html.parser")
    return "".join(
        (frame_path.parent / script["src"]).read_text(encoding="utf-8")
        for script in page.select("body script[src]")
        if "_static" not in script["src"]
    )


def test_an_array_every_trace_repeats_is_in_the_frame_once(tmp_path: Path) -> None:
    source = write_project(tmp_path / "src", {"index.md": PAGE}, conf=CONF)
    _export(source / "memory.html")
    assert (
        source.joinpath("memory.html").read_text().count(_written(TIME)) == SERIES
    )  # plotly.py wrote the time axis once per trace
    scripts = _frame_scripts(build(source, tmp_path / "out"))
    assert scripts.count(_written(TIME)) == 1
    for k in range(SERIES):  # each series' own values are still there, once
        assert scripts.count(_written(np.sin(TIME / (k + 1)) + 2)) == 1


def test_a_strict_script_stays_strict_and_short_arrays_stay_in_place() -> None:
    long = "QUJD" * 400
    script = (
        f'"use strict";\nPlotly.newPlot("a",[{{x:{{bdata:"{long}"}}}},{{x:{{bdata:"{long}"}}}}])'
    )
    shared = share_in_script(script)
    assert shared.startswith('"use strict";\nvar __pbData_')
    assert shared.count(long) == 1
    short = 'Plotly.newPlot("a",[{x:{bdata:"QUJD"}},{x:{bdata:"QUJD"}}])'
    assert share_in_script(short) == short
