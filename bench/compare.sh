#!/usr/bin/env bash
# Ours (zmtp) vs libzmq (Debian's libzmq3-dev, bench/*.c) vs JeroMQ 0.6.0 vs Spotify's netty4-zmtp 0.4.0, on this
# machine, in one go. Every cell is measured twice, and the two are never mixed:
#   cold    a fresh JVM (or process) and a short run, as libzmq's perf tools are usually run: what a user who runs
#           them for a few seconds sees. JIT warm-up included.
#   steady  the JVM past its warm-up: untimed messages, round trips or requests first, then a long timed run
#           (throughput: as many untimed messages as timed ones, STEADY_FACTOR x the cold run's; latency and
#           request/reply as below), or the per-second lines from second 4 on (inproc, Spotify's shapes).
# Sections (SECTIONS, all by default over tcp):
#   thr     one-way throughput PUSH -> PULL at SIZES (1, 16, 64, 256, 1024, 65536 B), ours, libzmq, JeroMQ, and
#           mixed pairs (our local_thr with libzmq's remote_thr and the reverse) at MIXED_SIZES (64, 1024 B)
#   lat     latency REQ <-> REP at LAT_SIZES (1, 1024 B), average and percentiles of half round trips
#   rr      request/reply, DEALER rr_client -> ROUTER rr_server, RR_INFLIGHT (1000) in flight, at RR_SIZES (16,
#           1024 B), libzmq and ours in all four pairings (JeroMQ has no tool for it here)
#   curve   one-way throughput (with the mixed pairs) over CURVE at CURVE_SIZES (64, 1024, 65536 B) and latency at
#           CURVE_LAT_SIZES (64, 1024 B), libzmq (libsodium) and ours (our XSalsa20-Poly1305 on the messages),
#           ours twice: as is, and with --add-modules jdk.incubator.vector ("ours + Vector API": Salsa20 and
#           Poly1305 on SIMD registers, docs/security.md); the mixed pairs with the latter
#   ipc     one-way throughput at IPC_SIZES (64 B) and latency at IPC_LAT_SIZES (1 B) over ipc:// (Unix domain
#           sockets), libzmq and ours (JeroMQ's ipc:// is tcp on loopback)
#   inproc  inproc:// in one JVM, ours vs JeroMQ: PUSH -> PULL for INPROC_SECONDS (10) at INPROC_SIZE (100 B);
#           cold = mean of seconds 1-3, steady = mean of seconds 4 on, of the same run
#   spotify Spotify's netty4-zmtp 0.4.0 (its own JVM on Netty 4.0, bench/spotify/) in its README's in-process shapes
#           beside ours, one JVM each, SPOTIFY_SECONDS (10) per run: one-way 100 B (theirs; ours codec only, one
#           message retained per write as theirs, and socket layer) and request/reply with 1000 in flight, 6 frames
#           (theirs: 9, 9, 0, 20, 40, 100 B; ours: delimiter, 16 B header, 4 x 40 B; codec only and socket
#           layer); cold = seconds 1-3, steady = seconds 4 on, of the same run
#   startup a whole short process, start to exit (bench/startup.sh: a context, REQ/REP over tcp, one round trip,
#           close), on JeroMQ, on zmtp-jeromq and on our own API, STARTUP_RUNS (10) rounds, interleaved; its table
#           is appended to this one (libzmq not measured: a C program has no JVM to start)
# Each cell is the median of RUNS (3) runs. Prints the tables (also written to target/compare/table.md; every run is
# in target/compare/results.csv) and draws docs/perf-*.png.
#
#   bench/compare.sh            # everything, 3 runs per cell: 50 min on the 2 cores with nothing else running
#                               # (2026-11-27; 37 min before the steady throughput cells had their warm-up)
#   bench/compare.sh --quick    # 1 run per cell, fewer sizes (1, 64, 1024 B one-way; 1 B latency; 16 B rr)
#   bench/compare.sh --full     # 3x the counts
#   SCALE=0.02 RUNS=1 bench/compare.sh   # anything in between (counts x SCALE); SIZES="64 1024" LAT_SIZES="1"
#   SECTIONS="thr lat" MODES=steady bench/compare.sh   # some sections, one mode; charts are redrawn only for the
#                                                      # sections that ran
#   TRANSPORT=ipc bench/compare.sh   # the thr, lat, rr and curve sections over ipc:// (a path per run under
#                                    # target/compare-ipc); results, table and charts go to target/compare-ipc
#   TRANSPORT=ws bench/compare.sh    # the same over ws:// (ZWS 2.0; libzmq's side is Debian's 4.3.4, which has
#                                    # ws but not wss); to target/compare-ws
#   IMPLS="zmtp zmtpu" MIXED_SIZES=none SECTIONS="thr lat" bench/compare.sh # ours on epoll (zmtp: the default
#                                    # I/O transport, AUTO) beside ours on io_uring (zmtpu: -Dzmtp.io.transport=
#                                    # io_uring), interleaved cell by cell (docs/performance-notes.md, io_uring round 4)
#
# Installs what it needs: gcc/libzmq3-dev (apt-get, via install-libzmq.sh), JeroMQ and Spotify's netty4-zmtp
# (Maven), matplotlib (venv under target/compare/venv).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TRANSPORT=${TRANSPORT:-tcp}
case "$TRANSPORT" in
  tcp) out="$root/target/compare"; charts="$root/docs"; default_impls="libzmq zmtp jeromq"
       default_sections="thr lat rr curve ipc inproc spotify startup" ;;
  ipc) out="$root/target/compare-ipc"; charts="$out"; default_impls="libzmq zmtp"; default_sections="thr lat rr curve" ;;
  # libzmq's ws:// is Debian's 4.3.4 build's (zmq_has("WS") is 1 there); JeroMQ has no ws://.
  ws) out="$root/target/compare-ws"; charts="$out"; default_impls="libzmq zmtp"; default_sections="thr lat rr curve" ;;
  *) echo "TRANSPORT=$TRANSPORT: expected tcp, ipc or ws" >&2; exit 2 ;;
