#!/usr/bin/env bash
# Malformed input: each broken file makes gale xdrop exit 1 with
# "gale: FILE:LINE: message" on stderr (the right line), nothing on stdout,
# and no -o file (an existing one is left untouched).
#
#   malformed.sh GALE EXAMPLE
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
EXAMPLE=$2

head -n 3 "$EXAMPLE" > "$TMP/head.tsv"
sed -n 4,6p "$EXAMPLE" > "$TMP/tail.tsv"
# a good strand-n and a good strand-c line to break
GOOD_N=$(awk -F'\t' '$5 == "n" { print; exit }' "$EXAMPLE")
GOOD_C=$(awk -F'\t' '$5 == "c" { print; exit }' "$EXAMPLE")
[ -n "$GOOD_N" ] && [ -n "$GOOD_C" ] || fail "example lacks an n or a c pair"

# field I of a line
field() { printf '%s\n' "$1" | cut -f"$2"; }
VN=$(field "$GOOD_N" 1); PVN=$(field "$GOOD_N" 2); HN=$(field "$GOOD_N" 3); PHN=$(field "$GOOD_N" 4)
VC=$(field "$GOOD_C" 1); PVC=$(field "$GOOD_C" 2); HC=$(field "$GOOD_C" 3); PHC=$(field "$GOOD_C" 4)
T=$'\t'

# put_bad NAME LINE: a file with 3 good lines, LINE as line 4, 3 good lines
put_bad() {
    { cat "$TMP/head.tsv"; printf '%s\n' "$2"; cat "$TMP/tail.tsv"; } > "$TMP/$1.tsv"
}

# with a base replaced at position P (0-based)
subst_at() { printf '%s' "${1:0:$2}!${1:$(($2 + 1))}"; }

put_bad fields4   "$VN$T$PVN$T$HN$T$PHN"
put_bad fields6   "$VN$T$PVN$T$HN$T$PHN${T}n${T}extra"
put_bad fields1   "just some text"
put_bad spaces    "$VN $PVN $HN $PHN n"
put_bad posv_alpha "$VN${T}abc$T$HN$T$PHN${T}n"
put_bad posv_tail  "$VN${T}12x$T$HN$T$PHN${T}n"
put_bad posh_neg   "$VN$T$PVN$T$HN${T}-3${T}n"
put_bad posh_plus  "$VN$T$PVN$T$HN${T}+3${T}n"
put_bad posv_empty "$VN${T}$T$HN$T$PHN${T}n"
put_bad posv_huge  "$VN${T}99999999999999999999999$T$HN$T$PHN${T}n"
put_bad posv_int64 "$VN${T}9223372036854775800$T$HN$T$PHN${T}n"
put_bad seedv_past "$VN$T$(( ${#VN} - 16 ))$T$HN$T$PHN${T}n"
put_bad seedh_past "$VN$T$PVN$T$HN$T$(( ${#HN} - 16 ))${T}n"
put_bad seedh_past_c "$VC$T$PVC$T$HC$T$(( ${#HC} - 16 ))${T}c"
put_bad seedv_far  "$VN$T$(( ${#VN} + 100 ))$T$HN$T$PHN${T}n"
put_bad strand_x   "$VN$T$PVN$T$HN$T$PHN${T}x"
put_bad strand_up  "$VN$T$PVN$T$HN$T$PHN${T}N"
put_bad strand_plus "$VN$T$PVN$T$HN$T$PHN${T}+"
put_bad strand_empty "$VN$T$PVN$T$HN$T$PHN$T"
put_bad strand_long "$VN$T$PVN$T$HN$T$PHN${T}nn"
put_bad base_v_n   "$(subst_at "$VN" 5)$T$PVN$T$HN$T$PHN${T}n"
put_bad base_h_n   "$VN$T$PVN$T$(subst_at "$HN" 7)$T$PHN${T}n"
put_bad base_v_c   "$(subst_at "$VC" 9)$T$PVC$T$HC$T$PHC${T}c"
put_bad base_h_c   "$VC$T$PVC$T$(subst_at "$HC" 11)$T$PHC${T}c"
put_bad base_digit "$VN$T$PVN$T${HN:0:3}7${HN:4}$T$PHN${T}n"
put_bad base_space "$VN$T$PVN$T${HN:0:3} ${HN:4}$T$PHN${T}n"
put_bad empty_seqv "$T$PVN$T$HN$T$PHN${T}n"
put_bad empty_line ""
{ cat "$TMP/head.tsv"; printf '%s\n' "$VN$T$PVN$T$HN$T$PHN${T}n" | head -c 2000; printf '\n'; cat "$TMP/tail.tsv"; } > "$TMP/truncated.tsv"
# gzipped: the line number is still right
gzip_to "$TMP/seedh_past.tsv" "$TMP/seedh_past_gz.tsv.gz"

