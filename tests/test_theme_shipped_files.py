"""What the theme puts in ``_static``, how it links it, and a minimal project's title.

The theme inherits pydata-sphinx-theme's templates but none of its assets, so
Sphinx's copy of pydata's static folder (Bootstrap, FontAwesome, source maps,
an unrendered webpack-macros.html) must not reach the site; every script and
stylesheet the theme links carries Sphinx's ``?v=<checksum>`` so a browser
never runs a cached file of an older build; and the README's two-line conf.py
titles the site after its root article, not "Project name not set".
"""

from __future__ import annotations

import posixpath
import re
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import alabaster
import pydata_sphinx_theme
import pytest
import sphinx
from bs4 import BeautifulSoup
from helpers import build, read_page, soup, write_project

PYDATA_STATIC = (
    Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
)
SPHINX_STATIC = Path(sphinx.__file__).parent / "themes" / "basic" / "static"
ALABASTER_STATIC = Path(alabaster.__file__).parent / "static"
#: Files Sphinx writes into _static besides its basic theme's folder: highlighting,
#: the search's stemmers, translations.
SPHINX_WRITTEN = {"pygments.css", "base-stemmer.js", "english-stemmer.js", "translations.js"}
#: ``url(...)`` and ``@import "..."`` in a stylesheet.
CSS_REFERENCE = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""")

MINIMAL_CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'

MYST_ROOT = """\
# A Field Guide to Tiny Models

An article whose conf.py sets no project.

```{toctree}
second
```

:::{card} A card
sphinx-design's assets are linked on this page only.
:::
"""

RST_ROOT = """\
A Field Guide to Tiny Models
============================

An article whose conf.py sets no project.

.. toctree::

   second
"""

SECOND = """\
Second page
===========

Some ``code``:

.. code-block:: python

   print("hello")
"""


def written_name(path: Path, folder: Path) -> str:
    """The name Sphinx writes a theme's static file under (``x.css_t`` becomes ``x.css``)."""
    relative = path.relative_to(folder).as_posix()
    return re.sub(r"(_t|\.jinja)$", "", relative)


def static_names(folder: Path) -> set[str]:
    return {
        written_name(p, folder)
        for p in folder.rglob("*")
        if p.is_file() and not p.name.startswith(".")
    }


PYDATA_FILES = static_names(PYDATA_STATIC)
SPHINX_OWN = static_names(SPHINX_STATIC) | SPHINX_WRITTEN


def make_project(root: Path, *, conf: str = MINIMAL_CONF, rst_root: bool = False) -> Path:
    """A two-page project: a MyST (or reST) root page and a reST page."""
    first = {"index.rst": RST_ROOT} if rst_root else {"index.md": MYST_ROOT}
    return write_project(root / "src", {**first, "second.rst": SECOND}, conf=conf)


def pages(out: Path) -> dict[Path, BeautifulSoup]:
    """Every written page, by its path."""
    return {
        path: soup(path)
        for path in sorted(out.rglob("*.html"))
        if "_static" not in path.relative_to(out).parts
    }


def linked_urls(page: BeautifulSoup) -> list[str]:
    """The scripts, stylesheets and preloads a page links."""
    links = [
        link["href"]
        for link in page.find_all("link", href=True)
        if {"stylesheet", "preload"} & set(link.get("rel") or ())
    ]
    return links + [script["src"] for script in page.find_all("script", src=True)]


