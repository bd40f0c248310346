"""A figure whose traces share one binary array (written once in its frame's
script) draws exactly as the same figure written with plain lists."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
from helpers import build, read_page, write_project

pytestmark = pytest.mark.browser

CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
FIGURE = """:::{{interactive-figure}} {name}.html
:alt: Memory over time, stacked by kind ({name}).

Memory over time ({name}).
:::
"""
TIME = np.cumsum(np.random.default_rng(5).random(2000))


def _export(path: Path, *, as_lists: bool) -> None:
    traces = []
    for k in range(3):
        x, y = TIME, np.sin(TIME / (k + 1)) + 2
        traces.append(
            go.Scatter(
                x=x.tolist() if as_lists else x,
                y=y.tolist() if as_lists else y,
                stackgroup="one",
                name=f"kind {k}",
            )
        )
    figure = go.Figure(traces)
    figure.update_layout(width=640, height=360)
    figure.write_html(path, include_plotlyjs=False, full_html=True)


def _drawn_lines(browser, frame: Path) -> list[str]:
    context = browser.new_context(viewport={"width": 800, "height": 600})
    page = context.new_page()
    page.goto(frame.as_uri())
    page.wait_for_function("document.querySelectorAll('.scatterlayer path.js-line').length == 3")
    lines = page.eval_on_selector_all(
        ".scatterlayer path.js-line", "paths => paths.map(p => p.getAttribute('d'))"
    )
    fills = page.eval_on_selector_all(
        ".scatterlayer path.js-fill", "paths => paths.map(p => p.getAttribute('d'))"
    )
    context.close()
    return lines + fills


def test_shared_arrays_draw_what_plain_lists_draw(browser, tmp_path: Path) -> None:
    source = write_project(
        tmp_path / "src",
        {"index.md": "# Memory\n\n" + FIGURE.format(name="binary") + FIGURE.format(name="lists")},
        conf=CONF,
    )
    _export(source / "binary.html", as_lists=False)
    _export(source / "lists.html", as_lists=True)
    out = build(source, tmp_path / "out")
    frames = [out / frame["src"] for frame in read_page(out).select("iframe")]
    assert "__pbData_" in "".join(p.read_text() for p in frames[0].parent.glob("*.js"))
    binary, lists = (_drawn_lines(browser, frame) for frame in frames)
    assert len(binary) == 6 and all(binary)
    assert binary == lists
