"""A content-hash cache of rendered formulas, kept between builds.

The key hashes everything the markup depends on (library, its version and our
glue code, display flag, macros, the page's definitions before the
formula, TeX), so an unchanged formula is rendered once,
ever, per doctree directory, and a changed option can never serve stale output.
Beside its markup each entry keeps the characters it draws, by font file (what
the font subsets and a page's font preloads are made of), so a rebuild reads
neither markup again. The file is a pickle in the build's cache folder
(:mod:`..machinery.cache`): it loads four times faster than the same entries as JSON
(5 MB for the 2,000 formulas of the size-8 benchmark book).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..machinery.cache import cache_folder, load_pickle, save_pickle
from .renderers import Library, Rendered, engine_name

FILE_NAME = "math.pickle"
#: Bumped when an entry's shape changes: a file of another format is ignored.
FORMAT = 2

#: What a formula draws, by font file name: the characters as one string each.
Characters = dict[str, str]


class FormulaKeys:
    """The cache key of each formula of one library and one set of macros.

    What every formula shares (library, version, glue code, engine, macros) is hashed once;
    a key then costs a copy of that hash and the formula's own bytes.
    """

    def __init__(self, library: Library, macros_json: str) -> None:
        shared = [library.name, library.version, library.glue, engine_name(), macros_json]
        self._shared = hashlib.sha256(json.dumps(shared).encode("utf-8"))

    def __call__(self, tex: str, display: bool, definitions: str = "") -> str:
        """The key of a formula rendered after the page's ``definitions`` (macros an
        earlier formula defined): the same TeX after other macros is another key."""
        digest = self._shared.copy()
        digest.update(b"D" if display else b"I")
        digest.update(len(definitions).to_bytes(8, "big"))
        digest.update(definitions.encode("utf-8"))
        digest.update(tex.encode("utf-8"))
        return digest.hexdigest()


class FormulaCache:
    """``key -> (Rendered, Characters | None)``, loaded from and saved to one pickle."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[str | None, str | None, Characters | None]] = {}
        self._loaded_from: Path | None = None
        self._dirty = False

    def get(self, key: str) -> Rendered | None:
        entry = self._entries.get(key)
        return None if entry is None else Rendered(entry[0], entry[1])

    def characters(self, key: str) -> Characters | None:
        """What the formula draws, by font file; None where that was not recorded."""
        entry = self._entries.get(key)
        return None if entry is None else entry[2]

    def put(self, key: str, rendered: Rendered, characters: Characters | None = None) -> None:
        self._entries[key] = (rendered.html, rendered.error, characters)
        self._dirty = True

    def load(self, doctreedir: str | Path) -> None:
        """Read the cache kept in the doctree directory; a damaged file is simply ignored."""
        path = cache_folder(doctreedir) / FILE_NAME
        self._entries, self._loaded_from, self._dirty = {}, path, False
        stored = load_pickle(path)
        if isinstance(stored, dict) and stored.get("format") == FORMAT:
            entries = stored.get("entries")
            self._entries = entries if isinstance(entries, dict) else {}

    def save(self, keep: set[str]) -> None:
        """Write the entries still in use (so the file never grows without bound)."""
        if self._loaded_from is None:
            return
        unused = self._entries.keys() - keep
        if not self._dirty and not unused and self._loaded_from.is_file():
            return
        for key in unused:
            del self._entries[key]
        save_pickle(self._loaded_from, {"format": FORMAT, "entries": self._entries})
        self._dirty = False
