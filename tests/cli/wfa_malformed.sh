#!/usr/bin/env bash
# gale wfa on malformed input: every case exits 1 with a message that names the
# file, the line and the record number ("gale: FILE:LINE: record N: ..."), and
# -o FILE is never created. Also: record counts that differ between PATTERNS
# and TEXTS, missing and truncated files, SAM-only name problems.
#
#   wfa_malformed.sh GALE
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1

# check_bad NAME WANT_MESSAGE_PART ARGS...: exit 1, a message containing
# WANT_MESSAGE_PART (fixed string), no -o file.
check_bad() {
    local name=$1 want=$2 rc
    shift 2
    rm -f "$TMP/out.res"
    "$GALE" wfa -o "$TMP/out.res" "$@" > "$TMP/stdout" 2> "$TMP/stderr" < /dev/null
    rc=$?
    [ "$rc" -eq 1 ] || { cat "$TMP/stderr" >&2; fail "$name: exit status $rc, expected 1"; }
    [ ! -s "$TMP/stdout" ] || fail "$name: wrote to stdout"
    [ ! -e "$TMP/out.res" ] || fail "$name: created the -o file"
    ! tmp_left "$TMP" || fail "$name: left a temporary file"
    grep -q -F -- "$want" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$name: message lacks '$want'"; }
    pass "$name: exit 1, '$(head -n 1 "$TMP/stderr" | cut -c1-110)'"
}

# good inputs: 4 pairs
printf '>p0 first\nACGTACGTAC\nGTACGT\n>p1\nACGTTT\n>p2\nGGGACGT\n>p3\nTTTT\n' > "$TMP/p.fa"
printf '>t0\nACGTACGTACGTACGT\n>t1\nACGTT\n>t2\nGGACGT\n>t3\nTTAT\n' > "$TMP/t.fa"
"$GALE" wfa "$TMP/p.fa" "$TMP/t.fa" > "$TMP/good.out" 2> "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "good input failed"; }
line_count "$TMP/good.out" 4 "good input"
pass "the good input aligns (4 pairs)"

P=$TMP/p.fa
T=$TMP/t.fa

# ---- FASTA / FASTQ structure
printf 'ACGT\n>p1\nACGT\n' > "$TMP/nohdr.fa"
check_bad "sequence before the first header" "$TMP/nohdr.fa:1: record 1: expected a FASTA ('>') or FASTQ ('@') header" "$TMP/nohdr.fa" "$T"
printf '@p0\nACGTACGTAC\n' > "$TMP/noplus.fq"
check_bad "FASTQ without '+'" "$TMP/noplus.fq:1: record 1: truncated FASTQ record" "$TMP/noplus.fq" "$T"
printf '@p0\nACGTACGTACGTACGT\n+\nIIIIIIIIIIIIIIII\n@p1\nACGTT\n+\nIII\n' > "$TMP/shortq.fq"
check_bad "FASTQ quality shorter than the sequence (at the end)" "$TMP/shortq.fq:5: record 2: truncated FASTQ record 'p1': the file ends after 3 quality values for 5 bases" "$P" "$TMP/shortq.fq"
printf '@p0\nACGT\n+\nIIIIII\n' > "$TMP/longq.fq"
check_bad "FASTQ quality longer than the sequence" "$TMP/longq.fq:1: record 1: FASTQ record 'p0': its quality is longer than its sequence (6 values for 4 bases)" "$TMP/longq.fq" "$T"
printf '@p0\nACGT\n+\nII I\n' > "$TMP/badq.fq"
check_bad "FASTQ quality with a space" "$TMP/badq.fq:1: record 1: FASTQ record 'p0': invalid quality byte 0x20 at position 2" "$TMP/badq.fq" "$T"
# a FASTA record that starts with something else after a good one
printf '>p0\nACGT\n>p1\nACGT\n' > "$TMP/p2.fa"
printf '>t0\nACGT\n@t1\nACGT\n+\nIIII\n' > "$TMP/mixed.fa"
"$GALE" wfa "$TMP/p2.fa" "$TMP/mixed.fa" > "$TMP/o" 2> "$TMP/stderr" || true
# in FASTA the '@t1' line is sequence: its '@' is a bad base of text record 1
grep -q -F "$TMP/mixed.fa:1: record 1: invalid byte 0x40 ('@') at position 4 of the text" "$TMP/stderr" ||
    { cat "$TMP/stderr" >&2; fail "FASTA record running into a FASTQ record"; }
