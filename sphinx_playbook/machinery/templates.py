"""Jinja's compiled templates kept in the cache folder (Jinja's own bytecode cache).

A rebuild after editing one page compiled all the theme's templates again, about
a tenth of its time. ``FileSystemBytecodeCache`` is Jinja's public API; it checks
each template's source itself, and the folder's name covers the rest of what the
compiled code depends on.
"""

from __future__ import annotations

import hashlib
import shutil
import sys

import jinja2
from sphinx.application import Sphinx

from .cache import cache_folder


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
    templates = cache_folder(app.doctreedir) / "templates"
    folder = templates / _compiled_form(environment)
    for old in templates.glob("*"):  # compiled by another Jinja or Python
        if old != folder:
            shutil.rmtree(old, ignore_errors=True)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # a read-only doctree directory: compile as Sphinx does
    environment.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))


def setup_templates(app: Sphinx) -> None:
    app.connect("builder-inited", _keep_compiled_templates)
