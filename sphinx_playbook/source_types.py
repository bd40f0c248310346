"""Which sources are MyST Markdown text, whichever extension reads them.

myst_parser registers ``.md`` as the ``markdown`` file type; myst-nb registers it
(and ``.ipynb``) as ``myst-nb``. A ``.md`` file is Markdown text with YAML front
matter under either; a notebook is JSON, its metadata read by myst-nb.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

#: File types whose ``.md`` sources are MyST text.
MARKDOWN_FILE_TYPES = frozenset({"markdown", "myst-nb"})


def is_markdown_source(app: Sphinx, path: str | Path) -> bool:
    """Whether ``path`` is read as MyST Markdown text (front matter and all)."""
    suffix = Path(path).suffix
    file_type = app.config.source_suffix.get(suffix)
    if file_type == "markdown":
        return True
    return file_type in MARKDOWN_FILE_TYPES and suffix == ".md"
