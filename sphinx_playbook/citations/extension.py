"""The citations' wiring into Sphinx: the roles, nodes, events and post-transform
that :mod:`.collect` (which keys each page cites), :mod:`.bibliography` (.bib files
read with pybtex) and :mod:`.render` (the numbers and the hover cards) provide."""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ConfigError

from ..config import read_config
from ..machinery import priorities
from . import collect
from .render import NumberCitations, cite_group, visit_cite_group
from .roles import CiteDomain, CiteRole

CONFLICTING_EXTENSION = "sphinxcontrib.bibtex"


def enable_citations(app: Sphinx, config: Any) -> None:
    """Register the role and hooks once every extension is set up, unless switched off."""
    if not read_config(config).citations:
        return
    if CONFLICTING_EXTENSION in app.extensions:
        raise ConfigError(
            "sphinx_playbook and sphinxcontrib.bibtex both provide {cite} citations: "
            "remove one of them from extensions in conf.py, or set "
            "playbook_citations = False to keep sphinxcontrib.bibtex."
        )
    app.add_role("cite", CiteRole("p"), override=True)
    app.add_domain(CiteDomain, override=True)
    app.connect("builder-inited", collect.on_builder_inited)
    app.connect("doctree-read", collect.on_doctree_read)
    app.connect("env-updated", collect.on_env_updated)
    app.add_post_transform(NumberCitations)


def setup_citations(app: Sphinx) -> None:
    app.add_node(cite_group, html=(visit_cite_group, None))
    app.connect("config-inited", enable_citations, priority=priorities.ENABLE_CITATIONS)
