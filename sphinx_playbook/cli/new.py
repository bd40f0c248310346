"""``sphinx-playbook new DIR``: a project that builds with ``sphinx-build -W`` at once.

The book lives in ``DIR/book`` and everything about the repository beside it
(README, requirements, CI, Read the Docs, CITATION.cff), so a README or a
CONTRIBUTING.md at the root never becomes a page. The files live in ``scaffold/``
as plain text with ``@@name`` placeholders (``$`` and ``{}`` are taken by math,
roles and Python), filled by :class:`string.Template`; values are quoted for their
format (YAML, Python, reST).
"""

from __future__ import annotations

import datetime
import json
import re
import shlex
import string
import sys
from importlib import resources
from pathlib import Path
from typing import TextIO

import yaml
from sphinx.util import texescape

from ..citation_file import FILE_NAME as CITATION_FILE
from ..citation_file import citation_cff
from ..metadata import Affiliation, ArticleMetadata, Author
from .errors import CliError
from .requirement import EXTRAS, NOTEBOOK_EXTRAS, NOTEBOOK_LINES, installed_requirement_lines

DEFAULT_TITLE = "My Playbook"
DEFAULT_AUTHOR = "Your Name"

#: The folder in DIR that holds the book: the source folder of every build.
BOOK = "book"

#: The build command the README, the CI workflow and the message of ``new`` give.
HTML_BUILD = f"sphinx-build -W -b html {BOOK} _build/html"

#: (template in scaffold/, path written in DIR); md/ or rst/ is chosen by --format.
COMMON_FILES = (
    ("common/README.md", "README.md"),
    ("common/requirements.txt", "requirements.txt"),
    ("common/readthedocs.yaml", ".readthedocs.yaml"),
    ("common/workflow.yml", ".github/workflows/build.yml"),
    ("common/gitignore", ".gitignore"),
    ("common/conf.py.tmpl", f"{BOOK}/conf.py"),
    ("common/references.bib", f"{BOOK}/references.bib"),
)

#: ``--notebooks``: a chapter written in a Jupyter notebook, with its outputs (a Plotly
#: and a matplotlib figure) stored, so that the first build runs no kernel. Copied
#: as it is (JSON, no placeholders); scripts/make_scaffold_notebook.py writes it.
NOTEBOOK = ("notebooks/figures.ipynb", f"{BOOK}/figures.ipynb")

#: conf.py's lines for a book with notebooks (myst-nb, from the ``notebooks`` extra).
NOTEBOOK_SETTINGS = """
# Notebooks (.ipynb, and .md files with a kernelspec) are pages too, read by myst-nb.
# "off": the build shows the outputs saved in each notebook and runs no kernel, so
# Read the Docs and CI build the book exactly as you last ran it. "cache": a
# notebook whose code changed runs again during the build (the others keep their
# outputs, in _build/.jupyter_cache): the build then needs what the notebooks
# import (requirements.txt lists it) and kaleido a Chrome for Plotly's PNG.
nb_execution_mode = "off"
"""


class ScaffoldTemplate(string.Template):
    """``@@name`` placeholders: free of the ``$`` of math and the braces of roles."""

    delimiter = "@@"


