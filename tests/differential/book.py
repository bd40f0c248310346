"""A generated multi-page book and the edits an author makes to it.

Plain data and functions, no pytest and no Sphinx:

- :func:`generate` makes a :class:`Book` from a ``random.Random``: a root page
  with a toctree, chapters in MyST Markdown and one in reStructuredText, a
  chapter with sub-pages in a folder, sections, figures, equations, code,
  citations, footnotes, asides, interactive figures (Plotly, Vega and HTML
  exports, with or without a static fallback, following the dark mode or not,
  framed or inline), images large enough for responsive copies,
  cross-references between pages (with the hover cards that show other pages'
  equations), and one or two chapters written as notebooks read by myst-nb
  (``nb_execution_mode = "off"``): ``.ipynb`` files with stored outputs (Plotly
  JSON with or without its PNG, PNGs, pandas tables, printed text), cell tags and
  ``playbook`` cell metadata (legend, label, layout, aside), or MyST text
  notebooks (a ``.md`` with a jupytext and kernelspec header).
- :func:`render` gives its files (conf.py, pages, .bib files, PNG images, the
  interactive figures' exports and the Vega library the book serves) as a
  mapping of relative path to bytes.
- :data:`EDITS` holds the edit kinds. Each takes the book and a ``random.Random``
  and returns the changed book (a copy, the argument is left alone), or ``None``
  when it does not apply to this book (no figure to remove, say). An edit
  appends a one-line description of what it did to ``book.log``.

With ``ours=False`` the same book is written for plain Sphinx with
pydata-sphinx-theme (the ``--baseline`` of the command line): no sphinx_playbook,
citations become footnotes that name the keys, asides become notes, figure
legends become figures, and the math macros go to MathJax; notebooks are read
by plain myst-nb (in place of myst_parser) without their ``playbook`` metadata. The edits are the
same functions; those about our settings change nothing then.
"""

from __future__ import annotations

import base64
import copy
import functools
import json
import posixpath
import random
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ROOT = "index"

NOUNS = (
    "memory", "gradient", "batch", "pipeline", "tensor", "kernel", "shard", "optimizer",
    "activation", "cluster", "node", "stream", "token", "layer", "schedule", "buffer",
    "bandwidth", "latency", "checkpoint", "expert", "replica", "microbatch",
)  # fmt: skip
ADJECTIVES = (
    "sharded", "fused", "overlapped", "parallel", "quantized", "stable", "sparse", "dense",
    "recomputed", "balanced", "lazy", "eager", "global", "local", "pinned", "interleaved",
)  # fmt: skip
VERBS = (
    "reduces", "overlaps", "splits", "gathers", "scatters", "stores", "recomputes",
    "balances", "streams", "caches", "shifts", "doubles",
)  # fmt: skip
PAGE_NAMES = (
    "overview", "memory", "compute", "network", "scaling", "pipelines", "tensors",
    "kernels", "results", "outlook", "precision", "experts",
)  # fmt: skip
#: Sub-pages live in this folder (relative links, images and .bib paths go up).
FOLDER = "part"
PEOPLE = (
    "Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
    "Donald Knuth", "Frances Allen", "John Backus", "Margaret Hamilton", "Ken Thompson",
)  # fmt: skip
DATES = ("2024-11-05", "2025-02-19", "2025-03-01", "2025-06-30", "2025-09-12")
LANGUAGES = ("python", "c", "javascript", "bash", "rust", "json", "yaml", "text")
PYGMENTS_STYLES = ("sphinx", "default", "friendly", "monokai", "tango", "emacs", "xcode")
LIGHT_STYLES = ("tango", "friendly", "github-light", "xcode", "a11y-light", "default")
CAPTIONS = (None, "Contents", "Chapters", "The book", "Parts of it")
MACROS = {
    "\\RR": ("\\mathbb{R}", "\\mathbf{R}"),
    "\\E": ("\\operatorname{\\mathbb{E}}", "\\mathrm{E}"),
    "\\norm": ("\\lVert #1 \\rVert", "\\left| #1 \\right|"),
    "\\vect": ("\\mathbf{#1}", "\\vec{#1}"),
}
#: How a formula uses each macro (a macro with an argument gets one).
MACRO_USES = {"\\RR": "\\RR^{n}", "\\E": "\\E[x]", "\\norm": "\\norm{v}", "\\vect": "\\vect{w}"}
FORMULAS = (
    "a^2 + b^2 = c^2",
    "\\frac{1}{N} \\sum_{i=1}^{N} x_i",
    "\\sqrt{d_k}",
    "e^{i\\pi} + 1 = 0",
    "\\alpha \\beta \\gamma",
    "\\int_0^1 f(t)\\,dt",
    "m = 2\\Psi + 12\\Psi",
    "\\max(t_{comp}, t_{comm})",
)
EQUATIONS = (
    "m = \\underbrace{2\\Psi}_{\\text{weights}} + \\underbrace{12\\Psi}_{\\text{optimiser}}",
    "t_{\\text{comm}} = \\frac{2(N-1)}{N} \\cdot \\frac{M}{\\beta}",
    "\\operatorname{softmax}(x)_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}",
    "\\begin{aligned} a &= b + c \\\\ d &= e f \\end{aligned}",
    "y = W x + b",
    "L(\\theta) = -\\sum_t \\log p_\\theta(x_t \\mid x_{<t})",
)
CODE = {
    "python": ("def step(batch):\n    loss = model(batch)\n    loss.backward()\n",
               "for rank in range(world_size):\n    send(rank, shard)\n"),
    "c": ("int main(void) {\n    return 0;\n}\n", "for (int i = 0; i < n; i++) x[i] *= 2;\n"),
    "javascript": ("const total = xs.reduce((a, b) => a + b, 0);\n",
                   "export function id(x) { return x; }\n"),
    "bash": ("torchrun --nproc_per_node 8 train.py\n", "echo \"$WORLD_SIZE\"\n"),
    "rust": ("fn main() {\n    println!(\"{}\", 1 + 1);\n}\n", "let v: Vec<u32> = Vec::new();\n"),
    "json": ('{"batch": 32, "lr": 0.001}\n', '[1, 2, 3]\n'),
    "yaml": ("batch: 32\nlr: 0.001\n", "nodes:\n  - a\n  - b\n"),
    "text": ("plain text, no highlighting\n", "another plain line\n"),
}  # fmt: skip


@dataclass
class Page:
    """One source file; ``blocks`` are plain dicts with a ``kind``."""

    docname: str
    suffix: str  # ".md" or ".rst"
    title: str
    label: str  # a target on the title, for {ref}
    front: dict[str, Any] = field(default_factory=dict)  # description, authors, published, title
    bibliography: str | None = None  # a .bib file of the book's root folder
    toctree: list[str] = field(default_factory=list)  # child docnames, in order
    caption: str | None = None
    numbered: bool = False
    blocks: list[dict[str, Any]] = field(default_factory=list)
    #: "" for a page, "ipynb" for a Jupyter notebook (suffix .ipynb), "myst" for a
    #: MyST text notebook (suffix .md, a jupytext and kernelspec header).
    notebook: str = ""


@dataclass
class Book:
    ours: bool
    pages: dict[str, Page]
    bibs: dict[str, list[dict[str, str]]]  # file name -> entries (key, author, title, year)
    images: dict[str, tuple[int, int, tuple[int, int, int]]]  # file name -> width, height, rgb
    conf: dict[str, Any]
    counter: int = 0
    log: list[str] = field(default_factory=list)
    #: Interactive figures' exports under exports/: file name -> flavour and values.
    exports: dict[str, dict[str, Any]] = field(default_factory=dict)

    def new_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}-{self.counter}"


# -- text ----------------------------------------------------------------------------------


def sentence(rng: random.Random) -> str:
    return (
        f"The {rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {rng.choice(VERBS)} "
        f"the {rng.choice(NOUNS)} {rng.choice(('once', 'twice', 'early', 'late', 'again'))}."
    )


def prose(rng: random.Random, sentences: int = 2) -> str:
    return " ".join(sentence(rng) for _ in range(sentences))


def title(rng: random.Random) -> str:
    return f"{rng.choice(ADJECTIVES).capitalize()} {rng.choice(NOUNS)}"


