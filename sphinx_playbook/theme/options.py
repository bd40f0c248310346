"""pydata-sphinx-theme's ``html_theme_options`` in this theme's layout.

This theme inherits pydata-sphinx-theme's options but draws its own page: every
option that theme documents (the ``[options]`` of its theme.conf) is either
honoured here, with what it does in this layout (:class:`Honoured`), or has no
place in it (:class:`Warned`): then conf.py gets one ``playbook.theme`` warning
per build, at the option's line, naming it and what to use instead. Nothing is
dropped silently; tests/test_theme_options.py reads the installed theme.conf,
so an option a new pydata-sphinx-theme adds fails it until it is classified here.
sphinx-book-theme's own options, which projects moving from it set, are classified
the same way (:data:`BOOK_THEME_OPTIONS`, tests/test_book_theme_options.py); its
``repository_url`` & co. give the Edit, source, issues and repository links.

Also here, at ``builder-inited`` (before pydata-sphinx-theme's own handler):

- ``analytics`` is taken out of the options pydata-sphinx-theme reads, so it adds
  no script from another origin to every page, and so are the components of its
  sidebars named in a slot (:data:`_UNDRAWN_COMPONENTS`), which need them;
- the version ``switcher``'s JSON is read when it is a file of the project
  (``html_static_path``, ``html_extra_path`` or the source folder), so the menu is
  written into each page; pydata-sphinx-theme's ``check_switcher`` is turned off,
  as it would request a URL at build time, and the same checks are made here on
  the local file only.

And at ``html-page-context``: the switcher's entries, the ``external_links``, the
"edit this page" URL, the announcement's URL (the site's own origin only, checked
at ``builder-inited``), and one search button in the header however the slots are
filled (pydata-sphinx-theme keeps search reachable through ``navbar_persistent``).
"""

from __future__ import annotations

import json
import posixpath
import re
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from markupsafe import Markup
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.errors import ExtensionError
from sphinx.locale import _

from ..diagnostics import PlaybookWarning, warn
from ..machinery import priorities
from ..urls import is_safe_url
from .registration import uses_playbook_theme


@dataclass(frozen=True)
class Honoured:
    """An option this layout honours; ``what`` says how."""

    what: str


@dataclass(frozen=True)
class Warned:
    """An option this layout cannot honour: ``instead`` ends the warning
    ("<option> has no effect: <instead>"); values in ``harmless`` ask for nothing
    the layout lacks (e.g. ``False`` for a button it has not got) and are not warned."""

    instead: str
    harmless: tuple[Any, ...] = ()


Handling = Honoured | Warned

_NO_SIDEBAR = (
    "the page has no sidebar navigation tree; the header's Chapters menu lists the "
    "book's pages and breadcrumbs lead up from deeper pages"
)

