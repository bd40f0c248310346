"""Build, compare, report: an incremental build must give a fresh build's bytes.

A :class:`Session` keeps one working copy of a generated book (sources, output and
doctrees that every round reuses, as an author's checkout does). Each round
applies 1-3 random edits to the working sources (only the files whose bytes
change are written, so the mtimes Sphinx looks at are an author's), runs an
incremental ``sphinx-build`` (no ``-E``) there, copies the sources to a new
folder, builds them from nothing, and compares every output file byte for byte.
:func:`compare_jobs` compares a ``-j 2`` build with a ``-j 1`` build.

Every build is a process of its own, ``python -m sphinx -q -T -b BUILDER SRC OUT
-d DOCTREES`` (``-T`` only prints the traceback of a crash in full). A non-zero
exit or a Python traceback in its output fails the round.

Every file of the output folder is compared, generated ones included (the search
index, ``objects.inv``, ``.buildinfo``, the math stylesheet and fonts, responsive
image copies, interactive figures' frame pages and libraries), but one, and why:

- ``.buildinfo.bak`` at the output's root: Sphinx's copy of the previous
  ``.buildinfo``, written by an incremental build after a conf.py change (a backup
  for the author, not something a reader gets; ``.buildinfo`` itself is compared).
  The doctrees are kept outside the output folder, so none is written there.
- in the baseline only (plain Sphinx + pydata-sphinx-theme), Sphinx's own
  differences, named in :data:`SPHINX_OWN` and listed in every report
  (``strict`` turns these into differences): the output of removed pages and
  images, which Sphinx never deletes, and the empty entries ``"word":[]`` that
  words no longer on any page leave in ``searchindex.js``. sphinx_playbook
  removes both, so its runs are always strict.
"""

from __future__ import annotations

import difflib
import filecmp
import json
import os
import random
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

# tests/ is on sys.path (pytest, __main__). run_sphinx, not helpers.sphinx_build: a
# failed build is a round's result to report, not a failed test, and each build names
# its interpreter (hash seed).
from helpers import warning_text
from sphinx_process import run_sphinx

from . import book as books

TRACEBACK = "Traceback (most recent call last)"
#: Written by Sphinx beside ``.buildinfo`` when the configuration changed: not output.
NOT_COMPARED = frozenset({".buildinfo.bak"})
SPHINX_OWN = {
    "leftover": "output of a removed page or image: plain Sphinx never deletes output",
    "searchindex": (
        "searchindex.js keeps the words no longer on any page (a removed page, a renamed "
        'title or heading) as "word":[]'
    ),
}


# -- building ------------------------------------------------------------------------------


@dataclass
class Build:
    command: list[str]
    returncode: int
    stderr: str
    seconds: float

    @property
    def crashed(self) -> bool:
        return self.returncode != 0 or TRACEBACK in self.stderr

    @property
    def warnings(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if "WARNING" in line]

    def describe(self, lines: int = 30) -> str:
        """The command, its exit status and the end of its output (the traceback's end)."""
        text = self.stderr
        cut = text.find("The full traceback has been saved")
        tail = "\n".join((text[:cut] if cut != -1 else text).rstrip().splitlines()[-lines:])
        return f"$ {' '.join(self.command)}\nexit status {self.returncode}\n{tail}"


def sphinx_build(
    src: Path, out: Path, doctrees: Path, builder: str, jobs: int = 1, interpreter: int = 0
) -> Build:
    command = [sys.executable, "-m", "sphinx", "-q", "-T", "-b", builder]
    if jobs > 1:
        command += ["-j", str(jobs)]
    command += [str(src), str(out), "-d", str(doctrees)]
    start = time.monotonic()
    # In a process of its own, forked with the imports done (tests/sphinx_process.py)
    # by the server of that number (each has its own hash seed), beside the sources.
    result = run_sphinx(command[3:], cwd=Path(src).parent, interpreter=interpreter)
    stderr = warning_text(result.stderr + result.stdout)
    return Build(command, result.returncode, stderr, time.monotonic() - start)


