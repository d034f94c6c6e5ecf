#!/usr/bin/env bash
# Makes sure gcc, make, pkg-config and libzmq's headers (Debian's libzmq3-dev) are here; idempotent. Installs with
# apt-get when something is missing; fails with instructions when it can't (install-debian-packages.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/install-debian-packages.sh" "The libzmq side of the benchmarks and of PerfToolsLibzmqIT" \
  gcc=gcc make=make pkg-config=pkg-config pkg-config:libzmq=libzmq3-dev
