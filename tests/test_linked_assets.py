"""No page links a stale version of a site-wide file (machinery/linked_assets.py).

Sphinx writes each local stylesheet and script with ``?v=<checksum>`` of the file
as it is when the page is written. A reader's browser keeps a file by its URL, so a
page that links an older checksum than the file's is a page that may show the new
site with an old stylesheet. Each test rebuilds after an edit and reads the links
of every page as a browser would (BeautifulSoup), against the file's bytes and
against a fresh build of the same sources.
"""

from __future__ import annotations

import json
import shutil
import zlib
from pathlib import Path

import pytest
from helpers import CONF, build, read_page, write_project

ROOT_WITH_FONTS = """# Root

```{toctree}
other
third
```

$$
m = \\underbrace{2\\Psi}_{\\text{weights}} + \\sqrt{d_k}
$$
"""
ROOT_WITHOUT = """# Root

```{toctree}
other
third
```

No formula here any more.
"""
PAGES = {
    "other.md": "# Other\n\n```{math}\n:label: eq-one\n\na^2 + b^2\n```\n",
    # No formula of its own: the hover card of its reference shows other's equation.
    "third.md": "# Third\n\nSee {eq}`eq-one`.\n",
}


def _links(outdir: Path, docname: str, ending: str) -> list[str]:
    page = read_page(outdir, docname)
    return [
        link["href"]
        for link in page.find_all("link", rel="stylesheet")
        if link["href"].split("?")[0].endswith(ending)
    ]


def _checksum(path: Path) -> str:
    content = path.read_bytes().replace(b"\r", b"")
    return f"{zlib.crc32(content):08x}"


def test_a_page_showing_another_pages_equation_links_the_new_math_stylesheet(tmp_path):
    """Removing the formula that needed KaTeX's size fonts changes the stylesheet;
    the page whose only math is a hover card's equation, which nothing else made
    Sphinx write again, links it with the new checksum, as a fresh build does."""
    src = write_project(tmp_path / "src", {"index.md": ROOT_WITH_FONTS, **PAGES}, conf=CONF)
    out = build(src, tmp_path / "out")
    before = _checksum(out / "_static/katex/katex.css")
    write_project(src, {"index.md": ROOT_WITHOUT})
    build(src, out)
    after = _checksum(out / "_static/katex/katex.css")
    assert before != after  # the edit did change the site-wide file
    shutil.copytree(src, tmp_path / "fresh-src")
    fresh = build(tmp_path / "fresh-src", tmp_path / "fresh")
    for docname in ("other", "third"):
        links = _links(out, docname, "katex/katex.css")
        assert links == [f"_static/katex/katex.css?v={after}"], docname
        assert links == _links(fresh, docname, "katex/katex.css"), docname


NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# A notebook\n", "\n", "Text."]},
        {
            "cell_type": "code",
            "execution_count": 1,
            "metadata": {},
            "outputs": [{"name": "stdout", "output_type": "stream", "text": ["2\n"]}],
            "source": ["print(1 + 1)"],
        },
    ],
    "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}


def test_a_stylesheet_written_after_the_pages_is_linked_as_in_a_fresh_build(tmp_path):
    """myst-nb writes its stylesheet at build-finished, after the pages: a fresh
    build links it without a checksum (the file is not there yet), and so does a
    rebuild, for the page it writes again and the one it does not. Only the
    notebook links it: the plain page does without its rules."""
    pytest.importorskip("myst_nb")
    conf = (
        'extensions = ["myst_nb", "sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
        'nb_execution_mode = "off"\n'
    )
    files = {
        "index.md": "# Root\n\n```{toctree}\nnotebook\n```\n\nFirst words.\n",
        "notebook.ipynb": json.dumps(NOTEBOOK),
    }
    src = write_project(tmp_path / "src", files, conf=conf)
    out = build(src, tmp_path / "out")
    write_project(src, {"index.md": "# Root\n\n```{toctree}\nnotebook\n```\n\nOther words.\n"})
    build(src, out)
    shutil.copytree(src, tmp_path / "fresh-src")
    fresh = build(tmp_path / "fresh-src", tmp_path / "fresh")
    for docname, linked in (("index", 0), ("notebook", 1)):
        links = _links(out, docname, ".css")
        mystnb = [link for link in links if "mystnb." in link]
        assert len(mystnb) == linked, links
        assert links == _links(fresh, docname, ".css"), docname
    assert list(out.glob("_static/mystnb.*.css"))  # written, after the pages


def _files_under(outdir: Path, *folders: str) -> list[str]:
    return sorted(
        path.relative_to(outdir).as_posix()
        for folder in folders
        for path in (outdir / folder).rglob("*")
        if path.is_file()
    )


def test_an_interactive_figure_edited_then_removed_leaves_what_a_fresh_build_has(tmp_path):
    """Each frame page is named by its content: the one an edit replaced, and the
    last one with the figure, go, as do the shared files no page needs any more."""
    figure = (
        "# Root\n\n```{interactive-figure} chart.html\n:alt: Bars\n:isolation: inline\n\n"
        "The bars.\n```\n"
    )
    files = {
        "index.md": figure + "\n```{toctree}\nother\n```\n",
        "other.md": "# Other\n\nText.\n",
        "chart.html": '<div style="width:400px;height:300px">one</div>\n',
    }
    src = write_project(tmp_path / "src", files, conf=CONF)
    out = build(src, tmp_path / "out")
    folders = ("_interactive", "_static")
    first = _files_under(out, *folders)
    assert any(name.startswith("_interactive/chart-") for name in first)
    write_project(src, {"chart.html": '<div style="width:400px;height:300px">two</div>\n'})
    build(src, out)
    shutil.copytree(src, tmp_path / "fresh-src")
    fresh = build(tmp_path / "fresh-src", tmp_path / "fresh")
    assert _files_under(out, *folders) == _files_under(fresh, *folders)
    assert _files_under(out, *folders) != first  # the frame page was replaced
    write_project(src, {"index.md": "# Root\n\nNo figure.\n\n```{toctree}\nother\n```\n"})
    build(src, out)
    shutil.rmtree(tmp_path / "fresh-src")
    shutil.rmtree(tmp_path / "fresh")
    shutil.copytree(src, tmp_path / "fresh-src")
    fresh = build(tmp_path / "fresh-src", tmp_path / "fresh")
    assert not (out / "_interactive").exists()
    assert _files_under(out, *folders) == _files_under(fresh, *folders)
