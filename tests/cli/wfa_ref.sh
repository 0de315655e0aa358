#!/usr/bin/env bash
# gale wfa against wfa_ref, an independent WFA2-lib 2.3.3 computation of every
# score plus a check of every printed CIGAR (valid, within the ends-free span,
# rescoring to the printed score): tests/cli/wfa_ref.cpp.
#
#   wfa_ref.sh GALE WFA_REF SEQ PATTERNS_FA TEXTS_FA [PYTHON MAKE_WFA_EXAMPLE]
#
# Inputs: the committed example (.seq and the FASTA pair, plus a FASTQ pair made
# from it here), hand-made edge pairs, and fresh random pairs from
# examples/make_wfa_example.py written in all three formats (seed printed;
# GALE_TEST_SEED reproduces; GALE_TEST_SCALE scales the number of pairs down,
# e.g. under sanitizers). Every scoring runs on every format.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
REF=$2
SEQ=$3
PAT=$4
TXT=$5
PY=${6:-}
MAKE=${7:-}

# fasta_to_fastq FASTA FASTQ: one-line records with made-up qualities
fasta_to_fastq() {
    awk 'function flush() { if (have) { q = s; gsub(/./, "I", q); print "@" name; print s; print "+"; print q } }
         /^>/ { flush(); name = substr($1, 2); s = ""; have = 1; next }
         { s = s $0 }
         END { flush() }' "$1" > "$2"
}

# compare NAME [GALE/REF OPTIONS...] -- INPUTS...: gale --coords on INPUTS, checked by wfa_ref
compare() {
    local name=$1 opts=() ins=()
    shift
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    ins=("$@")
    local coords=(--coords)
    local rc=0
    "$GALE" wfa -q "${coords[@]}" "${opts[@]}" "${ins[@]}" > "$TMP/gale.tsv" 2> "$TMP/gale.err" || rc=$?
    [ "$rc" -eq 0 ] || { cat "$TMP/gale.err" >&2; fail "$name: gale exited with $rc (options: ${opts[*]:-defaults})"; }
    [ -s "$TMP/gale.tsv" ] || fail "$name: empty gale output"
    if "$REF" "${opts[@]}" --check "$TMP/gale.tsv" "${ins[@]}" > "$TMP/ref.out" 2>&1; then
        pass "$name, options: ${opts[*]:-defaults}: $(tail -n 1 "$TMP/ref.out")"
    else
        cat "$TMP/ref.out" >&2
        fail "$name, options: ${opts[*]:-defaults}: gale and WFA2-lib disagree"
    fi
}

# The scorings every input set runs with.
SCORINGS=(
    ""
    "--mismatch 1 --gap-open 0 --gap-extend 1"
    "--mismatch 5 --gap-open 10 --gap-extend 1"
    "--mismatch 2 --gap-open 3 --gap-extend 3"
    "--gap-open2 24 --gap-extend2 1"
    "--mismatch 6 --gap-open 4 --gap-extend 3 --gap-open2 20 --gap-extend2 1"
    "--edit"
    "--n-mismatch"
    "--edit --n-mismatch"
    "--bytes"
    "--edit --bytes"
    "--ends-free 0,0,50,50"
    "--ends-free 40,40,0,0"
    "--ends-free 10,20,30,40"
    "--ends-free 2147483647,2147483647,2147483647,2147483647"
    "--edit --ends-free 0,0,60,60"
    "--gap-open2 24 --gap-extend2 1 --ends-free 30,30,30,30"
    "--score-only"
    "--score-only --ends-free 0,0,50,50"
    "--edit --score-only"
)

# run_set NAME SEQFILE PATFA TXTFA PATFQ TXTFQ: every scoring on every format,
# and the three formats give the same output.
run_set() {
    local name=$1 seq=$2 pfa=$3 tfa=$4 pfq=$5 tfq=$6 s
    for s in "${SCORINGS[@]}"; do
        # shellcheck disable=SC2086
        compare "$name (.seq)" $s -- "$seq"
        cp "$TMP/gale.tsv" "$TMP/seq.tsv"
        # shellcheck disable=SC2086
        compare "$name (FASTA)" $s -- "$pfa" "$tfa"
        same_file "$TMP/seq.tsv" "$TMP/gale.tsv" "$name: FASTA gives what .seq gives (${s:-defaults})"
        # shellcheck disable=SC2086
        compare "$name (FASTQ)" $s -- "$pfq" "$tfq"
        same_file "$TMP/seq.tsv" "$TMP/gale.tsv" "$name: FASTQ gives what .seq gives (${s:-defaults})"
    done
}