# Not helpers.png (a white image): an edit must change an image's bytes, so each has a colour.
@functools.lru_cache(maxsize=256)
def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A solid-colour RGB PNG with a diagonal line (a few hundred bytes); a large one
    (:data:`LARGE_WIDTHS`) is grain around its colour instead, as a photograph is: its
    PNG is large and a WebP much smaller."""
    rows = []
    if width >= min(LARGE_WIDTHS):
        grain = random.Random(f"{width}x{height}{rgb}")
        table = bytes(min(255, sum(rgb) // 3 + (value & 31)) for value in range(256))
        rows = [b"\0" + grain.randbytes(width * 3).translate(table) for _ in range(height)]
    for y in range(height if not rows else 0):
        row = bytearray([0])
        for x in range(width):
            row += bytes((255 - rgb[0], 255 - rgb[1], 255 - rgb[2]) if x == y else rgb)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


#: Widths of images that get responsive copies (wider than the layout's narrowest
#: width, 360 px, with noise that a WebP encodes smaller than the PNG).
LARGE_WIDTHS = (400, 480, 720)


def _image(rng: random.Random) -> tuple[int, int, tuple[int, int, int]]:
    """An image's width, height and colour: a third of them large enough to be
    served with responsive copies (delivery/responsive_images.py)."""
    rgb = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    if rng.random() < 0.3:
        return rng.choice(LARGE_WIDTHS), rng.choice((180, 240)), rgb
    return rng.choice((8, 16, 24, 40, 64)), rng.choice((8, 12, 20, 32, 48)), rgb


# -- interactive figures ---------------------------------------------------------------

#: The kinds of export an interactive figure embeds: Plotly (plotly.js from the
#: installed plotly package), Vega (a library file of the book's, named in conf.py)
#: and a plain HTML snippet.
EXPORT_FLAVOURS = ("plotly", "vega", "html")
#: The Vega library the book serves (playbook_interactive_libraries).
VEGA_LIBRARY = "vendor/vega.min.js"


def _export(rng: random.Random) -> dict[str, Any]:
    return {
        "flavour": rng.choice(EXPORT_FLAVOURS),
        "values": [rng.randint(1, 9) for _ in range(rng.randint(2, 4))],
        "size": rng.choice(((640, 360), (500, 300), (400, 400))),
    }


def render_export(export: dict[str, Any]) -> str:
    """The HTML file an author exported (with a CDN script, as the tools write it)."""
    values, (width, height) = export["values"], export["size"]
    box = f'style="width:{width}px; height:{height}px;"'  # the size the page reserves
    if export["flavour"] == "plotly":
        box = f'style="height:{height}px; width:{width}px;"'  # as plotly.py writes it
        trace = json.dumps({"type": "bar", "x": list(range(len(values))), "y": values})
        layout = json.dumps({"width": width, "height": height})
        return (
            '<html><head><meta charset="utf-8">'
            '<script src="https://cdn.plot.ly/plotly-2.35.2.min.js"></script></head><body>'
            f'<div id="plot" {box}></div>'
            f'<script>Plotly.newPlot("plot", [{trace}], {layout});</script></body></html>\n'
        )
    if export["flavour"] == "vega":
        spec = json.dumps({"data": [{"name": "t", "values": values}]})
        return (
            '<script src="https://cdn.jsdelivr.net/npm/vega@5"></script>'
            f'<div id="view" {box}></div><script>new vega.View({spec});</script>\n'
        )
    cells = "".join(f"<li>{value}</li>" for value in values)
    return f"<div {box}><ul>{cells}</ul></div>\n"


# -- blocks --------------------------------------------------------------------------------


def _cite_keys(book: Book, page: Page) -> list[str]:
    keys = [entry["key"] for entry in book.bibs["refs.bib"]]
    if page.bibliography:
        keys += [entry["key"] for entry in book.bibs[page.bibliography]]
    return keys


def new_block(book: Book, page: Page, kind: str, rng: random.Random) -> dict[str, Any]:
    """A block of ``kind`` for ``page`` (references are made by :func:`new_reference`)."""
    block: dict[str, Any] = {"kind": kind, "id": book.new_id("b")}
    if kind == "prose":
        block["text"] = prose(rng, rng.randint(1, 3))
    elif kind == "section":
        block.update(label=book.new_id("sec"), title=title(rng))
    elif kind == "figure":
        image = f"img-{book.new_id('i').split('-')[1]}.png"
        book.images[image] = _image(rng)
        style = rng.choice(("figure", "figure", "legend"))
        block.update(label=book.new_id("fig"), image=image, caption=prose(rng, 1), style=style)
    elif kind == "equation":
        form = "dollar" if page.suffix == ".md" and rng.random() < 0.6 else "directive"
        block.update(label=book.new_id("eq"), tex=rng.choice(EQUATIONS), form=form)
    elif kind == "formula":
        block.update(text=sentence(rng), tex=rng.choice(FORMULAS))
    elif kind == "code":
        language = rng.choice(LANGUAGES)
        block.update(language=language, text=rng.choice(CODE[language]))
    elif kind == "cite":
        keys = _cite_keys(book, page)
        block.update(
            text=sentence(rng),
            keys=rng.sample(keys, rng.randint(1, min(2, len(keys)))),
            textual=rng.random() < 0.2,
        )
    elif kind == "footnote":
        block.update(text=sentence(rng), note=sentence(rng))
    elif kind == "aside":
        block["text"] = sentence(rng)
    elif kind == "interactive":
        export = f"chart-{book.new_id('x').split('-')[1]}.html"
        book.exports[export] = _export(rng)
        fallback = None
        if rng.random() < 0.7:
            fallback = f"img-{book.new_id('i').split('-')[1]}.png"
            book.images[fallback] = _image(rng)
        block.update(
            label=book.new_id("fig"),
            export=export,
            fallback=fallback,
            theme=rng.choice(("follow", "fixed")),
            isolation=rng.choice(("iframe", "iframe", "inline")),
            caption=prose(rng, 1),
        )
    else:
        raise ValueError(kind)
    return block


#: What a reference may point to: (role, kind of target).
REFERENCE_ROLES = (
    ("numref", "figure"),
    ("ref", "figure"),
    ("ref", "section"),
    ("ref", "page"),
    ("eq", "equation"),
    ("doc", "page"),
    ("link", "section"),  # MyST [text](#label)
    ("filelink", "section"),  # MyST [text](other.md#label)
)


def targets(book: Book, kind: str) -> list[tuple[str, str]]:
    """(docname, label or docname) of every target of ``kind`` in the book."""
    found = []
    for page in book.pages.values():
        if kind == "page":
            found.append((page.docname, page.label))
            continue
        for block in page.blocks:
            # a notebook cell with a label is a figure (its legend the caption)
            cell = kind == "figure" and block["kind"] == "cell" and block["label"]
            if block["kind"] == kind or cell:
                found.append((page.docname, block["label"]))
    return found


def new_reference(book: Book, page: Page, rng: random.Random, kind: str | None = None):
    """A reference from ``page`` to a target on another page, or None."""
    roles = [(r, k) for r, k in REFERENCE_ROLES if kind in (None, k)]
    rng.shuffle(roles)
    for role, target_kind in roles:
        candidates = [t for t in targets(book, target_kind) if t[0] != page.docname]
        if role == "doc":
            candidates = [(d, d) for d, _label in candidates]
        if not candidates:
            continue
        docname, target = rng.choice(candidates)
        return {
            "kind": "ref",
            "id": book.new_id("b"),
            "role": role,
            "target": target,
            "page": docname,
            "text": f"See {rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}",
        }
    return None


# -- generation ----------------------------------------------------------------------------


def _new_page(book: Book, rng: random.Random, docname: str, suffix: str) -> Page:
    page = Page(
        docname=docname,
        suffix=suffix,
        title=title(rng),
        label=book.new_id("page"),
        front={
            "description": sentence(rng),
            "authors": rng.sample(PEOPLE, rng.randint(1, 2)),
            "published": rng.choice(DATES),
        },
    )
    if rng.random() < 0.3:
        page.front["title"] = f"{title(rng)}: a subtitle"
    if rng.random() < 0.25:
        page.bibliography = rng.choice(("other.bib", "more.bib"))
    kinds = ["prose", "section", "prose", "cite", "prose"]
    kinds += rng.sample(
        ["figure", "equation", "formula", "code", "footnote", "section", "aside", "cite"],
        rng.randint(3, 5),
    )
    if "figure" not in kinds and rng.random() < 0.5:
        kinds.append("figure")
    if rng.random() < 0.25:
        kinds.append("interactive")
    for kind in kinds:
        page.blocks.append(new_block(book, page, kind, rng))
    return page


def _bib_entries(rng: random.Random, prefix: str, count: int) -> list[dict[str, str]]:
    entries = []
    for index in range(count):
        first, last = rng.choice(PEOPLE).split()
        entries.append(
            {
                "key": f"{prefix}{last.lower()}{index}",
                "author": f"{last}, {first}",
                "title": f"On {title(rng).lower()}",
                "year": str(rng.randint(1990, 2025)),
            }
        )
    return entries


def generate(rng: random.Random, *, ours: bool = True) -> Book:
    """A book of 6-8 pages: the root, 3-4 chapters (one in reST, one with 2-3
    sub-pages in :data:`FOLDER`), then cross-references between them."""
    book = Book(
        ours=ours,
        pages={},
        bibs={
            "refs.bib": _bib_entries(rng, "", 6),
            "other.bib": _bib_entries(rng, "o", 3),
            "more.bib": _bib_entries(rng, "m", 3),
        },
        images={},
        conf={
            "pygments_style": rng.choice(PYGMENTS_STYLES),
            "pygments_light_style": rng.choice(LIGHT_STYLES),
            "math_macros": {"\\RR": MACROS["\\RR"][0]},
            "citation_numbering": rng.choice(("page", "page", "book")),
            # myst_nb before sphinx_playbook in ``extensions`` (both orders work)
            "myst_nb_first": rng.random() < 0.5,
        },
    )
    root = _new_page(book, rng, ROOT, ".md")
    root.caption = rng.choice(CAPTIONS[1:])
    root.numbered = rng.random() < 0.5
    book.pages[ROOT] = root
    names = rng.sample(PAGE_NAMES, 7)
    chapters = rng.randint(3, 4)
    rst = rng.randrange(chapters)
    nested = rng.choice([i for i in range(chapters) if i != rst])
    for index in range(chapters):
        chapter = _new_page(book, rng, names[index], ".rst" if index == rst else ".md")
        book.pages[chapter.docname] = chapter
        root.toctree.append(chapter.docname)
        if index == nested:
            chapter.caption = rng.choice(CAPTIONS)
            for sub in range(rng.randint(2, 3)):
                name = f"{FOLDER}/{names[chapters + sub]}"
                child = _new_page(book, rng, name, ".md")
                book.pages[name] = child
                chapter.toctree.append(name)
    for index in range(rng.randint(1, 2)):
        flavour = "ipynb" if index == 0 or rng.random() < 0.5 else "myst"
        notebook = _new_notebook(book, rng, flavour)
        book.pages[notebook.docname] = notebook
        root.toctree.insert(rng.randint(0, len(root.toctree)), notebook.docname)
    macro_page = rng.choice(list(book.pages.values()))
    macro_page.blocks.append(
        {"kind": "formula", "id": book.new_id("b"), "text": "Macros.", "tex": MACRO_USES["\\RR"]}
    )
    for page in book.pages.values():
        for _ in range(rng.randint(1, 2)):
            reference = new_reference(book, page, rng)
            if reference:
                page.blocks.insert(rng.randint(1, len(page.blocks)), reference)
    _show_an_equation_elsewhere(book, rng)
    book.log.append(f"generated {len(book.pages)} pages: {', '.join(book.pages)}")
    return book


def _show_an_equation_elsewhere(book: Book, rng: random.Random) -> None:
    """A page without formulas of its own gets an ``{eq}`` reference, whose hover card
    shows another page's equation: its only math is another page's, and it links the
    site's math stylesheet, which any formula of the book can change."""
    plain = [
        page
        for page in book.pages.values()
        if not any(block["kind"] in ("equation", "formula") for block in page.blocks)
    ]
    equations = targets(book, "equation")
    if not plain or not equations:
        return
    page = rng.choice(plain)
    candidates = [(d, label) for d, label in equations if d != page.docname]
    if candidates:
        docname, label = rng.choice(candidates)
        reference = {"kind": "ref", "id": book.new_id("b"), "role": "eq", "target": label,
                     "page": docname, "text": "As the equation says"}  # fmt: skip
        page.blocks.insert(rng.randint(1, len(page.blocks)), reference)


