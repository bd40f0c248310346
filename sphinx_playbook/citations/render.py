"""Write phase: numbers for citations, hover cards, and the page's reference list.

HTML gets :class:`cite_group` nodes (links and a hover card written into the
page, so it works without JavaScript) and a References section with backlinks;
every other builder gets plain ``[1, 2]`` text and the same list.
"""

from __future__ import annotations

from html import escape
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.locale import _
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..config import read_config
from ..machinery import priorities
from ..machinery.state import build_facts, builder_of
from ..urls import page_url
from .bibliography import Reference
from .collect import BOOK, cited_page
from .roles import cite_ref

#: How many authors the reference list shows before "et al.".
LIST_AUTHORS = 10


class cite_group(nodes.Inline, nodes.Element):
    """One citation in HTML: numbered links, and the card with the entries."""


def ref_id(key: str) -> str:
    """The reference list entry's id. The prefix goes in first: make_id drops a
    leading digit, and a DOI used as a key (10.1234/5678) became "pb-ref-"."""
    return nodes.make_id("pb-ref-" + key)


def _card_entry(reference: Reference) -> str:
    title = escape(reference.title or reference.key)
    link = reference.link
    if link:
        title = f'<a href="{escape(link)}">{title}</a>'
    parts = [f'<span class="pb-card__title">{title}</span>']
    if reference.authors:
        parts.append(f'<span class="pb-card__authors">{escape(reference.card_authors())}</span>')
    venue = ", ".join(p for p in (reference.venue, reference.year) if p)
    if venue:
        parts.append(f'<span class="pb-card__venue">{escape(venue)}</span>')
    if reference.doi:
        doi = escape(reference.doi)
        parts.append(
            f'<span class="pb-card__doi">DOI: <a href="https://doi.org/{doi}">{doi}</a></span>'
        )
    return f'<span class="pb-card__entry">{"".join(parts)}</span>'


def visit_cite_group(self: Any, node: cite_group) -> None:
    numbers = node["numbers"]  # [(key, number or None)]
    links = []
    for (_key, number), href in zip(numbers, node["hrefs"], strict=True):
        if number is None:
            links.append('<span class="pb-cite__unknown">?</span>')
        else:
            links.append(f'<a class="pb-cite__link" href="{escape(href)}">{number}</a>')
    label = f"[{', '.join(links)}]"
    if node.get("prefix"):
        label = f"{escape(node['prefix'])} {label}"
    references = node["references"]
    card_id = node["ids"][0] + "-card"
    card = ""
    if references:
        entries = "".join(_card_entry(r) for r in references)
        card = f'<span class="pb-card" role="tooltip" id="{card_id}">{entries}</span>'
    self.body.append(
        f'<span class="pb-cite" id="{node["ids"][0]}"'
        + (f' aria-describedby="{card_id}"' if card else "")
        + f">{label}{card}</span>"
    )
    raise nodes.SkipNode


def _list_entry(reference: Reference) -> nodes.paragraph:
    paragraph = nodes.paragraph()
    names = [a.full for a in reference.authors[:LIST_AUTHORS]]
    if len(reference.authors) > LIST_AUTHORS:
        names.append("et al.")
    if names:
        paragraph += nodes.Text(", ".join(names).removesuffix(".") + ". ")
    title = reference.title or reference.key
    if reference.link:
        paragraph += nodes.reference("", title, refuri=reference.link)
    else:
        paragraph += nodes.emphasis("", title)
    paragraph += nodes.Text(". ")
    venue = ", ".join(p for p in (reference.venue, reference.year) if p)
    if venue:
        paragraph += nodes.Text(venue + ". ")
    if reference.doi:
        paragraph += nodes.Text("DOI: ")
        paragraph += nodes.reference("", reference.doi, refuri=f"https://doi.org/{reference.doi}")
    return paragraph


