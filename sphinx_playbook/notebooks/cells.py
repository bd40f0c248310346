"""A code cell's ``playbook`` metadata: what a directive would give its output.

Cell metadata (in a ``.ipynb``, or the ``{code-cell}`` options of a text notebook)::

    "playbook": {"legend": "Loss by step. It flattens.", "label": "fig-loss",
                 "layout": "page", "aside": "Run on 8 GPUs.", "alt": "A falling curve"}

``legend`` (MyST) and ``label`` make the cell's first display output a numbered
figure, as ``figure-legend`` does (its first paragraph the caption, the rest the
legend; ``{numref}`` and the hover preview find it by its label); ``layout`` puts
the output in a column of the article grid; ``aside`` is a note in the margin
beside the cell. The read-phase transform wraps myst-nb's MIME bundle, whose
output is only chosen per builder when the page is written; a post-transform
then hands the caption to the figure the bundle became (an interactive figure,
an image), so one ``<figure>`` holds both.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import new_document

from ..diagnostics import PlaybookWarning, warn
from ..directives.base import LAYOUT_CLASSES, component
from ..directives.figure_legend import _caption_and_legend
from ..machinery import priorities

#: The cell metadata key, and the keys it may hold.
KEY = "playbook"
KEYS = ("legend", "label", "layout", "aside", "alt")
#: ``layout`` values: our layout columns, ``outset`` short for ``body-outset``.
LAYOUTS = {**LAYOUT_CLASSES, "outset": LAYOUT_CLASSES["body-outset"]}
#: Marks the figure this module wraps around a MIME bundle.
WRAPPER = "pb_notebook_figure"


def _cell_options(cell: nodes.Element) -> dict[str, Any]:
    metadata = cell.get("cell_metadata") or {}
    options = metadata.get(KEY) if isinstance(metadata, dict) else None
    return options if isinstance(options, dict) else {}


def _where(cell: nodes.Element) -> str:
    return f"cell {cell.get('cell_index', 0) + 1}"


def author_line(env: Any, line: int | None) -> int | None:
    """A line of the notebook an author can go to, or None. A text notebook's lines are
    its own; myst-nb numbers a ``.ipynb``'s (cell + 1) * 10000 + the line in the cell,
    which points nowhere in the file: there the location is the file and the message
    names the cell."""
    if line is None or env.doc2path(env.docname).suffix != ".md":
        return None
    return line


class NotebookCells(SphinxTransform):
    """Legends, labels, layout and asides from each code cell's ``playbook`` metadata."""

    default_priority = priorities.NOTEBOOK_CELLS

    def apply(self, **kwargs: Any) -> None:
        cells = [
            cell
            for cell in self.document.findall(nodes.container)
            if cell.get("nb_element") == "cell_code"
        ]
        for cell in cells:
            options = _cell_options(cell)
            if options:
                self._apply(cell, options)
        if cells and self._execution_failed():
            self._report_error(cells)

    def _execution_failed(self) -> bool:
        """Whether myst-nb ran this notebook in this build and a cell raised."""
        try:
            from myst_nb.sphinx_ import NbMetadataCollector  # type: ignore[import-untyped]
        except ImportError:
            return False
        result = NbMetadataCollector.get_exec_data(self.env, self.env.docname) or {}
        return result.get("succeeded") is False

    def _report_error(self, cells: list[nodes.container]) -> None:
        """myst-nb says "Executing notebook failed: CellExecutionError": say which cell
        raised what, at the cell."""
        for cell in cells:
            traceback = next(
                (n for n in cell.findall(nodes.literal_block) if "traceback" in n["classes"]),
                None,
            )
            if traceback is None:
                continue
            lines = [line for line in traceback.astext().splitlines() if line.strip()]
            error = lines[-1].strip() if lines else "an exception"
            name = self.env.doc2path(self.env.docname).name
            self._warn(
                cell,
                f"{name} raised {error} when it ran; the cells after it did not run and "
                "show their stored outputs, if any. Fix the cell, or set "
                "nb_execution_allow_errors = True to run on (nb_execution_raise_on_error = "
                "True stops the build instead)",
            )
            return

    def _warn(self, cell: nodes.Element, message: str) -> None:
        location = (self.env.docname, author_line(self.env, cell.line))
        warn(f"{_where(cell)}: {message}", PlaybookWarning.NOTEBOOK, location)

    def _apply(self, cell: nodes.Element, options: dict[str, Any]) -> None:
        unknown = sorted(set(options) - set(KEYS))
        if unknown:
            self._warn(
                cell,
                f"unknown {KEY} key(s) {', '.join(unknown)}; the keys are {', '.join(KEYS)}",
            )
        layout = options.get("layout")
        layout_class = None
        if layout is not None:
            layout_class = LAYOUTS.get(str(layout))
            if layout_class is None:
                self._warn(
                    cell,
                    f"unknown layout {layout!r}; one of {', '.join(LAYOUTS)}. The output "
                    "stays in the text column",
                )
        legend, label = options.get("legend"), options.get("label")
        bundle = next(
            (n for n in cell.findall(nodes.container) if n.get("nb_element") == "mime_bundle"),
            None,
        )
        target: nodes.Element | None = bundle
        if legend or label:
            if bundle is None:
                self._warn(cell, "a legend or label, but the cell shows no figure output; ignored")
            else:
                target = self._figure(cell, bundle, str(legend or ""), label)
        if layout_class is not None:
            outputs = [
                n
                for n in cell.children
                if isinstance(n, nodes.Element) and n.get("nb_element") == "cell_code_output"
            ]
            output = target or (outputs[0] if outputs else cell)
            output["classes"].append(layout_class)
        if options.get("aside"):
            aside = component("aside", ["pb-aside"])
            aside.source, aside.line = cell.source, cell.line
            aside.extend(self._markdown(str(options["aside"])))
            cell.parent.insert(cell.parent.index(cell) + 1, aside)

    def _markdown(self, text: str) -> list[nodes.Node]:
        from myst_parser.parsers.sphinx_ import MystParser

        document = new_document(self.document["source"], self.document.settings)
        MystParser().parse(text, document)
        return list(document.children)

    def _figure(
        self, cell: nodes.Element, bundle: nodes.Element, legend: str, label: Any
    ) -> nodes.figure:
        figure = nodes.figure("", classes=["pb-notebook-figure"])
        figure[WRAPPER] = True
        figure.source, figure.line = bundle.source or cell.source, bundle.line or cell.line
        bundle.replace_self(figure)
        figure += bundle
        if legend:
            holder = nodes.Element()
            holder.extend(self._markdown(legend))
            caption, rest = _caption_and_legend(holder)
            if caption is None:
                self._warn(cell, "the legend must start with a paragraph (its caption)")
            else:
                figure += caption
                if rest is not None:
                    figure += rest
        if label:
            name = nodes.fully_normalize_name(str(label))
            figure["names"].append(name)
            self.document.note_explicit_target(figure, figure)
            if not legend:
                self._warn(
                    cell,
                    f"label {label!r} without a legend: the figure has no number to refer "
                    "to, and a {{ref}} to it needs text. Add a legend",
                )
        return figure


