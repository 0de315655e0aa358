#!/usr/bin/env bash
# gale under MPI (doc/cli.md, "Several processes (MPI)"): `mpirun -np 2` and `-np 3`
# on the CPU backend must write byte for byte what one process writes, for xdrop
# (strand c lines, gzip, chunks small enough to alternate between the ranks many
# times) and wfa (.seq TSV with --coords, FASTA PAF and SAM, gzip); a bad line or
# record fails every rank with exit 1 and the message naming it, -o FILE untouched;
# -o FILE is written once, by rank 0; the summary comes once and counts every rank.
#
#   mpi.sh GALE MPI_BUILT(yes|no) PAIRS.tsv PAIRS.seq PATTERNS.fa TEXTS.fa
#
# Defined whenever the CLI is built and -Dmpi is not disabled: a gale built without
# MPI, or no mpirun, FAILS here (tools/setup-deps.sh installs Open MPI).
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
BUILT=$2
PAIRS=$3
SEQ=$4
PAT=$5
TXT=$6

[ "$BUILT" = yes ] || fail "this gale was built without MPI (Open MPI not found at configure time): install openmpi-bin and libopenmpi-dev (tools/setup-deps.sh), or configure with -Dmpi=disabled"
command -v mpirun > /dev/null 2>&1 || fail "no mpirun on PATH (Debian: openmpi-bin; tools/setup-deps.sh)"
"$GALE" --version | grep '^MPI: Open MPI' >/dev/null || { "$GALE" --version >&2; fail "gale --version names no MPI"; }
pass "gale is built with MPI ($("$GALE" --version | sed -n 's/^MPI: //p')), mpirun is $(command -v mpirun)"

# Open MPI refuses root without these (CI runs as root); more ranks than cores need
# --oversubscribe; the single-copy path (CMA) of shared memory may be forbidden in a
# container, and is not needed here.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# Under ASan (tools/test.sh's build-asan) leaks are not checked in the ranks: Open MPI's
# own allocations live until exit, in components unloaded by then, where LeakSanitizer
# can neither name nor suppress them. ASan's other checks and UBSan stay; the
# single-process runs keep the leak check.
MPIRUN=(env "ASAN_OPTIONS=${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0" mpirun --oversubscribe)

# run_np N OUT ERR ARGS...: mpirun -np N gale ARGS, stdout to OUT, stderr to ERR;
# returns mpirun's exit status.
run_np() {
    local np=$1 out=$2 err=$3
    shift 3
    timeout 120 "${MPIRUN[@]}" -np "$np" "$GALE" "$@" > "$out" 2> "$err" < /dev/null
}

# same_np WHAT ARGS...: one process, then -np 2 and -np 3, same stdout (SAM: the @PG
# line, which holds the command line, left out of the comparison).
same_np() {
    local what=$1 np
    shift
    "$GALE" "$@" > "$TMP/one.out" 2> "$TMP/one.err" < /dev/null || { cat "$TMP/one.err" >&2; fail "$what: one process exited with $?"; }
    [ -s "$TMP/one.out" ] || fail "$what: no output"
    for np in 2 3; do
        run_np "$np" "$TMP/np.out" "$TMP/np.err" "$@" || { cat "$TMP/np.err" >&2; fail "$what: mpirun -np $np exited with $?"; }
        if grep -q '^@PG' "$TMP/one.out"; then
            grep -v '^@PG' "$TMP/one.out" > "$TMP/one.cmp"
            grep -v '^@PG' "$TMP/np.out" > "$TMP/np.cmp"
            grep -c '^@PG' "$TMP/np.out" | grep -x 1 >/dev/null || fail "$what: -np $np: not one @PG line"
            same_file "$TMP/one.cmp" "$TMP/np.cmp" "$what: -np $np = one process ($(wc -l < "$TMP/one.out") lines, @PG aside)"
        else
            same_file "$TMP/one.out" "$TMP/np.out" "$what: -np $np = one process ($(wc -l < "$TMP/one.out") lines)"
        fi
    done
}

# ---- xdrop: the example (134 strand n, 66 strand c lines) in chunks of 7 lines: 29
# chunks, 15 and 14 for two ranks, 10/10/9 for three
grep -q "	c$" "$PAIRS" || fail "$PAIRS has no strand c line"
same_np "xdrop, chunks of 7 pairs" xdrop -q --threads 1 --batch-size 7 "$PAIRS"
same_np "xdrop, chunks of 32 KiB (--batch-bases)" xdrop -q --threads 1 --batch-bases 32768 "$PAIRS"
same_np "xdrop, one chunk (the other ranks have none)" xdrop -q --threads 1 "$PAIRS"
gzip_to "$PAIRS" "$TMP/pairs.tsv.gz"
same_np "xdrop, gzip input" xdrop -q --threads 1 --batch-size 11 "$TMP/pairs.tsv.gz"

