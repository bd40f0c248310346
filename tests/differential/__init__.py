"""The randomized differential test: an incremental build equals a fresh build.

``book.py`` generates a multi-page book and the edits an author makes to it,
``harness.py`` builds, compares and reports, ``__main__.py`` is the command line
(``python -m tests.differential --help``), and ``tests/test_differential.py`` the
bounded run for CI.
"""
