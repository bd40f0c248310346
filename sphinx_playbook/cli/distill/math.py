"""Math: ``<d-math>`` and the text delimiters the article configured."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import Any

from bs4 import Comment, NavigableString, Tag

from . import markdown as md
from .elements import attr_html, char_after, style_of
from .walk import Walk


class MathMixin(Walk):
    """Formulas become MyST math, rendered at build time."""

    def math_inline(self, node: Tag) -> str:
        """``<d-math>`` or MathJax's ``<script type="math/tex">`` in text."""
        tex = " ".join(_source(node).split())
        self.report.done("d-math (inline)" if node.name == "d-math" else "math/tex script")
        if not tex:
            return ""
        self.formulas.append((tex, False, node.sourceline))
        following = char_after(node)
        if "$" in tex or "`" in tex or following.isdigit() or tex.endswith("\\"):
            written = math_role(tex)
        else:
            written = f"${tex}$"
        attributes = {k: v for k, v in node.attrs.items() if k not in {"block", "type"}}
        if not attributes:
            return written
        # A class or id a script reads the rendered formula by (MathCache("star")).
        html = "".join(f' {k}="{attr_html(v)}"' for k, v in attributes.items())
        return f"<span{html}>{written}</span>"

    def eq_grid(self, node: Tag) -> str | None:
        """Distill's ``eq-grid``: formulas in one grid row, their labels in the next, as
        one display formula with each label under its term; None if it is not one."""
        cells: list[tuple[int, int, Tag]] = []
        for child in node.children:
            if isinstance(child, NavigableString):
                if child.strip() and not isinstance(child, Comment):
                    return None
                continue
            if not isinstance(child, Tag):
                continue
            style = style_of(child)
            row_match = re.match(r"\s*(\d+)", style.get("grid-row", ""))
            column_match = re.match(r"\s*(\d+)", style.get("grid-column", ""))
            if not row_match or not column_match:
                return None
            cells.append((int(row_match.group(1)), int(column_match.group(1)), child))
        formulas = {
            (row, column): cell for row, column, cell in cells if cell.find("d-math") is not None
        }
        labels = {(row, column): cell for row, column, cell in cells if cell.find("d-math") is None}
        if not formulas:
            return None
        terms = []
        for row, column in sorted(formulas, key=lambda place: (place[0], place[1])):
            tex = " ".join(
                " ".join(_source(math).split())
                for math in formulas[(row, column)].find_all("d-math")
            )
            label = labels.pop((row + 1, column), None)
            text = " ".join(label.get_text().split()) if label is not None else ""
            terms.append(f"\\underset{{\\text{{{_tex_text(text)}}}}}{{{tex}}}" if text else tex)
        for (_, _), label in labels.items():
            self.report.doubt(
                "eq-grid",
                label.sourceline,
                f"the label {' '.join(label.get_text().split())!r} stands under no formula; "
                "written after the formula",
            )
        tail = [" ".join(label.get_text().split()) for label in labels.values()]
        self.report.done("eq-grid (one display formula)")
        self.formulas.append((" ".join(terms), True, node.sourceline))
        formula = "$$\n" + " ".join(terms) + "\n$$"
        return formula + ("\n\n" + md.escape(" ".join(tail)) if tail else "")

    def block_math(self, node: Tag) -> str:
        tex = tex_block(_source(node))
        self.report.done("d-math (block)" if node.name == "d-math" else "math/tex script")
        self.formulas.append((tex, True, node.sourceline))
        # A label (not dollarmath's equation label) so {ref} links keep their text.
        return f"{self.label(node)}$$\n{tex}\n$$"


def check_formulas(
    formulas: list[tuple[str, bool, int | None]], macros: dict[str, Any], report: Any
) -> None:
    """Each formula KaTeX cannot read is a line of the report (the build would warn)."""
    import json

    from ...math.engines import NoEngineError
    from ...math.renderers import KATEX, render_many

    try:
        results = render_many(KATEX, [(tex, display) for tex, display, _ in formulas],
                              json.dumps(macros))  # fmt: skip
    except NoEngineError:
        report.doubt("math", None, "no JavaScript engine: the formulas were not checked")
        return
    for (tex, _, line), rendered in zip(formulas, results, strict=True):
        if rendered.error:
            report.doubt(
                "math",
                line,
                f"KaTeX cannot read {tex!r} ({_reason(rendered.error)}): "
                "the build warns; write it in TeX KaTeX knows, or define the macro in "
                "playbook_math_macros",
            )


def _reason(error: str) -> str:
    """KaTeX's message without its prefix and its underlined excerpt."""
    return error.removeprefix("KaTeX parse error:").split(" at position")[0].strip()


def _tex_text(text: str) -> str:
    """Plain text inside ``\\text{}``."""
    return re.sub(r"([{}\\$%&#_^~])", r"\\\1", text)


def _source(node: Tag) -> str:
    """The TeX of ``<d-math>`` or of a ``math/tex`` script (whose text get_text skips)."""
    if node.name == "script":
        return "".join(str(child) for child in node.children)
    return node.get_text()


def tex_block(text: str) -> str:
    lines = [line for line in text.split("\n") if line.strip()]
    return textwrap.dedent("\n".join(lines)).strip()


def math_role(tex: str) -> str:
    return f"{{math}}{md.inline_code(' '.join(tex.split()))}"


