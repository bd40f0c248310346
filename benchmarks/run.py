"""The benchmark: sphinx_playbook against plain pydata-sphinx-theme, side by side.

One command builds the synthetic book of benchmarks/generate.py in our syntax
and in stock Sphinx's, at each size, several times, alternating the two so that
the load of a shared machine falls on both alike; it reports medians with their
min and max::

    python benchmarks/run.py                      # sizes 1 2 4 8 32, 3 runs
    python benchmarks/run.py --sizes 1 2 --runs 3 --no-browser
    python benchmarks/run.py --quick              # size 1, 1 run: a smoke test

What it measures: full build time and peak memory (``os.wait4`` on the
``sphinx-build`` child), ``-j 2`` against ``-j 1`` (at --jobs-size), the cost of
math (our book at the smallest size against itself with ``playbook_math =
"off"``), the rebuild after touching one chapter against the full build (at the
largest size), the
CSS/JS/font bytes a chapter page loads (raw and gzip), and in headless Chromium
(Playwright + Debian's chromium) FCP, LCP, cumulative layout shift and long-task
time at 1440 and 390 px. It prints one table, writes every sample as JSON to
benchmarks/results/, and with --update-docs rewrites the table in
docs/performance.md between its markers.
"""

from __future__ import annotations

import argparse
import compileall
import functools
import gzip
import http.server
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).parent))
import generate  # the generator beside this file

HERE = Path(__file__).parent
RESULTS = HERE / "results"
PERFORMANCE_PAGE = HERE.parent / "docs" / "performance.md"
TABLE_START = "<!-- benchmark-table:start -->"
TABLE_END = "<!-- benchmark-table:end -->"
SIDES = ("ours", "baseline")
#: Our book without build-time math: what rendering the formulas adds to a build.
MATH_OFF = "ours-math-off"
#: The page whose weight and rendering are measured (a full chapter: math, figures...).
ARTICLE = "chapter-001.html"
WIDTHS = (1440, 390)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Installed before any script of the page: paint, LCP, layout-shift and long-task
#: entries, collected from navigation on.
OBSERVE = """
window.__pb = {paint: {}, lcp: 0, shifts: 0, longtasks: 0};
new PerformanceObserver((list) => { for (const e of list.getEntries())
  window.__pb.paint[e.name] = e.startTime; }).observe({type: "paint", buffered: true});
new PerformanceObserver((list) => { for (const e of list.getEntries())
  window.__pb.lcp = e.startTime; }).observe({type: "largest-contentful-paint", buffered: true});
new PerformanceObserver((list) => { for (const e of list.getEntries())
  if (!e.hadRecentInput) window.__pb.shifts += e.value; })
  .observe({type: "layout-shift", buffered: true});
new PerformanceObserver((list) => { for (const e of list.getEntries())
  window.__pb.longtasks += e.duration; }).observe({type: "longtask", buffered: true});
"""
#: Read FCP and LCP once the page has loaded, then scroll to the bottom half a
#: screen at a time (lazy images arrive, shifts are counted) and read the rest.
MEASURE = """async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  await frame(); await frame();
  const fcp = window.__pb.paint["first-contentful-paint"] ?? null;
  const lcp = window.__pb.lcp || null;
  for (let y = 0; y <= document.documentElement.scrollHeight; y += innerHeight / 2) {
    scrollTo(0, y); await frame(); await frame();
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {fcp, lcp, cls: window.__pb.shifts, longtasks: window.__pb.longtasks};
}"""


@dataclass
class Samples:
    """Every run's value of every metric, by name."""

    values: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, value: float | None) -> None:
        if value is not None:
            self.values.setdefault(name, []).append(value)

    def summary(self, name: str) -> dict[str, float] | None:
        values = self.values.get(name)
        if not values:
            return None
        return {"median": statistics.median(values), "min": min(values), "max": max(values)}


# -- Builds -----------------------------------------------------------------------


@dataclass(frozen=True)
class Build:
    wall_s: float
    #: User + system CPU time of the build and its ``-j`` workers: on a shared,
    #: loaded machine this moves far less than the wall time.
    cpu_s: float
    peak_rss_mb: float


