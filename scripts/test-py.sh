#!/usr/bin/env bash
# Runs the Python tests in the project's venv. PYTHON_VERSIONS="3.10 3.13" then runs a
# representative subset under those interpreters too (each gets its own venv under
# python/.venv-<version>): what differs between interpreters (json and orjson, dataclasses,
# asyncio, the typing of the generated code) without repeating every process-driving test.
# PYTHON_SUBSET=all runs the whole suite there as well; PYTHON_DEFAULT=skip leaves out the run
# on the default interpreter (CI runs each interpreter as a job of its own). Extra arguments go
# to every pytest run. Each run spreads its test files over PYTHON_WORKERS processes (default 2,
# the machine's cores; 0 runs them in pytest's own process).
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root/python"
subset=(
  tests/test_vectors.py tests/test_vectors_coverage.py tests/test_models.py
  tests/test_converters.py tests/test_codec.py tests/test_jsonlib.py tests/test_validators.py
  tests/test_validation_runtime.py tests/test_classify.py tests/test_line_reader.py
  tests/test_line_writer.py tests/test_line_bytes.py tests/test_limits.py tests/test_transport.py
  tests/test_peers.py tests/test_client_run.py tests/test_client_version2.py
  tests/test_runtime_interrupt.py tests/test_sync_client.py
)
# Arguments (files, -k ...) choose the tests themselves.
if [ "${PYTHON_SUBSET:-}" = all ] || [ $# -gt 0 ]; then subset=(); fi

workers=(-n "${PYTHON_WORKERS:-2}" --dist loadfile)

if [ "${PYTHON_DEFAULT:-}" != skip ]; then .venv/bin/python -m pytest -q "${workers[@]}" "$@"; fi
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
  echo "test:py: Python $version${subset:+ (the subset)}"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "${workers[@]}" "$@" "${subset[@]}"
done
