"""pydata-sphinx-theme's html_theme_options in this theme (theme/options.py): each
documented option is honoured or gets one located ``playbook.theme`` warning; the
version switcher, external links, search, breadcrumbs and the edit link work."""

from __future__ import annotations

import configparser
import re
import tomllib
from pathlib import Path
from typing import Any

import pydata_sphinx_theme
import pytest
import requests
from helpers import playbook_warnings, png, read_html

from sphinx_playbook.theme.options import PYDATA_OPTIONS, Honoured, Warned

THEME_CONF = Path(pydata_sphinx_theme.__file__).parent / "theme/pydata_sphinx_theme/theme.conf"
THEME_TOML = Path(__file__).parents[1] / "sphinx_playbook/theme/sphinx_playbook/theme.toml"


def documented_options() -> dict[str, str]:
    """The [options] of the installed pydata-sphinx-theme's theme.conf, with defaults."""
    parser = configparser.ConfigParser()
    parser.read(THEME_CONF, encoding="utf-8")
    return dict(parser.items("options"))


def theme_warnings(app) -> list[str]:
    return [w for w in playbook_warnings(app) if "[playbook.theme]" in w]


def project(tmp_path: Path, options: dict[str, Any], **settings: Any) -> Path:
    """A two-level MyST project whose conf.py sets each option on a line of its own."""
    src = tmp_path / "src"
    src.mkdir()
    lines = [
        'extensions = ["sphinx_playbook"]',
        'html_theme = "sphinx_playbook"',
        'project = "Options"',
        *(f"{name} = {value!r}" for name, value in settings.items()),
        "html_theme_options = {",
        *(f"    {name!r}: {value!r}," for name, value in options.items()),
        "}",
    ]
    (src / "conf.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (src / "index.md").write_text("# Home\n\n```{toctree}\npart/index\n```\n", encoding="utf-8")
    (src / "part").mkdir()
    (src / "part/index.md").write_text("# Part\n\n```{toctree}\npage\n```\n", encoding="utf-8")
    (src / "part/page.md").write_text("# Page\n\n## One\n\n### Deeper\n", encoding="utf-8")
    return src


def conf_line(src: Path, name: str) -> int:
    lines = (src / "conf.py").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.strip().startswith(f"{name!r}:"))


def test_every_documented_option_is_classified():
    """A new pydata-sphinx-theme option fails here until PYDATA_OPTIONS says what it does."""
    documented = set(documented_options())
    assert documented, THEME_CONF
    unclassified = documented - set(PYDATA_OPTIONS)
    assert not unclassified, f"classify in theme/options.py: {sorted(unclassified)}"
    # Options an older supported pydata-sphinx-theme lacks are declared by our theme,
    # so they work with either (and the newest version's are all classified above).
    ours = tomllib.loads(THEME_TOML.read_text(encoding="utf-8"))["options"]
    missing = set(PYDATA_OPTIONS) - documented - set(ours)
    assert not missing, f"declare in theme.toml (older pydata lacks them): {sorted(missing)}"
    for name, handling in PYDATA_OPTIONS.items():
        assert isinstance(handling, Honoured | Warned), name
        text = handling.what if isinstance(handling, Honoured) else handling.instead
        assert len(text) > 10, name


def _unwanted(handling: Warned) -> Any:
    """A value that asks the layout for something it has not got."""
    if False in handling.harmless:
        return True
    if True in handling.harmless:
        return False
    if "" in handling.harmless or [] in handling.harmless:
        return ["indices"]
    return 3