#: Every option of pydata-sphinx-theme's theme.conf, and what this theme does with it.
PYDATA_OPTIONS: dict[str, Handling] = {
    # The header.
    "navbar_start": Honoured("components at the start of the header bar"),
    "navbar_center": Honoured(
        "components in the middle of the header bar (navbar-nav is the Chapters menu)"
    ),
    "navbar_persistent": Honoured(
        "components between the middle and the end of the header bar; the search button "
        "by default, dropped when another slot already has one"
    ),
    "navbar_end": Honoured("components at the end of the header bar"),
    "navbar_align": Honoured("where the middle of the header sits: content, left or right"),
    "header_dropdown_text": Honoured("the label of the Chapters menu"),
    "header_links_before_dropdown": Warned(
        "the header lists the book's pages in one Chapters menu; the external_links "
        "are shown beside it on wide screens"
    ),
    "external_links": Honoured(
        "links beside the Chapters menu on wide screens, inside it on narrow ones"
    ),
    "logo": Honoured("image_light, image_dark, text, alt_text and link of navbar-logo"),
    "logo_link": Honoured("where navbar-logo links to"),
    "icon_links": Honoured(
        "navbar-icon-links, common FontAwesome names drawn as inline SVG, with each "
        "link's attributes"
    ),
    "icon_links_label": Honoured("the accessible name of the icon links"),
    "github_url": Honoured("a GitHub icon link"),
    "gitlab_url": Honoured("a GitLab icon link"),
    "bitbucket_url": Honoured("a Bitbucket icon link"),
    "twitter_url": Honoured("a Twitter icon link"),
    "switcher": Honoured(
        "version-switcher: a menu of versions, written into the page when json_url is a "
        "file of the project, else filled by the script from the site's own origin"
    ),
    "check_switcher": Honoured(
        "the switcher's JSON file is checked at build time when it is a file of the "
        "project; a URL is never requested at build time"
    ),
    "show_version_warning_banner": Honoured(
        "a banner linking to the preferred version on pages of any other version"
    ),
    "announcement": Honoured("a banner above the header: inline HTML, or a URL the script fetches"),
    "sticky_banners": Warned("the header and its banners scroll with the page", harmless=(False,)),
    # Search.
    "search_bar_text": Honoured("the placeholder of the search field"),
    "disable_search": Honoured("no search button, field or dialog"),
    "search_as_you_type": Warned(
        "the search dialog sends the query to Sphinx's search page, which lists the results",
        harmless=(False,),
    ),
    # The article.
    "article_header_start": Honoured(
        "components above the title block, at its start (breadcrumbs by default)"
    ),
    "article_header_end": Honoured(
        "components above the title block, at its end (edit-this-page by default)"
    ),
    "use_edit_page_button": Honoured(
        "an Edit link above the title block (from html_context's github_*, gitlab_*, "
        "bitbucket_* or edit_page_url_template)"
    ),
    "show_toc_level": Honoured(
        "levels of the table of contents shown; deeper ones open for the section in view"
    ),
    "show_prev_next": Honoured("the previous and next links under the article"),
    "back_to_top_button": Honoured("a Back to top link in the footer"),
    "navigation_with_keys": Honoured(
        "the left and right arrow keys go to the previous and next page"
    ),
    "shorten_urls": Honoured("GitHub and GitLab links shown as owner/repo#123"),
    "article_footer_items": Warned(
        "the article has no footer bar; use footer_start, footer_center or footer_end",
        harmless=("", []),
    ),
    "content_footer_items": Warned(
        "the article has no content footer; use footer_start, footer_center or footer_end",
        harmless=("", []),
    ),
    # The sidebars.
    "secondary_sidebar_items": Warned(
        "the page has no secondary sidebar: its table of contents is in the left margin "
        "(toc_title, toc_open, show_toc_level) and use_edit_page_button puts the edit "
        "link above the title",
        harmless=("", [], {}),
    ),
    "primary_sidebar_end": Warned(
        "the page has no primary sidebar; use footer_start, footer_center or footer_end",
        harmless=("", []),
    ),
    "sidebar_includehidden": Warned(
        "the Chapters menu always lists the root toctree's pages, hidden ones included",
        harmless=(True,),
    ),
    "collapse_navigation": Warned(_NO_SIDEBAR),
    "navigation_depth": Warned(_NO_SIDEBAR),
    "show_nav_level": Warned(_NO_SIDEBAR),
    # The footer.
    "footer_start": Honoured("components at the start of the footer"),
    "footer_center": Honoured("components in the middle of the footer"),
    "footer_end": Honoured("components at the end of the footer"),
    # Code.
    "pygments_light_style": Honoured("the Pygments style of code in light mode"),
    "pygments_dark_style": Honoured("the Pygments style of code in dark mode"),
    "pygment_light_style": Honoured("renamed pygments_light_style by pydata-sphinx-theme"),
    "pygment_dark_style": Honoured("renamed pygments_dark_style by pydata-sphinx-theme"),
    # Other.
    "analytics": Warned(
        "no analytics script is added: pages request nothing from another origin. To "
        "measure visits anyway, add the provider's script with html_js_files in conf.py",
        harmless=("", {}, None),
    ),
    "surface_warnings": Honoured("pydata-sphinx-theme's own messages shown as warnings"),
    "templates_skip_empty_check": Honoured(
        "components pydata-sphinx-theme puts in a slot without rendering them first"
    ),
}

#: This theme's own options (theme.toml).
OWN_OPTIONS = ("toc_title", "toc_open")

