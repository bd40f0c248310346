"""CITATION.cff against the root article: one located ``playbook.metadata`` warning per
value that differs (title, authors, DOI, published date), none when they agree or when
there is no file, a located warning and no traceback for a malformed file; MyST and
reST twins. And the file ``sphinx-playbook new`` writes from an article's metadata."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import yaml
from helpers import build_app, playbook_warnings, read_html, write_project

from sphinx_playbook.citation_file import cff_author, citation_cff
from sphinx_playbook.metadata import Affiliation, ArticleMetadata, Author

CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'

#: The same article in both formats: a "Last, First" name, a group, a name with "van".
PAGES = {
    "md": (
        "---\n"
        "title: The Analytical Engine\n"
        "authors:\n"
        "  - Lovelace, Ada\n"
        "  - name: The Engine Society\n"
        "    organization: true\n"
        "  - Ludwig van Beethoven\n"
        "doi: 10.1234/engine.ABC\n"
        "published: 2024-05-01\n"
        "---\n\n# The Analytical Engine\n\nText.\n"
    ),
    "rst": (
        ':authors: [{name: "Lovelace, Ada"}, {name: The Engine Society, organization: true},'
        " Ludwig van Beethoven]\n"
        ":doi: 10.1234/engine.ABC\n"
        ":published: 2024-05-01\n\n"
        "The Analytical Engine\n=====================\n\nText.\n"
    ),
}

#: What the article says, as a CITATION.cff spells it (a DOI URL in other case).
MATCHING = """\
cff-version: 1.2.0
message: If you use this book, please cite it as below.
title: The  Analytical Engine
authors:
  - family-names: Lovelace
    given-names: Ada
  - name: The Engine Society
  - given-names: Ludwig
    name-particle: van
    family-names: Beethoven
doi: https://doi.org/10.1234/ENGINE.abc
date-released: 2024-05-01
"""

#: Four values that differ, each on its line: title 3, second author 7, doi 10, date 11.
DIFFERENT = """\
cff-version: 1.2.0
message: If you use this book, please cite it as below.
title: The Difference Engine
authors:
  - family-names: Lovelace
    given-names: Ada
  - name: The Engine Club
  - given-names: Ludwig
    family-names: Beethoven
