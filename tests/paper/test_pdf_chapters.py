"""playbook_pdf: a PDF per chapter and one for the book, compiled with latexmk and
read back; each chapter's page links its own PDF."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from helpers import build, page_path, playbook_warnings, read_page, sphinx_build, write_project
from pypdf import PdfReader

from .conftest import latexmk

CONF = """\
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Tiny Book"
playbook_pdf = "{mode}"
playbook_authors = ["Ada Lovelace", "Charles Babbage"]
playbook_bibfiles = ["refs.bib"]
html_baseurl = "https://example.org/book/"
{extra}"""

PAGES = {
    "index.md": "# The Tiny Book\n\nRoot paragraph of the book.\n\n"
    "```{toctree}\nalpha\nbeta\n```\n",
    "alpha.md": "# Alpha Chapter\n\nAlpha paragraph cites {cite}`alpharef`.[^a]\n\n"
    "[^a]: Alpha footnote text.\n\n## Alpha section\n\nAlpha closing words.\n",
    "beta.md": "# Beta Chapter\n\nBeta paragraph cites {cite}`betaref` and "
    "{cite}`sharedref`.[^b]\n\n[^b]: Beta footnote text.\n",
    "refs.bib": """\
@article{alpharef, title={Alpha Reference Title}, author={Smith, Jane}, year={2020},
  journal={Journal of Alpha}}
@article{betaref, title={Beta Reference Title}, author={Doe, John}, year={2021},
  journal={Journal of Beta}}
@article{sharedref, title={Shared Reference Title}, author={Roe, Richard}, year={2022},
  journal={Journal of Gamma}}
