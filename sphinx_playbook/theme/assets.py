"""Per-page pruning of the stylesheets and scripts a page does not use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from .registration import uses_playbook_theme

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
