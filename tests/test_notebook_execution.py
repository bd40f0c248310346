"""Notebooks run while the book builds, with a real Jupyter kernel (ipykernel).

myst-nb's ``nb_execution_mode``: ``"force"`` runs every notebook and its outputs are
the page's, not the stored ones; ``"cache"`` runs a notebook once and reuses the
outputs of jupyter-cache until its code changes. A cell that raises is a located
warning naming the notebook and the cell, and the rest of the book builds; with
``nb_execution_raise_on_error`` the build fails. In a MyST text notebook, the
``{code-cell}``'s options give a legend and a label as a ``.ipynb``'s cell metadata
does, and the front matter gives the title block and byline (its date quoted: myst-nb
writes a text notebook's front matter into JSON, where a YAML date crashes the build).
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers import playbook_warnings, read_page, sphinx_build, warning_text, write_project
from sphinx_process import run_sphinx

CONF = (
    'extensions = ["sphinx_playbook", "myst_nb"]\n'
    'html_theme = "sphinx_playbook"\n'
    "numfig = True\n"
    'exclude_patterns = ["_build", "jupyter_execute"]\n'
)
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


def notebook(*cells: dict) -> str:
    """A .ipynb with these cells (ids given), for the python3 kernel."""
    numbered = [{**cell, "id": f"cell-{index}"} for index, cell in enumerate(cells)]
    return json.dumps(
        {
            "cells": numbered,
            "metadata": {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


def markdown(source: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def code(source: str, outputs: list[dict] | None = None) -> dict:
    return {
        "cell_type": "code",
        "execution_count": 1 if outputs else None,
        "metadata": {},
        "outputs": outputs or [],
        "source": source,
    }


def stream(text: str) -> dict:
    return {"output_type": "stream", "name": "stdout", "text": text}


def outputs_text(page) -> list[str]:
    """The text of each cell output on the page, in order."""
    return [" ".join(o.get_text().split()) for o in page.select(".cell_output")]


def html_build(srcdir: Path, outdir: Path, *options: str):
    return sphinx_build("-N", "-q", "-b", "html", *options, str(srcdir), str(outdir))


# -- "force": every notebook runs -----------------------------------------------------


def test_force_runs_the_notebook_and_its_outputs_replace_the_stored_ones(tmp_path: Path) -> None:
    srcdir = write_project(
        tmp_path / "src",
        {
            "index.md": "# Book\n\n```{toctree}\nrun\n```\n",
            "run.ipynb": notebook(
                markdown("# Run"),
                code("print('answer', 6 * 7)", [stream("answer: stale, stored\n")]),
            ),
        },
        conf=CONF + 'nb_execution_mode = "force"\n',
    )
    html_build(srcdir, tmp_path / "out")
    assert outputs_text(read_page(tmp_path / "out", "run")) == ["answer 42"]


# -- "cache": jupyter-cache keeps the outputs until the code changes ---------------------


def test_cache_reuses_the_outputs_until_the_code_changes(tmp_path: Path) -> None:
    """Each run of the cell appends a line to ``runs.log``: a build that took the
    cached outputs leaves it as it was."""
    log = tmp_path / "runs.log"
    cache = tmp_path / "jupyter_cache"

    def cell(value: int) -> str:
        return (
            f"with open({str(log)!r}, 'a') as file:\n    file.write('ran\\n')\n"
            f"print('value', {value})"
        )

    conf = CONF + f'nb_execution_mode = "cache"\nnb_execution_cache_path = {str(cache)!r}\n'
    files = {
        "index.md": "# Book\n\n```{toctree}\ncached\n```\n",
        "cached.ipynb": notebook(markdown("# Cached"), code(cell(1))),
    }
    srcdir = write_project(tmp_path / "src", files, conf=conf)

    html_build(srcdir, tmp_path / "first")
    assert log.read_text(encoding="utf-8").splitlines() == ["ran"]
    assert outputs_text(read_page(tmp_path / "first", "cached")) == ["value 1"]
    assert cache.is_dir() and any(cache.iterdir())

    # A fresh build (-E: every page read again, the notebook too) into another folder:
    # the outputs come from the cache, the cell does not run.
    html_build(srcdir, tmp_path / "second", "-E")
    assert log.read_text(encoding="utf-8").splitlines() == ["ran"]
    assert outputs_text(read_page(tmp_path / "second", "cached")) == ["value 1"]

    # The code changes: the notebook runs again.
    write_project(srcdir, {"cached.ipynb": notebook(markdown("# Cached"), code(cell(2)))})
    html_build(srcdir, tmp_path / "second")
    assert log.read_text(encoding="utf-8").splitlines() == ["ran", "ran"]
    assert outputs_text(read_page(tmp_path / "second", "cached")) == ["value 2"]


# -- a cell that raises -------------------------------------------------------------------

BROKEN = notebook(
    markdown("# Broken"),
    code("print(1 + 1)"),
    code("raise ValueError('the data file is missing')"),
    code("print('after')"),
)
BOOK = {
    "index.md": "# Book\n\nThe first page.\n\n```{toctree}\nbroken\nlater\n```\n",
    "broken.ipynb": BROKEN,
    "later.md": "# Later\n\nA page after the notebook.\n",
}


def test_a_cell_that_raises_is_a_located_warning_and_the_book_builds(tmp_path: Path) -> None:
    srcdir = write_project(tmp_path / "src", BOOK, conf=CONF + 'nb_execution_mode = "force"\n')
    result = html_build(srcdir, tmp_path / "out")
    lines = [line for line in playbook_warnings(result) if "[playbook.notebook]" in line]
    assert len(lines) == 1, warning_text(result)
    (line,) = lines
    assert "broken.ipynb" in line.split(": WARNING")[0]  # located at the notebook
    assert "cell 3" in line and "ValueError: the data file is missing" in line
    assert "Traceback" not in warning_text(result)
    # The notebook's page shows what ran before the error; the other pages are built.
    assert outputs_text(read_page(tmp_path / "out", "broken"))[0] == "2"
    later = read_page(tmp_path / "out", "later")
    assert later.select_one(".pb-title-block h1").get_text(strip=True) == "Later"
    assert read_page(tmp_path / "out").select_one(".pb-title-block h1") is not None


def test_raise_on_error_fails_the_build(tmp_path: Path) -> None:
    conf = CONF + 'nb_execution_mode = "force"\nnb_execution_raise_on_error = True\n'
    srcdir = write_project(tmp_path / "src", BOOK, conf=conf)
    result = run_sphinx(["-N", "-q", "-b", "html", str(srcdir), str(tmp_path / "out")])
    assert result.returncode != 0
    # myst-nb's ExecutionError names the notebook (the exception is in Sphinx's log).
    assert "broken.ipynb" in result.stderr
    assert not (tmp_path / "out" / "later.html").exists()


# -- a MyST text notebook: {code-cell} options and front matter ----------------------------

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">'
    '<rect width="120" height="60" fill="#369"/></svg>'
)
TEXT_NOTEBOOK = f"""---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
description: A text notebook whose figure has a legend from its cell's options.
authors:
  - name: Ada Lovelace
    affiliations: [engine]
