#!/usr/bin/env bash
# Makes sure gcc, make, pkg-config and libzmq's headers (Debian's libzmq3-dev) are here; idempotent.
# Installs with apt-get when something is missing; fails with instructions when it can't.
set -euo pipefail

have_all() {
  command -v gcc >/dev/null && command -v make >/dev/null && command -v pkg-config >/dev/null \
    && pkg-config --exists libzmq
}

if have_all; then
  exit 0
fi

need="gcc make pkg-config libzmq3-dev"
fail() {
  cat >&2 <<MSG
bench/install-libzmq.sh: $1
The libzmq side of the benchmarks and of PerfToolsLibzmqIT needs: $need
Install them yourself (Debian/Ubuntu):  sudo apt-get update && sudo apt-get install -y $need
MSG
  exit 1
}

command -v apt-get >/dev/null || fail "apt-get not found, can't install them here."
sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null && sudo -n true 2>/dev/null || fail "not root and no password-less sudo."
  sudo="sudo -n"
fi
echo "bench/install-libzmq.sh: installing $need" >&2
$sudo apt-get update -qq || fail "apt-get update failed."
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need >&2 || fail "apt-get install failed."
have_all || fail "still missing after apt-get install."
