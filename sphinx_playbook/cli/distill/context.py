"""One conversion's state, handed to every converter.

The converters (``inline``, ``blocks``, ``structure``, ``figures``, ``scripted``,
``math``) are functions of a :class:`Context` and an element. What they share lives
here: the report, the assets, the footnotes, the labels and links, the formulas, the
heading level. They reach the walk (the content inside an element) through
:attr:`Context.walker`, which :class:`walk.Walker` fills in; this module imports no
converter and no walker, so nothing imports back into it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Protocol
from urllib.parse import unquote

from bs4 import Tag
from docutils.nodes import make_id

from . import markdown as md
from .assets import Assets
from .behaviour import Behaviour, read_behaviour
from .delimiters import math_setup
from .elements import HEADINGS, full_bleed_classes
from .report import Report
from .source import Article, attr_value


class Walk(Protocol):
    """What converters ask of the walk: the content inside an element, converted."""

    def blocks(self, children: Iterable[Any]) -> list[str]: ...

    def block(self, node: Any, following: list[Any]) -> str: ...

    def table_block(self, node: Tag, legend: Tag | None) -> str: ...

    def inline(self, nodes: Iterable[Any]) -> str: ...

    def is_inline(self, node: Any) -> bool: ...


def words(text: str) -> str:
    """Letters and digits only, lower case: how a heading's text and an id compare."""
    return re.sub(r"[^a-z0-9]+", "", text.lower())


class Context:
    """The state of one article's conversion."""

    #: set by the walker built on this context
    walker: Walk

    def __init__(
        self,
        article: Article,
        report: Report,
        assets: Assets,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.article = article
        self.report = report
        self.assets = assets
        self.progress = progress or (lambda done: None)
        #: what the article's own CSS and JS address, read before anything is converted
        self.behaviour: Behaviour = read_behaviour(article.soup, assets)
        self.footnotes: list[str] = []
        self.labels: set[str] = set()
        #: (target id, inline text, plain text, source line) of each link to #id
        self.links: list[tuple[str, str, str, int | None]] = []
        #: how deep inside directives the walk is (a heading there is a rubric)
        self.nesting = 0
        self.heading_level = 1
        #: ids of the nodes already written (a legend joined to the block before it)
        self.consumed: set[int] = set()
        self.full_bleed = full_bleed_classes(article.soup)
        # Classes the converters turn into a column already are not kept as HTML.
        self.behaviour.classes -= self.full_bleed
        self.math = math_setup(article.soup, article.katex)
        self.math_pattern = self.math.pattern() if self.math else None
        #: TeX of display formulas met in text, until their paragraph splits around them
        self.display_math: list[str] = []
        #: (TeX, display, source line) of every formula written, checked with KaTeX at the end
        self.formulas: list[tuple[str, bool, int | None]] = []
        self.text_line: int | None = None
        #: whether a figure kept its tags for its scripts (then Distill's figure style is due)
        self.shelled = False
        #: elements the article's CSS or JS addresses, written with ``{#id .class}`` (or a
        #: heading's attributes on a span around its text)
        self.addressed_as_markdown: set[int] = set()
        #: the visible title and subtitle of <d-title>
        self.heading_title = ""
        self.description: str | None = None
        self.broken_targets, self.headings_by_words = _link_targets(article)
        #: broken link target -> (label, heading text)
        self.aliases: dict[str, tuple[str, str]] = {}
        if self.math is not None:
            report.doubt("math", self.math.line, self.math.summary())

    # -- the walk, for converters ---------------------------------------------------

    def blocks(self, children: Iterable[Any]) -> list[str]:
        return self.walker.blocks(children)

    def inline(self, nodes: Iterable[Any]) -> str:
        return self.walker.inline(nodes)

    def is_inline(self, node: Any) -> bool:
        return self.walker.is_inline(node)

    def nested(self, children: Iterable[Any]) -> str:
        """Blocks inside a directive, where a heading cannot start a section."""
        self.nesting += 1
        try:
            return "\n\n".join(self.walker.blocks(children))
        finally:
            self.nesting -= 1

    # -- labels ---------------------------------------------------------------------

    def label_name(self, node: Tag) -> str | None:
        """The element's id as a label, when Sphinx can keep it; None otherwise."""
        element_id = (attr_value(node, "id") or attr_value(node, "name")).strip()
        if not element_id or element_id.startswith("fragment-"):
            return None
        line = node.sourceline
        if not re.fullmatch(r"[A-Za-z0-9_.:-]+", element_id):
            self.report.doubt("id", line, f"the id {element_id!r} cannot be a label; not kept")
            return None
        if element_id.lower() in self.labels:
            self.report.doubt("id", line, f"the id {element_id!r} is used twice; kept once")
            return None
        self.labels.add(element_id.lower())
        if make_id(element_id) != element_id:
            self.report.doubt(
                "id",
                line,
                f"the id {element_id!r} is written as {make_id(element_id)!r}: links from "
                f"other sites to #{element_id} no longer land on it",
            )
        return element_id

    def label(self, node: Tag) -> str:
        """The MyST target line for the element's id, or ""."""
        name = self.label_name(node)
        return f"({name.lower()})=\n" if name else ""

    # -- raw HTML -------------------------------------------------------------------

    def raw(self, node: Tag, why: str) -> str:
        """The element kept as a raw HTML block, with the reason in the report."""
        self.report.raw(f"<{node.name}>", node.sourceline, why)
        return self.raw_html(node)

    def raw_html(self, node: Tag) -> str:
        self.assets.referenced_by(node)
        html = str(node)
        fence = md.fence(html)
        return f"{fence}{{raw}} html\n{html}\n{fence}"

    def raw_inline(self, node: Tag, why: str) -> str:
        """The element kept as raw HTML inside a line of text."""
        self.report.raw(f"<{node.name}>", node.sourceline, why)
        self.assets.referenced_by(node)
        return md.collapse(str(node))


def _link_targets(article: Article) -> tuple[dict[str, str], dict[str, int]]:
    """Links to ids no element has, by the words of their target, and how many headings
    say those words: a unique heading is the one the original reached by its text."""
    soup = article.soup
    ids = {str(element["id"]) for element in soup.find_all(id=True)}
    broken: dict[str, str] = {}
    for link in soup.find_all("a", href=True):
        href = str(link["href"])
        if href.startswith("#") and len(href) > 1 and unquote(href[1:]) not in ids:
            broken.setdefault(words(unquote(href[1:])), unquote(href[1:]))
    headings: dict[str, int] = {}
    for heading in soup.find_all(list(HEADINGS)):
        key = words(heading.get_text())
        headings[key] = headings.get(key, 0) + 1
    return broken, headings