esac
mkdir -p "$out"

SCALE=${SCALE:-1}
RUNS=${RUNS:-3}
SIZES=${SIZES:-"1 16 64 256 1024 65536"}
LAT_SIZES=${LAT_SIZES:-"1 1024"}
RR_SIZES=${RR_SIZES:-"16 1024"}
case "${1:-}" in
  --full) SCALE=3 ;;
  --quick) RUNS=1; SIZES="1 64 1024"; LAT_SIZES="1"; RR_SIZES="16" ;;
  "") ;;
  *) echo "usage: bench/compare.sh [--quick|--full] (settings in the environment: see the top of this file)" >&2; exit 2 ;;
esac
MIXED_SIZES=${MIXED_SIZES:-"64 1024"}   # mixed pairs: our local_thr with libzmq's remote_thr and the reverse
IMPLS=${IMPLS:-$default_impls}
SECTIONS=${SECTIONS:-$default_sections}
MODES=${MODES:-"steady cold"}
CURVE_SIZES=${CURVE_SIZES:-"64 1024 65536"}
CURVE_LAT_SIZES=${CURVE_LAT_SIZES:-"64 1024"}
IPC_SIZES=${IPC_SIZES:-"64"}
IPC_LAT_SIZES=${IPC_LAT_SIZES:-"1"}
# The zmq_curve man page's server test pair: the binding side is the CURVE server, the connecting side its client
# (with a new key pair each run).
CURVE_PUBLIC='rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7'
CURVE_SECRET='JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6'
INPROC_SECONDS=${INPROC_SECONDS:-10}
INPROC_SIZE=${INPROC_SIZE:-100}
SPOTIFY_SECONDS=${SPOTIFY_SECONDS:-10}
RR_INFLIGHT=${RR_INFLIGHT:-1000}
# Steady throughput runs time STEADY_FACTOR times a cold run's messages, after as many untimed ones.
STEADY_FACTOR=${STEADY_FACTOR:-4}
# Untimed round trips before a latency run's timed ones, given to both tools: LAT_WARMUP in cold runs (0: libzmq's
# tools as they are), STEADY_LAT_WARMUP in steady ones, whose timed round trips are STEADY_LAT_COUNT.
LAT_WARMUP=${LAT_WARMUP:-0}
STEADY_LAT_WARMUP=${STEADY_LAT_WARMUP:-60000}
STEADY_LAT_COUNT=${STEADY_LAT_COUNT:-40000}
PORT=${PORT:-5700}

