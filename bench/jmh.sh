#!/usr/bin/env bash
# Runs the codec's JMH benchmarks (zmtp-tools/src/test/java/io/zmtp/tools/jmh) with allocation profiling.
#   bench/jmh.sh                          # all, with -prof gc
#   bench/jmh.sh FrameCodecBenchmark.encode -p size=100   # any JMH arguments instead
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
./mvnw -q -B -pl zmtp-tools -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/zmtp-tools/target/test-classpath.txt" >&2
cp="$root/zmtp-tools/target/test-classes:$root/zmtp-tools/target/classes:$(cat "$root/zmtp-tools/target/test-classpath.txt")"
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(FrameCodecBenchmark -prof gc)
exec java -cp "$cp" org.openjdk.jmh.Main "${args[@]}"
