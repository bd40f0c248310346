"""Only the static files the site uses: none of pydata-sphinx-theme's bundle.

The theme inherits pydata-sphinx-theme's templates and options but links none
of its CSS, JavaScript or fonts; Sphinx still copies every theme's ``static``
folder into ``_static`` (2.7 MB: Bootstrap, FontAwesome, their source maps, an
unrendered ``webpack-macros.html``). Sphinx has no setting to skip a parent
theme's folder, so at ``build-finished`` the files that came only from it are
removed again, when no page links any of them.

What stays, whatever its name:

- a file of this theme's folder, or of a theme inheriting from it;
- Sphinx's own (``basic``) files, which its search and pages need;
- an author's file: ``html_static_path``, ``html_logo``, ``html_favicon``, or
  ``_static/`` in ``html_extra_path`` (Sphinx copies them over the theme's);
- the whole bundle when any page, ``html_css_files``, ``html_js_files`` or
  ``html_style`` links one of its files (its files reference one another).

Sphinx copies the theme folders again at every build, incremental or not, and
the same files are removed again: ``_static`` is the same either way. Links
are read from each page's ``css_files`` and ``script_files`` after the other
``html-page-context`` handlers ran; pages written by ``-j`` worker processes
are not seen, but the search and index pages, written by the main process,
carry every link that is on all pages.
"""

from __future__ import annotations

import posixpath
import weakref
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import sphinx
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.util.matching import DOTFILES

from .registration import THEME_DIR, uses_playbook_theme

_SPHINX_THEMES = (Path(sphinx.__file__).parent / "themes").resolve()
_OURS = THEME_DIR.resolve()
#: Suffixes Sphinx renders a static file through (``x.css_t`` is written as ``x.css``).
_TEMPLATE_SUFFIXES = ("_t", ".jinja")

#: Per builder: the ``_static/...`` paths the pages written in this build link.
_LINKED: weakref.WeakKeyDictionary[StandaloneHTMLBuilder, set[str]] = weakref.WeakKeyDictionary()


def _written_name(relative: str) -> str:
    for suffix in _TEMPLATE_SUFFIXES:
        if relative.endswith(suffix):
            return relative[: -len(suffix)]
    return relative


def _files(folder: Path) -> Iterator[str]:
    """The paths, relative to ``folder``, Sphinx writes when it copies the folder."""
    if folder.is_file():
        yield folder.name
        return
    if not folder.is_dir():
        return
    for path in folder.rglob("*"):
        relative = path.relative_to(folder).as_posix()
        if path.is_file() and not DOTFILES(relative):
            yield _written_name(relative)


def _theme_static_folders(builder: StandaloneHTMLBuilder) -> tuple[list[Path], list[Path]]:
    """(kept, parents): the static folders of this theme and its children, of
    Sphinx's own themes; and those of the themes this one inherits."""
    kept: list[Path] = []
    parents: list[Path] = []
    below_ours = False
    for theme_dir in builder.theme.get_theme_dirs():
        resolved = Path(theme_dir).resolve()
        static = resolved / "static"
        if resolved == _OURS:
            below_ours = True
            kept.append(static)
        elif below_ours and not resolved.is_relative_to(_SPHINX_THEMES):
            parents.append(static)
        else:
            kept.append(static)
    return kept, parents


def _authors_files(app: Sphinx) -> set[str]:
    """Paths under ``_static`` an author's settings put there."""
    config, confdir = app.config, Path(app.confdir)
    files: set[str] = set()
    for entry in config.html_static_path:
        files.update(_files(confdir / entry))
    for setting in (config.html_logo, config.html_favicon):
        if setting and "://" not in setting:
            files.add(Path(setting).name)
    for entry in config.html_extra_path:
        files.update(_files(confdir / entry / "_static"))
    return files


def _configured_links(app: Sphinx, builder: StandaloneHTMLBuilder) -> set[str]:
    """``_static/...`` paths conf.py and the theme link from every page."""
    config = app.config
    names = [entry[0] for entry in (*config.html_css_files, *config.html_js_files)]
    style = config.html_style
    if isinstance(style, str):
        names.append(style)
    elif style is not None:
        names.extend(style)
    else:
        stylesheets = builder.theme.get_config("theme", "stylesheet", "")
        names.extend(s.strip() for s in stylesheets.split(",") if s.strip())
    local = [name for name in names if isinstance(name, str) and name and "://" not in name]
    return {posixpath.join("_static", name) for name in local}


def _filename(asset: Any) -> str:
    return str(getattr(asset, "filename", asset) or "")


def note_linked_files(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context`` (late): the stylesheets and scripts this page links."""
    builder = app.builder
    if not isinstance(builder, StandaloneHTMLBuilder) or not uses_playbook_theme(app):
        return
    linked = _LINKED.setdefault(builder, set())
    for key in ("css_files", "script_files"):
        linked.update(_filename(asset) for asset in context.get(key) or ())


def parent_theme_files(app: Sphinx, linked: Iterable[str]) -> set[str]:
    """The ``_static`` paths to remove: those only the parent themes' folders
    provide, unless one of them is linked (``linked`` holds ``_static/...`` paths)."""
    builder = app.builder
    assert isinstance(builder, StandaloneHTMLBuilder)
    kept, parents = _theme_static_folders(builder)
    candidates = {relative for folder in parents for relative in _files(folder)}
    candidates -= {relative for folder in kept for relative in _files(folder)}
    candidates -= _authors_files(app)
    linked_paths = {posixpath.normpath(path) for path in linked}
    if any(posixpath.join("_static", relative) in linked_paths for relative in candidates):
        return set()
    return candidates


def remove_parent_theme_files(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: remove the parent themes' static files no page links,
    and the folders that leaves empty."""
    builder = app.builder
    if exception is not None or not isinstance(builder, StandaloneHTMLBuilder):
        return
    if not uses_playbook_theme(app):
        return
    linked = _LINKED.pop(builder, set()) | _configured_links(app, builder)
    static = Path(builder.outdir, "_static")
    folders: set[Path] = set()
    for relative in parent_theme_files(app, linked):
        path = static / relative
        if path.is_file():
            path.unlink()
            folders.update(p for p in path.parents if p.is_relative_to(static) and p != static)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
