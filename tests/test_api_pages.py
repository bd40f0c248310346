"""What an existing Sphinx project brings to our theme (issue 40): autodoc pages, version
directives, footnotes with several blocks, transparent figures. The build-time half:
the classes and markup the stylesheet relies on (tests/browser/test_api_pages.py
measures the other half)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import playbook_warnings, read_html
from PIL import Image

from sphinx_playbook.images import has_transparency


def image_classes(page) -> dict[str, list[str]]:
    """Each image of the body by its alt text: its classes."""
    return {img["alt"]: img.get("class", []) for img in page.select(".pb-body img[alt]")}


@pytest.mark.sphinx("html", testroot="api-pages")
def test_transparent_images_are_marked_for_a_dark_mode_backdrop(app):
    app.build()
    assert playbook_warnings(app) == []
    classes = image_classes(read_html(app))
    assert "pb-transparent" in classes["Black axes on a transparent background"]  # figure
    assert "pb-transparent" in classes["A transparent GIF"]  # a palette's colour key
    # The author opted out; opaque pixels, with or without an alpha channel.
    assert "pb-transparent" not in classes["Opted out"]
    assert "no-backdrop" in classes["Opted out"]
    assert "pb-transparent" not in classes["An opaque image"]
    assert "pb-transparent" not in classes["An opaque image with an alpha channel"]
    # A dark variant wins: neither image of the pair gets a backdrop.
    pair = read_html(app).select('.pb-body img[alt="Light variant"]')
    assert [img["class"] for img in pair] == [["only-light"], ["pb-dark-variant", "only-dark"]]


@pytest.mark.sphinx("html", testroot="api-pages", confoverrides={"playbook_dark_backdrop": False})
def test_dark_backdrop_can_be_switched_off(app):
    app.build()
    assert not read_html(app).select(".pb-transparent")


@pytest.mark.sphinx("html", testroot="api-pages", confoverrides={"playbook_dark_backdrop": ["yes"]})
def test_dark_backdrop_setting_is_validated(app):
    app.build()
    assert any("playbook_dark_backdrop = ['yes'] is not valid" in w for w in playbook_warnings(app))
    assert read_html(app).select(".pb-transparent")  # the default, True


def test_has_transparency_reads_the_pixels(tmp_path: Path):
    def saved(image: Image.Image, name: str, **options) -> Path:
        path = tmp_path / name
        image.save(path, **options)
        return path

    see_through = Image.new("RGBA", (4, 4), (0, 0, 0, 0))
    see_through.putpixel((1, 1), (0, 0, 0, 255))
    assert has_transparency(saved(see_through, "chart.png"))
    assert has_transparency(saved(see_through, "chart.webp", lossless=True))
    half = Image.new("LA", (4, 4), (0, 128))
    assert has_transparency(saved(half, "grey.png"))
    palette = Image.new("P", (4, 4), 0)
    assert has_transparency(saved(palette, "keyed.gif", transparency=0))
    assert not has_transparency(saved(Image.new("RGBA", (4, 4), (9, 9, 9, 255)), "opaque.png"))
    assert not has_transparency(saved(Image.new("RGB", (4, 4)), "rgb.png"))
    assert not has_transparency(saved(Image.new("P", (4, 4), 0), "plain.gif"))
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG not really")
    assert not has_transparency(broken)
    assert not has_transparency(tmp_path / "missing.png")


@pytest.mark.sphinx("html", testroot="api-pages")
def test_footnote_cards_keep_paragraphs_lists_and_code(app):
    app.build()
    page = read_html(app)
    cards = {
        fn["aria-describedby"]: page.find(id=fn["aria-describedby"])
        for fn in page.select(".pb-body .pb-fn")
    }
    blocks = cards["blocks-card"]
    assert [p.get_text() for p in blocks.select(":scope > .pb-card__p")] == [
        "The first paragraph of the note.",
        "The second paragraph of the note.",
    ]
    # Read aloud as a description, the paragraphs keep a space between them.
    assert blocks.get_text() == "The first paragraph of the note. The second paragraph of the note."
    listed = cards["listed-card"]
    items = listed.select(".pb-card__list.pb-card__bullets > .pb-card__item")
    assert [item.get_text() for item in items] == ["the first item;", "the second item."]
    code = cards["code-card"].select_one(".pb-card__code")
    assert code.get_text() == "def f(x):\n    return x + 1"
    # The card sits in the citing paragraph: phrasing content only, or the HTML
    # parser would close the paragraph at the first block and spill the card out.
    for card in cards.values():
        assert card.name == "span"
        assert card.find_parent("p") is not None
        assert not card.find(["p", "div", "ul", "ol", "li", "pre"])
    # The appendix keeps the note's own blocks.
    note = page.select_one("#pb-appendix-footnotes #listed")
    assert [child.name for child in note.find_all(recursive=False)] == ["span", "p", "ul"]


@pytest.mark.sphinx("html", testroot="api-pages")
def test_api_markup_the_stylesheet_styles(app):
    """The classes Sphinx writes for what tests/browser/test_api_pages.py measures."""
    app.build()
    page = read_html(app)
    for kind in ("versionadded", "versionchanged", "deprecated", "versionremoved"):
        assert page.select_one(f".pb-body div.{kind} > p > span.versionmodified"), kind
    signature = page.select_one(".pb-body dl.py.function > dt.sig")
    assert signature.select_one(".sig-prename + .sig-name + .sig-paren")
    assert page.select_one(".pb-body dl.field-list > dt")
    assert "table-center" in page.find(id="centred-table")["class"]
    wide = page.find(id="wide-table")
    assert "pst-scrollable-table-container" in wide.parent["class"]
    toc_names = page.select(".pb-toc a code")
    assert any(
        "render_reference_list_with_every_option_spelled_out" in c.get_text() for c in toc_names
    )
