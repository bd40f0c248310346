"""What the theme writes into every page: light assets, no blocking script, the title block."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import playbook_warnings, read_html
from pygments.styles import get_style_by_name

PYDATA_ASSETS = ("bootstrap", "fontawesome", "pydata-sphinx-theme.css", "pydata-sphinx-theme.js")


def local_assets(page) -> list[str]:
    links = [link["href"] for link in page.find_all("link", rel="stylesheet")]
    scripts = [script["src"] for script in page.find_all("script", src=True)]
    return links + scripts


@pytest.mark.sphinx("html", testroot="article-myst")
def test_page_links_none_of_pydatas_assets_and_no_other_origin(app):
    app.build()
    for docname in ("index", "chapter2", "search", "genindex"):
        page = read_html(app, docname)
        assets = local_assets(page)
        assert any("sphinx-playbook.css" in a for a in assets), docname
        assert not [a for a in assets if any(name in a for name in PYDATA_ASSETS)], assets
        assert not [a for a in assets if a.startswith(("http:", "https:", "//"))], assets
        # Every linked file exists in the output.
        for asset in assets:
            assert Path(app.outdir, docname).parent.joinpath(asset.split("?")[0]).exists(), asset


@pytest.mark.sphinx("html", testroot="article-myst")
def test_no_script_in_head_but_the_tiny_mode_switch(app):
    app.build()
    page = read_html(app)
    scripts = page.head.find_all("script")
    sources = [s.get("src", "").split("?")[0] for s in scripts]
    assert sources == ["_static/scripts/sphinx-playbook-mode.js"], "one script in <head>, a file"
    assert not page.find_all("script", src=False), "no inline script anywhere (strict CSP)"
    mode_script = Path(app.outdir, sources[0]).read_text(encoding="utf-8")
    assert "localStorage" in mode_script
    assert len(mode_script.encode()) < 1024, "it blocks the first paint: kept tiny"


@pytest.mark.sphinx("html", testroot="article-myst")
def test_sphinx_design_assets_only_on_pages_that_use_it(app):
    app.build()
    index, chapter = read_html(app), read_html(app, "chapter2")
    assert index.select(".sd-card"), "the test page uses sphinx-design cards"
    assert any("sphinx-design" in a for a in local_assets(index))
    assert not any("sphinx-design" in a or "design-tabs" in a for a in local_assets(chapter))


@pytest.mark.sphinx("html", testroot="article-myst")
def test_article_structure(app):
    app.build()
    page = read_html(app)
    article = page.find("article", class_="pb-article")
    title_block = article.find("header", class_="pb-title-block")
    # The main landmark, where search excerpts come from, is the body alone.
    main = page.select_one('[role="main"]')
    assert main.name == "main" and main["id"] == "main-content" and "pb-body" in main["class"]
    assert not main.select(".pb-title-block, .pb-byline, .pb-toc")
    assert title_block.find("h1").get_text() == "The Ultra-Scale Playbook"
    # The title block comes before the byline, which comes before the body.
    order = [
        el
        for el in article.find_all(True)
        if el.get("class") and {"pb-title-block", "pb-byline", "pb-body"} & set(el["class"])
    ]
    assert [el["class"][0] for el in order] == ["pb-title-block", "pb-byline", "pb-body"]
    toc = page.select_one("nav.pb-toc details")
    toc_links = [a.get_text() for a in toc.select("a")]
    assert toc_links[:2] == ["High-Level Overview", "Memory usage in transformers"]
    assert page.select_one("a.pb-skip-link")["href"] == "#main-content"
    # Book navigation: next page link and the chapters menu listing every page.
    assert page.select_one(".pb-prev-next a[rel=next]")["href"] == "chapter2.html"
    chapters = [a.get_text() for a in page.select(".pb-chapters__nav a")]
    assert "Second chapter" in chapters
    previous = read_html(app, "chapter2").select_one(".pb-prev-next a[rel=prev]")
    assert previous["href"] == "index.html"


@pytest.mark.sphinx("singlehtml", testroot="article-myst")
def test_singlehtml_keeps_every_heading(app):
    """Only builders with one page per document lift the title out of the body."""
    app.build()
    page = read_html(app)
    headings = [h.get_text(strip=True).rstrip("#") for h in page.select("h1, h2, h3, h4")]
    assert headings.count("The Ultra-Scale Playbook") == 1, "no separate title block"
    assert "Second chapter" in headings
    assert page.select_one(".pb-byline .pb-author") is not None


@pytest.mark.sphinx(
    "html",
    testroot="article-myst",
    confoverrides={"html_theme": "alabaster"},
)
def test_other_themes_keep_their_title(app):
    app.build()
    page = read_html(app)
    assert page.select_one(".body h1, [role=main] h1") is not None
    assert page.select(".pb-byline") == []


@pytest.mark.sphinx(
    "html",
    testroot="article-myst",
    confoverrides={
        "html_theme_options": {
            "announcement": "Read the <em>new</em> edition",
            "icon_links": [
                {"name": "GitHub", "url": "https://github.com/x/y", "icon": "fa-brands fa-github"},
                {"name": "Odd", "url": "https://example.org", "icon": "fa-solid fa-rocket"},
            ],
        }
    },
)
def test_pydata_options_announcement_and_icon_links(app):
    app.build()
    page = read_html(app)
    assert page.select_one(".pb-announcement em").get_text() == "new"
    links = page.select(".pb-icon-links a")
    assert [(a["href"], a.select_one(".pb-visually-hidden").get_text()) for a in links] == [
        ("https://github.com/x/y", "GitHub"),
        ("https://example.org", "Odd"),
    ]
    assert all(a.find("svg") for a in links), "icons are inline SVG, not FontAwesome"


TOC_PAGES = {
    "index.md": "# Home\n\n```{toctree}\nsections\ntwo-tops\ntitle-only\none-heading\n```\n",
    "sections.md": "# Title\n\nText.\n\n## First\n\n### Deeper `code`\n\n## Second\n",
    "two-tops.rst": "Part one\n========\n\nText.\n\nA\n-\n\nPart two\n========\n\nB\n-\n",
    "title-only.md": "# Only a title\n\nText.\n",
    "one-heading.md": "# Title\n\n## The one section\n\nText.\n",
}
BOOTSTRAP = {"nav", "section-nav", "flex-column", "nav-item", "toc-entry", "nav-link"}


def toc_shape(html: str) -> list[tuple]:
    """Each entry's depth, level class, link and label; Bootstrap's classes aside."""
    soup = BeautifulSoup(html, "html.parser")
    return [
        (
            len(li.find_parents("ul")),
            [c for c in li.get("class", []) if c not in BOOTSTRAP],
            li.find("a")["href"],
            li.find("a").decode_contents(),
        )
        for li in soup.find_all("li")
    ]


def test_article_toc_lists_what_pydatas_page_toc_lists(make_app, tmp_path):
    """Our table of contents (built from the toc node, no HTML parsing) lists the
    same entries as pydata-sphinx-theme's generate_toc_html on every kind of page."""
    src = tmp_path / "src"
    src.mkdir()
    conf = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
    (src / "conf.py").write_text(conf, encoding="utf-8")
    for name, text in TOC_PAGES.items():
        (src / name).write_text(text, encoding="utf-8")
    app = make_app("html", srcdir=src, builddir=tmp_path / "build")
    both: dict[str, tuple[str, str]] = {}

    def record(app, pagename, templatename, context, doctree):
        if doctree is not None:
            both[pagename] = (str(context["generate_toc_html"]()), context["playbook_page_toc"]())

    app.connect("html-page-context", record, priority=900)
    app.build()
    assert set(both) == {"index", "sections", "two-tops", "title-only", "one-heading"}
    for pagename, (pydata, ours) in both.items():
        assert toc_shape(ours) == toc_shape(pydata), pagename
    assert [entry[:3] for entry in toc_shape(both["sections"][1])] == [
        (1, ["toc-h2"], "#first"),
        (2, ["toc-h3"], "#deeper-code"),
        (1, ["toc-h2"], "#second"),
    ]
    assert [entry[:2] for entry in toc_shape(both["two-tops"][1])] == [
        (1, ["toc-h1"]),
        (2, ["toc-h2"]),
        (1, ["toc-h1"]),
        (2, ["toc-h2"]),
    ]
    assert both["title-only"][1] == ""
    written = read_html(app, "sections").select(".pb-toc__list a")
    assert [a["href"] for a in written] == ["#first", "#deeper-code", "#second"]
    assert read_html(app, "title-only").select(".pb-toc") == []


