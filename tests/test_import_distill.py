"""``sphinx-playbook import-distill``: each fixture article imported, built with -W, and
compared with its source block by block (text, formulas, code, images, links,
emphasis, citations, footnotes), plus the report and the bad-input errors.

The source side is read with html5lib, as a browser reads it; the built side is
the page Sphinx wrote. Neither side is a snapshot of our own output.
"""

from __future__ import annotations

import io
import json
import re
import textwrap
from pathlib import Path, PurePosixPath

import pytest
from bs4 import BeautifulSoup, Comment, NavigableString, Tag
from docutils.nodes import make_id
from helpers import read_page, sphinx_build, write_project
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

from sphinx_playbook.cli import main

FIXTURES = Path(__file__).parent / "data" / "distill"
ARTICLES = ("basic", "broken", "grid", "bib-src", "fragments")

#: Elements that continue a line of text; everything else separates blocks.
INLINE = frozenset(
    {
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "br",
        "cite",
        "code",
        "data",
        "dfn",
        "em",
        "i",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "time",
        "u",
        "var",
        "wbr",
        "img",
        "del",
        "ins",
        "label",
        "tt",
        "math",
        "d-cite",
        "d-footnote",
        "d-math",
        "d-code",
    }
)

BLOCKS = ["p", "div", "ul", "ol", "h2", "h3", "pre", "table", "blockquote", "figure"]


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> dict[str, dict]:
    """Every fixture imported and built once with -W: (out, stdout, exit codes)."""
    results = {}
    base = tmp_path_factory.mktemp("imported")
    for name in ARTICLES:
        out = base / name
        code = main(["import-distill", str(FIXTURES / name), str(out)])
        build = sphinx_build(
            "-W", "-q", "-b", "html", "-d", str(out / "_doctrees"), str(out), str(out / "_html")
        ).returncode
        results[name] = {"out": out, "code": code, "build": build}
    return results


# -- the two sides -------------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(text.split())


def _code_text(text: str) -> str:
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    return textwrap.dedent("\n".join(line.rstrip() for line in lines)).strip()


def _segments(root: Tag) -> list[str]:
    """The text of each run of inline content, split at every block element."""
    runs = [""]

    def walk(node) -> None:
        if isinstance(node, Comment):
            return
        if isinstance(node, NavigableString):
            runs[-1] += str(node)
        elif isinstance(node, Tag):
            inline = node.name in INLINE
            if not inline:
                runs.append("")
            for child in node.children:
                walk(child)
            if not inline:
                runs.append("")

    walk(root)
    return [_norm(run) for run in runs if _norm(run)]


def _own_runs(element: Tag) -> list[str]:
    """An emphasis element's runs of text outside the blocks it holds (an unclosed <em>
    around blocks, as a browser builds it, styles those runs; the import keeps that)."""
    runs = [""]

    def walk(node: Tag) -> None:
        for child in node.children:
            if isinstance(child, Comment):
                continue
            if isinstance(child, NavigableString):
                runs[-1] += str(child)
            elif child.name in INLINE and child.find(BLOCKS) is None:
                runs[-1] += child.get_text()
            elif child.name in INLINE:
                walk(child)
            else:
                runs.append("")

    walk(element)
    return [_norm(run) for run in runs if _norm(run)]


def _collect(root: Tag, *, links: list[Tag], emphasis: list[Tag], strong: list[Tag]) -> dict:
    return {
        "text": _segments(root),
        "links": [(a["href"], _norm(a.get_text())) for a in links],
        "emphasis": [_norm(e.get_text()) for e in emphasis],
        "strong": [_norm(s.get_text()) for s in strong],
    }


