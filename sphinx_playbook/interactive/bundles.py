"""The smallest plotly.js that draws a figure: plotly.js's official partial bundles.

plotly.js is published whole (about 1.5 MB compressed, what the plotly Python
package ships) and as partial bundles on npm (``plotly.js-basic-dist-min``: bar, pie
and scatter in 0.4 MB; ``-cartesian-``, ``-finance-``, ``-geo-``, ``-gl2d-``, ...).
With ``playbook_interactive_libraries = {"plotly": "auto"}``, a partial bundle
installed with npm beside the project (``node_modules/`` in the source folder or
one above it) is used for each page whose figures' traces it registers, when it is
the same plotly.js release as the full bundle; every other page gets the full one
(one bundle per page: two smaller ones would together weigh more).

What a bundle can draw is read from the bundle itself (each trace module it
registers), not from a list that could fall behind plotly.js.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

#: ``moduleType:"trace",name:"scatter"``: how a bundle registers a trace type.
_TRACE_MODULE = re.compile(rb'moduleType:"trace",name:"(\w+)"')
#: The release in the bundle's banner: ``plotly.js (basic - minified) v3.0.1``.
_RELEASE = re.compile(rb"plotly\.js[^\n]{0,40}?\sv(\d+\.\d+\.\d+)")


@dataclass(frozen=True)
class Bundle:
    path: Path
    size: int
    release: str | None
    traces: frozenset[str]


@functools.lru_cache(maxsize=64)
def _read(path: str, size: int, mtime_ns: int) -> Bundle:
    data = Path(path).read_bytes()
    release = _RELEASE.search(data[:500])
    return Bundle(
        path=Path(path),
        size=size,
        release=release.group(1).decode() if release else None,
        traces=frozenset(name.decode() for name in _TRACE_MODULE.findall(data)),
    )


def read_bundle(path: Path) -> Bundle:
    """What the bundle at ``path`` registers (cached while the file is unchanged)."""
    stat = path.stat()
    return _read(str(path), stat.st_size, stat.st_mtime_ns)


def partial_bundles(start: Path) -> list[Path]:
    """The npm partial bundles in ``node_modules`` of ``start`` and its parents,
    nearest first (as Node resolves packages)."""
    found: list[Path] = []
    for folder in (start, *start.parents):
        modules = folder / "node_modules"
        if modules.is_dir():
            found += sorted(modules.glob("plotly.js-*-dist-min/plotly-*.min.js"))
    return found


def choose_bundle(full: Path, partials: list[Path], traces: frozenset[str] | None) -> Path:
    """The smallest bundle of ``full``'s release that registers every trace type in
    ``traces``; ``full`` when none does or the traces are unknown."""
    if traces is None or not partials:
        return full
    whole = read_bundle(full)
    fitting = [
        bundle
        for bundle in map(read_bundle, partials)
        if traces <= bundle.traces and bundle.release == whole.release and bundle.size < whole.size
    ]
    return min(fitting, key=lambda bundle: bundle.size).path if fitting else full
