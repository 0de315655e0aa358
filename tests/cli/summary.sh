#!/usr/bin/env bash
# The closing summary, the same for every subcommand: one line on stderr at
# the end of a successful run unless --quiet/-q,
#   gale: CMD: N pairs in T s, backend cpu (K threads), R rescued, C KIND cells
# ("backend cuda (device D)" on a GPU, and then ", kernels S s" at the end, S ≤ T; with several
# devices "(devices D, E)" and ", kernels S s (per device: S1 s, S2 s)", each ≤ S), with N the pairs of the input, K the
# threads asked for, R 0 on the CPU, C not depending on threads or batching;
# nothing of it on a failed run; no progress bar when stderr is no terminal.
#
#   summary.sh GALE PAIRS_TSV WFA_SEQ
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
PAIRS=$2
SEQ=$3

head -n 30 "$PAIRS" > "$TMP/pairs.tsv"
NX=30
head -n 40 "$SEQ" > "$TMP/pairs.seq"
NW=20
awk 'NR % 2 == 1 { print ">p" NR; print substr($0, 2) }' "$TMP/pairs.seq" > "$TMP/p.fa"
awk 'NR % 2 == 0 { print ">t" NR; print substr($0, 2) }' "$TMP/pairs.seq" > "$TMP/t.fa"

"$GALE" --version > "$TMP/version"
NDEV=$(sed -n 's/.*CUDA devices: \([0-9]*\).*/\1/p' "$TMP/version")
[ -n "$NDEV" ] || fail "gale --version does not say how many CUDA devices there are"

# summary CMD WANT_PAIRS KIND ARGS...: runs gale CMD ARGS (stdout to
# $TMP/stdout), which must succeed with exactly one line on stderr, the
# summary; checks its fields; sets BACKEND, RESCUED, CELLS, SECONDS_SAID.
summary() {
    local cmd=$1 pairs=$2 kind=$3 rc t0 t1 line re
    shift 3
    t0=$(date +%s.%N)
    "$GALE" "$cmd" "$@" > "$TMP/stdout" 2> "$TMP/stderr"
    rc=$?
    t1=$(date +%s.%N)
    [ "$rc" -eq 0 ] || { cat "$TMP/stderr" >&2; fail "gale $cmd $*: exit status $rc"; }
    [ "$(wc -l < "$TMP/stderr")" -eq 1 ] || { cat "$TMP/stderr" >&2; fail "gale $cmd $*: not one line on stderr"; }
    ! grep -q $'[\r\033]' "$TMP/stderr" || fail "gale $cmd $*: a progress bar on stderr, which is no terminal"
    line=$(cat "$TMP/stderr")
    re="^gale: $cmd: ([0-9]+) pairs? in ([0-9]+\.[0-9]+) s, backend (cpu \(([0-9]+) threads?\)|cuda \(devices? [0-9, ]+\)), ([0-9]+) rescued, ([0-9]+) $kind cells(, kernels ([0-9]+\.[0-9]+) s( \(per device: [0-9]+\.[0-9]+ s(, [0-9]+\.[0-9]+ s)+\))?)?$"
    [[ $line =~ $re ]] || fail "gale $cmd $*: the summary '$line' does not read as '$re'"
    [ "${BASH_REMATCH[1]}" -eq "$pairs" ] || fail "gale $cmd $*: the summary says ${BASH_REMATCH[1]} pairs, the input holds $pairs"
    if [ "$pairs" -eq 1 ]; then
        [[ $line == *" 1 pair in "* ]] || fail "gale $cmd $*: '1 pairs'"
    fi
    SECONDS_SAID=${BASH_REMATCH[2]}
    awk -v s="$SECONDS_SAID" -v t0="$t0" -v t1="$t1" 'BEGIN { exit !(s >= 0 && s <= t1 - t0 + 0.01) }' ||
        fail "gale $cmd $*: the summary says $SECONDS_SAID s, the run took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s"
    BACKEND=${BASH_REMATCH[3]}
    if [[ $BACKEND == cuda* ]]; then
        [ -n "${BASH_REMATCH[8]}" ] || fail "gale $cmd $*: no kernel time in the summary on the GPU"
        awk -v k="${BASH_REMATCH[8]}" -v s="$SECONDS_SAID" 'BEGIN { exit !(k <= s + 0.01) }' ||
            fail "gale $cmd $*: kernels ${BASH_REMATCH[8]} s in a run of $SECONDS_SAID s"
        PER_DEVICE=${BASH_REMATCH[9]}
    else
        [ -z "${BASH_REMATCH[7]}" ] || fail "gale $cmd $*: a kernel time on the CPU backend"
    fi
    THREADS=${BASH_REMATCH[4]}
    RESCUED=${BASH_REMATCH[5]}
    CELLS=${BASH_REMATCH[6]}
}

# ---- the fields, per subcommand and output format
summary xdrop "$NX" DP --backend cpu --threads 2 "$TMP/pairs.tsv"
[ "$BACKEND" = "cpu (2 threads)" ] || fail "xdrop --backend cpu --threads 2: backend '$BACKEND'"
[ "$RESCUED" -eq 0 ] || fail "xdrop on the CPU: $RESCUED rescued"
[ "$CELLS" -gt 0 ] || fail "xdrop: 0 DP cells for $NX pairs"
X_CELLS=$CELLS
pass "xdrop: '$(cat "$TMP/stderr")'"
summary xdrop "$NX" DP --backend cpu --threads 1 --batch-size 7 "$TMP/pairs.tsv"
[ "$BACKEND" = "cpu (1 thread)" ] || fail "xdrop --threads 1: backend '$BACKEND'"
[ "$CELLS" -eq "$X_CELLS" ] || fail "xdrop: $CELLS cells with 1 thread and batches of 7, $X_CELLS with 2 threads"
pass "xdrop: the same cells with 1 thread and batches of 7: '$(cat "$TMP/stderr")'"
summary xdrop "$NX" DP --backend cpu -o "$TMP/x.out" - < "$TMP/pairs.tsv"
[ ! -s "$TMP/stdout" ] || fail "xdrop -o: the summary went to stdout"
pass "xdrop -o FILE, stdin: the summary on stderr, nothing on stdout"

