"""Which text delimiters the page's math renderer looked for: ``$...$``, ``\\(...\\)``...

Read from the KaTeX front matter, MathJax's configuration (or its defaults), or KaTeX
auto-render's options (or its defaults); the walk finds formulas in text with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


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

    def summary(self) -> str:
        """What the walk reads as formulas, and why: the report's line about it."""
        return (
            "formulas in text are read with "
            + ", ".join(
                f"{d.left}…{d.right}" + (" (display)" if d.display else "") for d in self.delimiters
            )
            + (", bare \\begin{align}-like environments" if self.environments else "")
            + f" ({self.source})"
        )


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
