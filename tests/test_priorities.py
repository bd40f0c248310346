"""The priority table (sphinx_playbook/machinery/priorities.py) and the code agree,
and only the registry (sphinx_playbook/machinery/registry.py) returns pages to read
or write again.

Read from the package's source (its syntax tree), as a reviewer would check it:
every ``priority=`` given to ``app.connect`` or ``add_css_file`` and every
transform's ``default_priority`` names an entry of the table; every entry is
used; within each event (or kind of transform) the table lists its entries in
the order they run; the places the table's comments promise relative to
Sphinx's own handlers and transforms hold against the installed Sphinx; and
docs/architecture.md shows the same table.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import dataclass
from pathlib import Path

from docutils.transforms.frontmatter import DocInfo
from sphinx.application import Sphinx
from sphinx.transforms import AutoNumbering
from sphinx.transforms.post_transforms import ReferencesResolver
from sphinx.transforms.post_transforms.images import DataURIExtractor, ImageConverter

from sphinx_playbook.machinery import priorities

PACKAGE = Path(priorities.__file__).resolve().parent.parent
TABLE = Path(priorities.__file__).resolve()
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


@dataclass(frozen=True)
class Entry:
    name: str
    value: int
    line: int
    why: str


@dataclass(frozen=True)
class Use:
    """One priority given in the code: where, to what (``group``), and as what."""

    path: str
    line: int
    group: str  # an event name, "stylesheet", "transform" or "post-transform"
    name: str | None  # the table's entry it names, or None
    source: str


def table_entries(source: str) -> list[Entry]:
    """The table's entries in the order written, each with its ``#:`` comment."""
    lines = source.splitlines()
    entries = []
    for statement in ast.parse(source).body:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and statement.targets[0].id.isupper()
        ):
            continue
        assert isinstance(statement.value, ast.Constant), statement.targets[0].id
        comment = []
        number = statement.lineno - 2
        while number >= 0 and lines[number].startswith("#:"):
            comment.insert(0, lines[number][2:].strip())
            number -= 1
        entries.append(
            Entry(
                statement.targets[0].id, statement.value.value, statement.lineno, " ".join(comment)
            )
        )
    return entries


def _group_of_class(node: ast.ClassDef) -> str:
    bases = [ast.unparse(base) for base in node.bases]
    # Sphinx's ImageConverter is a post-transform (app.add_post_transform) by another name.
    post = any("PostTransform" in base or base == "ImageConverter" for base in bases)
    return "post-transform" if post else "transform"


def _named(value: ast.expr) -> str | None:
    """The table's entry ``value`` names (``priorities.NAME``), or None."""
    if (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Name)
        and value.value.id == "priorities"
    ):
        return value.attr
    return None


def priorities_used(path: Path, source: str) -> list[Use]:
    """Every priority ``source`` gives Sphinx."""
    tree = ast.parse(source)
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg != "priority":
                    continue
                function = ast.unparse(node.func).rsplit(".", 1)[-1]
                if function == "connect" and node.args and isinstance(node.args[0], ast.Constant):
                    group = str(node.args[0].value)
                elif function in {"add_css_file", "add_js_file"}:
                    group = function.removeprefix("add_").replace("_file", "")
                    group = "stylesheet" if group == "css" else "script"
                else:
                    group = function
                uses.append(
                    Use(str(path), node.lineno, group, _named(keyword.value), ast.unparse(keyword))
                )
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "default_priority"
                    for t in statement.targets
                ):
                    uses.append(
                        Use(
                            str(path),
                            statement.lineno,
                            _group_of_class(node),
                            _named(statement.value),
                            ast.unparse(statement),
                        )
                    )
    return uses


def package_uses() -> list[Use]:
    uses = []
    for path in sorted(PACKAGE.rglob("*.py")):
        uses += priorities_used(path.relative_to(PACKAGE.parent), path.read_text("utf-8"))
    return uses


ENTRIES = table_entries(TABLE.read_text("utf-8"))
VALUES = {entry.name: entry.value for entry in ENTRIES}


def groups() -> dict[str, list[Entry]]:
    """Each group's entries, in the table's order (each entry is used in one group)."""
    by_name = {entry.name: entry for entry in ENTRIES}
    found: dict[str, list[Entry]] = {}
    for use in package_uses():
        if use.name in by_name and by_name[use.name] not in found.get(use.group, []):
            found.setdefault(use.group, []).append(by_name[use.name])
    return {group: sorted(entries, key=lambda e: e.line) for group, entries in found.items()}


