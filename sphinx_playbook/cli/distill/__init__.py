"""``sphinx-playbook import-distill``: a Distill article becomes a Sphinx project in MyST."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import yaml

from ..errors import CliError
from ..progress import Progress
from .assets import Assets
from .convert import Converter
from .report import Report
from .source import metadata, read_article

CONF_TEMPLATE = '''"""Sphinx configuration written by ``sphinx-playbook import-distill``."""

project = {project!r}
html_title = project
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
exclude_patterns = ["_build"]
# Keep the article's quotes and dashes exactly as written.
smartquotes = False
{extra}'''


def import_distill(
    source: Path,
    out: Path,
    *,
    strict: bool = False,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Convert SOURCE into the project OUT; print the report; return the exit code."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if out.exists() and not (out.is_dir() and not any(out.iterdir())):
        raise CliError(f"{out}: already exists; choose a new folder for the project")
    article = read_article(source)
    report = Report(source_name=str(article.html_path))
    assets = Assets(article.root, report)
    converter = Converter(article, report, assets)
    progress = Progress(stderr, converter.total_steps(), "converting")
    converter.progress = progress.step
    heading_title, body = converter.body()
    progress.finish()

    front, unknown = metadata(article.front_matter, article.soup)
    for key in unknown:
        report.doubt("d-front-matter", article.front_matter_line, f"the key {key!r} is not kept")
    if converter.description and "description" not in front:
        front["description"] = converter.description
    title = front.get("title") or heading_title or article.html_path.stem
    front.setdefault("title", title)

    extra = []
    if article.bibtex:
        extra.append(f"playbook_bibfiles = [{article.bib_name!r}]")
    macros = article.katex.get("macros") if isinstance(article.katex, dict) else None
    if isinstance(macros, dict) and macros:
        extra.append(f"playbook_math_macros = {dict(sorted(macros.items()))!r}")
    if not article.bibtex and "{cite}" in body:
        report.doubt("d-cite", None, "the article cites but has no <d-bibliography>")

    front_text = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000)
    heading = " ".join(str(title).split())
    page = f"---\n{front_text}---\n\n# {_escape_heading(heading)}\n\n{body}\n"

    out.mkdir(parents=True, exist_ok=True)
    (out / "index.md").write_text(page, encoding="utf-8")
    (out / "conf.py").write_text(
        CONF_TEMPLATE.format(project=str(title), extra="\n".join(extra) + ("\n" if extra else "")),
        encoding="utf-8",
    )
    if article.bibtex:
        (out / article.bib_name).write_text(article.bibtex, encoding="utf-8")
    assets.copy_to(out)

    print(report.table(), file=stdout)
    print(
        f"\nWrote {out}. Build it with: sphinx-build -W {out} {out / '_build' / 'html'}",
        file=stdout,
    )
    if strict and report.raw_count:
        print(
            f"sphinx-playbook: --strict: {report.raw_count} construct(s) kept as raw HTML "
            "(listed above)",
            file=stderr,
        )
        return 1
    return 0


def _escape_heading(text: str) -> str:
    from .markdown import escape

    return escape(text)
