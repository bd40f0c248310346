"""HTML output of ``interactive-figure``: the frame page, the iframe, the fallback.

Each figure's export becomes a small page of its own under ``_interactive/``,
named by the hash of its content, that loads the site's shared libraries from
``_static/interactive/``. The article embeds it with ``<iframe loading="lazy">``
(or, with ``:isolation: inline``, a tiny loader injects it), inside a box whose
size the page reserves from the start. The static fallback follows the frame;
CSS shows it instead of the frame on phones (``:narrow: image``), in print and
when JavaScript is off, so the article itself needs no script.
"""

from __future__ import annotations

import hashlib
import html
import re
import shutil
import urllib.parse
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.osutil import relative_uri

from ..directives.base import find_components
from ..machinery import priorities
from ..machinery.linked_assets import declare, note_link, own_folder
from ..machinery.state import build_facts
from .directive import COMPONENT_NAME, PAGES
from .exports import replace_placeholders
from .libraries import (
    STATIC_SUBDIR,
    figure_library,
    library_filename,
    library_source,
    write_library,
)

#: Where the figures' own pages are written, relative to the output root.
FRAMES_DIR = "_interactive"
#: The ``:isolation: inline`` loader (under 1 KB, so its comments are here),
#: copied to ``_static/``; it fetches a figure's page when it nears the viewport, moves
#: the page's plot and scripts into the box, and runs the scripts in order, each
#: library once.
LOADER = "sphinx-playbook-interactive.js"
LOADER_SOURCE = Path(__file__).parent / "static" / LOADER

#: Resizes fixed-size Plotly plots to the box they are shown in (CSS zoom would
#: misplace their labels), again whenever the box changes size.
FIT_SCRIPT = (
    "(function(){var b=document.currentScript.closest('[data-pb-box]');"
    "function f(){if(!window.Plotly)return;"
    "b.querySelectorAll('.plotly-graph-div').forEach(function(d){"
    "for(var p=d;p&&p!==b;p=p.parentElement){p.style.width=p.style.height='100%'}"
    "if(d.layout)Plotly.relayout(d,{width:b.clientWidth,height:b.clientHeight})})}"
    "if(document.readyState==='complete')f();else addEventListener('load',f);"
    "addEventListener('resize',f)})();"
)

#: Plotly plots that follow the reader's colour mode: the frame asks the article page
#: for the theme's colours when it loads, and the page sends them again whenever the
#: mode changes (sphinx-playbook.js); ``Plotly.relayout`` recolours the plots without
#: re-running the export, and back to the export's own colours in light mode.
THEME_SCRIPT = (
    "(function(){var b=document.currentScript.closest('[data-pb-box]'),saved=new Map();"
    "function get(o,k){return k.split('.').reduce(function(v,p){return v&&v[p]},o)}"
    "function apply(t){if(!window.Plotly)return;"
    "b.querySelectorAll('.plotly-graph-div').forEach(function(d){"
    "if(!d.layout||(!t.dark&&!saved.has(d)))return;"
    "var k=['paper_bgcolor','plot_bgcolor','font.color'],u={},o;"
    "Object.keys(d.layout).concat(['xaxis','yaxis']).forEach(function(a){"
    "if(/^[xy]axis\\d*$/.test(a)&&k.indexOf(a+'.gridcolor')<0)"
    "k.push(a+'.gridcolor',a+'.zerolinecolor',a+'.linecolor')});"
    "if(!saved.has(d)){o={};k.forEach(function(n){var v=get(d.layout,n);"
    "o[n]=v===undefined?null:v});saved.set(d,o)}o=saved.get(d);"
    "k.forEach(function(n){u[n]=!t.dark?(n in o?o[n]:null):"
    "n==='font.color'?t.text:/bgcolor$/.test(n)?t.bg:t.grid});"
    "Plotly.relayout(d,u)})}"
    "addEventListener('message',function(e){"
    "if(e.source===parent&&e.data&&typeof e.data.pbTheme==='object')apply(e.data.pbTheme)});"
    "parent.postMessage({pbTheme:'request'},'*')})();"
)

FRAME_STYLE = (
    "html,body{margin:0;height:100%;overflow:hidden;background:transparent}"
    "[data-pb-box]{width:100%;height:100%}"
    "noscript img{display:block;width:100%;height:100%;object-fit:contain}"
)

