"""Whose front-matter key is it: ours, Sphinx's, or another loaded extension's.

A project moving to our theme keeps the page keys its other extensions read
(``sd_hide_title``, ``py-config``, ``og:image``...). A key is reported as unknown
only when nobody loaded reads it; when a known extension would read it but is
not loaded, the warning names that extension.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

#: Keys this extension reads.
PLAYBOOK_KEYS = frozenset(
    {
        "title",
        "description",
        "published",
        "updated",
        "doi",
        "authors",
        "author",
        "affiliations",
        "thumbnail",
        "pdf",
        # Read by the citation and appendix features.
        "bibliography",
        "license",
    }
)

#: Keys that Sphinx, docutils (its bibliographic fields) or MyST read.
CORE_KEYS = frozenset(
    {
        "myst",
        "substitutions",
        "html_meta",
        "orphan",
        "nocomments",
        "nosearch",
        "tocdepth",
        "organization",
        "address",
        "contact",
        "version",
        "revision",
        "status",
        "date",
        "copyright",
        "dedication",
        "abstract",
        "keywords",
        # Jupytext's and Jupyter's own keys, in MyST text notebooks.
        "jupytext",
        "kernelspec",
        "file_format",
    }
)

#: Page keys other extensions document, by the name an author lists in
#: ``extensions``. Keys ending in ``*`` are prefixes.
EXTENSION_KEYS: dict[str, frozenset[str]] = {
    "sphinx_design": frozenset({"sd_hide_title"}),
    "sphinx_pyscript": frozenset({"py-config"}),
    "myst_nb": frozenset({"mystnb"}),
    "sphinxext.opengraph": frozenset({"og:*", "ogp_disable", "ogp_description_length"}),
    "ablog": frozenset(
        {
            "blogpost",
            "tags",
            "category",
            "location",
            "language",
            "redirect",
            "image",
            "excerpt",
            "external_link",
        }
    ),
    "sphinx_tags": frozenset({"tags"}),
}


class Names(Protocol):
    """What ``key in names`` asks of: a set, or Sphinx's ``Config``."""

    def __contains__(self, name: str, /) -> bool: ...


def _matches(key: str, pattern: str) -> bool:
    return key.startswith(pattern[:-1]) if pattern.endswith("*") else key == pattern


def key_owner(key: str, extensions: Collection[str]) -> str | None:
    """The loaded extension that documents ``key``, if one does."""
    for extension, patterns in EXTENSION_KEYS.items():
        if extension in extensions and any(_matches(key, p) for p in patterns):
            return extension
    return None


def is_known_key(key: str, extensions: Collection[str], config_names: Names) -> bool:
    """Whether someone in this build reads ``key``.

    Dotted keys (``html_theme.sidebar_secondary.remove``) are themes' namespaced
    page options; a key named like a registered config value is a page override
    of it.
    """
    return (
        key in PLAYBOOK_KEYS
        or key in CORE_KEYS
        or "." in key
        or key in config_names
        or key_owner(key, extensions) is not None
    )


def unknown_key_advice(key: str) -> str:
    """What to do about an unknown key: load the extension that reads it, if we know one."""
    readers = [
        extension
        for extension, patterns in EXTENSION_KEYS.items()
        if any(_matches(key, p) for p in patterns)
    ]
    known = ", ".join(sorted(PLAYBOOK_KEYS - {"author"}))
    if readers:
        return (
            f"it is read by {' or '.join(readers)}, which is not in conf.py's extensions; "
            f"add it there, or remove the key"
        )
    return f"check its spelling; the keys sphinx_playbook reads are {known}"
