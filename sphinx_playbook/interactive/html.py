"""HTML output of ``interactive-figure``: the frame page, the iframe, the fallback.

Each figure's export becomes a small page of its own under ``_interactive/``,
named by the hash of its content, that loads the site's shared libraries from
``_static/interactive/``. The article embeds it with ``<iframe loading="lazy">``
(or, with ``:isolation: inline``, a tiny loader injects it), inside a box whose
size the page reserves from the start (a ``style`` attribute, which the theme moves
into the page's own stylesheet, see csp.py). The static fallback follows the frame;
CSS shows it instead of the frame on phones (``:narrow: image``), in print and
when JavaScript is off, so the article itself needs no script.
"""

from __future__ import annotations

import hashlib
import html
import re
import shutil
import urllib.parse
import zlib
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.osutil import relative_uri

from .. import csp
from ..config import read_config
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
from .plotly_styles import Sheet, write_sheets
from .shared_data import share_repeated_data

#: Where the figures' own pages are written, relative to the output root.
FRAMES_DIR = "_interactive"
#: The ``:isolation: inline`` loader (about 1 KB, so its comments are here),
#: copied to ``_static/``; it fetches a figure's page when it nears the viewport, links
#: the export's own stylesheet, moves the page's plot and scripts into the box, and
#: runs the scripts (all files) in order, each library once.
LOADER = "sphinx-playbook-interactive.js"

#: The files every figure's page and the pages that hold figures share, copied to
#: ``_static/`` (each under 2 KB, so their comments are in them): the rules of the
#: figure's box on the article page (under any theme); the figure's own page filling
#: its frame; the script that fits Plotly plots to the box and follows the reader's
#: colour mode. Files, not inline, so a strict Content-Security-Policy applies.
STYLESHEET = "sphinx-playbook-interactive.css"
FRAME_STYLESHEET = "sphinx-playbook-frame.css"
FRAME_SCRIPT = "sphinx-playbook-frame.js"
STATIC_SOURCES = Path(__file__).parent / "static"
SHARED_FILES = (LOADER, STYLESHEET, FRAME_STYLESHEET, FRAME_SCRIPT)

FRAME_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
{policy}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{frame_css}">
{head}</head>
<body>
<noscript>{fallback}</noscript>
<div data-pb-box>{body}<script src="{frame_js}"{follow}></script></div>
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
    static_urls: dict[str, str],
    follow_theme: bool = True,
    policy: str = "",
    library_sheets: tuple[tuple[Sheet, str], ...] = (),
) -> tuple[str, dict[str, str]]:
    """The figure's own page (shared libraries, the export, its fallback for JS off)
    and the files it needs besides: the export's inline scripts, and its style
    attributes and ``<style>`` elements as one stylesheet, each named by its content,
    beside the page in ``_interactive/``. ``static_urls`` maps :data:`SHARED_FILES`
    to their URLs from there; ``policy`` is a ``<meta>`` Content-Security-Policy;
    ``library_sheets`` plotly.js's stylesheets with their URLs (:mod:`.plotly_styles`)."""
    head, body = _split_document(share_repeated_data(replace_placeholders(export, library_urls)))
    files: dict[str, str] = {}
    head, scripts = csp.move_inline_scripts(head, csp.script_name)
    files.update(scripts)
    body, scripts = csp.move_inline_scripts(body, csp.script_name)
    files.update(scripts)
    head, head_styles = csp.move_style_elements(head)
    body, body_styles = csp.move_style_elements(body)
    body, rules = csp.move_style_attributes(body)
    own_css = head_styles + body_styles + csp.stylesheet(rules)
    if own_css:
        name = csp.script_name(own_css)[:-3] + ".css"
        files[name] = own_css
        head = f'<link rel="stylesheet" href="{name}" data-pb-own>\n' + head
    libraries = "".join(
        f'<script src="{library_urls[name]}"></script>\n'
        for name in preloaded
        if name in library_urls
    )
    libraries = "".join(_library_link(sheet, url) for sheet, url in library_sheets) + libraries
    page = FRAME_PAGE.format(
        lang=html.escape(language or "en"),
        policy=policy + "\n" if policy else "",
        title=html.escape(title),
        frame_css=html.escape(static_urls[FRAME_STYLESHEET]),
        head=libraries + (head + "\n" if head else ""),
        fallback=fallback,
        body=body,
        frame_js=html.escape(static_urls[FRAME_SCRIPT]),
        follow=" data-pb-follow" if follow_theme else "",
    )
    return page, files


def _library_link(sheet: Sheet, url: str) -> str:
    """A stylesheet of plotly.js, marked so that plotly.js injects no ``<style>``."""
    css_class = f' class="{html.escape(sheet.css_class)}"' if sheet.css_class else ""
    return (
        f'<link rel="stylesheet" id="{html.escape(sheet.id)}"{css_class} '
        f'href="{html.escape(url)}">\n'
    )


