#!/usr/bin/env bash
# The ZeroMQ Guide's Java examples, unchanged, on both builds: JeroMQ 0.6.0's jar and zmtp-jeromq.
#
#   guide-examples.sh CHECKOUT [CASE...]
#
# CHECKOUT is a checkout of booksbyus/zguide (pinned below; another commit runs with a warning), or a clone's git
# directory (a bare mirror will do), from which the pinned commit's examples/Java is taken. First build the
# module and collect both class paths, from the repository's root:
#
#   ./mvnw -B -o -q package -DskipTests -pl zmtp-jeromq-guide -am
#
# which leaves zmtp-jeromq and its runtime dependencies in zmtp-jeromq-guide/target/lib and JeroMQ's jar in
# zmtp-jeromq-guide/target/jeromq-lib. The script then
#   1. compiles every file of examples/Java (and its src/main/java tree) against each build: all files together, the
#      files that fail taken out until the rest compiles (a file that needs a failing one fails with it). Files whose
#      public class is named otherwise (dechat.java holds Dechat) are compiled under their class's name, which javac
#      requires; their text is unchanged.
#   2. runs a set of the Guide's programs as the Guide runs them (fixed ports, the same arguments, servers killed once
#      the client is done), first on JeroMQ then on zmtp-jeromq, and checks what they print.
# It writes target/guide-examples/report.md (per case: each build's verdict and what decided it) and exits 1 if a
# case JeroMQ passes fails on zmtp-jeromq, or a file that compiles against JeroMQ doesn't against zmtp-jeromq.
# Runs one program set at a time (the examples use fixed ports): about 10 minutes on 2 cores.
set -u

PINNED=6752d24b215997aa161e6896941bfd6010d4d3f5

here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$here/.." && pwd)
checkout=${1:?usage: guide-examples.sh CHECKOUT [CASE...]}
shift
checkout=$(cd "$checkout" && pwd)
only=("$@")
work=$module/target/guide-examples
report=$work/report.md

rm -rf "$work"
mkdir -p "$work/stage" "$work/stage-src"
if [ -d "$checkout/examples/Java" ]; then
    commit=$(git -C "$checkout" rev-parse HEAD 2>/dev/null || echo unknown)
elif git --git-dir="$checkout" cat-file -e "$PINNED^{commit}" 2>/dev/null; then
    mkdir -p "$work/zguide"
    git --git-dir="$checkout" archive "$PINNED" examples/Java | tar -x -C "$work/zguide"
    checkout=$work/zguide
    commit=$PINNED
else
    echo "no examples/Java in $checkout, nor the pinned commit $PINNED" >&2
    exit 2
fi
if [ "$commit" != "$PINNED" ]; then
    echo "warning: $checkout is at $commit, not the pinned $PINNED" >&2
fi
ls "$module"/target/lib/zmtp-jeromq-*.jar >/dev/null 2>&1 && ls "$module"/target/jeromq-lib/jeromq-*.jar >/dev/null 2>&1 \
    || { echo "build first: ./mvnw -B -o -q package -DskipTests -pl zmtp-jeromq-guide -am" >&2; exit 2; }

declare -A LIB=([jeromq]="$module/target/jeromq-lib/*" [zmtp]="$module/target/lib/*")
BUILDS=(jeromq zmtp)

