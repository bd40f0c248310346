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


def test_a_removed_notebook_leaves_nothing_when_conf_drops_myst_nb(tmp_path):
    """With the last notebook goes myst_nb, and ``.ipynb`` is no source suffix any
    more: the notebook's copied source (``_sources/nb.ipynb.txt``) goes all the same."""
    notebook = (
        '{"cells": [{"cell_type": "markdown", "id": "m0", "metadata": {}, '
        '"source": "# A notebook\\n"}], "metadata": {"kernelspec": {"name": "python3", '
        '"display_name": "Python 3", "language": "python"}}, "nbformat": 4, '
        '"nbformat_minor": 5}'
    )
    with_notebooks = CONF + '\nextensions = ["sphinx_playbook", "myst_nb"]\n'
    with_notebooks += 'nb_execution_mode = "off"\n'
    source = write_project(
        tmp_path / "source",
        {"index.md": "# Book\n\n```{toctree}\nnb\n```\n", "nb.ipynb": notebook},
        conf=with_notebooks,
    )
    out = tmp_path / "out"
    sphinx_build("-q", "-b", "html", str(source), str(out))
    assert {"nb.html", "_sources/nb.ipynb.txt"} <= _files(out)

    (source / "nb.ipynb").unlink()
    (source / "index.md").write_text("# Book\n\nNo notebook now.\n", encoding="utf-8")
    (source / "conf.py").write_text(CONF, encoding="utf-8")
    sphinx_build("-q", "-b", "html", str(source), str(out))
    fresh = tmp_path / "fresh"
    shutil.copytree(source, tmp_path / "fresh-source")
    sphinx_build("-q", "-b", "html", str(tmp_path / "fresh-source"), str(fresh))
    assert _files(out) == _files(fresh)
    assert not (out / "_sources" / "nb.ipynb.txt").exists()
