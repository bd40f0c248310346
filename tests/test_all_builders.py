"""Every builder, with -W, on what tests/test_builders.py leaves out; and other themes.

tests/test_builders.py builds five roots with the nine builders and docs/ with six.
This adds the three others (man, texinfo, xml) on docs/, the remaining clean roots
with all nine, and the extension under alabaster and plain pydata-sphinx-theme.
"""

from __future__ import annotations

import pytest
from helpers import REPO, ROOTS, build_in_process, read_page, sphinx_build

ALL_BUILDERS = (
    "html",
    "dirhtml",
    "singlehtml",
    "latex",
    "epub",
    "text",
    "man",
    "texinfo",
    "xml",
)
#: Clean roots that tests/test_builders.py does not build (the *-bad and conflict
#: roots warn on purpose, citations cites a missing key and math has a broken formula
#: on purpose; their pages are built by the bad-input corpus).
MORE_CLEAN_ROOTS = ("appendix-rst",)
DOCS_BUILDERS_NOT_IN_TEST_BUILDERS = ("man", "texinfo", "xml")
OTHER_THEMES = ("alabaster", "pydata_sphinx_theme")


@pytest.mark.parametrize("builder", ALL_BUILDERS)
@pytest.mark.parametrize("root", MORE_CLEAN_ROOTS)
def test_more_roots_build_without_warnings(tmp_path, root, builder):
    built = build_in_process(ROOTS / f"test-{root}", builder, tmp_path)
    assert built.warnings == ""
    assert any(built.outdir.rglob("*")), "the builder wrote its output"


@pytest.mark.parametrize("builder", DOCS_BUILDERS_NOT_IN_TEST_BUILDERS)
def test_docs_build_with_warnings_as_errors(tmp_path, builder):
    sphinx_build(
        "-W", "--keep-going", "-q", "-b", builder, str(REPO / "docs"), str(tmp_path / builder)
    )


@pytest.mark.parametrize("theme", OTHER_THEMES)
@pytest.mark.parametrize("root", ["directives-myst", "article-myst"])
def test_other_themes_show_the_content(tmp_path, theme, root):
    built = build_in_process(ROOTS / f"test-{root}", "html", tmp_path, html_theme=theme)
    assert built.warnings == ""
    page = read_page(built)
    body = page.select_one('[role="main"], main, .body')
    assert body is not None and body.find("h1") is not None
    if root == "directives-myst":
        assert body.select(".pb-aside"), "asides are in the page"
        assert body.select_one(".pb-side-by-side")["style"].startswith("--pb-columns:")
        stylesheets = [link["href"] for link in page.select('link[rel="stylesheet"]')]
        assert any("sphinx-playbook-components.css" in href for href in stylesheets)


#: Roots that warn on purpose, and what their warnings are: with those types
#: suppressed, every builder must finish without any other warning.
ROOTS_BAD_ON_PURPOSE = {
    "directives-bad": ["playbook", "image.not_readable"],
    "metadata-bad": ["playbook"],
    "citations": ["playbook"],
    "math": ["playbook"],
}


@pytest.mark.parametrize("builder", ALL_BUILDERS)
@pytest.mark.parametrize("root", sorted(ROOTS_BAD_ON_PURPOSE))
def test_roots_bad_on_purpose_warn_only_on_purpose(tmp_path, root, builder):
    built = build_in_process(
        ROOTS / f"test-{root}",
        builder,
        tmp_path,
        suppress_warnings=ROOTS_BAD_ON_PURPOSE[root],
    )
    assert built.warnings == ""
