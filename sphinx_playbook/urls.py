"""What an author may put in an ``href``: http(s), mailto, or a relative path.

Anything else (``javascript:``, ``data:``, ``vbscript:``...) is refused, so an
author's or a contributor's front matter cannot run script in a reader's
browser.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

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
