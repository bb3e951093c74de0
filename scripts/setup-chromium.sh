#!/usr/bin/env bash
# Installs headless Chromium from Debian's packages for the browser tests of packages/cli
# (browser builds downloaded from other hosts do not work here). The one system-wide step of
# set-up, and the only one that needs root (or sudo): a no-op when Chromium already runs.
# Set-ups running at once take turns on a lock file, and apt waits for a dpkg lock held by any
# other program instead of failing on it.
set -euo pipefail
chromium=${DSH_SDK_CHROMIUM:-/usr/bin/chromium}
lock_file=${DSH_SDK_SETUP_LOCK:-${TMPDIR:-/tmp}/dsh-sdk-setup-chromium.lock}
runs() { [ -x "$chromium" ] && "$chromium" --version >/dev/null 2>&1; }

if runs; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-chromium: apt-get not found; install Chromium so that $chromium exists" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup-chromium: Chromium is a system prerequisite and installing it needs root:" >&2
    echo "  run 'apt-get install chromium' as root, then set-up again" >&2
    exit 1
  fi
  sudo="sudo"
fi

exec 9>"$lock_file"
flock 9
# Another set-up may have installed it while this one waited for the lock.
if runs; then exit 0; fi
echo "setup-chromium: installing chromium from the Debian packages"
apt_wait=(-o DPkg::Lock::Timeout=600)
$sudo apt-get "${apt_wait[@]}" update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get "${apt_wait[@]}" install -y -qq \
  --no-install-recommends chromium >/dev/null
"$chromium" --version
