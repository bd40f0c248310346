"""What the site sends to readers, made smaller at build time: precompressed copies
of large text files (:mod:`.precompress`)."""

from __future__ import annotations

from sphinx.application import Sphinx

from .precompress import setup_precompress


def setup_delivery(app: Sphinx) -> None:
    setup_precompress(app)
