#!/usr/bin/env bash
# Everything CI runs (.ci/run calls it; the README's test command). Set-up once, as a new user
# would run it (a PATH of the system folders plus node and python: nothing a developer installed
# by hand), then set-up again, which must install nothing; then six independent jobs at once,
# each logging to its own file and printed whole when it ends:
#   protocol  generate:check and breaking (the IDL, the generated files, the released versions)
#   lint      prettier, tsc, ruff, mypy --strict
#   ts        the TypeScript tests (turbo; the consumer and browser tests among them)
#   py        the Python tests on the default interpreter
#   py310     a representative subset on the oldest supported interpreter,
#   py313     and on the newest
# and last, checks that no job rebuilt the packages and nothing changed the tree. JOBS="ts py"
# runs only those jobs.
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
started=$SECONDS
step() { printf '\n=== %s (at %d s)\n' "$*" "$((SECONDS - started))"; }

step "set-up, as a new user"
as_new_user bash scripts/setup.sh

step "set-up again: installs nothing"
again=$(mktemp)
as_new_user bash scripts/setup.sh >"$again" 2>&1 || { cat "$again" >&2; exit 1; }
if grep -E '^setup: (installing|creating|pinning|building)' "$again" >&2; then
  echo "check: the second set-up installed something again" >&2
  exit 1
fi
rm -f "$again"

# Set-up built every package from the committed generated files, and the protocol job proves
# them current, so no job runs turbo's generate and build steps (`--only`): a rebuild rewrites
# dist/ under the tests running beside it, and a runtime they start imports a half-written
# module (CI failed so, twice, through `pnpm lint`'s typecheck). The check after the jobs holds
# every job to it.
job_protocol() { pnpm -s generate:check && pnpm -s breaking; }
job_lint() { pnpm -s exec prettier --check . && pnpm -s exec turbo run typecheck --only && bash scripts/lint-py.sh; }
job_ts() { pnpm -s exec turbo run test --only --continue; }
job_py() { bash scripts/test-py.sh; }
job_py310() { PYTHON_DEFAULT=skip PYTHON_VERSIONS=3.10 bash scripts/test-py.sh; }
job_py313() { PYTHON_DEFAULT=skip PYTHON_VERSIONS=3.13 bash scripts/test-py.sh; }

logs=$(mktemp -d "${TMPDIR:-/tmp}/dsh-sdk-check.XXXXXX")
trap 'rm -rf "$logs"' EXIT
touch "$logs/jobs-started"
declare -A job_of_pid=()
for job in ${JOBS:-protocol lint ts py py310 py313}; do
  ("job_$job" >"$logs/$job.log" 2>&1) &
  job_of_pid[$!]=$job
done
step "jobs started: ${job_of_pid[*]}"

failed=()
while [ ${#job_of_pid[@]} -gt 0 ]; do
  status=0
  wait -n -p pid "${!job_of_pid[@]}" || status=$?
  job=${job_of_pid[$pid]}
  unset "job_of_pid[$pid]"
  if [ "$status" = 0 ]; then verdict="passed"; else verdict="FAILED (exit $status)"; fi
  step "job $job $verdict"
  cat "$logs/$job.log"
  [ "$status" = 0 ] || failed+=("$job")
done
rebuilt=$(find packages/*/dist -newer "$logs/jobs-started" -type f -print -quit)
if [ -n "$rebuilt" ]; then
  echo "check: a job rebuilt the packages while the tests ran them ($rebuilt); run it with --only" >&2
  failed+=("(the build)")
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "check: failed jobs: ${failed[*]} (after $((SECONDS - started)) s)" >&2
  exit 1
fi

step "clean tree"
if [ -n "$(git status --porcelain)" ]; then
  echo "The tree changed during the checks:" >&2
  git status --porcelain >&2
  git --no-pager diff >&2
  exit 1
fi
echo "check: all green in $((SECONDS - started)) s"
