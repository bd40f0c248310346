"""Citations: the shared real-world .bib, numbering, cards, the reference list, bad input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import CONF, REPO, ROOTS, playbook_warnings, read_html, sphinx_build, write_project
from sphinx.errors import ConfigError

from sphinx_playbook.citations.bibliography import latex_to_text, read_bibliography

SHARED_BIB = REPO.parent / "shared" / "data" / "ultrascale-playbook.bib"
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def playbook_bib():
    """The Ultra-Scale Playbook's bibliography; CI has ../shared beside the clone."""
    path = SHARED_BIB if SHARED_BIB.exists() else ROOTS / "test-citations" / "references.bib"
    return read_bibliography(path)


def test_the_real_bibliography_reads_with_its_flaws_reported(playbook_bib):
    assert len(playbook_bib.entries) == 61  # 62 entries, one key repeated
    assert playbook_bib.problems == [
        (
            488,
            "the key 'micikevicius2018mixedprecisiontraining' is defined twice; "
            "the first entry is used",
        )
    ]
    fasttext = playbook_bib.entries["joulin2016fasttext"]
    assert [a.full for a in fasttext.authors][4] == "Hérve Jégou"  # J{\'e}gou decoded
    assert fasttext.card_authors() == "A. Joulin, E. Grave, P. Bojanowski, ..."
    assert fasttext.textual() == "Joulin et al."
    herd = playbook_bib.entries["grattafiori2024llama3herdmodels"]
    assert len(herd.authors) == 561
    assert herd.card_authors() == "A. Grattafiori, A. Dubey, A. Jauhri, ..."
    types = {r.entry_type for r in playbook_bib.entries.values()}
    assert {"software", "article", "misc", "inproceedings"} <= types
    no_journal = [
        r for r in playbook_bib.entries.values() if r.entry_type == "article" and not r.venue
    ]
    assert no_journal, "articles without a journal are read, with an empty venue"
    for reference in playbook_bib.entries.values():
        for text in (reference.title, *(a.full for a in reference.authors)):
            assert "{" not in text and "\\" not in text, (reference.key, text)


def test_latex_is_decoded():
    assert latex_to_text(r"J{\'e}gou") == "Jégou"
    assert latex_to_text(r"{GPT}-3 \& {F}riends") == "GPT-3 & Friends"
    assert latex_to_text(r"Kydl{\'\i}{\v{c}}ek") == "Kydlíček"


def test_malformed_and_non_utf8_files_report_a_line_and_keep_what_they_can():
    malformed = read_bibliography(DATA / "malformed.bib")
    assert "ok2020" in malformed.entries
    assert malformed.problems == [
        (
            15,
            "syntax error in line 15: premature end of file; fix the BibTeX syntax at or above "
            "this line (often an unclosed brace or a missing comma); the entries that parse "
            "are used",
        )
    ]
    latin = read_bibliography(DATA / "latin1.bib")
    assert latin.problems == [(2, "the file is not UTF-8; save it as UTF-8")]
    assert list(latin.entries) == ["latin2020"]


