"""KaTeX's webfonts cut down to the glyphs each one draws on the site (fontTools).

KaTeX ships 20 fonts (268 KB); a page downloads those its formulas draw with.
Each font is subset to the characters the site's formulas draw *with that font*:
an italic ``x`` lands in KaTeX_Math-Italic only, a ``∑`` in KaTeX_Size2 only.
Which face draws a character is decided as the browser decides it, by KaTeX's
own stylesheet: :class:`FontFaces` reads its ``@font-face`` rules and the rules
that set ``font-family``, ``font-weight`` or ``font-style``, and
:func:`characters_by_font` runs that small cascade over the formula markup. The
files stay shared (and cached by the browser) across pages. The MathML part of
KaTeX's output and its TeX annotation are not drawn.
"""

from __future__ import annotations

import functools
import html
import logging
import re
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

from .renderers import KATEX

#: KaTeX's stylesheet lists woff and ttf fallbacks we do not ship: every browser
#: that runs a page of ours reads woff2.
LEGACY_FONT_SOURCES = re.compile(r',url\([^)]*\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)')

_COMMENTS = re.compile(r"/\*.*?\*/", re.S)
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_FONT_FACE = re.compile(r"@font-face\s*\{([^}]*)\}")
_FONT_URL = re.compile(r"url\(['\"]?(?:[^)'\"]*/)?([^/)'\"]+\.woff2)['\"]?\)")
_COMPOUND = re.compile(r"^([a-zA-Z][a-zA-Z0-9-]*)?((?:\.[\w-]+)*)$")
_FONT_PROPERTIES = ("font", "font-family", "font-weight", "font-style")


@dataclass(frozen=True)
class Font:
    """The three inherited properties that choose a face."""

    family: str = ""
    weight: int = 400
    style: str = "normal"


def _weight(value: str) -> int | None:
    value = value.strip().lower()
    if value in {"normal", "bold"}:
        return 400 if value == "normal" else 700
    return int(value) if value.isdigit() else None


def _first_family(value: str) -> str:
    return value.split(",")[0].strip().strip("'\"")


def _declarations(block: str) -> dict[str, str]:
    pairs = (item.split(":", 1) for item in block.split(";") if ":" in item)
    return {name.strip().lower(): value.strip() for name, value in pairs}


def _font_shorthand(value: str) -> dict[str, str]:
    """``font: [style] [weight] size[/line-height] family``: the parts that choose a face."""
    words = value.split()
    result = {"font-style": "normal", "font-weight": "normal"}
    for index, word in enumerate(words):
        if word in {"italic", "oblique"}:
            result["font-style"] = word
        elif _weight(word) is not None and word != "normal":
            result["font-weight"] = word
        elif word[0].isdigit() or word[0] == ".":  # the size: the family follows
            result["font-family"] = " ".join(words[index + 1 :])
            break
    return result


@dataclass(frozen=True)
class _Selector:
    """A selector of tag and class compounds joined by descendant or ``>`` combinators."""

    compounds: tuple[tuple[str | None, frozenset[str]], ...]
    child: tuple[bool, ...]  # child[i]: compound i+1 is a child (not a descendant) of i

    @classmethod
    def parse(cls, text: str) -> _Selector | None:
        tokens = text.replace(">", " > ").split()
        compounds: list[tuple[str | None, frozenset[str]]] = []
        child: list[bool] = []
        pending_child = False
        for token in tokens:
            if token == ">":
                pending_child = True
                continue
            match = _COMPOUND.match(token)
            if not match:  # pseudo-classes, attributes: never a face KaTeX draws text with
                return None
            tag, classes = match.groups()
            if compounds:
                child.append(pending_child)
            compounds.append((tag, frozenset(filter(None, classes.split(".")))))
            pending_child = False
        return cls(tuple(compounds), tuple(child)) if compounds else None

    @property
    def specificity(self) -> tuple[int, int]:
        classes = sum(len(classes) for _, classes in self.compounds)
        return (classes, sum(tag is not None for tag, _ in self.compounds))

    def matches(self, chain: list[tuple[str, frozenset[str]]]) -> bool:
        """Whether the last element of ``chain`` (root first) matches."""

        def fits(compound: tuple[str | None, frozenset[str]], element: tuple[str, frozenset[str]]):
            tag, classes = compound
            return (tag is None or tag == element[0]) and classes <= element[1]

        def walk(compound_index: int, element_index: int) -> bool:
            if not fits(self.compounds[compound_index], chain[element_index]):
                return False
            if compound_index == 0:
                return True
            if self.child[compound_index - 1]:
                return element_index > 0 and walk(compound_index - 1, element_index - 1)
            return any(walk(compound_index - 1, i) for i in range(element_index - 1, -1, -1))

        return walk(len(self.compounds) - 1, len(chain) - 1)


