"""SVG figures in the PDF (sphinx_playbook/latex/svg.py): converted to PDF by cairosvg
for the LaTeX builder, drawn as vectors with their text, kept in the cache by
content; a missing converter is one warning with the install command.

Here with the PDF tests, which run where Cairo and TeX Live are installed."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import png, sphinx_build, write_project
from pypdf import PdfReader

from .conftest import Pdf, build_pdf, latexmk

CONF = """\
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Drawings"
latex_theme = "howto"
numfig = True
"""

#: What a Distill diagram uses: CSS classes, text with tspans, a gradient, markers,
#: a clip path, a pattern, <use> of a symbol.
DIAGRAM = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 160" width="400" height="160">
  <style>.label {{ font-family: sans-serif; font-size: 14px; fill: #333; }}</style>
  <defs>
    <linearGradient id="g"><stop offset="0" stop-color="#ffd27f"/>
      <stop offset="1" stop-color="#e4572e"/></linearGradient>
    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6"
      markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker>
    <clipPath id="clip"><circle cx="330" cy="60" r="40"/></clipPath>
    <symbol id="gpu" viewBox="0 0 20 20"><rect x="1" y="1" width="18" height="18"/></symbol>
  </defs>
  <rect x="10" y="20" width="140" height="70" fill="url(#g)"/>
  <text x="80" y="60" class="label" text-anchor="middle">{label}</text>
  <path d="M150,55 L240,55" stroke="#555" stroke-width="2" marker-end="url(#arrow)"/>
  <g clip-path="url(#clip)"><rect x="280" y="10" width="100" height="100" fill="#2a9d8f"/></g>
  <use href="#gpu" x="20" y="110" width="30" height="30"/>
  <text x="60" y="130" class="label"><tspan>Micro</tspan><tspan dx="4">batches</tspan></text>
</svg>
"""

FOREIGN = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">
  <rect width="200" height="100" fill="#eee"/>
  <text x="10" y="30">Drawn text</text>
  <foreignObject x="10" y="40" width="180" height="50">
    <div xmlns="http://www.w3.org/1999/xhtml">HTML caption</div>
  </foreignObject>
</svg>
"""

PAGE = """\
# Drawings

First paragraph.

```{figure} diagram.svg
:alt: The pipeline diagram

The pipeline legend.
```

::::{interactive-figure} chart.html
:alt: The chart

The chart legend.
::::

Closing paragraph.
"""


def _plain(text: str) -> str:
    """Sphinx's output without the colours it writes where CI=true is set."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


