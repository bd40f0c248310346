"""Simple blocks: paragraphs, lists, quotes, code, tables, asides, details."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from bs4 import NavigableString, Tag

from . import markdown as md
from .context import Context
from .elements import HEADINGS, classes_of
from .figures import image_block, interactive
from .inline import paragraph
from .layout import layout_directive, layout_of, layout_wrap
from .source import attr_value


def block_p(cx: Context, node: Tag) -> str:
    children = list(node.children)
    if any(isinstance(c, Tag) and not cx.is_inline(c) for c in children):
        return cx.label(node) + "\n\n".join(cx.blocks(children))
    images = [c for c in children if isinstance(c, Tag) and c.name == "img"]
    others = [c for c in children if c not in images and not (
        isinstance(c, NavigableString) and not c.strip())]  # fmt: skip
    if len(images) == 1 and not others and layout_of(cx, images[0]):
        return image_block(cx, images[0], None)
    text = paragraph(cx, children)
    if not text:
        return ""
    layout = layout_of(cx, node)
    text = cx.label(node) + text
    return layout_directive(cx, layout, text) if layout else text


def block_blockquote(cx: Context, node: Tag) -> str:
    cx.report.done("blockquote")
    cx.nesting += 1
    inner = "\n\n".join(cx.blocks(node.children))
    cx.nesting -= 1
    return cx.label(node) + md.indent(inner, "> ").replace("\n\n", "\n>\n")


def block_ul(cx: Context, node: Tag) -> str:
    return listing(cx, node, ordered=False)


def block_ol(cx: Context, node: Tag) -> str:
    return listing(cx, node, ordered=True)


def listing(cx: Context, node: Tag, ordered: bool) -> str:
    cx.report.done("list")
    try:
        number = int(attr_value(node, "start") or 1)
    except ValueError:
        number = 1
    items: list[list[str]] = []
    cx.nesting += 1
    for item in node.find_all("li", recursive=False):
        items.append(cx.blocks(item.children) or [""])
    cx.nesting -= 1
    loose = any(len(blocks) > 1 or "\n" in blocks[0] for blocks in items)
    written = []
    for offset, blocks in enumerate(items):
        marker = f"{number + offset}. " if ordered else "- "
        body = "\n\n".join(blocks)
        written.append(md.indent(body, " " * len(marker), first=marker) or marker.rstrip())
    stray = [c for c in node.children if isinstance(c, Tag) and c.name != "li"]
    for child in stray:
        cx.report.doubt("list", child.sourceline, f"<{child.name}> directly in a list")
    return layout_wrap(cx, node, cx.label(node) + ("\n\n" if loose else "\n").join(written))


def block_dl(cx: Context, node: Tag) -> str:
    cx.report.done("definition list")
    parts = []
    for child in node.children:
        if isinstance(child, Tag) and child.name == "dt":
            parts.append(f"**{cx.inline(child.children).strip()}**")
        elif isinstance(child, Tag) and child.name == "dd":
            parts.append(md.indent("\n\n".join(cx.blocks(child.children)), "  ", ": "))
    cx.report.doubt("definition list", node.sourceline, "written as bold terms")
    return "\n\n".join(parts)


def block_hr(cx: Context, node: Tag) -> str:
    before = [s for s in node.find_previous_siblings() if isinstance(s, Tag)]
    after = [s for s in node.find_next_siblings() if isinstance(s, Tag)]
    if cx.nesting or not before or not after or after[0].name in HEADINGS:
        cx.report.doubt(
            "<hr>", node.sourceline, "a rule at the start or end of a section is left out"
        )
        cx.report.done("rule")
        return ""
    cx.report.done("rule")
    return "----"


def block_br(cx: Context, node: Tag) -> str:
    return ""


def block_pre(cx: Context, node: Tag) -> str:
    code = node.find("code")
    language = language_of(node) or (language_of(code) if code else None)
    text = node.get_text()
    text = text[1:] if text.startswith("\n") else text
    cx.report.done("code block")
    return layout_wrap(cx, node, cx.label(node) + code_fence(cx, text, language, node))


def block_code(cx: Context, node: Tag) -> str:
    """``<d-code block language="python">``: indented in the source, dedented here."""
    lines = node.get_text().split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    text = textwrap.dedent("\n".join(lines)).rstrip()
    cx.report.done("d-code")
    fence = code_fence(cx, text, attr_value(node, "language"), node)
    return layout_wrap(cx, node, cx.label(node) + fence)


def code_fence(cx: Context, text: str, language: str | None, node: Tag) -> str:
    text = text.rstrip("\n")
    checked = lexable(language, text) if language else None
    if language and checked is None:
        cx.report.doubt(
            "code",
            node.sourceline,
            f"the language {language!r} is unknown to Pygments or does not fit the code; "
            "written without highlighting",
        )
    fence = md.fence(text)
    return f"{fence}{checked or ''}\n{text}\n{fence}"


def block_aside(cx: Context, node: Tag) -> str:
    cx.report.done("aside")
    body = cx.nested(node.children)
    if not body.strip():
        return ""
    options = {"name": n.lower()} if (n := cx.label_name(node)) else {}
    return md.directive("aside", "", options, body)


def block_details(cx: Context, node: Tag) -> str:
    summary = node.find("summary", recursive=False)
    title = cx.inline(summary.children).strip().replace("\\\n", " ") if summary else ""
    cx.report.done("details")
    options = {"open": ""} if node.has_attr("open") else {}
    body = cx.nested(c for c in node.children if c is not summary)
    text = md.directive("dropdown", title or "Details", options, body)
    return cx.label(node) + text.replace(":open: \n", ":open:\n")


def block_iframe(cx: Context, node: Tag) -> str:
    source = attr_value(node, "src")
    local = cx.assets.local(source) if source else None
    if local and local.suffix.lower() in {".html", ".htm"}:
        cx.report.done("iframe")
        return interactive(cx, node, source, attr_value(node, "title"), None, None)
    return cx.raw(node, "an iframe from another site is kept as it is")


def block_table(cx: Context, node: Tag) -> str:
    """A table: a Markdown table when its cells hold text under one header row, a
    ``list-table`` otherwise; raw HTML with merged cells or tables inside."""
    rows = [row for row in node.find_all("tr") if row.find_parent("table") is node]
    if not rows or _merged_cells(rows) or node.find("table"):
        return cx.raw(node, "a table with merged cells or nested tables")
    cells = [row.find_all(["td", "th"], recursive=False) for row in rows]
    head = node.find("thead")
    header_rows = len(head.find_all("tr")) if head else 0
    if not header_rows and all(cell.name == "th" for cell in cells[0]):
        header_rows = 1
    caption = node.find("caption")
    caption_text = cx.inline(caption.children).strip() if caption else ""
    simple = header_rows == 1 and not any(
        isinstance(c, Tag) and not cx.is_inline(c)
        for row in cells
        for cell in row
        for c in cell.children
    )
    cx.report.done("table")
    if simple:
        table = _markdown_table(cx, node, cells, caption_text)
    else:
        table = _list_table(cx, node, cells, header_rows, caption_text)
    return layout_wrap(cx, node, table)


def _merged_cells(rows: list[Tag]) -> bool:
    return any(
        _span(cell, "colspan") > 1 or _span(cell, "rowspan") > 1
        for row in rows
        for cell in row.find_all(["td", "th"], recursive=False)
    )


def _span(cell: Tag, attribute: str) -> int:
    """A cell's colspan or rowspan as a browser reads it: its leading digits, else 1."""
    match = re.match(r"\s*\+?(\d+)", attr_value(cell, attribute))
    return int(match.group(1)) if match else 1


