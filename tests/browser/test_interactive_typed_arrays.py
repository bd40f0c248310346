"""A figure written with long lists, which the frame's script carries as typed
arrays, draws exactly as the same figure whose lists the build cannot read (and so
leaves as they are)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import build, read_page, write_project

pytestmark = pytest.mark.browser

CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
FIGURE = """:::{{interactive-figure}} {name}.html
:alt: Training loss per step ({name}).

Training loss per step ({name}).
:::
"""
LOSS = np.float32(11.3) - np.cumsum(np.random.default_rng(9).random(1500, np.float32)) / 300
TRACES = [
    {"type": "scatter", "x": list(range(1, 1501)), "y": [float(v) for v in LOSS], "name": "a"},
    {"type": "bar", "x": list(range(1, 1501)), "y": [float(v) / 2 for v in LOSS], "name": "b"},
]
LAYOUT = {"width": 640, "height": 360}
#: The traces as literals (converted) or behind a variable (a call the build cannot read).
EXPORTS = {
    "literal": 'Plotly.newPlot("plot", {traces}, {layout});',
    "variable": 'var traces = {traces};\nPlotly.newPlot("plot", traces, {layout});',
}
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<div id="plot"></div><script>{script}</script></body></html>"""


def _drawn(browser, frame: Path) -> list[str]:
    context = browser.new_context(viewport={"width": 800, "height": 600})
    page = context.new_page()
    page.goto(frame.as_uri())
    page.wait_for_function("document.querySelectorAll('.scatterlayer path.js-line').length == 1")
    shapes = page.eval_on_selector_all(
        ".scatterlayer path.js-line, .barlayer path, .xtick text, .ytick text",
        "nodes => nodes.map(n => n.getAttribute('d') || n.textContent)",
    )
    context.close()
    return shapes


def test_typed_arrays_draw_what_the_lists_draw(browser, tmp_path: Path) -> None:
    files = {
        f"{name}.html": PAGE.format(
            script=script.format(traces=json.dumps(TRACES), layout=json.dumps(LAYOUT))
        )
        for name, script in EXPORTS.items()
    }
    page = "# Loss\n\n" + "".join(FIGURE.format(name=name) for name in EXPORTS)
    source = write_project(tmp_path / "src", {"index.md": page, **files}, conf=CONF)
    out = build(source, tmp_path / "out")
    literal, variable = (out / frame["src"] for frame in read_page(out).select("iframe"))
    scripts = {p.name: p.read_text() for p in literal.parent.glob("*.js")}
    assert sum('"bdata"' in text for text in scripts.values()) == 1  # the literal one only
    drawn = _drawn(browser, literal)
    assert len(drawn) > 1500 and drawn == _drawn(browser, variable)
