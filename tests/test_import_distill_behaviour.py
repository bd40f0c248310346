"""An imported article keeps its behaviour (issue 42): what its own CSS and scripts
address keeps its tag, id and classes; inline handlers stay on their elements; figures
waiting for Distill's d-figure events get them from a file of our own, loaded only
where a script listens; generated heading ids never take an id of the article; no
import writes an id twice. The fixture (tests/data/distill/behaviour) is hand-written;
tests/browser/test_import_distill_scripts.py clicks, scrolls and opens it in Chromium.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from helpers import png, read_page, sphinx_build
from test_import_distill_published import declared_style

from sphinx_playbook.cli import main

FIXTURES = Path(__file__).parent / "data" / "distill"
#: Every fixture article that imports (the others test the errors).
IMPORTABLE = (
    "basic", "behaviour", "bib-src", "fragments", "grid", "panels", "published", "tabs",
    "floats", "v1", "v1-published", "sections",
)  # fmt: skip


def import_and_build(source: Path, out: Path, capsys) -> dict:
    code = main(["import-distill", str(source), str(out)])
    report = capsys.readouterr().out
    build = sphinx_build("-W", "-q", "-b", "html", str(out), str(out / "_html")).returncode
    return {"code": code, "build": build, "report": report, "soup": read_page(out / "_html")}


@pytest.fixture(scope="module")
def behaviour(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("behaviour") / "project"
    code = main(["import-distill", str(FIXTURES / "behaviour"), str(out)])
    build = sphinx_build("-W", "-q", "-b", "html", str(out), str(out / "_html")).returncode
    return {
        "out": out,
        "code": code,
        "build": build,
        "report": (out / "import-report.txt").read_text("utf-8"),
        "soup": read_page(out / "_html"),
    }


def test_imports_and_builds_with_W(behaviour):
    assert (behaviour["code"], behaviour["build"]) == (0, 0)


def test_the_distill_events_runtime_is_a_file_loaded_by_the_page(behaviour):
    soup = behaviour["soup"]
    sources = [script["src"].split("?")[0] for script in soup.select("script[src]")]
    assert "_static/distill-events.js" in sources
    assert (behaviour["out"] / "_html" / "_static" / "distill-events.js").is_file()
    # The figure the script listens on keeps its tag and id.
    assert soup.select_one("d-figure#teaser > div.canvas-holder") is not None
    assert (
        "listen to d-figure's events (offscreen x1, onscreen x2, ready x1)" in (behaviour["report"])
    )


def test_the_bodys_handlers_run_from_a_file(behaviour):
    """The theme writes its own <body>: <body onload> runs from body-handlers.js."""
    soup = behaviour["soup"]
    sources = [script["src"].split("?")[0] for script in soup.select("script[src]")]
    assert "_static/body-handlers.js" in sources
    script = (behaviour["out"] / "_html" / "_static" / "body-handlers.js").read_text("utf-8")
    assert "document.body.dataset.loaded = 'yes'" in script
    assert (
        "<body onload> (\"document.body.dataset.loaded = 'yes'\") runs from"
        in (behaviour["report"])
    )


def test_no_runtime_where_no_script_listens(tmp_path, capsys):
    result = import_and_build(FIXTURES / "published", tmp_path / "o", capsys)
    sources = [script["src"] for script in result["soup"].select("script[src]")]
    assert not any("distill-events" in source for source in sources)
    assert not (tmp_path / "o" / "_distill_runtime").exists()
    assert "Distill runtime (check)" not in result["report"]
    assert "listen to d-figure's events" not in result["report"]


def test_inline_handlers_stay_on_their_elements_and_are_counted(behaviour):
    soup = behaviour["soup"]
    links = soup.select("a[onclick]")
    assert [(a.get_text(), a["onclick"]) for a in links] == [
        ("epoch 14", "setEpoch(14); return false;"),
        ("epoch 3", "setEpoch(3); return false;"),
    ]
    assert soup.select_one("span[onmouseover]").get_text() == "hover me"
    # An anchor whose id the script keeps in data ({id: "jump-a"}) and gives a handler.
    assert soup.select_one("a#jump-a").get_text() == "a phrase a script makes a link"
    assert (
        "4 inline handlers (onclick x3, onmouseover x1): 4 kept on their elements"
        in (behaviour["report"])
    )
    assert "LOST" not in behaviour["report"]


def test_classes_the_css_addresses_are_kept(behaviour):
    soup = behaviour["soup"]
    # The debate's speaker labels come from ol.debate li.red > span::before.
    speakers = soup.select("ol.debate > li")
    assert [li["class"] for li in speakers] == [["red"], ["blue"]]
    assert speakers[1].select_one("span > em").get_text() == "grey"
    # The collapsed section keeps its class (closed) and id (the button's target), its
    # formula rendered at build time.
    details = soup.select_one("div.content#details-1")
    assert details is not None
    assert details.select_one('annotation[encoding="application/x-tex"]').get_text() == "x^2"
    assert soup.select_one("button.toggle")["data-target"] == "details-1"
    assert (
        "2 elements the article's CSS hides until a script shows them (.content, .hidden)"
        in behaviour["report"]
    )
    # A heading that opens a collapsed part holding headings: still a section heading,
    # its handler on a span around its text; the part kept closed with its headings.
    toggle = soup.select_one("section > h2 > span.clickable[onclick]")
    assert toggle is not None and toggle.get_text() == "More details"
    more = soup.select_one("div.hidden#more")
    assert more.select_one("h3#inner").get_text() == "Inner heading"
    assert more.select_one('annotation[encoding="application/x-tex"]').get_text() == "y"
    assert "not in the page as it was" not in behaviour["report"]


def test_a_paragraph_the_css_addresses_stays_markdown_with_its_class(behaviour):
    text = (behaviour["out"] / "index.md").read_text("utf-8")
    assert "{.lede}\nA lede the CSS enlarges, with $z$." in text
    lede = behaviour["soup"].select_one("p.lede")
    assert lede.select_one('annotation[encoding="application/x-tex"]').get_text() == "z"


def test_only_a_link_to_nothing_is_said_to_point_to_nothing(behaviour):
    """#epoch-view is kept in raw HTML with its id: the link reaches it."""
    report = behaviour["report"]
    assert "the link to #nowhere points to nothing" in report
    assert "the link to #epoch-view points to nothing" not in report
    assert behaviour["soup"].select_one('a[href="#epoch-view"]').get_text() == "the view"


