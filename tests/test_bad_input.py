"""Bad input never crashes the build: the corpus of tests/bad_input/cases.py.

Every case is built (the pages together, once; conf.py values in two small
projects). For each case: the build finishes, each expected warning appears
exactly once with its file, line, text and type, no other warning appears, no
traceback is printed, the rest of the page is there, and the warning's type can
be suppressed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from bad_input.cases import (
    CASES,
    CONFIG_TYPE_CASES,
    CONFIG_VALUE_CASES,
    HUGE_AUTHORS,
    HUGE_CASES,
    HUGE_ROWS,
    SENTINEL,
    Case,
    ConfigCase,
    write_config_project,
    write_corpus,
)
from bs4 import BeautifulSoup
from helpers import build_in_process, read_page

from sphinx_playbook.diagnostics import PlaybookWarning

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: Where a new warning starts in Sphinx's stream (docutils' ones span several lines).
_RECORD_START = re.compile(r"\n(?=\S[^\n]*?: (?:WARNING|ERROR|CRITICAL): |(?:WARNING|ERROR): )")
_RECORD = re.compile(
    r"^(?:(?P<path>\S+?)(?::(?P<line>\d+))?: )?(?P<level>WARNING|ERROR|CRITICAL): "
    r"(?P<message>.*?)(?: \[(?P<kind>[\w.]+)\])?$",
    re.S,
)
ALL_PLAYBOOK_SUBTYPES = [subtype.qualified for subtype in PlaybookWarning]


@dataclass(frozen=True)
class Built:
    """What a finished build left: its warnings, status and output directory."""

    srcdir: Path
    outdir: Path
    statuscode: int
    output: str
    records: list[tuple[str | None, int | None, str, str | None]]


def parse_records(text: str, srcdir: Path) -> list[tuple[str | None, int | None, str, str | None]]:
    """(absolute path, line, message, kind) of every warning and error of a build.

    Paths inside messages (docutils names included files relative to the working
    directory) are written ``{srcdir}/...``, so expectations do not depend on it.
    """
    text = _ANSI.sub("", text).strip()
    folders = (str(srcdir), os.path.relpath(srcdir))
    # Sphinx writes the system's separator (a backslash on Windows).
    written = {f"{folder}{sep}" for folder in folders for sep in {"/", os.sep}}
    prefixes = sorted(written, key=len, reverse=True)
    result = []
    for record in _RECORD_START.split(text) if text else []:
        match = _RECORD.match(record)
        assert match, f"a warning Sphinx did not locate or type: {record!r}"
        path = os.path.abspath(match["path"]) if match["path"] else None
        line = int(match["line"]) if match["line"] else None
        message = match["message"]
        for prefix in prefixes:
            message = message.replace(prefix, "{srcdir}/")
        result.append((path, line, message, match["kind"]))
    return result


def _build(srcdir: Path, **confoverrides) -> Built:
    """Build in this process, keeping what the tests read."""
    built = build_in_process(srcdir, **confoverrides)
    return Built(
        srcdir=built.srcdir,
        outdir=built.outdir,
        statuscode=built.statuscode,
        output=built.status + built.warnings,
        records=parse_records(built.warnings, built.srcdir),
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Built:
    srcdir = tmp_path_factory.mktemp("bad-input")
    write_corpus(srcdir, CASES + HUGE_CASES)
    return _build(srcdir)


@pytest.fixture(scope="module")
def corpus_suppressed(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The same pages with every playbook subtype listed in ``suppress_warnings``."""
    srcdir = tmp_path_factory.mktemp("bad-input-suppressed")
    write_corpus(srcdir, CASES)
    return _build(srcdir, suppress_warnings=ALL_PLAYBOOK_SUBTYPES)


def _expected(case: Case, srcdir: Path) -> list[tuple[str, int | None, str, str]]:
    return [
        (
            str(srcdir / (e.file or f"{case.name}{case.suffix}")),
            e.line,
            e.message,
            e.kind,
        )
        for e in case.expected
    ]


def _sentinel_present(page: BeautifulSoup, name: str) -> bool:
    return any(p.get_text(strip=True) == f"{SENTINEL}: {name}." for p in page.find_all("p"))


def test_the_corpus_covers_at_least_forty_cases():
    assert len(CASES) + len(HUGE_CASES) + len(CONFIG_TYPE_CASES) + len(CONFIG_VALUE_CASES) >= 40
    assert len({c.name for c in CASES + HUGE_CASES}) == len(CASES + HUGE_CASES)


