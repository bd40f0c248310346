"""The ``playbook_*`` configuration values, declared once as a dataclass.

Each field of :class:`PlaybookConfig` becomes a ``playbook_<field>`` value in
conf.py. :func:`read_config` validates what the author wrote at
``config-inited`` and replaces a wrong value by its default with a located
warning, so a typo never turns into a traceback later in the build.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

from .diagnostics import PlaybookWarning, warn

PREFIX = "playbook_"


def _is_list_of_mappings_or_strings(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(v, dict | str) for v in value)


def _is_optional_string(value: Any) -> bool:
    return value is None or isinstance(value, str)


@dataclass(frozen=True)
class PlaybookConfig:
    """Site-wide defaults; a page's own front matter always wins."""

    authors: list[dict[str, Any] | str] = field(
        default_factory=list,
        metadata={
            "validate": _is_list_of_mappings_or_strings,
            "expects": "a list of author names or mappings with name, url, orcid, affiliations",
        },
    )
    affiliations: list[dict[str, Any] | str] = field(
        default_factory=list,
        metadata={
            "validate": _is_list_of_mappings_or_strings,
            "expects": "a list of affiliation names or mappings with id, name, url",
        },
    )
    published: str | None = field(
        default=None,
        metadata={"validate": _is_optional_string, "expects": "a date such as '2025-02-19'"},
    )
    updated: str | None = field(
        default=None,
        metadata={"validate": _is_optional_string, "expects": "a date such as '2025-03-01'"},
    )
    doi: str | None = field(
        default=None,
        metadata={"validate": _is_optional_string, "expects": "a DOI such as '10.1234/abc'"},
    )
    description: str | None = field(
        default=None,
        metadata={"validate": _is_optional_string, "expects": "a one-sentence string"},
    )
    thumbnail: str | None = field(
        default=None,
        metadata={"validate": _is_optional_string, "expects": "an image path or URL"},
    )
    license: str | None = field(
        default=None,
        metadata={"validate": _is_optional_string, "expects": "a licence such as 'CC-BY-4.0'"},
    )
    repository_url: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "the project's repository URL, e.g. 'https://github.com/org/repo'",
        },
    )
    repository_branch: str = field(
        default="main",
        metadata={"validate": lambda v: isinstance(v, str) and bool(v), "expects": "a branch name"},
    )
    math: str = field(
        default="katex",
        metadata={
            "validate": lambda v: v in ("katex", "mathml", "off"),
            "expects": "'katex', 'mathml' or 'off'",
        },
    )
    math_display_align: str = field(
        default="left",
        metadata={"validate": lambda v: v in ("left", "center"), "expects": "'left' or 'center'"},
    )
    math_macros: dict[str, str] = field(
        default_factory=dict,
        metadata={
            "validate": lambda v: (
                isinstance(v, dict)
                and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())
            ),
            "expects": "a dict of TeX macros, e.g. {'\\\\RR': '\\\\mathbb{R}'}",
        },
    )
    bibfiles: list[str] = field(
        default_factory=list,
        metadata={
            "validate": lambda v: (
                isinstance(v, list | tuple) and all(isinstance(i, str) for i in v)
            ),
            "expects": "a list of .bib file paths, relative to conf.py",
        },
    )
    citations: bool = field(
        default=True,
        metadata={"validate": lambda v: isinstance(v, bool), "expects": "True or False"},
    )
    citation_numbering: str = field(
        default="page",
        metadata={"validate": lambda v: v in ("page", "book"), "expects": "'page' or 'book'"},
    )
    interactive_libraries: dict[str, str] = field(
        default_factory=lambda: {"plotly": "auto"},
        metadata={
            "validate": lambda v: (
                isinstance(v, dict)
                and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())
            ),
            "expects": "a dict of library name to 'auto' or a path, e.g. {'plotly': 'auto'}",
        },
    )


CONFIG_FIELDS = {f.name: f for f in dataclasses.fields(PlaybookConfig)}


def _default(f: dataclasses.Field) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def add_config_values(app: Sphinx, *, config_inited: bool) -> None:
    """Register every dataclass field as ``playbook_<name>``.

    ``config_inited`` is true when Sphinx loads the extension late, through the
    theme entry point: config-inited has fired already, so validate now.
    """
    for name, f in CONFIG_FIELDS.items():
        # "env": pages are re-read when a default they may show changes.
        app.add_config_value(PREFIX + name, _default(f), "env", types=())
    if config_inited:
        _validate_config(app, app.config)
        enable_myst_extensions(app, app.config)
    else:
        app.connect("config-inited", _validate_config, priority=400)
        app.connect("config-inited", enable_myst_extensions, priority=400)


#: MyST syntax extensions a playbook relies on: ``:::{name}`` colon fences for
#: directives, ``{.l-page}`` block attributes for layout classes, ``$math$``.
MYST_EXTENSIONS = ("colon_fence", "attrs_block", "dollarmath")


def enable_myst_extensions(app: Sphinx, config: Config) -> None:
    """Add :data:`MYST_EXTENSIONS` to ``myst_enable_extensions``, keeping the author's."""
    if "myst_enable_extensions" not in config:
        return
    enabled = config.myst_enable_extensions
    missing = [name for name in MYST_EXTENSIONS if name not in enabled]
    if missing:
        config.myst_enable_extensions = [*enabled, *missing]


def _validate_config(app: Sphinx, config: Config) -> None:
    """Replace invalid values by their default, warning once for each."""
    for name, f in CONFIG_FIELDS.items():
        value = config[PREFIX + name]
        if not f.metadata["validate"](value):
            warn(
                f"conf.py: {PREFIX}{name} = {value!r} is not valid; "
                f"expected {f.metadata['expects']}. Using the default instead.",
                PlaybookWarning.CONFIG,
            )
            setattr(config, PREFIX + name, _default(f))


def read_config(config: Config) -> PlaybookConfig:
    """The validated settings as one immutable object."""
    return PlaybookConfig(**{name: config[PREFIX + name] for name in CONFIG_FIELDS})
