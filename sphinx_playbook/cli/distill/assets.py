"""The article's files (images, fragments, downloads): found, renamed if needed, copied."""

from __future__ import annotations

import shutil
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from bs4 import Tag

from .report import Report

IMAGE_SUFFIXES = (".png", ".svg", ".jpg", ".jpeg", ".gif", ".webp")
#: Attributes through which raw HTML can load a file of the article.
_REFERENCE_ATTRIBUTES = ("src", "href", "data", "poster", "xlink:href")


class Assets:
    """Maps each file the article uses to its path in OUT, and copies them."""

    def __init__(self, root: Path, report: Report) -> None:
        self.root = root.resolve()
        self.report = report
        self.copies: dict[Path, str] = {}

    def local(self, reference: str) -> Path | None:
        """The existing file a relative URL names, or None (a URL, a missing file)."""
        parts = urlsplit(reference)
        if parts.scheme or parts.netloc or not parts.path:
            return None
        path = (self.root / unquote(parts.path)).resolve()
        return path if path.is_file() else None

    def file(self, reference: str, line: int | None) -> str:
        """The path to write for ``reference``; the file is copied when it exists."""
        parts = urlsplit(reference)
        if parts.scheme or parts.netloc:
            return reference
        path = self.local(reference)
        if path is None:
            self.report.doubt("file", line, f"{reference!r} does not exist in the article")
            return unquote(parts.path)
        return self._place(path)

    def image(self, reference: str, line: int | None) -> str:
        if urlsplit(reference).scheme in {"http", "https"}:
            self.report.doubt(
                "image", line, f"{reference} is loaded from another site; copy it into the project"
            )
            return reference
        return self.file(reference, line)

    def same_stem_image(self, stem: str) -> str | None:
        """A static image named like a fragment (``NAME.png``...), the nearest first."""
        candidates = sorted(
            (
                path
                for path in self.root.rglob(f"{stem}.*")
                if path.suffix.lower() in IMAGE_SUFFIXES and path.is_file()
            ),
            key=lambda path: (len(path.relative_to(self.root).parts), str(path)),
        )
        return self._place(candidates[0].resolve()) if candidates else None

    def referenced_by(self, node: Tag) -> None:
        """Copy the local files that raw HTML loads, at the same relative path."""
        for element in [node, *node.find_all(True)]:
            for attribute in _REFERENCE_ATTRIBUTES:
                value = element.get(attribute)
                if isinstance(value, str) and self.local(value) is not None:
                    path = self.local(value)
                    if path is not None and path.is_relative_to(self.root):
                        self._place(path)

    def _place(self, path: Path) -> str:
        if path not in self.copies:
            if path.is_relative_to(self.root):
                target = PurePosixPath(*path.relative_to(self.root).parts).as_posix()
            else:
                target = f"_assets/{path.name}"
            self.copies[path] = target
        return self.copies[path]

    def copy_to(self, out: Path) -> None:
        for path, target in sorted(self.copies.items()):
            destination = out / target
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination)
