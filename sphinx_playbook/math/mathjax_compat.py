"""TeX written for MathJax, made KaTeX's before it is rendered.

Sphinx's default HTML math is MathJax, so real projects write their formulas for
it: ``\\mbox``, ``\\require``, numbered ``align``, ``\\label`` and ``\\eqref``,
and macros that one formula defines and later formulas of the page use. KaTeX
(and Temml, which shares its parser) rejects or numbers these differently; the
tables below say what each becomes. Only the HTML renderer reads them: LaTeX
knows every one of these commands, and keeps the author's TeX.

:func:`translate` rewrites one formula and returns what the page needs from it
(its labels, its definitions in ``\\gdef`` form for the formulas after it);
:func:`resolve_references` then writes each ``\\eqref`` as its number, once the
page's numbers are known; :func:`advice` says what to write instead of a
command that has no translation, for the warning of a formula KaTeX rejects.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

#: Commands KaTeX lacks under another name: MathJax's name -> KaTeX's.
RENAMED: dict[str, str] = {
    "\\mbox": "\\text",
    "\\mathbfit": "\\boldsymbol",
    "\\mspace": "\\mskip",
    "\\overparen": "\\overgroup",
    "\\underparen": "\\undergroup",
}

#: Commands dropped with their arguments (how many): they only steer MathJax.
DROPPED: dict[str, int] = {
    "\\require": 1,
    "\\skew": 1,
    "\\leftroot": 1,
    "\\uproot": 1,
}

#: ``\\command{x}{content}`` -> ``{content}``: MathJax's HTML attributes (KaTeX
#: would need ``trust``); the content is drawn as before, without the attribute.
UNWRAPPED: tuple[str, ...] = ("\\class", "\\cssId")

#: Environments KaTeX numbers on its own (from 1 in every formula) or lacks:
#: Sphinx numbers display math, and MathJax, as Sphinx configures it, numbers
#: none, so each becomes its unnumbered KaTeX twin.
ENVIRONMENTS: dict[str, str] = {
    "equation": "equation*",
    "align": "align*",
    "alignat": "alignat*",
    "gather": "gather*",
    "flalign": "align*",
    "flalign*": "align*",
    "multline": "gather*",
    "multline*": "gather*",
    "eqnarray": "darray",
    "eqnarray*": "darray",
}
#: What a translated environment's ``\\begin`` takes after its name.
_COLUMNS = {"eqnarray": "{rcl}", "eqnarray*": "{rcl}"}

#: Commands with no translation, and what to write instead (the warning says it).
INSTEAD: dict[str, str] = {
    "\\ce": "(MathJax's mhchem) write \\mathrm{H_2O}, with _ and ^ for the numbers",
    "\\pu": "(MathJax's mhchem) write the unit as \\mathrm{m\\,s^{-1}}",
    "\\bbox": "write \\boxed{...}, or \\colorbox{color}{...} for a background",
    "\\style": "write \\color{...} or \\textcolor{color}{...} for a colour",
    "\\enclose": "write \\boxed{...} or \\cancel{...}",
    "\\cancelto": "write \\cancel{...}^{value}",
    "\\textsc": "write the capitals in \\text{...}",
    "\\sc": "write the capitals in \\text{...}",
    "\\intertext": "end the display formula, write the text, and start another",
    "\\cline": "write \\hline (KaTeX draws no partial rule)",
    "\\vspace": "write \\\\[1em] at the end of the row above",
    "\\newenvironment": "define a macro with \\newcommand instead",
    "\\idotsint": "write \\int\\cdots\\int",
    "\\iddots": "write \\cdots or \\ddots",
    "\\sideset": "write {}_a^b\\sum_c^d",
    "\\buildrel": "write \\stackrel{above}{relation}",
    "\\framebox": "write \\fbox{...}",
    "\\Rule": "write \\rule{width}{height}",
    "\\Space": "write \\hspace{width}",
    "\\mmlToken": "write the symbol itself",
    "\\shoveleft": "write the lines in \\begin{gather*} ... \\end{gather*}",
    "\\shoveright": "write the lines in \\begin{gather*} ... \\end{gather*}",
    "subequations": "give each display formula its own label (:label: or $$ ... $$ (label))",
    "xalignat": "write \\begin{alignat*}{n}",
    "xxalignat": "write \\begin{alignat*}{n}",
}

_DEFINE_COMMANDS = ("\\newcommand", "\\renewcommand", "\\providecommand")
_TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL)
_NAME = re.compile(r"\s*(\\(?:[A-Za-z]+|.))")
_PARAMETERS = re.compile(r"[^{]*")
_MEANING = re.compile(r"\s*=?\s*(\\(?:[A-Za-z]+|.)|\S)")
_OPTIONAL = re.compile(r"\s*\[([^\]]*)\]")
_UNDEFINED = re.compile(r"Undefined control sequence: (\\[A-Za-z]+|\\.)|No such environment: (\S+)")
_REFERENCE = re.compile(r"\\(eqref|ref)\s*\{([^{}]*)\}")


@dataclass
class Translated:
    """One formula as KaTeX takes it, and what the rest of the page needs of it."""

    tex: str
    #: ``\\label``s, dropped from the TeX, in order.
    labels: list[str] = field(default_factory=list)
    #: Its macro definitions, as ``\\gdef`` (and ``\\global\\let``) for later formulas.
    definitions: str = ""
    #: What has no translation here, each with what to write instead.
    problems: list[str] = field(default_factory=list)


def _argument(tex: str, start: int) -> tuple[str, int]:
    """The argument at ``start`` (a braced group's content, or one token), and
    where it ends; an unbalanced group runs to the end, for KaTeX to report."""
    position = start
    while position < len(tex) and tex[position].isspace():
        position += 1
    if position >= len(tex):
        return "", position
    if tex[position] != "{":
        token = _TOKEN.match(tex, position)
        end = token.end() if token else position + 1
        return tex[position:end], end
    depth = 0
    index = position
    while index < len(tex):
        character = tex[index]
        if character == "\\":
            index += 2
            continue
        if character == "{":
            depth += 1
        elif character == "}":
            depth -= 1
            if depth == 0:
                return tex[position + 1 : index], index + 1
        index += 1
    return tex[position + 1 :], len(tex)


def _optional(tex: str, start: int) -> tuple[str | None, int]:
    """A ``[...]`` argument at ``start``, if there is one."""
    match = _OPTIONAL.match(tex, start)
    return (match[1], match.end()) if match else (None, start)


def _braced_name(tex: str, start: int) -> tuple[str, int]:
    """``{\\name}`` or ``\\name``, as ``\\newcommand`` takes it."""
    name, end = _argument(tex, start)
    return name.strip(), end


def translate(tex: str) -> Translated:
    """The formula with every MathJax-only construct made KaTeX's (references
    excepted: their numbers are the page's, see :func:`resolve_references`)."""
    result = Translated(tex)
    out: list[str] = []
    position = 0
    while (token := _TOKEN.search(tex, position)) is not None:
        out.append(tex[position : token.start()])
        name, position = token[0], token.end()
        if name in RENAMED:
            out.append(RENAMED[name])
        elif name in DROPPED:
            for _ in range(DROPPED[name]):
                _text, position = _argument(tex, position)
        elif name == "\\unicode":
            _font, position = _optional(tex, position)
            code, position = _argument(tex, position)
            out.append(_character(code))
        elif name in UNWRAPPED:
            _attribute, position = _argument(tex, position)
        elif name == "\\label":
            label, position = _argument(tex, position)
            result.labels.append(label.strip())
        elif name in ("\\begin", "\\end"):
            environment, end = _argument(tex, position)
            if environment in ENVIRONMENTS:
                out.append(f"{name}{{{ENVIRONMENTS[environment]}}}")
                if name == "\\begin":
                    out.append(_COLUMNS.get(environment, ""))
                position = end
            else:
                out.append(name)
        elif name == "\\displaylines":
            body, position = _argument(tex, position)
            out.append(f"\\begin{{gathered}}{translate(body).tex}\\end{{gathered}}")
        elif name in _DEFINE_COMMANDS or name in ("\\def", "\\gdef", "\\DeclareMathOperator"):
            definition, position = _definition(name, tex, position, result)
            out.append(definition)
            result.definitions += definition if definition.startswith("\\gdef") else ""
        elif name == "\\let":
            target = _NAME.match(tex, position)
            meaning = _MEANING.match(tex, target.end()) if target else None
            if meaning is None:
                out.append(name)
                continue
            definition = "\\global" + tex[token.start() : meaning.end()]
            out.append(definition)
            result.definitions += definition
            position = meaning.end()
        else:
            out.append(name)
    out.append(tex[position:])
    result.tex = "".join(out)
    return result


def _character(code: str) -> str:
    """``\\unicode{x221E}`` or ``\\unicode{8734}`` as KaTeX's ``\\char``."""
    code = code.strip()
    try:
        value = int(code[1:], 16) if code[:1] in "xX" else int(code, 0 if code[:2] == "0x" else 10)
    except ValueError:
        return f"\\text{{{code}}}"
    return f'{{\\char"{value:X}}}'


def _katex_body(body: str) -> str:
    return translate(body).tex


def _definition(
    command: str,
    tex: str,
    position: int,
    result: Translated,
    body_of: Callable[[str], str] = _katex_body,
) -> tuple[str, int]:
    """A definition as ``\\gdef``: KaTeX's ``\\newcommand`` refuses a macro that is
    already defined (by an earlier formula of the page, say), and its
    ``\\renewcommand`` one that is not; MathJax allows both, as ``\\gdef`` does.
    Global, as MathJax's definitions are: one inside an ``align`` cell outlives
    the cell (each formula has its own copy of the macros, so it goes no further)."""
    star = tex.startswith("*", position)
    position += star
    if command in ("\\def", "\\gdef"):
        match = _NAME.match(tex, position)
        if match is None:
            return command, position
        parameters = _PARAMETERS.match(tex, match.end())
        assert parameters is not None  # [^{]* always matches
        body, end = _argument(tex, parameters.end())
        return f"\\gdef{match[1]}{parameters[0]}{{{body_of(body)}}}", end
    name, position = _braced_name(tex, position)
    if command == "\\DeclareMathOperator":
        body, end = _argument(tex, position)
        operator = "\\operatorname*" if star else "\\operatorname"
        return f"\\gdef{name}{{{operator}{{{body_of(body)}}}}}", end
    count, position = _optional(tex, position)
    default, position = _optional(tex, position)
    body, end = _argument(tex, position)
    if default is not None:
        result.problems.append(
            f"KaTeX's {command} takes no optional argument: define {name} without one "
            f"and write the default [{default}] where it is used"
        )
    try:
        arguments = int(count or 0)
    except ValueError:
        arguments = 0
    taken = "".join(f"#{number}" for number in range(1, arguments + 1))
    return f"\\gdef{name}{taken}{{{body_of(body)}}}", end


def global_definitions(tex: str) -> str:
    """The formula with its macro definitions made global (``\\gdef``), nothing else
    changed: for LaTeX, which keeps a definition inside its formula, where MathJax
    keeps it for the formulas after it on the page."""
    out: list[str] = []
    position = 0
    ignored = Translated(tex)
    while (token := _TOKEN.search(tex, position)) is not None:
        out.append(tex[position : token.start()])
        name, position = token[0], token.end()
        if name in _DEFINE_COMMANDS or name in ("\\def", "\\DeclareMathOperator"):
            definition, position = _definition(name, tex, position, ignored, str)
            out.append(definition)
        else:
            out.append(name)
    out.append(tex[position:])
    return "".join(out)


def latex_references(tex: str, label_of: Callable[[str], str | None]) -> str:
    """``\\eqref{x}`` and ``\\ref{x}`` pointing at the LaTeX label ``label_of(x)``
    of the page's equation x (left as written where it has none)."""

    def point(match: re.Match[str]) -> str:
        label = label_of(match[2].strip())
        return match[0] if label is None else f"\\{match[1]}{{{label}}}"

    return _REFERENCE.sub(point, tex)


def references(tex: str) -> list[str]:
    """The labels ``\\eqref`` and ``\\ref`` name, in order."""
    return [match[2].strip() for match in _REFERENCE.finditer(tex)]


def resolve_references(tex: str, numbers: Mapping[str, str]) -> str:
    """``\\eqref{x}`` as ``(n)`` and ``\\ref{x}`` as ``n``, n the number Sphinx
    shows beside the equation labelled x (``?`` for a label the page lacks)."""

    def number(match: re.Match[str]) -> str:
        shown = numbers.get(match[2].strip(), "?")
        return f"\\text{{({shown})}}" if match[1] == "eqref" else f"\\text{{{shown}}}"

    return _REFERENCE.sub(number, tex)


def advice(error: str) -> str | None:
    """What to write instead of the command or environment a KaTeX error names."""
    match = _UNDEFINED.search(error)
    if match is None:
        return None
    name = match[1] or match[2]
    instead = INSTEAD.get(name)
    return f"KaTeX has no {name}: {instead}" if instead else None