def test_the_scan_finds_every_kind_of_priority() -> None:
    """The scan itself: a number written back in is found, a name is not."""
    source = (
        "from ..machinery import priorities\n"
        "class A(SphinxPostTransform):\n    default_priority = 205\n"
        "class B(SphinxTransform):\n    default_priority = priorities.JOIN_FIGURE_LEGENDS\n"
        "def setup(app):\n"
        '    app.connect("html-page-context", f, priority=900)\n'
        '    app.connect("env-get-updated", g, priority=priorities.PAGES_TO_WRITE)\n'
        '    app.add_css_file("x.css", priority=300)\n'
    )
    uses = priorities_used(Path("example.py"), source)
    assert sorted((u.group, u.name or "") for u in uses) == [
        ("env-get-updated", "PAGES_TO_WRITE"),
        ("html-page-context", ""),
        ("post-transform", ""),
        ("stylesheet", ""),
        ("transform", "JOIN_FIGURE_LEGENDS"),
    ]


def test_every_priority_in_the_package_is_a_name_from_the_table() -> None:
    uses = package_uses()
    assert len(uses) >= 38  # the scan sees them all (39 when the table was made)
    numbers = [f"{u.path}:{u.line}: {u.source}" for u in uses if u.name is None]
    assert not numbers, "priorities written as numbers, not names from the table:\n" + "\n".join(
        numbers
    )
    unknown = [f"{u.path}:{u.line}: {u.source}" for u in uses if u.name not in VALUES]
    assert not unknown, unknown


def test_every_name_in_the_table_is_used_in_one_place_of_one_kind() -> None:
    used: dict[str, set[str]] = {}
    for use in package_uses():
        if use.name:
            used.setdefault(use.name, set()).add(use.group)
    assert sorted(set(VALUES) - set(used)) == [], "entries of the table nothing uses"
    shared = {name: sorted(g) for name, g in used.items() if len(g) > 1}
    assert not shared, f"entries used at more than one event or kind: {shared}"


def test_the_table_lists_each_event_in_the_order_it_runs() -> None:
    for group, entries in groups().items():
        values = [entry.value for entry in entries]
        assert values == sorted(values), (
            f"{group}: {[(e.name, e.value) for e in entries]} are not in the order they run"
        )


def test_every_entry_says_why_it_runs_there() -> None:
    assert all(entry.why for entry in ENTRIES), [e.name for e in ENTRIES if not e.why]


def test_the_places_relative_to_sphinx_hold() -> None:
    """What the table's comments promise, against the installed Sphinx and docutils."""
    default = inspect.signature(Sphinx.connect).parameters["priority"].default
    p = priorities
    # Sphinx's own handlers (collectors, pydata-sphinx-theme, most extensions) run at 500.
    assert default > p.CHECK_CONFIG and default > p.ENABLE_MYST_EXTENSIONS
    assert default < p.CHOOSE_MATH_RENDERER and default < p.ENABLE_CITATIONS
    assert p.CHECK_THEME_OPTIONS < default < p.FREEZE_LONG_LIVED
    assert default < p.COLLECT_PREVIEWS  # after the ImageCollector
    assert default < p.PAGES_TO_WRITE  # after the TocTreeCollector and the features
    assert p.OPTIONS_CONTEXT < default < p.ONE_SEARCH_BUTTON < p.NOTE_LINKED_FILES
    assert max(p.NOTE_LINKED_FILES, p.CUT_LIFTED_TITLE) == p.CUT_LIFTED_TITLE
    assert default < p.KEEP_CACHE_OUT_OF_EPUB and default < p.PRECOMPRESS
    assert p.BUILD_ENDS > p.PRECOMPRESS
    # Transforms and post-transforms.
    assert AutoNumbering.default_priority > p.JOIN_FIGURE_LEGENDS
    assert DocInfo.default_priority > p.READ_DOCINFO_FIELDS
    assert ReferencesResolver.default_priority < p.ADD_PREVIEWS
    assert ImageConverter.default_priority < min(p.PAPER_LAYOUT, p.PAPER_MATH)
    assert DataURIExtractor.default_priority < p.SVG_TO_PDF < ImageConverter.default_priority
    assert p.ADD_PREVIEWS < p.SIZE_IMAGES < p.NUMBER_CITATIONS < p.BUILD_APPENDIX
    assert p.DARK_VARIANTS < p.HTML_COMPONENTS < p.TRANSPARENT_BACKDROPS < p.SIZE_IMAGES
    assert p.INTERACTIVE_FRAMES < p.SIZE_IMAGES
    post = [e.value for e in groups()["post-transform"]]
    assert max(post) == p.COPY_THUMBNAIL
    # Stylesheets: Sphinx links its own at 200, others at 500 by default.
    assert p.PYGMENTS_STYLESHEET <= p.MATH_STYLESHEET < default < p.PRINT_STYLESHEET


_ROW = re.compile(r"^\|\s*([^|]*?)\s*\|\s*`([A-Z_]+)`\s*\|\s*(\d+)\s*\|")


