#!/usr/bin/env bash
# Ours (zmtp) vs libzmq (Debian's libzmq3-dev, bench/*.c) vs JeroMQ 0.6.0, on this machine, in one go:
# one-way throughput (PUSH->PULL) at 1, 16, 64, 256, 1024, 65536 B, latency (REQ<->REP) at 1 and 1024 B, and mixed
# throughput pairs (our local_thr with libzmq's remote_thr and the reverse), and request/reply (DEALER rr_client ->
# ROUTER rr_server, 1000 requests in flight) at 16 and 1024 B between libzmq and ours in all four pairings. Each
# cell is the median of RUNS runs.
# Prints the tables (also written to target/compare/table.md) and draws docs/perf-throughput.png and
# docs/perf-latency.png.
#
#   bench/compare.sh            # ~7-8 minutes without the request/reply section (not yet timed with it): runs of a
#                               # few seconds, so the JVMs are past JIT warm-up
#   bench/compare.sh --full     # 3x the counts
#   SCALE=0.2 RUNS=1 bench/compare.sh   # anything in between; SIZES="64 1024" LAT_SIZES="1" to narrow
#   LAT_WARMUP=100000 SECTIONS=lat bench/compare.sh   # latency in steady state: untimed round trips first
#   SECTIONS=rr SCALE=0.05 RUNS=1 bench/compare.sh   # only some sections (thr lat rr); charts are redrawn
#                                                    # only for the sections that ran; RR_SIZES, RR_INFLIGHT
#   SECTIONS=curve bench/compare.sh  # CURVE only: throughput (with the mixed pairs) and latency at CURVE_SIZES
#                                    # (64 and 1024 B), libzmq (libsodium) and ours; part of the default sections
#   TRANSPORT=ipc bench/compare.sh   # the same over ipc:// (Unix domain sockets, a path per run under
#                                    # target/compare-ipc); results, table and charts go to target/compare-ipc, the
#                                    # charts in docs/ stay tcp's. JeroMQ is left out: its ipc:// is tcp on loopback.
#   SECTIONS=inproc bench/compare.sh # inproc:// in one JVM, ours vs JeroMQ: PUSH -> PULL, a thread sending and one
#                                    # receiving for INPROC_SECONDS (10) at INPROC_SIZE (100 B); the cell is the mean
#                                    # rate of seconds 4 on (the first 3 are JIT warm-up), median of RUNS runs. Part
#                                    # of the default sections over tcp (about 70 s at RUNS=3).
#   SECTIONS=spotify bench/compare.sh # Spotify's netty4-zmtp 0.4.0 (its own JVM on Netty 4.0, bench/spotify/) in its
#                                    # README's in-process shapes beside ours, one JVM each, SPOTIFY_SECONDS (10) per
#                                    # run, mean of seconds 4 on: one-way 100 B (theirs; ours codec only, one
#                                    # message retained per write as theirs, and socket layer) and request/reply
#                                    # with 1000 in flight, 6 frames (theirs: 9, 9, 0, 20, 40, 100 B; ours:
#                                    # delimiter, 16 B header, 4 x 40 B; codec only and socket layer).
#                                    # Not part of the default sections (about 4 minutes at RUNS=3).
#
# Installs what it needs: gcc/libzmq3-dev (apt-get, via install-libzmq.sh), JeroMQ (Maven), matplotlib (venv under
# target/compare/venv).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TRANSPORT=${TRANSPORT:-tcp}
case "$TRANSPORT" in
  tcp) out="$root/target/compare"; charts="$root/docs"; default_impls="libzmq zmtp jeromq"
       default_sections="thr lat rr curve inproc" ;;
  ipc) out="$root/target/compare-ipc"; charts="$out"; default_impls="libzmq zmtp"; default_sections="thr lat rr curve" ;;
  *) echo "TRANSPORT=$TRANSPORT: expected tcp or ipc" >&2; exit 2 ;;
esac
mkdir -p "$out"

