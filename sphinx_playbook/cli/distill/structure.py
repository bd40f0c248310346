"""The article's structure: headings, the title block, the appendix, containers.

Containers (``div``, ``section``, ``d-figure``...) become what they hold: a grid, a
note, a layout, or their children in place; an element a script needs keeps its tags.
"""

from __future__ import annotations

import copy
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

from bs4 import Tag
from docutils.nodes import make_id

from . import markdown as md
from .context import Context, words
from .elements import (
    HEADINGS,
    NOTE_CLASSES,
    attr_html,
    attributes_html,
    classes_of,
    style_of,
)
from .figures import fragment, grid
from .layout import layout_directive, layout_of, layout_wrap
from .math import eq_grid
from .scripted import raw_block, scripted, shell
from .source import attr_value

# -- headings and the title block -------------------------------------------------------

#: Controls a heading may hold, written after it (not in the table of contents).
HEADING_CONTROLS = ["button", "input", "select", "textarea"]


def heading(cx: Context, node: Tag) -> str:
    """A heading: a section title (at most one level below the one before), a rubric
    inside a directive."""
    level = HEADINGS[node.name]
    controls = node.find_all(HEADING_CONTROLS)
    anchors = [element for element in node.find_all(id=True) if element not in controls]
    shown = node
    if controls or anchors:
        # The table of contents copies the heading's text: a button in it ("+" opening
        # a section) stands right after the heading, and an id inside it
        # (<span id="x">) becomes a label of the heading, so neither is written twice.
        shown = copy.copy(node)
        for control in shown.find_all(HEADING_CONTROLS):
            control.decompose()
        for element in shown.find_all(id=True):
            del element["id"]
    anchor_labels = "".join(cx.label(element) for element in anchors)
    text = cx.inline(shown.children).strip().replace("\\\n", " ")
    kept = {k: v for k, v in node.attrs.items() if k != "id"}
    if text and kept and cx.behaviour.addressed(node):
        # A heading that toggles a section (onclick) or that the CSS styles by a class:
        # its attributes on a span around its text (the heading stays a heading).
        cx.report.doubt(
            f"<{node.name}>",
            node.sourceline,
            "the article's CSS or JS addresses the heading: its attributes are on a "
            "<span> around its text",
        )
        attributes = "".join(f' {k}="{attr_html(v)}"' for k, v in kept.items())
        text = f"<span{attributes}>{text}</span>"
        cx.addressed_as_markdown.add(id(node))
    label = anchor_labels + _unique_heading_id(cx, node, _heading_label(cx, node))
    if not text:
        cx.report.doubt(f"<{node.name}>", node.sourceline, "an empty heading is left out")
        return label.rstrip("\n") if label else ""
    cx.report.done("heading")
    _same_name_as_the_bibliography(cx, node)
    if cx.nesting:
        cx.report.doubt(
            "heading", node.sourceline, "a heading inside a block is written as a rubric"
        )
        return label + md.directive("rubric", text, {}, "") + _controls_after(cx, node, controls)
    wanted = max(level, 2)
    written = min(wanted, cx.heading_level + 1)
    if written != wanted:
        cx.report.doubt(
            "heading",
            node.sourceline,
            f"<{node.name}> follows a heading two levels up; written one level down",
        )
    cx.heading_level = written
    return label + "#" * written + " " + text + _controls_after(cx, node, controls)


#: What the theme's appendix calls the list of the works an article cites.
BIBLIOGRAPHY_HEADINGS = frozenset({"references", "bibliography"})


def _same_name_as_the_bibliography(cx: Context, node: Tag) -> None:
    """A section of the article named like the appendix's list of cited works (the
    Ultra-Scale Playbook's "References", a reading list): its text is the article's
    own, so it is kept, and the report says the page has two sections of that name."""
    plain = " ".join(node.get_text().split()).rstrip(":")
    if not cx.article.bibtex or plain.lower() not in BIBLIOGRAPHY_HEADINGS:
        return
    cx.report.doubt(
        "heading",
        node.sourceline,
        f"the article's own section {plain!r} is kept (its text is the article's), and "
        "the appendix lists the works the article cites under 'References' too: "
        "rename the article's section (e.g. 'Further reading') so readers tell them apart",
    )