def test_the_architecture_page_shows_the_table() -> None:
    shown = [
        (m[1], m[2], int(m[3]))
        for line in ARCHITECTURE.read_text("utf-8").splitlines()
        if (m := _ROW.match(line))
    ]
    expected = [
        (group, entry.name, entry.value) for group, entries in groups().items() for entry in entries
    ]
    assert sorted(shown) == sorted(expected)


# -- one registry decides which pages are read and written again ------------------------

#: The events whose handlers' return values Sphinx reads and writes again.
PAGE_EVENTS = {"env-get-outdated", "env-updated", "env-get-updated"}
#: The one module whose handlers return pages.
REGISTRY = Path("sphinx_playbook/machinery/registry.py")


def _handlers(source: str) -> list[tuple[str, ast.expr]]:
    """(event, handler) of every ``app.connect`` to a page event in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func).endswith("connect")
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in PAGE_EVENTS
        ):
            found.append((str(node.args[0].value), node.args[1]))
    return found


def _module_file(path: Path, module: str | None, level: int, sources: dict[Path, str]) -> Path:
    """The file a relative import in ``path`` names."""
    base = path.parent
    for _ in range(level - 1):
        base = base.parent
    for part in (module or "").split(".") if module else ():
        base = base / part
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate in sources:
            return candidate
    return base


def _resolve(path: Path, handler: ast.expr, sources: dict[Path, str]) -> tuple[Path, str]:
    """The file and name of the function ``handler`` names, as connected in ``path``."""
    tree = ast.parse(sources[path])
    if isinstance(handler, ast.Attribute) and isinstance(handler.value, ast.Name):
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and any(
                (a.asname or a.name) == handler.value.id for a in node.names
            ):
                name = next(a.name for a in node.names if (a.asname or a.name) == handler.value.id)
                package = _module_file(path, node.module, node.level, sources)
                module = package.parent / name if package.name == "__init__.py" else package
                return _module_file(module / "x", None, 1, sources), handler.attr
        return path, handler.attr
    name = ast.unparse(handler)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any(
            (a.asname or a.name) == name for a in node.names
        ):
            original = next(a.name for a in node.names if (a.asname or a.name) == name)
            return _module_file(path, node.module, node.level, sources), original
    return path, name


def _returns_pages(function: ast.FunctionDef) -> list[str]:
    """The return statements of ``function`` (not of functions inside it) that may
    return a page: anything but nothing, None or ``[]``."""
    returns: list[str] = []
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            empty = (isinstance(value, ast.Constant) and value.value is None) or (
                isinstance(value, ast.List) and not value.elts
            )
            if not empty:
                returns.append(f"line {node.lineno}: {ast.unparse(node)}")
        todo.extend(ast.iter_child_nodes(node))
    return returns


def pages_returned_outside_the_registry(sources: dict[Path, str]) -> list[str]:
    """Handlers of the page events, outside the registry, that return pages."""
    handlers = {
        _resolve(path, handler, sources)
        for path, source in sources.items()
        for _event, handler in _handlers(source)
    }
    found = []
    for path, name in sorted(handlers):
        if path == REGISTRY or path not in sources:
            continue
        for node in ast.parse(sources[path]).body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                found += [f"{path}: {name}, {r}" for r in _returns_pages(node)]
    return found


def _package_sources() -> dict[Path, str]:
    return {
        path.relative_to(PACKAGE.parent): path.read_text("utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_only_the_registry_returns_pages_to_read_or_write() -> None:
    """Features note what pages show (machinery/registry.py); none returns pages
    from env-get-outdated, env-updated or env-get-updated itself."""
    sources = _package_sources()
    connected = {
        _resolve(path, handler, sources)
        for path, source in sources.items()
        for _event, handler in _handlers(source)
    }
    assert {
        (REGISTRY, "_pages_to_write"),
        (Path("sphinx_playbook/theme/navigation.py"), "update_navigation"),
        (Path("sphinx_playbook/citations/collect.py"), "on_env_updated"),
        (Path("sphinx_playbook/machinery/linked_assets.py"), "_stale_pages"),
        (Path("sphinx_playbook/math/assets.py"), "prepare_assets"),
    } <= connected
    assert pages_returned_outside_the_registry(sources) == []


def test_the_registry_scan_finds_a_feature_that_returns_pages() -> None:
    feature = (
        "def setup(app):\n"
        '    app.connect("env-updated", update_menu)\n'
        "def update_menu(app, env):\n"
        "    if env.first:\n        return []\n"
        "    return sorted(env.found_docs)\n"
    )
    found = pages_returned_outside_the_registry({Path("feature.py"): feature})
    assert found == ["feature.py: update_menu, line 6: return sorted(env.found_docs)"]