# Messages per cold throughput run at each size; latency round trips per cold run.
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
# Messages per cold CURVE throughput run; steady runs time STEADY_FACTOR (4) times that after as many untimed: 10 M
# at 64 B and 3 M at 1 KiB, the counts of the performance issue's table, and 100 k at 64 KiB (after 100 k untimed:
# our JIT is still compiling the 64 KiB box's code 5-7 s into a run, about 60 k messages in).
curve_count() {
  local n
  case "$1" in
    64) n=2500000 ;;
    1024) n=750000 ;;
    65536) n=25000 ;;
    *) n=$((50000000 / ($1 + 100))) ;;
  esac
  awk -v n="$n" -v s="$SCALE" 'BEGIN { printf "%d", n * s }'
}
scaled() { awk -v n="$1" -v s="$SCALE" 'BEGIN { printf "%d", n * s }'; }
lat_count() { scaled 20000; }
# Timed requests per cold request/reply run; each cold run also has a tenth of that as untimed warm-up (the
# tools' first request waits for the connection). A steady run has twice the requests, after as many untimed.
rr_count() {
  local n
  case "$1" in
    1024) n=1000000 ;;
    *) n=2000000 ;;
  esac
  scaled "$n"
}
has_section() { [[ " $SECTIONS " == *" $1 "* ]]; }
has_mode() { [[ " $MODES " == *" $1 "* ]]; }

echo "== setup" >&2
bash "$here/build.sh" "$out/bin" >&2
(cd "$root" && ./mvnw -q -B -pl zmtp-tools,zmtp-jeromq-guide -am package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true) >&2
# JeroMQ has no request/reply tool here: only the thr, lat and inproc sections need it.
if [[ " $IMPLS " == *" jeromq "* ]] && { has_section thr || has_section lat || has_section inproc; }; then
  (cd "$root" && ./mvnw -q -B -f bench/jeromq/pom.xml package -DskipTests) >&2
fi
if has_section spotify; then
  (cd "$root" && ./mvnw -q -B -f bench/spotify/pom.xml package -DskipTests) >&2
fi
# One venv for both transports, under target/compare.
venv="$root/target/compare/venv"
if ! "$venv/bin/python" -c 'import matplotlib' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check matplotlib >&2
fi

java_opts=${ZMTP_JAVA_OPTS:-}
cmd() { # impl tool -> command prefix
  case "$1" in
    libzmq) echo "$out/bin/$2" ;;
    zmtp) echo "java $java_opts -cp $root/zmtp-tools/target/zmtp-tools.jar:$root/zmtp-tools/target/lib/* io.zmtp.tools.Zmtp $2" ;;
    # Ours with the Vector API resolved: CURVE's crypto on it (the JVM prints a warning about the incubator module).
    zmtpv) echo "java $java_opts --add-modules jdk.incubator.vector -cp $root/zmtp-tools/target/zmtp-tools.jar:$root/zmtp-tools/target/lib/* io.zmtp.tools.Zmtp $2" ;;
    # Ours on io_uring: every tool's default I/O transport (--io-transport) set through its system property.
    zmtpu) echo "java $java_opts -Dzmtp.io.transport=io_uring -cp $root/zmtp-tools/target/zmtp-tools.jar:$root/zmtp-tools/target/lib/* io.zmtp.tools.Zmtp $2" ;;
    jeromq) echo "java -cp $root/bench/jeromq/target/jeromq-perf.jar:$root/bench/jeromq/target/lib/* JeromqPerf $2" ;;
    # Netty 4.0 finds no direct-buffer access on JDK 9+ without these opens and falls back to heap buffers.
    spotify) echo "java --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED -cp $root/bench/spotify/target/spotify-perf.jar:$root/bench/spotify/target/lib/* SpotifyPerf $2" ;;
  esac
}

