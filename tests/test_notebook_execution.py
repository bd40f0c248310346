"""Notebooks run while the book builds, with a real Jupyter kernel (ipykernel).

myst-nb's ``nb_execution_mode``: ``"force"`` runs every notebook and its outputs are
the page's, not the stored ones; ``"cache"`` runs a notebook once and reuses the
outputs of jupyter-cache until its code changes. A cell that raises is a located
warning naming the notebook and the cell, and the rest of the book builds; with
``nb_execution_raise_on_error`` the build fails. In a MyST text notebook, the
``{code-cell}``'s options give a legend and a label as a ``.ipynb``'s cell metadata
does, and the front matter gives the title block and byline; its date may be a YAML
date, as ``sphinx-playbook new`` writes it (myst-nb writes a text notebook's front
matter into JSON, where a date would crash the build: the parser gets it quoted). A
Plotly output without an image, whose cell gives an alt, builds under -W with the alt
as its fallback; a notebook warning names the cell, at the file (not myst-nb's
pseudo line cell * 10000 + line).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from helpers import playbook_warnings, read_page, sphinx_build, warning_text, write_project
from sphinx_process import run_sphinx

from sphinx_playbook.metadata import quote_text_notebook_dates, quote_yaml_dates

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
published: 2025-02-19
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


@pytest.mark.parametrize("mode", ["off", "cache"])
def test_a_yaml_date_in_a_text_notebook_builds_in_every_execution_mode(
    tmp_path: Path, mode: str
) -> None:
    """``published: 2025-02-19`` unquoted (the "force" build is the test above)."""
    conf = CONF + f'nb_execution_mode = "{mode}"\n'
    conf += f"nb_execution_cache_path = {str(tmp_path / 'cache')!r}\n"
    srcdir = write_project(tmp_path / "src", {"index.md": TEXT_NOTEBOOK}, conf=conf)
    html_build(srcdir, tmp_path / "out")
    page = read_page(tmp_path / "out")
    time = page.select_one(".pb-byline time")
    assert time["datetime"].startswith("2025-02-19")
    assert "2025" in time.get_text()


def test_quoted_yaml_dates_are_strings_on_the_same_lines() -> None:
    text = (
        "published: 2025-02-19  # a comment\n"
        "updated: '2025-03-01'\n"
        "dates: [2025-01-01, 2025-01-02]\n"
        "nested:\n  - when: 2025-02-19 10:30:00\n    note: not 2025-02-19\n"
        "first: &day 2025-04-01\n"
        "again: *day\n"
    )
    quoted = quote_yaml_dates(text)
    assert yaml.safe_load(quoted) == {
        "published": "2025-02-19",
        "updated": "2025-03-01",
        "dates": ["2025-01-01", "2025-01-02"],
        "nested": [{"when": "2025-02-19 10:30:00", "note": "not 2025-02-19"}],
        "first": "2025-04-01",
        "again": "2025-04-01",
    }
    assert quoted.splitlines()[0] == 'published: "2025-02-19"  # a comment'
    assert len(quoted.splitlines()) == len(text.splitlines())
    assert quote_yaml_dates("key: [unclosed\n") == "key: [unclosed\n"


def test_a_code_cells_options_have_their_dates_quoted_too(tmp_path: Path) -> None:
    """myst-nb writes a ``{code-cell}``'s options into the JSON as cell metadata."""
    text = TEXT_NOTEBOOK.replace("  layout: page\n", "  layout: page\n  run: 2025-02-19\n")
    text += "\n```{code-cell} ipython3\ntext = '''\n---\nwhen: 2025-01-01\n---\n'''\n```\n"
    quoted = quote_text_notebook_dates(text)
    assert 'published: "2025-02-19"' in quoted and 'run: "2025-02-19"' in quoted
    assert "\nwhen: 2025-01-01\n" in quoted  # code, not options: as it was
    assert len(quoted.splitlines()) == len(text.splitlines())
    conf = CONF + 'nb_execution_mode = "off"\nsuppress_warnings = ["playbook.notebook"]\n'
    srcdir = write_project(tmp_path / "src", {"index.md": text}, conf=conf)
    html_build(srcdir, tmp_path / "out")  # no TypeError from myst-nb writing the JSON
    assert read_page(tmp_path / "out").select_one(".pb-byline time") is not None


# -- a Plotly output stored without an image ---------------------------------------------

PLOTLY_FIGURE = {"data": [{"type": "scatter", "x": [1, 2], "y": [2, 1]}], "layout": {}}
FALLING = "A line falling from 2 to 1."


def plotly_notebook(playbook: dict | None) -> str:
    cell = code(
        "fig.show()",
        [
            {
                "output_type": "display_data",
                "metadata": {},
                "data": {"application/vnd.plotly.v1+json": PLOTLY_FIGURE},
            }
        ],
    )
    if playbook is not None:
        cell["metadata"]["playbook"] = playbook
    return notebook(markdown("# Falling"), cell)


def test_a_plotly_figure_with_an_alt_and_no_image_builds_under_w(tmp_path: Path) -> None:
    """The warning tells the author to give an alt; with one given, there is none."""
    srcdir = write_project(
        tmp_path / "src",
        {"index.ipynb": plotly_notebook({"alt": FALLING})},
        conf=CONF + 'nb_execution_mode = "off"\n',
    )
    result = html_build(srcdir, tmp_path / "out", "-W")
    assert warning_text(result).strip() == ""
    figure = read_page(tmp_path / "out").select_one("figure.pb-interactive")
    assert figure.find("img") is None
    assert figure.select_one(".pb-interactive__alt").get_text(strip=True) == FALLING


def test_a_plotly_figure_without_alt_or_image_warns_at_the_file_naming_the_cell(
    tmp_path: Path,
) -> None:
    srcdir = write_project(
        tmp_path / "src",
        {"index.ipynb": plotly_notebook(None)},
        conf=CONF + 'nb_execution_mode = "off"\n',
    )
    result = html_build(srcdir, tmp_path / "out")
    (line,) = playbook_warnings(result)
    location, message = line.split(": WARNING: ")
    assert location == str(srcdir / "index.ipynb")  # not myst-nb's index.ipynb:20002
    assert message.startswith("cell 2 of index.ipynb: a Plotly figure without a static image")
    assert "playbook: {alt: ...}" in message


def test_a_cell_warning_in_a_text_notebook_keeps_its_line(tmp_path: Path) -> None:
    """A text notebook's lines are the file's own: the warning keeps the cell's line."""
    text = TEXT_NOTEBOOK.replace("layout: page", "layout: sideways")
    srcdir = write_project(
        tmp_path / "src", {"index.md": text}, conf=CONF + 'nb_execution_mode = "force"\n'
    )
    result = html_build(srcdir, tmp_path / "out")
    (line,) = playbook_warnings(result)
    location, message = line.split(": WARNING: ")
    cell_line = text.splitlines().index("```{code-cell} ipython3") + 1
    assert location.startswith(f"{srcdir / 'index.md'}:")
    assert int(location.rsplit(":", 1)[1]) in range(cell_line, cell_line + 8)
    assert message.startswith("cell 2: unknown layout 'sideways'")