_Rule = tuple[int, _Selector, dict[str, str]]  # (cascade rank, selector, declarations)
_Element = tuple[str, frozenset[str]]  # (tag, classes)


@dataclass
class FontFaces:
    """What a stylesheet says about fonts: its faces, and the rules that pick them."""

    faces: dict[Font, str] = field(default_factory=dict)  # Font -> woff2 file name
    #: Rules by one class (or else the tag) their last compound requires: an element
    #: is only tried against the rules under its own classes and tag.
    rules_by_key: dict[str, list[_Rule]] = field(default_factory=dict)
    _files: dict[Font, str | None] = field(default_factory=dict)
    #: The font of each nesting met so far, by number (0: the root's default font).
    state_fonts: list[Font] = field(default_factory=lambda: [Font()])
    _states: dict[tuple[int, str, frozenset[str]], int] = field(default_factory=dict)
    _classes: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def from_css(cls, css: str) -> FontFaces:
        css = _COMMENTS.sub("", css)
        result = cls()
        for block in _FONT_FACE.findall(css):
            declarations = _declarations(block)
            url = _FONT_URL.search(declarations.get("src", ""))
            if url and "font-family" in declarations:
                font = Font(
                    _first_family(declarations["font-family"]),
                    _weight(declarations.get("font-weight", "400")) or 400,
                    declarations.get("font-style", "normal"),
                )
                result.faces[font] = url.group(1)
        rules = []
        for order, (selectors, block) in enumerate(_RULE.findall(_FONT_FACE.sub("", css))):
            declarations = _declarations(block)
            if "font" in declarations:
                declarations = {**_font_shorthand(declarations.pop("font")), **declarations}
            chosen = {k: v for k, v in declarations.items() if k in _FONT_PROPERTIES}
            if not chosen:
                continue
            for text in selectors.split(","):
                selector = _Selector.parse(text.strip())
                if selector:
                    rules.append((selector.specificity, order, selector, chosen))
        rules.sort(key=lambda rule: rule[:2])  # the cascade: specificity, then source order
        for rank, (_specificity, _order, selector, chosen) in enumerate(rules):
            tag, classes = selector.compounds[-1]
            key = min(classes) if classes else f"<{tag}>"
            result.rules_by_key.setdefault(key, []).append((rank, selector, chosen))
        return result

    def state(self, parent: int, element: _Element, chain: list[_Element]) -> int:
        """The number of ``element`` nested in state ``parent``; ``chain`` ends with it.

        KaTeX repeats the same few nestings thousands of times: each is worked out once.
        """
        key = (parent, *element)
        number = self._states.get(key)
        if number is None:
            number = self._states[key] = len(self.state_fonts)
            self.state_fonts.append(self._cascade(chain, self.state_fonts[parent]))
        return number

    def classes_of(self, attributes: str) -> frozenset[str]:
        """The classes in a start tag's attributes (read once per distinct string)."""
        classes = self._classes.get(attributes)
        if classes is None:
            found = _CLASS.search(attributes)
            names = (found.group(1) or found.group(2) or "") if found else ""
            classes = self._classes[attributes] = frozenset(names.split())
        return classes

    def _cascade(self, chain: list[_Element], inherited: Font) -> Font:
        tag, classes = chain[-1]
        candidates = [rule for key in classes for rule in self.rules_by_key.get(key, ())]
        candidates += self.rules_by_key.get(f"<{tag}>", ())
        if not candidates:
            return inherited
        family, weight, style = inherited.family, inherited.weight, inherited.style
        for _rank, selector, declarations in sorted(candidates, key=lambda rule: rule[0]):
            if not selector.matches(chain):
                continue
            if "font-family" in declarations:
                family = _first_family(declarations["font-family"])
            if "font-weight" in declarations:
                weight = _weight(declarations["font-weight"]) or weight
            if "font-style" in declarations:
                style = declarations["font-style"]
        return Font(family, weight, style)

    def file_for(self, font: Font) -> str | None:
        """The face a browser picks (CSS font matching: style first, then weight)."""
        if font not in self._files:
            self._files[font] = self._match(font)
        return self._files[font]

    def _match(self, font: Font) -> str | None:
        candidates = [face for face in self.faces if face.family == font.family]
        if not candidates:
            return None
        slanted = font.style in {"italic", "oblique"}
        same_style = [f for f in candidates if (f.style in {"italic", "oblique"}) == slanted]
        candidates = same_style or candidates
        heavier = font.weight > 500

        def distance(face: Font) -> tuple[int, int]:
            wrong_side = (face.weight < font.weight) if heavier else (face.weight > font.weight)
            return (wrong_side, abs(face.weight - font.weight))

        return self.faces[min(candidates, key=distance)]


