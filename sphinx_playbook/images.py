"""Images written with their intrinsic size, so the page never jumps as they load.

Sphinx writes ``<img>`` without ``width``/``height`` unless the author gave them,
and the text below an image moves down when it arrives (layout shift). Under
this theme every plain image, and every wide-image band under any theme, is
written with the size read from the file at build time, ``loading="lazy"`` and
``decoding="async"``; CSS keeps it responsive (``max-width: 100%; height: auto``).
"""

from __future__ import annotations

import posixpath
import urllib.parse
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.images import get_image_size

from .build.state import build_facts

#: Image options that mean the author sized or placed the image themselves.
_AUTHOR_SIZED = ("width", "height", "scale", "loading")
#: Formats a browser shows in <img>; others (video...) stay with Sphinx's writer.
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".bmp")


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
    if size:
        attributes["width"], attributes["height"] = str(size[0]), str(size[1])
    attributes["loading"] = "lazy"
    attributes["decoding"] = "async"
    if "align" in node:
        node["classes"].append(f"align-{node['align']}")
    self.body.append(self.emptytag(node, "img", "", **attributes))
    raise nodes.SkipNode


class SizeImages(SphinxPostTransform):
    """Under this theme, hand every plain local image to :func:`visit_sized_image`."""

    default_priority = 210
    formats = ("html",)

    def is_supported(self) -> bool:
        return super().is_supported() and build_facts(self.env).playbook_theme

    def run(self, **kwargs: Any) -> None:
        for image in list(self.document.findall(nodes.image)):
            if isinstance(image, sized_image) or any(k in image for k in _AUTHOR_SIZED):
                continue
            uri = image["uri"]
            candidates: dict[str, str] = image.get("candidates", {})
            if "://" in uri or uri.startswith("data:"):
                continue
            if not (uri.lower().endswith(_IMAGE_SUFFIXES) or uri.endswith(".*") or candidates):
                continue
            to_sized_image(image)


def setup_images(app: Sphinx) -> None:
    app.add_node(sized_image, html=(visit_sized_image, None))
    app.add_post_transform(SizeImages)
