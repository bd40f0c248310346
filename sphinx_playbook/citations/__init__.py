"""Numbered citations with hover cards, from BibTeX files read by pybtex.

``bibliography.py`` reads .bib files, ``roles.py`` is the ``cite`` role,
``collect.py`` records each page's citations while reading, ``render.py``
numbers them and writes the cards and the reference list.
"""
