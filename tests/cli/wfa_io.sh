#!/usr/bin/env bash
# gale wfa input and output: the three input formats, gzip, stdin, -o, batching
# and threads (the output never depends on them), TSV columns, hand-computed
# edge scores, SAM (read back by samtools, NM recomputed by samtools calmd
# against the texts) and PAF (well-formed, consistent with the TSV).
#
#   wfa_io.sh GALE SEQ PATTERNS_FA TEXTS_FA
#
# samtools is a requirement of this test (tools/setup-deps.sh installs it):
# without it the test fails.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
SEQ=$2
PAT=$3
TXT=$4
NPAIRS=$(( $(wc -l < "$SEQ") / 2 ))
[ "$NPAIRS" -gt 0 ] || fail "example file $SEQ is empty"
[ "$(grep -c '^>' "$PAT")" -eq "$NPAIRS" ] || fail "$PAT does not hold $NPAIRS records"
command -v samtools > /dev/null 2>&1 || fail "samtools not found: it is required to check the SAM output (tools/setup-deps.sh installs it)"

# one-line sequences of a FASTA file, in order ("" for an empty record)
fasta_seqs() {
    awk '/^>/ { if (n++) print s; s = ""; next } { s = s $0 } END { if (n) print s }' "$1"
}
fasta_to_fastq() {
    awk 'function flush() { if (have) { q = s; gsub(/./, "5", q); print "@" name; print s; print "+"; print q } }
         /^>/ { flush(); name = substr($1, 2); s = ""; have = 1; next }
         { s = s $0 }
         END { flush() }' "$1" > "$2"
}
run_ok() { # run_ok OUT WHAT ARGS...: gale wfa ARGS > OUT, must succeed, writing only its summary to stderr
    local out=$1 what=$2
    shift 2
    local rc=0
    "$GALE" wfa "$@" > "$out" 2> "$TMP/err" || rc=$?
    [ "$rc" -eq 0 ] || { cat "$TMP/err" >&2; fail "$what: exit status $rc"; }
    [ "$(wc -l < "$TMP/err")" -le 1 ] && ! grep -v -q '^gale: wfa: [0-9]* pairs\{0,1\} in ' "$TMP/err" ||
        { cat "$TMP/err" >&2; fail "$what: wrote more than its summary to stderr on a good run"; }
}

# ---- the baseline: .seq to TSV
run_ok "$TMP/base.tsv" "gale wfa SEQ" "$SEQ"
line_count "$TMP/base.tsv" "$NPAIRS" "gale wfa SEQ"
awk -F'\t' '
    NF != 3 { print "line " NR ": " NF " fields"; bad = 1; exit }
    $1 != NR - 1 { print "line " NR ": index " $1; bad = 1; exit }
    $2 !~ /^(0|-[1-9][0-9]*)$/ { print "line " NR ": score " $2; bad = 1; exit }
    $3 !~ /^([1-9][0-9]*[=XID])+$/ && $3 != "*" { print "line " NR ": cigar " $3; bad = 1; exit }
    END { exit bad }' "$TMP/base.tsv" || fail "TSV format"
pass "TSV: $NPAIRS lines of index score cigar, indexes in order, scores <= 0"

# ---- other formats and paths give the same lines
run_ok "$TMP/o.tsv" "FASTA pair" "$PAT" "$TXT"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "FASTA PATTERNS TEXTS (multi-line records) = .seq"
fasta_to_fastq "$PAT" "$TMP/p.fq"
fasta_to_fastq "$TXT" "$TMP/t.fq"
run_ok "$TMP/o.tsv" "FASTQ pair" "$TMP/p.fq" "$TMP/t.fq"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "FASTQ PATTERNS TEXTS = .seq"
run_ok "$TMP/o.tsv" "FASTQ patterns, FASTA texts" "$TMP/p.fq" "$TXT"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "FASTQ patterns with FASTA texts = .seq"
# multi-line FASTQ (sequence and quality wrapped)
awk 'NR % 4 == 2 || NR % 4 == 0 { while (length($0) > 70) { print substr($0, 1, 70); $0 = substr($0, 71) } print; next } { print }' \
    "$TMP/p.fq" > "$TMP/p_wrapped.fq"