# -- notebooks -----------------------------------------------------------------------------

#: What a code cell of a notebook runs (only its text: nothing is executed).
CELL_SOURCES = (
    "import plotly.express as px\npx.bar(x=steps, y=loss)",
    "fig = px.line(x=steps, y=loss)\nfig.show()",
    "plt.imshow(grid)",
    "df.head()",
    "print(throughput)",
    "secret = 42",
    "for rank in range(world_size):\n    send(rank, shard)",
)
#: The tags an author puts on a cell (myst-nb reads them).
CELL_TAGS = ("hide-input", "hide-output", "remove-input", "remove-output", "remove-cell")
#: A cell's ``playbook`` layout (None: the body column, no key).
CELL_LAYOUTS = (None, "body", "outset", "page", "screen")
#: The kinds of stored output a code cell may have (None: none).
OUTPUT_TYPES = ("plotly", "plotly", "png", "table", "stream", None)
JUPYTEXT = (
    "jupytext:\n  text_representation:\n    extension: .md\n    format_name: myst\n"
    "kernelspec:\n  display_name: Python 3\n  language: python\n  name: python3"
)
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


def _cell_image(rng: random.Random) -> tuple[int, int, tuple[int, int, int]]:
    """A stored PNG's size and colour: now and then one large enough for responsive
    copies (smaller than :func:`_image`'s: it is base64 in the notebook's JSON)."""
    rgb = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    if rng.random() < 0.15:
        return 400, 180, rgb
    return rng.choice((8, 16, 24, 40, 64)), rng.choice((8, 12, 20, 32, 48)), rgb


def _cell_output(rng: random.Random, other_than: Any = "") -> dict[str, Any]:
    kind = rng.choice([t for t in OUTPUT_TYPES if t != other_than])
    if kind == "plotly":
        return {
            "type": kind,
            "values": [rng.randint(1, 9) for _ in range(rng.randint(2, 4))],
            "size": rng.choice((None, (600, 400), (500, 300))),
            "png": _cell_image(rng) if rng.random() < 0.6 else None,
        }
    if kind == "png":
        return {"type": kind, "image": _cell_image(rng)}
    if kind == "table":
        return {"type": kind, "rows": [[rng.randint(1, 64), rng.randint(1, 9)] for _ in "ab"]}
    if kind == "stream":
        return {"type": kind, "text": sentence(rng)}
    return {"type": None}


def _new_cell(book: Book, rng: random.Random) -> dict[str, Any]:
    """A code cell with a stored output, tags, and ``playbook`` metadata: a legend and
    a label (a numbered figure) on most cells that display a figure."""
    output = _cell_output(rng)
    block: dict[str, Any] = {
        "kind": "cell",
        "id": book.new_id("b"),
        "source": rng.choice(CELL_SOURCES),
        "output": output,
        "tags": [rng.choice(CELL_TAGS)] if rng.random() < 0.3 else [],
        "legend": None,
        "label": None,
        "layout": rng.choice(CELL_LAYOUTS) if rng.random() < 0.3 else None,
        "aside": sentence(rng) if rng.random() < 0.15 else None,
    }
    if output["type"] in ("plotly", "png") and rng.random() < 0.7:
        block.update(legend=prose(rng, 1), label=book.new_id("fig"))
    return block


def _new_notebook(book: Book, rng: random.Random, flavour: str) -> Page:
    """A chapter written as a notebook: markdown cells (prose, sections, math,
    citations, references) around code cells with stored outputs."""
    folder = f"{FOLDER}/" if rng.random() < 0.25 else ""
    name = rng.choice(("analysis", "experiments", "figures", "notebook"))
    docname = f"{folder}{name}-{book.new_id('p').split('-')[1]}"
    page = Page(
        docname=docname,
        suffix=".ipynb" if flavour == "ipynb" else ".md",
        title=title(rng),
        label=book.new_id("page"),
        front={
            "description": sentence(rng),
            "authors": rng.sample(PEOPLE, rng.randint(1, 2)),
            "published": rng.choice(DATES),
        },
        notebook=flavour,
    )
    kinds = ["prose", "cell", "cell", "section", "prose", "cell"]
    kinds += rng.sample(["formula", "cite", "cell", "figure", "equation", "aside"], 2)
    for kind in kinds:
        block = _new_cell(book, rng) if kind == "cell" else new_block(book, page, kind, rng)
        page.blocks.append(block)
    return page


def _playbook_metadata(block: dict[str, Any]) -> dict[str, str]:
    return {key: block[key] for key in ("legend", "label", "layout", "aside") if block[key]}


def _b64(image: tuple[int, int, tuple[int, int, int]]) -> str:
    return base64.b64encode(_png(*image)).decode("ascii")


