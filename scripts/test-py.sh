#!/usr/bin/env bash
# Runs the Python tests in the project's venv; PYTHON_VERSIONS="3.10 3.12" also runs them under
# those interpreters (each gets its own venv under python/.venv-<version>).
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root/python"
.venv/bin/python -m pytest -q "$@"
for version in ${PYTHON_VERSIONS:-}; do
  interpreter=""
  if command -v pyenv >/dev/null 2>&1; then
    installed=$(pyenv versions --bare | grep -E "^$version(\.|$)" | tail -n 1)
    [ -n "$installed" ] && interpreter="$(pyenv root)/versions/$installed/bin/python"
  fi
  [ -n "$interpreter" ] || interpreter=$(command -v "python$version" || true)
  # A pyenv shim exists for every version but only runs the selected ones: try it first.
  if [ -z "$interpreter" ] || ! "$interpreter" -c 'import sys' >/dev/null 2>&1; then
    # CI must run every version it asks for; elsewhere a missing interpreter is only skipped.
    if [ "${CI:-}" = "true" ]; then echo "test:py: no python$version here" >&2; exit 1; fi
    echo "test:py: no python$version here; skipped" >&2
    continue
  fi
  venv=".venv-$version"
  [ -x "$venv/bin/python" ] || "$interpreter" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -e .
  echo "test:py: Python $version"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
done
