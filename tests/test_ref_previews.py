"""Hover previews of cross-references: every kind of reference, every kind of target.

The test root holds a MyST page (index.md) and its reST twin (rst.rst), each
referring to targets on another page (targets.md, rst_targets.rst) and on itself.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from helpers import ROOTS, build, read_page, sphinx_build

ROOT = ROOTS / "test-ref-previews"

#: Per page: each link's address -> the kind of card it opens.
EXPECTED = {
    "index": {
        "targets.html#fig-throughput": "figure",
        "targets.html#tab-memory": "table",
        "targets.html#sec-memory": "section",
        "targets.html#equation-eq-activations": "equation",
        "targets.html": "page",
        "#fig-local": "figure",
        "#equation-eq-local": "equation",
        "#sec-local-target": "section",
    },
    "rst": {
        "rst_targets.html#rst-fig-throughput": "figure",
        "rst_targets.html#rst-tab-memory": "table",
        "rst_targets.html#rst-sec-memory": "section",
        "rst_targets.html#equation-rst-eq-activations": "equation",
        "rst_targets.html": "page",
        "#rst-fig-local": "figure",
        "#equation-rst-eq-local": "equation",
        "#rst-sec-local-target": "section",
    },
}
#: How many references each page makes (some targets are referred to twice or more).
REFERENCES = {"index": 13, "rst": 9}


def _build(tmp: Path, *options: str, builder: str = "html") -> Path:
    """The previews root built with -W into ``tmp/out-BUILDER``."""
    return build(ROOT, tmp / f"out-{builder}", builder, "-W", *options)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("previews"))


def _text(node: Tag) -> str:
    return " ".join(node.get_text(" ").split())


def _cards(soup: BeautifulSoup) -> dict[str, Tag]:
    """The page's link addresses and the card each one opens."""
    found = {}
    for host in soup.select("article .pb-xref"):
        link = host.find("a")
        card = soup.find(id=host["aria-describedby"])
        assert card is not None, link
        found.setdefault(link["href"], card)
        assert found[link["href"]] is card, "one address, one card"
    return found


@pytest.mark.parametrize("docname", ["index", "rst"])
def test_every_reference_kind_opens_the_card_of_its_target(site, docname):
    soup = read_page(site, docname)
    hosts = soup.select("article .pb-xref")
    assert len(hosts) == REFERENCES[docname]
    cards = _cards(soup)
    kinds = {href: card["class"][-1].removeprefix("pb-preview--") for href, card in cards.items()}
    assert kinds == EXPECTED[docname]
    for host in hosts:
        # The link is still a link, and the card describes it to screen readers.
        assert host.find("a")["href"]
        card = soup.find(id=host["aria-describedby"])
        assert card["role"] == "tooltip" and "pb-card" in card["class"]


@pytest.mark.parametrize("docname", ["index", "rst"])
def test_each_target_has_one_card_in_a_hidden_store(site, docname):
    soup = read_page(site, docname)
    stores = soup.select(".pb-previews")
    assert len(stores) == 1 and stores[0].has_attr("hidden")
    cards = stores[0].select(".pb-card")
    # Eight targets; "the memory section" and "Memory usage" share one card, etc.
    assert len(cards) == len(EXPECTED[docname])
    assert len({_text(card) for card in cards}) == len(cards)
    ids = [tag["id"] for tag in soup.find_all(id=True)]
    assert len(ids) == len(set(ids)), "a card copies no id of its target"
    assert all(card.find(id=True) is None for card in cards)
    assert stores[0].find("a") is None, "a card holds no link of its own"


@pytest.mark.parametrize(
    ("docname", "prefix", "page"), [("index", "", "targets"), ("rst", "rst-", "rst_targets")]
)
def test_a_figure_card_shows_its_number_a_sized_lazy_image_and_its_legend(
    site, docname, prefix, page
):
    soup = read_page(site, docname)
    href = f"{page}.html#{prefix}fig-throughput"
    card = _cards(soup)[href]
    link = soup.select_one(f'.pb-xref a[href="{href}"]')
    assert _text(card.select_one(".pb-preview__label")) == _text(link)  # "Fig. 1"
    image = card.find("img")
    assert (image["width"], image["height"]) == ("320", "180")
    assert image["loading"] == "lazy" and image["alt"] == ""
    assert (site / image["src"]).is_file()
    caption = card.select_one(".pb-preview__caption")
    assert _text(caption) == "Throughput grows with the number of GPUs."
    legend = caption.find_next_sibling("p")
    assert "counts the GPUs and the dashed line is ideal scaling" in _text(legend)
    assert legend.select_one(".katex annotation").get_text() == "x", "math rendered as the page's"


@pytest.mark.parametrize(
    ("docname", "prefix", "page"), [("index", "", "targets"), ("rst", "rst-", "rst_targets")]
)
def test_a_table_card_shows_its_caption_and_first_rows(site, docname, prefix, page):
    soup = read_page(site, docname)
    card = _cards(soup)[f"{page}.html#{prefix}tab-memory"]
    assert _text(card.select_one(".pb-preview__label")).startswith("Table ")
    assert _text(card.select_one(".pb-preview__caption")) == "Memory per method"
    table = card.find("table")
    assert [_text(th) for th in table.select("thead th")] == ["Method", "Memory", "Compute"]
    assert [_text(row.find("td")) for row in table.select("tbody tr")] == ["DP", "TP", "PP"]