def _controls_after(cx: Context, node: Tag, controls: list[Tag]) -> str:
    if not controls:
        return ""
    cx.report.doubt(
        f"<{node.name}>",
        node.sourceline,
        f"{len(controls)} control(s) in the heading ({', '.join(c.name for c in controls)}) "
        "stand right after it, so the table of contents does not copy them",
    )
    for control in controls:
        cx.assets.referenced_by(control)
    return "\n\n" + raw_block("\n".join(str(control) for control in controls))


def _heading_label(cx: Context, node: Tag) -> str:
    """The heading's label: its id, or the target of a link the original resolved by
    the heading's text (#mixed_precision_training), when no other heading says it."""
    label = cx.label(node)
    plain = " ".join(node.get_text().split())
    target = cx.broken_targets.get(words(plain)) if words(plain) else None
    if target and cx.headings_by_words[words(plain)] == 1:
        name = label[1:-3] if label else make_id(target)
        if not label and name not in cx.labels:
            cx.labels.add(name)
            label = f"({name})=\n"
        cx.aliases[target] = (name, plain)
    return label


def _unique_heading_id(cx: Context, node: Tag, label: str) -> str:
    """The heading's label, as MyST's ``{#id}`` when the id Sphinx makes of the heading's
    text is an id of the article (``<div id="alignment">`` after "Alignment"): then the
    section takes that id only, and no two elements of the page share one."""
    generated = make_id(" ".join(node.get_text().split()))
    own = attr_value(node, "id")
    if not generated or generated == own or generated not in cx.behaviour.article_ids:
        return label
    if label:
        name = label[1:-3]
    else:
        base = name = f"{generated}-section"
        number = 1
        while name in cx.behaviour.article_ids or name in cx.labels:
            number += 1
            name = f"{base}-{number}"
        cx.labels.add(name)
    cx.report.doubt(
        "heading",
        node.sourceline,
        f"the id Sphinx makes of the heading's text, {generated!r}, is an id of the "
        f"article: the heading's id is {name!r}",
    )
    return f"{{#{name}}}\n"


def title(cx: Context, element: Tag) -> list[str]:
    """d-title: what the reader sees wins. Its h1 is the title, the paragraph (or v1's
    h2) right after it the subtitle; the rest (a teaser figure...) stays as blocks."""
    cx.report.done(element.name)
    h1 = element.find("h1")
    if h1 is not None and h1.find([*HEADINGS, "p", "div", "ul", "ol", "pre"]):
        # An unclosed <h1> swallowed the article (as in a browser): not a title.
        cx.report.doubt(
            "title block", h1.sourceline, "the <h1> is never closed; its text is not the title"
        )
        return cx.blocks(h1.children)
    rest = [c for c in element.children if c is not h1]
    tags = [c for c in rest if isinstance(c, Tag) and c.name not in {"script", "style"}]
    first = tags[0] if tags else None
    if (
        first is not None
        and first.name in {"p", "h2"}
        and first.get_text().strip()
        and not first.find(["a", "d-math", "dt-math", "d-cite", "dt-cite", "img", "script"])
    ):
        cx.description = " ".join(first.get_text().split())
        rest = [c for c in rest if c is not first]
    blocks = cx.blocks(rest)
    if h1 is not None and not cx.heading_title:
        cx.heading_title = _title_text(cx, h1)
    return blocks


def _title_text(cx: Context, h1: Tag) -> str:
    """The title's text, a line break (``<br>``) read as a space: the title is one line
    of text wherever it goes (the page's ``<title>``, the citation, the BibTeX, the
    PDF's title and metadata), as the article's own citation and front matter write it.
    On the page the title wraps where the width makes it."""
    shown = copy.copy(h1)
    breaks = shown.find_all("br")
    for line_break in breaks:
        line_break.replace_with(" ")
    if breaks:
        cx.report.doubt(
            "title block",
            h1.sourceline,
            "a line break (<br>) in the title is written as a space: the title is one "
            "line in the page's <title>, the citation and the PDF; the page wraps it",
        )
    return " ".join(shown.get_text().split())


def title_block(cx: Context, node: Tag) -> str:
    return "\n\n".join(title(cx, node))


def appendix(cx: Context, element: Tag) -> list[str]:
    """d-appendix: an ``appendix`` directive, its headings from level 2. The article's
    own "Citation" section is left out: the theme's appendix writes that block."""
    cx.report.done("d-appendix")
    saved = cx.heading_level
    cx.heading_level = 2
    inner = "\n\n".join(cx.blocks(_without_citation_block(cx, list(element.children))))
    cx.heading_level = saved
    if not inner.strip():
        return []
    return [md.directive("appendix", "", {}, inner)]


