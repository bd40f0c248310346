"""What the site sends to readers, made smaller at build time: WebP copies of raster
images at the layout's widths (:mod:`.responsive_images`) and precompressed copies
of large text files (:mod:`.precompress`)."""

from __future__ import annotations

from sphinx.application import Sphinx

from .precompress import setup_precompress
from .responsive_images import setup_responsive_images


def setup_delivery(app: Sphinx) -> None:
    setup_precompress(app)
    setup_responsive_images(app)