run_ok "$TMP/o.tsv" "wrapped FASTQ" "$TMP/p_wrapped.fq" "$TMP/t.fq"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "multi-line FASTQ = .seq"
# CRLF line ends and blank lines between FASTA records
sed 's/$/\r/' "$PAT" > "$TMP/p_crlf.fa"
awk '/^>/ && NR > 1 { print "" } { print }' "$TXT" > "$TMP/t_blank.fa"
run_ok "$TMP/o.tsv" "CRLF / blank lines" "$TMP/p_crlf.fa" "$TMP/t_blank.fa"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "CRLF line ends and blank lines between records"
sed 's/$/\r/' "$SEQ" > "$TMP/crlf.seq"
run_ok "$TMP/o.tsv" "CRLF .seq" "$TMP/crlf.seq"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "CRLF .seq"

gzip_to "$SEQ" "$TMP/pairs.seq.gz"
run_ok "$TMP/o.tsv" ".seq.gz" "$TMP/pairs.seq.gz"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "gzipped .seq"
gzip_to "$PAT" "$TMP/p.fa.gz"
gzip_to "$TMP/t.fq" "$TMP/t_fq_gz_no_suffix"
run_ok "$TMP/o.tsv" "gzipped FASTA + FASTQ" "$TMP/p.fa.gz" "$TMP/t_fq_gz_no_suffix"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "gzipped FASTA and gzipped FASTQ (detected by content)"
if command -v bgzip > /dev/null 2>&1; then
    bgzip -c "$TXT" > "$TMP/t.fa.bgz"
    run_ok "$TMP/o.tsv" "bgzipped FASTA" "$PAT" "$TMP/t.fa.bgz"
    same_file "$TMP/base.tsv" "$TMP/o.tsv" "bgzipped texts"
fi
"$GALE" wfa - < "$SEQ" > "$TMP/o.tsv" || fail "gale wfa - (stdin) exited with $?"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "'-' reads the .seq file from stdin"
"$GALE" wfa - "$TXT" < "$TMP/p.fa.gz" > "$TMP/o.tsv" || fail "gale wfa - TEXTS exited with $?"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "patterns from stdin (gzipped)"
"$GALE" wfa "$PAT" - < "$TXT" > "$TMP/o.tsv" || fail "gale wfa PATTERNS - exited with $?"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "texts from stdin"

# ---- -o FILE
"$GALE" wfa -o "$TMP/out.tsv" "$SEQ" > "$TMP/stdout" || fail "gale wfa -o exited with $?"
same_file "$TMP/base.tsv" "$TMP/out.tsv" "-o FILE holds the results"
[ ! -s "$TMP/stdout" ] || fail "-o FILE: something was written to stdout"
! tmp_left "$TMP" || fail "-o FILE left a temporary file"
"$GALE" wfa -F sam -o "$TMP/out.sam" "$SEQ" > "$TMP/stdout" || fail "gale wfa -F sam -o exited with $?"
[ -s "$TMP/out.sam" ] && [ ! -s "$TMP/stdout" ] || fail "-F sam -o FILE"
! tmp_left "$TMP" || fail "-F sam -o FILE left a temporary file"
pass "-o FILE (TSV and SAM): results in FILE, nothing on stdout, no temporary file left"

# ---- batching and threads never change the output
for a in "--batch-size 1" "--batch-size 7" "--batch-bases 1" "--batch-bases 5000" "--batch-size 3 --batch-bases 100" \
         "--threads 1" "--threads 3" "--backend cpu"; do
    # shellcheck disable=SC2086
    run_ok "$TMP/o.tsv" "$a" $a "$SEQ"
    same_file "$TMP/base.tsv" "$TMP/o.tsv" "$a: same output"
