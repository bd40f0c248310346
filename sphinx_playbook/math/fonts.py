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

import hashlib
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

STAMP = ".subset-of"

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
        compounds, child, pending_child = [], [], False
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


@dataclass
class FontFaces:
    """What a stylesheet says about fonts: its faces, and the rules that pick them."""

    faces: dict[Font, str] = field(default_factory=dict)  # Font -> woff2 file name
    rules: list[tuple[tuple[int, int], int, _Selector, dict[str, str]]] = field(
        default_factory=list
    )

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
                    result.rules.append((selector.specificity, order, selector, chosen))
        result.rules.sort(key=lambda rule: rule[:2])
        return result

    def computed(self, chain: list[tuple[str, frozenset[str]]], inherited: Font) -> Font:
        family, weight, style = inherited.family, inherited.weight, inherited.style
        for _specificity, _order, selector, declarations in self.rules:
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


class _DrawnText(HTMLParser):
    """Collects each drawn character under the font file that draws it."""

    def __init__(self, faces: FontFaces, characters: dict[str, set[str]]) -> None:
        super().__init__(convert_charrefs=True)
        self.faces = faces
        self.characters = characters
        self._chain: list[tuple[str, frozenset[str]]] = []
        self._fonts: list[Font] = [Font()]
        self._in_mathml = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "math":
            self._in_mathml += 1
        classes = frozenset((dict(attrs).get("class") or "").split())
        self._chain.append((tag, classes))
        self._fonts.append(self.faces.computed(self._chain, self._fonts[-1]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass  # a void element (<path/>, <line/>) holds no text

    def handle_endtag(self, tag: str) -> None:
        if all(open_tag != tag for open_tag, _ in self._chain):
            return
        while self._chain:
            open_tag, _ = self._chain.pop()
            self._fonts.pop()
            if open_tag == "math" and self._in_mathml:
                self._in_mathml -= 1
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._in_mathml:
            return
        font_file = self.faces.file_for(self._fonts[-1])
        if font_file:
            self.characters.setdefault(font_file, set()).update(data)


def characters_by_font(markup: str, faces: FontFaces, into: dict[str, set[str]]) -> None:
    """Add the characters ``markup`` draws to ``into``, keyed by font file name."""
    parser = _DrawnText(faces, into)
    parser.feed(markup)
    parser.close()


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
    font = subset.load_font(str(font_path), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters])
    subsetter.subset(font)
    buffer = BytesIO()
    subset.save_font(font, buffer, options)
    return buffer.getvalue()


def subset_fonts(source: Path, target: Path, characters: dict[str, set[str]]) -> None:
    """Write each woff2 font of ``source`` to ``target``, keeping only its own characters.

    A stamp file records each font's character set; an unchanged font costs nothing.
    """
    from fontTools import version

    stamp_file = target / STAMP
    try:
        stamps = json.loads(stamp_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamps = {}
    target.mkdir(parents=True, exist_ok=True)
    for font_path in sorted(source.glob("*.woff2")):
        kept = characters.get(font_path.name, set())
        if kept:
            # The shaper draws an invisible character the font lacks (KaTeX's U+200B)
            # with the font's space glyph: keep it, or Chromium draws none at all.
            kept = kept | {" "}
        text = "".join(sorted(kept))
        stamp = hashlib.sha256(f"{version}\n{text}".encode()).hexdigest()
        output = target / font_path.name
        if stamps.get(font_path.name) == stamp and output.is_file():
            continue
        output.write_bytes(_subset_one(font_path, kept))
        stamps[font_path.name] = stamp
    stamp_file.write_text(json.dumps(stamps, sort_keys=True, indent=0), encoding="utf-8")
