"""The stylesheet, the licence and the fonts, written before any page is.

Pages link ``_static/katex/katex.css?v=<checksum>``: Sphinx computes the checksum
from the file when it writes a page, so the file is final before the first
page (write-started), and declared at env-get-updated
(:func:`..machinery.linked_assets.declare`): every page that links it, with
formulas of its own or a hover card's, is written again when it changes. Each
KaTeX font is cut to the characters the site draws with it (:mod:`.fonts`), in
the workers, and kept in the cache folder by everything it is made of; the
stylesheet names each font with its version, so
a browser never keeps a font that lacks a glyph the site now draws. A face no
formula draws with is not written at all.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.builders.epub3 import Epub3Builder
from sphinx.environment import BuildEnvironment

from ..machinery import workers
from ..machinery.cache import cache_folder, digest, write_atomically
from ..machinery.linked_assets import declare
from .collect import Formula
from .fonts import LEGACY_FONT_SOURCES, subset_font, without_unused_faces
from .renderers import KATEX, TEMML, Library
from .site import SiteMath, site_formulas, site_math, uses_renderer

_ALIGN_CSS = """
.pb-math-left .katex-display>.katex{text-align:left;padding-left:1em}
.pb-math-left math[display=block]{margin-left:1em;margin-right:0;text-align:left}
"""
_FONT_URL = re.compile(r"url\((['\"]?)((?:[^)'\"]*/)?([^/)'\"]+\.woff2))\1\)")
#: What a cut font depends on besides its characters: the code that cuts it.
_SUBSET_CODE = Path(__file__).with_name("fonts.py")


def stylesheet(library: Library) -> str:
    return f"{library.name}/{library.name}.css"


def prepare_assets(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """env-get-updated (the last event that can add pages to the write): every
    formula rendered and the cache saved; the stylesheet made and declared (it
    names each font with its version), the fonts started.

    The pages that link the stylesheet are not guessed here: a page shows math
    from other pages too (an equation's hover card), and which pages link it is
    known only as they are written. :mod:`..machinery.linked_assets` keeps that."""
    if not uses_renderer(app.builder):
        return []
    site = site_math(app)
    formulas = site_formulas(env)
    site.send(sorted(formulas))
    site.collect()
    site.cache.save(keep={site.key(formula) for formula in formulas})
    site.files, site.font_versions, site.unused_fonts = {}, {}, []
    if formulas:
        site.files = _files(app, site, formulas)
    declare(app, f"_static/{stylesheet(site.library)}", site.files.get(f"{site.library.name}.css"))
    return []


def write_assets(app: Sphinx, builder: Builder) -> None:
    """write-started: the files the pages link, in place before the first page."""
    if not uses_renderer(builder):
        return
    site = site_math(app)
    target = Path(builder.outdir, "_static", site.library.name)
    if not site.files:  # a site without math gets no math files, as a fresh build
        shutil.rmtree(target, ignore_errors=True)
        return
    if isinstance(builder, Epub3Builder):
        # An EPUB may only hold files of its core media types: woff2 is one Sphinx's
        # table lacks, and there is no .txt (the licence goes into the stylesheet).
        builder.media_types = {**builder.media_types, ".woff2": "font/woff2"}
    for name, data in site.files.items():
        _write_if_changed(target / name, data)
    if workers.sphinx_forks_writers(app):  # the pool ends before the writers are forked
        site.complete_fonts()


def _files(app: Sphinx, site: SiteMath, formulas: set[Formula]) -> dict[str, bytes]:
    """The files under ``_static/<library>/`` by name; KaTeX's fonts are started."""
    library = site.library
    css = LEGACY_FONT_SOURCES.sub("", (library.folder / library.stylesheet).read_text("utf-8"))
    css += _ALIGN_CSS
    licence = (library.folder / "LICENSE").read_text(encoding="utf-8")
    files: dict[str, bytes] = {}
    if app.builder.name.startswith("epub"):
        css = "/*! " + licence.replace("*/", "* /") + " */\n" + css
    else:
        files["LICENSE.txt"] = licence.encode()
    if library is TEMML:
        files["Temml.woff2"] = (library.folder / "Temml.woff2").read_bytes()
        site.font_versions = {}
    else:
        css = _start_fonts(app, site, formulas, css)
    files[f"{library.name}.css"] = css.encode()
    return files


def _start_fonts(app: Sphinx, site: SiteMath, formulas: set[Formula], css: str) -> str:
    """Cut each font to its characters (from the cache, or in the workers, written
    by :func:`write_fonts`); returns the stylesheet naming each font with its version."""
    characters: dict[str, set[str]] = {}
    for formula in sorted(formulas):
        for font, drawn in site.characters(formula).items():
            characters.setdefault(font, set()).update(drawn)
    import fontTools

    cached = cache_folder(app.doctreedir) / "fonts"
    target = Path(app.builder.outdir, "_static", site.library.name, "fonts")
    code = _SUBSET_CODE.read_bytes()
    wanted: dict[str, tuple[Path, Path, str]] = {}
    for source in sorted((KATEX.folder / "fonts").glob("*.ttf")):
        name = f"{source.stem}.woff2"
        text = "".join(sorted(characters.get(name, ())))
        if not text:
            site.unused_fonts.append(target / name)
            continue
        key = digest(KATEX.version, source.name, fontTools.version, code, text)
        wanted[name] = (source, cached / f"{key}.woff2", text)
    for stale in cached.glob("*.woff2"):  # cut for characters no formula draws any more
        if stale not in {kept for _source, kept, _text in wanted.values()}:
            stale.unlink(missing_ok=True)
    # A font's version is its cache key, which covers everything it is made of: the
    # stylesheet is final now, while the fonts are cut (the pages need them only
    # once they are read by a browser, when the build is over).
    site.font_versions = {name: kept.stem[:8] for name, (_s, kept, _t) in wanted.items()}
    pending = [
        (kept, target / name, workers.submit(app, subset_font, source, text), source, text)
        for name, (source, kept, text) in wanted.items()
        if not kept.is_file()
    ]

    def finish() -> None:
        for unused in site.unused_fonts:
            unused.unlink(missing_ok=True)
        for name, (_source, kept, _text) in wanted.items():
            if kept.is_file():
                _write_if_changed(target / name, kept.read_bytes())
        for kept, written, future, source, text in pending:
            data = workers.result(future, subset_font, source, text)
            write_atomically(kept, data)
            _write_if_changed(written, data)

    site.finish_fonts = finish

    def versioned(match: re.Match[str]) -> str:
        quote, url, name = match.groups()
        return f"url({quote}{url}?v={site.font_versions[name]}{quote})"

    css = without_unused_faces(css, set(wanted))
    return _FONT_URL.sub(lambda m: versioned(m) if m.group(3) in wanted else m.group(0), css)


def _write_if_changed(path: Path, data: bytes) -> None:
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    write_atomically(path, data)


def write_fonts(app: Sphinx) -> list[tuple[str, dict[str, object], str]]:
    """html-collect-pages (after the pages, before EPUB packs its files): the fonts
    cut while the pages were written are in place."""
    if uses_renderer(app.builder):
        site_math(app).complete_fonts()
    return []
