#!/usr/bin/env bash
# `pnpm bench [--quick]`: the TypeScript bench, then the Python one, each given the same arguments
# (pnpm appends them to the script's last command only, hence this script).
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
pnpm -s build
node bench/src/main.mjs "$@"
echo
python/.venv/bin/python python/bench/main.py "$@"