def _outputs(output: dict[str, Any]) -> list[dict[str, Any]]:
    """The outputs as Jupyter stores them (plotly's, matplotlib's, pandas', print's)."""
    kind = output["type"]
    if kind == "plotly":
        values = output["values"]
        trace = {"type": "bar", "x": list(range(len(values))), "y": values}
        layout: dict[str, Any] = {"template": {"layout": {}}}
        if output["size"]:
            layout.update(width=output["size"][0], height=output["size"][1])
        data: dict[str, Any] = {
            "application/vnd.plotly.v1+json": {"data": [trace], "layout": layout,
                                               "config": {"plotlyServerURL": "https://plot.ly"}},
            "text/plain": "Figure()",
        }  # fmt: skip
        if output["png"]:
            data["image/png"] = _b64(output["png"])
        return [{"output_type": "display_data", "data": data, "metadata": {}}]
    if kind == "png":
        width, height = output["image"][:2]
        data = {"image/png": _b64(output["image"]), "text/plain": f"<Figure {width}x{height}>"}
        return [{"output_type": "display_data", "data": data, "metadata": {}}]
    if kind == "table":
        rows = "".join(
            f"<tr><th>{i}</th><td>{a}</td><td>{b}</td></tr>"
            for i, (a, b) in enumerate(output["rows"])
        )
        html = (
            "<div>\n<style scoped>\n    .dataframe tbody tr th { vertical-align: top; }\n"
            '</style>\n<table border="1" class="dataframe">\n<thead><tr><th></th><th>gpus</th>'
            f"<th>throughput</th></tr></thead>\n<tbody>{rows}</tbody>\n</table>\n</div>"
        )
        plain = "\n".join(f"{i}  {a}  {b}" for i, (a, b) in enumerate(output["rows"]))
        return [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                 "data": {"text/html": html, "text/plain": plain}}]  # fmt: skip
    if kind == "stream":
        return [{"output_type": "stream", "name": "stdout", "text": output["text"] + "\n"}]
    return []


def _code_cell_json(book: Book, block: dict[str, Any]) -> dict[str, Any]:
    metadata: dict[str, Any] = {}
    if block["tags"]:
        metadata["tags"] = list(block["tags"])
    if book.ours and _playbook_metadata(block):
        metadata["playbook"] = _playbook_metadata(block)
    return {
        "cell_type": "code",
        "execution_count": 1,
        "id": block["id"],
        "metadata": metadata,
        "outputs": _outputs(block["output"]),
        "source": block["source"],
    }


def _code_cell_md(book: Book, block: dict[str, Any]) -> str:
    """A ``{code-cell}`` of a MyST text notebook: no stored output, options in YAML
    (JSON is YAML)."""
    options: dict[str, Any] = {}
    if block["tags"]:
        options["tags"] = block["tags"]
    if book.ours and _playbook_metadata(block):
        options["playbook"] = _playbook_metadata(block)
    head = "```{code-cell} ipython3"
    if options:
        yaml = "\n".join(f"{key}: {json.dumps(value)}" for key, value in options.items())
        head += f"\n---\n{yaml}\n---"
    return f"{head}\n{block['source']}\n```"


