"""The theme's scripts and print stylesheet, linked through Sphinx, and per-page
pruning of the assets a page does not use.

Scripts are added with ``app.add_js_file`` (the print stylesheet with
``app.add_css_file``), so Sphinx writes each link with the ``?v=<checksum>`` of
the file it copied: a browser never runs a cached script of an older build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from ..machinery import priorities
from .registration import uses_playbook_theme

#: The theme's own script, under ``_static``.
SCRIPT = "scripts/sphinx-playbook.js"
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
