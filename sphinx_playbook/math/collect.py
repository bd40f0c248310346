"""Each page's formulas, found when it is read, kept with the page in the environment.

A formula is rendered as :mod:`.mathjax_compat` translates it, with the macros
the page's earlier formulas defined (MathJax keeps a definition for the rest of
the page, and so do we). A node whose formula depends on its page (macros
defined before it, an ``\\eqref``) keeps its page and those definitions in an
attribute: the translator, and a hover card that copies the node, render
exactly what was collected. Other nodes are left as they were read.

An ``\\eqref`` keeps its label until the number is needed (:func:`resolved`):
with ``numfig``, Sphinx numbers equations across pages only at
env-get-updated, and the number shown must be the one beside the equation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docutils import nodes
from sphinx.environment import BuildEnvironment

from ..diagnostics import PlaybookWarning, warn
from ..machinery.state import PageStore
from .mathjax_compat import Translated, references, resolve_references, translate

#: (TeX as rendered, display?, the page's macro definitions before the formula).
Formula = tuple[str, bool, str]
#: Each page's formulas, in document order.
FORMULAS: PageStore[tuple[Formula, ...]] = PageStore("formulas")
#: Each page's labelled equations: label -> (the equation's id, its number on the page).
EQUATIONS: PageStore[dict[str, tuple[str, int]]] = PageStore("equations")
#: The node attribute that holds (its page, the page's definitions before it).
PAGE_ATTRIBUTE = "playbook_math_page"

_MATH_NODES = (nodes.math, nodes.math_block)
_LABEL = re.compile(r"\\label\s*\{[^{}]*\}")
_MYST_RANDOM_LABEL = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def wrapped_display(tex: str, node: nodes.math_block) -> str:
    """The TeX of a display block as rendered: paragraphs become ``aligned`` rows.

    Sphinx's own renderers read several paragraphs, or ``\\\\``, as an aligned
    group; authors expect the same here.
    """
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


def _formula(node: nodes.math | nodes.math_block, tex: str, definitions: str) -> Formula:
    if isinstance(node, nodes.math_block):
        return (wrapped_display(tex, node), True, definitions)
    return (tex, False, definitions)


def formula_of(node: nodes.math | nodes.math_block, env: BuildEnvironment) -> Formula:
    """The node's formula as rendered, as :func:`collect_page` made it (a node
    no page read stands alone: no macros of a page, no equation numbers)."""
    docname, definitions = node.get(PAGE_ATTRIBUTE, ("", ""))
    return resolved(env, docname, _formula(node, translate(node.astext()).tex, definitions))


def has_references(formula: Formula) -> bool:
    return "ref" in formula[0] and bool(references(formula[0]))


def shown_numbers(env: BuildEnvironment, docname: str) -> dict[str, str]:
    """Each label of the page with the number beside its equation, as Sphinx's
    ``get_node_equation_number`` writes it (numfig's, once assigned)."""
    equations = EQUATIONS.of(env).get(docname, {})
    config = env.config
    if not (config.numfig and config.math_numfig):
        return {label: str(number) for label, (_id, number) in equations.items()}
    assigned = env.toc_fignumbers.get(docname, {}).get("displaymath", {})
    shown = {}
    for label, (node_id, number) in equations.items():
        numfig = ".".join(map(str, assigned.get(node_id, ())))
        shown[label] = config.math_numsep.join(numfig.rsplit(".", 1)) if numfig else str(number)
    return shown


def resolved(env: BuildEnvironment, docname: str, formula: Formula) -> Formula:
    """The formula as rendered: each ``\\eqref`` and ``\\ref`` its number."""
    if not has_references(formula):
        return formula
    tex, display, definitions = formula
    return (resolve_references(tex, shown_numbers(env, docname)), display, definitions)


def page_formulas(env: BuildEnvironment, docname: str) -> list[Formula]:
    """The page's formulas as rendered (only final once numfig's numbers are)."""
    return [resolved(env, docname, formula) for formula in FORMULAS.of(env).get(docname, ())]


def _promote_labels(
    env: BuildEnvironment,
    docname: str,
    found: list[nodes.math | nodes.math_block],
    translated: list[Translated],
) -> None:
    """A display equation Sphinx has no label for takes its first ``\\label`` as
    one: numbered, linked by ``{eq}``, its number what ``\\eqref`` shows. The
    ``\\label`` leaves the node's TeX, or LaTeX would get two labels for it.
    (MyST's amsmath extension labels a numbered environment with a random
    UUID, which no one can link to: the ``\\label`` replaces it.)"""
    domain = env.domains.math_domain
    promoted = False
    for node, formula in zip(found, translated, strict=True):
        if not (isinstance(node, nodes.math_block) and formula.labels):
            continue
        random = _MYST_RANDOM_LABEL.fullmatch(node.get("label") or "")
        if node.get("label") and not ("amsmath" in node["classes"] and random):
            continue
        if random:
            domain.equations.pop(random[0], None)
            node["ids"] = [i for i in node["ids"] if i != nodes.make_id(f"equation-{random[0]}")]
        label = formula.labels[0]
        domain.note_equation(docname, label, location=node)
        node["label"], node["docname"] = label, docname
        node["ids"].insert(0, nodes.make_id(f"equation-{label}"))
        text = _LABEL.sub("", node.astext())
        node.clear()
        node += nodes.Text(text)
        promoted = True
    if not promoted:
        return
    # Numbers in document order: note_equation numbered the promoted ones last.
    number = 0
    for node in found:
        name = node.get("label") if isinstance(node, nodes.math_block) else None
        if name and domain.equations.get(name, ("",))[0] == docname:
            number += 1
            node["number"] = number
            domain.equations[name] = (docname, number)


def _equations(
    found: list[nodes.math | nodes.math_block], translated: list[Translated]
) -> dict[str, tuple[str, int]]:
    """The equation each label of the page names, its id and number: an
    equation's Sphinx label and every ``\\label`` in it."""
    equations: dict[str, tuple[str, int]] = {}
    for node, formula in zip(found, translated, strict=True):
        number = node.get("number") if isinstance(node, nodes.math_block) else None
        if number is None or not node["ids"]:
            continue
        for label in (node.get("label"), *formula.labels):
            if label:
                equations.setdefault(label, (node["ids"][0], number))
    return equations


def collect_page(env: BuildEnvironment, docname: str, doctree: nodes.Node) -> tuple[Formula, ...]:
    """The page's formulas, references still to be numbered (a formula that
    depends on the page notes it on its node); what cannot be translated is
    warned about at its line."""
    found = list(math_nodes(doctree))
    translated = [translate(node.astext()) for node in found]
    _promote_labels(env, docname, found, translated)
    equations = EQUATIONS.of(env)[docname] = _equations(found, translated)
    formulas: list[Formula] = []
    definitions = ""
    for node, result in zip(found, translated, strict=True):
        for problem in result.problems:
            warn(f"math: {problem}", PlaybookWarning.MATH, node)
        for label in references(result.tex):
            if label not in equations:
                warn(
                    f"math: no equation of this page is labelled {label!r}; label it "
                    f"(:label: {label}, or $$ ... $$ ({label}) in MyST) and write "
                    f"{{eq}}`{label}` (:eq:`{label}` in reST) outside the formula",
                    PlaybookWarning.MATH,
                    node,
                )
        # What formula_of reads at write time: the node's TeX, its \label gone if promoted.
        tex = translate(node.astext()).tex if result.labels else result.tex
        formula = _formula(node, tex, definitions)
        if definitions or has_references(formula):
            node[PAGE_ATTRIBUTE] = (docname, definitions)
        formulas.append(formula)
        definitions += result.definitions
    return tuple(formulas)


def has_math(doctree: nodes.Node | None) -> bool:
    return doctree is not None and next(math_nodes(doctree), None) is not None
