"""An article imported with import-distill, on paper: what the Ultra-Scale Playbook's
PDF lacked (a title whose line break joined two words, its code listings from
GitHub missing without a word, its citation printed twice), on the small article
of tests/test_import_distill_playbook.py."""

from __future__ import annotations

import re

import pytest
from helpers import write_project
from test_import_distill_playbook import ARTICLE, BIB, LISTING

from sphinx_playbook.cli import main

from .conftest import Pdf, build_pdf


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Pdf:
    folder = tmp_path_factory.mktemp("imported")
    source = write_project(folder / "article", {"index.html": ARTICLE, "refs.bib": BIB})
    project = folder / "project"
    assert main(["import-distill", str(source), str(project)]) == 0
    return build_pdf(project, folder / "latex", "thescalebooktrainingonmanymachines")


def _text(pdf: Pdf) -> str:
    return re.sub(r"\s+", " ", pdf.text)


def _links(pdf: Pdf) -> list[str]:
    found = []
    for page in pdf.reader.pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A") or {}
            if "/URI" in action:
                found.append(str(action["/URI"]))
    return found


def test_the_title_keeps_its_words_apart(imported: Pdf) -> None:
    title = "The Scale Book: Training on Many Machines"
    assert imported.reader.metadata.title == title
    assert title in _text(imported) and "Book:Training" not in _text(imported)


def test_a_listing_from_github_is_a_note_that_links_it(imported: Pdf) -> None:
    text = _text(imported)
    assert "The code of this listing is on GitHub:" in text
    assert text.find("Paragraph after the code") > text.find("on GitHub:")
    assert LISTING in _links(imported)


def test_the_citation_is_printed_once(imported: Pdf) -> None:
    text = _text(imported)
    assert text.count("please cite this work as") == 1
    assert "scale_book_key" not in text
    assert "Figures are reused from the Picotron repository with permission." in text


def test_the_build_names_no_other_problem(imported: Pdf) -> None:
    assert "WARNING" not in imported.warnings, imported.warnings