# check_bad NAME FILE [WORD]: exit 1, "FILE:4:" on stderr (and WORD, case-insensitive), no output
check_bad() {
    local name=$1 file=$2 word=${3:-} rc
    rm -f "$TMP/res.out"
    "$GALE" xdrop "$file" > "$TMP/stdout" 2> "$TMP/stderr"
    rc=$?
    [ "$rc" -eq 1 ] || { cat "$TMP/stderr" >&2; fail "$name: exit status $rc, expected 1"; }
    [ ! -s "$TMP/stdout" ] || fail "$name: $(wc -l < "$TMP/stdout") lines written to stdout"
    grep -q -F "gale: $file:4: " "$TMP/stderr" ||
        { cat "$TMP/stderr" >&2; fail "$name: no 'gale: $file:4: ' on stderr"; }
    if [ -n "$word" ]; then
        grep -q -i -F -- "$word" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$name: message lacks '$word'"; }
    fi
    # with -o: no file created, an existing file is kept
    "$GALE" xdrop -o "$TMP/res.out" "$file" > "$TMP/stdout" 2> /dev/null
    rc=$?
    [ "$rc" -eq 1 ] || fail "$name with -o: exit status $rc"
    [ ! -e "$TMP/res.out" ] || fail "$name: -o FILE was created"
    echo keep > "$TMP/res.out"
    "$GALE" xdrop -o "$TMP/res.out" "$file" > /dev/null 2>&1
    [ "$(cat "$TMP/res.out")" = keep ] || fail "$name: an existing -o FILE was changed"
    ! tmp_left "$TMP" || fail "$name: temporary file left behind"
    pass "$name: exit 1, '$(head -n 1 "$TMP/stderr" | cut -c1-110)'"
}

check_bad "4 fields" "$TMP/fields4.tsv" "5"
check_bad "6 fields" "$TMP/fields6.tsv" "5"
check_bad "1 field" "$TMP/fields1.tsv" "5"
check_bad "spaces instead of TABs" "$TMP/spaces.tsv" "fields"
check_bad "posV not a number" "$TMP/posv_alpha.tsv" "posV"
check_bad "posV with trailing junk" "$TMP/posv_tail.tsv" "posV"
check_bad "negative posH" "$TMP/posh_neg.tsv" "posH"
check_bad "posH with a sign" "$TMP/posh_plus.tsv" "posH"
check_bad "empty posV" "$TMP/posv_empty.tsv" "posV"
check_bad "posV out of range" "$TMP/posv_huge.tsv" "range"
check_bad "posV near INT64_MAX" "$TMP/posv_int64.tsv" "posV"
check_bad "seed past the end of V" "$TMP/seedv_past.tsv" "seqV"
check_bad "seed past the end of H" "$TMP/seedh_past.tsv" "seqH"
check_bad "seed past the end of H (strand c)" "$TMP/seedh_past_c.tsv" "seqH"
check_bad "posV beyond V" "$TMP/seedv_far.tsv" "seqV"
check_bad "strand x" "$TMP/strand_x.tsv" "strand"
check_bad "strand N" "$TMP/strand_up.tsv" "strand"
check_bad "strand +" "$TMP/strand_plus.tsv" "strand"
check_bad "empty strand" "$TMP/strand_empty.tsv" "strand"
check_bad "strand nn" "$TMP/strand_long.tsv" "strand"
check_bad "'!' in seqV (strand n)" "$TMP/base_v_n.tsv" ""
check_bad "'!' in seqH (strand n)" "$TMP/base_h_n.tsv" ""
check_bad "'!' in seqV (strand c)" "$TMP/base_v_c.tsv" ""
check_bad "'!' in seqH (strand c)" "$TMP/base_h_c.tsv" "seqH"
check_bad "digit in seqH" "$TMP/base_digit.tsv" ""
check_bad "space in seqH" "$TMP/base_space.tsv" ""
check_bad "empty seqV" "$TMP/empty_seqv.tsv" "seqV"
check_bad "empty line in the middle" "$TMP/empty_line.tsv" "empty"
check_bad "line cut short" "$TMP/truncated.tsv" ""
check_bad "gzipped, seed past the end of H" "$TMP/seedh_past_gz.tsv.gz" "seqH"

# the position of a bad base is reported (0-based position 7 of seqH, strand n;
# position 11 of the given seqH, strand c)
"$GALE" xdrop "$TMP/base_h_c.tsv" 2> "$TMP/stderr" > /dev/null
grep -q -w 11 "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "strand c bad base: position 11 not named"; }
pass "strand c bad base: its position in seqH is named"
"$GALE" xdrop "$TMP/base_h_n.tsv" 2> "$TMP/stderr" > /dev/null
grep -q -w 7 "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "strand n bad base: position 7 not named"; }
pass "strand n bad base: its position is named"

