"""No page is left stale by an incremental build: an author never needs ``-E``.

Each case builds a small book, edits (or deletes) a source, builds again into the
same folder, and compares every page with a fresh build of the edited sources,
byte for byte. The pages at risk are those that show facts of another page which
Sphinx does not track: the neighbours' titles (previous/next links), a
grandchild's title and sections in a toctree, the text of a cross-reference
(section title, figure and equation numbers, page title), section numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import CONF as PLAYBOOK_CONF
from helpers import (
    FORKS_IN_THE_TEST_PROCESS,
    build_app,
    page_path,
    png,
    read_page,
    warning_text,
    write_project,
)

from sphinx_playbook.machinery.dependencies import RECORDS

#: Math by Sphinx's own renderer: these builds share a process, where Sphinx keeps
#: each static file's ``?v=`` checksum from the first build; the math stylesheet's
#: is checked in processes of their own (test_math.py, test_differential.py).
CONF = PLAYBOOK_CONF + 'playbook_math = "off"\n'

#: (page, old text, new text): a replacement; (page, None, None): the file is deleted;
#: (page, None, text): the file is written.
Edit = tuple[str, str | None, str | None]


def _apply(source: Path, edits: Iterable[Edit]) -> None:
    for page, old, new in edits:
        path = source / page
        if old is None and new is None:
            path.unlink()
        elif old is None:
            path.write_text(new, encoding="utf-8")
        else:
            text = path.read_text(encoding="utf-8")
            assert old in text, f"{old!r} is not in {page}"
            path.write_text(text.replace(old, new), encoding="utf-8")


class Book:
    """A book's sources, its incremental build folder and the pages each build writes."""

    def __init__(self, make_app: Callable, tmp_path: Path, pages: dict[str, str], conf: str = ""):
        self.make_app = make_app
        self.tmp_path = tmp_path
        self.source = write_project(
            tmp_path / "source", {"pic.png": png(1, 1), **pages}, conf=CONF + conf
        )
        self.builds = 0

    def build(self, builddir: Path, buildername: str = "html", **kwargs):
        written: set[str] = set()
        app = build_app(
            self.make_app,
            self.source,
            buildername,
            builddir=builddir,
            connect={"html-page-context": lambda _app, pagename, *_rest: written.add(pagename)},
            **kwargs,
        )
        return app, written & app.env.found_docs

    def rebuild(self, edits: Iterable[Edit], buildername: str = "html", **kwargs):
        """Edit, build incrementally, build afresh; every page must be the same.

        Returns the incremental build's app, the pages it wrote and its warnings."""
        _apply(self.source, edits)
        app, written = self.build(self.tmp_path / "build", buildername, **kwargs)
        self.builds += 1
        fresh, _ = self.build(self.tmp_path / f"fresh-{self.builds}", buildername)
        assert sorted(app.env.found_docs) == sorted(fresh.env.found_docs)
        stale = [
            docname
            for docname in sorted(fresh.env.found_docs)
            if _output(app, docname).read_bytes() != _output(fresh, docname).read_bytes()
        ]
        assert stale == [], f"pages left stale (written: {sorted(written)})"
        return app, written, app.warning.getvalue()


def _output(app, docname: str) -> Path:
    return page_path(Path(app.outdir), docname, app.builder.name)


def _html(app, docname: str) -> BeautifulSoup:
    return read_page(app, docname)


def _links(app, docname: str, selector: str) -> list[tuple[str, str]]:
    """(text, href) of the links ``selector`` finds in the page's body."""
    return [
        (" ".join(a.get_text().split()), a["href"]) for a in _html(app, docname).select(selector)
    ]


def _neighbours(app, docname: str) -> list[tuple[str, str]]:
    return [
        (a.select_one(".pb-prev-next__title").get_text(strip=True), a["href"])
        for a in _html(app, docname).select("a.pb-prev-next__link")
    ]


