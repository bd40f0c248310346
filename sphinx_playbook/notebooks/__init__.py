"""Notebooks as playbook pages, through myst-nb (the ``notebooks`` extra).

myst-nb reads ``.ipynb`` and text notebooks and executes them; we only connect
what it renders to our figures: :mod:`.mime` is a renderer plugin for its public
``myst_nb.mime_renderers`` entry point (Plotly figures become interactive
figures, pandas tables our tables), :mod:`.cells` reads each code cell's
``playbook`` metadata (a legend, a label, a layout column, an aside).
"""

from __future__ import annotations

from importlib.metadata import entry_points

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


def setup_notebooks(app: Sphinx) -> None:
    """Harmless without myst-nb: no cell container is ever found."""
    app.add_transform(NotebookCells)
    app.add_post_transform(ChooseNotebookFigures)
    app.add_post_transform(JoinNotebookFigures)
    app.connect("builder-inited", _check_plugin)
    app.connect("builder-inited", register_bundle)
    app.connect("build-finished", drop_unused)
