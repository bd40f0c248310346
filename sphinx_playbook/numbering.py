"""Figure numbers (``numfig``) without unpickling every page on every build.

After each read, Sphinx's TocTreeCollector numbers figures, tables and code
blocks by walking the doctree of every page in toctree order, and
``env.get_doctree`` unpickles each of them: at 49 pages that is most of what a
one-chapter rebuild spends between reading and writing. This subclass runs the
same walk over a skeleton of each page (its sections, toctrees and numbered
nodes, in document order), derived from the page's doctree once and dropped when
Sphinx reads the page again, so only the pages just read are unpickled.
"""

from __future__ import annotations

from typing import TypeAlias

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.domains.std import StandardDomain
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors.toctree import TocTreeCollector
from sphinx.util import url_re

from .envstore import PageStore

# A page's skeleton: what Sphinx's walk looks at, in document order.
#   ("section", first id, children)        a section (its number comes from toc_secnumbers)
#   ("toctree", (docname, ...))            the pages a toctree includes, in order
#   ("number", figtype, first id, children) a numbered node; the walk goes on inside it
Entry: TypeAlias = (
    tuple[str, str, list["Entry"]]
    | tuple[str, tuple[str, ...]]
    | tuple[str, str, str, list["Entry"]]
)

SKELETONS: PageStore[list[Entry]] = PageStore("playbook_numfig_skeletons")


def _figtype(env: BuildEnvironment, node: nodes.Element) -> str | None:
    """Sphinx's ``get_figtype`` in ``assign_figure_numbers``, unchanged."""
    for domain in env.domains.sorted():
        figtype = domain.get_enumerable_node_type(node)
        if isinstance(domain, StandardDomain) and not domain.get_numfig_title(node):
            continue  # an uncaptioned node
        if figtype:
            return figtype
    return None


def skeleton(env: BuildEnvironment, element: nodes.Element) -> list[Entry]:
    """The entries under ``element`` that the numbering walk acts on."""
    entries: list[Entry] = []
    for child in element.children:
        if isinstance(child, nodes.section):
            inner = skeleton(env, child)
            if inner:
                entries.append(("section", child["ids"][0] if child["ids"] else "", inner))
        elif isinstance(child, addnodes.toctree):
            included = tuple(
                name
                for _title, name in child["entries"]
                if not url_re.match(name) and name != "self"
            )
            if included:
                entries.append(("toctree", included))
        elif isinstance(child, nodes.Element):
            figtype = _figtype(env, child)
            inner = skeleton(env, child)
            if figtype and child["ids"]:
                entries.append(("number", figtype, child["ids"][0], inner))
            else:
                entries.extend(inner)
    return entries


class SkeletonTocTreeCollector(TocTreeCollector):
    """Sphinx's TocTreeCollector, numbering figures from the pages' skeletons."""

    def assign_figure_numbers(self, env: BuildEnvironment) -> list[str]:
        generated = frozenset(env.domains.standard_domain._virtual_doc_names)
        skeletons = SKELETONS.of(env)
        old_fignumbers = env.toc_fignumbers
        env.toc_fignumbers = {}
        counters: dict[str, dict[tuple[int, ...], int]] = {}
        assigned: set[str] = set()

        def section_number(docname: str, first_id: str) -> tuple[int, ...]:
            secnumbers = env.toc_secnumbers.get(docname, {})
            anchor = "#" + first_id
            number = secnumbers.get(anchor) if anchor in secnumbers else secnumbers.get("")
            return number or ()

        def register(docname: str, secnum: tuple[int, ...], figtype: str, first_id: str) -> None:
            counter = counters.setdefault(figtype, {})
            prefix = secnum[: env.config.numfig_secnum_depth]
            counter[prefix] = counter.get(prefix, 0) + 1
            numbers = env.toc_fignumbers.setdefault(docname, {}).setdefault(figtype, {})
            numbers[first_id] = (*prefix, counter[prefix])

        def walk(docname: str, entries: list[Entry], secnum: tuple[int, ...]) -> None:
            for entry in entries:
                if entry[0] == "section":
                    _, first_id, inner = entry
                    walk(docname, inner, section_number(docname, first_id) or secnum)
                elif entry[0] == "toctree":
                    for included in entry[1]:
                        if included not in generated:
                            walk_doc(included, secnum)
                else:
                    _, figtype, first_id, inner = entry
                    register(docname, secnum, figtype, first_id)
                    walk(docname, inner, secnum)

        def walk_doc(docname: str, secnum: tuple[int, ...]) -> None:
            if docname in assigned:
                return
            assigned.add(docname)
            if docname not in skeletons:  # read in this build: its doctree is at hand
                skeletons[docname] = skeleton(env, env.get_doctree(docname))
            walk(docname, skeletons[docname], secnum)

        if not env.config.numfig:
            return []
        walk_doc(env.config.root_doc, ())
        return [
            docname
            for docname, numbers in env.toc_fignumbers.items()
            if numbers != old_fignumbers.get(docname)
        ]


def setup_numbering(app: Sphinx) -> None:
    """Put the skeleton collector in the place of Sphinx's own.

    Only Sphinx's own collector is replaced: if another extension has already put
    a collector of its own there, it is left alone.
    """
    for listener in list(app.events.listeners.get("env-get-updated", [])):
        collector = getattr(listener.handler, "__self__", None)
        if type(collector) is TocTreeCollector:
            collector.disable(app)
            app.add_env_collector(SkeletonTocTreeCollector)
            SKELETONS.connect(app)
            return
