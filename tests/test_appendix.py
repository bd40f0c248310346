"""The appendix, hover footnotes, the citation block and scholarly metadata in <head>."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest
from helpers import CONF, ROOTS, build, playbook_warnings, read_html, read_page, write_project


def appendix_parts(page) -> list[str]:
    appendix = page.select_one("#pb-appendix")
    return [h.get_text().rstrip("#") for h in appendix.select("section > h2")]


@pytest.mark.sphinx("html", testroot="citations")
def test_appendix_parts_in_distills_order(app):
    app.build()
    page = read_html(app)
    assert appendix_parts(page) == [
        "Acknowledgements",
        "Footnotes",
        "References",
        "Citation",
        "Updates and corrections",
        "Reuse",
    ]
    # The appendix is the last thing in the article body.
    assert page.select(".pb-body > section > *")[-1]["id"] == "pb-appendix"
    citation = page.select_one("#pb-appendix-citation")
    assert citation.find("p").get_text() == (
        "For attribution in academic contexts, please cite this work as"
    )
    assert citation.select_one(".pb-cite-short").get_text(strip=True) == (
        'Tazi & Mom, "Citations", 2025.'
    )
    bibtex = citation.select_one(".highlight-bibtex").get_text().strip()
    assert bibtex.splitlines() == [
        "@misc{tazi2025citations,",
        "  title = {Citations},",
        "  author = {Tazi, Nouamane and Mom, Ferdinand},",
        "  year = {2025},",
        "  url = {https://example.org/book/index.html},",
        "  doi = {10.1234/cite.2025}",
        "}",
    ]
    updates = [a["href"] for a in page.select("#pb-appendix-updates p a")]
    assert updates[0] == "https://github.com/example/playbook/issues/new"
    assert updates[1].startswith("https://github.com/example/playbook/commits/main/")
    assert updates[1].endswith("index.md")
    reuse = page.select_one("#pb-appendix-reuse p a")
    assert reuse["href"] == "https://creativecommons.org/licenses/by/4.0/"


@pytest.mark.sphinx("html", testroot="citations")
def test_footnotes_become_hover_notes(app):
    app.build()
    page = read_html(app)
    notes = page.select(".pb-body .pb-fn")
    assert len(notes) == 2
    first = notes[0]
    assert first.select_one("a.footnote-reference").get_text(strip=True) == "[1]"
    card = page.find(id=first["aria-describedby"])
    assert card["role"] == "tooltip"
    assert card.get_text() == "The note\u2019s text, with a link."
    assert card.find("a")["href"] == "https://example.org"
    # The notes themselves are listed in the appendix, with their backlinks.
    listed = page.select("#pb-appendix-footnotes .footnote")
    assert [n["id"] for n in listed] == ["note", "second"]
    assert listed[0].select_one('a[role="doc-backlink"]')["href"] == "#id1"
    assert not page.select(".pb-body > section > aside.footnote-list")
    assert not page.select("hr.footnotes")


@pytest.mark.sphinx("html", testroot="citations")
def test_scholar_and_social_tags(app):
    app.build()
    head = read_html(app).head

    def values(attribute: str, name: str) -> list[str]:
        return [m["content"] for m in head.find_all("meta", attrs={attribute: name})]

    assert values("name", "citation_title") == ["Citations"]
    assert values("name", "citation_author") == ["Tazi, Nouamane", "Mom, Ferdinand"]
    assert values("name", "citation_author_institution") == ["Hugging Face"]
    assert values("name", "citation_publication_date") == ["2025/02/19"]
    assert values("name", "citation_doi") == ["10.1234/cite.2025"]
    assert values("name", "citation_fulltext_html_url") == ["https://example.org/book/index.html"]
    references = values("name", "citation_reference")
    assert len(references) == 5
    assert references[0].startswith(
        "citation_title=FastText.zip: Compressing text classification models;"
        "citation_author=Joulin, Armand;"
    )
    assert values("property", "og:type") == ["article"]
    assert values("property", "og:title") == ["Citations"]
    assert values("property", "og:description") == ["A page that cites."]
    assert values("property", "og:url") == ["https://example.org/book/index.html"]
    assert values("property", "og:image") == ["https://example.org/book/_images/card.png"]
    assert values("name", "twitter:card") == ["summary_large_image"]
    canonical = head.find("link", rel="canonical")
    assert canonical["href"] == "https://example.org/book/index.html"


@pytest.mark.sphinx("html", testroot="appendix-rst")
def test_rest_appendix_citation_directive_and_custom_license(app):
    app.build()
    assert playbook_warnings(app) == []
    page = read_html(app)
    # {citation} puts the block where it stands, so the appendix has none.
    assert appendix_parts(page) == ["Acknowledgements", "Footnotes", "Reuse"]
    body_text = [p.get_text() for p in page.select(".pb-body > section > p")]
    assert body_text[1] == "For attribution in academic contexts, please cite this work as"
    assert page.select_one(".pb-cite-short").get_text(strip=True) == (
        'Lovelace & Babbage, "The Analytical Engine", 2024.'
    )
    reuse = page.select_one("#pb-appendix-reuse p").get_text()
    assert reuse.startswith("Text and figures are licensed under Some Custom Licence 1.0")
    assert page.select_one("#pb-appendix-reuse p a") is None
    assert page.select_one(".pb-fn .pb-card").get_text() == "A footnote in reST."


@pytest.mark.sphinx("html", testroot="article-rst")
def test_pages_without_the_data_have_no_empty_parts(app):
    app.build()
    page = read_html(app)
    # Published date, no license, no repository, no citations, no footnotes.
    assert appendix_parts(page) == ["Citation"]


@pytest.mark.sphinx("text", testroot="appendix-rst")
def test_text_builder_writes_the_appendix(app):
    app.build()
    text = (app.outdir / "index.txt").read_text(encoding="utf-8")
    for heading in ("Acknowledgements", "Reuse", "BibTeX citation"):
        assert heading in text


def test_a_citation_block_inside_the_appendix_stands_where_it_is_placed(make_app, tmp_path):
    """{citation} within {appendix}: filled in place, once, and no Citation part added."""
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-appendix-rst", src)
    index = src / "index.rst"
    text = index.read_text(encoding="utf-8").replace(".. citation::\n\n", "")
    thanks = "   We thank the reviewers.\n"
    index.write_text(text.replace(thanks, thanks + "\n   .. citation::\n"), encoding="utf-8")
    app = make_app("html", srcdir=src, builddir=tmp_path / "build")
    app.build()
    assert playbook_warnings(app) == []
    page = read_html(app)
    assert appendix_parts(page) == ["Acknowledgements", "Footnotes", "Reuse"]
    acknowledgements = page.select_one("#pb-appendix").find("section")
    assert [s.get_text(strip=True) for s in page.select(".pb-cite-short")] == [
        'Lovelace & Babbage, "The Analytical Engine", 2024.'
    ]
    assert acknowledgements.select_one(".pb-cite-short") is not None


GROUP_AUTHOR_PAGES = {
    "md": (
        "---\n"
        "authors:\n"
        "  - name: The sphinx_playbook developers\n"
        "    organization: true\n"
        "  - Ada Lovelace\n"
        "published: 2026-01-02\n"
        "---\n\n# The Playbook\n\nText.\n"
    ),
    "rst": (
        ":authors: [{name: The sphinx_playbook developers, organization: true}, Ada Lovelace]\n"
        ":published: 2026-01-02\n\n"
        "The Playbook\n============\n\nText.\n"
    ),
}


def _group_author_page(make_app, tmp_path, suffix: str, text: str):
    src = tmp_path / suffix
    src.mkdir()
    (src / "conf.py").write_text(
        'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n', encoding="utf-8"
    )
    (src / f"index.{suffix}").write_text(text, encoding="utf-8")
    app = make_app("html", srcdir=src, builddir=tmp_path / f"build-{suffix}")
    app.build()
    return app


@pytest.mark.parametrize("suffix", sorted(GROUP_AUTHOR_PAGES))
def test_a_group_author_is_cited_as_written(make_app, tmp_path, suffix):
    """Not "developers, The sphinx_playbook": a group has no first and last name."""
    app = _group_author_page(make_app, tmp_path, suffix, GROUP_AUTHOR_PAGES[suffix])
    assert playbook_warnings(app) == []
    page = read_html(app)
    assert [a.get_text(strip=True) for a in page.select(".pb-byline .pb-author__name")] == [
        "The sphinx_playbook developers",
        "Ada Lovelace",
    ]
    assert page.select_one(".pb-cite-short").get_text(strip=True) == (
        'The sphinx_playbook developers & Lovelace, "The Playbook", 2026.'
    )
    bibtex = page.select_one(".highlight-bibtex").get_text().strip().splitlines()
    assert bibtex[0] == "@misc{sphinx2026playbook,"
    assert bibtex[2] == r"  author = {{The sphinx\_playbook developers} and Lovelace, Ada},"
    authors = [meta["content"] for meta in page.find_all("meta", attrs={"name": "citation_author"})]
    assert authors == ["The sphinx_playbook developers", "Lovelace, Ada"]


def test_an_organization_flag_that_is_not_a_boolean_is_reported(make_app, tmp_path):
    text = GROUP_AUTHOR_PAGES["md"].replace("organization: true", "organization: maybe")
    app = _group_author_page(make_app, tmp_path, "md", text)
    (warning,) = playbook_warnings(app)
    assert "index.md:" in warning and "organization of 'The sphinx_playbook developers'" in warning
    assert "must be true or false" in warning and "[playbook.metadata]" in warning
    short = read_html(app).select_one(".pb-cite-short").get_text(strip=True)
    assert short.startswith("developers & Lovelace"), "read as a person, as before"


def test_a_citation_in_a_footnote_referenced_twice_writes_no_id_twice(tmp_path):
    """Found on imported Distill articles: each footnote card copies the footnote, and
    with it the citation's ids; a footnote referenced twice had two equal card ids."""
    source = write_project(
        tmp_path / "src",
        {
            "refs.bib": "@article{knuth,title={Art},author={Knuth, Donald},year={1968}}\n",
            "index.md": (
                "# T\n\nA note[^a] and the same note[^a].\n\n[^a]: Citing {cite}`knuth`.\n"
            ),
        },
        conf=CONF + 'playbook_bibfiles = ["refs.bib"]\n',
    )
    page = read_page(build(source, tmp_path / "out"))
    ids = Counter(str(element["id"]) for element in page.find_all(id=True))
    assert [name for name, count in ids.items() if count > 1] == []
    cards = page.select(".pb-fn > .pb-card")
    assert len(cards) == 2
    for card in cards:  # each card's citation still opens its own reference card
        cite = card.select_one(".pb-cite[aria-describedby]")
        described = page.find(id=cite["aria-describedby"])
        assert described is not None and "pb-card" in described["class"]
        assert "Art" in described.get_text()
