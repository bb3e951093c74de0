#!/usr/bin/env bash
# The inner loop after an IDL edit (pnpm test:quick): the generated files are current, nothing
# breaks a released version, and the golden vectors pass in both languages, each language in one
# process (`idl-gen quick --help`, docs/changing-the-protocol.md). Arguments go to it: --full runs
# every step with no skips and no cached outputs. Needs set-up once. CI runs the full suites.
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
exec node codegen/bin/idl-gen.mjs quick "$@"