#: sphinx-book-theme's own options (the ``[options]`` of its theme.conf that are not
#: pydata-sphinx-theme's, which PYDATA_OPTIONS classifies), declared in theme.toml so a
#: project moving from it builds with ``-W``: each honoured, or warned about once.
BOOK_THEME_OPTIONS: dict[str, Handling] = {
    # The repository: the links above the title block and in the header.
    "repository_url": Honoured(
        "the repository of use_edit_page_button's Edit link (as html_context's github_* "
        "are), of the repository, source and issues links, and the default of "
        "playbook_repository_url (the appendix's Updates and corrections)"
    ),
    "repository_branch": Honoured(
        "the branch of those links (main when empty), and the default of playbook_repository_branch"
    ),
    "repository_provider": Honoured(
        "github, gitlab or bitbucket, for a repository_url on a host of one's own"
    ),
    "path_to_docs": Honoured(
        "the folder of conf.py in the repository, for the Edit and source links"
    ),
    "use_repository_button": Honoured("an icon link to repository_url at the end of the header"),
    "use_issues_button": Honoured(
        "an Open issue link above the title block (GitHub, GitLab, Bitbucket)"
    ),
    "use_source_button": Honoured(
        "a Show source link above the title block, to the page's file in the repository"
    ),
    "use_download_button": Honoured(
        "a link above the title block to the page's source file (html_copy_source); off "
        "by default here. To print, the print stylesheet lays the article out for paper"
    ),
    "use_fullscreen_button": Warned(
        "there is no full-screen button: the browser's own full-screen mode (F11) shows "
        "the article alone",
        harmless=(False,),
    ),
    "launch_buttons": Warned(
        "no Binder, JupyterHub, Colab or Thebe launch buttons are drawn: link to them "
        "yourself, e.g. with icon_links or a link in the page",
        harmless=({}, "", "{}", None),
    ),
    # The primary sidebar.
    "home_page_in_toc": Honoured(
        "the Chapters menu lists the home page first, whatever the value; the logo links to it too"
    ),
    "show_navbar_depth": Warned(_NO_SIDEBAR, harmless=(1, "1")),
    "max_navbar_depth": Warned(_NO_SIDEBAR, harmless=(4, "4")),
    "collapse_navbar": Warned(_NO_SIDEBAR, harmless=(False,)),
    "expand_toc_sections": Warned(_NO_SIDEBAR, harmless=([], "", "[]")),
    # The footer and the page.
    "extra_footer": Honoured("HTML added at the end of the footer"),
    "footer_content_items": Warned(
        "the article has no content footer; use footer_start, footer_center, footer_end "
        "or extra_footer",
        harmless=("", []),
    ),
    "toc_title": Honoured("the title of the table of contents in the left margin"),
    "use_sidenotes": Honoured(
        "nothing to turn on: footnotes are already read beside the text, as hover cards, "
        "and gathered in the appendix; the aside directive puts a note in the margin"
    ),
}

#: pydata-sphinx-theme components that need what this page has not got, in any slot.
_UNDRAWN_COMPONENTS = {
    "sidebar-nav-bs": "the Chapters menu (chapters-menu) lists the book's pages",
    "sidebar-collapse": "the page has no sidebar to collapse",
    "page-toc": "the table of contents is in the left margin",
    "sidebar-ethical-ads": "pages request nothing from another origin",
    # sphinx-book-theme's own.
    "toggle-primary-sidebar": "the page has no sidebar to toggle",
    "toggle-secondary-sidebar": "the page has no sidebar to toggle",
    "sbt-sidebar-nav": "the Chapters menu (chapters-menu) lists the book's pages",
}
_SLOTS = (
    "navbar_start",
    "navbar_center",
    "navbar_persistent",
    "navbar_end",
    "article_header_start",
    "article_header_end",
    "footer_start",
    "footer_center",
    "footer_end",
)
_SEARCH_COMPONENTS = frozenset(
    {"search-button.html", "search-button-field.html", "search-field.html"}
)


