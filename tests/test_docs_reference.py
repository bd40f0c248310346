"""docs/configuration.md cannot drift from the code: its tables are generated from the
``PlaybookConfig`` dataclass and theme.toml (docs/_ext/config_reference.py), every
setting and theme option has a row with its true default, a setting no table shows
is reported, and README.md's shorter reference agrees with the same defaults."""

from __future__ import annotations

import ast
import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag
from helpers import REPO, read_page, sphinx_build
from markdown_it import MarkdownIt

from sphinx_playbook.config import CONFIG_FIELDS, PREFIX
from sphinx_playbook.theme.options import BOOK_THEME_OPTIONS, OWN_OPTIONS, Honoured
from sphinx_playbook.theme.registration import THEME_DIR

EXTENSION_DIR = REPO / "docs" / "_ext"
COLUMNS = ["Type", "Default", "Example", "Meaning"]


def field_default(name: str) -> Any:
    """The value Sphinx gives ``playbook_<name>`` when conf.py does not set it."""
    f = CONFIG_FIELDS[name]
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def theme_options() -> dict[str, Any]:
    """theme.toml's ``[options]``, as Sphinx reads them."""
    with (THEME_DIR / "theme.toml").open("rb") as stream:
        options: dict[str, Any] = tomllib.load(stream)["options"]
    return options


#: sphinx-book-theme's options, which theme.toml declares so that Sphinx accepts them:
#: documented by the {playbook-book-theme-options} table, not by reference rows.
BOOK_ONLY = set(BOOK_THEME_OPTIONS) - set(OWN_OPTIONS)


def reference_options() -> dict[str, Any]:
    """theme.toml's options that the reference tables document."""
    return {name: raw for name, raw in theme_options().items() if name not in BOOK_ONLY}


def shown_as_in_theme_toml(shown: Any, raw: Any) -> bool:
    """Whether a default as the docs write it (conf.py syntax) is theme.toml's value:
    a list for a comma-separated string, ``True`` for ``"True"``, ``6`` for ``"6"``."""
    if isinstance(shown, int) and not isinstance(shown, bool) and isinstance(raw, str):
        return str(shown) == raw
    if isinstance(raw, list | bool) or not isinstance(shown, list | bool):
        return bool(shown == raw)
    if isinstance(shown, bool):
        return str(shown) == raw
    return ", ".join(shown) == raw


def reference_rows(page: BeautifulSoup) -> dict[str, dict[str, Tag]]:
    """Every row of the page's reference tables: first cell's text -> cell by heading."""
    rows: dict[str, dict[str, Tag]] = {}
    tables = page.select("table.playbook-reference")
    assert tables, "the page has reference tables"
    for table in tables:
        headings = [th.get_text(strip=True) for th in table.select("thead th")]
        assert headings[1:] == COLUMNS
        for tr in table.select("tbody tr"):
            cells = tr.find_all("td")
            name = cells[0].get_text(strip=True)
            assert name not in rows, f"{name} has two rows"
            rows[name] = dict(zip(headings[1:], cells[1:], strict=True))
    return rows


def literal(cell: Tag) -> Any:
    """The Python value a cell's code shows, as an author would paste it into conf.py."""
    code = cell.find("code")
    assert code is not None, cell
    return ast.literal_eval(code.get_text())


@pytest.fixture(scope="module")
def configuration_page(tmp_path_factory: pytest.TempPathFactory) -> BeautifulSoup:
    """docs/configuration.html as the documentation build writes it."""
    out = tmp_path_factory.mktemp("docs") / "html"
    sphinx_build("-q", "-b", "html", str(REPO / "docs"), str(out))
    return read_page(out, "configuration")


def test_every_setting_has_a_row_with_its_default(configuration_page):
    rows = reference_rows(configuration_page)
    for name, f in CONFIG_FIELDS.items():
        row = rows.get(PREFIX + name)
        assert row is not None, f"docs/configuration.md has no row for {PREFIX}{name}"
        assert literal(row["Default"]) == field_default(name), name
        assert row["Type"].get_text(strip=True) == f.metadata["expects"]
        example = literal(row["Example"])
        assert f.metadata["validate"](example), f"the example of {name} is not valid"
        assert example != field_default(name), f"the example of {name} is its default"
        assert row["Meaning"].get_text(strip=True), name


def test_every_theme_option_has_a_row_with_its_default(configuration_page):
    rows = reference_rows(configuration_page)
    for name, raw in reference_options().items():
        row = rows.get(name)
        assert row is not None, f"docs/configuration.md has no row for theme option {name}"
        shown = literal(row["Default"])
        assert shown_as_in_theme_toml(shown, raw), (name, shown, raw)
        literal(row["Example"])  # valid Python for html_theme_options
        assert row["Type"].get_text(strip=True) and row["Meaning"].get_text(strip=True), name


