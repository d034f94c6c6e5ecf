#!/usr/bin/env bash
# The JeroMQ API's cost: JeroMQ's perf programs written against org.zeromq (zmtp-jeromq-guide's perf package: local_thr,
# remote_thr, local_lat, remote_lat), the same source files built two ways, beside our native API's tools:
#   jeromq        the programs compiled against JeroMQ 0.6.0's jar and run on it
#   zmtp-jeromq   the programs as zmtp-jeromq-guide builds them: on zmtp-jeromq (netty-zmtp underneath), with what
#                 zmtp-jeromq brings and nothing more: Netty's NIO transport (epoll is an optional dependency)
#   zmtp-jeromq+epoll  the same, with Netty's epoll jars added to the class path (netty-zmtp then uses epoll)
#   native        ./zmtp local_thr etc. (zmtp-tools, netty-zmtp's own API, which ships with epoll)
# zmtp-jeromq+epoll against native is the cost of the JeroMQ API layer alone (same transport); zmtp-jeromq against
# JeroMQ is what an application gets by changing the dependency and nothing else.
# Each pair runs one implementation on both sides over tcp://127.0.0.1, one JVM per side. One-way throughput PUSH ->
# PULL at THR_SIZES (64 1024 B) with THR_COUNT messages, and latency REQ <-> REP at LAT_SIZES (1 B) with LAT_COUNT round
# trips. RUNS rounds (5); in each round every cell runs once, the implementations in a rotated order, so load that
# comes and goes on a shared machine falls on all three alike. A cell's figure is the median of its runs. Beside the
# wall-clock figures, the CPU time both processes used (perf stat's task-clock, when perf is installed) per message or
# round trip: less at the mercy of other load on the machine than the rates are (JVM start-up and JIT included, alike
# for all three). Every run, with the 1-minute load average when it started, is in target/jeromq-api/results.csv; the
# table in table.md.
#
# STEADY=1 also runs every throughput cell with 4x THR_COUNT messages, in the same round, and reports the CPU the
# extra 3x THR_COUNT messages cost both processes, per message: JVM start-up and the JIT's compiling, paid alike by
# both runs, drop out, so this is the steady state's cost per message, and the least disturbed by other load.
#
#   bench/jeromq-api.sh                       # 5 rounds: about 12 min on 2 shared cores (load 10-20)
#   STEADY=1 RUNS=3 THR_COUNT=2000000 IMPLS="jeromq zmtp-jeromq native" bench/jeromq-api.sh
#   RUNS=3 THR_COUNT=500000 bench/jeromq-api.sh   # shorter
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out="$root/target/jeromq-api"
mkdir -p "$out"

RUNS=${RUNS:-5}
THR_SIZES=${THR_SIZES:-"64 1024"}
THR_COUNT=${THR_COUNT:-2000000}
LAT_SIZES=${LAT_SIZES:-"1"}
LAT_COUNT=${LAT_COUNT:-20000}
read -r -a IMPLS <<< "${IMPLS:-jeromq zmtp-jeromq zmtp-jeromq+epoll native}"
STEADY=${STEADY:-0}
PORT=${PORT:-27100}
java_opts=${ZMTP_JAVA_OPTS:-}

echo "building zmtp-jeromq-guide and zmtp-tools..." >&2
(cd "$root" && ./mvnw -q -B -pl zmtp-jeromq-guide,zmtp-tools -am package -DskipTests -Dmaven.javadoc.skip=true \
    -Dmaven.source.skip=true) >&2
guide="$root/zmtp-jeromq-guide"
# The JeroMQ build: the same sources, against JeroMQ's jar only (copied by the guide module's build).
rm -rf "$out/guide-on-jeromq"
javac --release 17 -nowarn -d "$out/guide-on-jeromq" -cp "$guide/target/jeromq-lib/*" \
    $(find "$guide/src/main/java" -name '*.java') 2> "$out/javac.log" || { cat "$out/javac.log" >&2; exit 1; }

# Netty's epoll jars, as zmtp-tools ships them.
epoll_jars=$(ls "$root"/zmtp-tools/target/lib/netty-transport-*epoll*.jar | paste -sd:)

