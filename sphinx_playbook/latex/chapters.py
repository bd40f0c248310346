"""A PDF per chapter, and one for the book (``playbook_pdf``).

A reader who wants one chapter on paper should not have to print the whole book,
and a chapter cited on its own needs a PDF of its own for Google Scholar. Each
chapter (a page the root page's toctrees list, :mod:`..pdf_links`) gets an entry of
``latex_documents``, so that Sphinx's LaTeX builder writes one ``.tex`` file per
chapter and ``make latexpdf`` compiles them all. The root toctree is known only
once the pages are read: the entries are added at ``write-started``, before the
LaTeX builder reads ``latex_documents`` (it does when it prepares writing). conf.py's
own entries are kept, and a chapter it names keeps its entry.

The LaTeX builder assembles one tree per entry: a chapter's PDF holds the chapter's
pages, their references and footnotes, nothing else. Its title block (writer.py)
gets the book's title above the chapter's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.util.texescape import escape

from ..config import read_config
from ..diagnostics import PlaybookWarning, warn
from ..machinery.registry import Shown, note_shown
from ..pdf_links import chapter_name, chapters, is_default, pdf_files
from ..scholarly import article_metadata, page_title
from .writer import title_block

#: What writer.py's title block starts with; the book's title goes right after it.
_TITLE_BLOCK_START = "\\begin{sphinxplaybooktitleblock}"


def latex_documents(app: Sphinx) -> list[tuple[Any, ...]]:
    """conf.py's ``latex_documents`` with an entry for each chapter it lacks; with
    ``"chapters"``, Sphinx's default entry for the whole book is left out."""
    config, env = app.config, app.env
    entries = [tuple(entry) for entry in config.latex_documents]
    if not chapters(env):  # warned about at env-get-updated: the book stays
        return entries
    if read_config(config).pdf == "chapters" and is_default(config, "latex_documents"):
        entries = [entry for entry in entries if entry[0] != config.root_doc]
    named = {entry[0] for entry in entries}
    for docname in chapters(env):
        if docname in named:
            continue
        meta = article_metadata(env, docname)
        authors = ", ".join(author.name for author in meta.authors or ()) or config.author
        entries.append(
            (
                docname,
                f"{chapter_name(config, docname)}.tex",
                escape(page_title(env, docname, meta), config.latex_engine),
                escape(authors, config.latex_engine),
                "howto",  # an article: its title block on page one, then sections
            )
        )
    return entries


def book_title(env: BuildEnvironment) -> str:
    """The root page's title (the book PDF's title block), else ``project``."""
    root = env.config.root_doc
    return page_title(env, root, article_metadata(env, root)) or env.config.project


class book_line(nodes.Element, nodes.General):
    """The book's title, set above a chapter's title in its title block."""


def visit_book_line(self: Any, node: book_line) -> None:
    maketitle = self.elements.get("maketitle", "")
    if _TITLE_BLOCK_START in maketitle:  # ours, not a maketitle of conf.py's
        title = escape(node["title"], self.config.latex_engine)
        self.elements["maketitle"] = maketitle.replace(
            _TITLE_BLOCK_START,
            f"{_TITLE_BLOCK_START}\n{{\\small\\scshape {title}\\par}}\\smallskip",
            1,
        )
    raise nodes.SkipNode


def _read_the_docs_pdf_step(builder: Builder) -> bool:
    """Whether this is Read the Docs' own PDF step (``formats: [pdf]``), which writes
    to ``$READTHEDOCS_OUTPUT/pdf`` and then runs ``latexmk -jobname=<project>`` with no
    file named: with more than one ``.tex`` file there, latexmk stops at once."""
    output = os.environ.get("READTHEDOCS_OUTPUT")
    if os.environ.get("READTHEDOCS") != "True" or not output:
        return False
    return Path(builder.outdir).resolve() == (Path(output) / "pdf").resolve()


def _add_chapter_documents(app: Sphinx, builder: Builder) -> None:
    """``write-started``: the chapters' entries, before the LaTeX builder reads them."""
    mode = read_config(app.config).pdf
    if builder.format != "latex" or mode == "book":
        return
    if _read_the_docs_pdf_step(builder):
        warn(
            f"conf.py: playbook_pdf = {mode!r}: Read the Docs' own PDF step (formats: "
            "[pdf]) compiles one .tex file and keeps one PDF, so this build writes the "
            "book's alone; build the chapters in build.jobs.build.pdf of "
            ".readthedocs.yaml instead (docs: Print and PDF, A PDF per chapter)",
            PlaybookWarning.CONFIG,
        )
        return
    app.config.latex_documents = latex_documents(app)


def _name_the_book(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` of a chapter's assembled tree: the book's title after the
    title block (transforms.py put it first), for the writer to set above the title."""
    if app.builder.format != "latex" or read_config(app.config).pdf == "book":
        return
    if docname == app.config.root_doc or docname not in chapters(app.env):
        return
    block = next(doctree.findall(title_block), None)
    if block is not None and block.parent is not None:
        line = book_line("", title=book_title(app.env))
        block.parent.insert(block.parent.index(block) + 1, line)


def _note_links(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: which PDF each page links, for the registry: a page that
    becomes a chapter, or stops being one, is written again. A book without
    chapters to make PDFs of is told so."""
    note_shown(env, Shown.CHAPTERS, pdf_files(env), name="pdf")
    mode = read_config(app.config).pdf
    if mode != "book" and not chapters(env):
        warn(
            f"conf.py: playbook_pdf = {mode!r}, but the root page "
            f"({app.config.root_doc!r}) lists no page in a toctree: there is no chapter "
            "to make a PDF of, and the LaTeX build makes the book's alone. List the "
            "chapters in the root page's toctree, or set playbook_pdf = 'book'",
            PlaybookWarning.CONFIG,
        )
    return []


def setup_chapters(app: Sphinx) -> None:
    app.add_node(book_line, latex=(visit_book_line, None))
    app.connect("write-started", _add_chapter_documents)
    app.connect("doctree-resolved", _name_the_book)
    app.connect("env-get-updated", _note_links)