def _markdown_table(cx: Context, node: Tag, cells: Sequence[Sequence[Tag]], caption: str) -> str:
    width = max(len(row) for row in cells)
    lines = []
    for index, row in enumerate(cells):
        texts = [table_cell(cx.inline(cell.children)) for cell in row]
        texts += [""] * (width - len(texts))
        lines.append("| " + " | ".join(texts) + " |")
        if index == 0:
            lines.append("|" + "|".join([" --- "] * width) + "|")
    table = "\n".join(lines)
    if not caption:
        return cx.label(node) + table
    name = cx.label_name(node)
    return md.directive("table", caption, {"name": name} if name else {}, table)


def _list_table(
    cx: Context, node: Tag, cells: Sequence[Sequence[Tag]], header_rows: int, caption: str
) -> str:
    width = max(len(row) for row in cells)
    cx.nesting += 1
    items = []
    for row in cells:
        entries = []
        for cell in row:
            body = "\n\n".join(cx.blocks(cell.children)) or " "
            entries.append(md.indent(body, "    ", first="  - "))
        entries += ["  - "] * (width - len(row))
        items.append("* " + "\n".join(entries)[2:])
    cx.nesting -= 1
    options = {"header-rows": str(header_rows)}
    name = cx.label_name(node)
    if name:
        options["name"] = name.lower()
    return md.directive("list-table", caption, options, "\n".join(items))


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
