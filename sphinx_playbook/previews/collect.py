"""Read phase: what a hover card shows of each target a page holds.

Kept with the page in the environment (purged when it is read again), so that a
page written later shows another page's targets without unpickling its doctree;
what they show is noted in the registry (:func:`..machinery.registry.note_page_fact`,
kind ``cards``), so that editing a legend or a first paragraph writes again every
page whose cards show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.images import get_image_size

from ..config import read_config
from ..machinery.registry import Shown, note_page_fact
from ..machinery.state import PageStore
from ..metadata import page_metadata
from ..other_extensions import left_to_another

#: How many body rows of a table its card shows.
TABLE_ROWS = 3

#: The node types a card keeps as they are (exact types: a subclass may have a
#: visitor of its own); other inline nodes keep their text, other blocks go.
_KEEP: tuple[type[nodes.Node], ...] = (
    nodes.paragraph,
    nodes.emphasis,
    nodes.strong,
    nodes.literal,
    nodes.math,
    nodes.math_block,
    nodes.inline,
    nodes.subscript,
    nodes.superscript,
    nodes.title_reference,
    nodes.abbreviation,
    nodes.image,
    nodes.table,
    nodes.tgroup,
    nodes.colspec,
    nodes.thead,
    nodes.tbody,
    nodes.row,
    nodes.entry,
    nodes.bullet_list,
    nodes.enumerated_list,
    nodes.list_item,
)
#: Nodes a card leaves out: targets, notes and what is not text.
_DROP: tuple[type[nodes.Node], ...] = (
    nodes.target,
    nodes.footnote_reference,
    nodes.citation_reference,
    nodes.substitution_definition,
    nodes.comment,
    nodes.system_message,
    nodes.raw,
    addnodes.index,
)


@dataclass(frozen=True)
class Preview:
    """One target's card: its kind, the id its number is filed under, what it shows."""

    kind: str  # figure, table, equation, section, page
    node_id: str
    content: nodes.container
    #: The equation's label (its number is the math domain's).
    label: str = ""


#: Each page's previews by anchor (every id of the target); "" is the page itself.
PREVIEWS: PageStore[dict[str, Preview]] = PageStore("previews")


def _clean(node: nodes.Node) -> list[nodes.Node]:
    """A copy fit for a card: no ids (they are the target's), no links, no notes."""
    if isinstance(node, nodes.Text):
        return [nodes.Text(str(node))]
    if isinstance(node, _DROP) or not isinstance(node, nodes.Element):
        return []
    children = [copy for child in node.children for copy in _clean(child)]
    if type(node) in _KEEP:
        copy = node.copy()
        for name in ("ids", "names", "dupnames", "backrefs"):
            copy[name] = []
        copy["classes"] = list(node["classes"])
        copy.extend(children)
        return [copy]
    if isinstance(node, nodes.Inline | nodes.TextElement):
        return [nodes.inline("", "", *children)]
    return []


def _paragraph(node: nodes.Element | None, css_class: str = "") -> list[nodes.Node]:
    if node is None:
        return []
    paragraph = nodes.paragraph("", "", classes=[css_class] if css_class else [])
    paragraph.extend(child for c in node.children for child in _clean(c))
    return [paragraph]


def _first_paragraph(section: nodes.Element) -> nodes.paragraph | None:
    return next((c for c in section.children if isinstance(c, nodes.paragraph)), None)


def _image(figure: nodes.figure) -> list[nodes.Node]:
    image = next(figure.findall(nodes.image), None)
    if image is None:
        return []
    copy = nodes.image("", uri=image["uri"], candidates=dict(image.get("candidates", {})), alt="")
    copy["classes"] = ["pb-preview__image"]
    return [copy]


def _figure(figure: nodes.figure) -> nodes.container:
    content = nodes.container()
    content.extend(_image(figure))
    content.extend(_paragraph(next(figure.findall(nodes.caption), None), "pb-preview__caption"))
    legend = next(figure.findall(nodes.legend), None)
    if legend is not None:
        content.extend(child for c in legend.children for child in _clean(c))
    return content


def _table(table: nodes.table) -> nodes.container:
    content = nodes.container()
    title = next((c for c in table.children if isinstance(c, nodes.title)), None)
    content.extend(_paragraph(title, "pb-preview__caption"))
    copy = table.copy()
    copy["ids"], copy["names"], copy["classes"] = [], [], ["pb-preview__table"]
    for child in table.children:
        if isinstance(child, nodes.tgroup):
            copy.extend(_clean(child))
    for body in copy.findall(nodes.tbody):
        del body.children[TABLE_ROWS:]
    content += copy
    return content


def _equation(block: nodes.math_block) -> nodes.container:
    content = nodes.container()
    copy = cast(nodes.math_block, _clean(block)[0])
    copy["number"] = None
    copy["label"] = None
    content += copy
    return content


def _section(section: nodes.section) -> nodes.container:
    content = nodes.container()
    title = section[0] if section.children and isinstance(section[0], nodes.title) else None
    content.extend(_paragraph(title, "pb-card__title"))
    content.extend(_paragraph(_first_paragraph(section)))
    return content


def _page(app: Sphinx, doctree: nodes.document) -> nodes.container | None:
    top = next((c for c in doctree.children if isinstance(c, nodes.section)), None)
    if top is None:
        return None
    content = _section(top)
    description = page_metadata(app.env, app.env.docname).description
    if description:
        del content.children[1:]
        content += nodes.paragraph("", description)
    return content


def page_previews(app: Sphinx, doctree: nodes.document) -> dict[str, Preview]:
    """The previews of every target a page holds, by each of the target's ids."""
    previews: dict[str, Preview] = {}

    def add(node: nodes.Element, preview: Preview) -> None:
        for node_id in node["ids"]:
            previews.setdefault(node_id, preview)

    for figure in doctree.findall(nodes.figure):
        if figure["ids"]:
            add(figure, Preview("figure", figure["ids"][0], _figure(figure)))
    for table in doctree.findall(nodes.table):
        if table["ids"]:
            add(table, Preview("table", table["ids"][0], _table(table)))
    for block in doctree.findall(nodes.math_block):
        if block["ids"] and block.get("label"):
            add(block, Preview("equation", block["ids"][0], _equation(block), block["label"]))
    for section in doctree.findall(nodes.section):
        if section["ids"]:
            add(section, Preview("section", section["ids"][0], _section(section)))
    page = _page(app, doctree)
    if page is not None:
        previews[""] = Preview("page", "", page)
    return previews


def _shown(app: Sphinx, previews: dict[str, Preview]) -> list[tuple]:
    """What the cards show: their content, and the size of their images."""
    shown = []
    for anchor, preview in sorted(previews.items()):
        sizes = [
            get_image_size(app.srcdir / image["uri"])
            for image in preview.content.findall(nodes.image)
            if "://" not in image["uri"]
        ]
        shown.append((anchor, preview.kind, preview.node_id, preview.content.pformat(), sizes))
    return shown


def collect_previews(app: Sphinx, doctree: nodes.document) -> None:
    if not read_config(app.config).ref_previews or left_to_another(app.env, "sphinx_tippy"):
        return
    previews = page_previews(app, doctree)
    PREVIEWS.of(app.env)[app.env.docname] = previews
    note_page_fact(app.env, app.env.docname, Shown.CARDS, _shown(app, previews))