#: Headings of the section where Distill articles write how to cite them.
CITATION_HEADINGS = frozenset({"citation", "citations", "cite this article", "how to cite"})
_CITATION_WORDS = re.compile(r"\b(cite|citation|bibtex)\b", re.IGNORECASE)


def _without_citation_block(cx: Context, children: list[Any]) -> list[Any]:
    """The appendix's children without the article's "cite this article" section.

    The theme's appendix has a "Citation" part made from the front matter (the same
    short citation, a BibTeX entry), so the article's own section would print the
    citation twice. A section is the article's citation block when it holds
    ``<pre class="citation">``; its preformatted citations and the lines that
    introduce them are left out (the import report says so, naming the article's
    BibTeX key); anything else in it (a licence, a note) is kept.
    """
    headings = [
        index
        for index, child in enumerate(children)
        if isinstance(child, Tag)
        and child.name in HEADINGS
        and " ".join(child.get_text().split()).lower().rstrip(":") in CITATION_HEADINGS
    ]
    if not headings:
        return children
    start = headings[0]
    heading_tag = children[start]
    level = HEADINGS[heading_tag.name]
    end = next(
        (
            index
            for index in range(start + 1, len(children))
            if isinstance(children[index], Tag)
            and children[index].name in HEADINGS
            and HEADINGS[children[index].name] <= level
        ),
        len(children),
    )
    section = [c for c in children[start + 1 : end] if isinstance(c, Tag)]
    cited = [tag for tag in section if tag.name == "pre" and "citation" in classes_of(tag)]
    if not cited:
        return children
    dropped = set(map(id, cited))
    for tag in section:
        text = " ".join(tag.get_text().split())
        if tag.name == "p" and len(text) < 120 and _CITATION_WORDS.search(text):
            dropped.add(id(tag))
    kept = [c for c in children[start + 1 : end] if id(c) not in dropped]
    # Left out on purpose (said below): not an element the page lost by accident.
    cx.addressed_as_markdown.update(id(tag) for tag in cited)
    keys = [
        match.group(1)
        for tag in cited
        for match in [re.match(r"\s*@\w+\s*\{\s*([^,\s]+)\s*,", tag.get_text())]
        if match
    ]
    kept_text = any(isinstance(c, Tag) and c.get_text().strip() for c in kept)
    cx.report.doubt(
        "appendix",
        heading_tag.sourceline,
        f"the article's own section {' '.join(heading_tag.get_text().split())!r} "
        f"({len(cited)} preformatted citation(s)) is left out: the appendix's Citation "
        "block says the same, made from the front matter (title, authors, date)"
        + (
            f"; the article's BibTeX key {keys[0]!r} is not kept (ours is the first "
            "author's name, the year and the title's first word)"
            if keys
            else ""
        )
        + ("; the rest of the section is kept" if kept_text else ""),
    )
    return children[:start] + kept + children[end:]


def appendix_block(cx: Context, node: Tag) -> str:
    return "\n\n".join(appendix(cx, node))


def generated(cx: Context, node: Tag) -> str:
    """What Distill's runtime generates (the byline, the table of contents...): the
    theme writes it from the front matter."""
    cx.report.done(node.name)
    return ""


def marker(cx: Context, node: Tag) -> str:
    """``<a class="marker" id>``, a section's anchor: a label."""
    cx.report.done("section marker")
    return cx.label(node).rstrip("\n")


# -- elements without a form of their own -----------------------------------------------


def hidden(cx: Context, node: Tag) -> str:
    """Hidden until a script shows it: its tags kept, its text and formulas converted."""
    if node.find(["h1", "h2", "h3"]) is None and node.get_text().strip():
        return shell(cx, node)
    return cx.raw(node, "hidden (display: none) until a script shows it; kept as it is")


