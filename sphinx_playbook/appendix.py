"""Distill's appendix: the author's sections, then Footnotes, References, Citation,
Updates and corrections, Reuse, in that order, at the end of the article.

``appendix`` moves an author's content there; ``citation`` places the "cite
this article" block where it stands instead. :class:`BuildAppendix` runs when
the page is written, after citations are numbered, and leaves out every empty
part. In HTML, footnotes become Distill's: a superscript number with a card
holding the note, and the list of notes in the appendix. The html and dirhtml
builders also write the BibTeX entry beside the page (``<page>.bib``) and link
it for download under the copyable block.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote

from docutils import nodes
from myst_parser.mocking import MockState
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.locale import _
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.nodes import nested_parse_with_titles

from .config import read_config
from .diagnostics import PlaybookWarning, warn
from .directives.base import OptionSpec, PlaybookDirective, component, find_components
from .machinery import priorities
from .machinery.leftovers import remove_with_page
from .machinery.state import build_facts, builder_of
from .scholarly import article_citation, article_metadata
from .urls import is_safe_url

#: Licences a reader may know by name: (title, URL).
KNOWN_LICENSES = {
    "CC-BY-4.0": (
        "Creative Commons Attribution 4.0",
        "https://creativecommons.org/licenses/by/4.0/",
    ),
    "CC-BY-SA-4.0": (
        "Creative Commons Attribution-ShareAlike 4.0",
        "https://creativecommons.org/licenses/by-sa/4.0/",
    ),
    "CC-BY-NC-4.0": (
        "Creative Commons Attribution-NonCommercial 4.0",
        "https://creativecommons.org/licenses/by-nc/4.0/",
    ),
    "CC0-1.0": ("CC0 1.0 (public domain)", "https://creativecommons.org/publicdomain/zero/1.0/"),
    "MIT": ("the MIT License", "https://opensource.org/license/mit"),
    "Apache-2.0": ("the Apache License 2.0", "https://www.apache.org/licenses/LICENSE-2.0"),
}


class AppendixDirective(PlaybookDirective):
    """``:::{appendix}``: content (with its own headings) for the article's appendix."""

    subtype = PlaybookWarning.APPENDIX
    has_content = True
    spec: ClassVar[OptionSpec] = {}

    def run(self) -> list[nodes.Node]:
        self.valid_options()
        if not self.require_content():
            return []
        node = component("appendix", ["pb-appendix-part"])
        self.set_source_info(node)
        if isinstance(self.state, MockState):
            # MyST would attach headings to the enclosing section; as rubrics they
            # stay here, and become the appendix's sections when the page is written.
            self.state.nested_parse(self.content, self.content_offset, node)
        else:
            nested_parse_with_titles(self.state, self.content, node, self.content_offset)
        return [node]


class CitationDirective(PlaybookDirective):
    """``{citation}``: put the "cite this article" block here, not in the appendix."""

    subtype = PlaybookWarning.APPENDIX
    # Content is accepted, then reported: a playbook warning, not docutils' error.
    has_content = True
    spec: ClassVar[OptionSpec] = {}

    def run(self) -> list[nodes.Node]:
        self.valid_options()
        if any(line.strip() for line in self.content):
            self.warn(
                "takes no content (the block is made from the page's metadata); "
                "the content is ignored, remove it"
            )
        node = component("citation-block", ["pb-citation"])
        self.set_source_info(node)
        return [node]


class fn_group(nodes.Inline, nodes.Element):
    """A footnote number with its hover card (HTML)."""


class fn_card(nodes.Inline, nodes.Element):
    """The card holding a footnote's text (HTML)."""


def visit_fn_group(self: Any, node: fn_group) -> None:
    self.body.append(f'<span class="pb-cite pb-fn" aria-describedby="{node["card_id"]}">')


def depart_fn_group(self: Any, node: fn_group) -> None:
    self.body.append("</span>")


def visit_fn_card(self: Any, node: fn_card) -> None:
    self.body.append(f'<span class="pb-card" role="tooltip" id="{node["ids"][0]}">')


def depart_fn_card(self: Any, node: fn_card) -> None:
    self.body.append("</span>")


class bibtex_download(nodes.Inline, nodes.TextElement):
    """A link to the page's BibTeX file; ``bibtex`` holds what it contains (HTML)."""


def visit_bibtex_download(self: Any, node: bibtex_download) -> None:
    attributes = {"href": node["refuri"], "download": node["download"]}
    self.body.append(self.starttag(node, "a", "", CLASS="reference download", **attributes))


def depart_bibtex_download(self: Any, node: bibtex_download) -> None:
    self.body.append("</a>")


#: The builders that write each page to a file of its own, and a .bib beside it.
BIBTEX_FILE_BUILDERS = ("html", "dirhtml")


def bibtex_file(builder: StandaloneHTMLBuilder, docname: str) -> Path:
    """``<page>.bib`` beside the page's HTML file (``dir/index.bib`` under dirhtml)."""
    return Path(builder.get_outfilename(docname)).with_suffix(".bib")


