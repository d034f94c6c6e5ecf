#!/usr/bin/env bash
# ws:// beside tcp, ours and libzmq (Debian's 4.3.4: ws, no wss), in interleaved rounds: each round runs one-way 64 B
# (local_thr/remote_thr, COUNT messages) and latency 1 B (local_lat/remote_lat, LAT_COUNT round trips after
# LAT_WARMUP untimed) for libzmq and ours over tcp, then over ws, with uptime before each round. So what ws costs can
# be told from what the machine's load costs everyone. Prints one line per cell; docs/performance-notes.md ("ws://",
# 2026-11-26) has a run.
#
#   bench/ws_rounds.sh                 # 3 rounds
#   ROUNDS=5 COUNT=4000000 bench/ws_rounds.sh
#
# Builds the libzmq tools (bench/build.sh, into target/bench) and zmtp-tools if missing; ports from PORT (27900) up.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
ROUNDS=${ROUNDS:-3}
COUNT=${COUNT:-2000000}
LAT_COUNT=${LAT_COUNT:-5000}
LAT_WARMUP=${LAT_WARMUP:-10000}
port=${PORT:-27900}
bin="$root/target/bench"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash "$here/build.sh" "$bin" >&2
[ -f "$root/zmtp-tools/target/zmtp-tools.jar" ] || "$root/zmtp" --help > /dev/null
zmtp="java -cp $root/zmtp-tools/target/zmtp-tools.jar:$root/zmtp-tools/target/lib/* io.zmtp.tools.Zmtp"

pair() { # impl local remote endpoint args...
  local impl=$1 l=$2 r=$3 ep=$4 lc rc lp
  shift 4
  if [ "$impl" = libzmq ]; then lc="$bin/$l"; rc="$bin/$r"; else lc="$zmtp $l"; rc="$zmtp $r"; fi
  timeout 300 $lc "$ep" "$@" > "$out/l.txt" 2>/dev/null &
  lp=$!
  sleep 0.4
  timeout 300 $rc "$ep" "$@" > "$out/r.txt" 2>/dev/null || echo "FAILED: $impl $r $ep" >&2
  wait "$lp" || echo "FAILED: $impl $l $ep" >&2
}
endpoint() { # transport port
  if [ "$1" = ws ]; then echo "ws://127.0.0.1:$2/zmq"; else echo "tcp://127.0.0.1:$2"; fi
}
for round in $(seq 1 "$ROUNDS"); do
  echo "# round $round $(uptime)"
  for tp in tcp ws; do
    for impl in libzmq zmtp; do
      port=$((port + 1))
      pair "$impl" local_thr remote_thr "$(endpoint "$tp" "$port")" 64 "$COUNT"
      echo "thr $tp $impl $(sed -n 's/^mean throughput: \([0-9]*\) \[msg\/s\]$/\1 msg\/s/p' "$out/l.txt")"
      port=$((port + 1))
      pair "$impl" local_lat remote_lat "$(endpoint "$tp" "$port")" 1 "$LAT_COUNT" "$LAT_WARMUP"
      echo "lat $tp $impl $(grep -E '^average latency|^latency p50|^latency p99:' "$out/r.txt" | tr '\n' ' ')"
    done
  done
done
echo "# end $(uptime)"
