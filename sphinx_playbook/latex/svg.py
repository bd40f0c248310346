"""SVG figures, and GIF and WebP images, in the PDF: the LaTeX builder includes
none of them. A GIF or WebP becomes a PNG of the frame an animation rests on
(:class:`StillFrameToPng`, with Pillow, a dependency already). Each SVG image
(and a ``name.*`` image whose only vector form is SVG, such as an interactive
figure's fallback) is converted to PDF with cairosvg while the book is assembled:
vector paths, text kept as embedded font subsets, nothing to install beyond
``pip install "sphinx-playbook[pdf]"`` where the Cairo library is present (Debian,
Ubuntu, Read the Docs).

It is Sphinx's public extension point for this, an
:class:`~sphinx.transforms.post_transforms.images.ImageConverter` (the one
``sphinx.ext.imgconverter`` uses): Sphinx puts the file in its image folder, points
the image at it and copies it beside the .tex. Sphinx converts again at every
build; the PDFs are kept in our cache folder by the SVG's content, so a rebuild
converts only an SVG that changed, and a cached PDF no build used is dropped.

What the PDF cannot show is said once, where the image is: no converter
(cairosvg missing, or the Cairo library it loads: one warning for the build, with
the install command; the images print their alt text as before), an SVG the
converter cannot read, and HTML drawn in a ``foreignObject`` (which cairosvg, like
every SVG-to-PDF converter but a browser, leaves out).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from xml.parsers import expat

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms.images import ImageConverter

from ..diagnostics import PlaybookWarning, warn
from ..machinery import priorities
from ..machinery.cache import cache_folder, digest, write_atomically
from ..machinery.state import build_facts, builder_of
from .transforms import EXPLAINED, located

SVG = "image/svg+xml"
PDF = "application/pdf"
#: Where the converted PDFs are kept, in the cache folder.
FOLDER = "svg-pdf"
INSTALL = 'pip install "sphinx-playbook[pdf]"'
_CREATION_DATE = re.compile(rb"(/(?:CreationDate|ModDate) \(D:)\d{14}")


@dataclass
class _Build:
    """What one build noted: whether the missing converter was warned about, and
    the cached PDFs its images used (the others are dropped when it ends)."""

    warned_missing: bool = False
    used: set[str] = field(default_factory=set)


_BUILDS: weakref.WeakKeyDictionary[BuildEnvironment, _Build] = weakref.WeakKeyDictionary()


def _build(env: BuildEnvironment) -> _Build:
    return _BUILDS.setdefault(env, _Build())


def _readable(env: BuildEnvironment, node: nodes.image, kind: str) -> bool:
    """Whether the image's file of that type (or its only file) was found when the
    page was read: Sphinx registers only those, and converting another one fails."""
    candidates: dict[str, str] = node.get("candidates") or {}
    path = candidates.get(kind) or candidates.get("*")
    return path is not None and path in env.images


@functools.cache
def converter() -> ModuleType | str:
    """cairosvg, or why it cannot be loaded. It loads the Cairo library when
    imported: a missing library is an OSError, not an ImportError."""
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError) as error:
        return f"{type(error).__name__}: {error}"
    return cairosvg


def foreign_object_lines(data: bytes) -> list[int]:
    """The lines of the SVG's ``foreignObject`` elements (HTML inside the drawing)."""
    if b"foreignObject" not in data:
        return []
    parser = expat.ParserCreate()
    lines: list[int] = []

    def start(name: str, attributes: dict[str, str]) -> None:
        if name.rpartition(":")[2] == "foreignObject":
            lines.append(parser.CurrentLineNumber)

    parser.StartElementHandler = start
    with contextlib.suppress(expat.ExpatError):
        parser.Parse(data, True)
    return lines


