#!/usr/bin/env bash
# The README's main command: set up, regenerate from protocol.idl.json, build, then show the protocol.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
pnpm -s generate
pnpm -s build
pnpm -s summary