@dataclass(frozen=True)
class Delimiter:
    """A pair of text delimiters a math renderer of the page looks for."""

    left: str
    right: str
    display: bool


#: MathJax's defaults (v2 tex2jax and v3): no single dollars.
MATHJAX_DEFAULTS = (
    Delimiter("$$", "$$", True),
    Delimiter("\\[", "\\]", True),
    Delimiter("\\(", "\\)", False),
)
#: KaTeX auto-render's defaults.
KATEX_DEFAULTS = MATHJAX_DEFAULTS
_JS_PAIR = re.compile(r"""\[\s*(['"])(.*?)(?<!\\)\1\s*,\s*(['"])(.*?)(?<!\\)\3\s*\]""")
_JS_OBJECT = re.compile(
    r"""left\s*:\s*(['"])(.*?)(?<!\\)\1\s*,\s*right\s*:\s*(['"])(.*?)(?<!\\)\3"""
    r"""(?:\s*,\s*display\s*:\s*(true|false|!0|!1))?"""
)


@dataclass
class MathSetup:
    """Which text delimiters the page's math renderer used, and where that was read."""

    delimiters: list[Delimiter]
    source: str
    environments: bool
    line: int | None = None

    def pattern(self) -> tuple[re.Pattern[str], list[bool]] | None:
        """One pattern, longest left delimiter first: group ``m<i>`` holds the TeX of
        alternative ``i``; the display flag of each alternative."""
        parts: list[str] = []
        flags: list[bool] = []
        if self.environments:
            parts.append(
                r"(?P<m0>\\begin\{(?P<env>(?:align|alignat|equation|gather|multline|eqnarray"
                r"|flalign)\*?)\}.*?\\end\{(?P=env)\})"
            )
            flags.append(True)
        for item in sorted(self.delimiters, key=lambda d: -len(d.left)):
            left = re.escape(item.left)
            if item.left == "$":
                left = r"(?<![\\$])\$(?!\$)"
            name = f"m{len(parts)}"
            parts.append(f"{left}(?P<{name}>.+?)(?<!\\\\){re.escape(item.right)}")
            flags.append(item.display)
        if not parts:
            return None
        return re.compile("|".join(parts), re.DOTALL), flags


def _js_string(text: str) -> str:
    """A JavaScript string literal's text (its backslash escapes undone)."""
    return re.sub(r"\\(.)", r"\1", text)


def _pairs(config: str, key: str) -> list[tuple[str, str]] | None:
    match = re.search(rf"{key}\s*:\s*\[((?:\s*\[[^\]]*\]\s*,?)*)\s*\]", config)
    if match is None:
        return None
    return [
        (_js_string(m.group(2)), _js_string(m.group(4))) for m in _JS_PAIR.finditer(match.group(1))
    ]


def _code(script: Any) -> str:
    """A script's text without its comments (a commented-out configuration configures nothing)."""
    text = re.sub(r"/\*.*?\*/", " ", script.string or "", flags=re.DOTALL)
    return re.sub(r"(^|\s)//[^\n]*", r"\1", text)


def math_setup(soup: Any, katex: dict[str, Any]) -> MathSetup | None:
    """The text delimiters of the page: KaTeX front matter, MathJax's configuration or
    defaults, KaTeX auto-render's options or defaults; None when nothing renders text."""
    delimiters = katex.get("delimiters") if isinstance(katex, dict) else None
    if isinstance(delimiters, list) and delimiters:
        found = [
            Delimiter(str(item["left"]), str(item["right"]), bool(item.get("display")))
            for item in delimiters
            if isinstance(item, dict) and item.get("left") and item.get("right")
        ]
        return MathSetup(found, "the KaTeX delimiters of the front matter", False)
    scripts = soup.find_all("script")
    mathjax = [s for s in scripts if "mathjax" in str(s.get("src") or "").lower()]
    configs = [
        s for s in scripts
        if str(s.get("type") or "").lower() == "text/x-mathjax-config"
        or re.search(r"\bMathJax\s*=\s*\{", _code(s))
    ]  # fmt: skip
    if mathjax or configs:
        text = "\n".join(_code(s) for s in configs)
        inline = _pairs(text, "inlineMath")
        display = _pairs(text, "displayMath")
        found = [Delimiter(left, right, False) for left, right in inline or [("\\(", "\\)")]]
        found += [
            Delimiter(left, right, True)
            for left, right in display or [("$$", "$$"), ("\\[", "\\]")]
        ]
        environments = not re.search(r"processEnvironments\s*:\s*false", text)
        where = "MathJax's configuration" if inline or display else "MathJax's defaults"
        line = (configs or mathjax)[0].sourceline
        return MathSetup(found, where, environments, line)
    auto = [
        s for s in scripts
        if "auto-render" in str(s.get("src") or "")
        or "renderMathInElement" in _code(s) + str(s.get("onload") or "")
    ]  # fmt: skip
    if auto:
        text = "\n".join(_code(s) + str(s.get("onload") or "") for s in auto)
        options = [
            Delimiter(_js_string(m.group(2)), _js_string(m.group(4)), m.group(5) in {"true", "!0"})
            for m in _JS_OBJECT.finditer(text)
        ]
        where = "KaTeX auto-render's options" if options else "KaTeX auto-render's defaults"
        return MathSetup(options or list(KATEX_DEFAULTS), where, True, auto[0].sourceline)
    return None
