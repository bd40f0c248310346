"""The compatibility matrix: extensions real projects pair with pydata-sphinx-theme.

Each entry is built by tests/compat/test_extensions.py with our theme, in both
orders of ``extensions``, with ``-W``, from the book in book/ plus the entry's
page in pages/; the test checks what the extension exists for. docs/_ext reads
this table for the "Moving an existing project" page, so the page lists what
the tests check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Entry:
    """One extension of the matrix."""

    #: What conf.py lists (the first is the one the matrix is about).
    extensions: tuple[str, ...]
    #: Its distribution on the package index.
    package: str
    #: The page in pages/ that uses it.
    page: str
    #: What the test checks still works.
    checked: str
    #: What sphinx_playbook does beside it.
    ours: str = "nothing of ours overlaps"
    #: conf.py settings the entry needs.
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.extensions[0]


NO_NETWORK_TIPS = {
    "tippy_enable_wikitips": False,
    "tippy_enable_doitips": False,
    "tippy_rtd_urls": [],
}

MATRIX = (
    Entry(
        ("myst_nb",),
        "myst-nb",
        "myst_nb.ipynb",
        "a notebook is a page: its first heading in the title block, its math rendered, "
        "its outputs shown (a figure on its dark-mode backdrop); Markdown pages keep "
        "their front matter (byline)",
        "myst-nb reads .md and .ipynb; ours does not set up myst_parser after it",
        {"nb_execution_mode": "off"},
    ),
    Entry(
        ("sphinx_copybutton",),
        "sphinx-copybutton",
        "sphinx_copybutton.md",
        "one copy button per code block, copying without the prompts the project strips",
        "our copy buttons step aside",
        {"copybutton_prompt_text": r">>> |\.\.\. |\$ ", "copybutton_prompt_is_regexp": True},
    ),
    Entry(
        ("sphinx_togglebutton",),
        "sphinx-togglebutton",
        "sphinx_togglebutton.md",
        "a toggle opens on click and shows its content",
    ),
    Entry(
        ("sphinx_tippy",),
        "sphinx-tippy",
        "sphinx_tippy.md",
        "tips are written for links to pages and sections (the page's heading "
        "included) and shown on hover, with tippy.js served by the site",
        "our hover cards on cross-references step aside (citation and footnote cards stay)",
        NO_NETWORK_TIPS,
    ),
    Entry(
        ("sphinxext.opengraph",),
        "sphinxext-opengraph",
        "sphinxext.opengraph.md",
        "one og:title and the page's og:description, written by the extension",
        "our og: and twitter: tags step aside (citation_* tags stay)",
        {"ogp_site_url": "https://example.org/book/", "ogp_social_cards": {"enable": False}},
    ),
    Entry(
        ("sphinx_sitemap",),
        "sphinx-sitemap",
        "sphinx_sitemap.md",
        "sitemap.xml lists every page at html_baseurl",
        settings={"html_baseurl": "https://example.org/book/", "sitemap_url_scheme": "{link}"},
    ),
    Entry(
        ("sphinx.ext.autodoc", "sphinx.ext.autosummary"),
        "sphinx (autodoc, autosummary)",
        "sphinx.ext.autodoc.rst",
        "the signature, its parameters and the summary table",
    ),
    Entry(
        ("autodoc2",),
        "sphinx-autodoc2",
        "autodoc2.md",
        "the generated API pages, with the function's signature",
        settings={"autodoc2_packages": [{"path": "compat_module.py"}]},
    ),
    Entry(
        ("sphinx.ext.intersphinx",),
        "sphinx (intersphinx)",
        "sphinx.ext.intersphinx.md",
        "a role resolves to the other project's page",
        settings={"intersphinx_mapping": {"python": ("https://docs.python.org/3", "python.inv")}},
    ),
    Entry(
        ("sphinx.ext.graphviz",),
        "sphinx (graphviz) and Graphviz's dot",
        "sphinx.ext.graphviz.rst",
        "the graph drawn as SVG at build time",
        settings={"graphviz_output_format": "svg"},
    ),
    Entry(
        ("sphinxcontrib.mermaid",),
        "sphinxcontrib-mermaid",
        "sphinxcontrib.mermaid.md",
        "the diagram's source in the page for mermaid.js (which the extension loads "
        "from its CDN unless configured otherwise: the only request to another origin)",
    ),
    Entry(
        ("sphinxcontrib.bibtex",),
        "sphinxcontrib-bibtex",
        "sphinxcontrib.bibtex.md",
        "a citation links to its entry in the bibliography",
        "our cite roles are off (playbook_citations = False)",
        {"bibtex_bibfiles": ["refs.bib"], "playbook_citations": False},
    ),
)


def markdown_table() -> str:
    """The matrix as the Markdown table docs/moving-a-project.md shows."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [
        "| extension | package | checked in the tests | what sphinx_playbook does |",
        "| --- | --- | --- | --- |",
    ]
    for entry in MATRIX:
        names = ", ".join(f"`{name}`" for name in entry.extensions)
        cells = (names, cell(entry.package), cell(entry.checked), cell(entry.ours))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