#: An interactive figure's export; its fallback is found beside it as chart.*.
CHART = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Chart</title></head>
<body><div style="width:640px;height:360px">A chart.</div></body></html>
"""


def _book(root: Path, label: str = "Pipeline bubble") -> Path:
    """A diagram in SVG alone, and an interactive figure whose fallback is in SVG
    and PNG (so written ``chart.*``: each builder picks)."""
    return write_project(
        root,
        {
            "index.md": PAGE,
            "chart.html": CHART,
            "diagram.svg": DIAGRAM.format(label=label),
            "chart.svg": DIAGRAM.format(label="Chart in SVG"),
            "chart.png": png(40, 20),
        },
        conf=CONF,
    )


def _xobjects(pdf: Pdf, index: int) -> dict[str, int]:
    """The forms and raster images drawn on a page, inside forms too."""
    found = {"/Form": 0, "/Image": 0}

    def visit(resources: Any) -> None:
        for reference in (resources or {}).get("/XObject", {}).values():
            xobject = reference.get_object()
            kind = xobject.get("/Subtype")
            found[kind] = found.get(kind, 0) + 1
            if kind == "/Form":
                visit(xobject.get("/Resources"))

    visit(pdf.reader.pages[index].get("/Resources"))
    return found


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_svg_figures_are_vector_drawings_with_their_text_in_the_pdf(tmp_path: Path) -> None:
    pdf = build_pdf(_book(tmp_path / "src"), tmp_path / "out", "drawings", "-W")
    assert "{diagram}.pdf}" in pdf.tex
    assert "{chart}.pdf}" in pdf.tex  # the vector form, though a PNG is there too
    assert "[The pipeline diagram]" not in pdf.text
    page, _ = pdf.find("The pipeline")  # the figure's legend
    text = _squeezed(pdf.page_text(page))
    assert "Pipeline bubble" in text and "Micro" in text  # the SVG's text, as text
    assert "Chart in SVG" in text
    drawn = _xobjects(pdf, page)
    assert drawn["/Form"] >= 2 and drawn["/Image"] == 0  # vector, no raster
    legend_page, _ = pdf.find("The chart legend")
    assert legend_page == page


def test_what_the_pdf_cannot_show_is_a_located_warning_and_the_rest_prints(
    tmp_path: Path,
) -> None:
    page = (
        "# Foreign\n\nText.\n\n![A drawing with HTML](foreign.svg)\n\n"
        "![A broken drawing](broken.*)\n"
    )
    source = write_project(
        tmp_path / "src",
        {
            "index.md": page,
            "foreign.svg": FOREIGN,
            # Not well-formed XML (a browser would not show the file either).
            "broken.svg": '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>',
            "broken.png": png(40, 20),
        },
        conf=CONF,
    )
    result = sphinx_build("-q", "-b", "latex", str(source), str(tmp_path / "out"))
    warnings = [line for line in _plain(result.stderr).splitlines() if "[playbook." in line]
    assert len(warnings) == 2, result.stderr
    foreign, broken = warnings
    assert foreign.startswith(f"{source / 'index.md'}:5:")
    assert "foreignObject (line 4 of the SVG)" in foreign
    assert foreign.endswith("[playbook.svg_pdf]")
    assert broken.startswith(f"{source / 'index.md'}:7:")
    assert "cannot be converted (ParseError: mismatched tag" in broken
    assert "the PDF shows its PNG instead" in broken and broken.endswith("[playbook.svg_pdf]")
    drawing = PdfReader(tmp_path / "out" / "foreign.pdf")
    assert "Drawn text" in drawing.pages[0].extract_text()
    tex = (tmp_path / "out" / "drawings.tex").read_text(encoding="utf-8")
    assert "{foreign}.pdf}" in tex and "{broken}.png}" in tex


BLOCKERS = {
    "cairosvg not installed": ("cairosvg", "ImportError", "No module named 'cairosvg'"),
    "no Cairo library": ("cairocffi", "OSError", 'no library called "cairo-2" was found'),
}


@pytest.mark.parametrize("case", sorted(BLOCKERS))
def test_a_missing_converter_is_one_warning_with_the_install_command(
    tmp_path: Path, case: str
) -> None:
    module, error, message = BLOCKERS[case]
    # A Python in which importing the module fails as it does on a machine without it.
    blocker = write_project(
        tmp_path / "blocker",
        {
            "sitecustomize.py": (
                "import sys\n\n\nclass Block:\n"
                "    def find_spec(self, name, path=None, target=None):\n"
                f"        if name.partition('.')[0] == {module!r}:\n"
                f"            raise {error}({message!r})\n\n\n"
                "sys.meta_path.insert(0, Block())\n"
            )
        },
    )
    source = _book(tmp_path / "src")
    (source / "second.md").write_text(
        "# Second\n\n![Another drawing](diagram.svg)\n", encoding="utf-8"
    )
    with (source / "index.md").open("a", encoding="utf-8") as page:
        page.write("\n```{toctree}\nsecond\n```\n")
    environment = {**os.environ, "PYTHONPATH": str(blocker)}
    result = sphinx_build(
        "-q", "-b", "latex", str(source), str(tmp_path / "out"),
        new_interpreter=True, environment=environment,
    )  # fmt: skip
    warnings = [line for line in _plain(result.stderr).splitlines() if "[playbook." in line]
    assert len(warnings) == 1, result.stderr  # three SVG images, one warning
    assert warnings[0].startswith(f"{source / 'index.md'}:5:")
    assert 'pip install "sphinx-playbook[pdf]"' in warnings[0]
    assert message in warnings[0]
    assert warnings[0].endswith("[playbook.svg_pdf]")
    tex = (tmp_path / "out" / "drawings.tex").read_text(encoding="utf-8")
    assert "{[}The pipeline diagram{]}" in tex and "{[}Another drawing{]}" in tex
    assert "{chart}.png}" in tex  # the PNG beside it still prints
    assert ".svg" not in tex and not (tmp_path / "out" / "diagram.pdf").exists()


def test_a_rebuild_takes_the_cache_and_an_edited_svg_is_converted_again(
    tmp_path: Path,
) -> None:
    source, out = _book(tmp_path / "src"), tmp_path / "out"
    sphinx_build("-q", "-b", "latex", str(source), str(out))
    cache = out / ".doctrees" / "playbook-cache" / "svg-pdf"
    first = sorted(path.name for path in cache.iterdir())
    assert len(first) == 2  # the diagram and the chart

    # A rebuild converts nothing: it copies the cached PDF (marked here).
    diagram = cache / next(name for name in first if (cache / name).read_bytes() ==
                           (out / "diagram.pdf").read_bytes())  # fmt: skip
    marked = diagram.read_bytes() + b"\n% from the cache\n"
    diagram.write_bytes(marked)
    sphinx_build("-q", "-b", "latex", str(source), str(out))
    assert (out / "diagram.pdf").read_bytes() == marked

    # An edited SVG is converted again; the PDF it replaces leaves the cache.
    (source / "diagram.svg").write_text(DIAGRAM.format(label="Edited bubble"), encoding="utf-8")
    sphinx_build("-q", "-b", "latex", str(source), str(out))
    after = sorted(path.name for path in cache.iterdir())
    assert diagram.name not in after and len(after) == 2
    pdf = PdfReader(latexmk(out, "drawings"))
    text = " ".join(page.extract_text() for page in pdf.pages)
    assert "Edited bubble" in text and "Pipeline bubble" not in text

    # The same bytes as a fresh build's.
    fresh = tmp_path / "fresh"
    sphinx_build("-q", "-b", "latex", str(source), str(fresh))
    for name in ("diagram.pdf", "chart.pdf"):
        assert (out / name).read_bytes() == (fresh / name).read_bytes(), name