def _components(value: Any) -> list[str]:
    """A slot's value as component names without ``.html``."""
    if isinstance(value, str):
        items = [item.strip() for item in value.split(",")]
    elif isinstance(value, list | tuple):
        items = [str(item).strip() for item in value]
    else:
        return []
    return [item.removesuffix(".html") for item in items if item]


def conf_location(app: Sphinx, name: str) -> str | None:
    """``path/conf.py:line`` of the line that sets ``name`` (a quoted key), else of
    ``html_theme_options``; None without a conf.py (options given another way)."""
    path = Path(app.confdir or "", "conf.py")
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    key = re.compile(rf"""["']{re.escape(name)}["']""")
    for patterns in (key, re.compile(r"\bhtml_theme_options\b")):
        for number, line in enumerate(lines, start=1):
            if patterns.search(line):
                return f"{path}:{number}"
    return f"{path}:1"


def _warn_option(app: Sphinx, name: str, message: str) -> None:
    warn(f"html_theme_options: {name!r} {message}", PlaybookWarning.THEME, conf_location(app, name))


def _is_harmless(value: Any, harmless: tuple[Any, ...]) -> bool:
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        value = value.strip().lower() == "true"
    return any(type(value) is type(h) and value == h for h in harmless)


# The version switcher ------------------------------------------------------------


@dataclass(frozen=True)
class Version:
    """One entry of the switcher's JSON."""

    name: str
    url: str
    version: str
    preferred: bool


@dataclass(frozen=True)
class Switcher:
    """What the version-switcher component shows; ``versions`` is empty when the JSON
    is left to the script (``json_url``, a site path when ``site_path``)."""

    version_match: str
    json_url: str
    site_path: bool
    versions: tuple[Version, ...]

    @property
    def current(self) -> Version | None:
        return next((v for v in self.versions if v.version == self.version_match), None)

    @property
    def preferred(self) -> Version | None:
        return next((v for v in self.versions if v.preferred), None)


#: Per builder: the switcher as read at builder-inited (None: no switcher).
_SWITCHERS: weakref.WeakKeyDictionary[Builder, Switcher | None] = weakref.WeakKeyDictionary()


def _site_path(app: Sphinx, json_url: str) -> str | None:
    """The path under the site's root that ``json_url`` names, or None for another
    site's URL (an http(s) URL is the site's own only under ``html_baseurl``)."""
    parts = urlsplit(json_url)
    if parts.scheme or parts.netloc:
        base = (app.config.html_baseurl or "").rstrip("/")
        if base and json_url.startswith(base + "/"):
            return json_url[len(base) + 1 :].split("?")[0].split("#")[0]
        return None
    return posixpath.normpath(parts.path.lstrip("/"))


def _local_file(app: Sphinx, site_path: str) -> Path | None:
    """The project's file that becomes ``site_path`` in the output, if any:
    from ``html_static_path`` (for ``_static/...``), ``html_extra_path`` or the
    source folder (where pydata-sphinx-theme looks)."""
    confdir = Path(app.confdir or app.srcdir)
    candidates: list[Path] = []
    if site_path.startswith("_static/"):
        inside = site_path.removeprefix("_static/")
        for entry in app.config.html_static_path:
            folder = confdir / entry
            candidates.append(folder / inside)
            if folder.is_file() and folder.name == inside:
                candidates.append(folder)
    candidates += [confdir / entry / site_path for entry in app.config.html_extra_path]
    candidates.append(Path(app.srcdir) / site_path)
    return next((c for c in candidates if c.is_file()), None)


