"""``interactive-figure``: an HTML export (Plotly, Bokeh, Vega, a snippet) as a figure.

The directive reads the export while the page is read, rewrites it to load its
libraries from the site (:mod:`.exports`) and keeps the result in the
environment. In the doctree it leaves a plain ``figure``: the static fallback
(an image, or the alt text) with the caption and legend, marked as an
interactive figure. Every builder can write that; the HTML post-transform in
:mod:`.html` puts the frame in front of the fallback.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from ..diagnostics import PlaybookWarning
from ..directives import css_values
from ..directives.base import (
    CLASS_OPTION,
    COMPONENT,
    LAYOUT_CLASSES,
    NAME_OPTION,
    OptionSpec,
    PlaybookDirective,
    choice,
)
from ..directives.figure_legend import _caption_and_legend
from ..machinery.state import PageStore
from .exports import read_export
from .libraries import library_source

COMPONENT_NAME = "interactive-figure"
ISOLATIONS = ("iframe", "inline", "sandbox")
NARROW_MODES = ("image", "scale", "scroll")
LOADINGS = ("lazy", "eager")
#: ``:theme:``: follow the reader's colour mode (Plotly figures), or keep the export's.
THEMES = ("follow", "fixed")
#: Sibling files tried, in order, when ``:fallback:`` is not given.
FALLBACK_SUFFIXES = (".svg", ".png", ".webp")
DEFAULT_RATIO = (16.0, 9.0)


@dataclass
class InteractivePage:
    """What one page's figures need at write time (kept in the environment)."""

    exports: dict[str, str] = field(default_factory=dict)
    """Rewritten export HTML by figure key."""
    libraries: set[str] = field(default_factory=set)
    """Shared libraries the page's figures load."""


PAGES: PageStore[InteractivePage] = PageStore("interactive_pages")


def aspect_ratio(value: str) -> tuple[float, float]:
    """``16/9``, ``16:9`` or ``1.78``: a positive width-to-height ratio."""
    text = (value or "").strip()
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(?:[/:]\s*(\d+(?:\.\d+)?))?", text)
    if not match:
        raise ValueError("expected a ratio such as 16/9, 4:3 or 1.5")
    width, height = float(match.group(1)), float(match.group(2) or 1)
    if width <= 0 or height <= 0:
        raise ValueError("expected a ratio of two positive numbers, such as 16/9")
    return width, height


def _css_number(value: float) -> str:
    return f"{value:g}"


