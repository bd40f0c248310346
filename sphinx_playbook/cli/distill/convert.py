"""Distill article HTML -> MyST Markdown with sphinx_playbook's directives.

The walk follows the tree html5lib builds (the one a browser builds), block by
block. Each construct is counted in the :class:`Report`; what has no
equivalent is written as raw HTML, never dropped, and its line is listed.

:func:`convert` walks the page's top level (title block, article, appendix), keeps
the head's scripts and stylesheets, and resolves what only the whole page knows: links
to labels, display formulas left inside a line. The parts: ``context`` (the state),
``walk`` (the walker), ``tables`` (which converter writes which element), the
converters in ``inline``, ``blocks``, ``structure``, ``figures``, ``scripted`` and
``math``; ``layout``, ``assets`` (files and URLs) and ``markdown`` (the writer).
"""

from __future__ import annotations

import re

from bs4 import Tag
from docutils.nodes import make_id

from . import markdown as md
from .assets import is_code_script, is_remote
from .bundled_runtime import bundles_distill_runtime
from .context import Context
from .elements import GENERATED
from .math import math_role
from .source import Article, attr_value
from .structure import appendix, title
from .tables import CONVERTERS
from .walk import Walker

DISTILL_FIGURE_STYLE = "<style>.pb-body figure { position: relative; }</style>"
DISTILL_RUNTIME = re.compile(r"template\.v\d(\.min)?\.js", re.IGNORECASE)
MATH_RUNTIME = re.compile(r"mathjax|katex", re.IGNORECASE)
#: plotly.js as a page loads it from a CDN (cdn.plot.ly/plotly-3.0.0.min.js, a bundle).
PLOTLY_LIBRARY = re.compile(r"/plotly(?:\.js)?(?:-[\w.-]+)?(?:\.min)?\.js(?:[?#]|$)", re.I)
#: Markup in a link's converted text: an image, emphasis, HTML, a role.
MARKUP = re.compile(r"!\[|(?<!\\)\*|<[A-Za-z]|\{\w+\}`")


def top_level(article: Article) -> list[Tag]:
    """The body's elements in order; d-article's children are counted one by one."""
    body = article.soup.body
    return [child for child in body.children if isinstance(child, Tag)] if body else []


def total_steps(article: Article) -> int:
    """How many steps :func:`convert` reports to ``Context.progress``."""
    element = article.soup.find("d-article")
    inside = len([c for c in element.children if isinstance(c, Tag)]) if element else 0
    return len(top_level(article)) + inside


def convert(cx: Context) -> str:
    """The article's blocks as MyST, footnote definitions last; the title and the
    description are left in ``cx``."""
    walker = Walker(cx, CONVERTERS)
    done = 0
    blocks: list[str] = []
    for element in top_level(cx.article):
        if element.name == "d-article":
            cx.report.done("d-article")
            for child_blocks in walker.blocks_stepwise(element):
                blocks += child_blocks
                done += 1
                cx.progress(done)
        else:
            blocks += _top_level_blocks(cx, walker, element)
        done += 1
        cx.progress(done)
    head = head_blocks(cx)
    if cx.shelled:
        # Distill's stylesheet made every figure a positioned box; the panels that
        # scripts place with position: absolute are placed inside it.
        cx.report.done("Distill figure style (position: relative)")
        head.append(f"```{{raw}} html\n{DISTILL_FIGURE_STYLE}\n```")
    text = "\n\n".join(block for block in head + blocks if block.strip())
    if cx.footnotes:
        text += "\n\n" + "\n\n".join(cx.footnotes)
    return resolve_display_math(cx, resolve_links(cx, text))


def _top_level_blocks(cx: Context, walker: Walker, element: Tag) -> list[str]:
    """An element of the body beside d-article."""
    if element.name == "d-title":
        return title(cx, element)
    if element.name == "d-appendix":
        return appendix(cx, element)
    if element.name in GENERATED:
        cx.report.done(element.name)
        return []
    if element.name == "script" and not is_code_script(element):
        cx.report.done("script (data)")
        return []
    return walker.blocks([element])


