#!/usr/bin/env bash
# JeroMQ's own tests as zmtp-jeromq's acceptance suite (issue 36).
#
# Lays out JeroMQ 0.6.0's test classes of src/test/java/org/zeromq from a JeroMQ checkout into
# zmtp-jeromq/target/jeromq-acceptance, keeps every class that uses only the public org.zeromq API (plus the few
# zmq.* test helpers, which acceptance/shims/ supplies for our build and JeroMQ's jar for its own), compiles them
# unchanged against (a) this worktree's zmtp-jeromq and (b) org.zeromq:jeromq:0.6.0, runs each class in a JVM of its
# own on both, and prints both counts with a per-class breakdown. A class that doesn't compile on a build counts every
# test of it as failed there. Nothing of JeroMQ's is copied into the repository: the sources stay under target/.
#
# Usage: zmtp-jeromq/acceptance/jeromq-tests.sh CHECKOUT [CLASS-REGEX]
#   CHECKOUT     a JeroMQ git repository (bare, e.g. the fetch tool's /work/.mirror/zeromq+jeromq/repo, or with a work
#                tree), from which tag v0.6.0 is taken; or a directory holding JeroMQ 0.6.0's src/test/java as is.
#   CLASS-REGEX  runs only the classes whose name (e.g. org.zeromq.ZMsgTest) matches (grep -E); default all.
# Environment:
#   BUILDS="zmtp jeromq"  which builds to run the tests on
#   TEST_TIMEOUT=60       seconds a test method may take when it has no @Test(timeout) of its own
#   CLASS_TIMEOUT=900     seconds a test class's JVM may take before it is killed (its unfinished tests fail)
#   RERUNS=2              times a failed test is run again alone (JeroMQ's own build reruns a failure 5 times)
#   NO_BUILD=1            use the jars already in target/ instead of running ./mvnw package
#   MVNW_FLAGS="-B -q"    flags for the ./mvnw calls (add -o to stay offline)
#   REPORT_ONLY=1         print the report of the last run again, running nothing
# The report covers both builds whenever both have results: BUILDS=zmtp runs ours again against JeroMQ's last run
# (each build counts the tests it ran); with no JeroMQ results it reports ours alone and exits 0.
# Output: the summary and breakdown on stdout, also in target/jeromq-acceptance/report.txt; each class's output in
# target/jeromq-acceptance/<build>/logs/, one line per test in <build>/results.txt.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
module=$(dirname "$here")
root=$(dirname "$module")
checkout=${1:?usage: jeromq-tests.sh CHECKOUT [CLASS-REGEX]}
checkout=$(cd "$checkout" && pwd)
filter=${2:-.}
tag=v0.6.0
builds=${BUILDS:-zmtp jeromq}
test_timeout=${TEST_TIMEOUT:-60}
class_timeout=${CLASS_TIMEOUT:-900}
reruns=${RERUNS:-2}
mvnw_flags=${MVNW_FLAGS:--B -q}
out=$module/target/jeromq-acceptance
src=$out/src

say() { echo "jeromq-tests.sh: $*" >&2; }

# zmq.* types the selected classes may use. Our build has zmq.ZMQ and zmq.ZError in zmtp-jeromq itself (the entry
# points applications use) and the others as test shims (acceptance/shims/); JeroMQ's build has JeroMQ's own.
allowed='^zmq\.(ZMQ|ZError|util\.Utils|util\.AndroidProblematic|util\.Errno|util\.function\.[A-Za-z]+|io\.mechanism\.curve\.Curve)$'

# 1. JeroMQ's test sources at v0.6.0.
# JeroMQ's build also needs the one test helper of JeroMQ that its jar lacks (the others are in the jar); ours gets
# acceptance/shims/ instead.
helpers=$out/jeromq-helpers
helper_files="src/test/java/zmq/util/AndroidProblematic.java"
rm -rf "$src" "$helpers"
mkdir -p "$src" "$helpers"
if git --git-dir="$checkout" rev-parse -q --verify "$tag^{commit}" >/dev/null 2>&1; then
  git --git-dir="$checkout" archive "$tag" src/test/java/org/zeromq | tar -x -C "$src" --strip-components=3
  git --git-dir="$checkout" archive "$tag" $helper_files | tar -x -C "$helpers" --strip-components=3
  version="$tag ($(git --git-dir="$checkout" rev-parse --short "$tag^{commit}"))"
