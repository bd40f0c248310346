"""Reading a Distill article: its HTML as a browser reads it, front matter, bibliography."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml
from bs4 import BeautifulSoup, Comment, NavigableString, Tag

from ..errors import CliError

#: Elements only a Distill article has; one of them must be present.
DISTILL_MARKERS = ("d-article", "d-front-matter", "d-title", "dt-article")
#: Distill template v1's elements and the v2 elements they are read as.
V1_NAMES = {
    "dt-article": "d-article", "dt-cite": "d-cite", "dt-fn": "d-footnote",
    "dt-byline": "d-byline", "dt-appendix": "d-appendix", "dt-math": "d-math",
    "dt-code": "d-code", "dt-banner": "d-banner", "dt-toc": "d-toc",
    "dt-footnote-list": "d-footnote-list", "dt-citation-list": "d-citation-list",
    "dt-bibliography": "d-bibliography",
}  # fmt: skip
#: Distill's elements a stylesheet may select, and what the theme writes in their place.
THEME_ELEMENTS = {
    "d-article": ".pb-body", "dt-article": ".pb-body", "d-title": ".pb-title-block",
    "d-byline": ".pb-byline", "dt-byline": ".pb-byline", "d-appendix": ".pb-appendix",
    "dt-appendix": ".pb-appendix",
}  # fmt: skip
_THEME_ELEMENT = re.compile(r"(?<![\w.#\\-])(" + "|".join(THEME_ELEMENTS) + r")(?![\w-])")
#: The mark of the article's own ``<section>`` elements: its stylesheets' ``section``
#: selects them, not the sections Sphinx writes for every heading (which a rule such as
#: ``d-article section { contain: layout }`` would take out of the theme's subgrid).
ARTICLE_SECTION = "data-distill-section"
#: ``section`` as a type selector (outside attribute selectors and strings).
_SECTION_TYPE = re.compile(r"""(\[[^\]]*\]|"[^"]*"|'[^']*')|(?<![\w.#\\-])section(?![\w-])""")
#: A rule's prelude: the selectors (or an at-rule's condition) before its ``{``.
_PRELUDE = re.compile(r"(^|[{}])([^{}]*)(?=\{)")
_DATE_FORMATS = ("%Y-%m-%d", "%b %d, %Y", "%B %d, %Y", "%d %B %Y", "%d %b %Y", "%Y/%m/%d")


@dataclass
class Article:
    """A Distill article as read from SOURCE."""

    root: Path
    html_path: Path
    soup: BeautifulSoup
    front_matter: dict[str, Any]
    front_matter_line: int | None
    bibtex: str | None
    bib_name: str
    katex: dict[str, Any] = field(default_factory=dict)
    #: v1 element names read as v2 (``dt-cite`` -> count), and what v1 could not be read
    v1: dict[str, int] = field(default_factory=dict)
    v1_problems: list[tuple[int | None, str]] = field(default_factory=list)


def attr_value(element: Tag, name: str) -> str:
    """The attribute *name* of *element* as text: "" when absent, a list (class) space-joined."""
    value = element.get(name)
    if value is None:
        return ""
    return value if isinstance(value, str) else " ".join(value)


def locate(source: Path) -> tuple[Path, Path]:
    """The article's folder and its HTML file, from a folder or an .html path."""
    if source.is_dir():
        html_path = source / "index.html"
        if not html_path.is_file():
            raise CliError(f"{source}: not a Distill article: the folder has no index.html")
        return source, html_path
    if source.is_file():
        if source.suffix.lower() not in {".html", ".htm"}:
            raise CliError(f"{source}: not a Distill article: expected a folder or an .html file")
        return source.parent, source
    raise CliError(f"{source}: no such file or folder")


def read_article(source: Path) -> Article:
    """Parse SOURCE; every problem is a :class:`CliError` with the file and line."""
    root, html_path = locate(source)
    try:
        text = html_path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CliError(f"{html_path}: not UTF-8 text ({error.reason})") from None
    soup = BeautifulSoup(text, "html5lib")
    if not any(soup.find(marker) for marker in DISTILL_MARKERS):
        raise CliError(
            f"{html_path}: not a Distill article: no <d-article>, <d-front-matter>, "
            "<d-title> or <dt-article> element"
        )
    v1, problems = _read_v1(soup, root)
    for section in soup.find_all("section"):
        section[ARTICLE_SECTION] = ""
    for style in soup.find_all("style"):
        if style.string:
            style.string = theme_selectors(style.string)
    front_matter, line = _front_matter(soup, html_path)
    bibtex, bib_name = _bibliography(soup, root, html_path)
    katex = front_matter.get("katex") if isinstance(front_matter.get("katex"), dict) else {}
    return Article(
        root, html_path, soup, front_matter, line, bibtex, bib_name, katex or {}, v1, problems
    )


