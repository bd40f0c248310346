"""Readers are safe: no author-controlled string reaches the page unescaped.

One generated project puts payloads (script tags, event-handler attributes,
``javascript:`` URLs, CSS breakouts, quotes) in every string an author or a
contributor controls: front matter, reST docinfo, BibTeX fields, directive
options and arguments, cite keys. The pages are parsed and checked for what a
browser would run or request; and a default build of the test roots is checked
for ``src``/``href`` to another origin other than the author's own links.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup
from helpers import ROOTS, build_in_process, read_page, write_project
from page_styles import page_rules, style_of

SCRIPT = "<script>alert('xss')</script>"
HANDLER = '" onmouseover="alert(1)" x="'
QUOTES = "'\"><img src=x onerror=alert(2)>"
PAYLOADS = (SCRIPT, HANDLER, QUOTES)


def _yaml(value: str) -> str:
    """A YAML string holding ``value`` exactly (JSON strings are YAML)."""
    return json.dumps(value)


FRONT_MATTER = f"""---
title: {_yaml(f"{SCRIPT} and {QUOTES}")}
description: {_yaml(HANDLER)}
published: 2025-01-02
doi: {_yaml('10.1234/x"onmouseover=alert(1)')}
license: {_yaml(SCRIPT)}
thumbnail: "javascript:alert(3)"
bibliography: evil.bib
authors:
  - name: {_yaml(QUOTES)}
    url: "javascript:alert(4)"
    orcid: {_yaml(HANDLER)}
    affiliations: [{_yaml(SCRIPT)}]
  - name: {_yaml(f"Second {HANDLER}")}
    url: {_yaml('https://example.org/a"onmouseover=alert(1)')}
affiliations:
  - id: lab
    name: {_yaml(HANDLER)}
    url: " JaVaScRiPt:alert(5)"
---
"""

BODY = """
# Heading

Cited {cite}`evil2020` and {cite:t}`evil2020` and {cite}`<script>x</script>`.

```{aside}
:class: x" onmouseover="alert(1)
:name: n" onmouseover="alert(1)

Aside text.
```

```{wide-image} images/band.png
:alt: " onerror="alert(6)
:background: red; background-image: url(https://evil.example/x.png)
:width: 10px"><script>alert(7)</script>
:target: javascript:alert(8)
:class: c"><script>alert(9)</script>
```

```{wide-image} images/band.png
:alt: A band
:background: #fff;}body{display:none
:target: data:text/html,<script>alert(10)</script>
```

