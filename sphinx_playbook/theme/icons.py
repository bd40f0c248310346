"""Inline SVG for the FontAwesome names pydata-sphinx-theme users put in icon_links.

The theme does not load the FontAwesome kit (90 KB of JavaScript); these few
glyphs cover the usual project links, and any other name gets a generic link
icon with the link's name for screen readers.
"""

from __future__ import annotations

from markupsafe import Markup

# 24x24 outline paths (drawn for this theme), keyed by the FontAwesome icon name.
_PATHS = {
    "github": (
        "M12 2a10 10 0 0 0-3.2 19.5c.5.1.7-.2.7-.5v-1.7c-2.8.6-3.4-1.2-3.4-1.2-.5-1.2-1.1-1.5"
        "-1.1-1.5-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.6 2.4 1.1 3 .9.1-.7.4-1.1.6-1.4-2.2-.3"
        "-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.8 1a9.6 9.6 0 0 1 5 0c1.9"
        "-1.3 2.8-1 2.8-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.3 4.7-4.6 5 .4.3.7.9.7 1.9"
        "v2.8c0 .3.2.6.7.5A10 10 0 0 0 12 2z"
    ),
    "gitlab": "M12 21 3 13.5 5.5 4l3 8h7l3-8 2.5 9.5z",
    "twitter": (
        "M22 5.8a8.2 8.2 0 0 1-2.4.7 4.1 4.1 0 0 0 1.8-2.3 8.2 8.2 0 0 1-2.6 1A4.1 4.1 0 0 0 "
        "11.8 9a11.6 11.6 0 0 1-8.4-4.3 4.1 4.1 0 0 0 1.3 5.5 4 4 0 0 1-1.9-.5 4.1 4.1 0 0 0 "
        "3.3 4 4.1 4.1 0 0 1-1.8.1 4.1 4.1 0 0 0 3.8 2.8A8.2 8.2 0 0 1 2 18.3 11.6 11.6 0 0 0 "
        "8.3 20c7.5 0 11.7-6.3 11.7-11.7v-.5A8.3 8.3 0 0 0 22 5.8z"
    ),
    "x-twitter": "M4 3h4.5l4 5.6L17.2 3H20l-6.2 7.2L21 21h-4.5l-4.4-6.1L6.8 21H4l6.8-7.8z",
    "mastodon": (
        "M20.9 8.4c0-4-2.6-5.1-2.6-5.1-2.6-1.2-9.6-1.2-12.2 0 0 0-2.6 1.1-2.6 5.1 0 4.7-.3 "
        "10.6 4.3 11.8 1.7.4 3.2.5 4.4.5 2.2-.1 3.4-.8 3.4-.8l-.1-1.6s-1.5.5-3.3.4c-1.7-.1"
        "-3.5-.2-3.8-2.3"
        "v-.6s1.7.4 3.8.5c1.3.1 2.5-.1 3.7-.2 2.4-.3 4.4-1.7 4.7-3 .4-2 .3-4.7.3-4.7z"
    ),
    "discord": (
        "M19 5.5A16 16 0 0 0 15.1 4l-.5 1a15 15 0 0 0-5.2 0L8.9 4A16 16 0 0 0 5 5.5 17 17 0 0 0 "
        "2 17a16 16 0 0 0 4.9 2.5l1-1.6a10 10 0 0 1-1.6-.8l.4-.3a11.5 11.5 0 0 0 10.6 0l.4.3-1.6"
        ".8 1 1.6A16 16 0 0 0 22 17a17 17 0 0 0-3-11.5zM9 14.6c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8"
        ".9 1.8 2-.8 2-1.8 2zm6 0c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2z"
    ),
    "python": (
        "M11.9 2C7 2 7.3 4.1 7.3 4.1v2.2H12v.7H5.4S2 6.6 2 11.9s2.9 5.1 2.9 5.1h1.8v-2.5s-.1-2.9"
        " 2.9-2.9h4.9s2.8 0 2.8-2.7V4.7S17.7 2 11.9 2zM9.2 3.6a.9.9 0 1 1 0 1.8.9.9 0 0 1 0-1.8z"
        "M12.1 22c4.9 0 4.6-2.1 4.6-2.1v-2.2H12V17h6.6s3.4.4 3.4-4.9-2.9-5.1-2.9-5.1h-1.8v2.5s.1"
        " 2.9-2.9 2.9H9.5s-2.8 0-2.8 2.7v4.5S6.3 22 12.1 22zm2.7-1.6a.9.9 0 1 1 0-1.8.9.9 0 0 1 0"
        " 1.8z"
    ),
    "link": (
        "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 "
        "5.7 5.7l1-1"
    ),
}
_ALIASES = {
    "square-github": "github",
    "square-gitlab": "gitlab",
    "square-twitter": "twitter",
    "square-x-twitter": "x-twitter",
    "python": "python",
}
_STROKED = {"link"}


def icon_svg(fontawesome_classes: str) -> Markup:
    """The SVG for ``"fa-brands fa-github"``-style classes, or a generic link icon."""
    names = [c.removeprefix("fa-") for c in fontawesome_classes.split() if c.startswith("fa-")]
    name = next((_ALIASES.get(n, n) for n in names if _ALIASES.get(n, n) in _PATHS), "link")
    if name in _STROKED:
        paint = 'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"'
    else:
        paint = 'fill="currentColor"'
    return Markup(
        f'<svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" {paint}>'
        f'<path d="{_PATHS[name]}"/></svg>'
    )
