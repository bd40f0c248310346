"""Scholarly output in the corners a new user meets first: the thumbnail behind
``og:image``, affiliations referred to in another case, BibTeX names that BibTeX
splits wrongly, and the citation's .bib file.

Each test builds a small project and checks what a reader, a crawler or BibTeX
gets: the URL in ``<head>`` leads to the copied image, the byline has the
affiliations the author wrote, the emitted BibTeX read back by pybtex has each
person's parts, and the download link leads to a file with the block's text.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup
from helpers import page_path, playbook_warnings, png, soup, sphinx_build, write_project
from pybtex.database import Person, parse_string

BASE = "https://example.org/book/"
CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\nproject = "Corners"\n'
BAND = png(40, 20)


def _project(tmp_path: Path, files: dict[str, str | bytes], conf: str = "") -> Path:
    """A source folder with conf.py and ``files`` (text or bytes, in subfolders too)."""
    return write_project(tmp_path / "src", files, conf=CONF + conf)


def _build(make_app, source: Path, builder: str = "html", written: list[str] | None = None):
    """Build into ``<tmp>/build`` (kept between calls: a second call is a rebuild);
    ``written`` collects the pages the build wrote."""
    app = make_app(builder, srcdir=source, builddir=source.parent / "build")
    if written is not None:
        app.connect("html-page-context", lambda _app, pagename, *_rest: written.append(pagename))
    app.build()
    return app


def _meta(page: BeautifulSoup, attribute: str, name: str) -> list[str]:
    return [tag["content"] for tag in page.head.find_all("meta", attrs={attribute: name})]


def _served(out: Path, page_file: Path, url: str) -> Path:
    """The file a static server sends for ``url``, read on the page at ``page_file``."""
    if url.startswith(BASE):
        return out / unquote(urlsplit(url).path.removeprefix(urlsplit(BASE).path))
    assert "://" not in url, url
    page_url = "http://site/" + page_file.relative_to(out).as_posix()
    return out / unquote(urlsplit(urljoin(page_url, url)).path.lstrip("/"))


def _site(out: Path) -> set[str]:
    """The files and folders of a build, without Sphinx's own (``.doctrees``,
    ``_static``, ``_sources``...) but with ``_images``."""
    paths = {path.relative_to(out).as_posix() for path in out.rglob("*")}
    return {
        path
        for path in paths
        if not path.startswith(".") and (not path.startswith("_") or path.startswith("_images"))
    }


def _og_image(out: Path, docname: str, builder: str = "html") -> tuple[str, Path | None] | None:
    """``og:image`` of a page (the same as ``twitter:image``) and the file it leads to
    (None: on another site)."""
    page_file = page_path(out, docname, builder)
    page = soup(page_file)
    images = _meta(page, "property", "og:image")
    assert images == _meta(page, "name", "twitter:image")
    if not images:
        assert _meta(page, "name", "twitter:card") == ["summary"]
        return None
    assert _meta(page, "name", "twitter:card") == ["summary_large_image"]
    other_site = "://" in images[0] and not images[0].startswith(BASE)
    return images[0], None if other_site else _served(out, page_file, images[0])


# -- 1. the thumbnail ------------------------------------------------------------------

THUMBNAIL_PAGES = {
    "md": "---\ntitle: Bands\nthumbnail: {path}\n---\n\n# Bands\n\nNo image shown.\n",
    "rst": ":title: Bands\n:thumbnail: {path}\n\nBands\n=====\n\nNo image shown.\n",
}


@pytest.mark.parametrize("suffix", sorted(THUMBNAIL_PAGES))
def test_a_local_thumbnail_is_copied_and_og_image_is_its_absolute_url(make_app, tmp_path, suffix):
    """Front matter and docinfo alike: the image is in the output although the page
    does not show it, and the tag gives its URL under html_baseurl."""
    page = THUMBNAIL_PAGES[suffix].format(path="images/band.png")
    source = _project(
        tmp_path,
        {f"index.{suffix}": page, "images/band.png": BAND},
        conf=f'html_baseurl = "{BASE}"\n',
    )
    app = _build(make_app, source)
    assert playbook_warnings(app) == []
    url, served = _og_image(app.outdir, "index")
    assert url == BASE + "_images/band.png"
    assert served.read_bytes() == BAND


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_without_baseurl_og_image_is_relative_to_the_page(make_app, tmp_path, builder):
    """A page in a folder, under both URL schemes: the relative URL leads to the image.
    The path is the page's own (``../``), or the source folder's (a leading ``/``)."""
    page = "---\nthumbnail: {path}\n---\n\n# {title}\n\nText.\n"
    source = _project(
        tmp_path,
        {
            "index.md": "# Book\n\n```{toctree}\nguide/intro\nguide/more\n```\n",
            "guide/intro.md": page.format(path="../images/band.png", title="Intro"),
            "guide/more.md": page.format(path="/images/band.png", title="More"),
            "images/band.png": BAND,
        },
    )
    app = _build(make_app, source, builder)
    assert playbook_warnings(app) == []
    for docname in ("guide/intro", "guide/more"):
        url, served = _og_image(app.outdir, docname, builder)
        assert not url.startswith(("/", "http")), url
        assert served.read_bytes() == BAND, (docname, url)


def test_conf_thumbnail_is_the_default_and_a_url_is_kept(make_app, tmp_path):
    """playbook_thumbnail (relative to conf.py) for pages without their own; a page's
    own local image wins; an external URL is given as written."""
    card, own = png(12, 6), png(30, 10)
    source = _project(
        tmp_path,
        {
            "index.md": "# Book\n\n```{toctree}\nown\nremote\n```\n",
            "own.md": "---\nthumbnail: own.png\n---\n\n# Own\n\nText.\n",
            "remote.md": "---\nthumbnail: https://cdn.example/card.png\n---\n\n# Remote\n",
            "static/card.png": card,
            "own.png": own,
        },
        conf=f'html_baseurl = "{BASE}"\nplaybook_thumbnail = "static/card.png"\n',
    )
    app = _build(make_app, source)
    assert playbook_warnings(app) == []
    url, served = _og_image(app.outdir, "index")
    assert (url, served.read_bytes()) == (BASE + "_images/card.png", card)
    url, served = _og_image(app.outdir, "own")
    assert (url, served.read_bytes()) == (BASE + "_images/own.png", own)
    assert _og_image(app.outdir, "remote")[0] == "https://cdn.example/card.png"


@pytest.mark.parametrize("suffix", sorted(THUMBNAIL_PAGES))
def test_a_missing_thumbnail_is_reported_at_its_line_and_gives_no_tag(make_app, tmp_path, suffix):
    page = THUMBNAIL_PAGES[suffix].format(path="images/missing.png")
    source = _project(tmp_path, {f"index.{suffix}": page}, conf=f'html_baseurl = "{BASE}"\n')
    app = _build(make_app, source)
    (warning,) = playbook_warnings(app)
    line = 3 if suffix == "md" else 2
    assert warning.startswith(f"{source / f'index.{suffix}'}:{line}: WARNING: ")
    assert "'thumbnail'" in warning and "'images/missing.png'" in warning
    assert warning.endswith("[playbook.metadata]")
    assert _og_image(app.outdir, "index") is None


def test_a_missing_conf_thumbnail_is_reported_and_gives_no_tag(make_app, tmp_path):
    source = _project(
        tmp_path, {"index.md": "# Book\n\nText.\n"}, conf='playbook_thumbnail = "card.png"\n'
    )
    app = _build(make_app, source)
    (warning,) = playbook_warnings(app)
    assert "playbook_thumbnail = 'card.png'" in warning and "[playbook.metadata]" in warning
    assert _og_image(app.outdir, "index") is None


def test_a_replaced_thumbnail_rewrites_its_pages_and_the_copy(make_app, tmp_path):
    page = "---\nthumbnail: band.png\n---\n\n# {0}\n\nText.\n"
    source = _project(
        tmp_path,
        {
            "index.md": "# Book\n\n```{toctree}\nuses\nother\n```\n",
            "uses.md": page.format("Uses"),
            "other.md": "# Other\n\nText.\n",
            "band.png": BAND,
        },
    )
    _build(make_app, source)
    wider = png(80, 20)
    (source / "band.png").write_bytes(wider)
    later = (source / "band.png").stat().st_mtime + 10
    os.utime(source / "band.png", (later, later))
    written: list[str] = []
    app = _build(make_app, source, written=written)
    assert "uses" in written and "other" not in written
    assert _og_image(app.outdir, "uses")[1].read_bytes() == wider


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_removing_a_page_keeps_the_thumbnail_other_pages_use(make_app, tmp_path, builder):
    """Two pages share one image and a third has its own: removing the third takes
    its image and its .bib away; removing one of the two leaves theirs. What is
    left is what a fresh build writes."""
    page = "---\norphan: true\npublished: 2025-02-19\nthumbnail: images/{0}.png\n---\n\n# {1}\n"
    source = _project(
        tmp_path,
        {
            "index.md": "# Book\n\nText.\n",
            "a.md": page.format("shared", "A"),
            "b.md": page.format("shared", "B"),
            "c.md": page.format("own", "C"),
            "images/shared.png": BAND,
            "images/own.png": png(8, 8),
        },
    )
    app = _build(make_app, source, builder)
    out = app.outdir

    def bib_files() -> set[str]:
        return {path.relative_to(out).as_posix() for path in out.rglob("*.bib")}

    def bib(docname: str) -> str:
        return page_path(out, docname, builder).with_suffix(".bib").relative_to(out).as_posix()

    assert {p.name for p in (out / "_images").iterdir()} == {"shared.png", "own.png"}
    assert bib_files() == {bib("index"), bib("a"), bib("b"), bib("c")} - {bib("index")}
    (source / "a.md").unlink()
    (source / "c.md").unlink()
    app = _build(make_app, source, builder)
    assert playbook_warnings(app) == []
    assert {p.name for p in (out / "_images").iterdir()} == {"shared.png"}
    assert _og_image(out, "b", builder)[1].read_bytes() == BAND
    assert bib_files() == {bib("b")}
    fresh = tmp_path / "fresh"
    sphinx_build("-q", "-b", builder, str(source), str(fresh))
    assert _site(out) == _site(fresh)


def test_the_thumbnail_is_copied_when_pages_are_written_in_parallel(tmp_path):
    """-j 2: the pages are written in worker processes; the image is still copied."""
    pages = {
        f"p{n}.md": f"---\norphan: true\nthumbnail: band.png\n---\n\n# P{n}\n" for n in range(6)
    }
    source = _project(tmp_path, {"index.md": "# Book\n", "band.png": BAND, **pages})
    out = tmp_path / "out"
    sphinx_build("-j", "2", "-q", "-b", "html", str(source), str(out))
    for n in range(6):
        assert _og_image(out, f"p{n}")[1].read_bytes() == BAND


# -- 2. affiliations referred to in another case ----------------------------------------

AFFILIATION_PAGES = {
    "md": (
        "---\n"
        "authors:\n"
        "  - name: Jane Doe\n"
        "    url: https://jane.example\n"
        "    affiliations: [lab]\n"
        "  - name: John Smith\n"
        "    affiliations: [UNIVERSITY, Lab]\n"
        "affiliations:\n"
        "  - name: Lab\n"
        "    url: https://lab.example\n"
        "  - id: Uni\n"
        "    name: University\n"
        "---\n\n# Paper\n\nText.\n"
    ),
    "rst": (
        ":authors: Jane Doe <https://jane.example> [lab]; John Smith [UNIVERSITY, Lab]\n"
        ":affiliations: Lab <https://lab.example>; University\n\n"
        "Paper\n=====\n\nText.\n"
    ),
}


def _byline(page: BeautifulSoup) -> tuple[list[tuple[str, str | None]], list[str]]:
    authors = []
    for item in page.select(".pb-author"):
        marks = item.select_one(".pb-author__marks")
        name = item.select_one(".pb-author__name").get_text()
        authors.append((name, marks.get_text() if marks else None))
    column = next(
        c
        for c in page.select(".pb-byline__column")
        if c.find("dt").get_text(strip=True).startswith("Affiliation")
    )
    return authors, [li.get_text(strip=True) for li in column.select("li")]


@pytest.mark.parametrize("suffix", sorted(AFFILIATION_PAGES))
def test_affiliation_references_ignore_case(make_app, tmp_path, suffix):
    """``[lab]`` is the affiliation "Lab", ``UNIVERSITY`` the one named "University":
    no third affiliation, and each author is marked with the right number."""
    source = _project(tmp_path, {f"index.{suffix}": AFFILIATION_PAGES[suffix]})
    app = _build(make_app, source)
    assert playbook_warnings(app) == []
    page = soup(app.outdir / "index.html")
    authors, affiliations = _byline(page)
    assert affiliations == ["1Lab", "2University"]
    assert authors == [("Jane Doe", "1"), ("John Smith", "1,2")]
    institutions = _meta(page, "name", "citation_author_institution")
    assert institutions == ["Lab", "University", "Lab"]


@pytest.mark.parametrize("suffix", sorted(AFFILIATION_PAGES))
def test_an_affiliation_reference_that_matches_none_is_reported(make_app, tmp_path, suffix):
    text = AFFILIATION_PAGES[suffix].replace("UNIVERSITY", "MIT")
    source = _project(tmp_path, {f"index.{suffix}": text})
    app = _build(make_app, source)
    (warning,) = playbook_warnings(app)
    assert warning.startswith(f"{source / f'index.{suffix}'}:{2 if suffix == 'md' else 1}: ")
    assert "'John Smith'" in warning and "'MIT'" in warning
    assert "Lab" in warning and "University" in warning
    assert warning.endswith("[playbook.metadata]")
    # Shown as written, as an affiliation of its own, besides the two defined.
    assert _byline(soup(app.outdir / "index.html"))[1] == ["1Lab", "2University", "3MIT"]


# -- 3. BibTeX names, read back by pybtex ------------------------------------------------

#: name as written -> (first, middle, prelast, last, lineage) as BibTeX must read them.
TRICKY_NAMES = {
    # A comma after a full name starts a title: the whole name is one braced token.
    "Ada Lovelace, Countess of Lovelace": (
        [], [], [], ["{Ada Lovelace, Countess of Lovelace}"], []
    ),
    "Jane Doe, PhD": ([], [], [], ["{Jane Doe, PhD}"], []),
    "Martin Luther King Jr.": (["Martin"], ["Luther"], [], ["King"], ["Jr."]),
    "Sammy Davis, Jr.": (["Sammy"], [], [], ["Davis"], ["Jr."]),
    "Henry Ford III": (["Henry"], [], [], ["Ford"], ["III"]),
    "Ludwig van Beethoven": (["Ludwig"], [], ["van"], ["Beethoven"], []),
    "Charles Louis de la Vallée Poussin": (
        ["Charles"], ["Louis"], ["de", "la"], ["Vallée", "Poussin"], []
    ),
    "van Rossum, Guido": (["Guido"], [], ["van"], ["Rossum"], []),
    "Tazi, Nouamane": (["Nouamane"], [], [], ["Tazi"], []),
    "King, Jr., Coretta Scott": (["Coretta"], ["Scott"], [], ["King"], ["Jr."]),
    "Madonna": ([], [], [], ["Madonna"], []),
}  # fmt: skip
GROUP = "The sphinx_playbook developers"


def _tricky_page(suffix: str) -> str:
    if suffix == "md":
        people = "".join(f'  - name: "{name}"\n' for name in TRICKY_NAMES)
        people += f"  - name: {GROUP}\n    organization: true\n"
        return f"---\npublished: 2025-02-19\nauthors:\n{people}---\n\n# Names\n\nText.\n"
    people = ", ".join(f'"{name}"' for name in TRICKY_NAMES)
    people += f", {{name: {GROUP}, organization: true}}"
    return f":published: 2025-02-19\n:authors: [{people}]\n\nNames\n=====\n\nText.\n"


def _parts(person: Person) -> tuple[list[str], ...]:
    return (
        person.first_names,
        person.middle_names,
        person.prelast_names,
        person.last_names,
        person.lineage_names,
    )


@pytest.mark.parametrize("suffix", ["md", "rst"])
def test_bibtex_names_read_back_as_written(make_app, tmp_path, suffix):
    """pybtex reads each person of the emitted entry back with the intended parts;
    the short citation names the first author's family name."""
    source = _project(tmp_path, {f"index.{suffix}": _tricky_page(suffix)})
    app = _build(make_app, source)
    assert playbook_warnings(app) == []
    page = soup(app.outdir / "index.html")
    block = page.select_one("#pb-appendix-citation .highlight-bibtex").get_text()
    (entry,) = parse_string(block, "bibtex").entries.values()
    people = entry.persons["author"]
    assert [_parts(p) for p in people[:-1]] == list(TRICKY_NAMES.values())
    assert _parts(people[-1]) == ([], [], [], [r"{The sphinx\_playbook developers}"], [])
    short = page.select_one("#pb-appendix-citation .pb-cite-short").get_text(strip=True)
    assert short == 'Lovelace, et al., "Names", 2025.'
    assert _meta(page, "name", "citation_author")[:3] == [
        "Lovelace, Ada",
        "Doe, Jane",
        "King, Martin Luther, Jr.",
    ]