done
# shellcheck disable=SC2086
run_ok "$TMP/o.sam" "SAM, --batch-size 3" -F sam --batch-size 3 "$PAT" "$TXT"
run_ok "$TMP/o2.sam" "SAM" -F sam "$PAT" "$TXT"
grep -v '^@PG' "$TMP/o.sam" > "$TMP/a"; grep -v '^@PG' "$TMP/o2.sam" > "$TMP/b"
same_file "$TMP/a" "$TMP/b" "SAM: --batch-size 3 gives the same file (but for @PG's command line)"

# ---- --coords and --score-only
run_ok "$TMP/coords.tsv" "--coords" --coords "$SEQ"
cut -f1-3 "$TMP/coords.tsv" > "$TMP/o.tsv"
same_file "$TMP/base.tsv" "$TMP/o.tsv" "--coords keeps the three columns"
paste <(fasta_seqs "$PAT") <(fasta_seqs "$TXT") "$TMP/coords.tsv" | awk -F'\t' '
    NF != 9 { print "line " NR ": " NF " fields"; bad = 1; exit }
    # end to end: the whole of both sequences
    $6 != 0 || $7 != length($1) || $8 != 0 || $9 != length($2) { print "line " NR ": coordinates " $6, $7, $8, $9; bad = 1; exit }
    END { exit bad }' || fail "--coords: end to end covers both sequences"
pass "--coords: 7 columns; end to end, [0, len) on both sequences"
run_ok "$TMP/so.tsv" "--score-only" --score-only "$SEQ"
awk -F'\t' '$3 != "*" { bad = 1 } END { exit bad }' "$TMP/so.tsv" || fail "--score-only: a CIGAR was printed"
cut -f1-2 "$TMP/so.tsv" > "$TMP/a"; cut -f1-2 "$TMP/base.tsv" > "$TMP/b"
same_file "$TMP/a" "$TMP/b" "--score-only: same scores, CIGAR '*'"
run_ok "$TMP/edit.tsv" "--edit" --edit "$SEQ"
awk -F'\t' '$2 !~ /^(0|[1-9][0-9]*)$/ { bad = 1 } END { exit bad }' "$TMP/edit.tsv" || fail "--edit: a negative distance"
differ_file "$TMP/edit.tsv" "$TMP/base.tsv" "--edit: distances (>= 0), not penalties"
run_ok "$TMP/ef.tsv" "--ends-free" --ends-free 30,30,30,30 "$SEQ"
differ_file "$TMP/ef.tsv" "$TMP/base.tsv" "--ends-free changes results on the example"
run_ok "$TMP/nm.tsv" "--n-mismatch" --n-mismatch "$SEQ"
differ_file "$TMP/nm.tsv" "$TMP/base.tsv" "--n-mismatch changes results on the example (N runs in both sequences)"
run_ok "$TMP/p.tsv" "penalties" --mismatch 3 --gap-open 5 --gap-extend 1 "$SEQ"
differ_file "$TMP/p.tsv" "$TMP/base.tsv" "penalties reach the library"
run_ok "$TMP/p.tsv" "explicit defaults" --mismatch 4 --gap-open 6 --gap-extend 2 "$SEQ"
same_file "$TMP/p.tsv" "$TMP/base.tsv" "defaults are x=4, o=6, e=2"