def create_project(
    directory: Path,
    *,
    title: str | None = None,
    authors: list[str] | None = None,
    affiliation: str | None = None,
    source_format: str = "md",
    notebooks: bool = False,
    force: bool = False,
    today: datetime.date | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Write the project into ``directory``; the return value is the exit code."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if directory.exists() and not directory.is_dir():
        raise CliError(f"{directory}: exists and is not a folder")
    if directory.is_dir() and any(directory.iterdir()) and not force:
        raise CliError(f"{directory}: the folder is not empty; use --force to write into it")
    interactive = hasattr(stdin, "isatty") and stdin.isatty()
    if title is None:
        title = _ask("Title", DEFAULT_TITLE, stdin, stdout) if interactive else DEFAULT_TITLE
    if not authors:
        author = _ask("Author", DEFAULT_AUTHOR, stdin, stdout) if interactive else DEFAULT_AUTHOR
        authors = [author]
    title = " ".join(title.split()) or DEFAULT_TITLE
    authors = [" ".join(a.split()) for a in authors if a.strip()] or [DEFAULT_AUTHOR]
    today = today or datetime.date.today()
    values = _values(title, authors, affiliation, source_format, today, notebooks)

    suffix = "md" if source_format == "md" else "rst"
    files = [
        *COMMON_FILES,
        (f"{suffix}/index.{suffix}", f"{BOOK}/index.{suffix}"),
        (f"{suffix}/chapter-2.{suffix}", f"{BOOK}/chapter-2.{suffix}"),
    ]
    scaffold = resources.files(__package__).joinpath("scaffold")
    for template_name, target in files:
        text = scaffold.joinpath(template_name).read_text(encoding="utf-8")
        path = directory / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(ScaffoldTemplate(text).substitute(values), encoding="utf-8")
    if notebooks:
        template_name, target = NOTEBOOK
        (directory / target).write_bytes(scaffold.joinpath(template_name).read_bytes())
    images = directory / BOOK / "images"
    images.mkdir(parents=True, exist_ok=True)
    (images / "band.png").write_bytes(scaffold.joinpath("common/images/band.png").read_bytes())
    (directory / CITATION_FILE).write_text(
        _citation_file(title, authors, affiliation, today, f"{BOOK}/index.{suffix}"),
        encoding="utf-8",
    )
    print(
        f"Created {directory}, the book in {directory / BOOK}. Preview it with:\n"
        f"  cd {shlex.quote(str(directory))} && {HTML_BUILD}",
        file=stdout,
    )
    return 0


def _citation_file(
    title: str, authors: list[str], affiliation: str | None, today: datetime.date, page: str
) -> str:
    """CITATION.cff with the article's title, authors, affiliation and date."""
    keys = ("main",) if affiliation else ()
    meta = ArticleMetadata(
        authors=tuple(Author(name=name, affiliations=keys) for name in authors),
        affiliations=(Affiliation(key="main", name=affiliation),) if affiliation else (),
        published=today,
    )
    header = (
        '# How to cite this book: GitHub ("Cite this repository"), Zenodo and reference\n'
        "# managers read this file. sphinx-build warns when its title, authors, doi or\n"
        f"# date-released disagree with the article, {page}.\n"
    )
    return header + citation_cff(meta, title)


def _ask(question: str, default: str, stdin: TextIO, stdout: TextIO) -> str:
    stdout.write(f"{question} [{default}]: ")
    stdout.flush()
    answer = stdin.readline().strip()
    return answer or default


def _values(
    title: str,
    authors: list[str],
    affiliation: str | None,
    source_format: str,
    today: datetime.date,
    notebooks: bool = False,
) -> dict[str, str]:
    front: dict[str, object] = {
        "title": title,
        "description": "A playbook started with sphinx-playbook new.",
        "published": today,
    }
    if affiliation:
        front["authors"] = [{"name": name, "affiliations": ["main"]} for name in authors]
        front["affiliations"] = [{"id": "main", "name": affiliation}]
    else:
        front["authors"] = list(authors)
    front_matter = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000)
    author_line = "; ".join(f"{name} [{affiliation}]" if affiliation else name for name in authors)
    docinfo = [
        ":description: A playbook started with sphinx-playbook new.",
        f":published: {today.isoformat()}",
        f":authors: {author_line}" if len(authors) > 1 else f":author: {author_line}",
    ]
    if affiliation:
        docinfo.append(f":affiliations: {affiliation}")
    from .distill.markdown import escape

    texescape.init()
    title_rst = re.sub(r"([\\`*_|])", r"\\\1", title)
    rule = "=" * max(len(title_rst), 3)
    suffix = "md" if source_format == "md" else "rst"
    return {
        "title": escape(title) if suffix == "md" else title_rst,
        "front_matter": front_matter.rstrip("\n"),
        "docinfo": "\n".join(docinfo),
        "title_over": rule,
        "title_under": rule,
        "project_repr": repr(title),
        "author_repr": repr(", ".join(authors)),
        "copyright_repr": repr(f"{today.year}, {', '.join(authors)}"),
        # latex_documents holds LaTeX: "R&D_notes" is written "R\&D\_notes" there
        # (texescape's tables are filled by init(), as the LaTeX builder does).
        "project_latex_repr": repr(texescape.escape(title)),
        "author_latex_repr": repr(texescape.escape(", ".join(authors))),
        "requirements": "\n".join(
            [*installed_requirement_lines(NOTEBOOK_EXTRAS), *NOTEBOOK_LINES]
            if notebooks
            else installed_requirement_lines(EXTRAS)
        ),
        "index_file": f"index.{suffix}",
        "chapter_file": f"chapter-2.{suffix}",
        "extensions_repr": json.dumps(["sphinx_playbook", *(["myst_nb"] if notebooks else [])]),
        "notebook_settings": NOTEBOOK_SETTINGS if notebooks else "",
        # The toctree's next line: "figures" in MyST, indented under the directive in reST.
        "notebook_chapter": (
            f"\n{'' if suffix == 'md' else '   '}{Path(NOTEBOOK[1]).stem}" if notebooks else ""
        ),
        "notebook_file": (
            f", `{NOTEBOOK[1]}` a chapter written in a Jupyter notebook" if notebooks else ""
        ),
    }