def test_a_link_card_to_a_heading_keeps_its_image_and_bold(behaviour):
    cards = [a for a in behaviour["soup"].select('a[href="#setup"]') if a.find("img")]
    assert len(cards) == 1
    card = cards[0]
    assert card.select_one("img")["alt"] == "Setup"
    assert card.select_one("figcaption b").get_text() == "Setup"


def test_a_generated_heading_id_never_takes_an_id_of_the_article(behaviour):
    soup = behaviour["soup"]
    assert [element.name for element in soup.select('[id="alignment"]')] == ["div"]
    headings = [h for h in soup.select("section > h2") if h.get_text().startswith("Alignment")]
    assert [h.find_parent("section")["id"] for h in headings] == ["alignment-section"]
    # An id inside a heading (<span id="debate-anchor">) is a label of the heading: the
    # table of contents, which copies the heading's text, does not write it again.
    assert len(soup.select('[id="debate-anchor"]')) == 1
    assert soup.select_one('[id="debate-anchor"]').find_parent("section")["id"] == "debate"
    # Original ids are kept exactly.
    assert soup.select_one("section#setup h2") is not None
    assert soup.select_one("#epoch-view").get_text() == "epoch 0"


def test_the_report_counts_what_was_kept_not_only_converted(tmp_path, capsys):
    """A lost handler is a line of the report, never a converted link."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "index.html").write_text(
        "<!doctype html><html><head></head><body><d-title><h1>T</h1></d-title><d-article>"
        '<h2 onclick="toggle()">Click</h2><p>Text.</p></d-article></body></html>',
        encoding="utf-8",
    )
    assert main(["import-distill", str(source), str(tmp_path / "o")]) == 0
    report = capsys.readouterr().out
    assert "1 inline handlers (onclick x1): 1 kept on their elements" in report


@pytest.mark.parametrize(
    "name",
    IMPORTABLE,
)
def test_no_import_writes_an_id_twice(tmp_path, capsys, name):
    result = import_and_build(FIXTURES / name, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    counts = Counter(str(element["id"]) for element in result["soup"].find_all(id=True))
    assert [name for name, count in counts.items() if count > 1] == []


def test_a_published_v1_include_is_not_inlined_twice(tmp_path, capsys):
    """v1's runtime put part.html inside <dt-include> before the page was saved."""
    result = import_and_build(FIXTURES / "v1-published", tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    soup = result["soup"]
    headings = [h for h in soup.select("h2") if h.get_text().startswith("An included section")]
    assert len(headings) == 1
    assert len(soup.select('[id="figure-x"]')) == 1
    # What the published page holds, not the source file's empty mount point again.
    assert "The figure\u2019s text, as published." in soup.select_one("#figure-x").get_text()
    assert soup.find(string=lambda text: text and "drawn" in text) is None
    # <p><dt-include><figure>: the figure closes the paragraph, so the parser leaves the
    # include empty and the figure after it; the file is not inlined again.
    assert len(soup.select('[id="moved"]')) == 1
    # The HTML import (figure-x.html, dropped by browsers) is a line of the report.
    assert "<link rel=import href='figure-x.html'> is not resolved" in result["report"]


def test_an_ftp_url_in_the_bibtex_builds_with_W_and_is_shown(tmp_path, capsys):
    """Valid BibTeX the theme refuses as a link: kept as text, the -W build passes."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "index.html").write_text(
        "<!doctype html><html><head></head><body><d-title><h1>FTP</h1></d-title><d-article>"
        '<p>Cited <d-cite key="old"></d-cite>.</p></d-article><d-bibliography>'
        '<script type="text/bibtex">\n@misc{old, title={Old}, author={Ada Lovelace}, '
        "year={1990}, url={ftp://ftp.example.org/pub/old.ps}}\n</script></d-bibliography>"
        "</body></html>",
        encoding="utf-8",
    )
    result = import_and_build(source, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    assert "old: the ftp:// url is not a link the theme writes" in result["report"]
    entries = [li.get_text() for li in result["soup"].select(".pb-reference-list > li")]
    assert any("ftp://ftp.example.org/pub/old.ps" in text for text in entries)


def test_an_images_inline_width_is_kept(tmp_path, capsys):
    """An SVG meant at 85 % of its column keeps that width (it overflowed at 390 px)."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "a.png").write_bytes(png(40, 20))
    (source / "index.html").write_text(
        "<!doctype html><html><head></head><body><d-title><h1>W</h1></d-title><d-article>"
        '<figure><img src="a.png" alt="A" style="width: 85%"><figcaption>The caption.'
        "</figcaption></figure></d-article></body></html>",
        encoding="utf-8",
    )
    result = import_and_build(source, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    image = result["soup"].select_one("figure img")
    page = tmp_path / "o" / "_html" / "index.html"
    assert declared_style(page, result["soup"], image).get("width") == "85%"


def test_v1_text_is_typeset_as_template_v1_showed_it(tmp_path, capsys):
    """template.v1 curled quotes and set dashes in the reader's page; code and math not."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "index.html").write_text(
        '<!doctype html><script src="https://distill.pub/template.v1.js"></script>'
        '<script type="text/front-matter">\n  title: Quotes\n</script><dt-article><h1>Quotes</h1>'
        '<p>"Straight" quotes, the reader\'s view -- and an ellipsis...</p>'
        '<p><code>x = "raw" -- 1</code> and <dt-math>f\'(x)</dt-math>.</p></dt-article>',
        encoding="utf-8",
    )
    result = import_and_build(source, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    paragraphs = [p.get_text() for p in result["soup"].select(".pb-body p")]
    assert (
        "\u201cStraight\u201d quotes, the reader\u2019s view\u2009\u2014\u2009and an ellipsis\u2026"
        in paragraphs
    )
    assert result["soup"].select_one(".pb-body code").get_text() == 'x = "raw" -- 1'
    formulas = [
        a.get_text() for a in result["soup"].select('annotation[encoding="application/x-tex"]')
    ]
    assert formulas == ["f'(x)"]


def test_a_figcaption_outside_a_figure_is_a_legend(tmp_path, capsys):
    source = tmp_path / "article"
    source.mkdir()
    (source / "a.png").write_bytes(png(40, 20))
    (source / "index.html").write_text(
        "<!doctype html><html><head></head><body><d-title><h1>F</h1></d-title><d-article>"
        '<d-figure><img src="a.png" alt="A"><figcaption>A caption with <b>bold</b>.'
        "</figcaption></d-figure></d-article></body></html>",
        encoding="utf-8",
    )
    result = import_and_build(source, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    assert "unknown element" not in result["report"]
    legend = result["soup"].select_one(".pb-body figure figcaption .caption-text")
    assert " ".join(legend.get_text().split()) == "A caption with bold."
    assert legend.select_one("strong").get_text() == "bold"


def test_math_inside_an_element_the_css_addresses_is_typeset(tmp_path, capsys):
    """A <d-math> alone in a <div> the article's CSS selects is typeset, not kept as TeX."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "index.html").write_text(
        "<!doctype html><html><head><style>.desktop { color: red; }</style></head><body>"
        "<d-title><h1>M</h1></d-title><d-article><p>Before.</p>"
        '<div class="desktop"><d-math block>x^2</d-math></div>'
        '<div class="desktop">See <d-cite key="a"></d-cite>.</div>'
        "<p>After <d-math>y</d-math>.</p></d-article><d-bibliography>"
        '<script type="text/bibtex">\n@misc{a, title={A}, author={Ada Lovelace}, year={1990}}'
        "\n</script></d-bibliography></body></html>",
        encoding="utf-8",
    )
    result = import_and_build(source, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    soup = result["soup"]
    shell = soup.select(".pb-body .desktop")[0]
    formulas = [a.get_text() for a in shell.select('annotation[encoding="application/x-tex"]')]
    assert [f.removeprefix("\\displaystyle ").strip() for f in formulas] == ["x^2"]
    assert shell.select_one(".katex-display") is not None
    # Nothing left for Distill's runtime (not loaded): the citation is a link too.
    assert soup.select_one("d-math, d-cite") is None
    assert soup.select(".pb-body .desktop")[1].select_one("a[href]") is not None


def test_css_naming_distills_elements_selects_what_the_theme_writes(tmp_path, capsys):
    """``d-article .content { display: none }`` keeps hiding the collapsed content: the
    page has no <d-article>, so the kept rule selects the theme's article body instead."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "index.html").write_text(
        "<!doctype html><html><head><style>d-article .content { display: none; }\n"
        "@media (min-width: 1px) { d-title h1 { color: red; } }</style></head><body>"
        "<d-title><h1>C</h1></d-title><d-article><p>Before.</p>"
        '<button class="collapsible">More +</button>'
        '<p class="content">Hidden until clicked.</p></d-article></body></html>',
        encoding="utf-8",
    )
    result = import_and_build(source, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    soup = result["soup"]
    content = soup.select_one("p.content")
    assert content is not None and content.get_text() == "Hidden until clicked."
    css = "\n".join(style.get_text() for style in soup.select(".pb-body style"))
    rules = dict(
        (selector.strip(), body.strip())
        for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css.replace("@media", "\n"))
    )
    hiding = [selector for selector, body in rules.items() if body == "display: none;"]
    assert len(hiding) == 1 and "d-article" not in hiding[0]
    assert soup.select(hiding[0]) == [content]
    titles = [s for s, body in rules.items() if body == "color: red;"]
    assert len(titles) == 1 and soup.select(titles[0]) == [soup.select_one(".pb-title-block h1")]


def test_a_class_at_width_100_percent_keeps_its_grid_in_the_column(tmp_path, capsys):
    """``width: 100%`` is the column's width, not the window's: a figure whose class
    lays its panels out in a grid keeps that class (and so its panels side by side)."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "a.png").write_bytes(png(40, 20))
    (source / "b.png").write_bytes(png(40, 20))
    (source / "index.html").write_text(
        "<!doctype html><html><head><style>.two-up { width: 100%; display: grid; "
        "grid-auto-flow: column; grid-auto-columns: 1fr; }</style></head><body>"
        "<d-title><h1>G</h1></d-title><d-article><p>Before.</p>"
        '<figure class="two-up">'
        '<div><img src="a.png" alt="A"><figcaption><strong>A:</strong> left.</figcaption></div>'
        '<div><img src="b.png" alt="B"><figcaption><strong>B:</strong> right.</figcaption></div>'
        "</figure></d-article></body></html>",
        encoding="utf-8",
    )
    result = import_and_build(source, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    soup = result["soup"]
    (figure,) = soup.select(".pb-body .two-up")
    panels = figure.find_all("div", recursive=False)
    assert [panel.img["alt"] for panel in panels] == ["A", "B"]
    site = tmp_path / "o" / "_html"
    assert all((site / panel.img["src"]).is_file() for panel in panels)
    # In the text column: no layout around it spans the window.
    assert not any("screen" in " ".join(p.get("class") or []) for p in figure.parents)


def test_a_grid_of_captions_under_an_image_is_the_images_legend(tmp_path, capsys):
    """``<figure><img><div style="display: grid"><figcaption>...`` (building-blocks): the
    row of captions is the image's legend, each caption a column, and builds with -W
    (a legend opening each column had nothing before it to caption)."""
    source = tmp_path / "article"
    source.mkdir()
    (source / "a.png").write_bytes(png(40, 20))
    (source / "t.png").write_bytes(png(10, 10))
    (source / "index.html").write_text(
        "<!doctype html><html><head><style>figure .thumb { width: 100%; }</style></head>"
        "<body><d-title><h1>C</h1></d-title><d-article><p>Before.</p>"
        '<figure class="l-page"><img src="a.png" alt="Steps">'
        '<div style="display: grid; grid-template-columns: 1fr 1fr 0.5fr;">'
        '<figcaption><b>1. One</b> <img class="thumb" src="t.png"><div>First.</div></figcaption>'
        "<figcaption><b>2. Two</b><div>Second.</div></figcaption>"
        "</div></figure><p>After.</p></d-article></body></html>",
        encoding="utf-8",
    )
    result = import_and_build(source, tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    soup = result["soup"]
    (figure,) = [f for f in soup.select(".pb-body figure") if f.select_one("img[alt=Steps]")]
    columns = figure.select(".pb-side-by-side > *")
    texts = [" ".join(column.get_text().split()) for column in columns]
    assert texts == ["1. One First.", "2. Two Second."]
    assert [b.get_text() for b in figure.select(".pb-side-by-side strong")] == ["1. One", "2. Two"]
    # The thumbnail stays inside the figure, where the article's CSS selects it.
    assert figure.select("figure .thumb") == figure.select("img.thumb")
    assert len(figure.select("img.thumb")) == 1


def test_siblings_the_css_selects_stay_siblings(tmp_path, capsys):
    """``input.tab:checked + label`` and ``#tab:checked ~ #section`` (tabs of
    safety-needs-social-scientists): no <p> is written around the label or the input,
    so each label still follows its radio button; the sections' text is converted."""
    result = import_and_build(FIXTURES / "tabs", tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    box = result["soup"].select_one("#transcripts")
    assert box.select_one("p > label, p > input") is None
    for radio in ("tab-short", "tab-long"):
        assert box.select_one(f"input.tab#{radio} + label")["for"] == radio
        section = radio.removeprefix("tab-")
        assert box.select_one(f"#{radio} ~ section#{section}") is not None
    assert box.select_one("#short em").get_text() == "emphasis"
    # An element alone that a conversion changes is converted: the citation is a link.
    assert box.select_one("d-cite") is None
    assert box.select_one("a[href*='lovelace1843']") is not None


def test_a_floated_figure_stands_in_the_margin_after_the_text_beside_it(tmp_path, capsys):
    """``<figure style="float: right; width: 165px">`` (ctc, twice) and v1's
    ``<figure class="l-body side">`` (augmented-rnns): figures in the margin, written
    after the paragraph they floated beside, at the width the article gave them."""
    result = import_and_build(FIXTURES / "floats", tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    body = result["soup"].select_one(".pb-body")
    alts = ("A small diagram", "A second diagram", "A side figure")
    images = {alt: body.select_one(f"img[alt='{alt}']") for alt in alts}
    # Past a short line ("Case 2:"): beside the paragraph after it.
    for alt, before in zip(alts, ("Case 1:", "Case 2:", "Between the two figures."), strict=True):
        figure = images[alt].find_parent("figure")
        assert "l-gutter" in figure["class"]
        beside = figure.find_previous_sibling()
        assert beside.name == "p" and beside.get_text().startswith("The text that flows")
        assert beside.find_previous_sibling("p").get_text() == before
    assert images["A small diagram"]["width"] == "165"
    caption = images["A side figure"].find_parent("figure").select_one(".caption-text")
    assert " ".join(caption.get_text().split()) == "A side figure's caption."


def test_css_naming_section_selects_the_articles_sections_not_sphinxs(tmp_path, capsys):
    """tests/data/distill/sections (activation-atlas): ``d-article section { contain:
    layout paint }`` selected the article's own sections; the page's other sections are
    the ones Sphinx writes per heading (which it would take out of the theme's subgrid),
    so the kept rules select the article's sections only: here the one kept for a script."""
    result = import_and_build(FIXTURES / "sections", tmp_path / "o", capsys)
    assert (result["code"], result["build"]) == (0, 0)
    soup = result["soup"]
    css = "\n".join(style.get_text() for style in soup.select(".pb-body style"))
    rules = {selector.strip(): body for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css)}
    assert len(rules) == 2
    headings = [soup.select_one(f"section#{name}") for name in ("first", "nested", "second")]
    assert all(section is not None for section in headings)
    for selector, body in rules.items():
        selected = soup.select(selector)
        assert not any(section in selected for section in headings)
        if "contain" in body:
            assert selected == [soup.select_one("#chart")]