def test_the_build_finishes_without_a_traceback(corpus):
    assert corpus.statuscode == 0
    assert "Traceback" not in corpus.output
    assert "RecursionError" not in corpus.output


def test_every_warning_belongs_to_a_case(corpus):
    """Nothing beyond what the cases expect: each warning is accounted for, once."""
    srcdir = Path(corpus.srcdir)
    expected = sorted(e[:3] for case in CASES + HUGE_CASES for e in _expected(case, srcdir))
    assert sorted(r[:3] for r in corpus.records) == expected


@pytest.mark.parametrize("case", CASES + HUGE_CASES, ids=lambda c: c.name)
def test_case_warns_exactly_and_keeps_the_page(corpus, case):
    srcdir = Path(corpus.srcdir)
    got = corpus.records
    for path, line, message, kind in _expected(case, srcdir):
        matches = [r for r in got if r[:3] == (path, line, message)]
        assert len(matches) == 1, (case.name, line, message, got)
        # Sphinx 8.2 may write docutils' own messages without a type.
        assert matches[0][3] == kind or (matches[0][3] is None and kind == "docutils"), matches
        assert line is not None, "every page case is located at a line"
    page = read_page(corpus, case.name)
    assert _sentinel_present(page, case.name), f"{case.name}: the rest of the page is missing"


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if any(e.kind.startswith("playbook.") for e in c.expected)],
    ids=lambda c: c.name,
)
def test_case_is_suppressed_by_its_subtype(corpus_suppressed, case):
    srcdir = Path(corpus_suppressed.srcdir)
    got = {r[:3] for r in corpus_suppressed.records}
    for path, line, message, kind in _expected(case, srcdir):
        if kind.startswith("playbook."):
            assert (path, line, message) not in got, f"{kind} in suppress_warnings did not hide it"
    assert _sentinel_present(read_page(corpus_suppressed, case.name), case.name)


def test_suppressed_build_shows_only_other_tools_warnings(corpus_suppressed):
    assert all(not (kind or "").startswith("playbook.") for *_, kind in corpus_suppressed.records)
    assert corpus_suppressed.statuscode == 0


def test_huge_inputs_are_shown_in_full(corpus):
    many = read_page(corpus, "huge_bib_authors")
    card = many.select_one(".pb-card .pb-card__authors")
    assert card.get_text() == "F. Author0, F. Author1, F. Author2, ..."
    listed = many.select_one(".pb-reference-list li").get_text(" ", strip=True)
    assert listed.startswith("First0 Author0, First1 Author1,")
    assert "et al." in listed and f"Author{HUGE_AUTHORS - 1}" not in listed
    table = read_page(corpus, "huge_side_by_side").select_one(".pb-side-by-side table")
    assert len(table.select("tbody tr")) == HUGE_ROWS


# -- conf.py values ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def config_builds(tmp_path_factory) -> dict[str, Built]:
    builds = {}
    for name, cases in (("types", CONFIG_TYPE_CASES), ("values", CONFIG_VALUE_CASES)):
        for suffix, overrides in (
            ("", {}),
            ("-suppressed", {"suppress_warnings": ALL_PLAYBOOK_SUBTYPES}),
        ):
            srcdir = tmp_path_factory.mktemp(f"config-{name}{suffix}")
            write_config_project(srcdir, cases)
            builds[name + suffix] = _build(srcdir, **overrides)
    return builds


@pytest.mark.parametrize(
    ("group", "case"),
    [("types", c) for c in CONFIG_TYPE_CASES] + [("values", c) for c in CONFIG_VALUE_CASES],
    ids=lambda v: v if isinstance(v, str) else v.line,
)
def test_config_value_warns_exactly(config_builds, group: str, case: ConfigCase):
    app = config_builds[group]
    message = case.message  # "{srcdir}" stands for the project folder
    assert [r for r in app.records if r[2] == message] == [(None, None, message, case.kind)]
    assert app.statuscode == 0
    assert "Traceback" not in app.output
    assert _sentinel_present(read_page(app, "index"), "settings")
    suppressed = config_builds[f"{group}-suppressed"]
    assert suppressed.records == []
    assert _sentinel_present(read_page(suppressed, "index"), "settings")


@pytest.mark.parametrize("group", ["types", "values"])
def test_config_warnings_are_all_expected(config_builds, group):
    cases = CONFIG_TYPE_CASES if group == "types" else CONFIG_VALUE_CASES
    app = config_builds[group]
    assert sorted(r[2] for r in app.records) == sorted(c.message for c in cases)
