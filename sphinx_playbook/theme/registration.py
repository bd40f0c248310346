"""Which builds use the theme, and the configuration it needs before they start."""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.theming import Theme

from ..machinery.state import note_build

THEME_NAME = "sphinx_playbook"
THEME_DIR = Path(__file__).parent / THEME_NAME
#: Builders that write one page per document with this theme's layout.html;
#: singlehtml joins documents and epub uses its own templates.
ARTICLE_BUILDERS = ("html", "dirhtml")

_RESOLVED_THEME_DIR = THEME_DIR.resolve()
#: Whether each theme in use is this one or inherits from it.
_ANSWERS: weakref.WeakKeyDictionary[Theme, bool] = weakref.WeakKeyDictionary()


def uses_playbook_theme(app: Sphinx) -> bool:
    """True when the HTML theme is this one or inherits from it.

    Reads the public ``Theme.get_theme_dirs()``: the theme's folder, then its
    parents'. Each page asks several times; the answer is kept with the theme.
    """
    theme = getattr(app.builder, "theme", None)
    if theme is None:
        return False
    answer = _ANSWERS.get(theme)
    if answer is None:
        answer = any(Path(d).resolve() == _RESOLVED_THEME_DIR for d in theme.get_theme_dirs())
        _ANSWERS[theme] = answer
    return answer


def note_build_facts(app: Sphinx) -> None:
    """``builder-inited``, first: whether this build uses the theme and the article
    layout, for every part that asks :func:`..machinery.state.build_facts`."""
    theme = uses_playbook_theme(app)
    note_build(
        app, playbook_theme=theme, article_layout=theme and app.builder.name in ARTICLE_BUILDERS
    )


def put_components_first(app: Sphinx, config: Any) -> None:
    """``config-inited``: this theme's components win over pydata-sphinx-theme's.

    pydata-sphinx-theme resolves the names in its ``navbar_*`` and ``footer_*``
    options through ``templates_path``, where it adds its components folder; ours
    go just before it, and only when this theme is the one in use.
    """
    if config.html_theme != THEME_NAME:
        return
    # A list of this build's own: where conf.py sets none, the value is Sphinx's
    # default list, shared by every build in the process, which pydata-sphinx-theme
    # appends to; a second build in the process then had a new configuration
    # (and wrote every page again).
    config.templates_path = [*config.templates_path]
    ours = str(THEME_DIR / "components")
    if ours in config.templates_path:
        return
    pydata = [i for i, p in enumerate(config.templates_path) if "pydata_sphinx_theme" in str(p)]
    config.templates_path.insert(pydata[0] if pydata else len(config.templates_path), ours)
