"""Responsive images made at build time: WebP (and AVIF, where Pillow writes it)
copies of each raster image at the widths the layout shows it at, offered with
``srcset`` and ``sizes``.

A phone then downloads a 704-pixel WebP where the author's 2,400-pixel PNG would
have come whole; the original stays as the ``<img>`` every browser understands.
AVIF is offered first, for an image only where it beats the WebP at every width a
reader may need.

- ``env-updated`` (once, in the build's own process, before any page is written):
  each raster image of the site gets its plan, the widths of a fixed ladder up to
  its own, each kept only when its WebP is smaller than the original (an animated
  GIF becomes animated WebPs, each frame at that width). Encoded files are kept in the
  build cache under their content hash, each image's plan beside them, so a rebuild
  (even ``-E``, or a new checkout with the cache restored) encodes only new images.
  The plans live in the environment, where the writers (forked with ``-j``) read
  them; a variant's name holds its content hash, so a changed image never reuses
  an old name.
- write (:func:`picture_sources`): the ``<source>`` elements for an image, with the
  ``sizes`` of the column it sits in.
- ``build-finished``: the planned files copied into ``_images/``, and those no
  plan names any more deleted, so a rebuild leaves what a fresh build would.

An image the author sized (``:width: 500px``, ``:scale: 50%``, ``:height:``, a
percentage such as ``width: 100%`` in a side-by-side) gets its copies too
(:func:`author_display`): at its display width at 1x and 2x (and the ladder's widths
below it) when that width is fixed, at the ladder's widths when it is a share of the
column, with ``sizes`` saying so. Each use of an image is planned by its widths, so a
page's ``srcset`` depends on nothing but its own image and its own options.

On paper a page uses, through a ``<source media="print">`` first in the
``<picture>``, the narrowest copy that gives at least :data:`PRINT_DPI` at the width
the image can take on paper (else the original): the browser never prints the small
copy a phone took, since a print stylesheet cannot change ``srcset``.

``playbook_images = "off"`` turns it all off; an image with the class
``pb-original`` is served as it is.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import io
import json
import os
import posixpath
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.images import get_image_size

from ..config import read_config
from ..machinery.cache import cache_folder, digest, write_atomically
from ..machinery.state import PageStore, SiteValue

logger = logging.getLogger(__name__)

#: Widths made for each image (never wider than it): a phone's column, the text
#: column (704 px) and the page column (1072 px), each at 1x and 2x, and a band.
LADDER = (360, 704, 1072, 1408, 2144, 2880)
#: What is encoded: formats every browser decodes, which a WebP or AVIF beats.
RASTER_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif"})
#: Lossy quality of each format, about alike to the eye (AVIF's scale is lower).
QUALITY = {"webp": 82, "avif": 60}
#: libavif's speed (0 slowest to 10): 8 encodes a 1,400-pixel screenshot in about
#: a tenth of a second, within a few per cent of speed 6's bytes.
AVIF_SPEED = 8
#: The folder of the variants, under the HTML builder's image folder.
SUBFOLDER = "variants"
#: An image's own opt-out.
OPT_OUT_CLASS = "pb-original"
#: Resolution of the copy a printed page takes, in pixels per inch of paper.
PRINT_DPI = 200
#: The widest an image prints at, in CSS pixels (1/96 inch): the print stylesheet's
#: text on US Letter (215.9 mm less 2 x 17 mm margins), wider than on A4.
PAPER_WIDTH = 688
#: CSS pixels per unit of an author's absolute length (``em`` at the browser's 16 px).
_UNIT_PX = {
    "": 1.0,
    "px": 1.0,
    "pt": 96 / 72,
    "pc": 16.0,
    "in": 96.0,
    "cm": 96 / 2.54,
    "mm": 96 / 25.4,
    "em": 16.0,
    "rem": 16.0,
    "ex": 8.0,
    "ch": 8.0,
}
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-z%]*)\s*$")
#: A variant's file name: ``<stem>-<12 hex of its content>-<width>w.webp`` (or ``.avif``).
_VARIANT_NAME = re.compile(r"-[0-9a-f]{12}-\d+w\.(?:webp|avif)$")


@dataclass(frozen=True)
class Variant:
    width: int
    name: str  # the file name under _images/variants/
    cache_key: str  # its file in the build cache
    bytes: int
    format: str  # "webp" or "avif": its file's suffix


@dataclass(frozen=True)
class Display:
    """How wide an image is shown: ``column`` (the layout's width, capped by its own),
    ``fixed`` (``pixels`` CSS pixels, an author's length) or ``share`` (``fraction`` of
    its column, an author's percentage). ``style`` is the author's width to keep
    written on the ``<img>`` (a length that is not in pixels, a percentage)."""

    kind: str
    pixels: float = 0.0
    fraction: float = 1.0
    style: str = ""
    #: The ``<img>``'s width and height attributes (CSS pixels or the file's own).
    width: int = 0
    height: int = 0


#: One use of an image: its path relative to the source folder, the widths made for it.
Use = tuple[str, tuple[int, ...]]
#: The raster images each page shows, each with the widths made for it.
SHOWN: PageStore[frozenset[Use]] = PageStore("shown_raster_images_by_width")
#: The variants of each use of an image.
PLANS: SiteValue[dict[Use, tuple[Variant, ...]]] = SiteValue("image_variants_by_use", dict)
#: The plans by the content hash of the image and the widths they were made from.
_BY_CONTENT: SiteValue[dict[str, tuple[Variant, ...]]] = SiteValue("image_variants_by_hash", dict)


def _length(value: object) -> tuple[float, str] | None:
    """An author's length as (number, unit), or None when it is not one."""
    match = _LENGTH.match(str(value).lower())
    return (float(match.group(1)), match.group(2)) if match else None


def author_display(node: nodes.Element, size: tuple[int, int] | None) -> Display | None:
    """How wide ``node`` is shown, from its ``width``, ``height`` and ``scale``
    options and the file's own ``size``; None when the options cannot be read (a
    unit we cannot turn into pixels: the image is written as Sphinx writes it)."""
    if size is None or not size[0] or not size[1]:
        return None
    own_width, own_height = size
    scale = node.get("scale", 100) / 100 if isinstance(node.get("scale"), int | float) else 1.0
    width = _length(node["width"]) if "width" in node else None
    height = _length(node["height"]) if "height" in node else None
    if ("width" in node and width is None) or ("height" in node and height is None):
        return None
    if width is not None and width[1] == "%":
        if height is not None:
            return None
        fraction = width[0] / 100 * scale
        return Display(
            "share",
            fraction=fraction,
            style=f"width: {fraction * 100:g}%",
            width=own_width,
            height=own_height,
        )
    if width is not None and width[1] in _UNIT_PX:
        pixels = width[0] * _UNIT_PX[width[1]] * scale
        style = "" if width[1] in ("", "px") else f"width: {width[0] * scale:g}{width[1]}"
        shown_height = pixels * own_height / own_width
        if height is not None and height[1] in _UNIT_PX:
            shown_height = height[0] * _UNIT_PX[height[1]] * scale
        elif height is not None:
            return None
    elif width is None and height is not None and height[1] in _UNIT_PX:
        shown_height = height[0] * _UNIT_PX[height[1]] * scale
        pixels = shown_height * own_width / own_height
        style = "" if height[1] in ("", "px") else f"height: {height[0] * scale:g}{height[1]}"
    elif width is None and height is None:
        if scale == 1.0:
            return Display("column", width=own_width, height=own_height)
        pixels, shown_height, style = own_width * scale, own_height * scale, ""
    else:
        return None
    return Display(
        "fixed",
        pixels=pixels,
        style=style,
        width=max(1, round(pixels)),
        height=max(1, round(shown_height)),
    )


def widths_for(display: Display, own_width: int) -> tuple[int, ...]:
    """The widths made for an image ``own_width`` pixels wide shown as ``display``:
    the ladder's (and the image's own) for a column or a share of one; for a fixed
    width, the ladder's below it, and it at 1x and 2x, never wider than the image."""
    if display.kind != "fixed":
        widths = [w for w in LADDER if w < own_width]
        if own_width <= LADDER[-1]:
            widths.append(own_width)  # the full size too: WebP often beats the PNG
        return tuple(widths)
    one = max(1, round(display.pixels))
    widest = min(2 * one, own_width)
    return tuple(sorted({w for w in LADDER if w < min(one, widest)} | {min(one, widest), widest}))


def _chosen_file(node: nodes.Element, supported: list[str]) -> str | None:
    """The file the builder takes for ``node``, relative to the source folder."""
    candidates: dict[str, str] = node.get("candidates", {})
    return candidates.get("*") or next(
        (candidates[kind] for kind in supported if kind in candidates), None
    )


def use_of(node: nodes.Element, relative: str, srcdir: str | Path) -> Use | None:
    """The use of the raster image ``relative`` that ``node`` shows, or None."""
    if Path(relative).suffix.lower() not in RASTER_SUFFIXES:
        return None
    size = get_image_size(Path(srcdir, relative))
    display = author_display(node, size)
    if display is None or size is None:
        return None
    return relative, widths_for(display, size[0])


def _enabled(app: Sphinx) -> bool:
    builder = app.builder
    return (
        read_config(app.config).images != "off"
        and isinstance(builder, StandaloneHTMLBuilder)
        and not builder.name.startswith("epub")
    )


@functools.cache
def formats() -> tuple[str, ...]:
    """What copies are made in, in the order a page offers them (a browser takes the
    first it decodes): AVIF where this Pillow writes it, then WebP."""
    from PIL import features

    return ("avif", "webp") if "avif" in features.get_supported_modules() else ("webp",)


def _encode_one(frames: list[Any], kind: str, durations: list[int], loop: int) -> bytes:
    buffer = io.BytesIO()
    if kind == "avif":
        frames[0].save(buffer, "AVIF", quality=QUALITY["avif"], speed=AVIF_SPEED)
    elif len(frames) > 1:  # an animation stays one, each frame at this width
        frames[0].save(
            buffer,
            "WEBP",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            loop=loop,
            quality=QUALITY["webp"],
            method=4,
        )
    else:
        frames[0].save(buffer, "WEBP", quality=QUALITY["webp"], method=4)
    return buffer.getvalue()


def _encode(
    source: Path, folder: Path, content_hash: str, widths: tuple[int, ...]
) -> tuple[Variant, ...]:
    """Encode the variants of ``source`` at ``widths`` that are smaller than it, into
    ``folder``; a width another use of the image made already is read back."""
    from PIL import Image, ImageSequence  # imported by builds that make variants only

    original_size = source.stat().st_size
    stem = re.sub(r"[^\w.-]", "_", source.stem)[:40]
    made: dict[str, list[Variant]] = {}
    with Image.open(source) as image:
        frames = [
            frame.copy() if frame.mode in ("RGB", "RGBA") else frame.convert("RGBA")
            for frame in ImageSequence.Iterator(image)
        ]
        durations = [frame.info.get("duration", 100) for frame in ImageSequence.Iterator(image)]
        loop = image.info.get("loop", 0)
        kinds = formats() if len(frames) == 1 else ("webp",)  # animations: WebP only
        for width in widths:
            height = max(1, round(image.height * width / image.width))
            sized: list[Any] | None = None
            for kind in kinds:
                key = f"{content_hash[:24]}-{width}.{kind}"
                try:
                    data = (folder / key).read_bytes()
                except OSError:
                    if sized is None:
                        sized = [
                            f
                            if width == image.width
                            else f.resize((width, height), Image.Resampling.LANCZOS)
                            for f in frames
                        ]
                    data = _encode_one(sized, kind, durations, loop)
                    write_atomically(folder / key, data)
                if len(data) >= original_size:
                    continue  # never serve more bytes than the original
                name = f"{stem}-{digest(data)[:12]}-{width}w.{kind}"
                made.setdefault(kind, []).append(Variant(width, name, key, len(data), kind))
    # A narrower variant that is no smaller than a wider one is of no use.
    kept = {
        kind: [v for i, v in enumerate(vs) if all(v.bytes < w.bytes for w in vs[i + 1 :])]
        for kind, vs in made.items()
    }
    # AVIF only where, at every width a reader may need, the copy a browser takes
    # from the AVIF list beats the one it takes from the WebP list (or the original):
    # a browser that decodes AVIF never downloads more than one that takes WebP.
    webp, avif = kept.get("webp", []), kept.get("avif", [])
    for width in {v.width for v in webp + avif}:
        chosen_avif, chosen_webp = _chosen(avif, width), _chosen(webp, width)
        beaten = chosen_webp.bytes if chosen_webp else original_size
        if chosen_avif is None or chosen_avif.bytes >= beaten:
            kept.pop("avif", None)
            break
    return tuple(v for kind in formats() for v in kept.get(kind, []))


def _chosen(variants: list[Variant], width: int) -> Variant | None:
    """The copy a browser takes for ``width`` pixels: the narrowest at least that
    wide, else the widest (``variants`` narrowest first)."""
    wide_enough = [v for v in variants if v.width >= width]
    return wide_enough[0] if wide_enough else (variants[-1] if variants else None)


def note_shown_images(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the raster images the page shows, each with the widths its
    display needs (:func:`use_of`). Of an image written ``name.*``, only the file the
    builder will take (the first of its supported types Sphinx found: the SVG before
    the PNG, for HTML) is shown."""
    shown: set[Use] = set()
    supported = getattr(app.builder, "supported_image_types", [])
    for image in doctree.findall(nodes.image):
        chosen = _chosen_file(image, supported)
        use = use_of(image, chosen, app.srcdir) if chosen else None
        if use is not None:
            shown.add(use)
    SHOWN.of(app.env)[app.env.docname] = frozenset(shown)


def _cached_plan(folder: Path, content_hash: str) -> tuple[Variant, ...] | None:
    """The plan the cache keeps beside the encoded files: a build with a fresh
    environment (``-E``, a new checkout with the cache restored) encodes nothing again."""
    try:
        entries = json.loads((folder / f"{content_hash[:24]}.json").read_text(encoding="utf-8"))
        return tuple(Variant(**entry) for entry in entries)
    except (OSError, ValueError, TypeError):
        return None


def plan_variants(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: the variants of every raster image of the site."""
    if not _enabled(app):
        return []
    folder = cache_folder(app.doctreedir) / "images"
    folder.mkdir(parents=True, exist_ok=True)
    known = _BY_CONTENT.get(env)
    plans: dict[Use, tuple[Variant, ...]] = {}
    by_content: dict[str, tuple[Variant, ...]] = {}
    shown: set[Use] = set().union(*SHOWN.of(env).values())
    hashes: dict[str, str] = {}
    for relative, widths in sorted(shown):
        source = Path(app.srcdir, relative)
        if source.suffix.lower() not in RASTER_SUFFIXES or not source.is_file():
            continue
        if relative not in hashes:
            hashes[relative] = digest(
                source.read_bytes(), repr((formats(), QUALITY, AVIF_SPEED)), "v4"
            )
        content_hash = hashes[relative]
        plan_hash = digest(content_hash.encode(), repr(widths))
        variants = known.get(plan_hash) or _cached_plan(folder, plan_hash)
        if variants is None or not all((folder / v.cache_key).is_file() for v in variants):
            try:
                variants = _encode(source, folder, content_hash, widths)
            except Exception as error:  # Pillow cannot read it: served as it is
                logger.info(f"sphinx_playbook: no smaller copies of {relative} ({error})")
                variants = ()
            plan = json.dumps([dataclasses.asdict(v) for v in variants]).encode()
            write_atomically(folder / f"{plan_hash[:24]}.json", plan)
        plans[relative, widths] = by_content[plan_hash] = variants
    PLANS.set(env, plans)
    _BY_CONTENT.set(env, by_content)
    return []


def _column_sizes(node: nodes.Element) -> list[tuple[str, str]]:
    """The width of the column the image sits in (the widths of sphinx-playbook.css's
    grid at its breakpoints), divided among the columns of a side-by-side, as
    (media condition, length) pairs, the last one without a condition."""
    columns = 1
    layout = "text"
    parent: nodes.Element | None = node.parent
    while parent is not None:
        classes: set[str] = set(parent.get("classes", []))
        if "pb-side-by-side" in classes and columns == 1:
            columns = max(1, sum(1 for c in parent.children if not isinstance(c, nodes.target)))
        if classes & {"pb-aside", "pb-aside-stack", "l-gutter"}:
            layout = "gutter"
            break
        if classes & {"l-screen", "l-screen-inset", "pb-wide-image"} and "l-page" not in classes:
            layout = "screen"
            break
        if classes & {"l-page", "l-page-outset"}:
            layout = "page"
            break
        if classes & {"l-body-outset", "l-middle"}:
            layout = "outset"
            break
        parent = parent.parent
    if layout == "screen":
        return [("", "100vw")]
    wide = {"text": 704, "outset": 888, "page": 1072, "gutter": 152}[layout]
    medium = {"text": 512, "outset": 644, "page": 776, "gutter": 116}[layout]
    if columns > 1:
        return [
            ("(min-width: 1180px)", f"calc({wide}px / {columns})"),
            ("(min-width: 1000px)", f"calc({medium}px / {columns})"),
            ("(min-width: 768px)", f"calc((100vw - 8rem) / {columns})"),
            ("", "calc(100vw - 2rem)"),
        ]
    return [
        ("(min-width: 1180px)", f"{wide}px"),
        ("(min-width: 1000px)", f"{medium}px"),
        ("", "calc(100vw - 2rem)"),
    ]


def _pixels(length: str) -> float | None:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)px", length)
    return float(match.group(1)) if match else None


def _shown(length: str, display: Display) -> str:
    """The width an image shown as ``display`` takes in a column ``length`` wide."""
    pixels = _pixels(length)
    if display.kind == "fixed":  # the author's width, never wider than the column
        fixed = f"{display.pixels:.4g}px"
        return f"{min(pixels, display.pixels):.4g}px" if pixels else f"min({fixed}, {length})"
    if display.kind == "share" and display.fraction != 1:
        if pixels:
            return f"{pixels * display.fraction:.4g}px"
        if length.endswith("vw") and length[:-2].isdigit():
            return f"{int(length[:-2]) * display.fraction:.4g}vw"
        inner = length[5:-1] if length.startswith("calc(") else length
        return f"calc(({inner}) * {display.fraction:.4g})"
    return length


def sizes_of(node: nodes.Element, display: Display) -> str:
    """``sizes`` for ``node`` shown as ``display`` in its column."""
    entries: list[tuple[str, str]] = []
    for condition, length in reversed(_column_sizes(node)):
        shown = _shown(length, display)
        if not entries or entries[0][1] != shown:  # else the narrower screens' rule holds
            entries.insert(0, (condition, shown))
    return ", ".join(
        f"{condition} {length}" if condition else length for condition, length in entries
    )


def _print_variant(
    variants: tuple[Variant, ...], display: Display, own_width: int
) -> Variant | None:
    """The narrowest copy that prints at :data:`PRINT_DPI` or more (None: the original)."""
    printed = min(PAPER_WIDTH, display.pixels) if display.kind == "fixed" else PAPER_WIDTH
    if display.kind == "share":
        printed *= min(display.fraction, 1.0)
    needed = min(own_width, -(-printed * PRINT_DPI // 96))
    return next((v for v in variants if v.width >= needed), None)


def picture_sources(
    translator: Any, node: nodes.Element, source_uri: str, original: str = ""
) -> str:
    """The ``<source>`` elements (on paper, then AVIF, then WebP) of the variants of
    the image at ``source_uri`` (relative to the source folder), or "" when it has
    none. ``original`` is the URL of the file itself, printed when no copy is sharp
    enough on paper."""
    if OPT_OUT_CLASS in node.get("classes", []):
        return ""
    size = get_image_size(Path(translator.builder.srcdir, source_uri))
    display = author_display(node, size)
    if display is None or size is None:
        return ""
    widths = widths_for(display, size[0])
    variants = PLANS.get(translator.builder.env).get((source_uri, widths))
    if not variants:
        return ""
    base = posixpath.join(translator.builder.imgpath, SUBFOLDER)
    sizes = sizes_of(node, display)
    sources = []
    kinds = list(dict.fromkeys(v.format for v in variants))
    for kind in kinds:
        of_kind = tuple(v for v in variants if v.format == kind)
        printed = _print_variant(of_kind, display, size[0])
        if printed is not None:
            url = posixpath.join(base, urllib.parse.quote(printed.name))
            sources.append(f'<source media="print" type="image/{kind}" srcset="{url}">')
        elif original:
            sources.append(f'<source media="print" srcset="{html.escape(original)}">')
            break  # the original, whatever the browser decodes
    for kind in kinds:
        srcset = ", ".join(
            f"{posixpath.join(base, urllib.parse.quote(v.name))} {v.width}w"
            for v in variants
            if v.format == kind
        )
        sources.append(f'<source type="image/{kind}" srcset="{srcset}" sizes="{sizes}">')
    return "".join(sources)


def copy_variants(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: each planned variant in ``_images/variants/``, and only those."""
    if exception is not None or not _enabled(app):
        return
    folder = cache_folder(app.doctreedir) / "images"
    target = Path(app.outdir, "_images", SUBFOLDER)
    wanted = {v.name: v for plan in PLANS.get(app.env).values() for v in plan}
    if wanted:
        target.mkdir(parents=True, exist_ok=True)
    for existing in target.iterdir() if target.is_dir() else ():
        if _VARIANT_NAME.search(existing.name) and existing.name not in wanted:
            existing.unlink()
    for name, variant in wanted.items():
        path = target / name
        if not path.is_file():
            cached = folder / variant.cache_key
            partial = path.with_name(f".{name}.{os.getpid()}")
            partial.write_bytes(cached.read_bytes())
            os.replace(partial, path)


def setup_responsive_images(app: Sphinx) -> None:
    app.connect("doctree-read", note_shown_images)
    app.connect("env-updated", plan_variants)
    app.connect("build-finished", copy_variants)
