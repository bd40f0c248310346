"""The cache folder beside the doctrees: its format, compiled templates (the math,
font and .bib caches are tested with math and citations)."""

from __future__ import annotations

import shutil
import zipfile

import jinja2
import pytest
from helpers import CONF, read_html, sphinx_build, write_project

import sphinx_playbook.citations.bibliography as bibliography_module
from sphinx_playbook.citations.bibliography import parse_and_keep
from sphinx_playbook.machinery import workers
from sphinx_playbook.machinery.cache import FOLDER, FORMAT
from sphinx_playbook.machinery.templates import _keep_compiled_templates

PAGE_TEMPLATE = """{%% extends "!page.html" %%}
{%% block body %%}<p class="marker">%s</p>{{ super() }}{%% endblock %%}
"""


@pytest.fixture
def project(tmp_path):
    return write_project(
        tmp_path / "source",
        {"index.md": "# Title\n\nSome text.\n", "_templates/page.html": PAGE_TEMPLATE % "first"},
        conf=CONF + 'templates_path = ["_templates"]\n',
    )


def _compiling(monkeypatch) -> list[str]:
    compiled: list[str] = []
    compile_template = jinja2.Environment.compile

    def counting_compile(self, source, name=None, filename=None, *args, **kwargs):
        if name is not None:  # a file, not a string rendered on the fly (no cache for those)
            compiled.append(name)
        return compile_template(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting_compile)
    return compiled


def test_a_rebuild_compiles_only_the_templates_edited_since(
    make_app, project, tmp_path, monkeypatch
):
    compiled = _compiling(monkeypatch)
    build = tmp_path / "build"
    app = make_app("html", srcdir=project, builddir=build, freshenv=True)
    app.build(force_all=True)
    assert "page.html" in compiled and "layout.html" in compiled
    assert read_html(app).select_one(".marker").get_text() == "first"

    compiled.clear()
    app = make_app("html", srcdir=project, builddir=build, freshenv=True)
    app.build(force_all=True)
    assert compiled == [], "every template came compiled from the cache"

    (project / "_templates" / "page.html").write_text(PAGE_TEMPLATE % "second", encoding="utf-8")
    app = make_app("html", srcdir=project, builddir=build, freshenv=True)
    app.build(force_all=True)
    assert compiled == ["page.html"], "the edited template alone is compiled again"
    assert read_html(app).select_one(".marker").get_text() == "second"


def test_an_author_s_own_bytecode_cache_is_left_alone(make_app, project, tmp_path):
    own = jinja2.MemcachedBytecodeCache(client=None)
    app = make_app("html", srcdir=project, builddir=tmp_path / "build", freshenv=True)
    app.builder.templates.environment.bytecode_cache = own
    _keep_compiled_templates(app)  # as if the author's extension had set it first
    assert app.builder.templates.environment.bytecode_cache is own


def test_templates_compiled_by_another_jinja_are_removed(make_app, project, tmp_path):
    doctrees = tmp_path / "build" / "doctrees"
    stale = doctrees / FOLDER / "templates" / "0123456789abcdef"
    stale.mkdir(parents=True)
    (doctrees / FOLDER / "FORMAT").write_text(FORMAT, encoding="utf-8")
    (stale / "__jinja2_old.cache").write_bytes(b"stale")
    app = make_app("html", srcdir=project, builddir=tmp_path / "build", freshenv=True)
    app.build(force_all=True)
    folders = sorted((doctrees / FOLDER / "templates").iterdir())
    assert len(folders) == 1 and folders[0] != stale
    assert list(folders[0].glob("*.cache")), "this build's templates are kept"


def test_an_epub_with_its_doctrees_inside_packs_no_compiled_template(project, tmp_path):
    """``sphinx-build -b epub SRC OUT`` keeps the doctrees in OUT: the EPUB builder
    would pack the .cache files and warn about their type."""
    with (project / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write(  # what Sphinx asks of an EPUB author, its own doctrees included
            'copyright = "2026, A"\nversion = "1"\n'
            'epub_exclude_files = [".doctrees/environment.pickle", ".doctrees/index.doctree"]\n'
        )
    out = tmp_path / "epub"
    for _ in range(2):  # the second build reads the cache the first wrote
        sphinx_build("-W", "-q", "-b", "epub", str(project), str(out))
    assert list((out / ".doctrees" / FOLDER / "templates").glob("*/*.cache"))
    (epub,) = out.glob("*.epub")
    names = zipfile.ZipFile(epub).namelist()
    assert "index.xhtml" in [name.rsplit("/", 1)[-1] for name in names]
    assert not [name for name in names if name.endswith(".cache") or ".doctrees" in name]


def test_a_cache_folder_of_another_format_is_emptied(make_app, project, tmp_path):
    doctrees = tmp_path / "build" / "doctrees"
    old = doctrees / FOLDER / "written-by-another-layout.bin"
    old.parent.mkdir(parents=True)
    old.write_bytes(b"written by another layout")
    (doctrees / FOLDER / "FORMAT").write_text("0", encoding="utf-8")
    app = make_app("html", srcdir=project, builddir=tmp_path / "build", freshenv=True)
    app.build(force_all=True)
    assert (doctrees / FOLDER / "FORMAT").read_text(encoding="utf-8") == FORMAT
    assert not old.exists()
    assert read_html(app).select_one(".marker").get_text() == "first"


def _recording_bib_parses(monkeypatch) -> list[str]:
    """The .bib files parsed, in a worker or in this process."""
    parsed: list[str] = []
    submit, read = workers.submit, bibliography_module.read_bibliography

    def recording_submit(app, function, *arguments):
        if function is parse_and_keep:
            parsed.append(arguments[0].name)
        return submit(app, function, *arguments)

    def recording_read(path):
        parsed.append(path.name)
        return read(path)

    monkeypatch.setattr(workers, "submit", recording_submit)
    monkeypatch.setattr(bibliography_module, "read_bibliography", recording_read)
    return parsed


def test_an_unchanged_bib_file_is_parsed_once(make_app, rootdir, tmp_path, monkeypatch):
    """A second build (a new application: a fresh environment, nothing in memory)
    takes the parsed entries from the cache folder; an edited file is parsed again."""
    source = tmp_path / "source"
    shutil.copytree(rootdir / "test-citations", source)
    parsed = _recording_bib_parses(monkeypatch)
    pages = []
    for _ in range(2):
        app = make_app("html", srcdir=source, builddir=tmp_path / "build", freshenv=True)
        app.build(force_all=True)
        pages.append(read_html(app).select_one(".pb-body").decode())
        if len(pages) == 1:
            assert parsed, "the first build parsed the .bib file"
            first, parsed[:] = list(parsed), []
    assert parsed == [], f"parsed again: {parsed}"
    assert pages[0] == pages[1]
    bib = next(source.glob("*.bib"))
    bib.write_text(
        bib.read_text(encoding="utf-8") + "\n@misc{added, title={Added}}\n", encoding="utf-8"
    )
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", freshenv=True)
    app.build(force_all=True)
    assert parsed == [bib.name], "the edited file was parsed again"
    kept = list((tmp_path / "build" / "doctrees" / FOLDER / "bib").glob("*.pickle"))
    assert len(kept) == len(first), "the entries of the file before the edit were dropped"
