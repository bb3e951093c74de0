#!/usr/bin/env bash
# Python lint: ruff (lint + format check) and mypy --strict over the whole package, _gen included.
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root/python"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
# The interop matrix's Python cell and the drop-in test's client live outside the package, as do
# the scripts that run a codegen fixture's peers (mypy checks those with the fixture's bindings, in
# codegen/test/py-peers-both-ways.test.ts).
.venv/bin/ruff check ../interop ../consumer/original-style ../codegen/test/fixtures/peers-both-ways
.venv/bin/ruff format --check ../interop ../consumer/original-style ../codegen/test/fixtures/peers-both-ways
.venv/bin/mypy --strict ../interop/py_cell.py ../consumer/original-style/py_client.py
