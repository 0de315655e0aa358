#!/usr/bin/env bash
# gale zdrop: both input forms, options, and malformed input.
#
#   zdrop.sh GALE ZDROP_REF
#
# ZDROP_REF (tests/cli/zdrop_ref.c) calls Debian's libminimap2 2.24 (ksw2) on a
# PAIRS.tsv file as minimap2 does and prints gale zdrop's TSV: gale's output must equal
# it byte for byte, from PAIRS.tsv and from the same pairs as FASTA, FASTQ and gzipped
# FASTA (QUERIES TARGETS), under a set of option lines. Random pairs from awk (seed
# printed; GALE_TEST_SEED reproduces; GALE_TEST_SCALE scales their number). Then
# malformed input: each message names the file, the line and the record.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
REF=$2

SEED=${GALE_TEST_SEED:-$(( $(date +%s) % 1000000 ))}
SCALE=${GALE_TEST_SCALE:-1}
N=$(awk -v s="$SCALE" 'BEGIN { n = int(300 * s + 0.5); print (n < 20 ? 20 : n) }')
echo "zdrop.sh: seed $SEED (GALE_TEST_SEED), $N pairs"

# N random pairs: query (0-3000 bases, some N and lowercase), target = the query with
# 0-30% edits, a random tail on a third of them, sometimes unrelated or empty.
awk -v seed="$SEED" -v n="$N" 'BEGIN {
    srand(seed); split("A C G T", B, " ")
    for (p = 0; p < n; p++) {
        u = rand(); len = u < 0.05 ? int(rand() * 3) : u < 0.6 ? int(rand() * 300) : int(rand() * 3000)
        q = ""; for (i = 0; i < len; i++) { c = B[int(rand() * 4) + 1]; if (rand() < 0.005) c = "N"; if (rand() < 0.01) c = tolower(c); q = q c }
        d = rand() * 0.3; t = ""
        for (i = 1; i <= len; i++) {
            r = rand()
            if (r < d / 3) continue
            if (r < 2 * d / 3) t = t B[int(rand() * 4) + 1]
            if (r >= 2 * d / 3 && r < d) { t = t B[int(rand() * 4) + 1]; continue }
            t = t substr(q, i, 1)
        }
        if (rand() < 0.33) { m = int(rand() * 500); for (i = 0; i < m; i++) t = t B[int(rand() * 4) + 1] }
        if (rand() < 0.05) { t = ""; m = int(rand() * 400); for (i = 0; i < m; i++) t = t B[int(rand() * 4) + 1] }
        print q "\t" t
    }
}' > "$TMP/pairs.tsv"
# the same pairs as QUERIES TARGETS: FASTA (wrapped), FASTQ, gzipped FASTA
awk -F '\t' '{ print ">q" NR; for (i = 1; i <= length($1); i += 60) print substr($1, i, 60)
              print ">t" NR > "/dev/stderr"; print $2 > "/dev/stderr" }' "$TMP/pairs.tsv" \
    > "$TMP/q.fa" 2> "$TMP/t.fa"
awk -F '\t' '{ s = $1; q = s; gsub(/./, "I", q); print "@q" NR; print s; print "+"; print q }' "$TMP/pairs.tsv" > "$TMP/q.fq"
awk -F '\t' '{ s = $2; q = s; gsub(/./, "I", q); print "@t" NR; print s; print "+"; print q }' "$TMP/pairs.tsv" > "$TMP/t.fq"
gzip_to "$TMP/q.fa" "$TMP/q.fa.gz"
gzip_to "$TMP/t.fa" "$TMP/t.fa.gz"
line_count "$TMP/pairs.tsv" "$N" "pairs written"

