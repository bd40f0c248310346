"""The theme's scripts and stylesheets, linked through Sphinx, per-page pruning of
the assets a page does not use, and each page's own stylesheet.

Scripts are added with ``app.add_js_file`` (the print stylesheet with
``app.add_css_file``), so Sphinx writes each link with the ``?v=<checksum>`` of
the file it copied: a browser never runs a cached script of an older build.

No page holds an inline script, a ``<style>`` element or a ``style`` attribute of
ours (so a strict Content-Security-Policy applies, see csp.py): the colour mode is
a tiny blocking file in ``<head>``; what is particular to one page (its running
title on paper, the style attributes of its body) is written to its own stylesheet,
``_static/playbook-pages/<page>.css``, linked with ``media="print"`` when it holds
only the title. Sphinx's ``sphinx_highlight.js`` (search terms highlighted after a
search) is loaded by the theme's script only when there are terms to highlight.
"""

from __future__ import annotations

import weakref
import zlib
from pathlib import Path
from typing import Any

from docutils import nodes
from markupsafe import Markup
from sphinx.application import Sphinx
from sphinx.builders import Builder

from .. import csp
from ..config import read_config
from ..machinery import priorities
from .registration import uses_playbook_theme

#: The theme's own script, under ``_static``.
SCRIPT = "scripts/sphinx-playbook.js"
#: The colour mode before first paint: blocking, in ``<head>`` (layout.html), tiny.
MODE_SCRIPT = "scripts/sphinx-playbook-mode.js"
#: Sphinx's search-term highlighting: loaded by SCRIPT when there are terms.
HIGHLIGHT_SCRIPT = "sphinx_highlight.js"
#: Each page's own stylesheet, under the output folder.
PAGE_STYLESHEETS = "_static/playbook-pages"
#: The print stylesheet, under ``_static``: linked with ``media="print"``, so a screen
#: never applies it and the browser fetches it at low priority, without delaying paint.
PRINT_STYLESHEET = "styles/sphinx-playbook-print.css"
#: The scripts Sphinx's search page needs besides those of every page.
SEARCH_SCRIPTS = ("searchtools.js", "language_data.js")

# Assets that extensions add to every page but that only some pages use, keyed by
# the node class prefix whose presence in the page means "used".
_PAGE_SPECIFIC_ASSETS = {
    "sd-": ("sphinx-design.min.css", "design-tabs.js"),
}


def asset_name(asset: Any) -> str:
    """The file name of an entry of the page's ``css_files`` or ``script_files``."""
    return Path(str(getattr(asset, "filename", asset))).name


def _has_class_prefix(doctree: nodes.document, prefix: str) -> bool:
    return any(
        any(c.startswith(prefix) for c in node["classes"])
        for node in doctree.findall(nodes.Element)
    )


def link_script(app: Sphinx) -> None:
    """``builder-inited``: the theme's script on every page, deferred, and its print
    stylesheet, after every other stylesheet so that it adjusts them on paper."""
    if uses_playbook_theme(app):
        app.add_js_file(MODE_SCRIPT)
        app.add_js_file(SCRIPT, loading_method="defer")
        app.add_css_file(PRINT_STYLESHEET, media="print", priority=priorities.PRINT_STYLESHEET)


