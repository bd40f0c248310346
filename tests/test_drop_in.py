"""An existing project switched to our theme: what other extensions see stays Sphinx's."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from helpers import ROOTS, build_in_process, playbook_warnings, read_html


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The drop-in root built once for the module."""
    return build_in_process(ROOTS / "test-drop-in", builddir=tmp_path_factory.mktemp("drop-in"))


@pytest.mark.parametrize(
    ("page", "title"),
    [
        ("index", "A landing page"),
        ("keys", "Keys of other extensions"),
        ("hidden-rst", "A reST landing page"),
    ],
)
def test_other_extensions_read_the_heading_in_the_body(built, page, title):
    """sphinx-tippy and others read context["body"]: it holds the page's h1 for them,
    and only the written page has it in the title block instead."""
    seen = BeautifulSoup(built.app.config.drop_in_bodies[page], "html.parser")
    assert [h1.get_text(strip=True).rstrip("¶#") for h1 in seen.find_all("h1")] == [title]
    written = read_html(built, page)
    assert not written.select('[role="main"] h1')
    assert written.select_one(".pb-article-head h1").get_text() == title


@pytest.mark.parametrize(
    ("page", "hidden"), [("index", True), ("hidden-rst", True), ("keys", False)]
)
def test_sd_hide_title_hides_the_heading_for_the_eye_only(built, page, hidden):
    written = read_html(built, page)
    heading = written.select_one(".pb-article-head h1")
    assert ("pb-visually-hidden" in heading["class"]) is hidden
    # A hidden title without a description leaves no empty title block behind.
    assert (written.select_one(".pb-title-block") is None) is hidden


def test_only_a_key_nobody_reads_is_warned_about(built):
    """sd_hide_title (sphinx-design, loaded with us), tocdepth (Sphinx) and numfig (a
    config value) are known; py-config belongs to sphinx_pyscript, not loaded here."""
    warnings = playbook_warnings(built)
    assert len(warnings) == 1, warnings
    assert "keys.md:3:" in warnings[0]
    assert "unknown front matter key 'py-config': it is read by sphinx_pyscript" in warnings[0]
    assert warnings[0].endswith("[playbook.metadata_key]")
