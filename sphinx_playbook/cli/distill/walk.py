"""The walk: the article's tree, block by block, into MyST text.

:class:`Walk` holds one conversion's state and the block dispatch; the other
modules add what each kind of content becomes (inline text, simple blocks,
figures and grids, math). :class:`convert.Converter` puts them together.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import unquote

from bs4 import Comment, NavigableString, Tag
from docutils.nodes import make_id

from . import markdown as md
from .assets import Assets, is_code_script, is_remote
from .elements import (
    BLOCK_ELEMENTS,
    GENERATED,
    HEADINGS,
    INLINE,
    KEPT_RAW,
    NOTE_CLASSES,
    UNWRAP,
    attr_html,
    classes_of,
    full_bleed_classes,
    holds_blocks,
    is_block_code,
    is_block_math,
    style_of,
)
from .report import Report
from .source import Article, attr_value

LINK = "\x00LINK{}\x00"


def _words(text: str) -> str:
    """Letters and digits only, lower case: how a heading's text and an id compare."""
    return re.sub(r"[^a-z0-9]+", "", text.lower())


DISTILL_FIGURE_STYLE = "<style>.pb-body figure { position: relative; }</style>"
DISTILL_RUNTIME = re.compile(r"template\.v\d(\.min)?\.js", re.IGNORECASE)
MATH_RUNTIME = re.compile(r"mathjax|katex", re.IGNORECASE)


