"""Each page's formulas, found when it is read, kept with the page in the environment."""

from __future__ import annotations

from collections.abc import Iterator

from docutils import nodes

from ..build.state import PageStore

Formula = tuple[str, bool]
#: Each page's formulas as (TeX as rendered, display?), in document order.
FORMULAS: PageStore[tuple[Formula, ...]] = PageStore("formulas")

_MATH_NODES = (nodes.math, nodes.math_block)


def display_tex(node: nodes.math_block) -> str:
    """The TeX of a display block as rendered: paragraphs become ``aligned`` rows.

    Sphinx's own renderers read several paragraphs, or ``\\\\``, as an aligned
    group; authors expect the same here.
    """
    tex = node.astext()
    if node.get("no-wrap", node.get("nowrap", False)) or "\\begin" in tex:
        return tex
    parts = [part for part in tex.split("\n\n") if part.strip()]
    if len(parts) > 1 or "\\\\" in tex:
        return "\\begin{aligned}" + "\\\\".join(parts) + "\\end{aligned}"
    return tex


def math_nodes(doctree: nodes.Node) -> Iterator[nodes.math | nodes.math_block]:
    """The formulas of a tree, in document order.

    One walk with a stack: docutils' ``findall`` recurses through a generator per
    node, twice as slow with one node class and again twice with two. A formula
    holds no other, so its text is not walked.
    """
    stack = [doctree]
    while stack:
        node = stack.pop()
        if isinstance(node, _MATH_NODES):
            yield node
        elif isinstance(node, nodes.Element):
            stack.extend(reversed(node.children))


def formulas_of(doctree: nodes.Node) -> tuple[Formula, ...]:
    return tuple(
        (display_tex(node), True) if isinstance(node, nodes.math_block) else (node.astext(), False)
        for node in math_nodes(doctree)
    )


def has_math(doctree: nodes.Node | None) -> bool:
    return doctree is not None and next(math_nodes(doctree), None) is not None
