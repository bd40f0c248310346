"""An article's own bundle of Distill's template is left out as template.v2.js is
(sphinx_playbook/cli/distill/bundled_runtime.py): run on our page it injected
Distill's stylesheet after the first paint and the page jumped on a phone."""

from __future__ import annotations

from pathlib import Path

from helpers import read_page, sphinx_build

from sphinx_playbook.cli import main

#: What a bundler makes of Distill's template: its elements, defined at run time.
BUNDLE = (
    "const components = ["
    + ", ".join(
        f'class extends HTMLElement {{ static get is() {{ return "{name}"; }} }}'
        for name in ("d-front-matter", "d-byline", "d-footnote-list", "d-citation-list")
    )
    + "];\nfor (const component of components) customElements.define(component.is, component);\n"
    + "document.head.append(Object.assign(document.createElement('style'),"
    + " {textContent: 'html { font-size: 14px; }'}));\n"
)


def test_a_bundled_distill_runtime_is_left_out_and_the_articles_script_kept(
    tmp_path: Path, capsys
) -> None:
    source = tmp_path / "article"
    source.mkdir()
    (source / "distill.bundle.js").write_text(BUNDLE, encoding="utf-8")
    # The article's own elements are not Distill's: its script is kept.
    (source / "main.bundle.js").write_text(
        'customElements.define("my-chart", class extends HTMLElement {});\n', encoding="utf-8"
    )
    (source / "index.html").write_text(
        "<!doctype html><html><head>"
        '<script src="distill.bundle.js" type="module"></script>'
        '<script src="main.bundle.js" type="module"></script>'
        "</head><body><d-title><h1>Bundled</h1></d-title><d-article><p>Text.</p>"
        "</d-article></body></html>",
        encoding="utf-8",
    )
    out = tmp_path / "o"
    assert main(["import-distill", str(source), str(out)]) == 0
    report = capsys.readouterr().out
    sphinx_build("-W", "-q", "-b", "html", str(out), str(out / "_html"))
    sources = [s["src"] for s in read_page(out / "_html").select("script[src]")]
    assert not any(s.endswith("distill.bundle.js") for s in sources), sources
    assert any(s.endswith("main.bundle.js") for s in sources), sources
    assert "Distill runtime" in report