# Not helpers.write_project: it leaves unchanged files alone and deletes the others.
def write_sources(files: dict[str, bytes], src: Path) -> list[str]:
    """Make ``src`` hold exactly ``files``, writing only the files whose bytes changed
    (an unchanged file keeps its mtime, as in an author's checkout): what changed."""
    changed = []
    for name, data in files.items():
        path = src / name
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        changed.append(name)
    if src.is_dir():
        for path in sorted(src.rglob("*"), reverse=True):
            name = path.relative_to(src).as_posix()
            if path.is_file() and name not in files:
                path.unlink()
                changed.append(f"-{name}")
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return changed


# -- comparing -----------------------------------------------------------------------------


def output_files(outdir: Path) -> dict[str, Path]:
    """Every file under ``outdir`` (hidden ones too) but :data:`NOT_COMPARED`."""
    return {
        path.relative_to(outdir).as_posix(): path
        for path in sorted(outdir.rglob("*"))
        if path.is_file() and path.relative_to(outdir).as_posix() not in NOT_COMPARED
    }


@dataclass
class Difference:
    name: str
    kind: str  # "only-incremental", "only-fresh", "bytes"
    detail: str = ""  # a unified diff, or why the file is missing on one side
    #: What the changed lines are about (:data:`TOPICS`), to group divergences.
    topics: tuple[str, ...] = ()

    def line(self) -> str:
        about = f": {', '.join(self.topics)}" if self.topics else ""
        return f"{self.name} ({self.kind}{about})"


#: What a changed line of a page is about, by the first pattern it matches: only
#: to group and name divergences in reports, never to decide what is equal.
TOPICS = (
    ("katex ?v=", re.compile(r"katex[^\"']*(\?v=|\.css\")")),
    ("pygments.css ?v=", re.compile(r"pygments[^\"']*\.css")),
    ("linked file ?v=", re.compile(r"\?v=[0-9a-f]{8}")),
    ("interactive figures", re.compile(r"pb-interactive|_interactive/")),
    ("prev/next", re.compile(r'rel="(next|prev)"|pb-prev-next')),
    ("chapters menu", re.compile(r"pb-chapters")),
    ("section numbers", re.compile(r"section-number|secnum")),
    ("toctree", re.compile(r"toctree-l\d|toctree-wrapper|caption-text")),
    ("citations", re.compile(r"pb-cite|pb-ref|pb-reference|citation")),
    ("footnotes", re.compile(r"footnote")),
    ("reference text", re.compile(r"reference internal|std-ref|std-numref|std-doc")),
    ("math", re.compile(r"katex|math")),
    ("images", re.compile(r"<img|_images/")),
    ("highlighting", re.compile(r'class="highlight|<span class="[a-z]{1,3}">')),
    ("head", re.compile(r"<title>|<meta |<link ")),
)


def topics(a: str, b: str) -> tuple[str, ...]:
    found: list[str] = []
    for line in difflib.unified_diff(a.splitlines(), b.splitlines(), n=0, lineterm=""):
        if line[:1] not in "+-" or line[:3] in ("+++", "---"):
            continue
        topic = next((name for name, pattern in TOPICS if pattern.search(line)), "text")
        if topic not in found:
            found.append(topic)
    return tuple(found)


def _search_index(path: Path) -> dict | None:
    text = path.read_text(encoding="utf-8")
    match = re.fullmatch(r"Search\.setIndex\((.*)\)\s*", text, re.DOTALL)
    return json.loads(match.group(1)) if match else None


def _without_empty_terms(index: dict) -> dict:
    index = dict(index)
    for key in ("terms", "titleterms"):
        if isinstance(index.get(key), dict):
            index[key] = {term: docs for term, docs in index[key].items() if docs != []}
    return index


