"""Formulas into HTML: the translator's visitors, and the links a page with math needs."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.locale import _
from sphinx.util.math import get_node_equation_number

from ..diagnostics import PlaybookWarning, warn
from ..machinery import priorities
from .assets import stylesheet
from .collect import formula_of, has_math, page_formulas
from .mathjax_compat import advice
from .renderers import KATEX
from .site import site_math, site_of, uses_renderer


def _failed(translator: Any, node: nodes.Element, tex: str, error: str, tag: str) -> None:
    instead = advice(error)
    error = f"{error}; {instead}" if instead else error
    warn(f"math: {error}; the formula is shown as TeX", PlaybookWarning.MATH, node)
    translator.body.append(
        f'<{tag} class="pb-math-error"><code>{translator.encode(tex)}</code></{tag}>'
    )


def visit_math(self: Any, node: nodes.math) -> None:
    result = site_of(self.builder).rendered(formula_of(node, self.builder.env))
    if result.html is None:
        error = result.error or "the formula could not be rendered"
        _failed(self, node, node.astext(), error, "span")
    else:
        self.body.append(result.html)
    raise nodes.SkipNode


def visit_displaymath(self: Any, node: nodes.math_block) -> None:
    site = site_of(self.builder)
    align = site.display_align
    self.body.append(
        self.starttag(node, "div", CLASS=f"math-wrapper pb-math-display pb-math-{align}")
    )
    if node["number"]:
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    result = site.rendered(formula_of(node, self.builder.env))
    if result.html is None:
        error = result.error or "the formula could not be rendered"
        _failed(self, node, node.astext(), error, "div")
    else:
        self.body.append(result.html)
    self.body.append("</div>\n")
    raise nodes.SkipNode


def link_stylesheet(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Only pages with math pay for the stylesheet (and so the fonts).

    The fonts the page's formulas draw with are preloaded: they arrive with the
    stylesheet instead of after it, so text does not reflow when they swap in.
    ``app.add_css_file`` during html-page-context adds it to this page alone.
    """
    if not (uses_renderer(app.builder) and has_math(doctree)):
        return
    site = site_math(app)
    app.add_css_file(stylesheet(site.library), priority=priorities.MATH_STYLESHEET)
    if site.library is not KATEX or "pathto" not in context:
        return
    fonts: set[str] = set()
    for formula in page_formulas(app.env, pagename):
        fonts |= set(site.characters(formula))
    links = [
        f'<link rel="preload" href="{context["pathto"](f"_static/katex/fonts/{name}", 1)}'
        f'?v={site.font_versions[name]}" as="font" type="font/woff2" crossorigin="anonymous">'
        for name in sorted(fonts)
        if name in site.font_versions
    ]
    context["metatags"] = context.get("metatags", "") + "".join(f"\n    {link}" for link in links)
