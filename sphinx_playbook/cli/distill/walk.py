"""The walk: the article's tree, node by node, each element handed to its converter.

A :class:`Table` maps a tag name to the converters of elements with that name, each
with the condition it needs (a class, an attribute); rules for every tag come before,
and fallbacks after. The tables themselves are in ``tables``; :class:`Walker` only
splits a run of siblings into paragraphs (inline content) and blocks, and asks the
tables which converter writes each element.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bs4 import Comment, NavigableString, Tag

from .context import Context
from .elements import BLOCK_ELEMENTS, GENERATED, INLINE, classes_of, holds_blocks
from .layout import image_layout
from .source import attr_value

#: A block element, and the ``figure-legend`` right after it (or None), as MyST.
BlockConverter = Callable[[Context, Tag, "Tag | None"], str]
#: An element inside a line of text, as MyST.
InlineConverter = Callable[[Context, Tag], str]
#: An element the article's CSS or JS addresses, or None when its own converter keeps
#: what they need.
AddressedBlock = Callable[[Context, Tag, "Tag | None"], "str | None"]
AddressedInline = Callable[[Context, Tag], "str | None"]

C = TypeVar("C")


def always(node: Tag) -> bool:
    return True


@dataclass(frozen=True)
class Rule(Generic[C]):
    """A converter, for the elements ``when`` accepts."""

    convert: C
    when: Callable[[Tag], bool] = always


@dataclass(frozen=True)
class Table(Generic[C]):
    """Which converter writes an element: the first rule that accepts it, from
    ``before`` (any tag), the rules of its tag name, then ``otherwise``."""

    by_tag: Mapping[str, Sequence[Rule[C]]]
    otherwise: Sequence[Rule[C]]
    before: Sequence[Rule[C]] = field(default_factory=tuple)

    def find(self, node: Tag) -> C:
        for rule in (*self.before, *self.by_tag.get(node.name, ()), *self.otherwise):
            if rule.when(node):
                return rule.convert
        raise LookupError(f"no converter for <{node.name}>")  # ``otherwise`` ends with one


@dataclass(frozen=True)
class Converters:
    """Everything the walker hands content to."""

    blocks: Table[BlockConverter]
    inline: Table[InlineConverter]
    #: a run of text (its formulas, its escaping)
    text: Callable[[Context, str], str]
    #: a run of inline nodes standing as a block
    paragraph: Callable[[Context, list[Any]], str]
    #: elements the article's own CSS or JS addresses, asked before the tables
    addressed_block: AddressedBlock | None = None
    addressed_inline: AddressedInline | None = None


class Walker:
    """Walks one article with ``converters``; it is the context's :attr:`Context.walker`."""

    def __init__(self, cx: Context, converters: Converters) -> None:
        self.cx = cx
        self.converters = converters
        cx.walker = self

    # -- blocks ---------------------------------------------------------------------

    def blocks(self, children: Iterable[Any]) -> list[str]:
        """Blocks for a run of sibling nodes; inline runs become paragraphs."""
        siblings = list(children)
        blocks: list[str] = []
        run: list[Any] = []
        for index, child in enumerate(siblings):
            if id(child) in self.cx.consumed:
                continue
            if self.is_inline(child):
                run.append(child)
                continue
            if run:
                blocks.append(self.converters.paragraph(self.cx, run))
                run = []
            blocks.append(self.block(child, siblings[index + 1 :]))
        if run:
            blocks.append(self.converters.paragraph(self.cx, run))
        return [block for block in blocks if block.strip()]

    def blocks_stepwise(self, parent: Tag) -> Iterable[list[str]]:
        """The blocks of ``parent``'s children, one child at a time (for the progress bar)."""
        children = list(parent.children)
        run: list[Any] = []
        for index, child in enumerate(children):
            if self.is_inline(child):
                run.append(child)
                continue
            if id(child) in self.cx.consumed:
                continue
            if run:
                yield [self.converters.paragraph(self.cx, run)]
                run = []
            yield [self.block(child, children[index + 1 :])]
        if run:
            yield [self.converters.paragraph(self.cx, run)]

    def block(self, node: Any, following: list[Any]) -> str:
        """One block node; ``following`` are its next siblings (a legend joins it)."""
        if isinstance(node, Comment):
            text = str(node).strip()
            self.cx.report.done("comment")
            return "\n".join(f"% {line}".rstrip() for line in text.split("\n")) if text else ""
        if not isinstance(node, Tag) or id(node) in self.cx.consumed:
            return ""
        legend = legend_after(following)
        if self.converters.addressed_block and self.cx.behaviour.addressed(node):
            written = self.converters.addressed_block(self.cx, node, legend)
            if written is not None:
                return written
        return self.table_block(node, legend)

    def table_block(self, node: Tag, legend: Tag | None) -> str:
        """``node`` written by the converter its tag's table names."""
        return self.converters.blocks.find(node)(self.cx, node, legend)

    # -- inline ---------------------------------------------------------------------

    def inline(self, nodes: Iterable[Any]) -> str:
        return "".join(self.inline_node(node) for node in nodes)

    def inline_node(self, node: Any) -> str:
        if isinstance(node, Comment):
            return f"<!--{' '.join(str(node).split())}-->"
        if isinstance(node, NavigableString):
            self.cx.text_line = node.parent.sourceline if node.parent is not None else None
            return self.converters.text(self.cx, str(node))
        if not isinstance(node, Tag):
            return ""
        if self.converters.addressed_inline and self.cx.behaviour.addressed(node):
            written = self.converters.addressed_inline(self.cx, node)
            if written is not None:
                return written
        return self.converters.inline.find(node)(self.cx, node)

    def is_inline(self, node: Any) -> bool:
        """Whether ``node`` belongs in a line of text (a browser would not end the line)."""
        if isinstance(node, Comment):
            return False
        if isinstance(node, NavigableString):
            return True
        if not isinstance(node, Tag):
            return False
        if node.name == "a" and "marker" in classes_of(node):
            return False
        if node.name in {"d-math", "d-code"}:
            return not node.has_attr("block")
        if node.name == "img":
            return not image_layout(self.cx, node)
        if node.name == "script":
            kind = attr_value(node, "type").lower().replace(" ", "")
            return kind.startswith("math/tex") and "mode=display" not in kind
        if node.name in INLINE:
            return not holds_blocks(node)
        # Custom elements inside text (d-slider...) stay inline, as raw HTML.
        return "-" in node.name and node.name not in GENERATED and node.name not in BLOCK_ELEMENTS


def legend_after(following: list[Any]) -> Tag | None:
    """The ``<div class="figure-legend">`` right after a block (blank text between)."""
    for node in following:
        if isinstance(node, NavigableString) and not isinstance(node, Comment):
            if node.strip():
                return None
            continue
        if isinstance(node, Tag):
            return node if node.name == "div" and "figure-legend" in classes_of(node) else None
        return None
    return None
