"""LaTeX-only post-transform: our containers become the nodes :mod:`.writer` writes,
and what LaTeX could not typeset is caught here, with its file and line, instead of
stopping ``latexmk`` later.

Runs on the tree the LaTeX builder assembles from a whole book (its start document
is ``env.docname``); other builders never meet these nodes.
"""

from __future__ import annotations

import mimetypes
import re
from pathlib import Path, PurePosixPath
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup
from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.domains.math import MathDomain
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..diagnostics import PlaybookWarning, warn
from ..directives.base import find_components
from ..machinery import priorities
from ..machinery.state import builder_of
from ..math.mathjax_compat import global_definitions, latex_references
from .writer import column, columns, margin_note, title_block

#: Characters pdflatex sets with Sphinx's preamble and ours (inputenc's utf8 with
#: T1 and TS1, sphinxplaybook.sty's \DeclareUnicodeCharacter list).
_PDFLATEX_RANGES = ((0x09, 0x0A), (0x0D, 0x0D), (0x20, 0x7E), (0xA0, 0x17F))
_PDFLATEX_EXTRA = frozenset(
    "\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2020\u2021\u2022\u2026\u2030"
    "\u2039\u203a\u20ac\u2122\u2032\u2033\u02c6\u02dc\u2500\u2502\u2514\u251c\u2572"
    "\u2212\u00d7\u00f7\u00b1\u2190\u2192\u2194\u21d2\u21d0\u21d4\u2191\u2193\u2264"
    "\u2265\u2260\u2248\u221e\u2211\u221a\u2202\u2207\u2208\u22c5\u2713\u2717"
    "\u03b1\u03b2\u03b3\u03b4\u03b5\u03b8\u03bb\u03bc\u03c0\u03c3\u03c4\u03c6\u03c9"
    "\u0394\u03a3\u03a9\u200b\ufeff"
)
_KNOWN = "".join(
    re.escape("".join(chr(c) for c in range(low, high + 1))) for low, high in _PDFLATEX_RANGES
)
_UNKNOWN_CHARACTER = re.compile(f"[^{_KNOWN}{re.escape(''.join(sorted(_PDFLATEX_EXTRA)))}]")

#: Emoji (pictographs, flags, keycaps) with the joiners and selectors that build
#: them: left out of a pdflatex PDF rather than printed as boxes.
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0e\ufe0f\u200d\u20e3]")
_EMOJI_JOINERS = frozenset("\ufe0e\ufe0f\u200d\u20e3")


def _left_out(match: re.Match[str]) -> str:
    """An emoji pdflatex cannot set goes; one it can (\u2713, \u2717) stays."""
    return "" if _UNKNOWN_CHARACTER.fullmatch(match.group()) else match.group()


#: Set on an image whose absence from the PDF was already warned about (an SVG the
#: converter could not take, svg.py): it prints its alt text with no second warning.
EXPLAINED = "playbook_explained"

#: CSS track sizes a column width can be read from; anything else counts as 1fr.
_FRACTION = re.compile(r"^(\d+(?:\.\d+)?)fr$")


def _tracks(value: str) -> list[str]:
    """The top-level tracks of a grid track list (``minmax(0, 1fr) 2fr`` is two);
    none for a ``repeat()``, whose count depends on the screen."""
    if "repeat(" in value:
        return []
    tracks, depth, current = [], 0, ""
    for char in value:
        depth += (char == "(") - (char == ")")
        if char.isspace() and depth == 0:
            if current:
                tracks.append(current)
            current = ""
        else:
            current += char
    return [*tracks, current] if current else tracks


def located(node: nodes.Node) -> nodes.Node:
    """The nearest node that knows its source line (text nodes do not)."""
    current: nodes.Node | None = node
    while current is not None and not (getattr(current, "line", None) and current.source):
        current = current.parent
    return current or node


