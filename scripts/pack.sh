#!/usr/bin/env bash
# Packs everything a consumer installs into one folder: the four npm tarballs (`pnpm pack`, so
# `workspace:` versions become real ones) and the Python wheel and sdist (`python -m build`).
# `bash scripts/pack.sh [OUT_DIR]`, by default dist-packages/; the README's "Installing" says
# how to install them. Needs the set-up (scripts/setup.sh) done.
set -euo pipefail
out="${1:-dist-packages}"
mkdir -p "$out"
out="$(cd "$out" && pwd)" # before the cd below: OUT_DIR is relative to the caller's folder
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
python=python/.venv/bin/python
if [ ! -x "$python" ]; then
  echo "pack: no $python; run bash scripts/setup.sh first" >&2
  exit 1
fi

# Runs a step, showing its output only when it fails.
quietly() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then cat "$log" >&2; rm -f "$log"; return 1; fi
  rm -f "$log"
}

# One pack at a time: the TypeScript and Python consumer tests may pack at once, and two
# `python -m build` runs share python/build and the egg-info.
exec 9>"$tools_dir/pack.lock"
flock 9

# Build only when a package's sources are newer than its build: the consumer tests run this
# command while other tests run the built packages, which a rebuild would rewrite under them.
if any_build_is_stale; then
  echo "pack: a package is not built or older than its sources; building"
  quietly pnpm -s build
fi
for name in "${ts_packages[@]}"; do
  quietly pnpm -s -C "packages/$name" pack --pack-destination "$out"
done
quietly "$python" -m build --sdist --wheel --outdir "$out" python
(cd "$out" && ls -1 dsh-sdk-*.tgz dsh_sdk-*)
