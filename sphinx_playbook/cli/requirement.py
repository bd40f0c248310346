"""The requirements.txt line that installs sphinx-playbook as it is installed here.

pip records how a distribution was installed in its ``direct_url.json`` (PEP 610):
from a VCS at a commit, from an archive URL, or from a local folder or file; an
install from an index writes none. ``sphinx-playbook new`` writes the line that
gives Read the Docs and CI the same code, or, when the install came from a path
they cannot reach, the released version and a comment saying what to write instead.
"""

from __future__ import annotations

import json
from importlib import metadata
from typing import Any
from urllib.parse import urlsplit

DISTRIBUTION = "sphinx-playbook"
#: What a book installs: with the ``pdf`` extra, so that its PDF (Read the Docs'
#: ``formats: [pdf]``, ``make latexpdf``) shows its SVG figures; a book with
#: notebooks adds the ``notebooks`` extra (myst-nb).
EXTRAS = ("pdf",)
NOTEBOOK_EXTRAS = ("pdf", "notebooks")
#: What to write instead of a local path: a pushed commit of a repository.
GIT_EXAMPLE = "@ git+https://github.com/OWNER/REPOSITORY@COMMIT"

#: What a notebook of the book imports, and the kernel that runs it: for running it
#: in Jupyter, and for builds with ``nb_execution_mode = "cache"`` or ``"force"``.
NOTEBOOK_LINES = (
    "# The notebooks' libraries, and the Jupyter kernel that runs them (ipykernel):",
    "# what running a notebook needs, in Jupyter or in a build that executes it.",
    "# kaleido stores each Plotly figure's PNG (it needs Chrome or Chromium).",
    "ipykernel>=6",
    "plotly>=6.1",
    "kaleido>=1",
    "matplotlib>=3.8",
)


def requirement_lines(
    direct_url: str | None, version: str, extras: tuple[str, ...] = EXTRAS
) -> list[str]:
    """The lines of requirements.txt for an install described by ``direct_url``
    (the text of ``direct_url.json``, None when there is none) at ``version``,
    with ``extras``."""
    requirement = f"{DISTRIBUTION}[{','.join(extras)}]"
    released = f"{requirement}>={version}"
    record = _parse(direct_url)
    if record is None:
        return [released]
    url = record["url"]
    local = urlsplit(url).scheme == "file"
    vcs_info = record.get("vcs_info")
    if isinstance(vcs_info, dict) and not local:
        vcs, commit = vcs_info.get("vcs"), vcs_info.get("commit_id")
        if isinstance(vcs, str) and isinstance(commit, str) and vcs and commit:
            line = f"{requirement} @ {vcs}+{url}@{commit}"
            subdirectory = record.get("subdirectory")
            if isinstance(subdirectory, str) and subdirectory:
                line += f"#subdirectory={subdirectory}"
            return [line]
        return [released]
    archive_info = record.get("archive_info")
    if isinstance(archive_info, dict) and not local:
        return [f"{requirement} @ {url}{_hash_fragment(archive_info)}"]
    if not local:
        return [released]
    what = "file" if isinstance(record.get("archive_info"), dict) else "folder"
    return [
        f"# {DISTRIBUTION} was installed from a local {what}, which Read the Docs and CI",
        "# cannot reach: the line below asks for the released version. To build with",
        "# your own code, push it and write instead:",
        f"# {requirement} {GIT_EXAMPLE}",
        released,
    ]


def installed_requirement_lines(extras: tuple[str, ...] = EXTRAS) -> list[str]:
    """:func:`requirement_lines` for the sphinx-playbook that runs this code."""
    from .. import __version__

    try:
        direct_url = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:  # run from a source tree, not installed
        direct_url = None
    return requirement_lines(direct_url, __version__, extras)


def _parse(direct_url: str | None) -> dict[str, Any] | None:
    """The record, when it is one PEP 610 describes; else None (read as an index install)."""
    if not direct_url:
        return None
    try:
        record = json.loads(direct_url)
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        return None
    return record


def _hash_fragment(archive_info: dict[str, Any]) -> str:
    """``#sha256=...``: pip then checks the archive it downloads is the one installed here."""
    hashes = archive_info.get("hashes")
    if isinstance(hashes, dict) and hashes:
        name = "sha256" if "sha256" in hashes else sorted(hashes)[0]
        return f"#{name}={hashes[name]}"
    legacy = archive_info.get("hash")  # "sha256=<hex>", the field before "hashes"
    if isinstance(legacy, str) and "=" in legacy:
        return f"#{legacy}"
    return ""