def _css_rules(css: str) -> dict[str, str]:
    """``selector -> declarations`` of a flat stylesheet (one level of @media unwrapped)."""
    rules: dict[str, str] = {}
    for block in css.replace("@media (prefers-color-scheme: dark) {", "").split("}"):
        selector, _, declarations = block.partition("{")
        if declarations.strip():
            rules.setdefault(selector.strip(), declarations.strip())
    return rules


@pytest.mark.sphinx(
    "html",
    testroot="article-myst",
    confoverrides={
        "html_theme_options": {
            "pygments_light_style": "friendly",
            "pygments_dark_style": "no-such-style",
        }
    },
)
def test_pygments_css_follows_the_options_and_an_unknown_style_falls_back(app):
    """One highlighting stylesheet for both modes; a style Pygments lacks is named in a
    warning and the default is used. Sphinx's one-mode pygments.css is not linked."""
    app.build()
    page = read_html(app)
    linked = [link["href"].split("?")[0] for link in page.find_all("link", rel="stylesheet")]
    (highlighting,) = [href for href in linked if "pygments" in href]
    assert highlighting == "_static/styles/sphinx-playbook-pygments.css"
    rules = _css_rules(Path(app.outdir, highlighting).read_text(encoding="utf-8"))
    friendly = get_style_by_name("friendly").background_color
    default_dark = get_style_by_name("a11y-high-contrast-dark").background_color
    assert f"background: {friendly}" in rules[".highlight"]
    assert f"background: {default_dark}" in rules['html[data-theme="dark"] .highlight']
    (warning,) = playbook_warnings(app)
    assert "[playbook.config]" in warning and "'no-such-style'" in warning


