#!/usr/bin/env bash
# Installs headless Chromium from Debian's packages for the browser tests of packages/cli
# (browser builds downloaded from other hosts do not work here). Idempotent: a no-op when
# /usr/bin/chromium already runs.
set -euo pipefail
chromium=/usr/bin/chromium
if [ -x "$chromium" ] && "$chromium" --version >/dev/null 2>&1; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-chromium: apt-get not found; install Chromium so that $chromium exists" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
echo "setup-chromium: installing chromium from the Debian packages"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
"$chromium" --version