cmd() { # impl tool(local_thr...) -> command
  local class
  case "$2" in
    local_thr) class=LocalThr ;; remote_thr) class=RemoteThr ;; local_lat) class=LocalLat ;; remote_lat) class=RemoteLat ;;
  esac
  case "$1" in
    jeromq) echo "java $java_opts -cp $out/guide-on-jeromq:$guide/target/jeromq-lib/* io.zmtp.jeromq.guide.perf.$class" ;;
    zmtp-jeromq) echo "java $java_opts -cp $guide/target/classes:$guide/target/lib/* io.zmtp.jeromq.guide.perf.$class" ;;
    zmtp-jeromq+epoll) echo "java $java_opts -cp $guide/target/classes:$guide/target/lib/*:$epoll_jars io.zmtp.jeromq.guide.perf.$class" ;;
    native) echo "java $java_opts -cp $root/zmtp-tools/target/zmtp-tools.jar:$root/zmtp-tools/target/lib/* io.zmtp.tools.Zmtp $2" ;;
  esac
}

results="$out/results.csv"
echo "kind,impl,size,run,value,cpu_us,load1" > "$results"
if perf stat -x, -e task-clock -o /dev/null true 2>/dev/null; then
  cpu() { perf stat -x, -e task-clock -o "$1" "${@:2}"; }
else
  echo "perf not found: no CPU-time figures (apt-get install linux-perf)" >&2
  cpu() { rm -f "$1"; "${@:2}"; }
fi
cpu_ms() { [ -f "$1" ] && awk -F, '/task-clock/ {print $1}' "$1" || echo NaN; }

# run_pair kind impl size count run: one local/remote pair; appends msg/s (thr) or average one-way us (lat).
run_pair() {
  local kind=$1 impl=$2 size=$3 count=$4 run=$5
  local endpoint="tcp://127.0.0.1:$PORT" log="$out/$kind-$impl-$size-$run.log" load value tool=${1%4}
  PORT=$((PORT + 1))
  load=$(cut -d' ' -f1 /proc/loadavg)
  cpu "$log.local.cpu" $(cmd "$impl" "local_$tool") "$endpoint" "$size" "$count" > "$log.local" 2>&1 &
  local lpid=$!
  if ! cpu "$log.remote.cpu" timeout 300 $(cmd "$impl" "remote_$tool") "$endpoint" "$size" "$count" > "$log.remote" 2>&1; then
    echo "remote_$tool ($impl, $size B) failed:" >&2; cat "$log.remote" >&2
  fi
  wait "$lpid" || { echo "local_$tool ($impl, $size B) failed:" >&2; cat "$log.local" >&2; }
  if [ "$tool" = thr ]; then
    value=$(sed -n 's/^mean throughput: \([0-9]*\) \[msg\/s\]$/\1/p' "$log.local")
  else
    value=$(sed -n 's/^average latency: \([0-9.]*\) \[us\]$/\1/p' "$log.remote")
  fi
  local cpu_us
  cpu_us=$(awk -v a="$(cpu_ms "$log.local.cpu")" -v b="$(cpu_ms "$log.remote.cpu")" -v n="$count" \
      'BEGIN { if (a == "NaN" || b == "NaN" || a == "" || b == "") print "NaN"; else printf "%.3f", (a + b) * 1000 / n }')
  echo "$kind,$impl,$size,$run,${value:-NaN},$cpu_us,$load" >> "$results"
  printf '%s %-17s %5s B run %d: %s, CPU %s us each (load %s)\n' "$kind" "$impl" "$size" "$run" "${value:-failed}" \
      "$cpu_us" "$load" >&2
}

