"""No import cycles in sphinx_playbook.

Every ``import`` of every module is read from its source (those inside functions and
under ``TYPE_CHECKING`` too: a deferred import is a cycle waiting for someone to hoist
it), the modules become a graph, and each strongly connected component of more than
one module is a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import sphinx_playbook

PACKAGE = Path(sphinx_playbook.__file__).parent

#: Cycles outside the importer, left to their owners (issue 44); a new cycle, or a
#: known one that grows, fails.
KNOWN = {
    frozenset({"sphinx_playbook", "sphinx_playbook.extension"}),
    frozenset({"sphinx_playbook.math.fonts", "sphinx_playbook.math.renderers"}),
}


def modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package at ``root``."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that the module ``name`` imports, anywhere in its code.

    ``from . import x`` depends on the module ``x`` when there is one, on the package
    otherwise (a name the package defines).
    """
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                prefix = package[: len(package) - node.level + 1]
                base = ".".join(prefix + ([node.module] if node.module else []))
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        found |= {target for target in targets if target in known and target != name}
    return found


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def graph_of(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_package_has_no_new_import_cycle() -> None:
    found = cycles(graph_of(PACKAGE))
    assert [sorted(cycle) for cycle in found if cycle not in KNOWN] == []


def test_the_importer_has_no_import_cycle() -> None:
    graph = graph_of(PACKAGE)
    importer = [name for name in graph if name.startswith("sphinx_playbook.cli.distill")]
    assert len(importer) > 5  # the package was read
    found = cycles({name: graph[name] & set(importer) for name in importer})
    assert [sorted(cycle) for cycle in found] == []


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        # A deferred import inside a function closes the cycle all the same.
        (
            {"a.py": "from . import b\n", "b.py": "def f():\n    from .a import x\n"},
            [["pkg.a", "pkg.b"]],
        ),
        # from . import NAME: the module NAME, else the package.
        ({"__init__.py": "from .a import x\n", "a.py": "from . import b\n", "b.py": ""}, []),
        (
            {"__init__.py": "from .a import x\n", "a.py": "from . import VERSION\n"},
            [["pkg", "pkg.a"]],
        ),
        # Absolute imports and packages below.
        (
            {"sub/__init__.py": "", "sub/c.py": "import pkg.a\n", "a.py": "from .sub import c\n"},
            [["pkg.a", "pkg.sub.c"]],
        ),
        ({"a.py": "from . import b\n", "b.py": "import os\n"}, []),
    ],
)
def test_cycles_are_found(tmp_path: Path, sources: dict[str, str], expected: list[list[str]]):
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **sources}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    assert sorted(sorted(cycle) for cycle in cycles(graph_of(root))) == expected