def local_path(out: Path, page_path: Path, url: str) -> str | None:
    """``url``, linked from ``page_path``, as a path relative to ``out``; None elsewhere."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    page_dir = page_path.parent.relative_to(out).as_posix()
    return posixpath.normpath(posixpath.join(page_dir, parts.path))


def static_files(out: Path) -> set[str]:
    static = out / "_static"
    return {p.relative_to(static).as_posix() for p in static.rglob("*") if p.is_file()}


def used_static_files(out: Path) -> set[str]:
    """Files under _static some page links, or a linked stylesheet references."""
    used: set[str] = set()
    for page_path, page in pages(out).items():
        for url in linked_urls(page):
            path = local_path(out, page_path, url)
            if path is not None:
                used.add(path)
    stylesheets = [p for p in used if p.endswith(".css")]
    while stylesheets:
        css = stylesheets.pop()
        text = (out / css).read_text(encoding="utf-8")
        for match in CSS_REFERENCE.finditer(text):
            reference = match.group(1) or match.group(2)
            if reference.startswith(("data:", "#")) or "://" in reference:
                continue
            path = posixpath.normpath(posixpath.join(posixpath.dirname(css), reference))
            if path not in used:
                used.add(path)
                if path.endswith(".css"):
                    stylesheets.append(path)
    return {p.removeprefix("_static/") for p in used if p.startswith("_static/")}


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_static_holds_only_linked_files_and_sphinxs_own(tmp_path, builder):
    """Every file in _static is linked by a page, referenced by a linked stylesheet,
    or one of Sphinx's own; none is pydata-sphinx-theme's, and every link resolves."""
    out = build(make_project(tmp_path), tmp_path / "out", builder)
    shipped = static_files(out)
    used = used_static_files(out)
    unused = shipped - used - SPHINX_OWN
    assert not unused, f"shipped but linked by no page: {sorted(unused)}"
    assert not shipped & PYDATA_FILES, sorted(shipped & PYDATA_FILES)
    assert not (out / "_static" / "vendor").exists(), "folders left empty are removed too"
    missing = [p for p in used if not (out / "_static" / p).is_file()]
    assert not missing, f"linked but not written: {missing}"
    # The theme's own files are there, and linked.
    assert {"styles/sphinx-playbook.css", "scripts/sphinx-playbook.js"} <= used


def test_authors_static_files_with_pydatas_names_are_kept(tmp_path):
    """An author's html_static_path file wins over pydata's of the same name, linked
    or not; pydata's other files still go."""
    links = 'html_js_files = ["scripts/bootstrap.js"]\n'
    conf = MINIMAL_CONF + 'html_static_path = ["_static"]\n' + links
    src = make_project(tmp_path, conf=conf)
    (src / "_static" / "scripts").mkdir(parents=True)
    (src / "_static" / "styles").mkdir(parents=True)
    (src / "_static" / "scripts" / "bootstrap.js").write_text("/* mine */\n", encoding="utf-8")
    (src / "_static" / "styles" / "theme.css").write_text("/* mine too */\n", encoding="utf-8")
    out = build(src, tmp_path / "out")
    static = out / "_static"
    assert (static / "scripts" / "bootstrap.js").read_text(encoding="utf-8") == "/* mine */\n"
    assert (static / "styles" / "theme.css").read_text(encoding="utf-8") == "/* mine too */\n"
    assert static_files(out) & PYDATA_FILES == {"scripts/bootstrap.js", "styles/theme.css"}


def test_a_linked_pydata_file_keeps_pydatas_files(tmp_path):
    """A conf.py that links one of pydata's scripts gets it, and the files it goes with."""
    conf = MINIMAL_CONF + 'html_js_files = ["scripts/bootstrap.js"]\n'
    out = build(make_project(tmp_path, conf=conf), tmp_path / "out")
    assert static_files(out) >= PYDATA_FILES
    index = read_page(out)
    assert "_static/scripts/bootstrap.js" in [url.split("?")[0] for url in linked_urls(index)]


@pytest.mark.parametrize("change", ["page edited", "nothing changed"])
def test_incremental_build_gives_the_static_folder_of_a_fresh_one(tmp_path, change):
    """Sphinx copies the theme folders at every build: an update build must leave the
    same _static, byte for byte, as a fresh build of the same sources."""
    src = make_project(tmp_path)
    out = build(src, tmp_path / "out")
    if change == "page edited":
        (src / "second.rst").write_text(SECOND + "\nOne more line.\n", encoding="utf-8")
    build(src, out)
    fresh = build(src, tmp_path / "fresh")

    def contents(root: Path) -> dict[str, bytes]:
        return {name: (root / "_static" / name).read_bytes() for name in static_files(root)}

    assert contents(out) == contents(fresh)
    assert not static_files(out) & PYDATA_FILES


def test_other_themes_keep_every_static_file(tmp_path):
    """With another theme, even pydata-sphinx-theme itself, the extension removes nothing."""
    alabaster_conf = 'extensions = ["sphinx_playbook"]\nhtml_theme = "alabaster"\n'
    out = build(make_project(tmp_path / "a", conf=alabaster_conf), tmp_path / "a" / "out")
    assert static_names(ALABASTER_STATIC) <= static_files(out)
    pydata_conf = 'extensions = ["sphinx_playbook"]\nhtml_theme = "pydata_sphinx_theme"\n'
    out = build(make_project(tmp_path / "p", conf=pydata_conf), tmp_path / "p" / "out")
    assert static_files(out) >= PYDATA_FILES