def compare(
    first: Path,
    second: Path,
    *,
    leftovers: frozenset[str] = frozenset(),
    strict: bool = False,
    labels: tuple[str, str] = ("incremental", "fresh"),
) -> tuple[list[Difference], list[str]]:
    """The differences between two output folders, and what was tolerated as
    Sphinx's own (each with its :data:`SPHINX_OWN` reason)."""
    a, b = output_files(first), output_files(second)
    differences: list[Difference] = []
    tolerated: list[str] = []
    for name in sorted(set(a) | set(b)):
        if name not in b:
            if not strict and name in leftovers:
                tolerated.append(f"{name}: {SPHINX_OWN['leftover']}")
                continue
            differences.append(Difference(name, f"only-{labels[0]}", "not written by the other"))
        elif name not in a:
            differences.append(Difference(name, f"only-{labels[1]}", "not written by the other"))
        elif not filecmp.cmp(a[name], b[name], shallow=False):
            if not strict and name == "searchindex.js":
                index_a, index_b = _search_index(a[name]), _search_index(b[name])
                if (
                    index_a is not None
                    and index_b is not None
                    and _without_empty_terms(index_a) == _without_empty_terms(index_b)
                ):
                    tolerated.append(f"{name}: {SPHINX_OWN['searchindex']}")
                    continue
            bytes_a, bytes_b = a[name].read_bytes(), b[name].read_bytes()
            detail = unified_diff(bytes_a, bytes_b, name, labels)
            about: tuple[str, ...] = ()
            if name.endswith(".html"):
                text_a, text_b = (x.decode("utf-8", "replace") for x in (bytes_a, bytes_b))
                about = topics(text_a, text_b)
            differences.append(Difference(name, "bytes", detail, about))
    return differences, tolerated


_BREAK = re.compile(r"(?<=[>;,}])")


def _lines(text: str, width: int) -> list[str]:
    lines = []
    for line in text.splitlines():
        lines += _BREAK.split(line) if len(line) > width else [line]
    return lines


def unified_diff(
    a: bytes,
    b: bytes,
    name: str,
    labels: tuple[str, str] = ("incremental", "fresh"),
    *,
    max_lines: int = 30,
    width: int = 240,
) -> str:
    """A short unified diff (long lines are split after ``>``, ``;``, ``,`` and ``}``
    and cut at ``width``), or where two binary files first differ."""
    try:
        text_a, text_b = a.decode("utf-8"), b.decode("utf-8")
    except UnicodeDecodeError:
        first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
        where = first if first is not None else min(len(a), len(b))
        return f"binary: {len(a)} vs {len(b)} bytes, first difference at byte {where}"
    diff = difflib.unified_diff(
        _lines(text_a, width),
        _lines(text_b, width),
        f"{labels[0]}/{name}",
        f"{labels[1]}/{name}",
        n=2,
        lineterm="",
    )
    lines = []
    for count, line in enumerate(diff):
        if count == max_lines:
            lines.append("... (diff cut)")
            break
        lines.append(line if len(line) <= width else line[:width] + " ...")
    return "\n".join(lines)


def path_leaks(differences: list[Difference], sides: list[tuple[Path, Path]]) -> list[str]:
    """Differing files that contain the absolute path of their own build's folder:
    an absolute path in the output (itself a defect) rather than stale content."""
    leaks = []
    for difference in differences:
        for outdir, folder in sides:
            path = outdir / difference.name
            if path.is_file() and str(folder).encode() in path.read_bytes():
                leaks.append(f"{difference.name} contains the build's path {folder}")
    return leaks


# -- sessions ------------------------------------------------------------------------------


@dataclass
class Round:
    index: int
    edits: list[str]
    changed: list[str]
    incremental: Build | None = None
    fresh: Build | None = None
    differences: list[Difference] = field(default_factory=list)
    tolerated: list[str] = field(default_factory=list)
    report: str = ""

    @property
    def equal(self) -> bool:
        return not self.report

    @property
    def kinds(self) -> list[str]:
        return [edit.split(":", 1)[0] for edit in self.edits]


