"""The article's files and URLs: found, resolved, copied, published with the page.

A published article names files its HTML never does (a script preloading frames
by name), so the whole folder beside ``index.html`` is carried into
``OUT/_published`` and published at the site's root by ``html_extra_path``: every
relative URL the kept HTML, its scripts and stylesheets use stays valid, under a
sub-path and in dirhtml alike. Files a converted construct names (a figure's
image, a fragment) are also copied at their relative path in OUT, where MyST
reads them. What the page loads is checked: a local URL that names no file is
reported, never left to 404 silently.
"""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup, Tag

from .report import Report

IMAGE_SUFFIXES = (".png", ".svg", ".jpg", ".jpeg", ".gif", ".webp")
#: The folder of OUT holding the article's published files (``html_extra_path``).
PUBLISHED = "_published"
#: Attributes through which raw HTML can load a file of the article.
_REFERENCE_ATTRIBUTES = ("src", "href", "data", "poster", "xlink:href", "srcset")
#: Never carried: version control, dependencies, build output, the system's litter.
_SKIPPED_PARTS = {".git", "node_modules", "_build", "__pycache__", ".DS_Store"}
#: Names Sphinx writes at the root of the site; an article file there would clash.
_SPHINX_NAMES = {"index.html", "genindex.html", "search.html", "searchindex.js", "objects.inv",
                 "_static", "_images", "_sources", "_interactive", ".buildinfo"}  # fmt: skip
_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
_CSS_IMPORT = re.compile(r"""@import\s+(['"])([^'"]+)\1""")
_JS_IMPORT = re.compile(
    r"""(?:\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?|\bexport\s*[\w*{}\s,$]+\s*from\s*|"""
    r"""\bimport\s*\(\s*)(['"])(\.{0,2}/[^'"\s]+\.(?:m?js|json|css|wasm))\1"""
)
_ABOVE_ROOT = re.compile(r"""(['"`])((?:\.\./)+[^'"`\s]+\.\w{2,5})\1""")
#: A script's text that is data, not code (front matter, bibliography, configuration).
DATA_SCRIPT_TYPES = ("text/front-matter", "text/json", "application/json", "text/bibtex",
                     "text/bibliography", "application/ld+json", "text/x-mathjax-config",
                     "math/tex", "text/template", "text/x-template")  # fmt: skip


def is_code_script(element: Tag) -> bool:
    """Whether a ``<script>`` runs (no type, a JavaScript type, or a module)."""
    kind = str(element.get("type") or "").strip().lower().split(";")[0]
    return kind in {"", "module", "text/javascript", "application/javascript", "text/ecmascript"}


def is_remote(reference: str) -> bool:
    parts = urlsplit(reference)
    return bool((parts.scheme and parts.scheme not in {"file"}) or parts.netloc)


