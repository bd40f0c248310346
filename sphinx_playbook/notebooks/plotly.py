"""Plotly outputs of a notebook as ``interactive-figure`` figures.

A code cell that shows a Plotly figure stores it as
``application/vnd.plotly.v1+json`` (plotly's default notebook renderer), often
beside a ``text/html`` snippet that loads plotly.js from a CDN, and sometimes
beside a PNG or SVG (``plotly_mimetype+png``, with kaleido installed). The JSON
is written here as the export ``interactive-figure`` reads (a div and one
``Plotly.newPlot`` call), so the figure gets everything the directive gives:
the lazy same-origin frame, the box reserved at build time, the site's one
plotly.js at the smallest bundle, the colour mode followed, and the output's
own image as the static fallback. A ``text/html`` output that draws with
plotly.js goes the same way, its CDN script replaced by the site's copy.
"""

from __future__ import annotations

import hashlib
import json
import re
from binascii import a2b_base64
from typing import Any

from docutils import nodes

from ..diagnostics import PlaybookWarning, warn
from ..directives.base import COMPONENT
from ..interactive.directive import COMPONENT_NAME, PAGES, InteractivePage
from ..interactive.exports import Export, read_export
from ..interactive.libraries import library_source
from .cells import author_line

#: The MIME type plotly's notebook renderers store a figure as.
PLOTLY_MIME = "application/vnd.plotly.v1+json"
#: Plotly's height for a figure whose layout gives none (its width follows the box).
PLOTLY_DEFAULT_HEIGHT = 450
#: Images in the same output that can stand for the figure, best first.
FALLBACK_MIMES = ("image/svg+xml", "image/png", "image/jpeg", "image/gif")
#: The file suffix of each fallback image type.
_SUFFIX = {"image/svg+xml": ".svg", "image/png": ".png", "image/jpeg": ".jpeg", "image/gif": ".gif"}


def _json_for_script(value: Any) -> str:
    """JSON that cannot end the ``<script>`` it is written in."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def export_from_json(figure: dict[str, Any], key: str) -> str:
    """The HTML export plotly's ``to_html`` would write, without plotly.js."""
    config = dict(figure.get("config") or {})
    config.pop("plotlyServerURL", None)  # a link to another origin in the mode bar
    div = f"pb-plotly-{key}"
    return (
        f'<div id="{div}" class="plotly-graph-div"></div>\n'
        '<script type="text/javascript">'
        f'Plotly.newPlot("{div}", {_json_for_script(figure.get("data") or [])}, '
        f"{_json_for_script(figure.get('layout') or {})}, {_json_for_script(config)})"
        "</script>\n"
    )


def _layout_size(figure: dict[str, Any]) -> tuple[float | None, float | None]:
    layout = figure.get("layout") or {}
    sizes = []
    for name in ("width", "height"):
        value = layout.get(name)
        sizes.append(float(value) if isinstance(value, int | float) and value > 0 else None)
    return sizes[0], sizes[1]


def _title(figure: dict[str, Any]) -> str:
    title = (figure.get("layout") or {}).get("title")
    if isinstance(title, dict):
        title = title.get("text")
    return re.sub(r"<[^>]+>", "", title).strip() if isinstance(title, str) else ""


class CellContext:
    """What the plugin knows of the output it renders: for warnings and files."""

    def __init__(self, renderer: Any, data: Any) -> None:
        self.renderer = renderer
        self.data = data
        self.env = renderer.renderer.sphinx_env
        self.cell = (data.cell_index or 0) + 1
        self.source = self.env.doc2path(self.env.docname)
        #: The output's line in the source, None in a ``.ipynb`` (see ``author_line``).
        self.line = author_line(self.env, data.line)

    def where(self) -> str:
        return f"cell {self.cell} of {self.source.name}"

    def warn(self, message: str) -> None:
        warn(
            f"{self.where()}: {message}",
            PlaybookWarning.NOTEBOOK,
            (self.env.docname, self.line),
        )

    def bundle(self) -> dict[str, Any]:
        """Every MIME type of this output (the plugin sees one at a time)."""
        try:
            _, outputs = self.renderer.renderer.nb_client.code_cell_outputs(self.data.cell_index)
            return dict(outputs[self.data.output_index].get("data") or {})
        except (IndexError, KeyError, TypeError, AttributeError):
            return {}

    def options(self) -> dict[str, Any]:
        value = (self.data.cell_metadata or {}).get("playbook")
        return value if isinstance(value, dict) else {}

    def image(self, alt: str) -> nodes.image | None:
        """The output's own image, written like myst-nb writes images (by content hash)."""
        bundle = self.bundle()
        for mime in FALLBACK_MIMES:
            content = bundle.get(mime)
            if not content:
                continue
            if isinstance(content, list):
                content = "".join(content)
            data = content.encode("utf-8") if mime == "image/svg+xml" else a2b_base64(content)
            name = hashlib.sha256(data).hexdigest() + _SUFFIX[mime]
            uri = self.renderer.write_file([name], data, overwrite=False, exists_ok=True)
            return nodes.image("", uri=uri, alt=alt, classes=["pb-interactive__image"])
        return None


