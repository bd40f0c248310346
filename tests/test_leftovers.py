"""A removed page or image leaves nothing on the site, as a fresh build would."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import CONF, png, sphinx_build, write_project


def _files(folder: Path) -> set[str]:
    return {
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and ".doctrees" not in path.parts and path.name != ".buildinfo.bak"
    }


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_a_removed_page_and_image_leave_nothing_behind(tmp_path, builder):
    source = write_project(
        tmp_path / "source",
        {
            "index.md": "# Book\n\n```{toctree}\nkept\npart/gone\n```\n",
            "kept.md": "# Kept\n\n![A dot](dot.png)\n",
            "part/gone.md": "# Gone\n\nText.\n",
            "dot.png": png(4, 3),
        },
        conf=CONF,
    )
    out = tmp_path / "out"
    sphinx_build("-q", "-b", builder, str(source), str(out))
    before = _files(out)
    page = "part/gone/index.html" if builder == "dirhtml" else "part/gone.html"
    assert {page, "_sources/part/gone.md.txt", "_images/dot.png"} <= before

    (source / "part" / "gone.md").unlink()
    (source / "index.md").write_text("# Book\n\n```{toctree}\nkept\n```\n", encoding="utf-8")
    (source / "kept.md").write_text("# Kept\n\nNo image now.\n", encoding="utf-8")
    sphinx_build("-q", "-b", builder, str(source), str(out))
    fresh = tmp_path / "fresh"
    shutil.copytree(source, tmp_path / "fresh-source")
    sphinx_build("-q", "-b", builder, str(tmp_path / "fresh-source"), str(fresh))
    assert _files(out) == _files(fresh)
    assert not (out / "part").exists(), "the removed page's folders went with it"
    assert not (out / "_sources" / "part").exists()