def _toctree(app, docname: str) -> list[str]:
    return [a.get_text() for a in _html(app, docname).select(".toctree-wrapper a")]


# -- neighbours: the previous/next links ------------------------------------------------

#: The pages under a part, not in the root's toctree: the chapters menu, which the
#: theme rewrites on every page when it changes, does not list them.
FLAT = {
    "md": {
        "index.md": "# Book\n\n```{toctree}\n:maxdepth: 1\n\npart\n```\n",
        "part.md": "# Part\n\n```{toctree}\none\ntwo\nthree\n```\n",
        "one.md": "# One\n\nText.\n",
        "two.md": "# Two\n\nText.\n",
        "three.md": "# Three\n\nText.\n",
    },
    "rst": {
        "index.rst": "Book\n====\n\n.. toctree::\n   :maxdepth: 1\n\n   part\n",
        "part.rst": "Part\n====\n\n.. toctree::\n\n   one\n   two\n   three\n",
        "one.rst": "One\n===\n\nText.\n",
        "two.rst": "Two\n===\n\nText.\n",
        "three.rst": "Three\n=====\n\nText.\n",
    },
}


@pytest.mark.parametrize("buildername", ["html", "dirhtml"])
@pytest.mark.parametrize("syntax", ["md", "rst"])
def test_a_renamed_page_rewrites_its_neighbours_links(make_app, tmp_path, syntax, buildername):
    book = Book(make_app, tmp_path, FLAT[syntax])
    book.build(tmp_path / "build", buildername)
    old, new = ("# Two", "# Second") if syntax == "md" else ("Two\n===", "Second\n======")
    app, written, _ = book.rebuild([(f"two.{syntax}", old, new)], buildername)
    assert {"one", "three"} <= written
    two = "two.html" if buildername == "html" else "../two/"
    assert ("Second", two) in _neighbours(app, "one")
    assert ("Second", two) in _neighbours(app, "three")


def test_builders_that_share_an_environment_each_catch_up(make_app, tmp_path):
    """html and dirhtml with one doctree folder (``sphinx-build -M`` does so): the
    second builder to run after an edit still rewrites its own stale pages."""
    book = Book(make_app, tmp_path, FLAT["md"])
    book.build(tmp_path / "build", "html")
    book.build(tmp_path / "build", "dirhtml")
    _apply(book.source, [("two.md", "# Two", "# Second")])
    _app, written = book.build(tmp_path / "build", "dirhtml")
    assert {"one", "three"} <= written
    app, written, _ = book.rebuild([], "html")
    assert {"one", "three"} <= written
    assert ("Second", "two.html") in _neighbours(app, "one")


# -- a grandparent's toctree ------------------------------------------------------------

NESTED = {
    "md": {
        "index.md": "# Book\n\n```{toctree}\n:maxdepth: 3\n\npart\nafter\n```\n",
        "part.md": "# Part\n\n```{toctree}\nleaf\n```\n",
        "leaf.md": "# Leaf\n\nText.\n\n## Old section\n\nMore text.\n",
        "after.md": "# After\n\nText.\n",
    },
    "rst": {
        "index.rst": "Book\n====\n\n.. toctree::\n   :maxdepth: 3\n\n   part\n   after\n",
        "part.rst": "Part\n====\n\n.. toctree::\n\n   leaf\n",
        "leaf.rst": "Leaf\n====\n\nText.\n\nOld section\n-----------\n\nMore text.\n",
        "after.rst": "After\n=====\n\nText.\n",
    },
}


