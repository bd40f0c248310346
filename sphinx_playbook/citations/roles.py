"""The ``cite`` role (and ``cite:p`` / ``cite:t``): a node holding the keys, nothing more.

What it shows is decided when the page is written, once all its citations are
numbered (``transforms.py``).
"""

from __future__ import annotations

from collections.abc import Set
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.domains import Domain
from sphinx.util.docutils import SphinxRole

from ..diagnostics import PlaybookWarning, warn

if TYPE_CHECKING:
    from sphinx.addnodes import pending_xref
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment


class cite_ref(nodes.Inline, nodes.Element):
    """A citation of one or more keys; ``form`` is ``p`` ([1]) or ``t`` (Dao et al. [1])."""


class CiteRole(SphinxRole):
    """``{cite}`key1,key2``` in MyST, ``:cite:`key1,key2``` in reST."""

    def __init__(self, form: str = "p") -> None:
        super().__init__()
        self.form = form

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        keys = [key.strip() for key in self.text.split(",") if key.strip()]
        if not keys:
            warn(
                f"{self.name}: no citation key given; write the keys of the .bib entries, "
                "separated by commas, e.g. {cite}`key1,key2`",
                PlaybookWarning.CITATION,
                (self.env.docname, self.lineno),
            )
            return [], []
        node = cite_ref(self.rawtext, keys=keys, form=self.form, docname=self.env.docname)
        self.set_source_info(node)
        return [node], []


class CiteDomain(Domain):
    """Makes ``cite:p`` and ``cite:t`` resolvable role names (the ``cite`` domain)."""

    name = "cite"
    label = "Citations"
    roles = {"p": CiteRole("p"), "t": CiteRole("t")}  # noqa: RUF012 (Sphinx's API)

    # The domain keeps no data (pages' citations live in collect.py's store), but
    # parallel builds require it to say so.
    def clear_doc(self, docname: str) -> None:
        pass

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        pass

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        """Citations are not cross-reference targets (MyST asks every domain)."""
        return []
