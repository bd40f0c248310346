"""What a reader downloads: at load, and for a full read to the end of the page.

Builds one reading book twice, with sphinx_playbook's defaults and without what
makes a full read lighter (``playbook_images = "off"``, and plotly.js always the
full bundle), serves each from a loopback server that logs the bytes it sends
(text compressed with gzip as a host would), and scrolls each page to its end in
headless Chromium at 1440 and 390 px::

    python benchmarks/full_read.py                 # the generated reading book
    python benchmarks/full_read.py --book DIR      # a book of yours (conf.py in DIR)

The generated book has photographs (noise over gradients, which PNG compresses
as badly as it does a photograph) in the text column, the page column, a band
and a side-by-side block, an animated GIF, and a page of Plotly figures when the
plotly package is installed. plotly.js's partial bundles come from a
``node_modules`` folder beside the book (``npm install plotly.js-basic-dist-min``)
or one above it (``--node-modules DIR`` copies one there); without one, both
builds serve the full bundle.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import random
import shutil
import subprocess
import sys
import threading
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).parent
CHROMIUM = Path("/usr/bin/chromium")
REFERENCE = HERE.parent.parent / "shared" / "reference"
TEXT_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml")
WIDTHS = (1440, 390)


def _photo(path: Path, width: int, height: int, seed: int) -> None:
    from PIL import Image

    rng = random.Random(seed)
    image = Image.new("RGB", (width, height))
    image.putdata(
        [
            (x * 255 // width, y * 255 // height, rng.randrange(96) + 80)
            for y in range(height)
            for x in range(width)
        ]
    )
    image.save(path)


def _plotly_page(root: Path) -> str:
    try:
        import plotly.graph_objects as go
    except ImportError:
        return ""
    (root / "figures").mkdir(exist_ok=True)
    lines = ["# Figures", ""]
    for index in range(4):
        figure = go.Figure(go.Scatter(x=list(range(50)), y=[(i * index) % 17 for i in range(50)]))
        figure.update_layout(width=720, height=400)
        name = f"figures/scatter{index}.html"
        figure.write_html(root / name, include_plotlyjs=False, full_html=True)
        lines += [
            f":::{{interactive-figure}} {name}",
            f":alt: A scatter plot, number {index}.",
            "",
            f"Scatter plot {index}.",
            ":::",
            "",
            "Text between the figures. " * 40,
            "",
        ]
    return "\n".join(lines)


def write_reading_book(root: Path, pictures: list[Path]) -> Path:
    """A chapter of pictures and, with plotly installed, a page of Plotly figures.

    ``pictures``: four PNG files (screenshots of real articles make a fair test:
    text, charts and photographs); missing ones are made of noise over gradients."""
    images = root / "images"
    images.mkdir(parents=True)
    for index in range(4):
        if index < len(pictures):
            shutil.copyfile(pictures[index], images / f"photo{index}.png")
        else:
            _photo(images / f"photo{index}.png", 2000, 1125, index)
    from PIL import Image

    frames = [Image.new("RGB", (480, 270), (i * 25, 120, 255 - i * 25)) for i in range(10)]
    frames[0].save(images / "steps.gif", save_all=True, append_images=frames[1:], duration=150)
    prose = "A paragraph of the article, long enough to scroll past. " * 25
    chapter = [
        "# Photographs",
        "",
        prose,
        "",
        "![A photograph in the text column](images/photo0.png)",
        "",
        "```{figure-legend}\nA photograph in the text column.\n```",
        "",
        prose,
        "",
        ":::{layout} page",
        "![A photograph in the page column](images/photo1.png)",
        ":::",
        "",
        prose,
        "",
        ":::{wide-image} images/photo2.png\n:alt: A photograph as a band\n:::",
        "",
        prose,
        "",
        "::::{side-by-side}",
        "![Left](images/photo3.png)",
        "",
        "![Right](images/photo0.png)",
        "::::",
        "",
        "![An animation in ten steps](images/steps.gif)",
        "",
        prose,
    ]
    (root / "index.md").write_text("\n".join(chapter) + "\n\n```{toctree}\nfigures\n```\n")
    (root / "figures.md").write_text(_plotly_page(root) or "# Figures\n\nNo plotly here.\n")
    (root / "conf.py").write_text(
        'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\nproject = "Reading"\n'
    )
    return root


class _Logged(http.server.SimpleHTTPRequestHandler):
    """Sends text gzip-compressed (as GitHub Pages would) and logs bytes per type."""

    log: list[tuple[str, str, int]]

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")  # as GitHub Pages sends
        super().end_headers()

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        kind = self.guess_type(str(path))
        if not path.is_file() or not kind.startswith(TEXT_TYPES):
            response = super().send_head()
            if path.is_file():
                self.log.append((self.path, kind, path.stat().st_size))
            return response
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.log.append((self.path, kind, len(body)))
        import io

        return io.BytesIO(body)


@contextmanager
def serve(root: Path) -> Iterator[tuple[str, list[tuple[str, str, int]]]]:
    log: list[tuple[str, str, int]] = []
    handler = functools.partial(type("Handler", (_Logged,), {"log": log}), directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", log
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _kind(content_type: str) -> str:
    for prefix, name in (
        ("image/svg", "svg"),
        ("image/", "image"),
        ("text/html", "html"),
        ("text/css", "css"),
        ("application/javascript", "js"),
        ("text/javascript", "js"),
        ("font/", "font"),
    ):
        if content_type.startswith(prefix):
            return name
    return "other"


#: Layout shifts from navigation on (as Chromium reports them to the page).
_SHIFTS = """window.__pbShifts = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries())
  if (!e.hadRecentInput) window.__pbShifts += e.value; })
  .observe({type: "layout-shift", buffered: true});"""


def read(browser, base: str, log: list, page: str, width: int) -> dict[str, dict[str, float]]:
    """Bytes by kind at load and after scrolling to the end (with lazy loads), and
    the layout shift of the whole read (``cls``)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    tab = context.new_page()
    tab.add_init_script(_SHIFTS)
    log.clear()
    tab.goto(base + page, wait_until="networkidle")
    at_load = list(log)
    height = tab.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height + 900, 600):
        tab.evaluate(f"scrollTo(0, {y})")
        tab.wait_for_timeout(120)
    tab.wait_for_load_state("networkidle")
    tab.wait_for_timeout(500)
    full = list(log)
    shifts = float(tab.evaluate("window.__pbShifts"))
    context.close()
    result: dict[str, dict[str, float]] = {"load": defaultdict(int), "full": defaultdict(int)}
    for name, entries in (("load", at_load), ("full", full)):
        for _path, kind, size in entries:
            result[name][_kind(kind)] += size
            result[name]["total"] += size
    return {**{name: dict(sizes) for name, sizes in result.items()}, "cls": {"total": shifts}}


