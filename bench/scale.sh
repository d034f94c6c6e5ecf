#!/usr/bin/env bash
# Scale, ours vs libzmq (pyzmq): PUB fan-out to FANOUT_SUBS subscribers and one ROUTER with ROUTER_PEERS DEALERs at
# each of IO_THREADS, RUNS runs per cell, ours and libzmq's interleaved; prints each run's summary line and a table
# of medians (also in target/scale/table.md). Commands: `zmtp bench fanout|router-scale` and bench/scale_libzmq.py.
#
#   bench/scale.sh                                  # ~15 minutes: fan-out 1, 10, 100; 10,000 peers at io 1 and 2
#   FANOUT_SUBS="1 10" ROUTER_PEERS=1000 RUNS=1 DURATION=3 bench/scale.sh   # a quick pass
#   SECTIONS=fanout bench/scale.sh                  # or SECTIONS=router
#
# The DEALERs of ours run in a child JVM (--dealer-process) and libzmq's in child processes: 10,000 peers in one
# process would need 20,000 descriptors, this machine's hard limit (ulimit -n is raised as far as it allows).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out="$root/target/scale"
mkdir -p "$out"
RUNS=${RUNS:-3}
DURATION=${DURATION:-10}
SIZE=${SIZE:-100}
FANOUT_SUBS=${FANOUT_SUBS:-"1 10 100"}
ROUTER_PEERS=${ROUTER_PEERS:-10000}
IO_THREADS=${IO_THREADS:-"1 2"}
SECTIONS=${SECTIONS:-"fanout router"}
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

echo "== setup (ulimit -n $(ulimit -n))" >&2
(cd "$root" && ./mvnw -q -B -pl zmtp-tools -am package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true) >&2
bash "$root/zmtp-interop/src/test/python/setup-venv.sh" "$out/venv" >&2
zmtp="java ${ZMTP_JAVA_OPTS:-} -cp $root/zmtp-tools/target/zmtp-tools.jar:$root/zmtp-tools/target/lib/* io.zmtp.tools.Zmtp"
py="$out/venv/bin/python $here/scale_libzmq.py"

results="$out/results.csv"
echo "test,impl,n,io,run,rate,detail" > "$results"
run() { # test impl n io run command...
  local test=$1 impl=$2 n=$3 io=$4 r=$5 log="$out/last.txt"
  shift 5
  echo "  \$ $*" >&2
  if ! timeout 600 "$@" > "$log" 2>"$out/last.err"; then
    echo "FAILED: $test $impl $n io $io: $(tail -3 "$out/last.err")" >&2
    return 0
  fi
  local line rate
  line=$(grep '^average: ' "$log" | tail -1)
  rate=$(sed -n 's/^average: \([0-9,]*\) .*/\1/p' <<< "$line" | tr -d ,)
  echo "$test,$impl,$n,$io,$r,$rate,\"${line//\"/}\"" >> "$results"
  printf '  %-6s %-6s n=%-5s io=%s run %d: %s\n' "$test" "$impl" "$n" "$io" "$r" "$line" >&2
}

start=$(date +%s)
echo "== $(date -u '+%F %T UTC'), load: $(uptime | sed 's/.*load average: //')" >&2
if [[ " $SECTIONS " == *" fanout "* ]]; then
  echo "== fan-out, $SIZE B, $DURATION s per run" >&2
  for n in $FANOUT_SUBS; do
    for r in $(seq 1 "$RUNS"); do
      run fanout zmtp "$n" 1 "$r" $zmtp bench fanout --subscribers "$n" --size "$SIZE" --duration "$DURATION"
      run fanout libzmq "$n" 1 "$r" $py fanout --subscribers "$n" --size "$SIZE" --duration "$DURATION"
    done
  done
fi
if [[ " $SECTIONS " == *" router "* ]]; then
  echo "== router-scale, $ROUTER_PEERS peers, $SIZE B, 4 in flight each, $DURATION s per run" >&2
  for io in $IO_THREADS; do
    for r in $(seq 1 "$RUNS"); do
      run router zmtp "$ROUTER_PEERS" "$io" "$r" $zmtp bench router-scale --dealer-process --peers "$ROUTER_PEERS" \
        --size "$SIZE" --duration "$DURATION" --io-threads "$io"
      run router libzmq "$ROUTER_PEERS" "$io" "$r" $py router-scale --peers "$ROUTER_PEERS" --size "$SIZE" \
        --duration "$DURATION" --io-threads "$io"
    done
  done
fi
echo "== done in $(( $(date +%s) - start )) s, load: $(uptime | sed 's/.*load average: //')" >&2

"$out/venv/bin/python" - "$results" <<'PY' | tee "$out/table.md"
import csv, statistics, sys
from collections import defaultdict
cells = defaultdict(list)
for row in csv.DictReader(open(sys.argv[1])):
    if row["rate"]:
        cells[(row["test"], int(row["n"]), int(row["io"]), row["impl"])].append((int(row["rate"]), row["detail"]))
print("| test | N | io threads | implementation | median per s | ratio ours/libzmq | runs |")
print("|---|---:|---:|---|---:|---:|---|")
for key in sorted(cells, key=lambda k: (k[0], k[1], k[2], k[3] != "zmtp")):
    test, n, io, impl = key
    rates = [r for r, _ in cells[key]]
    m = statistics.median(rates)
    other = cells.get((test, n, io, "libzmq"))
    ratio = f"{m / statistics.median([r for r, _ in other]):.2f}" if impl == "zmtp" and other else ""
    print(f"| {test} | {n} | {io} | {impl} | {m:,.0f} | {ratio} | {', '.join(f'{r:,d}' for r in rates)} |")
PY
