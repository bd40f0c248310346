#!/usr/bin/env bash
# Development tasks. Sets up what each task needs on a fresh machine (Python >= 3.11):
#   bash scripts/dev.sh docs   build the documentation site into docs/_build/html
#   bash scripts/dev.sh test   lint and type check, then the whole test suite (unit,
#                              builders, browser, PDF) on Python 3.11 with the newest
#                              dependencies and, beside it at a lower priority, the
#                              suite without the browser and PDF tests on Python 3.12
#                              with the oldest supported ones and on Python 3.13 with
#                              the newest, and the wheel installed in a fresh venv
#                              (scripts/check_wheel.sh)
set -euo pipefail
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"

# Environments are filled by uv: pip takes about 34 s of CPU for the dev environment,
# uv about 11, and the test command sets up four environments (check_wheel.sh's
# included). Like pip, uv is told to byte-compile what it installs: where
# PYTHONDONTWRITEBYTECODE is set, nothing else would, and every Python the suite
# starts would compile Sphinx and its friends again (about 1 s each). uv itself is
# pip-installed into .venv first, so a fresh machine needs nothing but Python.
UV="$PWD/.venv/bin/uv"

need_uv() {  # .venv with pip and uv in it
  if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
  fi
  if [ ! -x "$UV" ]; then
    .venv/bin/python -m pip install --quiet "uv>=0.5"
  fi
}

venv() {  # venv DIR [install args...]: create DIR once, then install the project into it
  local dir="$1"; shift
  if [ ! -x "$dir/bin/python" ]; then
    "$PYTHON" -m venv --without-pip "$dir"
  fi
  "$UV" pip install --quiet --compile-bytecode --python "$dir/bin/python" "$@"
}

python_version() {  # python_version 3.12: an interpreter of that version, or nothing
  local candidate
  for candidate in "python$1" "$(pyenv prefix "$1" 2>/dev/null | cut -d: -f1)/bin/python3"; do
    if "$candidate" -c "import sys; sys.exit(sys.version_info[:2] != tuple(map(int, '$1'.split('.'))))" 2>/dev/null; then
      command -v "$candidate" 2>/dev/null || echo "$candidate"
      return
    fi
  done
  # pyenv lists full versions (3.12.1): the newest one of that minor version.
  candidate="$(ls -d "$(pyenv root 2>/dev/null)/versions/$1".* 2>/dev/null | sort -V | tail -1)"
  if [ -n "$candidate" ] && [ -x "$candidate/bin/python3" ]; then echo "$candidate/bin/python3"; fi
}

other_venv() {  # other_venv VERSION VENV [install args...]: the project installed with that Python
  local version="$1" dir="$2"; shift 2
  local interpreter
  interpreter="$(python_version "$version")"
  if [ -z "$interpreter" ]; then
    if [ -n "${CI:-}" ]; then
      echo "Python $version is missing: CI tests every supported Python" >&2
      return 1
    fi
    echo "Python $version not found (pyenv install $version): its suite is not run here" >&2
    return 0
  fi
  PYTHON="$interpreter" venv "$dir" "$@"
}

other_suite() {  # other_suite VERSION VENV: the non-browser suite there (none without that Python)
  # In one process: it runs beside the first suite and the other Python's, so one
  # core is its share, and each project its fixtures build is built once.
  local version="$1" dir="$2"
  [ -n "$(python_version "$version")" ] || return 0
  echo "Python $version ($dir)"
  "$dir/bin/python" -m pytest -p no:cacheprovider -q -n 0 --ignore=tests/browser --ignore=tests/paper \
    --ignore=tests/compat
}

finish() {  # finish PID LOG WHAT: wait for a step run in the background; its log; stop if it failed
  local status=0
  wait "$1" || status=$?
  cat "$2"
  rm -f "$2"
  if [ "$status" -ne 0 ]; then
    echo "$3 failed" >&2
    exit 1
  fi
}

need_chromium() {  # the browser tests drive Debian's Chromium headless shell through Playwright
  if [ -x /usr/bin/chromium-headless-shell ]; then return; fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing Chromium's headless shell (needed by the browser tests)..."
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends chromium-headless-shell fonts-liberation \
    >/dev/null
}

need_graphviz() {  # the compatibility matrix builds sphinx.ext.graphviz's graphs with dot
  if command -v dot >/dev/null 2>&1; then return; fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing Graphviz (needed by the compatibility matrix)..."
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends graphviz >/dev/null
}

