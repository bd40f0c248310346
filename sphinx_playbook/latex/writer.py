r"""The LaTeX of the nodes :mod:`.transforms` makes.

The title block replaces Sphinx's ``\sphinxmaketitle`` (unless conf.py sets its
own ``latex_elements["maketitle"]``): the translator renders its template after
walking the tree, so the start document's byline, read from its metadata, is set
while the walk meets this node first.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.texescape import escape

from ..scholarly import article_metadata, page_title
from ..theme.page_context import FORMATTED_DATES, byline_context


class margin_note(nodes.Element, nodes.General):
    """An aside, or a block in the gutter: ``\\marginnote`` beside its paragraph."""


class columns(nodes.Element, nodes.General):
    """A side-by-side block: its columns side by side."""


class column(nodes.Element, nodes.General):
    """One column; ``width`` is its share of the line."""


class title_block(nodes.Element, nodes.General):
    """Where the start document's title block comes from; writes nothing in place."""


def visit_margin_note(self: Any, node: margin_note) -> None:
    self.body.append("\n\\sphinxplaybookmarginnote{")


def depart_margin_note(self: Any, node: margin_note) -> None:
    self.body.append("}%\n")


def visit_columns(self: Any, node: columns) -> None:
    self.body.append("\n\\begin{sphinxplaybookcolumns}")
    self.body.append("".join(self.hypertarget(i, anchor=False) for i in node["ids"]))
    # Floats cannot sit in a minipage: the translator's own counter makes figures
    # inside centred blocks with \captionof, as in its topics and sidebars.
    self.in_minipage += 1


def depart_columns(self: Any, node: columns) -> None:
    self.in_minipage -= 1
    self.body.append("\\end{sphinxplaybookcolumns}\n")


def visit_column(self: Any, node: column) -> None:
    self.body.append(f"\\begin{{sphinxplaybookcolumn}}{{{node['width']}}}\n")


def depart_column(self: Any, node: column) -> None:
    last = node.parent is None or node.parent.children[-1] is node
    self.body.append("\\end{sphinxplaybookcolumn}" + ("" if last else "\\hfill") + "%\n")


def _text(self: Any, value: str) -> str:
    return escape(value, self.config.latex_engine)


def _link(self: Any, text: str, url: str | None) -> str:
    if not url:
        return _text(self, text)
    return f"\\href{{{self.encode_uri(url)}}}{{{_text(self, text)}}}"


def title_block_latex(self: Any, docname: str) -> str | None:
    """The title, description and byline of ``docname``, or None without a title."""
    env = self.builder.env
    meta = article_metadata(env, docname)
    title = page_title(env, docname, meta)
    if not title:
        return None
    byline = byline_context(meta, self.config.language, FORMATTED_DATES.get(env))
    names = ", ".join(author["name"] for author in byline["authors"])
    parts = [
        # The PDF's own title and author, as Sphinx's title page would set them.
        f"\\sphinxplaybookpdfinfo{{{_text(self, title)}}}{{{_text(self, names)}}}",
        "\\begin{sphinxplaybooktitleblock}",
        f"{{\\sphinxplaybooktitlefont {_text(self, title)}\\par}}\\medskip",
    ]
    if byline["description"]:
        parts.append(
            f"{{\\sphinxplaybookdescriptionfont {_text(self, byline['description'])}\\par}}"
        )
    fields = []
    if byline["authors"]:
        linked = []
        for author in byline["authors"]:
            marks = ",".join(map(str, author["marks"])) if byline["show_marks"] else ""
            mark = f"\\textsuperscript{{{marks}}}" if marks else ""
            linked.append(_link(self, author["name"], author["url"]) + mark)
        fields.append(("Authors", "\\\\".join(linked)))
    if byline["affiliations"]:
        places = []
        for affiliation in byline["affiliations"]:
            mark = f"\\textsuperscript{{{affiliation['mark']}}}" if byline["show_marks"] else ""
            places.append(mark + _link(self, affiliation["name"], affiliation["url"]))
        fields.append(("Affiliations", "\\\\".join(places)))
    if byline["published"]:
        dates = _text(self, byline["published"].text)
        if byline["updated"]:
            dates += "\\\\Updated " + _text(self, byline["updated"].text)
        fields.append(("Published", dates))
    if byline["doi"]:
        fields.append(("DOI", _link(self, byline["doi"]["text"], byline["doi"]["url"])))
    if fields:
        width = f"{0.96 / len(fields):.2f}"
        parts.append("\\bigskip\\par\\noindent\\sphinxplaybookbylinerule\\par\\smallskip\\noindent")
        parts += [f"\\sphinxplaybookfield{{{width}}}{{{head}}}{{{body}}}" for head, body in fields]
        parts.append("\\par\\smallskip\\noindent\\sphinxplaybookbylinerule")
    parts.append("\\end{sphinxplaybooktitleblock}")
    return "\n".join(parts) + "\n"


def visit_title_block(self: Any, node: title_block) -> None:
    """Sets the document's title block, and its PDF title and author, unless
    conf.py's ``latex_elements`` gives a ``maketitle`` of its own."""
    if "maketitle" not in self.config.latex_elements:
        latex = title_block_latex(self, node["docname"])
        if latex is not None:
            self.elements["maketitle"] = latex
    raise nodes.SkipNode


def setup_latex_nodes(app: Sphinx) -> None:
    app.add_node(margin_note, latex=(visit_margin_note, depart_margin_note))
    app.add_node(columns, latex=(visit_columns, depart_columns))
    app.add_node(column, latex=(visit_column, depart_column))
    app.add_node(title_block, latex=(visit_title_block, None))