def larger_variants(out: Path) -> list[str]:
    """Image copies that weigh more than the image they were made from (there must be
    none): each ``<source>`` of a page's ``<picture>`` against its ``<img>``."""
    from bs4 import BeautifulSoup

    larger = []
    for page in out.rglob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for picture in soup.select("picture"):
            image = picture.find("img")
            original = (page.parent / image["src"]).resolve() if image else None
            if original is None or not original.is_file():
                continue
            for candidate in picture.select("source"):
                for entry in candidate["srcset"].split(","):
                    copy = (page.parent / entry.split()[0]).resolve()
                    if copy.stat().st_size > original.stat().st_size:
                        larger.append(f"{copy.name} > {original.name}")
    return larger


def warm_build_times(source: Path, work: Path, runs: int, *overrides: str) -> dict[str, float]:
    """Median seconds of a full rebuild (``-E``: every page read and written again)
    with the image cache warm, ours against ``overrides``, in paired runs."""
    import statistics
    import time

    times: dict[str, list[float]] = {"ours": [], "without": []}
    for label, extra in (("ours", ()), ("without", overrides)):  # warm each cache once
        build(source, work / f"warm-{label}", "-E", *extra)
    for index in range(runs):
        order = [("ours", ()), ("without", overrides)]
        for label, extra in order if index % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            build(source, work / f"warm-{label}", "-E", *extra)
            times[label].append(time.perf_counter() - start)
    ratios = [a / b for a, b in zip(times["ours"], times["without"], strict=True)]
    return {
        "ours": statistics.median(times["ours"]),
        "without": statistics.median(times["without"]),
        "ratio": statistics.median(ratios),
    }


def budgets(report: dict, larger: list[str], build_times: dict[str, float] | None) -> list[str]:
    """The issue's budgets, each a line that says whether it holds."""
    lines = []

    def check(holds: bool, text: str) -> None:
        lines.append(f"{'met ' if holds else 'MISSED'} {text}")

    for width, limit in (("390", 0.5), ("1440", 2 / 3)):
        # The book's full read, every page to its end: a page with nothing these
        # features touch (a phone's page of figures, which shows their images) weighs
        # the same either way.
        mine = sum(widths[width]["ours"]["full"]["total"] for widths in report.values())
        theirs = sum(widths[width]["without"]["full"]["total"] for widths in report.values())
        ratio = mine / max(theirs, 1)
        check(
            ratio <= limit,
            f"{width} px: full read of every page {mine / 1e3:.0f} KB, "
            f"{ratio:.2f} of without (<= {limit:.2f})",
        )
        for page, widths in report.items():
            cls = widths[width]["ours"]["cls"]["total"]
            check(cls < 0.005, f"{page} {width} px: CLS {cls:.3f} (0.00 as before)")
    check(not larger, f"no image copy larger than its source ({len(larger)} are)")
    if build_times:
        check(
            build_times["ratio"] <= 1.05,
            f"rebuild with a warm cache: {build_times['ours']:.2f} s against "
            f"{build_times['without']:.2f} s without ({build_times['ratio']:.3f}, <= 1.05)",
        )
    return lines


