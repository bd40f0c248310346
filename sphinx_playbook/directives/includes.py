"""A guard against Markdown files that include themselves.

docutils stops a circular reST ``include`` with an error; MyST's ``{include}``
recurses until Python's stack runs out and the whole build stops with a
RecursionError. MyST emits Sphinx's ``include-read`` event before it parses an
included file, with the including file's name: enough to follow the chain of
includes back to the page and cut the loop where it closes, with a warning.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from ..diagnostics import PlaybookWarning, warn
from ..source_types import is_markdown_source

#: ``env.temp_data`` key: for each file included in the page being read, its includer's stem.
_INCLUDERS = "playbook_includers"


def _line_naming(path: Path, name: str) -> int | None:
    """The first line of ``path`` that mentions ``name`` (the include directive)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return next((number for number, line in enumerate(lines, 1) if name in line), None)


def _on_include_read(
    app: Sphinx, relative_path: Path, parent_docname: str, content: list[str]
) -> None:
    env = app.env
    page = Path(env.docname).name
    if not is_markdown_source(app, env.doc2path(env.docname)):
        return  # docutils stops circular reST includes itself
    if _INCLUDERS not in env.temp_data:
        env.temp_data[_INCLUDERS] = {}
    includers: dict[Path, str] = env.temp_data[_INCLUDERS]
    target = Path(relative_path)
    includer_stem = Path(parent_docname).name
    chain = [target]
    stem = includer_stem
    seen: set[Path] = set()
    while stem != page:
        includer = next((p for p in includers if p.stem == stem and p not in seen), None)
        if includer is None:
            break
        seen.add(includer)
        chain.append(includer)
        if includer == target:
            shown = " > ".join(p.as_posix() for p in reversed(chain))
            source = Path(env.srcdir, chain[1])
            line = _line_naming(source, target.name)
            warn(
                f"include: {target.as_posix()} includes itself ({shown}); the repeated "
                "include is left out, remove one of these include directives",
                PlaybookWarning.INCLUDE,
                f"{source}:{line}" if line else str(source),
            )
            content[0] = ""
            return
        stem = includers[includer]
    includers[target] = includer_stem


def setup_include_guard(app: Sphinx) -> None:
    app.connect("include-read", _on_include_read)