@pytest.mark.parametrize("syntax", ["md", "rst"])
def test_a_renamed_grandchild_rewrites_the_root_toctree(make_app, tmp_path, syntax):
    book = Book(make_app, tmp_path, NESTED[syntax])
    book.build(tmp_path / "build")
    leaf = f"leaf.{syntax}"

    app, written, _ = book.rebuild([(leaf, "Old section", "New section")])
    assert "index" in written, "the root's toctree shows Leaf's sections at depth 3"
    assert "New section" in _toctree(app, "index")

    if syntax == "md":
        retitle = (leaf, "# Leaf", "# Sheet")
    else:
        retitle = (leaf, "Leaf\n====", "Sheet\n=====")
    app, written, _ = book.rebuild([retitle])
    assert {"index", "after"} <= written, "the root's toctree and the next page show the title"
    assert _toctree(app, "index") == ["Part", "Sheet", "New section", "After"]
    assert ("Sheet", "leaf.html") in _neighbours(app, "after")


# -- cross-references -------------------------------------------------------------------

XREF_MD = {
    "index.md": (
        "# Book\n\n```{toctree}\n:maxdepth: 2\n\npart\nrefs-ref\nrefs-numref\nrefs-eq\n"
        "refs-doc\nrefs-anchor\nrefs-path\n```\n"
    ),
    "part.md": "# Part\n\nIntro.\n\n```{toctree}\ntarget\nfiller\n```\n",
    "target.md": (
        "# Target\n\nText.\n\nProse.\n\n(sec-label)=\n## Old section\n\nText.\n\n"
        "```{figure} pic.png\n:name: fig-label\n\nOld caption\n```\n\n"
        "```{math}\n:label: eq-label\n\na = b\n```\n"
    ),
    "filler.md": "# Filler\n\nText.\n",
    "refs-ref.md": "# Refs ref\n\nSee {ref}`sec-label`.\n",
    "refs-numref.md": "# Refs numref\n\nSee {numref}`Figure {number}: {name} <fig-label>`.\n",
    "refs-eq.md": "# Refs eq\n\nSee {eq}`eq-label`.\n",
    "refs-doc.md": "# Refs doc\n\nSee {doc}`target`.\n",
    "refs-anchor.md": "# Refs anchor\n\nSee [](#sec-label) and [](#fig-label).\n",
    "refs-path.md": "# Refs path\n\nSee [](target.md#sec-label) and [](target.md).\n",
}

XREF_RST = {
    "index.rst": (
        "Book\n====\n\n.. toctree::\n   :maxdepth: 2\n\n   part\n   refs-ref\n"
        "   refs-numref\n   refs-eq\n   refs-doc\n"
    ),
    "part.rst": "Part\n====\n\nIntro.\n\n.. toctree::\n\n   target\n   filler\n",
    "target.rst": (
        "Target\n======\n\nText.\n\nProse.\n\n"
        ".. _sec-label:\n\nOld section\n-----------\n\nText.\n\n"
        ".. figure:: pic.png\n   :name: fig-label\n\n   Old caption\n\n"
        ".. math::\n   :label: eq-label\n\n   a = b\n"
    ),
    "filler.rst": "Filler\n======\n\nText.\n",
    "refs-ref.rst": "Refs ref\n========\n\nSee :ref:`sec-label`.\n",
    "refs-numref.rst": (
        "Refs numref\n===========\n\nSee :numref:`Figure {number}: {name} <fig-label>`.\n"
    ),
    "refs-eq.rst": "Refs eq\n=======\n\nSee :eq:`eq-label`.\n",
    "refs-doc.rst": "Refs doc\n========\n\nSee :doc:`target`.\n",
}

EARLY_MD = (
    "```{figure} pic.png\n:name: fig-early\n\nEarly caption\n```\n\n"
    "```{math}\n:label: eq-early\n\nc = d\n```\n\nIntro."
)
EARLY_RST = (
    ".. figure:: pic.png\n   :name: fig-early\n\n   Early caption\n\n"
    ".. math::\n   :label: eq-early\n\n   c = d\n\nIntro."
)


def _refs(app, docname: str) -> list[tuple[str, str]]:
    return _links(app, docname, "article .pb-body p a")