elif git -C "$checkout" rev-parse -q --verify "$tag^{commit}" >/dev/null 2>&1; then
  git -C "$checkout" archive "$tag" src/test/java/org/zeromq | tar -x -C "$src" --strip-components=3
  git -C "$checkout" archive "$tag" $helper_files | tar -x -C "$helpers" --strip-components=3
  version="$tag ($(git -C "$checkout" rev-parse --short "$tag^{commit}"))"
elif [ -d "$checkout/src/test/java/org/zeromq" ]; then
  cp -r "$checkout/src/test/java/org" "$src/"
  for f in $helper_files; do
    mkdir -p "$helpers/$(dirname "${f#src/test/java/}")"
    cp "$checkout/$f" "$helpers/${f#src/test/java/}"
  done
  version="the tree at $checkout"
else
  say "$checkout is neither a JeroMQ git repository with tag $tag nor a tree with src/test/java/org/zeromq"
  exit 2
fi

# 2. The selection: every class whose zmq.* references are all allowed.
: >"$out/selection.txt"
: >"$out/excluded.txt"
while IFS= read -r file; do
  rel=${file#"$src"/}
  class=${rel%.java}
  class=${class//\//.}
  # Code only: comments (which name e.g. zmq.Signaler) don't count.
  refs=$(sed -E 's://.*$::; /^[[:space:]]*(\*|\/\*)/d' "$file" \
    | grep -oE '\bzmq(\.[a-z][A-Za-z0-9]*)*\.[A-Z][A-Za-z0-9]*' | sort -u || true)
  bad=$(grep -vE "$allowed" <<<"$refs" | grep . || true)
  if [ -n "$bad" ]; then
    echo "$class uses $(tr '\n' ' ' <<<"$bad")" >>"$out/excluded.txt"
    rm "$file"
  else
    echo "$class" >>"$out/selection.txt"
  fi
done < <(find "$src" -name '*.java' | sort)
# Test classes: those with @Test methods, matching the filter.
grep -lR --include='*.java' '@Test' "$src" | sed "s|^$src/||; s|\.java\$||; s|/|.|g" | sort | grep -E "$filter" \
  >"$out/classes.txt" || true
[ -s "$out/classes.txt" ] || { say "no test class matches $filter"; exit 2; }

# The test methods of a class, from its source: for a class that doesn't compile on a build.
methods_of() {
  awk '/^[ \t]*@Test/ {t = 1; next} t && /void[ \t]+[A-Za-z0-9_]+[ \t]*\(/ {
         match($0, /void[ \t]+[A-Za-z0-9_]+/); m = substr($0, RSTART, RLENGTH); sub(/void[ \t]+/, "", m); print m; t = 0 }' \
    "$src/${1//.//}.java"
}

# 3. Libraries: JUnit 4 (JeroMQ 0.6.0's tests are JUnit 4.13.2) and JeroMQ's jar, from Maven Central.
lib=$out/lib
mkdir -p "$lib"
fetch() { # group:artifact:version
  local g a v
  IFS=: read -r g a v <<<"$1"
  [ -f "$lib/$a-$v.jar" ] && return 0
  (cd "$root" && ./mvnw $mvnw_flags -N dependency:copy -Dartifact="$1" -DoutputDirectory="$lib" -Dmdep.overWriteIfNewer=true)
}
for artifact in junit:junit:4.13.2 org.hamcrest:hamcrest-core:1.3 org.zeromq:jeromq:0.6.0 eu.neilalexander:jnacl:1.0.0; do
  fetch "$artifact"
done
junit_cp=$lib/junit-4.13.2.jar:$lib/hamcrest-core-1.3.jar

# 4. This worktree's zmtp-jeromq and its runtime class path.
if [ "${NO_BUILD:-}" != 1 ] && [ "${REPORT_ONLY:-}" != 1 ]; then
  say "building zmtp-jeromq (./mvnw package -DskipTests -pl zmtp-jeromq -am)"
  (cd "$root" && ./mvnw $mvnw_flags package dependency:build-classpath -DskipTests -Dmaven.javadoc.skip=true \
    -Dmaven.source.skip=true -pl zmtp-jeromq -am -DincludeScope=runtime -Dmdep.outputFile="$out/zmtp.classpath")
fi
[ -f "$out/zmtp.classpath" ] || { say "no $out/zmtp.classpath: run without NO_BUILD=1 once"; exit 2; }
module_jar=$(ls "$module"/target/zmtp-jeromq-*.jar | grep -vE -- '-(sources|javadoc|tests)\.jar$' | head -1)
zmtp_cp=$module_jar:$(cat "$out/zmtp.classpath")
jeromq_cp=$lib/jeromq-0.6.0.jar:$lib/jnacl-1.0.0.jar
commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- "$module" || echo "+changes")

# The runner.
mkdir -p "$out/runner"
javac -nowarn -encoding UTF-8 -cp "$junit_cp" -d "$out/runner" "$here/runner/AcceptanceRunner.java"

# 5. Compile on a build: drop the classes javac reports errors in until the rest compiles.
compile() { # build class-path
  local build=$1 cp=$2 dir=$out/$1
  rm -rf "$dir"
  mkdir -p "$dir/classes" "$dir/logs" "$dir/work"
  : >"$dir/uncompiled.txt"
  if [ "$build" = zmtp ]; then
    find "$here/shims" -name '*.java' >"$dir/shims.txt"
  else
    find "$helpers" -name '*.java' >"$dir/shims.txt"
  fi
  javac -nowarn -encoding UTF-8 -cp "$cp" -d "$dir/classes" @"$dir/shims.txt"
  find "$src" -name '*.java' | sort >"$dir/sources.txt"
  while [ -s "$dir/sources.txt" ]; do
    if javac -nowarn -encoding UTF-8 -proc:none -Xmaxerrs 10000 -cp "$dir/classes:$cp:$junit_cp" -d "$dir/classes" \
      @"$dir/sources.txt" 2>"$dir/javac.log"; then
      break
    fi
    grep -oE "^$src/[^:]+\.java" "$dir/javac.log" | sort -u >"$dir/broken.txt"
    if [ ! -s "$dir/broken.txt" ]; then
      say "$build: javac failed without naming a file:"
      cat "$dir/javac.log" >&2
      exit 1
    fi
    while IFS= read -r file; do
      class=${file#"$src"/}
      class=${class%.java}
      echo "${class//\//.} $(grep -m1 -A1 -F "$file" "$dir/javac.log" | tr -s ' \n' ' ' | sed "s|$src/||" | cut -c1-300)" \
        >>"$dir/uncompiled.txt"
    done <"$dir/broken.txt"
    grep -vxF -f "$dir/broken.txt" "$dir/sources.txt" >"$dir/sources.next" || true
    mv "$dir/sources.next" "$dir/sources.txt"
  done
}

# 6. Run every test class in a JVM of its own, in a fresh working directory per build.
run() { # build class-path
  local build=$1 cp=$2 dir=$out/$1 class
  : >"$dir/results.txt"
  while IFS= read -r class; do
    if grep -q "^$class " "$dir/uncompiled.txt"; then
      for m in $(methods_of "$class"); do
        echo "TEST $class#$m" >>"$dir/results.txt"
        echo "FAIL $class#$m does not compile: $(grep -m1 "^$class " "$dir/uncompiled.txt" | cut -d' ' -f2-)" \
          >>"$dir/results.txt"
      done
      continue
    fi
    say "$build: $class"
    local before
    before=$(wc -l <"$dir/results.txt")
    (cd "$dir/work" && timeout -k 10 "$class_timeout" java -Xmx1g -cp "$out/runner:$dir/classes:$cp:$junit_cp" \
      AcceptanceRunner "$class" "$dir/results.txt" "$test_timeout" "$reruns" >"$dir/logs/$class.log" 2>&1) || true
    # Tests a killed JVM left without a result fail.
    tail -n +"$((before + 1))" "$dir/results.txt" | awk '
      $1 == "TEST" { seen[$2] = 1; order[n++] = $2 }
      $1 != "TEST" { done[$2] = 1 }
      END { for (i = 0; i < n; i++) if (!done[order[i]]) print "FAIL " order[i] " killed after the class time limit" }' \
      >>"$dir/results.txt"
    if ! tail -n +"$((before + 1))" "$dir/results.txt" | grep -q '^TEST '; then
      echo "FAIL $class#<class> did not start (see logs/$class.log)" >>"$dir/results.txt"
    fi
  done <"$out/classes.txt"
}

for build in $builds; do
  [ "${REPORT_ONLY:-}" = 1 ] && break
  case $build in
    zmtp) cp=$zmtp_cp ;;
    jeromq) cp=$jeromq_cp ;;
    *) say "unknown build $build"; exit 2 ;;
  esac
  compile "$build" "$cp"
  run "$build" "$cp"
