"""Math rendered when the site is built: no CDN, no script, complete with JavaScript off.

``playbook_math = "katex"`` (the default) writes KaTeX's HTML and MathML for every
formula; ``"mathml"`` writes Temml's MathML Core, drawn with the reader's math
font; ``"off"`` leaves ``html_math_renderer`` to the author (MathJax, say). EPUB
always gets MathML. LaTeX keeps Sphinx's native math and text shows the TeX:
only HTML builders use this renderer.

- :mod:`.collect`: each page's formulas, found when it is read;
- :mod:`.site`: rendered by worker processes while Sphinx reads, all ready at
  write-started; :mod:`.cache` keeps them between builds, by content hash;
- :mod:`.assets`: the stylesheet and the fonts, cut to what the site draws
  (:mod:`.fonts`), written before any page;
- :mod:`.html`: the translator's visitors and each page's links;
- :mod:`.renderers` and :mod:`.engines`: KaTeX and Temml in QuickJS or V8.
"""
