#!/usr/bin/env bash
# gale xdrop against xdrop_ref, an independent SeqAn 2.4 computation of every
# output line (tests/cli/xdrop_ref.cpp).
#
#   ref.sh GALE XDROP_REF EXAMPLE [PYTHON MAKE_EXAMPLE]
#
# Checks: the committed example at the default and at non-default scoring,
# hand-made edge pairs, and fresh random files from examples/make_example.py
# (seed printed; GALE_TEST_SEED reproduces; GALE_TEST_SCALE scales the number
# of pairs down, e.g. under sanitizers).
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
REF=$2
EXAMPLE=$3
PY=${4:-}
MAKE_EXAMPLE=${5:-}

# compare NAME FILE [OPTIONS...]: gale and the reference print the same lines.
compare() {
    local name=$1 file=$2
    shift 2
    "$REF" "$@" "$file" > "$TMP/ref.out" || fail "$name: xdrop_ref failed"
    "$GALE" xdrop -q "$@" "$file" > "$TMP/gale.out" 2> "$TMP/gale.err" ||
        { cat "$TMP/gale.err" >&2; fail "$name: gale exited with $?"; }
    [ -s "$TMP/ref.out" ] || fail "$name: empty reference output"
    same_file "$TMP/gale.out" "$TMP/ref.out" "$name ($(wc -l < "$TMP/ref.out") pairs, options: ${*:-defaults})"
}

# ---- the reference checks itself: its 64-bit "Wide" instantiation (used where
# int would wrap) equals the plain int one wherever int is sound
"$REF" "$EXAMPLE" > "$TMP/ref_int.out" || fail "xdrop_ref failed"
"$REF" --wide "$EXAMPLE" > "$TMP/ref_wide.out" || fail "xdrop_ref --wide failed"
same_file "$TMP/ref_int.out" "$TMP/ref_wide.out" "reference self-check: int and Wide instantiations agree"
line_count "$TMP/ref_int.out" "$(wc -l < "$EXAMPLE")" "reference output"

# ---- the committed example
compare "example" "$EXAMPLE"
compare "example, BLAST-like scoring (mismatch < gap)" "$EXAMPLE" --match 2 --mismatch -3 --gap -2 -x 50
compare "example, N mismatches" "$EXAMPLE" --n-mismatch
compare "example, N mismatches, mismatch < gap" "$EXAMPLE" --n-mismatch --match 2 --mismatch -3 --gap -2 -x 50
compare "example, BELLA's X = 7" "$EXAMPLE" -x 7
compare "example, X = 0" "$EXAMPLE" -x 0
compare "example, gap cheaper than mismatch" "$EXAMPLE" --match 3 --mismatch -4 --gap -1 -x 40
compare "example, k = 11" "$EXAMPLE" -k 11

# the options reach the library: the scoring changes the answer
"$GALE" xdrop -q "$EXAMPLE" > "$TMP/a.out" || fail "gale failed"
"$GALE" xdrop -q --n-mismatch "$EXAMPLE" > "$TMP/b.out" || fail "gale --n-mismatch failed"
differ_file "$TMP/a.out" "$TMP/b.out" "--n-mismatch changes results on the example (it has N runs)"

