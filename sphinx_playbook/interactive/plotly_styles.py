"""plotly.js's own stylesheet as a file, so a strict Content-Security-Policy holds.

plotly.js carries its stylesheet (the mode bar, hover labels, the notifier) as rules
in its code and, on its first plot, inserts them into a ``<style id=
"plotly.js-style-global">`` it creates; ``style-src 'self'`` refuses that element.
plotly.js skips the injection when an element with that id and the class
``no-inline-styles`` is already there (its own hook for strict policies). So the
rules are read out of the bundle the site serves, written once as
``_static/interactive/plotly-styles-<hash>.css``, and linked with that id and class.
The full bundle also injects MapLibre's stylesheet when it loads, unless an element
with the id it checks exists: that text becomes a file too, linked with that id.

The rules are read from the bundle's own code (the object of selector -> declarations
its ``addStyleRule`` loop walks), not copied from a plotly.js release, so they are
the rules of the plotly.js the site serves. A bundle whose code does not have that
shape, or that injects a ``<style>`` we cannot read, or a plotly.js older than the
hook (2.x), gives None: the page then allows
inline style elements as before (:data:`..csp.LIBRARY_STYLE_ELEMENTS`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

#: The loop that inserts the rules: ``for(k in rules)sel=k.replace(/^,/," ,")
#: .replace(/X/g,".js-plotly-plot .plotly").replace(/Y/g,".plotly-notifier")...``
_RULES_LOOP = re.compile(
    r"for\s*\(\s*(?:var\s+|let\s+|const\s+)?([\w$]+)\s+in\s+([\w$]+)\s*\)\s*\{?\s*"
    r"(?:var\s+)?[\w$]+\s*=\s*\1\s*\.replace\(\s*/\^,/g?\s*,\s*(['\"]) ,\3\s*\)"
)
#: One ``.replace(/X/g, "...")`` of the loop: the placeholder and what replaces it.
_PLACEHOLDER = re.compile(r"\.replace\(\s*/(\w)/g\s*,\s*(?:\"([^\"]*)\"|'([^']*)')\s*\)")
#: The tokens of the rules' object literal.
_TOKEN = re.compile(
    r"""\s*(?:(?P<punct>[{}:,])|"(?P<dq>(?:[^"\\]|\\.)*)"|'(?P<sq>(?:[^'\\]|\\.)*)'|(?P<name>[\w$]+))""",
    re.DOTALL,
)
#: The id and class plotly.js looks for before it injects its stylesheet.
LINK_ID = "plotly.js-style-global"
LINK_CLASS = "no-inline-styles"


def _js_string(text: str, quote: str) -> str:
    """A JavaScript string literal's value (the escapes plotly.js's build writes)."""
    text = re.sub(r"\\x([0-9a-fA-F]{2})", r"\\u00\1", text)
    if quote == "'":
        text = text.replace("\\'", "'").replace('"', '\\"')
    return str(json.loads(f'"{text}"'))


def _object_literal(code: str, start: int) -> list[tuple[str, str]] | None:
    """The (key, value) pairs of the object literal of strings that opens at ``start``."""
    pairs: list[tuple[str, str]] = []
    expect = "{"
    key = ""
    position = start
    while True:
        token = _TOKEN.match(code, position)
        if token is None:
            return None
        position = token.end()
        punct = token.group("punct")
        if token.group("dq") is not None:
            text = _js_string(token.group("dq"), '"')
        elif token.group("sq") is not None:
            text = _js_string(token.group("sq"), "'")
        else:
            text = token.group("name") or ""
        if expect == "{" and punct == "{":
            expect = "key"
        elif expect == "key" and punct == "}" and not pairs:
            return pairs
        elif expect == "key" and punct is None:
            key, expect = text, ":"
        elif expect == ":" and punct == ":":
            expect = "value"
        elif expect == "value" and punct is None and token.group("name") is None:
            pairs.append((key, text))
            expect = "next"
        elif expect == "next" and punct == ",":
            expect = "key"
        elif expect == "next" and punct == "}":
            return pairs
        else:
            return None