def test_every_book_theme_option_is_in_the_book_theme_table(configuration_page):
    """sphinx-book-theme's options: each in its table with what it does here."""
    table = configuration_page.select_one("table.playbook-book-theme-options")
    rows = {
        tr.find_all("td")[0].get_text(strip=True): tr.find_all("td")[1].get_text(strip=True)
        for tr in table.select("tbody tr")
    }
    assert set(rows) == set(BOOK_THEME_OPTIONS)
    for name, handling in BOOK_THEME_OPTIONS.items():
        warned = rows[name].startswith("Warned about (playbook.theme)")
        assert warned != isinstance(handling, Honoured), name


def test_the_empty_toc_title_is_documented_as_what_the_page_shows(configuration_page):
    """theme.toml's default is "", which the table of contents shows as "Table of Contents"."""
    assert theme_options()["toc_title"] == ""
    row = reference_rows(configuration_page)["toc_title"]
    assert literal(row["Default"]) == ""
    assert "Table of Contents" in row["Meaning"].get_text()


def _project(tmp_path: Path, page: str) -> Path:
    """A one-page MyST project that loads the docs' extension."""
    tmp_path.mkdir()
    (tmp_path / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(EXTENSION_DIR)!r})\n"
        'extensions = ["sphinx_playbook", "config_reference"]\n'
        'html_theme = "sphinx_playbook"\n'
        'project = "Reference"\n',
        encoding="utf-8",
    )
    (tmp_path / "index.md").write_text(page, encoding="utf-8")
    return tmp_path


def test_a_setting_no_table_shows_fails_the_build(make_app, tmp_path):
    """A new dataclass field or theme option, not yet in the docs, is a warning (-W: error)."""
    page = "# Reference\n\n```{playbook-config-table}\nplaybook_math\n```\n\n"
    page += "```{playbook-theme-options}\ntoc_title toc_open\n```\n"
    app = make_app("html", srcdir=_project(tmp_path / "src", page), builddir=tmp_path / "out")
    app.build()
    warnings = [line for line in app.warning.getvalue().splitlines() if "WARNING" in line]
    assert len(warnings) == 2, warnings
    config, theme = warnings
    assert "[config-reference.missing]" in config and "[config-reference.missing]" in theme
    assert "playbook_bibfiles" in config and "playbook_math," not in config
    assert "navbar_start" in theme and "toc_open" not in theme


def test_an_unknown_name_is_reported_at_its_line(make_app, tmp_path):
    page = "# Reference\n\n```{playbook-config-table}\nplaybook_maths\n```\n\n"
    page += "```{playbook-theme-options}\n```\n"
    app = make_app("html", srcdir=_project(tmp_path / "src", page), builddir=tmp_path / "out")
    app.build()
    warning = app.warning.getvalue()
    assert "index.md:3:" in warning and "'playbook_maths' is not one of" in warning
    assert "[config-reference.unknown]" in warning


def test_tables_without_names_show_everything(make_app, tmp_path):
    page = "# Reference\n\n```{playbook-config-table}\n```\n\n```{playbook-theme-options}\n```\n"
    app = make_app("html", srcdir=_project(tmp_path / "src", page), builddir=tmp_path / "out")
    app.build()
    assert app.warning.getvalue() == ""
    html = Path(app.outdir, "index.html").read_text(encoding="utf-8")
    rows = reference_rows(BeautifulSoup(html, "html.parser"))
    assert set(rows) == {PREFIX + name for name in CONFIG_FIELDS} | set(reference_options())


def _readme() -> BeautifulSoup:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return BeautifulSoup(MarkdownIt("commonmark").enable("table").render(text), "html.parser")


def test_readme_conf_py_table_has_every_setting_with_its_default():
    table = next(
        t for t in _readme().find_all("table") if t.th and t.th.get_text(strip=True) == "setting"
    )
    seen = set()
    for tr in table.select("tbody tr"):
        names_cell, defaults_cell = tr.find_all("td")[:2]
        names = [code.get_text() for code in names_cell.find_all("code")]
        defaults = [ast.literal_eval(code.get_text()) for code in defaults_cell.find_all("code")]
        if len(defaults) == 1:
            defaults *= len(names)
        assert len(defaults) == len(names), tr
        for name, default in zip(names, defaults, strict=True):
            assert name.startswith(PREFIX), name
            assert default == field_default(name.removeprefix(PREFIX)), name
            seen.add(name)
    assert seen == {PREFIX + name for name in CONFIG_FIELDS}


def test_readme_gives_the_own_theme_options_their_defaults():
    """README and configuration.md say the same: the default of toc_title is ""."""
    paragraph = next(p for p in _readme().find_all("p") if p.get_text().startswith("Own options"))
    codes = [code.get_text() for code in paragraph.find_all("code")]
    for name in ("toc_title", "toc_open"):
        shown = ast.literal_eval(codes[codes.index(name) + 1])
        assert shown_as_in_theme_toml(shown, theme_options()[name]), (name, shown)