@pytest.mark.parametrize("syntax", ["md", "rst"])
def test_cross_references_follow_their_target(make_app, tmp_path, syntax):
    pages = XREF_MD if syntax == "md" else XREF_RST
    book = Book(make_app, tmp_path, pages, conf="numfig = True\n")
    book.build(tmp_path / "build")
    target, part = f"target.{syntax}", f"part.{syntax}"

    # The section's title: {ref}, [](#label), [](target.md#label).
    app, written, _ = book.rebuild([(target, "Old section", "New section")])
    assert {"refs-ref"} <= written
    assert _refs(app, "refs-ref") == [("New section", "target.html#sec-label")]
    if syntax == "md":
        assert {"refs-anchor", "refs-path"} <= written
        assert _refs(app, "refs-anchor")[0] == ("New section", "target.html#sec-label")
        assert _refs(app, "refs-path")[0] == ("New section", "target.html#sec-label")

    # The figure's caption: {numref} with {name}.
    app, written, _ = book.rebuild([(target, "Old caption", "New caption")])
    assert "refs-numref" in written
    assert _refs(app, "refs-numref") == [("Figure 1: New caption", "target.html#fig-label")]

    # A figure and an equation on an earlier page: the target page is not read again,
    # Sphinx writes it (its numbers changed), and the pages that show its numbers.
    app, written, _ = book.rebuild([(part, "Intro.", EARLY_MD if syntax == "md" else EARLY_RST)])
    assert {"refs-numref", "refs-eq"} <= written
    assert _refs(app, "refs-numref") == [("Figure 2: New caption", "target.html#fig-label")]
    assert _refs(app, "refs-eq") == [("(2)", "target.html#equation-eq-label")]

    # The page's title: {doc}, [](target.md).
    retitle = ("# Target", "# Goal") if syntax == "md" else ("Target\n======", "Goal\n====")
    app, written, _ = book.rebuild([(target, *retitle)])
    assert "refs-doc" in written
    assert _refs(app, "refs-doc") == [("Goal", "target.html")]
    if syntax == "md":
        assert _refs(app, "refs-path")[1] == ("Goal", "target.html")


@pytest.mark.parametrize("syntax", ["md", "rst"])
def test_an_edit_to_the_prose_writes_no_more_pages_than_sphinx(make_app, tmp_path, syntax):
    """The edited page and the pages whose toctree lists it (Sphinx's own
    ``files_to_rebuild``), whatever shows the page's facts: none of them changed."""
    pages = XREF_MD if syntax == "md" else XREF_RST
    book = Book(make_app, tmp_path, pages, conf="numfig = True\n")
    book.build(tmp_path / "build")
    for page, old, new in (
        ("target", "Prose.", "Other prose."),  # referred to by every refs- page (no card shows it)
        ("filler", "Text.", "Other text."),  # the target's next page
        ("part", "Intro.", "Introduction."),  # the target's parent and previous page
        ("refs-ref", "See", "Look at"),
    ):
        app, written, _ = book.rebuild([(f"{page}.{syntax}", old, new)])
        assert written == {page, *app.env.files_to_rebuild.get(page, ())}, page


def test_a_reference_to_a_label_that_appears_later(make_app, tmp_path):
    """A reference that warned is written again when its target comes to exist."""
    pages = {
        "index.md": "# Book\n\n```{toctree}\none\ntwo\nthree\n```\n",
        "one.md": "# One\n\nSee {ref}`later` and [](#later).\n",
        "two.md": "# Two\n\nText.\n",
        "three.md": "# Three\n\nText.\n\n## Section\n\nText.\n",
    }
    book = Book(make_app, tmp_path, pages)
    book.build(tmp_path / "build")
    app, written, _ = book.rebuild([("three.md", "## Section", "(later)=\n## Section")])
    assert "one" in written
    assert [text for text, _href in _refs(app, "one")] == ["Section", "Section"]


# -- section numbers --------------------------------------------------------------------

