# Sourced by every script: where set-up puts the tools it installs, and a PATH that finds them.
# Everything lives inside the checkout (.tools/, python/.venv, node_modules), so no command
# depends on the caller's HOME or PATH. The one exception is Chromium for the browser tests, a
# system package that scripts/setup-chromium.sh installs with apt (root or sudo, once); set-up
# also puts the pinned pnpm on the PATH with npm install -g, where npm's global folder is writable.
# The layout is also known to codegen/src/emit/py-models.ts (where it finds datamodel-codegen).
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tools_dir="$repo_root/.tools"
# pnpm at the version pinned in package.json `packageManager`.
pnpm_prefix="$tools_dir/pnpm"
# pipx in a venv of its own, and the apps it manages (datamodel-code-generator).
pipx_venv="$tools_dir/pipx-venv"
export PIPX_HOME="$tools_dir/pipx"
export PIPX_BIN_DIR="$tools_dir/pipx/bin"
export PIPX_MAN_DIR="$tools_dir/pipx/man"
export PATH="$tools_dir/bin:$PATH"

# Runs a command as a brand-new user would: a PATH of the system folders plus node and python
# only (no ~/.local/bin, no pipx, no pyenv shims, no global pnpm) and no pipx or venv settings.
# The machine's own settings (HOME, certificates, locale, caches) stay.
as_new_user() {
  local node_bin python_bin
  node_bin=$(dirname "$(command -v node)")
  python_bin=$(dirname "$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')")
  env -u PIPX_HOME -u PIPX_BIN_DIR -u PIPX_MAN_DIR -u VIRTUAL_ENV \
    PATH="$node_bin:$python_bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    "$@"
}

# The TypeScript packages, in build order.
ts_packages=(protocol acp client runtime cli)

# True when packages/NAME has no build, or a source newer than its build.
build_is_stale() {
  local dir="$repo_root/packages/$1"
  [ ! -f "$dir/dist/index.js" ] ||
    [ -n "$(find "$dir/src" "$dir/package.json" "$dir"/tsconfig*.json "$dir"/page \
      -newer "$dir/dist/index.js" -print -quit 2>/dev/null)" ]
}

# True when any TypeScript package needs building.
any_build_is_stale() {
  local name
  for name in "${ts_packages[@]}"; do build_is_stale "$name" && return 0; done
  return 1
}
