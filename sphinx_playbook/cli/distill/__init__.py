"""``sphinx-playbook import-distill``: a Distill article becomes a Sphinx project in MyST."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, TextIO

import yaml

from ..errors import CliError
from ..progress import Progress
from .assets import PUBLISHED, Assets
from .behaviour import RUNTIME_FOLDER, report_behaviour, runtime_conf, runtime_files
from .bibliography import tidy
from .context import Context
from .convert import convert, total_steps
from .markdown import escape
from .math import check_formulas
from .report import Report
from .source import Article, metadata, read_article

#: A script calling underscore.js or lodash through the global ``_``.
UNDERSCORE = re.compile(r"(?<![\w$.])_\.(?:contains|each|map|range|filter|extend|keys|"
                        r"sortBy|uniq|debounce|throttle|template|shuffle|zip)\(")  # fmt: skip
DOCTOOLS_HOOK = '''

def _without_doctools(app, pagename, templatename, context, doctree):
    """doctools.js declares a global _ (gettext) that hides the article's underscore.js;
    sphinx_highlight.js needs doctools.js."""
    context["script_files"] = [
        script
        for script in context.get("script_files", [])
        if "doctools" not in str(script) and "sphinx_highlight" not in str(script)
    ]


def setup(app):
    app.connect("html-page-context", _without_doctools)'''
#: The whole report, every place on its own line, written into OUT.
REPORT_FILE = "import-report.txt"
CONF_TEMPLATE = '''"""Sphinx configuration written by ``sphinx-playbook import-distill``."""

project = {project!r}
html_title = project
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
exclude_patterns = ["_build", {published!r}]
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
    assets = Assets(article.root, report, article.html_path)
    for name, count in article.v1.items():
        report.found[f"{name} (v1, read as v2)"] += count
        report.converted[f"{name} (v1, read as v2)"] += count
    for line, message in article.v1_problems:
        report.raw("dt-include", line, f"{message}; kept as it is")
    cx = Context(article, report, assets)
    progress = Progress(stderr, total_steps(article), "converting")
    cx.progress = progress.step
    body = convert(cx)
    progress.finish()
    assets.report_missing(str(article.html_path))
    katex_macros = article.katex.get("macros") if isinstance(article.katex, dict) else None
    check_formulas(cx.formulas, katex_macros if isinstance(katex_macros, dict) else {}, report)

    front = _front_matter(article, report, cx.heading_title, cx.description)
    extra = _configuration(article, report, assets, body)
    title = front["title"]
    front_text = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000)
    heading = " ".join(str(title).split())
    page = f"---\n{front_text}---\n\n# {escape(heading)}\n\n{body}\n"
    report_behaviour(report, cx.behaviour, article.soup, body, cx.addressed_as_markdown)
    runtime = runtime_files(cx.behaviour, article.soup)
    if runtime:
        extra.append(runtime_conf(runtime))
    _write_project(out, article, report, assets, page, title, extra)
    for name, text in runtime.items():
        (out / RUNTIME_FOLDER).mkdir(exist_ok=True)
        (out / RUNTIME_FOLDER / name).write_text(text, encoding="utf-8")

    print(report.table(), file=stdout)
    (out / REPORT_FILE).write_text(report.full_text(), encoding="utf-8")
    if len(report.groups()) != len(report.places):
        print(f"\nEvery place, one a line: {out / REPORT_FILE}", file=stdout)
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


def _front_matter(
    article: Article, report: Report, heading_title: str, description: str | None
) -> dict[str, Any]:
    """The page's front matter: Distill's, with the title and subtitle the reader saw
    (each difference from the front matter Distill kept for search engines reported)."""
    front, unknown = metadata(article.front_matter, article.soup)
    for key in unknown:
        report.doubt("d-front-matter", article.front_matter_line, f"the key {key!r} is not kept")
    title_block_line = article.front_matter_line
    if description:
        meta = front.get("description")
        if meta and " ".join(str(meta).split()) != description:
            report.doubt(
                "title block",
                title_block_line,
                "the front matter's description (Distill shows it only to search engines) is "
                "left out: the visible subtitle of <d-title> is the description",
            )
        front["description"] = description
    elif front.get("description"):
        report.doubt(
            "title block",
            title_block_line,
            "no visible subtitle: the front matter's description, which Distill shows only "
            "to search engines, becomes the subtitle",
        )
    title = heading_title or front.get("title") or article.html_path.stem
    if front.get("title") and " ".join(str(front["title"]).split()) != title:
        report.doubt(
            "title block",
            title_block_line,
            f"the front matter's title {front['title']!r} is left out: the visible "
            "<d-title> heading is the title",
        )
    return {"title": title, **{k: v for k, v in front.items() if k != "title"}}


def _configuration(article: Article, report: Report, assets: Assets, body: str) -> list[str]:
    """The lines conf.py adds to the template: bibliography, macros, scripts' needs."""
    extra = []
    if article.bibtex:
        extra.append(f"playbook_bibfiles = [{article.bib_name!r}]")
    macros = article.katex.get("macros") if isinstance(article.katex, dict) else None
    if isinstance(macros, dict) and macros:
        extra.append(f"playbook_math_macros = {dict(sorted(macros.items()))!r}")
    if not article.bibtex and "{cite}" in body:
        report.doubt("d-cite", None, "the article cites but has no <d-bibliography>")
    if UNDERSCORE.search(assets.script_text(article.soup)):
        report.doubt(
            "script",
            None,
            "the article's scripts use underscore's global _, which Sphinx's doctools.js "
            "hides with its own (gettext): conf.py leaves doctools.js (and sphinx_highlight.js, "
            "which needs it) out of the page",
        )
        extra.append(DOCTOOLS_HOOK)
    return extra


def _write_project(
    out: Path,
    article: Article,
    report: Report,
    assets: Assets,
    page: str,
    title: Any,
    extra: list[str],
) -> None:
    """OUT: the article's files, index.md, conf.py and the .bib."""
    out.mkdir(parents=True, exist_ok=True)
    if assets.copy_to(out):
        extra.insert(
            0,
            "# The article's folder as it was published (scripts, data, images...), at the\n"
            f"# site's root, so the URLs of its scripts and styles stay valid.\n"
            f"html_extra_path = [{PUBLISHED!r}]",
        )
    (out / "index.md").write_text(page, encoding="utf-8")
    (out / "conf.py").write_text(
        CONF_TEMPLATE.format(
            project=str(title),
            published=PUBLISHED,
            extra="\n".join(extra) + ("\n" if extra else ""),
        ),
        encoding="utf-8",
    )
    if article.bibtex:
        bibtex, problems = tidy(article.bibtex)
        for line, message in problems:
            report.doubt("bibliography", None, f"{article.bib_name} line {line}: {message}")
        (out / article.bib_name).write_text(bibtex, encoding="utf-8")
