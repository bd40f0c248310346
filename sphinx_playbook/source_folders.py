"""Tool folders in the source folder are never pages: excluded from Sphinx's sources.

The docs tell authors to ``npm install`` plotly.js's partial bundles "in the source
directory or a folder above it"; in the source directory, Sphinx then reads every
``node_modules/**/README.md`` as a page ("document isn't included in any toctree",
fatal under ``-W``), and a virtual environment, a ``.tox`` or a Jupyter cache in it
do the same. At ``config-inited`` (before Sphinx lists the sources)
``exclude_patterns`` gets each folder of :data:`TOOL_FOLDERS` at any depth, and any
folder at the top of the source folder holding a ``pyvenv.cfg`` (a virtual
environment under any name), unless conf.py already excludes it. Only the list of
sources changes: ``interactive/bundles.py`` reads ``node_modules`` from the disk, not
as sources.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util.matching import compile_matchers

#: Folders that tools create and that hold no page of the author's.
TOOL_FOLDERS = (
    "node_modules",
    "bower_components",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".ipynb_checkpoints",
    ".jupyter_cache",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    ".direnv",
    ".eggs",
)


def tool_folder_patterns(srcdir: Path, tool_folders: tuple[str, ...] = TOOL_FOLDERS) -> list[str]:
    """The patterns that exclude each tool folder, at the top (``node_modules``) and
    below it (``**/node_modules``): Sphinx's matcher of sources takes ``**/`` as at
    least one folder deep."""
    names = list(tool_folders)
    with contextlib.suppress(OSError):
        names += sorted(
            child.name
            for child in srcdir.iterdir()
            if child.name not in names and (child / "pyvenv.cfg").is_file()
        )
    return [pattern for name in names for pattern in (name, f"**/{name}")]


def exclude_tool_folders(app: Sphinx, config: Config) -> None:
    """``config-inited``: add the patterns of :func:`tool_folder_patterns` that no
    pattern of the author's already covers."""
    authored: list[str] = list(config.exclude_patterns)
    matchers = compile_matchers(authored)
    added = [
        pattern
        for pattern in tool_folder_patterns(Path(app.srcdir))
        if pattern not in authored and not any(match(pattern) for match in matchers)
    ]
    if added:
        config.exclude_patterns = [*authored, *added]


def setup_source_folders(app: Sphinx) -> None:
    app.connect("config-inited", exclude_tool_folders)
