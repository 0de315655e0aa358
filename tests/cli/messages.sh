#!/usr/bin/env bash
# Messages that name the real cause (both subcommands): numbers with junk are
# refused the same way in options and in input files; --threads and --device
# are checked against what the library accepts and what exists.
#
#   messages.sh GALE PAIRS_TSV WFA_SEQ
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
T=$'\t'

# expect RC NAME ARGS... (lib.sh); has WANT: the last stderr holds WANT
has() {
    grep -q -F -- "$1" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "message lacks '$1'"; }
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

done_checks
