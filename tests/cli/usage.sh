#!/usr/bin/env bash
# Command line handling: usage errors exit 2 (with a message, no output),
# --help/--version exit 0, --backend cuda without a GPU fails cleanly (exit 1).
#
#   usage.sh GALE EXAMPLE
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
EXAMPLE=$2

# expect RC NAME ARGS... (lib.sh): exit status RC, nothing on stdout unless RC
# is 0, a "gale: " message on stderr when RC is not 0.

# ---- usage errors: exit 2
expect 2 "no command"
expect 2 "unknown command" frobnicate "$EXAMPLE"
expect 2 "xdrop without FILE" xdrop
expect 2 "xdrop with two FILEs" xdrop "$EXAMPLE" "$EXAMPLE"
expect 2 "unknown short option" xdrop -Z "$EXAMPLE"
expect 2 "unknown long option" xdrop --frobnicate "$EXAMPLE"
expect 2 "-k without value" xdrop "$EXAMPLE" -k
expect 2 "-k 0" xdrop -k 0 "$EXAMPLE"
expect 2 "-k -5" xdrop -k -5 "$EXAMPLE"
expect 2 "-k abc" xdrop -k abc "$EXAMPLE"
expect 2 "-k 17.5" xdrop -k 17.5 "$EXAMPLE"
expect 2 "-k too large" xdrop -k 99999999999 "$EXAMPLE"
expect 2 "-x not a number" xdrop -x 1e3 "$EXAMPLE"
expect 2 "-x negative (library bound)" xdrop -x -1 "$EXAMPLE"
expect 2 "-x above 2^29 (library bound)" xdrop -x 536870913 "$EXAMPLE"
expect 2 "--gap 0 (library bound)" xdrop --gap 0 "$EXAMPLE"
expect 2 "--gap positive (library bound)" xdrop --gap 2 "$EXAMPLE"
expect 2 "--match above 2^20 (library bound)" xdrop --match 1048577 "$EXAMPLE"
expect 2 "--mismatch below -2^20 (library bound)" xdrop --mismatch -1048577 "$EXAMPLE"
expect 2 "--match without value" xdrop "$EXAMPLE" --match
expect 2 "--match empty" xdrop --match= "$EXAMPLE"
expect 2 "--backend gpu" xdrop --backend gpu "$EXAMPLE"
expect 2 "--threads -1" xdrop --threads -1 "$EXAMPLE"
expect 2 "--threads x" xdrop --threads x "$EXAMPLE"
expect 2 "--threads 5000 (library bound)" xdrop --threads 5000 "$EXAMPLE"
expect 2 "--device -1" xdrop --device -1 "$EXAMPLE"
expect 2 "--device 0,,1" xdrop --device 0,,1 "$EXAMPLE"
expect 2 "--device 0,x" xdrop --device 0,x "$EXAMPLE"
expect 2 "--device 0," xdrop --device 0, "$EXAMPLE"
expect 2 "--device ,0" xdrop --device ,0 "$EXAMPLE"
expect 2 "--device ALL" xdrop --device ALL "$EXAMPLE"
expect 2 "--device with 65 devices" xdrop --device "$(printf '0,%.0s' $(seq 64))0" "$EXAMPLE"
expect 2 "--device-memory with a bad suffix" xdrop --device-memory 5X "$EXAMPLE"
expect 2 "--device-memory under 1M" xdrop --device-memory 1000 "$EXAMPLE"
expect 2 "--batch-size 0" xdrop --batch-size 0 "$EXAMPLE"
expect 2 "-o empty" xdrop -o "" "$EXAMPLE"
expect 2 "--n-mismatch with a value" xdrop --n-mismatch=1 "$EXAMPLE"
expect 2 "--n-mismatch and --bytes (two policies)" xdrop --n-mismatch --bytes "$EXAMPLE"
# a usage error wins over a bad input file and writes no -o file
expect 2 "bad option, missing input" xdrop --gap 0 "$TMP/missing.tsv"
expect 2 "bad option with -o" xdrop --gap 0 -o "$TMP/never.tsv" "$EXAMPLE"
[ ! -e "$TMP/never.tsv" ] || fail "usage error created the -o file"
pass "usage error: no -o file"

# ---- bounds are inclusive: the extreme legal values are accepted
expect 0 "-x 0" xdrop -q -x 0 "$EXAMPLE"
expect 0 "--gap -1048576 --mismatch -1048576 -x 536870912" xdrop -q --gap -1048576 --mismatch -1048576 -x 536870912 "$EXAMPLE"
expect 0 "--match 1048576 on short sequences" xdrop -q --match 1048576 -k 3 <(printf 'ACGTA\t1\tACGTA\t1\tn\n')
# a task the library refuses (GALE_E_LIMIT today: match x length could
# overflow its 32-bit scores) is reported with its line number, exit 1
"$GALE" xdrop --match 1048576 "$EXAMPLE" > "$TMP/stdout" 2> "$TMP/stderr"
rc=$?
if [ "$rc" -eq 0 ]; then
    pass "--match 1048576 on the example: accepted by this library"