def inline_holding_blocks(cx: Context, node: Tag) -> str:
    """An inline element around blocks (an unclosed ``<em>``, as a browser builds it):
    its runs of text keep its emphasis, the blocks inside are converted plainly."""
    styling = {"em": "*", "i": "*", "cite": "*", "strong": "**", "b": "**"}.get(node.name, "")
    cx.report.doubt(
        f"<{node.name}>",
        node.sourceline,
        "holds blocks (an unclosed tag?): its text keeps the styling, the blocks inside "
        "are converted without it",
    )
    blocks: list[str] = []
    run: list[Any] = []

    def flush() -> None:
        text = cx.inline(run).strip()
        if text:
            cx.report.done("paragraph")
            blocks.append(md.escape_line_starts(f"{styling}{text}{styling}"))
        run.clear()

    for child in node.children:
        if cx.is_inline(child):
            run.append(child)
            continue
        flush()
        blocks.append(cx.walker.block(child, []))
    flush()
    return "\n\n".join(block for block in blocks if block.strip())


def runs_in_page(cx: Context, node: Tag) -> str:
    if node.name == "script":
        listing = embedded_listing(attr_value(node, "src"))
        if listing is not None:
            return _listing_notice(cx, node, *listing)
    return cx.raw(node, f"<{node.name}> kept as it is: it runs in the page")


def embedded_listing(src: str) -> tuple[str, str] | None:
    """A script that writes a code listing into the page from GitHub when the page is
    read (emgithub.com's embed, a gist's ``.js``): the listing's address on GitHub
    and how to name it (``picotron/data_parallel.py, lines 10-60``); None for any
    other script."""
    parts = urlsplit(src)
    host = (parts.hostname or "").lower()
    if host == "emgithub.com":
        target = parse_qs(parts.query).get("target", [""])[0]
        address = urlsplit(target)
        if address.scheme != "https" or not address.hostname:
            return None
        path = address.path.split("/blob/", 1)[-1].split("/", 1)[-1]
        lines = re.fullmatch(r"L(\d+)(?:-L(\d+))?", address.fragment)
        name = path or target
        if lines:
            name += f", line {lines[1]}" if not lines[2] else f", lines {lines[1]}-{lines[2]}"
        return target, name
    if host == "gist.github.com" and parts.path.endswith(".js"):
        gist = urlunsplit(("https", host, parts.path.removesuffix(".js"), "", ""))
        shown = parse_qs(parts.query).get("file", [""])[0]
        name = f"{shown} (gist)" if shown else f"gist {parts.path.removesuffix('.js')}"
        return gist, name
    return None


def _listing_notice(cx: Context, node: Tag, address: str, name: str) -> str:
    """A code listing the article loaded from GitHub at read time: a built page makes
    no request to another site, and the import does not fetch it. In its place, a note
    that links the code (readers can follow it, on screen and in the PDF) and a
    comment for the author; the report names the address."""
    cx.report.found["code listing from GitHub"] += 1  # neither converted nor kept
    cx.report.doubt(
        "code listing from GitHub",
        node.sourceline,
        f"not imported: the article loads {name} ({address}) into the page when it is "
        "read, "
        "and a built page makes no request to another site; a note links it instead. "
        "Paste the lines into a code block in its place",
    )
    comment = (
        f"% import-distill: the article showed the code at {address} here, loaded when "
        "the page was read; paste those lines into a code block in place of this note."
    )
    text = f"The code of this listing is on GitHub: [{md.escape(name)}]({md.url(address)})."
    return comment + "\n\n" + md.directive("note", "", {}, text)


def no_equivalent(cx: Context, node: Tag) -> str:
    return cx.raw(node, f"<{node.name}> has no equivalent")


def unwrap(cx: Context, node: Tag) -> str:
    """An element without an equivalent: its content converted, the element dropped,
    unless a script or stylesheet needs it (then its tags are kept around the content)."""
    for attempt in (_scripted, _script_target):
        written = attempt(cx, node)
        if written is not None:
            return written
    cx.report.done(f"<{node.name}> (unwrapped)")
    cx.report.doubt(
        f"<{node.name}> (unwrapped)",
        node.sourceline,
        "an unknown element: its content is converted, the element itself is left out",
    )
    inner = "\n\n".join(cx.blocks(node.children))
    return (cx.label(node) + inner) if inner.strip() else cx.label(node).rstrip("\n")


# -- containers -------------------------------------------------------------------------


def container(cx: Context, node: Tag) -> str:
    """div, section, d-figure...: by what they hold, else their children in place."""
    for attempt in (
        _fragment,
        _mount_point,
        _scripted,
        _eq_grid,
        _script_target,
        _grid,
        _note,
    ):
        written = attempt(cx, node)
        if written is not None:
            return written
    return _children_in_place(cx, node)