results="$out/results.csv"
echo "kind,mode,local,remote,size,run,value,p50,p90,p99,p999,max" > "$results"

# run_pair kind mode local_impl remote_impl size count warmup run. For rr, local is the server (rr_server) and remote
# the client. Kinds: thr, lat, rr; cthr and clat are thr and lat over CURVE; ithr and ilat over ipc:// in a tcp run.
# warmup: untimed messages (thr), round trips (lat) or requests (rr) before the timed ones.
run_pair() {
  local kind=$1 mode=$2 limpl=$3 rimpl=$4 size=$5 count=$6 warmup=$7 run=$8
  local ltool rtool port=$PORT tp=$TRANSPORT base
  local largs=("$size" "$count") rargs=("$size" "$count")
  PORT=$((PORT + 1))
  case "$kind" in
    thr|cthr|ithr) base=thr ;;
    lat|clat|ilat) base=lat ;;
    rr) base=rr ;;
  esac
  [[ "$kind" == i* ]] && tp=ipc
  if [[ "$kind" == c* ]]; then
    largs+=(--curve-secret-key "$CURVE_SECRET"); rargs+=(--curve-server-key "$CURVE_PUBLIC")
  fi
  case "$base" in
    thr|lat) ltool=local_$base; rtool=remote_$base
      # Both tools of a pair take the same optional warm-up count after the count.
      if [ "$warmup" -gt 0 ]; then largs=("$size" "$count" "$warmup" "${largs[@]:2}"); rargs=("$size" "$count" "$warmup" "${rargs[@]:2}"); fi ;;
    rr) ltool=rr_server; rtool=rr_client
      largs=("$size" "$count" "$warmup" "${largs[@]:2}"); rargs=("$size" "$count" "$RR_INFLIGHT" "$warmup" "${rargs[@]:2}") ;;
  esac
  local lout="$out/last-local.txt" rout="$out/last-remote.txt"
  local bind_ep connect_ep
  if [ "$tp" = ipc ]; then
    # A fresh path per run, as the port is; the binding tool removes its file when it closes.
    bind_ep="ipc://$out/run-$port.sock"; connect_ep=$bind_ep
  elif [ "$tp" = ws ]; then
    bind_ep="ws://127.0.0.1:$port/zmq"; connect_ep=$bind_ep
  else
    bind_ep="tcp://*:$port"; connect_ep="tcp://127.0.0.1:$port"
  fi
  timeout 600 $(cmd "$limpl" "$ltool") "$bind_ep" "${largs[@]}" > "$lout" 2>"$out/last-local.err" &
  local lpid=$!
  sleep 0.3
  if ! timeout 600 $(cmd "$rimpl" "$rtool") "$connect_ep" "${rargs[@]}" > "$rout" 2>"$out/last-remote.err"; then
    echo "FAILED: $rimpl $rtool $size $count: $(tail -3 "$out/last-remote.err")" >&2
    kill "$lpid" 2>/dev/null || true
    wait "$lpid" 2>/dev/null || true
    return 0
  fi
  if ! wait "$lpid"; then
    echo "FAILED: $limpl $ltool $size $count: $(tail -3 "$out/last-local.err")" >&2
    return 0
  fi
  # libzmq 4.3 leaves a named ipc path's file behind when it closes (ours removes it).
  [ "$tp" = ipc ] && rm -f "${bind_ep#ipc://}"
  local v
  if [ "$base" = thr ]; then
    v=$(sed -n 's/^mean throughput: \([0-9]*\) \[msg\/s\]$/\1/p' "$lout")
    echo "$kind,$mode,$limpl,$rimpl,$size,$run,$v,,,,," >> "$results"
    printf '  %-4s %-6s %-6s <- %-6s %6s B x %9s  run %d: %12s msg/s\n' "$kind" "$mode" "$limpl" "$rimpl" "$size" \
      "$count" "$run" "$v" >&2
  elif [ "$base" = rr ]; then
    v=$(sed -n 's/^mean throughput: \([0-9]*\) \[req\/s\]$/\1/p' "$rout")
    echo "rr,$mode,$limpl,$rimpl,$size,$run,$v,,,,," >> "$results"
    printf '  rr   %-6s %-6s <- %-6s %6s B x %9s  run %d: %12s req/s\n' "$mode" "$limpl" "$rimpl" "$size" "$count" \
      "$run" "$v" >&2
  else
    local p50 p90 p99 p999 max
    v=$(sed -n 's/^average latency: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p50=$(sed -n 's/^latency p50: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p90=$(sed -n 's/^latency p90: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p99=$(sed -n 's/^latency p99: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p999=$(sed -n 's/^latency p99.9: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    max=$(sed -n 's/^latency max: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    echo "$kind,$mode,$limpl,$rimpl,$size,$run,$v,$p50,$p90,$p99,$p999,$max" >> "$results"
    printf '  %-4s %-6s %-6s <- %-6s %6s B x %9s  run %d: %10s us (p99 %s)\n' "$kind" "$mode" "$limpl" "$rimpl" \
      "$size" "$count" "$run" "$v" "$p99" >&2
  fi
}

# One cell in the modes asked for: thr_cell kind local remote size cold_count run; lat_cell kind local remote size
# run; rr_cell local remote size run.
thr_cell() {
  local kind=$1 l=$2 r=$3 size=$4 n=$5 run=$6
  if has_mode steady; then
    run_pair "$kind" steady "$l" "$r" "$size" "$(( n * STEADY_FACTOR ))" "$(( n * STEADY_FACTOR ))" "$run"
  fi
  if has_mode cold; then run_pair "$kind" cold "$l" "$r" "$size" "$n" 0 "$run"; fi
}
lat_cell() {
  local kind=$1 l=$2 r=$3 size=$4 run=$5
  if has_mode steady; then
    run_pair "$kind" steady "$l" "$r" "$size" "$(scaled "$STEADY_LAT_COUNT")" "$(scaled "$STEADY_LAT_WARMUP")" "$run"
  fi
  if has_mode cold; then run_pair "$kind" cold "$l" "$r" "$size" "$(lat_count)" "$LAT_WARMUP" "$run"; fi
}
rr_cell() {
  local l=$1 r=$2 size=$3 run=$4 n
  n=$(rr_count "$size")
  if has_mode steady; then run_pair rr steady "$l" "$r" "$size" "$(( n * 2 ))" "$(( n * 2 ))" "$run"; fi
  if has_mode cold; then run_pair rr cold "$l" "$r" "$size" "$n" "$(( n / 10 ))" "$run"; fi
}

# The per-second lines of zmtp bench, JeromqPerf inproc_thr and SpotifyPerf ("Ns: rate messages/s." or
# "requests/s."): "cold steady", the mean of seconds 1-3 and of seconds 4 on.
second_means() {
  awk '/^ *[0-9]+s: .* (messages|requests)\/s\./ { n = $1 + 0; r = $2; gsub(/,/, "", r);
         if (n <= 3) { cs += r; cc++ } else { ss += r; sc++ } }
       END { printf "%d %d\n", cc ? cs / cc : 0, sc ? ss / sc : 0 }' "$1"
}
record_seconds() { # kind impl size run log
  local kind=$1 impl=$2 size=$3 run=$4 cold steady
  read -r cold steady < <(second_means "$5")
  if [ "$cold" -gt 0 ]; then echo "$kind,cold,$impl,$impl,$size,$run,$cold,,,,," >> "$results"; fi
  if [ "$steady" -gt 0 ]; then echo "$kind,steady,$impl,$impl,$size,$run,$steady,,,,," >> "$results"; fi
  printf '  %-8s %-11s %6s B  run %d: %12s /s seconds 4 on (steady), %12s /s seconds 1-3 (cold)\n' "$kind" "$impl" \
    "$size" "$run" "$steady" "$cold" >&2
}

start=$(date +%s)
has_section thr || SIZES=""
has_section lat || LAT_SIZES=""
has_section rr || RR_SIZES=""
has_section curve || CURVE_SIZES=""
if ! has_section ipc || [ "$TRANSPORT" = ipc ]; then IPC_SIZES=""; IPC_LAT_SIZES=""; fi
echo "== $TRANSPORT, scale $SCALE, $RUNS runs per cell, sections: $SECTIONS, modes: $MODES" >&2
echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC'), commit $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?'), $(uptime)" >&2
if has_section thr; then echo "== throughput" >&2; fi
for size in $SIZES; do
  n=$(thr_count "$size")
  for run in $(seq 1 "$RUNS"); do
    for impl in $IMPLS; do
      thr_cell thr "$impl" "$impl" "$size" "$n" "$run"
    done
    if [[ " $MIXED_SIZES " == *" $size "* ]]; then
      thr_cell thr zmtp libzmq "$size" "$n" "$run"
      thr_cell thr libzmq zmtp "$size" "$n" "$run"
    fi
  done
