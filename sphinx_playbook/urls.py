"""URLs: what an author may put in an ``href``, and where the builder writes a page.

An author's link may be http(s), mailto, or a relative path. Anything else
(``javascript:``, ``data:``, ``vbscript:``...) is refused, so an author's or a
contributor's front matter cannot run script in a reader's browser.

A page's own URL (canonical, Google Scholar's, a link between pages) comes from
the builder, which alone knows ``html_file_suffix``, ``html_link_suffix`` and
dirhtml's folders: :func:`page_url`.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from sphinx.builders import Builder

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
# Browsers drop ASCII tab and newline anywhere in a URL and trim C0 controls and
# spaces at both ends, so "java\tscript:" is javascript: to them; do the same.
_IGNORED_BY_BROWSERS = re.compile(r"[\t\n\r]")
_C0_AND_SPACE = "".join(chr(code) for code in range(0x21))


def is_safe_url(url: str) -> bool:
    """True for http(s), mailto and scheme-less (relative) URLs."""
    cleaned = _IGNORED_BY_BROWSERS.sub("", url).strip(_C0_AND_SPACE)
    try:
        scheme = urlsplit(cleaned).scheme
    except ValueError:
        return False
    if not scheme:
        # "//host/path" is protocol-relative: another origin, but a safe scheme.
        return True
    return scheme.lower() in SAFE_SCHEMES


def page_url(
    builder: Builder, docname: str, *, relative_to: str | None = None, anchor: str = ""
) -> str:
    """The URL of ``docname``'s page, and of ``#anchor`` on it, as ``builder`` writes it.

    With ``relative_to``, the link from that page (``builder.get_relative_uri``;
    empty, or only ``#anchor``, on the page itself). Without, the absolute URL
    under ``html_baseurl`` (``''`` when it is unset), the one Sphinx writes as the
    page's canonical link (``html_baseurl`` joined with ``builder.get_target_uri``).
    A builder that joins every page into one file (singlehtml) gives
    ``#document-name``: the anchor is then in that one file. Builders that write
    no HTML (latex, text) give the URL the html builder publishes the page at.
    """
    if relative_to is None:
        base = builder.config.html_baseurl
        if not base:
            return ""
        if builder.format == "html":
            uri = posixpath.join(base, builder.get_target_uri(docname))
        else:  # a PDF or a man page cites the page the html builder publishes
            uri = posixpath.join(base, docname + (builder.config.html_file_suffix or ".html"))
    elif relative_to == docname:
        uri = ""
    else:
        uri = builder.get_relative_uri(relative_to, docname)
    if anchor:
        uri = uri.partition("#")[0] + "#" + anchor
    return uri