# stdin is named "(stdin)"
"$GALE" xdrop - < "$TMP/strand_x.tsv" > "$TMP/stdout" 2> "$TMP/stderr"
rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$TMP/stdout" ] && grep -q -F "gale: (stdin):4: " "$TMP/stderr" ||
    { cat "$TMP/stderr" >&2; fail "bad line on stdin: rc $rc"; }
pass "bad line on stdin: 'gale: (stdin):4: ...', exit 1"

# a bad line far after the first batch: the input is streamed, so the batches
# before it may be written to stdout - but only whole lines, in order, each
# the line the good input gives (a prefix of its output), and exit 1; with -o
# FILE, nothing at all
{ cat "$EXAMPLE" "$EXAMPLE"; printf '%s\n' "$VN$T$PVN$T$HN$T$PHN${T}q"; } > "$TMP/late.tsv"
LATE=$(( 2 * $(wc -l < "$EXAMPLE") + 1 ))
head -n $(( LATE - 1 )) "$TMP/late.tsv" > "$TMP/good.tsv"
"$GALE" xdrop --batch-size 16 "$TMP/good.tsv" > "$TMP/good.out" 2> /dev/null || fail "the good part alone failed"
"$GALE" xdrop --batch-size 16 "$TMP/late.tsv" > "$TMP/stdout" 2> "$TMP/stderr"
rc=$?
[ "$rc" -eq 1 ] && grep -q -F "gale: $TMP/late.tsv:$LATE: " "$TMP/stderr" ||
    { cat "$TMP/stderr" >&2; fail "bad last line after many batches: rc $rc"; }
n=$(wc -l < "$TMP/stdout")
head -n "$n" "$TMP/good.out" | cmp -s - "$TMP/stdout" && [ "$n" -le $(( LATE - 1 )) ] &&
    { [ ! -s "$TMP/stdout" ] || [ "$(tail -c 1 "$TMP/stdout" | od -An -c | tr -d ' ')" = '\n' ]; } ||
    fail "bad last line after many batches: stdout is not a prefix of whole lines of the good output ($n lines)"
"$GALE" xdrop --batch-size 16 -o "$TMP/never.out" "$TMP/late.tsv" 2> /dev/null && fail "-o FILE: the bad line passed"
[ ! -e "$TMP/never.out" ] || fail "bad last line after many batches: -o FILE was written"
pass "bad line $LATE after many full batches: exit 1, stdout a prefix of the good output ($n of $(( LATE - 1 )) lines), -o FILE not written"

# the reader reads ahead while the context starts (CUDA's start takes ~0.2 s; here
# a test hook slows the CPU context's as much): a bad base at line 4, found by the
# library when its chunk is added, must still be reported before a malformed line
# in a later chunk that the reader parsed first
# (chunks of 8 lines: the malformed line 10 is in chunk 1, read ahead with chunk 0)
{ cat "$TMP/base_h_n.tsv"; head -n 2 "$EXAMPLE"; printf '%s\n' "$VN$T$PVN$T$HN$T$PHN${T}q"; cat "$EXAMPLE"; } \
    > "$TMP/ahead.tsv"
GALE_CLI_TEST_SETUP_DELAY_MS=400 "$GALE" xdrop --batch-size 8 "$TMP/ahead.tsv" > /dev/null 2> "$TMP/stderr"
rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l < "$TMP/stderr")" -eq 1 ] && grep -q -F "gale: $TMP/ahead.tsv:4: " "$TMP/stderr" ||
    { cat "$TMP/stderr" >&2; fail "read ahead: the bad base of line 4 not reported first (rc $rc)"; }
pass "read ahead while the context starts: the first bad line (4, a bad base) is the one reported"

# missing and unreadable input
"$GALE" xdrop "$TMP/does-not-exist.tsv" > "$TMP/stdout" 2> "$TMP/stderr"
rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$TMP/stdout" ] && grep -q "does-not-exist" "$TMP/stderr" ||
    { cat "$TMP/stderr" >&2; fail "missing input: rc $rc"; }
pass "missing input file: exit 1 with a message"
head -c 300 "$TMP/seedh_past_gz.tsv.gz" > "$TMP/cut.gz"
"$GALE" xdrop "$TMP/cut.gz" > "$TMP/stdout" 2> "$TMP/stderr"
rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$TMP/stdout" ] && [ -s "$TMP/stderr" ] ||
    { cat "$TMP/stderr" >&2; fail "truncated gzip: rc $rc"; }
pass "truncated gzip input: exit 1, $(head -n 1 "$TMP/stderr" | cut -c1-100)"

done_checks