done
if has_section lat; then echo "== latency" >&2; fi
for size in $LAT_SIZES; do
  for run in $(seq 1 "$RUNS"); do
    for impl in $IMPLS; do
      lat_cell lat "$impl" "$impl" "$size" "$run"
    done
  done
done
if has_section rr; then echo "== request/reply ($RR_INFLIGHT in flight; server <- client)" >&2; fi
for size in $RR_SIZES; do
  for run in $(seq 1 "$RUNS"); do
    rr_cell libzmq libzmq "$size" "$run"
    rr_cell zmtp zmtp "$size" "$run"
    rr_cell zmtp libzmq "$size" "$run"
    rr_cell libzmq zmtp "$size" "$run"
  done
done
if has_section curve; then echo "== CURVE (libzmq with libsodium, ours with our XSalsa20-Poly1305, with and without the Vector API)" >&2; fi
for size in $CURVE_SIZES; do
  n=$(curve_count "$size")
  for run in $(seq 1 "$RUNS"); do
    for impl in libzmq zmtp zmtpv; do
      thr_cell cthr "$impl" "$impl" "$size" "$n" "$run"
    done
    thr_cell cthr zmtpv libzmq "$size" "$n" "$run"
    thr_cell cthr libzmq zmtpv "$size" "$n" "$run"
    if [[ " $CURVE_LAT_SIZES " == *" $size "* ]]; then
      for impl in libzmq zmtp zmtpv; do
        lat_cell clat "$impl" "$impl" "$size" "$run"
      done
    fi
  done
