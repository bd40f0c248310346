"""The ``playbook_*`` configuration values, declared once as a dataclass.

Each field of :class:`PlaybookConfig` becomes a ``playbook_<field>`` value in
conf.py. :func:`read_config` validates what the author wrote at
``config-inited`` and replaces a wrong value by its default with a located
warning, so a typo never turns into a traceback later in the build.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config

from .diagnostics import PlaybookWarning, warn
from .machinery import priorities
from .urls import is_safe_url

PREFIX = "playbook_"


def _is_list_of_mappings_or_strings(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(v, dict | str) for v in value)


def _is_optional_string(value: Any) -> bool:
    return value is None or isinstance(value, str)


@dataclass(frozen=True)
class PlaybookConfig:
    """Site-wide defaults; a page's own front matter always wins.

    Each field's metadata: ``validate`` checks a value, ``expects`` names what is
    accepted (in warnings and in the docs' reference table), ``doc`` and
    ``example`` (a valid value) are what docs/configuration.md shows of it.
    """

    authors: list[dict[str, Any] | str] = field(
        default_factory=list,
        metadata={
            "validate": _is_list_of_mappings_or_strings,
            "expects": "a list of author names or mappings with name, url, orcid, affiliations",
            "doc": "The *Authors* column of every page whose front matter sets no `authors`.",
            "example": ["Ada Lovelace", {"name": "Charles Babbage", "affiliations": ["lab"]}],
        },
    )
    affiliations: list[dict[str, Any] | str] = field(
        default_factory=list,
        metadata={
            "validate": _is_list_of_mappings_or_strings,
            "expects": "a list of affiliation names or mappings with id, name, url",
            "doc": "The *Affiliations* column that goes with those authors, who name one "
            "by its `id` or its name.",
            "example": [{"id": "lab", "name": "Analytical Engine Lab"}],
        },
    )
    published: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "a date such as '2025-02-19'",
            "doc": "The *Published* date of every page that sets none.",
            "example": "2025-02-19",
        },
    )
    updated: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "a date such as '2025-03-01'",
            "doc": "The *Updated* date under it, for every page that sets none.",
            "example": "2025-03-01",
        },
    )
    doi: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "a DOI such as '10.1234/abc'",
            "doc": "The *DOI* column, linked to doi.org, for every page that sets none.",
            "example": "10.1234/abc",
        },
    )
    description: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "a one-sentence string",
            "doc": "The subtitle under the title, and the description of search results "
            "and social cards, for every page that sets none.",
            "example": "What fills the memory, and how to make it fit.",
        },
    )
    thumbnail: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "an image path or URL",
            "doc": "The image of social cards (`og:image`, `twitter:image`) for every page "
            "that sets no `thumbnail`: a path relative to conf.py, copied into `_images/` "
            "and linked under `html_baseurl` (relative to the page when that is unset), "
            "or a URL, kept as written.",
            "example": "images/card.png",
        },
    )
    license: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "a licence such as 'CC-BY-4.0'",
            "doc": "The appendix's *Reuse* part, for every page without its own `license`.",
            "example": "CC-BY-4.0",
        },
    )
    pdf_url: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "the URL of the article's PDF, e.g. 'https://example.org/article.pdf'",
            "doc": "The article as a PDF (a page's `pdf` front-matter key overrides it): a "
            "*PDF* link in the byline and Google Scholar's `citation_pdf_url`. Absolute, or "
            "relative to the page; Scholar gets it absolute when `html_baseurl` is set.",
            "example": "https://example.org/article.pdf",
        },
    )
    pdf: str = field(
        default="book",
        metadata={
            "validate": lambda v: v in ("book", "chapters", "both"),
            "expects": "'book', 'chapters' or 'both'",
            "doc": 'The PDFs the LaTeX builder writes: `"book"`, `latex_documents` as '
            'conf.py gives it (Sphinx\'s default: the whole book); `"chapters"`, one PDF '
            'per page of the root toctree; `"both"`, the book and its chapters. With '
            '`"chapters"` or `"both"` each page with a PDF links it (*Download PDF*, '
            "`citation_pdf_url`) under `_pdf/` at the site's root.",
            "example": "both",
        },
    )
    repository_url: str | None = field(
        default=None,
        metadata={
            "validate": _is_optional_string,
            "expects": "the project's repository URL, e.g. 'https://github.com/org/repo'",
            "doc": "The appendix's *Updates and corrections* links: the repository's "
            "issues and the page's source.",
            "example": "https://github.com/org/repo",
        },
    )
    repository_branch: str = field(
        default="main",
        metadata={
            "validate": lambda v: isinstance(v, str) and bool(v),
            "expects": "a branch name",
            "doc": "The branch those links point at.",
            "example": "trunk",
        },
    )
    citation_file: str | None = field(
        default="CITATION.cff",
        metadata={
            "validate": _is_optional_string,
            "expects": "a CITATION.cff path relative to conf.py, or None",
            "doc": "The Citation File Format file the root article is compared with at "
            "each build: one `playbook.metadata` warning per title, authors, DOI or date "
            "that differs. Relative to conf.py; a missing `CITATION.cff` beside conf.py is "
            "no error, a missing file named here is; `None` compares nothing. A project "
            'from `sphinx-playbook new` sets `"../CITATION.cff"`, the repository root.',
            "example": "../CITATION.cff",
        },
    )
    math: str = field(
        default="katex",
        metadata={
            "validate": lambda v: v in ("katex", "mathml", "off"),
            "expects": "'katex', 'mathml' or 'off'",
            "doc": 'How formulas are drawn: `"katex"`, rendered when the site is built, '
            "as HTML and MathML; `\"mathml\"`, Temml's MathML Core alone, in the reader's "
            'own math font; `"off"`, left to Sphinx\'s `html_math_renderer` (MathJax).',
            "example": "mathml",
        },
    )
    math_display_align: str = field(
        default="left",
        metadata={
            "validate": lambda v: v in ("left", "center"),
            "expects": "'left' or 'center'",
            "doc": "Display formulas at the left with Distill's 1 em indent, or centred.",
            "example": "center",
        },
    )
    math_macros: dict[str, str] = field(
        default_factory=dict,
        metadata={
            "validate": lambda v: (
                isinstance(v, dict)
                and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())
            ),
            "expects": "a dict of TeX macros, e.g. {'\\\\RR': '\\\\mathbb{R}'}",
            "doc": "TeX macros every formula of the site can use.",
            "example": {"\\RR": "\\mathbb{R}"},
        },
    )
    bibfiles: list[str] = field(
        default_factory=list,
        metadata={
            "validate": lambda v: (
                isinstance(v, list | tuple) and all(isinstance(i, str) for i in v)
            ),
            "expects": "a list of .bib file paths, relative to conf.py",
            "doc": "The .bib files whose entries every page can cite.",
            "example": ["references.bib"],
        },
    )
    citations: bool = field(
        default=True,
        metadata={
            "validate": lambda v: isinstance(v, bool),
            "expects": "True or False",
            "doc": "`False` switches the `cite` roles off, e.g. to use sphinxcontrib.bibtex.",
            "example": False,
        },
    )
    citation_numbering: str = field(
        default="page",
        metadata={
            "validate": lambda v: v in ("page", "book"),
            "expects": "'page' or 'book'",
            "doc": '`"page"`: each page numbers its own citations; `"book"`: one '
            "numbering and one reference list for the whole book.",
            "example": "book",
        },
    )
    ref_previews: bool = field(
        default=True,
        metadata={
            "validate": lambda v: isinstance(v, bool),
            "expects": "True or False",
            "doc": "Hover cards on cross-references to figures, tables, equations, sections "
            "and pages, written at build time; `False` leaves plain links.",
            "example": False,
        },
    )
    interactive_libraries: dict[str, str] = field(
        default_factory=lambda: {"plotly": "auto"},
        metadata={
            "validate": lambda v: (
                isinstance(v, dict)
                and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())
            ),
            "expects": "a dict of library name to 'auto' or a path, e.g. {'plotly': 'auto'}",
            "doc": "Where the site's one copy of each library of interactive figures comes "
            'from: `"auto"` (the installed package: plotly, bokeh) or a path relative to '
            'the source directory. A library left out is `"auto"` when a package has it.',
            "example": {"plotly": "auto", "vega": "_vendor/vega.min.js"},
        },
    )
    images: str = field(
        default="auto",
        metadata={
            "validate": lambda v: v in ("auto", "off"),
            "expects": "'auto' or 'off'",
            "doc": '`"auto"`: each PNG, JPEG and GIF also served as WebP (and AVIF, where '
            "Pillow writes it) at the widths the layout shows it at (`srcset` and `sizes`, "
            "the original kept for old browsers), "
            "made when the site is built and kept only where smaller; an image with the class "
            '`pb-original` is served as it is. `"off"`: every image as written.',
            "example": "off",
        },
    )
    dark_backdrop: bool = field(
        default=True,
        metadata={
            "validate": lambda v: isinstance(v, bool),
            "expects": "True or False",
            "doc": "In dark mode, PNG, GIF and WebP images that are see-through somewhere "
            "(black axes on a transparent background) stand on a light backdrop, read from "
            "the file when the site is built; an image with a `:dark:` variant or the class "
            "`no-backdrop` never does. `False`: none does.",
            "example": False,
        },
    )
    precompress: bool = field(
        default=False,
        metadata={
            "validate": lambda v: isinstance(v, bool),
            "expects": "True or False",
            "doc": "Write `.gz` and `.br` copies beside the site's text files of 1 KB or more "
            "(pages, scripts, stylesheets, figure documents, the search index), for hosts "
            "that serve precompressed files (nginx `gzip_static`, Caddy `precompressed`). "
            "GitHub Pages and Read the Docs compress on the fly and need none.",
            "example": True,
        },
    )
    csp: bool = field(
        default=False,
        metadata={
            "validate": lambda v: isinstance(v, bool),
            "expects": "True or False",
            "doc": "Write a strict Content-Security-Policy into every page as a "
            "`<meta http-equiv>`: `default-src 'self'; script-src 'self'; style-src 'self'; "
            "img-src 'self' data:; frame-src 'self'`. The pages are the same without it (no "
            "inline script or style of ours), so a host may send the policy as a header "
            "instead; an author's raw HTML must then keep to it too (docs/security.md).",
            "example": True,
        },
    )
    gc_freeze: bool = field(
        default=False,
        metadata={
            "validate": lambda v: isinstance(v, bool),
            "expects": "True or False",
            "doc": "Call Python's `gc.freeze()` once the builder is set up, so that the "
            "garbage collector stops walking the modules, theme and environment that live "
            "as long as the build: about 10 % less CPU for a fresh build of a large book. "
            "For a process that builds once (`sphinx-build` in CI); in one that builds "
            "again and again (a server, a test suite) the first build's objects would never "
            "be freed. The output is the same either way.",
            "example": True,
            "rebuild": "",
        },
    )


CONFIG_FIELDS = {f.name: f for f in dataclasses.fields(PlaybookConfig)}


def _default(f: dataclasses.Field) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def add_config_values(app: Sphinx) -> None:
    """Register every dataclass field as ``playbook_<name>``."""
    for name, f in CONFIG_FIELDS.items():
        # "env": pages are re-read when a default they may show changes; a setting
        # that changes no output says so in its metadata.
        rebuild = f.metadata.get("rebuild", "env")
        app.add_config_value(PREFIX + name, _default(f), rebuild, types=())
    app.connect("config-inited", _validate_config, priority=priorities.CHECK_CONFIG)
    app.connect("config-inited", enable_myst_extensions, priority=priorities.ENABLE_MYST_EXTENSIONS)


#: MyST syntax extensions a playbook relies on: ``:::{name}`` colon fences for
#: directives, ``{.l-page}`` block attributes for layout classes, ``$math$``.
MYST_EXTENSIONS = ("colon_fence", "attrs_block", "dollarmath")


def enable_myst_extensions(app: Sphinx, config: Config) -> None:
    """Add :data:`MYST_EXTENSIONS` to ``myst_enable_extensions``, keeping the author's."""
    if "myst_enable_extensions" not in config:
        return
    enabled = config.myst_enable_extensions
    missing = [name for name in MYST_EXTENSIONS if name not in enabled]
    if missing:
        config.myst_enable_extensions = [*enabled, *missing]


def _validate_config(app: Sphinx, config: Config) -> None:
    """Replace invalid values by their default, warning once for each."""
    for name, f in CONFIG_FIELDS.items():
        value = config[PREFIX + name]
        if not f.metadata["validate"](value):
            warn(
                f"conf.py: {PREFIX}{name} = {value!r} is not valid; "
                f"expected {f.metadata['expects']}. Using the default instead.",
                PlaybookWarning.CONFIG,
            )
            setattr(config, PREFIX + name, _default(f))
    _repository_from_theme_options(config)


def _repository_from_theme_options(config: Config) -> None:
    """sphinx-book-theme's ``repository_url`` and ``repository_branch`` (in
    ``html_theme_options``) are the defaults of ours: a project moving from it keeps
    the appendix's *Updates and corrections* links."""
    options = config.html_theme_options if isinstance(config.html_theme_options, dict) else {}
    url, branch = options.get("repository_url"), options.get("repository_branch")
    url = url.strip() if isinstance(url, str) else ""
    branch = branch.strip() if isinstance(branch, str) else ""
    # An unsafe URL is left out here; theme/options.py warns about it.
    if config[PREFIX + "repository_url"] is None and url and is_safe_url(url):
        config[PREFIX + "repository_url"] = url
    if config[PREFIX + "repository_branch"] == "main" and branch:
        config[PREFIX + "repository_branch"] = branch


def read_config(config: Config) -> PlaybookConfig:
    """The validated settings as one immutable object."""
    return PlaybookConfig(**{name: config[PREFIX + name] for name in CONFIG_FIELDS})