@pytest.mark.parametrize(
    ("docname", "prefix", "page"), [("index", "", "targets"), ("rst", "rst-", "rst_targets")]
)
def test_an_equation_card_shows_the_rendered_formula_and_its_number(site, docname, prefix, page):
    soup = read_page(site, docname)
    href = f"{page}.html#equation-{prefix}eq-activations"
    card = _cards(soup)[href]
    link = soup.select_one(f'.pb-xref a[href="{href}"]')
    number = _text(link)  # "(1)"
    assert _text(card.select_one(".pb-preview__label")) == f"Equation {number}"
    # The number the target page shows beside the formula is the same.
    target = read_page(site, page).find(id=f"equation-{prefix}eq-activations")
    assert _text(target.select_one(".eqno")).startswith(number)
    tex = card.select_one(".katex-display annotation").get_text()
    assert tex == r"m_{act} = L \cdot h \cdot \left(34 + 5 \frac{a s}{h}\right)"
    assert card.select_one(".eqno") is None


@pytest.mark.parametrize(
    ("docname", "prefix", "page"), [("index", "", "targets"), ("rst", "rst-", "rst_targets")]
)
def test_a_section_card_shows_its_title_and_first_paragraph(site, docname, prefix, page):
    soup = read_page(site, docname)
    card = _cards(soup)[f"{page}.html#{prefix}sec-memory"]
    paragraphs = [_text(p) for p in card.find_all("p")]
    assert paragraphs == [
        "Memory usage",
        "Activations dominate the memory of long sequences, as the formula below shows.",
    ]
    local = _cards(soup)[f"#{prefix}sec-local-target"]
    assert _text(local.select_one(".pb-card__title")) == "A local target"
    assert local.select_one(".katex annotation").get_text() == "a^2 + b^2 = c^2"
    assert "second paragraph" not in _text(local)


@pytest.mark.parametrize(("docname", "page"), [("index", "targets"), ("rst", "rst_targets")])
def test_a_page_card_shows_its_title_and_description(site, docname, page):
    card = _cards(read_page(site, docname))[f"{page}.html"]
    title = "Targets" if docname == "index" else "Targets in reST"
    assert [_text(p) for p in card.find_all("p")] == [
        title,
        "Where the figures, tables and equations live.",
    ]


def test_the_search_finds_a_card_s_words_on_its_target_s_page_only(site):
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text.removeprefix("Search.setIndex(").removesuffix(")"))
    pages = [index["docnames"][number] for number in index["terms"]["domin"]]  # "dominate"
    assert sorted(pages) == ["rst_targets", "targets"]


def test_the_myst_and_rest_twins_show_the_same_cards(site):
    def shown(docname: str) -> list[tuple[str, list[str]]]:
        cards = read_page(site, docname).select(".pb-previews .pb-card")
        return [
            (card["class"][-1], [_text(p) for p in card.find_all("p", class_=False)])
            for card in cards
        ]

    assert shown("index") == shown("rst")


def test_the_setting_turns_the_cards_off(tmp_path):
    out = _build(tmp_path, "-D", "playbook_ref_previews=0")
    soup = read_page(out, "index")
    assert soup.select(".pb-xref, .pb-previews, .pb-preview") == []
    assert soup.select_one('article a[href="targets.html#fig-throughput"]') is not None


def test_dirhtml_pages_find_their_targets(tmp_path):
    out = _build(tmp_path, builder="dirhtml")
    soup = read_page(out, "index", "dirhtml")
    assert len(soup.select(".pb-previews .pb-card")) == len(EXPECTED["index"])
    nested = read_page(out, "rst", "dirhtml")
    assert len(nested.select(".pb-previews .pb-card")) == len(EXPECTED["rst"])


def test_no_card_in_builders_without_the_article_layout(tmp_path):
    out = _build(tmp_path, builder="singlehtml")
    soup = read_page(out)
    assert soup.select(".pb-xref, .pb-previews") == []
    text = (_build(tmp_path, builder="text") / "index.txt").read_text(encoding="utf-8")
    assert "* ref: Memory usage" in text
    assert "Activations dominate" not in text, "no card's text in plain text"


# -- incremental builds ------------------------------------------------------------------

EDITS = [
    # (file, old, new, the referring page, the text its card then shows)
    ("targets.md", "The legend:", "The key:", "index", "The key:"),
    ("rst_targets.rst", "Activations dominate", "Activations fill", "rst", "Activations fill"),
    ("targets.md", r"34 + 5", r"36 + 7", "index", "36 + 7"),
    ("targets.md", "Where the figures", "Where all the figures", "index", "Where all the figures"),
    ("targets.md", "| DP     | high", "| ZeRO   | high", "index", "ZeRO"),
]


def _same_site(built: Path, fresh: Path) -> None:
    pages = sorted(p.relative_to(fresh) for p in fresh.glob("*.html"))
    assert pages == sorted(p.relative_to(built) for p in built.glob("*.html"))
    stale = [str(p) for p in pages if (built / p).read_bytes() != (fresh / p).read_bytes()]
    assert stale == []


def test_editing_a_previewed_target_rewrites_the_pages_that_show_it(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(ROOT, source)
    built = tmp_path / "built"
    sphinx_build("-q", "-b", "html", str(source), str(built))
    for number, (name, old, new, referrer, shown) in enumerate(EDITS):
        path = source / name
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        sphinx_build("-q", "-b", "html", str(source), str(built))
        fresh = tmp_path / f"fresh-{number}"
        sphinx_build("-q", "-b", "html", str(source), str(fresh))
        _same_site(built, fresh)
        store = read_page(built, referrer).select_one(".pb-previews")
        if "+" in shown:  # a formula: its TeX, as rendered
            assert any(shown in a.get_text() for a in store.select("annotation"))
        else:
            assert shown in _text(store)