# ---------------------------------------------------------------- 1. compile
for f in "$checkout"/examples/Java/*.java; do
    cls=$(grep -m1 -oE '^public +(final +|abstract +)?(class|interface|enum) +[A-Za-z0-9_]+' "$f" | awk '{print $NF}')
    cp "$f" "$work/stage/${cls:-$(basename "$f" .java)}.java"
done
(cd "$checkout/examples/Java" && tar -c src) | tar -x -C "$work/stage-src"

# compile SRC_LIST OUT CP: prints "FAIL file" per file taken out, then "OK n".
compile() {
    local list=$1 out=$2 cp=$3 errs e
    local files
    mapfile -t files < "$list"
    mkdir -p "$out"
    while :; do
        [ ${#files[@]} -eq 0 ] && break
        errs=$(javac -nowarn -encoding UTF-8 -Xmaxerrs 100000 -d "$out" -cp "$cp" "${files[@]}" 2>&1 \
            | grep -oE '^[^ :]+\.java:[0-9]+: error' | cut -d: -f1 | sort -u)
        [ -z "$errs" ] && break
        for e in $errs; do
            echo "FAIL ${e#"$work"/}"
            local kept=()
            for x in "${files[@]}"; do [ "$x" != "$e" ] && kept+=("$x"); done
            files=("${kept[@]}")
        done
    done
    echo "OK ${#files[@]}"
}

find "$work/stage" -name '*.java' | sort > "$work/files-examples"
find "$work/stage-src" -name '*.java' | sort > "$work/files-src"
total=$(($(wc -l < "$work/files-examples") + $(wc -l < "$work/files-src")))
declare -A COMPILED FAILED
for b in "${BUILDS[@]}"; do
    compile "$work/files-examples" "$work/classes-$b" "${LIB[$b]}" > "$work/compile-$b.txt"
    compile "$work/files-src" "$work/classes-src-$b" "${LIB[$b]}" >> "$work/compile-$b.txt"
    COMPILED[$b]=$(grep '^OK' "$work/compile-$b.txt" | awk '{s+=$2} END {print s}')
    FAILED[$b]=$(grep '^FAIL' "$work/compile-$b.txt" | awk '{print $2}' | sed 's#.*/##' | sort | paste -sd' ')
    echo "compile, $b: ${COMPILED[$b]} of $total${FAILED[$b]:+; failing: ${FAILED[$b]}}"
done

# ---------------------------------------------------------------- 2. run
# Each case: start (in the background) the programs it names, wait for the last one (the client), stop the others,
# then check the output with a predicate. All output of a case goes to $work/run/<build>/<case>.<program>.out.
declare -A VERDICT WHY
PIDS=()

launch() { # launch NAME TIMEOUT PROGRAM ARGS... (background)
    local name=$1 tmo=$2 prog=$3
    shift 3
    timeout -k 5 "$tmo" java -cp "$CP" "guide.$prog" "$@" > "$OUT.$name.out" 2>&1 < /dev/null &
    PIDS+=($!)
}

run_fg() { # run_fg NAME TIMEOUT PROGRAM ARGS... (waits; exit code in RC)
    local name=$1 tmo=$2 prog=$3
    shift 3
    timeout -k 5 "$tmo" java -cp "$CP" "guide.$prog" "$@" > "$OUT.$name.out" 2>&1 < /dev/null
    RC=$?
}

stop_all() {
    local p
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
    PIDS=()
}

count() { grep -c -E "$1" "$OUT.$2.out" 2>/dev/null || true; }

# verdict PASS|FAIL "why"
verdict() { V=$1; W=$2; }

case_version() {
    run_fg main 30 version
    [ "$(count 'Version string: [0-9]' main)" -ge 1 ] && verdict PASS "$(head -1 "$OUT.main.out")" \
        || verdict FAIL "rc $RC: $(tail -1 "$OUT.main.out")"
}

case_hello() {
    launch server 60 hwserver; sleep 2
    run_fg client 60 hwclient; stop_all
    local n; n=$(count '^Received [Ww]orld' client)
    [ "$n" -eq 10 ] && verdict PASS "10 replies" || verdict FAIL "$n of 10 replies (rc $RC)"
}

case_mtserver() {
    launch server 60 mtserver; sleep 2
    run_fg client 60 hwclient; stop_all
    local n; n=$(count '^Received [Ww]orld' client)
    [ "$n" -eq 10 ] && verdict PASS "10 replies from 5 worker threads" || verdict FAIL "$n of 10 replies (rc $RC)"
}

case_weather() {
    launch server 120 wuserver; sleep 2
    run_fg client 120 wuclient; stop_all
    [ "$(count 'Average temperature for zipcode' client)" -eq 1 ] && verdict PASS "$(grep Average "$OUT.client.out")" \
        || verdict FAIL "no average (rc $RC)"
}

case_syncpub() {
    launch pub 240 syncpub; sleep 2
    local i
    for i in $(seq 1 10); do launch "sub$i" 240 syncsub; done
    # The subscribers end with END; syncpub ends after its last send and the close.
    for i in $(seq 1 11); do wait "${PIDS[$i-1]}" 2>/dev/null; done
    PIDS=()
    local full; full=$(cat "$OUT".sub*.out | grep -c '^Received 1000000 updates.')
    local got; got=$(cat "$OUT".sub*.out | grep -oE '^Received [0-9]+' | awk '{print $2}' | sort -n | paste -sd,)
    [ "$full" -eq 10 ] && verdict PASS "10 subscribers got 1000000 updates and END" \
        || verdict FAIL "$full of 10 subscribers complete (received: ${got:-none})"
}

