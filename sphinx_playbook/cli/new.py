"""``sphinx-playbook new DIR``: a project that builds with ``sphinx-build -W`` at once.

The files live in ``scaffold/`` as plain text with ``@@name`` placeholders
(``$`` and ``{}`` are taken by math, roles and Python), filled by
:class:`string.Template`; values are quoted for their format (YAML, Python, reST).
"""

from __future__ import annotations

import datetime
import re
import string
import sys
from importlib import resources
from pathlib import Path
from typing import TextIO

import yaml

from .errors import CliError

DEFAULT_TITLE = "My Playbook"
DEFAULT_AUTHOR = "Your Name"

#: (template in scaffold/, path written in DIR); md/ or rst/ is chosen by --format.
COMMON_FILES = (
    ("common/conf.py.tmpl", "conf.py"),
    ("common/references.bib", "references.bib"),
    ("common/requirements.txt", "requirements.txt"),
    ("common/readthedocs.yaml", ".readthedocs.yaml"),
    ("common/workflow.yml", ".github/workflows/build.yml"),
    ("common/README.md", "README.md"),
)


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
    values = _values(title, authors, affiliation, source_format, today)

    suffix = "md" if source_format == "md" else "rst"
    files = [
        *COMMON_FILES,
        (f"{suffix}/index.{suffix}", f"index.{suffix}"),
        (f"{suffix}/chapter-2.{suffix}", f"chapter-2.{suffix}"),
    ]
    scaffold = resources.files(__package__).joinpath("scaffold")
    for template_name, target in files:
        text = scaffold.joinpath(template_name).read_text(encoding="utf-8")
        path = directory / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(ScaffoldTemplate(text).substitute(values), encoding="utf-8")
    images = directory / "images"
    images.mkdir(parents=True, exist_ok=True)
    (images / "band.png").write_bytes(
        scaffold.joinpath("common/images/band.png").read_bytes()
    )
    print(
        f"Created {directory}. Preview it with:\n"
        f"  cd {directory} && sphinx-build -W -b html . _build/html",
        file=stdout,
    )
    return 0


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
) -> dict[str, str]:
    from .. import __version__

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
    author_line = "; ".join(
        f"{name} [{affiliation}]" if affiliation else name for name in authors
    )
    docinfo = [
        ":description: A playbook started with sphinx-playbook new.",
        f":published: {today.isoformat()}",
        f":authors: {author_line}" if len(authors) > 1 else f":author: {author_line}",
    ]
    if affiliation:
        docinfo.append(f":affiliations: {affiliation}")
    from .distill.markdown import escape

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
        "version": __version__,
        "index_file": f"index.{suffix}",
        "chapter_file": f"chapter-2.{suffix}",
    }