class Assets:
    """Maps each file the article uses to its path in OUT, and copies them."""

    def __init__(self, root: Path, report: Report, html_path: Path | None = None) -> None:
        self.root = root.resolve()
        self.report = report
        self.html_path = (html_path or root / "index.html").resolve()
        self.copies: dict[Path, str] = {}
        self._script_text: str | None = None
        #: (reference, line, what names it) of each local URL naming no file
        self.missing: list[tuple[str, int | None, str]] = []
        #: (reference, line, script) of each "../" URL in a script that climbs above the root
        self.above_root: list[tuple[str, int | None, str]] = []
        self.checked: set[Path] = set()

    # -- URLs ------------------------------------------------------------------------

    def local(self, reference: str, base: Path | None = None) -> Path | None:
        """The existing file a local URL names, or None (another site, a missing file).

        Relative URLs resolve against ``base`` (the page's folder by default),
        root-absolute ones (``/assets/x.png``) against the article's folder, which is
        the site root where it was published; query strings and fragments are ignored.
        """
        parts = urlsplit(reference.strip())
        if parts.scheme or parts.netloc or not parts.path:
            return None
        path_text = unquote(parts.path)
        if path_text.startswith("/"):
            path = (self.root / path_text.lstrip("/")).resolve()
        else:
            path = ((base or self.html_path.parent) / path_text).resolve()
            if not path.is_relative_to(self.root):
                # Above the site's root a browser stays at the root: /../x is /x.
                path = (self.root / self._clamped(path_text, base)).resolve()
        return path if path.is_file() else None

    def _clamped(self, path_text: str, base: Path | None) -> str:
        """``path_text`` from the article's root, with the ``..`` above the root dropped."""
        folder = (base or self.html_path.parent).resolve()
        start = (
            PurePosixPath(*folder.relative_to(self.root).parts)
            if folder.is_relative_to(self.root)
            else PurePosixPath()
        )
        joined = posixpath.normpath(posixpath.join(start.as_posix(), path_text))
        return re.sub(r"^(\.\./)+", "", joined)

    def relative(self, reference: str) -> str:
        """``reference`` written relative to the page, so it works under any sub-path:
        root-absolute URLs, and ``../`` that climbed above the original site's root."""
        parts = urlsplit(reference.strip())
        path = self.local(reference)
        if path is None or not path.is_relative_to(self.root):
            return reference
        escapes = not parts.path.startswith("/") and not (
            (self.html_path.parent / unquote(parts.path)).resolve().is_relative_to(self.root)
        )
        if not parts.path.startswith("/") and not escapes:
            return reference
        relative = PurePosixPath(*path.relative_to(self.root).parts).as_posix()
        return (
            relative
            + (f"?{parts.query}" if parts.query else "")
            + (f"#{parts.fragment}" if parts.fragment else "")
        )

    def file(self, reference: str, line: int | None) -> str:
        """The path to write for ``reference``; the file is copied when it exists."""
        parts = urlsplit(reference)
        if parts.scheme or parts.netloc:
            return reference
        path = self.local(reference)
        if path is None:
            self.report.doubt("file", line, f"{reference!r} does not exist in the article")
            return unquote(parts.path).lstrip("/")
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

    # -- raw HTML and what it loads ----------------------------------------------------

    def referenced_by(self, node: Tag) -> None:
        """Check the local files raw HTML loads; root-absolute URLs become relative."""
        for element in [node, *node.find_all(True)]:
            for attribute in _REFERENCE_ATTRIBUTES:
                value = element.get(attribute)
                if isinstance(value, str) and value.strip():
                    self._attribute(element, attribute, value)
            if element.name == "style" and element.string:
                self.check_css(element.string, self.html_path.parent, element.sourceline)
            if element.name == "script" and is_code_script(element) and element.string:
                self.check_js(element.string, self.html_path.parent, element.sourceline)
            style = element.get("style")
            if isinstance(style, str) and "url(" in style:
                self.check_css(style, self.html_path.parent, element.sourceline)

    def _attribute(self, element: Tag, attribute: str, value: str) -> None:
        """Check the URLs of one attribute (a srcset holds several); make it relative."""
        references = (
            [item.split()[0] for item in value.split(",") if item.split()]
            if attribute == "srcset"
            else [value]
        )
        # A link is followed, not loaded: a page of the old site is no 404 here.
        if element.name not in {"a", "area"} or attribute != "href":
            for reference in references:
                self.check(reference, element.sourceline, f"<{element.name} {attribute}>")
        if attribute != "srcset":
            element[attribute] = self.relative(value)

    def check(self, reference: str, line: int | None, what: str, base: Path | None = None) -> None:
        """Record a local URL that names no file; follow the stylesheets and scripts it names."""
        parts = urlsplit(reference.strip())
        if (
            is_remote(reference)
            or not parts.path
            or parts.scheme in {"data", "mailto", "javascript", "blob"}
            or reference.strip().startswith("#")
        ):
            return
        path = self.local(reference, base)
        if path is None:
            self.missing.append((reference.strip(), line, what))
            return
        if path in self.checked or not path.is_relative_to(self.root):
            return
        self.checked.add(path)
        suffix = path.suffix.lower()
        try:
            if suffix == ".css":
                self.check_css(path.read_text("utf-8", errors="replace"), path.parent, None, path)
            elif suffix in {".js", ".mjs"}:
                self.check_js(path.read_text("utf-8", errors="replace"), path.parent, None, path)
        except OSError:
            return

    def check_css(self, css: str, base: Path, line: int | None, origin: Path | None = None) -> None:
        what = f"url() in {self._name(origin)}" if origin else "url() in a style"
        for pattern in (_CSS_URL, _CSS_IMPORT):
            for match in pattern.finditer(css):
                self.check(match.group(2), line, what, base)

    def check_js(self, code: str, base: Path, line: int | None, origin: Path | None = None) -> None:
        """Follow ``import``/``export from``/``import()`` of local modules."""
        what = f"import in {self._name(origin)}" if origin else "import in a script"
        for match in _JS_IMPORT.finditer(code):
            self.check(match.group(2), line, what, base)
        # URLs a script fetches are relative to the page; "../" above the original site's
        # root stayed at its root there, but leaves the project under a sub-path.
        where = self._name(origin) if origin else "a script"
        for match in _ABOVE_ROOT.finditer(code):
            reference = match.group(2)
            above = not (self.html_path.parent / reference).resolve().is_relative_to(self.root)
            if above and self.local(reference) is not None:
                self.above_root.append((reference, line, where))

    def _name(self, path: Path) -> str:
        return PurePosixPath(*path.relative_to(self.root).parts).as_posix()

    def script_text(self, soup: BeautifulSoup) -> str:
        """All the code and styles of the page (inline and local files), for its ids."""
        if self._script_text is None:
            texts = []
            for element in soup.find_all(["script", "style", "link"]):
                if element.name == "script" and not is_code_script(element):
                    continue
                if element.name == "link" and "stylesheet" not in str(element.get("rel")):
                    continue
                texts.append(element.string or "")
                path = self.local(str(element.get("src") or element.get("href") or ""))
                if path is not None and path.stat().st_size < 20_000_000:
                    texts.append(path.read_text("utf-8", errors="replace"))
            self._script_text = "\n".join(texts)
        return self._script_text

    def script_names(self, soup: BeautifulSoup, name: str) -> bool:
        """Whether a script or stylesheet of the page names ``name`` as an id or class."""
        if len(name) < 2:
            return False
        pattern = rf"""(?:["'#.]){re.escape(name)}(?=["'\s.,:\[\])>+~])"""
        return re.search(pattern, self.script_text(soup)) is not None

    # -- copying ------------------------------------------------------------------------

    def _place(self, path: Path) -> str:
        if path not in self.copies:
            if path.is_relative_to(self.root):
                target = PurePosixPath(*path.relative_to(self.root).parts).as_posix()
            else:
                target = f"_assets/{path.name}"
            self.copies[path] = target
        return self.copies[path]

    def published_files(self) -> list[Path]:
        """Every file of the article's folder that is published beside the page."""
        files = []
        for path in sorted(self.root.rglob("*")):
            relative = path.relative_to(self.root)
            if not path.is_file() or path.resolve() == self.html_path:
                continue
            if _SKIPPED_PARTS & set(relative.parts) or any(
                part.startswith(".") for part in relative.parts
            ):
                continue
            files.append(path)
        return files

    def copy_to(self, out: Path) -> int:
        """Copy the converted constructs' files and publish the folder; the files published."""
        for path, target in sorted(self.copies.items()):
            destination = out / target
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination)
        published = self.published_files()
        clashes = [p for p in published if p.relative_to(self.root).parts[0] in _SPHINX_NAMES]
        for path in clashes:
            self.report.doubt(
                "published file",
                None,
                f"{self._name(path)} would overwrite what Sphinx writes; not published",
            )
        count = 0
        for path in published:
            if path in clashes:
                continue
            destination = out / PUBLISHED / path.relative_to(self.root)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination)
            count += 1
        if count:
            self.report.found["published file"] += count
            self.report.converted["published file"] += count
        return count

    def report_missing(self, source_name: str) -> None:
        """One grouped line per missing file, with every place that names it."""
        by_reference: dict[str, list[tuple[int | None, str]]] = {}
        for reference, line, what in self.missing:
            by_reference.setdefault(reference, []).append((line, what))
        for reference, places in by_reference.items():
            line = next((place[0] for place in places if place[0]), None)
            whats = sorted({place[1] for place in places})
            self.report.doubt(
                "missing file",
                line,
                f"{reference} is loaded ({', '.join(whats)}) but is not in the article's "
                "folder: it will 404",
            )
        for reference, line, where in dict.fromkeys(self.above_root):
            self.report.doubt(
                "script URL",
                line,
                f"{where} names {reference}, above the site's root (where the original "
                f"site stayed): under a sub-path it misses; write it as "
                f"{self._clamped(reference, None)}",
            )