def test_each_option_pydata_documents_is_honoured_or_warned_once_at_its_line(make_app, tmp_path):
    """conf.py with every documented option: pydata's defaults, and an unwanted value for
    each option this layout cannot honour. Each of those gets one warning at its line,
    naming it and what to use instead; no honoured option is warned about."""
    options: dict[str, Any] = {}
    for name, default in documented_options().items():
        handling = PYDATA_OPTIONS[name]
        if isinstance(handling, Warned):
            options[name] = _unwanted(handling)
        elif default.strip() and name not in ("pygment_light_style", "pygment_dark_style"):
            options[name] = default  # as written in theme.conf: a string
    src = project(tmp_path, options)
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    warnings = theme_warnings(app)
    warned = [n for n, h in PYDATA_OPTIONS.items() if isinstance(h, Warned) and n in options]
    for name in warned:
        mine = [w for w in warnings if f"html_theme_options: {name!r} has no effect" in w]
        assert len(mine) == 1, (name, warnings)
        assert f"conf.py:{conf_line(src, name)}: WARNING" in mine[0], mine[0]
        assert len(mine[0].split("has no effect: ")[1]) > 20, "says what to do instead"
    # pydata's own secondary_sidebar_items and primary_sidebar_end are not drawn here,
    # and sidebar-ethical-ads would load from another origin: the components are named.
    honoured = [name for name, h in PYDATA_OPTIONS.items() if isinstance(h, Honoured)]
    for warning in warnings:
        name = re.search(r"html_theme_options: '(\w+)'", warning)
        assert name and name.group(1) in warned, warning
    assert not [w for w in warnings if any(f"'{name}'" in w for name in honoured)]
    assert len(warnings) == len(warned), warnings
    # The pydata defaults of the honoured slots draw this theme's components.
    page = read_html(app, "part/page")
    assert page.select(".pb-header .pb-chapters"), "navbar-nav is the Chapters menu"
    assert len(page.select(".pb-header .pb-search-button")) == 1
    assert page.select(".pb-breadcrumbs"), "article_header_start: breadcrumbs"
    assert page.select_one(".pb-footer .theme-version"), "footer_end: theme-version"


def test_components_this_page_cannot_draw_are_named(make_app, tmp_path):
    src = project(tmp_path, {"navbar_center": ["sidebar-nav-bs"], "footer_end": ["page-toc"]})
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    warnings = theme_warnings(app)
    assert len(warnings) == 2, warnings
    center, footer = sorted(warnings, key=lambda w: "footer_end" in w)
    assert f"conf.py:{conf_line(src, 'navbar_center')}:" in center and "Chapters" in center
    assert "'sidebar-nav-bs'" in center
    assert "'page-toc'" in footer and "left margin" in footer


@pytest.mark.sphinx("html", testroot="theme-options")
def test_the_option_root_builds_with_the_expected_warnings(app):
    app.build()
    warnings = theme_warnings(app)
    assert len(warnings) == 3, warnings
    switcher, depth, analytics = sorted(warnings, key=lambda w: int(w.split(":")[1]))
    assert "'navigation_depth' has no effect" in depth
    assert "'analytics' has no effect" in analytics and "html_js_files" in analytics
    assert "javascript:alert(1)" in switcher and "left out" in switcher
    assert all("theme-options/conf.py:" in w for w in warnings)


@pytest.mark.sphinx("html", testroot="theme-options")
def test_the_version_switcher_is_written_from_the_local_json(app):
    app.build()
    for docname in ("index", "api/module"):
        page = read_html(app, docname)
        menus = page.select(".pb-header details.pb-version-switcher")
        assert len(menus) == 1
        menu = menus[0]
        assert "pst-js-only" not in menu["class"], "works without JavaScript"
        assert not menu.has_attr("data-pb-json-url"), "nothing left for the script"
        assert menu.summary.get_text(" ", strip=True) == "Version: 2.0"
        links = [(a.get_text(), a["href"]) for a in menu.select("a")]
        assert links == [
            ("3.0 (stable)", "https://book.example.org/3.0/"),
            ("2.0", "https://book.example.org/2.0/"),
            ("1.0", "https://book.example.org/1.0/"),
        ]
        assert menu.select_one("a[aria-current]").get_text() == "2.0"
        banner = page.select_one(".pb-version-warning")
        assert "version 2.0" in banner.get_text()
        assert banner.a["href"] == "https://book.example.org/3.0/"
    assert "Choose version" not in Path(app.outdir, "index.html").read_text(encoding="utf-8")


@pytest.mark.sphinx("html", testroot="theme-options")
def test_header_external_links_search_and_no_analytics(app):
    app.build()
    page = read_html(app, "api/module")
    header = page.select_one(".pb-header")
    inline = [(a.get_text(strip=True), a["href"]) for a in header.select(".pb-external-links a")]
    assert inline == [
        ("Blog", "https://blog.example.org/"),
        ("Forum", "https://forum.example.org/"),
    ]
    in_menu = [a.get_text() for a in header.select(".pb-chapters__external a")]
    assert in_menu == ["Blog", "Forum"]
    # navbar_end without search-button: navbar_persistent keeps search, as in pydata.
    assert len(header.select(".pb-search-button")) == 1
    assert header.select_one(".pb-header__persistent .pb-search-button")["href"] == "../search.html"
    assert header.select_one(".navbar-brand").get_text(strip=True) == "Options Book"
    html = Path(app.outdir, "api/module.html").read_text(encoding="utf-8")
    assert "googletagmanager" not in html and "gtag(" not in html


