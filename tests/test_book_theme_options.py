"""sphinx-book-theme's html_theme_options in this theme (theme/options.py,
BOOK_THEME_OPTIONS): a project moving from it builds with -W; each option is honoured
or gets one located ``playbook.theme`` warning. The repository options give the Edit,
source, issues and repository links and the appendix's Updates and corrections; a URL
announcement is fetched from the site's own origin only."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from helpers import read_html
from test_theme_options import conf_line, project, theme_warnings

from sphinx_playbook.theme.options import (
    BOOK_THEME_OPTIONS,
    OWN_OPTIONS,
    PYDATA_OPTIONS,
    Honoured,
    Warned,
)
from sphinx_playbook.theme.registration import THEME_DIR

#: The ``[options]`` of sphinx-book-theme's theme.conf, with their defaults, as read
#: from sphinx-book-theme 1.1.0 (the list is the same through 1.4.0). sphinx-book-theme
#: is not installed with the test extras: it pins pydata-sphinx-theme to one version
#: (1.4.0: ==0.20.0), which would hold the suite's pydata-sphinx-theme back. Read the
#: list again from a new sphinx-book-theme's theme.conf when supporting it.
BOOK_THEME_CONF_OPTIONS: dict[str, str] = {
    "announcement": "",
    "secondary_sidebar_items": "page-toc.html",
    "toc_title": "Contents",
    "article_header_start": "toggle-primary-sidebar.html",
    "article_header_end": "article-header-buttons.html",
    "use_download_button": "True",
    "use_fullscreen_button": "True",
    "use_issues_button": "False",
    "use_source_button": "False",
    "use_repository_button": "False",
    "path_to_docs": "",
    "repository_url": "",
    "repository_branch": "",
    "repository_provider": "",
    "launch_buttons": "{}",
    "navbar_start": "",
    "navbar_center": "",
    "navbar_end": "",
    "navbar_persistent": "",
    "home_page_in_toc": "False",
    "show_navbar_depth": "1",
    "max_navbar_depth": "4",
    "collapse_navbar": "False",
    "extra_footer": "",
    "footer_content_items": "author.html, copyright.html, last-updated.html, extra-footer.html",
    "footer_start": "",
    "footer_end": "",
    "use_sidenotes": "False",
    "expand_toc_sections": "[]",
}


def _handling(name: str) -> Honoured | Warned:
    return BOOK_THEME_OPTIONS.get(name) or PYDATA_OPTIONS[name]


def test_every_book_theme_option_is_classified_and_declared():
    """Each option of sphinx-book-theme is in BOOK_THEME_OPTIONS, or is pydata-sphinx-theme's
    (PYDATA_OPTIONS); each is declared by our theme.toml, so Sphinx accepts it."""
    documented = set(BOOK_THEME_CONF_OPTIONS)
    unclassified = documented - set(BOOK_THEME_OPTIONS) - set(PYDATA_OPTIONS)
    assert not unclassified, f"classify in theme/options.py: {sorted(unclassified)}"
    assert set(BOOK_THEME_OPTIONS) <= documented, "not sphinx-book-theme's"
    assert not set(BOOK_THEME_OPTIONS) & set(PYDATA_OPTIONS), "pydata's are in PYDATA_OPTIONS"
    declared = tomllib.loads((THEME_DIR / "theme.toml").read_text(encoding="utf-8"))["options"]
    missing = set(BOOK_THEME_OPTIONS) - set(declared) - set(OWN_OPTIONS)
    assert not missing, f"declare in theme.toml: {sorted(missing)}"
    for name, handling in BOOK_THEME_OPTIONS.items():
        text = handling.what if isinstance(handling, Honoured) else handling.instead
        assert len(text) > 10, name


def _unwanted(handling: Warned) -> Any:
    if False in handling.harmless:
        return True
    if "" in handling.harmless or [] in handling.harmless:
        return ["indices"] if [] in handling.harmless else {"binderhub_url": "https://x.org"}
    return 3


def test_a_book_theme_conf_builds_each_option_honoured_or_warned_once_at_its_line(
    make_app, tmp_path
):
    """conf.py with every sphinx-book-theme option: its defaults for the honoured ones, a
    value asking for something absent here for the others. No "unsupported theme
    option" from Sphinx; one located warning per warned option, naming what to do."""
    options: dict[str, Any] = {}
    for name, default in BOOK_THEME_CONF_OPTIONS.items():
        handling = _handling(name)
        if isinstance(handling, Warned):
            options[name] = _unwanted(handling)
        elif name in BOOK_THEME_OPTIONS and default.strip():
            options[name] = default
    options["repository_url"] = "https://github.com/octo/book"
    src = project(tmp_path, options)
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    assert "unsupported theme option" not in app.warning.getvalue()
    warnings = theme_warnings(app)
    warned = [name for name in options if isinstance(_handling(name), Warned)]
    assert {"launch_buttons", "show_navbar_depth", "use_fullscreen_button"} <= set(warned)
    for name in warned:
        mine = [w for w in warnings if f"html_theme_options: {name!r} has no effect" in w]
        assert len(mine) == 1, (name, warnings)
        assert f"conf.py:{conf_line(src, name)}: WARNING" in mine[0], mine[0]
    assert len(warnings) == len(warned), warnings
    # The defaults honoured: a download link, the extra footer empty, no toggles.
    page = read_html(app, "part/page")
    assert page.select_one(".pb-page-link--download")["href"] == "../_sources/part/page.md.txt"
    assert page.select_one(".pb-toc").get_text().strip().startswith("Contents")


