"""Import each Distill article of a folder, build it with -W, and compare it with the original.

    .venv/bin/python scripts/try_distill_imports.py ARTICLES OUT [--no-browser]

ARTICLES holds one folder per article, each with the published ``index.html`` beside
its files (e.g. the ``public/`` folder of a ``distillpub/post--NAME`` repository).
Nothing is fetched: the articles are what you give, and the browser is kept on
loopback (any request to another origin is aborted and counted).

For each article it prints the import's exit code, the ``sphinx-build -W`` result
(and the first warnings), words, formulas, citations, footnotes and figures in the
original and in the built page, and, in headless Chromium (/usr/bin/chromium), the
page errors, the local files that 404 and the drawn SVG/canvas elements of the
interactive figures; a full-page screenshot goes to OUT/NAME.png.
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
from sphinx_playbook.cli.distill.math import math_setup
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
                    or string.parent.name in HIDDEN
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
    text = " ".join(
        holder.get_text(" ") for name in ("d-title", "d-article", "d-appendix")
        for holder in soup.find_all(name)
    )  # fmt: skip
    if pattern is not None:
        text = pattern[0].sub(" ", " ".join(text.split()))
    return {"words": words(text), "formulas": formulas, "citations": cites,
            "footnotes": footnotes, "figures": figures}  # fmt: skip


def built_counts(page: Path) -> dict[str, int]:
    soup = BeautifulSoup(page.read_text("utf-8"), "html.parser")
    body = soup.select_one(".pb-body") or soup.body
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


def in_browser(site: Path, screenshot: Path) -> dict[str, object]:
    """Page errors, local 404s, blocked requests, drawn SVG/canvas in the article's body."""
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    missing: list[str] = []
    blocked: list[str] = []
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        page = browser.new_page(viewport={"width": 1440, "height": 900})

        def route(request_route, request) -> None:  # type: ignore[no-untyped-def]
            if request.url.startswith(base.split(SUB_PATH)[0]):
                request_route.continue_()
            else:
                blocked.append(request.url)
                request_route.abort()

        page.route("**/*", route)
        page.on("pageerror", lambda error: errors.append(str(error).split("\n")[0]))
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
            height = page.evaluate("document.body.scrollHeight")
            for y in range(0, int(height), 800):
                page.evaluate(f"window.scrollTo(0, {y})")
                page.wait_for_timeout(60)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(500)
            drawn = page.evaluate(
                """() => [...document.querySelectorAll('.pb-body svg, .pb-body canvas')]
                     .filter(e => !e.closest('.katex') && e.getBoundingClientRect().width > 0
                                  && e.getBoundingClientRect().height > 0).length"""
            )
            page.screenshot(path=str(screenshot), full_page=True)
        except Exception as error:  # a broken page is a result, not a crash
            errors.append(f"(driver) {error}".split("\n")[0])
            drawn = -1
        browser.close()
    hosts = sorted({urlsplit(url).netloc for url in blocked})
    return {"page errors": errors, "404": sorted(set(missing)),
            "blocked (other origins)": f"{len(blocked)} {' '.join(hosts)}".strip(),
            "drawn svg/canvas": drawn}  # fmt: skip


def try_article(source: Path, out: Path, browser: bool) -> dict[str, object]:
    name = source.name
    project = out / name
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(io.StringIO()):
        code = cli_main(["import-distill", str(source), str(project)])
    (out / f"{name}.report.txt").write_text(stdout.getvalue(), "utf-8")
    result: dict[str, object] = {"article": name, "import exit": code}
    if code != 0:
        return result
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(project), str(project / "_build" / "html")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    warnings = [line for line in build.stderr.splitlines() if "WARNING" in line]
    result["-W"] = "pass" if build.returncode == 0 else f"fail ({len(warnings)} warnings)"
    result["warnings"] = warnings[:5]
    page = project / "_build" / "html" / "index.html"
    if page.is_file():
        original = source_counts(source / "index.html")
        built = built_counts(page)
        result["counts (original -> built)"] = {
            key: f"{original[key]} -> {built[key]}" for key in original
        }
        if browser:
            result["browser"] = in_browser(project / "_build" / "html", out / f"{name}.png")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("articles", type=Path, help="a folder of article folders")
    parser.add_argument("out", type=Path, help="where the projects and screenshots go")
    parser.add_argument("--no-browser", action="store_true", help="skip Chromium")
    parser.add_argument("--only", nargs="*", default=None, help="article folder names")
    options = parser.parse_args(argv)
    options.out.mkdir(parents=True, exist_ok=True)
    folders = sorted(
        p for p in options.articles.iterdir() if p.is_dir() and (p / "index.html").is_file()
    )
    if options.only:
        folders = [p for p in folders if p.name in options.only]
    for folder in folders:
        result = try_article(folder, options.out, not options.no_browser)
        print(f"== {result.pop('article')}")
        for key, value in result.items():
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