def resolve_links(cx: Context, text: str) -> str:
    """Internal links: ``{ref}`` when the target became a label, raw HTML otherwise (a
    target kept in raw HTML with its id is reached; only a missing one is reported)."""
    kept_ids = set(re.findall(r"""\bid=["']([^"']+)["']""", text))

    def replace(match: re.Match[str]) -> str:
        target, inline, plain, line = cx.links[int(match.group(1))]
        alias = cx.aliases.get(target)
        if alias and target.lower() not in cx.labels:
            cx.report.doubt(
                "link",
                line,
                f"the link to #{target} named no id; the original resolved it by the text "
                f"of the heading {alias[1]!r}, which it now points to",
            )
            target = alias[0]
        if target.lower() in cx.labels and not re.search(r"[<>`]", plain):
            if not MARKUP.search(inline):
                return f"{{ref}}`{plain} <{target.lower()}>`"
            # A link card (an image, bold words): {ref} would keep only its words.
            cx.report.done("link (its markup kept)")
            return f'<a href="#{make_id(target.lower())}">{inline}</a>'
        if target not in kept_ids:
            cx.report.doubt(
                "link", line, f"the link to #{target} points to nothing the import labelled"
            )
        return f'<a href="#{target}">{inline}</a>'

    return re.sub("\x00LINK(\\d+)\x00", replace, text)


def resolve_display_math(cx: Context, text: str) -> str:
    """A display formula left inside a line (a heading, a cell): inline, display style."""
    return re.sub(
        "\x00DISPLAY(\\d+)\x00",
        lambda m: math_role("\\displaystyle " + cx.display_math[int(m.group(1))]),
        text,
    )


def head_blocks(cx: Context) -> list[str]:
    """The head's own scripts and stylesheets, kept in order at the top of the body.

    Distill's runtime and the math renderers are left out: the theme and the
    build-time math replace them (each is a line of the report).
    """
    head = cx.article.soup.head
    elements = head.find_all(["script", "link", "style"]) if head else []
    kept = [element for element in elements if _kept_from_head(cx, element)]
    if not kept:
        return []
    html = "\n".join(str(element) for element in kept)
    fence = md.fence(html)
    return [f"{fence}{{raw}} html\n{html}\n{fence}"]


def _uses_global(cx: Context, name: str) -> bool:
    """Whether a script of the page (inline, or a file of the article) names ``name``."""
    for script in cx.article.soup.find_all("script"):
        if not is_code_script(script):
            continue
        source = attr_value(script, "src")
        if not source:
            text = script.get_text()
        elif (path := cx.assets.local(source)) is not None and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
        else:
            continue
        if re.search(rf"\b{re.escape(name)}\b", text):
            return True
    return False


def _kept_from_head(cx: Context, element: Tag) -> bool:
    """Whether a script, stylesheet or style of the head is kept (each is reported)."""
    source = attr_value(element, "src") or attr_value(element, "href")
    if element.name == "link" and "stylesheet" not in attr_value(element, "rel"):
        return False
    if element.name == "script" and not is_code_script(element):
        if attr_value(element, "type").lower() != "text/x-mathjax-config":
            cx.report.done("script (data)")
        return False
    if DISTILL_RUNTIME.search(source) or bundles_distill_runtime(cx.assets.local(source)):
        # The theme replaces it; the events scripts wait for are fired by the import's
        # own distill-events.js (a line of the report when the article listens).
        cx.report.done("Distill runtime")
        return False
    if MATH_RUNTIME.search(source):
        cx.report.done("math runtime")
        cx.report.doubt(
            "math runtime",
            element.sourceline,
            f"{source} is not loaded: formulas are rendered at build time",
        )
        return False
    if is_remote(source) and PLOTLY_LIBRARY.search(source) and not _uses_global(cx, "Plotly"):
        # The figures draw in frames that load the site's own plotly.js; no code of the
        # page's asks for the library: the download (3 MB, another site) goes.
        cx.report.done("plotly.js from another site")
        cx.report.doubt(
            "plotly.js from another site",
            element.sourceline,
            f"{source} is not loaded: no script of the page uses Plotly, and the figures "
            "draw with the site's plotly.js (add the script back in a raw block if one does)",
        )
        return False
    if is_remote(source):
        cx.report.doubt(
            f"<{element.name}> in <head>",
            element.sourceline,
            f"{source} is loaded from another site; copy it into the article folder "
            "to serve it yourself",
        )
    cx.report.raw(
        f"<{element.name}> in <head>",
        element.sourceline,
        "kept at the top of the page, in the same order",
    )
    cx.assets.referenced_by(element)
    return True
