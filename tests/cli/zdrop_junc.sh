#!/usr/bin/env bash
# gale zdrop --splice --junc-bed / --junc-bonus: annotated introns as minimap2 2.24's
# --junc-bed reads them, given to ksw_exts2_sse as its junction array.
#
#   zdrop_junc.sh GALE ZDROP_REF
#
# 1. A case worked out by hand: a non-canonical intron (CC...TT) between two random
#    exons, the BED marking it; its path scores 80 matches - q2 (32) - a non-canonical
#    donor and acceptor (-C 9 each) + the bonus at both ends, and with the bonus it wins
#    over the shifted intron ksw2 picks without marks.
# 2. Random spliced pairs (seed printed; GALE_TEST_SEED reproduces; GALE_TEST_SCALE
#    scales their number) and a random BED over them (both strands and none, BED12 block
#    lists, shifted marks, introns past the target's end, unknown names, comments):
#    equal byte for byte to ZDROP_REF (tests/cli/zdrop_ref.c), where minimap2's own
#    mm_idx_bed_read and mm_idx_bed_junc (libminimap2-dev) turn the BED into the arrays
#    and ksw_exts2_sse aligns, under several option lines; and the marks change the
#    result of some pairs (else the comparison would prove nothing).
# 3. Malformed BED lines: the run fails (1) naming the file and the line; usage errors (2).
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
REF=$2