#: KaTeX's MathML and its TeX annotation: read by screen readers, never drawn.
_MATHML = re.compile(r"<math\b.*?</math>", re.S)
#: A tag (end tag, start tag, self-closing tag) or a run of text. KaTeX writes
#: well-formed markup with quoted attributes, which a regular expression reads
#: many times faster than html.parser.
_TOKEN = re.compile(r"<(/?)([a-zA-Z][\w-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>|([^<]+)")
_CLASS = re.compile(r"\bclass\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")


def characters_by_font(markup: str, faces: FontFaces, into: dict[str, set[str]]) -> None:
    """Add the characters ``markup`` draws to ``into``, keyed by font file name.

    Each open element is a small integer naming its nesting (its parent's number,
    its tag, its classes), so an element KaTeX has nested that way before costs a
    dictionary lookup, not a cascade: about 40 elements a formula, 1,000 formulas
    a large site.
    """
    chain: list[_Element] = []  # open elements, root first
    states = [0]  # their nestings' numbers; 0 is the markup's root
    for closing, tag, attributes, text in _TOKEN.findall(_MATHML.sub("", markup)):
        if text:
            font_file = faces.file_for(faces.state_fonts[states[-1]])
            if font_file:
                into.setdefault(font_file, set()).update(
                    html.unescape(text) if "&" in text else text
                )
        elif closing:
            tag = tag.lower()
            if chain and chain[-1][0] == tag:  # KaTeX's markup is well formed
                chain.pop()
                states.pop()
            elif any(open_tag == tag for open_tag, _ in chain):
                while chain.pop()[0] != tag:
                    states.pop()
                states.pop()
        elif not attributes.rstrip().endswith("/"):  # a void <path/> holds no text
            element = (tag.lower(), faces.classes_of(attributes))
            chain.append(element)
            states.append(faces.state(states[-1], element, chain))


def drawn_characters(markup: str, faces: FontFaces) -> set[str]:
    """Every character ``markup`` draws with one of the faces, whatever the face."""
    found: dict[str, set[str]] = {}
    characters_by_font(markup, faces, found)
    return set().union(*found.values())


def _subset_one(font_path: Path, characters: set[str]) -> bytes:
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.notdef_outline = True
    # TrueType instructions are half of a small subset's bytes (KaTeX's fonts are
    # autohinted), and no renderer a reader uses needs them: Chrome on Linux and
    # Android applies FreeType's own light hinting, macOS and iOS do not hint.
    options.hinting = False
    # KaTeX's TrueType files date themselves 1970, which fontTools would print for each.
    head_log = logging.getLogger("fontTools.ttLib.tables._h_e_a_d")
    level = head_log.level
    head_log.setLevel(logging.ERROR)
    try:
        font = subset.load_font(str(font_path), options)
        font["head"]  # the table is read lazily: read it while the log is quiet
    finally:
        head_log.setLevel(level)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters])
    subsetter.subset(font)
    buffer = BytesIO()
    subset.save_font(font, buffer, options)
    return buffer.getvalue()


def without_unused_faces(css: str, used: set[str]) -> str:
    """The stylesheet without the ``@font-face`` rules of fonts outside ``used``."""

    def keep(rule: re.Match[str]) -> str:
        url = _FONT_URL.search(rule.group(1))
        return rule.group(0) if url is None or url.group(1) in used else ""

    return _FONT_FACE.sub(keep, css)


def subset_font(font_path: Path, characters: str) -> bytes:
    """``font_path`` as woff2, cut to ``characters`` (and the space, which the
    shaper draws for an invisible character the font lacks, KaTeX's U+200B:
    without it Chromium draws none at all). Run in a worker process."""
    return _subset_one(font_path, set(characters) | {" "})


@functools.cache
def katex_faces() -> FontFaces:
    css = (KATEX.folder / KATEX.stylesheet).read_text(encoding="utf-8")
    return FontFaces.from_css(LEGACY_FONT_SOURCES.sub("", css))


def katex_characters(markup: str) -> dict[str, str]:
    """What KaTeX's ``markup`` draws, by font file: each font's characters, sorted."""
    found: dict[str, set[str]] = {}
    characters_by_font(markup, katex_faces(), found)
    return {font: "".join(sorted(drawn)) for font, drawn in found.items()}
