"""Sphinx configuration of the sphinx_playbook documentation.

These docs are themselves a playbook book: every setting below is one the
pages describe, so this file doubles as a working example.
"""

import sys
from pathlib import Path

import sphinx_playbook

# docs/_ext: config_reference, the extension that writes the Configuration
# page's tables from the code.
sys.path.insert(0, str(Path(__file__).parent / "_ext"))

# -- Project ------------------------------------------------------------------
project = "sphinx_playbook"
author = "The sphinx_playbook developers"
copyright = "2026, The sphinx_playbook developers"
version = release = sphinx_playbook.__version__

# -- The two lines a playbook needs -------------------------------------------
# Listing sphinx_playbook also loads myst_parser and sphinx_design.
extensions = ["sphinx_playbook", "config_reference"]
html_theme = "sphinx_playbook"

# -- MyST ---------------------------------------------------------------------
# sphinx_playbook turns on colon_fence (::: directives), attrs_block ({.l-page}
# before a block) and dollarmath ($x$) itself; this site adds definition lists.
myst_enable_extensions = ["deflist"]
myst_heading_anchors = 3

# -- Notebooks ----------------------------------------------------------------
# notebook-example.ipynb is a page: myst-nb reads it (the "notebooks" extra), from
# the outputs stored in it, so building the docs runs no kernel.
extensions.append("myst_nb")
nb_execution_mode = "off"

exclude_patterns = ["_build"]
numfig = True
numfig_format = {"figure": "Figure %s", "table": "Table %s", "code-block": "Listing %s"}

# -- Citations and the appendix -----------------------------------------------
playbook_bibfiles = ["references.bib"]
playbook_license = "CC-BY-4.0"

# -- Math ---------------------------------------------------------------------
# Macros every formula can use (see the Math page).
playbook_math_macros = {
    "\\RR": "\\mathbb{R}",
    "\\E": "\\operatorname{\\mathbb{E}}",
}

# -- Article defaults ---------------------------------------------------------
# Every page without its own authors or published date shows these.
playbook_authors = [{"name": "The sphinx_playbook developers", "organization": True}]
playbook_published = "2026-12-02"

# -- HTML ---------------------------------------------------------------------
html_title = "sphinx_playbook"
html_theme_options = {
    # The header's project name; also used where Sphinx gives no page title
    # (the singlehtml builder).
    "logo": {"text": "sphinx_playbook"},
    "toc_title": "Contents",
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}

# -- Other builders -----------------------------------------------------------
latex_documents = [
    # Title and author are LaTeX: "_" is written "\\_". The title page itself shows
    # the article's title and byline.
    (
        "index",
        "sphinx_playbook.tex",
        "sphinx\\_playbook",
        "The sphinx\\_playbook developers",
        "howto",
    ),
]
epub_show_urls = "no"