class PaperLayout(SphinxPostTransform):
    """Asides to margin notes, side-by-side to columns, the title block first."""

    default_priority = priorities.PAPER_LAYOUT
    builders = ("latex",)

    def run(self, **kwargs: Any) -> None:
        found = find_components(self.document, "aside", "side-by-side", "layout")
        for node in found["aside"]:
            node.replace_self(margin_note("", *node.children))
        for node in found["layout"]:
            if "l-gutter" in node["classes"]:
                node.replace_self(margin_note("", *node.children))
        for node in found["side-by-side"]:
            node.replace_self(self._columns(node))
        self._stack_margin_notes()
        self._unsupported_images()
        if self.config.latex_engine == "pdflatex":
            self._unknown_characters()
        self.document.insert(0, title_block("", docname=self.env.docname))

    def _stack_margin_notes(self) -> None:
        """Notes in a row share one margin note, one under the other (as in the
        gutter on screen), rather than being set at the same height."""
        merged: set[int] = set()
        for note in list(self.document.findall(margin_note)):
            if id(note) in merged:
                continue
            following = note.next_node(descend=False, siblings=True)
            while isinstance(following, margin_note):
                merged.add(id(following))
                note.extend(following.children)
                following.parent.remove(following)
                following = note.next_node(descend=False, siblings=True)

    def _columns(self, node: nodes.Element) -> list[nodes.Element]:
        """The block's children in columns, in rows of as many as it has tracks:
        a CSS grid with more children than columns (``1fr 1fr`` and six
        paragraphs) places them row by row, and so does the PDF."""
        children = [child for child in node.children if isinstance(child, nodes.Element)]
        tracks = _tracks(str(node.get("columns") or ""))
        per_row = len(tracks) if tracks else len(children)
        weights = []
        for index in range(per_row):
            match = _FRACTION.match(tracks[index]) if index < len(tracks) else None
            weights.append(float(match.group(1)) if match else 1.0)
        # The gaps between columns take 4 % of the line, shared out.
        usable = 1.0 - 0.04 * (per_row - 1)
        rows: list[nodes.Element] = []
        for start in range(0, len(children), max(per_row, 1)):
            grid = columns("", ids=[] if rows else node["ids"])
            for child, weight in zip(children[start : start + per_row], weights, strict=False):
                grid += column("", child, width=f"{usable * weight / sum(weights):.3f}")
            rows.append(grid)
        return rows

    def _unsupported_images(self) -> None:
        """An image with no format LaTeX includes (an SVG alone, say) becomes its
        alt text, with a warning that says how to give the PDF an image."""
        supported = getattr(builder_of(self.env), "supported_image_types", [])
        for image in list(self.document.findall(nodes.image)):
            candidates: dict[str, str] = image.get("candidates") or {}
            if "?" in candidates:
                continue  # a remote image: LaTeX's own business
            if "*" in candidates or not candidates:  # one file, named with its extension
                kind = mimetypes.guess_type(candidates.get("*") or image["uri"])[0]
                candidates = {kind: image["uri"]} if kind else {}
            if not candidates or any(kind in candidates for kind in supported):
                continue  # an unknown extension: left to LaTeX's graphics rules
            registered = candidates.get("*") or next(iter(candidates.values()))
            if image.get(EXPLAINED) or registered not in self.env.images:
                # svg.py said why, once; or Sphinx said "image file not readable"
                self._alt_text(image)
                continue
            original = image["uri"]
            warn(
                f"the image {original!r} has no format the LaTeX builder can include "
                "(PDF, PNG or JPEG): the PDF shows its alt text instead. Put a PNG or PDF "
                "beside it and write the path with '.*' (Sphinx picks per builder), or add "
                "'sphinx.ext.imgconverter' to extensions",
                PlaybookWarning.LATEX,
                location=located(image),
            )
            self._alt_text(image)

    def _alt_text(self, image: nodes.image) -> None:
        placeholder = nodes.emphasis("", f"[{image.get('alt') or image['uri']}]")
        if isinstance(image.parent, nodes.TextElement):
            image.replace_self(placeholder)
        else:
            image.replace_self(nodes.paragraph("", "", placeholder))

    def _unknown_characters(self) -> None:
        """Each character pdflatex cannot set, once per document, where it first is.
        An emoji is left out (no font pdflatex has draws it; xelatex's leave it out
        too): a "📝 Note" title reads "Note", not "? Note". Any other character
        prints as a box, which says that something is missing."""
        seen: set[str] = set()
        for text in list(self.document.findall(nodes.Text)):
            if isinstance(text.parent, nodes.raw):
                continue  # raw HTML: LaTeX never sets it (raw LaTeX: the author's own)
            value = text.astext()
            for character in _UNKNOWN_CHARACTER.findall(value):
                if character in seen or character in _EMOJI_JOINERS:
                    continue
                seen.add(character)
                emoji = _EMOJI.fullmatch(character) is not None
                warn(
                    f"the character {character!r} (U+{ord(character):04X}) cannot be set "
                    "by pdflatex and "
                    + ("is left out of the PDF" if emoji else "prints as a box in the PDF")
                    + "; replace it, or set latex_engine = 'xelatex' (or 'lualatex') in "
                    "conf.py" + (" with a font that has emoji" if emoji else ""),
                    PlaybookWarning.LATEX,
                    location=located(text),
                )
            without = _EMOJI.sub(_left_out, value)
            if without != value and text.parent is not None:
                # The space an emoji stood between stays single ("GPU-rich (!)").
                if not isinstance(text.parent, (nodes.FixedTextElement, nodes.literal)):
                    without = re.sub(r"  +", " ", without)  # code keeps its spaces
                text.parent.replace(text, nodes.Text(without))


