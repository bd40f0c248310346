"""playbook_images: WebP and AVIF copies at the layout's widths, offered with srcset
and sizes."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from helpers import read_page, sphinx_build
from PIL import Image, ImageDraw, features

#: Pillow writes AVIF from 11.2 with its own wheels; the oldest supported one does not.
AVIF = "avif" in features.get_supported_modules()

PAGE = """\
# Images

Text column:

![A photo in the text column](images/photo.png)

```{figure-legend}
The photo.
```

:::{layout} page
![The photo in the page column](images/photo.png)
:::

::::{side-by-side}
![Left photo](images/photo.png)

![Right photo](images/photo.png)
::::

:::{wide-image} images/photo.png
:alt: The photo as a band
:::

![An animation](images/anim.gif)

![A line drawing](images/drawing.png)

![Kept as written](images/photo.png){.pb-original}

![A chart in two formats](images/chart.*)

```{toctree}
rest
```
"""

REST = """\
In reStructuredText
===================

.. image:: images/photo.png
   :alt: The photo in reST
"""


def _photo(path: Path, width: int = 1600, height: int = 900) -> None:
    """A noisy gradient: PNG compresses it badly, as it does a photograph."""
    rng = random.Random(7)
    image = Image.new("RGB", (width, height))
    image.putdata(
        [
            (x * 255 // width, y * 255 // height, rng.randrange(256))
            for y in range(height)
            for x in range(width)
        ]
    )
    image.save(path)


def make_book(root: Path) -> Path:
    images = root / "images"
    images.mkdir(parents=True)
    _photo(images / "photo.png")
    frames = [Image.new("RGB", (320, 200), (i * 40, 90, 200 - i * 30)) for i in range(5)]
    frames[0].save(images / "anim.gif", save_all=True, append_images=frames[1:], duration=200)
    # A two-colour line drawing: PNG beats lossy WebP at every width.
    drawing = Image.new("P", (800, 400), 0)
    drawing.putpalette([255, 255, 255, 0, 0, 0])
    pen = ImageDraw.Draw(drawing)
    for x in range(0, 800, 40):
        pen.line([(x, 0), (800 - x, 400)], fill=1, width=2)
    drawing.save(images / "drawing.png", optimize=True)
    # ``chart.*``: HTML takes the SVG, so the PNG beside it (for LaTeX) gets no copies.
    _photo(images / "chart.png", 800, 450)
    (images / "chart.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450">'
        '<rect width="800" height="450" fill="teal"/></svg>'
    )
    (root / "conf.py").write_text(
        'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\nproject = "Images"\n'
        'myst_enable_extensions = ["attrs_inline"]\n'
    )
    (root / "index.md").write_text(PAGE)
    (root / "rest.rst").write_text(REST)
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_book(tmp_path_factory.mktemp("images") / "src")
    outdir = root.parent / "html"
    sphinx_build("-q", "-W", "-b", "html", str(root), str(outdir))
    return outdir


def _pictures(outdir: Path, page: str = "index", kind: str = "webp") -> dict[str, tuple]:
    """Each image's ``<img>`` and its ``<source>`` of that type (None without one)."""
    soup = read_page(outdir, page)
    found = {}
    for img in soup.select(".pb-body img"):
        picture = img.find_parent("picture")
        source = picture.find("source", type=f"image/{kind}", media=False) if picture else None
        found[img["alt"]] = (img, source)
    return found


def _candidates(source) -> list[tuple[str, int]]:
    return [
        (url, int(width.rstrip("w")))
        for url, width in (part.split() for part in source["srcset"].split(", "))
    ]


def test_each_raster_image_gets_smaller_webp_copies(site: Path) -> None:
    img, source = _pictures(site)["A photo in the text column"]
    original = site / img["src"]
    assert img["src"].endswith("photo.png")  # every browser still gets the original
    assert (img["width"], img["height"]) == ("1600", "900")
    assert source["type"] == "image/webp"
    candidates = _candidates(source)
    assert [w for _, w in candidates] == [360, 704, 1072, 1408, 1600]
    for url, width in candidates:
        file = site / url
        assert file.suffix == ".webp" and file.stat().st_size < original.stat().st_size
        with Image.open(file) as variant:
            assert variant.width == width


