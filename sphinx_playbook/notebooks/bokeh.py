"""Bokeh outputs of a notebook as ``interactive-figure`` figures.

What Bokeh writes into a notebook (bokeh 2 and 3, ``output_notebook()`` then
``show(p)``):

- ``output_notebook()``: a ``text/html`` output (Bokeh's logo, "Loading BokehJS
  ...") and an ``application/javascript`` loader (with
  ``application/vnd.bokehjs_load.v0+json``) that fetches BokehJS from
  cdn.bokeh.org. Both go: the site serves BokehJS itself.
- ``show(p)``: a ``text/html`` output holding only the plot's empty
  ``<div data-root-id>``, then an ``application/javascript`` output (with
  ``application/vnd.bokehjs_exec.v0+json``) whose script holds the document
  (``docs_json``) and ``render_items`` and calls ``embed_items_notebook``. The
  placeholder goes; the script becomes the figure: the document drawn by
  ``Bokeh.embed.embed_items`` in a lazy same-origin frame, its height reserved
  from the root model, BokehJS (and its widgets, tables and WebGL parts when
  the document uses them) served once from the installed bokeh package.
- A ``text/html`` output of ``file_html``/``components`` (a standalone page with
  ``<script src>`` to cdn.bokeh.org) is read as an ``interactive-figure`` export:
  the CDN scripts become the site's copies.

Bokeh stores no image of a plot (``export_png`` needs a browser driver): the
fallback is an image stored in the same output if any, else the alt text, with a
warning naming the cell.
"""

from __future__ import annotations

import json
import re
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from docutils import nodes

from ..config import read_config
from ..interactive.exports import PLACEHOLDER, Export, read_export
from ..interactive.libraries import library_source
from .plotly import CellContext, _alt, _given_alt, _json_for_script, interactive_figure

LOAD_MIME = "application/vnd.bokehjs_load.v0+json"
EXEC_MIME = "application/vnd.bokehjs_exec.v0+json"
JS_MIME = "application/javascript"
#: Bokeh's figure size when the model gives none.
DEFAULT_HEIGHT = 600

_PLACEHOLDER_DIV = re.compile(
    r"^\s*<div\s+id=\"[\w-]+\"\s+data-root-id=\"[\w-]+\"(?:\s+style=\"[^\"]*\")?\s*>\s*</div>\s*$"
)
_DOCS_JSON = re.compile(r"\b(?:const|var|let)\s+docs_json\s*=\s*")
_RENDER_ITEMS = re.compile(r"\b(?:const|var|let)\s+render_items\s*=\s*")


def is_loader(bundle: dict[str, Any]) -> bool:
    """``output_notebook()``'s script, which loads BokehJS from a CDN."""
    return LOAD_MIME in bundle


def is_notebook_html(html: str) -> bool:
    """``show()``'s empty plot div, or ``output_notebook()``'s logo and message."""
    return bool(_PLACEHOLDER_DIV.match(html)) or (
        "bk-notebook-logo" in html and "<script" not in html
    )


def draws_with_bokeh(html: str) -> bool:
    """A standalone Bokeh export (``file_html``, ``components``)."""
    return "Bokeh.embed.embed_items" in html or "cdn.bokeh.org" in html


def _json_after(pattern: re.Pattern[str], script: str) -> Any:
    match = pattern.search(script)
    if match is None:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(script, match.end())
    except ValueError:
        return None
    if isinstance(value, str):  # bokeh 1 and 2 could write the document as a string
        try:
            value = json.loads(value)
        except ValueError:
            return None
    return value


