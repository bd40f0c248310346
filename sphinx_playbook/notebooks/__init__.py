"""Notebooks as playbook pages, through myst-nb (the ``notebooks`` extra).

myst-nb reads ``.ipynb`` and text notebooks and executes them; we only connect
what it renders to our figures: :mod:`.mime` is a renderer plugin for its public
``myst_nb.mime_renderers`` entry point (Plotly figures become interactive
figures, pandas tables our tables), :mod:`.cells` reads each code cell's
``playbook`` metadata (a legend, a label, a layout column, an aside).
"""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from ..diagnostics import PlaybookWarning, warn
from ..machinery import priorities
from ..machinery.linked_assets import note_late_file
from .cells import JoinNotebookFigures, NotebookCells
from .mime import ChooseNotebookFigures
from .vega import drop_unused, register_bundle

#: myst-nb's entry point group for MIME renderer plugins, and ours in it.
MIME_RENDERERS = "myst_nb.mime_renderers"
PLUGIN = "sphinx_playbook.notebooks.mime:PlaybookMimeRenderer"


def _check_plugin(app: Sphinx) -> None:
    """A sphinx-playbook installed without its entry point (an old install, a copy of
    the package) would silently drop every Plotly figure: say so."""
    if "myst_nb" not in app.extensions:
        return
    if not any(point.value == PLUGIN for point in entry_points(group=MIME_RENDERERS)):
        warn(
            f"myst-nb does not know sphinx-playbook's renderer ({MIME_RENDERERS} entry "
            "point): notebook Plotly figures are dropped. Reinstall sphinx-playbook "
            '(pip install "sphinx-playbook[notebooks]")',
            PlaybookWarning.NOTEBOOK,
        )


def _is_notebook_stylesheet(asset: Any) -> bool:
    name = os.path.basename(os.fspath(getattr(asset, "filename", asset) or ""))
    return name.startswith("mystnb.") and name.endswith(".css")


def _notebook_styles_where_needed(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """myst-nb links its stylesheet (cells, outputs) from every page of the site; a
    page without notebook content (no element myst-nb rendered) does without it: 6 KB
    of a plain page's CSS, which the page weight budget counts. Pages Sphinx makes
    (the index, search) hold none either."""
    if "myst_nb" not in app.extensions:
        return
    if doctree is not None and any(
        node.get("nb_element") for node in doctree.findall(nodes.Element)
    ):
        return
    css_files = context.get("css_files") or []
    context["css_files"] = [asset for asset in css_files if not _is_notebook_stylesheet(asset)]


def _note_notebook_stylesheet(app: Sphinx, exception: Exception | None) -> None:
    """myst-nb writes its stylesheet after the pages, linked by them or not: a late
    file, removed before a rebuild writes pages (and gone when myst_nb is dropped)."""
    if "myst_nb" not in app.extensions or app.builder is None or app.builder.format != "html":
        return
    for path in sorted(Path(app.builder.outdir, "_static").glob("mystnb.*.css")):
        note_late_file(app, path.relative_to(app.builder.outdir).as_posix())


def setup_notebooks(app: Sphinx) -> None:
    """Harmless without myst-nb: no cell container is ever found."""
    app.add_transform(NotebookCells)
    app.add_post_transform(ChooseNotebookFigures)
    app.add_post_transform(JoinNotebookFigures)
    app.connect("builder-inited", _check_plugin)
    app.connect("builder-inited", register_bundle)
    app.connect("build-finished", drop_unused)
    app.connect("html-page-context", _notebook_styles_where_needed)
    app.connect(
        "build-finished", _note_notebook_stylesheet, priority=priorities.NOTE_NOTEBOOK_STYLES
    )