# ---- hand-computed edge pairs (default penalties x=4, o=6, e=2; a gap of L costs 6 + 2L)
{
    printf '>\n<\n'            # 0: both empty: 0, nothing to align
    printf '>ACGT\n<\n'        # 1: 4 bases only in the pattern: 6 + 8 = 14, 4I
    printf '>\n<ACGTA\n'       # 2: 5 bases only in the text: 6 + 10 = 16, 5D
    printf '>A\n<C\n'          # 3: one mismatch: 4 (a gap pair would cost 16)
    printf '>acgtRYKM\n<ACGTNNNN\n'  # 4: case folded, IUPAC = N, N matches N: 0
    printf '>GATTACA\n<GATTTACA\n'   # 5: one base more in the text: 8, 3=1D4= or 4=1D3=
    printf '>UUU\n<TTT\n'      # 6: U is T: 0
} > "$TMP/edge.seq"
run_ok "$TMP/edge.tsv" "edge pairs" --coords "$TMP/edge.seq"
cat > "$TMP/edge.want" <<'EOF'
0	0	*	0	0	0	0
1	-14	4I	0	4	0	0
2	-16	5D	0	0	0	5
3	-4	1X	0	1	0	1
4	0	8=	0	8	0	8
6	0	3=	0	3	0	3
EOF
grep -v '^5	' "$TMP/edge.tsv" > "$TMP/edge.got"
same_file "$TMP/edge.want" "$TMP/edge.got" "edge pairs: hand-computed scores, CIGARs and coordinates"
grep -q -E '^5	-8	(2=1D5=|3=1D4=|4=1D3=)	0	7	0	8$' "$TMP/edge.tsv" || { cat "$TMP/edge.tsv" >&2; fail "GATTACA/GATTTACA"; }
pass "one-base gap: score -8, a 1D between matches"
run_ok "$TMP/edge_nm.tsv" "edge pairs, --n-mismatch" --n-mismatch "$TMP/edge.seq"
grep -q -x '4	-16	4=4X' "$TMP/edge_nm.tsv" || { cat "$TMP/edge_nm.tsv" >&2; fail "--n-mismatch: N vs N must mismatch"; }
pass "--n-mismatch: N against N is a mismatch (4 x 4)"
run_ok "$TMP/edge_by.tsv" "edge pairs, --bytes" --bytes "$TMP/edge.seq"
grep -q -x '4	-32	8X' "$TMP/edge_by.tsv" && grep -q -x '6	-12	3X' "$TMP/edge_by.tsv" && grep -q -x '3	-4	1X' "$TMP/edge_by.tsv" ||
    { cat "$TMP/edge_by.tsv" >&2; fail "--bytes: acgt vs ACGT, RYKM vs NNNN and U vs T must mismatch"; }
pass "--bytes: bytes compared exactly (acgtRYKM/ACGTNNNN 8X, UUU/TTT 3X)"
run_ok "$TMP/edge_ed.tsv" "edge pairs, --edit" --edit "$TMP/edge.seq"
printf '0\t0\n1\t4\n2\t5\n3\t1\n4\t0\n5\t1\n6\t0\n' > "$TMP/edge_ed.want"
cut -f1-2 "$TMP/edge_ed.tsv" > "$TMP/edge_ed.got"
same_file "$TMP/edge_ed.want" "$TMP/edge_ed.got" "--edit: hand-computed distances"
printf '>ACGTACGT\n<GGGGGACGTACGTGGGGG\n' > "$TMP/glocal.seq"
run_ok "$TMP/glocal.tsv" "ends-free text" --coords --ends-free 0,0,5,5 "$TMP/glocal.seq"
grep -q -x '0	0	8=	0	8	5	13' "$TMP/glocal.tsv" || { cat "$TMP/glocal.tsv" >&2; fail "ends-free text"; }
run_ok "$TMP/glocal.tsv" "ends-free text, too short" --coords --ends-free 0,0,4,5 "$TMP/glocal.seq"
grep -q -x '0	-8	1D8=	0	8	4	13' "$TMP/glocal.tsv" || { cat "$TMP/glocal.tsv" >&2; fail "ends-free text (4 free)"; }
pass "ends-free: the pattern inside the text aligns at no cost; one base short costs a 1-base gap"

# ---- empty input
: > "$TMP/empty.seq"
run_ok "$TMP/o.tsv" "empty .seq" "$TMP/empty.seq"
[ ! -s "$TMP/o.tsv" ] || fail "empty input: output not empty"
: > "$TMP/empty.fa"
run_ok "$TMP/o.sam" "empty FASTA, SAM" -F sam "$TMP/empty.fa" "$TMP/empty.fa"
samtools view -H "$TMP/o.sam" > "$TMP/h" 2> "$TMP/serr" || { cat "$TMP/serr" >&2; fail "samtools rejects the empty SAM"; }
[ "$(grep -c '^@SQ' "$TMP/o.sam")" -eq 0 ] && grep -q '^@HD' "$TMP/o.sam" && grep -q '^@PG' "$TMP/o.sam" ||
    fail "empty SAM: header"
