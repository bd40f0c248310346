"""Every priority sphinx_playbook gives Sphinx, by name: one table.

Sphinx runs an event's handlers by ascending priority (``app.connect``'s
``priority``, 500 when none is given, which is where Sphinx's own handlers and
most extensions' run), transforms and post-transforms by ascending
``default_priority``, and links stylesheets by ascending ``add_css_file``
priority (500 by default, Sphinx's own at 200). Our handlers that need no place
of their own are connected without one and run at 500, in the order they are
connected.

Within each event (or kind of transform) the names below are listed in the
order they run; each line says what it must come after or before.
tests/test_priorities.py checks that every priority in the package is one of
these names, that every name is used, that the order written here is the order
they run in, and that docs/architecture.md shows this same table.
"""

from __future__ import annotations

# -- config-inited ------------------------------------------------------------------

#: Validate the playbook_* settings before any handler reads them (Sphinx's 500).
CHECK_CONFIG = 400
#: Add our MyST extensions to myst_enable_extensions before myst_parser reads it (500).
ENABLE_MYST_EXTENSIONS = 400
#: Choose the math renderer after the settings are valid and conf.py's math
#: extensions have registered theirs (500).
CHOOSE_MATH_RENDERER = 600
#: Register the cite roles after the settings are valid (playbook_citations).
ENABLE_CITATIONS = 600
#: The LaTeX macros from playbook_math_macros, once the math settings are final.
LATEX_MACROS = 900

# -- builder-inited -----------------------------------------------------------------

#: Note the builder's facts (theme, format) first: every later handler reads them.
NOTE_BUILD_FACTS = 1
#: Warn about theme options before pydata-sphinx-theme's own handlers (500) use them.
CHECK_THEME_OPTIONS = 400
#: Freeze what the other handlers set up (it lives as long as the build).
FREEZE_LONG_LIVED = 900

# -- env-before-read-docs -----------------------------------------------------------

#: First: a -j build forks its readers next, so a worker pool left by an earlier
#: build ends here.
READING_STARTS = 1
#: Last: the registry notes the pages read, once every handler added its own.
NOTE_PAGES_READ = 900

# -- doctree-read -------------------------------------------------------------------

#: After Sphinx's collectors (500) made image URIs relative to the source folder.
COLLECT_PREVIEWS = 600

# -- env-updated --------------------------------------------------------------------

#: First: reading is over, noted before any handler sends work to the workers.
READING_ENDS = 1

# -- env-get-updated ----------------------------------------------------------------

#: The pages that link a site-wide file whose checksum changes, noted in the registry
#: (machinery/linked_assets.py), after every feature (500) declared the files it
#: makes before the pages.
STALE_LINKS = 800
#: The dependency registry's pages to write, after Sphinx's TocTreeCollector (500)
#: numbered sections and figures and after every feature noted its facts.
PAGES_TO_WRITE = 900

# -- write-started ------------------------------------------------------------------

#: Last: a -j build forks its writers next, so the worker pool ends here.
WRITING_STARTS = 999

# -- html-collect-pages -------------------------------------------------------------

#: After the math assets and caches are written into the cache folder (500).
KEEP_CACHE_OUT_OF_EPUB = 900

# -- html-page-context --------------------------------------------------------------

#: The theme options into the context before pydata-sphinx-theme's handlers (500).
OPTIONS_CONTEXT = 400
#: After pydata-sphinx-theme (500) placed its search button: keep one.
ONE_SEARCH_BUTTON = 600
#: After every other handler added or removed the page's stylesheets and scripts.
NOTE_LINKED_FILES = 900
#: The title cut from the body last: every other handler reads it with its heading.
CUT_LIFTED_TITLE = 950
#: After the body is final (the title cut): its style attributes moved to the page's
#: stylesheet, so that a strict Content-Security-Policy applies it (csp.py).
MOVE_STYLE_ATTRIBUTES = 960
#: Last: the stylesheets and scripts the page links, as its template writes them
#: (machinery/linked_assets.py).
NOTE_PAGE_LINKS = 990

# -- build-finished -----------------------------------------------------------------

