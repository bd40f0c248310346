"""Math rendered when the site is built: no CDN, no script, complete with JavaScript off.

``playbook_math = "katex"`` (the default) writes KaTeX's HTML and MathML for every
formula; ``"mathml"`` writes Temml's MathML Core, drawn with the reader's math
font; ``"off"`` leaves ``html_math_renderer`` to the author (MathJax, say). EPUB
always gets MathML. The flow:

1. read: each page's formulas are collected (:data:`FORMULAS`, merged for -j);
   those not in the on-disk cache are sent to a child process, forked at the
   first of them, that renders them while Sphinx goes on reading
   (:mod:`.background`, on two cores): from the main process as it reads each
   page, or, in a -j read, as it merges each chunk;
2. while writing: the child sends each page's markup as soon as it is done; a
   page waits only for its own formulas, when it is written, or in a -j write
   when the main process resolves it, before forking the worker that writes
   it (the worker inherits the markup and never talks to the child). Once
   the child has sent everything, the rest of the site (what no child
   rendered: one core, no fork) is rendered in one batch, split over two
   processes. Then the stylesheet and the licence are written to
   ``_static/katex/`` (or ``_static/temml/``), and each KaTeX font is subset to
   what it draws, in a child process that build-finished waits for (Temml's one
   font, for EPUB, is copied at once, so the EPUB builder packs it);
3. write: the translator looks formulas up; pages with math link the stylesheet
   and preload the fonts their formulas draw with.

LaTeX keeps Sphinx's native math and text shows the TeX: only HTML builders use
this renderer.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.locale import _
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

from ..config import read_config
from ..diagnostics import PlaybookWarning, warn
from ..envstore import PageStore
from .background import BackgroundRenderer, Formula, Result
from .cache import CACHE, FormulaKeys
from .engines import NoEngineError
from .fonts import STAMP, FontFaces, characters_by_font, start_subsetting, without_unused_faces
from .renderers import KATEX, TEMML, Library, Rendered, render, render_site

logger = logging.getLogger(__name__)

RENDERER = "playbook"
#: Each page's formulas as (TeX as rendered, display?), in document order.
FORMULAS: PageStore[tuple[tuple[str, bool], ...]] = PageStore("playbook_formulas")
#: KaTeX's stylesheet lists woff and ttf fallbacks we do not ship: every browser
#: that runs a page of ours reads woff2.
_LEGACY_FONT_SOURCES = re.compile(r',url\([^)]*\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)')
_ALIGN_CSS = """
.pb-math-left .katex-display>.katex{text-align:left;padding-left:1em}
.pb-math-left math[display=block]{margin-left:1em;margin-right:0;text-align:left}
"""


def library_for(builder: Builder) -> Library:
    return _math_build(builder).library


def _uses_renderer(builder: Builder) -> bool:
    return getattr(builder, "math_renderer_name", None) == RENDERER


@dataclass
class _MathBuild:
    """What one builder's formulas share: settings read once, not once per formula."""

    library: Library
    macros_json: str
    display_align: str
    main_pid: int = field(default_factory=os.getpid)
    background: BackgroundRenderer | None = None
    #: Renders the rest of the site: set while it waits for the first formula missing.
    complete: Callable[[], None] | None = None
    keys: dict[Formula, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._key_of = FormulaKeys(self.library, self.macros_json)

    def key(self, tex: str, display: bool) -> str:
        formula = (tex, display)
        if formula not in self.keys:
            self.keys[formula] = self._key_of(tex, display)
        return self.keys[formula]


_BUILDS: weakref.WeakKeyDictionary[Builder, _MathBuild] = weakref.WeakKeyDictionary()


def _math_build(builder: Builder) -> _MathBuild:
    if builder not in _BUILDS:
        settings = read_config(builder.config)
        epub = builder.name.startswith("epub")
        library = TEMML if epub or settings.math == "mathml" else KATEX
        macros = json.dumps(settings.math_macros, sort_keys=True)
        _BUILDS[builder] = _MathBuild(library, macros, settings.math_display_align)
    return _BUILDS[builder]


def display_tex(node: nodes.math_block) -> str:
    """The TeX of a display block as rendered: paragraphs become ``aligned`` rows.

    Sphinx's own renderers read several paragraphs, or ``\\\\``, as an aligned
    group; authors expect the same here.
    """
    tex = node.astext()
    if node.get("no-wrap", node.get("nowrap", False)) or "\\begin" in tex:
        return tex
    parts = [part for part in tex.split("\n\n") if part.strip()]
    if len(parts) > 1 or "\\\\" in tex:
        return "\\begin{aligned}" + "\\\\".join(parts) + "\\end{aligned}"
    return tex


_MATH_NODES = (nodes.math, nodes.math_block)


def _math_nodes(doctree: nodes.Node) -> Iterator[nodes.math | nodes.math_block]:
    """The formulas of a tree, in document order.

    One walk with a stack: docutils' ``findall`` recurses through a generator per
    node, twice as slow with one node class and again twice with two. A formula
    holds no other, so its text is not walked.
    """
    stack = [doctree]
    while stack:
        node = stack.pop()
        if isinstance(node, _MATH_NODES):
            yield node
        elif isinstance(node, nodes.Element):
            stack.extend(reversed(node.children))


def _formulas(doctree: nodes.Node) -> tuple[tuple[str, bool], ...]:
    return tuple(
        (display_tex(node), True) if isinstance(node, nodes.math_block) else (node.astext(), False)
        for node in _math_nodes(doctree)
    )


class SendFormulasEarly(SphinxTransform):
    """Hand a page's formulas to the background child before the page's other
    transforms run (about half of reading it), not only once it is read.

    After the translations (Locale, 20): the TeX sent is the TeX written. Anything
    a later transform changes is simply sent again by :func:`_collect`.
    """

    default_priority = 21

    def apply(self, **kwargs: Any) -> None:
        if _listening(self.env):  # else no walk for nothing
            _render_in_background(self.env, _formulas(self.document))


def _collect(app: Sphinx, doctree: nodes.document) -> None:
    formulas = FORMULAS.of(app.env)[app.env.docname] = _formulas(doctree)
    _render_in_background(app.env, formulas)


def _listen_while_reading(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Let the pages about to be read send their formulas to a background child.

    The child is forked at the first formula the cache lacks, not here: a rebuild
    whose formulas are all cached forks nothing and loads no engine. A -j read
    sends each chunk's formulas as it is merged (:func:`_send_merged`), so the
    child renders while the workers read the next chunks.
    """
    if _uses_renderer(app.builder) and docnames:
        _READING[env] = _math_build(app.builder)


#: The environment being read, and the build whose child renders its formulas.
_READING: weakref.WeakKeyDictionary[BuildEnvironment, _MathBuild] = weakref.WeakKeyDictionary()


def _listening(env: BuildEnvironment) -> _MathBuild | None:
    """The build whose child takes this environment's formulas, in its main process.

    Not in a -j worker: the main process sends the worker's pages when it merges them.
    """
    build = _READING.get(env)
    return build if build is not None and os.getpid() == build.main_pid else None


def _render_in_background(env: BuildEnvironment, formulas: Iterable[Formula]) -> None:
    """Send the formulas the cache lacks to the child that renders while Sphinx reads."""
    build = _listening(env)
    if build is None:
        return
    CACHE.load(env.doctreedir)
    missing = [formula for formula in formulas if CACHE.get(build.key(*formula)) is None]
    if not missing:
        return
    if build.background is None:
        characters = _katex_characters if build.library is KATEX else None
        build.background = BackgroundRenderer.start(build.library, build.macros_json, characters)
        if build.background is None:  # one core or no fork: write-started renders them
            del _READING[env]
            return
    build.background.send(missing)


def _send_merged(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    """A -j chunk is read: its formulas go to the child (after :data:`FORMULAS` merged).

    A batch a page, as in a serial read: the main process, when it collects the
    results, then takes over at a page's granularity, not a chunk's.
    """
    pages = FORMULAS.of(env)
    for name in docnames:
        _render_in_background(env, pages.get(name, ()))


def _katex_characters(markup: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    characters_by_font(markup, _katex_faces(), found)
    return found


def _collect_background(builder: Builder) -> None:
    """Put all the background child rendered into the cache; the child leaves."""
    build = _math_build(builder)
    if build.background is not None:
        results, build.background = build.background.results(), None
        _absorb(build, results)


def _absorb(build: _MathBuild, results: dict[Formula, Result]) -> None:
    """Formulas from the background child into the cache, with their fonts' characters."""
    for (tex, display), (rendered, fonts) in results.items():
        _store(build, build.key(tex, display), rendered, fonts)


def _store(
    build: _MathBuild, key: str, rendered: Rendered, fonts: dict[str, Any] | None = None
) -> None:
    """Into the cache, with the characters the markup draws by font file (KaTeX's;
    ``fonts`` when the background child read them already)."""
    if fonts is None and build.library is KATEX and rendered.html:
        fonts = _katex_characters(rendered.html)
    characters = {font: "".join(sorted(drawn)) for font, drawn in (fonts or {}).items()}
    CACHE.put(key, rendered, characters)


def _rendered(builder: Builder, tex: str, display: bool) -> Rendered:
    build = _math_build(builder)
    key = build.key(tex, display)
    result = CACHE.get(key)
    if result is None and build.complete is not None and _in_main_process(build):
        if build.background is not None:  # the child may be a page behind: wait for it
            _absorb(build, build.background.wait_for((tex, display)))
            result = CACHE.get(key)
        if result is None:
            _complete_now(build)
            result = CACHE.get(key)
    if result is None:
        try:
            result = render(build.library, tex, display, build.macros_json)
        except NoEngineError as error:
            result = Rendered(None, str(error))
        _store(build, key, result)
    return result


def _site_formulas(env: BuildEnvironment) -> set[tuple[str, bool]]:
    return {formula for page in FORMULAS.of(env).values() for formula in page}


def _in_main_process(build: _MathBuild) -> bool:
    """Not a -j worker: only the process that forked the child may talk to it."""
    return os.getpid() == build.main_pid


def _before_writing(app: Sphinx, builder: Builder) -> None:
    """Render the site's formulas while the pages are written.

    A page waits for the background child only when a formula of its own has not
    come back yet: in one process when it is written (:func:`_rendered`), in a -j
    write when the main process resolves it (:func:`_wait_for_page`), before
    the worker that writes it is forked and inherits its markup. Once the child
    has sent everything, the rest of the site is completed between two pages.
    Without a child (one core), everything is rendered here.
    """
    _READING.pop(builder.env, None)  # reading is over: no more children
    if not _uses_renderer(builder):
        return
    build = _math_build(builder)
    if build.background is not None:
        build.complete = lambda: _render_site(app, builder.env)
    else:
        _render_site(app, builder.env)


def _wait_for_page(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """A page is resolved for writing: its formulas come back from the child first.

    In a -j write the main process resolves each chunk's pages and then forks the
    worker that writes them: the worker inherits this process's cache, so it has
    every formula of its pages and never talks to the child, while the child goes
    on with the next chunk's formulas on the core the main process leaves free.
    """
    build = _BUILDS.get(app.builder)
    if build is None or build.background is None or build.complete is None:
        return
    if not _in_main_process(build):
        return
    for tex, display in FORMULAS.of(app.env).get(docname, ()):
        if CACHE.get(build.key(tex, display)) is None:
            _absorb(build, build.background.wait_for((tex, display)))
    _complete_once_child_is_done(app.builder)


def _after_writing(app: Sphinx) -> list[Any]:
    """No page needed a missing formula: the assets are written before the builder
    finishes (html-collect-pages comes before EPUB packs its files)."""
    build = _BUILDS.get(app.builder)
    if build is not None:
        _complete_now(build)
    return []


def _complete_once_child_is_done(builder: Builder) -> None:
    """Between two pages: once the child has sent everything, write the assets, so
    that the fonts are subset while the other pages are written."""
    build = _BUILDS.get(builder)
    if build is None or build.complete is None or build.background is None:
        return
    if _in_main_process(build) and build.background.finished:
        _complete_now(build)


def _complete_now(build: _MathBuild) -> None:
    complete, build.complete = build.complete, None
    if complete is not None:
        complete()


def _render_site(app: Sphinx, env: BuildEnvironment) -> None:
    """Render every formula of the site not in the cache yet, and write the assets.

    What the background child has not rendered goes to the engine in one batch:
    one call instead of one per formula.
    """
    CACHE.load(app.doctreedir)
    _collect_background(app.builder)
    build = _math_build(app.builder)
    library, macros = build.library, build.macros_json
    keys = {build.key(tex, display): (tex, display) for tex, display in sorted(_site_formulas(env))}
    missing = [(key, formula) for key, formula in keys.items() if CACHE.get(key) is None]
    try:
        results = render_site(library, [formula for _key, formula in missing], macros)
    except NoEngineError as error:
        results = [Rendered(None, str(error))] * len(missing)
    for (key, _formula), result in zip(missing, results, strict=True):
        _store(build, key, result)
    CACHE.save(keep=set(keys))
    if keys:  # a site without math gets no math files at all
        _write_assets(app, library, set(keys))


def _failed(translator: Any, node: nodes.Element, tex: str, error: str, tag: str) -> None:
    warn(f"math: {error}; the formula is shown as TeX", PlaybookWarning.MATH, node)
    translator.body.append(
        f'<{tag} class="pb-math-error"><code>{translator.encode(tex)}</code></{tag}>'
    )


def visit_math(self: Any, node: nodes.math) -> None:
    tex = node.astext()
    result = _rendered(self.builder, tex, False)
    if result.html is None:
        _failed(self, node, tex, result.error or "the formula could not be rendered", "span")
    else:
        self.body.append(result.html)
    raise nodes.SkipNode


def visit_displaymath(self: Any, node: nodes.math_block) -> None:
    align = _math_build(self.builder).display_align
    self.body.append(
        self.starttag(node, "div", CLASS=f"math-wrapper pb-math-display pb-math-{align}")
    )
    if node["number"]:
        number = get_node_equation_number(self, node)
        self.body.append(f'<span class="eqno">({number})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    result = _rendered(self.builder, display_tex(node), True)
    if result.html is None:
        error = result.error or "the formula could not be rendered"
        _failed(self, node, node.astext(), error, "div")
    else:
        self.body.append(result.html)
    self.body.append("</div>\n")
    raise nodes.SkipNode


def _use_renderer(app: Sphinx, config: Any) -> None:
    if read_config(config).math != "off":
        config.html_math_renderer = RENDERER
    elif not config.html_math_renderer:
        # With two renderers registered Sphinx would pick ours; "off" means Sphinx's own.
        config.html_math_renderer = "mathjax"


def _page_has_math(doctree: Any) -> bool:
    return doctree is not None and next(_math_nodes(doctree), None) is not None


def _stylesheet(library: Library) -> str:
    return f"{library.name}/{library.name}.css"


def _link_stylesheet(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Only pages with math pay for the stylesheet (and so the fonts).

    The fonts the page's formulas draw with are preloaded: they arrive with the
    stylesheet instead of after it, so text does not reflow when they swap in.
    """
    _complete_once_child_is_done(app.builder)
    if not (_uses_renderer(app.builder) and _page_has_math(doctree)):
        return
    library = library_for(app.builder)
    app.add_css_file(_stylesheet(library), priority=300)
    if library is not KATEX or "pathto" not in context:
        return
    fonts: set[str] = set()
    for tex, display in FORMULAS.of(app.env).get(pagename, ()):
        fonts |= set(_characters_of(app.builder, tex, display))
    links = [
        f'<link rel="preload" href="{context["pathto"](f"_static/katex/fonts/{name}", 1)}" '
        'as="font" type="font/woff2" crossorigin="anonymous">'
        for name in sorted(fonts)
    ]
    context["metatags"] = context.get("metatags", "") + "".join(f"\n    {link}" for link in links)


def _characters_of(builder: Builder, tex: str, display: bool) -> dict[str, str]:
    """What one formula draws, by font file, as the cache keeps it beside the markup."""
    key = _math_build(builder).key(tex, display)
    characters = CACHE.characters(key)
    if characters is None:  # rendered without a record of its characters
        markup = _rendered(builder, tex, display).html
        found = _katex_characters(markup) if markup else {}
        characters = {font: "".join(sorted(drawn)) for font, drawn in found.items()}
    return characters


@functools.cache
def _katex_faces() -> FontFaces:
    css = (KATEX.folder / KATEX.stylesheet).read_text(encoding="utf-8")
    return FontFaces.from_css(_LEGACY_FONT_SOURCES.sub("", css))


#: What else the files depend on: the code that writes them and what they are made of.
_ASSET_CODE = b"".join(
    path.read_bytes()
    for path in (Path(__file__), Path(__file__).with_name("fonts.py"), KATEX.folder / "VERSION")
)


def _assets_are_current(target: Path, library: Library, marker: Path, digest: str) -> bool:
    stylesheet = target / f"{library.name}.css"
    try:
        if marker.read_text(encoding="utf-8") != digest or not stylesheet.is_file():
            return False
        urls = re.findall(r"url\(([^)]+)\)", stylesheet.read_text(encoding="utf-8"))
    except OSError:
        return False
    return all((target / url).is_file() for url in urls)


def _write_assets(app: Sphinx, library: Library, keys: set[str]) -> None:
    """The stylesheet, the licence and the fonts; skipped when the site's formulas are
    the ones the files were written for (a rebuild after editing prose)."""
    target = Path(app.builder.outdir, "_static", library.name)
    marker = Path(app.doctreedir, f"playbook-{library.name}-assets.sha256")
    digest = hashlib.sha256(
        "\n".join([app.builder.name, str(target), *sorted(keys)]).encode() + _ASSET_CODE
    ).hexdigest()
    epub = app.builder.name.startswith("epub")
    if epub:
        # An EPUB may only hold files of its core media types: woff2 is one Sphinx's
        # table lacks, and there is no .txt (the licence goes into the stylesheet).
        app.builder.media_types = {**app.builder.media_types, ".woff2": "font/woff2"}
    if _assets_are_current(target, library, marker, digest):
        return
    target.mkdir(parents=True, exist_ok=True)
    css = (library.folder / library.stylesheet).read_text(encoding="utf-8")
    css = _LEGACY_FONT_SOURCES.sub("", css) + _ALIGN_CSS
    licence = (library.folder / "LICENSE").read_text(encoding="utf-8")
    if epub:
        css = "/*! " + licence.replace("*/", "* /") + " */\n" + css
    else:
        (target / "LICENSE.txt").write_text(licence, encoding="utf-8")
    if library is TEMML:
        (target / f"{library.name}.css").write_text(css, encoding="utf-8")
        shutil.copy(library.folder / "Temml.woff2", target)
        marker.write_text(digest, encoding="utf-8")
        return
    characters: dict[str, set[str]] = {}
    for tex, display in sorted(_site_formulas(app.env)):
        for font, drawn in _characters_of(app.builder, tex, display).items():
            characters.setdefault(font, set()).update(drawn)
    # A face no formula draws with is never downloaded: it is not written at all.
    css = without_unused_faces(css, set(characters))
    (target / f"{library.name}.css").write_text(css, encoding="utf-8")
    stamp = Path(app.doctreedir, STAMP)
    finish = start_subsetting(library.folder / "fonts", target / "fonts", characters, stamp)
    _PENDING.append(lambda: (finish(), marker.write_text(digest, encoding="utf-8")))


#: Work started before the pages are written and finished when the build is.
_PENDING: list[Callable[[], object]] = []


def _finish_assets(app: Sphinx, exception: Exception | None) -> None:
    build = _BUILDS.get(app.builder)
    if build is not None:
        if exception is None:  # a builder that skipped html-collect-pages: assets still follow
            _complete_now(build)
        build.complete = None
        _collect_background(app.builder)  # a failed build leaves no child behind
    while _PENDING:
        _PENDING.pop()()


def setup_math(app: Sphinx, *, config_inited: bool) -> None:
    app.add_html_math_renderer(
        RENDERER, inline_renderers=(visit_math, None), block_renderers=(visit_displaymath, None)
    )
    FORMULAS.connect(app)
    app.connect("env-before-read-docs", _listen_while_reading)
    app.add_transform(SendFormulasEarly)
    app.connect("doctree-read", _collect)
    app.connect("env-merge-info", _send_merged, priority=600)
    app.connect("write-started", _before_writing)
    app.connect("doctree-resolved", _wait_for_page)
    app.connect("html-collect-pages", _after_writing)
    app.connect("html-page-context", _link_stylesheet)
    app.connect("build-finished", _finish_assets, priority=100)
    if config_inited:
        _use_renderer(app, app.config)
    else:
        app.connect("config-inited", _use_renderer, priority=600)
