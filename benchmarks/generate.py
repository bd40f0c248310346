"""Write a synthetic book twice: in sphinx_playbook's syntax and in stock Sphinx's.

The two books say the same things with each side's own constructs, so that their
build times, memory and pages can be compared:

========================  ==================================  ==============================
content                   ours (sphinx_playbook)              baseline (pydata-sphinx-theme)
========================  ==================================  ==============================
note in the margin        ``{aside}``                         ``{sidebar}``
figure with a legend      image + ``{figure-legend}``         ``{figure}`` with a caption
full-bleed image          ``{wide-image}``                    ``{figure}`` at 100 %
code side by side         ``{side-by-side}``                  two code blocks, one after the other
citation                  ``{cite}`` into a 1,000-entry .bib  a footnote with the reference
math                      ``$...$``, ``$$...$$`` (KaTeX)      the same (MathJax in the browser)
cross-reference           ``{ref}``, ``{doc}`` with a card    the same, a plain link
========================  ==================================  ==============================

Size 1 is about one Ultra-Scale Playbook (30,000 words, ~250 formulas, ~45
asides, ~100 figures, 30 citations) split into CHAPTERS_PER_SIZE chapters; size
``n`` has ``n`` times as many chapters. The text is deterministic (a seeded
random generator), so every run builds the same book. Images are written here,
at run time, so the repository stays light.

Usage: ``python benchmarks/generate.py OUT_DIR --size 1`` writes ``OUT_DIR/ours``
and ``OUT_DIR/baseline``.
"""

from __future__ import annotations

import argparse
import random
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

#: Chapters in a size-1 book: one Playbook of 30,000 words in pages of 5,000.
CHAPTERS_PER_SIZE = 6
#: Entries in the generated bibliography.
BIB_ENTRIES = 1000


@dataclass(frozen=True)
class ChapterPlan:
    """What one chapter holds; six of them make one Ultra-Scale Playbook."""

    paragraphs: int = 50  # ~90 words each
    inline_math: int = 38
    display_math: int = 4  # one of them an aligned block
    asides: int = 8  # 7 or 8: 45 in six chapters
    figures: int = 14  # image + legend
    wide_images: int = 2
    side_by_side: int = 1
    citations: int = 5
    footnotes: int = 3
    tables: int = 2
    admonitions: int = 2
    #: {ref} links to sections (of the previous chapter, else this one) and one
    #: {doc} link: what hover cards cost (sphinx_playbook writes one per target).
    cross_references: int = 6


PLAN = ChapterPlan()

_VOCABULARY = (
    "gradient tensor memory activation batch throughput parameter optimizer shard "
    "pipeline stage bubble overlap communication bandwidth latency kernel fusion "
    "attention sequence token layer weight precision accumulation checkpoint "
    "recomputation cluster node device stream buffer collective reduce scatter "
    "gather broadcast schedule micro step loss scaling replica rank topology "
    "the a of to and in that is for with as on by we this it from at each which "
    "training model data large small fast slow more less every one two when then"
)
WORDS = _VOCABULARY.split()

BASELINE_CONF = '''"""The stock-Sphinx twin of the benchmark book: plain pydata-sphinx-theme."""

project = "Benchmark book"
author = "Benchmark"
copyright = "2026, Benchmark"
extensions = ["myst_parser"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
html_theme = "pydata_sphinx_theme"
exclude_patterns = ["_build"]
numfig = True
'''

OURS_CONF = '''"""The sphinx_playbook benchmark book."""

project = "Benchmark book"
author = "Benchmark"
copyright = "2026, Benchmark"
extensions = ["sphinx_playbook"]
myst_enable_extensions = ["attrs_block", "colon_fence", "dollarmath"]
html_theme = "sphinx_playbook"
exclude_patterns = ["_build"]
numfig = True
playbook_bibfiles = ["references.bib"]
playbook_authors = [{"name": "Benchmark Author"}]
playbook_published = "2026-01-01"
'''


class Text:
    """Deterministic filler text and formulas."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def words(self, count: int) -> str:
        return " ".join(self.random.choice(WORDS) for _ in range(count))

    def sentence(self, count: int = 15) -> str:
        text = self.words(count)
        return text[0].upper() + text[1:] + "."

    def title(self) -> str:
        return self.words(3).capitalize()

    def inline_formula(self) -> str:
        """A varied formula, so a render cache cannot make the benchmark trivial."""
        i, j, k = (self.random.randint(1, 64) for _ in range(3))
        return self.random.choice(
            (
                f"x_{{{i}}} + y^{{{j}}}",
                f"\\frac{{{i}}}{{{j}}} \\cdot N_{{{k}}}",
                f"\\sum_{{n={i}}}^{{{j}}} a_n b_{{n+{k}}}",
                f"\\sqrt{{{i} \\Psi + {j}}}",
                f"\\mathcal{{O}}(n^{{{i}}} \\log {j})",
                f"m_{{{i}}} = {j} \\times \\Phi_{{{k}}}",
                f"\\alpha_{{{i}}} \\leq \\beta^{{{j}}}",
            )
        )

    def display_formula(self, aligned: bool) -> str:
        i, j, k = (self.random.randint(2, 99) for _ in range(3))
        if aligned:
            return (
                "\\begin{aligned}\n"
                f"m_{{params}} &= {i} \\Psi + {j} \\Psi \\\\\n"
                f"m_{{grad}} &= \\frac{{{k} \\Psi}}{{N_d}} + \\sum_{{l=1}}^{{L}} a_l\n"
                "\\end{aligned}"
            )
        return f"t_{{comm}} = \\frac{{{i} \\cdot \\Psi \\cdot (N - 1)}}{{{j} N B}} + {k}"


def _png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    """A plain-colour PNG (stdlib only): compresses to a few hundred bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    row = b"\x00" + bytes(colour) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height, 9))
        + chunk(b"IEND", b"")
    )


