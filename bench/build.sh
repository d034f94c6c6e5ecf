#!/usr/bin/env bash
# Builds the libzmq side of the benchmarks into OUT_DIR (default: target/bench at the repo root), installing
# gcc and libzmq3-dev first if they are missing (install-libzmq.sh). Idempotent; used by zmtp-interop's
# pre-integration-test phase and by compare.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/../target/bench"}
bash "$here/install-libzmq.sh"
make -s -C "$here" OUT="$(mkdir -p "$out" && cd "$out" && pwd)"
