#!/usr/bin/env bash
# Memory of `zmtp local_thr` before, during and after bench/hostile_peer.py attacks it (docs/RELIABILITY.md).
# Usage: bench/hostile_measure.sh <checkout> <stream> [mib] [message-size]
#   <checkout>  a netty-zmtp work tree whose ./zmtp launches local_thr (this one, or the pre-fix one)
#   <stream>    wrap | empty-more | tiny-more | normal (see bench/hostile_peer.py)
# Environment: ZMTP_JAVA_OPTS (default -Xmx2g), PORT (default 5599), HOLD (default 15: seconds the peer keeps the
# connection open once it stops sending, so that what the connection holds can be measured), PEER_OPTS (more
# hostile_peer.py options, e.g. --chunk 3).
# Prints what it runs and one summary line. Heap = jcmd GC.heap_info "used" (post-GC: after jcmd GC.run); peak heap
# = largest jstat -gc sample (every 250 ms: S0U+S1U+EU+OU, so a lower bound); RSS from /proc/PID/status (VmRSS now,
# VmHWM = peak since start). Phases: before the attack; once the peer has stopped sending but still holds the
# connection open (what an open hostile connection makes us hold); after the peer has gone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$1" && pwd); kind=$2; mib=${3:-256}; size=${4:-100}
port=${PORT:-5599}
hold=${HOLD:-15}   # seconds the peer keeps the connection open after it stops sending
export ZMTP_JAVA_OPTS=${ZMTP_JAVA_OPTS:--Xmx2g}
log=$(mktemp /tmp/hostile-XXXXXX)

heap() { jcmd "$1" GC.heap_info 2>/dev/null | awk '/garbage-first heap|def new generation|PSYoungGen|total .* used/ {
  for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); printf "%.1fM\n", v / 1024; exit } }'; }
rss() { awk '/VmRSS/ {printf "%.1fM\n", $2 / 1024}' "/proc/$1/status"; }
hwm() { awk '/VmHWM/ {printf "%.1fM\n", $2 / 1024}' "/proc/$1/status"; }

echo "+ ZMTP_JAVA_OPTS=$ZMTP_JAVA_OPTS $checkout/zmtp local_thr tcp://127.0.0.1:$port $size 1000000000"
"$checkout/zmtp" local_thr "tcp://127.0.0.1:$port" "$size" 1000000000 >"$log.out" 2>"$log.err" &
pid=$!
for _ in $(seq 1 120); do
  ss -ltn "sport = :$port" | grep -q LISTEN && break
  sleep 0.5
done
sleep 3   # let start-up settle (JIT, class loading)
b_heap=$(heap $pid); b_rss=$(rss $pid)
jcmd $pid GC.run >/dev/null; sleep 1
b_heap_gc=$(heap $pid); b_rss_gc=$(rss $pid)

jstat -gc $pid 250 >"$log.jstat" 2>/dev/null &
jstat_pid=$!
echo "+ $here/hostile_peer.py tcp://127.0.0.1:$port --stream $kind --mib $mib --wait $hold ${PEER_OPTS:-}"
python3 "$here/hostile_peer.py" "tcp://127.0.0.1:$port" --stream "$kind" --mib "$mib" --wait "$hold" \
    ${PEER_OPTS:-} >"$log.peer" 2>&1 &
peer=$!
# The peer's first line comes when it stops sending (all sent, closed or stalled); it then holds the connection.
while kill -0 $peer 2>/dev/null && [ ! -s "$log.peer" ]; do sleep 0.2; done
sleep 1
h_heap=$(heap $pid); h_rss=$(rss $pid)
jcmd $pid GC.run >/dev/null || true; sleep 1
h_heap_gc=$(heap $pid); h_rss_gc=$(rss $pid)
wait $peer || true
cat "$log.peer"
sleep 2
kill $jstat_pid 2>/dev/null || true
wait $jstat_pid 2>/dev/null || true
peak_heap=$(awk 'NR > 1 && $1 ~ /^[0-9.]+$/ { u = $3 + $4 + $6 + $8; if (u > m) m = u } END { printf "%.1fM\n", m / 1024 }' "$log.jstat")
if kill -0 $pid 2>/dev/null; then
  peak_rss=$(hwm $pid)
  jcmd $pid GC.run >/dev/null || true; sleep 1
  a_heap_gc=$(heap $pid); a_rss_gc=$(rss $pid)
  kill $pid
  for _ in $(seq 1 20); do kill -0 $pid 2>/dev/null || break; sleep 0.5; done
  # A JVM out of heap may not run its SIGTERM handler (the pre-fix empty-more run did not).
  kill -0 $pid 2>/dev/null && { echo "local_thr ignored SIGTERM for 10 s: SIGKILL"; kill -9 $pid; }
  wait $pid 2>/dev/null || true
else
  peak_rss=?; a_heap_gc=exited; a_rss_gc=exited
fi
echo "summary stream=$kind | before: heap=$b_heap rss=$b_rss, post-GC heap=$b_heap_gc rss=$b_rss_gc" \
  "| peer done (connection as the peer left it): heap=$h_heap rss=$h_rss, post-GC heap=$h_heap_gc rss=$h_rss_gc" \
  "| peaks: heap(jstat)=$peak_heap rss(VmHWM)=$peak_rss | after the peer left, post-GC: heap=$a_heap_gc rss=$a_rss_gc"
echo "local_thr stderr (log lines, then the last progress line):"
grep -v 'messages/s' "$log.err" | cut -c1-300 | head -8 || true
grep 'messages/s' "$log.err" | tail -1 || true
echo "local_thr stdout:"; head -5 "$log.out"
rm -f "$log" "$log.out" "$log.err" "$log.jstat" "$log.peer"