pass "empty input: empty TSV; SAM with @HD and @PG only, read by samtools"

# ---- SAM
# check_sam SAM PATTERN_SEQS TEXT_SEQS TEXT_NAMES COORDS_TSV [QUALS]: every record
# against the inputs and gale's own TSV (--coords) of the same pairs
check_sam() {
    local sam=$1 pseqs=$2 tseqs=$3 tnames=$4 coords=$5 quals=${6:-}
    samtools view -h "$sam" > "$TMP/sv.sam" 2> "$TMP/sv.err" || { cat "$TMP/sv.err" >&2; fail "samtools view rejects $sam"; }
    [ ! -s "$TMP/sv.err" ] || { cat "$TMP/sv.err" >&2; fail "samtools view warns about $sam"; }
    samtools view -b -o "$TMP/sv.bam" "$sam" 2> "$TMP/sv.err" && [ ! -s "$TMP/sv.err" ] ||
        { cat "$TMP/sv.err" >&2; fail "samtools cannot convert $sam to BAM"; }
    [ "$(samtools view -c "$TMP/sv.bam")" -eq "$(wc -l < "$coords")" ] || fail "$sam: record count"
    # @SQ: one per distinct text name, with its length
    paste "$tnames" "$tseqs" | awk -F'\t' 'length($2) > 0 && !seen[$1]++ { print "@SQ\tSN:" $1 "\tLN:" length($2) }' > "$TMP/sq.want"
    grep '^@SQ' "$sam" > "$TMP/sq.got"
    same_file "$TMP/sq.want" "$TMP/sq.got" "$sam: @SQ lines (names and lengths of the texts)"
    [ -n "$quals" ] || { : > "$TMP/quals"; quals="$TMP/quals"; }
    grep -v '^@' "$sam" | paste - "$pseqs" "$tseqs" "$coords" "$quals" | awk -F'\t' '
        function fail(m) { print "record " NR ": " m; bad = 1; exit }
        {
            # 13 SAM fields with AS and NM (12 when unmapped), then pattern, text, 7 TSV fields, quality
            mapped = ($2 == 0)
            nf = mapped ? 13 : 12
            if (NF < nf + 9) fail(NF " fields")
            p = $(nf + 1); t = $(nf + 2); idx = $(nf + 3); score = $(nf + 4); cig = $(nf + 5)
            vb = $(nf + 6); ve = $(nf + 7); hb = $(nf + 8); he = $(nf + 9); q = $(nf + 10)
            if ($10 != (p == "" ? "*" : p)) fail("SEQ is not the pattern")
            if ($11 != (q == "" ? "*" : q)) fail("QUAL " $11 " is not the quality " q)
            if ($7 != "*" || $8 != 0 || $9 != 0) fail("RNEXT PNEXT TLEN")
            consumes_text = (cig ~ /[=XD]/)
            if (!mapped) {
                if ($2 != 4 || $3 != "*" || $4 != 0 || $6 != "*") fail("unmapped record " $2 " " $3 " " $4 " " $6)
                if (t != "" && consumes_text) fail("unmapped but the alignment covers text bases")
                if ($12 != "AS:i:" score) fail("AS " $12 " score " score)
                next
            }
            if ($5 != 255) fail("MAPQ " $5)
            if ($4 != hb + 1) fail("POS " $4 " text_begin " hb)
            want = (vb > 0 ? vb "S" : "") cig (ve < length(p) ? length(p) - ve "S" : "")
            if ($6 != want) fail("CIGAR " $6 " want " want)
            nm = 0; c = cig
            while (match(c, /^[0-9]+[=XID]/)) {
                op = substr(c, RLENGTH, 1); len = substr(c, 1, RLENGTH - 1) + 0
                if (op != "=") nm += len
                c = substr(c, RLENGTH + 1)
            }
            if ($12 != "NM:i:" nm) fail($12 " want NM:i:" nm)
            if ($13 != "AS:i:" score) fail($13 " want AS:i:" score)
        }
        END { exit bad }' || fail "$sam: records do not match the inputs and the TSV"
    pass "$sam: samtools reads it (SAM and BAM), records match patterns, qualities, coordinates, CIGARs, NM, AS"
}

