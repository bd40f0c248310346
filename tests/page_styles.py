"""An element's inline style as the reader's browser applies it.

Under the sphinx_playbook theme a page holds no ``style`` attribute (a strict
Content-Security-Policy would drop it): each one is a ``pb-s-*`` class whose rule is
in the page's own stylesheet (theme/assets.py, csp.py). ``style_of`` gives the
declarations either way, as they were written (without the ``!important`` the
stylesheet adds), so a test reads what the author asked for.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from bs4 import BeautifulSoup, Tag

_RULE = re.compile(r"\.(pb-s-[0-9a-f]+)\{([^}]*)\}")


def page_rules(page: BeautifulSoup, page_path: Path) -> dict[str, str]:
    """Every ``pb-s-*`` rule of the stylesheets ``page`` links (read from disk)."""
    rules: dict[str, str] = {}
    for link in page.find_all("link", rel="stylesheet", href=True):
        href = urlsplit(link["href"]).path
        path = (page_path.parent / href).resolve()
        if href.startswith(("http:", "https:")) or not path.is_file():
            continue
        for name, body in _RULE.findall(path.read_text(encoding="utf-8")):
            rules[name] = body
    return rules


def style_of(element: Tag, rules: dict[str, str]) -> str:
    """``element``'s declarations, ``"name: value;"`` joined by spaces ("" if none),
    from its ``style`` attribute or its class among ``rules`` (:func:`page_rules`)."""
    if element.has_attr("style"):
        return element["style"]
    for name in element.get("class", []):
        if name in rules:
            declarations = [d.strip() for d in rules[name].split("; ")]
            return " ".join(re.sub(r"\s*!important$", "", d) + ";" for d in declarations if d)
    return ""