case_psenv() {
    launch pub 60 psenvpub; sleep 2
    launch sub 10 psenvsub; wait "${PIDS[1]}" 2>/dev/null; stop_all
    local b x; b=$(count '^B : We would like to see this' sub); x=$(count '^A :' sub)
    # Millions of lines: keep the first hundred.
    head -100 "$OUT.sub.out" > "$OUT.sub.head" && mv "$OUT.sub.head" "$OUT.sub.out"
    [ "$b" -ge 3 ] && [ "$x" -eq 0 ] && verdict PASS "B envelopes only, no A" \
        || verdict FAIL "$b B envelopes, $x A"
}

case_pipeline() {
    launch sink 120 tasksink; launch w1 120 taskwork; launch w2 120 taskwork; launch w3 120 taskwork; sleep 3
    # taskvent waits for Enter once the workers are up.
    (sleep 1; echo) | timeout -k 5 60 java -cp "$CP" guide.taskvent > "$OUT.vent.out" 2>&1
    wait "${PIDS[0]}" 2>/dev/null; RC=$?; stop_all
    local done_; done_=$(count 'Total elapsed time: [0-9]+ msec' sink)
    local dots; dots=$(head -1 "$OUT.sink.out" | tr -cd '.:' | wc -c)
    [ "$done_" -eq 1 ] && [ "$dots" -eq 100 ] && verdict PASS "100 results, $(grep -oE 'Total elapsed time: [0-9]+ msec' "$OUT.sink.out")" \
        || verdict FAIL "sink: $dots of 100 results, done $done_ (rc $RC)"
}

case_rrbroker() {
    launch broker 60 rrbroker; launch worker 60 rrworker; sleep 2
    run_fg client 60 rrclient; stop_all
    local n; n=$(count '^Received reply [0-9]+ \[World\]' client)
    [ "$n" -eq 10 ] && verdict PASS "10 replies through the broker" || verdict FAIL "$n of 10 replies (rc $RC)"
}

case_msgqueue() {
    launch broker 60 msgqueue; launch worker 60 rrworker; sleep 2
    run_fg client 60 rrclient; stop_all
    local n; n=$(count '^Received reply [0-9]+ \[World\]' client)
    [ "$n" -eq 10 ] && verdict PASS "10 replies through ZMQ.proxy" || verdict FAIL "$n of 10 replies (rc $RC)"
}

case_lbbroker() { # lbbroker, lbbroker2, lbbroker3: one process, 10 clients, 3 workers
    # Its workers loop for ever on non-daemon threads, so the program never exits on either build: stopped at 25 s.
    run_fg main 25 "$1"
    local n; n=$(count '^Client: OK' main)
    [ "$n" -eq 10 ] && verdict PASS "10 clients answered$( [ "$RC" -eq 124 ] && echo "; runs on (its workers loop)")" \
        || verdict FAIL "$n of 10 clients answered (rc $RC)"
}
case_lbbroker1() { case_lbbroker lbbroker; }
case_lbbroker2() { case_lbbroker lbbroker2; }
case_lbbroker3() { case_lbbroker lbbroker3; }

case_asyncsrv() { # main returns after 5 s; its client threads loop for ever, so it runs on: stopped at 20 s
    run_fg main 20 asyncsrv
    local n; n=$(count 'request #' main)
    [ "$n" -ge 3 ] && verdict PASS "$n replies printed by the 3 clients" || verdict FAIL "rc $RC, $n replies printed"
}

case_rtdealer_like() {
    run_fg main 60 "$1"
    local n; n=$(count '^Completed: [0-9]+ tasks' main)
    [ "$n" -eq 10 ] && [ "$RC" -eq 0 ] && verdict PASS "10 workers fired, exit 0" \
        || verdict FAIL "$n of 10 workers heard Fired! (rc $RC)"
}
case_rtdealer() { case_rtdealer_like rtdealer; }
case_rtreq() { case_rtdealer_like rtreq; }

