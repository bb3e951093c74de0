#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine, all of it inside the checkout:
# the pinned pnpm (.tools/bin), node modules, the Python venv (python/.venv) with the package and
# its pinned dev tools, and datamodel-code-generator through a pinned pipx (.tools/pipx).
# Needs only node (with npm) and python3 (>= 3.10) on PATH. A second run installs nothing.
set -euo pipefail
source "$(dirname "$0")/lib/tools.sh"
cd "$repo_root"
say() { echo "setup: $*"; }
# Runs an installer, showing its output only when it fails.
quietly() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then cat "$log" >&2; rm -f "$log"; return 1; fi
  rm -f "$log"
}
pin() { node -p "require('./codegen/package.json').pythonTools['$1']"; }
mkdir -p "$tools_dir/bin"

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$("$tools_dir/bin/pnpm" --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  say "installing pnpm@$pnpm_version into .tools"
  quietly npm install --no-save --no-package-lock --prefix "$pnpm_prefix" "pnpm@$pnpm_version"
  ln -sf "$pnpm_prefix/node_modules/pnpm/bin/pnpm.cjs" "$tools_dir/bin/pnpm"
fi

# `pnpm …` in the user's own shell: the pinned pnpm on the PATH too, with npm's global install,
# when the PATH has none of that version and npm's global folder is writable.
if [ "$(env PATH="${PATH#"$tools_dir/bin:"}" pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  if [ -w "$(npm prefix -g)" ]; then
    say "installing pnpm@$pnpm_version with npm install -g, for pnpm on your PATH"
    quietly npm install -g --no-fund --no-audit "pnpm@$pnpm_version"
  else
    say "no pnpm@$pnpm_version on your PATH: put $tools_dir/bin on it to type pnpm"
  fi
fi

if [ "${CI:-}" = "true" ]; then pnpm install --frozen-lockfile; else pnpm install; fi

python=${PYTHON:-python3}
if [ ! -x python/.venv/bin/python ]; then
  say "creating python/.venv with $("$python" --version)"
  "$python" -m venv python/.venv
fi
pip() { "$1" -m pip install --quiet --disable-pip-version-check "${@:2}"; }
# pip takes seconds even when all is installed: a stamp of what was installed skips it then.
venv_stamp=python/.venv/dsh-sdk-setup.sha256
wanted=$(cat python/requirements-dev.txt python/pyproject.toml | sha256sum | cut -d' ' -f1)
if [ "$(cat "$venv_stamp" 2>/dev/null || true)" != "$wanted" ]; then
  say "installing the Python package and its dev tools into python/.venv"
  pip python/.venv/bin/python -r python/requirements-dev.txt
  pip python/.venv/bin/python --no-deps -e python
  echo "$wanted" >"$venv_stamp"
fi
bash scripts/setup-chromium.sh  # headless Chromium for the browser tests of packages/cli

# datamodel-code-generator runs through pipx, both at the versions pinned in codegen/package.json.
pipx_version=$(pin pipx)
if [ "$("$pipx_venv/bin/python" -m pipx --version 2>/dev/null || true)" != "$pipx_version" ]; then
  say "installing pipx==$pipx_version into .tools"
  [ -x "$pipx_venv/bin/python" ] || "$python" -m venv "$pipx_venv"
  pip "$pipx_venv/bin/python" "pipx==$pipx_version"
fi
pipx() { "$pipx_venv/bin/python" -m pipx "$@"; }
dmcg_version=$(pin datamodel-code-generator)
if [ "$("$PIPX_BIN_DIR/datamodel-codegen" --version 2>/dev/null || true)" != "datamodel-codegen $dmcg_version" ]; then
  say "installing datamodel-code-generator==$dmcg_version with pipx"
  quietly pipx install --force "datamodel-code-generator==$dmcg_version"
fi
# It formats its output with black and isort: pin them too, so models.py is the same everywhere.
formatters="black==$(pin black) isort==$(pin isort)"
dmcg_python="$PIPX_HOME/venvs/datamodel-code-generator/bin/python"
installed=$("$dmcg_python" -c "import importlib.metadata as m; print(' '.join(n + '==' + m.version(n) for n in ('black', 'isort')))" 2>/dev/null || true)
if [ "$installed" != "$formatters" ]; then
  say "pinning $formatters for datamodel-code-generator"
  # shellcheck disable=SC2086 # two requirement specifiers
  quietly pipx inject --force datamodel-code-generator $formatters
fi

# Build the TypeScript packages from the committed generated files (no regeneration here, so a
# stale file still fails generate:check), so the bin/ launchers work right after set-up.
if any_build_is_stale; then
  say "building the TypeScript packages"
  pnpm -s -r --filter "./packages/*" run build
fi
say "done (pnpm, pipx and datamodel-codegen are in .tools/)"
