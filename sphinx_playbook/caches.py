"""The files this package keeps between builds, beside Sphinx's doctrees.

They are named ``playbook-*`` in the doctree directory: the math cache, the parsed
.bib files, the font stamps. ``sphinx-build -b epub SRC OUT`` keeps its doctrees
inside OUT, where the EPUB builder would pack them and warn about their type
(Sphinx's own environment.pickle has the same problem, which authors fix with
``epub_exclude_files``); ours are left out without the author's help.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

PREFIX = "playbook-"


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
        name = path.relative_to(outdir).as_posix()
        if name not in excluded:
            excluded.append(name)
    app.config.epub_exclude_files = excluded
    return []


def setup_caches(app: Sphinx) -> None:
    # Late among the handlers: after the math assets and cache are written.
    app.connect("html-collect-pages", _keep_caches_out_of_epub, priority=900)
