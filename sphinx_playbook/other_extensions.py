"""Features we leave to another extension when the author loads it.

A project moving to our theme keeps its extensions. Where one of them does what
one of our features does, two copy buttons or two hover cards on one link would
be worse than either: ours steps aside (docs/moving-a-project.md lists them).
"""

from __future__ import annotations

from sphinx.environment import BuildEnvironment

from .machinery.state import build_facts

#: Extension (as listed in ``extensions``) -> the feature of ours it replaces.
STEPS_ASIDE: dict[str, str] = {
    "sphinx_copybutton": "copy buttons on code blocks",
    "sphinx_tippy": "hover cards on cross-references (citation and footnote cards stay)",
    "sphinxext.opengraph": "Open Graph and Twitter tags (the citation_* tags stay)",
}


def left_to_another(env: BuildEnvironment, extension: str) -> bool:
    """Whether our feature that ``extension`` replaces steps aside in this build."""
    return extension in STEPS_ASIDE and extension in build_facts(env).extensions