case_identity() {
    run_fg main 30 identity
    [ "$RC" -eq 0 ] && [ "$(count '^\[005\] PEER2' main)" -eq 1 ] && [ "$(count 'uses REQ' main)" -eq 1 ] \
        && verdict PASS "both envelopes dumped, PEER2's identity" || verdict FAIL "rc $RC"
}

case_mtrelay() {
    run_fg main 30 mtrelay
    [ "$RC" -eq 0 ] && [ "$(count '^Test successful!' main)" -eq 1 ] && verdict PASS "Test successful!" \
        || verdict FAIL "rc $RC: $(tail -1 "$OUT.main.out")"
}

case_tripping() {
    run_fg main 120 tripping
    [ "$RC" -eq 0 ] && [ "$(count 'calls/second' main)" -eq 2 ] \
        && verdict PASS "$(grep -oE '[0-9]+ calls/second' "$OUT.main.out" | paste -sd' ' | sed 's/^/sync, async: /')" \
        || verdict FAIL "rc $RC"
}

case_lazypirate() { # lpserver crashes at random; lpclient retries 3 times then abandons
    launch server 90 lpserver; sleep 2
    run_fg client 90 lpclient; stop_all
    local ok; ok=$(count 'server replied OK' client)
    local crashed; crashed=$(count 'simulating a crash' server)
    if [ "$ok" -ge 1 ] && { [ "$crashed" -eq 0 ] || [ "$(count 'abandoning' client)" -ge 1 ]; }; then
        verdict PASS "$ok replies; server crash: $crashed, client $( [ "$crashed" -ge 1 ] && echo abandoned || echo went on)"
    else
        verdict FAIL "$ok replies, crash $crashed (rc $RC)"
    fi
}

case_simplepirate() { # spqueue + spworker (which crashes at random) + lpclient
    launch queue 90 spqueue; launch worker 90 spworker; sleep 2
    run_fg client 90 lpclient; stop_all
    local ok; ok=$(count 'server replied OK' client)
    [ "$ok" -ge 1 ] && verdict PASS "$ok replies through the queue" || verdict FAIL "no reply (rc $RC)"
}

case_clone1() {
    launch server 60 clonesrv1; sleep 2
    # The client prints a line per update until it is stopped (a JVM start may take seconds on a busy machine).
    launch client 25 clonecli1; wait "${PIDS[1]}" 2>/dev/null; stop_all
    local n; n=$(count '^receiving ' client)
    head -100 "$OUT.server.out" > "$OUT.server.head" && mv "$OUT.server.head" "$OUT.server.out"
    head -100 "$OUT.client.out" > "$OUT.client.head" && mv "$OUT.client.head" "$OUT.client.out"
    [ "$n" -ge 1000 ] && verdict PASS "$n updates in the client's 25 s" || verdict FAIL "$n updates"
}

case_clone2() {
    launch server 60 clonesrv2; sleep 2
    # The server publishes one update a second.
    launch client 15 clonecli2; wait "${PIDS[1]}" 2>/dev/null; stop_all
    local snap; snap=$(count '^Received snapshot = [0-9]+' client)
    local n; n=$(count '^receiving [0-9]+' client)
    [ "$snap" -eq 1 ] && [ "$n" -ge 5 ] && verdict PASS "snapshot, then $n updates" \
        || verdict FAIL "snapshot $snap, $n updates"
}

case_majordomo() { # mdclient sends 100 000 requests to the echo service and prints the count
    launch broker 150 mdbroker; launch worker 150 mdworker; sleep 2
    local t0; t0=$(date +%s)
    run_fg client 120 mdclient; stop_all
    local t=$(( $(date +%s) - t0 ))
    if [ "$(count '^100000 requests/replies processed' client)" -eq 1 ]; then
        verdict PASS "100000 replies in ${t} s"
    else
        local why; why=$(grep -h -m1 -oE 'Too many open files|OutOfMemoryError|Exception[^ ]*' "$OUT".*.out | head -1)
        verdict FAIL "no count after ${t} s (rc $RC)${why:+: $why}"
    fi
}

case_freelance1() {
    launch server 60 flserver1 tcp://*:5555; sleep 2
    run_fg client 60 flclient1 tcp://localhost:5555; stop_all
    [ "$(count '^Service is running OK' client)" -eq 1 ] && verdict PASS "Service is running OK" \
        || verdict FAIL "rc $RC: $(tail -1 "$OUT.client.out")"
}