def source_side(name: str) -> dict:
    """What the Distill page shows a reader, read from the fixture with html5lib."""
    soup = BeautifulSoup((FIXTURES / name / "index.html").read_text("utf-8"), "html5lib")
    front_script = soup.select_one("d-front-matter script")
    front = json.loads(front_script.string) if front_script else {}
    delimiters = (front.get("katex") or {}).get("delimiters") or []
    for selector in (
        "head", "d-front-matter", "distill-header", "distill-footer", "d-byline",
        "d-contents", "d-toc", "d-bibliography", "d-footnote-list", "d-citation-list",
        "script", "style", "a.marker",
    ):  # fmt: skip
        for element in soup.select(selector):
            element.decompose()
    # The visible heading is the title, unless an unclosed <h1> swallowed the article.
    heading = soup.select_one("d-title h1")
    swallowed = heading is not None and heading.find(["h2", "p", "div", "ul", "pre"]) is not None
    title = front.get("title") if swallowed or heading is None else _norm(heading.get_text())
    if swallowed:
        heading.unwrap()
    elif heading is not None:
        heading.decompose()
    # The paragraph right after it is the subtitle; else the front matter's description.
    description = front.get("description")
    title_block = soup.select_one("d-title")
    first = [c for c in title_block.children if isinstance(c, Tag)] if title_block else []
    if first and first[0].name == "p":
        description = _norm(first[0].get_text())
        first[0].decompose()
    # Text delimiters the front matter gave KaTeX become formulas, as on distill.pub.
    formulas_in_text = []
    for item in delimiters:
        pattern = re.compile(re.escape(item["left"]) + "(.+?)" + re.escape(item["right"]))
        for text in soup.find_all(string=pattern):
            formulas_in_text += pattern.findall(str(text))
            text.replace_with(pattern.sub(lambda m: f"⟨{_norm(m.group(1))}⟩", str(text)))
    cites = [
        ",".join(k.strip() for k in (c.get("key") or c.get("bibtex-key")).split(","))
        for c in soup.select("d-cite")
    ]
    for cite in soup.select("d-cite"):
        cite.decompose()
    formulas = [_norm(m.get_text()) for m in soup.select("d-math")] + formulas_in_text
    for math in soup.select("d-math"):
        math.replace_with(NavigableString(f"⟨{_norm(math.get_text())}⟩"))
    footnotes = []
    for footnote in soup.select("d-footnote"):
        footnotes.append(" ".join(_segments(footnote)))
        footnote.decompose()
    code = []
    for block in soup.select("pre, d-code[block]"):
        code.append(_code_text(block.get_text()))
        block.replace_with(soup.new_tag("pre", string="⟦code⟧"))
    images = [(PurePosixPath(i["src"]).name, i.get("alt", "")) for i in soup.select("img")]
    links = [a for a in soup.select("a[href]")]
    for a in links:
        if a["href"].startswith("#"):
            a["href"] = "#" + make_id(a["href"][1:])
    body = soup.body
    result = _collect(body, links=links, emphasis=[], strong=[])
    result["emphasis"] = [run for e in soup.select("em, i") for run in _own_runs(e)]
    result["strong"] = [run for e in soup.select("strong, b") for run in _own_runs(e)]
    return result | {
        "title": title,
        "description": description,
        "formulas": formulas,
        "cites": cites,
        "footnotes": footnotes,
        "code": code,
        "images": images,
    }


def built_side(out: Path) -> dict:
    """The same, read from the page Sphinx built."""
    soup = read_page(out / "_html")
    title = _norm(soup.select_one(".pb-title-block h1").get_text())
    subtitle = soup.select_one(".pb-title-block .pb-description, .pb-title-block p")
    body = soup.select_one(".pb-body")
    for selector in (
        "#pb-references", "#pb-appendix-citation", "#pb-appendix-updates",
        "#pb-appendix-reuse", "a.headerlink", ".admonition-title",
        ".pb-interactive__fallback", ".pb-interactive__scroll", "script", "style", ".pb-preview",
    ):  # fmt: skip
        for element in body.select(selector):
            element.decompose()
    notes = body.select_one("#pb-appendix-footnotes")
    # Footnote cards sit where the footnote was: their formulas are in source order.
    formulas = [
        _norm(annotation.get_text())
        for annotation in body.select('.katex annotation[encoding="application/x-tex"]')
        if notes is None or notes not in annotation.parents
    ]
    for math in body.select(".katex"):
        tex = _norm(math.select_one('annotation[encoding="application/x-tex"]').get_text())
        math.replace_with(NavigableString(f"⟨{tex}⟩"))
    footnotes = []
    if notes is not None:
        footnotes = [
            " ".join(_segments(note.find("p") or note)) for note in notes.select("aside.footnote")
        ]
        notes.decompose()
    cites = []
    for cite in body.select(".pb-cite:not(.pb-xref)"):
        keys = [a["href"].removeprefix("#pb-ref-") for a in cite.select(".pb-cite__link")]
        if keys:
            cites.append(",".join(keys))
        cite.decompose()
    code = []
    for block in body.select("div.highlight"):
        code.append(_code_text(block.pre.get_text()))
        block.replace_with(soup.new_tag("pre", string="⟦code⟧"))
    images = [(PurePosixPath(i["src"]).name, i.get("alt", "")) for i in body.select("img")]
    links = [
        a
        for a in body.select("a[href]")
        if not {"pb-backlink", "pb-zoom"} & set(a.get("class") or [])
    ]
    result = _collect(body, links=links, emphasis=body.select("em"), strong=body.select("strong"))
    return result | {
        "title": title,
        "description": _norm(subtitle.get_text()) if subtitle else None,
        "formulas": formulas,
        "cites": cites,
        "footnotes": footnotes,
        "code": code,
        "images": images,
    }


# -- fidelity ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ARTICLES)
def test_import_builds_with_W(imported, name):
    assert imported[name]["code"] == 0
    assert imported[name]["build"] == 0