FRAME_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style data-pb-frame>{style}</style>
{head}</head>
<body>
<noscript>{fallback}</noscript>
<div data-pb-box>{body}<script>{fit}</script>{theme}</div>
</body>
</html>
"""

_HEAD = re.compile(r"<head\b[^>]*>(.*?)</head\s*>", re.IGNORECASE | re.DOTALL)
_BODY = re.compile(r"<body\b[^>]*>(.*?)</body\s*>", re.IGNORECASE | re.DOTALL)
_HEAD_NOISE = re.compile(r"<meta\b[^>]*>|<title\b[^>]*>.*?</title\s*>", re.IGNORECASE | re.DOTALL)


class interactive_frame(nodes.Element, nodes.General):
    """The reserved box with the frame, followed by the fallback (its children)."""


def _split_document(export: str) -> tuple[str, str]:
    """(head extras, body) of a full HTML export; a fragment is all body."""
    body = _BODY.search(export)
    if body is None:
        return "", export
    head = _HEAD.search(export)
    extras = _HEAD_NOISE.sub("", head.group(1)).strip() if head else ""
    return extras, body.group(1)


def frame_page(
    export: str,
    *,
    library_urls: dict[str, str],
    preloaded: list[str],
    title: str,
    fallback: str,
    language: str,
    follow_theme: bool = True,
) -> str:
    """The figure's own page: shared libraries, the export, its fallback for JS off."""
    head, body = _split_document(replace_placeholders(export, library_urls))
    scripts = "".join(
        f'<script src="{library_urls[name]}"></script>\n'
        for name in preloaded
        if name in library_urls
    )
    return FRAME_PAGE.format(
        lang=html.escape(language or "en"),
        title=html.escape(title),
        style=FRAME_STYLE,
        head=scripts + (head + "\n" if head else ""),
        fallback=fallback,
        body=body,
        fit=FIT_SCRIPT,
        theme=f"<script>{THEME_SCRIPT}</script>" if follow_theme else "",
    )


def _export_html(env: Any, key: str) -> str | None:
    for page in PAGES.of(env).values():
        if key in page.exports:
            return page.exports[key]
    return None


def _fallback_html(translator: Any, node: nodes.Element) -> str:
    """The fallback as the frame page shows it with JS off (URLs from ``_interactive/``)."""
    image = next(iter(node.findall(nodes.image)), None)
    if image is None:
        return f"<p>{html.escape(node['pb_title'])}</p>"
    uri = image["uri"]
    images = translator.builder.images
    src = (
        f"../{translator.builder.imagedir}/{urllib.parse.quote(images[uri])}"
        if uri in images
        else uri
    )
    return f'<img src="{html.escape(src)}" alt="{html.escape(image.get("alt", ""))}">'


def _write_frame(translator: Any, node: nodes.Element) -> str | None:
    """Write the figure's page (once: its name is its content's hash); its output path."""
    builder = translator.builder
    export = _export_html(builder.env, node["pb_key"])
    if export is None:
        return None
    library_urls = {}
    for name in {*node["pb_libraries"], *re.findall(r"@@playbook-library:([\w.-]+)@@", export)}:
        traces = node.get("pb_plotly_traces")
        source = figure_library(builder.config, builder.srcdir, name, traces)
        if source is not None:
            library_urls[name] = f"../{STATIC_SUBDIR}/{library_filename(name, source)}"
            if name == "plotly":  # the bundle this figure needs (written once)
                write_library(Path(builder.outdir), name, source)
    page = frame_page(
        export,
        library_urls=library_urls,
        preloaded=list(node["pb_libraries"]),
        title=node["pb_title"],
        fallback=_fallback_html(translator, node),
        language=builder.config.language or "en",
        follow_theme=node.get("pb_theme", "follow") == "follow",
    )
    digest = hashlib.sha256(page.encode("utf-8")).hexdigest()[:12]
    name = f"{FRAMES_DIR}/{node['pb_stem']}-{digest}.html"
    target = Path(builder.outdir, name)
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page, encoding="utf-8")
    # What the page links (its frame, the frame's libraries) is kept while it does.
    docname = builder.current_docname
    note_link(builder, docname, name)
    for url in library_urls.values():
        note_link(builder, docname, url.removeprefix("../"))
    return name


