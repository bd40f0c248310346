# ruff: noqa: E501  (the expected messages are quoted whole, as an author reads them)
"""The bad-input corpus: one small document per case, and the exact message it must give.

Each :class:`Case` is a page of one generated Sphinx project (the pages build
together, once); :data:`CONFIG_CASES` are conf.py values, each a line of one
generated conf.py. ``tests/test_bad_input.py`` builds them and checks every
message, its file and line, that its subtype can be suppressed, that no
traceback appears and that the rest of each page is there. ``docs/reliability.md``
quotes the number of cases; ``tests/test_reliability_page.py`` keeps it in step.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

#: Appended to every page: its presence in the HTML proves the rest of the page was built.
SENTINEL = "The rest of the page is intact"


@dataclass(frozen=True)
class Expected:
    """One warning: in ``file`` (the case's page when None), at ``line`` (None: no line)."""

    line: int | None
    message: str
    #: ``playbook.<subtype>``, or Sphinx's own type for warnings Sphinx emits.
    kind: str
    file: str | None = None

    @property
    def suppressible_as(self) -> str | None:
        return self.kind


@dataclass(frozen=True)
class Case:
    """A page named ``name`` + ``suffix`` with ``source``; ``files`` go next to it."""

    name: str
    covers: str
    source: str
    expected: tuple[Expected, ...]
    suffix: str = ".md"
    files: dict[str, str | bytes] = field(default_factory=dict)

    def text(self) -> str:
        """The page as written: the case's source, then the sentinel paragraph."""
        return f"{self.source.rstrip()}\n\n{SENTINEL}: {self.name}.\n"


def md(title: str, body: str = "", front: str = "") -> str:
    """A Markdown page; front matter first when given. Line 1 is ``---`` or the title."""
    head = f"---\n{front.strip()}\n---\n\n" if front else ""
    return f"{head}# {title}\n\n{body.strip()}\n"


def rst(title: str, body: str = "", fields: str = "") -> str:
    """A reST page; its docinfo field list first when given."""
    head = f"{fields.strip()}\n\n" if fields else ""
    return f"{head}{title}\n{'=' * len(title)}\n\n{body.strip()}\n"


A = "playbook.aside"
FL = "playbook.figure_legend"
WI = "playbook.wide_image"
SBS = "playbook.side_by_side"
LAY = "playbook.layout"
APP = "playbook.appendix"
CIT = "playbook.citation"
META = "playbook.metadata"
KEY = "playbook.metadata_key"
CONF = "playbook.config"

GOOD_BIB = """@article{good2020,
  title = {A good entry},
  author = {Doe, Jane},
  year = {2020}
}
"""


CASES: tuple[Case, ...] = (
    # -- aside -----------------------------------------------------------------------
    Case(
        "aside_unknown_option",
        "aside: an option it does not have",
        md("Aside", "```{aside}\n:colour: red\n\nA note.\n```"),
        (Expected(3, "aside: unknown option :colour:; the options are :class:, :name:", A),),
    ),
    Case(
        "aside_unknown_option_rst",
        "aside (reST): an option it does not have",
        rst("Aside", ".. aside::\n   :colour: red\n\n   A note."),
        (Expected(4, "aside: unknown option :colour:; the options are :class:, :name:", A),),
        suffix=".rst",
    ),
    Case(
        "aside_empty",
        "aside: no content",
        md("Aside", "```{aside}\n```"),
        (Expected(3, "aside: has no content; write the text to show inside the directive", A),),
    ),
    Case(
        "aside_bad_class",
        "aside: :class: that is not a class name",
        md("Aside", "```{aside}\n:class: <>\n\nA note.\n```"),
        (
            Expected(
                3,
                "aside: invalid value '<>' for :class: (cannot make \"<>\" into a class name); ignored",
                A,
            ),
        ),
    ),
    Case(
        "aside_nested",
        "aside inside an aside",
        md("Aside", ":::{aside}\nOuter.\n\n```{aside}\nInner.\n```\n:::"),
        (
            Expected(
                3, "aside: contains another aside; the inner one is shown inline in this one", A
            ),
        ),
    ),
    Case(
        "appendix_in_aside",
        "appendix inside an aside",
        md("Aside", ":::{aside}\nOuter.\n\n```{appendix}\nInner appendix.\n```\n:::"),
        (
            Expected(
                3,
                "aside: contains an appendix, which is moved to the end of the article; put the appendix outside the aside",
                A,
            ),
        ),
    ),
    # -- figure-legend -----------------------------------------------------------------
    Case(
        "legend_nothing_before",
        "figure-legend with nothing before it",
        md("Legend", "```{figure-legend}\nA legend.\n```"),
        (
            Expected(
                3,
                "figure-legend: nothing before it to caption; it is shown as a standalone legend. Put it right after an image, figure, code block, table, wide-image or side-by-side.",
                FL,
            ),
        ),
    ),
    Case(
        "legend_standalone_citing",
        "figure-legend standing alone in an appendix, citing (found by the property test: its cite was left unrendered and crashed the writer)",
        md(
            "Legend",
            ":::{appendix}\n::::{figure-legend}\nText {cite}`good2020`.\n::::\n:::",
            front="bibliography: good.bib",
        ),
        (
            Expected(
                9,  # the legend's first content line: MyST's nested fences report one below
                "figure-legend: nothing before it to caption; it is shown as a standalone legend. Put it right after an image, figure, code block, table, wide-image or side-by-side.",
                FL,
            ),
        ),
        files={"good.bib": GOOD_BIB},
    ),
    Case(
        "legend_empty",
        "figure-legend: no content",
        md("Legend", "![Diagram](images/diagram.svg)\n\n```{figure-legend}\n```"),
        (
            Expected(
                5, "figure-legend: has no content; write the text to show inside the directive", FL
            ),
        ),
    ),
    Case(
        "legend_unknown_option_rst",
        "figure-legend (reST): an option it does not have",
        rst(
            "Legend",
            ".. image:: images/diagram.svg\n   :alt: Diagram\n\n"
            ".. figure-legend::\n   :layout: page\n\n   A legend.",
        ),
        (
            Expected(
                7,
                "figure-legend: unknown option :layout:; the options are :class:, :dark:, :name:",
                FL,
            ),
        ),
        suffix=".rst",
    ),
    # -- wide-image --------------------------------------------------------------------
    Case(
        "wide_no_alt",
        "wide-image: no :alt:",
        md("Wide", "```{wide-image} images/band.png\n```"),
        (
            Expected(
                3,
                "wide-image: 'images/band.png' has no :alt: text; describe the image for readers who cannot see it",
                WI,
            ),
        ),
    ),
    Case(
        "wide_no_argument",
        "wide-image: no image path",
        md("Wide", "```{wide-image}\n:alt: A band\n```"),
        (
            Expected(
                3, "wide-image: no image given; write the image path after the directive name", WI
            ),
        ),
    ),
    Case(
        "wide_no_argument_rst",
        "wide-image (reST): no image path",
        rst("Wide", ".. wide-image::\n   :alt: A band"),
        (
            Expected(
                4, "wide-image: no image given; write the image path after the directive name", WI
            ),
        ),
        suffix=".rst",
    ),
    Case(
        "wide_missing_file",
        "wide-image: the image file does not exist",
        md("Wide", "```{wide-image} images/missing.png\n:alt: Missing\n```"),
        (Expected(3, "image file not readable: images/missing.png", "image.not_readable"),),
    ),
    Case(
        "wide_background_breakout",
        "wide-image: :background: with a CSS breakout",
        md(
            "Wide",
            "```{wide-image} images/band.png\n:alt: A band\n:background: red; position: fixed\n```",
        ),
        (
            Expected(
                3,
                "wide-image: invalid value 'red; position: fixed' for :background: (expected a CSS colour such as white, #f5f5f5 or rgb(245 245 245)); ignored",
                WI,
            ),
        ),
    ),
    Case(
        "wide_background_url",
        "wide-image: :background: with url()",
        md(
            "Wide",
            "```{wide-image} images/band.png\n:alt: A band\n:background: url(https://evil.example/x.png)\n```",
        ),
        (
            Expected(
                3,
                "wide-image: invalid value 'url(https://evil.example/x.png)' for :background: (expected a CSS colour such as white, #f5f5f5 or rgb(245 245 245)); ignored",
                WI,
            ),
        ),
    ),
    Case(
        "wide_width_breakout",
        "wide-image: :width: with a CSS breakout",
        md("Wide", "```{wide-image} images/band.png\n:alt: A band\n:width: 100px; color: red\n```"),
        (
            Expected(
                3,
                "wide-image: invalid value '100px; color: red' for :width: (expected a length such as 1200px, 80% or 40rem); ignored",
                WI,
            ),
        ),
    ),
    Case(
        "wide_width_wrong_type",
        "wide-image: :width: that is not a length",
        md("Wide", "```{wide-image} images/band.png\n:alt: A band\n:width: wide\n```"),
        (
            Expected(
                3,
                "wide-image: invalid value 'wide' for :width: (expected a length such as 1200px, 80% or 40rem); ignored",
                WI,
            ),
        ),
    ),
    Case(
        "wide_bad_layout",
        "wide-image: :layout: not screen or page",
        md("Wide", "```{wide-image} images/band.png\n:alt: A band\n:layout: gutter\n```"),
        (
            Expected(
                3,
                "wide-image: invalid value 'gutter' for :layout: (expected one of screen, page); ignored",
                WI,
            ),
        ),
    ),
    Case(
        "wide_javascript_target",
        "wide-image: :target: with a javascript: URL",
        md(
            "Wide",
            "```{wide-image} images/band.png\n:alt: A band\n:target: javascript:alert(1)\n```",
        ),
        (
            Expected(
                3,
                "wide-image: :target: 'javascript:alert(1)' is refused: use an http(s), mailto or relative link",
                WI,
            ),
        ),
    ),
    Case(
        "wide_empty_target_rst",
        "wide-image (reST): :target: without a value",
        rst("Wide", ".. wide-image:: images/band.png\n   :alt: A band\n   :target:"),
        (
            Expected(
                4,
                "wide-image: invalid value None for :target: (argument required but none supplied); ignored",
                WI,
            ),
        ),
        suffix=".rst",
    ),
    Case(
        "wide_in_side_by_side",
        "wide-image inside side-by-side",
        md(
            "Wide",
            "::::{side-by-side}\n```{wide-image} images/band.png\n:alt: A band\n```\n\n"
            "Text beside it.\n::::",
        ),
        (
            Expected(
                3,
                "side-by-side: contains a wide-image, which cannot span the screen from inside a column; move the wide-image before or after the side-by-side",
                SBS,
            ),
        ),
    ),
    # -- side-by-side ------------------------------------------------------------------
    Case(
        "columns_breakout",
        "side-by-side: :columns: with a CSS breakout",
        md(
            "Columns", "::::{side-by-side}\n:columns: 1fr; position: fixed\n\nLeft.\n\nRight.\n::::"
        ),
        (
            Expected(
                3,
                "side-by-side: invalid value '1fr; position: fixed' for :columns: (expected column sizes such as 1fr 2fr, 300px auto or repeat(3, 1fr)); ignored",
                SBS,
            ),
        ),
    ),
    Case(
        "columns_wrong_type",
        "side-by-side: :columns: that is not a track list",
        md("Columns", "::::{side-by-side}\n:columns: two\n\nLeft.\n\nRight.\n::::"),
        (
            Expected(
                3,
                "side-by-side: invalid value 'two' for :columns: (expected column sizes such as 1fr 2fr, 300px auto or repeat(3, 1fr)); ignored",
                SBS,
            ),
        ),
    ),
    Case(
        "columns_bad_align",
        "side-by-side: :align: not start, center or end",
        md("Columns", "::::{side-by-side}\n:align: middle\n\nLeft.\n\nRight.\n::::"),
        (
            Expected(
                3,
                "side-by-side: invalid value 'middle' for :align: (expected one of start, center, end); ignored",
                SBS,
            ),
        ),
    ),
    Case(
        "columns_bad_layout_rst",
        "side-by-side (reST): :layout: not body, body-outset or page",
        rst("Columns", ".. side-by-side::\n   :layout: screen\n\n   Left.\n\n   Right."),
        (
            Expected(
                4,
                "side-by-side: invalid value 'screen' for :layout: (expected one of body, body-outset, page); ignored",
                SBS,
            ),
        ),
        suffix=".rst",
    ),
    Case(
        "columns_empty",
        "side-by-side: no content",
        md("Columns", "::::{side-by-side}\n::::"),
        (
            Expected(
                3, "side-by-side: has no content; write the text to show inside the directive", SBS
            ),
        ),
    ),
    # -- layout ------------------------------------------------------------------------
    Case(
        "layout_unknown_column",
        "layout: a column that does not exist",
        md("Layout", ":::{layout} sidebar\nText.\n:::"),
        (
            Expected(
                3,
                "layout: unknown column 'sidebar'; write one of body, body-outset, page, screen, screen-inset, gutter (the content is shown in the text column)",
                LAY,
            ),
        ),
    ),
    Case(
        "layout_no_column_rst",
        "layout (reST): no column",
        rst("Layout", ".. layout::\n\n   Text."),
        (
            Expected(
                4,
                "layout: no column given; write one of body, body-outset, page, screen, screen-inset, gutter (the content is shown in the text column)",
                LAY,
            ),
        ),
        suffix=".rst",
    ),
    Case(
        "layout_empty",
        "layout: no content",
        md("Layout", ":::{layout} page\n:::"),
        (Expected(3, "layout: has no content; write the text to show inside the directive", LAY),),
    ),
    Case(
        "layout_unknown_option",
        "layout: an option it does not have",
        md("Layout", ":::{layout} page\n:width: 10px\n\nText.\n:::"),
        (Expected(3, "layout: unknown option :width:; the options are :class:, :name:", LAY),),
    ),
    # -- appendix, citation --------------------------------------------------------------
    Case(
        "appendix_empty",
        "appendix: no content",
        md("Appendix", "```{appendix}\n```"),
        (
            Expected(
                3, "appendix: has no content; write the text to show inside the directive", APP
            ),
        ),
    ),
    Case(
        "appendix_unknown_option_rst",
        "appendix (reST): an option it does not have",
        rst("Appendix", ".. appendix::\n   :title: Notes\n\n   Text."),
        (Expected(4, "appendix: unknown option :title:; the options are none", APP),),
        suffix=".rst",
    ),
    Case(
        "citation_with_content",
        "citation: content it does not take",
        md("Citation", "```{citation}\nCite me like this.\n```", front="published: 2025-01-02"),
        (
            Expected(
                7,
                "citation: takes no content (the block is made from the page's metadata); the content is ignored, remove it",
                APP,
            ),
        ),
    ),
    Case(
        "citation_unknown_option",
        "citation: an option it does not have",
        md("Citation", "```{citation}\n:style: apa\n```", front="published: 2025-01-02"),
        (Expected(7, "citation: unknown option :style:; the options are none", APP),),
    ),
    # -- cite roles --------------------------------------------------------------------
    Case(
        "cite_unknown_key",
        "cite: a key in no .bib file",
        md("Cite", "Text {cite}`nobody2099`.", front="bibliography: good.bib"),
        (
            Expected(
                7, "unknown citation key 'nobody2099'; add it to a .bib file or fix the key", CIT
            ),
        ),
        files={"good.bib": GOOD_BIB},
    ),
    Case(
        "cite_t_unknown_key_rst",
        "cite:t (reST): a key in no .bib file",
        rst("Cite", "Text :cite:t:`good2020,nobody2099`.", fields=":bibliography: good.bib"),
        (
            Expected(
                6, "unknown citation key 'nobody2099'; add it to a .bib file or fix the key", CIT
            ),
        ),
        suffix=".rst",
        files={"good.bib": GOOD_BIB},
    ),
    Case(
        "cite_empty",
        "cite: no key at all",
        md("Cite", "Text {cite}`,`.", front="bibliography: good.bib"),
        (
            Expected(
                7,
                "cite: no citation key given; write the keys of the .bib entries, separated by commas, e.g. {cite}`key1,key2`",
                CIT,
            ),
        ),
        files={"good.bib": GOOD_BIB},
    ),
    # -- BibTeX ------------------------------------------------------------------------
    Case(
        "bib_missing",
        "bibliography: a .bib file that does not exist",
        md("Bib", "Text {cite}`good2020`.", front="bibliography: missing.bib"),
        (
            Expected(
                2,
                "front matter key 'bibliography': 'missing.bib' does not exist; give a path relative to this page",
                CIT,
            ),
            Expected(
                7, "unknown citation key 'good2020'; add it to a .bib file or fix the key", CIT
            ),
        ),
    ),
    Case(
        "bib_malformed",
        "a .bib file pybtex cannot parse",
        md("Bib", "Text {cite}`ok2020`.", front="bibliography: malformed.bib"),
        (
            Expected(
                13,
                "syntax error in line 13: premature end of file; fix the BibTeX syntax at or above this line (often an unclosed brace or a missing comma); the entries that parse are used",
                CIT,
                file="malformed.bib",
            ),
        ),
        files={
            "malformed.bib": "@article{ok2020,\n  title={Parses},\n  year={2020}\n}\n\n@article{broken2021,\n  title={Missing the closing brace,\n  year={2021}\n\n@misc{after2022,\n  title={After},\n  year={2022}\n}\n"
        },
    ),
    Case(
        "bib_duplicate_key",
        "a .bib file defining a key twice",
        md("Bib", "Text {cite}`twice2020`.", front="bibliography: duplicate.bib"),
        (
            Expected(
                6,
                "the key 'twice2020' is defined twice; the first entry is used",
                CIT,
                file="duplicate.bib",
            ),
        ),
        files={
            "duplicate.bib": "@misc{twice2020,\n  title={First},\n  year={2020}\n}\n\n@misc{twice2020,\n  title={Second},\n  year={2021}\n}\n"
        },
    ),
    Case(
        "bib_not_utf8",
        "a .bib file in Latin-1",
        md("Bib", "Text {cite}`latin2020`.", front="bibliography: latin1.bib"),
        (Expected(2, "the file is not UTF-8; save it as UTF-8", CIT, file="latin1.bib"),),
        files={
            "latin1.bib": "@misc{latin2020,\n  title={Caf\xe9 cr\xe8me},\n  year={2020}\n}\n".encode(
                "latin-1"
            )
        },
    ),
    Case(
        "bib_javascript_url",
        "a .bib entry whose url is javascript:",
        md("Bib", "Text {cite}`evil2020`.", front="bibliography: evil.bib"),
        (
            Expected(
                1,
                "entry 'evil2020': url 'javascript:alert(1)' is refused: use an http(s), mailto or relative link; the entry is shown without it",
                CIT,
                file="evil.bib",
            ),
        ),
        files={
            "evil.bib": "@misc{evil2020,\n  title={Evil},\n  url={javascript:alert(1)},\n  year={2020}\n}\n"
        },
    ),
    # -- front matter ------------------------------------------------------------------
    Case(
        "front_matter_malformed_yaml",
        "front matter that is not YAML",
        md("Front matter", "Text.", front="title: [unclosed\nauthors: {"),
        (
            Expected(
                3,
                "front matter is not valid YAML (expected ',' or ']', but got ':'); fix the syntax, the page is built without its front matter",
                META,
            ),
            Expected(1, "Malformed YAML", "myst.topmatter"),
        ),
    ),
    Case(
        "front_matter_not_mapping",
        "front matter that is a list, not keys",
        md("Front matter", "Text.", front="- title\n- authors"),
        (
            Expected(
                2,
                "front matter is a list, not keys and values; write one 'key: value' per line, the page is built without its front matter",
                META,
            ),
            Expected(1, "YAML is not a dict: <class 'list'>", "myst.topmatter"),
        ),
    ),
    Case(
        "front_matter_unknown_key",
        "a front-matter key nobody knows",
        md("Front matter", "Text.", front="subtitle: Not a key"),
        (
            Expected(
                2,
                "unknown front matter key 'subtitle': check its spelling; the keys sphinx_playbook reads are affiliations, authors, bibliography, description, doi, license, pdf, published, thumbnail, title, updated",
                KEY,
            ),
        ),
    ),
    Case(
        "front_matter_key_of_an_unloaded_extension",
        "a key another extension reads, without that extension",
        md("Front matter", "Text.", front="ogp_disable: true"),
        (
            Expected(
                2,
                "unknown front matter key 'ogp_disable': it is read by sphinxext.opengraph, which is not in conf.py's extensions; add it there, or remove the key",
                KEY,
            ),
        ),
    ),
    Case(
        "title_wrong_type",
        "title: a list, not text",
        md("Front matter", "Text.", front="title: [a, b]"),
        (Expected(2, "front matter key 'title': expected text, got list; ignored", META),),
    ),
    Case(
        "title_html",
        "title: HTML tags",
        md("Front matter", "Text.", front="title: <b>Bold</b> title"),
        (
            Expected(
                2,
                "front matter key 'title': '<b>Bold</b> title' contains HTML, which is shown as typed, not interpreted; remove the tags",
                META,
            ),
        ),
    ),
    Case(
        "description_wrong_type",
        "description: a mapping",
        md("Front matter", "Text.", front="description: {a: b}"),
        (Expected(2, "front matter key 'description': expected text, got dict; ignored", META),),
    ),
    Case(
        "published_not_a_date",
        "published: not a date",
        md("Front matter", "Text.", front="published: the day after tomorrow"),
        (
            Expected(
                2,
                "front matter key 'published': 'the day after tomorrow' is not a date; write it as YYYY-MM-DD, e.g. 2025-02-19",
                META,
            ),
        ),
    ),
    Case(
        "updated_wrong_type",
        "updated: a number",
        md("Front matter", "Text.", front="updated: 12"),
        (
            Expected(
                2,
                "front matter key 'updated': 12 is not a date; write it as YYYY-MM-DD, e.g. 2025-02-19",
                META,
            ),
        ),
    ),
    Case(
        "doi_malformed",
        "doi: not a DOI",
        md("Front matter", "Text.", front="doi: not-a-doi"),
        (
            Expected(
                2,
                "front matter key 'doi': 'not-a-doi' is not a DOI; write it as 10.xxxx/suffix",
                META,
            ),
        ),
    ),
    Case(
        "authors_wrong_type",
        "authors: a number",
        md("Front matter", "Text.", front="authors: 42"),
        (Expected(2, "front matter key 'authors': expected a list of authors; ignored", META),),
    ),
    Case(
        "author_no_name",
        "authors: an author without a name",
        md("Front matter", "Text.", front="authors:\n  - url: https://example.org"),
        (
            Expected(
                2,
                "front matter key 'authors': author {'url': 'https://example.org'} has no name; add a name",
                META,
            ),
        ),
    ),
    Case(
        "author_unknown_field",
        "authors: a field authors do not have",
        md("Front matter", "Text.", front="authors:\n  - name: Ada\n    email: ada@example.org"),
        (
            Expected(
                2,
                "front matter key 'authors': unknown author field(s) email; "
                "use name, url, orcid, affiliations and organization",
                META,
            ),
        ),
    ),
    Case(
        "author_organization_not_boolean",
        "authors: organization that is not true or false",
        md(
            "Front matter",
            "Text.",
            front="authors:\n  - name: The Team\n    organization: yes please",
        ),
        (
            Expected(
                2,
                "front matter key 'authors': organization of 'The Team' must be true or false, "
                "not 'yes please'; read as false",
                META,
            ),
        ),
    ),
    Case(
        "author_javascript_url",
        "authors: url with javascript:",
        md("Front matter", "Text.", front="authors:\n  - name: Ada\n    url: javascript:alert(1)"),
        (
            Expected(
                2,
                "front matter key 'authors': URL 'javascript:alert(1)' is refused: only http(s), mailto and relative links are allowed",
                META,
            ),
        ),
    ),
    Case(
        "author_bad_orcid",
        "authors: orcid that is not an ORCID iD",
        md("Front matter", "Text.", front="authors:\n  - name: Ada\n    orcid: 1234"),
        (
            Expected(
                2,
                "front matter key 'orcid': 1234 is not an ORCID iD; write it as 0000-0002-1825-0097",
                META,
            ),
        ),
    ),
    Case(
        "author_affiliations_wrong_type",
        "authors: affiliations that is a mapping",
        md("Front matter", "Text.", front="authors:\n  - name: Ada\n    affiliations: {a: b}"),
        (
            Expected(
                2, "front matter key 'authors': affiliations of 'Ada' must be a list; ignored", META
            ),
        ),
    ),
    Case(
        "affiliations_wrong_type",
        "affiliations: a number",
        md("Front matter", "Text.", front="affiliations: 42"),
        (
            Expected(
                2, "front matter key 'affiliations': expected a list of affiliations; ignored", META
            ),
        ),
    ),
    Case(
        "affiliation_no_name",
        "affiliations: one without a name",
        md(
            "Front matter",
            "Text.",
            front="affiliations:\n  - id: lab\n    url: https://example.org",
        ),
        (
            Expected(
                2,
                "front matter key 'affiliations': affiliation {'id': 'lab', 'url': 'https://example.org'} has no name; add one",
                META,
            ),
        ),
    ),
    Case(
        "affiliation_javascript_url",
        "affiliations: url with javascript:",
        md(
            "Front matter",
            "Text.",
            front='affiliations:\n  - name: Lab\n    url: "  JaVaScRiPt:alert(2)"',
        ),
        (
            Expected(
                2,
                "front matter key 'affiliations': URL 'JaVaScRiPt:alert(2)' is refused: only http(s), mailto and relative links are allowed",
                META,
            ),
        ),
    ),
    Case(
        "thumbnail_data_url",
        "thumbnail: a data: URL",
        md("Front matter", "Text.", front="thumbnail: data:image/png;base64,AAAA"),
        (
            Expected(
                2,
                "front matter key 'thumbnail': URL 'data:image/png;base64,AAAA' is refused: only http(s), mailto and relative links are allowed",
                META,
            ),
        ),
    ),
    Case(
        "license_wrong_type",
        "license: a list",
        md("Front matter", "Text.", front="license: [MIT, CC-BY-4.0]"),
        (Expected(2, "front matter key 'license': expected text, got list; ignored", META),),
    ),
    Case(
        "bibliography_wrong_type",
        "bibliography: a number",
        md("Front matter", "Text.", front="bibliography: 42"),
        (
            Expected(
                2,
                "front matter key 'bibliography': expected a file name or a list of file names",
                META,
            ),
        ),
    ),
    Case(
        "docinfo_bad_date_rst",
        "reST docinfo: published not a date",
        rst("Docinfo", "Text.", fields=":published: 31/31/2025"),
        (
            Expected(
                1,
                "docinfo key 'published': '31/31/2025' is not a date; write it as YYYY-MM-DD, e.g. 2025-02-19",
                META,
            ),
        ),
        suffix=".rst",
    ),
    Case(
        "docinfo_javascript_author_rst",
        "reST docinfo: an author link with javascript:",
        rst("Docinfo", "Text.", fields=":authors: Ada <javascript:alert(3)>; Grace Hopper"),
        (
            Expected(
                1,
                "docinfo key 'authors': URL 'javascript:alert(3)' is refused: only http(s), mailto and relative links are allowed",
                META,
            ),
        ),
        suffix=".rst",
    ),
    Case(
        "docinfo_malformed_yaml_rst",
        "reST docinfo: YAML flow syntax that does not parse",
        rst("Docinfo", "Text.", fields=":authors: [{name: Ada"),
        (
            Expected(
                1,
                "docinfo key 'authors': '[{name: Ada' starts like YAML but is not valid YAML (expected ',' or '}', but got '<stream end>'); fix it, or write the simple form, e.g. 'Jane Doe <https://jane.example> [lab]; John Smith'",
                META,
            ),
        ),
        suffix=".rst",
    ),
    Case(
        "duplicate_name",
        "aside :name: used twice on one page",
        md(
            "Names",
            "```{aside}\n:name: note\n\nOne.\n```\n\nText.\n\n```{aside}\n:name: note\n\nTwo.\n```",
        ),
        (Expected(11, 'Duplicate explicit target name: "note".', "docutils"),),
    ),
    Case(
        "math_bad_tex",
        "math role with TeX that does not parse",
        md("Math", "Inline {math}`\\frac{1}{` math."),
        (
            Expected(
                3,
                "math: KaTeX parse error: Unexpected end of input in a macro argument, expected '}' at end of input: \\frac{1}{; the formula is shown as TeX",
                "playbook.math",
            ),
        ),
    ),
    # -- includes ----------------------------------------------------------------------
    Case(
        "include_circular_rst",
        "reST: a file that includes itself through another",
        rst("Include", ".. include:: loop_a.rst.inc"),
        (
            Expected(
                3,
                'circular inclusion in "include" directive:\n{srcdir}/loop_a.rst.inc\n> {srcdir}/loop_b.rst.inc\n> {srcdir}/loop_a.rst.inc\n> {srcdir}/include_circular_rst.rst',
                "docutils",
                file="loop_b.rst.inc",
            ),
        ),
        suffix=".rst",
        files={
            "loop_a.rst.inc": "Loop A.\n\n.. include:: loop_b.rst.inc\n",
            "loop_b.rst.inc": "Loop B.\n\n.. include:: loop_a.rst.inc\n",
        },
    ),
    Case(
        "include_circular_md",
        "MyST: a file that includes itself through another",
        md("Include", "```{include} loop_a.md.inc\n```"),
        (
            Expected(
                3,
                "include: loop_a.md.inc includes itself (loop_a.md.inc > loop_b.md.inc > loop_a.md.inc); the repeated include is left out, remove one of these include directives",
                "playbook.include",
                file="loop_b.md.inc",
            ),
        ),
        files={
            "loop_a.md.inc": "Loop A.\n\n```{include} loop_b.md.inc\n```\n",
            "loop_b.md.inc": "Loop B.\n\n```{include} loop_a.md.inc\n```\n",
        },
    ),
)


IMAGES = Path(__file__).parent.parent / "roots" / "test-directives-myst" / "images"

CONF_PY = """extensions = ["sphinx_playbook"]
html_theme = "sphinx_playbook"
project = "Bad input"
exclude_patterns = ["_build"]
"""

INDEX = "Bad input\n=========\n\n.. toctree::\n   :glob:\n\n   *\n"


def write_corpus(srcdir: Path, cases: tuple[Case, ...] = CASES) -> None:
    """One Sphinx project with a page per case (and the files the cases need)."""
    srcdir.mkdir(parents=True, exist_ok=True)
    (srcdir / "conf.py").write_text(CONF_PY, encoding="utf-8")
    (srcdir / "index.rst").write_text(INDEX, encoding="utf-8")
    shutil.copytree(IMAGES, srcdir / "images", dirs_exist_ok=True)
    for case in cases:
        (srcdir / f"{case.name}{case.suffix}").write_text(case.text(), encoding="utf-8")
        for name, content in case.files.items():
            target = srcdir / name
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")


# -- huge inputs: generated, never committed -----------------------------------------------

HUGE_AUTHORS = 1_000
HUGE_ROWS = 10_000


def _huge_bib() -> str:
    people = " and ".join(f"Author{i}, First{i}" for i in range(HUGE_AUTHORS))
    return f"@article{{many2024,\n  title = {{Many hands}},\n  author = {{{people}}},\n  year = {{2024}}\n}}\n"


def _huge_table() -> str:
    rows = "\n".join(f"| {i} | row {i} |" for i in range(HUGE_ROWS))
    return f"| n | text |\n| --- | --- |\n{rows}"


HUGE_CASES: tuple[Case, ...] = (
    Case(
        "huge_bib_authors",
        f"a .bib entry with {HUGE_AUTHORS:,} authors",
        md("Huge", "Text {cite}`many2024`.", front="bibliography: many.bib"),
        (),
        files={"many.bib": _huge_bib()},
    ),
    Case(
        "huge_side_by_side",
        f"a side-by-side holding a {HUGE_ROWS:,}-row table",
        md("Huge", f"::::{{side-by-side}}\n{_huge_table()}\n\nBeside the table.\n::::"),
        (),
    ),
)


# -- conf.py values ---------------------------------------------------------------------


@dataclass(frozen=True)
class ConfigCase:
    """A ``playbook_*`` line of conf.py and the message it must give (no line: conf.py's)."""

    setting: str
    value: str
    message: str
    kind: str = CONF

    @property
    def line(self) -> str:
        return f"playbook_{self.setting} = {self.value}"


def _invalid(setting: str, value: str, shown: str, expects: str) -> ConfigCase:
    return ConfigCase(
        setting,
        value,
        f"conf.py: playbook_{setting} = {shown} is not valid; expected {expects}. "
        "Using the default instead.",
    )


#: Values of the wrong type or outside their choices: each replaced by its default.
CONFIG_TYPE_CASES: tuple[ConfigCase, ...] = (
    _invalid(
        "authors",
        '"Ada Lovelace"',
        "'Ada Lovelace'",
        "a list of author names or mappings with name, url, orcid, affiliations",
    ),
    _invalid(
        "affiliations", "5", "5", "a list of affiliation names or mappings with id, name, url"
    ),
    _invalid("published", "20250219", "20250219", "a date such as '2025-02-19'"),
    _invalid("updated", '["2025-03-01"]', "['2025-03-01']", "a date such as '2025-03-01'"),
    _invalid("doi", "10.1234", "10.1234", "a DOI such as '10.1234/abc'"),
    _invalid("description", '["x"]', "['x']", "a one-sentence string"),
    _invalid("thumbnail", "5", "5", "an image path or URL"),
    _invalid("license", "True", "True", "a licence such as 'CC-BY-4.0'"),
    _invalid(
        "repository_url",
        "5",
        "5",
        "the project's repository URL, e.g. 'https://github.com/org/repo'",
    ),
    _invalid("repository_branch", '""', "''", "a branch name"),
    _invalid("math", '"fancy"', "'fancy'", "'katex', 'mathml' or 'off'"),
    _invalid("math_display_align", '"right"', "'right'", "'left' or 'center'"),
    _invalid(
        "math_macros",
        '["\\\\RR"]',
        "['\\\\RR']",
        "a dict of TeX macros, e.g. {'\\\\RR': '\\\\mathbb{R}'}",
    ),
    _invalid(
        "bibfiles", '"refs.bib"', "'refs.bib'", "a list of .bib file paths, relative to conf.py"
    ),
    _invalid("citations", '"yes"', "'yes'", "True or False"),
    _invalid("citation_numbering", '"chapter"', "'chapter'", "'page' or 'book'"),
    _invalid(
        "interactive_libraries",
        '"plotly"',
        "'plotly'",
        "a dict of library name to 'auto' or a path, e.g. {'plotly': 'auto'}",
    ),
)

#: Values of the right type whose content is wrong: the page defaults they feed.
CONFIG_VALUE_CASES: tuple[ConfigCase, ...] = (
    ConfigCase(
        "published",
        '"soon"',
        "conf.py: playbook_ setting key 'published': 'soon' is not a date; "
        "write it as YYYY-MM-DD, e.g. 2025-02-19",
        META,
    ),
    ConfigCase(
        "doi",
        '"nope"',
        "conf.py: playbook_ setting key 'doi': 'nope' is not a DOI; write it as 10.xxxx/suffix",
        META,
    ),
    ConfigCase(
        "thumbnail",
        '"javascript:alert(1)"',
        "conf.py: playbook_ setting key 'thumbnail': URL 'javascript:alert(1)' is refused: "
        "only http(s), mailto and relative links are allowed",
        META,
    ),
    ConfigCase(
        "authors",
        '[{"name": "Ada", "url": "javascript:alert(1)"}]',
        "conf.py: playbook_ setting key 'authors': URL 'javascript:alert(1)' is refused: "
        "only http(s), mailto and relative links are allowed",
        META,
    ),
    ConfigCase(
        "affiliations",
        '[{"id": "lab"}]',
        "conf.py: playbook_ setting key 'affiliations': affiliation {'id': 'lab'} has no name; "
        "add one",
        META,
    ),
    ConfigCase(
        "repository_url",
        '"javascript:alert(1)"',
        "conf.py: playbook_repository_url = 'javascript:alert(1)' is refused: use an https "
        "link to the repository; the appendix leaves out its 'Updates and corrections' part",
    ),
    ConfigCase(
        "bibfiles",
        '["missing.bib"]',
        "playbook_bibfiles: {srcdir}/missing.bib does not exist; fix the path "
        "(relative to conf.py)",
        CIT,
    ),
)

CONFIG_PAGE = "---\npublished: 2025-01-02\n---\n\n# Settings\n\nText.\n"


def write_config_project(srcdir: Path, cases: tuple[ConfigCase, ...]) -> None:
    """A one-page project whose conf.py holds every case's line."""
    srcdir.mkdir(parents=True, exist_ok=True)
    lines = [CONF_PY, *(case.line for case in cases)]
    (srcdir / "conf.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (srcdir / "index.md").write_text(f"{CONFIG_PAGE}\n{SENTINEL}: settings.\n", encoding="utf-8")


def case_count() -> int:
    """Every bad input the suite builds: pages, huge inputs and conf.py values."""
    return len(CASES) + len(HUGE_CASES) + len(CONFIG_TYPE_CASES) + len(CONFIG_VALUE_CASES)