def _full_plotly() -> str | None:
    try:
        import plotly
    except ImportError:
        return None
    return str(Path(plotly.__file__).parent / "package_data" / "plotly.min.js")


def build(source: Path, out: Path, *overrides: str) -> None:
    command = [sys.executable, "-m", "sphinx", "-q", "-b", "html", *overrides]
    subprocess.run([*command, str(source), str(out)], check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--book", type=Path, help="a book to read instead of the generated one")
    parser.add_argument("--work", type=Path, default=HERE / "results" / "full-read")
    parser.add_argument(
        "--node-modules",
        type=Path,
        help="a node_modules folder with plotly.js-*-dist-min packages, put beside the book",
    )
    parser.add_argument(
        "--pictures",
        type=Path,
        nargs="*",
        default=sorted(REFERENCE.glob("reference-1440-*.png"))
        + sorted(REFERENCE.glob("reference-390-*.png")),
        help="four PNG files for the generated book (default: ../shared/reference/)",
    )
    parser.add_argument(
        "--build-runs", type=int, default=5, help="paired warm rebuilds timed (0: none)"
    )
    arguments = parser.parse_args(argv)
    shutil.rmtree(arguments.work, ignore_errors=True)
    source = arguments.work / "book"
    if arguments.book:  # a copy, so that node_modules can sit beside it as npm puts it
        shutil.copytree(arguments.book, source, ignore=shutil.ignore_patterns("_build"))
    else:
        write_reading_book(source, arguments.pictures)
    if arguments.node_modules:  # plotly.js's partial bundles, as npm installs them
        shutil.copytree(arguments.node_modules, arguments.work / "node_modules")
    ours, without = arguments.work / "ours", arguments.work / "without"
    build(source, ours)
    full_plotly = _full_plotly()
    overrides = ["-D", "playbook_images=off"]
    if full_plotly:  # a path, not "auto": the full bundle, whatever node_modules holds
        overrides += ["-D", f"playbook_interactive_libraries.plotly={full_plotly}"]
    build(source, without, *overrides)
    from playwright.sync_api import sync_playwright

    pages = sorted(p.relative_to(ours).as_posix() for p in ours.glob("*.html"))
    pages = [p for p in pages if p not in ("genindex.html", "search.html")]
    report: dict = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        for label, root in (("ours", ours), ("without", without)):
            with serve(root) as (base, log):
                for page in pages:
                    for width in WIDTHS:
                        report.setdefault(page, {}).setdefault(str(width), {})[label] = read(
                            browser, base, log, page, width
                        )
        browser.close()
    larger = larger_variants(ours)
    build_times = (
        warm_build_times(source, arguments.work, arguments.build_runs, *overrides)
        if arguments.build_runs
        else None
    )
    report_file = {"pages": report, "larger_variants": larger, "warm_build": build_times}
    (arguments.work / "report.json").write_text(json.dumps(report_file, indent=2))
    print(
        f"{'page':<16} {'width':>5} {'load ours':>10} {'full ours':>10} {'full without':>13} ratio"
    )
    for page, widths in report.items():
        for width, result in widths.items():
            mine, theirs = result["ours"], result["without"]
            ratio = mine["full"]["total"] / max(theirs["full"]["total"], 1)
            print(
                f"{page:<16} {width:>5} {mine['load']['total'] / 1e3:>9.0f}K "
                f"{mine['full']['total'] / 1e3:>9.0f}K {theirs['full']['total'] / 1e3:>12.0f}K "
                f"{ratio:.2f}"
            )
            kinds = sorted((set(mine["full"]) | set(theirs["full"])) - {"total"})
            for kind in kinds:
                print(
                    f"{'':<16} {kind:>5} {'':>10} {mine['full'].get(kind, 0) / 1e3:>9.0f}K "
                    f"{theirs['full'].get(kind, 0) / 1e3:>12.0f}K"
                )
    print("\n".join(budgets(report, larger, build_times)))


if __name__ == "__main__":
    main()
