#!/usr/bin/env bash
# Development tasks. Sets up what each task needs on a fresh machine (Python >= 3.11):
#   bash scripts/dev.sh docs   build the documentation site into docs/_build/html
#   bash scripts/dev.sh test   lint, then the whole test suite (unit, builders, browser),
#                              on the newest dependencies and on the oldest supported ones
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"

venv() {  # venv DIR [pip args...]: create DIR once, then install the project into it
  local dir="$1"; shift
  if [ ! -x "$dir/bin/python" ]; then
    "$PYTHON" -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --upgrade pip
  fi
  "$dir/bin/python" -m pip install --quiet "$@"
}

need_chromium() {  # the browser tests drive Debian's Chromium through Playwright
  if command -v chromium >/dev/null 2>&1; then return; fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing Chromium (needed by the browser tests)..."
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends chromium fonts-liberation >/dev/null
}

case "${1:-}" in
  docs)
    venv .venv -e ".[docs]"
    .venv/bin/python -m sphinx -W --keep-going -b html docs docs/_build/html
    echo "Open docs/_build/html/index.html"
    ;;
  test)
    need_chromium
    venv .venv -e ".[dev]"
    .venv/bin/ruff check sphinx_playbook tests
    .venv/bin/python -m pytest -p no:cacheprovider
    # The oldest supported Sphinx and friends: everything but the browser suite,
    # which checks the theme's CSS and JavaScript, not the Python side.
    venv .venv-oldest -c tests/constraints-oldest.txt -e ".[test]"
    .venv-oldest/bin/python -m pytest -p no:cacheprovider --ignore=tests/browser
    ;;
  *)
    echo "usage: bash scripts/dev.sh docs|test" >&2
    exit 2
    ;;
esac
