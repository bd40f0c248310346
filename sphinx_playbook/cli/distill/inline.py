"""Inline text: emphasis, links, citations, footnotes, inline images and formulas."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote, urlsplit

from bs4 import Comment, NavigableString, Tag

from . import markdown as md
from .elements import (
    attr_html,
    char_after,
    char_before,
    classes_of,
)
from .math import math_role
from .source import attr_value
from .walk import LINK, Walk


class InlineMixin(Walk):
    """Runs of inline content become one line of MyST."""

    def inline(self, nodes: Iterable[Any]) -> str:
        return "".join(self.inline_node(node) for node in nodes)

    def inline_node(self, node: Any) -> str:
        if isinstance(node, Comment):
            return f"<!--{' '.join(str(node).split())}-->"
        if isinstance(node, NavigableString):
            self.text_line = node.parent.sourceline if node.parent is not None else None
            return self.text(str(node))
        if not isinstance(node, Tag):
            return ""
        name = node.name
        if name in {"em", "i", "b", "strong"} and (node.get("class") or node.get("id")):
            # An icon font's <i class="material-icons">play_arrow</i>, a script's target.
            self.report.done(f"<{name}> (tags kept around its text)")
            attributes = "".join(f' {k}="{attr_html(v)}"' for k, v in node.attrs.items())
            return f"<{name}{attributes}>{self.inline(node.children)}</{name}>"
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
        if name in {"d-math", "script"}:
            return self.math_inline(node)
        if name == "d-cite":
            return self.cite(node)
        if name == "d-footnote":
            return self.footnote(node)
        if name == "q":
            return f"“{self.inline(node.children)}”"
        if name in {"u", "mark", "s", "del", "ins"}:
            self.report.raw(f"<{name}>", node.sourceline, "kept as HTML tags around the text")
            attributes = "".join(f' {k}="{attr_html(v)}"' for k, v in node.attrs.items())
            return f"<{name}{attributes}>{self.inline(node.children)}</{name}>"
        if name in {"span", "small", "abbr", "time", "data", "bdi", "bdo", "label"}:
            if name == "span" and "katex" in classes_of(node):
                return self.raw_inline(node, "KaTeX output without its TeX source")
            if not node.attrs:
                return self.inline(node.children)
            if not node.get_text().strip():
                return self.raw_inline(
                    node, "an empty element with attributes, kept for its script"
                )
            # Its id, class and style (a script's target, a colour) kept around the text.
            self.report.done(f"<{name}> (tags kept around its text)")
            attributes = "".join(f' {k}="{attr_html(v)}"' for k, v in node.attrs.items())
            return f"<{name}{attributes}>{self.inline(node.children)}</{name}>"
        if name in {"d-math", "d-code"} or not self._is_inline(node):
            return self.raw_inline(node, f"a block <{name}> inside text")
        return self.raw_inline(node, f"<{name}> has no equivalent")

    def raw_inline(self, node: Tag, why: str) -> str:
        self.report.raw(f"<{node.name}>", node.sourceline, why)
        self.assets.referenced_by(node)
        return md.collapse(str(node))

    def text(self, text: str) -> str:
        text = md.collapse(text)
        if not self.math_pattern:
            return md.escape(text)
        pattern, flags = self.math_pattern
        out = []
        position = 0
        dollars = any(d.left == "$" for d in self.math.delimiters) if self.math else False

        def plain(part: str) -> str:
            # With $ as a delimiter, \$ is how the article wrote a dollar sign.
            return md.escape(part.replace("\\$", "$") if dollars else part)

        for match in pattern.finditer(text):
            out.append(plain(text[position : match.start()]))
            index = next(i for i in range(len(flags)) if match.group(f"m{i}") is not None)
            tex = match.group(f"m{index}").strip()
            if flags[index]:
                self.report.done("math (display, text delimiters)")
                self.display_math.append(tex)
                self.formulas.append((tex, True, self.text_line))
                out.append(f"\x00DISPLAY{len(self.display_math) - 1}\x00")
            else:
                self.report.done("math (text delimiters)")
                self.formulas.append((tex, False, self.text_line))
                out.append(math_role(tex))
            position = match.end()
        out.append(plain(text[position:]))
        return "".join(out)

    def emphasis(self, node: Tag, marker: str, role: str) -> str:
        inner = self.inline(node.children)
        stripped = inner.strip(" ")
        if not stripped:
            return inner
        lead = inner[: len(inner) - len(inner.lstrip(" "))]
        trail = inner[len(inner.rstrip(" ")) :]
        before = char_before(node)
        after = char_after(node)
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
            return LINK.format(len(self.links) - 1)
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
        return f'<a href="{attr_html(href)}">{inner}</a>'

    def image_inline(self, node: Tag) -> str:
        source = self.assets.image(attr_value(node, "src"), node.sourceline)
        alt = " ".join(attr_value(node, "alt").split())
        self.report.done("image")
        if not alt:
            self.report.doubt("image", node.sourceline, f"{source} has no alt text")
        return f"![{md.escape(alt)}]({md.url(source)})"

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