#: What raw HTML shows only on screen: controls, players, scripts, drawings made by
#: scripts. Left out of the PDF with everything inside them.
_SCREEN_ONLY = frozenset(
    [
        *("script", "style", "template", "noscript", "input", "select", "option", "button"),
        *("textarea", "audio", "video", "iframe", "canvas", "svg", "object", "embed"),
        *("form", "label", "dialog"),
    ]
)
#: Elements that hold blocks; text directly in them becomes paragraphs only beside
#: other blocks (a note's closing sentence), never alone (an "Hover over..." hint).
_BLOCKS = frozenset(
    ["p", "ul", "ol", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "img", "hr"]
)
#: Elements inside a line of text (HTML's phrasing content that prints).
_PHRASING = frozenset(
    [
        *("a", "span", "strong", "b", "em", "i", "code", "kbd", "samp", "var", "sub", "sup"),
        *("br", "small", "mark", "abbr", "cite", "q", "u", "s", "del", "ins", "time", "wbr"),
    ]
)
_INLINE = {
    "strong": nodes.strong,
    "b": nodes.strong,
    "em": nodes.emphasis,
    "i": nodes.emphasis,
    "code": nodes.literal,
    "kbd": nodes.literal,
    "sub": nodes.subscript,
    "sup": nodes.superscript,
}