class Session:
    """One book, one working copy, rounds of edits and builds.

    Everything the edits do follows from ``seed`` alone (builds never feed back),
    so ``python -m tests.differential --seed S --rounds R --builder B`` replays the
    first R rounds exactly; :meth:`reproduce` gives that command.
    """

    def __init__(
        self,
        root: Path,
        seed: int,
        *,
        builder: str = "html",
        ours: bool = True,
        max_edits: int = 3,
        kinds: list[str] | None = None,
        strict: bool = False,
        keep_fresh: bool = False,
    ) -> None:
        self.root, self.seed, self.builder = Path(root), seed, builder
        self.ours, self.max_edits, self.kinds = ours, max_edits, kinds
        self.strict, self.keep_fresh = strict, keep_fresh
        self.rng = random.Random(seed)
        self.book = books.generate(self.rng, ours=ours)
        self.work = self.root / "work"
        self.src, self.out, self.doctrees = (self.work / n for n in ("src", "out", "doctrees"))
        self.rounds: list[Round] = []
        self.seen_docs: dict[str, str] = {}  # every docname that existed -> its suffix
        self.seen_images: set[str] = set()
        self._note_sources()

    # the book's history, for leftovers and reports
    def _note_sources(self) -> None:
        for page in self.book.pages.values():
            self.seen_docs[page.docname] = page.suffix
        self.seen_images |= set(self.book.images)

    def leftovers(self) -> frozenset[str]:
        """The output files of pages and images that existed once and are gone."""
        names = set()
        for docname, suffix in self.seen_docs.items():
            if docname in self.book.pages:
                continue
            if self.builder == "dirhtml" and docname != books.ROOT:
                names.add(f"{docname}/index.html")
            else:
                names.add(f"{docname}.html")
            names.add(f"_sources/{docname}{suffix}.txt")
        names |= {f"_images/{image}" for image in self.seen_images - set(self.book.images)}
        return frozenset(names)

    def run_round(self, *, edit: bool = True) -> Round:
        """Edit (unless ``edit`` is false or ``max_edits`` is 0), build incrementally
        and afresh, compare."""
        index = len(self.rounds)
        edits: list[str] = []
        if edit and self.max_edits > 0:
            count = self.rng.randint(1, self.max_edits)
            self.book, edits = books.random_edits(self.book, self.rng, count, self.kinds)
            self._note_sources()
        changed = write_sources(books.render(self.book), self.src)
        result = Round(index, edits, changed)
        self.rounds.append(result)
        # Three hash seeds: each incremental build reads the environment the previous
        # one pickled under another seed, and is compared with a fresh build under a
        # third, so that output following a set's order cannot hide.
        result.incremental = sphinx_build(
            self.src, self.out, self.doctrees, self.builder, interpreter=index % 2
        )
        fresh_root = self.root / f"fresh-{index}"
        shutil.rmtree(fresh_root, ignore_errors=True)
        fresh_src = fresh_root / "src"
        shutil.copytree(self.src, fresh_src)
        result.fresh = sphinx_build(
            fresh_src, fresh_root / "out", fresh_root / "doctrees", self.builder, interpreter=2
        )
        if result.incremental.crashed or result.fresh.crashed:
            failed = [b for b in (result.incremental, result.fresh) if b.crashed]
            result.report = self._report(
                result,
                "the build failed:\n" + "\n\n".join(b.describe() for b in failed),
            )
            return result
        # sphinx_playbook deletes what a removed page or image leaves and prunes the
        # search index (plain Sphinx does neither): nothing is tolerated but in
        # the baseline.
        result.differences, result.tolerated = compare(
            self.out,
            fresh_root / "out",
            leftovers=self.leftovers(),
            strict=self.strict or self.ours,
        )
        if result.differences:
            leaks = path_leaks(
                result.differences, [(self.out, self.work), (fresh_root / "out", fresh_root)]
            )
            result.report = self._report(result, _differences_text(result.differences, leaks))
        elif not self.keep_fresh:
            shutil.rmtree(fresh_root, ignore_errors=True)
        return result

    def restart(self) -> Build:
        """Build the working copy again from nothing (after a divergence, to go on)."""
        shutil.rmtree(self.out, ignore_errors=True)
        shutil.rmtree(self.doctrees, ignore_errors=True)
        return sphinx_build(self.src, self.out, self.doctrees, self.builder)

    def reproduce(self, rounds: int | None = None) -> str:
        rounds = len(self.rounds) - 1 if rounds is None else rounds
        command = (
            f"python -m tests.differential --seed {self.seed} --rounds {rounds} "
            f"--builder {self.builder} --max-edits {self.max_edits}"
        )
        if self.kinds:
            command += f" --kinds {','.join(self.kinds)}"
        if not self.ours:
            command += " --baseline"
        return command

    def history(self) -> str:
        lines = [f"  {self.book.log[0]}"]
        for past in self.rounds:
            lines.append(f"  round {past.index}: " + ("; ".join(past.edits) or "no edit"))
        return "\n".join(lines)

    def _report(self, result: Round, body: str) -> str:
        flavour = "plain Sphinx + pydata-sphinx-theme" if not self.ours else "sphinx_playbook"
        return "\n".join(
            [
                f"incremental build != fresh build ({flavour}, seed {self.seed}, "
                f"builder {self.builder}, round {result.index})",
                "edits of this round:",
                *(f"  - {e}" for e in result.edits or ["(none)"]),
                f"files written by the edits: {', '.join(result.changed) or '(none)'}",
                body,
                *(f"tolerated as Sphinx's own: {item}" for item in result.tolerated),
                *_warnings_text(result),
                "history:",
                self.history(),
                f"reproduce: {self.reproduce()}",
                f"working copy: {self.work}; fresh build: {self.root / f'fresh-{result.index}'}",
            ]
        )


