"""Code highlighting for both colour modes, in a stylesheet of the theme's own.

Sphinx writes ``_static/pygments.css`` from one style and links it with a
checksum of that file; pydata-sphinx-theme overwrites the file at
``build-finished``, after the pages were written with the old checksum. This
theme writes its stylesheet under its own name at ``write-started``, before
Sphinx copies the static files and writes any page, so the ``?v=`` checksum
Sphinx adds to the link is the served file's, and links it in pygments.css's
place. Only public API: ``app.add_css_file``, the ``write-started`` and
``html-page-context`` events, and ``PygmentsBridge.get_style`` (Sphinx's reading
of a style name).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pygments.formatters import HtmlFormatter
from pygments.style import Style
from pygments.util import ClassNotFound
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.highlighting import PygmentsBridge

from ..diagnostics import PlaybookWarning, warn
from ..machinery import priorities
from .registration import uses_playbook_theme

#: Where the stylesheet is written, under ``_static``.
STYLESHEET = "styles/sphinx-playbook-pygments.css"
#: The highlighting styles of pydata-sphinx-theme's theme.conf, which ours inherits.
LIGHT_STYLE, DARK_STYLE = "a11y-high-contrast-light", "a11y-high-contrast-dark"
#: Sphinx's one-mode stylesheets, which ours replaces in each page's links.
_REPLACED = frozenset({"_static/pygments.css", "_static/pygments_dark.css"})


#: The ``/* Comment.Single */`` Pygments writes after each rule.
_TOKEN_COMMENT = re.compile(r" ?/\*[^*]*\*/")


def pygments_css(light_style: str | type[Style], dark_style: str | type[Style]) -> str:
    """Highlighting for both modes, following the reader's system without JavaScript.

    pydata-sphinx-theme scopes both styles to ``html[data-theme=...]``, which only
    its script sets; here the light style is the default, and the dark one applies
    when the reader chose dark, or has no choice stored and a dark system, on
    screens.
    """
    light = HtmlFormatter(style=light_style).get_style_defs(".highlight")
    dark = HtmlFormatter(style=dark_style)
    chosen_dark = dark.get_style_defs('html[data-theme="dark"] .highlight')
    # No choice stored (no JavaScript), or pydata's default_mode "auto".
    system_dark = dark.get_style_defs(
        'html:not([data-theme="light"], [data-theme="dark"]) .highlight'
    )
    # Screens only: paper is light whatever the mode (the print stylesheet), and its
    # code keeps the light style's colours.
    css = (
        f"{light}\n@media screen {{\n{chosen_dark}\n}}\n"
        f"@media screen and (prefers-color-scheme: dark) {{\n{system_dark}\n}}\n"
    )
    # Pygments names each token type in a comment: 40 % of the gzip bytes, for nobody.
    return _TOKEN_COMMENT.sub("", css)


def _style(name: str, setting: str, fallback: str) -> type[Style]:
    """The style ``name`` names, as Sphinx reads it; else ``fallback``, with a warning."""
    try:
        return PygmentsBridge("html").get_style(name)
    except (ClassNotFound, ImportError, AttributeError, ValueError):
        warn(
            f"{setting} {name!r} is not a Pygments style; code is highlighted with {fallback!r}",
            PlaybookWarning.CONFIG,
        )
        return PygmentsBridge("html").get_style(fallback)


def chosen_styles(builder: StandaloneHTMLBuilder) -> tuple[type[Style], type[Style]]:
    """(light, dark): ``html_theme_options``' ``pygments_light_style`` and
    ``pygments_dark_style``, else, for light, conf.py's ``pygments_style``, else
    the theme's defaults."""
    chosen = getattr(builder, "theme_options", None) or {}
    defaults = builder.theme.get_options()
    light_default = defaults.get("pygments_light_style") or LIGHT_STYLE
    dark_default = defaults.get("pygments_dark_style") or DARK_STYLE
    if chosen.get("pygments_light_style"):
        option = "html_theme_options: pygments_light_style"
        light = _style(chosen["pygments_light_style"], option, light_default)
    elif builder.config.pygments_style:
        light = _style(builder.config.pygments_style, "conf.py: pygments_style", light_default)
    else:
        light = _style(light_default, "the theme's pygments_light_style", LIGHT_STYLE)
    dark_name = chosen.get("pygments_dark_style") or dark_default
    dark = _style(dark_name, "html_theme_options: pygments_dark_style", dark_default)
    return light, dark


def link_stylesheet(app: Sphinx) -> None:
    """``builder-inited``: link the stylesheet (:func:`replace_pygments_links` places it)."""
    if uses_playbook_theme(app):
        app.add_css_file(STYLESHEET, priority=priorities.PYGMENTS_STYLESHEET)


def write_stylesheet(app: Sphinx, builder: Builder) -> None:
    """``write-started``: write the stylesheet before static files are copied and pages
    written, so the checksum in each page's link is this file's."""
    if not uses_playbook_theme(app) or not isinstance(builder, StandaloneHTMLBuilder):
        return
    css = pygments_css(*chosen_styles(builder))
    path = Path(builder.outdir, "_static", STYLESHEET)
    if path.is_file() and path.read_text(encoding="utf-8") == css:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(css, encoding="utf-8")


def replace_pygments_links(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``: the page links this stylesheet where Sphinx put pygments.css
    (the cascade is unchanged), and neither of Sphinx's one-mode stylesheets.

    ``css_files`` is edited in place, as an extension adding a file for one page
    does: Sphinx restores it for the next page.
    """
    css_files = context.get("css_files")
    if not css_files or not uses_playbook_theme(app):
        return
    ours = next((a for a in css_files if _path(a) == f"_static/{STYLESHEET}"), None)
    if ours is None or not any(_path(a) in _REPLACED for a in css_files):
        return
    in_place: list[Any] = []
    for asset in css_files:
        if _path(asset) in _REPLACED:
            if not any(a is ours for a in in_place):
                in_place.append(ours)
        elif asset is not ours:
            in_place.append(asset)
    css_files[:] = in_place


def _path(asset: Any) -> str:
    return str(getattr(asset, "filename", asset))
