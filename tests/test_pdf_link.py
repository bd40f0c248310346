"""The article's PDF: a "Download PDF" link in the byline and Scholar's citation_pdf_url."""

from __future__ import annotations

import pytest
from helpers import read_html


def _pdf_link(soup):
    column = soup.select_one(".pb-byline__pdf")
    return column.find("a") if column else None


def _scholar_pdf(soup):
    tag = soup.find("meta", attrs={"name": "citation_pdf_url"})
    return tag["content"] if tag else None


@pytest.mark.sphinx("html", testroot="paper")
def test_front_matter_and_docinfo_name_the_pdf(app):
    app.build()
    myst, rst = read_html(app, "index"), read_html(app, "chapter")
    link = _pdf_link(myst)
    assert link.get_text() == "Download PDF"
    assert link["href"] == "https://example.org/paper/paper.pdf"
    assert link["type"] == "application/pdf"
    assert _scholar_pdf(myst) == "https://example.org/paper/paper.pdf"
    # A relative path is a link from the page; Scholar gets it under html_baseurl.
    assert _pdf_link(rst)["href"] == "chapter.pdf"
    assert _scholar_pdf(rst) == "https://example.org/paper/chapter.pdf"


@pytest.mark.sphinx(
    "html",
    testroot="article-myst",
    confoverrides={"playbook_pdf_url": "https://example.org/book.pdf"},
)
def test_conf_gives_every_page_without_its_own_the_pdf(app):
    app.build()
    for page in ("index", "chapter2"):
        soup = read_html(app, page)
        assert _pdf_link(soup)["href"] == "https://example.org/book.pdf"


@pytest.mark.sphinx("html", testroot="article-myst")
def test_no_pdf_no_column(app):
    app.build()
    soup = read_html(app, "index")
    assert _pdf_link(soup) is None and _scholar_pdf(soup) is None