class RawHtmlForPaper(SphinxTransform):
    """What raw HTML shows is in the PDF too. The LaTeX builder drops raw HTML, and
    an imported article keeps there what its CSS or scripts address: styled notes
    (``<div class="note-box">``), figures of ``<img>``, the citation ``<pre>``. So
    its text (paragraphs, lists, code, links, emphasis) and its local images are
    added after it for LaTeX only (an ``only`` node: Sphinx registers and copies
    the images, the HTML builders drop it; the raw HTML shows it there). Controls,
    players and script-drawn parts are left out: they have no meaning on paper."""

    default_priority = priorities.RAW_HTML_FOR_PAPER

    def apply(self, **kwargs: Any) -> None:
        for raw in list(self.document.findall(nodes.raw)):
            if "html" not in raw.get("format", "").split():
                continue
            soup = BeautifulSoup(raw.astext(), "html.parser")
            for screen_only in soup.find_all(sorted(_SCREEN_ONLY)):
                screen_only.decompose()
            if isinstance(raw.parent, nodes.TextElement):
                converted: list[nodes.Node] = [
                    n for n in self._inline(soup, raw) if isinstance(n, nodes.image)
                ]
            else:
                converted = list[nodes.Node](self._blocks(soup, raw))
                roots: list[Any] = [c for c in soup.children if getattr(c, "name", None)]
                # One styled box with several blocks (a note): framed, as on screen.
                if len(roots) == 1 and roots[0].name == "div" and len(converted) > 1:
                    converted = [nodes.topic("", *converted)]
            if not converted:
                continue
            paper = addnodes.only(expr="latex")
            paper.source, paper.line = raw.source, raw.line
            paper.extend(converted)
            raw.parent.insert(raw.parent.index(raw) + 1, paper)

    def _blocks(self, element: Any, raw: nodes.raw) -> list[nodes.Element]:
        """The block nodes of an element's children, in order."""
        found: list[nodes.Element] = []
        children = list(element.children)
        has_blocks = any(
            getattr(child, "name", None) and (child.name in _BLOCKS or self._holds_blocks(child))
            for child in children
        )
        run: list[Any] = []  # inline content waiting for its paragraph

        def flush() -> None:
            if has_blocks and run:
                inline = [node for part in run for node in self._inline(part, raw)]
                if "".join(node.astext() for node in inline).strip() or any(
                    isinstance(node, nodes.image) for node in inline
                ):
                    found.append(self._located(nodes.paragraph("", "", *inline), raw))
            run.clear()

        for child in children:
            name = getattr(child, "name", None)
            if name is None or name in _PHRASING:
                run.append(child)
                continue
            flush()
            # A block, or a container (a div) whose own text follows the same rule.
            found.extend(self._block(child, raw))
        flush()
        return found

    @staticmethod
    def _holds_blocks(element: Any) -> bool:
        return element.find(sorted(_BLOCKS)) is not None

    def _block(self, element: Any, raw: nodes.raw) -> list[nodes.Element]:
        name = element.name
        if name == "p" or name in {"h1", "h2", "h3", "h4", "h5", "h6"}:
            inline = self._inline(element, raw)
            if not "".join(node.astext() for node in inline).strip() and not any(
                isinstance(node, nodes.image) for node in inline
            ):
                return []
            text: nodes.Element = (
                nodes.rubric("", "", *inline)
                if name.startswith("h")
                else nodes.paragraph("", "", *inline)
            )
            return [self._located(text, raw)]
        if name in {"ul", "ol"}:
            items = []
            for item in element.find_all("li", recursive=False):
                body = self._blocks(item, raw) if self._holds_blocks(item) else []
                if not body:
                    body = [nodes.paragraph("", "", *self._inline(item, raw))]
                items.append(nodes.list_item("", *body))
            listed: nodes.Element
            if name == "ol":
                listed = nodes.enumerated_list("", *items, enumtype="arabic", suffix=".")
                listed["prefix"] = ""
            else:
                listed = nodes.bullet_list("", *items, bullet="-")
            return [self._located(listed, raw)] if items else []
        if name == "pre":
            code = str(element.get_text()).strip("\n")
            block = nodes.literal_block(code, code, language="text")  # as written, uncoloured
            return [self._located(block, raw)] if code.strip() else []
        if name == "blockquote":
            return [nodes.block_quote("", *self._blocks(element, raw))]
        if name == "img":
            image = self._image(element, raw)
            return [nodes.paragraph("", "", image)] if image is not None else []
        if name in {"hr", "table"}:
            return []  # a rule means nothing on paper; a table needs its own layout
        return self._blocks(element, raw)  # a div, a section: its blocks

    def _inline(self, element: Any, raw: nodes.raw) -> list[nodes.Node]:
        name = getattr(element, "name", None)
        if name is None:  # text (comments are dropped)
            if type(element).__name__ in {"Comment", "Doctype", "Declaration"}:
                return []
            return [nodes.Text(re.sub(r"\s+", " ", str(element)))]
        if name == "img":
            image = self._image(element, raw)
            return [image] if image is not None else []
        if name == "br":
            return [nodes.Text(" ")]
        inner = [node for child in element.children for node in self._inline(child, raw)]
        if name in _INLINE:
            text = "".join(node.astext() for node in inner)
            return [_INLINE[name](text, text)] if text else []
        href = str(element.get("href") or "") if name == "a" else ""
        if urlsplit(href).scheme in {"http", "https", "mailto"}:
            return [nodes.reference("", "", *inner, refuri=href)]
        return inner

    def _image(self, tag: Any, raw: nodes.raw) -> nodes.image | None:
        uri = self._local_file(str(tag.get("src") or "").strip())
        if uri is None:
            return None
        return self._located(nodes.image(uri=uri, alt=str(tag.get("alt") or "")), raw)

    @staticmethod
    def _located(node: Any, raw: nodes.raw) -> Any:
        node.source, node.line = raw.source, raw.line
        return node

    def _local_file(self, source: str) -> str | None:
        """The image's file as a Sphinx image URI (from the source folder), found as
        the browser finds it: beside the page's source, or in an ``html_extra_path``
        folder (an imported article's published files). None for a remote or
        ``data:`` image and for a file in neither place (the HTML misses it too)."""
        parts = urlsplit(source)
        if not parts.path or parts.scheme or parts.netloc:
            return None
        path = unquote(parts.path)
        srcdir = Path(self.env.srcdir).resolve()
        page_folder = PurePosixPath(self.env.docname).parent
        relative = path.lstrip("/") if path.startswith("/") else str(page_folder / path)
        builder = builder_of(self.env)
        confdir = Path(builder.confdir if builder is not None else srcdir)
        folders = [srcdir, *((confdir / extra).resolve() for extra in self.config.html_extra_path)]
        for folder in folders:
            found = (folder / relative).resolve()
            if found.is_file() and found.is_relative_to(srcdir):
                return "/" + found.relative_to(srcdir).as_posix()
        return None