def read_exec_script(script: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """(docs_json, render_items) of ``show()``'s notebook script."""
    docs = _json_after(_DOCS_JSON, script)
    items = _json_after(_RENDER_ITEMS, script)
    if isinstance(docs, dict) and isinstance(items, list) and items:
        return docs, items
    return None


def _objects(value: Any) -> list[dict[str, Any]]:
    """Every model in a document (bokeh 3's nested ``{"type": "object", ...}`` and
    bokeh 2's ``references``)."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        if "id" in value and ("name" in value or "type" in value):
            found.append(value)
        for item in value.values():
            found += _objects(item)
    elif isinstance(value, list):
        for item in value:
            found += _objects(item)
    return found


def _model_name(model: dict[str, Any]) -> str:
    name = model.get("name") if model.get("type") == "object" else model.get("type")
    return name if isinstance(name, str) else ""


def needed_libraries(docs: dict[str, Any]) -> tuple[str, ...]:
    """BokehJS, and its parts the document's models need (as bokeh's own resources
    decide: WebGL plots, widgets, data tables)."""
    models = _objects(docs)
    names = {_model_name(model) for model in models}
    webgl = any((m.get("attributes") or {}).get("output_backend") == "webgl" for m in models)
    widgets = tables = False
    try:
        from bokeh.core.has_props import HasProps
        from bokeh.models.widgets import TableWidget, Widget
    except ImportError:
        pass
    else:
        classes = [HasProps.model_class_reverse_map.get(name) for name in names]
        widgets = any(cls is not None and issubclass(cls, Widget) for cls in classes)
        tables = any(cls is not None and issubclass(cls, TableWidget) for cls in classes)
    return (
        "bokeh",
        *(["bokeh-gl"] if webgl else []),
        *(["bokeh-widgets"] if widgets else []),
        *(["bokeh-tables"] if tables else []),
    )


def _height(model: dict[str, Any] | None, by_id: dict[str, dict[str, Any]]) -> float | None:
    """The height a root model asks for: its own, a column's children's sum, a row's
    tallest child."""
    if model is None:
        return None
    if set(model) == {"id"}:  # a reference
        model = by_id.get(model["id"])
        if model is None:
            return None
    attributes = model.get("attributes") or {}
    height = attributes.get("height")
    if isinstance(height, int | float) and height > 0:
        return float(height)
    children = attributes.get("children")
    if isinstance(children, list) and children:
        heights = [_height(child if isinstance(child, dict) else None, by_id) for child in children]
        known = [value for value in heights if value is not None]
        if known:
            return sum(known) if _model_name(model) == "Column" else max(known)
    if _model_name(model) in ("Figure", "Plot", "GMap", "GMapPlot"):
        return float(DEFAULT_HEIGHT)
    return None


def root_height(docs: dict[str, Any], items: list[dict[str, Any]]) -> float | None:
    models = _objects(docs)
    by_id = {str(m["id"]): m for m in models if len(m) > 1}
    heights = []
    for item in items:
        for root in _root_ids(item):
            height = _height(by_id.get(root), by_id)
            if height is not None:
                heights.append(height)
    return sum(heights) if heights else None


def _root_ids(item: dict[str, Any]) -> list[str]:
    roots = item.get("roots")
    if isinstance(roots, dict):
        return [str(key) for key in roots]
    return [str(root) for root in item.get("root_ids") or []]


def _title(docs: dict[str, Any]) -> str:
    for model in _objects(docs):
        if _model_name(model) == "Title":
            text = (model.get("attributes") or {}).get("text")
            if isinstance(text, str) and text.strip():
                return text.strip()
    return ""


def _document_version(docs: dict[str, Any]) -> str | None:
    for document in docs.values():
        if isinstance(document, dict) and isinstance(document.get("version"), str):
            return str(document["version"])
    return None


#: The plot at its own size, centred in the frame.
_STYLE = (
    "<style>.pb-bokeh{display:flex;justify-content:center;width:100%}"
    ".pb-bokeh>div{display:contents}</style>\n"
)


def export_html(docs: dict[str, Any], items: list[dict[str, Any]], names: tuple[str, ...]) -> str:
    scripts = "".join(
        f'<script src="{PLACEHOLDER.format(name=name)}"></script>\n' for name in names
    )
    divs = ""
    for item in items:
        roots = item.get("roots")
        if isinstance(roots, dict):
            for root, element in roots.items():
                divs += f'<div id="{element}" data-root-id="{root}"></div>'
        elif isinstance(item.get("elementid"), str):
            divs += f'<div id="{item["elementid"]}"></div>'
    embed = (
        "(function () {\n"
        f"  var docs = {_json_for_script(docs)};\n"
        f"  var items = {_json_for_script(items)};\n"
        "  Bokeh.embed.embed_items(docs, items);\n"
        "})();"
    )
    return f'{scripts}{_STYLE}<div class="pb-bokeh">{divs}</div>\n<script>{embed}</script>\n'


def _missing_image(context: CellContext) -> None:
    """Unless the cell gives its alt (the warning's advice), as for Plotly."""
    if _given_alt(context) is not None:
        return
    context.warn(
        "a Bokeh plot without a static image: readers without JavaScript, print and PDF "
        "get its alt text only. Give the cell a text alternative in its metadata "
        "(playbook: {alt: ...}), or store an image beside the plot"
    )


def _version_mismatch(context: CellContext, made_with: str | None) -> None:
    env = context.env
    if made_with is None or library_source(env.config, env.srcdir, "bokeh") is None:
        return
    if read_config(env.config).interactive_libraries.get("bokeh", "auto") != "auto":
        return  # the site's own file: its release is the author's business
    try:
        served = version("bokeh")
    except PackageNotFoundError:
        return
    if made_with.split(".")[:2] != served.split(".")[:2]:
        context.warn(
            f"the plot was made with Bokeh {made_with} and the site serves BokehJS {served} "
            f"(the installed bokeh): it may not draw. Run the notebook again, or install "
            f"bokeh=={made_with} where the site is built"
        )


def from_bokeh_exec(renderer: Any, data: Any) -> list[nodes.Element]:
    """``show()``'s notebook script as an interactive figure."""
    context = CellContext(renderer, data)
    read = read_exec_script(data.string)
    if read is None:
        context.warn("a Bokeh output whose document cannot be read; it is left out")
        return []
    docs, items = read
    alt = _alt(context, _title(docs))
    image = context.image(alt)
    if image is None:
        _missing_image(context)
    names = needed_libraries(docs)
    if library_source(context.env.config, context.env.srcdir, "bokeh") is None:
        context.warn(
            "the site has no copy of BokehJS: the Bokeh plot is shown as its static image "
            "only. Install bokeh where the site is built, or set "
            'playbook_interactive_libraries = {"bokeh": "path/to/bokeh.min.js"}'
        )
        return [image or nodes.paragraph("", alt, classes=["pb-interactive__alt"])]
    _version_mismatch(context, _document_version(docs))
    export = Export(
        html=export_html(docs, items, names),
        libraries=names,
        unplaced=(),
        remote=(),
        size=None,
        full_document=False,
    )
    height = root_height(docs, items) or DEFAULT_HEIGHT
    return [interactive_figure(context, export, alt, image, (None, height))]


def from_bokeh_html(renderer: Any, data: Any) -> list[nodes.Element]:
    """A standalone Bokeh page or ``components`` snippet as an interactive figure."""
    context = CellContext(renderer, data)
    export = read_export(data.string)
    alt = _alt(context, "")
    image = context.image(alt)
    if image is None:
        _missing_image(context)
    size = export.size
    height = size[1] if size else DEFAULT_HEIGHT
    return [interactive_figure(context, export, alt, image, (None, height))]