SCALE=${SCALE:-1}
[ "${1:-}" = "--full" ] && SCALE=3
RUNS=${RUNS:-3}
SIZES=${SIZES:-"1 16 64 256 1024 65536"}
LAT_SIZES=${LAT_SIZES:-"1 1024"}
MIXED_SIZES=${MIXED_SIZES:-"64 1024"}   # mixed pairs: our local_thr with libzmq's remote_thr and the reverse
IMPLS=${IMPLS:-$default_impls}
SECTIONS=${SECTIONS:-$default_sections}
CURVE_SIZES=${CURVE_SIZES:-"64 1024"}
# The zmq_curve man page's server test pair: the binding side is the CURVE server, the connecting side its client
# (with a new key pair each run).
CURVE_PUBLIC='rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7'
CURVE_SECRET='JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6'
INPROC_SECONDS=${INPROC_SECONDS:-10}
INPROC_SIZE=${INPROC_SIZE:-100}
SPOTIFY_SECONDS=${SPOTIFY_SECONDS:-10}
RR_SIZES=${RR_SIZES:-"16 1024"}
RR_INFLIGHT=${RR_INFLIGHT:-1000}
# Untimed round trips before each latency run's timed ones, given to both tools (0: libzmq's tools as they are, a
# cold JVM included; e.g. 100000 to see the steady state).
LAT_WARMUP=${LAT_WARMUP:-0}
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
# Timed requests per request/reply run; each run also has a tenth of that as untimed warm-up, for the JVM's JIT.
rr_count() {
  local n
  case "$1" in
    1024) n=1000000 ;;
    *) n=2000000 ;;
  esac
  awk -v n="$n" -v s="$SCALE" 'BEGIN { printf "%d", n * s }'
}
has_section() { [[ " $SECTIONS " == *" $1 "* ]]; }

echo "== setup" >&2
bash "$here/build.sh" "$out/bin" >&2
(cd "$root" && ./mvnw -q -B -pl zmtp-tools -am package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true) >&2
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
    jeromq) echo "java -cp $root/bench/jeromq/target/jeromq-perf.jar:$root/bench/jeromq/target/lib/* JeromqPerf $2" ;;
    # Netty 4.0 finds no direct-buffer access on JDK 9+ without these opens and falls back to heap buffers.
    spotify) echo "java --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED -cp $root/bench/spotify/target/spotify-perf.jar:$root/bench/spotify/target/lib/* SpotifyPerf $2" ;;
  esac
}

results="$out/results.csv"
echo "kind,local,remote,size,run,value,p50,p90,p99,p999,max" > "$results"