def test_book_theme_slot_components_are_named_not_drawn(make_app, tmp_path):
    """Its own article header components: the sidebar toggle is named (there is no
    sidebar), its buttons are ours."""
    options = {
        "article_header_start": ["toggle-primary-sidebar", "breadcrumbs"],
        "article_header_end": ["article-header-buttons", "toggle-secondary-sidebar"],
    }
    src = project(tmp_path, options)
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    warnings = theme_warnings(app)
    assert len(warnings) == 2, warnings
    assert all("no sidebar to toggle" in w for w in warnings)
    assert read_html(app, "part/page").select(".pb-breadcrumbs")


REPOSITORY = {
    "repository_url": "https://github.com/octo/book",
    "repository_branch": "dev",
    "path_to_docs": "docs",
    "use_edit_page_button": True,
    "use_repository_button": True,
    "use_issues_button": True,
    "use_source_button": True,
}


def test_repository_url_gives_the_edit_source_issues_and_repository_links(make_app, tmp_path):
    src = project(tmp_path, REPOSITORY)
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    assert theme_warnings(app) == []
    page = read_html(app, "part/page")
    header = page.select_one(".pb-article-header__end")
    edit = header.select_one(".pb-edit-link")
    assert edit["href"] == "https://github.com/octo/book/edit/dev/docs/part/page.md"
    assert "Edit on GitHub" in edit.get_text()
    source = header.select_one(".pb-page-link--source")
    assert source["href"] == "https://github.com/octo/book/blob/dev/docs/part/page.md?plain=1"
    issues = header.select_one(".pb-page-link--issues")["href"]
    assert issues.startswith("https://github.com/octo/book/issues/new?title=")
    assert unquote(issues).endswith("Issue on page /part/page.html")
    assert header.select_one(".pb-page-link--download") is None, "off by default here"
    icons = page.select(".pb-header .pb-icon-links a")
    assert [a["href"] for a in icons] == ["https://github.com/octo/book"]
    assert icons[0].find("svg") and "Source repository" in icons[0].get_text()
    # The appendix's Updates and corrections: our playbook_repository_* default to them.
    links = [a["href"] for a in page.select(".pb-appendix-updates a[href]")]
    assert "https://github.com/octo/book/issues/new" in links
    assert any(h.startswith("https://github.com/octo/book/commits/dev/") for h in links), links


def test_ours_and_html_context_win_over_the_book_theme_s(make_app, tmp_path):
    options = {**REPOSITORY, "use_repository_button": False}
    src = project(
        tmp_path,
        options,
        playbook_repository_url="https://gitlab.com/mine/article",
        html_context={"github_user": "me", "github_repo": "other", "github_version": "main"},
    )
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    assert theme_warnings(app) == []
    page = read_html(app, "part/page")
    assert page.select_one(".pb-edit-link")["href"].startswith("https://github.com/me/other/edit/")
    assert page.select(".pb-icon-links") == []
    links = [a["href"] for a in page.select(".pb-appendix-updates a[href]")]
    assert "https://gitlab.com/mine/article/issues/new" in links