# ---- edge pairs
SEED=ACGTTGCAAGCTTCGAT   # 17 bases
rc() { rev | tr 'ACGTUNRYSWKMBDHVacgtunryswkmbdhv' 'TGCAANYRSWMKVHDBtgcaanyrswmkvhdb'; }
L1=CCGATTACAGGCTAGCTAGGATCCATGCAAATTTGGGCCCAAGTCGATCGTAGCTAGCTTAGCGGCATCGACTAGCATCGACGATCAGCAT
R1=TTGACCAGTAGCATGCATCGGATCGATTAGCATGCGACTGACTAGCATGCAGTCAGTCAGCATGCATGACTGATCGATGCATGCAGCATGC
X1=GGGGTTTTAAAACCCCGAGATCTCTAGAGCTCGAGCATGCAAGCTTGCATGCCTGCAGGTCGACTCTAGAGGATCCCCGGGTACCGAGCTCG
{
    # seed is the whole of both sequences
    printf '%s\t0\t%s\t0\tn\n' "$SEED" "$SEED"
    printf '%s\t0\t%s\t0\tc\n' "$SEED" "$(printf %s "$SEED" | rc)"
    # seed at the start of V and the end of H, and the other way round
    printf '%s\t0\t%s\t%d\tn\n' "$SEED$R1" "$L1$SEED" "${#L1}"
    printf '%s\t%d\t%s\t0\tn\n' "$L1$SEED" "${#L1}" "$SEED$R1"
    # shared flanks, one side lowercase
    printf '%s\t%d\t%s\t%d\tn\n' "$(printf %s "$L1$SEED$R1" | tr ACGT acgt)" "${#L1}" "$L1$SEED$R1" "${#L1}"
    # N runs and IUPAC codes around the seed (N matches N in Dna5, not with --n-mismatch)
    printf '%s\t%d\t%s\t%d\tn\n' "NNNNNNNNRYKM$SEED${R1}NNNN" 12 "NNNNNNNNNNNN$SEED${R1}nnnn" 12
    printf '%s\t%d\t%s\t%d\tn\n' "SWBDHVsw$SEED$R1" 8 "NNNNNNNN$SEED$X1" 8
    # U reads as T
    printf '%s\t%d\t%s\t%d\tn\n' "$(printf %s "$L1" | tr T U)$SEED" "${#L1}" "$L1$SEED" "${#L1}"
    # opposite strand with IUPAC, lowercase and unrelated flanks
    H="ryk${L1}NN$SEED$X1"
    printf '%s\t%d\t%s\t%d\tc\n' "$L1$SEED$R1" "${#L1}" "$(printf %s "$H" | rc)" $(( ${#H} - (${#L1} + 5) - 17 ))
    # opposite strand, seed at the start / end of H
    H="$SEED$R1"
    printf '%s\t%d\t%s\t%d\tc\n' "$L1$SEED$R1" "${#L1}" "$(printf %s "$H" | rc)" $(( ${#H} - 17 ))
    H="$L1$SEED"
    printf '%s\t%d\t%s\t%d\tc\n' "$L1$SEED$R1" "${#L1}" "$(printf %s "$H" | rc)" 0
    # unrelated flanks on both sides
    printf '%s\t%d\t%s\t%d\tn\n' "$L1$SEED$R1" "${#L1}" "$X1$SEED$X1" "${#X1}"
    # a longer identical pair (runs to both ends)
    B="$L1$R1$X1$L1$R1$X1$L1$R1$X1"
    printf '%s\t%d\t%s\t%d\tn\n' "$B$SEED$B" "${#B}" "$B$SEED$B" "${#B}"
} > "$TMP/edge.tsv"
compare "edge pairs" "$TMP/edge.tsv"
compare "edge pairs, N mismatches" "$TMP/edge.tsv" --n-mismatch
compare "edge pairs, bytes compared exactly" "$TMP/edge.tsv" --bytes
compare "edge pairs, bytes, mismatch < gap" "$TMP/edge.tsv" --bytes --match 2 --mismatch -3 --gap -2 -x 50
"$GALE" xdrop -q --bytes "$TMP/edge.tsv" > "$TMP/b.out" || fail "gale --bytes failed"
"$GALE" xdrop -q "$TMP/edge.tsv" > "$TMP/a.out" || fail "gale failed"
differ_file "$TMP/a.out" "$TMP/b.out" "--bytes changes results on the edge pairs (lower case, IUPAC codes)"
compare "edge pairs, mismatch < gap" "$TMP/edge.tsv" --match 2 --mismatch -3 --gap -2 -x 50
compare "edge pairs, X = 0" "$TMP/edge.tsv" -x 0
compare "edge pairs, X = 3" "$TMP/edge.tsv" -x 3

# ---- fresh random pairs
if [ -n "$PY" ] && [ -n "$MAKE_EXAMPLE" ]; then
    PAIRS=$(scaled 300 20)
    random_seed "random pairs ($PAIRS)"
    "$PY" "$MAKE_EXAMPLE" --seed "$SEEDNUM" --pairs "$PAIRS" -o "$TMP/random.tsv" || fail "make_example.py failed"
    compare "random pairs (seed $SEEDNUM)" "$TMP/random.tsv"
    # a scoring drawn from the same seed
    M=$(( RANDOM % 5 + 1 )); MM=$(( -(RANDOM % 6) )); G=$(( -(RANDOM % 5) - 1 )); X=$(( RANDOM % 120 ))
    compare "random pairs (seed $SEEDNUM), random scoring" "$TMP/random.tsv" --match "$M" --mismatch "$MM" --gap "$G" -x "$X"
else
    echo "no python: the random-pairs part is not run (the fixed parts above ran)"
fi

done_checks