else
    [ "$rc" -eq 1 ] && [ ! -s "$TMP/stdout" ] && grep -q -F "gale: $EXAMPLE:1: " "$TMP/stderr" ||
        { cat "$TMP/stderr" >&2; fail "--match 1048576: rc $rc, expected 0, or 1 with 'FILE:1:'"; }
    pass "--match 1048576 on the example: refused with the line number, '$(head -n 1 "$TMP/stderr" | cut -c1-100)'"
fi
expect 0 "--threads 0" xdrop -q --threads 0 "$EXAMPLE"

# ---- help and version
expect 0 "gale --help" --help
grep -q '^Usage: gale' "$TMP/stdout" || fail "gale --help: no usage on stdout"
grep -q 'xdrop' "$TMP/stdout" || fail "gale --help does not list xdrop"
expect 0 "gale -h" -h
expect 0 "gale xdrop --help" xdrop --help
grep -q '^Usage: gale xdrop' "$TMP/stdout" || fail "gale xdrop --help: no usage on stdout"
for o in -k -x --match --mismatch --gap --backend --threads --device --quiet --n-mismatch --bytes -o --version; do
    grep -q -- "$o" "$TMP/stdout" || fail "gale xdrop --help does not describe $o"
done
pass "gale xdrop --help describes every option"
expect 0 "gale xdrop -h (with other options)" xdrop -k 5 -h
expect 0 "gale --version" --version
grep -q '^gale [0-9][0-9.]*$' "$TMP/stdout" || { cat "$TMP/stdout" >&2; fail "gale --version: no 'gale X.Y.Z' line"; }
grep -q '^htslib ' "$TMP/stdout" || fail "gale --version: no htslib line"
expect 0 "gale xdrop --version" xdrop --version

# ---- --backend cuda: runs where a GPU is usable, fails cleanly where not
"$GALE" --version > "$TMP/version"
NDEV=$(sed -n 's/.*CUDA devices: \([0-9]*\).*/\1/p' "$TMP/version")
[ -n "$NDEV" ] || fail "gale --version does not say how many CUDA devices there are"
if [ "$NDEV" -eq 0 ]; then
    expect 1 "--backend cuda without a GPU" xdrop --backend cuda "$EXAMPLE"
    grep -q -i 'cuda' "$TMP/stderr" || fail "--backend cuda failure does not mention cuda"
    expect 1 "--backend cuda without a GPU, with -o" xdrop --backend cuda -o "$TMP/cuda.tsv" "$EXAMPLE"
    [ ! -e "$TMP/cuda.tsv" ] || fail "--backend cuda failure created the -o file"
    # auto falls back to the CPU
    "$GALE" xdrop -q "$EXAMPLE" > "$TMP/cpu.out" || fail "default backend failed"
    "$GALE" xdrop -q --backend auto "$EXAMPLE" > "$TMP/auto.out" || fail "--backend auto failed"
    same_file "$TMP/cpu.out" "$TMP/auto.out" "--backend auto falls back to the CPU"
else
    "$GALE" xdrop -q --backend cpu "$EXAMPLE" > "$TMP/cpu.out" || fail "--backend cpu failed"
    "$GALE" xdrop -q --backend cuda "$EXAMPLE" > "$TMP/cuda.out" || fail "--backend cuda failed with $NDEV device(s)"
    same_file "$TMP/cpu.out" "$TMP/cuda.out" "--backend cuda equals --backend cpu ($NDEV device(s))"
    expect 2 "--device beyond the devices" xdrop --backend cuda --device 4096 "$EXAMPLE"
    expect 2 "--device list with one beyond the devices" xdrop --backend cuda --device 0,4096 "$EXAMPLE"
fi
# the CPU backend ignores --device, a list or all too
"$GALE" xdrop -q --backend cpu --device 0,3 "$EXAMPLE" > "$TMP/cpu.list" || fail "--backend cpu --device 0,3 failed"
"$GALE" xdrop -q --backend cpu --device all "$EXAMPLE" > "$TMP/cpu.all" || fail "--backend cpu --device all failed"
"$GALE" xdrop -q --backend cpu "$EXAMPLE" > "$TMP/cpu.plain" || fail "--backend cpu failed"
same_file "$TMP/cpu.plain" "$TMP/cpu.list" "--backend cpu --device 0,3"
same_file "$TMP/cpu.plain" "$TMP/cpu.all" "--backend cpu --device all"

done_checks