def convert_svg(data: bytes, source: Path, module: ModuleType) -> bytes:
    """The SVG as a one-page PDF the size of its drawing (96 px to the inch, as on
    screen). Nothing outside the file is read (cairosvg's safe mode: data: URLs
    only, no network), as a browser showing the SVG in an ``<img>`` reads nothing."""
    # The file's path, not a file: URI, as the base: cairosvg then resolves the
    # SVG's own references (``<use href="#id">``) inside it.
    pdf: bytes = module.svg2pdf(bytestring=data, url=str(source))
    # Cairo dates the file: one date for all, so that the same SVG gives the same
    # bytes in every build (same length, so the PDF's offsets hold).
    return _CREATION_DATE.sub(rb"\g<1>20000101000000", pdf)


class SvgToPdf(ImageConverter):
    """An SVG image, for the LaTeX builder, as a PDF from the cache or cairosvg."""

    default_priority = priorities.SVG_TO_PDF
    conversion_rules = [(SVG, PDF)]  # noqa: RUF012 (Sphinx declares it so)

    def is_available(self) -> bool:
        return not isinstance(converter(), str)

    def match(self, node: nodes.image) -> bool:
        builder = builder_of(self.env)
        if builder is None or builder.format != "latex":
            return False
        candidates: dict[str, str] = node.get("candidates") or {}
        if "?" in candidates:
            return False
        if not _readable(self.env, node, SVG):
            return False  # Sphinx said "image file not readable"; the PDF shows the alt text
        kinds = set(self.guess_mimetypes(node))
        # An SVG with no PDF beside it: converted even when a PNG is there, as
        # the vector form prints sharp at any size.
        if SVG not in kinds or PDF in kinds:
            return False
        module = converter()
        if isinstance(module, str):
            self._missing(node, module)
            return False
        return True

    def _missing(self, node: nodes.image, reason: str) -> None:
        """One warning for the build; every SVG prints its alt text."""
        if "sphinx.ext.imgconverter" in build_facts(self.env).extensions:
            return  # sphinx.ext.imgconverter (200) makes a PNG of it instead
        node[EXPLAINED] = True
        build = _build(self.env)
        if build.warned_missing:
            return
        build.warned_missing = True
        warn(
            f"the SVG image {node['uri']!r} and every other SVG image of this book print "
            f"as their alt text in the PDF: converting them needs cairosvg ({reason}). "
            f"Install it with: {INSTALL} (cairosvg loads the Cairo library: "
            "apt-get install libcairo2 on Debian and Ubuntu, brew install cairo on macOS)",
            PlaybookWarning.SVG_PDF,
            location=located(node),
        )

    def handle(self, node: nodes.image) -> None:
        self._node = node
        super().handle(node)

    def convert(self, _from: str | os.PathLike[str], _to: str | os.PathLike[str]) -> bool:
        node, source = self._node, Path(_from)
        module = converter()
        assert not isinstance(module, str)  # match() said so
        try:
            data = source.read_bytes()
        except OSError as error:
            return self._failed(node, f"cannot be read ({error.strerror})")
        for line in foreign_object_lines(data)[:1]:
            warn(
                f"the SVG image {node['uri']!r} draws HTML in a foreignObject (line {line} of "
                "the SVG), which the PDF leaves out: write that text as SVG <text>, or put a "
                "PDF or PNG of the figure beside it and write the image's path with '.*'",
                PlaybookWarning.SVG_PDF,
                location=located(node),
            )
        key = digest(FOLDER, str(module.__version__), data)
        cached = cache_folder(self.env.doctreedir) / FOLDER / f"{key}.pdf"
        try:
            pdf = cached.read_bytes()
        except OSError:
            try:
                pdf = convert_svg(data, source, module)
            except Exception as error:  # cairosvg raises what its XML parser raises
                return self._failed(node, f"cannot be converted ({type(error).__name__}: {error})")
            with contextlib.suppress(OSError):  # a read-only doctree folder: no cache
                write_atomically(cached, pdf)
        _build(self.env).used.add(cached.name)
        Path(_to).write_bytes(pdf)
        return True

    def _failed(self, node: nodes.image, why: str) -> bool:
        node[EXPLAINED] = True
        raster = {"image/png": "PNG", "image/jpeg": "JPEG"}
        instead = next(
            (f"its {name}" for kind, name in raster.items() if kind in node["candidates"]),
            "its alt text",
        )
        warn(
            f"the SVG image {node['uri']!r} {why}: the PDF shows {instead} instead. "
            "Check that the file opens in a browser on its own, or put a PDF or PNG of the "
            "figure beside it and write the image's path with '.*'",
            PlaybookWarning.SVG_PDF,
            location=located(node),
        )
        return False