fasta_seqs "$PAT" > "$TMP/pseqs"
fasta_seqs "$TXT" > "$TMP/tseqs"
grep '^>' "$TXT" | awk '{ print substr($1, 2) }' > "$TMP/tnames"
awk 'NR % 4 == 0' "$TMP/p.fq" > "$TMP/pquals"
run_ok "$TMP/coords.tsv" "--coords, FASTA" --coords "$PAT" "$TXT"
run_ok "$TMP/fa.sam" "SAM from FASTA" -F sam "$PAT" "$TXT"
check_sam "$TMP/fa.sam" "$TMP/pseqs" "$TMP/tseqs" "$TMP/tnames" "$TMP/coords.tsv"
grep -v '^@' "$TMP/fa.sam" | cut -f1 > "$TMP/qn"
grep '^>' "$PAT" | awk '{ print substr($1, 2) }' > "$TMP/qn.want"
same_file "$TMP/qn.want" "$TMP/qn" "SAM QNAME: the pattern record names, in input order"
grep -q -F -x "@PG	ID:gale	PN:gale	VN:$("$GALE" --version | sed -n 's/^libgale \([^ ]*\).*/\1/p')	CL:gale wfa -F sam $PAT $TXT" "$TMP/fa.sam" ||
    { grep '^@PG' "$TMP/fa.sam" >&2; fail "SAM @PG line"; }
pass "SAM @PG: ID, PN, VN and the command line"
run_ok "$TMP/fq.sam" "SAM from FASTQ" -F sam "$TMP/p.fq" "$TMP/t.fq"
check_sam "$TMP/fq.sam" "$TMP/pseqs" "$TMP/tseqs" "$TMP/tnames" "$TMP/coords.tsv" "$TMP/pquals"
run_ok "$TMP/seq.sam" "SAM from .seq" -F sam "$SEQ"
awk '{ print "text" NR - 1 }' "$TMP/tseqs" > "$TMP/tnames_seq"
check_sam "$TMP/seq.sam" "$TMP/pseqs" "$TMP/tseqs" "$TMP/tnames_seq" "$TMP/coords.tsv"
grep -v '^@' "$TMP/seq.sam" | cut -f1 > "$TMP/qn"
seq 0 $(( NPAIRS - 1 )) > "$TMP/qn.want"
same_file "$TMP/qn.want" "$TMP/qn" "SAM from .seq: QNAME is the index, RNAME text<index>"
# ends-free: soft clips
run_ok "$TMP/coords_ef.tsv" "--coords, ends-free" --coords --ends-free 30,30,30,30 "$PAT" "$TXT"
run_ok "$TMP/ef.sam" "SAM, ends-free" -F sam --ends-free 30,30,30,30 "$PAT" "$TXT"
check_sam "$TMP/ef.sam" "$TMP/pseqs" "$TMP/tseqs" "$TMP/tnames" "$TMP/coords_ef.tsv"
# (no grep -q at the end of a pipe: with pipefail, its early exit can fail the pipe)
NCLIP=$(awk -F'\t' '!/^@/ && $6 ~ /S/ { n++ } END { print n + 0 }' "$TMP/ef.sam")
[ "$NCLIP" -gt 0 ] || fail "ends-free SAM: no soft clip at all on the example"
pass "ends-free SAM: unaligned pattern ends are soft clips ($NCLIP records)"
# edit distance: AS is minus the distance
run_ok "$TMP/coords_ed.tsv" "--coords, edit" --coords --edit "$PAT" "$TXT"
awk -F'\t' '{ printf "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", $1, -$2, $3, $4, $5, $6, $7 }' "$TMP/coords_ed.tsv" > "$TMP/coords_ed_neg.tsv"
run_ok "$TMP/ed.sam" "SAM, edit" -F sam --edit "$PAT" "$TXT"
check_sam "$TMP/ed.sam" "$TMP/pseqs" "$TMP/tseqs" "$TMP/tnames" "$TMP/coords_ed_neg.tsv"
pass "--edit SAM: AS:i is minus the distance"
# edge pairs: empty text -> unmapped; empty pattern -> SEQ '*', a D-only CIGAR
run_ok "$TMP/edge_coords.tsv" "edge --coords" --coords "$TMP/edge.seq"
awk 'NR % 2 == 1 { print substr($0, 2) }' "$TMP/edge.seq" > "$TMP/edge_p"
awk 'NR % 2 == 0 { print substr($0, 2) }' "$TMP/edge.seq" > "$TMP/edge_t"
awk '{ print "text" NR - 1 }' "$TMP/edge_t" > "$TMP/edge_tn"
run_ok "$TMP/edge.sam" "SAM, edge pairs" -F sam "$TMP/edge.seq"
check_sam "$TMP/edge.sam" "$TMP/edge_p" "$TMP/edge_t" "$TMP/edge_tn" "$TMP/edge_coords.tsv"
[ "$(samtools view -c -f 4 "$TMP/edge.sam")" -eq 2 ] || fail "edge SAM: expected 2 unmapped records (empty texts)"
grep -q -P '^2\t0\ttext2\t1\t255\t5D\t\*\t0\t0\t\*\t\*\tNM:i:5\tAS:i:-16$' "$TMP/edge.sam" || fail "edge SAM: empty pattern"
pass "edge SAM: empty texts give unmapped records, an empty pattern SEQ '*' with a D-only CIGAR"
# the same name for the same text: one @SQ
{ printf '>a\nACGTACGT\n>b\nACGTTCGT\n'; } > "$TMP/dup_p.fa"
{ printf '>ref\nACGTACGT\n>ref desc\nacgtacgt\n'; } > "$TMP/dup_t.fa"
run_ok "$TMP/dup.sam" "SAM, repeated text" -F sam "$TMP/dup_p.fa" "$TMP/dup_t.fa"
[ "$(grep -c '^@SQ' "$TMP/dup.sam")" -eq 1 ] && samtools view "$TMP/dup.sam" > /dev/null || fail "repeated text: one @SQ"
pass "SAM: a text repeated under one name (case aside) is one @SQ"