@pytest.mark.sphinx("html", testroot="citations")
def test_numbered_in_order_of_first_appearance_with_cards_and_list(app):
    app.build()
    page = read_html(app)
    cites = page.select(".pb-cite:not(.pb-fn)")
    labels = [[a.get_text() for a in c.select(".pb-cite__link, .pb-cite__unknown")] for c in cites]
    assert labels == [["1"], ["2", "3"], ["2"], ["4"], ["5"], ["1"], ["?"]]
    # {cite:t} gives "Dao et al. [1]"
    assert cites[2].get_text(" ", strip=True).startswith("Joulin et al. [ 2 ]")
    assert cites[3].get_text(" ", strip=True).startswith("Barbaresi [ 4 ]")
    # each number links to its entry in the list
    assert cites[1].select_one("a")["href"] == "#pb-ref-joulin2016bag"
    # the card, written into the page: title linked, short authors, venue and year
    card = cites[4].select_one(".pb-card")
    assert card["role"] == "tooltip"
    assert cites[4]["aria-describedby"] == card["id"]
    title = card.select_one(".pb-card__title a")
    assert (title.get_text(), title["href"]) == (
        "The Llama 3 Herd of Models",
        "https://arxiv.org/abs/2407.21783",
    )
    assert card.select_one(".pb-card__authors").get_text() == (
        "A. Grattafiori, A. Dubey, A. Jauhri, ..."
    )
    assert card.select_one(".pb-card__venue").get_text() == "arXiv:2407.21783, 2024"
    # the reference list: cited entries only, in number order, with backlinks
    items = page.select("#pb-references li")
    assert [li["id"] for li in items] == [
        "pb-ref-joulin2016fasttext",
        "pb-ref-joulin2016bag",
        "pb-ref-radford2019language",
        "pb-ref-barbaresi-2021-trafilatura",
        "pb-ref-grattafiori2024llama3herdmodels",
    ]
    backlinks = [a["href"] for a in items[0].select("a.pb-backlink")]
    assert backlinks == ["#pb-cite-1", "#pb-cite-6"]
    assert "Alex Vaughan, et al. The Llama 3" in items[4].get_text(), "561 authors shortened"


@pytest.mark.sphinx("html", testroot="citations", freshenv=True)
def test_unknown_key_and_duplicate_warn_at_their_place(app):
    app.build()
    warnings = playbook_warnings(app)
    bib = app.srcdir / "references.bib"
    assert warnings == [
        f"{bib}:488: WARNING: the key 'micikevicius2018mixedprecisiontraining' is defined "
        "twice; the first entry is used [playbook.citation]",
        f"{app.srcdir / 'index.md'}:19: WARNING: unknown citation key 'nobody2099'; add it "
        "to a .bib file or fix the key [playbook.citation]",
    ]


@pytest.mark.sphinx("text", testroot="citations")
def test_text_builder_writes_numbers_and_references(app):
    app.build()
    text = " ".join((app.outdir / "index.txt").read_text(encoding="utf-8").split())
    assert "FastText [1] and the bag of tricks [2, 3]" in text
    assert "Joulin et al. [2]" in text
    assert "References" in text
    assert "Bag of Tricks for Efficient Text Classification" in text


@pytest.mark.sphinx("latex", testroot="citations")
def test_latex_builder_does_not_crash(app):
    app.build()
    tex = next(app.outdir.glob("*.tex")).read_text(encoding="utf-8")
    assert "{[}1{]}" in tex or "[1]" in tex
    assert "References" in tex


