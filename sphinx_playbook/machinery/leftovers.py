"""What a removed page or image leaves on the site goes with it.

Sphinx never deletes what it wrote: a page removed from the sources (or renamed)
stays on the site, reachable by old links and search engines and stale for ever,
and so do its copied source and the images no page shows any more. A fresh
build has none of them. For the HTML builders:

- ``env-get-outdated`` names the removed pages: each one's output file
  (``builder.get_outfilename``), copied source (``_sources/``, whatever its suffix
  was) and the files a feature writes beside it (:func:`remove_with_page`: the
  appendix's .bib) are deleted, and the folders they leave empty (dirhtml's);
- at ``build-finished`` the search index loses the words of removed text: Sphinx
  loads the last build's index, drops the pages read again, and keeps each word
  they alone held with no page (``"word":[]``); a fresh build has no such
  entry. The index is read and written with Sphinx's own serializer
  (``sphinx.search.js_index``), so the rest of it is unchanged, byte for byte;
- at ``env-get-updated`` the images Sphinx copied for the environment's pages
  (``env.images``: each file's name under ``builder.imagedir``) are compared with
  the last build's, and the names no page uses any more are deleted. Only those:
  other extensions write into the same folder.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment import BuildEnvironment
from sphinx.search import js_index

from .cache import write_atomically
from .state import SiteValue

#: The names under ``_images/`` of the environment's images, at the last build.
IMAGES: SiteValue[frozenset[str]] = SiteValue("copied_images", frozenset)

#: A file a page writes beside its own output: (builder, docname) -> path or None.
PageOutput = Callable[[StandaloneHTMLBuilder, str], Path | None]
#: Each application's :data:`PageOutput` functions (:func:`remove_with_page`).
_PAGE_OUTPUTS: weakref.WeakKeyDictionary[Sphinx, list[PageOutput]] = weakref.WeakKeyDictionary()


def remove_with_page(app: Sphinx, output: PageOutput) -> None:
    """At setup: ``output(builder, docname)`` names a file the page writes beside its
    own (None: none for this builder); it goes when the page is removed."""
    _PAGE_OUTPUTS.setdefault(app, []).append(output)


def _remove(path: Path, outdir: Path) -> None:
    """Delete a file, and the folders it leaves empty below ``outdir`` (dirhtml's)."""
    path.unlink(missing_ok=True)
    folder = path.parent
    while folder != outdir and outdir in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty
            return
        folder = folder.parent


def remove_pages(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    builder = app.builder
    if not removed or not isinstance(builder, StandaloneHTMLBuilder):
        return []
    outdir = Path(builder.outdir).resolve()
    sources = outdir / "_sources"
    for docname in removed - added:
        for output in _PAGE_OUTPUTS.get(app, ()):
            path = output(builder, docname)
            if path is not None and path.resolve().is_relative_to(outdir):
                _remove(path.resolve(), outdir)
        page = Path(builder.get_outfilename(docname)).resolve()
        if page.is_file() and page.is_relative_to(outdir):
            _remove(page, outdir)
        for copied in _copied_sources(sources, docname, app.config.source_suffix):
            _remove(copied, outdir)
    return []


def _copied_sources(sources: Path, docname: str, suffixes: Iterable[str]) -> set[Path]:
    """Where Sphinx copied a removed page's source: with a suffix of this build's, or
    of the last one (a conf.py that drops myst_nb drops ``.ipynb`` with it), which
    only the copy left under ``_sources/`` still says."""
    base = PurePosixPath(docname)
    folder = sources / base.parent
    names = {f"{base.name}{suffix}{txt}" for suffix in suffixes for txt in (".txt", "")}
    if folder.is_dir():
        copy = re.compile(re.escape(base.name) + r"\.[^.]+(\.txt)?")
        names |= {path.name for path in folder.iterdir() if copy.fullmatch(path.name)}
    return {folder / name for name in names}


def remove_images(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """env-get-updated (the images are known, the environment not yet pickled)."""
    builder = app.builder
    if not isinstance(builder, StandaloneHTMLBuilder):
        return []
    now = frozenset(name for _docnames, name in env.images.values())
    before = IMAGES.get(env)
    IMAGES.set(env, now)
    folder = Path(builder.outdir, builder.imagedir)
    for name in before - now:
        (folder / name).unlink(missing_ok=True)
    return []


def prune_search_index(app: Sphinx, exception: Exception | None) -> None:
    builder = app.builder
    if exception is not None or not isinstance(builder, StandaloneHTMLBuilder):
        return
    if builder.indexer is None or builder.indexer_format is not js_index:
        return
    path = Path(builder.outdir, builder.searchindex_filename)
    try:
        data = js_index.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    pruned = False
    for key in ("terms", "titleterms"):
        terms = data.get(key)
        if isinstance(terms, dict):
            kept = {word: pages for word, pages in terms.items() if pages != []}
            pruned = pruned or len(kept) != len(terms)
            data[key] = kept
    if pruned:
        write_atomically(path, js_index.dumps(data).encode("utf-8"))


def setup_leftovers(app: Sphinx) -> None:
    app.connect("env-get-outdated", remove_pages)
    app.connect("env-get-updated", remove_images)
    app.connect("build-finished", prune_search_index)
