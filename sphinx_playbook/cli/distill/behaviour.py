"""What the article's own CSS and JavaScript address, read before converting.

An article's behaviour hangs on its markup: a stylesheet draws speaker labels for
``ol.debate li.red``, hides ``.content`` until a button opens it; a script queries
``#epoch-view``, listens for Distill's ``onscreen`` on a ``<d-figure>``, and links
call it through ``onclick``. The import keeps every element these address (its tag,
id, classes, style, ``data-*`` and handlers): :class:`Behaviour` collects, from the
article's stylesheets (inline and local files) and scripts (inline and local files),
the classes, ids and element names they select or query, the listeners to Distill's
events, and the inline handlers of the body, so that converters can ask
:meth:`Behaviour.addressed` and the report can count what was found and kept.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, Tag

from .assets import Assets, is_code_script
from .elements import GENERATED, LAYOUT_CLASSES
from .report import Report
from .source import V1_NAMES

#: Distill's runtime, which the theme replaces (its own listeners are not the article's).
DISTILL_RUNTIME = re.compile(r"template\.v\d(\.min)?\.js", re.IGNORECASE)
#: ``x.addEventListener("onscreen", ...)``: a script waiting for Distill's d-figure events.
DISTILL_EVENTS = re.compile(r"""addEventListener\(\s*(['"`])(ready|onscreen|offscreen)\1""")
#: The first argument of a call that selects elements by a CSS selector (or by id/class).
_SELECTING_CALL = re.compile(
    r"""\b(querySelector(?:All)?|closest|matches|selectAll|select|getElementById|"""
    r"""getElementsByClassName|getElementsByTagName|\$|jQuery)\s*\(\s*(['"`])([^'"`]{1,300})\2"""
)
_ID_STRING = re.compile(r"""(['"`])([\w][\w:.-]{1,100})\1""")
_CSS_RULE = re.compile(r"([^{}]+)\{[^{}]*\}")
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_ID = re.compile(r"#(-?[_a-zA-Z][\w-]*)")
_ELEMENT = re.compile(r"(?:^|[\s>+~,(])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)")
#: Classes the converters already turn into Distill's layout and figure constructs.
_OWN_CLASSES = frozenset(LAYOUT_CLASSES) | {"figure-legend", "marker"}
#: Distill's elements the import converts (the theme writes their markup): a selector
#: of the article reaching them reaches the theme's markup instead.
_CONVERTED_ELEMENTS = frozenset(V1_NAMES) | frozenset(V1_NAMES.values()) | frozenset(GENERATED) | {
    "d-title", "d-article", "d-appendix", "d-abstract", "d-acknowledgements", "d-math",
    "d-cite", "d-footnote", "d-code", "d-front-matter", "d-references", "d-hover-box",
    "dt-include",
}  # fmt: skip
#: An inline event handler attribute (onclick, onmouseover...).
HANDLER = re.compile(r"^on[a-z]+$")


def handlers_of(element: Tag) -> list[str]:
    """The element's inline event handler attributes (``onclick``...)."""
    return [name for name in element.attrs if HANDLER.match(name)]


@dataclass
class Behaviour:
    """The selectors, listeners and handlers of one article."""

    classes: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    #: custom element names a stylesheet or script selects (``d-figure``...)
    elements: set[str] = field(default_factory=set)
    #: every id an element of the article has
    article_ids: set[str] = field(default_factory=set)
    #: Distill event name -> how many listeners the scripts add
    listeners: Counter[str] = field(default_factory=Counter)
    #: handler attribute -> how many elements of the body have it
    handlers: Counter[str] = field(default_factory=Counter)
    #: classes the article's CSS hides (``.content{display:none}``) until a script opens them
    hidden_classes: set[str] = field(default_factory=set)

    @property
    def listens_to_distill(self) -> bool:
        return bool(self.listeners)

    def addressed_classes(self, element: Tag) -> list[str]:
        return [c for c in element.get("class") or [] if c in self.classes]

    def addressed(self, element: Tag) -> bool:
        """Whether the article's CSS or JS reaches ``element`` by a class, its id, its
        custom element name, or the element runs a handler of its own."""
        if handlers_of(element):
            return True
        if self.addressed_classes(element):
            return True
        element_id = element.get("id")
        if isinstance(element_id, str) and element_id in self.ids:
            return True
        return element.name in self.elements or (
            element.name == "d-figure" and self.listens_to_distill
        )


def read_behaviour(soup: BeautifulSoup, assets: Assets) -> Behaviour:
    """Read the article's stylesheets and scripts, and the handlers of its body."""
    found = Behaviour()
    for css in _stylesheets(soup, assets):
        _read_css(css, found)
    for code in _scripts(soup, assets):
        # An id a script keeps as a string ({id: "fig-a"} looked up later) is addressed.
        found.ids.update(match.group(2) for match in _ID_STRING.finditer(code))
        for match in DISTILL_EVENTS.finditer(code):
            found.listeners[match.group(2)] += 1
        for match in _SELECTING_CALL.finditer(code):
            call, argument = match.group(1), match.group(3).strip()
            if call == "getElementById":
                found.ids.add(argument)
            elif call == "getElementsByClassName":
                found.classes.update(argument.split())
            elif call == "getElementsByTagName":
                if "-" in argument:
                    found.elements.add(argument.lower())
            else:
                _read_selector(argument, found)
    # Of the strings and selectors, the ids the article's elements have.
    found.ids &= {str(element.get("id")) for element in soup.find_all(id=True)}
    found.classes -= _OWN_CLASSES
    found.elements -= _CONVERTED_ELEMENTS
    for element in soup.find_all(True):
        element_id = element.get("id")
        if isinstance(element_id, str) and element_id:
            found.article_ids.add(element_id)
        if soup.body is not None and element.find_parent("body") is not None:
            for name in handlers_of(element):
                found.handlers[name] += 1
    return found


def _read_css(css: str, found: Behaviour) -> None:
    css = _CSS_COMMENT.sub("", css)
    # @media blocks hold rules: read the innermost rules, whose text is the selector.
    for match in _CSS_RULE.finditer(css):
        selectors = match.group(1).strip()
        if selectors.startswith("@") or re.fullmatch(r"[\d.%\s,fromt]+", selectors):
            continue  # @font-face, keyframe steps
        _read_selector(selectors, found)
        if re.search(r"display\s*:\s*none", match.group(0)):
            for selector in selectors.split(","):
                simple = re.fullmatch(r"\s*[a-z]*\.([\w-]+)\s*", selector)
                if simple:
                    found.hidden_classes.add(simple.group(1))


def _read_selector(selector: str, found: Behaviour) -> None:
    # Strings in attribute selectors and pseudo-element arguments hold no class.
    selector = re.sub(r"""\[[^\]]*\]|(['"]).*?\1""", " ", selector)
    found.classes.update(_CLASS.findall(selector))
    found.ids.update(_ID.findall(selector))
    found.elements.update(name for name in _ELEMENT.findall(selector) if name != "d-article")


def _local_text(assets: Assets, reference: str) -> str:
    path: Path | None = assets.local(reference) if reference else None
    if path is None or not path.is_file() or path.stat().st_size >= 20_000_000:
        return ""
    return path.read_text("utf-8", errors="replace")


def _stylesheets(soup: BeautifulSoup, assets: Assets) -> list[str]:
    texts = []
    for element in soup.find_all(["style", "link"]):
        if element.name == "style":
            texts.append(element.string or "")
        elif "stylesheet" in str(element.get("rel")):
            texts.append(_local_text(assets, str(element.get("href") or "")))
    return texts


def _scripts(soup: BeautifulSoup, assets: Assets) -> list[str]:
    texts = []
    for element in soup.find_all("script"):
        if not is_code_script(element):
            continue
        source = str(element.get("src") or "")
        if DISTILL_RUNTIME.search(source):
            continue
        texts.append(element.string or "")
        texts.append(_local_text(assets, source))
    return texts


#: Where the import writes its own scripts (in OUT), published by conf.py's
#: ``html_static_path`` and loaded by ``html_js_files`` (files: a strict CSP allows them).
RUNTIME_FOLDER = "_distill_runtime"
RUNTIME_FILE = "distill-events.js"
BODY_HANDLERS_FILE = "body-handlers.js"
#: <body> handlers that are the window's (``<body onload>`` is ``window.onload``).
_WINDOW_EVENTS = {"load", "resize", "scroll", "hashchange", "popstate", "beforeunload",
                  "unload", "message", "online", "offline", "pageshow", "pagehide", "storage",
                  "error", "focus", "blur"}  # fmt: skip


def runtime_source() -> Path:
    return Path(__file__).parent / "runtime" / RUNTIME_FILE


def runtime_files(behaviour: Behaviour, soup: BeautifulSoup) -> dict[str, str]:
    """The scripts of our own the page needs: Distill's events when a script listens
    to them; the ``<body>``'s handlers (the theme writes its own ``<body>``)."""
    files = {}
    if behaviour.listens_to_distill:
        files[RUNTIME_FILE] = runtime_source().read_text("utf-8")
    handlers = _body_handlers(soup)
    if handlers:
        lines = ["/* The article's <body> handlers, written by import-distill (the theme",
                 " * writes its own <body>). */"]  # fmt: skip
        for name, code in handlers:
            event = name[2:]
            if event in _WINDOW_EVENTS:
                lines.append(
                    f"window.addEventListener({event!r}, function (event) {{\n{code}\n}});"
                )
            else:
                lines.append(
                    'document.addEventListener("DOMContentLoaded", function () {\n'
                    f"  document.body.addEventListener({event!r}, function (event) {{\n"
                    f"{code}\n  }});\n}});"
                )
        files[BODY_HANDLERS_FILE] = "\n".join(lines) + "\n"
    return files


def runtime_conf(files: dict[str, str]) -> str:
    return (
        "# Scripts of the import's own (Distill's d-figure events, the article's <body>\n"
        "# handlers): files, so a strict Content-Security-Policy allows them.\n"
        f"html_static_path = [{RUNTIME_FOLDER!r}]\n"
        f"html_js_files = {sorted(files)!r}"
    )


def _body_handlers(soup: BeautifulSoup) -> list[tuple[str, str]]:
    body = soup.body
    if body is None:
        return []
    return [(name, str(body[name])) for name in handlers_of(body)]


def report_behaviour(
    report: Report, behaviour: Behaviour, soup: BeautifulSoup, page: str, as_markdown: set[int]
) -> None:
    """What the article does, found and kept: handlers, Distill's events, HTML imports,
    collapsed sections, addressed classes; each a row of the table and a line to check.
    ``as_markdown``: the elements written with MyST's ``{#id .class}`` block attributes."""
    with warnings.catch_warnings():
        # A short page of plain words is markup all the same: it is what we wrote.
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        written = BeautifulSoup(page, "html.parser")
    if behaviour.handlers:
        still = Counter(name for element in written.find_all(True) for name in handlers_of(element))
        found = sum(behaviour.handlers.values())
        on_page = sum(min(still[name], count) for name, count in behaviour.handlers.items())
        report.found["inline handler"] += found
        report.kept_raw["inline handler"] += on_page
        names = ", ".join(f"{name} x{count}" for name, count in sorted(behaviour.handlers.items()))
        report.doubt(
            "inline handler",
            None,
            f"{found} inline handlers ({names}): {on_page} kept on their elements"
            + (f", {found - on_page} LOST" if on_page < found else ""),
        )
    for name, code in _body_handlers(soup):
        report.found["inline handler"] += 1
        report.converted["inline handler"] += 1
        report.doubt(
            "inline handler",
            soup.body.sourceline if soup.body is not None else None,
            f"<body {name}> ({code.strip()[:60]!r}) runs from {BODY_HANDLERS_FILE} (the "
            "theme writes its own <body>)",
        )
    if behaviour.listeners:
        count = sum(behaviour.listeners.values())
        names = ", ".join(f"{name} x{n}" for name, n in sorted(behaviour.listeners.items()))
        report.found["Distill event listener"] += count
        report.converted["Distill event listener"] += count
        report.doubt(
            "Distill runtime",
            None,
            f"the article's scripts listen to d-figure's events ({names}): "
            f"{RUNTIME_FILE} fires them on this page (ready once, onscreen/offscreen as "
            "each d-figure enters and leaves the viewport)",
        )
    imports = soup.find_all("link", rel="import")
    for link in imports:
        report.found["HTML import (<link rel=import>)"] += 1
        report.doubt(
            "HTML import",
            link.sourceline,
            f"<link rel=import href={link.get('href')!r}> is not resolved (browsers dropped "
            "HTML Imports): the templates, styles and scripts it brought are missing; "
            "the figures it defines stay empty",
        )
    hidden = [
        element
        for element in soup.find_all(True)
        if set(element.get("class") or []) & behaviour.hidden_classes
    ]
    if hidden:
        kept_hidden = sum(
            1
            for element in written.find_all(True)
            if set(element.get("class") or []) & behaviour.hidden_classes
        )
        report.found["collapsed section"] += len(hidden)
        report.converted["collapsed section"] += min(kept_hidden, len(hidden))
        report.doubt(
            "collapsed section",
            None,
            f"{len(hidden)} elements the article's CSS hides until a script shows them "
            f"({', '.join('.' + c for c in sorted(behaviour.hidden_classes))}): "
            f"{min(kept_hidden, len(hidden))} kept with their classes, closed as published",
        )
    # <body>'s handlers run from a file (above); the theme writes <html> and <body>.
    addressed = [
        element
        for element in soup.find_all(True)
        if behaviour.addressed(element) and element.name not in {"html", "head", "body"}
    ]
    if not addressed:
        return
    lost = [
        element
        for element in addressed
        if id(element) not in as_markdown and not _written(element, written)
    ]
    report.found["addressed by CSS/JS"] += len(addressed)
    report.converted["addressed by CSS/JS"] += len(addressed) - len(lost)
    report.doubt(
        "addressed by CSS/JS",
        None,
        f"the article's stylesheets and scripts select {len(behaviour.classes)} classes "
        f"and {len(behaviour.ids)} ids; {len(addressed)} elements carry them or a handler: "
        f"{len(addressed) - len(lost)} kept with their tag, id and classes"
        + (f", {len(lost)} not (listed below)" if lost else ""),
    )
    for element in lost:
        report.doubt(
            "addressed by CSS/JS",
            element.sourceline,
            f"<{element.name}> is selected by the article's CSS or JS "
            f"({describe(behaviour, element)}) but is not in the page as it was: check "
            "what the selector or script reaches",
        )


def describe(behaviour: Behaviour, element: Tag) -> str:
    """Why ``element`` is addressed: its classes, id and handlers the article names."""
    reasons = [f".{c}" for c in behaviour.addressed_classes(element)]
    element_id = element.get("id")
    if isinstance(element_id, str) and element_id in behaviour.ids:
        reasons.append(f"#{element_id}")
    reasons += handlers_of(element)
    return ", ".join(reasons) or element.name


def _written(element: Tag, written: BeautifulSoup) -> bool:
    """Whether the page written holds an element with ``element``'s tag, id and classes."""
    element_id = element.get("id")
    classes = set(element.get("class") or [])
    return any(
        classes <= set(candidate.get("class") or [])
        and (not element_id or candidate.get("id") == element_id)
        # Distill's elements become other markup (<d-math class="star"> a <span>
        # around the formula): their classes and id are what a selector reaches.
        for candidate in written.find_all(
            True if element.name.startswith("d-") and (classes or element_id) else element.name
        )
    )
