#!/usr/bin/env bash
# Load test of the http example (zmtp-examples) beside a plain Netty server answering the same JSON (the reference,
# io.zmtp.examples.http.PlainHttpServer), in one run, so both see the same machine: ab and wrk against
#   reference GET /  |  example GET /  |  example POST /work (served by ZeroMQ workers)
# Each round runs every target once, in that order; the table has the median of the rounds. Besides requests/s it
# gives the server's CPU time per request (user + system, from /proc/PID/stat, over the wrk runs): on a machine shared
# with other work, throughput swings with the neighbours' load, the CPU a request costs much less.
#
# Usage: bench/http.sh [rounds]        (default 5; HTTP_EXAMPLE_PORT / HTTP_REFERENCE_PORT: 9090 / 9091)
# Needs ab (apache2-utils) and wrk: installed with apt-get when missing (Debian; root).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rounds=${1:-5}
example_port=${HTTP_EXAMPLE_PORT:-9090}
reference_port=${HTTP_REFERENCE_PORT:-9091}
requests=25000
connections=100
wrk_seconds=10

if ! command -v ab >/dev/null || ! command -v wrk >/dev/null; then
  echo "http.sh: installing apache2-utils (ab) and wrk with apt-get" >&2
  apt-get update -qq && apt-get install -y -qq apache2-utils wrk >/dev/null
fi

echo "http.sh: building zmtp-examples" >&2
(cd "$root" && ./mvnw -q -B -pl zmtp-examples -am package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true \
    -Dmaven.source.skip=true)
cp="$root/zmtp-examples/target/zmtp-examples.jar:$root/zmtp-examples/target/lib/*"
jvm=(java -Dio.netty.leakDetection.level=disabled -cp "$cp")

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

"${jvm[@]}" io.zmtp.examples.http.PlainHttpServer "$reference_port" > "$work/reference.log" 2>&1 &
pids+=($!)
reference_pid=$!
"${jvm[@]}" io.zmtp.examples.Examples http --port "$example_port" > "$work/example.log" 2>&1 &
pids+=($!)
example_pid=$!
for port in "$reference_port" "$example_port"; do
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/" >/dev/null && break
    sleep 0.2
  done
  curl -sf "http://127.0.0.1:$port/" >/dev/null || { echo "http.sh: nothing answers on port $port" >&2; cat "$work"/*.log >&2; exit 1; }
done

body='{"order":42,"items":["apple","pear"]}'
printf '%s' "$body" > "$work/body.json"
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$body'
wrk.headers["Content-Type"] = "application/json"
LUA
echo "http.sh: POST /work answers $(curl -s -d "$body" "http://127.0.0.1:$example_port/work")" >&2

names=("reference GET /" "example GET /" "example POST /work")
servers=("$reference_pid" "$example_pid" "$example_pid")
ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
urls=("http://127.0.0.1:$reference_port/" "http://127.0.0.1:$example_port/" "http://127.0.0.1:$example_port/work")

run_ab() {  # url post? -> "rate failed non2xx"
  local args=(-q -n "$requests" -c "$connections" -k)
  [ "$2" = post ] && args+=(-p "$work/body.json" -T application/json)
  ab "${args[@]}" "$1" > "$work/ab.out" 2>&1 || { cat "$work/ab.out" >&2; echo "0 fail fail"; return; }
  local rate failed non2xx
  rate=$(awk '/^Requests per second/ {print $4}' "$work/ab.out")
  failed=$(awk '/^Failed requests/ {print $3}' "$work/ab.out")
  non2xx=$(awk '/^Non-2xx responses/ {print $3}' "$work/ab.out")
  echo "${rate:-0} ${failed:-?} ${non2xx:-0}"
}

run_wrk() {  # url post? server-pid -> "rate errors cpu-us-per-request"
  local args=(-t2 -c"$connections" -d"${wrk_seconds}s")
  [ "$2" = post ] && args+=(-s "$work/post.lua")
  local before after
  before=$(cpu_ticks "$3")
  wrk "${args[@]}" "$1" > "$work/wrk.out" 2>&1 || { cat "$work/wrk.out" >&2; echo "0 fail 0"; return; }
  after=$(cpu_ticks "$3")
  local rate errors requests cpu
  rate=$(awk '/^Requests\/sec/ {print $2}' "$work/wrk.out")
  requests=$(awk '/requests in/ {print $1}' "$work/wrk.out")
  cpu=$(awk -v t=$((after - before)) -v hz="$ticks_per_second" -v n="${requests:-0}" \
      'BEGIN {print (n > 0) ? t / hz * 1e6 / n : 0}')
  # "Socket errors: connect 0, read 0, write 0, timeout 0" and "Non-2xx or 3xx responses: N" count as errors.
  errors=$(awk '/Socket errors/ {gsub(",", ""); s += $4 + $6 + $8 + $10} /Non-2xx/ {s += $NF} END {print s + 0}' \
      "$work/wrk.out")
  echo "${rate:-0} $errors $cpu"
}

echo "http.sh: warming up (wrk, 15 s per target: the JIT is still compiling after 10)" >&2
for i in 0 1 2; do
  mode=get; [ $i = 2 ] && mode=post
  args=(-t2 -c"$connections" -d15s); [ $mode = post ] && args+=(-s "$work/post.lua")
  wrk "${args[@]}" "${urls[$i]}" >/dev/null 2>&1
done

declare -A ab_rates wrk_rates ab_fail wrk_fail cpu_costs
for r in $(seq "$rounds"); do
  for i in 0 1 2; do
    mode=get; [ $i = 2 ] && mode=post
    read -r rate failed non2xx < <(run_ab "${urls[$i]}" $mode)
    ab_rates[$i]+="$rate "
    ab_fail[$i]=$(( ${ab_fail[$i]:-0} + ${failed/\?/0} + non2xx ))
    read -r wrate werrors cpu < <(run_wrk "${urls[$i]}" $mode "${servers[$i]}")
    wrk_rates[$i]+="$wrate "
    wrk_fail[$i]=$(( ${wrk_fail[$i]:-0} + werrors ))
    cpu_costs[$i]+="$cpu "
    printf 'round %d  %-20s ab %9.0f req/s (failed %s, non-2xx %s)   wrk %9.0f req/s (errors %s), %5.1f us CPU/req\n' \
        "$r" "${names[$i]}" "$rate" "$failed" "$non2xx" "$wrate" "$werrors" "$cpu" >&2
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end;" \
    "$rounds rounds (medians); ab -n $requests -c $connections -k, wrk -t2 -c$connections -d${wrk_seconds}s"
printf '| %-20s | %10s | %10s | %22s | %16s |\n' target "ab req/s" "wrk req/s" "server CPU us/req (wrk)" \
    "failed / errors"
printf '|%s|%s|%s|%s|%s|\n' "----------------------" "------------" "------------" "------------------------" \
    "------------------"
for i in 0 1 2; do
  printf '| %-20s | %10.0f | %10.0f | %22.1f | %16s |\n' "${names[$i]}" "$(echo "${ab_rates[$i]}" | median)" \
      "$(echo "${wrk_rates[$i]}" | median)" "$(echo "${cpu_costs[$i]}" | median)" "${ab_fail[$i]} / ${wrk_fail[$i]}"
done