affiliations:
  - id: engine
    name: Analytical Engine Lab
published: "2025-02-19"
---

# Measured in a text notebook

The block is drawn by the cell below: {{numref}}`fig-block`.

```{{code-cell}} ipython3
---
playbook:
  legend: A block of colour, drawn by the kernel. Its legend comes from the options.
  label: fig-block
  layout: page
---
from IPython.display import SVG
SVG({SVG!r})
```
"""


def test_code_cell_options_give_a_legend_and_a_label_and_front_matter_the_byline(
    tmp_path: Path,
) -> None:
    srcdir = write_project(
        tmp_path / "src",
        {"index.md": TEXT_NOTEBOOK},
        conf=CONF + 'nb_execution_mode = "force"\n',
    )
    result = html_build(srcdir, tmp_path / "out")
    assert playbook_warnings(result) == []
    page = read_page(tmp_path / "out")
    figure = page.find("figure", id="fig-block")
    assert figure is not None, page.select_one("main")
    assert "l-page" in figure["class"]
    assert figure.find(["img", "svg"]) is not None  # the kernel's output, in the figure
    caption = figure.find("figcaption")
    assert caption.select_one(".caption-number").get_text(strip=True) == "Fig. 1"
    assert "A block of colour, drawn by the kernel." in caption.get_text()
    refs = {a["href"]: a.get_text(" ", strip=True) for a in page.select("a.reference.internal")}
    assert refs.get("#fig-block") == "Fig. 1"
    title_block = page.select_one(".pb-title-block")
    assert title_block.select_one("h1").get_text(strip=True) == "Measured in a text notebook"
    byline = " ".join(page.select_one(".pb-byline").get_text().split())
    assert "Ada Lovelace" in byline and "Analytical Engine Lab" in byline
    assert page.select_one(".pb-byline time")["datetime"].startswith("2025-02-19")
