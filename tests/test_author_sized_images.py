"""Images an author sized (``:width:``, ``:scale:``, a percentage in a side-by-side)
get copies at their display width at 1x and 2x, with ``sizes`` saying so; images in
tables, cards and asides too; every ``<img>`` keeps its width and height; on paper a
copy of at least 200 dpi."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import Tag
from helpers import CONF, read_page, sphinx_build, write_project
from test_responsive_images import _photo

from sphinx_playbook.delivery.responsive_images import Display, widths_for

MYST = """\
# Sized images

```{image} images/photo.png
:width: 500px
:alt: Fixed width
```

```{image} images/photo.png
:scale: 25%
:alt: Scaled
```

::::{side-by-side}
```{image} images/photo.png
:width: 100%
:alt: Left share
```

```{image} images/photo.png
:width: 100%
:alt: Right share
```
::::

![In the text column](images/photo.png)

| A table |
|---|
| ![In a table](images/photo.png) |

:::{aside}
![In an aside](images/photo.png)
:::

:::{card} A card
:img-top: images/photo.png
:img-alt: In a card

Text.
:::

![A drawing](images/chart.svg){width=300px}

```{toctree}
rest
```
"""

REST = """\
In reStructuredText
===================

.. image:: images/photo.png
   :width: 500px
   :alt: Fixed width
"""


def make_book(root: Path) -> Path:
    (root / "images").mkdir(parents=True)
    _photo(root / "images" / "photo.png")
    files = {
        "index.md": MYST,
        "rest.rst": REST,
        "images/chart.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450">'
        '<rect width="800" height="450" fill="teal"/></svg>',
    }
    return write_project(
        root, files, conf=CONF + 'project = "Sized"\nmyst_enable_extensions = ["attrs_inline"]\n'
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_book(tmp_path_factory.mktemp("sized") / "src")
    outdir = root.parent / "html"
    sphinx_build("-q", "-W", "-b", "html", str(root), str(outdir))
    return outdir


def _image(outdir: Path, alt: str, page: str = "index") -> Tag:
    img = read_page(outdir, page).find("img", alt=alt)
    assert isinstance(img, Tag), alt
    return img


def _screen_source(img: Tag) -> Tag:
    picture = img.find_parent("picture")
    assert picture is not None, img
    source = picture.find("source", type="image/webp", media=False)
    assert isinstance(source, Tag)
    return source


def _widths(source: Tag) -> list[int]:
    return [int(part.split()[1].rstrip("w")) for part in source["srcset"].split(", ")]


def test_a_fixed_width_gets_copies_at_1x_and_2x_in_myst_and_rest(site: Path) -> None:
    for page in ("index", "rest"):
        img = _image(site, "Fixed width", page)
        assert (img["width"], img["height"]) == ("500", "281")  # no style: nothing shifts
        assert not img.get("style") and not img.get("class")
        source = _screen_source(img)
        assert _widths(source) == [360, 500, 1000]
        assert source["sizes"] == "(min-width: 1000px) 500px, min(500px, calc(100vw - 2rem))"
    myst = _image(site, "Fixed width").find_parent("picture")
    rest = _image(site, "Fixed width", "rest").find_parent("picture")
    assert myst.select("source") == rest.select("source")


def test_a_scale_is_a_fixed_width(site: Path) -> None:
    img = _image(site, "Scaled")
    assert (img["width"], img["height"]) == ("400", "225")
    assert _widths(_screen_source(img)) == [360, 400, 800]


def test_a_percentage_is_a_share_of_the_column(site: Path) -> None:
    img = _image(site, "Left share")
    assert (img["width"], img["height"]) == ("1600", "900")
    assert img.get("class")  # the author's width: 100%, moved to the page's stylesheet
    source = _screen_source(img)
    assert _widths(source) == [360, 704, 1072, 1408, 1600]
    assert source["sizes"].startswith("(min-width: 1180px) calc(704px / 2),")


@pytest.mark.parametrize(
    ("alt", "widest"),
    [("In a table", "704px"), ("In an aside", "152px"), ("In a card", "704px")],
)
def test_images_in_tables_asides_and_cards(site: Path, alt: str, widest: str) -> None:
    source = _screen_source(_image(site, alt))
    assert source["sizes"].startswith(f"(min-width: 1180px) {widest},")


def test_every_img_has_a_width_and_a_height(site: Path) -> None:
    for page in ("index", "rest"):
        images = read_page(site, page).select(".pb-body img")
        assert images
        for img in images:
            assert img.get("width") and img.get("height"), img


def test_an_svg_stays_as_written_with_its_size(site: Path) -> None:
    img = _image(site, "A drawing")
    assert img.find_parent("picture") is None
    assert (img["width"], img["height"]) == ("300", "169")


def test_paper_takes_a_copy_of_at_least_200_dpi(site: Path) -> None:
    """The print source: the narrowest copy that prints at 200 dpi at the widest the
    image can be on paper (688 CSS pixels, 7.17 in), else the original."""
    column = _image(site, "In the text column").find_parent("picture")
    printed = column.find("source", media="print", type="image/webp")
    assert printed["srcset"].endswith("-1600w.webp")  # 688 px at 200 dpi: 1,434 pixels
    fixed = _image(site, "Fixed width")  # 500 px: 1,042 pixels, more than the 2x copy
    (original,) = fixed.find_parent("picture").select("source[media=print]")
    assert original["srcset"] == fixed["src"] and not original.get("type")
    share = _image(site, "Left share").find_parent("picture")
    assert share.find("source", media="print", type="image/webp")["srcset"].endswith("-1600w.webp")


def test_a_changed_width_rebuilds_as_a_fresh_build(tmp_path: Path) -> None:
    root = make_book(tmp_path / "src")
    incremental = tmp_path / "html"
    sphinx_build("-q", "-N", "-b", "html", str(root), str(incremental))
    page = root / "index.md"
    page.write_text(page.read_text().replace(":width: 500px", ":width: 300px"))
    sphinx_build("-q", "-N", "-b", "html", str(root), str(incremental))
    fresh = tmp_path / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    sphinx_build("-q", "-N", "-b", "html", str(root), str(fresh))
    assert _widths(_screen_source(_image(incremental, "Fixed width"))) == [300, 600]
    for name in ("index.html", "rest.html"):
        assert (incremental / name).read_bytes() == (fresh / name).read_bytes(), name
    variants = {p.name for p in (incremental / "_images" / "variants").iterdir()}
    assert variants == {p.name for p in (fresh / "_images" / "variants").iterdir()}


@pytest.mark.parametrize(
    ("shown", "own", "widths"),
    [
        (500, 1600, (360, 500, 1000)),  # the ladder's below it, 1x, 2x
        (300, 1600, (300, 600)),
        (1000, 1600, (360, 704, 1000, 1600)),  # 2x would be wider than the file
        (500, 300, (300,)),  # a small file shown larger: never scaled up
    ],
)
def test_widths_of_a_fixed_display(shown: int, own: int, widths: tuple[int, ...]) -> None:
    assert widths_for(Display("fixed", pixels=shown), own) == widths