done

if [ "${REPORT_ONLY:-}" != 1 ]; then
  for build in $builds; do
    echo "$build: zmtp-jeromq at $commit; run $(date -u '+%Y-%m-%d %H:%M UTC'); TEST_TIMEOUT=$test_timeout" \
      "RERUNS=$reruns" >"$out/$build/run-info.txt"
  done
fi
# The report covers every build that has results, so BUILDS=zmtp reruns ours against JeroMQ's last results.
builds=$(for build in zmtp jeromq; do if [ -f "$out/$build/results.txt" ]; then echo "$build"; fi; done | tr '\n' ' ')

# 7. The report.
report() {
  echo "JeroMQ's own tests on zmtp-jeromq: JeroMQ $version, src/test/java/org/zeromq"
  for build in $builds; do
    cat "$out/$build/run-info.txt" 2>/dev/null || echo "$build: (no run information)"
  done
  echo
  echo "Not selected (they use JeroMQ's internals beyond the zmq.* test helpers):"
  sed 's/^/  /' "$out/excluded.txt"
  echo
  awk -v builds="$builds" '
    FNR == 1 { build = FILENAME; sub(/\/results\.txt$/, "", build); sub(/.*\//, "", build) }
    $1 == "TEST" { next }
    {
      id = $2; split(id, parts, "#"); cls = parts[1]; sub(/^org\.zeromq\./, "", cls)
      if (!(cls in known)) { known[cls] = 1; classes[nc++] = cls }
      res[build, id] = $1
      if (!(id in all)) { all[id] = 1; total[cls]++; count++; tests[cls] = tests[cls] " " id }
      if ($1 == "FAIL") { why[build, id] = $0; sub(/^FAIL [^ ]+ /, "", why[build, id]) }
      if ($1 == "PASS" && $3 > 0) { flaky[build, id] = $3 }
    }
    END {
      n = split(builds, b, " ")
      printf "%-46s %5s", "class", "tests"
      for (i = 1; i <= n; i++) printf " %8s", b[i]
      printf "\n"
      for (c = 0; c < nc; c++) {
        cls = classes[c]
        printf "%-46s %5d", cls, total[cls]
        for (i = 1; i <= n; i++) {
          k = 0
          split(substr(tests[cls], 2), ids, " ")
          for (j in ids) if (res[b[i], ids[j]] == "PASS") k++
          printf " %8d", k
        }
        printf "\n"
      }
      # Each build counts the tests it ran (a BUILDS=zmtp run of some classes leaves the other JeroMQ results alone).
      for (i = 1; i <= n; i++) {
        p = 0; f = 0; s = 0; ran = 0
        for (id in all) {
          r = res[b[i], id]
          if (r == "") continue
          ran++
          if (r == "PASS") p++; else if (r == "SKIP") s++; else f++
        }
        printf "\n%s: %d passed, %d failed, %d skipped, of %d tests\n", b[i], p, f, s, ran
      }
      jp = 0; both = 0
      for (id in all) if (res["jeromq", id] == "PASS" && res["zmtp", id] != "") {
        jp++; if (res["zmtp", id] == "PASS") both++
      }
      if (jp > 0 && index(builds, "zmtp") && index(builds, "jeromq"))
        printf "\nOf the %d tests JeroMQ passes, zmtp-jeromq passes %d (%.1f%%)\n", jp, both, 100.0 * both / jp
      if (index(builds, "jeromq")) {
        printf "\nFailures on zmtp-jeromq of tests JeroMQ passes:\n"
        for (id in all) if (res["jeromq", id] == "PASS" && res["zmtp", id] != "PASS" && res["zmtp", id] != "")
          printf "  %s: %s\n", id, why["zmtp", id] | "sort"
      } else {
        # No JeroMQ results to compare with: ours alone.
        printf "\nFailures on zmtp-jeromq (no JeroMQ results to compare with):\n"
        for (id in all) if (res["zmtp", id] == "FAIL")
          printf "  %s: %s\n", id, why["zmtp", id] | "sort"
      }
      close("sort")
      printf "\nTests JeroMQ itself does not pass here:\n"
      for (id in all) if (index(builds, "jeromq") && res["jeromq", id] != "PASS")
        printf "  %s: %s %s\n", id, res["jeromq", id], why["jeromq", id] | "sort"
      close("sort")
      printf "\nPassed only on a rerun:\n"
      for (key in flaky) { split(key, kb, SUBSEP); printf "  %s on %s, rerun %d\n", kb[2], kb[1], flaky[key] | "sort" }
      close("sort")
    }' $(for build in $builds; do echo "$out/$build/results.txt"; done)
}
report | tee "$out/report.txt"
