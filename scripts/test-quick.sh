#!/usr/bin/env bash
# The inner loop after an IDL edit (pnpm test:quick): the generated files are current, nothing
# breaks a released version, and the golden vectors pass in both languages. Needs set-up once.
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
started=$SECONDS
pnpm -s generate:check
pnpm -s breaking
# The two languages' vector tests share nothing: run them side by side.
(cd packages/protocol && pnpm -s exec vitest run test/vectors.test.ts test/vectors-coverage.test.ts) &
ts=$!
(cd python && .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_vectors.py tests/test_vectors_coverage.py) &
py=$!
status=0
wait "$ts" || status=1
wait "$py" || status=1
echo "test:quick: $([ "$status" = 0 ] && echo green || echo FAILED) in $((SECONDS - started)) s"
exit "$status"
