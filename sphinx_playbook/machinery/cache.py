"""One folder for everything this package keeps between builds, beside the doctrees.

``<doctrees>/playbook-cache/`` holds the rendered formulas, the parsed .bib files,
the cut fonts and Jinja's compiled templates. Its ``FORMAT`` file names the
layout: a folder written by another layout is emptied, never misread. Every file
is written to a temporary name and renamed (a build killed mid-write leaves the
old file), every key hashes all the inputs of what it stores, and each cache
drops what no page uses any more. ``sphinx-build -b epub SRC OUT`` keeps its
doctrees inside OUT, where the EPUB builder would pack the folder: it is left
out of the EPUB (:func:`_keep_out_of_epub`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import priorities

if TYPE_CHECKING:
    from sphinx.application import Sphinx

FOLDER = "playbook-cache"
#: Bumped when the layout of the folder or of any file in it changes.
FORMAT = "1"


def cache_folder(doctreedir: str | os.PathLike[str]) -> Path:
    """The cache folder of a doctree directory, emptied if another layout wrote it."""
    folder = Path(doctreedir, FOLDER)
    marker = folder / "FORMAT"
    try:
        if marker.read_text(encoding="utf-8") == FORMAT:
            return folder
    except OSError:
        pass
    shutil.rmtree(folder, ignore_errors=True)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(marker, FORMAT.encode())
    except OSError:
        pass  # a read-only doctree directory: every cache misses, nothing breaks
    return folder


def digest(*parts: str | bytes) -> str:
    """A key over ``parts``, each kept apart from the next (no ambiguous joins)."""
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hasher.update(len(data).to_bytes(8, "big"))
        hasher.update(data)
    return hasher.hexdigest()


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load_pickle(path: Path) -> Any:
    """What :func:`save_pickle` stored at ``path``; None if missing or damaged."""
    try:
        with path.open("rb") as file:
            return pickle.load(file)
    except Exception:  # missing, truncated, or pickled by code that has changed
        return None


def save_pickle(path: Path, value: Any) -> None:
    # A read-only doctree directory: the next build misses, that is all.
    with contextlib.suppress(OSError):
        write_atomically(path, pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _keep_out_of_epub(app: Sphinx) -> list[tuple[str, dict[str, Any], str]]:
    """Add the doctrees' files, our cache's among them, to ``epub_exclude_files``
    once the environment (and its copy of the configuration) is pickled, so the
    next build sees an unchanged configuration. html-collect-pages is the last
    event before the EPUB builder packs its files: every cache of the build is
    written by then.

    ``sphinx-build -b epub SRC OUT`` keeps its doctrees in ``OUT/.doctrees``,
    where plain Sphinx warns that it cannot package them (which fails ``-W``)."""
    if not app.builder.name.startswith("epub"):
        return []
    outdir, doctrees = Path(app.outdir).resolve(), Path(app.doctreedir).resolve()
    if not doctrees.is_relative_to(outdir):
        return []
    excluded = list(app.config.epub_exclude_files)
    for file in sorted(doctrees.rglob("*")):
        name = file.relative_to(outdir).as_posix()
        if file.is_file() and name not in excluded:
            excluded.append(name)
    app.config.epub_exclude_files = excluded
    return []


def setup_cache(app: Sphinx) -> None:
    # Late among the handlers: after the math assets and caches are written.
    app.connect("html-collect-pages", _keep_out_of_epub, priority=priorities.KEEP_CACHE_OUT_OF_EPUB)