def _warnings_text(result: Round, shown: int = 5) -> list[str]:
    lines = []
    for name, build in (("incremental", result.incremental), ("fresh", result.fresh)):
        warnings = build.warnings if build else []
        if warnings:
            lines.append(f"warnings of the {name} build ({len(warnings)}):")
            lines += [f"  {w[:200]}" for w in warnings[:shown]]
    return lines


def _differences_text(differences: list[Difference], leaks: list[str]) -> str:
    lines = [f"{len(differences)} files differ:"]
    lines += [f"  {d.line()}" for d in differences[:30]]
    if len(differences) > 30:
        lines.append(f"  ... and {len(differences) - 30} more")
    lines += [f"absolute path in the output: {leak}" for leak in leaks]
    shown = [d for d in differences if d.kind == "bytes"][:3] or differences[:1]
    for difference in shown:
        lines += [f"difference in {difference.name}:", difference.detail]
    return "\n".join(lines)


def compare_jobs(
    root: Path,
    seed: int,
    *,
    builder: str = "html",
    ours: bool = True,
    edits: int = 4,
    jobs: int = 2,
) -> tuple[str, list[str]]:
    """Fresh ``-j jobs`` and ``-j 1`` builds of a generated and edited book, in two
    folders: a report ('' when equal) and the edits made."""
    rng = random.Random(seed)
    book = books.generate(rng, ours=ours)
    book, done = books.random_edits(book, rng, edits)
    files = books.render(book)
    outs = {}
    for count in (1, jobs):
        folder = Path(root) / f"j{count}"
        write_sources(files, folder / "src")
        build = sphinx_build(  # each with its own hash seed
            folder / "src", folder / "out", folder / "doctrees", builder, count, int(count > 1)
        )
        if build.crashed:
            return f"-j {count} build failed (seed {seed}):\n{build.describe()}", done
        outs[count] = folder
    labels = ("j1", f"j{jobs}")
    differences, _ = compare(outs[1] / "out", outs[jobs] / "out", strict=True, labels=labels)
    if not differences:
        return "", done
    leaks = path_leaks(differences, [(outs[c] / "out", outs[c]) for c in (1, jobs)])
    return (
        "\n".join(
            [
                f"-j {jobs} build != -j 1 build (seed {seed}, builder {builder})",
                "the book's edits:",
                *(f"  - {e}" for e in done),
                _differences_text(differences, leaks),
                f"reproduce: python -m tests.differential --jobs {jobs} --seed {seed} "
                f"--builder {builder}" + ("" if ours else " --baseline"),
            ]
        ),
        done,
    )


def scratch_root(prefix: str = "playbook-differential-") -> Path:
    import tempfile

    return Path(tempfile.mkdtemp(prefix=prefix, dir=os.environ.get("TMPDIR")))