def _read_versions(path: Path) -> tuple[tuple[Version, ...], str | None]:
    """The entries of a switcher JSON file, and what is wrong with it (or None)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return (), f"cannot be read as JSON ({error})"
    if not isinstance(data, list):
        return (), "is not a JSON list of versions"
    versions = []
    problem = None
    for entry in data:
        if not isinstance(entry, dict) or "version" not in entry or "url" not in entry:
            problem = 'has an entry without "version" or "url"; it is left out'
            continue
        url = str(entry["url"])
        if not is_safe_url(url):
            problem = f"has an entry whose url {url!r} is not http(s) or relative; it is left out"
            continue
        version = str(entry["version"])
        name = str(entry.get("name") or version)
        versions.append(Version(name, url, version, entry.get("preferred") is True))
    return tuple(versions), problem


def _switcher(app: Sphinx, options: dict[str, Any], check: bool) -> Switcher | None:
    """Read the ``switcher`` option and, when it is a file of the project, its JSON."""
    value = options.get("switcher")
    if not value:
        return None
    if not isinstance(value, Mapping) or not value.get("json_url") or "version_match" not in value:
        _warn_option(
            app,
            "switcher",
            "needs a dict with json_url and version_match; the version switcher is left out",
        )
        options.pop("switcher", None)  # pydata-sphinx-theme would fail on every page
        return None
    json_url = str(value["json_url"])
    match = str(value["version_match"])
    site_path = _site_path(app, json_url)
    if not is_safe_url(json_url):
        _warn_option(app, "switcher", f"json_url {json_url!r} is not http(s) or relative")
        options.pop("switcher", None)
        return None
    if site_path is None:
        return Switcher(match, json_url, False, ())
    found = _local_file(app, site_path)
    if found is None:
        if check:
            _warn_option(
                app,
                "switcher",
                f"json_url {json_url!r} is not a file of the project (html_static_path, "
                "html_extra_path or the source folder); the script fetches it when the "
                "page is read, from the site's own origin only",
            )
        relative = not urlsplit(json_url).scheme
        return Switcher(match, site_path if relative else json_url, relative, ())
    versions, problem = _read_versions(found)
    if problem and check:
        _warn_option(app, "switcher", f"json_url {json_url!r} ({found}) {problem}")
    if check and versions and not any(v.version == match for v in versions):
        _warn_option(
            app, "switcher", f"version_match {match!r} is none of the versions in {found.name}"
        )
    return Switcher(match, site_path, True, versions)


# sphinx-book-theme's repository and announcement ----------------------------------------


def _is_true(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


@dataclass(frozen=True)
class Repository:
    """sphinx-book-theme's ``repository_url`` & co., read as it reads them."""

    url: str
    #: "github", "gitlab", "bitbucket", or "" for a host of another kind.
    provider: str
    #: The URL before owner/name: html_context's ``<provider>_url``.
    host: str
    owner: str
    name: str
    branch: str
    doc_path: str


_PROVIDERS = {"github": "GitHub", "gitlab": "GitLab", "bitbucket": "Bitbucket"}
_REPOSITORIES: weakref.WeakKeyDictionary[Builder, Repository | None] = weakref.WeakKeyDictionary()


def _repository(app: Sphinx, options: Mapping[str, Any]) -> Repository | None:
    """``repository_url`` split as sphinx-book-theme splits it (its last two parts are
    the owner and the name), with ``repository_branch``, ``repository_provider`` and
    ``path_to_docs``; None, with a warning for a URL that is not a repository's."""
    url = str(options.get("repository_url") or "").strip().rstrip("/")
    if not url:
        return None
    host, _, rest = url.rpartition("/")
    host, _, owner = host.rpartition("/")
    if urlsplit(url).scheme not in ("http", "https") or not is_safe_url(url) or "//" not in host:
        _warn_option(
            app,
            "repository_url",
            f"{url!r} is not an http(s) URL ending with owner/repository; the repository, "
            "Edit, source and issues links are left out",
        )
        return None
    provider = str(options.get("repository_provider") or "").strip().lower()
    if not provider:
        netloc = urlsplit(url).netloc.lower()
        provider = next((p for p in _PROVIDERS if p in netloc), "")
    if provider not in _PROVIDERS:
        _warn_option(
            app,
            "repository_url",
            f"{url!r} is on none of GitHub, GitLab and Bitbucket: set repository_provider "
            "to 'github', 'gitlab' or 'bitbucket' (the kind of host it is); meanwhile only "
            "the repository link is shown",
        )
        provider = ""
    branch = str(options.get("repository_branch") or "").strip() or "main"
    doc_path = str(options.get("path_to_docs") or "").strip().strip("/")
    return Repository(url, provider, host, owner, rest, branch, doc_path)