def test_a_repository_of_its_own_host_needs_its_provider(make_app, tmp_path):
    options = {**REPOSITORY, "repository_url": "https://git.example.org/team/book"}
    src = project(tmp_path, options)
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    warnings = theme_warnings(app)
    mine = [w for w in warnings if "'repository_url'" in w]
    assert len(mine) == 1 and "repository_provider" in mine[0], warnings
    assert f"conf.py:{conf_line(src, 'repository_url')}:" in mine[0]
    page = read_html(app, "part/page")
    assert page.select(".pb-edit-link, .pb-page-link") == []
    assert [a["href"] for a in page.select(".pb-icon-links a")] == [
        "https://git.example.org/team/book"
    ]
    # Told the provider: a GitLab of its own.
    (tmp_path / "2").mkdir()
    src2 = project(tmp_path / "2", {**options, "repository_provider": "gitlab"})
    app2 = make_app("html", srcdir=src2, builddir=tmp_path / "out2")
    app2.build()
    assert theme_warnings(app2) == []
    page = read_html(app2, "part/page")
    assert page.select_one(".pb-edit-link")["href"] == (
        "https://git.example.org/team/book/-/edit/dev/docs/part/page.md"
    )
    assert page.select_one(".pb-page-link--issues")["href"].startswith(
        "https://git.example.org/team/book/-/issues/new?"
    )


def test_a_repository_url_that_is_no_link_is_refused(make_app, tmp_path):
    options = {**REPOSITORY, "repository_url": "javascript:alert(1)//a/b"}
    src = project(tmp_path, options)
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    warnings = theme_warnings(app)
    assert any("'repository_url'" in w and "left out" in w for w in warnings), warnings
    page = read_html(app, "part/page")
    assert "javascript:" not in str(page)


def test_extra_footer_is_drawn(make_app, tmp_path):
    src = project(tmp_path, {"extra_footer": 'Hosted by <a href="https://x.org">X</a>'})
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    assert theme_warnings(app) == []
    footer = read_html(app, "part/page").select_one(".pb-footer .pb-extra-footer")
    assert footer.a["href"] == "https://x.org"


# The announcement, given as a URL ------------------------------------------------------


def _banner(app, docname: str = "part/page"):
    return read_html(app, docname).select_one(".pb-announcement:not(.pb-version-warning)")


@pytest.mark.parametrize(
    ("value", "baseurl"),
    [
        ("https://evil.example/announcement.html", "https://docs.example.org/"),
        ("//evil.example/announcement.html", "https://docs.example.org/"),
        ("https://docs.example.org/announcement.html", ""),
    ],
)
def test_an_announcement_of_another_origin_is_refused_at_its_line(
    make_app, tmp_path, value, baseurl
):
    src = project(tmp_path, {"announcement": value}, html_baseurl=baseurl)
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    warnings = theme_warnings(app)
    assert len(warnings) == 1, warnings
    assert f"conf.py:{conf_line(src, 'announcement')}:" in warnings[0]
    assert "site's own origin only" in warnings[0] and "_static/" in warnings[0]
    assert _banner(app) is None
    assert "evil.example" not in (Path(app.outdir) / "part/page.html").read_text("utf-8")


@pytest.mark.parametrize(
    ("value", "index", "page"),
    [
        ("_static/announcement.html", "_static/announcement.html", "../_static/announcement.html"),
        ("https://docs.example.org/book/news.html", "news.html", "../news.html"),
        ("https://docs.example.org/news.html", None, None),
        ("/announcement.txt", "/announcement.txt", "/announcement.txt"),
    ],
)
def test_an_announcement_of_the_site_is_fetched_by_the_script(
    make_app, tmp_path, value, index, page
):
    src = project(tmp_path, {"announcement": value}, html_baseurl="https://docs.example.org/book/")
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    assert theme_warnings(app) == []
    for docname, expected in (("index", index), ("part/page", page)):
        banner = _banner(app, docname)
        assert banner.has_attr("hidden"), "shown by the script once fetched"
        assert banner["data-pst-announcement-url"] == (expected or value)


def test_an_inline_announcement_stays_inline(make_app, tmp_path):
    src = project(tmp_path, {"announcement": "Read <em>this</em>: see news.html"})
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    banner = _banner(app)
    assert not banner.has_attr("data-pst-announcement-url")
    assert banner.em.get_text() == "this"


def test_the_script_fetches_from_its_own_origin_only():
    script = (THEME_DIR / "static/scripts/sphinx-playbook.js_t").read_text(encoding="utf-8")
    body = re.search(r"async function loadAnnouncement\(\) \{(.*?)\n  \}", script, re.S)
    assert body and "url.origin !== location.origin" in body.group(1)
    assert body.group(1).index("origin") < body.group(1).index("fetch(")