# the summary: once (rank 0), with every rank's cells, "2 ranks"
"$GALE" xdrop --threads 1 --batch-size 7 "$PAIRS" > /dev/null 2> "$TMP/one.err" || fail "xdrop summary run"
run_np 2 "$TMP/np.out" "$TMP/np.err" xdrop --threads 1 --batch-size 7 "$PAIRS" || { cat "$TMP/np.err" >&2; fail "xdrop -np 2 with its summary"; }
[ "$(grep -c '^gale: ' "$TMP/np.err")" -eq 1 ] || { cat "$TMP/np.err" >&2; fail "-np 2: not one line from gale on stderr"; }
grep -q '^gale: xdrop: 200 pairs in .* s, 2 ranks, backend cpu (1 thread) on rank 0, 0 rescued, ' "$TMP/np.err" ||
    { cat "$TMP/np.err" >&2; fail "-np 2: the summary does not say 200 pairs over 2 ranks"; }
CELLS1=$(sed -n 's/.* rescued, \([0-9]*\) DP cells$/\1/p' "$TMP/one.err")
CELLS2=$(sed -n 's/.* rescued, \([0-9]*\) DP cells$/\1/p' "$TMP/np.err")
[ -n "$CELLS1" ] && [ "$CELLS1" = "$CELLS2" ] || fail "the cells of -np 2 ($CELLS2) are not one process's ($CELLS1)"
pass "summary: once, '2 ranks', the cells of every rank ($CELLS2 = one process's)"

# -o FILE: written once, by rank 0; nothing on stdout; no temporary left
mkdir "$TMP/o"
"$GALE" xdrop -q --batch-size 7 "$PAIRS" > "$TMP/base.tsv"
run_np 3 "$TMP/np.out" "$TMP/np.err" xdrop -q --threads 1 --batch-size 7 -o "$TMP/o/out.tsv" "$PAIRS" ||
    { cat "$TMP/np.err" >&2; fail "-np 3 -o FILE exited with $?"; }
same_file "$TMP/base.tsv" "$TMP/o/out.tsv" "-np 3 -o FILE holds the results once"
[ ! -s "$TMP/np.out" ] || fail "-np 3 -o FILE: something on stdout"
[ "$(ls "$TMP/o")" = out.tsv ] || fail "-np 3 -o FILE: the directory holds $(ls "$TMP/o")"
pass "-np 3 -o FILE: nothing on stdout, nothing else next to FILE"
echo "first line" > "$TMP/o/app.tsv"
timeout 120 "${MPIRUN[@]}" -np 2 "$GALE" xdrop -q --batch-size 7 -o /dev/stdout "$PAIRS" >> "$TMP/o/app.tsv" < /dev/null ||
    fail "-np 2 -o /dev/stdout >> FILE exited with $?"
{ echo "first line"; cat "$TMP/base.tsv"; } > "$TMP/o/app.want"
same_file "$TMP/o/app.want" "$TMP/o/app.tsv" "-np 2 -o /dev/stdout appended once (>>)"

# help and usage errors: said once; standard input refused (rank 0 alone would get it)
run_np 2 "$TMP/np.out" "$TMP/np.err" --help || fail "-np 2 --help exited with $?"
[ "$(grep -c '^Usage: gale <command>' "$TMP/np.out")" -eq 1 ] || fail "-np 2 --help: not printed once"
pass "-np 2 --help: printed once"
run_np 2 "$TMP/np.out" "$TMP/np.err" xdrop --bogus "$PAIRS"
RC=$?
[ "$RC" -eq 2 ] || fail "-np 2 xdrop --bogus: exit status $RC, expected 2"
[ "$(grep -c '^gale: unknown option --bogus' "$TMP/np.err")" -eq 1 ] || { cat "$TMP/np.err" >&2; fail "-np 2 --bogus: not said once"; }
pass "-np 2 usage error: exit 2, said once"
run_np 2 "$TMP/np.out" "$TMP/np.err" xdrop -q - < "$PAIRS"
RC=$?
[ "$RC" -eq 1 ] && grep -q "^gale: (stdin): not a regular file: under MPI" "$TMP/np.err" ||
    { cat "$TMP/np.err" >&2; fail "-np 2 xdrop -: exit $RC, expected 1 and 'not a regular file'"; }
pass "-np 2 xdrop -: refused, exit 1"