class JoinNotebookFigures(SphinxPostTransform):
    """After myst-nb chose each output: the wrapper's caption, legend, label and layout
    go to the figure the output became, so one ``<figure>`` remains."""

    default_priority = priorities.JOIN_NOTEBOOK_FIGURES

    def run(self, **kwargs: Any) -> None:
        for wrapper in list(self.document.findall(nodes.figure)):
            if not wrapper.get(WRAPPER):
                continue
            body = [n for n in wrapper.children if not isinstance(n, nodes.caption | nodes.legend)]
            inner = [n for n in body if not isinstance(n, nodes.container)] + [
                c for n in body if isinstance(n, nodes.container) for c in n.children
            ]
            figures = [n for n in inner if isinstance(n, nodes.figure)]
            if len(inner) != 1 or len(figures) != 1:
                continue
            figure = figures[0]
            extras = [n for n in wrapper.children if isinstance(n, nodes.caption | nodes.legend)]
            for node in extras:
                wrapper.remove(node)
            figure.extend(extras)
            figure["classes"].extend(c for c in wrapper["classes"] if c != "pb-notebook-figure")
            figure["ids"], wrapper["ids"] = wrapper["ids"] + figure["ids"], []
            figure["names"], wrapper["names"] = wrapper["names"] + figure["names"], []
            for node_id in figure["ids"]:
                self.document.ids[node_id] = figure
            figure.parent.remove(figure)
            wrapper["classes"] = []  # replace_self copies what the wrapper keeps
            wrapper.replace_self(figure)