def theme_selectors(css: str) -> str:
    """CSS whose selectors name Distill's elements (``d-article .content``), made to
    select what the theme writes in their place (``.pb-body .content``): the imported
    page has no such elements, and the rules would otherwise never apply. ``section``
    selects the article's own sections only (``section[data-distill-section]``): the
    page's other sections are the ones Sphinx writes per heading, which the original
    did not have."""

    def section(match: re.Match[str]) -> str:
        return match.group(1) or f"section[{ARTICLE_SECTION}]"

    def prelude(match: re.Match[str]) -> str:
        text = match.group(2)
        if text.lstrip().startswith("@"):
            return match.group(0)
        text = _THEME_ELEMENT.sub(lambda m: THEME_ELEMENTS[m.group(1)], text)
        return match.group(1) + _SECTION_TYPE.sub(section, text)

    return _PRELUDE.sub(prelude, css)


def _read_v1(
    soup: BeautifulSoup, root: Path
) -> tuple[dict[str, int], list[tuple[int | None, str]]]:
    """Distill template v1 read as v2: element names, the YAML front matter script,
    ``<dt-include>`` inlined, the h1 (and the h2 right after it) as the title block."""
    counts: dict[str, int] = {}
    problems = _inline_includes(soup, root, counts)
    for old, new in V1_NAMES.items():
        for element in soup.find_all(old):
            element.name = new
            counts[old] = counts.get(old, 0) + 1
    if _wrap_script(soup, "text/front-matter", "d-front-matter", only_outside=True):
        counts["front-matter script"] = 1
    if _wrap_script(soup, "text/bibliography", "d-bibliography", only_outside=False):
        counts["bibliography script"] = 1
    if counts:
        _title_block(soup)
        typeset = _typeset(soup)
        if typeset:
            counts["text typeset (quotes, dashes)"] = typeset
    return counts, problems


#: Where v1's runtime left text alone: code, math, scripts, styles.
_NOT_TYPESET = {"code", "pre", "script", "style", "d-math", "d-code", "kbd", "samp", "tt",
                "textarea", "svg", "math"}  # fmt: skip


def _typeset(soup: BeautifulSoup) -> int:
    """Quotes and dashes as template.v1 typeset them in the reader's page: straight
    quotes curly, ``--`` an em dash between thin spaces, ``...`` an ellipsis. Text with
    math delimiters is left as written. The number of texts changed."""
    article = soup.find("d-article")
    if article is None:
        return 0
    changed = 0
    for text in list(article.find_all(string=True)):
        if isinstance(text, Comment) or any(
            parent.name in _NOT_TYPESET for parent in text.parents if isinstance(parent, Tag)
        ):
            continue
        value = str(text)
        if "$" in value or "\\(" in value or "\\[" in value:
            continue
        typeset = _typeset_text(value, _char_before(text))
        if typeset != value:
            text.replace_with(NavigableString(typeset))
            changed += 1
    return changed


def _char_before(text: Any) -> str:
    """The character before ``text`` in its paragraph (a space at the paragraph's start)."""
    block = text.find_parent(["p", "li", "dd", "dt", "td", "th", "figcaption", "blockquote",
                              "h1", "h2", "h3", "h4", "h5", "h6", "div", "d-article"])  # fmt: skip
    previous = text.find_previous(string=True)
    if previous is None or block is None or block not in previous.parents:
        return " "
    return str(previous)[-1:] or " "


def _typeset_text(text: str, before: str) -> str:
    text = re.sub(r"\s*---?\s*", "\u2009\u2014\u2009", text) if "--" in text else text
    text = text.replace("...", "\u2026")
    out = []
    for index, char in enumerate(text):
        previous = text[index - 1] if index else before
        opening = not previous or previous.isspace() or previous in "([{\u2014\u2009-"
        if char == '"':
            out.append("\u201c" if opening else "\u201d")
        elif char == "'":
            out.append("\u2018" if opening else "\u2019")
        else:
            out.append(char)
    return "".join(out)


