"""Which PDF each page links, with ``playbook_pdf = "chapters"`` or ``"both"``.

One place for the names of the generated PDFs: latex/chapters.py gives the LaTeX
builder an entry per chapter under these names, scholarly.py links them from the
byline and ``citation_pdf_url``. The chapters are the pages the root page's
toctrees list; a page nested under a chapter (in the chapter's toctree, or deeper)
is printed in that chapter's PDF and links it. The PDFs are expected under
``_pdf/`` at the site's root (the docs say how to copy them there).
"""

from __future__ import annotations

from sphinx.config import Config
from sphinx.environment import BuildEnvironment
from sphinx.util.osutil import make_filename_from_project, relative_uri

from .config import read_config
from .machinery.state import builder_of

#: Where the HTML pages expect the PDFs, from the site's root.
PDF_FOLDER = "_pdf"


def chapters(env: BuildEnvironment) -> list[str]:
    """The pages the root page's toctrees list, in their order."""
    root = env.config.root_doc
    found: list[str] = []
    for docname in env.toctree_includes.get(root, ()):
        if docname in env.all_docs and docname != root and docname not in found:
            found.append(docname)
    return found


def nested_pages(env: BuildEnvironment, chapter: str) -> list[str]:
    """The pages under ``chapter`` in its toctrees, at any depth, in reading order:
    the LaTeX builder prints them in the chapter's PDF."""
    found: list[str] = []
    pending = list(env.toctree_includes.get(chapter, ()))
    while pending:
        docname = pending.pop(0)
        if docname in env.all_docs and docname != chapter and docname not in found:
            found.append(docname)
            pending[:0] = env.toctree_includes.get(docname, ())
    return found


def is_default(config: Config, name: str) -> bool:
    """Whether conf.py left ``name`` at the value Sphinx gives it."""
    default = config.values[name].default
    return bool(config[name] == (default(config) if callable(default) else default))


def chapter_name(config: Config, docname: str) -> str:
    """``<book>-<page>``: ``tinybook-first-steps`` for the page ``first_steps``."""
    page = docname.removesuffix("/index").replace("/", "-").replace("_", "-")
    return f"{make_filename_from_project(config.project)}-{page}"


def pdf_files(env: BuildEnvironment) -> dict[str, str]:
    """The PDF each page links (its name without ``.pdf``), by page: none with
    ``"book"``; each chapter with ``"chapters"`` (a chapter conf.py's
    ``latex_documents`` names keeps that entry's name), and the root page too
    with ``"both"`` or when conf.py's own ``latex_documents`` lists it. A page
    nested under a chapter links the PDF of the first chapter that holds it (its
    own entry of ``latex_documents``, if conf.py gives it one)."""
    config = env.config
    mode = read_config(config).pdf
    if mode == "book":
        return {}
    entries = {
        str(entry[0]): str(entry[1]).removesuffix(".tex") for entry in config.latex_documents
    }
    files: dict[str, str] = {}
    root = config.root_doc
    if root in entries and (mode == "both" or not is_default(config, "latex_documents")):
        files[root] = entries[root]
    listed = chapters(env)
    for docname in listed:
        files[docname] = entries.get(docname) or chapter_name(config, docname)
    for docname in listed:
        for page in nested_pages(env, docname):
            if page != root and page not in files:
                files[page] = entries.get(page) or files[docname]
    return files


def pdf_link(env: BuildEnvironment, docname: str) -> str | None:
    """The link from ``docname``'s HTML page to its PDF; None when it has none, or
    for a builder that writes no HTML."""
    builder = builder_of(env)
    if builder is None or builder.format != "html":
        return None
    name = pdf_files(env).get(docname)
    if name is None:
        return None
    return relative_uri(builder.get_target_uri(docname), f"{PDF_FOLDER}/{name}.pdf")
