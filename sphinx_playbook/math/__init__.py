"""Math rendered when the site is built (KaTeX in QuickJS): no CDN, no script.

``playbook_math = "katex"`` (the default) makes Sphinx's HTML builders write
KaTeX's HTML and MathML for every formula; the KaTeX stylesheet and fonts are
served from the site and linked only from pages that have math. ``"off"``
leaves ``html_math_renderer`` to the author (MathJax, for example).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.locale import _
from sphinx.util.math import get_node_equation_number

from ..config import read_config
from ..diagnostics import PlaybookWarning, warn
from .katex import VENDOR, render

RENDERER = "playbook_katex"
STATIC = "katex"


def _macros(translator: Any) -> str:
    return json.dumps(read_config(translator.builder.config).math_macros, sort_keys=True)


def _failed(translator: Any, node: nodes.Element, tex: str, error: str, tag: str) -> None:
    warn(f"math: {error}; the formula is shown as TeX", PlaybookWarning.MATH, node)
    translator.body.append(
        f'<{tag} class="pb-math-error"><code>{translator.encode(tex)}</code></{tag}>'
    )


def visit_math(self: Any, node: nodes.math) -> None:
    tex = node.astext()
    result = render(tex, False, _macros(self))
    if result.html is None:
        _failed(self, node, tex, result.error or "KaTeX failed", "span")
    else:
        self.body.append(result.html)
    raise nodes.SkipNode


def visit_displaymath(self: Any, node: nodes.math_block) -> None:
    self.body.append(self.starttag(node, "div", CLASS="math-wrapper pb-math-display"))
    if node["number"]:
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    tex = node.astext()
    if not node.get("no-wrap", node.get("nowrap", False)) and "\\begin" not in tex:
        parts = [part for part in tex.split("\n\n") if part.strip()]
        if len(parts) > 1 or "\\\\" in tex:
            tex = "\\begin{aligned}" + "\\\\".join(parts) + "\\end{aligned}"
    result = render(tex, True, _macros(self))
    if result.html is None:
        _failed(self, node, node.astext(), result.error or "KaTeX failed", "div")
    else:
        self.body.append(result.html)
    self.body.append("</div>\n")
    raise nodes.SkipNode


def _use_katex(app: Sphinx, config: Any) -> None:
    if read_config(config).math == "katex":
        config.html_math_renderer = RENDERER
    elif not config.html_math_renderer:
        # With two renderers registered Sphinx would pick ours; "off" means Sphinx's own.
        config.html_math_renderer = "mathjax"


def _page_has_math(doctree: Any) -> bool:
    return doctree is not None and any(
        True for _node in doctree.findall(lambda n: isinstance(n, nodes.math | nodes.math_block))
    )


def _link_stylesheet(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Only pages with math pay for KaTeX's stylesheet (and so its fonts)."""
    if app.builder.math_renderer_name == RENDERER and _page_has_math(doctree):
        app.add_css_file(f"{STATIC}/katex-swap.min.css", priority=300)


def _copy_assets(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or getattr(app.builder, "math_renderer_name", None) != RENDERER:
        return
    target = Path(app.builder.outdir, "_static", STATIC)
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(VENDOR / "katex-swap.min.css", target)
    shutil.copy(VENDOR / "LICENSE", target / "LICENSE.txt")
    shutil.copytree(VENDOR / "fonts", target / "fonts", dirs_exist_ok=True)


def setup_math(app: Sphinx, *, config_inited: bool) -> None:
    app.add_html_math_renderer(
        RENDERER, inline_renderers=(visit_math, None), block_renderers=(visit_displaymath, None)
    )
    app.connect("html-page-context", _link_stylesheet)
    app.connect("build-finished", _copy_assets)
    if config_inited:
        _use_katex(app, app.config)
    else:
        app.connect("config-inited", _use_katex, priority=600)
