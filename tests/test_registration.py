"""The extension and theme register however the author names them."""

from __future__ import annotations

import shutil

import pytest
from helpers import ROOTS, read_html, read_page, run_sphinx, sphinx_build

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


def test_theme_alone_stops_with_what_to_add(tmp_path):
    """``html_theme = "sphinx_playbook"`` without the extension stops the build with
    one message that says what to add, instead of half a playbook: Sphinx loads the
    theme after the environment exists, too late for ``{cite:p}`` and Markdown.

    Run as a real ``sphinx-build`` in a new process: Sphinx loads entry-point
    themes once per process, so an in-process app would see earlier tests' state.
    """
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-article-rst", src)
    (src / "conf.py").write_text(
        'project = "P"\nhtml_theme = "sphinx_playbook"\n', encoding="utf-8"
    )
    command = ["-q", "-N", "-b", "html", str(src), str(tmp_path / "out")]
    result = run_sphinx(command, new_interpreter=True)  # -N: no colours, even in CI
    assert result.returncode != 0
    first_line = result.stderr.strip().splitlines()[0]
    assert first_line.startswith(f"{src / 'conf.py'}:2: ERROR: ")
    assert 'add extensions = ["sphinx_playbook"] to conf.py' in first_line
    assert not (tmp_path / "out" / "index.html").exists()


def test_theme_and_extension_build(tmp_path):
    """The same project with the extension listed builds under ``-W``."""
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-article-rst", src)
    (src / "conf.py").write_text(
        'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n', encoding="utf-8"
    )
    out = tmp_path / "out"
    sphinx_build("-W", "-q", "-b", "html", str(src), str(out))
    page = read_page(out)
    assert page.select_one("h1.pb-title").get_text(strip=True) == "The Ultra-Scale Playbook"
    assert page.find("link", href=lambda h: h and "sphinx-playbook.css" in h) is not None


@pytest.mark.sphinx("html", testroot="article-myst")
def test_setup_is_idempotent(app):
    handlers_before = sum(len(v) for v in app.events.listeners.values())
    sphinx_playbook.setup(app)
    assert sum(len(v) for v in app.events.listeners.values()) == handlers_before


@pytest.mark.sphinx("html", testroot="article-myst")
def test_a_parallel_build_is_allowed_to_read_and_write_in_parallel(app):
    """Sphinx asks every loaded extension (ours and what we set up) before it reads
    or writes with -j; one that is not safe makes the whole build serial, with a
    warning."""
    assert app.is_parallel_allowed("read")
    assert app.is_parallel_allowed("write")
    assert "parallel" not in app.warning.getvalue()
