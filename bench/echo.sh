#!/usr/bin/env bash
# The echo example on ZeroMQ sockets beside the same service on plain Netty (zmtp-examples), alternately, in one run:
# 10 clients, 10 requests in flight each, 1 KiB packets, 2 ms of work (the article's parameters), with 2 workers
# and more. Each cell is the median of the rounds' averages (each run's average leaves its first 5 s out).
#
# Usage: bench/echo.sh [rounds [seconds [workers...]]]     (default: 3 rounds of 20 s, workers 2 16 64)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rounds=${1:-3}
seconds=${2:-20}
shift $(( $# > 2 ? 2 : $# ))
workers=("$@")
[ ${#workers[@]} -eq 0 ] && workers=(2 16 64)

echo "echo.sh: building zmtp-examples" >&2
(cd "$root" && ./mvnw -q -B -pl zmtp-examples -am package -Dmaven.test.skip=true -Dmaven.javadoc.skip=true \
    -Dmaven.source.skip=true)
cp="$root/zmtp-examples/target/zmtp-examples.jar:$root/zmtp-examples/target/lib/*"

average() {  # example workers -> packets/s
  java -cp "$cp" io.zmtp.examples.Examples "$1" --port 0 --duration "$seconds" --workers "$2" \
    | awk '/stopped; average/ {gsub(",", "", $0); for (i = 1; i <= NF; i++) if ($(i+1) == "packets/s") print $i}'
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

declare -A runs
for r in $(seq "$rounds"); do
  for w in "${workers[@]}"; do
    for example in echo echo-netty; do
      rate=$(average "$example" "$w")
      runs[$example,$w]+="$rate "
      printf 'round %d  %-10s %3d workers: %8.0f packets/s\n' "$r" "$example" "$w" "$rate" >&2
    done
  done
done

echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores; 10 clients x 10 in flight, 1024 B, 2 ms work; $rounds rounds of $seconds s (medians; runs in brackets)"
printf '| %-8s | %-32s | %-32s | %s |\n' workers "ZeroMQ sockets (echo) packets/s" "plain Netty (echo-netty) packets/s" "bound: workers / 2 ms"
printf '|%s|%s|%s|%s|\n' "----------" "----------------------------------" "----------------------------------" "------------------------"
for w in "${workers[@]}"; do
  printf '| %-8s | %-32s | %-32s | %s |\n' "$w" \
      "$(echo "${runs[echo,$w]}" | median) [${runs[echo,$w]% }]" \
      "$(echo "${runs[echo-netty,$w]}" | median) [${runs[echo-netty,$w]% }]" "$(( w * 500 ))"
done