# ---- the reference checks itself: a wrong score and a wrong CIGAR are caught
printf '>ACGTACGT\n<ACGTTCGT\n' > "$TMP/self.seq"
printf '0\t-4\t4=1X3=\t0\t8\t0\t8\n' > "$TMP/self_good.tsv"
"$REF" --check "$TMP/self_good.tsv" "$TMP/self.seq" > /dev/null || fail "reference rejects a correct line"
printf '0\t-3\t4=1X3=\t0\t8\t0\t8\n' > "$TMP/self_bad.tsv"
if "$REF" --check "$TMP/self_bad.tsv" "$TMP/self.seq" > /dev/null; then fail "reference accepts a wrong score"; fi
printf '0\t-4\t3=1X4=\t0\t8\t0\t8\n' > "$TMP/self_bad.tsv"
if "$REF" --check "$TMP/self_bad.tsv" "$TMP/self.seq" > /dev/null; then fail "reference accepts a misplaced X"; fi
printf '0\t-4\t4=1I3=\t0\t8\t0\t8\n' > "$TMP/self_bad.tsv"
if "$REF" --check "$TMP/self_bad.tsv" "$TMP/self.seq" > /dev/null; then fail "reference accepts a CIGAR that does not fit"; fi
pass "reference self-check: a correct line passes; a wrong score, X or length fails"

# ---- the committed example in all three formats
fasta_to_fastq "$PAT" "$TMP/ex_p.fq"
fasta_to_fastq "$TXT" "$TMP/ex_t.fq"
run_set "example" "$SEQ" "$PAT" "$TXT" "$TMP/ex_p.fq" "$TMP/ex_t.fq"

# ---- edge pairs (.seq; the FASTA/FASTQ paths are covered above and below)
{
    printf '>\n<\n'                       # both empty
    printf '>ACGT\n<\n'                   # empty text
    printf '>\n<ACGTA\n'                  # empty pattern
    printf '>A\n<A\n>A\n<C\n>A\n<\n>\n<G\n'
    printf '>ACGTACGTACGT\n<ACGTACGTACGT\n'
    printf '>acgtNNNNacgt\n<ACGTNNNNACGT\n'
    printf '>AAAAAAAAAA\n<CCCCCCCCCC\n'
    printf '>ACGTACGTTTTTTTTTTTTT\n<ACGTACGT\n'
    printf '>ACGTACGT\n<GGGGGGGGGGGGACGTACGTGGGGGGGGGGGG\n'
    printf '>GATTACA\n<GATCACAGATTACA\n'
    printf '>UUUACGU\n<TTTACGT\n'
    printf '>RYKMSWBDHV\n<NNNNNNNNNN\n'
    printf '>ryk\n<nnn\n'
    printf '>TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT\n<A\n'
    printf '>A\n<TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT\n'
} > "$TMP/edge.seq"
for s in "${SCORINGS[@]}"; do
    # shellcheck disable=SC2086
    compare "edge pairs" $s -- "$TMP/edge.seq"
done

# ---- WFA2-lib's heuristics (--wfa-heuristic): WFA2-lib's scores with the same
# heuristic, '*' where it finds every path cut (wfa_ref runs it in memory mode med)
HEURISTICS=(
    "--wfa-heuristic wfa-adaptive"
    "--wfa-heuristic wfa-adaptive --wfa-min-wavefront-length 5 --wfa-max-distance-threshold 10 --wfa-steps-between-cutoffs 2"
    "--wfa-heuristic wfmash --wfa-max-distance-threshold 20"
    "--wfa-heuristic xdrop --wfa-xdrop 20"
    "--wfa-heuristic zdrop --wfa-zdrop 20 --wfa-steps-between-cutoffs 3"
    "--wfa-heuristic banded-static --wfa-band-min-k -5 --wfa-band-max-k 5"
    "--wfa-heuristic banded-adaptive --wfa-band-min-k -3 --wfa-band-max-k 3"
    "--wfa-heuristic wfa-adaptive,xdrop,banded-static --wfa-xdrop 30"
    "--gap-open2 24 --gap-extend2 1 --wfa-heuristic zdrop,wfmash --wfa-zdrop 30"
    "--score-only --wfa-heuristic xdrop --wfa-xdrop 10"
    "--ends-free 0,0,50,50 --wfa-heuristic wfa-adaptive --wfa-max-distance-threshold 10"
)
for s in "${HEURISTICS[@]}"; do
    # shellcheck disable=SC2086
    compare "example, heuristic" $s -- "$SEQ"