# eagain and fileio1-3 are in no package (the Guide's other files are in "guide"); fileio reads ./testdata.
run_plain() { # run_plain NAME TIMEOUT CLASS DIR (waits in DIR; exit code in RC)
    local name=$1 tmo=$2 cls=$3 dir=$4
    (cd "$dir" && timeout -k 5 "$tmo" java -cp "$CP" "$cls" > "$OUT.$name.out" 2>&1 < /dev/null)
    RC=$?
}

case_eagain() {
    # A DEALER with SNDHWM 4 and SNDTIMEO 0 connected to nobody sends until its queue is full.
    run_plain main 30 Eagain "$work"
    local sent; sent=$(count '^Sending message [0-9]+' main)
    [ "$(count '^error code: EAGAIN' main)" -eq 1 ] && verdict PASS "EAGAIN after $sent sends" \
        || verdict FAIL "rc $RC: $(tail -1 "$OUT.main.out")"
}

fileio_case() { # fileio_case CLASS: a server thread sends ./testdata in chunks to a client thread, which counts them
    local dir=$work/run/fileio
    mkdir -p "$dir"
    [ -f "$dir/testdata" ] || head -c 1048576 /dev/urandom > "$dir/testdata"
    run_plain main 60 "$1" "$dir"
    [ "$(count '^[0-9]+ chunks received, 1048576 bytes' main)" -eq 1 ] && verdict PASS "$(tail -1 "$OUT.main.out")" \
        || verdict FAIL "rc $RC: $(tail -1 "$OUT.main.out")"
}

case_fileio1() { fileio_case Fileio1; }
case_fileio2() { fileio_case Fileio2; }
case_fileio3() { fileio_case Fileio3; }

CASES=(version hello mtserver weather syncpub psenv pipeline rrbroker msgqueue lbbroker1 lbbroker2 lbbroker3 asyncsrv
       rtdealer rtreq identity mtrelay tripping lazypirate simplepirate clone1 clone2 majordomo freelance1
       eagain fileio1 fileio2 fileio3)
[ ${#only[@]} -gt 0 ] && CASES=("${only[@]}")

for c in "${CASES[@]}"; do
    for b in "${BUILDS[@]}"; do
        CP="$work/classes-$b:${LIB[$b]}"
        mkdir -p "$work/run/$b"
        OUT="$work/run/$b/$c"
        V=FAIL; W="not run"
        "case_$c"
        stop_all
        VERDICT[$c,$b]=$V
        WHY[$c,$b]=$W
        printf '%-13s %-7s %-4s %s\n' "$c" "$b" "$V" "$W"
    done
done

# ---------------------------------------------------------------- report
regressions=0
{
    echo "# The Guide's Java examples on both builds"
    echo
    echo "booksbyus/zguide at \`$commit\`$( [ "$commit" != "$PINNED" ] && echo " (pinned: \`$PINNED\`)" ); $(date -u +%Y-%m-%dT%H:%MZ)."
    echo
    echo "| build | files compiled (of $total) | failing |"
    echo "|---|---|---|"
    for b in "${BUILDS[@]}"; do echo "| $b | ${COMPILED[$b]} | ${FAILED[$b]:-none} |"; done
    echo
    echo "| case | JeroMQ 0.6.0 | zmtp-jeromq |"
    echo "|---|---|---|"
    for c in "${CASES[@]}"; do
        echo "| $c | ${VERDICT[$c,jeromq]}: ${WHY[$c,jeromq]} | ${VERDICT[$c,zmtp]}: ${WHY[$c,zmtp]} |"
        if [ "${VERDICT[$c,jeromq]}" = PASS ] && [ "${VERDICT[$c,zmtp]}" != PASS ]; then
            regressions=$((regressions + 1))
        fi
    done
} > "$report"
for f in ${FAILED[zmtp]:-}; do
    case " ${FAILED[jeromq]:-} " in *" $f "*) ;; *) regressions=$((regressions + 1)) ;; esac
done
echo
echo "report: $report"
[ "$regressions" -eq 0 ] || { echo "$regressions case(s) or file(s) JeroMQ passes fail on zmtp-jeromq" >&2; exit 1; }
