"""The ``sphinx_playbook`` HTML theme: its registration and the hooks it needs.

Templates live in ``theme/sphinx_playbook/``; each concern has its module:
``registration`` (which builds use the theme), ``page_context`` (title block,
byline, ``<head>`` tags), ``navigation`` (the chapters menu, previous and next
pages), ``pygments_stylesheet`` (highlighting for both colour modes), ``myst_lexer``
(the ``myst`` language of code blocks),
``options`` (pydata-sphinx-theme's options: honoured, or warned about),
``assets`` (the theme's scripts, per-page pruning) and ``parent_static``
(none of pydata-sphinx-theme's static files in the output).
"""

from __future__ import annotations

from sphinx.application import Sphinx

from ..machinery import priorities
from .assets import (
    link_script,
    link_search_scripts,
    page_stylesheet,
    prune_unused_assets,
    remove_stale_page_stylesheets,
)
from .myst_lexer import setup_lexer
from .navigation import (
    ChapterGroup,
    ChapterLink,
    add_menu_to_context,
    chapter_groups,
    note_root_toctrees,
    update_navigation,
)
from .options import setup_options
from .page_context import add_article_to_context, byline_context, format_dates, reference_tags
from .parent_static import note_linked_files, remove_parent_theme_files
from .pygments_stylesheet import (
    DARK_STYLE,
    LIGHT_STYLE,
    link_stylesheet,
    pygments_css,
    replace_pygments_links,
    write_stylesheet,
)
from .registration import (
    ARTICLE_BUILDERS,
    THEME_DIR,
    THEME_NAME,
    note_build_facts,
    put_components_first,
    uses_playbook_theme,
)

__all__ = [
    "ARTICLE_BUILDERS",
    "DARK_STYLE",
    "LIGHT_STYLE",
    "THEME_DIR",
    "THEME_NAME",
    "ChapterGroup",
    "ChapterLink",
    "byline_context",
    "chapter_groups",
    "pygments_css",
    "reference_tags",
    "setup_theme",
    "uses_playbook_theme",
]


def setup_theme(app: Sphinx) -> None:
    """Register the theme and connect its hooks (all public Sphinx events)."""
    app.add_html_theme(THEME_NAME, str(THEME_DIR))
    app.connect("builder-inited", note_build_facts, priority=priorities.NOTE_BUILD_FACTS)
    setup_lexer(app)
    app.connect("config-inited", put_components_first)
    setup_options(app)
    app.connect("builder-inited", link_stylesheet)
    app.connect("builder-inited", link_script)
    app.connect("doctree-read", note_root_toctrees)
    app.connect("env-updated", update_navigation)
    app.connect("env-updated", format_dates)
    app.connect("write-started", write_stylesheet)
    app.connect("html-page-context", add_article_to_context)
    app.connect("html-page-context", add_menu_to_context)
    app.connect("html-page-context", prune_unused_assets)
    app.connect("html-page-context", replace_pygments_links)
    app.connect("html-page-context", link_search_scripts)
    app.connect("html-page-context", page_stylesheet, priority=priorities.MOVE_STYLE_ATTRIBUTES)
    # After every other handler has added or removed the page's assets.
    app.connect("html-page-context", note_linked_files, priority=priorities.NOTE_LINKED_FILES)
    app.connect("build-finished", remove_parent_theme_files)
    app.connect("build-finished", remove_stale_page_stylesheets)
