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
from sphinx.builders import Builder

PREFIX = "playbook-"


def _keep_caches_out_of_epub(app: Sphinx, builder: Builder) -> None:
    """Add our files to ``epub_exclude_files`` once the environment (and its copy of
    the configuration) is pickled, so the next build sees an unchanged configuration."""
    if not builder.name.startswith("epub"):
        return
    outdir, doctrees = Path(app.outdir).resolve(), Path(app.doctreedir).resolve()
    if not doctrees.is_relative_to(outdir):
        return
    excluded = list(app.config.epub_exclude_files)
    for path in sorted(doctrees.glob(f"{PREFIX}*")):
        name = path.relative_to(outdir).as_posix()
        if name not in excluded:
            excluded.append(name)
    app.config.epub_exclude_files = excluded


def setup_caches(app: Sphinx) -> None:
    # write-started: after every cache is written (math at env-updated), before packing.
    app.connect("write-started", _keep_caches_out_of_epub)
