"""The files this package keeps between builds, beside Sphinx's doctrees.

They are named ``playbook-*`` in the doctree directory: the math cache, the parsed
.bib files, the font stamps, the compiled templates. ``sphinx-build -b epub SRC
OUT`` keeps its doctrees inside OUT, where the EPUB builder would pack them and
warn about their type (Sphinx's own environment.pickle has the same problem,
which authors fix with ``epub_exclude_files``); ours are left out without the author's help.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import jinja2
from sphinx.application import Sphinx

PREFIX = "playbook-"
_TEMPLATES = f"{PREFIX}templates-"


def _compiled_form(environment: jinja2.Environment) -> str:
    """What Jinja's compiled code depends on besides a template's source (which its
    cache checks itself): Jinja and Python, and the environment's syntax settings."""
    settings = [
        jinja2.__version__,
        sys.version,
        type(environment).__qualname__,
        *sorted(environment.extensions),
        *(
            repr(getattr(environment, name, None))
            for name in (
                "block_start_string", "block_end_string", "variable_start_string",
                "variable_end_string", "comment_start_string", "comment_end_string",
                "line_statement_prefix", "line_comment_prefix", "trim_blocks",
                "lstrip_blocks", "newline_sequence", "keep_trailing_newline", "optimized",
                "autoescape",
            )
        ),
    ]  # fmt: skip
    return hashlib.sha256("\0".join(settings).encode()).hexdigest()[:16]


def _keep_compiled_templates(app: Sphinx) -> None:
    """Keep the theme's templates compiled beside the doctrees, as Jinja's bytecode
    cache: a rebuild after editing one page compiled them all again, about a tenth
    of its time. Jinja compares each template's source with the one it compiled.
    """
    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if not isinstance(environment, jinja2.Environment) or environment.bytecode_cache:
        return  # not a template builder, or the author set a cache of their own
    doctrees = Path(app.doctreedir)
    folder = doctrees / f"{_TEMPLATES}{_compiled_form(environment)}"
    for old in doctrees.glob(f"{_TEMPLATES}*"):  # compiled by another Jinja or Python
        if old != folder:
            shutil.rmtree(old, ignore_errors=True)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # a read-only doctree directory: compile as Sphinx does
    environment.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))


def _keep_caches_out_of_epub(app: Sphinx) -> list[tuple[str, dict, str]]:
    """Add our files to ``epub_exclude_files`` once the environment (and its copy of
    the configuration) is pickled, so the next build sees an unchanged configuration.

    html-collect-pages is the last event before the EPUB builder packs its files:
    every cache of the build is written by then.
    """
    if not app.builder.name.startswith("epub"):
        return []
    outdir, doctrees = Path(app.outdir).resolve(), Path(app.doctreedir).resolve()
    if not doctrees.is_relative_to(outdir):
        return []
    excluded = list(app.config.epub_exclude_files)
    for path in sorted(doctrees.glob(f"{PREFIX}*")):
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            name = file.relative_to(outdir).as_posix()
            if file.is_file() and name not in excluded:
                excluded.append(name)
    app.config.epub_exclude_files = excluded
    return []


def setup_caches(app: Sphinx) -> None:
    app.connect("builder-inited", _keep_compiled_templates)
    # Late among the handlers: after the math assets and cache are written.
    app.connect("html-collect-pages", _keep_caches_out_of_epub, priority=900)