def visit_interactive_frame(self: Any, node: interactive_frame) -> None:
    name = _write_frame(self, node)
    if name is None:
        self.body.append('<div class="pb-interactive__fallback pb-interactive__fallback--only">')
        node["pb_url"] = None
        return
    url = relative_uri(self.builder.get_target_uri(self.builder.current_docname), name)
    node["pb_url"] = url
    style = []
    if node.get("pb_ratio"):
        style.append(f"aspect-ratio: {node['pb_ratio']};")
    if node.get("pb_height"):
        style.append(f"height: {node['pb_height']};")
    if node.get("pb_min_width"):
        style.append(f"--pb-min-width: {node['pb_min_width']};")
    quoted = html.escape(url)
    theme = ' data-pb-theme="follow"' if node.get("pb_theme", "follow") == "follow" else ""
    self.body.append(
        '<div class="pb-interactive__scroll">'
        f'<div class="pb-interactive__frame" style="{" ".join(style)}">'
    )
    if node["pb_isolation"] == "inline":
        self.body.append(
            f'<div class="pb-interactive__inline" data-pb-src="{quoted}"{theme}></div>'
        )
    else:
        sandbox = ' sandbox="allow-scripts"' if node["pb_isolation"] == "sandbox" else ""
        self.body.append(
            f'<iframe src="{quoted}" title="{html.escape(node["pb_title"])}" '
            f'loading="{node["pb_loading"]}"{sandbox}{theme}></iframe>'
        )
    self.body.append(
        f'</div></div>\n<div class="pb-interactive__fallback"><a href="{quoted}" '
        'class="pb-interactive__open-image">'
    )


def depart_interactive_frame(self: Any, node: interactive_frame) -> None:
    url = node.get("pb_url")
    if url is None:
        self.body.append("</div>\n")
        return
    self.body.append(
        f'</a><a class="pb-interactive__open" href="{html.escape(url)}">'
        "Open the interactive figure</a></div>\n"
    )


class InteractiveFrames(SphinxPostTransform):
    """Put each interactive figure's frame in front of its fallback (HTML pages only)."""

    default_priority = priorities.INTERACTIVE_FRAMES
    formats = ("html",)

    def is_supported(self) -> bool:
        # EPUB readers get the static figure: no scripts there.
        facts = build_facts(self.env)
        return super().is_supported() and facts.html and not facts.builder_name.startswith("epub")

    def run(self, **kwargs: Any) -> None:
        figures = _interactive_figures(self.document)
        # One plotly.js bundle for the page: the smallest that draws every figure on it
        # (several smaller bundles would together weigh more than the one).
        plotted = [f for f in figures if f.get("pb_plotly")]
        traces = [f.get("pb_plotly_traces") for f in plotted]
        page_traces = None if None in traces else sorted(set().union(*traces))
        for figure in figures:
            fallback = figure[0]
            attributes = {k: v for k, v in figure.attributes.items() if k.startswith("pb_")}
            attributes.pop("pb_plotly_traces", None)
            if figure.get("pb_plotly") and page_traces is not None:
                attributes["pb_plotly_traces"] = page_traces
            frame = interactive_frame("", **attributes)
            figure.replace(fallback, frame)
            frame += fallback


def _interactive_figures(root: nodes.Node) -> list[nodes.figure]:
    return find_components(root, COMPONENT_NAME, kind=nodes.figure)[COMPONENT_NAME]


def _page_has_inline(doctree: nodes.document | None) -> bool:
    return doctree is not None and any(
        node.get("pb_isolation") == "inline" for node in _interactive_figures(doctree)
    )


def _add_loader(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Only pages with an inline figure load the (tiny) loader."""
    if _page_has_inline(doctree):
        app.add_js_file(LOADER, loading_method="defer")


def _declare_loader(app: Sphinx, env: Any) -> list[str]:
    """env-get-updated: the loader the pages will link (none without a figure), so
    that a page not written again never keeps an older loader's ``?v=``."""
    if app.builder.format == "html" and not app.builder.name.startswith("epub"):
        declare(app, f"_static/{LOADER}", LOADER_SOURCE.read_bytes() if PAGES.of(env) else None)
    return []


def _write_shared_files(app: Sphinx, builder: Builder) -> None:
    """write-started: each library any figure uses, once for the site, and the inline
    loader, before any page links them (the loader with its ``?v=`` checksum)."""
    if builder.format != "html" or builder.name.startswith("epub"):
        return
    pages = PAGES.of(app.env)
    if not pages:
        Path(builder.outdir, "_static", LOADER).unlink(missing_ok=True)
        return
    # plotly.js: each figure's frame writes the bundle it needs (interactive/bundles.py).
    for name in sorted(set().union(*(page.libraries for page in pages.values())) - {"plotly"}):
        source = library_source(app.config, app.srcdir, name)
        if source is not None:
            write_library(Path(builder.outdir), name, source)
    static = Path(builder.outdir, "_static")
    static.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(LOADER_SOURCE, static / LOADER)


def setup_html(app: Sphinx) -> None:
    app.add_node(interactive_frame, html=(visit_interactive_frame, depart_interactive_frame))
    app.add_post_transform(InteractiveFrames)
    app.connect("html-page-context", _add_loader)
    app.connect("env-get-updated", _declare_loader)
    app.connect("write-started", _write_shared_files)
    # A frame or a library no page links any more goes, as a fresh build has none.
    own_folder(app, FRAMES_DIR)
    own_folder(app, STATIC_SUBDIR)
