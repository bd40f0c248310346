"""Property: any document made of our directives, roles, options and front matter builds.

Hypothesis composes random pages (directives nested at random, options with good
and bad values, cite roles with known, unknown and empty keys, front matter with
good and bad values), written as MyST and as reST. Property: the build finishes,
every warning is located at a file, no traceback is printed, and the HTML parses
without a single html5lib parse error.

CI runs the ``ci`` profile (25 examples); before a release run
``HYPOTHESIS_PROFILE=release pytest tests/test_properties.py`` (500 examples).
"""

from __future__ import annotations

import json
import os
import re
from io import StringIO
from pathlib import Path

import html5lib
import pytest
from helpers import ROOTS, warning_text, write_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sphinx.testing.util import SphinxTestApp

#: CI draws the same 25 documents every run (a landing must not hang on the draw);
#: the release profile explores new ones, and what it finds becomes a regression test.
settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "release", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in ("ci", "release"):
    PROFILE = "ci"

#: Option names and values to draw from: every option of every directive, good and bad.
OPTION_VALUES = {
    "class": ["extra", "l-page", "<>", ""],
    "name": ["target-a", "target-b", ""],
    "alt": ["A band", "", '" onerror="x'],
    "width": ["1200px", "80%", "wide", "10px; color: red", ""],
    "background": ["white", "#f5f5f5", "red; position: fixed", "url(x)", ""],
    "layout": ["screen", "page", "body", "gutter", ""],
    "target": ["https://example.org", "javascript:alert(1)", ""],
    "columns": ["1fr 1fr", "repeat(3, 1fr)", "two", "1fr; position: fixed", ""],
    "align": ["start", "center", "middle", ""],
    "colour": ["red"],
}
ALL_OPTION_VALUES = sorted({"x", *(v for values in OPTION_VALUES.values() for v in values)})
DIRECTIVES = {
    "aside": ("class", "name", "colour"),
    "figure-legend": ("class", "name", "layout"),
    "wide-image": ("alt", "width", "background", "layout", "target", "class", "name"),
    "side-by-side": ("columns", "align", "layout", "class", "name"),
    "layout": ("class", "name", "width"),
    "appendix": ("title",),
    "citation": ("style",),
}
KEYS = ["good2020", "nobody2099", "good2020,nobody2099", ",", " "]
FRONT_MATTER = {
    "title": ["A title", "<b>Bold</b>", ["a", "b"]],
    "description": ["One sentence.", {"a": "b"}],
    "published": ["2025-02-19", "soon", 12],
    "updated": ["2025-03-01", "later"],
    "doi": ["10.1234/abc", "nope"],
    "authors": [
        [{"name": "Ada", "url": "https://ada.example", "affiliations": ["lab"]}],
        [{"url": "javascript:alert(1)"}],
        "Grace Hopper",
        42,
    ],
    "affiliations": [[{"id": "lab", "name": "Lab"}], [{"id": "x"}], 5],
    "thumbnail": ["images/band.png", "javascript:alert(1)"],
    "license": ["CC-BY-4.0", ["MIT"]],
    "bibliography": ["good.bib", "missing.bib", 42],
    "subtitle": ["unknown key"],
}

words = st.sampled_from(["Text", "More text", "A *short* note", "Numbers 1, 2, 3"])


@st.composite
def inline(draw) -> tuple[str, str]:
    """A paragraph as (MyST, reST), maybe with a cite role."""
    text = draw(words)
    if draw(st.booleans()):
        keys = draw(st.sampled_from(KEYS))
        role = draw(st.sampled_from(["cite", "cite:t", "cite:p"]))
        return f"{text} {{{role}}}`{keys}`.", f"{text} :{role}:`{keys}`."
    return f"{text}.", f"{text}."


def block(depth: int) -> st.SearchStrategy:
    if depth <= 0:
        return st.builds(lambda p: ("paragraph", p), inline())
    return st.one_of(
        st.builds(lambda p: ("paragraph", p), inline()),
        st.just(("image", None)),
        st.builds(
            lambda name, options, argument, children: (
                "directive",
                (name, options, argument, children),
            ),
            st.sampled_from(sorted(DIRECTIVES)),
            st.lists(
                st.tuples(
                    st.sampled_from([*sorted(OPTION_VALUES), "title", "style"]),
                    st.sampled_from(ALL_OPTION_VALUES),
                ),
                max_size=3,
                unique_by=lambda option: option[0],
            ),
            st.sampled_from(["", "images/band.png", "page", "sidebar", "images/missing.png"]),
            st.lists(block(depth - 1), max_size=3),
        ),
    )