def test_sphinxcontrib_bibtex_and_ours_cannot_both_cite(make_app, tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-citations-conflict", src)
    with pytest.raises(ConfigError, match="remove one of them from extensions"):
        make_app("html", srcdir=src)
    app = make_app("html", srcdir=src, confoverrides={"playbook_citations": False})
    app.build()
    assert playbook_warnings(app) == []


def test_editing_the_bib_rewrites_the_citing_page(make_app, tmp_path):
    """An incremental build after a .bib edit equals a fresh build of the same sources."""
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-citations", src)
    app = make_app("html", srcdir=src, builddir=tmp_path / "build")
    app.build()
    bib = src / "references.bib"
    bib.write_text(
        bib.read_text(encoding="utf-8").replace(
            "Bag of Tricks for Efficient Text Classification", "A Renamed Bag of Tricks"
        ),
        encoding="utf-8",
    )
    (src / "index.md").write_text(
        (src / "index.md")
        .read_text(encoding="utf-8")
        .replace(
            "The Llama 3 herd {cite}`grattafiori2024llama3herdmodels` has", "The Llama 3 herd has"
        ),
        encoding="utf-8",
    )
    again = make_app("html", srcdir=src, builddir=tmp_path / "build")
    again.build()
    fresh = make_app("html", srcdir=src, builddir=tmp_path / "fresh")
    fresh.build()
    incremental, clean = read_html(again), read_html(fresh)
    assert incremental.select_one(".pb-body").decode() == clean.select_one(".pb-body").decode()
    assert "A Renamed Bag of Tricks" in incremental.select_one("#pb-cite-2 .pb-card").get_text()
    assert not incremental.select("#pb-ref-grattafiori2024llama3herdmodels")


def test_parallel_and_serial_builds_write_the_same_pages(tmp_path):
    """Eight citing pages: -j 2 reads and writes them in two processes, -j 1 in one."""
    keys = ["joulin2016fasttext", "joulin2016bag", "radford2019language", "penedo2023refinedweb"]
    pages = [f"page{i}" for i in range(8)]
    files = {
        "references.bib": (ROOTS / "test-citations" / "references.bib").read_bytes(),
        "index.md": "# Book\n\n```{toctree}\n" + "\n".join(pages) + "\n```\n",
    }
    for i, page in enumerate(pages):
        order = keys[i % 4 :] + keys[: i % 4]
        cites = " ".join(f"{{cite}}`{key}`" for key in order)
        files[f"{page}.md"] = f"# Page {i}\n\nText {cites}.[^n]\n\n[^n]: Note {i}.\n"
    src = write_project(
        tmp_path / "src",
        files,
        conf=CONF + 'project = "Parallel"\nplaybook_bibfiles = ["references.bib"]\n'
        'suppress_warnings = ["playbook.citation"]\n',
    )
    outputs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out-j{jobs}"
        sphinx_build("-q", "-j", jobs, "-b", "html", str(src), str(out))
        outputs[jobs] = {p: (out / f"{p}.html").read_text(encoding="utf-8") for p in pages}
    assert outputs["1"] == outputs["2"]
    page3 = BeautifulSoup(outputs["2"]["page3"], "html.parser")
    first = page3.select_one("#pb-references li")
    assert first["id"] == "pb-ref-penedo2023refinedweb", "page 3 cites penedo first"


def _book(src: Path, numbering: str) -> list[str]:
    """A four-page book whose pages cite overlapping keys; returns the page names."""
    pages = {
        "intro": ["joulin2016bag"],
        "middle": ["radford2019language", "joulin2016bag"],
        "uncited": [],
        "end": ["penedo2023refinedweb"],
    }
    files = {
        "references.bib": (ROOTS / "test-citations" / "references.bib").read_bytes(),
        "index.md": "# Book\n\n```{toctree}\n" + "\n".join(pages) + "\n```\n",
    }
    for name, keys in pages.items():
        cites = " ".join(f"{{cite}}`{key}`" for key in keys)
        files[f"{name}.md"] = f"# {name}\n\nText {cites}.\n"
    write_project(
        src,
        files,
        conf=CONF + 'project = "Book"\n'
        f'playbook_bibfiles = ["references.bib"]\nplaybook_citation_numbering = "{numbering}"\n'
        'suppress_warnings = ["playbook.citation"]\n',
    )
    return list(pages)


def test_book_numbering_numbers_the_whole_book_with_one_list_at_its_end(make_app, tmp_path):
    _book(tmp_path / "src", "book")
    app = make_app("html", srcdir=tmp_path / "src", builddir=tmp_path / "build")
    app.build()
    links = {
        name: [(a.get_text(), a["href"]) for a in read_html(app, name).select(".pb-cite__link")]
        for name in ("intro", "middle", "end")
    }
    assert links == {
        "intro": [("1", "end.html#pb-ref-joulin2016bag")],
        "middle": [
            ("2", "end.html#pb-ref-radford2019language"),
            ("1", "end.html#pb-ref-joulin2016bag"),
        ],
        "end": [("3", "#pb-ref-penedo2023refinedweb")],
    }
    end = read_html(app, "end")
    assert [li["id"] for li in end.select("#pb-references li")] == [
        "pb-ref-joulin2016bag",
        "pb-ref-radford2019language",
        "pb-ref-penedo2023refinedweb",
    ]
    backlinks = [a["href"] for a in end.select("#pb-ref-joulin2016bag a.pb-backlink")]
    assert backlinks == ["intro.html#pb-cite-1", "middle.html#pb-cite-2"]
    assert not read_html(app, "intro").select("#pb-references")


def test_book_numbering_rewrites_pages_whose_numbers_change(make_app, tmp_path):
    """Citing a new key first on the first page renumbers the others: they are rewritten."""
    src = tmp_path / "src"
    _book(src, "book")
    make_app("html", srcdir=src, builddir=tmp_path / "build").build()
    (src / "intro.md").write_text(
        "# intro\n\nText {cite}`barbaresi-2021-trafilatura` {cite}`joulin2016bag`.\n",
        encoding="utf-8",
    )
    again = make_app("html", srcdir=src, builddir=tmp_path / "build")
    again.build()
    fresh = make_app("html", srcdir=src, builddir=tmp_path / "fresh")
    fresh.build()
    for name in ("intro", "middle", "uncited", "end"):
        assert read_html(again, name).select_one(".pb-body").decode() == (
            read_html(fresh, name).select_one(".pb-body").decode()
        ), name
    assert [a.get_text() for a in read_html(again, "middle").select(".pb-cite__link")] == [
        "3",
        "2",
    ]


@pytest.mark.parametrize("builder", ["singlehtml", "latex"])
def test_builders_that_join_pages_number_every_citation(make_app, tmp_path, builder):
    """singlehtml and latex write the book as one document: one numbering, no [?]."""
    _book(tmp_path / "src", "page")
    app = make_app(builder, srcdir=tmp_path / "src", builddir=tmp_path / "build")
    app.build()
    if builder == "singlehtml":
        page = read_html(app)
        labels = [a.get_text() for a in page.select(".pb-cite__link")]
        assert labels == ["1", "2", "1", "3"]
        assert not page.select(".pb-cite__unknown")
        assert len(page.select("#pb-references li")) == 3
    else:
        tex = next(app.outdir.glob("*.tex")).read_text(encoding="utf-8")
        assert "?" not in "".join(line for line in tex.splitlines() if "{[}" in line)
        assert "{[}3{]}" in tex


def test_rest_roles_and_a_pages_own_bibliography(make_app, tmp_path):
    """reST spells the roles :cite: and :cite:t:; a page adds its own .bib in docinfo."""
    src = write_project(
        tmp_path / "src",
        {
            "index.rst": "Book\n====\n\n.. toctree::\n\n   chapter/page\n   chapter/second\n",
            "chapter/second.rst": ":bibliography: own.bib\n\nSecond\n======\n\n"
            "Again :cite:`ok2020`.\n",
            "chapter/own.bib": (DATA / "malformed.bib").read_bytes(),
            "chapter/page.rst": ":bibliography: own.bib\n\nChapter\n=======\n\n"
            "As :cite:t:`ok2020` wrote :cite:`ok2020,broken2021`.\n",
        },
        conf=CONF + 'project = "reST"\n',
    )
    app = make_app("html", srcdir=src)
    app.build()
    page = read_html(app, "chapter/page")
    cites = page.select(".pb-cite")
    assert cites[0].get_text(" ", strip=True).startswith("Doe [ 1 ]")
    assert [a.get_text() for a in cites[1].select(".pb-cite__link")] == ["1", "2"]
    # The pages' malformed file is reported once, at its line; what it could read is used.
    warnings = playbook_warnings(app)
    assert warnings == [
        f"{src / 'chapter' / 'own.bib'}:15: WARNING: syntax error in line 15: premature end "
        "of file; fix the BibTeX syntax at or above this line (often an unclosed brace or a "
        "missing comma); the entries that parse are used [playbook.citation]"
    ], warnings


def test_book_list_on_a_page_that_cites_nothing_follows_the_book(make_app, tmp_path):
    """The list closes the book even on a page without citations, and is rewritten."""
    src = tmp_path / "src"
    _book(src, "book")
    (src / "end.md").write_text("# end\n\nNo citations here.\n", encoding="utf-8")
    make_app("html", srcdir=src, builddir=tmp_path / "build").build()
    (src / "intro.md").write_text("# intro\n\n{cite}`penedo2023refinedweb`.\n", encoding="utf-8")
    again = make_app("html", srcdir=src, builddir=tmp_path / "build")
    again.build()
    listed = [li["id"] for li in read_html(again, "end").select("#pb-references li")]
    assert listed == [
        "pb-ref-penedo2023refinedweb",
        "pb-ref-radford2019language",
        "pb-ref-joulin2016bag",
    ]


def _two_pages_a_s_own_bib(tmp_path: Path, conf: str) -> Path:
    """Pages ``a`` and ``b`` cite ``only_a``, which only ``a``'s own .bib holds."""
    src = write_project(
        tmp_path / "src",
        {
            "index.md": "# Book\n\n```{toctree}\na\nb\n```\n",
            "a.bib": "@misc{only_a, title={Only in A}, author={Doe, Jane}, year={2020}}\n",
            "a.md": "---\nbibliography: a.bib\n---\n# A\n\nCited {cite}`only_a`.\n",
            "b.md": "# B\n\nAlso {cite}`only_a`.\n",
        },
        conf=CONF + conf,
    )
    return src


def test_a_key_in_one_page_s_bibliography_is_not_another_page_s(make_app, tmp_path):
    """Page numbering: ``b`` cites a key that only ``a``'s own .bib holds; it stays
    unknown on ``b`` (a warning at its line, no card) however the pages are read."""
    src = _two_pages_a_s_own_bib(tmp_path, "")
    app = make_app("html", srcdir=src)
    app.build()
    assert "Only in A" in read_html(app, "a").select_one(".pb-cite").get_text()
    page_b = read_html(app, "b")
    assert "Only in A" not in page_b.get_text()
    assert not page_b.select("#pb-references")
    assert playbook_warnings(app) == [
        f"{src / 'b.md'}:3: WARNING: unknown citation key 'only_a'; add it to a .bib file "
        "or fix the key [playbook.citation]"
    ]


def test_book_numbering_leaves_a_key_of_another_page_s_bibliography_unknown(make_app, tmp_path):
    """Book numbering: ``b`` cites a key only ``a``'s own .bib holds; ``a`` numbers it,
    ``b`` shows it unknown (no number, a warning) and the build does not fail."""
    src = _two_pages_a_s_own_bib(tmp_path, 'playbook_citation_numbering = "book"\n')
    app = make_app("html", srcdir=src)
    app.build()
    assert [a.get_text() for a in read_html(app, "a").select(".pb-cite__link")] == ["1"]
    page_b = read_html(app, "b")
    assert not page_b.select(".pb-cite__link"), "no number, no link"
    assert "Only in A" not in page_b.select_one(".pb-cite").get_text()
    assert playbook_warnings(app) == [
        f"{src / 'b.md'}:3: WARNING: unknown citation key 'only_a'; add it to a .bib file "
        "or fix the key [playbook.citation]"
    ]


def test_dois_as_keys_give_each_reference_its_own_id(tmp_path):
    """Found on an imported Distill article whose keys are DOIs: every entry had the
    id "pb-ref-" (the prefix and nothing: a leading digit is dropped from an id), so
    each citation's link led to the first reference."""
    bib = "".join(
        f"@article{{10.1109/5.72679{n},title={{Paper {n}}},author={{A, B}},year={{2020}}}}\n"
        for n in (1, 2, 3)
    )
    page = "# T\n\n" + " ".join(f"{{cite}}`10.1109/5.72679{n}`" for n in (1, 2, 3)) + "\n"
    source = write_project(
        tmp_path / "src",
        {"refs.bib": bib, "index.md": page},
        conf=CONF + 'playbook_bibfiles = ["refs.bib"]\n',
    )
    sphinx_build("-q", "-W", "-b", "html", str(source), str(tmp_path / "out"))
    html = BeautifulSoup((tmp_path / "out" / "index.html").read_text("utf-8"), "html.parser")
    links = [a["href"] for a in html.select("a.pb-cite__link")]
    assert len(links) == 3 and len(set(links)) == 3, links
    for href in links:
        entry = html.find(id=href.removeprefix("#"))
        assert entry is not None, href
    titles = [html.find(id=href.removeprefix("#")).get_text() for href in links]
    assert [("Paper 1" in t, "Paper 2" in t, "Paper 3" in t) for t in titles] == [
        (True, False, False),
        (False, True, False),
        (False, False, True),
    ]
