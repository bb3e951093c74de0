# Sourced by every script: where set-up puts the tools it installs, and a PATH that finds them.
# Everything lives inside the checkout (.tools/, python/.venv, node_modules), so no command
# depends on the caller's HOME or PATH, and nothing is installed globally.
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
