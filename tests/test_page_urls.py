"""Every URL of a page points at a file the build wrote: the canonical and Google Scholar's
URLs, the BibTeX ``url``, the citation links and the reference list's backlinks, with
``html_file_suffix``, with dirhtml's folders and in singlehtml's one page."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from helpers import ROOTS, build_app, soup, write_project

BASE = "https://example.org/book/"
PAGES = {
    "index.md": "# Book\n\n```{toctree}\nintro\npart/index\nend\n```\n",
    "intro.md": "# Intro\n\nText {cite}`joulin2016bag`.\n",
    "part/index.md": "# Part\n\n```{toctree}\ndeep\n```\n",
    "part/deep.md": "# Deep\n\nText {cite}`radford2019language` {cite}`joulin2016bag`.\n",
    "end.md": "# End\n\nText {cite}`penedo2023refinedweb`.\n",
}


def _book(source: Path) -> None:
    write_project(
        source,
        {**PAGES, "references.bib": (ROOTS / "test-citations" / "references.bib").read_bytes()},
        conf='extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\nproject = "Book"\n'
        f'html_baseurl = "{BASE}"\nplaybook_published = "2025-01-02"\n'
        'playbook_bibfiles = ["references.bib"]\nplaybook_citation_numbering = "book"\n',
    )


def _served(out: Path, url: str, suffix: str) -> Path:
    """The file a static server sends for ``url`` (a folder sends its index file)."""
    assert url.startswith(BASE), url
    path = urlsplit(url).path.removeprefix(urlsplit(BASE).path)
    if path == "" or path.endswith("/"):
        path += "index" + suffix
    return out / path


@pytest.mark.parametrize(
    ("builder", "confoverrides", "suffix"),
    [
        ("html", {"html_file_suffix": ".htm"}, ".htm"),
        ("dirhtml", {}, ".html"),
        ("singlehtml", {}, ".html"),
    ],
    ids=["html_file_suffix", "dirhtml", "singlehtml"],
)
def test_page_urls_point_at_the_written_files(make_app, tmp_path, builder, confoverrides, suffix):
    _book(tmp_path / "source")
    app = build_app(make_app, tmp_path / "source", builder, confoverrides=confoverrides)
    out = Path(app.outdir)
    written = {
        path
        for path in out.rglob(f"*{suffix}")
        if path.relative_to(out).parts[0] not in ("_static", "search", "genindex")
        and path.stem not in ("search", "genindex")
    }
    assert len(written) == (1 if builder == "singlehtml" else len(PAGES)), sorted(written)
    checked_links = 0
    for path in written:
        page = soup(path)
        canonical = page.find("link", rel="canonical")["href"]
        assert _served(out, canonical, suffix) == path, canonical
        scholar = page.find("meta", attrs={"name": "citation_fulltext_html_url"})["content"]
        assert scholar == canonical
        assert page.find("meta", property="og:url")["content"] == canonical
        bibtex = next(b.get_text() for b in page.select(".pb-appendix pre") if "@misc" in b.text)
        assert re.search(r"url = \{(.*?)\}", bibtex)[1] == canonical
        links = page.select("a.pb-cite__link") + page.select("a.pb-backlink")
        for link in links:
            target = urljoin(canonical, link["href"])
            served, anchor = _served(out, target, suffix), urlsplit(target).fragment
            assert served.is_file(), (path, link["href"])
            assert soup(served).find(id=anchor) is not None, (path, link["href"])
            checked_links += 1
    assert checked_links == 4 + 4, "four citation links and four backlinks"
