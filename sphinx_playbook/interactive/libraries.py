"""The site's one copy of each library the figures share (plotly.js, Bokeh, Vega...).

``playbook_interactive_libraries`` maps a library name to ``"auto"`` (take it from
the installed Python package that ships it) or to a file path relative to the
source directory (where conf.py usually is).
Each library is written once under ``_static/interactive/`` with its content hash
in the name, so a reader's cache keeps it until the library itself changes.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from sphinx.config import Config

from ..config import read_config
from .bundles import choose_bundle, partial_bundles

#: Where shared libraries live in the output, relative to the output root.
STATIC_SUBDIR = "_static/interactive"

#: For "auto": the Python package that ships each library, and the file inside it.
_PACKAGED = {
    "plotly": ("plotly", "package_data/plotly.min.js"),
    "bokeh": ("bokeh", "server/static/js/bokeh.min.js"),
    "bokeh-gl": ("bokeh", "server/static/js/bokeh-gl.min.js"),
    "bokeh-widgets": ("bokeh", "server/static/js/bokeh-widgets.min.js"),
    "bokeh-tables": ("bokeh", "server/static/js/bokeh-tables.min.js"),
}

#: For "auto": libraries a Python package builds rather than ships, by name, each with
#: the function that gives its file (notebooks/vega.py: vl-convert's Vega bundle).
BUILT: dict[str, Callable[[], Path | None]] = {}


def _packaged_file(name: str) -> Path | None:
    if name not in _PACKAGED:
        return None
    package, relative = _PACKAGED[name]
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations)), relative)
    return path if path.is_file() else None


def library_source(config: Config, srcdir: Path, name: str) -> Path | None:
    """The local file for library ``name``, or None when the site has no copy of it."""
    configured = read_config(config).interactive_libraries.get(name)
    if configured is None:
        configured = "auto" if name in _PACKAGED or name in BUILT else None
    if configured is None:
        return None
    if configured == "auto":
        return BUILT[name]() if name in BUILT else _packaged_file(name)
    path = Path(srcdir, configured)
    return path if path.is_file() else None


def figure_library(
    config: Config, srcdir: Path, name: str, plotly_traces: list[str] | None
) -> Path | None:
    """The file one figure loads for ``name``: for plotly with ``"auto"``, the
    smallest official bundle that registers its trace types (:mod:`.bundles`)."""
    source = library_source(config, srcdir, name)
    if source is None or name != "plotly" or plotly_traces is None:
        return source
    if read_config(config).interactive_libraries.get("plotly", "auto") != "auto":
        return source
    return choose_bundle(source, partial_bundles(Path(srcdir)), frozenset(plotly_traces))


@functools.lru_cache(maxsize=32)
def _digest(path: str, size: int, mtime_ns: int) -> str:
    hasher = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            hasher.update(block)
    return hasher.hexdigest()[:12]


def library_filename(name: str, source: Path) -> str:
    """``<name>-<hash>.js``: a new name whenever the file's content changes."""
    stat = source.stat()
    return f"{name}-{_digest(str(source), stat.st_size, stat.st_mtime_ns)}.js"


def write_library(outdir: Path, name: str, source: Path) -> None:
    """Copy ``source`` into the output once (atomically: parallel writers may race)."""
    target = Path(outdir, STATIC_SUBDIR, library_filename(name, source))
    if target.is_file():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}")
    shutil.copyfile(source, partial)
    os.replace(partial, target)