::::{side-by-side}
:columns: 1fr 1fr; } body { display: none
:align: center" onmouseover="alert(1)

Left.

Right.
::::

:::{layout} page" onmouseover="alert(1)
In a column.
:::

[a link](javascript:alert(11))

Footnote[^n].

[^n]: A note with a [link](javascript:alert(12)).
"""

EVIL_BIB = r"""@article{evil2020,
  title = {<script>alert('bib')</script> "quoted" title},
  author = {Evil, <img src=x onerror=alert(13)> and Quote, "Q" onmouseover="x},
  journal = {</span><script>alert(14)</script>},
  year = {2020"><script>alert(15)</script>},
  doi = {10.1/"><script>alert(16)</script>},
  url = {javascript:alert(17)}
}
"""

REST_PAGE = """:authors: Ada <javascript:alert(18)> [<script>alert(19)</script>]; \
Bob" onmouseover="alert(1) <https://example.org/b">
:affiliations: <script>alert(20)</script> <javascript:alert(21)>
:published: 2025-01-02

Docinfo page
============

Text.
"""

CONF = """extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Injection"
html_baseurl = "https://example.org/book/"
playbook_repository_url = "https://example.org/repo\\"><script>alert(22)</script>"
suppress_warnings = ["playbook", "myst", "docutils", "image"]
"""

#: Attribute values a browser follows as a URL.
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "poster", "data")


@pytest.fixture(scope="module")
def injected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    srcdir = write_project(
        tmp_path_factory.mktemp("injection"),
        {
            "index.md": FRONT_MATTER + BODY + "\n```{toctree}\n:hidden:\n\nrest\n```\n",
            "rest.rst": REST_PAGE,
            "evil.bib": EVIL_BIB,
            "images/band.png": (ROOTS / "test-directives-myst/images/band.png").read_bytes(),
        },
        conf=CONF,
    )
    built = build_in_process(srcdir)
    assert built.statuscode == 0
    assert "Traceback" not in built.warnings
    return built.outdir


def _pages(outdir: Path) -> dict[str, BeautifulSoup]:
    return {name: read_page(outdir, name) for name in ("index", "rest")}


def _our_scripts(outdir: Path) -> set[str]:
    """Scripts the site ships (files in _static), the only ones a page may load."""
    return {p.name for p in (outdir / "_static").rglob("*.js")}


@pytest.mark.parametrize("page", ["index", "rest"])
def test_no_payload_becomes_markup(injected, page):
    soup = _pages(injected)[page]
    shipped = _our_scripts(injected)
    for script in soup.find_all("script"):
        source = script.get("src")
        if source:
            assert Path(urlsplit(source).path).name in shipped, source
        else:
            assert "alert(" not in script.get_text(), script
    for element in soup.find_all(True):
        for attribute, value in element.attrs.items():
            assert not attribute.lower().startswith("on"), (element.name, attribute, value)
            text = " ".join(value) if isinstance(value, list) else value
            if attribute in URL_ATTRIBUTES:
                scheme = urlsplit(text.strip()).scheme.lower()
                assert scheme in ("", "http", "https", "mailto"), (element.name, text)
            if attribute == "style":
                assert re.fullmatch(r"(--pb-[a-z-]+: [^;{}<>\"]+; ?)+", text), text
    assert not soup.find_all("img", src="x")


def test_payloads_are_shown_as_text(injected):
    index = _pages(injected)["index"]
    assert index.select_one("h1.pb-title").get_text() == f"{SCRIPT} and {QUOTES}"
    assert index.select_one(".pb-description").get_text() == HANDLER
    names = [a.get_text() for a in index.select(".pb-author__name")]
    assert names == [QUOTES, f"Second {HANDLER}"]
    # A javascript: author link is dropped, the name stays as text.
    assert index.select_one(".pb-author__name").name == "span"
    card = index.select_one(".pb-card .pb-card__title")
    assert card.get_text() == "<script>alert('bib')</script> \"quoted\" title"
    # The entry's javascript: url is not the title's link: its DOI is, on doi.org.
    (link,) = card.find_all("a")
    assert link["href"].startswith("https://doi.org/10.1/"), link["href"]


def test_head_tags_are_escaped(injected):
    index = _pages(injected)["index"]
    assert index.find("meta", attrs={"property": "og:title"})["content"] == f"{SCRIPT} and {QUOTES}"
    assert index.find("meta", attrs={"name": "description"})["content"] == HANDLER
    assert index.find("meta", attrs={"property": "og:image"}) is None  # javascript: refused


def test_css_options_never_reach_style(injected):
    index = _pages(injected)["index"]
    # Style attributes are classes of the page's own stylesheet (strict CSP).
    rules = page_rules(index, injected / "index.html")
    bands = index.select(".pb-wide-image")
    assert len(bands) == 2, "both wide-image directives are written"
    for band in bands:
        assert style_of(band, rules) == "--pb-band-bg: white;"
    assert style_of(index.select_one(".pb-side-by-side"), rules) == (
        "--pb-columns: repeat(2, minmax(0, 1fr));"
    )


# -- no request to another origin ---------------------------------------------------------

#: Roots whose pages an author might publish as they are (the bad-input roots excluded).
DEFAULT_ROOTS = ("article-myst", "article-rst", "directives-myst", "directives-rst", "citations")
#: Elements whose URL attribute the browser fetches by itself, without a click.
FETCHED = {
    "script": "src",
    "img": "src",
    "link": "href",
    "iframe": "src",
    "source": "src",
    "video": "src",
    "audio": "src",
    "embed": "src",
    "object": "data",
}


@pytest.mark.parametrize("root", DEFAULT_ROOTS)
def test_default_build_loads_nothing_from_another_origin(tmp_path, root):
    outdir = build_in_process(ROOTS / f"test-{root}", builddir=tmp_path).outdir
    pages = sorted(outdir.rglob("*.html"))
    assert pages, "the build wrote pages"
    for page in pages:
        soup = read_page(page.parent, page.stem)
        for tag, attribute in FETCHED.items():
            for element in soup.find_all(tag):
                if tag == "link" and not set(element.get("rel", [])) & {
                    "stylesheet",
                    "preload",
                    "modulepreload",
                    "icon",
                    "prefetch",
                }:
                    continue  # canonical and alternate links are not fetched
                url = element.get(attribute) or ""
                assert not urlsplit(url).netloc, (page.name, str(element)[:200])
        for element in soup.find_all(style=True):
            assert "url(" not in element["style"], (page.name, element["style"])
        # The style attributes moved to the page's own stylesheet (strict CSP).
        for declarations in page_rules(soup, page).values():
            assert "url(" not in declarations, (page.name, declarations)
