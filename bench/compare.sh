#!/usr/bin/env bash
# Ours (zmtp) vs libzmq (Debian's libzmq3-dev, bench/*.c) vs JeroMQ 0.6.0, on this machine, in one go:
# one-way throughput (PUSH->PULL) at 1, 16, 64, 256, 1024, 65536 B, latency (REQ<->REP) at 1 and 1024 B, and mixed
# throughput pairs (our local_thr with libzmq's remote_thr and the reverse). Each cell is the median of RUNS runs.
# Prints one table (also written to target/compare/table.md) and draws docs/perf-throughput.png and
# docs/perf-latency.png.
#
#   bench/compare.sh            # ~7-8 minutes: runs of a few seconds, so the JVMs are past JIT warm-up
#   bench/compare.sh --full     # 3x the counts
#   SCALE=0.2 RUNS=1 bench/compare.sh   # anything in between; SIZES="64 1024" LAT_SIZES="1" to narrow
#
# Installs what it needs: gcc/libzmq3-dev (apt-get, via install-libzmq.sh), JeroMQ (Maven), matplotlib (venv under
# target/compare/venv).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out="$root/target/compare"
mkdir -p "$out"

SCALE=${SCALE:-1}
[ "${1:-}" = "--full" ] && SCALE=3
RUNS=${RUNS:-3}
SIZES=${SIZES:-"1 16 64 256 1024 65536"}
LAT_SIZES=${LAT_SIZES:-"1 1024"}
MIXED_SIZES=${MIXED_SIZES:-"64 1024"}   # mixed pairs: our local_thr with libzmq's remote_thr and the reverse
IMPLS=${IMPLS:-"libzmq zmtp jeromq"}
PORT=${PORT:-5700}

# Messages per throughput run at each size (quick); latency round trips per run.
thr_count() {
  local n
  case "$1" in
    1|16|64) n=10000000 ;;
    256) n=4000000 ;;
    1024) n=2000000 ;;
    65536) n=60000 ;;
    *) n=$((200000000 / ($1 + 100))) ;;
  esac
  awk -v n="$n" -v s="$SCALE" 'BEGIN { printf "%d", n * s }'
}
lat_count() {
  awk -v s="$SCALE" 'BEGIN { printf "%d", 20000 * s }'
}

echo "== setup" >&2
bash "$here/build.sh" "$out/bin" >&2
(cd "$root" && ./mvnw -q -B -pl zmtp-tools -am package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true) >&2
(cd "$root" && ./mvnw -q -B -f bench/jeromq/pom.xml package -DskipTests) >&2
if ! "$out/venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
  python3 -m venv "$out/venv"
  "$out/venv/bin/pip" install -q --disable-pip-version-check matplotlib >&2
fi

java_opts=${ZMTP_JAVA_OPTS:-}
cmd() { # impl tool -> command prefix
  case "$1" in
    libzmq) echo "$out/bin/$2" ;;
    zmtp) echo "java $java_opts -cp $root/zmtp-tools/target/zmtp-tools.jar:$root/zmtp-tools/target/lib/* io.zmtp.tools.Zmtp $2" ;;
    jeromq) echo "java -cp $root/bench/jeromq/target/jeromq-perf.jar:$root/bench/jeromq/target/lib/* JeromqPerf $2" ;;
  esac
}

results="$out/results.csv"
echo "kind,local,remote,size,run,value,p50,p90,p99,p999,max" > "$results"

# run_pair kind local_impl remote_impl size count run
run_pair() {
  local kind=$1 limpl=$2 rimpl=$3 size=$4 count=$5 run=$6
  local ltool rtool port=$PORT
  PORT=$((PORT + 1))
  if [ "$kind" = thr ]; then ltool=local_thr; rtool=remote_thr; else ltool=local_lat; rtool=remote_lat; fi
  local lout="$out/last-local.txt" rout="$out/last-remote.txt"
  timeout 300 $(cmd "$limpl" "$ltool") "tcp://*:$port" "$size" "$count" > "$lout" 2>"$out/last-local.err" &
  local lpid=$!
  sleep 0.3
  if ! timeout 300 $(cmd "$rimpl" "$rtool") "tcp://127.0.0.1:$port" "$size" "$count" > "$rout" 2>"$out/last-remote.err"; then
    echo "FAILED: $rimpl $rtool $size $count: $(cat "$out/last-remote.err")" >&2
    kill "$lpid" 2>/dev/null || true
    wait "$lpid" 2>/dev/null || true
    return 0
  fi
  if ! wait "$lpid"; then
    echo "FAILED: $limpl $ltool $size $count: $(cat "$out/last-local.err")" >&2
    return 0
  fi
  if [ "$kind" = thr ]; then
    local v
    v=$(sed -n 's/^mean throughput: \([0-9]*\) \[msg\/s\]$/\1/p' "$lout")
    echo "thr,$limpl,$rimpl,$size,$run,$v,,,,," >> "$results"
    printf '  thr %-6s <- %-6s %6s B  run %d: %12s msg/s\n' "$limpl" "$rimpl" "$size" "$run" "$v" >&2
  else
    local avg p50 p90 p99 p999 max
    avg=$(sed -n 's/^average latency: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p50=$(sed -n 's/^latency p50: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p90=$(sed -n 's/^latency p90: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p99=$(sed -n 's/^latency p99: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p999=$(sed -n 's/^latency p99.9: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    max=$(sed -n 's/^latency max: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    echo "lat,$limpl,$rimpl,$size,$run,$avg,$p50,$p90,$p99,$p999,$max" >> "$results"
    printf '  lat %-6s <- %-6s %6s B  run %d: %10s us (p99 %s)\n' "$limpl" "$rimpl" "$size" "$run" "$avg" "$p99" >&2
  fi
}

start=$(date +%s)
echo "== throughput (scale $SCALE, $RUNS runs per cell)" >&2
for size in $SIZES; do
  n=$(thr_count "$size")
  for run in $(seq 1 "$RUNS"); do
    for impl in $IMPLS; do
      run_pair thr "$impl" "$impl" "$size" "$n" "$run"
    done
    if [[ " $MIXED_SIZES " == *" $size "* ]]; then
      run_pair thr zmtp libzmq "$size" "$n" "$run"
      run_pair thr libzmq zmtp "$size" "$n" "$run"
    fi
  done
done
echo "== latency" >&2
for size in $LAT_SIZES; do
  n=$(lat_count)
  for run in $(seq 1 "$RUNS"); do
    for impl in $IMPLS; do
      run_pair lat "$impl" "$impl" "$size" "$n" "$run"
    done
  done
done
echo "== done in $(( $(date +%s) - start )) s" >&2

"$out/venv/bin/python" "$here/report.py" "$results" "$root/docs" | tee "$out/table.md"
