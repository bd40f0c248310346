"""Every builder an author may run completes without a warning, on docs/ and the test roots."""

from __future__ import annotations

import pytest
from helpers import REPO, ROOTS, sphinx_build

BUILDERS = ("html", "dirhtml", "singlehtml", "latex", "epub", "text")
#: Builders that only the directives need to survive (no lost content, no crash).
MORE_BUILDERS = ("man", "texinfo", "xml")
CLEAN_ROOTS = (
    "article-myst",
    "article-rst",
    "metadata-defaults",
    "directives-myst",
    "directives-rst",
)


@pytest.mark.parametrize("builder", BUILDERS + MORE_BUILDERS)
@pytest.mark.parametrize("root", CLEAN_ROOTS)
def test_test_roots_build_without_warnings(make_app, tmp_path, root, builder):
    app = make_app(builder, srcdir=ROOTS / f"test-{root}", builddir=tmp_path / "build")
    app.build()
    assert app.warning.getvalue() == ""


@pytest.mark.parametrize("builder", BUILDERS)
def test_docs_build_with_warnings_as_errors(tmp_path, builder):
    """The project's own documentation, as ReadTheDocs and CI build it."""
    sphinx_build(
        "-W", "--keep-going", "-q", "-b", builder, str(REPO / "docs"), str(tmp_path / builder)
    )