@pytest.mark.sphinx("html", testroot="theme-options")
def test_breadcrumbs_on_deeper_pages_and_the_edit_link(app):
    app.build()
    module = read_html(app, "api/module")
    crumbs = module.select(".pb-article-header .pb-breadcrumbs li")
    assert [li.get_text(strip=True) for li in crumbs] == [
        "Theme options",
        "API reference",
        "The module",
    ]
    assert [a["href"] for a in module.select(".pb-breadcrumbs a")] == [
        "../index.html",
        "index.html",
    ]
    assert crumbs[-1]["aria-current"] == "page"
    # Above the title block, inside the article.
    header = module.select_one("article .pb-article-header")
    assert header.find_next_sibling(class_="pb-title-block") is not None
    edit = module.select_one(".pb-article-header .pb-edit-link")
    assert edit["href"] == "https://github.com/octo/book/edit/main/docs/api/module.md"
    assert edit.get_text(strip=True) == "Edit on GitHub"
    for docname in ("index", "guide", "api/index"):
        page = read_html(app, docname)
        assert page.select(".pb-breadcrumbs") == [], docname
        assert page.select_one(".pb-edit-link") is not None, docname


@pytest.mark.sphinx("html", testroot="theme-options")
def test_toc_level_back_to_top_and_navigation_keys(app):
    app.build()
    guide = read_html(app, "guide")
    assert guide.select_one("nav.pb-toc")["data-toc-level"] == "1"
    assert guide.select_one(".pb-footer .pb-back-to-top a")["href"] == "#"
    assert guide.select_one(".pb-header__inner").has_attr("data-pb-navigation-keys")
    css = Path(app.outdir, "_static/styles/sphinx-playbook.css").read_text(encoding="utf-8")
    assert '.pb-toc[data-toc-level="1"] .pb-toc__list > ul ul' in css


def test_defaults_keep_every_toc_level_and_one_search_button(make_app, tmp_path):
    src = project(tmp_path, {"navbar_end": ["search-button", "theme-switcher"]})
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    assert theme_warnings(app) == []
    page = read_html(app, "part/page")
    assert page.select_one("nav.pb-toc")["data-toc-level"] == "6"
    buttons = page.select(".pb-header .pb-search-button")
    assert len(buttons) == 1 and buttons[0].find_parent(class_="pb-header__end")
    assert page.select(".pb-back-to-top, .pb-edit-link, .pb-version-switcher") == []
    assert page.select_one(".pb-breadcrumbs") is not None


def test_a_switcher_url_is_never_requested_at_build_time(make_app, tmp_path, monkeypatch):
    """pydata-sphinx-theme would request an http(s) json_url (check_switcher): not here;
    the script fetches it when the page is read, and only from the site's origin."""
    requested: list[str] = []

    def refuse(*args: Any, **kwargs: Any) -> None:
        requested.append(str(args))
        raise AssertionError("a request at build time")

    monkeypatch.setattr(requests, "get", refuse)
    monkeypatch.setattr(requests.Session, "request", refuse)
    url = "https://other.example.org/switcher.json"
    options = {
        "switcher": {"json_url": url, "version_match": "1.0"},
        "navbar_end": ["version-switcher"],
        "check_switcher": True,
    }
    app = make_app("html", srcdir=project(tmp_path, options), builddir=tmp_path / "out")
    app.build()
    assert requested == []
    assert theme_warnings(app) == []
    menu = read_html(app, "part/page").select_one(".pb-version-switcher")
    assert menu["data-pb-json-url"] == url and menu["data-pb-version-match"] == "1.0"
    assert "pst-js-only" in menu["class"], "hidden without JavaScript: it has no entries"
    assert menu.select("a") == []


def test_a_relative_switcher_file_missing_at_build_time(make_app, tmp_path):
    options = {
        "switcher": {"json_url": "_static/versions.json", "version_match": "1.0"},
        "navbar_start": ["navbar-logo", "version-switcher"],
    }
    src = project(tmp_path, options)
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    (warning,) = theme_warnings(app)
    assert f"conf.py:{conf_line(src, 'switcher')}:" in warning
    assert "'_static/versions.json' is not a file of the project" in warning
    menu = read_html(app, "part/page").select_one(".pb-version-switcher")
    assert menu["data-pb-json-url"] == "../_static/versions.json", "relative to the page"


