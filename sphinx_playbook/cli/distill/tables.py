"""Which converter writes which element: the walk's tables.

Block elements are looked up in :data:`BLOCKS`, elements inside a line of text in
:data:`INLINE`, by tag name; a rule's condition (a class, an attribute) picks among
the converters of one name. Rules are tried in order: the first that accepts the
element writes it. To convert a new element, write a function of the context and the
element and add a rule here.
"""

from __future__ import annotations

from collections.abc import Callable

from bs4 import Tag

from . import blocks, elements, figures, inline, math, scripted, structure
from .context import Context
from .elements import (
    GENERATED,
    HEADINGS,
    KEPT_RAW,
    UNWRAP,
    classes_of,
    holds_blocks,
    is_block_code,
    is_block_math,
    style_of,
)
from .source import attr_value
from .walk import BlockConverter, Converters, InlineConverter, Rule, Table


def alone(convert: Callable[[Context, Tag], str]) -> BlockConverter:
    """A block converter for an element a legend never joins."""

    def block(cx: Context, node: Tag, legend: Tag | None) -> str:
        return convert(cx, node)

    return block


def legend_joins(convert: Callable[[Context, Tag], str]) -> BlockConverter:
    """A block converter whose block the ``figure-legend`` after it captions."""

    def block(cx: Context, node: Tag, legend: Tag | None) -> str:
        return figures.with_legend(cx, convert(cx, node), node, legend)

    return block


# -- conditions -------------------------------------------------------------------------


def is_hidden(node: Tag) -> bool:
    return style_of(node).get("display") == "none" and node.name not in {"script", "style"}


def is_marker(node: Tag) -> bool:
    return "marker" in classes_of(node)


def is_legend(node: Tag) -> bool:
    return "figure-legend" in classes_of(node)


def is_inline_holding_blocks(node: Tag) -> bool:
    """An inline element a browser ends around the blocks inside it (an unclosed tag)."""
    return node.name in elements.INLINE and holds_blocks(node)


def is_tex_script(node: Tag) -> bool:
    return attr_value(node, "type").lower().startswith("math/tex")


def is_kept_raw(node: Tag) -> bool:
    return node.name in KEPT_RAW or "-" in node.name


def is_unwrapped(node: Tag) -> bool:
    return node.name in UNWRAP


def is_inline_code(node: Tag) -> bool:
    return not node.has_attr("block")


# -- blocks -----------------------------------------------------------------------------

HOLDING_BLOCKS: Rule[BlockConverter] = Rule(
    alone(structure.inline_holding_blocks), is_inline_holding_blocks
)
RUNS_IN_PAGE = [Rule(alone(structure.runs_in_page))]

BLOCKS: Table[BlockConverter] = Table(
    before=[Rule(alone(structure.hidden), is_hidden)],
    by_tag={
        **{name: [Rule(alone(structure.heading))] for name in HEADINGS},
        **{name: [Rule(alone(structure.generated))] for name in GENERATED},
        "d-title": [Rule(alone(structure.title_block))],
        "d-appendix": [Rule(alone(structure.appendix_block))],
        "a": [Rule(alone(structure.marker), is_marker), HOLDING_BLOCKS],
        "d-math": [Rule(legend_joins(math.block_math), is_block_math)],
        "d-code": [Rule(legend_joins(blocks.block_code), is_block_code)],
        "figure": [Rule(figures.figure)],
        "img": [HOLDING_BLOCKS, Rule(figures.image_block)],
        "div": [Rule(alone(figures.legend_alone), is_legend)],
        "figcaption": [Rule(alone(figures.figcaption_alone))],
        "p": [Rule(legend_joins(blocks.block_p))],
        "blockquote": [Rule(legend_joins(blocks.block_blockquote))],
        "ul": [Rule(legend_joins(blocks.block_ul))],
        "ol": [Rule(legend_joins(blocks.block_ol))],
        "dl": [Rule(legend_joins(blocks.block_dl))],
        "hr": [Rule(legend_joins(blocks.block_hr))],
        "br": [HOLDING_BLOCKS, Rule(legend_joins(blocks.block_br))],
        "pre": [Rule(legend_joins(blocks.block_pre))],
        # <code> as a block is written like <d-code block>, a MathML <math> like <d-math>.
        "code": [HOLDING_BLOCKS, Rule(legend_joins(blocks.block_code))],
        "math": [Rule(legend_joins(math.block_math))],
        "aside": [Rule(legend_joins(blocks.block_aside))],
        "details": [Rule(legend_joins(blocks.block_details))],
        "iframe": [Rule(legend_joins(blocks.block_iframe))],
        "table": [Rule(legend_joins(blocks.block_table))],
        "script": [Rule(alone(math.block_math), is_tex_script), *RUNS_IN_PAGE],
        **{name: RUNS_IN_PAGE for name in ("style", "link", "noscript", "template")},
    },
    otherwise=[
        HOLDING_BLOCKS,
        Rule(legend_joins(structure.container), is_unwrapped),
        Rule(alone(structure.no_equivalent), is_kept_raw),
        Rule(alone(structure.unwrap)),
    ],
)

# -- inline -----------------------------------------------------------------------------

TAGS_KEPT: Rule[InlineConverter] = Rule(inline.tags_kept, inline.has_attributes)

INLINE: Table[InlineConverter] = Table(
    by_tag={
        **{name: [TAGS_KEPT, Rule(inline.emphasis)] for name in ("em", "i")},
        **{name: [TAGS_KEPT, Rule(inline.strong)] for name in ("strong", "b")},
        **{name: [Rule(inline.emphasis)] for name in ("cite", "dfn", "var")},
        **{name: [Rule(inline.code)] for name in ("code", "tt", "samp")},
        "d-code": [Rule(inline.code, is_inline_code)],
        "kbd": [Rule(inline.kbd)],
        "sub": [Rule(inline.sub_sup)],
        "sup": [Rule(inline.sub_sup)],
        "br": [Rule(inline.line_break)],
        "wbr": [Rule(inline.nothing)],
        "a": [Rule(inline.link)],
        "img": [Rule(inline.image_inline)],
        "d-math": [Rule(math.math_inline)],
        "script": [Rule(math.math_inline)],
        "d-cite": [Rule(inline.cite)],
        "d-footnote": [Rule(inline.footnote)],
        "q": [Rule(inline.quotation)],
        **{name: [Rule(inline.styled)] for name in ("u", "mark", "s", "del", "ins")},
        **{
            name: [Rule(inline.span)]
            for name in ("span", "small", "abbr", "time", "data", "bdi", "bdo", "label")
        },
    },
    otherwise=[Rule(inline.unknown)],
)

CONVERTERS = Converters(
    blocks=BLOCKS,
    inline=INLINE,
    text=inline.text,
    paragraph=inline.paragraph,
    addressed_block=scripted.addressed_block,
    addressed_inline=scripted.addressed_inline,
)