done
# align_benchmark's --wfa-heuristic-parameters P1,P2[,P3] set the same parameters
"$GALE" wfa -q --coords --wfa-heuristic xdrop --wfa-xdrop 20 --wfa-steps-between-cutoffs 2 "$SEQ" > "$TMP/h1.tsv" ||
    fail "gale wfa --wfa-xdrop failed"
"$GALE" wfa -q --coords --wfa-heuristic xdrop --wfa-heuristic-parameters 20,2 "$SEQ" > "$TMP/h2.tsv" ||
    fail "gale wfa --wfa-heuristic-parameters failed"
same_file "$TMP/h1.tsv" "$TMP/h2.tsv" "--wfa-heuristic-parameters 20,2 = --wfa-xdrop 20 --wfa-steps-between-cutoffs 2"
"$GALE" wfa -q --coords --wfa-heuristic wfa-adaptive --wfa-heuristic-parameters 5,10,2 "$SEQ" > "$TMP/h1.tsv" ||
    fail "gale wfa --wfa-heuristic-parameters failed"
"$GALE" wfa -q --coords --wfa-heuristic wfa-adaptive --wfa-min-wavefront-length 5 --wfa-max-distance-threshold 10 \
    --wfa-steps-between-cutoffs 2 "$SEQ" > "$TMP/h2.tsv" || fail "gale wfa --wfa-min-wavefront-length failed"
same_file "$TMP/h1.tsv" "$TMP/h2.tsv" "--wfa-heuristic-parameters 5,10,2 = the three wfa-adaptive options"

# ---- fresh random pairs, all three formats
if [ -n "$PY" ] && [ -n "$MAKE" ]; then
    PAIRS=$(scaled 300 20)
    random_seed "random pairs ($PAIRS)"
    "$PY" "$MAKE" --seed "$SEEDNUM" --pairs "$PAIRS" --max-len 600 --edge \
        --seq "$TMP/r.seq" --fasta "$TMP/r_p.fa" "$TMP/r_t.fa" --fastq "$TMP/r_p.fq" "$TMP/r_t.fq" ||
        fail "make_wfa_example.py failed"
    run_set "random (seed $SEEDNUM)" "$TMP/r.seq" "$TMP/r_p.fa" "$TMP/r_t.fa" "$TMP/r_p.fq" "$TMP/r_t.fq"

    # a scoring drawn from the same seed
    X=$(( RANDOM % 8 + 1 )); O=$(( RANDOM % 10 )); E=$(( RANDOM % 4 + 1 ))
    O2=$(( O + RANDOM % 20 )); E2=$(( RANDOM % E + 0 ))
    compare "random (seed $SEEDNUM), random penalties" --mismatch "$X" --gap-open "$O" --gap-extend "$E" -- "$TMP/r.seq"
    # WFA2-lib refuses (exits) two-piece penalties with a gap-open of 0: open at least 1 there.
    O1=$(( O > 0 ? O : 1 )); O2=$(( O2 > 0 ? O2 : 1 ))
    if [ "$E2" -gt 0 ]; then
        compare "random (seed $SEEDNUM), random two-piece penalties" --mismatch "$X" --gap-open "$O1" \
            --gap-extend "$E" --gap-open2 "$O2" --gap-extend2 "$E2" -- "$TMP/r.seq"
    fi
    PB=$(( RANDOM % 40 )); PE=$(( RANDOM % 40 )); TB=$(( RANDOM % 40 )); TE=$(( RANDOM % 40 ))
    compare "random (seed $SEEDNUM), random ends-free" --ends-free "$PB,$PE,$TB,$TE" -- "$TMP/r.seq"

    # long pairs: several batches by bases, and alignments big enough for the
    # low-memory mode when the memory limit is small
    NLONG=$(scaled 4 2)
    "$PY" "$MAKE" --seed "$SEEDNUM" --pairs "$NLONG" --max-len 30000 --rate 0.02 --seq "$TMP/long.seq" ||
        fail "make_wfa_example.py failed (long pairs)"
    for s in "${HEURISTICS[@]}" "--edit --wfa-heuristic wfa-adaptive --wfa-max-distance-threshold 5" \
             "--edit --wfa-heuristic wfmash --wfa-max-distance-threshold 8"; do
        # shellcheck disable=SC2086
        compare "random (seed $SEEDNUM), heuristic" $s -- "$TMP/r.seq"
    done
    compare "long pairs (seed $SEEDNUM)" -- "$TMP/long.seq"
    compare "long pairs (seed $SEEDNUM), 1 MiB memory limit" --memory-limit 1 -- "$TMP/long.seq"
    compare "long pairs (seed $SEEDNUM), edit" --edit -- "$TMP/long.seq"
else
    echo "no python: the random-pairs part is not run (the fixed parts above ran)"
fi

done_checks