def byte_compile_our_package() -> None:
    """Give sphinx_playbook the bytecode an installed package has.

    pip compiles a package's modules when it installs it, so every package the
    baseline imports comes with bytecode. An editable install of ours (a
    development checkout) gets it on first import only where Python may write
    it: under ``PYTHONDONTWRITEBYTECODE`` every build would compile our 40-odd
    modules again, about 50 ms that no user pays.
    """
    spec = importlib.util.find_spec("sphinx_playbook")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("sphinx_playbook is not importable: pip install -e . first")
    for location in spec.submodule_search_locations:
        compileall.compile_dir(location, quiet=1)


def sphinx_build() -> str:
    """The ``sphinx-build`` script of this interpreter's environment: what authors
    run. (Not ``python -m sphinx``: a spawned worker process imports the script
    that started the build, but not a package's ``__main__``, so the two differ.)"""
    found = shutil.which("sphinx-build", path=sysconfig.get_path("scripts"))
    if found is None:
        raise SystemExit("sphinx-build is not installed beside this Python")
    return found


def build(source: Path, out: Path, jobs: int = 1, fresh: bool = True) -> Build:
    """One ``sphinx-build -b html`` in a child process, timed.

    ``os.wait4`` gives the child's resource usage, its waited-for workers (``-j``)
    included; ``ru_maxrss`` is the largest resident set among them, in KB on Linux.
    """
    if fresh and out.exists():
        shutil.rmtree(out)
    command = [sphinx_build(), "-q", "-b", "html", "-j", str(jobs)]
    command += [str(source), str(out)]
    started = time.perf_counter()
    # Not in the invoker's directory: a checkout there would shadow PYTHONPATH's.
    child = subprocess.Popen(
        command, cwd=source.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.returncode:
        raise SystemExit(f"building {source} failed ({child.returncode}):\n{errors}")
    if errors.strip():
        print(f"warnings while building {source}:\n{errors}", file=sys.stderr)
    return Build(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def without_math(source: Path, target: Path) -> Path:
    """A copy of our book that leaves math to the browser (``playbook_math = "off"``)."""
    shutil.copytree(source, target)
    with (target / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('\nplaybook_math = "off"\n')
    return target


def touch_one_chapter(source: Path) -> None:
    """Edit the first chapter as an author would: one more sentence at its end."""
    chapter = source / "chapter-001.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\nOne more sentence.\n")


# -- Pages in the browser -----------------------------------------------------------


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """``root`` on a loopback HTTP server, quietly, for the duration of the block."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(root))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def page_weight(browser, url: str, root: Path, base: str) -> dict[str, float]:
    """CSS, JS and font bytes the page loads (raw, gzip), read from the served files.

    Requests to another origin are refused (the benchmark runs offline) and
    counted: a baseline page with math asks a CDN for MathJax.
    """
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    origin = urlsplit(base).netloc
    loaded: dict[str, str] = {}
    elsewhere: list[str] = []

    def route(route_request) -> None:
        request = route_request.request
        if urlsplit(request.url).netloc != origin and not request.url.startswith("data:"):
            elsewhere.append(request.url)
            route_request.abort()
        else:
            route_request.continue_()

    page.route("**/*", route)
    page.on(
        "requestfinished",
        lambda request: loaded.__setitem__(request.url, request.resource_type),
    )
    page.goto(url, wait_until="networkidle")
    page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(300)
    context.close()
    weight = {"requests_elsewhere": float(len(elsewhere))}
    for kind in ("stylesheet", "script", "font"):
        weight[f"{kind}_raw"] = weight[f"{kind}_gzip"] = 0.0
    for request_url, kind in loaded.items():
        if kind not in ("stylesheet", "script", "font"):
            continue
        path = root / urlsplit(request_url).path.removeprefix("/")
        data = path.read_bytes()
        weight[f"{kind}_raw"] += len(data)
        weight[f"{kind}_gzip"] += len(gzip.compress(data, compresslevel=6))
    weight["total_raw"] = sum(weight[f"{k}_raw"] for k in ("stylesheet", "script", "font"))
    weight["total_gzip"] = sum(weight[f"{k}_gzip"] for k in ("stylesheet", "script", "font"))
    return weight


def rendering(browser, url: str, width: int) -> dict[str, float | None]:
    """FCP, LCP (ms), CLS and long-task time (ms) of one cold load, other origins refused."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_init_script(OBSERVE)
    origin = urlsplit(url).netloc
    context.route(
        "**/*",
        lambda route: route.continue_()
        if urlsplit(route.request.url).netloc == origin
        else route.abort(),
    )
    page = context.new_page()
    page.goto(url, wait_until="load")
    result = page.evaluate(MEASURE)
    context.close()
    return result


# -- The run --------------------------------------------------------------------------


def run(arguments: argparse.Namespace) -> dict:
    sizes: list[int] = sorted(arguments.sizes)
    byte_compile_our_package()
    work = Path(tempfile.mkdtemp(prefix="playbook-bench-"))
    books = {
        size: generate.write_books(work / f"size-{size}", size * generate.CHAPTERS_PER_SIZE)
        for size in sizes
    }
    samples = Samples()
    jobs_size = arguments.jobs_size if arguments.jobs_size in sizes else sizes[-1]
    incremental_size = 8 if 8 in sizes else sizes[-1]
    math_size = sizes[0]
    math_off = without_math(books[math_size][0], work / f"size-{math_size}" / "ours-math-off")

    def out(size: int, side: str, suffix: str = "") -> Path:
        return work / f"size-{size}" / f"{side}-html{suffix}"

    for run_number in range(arguments.runs):
        # Alternate which side goes first, so a slow spell hits both alike.
        order = SIDES if run_number % 2 == 0 else SIDES[::-1]
        for size in sizes:
            for side in order:
                source = books[size][SIDES.index(side)]
                plain = None
                if size == math_size and side == "ours" and run_number % 2:
                    plain = build(math_off, out(size, MATH_OFF))  # before ours, every other run
                full = build(source, out(size, side))
                samples.add(f"build_s/{side}/{size}", full.wall_s)
                if size == sizes[0] and run_number == 0:
                    for name, value in card_weight(out(size, side) / ARTICLE).items():
                        samples.add(f"card_{name}/{side}", value)
                samples.add(f"build_cpu_s/{side}/{size}", full.cpu_s)
                samples.add(f"peak_rss_mb/{side}/{size}", full.peak_rss_mb)
                print(
                    f"run {run_number + 1} size {size} {side}: {full.wall_s:.2f} s "
                    f"(CPU {full.cpu_s:.2f} s) {full.peak_rss_mb:.0f} MB",
                    flush=True,
                )
                if size == math_size and side == "ours":
                    plain = plain or build(math_off, out(size, MATH_OFF))
                    samples.add(f"build_s/{MATH_OFF}/{size}", plain.wall_s)
                    samples.add(f"build_cpu_s/{MATH_OFF}/{size}", plain.cpu_s)
                    print(f"    math off: {plain.wall_s:.2f} s (CPU {plain.cpu_s:.2f} s)")
                if size == jobs_size:
                    parallel = build(source, out(size, side, "-j2"), jobs=2)
                    samples.add(f"build_j2_s/{side}/{size}", parallel.wall_s)
                    print(f"    -j 2: {parallel.wall_s:.2f} s", flush=True)
                if size == incremental_size:
                    touch_one_chapter(source)
                    touched = build(source, out(size, side), fresh=False)
                    samples.add(f"incremental_s/{side}/{size}", touched.wall_s)
                    samples.add(f"incremental_cpu_s/{side}/{size}", touched.cpu_s)
                    print(f"    one chapter touched: {touched.wall_s:.2f} s", flush=True)

    if arguments.browser:
        measure_pages(arguments, books[sizes[0]], work / f"size-{sizes[0]}", samples)

    shutil.rmtree(work, ignore_errors=True)
    return {
        "sizes": sizes,
        "runs": arguments.runs,
        "jobs_size": jobs_size,
        "incremental_size": incremental_size,
        "math_size": math_size,
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average": os.getloadavg(),
            "platform": platform.platform(),
        },
        "versions": versions(),
        "samples": samples.values,
        "summary": {name: samples.summary(name) for name in samples.values},
    }


def measure_pages(arguments, books: tuple[Path, Path], root: Path, samples: Samples) -> None:
    from playwright.sync_api import sync_playwright

    with serve(root) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for side in SIDES:
            url = f"{base}{side}-html/{ARTICLE}"
            weight = page_weight(browser, url, root, base)
            for name, value in weight.items():
                samples.add(f"weight_{name}/{side}", value)
        for _ in range(arguments.runs):
            for width in WIDTHS:
                for side in SIDES:
                    url = f"{base}{side}-html/{ARTICLE}"
                    for name, value in rendering(browser, url, width).items():
                        samples.add(f"{name}/{side}/{width}", value)
        browser.close()


class _CardStore(HTMLParser):
    """Where the page's store of hover cards starts and ends, and what it holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.start = self.end = None
        self.depth = self.cards = self.hosts = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if "pb-xref" in classes:
            self.hosts += 1
        if tag != "div":
            return
        if "pb-previews" in classes and self.start is None:
            self.start, self.depth = self.getpos(), 1
        elif self.depth:
            self.depth += 1
            self.cards += "pb-card" in classes

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self.depth:
            self.depth -= 1
            if not self.depth:
                self.end = self.getpos()


def card_weight(page: Path) -> dict[str, float]:
    """The bytes of a page's cross-reference cards: each target's card, written once.

    A link with a card also gets its host (``<span class="pb-xref" ...>``), counted
    apart: the page grows by the cards and the hosts, and nothing else.
    """
    text = page.read_text(encoding="utf-8")
    store = _CardStore()
    store.feed(text)
    if store.start is None or store.end is None or not store.cards:
        return {"cards": 0.0, "references": float(store.hosts)}
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    begin = starts[store.start[0] - 1] + store.start[1]
    end = starts[store.end[0] - 1] + store.end[1] + len("</div>")
    size = len(text[begin:end].encode("utf-8"))
    host = len('<span class="pb-xref" aria-describedby="pb-preview-00"></span>')
    return {
        "cards": float(store.cards),
        "references": float(store.hosts),
        "bytes_per_card": size / store.cards,
        "bytes_per_reference": float(host),
    }


def versions() -> dict[str, str]:
    from importlib.metadata import version

    names = ("sphinx", "docutils", "myst-parser", "pydata-sphinx-theme", "sphinx-playbook")
    return {name: version(name) for name in names}


# -- The table ----------------------------------------------------------------------


def _cell(summary: dict | None, unit: str, scale: float = 1.0, digits: int = 2) -> str:
    if summary is None:
        return "-"
    median, low, high = (summary[k] * scale for k in ("median", "min", "max"))
    if low == high:
        return f"{median:.{digits}f} {unit}".strip()
    return f"{median:.{digits}f} {unit} ({low:.{digits}f} to {high:.{digits}f})".replace("  ", " ")


def _ratio(a: dict | None, b: dict | None) -> str:
    if not a or not b or b["median"] < 0.001:  # no ratio to a zero (layout shift, requests)
        return "-"
    return f"{a['median'] / b['median']:.2f}"


def table(result: dict) -> list[str]:
    """Markdown rows: metric, ours, baseline, ours / baseline (medians, min-max)."""
    summary = result["summary"]
    rows = [
        "| metric | sphinx_playbook | pydata-sphinx-theme | ours / baseline |",
        "| --- | --- | --- | --- |",
    ]

    def row(label: str, name: str, unit: str, scale: float = 1.0, digits: int = 2) -> None:
        ours, base = summary.get(name.format(side="ours")), summary.get(
            name.format(side="baseline")
        )
        if ours is None and base is None:
            return
        ours_cell, base_cell = _cell(ours, unit, scale, digits), _cell(base, unit, scale, digits)
        rows.append(f"| {label} | {ours_cell} | {base_cell} | {_ratio(ours, base)} |")

    chapters = generate.CHAPTERS_PER_SIZE
    for size in result["sizes"]:
        pages = size * chapters + 1
        row(f"full build, size {size} ({pages} pages)", f"build_s/{{side}}/{size}", "s")
    for size in result["sizes"]:
        row(f"CPU time of the build, size {size}", f"build_cpu_s/{{side}}/{size}", "s")
    for size in result["sizes"]:
        row(f"peak memory, size {size}", f"peak_rss_mb/{{side}}/{size}", "MB", digits=0)
    math_size = result.get("math_size")
    if math_size is not None:
        for clock, label in (("build_s", "full build"), ("build_cpu_s", "CPU time")):
            plain = summary.get(f"{clock}/{MATH_OFF}/{math_size}")
            with_math = summary.get(f"{clock}/ours/{math_size}")
            if plain and with_math:
                rows.append(
                    f"| {label}, size {math_size}, with math / with `playbook_math = \"off\"` "
                    f"| {_cell(with_math, 's')} | {_cell(plain, 's')} (ours, math off) "
                    f"| {_ratio(with_math, plain)} |"
                )
    jobs = result["jobs_size"]
    row(f"build with -j 2, size {jobs}", f"build_j2_s/{{side}}/{jobs}", "s")
    last = result["incremental_size"]
    row(f"rebuild after touching one chapter, size {last}", f"incremental_s/{{side}}/{last}", "s")
    row(f"CPU time of that rebuild, size {last}", f"incremental_cpu_s/{{side}}/{last}", "s")
    for kind, label in (("stylesheet", "CSS"), ("script", "JS"), ("font", "fonts")):
        row(f"{label} loaded by a chapter, gzip", f"weight_{kind}_gzip/{{side}}", "KB", 1 / 1024, 1)
    row("CSS + JS + fonts, gzip", "weight_total_gzip/{side}", "KB", 1 / 1024, 1)
    row("CSS + JS + fonts, raw", "weight_total_raw/{side}", "KB", 1 / 1024, 1)
    row("requests to another origin (refused)", "weight_requests_elsewhere/{side}", "", 1, 0)
    row("cross-references in a chapter", "card_references/{side}", "", 1, 0)
    row("hover cards in a chapter (one per target)", "card_cards/{side}", "", 1, 0)
    row("bytes per hover card, raw", "card_bytes_per_card/{side}", "B", 1, 0)
    for width in WIDTHS:
        row(f"First Contentful Paint, {width} px", f"fcp/{{side}}/{width}", "ms", digits=0)
        row(f"Largest Contentful Paint, {width} px", f"lcp/{{side}}/{width}", "ms", digits=0)
        row(f"Cumulative Layout Shift, {width} px", f"cls/{{side}}/{width}", "", digits=3)
        row(f"long tasks, {width} px", f"longtasks/{{side}}/{width}", "ms", digits=0)
    return rows


def budgets(result: dict) -> list[str]:
    """The issue's timing budgets, each PASS or FAIL with its figures.

    Each budget is a ratio of two builds made back to back in the same run; it is
    judged by the median of the runs' own ratios (with their min and max), which
    a slow spell of the shared machine moves far less than a ratio of the two
    medians, whose builds may come from different runs.
    """
    samples: dict[str, list[float]] = result["samples"]
    lines = []

    def check(
        label: str, top: str, bottom: str, limit: float | None, scale: float = 1.0
    ) -> None:
        """One ratio; with no ``limit`` it is reported, not judged."""
        pairs = list(zip(samples.get(top, ()), samples.get(bottom, ()), strict=False))
        if not pairs:
            lines.append(f"- {label}: not measured in this run")
            return
        ratios = [a / b * scale for a, b in pairs]
        value = statistics.median(ratios)
        spread = f"{min(ratios):.2f} to {max(ratios):.2f} in {len(ratios)} runs"
        if limit is None:
            lines.append(f"- {label}: {value:.2f} ({spread}) (reported, no budget)")
            return
        verdict = "PASS" if value <= limit else "FAIL"
        lines.append(f"- {label}: {value:.2f} ({spread}) (budget {limit}) {verdict}")

    sizes, chapters = result["sizes"], generate.CHAPTERS_PER_SIZE
    for clock, label, limit in (("build_s", "wall", 1.25), ("build_cpu_s", "CPU", 1.8)):
        if 4 in sizes:
            check(
                f"full build ({label}) ours / baseline at size 4, math included",
                f"{clock}/ours/4",
                f"{clock}/baseline/4",
                limit,
            )
    for clock, label in (("build_s", "wall"), ("build_cpu_s", "CPU")):
        for large in (8, 32):
            if 1 in sizes and large in sizes:
                pages = {s: s * chapters + 1 for s in (1, large)}
                check(
                    f"time ({label}) per page, size {large} / size 1",
                    f"{clock}/ours/{large}",
                    f"{clock}/ours/1",
                    1.2,
                    scale=pages[1] / pages[large],
                )
    last = result["incremental_size"]
    check(
        f"one touched chapter (wall) at size {last}, ours / baseline's own",
        f"incremental_s/ours/{last}",
        f"incremental_s/baseline/{last}",
        1.0,
    )
    check(
        f"one touched chapter (CPU) at size {last}, ours / baseline's own",
        f"incremental_cpu_s/ours/{last}",
        f"incremental_cpu_s/baseline/{last}",
        None,
    )
    jobs = result["jobs_size"]
    check(
        f"-j 2 / -j 1 wall time at size {jobs}",
        f"build_j2_s/ours/{jobs}",
        f"build_s/ours/{jobs}",
        None,
    )
    math_size = result.get("math_size")
    if math_size is not None:
        for clock, label in (("build_s", "wall"), ("build_cpu_s", "CPU")):
            check(
                f"math ({label}): with / without, size {math_size}",
                f"{clock}/ours/{math_size}",
                f"{clock}/{MATH_OFF}/{math_size}",
                None,
            )
    return lines


def update_page(page: Path, rows: list[str], budget_lines: list[str], result: dict) -> None:
    """Replace what lies between the page's markers with this run's table."""
    text = page.read_text(encoding="utf-8")
    if TABLE_START not in text or TABLE_END not in text:
        raise SystemExit(f"{page} has no {TABLE_START} ... {TABLE_END} markers")
    machine = result["machine"]
    versions_text = ", ".join(f"{name} {v}" for name, v in result["versions"].items())
    block = [
        TABLE_START,
        "",
        f"Measured on {time.strftime('%Y-%m-%d')}: {machine['cpus']} CPUs, Python "
        f"{machine['python']}, {versions_text}; sizes {' '.join(map(str, result['sizes']))}, "
        f"{result['runs']} runs each. Medians, with min to max in brackets.",
        "",
        *rows,
        "",
        "Budgets:",
        "",
        *budget_lines,
        "",
        TABLE_END,
    ]
    before, rest = text.split(TABLE_START, 1)
    after = rest.split(TABLE_END, 1)[1]
    page.write_text(before + "\n".join(block) + after, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4, 8, 32])
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (>= 3)")
    parser.add_argument("--jobs-size", type=int, default=4, help="size of the -j 2 comparison")
    parser.add_argument("--quick", action="store_true", help="size 1, one run: a smoke test")
    parser.add_argument("--no-browser", dest="browser", action="store_false")
    parser.add_argument("--update-docs", action="store_true", help="rewrite docs/performance.md")
    arguments = parser.parse_args(argv)
    if arguments.quick:
        arguments.sizes, arguments.runs = [1], 1
    result = run(arguments)
    rows, budget_lines = table(result), budgets(result)
    print("\n".join(["", *rows, "", *budget_lines]))
    RESULTS.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = RESULTS / f"benchmark-{stamp}.json"
    path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {path}")
    if arguments.update_docs:
        update_page(PERFORMANCE_PAGE, rows, budget_lines, result)
        print(f"updated {PERFORMANCE_PAGE}")


if __name__ == "__main__":
    main()
