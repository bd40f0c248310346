"""A content-hash cache of rendered formulas, kept between builds.

The key hashes everything the markup depends on (library, its version and our
glue code, display flag, macros, the page's definitions before the
formula, TeX), so an unchanged formula is rendered once,
ever, per doctree directory, and a changed option can never serve stale output.
Beside its markup each entry keeps the characters it draws, by font file (what
the font subsets and a page's font preloads are made of), so a rebuild reads
neither markup again.

The files are pickles in the build's cache folder (:mod:`..machinery.cache`),
which load four times faster than the same entries as JSON, in two parts: an
index of every formula's key and characters, which each build reads (the site's
fonts need them all), and the markup in 256 files by the key's first two hex
digits, each read when a formula of it is first asked for. A rebuild after an
edit reads the markup of the formulas of the pages it reads and writes again,
not the site's (5 MB for the 2,000 formulas of the size-8 benchmark book: the
part of a preview's rebuild that grew with the book); it writes back only the
files whose entries changed, index last, so a build stopped halfway leaves
entries the index does not name, never an index naming markup that is not there.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..machinery.cache import cache_folder, load_pickle, save_pickle
from .renderers import Library, Rendered, engine_name

#: The folder of the formula cache, in the cache folder: ``index.pickle`` and the
#: markup files ``<xx>.pickle``.
FOLDER_NAME = "math"
#: What the cache was before it was split (a build of an earlier release left it).
OLD_FILE_NAME = "math.pickle"
#: Bumped when an entry's shape changes: a file of another format is ignored.
FORMAT = 3

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
    """``key -> (Rendered, Characters | None)``: the index loaded whole, the markup by
    file as needed."""

    def __init__(self) -> None:
        #: Every formula's characters (None where not recorded), by key.
        self._index: dict[str, Characters | None] = {}
        #: The markup files read so far, by name: ``key -> (html, error)``.
        self._markup: dict[str, dict[str, tuple[str | None, str | None]]] = {}
        self._changed: set[str] = set()
        self._folder: Path | None = None
        self._index_changed = False

    @staticmethod
    def _file_of(key: str) -> str:
        return key[:2]

    def _markup_file(self, name: str) -> dict[str, tuple[str | None, str | None]]:
        entries = self._markup.get(name)
        if entries is None:
            stored = None if self._folder is None else load_pickle(self._folder / f"{name}.pickle")
            entries = {}
            if isinstance(stored, dict) and stored.get("format") == FORMAT:
                found = stored.get("entries")
                entries = found if isinstance(found, dict) else {}
            self._markup[name] = entries
        return entries

    def __contains__(self, key: str) -> bool:
        return key in self._index

    def get(self, key: str) -> Rendered | None:
        if key not in self._index:
            return None
        entry = self._markup_file(self._file_of(key)).get(key)
        return None if entry is None else Rendered(entry[0], entry[1])

    def characters(self, key: str) -> Characters | None:
        """What the formula draws, by font file; None where that was not recorded."""
        return self._index.get(key)

    def put(self, key: str, rendered: Rendered, characters: Characters | None = None) -> None:
        name = self._file_of(key)
        self._markup_file(name)[key] = (rendered.html, rendered.error)
        self._index[key] = characters
        self._changed.add(name)
        self._index_changed = True

    def load(self, doctreedir: str | Path) -> None:
        """Read the index kept in the doctree directory; a damaged file is ignored."""
        cache = cache_folder(doctreedir)
        (cache / OLD_FILE_NAME).unlink(missing_ok=True)
        self._folder = cache / FOLDER_NAME
        self._index, self._markup, self._changed, self._index_changed = {}, {}, set(), False
        stored = load_pickle(self._folder / "index.pickle")
        if isinstance(stored, dict) and stored.get("format") == FORMAT:
            index = stored.get("index")
            self._index = index if isinstance(index, dict) else {}
        # A markup file gone (a cleaned folder): its formulas are rendered again.
        names = {self._file_of(key) for key in self._index}
        gone = {name for name in names if not (self._folder / f"{name}.pickle").is_file()}
        if gone:
            self._index = {k: v for k, v in self._index.items() if self._file_of(k) not in gone}
            self._index_changed = True

    def save(self, keep: set[str]) -> None:
        """Write the entries still in use (so the files never grow without bound)."""
        if self._folder is None:
            return
        for key in self._index.keys() - keep:
            name = self._file_of(key)
            self._markup_file(name).pop(key, None)
            del self._index[key]
            self._changed.add(name)
            self._index_changed = True
        index_path = self._folder / "index.pickle"
        if not self._index_changed and index_path.is_file():
            return
        for name in sorted(self._changed):
            path = self._folder / f"{name}.pickle"
            entries = self._markup[name]
            if entries:
                save_pickle(path, {"format": FORMAT, "entries": entries})
            else:
                path.unlink(missing_ok=True)
        save_pickle(index_path, {"format": FORMAT, "index": self._index})
        self._changed.clear()
        self._index_changed = False
