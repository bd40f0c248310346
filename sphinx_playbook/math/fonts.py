"""KaTeX's webfonts cut down to the glyphs the site's formulas use (fontTools).

KaTeX ships 20 fonts (268 KB); a page downloads those its formulas draw with.
Every font is subset to the characters of every formula on the site, so any
page finds its glyphs in the cut-down files and the files stay shared (and
cached by the browser) across pages. The HTML part of KaTeX's output holds the
drawn characters; the MathML part and its TeX annotation are not drawn.
"""

from __future__ import annotations

import hashlib
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

STAMP = ".subset-of"


class _DrawnText(HTMLParser):
    """Collects the text KaTeX draws: everything outside ``<math>`` elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.characters: set[str] = set()
        self._in_mathml = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "math":
            self._in_mathml += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "math" and self._in_mathml:
            self._in_mathml -= 1

    def handle_data(self, data: str) -> None:
        if not self._in_mathml:
            self.characters.update(data)


def drawn_characters(markup: str) -> set[str]:
    parser = _DrawnText()
    parser.feed(markup)
    parser.close()
    return parser.characters


def subset_fonts(source: Path, target: Path, characters: set[str]) -> None:
    """Write each woff2 font of ``source`` to ``target``, keeping only ``characters``.

    A stamp file records the character set; an unchanged set costs nothing.
    """
    from fontTools import subset, version

    text = "".join(sorted(characters))
    fonts = sorted(source.glob("*.woff2"))
    stamp = hashlib.sha256(f"{version}\n{text}".encode()).hexdigest()
    stamp_file = target / STAMP
    if (
        stamp_file.is_file()
        and stamp_file.read_text(encoding="utf-8") == stamp
        and all((target / font.name).is_file() for font in fonts)
    ):
        return
    target.mkdir(parents=True, exist_ok=True)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.notdef_outline = True
    unicodes = [ord(c) for c in text]
    for font_path in fonts:
        font = subset.load_font(str(font_path), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=unicodes)
        subsetter.subset(font)
        buffer = BytesIO()
        subset.save_font(font, buffer, options)
        (target / font_path.name).write_bytes(buffer.getvalue())
    stamp_file.write_text(stamp, encoding="utf-8")