def _checksum(path: Path) -> str:
    return f"{zlib.crc32(path.read_bytes()):08x}"


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
    library_sheets: tuple[tuple[Sheet, str], ...] = ()
    unlinked_styles = False
    for name in {*node["pb_libraries"], *re.findall(r"@@playbook-library:([\w.-]+)@@", export)}:
        traces = node.get("pb_plotly_traces")
        source = figure_library(builder.config, builder.srcdir, name, traces)
        if source is not None:
            library_urls[name] = f"../{STATIC_SUBDIR}/{library_filename(name, source)}"
            if name == "plotly":  # the bundle this figure needs (written once)
                write_library(Path(builder.outdir), name, source)
                sheets = write_sheets(Path(builder.outdir, STATIC_SUBDIR), source)
                unlinked_styles = sheets is None
                library_sheets = tuple(
                    (sheet, f"../{STATIC_SUBDIR}/{sheet.filename}") for sheet in sheets or ()
                )
    static_urls = {
        name: f"../_static/{name}?v={_checksum(STATIC_SOURCES / name)}"
        for name in (FRAME_STYLESHEET, FRAME_SCRIPT)
    }
    page, files = frame_page(
        export,
        library_urls=library_urls,
        preloaded=list(node["pb_libraries"]),
        title=node["pb_title"],
        fallback=_fallback_html(translator, node),
        language=builder.config.language or "en",
        static_urls=static_urls,
        follow_theme=node.get("pb_theme", "follow") == "follow",
        policy=csp.meta_tag(csp.policy(unlinked_styles)) if read_config(builder.config).csp else "",
        library_sheets=library_sheets,
    )
    for file, text in files.items():
        path = Path(builder.outdir, FRAMES_DIR, file)
        if not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    digest = hashlib.sha256(page.encode("utf-8")).hexdigest()[:12]
    name = f"{FRAMES_DIR}/{node['pb_stem']}-{digest}.html"
    target = Path(builder.outdir, name)
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page, encoding="utf-8")
    # What the page links (its frame, the frame's libraries) is kept while it does.
    docname = builder.current_docname
    note_link(builder, docname, name)
    for file in files:
        note_link(builder, docname, f"{FRAMES_DIR}/{file}")
    for url in [*library_urls.values(), *(url for _, url in library_sheets)]:
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


def _add_loader(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Pages with a figure link the figures' stylesheet; only those with an inline
    figure load the (tiny) loader."""
    if doctree is None or not build_facts(app.env).html:
        return
    figures = _interactive_figures(doctree)
    if figures:
        app.add_css_file(STYLESHEET)
    inline = [node for node in figures if node.get("pb_isolation") == "inline"]
    if inline:
        app.add_js_file(LOADER, loading_method="defer")
    if any(node.get("pb_plotly") for node in inline):
        # plotly.js's stylesheet as a file, which it then does not inject; without
        # one, it injects a <style> into this page (csp.LIBRARY_STYLE_ELEMENTS).
        source = library_source(app.config, app.srcdir, "plotly")
        folder = Path(app.builder.outdir, STATIC_SUBDIR)
        sheets = write_sheets(folder, source) if source is not None else None
        if sheets is None:
            context["playbook_csp_library_styles"] = True
        for sheet in sheets or ():
            name = f"{STATIC_SUBDIR.removeprefix('_static/')}/{sheet.filename}"
            attributes: dict[str, Any] = {"id": sheet.id}
            if sheet.css_class:
                attributes["class"] = sheet.css_class
            app.add_css_file(name, **attributes)


def _declare_loader(app: Sphinx, env: Any) -> list[str]:
    """env-get-updated: the shared files the pages will link (none without a figure),
    so that a page not written again never keeps an older file's ``?v=``."""
    if app.builder.format == "html" and not app.builder.name.startswith("epub"):
        for name in SHARED_FILES:
            data = (STATIC_SOURCES / name).read_bytes() if PAGES.of(env) else None
            declare(app, f"_static/{name}", data)
    return []


def _write_shared_files(app: Sphinx, builder: Builder) -> None:
    """write-started: each library any figure uses, once for the site, and the inline
    loader, before any page links them (the loader with its ``?v=`` checksum)."""
    if builder.format != "html" or builder.name.startswith("epub"):
        return
    pages = PAGES.of(app.env)
    if not pages:
        for name in SHARED_FILES:
            Path(builder.outdir, "_static", name).unlink(missing_ok=True)
        return
    # plotly.js: each figure's frame writes the bundle it needs (interactive/bundles.py).
    for name in sorted(set().union(*(page.libraries for page in pages.values())) - {"plotly"}):
        source = library_source(app.config, app.srcdir, name)
        if source is not None:
            write_library(Path(builder.outdir), name, source)
    static = Path(builder.outdir, "_static")
    static.mkdir(parents=True, exist_ok=True)
    for name in SHARED_FILES:
        shutil.copyfile(STATIC_SOURCES / name, static / name)


def setup_html(app: Sphinx) -> None:
    app.add_node(interactive_frame, html=(visit_interactive_frame, depart_interactive_frame))
    app.add_post_transform(InteractiveFrames)
    app.connect("html-page-context", _add_loader)
    app.connect("env-get-updated", _declare_loader)
    app.connect("write-started", _write_shared_files)
    # A frame or a library no page links any more goes, as a fresh build has none.
    own_folder(app, FRAMES_DIR)
    own_folder(app, STATIC_SUBDIR)