class InteractiveFigureDirective(PlaybookDirective):
    subtype = PlaybookWarning.INTERACTIVE
    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    spec: ClassVar[OptionSpec] = {
        "alt": directives.unchanged,
        "fallback": directives.unchanged_required,
        "name": NAME_OPTION,
        "class": CLASS_OPTION,
        "layout": choice(*LAYOUT_CLASSES),
        "isolation": choice(*ISOLATIONS),
        "narrow": choice(*NARROW_MODES),
        "loading": choice(*LOADINGS),
        "theme": choice(*THEMES),
        "aspect-ratio": aspect_ratio,
        "height": css_values.length,
    }

    def run(self) -> list[nodes.Node]:
        options = self.valid_options()
        argument = directives.uri(self.arguments[0])
        rel_export, abs_export = self.env.relfn2path(argument, self.env.docname)
        alt = (options.get("alt") or "").strip()
        figure = nodes.figure(
            "",
            classes=[
                "pb-interactive",
                f"pb-interactive--narrow-{options.get('narrow', 'image')}",
                *([LAYOUT_CLASSES[options["layout"]]] if "layout" in options else []),
                *options.get("class", []),
            ],
        )
        self.set_source_info(figure)
        figure += self._fallback(argument, options, alt)
        self._legend(figure)
        if "name" in options:
            self.options["name"] = options["name"]
            self.add_name(figure)

        export_path = Path(abs_export)
        if not export_path.is_file():
            self.warn(
                f"the export {argument!r} does not exist (looked for {rel_export}); "
                "only the static fallback is shown"
                if rel_export != argument
                else f"the export {argument!r} does not exist; only the static fallback is shown"
            )
            return [figure]
        self.env.note_dependency(abs_export)
        try:
            text = export_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            self.warn(f"cannot read the export {argument!r} ({error}); only the fallback is shown")
            return [figure]
        export = read_export(text)
        for url in export.remote:
            self.warn(
                f"{argument!r} loads {url} from another origin and it is not a library the site "
                "can serve; it is removed. Inline it in the export, or load a library that "
                "playbook_interactive_libraries names"
            )
        libraries = []
        for name in export.libraries:
            if library_source(self.config, self.env.srcdir, name) is None:
                self.warn(
                    f"{argument!r} needs the {name} library from another origin and the site "
                    f"has no local copy; it is removed. Set playbook_interactive_libraries = "
                    f'{{"{name}": "path/to/{name}.min.js"}} in conf.py'
                )
            else:
                libraries.append(name)

        key = hashlib.sha256(export.html.encode("utf-8")).hexdigest()[:12]
        page = PAGES.of(self.env).setdefault(self.env.docname, InteractivePage())
        page.exports[key] = export.html
        page.libraries.update(libraries)

        figure[COMPONENT] = COMPONENT_NAME
        figure["pb_key"] = key
        figure["pb_stem"] = re.sub(r"[^\w-]+", "-", export_path.stem)[:40] or "figure"
        figure["pb_libraries"] = [name for name in libraries if name in export.unplaced]
        if "plotly" in libraries:
            figure["pb_plotly"] = True
            if export.plotly_traces is not None:  # the smallest plotly.js that draws them
                figure["pb_plotly_traces"] = sorted(export.plotly_traces)
        figure["pb_isolation"] = options.get("isolation", "iframe")
        figure["pb_narrow"] = options.get("narrow", "image")
        figure["pb_loading"] = options.get("loading", "lazy")
        figure["pb_theme"] = options.get("theme", "follow")
        figure["pb_title"] = alt or f"Interactive figure: {export_path.name}"
        self._reserve(figure, options, export.size, argument)
        return [figure]

    def _fallback(self, argument: str, options: dict, alt: str) -> nodes.Element:
        """The image shown without the frame, or the alt text when there is none."""
        fallback = options.get("fallback")
        if fallback is None:
            stem = re.sub(r"\.html?$", "", argument, flags=re.IGNORECASE)
            found = [
                stem + suffix
                for suffix in FALLBACK_SUFFIXES
                if Path(self.env.relfn2path(stem + suffix, self.env.docname)[1]).is_file()
            ]
            # Several formats: let each builder pick (SVG for HTML; for LaTeX,
            # latex/svg.py makes a PDF of the SVG).
            fallback = (stem + ".*") if len(found) > 1 else (found[0] if found else None)
        elif fallback.endswith(".*"):  # one image in several formats: each builder picks
            if not any(
                Path(self.env.relfn2path(fallback, self.env.docname)[1]).parent.glob(
                    Path(fallback).name
                )
            ):
                self.warn(f":fallback: no file matches {fallback!r}; the alt text is shown instead")
                fallback = None
        elif not Path(self.env.relfn2path(fallback, self.env.docname)[1]).is_file():
            self.warn(f":fallback: {fallback!r} does not exist; the alt text is shown instead")
            fallback = None
        if fallback is not None:
            image = nodes.image(
                "", uri=directives.uri(fallback), alt=alt or "", classes=["pb-interactive__image"]
            )
            self.set_source_info(image)
            return image
        if not alt:
            self.warn(
                f"{argument!r} has no static fallback and no :alt: text; readers without "
                "JavaScript, print and other formats get nothing. Add :alt: or :fallback:, "
                "or put an image with the same name (.svg, .png, .webp) beside the export"
            )
            alt = f"Interactive figure: {argument}"
        paragraph = nodes.paragraph("", alt, classes=["pb-interactive__alt"])
        self.set_source_info(paragraph)
        return paragraph

    def _legend(self, figure: nodes.figure) -> None:
        if not self.content:
            return
        holder = nodes.Element()
        self.state.nested_parse(self.content, self.content_offset, holder)
        caption, rest = _caption_and_legend(holder)
        if caption is not None:
            figure += caption
        if rest is not None:
            figure += rest

    def _reserve(
        self,
        figure: nodes.figure,
        options: dict,
        size: tuple[float, float] | None,
        argument: str,
    ) -> None:
        """The box the page keeps for the frame, known before the frame loads."""
        if "height" in options:
            figure["pb_height"] = options["height"]
        ratio = options.get("aspect-ratio") or size
        if ratio is None and "height" not in options:
            self.warn(
                f"no size could be read from {argument!r}; reserving a 16:9 box. "
                "Give :aspect-ratio: (e.g. 4/3) or :height: (e.g. 450px)"
            )
            ratio = DEFAULT_RATIO
        if ratio is not None:
            figure["pb_ratio"] = f"{_css_number(ratio[0])} / {_css_number(ratio[1])}"
        if size is not None:
            figure["pb_min_width"] = f"{_css_number(size[0])}px"