done
if [ -n "$IPC_SIZES$IPC_LAT_SIZES" ]; then echo "== ipc:// (libzmq and ours)" >&2; fi
for run in $(seq 1 "$RUNS"); do
  for size in $IPC_SIZES; do
    for impl in libzmq zmtp; do
      thr_cell ithr "$impl" "$impl" "$size" "$(thr_count "$size")" "$run"
    done
  done
  for size in $IPC_LAT_SIZES; do
    for impl in libzmq zmtp; do
      lat_cell ilat "$impl" "$impl" "$size" "$run"
    done
  done
done
# inproc: both ends in one JVM, so no pair of processes; libzmq has no tool here for it.
run_inproc() { # impl run
  local impl=$1 run=$2 log="$out/last-inproc.txt"
  case "$impl" in
    zmtp) timeout 120 $(cmd zmtp bench) throughput --socket --transport inproc --size "$INPROC_SIZE" \
            --duration "$INPROC_SECONDS" > "$log" 2>&1 ;;
    jeromq) timeout 120 $(cmd jeromq inproc_thr) "$INPROC_SIZE" "$INPROC_SECONDS" > "$log" 2>&1 ;;
    *) return 0 ;;
  esac || { echo "FAILED: $impl inproc: $(tail -3 "$log")" >&2; return 0; }
  record_seconds inproc "$impl" "$INPROC_SIZE" "$run" "$log"
}
if has_section inproc; then
  echo "== inproc (one JVM, ${INPROC_SECONDS} s per run)" >&2
  for run in $(seq 1 "$RUNS"); do
    for impl in $IMPLS; do
      run_inproc "$impl" "$run"
    done
  done
