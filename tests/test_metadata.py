"""Article metadata: front matter, docinfo and conf.py defaults, as a reader sees them."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from helpers import playbook_warnings, read_html

from sphinx_playbook.metadata import front_matter_fields, read_metadata, rest_field_value


def byline(page) -> dict:
    """What a reader sees in the byline, column by column."""
    columns = {}
    for column in page.select(".pb-byline__column"):
        label = column.find("dt").get_text(strip=True)
        columns[label] = column
    return columns


def authors(page) -> list[dict]:
    result = []
    for item in page.select(".pb-author"):
        link = item.select_one("a.pb-author__name")
        marks = item.select_one(".pb-author__marks")
        orcid = item.select_one("a.pb-author__orcid")
        result.append(
            {
                "name": item.select_one(".pb-author__name").get_text(),
                "url": link["href"] if link else None,
                "marks": marks.get_text() if marks else None,
                "orcid": orcid["href"] if orcid else None,
            }
        )
    return result


EXPECTED_AUTHORS = [
    {
        "name": "Tazi, Nouamane",
        "url": "https://example.org/people?name=tazi&lang=en",
        "marks": "1",
        "orcid": None,
    },
    {"name": "Ferdinand Mom", "url": None, "marks": "1,2", "orcid": None},
    {"name": "Haojun Zhao", "url": None, "marks": None, "orcid": None},
]


@pytest.mark.sphinx("html", testroot="article-myst")
def test_myst_front_matter_reaches_the_byline_intact(app):
    """A name with a comma and a URL with ``&`` survive (MyST 5.2 mangles them in docinfo)."""
    app.build()
    page = read_html(app)
    assert page.select_one("h1.pb-title").get_text() == "The Ultra-Scale Playbook"
    assert page.select_one(".pb-description").get_text() == "Training LLMs on GPU Clusters"
    found = authors(page)
    expected = [dict(a) for a in EXPECTED_AUTHORS]
    expected[1]["orcid"] = "https://orcid.org/0000-0002-1825-0097"
    assert found == expected
    columns = byline(page)
    assert list(columns) == ["Authors", "Affiliations", "Published", "DOI"]
    affiliations = [li.get_text(strip=True) for li in columns["Affiliations"].select("li")]
    assert affiliations == ["1Hugging Face", "2EPFL"]
    assert columns["Affiliations"].find("a")["href"] == "https://huggingface.co"
    published = columns["Published"].find_all("time")
    assert [(t["datetime"], t.get_text()) for t in published] == [
        ("2025-02-19", "Feb 19, 2025"),
        ("2025-03-01", "Mar 1, 2025"),
    ]
    doi = columns["DOI"].find("a")
    assert (doi["href"], doi.get_text()) == (
        "https://doi.org/10.1234/playbook.2025",
        "10.1234/playbook.2025",
    )
    # The heading moved to the title block: the body has no <h1> of its own.
    assert page.select(".pb-body h1") == []


@pytest.mark.sphinx("html", testroot="article-rst")
def test_rest_docinfo_gives_the_same_byline(app):
    app.build()
    page = read_html(app)
    assert page.select_one("h1.pb-title").get_text() == "The Ultra-Scale Playbook"
    assert authors(page) == EXPECTED_AUTHORS
    assert list(byline(page)) == ["Authors", "Affiliations", "Published", "DOI"]
    # docinfo fields are consumed: they are not printed as a field list in the body.
    assert page.select(".pb-body dl.field-list") == []


@pytest.mark.sphinx("html", testroot="metadata-bad")
def test_bad_metadata_warns_at_file_and_line_and_is_escaped(app):
    app.build()
    warnings = playbook_warnings(app)
    index = str(app.srcdir / "index.md")
    rest = str(app.srcdir / "rest.rst")
    expected = [
        (index, 3, "metadata_key", "unknown front matter key 'subtitle'"),
        (index, 4, "metadata", "'the day after tomorrow' is not a date; write it as YYYY-MM-DD"),
        (index, 5, "metadata", "'not-a-doi' is not a DOI"),
        (index, 6, "metadata", "contains HTML, which is shown as typed"),
        (index, 6, "metadata", "URL 'javascript:alert(1)' is refused"),
        (index, 6, "metadata", "has no name; add a name"),
        (index, 6, "metadata", "1234 is not an ORCID iD"),
        (index, 12, "metadata", "URL 'JaVaScRiPt:alert(2)' is refused"),
        (rest, 1, "metadata", "'31/31/2025' is not a date"),
        (rest, 2, "metadata", "URL 'javascript:alert(3)' is refused"),
    ]
    for path, line, subtype, text in expected:
        pattern = re.compile(
            rf"^{re.escape(path)}:{line}: WARNING: .*{re.escape(text)}.*\[playbook\.{subtype}\]$"
        )
        assert any(pattern.match(w) for w in warnings), (path, line, text, warnings)
    assert len(warnings) == len(expected), warnings
    assert "Traceback" not in app.warning.getvalue()

    page = read_html(app)
    # The HTML in the name is text, not markup, and the refused links are gone.
    assert page.select(".pb-byline b") == []
    names = [a["name"] for a in authors(page)]
    assert names == ['<b onmouseover="alert(1)">Bold</b> Author', "Good Author"]
    hrefs = [a["href"] for a in page.select(".pb-byline a[href]")]
    assert not any("script" in h.lower() for h in hrefs), hrefs
    assert "Published" not in byline(page)  # the bad date is dropped, with its column
    # The rest of the page is intact.
    assert page.select_one(".pb-body h2").get_text(strip=True).startswith("A section")
    rest_page = read_html(app, "rest")
    assert [a["name"] for a in authors(rest_page)] == ["Ada", "Grace Hopper"]


@pytest.mark.sphinx(
    "html",
    testroot="metadata-bad",
    confoverrides={"suppress_warnings": ["playbook.metadata", "playbook.metadata_key"]},
)
def test_metadata_warnings_can_be_suppressed(app):
    app.build()
    assert playbook_warnings(app) == []


@pytest.mark.sphinx("html", testroot="metadata-defaults")
def test_conf_defaults_apply_to_pages_that_set_none(app):
    app.build()
    index = read_html(app)
    assert [a["name"] for a in authors(index)] == ["Site Author"]
    assert [li.get_text(strip=True) for li in index.select(".pb-affiliation")] == ["Site Lab"]
    assert index.select_one(".pb-byline__doi a").get_text() == "10.9999/site"
    assert index.select_one(".pb-byline__published time")["datetime"] == "2024-01-02"
    own = read_html(app, "own")
    assert [a["name"] for a in authors(own)] == ["Page Author"]
    # A page with its own authors does not inherit the site's affiliations...
    assert own.select(".pb-affiliation") == []
    # ...but fields it leaves unset still come from conf.py.
    assert own.select_one(".pb-byline__doi a").get_text() == "10.9999/site"
    assert own.select_one(".pb-byline__published time")["datetime"] == "2024-03-05"


@pytest.mark.sphinx(
    "html",
    testroot="metadata-defaults",
    confoverrides={"playbook_authors": {"name": "Not in a list"}, "playbook_doi": 42},
)
def test_wrong_config_types_warn_and_fall_back(app):
    app.build()
    warnings = playbook_warnings(app)
    assert any("playbook_authors = {'name': 'Not in a list'} is not valid" in w for w in warnings)
    assert any("playbook_doi = 42 is not valid" in w for w in warnings)
    assert len(warnings) == 2
    assert all(w.endswith("[playbook.config]") for w in warnings)
    page = read_html(app)
    assert page.select(".pb-author") == []
    assert page.select(".pb-byline__doi") == []
    assert page.select_one(".pb-byline__published time")["datetime"] == "2024-01-02"


@pytest.mark.sphinx("html", testroot="article-myst")
def test_columns_appear_only_with_data(app):
    """A page without metadata has no byline at all, and no marks without differences."""
    app.build()
    chapter = read_html(app, "chapter2")
    assert chapter.select(".pb-byline") == []
    assert chapter.select_one("h1.pb-title").get_text() == "Second chapter"


def test_marks_only_when_affiliations_differ():
    fields = front_matter_fields(
        "---\nauthors:\n  - name: A\n    affiliations: [x]\n  - name: B\n    affiliations: [x]\n"
        "affiliations:\n  - {id: x, name: X}\n  - {id: y, name: Y}\n---\n"
    )[0]
    from sphinx_playbook.theme import byline_context

    context = byline_context(read_metadata(fields, "doc"), "en")
    assert context["show_marks"] is False


def test_front_matter_lines_are_file_lines():
    fields, error = front_matter_fields("---\ntitle: T\n\npublished: 2025-02-19\n---\n# T\n")
    assert error is None
    assert fields["title"].line == 2
    assert fields["published"].line == 4
    assert fields["published"].value == dt.date(2025, 2, 19)


def test_rest_simple_forms():
    assert rest_field_value("authors", "Doe, Jane <https://a.b/?x=1&y=2> [lab, EPFL]; Bob") == [
        {"name": "Doe, Jane", "url": "https://a.b/?x=1&y=2", "affiliations": ["lab", "EPFL"]},
        {"name": "Bob"},
    ]
    assert rest_field_value("affiliations", "Lab <https://lab.org>; Uni") == [
        {"name": "Lab", "url": "https://lab.org"},
        {"name": "Uni"},
    ]
    assert rest_field_value("authors", "[{name: A, orcid: 0000-0002-1825-0097}]") == [
        {"name": "A", "orcid": "0000-0002-1825-0097"}
    ]


def test_dates_are_formatted_once_and_a_changed_date_shows(make_app, tmp_path, monkeypatch):
    """Each date of the site is formatted once, before the environment is pickled: a
    rebuild that changes no date formats none, one that changes a date shows it."""
    from sphinx_playbook.theme import page_context as theme

    formatted: list[dt.date] = []
    format_date = theme._formatted_date

    def counting_format_date(value: dt.date, language: str) -> str:
        formatted.append(value)
        return format_date(value, language)

    monkeypatch.setattr(theme, "_formatted_date", counting_format_date)
    source = tmp_path / "source"
    source.mkdir()
    (source / "conf.py").write_text(
        'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
        'playbook_published = "2025-01-02"\n',
        encoding="utf-8",
    )
    (source / "index.md").write_text("# Home\n\n```{toctree}\nnews\n```\n", encoding="utf-8")
    news = source / "news.md"
    news.write_text("---\npublished: 2025-03-04\n---\n# News\n\nText.\n", encoding="utf-8")

    def published(app, docname: str) -> str:
        return byline(read_html(app, docname))["Published"].find("time").get_text()

    build = tmp_path / "build"
    app = make_app("html", srcdir=source, builddir=build)
    app.build()
    assert sorted(formatted) == [dt.date(2025, 1, 2), dt.date(2025, 3, 4)]
    assert (published(app, "index"), published(app, "news")) == ("Jan 2, 2025", "Mar 4, 2025")

    formatted.clear()
    news.write_text(news.read_text(encoding="utf-8") + "\nMore text.\n", encoding="utf-8")
    app = make_app("html", srcdir=source, builddir=build)
    app.build()
    assert formatted == [], "a rebuild that changed no date formatted one"

    news.write_text(news.read_text(encoding="utf-8").replace("03-04", "05-06"), encoding="utf-8")
    app = make_app("html", srcdir=source, builddir=build)
    app.build()
    assert formatted == [dt.date(2025, 5, 6)]
    assert published(app, "news") == "May 6, 2025"
