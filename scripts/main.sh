#!/usr/bin/env bash
# The README's main command: set up, regenerate from protocol.idl.json, build, show the protocol,
# then the demo: the TypeScript client driving the reference runtime over stdio.
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
bash scripts/setup.sh
pnpm -s generate
pnpm -s build
pnpm -s summary
node packages/client/dist/demo.js "$@"