# ---- 1. by hand -----------------------------------------------------------------------
# exon 1 (30 bases), intron (100 bases, CC...TT: neither GT-AG nor CT-AC), exon 2 (50).
E1=ACGTTGCAAGTCCTAGGATCCATGCAAGCA
E2=TGCATCCAGGTTACGATCGGATCATCGGAACTAGGCTTACGGATCCAGTA
IN=CC$(printf 'ATGCA%.0s' $(seq 1 19))GTT
[ ${#E1} -eq 30 ] && [ ${#E2} -eq 50 ] && [ ${#IN} -eq 100 ] || fail "hand case: lengths ${#E1} ${#IN} ${#E2}"
printf '%s\t%s\n' "$E1$E2" "$E1$IN$E2" > "$TMP/hand.tsv"
printf '# annotated introns\ntrack name=introns\ntarget0\t30\t130\tintron1\t0\t+\n' > "$TMP/hand.bed"
rev() { awk '{ s = ""; for (i = length($0); i > 0; i--) s = s substr($0, i, 1); print s }'; }
printf '%s\t%s\n' "$(echo "$E1$E2" | rev)" "$(echo "$E1$IN$E2" | rev)" > "$TMP/hand.rev.tsv"
for b in 9 20 40; do
    want=$((80 - 32 - 2 * 9 + 2 * b))
    "$GALE" zdrop -q --splice --junc-bed "$TMP/hand.bed" --junc-bonus "$b" "$TMP/hand.tsv" > "$TMP/out" ||
        fail "hand case: gale zdrop failed"
    awk -F '\t' -v w="$want" '$2 == w && $9 == w && $12 == "30M100N50M"' "$TMP/out" | grep . >/dev/null ||
        fail "hand case, bonus $b: expected score $want and 30M100N50M, got: $(cat "$TMP/out")"
    pass "hand case, bonus $b: the annotated intron, score 80 - 32 - 18 + 2*$b = $want"
    # as minimap2's left extension: both reversed, the BED on the forward target (its
    # array reversed with it: unreversed, its marks would miss the intron, at [50, 150) now)
    "$GALE" zdrop -q --splice --rev-cigar --junc-bed "$TMP/hand.bed" --junc-bonus "$b" \
        "$TMP/hand.rev.tsv" > "$TMP/out" || fail "hand case reversed: gale zdrop failed"
    awk -F '\t' -v w="$want" '$9 == w && $12 == "30M100N50M"' "$TMP/out" | grep . >/dev/null ||
        fail "hand case reversed, bonus $b: expected score $want and 30M100N50M, got: $(cat "$TMP/out")"
    pass "hand case reversed (--rev-cigar), bonus $b: the annotated intron, score $want"
done
"$GALE" zdrop -q --splice "$TMP/hand.tsv" > "$TMP/out" || fail "hand case without marks failed"
awk -F '\t' '$12 != "30M100N50M"' "$TMP/out" | grep . >/dev/null || fail "hand case: without marks ksw2 took the intron anyway"
pass "hand case without --junc-bed: another path ($(cut -f 12 "$TMP/out")), so the marks decided"

# ---- 2. random, against minimap2's own code -----------------------------------------
SEED=${GALE_TEST_SEED:-$(( $(date +%s) % 1000000 ))}
SCALE=${GALE_TEST_SCALE:-1}
N=$(awk -v s="$SCALE" 'BEGIN { n = int(150 * s + 0.5); print (n < 20 ? 20 : n) }')
echo "zdrop_junc.sh: seed $SEED (GALE_TEST_SEED), $N pairs"
awk -v seed="$SEED" -v n="$N" -v pairs="$TMP/pairs.tsv" -v bed="$TMP/j.bed" 'BEGIN {
    srand(seed); split("A C G T", B, " ")
    print "# random introns" > bed
    for (p = 0; p < n; p++) {
        l1 = 10 + int(rand() * 150); l2 = 10 + int(rand() * 150); li = 20 + int(rand() * 400)
        e1 = ""; for (i = 0; i < l1; i++) e1 = e1 B[int(rand() * 4) + 1]
        e2 = ""; for (i = 0; i < l2; i++) e2 = e2 B[int(rand() * 4) + 1]
        it = ""; for (i = 0; i < li; i++) it = it B[int(rand() * 4) + 1]
        u = rand()  # canonical forward, canonical reverse, or not
        if (u < 0.3) it = "GT" substr(it, 3, li - 4) "AG"
        else if (u < 0.6) it = "CT" substr(it, 3, li - 4) "AC"
        q = e1 e2; d = rand() * 0.05; qq = ""
        for (i = 1; i <= length(q); i++) { r = rand(); if (r < d / 2) continue; if (r < d) qq = qq B[int(rand() * 4) + 1]; else qq = qq substr(q, i, 1) }
        t = e1 it e2
        if (rand() < 0.2) { m = int(rand() * 100); for (i = 0; i < m; i++) t = t B[int(rand() * 4) + 1] }
        print qq "\t" t > pairs
        name = "target" p; st = l1; en = l1 + li
        r = rand(); s = r < 0.45 ? "+" : r < 0.9 ? "-" : "."
        if (rand() < 0.15) { sh = int(rand() * 7) - 3; st += sh; en += sh }  # a mark off the intron
        if (rand() < 0.25) {  # BED12: blocks around the intron, maybe a second intron in exon 2
            cs = int(rand() * st)
            if (rand() < 0.5 || en + 12 > length(t)) {
                printf "%s\t%d\t%d\tg%d\t0\t%s\t%d\t%d\t0\t2\t%d,%d,\t0,%d,\n", name, cs, length(t), p, s, cs, cs, st - cs, length(t) - en, en - cs > bed
            } else {
                k = en + 5 + int(rand() * (length(t) - en - 10))
                printf "%s\t%d\t%d\tg%d\t0\t%s\t%d\t%d\t0\t3\t%d,%d,%d\t0,%d,%d\n", name, cs, length(t), p, s, cs, cs, st - cs, k - en, length(t) - k - 3, en - cs, k + 3 - cs > bed
            }
        } else if (rand() < 0.1) {
            printf "%s\t%d\t%d\n", name, st, en > bed  # no strand: marks nothing
        } else {
            printf "%s\t%d\t%d\tj%d\t0\t%s\n", name, st, en, p, s > bed
        }
        if (rand() < 0.1) printf "%s\t%d\t%d\tpast\t0\t+\n", name, length(t) - 5, length(t) + 10 > bed
        if (rand() < 0.1) printf "chrUn_%d\t%d\t%d\tother\t0\t-\n", p, st, en > bed
        if (rand() < 0.1) { a = int(rand() * length(t)); b = a + int(rand() * (length(t) - a)); printf "%s\t%d\t%d\tx\t0\t%s\n", name, a, b, rand() < 0.5 ? "+" : "-" > bed }
    }
}'
line_count "$TMP/pairs.tsv" "$N" "pairs written"
awk -F '\t' '{ print ">target" NR - 1 " spliced"; print $2 }' "$TMP/pairs.tsv" > "$TMP/t.fa"
awk -F '\t' '{ print ">q" NR; print $1 }' "$TMP/pairs.tsv" > "$TMP/q.fa"
gzip_to "$TMP/j.bed" "$TMP/j.bed.gz"

OPTS=(
    "--splice|--splice"
    "--splice --junc-bonus 20|--splice --junc-bonus 20"
    "--splice -C 15 --junc-bonus 127|--splice -C 15 --junc-bonus 127"
    "--splice --junc-bonus -30|--splice --junc-bonus -30"
    "--splice --extz-only --right --rev-cigar --junc-bonus 12|--splice --flags c2 --junc-bonus 12"
    "--splice --approx-max -z 50|--splice --flags 8 -z 50"
)
for line in "${OPTS[@]}"; do
    g=${line%%|*}
    r=${line#*|}
    # shellcheck disable=SC2086
    "$REF" $r --junc-bed "$TMP/j.bed" "$TMP/pairs.tsv" > "$TMP/ref.tsv" || fail "zdrop_ref failed (options: $r)"
    line_count "$TMP/ref.tsv" "$N" "zdrop_ref $r"
    # shellcheck disable=SC2086
    "$GALE" zdrop -q $g --junc-bed "$TMP/j.bed" "$TMP/pairs.tsv" > "$TMP/gale.tsv" || fail "gale zdrop failed (options: $g)"
    same_file "$TMP/gale.tsv" "$TMP/ref.tsv" "PAIRS.tsv, '$g --junc-bed': equal to minimap2's marks and ksw2"
    # shellcheck disable=SC2086
    "$GALE" zdrop -q $g --junc-bed "$TMP/j.bed.gz" --batch-size 7 --threads 2 "$TMP/q.fa" "$TMP/t.fa" > "$TMP/gale.fa.tsv" ||
        fail "gale zdrop failed on FASTA (options: $g)"
    same_file "$TMP/gale.fa.tsv" "$TMP/ref.tsv" "FASTA, gzipped BED, batches of 7, '$g'"
    # shellcheck disable=SC2086
    "$REF" $r "$TMP/pairs.tsv" > "$TMP/nomarks.tsv" || fail "zdrop_ref without marks failed"
    changed=$(paste "$TMP/ref.tsv" "$TMP/nomarks.tsv" | awk -F '\t' '{ for (i = 2; i <= 12; i++) if ($i != $(i + 12)) { c++; break } } END { print c + 0 }')
    [ "$changed" -gt 0 ] || fail "'$g': the marks changed no pair's result (the comparison proves nothing)"
    pass "'$g': the marks change $changed of $N results"
done

# ---- 3. malformed BED, usage ----------------------------------------------------------
expect_error() {
    local name=$1 pat=$2
    shift 2
    expect_status 1 "$name" "$pat" "$GALE" zdrop -q "$@"
}
bad_bed() { # NAME PATTERN LINE: the line as line 3 of a BED after two good ones
    printf 'target0\t30\t130\ta\t0\t+\ntarget0\t2\t9\n%b\n' "$3" > "$TMP/bad.bed"
    expect_error "$1" "bad\\.bed:3: $2" --splice --junc-bed "$TMP/bad.bed" "$TMP/hand.tsv"
}
bad_bed "two fields" 'expected at least 3 TAB-separated fields' 'target0\t30'
bad_bed "start not a number" "column 2 \\(start\\): '3x'" 'target0\t3x\t130'
bad_bed "negative end" "column 3 \\(end\\): '-5'" 'target0\t30\t-5'
bad_bed "start after end" 'start 130 is after end 30' 'target0\t130\t30'
bad_bed "bad strand" "column 6 \\(strand\\): 'plus'" 'target0\t30\t130\ta\t0\tplus'
bad_bed "empty name" 'empty target name' '\t30\t130'
bad_bed "short block list" 'column 12 lists fewer than the 3 blocks' 'target0\t0\t180\tg\t0\t+\t0\t0\t0\t3\t30,50,10\t0,130'
bad_bed "bad block count" "column 10 \\(block count\\): 'x'" 'target0\t0\t180\tg\t0\t+\t0\t0\t0\tx\t30,50\t0,130'
expect_error "missing BED" 'nonexistent\.bed' --splice --junc-bed "$TMP/nonexistent.bed" "$TMP/hand.tsv"
# no strand anywhere: a warning (not under -q), and the result of no marks
printf 'target0\t30\t130\n' > "$TMP/nostrand.bed"
"$GALE" zdrop --splice --junc-bed "$TMP/nostrand.bed" "$TMP/hand.tsv" > "$TMP/out" 2> "$TMP/err" || fail "unstranded BED failed"
grep -q 'no line has a strand' "$TMP/err" || fail "unstranded BED: no warning"
"$GALE" zdrop -q --splice "$TMP/hand.tsv" > "$TMP/out2"
same_file "$TMP/out" "$TMP/out2" "unstranded BED: warned, and marks nothing (as minimap2)"
usage() { # NAME PATTERN ARGS...: a usage error (2), the message matching
    local name=$1 pat=$2
    shift 2
    expect_status 2 "$name refused" "$pat" "$GALE" zdrop -q "$@" "$TMP/hand.tsv"
}
usage "--junc-bed without --splice" 'applies to --splice only' --junc-bed "$TMP/hand.bed"
usage "--junc-bonus without --splice" 'applies to --splice only' --junc-bonus 5
usage "--junc-bonus 200" '--junc-bonus' --splice --junc-bonus 200
usage "--junc-bonus x" "invalid value 'x'" --splice --junc-bonus x
rc=0; "$GALE" zdrop -q --splice --junc-bed - - < "$TMP/hand.tsv" > /dev/null 2> "$TMP/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot both be '-'" "$TMP/err" || { cat "$TMP/err" >&2; fail "--junc-bed - with input -: status $rc"; }
pass "--junc-bed - with the input on stdin too refused (2)"
gzip_to "$TMP/hand.bed" "$TMP/hand.bed.gz"
"$GALE" zdrop -q --splice --junc-bonus 20 --junc-bed - "$TMP/hand.tsv" < "$TMP/hand.bed.gz" > "$TMP/out" || fail "BED on stdin failed"
awk -F '\t' '$9 == 70 && $12 == "30M100N50M"' "$TMP/out" | grep . >/dev/null || fail "BED on stdin (gzipped): $(cat "$TMP/out")"
pass "--junc-bed - (gzipped, on stdin): the hand case's score 70"
echo "zdrop_junc.sh: $CHECKS checks passed"