pass "a FASTQ record after a FASTA one reads as sequence and is refused with its record"

# ---- bad bytes (refused by the library; reported with the record, the file and the position)
printf '>p0\nACGT\n>p1\nAC\nG!T\n>p2\nACGT\n' > "$TMP/bang.fa"
printf '>t0\nACGT\n>t1\nACGT\n>t2\nACGT\n' > "$TMP/t3.fa"
check_bad "'!' in pattern record 2 (second line of it)" "$TMP/bang.fa:3: record 2: invalid byte 0x21 ('!') at position 3 of the pattern" "$TMP/bang.fa" "$TMP/t3.fa"
printf '>t0\nACGT\n>t1\nACGT\n>t2\nAC5T\n' > "$TMP/digit.fa"
check_bad "digit in text record 3" "$TMP/digit.fa:5: record 3: invalid byte 0x35 ('5') at position 2 of the text" "$TMP/t3.fa" "$TMP/digit.fa"
printf '>p0\nAC GT\n' > "$TMP/space.fa"
check_bad "space inside a sequence line" "$TMP/space.fa:1: record 1: invalid byte 0x20 (' ') at position 2 of the pattern" "$TMP/space.fa" "$T"
printf '>p0\nAC-GT\n' > "$TMP/dash.fa"
check_bad "'-' (a gap character)" "record 1: invalid byte 0x2d ('-') at position 2 of the pattern" "$TMP/dash.fa" "$T"
printf '@p0\nACGX\n+\nIIII\n' > "$TMP/x.fq"
check_bad "'X' in a FASTQ pattern" "$TMP/x.fq:1: record 1: invalid byte 0x58 ('X') at position 3 of the pattern" "$TMP/x.fq" "$T"

# ---- record counts
printf '>t0\nACGT\n>t1\nACGT\n>t2\nACGT\n' > "$TMP/t_three.fa"
check_bad "TEXTS has fewer records" "$TMP/t_three.fa has 3 records but $P has more: record 4 of $P (line 8) has no partner" "$P" "$TMP/t_three.fa"
printf '>t0\nA\n>t1\nA\n>t2\nA\n>t3\nA\n>t4\nA\n' > "$TMP/t_five.fa"
check_bad "TEXTS has more records" "$P has 4 records but $TMP/t_five.fa has more: record 5 of $TMP/t_five.fa (line 9) has no partner" "$P" "$TMP/t_five.fa"
: > "$TMP/empty.fa"
check_bad "empty TEXTS" "$TMP/empty.fa has 0 records but $P has more" "$P" "$TMP/empty.fa"

# ---- .seq
printf '>ACGT\n<ACGT\n>ACGT\n<ACCT\n' > "$TMP/good.seq"
"$GALE" wfa "$TMP/good.seq" > /dev/null || fail "good .seq failed"
printf '>ACGT\n<ACGT\nxACGT\n<ACGT\n' > "$TMP/s1.seq"
check_bad ".seq: a line without '>'" "$TMP/s1.seq:3: record 2: expected a '>PATTERN' line, found 'xACGT'" "$TMP/s1.seq"
printf '>ACGT\n<ACGT\n>ACGT\n>ACGT\n' > "$TMP/s2.seq"
check_bad ".seq: '>' where '<' belongs" "$TMP/s2.seq:4: record 2: expected a '<TEXT' line, found '>ACGT'" "$TMP/s2.seq"
printf '>ACGT\n<ACGT\n>ACGT\n' > "$TMP/s3.seq"
check_bad ".seq: pattern without its text at the end" "$TMP/s3.seq:3: record 2: '>PATTERN' line without its '<TEXT' line" "$TMP/s3.seq"
printf '>ACGT\n<ACGT\n\n>ACGT\n<ACGT\n' > "$TMP/s4.seq"
check_bad ".seq: empty line" "$TMP/s4.seq:3: record 2: empty line" "$TMP/s4.seq"
printf '>ACGT\n<ACGT\n>ACGT\n<ACNGTZ\n' > "$TMP/s5.seq"
check_bad ".seq: bad byte in a text" "$TMP/s5.seq:4: record 2: invalid byte 0x5a ('Z') at position 5 of the text" "$TMP/s5.seq"
printf '>AC GT\n<ACGT\n' > "$TMP/s6.seq"
check_bad ".seq: blank inside a pattern" "$TMP/s6.seq:1: record 1: invalid byte 0x20 (' ') at position 2 of the pattern" "$TMP/s6.seq"
check_bad "a FASTA file alone (read as .seq)" "$P:2: record 1: expected a '<TEXT' line" "$P"
check_bad "a FASTA file alone: hint" "two files" "$P"
printf '@p0\nACGT\n+\nIIII\n' > "$TMP/one.fq"
check_bad "a FASTQ file alone: hint" "FASTA/FASTQ input takes two files" "$TMP/one.fq"

