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

``playbook_images = "off"`` turns it all off; an image with the class
``pb-original`` is served as it is.
"""

from __future__ import annotations

import dataclasses
import functools
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
#: A variant's file name: ``<stem>-<12 hex of its content>-<width>w.webp`` (or ``.avif``).
_VARIANT_NAME = re.compile(r"-[0-9a-f]{12}-\d+w\.(?:webp|avif)$")


@dataclass(frozen=True)
class Variant:
    width: int
    name: str  # the file name under _images/variants/
    cache_key: str  # its file in the build cache
    bytes: int
    format: str  # "webp" or "avif": its file's suffix


#: The raster images each page shows at the layout's width (not an author's size).
SHOWN: PageStore[frozenset[str]] = PageStore("shown_raster_images")
#: Each image's variants, by its path relative to the source folder (as env.images).
PLANS: SiteValue[dict[str, tuple[Variant, ...]]] = SiteValue("image_variants", dict)
#: The plans by the content hash of the image they were made from.
_BY_CONTENT: SiteValue[dict[str, tuple[Variant, ...]]] = SiteValue("image_variants_by_hash", dict)


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


def _encode(source: Path, folder: Path, content_hash: str) -> tuple[Variant, ...]:
    """Encode the variants of ``source`` that are smaller than it, into ``folder``."""
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
        widths = [w for w in LADDER if w < image.width]
        if image.width <= LADDER[-1]:
            widths.append(image.width)  # the full size too: WebP often beats the PNG
        for width in widths:
            height = max(1, round(image.height * width / image.width))
            sized = [
                f if width == image.width else f.resize((width, height), Image.Resampling.LANCZOS)
                for f in frames
            ]
            for kind in kinds:
                data = _encode_one(sized, kind, durations, loop)
                if len(data) >= original_size:
                    continue  # never serve more bytes than the original
                name = f"{stem}-{digest(data)[:12]}-{width}w.{kind}"
                key = f"{content_hash[:24]}-{width}.{kind}"
                write_atomically(folder / key, data)
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
    """``doctree-read``: the raster images the page shows; an image the author sized,
    or a thumbnail, gets no variants. Of an image written ``name.*``, only the file
    the builder will take (the first of its supported types Sphinx found: the SVG
    before the PNG, for HTML) is shown."""
    shown: set[str] = set()
    supported = getattr(app.builder, "supported_image_types", [])
    for image in doctree.findall(nodes.image):
        if any(key in image for key in ("width", "height", "scale")):
            continue
        candidates: dict[str, str] = image.get("candidates", {})
        chosen = candidates.get("*") or next(
            (candidates[kind] for kind in supported if kind in candidates), None
        )
        if chosen and Path(chosen).suffix.lower() in RASTER_SUFFIXES:
            shown.add(chosen)
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
    plans: dict[str, tuple[Variant, ...]] = {}
    by_content: dict[str, tuple[Variant, ...]] = {}
    shown = set().union(*SHOWN.of(env).values())
    for relative in sorted(shown):
        source = Path(app.srcdir, relative)
        if source.suffix.lower() not in RASTER_SUFFIXES or not source.is_file():
            continue
        content_hash = digest(
            source.read_bytes(), repr((formats(), QUALITY, AVIF_SPEED, LADDER)), "v3"
        )
        variants = known.get(content_hash) or _cached_plan(folder, content_hash)
        if variants is None or not all((folder / v.cache_key).is_file() for v in variants):
            try:
                variants = _encode(source, folder, content_hash)
            except Exception as error:  # Pillow cannot read it: served as it is
                logger.info(f"sphinx_playbook: no smaller copies of {relative} ({error})")
                variants = ()
            plan = json.dumps([dataclasses.asdict(v) for v in variants]).encode()
            write_atomically(folder / f"{content_hash[:24]}.json", plan)
        plans[relative] = by_content[content_hash] = variants
    PLANS.set(env, plans)
    _BY_CONTENT.set(env, by_content)
    return []


def _layout_sizes(node: nodes.Element) -> str:
    """``sizes`` for the column the image sits in (the widths of sphinx-playbook.css's
    grid at its breakpoints), divided among the columns of a side-by-side."""
    columns = 1
    layout = "text"
    parent: nodes.Element | None = node.parent
    while parent is not None:
        classes: set[str] = set(parent.get("classes", []))
        if "pb-side-by-side" in classes and columns == 1:
            columns = max(1, sum(1 for c in parent.children if not isinstance(c, nodes.target)))
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
    wide = {"text": "704px", "outset": "888px", "page": "1072px", "screen": "100vw"}[layout]
    medium = {"text": "512px", "outset": "644px", "page": "776px", "screen": "100vw"}[layout]
    if layout == "screen":
        return "100vw"
    if columns > 1:
        return (
            f"(min-width: 1180px) calc({wide} / {columns}), "
            f"(min-width: 1000px) calc({medium} / {columns}), "
            f"(min-width: 768px) calc((100vw - 8rem) / {columns}), calc(100vw - 2rem)"
        )
    return f"(min-width: 1180px) {wide}, (min-width: 1000px) {medium}, calc(100vw - 2rem)"


def picture_sources(translator: Any, node: nodes.Element, source_uri: str) -> str:
    """The ``<source>`` elements (AVIF, then WebP) of the variants of the image at
    ``source_uri`` (relative to the source folder), or "" when it has none."""
    if OPT_OUT_CLASS in node.get("classes", []):
        return ""
    variants = PLANS.get(translator.builder.env).get(source_uri)
    if not variants:
        return ""
    base = posixpath.join(translator.builder.imgpath, SUBFOLDER)
    sizes = _layout_sizes(node)
    sources = []
    for kind in dict.fromkeys(v.format for v in variants):
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