def checksum(path: Path) -> str:
    """Sphinx's ``?v=`` value: CRC-32 of the file without carriage returns."""
    content = path.read_bytes().translate(None, b"\r")
    return f"{zlib.crc32(content):08x}"


@pytest.mark.parametrize("rst_root", [False, True], ids=["myst", "rst"])
def test_every_script_and_stylesheet_carries_the_files_checksum(tmp_path, rst_root):
    """Each linked file's ``?v=`` is the checksum of the file served, so a new build's
    script or stylesheet is never read from an older build's cache."""
    out = build(make_project(tmp_path, rst_root=rst_root), tmp_path / "out")
    seen = set()
    for page_path, page in pages(out).items():
        for url in linked_urls(page):
            path = local_path(out, page_path, url)
            if path is None or path == "searchindex.js":
                # searchindex.js is written after the pages (Sphinx links it without ?v=).
                continue
            seen.add(path)
            query = urlsplit(url).query
            assert query == f"v={checksum(out / path)}", f"{page_path.name}: {url}"
    assert {"_static/scripts/sphinx-playbook.js", "_static/searchtools.js"} <= seen
    scripts = read_page(out)
    ours = scripts.find("script", src=re.compile(r"sphinx-playbook\.js"))
    assert ours.has_attr("defer"), "the theme's script still waits for the page"


def header_and_titles(out: Path) -> dict[str, tuple[str, str]]:
    """(header logo text, <title>) of the root, second, search and index pages, with
    spaces collapsed as a browser shows them."""
    result = {}
    for name in ("index", "second", "search", "genindex"):
        page = read_page(out, name)
        logo, title = page.select_one(".logo__title").get_text(), page.title.get_text()
        result[name] = (" ".join(logo.split()), " ".join(title.split()))
    return result


@pytest.mark.parametrize("rst_root", [False, True], ids=["myst", "rst"])
def test_minimal_project_is_titled_after_its_root_article(tmp_path, rst_root):
    """The README's two-line conf.py: the header and <title> read the root page's
    title, never Sphinx's "Project name not set documentation"."""
    out = build(make_project(tmp_path, rst_root=rst_root), tmp_path / "out")
    title = "A Field Guide to Tiny Models"
    assert header_and_titles(out) == {
        "index": (title, title),
        "second": (title, f"Second page \N{EM DASH} {title}"),
        "search": (title, f"Search - {title}"),
        "genindex": (title, f"Index \N{EM DASH} {title}"),
    }


@pytest.mark.parametrize(
    ("settings", "site"),
    [
        ('project = "Tiny Models"\n', "Tiny Models documentation"),
        ('html_title = "The Guide"\n', "The Guide"),
        ('project = "Tiny Models"\nhtml_title = "The Guide"\n', "The Guide"),
    ],
    ids=["project", "html_title", "both"],
)
def test_project_or_html_title_wins_over_the_root_title(tmp_path, settings, site):
    out = build(make_project(tmp_path, conf=MINIMAL_CONF + settings), tmp_path / "out")
    titles = header_and_titles(out)
    assert titles["index"] == (site, f"A Field Guide to Tiny Models \N{EM DASH} {site}")
    assert titles["second"] == (site, f"Second page \N{EM DASH} {site}")


def test_renaming_the_root_article_retitles_every_page(tmp_path):
    """An update build after the root title changed rewrites the header of every page,
    also one no toctree lists."""
    src = make_project(tmp_path)
    (src / "orphan.rst").write_text(":orphan:\n\nOrphan\n======\n\nText.\n", encoding="utf-8")
    out = build(src, tmp_path / "out")
    root = src / "index.md"
    root.write_text(root.read_text(encoding="utf-8").replace("Tiny Models", "Small Models"))
    build(src, out)
    page = read_page(out, "orphan")
    assert page.select_one(".logo__title").get_text(strip=True) == "A Field Guide to Small Models"
    assert page.title.get_text() == "Orphan \N{EM DASH} A Field Guide to Small Models"
