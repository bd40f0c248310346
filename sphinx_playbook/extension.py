"""``setup()``: wires the parts of sphinx_playbook together; each lives in its own module."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from weakref import WeakSet

from sphinx.application import Sphinx
from sphinx.errors import ConfigError
from sphinx.util import logging

from . import __version__
from .appendix import setup_appendix
from .citation_file import setup_citation_file
from .citations.extension import setup_citations
from .config import add_config_values
from .delivery import setup_delivery
from .directives import setup_directives
from .images import setup_images
from .interactive import setup_interactive
from .latex import setup_latex
from .machinery.extension import setup_build
from .math.extension import setup_math
from .metadata import setup_metadata
from .notebooks import setup_notebooks
from .previews import setup_previews
from .source_folders import setup_source_folders
from .theme import setup_theme
from .transforms import setup_title_overlay

#: The applications set up already. Sphinx loads an extension once, but a direct
#: second call (a conf.py's own ``setup(app)``, say) must not connect everything twice.
_SET_UP: WeakSet[Sphinx] = WeakSet()

#: Extensions an article needs: MyST for .md sources, sphinx-design components.
#: pydata-sphinx-theme is not among them: Sphinx loads it as our theme's parent
#: only when our theme is used, so other themes never meet its page hooks.
#: Setting them up here makes the order of ``extensions`` irrelevant: Sphinx sets
#: an extension up once, whoever asks first.
REQUIRED_EXTENSIONS = ("myst_parser", "sphinx_design")

#: Extensions that read .md sources with MyST themselves (myst-nb registers ".md"
#: for its own parser and sets MyST up without loading myst_parser as an
#: extension): when one of them came first, setting up myst_parser would register
#: ".md" a second time, which Sphinx refuses. Listed after us, they take ".md" over.
MARKDOWN_READERS = ("myst_nb",)

logger = logging.getLogger(__name__)

#: Why a build that names us in ``html_theme`` only stops, and what to change.
THEME_ONLY = (
    'html_theme = "sphinx_playbook" needs the sphinx_playbook extension too: add '
    'extensions = ["sphinx_playbook"] to conf.py (Sphinx loads a theme after the '
    "environment exists, too late for the citation domain and Markdown sources)."
)


def setup(app: Sphinx) -> dict[str, Any]:
    """Set up the extension and register the theme.

    Sphinx calls it from ``extensions``, before config-inited. Calling it again on
    the same application changes nothing; ``setup_extension`` is a no-op for the
    extensions an author lists too.

    When only ``html_theme`` names us, Sphinx calls it through the
    ``sphinx.html_themes`` entry point while the builder loads its theme: the
    environment exists by then, so the citation domain, the ``env_version`` and
    Markdown sources could not take effect, and half a playbook would build. The
    build stops at once with what to add to conf.py instead (:data:`THEME_ONLY`).
    """
    metadata = {
        "version": __version__,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
        "env_version": 10,  # 10: one registry of what pages show (machinery/registry.py)
    }
    if app in _SET_UP:
        return metadata
    if getattr(app, "builder", None) is not None:
        # Said first as a located error, above the report Sphinx prints for the stop.
        logger.error(
            THEME_ONLY,
            location=_html_theme_line(Path(app.confdir, "conf.py")),
            type="playbook",
            subtype="theme_only",
        )
        raise ConfigError(THEME_ONLY)
    _SET_UP.add(app)
    for extension in REQUIRED_EXTENSIONS:
        if extension == "myst_parser" and markdown_is_read(app):
            continue
        app.setup_extension(extension)
    add_config_values(app)
    setup_build(app)
    setup_source_folders(app)
    setup_metadata(app)
    setup_citation_file(app)
    setup_theme(app)
    setup_directives(app)
    setup_images(app)
    setup_citations(app)
    setup_appendix(app)
    setup_math(app)
    setup_interactive(app)
    setup_notebooks(app)
    setup_latex(app)
    setup_delivery(app)
    setup_previews(app)
    setup_title_overlay(app)
    return metadata


def markdown_is_read(app: Sphinx) -> bool:
    """Whether another extension, set up before us, already reads .md sources with MyST."""
    return any(reader in app.extensions for reader in MARKDOWN_READERS)


def _html_theme_line(conf_py: Path) -> str:
    """``conf.py:LINE`` of the ``html_theme`` setting (a location Sphinx prints as is)."""
    try:
        lines = conf_py.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    number = next((n for n, line in enumerate(lines, 1) if line.startswith("html_theme")), 1)
    return f"{conf_py}:{number}"
