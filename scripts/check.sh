#!/usr/bin/env bash
# Everything CI runs, in CI's order: set-up, the fresh-user check, drift check, lint, TypeScript
# tests (the consumer tests of the packed packages among them), Python tests on the default and
# the oldest and newest interpreters, then a clean-tree check. The README's test command.
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
step() { printf '\n=== %s\n' "$*"; }

step "set-up"
bash scripts/setup.sh

step "fresh user (set-up and generate:check with an empty HOME and a bare PATH)"
bash scripts/test-fresh-user.sh

step "generate:check (generated files match protocol.idl.json)"
pnpm -s generate:check

step "breaking (the IDL breaks no released protocol version)"
pnpm -s breaking

step "lint"
pnpm -s lint

step "test (TypeScript)"
pnpm -s test

step "test:py (Python)"
PYTHON_VERSIONS="${PYTHON_VERSIONS-3.10 3.13}" pnpm -s test:py

step "clean tree"
if [ -n "$(git status --porcelain)" ]; then
  echo "The tree changed during the checks:" >&2
  git status --porcelain >&2
  git --no-pager diff >&2
  exit 1
fi
echo "check: all green"