# samtools calmd recomputes NM from the texts at POS: plain A C G T pairs (calmd
# compares IUPAC codes literally where gale reads them as N)
awk 'NR % 2 == 1 { p = substr($0, 2) } NR % 2 == 0 { t = substr($0, 2)
     if (p !~ /[^ACGT]/ && t !~ /[^ACGT]/ && length(p) && length(t)) { print ">" p; print "<" t } }' "$SEQ" > "$TMP/plain.seq"
NPLAIN=$(( $(wc -l < "$TMP/plain.seq") / 2 ))
[ "$NPLAIN" -ge 10 ] || fail "too few plain pairs in the example ($NPLAIN)"
awk 'NR % 2 == 0 { print ">text" (NR / 2 - 1); print substr($0, 2) }' "$TMP/plain.seq" > "$TMP/plain_texts.fa"
for opt in "" "--ends-free 20,20,20,20" "--gap-open2 24 --gap-extend2 1"; do
    # shellcheck disable=SC2086
    run_ok "$TMP/plain.sam" "SAM, plain pairs" -F sam $opt "$TMP/plain.seq"
    # gale's NM removed, so that calmd computes its own from the texts at POS
    sed 's/\tNM:i:[0-9]*//' "$TMP/plain.sam" > "$TMP/plain_nonm.sam"
    samtools calmd "$TMP/plain_nonm.sam" "$TMP/plain_texts.fa" > "$TMP/calmd.sam" 2> "$TMP/calmd.err" ||
        { cat "$TMP/calmd.err" >&2; fail "samtools calmd failed"; }
    grep -v '^@' "$TMP/plain.sam" | grep -o 'NM:i:[0-9]*' > "$TMP/nm.ours"
    grep -v '^@' "$TMP/calmd.sam" | grep -o 'NM:i:[0-9]*' > "$TMP/nm.calmd"
    same_file "$TMP/nm.ours" "$TMP/nm.calmd" "samtools calmd recomputes the same NM on $NPLAIN pairs (${opt:-defaults})"