def interactive_figure(
    context: CellContext,
    export: Export,
    alt: str,
    image: nodes.image | None,
    size: tuple[float | None, float | None],
) -> nodes.figure:
    """The figure ``interactive-figure`` would make for ``export``."""
    env = context.env
    figure = nodes.figure("", classes=["pb-interactive", "pb-interactive--narrow-image"])
    figure.source, figure.line = str(context.source), context.line
    if image is not None:
        figure += image
    else:
        figure += nodes.paragraph("", alt, classes=["pb-interactive__alt"])
    for url in export.remote:
        context.warn(
            f"the output loads {url} from another origin and it is not a library the site "
            "can serve; it is removed"
        )
    libraries = []
    for name in export.libraries:
        if library_source(env.config, env.srcdir, name) is None:
            context.warn(
                f"the output needs the {name} library and the site has no local copy; it is "
                "removed. Set playbook_interactive_libraries = "
                f'{{"{name}": "path/to/{name}.min.js"}}'
            )
        else:
            libraries.append(name)
    key = hashlib.sha256(export.html.encode("utf-8")).hexdigest()[:12]
    page = PAGES.of(env).setdefault(env.docname, InteractivePage())
    page.exports[key] = export.html
    page.libraries.update(libraries)
    figure[COMPONENT] = COMPONENT_NAME
    figure["pb_key"] = key
    figure["pb_stem"] = re.sub(r"[^\w-]+", "-", f"{env.docname.rsplit('/', 1)[-1]}-{context.cell}")[
        :40
    ]
    figure["pb_libraries"] = [name for name in libraries if name in export.unplaced]
    if "plotly" in libraries:
        figure["pb_plotly"] = True
        if export.plotly_traces is not None:
            figure["pb_plotly_traces"] = sorted(export.plotly_traces)
    figure["pb_isolation"] = "iframe"
    figure["pb_narrow"] = "image"
    figure["pb_loading"] = "lazy"
    figure["pb_theme"] = "follow"
    figure["pb_title"] = alt
    width, height = size
    if width and height:
        figure["pb_ratio"] = f"{width:g} / {height:g}"
        figure["pb_min_width"] = f"{width:g}px"
    else:
        figure["pb_height"] = f"{height or PLOTLY_DEFAULT_HEIGHT:g}px"
    return figure


def _given_alt(context: CellContext) -> str | None:
    """The cell's own ``playbook: {alt: ...}``, if it gives one."""
    alt = context.options().get("alt")
    return alt.strip() if isinstance(alt, str) and alt.strip() else None


def _alt(context: CellContext, title: str) -> str:
    alt = _given_alt(context)
    if alt is not None:
        return alt
    return f"Interactive figure: {title}" if title else f"Interactive figure ({context.where()})"


def _missing_image(context: CellContext) -> None:
    """Warn of a figure with no image, unless the author gave its alt: the warning's own
    advice, the text that then stands for the figure without JavaScript."""
    if _given_alt(context) is not None:
        return
    context.warn(
        "a Plotly figure without a static image: readers without JavaScript, print and "
        "PDF get its alt text only. Store a PNG with it: with kaleido installed, "
        "plotly.io.renderers.default = 'plotly_mimetype+png' before running the notebook, "
        "or give the cell a text alternative in its metadata (playbook: {alt: ...})"
    )


def from_plotly_json(renderer: Any, data: Any) -> list[nodes.Element]:
    """An ``application/vnd.plotly.v1+json`` output as an interactive figure."""
    context = CellContext(renderer, data)
    figure = data.content if isinstance(data.content, dict) else None
    if figure is None:
        try:
            figure = json.loads(data.string)
        except (TypeError, ValueError) as error:
            context.warn(f"the Plotly output is not valid JSON ({error}); it is left out")
            return []
    key = hashlib.sha256(_json_for_script(figure).encode("utf-8")).hexdigest()[:12]
    export = read_export(export_from_json(figure, key))
    alt = _alt(context, _title(figure))
    image = context.image(alt)
    if image is None:
        _missing_image(context)
    return [interactive_figure(context, export, alt, image, _layout_size(figure))]


_PLOTLY_DIV = re.compile(r"<div\b[^>]*\bplotly-graph-div\b[^>]*>", re.IGNORECASE)
_HEIGHT = re.compile(r"\bheight:\s*(\d+(?:\.\d+)?)px", re.IGNORECASE)


def draws_with_plotly(html: str) -> bool:
    return bool(re.search(r"\bPlotly\.(?:newPlot|react|plot)\s*\(", html))


def from_plotly_html(renderer: Any, data: Any) -> list[nodes.Element]:
    """A ``text/html`` output that draws with plotly.js (``notebook_connected``,
    ``fig.to_html()``...) as an interactive figure; its CDN script goes."""
    context = CellContext(renderer, data)
    export = read_export(data.string)
    cdn = re.findall(r"<script\b[^>]*\bsrc\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)", data.string)
    for url in cdn:
        if url not in export.remote:
            context.warn(
                f"the output loads {url} from another origin; the site's own copy of the "
                "library is loaded instead"
            )
    width, height = export.size or (None, None)
    if height is None:  # plotly's to_html writes the height on its div
        div = _PLOTLY_DIV.search(export.html)
        found = _HEIGHT.search(div.group(0)) if div else None
        height = float(found.group(1)) if found else None
    alt = _alt(context, "")
    image = context.image(alt)
    if image is None and PLOTLY_MIME not in context.bundle():
        _missing_image(context)
    return [interactive_figure(context, export, alt, image, (width, height))]
