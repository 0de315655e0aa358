#!/usr/bin/env bash
# Messages that name the real cause (both subcommands): numbers with junk are
# refused the same way in options and in input files; --threads and --device
# are checked against what the library accepts and what exists; truncated or
# corrupt compressed input is reported as such (never as a malformed line
# after it), and htslib's own lines never reach stderr; FASTQ quality shorter
# or longer than the sequence; a .seq file where FASTA/FASTQ belongs and the
# other way round; another command's input.
#
#   messages.sh GALE PAIRS_TSV WFA_SEQ
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
PAIRS=$2
SEQ=$3
T=$'\t'

# expect RC NAME ARGS... (lib.sh); has WANT: the last stderr holds WANT;
# lacks WANT: it does not
has() {
    grep -q -F -- "$1" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "message lacks '$1'"; }
}
lacks() {
    ! grep -q -F -- "$1" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "message holds '$1'"; }
}
# one message on stderr, gale's own: htslib's "[E::...]"/"[W::...]" lines stay out
one_message() {
    [ "$(wc -l < "$TMP/stderr")" -eq 1 ] || { cat "$TMP/stderr" >&2; fail "more than one line on stderr"; }
    lacks "[E::"
    lacks "[W::"
}

# ---- numbers: one parser for options and input fields -----------------------
# A pair whose seeds (k = 3) start at 2 on both sequences.
printf 'ACGTACGTAC%s2%sACGTACGTAC%s2%sn\n' "$T" "$T" "$T" "$T" > "$TMP/good.tsv"
expect 0 "xdrop: a plain number in the input and the options" xdrop -q -k 3 --threads 1 "$TMP/good.tsv"
expect 0 "leading zeros are digits" xdrop -q -k 03 --threads 01 "$TMP/good.tsv"
printf 'ACGTACGTAC%s02%sACGTACGTAC%s2%sn\n' "$T" "$T" "$T" "$T" > "$TMP/zero.tsv"
expect 0 "leading zeros in posV" xdrop -q -k 3 "$TMP/zero.tsv"

# each junk form is refused as an option value (exit 2, naming the option and
# the value) and as posV in an input line (exit 1, naming the file, the line
# and the field)
i=0
for junk in "+2" " 2" "2 " "2x" "0x2" "2.0" "1e1" "" "-" "--2" "2,0" "２"; do
    i=$((i + 1))
    expect 2 "option -k '$junk'" xdrop -k "$junk" "$TMP/good.tsv"
    has "invalid value '$junk' for -k"
    expect 2 "option --threads '$junk'" xdrop --threads "$junk" "$TMP/good.tsv"
    has "invalid value '$junk' for --threads"
    expect 2 "option --batch-size '$junk' (wfa)" wfa --batch-size "$junk" "$TMP/none.seq"
    has "invalid value '$junk' for --batch-size"
    expect 2 "option --mismatch '$junk' (wfa)" wfa --mismatch "$junk" "$TMP/none.seq"
    if [ "${junk/,/}" = "$junk" ]; then # a comma separates the parts there
        expect 2 "--ends-free part '$junk'" wfa --ends-free "0,$junk,0,0" "$TMP/none.seq"
        has "PE '$junk'"
    fi
    { cat "$TMP/good.tsv"; printf 'ACGTACGTAC%s%s%sACGTACGTAC%s2%sn\n' "$T" "$junk" "$T" "$T" "$T"; } > "$TMP/junk$i.tsv"
    expect 1 "posV '$junk' in an input line" xdrop -k 3 "$TMP/junk$i.tsv"
    has "$TMP/junk$i.tsv:2: invalid posV '"