def test_links_show_their_address_as_written_and_no_back_to_top_button(make_app, tmp_path):
    """pydata-sphinx-theme would print a GitHub issue link as "a/b#1" (``shorten_urls``)
    and add a back-to-top button; an article shows the address its author wrote."""
    src = tmp_path / "src"
    src.mkdir()
    conf = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
    (src / "conf.py").write_text(conf, encoding="utf-8")
    url = "https://github.com/a/b/issues/1"
    (src / "index.md").write_text(f"# Links\n\nSee <{url}>.\n", encoding="utf-8")
    app = make_app("html", srcdir=src, builddir=tmp_path / "build")
    app.build()
    page = read_html(app)
    link = page.select_one(f'article a[href="{url}"]')
    assert link is not None and link.get_text() == url
    assert page.select("#pst-back-to-top, .pst-back-to-top") == []


@pytest.mark.sphinx("html", testroot="article-myst")
def test_search_finds_the_first_section_at_its_anchor(app):
    """The title block shows the page's first heading; the search index still reads it
    as the page's title, so the first section keeps its own anchor (and excerpt)."""
    app.build()
    text = Path(app.outdir, "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    page = index["docnames"].index("index")
    title = index["titles"][page]
    assert index["alltitles"][title] == [[page, None]]
    assert [page, "high-level-overview"] in index["alltitles"]["High-Level Overview"]
    soup = read_html(app)
    assert len(soup.select("h1")) == 1 and soup.select_one(".pb-title-block h1")
