"""Edit-to-page time of the preview (issue 41): from saving a prose edit in one
chapter to the open browser page showing it.

Ours is ``sphinx-playbook preview`` on the sphinx_playbook twin of generate.py's
book; the baseline is plain ``sphinx-autobuild`` on the pydata-sphinx-theme twin
(the same text, math, figures and citations, in stock Sphinx's constructs). Both
servers run at once and the edits alternate between them, so the load of a shared
machine falls on both alike. Each edit adds a sentence with a new marker to the
end of the first chapter; the time is measured from the write to the moment the
page, open in headless Chromium (Playwright, Debian's chromium) and reloaded by the
server's own script, has the marker in its text::

    python benchmarks/preview.py                  # 50 chapters, 5 edits each
    python benchmarks/preview.py --chapters 6 --runs 5
    python benchmarks/preview.py --notebook       # a notebook cell edit, executed (cache)

It prints the medians (min to max) and the budget of issue 41: median <= 1.0 s and
no slower than the baseline.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from generate import write_books
from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
CHAPTER = "chapter-001"
#: The first builds of a 50-chapter book take minutes on a shared machine.
START_S = 1800
EDIT_TIMEOUT_MS = 300_000
#: sphinx-playbook preview's line once it serves (it says so if the first build failed).
SERVING = r"serving (http://[^\s;]+/)"
#: The issue's budget for the median edit-to-page time.
BUDGET_S = 1.0


@contextmanager
def running(command: list[str], log: Path, ready: str) -> Iterator[str]:
    """Run ``command`` in a process group of its own until the block ends; yields the
    first match of the regular expression ``ready`` (with a group) in its output."""
    with log.open("w") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + START_S
        while not (found := re.search(ready, log.read_text(errors="replace"))):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{command[:4]} did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        if "first build failed" in log.read_text(errors="replace"):
            raise SystemExit(f"{command[:4]}: the first build failed:\n{log.read_text()[-3000:]}")
        yield found.group(1)
    finally:
        for sent in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sent)
                process.wait(10)
                break
            except ProcessLookupError:
                break
            except subprocess.TimeoutExpired:
                continue


#: With --notebook: a MyST-NB text notebook whose one code cell prints the marker.
NOTEBOOK = """---
orphan: true
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---
# A notebook

A paragraph of prose before the cell.

```{{code-cell}} python3
print("The edit says {marker}.")
```
"""


def with_notebook(book: Path) -> None:
    """Add NOTEBOOK to ``book``, with myst-nb executing it through jupyter-cache."""
    conf = book / "conf.py"
    text = conf.read_text(encoding="utf-8")
    if '"myst_parser"' in text:  # the baseline: myst-nb brings myst-parser itself
        text = text.replace('"myst_parser"', '"myst_nb"')
    else:
        text = text.replace(
            'extensions = ["sphinx_playbook"]', 'extensions = ["sphinx_playbook", "myst_nb"]'
        )
    conf.write_text(text + '\nnb_execution_mode = "cache"\n', encoding="utf-8")
    (book / "notebook.md").write_text(NOTEBOOK.format(marker="start"), encoding="utf-8")


def edit_to_page(page: Page, source: Path, marker: str) -> float:
    """Seconds from saving an edit with ``marker`` to the page showing it: a sentence
    added to a chapter, or the printed text of the notebook's cell."""
    if source.name == "notebook.md":
        text = NOTEBOOK.format(marker=marker)
    else:
        text = source.read_text(encoding="utf-8") + f"\nThe edit says {marker}.\n"
    start = time.perf_counter()
    source.write_text(text, encoding="utf-8")
    page.wait_for_function(
        "m => document.body && document.body.innerText.includes(m)",
        arg=f"The edit says {marker}.",
        timeout=EDIT_TIMEOUT_MS,
        polling=10,
    )
    return time.perf_counter() - start


def _stop(signum: int, frame: object) -> None:
    """SIGTERM (a timeout) ends the run through the context managers: no server is left."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> None:
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapters", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--wrapper",
        action="store_true",
        help="also the baseline book through sphinx-playbook preview: what the preview's "
        "own layer (sub-path server, build-state hooks) costs, apart from the extension",
    )
    parser.add_argument(
        "--notebook",
        action="store_true",
        help='edit a notebook cell instead (myst-nb, nb_execution_mode = "cache")',
    )
    arguments = parser.parse_args(argv)
    page_name = "notebook" if arguments.notebook else CHAPTER
    with tempfile.TemporaryDirectory(prefix="preview-bench-") as folder:
        root = Path(folder)
        ours, baseline = write_books(root, arguments.chapters)
        if arguments.notebook:
            with_notebook(ours)
            with_notebook(baseline)
        wrapped = root / "wrapped"
        if arguments.wrapper:
            shutil.copytree(baseline, wrapped)
        bin_dir = Path(sys.executable).parent
        ours_command = [str(bin_dir / "sphinx-playbook"), "preview", str(ours), "--port", "0"]
        baseline_command = [
            str(bin_dir / "sphinx-autobuild"),
            str(baseline),
            str(baseline / "_build" / "html"),
            "--port",
            "0",
        ]
        print(f"{arguments.chapters} chapters; first builds...", flush=True)
        with ExitStack() as stack:
            ours_url = stack.enter_context(running(ours_command, root / "ours.log", SERVING))
            baseline_url = stack.enter_context(
                running(baseline_command, root / "baseline.log", r"Serving on (http://[\w.:]+)")
            )
            if arguments.wrapper:
                wrapped_command = [*ours_command[:2], str(wrapped), *ours_command[3:]]
                wrapped_url = stack.enter_context(
                    running(wrapped_command, root / "wrapped.log", SERVING)
                )
            playwright = stack.enter_context(sync_playwright())
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            sides = {
                "ours (sphinx-playbook preview)": (ours, ours_url.rstrip("/") + "/"),
                "baseline (sphinx-autobuild, pydata-sphinx-theme)": (
                    baseline,
                    baseline_url.rstrip("/") + "/",
                ),
            }
            if arguments.wrapper:
                sides["baseline book through sphinx-playbook preview"] = (wrapped, wrapped_url)
            pages = {}
            for name, (_, url) in sides.items():
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                page.goto(url + f"{page_name}.html", wait_until="load")
                pages[name] = page
            times: dict[str, list[float]] = {name: [] for name in sides}
            for run in range(arguments.runs + 1):  # the first edit of each side warms up
                for name, (book, _) in sides.items():
                    seconds = edit_to_page(pages[name], book / f"{page_name}.md", f"m{run}x")
                    if run:
                        times[name].append(seconds)
                    time.sleep(1.0)  # let the server settle before the next edit
            browser.close()
    what = "a notebook cell" if arguments.notebook else "a chapter's prose"
    print(f"\nEdit-to-page time, {what}, {arguments.chapters} chapters, {arguments.runs} edits:")
    for name, samples in times.items():
        print(
            f"  {name}: median {statistics.median(samples):.2f} s "
            f"({min(samples):.2f} to {max(samples):.2f})"
        )
    ours_median, baseline_median = (statistics.median(s) for s in list(times.values())[:2])
    within = ours_median <= BUDGET_S and ours_median <= baseline_median
    print(
        f"budget (median <= {BUDGET_S:.1f} s and no slower than the baseline): "
        f"{'met' if within else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