done
# what is wrong is said where it is not obvious
expect 2 "--threads with a '+'" xdrop --threads +2 "$TMP/good.tsv"
has "no '+' sign"
expect 1 "posV with a '+'" xdrop -k 3 "$TMP/junk1.tsv"
has "no '+' sign"
expect 2 "--threads with a blank" xdrop --threads " 2" "$TMP/good.tsv"
has "no blanks"
expect 1 "posV with a blank" xdrop -k 3 "$TMP/junk2.tsv"
has "no blanks"
# out of range, in options and input
expect 2 "-k beyond 2^31-1" xdrop -k 2147483648 "$TMP/good.tsv"
has "out of range"
expect 2 "--match beyond 64 bits" xdrop --match 99999999999999999999 "$TMP/good.tsv"
has "out of range"
printf 'ACGTACGTAC%s99999999999999999999%sACGTACGTAC%s2%sn\n' "$T" "$T" "$T" "$T" > "$TMP/huge.tsv"
expect 1 "posV beyond 64 bits" xdrop -k 3 "$TMP/huge.tsv"
has "out of range"
printf 'ACGTACGTAC%s-2%sACGTACGTAC%s2%sn\n' "$T" "$T" "$T" "$T" > "$TMP/neg.tsv"
expect 1 "negative posV" xdrop -k 3 "$TMP/neg.tsv"
has "non-negative"

# ---- --threads and --device ----------------------------------------------------
expect 2 "--threads -1" xdrop --threads -1 "$TMP/good.tsv"
has "[0, 4096]"
expect 2 "--threads 4097 (beyond gale_ctx_create's bound)" wfa --threads 4097 "$TMP/none.seq"
has "[0, 4096]"
expect 2 "--device -1" wfa --device -1 "$TMP/none.seq"
has "--device"
expect 2 "--device beyond int" xdrop --device 2147483648 "$TMP/good.tsv"
has "--device"
# the CPU backend has no device: --device is not looked at there
expect 0 "--backend cpu ignores --device" xdrop -q --backend cpu --device 7 -k 3 "$TMP/good.tsv"
"$GALE" --version > "$TMP/version"
NDEV=$(sed -n 's/.*CUDA devices: \([0-9]*\).*/\1/p' "$TMP/version")
[ -n "$NDEV" ] || fail "gale --version does not say how many CUDA devices there are"
if [ "$NDEV" -eq 0 ]; then
    expect 1 "--backend cuda without a GPU" xdrop --backend cuda -k 3 "$TMP/good.tsv"
    has "cuda"
else
    for cmd in xdrop wfa; do
        expect 2 "$cmd --device $NDEV (one past the last device)" $cmd --backend cuda --device "$NDEV" "$TMP/good.tsv"
        has "invalid value '$NDEV' for --device"
        has "CUDA device"
        expect 2 "$cmd --backend auto --device $NDEV" $cmd --device "$NDEV" "$TMP/good.tsv"
        has "for --device"
    done
fi

# ---- truncated and corrupt compressed input ----------------------------------
gzip_to "$PAIRS" "$TMP/pairs.tsv.gz"
SIZE=$(wc -c < "$TMP/pairs.tsv.gz")
# cut at several places: before the first line ends, and in the middle, where
# bgzf_getline hands out a piece of a line before the stream fails
for cut in 3000 $((SIZE / 3)) $((SIZE / 2)) $((SIZE - 100)); do
    head -c "$cut" "$TMP/pairs.tsv.gz" > "$TMP/cut.tsv.gz"
    expect 1 "xdrop: gzip cut at byte $cut of $SIZE" xdrop "$TMP/cut.tsv.gz"
    one_message
    has "gale: $TMP/cut.tsv.gz:"
    has "truncated gzip input"
    lacks "fields"
    # the line it names is one that the cut file does not hold complete
    line=$(sed -n 's/^gale: [^:]*:\([0-9]*\): .*/\1/p' "$TMP/stderr")
    whole=$(gzip -dc "$TMP/cut.tsv.gz" 2> /dev/null | wc -l)
    [ "$line" -ge 1 ] && [ "$line" -le $((whole + 1)) ] || fail "gzip cut at $cut: line $line named, $whole whole lines in the file"
done
awk 'BEGIN { srand(11); for (i = 0; i < 6000; i++) { s = ""; for (j = 0; j < 60; j++) s = s substr("ACGT", int(rand() * 4) + 1, 1)
            print (i % 2 ? "<" : ">") s } }' > "$TMP/big.seq"