def _inline_includes(
    soup: BeautifulSoup, root: Path, counts: dict[str, int]
) -> list[tuple[int | None, str]]:
    """Each ``<dt-include src>`` replaced by the file's content (a published page's,
    which holds it already, by what it holds); (line, problem) of the ones naming no file."""
    problems: list[tuple[int | None, str]] = []
    for include in soup.find_all("dt-include"):
        source = attr_value(include, "src")
        if include.get_text().strip() or include.find(True) is not None:
            # A published page: v1's runtime already put the file's content inside it.
            include.unwrap()
            counts["dt-include (already inlined)"] = (
                counts.get("dt-include (already inlined)", 0) + 1
            )
            continue
        path = (root / source).resolve() if source else None
        if path is None or not path.is_file():
            problems.append((include.sourceline, f"<dt-include src={source!r}>: no such file"))
            continue
        fragment = BeautifulSoup(path.read_text("utf-8", errors="replace"), "html5lib")
        holder = fragment.body or fragment
        if _already_inlined(soup, holder):
            # A published page where the parser moved the content out of the include
            # (<p><dt-include><figure>: the figure closes the paragraph).
            include.decompose()
            counts["dt-include (already inlined)"] = (
                counts.get("dt-include (already inlined)", 0) + 1
            )
            continue
        for child in list(holder.children):
            include.insert_before(child.extract())
        include.decompose()
        counts["dt-include"] = counts.get("dt-include", 0) + 1
    return problems


def _already_inlined(soup: BeautifulSoup, holder: Any) -> bool:
    """Whether the page already holds the included file's content: an id of the file,
    or the start of its text."""
    ids = {str(element["id"]) for element in holder.find_all(id=True)}
    if ids:
        return any(soup.find(id=element_id) is not None for element_id in ids)
    text = " ".join(holder.get_text().split())[:200]
    return len(text) > 40 and text in " ".join(soup.get_text().split())


def _wrap_script(soup: BeautifulSoup, kind: str, name: str, *, only_outside: bool) -> bool:
    """v1's ``<script type=KIND>`` moved into the v2 element ``name`` (unless it is in
    one already, or, without ``only_outside``, the page has one anywhere)."""
    script = soup.find("script", attrs={"type": kind})
    if script is None:
        return False
    already = script.find_parent(name) if only_outside else soup.find(name)
    if already is not None:
        return False
    holder = soup.new_tag(name)
    script.insert_before(holder)
    holder.append(script.extract())
    return True


def _title_block(soup: BeautifulSoup) -> None:
    """v1's first h1 (and an h2 right after it) moved into a d-title before the article."""
    article = soup.find("d-article")
    if soup.find("d-title") is not None or article is None:
        return
    heading = article.find("h1")
    if heading is None:
        return
    title = soup.new_tag("d-title")
    heading.insert_before(title)
    following = heading.find_next_sibling()
    title.append(heading.extract())
    if (
        following is not None
        and following.name == "h2"
        and following.find_previous_sibling() is title
    ):
        title.append(following.extract())
    # The title block stands before the article, as in v2.
    article.insert_before(title.extract())


def _front_matter(soup: BeautifulSoup, html_path: Path) -> tuple[dict[str, Any], int | None]:
    holder = soup.find("d-front-matter")
    if holder is None:
        return {}, None
    script = holder.find("script")
    if script is not None and script.string is None:
        script.string = "".join(str(child) for child in script.children)
    if script is None:
        return {}, holder.sourceline
    kind = (attr_value(script, "type") or "text/json").lower()
    text = script.string or ""
    line = script.sourceline or 1
    if "json" in kind:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CliError(
                f"{html_path}:{line + error.lineno - 1}: the front matter is not valid JSON: "
                f"{error.msg} (column {error.colno}); fix the JSON in <d-front-matter>"
            ) from None
    else:
        try:
            data = yaml.safe_load(_dedent(text))
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            where = line + mark.line if mark else line
            raise CliError(
                f"{html_path}:{where}: the front matter is not valid YAML; fix the YAML in "
                "<d-front-matter>"
            ) from None
    if not isinstance(data, dict):
        raise CliError(
            f"{html_path}:{line}: the front matter must be a JSON object ({{...}}), "
            f"not {type(data).__name__}"
        )
    return data, line


def _dedent(text: str) -> str:
    lines = [line for line in text.split("\n") if line.strip()]
    margin = min((len(line) - len(line.lstrip()) for line in lines), default=0)
    return "\n".join(line[margin:] for line in text.split("\n"))


def _bibliography(soup: BeautifulSoup, root: Path, html_path: Path) -> tuple[str | None, str]:
    element = soup.find("d-bibliography")
    if element is None:
        return None, "references.bib"
    source = attr_value(element, "src")
    if source:
        path = (root / source).resolve()
        if not path.is_file():
            raise CliError(
                f"{html_path}:{element.sourceline}: the bibliography {source!r} does not "
                f"exist (looked for {path})"
            )
        try:
            return path.read_text(encoding="utf-8"), Path(source).name
        except UnicodeDecodeError:
            raise CliError(f"{path}: the bibliography is not UTF-8 text") from None
    script = element.find("script")
    text = script.string if script is not None else element.get_text()
    return (_dedent(text or "").strip() + "\n") if (text or "").strip() else None, "references.bib"