class NumberCitations(SphinxPostTransform):
    """Number the page's citations by first appearance and append its reference list."""

    default_priority = priorities.NUMBER_CITATIONS

    def run(self, **kwargs: Any) -> None:
        citations = list(self.document.findall(cite_ref))
        docname = self.env.docname
        book = BOOK.get(self.env)
        lists_the_book = book is not None and book.list_page == docname
        if not citations and not (lists_the_book and self._book_mode()):
            return
        # Builders that join pages into one tree (singlehtml, latex) cite from many
        # pages here: each citation is looked up in its own page's entries (a key
        # in one page's bibliography alone is not another page's).
        references = self._references_of(citations)
        resolvable = set(references)
        keys = list(dict.fromkeys(k for n in citations for k in n["keys"] if k in resolvable))
        html = build_facts(self.env).html
        # The whole book in this one tree: its list closes the tree, wherever the
        # book's list page is, and each citation is linked within the tree.
        joined = next(self.document.findall(addnodes.start_of_file), None) is not None
        # A PDF of part of the book (a chapter's) numbers its own citations and lists
        # them: the book's numbers would skip, its list hold other chapters' entries.
        builder = builder_of(self.env)
        part = builder is not None and builder.format == "latex" and docname != self.config.root_doc
        if not self._book_mode() or book is None or part:
            book = None
            numbers = {key: index for index, key in enumerate(keys, start=1)}
            list_page = docname
        else:
            numbers = book.numbers
            references = book.references
            list_page = docname if joined else book.list_page
        backlinks: dict[str, list[str]] = {key: [] for key in keys}
        for index, node in enumerate(citations, start=1):
            # A key the page's own .bib files lack has no number here, even where
            # another page's gave it one in the book's numbering.
            pairs = [(key, numbers.get(key) if key in resolvable else None) for key in node["keys"]]
            prefix = ""
            if node["form"] == "t":
                known = [references[k] for k, n in pairs if n is not None]
                prefix = ", ".join(r.textual() for r in known) if known else ""
            if html:
                group = cite_group(
                    node.rawsource,
                    ids=[f"pb-cite-{index}"],
                    numbers=pairs,
                    prefix=prefix,
                    references=[references[k] for k, n in pairs if n is not None],
                    hrefs=[
                        self._uri_to(list_page, ref_id(k)) if n is not None else ""
                        for k, n in pairs
                    ],
                )
                for key, number in pairs:
                    if number is not None:
                        backlinks[key].append(f"pb-cite-{index}")
                node.replace_self(group)
            else:
                label = "[" + ", ".join(str(n) if n else "?" for _k, n in pairs) + "]"
                node.replace_self(nodes.Text(f"{prefix} {label}" if prefix else label))
        if book is not None and not joined:
            if docname == book.list_page and book.keys:
                links = {
                    key: [self._uri_to(doc, anchor) for doc, anchor in places]
                    for key, places in book.backlinks.items()
                    if html  # other builders have no backlinks (LaTeX has no URI for a page)
                }
                self._append_references(book.keys, book.references, links, html)
        elif keys:
            links = {
                key: ["#" + anchor for anchor in anchors] for key, anchors in backlinks.items()
            }
            in_order = sorted(keys, key=lambda key: numbers[key])
            self._append_references(in_order, references, links, html)

    def _references_of(self, citations: list[cite_ref]) -> dict[str, Reference]:
        """The entries of the pages whose citations are in this tree."""
        merged: dict[str, Reference] = {}
        pages = dict.fromkeys(node.get("docname") or self.env.docname for node in citations)
        for docname in pages:
            page = cited_page(self.env, docname)
            for key, reference in page.references.items() if page else ():
                merged.setdefault(key, reference)
        return merged

    def _book_mode(self) -> bool:
        return read_config(self.config).citation_numbering == "book"

    def _uri_to(self, docname: str, anchor: str) -> str:
        """The link from the page being written to ``#anchor`` on ``docname``'s page."""
        builder = builder_of(self.env)
        if builder is None or docname == self.env.docname:
            return "#" + anchor
        return page_url(builder, docname, relative_to=self.env.docname, anchor=anchor)

    def _append_references(
        self,
        keys: list[str],
        references: dict[str, Reference],
        backlinks: dict[str, list[str]],
        html: bool,
    ) -> None:
        section = nodes.section("", ids=["pb-references"], classes=["pb-references"])
        section += nodes.title("", _("References"))
        items = nodes.enumerated_list("", enumtype="arabic", classes=["pb-reference-list"])
        for key in keys:
            item = nodes.list_item("", ids=[ref_id(key)] if html else [])
            paragraph = _list_entry(references[key])
            if html:
                for number, href in enumerate(backlinks.get(key, []), start=1):
                    label = "↩" if number == 1 else f"↩{number}"
                    paragraph += nodes.Text(" ")
                    paragraph += nodes.reference(
                        "",
                        label,
                        refuri=href,
                        internal=True,
                        classes=["pb-backlink"],
                        reftitle=_("Back to the citation"),
                    )
            item += paragraph
            items += item
        section += items
        top = next((n for n in self.document.children if isinstance(n, nodes.section)), None)
        (top or self.document).append(section)