NUMBERED = {
    "md": {
        "index.md": "# Book\n\n```{toctree}\n:maxdepth: 3\n\npart\nrefs\n```\n",
        "part.md": "# Part\n\n```{toctree}\nleaf\nother\n```\n",
        "leaf.md": "# Leaf\n\nText.\n\n(leaf-section)=\n## Section\n\nText.\n",
        "other.md": "# Other\n\nText.\n",
        "refs.md": "# Refs\n\nSee {numref}`Section %s <leaf-section>`.\n",
    },
    "rst": {
        "index.rst": "Book\n====\n\n.. toctree::\n   :maxdepth: 3\n\n   part\n   refs\n",
        "part.rst": "Part\n====\n\n.. toctree::\n\n   leaf\n   other\n",
        "leaf.rst": ("Leaf\n====\n\nText.\n\n.. _leaf-section:\n\nSection\n-------\n\nText.\n"),
        "other.rst": "Other\n=====\n\nText.\n",
        "refs.rst": "Refs\n====\n\nSee :numref:`Section %s <leaf-section>`.\n",
    },
}


@pytest.mark.parametrize("syntax", ["md", "rst"])
def test_numbering_a_toctree_rewrites_the_pages_that_show_the_numbers(make_app, tmp_path, syntax):
    book = Book(make_app, tmp_path, NUMBERED[syntax], conf="numfig = True\n")
    book.build(tmp_path / "build")
    part = f"part.{syntax}"
    numbered = (
        ("```{toctree}\n", "```{toctree}\n:numbered:\n")
        if syntax == "md"
        else (".. toctree::\n", ".. toctree::\n   :numbered:\n")
    )
    app, written, _ = book.rebuild([(part, *numbered)])
    assert {"index", "refs"} <= written
    assert _refs(app, "refs") == [("Section 1.1", "leaf.html#leaf-section")]
    assert "1.1. Section" in _toctree(app, "index")

    # Sphinx leaves the old numbers in the titles of the pages it does not read again.
    app, written, _ = book.rebuild([(part, *reversed(numbered))])
    assert {"index", "refs"} <= written
    assert _refs(app, "refs") == [], "no number to show: Sphinx warns, as in a fresh build"
    assert _toctree(app, "index") == ["Part", "Leaf", "Section", "Other", "Refs"]
    assert _neighbours(app, "refs") == [("Other", "other.html")]


# -- a deleted page ---------------------------------------------------------------------

DELETED = {
    "md": {
        **FLAT["md"],
        "links.md": "---\norphan: true\n---\n# Links\n\nSee [](two.md), {doc}`two`.\n",
    },
    "rst": {**FLAT["rst"], "links.rst": ":orphan:\n\nLinks\n=====\n\nSee :doc:`two`.\n"},
}


@pytest.mark.parametrize("syntax", ["md", "rst"])
def test_a_deleted_page_whose_toctree_entry_stays(make_app, tmp_path, syntax):
    """Sphinx warns at the toctree (file and line) and the book closes the gap."""
    book = Book(make_app, tmp_path, DELETED[syntax])
    book.build(tmp_path / "build")
    app, written, warnings = book.rebuild([(f"two.{syntax}", None, None)])
    assert {"part", "one", "three", "links"} <= written
    warning = (
        rf"part\.{syntax}:\d+: WARNING: toctree contains reference to non-?existing document 'two'"
    )
    assert re.search(warning, warning_text(warnings)), warnings
    assert _neighbours(app, "one") == [("Part", "part.html"), ("Three", "three.html")]
    assert _neighbours(app, "three") == [("One", "one.html")]
    assert "two.html" not in str(_html(app, "links").select_one("article"))

    # The page comes back: the toctree lists it again.
    app, written, _ = book.rebuild([(f"two.{syntax}", None, FLAT[syntax][f"two.{syntax}"])])
    assert ("Two", "two.html") in _neighbours(app, "one")


