"""Build a project with Sphinx's LaTeX builder and compile it as Read the Docs does."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import sphinx_build
from pypdf import PdfReader

ROOTS = Path(__file__).parent.parent / "roots"
REPO = Path(__file__).parent.parent.parent


@dataclass
class Fragment:
    """A run of text as the PDF draws it; ``x``, ``y`` from the page's bottom left."""

    text: str
    x: float
    y: float


@dataclass
class Pdf:
    path: Path
    tex: str  # the .tex Sphinx wrote
    warnings: str  # what sphinx-build printed on stderr
    reader: PdfReader

    def page_text(self, index: int) -> str:
        return self.reader.pages[index].extract_text()

    @property
    def text(self) -> str:
        return "\n".join(page.extract_text() for page in self.reader.pages)

    def fragments(self, index: int) -> list[Fragment]:
        found: list[Fragment] = []

        def visit(text: str, cm: list[float], tm: list[float], *_: object) -> None:
            if text.strip():
                # The text matrix in user space: tm multiplied by the current matrix.
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                found.append(Fragment(text, x, y))

        self.reader.pages[index].extract_text(visitor_text=visit)
        return found

    def image_count(self, index: int) -> int:
        """Raster images drawn on the page (image XObjects, inside forms too)."""

        def count(resources: object) -> int:
            xobjects = resources.get("/XObject", {}) if resources else {}  # type: ignore[attr-defined]
            total = 0
            for reference in xobjects.values():
                xobject = reference.get_object()
                if xobject.get("/Subtype") == "/Image":
                    total += 1
                elif xobject.get("/Subtype") == "/Form":
                    total += count(xobject.get("/Resources"))
            return total

        return count(self.reader.pages[index].get("/Resources"))

    def find(self, needle: str) -> tuple[int, Fragment]:
        """The page and the first fragment that contains ``needle``."""
        for index in range(len(self.reader.pages)):
            for fragment in self.fragments(index):
                if needle in fragment.text:
                    return index, fragment
        raise AssertionError(f"{needle!r} is not in the PDF")


def latexmk(outdir: Path, name: str) -> Path:
    """``latexmk -r latexmkrc -pdf`` in the build's folder (Read the Docs' command);
    a LaTeX error fails the test with the end of LaTeX's log."""
    assert shutil.which("latexmk"), "latexmk and TeX Live are needed: .ci/run installs them"
    result = subprocess.run(
        [
            "latexmk",
            "-r",
            "latexmkrc",
            "-pdf",
            "-interaction=nonstopmode",
            "-halt-on-error",
            f"{name}.tex",
        ],
        cwd=outdir,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    return outdir / f"{name}.pdf"


def build_pdf(source: Path, outdir: Path, name: str, *options: str) -> Pdf:
    """``sphinx-build -b latex`` then latexmk; the PDF read back."""
    result = sphinx_build("-q", "-b", "latex", *options, str(source), str(outdir))
    pdf = latexmk(outdir, name)
    tex = (outdir / f"{name}.tex").read_text(encoding="utf-8")
    return Pdf(pdf, tex, result.stderr, PdfReader(pdf))


@pytest.fixture(scope="module")
def paper_book(tmp_path_factory: pytest.TempPathFactory) -> Pdf:
    """The fixture book (a MyST article and a reST chapter), with -W."""
    outdir = tmp_path_factory.mktemp("paper")
    return build_pdf(ROOTS / "test-paper", outdir, "paper", "-W")