def _svg(width: int, height: int, hue: int) -> str:
    bars = "".join(
        f'<rect x="{20 + index * 60}" y="{height - 20 - (index + 1) * 25}" width="40" '
        f'height="{(index + 1) * 25}" fill="hsl({hue + index * 20}, 60%, 50%)"/>'
        for index in range(min(8, (width - 40) // 60))
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><rect width="100%" height="100%" fill="#fafafa"/>'
        f"{bars}</svg>\n"
    )


IMAGES = {
    "figure-a.svg": lambda: _svg(600, 240, 200).encode(),
    "figure-b.svg": lambda: _svg(500, 300, 20).encode(),
    "figure-c.png": lambda: _png(640, 320, (70, 130, 180)),
    "band.png": lambda: _png(1200, 300, (230, 120, 60)),
}
FIGURE_IMAGES = ("figure-a.svg", "figure-b.svg", "figure-c.png")


def bibliography(entries: int = BIB_ENTRIES) -> str:
    text = Text(seed=1)
    parts = []
    for number in range(entries):
        authors = " and ".join(
            f"{text.words(1).capitalize()}, {chr(65 + (number + n) % 26)}." for n in range(3)
        )
        parts.append(
            f"@article{{ref{number},\n"
            f"  title = {{{text.sentence(8)[:-1]}}},\n"
            f"  author = {{{authors}}},\n"
            f"  journal = {{Journal of {text.title()}}},\n"
            f"  year = {{{1990 + number % 35}}},\n"
            f"  doi = {{10.5555/bench.{number}}},\n"
            "}\n"
        )
    return "\n".join(parts)


def _reference_text(key: str) -> str:
    """The baseline's footnote text for a citation: what a reader would otherwise see."""
    number = int(key.removeprefix("ref"))
    text = Text(seed=10_000 + number)
    return f"{text.words(3).title()}. *{text.sentence(8)[:-1]}*. Journal, {1990 + number % 35}."


def chapter(number: int, ours: bool) -> str:
    """One chapter of ~5,000 words; ``ours`` picks the syntax."""
    text = Text(seed=number)
    plan = PLAN
    asides = plan.asides - (number % 2)  # 7 or 8
    paragraphs = plan.paragraphs
    # Spread each kind of block evenly over the chapter's paragraphs.
    slots: dict[int, list[str]] = {}

    def spread(kind: str, count: int, offset: int) -> None:
        for index in range(count):
            slot = (offset + index * paragraphs // max(count, 1)) % paragraphs
            slots.setdefault(slot, []).append(kind)

    spread("display", plan.display_math, 3)
    spread("aside", asides, 1)
    spread("figure", plan.figures, 2)
    spread("wide", plan.wide_images, 11)
    spread("side", plan.side_by_side, 17)
    spread("table", plan.tables, 7)
    spread("admonition", plan.admonitions, 13)
    inline_per_paragraph = [0] * paragraphs
    for index in range(plan.inline_math):
        inline_per_paragraph[(index * paragraphs) // plan.inline_math] += 1
    cite_paragraphs = {5 + index * 9 for index in range(plan.citations)}
    xref_paragraphs = {6 + index * 7 for index in range(plan.cross_references)}
    linked = number - 1 if number > 1 else number
    footnote_paragraphs = {4 + index * 15 for index in range(plan.footnotes)}

    lines: list[str] = []
    if ours:
        lines += [
            "---",
            f"description: Chapter {number} of the benchmark book.",
            "---",
            "",
        ]
    lines += [f"# Chapter {number}: {text.title()}", ""]
    footnotes: list[str] = []
    figure_count = display_count = 0
    for index in range(paragraphs):
        if index % 10 == 0 and index:
            label = f"c{number}-s{index // 10}"
            lines += [f"({label})=", f"## {text.title()} {number}.{index // 10}", ""]
        sentences = [text.sentence(15) for _ in range(6)]
        for _ in range(inline_per_paragraph[index]):
            sentences[text.random.randrange(6)] += f" We have ${text.inline_formula()}$."
        if index in cite_paragraphs:
            key = f"ref{(number * 37 + index * 11) % BIB_ENTRIES}"
            if ours:
                sentences[2] += f" {{cite}}`{key}`"
            else:
                label = f"c{number}-{index}"
                sentences[2] += f"[^{label}]"
                footnotes.append(f"[^{label}]: {_reference_text(key)}")
        if index in xref_paragraphs:
            if index == min(xref_paragraphs):
                sentences[3] += f" See {{doc}}`chapter-{linked:03d}`."
            else:
                section = 1 + (index // 7) % (paragraphs // 10 - 1)
                sentences[3] += f" See {{ref}}`c{linked}-s{section}`."
        if index in footnote_paragraphs:
            label = f"n{number}-{index}"
            sentences[4] += f"[^{label}]"
            footnotes.append(f"[^{label}]: {text.sentence(12)}")
        lines += [" ".join(sentences), ""]
        for kind in slots.get(index, []):
            if kind == "display":
                aligned = display_count == 0
                display_count += 1
                lines += ["$$", text.display_formula(aligned), "$$", ""]
            elif kind == "aside":
                body = text.sentence(20)
                if ours:
                    lines += [":::{aside}", body, ":::", ""]
                else:
                    lines += [":::{sidebar} Note", body, ":::", ""]
            elif kind == "figure":
                image = FIGURE_IMAGES[figure_count % len(FIGURE_IMAGES)]
                figure_count += 1
                alt = text.words(4)
                legend = text.sentence(18)
                if ours:
                    lines += [f"![{alt}](images/{image})", "", "```{figure-legend}", legend]
                    lines += ["```", ""]
                else:
                    lines += [f"```{{figure}} images/{image}", f":alt: {alt}", "", legend]
                    lines += ["```", ""]
            elif kind == "wide":
                alt, legend = text.words(4), text.sentence(14)
                if ours:
                    lines += ["```{wide-image} images/band.png", f":alt: {alt}", ":width: 1200px"]
                    lines += ["", legend, "```", ""]
                else:
                    lines += ["```{figure} images/band.png", f":alt: {alt}", ":width: 100%"]
                    lines += ["", legend, "```", ""]
            elif kind == "side":
                blocks = [
                    "```{code-block} python",
                    ":caption: Forward",
                    "",
                    "def forward(x, weight):",
                    "    return x @ weight.T",
                    "```",
                    "",
                    "```{code-block} python",
                    ":caption: Backward",
                    "",
                    "def backward(grad, x):",
                    "    return grad.T @ x",
                    "```",
                ]
                if ours:
                    lines += ["::::{side-by-side}", *blocks, "::::", ""]
                    lines += ["```{figure-legend}", text.sentence(12), "```", ""]
                else:
                    lines += [*blocks, "", text.sentence(12), ""]
            elif kind == "table":
                lines += [
                    "| strategy | memory | throughput |",
                    "| --- | --- | --- |",
                    *(
                        f"| {text.words(2)} | {text.random.randint(1, 80)} GB "
                        f"| {text.random.randint(100, 900)} tok/s |"
                        for _ in range(5)
                    ),
                    "",
                ]
            elif kind == "admonition":
                kind_name = text.random.choice(("note", "warning", "tip"))
                lines += [f":::{{{kind_name}}}", text.sentence(25), ":::", ""]
    if ours and number % 3 == 0:
        lines += [":::{layout} page", text.sentence(30), ":::", ""]
    lines += [*footnotes, ""]
    return "\n".join(lines)


def index(chapters: int, ours: bool) -> str:
    lines: list[str] = []
    if ours:
        lines += [
            "---",
            "title: The Benchmark Playbook",
            "description: A synthetic book for timing sphinx_playbook.",
            "---",
            "",
        ]
    lines += [
        "# The Benchmark Playbook",
        "",
        Text(seed=0).sentence(40),
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        *(f"chapter-{number:03d}" for number in range(1, chapters + 1)),
        "```",
        "",
    ]
    return "\n".join(lines)


def write_book(root: Path, chapters: int, ours: bool) -> Path:
    """Write one book of ``chapters`` chapters (sources, conf.py, images, .bib)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text(OURS_CONF if ours else BASELINE_CONF, encoding="utf-8")
    images = root / "images"
    images.mkdir(exist_ok=True)
    for name, make in IMAGES.items():
        (images / name).write_bytes(make())
    if ours:
        (root / "references.bib").write_text(bibliography(), encoding="utf-8")
    (root / "index.md").write_text(index(chapters, ours), encoding="utf-8")
    for number in range(1, chapters + 1):
        path = root / f"chapter-{number:03d}.md"
        path.write_text(chapter(number, ours), encoding="utf-8")
    return root


def write_books(out: Path, chapters: int) -> tuple[Path, Path]:
    """Both books: ``out/ours`` and ``out/baseline``."""
    return write_book(out / "ours", chapters, True), write_book(out / "baseline", chapters, False)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="directory for ours/ and baseline/")
    parser.add_argument("--size", type=int, default=1, help="1 = one Ultra-Scale Playbook")
    parser.add_argument("--chapters", type=int, help="chapters (overrides --size)")
    arguments = parser.parse_args(argv)
    chapters = arguments.chapters or arguments.size * CHAPTERS_PER_SIZE
    ours, baseline = write_books(arguments.out, chapters)
    print(f"wrote {ours} and {baseline} ({chapters} chapters)")


if __name__ == "__main__":
    main()
