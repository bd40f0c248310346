"""Reading an HTML export: which libraries it loads, and how large it wants to be.

An export (plotly.py's ``to_html``/``write_html``, Bokeh's ``file_html``, an
Altair/Vega page, a hand-written snippet) is rewritten so that it never loads a
script from another origin: plotly.js inlined in it, or a ``<script src>`` to a
known CDN, becomes a placeholder that the writer replaces by the site's one
shared copy of that library. The size the export asks for is read here too, so
the page can reserve the figure's box before the frame loads (no layout shift).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sphinx_playbook.interactive import plotly_calls

#: Written in place of a library's ``<script>``; the writer substitutes the URL.
PLACEHOLDER = "@@playbook-library:{name}@@"
_PLACEHOLDER_RE = re.compile(r"@@playbook-library:([\w.-]+)@@")

_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
_STYLESHEET = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?(?:https?:)?//[^>]*>", re.IGNORECASE)
_SRC = re.compile(r"""\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_REMOTE = re.compile(r"^(?:https?:)?//", re.IGNORECASE)

#: CDN script URLs of the libraries we can serve from the site: URL pattern -> name.
_CDN_LIBRARIES = (
    (re.compile(r"cdn\.plot\.ly/plotly[\w.-]*\.js|/plotly\.js(?:-dist)?(?:-min)?[@/]"), "plotly"),
    (re.compile(r"cdn\.bokeh\.org/bokeh/\w+/(bokeh(?:-[a-z]+)?)-\d"), None),
    (re.compile(r"/(?:npm/|unpkg\.com/)?(vega-lite|vega-embed|vega)@"), None),
)
#: The first lines of plotly.min.js, as inlined by ``include_plotlyjs=True``.
_INLINED_PLOTLY = re.compile(r"^\s*/\*\*?\s*\*?\s*plotly\.js v\d", re.IGNORECASE)
_PLOTLY_DIV_SIZE = re.compile(
    r"<div\b[^>]*\bstyle\s*=\s*\"[^\"]*?height:\s*(\d+(?:\.\d+)?)px;\s*width:\s*(\d+(?:\.\d+)?)px",
    re.IGNORECASE,
)
_JSON_WIDTH = re.compile(r'"width"\s*:\s*(\d+(?:\.\d+)?)')
_JSON_HEIGHT = re.compile(r'"height"\s*:\s*(\d+(?:\.\d+)?)')
_ATTRIBUTE_SIZE = re.compile(
    r"<(?:svg|canvas|img|div)\b[^>]*?\bwidth\s*=\s*[\"']?(\d+(?:\.\d+)?)(?:px)?[\"']?"
    r"[^>]*?\bheight\s*=\s*[\"']?(\d+(?:\.\d+)?)(?:px)?[\"']?",
    re.IGNORECASE,
)
_STYLE_SIZE = re.compile(
    r"<(?:svg|canvas|div)\b[^>]*?\bstyle\s*=\s*\"[^\"]*?\bwidth:\s*(\d+(?:\.\d+)?)px;"
    r"\s*height:\s*(\d+(?:\.\d+)?)px",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Export:
    """An export rewritten to load libraries from the site only."""

    html: str
    """The export, library scripts replaced by :data:`PLACEHOLDER`."""
    libraries: tuple[str, ...]
    """Every shared library it needs, in load order."""
    unplaced: tuple[str, ...]
    """Libraries it calls without loading: the writer loads them before the export."""
    remote: tuple[str, ...]
    """URLs of scripts and stylesheets from another origin that no library stands for."""
    size: tuple[float, float] | None
    """The (width, height) in CSS pixels the export asks for, if it says."""
    full_document: bool
    plotly_traces: frozenset[str] | None = None
    """The Plotly trace types its ``newPlot`` calls draw; None when a call's data is
    code, not a literal (the full plotly.js bundle is then the one that surely draws it)."""


def library_of(url: str) -> str | None:
    """The library a CDN script URL loads (``plotly``, ``bokeh``, ``vega-lite``...)."""
    for pattern, name in _CDN_LIBRARIES:
        match = pattern.search(url)
        if match:
            return name or match.group(1)
    return None


def _src(attributes: str) -> str | None:
    match = _SRC.search(attributes)
    if match is None:
        return None
    return next(group for group in match.groups() if group is not None)


def read_export(text: str) -> Export:
    """Rewrite ``text`` and read what it needs; never raises on odd HTML."""
    libraries: list[str] = []
    remote: list[str] = []

    def rewrite(match: re.Match[str]) -> str:
        attributes, body = match.group(1), match.group(2)
        src = _src(attributes)
        if src is not None and _REMOTE.match(src):
            name = library_of(src)
            if name is None:
                remote.append(src)
                return ""
            return _library_script(name, libraries)
        if src is None and _INLINED_PLOTLY.match(body[:200]):
            return _library_script("plotly", libraries)
        return match.group(0)

    def drop_stylesheet(match: re.Match[str]) -> str:
        href = re.search(r"""href\s*=\s*["']?([^"'\s>]+)""", match.group(0), re.IGNORECASE)
        remote.append(href.group(1) if href else match.group(0))
        return ""

    html = _SCRIPT.sub(rewrite, text)
    html = _STYLESHEET.sub(drop_stylesheet, html)
    unplaced = []
    if "plotly" not in libraries and plotly_calls.draws(html):
        libraries.insert(0, "plotly")
        unplaced.append("plotly")
    return Export(
        html=html,
        libraries=tuple(libraries),
        unplaced=tuple(unplaced),
        remote=tuple(remote),
        size=_size(html, libraries),
        full_document=bool(re.search(r"<html\b", html[:2000], re.IGNORECASE)),
        plotly_traces=plotly_calls.trace_types(html) if "plotly" in libraries else None,
    )


def _library_script(name: str, libraries: list[str]) -> str:
    if name in libraries:
        return ""  # loaded once per export
    libraries.append(name)
    return f'<script src="{PLACEHOLDER.format(name=name)}"></script>'


def replace_placeholders(html: str, urls: dict[str, str]) -> str:
    """Put each library's URL in place of its placeholder (unknown ones drop their script)."""
    html = re.sub(
        r'<script src="@@playbook-library:([\w.-]+)@@"></script>',
        lambda m: f'<script src="{urls[m.group(1)]}"></script>' if m.group(1) in urls else "",
        html,
    )
    return _PLACEHOLDER_RE.sub(lambda m: urls.get(m.group(1), ""), html)


def _size(html: str, libraries: list[str]) -> tuple[float, float] | None:
    """The export's own size: Plotly's layout or div style, Bokeh/Vega specs, tag sizes."""
    if "plotly" in libraries:
        size = plotly_calls.layout_size(html)
        if size:
            return size
        match = _PLOTLY_DIV_SIZE.search(html)
        return (float(match.group(2)), float(match.group(1))) if match else None
    if any(name.startswith(("bokeh", "vega")) for name in libraries):
        width, height = _JSON_WIDTH.search(html), _JSON_HEIGHT.search(html)
        if width and height:
            return float(width.group(1)), float(height.group(1))
    for pattern in (_ATTRIBUTE_SIZE, _STYLE_SIZE):
        match = pattern.search(html)
        if match:
            return float(match.group(1)), float(match.group(2))
    return None
