"""An <img> written in raw HTML is written as the page's own images are: with its
size, lazy loading, smaller copies, within its column (sphinx_playbook/raw_images.py)."""

from __future__ import annotations

import io
import random
from pathlib import Path

from helpers import build, build_in_process, read_page, write_project

CONF = (
    'extensions = ["sphinx_playbook"]\nhtml_theme = "sphinx_playbook"\n'
    "suppress_warnings = ['toc.not_included']\n"
)


def noise(width: int, height: int) -> bytes:
    """A PNG that compresses as badly as a photograph (its WebP copies are smaller)."""
    from PIL import Image

    rng = random.Random(width * height)
    image = Image.new("RGB", (width, height))
    image.putdata(
        [(rng.randrange(256), x % 256, y % 256) for y in range(height) for x in range(width)]
    )
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


PAGE = """# Raw images

```{raw} html
<div class="boxed">
  <img alt="Wide" src="pics/wide.png" style="width: 1200px; max-width: none;"/>
</div>
```

```{raw} html
<div class="pair"><p><img alt="Published" src="assets/published.png" width="800px"/></p></div>
```

```{raw} html
<img alt="Beside" src="pics/beside.png">
```

Text after the images.
"""

#: What an image node cannot say (a page of its own: these still move the text).
OTHER = """# Kept as written

```{raw} html
<img alt="Remote" src="https://example.org/x.png"/>
<img alt="Scripted" src="pics/wide.png" onclick="zoom(this)"/>
<img alt="Styled" src="pics/wide.png" style="border: 1px solid red"/>
<picture><source srcset="pics/beside.png"><img alt="Chosen" src="pics/beside.png"></picture>
```
"""


def make_book(root: Path) -> Path:
    return write_project(
        root,
        {
            "index.md": PAGE,
            "other.md": OTHER,
            "_published/pics/wide.png": noise(1600, 400),
            "pics/beside.png": noise(600, 300),
            "_published/assets/published.png": noise(1000, 500),
        },
        conf=CONF + "html_extra_path = ['_published']\nexclude_patterns = ['_published']\n",
    )


def test_a_local_raw_image_is_written_as_the_pages_own(tmp_path: Path) -> None:
    built = build_in_process(make_book(tmp_path / "src"))
    page = read_page(built)
    wide = page.find("img", alt="Wide")
    # Inside the author's <div>, as written; no style: the theme keeps it in the column.
    assert wide.find_parent("div", class_="boxed") is not None
    assert (wide["width"], wide["height"]) == ("1200", "300")
    assert (wide.get("loading"), wide.get("decoding")) == ("lazy", "async")
    assert wide.get("style") is None
    assert wide["src"].startswith("_images/")
    assert (built.outdir / wide["src"]).is_file()
    # Smaller copies, as for an image of the page's own markup.
    sources = wide.find_parent("picture").find_all("source")
    assert any("w," in s.get("srcset", "") for s in sources)
    # Not made a link to its file: the author's HTML may already hold it in one.
    assert wide.find_parent("a") is None


def test_an_image_of_the_published_folder_is_found_as_the_browser_finds_it(
    tmp_path: Path,
) -> None:
    page = read_page(build_in_process(make_book(tmp_path / "src")))
    published = page.find("img", alt="Published")
    assert published.find_parent("div", class_="pair") is not None
    assert (published["width"], published["height"]) == ("800", "400")
    assert published.get("loading") == "lazy"
    # Beside the page in the source folder (which the browser would not have found).
    beside = page.find("img", alt="Beside")
    assert (beside["width"], beside["height"], beside["src"]) == (
        "600",
        "300",
        "_images/beside.png",
    )


def test_what_an_image_node_cannot_say_stays_as_written(tmp_path: Path) -> None:
    page = read_page(build_in_process(make_book(tmp_path / "src")), "other")
    assert page.find("img", alt="Remote")["src"] == "https://example.org/x.png"
    scripted = page.find("img", alt="Scripted")
    assert scripted["src"] == "pics/wide.png" and scripted.get("loading") is None
    assert page.find("img", alt="Styled")["src"] == "pics/wide.png"
    chosen = page.find("img", alt="Chosen")
    assert chosen["src"] == "pics/beside.png" and chosen.parent.name == "picture"
    assert len(chosen.parent.find_all("source")) == 1


def test_a_rebuild_writes_what_a_fresh_build_writes(tmp_path: Path) -> None:
    root = make_book(tmp_path / "src")
    build(root, tmp_path / "out")
    (root / "_published/pics/wide.png").write_bytes(noise(800, 400))  # a new file, a new size
    build(root, tmp_path / "out")
    build(root, tmp_path / "fresh")
    again, fresh = read_page(tmp_path / "out"), read_page(tmp_path / "fresh")
    assert again.find("img", alt="Wide") == fresh.find("img", alt="Wide")
    assert fresh.find("img", alt="Wide")["height"] == "600"
