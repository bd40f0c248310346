"""``playbook_precompress``: ``.gz`` and ``.br`` copies beside the site's large text
files, for hosts that serve a precompressed file when the reader accepts it (nginx's
``gzip_static``, Caddy's ``precompressed``, Apache with rewrite rules). Hosts that
compress on the fly (GitHub Pages, Read the Docs, Netlify, Cloudflare Pages) do not
need them.

A copy is rewritten only when it no longer decompresses to its file, so a rebuild
that changes nothing compresses nothing (Brotli's best level takes seconds on
plotly.js); a copy whose file is gone is deleted with it.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder

from ..config import read_config
from ..machinery import priorities

#: Text files worth compressing; images and fonts are compressed already.
TEXT_SUFFIXES = frozenset({".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".xml"})
#: Below this a compressed copy saves less than a network packet.
MINIMUM_BYTES = 1024


def _brotli() -> ModuleType | None:
    """Brotli's binding: fontTools' ``woff`` extra installs it (brotlicffi on PyPy)."""
    for name in ("brotli", "brotlicffi"):
        try:
            return __import__(name)
        except ImportError:
            continue
    return None


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)  # mtime 0: the same bytes each build


Codec = tuple[Callable[[bytes], bytes], Callable[[bytes], bytes]]


def _encoders() -> dict[str, Codec]:
    """Suffix: (compress, decompress)."""
    encoders: dict[str, Codec] = {".gz": (_gzip, gzip.decompress)}
    brotli = _brotli()
    if brotli is not None:
        encoders[".br"] = (lambda data: brotli.compress(data, quality=11), brotli.decompress)
    return encoders


def _write(path: Path, data: bytes) -> None:
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(data)
    os.replace(partial, path)


def precompress_site(outdir: Path) -> int:
    """Write the missing or stale copies under ``outdir``; the number written."""
    encoders = _encoders()
    written = 0
    for path in sorted(outdir.rglob("*")):
        if path.suffix in (".gz", ".br"):
            if not path.with_suffix("").is_file():
                path.unlink()  # its file was deleted (a removed page)
            continue
        if path.suffix not in TEXT_SUFFIXES or not path.is_file():
            continue
        data = path.read_bytes()
        for suffix, (compress, decompress) in encoders.items():
            copy = path.with_name(path.name + suffix)
            if len(data) < MINIMUM_BYTES:
                copy.unlink(missing_ok=True)
                continue
            try:
                if copy.is_file() and decompress(copy.read_bytes()) == data:
                    continue
            except Exception:  # a damaged copy: write it again
                pass
            _write(copy, compress(data))
            written += 1
    return written


def _on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    builder = app.builder
    if exception is not None or not read_config(app.config).precompress:
        return
    # The sites a host serves; EPUB is a zip of its own.
    if isinstance(builder, StandaloneHTMLBuilder) and not builder.name.startswith("epub"):
        precompress_site(Path(builder.outdir))


def setup_precompress(app: Sphinx) -> None:
    app.connect("build-finished", _on_build_finished, priority=priorities.PRECOMPRESS)