def metadata(front: dict[str, Any], soup: BeautifulSoup) -> tuple[dict[str, Any], list[str]]:
    """Our front matter from Distill's; also the keys that have no equivalent."""
    result: dict[str, Any] = {}
    title = _title(front, soup)
    if title:
        result["title"] = str(title)
    if front.get("description"):
        result["description"] = str(front["description"])
    published = front.get("published") or front.get("publishedDate")
    if published:
        result["published"] = _date(published)
    if front.get("updated"):
        result["updated"] = _date(front["updated"])
    if front.get("doi"):
        result["doi"] = str(front["doi"])
    authors, affiliations = _authors(front)
    if authors:
        result["authors"] = authors
    if affiliations:
        result["affiliations"] = affiliations
    known = {
        "title", "description", "published", "publishedDate", "updated", "doi",
        "authors", "affiliations", "katex",
    }  # fmt: skip
    return result, sorted(key for key in front if key not in known)


def _title(front: dict[str, Any], soup: BeautifulSoup) -> Any:
    """The front matter's title, else d-title's heading, else the page's <title>."""
    title = front.get("title")
    heading = soup.select_one("d-title h1")
    if not title and heading is not None:
        title = " ".join(heading.get_text().split())
    if not title and soup.title is not None:
        title = " ".join(soup.title.get_text().split())
    return title


def _date(value: Any) -> Any:
    if isinstance(value, date):
        return value
    text = str(value).strip()
    for pattern in _DATE_FORMATS:
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return text


class _Affiliations:
    """The affiliations named so far, each once, with the id authors mark it by."""

    def __init__(self) -> None:
        self.entries: list[dict[str, str]] = []
        self.ids: dict[str, str] = {}

    def mark(self, name: str, url: str | None) -> str:
        if name not in self.ids:
            self.ids[name] = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "affiliation"
            entry = {"id": self.ids[name], "name": name}
            if url:
                entry["url"] = url
            self.entries.append(entry)
        elif url:  # the same affiliation named again, this time with its URL
            entry = next(a for a in self.entries if a["id"] == self.ids[name])
            entry.setdefault("url", url)
        return self.ids[name]


def _authors(front: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """Distill's author objects (``author``, ``authorURL``, ``affiliation(s)``) or v1 YAML."""
    raw_authors = front.get("authors") or []
    raw_affiliations = front.get("affiliations") or []
    affiliations = _Affiliations()
    authors: list[dict[str, Any]] = []
    for index, item in enumerate(raw_authors if isinstance(raw_authors, list) else []):
        if isinstance(item, str):
            authors.append({"name": item})
            continue
        name_url = _name_and_url(item) if isinstance(item, dict) else None
        if name_url is None:
            continue
        author: dict[str, Any] = {"name": str(name_url[0])}
        if name_url[1]:
            author["url"] = str(name_url[1])
        marks = _marks(item, affiliations)
        if not marks and index < len(raw_affiliations):  # v1 YAML: parallel lists
            marks = _parallel_mark(raw_affiliations[index], affiliations)
        if marks:
            author["affiliations"] = list(dict.fromkeys(marks))
        authors.append(author)
    return authors, affiliations.entries


def _name_and_url(item: dict[str, Any]) -> tuple[Any, Any] | None:
    if "author" in item or "name" in item:
        return item.get("author") or item.get("name"), item.get("authorURL") or item.get("url")
    if len(item) == 1:  # v1 YAML: "- Chris Olah: https://..."
        return next(iter(item.items()))
    return None


def _marks(item: dict[str, Any], affiliations: _Affiliations) -> list[str]:
    """The ids of the affiliations an author object names."""
    marks: list[str] = []
    for affiliation in item.get("affiliations") or []:
        if isinstance(affiliation, dict) and affiliation.get("name"):
            marks.append(affiliations.mark(affiliation["name"], affiliation.get("url")))
        elif isinstance(affiliation, str):
            marks.append(affiliations.mark(affiliation, None))
    if item.get("affiliation"):
        marks.append(affiliations.mark(str(item["affiliation"]), item.get("affiliationURL")))
    return marks


def _parallel_mark(parallel: Any, affiliations: _Affiliations) -> list[str]:
    """v1 YAML's affiliation at the author's place in its list ("- Google Brain: URL")."""
    if not (isinstance(parallel, dict) and len(parallel) == 1):
        return []
    affiliation_name, affiliation_url = next(iter(parallel.items()))
    return [affiliations.mark(str(affiliation_name), affiliation_url)]


def is_tag(node: Any) -> bool:
    return isinstance(node, Tag)