gzip_to "$TMP/big.seq" "$TMP/big.seq.gz"
SIZE=$(wc -c < "$TMP/big.seq.gz")
for cut in 1000 $((SIZE / 2)) $((SIZE - 50)); do
    head -c "$cut" "$TMP/big.seq.gz" > "$TMP/cut.seq.gz"
    expect 1 "wfa: gzip .seq cut at byte $cut of $SIZE" wfa -o "$TMP/never.tsv" "$TMP/cut.seq.gz"
    one_message
    has "truncated gzip input"
    has "record "
    lacks "expected a"
    [ ! -e "$TMP/never.tsv" ] || fail "truncated input: -o FILE written"
done
awk 'NR % 2 == 1 { print ">r" NR; print substr($0, 2) }' "$TMP/big.seq" > "$TMP/big.fa"
gzip_to "$TMP/big.fa" "$TMP/big.fa.gz"
head -c $(( $(wc -c < "$TMP/big.fa.gz") / 2 )) "$TMP/big.fa.gz" > "$TMP/cut.fa.gz"
expect 1 "wfa: gzip FASTA cut in the middle (TEXTS)" wfa "$TMP/big.fa" "$TMP/cut.fa.gz"
one_message
has "gale: $TMP/cut.fa.gz:"
has "truncated gzip input"
# corrupt: a gzip header followed by bytes that are no deflate stream
printf '\037\213\010\000\000\000\000\000\000\003this is not deflate data at all' > "$TMP/corrupt.gz"
expect 1 "xdrop: corrupt gzip" xdrop "$TMP/corrupt.gz"
one_message
has "corrupt gzip input"
expect 1 "wfa: corrupt gzip" wfa "$TMP/corrupt.gz"
one_message
has "corrupt gzip input"
# BGZF: whole, without its end-of-file marker, cut inside a block
bgzf_to "$PAIRS" "$TMP/pairs.bgz"
"$GALE" xdrop -q "$TMP/pairs.bgz" > "$TMP/bgzf.out" 2> "$TMP/stderr" && "$GALE" xdrop -q "$PAIRS" > "$TMP/plain.out" ||
    { cat "$TMP/stderr" >&2; fail "a whole BGZF file"; }
same_file "$TMP/plain.out" "$TMP/bgzf.out" "a whole BGZF file reads as the plain one"
bgzf_to "$PAIRS" "$TMP/noeof.bgz" noeof
expect 1 "xdrop: BGZF without its end-of-file marker" xdrop "$TMP/noeof.bgz"
one_message
has "truncated BGZF input"
has "end-of-file marker"
has "$TMP/noeof.bgz:$(( $(wc -l < "$PAIRS") + 1 )): "
head -c $(( $(wc -c < "$TMP/pairs.bgz") / 2 )) "$TMP/pairs.bgz" > "$TMP/cut.bgz"
expect 1 "xdrop: BGZF cut inside a block" xdrop "$TMP/cut.bgz"
one_message
has "truncated BGZF input"
lacks "fields"
bgzf_to "$SEQ" "$TMP/noeof.seq.bgz" noeof
expect 1 "wfa: BGZF .seq without its end-of-file marker" wfa "$TMP/noeof.seq.bgz"
one_message
has "truncated BGZF input"