def _fragment(cx: Context, node: Tag) -> str | None:
    """``<div id="fragment-NAME">``: an interactive figure."""
    element_id = attr_value(node, "id")
    if not element_id.startswith("fragment-"):
        return None
    return fragment(cx, node, element_id[len("fragment-") :], None, None)


def _mount_point(cx: Context, node: Tag) -> str | None:
    """An empty element with an id: a script fills it."""
    element_id = attr_value(node, "id")
    if not element_id or node.get_text().strip() or node.find("img"):
        return None
    return cx.raw(node, f"#{element_id} holds no text: kept for the script that fills it")


def _scripted(cx: Context, node: Tag) -> str | None:
    return shell(cx, node) if scripted(cx, node) else None


def _eq_grid(cx: Context, node: Tag) -> str | None:
    if style_of(node).get("display", "grid") != "grid":
        return None
    formula = eq_grid(cx, node)
    return cx.label(node) + formula if formula else None


def _script_target(cx: Context, node: Tag) -> str | None:
    element_id = attr_value(node, "id")
    if not element_id or not cx.assets.script_names(cx.article.soup, element_id):
        return None
    return script_target(cx, node, element_id)


def _grid(cx: Context, node: Tag) -> str | None:
    """A grid, or a flex row: panels side by side."""
    style = style_of(node)
    if style.get("display") in {"grid", "inline-grid"} or (
        style.get("display") in {"flex", "inline-flex"}
        and not style.get("flex-direction", "row").startswith("column")
    ):
        return layout_wrap(cx, node, grid(cx, node), allow={"screen", "screen-inset"})
    return None


def _note(cx: Context, node: Tag) -> str | None:
    """A note, tip or warning box, by its class."""
    note = next((NOTE_CLASSES[c] for c in classes_of(node) if c in NOTE_CLASSES), None)
    if not note:
        return None
    cx.report.done("note")
    body = cx.nested(node.children)
    return cx.label(node) + md.directive(note, "", {}, body)


def _children_in_place(cx: Context, node: Tag) -> str:
    """The container's blocks where it stood: in a ``layout`` for its column; its class
    and style said to be lost."""
    classes = classes_of(node)
    style = style_of(node)
    if node.name == "d-figure":
        if not node.get_text().strip() and not node.find(True):
            cx.report.raw("d-figure", node.sourceline, "an empty <d-figure> filled by a script")
            return cx.raw_html(node)
        cx.report.done("d-figure")
    elif node.name in {"d-abstract", "d-acknowledgements"}:
        cx.report.done(node.name)
    if (classes or style) and not node.get_text().strip() and not node.find(True):
        return cx.raw(node, "an empty block drawn by its style")
    layout = layout_of(cx, node)
    if layout:
        body = cx.nested(node.children)
        return cx.label(node) + layout_directive(cx, layout, body)
    if classes or style:
        cx.report.doubt(
            f"<{node.name}>",
            node.sourceline,
            f"its class {' '.join(classes)!r} or style has no equivalent; its content "
            "is kept, its styling is not"
            if classes
            else "its style is not kept",
        )
    inner = "\n\n".join(cx.blocks(node.children))
    return (cx.label(node) + inner) if inner.strip() else ""


def script_target(cx: Context, node: Tag, element_id: str) -> str:
    """An element a script selects by id: kept with its exact id, its content converted."""
    inner = "\n\n".join(cx.blocks(node.children))
    if not inner.strip():
        return cx.raw(node, f"a script or stylesheet selects #{element_id}: kept as it is")
    if re.search(r"^#+ ", inner, flags=re.MULTILINE):
        cx.report.doubt(
            f"<{node.name}>",
            node.sourceline,
            f"a script or stylesheet selects #{element_id}, which holds headings: its "
            "content is converted and the element is left out; the script will not find it",
        )
        return inner
    cx.report.raw(
        f"<{node.name}>",
        node.sourceline,
        f"a script or stylesheet selects #{element_id}: its tags are kept around the "
        "converted content",
    )
    opening = f"<{node.name}{attributes_html(node)}>"
    return f"```{{raw}} html\n{opening}\n```\n\n{inner}\n\n```{{raw}} html\n</{node.name}>\n```"
