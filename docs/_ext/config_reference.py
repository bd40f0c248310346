"""The reference tables of docs/configuration.md, generated from the code.

``{playbook-config-table}`` lists ``playbook_*`` values from the dataclass
:class:`sphinx_playbook.config.PlaybookConfig` (type: the field's ``expects``;
default: the field's default; meaning and example: its ``doc`` and ``example``
metadata). ``{playbook-theme-options}`` lists the ``[options]`` of the theme's
theme.toml, with defaults read from that file and the meaning of each option
from :data:`THEME_OPTIONS` below (theme.toml's own comments are for its
readers, not parsed). The content of either directive, if any, names the rows
to show, in order; once every page is read, a value or option that no table
shows is reported, so the page cannot fall behind the code (the docs build with
``-W``). ``{playbook-pydata-options}`` lists every option of pydata-sphinx-theme
and what this theme does with it (``theme/options.py``).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Iterable, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.domains import Domain
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import sphinx_playbook.config as config_module
import sphinx_playbook.theme.options as options_module
from sphinx_playbook import __version__
from sphinx_playbook.config import CONFIG_FIELDS, PREFIX
from sphinx_playbook.theme.registration import THEME_DIR

logger = logging.getLogger(__name__)

#: The warning type of this extension's messages (``suppress_warnings`` key).
WARNING_TYPE = "config-reference"

CONFIG_TABLE = "config"
THEME_TABLE = "theme"


@dataclass(frozen=True)
class ThemeOption:
    """What the docs say of one theme option; its default comes from theme.toml."""

    kind: str  # a key of KINDS: how the option is written and read
    doc: str  # MyST inline markup
    example: Any  # a value as written in html_theme_options


#: How each kind of option is written in conf.py, and how theme.toml's value
#: (a string, as Sphinx theme options are) reads as that kind.
KINDS: dict[str, str] = {
    "components": "a list of component names (or one comma-separated string)",
    "flag": "True or False",
    "number": "a whole number",
    "text": "text",
}

_NO_EFFECT = (
    "Not drawn: the page has no {what}. Another value than this one gives a "
    "`playbook.theme` warning."
)

#: Every option of theme.toml's ``[options]``: the ones this theme adds and the
#: pydata-sphinx-theme ones it sets a value for.
THEME_OPTIONS: dict[str, ThemeOption] = {
    "toc_title": ThemeOption(
        "text",
        "The heading of the in-page table of contents. Empty shows *Table of Contents*, "
        "translated into the project's `language`.",
        "Contents",
    ),
    "toc_open": ThemeOption(
        "flag",
        "On windows at least 1200 px wide the table of contents sits open in the left "
        "margin; `False` starts it collapsed there too. Narrower windows always show it "
        "as a collapsed block above the article.",
        False,
    ),
    "navbar_start": ThemeOption(
        "components",
        "The start of the header bar: the project name or logo.",
        ["navbar-logo", "theme-switcher"],
    ),
    "navbar_center": ThemeOption(
        "components",
        "The middle of the header bar: the *Chapters* menu. `[]` drops it, e.g. for a "
        "single-page article.",
        [],
    ),
    "navbar_persistent": ThemeOption(
        "components",
        "Between the middle and the end of the header bar: search, whatever "
        "`navbar_end` holds, as in pydata-sphinx-theme. It is left out when another "
        "slot already has a search component.",
        ["search-field"],
    ),
    "navbar_end": ThemeOption(
        "components",
        "The end of the header bar: the colour-mode switch, the icon links.",
        ["version-switcher", "theme-switcher", "navbar-icon-links"],
    ),
    "header_dropdown_text": ThemeOption(
        "text",
        "The label of the chapters menu. Empty shows *Chapters*, translated into the "
        "project's `language`.",
        "Contents",
    ),
    "footer_start": ThemeOption(
        "components",
        "The start of the footer. Sphinx's `last-updated` component works once "
        "`html_last_updated_fmt` is set.",
        ["copyright", "last-updated"],
    ),
    "footer_end": ThemeOption(
        "components",
        "The end of the footer (`footer_center`, inherited and empty, is the middle).",
        ["sphinx-version"],
    ),
    "article_header_start": ThemeOption(
        "components",
        "A small row above the title block, at its start. `breadcrumbs` shows the way "
        "from the front page on pages deeper than one level.",
        [],
    ),
    "article_header_end": ThemeOption(
        "components",
        "The end of that row. `article-header-buttons` holds the *Edit on GitHub* link of "
        "`use_edit_page_button` and sphinx-book-theme's source, issues and download "
        "links; `edit-this-page` is the Edit link alone.",
        [],
    ),
    "show_toc_level": ThemeOption(
        "number",
        "The levels of the table of contents always shown. Deeper levels open for the "
        "section being read (with JavaScript) or focused.",
        2,
    ),
    "article_footer_items": ThemeOption("components", _NO_EFFECT.format(what="article footer"), []),
    "content_footer_items": ThemeOption("components", _NO_EFFECT.format(what="content footer"), []),
    "primary_sidebar_end": ThemeOption("components", _NO_EFFECT.format(what="primary sidebar"), []),
    "secondary_sidebar_items": ThemeOption(
        "components",
        _NO_EFFECT.format(what="secondary sidebar; its table of contents is its own"),
        [],
    ),
    "back_to_top_button": ThemeOption(
        "flag", "`True` puts a *Back to top* link at the top of the footer.", True
    ),
    "shorten_urls": ThemeOption(
        "flag",
        "`True` shows links to GitHub and GitLab issues, pull requests and repositories "
        "as `owner/repo#123` (pydata-sphinx-theme's link shortening).",
        True,
    ),
    "disable_search": ThemeOption(
        "flag", "`True` removes the search button, field and dialog.", True
    ),
    "sticky_banners": ThemeOption(
        "flag",
        "The header and its banners scroll with the page; `True` gives a "
        "`playbook.theme` warning.",
        False,
    ),
    "templates_skip_empty_check": ThemeOption(
        "components",
        "Components placed in a slot without being rendered first to see whether they "
        "are empty, as in pydata-sphinx-theme.",
        ["navbar-nav.html"],
    ),
}


def python_literal(value: Any) -> str:
    """``value`` as an author writes it in conf.py (double quotes, like the docs)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(python_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{python_literal(k)}: {python_literal(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    raise TypeError(f"no conf.py spelling for {type(value).__name__} values")


def field_default(f: dataclasses.Field[Any]) -> Any:
    """The value a ``playbook_*`` setting has when conf.py does not set it."""
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def config_names() -> list[str]:
    """The ``playbook_*`` settings, in the dataclass's order."""
    return [PREFIX + name for name in CONFIG_FIELDS]


def theme_toml_path() -> Path:
    """The theme.toml that Sphinx loads for ``html_theme = "sphinx_playbook"``."""
    return THEME_DIR / "theme.toml"


def theme_toml_options() -> dict[str, Any]:
    """The ``[options]`` of the installed theme's theme.toml, as written there."""
    with theme_toml_path().open("rb") as stream:
        options: dict[str, Any] = tomllib.load(stream)["options"]
    return options


def read_option(kind: str, raw: Any) -> Any:
    """theme.toml's value of an option, read as an author would write it in conf.py."""
    if kind == "components":
        if isinstance(raw, list):
            return raw
        return [item.strip() for item in str(raw).split(",") if item.strip()]
    if kind == "number":
        return int(raw)
    if kind == "flag":
        if isinstance(raw, bool):
            return raw
        # As the templates read it, through Sphinx's ``tobool`` filter.
        return str(raw).strip().lower() in ("true", "1", "yes", "on")
    return raw


class ReferenceDomain(Domain):
    """Which rows each page's tables show; kept per page for incremental and -j builds."""

    name = "playbook-reference"
    label = "sphinx_playbook reference tables"
    initial_data: ClassVar[dict[str, Any]] = {"shown": {}}  # docname -> [(table, name)]
    data_version = 1

    @property
    def shown(self) -> dict[str, list[tuple[str, str]]]:
        return self.data["shown"]

    def note_shown(self, docname: str, table: str, names: Iterable[str]) -> None:
        self.shown.setdefault(docname, []).extend((table, name) for name in names)

    def clear_doc(self, docname: str) -> None:
        self.shown.pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for docname in docnames:
            if docname in otherdata["shown"]:
                self.shown[docname] = otherdata["shown"][docname]

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        return []  # the domain holds no cross-reference targets


class ReferenceTable(SphinxDirective):
    """A table of settings, one row each: name, type, default, example, meaning."""

    has_content = True  # the names of the rows to show, in order; empty: all
    table: ClassVar[str]  # the key under which the domain notes the rows shown
    heading: ClassVar[str]  # the first column's heading
    kind_of_rows: ClassVar[str]  # for messages

    def all_names(self) -> list[str]:
        raise NotImplementedError

    def row(self, name: str) -> tuple[str, str, Any, str]:
        """(type, default as written in conf.py, example value, meaning) of one row."""
        raise NotImplementedError

    def dependencies(self) -> list[str]:
        """The files the rows come from: a change re-reads the page, even with no -E."""
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        for path in (*self.dependencies(), __file__):
            self.env.note_dependency(path)
        known = self.all_names()
        names = known
        if self.content:
            asked = " ".join(self.content).replace(",", " ").split()
            for name in asked:
                if name not in known:
                    logger.warning(
                        "%s: %r is not one of the %s; they are: %s",
                        self.name,
                        name,
                        self.kind_of_rows,
                        ", ".join(known),
                        type=WARNING_TYPE,
                        subtype="unknown",
                        location=self.get_location(),
                    )
            names = [name for name in asked if name in known]
        domain = self.env.get_domain(ReferenceDomain.name)
        assert isinstance(domain, ReferenceDomain)
        domain.note_shown(self.env.docname, self.table, names)
        messages: list[nodes.Node] = []
        rows: list[list[list[nodes.Node]]] = []
        for name in names:
            kind, default, example, doc = self.row(name)
            meaning, problems = self.parse_inline(doc, lineno=self.lineno)
            messages.extend(problems)
            example_text = python_literal(example)
            rows.append(
                [
                    [nodes.literal(name, name)],
                    # Quotes in it are Python's: no typographic quotes.
                    [nodes.inline(kind, kind, support_smartquotes=False)],
                    [nodes.literal(default, default)],
                    [nodes.literal(example_text, example_text)],
                    meaning,
                ]
            )
        return [self.table_node(rows), *messages]

    def table_node(self, rows: list[list[list[nodes.Node]]]) -> nodes.table:
        headings = (self.heading, "Type", "Default", "Example", "Meaning")
        widths = (22, 20, 14, 18, 26)
        table = nodes.table(classes=["playbook-reference", "l-page"])
        group = nodes.tgroup(cols=len(headings))
        table += group
        group.extend(nodes.colspec(colwidth=width) for width in widths)
        head = nodes.thead()
        head += nodes.row("", *(nodes.entry("", nodes.paragraph(text=h)) for h in headings))
        group += head
        body = nodes.tbody()
        for cells in rows:
            body += nodes.row("", *(nodes.entry("", nodes.paragraph("", "", *c)) for c in cells))
        group += body
        return table


class ConfigTable(ReferenceTable):
    """``{playbook-config-table}``: the ``playbook_*`` values of conf.py."""

    table = CONFIG_TABLE
    heading = "Setting"
    kind_of_rows = "playbook_* settings"

    def all_names(self) -> list[str]:
        return config_names()

    def dependencies(self) -> list[str]:
        return [config_module.__file__ or ""]

    def row(self, name: str) -> tuple[str, str, Any, str]:
        f = CONFIG_FIELDS[name.removeprefix(PREFIX)]
        default = python_literal(field_default(f))
        return f.metadata["expects"], default, f.metadata["example"], f.metadata["doc"]


class ThemeOptionsTable(ReferenceTable):
    """``{playbook-theme-options}``: the ``[options]`` of the theme's theme.toml."""

    table = THEME_TABLE
    heading = "Option"
    kind_of_rows = "theme.toml options"

    def all_names(self) -> list[str]:
        return [name for name in theme_toml_options() if name not in BOOK_ONLY]

    def dependencies(self) -> list[str]:
        return [str(theme_toml_path())]

    def row(self, name: str) -> tuple[str, str, Any, str]:
        raw = theme_toml_options()[name]
        entry = THEME_OPTIONS.get(name)
        if entry is None:
            logger.warning(
                "theme.toml option %r has no entry in THEME_OPTIONS (%s)",
                name,
                __file__,
                type=WARNING_TYPE,
                subtype="undocumented",
                location=self.get_location(),
            )
            return "", python_literal(raw), raw, ""
        default = python_literal(read_option(entry.kind, raw))
        return KINDS[entry.kind], default, entry.example, entry.doc


#: sphinx-book-theme's options that only {playbook-book-theme-options} documents (it
#: prints them all): theme.toml declares them, no {playbook-theme-options} row needs to.
BOOK_ONLY = frozenset(options_module.BOOK_THEME_OPTIONS) - frozenset(THEME_OPTIONS)


class PydataOptionsTable(SphinxDirective):
    """``{playbook-pydata-options}``: every option pydata-sphinx-theme documents and
    what this theme does with it, from :data:`sphinx_playbook.theme.options.PYDATA_OPTIONS`
    (the test suite checks that table against the installed theme.conf)."""

    css_class = "playbook-pydata-options"

    def handlings(self) -> dict[str, Any]:
        return options_module.PYDATA_OPTIONS

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(options_module.__file__ or "")
        table = nodes.table(classes=[self.css_class, "l-page"])
        group = nodes.tgroup(cols=2)
        table += group
        group.extend(nodes.colspec(colwidth=width) for width in (30, 70))
        head = nodes.thead()
        head += nodes.row(
            "", *(nodes.entry("", nodes.paragraph(text=h)) for h in ("Option", "Here"))
        )
        group += head
        body = nodes.tbody()
        for name, handling in self.handlings().items():
            if isinstance(handling, options_module.Honoured):
                text = handling.what + "."
            else:
                text = f"Warned about (playbook.theme): {handling.instead}."
            cells = (nodes.literal(name, name), nodes.Text(text))
            body += nodes.row("", *(nodes.entry("", nodes.paragraph("", "", c)) for c in cells))
        group += body
        return [table]


class BookThemeOptionsTable(PydataOptionsTable):
    """``{playbook-book-theme-options}``: sphinx-book-theme's own options and what this
    theme does with each, from :data:`sphinx_playbook.theme.options.BOOK_THEME_OPTIONS`
    (tests/test_book_theme_options.py checks it against sphinx-book-theme's list)."""

    css_class = "playbook-book-theme-options"

    def handlings(self) -> dict[str, Any]:
        return options_module.BOOK_THEME_OPTIONS


def check_complete(app: Sphinx, env: BuildEnvironment) -> None:
    """Every setting has a row somewhere, and every documented option still exists."""
    domain = env.get_domain(ReferenceDomain.name)
    assert isinstance(domain, ReferenceDomain)
    shown = {row for rows in domain.shown.values() for row in rows}
    if not shown:
        return  # a project without reference tables
    expected = {
        (CONFIG_TABLE, "playbook-config-table"): config_names(),
        (THEME_TABLE, "playbook-theme-options"): [
            name for name in theme_toml_options() if name not in BOOK_ONLY
        ],
    }
    for (table, directive), names in expected.items():
        missing = [name for name in names if (table, name) not in shown]
        if missing:
            logger.warning(
                "no table shows %s; add them to a {%s} directive",
                ", ".join(missing),
                directive,
                type=WARNING_TYPE,
                subtype="missing",
            )
    stale = sorted(set(THEME_OPTIONS) - set(theme_toml_options()))
    if stale:
        logger.warning(
            "THEME_OPTIONS (%s) describes options theme.toml no longer has: %s",
            __file__,
            ", ".join(stale),
            type=WARNING_TYPE,
            subtype="stale",
        )


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the two directives and the completeness check."""
    app.add_domain(ReferenceDomain)
    app.add_directive("playbook-config-table", ConfigTable)
    app.add_directive("playbook-theme-options", ThemeOptionsTable)
    app.add_directive("playbook-pydata-options", PydataOptionsTable)
    app.add_directive("playbook-book-theme-options", BookThemeOptionsTable)
    app.connect("env-check-consistency", check_complete)
    return {
        "version": __version__,
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