# ---- FASTQ quality and sequence lengths ------------------------------------------
printf '>t0\nACGTACGT\n>t1\nACGT\n>t2\nACGT\n' > "$TMP/t.fa"
# shorter, in the middle of the file: the next header is not read as quality
printf '@p0\nACGTACGT\n+\nIIII\n@p1\nACGT\n+\nIIII\n@p2\nACGT\n+\nIIII\n' > "$TMP/short_mid.fq"
expect 1 "FASTQ quality shorter than the sequence, then the next record" wfa "$TMP/short_mid.fq" "$TMP/t.fa"
one_message
has "$TMP/short_mid.fq:1: record 1: FASTQ record 'p0': its quality is shorter than its sequence (4 values for 8 bases)"
has "line 5"
lacks "longer"
# the same in the second record, with a header whose length would fill the quality
printf '@p0\nACGT\n+\nIIII\n@p1\nACGTACGT\n+\nIIIII\n@p2\nACGT\n+\nIIII\n' > "$TMP/short_fill.fq"
expect 1 "FASTQ quality 3 short, then a 3-character header" wfa "$TMP/short_fill.fq" "$TMP/t.fa"
has "$TMP/short_fill.fq:5: record 2: FASTQ record 'p1': its quality is shorter than its sequence (5 values for 8 bases)"
# an empty quality line, then the next record
printf '@p0\nACGT\n+\n\n@p1\nACGT\n+\nIIII\n' > "$TMP/empty_q.fq"
expect 1 "FASTQ quality line empty, then the next record" wfa "$TMP/empty_q.fq" "$TMP/t.fa"
has "$TMP/empty_q.fq:1: record 1: FASTQ record 'p0': its quality is shorter than its sequence (0 values for 4 bases)"
# shorter at the end of the file
printf '@p0\nACGT\n+\nIIII\n@p1\nACGTACGT\n+\nIII\n' > "$TMP/short_end.fq"
expect 1 "FASTQ quality shorter, file ends" wfa "$TMP/t.fa" "$TMP/short_end.fq"
has "$TMP/short_end.fq:5: record 2: truncated FASTQ record 'p1': the file ends after 3 quality values for 8 bases"
# longer
printf '@p0\nACGT\n+\nIIIIII\n' > "$TMP/long.fq"
expect 1 "FASTQ quality longer than the sequence" wfa "$TMP/long.fq" "$TMP/t.fa"
has "$TMP/long.fq:1: record 1: FASTQ record 'p0': its quality is longer than its sequence (6 values for 4 bases)"
# no '+' line: the next header is not read as sequence
printf '@p0\nACGT\n@p1\nACGT\n+\nIIII\n' > "$TMP/noplus.fq"
expect 1 "FASTQ record without '+', then the next record" wfa "$TMP/noplus.fq" "$TMP/t.fa"
has "$TMP/noplus.fq:1: record 1: FASTQ record 'p0' has no '+' line"
lacks "invalid byte"
# wrapped records stay readable, also with quality lines that start with '@'
printf '@p0\nACGT\nACGT\n+\nIIII\n@III\n@p1\nAC\nGT\n+\n@I\nII\n' > "$TMP/wrapped.fq"
printf '>t0\nACGTACGT\n>t1\nACGT\n' > "$TMP/t2.fa"
expect 0 "wrapped FASTQ, quality lines starting with '@'" wfa "$TMP/wrapped.fq" "$TMP/t2.fa"
line_count "$TMP/stdout" 2 "wrapped FASTQ"

# ---- the wrong kind of file ------------------------------------------------------------
printf '>ACGT\n<ACGA\n>ACGT\n<ACGT\n' > "$TMP/pairs.seq"
expect 1 "a .seq file as PATTERNS" wfa "$TMP/pairs.seq" "$TMP/t.fa"
has "$TMP/pairs.seq:2: record 1: a '<TEXT' line: this is a .seq file"
has "given alone"
expect 1 "a .seq file as TEXTS" wfa "$TMP/t.fa" "$TMP/pairs.seq"
has "$TMP/pairs.seq:2: record 1: "
has ".seq file"
expect 1 "a FASTA file alone (read as .seq)" wfa "$TMP/t.fa"
has "$TMP/t.fa:2: record 1: expected a '<TEXT' line"
has "two files"
printf '@p0\nACGT\n+\nIIII\n' > "$TMP/one.fq"
expect 1 "a FASTQ file alone (read as .seq)" wfa "$TMP/one.fq"
has "FASTA/FASTQ input takes two files"
expect 1 "xdrop's TSV given to wfa" wfa "$TMP/good.tsv" "$TMP/t.fa"
has "$TMP/good.tsv:1: record 1: expected a FASTA ('>') or FASTQ ('@') header"
has "gale xdrop's input"
expect 1 "a .seq file given to xdrop" xdrop "$TMP/pairs.seq"
has "$TMP/pairs.seq:1: expected 5 TAB-separated fields"
has "gale wfa reads those"
expect 1 "a FASTA file given to xdrop" xdrop "$TMP/t.fa"
has "gale wfa reads those"

done_checks