def _write_bibtex_file(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``: write the .bib the page links to, as its block shows it;
    a page that no longer has one loses its file."""
    builder = app.builder
    if builder.name not in BIBTEX_FILE_BUILDERS or doctree is None:
        return
    if not isinstance(builder, StandaloneHTMLBuilder) or pagename not in app.env.all_docs:
        return
    path = bibtex_file(builder, pagename)
    link = next(iter(doctree.findall(bibtex_download)), None)
    if link is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(link["bibtex"], encoding="utf-8")


def _bibtex_output(builder: StandaloneHTMLBuilder, docname: str) -> Path | None:
    """The .bib a removed page leaves, removed with it (a fresh build has none)."""
    return bibtex_file(builder, docname) if builder.name in BIBTEX_FILE_BUILDERS else None


def _titled(title: str, *children: nodes.Node, name: str) -> nodes.section:
    section = nodes.section("", ids=[f"pb-appendix-{name}"], classes=[f"pb-appendix-{name}"])
    section += nodes.title("", title)
    section.extend(children)
    return section


class BuildAppendix(SphinxPostTransform):
    """Assemble the appendix at the end of the page (after NumberCitations, 300)."""

    default_priority = priorities.BUILD_APPENDIX

    def run(self, **kwargs: Any) -> None:
        html = build_facts(self.env).html
        docname = self.env.docname
        top = next((n for n in self.document.children if isinstance(n, nodes.section)), None)
        parent = top or self.document
        parts: list[nodes.Node] = []

        # One walk finds both. The {citation} blocks are filled first, while each is
        # still in its place: an {appendix} (which may hold one) moves its children.
        found = find_components(self.document, "appendix", "citation-block")
        citation = self._citation(docname)
        for node in found["citation-block"]:
            if citation:
                node.replace_self(copy.deepcopy(citation))
            else:  # no published date: nothing to cite (replace_self([]) would fail)
                node.parent.remove(node)
        for part in found["appendix"]:
            part.parent.remove(part)
            parts.extend(_sections_from_rubrics(part.children))
        if html:
            footnotes = self._footnotes()
            if footnotes is not None:
                parts.append(footnotes)
        references = next(
            (s for s in self.document.findall(nodes.section) if "pb-references" in s["ids"]),
            None,
        )
        if references is not None:
            references.parent.remove(references)
            parts.append(references)
        if citation is not None and not found["citation-block"]:
            parts.append(_titled(_("Citation"), *citation, name="citation"))

        updates = self._updates(docname)
        if updates is not None:
            parts.append(updates)
        reuse = self._reuse(docname)
        if reuse is not None:
            parts.append(reuse)

        if parts:
            appendix = nodes.container("", classes=["pb-appendix"], ids=["pb-appendix"])
            appendix.extend(parts)
            parent.append(appendix)

    def _footnotes(self) -> nodes.section | None:
        footnotes = list(self.document.findall(nodes.footnote))
        if not footnotes:
            return None
        cards: set[str] = set()
        for reference in list(self.document.findall(nodes.footnote_reference)):
            target = self.document.ids.get(reference.get("refid", ""))
            if not isinstance(target, nodes.footnote):
                continue
            # One card per reference (a footnote may be referenced twice), and the ids
            # its copy of the footnote holds (a citation's) made its own: no id twice.
            card_id = f"{target['ids'][0]}-card"
            if card_id in cards and reference["ids"]:
                card_id = f"{reference['ids'][0]}-card"
            cards.add(card_id)
            card = fn_card("", ids=[card_id])
            card.extend(_card_blocks(target.children))
            for copied in card.findall(nodes.Element, include_self=False):
                copied["ids"] = [f"{card['ids'][0]}-{node_id}" for node_id in copied["ids"]]
            group = fn_group("", card_id=card["ids"][0])
            reference.replace_self(group)
            group += reference
            group += card
        for footnote in footnotes:
            footnote.parent.remove(footnote)
        # MyST draws a rule before the footnotes it collects; they have moved.
        for rule in list(self.document.findall(nodes.transition)):
            if "footnotes" in rule["classes"]:
                rule.parent.remove(rule)
        return _titled(_("Footnotes"), *footnotes, name="footnotes")

    def _citation(self, docname: str) -> list[nodes.Node] | None:
        citation = article_citation(self.env, docname)
        if citation is None:
            return None
        intro = nodes.paragraph(
            "", _("For attribution in academic contexts, please cite this work as")
        )
        short = nodes.literal_block(citation.short(), citation.short(), classes=["pb-cite-short"])
        short["language"] = "text"
        heading = nodes.paragraph("", _("BibTeX citation"))
        entry = citation.bibtex()
        bibtex = nodes.literal_block(entry, entry, language="bibtex")
        result: list[nodes.Node] = [intro, short, heading, bibtex]
        builder = builder_of(self.env)
        if isinstance(builder, StandaloneHTMLBuilder) and builder.name in BIBTEX_FILE_BUILDERS:
            # The same entry as a file: saved with one click, JavaScript or not.
            link = bibtex_download(
                "",
                _("Download the BibTeX entry (.bib)"),
                refuri=quote(bibtex_file(builder, docname).name),
                download=f"{citation.key}.bib",
                bibtex=entry + "\n",
            )
            result.append(nodes.paragraph("", "", link, classes=["pb-cite-download"]))
        return result

    def _updates(self, docname: str) -> nodes.section | None:
        config = read_config(self.config)
        repository = (config.repository_url or "").rstrip("/")
        if not repository or not is_safe_url(repository):
            return None  # an unsafe URL is reported once, by _check_repository_url
        source = Path(self.env.doc2path(docname))
        root = _repository_root(source)
        path = source.relative_to(root).as_posix() if root else source.name
        history = f"{repository}/commits/{config.repository_branch}/{path}"
        paragraph = nodes.paragraph()
        paragraph += nodes.Text(_("If you see mistakes or want to suggest changes, please "))
        paragraph += nodes.reference("", _("open an issue"), refuri=f"{repository}/issues/new")
        paragraph += nodes.Text(". ")
        paragraph += nodes.reference("", _("View the history of this page"), refuri=history)
        paragraph += nodes.Text(".")
        return _titled(_("Updates and corrections"), paragraph, name="updates")

    def _reuse(self, docname: str) -> nodes.section | None:
        license_ = article_metadata(self.env, docname).license
        if not license_:
            return None
        name, url = KNOWN_LICENSES.get(license_, (license_, ""))
        paragraph = nodes.paragraph()
        paragraph += nodes.Text(_("Text and figures are licensed under "))
        paragraph += nodes.reference("", name, refuri=url) if url else nodes.Text(name)
        paragraph += nodes.Text(_(", unless noted otherwise in their caption."))
        return _titled(_("Reuse"), paragraph, name="reuse")


def _card_blocks(children: Sequence[nodes.Node]) -> list[nodes.Node]:
    """A footnote's blocks as phrasing content for its card, which sits inside the
    paragraph that cites it (a <p> cannot hold <p>, <ul> or <pre>): each paragraph,
    list, item and code block a <span> that CSS shows as a block."""
    result: list[nodes.Node] = []
    for child in children:
        if isinstance(child, nodes.label | nodes.system_message | nodes.target):
            continue
        if result:
            result.append(nodes.Text(" "))  # the description read aloud keeps its words apart
        if isinstance(child, nodes.literal_block):
            # A span, not a literal: Sphinx writes a literal's spaces as &nbsp; runs.
            text = child.astext()
            result.append(nodes.inline(text, text, classes=["pb-card__code"]))
        elif isinstance(child, nodes.bullet_list | nodes.enumerated_list):
            kind = "ordered" if isinstance(child, nodes.enumerated_list) else "bullets"
            items = [
                nodes.inline("", "", *_card_blocks(item.children), classes=["pb-card__item"])
                for item in child.children
            ]
            result.append(
                nodes.inline("", "", *items, classes=["pb-card__list", f"pb-card__{kind}"])
            )
        elif isinstance(child, nodes.TextElement):
            # Node.deepcopy(), not copy.deepcopy(): the latter follows each
            # child's .parent and copies the whole document for every card.
            copies = [grandchild.deepcopy() for grandchild in child.children]
            result.append(nodes.inline("", "", *copies, classes=["pb-card__p"]))
        elif isinstance(child, nodes.Element):  # a quote, an admonition...: what it holds
            result.append(
                nodes.inline("", "", *_card_blocks(child.children), classes=["pb-card__block"])
            )
    return result


def _sections_from_rubrics(children: list[nodes.Node]) -> list[nodes.Node]:
    """Headings parsed as rubrics (MyST) start sections, like reST's titles do."""
    result: list[nodes.Node] = []
    current: nodes.section | None = None
    for child in children:
        if isinstance(child, nodes.rubric):
            current = nodes.section("", ids=list(child["ids"]) or [nodes.make_id(child.astext())])
            current += nodes.title("", "", *child.children)
            result.append(current)
        elif current is not None:
            current += child
        else:
            result.append(child)
    return result


def _repository_root(path: Path) -> Path | None:
    for folder in path.parents:
        if (folder / ".git").exists():
            return folder
    return None


def _check_repository_url(app: Sphinx) -> None:
    """The "Updates and corrections" links start with this URL: refuse what is not a link."""
    repository = read_config(app.config).repository_url
    if repository and not is_safe_url(repository):
        warn(
            f"conf.py: playbook_repository_url = {repository!r} is refused: use an https "
            "link to the repository; the appendix leaves out its 'Updates and corrections' part",
            PlaybookWarning.CONFIG,
        )


def setup_appendix(app: Sphinx) -> None:
    app.add_directive("appendix", AppendixDirective)
    app.add_directive("citation", CitationDirective)
    app.add_node(fn_group, html=(visit_fn_group, depart_fn_group))
    app.add_node(fn_card, html=(visit_fn_card, depart_fn_card))
    app.add_node(bibtex_download, html=(visit_bibtex_download, depart_bibtex_download))
    app.connect("html-page-context", _write_bibtex_file)
    remove_with_page(app, _bibtex_output)
    app.add_post_transform(BuildAppendix)
    app.connect("builder-inited", _check_repository_url)
