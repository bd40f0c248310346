"""sphinx_playbook: the Distill article look for Sphinx (extension and HTML theme).

``setup()`` only wires the parts together; each part lives in its own module.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from .config import add_config_values
from .metadata import setup_metadata
from .theme import setup_theme
from .transforms import LiftArticleTitle

__version__ = "0.1.0"

#: Extensions an article needs: MyST for .md sources, sphinx-design components.
REQUIRED_EXTENSIONS = ("myst_parser", "sphinx_design", "pydata_sphinx_theme")


def setup(app: Sphinx) -> dict[str, Any]:
    """Set up the extension and register the theme.

    Safe to call twice (Sphinx loads it once from ``extensions`` and may load it
    again through the ``sphinx.html_themes`` entry point): Sphinx itself skips
    an extension it has already set up, and each ``setup_extension`` call below
    is a no-op when the author listed that extension too.
    """
    for extension in REQUIRED_EXTENSIONS:
        app.setup_extension(extension)
    add_config_values(app)
    setup_metadata(app)
    setup_theme(app)
    app.add_post_transform(LiftArticleTitle)
    return {
        "version": __version__,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
        "env_version": 1,
    }
