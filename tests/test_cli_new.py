"""``sphinx-playbook new``: the book in a folder of its own, the repository's files beside
it (README, requirements, CI with GitHub Pages, Read the Docs, CITATION.cff,
.gitignore), the requirement that reproduces this install; ``--version``, and the
release workflow that checks a tag against that version.

The builds of the scaffold, and what its pages show, are in test_scaffold_builds.py."""

from __future__ import annotations

import datetime
import io
import json
import os
import runpy
import shlex
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from helpers import REPO
from packaging.requirements import Requirement

from sphinx_playbook import __version__
from sphinx_playbook.cli import main
from sphinx_playbook.cli.new import create_project
from sphinx_playbook.cli.requirement import NOTEBOOK_EXTRAS, requirement_lines

ROOT_FILES = {
    "README.md", "requirements.txt", ".readthedocs.yaml", ".github/workflows/build.yml",
    ".gitignore", "CITATION.cff",
}  # fmt: skip
BOOK_FILES = {"conf.py", "references.bib", "images/band.png"}


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("new") / "my playbook"
    stdout = io.StringIO()
    create_project(
        root, title="Training on one GPU", authors=["Ada Lovelace", "Ludwig van Beethoven"],
        affiliation="Analytical Engine Lab", stdout=stdout, today=datetime.date(2025, 2, 19),
    )  # fmt: skip
    return root, stdout.getvalue()


def test_version_is_the_package_version():
    """The installed command, as a user runs it."""
    # The environment's scripts folder (sphinx-playbook.exe in Scripts on Windows).
    command = shutil.which("sphinx-playbook", path=sysconfig.get_path("scripts"))
    assert command is not None, "the sphinx-playbook command is installed"
    result = subprocess.run([command, "--version"], capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout) == (0, f"sphinx-playbook {__version__}\n")


RELEASE = REPO / ".github" / "workflows" / "release.yml"


def test_release_runs_on_version_tags_and_publishes_with_trusted_publishing():
    workflow = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    assert workflow.get("on", workflow.get(True)) == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    dist, publish = workflow["jobs"]["dist"], workflow["jobs"]["publish"]
    assert "bash scripts/check_wheel.sh dist" in [step.get("run") for step in dist["steps"]]
    assert (REPO / "scripts" / "check_wheel.sh").is_file()
    assert publish["needs"] == "dist"
    assert publish["permissions"] == {"id-token": "write"}
    assert [step["uses"].split("@")[0] for step in publish["steps"]] == [
        "actions/download-artifact", "pypa/gh-action-pypi-publish"
    ]  # fmt: skip
    assert "with" not in publish["steps"][-1]  # the default index, and no stored token


