#!/usr/bin/env bash
# Plays a brand-new user: a copy of this checkout (tracked and new files, nothing ignored), an
# empty HOME, and a PATH of the system folders plus node and python only (no ~/.local/bin, no
# pipx, no pyenv shims, no global pnpm). Runs set-up and `pnpm generate:check` there, then set-up
# once more, which must install nothing and leave the tree as it was.
# Only download caches are shared with the caller (pnpm store, npm and pip caches), for speed.
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
started=$SECONDS
scratch=$(mktemp -d "${TMPDIR:-/tmp}/dsh-fresh-user.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/repo" "$scratch/npm-global"

git ls-files -z --cached --others --exclude-standard |
  tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$scratch/repo"
git -C "$scratch/repo" init -q
git -C "$scratch/repo" add -A
git -C "$scratch/repo" -c user.name=fresh -c user.email=fresh@localhost commit -qm snapshot

python_bin=$(dirname "$(python3 -c 'import sys; print(sys.executable)')")
node_bin=$(dirname "$(command -v node)")
as_new_user() {
  # The machine's own settings (certificates, locale) stay; what a user installs does not.
  (cd "$scratch/repo" && env -u PIPX_HOME -u PIPX_BIN_DIR -u PIPX_MAN_DIR -u VIRTUAL_ENV \
    HOME="$scratch/home" \
    PATH="$node_bin:$python_bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    CI=true \
    npm_config_prefix="$scratch/npm-global" \
    npm_config_store_dir="$(pnpm store path)" \
    npm_config_cache="$(npm config get cache)" \
    PIP_CACHE_DIR="$(python3 -m pip cache dir)" \
    "$@")
}

echo "fresh-user: set-up in a copy of the checkout, HOME=$scratch/home"

as_new_user bash scripts/setup.sh >"$scratch/setup-1.log" 2>&1 || {
  cat "$scratch/setup-1.log" >&2
  echo "fresh-user: set-up failed for a new user" >&2
  exit 1
}
as_new_user .tools/bin/pnpm -s generate:check || {
  echo "fresh-user: pnpm generate:check failed right after set-up" >&2
  exit 1
}
as_new_user bash scripts/setup.sh >"$scratch/setup-2.log" 2>&1 || {
  cat "$scratch/setup-2.log" >&2
  echo "fresh-user: the second set-up failed" >&2
  exit 1
}
if grep -E '^setup: (installing|creating|pinning)' "$scratch/setup-2.log" >&2; then
  echo "fresh-user: the second set-up installed something again" >&2
  exit 1
fi
changed=$(git -C "$scratch/repo" status --porcelain)
if [ -n "$changed" ]; then
  echo "fresh-user: set-up or generate:check changed tracked files:" >&2
  echo "$changed" >&2
  exit 1
fi
echo "fresh-user: ok in $((SECONDS - started)) s"
