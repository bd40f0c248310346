"""Distill article HTML -> MyST Markdown with sphinx_playbook's directives.

The walk follows the tree html5lib builds (the one a browser builds), block by
block. Each construct is counted in the :class:`Report`; what has no
equivalent is written as raw HTML, never dropped, and its line is listed.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from bs4 import Comment, NavigableString, Tag
from docutils.nodes import make_id

from ...directives import css_values
from . import markdown as md
from .assets import Assets
from .report import Report
from .source import Article, attr_value

HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
INLINE = frozenset(
    {
     "a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "dfn", "em", "i", "kbd",
     "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
     "wbr", "img", "del", "ins", "label", "tt", "d-cite", "d-footnote",
    }
)
#: Layout classes and Distill's grid-column names -> the ``layout`` directive's values.
LAYOUT_CLASSES = {
    "l-body": "body",
    "l-body-outset": "body-outset",
    "l-middle": "body-outset",
    "l-page": "page",
    "l-page-outset": "page",
    "l-screen": "screen",
    "l-screen-inset": "screen-inset",
    "l-gutter": "gutter",
}
GRID_COLUMNS = {
    "text": "body",
    "middle": "body-outset",
    "page": "page",
    "screen": "screen",
    "gutter": "gutter",
    "kicker": "page",
}
NOTE_CLASSES = {"note": "note", "note-box": "note", "callout": "note", "info": "note",
                "tip": "tip", "warning": "warning", "caution": "caution"}  # fmt: skip
GENERATED = {
    "d-byline": "the byline is written from the front matter",
    "d-toc": "the theme writes the table of contents",
    "d-contents": "the theme writes the table of contents",
    "d-footnote-list": "the appendix lists the footnotes",
    "d-citation-list": "the appendix lists the references",
    "d-bibliography": "the entries are in the .bib file",
    "distill-header": "the theme writes the header",
    "distill-footer": "the theme writes the footer",
    "d-front-matter": "read into the front matter",
    "distill-appendix": "the appendix is written by the theme",
}
UNWRAP = frozenset(
    {
     "div", "section", "article", "main", "header", "footer", "hgroup", "center", "d-figure",
     "d-acknowledgements", "d-article", "d-abstract",
    }
)
#: Distill's elements that stand as blocks (the others are inline, like <d-cite>).
BLOCK_ELEMENTS = UNWRAP | {"d-title", "d-appendix", "d-interstitial"}
_LINK = "\x00LINK{}\x00"
_CLASS_SELECTOR = re.compile(r"\s*(?:[a-z-]*)\.([A-Za-z0-9_-]+)\s*(?:img)?\s*")


def _is_block_math(element: Tag) -> bool:
    return element.name == "d-math" and element.has_attr("block")


def _is_block_code(element: Tag) -> bool:
    return element.name == "d-code" and element.has_attr("block")


def _style(element: Tag) -> dict[str, str]:
    declarations: dict[str, str] = {}
    for part in attr_value(element, "style").split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            declarations[key.strip().lower()] = " ".join(value.split())
    return declarations


def _classes(element: Tag) -> list[str]:
    return list(element.get("class") or [])


class Converter:
    """One article's conversion; :meth:`document` returns the MyST text."""

    def __init__(
        self,
        article: Article,
        report: Report,
        assets: Assets,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.article = article
        self.report = report
        self.assets = assets
        self.progress = progress or (lambda done: None)
        self.footnotes: list[str] = []
        self.labels: set[str] = set()
        #: (target id, inline text, plain text, source line) of each link to #id
        self.links: list[tuple[str, str, str, int | None]] = []
        self.nesting = 0
        self.heading_level = 1
        self.consumed: set[int] = set()
        self.full_bleed = _full_bleed_classes(article.soup)
        self.math_delimiters = _delimiters(article.katex)

    # -- the document ------------------------------------------------------------

    def top_level(self) -> list[Tag]:
        """The body's elements in order; d-article's children are counted one by one."""
        body = self.article.soup.body
        return [child for child in body.children if isinstance(child, Tag)] if body else []

    def total_steps(self) -> int:
        article = self.article.soup.find("d-article")
        inside = len([c for c in article.children if isinstance(c, Tag)]) if article else 0
        return len(self.top_level()) + inside

    def body(self) -> tuple[str, str]:
        """The title and the article's blocks, footnote definitions last."""
        done = 0
        blocks: list[str] = []
        for element in self.top_level():
            name = element.name
            if name == "d-title":
                title, title_blocks = self.title(element)
                self.heading_title = self.heading_title or title
                blocks += title_blocks
            elif name == "d-article":
                self.report.done("d-article")
                for child_blocks in self.blocks_stepwise(element):
                    blocks += child_blocks
                    done += 1
                    self.progress(done)
            elif name == "d-appendix":
                blocks += self.appendix(element)
            elif name in GENERATED:
                self.report.done(name)
            elif name == "script" and attr_value(element, "type").startswith("text/"):
                self.report.done("script (data)")
            else:
                blocks += self.blocks([element])
            done += 1
            self.progress(done)
        text = "\n\n".join(block for block in blocks if block.strip())
        if self.footnotes:
            text += "\n\n" + "\n\n".join(self.footnotes)
        return self.heading_title, self.resolve_links(text)

    def blocks_stepwise(self, parent: Tag) -> Iterable[list[str]]:
        """The blocks of ``parent``'s children, one child at a time (for the progress bar)."""
        children = list(parent.children)
        run: list[Any] = []
        for index, child in enumerate(children):
            if self._is_inline(child):
                run.append(child)
                continue
            if id(child) in self.consumed:
                continue
            if run:
                yield [self.paragraph(run)]
                run = []
            yield [self.block(child, children[index + 1 :])]
        if run:
            yield [self.paragraph(run)]

    def resolve_links(self, text: str) -> str:
        """Internal links: ``{ref}`` when the target became a label, raw HTML otherwise."""

        def replace(match: re.Match[str]) -> str:
            target, inline, plain, line = self.links[int(match.group(1))]
            if target.lower() in self.labels and not re.search(r"[<>`]", plain):
                return f"{{ref}}`{plain} <{target.lower()}>`"
            self.report.doubt(
                "link", line, f"the link to #{target} points to nothing the import labelled"
            )
            return f'<a href="#{target}">{inline}</a>'

        return re.sub("\x00LINK(\\d+)\x00", replace, text)

    def title(self, element: Tag) -> tuple[str, list[str]]:
        """d-title: the h1 is the title; a lone paragraph the description; the rest blocks."""
        self.report.done("d-title")
        heading = element.find("h1")
        title = " ".join(heading.get_text().split()) if heading else ""
        rest = [c for c in element.children if c is not heading]
        paragraphs = [c for c in rest if isinstance(c, Tag)]
        if (
            "description" not in self.article.front_matter
            and len(paragraphs) == 1
            and paragraphs[0].name in {"p", "h2"}
            and not paragraphs[0].find(True)
        ):
            self.description = " ".join(paragraphs[0].get_text().split())
            return title, []
        return title, self.blocks(rest)

    description: str | None = None
    heading_title: str = ""

    def appendix(self, element: Tag) -> list[str]:
        self.report.done("d-appendix")
        saved = self.heading_level
        self.heading_level = 2
        inner = "\n\n".join(self.blocks(element.children))
        self.heading_level = saved
        if not inner.strip():
            return []
        return [md.directive("appendix", "", {}, inner)]

    # -- blocks ----------------------------------------------------------------------

    def _is_inline(self, node: Any) -> bool:
        if isinstance(node, Comment):
            return False
        if isinstance(node, NavigableString):
            return True
        if not isinstance(node, Tag):
            return False
        if node.name == "a" and "marker" in _classes(node):
            return False
        if node.name in {"d-math", "d-code"}:
            return not node.has_attr("block")
        if node.name == "img":
            return not self._image_layout(node)
        if node.name in INLINE:
            return True
        # Custom elements inside text (d-slider...) stay inline, as raw HTML.
        return "-" in node.name and node.name not in GENERATED and node.name not in BLOCK_ELEMENTS

    def blocks(self, children: Iterable[Any]) -> list[str]:
        """Blocks for a run of sibling nodes; inline runs become paragraphs."""
        siblings = list(children)
        blocks: list[str] = []
        run: list[Any] = []
        for index, child in enumerate(siblings):
            if id(child) in self.consumed:
                continue
            if self._is_inline(child):
                run.append(child)
                continue
            if run:
                blocks.append(self.paragraph(run))
                run = []
            blocks.append(self.block(child, siblings[index + 1 :]))
        if run:
            blocks.append(self.paragraph(run))
        return [block for block in blocks if block.strip()]

    def block(self, node: Any, following: list[Any]) -> str:
        if isinstance(node, Comment):
            text = str(node).strip()
            self.report.done("comment")
            return "\n".join(f"% {line}".rstrip() for line in text.split("\n")) if text else ""
        if not isinstance(node, Tag):
            return ""
        if id(node) in self.consumed:
            return ""
        legend = self._legend_after(following)
        name = node.name
        handler = getattr(self, "block_" + name.replace("-", "_"), None)
        if name in HEADINGS:
            return self.heading(node)
        if name in GENERATED:
            self.report.done(name)
            return ""
        if name == "d-title":
            title, blocks = self.title(node)
            self.heading_title = self.heading_title or title
            return "\n\n".join(blocks)
        if name == "d-appendix":
            return "\n\n".join(self.appendix(node))
        if name == "a" and "marker" in _classes(node):
            self.report.done("section marker")
            return self.label(node).rstrip("\n")
        if _is_block_math(node):
            return self.with_legend(self.block_math(node), node, legend)
        if _is_block_code(node):
            return self.with_legend(self.block_code(node), node, legend)
        if name == "figure":
            return self.figure(node, legend)
        if name == "img":
            return self.image_block(node, legend)
        if name == "div" and "figure-legend" in _classes(node):
            return self.legend_alone(node)
        if handler is not None:
            return self.with_legend(handler(node), node, legend)
        if name in UNWRAP:
            return self.with_legend(self.container(node), node, legend)
        return self.raw(node, f"<{name}> has no equivalent")

    def with_legend(self, text: str, node: Tag, legend: Tag | None) -> str:
        if legend is None or not text.strip():
            return text
        self.consumed.add(id(legend))
        self.report.done("figure-legend")
        return text + "\n\n" + self.legend_directive(legend, None)

    def _legend_after(self, following: list[Any]) -> Tag | None:
        for node in following:
            if isinstance(node, NavigableString) and not isinstance(node, Comment):
                if node.strip():
                    return None
                continue
            if isinstance(node, Tag):
                return node if node.name == "div" and "figure-legend" in _classes(node) else None
            return None
        return None

    def legend_directive(self, legend: Tag, name: str | None) -> str:
        inner = self.nested(legend.children)
        options = {"name": name} if name else {}
        return md.directive("figure-legend", "", options, inner)

    def legend_alone(self, node: Tag) -> str:
        self.report.done("figure-legend")
        return self.legend_directive(node, self.label_name(node))

    def nested(self, children: Iterable[Any]) -> str:
        """Blocks inside a directive, where a heading cannot start a section."""
        self.nesting += 1
        try:
            return "\n\n".join(self.blocks(children))
        finally:
            self.nesting -= 1

    def paragraph(self, run: list[Any], layout_source: Tag | None = None) -> str:
        meaningful = [
            node for node in run if not (isinstance(node, NavigableString) and not node.strip())
        ]
        if not meaningful:
            return ""
        text = self.inline(run).strip()
        if not text:
            return ""
        self.report.done("paragraph")
        return md.escape_line_starts(text)

    def container(self, node: Tag) -> str:
        """div, section, d-figure...: by what they hold, else their children in place."""
        style = _style(node)
        classes = _classes(node)
        element_id = attr_value(node, "id")
        if element_id.startswith("fragment-"):
            return self.fragment(node, element_id[len("fragment-") :], None, None)
        if style.get("display") in {"grid", "inline-grid"} or (
            style.get("display") in {"flex", "inline-flex"}
            and not style.get("flex-direction", "row").startswith("column")
        ):
            return self.layout_wrap(node, self.grid(node), allow={"screen", "screen-inset"})
        note = next((NOTE_CLASSES[c] for c in classes if c in NOTE_CLASSES), None)
        if note:
            self.report.done("note")
            body = self.nested(node.children)
            return self.label(node) + md.directive(note, "", {}, body)
        if node.name == "d-figure":
            if not node.get_text().strip() and not node.find(True):
                self.report.raw(
                    "d-figure", node.sourceline, "an empty <d-figure> filled by a script"
                )
                return self.raw_html(node)
            self.report.done("d-figure")
        elif node.name in {"d-abstract", "d-acknowledgements"}:
            self.report.done(node.name)
        if (classes or style) and not node.get_text().strip() and not node.find(True):
            return self.raw(node, "an empty block drawn by its style")
        layout = self.layout_of(node)
        if layout:
            body = self.nested(node.children)
            return self.label(node) + self.layout_directive(layout, body)
        if classes or style:
            self.report.doubt(
                f"<{node.name}>",
                node.sourceline,
                f"its class {' '.join(classes)!r} or style has no equivalent; its content "
                "is kept, its styling is not" if classes else "its style is not kept",
            )
        inner = "\n\n".join(self.blocks(node.children))
        return (self.label(node) + inner) if inner.strip() else ""

    # -- layout ----------------------------------------------------------------------

    def layout_of(self, node: Tag) -> str | None:
        for css_class in _classes(node):
            if css_class in LAYOUT_CLASSES:
                layout = LAYOUT_CLASSES[css_class]
                return None if layout == "body" else layout
            if css_class in self.full_bleed:
                return "screen"
        column = _style(node).get("grid-column", "").split("/")[0].strip()
        if column in GRID_COLUMNS:
            layout = GRID_COLUMNS[column]
            return None if layout == "body" else layout
        if column:
            self.report.doubt(
                f"<{node.name}>", node.sourceline, f"grid-column {column!r} is not a known column"
            )
        return None

    def layout_directive(self, layout: str, body: str) -> str:
        self.report.done(f"layout ({layout})")
        return md.directive("layout", layout, {}, body)

    def layout_wrap(self, node: Tag, text: str, allow: set[str] | None = None) -> str:
        layout = self.layout_of(node)
        if not layout or not text.strip() or (allow is not None and layout not in allow):
            return text
        return self.layout_directive(layout, text)

    def _image_layout(self, image: Tag) -> str | None:
        if not any(c in LAYOUT_CLASSES or c in self.full_bleed for c in _classes(image)):
            return None
        return self.layout_of(image)

    # -- labels and headings ------------------------------------------------------------

    def label_name(self, node: Tag) -> str | None:
        """The element's id as a label, when Sphinx can keep it; None otherwise."""
        element_id = (attr_value(node, "id") or attr_value(node, "name")).strip()
        if not element_id or element_id.startswith("fragment-"):
            return None
        line = node.sourceline
        if not re.fullmatch(r"[A-Za-z0-9_.:-]+", element_id):
            self.report.doubt("id", line, f"the id {element_id!r} cannot be a label; not kept")
            return None
        if element_id.lower() in self.labels:
            self.report.doubt("id", line, f"the id {element_id!r} is used twice; kept once")
            return None
        self.labels.add(element_id.lower())
        if make_id(element_id) != element_id:
            self.report.doubt(
                "id",
                line,
                f"the id {element_id!r} is written as {make_id(element_id)!r}: links from "
                f"other sites to #{element_id} no longer land on it",
            )
        return element_id

    def label(self, node: Tag) -> str:
        name = self.label_name(node)
        return f"({name.lower()})=\n" if name else ""

    def heading(self, node: Tag) -> str:
        level = HEADINGS[node.name]
        text = self.inline(node.children).strip().replace("\\\n", " ")
        label = self.label(node)
        if not text:
            self.report.doubt(f"<{node.name}>", node.sourceline, "an empty heading is left out")
            return label.rstrip("\n") if label else ""
        self.report.done("heading")
        if self.nesting:
            self.report.doubt(
                "heading", node.sourceline, "a heading inside a block is written as a rubric"
            )
            return label + md.directive("rubric", text, {}, "")
        wanted = max(level, 2)
        written = min(wanted, self.heading_level + 1)
        if written != wanted:
            self.report.doubt(
                "heading",
                node.sourceline,
                f"<{node.name}> follows a heading two levels up; written one level down",
            )
        self.heading_level = written
        return label + "#" * written + " " + text

    # -- simple blocks ------------------------------------------------------------------

    def block_p(self, node: Tag) -> str:
        children = list(node.children)
        if any(isinstance(c, Tag) and not self._is_inline(c) for c in children):
            return self.label(node) + "\n\n".join(self.blocks(children))
        images = [c for c in children if isinstance(c, Tag) and c.name == "img"]
        others = [c for c in children if c not in images and not (
            isinstance(c, NavigableString) and not c.strip())]  # fmt: skip
        if len(images) == 1 and not others and self.layout_of(images[0]):
            return self.image_block(images[0], None)
        text = self.paragraph(children)
        if not text:
            return ""
        layout = self.layout_of(node)
        text = self.label(node) + text
        return self.layout_directive(layout, text) if layout else text

    def block_blockquote(self, node: Tag) -> str:
        self.report.done("blockquote")
        self.nesting += 1
        inner = "\n\n".join(self.blocks(node.children))
        self.nesting -= 1
        return self.label(node) + md.indent(inner, "> ").replace("\n\n", "\n>\n")

    def block_ul(self, node: Tag) -> str:
        return self.listing(node, ordered=False)

    def block_ol(self, node: Tag) -> str:
        return self.listing(node, ordered=True)

    def listing(self, node: Tag, ordered: bool) -> str:
        self.report.done("list")
        try:
            number = int(attr_value(node, "start") or 1)
        except ValueError:
            number = 1
        items: list[list[str]] = []
        self.nesting += 1
        for item in node.find_all("li", recursive=False):
            items.append(self.blocks(item.children) or [""])
        self.nesting -= 1
        loose = any(len(blocks) > 1 or "\n" in blocks[0] for blocks in items)
        written = []
        for offset, blocks in enumerate(items):
            marker = f"{number + offset}. " if ordered else "- "
            body = "\n\n".join(blocks)
            written.append(md.indent(body, " " * len(marker), first=marker) or marker.rstrip())
        stray = [c for c in node.children if isinstance(c, Tag) and c.name != "li"]
        for child in stray:
            self.report.doubt("list", child.sourceline, f"<{child.name}> directly in a list")
        return self.layout_wrap(node, self.label(node) + ("\n\n" if loose else "\n").join(written))

    def block_dl(self, node: Tag) -> str:
        self.report.done("definition list")
        parts = []
        for child in node.children:
            if isinstance(child, Tag) and child.name == "dt":
                parts.append(f"**{self.inline(child.children).strip()}**")
            elif isinstance(child, Tag) and child.name == "dd":
                parts.append(md.indent("\n\n".join(self.blocks(child.children)), "  ", ": "))
        self.report.doubt("definition list", node.sourceline, "written as bold terms")
        return "\n\n".join(parts)

    def block_hr(self, node: Tag) -> str:
        before = [s for s in node.find_previous_siblings() if isinstance(s, Tag)]
        after = [s for s in node.find_next_siblings() if isinstance(s, Tag)]
        if self.nesting or not before or not after or after[0].name in HEADINGS:
            self.report.doubt(
                "<hr>", node.sourceline, "a rule at the start or end of a section is left out"
            )
            self.report.done("rule")
            return ""
        self.report.done("rule")
        return "----"

    def block_br(self, node: Tag) -> str:
        return ""

    def block_pre(self, node: Tag) -> str:
        code = node.find("code")
        language = _language(node) or (_language(code) if code else None)
        text = node.get_text()
        text = text[1:] if text.startswith("\n") else text
        self.report.done("code block")
        return self.layout_wrap(node, self.label(node) + self.code_fence(text, language, node))

    def block_code(self, node: Tag) -> str:
        """``<d-code block language="python">``: indented in the source, dedented here."""
        lines = node.get_text().split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        text = textwrap.dedent("\n".join(lines)).rstrip()
        self.report.done("d-code")
        fence = self.code_fence(text, attr_value(node, "language"), node)
        return self.layout_wrap(node, self.label(node) + fence)

    def code_fence(self, text: str, language: str | None, node: Tag) -> str:
        text = text.rstrip("\n")
        checked = _lexable(language, text) if language else None
        if language and checked is None:
            self.report.doubt(
                "code",
                node.sourceline,
                f"the language {language!r} is unknown to Pygments or does not fit the code; "
                "written without highlighting",
            )
        fence = md.fence(text)
        return f"{fence}{checked or ''}\n{text}\n{fence}"

    def block_math(self, node: Tag) -> str:
        tex = _tex(node.get_text())
        self.report.done("d-math (block)")
        # A label (not dollarmath's equation label) so {ref} links keep their text.
        return f"{self.label(node)}$$\n{tex}\n$$"

    def block_aside(self, node: Tag) -> str:
        self.report.done("aside")
        body = self.nested(node.children)
        if not body.strip():
            return ""
        options = {"name": n.lower()} if (n := self.label_name(node)) else {}
        return md.directive("aside", "", options, body)

    def block_details(self, node: Tag) -> str:
        summary = node.find("summary", recursive=False)
        title = self.inline(summary.children).strip().replace("\\\n", " ") if summary else ""
        self.report.done("details")
        options = {"open": ""} if node.has_attr("open") else {}
        body = self.nested(c for c in node.children if c is not summary)
        text = md.directive("dropdown", title or "Details", options, body)
        return self.label(node) + text.replace(":open: \n", ":open:\n")

    def block_iframe(self, node: Tag) -> str:
        source = attr_value(node, "src")
        local = self.assets.local(source) if source else None
        if local and local.suffix.lower() in {".html", ".htm"}:
            self.report.done("iframe")
            return self.interactive(node, source, attr_value(node, "title"), None, None)
        return self.raw(node, "an iframe from another site is kept as it is")

    def block_table(self, node: Tag) -> str:
        rows = [row for row in node.find_all("tr") if row.find_parent("table") is node]
        if not rows or any(
            int(attr_value(cell, "colspan") or 1) > 1 or int(attr_value(cell, "rowspan") or 1) > 1
            for row in rows
            for cell in row.find_all(["td", "th"], recursive=False)
        ) or node.find("table"):
            return self.raw(node, "a table with merged cells or nested tables")
        cells = [row.find_all(["td", "th"], recursive=False) for row in rows]
        width = max(len(row) for row in cells)
        head = node.find("thead")
        header_rows = len(head.find_all("tr")) if head else 0
        if not header_rows and all(cell.name == "th" for cell in cells[0]):
            header_rows = 1
        caption = node.find("caption")
        caption_text = self.inline(caption.children).strip() if caption else ""
        simple = header_rows == 1 and not any(
            isinstance(c, Tag) and not self._is_inline(c)
            for row in cells
            for cell in row
            for c in cell.children
        )
        self.report.done("table")
        if simple:
            lines = []
            for index, row in enumerate(cells):
                texts = [_cell(self.inline(cell.children)) for cell in row]
                texts += [""] * (width - len(texts))
                lines.append("| " + " | ".join(texts) + " |")
                if index == 0:
                    lines.append("|" + "|".join([" --- "] * width) + "|")
            table = "\n".join(lines)
            if caption_text:
                name = self.label_name(node)
                table = md.directive("table", caption_text, {"name": name} if name else {}, table)
            else:
                table = self.label(node) + table
        else:
            self.nesting += 1
            items = []
            for row in cells:
                entries = []
                for cell in row:
                    body = "\n\n".join(self.blocks(cell.children)) or " "
                    entries.append(md.indent(body, "    ", first="  - "))
                entries += ["  - "] * (width - len(row))
                items.append("* " + "\n".join(entries)[2:])
            self.nesting -= 1
            options = {"header-rows": str(header_rows)}
            name = self.label_name(node)
            if name:
                options["name"] = name.lower()
            table = md.directive("list-table", caption_text, options, "\n".join(items))
        return self.layout_wrap(node, table)

    # -- figures, images, fragments ---------------------------------------------------------

    def figure(self, node: Tag, legend: Tag | None) -> str:
        caption = node.find("figcaption")
        content = [c for c in node.children if c is not caption]
        tags = [c for c in content if isinstance(c, Tag)]
        texts = [c for c in content if isinstance(c, NavigableString) and c.strip()]
        if legend is not None:
            self.consumed.add(id(legend))
            self.report.done("figure-legend")
        captions = [c for c in (caption, legend) if c is not None]
        self.report.done("figure")
        only = _only_image(tags) if not texts else None
        if only is not None:
            return self.image_figure(only, node, captions)
        only_id = attr_value(tags[0], "id") if len(tags) == 1 else ""
        if only_id.startswith("fragment-"):
            return self.fragment(tags[0], only_id[len("fragment-") :], node, captions)
        if len(tags) == 1 and tags[0].name == "iframe":
            local = self.assets.local(attr_value(tags[0], "src"))
            if local and local.suffix.lower() in {".html", ".htm"}:
                self.report.done("iframe")
                return self.interactive(tags[0], attr_value(tags[0], "src"), None, node, captions)
        inner = "\n\n".join(self.blocks(content))
        if captions:
            name = self.label_name(node)
            legend_text = "\n\n".join(self.nested_text(c) for c in captions)
            inner += "\n\n" + md.directive(
                "figure-legend", "", {"name": name.lower()} if name else {}, legend_text
            )
            if len(tags) > 1:
                self.report.doubt(
                    "figure",
                    node.sourceline,
                    "a figure of several blocks: the legend captions the last one",
                )
        return self.layout_wrap(node, inner)

    def nested_text(self, node: Tag) -> str:
        return self.nested(node.children)

    def image_block(self, image: Tag, legend: Tag | None) -> str:
        captions = [legend] if legend is not None else []
        if legend is not None:
            self.consumed.add(id(legend))
            self.report.done("figure-legend")
        if not captions and not self.layout_of(image):
            return self.paragraph([image])
        return self.image_figure(image, image, captions)

    def image_figure(self, image: Tag, holder: Tag, captions: list[Tag]) -> str:
        source = self.assets.image(attr_value(image, "src"), image.sourceline)
        alt = " ".join(attr_value(image, "alt").split())
        self.report.done("image")
        if not alt:
            self.report.doubt("image", image.sourceline, f"{source} has no alt text")
        name = self.label_name(holder) or (self.label_name(image) if holder is not image else None)
        layout = self.layout_of(holder) or (self.layout_of(image) if holder is not image else None)
        legend = "\n\n".join(self.nested_text(c) for c in captions)
        if layout == "screen":
            self.report.done("wide-image")
            options = {"alt": alt} if alt else {}
            if name:
                options["name"] = name.lower()
            return md.directive("wide-image", source, options, legend)
        options = {"alt": alt} if alt else {}
        if name:
            options["name"] = name.lower()
        if layout:
            options["figclass"] = f"l-{layout}"
            self.report.done(f"layout ({layout})")
        if not legend:
            if not options:
                return self.paragraph([image])
            self.report.doubt("figure", holder.sourceline, "a figure without a caption")
        return md.directive("figure", source, options, legend)

    def fragment(
        self, placeholder: Tag, name: str, figure: Tag | None, captions: list[Tag] | None
    ) -> str:
        path = f"fragments/{name}.html"
        if not (self.article.root / path).is_file():
            return self.raw(
                placeholder, f"the fragment placeholder has no file {path}; kept for its script"
            )
        self.report.done("fragment")
        return self.interactive(placeholder, path, None, figure, captions)

    def interactive(
        self,
        element: Tag,
        source: str,
        alt: str | None,
        figure: Tag | None,
        captions: list[Tag] | None,
    ) -> str:
        path = self.assets.file(source, element.sourceline)
        stem = PurePosixPath(path).stem
        inner_image = element.find("img")
        fallback = (
            self.assets.image(attr_value(inner_image, "src"), element.sourceline)
            if inner_image is not None and inner_image.get("src")
            else self.assets.same_stem_image(stem)
        )
        alt = (
            alt
            or attr_value(element, "aria-label")
            or attr_value(element, "title")
            or attr_value(element, "data-alt")
        )
        if not alt and inner_image is not None:
            alt = attr_value(inner_image, "alt")
        caption_nodes = list(captions or [])
        legend = "\n\n".join(self.nested_text(c) for c in caption_nodes)
        if not alt and caption_nodes:
            alt = " ".join(caption_nodes[0].get_text().split())
        if not alt:
            alt = f"Interactive figure {stem}"
            self.report.doubt("fragment", element.sourceline, f"no alt text: wrote {alt!r}")
        options = {"alt": " ".join(alt.split())}
        if fallback:
            options["fallback"] = fallback
        elif not _has_size(self.article.root / path):
            options["aspect-ratio"] = "16/9"
            self.report.doubt(
                "fragment",
                element.sourceline,
                f"{path} gives no size: a 16:9 box is reserved; set :aspect-ratio: to its shape",
            )
        if not fallback:
            self.report.doubt(
                "fragment",
                element.sourceline,
                f"no static image {stem}.png/.svg next to it: readers without JavaScript "
                "see only the legend",
            )
        name = self.label_name(figure) if figure is not None else None
        if name:
            options["name"] = name.lower()
        layout = self.layout_of(figure) if figure is not None else self.layout_of(element)
        if layout:
            options["layout"] = layout
        return md.directive("interactive-figure", path, options, legend)

    def grid(self, node: Tag) -> str:
        """An inline-style CSS grid or flex row: ``side-by-side`` with its column tracks."""
        style = _style(node)
        children = [
            c for c in node.children
            if isinstance(c, Tag) or (isinstance(c, NavigableString)
                                      and not isinstance(c, Comment) and c.strip())
        ]  # fmt: skip
        columns_value = style.get("grid-template-columns")
        if not columns_value and style.get("display", "").endswith("flex"):
            grows = []
            for child in children:
                child_style = _style(child) if isinstance(child, Tag) else {}
                flex = (child_style.get("flex") or child_style.get("flex-grow") or "").split()
                grows.append(flex[0] if flex and re.fullmatch(r"\d+(\.\d+)?", flex[0]) else None)
            if grows and all(grows) and len(set(grows)) > 1:
                columns_value = " ".join(f"{grow}fr" for grow in grows)
        options: dict[str, str] = {}
        if columns_value:
            try:
                options["columns"] = css_values.track_list(columns_value)
            except ValueError:
                self.report.doubt(
                    "grid", node.sourceline, f"columns {columns_value!r} are not kept"
                )
        layout = self.layout_of(node)
        if layout in {"body-outset", "page"}:
            options["layout"] = layout
        self.report.done("grid / flex row")
        self.nesting += 1
        columns = []
        for child in children:
            if isinstance(child, NavigableString):
                blocks = [self.paragraph([child])]
            elif _column_wrapper(child):
                blocks = [self.label(child) + "\n\n".join(self.blocks(child.children))]
            else:
                blocks = self.blocks([child])
            blocks = [b for b in blocks if b.strip()]
            if not blocks:
                continue
            joins_legend = len(blocks) == 2 and blocks[1].lstrip(":").startswith(
                "{figure-legend}"
            )
            if len(blocks) > 1 and not joins_legend:
                columns.append(md.directive("container", "", {}, "\n\n".join(blocks)))
            else:
                columns.append("\n\n".join(blocks))
        self.nesting -= 1
        name = self.label_name(node)
        if name:
            options["name"] = name.lower()
        return md.directive("side-by-side", "", options, "\n\n".join(columns))

    # -- raw HTML ---------------------------------------------------------------------------

    def raw(self, node: Tag, why: str) -> str:
        self.report.raw(f"<{node.name}>", node.sourceline, why)
        return self.raw_html(node)

    def raw_html(self, node: Tag) -> str:
        self.assets.referenced_by(node)
        html = str(node)
        fence = md.fence(html)
        return f"{fence}{{raw}} html\n{html}\n{fence}"

    # -- inline -------------------------------------------------------------------------------

    def inline(self, nodes: Iterable[Any]) -> str:
        return "".join(self.inline_node(node) for node in nodes)

    def inline_node(self, node: Any) -> str:
        if isinstance(node, Comment):
            return f"<!--{' '.join(str(node).split())}-->"
        if isinstance(node, NavigableString):
            return self.text(str(node))
        if not isinstance(node, Tag):
            return ""
        name = node.name
        if name in {"em", "i", "cite", "dfn", "var"}:
            return self.emphasis(node, "*", "emphasis")
        if name in {"strong", "b"}:
            return self.emphasis(node, "**", "strong")
        if name in {"code", "tt", "samp"} or (name == "d-code" and not node.has_attr("block")):
            self.report.done("inline code")
            return md.inline_code(md.collapse(node.get_text()))
        if name == "kbd":
            return f"{{kbd}}{md.inline_code(md.collapse(node.get_text()))}"
        if name in {"sub", "sup"}:
            text = md.collapse(node.get_text())
            if node.find(True):
                return self.raw_inline(node, f"<{name}> with markup inside")
            return f"{{{name}}}{md.inline_code(text)}" if text.strip() else ""
        if name == "br":
            return "\\\n"
        if name == "wbr":
            return ""
        if name == "a":
            return self.link(node)
        if name == "img":
            return self.image_inline(node)
        if name == "d-math":
            return self.math_inline(node)
        if name == "d-cite":
            return self.cite(node)
        if name == "d-footnote":
            return self.footnote(node)
        if name == "q":
            return f"“{self.inline(node.children)}”"
        if name in {"u", "mark", "s", "del", "ins"}:
            self.report.raw(f"<{name}>", node.sourceline, "kept as HTML tags around the text")
            attributes = "".join(f' {k}="{_attr(v)}"' for k, v in node.attrs.items())
            return f"<{name}{attributes}>{self.inline(node.children)}</{name}>"
        if name in {"span", "small", "abbr", "time", "data", "bdi", "bdo", "label"}:
            if name == "span" and "katex" in _classes(node):
                return self.raw_inline(node, "KaTeX output without its TeX source")
            if node.get("class") or node.get("style"):
                self.report.doubt(
                    f"<{name}>", node.sourceline, "its class or style is not kept, its text is"
                )
            return self.inline(node.children)
        if name in {"d-math", "d-code"} or not self._is_inline(node):
            return self.raw_inline(node, f"a block <{name}> inside text")
        return self.raw_inline(node, f"<{name}> has no equivalent")

    def raw_inline(self, node: Tag, why: str) -> str:
        self.report.raw(f"<{node.name}>", node.sourceline, why)
        self.assets.referenced_by(node)
        return md.collapse(str(node))

    def text(self, text: str) -> str:
        text = md.collapse(text)
        if not self.math_delimiters:
            return md.escape(text)
        out = []
        position = 0
        for match in self.math_delimiters.finditer(text):
            out.append(md.escape(text[position : match.start()]))
            tex = next(group for group in match.groups() if group is not None)
            self.report.done("math (text delimiters)")
            out.append(_math_role(tex))
            position = match.end()
        out.append(md.escape(text[position:]))
        return "".join(out)

    def emphasis(self, node: Tag, marker: str, role: str) -> str:
        inner = self.inline(node.children)
        stripped = inner.strip(" ")
        if not stripped:
            return inner
        lead = inner[: len(inner) - len(inner.lstrip(" "))]
        trail = inner[len(inner.rstrip(" ")) :]
        before = _char_before(node)
        after = _char_after(node)
        punctuation_inside = not stripped[0].isalnum() or not stripped[-1].isalnum()
        words_outside = (before.isalnum() and not lead) or (after.isalnum() and not trail)
        if punctuation_inside and words_outside:
            plain = md.collapse(node.get_text())
            if "`" not in plain and not node.find(True):
                return f"{lead}{{{role}}}{md.inline_code(plain.strip())}{trail}"
            self.report.doubt(
                f"<{node.name}>", node.sourceline, "emphasis between letters may not render"
            )
        return f"{lead}{marker}{stripped}{marker}{trail}"

    def link(self, node: Tag) -> str:
        href = attr_value(node, "href").strip()
        inner = self.inline(node.children)
        if not href:
            name = self.label_name(node) if (node.get("id") or node.get("name")) else None
            if name:
                self.report.doubt(
                    "anchor", node.sourceline, f"the anchor #{name} inside text is not kept"
                )
                self.labels.discard(name.lower())
            return inner
        self.report.done("link")
        if href.startswith("#"):
            plain = md.collapse(node.get_text()).strip()
            self.links.append((unquote(href[1:]), inner, plain, node.sourceline))
            return _LINK.format(len(self.links) - 1)
        scheme = urlsplit(href).scheme.lower()
        if scheme in {"http", "https", "mailto", "ftp"}:
            return f"[{inner}]({md.url(href)})"
        local = self.assets.local(href)
        if local is not None and local.suffix.lower() not in {".html", ".htm"}:
            path = self.assets.file(href, node.sourceline)
            plain = md.collapse(node.get_text()).strip()
            if plain and not re.search(r"[<>`]", plain):
                return f"{{download}}`{plain} <{path}>`"
        self.report.found["link"] -= 1
        self.report.converted["link"] -= 1
        self.report.raw("link", node.sourceline, f"a link to {href!r} outside the article")
        return f'<a href="{_attr(href)}">{inner}</a>'

    def image_inline(self, node: Tag) -> str:
        source = self.assets.image(attr_value(node, "src"), node.sourceline)
        alt = " ".join(attr_value(node, "alt").split())
        self.report.done("image")
        if not alt:
            self.report.doubt("image", node.sourceline, f"{source} has no alt text")
        return f"![{md.escape(alt)}]({md.url(source)})"

    def math_inline(self, node: Tag) -> str:
        tex = " ".join(node.get_text().split())
        self.report.done("d-math (inline)")
        if not tex:
            return ""
        following = _char_after(node)
        if "$" in tex or "`" in tex or following.isdigit() or tex.endswith("\\"):
            return _math_role(tex)
        return f"${tex}$"

    def cite(self, node: Tag) -> str:
        keys = attr_value(node, "key") or attr_value(node, "bibtex-key")
        keys = ",".join(key.strip() for key in keys.split(",") if key.strip())
        if not keys or "`" in keys:
            return self.raw_inline(node, "a citation without a key")
        self.report.done("d-cite")
        return f"{{cite}}`{keys}`"

    def footnote(self, node: Tag) -> str:
        self.report.done("d-footnote")
        number = len(self.footnotes) + 1
        self.nesting += 1
        body = "\n\n".join(self.blocks(node.children)) or " "
        self.nesting -= 1
        self.footnotes.append(md.indent(body, "    ", first=f"[^fn-{number}]: "))
        return f"[^fn-{number}]"


# -- helpers ------------------------------------------------------------------------------


def _attr(value: Any) -> str:
    text = " ".join(value) if isinstance(value, list) else str(value)
    return text.replace("&", "&amp;").replace('"', "&quot;")


def _cell(text: str) -> str:
    text = text.strip().replace("\\\n", " ").replace("\n", " ")
    return re.sub(r"(?<!\\)\|", r"\\|", text)


def _tex(text: str) -> str:
    lines = [line for line in text.split("\n") if line.strip()]
    return textwrap.dedent("\n".join(lines)).strip()


def _math_role(tex: str) -> str:
    return f"{{math}}{md.inline_code(' '.join(tex.split()))}"


def _language(node: Tag | None) -> str | None:
    if node is None:
        return None
    if node.get("language"):
        return str(node["language"])
    for css_class in _classes(node):
        for prefix in ("language-", "lang-", "highlight-"):
            if css_class.startswith(prefix):
                return css_class[len(prefix) :]
    return None


def _lexable(language: str, code: str) -> str | None:
    """The language when Pygments knows it and lexes ``code`` without error, as Sphinx does."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language.lower())
    except ClassNotFound:
        return None
    lexer.add_filter("raiseonerror")
    try:
        for _ in lexer.get_tokens(code):
            pass
    except Exception:
        return None
    return language.lower()


_COLUMN_STYLES = {"flex", "flex-grow", "flex-shrink", "flex-basis", "width", "min-width",
                  "max-width", "grid-column", "grid-row", "min-height"}  # fmt: skip


def _column_wrapper(node: Tag) -> bool:
    """A grid or flex item that only sizes its column (its size is in :columns:)."""
    return (
        node.name in UNWRAP
        and not node.get("class")
        and not attr_value(node, "id").startswith("fragment-")
        and set(_style(node)) <= _COLUMN_STYLES
    )


def _has_size(path: Path) -> bool:
    """Whether a fragment states its size (width and height attributes or style)."""
    try:
        html = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    attributes = re.search(r'\bwidth="\d+(?:px)?"[^>]*\bheight="\d+(?:px)?"', html)
    style = re.search(r"width:\s*\d+px;\s*height:\s*\d+px", html)
    return bool(attributes or style)


def _only_image(tags: list[Tag]) -> Tag | None:
    """The single <img> of a figure, possibly wrapped in a link-less <p>/<div>/<picture>."""
    if len(tags) != 1:
        return None
    tag = tags[0]
    while tag.name in {"p", "div", "picture"}:
        inner = [c for c in tag.children if isinstance(c, Tag)]
        text = [c for c in tag.children if isinstance(c, NavigableString) and c.strip()]
        if len(inner) != 1 or text or tag.get("id") or tag.get("class"):
            return None
        tag = inner[0]
    return tag if tag.name == "img" and tag.get("src") else None


def _char_before(node: Tag) -> str:
    previous = node.previous_sibling
    if isinstance(previous, NavigableString) and not isinstance(previous, Comment):
        return str(previous)[-1:] or " "
    if isinstance(previous, Tag):
        text = previous.get_text()
        return text[-1:] or " "
    return " "


def _char_after(node: Tag) -> str:
    following = node.next_sibling
    if isinstance(following, NavigableString) and not isinstance(following, Comment):
        return str(following)[:1] or " "
    if isinstance(following, Tag):
        return following.get_text()[:1] or " "
    return " "


def _full_bleed_classes(soup: Any) -> set[str]:
    """Classes whose CSS (in the page's <style>) makes an element span the window."""
    classes: set[str] = set()
    for style in soup.find_all("style"):
        css = style.string or ""
        for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
            rule = " ".join(body.split()).lower()
            if re.search(
                r"grid-column\s*:\s*(screen|1\s*/\s*-1)|width\s*:\s*100vw|(^|;)\s*width\s*:\s*100%",
                rule,
            ):
                for selector in selectors.split(","):
                    match = _CLASS_SELECTOR.fullmatch(selector)
                    if match:
                        classes.add(match.group(1))
    return classes


def _delimiters(katex: dict[str, Any]) -> re.Pattern[str] | None:
    """The text delimiters the article told KaTeX's auto-render to use, as one pattern."""
    delimiters = katex.get("delimiters") if isinstance(katex, dict) else None
    if not isinstance(delimiters, list):
        return None
    parts = []
    for item in delimiters:
        if isinstance(item, dict) and item.get("left") and item.get("right"):
            parts.append(f"{re.escape(item['left'])}(.+?){re.escape(item['right'])}")
    return re.compile("|".join(parts)) if parts else None


def local_path(root: Path, reference: str) -> Path | None:
    """A file of the article that ``reference`` (a relative URL) names, if it exists."""
    parts = urlsplit(reference)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    path = (root / unquote(parts.path)).resolve()
    return path if path.is_file() else None
