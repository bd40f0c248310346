"""An ``<img>`` written in raw HTML gets what an image of the page's own markup gets.

Raw HTML reaches the page as it is: an ``<img>`` there had no ``width``/``height``
(the text below it jumps when it arrives), no ``loading="lazy"`` (it loads with the
page, however far down), no smaller copies (a phone takes the author's PNG whole),
and a fixed ``width: 1200px; max-width: none`` that pushes it off a phone's screen.
An article imported from Distill keeps many (figures inside styled ``<div>``s), and
authors write them by hand.

Under this theme, while the page is read (after ``RawHtmlForPaper`` read the block
whole, before Sphinx's ImageCollector registers images), each such ``<img>`` whose
file is local (beside the page, or in an ``html_extra_path`` folder, as the browser
finds it) becomes an image node between the two halves of the raw HTML, for HTML
builders only: Sphinx copies it, and images.py and delivery/responsive_images.py
write it with its size, lazy loading and ``srcset``. Its width (a ``width``
attribute or a pixel ``width`` in its style) becomes the image's width; the theme
keeps every image within its column, so a ``max-width: none`` is dropped. An
``<img>`` with anything else (other attributes or declarations, a remote file, one
inside the author's own ``<picture>`` or a paragraph's raw text) stays as written.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from .csp import HTML_ATTRIBUTE, HTML_TOKEN, attribute_value, split_declarations
from .machinery import priorities
from .machinery.state import build_facts, builder_of

#: The attributes an image node says as well (``decoding`` is always async).
_KNOWN_ATTRIBUTES = {"src", "alt", "width", "height", "class", "style", "loading", "decoding"}
#: What a browser shows in ``<img>``.
_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".bmp")
#: A length an image node takes: pixels (unit optional) or, for the width, a percentage.
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$", re.IGNORECASE)


def _length(value: str, percent: bool) -> str | None:
    match = _LENGTH.match(value)
    if match is None or (match.group(2) == "%" and not percent):
        return None
    return match.group(1) + (match.group(2) or "px").lower()


def local_file(env: Any, config: Any, source: str) -> str | None:
    """The file of ``source`` as a Sphinx image URI (from the source folder), found
    as the browser finds it: beside the page, or in an ``html_extra_path`` folder."""
    parts = urlsplit(source)
    if not parts.path or parts.scheme or parts.netloc:
        return None
    path = unquote(parts.path)
    srcdir = Path(env.srcdir).resolve()
    page_folder = PurePosixPath(env.docname).parent
    relative = path.lstrip("/") if path.startswith("/") else str(page_folder / path)
    builder = builder_of(env)
    confdir = Path(builder.confdir if builder is not None else srcdir)
    folders = [srcdir, *((confdir / extra).resolve() for extra in config.html_extra_path)]
    for folder in folders:
        found = (folder / relative).resolve()
        if found.is_file() and found.is_relative_to(srcdir):
            return "/" + found.relative_to(srcdir).as_posix()
    return None


def image_of(attrs: str, env: Any, config: Any) -> nodes.image | None:
    """The image node an ``<img>`` start tag's attributes say, or None to keep it."""
    found: dict[str, str] = {}
    for match in HTML_ATTRIBUTE.finditer(attrs):
        name = match.group("name").lower()
        if name == "/":
            continue
        if name not in _KNOWN_ATTRIBUTES or name in found:
            return None
        value = match.group("value")
        found[name] = attribute_value(value) if value is not None else ""
    source = found.get("src", "").strip()
    if not source.lower().split("?")[0].endswith(_SUFFIXES):
        return None
    uri = local_file(env, config, source)
    if uri is None:
        return None
    options: dict[str, Any] = {"uri": uri, "alt": found.get("alt", "")}
    for name in ("width", "height"):
        if name in found:
            length = _length(found[name], percent=name == "width")
            if length is None:
                return None
            options[name] = length
    declarations = split_declarations(found["style"]) if "style" in found else []
    if declarations is None:
        return None
    for declaration in declarations:
        name, _, value = (part.strip().lower() for part in declaration.partition(":"))
        if name == "max-width" and value in ("none", "100%"):
            continue  # the theme keeps every image within its column
        length = _length(value, percent=name == "width") if name in ("width", "height") else None
        if length is None:
            return None
        options[name] = length
    image = nodes.image(**options)
    # Not a link to its file (html_scaled_image_link): the raw HTML may hold it in one.
    image["classes"] = [*found.get("class", "").split(), "no-scaled-link"]
    if found.get("loading", "").lower() == "eager":
        image["loading"] = "eager"
    return image


class RawHtmlImages(SphinxTransform):
    """Under this theme, each local ``<img>`` of a block of raw HTML becomes an image
    node (HTML builders only) between the raw HTML before and after it."""

    default_priority = priorities.RAW_HTML_IMAGES

    def apply(self, **kwargs: Any) -> None:
        if not build_facts(self.env).playbook_theme:
            return
        for raw in list(self.document.findall(nodes.raw)):
            if "html" not in raw.get("format", "").split() or isinstance(
                raw.parent, nodes.TextElement
            ):
                continue
            pieces = self._split(raw)
            if pieces != [raw]:
                raw.replace_self(pieces)

    def _split(self, raw: nodes.raw) -> list[nodes.Node]:
        text = raw.astext()
        pieces: list[nodes.Node] = []
        start = 0

        def located(node: nodes.Element) -> nodes.Element:
            node.source, node.line = raw.source, raw.line
            return node

        for match in HTML_TOKEN.finditer(text):
            tag = match.group("tag")
            if tag is None or tag.lower() != "<img":
                continue
            before_tag = text[: match.start()].lower()
            if before_tag.count("<picture") > before_tag.count("</picture"):
                continue  # the author's own <picture> chooses among its sources
            image = image_of(match.group("attrs"), self.env, self.config)
            if image is None:
                continue
            before = text[start : match.start()]
            if before.strip():
                pieces.append(located(nodes.raw("", before, format=raw["format"])))
            pieces.append(located(addnodes.only("", located(image), expr="html")))
            start = match.end()
        if not pieces:
            return [raw]
        after = text[start:]
        if after.strip():
            pieces.append(located(nodes.raw("", after, format=raw["format"])))
        return pieces
