"""Images written with their intrinsic size, so the page never jumps as they load.

Sphinx writes ``<img>`` without ``width``/``height`` unless the author gave them,
and the text below an image moves down when it arrives (layout shift). Under
this theme every image, and every wide-image band under any theme, is written with
the size read from the file at build time (an author's ``:width:``, ``:height:`` or
``:scale:`` in pixels becomes the attributes, the height keeping the file's
proportions; a percentage stays a style, with the file's size as attributes),
``loading="lazy"`` and ``decoding="async"``; CSS keeps it responsive
(``max-width: 100%; height: auto``).

Two reader-side additions live here too. A figure's image is written inside a
link to its file (``a.pb-zoom``): without JavaScript the link opens the file,
with it the theme's script shows it full-size in a dialog. And an image can
carry a dark variant (``:dark:`` on ``wide-image`` and ``figure-legend``): a
second image node, read like any other so Sphinx copies its file, which HTML
pages show with the ``only-light``/``only-dark`` classes (CSS follows the
system and the mode switch, no script) and other builders drop. A raster image
that has no dark variant and is see-through somewhere (a chart's black axes on
a transparent background) gets the class ``pb-transparent``, read from the file
with Pillow: in dark mode it stands on a light backdrop instead of the page
(``:class: no-backdrop`` or ``playbook_dark_backdrop = False`` keep it bare).
"""

from __future__ import annotations

import functools
import html
import posixpath
import urllib.parse
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.images import get_image_size

from .config import read_config
from .delivery.responsive_images import author_display, picture_sources
from .machinery import priorities
from .machinery.state import build_facts, builder_of
from .raw_images import RawHtmlImages

#: Image options that mean the author sized the image themselves.
_AUTHOR_SIZED = ("width", "height", "scale")
#: Formats a browser shows in <img>; others (video...) stay with Sphinx's writer.
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".bmp")


#: The class of the image node that is another image's dark variant.
DARK_VARIANT = "pb-dark-variant"


def add_dark_variant(image: nodes.image, uri: str) -> nodes.image:
    """Put the dark variant ``uri`` of ``image`` right after it (same alt text)."""
    dark = nodes.image(uri=uri, alt=image.get("alt", ""), classes=[DARK_VARIANT], candidates={})
    dark.source, dark.line = image.source, image.line
    image.parent.insert(image.parent.index(image) + 1, dark)
    return dark


def is_dark_variant(node: nodes.Node) -> bool:
    return isinstance(node, nodes.image) and DARK_VARIANT in node["classes"]


class DarkVariants(SphinxPostTransform):
    """HTML: each image and its dark variant get ``only-light`` and ``only-dark``.
    Other builders (and EPUB, whose readers may ignore the classes): the variant goes."""

    default_priority = priorities.DARK_VARIANTS

    def run(self, **kwargs: Any) -> None:
        facts = build_facts(self.env)
        in_html = facts.html and not facts.builder_name.startswith("epub")
        for dark in [i for i in self.document.findall(nodes.image) if is_dark_variant(i)]:
            parent = dark.parent
            index = parent.index(dark)
            light = parent[index - 1] if index else None
            if not in_html or not isinstance(light, nodes.image):
                parent.remove(dark)
                continue
            light["classes"].append("only-light")
            dark["classes"].append("only-dark")


def _zoomable(image: nodes.image) -> bool:
    """An image of a figure that is not already a link, nor an interactive fallback."""
    parent = image.parent
    if isinstance(parent, nodes.reference) or "pb-interactive__image" in image["classes"]:
        return False
    figure = next((a for a in _ancestors(image) if isinstance(a, nodes.figure)), None)
    return figure is not None and "pb-interactive" not in figure["classes"]


def _ancestors(node: nodes.Node) -> list[nodes.Element]:
    found = []
    while node.parent is not None:
        node = node.parent
        found.append(node)
    return found


class sized_image(nodes.image):
    """An image the HTML writer gives its intrinsic size and lazy loading."""


def to_sized_image(image: nodes.image) -> sized_image:
    """Replace ``image`` in its tree by a :class:`sized_image` with the same attributes."""
    sized = sized_image(image.rawsource, **image.attributes)
    sized.source, sized.line = image.source, image.line
    image.replace_self(sized)
    return sized


def visit_sized_image(self: Any, node: sized_image) -> None:
    """Like Sphinx's <img>, plus width, height, loading and decoding."""
    source_uri = node["uri"]
    uri = source_uri
    if uri in self.builder.images:
        uri = posixpath.join(self.builder.imgpath, urllib.parse.quote(self.builder.images[uri]))
    attributes: dict[str, str] = {"src": uri, "alt": node.get("alt", "")}
    size = get_image_size(self.builder.srcdir / source_uri) if "://" not in source_uri else None
    display = author_display(node, size)
    if display is not None:  # the author's size, or the file's: nothing moves as it loads
        attributes["width"], attributes["height"] = str(display.width), str(display.height)
        if display.style:
            attributes["style"] = display.style
    attributes["loading"] = str(node.get("loading", "lazy"))
    attributes["decoding"] = "async"
    if "align" in node:
        node["classes"].append(f"align-{node['align']}")
    zoom = node.get("pb_zoom")
    if zoom:
        # The link takes the variant's class, so a hidden variant leaves no tab stop.
        classes = ["pb-zoom", *(c for c in node["classes"] if c in ("only-light", "only-dark"))]
        self.body.append(f'<a class="{" ".join(classes)}" href="{html.escape(uri)}">')
    sources = picture_sources(self, node, source_uri, uri)
    self.body.append(f"<picture>{sources}" if sources else "")
    self.body.append(self.emptytag(node, "img", "", **attributes))
    self.body.append("</picture>" if sources else "")
    if zoom:
        self.body.append("</a>")
    raise nodes.SkipNode