def test_avif_comes_first_and_beats_webp_at_every_width(site: Path) -> None:
    img, avif = _pictures(site, kind="avif")["A photo in the text column"]
    if not AVIF:  # this Pillow cannot write AVIF: WebP alone, nothing else offered
        assert avif is None and len(img.find_parent("picture").select("source:not([media])")) == 1
        return
    # A browser takes the first (on screen, those without a media condition).
    assert img.find_parent("picture").find("source", media=False) is avif
    _, webp = _pictures(site)["A photo in the text column"]
    assert avif["sizes"] == webp["sizes"]
    webp_sizes = {w: (site / url).stat().st_size for url, w in _candidates(webp)}
    avif_sizes = {w: (site / url).stat().st_size for url, w in _candidates(avif)}
    for needed in webp_sizes.keys() | avif_sizes.keys():  # what a browser takes, each way
        taken_avif = min((w for w in avif_sizes if w >= needed), default=max(avif_sizes))
        taken_webp = min((w for w in webp_sizes if w >= needed), default=max(webp_sizes))
        assert avif_sizes[taken_avif] < webp_sizes[taken_webp], needed
    with Image.open(site / _candidates(avif)[0][0]) as variant:
        assert variant.format == "AVIF" and variant.width == 360


@pytest.mark.parametrize(
    ("alt", "widest"),
    [
        ("A photo in the text column", "704px"),
        ("The photo in the page column", "1072px"),
        ("Left photo", "calc(704px / 2)"),
        ("The photo as a band", "100vw"),
    ],
)
def test_sizes_follow_the_column_the_image_sits_in(site: Path, alt: str, widest: str) -> None:
    _, source = _pictures(site)[alt]
    sizes = source["sizes"]
    assert sizes == widest or sizes.startswith(f"(min-width: 1180px) {widest},")


def test_a_build_with_a_fresh_environment_encodes_nothing_again(site: Path) -> None:
    """``-E`` (or a new checkout with the build cache restored) reuses the encoded
    copies: the cache's files are not written again, and the pages are the same."""
    root = site.parent / "src"
    cache = site / ".doctrees" / "playbook-cache" / "images"
    written = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    page = (site / "index.html").read_bytes()
    sphinx_build("-q", "-E", "-b", "html", str(root), str(site))
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == written
    assert (site / "index.html").read_bytes() == page


def test_what_would_not_get_smaller_is_served_as_it_is(site: Path) -> None:
    pictures = _pictures(site)
    assert pictures["A line drawing"][1] is None  # PNG's own ground: WebP is larger
    assert pictures["Kept as written"][1] is None  # the author's opt-out
    _, animation = pictures["An animation"]
    (url, width), *_ = _candidates(animation)
    with Image.open(site / url) as webp:
        assert webp.n_frames == 5 and width == 320
    assert _pictures(site, kind="avif")["An animation"][1] is None  # animated WebP only


def test_an_image_html_shows_as_svg_gets_no_copies(site: Path) -> None:
    img, _ = _pictures(site)["A chart in two formats"]
    assert img["src"].endswith("chart.svg") and img.find_parent("picture") is None
    assert not list((site / "_images" / "variants").glob("chart-*"))


def test_rest_images_get_them_too(site: Path) -> None:
    img, _ = _pictures(site, "rest")["The photo in reST"]
    myst, _ = _pictures(site)["A photo in the text column"]
    assert img.find_parent("picture").select("source")  # the same copies as in MyST
    assert img.find_parent("picture").select("source") == myst.find_parent("picture").select(
        "source"
    )


def test_off_and_a_changed_image_leave_what_a_fresh_build_leaves(tmp_path: Path) -> None:
    root = make_book(tmp_path / "src")
    off = tmp_path / "off"
    sphinx_build("-q", "-b", "html", "-D", "playbook_images=off", str(root), str(off))
    assert not (off / "_images" / "variants").exists()
    assert all(source is None for _, source in _pictures(off).values())

    incremental = tmp_path / "html"
    sphinx_build("-q", "-b", "html", str(root), str(incremental))
    before = {p.name for p in (incremental / "_images" / "variants").iterdir()}
    _photo(root / "images" / "photo.png", 1200, 600)
    sphinx_build("-q", "-b", "html", str(root), str(incremental))
    fresh = tmp_path / "fresh"
    shutil.rmtree(root.parent / "fresh", ignore_errors=True)
    sphinx_build("-q", "-b", "html", str(root), str(fresh))
    after = {p.name for p in (incremental / "_images" / "variants").iterdir()}
    assert after == {p.name for p in (fresh / "_images" / "variants").iterdir()}
    assert after != before
    for page in ("index.html", "rest.html"):
        assert (incremental / page).read_bytes() == (fresh / page).read_bytes()
