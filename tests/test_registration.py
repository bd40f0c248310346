"""The extension and theme register however the author names them."""

from __future__ import annotations

import shutil

import pytest
from bs4 import BeautifulSoup
from conftest import ROOTS, read_html, sphinx_build

import sphinx_playbook


@pytest.mark.sphinx("html", testroot="article-myst")
def test_extension_and_theme_from_extensions(app):
    """``extensions = ["sphinx_playbook"]`` alone sets up MyST and sphinx-design."""
    app.build()
    assert {"myst_parser", "sphinx_design", "pydata_sphinx_theme"} <= set(app.extensions)
    assert app.warning.getvalue() == ""
    page = read_html(app)
    assert page.select_one("h1.pb-title").get_text(strip=True) == "The Ultra-Scale Playbook"


@pytest.mark.parametrize(
    "extensions",
    [
        ["myst_parser", "sphinx_design", "sphinx_playbook"],
        ["sphinx_playbook", "sphinx_design", "myst_parser"],
        ["sphinx_design", "sphinx_playbook", "myst_parser"],
    ],
    ids=["theirs-first", "ours-first", "between"],
)
def test_listing_dependencies_too_in_any_order_causes_no_warning(
    make_app, rootdir, tmp_path, extensions
):
    """What we set up for the author (myst_parser, sphinx_design) may be listed too,
    before or after us; myst_nb's order is in tests/compat."""
    app = make_app(
        "html",
        srcdir=rootdir / "test-article-myst",
        builddir=tmp_path,
        confoverrides={"extensions": extensions},
    )
    app.build()
    assert app.warning.getvalue() == ""
    assert read_html(app).select_one("h1.pb-title").get_text(strip=True) == (
        "The Ultra-Scale Playbook"
    )


def test_theme_entry_point_alone_loads_the_extension(tmp_path):
    """``html_theme = "sphinx_playbook"`` alone finds the theme through its entry point.

    Run as a real ``sphinx-build`` in a new process: Sphinx loads entry-point
    themes once per process, so an in-process app would see earlier tests' state.
    """
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-article-rst", src)
    (src / "conf.py").write_text(
        'html_theme = "sphinx_playbook"\nproject = "Entry point"\n'
        'playbook_description = "From conf.py"\n',
        encoding="utf-8",
    )
    index = src / "index.rst"
    lines = index.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(":description:")]
    index.write_text("".join(kept), encoding="utf-8")
    out = tmp_path / "out"
    sphinx_build("-W", "-q", "-b", "html", str(src), str(out))
    page = BeautifulSoup((out / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert page.select_one("h1.pb-title").get_text(strip=True) == "The Ultra-Scale Playbook"
    # conf.py's default, read although the extension loaded after config-inited.
    assert page.select_one(".pb-description").get_text() == "From conf.py"
    assert page.find("link", href=lambda h: h and "sphinx-playbook.css" in h) is not None


@pytest.mark.sphinx("html", testroot="article-myst")
def test_setup_is_idempotent_and_parallel_safe(app):
    handlers_before = sum(len(v) for v in app.events.listeners.values())
    metadata = sphinx_playbook.setup(app)
    assert sum(len(v) for v in app.events.listeners.values()) == handlers_before
    assert metadata["parallel_read_safe"] is True
    assert metadata["parallel_write_safe"] is True
    assert app.extensions["sphinx_playbook"].parallel_read_safe is True
    assert app.extensions["sphinx_playbook"].parallel_write_safe is True