class SizeImages(SphinxPostTransform):
    """Under this theme, hand every plain local image to :func:`visit_sized_image`."""

    def _linked_by_sphinx(self, image: nodes.image) -> bool:
        """A resized image Sphinx links to its file after the post-transforms
        (``html_scaled_image_link``): a zoom link of ours inside it would nest links."""
        return (
            bool(self.config.html_scaled_image_link)
            and any(key in image for key in ("scale", "width", "height"))
            and "no-scaled-link" not in image["classes"]
        )

    default_priority = priorities.SIZE_IMAGES
    formats = ("html",)

    def is_supported(self) -> bool:
        return super().is_supported() and build_facts(self.env).playbook_theme

    def run(self, **kwargs: Any) -> None:
        for image in list(self.document.findall(nodes.image)):
            if _zoomable(image) and not self._linked_by_sphinx(image):
                image["pb_zoom"] = True
            if isinstance(image, sized_image):
                continue
            uri = image["uri"]
            candidates: dict[str, str] = image.get("candidates", {})
            if "://" in uri or uri.startswith("data:"):
                continue
            if any(k in image for k in _AUTHOR_SIZED) and not self._readable_size(image):
                continue  # a size we cannot turn into pixels: written as Sphinx writes it
            if not (uri.lower().endswith(_IMAGE_SUFFIXES) or uri.endswith(".*") or candidates):
                continue
            to_sized_image(image)

    def _readable_size(self, image: nodes.image) -> bool:
        """Whether the author's size of ``image`` is one :func:`author_display` reads."""
        builder = builder_of(self.env)
        supported = getattr(builder, "supported_image_types", [])
        candidates: dict[str, str] = image.get("candidates", {})
        chosen = candidates.get("*") or next(
            (candidates[k] for k in supported if k in candidates), None
        )
        if not chosen:
            return False
        return author_display(image, get_image_size(Path(self.env.srcdir, chosen))) is not None


#: The class of an image whose file is see-through somewhere (a light backdrop in dark mode).
TRANSPARENT = "pb-transparent"
#: The class an author gives an image to keep it without that backdrop.
NO_BACKDROP = "no-backdrop"
#: The raster formats that can be see-through, by MIME type (for ``image.*`` candidates).
_ALPHA_TYPES = {"image/png": ".png", "image/gif": ".gif", "image/webp": ".webp"}


def has_transparency(path: Path) -> bool:
    """Whether the PNG, GIF or WebP at ``path`` has a pixel that is not fully opaque
    (an alpha channel that is opaque everywhere does not count)."""
    try:
        stat = path.stat()
    except OSError:
        return False
    return _has_transparency(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=512)
def _has_transparency(path: str, mtime_ns: int, size: int) -> bool:
    """:func:`has_transparency`, once per file version (mtime and size key the cache)."""
    from PIL import Image

    try:
        with Image.open(path) as opened:
            if not opened.has_transparency_data:
                return False
            image: Image.Image = opened
            if image.mode not in ("RGBA", "LA", "La", "RGBa"):
                image = image.convert("RGBA")  # a palette or a colour key
            extrema = image.getchannel("A").getextrema()
            return isinstance(extrema[0], int | float) and extrema[0] < 255
    except Exception:  # not an image Pillow reads: Sphinx reports it, if at all
        return False


class TransparentBackdrops(SphinxPostTransform):
    """Under this theme, mark see-through raster images ``pb-transparent``.

    Images with a dark variant (either of the pair), in a wide-image band (a light
    strip already), or with the class ``no-backdrop`` are left alone.
    """

    default_priority = priorities.TRANSPARENT_BACKDROPS
    formats = ("html",)

    def is_supported(self) -> bool:
        return super().is_supported() and build_facts(self.env).playbook_theme

    def run(self, **kwargs: Any) -> None:
        if not read_config(self.config).dark_backdrop:
            return
        skip = {NO_BACKDROP, TRANSPARENT, DARK_VARIANT, "only-light", "only-dark"}
        for image in self.document.findall(nodes.image):
            if skip.intersection(image["classes"]) or _in_band(image):
                continue
            path = self._file(image)
            if path is not None and has_transparency(path):
                image["classes"].append(TRANSPARENT)

    def _file(self, image: nodes.image) -> Path | None:
        """The local PNG, GIF or WebP file the page shows, if it is one."""
        uri: str = image["uri"]
        if "://" in uri or uri.startswith("data:"):
            return None
        candidates: dict[str, str] = image.get("candidates", {})
        if uri.endswith(".*") and candidates:
            builder = builder_of(self.env)
            supported = getattr(builder, "supported_image_types", list(_ALPHA_TYPES))
            chosen = next((t for t in supported if t in candidates), None)
            if chosen not in _ALPHA_TYPES:
                return None
            uri = candidates[chosen]
        if not uri.lower().endswith(tuple(_ALPHA_TYPES.values())):
            return None
        return Path(self.env.srcdir, uri)


def _in_band(image: nodes.image) -> bool:
    return any("pb-wide-image" in a["classes"] for a in _ancestors(image))


def setup_images(app: Sphinx) -> None:
    app.add_node(sized_image, html=(visit_sized_image, None))
    app.add_post_transform(DarkVariants)
    app.add_post_transform(TransparentBackdrops)
    app.add_post_transform(SizeImages)
    app.add_transform(RawHtmlImages)