done

# ---- PAF
check_paf() { # check_paf PAF COORDS_TSV PATTERN_SEQS TEXT_SEQS QNAMES TNAMES AS_SIGN
    paste "$1" "$2" "$3" "$4" "$5" "$6" | awk -F'\t' -v sign="$7" '
        function fail(m) { print "line " NR ": " m; bad = 1; exit }
        {
            hascg = ($15 ~ /^cg:Z:/)
            nf = hascg ? 15 : 14
            if (NF != nf + 11) fail(NF " fields")
            if ($13 !~ /^NM:i:[0-9]+$/ || $14 !~ /^AS:i:-?[0-9]+$/) fail("tags " $13 " " $14)
            idx = $(nf + 1); score = $(nf + 2); cig = $(nf + 3)
            vb = $(nf + 4); ve = $(nf + 5); hb = $(nf + 6); he = $(nf + 7)
            p = $(nf + 8); t = $(nf + 9); qn = $(nf + 10); tn = $(nf + 11)
            if ($1 != qn || $6 != tn) fail("names " $1 " " $6)
            if ($2 != length(p) || $7 != length(t)) fail("lengths " $2 " " $7)
            if ($3 != vb || $4 != ve || $8 != hb || $9 != he) fail("coordinates")
            if ($5 != "+" || $12 != 255) fail("strand or mapq")
            if ($14 != "AS:i:" sign * score) fail($14 " score " score)
            want = (cig == "*") ? "" : cig
            got = hascg ? substr($15, 6) : ""
            if (hascg && got == "") fail("empty cg:Z:")
            if (got != want) fail("cg " got " want " want)
            eq = 0; all = 0; nm = 0; c = want
            while (match(c, /^[0-9]+[=XID]/)) {
                op = substr(c, RLENGTH, 1); len = substr(c, 1, RLENGTH - 1) + 0
                all += len; if (op == "=") eq += len; else nm += len
                c = substr(c, RLENGTH + 1)
            }
            if ($10 != eq || $11 != all) fail("matches " $10 " block " $11 " want " eq " " all)
            if ($13 != "NM:i:" nm) fail($13 " want " nm)
        }
        END { exit bad }'
}
grep '^>' "$PAT" | awk '{ print substr($1, 2) }' > "$TMP/qnames"
run_ok "$TMP/fa.paf" "PAF" -F paf "$PAT" "$TXT"
line_count "$TMP/fa.paf" "$NPAIRS" "PAF"
check_paf "$TMP/fa.paf" "$TMP/coords.tsv" "$TMP/pseqs" "$TMP/tseqs" "$TMP/qnames" "$TMP/tnames" 1 ||
    fail "PAF does not match the inputs and the TSV"
pass "PAF: 12 columns + NM AS cg, consistent with the inputs and the TSV"
run_ok "$TMP/ef.paf" "PAF, ends-free" -F paf --ends-free 30,30,30,30 "$PAT" "$TXT"
check_paf "$TMP/ef.paf" "$TMP/coords_ef.tsv" "$TMP/pseqs" "$TMP/tseqs" "$TMP/qnames" "$TMP/tnames" 1 ||
    fail "ends-free PAF"
pass "ends-free PAF"
run_ok "$TMP/ed.paf" "PAF, edit" -F paf --edit "$PAT" "$TXT"
check_paf "$TMP/ed.paf" "$TMP/coords_ed.tsv" "$TMP/pseqs" "$TMP/tseqs" "$TMP/qnames" "$TMP/tnames" -1 ||
    fail "edit PAF"
pass "--edit PAF: AS:i is minus the distance"
run_ok "$TMP/edge.paf" "PAF, edge pairs" -F paf "$TMP/edge.seq"
seq 0 6 > "$TMP/edge_qn"
check_paf "$TMP/edge.paf" "$TMP/edge_coords.tsv" "$TMP/edge_p" "$TMP/edge_t" "$TMP/edge_qn" "$TMP/edge_tn" 1 ||
    fail "edge PAF"
pass "PAF edge pairs (empty sequences: no cg tag)"

done_checks