# option lines: gale's and zdrop_ref's (the flags as a hex word for zdrop_ref)
OPTS=(
    "|"
    "-O 4 -E 2|-O 4 -E 2"
    "--extz-only -z 200|--flags 40 -z 200"
    "--extz-only --right --rev-cigar --end-bonus 10|--flags c2 --end-bonus 10"
    "--approx-max --approx-drop -r 50 -z 100|--flags 18 -r 50 -z 100"
    "--score-only -r 10|--flags 1 -r 10"
    "-A 1 -B 2 -O 2,12 -E 1,1 --score-N 0 -r -1 -z -1|-A 1 -B 2 -O 2,12 -E 1,1 --score-N 0 -r -1 -z -1"
    "--splice|--splice"
    "--splice --extz-only --right --rev-cigar -C 5|--splice --flags c2 -C 5"
)
for line in "${OPTS[@]}"; do
    g=${line%%|*}
    r=${line#*|}
    # shellcheck disable=SC2086
    "$REF" $r "$TMP/pairs.tsv" > "$TMP/ref.tsv" || fail "zdrop_ref failed (options: $r)"
    line_count "$TMP/ref.tsv" "$N" "zdrop_ref ${r:-defaults}"
    # shellcheck disable=SC2086
    "$GALE" zdrop -q $g "$TMP/pairs.tsv" > "$TMP/gale.tsv" || fail "gale zdrop failed (options: $g)"
    same_file "$TMP/gale.tsv" "$TMP/ref.tsv" "PAIRS.tsv, options '${g:-defaults}': equal to ksw2"
    # shellcheck disable=SC2086
    "$GALE" zdrop -q $g "$TMP/q.fa" "$TMP/t.fa" > "$TMP/gale.fa.tsv" || fail "gale zdrop failed on FASTA"
    same_file "$TMP/gale.fa.tsv" "$TMP/ref.tsv" "QUERIES TARGETS (FASTA), options '${g:-defaults}'"
done
"$GALE" zdrop -q "$TMP/q.fq" "$TMP/t.fq" > "$TMP/gale.fq.tsv" || fail "gale zdrop failed on FASTQ"
"$REF" "$TMP/pairs.tsv" > "$TMP/ref.tsv"
same_file "$TMP/gale.fq.tsv" "$TMP/ref.tsv" "QUERIES TARGETS (FASTQ)"
"$GALE" zdrop -q "$TMP/q.fa.gz" "$TMP/t.fa.gz" > "$TMP/gale.gz.tsv" || fail "gale zdrop failed on gzipped FASTA"
same_file "$TMP/gale.gz.tsv" "$TMP/ref.tsv" "QUERIES TARGETS (gzipped FASTA)"
gzip_to "$TMP/pairs.tsv" "$TMP/pairs.tsv.gz"
"$GALE" zdrop -q --threads 2 --batch-size 7 - < "$TMP/pairs.tsv.gz" > "$TMP/gale.stdin.tsv" || fail "gale zdrop failed on stdin"
same_file "$TMP/gale.stdin.tsv" "$TMP/ref.tsv" "PAIRS.tsv gzipped on stdin, batches of 7, 2 threads"

# ---- SAM and PAF: the TSV's CIGAR, checked against the pairs by awk -------------------
# For each pair: the CIGAR from the TSV (equal to ksw2's above) walked over the two
# sequences gives the query and target ends, NM (mismatches in M, N and IUPAC counting as
# mismatches, plus I and D bases; N ops are introns) and the matches; AS is ksw2's score
# of that path (score end to end, mqe when it reaches the query's end, else max).
check_sam_paf() {
    local name=$1 flags=$2
    shift 2
    # shellcheck disable=SC2086
    "$GALE" zdrop -q "$@" "$TMP/pairs.tsv" > "$TMP/z.tsv" || fail "$name: tsv"
    # shellcheck disable=SC2086
    "$GALE" zdrop -q -F sam "$@" "$TMP/pairs.tsv" > "$TMP/z.sam" || fail "$name: sam"
    # shellcheck disable=SC2086
    "$GALE" zdrop -q -F paf "$@" "$TMP/pairs.tsv" > "$TMP/z.paf" || fail "$name: paf"
    if command -v samtools > /dev/null; then
        samtools view -c "$TMP/z.sam" > "$TMP/z.count" 2> "$TMP/z.samerr" || { cat "$TMP/z.samerr" >&2; fail "$name: samtools cannot read the SAM"; }
        [ "$(cat "$TMP/z.count")" -eq "$N" ] || fail "$name: samtools counts $(cat "$TMP/z.count") records, not $N"
    fi
    awk -F '\t' -v flags="$flags" -v pairs="$TMP/pairs.tsv" -v sam="$TMP/z.sam" -v paf="$TMP/z.paf" '
    function code(b) { b = toupper(b); return b == "U" ? "T" : (b ~ /^[ACGT]$/ ? b : "N") }
    {
        getline pl < pairs; split(pl, P, "\t"); q = P[1]; t = P[2]
        do { r = getline sl < sam } while (r > 0 && sl ~ /^@/)
        getline fl < paf; split(sl, S, "\t"); split(fl, F, "\t")
        cig = $12; qi = 0; ti = 0; nm = 0; mt = 0; al = 0; md = 0
        if (cig != "*") {
            c = cig
            while (match(c, /^[0-9]+[MIDN]/)) {
                len = substr(c, 1, RLENGTH - 1) + 0; op = substr(c, RLENGTH, 1); c = substr(c, RLENGTH + 1)
                if (op == "M") { for (j = 1; j <= len; j++) { a = code(substr(q, qi + j, 1)); b = code(substr(t, ti + j, 1)); if (a == b && a != "N") mt++; else nm++ } qi += len; ti += len; al += len; md += len }
                else if (op == "I") { nm += len; qi += len; al += len }
                else if (op == "D") { nm += len; ti += len; al += len; md += len }
                else ti += len
            }
        }
        as = ($10 == 0 && flags !~ /x/) ? $9 : ($11 == 1 ? $5 : $2)
        if (F[3] != 0 || F[4] != qi || F[8] != 0 || F[9] != ti || F[10] != mt || F[11] != al || F[2] != length(q) || F[7] != length(t)) { print "PAF line " NR ": " fl " (expected qend " qi " tend " ti " matches " mt " block " al ")"; bad++ }
        if (fl !~ ("NM:i:" nm "\t") || fl !~ ("AS:i:" as "($|\t)")) { print "PAF line " NR ": NM/AS, expected NM " nm " AS " as ": " fl; bad++ }
        mapped = length(t) > 0 && md > 0  # what gale wfa calls mapped: the CIGAR covers a target base
        scig = cig (qi < length(q) ? (length(q) - qi) "S" : "")
        if (!mapped && S[2] != 4) { print "SAM line " NR ": flag " S[2] ", expected 4 (unmapped)"; bad++ }
        if (mapped && (S[2] != 0 || S[4] != 1 || S[6] != scig || sl !~ ("NM:i:" nm "\t"))) { print "SAM line " NR ": " S[2] " " S[6] " (expected " scig ", NM " nm ")"; bad++ }
        if (sl !~ ("AS:i:" as "($|\t)")) { print "SAM line " NR ": AS, expected " as; bad++ }
    }
    END { exit bad > 0 }' "$TMP/z.tsv" > "$TMP/z.check" || { head -5 "$TMP/z.check" >&2; fail "$name: SAM/PAF differ from the TSV CIGAR"; }
    pass "$name: SAM (samtools reads it) and PAF agree with the TSV's CIGAR and the sequences"
}
check_sam_paf "defaults" ""
check_sam_paf "extension, end bonus" "x" --extz-only --end-bonus 10
check_sam_paf "splice" "" --splice
# --score-only has no alignment for SAM or PAF
rc=0; "$GALE" zdrop -q --score-only -F sam "$TMP/pairs.tsv" > /dev/null 2> "$TMP/err" || rc=$?
[ "$rc" -eq 2 ] || fail "--score-only -F sam: status $rc"
pass "--score-only with SAM refused (2)"

# ---- malformed input: the run fails (1), the message names file, line and record ----
# expect_error NAME PATTERN ARGS...: gale zdrop ARGS exits 1 and stderr matches PATTERN
expect_error() {
    local name=$1 pat=$2
    shift 2
    expect_status 1 "$name" "$pat" "$GALE" zdrop -q "$@"
}
printf 'ACGT\tACGT\nACGT\n' > "$TMP/bad1.tsv"
expect_error "one field" 'bad1\.tsv:2: record 2: expected 2 TAB-separated fields' "$TMP/bad1.tsv"
printf 'ACGT\tACGT\nACGT\tAC\tGT\n' > "$TMP/bad2.tsv"
expect_error "three fields" 'bad2\.tsv:2: record 2: expected 2 TAB-separated fields \(query, target\), found 3' "$TMP/bad2.tsv"
printf 'ACGT\tACGT\n\nACGT\tACGT\n' > "$TMP/bad3.tsv"
expect_error "empty line" 'bad3\.tsv:2: record 2: empty line' "$TMP/bad3.tsv"
printf 'ACGT\tACGT\nACGT\tAC-T\n' > "$TMP/bad4.tsv"
expect_error "bad target base" "bad4\\.tsv:2: record 2: invalid byte 0x2d \\('-'\\) at position 2 of the target" "$TMP/bad4.tsv"
printf 'ACGT\tACGT\nAC*T\tACGT\n' > "$TMP/bad5.tsv"
expect_error "bad query base" "bad5\\.tsv:2: record 2: invalid byte 0x2a \\('\\*'\\) at position 2 of the query" "$TMP/bad5.tsv"
printf '>q1\nACGT\n>q2\nACGT\n' > "$TMP/q2.fa"
printf '>t1\nACGT\n' > "$TMP/t1.fa"
expect_error "record counts differ" 'has no partner' "$TMP/q2.fa" "$TMP/t1.fa"
printf '>q1\nACGT\n>q2\nAC!T\n' > "$TMP/q3.fa"
printf '>t1\nACGT\n>t2\nACGT\n' > "$TMP/t2.fa"
expect_error "bad base in FASTA" "q3\\.fa:3: record 2: invalid byte 0x21 \\('!'\\) at position 2 of the query" "$TMP/q3.fa" "$TMP/t2.fa"
expect_error "missing file" 'nonexistent' "$TMP/nonexistent.tsv"
# usage errors (exit 2)
rc=0; "$GALE" zdrop -q --splice -r 5 "$TMP/pairs.tsv" > /dev/null 2> "$TMP/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'does not apply to --splice' "$TMP/err" || fail "-r with --splice: status $rc"
pass "-r with --splice refused (2)"
rc=0; "$GALE" zdrop -q -A 300 "$TMP/pairs.tsv" > /dev/null 2> "$TMP/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q '\-A' "$TMP/err" || fail "-A 300: status $rc"
pass "-A 300 refused (2): $(head -n 1 "$TMP/err")"
rc=0; "$GALE" zdrop -q -O 4,x "$TMP/pairs.tsv" > /dev/null 2> "$TMP/err" || rc=$?
[ "$rc" -eq 2 ] || fail "-O 4,x: status $rc"
pass "-O 4,x refused (2): $(head -n 1 "$TMP/err")"
# an empty input: no output, success
: > "$TMP/empty.tsv"
"$GALE" zdrop -q "$TMP/empty.tsv" > "$TMP/out" || fail "empty input failed"
[ ! -s "$TMP/out" ] || fail "empty input gave output"
pass "empty PAIRS.tsv: no output"
echo "zdrop.sh: $CHECKS checks passed"