fi
# Spotify netty4-zmtp's README shapes, each implementation in its own JVM, one after the other in each round.
run_spotify() { # kind impl run
  local kind=$1 impl=$2 run=$3 log="$out/last-spotify.txt" s=$SPOTIFY_SECONDS size
  case "$kind/$impl" in
    spot_thr/spotify) size=100; timeout 120 $(cmd spotify throughput) "$s" 100 > "$log" 2>&1 ;;
    spot_thr/zmtp-codec) size=100
      # --same-message: Spotify's ThroughputBenchmark writes one retained message again and again.
      timeout 120 $(cmd zmtp bench) throughput --same-message --size 100 --duration "$s" > "$log" 2>&1 ;;
    spot_thr/zmtp-socket) size=100
      timeout 120 $(cmd zmtp bench) throughput --socket --size 100 --duration "$s" > "$log" 2>&1 ;;
    spot_rr/spotify) size=178; timeout 120 $(cmd spotify reqrep) "$s" 1000 > "$log" 2>&1 ;;
    spot_rr/zmtp-codec) size=176
      # --same-request: Spotify's ReqRepBenchmark writes one retained request again and again and reads no clock.
      timeout 120 $(cmd zmtp bench) custom-codec --zmtp-message --same-request --frames 4 --size 40 --inflight 1000 \
        --duration "$s" > "$log" 2>&1 ;;
    spot_rr/zmtp-socket) size=176
      timeout 120 $(cmd zmtp bench) reqrep --frames 4 --size 40 --inflight 1000 --duration "$s" > "$log" 2>&1 ;;
  esac || { echo "FAILED: $kind $impl: $(tail -3 "$log")" >&2; return 0; }
  record_seconds "$kind" "$impl" "$size" "$run" "$log"
}
if has_section spotify; then
  echo "== Spotify netty4-zmtp 0.4.0 shapes (one JVM each, ${SPOTIFY_SECONDS} s per run)" >&2
  for run in $(seq 1 "$RUNS"); do
    for kind in spot_thr spot_rr; do
      for impl in spotify zmtp-codec zmtp-socket; do
        run_spotify "$kind" "$impl" "$run"
      done
    done
  done
fi
if has_section startup; then
  echo "== start-up (bench/startup.sh, ${STARTUP_RUNS:-10} rounds)" >&2
  NO_BUILD=1 RUNS=${STARTUP_RUNS:-10} "$here/startup.sh" > /dev/null || echo "FAILED: start-up" >&2
fi
echo "== done in $(( $(date +%s) - start )) s; $(uptime)" >&2

{ [ "$TRANSPORT" = tcp ] || printf 'Transport: %s\n\n' "$TRANSPORT"; TRANSPORT="$TRANSPORT" "$venv/bin/python" "$here/report.py" "$results" "$charts"
  if has_section startup && [ -f "$root/target/startup/table.md" ]; then
    printf '\n### Start-up and exit (a whole process; bench/startup.sh)\n\n'; cat "$root/target/startup/table.md"; fi; } | tee "$out/table.md"
