"""A content-hash cache of rendered formulas, kept between builds.

The key hashes everything the markup depends on (library, its version and our
glue code, display flag, macros, TeX), so an unchanged formula is rendered once,
ever, per doctree directory, and a changed option can never serve stale output.
The file lives in the doctree directory, beside Sphinx's own pickled state.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .renderers import Library, Rendered

FILE_NAME = "playbook-math-cache.json"


class FormulaKeys:
    """The cache key of each formula of one library and one set of macros.

    What every formula shares (library, version, glue code, macros) is hashed once;
    a key then costs a copy of that hash and the formula's own bytes.
    """

    def __init__(self, library: Library, macros_json: str) -> None:
        shared = [library.name, library.version, library.glue, macros_json]
        self._shared = hashlib.sha256(json.dumps(shared).encode("utf-8"))

    def __call__(self, tex: str, display: bool) -> str:
        digest = self._shared.copy()
        digest.update(b"D" if display else b"I")
        digest.update(tex.encode("utf-8"))
        return digest.hexdigest()


class FormulaCache:
    """``key -> Rendered``, loaded from and saved to one JSON file."""

    def __init__(self) -> None:
        self._entries: dict[str, Rendered] = {}
        self._loaded_from: Path | None = None
        self._dirty = False

    def get(self, key: str) -> Rendered | None:
        return self._entries.get(key)

    def put(self, key: str, rendered: Rendered) -> None:
        self._entries[key] = rendered
        self._dirty = True

    def load(self, directory: str | Path) -> None:
        """Read the cache once per doctree directory; a damaged file is simply ignored."""
        path = Path(directory) / FILE_NAME
        if self._loaded_from == path:
            return
        self._entries, self._loaded_from, self._dirty = {}, path, False
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            self._entries = {key: Rendered(*value) for key, value in stored.items()}
        except (OSError, ValueError, TypeError):
            self._entries = {}

    def save(self, keep: set[str]) -> None:
        """Write the entries still in use (so the file never grows without bound)."""
        if self._loaded_from is None:
            return
        unused = self._entries.keys() - keep
        if not self._dirty and not unused:
            return
        for key in unused:
            del self._entries[key]
        entries = {key: [r.html, r.error] for key, r in sorted(self._entries.items())}
        self._loaded_from.parent.mkdir(parents=True, exist_ok=True)
        self._loaded_from.write_text(json.dumps(entries), encoding="utf-8")
        self._dirty = False


#: One cache per process; forked -j workers inherit what the main process rendered.
CACHE = FormulaCache()