def test_edit_button_without_a_repository_is_warned_once(make_app, tmp_path):
    src = project(tmp_path, {"use_edit_page_button": True})
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    (warning,) = theme_warnings(app)
    assert "'use_edit_page_button'" in warning and "github_user" in warning
    assert read_html(app, "part/page").select(".pb-edit-link") == []


def test_a_malformed_switcher_is_warned_and_left_out(make_app, tmp_path):
    src = project(
        tmp_path, {"switcher": {"json_url": "x.json"}, "navbar_end": ["version-switcher"]}
    )
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    (warning,) = theme_warnings(app)
    assert "'switcher' needs a dict with json_url and version_match" in warning
    assert read_html(app, "index").select(".pb-version-switcher") == []


def test_breadcrumbs_follow_a_renamed_parent(make_app, tmp_path):
    """Sphinx writes again a renamed page and the page listing it, not the pages under
    it; their breadcrumbs show its title (machinery/dependencies.py)."""
    src = project(tmp_path, {})
    toctree = "\n\n```{toctree}\none\ntwo\n```\n"
    (src / "part/page.md").write_text("# Page" + toctree, encoding="utf-8")
    (src / "part/one.md").write_text("# One\n", encoding="utf-8")
    (src / "part/two.md").write_text("# Two\n", encoding="utf-8")
    make_app("html", srcdir=src, builddir=tmp_path / "out").build()
    (src / "part/page.md").write_text("# Renamed" + toctree, encoding="utf-8")
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    written: set[str] = set()
    app.connect("html-page-context", lambda _app, pagename, *_rest: written.add(pagename))
    app.build()
    # Not in the chapters menu, not two's previous or next page: only its breadcrumbs.
    assert "part/two" in written
    crumbs = read_html(app, "part/two").select(".pb-breadcrumbs li")
    assert [li.get_text(strip=True) for li in crumbs] == ["Home", "Part", "Renamed", "Two"]


def test_logo_images_and_icon_link_attributes(make_app, tmp_path):
    options = {
        "logo": {"image_light": "logo-light.png", "image_dark": "logo-dark.png", "text": "Book"},
        "icon_links": [
            {
                "name": "Mastodon",
                "url": "https://example.social/@book",
                "icon": "fa-brands fa-mastodon",
                "attributes": {"rel": "me", "target": "_blank", "onclick": "x()", "data-a": '"'},
            }
        ],
    }
    src = project(tmp_path, options)
    for name in ("logo-light.png", "logo-dark.png"):
        (src / name).write_bytes(png(2, 1))
    app = make_app("html", srcdir=src, builddir=tmp_path / "out")
    app.build()
    assert theme_warnings(app) == []
    page = read_html(app, "part/page")
    images = page.select(".pb-header .navbar-brand img")
    assert [img["src"] for img in images] == [
        "../_static/logo-light.png",
        "../_static/logo-dark.png",
    ]
    assert "only-light" in images[0]["class"] and "only-dark" in images[1]["class"]
    assert page.select_one(".navbar-brand .logo__title").get_text(strip=True) == "Book"
    assert all(Path(app.outdir, "_static", name).is_file() for name in ("logo-light.png",))
    link = page.select_one(".pb-icon-links a")
    assert link["href"] == "https://example.social/@book" and link["target"] == "_blank"
    assert link["rel"] == ["me"], "a Mastodon verification link"
    assert link["data-a"] == '"' and not link.has_attr("onclick")


def test_menu_label_alignment_and_no_search(make_app, tmp_path):
    options = {"header_dropdown_text": "Contents", "navbar_align": "left", "disable_search": True}
    app = make_app("html", srcdir=project(tmp_path, options), builddir=tmp_path / "out")
    app.build()
    assert theme_warnings(app) == []
    page = read_html(app, "part/page")
    assert page.select_one(".pb-chapters summary").get_text(strip=True) == "Contents"
    assert "pb-header--align-left" in page.select_one(".pb-header__inner")["class"]
    assert page.select(".pb-search-button, .pb-header__persistent, #pst-search-dialog") == []