def _docname_of(node: nodes.Node, default: str) -> str:
    """The page a node of the assembled book comes from."""
    current: nodes.Node | None = node
    while current is not None:
        if isinstance(current, addnodes.start_of_file):
            return str(current["docname"])
        current = current.parent
    return default


class PageMath(SphinxPostTransform):
    """Formulas written for MathJax, for LaTeX: a macro one formula defines stays
    defined for the formulas after it (LaTeX would keep it inside its formula), and
    ``\\eqref{x}`` in a formula points at its page's equation x, which has Sphinx's
    LaTeX label (``\\label{x}`` became the equation's label when the page was read)."""

    default_priority = priorities.PAPER_MATH
    builders = ("latex",)

    def run(self, **kwargs: Any) -> None:
        domain = cast(MathDomain, self.env.get_domain("math"))
        equations = domain.equations
        formulas: list[nodes.Element] = [*self.document.findall(nodes.math)]
        formulas += self.document.findall(nodes.math_block)
        for node in formulas:
            tex = node.astext()
            docname = _docname_of(node, self.env.docname)

            def label_of(target: str, docname: str = docname) -> str | None:
                found = equations.get(target)
                return f"equation:{docname}:{target}" if found and found[0] == docname else None

            changed = latex_references(global_definitions(tex), label_of)
            if changed != tex:
                for child in list(node.children):
                    node.remove(child)
                node.append(nodes.Text(changed))


def setup_latex_transforms(app: Sphinx) -> None:
    app.add_transform(RawHtmlForPaper)
    app.add_post_transform(PaperLayout)
    app.add_post_transform(PageMath)