@pytest.mark.parametrize("name", ARTICLES)
@pytest.mark.parametrize(
    "part",
    ["title", "text", "formulas", "code", "images", "links", "emphasis", "strong", "cites",
     "footnotes"],
)  # fmt: skip
def test_built_page_keeps_the_source(imported, name, part):
    source = source_side(name)
    built = built_side(imported[name]["out"])
    assert built[part] == source[part]


def test_description_from_the_title_block(imported):
    """A lone paragraph in d-title becomes the subtitle (front matter had none)."""
    built = built_side(imported["grid"]["out"])
    assert built["description"] == "Code side by side, and images across the window."


def test_fixtures_cover_every_construct(imported):
    """Not a tautology check: the fixtures really contain what the comparisons rely on."""
    basic = source_side("basic")
    assert len(basic["formulas"]) >= 4 and len(basic["cites"]) == 3
    assert len(basic["footnotes"]) == 1 and len(basic["code"]) == 2
    assert any(href.startswith("#") for href, _ in basic["links"])
    assert source_side("bib-src")["formulas"] == ["e^{i\\pi} + 1 = 0"]


# -- what the Markdown says ------------------------------------------------------------------


def _tokens(out: Path):
    parser = create_md_parser(
        MdParserConfig(enable_extensions={"colon_fence", "attrs_block", "dollarmath"}),
        RendererHTML,
    )
    text = (out / "index.md").read_text("utf-8")
    return parser.parse(text.split("---\n", 2)[2])


def _directives(out: Path, name: str) -> list:
    return [
        token
        for token in _tokens(out)
        if token.type in {"colon_fence", "fence"} and token.info.startswith(f"{{{name}}}")
    ]


def test_grid_of_code_becomes_side_by_side_with_its_tracks(imported):
    grids = _directives(imported["grid"]["out"], "side-by-side")
    assert [g.content.splitlines()[0] for g in grids] == [
        ":columns: 1fr 2fr",
        ":columns: 1fr 2fr",
        ":columns: repeat(3, 1fr)",
    ]
    soup = read_page(imported["grid"]["out"] / "_html")
    first = soup.select(".pb-side-by-side")[0]
    captions = [_norm(c.get_text()) for c in first.select("figcaption .caption-text")]
    assert captions == ["Host code", "Device code, in Python for once."]


def test_bands_become_wide_images(imported):
    bands = _directives(imported["grid"]["out"], "wide-image")
    assert [b.info for b in bands] == ["{wide-image} images/band.png"] * 2


def test_fragments_become_interactive_figures(imported):
    figures = _directives(imported["fragments"]["out"], "interactive-figure")
    assert [f.info for f in figures] == [
        "{interactive-figure} fragments/memory.html",
        "{interactive-figure} fragments/throughput.html",
    ]
    assert ":fallback: fragments/memory.png" in figures[0].content.splitlines()
    assert not any(line.startswith(":fallback:") for line in figures[1].content.splitlines())
    assert ":aspect-ratio: 16/9" in figures[1].content.splitlines()
    out = imported["fragments"]["out"]
    assert (out / "fragments" / "memory.html").is_file()
    assert (out / "fragments" / "memory.png").is_file()


def test_headings_keep_their_ids(imported):
    soup = read_page(imported["basic"]["out"] / "_html")
    ids = {section["id"] for section in soup.select(".pb-body section[id]")}
    assert {"introduction", "memory", "weights"} <= ids


def test_escaped_text_is_no_markup(imported):
    """The markup-like characters of the text come out as the same characters."""
    built = built_side(imported["basic"]["out"])
    line = next(t for t in built["text"] if t.startswith("Characters that are markup"))
    assert "*not emphasis*, _nor this_, [brackets](and parens), a price of $5 and $6" in line


# -- the report ------------------------------------------------------------------------------


def test_report_counts_and_places(tmp_path, capsys):
    assert main(["import-distill", str(FIXTURES / "basic"), str(tmp_path / "out")]) == 0
    output = capsys.readouterr()
    rows = {
        line.split()[0]: line.split()[1:]
        for line in output.out.splitlines()
        if re.fullmatch(r"\S+\s+\d+\s+\d+\s+\d+", line.strip())
    }
    assert rows["d-cite"] == ["3", "3", "0"]
    assert rows["d-footnote"] == ["1", "1", "0"]
    assert rows["<iframe>"] == ["1", "0", "1"]
    source = FIXTURES / "basic" / "index.html"
    assert (
        f"  {source}:95: <iframe> (kept raw): an iframe from another site is kept as it is"
        in output.out.splitlines()
    )
    # Not on a terminal: one plain line instead of a bar.
    assert output.err == "converting: 39 blocks\n"


