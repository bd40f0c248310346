"""A library an article loads from a CDN for its figures: plotly.js goes when no code
of the page uses it (its figures draw in frames with the site's plotly.js), and stays,
said in the report, when a script of the article calls it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import read_page, sphinx_build

from sphinx_playbook.cli import main

CDN = "https://cdn.plot.ly/plotly-3.0.0.min.js"


def _article(folder: Path, script: str) -> Path:
    folder.mkdir()
    (folder / "main.js").write_text(script, encoding="utf-8")
    (folder / "index.html").write_text(
        "<!doctype html><html><head>"
        f'<script charset="utf-8" src="{CDN}"></script>'
        '<script src="main.js"></script>'
        "</head><body><d-title><h1>Charts</h1></d-title><d-article><p>Text.</p>"
        "</d-article></body></html>",
        encoding="utf-8",
    )
    return folder


@pytest.mark.parametrize(
    ("script", "kept"),
    [
        ("document.title = 'no chart here';\n", False),
        ("Plotly.newPlot('chart', [{y: [1, 2]}]);\n", True),
    ],
)
def test_plotly_from_a_cdn_is_loaded_only_when_the_page_uses_it(
    tmp_path: Path, capsys, script: str, kept: bool
) -> None:
    source = _article(tmp_path / "article", script)
    out = tmp_path / "o"
    assert main(["import-distill", str(source), str(out)]) == 0
    report = capsys.readouterr().out
    sphinx_build("-q", "-b", "html", str(out), str(out / "_html"))
    sources = [s["src"] for s in read_page(out / "_html").select("script[src]")]
    assert (CDN in sources) is kept, sources
    assert any(s.endswith("main.js") for s in sources), sources
    lines = [line for line in report.splitlines() if CDN in line]
    assert len(lines) == 1
    if kept:
        assert "loaded from another site" in lines[0]
    else:
        assert "is not loaded" in lines[0] and "Plotly" in lines[0]
