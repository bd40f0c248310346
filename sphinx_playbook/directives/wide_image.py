"""``wide-image``: a full-bleed band across the viewport (or the page column).

The directive writes a standard ``figure`` (image and, from the content, its
caption) inside a marked container, so numfig, ``{numref}`` and every builder
treat it as a figure; the HTML post-transform turns the container into the band
and gives the image its intrinsic size and lazy loading.
"""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from ..diagnostics import PlaybookWarning
from ..images import add_dark_variant
from ..urls import is_safe_url
from . import css_values
from .base import (
    CLASS_OPTION,
    LAYOUT_CLASSES,
    NAME_OPTION,
    OptionSpec,
    PlaybookDirective,
    choice,
    component,
)
from .figure_legend import _caption_and_legend, dark_variant_exists

BAND_LAYOUTS = ("screen", "page")


class WideImageDirective(PlaybookDirective):
    subtype = PlaybookWarning.WIDE_IMAGE
    # Checked in run(): a missing path is a playbook warning, not docutils' error.
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    spec: ClassVar[OptionSpec] = {
        "alt": directives.unchanged,
        "width": css_values.length,
        "background": css_values.color,
        "layout": choice(*BAND_LAYOUTS),
        "name": NAME_OPTION,
        "class": CLASS_OPTION,
        "target": directives.unchanged_required,
        "dark": directives.uri,
    }

    def run(self) -> list[nodes.Node]:
        options = self.valid_options()
        if not self.arguments:
            self.warn("no image given; write the image path after the directive name")
            return []
        uri = directives.uri(self.arguments[0])
        layout = options.get("layout", "screen")
        alt = (options.get("alt") or "").strip()
        if not alt:
            self.warn(
                f"{uri!r} has no :alt: text; describe the image for readers who cannot see it"
            )
        band = component(
            "wide-image",
            ["pb-wide-image", LAYOUT_CLASSES[layout], *options.get("class", [])],
            background=options.get("background", "white"),
        )
        if "width" in options:
            band["max_width"] = options["width"]
        self.set_source_info(band)

        image = nodes.image(self.block_text, uri=uri, alt=alt or uri, candidates={})
        self.set_source_info(image)
        dark = options.get("dark")
        target = options.get("target")
        content: nodes.Element = image
        if target:
            if is_safe_url(target):
                content = nodes.reference("", "", image, refuri=target)
            else:
                self.warn(
                    f":target: {target!r} is refused: use an http(s), mailto or relative link"
                )
        figure = nodes.figure("", content, classes=["pb-wide-image__figure"])
        self.set_source_info(figure)
        if dark and dark_variant_exists(self, dark):
            add_dark_variant(image, dark)
        if self.content:
            legend = nodes.Element()
            self.state.nested_parse(self.content, self.content_offset, legend)
            caption, rest = _caption_and_legend(legend)
            if caption is not None:
                figure += caption
            if rest is not None:
                figure += rest
        if "name" in options:
            self.options["name"] = options["name"]
            self.add_name(figure)
        band += figure
        return [band]


def setup_wide_image(app: Sphinx) -> None:
    app.add_directive("wide-image", WideImageDirective)