""",
}


def _project(folder: Path, mode: str = "both", extra: str = "") -> Path:
    return write_project(folder, PAGES, conf=CONF.format(mode=mode, extra=extra))


def _text(reader: PdfReader, page: int | None = None) -> str:
    pages = reader.pages if page is None else [reader.pages[page]]
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pages))


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PdfReader]:
    """The book with playbook_pdf = "both", built as ``make latexpdf`` does
    (``sphinx-build -M latexpdf``: the LaTeX builder, then Sphinx's Makefile)."""
    folder = tmp_path_factory.mktemp("chapters")
    source = _project(folder / "src")
    sphinx_build("-M", "latexpdf", str(source), str(folder / "out"), "-q", "-W")
    outdir = folder / "out" / "latex"
    names = sorted(path.stem for path in outdir.glob("*.tex"))
    assert names == ["tinybook", "tinybook-alpha", "tinybook-beta"]
    assert sorted(path.stem for path in outdir.glob("*.pdf")) == names
    return {name: PdfReader(outdir / f"{name}.pdf") for name in names}


@pytest.mark.parametrize(
    ("name", "chapter"), [("tinybook-alpha", "Alpha Chapter"), ("tinybook-beta", "Beta Chapter")]
)
def test_a_chapter_pdf_opens_with_the_chapter_the_book_and_the_authors(
    both: dict[str, PdfReader], name: str, chapter: str
) -> None:
    first = _text(both[name], 0)
    assert first.find("The Tiny Book") < first.find(chapter), first  # the book above
    assert "The Tiny Book" in first and chapter in first
    assert "Ada Lovelace" in first and "Charles Babbage" in first
    assert both[name].metadata.title == chapter  # the PDF's own title


def test_a_chapter_pdf_holds_its_chapter_its_references_and_its_footnotes_only(
    both: dict[str, PdfReader],
) -> None:
    alpha, beta = _text(both["tinybook-alpha"]), _text(both["tinybook-beta"])
    assert "Alpha paragraph cites [1]" in alpha and "Alpha closing words" in alpha
    assert "Alpha footnote text" in alpha and "Alpha Reference Title" in alpha
    for other in ("Beta paragraph", "Beta footnote", "Beta Reference", "Shared Reference"):
        assert other not in alpha, other
    assert "Root paragraph" not in alpha and "Root paragraph" not in beta
    assert "Beta paragraph cites [1] and [2]" in beta
    references = beta[beta.find("References") :]
    assert references.find("Beta Reference Title") < references.find("Shared Reference Title")
    assert "Alpha" not in beta


def test_the_book_pdf_holds_every_chapter(both: dict[str, PdfReader]) -> None:
    book = _text(both["tinybook"])
    for part in ("Root paragraph", "Alpha paragraph", "Beta paragraph", "Shared Reference"):
        assert part in book, part


def _pdf_link(page) -> str | None:
    column = page.select_one(".pb-byline__pdf a")
    return column["href"] if column else None


def _scholar_pdf(page) -> str | None:
    tag = page.find("meta", attrs={"name": "citation_pdf_url"})
    return tag["content"] if tag else None


@pytest.mark.parametrize(("builder", "from_chapter"), [("html", "_pdf/"), ("dirhtml", "../_pdf/")])
def test_each_page_links_its_own_pdf(tmp_path: Path, builder: str, from_chapter: str) -> None:
    out = build(_project(tmp_path / "src"), tmp_path / builder, builder, "-W")
    index = read_page(out, "index", builder)
    assert _pdf_link(index) == "_pdf/tinybook.pdf"
    assert _scholar_pdf(index) == "https://example.org/book/_pdf/tinybook.pdf"
    for name in ("alpha", "beta"):
        page = read_page(out, name, builder)
        link = page.select_one(".pb-byline__pdf a")
        assert link.get_text() == "Download PDF" and link["type"] == "application/pdf"
        assert link["href"] == f"{from_chapter}tinybook-{name}.pdf"
        # The link leads from the page's folder to <site>/_pdf/, where the PDFs go.
        target = (page_path(out, name, builder).parent / link["href"]).resolve()
        assert target == (out / "_pdf" / f"tinybook-{name}.pdf").resolve()
        assert _scholar_pdf(page) == f"https://example.org/book/_pdf/tinybook-{name}.pdf"


def test_chapters_alone_keep_conf_py_entries_and_a_page_own_pdf(tmp_path: Path) -> None:
    """ "chapters": no book PDF (the root page links none), a chapter conf.py lists keeps
    its entry and name, and a page's own ``pdf`` key wins over its generated PDF."""
    source = _project(tmp_path / "src", "chapters")
    latex = tmp_path / "latex"
    sphinx_build("-q", "-W", "-b", "latex", str(source), str(latex))
    assert sorted(path.name for path in latex.glob("*.tex")) == [
        "tinybook-alpha.tex",
        "tinybook-beta.tex",
    ]
    (source / "conf.py").write_text(
        CONF.format(
            mode="chapters",
            extra='latex_documents = [("beta", "beta-by-hand.tex", "Beta", "Me", "howto")]\n',
        ),
        encoding="utf-8",
    )
    (source / "alpha.md").write_text(
        "---\npdf: https://example.org/alpha-final.pdf\n---\n\n" + PAGES["alpha.md"],
        encoding="utf-8",
    )
    latex = tmp_path / "latex-by-hand"
    sphinx_build("-q", "-W", "-b", "latex", str(source), str(latex))
    assert sorted(path.name for path in latex.glob("*.tex")) == [
        "beta-by-hand.tex",
        "tinybook-alpha.tex",
    ]
    out = build(source, tmp_path / "html", "html", "-W")
    assert _pdf_link(read_page(out, "index")) is None
    assert _pdf_link(read_page(out, "alpha")) == "https://example.org/alpha-final.pdf"
    assert _pdf_link(read_page(out, "beta")) == "_pdf/beta-by-hand.pdf"


def _pages(out: Path) -> dict[str, bytes]:
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in out.rglob("*.html")}


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_changing_the_setting_or_the_chapters_rebuilds_as_fresh(
    tmp_path: Path, builder: str
) -> None:
    """ "book" -> "both" writes every page again with its link; a page taken out of
    the root toctree loses its link; a PDF renamed in latex_documents (a setting
    that re-reads no page) is linked under its new name. Each time the pages equal
    a fresh build's."""
    source = _project(tmp_path / "src", "book")
    out = build(source, tmp_path / "out", builder)
    assert _pdf_link(read_page(out, "alpha", builder)) is None
    without_beta = PAGES["index.md"].replace("beta\n", "")
    renamed = 'latex_documents = [("alpha", "alpha-by-hand.tex", "A", "Me", "howto")]\n'
    steps = [("", PAGES["index.md"]), ("", without_beta), (renamed, without_beta)]
    for number, (extra, index) in enumerate(steps):
        (source / "conf.py").write_text(CONF.format(mode="both", extra=extra), encoding="utf-8")
        (source / "index.md").write_text(index, encoding="utf-8")
        build(source, out, builder)
        fresh = build(source, tmp_path / f"fresh{number}", builder)
        assert _pages(out) == _pages(fresh)
    assert _pdf_link(read_page(out, "alpha", builder)).endswith("_pdf/alpha-by-hand.pdf")
    assert _pdf_link(read_page(out, "beta", builder)) is None


def test_an_unknown_value_warns_and_builds_the_book(tmp_path: Path) -> None:
    source = _project(tmp_path / "src", "pages")
    latex = tmp_path / "latex"
    result = sphinx_build("-q", "-N", "-b", "latex", str(source), str(latex))
    warnings = playbook_warnings(result)
    assert len(warnings) == 1, warnings
    assert "conf.py" in warnings[0] and "playbook_pdf = 'pages'" in warnings[0]
    assert "'book', 'chapters' or 'both'" in warnings[0]
    assert "[playbook.config]" in warnings[0]
    assert [path.name for path in latex.glob("*.tex")] == ["tinybook.tex"]


