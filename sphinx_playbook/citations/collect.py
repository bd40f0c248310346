"""Read phase: which keys each page cites, in order, and the entries they point to.

The entries a page cites are stored with the page in the environment, so the
write phase (possibly in another process) needs no .bib file, and every .bib a
page uses is a dependency of that page: editing it re-reads exactly the pages
that use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ..config import read_config
from ..diagnostics import PlaybookWarning, warn
from ..metadata import page_metadata
from .bibliography import Bibliography, Reference, read_bibliography
from .roles import cite_ref

_CACHE: dict[tuple[Path, int, int], Bibliography] = {}


@dataclass
class CitedPage:
    """The citations of one page: keys in order of first appearance, and their entries."""

    keys: list[str] = field(default_factory=list)
    references: dict[str, Reference] = field(default_factory=dict)


def load(path: Path) -> Bibliography:
    """Read ``path`` once per process and version of the file."""
    try:
        stat = path.stat()
    except OSError:
        return read_bibliography(path)
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _CACHE:
        _CACHE[key] = read_bibliography(path)
    return _CACHE[key]


def site_bibfiles(app: Sphinx) -> list[Path]:
    return [Path(app.confdir, name) for name in read_config(app.config).bibfiles]


def report_problems(bibliography: Bibliography, shown: str) -> None:
    """One warning per problem, located at the .bib file and line pybtex reported."""
    for line, message in bibliography.problems:
        location = f"{shown}:{line}" if line else shown
        warn(message, PlaybookWarning.CITATION, location)


def _store(env: BuildEnvironment) -> dict[str, CitedPage]:
    if not hasattr(env, "playbook_citations"):
        env.playbook_citations = {}
    return env.playbook_citations


def cited_page(env: BuildEnvironment, docname: str) -> CitedPage | None:
    return _store(env).get(docname)


def on_builder_inited(app: Sphinx) -> None:
    """Warn once about the site-wide .bib files (pages' own files warn where used)."""
    if read_config(app.config).citation_numbering == "book":
        warn(
            "playbook_citation_numbering = 'book' is not supported yet; citations are "
            "numbered per page",
            PlaybookWarning.CONFIG,
        )
    for path in site_bibfiles(app):
        if not path.exists():
            warn(
                f"playbook_bibfiles: {path} does not exist; fix the path (relative to conf.py)",
                PlaybookWarning.CITATION,
            )
            continue
        report_problems(load(path), str(path))


def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    docname = env.docname
    citations = list(doctree.findall(cite_ref))
    _store(env).pop(docname, None)
    if not citations:
        return
    entries: dict[str, Reference] = {}
    for path in site_bibfiles(app) + _page_bibfiles(env, docname):
        if not path.exists():
            continue  # reported at builder-inited or in _page_bibfiles
        env.note_dependency(str(path))
        for key, reference in load(path).entries.items():
            entries.setdefault(key, reference)
    page = CitedPage()
    for node in citations:
        for key in node["keys"]:
            if key not in entries:
                warn(
                    f"unknown citation key {key!r}; add it to a .bib file or fix the key",
                    PlaybookWarning.CITATION,
                    node,
                )
                continue
            if key not in page.references:
                page.keys.append(key)
                page.references[key] = entries[key]
    _store(env)[docname] = page


def _page_bibfiles(env: BuildEnvironment, docname: str) -> list[Path]:
    paths = []
    for name in page_metadata(env, docname).bibliography:
        _relative, absolute = env.relfn2path(name, docname)
        path = Path(absolute)
        if not path.exists():
            warn(
                f"front matter key 'bibliography': {name!r} does not exist; "
                "give a path relative to this page",
                PlaybookWarning.CITATION,
                (docname, None),
            )
            continue
        bibliography = load(path)
        if bibliography.problems:
            report_problems(bibliography, name)
        paths.append(path)
    return paths


def on_env_purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _store(env).pop(docname, None)


def on_env_merge_info(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    theirs = _store(other)
    for docname in docnames:
        if docname in theirs:
            _store(env)[docname] = theirs[docname]