#: Raster formats LaTeX cannot include, and Pillow's name for each.
RASTERS = {"image/gif": "GIF", "image/webp": "WebP"}
PNG = "image/png"


def still_frame(source: Path, destination: Path) -> None:
    """The frame of a GIF or WebP that prints, as a PNG: the one the animation shows
    longest, and of frames shown as long the last (an animated diagram builds up to
    its final state and rests on it). A still image is its only frame."""
    from PIL import Image  # only LaTeX builds with such an image need it

    with Image.open(source) as image:
        chosen, longest = 0, -1
        for index in range(getattr(image, "n_frames", 1)):
            image.seek(index)
            duration = int(image.info.get("duration") or 0)
            if duration >= longest:
                chosen, longest = index, duration
        image.seek(chosen)
        frame = image.convert("RGBA")
    frame.save(destination, "PNG", optimize=True)


class StillFrameToPng(ImageConverter):
    """A GIF or WebP image, for the LaTeX builder (which includes neither), as a
    PNG of the frame that prints (:func:`still_frame`), with Pillow."""

    default_priority = priorities.STILL_FRAME_TO_PNG
    conversion_rules = [(kind, PNG) for kind in RASTERS]  # noqa: RUF012 (as Sphinx declares it)

    def is_available(self) -> bool:
        return True  # Pillow is one of our dependencies

    def match(self, node: nodes.image) -> bool:
        builder = builder_of(self.env)
        if builder is None or builder.format != "latex":
            return False
        return any(_readable(self.env, node, kind) for kind in RASTERS) and super().match(node)

    def handle(self, node: nodes.image) -> None:
        self._node = node
        super().handle(node)

    def convert(self, _from: str | os.PathLike[str], _to: str | os.PathLike[str]) -> bool:
        try:
            still_frame(Path(_from), Path(_to))
        except (OSError, ValueError) as error:  # what Pillow raises on a file it cannot read
            self._node[EXPLAINED] = True
            warn(
                f"the image {self._node['uri']!r} cannot be read ({error}): the PDF shows its "
                "alt text instead. Check that the file opens in a browser on its own, or put "
                "a PNG of it beside it and write the image's path with '.*'",
                PlaybookWarning.LATEX,
                location=located(self._node),
            )
            return False
        return True


def _start(app: Sphinx) -> None:
    _BUILDS[app.env] = _Build()


def _drop_unused(app: Sphinx, exception: BaseException | None) -> None:
    """The cached PDFs no image of this LaTeX build used (the LaTeX builder writes
    the whole book every time, so a build sees every SVG)."""
    build = _BUILDS.pop(app.env, None)
    if exception is not None or build is None or app.builder.format != "latex":
        return
    folder = cache_folder(app.doctreedir) / FOLDER
    if not folder.is_dir():
        return
    for path in folder.glob("*.pdf"):
        if path.name not in build.used:
            with contextlib.suppress(OSError):
                path.unlink()


def setup_svg(app: Sphinx) -> None:
    app.add_post_transform(SvgToPdf)
    app.add_post_transform(StillFrameToPng)
    app.connect("builder-inited", _start)
    app.connect("build-finished", _drop_unused)
