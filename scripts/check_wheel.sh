#!/usr/bin/env bash
# The package as a user gets it: build the sdist and the wheel (python -m build: the
# wheel is built from the sdist), check them with twine, install the wheel into a
# fresh virtual environment and, from outside the source tree, run
# `sphinx-playbook --version`, `sphinx-playbook new` and the new book's documented
# html and epub builds with -W. A file missing from the wheel (a template, the
# vendored KaTeX, its fonts, a scaffold file) fails here, not on a user's machine.
#
#   bash scripts/check_wheel.sh         all in a temporary folder, removed afterwards
#   bash scripts/check_wheel.sh DIST    the same, keeping the sdist and the wheel in DIST
#                                       (the release workflow publishes those)
#
# Runs with $PYTHON (default: .venv/bin/python when it exists, else python3), which
# needs `build` and `twine` (the dev extra). The network is used only for the package
# index: flit_core for the build, the dependencies of the wheel for the environment.
# With $UV set to a uv executable (scripts/dev.sh does), uv fills the build's and the
# fresh environment's packages, with the same files, in a third of pip's CPU time.
# Idempotent: nothing is left behind but DIST's two files.
set -euo pipefail
if [ -n "${1:-}" ]; then mkdir -p "$1" && keep="$(cd "$1" && pwd)"; else keep=""; fi
cd "$(dirname "$0")/.."

if [ -z "${PYTHON:-}" ]; then
  if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
PYTHON="$(command -v "$PYTHON")"
SOURCE="$(pwd)"

work="$(mktemp -d "${TMPDIR:-/tmp}/check-wheel.XXXXXX")"
trap 'rm -rf "$work"' EXIT
dist="${keep:-$work/dist}"
mkdir -p "$dist"
rm -f "$dist"/sphinx_playbook-*.whl "$dist"/sphinx_playbook-*.tar.gz

step() { printf '==> %s\n' "$*"; }
fail() { printf 'check_wheel: %s\n' "$*" >&2; exit 1; }

step "python -m build (sdist, then the wheel from it) into $dist"
installer=(); [ -z "${UV:-}" ] || installer=(--installer uv)  # build finds uv on the PATH
PATH="${UV:+$(dirname "$UV"):}$PATH" "$PYTHON" -m build "${installer[@]}" --outdir "$dist" \
  "$SOURCE" >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; fail "the build failed"; }
wheels=("$dist"/sphinx_playbook-*.whl)
sdists=("$dist"/sphinx_playbook-*.tar.gz)
[ "${#wheels[@]}" -eq 1 ] && [ -f "${wheels[0]}" ] || fail "expected one wheel in $dist"
[ "${#sdists[@]}" -eq 1 ] && [ -f "${sdists[0]}" ] || fail "expected one sdist in $dist"
wheel="${wheels[0]}"
version="$(basename "$wheel" | cut -d- -f2)"

step "twine check --strict"
"$PYTHON" -m twine check --strict "$wheel" "${sdists[0]}"

step "a fresh virtual environment with the wheel ($(basename "$wheel"))"
if [ -n "${UV:-}" ]; then
  "$PYTHON" -m venv --without-pip "$work/venv"
  "$UV" pip install --quiet --compile-bytecode --python "$work/venv/bin/python" "$wheel"
else
  "$PYTHON" -m venv "$work/venv"
  "$work/venv/bin/python" -m pip install --quiet "$wheel"
fi

# From here on: outside the source tree, with nothing but the venv on the PATH's front,
# so the package can only be imported from the installed wheel.
cd "$work"
export PATH="$work/venv/bin:$PATH"
unset PYTHONPATH
export PYTHONNOUSERSITE=1

step "the package is the installed wheel"
python -c '
import pathlib, sys, sphinx_playbook
where = pathlib.Path(sphinx_playbook.__file__).resolve()
sys.exit(0 if where.is_relative_to(pathlib.Path(sys.prefix).resolve()) else f"imported from {where}")'

step "sphinx-playbook --version"
said="$(sphinx-playbook --version)"
[ "$said" = "sphinx-playbook $version" ] || fail "--version says '$said', the wheel is $version"
echo "$said"

step "sphinx-playbook new, then the book's documented builds with -W"
sphinx-playbook new "$work/playbook" --title "Wheel check" --author "Ada Lovelace" >/dev/null
cd "$work/playbook"
sphinx-build -W -q -b html book _build/html
sphinx-build -W -q -b epub book _build/epub
fonts="$(find _build/html -name 'KaTeX_*.woff2' | wc -l)"
[ "$fonts" -gt 0 ] || fail "the html build has no KaTeX font: the wheel lacks the vendored fonts"
for file in index.html _static/styles/sphinx-playbook.css _static/scripts/sphinx-playbook.js _static/katex/katex.css; do
  [ -f "_build/html/$file" ] || fail "the html build has no $file"
done
ls _build/epub/*.epub >/dev/null || fail "the epub build wrote no .epub"

step "sphinx-playbook $version: the wheel and the sdist are good"