need_tippy_js() {  # the browser shows sphinx-tippy's tips with tippy.js served by the site
  # sphinx-tippy loads tippy.js and Popper from a CDN by default; the test serves
  # them from the book, as a site on its own origin would (npm is only a download).
  local folder=.cache/compat-js
  if [ -f "$folder/tippy-bundle.umd.min.js" ] && [ -f "$folder/popper.min.js" ]; then return; fi
  local unpack
  unpack="$(mktemp -d)"
  (cd "$unpack" && npm pack --silent tippy.js@6.3.7 @popperjs/core@2.11.8 >/dev/null &&
    tar xzf tippy.js-6.3.7.tgz && mkdir popper && tar xzf popperjs-core-2.11.8.tgz -C popper)
  mkdir -p "$folder"
  cp "$unpack/package/dist/tippy-bundle.umd.min.js" "$unpack/popper/package/dist/umd/popper.min.js" \
    "$folder/"
  rm -rf "$unpack"
}

need_latex() {  # the PDF tests compile LaTeX with latexmk, as Read the Docs does; cairosvg
  # (SVG figures in the PDF) needs the Cairo library, which TeX Live's binaries pull in too
  if command -v latexmk >/dev/null 2>&1 && command -v xelatex >/dev/null 2>&1 &&
    kpsewhich luaotfload.sty >/dev/null 2>&1; then return; fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing latexmk and TeX Live (needed by the PDF tests)..."
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends latexmk texlive-latex-recommended \
    texlive-latex-extra texlive-fonts-recommended tex-gyre texlive-xetex texlive-luatex \
    fonts-freefont-otf libcairo2 \
    >/dev/null
}

case "${1:-}" in
  docs)
    need_uv
    venv .venv -e ".[docs]"
    .venv/bin/python -m sphinx -W --keep-going -b html docs docs/_build/html
    echo "Open docs/_build/html/index.html"
    ;;
  test)
    need_chromium
    need_graphviz
    need_tippy_js
    need_latex
    need_uv
    # The three environments at once: uv mostly waits for the disk and the index.
    setup_log="$(mktemp)"
    { other_venv 3.12 .venv-3.12-oldest -c tests/constraints-oldest.txt -e ".[test]" &&
      other_venv 3.13 .venv-3.13-newest -e ".[test]"; } >"$setup_log" 2>&1 &
    setup=$!
    venv .venv -e ".[dev]"
    .venv/bin/ruff check sphinx_playbook tests
    .venv/bin/ruff format --check sphinx_playbook tests
    .venv/bin/mypy
    finish "$setup" "$setup_log" "setting up Python 3.12 and 3.13"
    # The other Pythons, and the wheel installed in a fresh venv
    # (scripts/check_wheel.sh), run beside the first suite at the lowest priority:
    # they take the CPU it leaves idle (its browser tests wait for Chromium, its last
    # file runs on one core) and have the machine to themselves once it ends.
    # They run everything but the browser and PDF suites, which check the theme's
    # CSS and JavaScript and the LaTeX it writes, not the Python side. Python 3.12
    # gets the oldest supported Sphinx and friends and the differential test at half
    # depth (four rounds per seed: its Sphinx differs); Python 3.13 the newest, whose
    # Sphinx the first run takes through every round: two rounds per seed check the
    # Python.
    oldest_log="$(mktemp)" newest_log="$(mktemp)" wheel_log="$(mktemp)"
    PLAYBOOK_DIFFERENTIAL_ROUNDS=4 nice -n 19 \
      bash "$SELF" other-suite 3.12 .venv-3.12-oldest >"$oldest_log" 2>&1 &
    oldest=$!
    PLAYBOOK_DIFFERENTIAL_ROUNDS=2 nice -n 19 \
      bash "$SELF" other-suite 3.13 .venv-3.13-newest >"$newest_log" 2>&1 &
    newest=$!
    UV="$UV" nice -n 19 bash scripts/check_wheel.sh >"$wheel_log" 2>&1 &
    wheel_check=$!
    # The whole suite on Python 3.11: one pytest worker per core; a test file stays
    # on one worker, so the projects its module-scoped fixtures build are built once.
    status=0
    .venv/bin/python -m pytest -p no:cacheprovider -n auto --dist loadfile || status=$?
    finish "$oldest" "$oldest_log" "the Python 3.12 suite"
    finish "$newest" "$newest_log" "the Python 3.13 suite"
    finish "$wheel_check" "$wheel_log" "scripts/check_wheel.sh"
    exit "$status"
    ;;
  other-suite)  # used by "test": other-suite VERSION VENV
    other_suite "$2" "$3"
    ;;
  *)
    echo "usage: bash scripts/dev.sh docs|test" >&2
    exit 2
    ;;
esac