def _add_repository_context(repository: Repository, context: dict[str, Any]) -> None:
    """The html_context keys pydata-sphinx-theme's edit URL reads, from the repository,
    unless conf.py's html_context gives a repository of its own."""
    if not repository.provider or "edit_page_url_template" in context:
        return
    if any(context.get(keys[0]) not in (None, "None", "") for keys in _EDIT_KEYS):
        return
    p = repository.provider
    context.update(
        {
            f"{p}_user": repository.owner,
            f"{p}_repo": repository.name,
            f"{p}_version": repository.branch,
            f"{p}_url": repository.host,
        }
    )
    if repository.doc_path and not context.get("doc_path"):
        context["doc_path"] = repository.doc_path


def _source_url(provider: str, edit_url: str) -> str:
    """The page's file shown in the repository, from its edit URL (as sphinx-book-theme)."""
    if provider == "Bitbucket":
        return edit_url.replace("?mode=edit", "")
    if provider in ("GitHub", "GitLab"):
        return edit_url.replace("/edit/", "/blob/", 1) + "?plain=1"
    return ""


def _issues_url(repository: Repository, pagename: str) -> str:
    title = quote(f"Issue on page /{pagename}.html")
    if repository.provider == "github":
        return f"{repository.url}/issues/new?title={title}"
    if repository.provider == "gitlab":
        return f"{repository.url}/-/issues/new?issue[title]={title}"
    return f"{repository.url}/issues/new"


def _page_links(app: Sphinx, context: dict[str, Any]) -> list[dict[str, str]]:
    """sphinx-book-theme's header buttons drawn here, after the Edit link: the page's
    source in the repository, an issue about it, its source file to download."""
    links: list[dict[str, str]] = []
    repository = _REPOSITORIES.get(app.builder)
    if _is_true(context.get("theme_use_source_button")):
        edit = _edit_link(context)
        source = _source_url(*edit) if edit else ""
        if source:
            links.append({"kind": "source", "label": _("Show source"), "url": source})
    if _is_true(context.get("theme_use_issues_button")) and repository and repository.provider:
        url = _issues_url(repository, str(context.get("pagename", "")))
        links.append({"kind": "issues", "label": _("Open issue"), "url": url})
    if (
        _is_true(context.get("theme_use_download_button"))
        and context.get("has_source")
        and context.get("sourcename")
        and "pathto" in context
    ):
        url = context["pathto"]("_sources/" + str(context["sourcename"]), 1)
        suffix = str(context.get("page_source_suffix") or "")
        label = _("Download source") + (f" ({suffix})" if suffix else "")
        links.append({"kind": "download", "label": label, "url": url})
    return links


def _repository_icon_link(repository: Repository | None, context: Mapping[str, Any]) -> list:
    """use_repository_button: one more icon link, unless icon_links has the URL."""
    if repository is None or not _is_true(context.get("theme_use_repository_button")):
        return []
    known = {
        str(link.get("url", "")).rstrip("/")
        for link in context.get("theme_icon_links") or []
        if isinstance(link, Mapping)
    }
    if repository.url in known:
        return []
    icon = f"fa-brands fa-{repository.provider}" if repository.provider else "fa-solid fa-link"
    return [{"name": _("Source repository"), "url": repository.url, "icon": icon}]


#: A value of ``announcement`` that is a path of the site (pydata-sphinx-theme fetches
#: only ``http...`` values; a path would be shown as text there).
_ANNOUNCEMENT_PATH = re.compile(r"(?:\.{0,2}/)?[\w.~%/-]+\.(?:html?|txt)(?:[?#]\S*)?")
_ANNOUNCEMENTS: weakref.WeakKeyDictionary[Builder, tuple[str, bool] | None] = (
    weakref.WeakKeyDictionary()
)


