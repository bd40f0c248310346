"""What every LaTeX document of the site loads: ``sphinxplaybook.sty`` (margins for
the notes, the title block, Unicode for pdflatex) and the site's math macros, so a
formula typesets in the PDF as it renders on the page."""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util.fileutil import copy_asset_file

from ..machinery import priorities
from ..math.site_macros import site_macros

STYLE_FILE = Path(__file__).with_name("sphinxplaybook.sty")
PACKAGE = STYLE_FILE.stem


def macro_definitions(macros: dict[str, str]) -> str:
    r"""``playbook_math_macros`` as LaTeX: ``\providecommand`` then ``\renewcommand``,
    so a macro the document classes define already is replaced (as KaTeX sees it),
    never an error. The argument count is the highest ``#n`` in the body."""
    lines = []
    for name, body in macros.items():
        if not re.fullmatch(r"\\[A-Za-z]+", name):
            continue  # KaTeX accepts more names (\RR@); LaTeX's preamble would not
        arguments = max((int(n) for n in re.findall(r"#([1-9])", body)), default=0)
        count = f"[{arguments}]" if arguments else ""
        lines.append(rf"\providecommand{{{name}}}{{}}\renewcommand{{{name}}}{count}{{{body}}}")
    return "\n".join(lines)


def _add_macros(app: Sphinx, config: Config) -> None:
    """``config-inited``: the macros in ``latex_elements["preamble"]``, read by the
    LaTeX builder when it starts (a new dict: conf.py's own stays as written)."""
    macros = macro_definitions(site_macros(config))
    elements = dict(config.latex_elements)
    preamble = elements.get("preamble", "")
    if macros and macros not in preamble:
        elements["preamble"] = preamble + "\n" + macros + "\n"
        config.latex_elements = elements


def _copy_package(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: the .sty beside the .tex files, where LaTeX finds it."""
    if exception is None and app.builder.format == "latex":
        copy_asset_file(STYLE_FILE, app.builder.outdir)


def setup_preamble(app: Sphinx) -> None:
    app.add_latex_package(PACKAGE)
    app.connect("config-inited", _add_macros, priority=priorities.LATEX_MACROS)
    app.connect("build-finished", _copy_package)
