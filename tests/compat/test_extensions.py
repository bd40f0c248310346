"""The compatibility matrix (matrix.py): each extension with our theme, both orders.

A project moving from pydata-sphinx-theme keeps its extensions: each entry's book
builds with ``-W`` in either order of ``extensions``, without a traceback, and
the HTML shows what the extension exists for next to our title block, byline,
footnote card and build-time math.
"""

from __future__ import annotations

import shutil
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from helpers import read_page, sphinx_build

from .matrix import MATRIX, Entry

HERE = Path(__file__).parent
BOOK = HERE / "book"
PAGES = HERE / "pages"


def python_inventory(path: Path) -> None:
    """A one-entry Sphinx inventory of Python's docs, for intersphinx without a network."""
    header = (
        "# Sphinx inventory version 2\n# Project: Python\n# Version: 3\n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    entries = "json.dumps py:function 1 library/json.html#$ -\n"
    path.write_bytes(header.encode() + zlib.compress(entries.encode()))


def build(
    entry: Entry,
    folder: Path,
    *,
    ours_first: bool,
    static: tuple[Path, ...] = (),
    settings: dict[str, Any] | None = None,
) -> Path:
    """The entry's book built with ``-W``: its output folder. ``static`` files go to
    the book's ``_static/``, ``settings`` to its conf.py after the entry's own."""
    source = folder / "source"
    shutil.copytree(BOOK, source)
    shutil.copy(PAGES / entry.page, source / entry.page)
    if static:
        (source / "_static").mkdir()
        for path in static:
            shutil.copy(path, source / "_static" / path.name)
    python_inventory(source / "python.inv")
    ours = ["sphinx_playbook"]
    extensions = [*ours, *entry.extensions] if ours_first else [*entry.extensions, *ours]
    conf = {**entry.settings, **(settings or {})}
    if static:
        conf["html_static_path"] = ["_static"]
    lines = "".join(f"{name} = {value!r}\n" for name, value in conf.items())
    (source / "conf.py").write_text(
        "import os, sys\n"
        "sys.path.insert(0, os.path.dirname(__file__))\n"
        'project = "Compatibility"\n'
        f"extensions = {extensions!r}\n"
        'html_theme = "sphinx_playbook"\n'
        'exclude_patterns = ["_build"]\n' + lines,
        encoding="utf-8",
    )
    out = folder / "html"
    result = sphinx_build("-W", "--keep-going", "-b", "html", str(source), str(out))
    assert "Traceback" not in result.stderr + result.stdout
    return out


def page(out: Path, name: str) -> BeautifulSoup:
    return read_page(out, name)


def page_name(entry: Entry) -> str:
    return entry.page.rsplit(".", 1)[0]


def check_article(out: Path) -> None:
    """What our theme gives the book's root page, whatever the extension beside it."""
    index = page(out, "index")
    assert index.select_one(".pb-title-block h1").get_text() == (
        "A book moved from pydata-sphinx-theme"
    )
    assert "Ada Lovelace" in index.select_one(".pb-byline").get_text()
    assert index.select(".pb-body .katex"), "math is rendered at build time"
    assert not index.select(".pb-body .math-error, .pb-body .katex-error")
    assert index.select_one(".pb-body aside, .pb-body .pb-aside") is not None
    assert index.select_one(".pb-fn") is not None, "the footnote keeps its card"


def check_myst_nb(out: Path) -> None:
    """A tutorial: its heading in the title block, math rendered at build time, a
    stream output and a transparent figure with its dark-mode backdrop."""
    notebook = page(out, "myst_nb")
    main = notebook.select_one('[role="main"]')
    assert notebook.select_one(".pb-title-block h1").get_text() == "A notebook page"
    assert "forty-two" in main.get_text()
    assert main.select(".katex-display"), "the display formula is rendered by KaTeX"
    figure = main.select_one("img[src$='.png']")
    assert figure is not None and (out / figure["src"]).is_file()
    assert "pb-transparent" in figure.get("class", [])


def check_copybutton(out: Path) -> None:
    copy = page(out, "sphinx_copybutton")
    assert copy.body["data-pb-copy"] == "off", "our copy buttons step aside"
    assert any("copybutton" in script.get("src", "") for script in copy.find_all("script"))


def check_togglebutton(out: Path) -> None:
    toggles = page(out, "sphinx_togglebutton")
    assert toggles.select(".toggle, details.toggle-details")
    assert any("togglebutton" in script.get("src", "") for script in toggles.find_all("script"))


def check_tippy(out: Path) -> None:
    tips = page(out, "sphinx_tippy")
    data = next((out / "_static" / "tippy").glob("sphinx_tippy.*.js")).read_text(encoding="utf-8")
    assert 'a[href=\\"index.html\\"]' in data, "a tip for the link to the root page"
    assert "A book moved from pydata-sphinx-theme" in data, "the tip shows the page's heading"
    assert not tips.select(".pb-xref"), "our cross-reference cards step aside"


def check_opengraph(out: Path) -> None:
    social = page(out, "sphinxext.opengraph")
    titles = social.select('meta[property="og:title"]')
    assert [tag["content"] for tag in titles] == ["Social cards"]
    descriptions = social.select('meta[property="og:description"]')
    assert [tag["content"] for tag in descriptions] == ["A description for social cards"]


def check_sitemap(out: Path) -> None:
    sitemap = ElementTree.parse(out / "sitemap.xml")
    locations = {loc.text for loc in sitemap.iter() if loc.tag.endswith("}loc")}
    assert "https://example.org/book/sphinx_sitemap.html" in locations
    assert "https://example.org/book/index.html" in locations


def check_autodoc(out: Path) -> None:
    api = page(out, "sphinx.ext.autodoc")
    signature = api.select_one('dt.sig[id="compat_module.add"]')
    assert signature is not None
    parameters = [param.select_one(".n").get_text() for param in signature.select("em.sig-param")]
    assert parameters == ["first", "second"]
    assert api.select_one("table.autosummary a[href='#compat_module.add']") is not None
    assert api.select_one(".versionadded") is not None


def check_autodoc2(out: Path) -> None:
    generated = next(out.glob("apidocs/**/compat_module.html"))
    api = BeautifulSoup(generated.read_text(encoding="utf-8"), "html.parser")
    assert api.select_one('dt.sig[id="compat_module.add"]') is not None


def check_intersphinx(out: Path) -> None:
    links = page(out, "sphinx.ext.intersphinx").select('[role="main"] a.reference.external')
    assert "https://docs.python.org/3/library/json.html#json.dumps" in {a["href"] for a in links}


def check_graphviz(out: Path) -> None:
    graph = page(out, "sphinx.ext.graphviz").select_one('[role="main"] .graphviz')
    assert graph is not None
    drawn = graph.select_one("object[data$='.svg'], img[src$='.svg']")
    assert drawn is not None, graph
    assert (
        (out / "sphinx.ext.graphviz.html")
        .parent.joinpath(drawn.get("data") or drawn["src"])
        .is_file()
    )


def check_mermaid(out: Path) -> None:
    diagram = page(out, "sphinxcontrib.mermaid").select_one('[role="main"] .mermaid')
    assert diagram is not None and "read --> write" in diagram.get_text()


def check_bibtex(out: Path) -> None:
    cited = page(out, "sphinxcontrib.bibtex")
    citation = cited.select_one('[role="main"] a[href^="#id"], [role="main"] a.reference.internal')
    assert citation is not None
    assert "attention is all you need" in cited.select_one('[role="main"]').get_text().lower()


CHECKS: dict[str, Callable[[Path], None]] = {
    "myst_nb": check_myst_nb,
    "sphinx_copybutton": check_copybutton,
    "sphinx_togglebutton": check_togglebutton,
    "sphinx_tippy": check_tippy,
    "sphinxext.opengraph": check_opengraph,
    "sphinx_sitemap": check_sitemap,
    "sphinx.ext.autodoc": check_autodoc,
    "autodoc2": check_autodoc2,
    "sphinx.ext.intersphinx": check_intersphinx,
    "sphinx.ext.graphviz": check_graphviz,
    "sphinxcontrib.mermaid": check_mermaid,
    "sphinxcontrib.bibtex": check_bibtex,
}


def test_every_entry_has_a_check():
    assert set(CHECKS) == {entry.name for entry in MATRIX}


@pytest.mark.parametrize("ours_first", [True, False], ids=["ours-first", "ours-last"])
@pytest.mark.parametrize("entry", MATRIX, ids=lambda entry: entry.name)
def test_builds_with_warnings_as_errors_and_keeps_working(entry, ours_first, tmp_path):
    out = build(entry, tmp_path, ours_first=ours_first)
    check_article(out)
    CHECKS[entry.name](out)
