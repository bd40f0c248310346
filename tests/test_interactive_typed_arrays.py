"""A figure written with long lists of numbers: its frame's script carries them as
typed arrays holding exactly the same values, and stays as it was when that does
not make it smaller."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
from bs4 import BeautifulSoup
from helpers import build, read_page, write_project

from sphinx_playbook.interactive import plotly_calls
from sphinx_playbook.interactive.typed_arrays import encode_in_script

CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
PAGE = """# Loss

:::{interactive-figure} loss.html
:alt: Training loss per step.

Training loss per step.
:::
"""
STEPS = list(range(1, 2001))
#: A loss logged as float32, written as Python floats (17 significant digits).
LOSS = np.float32(11.3) - np.cumsum(np.random.default_rng(7).random(2000, np.float32)) / 400


def _export(path: Path) -> None:
    figure = go.Figure(go.Scatter(x=STEPS, y=[float(v) for v in LOSS], name="loss"))
    figure.update_layout(width=640, height=360)
    figure.write_html(path, include_plotlyjs=False, full_html=True)


def _frame_script(out: Path) -> str:
    frame = out / read_page(out).select_one("iframe")["src"]
    page = BeautifulSoup(frame.read_text(encoding="utf-8"), "html.parser")
    return "".join(
        (frame.parent / script["src"]).read_text(encoding="utf-8")
        for script in page.select("body script[src]")
        if "_static" not in script["src"]
    )


def _decoded(spec: dict) -> list[float]:
    data = base64.b64decode(spec["bdata"])
    code = {"f4": "f", "f8": "d", "u2": "H", "i2": "h", "u1": "B", "i4": "i"}[spec["dtype"]]
    return list(struct.unpack(f"<{len(data) // struct.calcsize(code)}{code}", data))


def test_long_lists_become_typed_arrays_of_the_same_numbers(tmp_path: Path) -> None:
    source = write_project(tmp_path / "src", {"index.md": PAGE}, conf=CONF)
    _export(source / "loss.html")
    assert '"y":[' in source.joinpath("loss.html").read_text()  # plotly.py wrote a list
    script = _frame_script(build(source, tmp_path / "out"))
    [call] = plotly_calls.plotly_calls(script)
    assert call is not None
    [trace] = call[1]  # type: ignore[misc]
    assert trace["x"]["dtype"] == "i2" and _decoded(trace["x"]) == STEPS
    assert trace["y"]["dtype"] == "f4" and _decoded(trace["y"]) == [float(v) for v in LOSS]


def test_what_a_typed_array_cannot_hold_exactly_stays_a_list() -> None:
    def script(values: list) -> str:
        traces = [{"type": "scatter", "y": values}]
        return f'Plotly.newPlot("a", {json.dumps(traces)}, {{}})'

    roots = [i**0.5 for i in range(300)]  # not float32: float64, every digit kept
    [(_start, _end, [trace])] = plotly_calls.data_arguments(encode_in_script(script(roots)))
    assert trace["y"]["dtype"] == "f8" and _decoded(trace["y"]) == roots
    tenths = [i / 10 for i in range(300)]
    for kept in (
        tenths,  # short decimals: the list compresses better than their doubles
        [True] * 300,  # booleans
        [1, None] * 150,  # gaps
        ["a"] * 300,  # categories
        list(range(100)),  # too short to pay
        [2**40 + i for i in range(300)],  # integers wider than 32 bits
    ):
        assert encode_in_script(script(kept)) == script(kept)
    pie = f'Plotly.newPlot("a", {json.dumps([{"type": "pie", "values": tenths}])}, {{}})'
    assert encode_in_script(pie) == pie  # a type whose arrays are not x and y
