#!/usr/bin/env bash
# `pnpm bench [--quick]`: the TypeScript bench, then the Python one, each given the same arguments
# (pnpm appends them to the script's last command only, hence this script).
set -euo pipefail
cd "$(dirname "$0")/.."
pnpm -s build
node bench/src/main.mjs "$@"
echo
python/.venv/bin/python python/bench/main.py "$@"