def link_search_scripts(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``: the search page's scripts, added for that page only."""
    if templatename == "search.html" and uses_playbook_theme(app):
        for filename in SEARCH_SCRIPTS:
            app.add_js_file(filename)


def prune_unused_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``: drop sphinx-design's assets from pages without its components.

    The page's ``css_files`` and ``script_files`` are edited in place, as an
    extension adding a file for one page does: Sphinx restores them for the next.
    """
    if not uses_playbook_theme(app):
        return
    for prefix, filenames in _PAGE_SPECIFIC_ASSETS.items():
        if doctree is not None and _has_class_prefix(doctree, prefix):
            continue
        for key in ("css_files", "script_files"):
            assets = context.get(key)
            if assets is None:
                continue
            assets[:] = [a for a in assets if asset_name(a) not in filenames]


#: pydata-sphinx-theme's inline scripts: they serve its own scripts, which the theme
#: does not ship.
_PYDATA_INLINE = ("DOCUMENTATION_OPTIONS.pagename", "DOCUMENTATION_OPTIONS.search_as_you_type")


#: The pages each build has written in this process: the pages Sphinx makes besides
#: the sources' (genindex, search, domain indices) are all written by the main one.
_WRITTEN: weakref.WeakKeyDictionary[Builder, set[str]] = weakref.WeakKeyDictionary()


def _is_article_html(app: Sphinx) -> bool:
    builder = app.builder
    return builder.format == "html" and not builder.name.startswith("epub")


def _checksum(path: Path) -> str:
    return f"{zlib.crc32(path.read_bytes()):08x}"


def page_scripts(app: Sphinx, templatename: str, context: dict[str, Any]) -> None:
    """No inline script of pydata-sphinx-theme's (added by its own handler); Sphinx's
    highlighting script only on the search page (searchtools.js reads its flag), its
    URL handed to the theme's script everywhere else (``data-pb-highlight``)."""
    if not uses_playbook_theme(app):
        return
    scripts = context.get("script_files")
    if scripts is None:
        return
    scripts[:] = [
        js
        for js in scripts
        if getattr(js, "filename", js)
        or not str(getattr(js, "attributes", {}).get("body", "")).startswith(_PYDATA_INLINE)
    ]
    if templatename == "search.html" or not _is_article_html(app):
        return
    highlight = [js for js in scripts if asset_name(js) == HIGHLIGHT_SCRIPT]
    if not highlight:
        return
    scripts[:] = [js for js in scripts if asset_name(js) != HIGHLIGHT_SCRIPT]
    source = Path(app.outdir, "_static", HIGHLIGHT_SCRIPT)
    if source.is_file():
        url = context["pathto"]("_static/" + HIGHLIGHT_SCRIPT, resource=True)
        context["playbook_highlight_script"] = f"{url}?v={_checksum(source)}"


def page_stylesheet(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``, once the body is final: the page's own stylesheet (its
    running title on paper, its style attributes as classes) and, with
    ``playbook_csp``, the policy; the page's scripts (:func:`page_scripts`)."""
    if not uses_playbook_theme(app) or not _is_article_html(app):
        return
    page_scripts(app, templatename, context)
    if read_config(app.config).csp:
        # First of <head> after the charset and viewport: a <meta> policy governs
        # only what follows it (the math fonts' preloads are metatags too).
        policy = csp.policy(bool(context.get("playbook_csp_library_styles")))
        context["metatags"] = "\n    " + csp.meta_tag(policy) + context.get("metatags", "")
    rules: dict[str, str] = {}
    body = context.get("body")
    if isinstance(body, str) and "style" in body:
        moved, rules = csp.move_style_attributes(body)
        if rules:
            context["body"] = Markup(moved) if isinstance(body, Markup) else moved
    title = Markup(context.get("title") or "").striptags()
    css = ""
    if title:
        css += "@media print{:root{--pb-print-title:" + csp.css_string(title) + "}}\n"
    css += csp.stylesheet(rules)
    target = Path(app.outdir, PAGE_STYLESHEETS, pagename + ".css")
    _WRITTEN.setdefault(app.builder, set()).add(pagename)
    if not css:
        target.unlink(missing_ok=True)
        return
    data = css.encode("utf-8")
    if not target.is_file() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    url = context["pathto"](f"{PAGE_STYLESHEETS}/{pagename}.css", resource=True)
    context["playbook_page_stylesheet"] = {
        "href": f"{url}?v={zlib.crc32(data):08x}",
        "media": None if rules else "print",
    }


def remove_stale_page_stylesheets(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: the stylesheets of pages that no longer exist go, as a
    fresh build would not write them (pages outside the sources, as ``genindex``,
    are written by every build, and keep theirs)."""
    folder = Path(app.outdir, PAGE_STYLESHEETS)
    if exception is not None or not folder.is_dir() or not _is_article_html(app):
        return
    kept = set(app.env.found_docs) | _WRITTEN.get(app.builder, set())
    for path in sorted(folder.rglob("*.css"), reverse=True):
        if path.relative_to(folder).with_suffix("").as_posix() not in kept:
            path.unlink()
    for directory in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
        if not any(directory.iterdir()):
            directory.rmdir()
