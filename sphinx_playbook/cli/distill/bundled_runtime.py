"""Distill's template bundled into an article's own script (``distill.bundle.js``).

The import leaves out Distill's runtime (``template.v2.js``): the theme draws what it
drew. An article built with a bundler ships the same runtime under a name of its own,
which the import kept. Run on our page it does harm: it injects Distill's stylesheet
after the first paint (``html { font-size: 14px }`` below 768 px), so on a phone every
``rem`` of the theme shrinks and the page jumps (a layout shift of 0.19 on the
Ultra-Scale Playbook), and it loads a stylesheet the article does not have (a 404).
A script is taken for this runtime by what it defines, not by its name.
"""

from __future__ import annotations

from pathlib import Path

#: Custom elements only Distill's template defines (the article's own are other names).
DISTILL_ELEMENTS = ("d-front-matter", "d-byline", "d-footnote-list", "d-citation-list")


def bundles_distill_runtime(path: Path | None) -> bool:
    """Whether the local script at ``path`` defines Distill's template elements."""
    if path is None or path.suffix.lower() not in (".js", ".mjs"):
        return False
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "customElements.define" in text and all(
        f'"{name}"' in text or f"'{name}'" in text for name in DISTILL_ELEMENTS
    )