for fmt in tsv sam paf; do
    summary wfa "$NW" wavefront --backend cpu --threads 2 -F "$fmt" "$TMP/pairs.seq"
    [ "$BACKEND" = "cpu (2 threads)" ] && [ "$RESCUED" -eq 0 ] && [ "$CELLS" -gt 0 ] ||
        fail "wfa -F $fmt: backend '$BACKEND', $RESCUED rescued, $CELLS cells"
    W_CELLS=${W_CELLS:-$CELLS}
    [ "$CELLS" -eq "$W_CELLS" ] || fail "wfa -F $fmt: $CELLS cells, $W_CELLS with TSV"
    pass "wfa -F $fmt: '$(cat "$TMP/stderr")'"
done
summary wfa "$NW" wavefront --backend cpu --threads 1 --batch-size 3 "$TMP/p.fa" "$TMP/t.fa"
[ "$BACKEND" = "cpu (1 thread)" ] && [ "$CELLS" -eq "$W_CELLS" ] ||
    fail "wfa FASTA, 1 thread, batches of 3: backend '$BACKEND', $CELLS cells ($W_CELLS before)"
pass "wfa: FASTA in batches of 3 on 1 thread: the same cells"
summary wfa "$NW" wavefront --edit --backend cpu "$TMP/pairs.seq"
pass "wfa --edit: '$(cat "$TMP/stderr")'"

# ---- one pair, no pair
head -n 1 "$TMP/pairs.tsv" > "$TMP/one.tsv"
summary xdrop 1 DP "$TMP/one.tsv"
: > "$TMP/empty.seq"
summary wfa 0 wavefront "$TMP/empty.seq"
[ "$CELLS" -eq 0 ] || fail "wfa on no pair: $CELLS cells"
pass "one pair ('1 pair') and no pair ('0 pairs', 0 cells)"

# ---- the backend and device that ran (auto)
summary xdrop "$NX" DP "$TMP/pairs.tsv"
if [ "$NDEV" -eq 0 ]; then
    [[ $BACKEND == cpu* ]] || fail "no GPU, backend auto: the summary says '$BACKEND'"
    pass "backend auto without a GPU: the summary says $BACKEND"
else
    [ "$BACKEND" = "cuda (device 0)" ] || fail "backend auto with $NDEV GPU(s): the summary says '$BACKEND'"
    last=$((NDEV - 1))
    summary wfa "$NW" wavefront --backend cuda --device "$last" "$TMP/pairs.seq"
    [ "$BACKEND" = "cuda (device $last)" ] || fail "--device $last: the summary says '$BACKEND'"
    pass "backend cuda: the summary names the device that ran"
    # several devices in one run (device 0 twice where there is one GPU): both named, each
    # one's kernel time, the results those of one device
    two="0,$((NDEV > 1 ? 1 : 0))"
    "$GALE" xdrop -q --backend cuda "$TMP/pairs.tsv" > "$TMP/one.out" || fail "xdrop --device 0 failed"
    summary xdrop "$NX" DP --backend cuda --device "$two" "$TMP/pairs.tsv"
    [ "$BACKEND" = "cuda (devices ${two/,/, })" ] || fail "--device $two: the summary says '$BACKEND'"
    [ -n "$PER_DEVICE" ] || fail "--device $two: no per-device kernel times in '$(cat "$TMP/stderr")'"
    same_file "$TMP/one.out" "$TMP/stdout" "xdrop --device $two equals --device 0"
    summary xdrop "$NX" DP --backend cuda --device all "$TMP/pairs.tsv"
    same_file "$TMP/one.out" "$TMP/stdout" "xdrop --device all equals --device 0"
    pass "--device $two and all: every device named, per-device kernel times, one device's results"
fi

# ---- --quiet and -q: no summary; a failed run: no summary
for q in --quiet -q; do
    for cmd in xdrop wfa; do
        in=$TMP/pairs.tsv
        [ "$cmd" = wfa ] && in=$TMP/pairs.seq
        "$GALE" "$cmd" "$q" "$in" > "$TMP/stdout" 2> "$TMP/stderr" || fail "$cmd $q failed"
        [ ! -s "$TMP/stderr" ] || { cat "$TMP/stderr" >&2; fail "$cmd $q: wrote to stderr"; }
        [ -s "$TMP/stdout" ] || fail "$cmd $q: no results"
    done
done
pass "--quiet and -q: nothing on stderr (xdrop, wfa)"
printf 'ACGT\t0\tACGT\t0\tq\n' >> "$TMP/one.tsv"
"$GALE" xdrop -k 3 "$TMP/one.tsv" > /dev/null 2> "$TMP/stderr" && fail "a bad line did not fail"
! grep -q 'pairs\{0,1\} in .*rescued' "$TMP/stderr" || fail "xdrop: a failed run printed a summary"
printf '>ACGT\n<AC!T\n' > "$TMP/bad.seq"
"$GALE" wfa "$TMP/bad.seq" > /dev/null 2> "$TMP/stderr" && fail "a bad record did not fail"
! grep -q 'pairs\{0,1\} in .*rescued' "$TMP/stderr" || fail "wfa: a failed run printed a summary"
pass "a failed run prints its error, no summary"

done_checks
