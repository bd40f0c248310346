"""Import each Distill article of a folder, build it with -W, and compare it with the original.

    .venv/bin/python scripts/try_distill_imports.py ARTICLES OUT [--no-browser]
        [--only NAME ...] [--runtime DIR] [--table FILE] [--reuse]

ARTICLES holds one folder per article, each with the published ``index.html`` beside
its files (e.g. the ``public/`` folder of a ``distillpub/post--NAME`` repository).
Nothing is fetched: the articles are what you give, and the browser is kept on
loopback (any request to another origin is aborted and counted).

For each article it prints the import's exit code, the ``sphinx-build -N -W`` result
(and the first warnings), and words, formulas, citations, footnotes and figures in the
original and in the built page. Then, one page at a time in headless Chromium
(/usr/bin/chromium-headless-shell), it opens the ORIGINAL (served from ARTICLES with
its own files) and OUR BUILD, scrolls each through, and counts on each side: page
errors, local files that 404, requests to other origins, drawn SVG/canvas elements of
the article, elements with inline ``on*`` handlers, elements having a class the
original's own stylesheets select (and how many of those classes are used), duplicate
ids, paragraphs overlapped by a figure/svg/canvas, and the page height. Full-page
screenshots go to OUT/NAME.original.png and OUT/NAME.png.

Options:

``--only NAME ...``
    only these article folders.
``--runtime DIR``
    a folder holding ``template.v1.js`` and/or ``template.v2.js`` (e.g. copied from a
    post's repository that ships one): the original's request for Distill's runtime on
    distill.pub is answered with that file instead of being aborted, so the original
    renders as published. Without it the original runs without Distill's runtime.
``--table FILE``
    write a Markdown table, one row an article: our build's ``-W`` result, then each
    cell ``original / ours``; below it the -W warnings, and the errors, 404s, duplicate
    ids and overlaps of each side (rewritten after each article, so an interrupted run
    keeps what it did).
``--reuse``
    keep an article's earlier import and build in OUT (``OUT/NAME/_build/html``)
    instead of importing and building it again.
``--no-browser``
    skip Chromium: only the import, the build and the counts read from the HTML.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import io
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

from bs4 import BeautifulSoup, Comment

from sphinx_playbook.cli import main as cli_main
from sphinx_playbook.cli.distill.delimiters import math_setup
from sphinx_playbook.cli.distill.source import read_article

SUB_PATH = "/sub/path/"
#: What the reader does not see as text: left out of the word counts on both sides.
HIDDEN = ("script", "style", "noscript", "template", "svg", "math")
SOURCE_FORMULAS = "d-math, dt-math, script[type^='math/tex']"


def words(text: str) -> int:
    return len(re.findall(r"\w+", text))


def source_counts(index: Path) -> dict[str, int]:
    """What the original shows, read as the importer reads it (v1 names read as v2)."""
    article = read_article(index)
    soup = article.soup
    setup = math_setup(soup, article.katex)
    pattern = setup.pattern() if setup else None
    text_formulas = 0
    for part in ("d-title", "d-article", "d-appendix"):
        for holder in soup.find_all(part):
            for string in holder.find_all(string=True):
                if (
                    isinstance(string, Comment)
                    or (string.parent is not None and string.parent.name in HIDDEN)
                    or string.find_parent(["d-math", "code", "pre"])
                ):
                    continue
                if pattern is not None:
                    text_formulas += len(list(pattern[0].finditer(" ".join(string.split()))))
    formulas = len(soup.select(SOURCE_FORMULAS)) + text_formulas
    cites = len(soup.select("d-cite"))
    footnotes = len(soup.select("d-footnote"))
    figures = len(
        [
            figure
            for figure in soup.select("d-article figure, d-article d-figure, d-title figure")
            if figure.find_parent(["figure", "d-figure"]) is None
        ]
    )
    for element in soup.select(
        ", ".join((*HIDDEN, "d-math", "d-cite", "d-front-matter",
                   "d-bibliography", "d-byline", "d-toc", "d-contents"))
    ):  # fmt: skip
        element.decompose()
    strings = [
        " ".join(string.split()) for name in ("d-title", "d-article", "d-appendix")
        for holder in soup.find_all(name) for string in holder.find_all(string=True)
        if not isinstance(string, Comment)
    ]  # fmt: skip
    if pattern is not None:
        # Text by text, as the formulas are counted: an unpaired "$" in one text does
        # not take the words of the texts after it for a formula.
        strings = [pattern[0].sub(" ", string) for string in strings]
    text = " ".join(strings)
    return {"words": words(text), "formulas": formulas, "citations": cites,
            "footnotes": footnotes, "figures": figures}  # fmt: skip


def built_counts(page: Path) -> dict[str, int]:
    soup = BeautifulSoup(page.read_text("utf-8"), "html.parser")
    body = soup.select_one(".pb-body") or soup.body
    assert body is not None, page
    title = soup.select_one(".pb-title-block")
    # Footnotes are counted once, in the appendix's list: their hover cards repeat them.
    for selector in ("#pb-references", "#pb-appendix-citation", "#pb-appendix-updates",
                     "#pb-appendix-reuse", ".pb-preview", ".pb-card", "a.headerlink",
                     ".pb-interactive__fallback"):  # fmt: skip
        for element in body.select(selector):
            element.decompose()
    formulas = len(body.select('.katex annotation[encoding="application/x-tex"]'))
    cites = len(body.select(".pb-cite:not(.pb-xref):not(.pb-fn)"))
    footnotes = len(body.select("a.footnote-reference"))
    figures = len(body.select("figure"))
    for element in body.select(", ".join((*HIDDEN, ".katex", ".pb-cite:not(.pb-xref):not(.pb-fn)",
                                          "a.footnote-reference", ".pb-card"))):  # fmt: skip
        element.decompose()
    text = body.get_text(" ")
    if title is not None:
        for element in title.select(".pb-byline, .pb-meta, nav"):
            element.decompose()
        text += " " + title.get_text(" ")
    return {"words": words(text), "formulas": formulas, "citations": cites,
            "footnotes": footnotes, "figures": figures}  # fmt: skip


class _SubPath(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path: str) -> str:
        if not path.startswith(SUB_PATH):
            return "/nonexistent"
        return super().translate_path("/" + path[len(SUB_PATH) :])

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    handler = functools.partial(_SubPath, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}{SUB_PATH}"
    finally:
        httpd.shutdown()


#: Debian's Chromium headless shell, as in tests/browser/conftest.py.
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]  # fmt: skip
#: Where each side's article is: the original's body less Distill's chrome, our article.
ROOTS = {"original": "body", "ours": ".pb-article"}
#: Distill's chrome (header, footer, byline, reference lists): not the article's content.
CHROME = ("distill-header, distill-footer, dt-header, dt-footer, d-byline, dt-byline, "
          "d-front-matter, d-bibliography, d-citation-list, d-footnote-list, .pb-header, "
          ".pb-footer, .pb-search-dialog")  # fmt: skip
#: The page's own look: class selectors of its stylesheets, less the math renderers'.
_CLASSES_JS = """() => {
  const found = new Set();
  const walk = rules => { for (const rule of rules) {
    if (rule.selectorText)
      for (const m of rule.selectorText.matchAll(/\\.(-?[_a-zA-Z][\\w-]*)/g)) found.add(m[1]);
    if (rule.cssRules) walk(rule.cssRules);
  } };
  for (const sheet of document.styleSheets) { try { walk(sheet.cssRules); } catch (e) {} }
  return [...found].filter(c => !/^(katex|mjx|MathJax|MJX)/.test(c));
}"""
#: The counts made in the page, after it was scrolled through (argument: root, chrome, classes).
_METRICS_JS = """([root, chrome, classes]) => {
  const roots = [...document.querySelectorAll(root)];
  const inArticle = e => roots.some(r => r.contains(e)) && !e.closest(chrome);
  const visible = e => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  const box = e => { const b = e.getBoundingClientRect();
    return {l: b.left + scrollX, t: b.top + scrollY,
            r: b.right + scrollX, b: b.bottom + scrollY}; };
  const drawn = [...document.querySelectorAll('svg, canvas')].filter(e =>
    inArticle(e) && visible(e) && !e.closest('.katex, mjx-container, .MathJax')
    && !(e.parentElement && e.parentElement.closest('svg')));
  let handlers = 0;
  for (const e of document.querySelectorAll('*'))
    if ([...e.attributes].some(a => a.name.startsWith('on'))) handlers++;
  const own = new Set(); const used = new Set(); const perClass = {};
  for (const c of classes) {
    let list; try { list = document.getElementsByClassName(c); } catch (e) { continue; }
    for (const e of list)
      if (!e.closest(chrome)) { own.add(e); used.add(c); perClass[c] = (perClass[c] || 0) + 1; }
  }
  const ids = {};
  for (const e of document.querySelectorAll('[id]')) ids[e.id] = (ids[e.id] || 0) + 1;
  const duplicates = Object.entries(ids).filter(([k, v]) => v > 1);
  const figures = [...document.querySelectorAll('figure, d-figure, svg, canvas')].filter(e =>
    inArticle(e) && visible(e) && !e.closest('.katex, mjx-container, .MathJax')
    && !(e.parentElement && e.parentElement.closest('figure, d-figure, svg, canvas')));
  const paragraphs = [...document.querySelectorAll('p')].filter(e => inArticle(e) && visible(e)
    && !e.closest('figure, d-figure, svg, canvas, figcaption, aside, d-footnote'));
  const fboxes = figures.map(f => [f, box(f)]);
  const overlapped = []; const examples = [];
  for (const p of paragraphs) {
    if (!(p.textContent || '').trim()) continue;
    const pb = box(p);
    for (const [f, fb] of fboxes) {
      if (f.contains(p) || p.contains(f)) continue;
      const w = Math.min(pb.r, fb.r) - Math.max(pb.l, fb.l);
      const h = Math.min(pb.b, fb.b) - Math.max(pb.t, fb.t);
      if (w > 4 && h > 4) { overlapped.push(p);
        const c = f.className && typeof f.className === 'string' ? f.className.split(' ')[0] : '';
        if (examples.length < 3) examples.push(
          `${f.tagName.toLowerCase()}${f.id ? '#' + f.id : ''}${c ? '.' + c : ''}`
          + ` over "${p.textContent.trim().slice(0, 40)}"`
          + ` (${Math.round(w)}x${Math.round(h)} at y=${Math.round(pb.t)})`);
        break; }
    }
  }
  return {drawn: drawn.length, handlers, own: own.size, ownClasses: used.size, perClass,
          duplicates: duplicates.reduce((n, [k, v]) => n + v - 1, 0),
          duplicateIds: duplicates.slice(0, 5).map(([k, v]) => `${k} x${v}`),
          overlaps: overlapped.length, overlapExamples: examples,
          height: document.documentElement.scrollHeight};
}"""


def in_browser(
    site: Path,
    screenshot: Path,
    side: str = "ours",
    runtime: Path | None = None,
    classes: list[str] | None = None,
) -> dict[str, object]:
    """Page errors, local 404s, blocked requests and the counts of _METRICS_JS, for the
    original (``side="original"``: Distill's runtime served from RUNTIME, the classes its
    stylesheets select returned under "classes") or for our build."""
    from playwright.sync_api import Request, Route, sync_playwright

    errors: list[str] = []
    missing: list[str] = []
    blocked: list[str] = []
    metrics: dict[str, object] = {}
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900})

        def route(request_route: Route, request: Request) -> None:
            url = urlsplit(request.url)
            local = runtime / Path(url.path).name if runtime is not None else None
            if request.url.startswith(base.split(SUB_PATH)[0]):
                request_route.continue_()
            elif (
                side == "original"
                and local is not None
                and url.netloc.endswith("distill.pub")
                and re.fullmatch(r"template\.v[12]\.js", local.name)
                and local.is_file()
            ):
                request_route.fulfill(path=str(local), content_type="text/javascript")
            else:
                blocked.append(request.url)
                request_route.abort()

        page.route("**/*", route)
        page.on("pageerror", lambda error: errors.append(str(error).split("\n")[0][:160]))
        page.on(
            "response",
            lambda response: (
                missing.append(response.url.split(SUB_PATH)[-1]) if response.status >= 400 else None
            ),
        )
        try:
            page.goto(base + "index.html", wait_until="load", timeout=60_000)
            page.wait_for_timeout(3000)
            # Scroll through, so figures drawn when they come into view are drawn.
            height = page.evaluate("document.documentElement.scrollHeight")
            for y in range(0, min(int(height), 200_000), 700):
                page.evaluate(f"window.scrollTo(0, {y})")
                page.wait_for_timeout(80)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(800)
            if side == "original":
                classes = page.evaluate(_CLASSES_JS)
                metrics["classes"] = classes
            metrics.update(page.evaluate(_METRICS_JS, [ROOTS[side], CHROME, classes or []]))
            try:  # a page taller than Chromium can capture keeps its counts
                page.screenshot(path=str(screenshot), full_page=True, timeout=60_000)
            except Exception as error:
                metrics["screenshot"] = str(error).split("\n")[0]
        except Exception as error:  # a broken page is a result, not a crash
            errors.append(f"(driver) {error}".split("\n")[0])
        browser.close()
    hosts = sorted({urlsplit(url).netloc for url in blocked})
    return {"page errors": errors, "404": sorted(set(missing)),
            "blocked (other origins)": f"{len(blocked)} {' '.join(hosts)}".strip(),
            **metrics}  # fmt: skip


def try_article(
    source: Path, out: Path, browser: bool, runtime: Path | None = None, reuse: bool = False
) -> dict[str, object]:
    name = source.name
    project = out / name
    page = project / "_build" / "html" / "index.html"
    result: dict[str, object] = {"article": name}
    if reuse and page.is_file():
        result["import exit"] = "reused"
    else:
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(io.StringIO()):
            code = cli_main(["import-distill", str(source), str(project)])
        (out / f"{name}.report.txt").write_text(stdout.getvalue(), "utf-8")
        result["import exit"] = code
        if code != 0:
            return result
        build = subprocess.run(
            [sys.executable, "-m", "sphinx", "-N", "-W", "--keep-going", "-q", "-b", "html",
             str(project), str(project / "_build" / "html")],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        warnings = [line for line in build.stderr.splitlines() if "WARNING" in line]
        result["-W"] = "pass" if build.returncode == 0 else f"fail ({len(warnings)} warnings)"
        result["warnings"] = warnings[:5]
    if page.is_file():
        original = source_counts(source / "index.html")
        built = built_counts(page)
        result["counts (original -> built)"] = {
            key: f"{original[key]} -> {built[key]}" for key in original
        }
        if browser:
            first = in_browser(source, out / f"{name}.original.png", "original", runtime)
            classes = first.pop("classes", None)
            second = in_browser(project / "_build" / "html", out / f"{name}.png", "ours",
                                classes=classes if isinstance(classes, list) else [])  # fmt: skip
            counts: list[dict[str, int]] = []
            for side in (first, second):
                count = side.pop("perClass", None)
                counts.append(count if isinstance(count, dict) else {})
            differ = sorted(
                (
                    c
                    for c in set(counts[0]) | set(counts[1])
                    if counts[0].get(c) != counts[1].get(c)
                ),
                key=lambda c: -abs(counts[0].get(c, 0) - counts[1].get(c, 0)),
            )
            second["ownClassDiff"] = [f".{c} {counts[0].get(c, 0)}->{counts[1].get(c, 0)}"
                                      for c in differ[:8]]  # fmt: skip
            result["browser (original -> built)"] = {
                key: f"{first.get(key)} -> {second.get(key)}" for key in first
            }
            result["own classes that differ"] = second["ownClassDiff"]
            result["_sides"] = (original, built, first, second)
    return result


#: The table's columns: (heading, where the count is, its key).
COLUMNS = (("words", "static", "words"), ("formulas", "static", "formulas"),
           ("citations", "static", "citations"), ("drawn svg/canvas", "browser", "drawn"),
           ("on* handlers", "browser", "handlers"), ("own-class elements", "browser", "own"),
           ("own classes used", "browser", "ownClasses"),
           ("duplicate ids", "browser", "duplicates"),
           ("figure/text overlaps", "browser", "overlaps"), ("height px", "browser", "height"),
           ("page errors", "browser", "page errors"), ("404s", "browser", "404"))  # fmt: skip


def _cell(value: object) -> str:
    if isinstance(value, list):
        return str(len(value))
    return "-" if value is None else str(value)


def write_table(results: list[dict[str, object]], path: Path) -> None:
    """One row an article, one column a count, each cell ``original / ours``; then the
    page errors, 404s, duplicate ids and overlaps of each side spelt out."""
    lines = ["| article | -W | " + " | ".join(heading for heading, _, _ in COLUMNS) + " |",
             "|---" * (len(COLUMNS) + 2) + "|"]  # fmt: skip
    details: list[str] = []
    for result in results:
        sides = result.get("_sides")
        if not isinstance(sides, tuple):
            lines.append(
                f"| {result['article']} | {result.get('-W', '-')} "
                f"| import exit {result.get('import exit')} |"
            )
            continue
        original, built, first, second = sides
        cells = []
        for _, where, key in COLUMNS:
            left, right = (original, built) if where == "static" else (first, second)
            a, b = _cell(left.get(key)), _cell(right.get(key))
            cells.append(a if a == b else f"{a} / **{b}**")
        build = result.get("-W", "-")
        lines.append(f"| {result['article']} | {build} | " + " | ".join(cells) + " |")
        details.append(f"### {result['article']}\n")
        warnings = result.get("warnings")
        if isinstance(warnings, list):
            details += [f"- ours, -W warning: `{line}`" for line in warnings]
        for label, side in (("original", first), ("ours", second)):
            for key in ("page errors", "404", "duplicateIds", "overlapExamples", "ownClassDiff",
                        "blocked (other origins)"):  # fmt: skip
                value = side.get(key)
                if value:
                    details.append(f"- {label}, {key}: " + (
                        "; ".join(f"`{item}`" for item in value[:6]) + (
                            f" (+{len(value) - 6})" if len(value) > 6 else "")
                        if isinstance(value, list) else f"`{value}`"))  # fmt: skip
        details.append("")
    path.write_text(
        "Each cell: original / **ours** (one number when they agree). words, formulas and\n"
        "citations are read from the HTML (scripts/try_distill_imports.py source_counts and\n"
        "built_counts); the rest is counted in headless Chromium after scrolling each page\n"
        "through, offline.\n\n" + "\n".join(lines) + "\n\n## Details\n\n" + "\n".join(details),
        "utf-8",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("articles", type=Path, help="a folder of article folders")
    parser.add_argument("out", type=Path, help="where the projects and screenshots go")
    parser.add_argument("--no-browser", action="store_true", help="skip Chromium")
    parser.add_argument("--only", nargs="*", default=None, help="article folder names")
    parser.add_argument(
        "--runtime",
        type=Path,
        default=None,
        help="a folder with template.v1.js/template.v2.js for the originals",
    )
    parser.add_argument("--table", type=Path, default=None, help="write a Markdown table here")
    parser.add_argument("--reuse", action="store_true",
                        help="keep an article's earlier import and build in OUT")  # fmt: skip
    options = parser.parse_args(argv)
    options.out.mkdir(parents=True, exist_ok=True)
    folders = sorted(
        p for p in options.articles.iterdir() if p.is_dir() and (p / "index.html").is_file()
    )
    if options.only:
        folders = [p for p in folders if p.name in options.only]
    results = []
    for folder in folders:
        result = try_article(
            folder, options.out, not options.no_browser, options.runtime, options.reuse
        )
        results.append(result)
        if options.table is not None:
            write_table(results, options.table)
        print(f"== {result['article']}")
        for key, value in result.items():
            if key in ("article", "_sides"):
                continue
            if isinstance(value, dict):
                print(f"  {key}:")
                for inner_key, inner in value.items():
                    print(f"    {inner_key}: {inner}")
            elif isinstance(value, list):
                print(f"  {key}:" + ("" if value else " none"))
                for item in value:
                    print(f"    {item}")
            else:
                print(f"  {key}: {value}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
