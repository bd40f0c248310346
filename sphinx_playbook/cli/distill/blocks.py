"""Simple blocks: paragraphs, lists, quotes, code, tables, asides, details."""

from __future__ import annotations

import re
import textwrap

from bs4 import NavigableString, Tag

from . import markdown as md
from .elements import (
    HEADINGS,
    classes_of,
)
from .source import attr_value
from .walk import Walk


class BlocksMixin(Walk):
    """The blocks that have a direct Markdown or directive form."""

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
        language = language_of(node) or (language_of(code) if code else None)
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
        checked = lexable(language, text) if language else None
        if language and checked is None:
            self.report.doubt(
                "code",
                node.sourceline,
                f"the language {language!r} is unknown to Pygments or does not fit the code; "
                "written without highlighting",
            )
        fence = md.fence(text)
        return f"{fence}{checked or ''}\n{text}\n{fence}"

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
        if (
            not rows
            or any(
                int(attr_value(cell, "colspan") or 1) > 1
                or int(attr_value(cell, "rowspan") or 1) > 1
                for row in rows
                for cell in row.find_all(["td", "th"], recursive=False)
            )
            or node.find("table")
        ):
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
                texts = [table_cell(self.inline(cell.children)) for cell in row]
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


def table_cell(text: str) -> str:
    text = text.strip().replace("\\\n", " ").replace("\n", " ")
    return re.sub(r"(?<!\\)\|", r"\\|", text)


def language_of(node: Tag | None) -> str | None:
    if node is None:
        return None
    if node.get("language"):
        return str(node["language"])
    for css_class in classes_of(node):
        for prefix in ("language-", "lang-", "highlight-"):
            if css_class.startswith(prefix):
                return css_class[len(prefix) :]
    return None


def lexable(language: str, code: str) -> str | None:
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