def _announcement(app: Sphinx, options: dict[str, Any]) -> tuple[str, bool] | None:
    """The URL the script fetches the announcement from, and whether it is a path
    under the site's root; None for inline HTML. A URL of another origin than the
    site's (``html_baseurl``) is warned about and dropped: no banner, no request."""
    value = options.get("announcement")
    if not isinstance(value, str):
        return None
    value = value.strip()
    if _ANNOUNCEMENT_PATH.fullmatch(value) and not value.startswith("//"):
        path = posixpath.normpath(value)
        if value.startswith("/") or path.startswith(".."):
            return value, False  # the script fetches it only from the page's own origin
        return path, True
    if not (value.startswith(("http:", "https:", "//"))):
        return None  # inline HTML, as pydata-sphinx-theme shows it
    base = urlsplit(app.config.html_baseurl or "")
    parts = urlsplit(value if not value.startswith("//") else base.scheme + ":" + value)
    if base.netloc and (parts.scheme, parts.netloc.lower()) == (base.scheme, base.netloc.lower()):
        site_path = _site_path(app, value)
        return (site_path, True) if site_path else (value, False)
    where = (
        f"another origin than the site's ({base.scheme}://{base.netloc}, html_baseurl)"
        if base.netloc
        else "not known to be the site's own origin (html_baseurl is not set)"
    )
    _warn_option(
        app,
        "announcement",
        f"{value!r} is {where}: the announcement is fetched from the site's own origin "
        "only. Give the path of a file of the site (e.g. '_static/announcement.html', "
        "from html_static_path) or the HTML itself; no banner is shown",
    )
    options["announcement"] = ""
    return None


# Events ----------------------------------------------------------------------------


def check_theme_options(app: Sphinx) -> None:
    """``builder-inited``, before pydata-sphinx-theme's handler: one warning per option
    this layout cannot honour, the switcher read, analytics left out."""
    builder = app.builder
    if not uses_playbook_theme(app) or not hasattr(builder, "theme_options"):
        return
    options: dict[str, Any] = builder.theme_options
    given = dict(app.config.html_theme_options or {})
    for name, value in given.items():
        handling = PYDATA_OPTIONS.get(name) or BOOK_THEME_OPTIONS.get(name)
        if isinstance(handling, Warned) and not _is_harmless(value, handling.harmless):
            _warn_option(app, name, f"has no effect: {handling.instead}")
    for slot in _SLOTS:
        if slot not in given:
            continue
        components = _components(given[slot])
        for component in components:
            if component in _UNDRAWN_COMPONENTS:
                _warn_option(
                    app,
                    slot,
                    f"names {component!r}, which this theme does not draw: "
                    f"{_UNDRAWN_COMPONENTS[component]}",
                )
        if any(component in _UNDRAWN_COMPONENTS for component in components):
            options[slot] = [c for c in components if c not in _UNDRAWN_COMPONENTS]
    # pydata-sphinx-theme adds analytics scripts from another origin to every page.
    options.pop("analytics", None)
    # ... and requests an http(s) json_url at build time: the checks are made here.
    check = str(options.get("check_switcher", True)).strip().lower() not in ("false", "0", "")
    _SWITCHERS[builder] = _switcher(app, options, check)
    options["check_switcher"] = False
    _REPOSITORIES[builder] = _repository(app, options)
    _ANNOUNCEMENTS[builder] = _announcement(app, options)
    if _is_true(options.get("use_edit_page_button")) and _REPOSITORIES[builder] is None:
        _check_edit_context(app)


_EDIT_KEYS = (
    ("github_user", "github_repo", "github_version"),
    ("gitlab_user", "gitlab_repo", "gitlab_version"),
    ("bitbucket_user", "bitbucket_repo", "bitbucket_version"),
)


def _check_edit_context(app: Sphinx) -> None:
    context = app.config.html_context or {}
    if "edit_page_url_template" in context:
        return
    if any(all(context.get(k) not in (None, "None", "") for k in keys) for keys in _EDIT_KEYS):
        return
    _warn_option(
        app,
        "use_edit_page_button",
        "has no effect without html_context's github_user, github_repo and github_version "
        "(or gitlab_*, bitbucket_*, or edit_page_url_template); no Edit link is shown",
    )


def _edit_link(context: dict[str, Any]) -> tuple[str, str] | None:
    """(provider, URL) of the page's edit link, from pydata-sphinx-theme's function."""
    get: Callable[[], tuple[str, str]] | None = context.get("get_edit_provider_and_url")
    if get is None or not context.get("page_source_suffix") or not context.get("sourcename"):
        return None
    try:
        provider, url = get()
    except ExtensionError:  # reported once, at builder-inited
        return None
    return (provider or "", url) if is_safe_url(url) else None