# -- parallel reading -------------------------------------------------------------------


@FORKS_IN_THE_TEST_PROCESS
def test_parallel_reading_keeps_the_record(make_app, tmp_path):
    """-j 2: each reader's record is merged into the environment. (The pages are
    written in other processes too, so what was written is judged by its content.)"""
    book = Book(make_app, tmp_path, XREF_MD, conf="numfig = True\n")
    book.build(tmp_path / "build", parallel=2)
    edit = ("target.md", "Old section", "New section")
    app, _written, warnings = book.rebuild([edit], parallel=2)
    assert app.parallel == 2 and "doing serial" not in warnings
    assert set(RECORDS.of(app.env)) == app.env.found_docs
    assert _refs(app, "refs-ref") == [("New section", "target.html#sec-label")]
    assert _refs(app, "refs-path")[0] == ("New section", "target.html#sec-label")


# -- the registry: a feature's site-wide fact ------------------------------------------


#: An extension whose pages show a site-wide fact Sphinx does not track (a file
#: beside conf.py, not a source), noted in the registry as features do.
SITE_FACT_EXTENSION = """
from pathlib import Path
from sphinx_playbook.machinery.registry import Shown, note_shown_by

def _fact(app):
    return Path(app.confdir, "motto.txt").read_text(encoding="utf-8").strip()

def note(app, env):
    note_shown_by(env, Shown.SITE_ASSET, _fact(app), ["one", "three"], name="motto")
    return []

def show(app, pagename, templatename, context, doctree):
    if pagename in ("one", "three"):
        context["body"] += f'<p class="motto">{_fact(app)}</p>'

def setup(app):
    app.connect("env-updated", note)
    app.connect("html-page-context", show)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
"""


def test_a_site_fact_noted_in_the_registry_rewrites_the_pages_that_show_it(make_app, tmp_path):
    book = Book(
        make_app,
        tmp_path,
        {**FLAT["md"], "motto.txt": "Measure twice.\n", "motto_ext.py": SITE_FACT_EXTENSION},
        conf="import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n"
        'extensions.append("motto_ext")\n',
    )
    app, written = book.build(tmp_path / "build")
    assert written == app.env.found_docs
    assert _html(app, "one").select_one("p.motto").get_text() == "Measure twice."
    app, written, _ = book.rebuild([("motto.txt", "Measure twice.", "Cut once.")])
    # Sphinx also writes the page whose toctree lists them (part); no other.
    assert {"one", "three"} <= written <= {"one", "three", "part"}
    for page in ("one", "three"):
        assert _html(app, page).select_one("p.motto").get_text() == "Cut once."
    _app, written, _ = book.rebuild([])
    assert written == set()


# -- what a removed page leaves -------------------------------------------------------

CITED_PAGE = "---\nauthors: [Ada Lovelace]\npublished: 2025-02-19\n---\n# Gone\n\nText.\n"


@pytest.mark.parametrize("buildername", ["html", "dirhtml"])
def test_a_removed_page_takes_its_bibtex_file_along(make_app, tmp_path, buildername):
    """The appendix writes ``<page>.bib`` beside a page with a "cite this article"
    block; when the page goes, so does the file (and dirhtml's folder)."""
    pages = {
        "index.md": "# Book\n\n```{toctree}\none\ngone\n```\n",
        "one.md": "# One\n\nText.\n",
        "gone.md": CITED_PAGE,
    }
    book = Book(make_app, tmp_path, pages)
    app, _ = book.build(tmp_path / "build", buildername)
    bib = Path(_output(app, "gone")).with_suffix(".bib")
    assert bib.is_file()
    app, _written, _ = book.rebuild(
        [("gone.md", None, None), ("index.md", "one\ngone\n", "one\n")], buildername
    )
    assert not bib.exists()
    assert not _output(app, "gone").exists()
    if buildername == "dirhtml":
        assert not bib.parent.exists()