@pytest.mark.skipif(os.name == "nt", reason="GitHub runs this step on Linux, in bash")
@pytest.mark.parametrize(
    ("tag", "passes"), [(f"v{__version__}", True), ("v999.0.0", False), (__version__, False)]
)
def test_release_refuses_a_tag_that_is_not_the_version(tag, passes):
    """The workflow's own check, run as GitHub runs it (bash, with GITHUB_REF_NAME)."""
    steps = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))["jobs"]["dist"]["steps"]
    (check,) = [step for step in steps if step.get("name") == "The tag names the package's version"]
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    environment = {**os.environ, "GITHUB_REF_NAME": tag, "PATH": path}
    result = subprocess.run(
        ["bash", "-e", "-c", check["run"]], cwd=REPO, env=environment, capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    assert (result.returncode == 0) is passes
    if not passes:
        assert result.stdout.startswith(f"::error::the tag is {tag} but ")


@pytest.mark.parametrize("source_format", ["md", "rst"])
def test_the_book_has_a_folder_of_its_own(tmp_path, source_format):
    assert main(["new", str(tmp_path / "p"), "--format", source_format]) == 0
    pages = {f"index.{source_format}", f"chapter-2.{source_format}"}
    assert _files(tmp_path / "p") == ROOT_FILES | {f"book/{name}" for name in BOOK_FILES | pages}


def test_notebooks_add_a_notebook_chapter_and_myst_nb(tmp_path):
    root = tmp_path / "p"
    assert main(["new", str(root), "--notebooks"]) == 0
    pages = {"index.md", "chapter-2.md", "figures.ipynb"}
    assert _files(root) == ROOT_FILES | {f"book/{name}" for name in BOOK_FILES | pages}
    conf = runpy.run_path(str(root / "book" / "conf.py"))
    assert conf["extensions"] == ["sphinx_playbook", "myst_nb"]
    assert conf["nb_execution_mode"] == "off"
    toctree = (root / "book" / "index.md").read_text(encoding="utf-8").split("```{toctree}")[1]
    assert toctree.split("\n")[3:5] == ["chapter-2", "figures"]
    assert "`book/figures.ipynb`" in (root / "README.md").read_text(encoding="utf-8")
    notebook = json.loads((root / "book" / "figures.ipynb").read_text(encoding="utf-8"))
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"


def test_notebooks_in_a_rest_book(tmp_path):
    """The notebook chapter is listed in the reST toctree, indented under it."""
    root = tmp_path / "p"
    assert main(["new", str(root), "--notebooks", "--format", "rst"]) == 0
    lines = (root / "book" / "index.rst").read_text(encoding="utf-8").splitlines()
    assert lines[-2:] == ["   chapter-2", "   figures"]
    assert (root / "book" / "figures.ipynb").is_file()


def test_without_notebooks_no_myst_nb(generated):
    conf = runpy.run_path(str(generated[0] / "book" / "conf.py"))
    assert conf["extensions"] == ["sphinx_playbook"]
    assert "nb_execution_mode" not in conf


def test_the_message_gives_the_documented_command(generated):
    root, output = generated
    readme = (root / "README.md").read_text(encoding="utf-8")
    command = "sphinx-build -W -b html book _build/html"
    assert f"```console\npip install -r requirements.txt\n{command}\n```" in readme
    assert output.splitlines() == [
        f"Created {root}, the book in {root / 'book'}. Preview it with:",
        f"  cd {shlex.quote(str(root))} && {command}",
    ]


def test_gitignore_keeps_the_build_and_environments_out(generated):
    lines = (generated[0] / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if not line.startswith("#")] == [
        "_build/",
        ".venv/",
        "__pycache__/",
    ]


def test_readthedocs_settings(generated):
    root = generated[0]
    readthedocs = yaml.safe_load((root / ".readthedocs.yaml").read_text(encoding="utf-8"))
    assert readthedocs["version"] == 2
    assert readthedocs["sphinx"] == {"configuration": "book/conf.py", "fail_on_warning": True}
    assert (root / readthedocs["sphinx"]["configuration"]).is_file()
    assert readthedocs["python"]["install"] == [{"requirements": "requirements.txt"}]
    assert set(readthedocs["build"]["tools"]) == {"python"}


def test_the_workflow_builds_everywhere_and_deploys_from_the_default_branch(generated):
    workflow = yaml.safe_load(
        (generated[0] / ".github" / "workflows" / "build.yml").read_text(encoding="utf-8")
    )
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare on as true
    assert set(triggers) == {"push", "pull_request"}
    assert workflow["permissions"] == {"contents": "read"}
    html, deploy = workflow["jobs"]["html"], workflow["jobs"]["deploy"]
    commands = [step["run"] for step in html["steps"] if "run" in step]
    assert commands == [
        "pip install -r requirements.txt",
        "sphinx-build -W -b html book _build/html",
    ]
    uses = [step["uses"].split("@")[0] for step in html["steps"] if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/upload-pages-artifact"]
    assert deploy["needs"] == "html"
    assert deploy["if"] == (
        "github.event_name == 'push' && "
        "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)"
    )
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    (step,) = deploy["steps"]
    assert step["uses"].startswith("actions/deploy-pages@")
    page_url = "${{ steps." + step["id"] + ".outputs.page_url }}"
    assert deploy["environment"]["url"] == page_url


def test_the_workflow_says_how_to_remove_pages(generated):
    """The comment right above the deploy job names it: what a user deletes."""
    text = (generated[0] / ".github" / "workflows" / "build.yml").read_text(encoding="utf-8")
    comment = text.split("\n  deploy:\n")[0].rsplit("\n\n", 1)[1]
    assert comment.lstrip().startswith("# GitHub Pages")
    assert "Delete this job" in comment


def test_citation_file_from_the_options(generated):
    citation = yaml.safe_load((generated[0] / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation == {
        "cff-version": "1.2.0",
        "message": "If you use this playbook, please cite it as below.",
        "title": "Training on one GPU",
        "authors": [
            {"family-names": "Lovelace", "given-names": "Ada",
             "affiliation": "Analytical Engine Lab"},
            {"family-names": "Beethoven", "given-names": "Ludwig", "name-particle": "van",
             "affiliation": "Analytical Engine Lab"},
        ],
        "date-released": "2025-02-19",
    }  # fmt: skip


# -- requirements.txt: how sphinx-playbook is installed here ------------------------------

COMMIT = "5e5a9c1c7ea1e6e8fdc1e9a8a4c4ce1e0ad1f2f3"


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (None, ["sphinx-playbook[pdf]>=0.4.1"]),
        (
            {"url": "https://github.com/me/sphinx-playbook.git",
             "vcs_info": {"vcs": "git", "commit_id": COMMIT, "requested_revision": "main"}},
            [f"sphinx-playbook[pdf] @ git+https://github.com/me/sphinx-playbook.git@{COMMIT}"],
        ),
        (
            {"url": "https://github.com/me/mono", "subdirectory": "python",
             "vcs_info": {"vcs": "git", "commit_id": COMMIT}},
            [f"sphinx-playbook[pdf] @ git+https://github.com/me/mono@{COMMIT}#subdirectory=python"],
        ),
        (
            {"url": "https://files.example/sphinx_playbook-0.4.1-py3-none-any.whl",
             "archive_info": {"hashes": {"sha256": "ab12"}}},
            ["sphinx-playbook[pdf] @ https://files.example/sphinx_playbook-0.4.1-py3-none-any.whl"
             "#sha256=ab12"],
        ),
        ("{not json", ["sphinx-playbook[pdf]>=0.4.1"]),
    ],
    ids=["index", "git", "git-subdirectory", "archive-url", "unreadable"],
)  # fmt: skip
def test_requirement_reproduces_the_install(direct_url, expected):
    text = (
        direct_url if direct_url is None or isinstance(direct_url, str) else json.dumps(direct_url)
    )
    lines = requirement_lines(text, "0.4.1")
    assert lines == expected
    assert Requirement(lines[-1]).name == "sphinx-playbook"


@pytest.mark.parametrize(
    ("record", "what"),
    [
        ({"url": "file:///home/me/sphinx-playbook", "dir_info": {"editable": True}}, "folder"),
        ({"url": "file:///home/me/src/sphinx-playbook", "dir_info": {}}, "folder"),
        ({"url": "file:///tmp/dist/sphinx_playbook-0.4.1-py3-none-any.whl",
          "archive_info": {"hashes": {"sha256": "ab12"}}}, "file"),
        ({"url": "file:///home/me/sphinx-playbook",
          "vcs_info": {"vcs": "git", "commit_id": COMMIT}}, "folder"),
    ],
    ids=["editable", "folder", "wheel-file", "local-git"],
)  # fmt: skip
def test_a_local_install_asks_for_the_release_and_says_what_to_write(record, what):
    """Read the Docs and CI cannot reach a path on this machine."""
    lines = requirement_lines(json.dumps(record), "0.4.1")
    assert lines[-1] == "sphinx-playbook[pdf]>=0.4.1"
    comment = " ".join(line.lstrip("# ") for line in lines[:-1])
    assert all(line.startswith("# ") for line in lines[:-1])
    assert f"installed from a local {what}" in comment
    assert "sphinx-playbook[pdf] @ git+https://github.com/OWNER/REPOSITORY@COMMIT" in comment
    assert "/home/me" not in comment and "/tmp" not in comment


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (None, "sphinx-playbook[pdf,notebooks]>=0.4.1"),
        ({"url": "https://github.com/me/sphinx-playbook.git",
          "vcs_info": {"vcs": "git", "commit_id": COMMIT}},
         f"sphinx-playbook[pdf,notebooks] @ git+https://github.com/me/sphinx-playbook.git@{COMMIT}"),
        ({"url": "file:///home/me/sphinx-playbook", "dir_info": {"editable": True}},
         "sphinx-playbook[pdf,notebooks]>=0.4.1"),
    ],
    ids=["index", "git", "editable"],
)  # fmt: skip
def test_a_book_with_notebooks_asks_for_the_notebooks_extra(record, expected):
    lines = requirement_lines(None if record is None else json.dumps(record), "0.4.1",
                              NOTEBOOK_EXTRAS)  # fmt: skip
    assert lines[-1] == expected
    assert Requirement(lines[-1]).extras == {"pdf", "notebooks"}
    comment = " ".join(line.lstrip("# ") for line in lines[:-1])
    assert "sphinx-playbook[pdf] " not in comment  # a local install's example has the extra