def render_notebook(book: Book, page: Page) -> str:
    """A ``.ipynb``: the front matter in the notebook's metadata, the title and the
    toctree in the first markdown cell, each run of other blocks a markdown cell."""
    items: list[tuple[str, Any]] = [
        ("cell", b) if b["kind"] == "cell" else ("md", _md_block(book, page, b))
        for b in page.blocks
    ]
    if page.toctree:
        toctree = "\n".join(
            ["```{toctree}", *_toctree_options(page), "", *(f"/{d}" for d in page.toctree)]
        )
        items.insert(min(1, len(items)), ("md", toctree + "\n```"))
    cells: list[dict[str, Any]] = []
    texts = [f"({page.label})=\n# {page.title}"]

    def flush() -> None:
        if texts:
            cell_id = f"{page.label}-m{len(cells)}"
            source = "\n\n".join(texts) + "\n"
            cells.append({"cell_type": "markdown", "id": cell_id, "metadata": {},
                          "source": source})  # fmt: skip
            texts.clear()

    for kind, item in items:
        if kind == "md":
            texts.append(item)
            continue
        flush()
        cells.append(_code_cell_json(book, item))
    flush()
    metadata: dict[str, Any] = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    for key in ("title", "description", "published"):
        if key in page.front:
            metadata[key] = page.front[key]
    if page.front.get("authors"):
        metadata["authors"] = [{"name": name} for name in page.front["authors"]]
    if page.bibliography and book.ours:
        metadata["bibliography"] = _relative(page, page.bibliography)
    notebook = {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def has_notebooks(book: Book) -> bool:
    return any(page.notebook for page in book.pages.values())


# -- the tree of pages ---------------------------------------------------------------------


def reachable(book: Book) -> list[str]:
    """Docnames in reading order from the root (pages that exist)."""
    order: list[str] = []

    def visit(docname: str) -> None:
        if docname in order or docname not in book.pages:
            return
        order.append(docname)
        for child in book.pages[docname].toctree:
            visit(child)

    visit(ROOT)
    return order


def descendants(book: Book, docname: str) -> set[str]:
    found: set[str] = set()
    stack = [docname]
    while stack:
        current = stack.pop()
        for child in book.pages[current].toctree if current in book.pages else ():
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def parents(book: Book, docname: str) -> list[str]:
    return [p.docname for p in book.pages.values() if docname in p.toctree]


# -- rendering -----------------------------------------------------------------------------


def _relative(page: Page, path: str) -> str:
    """``path`` (relative to the source root) as written in ``page``."""
    return posixpath.relpath(path, posixpath.dirname(page.docname) or ".")


def _yaml(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _page_file(book: Book, docname: str) -> str:
    page = book.pages.get(docname)
    return docname + (page.suffix if page else ".md")


def _md_block(book: Book, page: Page, block: dict[str, Any]) -> str:
    kind = block["kind"]
    if kind == "cell":
        return _code_cell_md(book, block)
    if kind == "prose":
        return block["text"]
    if kind == "section":
        return f"({block['label']})=\n## {block['title']}"
    if kind == "figure":
        image = _relative(page, f"images/{block['image']}")
        if block["style"] == "legend" and book.ours:
            return (
                f"![An image]({image})\n\n```{{figure-legend}}\n:name: {block['label']}\n\n"
                f"{block['caption']}\n```"
            )
        width = f":width: {block['width']}\n" if block.get("width") else ""
        return (
            f"```{{figure}} {image}\n:name: {block['label']}\n:alt: An image\n{width}\n"
            f"{block['caption']}\n```"
        )
    if kind == "interactive":
        name, arguments = _interactive_head(book, page, block)
        options = _interactive_options(book, page, block)
        return "\n".join([f"```{{{name}}} {arguments}", *options, "", block["caption"], "```"])
    if kind == "equation":
        if block["form"] == "dollar":
            return f"$$\n{block['tex']}\n$$ ({block['label']})"
        return f"```{{math}}\n:label: {block['label']}\n\n{block['tex']}\n```"
    if kind == "formula":
        return f"{block['text']} The formula ${block['tex']}$ holds."
    if kind == "code":
        return f"```{block['language']}\n{block['text']}```"
    if kind == "cite":
        keys = ",".join(block["keys"])
        if not book.ours:
            return f"{block['text']}[^{block['id']}]\n\n[^{block['id']}]: Cited: {keys}."
        role = "cite:t" if block["textual"] else "cite"
        return f"{block['text']} As shown by {{{role}}}`{keys}`."
    if kind == "footnote":
        return f"{block['text']}[^{block['id']}]\n\n[^{block['id']}]: {block['note']}"
    if kind == "aside":
        name = "aside" if book.ours else "note"
        return f":::{{{name}}}\n{block['text']}\n:::"
    if kind == "ref":
        role, target, text = block["role"], block["target"], block["text"]
        if role == "doc":
            return f"{text}: {{doc}}`/{target}`."
        if role == "link":
            return f"{text}: [the section](#{target})."
        if role == "filelink":
            path = _relative(page, _page_file(book, block["page"]))
            return f"{text}: [over there]({path}#{target})."
        return f"{text}: {{{role}}}`{target}`."
    raise ValueError(kind)


def _interactive_head(book: Book, page: Page, block: dict[str, Any]) -> tuple[str, str]:
    """The directive and its argument: our interactive figure, or (baseline) a
    figure of its fallback."""
    if book.ours:
        return "interactive-figure", _relative(page, f"exports/{block['export']}")
    image = block["fallback"] or "placeholder.png"
    return "figure", _relative(page, f"images/{image}")


def _interactive_options(book: Book, page: Page, block: dict[str, Any]) -> list[str]:
    options = [f":name: {block['label']}", ":alt: An interactive chart"]
    if book.ours:
        if block["fallback"]:
            options.append(f":fallback: {_relative(page, 'images/' + block['fallback'])}")
        options += [f":theme: {block['theme']}", f":isolation: {block['isolation']}"]
    return options


def _indent(text: str, prefix: str = "   ") -> str:
    return "\n".join(prefix + line if line else "" for line in text.splitlines())


def _rst_block(book: Book, page: Page, block: dict[str, Any]) -> str:
    kind = block["kind"]
    if kind == "prose":
        return block["text"]
    if kind == "section":
        return f".. _{block['label']}:\n\n{block['title']}\n{'-' * len(block['title'])}"
    if kind == "figure":
        image = _relative(page, f"images/{block['image']}")
        if block["style"] == "legend" and book.ours:
            return (
                f".. image:: {image}\n   :alt: An image\n\n.. figure-legend::\n"
                f"   :name: {block['label']}\n\n{_indent(block['caption'])}"
            )
        width = f"   :width: {block['width']}\n" if block.get("width") else ""
        return (
            f".. figure:: {image}\n   :name: {block['label']}\n   :alt: An image\n{width}\n"
            f"{_indent(block['caption'])}"
        )
    if kind == "interactive":
        name, arguments = _interactive_head(book, page, block)
        options = [f"   {line}" for line in _interactive_options(book, page, block)]
        return "\n".join([f".. {name}:: {arguments}", *options, "", _indent(block["caption"])])
    if kind == "equation":
        return f".. math::\n   :label: {block['label']}\n\n{_indent(block['tex'])}"
    if kind == "formula":
        return f"{block['text']} The formula :math:`{block['tex']}` holds."
    if kind == "code":
        return f".. code-block:: {block['language']}\n\n{_indent(block['text'])}"
    if kind == "cite":
        keys = ",".join(block["keys"])
        if not book.ours:
            return f"{block['text']} [#{block['id']}]_\n\n.. [#{block['id']}] Cited: {keys}."
        role = "cite:t" if block["textual"] else "cite"
        return f"{block['text']} As shown by :{role}:`{keys}`."
    if kind == "footnote":
        return f"{block['text']} [#{block['id']}]_\n\n.. [#{block['id']}] {block['note']}"
    if kind == "aside":
        return f".. {'aside' if book.ours else 'note'}::\n\n{_indent(block['text'])}"
    if kind == "ref":
        role, target, text = block["role"], block["target"], block["text"]
        if role == "doc":
            return f"{text}: :doc:`/{target}`."
        if role in ("link", "filelink"):
            role = "ref"
        return f"{text}: :{role}:`{target}`."
    raise ValueError(kind)


def _toctree_options(page: Page) -> list[str]:
    options = []
    if page.caption:
        options.append(f":caption: {page.caption}")
    if page.numbered:
        options.append(":numbered:")
    return options


def render_page(book: Book, page: Page) -> str:
    blocks = page.blocks
    bibliography = _relative(page, page.bibliography) if page.bibliography else None
    if page.notebook == "ipynb":
        return render_notebook(book, page)
    if page.suffix == ".md":
        front = [JUPYTEXT] if page.notebook == "myst" else []
        front += [f"{key}: {_yaml(page.front[key])}" for key in ("title", "description")
                 if key in page.front]  # fmt: skip
        if page.front.get("authors"):
            front.append("authors:")
            front += [f"  - name: {_yaml(name)}" for name in page.front["authors"]]
        if "published" in page.front:
            # plain myst-nb crashes on a text notebook's YAML date (nbformat cannot
            # write a datetime.date); sphinx_playbook quotes it for myst-nb
            published = page.front["published"]
            if page.notebook and not book.ours:
                published = _yaml(published)
            front.append(f"published: {published}")
        if bibliography and book.ours:
            front.append(f"bibliography: {bibliography}")
        parts = ["---\n" + "\n".join(front) + "\n---" if front else ""]
        parts.append(f"({page.label})=\n# {page.title}")
        rendered = [_md_block(book, page, block) for block in blocks]
        if page.toctree:
            toctree = "\n".join(
                ["```{toctree}", *_toctree_options(page), "", *(f"/{d}" for d in page.toctree)]
            )
            rendered.insert(min(1, len(rendered)), toctree + "\n```")
    else:
        front = [f":{key}: {page.front[key]}" for key in ("title", "description", "published")
                 if key in page.front]  # fmt: skip
        if page.front.get("authors"):
            front.append(f":authors: {'; '.join(page.front['authors'])}")
        if bibliography and book.ours:
            front.append(f":bibliography: {bibliography}")
        parts = ["\n".join(front)] if front else []
        bar = "=" * len(page.title)
        parts.append(f".. _{page.label}:\n\n{bar}\n{page.title}\n{bar}")
        rendered = [_rst_block(book, page, block) for block in blocks]
        if page.toctree:
            options = [f"   {option}" for option in _toctree_options(page)]
            toctree = "\n".join([".. toctree::", *options, "", *(f"   /{d}" for d in page.toctree)])
            rendered.insert(min(1, len(rendered)), toctree)
    return "\n\n".join(part for part in [*parts, *rendered] if part) + "\n"


def render_bib(entries: list[dict[str, str]]) -> str:
    return "".join(
        f"@article{{{e['key']},\n  title = {{{e['title']}}},\n  author = {{{e['author']}}},\n"
        f"  journal = {{Journal of Differential Builds}},\n  year = {{{e['year']}}}\n}}\n\n"
        for e in entries
    )


def render_conf(book: Book) -> str:
    conf = book.conf
    lines = [
        '"""Generated by tests/differential/book.py."""',
        'project = "Differential book"',
        'author = "The authors"',
        'copyright = "2025, The authors"',
        "numfig = True",
        'myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "attrs_block"]',
        f"pygments_style = {conf['pygments_style']!r}",
    ]
    options = {"pygments_light_style": conf["pygments_light_style"]}
    notebooks = has_notebooks(book)
    if notebooks:
        lines.append('nb_execution_mode = "off"')
    if book.ours:
        extensions = ["sphinx_playbook"]
        if notebooks:
            extensions.insert(0 if conf["myst_nb_first"] else 1, "myst_nb")
        lines += [
            f"extensions = {extensions!r}",
            'html_theme = "sphinx_playbook"',
            'playbook_bibfiles = ["refs.bib"]',
            f"playbook_citation_numbering = {conf['citation_numbering']!r}",
            f"playbook_math_macros = {conf['math_macros']!r}",
            f'playbook_interactive_libraries = {{"plotly": "auto", "vega": "{VEGA_LIBRARY}"}}',
            'exclude_patterns = ["exports", "vendor", "jupyter_execute"]',
        ]
    else:
        macros = {}
        for name, body in conf["math_macros"].items():
            arguments = 1 if "#1" in body else 0
            macros[name.lstrip("\\")] = [body, arguments] if arguments else body
        lines += [
            f"extensions = {['myst_nb' if notebooks else 'myst_parser']!r}",
            'html_theme = "pydata_sphinx_theme"',
            f"mathjax3_config = {{'tex': {{'macros': {macros!r}}}}}",
        ]
    lines.append(f"html_theme_options = {options!r}")
    return "\n".join(lines) + "\n"


def render(book: Book) -> dict[str, bytes]:
    """Every source file of the book: relative path -> bytes."""
    files = {"conf.py": render_conf(book).encode()}
    for name, entries in book.bibs.items():
        files[name] = render_bib(entries).encode()
    for name, (width, height, rgb) in book.images.items():
        files[f"images/{name}"] = _png(width, height, rgb)
    if book.ours:
        for name, export in book.exports.items():
            files[f"exports/{name}"] = render_export(export).encode()
        files[VEGA_LIBRARY] = b"/* the book's vega */ var vega = {View: function () {}};\n"
    elif any(b["kind"] == "interactive" and not b["fallback"]
             for p in book.pages.values() for b in p.blocks):  # fmt: skip
        files["images/placeholder.png"] = _png(16, 9, (200, 200, 200))
    for page in book.pages.values():
        files[page.docname + page.suffix] = render_page(book, page).encode()
    return dict(sorted(files.items()))


# -- edits ---------------------------------------------------------------------------------

Edit = Callable[[Book, random.Random], "Book | None"]
EDITS: dict[str, Edit] = {}


def edit(function: Callable[[Book, random.Random], str | None]) -> Edit:
    """Register an edit kind: ``function`` changes a copy in place and returns a
    description, or None when it does not apply (then the copy is dropped)."""

    def apply(book: Book, rng: random.Random) -> Book | None:
        changed = copy.deepcopy(book)
        description = function(changed, rng)
        if description is None:
            return None
        changed.log.append(f"{function.__name__}: {description}")
        return changed

    apply.__name__ = function.__name__
    apply.__doc__ = function.__doc__
    EDITS[function.__name__] = apply
    return apply


def _pick_page(book: Book, rng: random.Random, predicate=lambda page: True) -> Page | None:
    pages = [page for page in book.pages.values() if predicate(page)]
    return rng.choice(pages) if pages else None


def _pick_block(book: Book, rng: random.Random, kind: str, predicate=lambda block: True):
    found = [
        (page, block)
        for page in book.pages.values()
        for block in page.blocks
        if block["kind"] == kind and predicate(block)
    ]
    return rng.choice(found) if found else (None, None)


def _insert(page: Page, block: dict[str, Any], rng: random.Random) -> None:
    page.blocks.insert(rng.randint(min(1, len(page.blocks)), len(page.blocks)), block)


@edit
def prose_edited(book: Book, rng: random.Random) -> str | None:
    page, block = _pick_block(book, rng, "prose")
    if block is None:
        return None
    block["text"] = prose(rng, rng.randint(1, 3))
    return f"{page.docname}: a paragraph rewritten"


@edit
def heading_renamed(book: Book, rng: random.Random) -> str | None:
    page, block = _pick_block(book, rng, "section")
    if block is None:
        return None
    block["title"] = title(rng)
    return f"{page.docname}: section {block['label']} -> {block['title']!r}"


@edit
def section_added(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    section = new_block(book, page, "section", rng)
    _insert(page, section, rng)
    index = page.blocks.index(section)
    page.blocks.insert(index + 1, new_block(book, page, "prose", rng))
    return f"{page.docname}: section {section['label']} {section['title']!r}"


@edit
def page_title_renamed(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    before = page.title
    while page.title == before:  # a new title, never the same one
        page.title = title(rng)
    return f"{page.docname} -> {page.title!r}"


@edit
def root_title_renamed(book: Book, rng: random.Random) -> str | None:
    page = book.pages[ROOT]
    before = page.title
    while page.title == before:  # a new title, never the same one
        page.title = title(rng)
    return f"{ROOT} -> {page.title!r}"


@edit
def toctree_entry_added(book: Book, rng: random.Random) -> str | None:
    """A page outside every toctree is listed again."""
    listed = {child for page in book.pages.values() for child in page.toctree}
    loose = [d for d in book.pages if d != ROOT and d not in listed]
    if not loose:
        return None
    docname = rng.choice(loose)
    parent = rng.choice([d for d in reachable(book) if d not in descendants(book, docname)])
    toctree = book.pages[parent].toctree
    toctree.insert(rng.randint(0, len(toctree)), docname)
    return f"{docname} listed in {parent}"


@edit
def toctree_entry_removed(book: Book, rng: random.Random) -> str | None:
    """The page stays, outside every toctree."""
    page = _pick_page(book, rng, lambda page: bool(page.toctree))
    if page is None:
        return None
    docname = page.toctree.pop(rng.randrange(len(page.toctree)))
    return f"{docname} no longer listed in {page.docname}"


@edit
def toctree_reordered(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng, lambda page: len(page.toctree) > 1)
    if page is None:
        return None
    before = list(page.toctree)
    while page.toctree == before:
        rng.shuffle(page.toctree)
    return f"{page.docname}: {before} -> {page.toctree}"


@edit
def toctree_entry_moved(book: Book, rng: random.Random) -> str | None:
    """An entry moves to another parent's toctree (never under itself)."""
    moves = []
    for parent in book.pages.values():
        for docname in parent.toctree:
            below = descendants(book, docname) | {docname, parent.docname}
            moves += [(parent, docname, other) for other in reachable(book) if other not in below]
    if not moves:
        return None
    parent, docname, other = rng.choice(moves)
    parent.toctree.remove(docname)
    toctree = book.pages[other].toctree
    toctree.insert(rng.randint(0, len(toctree)), docname)
    return f"{docname}: from {parent.docname} to {other}"


@edit
def toctree_caption_changed(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng, lambda page: bool(page.toctree))
    if page is None:
        return None
    page.caption = rng.choice([c for c in CAPTIONS if c != page.caption])
    return f"{page.docname}: caption {page.caption!r}"


@edit
def toctree_numbered_toggled(book: Book, rng: random.Random) -> str | None:
    """The root's toctree only: nested numbered toctrees are an author's error that
    Sphinx warns about and numbers in an order that changes from run to run (it
    walks a set of strings), so two fresh builds would differ."""
    page = book.pages[ROOT]
    page.numbered = not page.numbered
    return f"{page.docname}: numbered={page.numbered}"


@edit
def figure_added(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    figure = new_block(book, page, "figure", rng)
    _insert(page, figure, rng)
    return f"{page.docname}: {figure['label']} ({figure['style']}, {figure['image']})"


def _drop_unused_images(book: Book) -> None:
    """Images and exports no block uses any more are deleted (as an author would)."""
    blocks = [b for p in book.pages.values() for b in p.blocks]
    used = {b["image"] for b in blocks if b["kind"] == "figure"}
    used |= {b["fallback"] for b in blocks if b["kind"] == "interactive" and b["fallback"]}
    for name in [name for name in book.images if name not in used]:
        del book.images[name]
    exports = {b["export"] for b in blocks if b["kind"] == "interactive"}
    for name in [name for name in book.exports if name not in exports]:
        del book.exports[name]


def _drop_references(book: Book, labels: set[str]) -> int:
    dropped = 0
    for page in book.pages.values():
        kept = [b for b in page.blocks if not (b["kind"] == "ref" and b["target"] in labels)]
        dropped += len(page.blocks) - len(kept)
        page.blocks = kept
    return dropped


@edit
def figure_removed(book: Book, rng: random.Random) -> str | None:
    """Half the time the author also removes the references to it (else they dangle)."""
    page, figure = _pick_block(book, rng, "figure")
    if figure is None:
        return None
    page.blocks.remove(figure)
    _drop_unused_images(book)
    dropped = _drop_references(book, {figure["label"]}) if rng.random() < 0.5 else 0
    return f"{page.docname}: {figure['label']} removed, {dropped} references removed"


@edit
def figure_caption_changed(book: Book, rng: random.Random) -> str | None:
    page, figure = _pick_block(book, rng, "figure")
    if figure is None:
        return None
    figure["caption"] = prose(rng, 1)
    return f"{page.docname}: {figure['label']} caption"


@edit
def figure_referenced_elsewhere(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    reference = new_reference(book, page, rng, kind="figure")
    if reference is None:
        return None
    _insert(page, reference, rng)
    return (
        f"{page.docname}: {{{reference['role']}}} to {reference['target']} on {reference['page']}"
    )


@edit
def reference_added(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    reference = new_reference(book, page, rng)
    if reference is None:
        return None
    _insert(page, reference, rng)
    return f"{page.docname}: {reference['role']} to {reference['target']} on {reference['page']}"


@edit
def equation_added(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    equation = new_block(book, page, "equation", rng)
    _insert(page, equation, rng)
    return f"{page.docname}: {equation['label']} ({equation['form']})"


@edit
def equation_changed(book: Book, rng: random.Random) -> str | None:
    page, equation = _pick_block(book, rng, "equation")
    if equation is None:
        return None
    equation["tex"] = rng.choice([tex for tex in EQUATIONS if tex != equation["tex"]])
    return f"{page.docname}: {equation['label']}"


@edit
def formula_changed(book: Book, rng: random.Random) -> str | None:
    page, formula = _pick_block(book, rng, "formula")
    if formula is None:
        return None
    formula["tex"] = rng.choice([tex for tex in FORMULAS if tex != formula["tex"]])
    return f"{page.docname}: inline formula -> {formula['tex']!r}"


@edit
def math_macros_changed(book: Book, rng: random.Random) -> str | None:
    """A macro in conf.py is redefined or added, and a formula uses it."""
    name = rng.choice(list(MACROS))
    current = book.conf["math_macros"].get(name)
    book.conf["math_macros"][name] = rng.choice([m for m in MACROS[name] if m != current])
    page = _pick_page(book, rng)
    formula = {"kind": "formula", "id": book.new_id("b"), "text": sentence(rng)}
    formula["tex"] = MACRO_USES[name]
    _insert(page, formula, rng)
    return f"{name} = {book.conf['math_macros'][name]!r}, used on {page.docname}"


@edit
def equation_removed(book: Book, rng: random.Random) -> str | None:
    """A display formula goes (the site's math stylesheet may lose a font with it);
    half the time the references to it go too."""
    page, equation = _pick_block(book, rng, "equation")
    if equation is None:
        return None
    page.blocks.remove(equation)
    dropped = _drop_references(book, {equation["label"]}) if rng.random() < 0.5 else 0
    return f"{page.docname}: {equation['label']} removed, {dropped} references removed"


@edit
def formula_removed(book: Book, rng: random.Random) -> str | None:
    page, formula = _pick_block(book, rng, "formula")
    if formula is None:
        return None
    page.blocks.remove(formula)
    return f"{page.docname}: inline formula {formula['tex']!r} removed"


@edit
def interactive_added(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    block = new_block(book, page, "interactive", rng)
    _insert(page, block, rng)
    export = book.exports[block["export"]]
    return (
        f"{page.docname}: {block['label']} ({export['flavour']}, {block['isolation']}, "
        f"theme {block['theme']}, fallback {block['fallback']})"
    )


@edit
def interactive_edited(book: Book, rng: random.Random) -> str | None:
    """The export's data, its theme or isolation, or its static fallback changes."""
    page, block = _pick_block(book, rng, "interactive")
    if block is None:
        return None
    what = rng.choice(("data", "flavour", "theme", "isolation", "fallback"))
    export = book.exports[block["export"]]
    if what == "data":
        export["values"] = [v + rng.randint(1, 3) for v in export["values"]]
    elif what == "flavour":
        export["flavour"] = rng.choice([f for f in EXPORT_FLAVOURS if f != export["flavour"]])
    elif what == "theme":
        block["theme"] = {"follow": "fixed", "fixed": "follow"}[block["theme"]]
    elif what == "isolation":
        block["isolation"] = {"iframe": "inline", "inline": "iframe"}[block["isolation"]]
    elif block["fallback"] and rng.random() < 0.3:
        block["fallback"] = None
        _drop_unused_images(book)
    else:
        block["fallback"] = f"img-{book.new_id('i').split('-')[1]}.png"
        book.images[block["fallback"]] = _image(rng)
        _drop_unused_images(book)
    return f"{page.docname}: {block['label']} {what}"


@edit
def interactive_removed(book: Book, rng: random.Random) -> str | None:
    page, block = _pick_block(book, rng, "interactive")
    if block is None:
        return None
    page.blocks.remove(block)
    _drop_unused_images(book)
    return f"{page.docname}: {block['label']} removed"


@edit
def citation_added(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    cites = [b for b in page.blocks if b["kind"] == "cite"]
    keys = _cite_keys(book, page)
    if cites and rng.random() < 0.5:
        block = rng.choice(cites)
        block["keys"].insert(rng.randint(0, len(block["keys"])), rng.choice(keys))
        return f"{page.docname}: key {block['keys']}"
    block = new_block(book, page, "cite", rng)
    _insert(page, block, rng)
    return f"{page.docname}: citation of {block['keys']}"


@edit
def citation_removed(book: Book, rng: random.Random) -> str | None:
    page, block = _pick_block(book, rng, "cite")
    if block is None:
        return None
    if len(block["keys"]) > 1 and rng.random() < 0.5:
        key = block["keys"].pop(rng.randrange(len(block["keys"])))
        return f"{page.docname}: key {key} removed"
    page.blocks.remove(block)
    return f"{page.docname}: citation of {block['keys']} removed"


@edit
def citations_reordered(book: Book, rng: random.Random) -> str | None:
    """Two citations of a page swap places (or a citation's keys change order)."""
    page = _pick_page(book, rng, lambda p: sum(b["kind"] == "cite" for b in p.blocks) > 1)
    if page is None:
        page, block = _pick_block(book, rng, "cite", lambda b: len(b["keys"]) > 1)
        if block is None:
            return None
        block["keys"].reverse()
        return f"{page.docname}: keys {block['keys']}"
    positions = [i for i, b in enumerate(page.blocks) if b["kind"] == "cite"]
    a, b = rng.sample(positions, 2)
    page.blocks[a], page.blocks[b] = page.blocks[b], page.blocks[a]
    return f"{page.docname}: citations swapped"


@edit
def bib_entry_edited(book: Book, rng: random.Random) -> str | None:
    name = rng.choice(list(book.bibs))
    entry = rng.choice(book.bibs[name])
    if rng.random() < 0.5:
        entry["title"] = f"On {title(rng).lower()}"
    else:
        entry["year"] = str(int(entry["year"]) + rng.choice((-2, -1, 1, 3)))
    return f"{name}: {entry['key']} title={entry['title']!r} year={entry['year']}"


@edit
def page_bibliography_changed(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    page.bibliography = rng.choice([b for b in (None, "other.bib", "more.bib")
                                     if b != page.bibliography])  # fmt: skip
    if page.bibliography and rng.random() < 0.7:
        block = new_block(book, page, "cite", rng)
        block["keys"] = [rng.choice(book.bibs[page.bibliography])["key"]]
        _insert(page, block, rng)
    return f"{page.docname}: bibliography={page.bibliography}"


@edit
def citation_numbering_switched(book: Book, rng: random.Random) -> str | None:
    book.conf["citation_numbering"] = {"page": "book", "book": "page"}[
        book.conf["citation_numbering"]
    ]
    return book.conf["citation_numbering"]


@edit
def front_matter_edited(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    key = rng.choice(("description", "authors", "published", "title"))
    if key == "description":
        page.front[key] = sentence(rng)
    elif key == "authors":
        page.front[key] = rng.sample(PEOPLE, rng.randint(1, 3))
    elif key == "published":
        page.front[key] = rng.choice([d for d in DATES if d != page.front.get(key)])
    elif key in page.front and rng.random() < 0.5:
        del page.front[key]
        return f"{page.docname}: title removed from the front matter"
    else:
        page.front[key] = f"{title(rng)}: a subtitle"
    return f"{page.docname}: {key}={page.front[key]!r}"


@edit
def code_block_changed(book: Book, rng: random.Random) -> str | None:
    page, block = _pick_block(book, rng, "code")
    if block is None:
        return None
    block["language"] = rng.choice([lang for lang in LANGUAGES if lang != block["language"]])
    block["text"] = rng.choice(CODE[block["language"]])
    return f"{page.docname}: code block in {block['language']}"


@edit
def pygments_style_changed(book: Book, rng: random.Random) -> str | None:
    current = book.conf["pygments_style"]
    book.conf["pygments_style"] = rng.choice([s for s in PYGMENTS_STYLES if s != current])
    return book.conf["pygments_style"]


@edit
def pygments_light_style_changed(book: Book, rng: random.Random) -> str | None:
    current = book.conf["pygments_light_style"]
    book.conf["pygments_light_style"] = rng.choice([s for s in LIGHT_STYLES if s != current])
    return book.conf["pygments_light_style"]


@edit
def image_replaced(book: Book, rng: random.Random) -> str | None:
    """The same file name, another image of another size."""
    if not book.images:
        return None
    name = rng.choice(list(book.images))
    before = book.images[name]
    while book.images[name][:2] == before[:2]:
        book.images[name] = _image(rng)
    return f"{name}: {before[0]}x{before[1]} -> {book.images[name][0]}x{book.images[name][1]}"


@edit
def image_width_changed(book: Book, rng: random.Random) -> str | None:
    """A figure's ``:width:`` set, changed or removed: its responsive copies, its
    ``sizes`` and its ``width``/``height`` attributes follow."""
    page, figure = _pick_block(book, rng, "figure", lambda block: block["style"] == "figure")
    if figure is None:
        return None
    before = figure.get("width")
    figure["width"] = rng.choice([w for w in (None, "300px", "480px", "50%") if w != before])
    return f"{page.docname}: {figure['label']} width {before} -> {figure['width']}"


@edit
def footnote_edited(book: Book, rng: random.Random) -> str | None:
    page, block = _pick_block(book, rng, "footnote")
    if block is None or rng.random() < 0.3:
        page = _pick_page(book, rng)
        block = new_block(book, page, "footnote", rng)
        _insert(page, block, rng)
        return f"{page.docname}: footnote added"
    block["note"] = sentence(rng)
    return f"{page.docname}: footnote text"


@edit
def aside_added(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng)
    _insert(page, new_block(book, page, "aside", rng), rng)
    return page.docname


def _new_docname(book: Book, rng: random.Random) -> str:
    folder = rng.choice(("", "", f"{FOLDER}/"))
    return f"{folder}{rng.choice(PAGE_NAMES)}-{book.new_id('p').split('-')[1]}"


@edit
def page_added(book: Book, rng: random.Random) -> str | None:
    docname = _new_docname(book, rng)
    page = _new_page(book, rng, docname, ".rst" if rng.random() < 0.2 else ".md")
    book.pages[docname] = page
    parent = rng.choice(reachable(book))
    toctree = book.pages[parent].toctree
    toctree.insert(rng.randint(0, len(toctree)), docname)
    return f"{docname}{page.suffix} listed in {parent}"


@edit
def page_renamed(book: Book, rng: random.Random) -> str | None:
    """The file moves; its toctree entries and the links to it follow."""
    page = _pick_page(book, rng, lambda page: page.docname != ROOT)
    if page is None:
        return None
    old, new = page.docname, _new_docname(book, rng)
    page.docname = new
    book.pages = {(new if d == old else d): p for d, p in book.pages.items()}
    for other in book.pages.values():
        other.toctree = [new if d == old else d for d in other.toctree]
        for block in other.blocks:
            if block["kind"] == "ref" and block["page"] == old:
                block["page"] = new
                if block["role"] == "doc":
                    block["target"] = new
    return f"{old}{page.suffix} -> {new}{page.suffix}"


def _delete(book: Book, rng: random.Random, *, keep_entry: bool) -> str | None:
    page = _pick_page(book, rng, lambda p: p.docname != ROOT and not p.toctree)
    if page is None:
        return None
    del book.pages[page.docname]
    _drop_unused_images(book)
    if keep_entry:
        return f"{page.docname}{page.suffix} deleted, its toctree entry and links kept"
    for other in book.pages.values():
        other.toctree = [d for d in other.toctree if d != page.docname]
        other.blocks = [
            b for b in other.blocks if not (b["kind"] == "ref" and b["page"] == page.docname)
        ]
    return f"{page.docname}{page.suffix} deleted with its toctree entry and the links to it"


@edit
def page_deleted(book: Book, rng: random.Random) -> str | None:
    return _delete(book, rng, keep_entry=False)


@edit
def page_deleted_entry_kept(book: Book, rng: random.Random) -> str | None:
    """The file is deleted but the toctree still lists it: a warning, never a crash."""
    return _delete(book, rng, keep_entry=True)


# -- notebook edits ------------------------------------------------------------------------


def _pick_cell(
    book: Book,
    rng: random.Random,
    flavours: tuple[str, ...] = ("ipynb", "myst"),
    predicate: Callable[[dict[str, Any]], bool] = lambda block: True,
) -> tuple[Page | None, dict[str, Any] | None]:
    found = [
        (page, block)
        for page in book.pages.values()
        if page.notebook in flavours
        for block in page.blocks
        if block["kind"] == "cell" and predicate(block)
    ]  # fmt: skip
    return rng.choice(found) if found else (None, None)


@edit
def notebook_added(book: Book, rng: random.Random) -> str | None:
    """A chapter written as a ``.ipynb`` (or a MyST text notebook) joins a toctree."""
    flavour = "ipynb" if rng.random() < 0.7 else "myst"
    page = _new_notebook(book, rng, flavour)
    book.pages[page.docname] = page
    parent = rng.choice(reachable(book))
    toctree = book.pages[parent].toctree
    toctree.insert(rng.randint(0, len(toctree)), page.docname)
    return f"{page.docname}{page.suffix} ({flavour}) listed in {parent}"


@edit
def notebook_listing_toggled(book: Book, rng: random.Random) -> str | None:
    """A notebook leaves every toctree (it stays, unlisted), or is listed again."""
    page = _pick_page(book, rng, lambda page: bool(page.notebook))
    if page is None:
        return None
    listed = parents(book, page.docname)
    if listed:
        for parent in listed:
            book.pages[parent].toctree.remove(page.docname)
        return f"{page.docname}{page.suffix} no longer listed in {', '.join(listed)}"
    parent = rng.choice([d for d in reachable(book) if d not in descendants(book, page.docname)])
    toctree = book.pages[parent].toctree
    toctree.insert(rng.randint(0, len(toctree)), page.docname)
    return f"{page.docname}{page.suffix} listed in {parent}"


@edit
def notebook_cell_source_changed(book: Book, rng: random.Random) -> str | None:
    page, cell = _pick_cell(book, rng)
    if cell is None:
        return None
    cell["source"] = rng.choice([s for s in CELL_SOURCES if s != cell["source"]])
    return f"{page.docname}: cell {cell['id']} source {cell['source'].splitlines()[0]!r}"


@edit
def notebook_output_changed(book: Book, rng: random.Random) -> str | None:
    """A stored output is replaced: the Plotly figure's data, size or PNG, a PNG by
    one of another size, a table's rows, printed text, or an output of another kind."""
    page, cell = _pick_cell(book, rng, ("ipynb",))
    if cell is None:
        return None
    output = cell["output"]
    kind = output["type"]
    if kind is None or rng.random() < 0.2:
        cell["output"] = _cell_output(rng, other_than=kind)
        return f"{page.docname}: cell {cell['id']} output {kind} -> {cell['output']['type']}"
    if kind == "plotly":
        what = rng.choice(("data", "size", "png"))
        if what == "data":
            output["values"] = [v + rng.randint(1, 3) for v in output["values"]]
        elif what == "size":
            output["size"] = rng.choice([s for s in (None, (600, 400), (500, 300))
                                         if s != output["size"]])  # fmt: skip
        elif output["png"] and rng.random() < 0.4:
            output["png"] = None
        else:
            before = output["png"]
            while output["png"] == before:
                output["png"] = _cell_image(rng)
        return f"{page.docname}: cell {cell['id']} plotly {what}"
    if kind == "png":
        before = output["image"]
        while output["image"][:2] == before[:2]:
            output["image"] = _cell_image(rng)
        size = f"{before[0]}x{before[1]} -> {output['image'][0]}x{output['image'][1]}"
        return f"{page.docname}: cell {cell['id']} png {size}"
    if kind == "table":
        output["rows"] = [[a + 1, b] for a, b in output["rows"]]
    else:
        output["text"] = sentence(rng)
    return f"{page.docname}: cell {cell['id']} {kind} changed"


@edit
def notebook_cell_tags_changed(book: Book, rng: random.Random) -> str | None:
    page, cell = _pick_cell(book, rng)
    if cell is None:
        return None
    tag = rng.choice(CELL_TAGS)
    if tag in cell["tags"]:
        cell["tags"].remove(tag)
        return f"{page.docname}: cell {cell['id']} tag {tag} removed"
    cell["tags"].append(tag)
    return f"{page.docname}: cell {cell['id']} tag {tag} added"


@edit
def notebook_cell_metadata_changed(book: Book, rng: random.Random) -> str | None:
    """The ``playbook`` metadata: a legend rewritten or removed, a label added or
    removed (half the time with the references to it), the layout, the aside."""
    page, cell = _pick_cell(book, rng)
    if cell is None:
        return None
    what = rng.choice(("legend", "label", "layout", "aside"))
    if what == "legend":
        cell["legend"] = None if cell["legend"] and rng.random() < 0.3 else prose(rng, 1)
    elif what == "label" and cell["label"]:
        label, cell["label"] = cell["label"], None
        dropped = _drop_references(book, {label}) if rng.random() < 0.5 else 0
        return f"{page.docname}: cell {cell['id']} label {label} removed, {dropped} references"
    elif what == "label":
        cell["label"] = book.new_id("fig")
        cell["legend"] = cell["legend"] or prose(rng, 1)
    elif what == "layout":
        cell["layout"] = rng.choice([lay for lay in CELL_LAYOUTS if lay != cell["layout"]])
    else:
        cell["aside"] = None if cell["aside"] and rng.random() < 0.4 else sentence(rng)
    return f"{page.docname}: cell {cell['id']} {what}={cell[what]!r}"


@edit
def notebook_figure_referenced(book: Book, rng: random.Random) -> str | None:
    """A ``{numref}`` (or ``{ref}``) from another page to a cell's legend."""
    page, cell = _pick_cell(book, rng, predicate=lambda block: bool(block["label"]))
    if cell is None:
        return None
    other = _pick_page(book, rng, lambda p: p.docname != page.docname)
    if other is None:
        return None
    role = rng.choice(("numref", "numref", "ref"))
    reference = {"kind": "ref", "id": book.new_id("b"), "role": role, "target": cell["label"],
                 "page": page.docname, "text": "As the notebook shows"}  # fmt: skip
    _insert(other, reference, rng)
    return f"{other.docname}: {{{reference['role']}}} to {cell['label']} on {page.docname}"


@edit
def notebook_cell_added(book: Book, rng: random.Random) -> str | None:
    page = _pick_page(book, rng, lambda page: bool(page.notebook))
    if page is None:
        return None
    cell = _new_cell(book, rng)
    _insert(page, cell, rng)
    return f"{page.docname}: cell {cell['id']} ({cell['output']['type']}, label {cell['label']})"


@edit
def notebook_cell_removed(book: Book, rng: random.Random) -> str | None:
    page, cell = _pick_cell(book, rng)
    if cell is None:
        return None
    page.blocks.remove(cell)
    dropped = 0
    if cell["label"] and rng.random() < 0.5:
        dropped = _drop_references(book, {cell["label"]})
    return f"{page.docname}: cell {cell['id']} removed, {dropped} references removed"


@edit
def notebook_extensions_reordered(book: Book, rng: random.Random) -> str | None:
    """myst_nb before or after sphinx_playbook in conf.py's ``extensions``."""
    if not has_notebooks(book):
        return None
    book.conf["myst_nb_first"] = not book.conf["myst_nb_first"]
    return "myst_nb first" if book.conf["myst_nb_first"] else "myst_nb last"


def random_edits(
    book: Book, rng: random.Random, count: int, kinds: list[str] | None = None
) -> tuple[Book, list[str]]:
    """``count`` edits of random kinds (among ``kinds``): the book and their descriptions."""
    names = sorted(kinds or EDITS)
    done: list[str] = []
    for _ in range(count):
        order = list(names)
        rng.shuffle(order)
        for name in order:
            changed = EDITS[name](book, rng)
            if changed is not None:
                book = changed
                done.append(changed.log[-1])
                break
    return book, done
