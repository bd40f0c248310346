"""The TeX macros every formula of the site may use: conf.py's, MathJax's and ours.

A project written for MathJax often defines its macros in ``mathjax3_config``
(``{"tex": {"macros": {"RR": "\\mathbb{R}", "norm": ["\\|#1\\|", 1]}}}``) or, for
MathJax 2, in ``mathjax_config``/``mathjax2_config`` (``{"TeX": {"Macros": ...}}``).
Moving to our theme, those macros keep working: KaTeX and the LaTeX preamble get
them, with ``playbook_math_macros`` taking precedence where both name a macro.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sphinx.config import Config

from ..config import read_config

#: conf.py settings of sphinx.ext.mathjax, and where each keeps its macros.
MATHJAX_SETTINGS = (
    ("mathjax3_config", ("tex", "macros")),
    ("mathjax2_config", ("TeX", "Macros")),
    ("mathjax_config", ("TeX", "Macros")),
)


def _mathjax_macros(config: Config) -> dict[str, str]:
    macros: dict[str, str] = {}
    for setting, (section, key) in MATHJAX_SETTINGS:
        value: Any = getattr(config, setting, None)
        found = value.get(section, {}).get(key) if isinstance(value, Mapping) else None
        if not isinstance(found, Mapping):
            continue
        for name, definition in found.items():
            # "name": "body", or ["body", argument count(, default of the first)].
            body = definition[0] if isinstance(definition, list | tuple) else definition
            if isinstance(name, str) and isinstance(body, str):
                macros.setdefault("\\" + name.lstrip("\\"), body)
    return macros


def site_macros(config: Config) -> dict[str, str]:
    """``playbook_math_macros`` over the macros of conf.py's MathJax settings."""
    return {**_mathjax_macros(config), **read_config(config).math_macros}