class Walk:
    """One article's conversion: state, dispatch, containers, headings and labels."""

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
        self.full_bleed = full_bleed_classes(article.soup)
        from .math import math_setup  # math.py builds on this module

        self.math = math_setup(article.soup, article.katex)
        self.math_pattern = self.math.pattern() if self.math else None
        #: TeX of display formulas met in text, until their paragraph splits around them
        self.display_math: list[str] = []
        #: (TeX, display, source line) of every formula written, checked with KaTeX at the end
        self.formulas: list[tuple[str, bool, int | None]] = []
        self.text_line: int | None = None
        #: whether a figure kept its tags for its scripts (then Distill's figure style is due)
        self.shelled = False
        # Links to ids no element has, by the words of their target, and how many headings
        # say those words: a unique heading is the one the original reached by its text.
        ids = {str(element["id"]) for element in article.soup.find_all(id=True)}
        self.broken_targets: dict[str, str] = {}
        for link in article.soup.find_all("a", href=True):
            href = str(link["href"])
            if href.startswith("#") and len(href) > 1 and unquote(href[1:]) not in ids:
                self.broken_targets.setdefault(_words(unquote(href[1:])), unquote(href[1:]))
        self.headings_by_words: dict[str, int] = {}
        for heading in article.soup.find_all(list(HEADINGS)):
            key = _words(heading.get_text())
            self.headings_by_words[key] = self.headings_by_words.get(key, 0) + 1
        #: broken link target -> (label, heading text)
        self.aliases: dict[str, tuple[str, str]] = {}
        if self.math is not None:
            report.doubt(
                "math",
                self.math.line,
                "formulas in text are read with "
                + ", ".join(
                    f"{d.left}…{d.right}" + (" (display)" if d.display else "")
                    for d in self.math.delimiters
                )
                + (", bare \\begin{align}-like environments" if self.math.environments else "")
                + f" ({self.math.source})",
            )

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
            elif name == "script" and not is_code_script(element):
                self.report.done("script (data)")
            else:
                blocks += self.blocks([element])
            done += 1
            self.progress(done)
        head = self.head()
        if self.shelled:
            # Distill's stylesheet made every figure a positioned box; the panels that
            # scripts place with position: absolute are placed inside it.
            self.report.done("Distill figure style (position: relative)")
            head.append(f"```{{raw}} html\n{DISTILL_FIGURE_STYLE}\n```")
        text = "\n\n".join(block for block in head + blocks if block.strip())
        if self.footnotes:
            text += "\n\n" + "\n\n".join(self.footnotes)
        return self.heading_title, self.resolve_display_math(self.resolve_links(text))

    def resolve_display_math(self, text: str) -> str:
        """A display formula left inside a line (a heading, a cell): inline, display style."""
        from .math import math_role

        return re.sub(
            "\x00DISPLAY(\\d+)\x00",
            lambda m: math_role("\\displaystyle " + self.display_math[int(m.group(1))]),
            text,
        )

    def head(self) -> list[str]:
        """The head's own scripts and stylesheets, kept in order at the top of the body.

        Distill's runtime and the math renderers are left out: the theme and the
        build-time math replace them (each is a line of the report).
        """
        head = self.article.soup.head
        kept: list[Tag] = []
        for element in head.find_all(["script", "link", "style"]) if head else []:
            source = attr_value(element, "src") or attr_value(element, "href")
            kind = attr_value(element, "type").lower()
            if element.name == "link" and "stylesheet" not in attr_value(element, "rel"):
                continue
            if element.name == "script" and not is_code_script(element):
                if kind != "text/x-mathjax-config":
                    self.report.done("script (data)")
                continue
            if DISTILL_RUNTIME.search(source):
                self.report.done("Distill runtime")
                self.report.doubt(
                    "Distill runtime",
                    element.sourceline,
                    f"{source} is replaced by the theme; a script that waits for its "
                    "events (d-figure's onscreen) needs a shim",
                )
                continue
            if MATH_RUNTIME.search(source):
                self.report.done("math runtime")
                self.report.doubt(
                    "math runtime",
                    element.sourceline,
                    f"{source} is not loaded: formulas are rendered at build time",
                )
                continue
            if is_remote(source):
                self.report.doubt(
                    f"<{element.name}> in <head>",
                    element.sourceline,
                    f"{source} is loaded from another site; copy it into the article folder "
                    "to serve it yourself",
                )
            self.report.raw(
                f"<{element.name}> in <head>",
                element.sourceline,
                "kept at the top of the page, in the same order",
            )
            self.assets.referenced_by(element)
            kept.append(element)
        if not kept:
            return []
        html = "\n".join(str(element) for element in kept)
        fence = md.fence(html)
        return [f"{fence}{{raw}} html\n{html}\n{fence}"]

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
            alias = self.aliases.get(target)
            if alias and target.lower() not in self.labels:
                self.report.doubt(
                    "link",
                    line,
                    f"the link to #{target} named no id; the original resolved it by the text "
                    f"of the heading {alias[1]!r}, which it now points to",
                )
                target = alias[0]
            if target.lower() in self.labels and not re.search(r"[<>`]", plain):
                return f"{{ref}}`{plain} <{target.lower()}>`"
            self.report.doubt(
                "link", line, f"the link to #{target} points to nothing the import labelled"
            )
            return f'<a href="#{target}">{inline}</a>'

        return re.sub("\x00LINK(\\d+)\x00", replace, text)

    def title(self, element: Tag) -> tuple[str, list[str]]:
        """d-title: what the reader sees wins. Its h1 is the title, the paragraph (or v1's
        h2) right after it the subtitle; the rest (a teaser figure...) stays as blocks."""
        self.report.done(element.name)
        heading = element.find("h1")
        title = " ".join(heading.get_text().split()) if heading else ""
        if heading is not None and heading.find([*HEADINGS, "p", "div", "ul", "ol", "pre"]):
            # An unclosed <h1> swallowed the article (as in a browser): not a title.
            self.report.doubt(
                "title block",
                heading.sourceline,
                "the <h1> is never closed; its text is not the title",
            )
            return "", self.blocks(heading.children)
        rest = [c for c in element.children if c is not heading]
        tags = [c for c in rest if isinstance(c, Tag) and c.name not in {"script", "style"}]
        first = tags[0] if tags else None
        if (
            first is not None
            and first.name in {"p", "h2"}
            and first.get_text().strip()
            and not first.find(["a", "d-math", "dt-math", "d-cite", "dt-cite", "img", "script"])
        ):
            self.description = " ".join(first.get_text().split())
            rest = [c for c in rest if c is not first]
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

    def _is_inline(self, node: Any) -> bool:
        if isinstance(node, Comment):
            return False
        if isinstance(node, NavigableString):
            return True
        if not isinstance(node, Tag):
            return False
        if node.name == "a" and "marker" in classes_of(node):
            return False
        if node.name in {"d-math", "d-code"}:
            return not node.has_attr("block")
        if node.name == "img":
            return not self._image_layout(node)
        if node.name == "script":
            kind = attr_value(node, "type").lower().replace(" ", "")
            return kind.startswith("math/tex") and "mode=display" not in kind
        if node.name in INLINE:
            return not holds_blocks(node)
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
        if style_of(node).get("display") == "none" and node.name not in {"script", "style"}:
            # Hidden until a script shows it: its tags kept, its text and formulas converted.
            if node.find(["h1", "h2", "h3"]) is None and node.get_text().strip():
                return self.shell(node)
            return self.raw(node, "hidden (display: none) until a script shows it; kept as it is")
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
        if name == "a" and "marker" in classes_of(node):
            self.report.done("section marker")
            return self.label(node).rstrip("\n")
        if name in INLINE and holds_blocks(node):
            return self.inline_holding_blocks(node)
        if is_block_math(node):
            return self.with_legend(self.block_math(node), node, legend)
        if is_block_code(node):
            return self.with_legend(self.block_code(node), node, legend)
        if name == "figure":
            return self.figure(node, legend)
        if name == "img":
            return self.image_block(node, legend)
        if name == "div" and "figure-legend" in classes_of(node):
            return self.legend_alone(node)
        if handler is not None:
            return self.with_legend(handler(node), node, legend)
        if name in UNWRAP:
            return self.with_legend(self.container(node), node, legend)
        if name == "script" and attr_value(node, "type").lower().startswith("math/tex"):
            return self.block_math(node)
        if name in {"script", "style", "link", "noscript", "template"}:
            return self.raw(node, f"<{name}> kept as it is: it runs in the page")
        if name in KEPT_RAW or "-" in name:
            return self.raw(node, f"<{name}> has no equivalent")
        return self.unwrap(node)

    def inline_holding_blocks(self, node: Tag) -> str:
        """An inline element around blocks (an unclosed ``<em>``, as a browser builds it):
        its runs of text keep its emphasis, the blocks inside are converted plainly."""
        marker = {"em": "*", "i": "*", "cite": "*", "strong": "**", "b": "**"}.get(node.name, "")
        self.report.doubt(
            f"<{node.name}>",
            node.sourceline,
            "holds blocks (an unclosed tag?): its text keeps the styling, the blocks inside "
            "are converted without it",
        )
        blocks: list[str] = []
        run: list[Any] = []

        def flush() -> None:
            text = self.inline(run).strip()
            if text:
                self.report.done("paragraph")
                blocks.append(md.escape_line_starts(f"{marker}{text}{marker}"))
            run.clear()

        for child in node.children:
            if self._is_inline(child):
                run.append(child)
                continue
            flush()
            blocks.append(self.block(child, []))
        flush()
        return "\n\n".join(block for block in blocks if block.strip())

    def unwrap(self, node: Tag) -> str:
        """An element without an equivalent: its content converted, the element dropped,
        unless a script or stylesheet needs it (then its tags are kept around the content)."""
        element_id = attr_value(node, "id")
        if self.scripted(node):
            return self.shell(node)
        if element_id and self.assets.script_names(self.article.soup, element_id):
            return self.script_target(node, element_id)
        self.report.done(f"<{node.name}> (unwrapped)")
        self.report.doubt(
            f"<{node.name}> (unwrapped)",
            node.sourceline,
            "an unknown element: its content is converted, the element itself is left out",
        )
        inner = "\n\n".join(self.blocks(node.children))
        return (self.label(node) + inner) if inner.strip() else self.label(node).rstrip("\n")

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
        if "\x00DISPLAY" not in text:
            return md.escape_line_starts(text)
        # Display formulas in the text: the paragraph splits around them, as it shows.
        parts = re.split("\x00DISPLAY(\\d+)\x00", text)
        blocks = []
        for index, part in enumerate(parts):
            if index % 2:
                blocks.append(f"$$\n{self.display_math[int(part)]}\n$$")
            elif part.strip().strip("\\").strip():
                blocks.append(md.escape_line_starts(part.strip()))
        return "\n\n".join(blocks)

    def container(self, node: Tag) -> str:
        """div, section, d-figure...: by what they hold, else their children in place."""
        style = style_of(node)
        classes = classes_of(node)
        element_id = attr_value(node, "id")
        if element_id.startswith("fragment-"):
            return self.fragment(node, element_id[len("fragment-") :], None, None)
        if element_id and not node.get_text().strip() and not node.find("img"):
            return self.raw(node, f"#{element_id} holds no text: kept for the script that fills it")
        if self.scripted(node):
            return self.shell(node)
        if style.get("display", "grid") == "grid" and (formula := self.eq_grid(node)):
            return self.label(node) + formula
        if element_id and self.assets.script_names(self.article.soup, element_id):
            return self.script_target(node, element_id)
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
                "is kept, its styling is not"
                if classes
                else "its style is not kept",
            )
        inner = "\n\n".join(self.blocks(node.children))
        return (self.label(node) + inner) if inner.strip() else ""

    def script_target(self, node: Tag, element_id: str) -> str:
        """An element a script selects by id: kept with its exact id, its content converted."""
        inner = "\n\n".join(self.blocks(node.children))
        if not inner.strip():
            return self.raw(node, f"a script or stylesheet selects #{element_id}: kept as it is")
        if re.search(r"^#+ ", inner, flags=re.MULTILINE):
            self.report.doubt(
                f"<{node.name}>",
                node.sourceline,
                f"a script or stylesheet selects #{element_id}, which holds headings: its "
                "content is converted and the element is left out; the script will not find it",
            )
            return inner
        self.report.raw(
            f"<{node.name}>",
            node.sourceline,
            f"a script or stylesheet selects #{element_id}: its tags are kept around the "
            "converted content",
        )
        attributes = "".join(f' {k}="{attr_html(v)}"' for k, v in node.attrs.items())
        opening = f"<{node.name}{attributes}>"
        return f"```{{raw}} html\n{opening}\n```\n\n{inner}\n\n```{{raw}} html\n</{node.name}>\n```"

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
        plain = " ".join(node.get_text().split())
        target = self.broken_targets.get(_words(plain)) if _words(plain) else None
        if target and self.headings_by_words[_words(plain)] == 1:
            # A link the original resolved by this heading's text (#mixed_precision_training).
            name = label[1:-3] if label else make_id(target)
            if not label and name not in self.labels:
                self.labels.add(name)
                label = f"({name})=\n"
            self.aliases[target] = (name, plain)
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

    def raw(self, node: Tag, why: str) -> str:
        self.report.raw(f"<{node.name}>", node.sourceline, why)
        return self.raw_html(node)

    def raw_html(self, node: Tag) -> str:
        self.assets.referenced_by(node)
        html = str(node)
        fence = md.fence(html)
        return f"{fence}{{raw}} html\n{html}\n{fence}"

    # -- written by the other parts (see convert.Converter) --------------------------

    def scripted(self, node: Tag) -> bool:
        raise NotImplementedError

    def eq_grid(self, node: Tag) -> str | None:
        raise NotImplementedError

    def shell(self, node: Tag) -> str:
        raise NotImplementedError

    def inline(self, nodes: Iterable[Any]) -> str:
        raise NotImplementedError

    def block_math(self, node: Tag) -> str:
        raise NotImplementedError

    def block_code(self, node: Tag) -> str:
        raise NotImplementedError

    def figure(self, node: Tag, legend: Tag | None) -> str:
        raise NotImplementedError

    def image_block(self, image: Tag, legend: Tag | None) -> str:
        raise NotImplementedError

    def legend_alone(self, node: Tag) -> str:
        raise NotImplementedError

    def with_legend(self, text: str, node: Tag, legend: Tag | None) -> str:
        raise NotImplementedError

    def _legend_after(self, following: list[Any]) -> Tag | None:
        raise NotImplementedError

    def layout_of(self, node: Tag) -> str | None:
        raise NotImplementedError

    def layout_directive(self, layout: str, body: str) -> str:
        raise NotImplementedError

    def layout_wrap(self, node: Tag, text: str, allow: set[str] | None = None) -> str:
        raise NotImplementedError

    def _image_layout(self, image: Tag) -> str | None:
        raise NotImplementedError

    def grid(self, node: Tag) -> str:
        raise NotImplementedError

    def fragment(
        self, placeholder: Tag, name: str, figure: Tag | None, captions: list[Tag] | None
    ) -> str:
        raise NotImplementedError

    def interactive(
        self,
        element: Tag,
        source: str,
        alt: str | None,
        figure: Tag | None,
        captions: list[Tag] | None,
    ) -> str:
        raise NotImplementedError

    def nested_text(self, node: Tag) -> str:
        raise NotImplementedError

    def math_inline(self, node: Tag) -> str:
        raise NotImplementedError

    def image_inline(self, node: Tag) -> str:
        raise NotImplementedError

    def code_fence(self, text: str, language: str | None, node: Tag) -> str:
        raise NotImplementedError
