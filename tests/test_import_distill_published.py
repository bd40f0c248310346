"""An imported article keeps working: its scripts, styles, modules, data and frames are
published with the page, and run in Chromium against the ids they expect.

The fixture (tests/data/distill/published) has what real distill.pub posts have: a
head script and stylesheet, a module importing modules, a bundle after the
bibliography, an empty mount point, a panel selected as ``#MC``, files named only in
JavaScript, root-absolute and query-string URLs, and one import that names no file.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup
from helpers import read_page, sphinx_build, write_project

from sphinx_playbook.cli import main

FIXTURES = Path(__file__).parent / "data" / "distill"
SUB_PATH = "/sub/path/"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("published")
    out = base / "project"
    code = main(["import-distill", str(FIXTURES / "published"), str(out)])
    builds = {}
    for builder in ("html", "dirhtml"):
        builds[builder] = sphinx_build(
            "-W", "-q", "-b", builder, "-d", str(base / "doctrees" / builder), str(out),
            str(base / "site" / builder),
        ).returncode  # fmt: skip
    return {"out": out, "code": code, "builds": builds, "site": base / "site"}


def test_imports_and_builds_with_W_in_html_and_dirhtml(project):
    assert project["code"] == 0
    assert project["builds"] == {"html": 0, "dirhtml": 0}


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_every_local_url_of_the_page_names_a_published_file(project, builder):
    site = project["site"] / builder
    page = site / "index.html"
    soup = read_page(site)
    urls = [
        element.get("src") or element.get("href")
        for element in soup.select(
            "script[src], link[rel~=stylesheet], img[src], video[src], audio[src]"
        )
    ]
    local = [url for url in urls if not urlsplit(url).scheme]
    # The head's stylesheet and script, the bundle after the bibliography; "../media" climbed
    # above the original site's root, where a browser stays at the root.
    assert {"css/style.css", "js/chart.js", "js/after.js", "media/clip.webm"} <= set(local)
    assert local.count("media/clip.webm") == 2
    for url in local:
        assert (page.parent / urlsplit(url).path).resolve().is_file(), url
    # Named only in JavaScript and CSS: published all the same.
    for name in ("frames/frame-1.png", "data/points.json", "images/panel.png", "js/scale.js"):
        assert (site / name).is_file(), name


def declared_style(page: Path, soup: BeautifulSoup, element) -> dict[str, str]:
    """The declarations that apply to ``element`` by its ``style`` attribute or by a
    rule for one of its classes in a local stylesheet the page links (where a page
    written for a strict Content-Security-Policy moves its style attributes)."""
    rules: dict[str, str] = {}
    for link in soup.select("link[rel~=stylesheet][href]"):
        path = page.parent / urlsplit(link["href"]).path
        if not urlsplit(link["href"]).netloc and path.is_file():
            css = path.read_text("utf-8")
            rules.update(re.findall(r"\.([\w-]+)\s*\{([^{}]*)\}", css))
    texts = [rules.get(name, "") for name in element.get("class") or []]
    declarations = {}
    for text in [*texts, element.get("style") or ""]:
        for part in text.split(";"):
            if ":" in part:
                key, value = part.split(":", 1)
                declarations[key.strip()] = value.replace("!important", "").strip()
    return declarations


def test_ids_are_kept_exactly_and_mount_points_stay(project):
    page = project["site"] / "html/index.html"
    soup = read_page(project["site"] / "html")
    mount = soup.find(id="chart_mount")
    assert mount is not None and mount.name == "div" and not mount.contents
    panel = soup.find(id="MC")
    assert panel is not None and " ".join(panel.get_text().split()) == "Loading the panel…"
    assert soup.find(id="mc") is None
    # An empty span a script fills keeps its id; a coloured span keeps its style.
    assert soup.find(id="valueRadius").name == "span"
    green = soup.find("span", string="green")
    assert green is not None and declared_style(page, soup, green).get("color") == "green"
    # An icon font's ligature keeps the class that draws it.
    assert soup.select_one("i.material-icons").get_text() == "play_arrow"
    hidden = soup.find("p", string="Shown by a script only.")
    assert hidden is not None and declared_style(page, soup, hidden).get("display") == "none"
    # Hidden until a script shows it: still hidden, its formula rendered at build time.
    later = soup.select_one(".later")
    assert declared_style(page, soup, later).get("display") == "none"
    assert later.select_one('.katex annotation[encoding="application/x-tex"]').get_text() == "h_t"


def test_the_report_names_what_will_404_and_what_is_replaced(tmp_path, capsys):
    assert main(["import-distill", str(FIXTURES / "published"), str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "./lazy.js is loaded (import in js/draw.js) but is not in the article's folder" in out
    # Replaced by the theme; no script listens to its events, so no line about them.
    assert re.search(r"^Distill runtime +1 +1 +0$", out, flags=re.MULTILINE)
    assert "listen to d-figure's events" not in out
    assert "#chart_mount holds no text: kept for the script that fills it" in out


class _SubPath(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path: str) -> str:
        if not path.startswith(SUB_PATH):
            return "/nonexistent"
        return super().translate_path("/" + path[len(SUB_PATH) :])

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def server(project) -> Iterator[str]:
    handler = functools.partial(_SubPath, directory=str(project["site"]))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}{SUB_PATH}"
    httpd.shutdown()


def test_a_script_url_above_the_site_root_is_reported(tmp_path, capsys):
    """On its own site the article was the root, where "../data/x.json" stays at the root;
    under a sub-path it climbs out of the project, which no rewrite of a script can see."""
    source = write_project(
        tmp_path / "article",
        {
            "data/x.json": "[]",
            "js/a.js": 'fetch("../data/x.json");\n',
            "index.html": '<!doctype html><html><head><script src="js/a.js"></script></head>'
            "<body><d-title><h1>Above</h1></d-title><d-article><p>Text.</p></d-article>"
            "</body></html>",
        },
    )
    assert main(["import-distill", str(source), str(tmp_path / "o")]) == 0
    capsys.readouterr()
    every = (tmp_path / "o" / "import-report.txt").read_text("utf-8")
    assert (
        "script URL (check): js/a.js names ../data/x.json, above the site's root (where the "
        "original site stayed): under a sub-path it misses; write it as data/x.json"
    ) in every