def extract_rules(code: str) -> str | None:
    """plotly.js's stylesheet, read from the bundle's code; None if it is not found or
    the bundle would inject it all the same."""
    loop = _RULES_LOOP.search(code)
    if loop is None or LINK_CLASS not in code:
        return None
    name = loop.group(2)
    placeholders = {
        match.group(1): match.group(2) if match.group(2) is not None else match.group(3)
        for match in _PLACEHOLDER.finditer(code, loop.end(), loop.end() + 400)
    }
    definitions = [
        match.end() - 1
        for match in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*=\s*\{{", code[: loop.start()])
    ]
    if not definitions or not placeholders:
        return None
    pairs = _object_literal(code, definitions[-1])
    if not pairs:
        return None
    rules = []
    for selector, declarations in pairs:
        selector = re.sub(r"^,", " ,", selector)
        for placeholder, replacement in placeholders.items():
            selector = selector.replace(placeholder, replacement)
        rules.append(f"{selector}{{{declarations}}}")
    # plotly.js inserts each rule at index 0 of its sheet: the last one comes first.
    return "\n".join(reversed(rules)) + "\n"


#: A stylesheet the bundle injects as it loads, unless its id is in the page already:
#: ``if(!document.getElementById("ID")){var e=document.createElement("style");
#: e.id="ID",e.textContent='...'``.
_ID_STYLE = re.compile(
    r"""getElementById\(\s*(["'])(?P<id>[^"']+)\1\s*\)\s*\)\s*\{\s*(?:var\s+)?(?P<v>[\w$]+)\s*=\s*"""
    r"""document\.createElement\(\s*["']style["']\s*\)\s*[;,]\s*(?P=v)\.id\s*=\s*(["'])(?P=id)\4\s*[;,]\s*"""
    r"""(?P=v)\.textContent\s*=\s*(?:"(?P<dq>(?:[^"\\]|\\.)*)"|'(?P<sq>(?:[^'\\]|\\.)*)')"""
)
_CREATES_STYLE = re.compile(r"""createElement\(\s*["']style["']\s*\)""")


@dataclass(frozen=True)
class Sheet:
    """One stylesheet plotly.js would inject, as a linked file: the element's id and
    class, and the rules."""

    id: str
    css: str
    css_class: str = ""

    @property
    def filename(self) -> str:
        """``plotly-styles-<hash>.css``: named by content, so every bundle of one plotly.js
        release (the rules are the same) shares one file."""
        return f"plotly-styles-{hashlib.sha256(self.css.encode('utf-8')).hexdigest()[:12]}.css"


def extract_sheets(code: str) -> tuple[Sheet, ...] | None:
    """Every stylesheet the bundle would inject; None if one of them cannot be read."""
    rules = extract_rules(code)
    if rules is None:
        return None
    sheets = [Sheet(LINK_ID, rules, LINK_CLASS)]
    for match in _ID_STYLE.finditer(code):
        quoted = match.group("dq"), match.group("sq")
        text = _js_string(quoted[0], '"') if quoted[0] is not None else _js_string(quoted[1], "'")
        sheets.append(Sheet(match.group("id"), text))
    # The global rules' <style> plus one per id: anything else would be injected.
    if len(_CREATES_STYLE.findall(code)) != len(sheets):
        return None
    return tuple(sheets)


@functools.lru_cache(maxsize=16)
def _read(path: str, size: int, mtime_ns: int) -> tuple[Sheet, ...] | None:
    return extract_sheets(Path(path).read_text(encoding="utf-8", errors="replace"))


def bundle_sheets(bundle: Path) -> tuple[Sheet, ...] | None:
    """The stylesheets of the plotly.js bundle at ``bundle`` (cached while unchanged)."""
    stat = bundle.stat()
    return _read(str(bundle), stat.st_size, stat.st_mtime_ns)


def write_sheets(folder: Path, bundle: Path) -> tuple[Sheet, ...] | None:
    """Write the bundle's stylesheets into ``folder`` (each once); None when the
    bundle's styles cannot all be linked."""
    sheets = bundle_sheets(bundle)
    for sheet in sheets or ():
        target = folder / sheet.filename
        if not target.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{sheet.filename}.{os.getpid()}")
            partial.write_text(sheet.css, encoding="utf-8")
            os.replace(partial, target)
    return sheets
