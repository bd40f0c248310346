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
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from ..diagnostics import PlaybookWarning, warn
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


def _notebook_styles_where_needed(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """myst-nb links its stylesheet (cells, outputs) from every page of the site; a
    page that holds no notebook content does without it (6 KB of a plain page's
    CSS, which the page weight budget counts)."""
    if doctree is None or "myst_nb" not in app.extensions:
        return
    if any(node.get("nb_element") for node in doctree.findall(nodes.Element)):
        return
    context["css_files"] = [
        asset
        for asset in context.get("css_files", [])
        if not os.path.basename(str(getattr(asset, "filename", asset))).startswith("mystnb.")
    ]


def setup_notebooks(app: Sphinx) -> None:
    """Harmless without myst-nb: no cell container is ever found."""
    app.add_transform(NotebookCells)
    app.add_post_transform(ChooseNotebookFigures)
    app.add_post_transform(JoinNotebookFigures)
    app.connect("builder-inited", _check_plugin)
    app.connect("html-page-context", _notebook_styles_where_needed)
    app.connect("builder-inited", register_bundle)
    app.connect("build-finished", drop_unused)