def test_new_with_notebooks_writes_the_kernel_and_the_libraries(tmp_path):
    direct_url = metadata.distribution("sphinx-playbook").read_text("direct_url.json")
    assert main(["new", str(tmp_path / "p"), "--notebooks"]) == 0
    written = (tmp_path / "p" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    playbook = requirement_lines(direct_url, __version__, NOTEBOOK_EXTRAS)
    assert written[: len(playbook)] == playbook
    names = [Requirement(line).name for line in written[len(playbook) :] if line[:1] != "#"]
    assert sorted(names) == ["ipykernel", "kaleido", "matplotlib", "plotly"]


def test_new_writes_the_requirement_of_the_running_install(generated):
    """End to end: the line for this environment's own direct_url.json."""
    direct_url = metadata.distribution("sphinx-playbook").read_text("direct_url.json")
    written = (generated[0] / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert written == requirement_lines(direct_url, __version__)
    requirement = Requirement(written[-1])
    assert requirement.name == "sphinx-playbook"
    assert requirement.specifier.contains(__version__) or requirement.url


# -- the folder and the questions ---------------------------------------------------------


def test_refuses_a_non_empty_folder(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error == (
        f"sphinx-playbook: error: {tmp_path}: the folder is not empty; use --force to write "
        "into it\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert main(["new", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "book" / "index.md").is_file()


def test_refuses_a_file(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("", encoding="utf-8")
    assert main(["new", str(target)]) == 2
    assert capsys.readouterr().err == (
        f"sphinx-playbook: error: {target}: exists and is not a folder\n"
    )


def test_asks_nothing_off_a_terminal(tmp_path, capsys):
    """Under pytest stdin is not a terminal: defaults are used and nothing is asked."""
    assert main(["new", str(tmp_path / "book")]) == 0
    assert "[My Playbook]" not in capsys.readouterr().out
    text = (tmp_path / "book" / "book" / "index.md").read_text(encoding="utf-8")
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["title"] == "My Playbook" and front["authors"] == ["Your Name"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_asks_for_title_and_author_on_a_terminal(tmp_path):
    stdout = io.StringIO()
    create_project(
        tmp_path / "p", stdin=_Terminal("Scaling laws\n\n"), stdout=stdout,
        today=datetime.date(2025, 2, 19),
    )  # fmt: skip
    assert stdout.getvalue().startswith("Title [My Playbook]: Author [Your Name]: ")
    front = yaml.safe_load(
        (tmp_path / "p" / "book" / "index.md").read_text(encoding="utf-8").split("---\n")[1]
    )
    assert front == {
        "title": "Scaling laws",
        "description": "A playbook started with sphinx-playbook new.",
        "published": datetime.date(2025, 2, 19),
        "authors": ["Your Name"],
    }
    citation = yaml.safe_load((tmp_path / "p" / "CITATION.cff").read_text(encoding="utf-8"))
    assert (citation["title"], citation["authors"]) == ("Scaling laws", [
        {"family-names": "Name", "given-names": "Your"}
    ])  # fmt: skip
