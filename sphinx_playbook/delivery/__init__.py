"""What the site sends to readers, made smaller at build time: WebP copies of raster
images at the layout's widths (:mod:`.responsive_images`) and precompressed copies
of large text files (:mod:`.precompress`); and no page linking a stale version of a
site-wide file (:mod:`..machinery.linked_assets`, wired here: it serves every feature)."""

from __future__ import annotations

from sphinx.application import Sphinx

from ..machinery.linked_assets import setup_linked_assets
from .precompress import setup_precompress
from .responsive_images import setup_responsive_images


def setup_delivery(app: Sphinx) -> None:
    setup_linked_assets(app)
    setup_precompress(app)
    setup_responsive_images(app)
