#!/usr/bin/env bash
# Start-up and exit as a whole process (issue 37): the program a command-line tool, a test that makes a context, or a
# short job runs once. A context, a REP bound and a REQ connected over tcp://127.0.0.1, one round trip, close, main
# returns; the JVM must then end by itself. Built three ways and run in turn, several rounds, the order rotated each
# round so that load that comes and goes falls on all alike:
#   jeromq        zmtp-jeromq-guide's HelloRoundTrip compiled against JeroMQ 0.6.0's jar and run on it
#   zmtp-jeromq   the same source on zmtp-jeromq, with what zmtp-jeromq brings (zmtp-jeromq-guide's target/lib)
#   native        zmtp-tools' StartupRoundTrip on netty-zmtp's own API (zmtp-tools' target/lib)
# CDS=1 adds "+cds" runs of each: the JVM's application class-data sharing (an archive of the classes the program
# loaded, made by one run with -XX:ArchiveClassesAtExit; on JDK 19+ -XX:+AutoCreateSharedArchive does it in one
# step), the lever a short-lived JVM has over class loading, which is most of what start-up costs here.
# Per run: wall time (fork to exit), CPU time (user + system, all threads: JIT and GC included), the program's own
# figures (context made, round trip done, in ms from main's first line) and the exit lag (from close() returning to
# the process ending). Medians per implementation in target/startup/table.md, every run in results.csv.
#
#   bench/startup.sh               # RUNS=10 rounds, about 1 min on 2 quiet cores
#   RUNS=20 CDS=1 bench/startup.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out="$root/target/startup"
mkdir -p "$out"
RUNS=${RUNS:-10}
CDS=${CDS:-0}
java_opts=${ZMTP_JAVA_OPTS:-}

if [ "${NO_BUILD:-0}" != 1 ]; then
  echo "building zmtp-jeromq-guide and zmtp-tools..." >&2
  (cd "$root" && ./mvnw -q -B -pl zmtp-jeromq-guide,zmtp-tools -am package -DskipTests -Dmaven.javadoc.skip=true \
      -Dmaven.source.skip=true) >&2
fi
guide="$root/zmtp-jeromq-guide"
tools="$root/zmtp-tools"
main_class=io.zmtp.jeromq.guide.startup.HelloRoundTrip
# JeroMQ's build of the same source. Jars only on every class path: CDS archives refuse directories.
rm -rf "$out/on-jeromq" && mkdir -p "$out/on-jeromq"
javac --release 17 -nowarn -d "$out/on-jeromq" -cp "$guide/target/jeromq-lib/*" \
    "$guide/src/main/java/io/zmtp/jeromq/guide/startup/HelloRoundTrip.java"
jar cf "$out/hello-on-jeromq.jar" -C "$out/on-jeromq" .
guide_jar=$(ls "$guide"/target/zmtp-jeromq-guide-*.jar | grep -v -e sources -e javadoc | head -1)
cp_of() { # impl -> class path
  case "$1" in
    jeromq) echo "$out/hello-on-jeromq.jar:$(ls "$guide"/target/jeromq-lib/*.jar | paste -sd:)" ;;
    zmtp-jeromq) echo "$guide_jar:$(ls "$guide"/target/lib/*.jar | paste -sd:)" ;;
    native) echo "$tools/target/zmtp-tools.jar:$(ls "$tools"/target/lib/*.jar | paste -sd:)" ;;
  esac
}
class_of() { [ "$1" = native ] && echo io.zmtp.tools.bench.StartupRoundTrip || echo "$main_class"; }

impls=(jeromq zmtp-jeromq native)
if [ "$CDS" = 1 ]; then
  for impl in jeromq zmtp-jeromq native; do
    rm -f "$out/$impl.jsa"
    java -XX:ArchiveClassesAtExit="$out/$impl.jsa" -cp "$(cp_of "$impl")" "$(class_of "$impl")" > /dev/null 2>&1
    impls+=("$impl+cds")
  done
fi

results="$out/results.csv"
echo "impl,run,wall_ms,cpu_ms,context_ms,roundtrip_ms,exit_lag_ms,load1" > "$results"
run_one() { # impl run
  local impl=$1 run=$2 base=${1%+cds} opts=$java_opts load start end line
  [ "$impl" != "$base" ] && opts="$opts -XX:SharedArchiveFile=$out/$base.jsa"
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  line=$( { /usr/bin/time -f 'cpu %U %S' java $opts -cp "$(cp_of "$base")" "$(class_of "$base")"; } 2>&1 ) || {
    echo "$impl run $run failed:" >&2; echo "$line" >&2; return; }
  end=$(date +%s%N)
  python3 - "$impl" "$run" "$start" "$end" "$load" "$line" >> "$results" <<'PY'
import re, sys
impl, run, start, end, load, text = sys.argv[1:]
kv = dict(re.findall(r'(\w+)=(\d+)', text))
cpu = re.search(r'cpu ([\d.]+) ([\d.]+)', text)
end_ms = int(end) / 1e6
print(f"{impl},{run},{(int(end) - int(start)) / 1e6:.0f},{(float(cpu.group(1)) + float(cpu.group(2))) * 1000:.0f},"
      f"{kv['context_ms']},{kv['roundtrip_ms']},{end_ms - int(kv['closed_at']):.0f},{load}")
PY
  tail -1 "$results" >&2
}

echo "start: $(uptime)" | tee "$out/uptime.txt" >&2
for run in $(seq 1 "$RUNS"); do
  shift_by=$(( (run - 1) % ${#impls[@]} ))
  for impl in "${impls[@]:$shift_by}" "${impls[@]:0:$shift_by}"; do run_one "$impl" "$run"; done
done
echo "end: $(uptime)" | tee -a "$out/uptime.txt" >&2

python3 - "$results" "$out/table.md" "$out/uptime.txt" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
impls = list(dict.fromkeys(r['impl'] for r in rows))
med = lambda impl, k: statistics.median(float(r[k]) for r in rows if r['impl'] == impl)
base = {k: med('jeromq', k) for k in ('wall_ms', 'cpu_ms')} if any(r['impl'] == 'jeromq' for r in rows) else None
lines = ["| program | runs | wall ms | CPU ms | wall / JeroMQ | CPU / JeroMQ | context made, ms | round trip done, ms | exit after close, ms |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
for impl in impls:
    n = sum(1 for r in rows if r['impl'] == impl)
    w, c = med(impl, 'wall_ms'), med(impl, 'cpu_ms')
    rw = f"{w / base['wall_ms']:.2f}x" if base else "-"
    rc = f"{c / base['cpu_ms']:.2f}x" if base else "-"
    lines.append(f"| {impl} | {n} | {w:.0f} | {c:.0f} | {rw} | {rc} | {med(impl, 'context_ms'):.0f} | "
                 f"{med(impl, 'roundtrip_ms'):.0f} | {med(impl, 'exit_lag_ms'):.0f} |")
lines.append("")
lines.append("Medians. " + " / ".join(l.strip() for l in open(sys.argv[3])))
open(sys.argv[2], 'w').write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
