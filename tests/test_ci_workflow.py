"""The CI workflow (.github/workflows/ci.yml) parses and runs what the README promises:
the whole suite on Linux with every supported Python, the suite without browser on
macOS and Windows, the docs with -W and the wheel check, on pushes and pull requests.
Nothing runs it here; this keeps it from rotting silently."""

from __future__ import annotations

import re
import shlex
import tomllib

import pytest
import yaml
from helpers import REPO

WORKFLOW = REPO / ".github" / "workflows" / "ci.yml"
DEV = REPO / "scripts" / "dev.sh"
#: Python versions the package supports: from requires-python up to the newest tested.
SUPPORTED = ["3.11", "3.12", "3.13"]


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _runs(job: dict) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def _pytest_arguments(job: dict) -> list[list[str]]:
    """The arguments of each ``python -m pytest`` the job runs."""
    found = []
    for run in _runs(job):
        words = shlex.split(run)
        if words[:3] == ["python", "-m", "pytest"]:
            found.append(words[3:])
    return found


def test_runs_on_pushes_and_pull_requests(workflow):
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare on as True
    assert set(triggers) == {"push", "pull_request"}
    assert workflow["permissions"] == {"contents": "read"}


def test_actions_are_pinned_by_major_version(workflow):
    uses = [
        step["uses"] for job in workflow["jobs"].values() for step in job["steps"] if "uses" in step
    ]
    assert uses
    for action in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", action), action


def test_linux_runs_the_whole_suite_on_every_supported_python(workflow):
    linux = workflow["jobs"]["linux"]
    assert linux["runs-on"] == "ubuntu-latest"
    include = linux["strategy"]["matrix"]["include"]
    newest = sorted(entry["python"] for entry in include if entry["dependencies"] == "newest")
    assert newest == SUPPORTED
    assert {"python": "3.12", "dependencies": "oldest"} in include
    requires = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "requires-python"
    ]
    assert requires == f">={SUPPORTED[0]}"
    whole, without_browser = _pytest_arguments(linux)
    assert not [word for word in whole if word.startswith("--ignore")], "the whole suite"
    assert {"--ignore=tests/browser", "--ignore=tests/paper"} <= set(without_browser)
    install = " ".join(_runs(linux))
    assert "-c tests/constraints-oldest.txt" in install


def test_linux_installs_what_dev_sh_installs(workflow):
    """Chromium's headless shell, Graphviz, TeX Live: the packages of every
    ``apt-get install`` in scripts/dev.sh, and the tippy.js it fetches with npm."""
    script = DEV.read_text(encoding="utf-8").replace("\\\n", " ")
    wanted: set[str] = set()
    for line in script.splitlines():
        words = shlex.split(line, comments=True)
        if "apt-get" in words and "install" in words:
            wanted |= {
                w for w in words[words.index("install") + 1 :] if not w.startswith(("-", "$", ">"))
            }
    assert {"chromium-headless-shell", "graphviz", "latexmk"} <= wanted
    runs = "\n".join(_runs(workflow["jobs"]["linux"])).replace("\\\n", " ")
    installed = {
        word
        for line in runs.splitlines()
        if "apt-get install" in line
        for word in shlex.split(line)
        if not word.startswith("-")
    }
    assert wanted <= installed
    fetched = set(re.findall(r"npm pack --silent ([^>]+)>", script)[0].split())
    assert fetched and fetched <= set(runs.split())


def test_macos_and_windows_run_the_suite_without_browser(workflow):
    other = workflow["jobs"]["other-os"]
    assert other["runs-on"] == "${{ matrix.os }}"
    assert sorted(other["strategy"]["matrix"]["os"]) == ["macos-latest", "windows-latest"]
    assert other["strategy"]["matrix"]["python"] == [SUPPORTED[-1]]
    (arguments,) = _pytest_arguments(other)
    assert {"--ignore=tests/browser", "--ignore=tests/paper", "--ignore=tests/compat"} <= set(
        arguments
    )
    assert not [a for a in arguments if a.startswith("tests/")], "the whole suite otherwise"


def test_the_fallback_of_the_test_builds_runs_on_linux(workflow):
    job = workflow["jobs"]["no-fork"]
    assert job["env"]["PLAYBOOK_TEST_NO_FORK"] == "1"
    (arguments,) = _pytest_arguments(job)
    files = [a for a in arguments if a.startswith("tests/")]
    assert "tests/test_sphinx_process.py" in files
    for name in files:
        assert (REPO / name).is_file(), name


def test_docs_are_built_with_warnings_as_errors(workflow):
    (command,) = [shlex.split(run) for run in _runs(workflow["jobs"]["docs"]) if "sphinx" in run]
    assert command[:3] == ["python", "-m", "sphinx"]
    assert "-W" in command
    assert command[-2:] == ["docs", "docs/_build/html"]


def test_the_wheel_is_checked(workflow):
    runs = _runs(workflow["jobs"]["wheel"])
    assert any(shlex.split(run)[-2:] == ["bash", "scripts/check_wheel.sh"] for run in runs)
    assert (REPO / "scripts" / "check_wheel.sh").is_file()


def test_every_job_has_a_timeout(workflow):
    for name, job in workflow["jobs"].items():
        assert 0 < job["timeout-minutes"] <= 120, name
