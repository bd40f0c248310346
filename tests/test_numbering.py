"""Figure numbers from page skeletons: the same numbers as Sphinx's own walk, and a
rebuild that unpickles only the pages it read."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from conftest import read_html
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors.toctree import TocTreeCollector

from sphinx_playbook.numbering import SkeletonTocTreeCollector

CONF = """\
extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
numfig = True
numfig_secnum_depth = {depth}
"""

PAGES = {
    "index.rst": """\
Book
====

.. toctree::
   :numbered:

   self
   one
   two
   genindex
   https://example.org

.. figure:: img.png

   A figure on the root page.
""",
    "one.md": """\
# One

```{figure} img.png
:name: fig-one-a

First figure of one.
```

## A section

```{code-block} python
:caption: A captioned listing

print(1)
```

| a | b |
| - | - |
| 1 | 2 |

```{table} A captioned table
| a | b |
| - | - |
| 1 | 2 |
```

:::{figure} img.png
:name: fig-one-b

Outer figure.
:::

```{toctree}
three
```
""",
    "two.rst": """\
Two
===

Sub
---

.. figure:: img.png
   :name: fig-two

   A figure in a subsection.

See :numref:`fig-one-b` and :numref:`fig-three`.

.. code-block:: python

   uncaptioned = True
""",
    "three.md": """\
# Three

Some text, then a plain image and a figure legend joined to it.

![An image](img.png)

:::{figure-legend}
:name: fig-three
The legend.
:::
""",
}


def write_project(root: Path, depth: int = 1) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text(CONF.format(depth=depth), encoding="utf-8")
    for name, text in PAGES.items():
        (root / name).write_text(text, encoding="utf-8")
    # A 1x1 PNG: the figures need a file to point at.
    (root / "img.png").write_bytes(
        bytes.fromhex(
            "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
            "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
        )
    )
    return root


def sphinx_numbers(env: BuildEnvironment) -> dict:
    """What Sphinx's own TocTreeCollector assigns on this environment (ours is put back)."""
    ours = copy.deepcopy(env.toc_fignumbers)
    TocTreeCollector().assign_figure_numbers(env)
    theirs, env.toc_fignumbers = env.toc_fignumbers, ours
    return theirs


def caption_number(app, docname: str) -> str:
    return read_html(app, docname).select_one("figcaption .caption-number").get_text(strip=True)


def test_sphinx_collector_is_replaced_once(make_app, tmp_path):
    app = make_app("html", srcdir=write_project(tmp_path / "src"), builddir=tmp_path / "b")
    collectors = [
        type(getattr(listener.handler, "__self__", None))
        for listener in app.events.listeners["env-get-updated"]
    ]
    assert collectors.count(SkeletonTocTreeCollector) == 1
    assert TocTreeCollector not in collectors


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_numbers_are_sphinxs(make_app, tmp_path, depth):
    app = make_app("html", srcdir=write_project(tmp_path / "src", depth), builddir=tmp_path / "b")
    app.build()
    numbers = app.env.toc_fignumbers
    assert numbers == sphinx_numbers(app.env)
    # The walk went through the numbered toctree, into the nested one, and past
    # 'self', genindex and the URL: every kind of numbered node was met.
    assert set(numbers) == {"index", "one", "two", "three"}
    assert {kind for page in numbers.values() for kind in page} == {
        "figure",
        "code-block",
        "table",
    }
    if depth == 1:
        assert numbers["index"]["figure"] == {"id1": (1,)}  # the root's title has no number
        assert numbers["one"]["figure"]["fig-one-b"] == (1, 2)
        assert numbers["three"]["figure"]["fig-three"] == (1, 3)  # three is inside one
        assert numbers["two"]["figure"]["fig-two"] == (2, 1)
        link = read_html(app, "two").select_one('a[href$="#fig-three"]')
        assert link.get_text(strip=True) == "Fig. 1.3"


def test_rebuild_unpickles_only_what_it_read_and_renumbers(make_app, tmp_path, monkeypatch):
    src = write_project(tmp_path / "src")
    app = make_app("html", srcdir=src, builddir=tmp_path / "b")
    app.build()
    assert caption_number(app, "three") == "Fig. 1.3"

    # A figure added at the top of "one" moves every later figure of chapter 1.
    one = src / "one.md"
    one.write_text(
        one.read_text().replace("# One\n", "# One\n\n```{figure} img.png\n\nNew.\n```\n"),
        encoding="utf-8",
    )
    app = make_app("html", srcdir=src, builddir=tmp_path / "b")
    read: list[str] = []
    app.connect("env-before-read-docs", lambda app, env, docnames: read.extend(docnames))
    unpickled_while_numbering: list[str] = []
    get_doctree = BuildEnvironment.get_doctree
    assign = SkeletonTocTreeCollector.assign_figure_numbers

    def counting_assign(collector, env):
        def counting_get_doctree(env, docname):
            unpickled_while_numbering.append(docname)
            return get_doctree(env, docname)

        monkeypatch.setattr(BuildEnvironment, "get_doctree", counting_get_doctree)
        try:
            return assign(collector, env)
        finally:
            monkeypatch.setattr(BuildEnvironment, "get_doctree", get_doctree)

    monkeypatch.setattr(SkeletonTocTreeCollector, "assign_figure_numbers", counting_assign)
    app.build()
    assert read == ["one"]
    assert unpickled_while_numbering == ["one"], "only the page read again is unpickled"
    assert app.env.toc_fignumbers == sphinx_numbers(app.env)
    assert app.env.toc_fignumbers["one"]["figure"]["fig-one-b"] == (1, 3)
    # "three" was not edited, but its figure is now 1.4: it was written again.
    assert caption_number(app, "three") == "Fig. 1.4"