def to_myst(item, depth: int = 0) -> str:
    kind, value = item
    if kind == "paragraph":
        return value[0]
    if kind == "image":
        return "![A diagram](images/diagram.svg)"
    name, options, argument, children = value
    fence = ":" * (3 + _height(item))
    lines = [f"{fence}{{{name}}} {argument}".rstrip()]
    lines += [f":{key}: {option}".rstrip() for key, option in options]
    body = "\n\n".join(to_myst(child, depth + 1) for child in children)
    return "\n".join(lines) + ("\n\n" + body if body else "") + f"\n{fence}"


def _height(item) -> int:
    kind, value = item
    if kind != "directive":
        return 0
    return 1 + max((_height(child) for child in value[3]), default=0)


def to_rest(item, indent: str = "") -> str:
    kind, value = item
    if kind == "paragraph":
        return indent + value[1]
    if kind == "image":
        return f"{indent}.. image:: images/diagram.svg\n{indent}   :alt: A diagram"
    name, options, argument, children = value
    lines = [f"{indent}.. {name}:: {argument}".rstrip()]
    lines += [f"{indent}   :{key}: {option}".rstrip() for key, option in options]
    body = "\n\n".join(to_rest(child, indent + "   ") for child in children)
    return "\n".join(lines) + ("\n\n" + body if body else "")


front_matter = st.dictionaries(
    st.sampled_from(sorted(FRONT_MATTER)),
    st.integers(min_value=0, max_value=3),
    max_size=5,
).map(lambda chosen: {k: FRONT_MATTER[k][i % len(FRONT_MATTER[k])] for k, i in chosen.items()})

_WARNING_START = re.compile(r"^(?:\S[^\n]*?: )?(?:WARNING|ERROR|CRITICAL): ", re.M)


@pytest.fixture(scope="module")
def shared_app(tmp_path_factory):
    """One Sphinx app for every example: each build re-reads the two rewritten pages."""
    directives = ROOTS / "test-directives-myst" / "images"
    srcdir = write_project(
        tmp_path_factory.mktemp("properties"),
        {
            "good.bib": "@article{good2020,\n  title={Good},\n  author={Doe, Jane},\n"
            "  year={2020}\n}\n",
            "images/band.png": (directives / "band.png").read_bytes(),
            "images/diagram.svg": (directives / "diagram.svg").read_bytes(),
            "index.rst": "Properties\n==========\n\n.. toctree::\n\n   md\n   rst\n",
        },
        conf='extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
        'project = "Properties"\nexclude_patterns = ["_build"]\n',
    )
    app = SphinxTestApp("html", srcdir=srcdir, status=StringIO(), warning=StringIO())
    yield app
    app.cleanup()


@settings(settings.get_profile(PROFILE))
@given(
    front=front_matter,
    blocks=st.lists(block(2), min_size=1, max_size=5),
)
def test_any_document_builds_with_located_warnings_and_parsing_html(shared_app, front, blocks):
    srcdir = Path(shared_app.srcdir)
    yaml_lines = "".join(f"{key}: {json.dumps(value)}\n" for key, value in front.items())
    head = f"---\n{yaml_lines}---\n\n" if front else ""
    myst = head + "# Page\n\n" + "\n\n".join(to_myst(b) for b in blocks) + "\n\nThe end.\n"
    fields = "".join(f":{key}: {json.dumps(value)}\n" for key, value in front.items())
    rest = (fields + "\n" if fields else "") + "Page\n====\n\n"
    rest += "\n\n".join(to_rest(b) for b in blocks) + "\n\nThe end.\n"
    (srcdir / "md.md").write_text(myst, encoding="utf-8")
    (srcdir / "rst.rst").write_text(rest, encoding="utf-8")
    shared_app.warning.seek(0)
    shared_app.warning.truncate()
    shared_app.build()
    assert shared_app.statuscode == 0
    warnings = warning_text(shared_app)
    assert "Traceback" not in warnings
    for match in _WARNING_START.finditer(warnings):
        line = match.group(0)
        assert str(srcdir) in line, f"an unlocated warning: {line!r}\n{warnings}"
    for page in ("md", "rst"):
        parser = html5lib.HTMLParser(strict=False)
        parser.parse((Path(shared_app.outdir) / f"{page}.html").read_bytes())
        assert parser.errors == [], (page, parser.errors[:3])