# -- 4. the .bib file --------------------------------------------------------------------


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_the_citation_offers_its_bibtex_as_a_file(make_app, tmp_path, builder):
    """A plain link (no script) with ``download``, to a file beside the page that
    holds exactly the block's entry; in a folder too, and from a {citation} block."""
    page = "---\npublished: 2025-02-19\nauthors: [Ada Lovelace]\n---\n\n# {0}\n\nText.\n"
    source = _project(
        tmp_path,
        {
            "index.md": page.format("Book") + "\n```{toctree}\nguide/intro\n```\n",
            "guide/intro.md": page.format("Intro") + "\n```{citation}\n```\n",
        },
    )
    app = _build(make_app, source, builder)
    assert playbook_warnings(app) == []
    files = set()
    for docname in ("index", "guide/intro"):
        page_file = page_path(app.outdir, docname, builder)
        html = soup(page_file)
        block = html.select_one(".highlight-bibtex").get_text()
        (link,) = html.select("a[download]")
        key = next(iter(parse_string(block, "bibtex").entries))
        assert link["download"] == f"{key}.bib"
        served = _served(app.outdir, page_file, link["href"])
        assert served.read_text(encoding="utf-8").strip() == block.strip()
        assert served.parent == page_file.parent
        files.add(served)
    assert len(files) == 2


def test_a_page_that_stops_being_citable_loses_its_bib_file(make_app, tmp_path):
    source = _project(
        tmp_path, {"index.md": "---\npublished: 2025-02-19\n---\n\n# Book\n\nText.\n"}
    )
    app = _build(make_app, source)
    assert (app.outdir / "index.bib").is_file()
    (source / "index.md").write_text("# Book\n\nText.\n", encoding="utf-8")
    app = _build(make_app, source)
    assert soup(app.outdir / "index.html").select("a[download]") == []
    assert not (app.outdir / "index.bib").exists()