# run_pair kind local_impl remote_impl size count run. For rr, local is the server (rr_server) and remote the client.
# Kinds cthr and clat are thr and lat over CURVE.
run_pair() {
  local kind=$1 limpl=$2 rimpl=$3 size=$4 count=$5 run=$6
  local ltool rtool port=$PORT
  local largs=("$size" "$count") rargs=("$size" "$count")
  PORT=$((PORT + 1))
  if [ "${kind#c}" = lat ] && [ "$LAT_WARMUP" -gt 0 ]; then
    largs+=("$LAT_WARMUP"); rargs+=("$LAT_WARMUP")
  fi
  local base=$kind
  if [ "$kind" = cthr ] || [ "$kind" = clat ]; then
    base=${kind#c}
    largs+=(--curve-secret-key "$CURVE_SECRET"); rargs+=(--curve-server-key "$CURVE_PUBLIC")
  fi
  case "$base" in
    thr) ltool=local_thr; rtool=remote_thr ;;
    lat) ltool=local_lat; rtool=remote_lat ;;
    rr)
      ltool=rr_server; rtool=rr_client
      local warmup=$(( count / 10 ))
      largs+=("$warmup"); rargs+=("$RR_INFLIGHT" "$warmup") ;;
  esac
  local lout="$out/last-local.txt" rout="$out/last-remote.txt"
  local bind_ep connect_ep
  if [ "$TRANSPORT" = ipc ]; then
    # A fresh path per run, as the port is; the binding tool removes its file when it closes.
    bind_ep="ipc://$out/run-$port.sock"; connect_ep=$bind_ep
  else
    bind_ep="tcp://*:$port"; connect_ep="tcp://127.0.0.1:$port"
  fi
  timeout 300 $(cmd "$limpl" "$ltool") "$bind_ep" "${largs[@]}" > "$lout" 2>"$out/last-local.err" &
  local lpid=$!
  sleep 0.3
  if ! timeout 300 $(cmd "$rimpl" "$rtool") "$connect_ep" "${rargs[@]}" > "$rout" 2>"$out/last-remote.err"; then
    echo "FAILED: $rimpl $rtool $size $count: $(cat "$out/last-remote.err")" >&2
    kill "$lpid" 2>/dev/null || true
    wait "$lpid" 2>/dev/null || true
    return 0
  fi
  if ! wait "$lpid"; then
    echo "FAILED: $limpl $ltool $size $count: $(cat "$out/last-local.err")" >&2
    return 0
  fi
  # libzmq 4.3 leaves a named ipc path's file behind when it closes (ours removes it).
  [ "$TRANSPORT" = ipc ] && rm -f "${bind_ep#ipc://}"
  if [ "$base" = thr ]; then
    local v
    v=$(sed -n 's/^mean throughput: \([0-9]*\) \[msg\/s\]$/\1/p' "$lout")
    echo "$kind,$limpl,$rimpl,$size,$run,$v,,,,," >> "$results"
    printf '  %-4s %-6s <- %-6s %6s B  run %d: %12s msg/s\n' "$kind" "$limpl" "$rimpl" "$size" "$run" "$v" >&2
  elif [ "$kind" = rr ]; then
    local v
    v=$(sed -n 's/^mean throughput: \([0-9]*\) \[req\/s\]$/\1/p' "$rout")
    echo "rr,$limpl,$rimpl,$size,$run,$v,,,,," >> "$results"
    printf '  rr  %-6s <- %-6s %6s B  run %d: %12s req/s\n' "$limpl" "$rimpl" "$size" "$run" "$v" >&2
  else
    local avg p50 p90 p99 p999 max
    avg=$(sed -n 's/^average latency: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p50=$(sed -n 's/^latency p50: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p90=$(sed -n 's/^latency p90: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p99=$(sed -n 's/^latency p99: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    p999=$(sed -n 's/^latency p99.9: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    max=$(sed -n 's/^latency max: \([0-9.]*\) \[us\]$/\1/p' "$rout")
    echo "$kind,$limpl,$rimpl,$size,$run,$avg,$p50,$p90,$p99,$p999,$max" >> "$results"
    printf '  %-4s %-6s <- %-6s %6s B  run %d: %10s us (p99 %s)\n' "$kind" "$limpl" "$rimpl" "$size" "$run" "$avg" \
      "$p99" >&2
  fi
}

start=$(date +%s)
has_section thr || SIZES=""
has_section lat || LAT_SIZES=""
has_section rr || RR_SIZES=""
echo "== $TRANSPORT, scale $SCALE, $RUNS runs per cell, sections: $SECTIONS" >&2
if has_section thr; then echo "== throughput" >&2; fi
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
if has_section lat; then echo "== latency" >&2; fi
for size in $LAT_SIZES; do
  n=$(lat_count)
  for run in $(seq 1 "$RUNS"); do
    for impl in $IMPLS; do
      run_pair lat "$impl" "$impl" "$size" "$n" "$run"
    done
  done
done
if has_section rr; then echo "== request/reply ($RR_INFLIGHT in flight; server <- client)" >&2; fi
for size in $RR_SIZES; do
  n=$(rr_count "$size")
  for run in $(seq 1 "$RUNS"); do
    run_pair rr libzmq libzmq "$size" "$n" "$run"
    run_pair rr zmtp zmtp "$size" "$n" "$run"
    run_pair rr zmtp libzmq "$size" "$n" "$run"
    run_pair rr libzmq zmtp "$size" "$n" "$run"
  done
done
has_section curve || CURVE_SIZES=""
if has_section curve; then echo "== CURVE (libzmq with libsodium, ours with Bouncy Castle)" >&2; fi
for size in $CURVE_SIZES; do
  n=$(( $(thr_count "$size") / 5 ))
  for run in $(seq 1 "$RUNS"); do
    for impl in libzmq zmtp; do
      run_pair cthr "$impl" "$impl" "$size" "$n" "$run"
    done
    run_pair cthr zmtp libzmq "$size" "$n" "$run"
    run_pair cthr libzmq zmtp "$size" "$n" "$run"
    for impl in libzmq zmtp; do
      run_pair clat "$impl" "$impl" "$size" "$(lat_count)" "$run"
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
  # Both print "Ns: rate messages/s." once a second, then "average: rate messages/s over N s".
  local steady avg
  steady=$(awk '/^ *[0-9]+s: .* messages\/s\./ { n = $1 + 0; r = $2; gsub(/,/, "", r); if (n >= 4 || '"$INPROC_SECONDS"' < 4) { sum += r; c++ } }
                END { if (c) printf "%d", sum / c }' "$log")
  avg=$(sed -n 's/^average: \([0-9,]*\) messages.*/\1/p' "$log" | tr -d ,)
  echo "inproc,$impl,$impl,$INPROC_SIZE,$run,$steady,,,,," >> "$results"
  printf '  inproc %-6s %6s B  run %d: %12s msg/s from second 4 (%s over the run)\n' "$impl" "$INPROC_SIZE" "$run" \
    "$steady" "$avg" >&2
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
  local steady
  steady=$(awk '/^ *[0-9]+s: .* (messages|requests)\/s\./ { n = $1 + 0; r = $2; gsub(/,/, "", r); if (n >= 4 || '"$s"' < 4) { sum += r; c++ } }
                END { if (c) printf "%d", sum / c }' "$log")
  echo "$kind,$impl,$impl,$size,$run,$steady,,,,," >> "$results"
  printf '  %-8s %-11s %4s B  run %d: %12s /s from second 4\n' "$kind" "$impl" "$size" "$run" "$steady" >&2
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
echo "== done in $(( $(date +%s) - start )) s" >&2

{ [ "$TRANSPORT" = tcp ] || printf 'Transport: %s\n\n' "$TRANSPORT"; "$venv/bin/python" "$here/report.py" "$results" "$charts"; } | tee "$out/table.md"