def test_strict_fails_when_something_is_kept_raw(tmp_path, capsys):
    assert main(["import-distill", "--strict", str(FIXTURES / "basic"), str(tmp_path / "a")]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "sphinx-playbook: --strict: 1 construct(s) kept as raw HTML (listed above)"
    )
    assert main(["import-distill", "--strict", str(FIXTURES / "bib-src"), str(tmp_path / "b")]) == 0


# -- bad input ---------------------------------------------------------------------------------


def _fails(arguments: list[str], capsys) -> str:
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert "Traceback" not in error
    assert len(error.splitlines()) == 1
    return error.strip()


def test_not_a_distill_article(tmp_path, capsys):
    source = FIXTURES / "not-distill"
    assert _fails(["import-distill", str(source), str(tmp_path / "o")], capsys) == (
        f"sphinx-playbook: error: {source / 'index.html'}: not a Distill article: no "
        "<d-article>, <d-front-matter>, <d-title> or <dt-article> element"
    )
    assert not (tmp_path / "o").exists()


def test_missing_bibliography(tmp_path, capsys):
    source = FIXTURES / "missing-bib"
    assert _fails(["import-distill", str(source), str(tmp_path / "o")], capsys) == (
        f"sphinx-playbook: error: {source / 'index.html'}:5: the bibliography 'nowhere.bib' "
        f"does not exist (looked for {source / 'nowhere.bib'})"
    )


def test_malformed_front_matter(tmp_path, capsys):
    """The file, the line, Python's own reason (worded by each Python version) and
    what to fix."""
    source = FIXTURES / "bad-json"
    message = _fails(["import-distill", str(source), str(tmp_path / "o")], capsys)
    assert re.fullmatch(
        re.escape(
            f"sphinx-playbook: error: {source / 'index.html'}:5: the front matter is not "
            "valid JSON: "
        )
        + r"[A-Z][^;]+ \(column 3[45]\); fix the JSON in <d-front-matter>",
        message,
    ), message


def test_out_exists(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    assert _fails(["import-distill", str(FIXTURES / "basic"), str(out)], capsys) == (
        f"sphinx-playbook: error: {out}: already exists; choose a new folder for the project"
    )
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_source_missing(tmp_path, capsys):
    missing = tmp_path / "nowhere"
    assert _fails(["import-distill", str(missing), str(tmp_path / "o")], capsys) == (
        f"sphinx-playbook: error: {missing}: no such file or folder"
    )


def test_a_span_that_is_not_a_number_reads_as_a_browser_reads_it(tmp_path):
    """colspan="two" is one column in a browser; the import neither fails nor merges."""
    source = write_project(
        tmp_path / "article",
        {
            "index.html": "<!doctype html><html><body><d-title><h1>Spans</h1></d-title><d-article>"
            '<table><tr><th colspan="two">A</th><th rowspan=" 1x">B</th></tr>'
            "<tr><td>1</td><td>2</td></tr></table></d-article></body></html>"
        },
    )
    out = tmp_path / "o"
    assert main(["import-distill", str(source), str(out)]) == 0
    assert sphinx_build("-W", "-q", "-b", "html", str(out), str(out / "_html")).returncode == 0
    soup = read_page(out / "_html")
    table = soup.select_one("article table, main table")
    assert [[cell.get_text(strip=True) for cell in row.find_all(["th", "td"])]
            for row in table.find_all("tr")] == [["A", "B"], ["1", "2"]]  # fmt: skip
    assert not table.find(attrs={"colspan": True}) and not table.find(attrs={"rowspan": True})


def test_progress_bar_only_on_a_terminal():
    from sphinx_playbook.cli.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    bar = Progress(terminal, 4, "converting")
    bar.step(2)
    bar.finish()
    assert terminal.getvalue() == (
        "\rconverting [" + "#" * 15 + "-" * 15 + "] 2/4\rconverting [" + "#" * 30 + "] 4/4\n"
    )
    plain = io.StringIO()
    bar = Progress(plain, 4, "converting")
    bar.step(2)
    bar.finish()
    assert plain.getvalue() == "converting: 4 blocks\n"


_MYST = create_md_parser(
    MdParserConfig(enable_extensions={"colon_fence", "attrs_block", "dollarmath"}), RendererHTML
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 .)*_`[]()<>!$&#;{}|~\\%:+-=^\"'\n")), min_size=1))
def test_escaped_text_reads_as_itself(text):
    """Whatever characters a paragraph holds, MyST reads them back as that text, no markup."""
    from sphinx_playbook.cli.distill import markdown as md

    expected = md.collapse(text).strip()
    assume(expected)
    written = md.escape_line_starts(md.escape(expected))
    tokens = _MYST.parse(written)
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    children = tokens[1].children
    assert {child.type for child in children} <= {"text", "text_special", "softbreak"}
    assert "".join(child.content for child in children) == expected
