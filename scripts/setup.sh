#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine: pnpm (pinned), node modules,
# the Python venv with the package and its pinned dev tools, and datamodel-code-generator through pipx.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  echo "setup: installing pnpm@$pnpm_version"
  npm install -g "pnpm@$pnpm_version" >/dev/null
fi

if [ "${CI:-}" = "true" ]; then pnpm install --frozen-lockfile; else pnpm install; fi

python=${PYTHON:-python3}
if [ ! -x python/.venv/bin/python ]; then
  echo "setup: creating python/.venv"
  "$python" -m venv python/.venv
fi
python/.venv/bin/python -m pip install --quiet --disable-pip-version-check -r python/requirements-dev.txt
python/.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e python
bash scripts/setup-chromium.sh  # headless Chromium for the browser tests of packages/cli

# datamodel-code-generator runs through pipx at the version pinned in codegen/package.json.
dmcg_version=$(node -p "require('./codegen/package.json').pythonTools['datamodel-code-generator']")
if ! command -v pipx >/dev/null 2>&1; then
  "$python" -m pip install --quiet --disable-pip-version-check --user pipx
  export PATH="$HOME/.local/bin:$PATH"
fi
pipx_bin=$(pipx environment --value PIPX_BIN_DIR)
if [ "$("$pipx_bin/datamodel-codegen" --version 2>/dev/null || true)" != "datamodel-codegen $dmcg_version" ]; then
  echo "setup: installing datamodel-code-generator==$dmcg_version with pipx"
  pipx install --force "datamodel-code-generator==$dmcg_version" >/dev/null
fi
# It formats its output with black and isort: pin them too, so models.py is the same everywhere.
formatters=$(node -p "const t = require('./codegen/package.json').pythonTools; ['black', 'isort'].map((n) => n + '==' + t[n]).join(' ')")
dmcg_python="$(pipx environment --value PIPX_LOCAL_VENVS)/datamodel-code-generator/bin/python"
installed=$("$dmcg_python" -c "import importlib.metadata as m; print(' '.join(n + '==' + m.version(n) for n in ('black', 'isort')))" 2>/dev/null || true)
if [ "$installed" != "$formatters" ]; then
  echo "setup: pinning $formatters for datamodel-code-generator"
  pipx inject --force datamodel-code-generator $formatters >/dev/null 2>&1
fi
# Build the TypeScript packages from the committed generated files (no regeneration here, so a
# stale file still fails generate:check), so the bin/ launchers work right after set-up.
pnpm -s -r --filter "./packages/*" run build
echo "setup: done"