#: After every handler that writes files (leftovers, search index, static pruning).
PRECOMPRESS = 900
#: myst-nb's stylesheet, written at build-finished (500), named as a late file
#: (notebooks/__init__.py) before the late files are noted.
NOTE_NOTEBOOK_STYLES = 940
#: The pages' links noted (machinery/linked_assets.py) after every handler that writes
#: files, precompression included: a file written after the pages is late.
NOTE_LATE_FILES = 950
#: Last: the worker pool ends when nothing can send it work any more.
BUILD_ENDS = 999

# -- transforms (read phase) --------------------------------------------------------

#: A notebook cell's legend and label make its output a figure, before Sphinx's
#: AutoNumbering (210) numbers figures.
NOTEBOOK_CELLS = 200
#: Block + legend joined into one figure before Sphinx's AutoNumbering (210).
JOIN_FIGURE_LEGENDS = 205
#: A reST page's leading field list, before docutils' DocInfo (340) converts it.
READ_DOCINFO_FIELDS = 330
#: LaTeX: the text and images of raw HTML added for the PDF, before doctree-read,
#: where Sphinx's ImageCollector registers every image (its transforms need none of them).
RAW_HTML_FOR_PAPER = 400
#: HTML: a raw block's local <img> made an image node, after RAW_HTML_FOR_PAPER read
#: the block whole, before doctree-read (ImageCollector registers the image).
RAW_HTML_IMAGES = 410

# -- post-transforms (write phase) --------------------------------------------------

#: Builders without frames: a notebook's Plotly output becomes its figure before
#: myst-nb's SelectMimeType (4) would choose its text/plain.
CHOOSE_NOTEBOOK_FIGURES = 3
#: A notebook figure's caption moved into the figure its output became, after
#: myst-nb's SelectMimeType (4) chose the output; before the cards and frames.
JOIN_NOTEBOOK_FIGURES = 100
#: Cards on links after Sphinx's ReferencesResolver (10) made them references;
#: before SizeImages sizes the cards' images and citations are numbered.
ADD_PREVIEWS = 190
#: LaTeX: SVG to PDF after Sphinx's ImageDownloader (100) and DataURIExtractor (150)
#: made files of remote and data: images, before sphinx.ext.imgconverter (200), which
#: would make a PNG of it.
SVG_TO_PDF = 190
#: LaTeX: a GIF or WebP as a PNG of its still frame, with SVG_TO_PDF and for the
#: same reason: before sphinx.ext.imgconverter (200).
STILL_FRAME_TO_PNG = 190
#: Light and dark images paired before the wide-image band and SizeImages.
DARK_VARIANTS = 195
#: The title block's heading marked (HTML article builders).
LIFT_ARTICLE_TITLE = 200
#: The directives' containers swapped for <aside>, the band and the column grid.
HTML_COMPONENTS = 200
#: After DarkVariants and the band, which it leaves alone; before SizeImages.
TRANSPARENT_BACKDROPS = 205
#: An interactive figure's frame before its fallback image is sized.
INTERACTIVE_FRAMES = 205
#: Every plain local image written with its size: after every image is in place.
SIZE_IMAGES = 210
#: LaTeX: after sphinx.ext.imgconverter (200) converted images.
PAPER_LAYOUT = 250
#: LaTeX: a page's formulas after imgconverter (200), with the layout.
PAPER_MATH = 250
#: After the cards, so that a card never numbers a citation of its own.
NUMBER_CITATIONS = 300
#: The appendix assembles the numbered citations' reference list and the footnotes.
BUILD_APPENDIX = 310
#: Last: the thumbnail of the final page copied into _images/.
COPY_THUMBNAIL = 900

# -- stylesheets (add_css_file) ------------------------------------------------------

#: The code colours where Sphinx's pygments.css was (Sphinx's own are at 200).
PYGMENTS_STYLESHEET = 200
#: KaTeX's or Temml's stylesheet before the theme's and others' (500).
MATH_STYLESHEET = 300
#: The print stylesheet after every other: it adjusts them on paper.
PRINT_STYLESHEET = 900