echo "start: $(uptime)" | tee "$out/uptime.txt" >&2
for run in $(seq 1 "$RUNS"); do
  # Rotate the order each round.
  shift_by=$(( (run - 1) % ${#IMPLS[@]} ))
  order=("${IMPLS[@]:$shift_by}" "${IMPLS[@]:0:$shift_by}")
  for size in $THR_SIZES; do
    for impl in "${order[@]}"; do
      run_pair thr "$impl" "$size" "$THR_COUNT" "$run"
      if [ "$STEADY" = 1 ]; then run_pair thr4 "$impl" "$size" $((THR_COUNT * 4)) "$run"; fi
    done
  done
  for size in $LAT_SIZES; do
    for impl in "${order[@]}"; do run_pair lat "$impl" "$size" "$LAT_COUNT" "$run"; done
  done
done
echo "end: $(uptime)" | tee -a "$out/uptime.txt" >&2

python3 - "$results" "$out/table.md" "$out/uptime.txt" "$THR_COUNT" "${IMPLS[*]}" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cells = {}
loads = []
count = int(sys.argv[4])
impls = tuple(sys.argv[5].split())
# STEADY: a run's steady CPU per message is (CPU of its 4N run - CPU of its N run) / 3N, both runs of one round.
totals = {}
for r in rows:
    if r["kind"] in ("thr", "thr4") and r["cpu_us"] != "NaN":
        n = count * (4 if r["kind"] == "thr4" else 1)
        totals.setdefault((int(r["size"]), r["impl"], r["run"]), {})[r["kind"]] = float(r["cpu_us"]) * n
for (size, impl, run), t in totals.items():
    if "thr" in t and "thr4" in t:
        cells.setdefault(("cpusteady", size, impl), []).append((t["thr4"] - t["thr"]) / (3 * count))
for r in rows:
    if r["value"] != "NaN":
        cells.setdefault((r["kind"], int(r["size"]), r["impl"]), []).append(float(r["value"]))
    if r["cpu_us"] != "NaN":
        cells.setdefault(("cpu" + r["kind"], int(r["size"]), r["impl"]), []).append(float(r["cpu_us"]))
    loads.append(float(r["load1"]))
order = {"thr": 0, "thr4": 1, "lat": 2, "cputhr": 3, "cputhr4": 4, "cpusteady": 5, "cpulat": 6}
keys = sorted({(k, s) for k, s, _ in cells}, key=lambda x: (order[x[0]], x[1]))
names = {"jeromq": "JeroMQ 0.6.0", "zmtp-jeromq": "zmtp-jeromq", "zmtp-jeromq+epoll": "zmtp-jeromq + epoll jars",
         "native": "native API"}
pairs = [(a, b) for a, b in (("zmtp-jeromq", "jeromq"), ("zmtp-jeromq+epoll", "jeromq"), ("zmtp-jeromq", "native"),
                             ("native", "jeromq")) if a in impls and b in impls]
lines = ["| test | size | " + " | ".join(names[i] for i in impls) + " | "
         + " | ".join(f"{names[a]} / {names[b]}" for a, b in pairs) + " |",
         "|---|---:|" + "---:|" * (len(impls) + len(pairs))]
for kind, size in keys:
    med = {i: statistics.median(cells[(kind, size, i)]) for i in impls if (kind, size, i) in cells}
    def fmt(v):
        return f"{v:,.0f} msg/s" if kind in ("thr", "thr4") else f"{v:.1f} us" if kind == "lat" else f"{v:.2f} us"
    def ratio(a, b):
        if a not in med or b not in med: return "-"
        # higher is better for throughput, lower for latency and CPU: the ratio reads "x times as good"
        return f"{med[a] / med[b]:.2f}x" if kind in ("thr", "thr4") else f"{med[b] / med[a]:.2f}x"
    name = {"thr": "one-way throughput", "thr4": "one-way throughput, 4x the messages",
            "lat": "latency (one way)", "cputhr": "CPU per message (both sides)",
            "cputhr4": "CPU per message (both sides), 4x the messages",
            "cpusteady": "CPU per message (both sides), steady: (4N run - N run) / 3N",
            "cpulat": "CPU per round trip (both sides)"}[kind]
    lines.append(f"| {name} | {size} B | " + " | ".join(fmt(med[i]) if i in med else "-" for i in impls)
                 + "".join(f" | {ratio(a, b)}" for a, b in pairs) + " |")
runs = max(len(v) for v in cells.values()) if cells else 0
lines.append("")
lines.append(f"Medians of {runs} runs per cell; 1-minute load when each run started: min {min(loads):.2f}, median {statistics.median(loads):.2f}, max {max(loads):.2f}.")
lines.extend(open(sys.argv[3]).read().splitlines())
text = "\n".join(lines) + "\n"
open(sys.argv[2], "w").write(text)
print(text)
PY