# ---- stdin is named (stdin)
"$GALE" wfa - "$T" < "$TMP/bang.fa" > "$TMP/stdout" 2> "$TMP/stderr"
rc=$?
[ "$rc" -eq 1 ] && grep -q -F "gale: (stdin):3: record 2: invalid byte" "$TMP/stderr" ||
    { cat "$TMP/stderr" >&2; fail "bad record on stdin: rc $rc"; }
pass "bad record on stdin: 'gale: (stdin):3: record 2: ...', exit 1"

# ---- a bad record far behind the first batches: exit 1, no -o file
{ for i in $(seq 1 40); do printf '>ACGTACGT\n<ACGTTCGT\n'; done; printf '>ACGT\n<AC*T\n'; } > "$TMP/late.seq"
check_bad "bad record 41 after 20 batches of 2 (-o)" "$TMP/late.seq:82: record 41: invalid byte 0x2a ('*') at position 2 of the text" --batch-size 2 "$TMP/late.seq"
check_bad "bad record 41 after 20 batches of 2 (-o, SAM)" "record 41" --batch-size 2 -F sam "$TMP/late.seq"

# ---- files
check_bad "missing PATTERNS" "does-not-exist.fa: cannot open" "$TMP/does-not-exist.fa" "$T"
check_bad "missing TEXTS" "nope.fa: cannot open" "$P" "$TMP/nope.fa"
awk 'BEGIN { srand(7); for (i = 0; i < 6000; i++) { s = ""; for (j = 0; j < 60; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
            print (i % 2 ? "<" : ">") s } }' > "$TMP/big.seq"
gzip_to "$TMP/big.seq" "$TMP/big.seq.gz"
head -c 2000 "$TMP/big.seq.gz" > "$TMP/cut.seq.gz"
check_bad "truncated gzip" "truncated gzip input" "$TMP/cut.seq.gz"

# ---- SAM-only problems
printf '>a\nACGT\n>b\nACGT\n' > "$TMP/dp.fa"
printf '>ref\nACGTACGT\n>ref\nACGTACGA\n' > "$TMP/dt.fa"
check_bad "SAM: one text name for two sequences" "$TMP/dt.fa:3: record 2: text name 'ref' was given to a different sequence by record 1" -F sam "$TMP/dp.fa" "$TMP/dt.fa"
"$GALE" wfa "$TMP/dp.fa" "$TMP/dt.fa" > "$TMP/o" || fail "the same names are fine in TSV"
"$GALE" wfa -F paf "$TMP/dp.fa" "$TMP/dt.fa" > "$TMP/o" || fail "the same names are fine in PAF"
pass "the same text name for two sequences is fine in TSV and PAF"
LONGNAME=$(printf 'n%.0s' $(seq 1 255))
printf '>%s\nACGT\n' "$LONGNAME" > "$TMP/ln.fa"
printf '>t\nACGT\n' > "$TMP/ln_t.fa"
check_bad "SAM: pattern name of 255 characters" "$TMP/ln.fa:1: record 1: pattern name of 255 characters: SAM allows at most 254" -F sam "$TMP/ln.fa" "$TMP/ln_t.fa"
"$GALE" wfa -F paf "$TMP/ln.fa" "$TMP/ln_t.fa" > "$TMP/o" || fail "a long name is fine in PAF"

done_checks