def test_read_the_docs_own_pdf_step_gets_the_book_alone(tmp_path: Path) -> None:
    """Read the Docs' formats: [pdf] runs ``latexmk -jobname=<project>`` with no file
    named, which stops when the folder holds more than one .tex file: its step gets
    the book's alone, with a warning that says where to build the chapters."""
    source = _project(tmp_path / "src", "chapters")
    output = tmp_path / "_readthedocs"
    environment = {**os.environ, "READTHEDOCS": "True", "READTHEDOCS_OUTPUT": str(output)}
    result = sphinx_build(
        "-q", "-N", "-b", "latex", str(source), str(output / "pdf"), environment=environment
    )
    warnings = playbook_warnings(result)
    assert len(warnings) == 1 and "build.jobs.build.pdf" in warnings[0], warnings
    assert "[playbook.config]" in warnings[0]
    assert [path.name for path in (output / "pdf").glob("*.tex")] == ["tinybook.tex"]
    command = ["latexmk", "-r", "latexmkrc", "-pdf", "-f", "-dvi-", "-ps-"]
    command += ["-jobname=tiny-book", "-interaction=nonstopmode"]
    subprocess.run(command, cwd=output / "pdf", capture_output=True, check=False)
    assert "Root paragraph" in _text(PdfReader(output / "pdf" / "tiny-book.pdf"))


def test_with_the_book_numbering_a_chapter_numbers_and_lists_its_own(tmp_path: Path) -> None:
    """playbook_citation_numbering = "book": the book's PDF numbers across chapters, a
    chapter's PDF from 1 with its own list (not the book's, which the last chapter's
    page carries on the site)."""
    source = _project(tmp_path / "src", "both", 'playbook_citation_numbering = "book"\n')
    latex = tmp_path / "latex"
    sphinx_build("-q", "-W", "-b", "latex", str(source), str(latex))
    beta = _text(PdfReader(latexmk(latex, "tinybook-beta")))
    assert "Beta paragraph cites [1] and [2]" in beta
    assert "Alpha Reference Title" not in beta
    references = beta[beta.find("References") :]
    assert "1. John Doe. Beta Reference Title" in references
    assert "2. Richard Roe. Shared Reference Title" in references
    book = _text(PdfReader(latexmk(latex, "tinybook")))
    assert "Beta paragraph cites [2] and [3]" in book


def test_a_root_page_without_chapters_warns_and_keeps_the_book(tmp_path: Path) -> None:
    source = _project(tmp_path / "src", "chapters")
    (source / "index.md").write_text("# The Tiny Book\n\nNo toctree.\n", encoding="utf-8")
    for name in ("alpha.md", "beta.md"):
        (source / name).unlink()
    latex = tmp_path / "latex"
    result = sphinx_build("-q", "-N", "-b", "latex", str(source), str(latex))
    warnings = playbook_warnings(result)
    assert len(warnings) == 1, warnings
    assert "lists no page in a toctree" in warnings[0] and "[playbook.config]" in warnings[0]
    assert [path.name for path in latex.glob("*.tex")] == ["tinybook.tex"]


def test_a_page_nested_under_a_chapter_links_and_is_printed_in_its_pdf(tmp_path: Path) -> None:
    """A page in a chapter's toctree (or deeper) has no PDF of its own: its byline
    and citation_pdf_url lead to the PDF of the chapter that holds it, which
    prints it."""
    pages = dict(PAGES)
    pages["alpha.md"] += "\n```{toctree}\nalpha/part\n```\n"
    pages["alpha/part.md"] = (
        "# Alpha Part\n\nNested paragraph words.\n\n```{toctree}\ndeeper\n```\n"
    )
    pages["alpha/deeper.md"] = "# Alpha Deeper\n\nDeeper paragraph words.\n"
    source = write_project(tmp_path / "src", pages, conf=CONF.format(mode="chapters", extra=""))
    out = build(source, tmp_path / "html", "html", "-W")
    for name in ("alpha/part", "alpha/deeper"):
        page = read_page(out, name)
        link = page.select_one(".pb-byline__pdf a")
        assert link is not None and link.get_text() == "Download PDF", name
        target = (page_path(out, name).parent / link["href"]).resolve()
        assert target == (out / "_pdf" / "tinybook-alpha.pdf").resolve()
        assert _scholar_pdf(page) == "https://example.org/book/_pdf/tinybook-alpha.pdf"
    assert _pdf_link(read_page(out, "beta")) == "_pdf/tinybook-beta.pdf"
    latex = tmp_path / "latex"
    sphinx_build("-q", "-W", "-b", "latex", str(source), str(latex))
    assert sorted(path.name for path in latex.glob("*.tex")) == [
        "tinybook-alpha.tex",
        "tinybook-beta.tex",
    ]
    alpha = _text(PdfReader(latexmk(latex, "tinybook-alpha")))
    assert "Nested paragraph words" in alpha and "Deeper paragraph words" in alpha