# a bad line in the middle (line 121: chunk 17 of 7 lines, rank 1's of 2, rank 2's of 3):
# exit 1, the message names it, -o FILE untouched and no temporary left
{ head -120 "$PAIRS"; printf 'ACGT\t1\tACGT\n'; tail -n +121 "$PAIRS"; } > "$TMP/bad.tsv"
for np in 2 3; do
    echo "old content" > "$TMP/o/keep.tsv"
    run_np "$np" "$TMP/np.out" "$TMP/np.err" xdrop -q --threads 1 --batch-size 7 -o "$TMP/o/keep.tsv" "$TMP/bad.tsv"
    RC=$?
    [ "$RC" -eq 1 ] || { cat "$TMP/np.err" >&2; fail "-np $np, a bad line: exit status $RC, expected 1"; }
    grep -q "^gale: $TMP/bad.tsv:121: expected 5 TAB-separated fields" "$TMP/np.err" ||
        { cat "$TMP/np.err" >&2; fail "-np $np, a bad line: no message naming line 121"; }
    [ "$(cat "$TMP/o/keep.tsv")" = "old content" ] || fail "-np $np, a bad line: -o FILE changed"
    ! tmp_left "$TMP/o" || fail "-np $np, a bad line: a temporary left: $(ls "$TMP/o")"
    pass "-np $np, a bad line 121: exit 1, '$(grep -m1 '^gale: ' "$TMP/np.err" | cut -c1-90)', -o FILE untouched"
done

# ---- wfa
same_np "wfa .seq TSV --coords, chunks of 3 pairs" wfa -q --threads 1 --batch-size 3 --coords "$SEQ"
same_np "wfa .seq SAM (names from the index)" wfa -q --threads 1 --batch-size 3 -F sam "$SEQ"
same_np "wfa FASTA PAF, chunks of 3 pairs" wfa -q --threads 1 --batch-size 3 -F paf "$PAT" "$TXT"
same_np "wfa FASTA SAM, chunks of 4 KiB (--batch-bases)" wfa -q --threads 1 --batch-bases 4096 -F sam "$PAT" "$TXT"
gzip_to "$PAT" "$TMP/p.fa.gz"
same_np "wfa FASTA gzip TSV --edit" wfa -q --threads 1 --batch-size 7 --edit "$TMP/p.fa.gz" "$TXT"

# a bad record (FASTA read by every rank: said once, by its chunk's rank) and a SAM
# reference name given to another sequence in another rank's chunk (rank 0 sees
# every reference): exit 1 and the message
awk 'NR == 201 { print "<ACGT" } { print }' "$PAT" > "$TMP/bad.fa"
"$GALE" wfa -q --batch-size 3 "$TMP/bad.fa" "$TXT" > /dev/null 2> "$TMP/one.err" && fail "a bad FASTA record passed"
for np in 2 3; do
    run_np "$np" "$TMP/np.out" "$TMP/np.err" wfa -q --threads 1 --batch-size 3 "$TMP/bad.fa" "$TXT"
    RC=$?
    [ "$RC" -eq 1 ] || { cat "$TMP/np.err" >&2; fail "-np $np, a bad record: exit status $RC, expected 1"; }
    [ "$(grep -c '^gale: ' "$TMP/np.err")" -eq 1 ] && grep -qxF "$(cat "$TMP/one.err")" "$TMP/np.err" ||
        { cat "$TMP/one.err" "$TMP/np.err" >&2; fail "-np $np, a bad record: not one process's message, once"; }
    pass "-np $np, a bad FASTA record: exit 1, one process's message, once"
done
awk '/^>/ { n++; if (n == 60) { print ">" first; next } if (n == 2) { first = substr($1, 2) } } { print }' "$TXT" > "$TMP/conf.fa"
"$GALE" wfa -q --batch-size 3 -F sam "$PAT" "$TMP/conf.fa" > /dev/null 2> "$TMP/one.err" && fail "a SAM name conflict passed"
grep -q "was given to a different sequence" "$TMP/one.err" || { cat "$TMP/one.err" >&2; fail "no SAM name conflict in one process"; }
for np in 2 3; do
    run_np "$np" "$TMP/np.out" "$TMP/np.err" wfa -q --threads 1 --batch-size 3 -F sam "$PAT" "$TMP/conf.fa"
    RC=$?
    [ "$RC" -eq 1 ] && grep -qxF "$(cat "$TMP/one.err")" "$TMP/np.err" ||
        { cat "$TMP/one.err" "$TMP/np.err" >&2; fail "-np $np, a SAM name conflict: exit $RC or not one process's message"; }
    pass "-np $np, a SAM name conflict in record 60: exit 1, one process's message"
done

done_checks