def _external_links(value: Any) -> list[dict[str, str]]:
    links = []
    for entry in value if isinstance(value, list | tuple) else ():
        if isinstance(entry, Mapping) and entry.get("url") and entry.get("name"):
            url = str(entry["url"])
            if is_safe_url(url):
                links.append({"name": str(entry["name"]), "url": url})
    return links


_ATTRIBUTE_NAME = re.compile(r"[a-zA-Z_:][-a-zA-Z0-9_:.]*")
#: Set by the template itself (``rel`` too, unless the link sets it); an ``on...``
#: attribute would run script.
_OWN_ATTRIBUTES = frozenset({"href", "class", "title"})


def icon_link_attributes(link: Mapping[str, Any]) -> Markup:
    """An ``icon_links`` entry's ``attributes``, as pydata-sphinx-theme adds them to the
    link, escaped; event handlers and the attributes the template sets are left out."""
    attributes = link.get("attributes") if isinstance(link, Mapping) else None
    if not isinstance(attributes, Mapping):
        return Markup("")
    parts = [
        Markup(' {}="{}"').format(Markup(name), str(value))
        for name, value in attributes.items()
        if isinstance(name, str)
        and _ATTRIBUTE_NAME.fullmatch(name)
        and name.lower() not in _OWN_ATTRIBUTES
        and not name.lower().startswith("on")
    ]
    return Markup("").join(parts)


def add_options_to_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``, before pydata-sphinx-theme's handlers (which render each
    slot's components to drop the empty ones): the switcher, the external links,
    the edit link (a function: pydata-sphinx-theme's URL maker is added later)."""
    if not uses_playbook_theme(app):
        return
    switcher = _SWITCHERS.get(app.builder)
    context["playbook_switcher"] = switcher
    if switcher is not None and switcher.site_path and "pathto" in context:
        context["playbook_switcher_json"] = context["pathto"](switcher.json_url, 1)
    elif switcher is not None:
        context["playbook_switcher_json"] = switcher.json_url
    context["playbook_external_links"] = _external_links(context.get("theme_external_links"))
    context["playbook_icon_attributes"] = icon_link_attributes
    wanted = str(context.get("theme_use_edit_page_button")).lower() == "true"
    context["playbook_edit_link"] = lambda: _edit_link(context) if wanted else None
    # sphinx-book-theme's repository options.
    repository = _REPOSITORIES.get(app.builder)
    if repository is not None:
        _add_repository_context(repository, context)
    context["playbook_page_links"] = lambda: _page_links(app, context)
    context["playbook_repository_icon"] = _repository_icon_link(repository, context)
    announcement = _ANNOUNCEMENTS.get(app.builder)
    if announcement is not None:
        url, site_path = announcement
        if site_path and "pathto" in context:
            url = context["pathto"](url, 1)
        context["playbook_announcement_url"] = url


def keep_one_search_button(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``, after pydata-sphinx-theme made each slot a list of
    templates: ``navbar_persistent``'s search button, unless another slot has one."""
    if not uses_playbook_theme(app):
        return
    # pydata-sphinx-theme's navbar_persistent keeps search in the header whatever
    # navbar_end holds; a second search button, when another slot has one, is dropped.
    persistent = context.get("theme_navbar_persistent")
    if isinstance(persistent, list) and persistent:
        others = [
            item
            for slot in ("theme_navbar_start", "theme_navbar_center", "theme_navbar_end")
            for item in (context.get(slot) or [])
            if isinstance(context.get(slot), list)
        ]
        if _SEARCH_COMPONENTS & set(others):
            context["theme_navbar_persistent"] = [
                item for item in persistent if item not in _SEARCH_COMPONENTS
            ]


def setup_options(app: Sphinx) -> None:
    """Connect the handlers (public Sphinx events only)."""
    app.connect("builder-inited", check_theme_options, priority=priorities.CHECK_THEME_OPTIONS)
    app.connect("html-page-context", add_options_to_context, priority=priorities.OPTIONS_CONTEXT)
    app.connect("html-page-context", keep_one_search_button, priority=priorities.ONE_SEARCH_BUTTON)