doi: 10.1234/other
date-released: '2024-06-01'
"""

_WARNING = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+): WARNING: (?P<message>.*) \[playbook\.metadata\]$"
)


def _project(
    tmp_path: Path, suffix: str, cff: str | None, *, beside_conf: bool = False, conf: str = CONF
) -> Path:
    """A repository with the book in book/ and CITATION.cff at its root, named in
    conf.py as ``sphinx-playbook new`` names it (or beside conf.py, the default)."""
    book = tmp_path / "repository" / "book"
    if not beside_conf:
        conf += 'playbook_citation_file = "../CITATION.cff"\n'
    write_project(book, {f"index.{suffix}": PAGES[suffix]}, conf=conf)
    if cff is not None:
        write_project(book if beside_conf else book.parent, {"CITATION.cff": cff})
    return book


def _build(make_app, book: Path, tmp_path: Path):
    return build_app(make_app, book, builddir=tmp_path / "build")


def _warnings(app) -> list[tuple[str, int, str]]:
    """(file, line, message) of each playbook.metadata warning."""
    found = []
    for line in playbook_warnings(app):
        match = _WARNING.match(line)
        assert match, line
        found.append((match["path"], int(match["line"]), match["message"]))
    return found


@pytest.mark.parametrize("suffix", sorted(PAGES))
def test_a_file_that_agrees_gives_no_warning(make_app, tmp_path, suffix):
    """Names compared as read ("Lovelace, Ada" is Ada Lovelace), DOIs as DOIs."""
    app = _build(make_app, _project(tmp_path, suffix, MATCHING), tmp_path)
    assert playbook_warnings(app) == []
    assert read_html(app).select_one(".pb-title-block h1") is not None


@pytest.mark.parametrize("suffix", sorted(PAGES))
def test_each_disagreement_is_one_warning_at_its_line(make_app, tmp_path, suffix):
    book = _project(tmp_path, suffix, DIFFERENT)
    app = _build(make_app, book, tmp_path)
    cff = str(book.parent / "CITATION.cff")
    page = f"book/index.{suffix}"
    field = ("'{}' in the front matter of " if suffix == "md" else ":{}: in ") + page
    title_where = field.format("title") if suffix == "md" else f"the first heading of {page}"
    assert _warnings(app) == [
        (
            cff, 3,
            "CITATION.cff title: 'The Difference Engine' here, 'The Analytical Engine' in the "
            f"article ({title_where}); change one of them so they match",
        ),
        (
            cff, 7,
            "CITATION.cff authors: 'Ada Lovelace; The Engine Club; Ludwig Beethoven' here, "
            "'Ada Lovelace; The Engine Society; Ludwig van Beethoven' in the article "
            f"({field.format('authors')}); change one of them so they match",
        ),
        (
            cff, 10,
            "CITATION.cff doi: '10.1234/other' here, '10.1234/engine.ABC' in the article "
            f"({field.format('doi')}); change one of them so they match",
        ),
        (
            cff, 11,
            "CITATION.cff date-released: '2024-06-01' here, '2024-05-01' in the article "
            f"({field.format('published')}); change one of them so they match",
        ),
    ]  # fmt: skip


def test_an_unchanged_rebuild_warns_again(make_app, tmp_path):
    """Nothing to read the second time, yet the file is compared: -W still fails."""
    book = _project(tmp_path, "md", DIFFERENT)
    first = _build(make_app, book, tmp_path)
    second = _build(make_app, book, tmp_path)
    assert "0 changed" in second.status.getvalue()
    assert len(_warnings(second)) == len(_warnings(first)) == 4


def test_by_default_the_file_beside_conf_py_is_compared(make_app, tmp_path):
    book = _project(tmp_path, "md", DIFFERENT, beside_conf=True)
    assert len(_warnings(_build(make_app, book, tmp_path))) == 4


def test_by_default_a_software_repository_file_is_not_compared(make_app, tmp_path):
    """docs/ in a software project: the root CITATION.cff cites the software."""
    book = _project(tmp_path, "md", None, beside_conf=True)
    (book.parent / "CITATION.cff").write_text(DIFFERENT, encoding="utf-8")
    assert playbook_warnings(_build(make_app, book, tmp_path)) == []


def test_a_named_file_that_is_missing_warns_at_conf_py(make_app, tmp_path):
    book = _project(tmp_path, "md", None)
    app = _build(make_app, book, tmp_path)
    assert _warnings(app) == [
        (
            str(book / "conf.py"), 3,
            f"playbook_citation_file: {book.parent / 'CITATION.cff'} does not exist; fix the "
            "path (relative to conf.py) or set it to None",
        )
    ]  # fmt: skip


def test_no_file_no_warning(make_app, tmp_path):
    book = _project(tmp_path, "rst", None, beside_conf=True)
    assert playbook_warnings(_build(make_app, book, tmp_path)) == []


def test_values_missing_on_one_side(make_app, tmp_path):
    """A DOI only the article has, a date only the file has: what to add, and where."""
    cff = MATCHING.replace("doi: https://doi.org/10.1234/ENGINE.abc\n", "")
    book = _project(tmp_path, "md", cff)
    page = book / "index.md"
    page.write_text(page.read_text().replace("published: 2024-05-01\n", ""), encoding="utf-8")
    messages = [(line, message) for _, line, message in _warnings(_build(make_app, book, tmp_path))]
    assert messages == [
        (
            1,
            "CITATION.cff has no doi, but the article has '10.1234/engine.ABC' ('doi' in the "
            "front matter of book/index.md); add 'doi: 10.1234/engine.ABC' here",
        ),
        (
            11,
            "CITATION.cff date-released is '2024-05-01', but the article has none; add it to "
            "the article ('published' in the front matter of book/index.md) or remove it here",
        ),
    ]


def test_a_value_from_conf_py_names_the_setting(make_app, tmp_path):
    conf = CONF + 'playbook_authors = ["Ada Lovelace"]\n'
    book = _project(tmp_path, "rst", MATCHING, conf=conf)
    page = book / "index.rst"
    page.write_text(page.read_text().split("\n", 1)[1], encoding="utf-8")  # no :authors:
    (warning,) = _warnings(_build(make_app, book, tmp_path))
    assert warning[1:] == (
        7,
        "CITATION.cff authors: 'Ada Lovelace; The Engine Society; Ludwig van Beethoven' here, "
        "'Ada Lovelace' in the article (playbook_authors in conf.py); change one of them so "
        "they match",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "title: [The Analytical Engine\nauthors: []\n",
            [(2, "CITATION.cff is not valid YAML (expected ',' or ']', but got ':'); "
                 "fix the syntax, its values are not compared with the article")],
        ),
        (
            "- title: The Analytical Engine\n",
            [(1, "CITATION.cff is not keys and values; write one 'key: value' per line "
                 "(cff-version, message, title, authors...)")],
        ),
        (
            "title: [The, Analytical, Engine]\nauthors: Ada Lovelace\n"
            "doi: 10.1234/engine.ABC\ndate-released: next spring\n",
            [
                (1, "CITATION.cff title must be text, not list; write it on one line"),
                (2, "CITATION.cff authors must be a list, one '- given-names: ...' or "
                    "'- name: ...' entry per author"),
                (4, "CITATION.cff date-released 'next spring' is not a date; write it as "
                    "YYYY-MM-DD, e.g. '2025-02-19'"),
            ],
        ),
        (
            "authors:\n  - given-names: Ada\n    family-names: Lovelace\n  - affiliation: Lab\n",
            [
                (4, "CITATION.cff author 2 has no name; give it family-names and given-names "
                    "(a person) or name (an organisation)"),
                (1, "CITATION.cff has no title, but the article has 'The Analytical Engine' "
                    "('title' in the front matter of book/index.md); add 'title: The "
                    "Analytical Engine' here"),
                (1, "CITATION.cff has no doi, but the article has '10.1234/engine.ABC' ('doi' "
                    "in the front matter of book/index.md); add 'doi: 10.1234/engine.ABC' here"),
                (1, "CITATION.cff has no date-released, but the article has '2024-05-01' "
                    "('published' in the front matter of book/index.md); add 'date-released: "
                    "2024-05-01' here"),
            ],
        ),
    ],
    ids=["invalid-yaml", "a-list", "wrong-types", "nameless-author"],
)  # fmt: skip
def test_a_malformed_file_is_a_located_warning(make_app, tmp_path, text, expected):
    book = _project(tmp_path, "md", text)
    app = _build(make_app, book, tmp_path)
    assert [(line, message) for _, line, message in _warnings(app)] == expected
    assert {path for path, _, _ in _warnings(app)} == {str(book.parent / "CITATION.cff")}
    assert read_html(app).select_one(".pb-title-block h1") is not None  # the page is built


def test_suppress_warnings_silences_it(make_app, tmp_path):
    conf = CONF + 'suppress_warnings = ["playbook.metadata"]\n'
    book = _project(tmp_path, "md", DIFFERENT, conf=conf)
    assert playbook_warnings(_build(make_app, book, tmp_path)) == []


# -- the file sphinx-playbook new writes ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "organization", "expected"),
    [
        ("Ada Lovelace", False, {"family-names": "Lovelace", "given-names": "Ada"}),
        ("Lovelace, Ada", False, {"family-names": "Lovelace", "given-names": "Ada"}),
        (
            "Ludwig van Beethoven", False,
            {"family-names": "Beethoven", "given-names": "Ludwig", "name-particle": "van"},
        ),
        (
            "Martin Luther King Jr.", False,
            {"family-names": "King", "given-names": "Martin Luther", "name-suffix": "Jr."},
        ),
        ("Plato", False, {"name": "Plato"}),
        ("Hugging Face", True, {"name": "Hugging Face"}),
    ],
)  # fmt: skip
def test_names_split_as_citations_split_them(name, organization, expected):
    assert cff_author(Author(name=name, organization=organization)) == expected


def test_the_written_file_has_what_cff_requires_and_compares_equal(make_app, tmp_path):
    """citation_cff() from the article's metadata: the build then finds nothing to say."""
    meta = ArticleMetadata(
        authors=(
            Author(name="Ada Lovelace", orcid="0000-0002-1825-0097", affiliations=("ae",)),
            Author(name="The Engine Society", organization=True),
            Author(name="Ludwig van Beethoven", url="https://ludwig.example"),
        ),
        affiliations=(Affiliation(key="ae", name="Analytical Engine Lab"),),
        published=dt.date(2024, 5, 1),
        doi="10.1234/engine.ABC",
    )
    text = citation_cff(meta, "The Analytical Engine")
    assert yaml.safe_load(text) == {
        "cff-version": "1.2.0",
        "message": "If you use this playbook, please cite it as below.",
        "title": "The Analytical Engine",
        "authors": [
            {
                "family-names": "Lovelace",
                "given-names": "Ada",
                "affiliation": "Analytical Engine Lab",
                "orcid": "https://orcid.org/0000-0002-1825-0097",
            },
            {"name": "The Engine Society"},
            {
                "family-names": "Beethoven",
                "given-names": "Ludwig",
                "name-particle": "van",
                "website": "https://ludwig.example",
            },
        ],
        "doi": "10.1234/engine.ABC",
        "date-released": "2024-05-01",
    }
    for suffix in PAGES:
        app = _build(make_app, _project(tmp_path / suffix, suffix, text), tmp_path / suffix)
        assert playbook_warnings(app) == []
