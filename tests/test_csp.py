"""What a strict Content-Security-Policy needs of our pages (csp.py, theme/assets.py).

The browser checks the docs under the policy (tests/browser/test_csp.py); here,
the parts a reader cannot see: style attributes become classes with the same
declarations (and stay where they could break out of a rule), scripts in text are
left alone, each page's own stylesheet follows its page through rebuilds, and the
option writes the policy into every page of both HTML builders.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from helpers import build, page_path, read_page, write_project
from page_styles import page_rules, style_of

from sphinx_playbook.csp import (
    POLICY,
    css_string,
    move_inline_scripts,
    move_style_attributes,
    stylesheet,
)

CONF = 'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
INDEX = """# Home

Text.

```{raw} html
<p class="note" style="color: rgb(200, 0, 0); margin: 0 !important">Raw HTML.</p>
```

```{image} pixel.png
:width: 50%
```

```{toctree}
other
```
"""
OTHER = "# Other page\n\nNothing styled.\n"
#: A 1x1 PNG.
PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de"
    "0000000c4944415408d763f8ffff3f0005fe02fea7d6a4a20000000049454e44ae426082"
)


def test_a_style_attribute_becomes_a_class_with_the_same_declarations():
    markup = '<div class="a b" style="--pb-columns: repeat(2, minmax(0, 1fr)); color: red">x</div>'
    moved, rules = move_style_attributes(markup)
    element = BeautifulSoup(moved, "html.parser").div
    assert not element.has_attr("style")
    assert element["class"][:2] == ["a", "b"] and len(element["class"]) == 3
    ((name, body),) = rules.items()
    assert element["class"][2] == name
    # Inline styles outrank every rule: each declaration is !important.
    assert body == "--pb-columns: repeat(2, minmax(0, 1fr)) !important; color: red !important"
    assert f".{name}{{{body}}}" in stylesheet(rules)


def test_the_same_style_is_one_rule_and_other_attributes_stay():
    markup = (
        '<img src="a.png" alt="x &quot;y&quot;" style="width: 50%"/>'
        '<img src=b.png style="width: 50%" data-style="keep">'
    )
    moved, rules = move_style_attributes(markup)
    images = BeautifulSoup(moved, "html.parser").find_all("img")
    assert len(rules) == 1
    assert [i["class"] for i in images] == [[*rules], [*rules]]
    assert images[0]["alt"] == 'x "y"' and images[1]["data-style"] == "keep"
    assert images[1]["src"] == "b.png"


@pytest.mark.parametrize(
    "style",
    [
        "color: red} body {display: none",  # would close the rule
        "content: 'unclosed",  # an unclosed string swallows the next rule
        "color: red /* comment",
    ],
)
def test_a_style_that_could_break_out_of_its_rule_stays(style):
    markup = f'<p style="{style}">x</p>'
    moved, rules = move_style_attributes(markup)
    assert rules == {} and moved == markup


def test_text_that_only_looks_like_a_style_attribute_is_left_alone():
    markup = (
        '<script>var s = \'<b style="x: 1">\';</script><!-- <i style="x: 1"> -->'
        '<span title="style=x">t</span><pre>&lt;b style="x"&gt;</pre>'
    )
    assert move_style_attributes(markup) == (markup, {})


def test_inline_scripts_become_files_but_data_stays():
    markup = (
        '<script src="lib.js"></script><script>Plotly.newPlot(1)</script>'
        '<script type="application/json">{"a": 1}</script>'
    )
    moved, files = move_inline_scripts(markup, lambda code: f"js/{len(code)}.js")
    scripts = BeautifulSoup(moved, "html.parser").find_all("script")
    assert [s.get("src") for s in scripts] == ["lib.js", "js/17.js", None]
    assert files == {"js/17.js": "Plotly.newPlot(1)"}


def test_a_title_is_a_safe_css_string():
    assert css_string('A "quoted" <b>\\ title\n') == '"A \\22 quoted\\22  \\3c b>\\5c  title "'


def _project(tmp_path: Path, conf: str = CONF) -> Path:
    return write_project(
        tmp_path / "src",
        {"index.md": INDEX, "other.md": OTHER, "pixel.png": PIXEL},
        conf=conf,
    )


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_each_page_links_its_own_stylesheet_with_its_styles(tmp_path, builder):
    out = build(_project(tmp_path), tmp_path / "out", builder)
    page = read_page(out, "index", builder)
    path = page_path(out, "index", builder)
    rules = page_rules(page, path)
    raw = page.select_one("p.note")
    assert style_of(raw, rules) == "color: rgb(200, 0, 0); margin: 0;"
    # The author's own !important is kept, not doubled.
    (body,) = [rules[c] for c in raw["class"] if c in rules]
    assert body.endswith("margin: 0 !important")
    assert style_of(page.select_one(".pb-body img"), rules) == "width: 50%;"
    assert not page.select("[style]"), "no style attribute left"
    own = [
        link for link in page.find_all("link", rel="stylesheet") if "playbook-pages" in link["href"]
    ]
    assert len(own) == 1 and own[0].get("media") is None, "styles apply on screen"
    assert (path.parent / own[0]["href"].split("?")[0]).resolve().is_file()
    # A page with nothing styled links it for paper only (its running title).
    other = read_page(out, "other", builder)
    links = [
        link
        for link in other.find_all("link", rel="stylesheet")
        if "playbook-pages" in link["href"]
    ]
    assert [link.get("media") for link in links] == ["print"]
    # Without playbook_csp, no policy: the pages are otherwise the same.
    assert page.find("meta", attrs={"http-equiv": "Content-Security-Policy"}) is None


def test_the_option_writes_the_policy_first_in_every_page(tmp_path):
    out = build(_project(tmp_path, CONF + "playbook_csp = True\n"), tmp_path / "out")
    pages = sorted(out.glob("*.html"))
    assert {p.name for p in pages} >= {"index.html", "other.html", "genindex.html", "search.html"}
    for path in pages:
        head = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").head
        meta = head.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
        assert meta is not None and meta["content"] == POLICY, path.name
        first = head.find(["script", "link", "style"])
        assert first.sourceline > meta.sourceline, path.name


def test_a_removed_page_takes_its_stylesheet_with_it(tmp_path):
    src = _project(tmp_path)
    out = build(src, tmp_path / "out")
    sheets = out / "_static" / "playbook-pages"
    assert (sheets / "other.css").is_file()
    (src / "other.md").unlink()
    (src / "index.md").write_text(INDEX.replace("```{toctree}\nother\n```\n", ""), "utf-8")
    build(src, out)
    fresh = build(src, tmp_path / "fresh")
    assert sorted(p.name for p in sheets.iterdir()) == sorted(
        p.name for p in (fresh / "_static" / "playbook-pages").iterdir()
    )
    assert not (sheets / "other.css").exists()
