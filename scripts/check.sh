#!/usr/bin/env bash
# Everything CI runs, in CI's order (STYLE §4.6): set-up, drift check, lint, TypeScript tests,
# Python tests, then a clean-tree check. The README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n=== %s\n' "$*"; }

step "set-up"
bash scripts/setup.sh

step "generate:check (generated files match protocol.idl.json)"
pnpm -s generate:check

step "breaking (the IDL breaks no released protocol version)"
pnpm -s breaking

step "lint"
pnpm -s lint

step "test (TypeScript)"
pnpm -s test

step "test:py (Python)"
PYTHON_VERSIONS="${PYTHON_VERSIONS-3.10}" pnpm -s test:py

step "clean tree"
if [ -n "$(git status --porcelain)" ]; then
  echo "The tree changed during the checks:" >&2
  git status --porcelain >&2
  git --no-pager diff >&2
  exit 1
fi
echo "check: all green"
