#!/usr/bin/env bash
# gale wfa command line: usage errors exit 2 with a message and the pointer to
# --help (no output, no -o file), --help/--version exit 0, the library's bounds
# are inclusive, --backend cuda without a GPU fails cleanly (exit 1).
#
#   wfa_usage.sh GALE SEQ
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
SEQ=$2

# expect RC NAME ARGS... (lib.sh): exit status RC, nothing on stdout unless RC
# is 0, a "gale: " message on stderr when RC is not 0 (and "Try 'gale wfa
# --help'." for RC 2).
USAGE_HINT="Try 'gale wfa --help'."

# ---- usage errors: exit 2
expect 2 "wfa without input" wfa
expect 2 "wfa with three files" wfa "$SEQ" "$SEQ" "$SEQ"
expect 2 "both inputs from stdin" wfa - -
expect 2 "empty file name" wfa ""
expect 2 "--n-mismatch and --bytes (two policies)" wfa --n-mismatch --bytes "$SEQ"
expect 2 "unknown long option" wfa --frobnicate "$SEQ"
expect 2 "unknown short option" wfa -Z "$SEQ"
expect 2 "an xdrop option" wfa -k 17 "$SEQ"
expect 2 "--mismatch without value" wfa "$SEQ" --mismatch
expect 2 "--mismatch abc" wfa --mismatch abc "$SEQ"
expect 2 "--mismatch 4.5" wfa --mismatch 4.5 "$SEQ"
expect 2 "--mismatch empty" wfa --mismatch= "$SEQ"
expect 2 "--mismatch 0 (library bound)" wfa --mismatch 0 "$SEQ"
expect 2 "--mismatch 4097 (library bound)" wfa --mismatch 4097 "$SEQ"
expect 2 "--gap-open -1 (library bound)" wfa --gap-open -1 "$SEQ"
expect 2 "--gap-extend 0 (library bound)" wfa --gap-extend 0 "$SEQ"
expect 2 "--gap-extend 4097 (library bound)" wfa --gap-extend 4097 "$SEQ"
expect 2 "--gap-open2 without --gap-extend2" wfa --gap-open2 24 "$SEQ"
expect 2 "--gap-extend2 without --gap-open2" wfa --gap-extend2 1 "$SEQ"
expect 2 "--gap-extend2 -1 (library bound)" wfa --gap-open2 24 --gap-extend2 -1 "$SEQ"
expect 2 "--edit with --mismatch" wfa --edit --mismatch 3 "$SEQ"
expect 2 "--gap-open before --edit" wfa --gap-open 3 --edit "$SEQ"
expect 2 "--indel with --mismatch" wfa --indel --mismatch 3 "$SEQ"
expect 2 "--edit with --indel" wfa --edit --indel "$SEQ"
expect 2 "--match with --edit" wfa --match -1 --edit "$SEQ"
expect 2 "--match 1 (library bound)" wfa --match 1 "$SEQ"
expect 2 "--match -4097 (library bound)" wfa --match -4097 "$SEQ"
expect 2 "--linear-penalties with two values" wfa --linear-penalties 0,4 "$SEQ"
expect 2 "--linear-penalties with four values" wfa --linear-penalties 0,4,2,1 "$SEQ"
expect 2 "--linear-penalties with --gap-open" wfa --linear-penalties 0,4,2 --gap-open 3 "$SEQ"
expect 2 "--linear-penalties indel 0 (library bound)" wfa --linear-penalties 0,4,0 "$SEQ"
expect 2 "--affine-penalties x" wfa --affine-penalties 0,4,x,2 "$SEQ"
expect 2 "--affine2p-penalties with five values" wfa --affine2p-penalties 0,4,6,2,24 "$SEQ"
expect 2 "--affine-penalties with --linear-penalties" wfa --affine-penalties 0,4,6,2 --linear-penalties 0,4,2 "$SEQ"
expect 2 "--algorithm unknown" wfa --algorithm gap-convex-wfa "$SEQ"
expect 2 "--algorithm edit-wfa with --indel" wfa --algorithm edit-wfa --indel "$SEQ"
expect 2 "--score-only with SAM" wfa --score-only -F sam "$SEQ"
expect 2 "--score-only with PAF" wfa --score-only --format paf "$SEQ"
expect 2 "--coords with SAM" wfa --coords -F sam "$SEQ"
expect 2 "--format bam" wfa -F bam "$SEQ"
expect 2 "--ends-free with 3 values" wfa --ends-free 1,2,3 "$SEQ"
expect 2 "--ends-free with 5 values" wfa --ends-free 1,2,3,4,5 "$SEQ"
expect 2 "--ends-free with a letter" wfa --ends-free 1,2,3,x "$SEQ"
expect 2 "--ends-free negative" wfa --ends-free -1,0,0,0 "$SEQ"
expect 2 "--ends-free with a blank" wfa --ends-free "1, 2,3,4" "$SEQ"
expect 2 "--ends-free above 2^31-1" wfa --ends-free 2147483648,0,0,0 "$SEQ"
expect 2 "--memory-limit 0" wfa --memory-limit 0 "$SEQ"
expect 2 "--wfa-heuristic unknown" wfa --wfa-heuristic adaptive "$SEQ"
expect 2 "--wfa-heuristic list with an unknown" wfa --wfa-heuristic xdrop,foo "$SEQ"
expect 2 "--wfa-heuristic xdrop with --edit" wfa --edit --wfa-heuristic xdrop "$SEQ"
expect 2 "--wfa-heuristic zdrop with --indel" wfa --wfa-heuristic zdrop --indel "$SEQ"
expect 2 "--wfa-heuristic-parameters without a strategy" wfa --wfa-heuristic-parameters 1,2 "$SEQ"
expect 2 "--wfa-heuristic-parameters with two strategies" wfa --wfa-heuristic xdrop,banded-static --wfa-heuristic-parameters 1,2 "$SEQ"
expect 2 "--wfa-heuristic-parameters: xdrop takes two" wfa --wfa-heuristic xdrop --wfa-heuristic-parameters 1,2,3 "$SEQ"
expect 2 "--wfa-heuristic-parameters: wfa-adaptive takes three" wfa --wfa-heuristic wfa-adaptive --wfa-heuristic-parameters 1,2 "$SEQ"
expect 2 "--wfa-heuristic-parameters: negative x-drop" wfa --wfa-heuristic xdrop --wfa-heuristic-parameters -1,2 "$SEQ"
expect 2 "--wfa-xdrop above 2^30 (library bound)" wfa --wfa-xdrop 1073741825 "$SEQ"
expect 2 "--wfa-band-min-k below -2^30 (library bound)" wfa --wfa-band-min-k -1073741825 "$SEQ"
expect 2 "--wfa-steps-between-cutoffs -1" wfa --wfa-steps-between-cutoffs -1 "$SEQ"
expect 2 "--memory-limit above 2^20 (library bound)" wfa --memory-limit 1048577 "$SEQ"
expect 2 "--backend gpu" wfa --backend gpu "$SEQ"
expect 2 "--threads -1" wfa --threads -1 "$SEQ"
expect 2 "--threads 5000 (library bound)" wfa --threads 5000 "$SEQ"
expect 2 "--device -1" wfa --device -1 "$SEQ"
expect 2 "--batch-size 0" wfa --batch-size 0 "$SEQ"
expect 2 "--batch-bases 0" wfa --batch-bases 0 "$SEQ"
expect 2 "-o empty" wfa -o "" "$SEQ"
expect 2 "--edit with a value" wfa --edit=1 "$SEQ"
# a usage error wins over a bad input file and writes no -o file
expect 2 "bad option, missing input" wfa --mismatch 0 "$TMP/missing.seq"
expect 2 "bad option with -o" wfa --gap-extend 0 -o "$TMP/never.tsv" "$SEQ"
[ ! -e "$TMP/never.tsv" ] || fail "usage error created the -o file"
! tmp_left "$TMP" || fail "usage error left a temporary file"
pass "usage error: no -o file"

# ---- bounds are inclusive: the extreme legal values are accepted
expect 0 "--mismatch 1 --gap-open 0 --gap-extend 1" wfa -q --mismatch 1 --gap-open 0 --gap-extend 1 "$SEQ"
expect 0 "penalties 4096" wfa -q --mismatch 4096 --gap-open 4096 --gap-extend 4096 "$SEQ"
expect 0 "two-piece 4096" wfa -q --gap-open2 4096 --gap-extend2 4096 "$SEQ"
expect 0 "--gap-extend2 0 (one piece)" wfa -q --gap-open2 0 --gap-extend2 0 "$SEQ"
"$GALE" wfa -q "$SEQ" > "$TMP/a.tsv" && "$GALE" wfa -q --gap-open2 0 --gap-extend2 0 "$SEQ" > "$TMP/b.tsv" ||
    fail "one-piece runs"
same_file "$TMP/a.tsv" "$TMP/b.tsv" "--gap-open2 0 --gap-extend2 0 is the one-piece default"
expect 0 "--ends-free 2^31-1 everywhere" wfa -q --ends-free 2147483647,2147483647,2147483647,2147483647 "$SEQ"
expect 0 "--memory-limit 1" wfa -q --memory-limit 1 "$SEQ"
expect 0 "--wfa-heuristic none" wfa -q --wfa-heuristic none "$SEQ"
expect 0 "--wfa-heuristic banded (align_benchmark's alias)" wfa -q --wfa-heuristic banded --wfa-heuristic-parameters -1073741824,1073741824 "$SEQ"
# (the extreme match scores on one short pair: their transformed penalties make long
# rings, seconds on the example file)
printf '>ACGTTGCA\n<ACGATGCAT\n' > "$TMP/tiny.seq"
expect 0 "--match -4096" wfa -q --match -4096 "$TMP/tiny.seq"
expect 0 "--indel" wfa -q --indel "$SEQ"
expect 0 "--linear-penalties -4096,4096,4096" wfa -q --linear-penalties -4096,4096,4096 "$TMP/tiny.seq"
expect 0 "--affine2p-penalties as align_benchmark" wfa -q --affine2p-penalties -2,4,6,2,24,1 "$SEQ"
for a in indel-wfa edit-wfa gap-linear-wfa gap-affine-wfa gap-affine2p-wfa; do
    expect 0 "--algorithm $a" wfa -q --algorithm "$a" "$SEQ"
done
expect 0 "--memory-limit 1048576" wfa -q --memory-limit 1048576 "$SEQ"
expect 0 "--threads 0" wfa -q --threads 0 "$SEQ"
expect 0 "-o -" wfa -q -o - "$SEQ"
[ -s "$TMP/stdout" ] || fail "-o - writes to stdout"
expect 0 "options after the input" wfa "$SEQ" -q --edit -F paf

# ---- help and version
expect 0 "gale --help lists wfa" --help
grep -q '^  wfa ' "$TMP/stdout" || fail "gale --help does not list wfa"
expect 0 "gale wfa --help" wfa --help
grep -q '^Usage: gale wfa' "$TMP/stdout" || fail "gale wfa --help: no usage on stdout"
for o in --mismatch --gap-open --gap-extend --gap-open2 --gap-extend2 --edit --score-only --ends-free \
         --n-mismatch --bytes --memory-limit --wfa-heuristic --wfa-heuristic-parameters --wfa-min-wavefront-length \
         --wfa-max-distance-threshold --wfa-steps-between-cutoffs --wfa-xdrop --wfa-zdrop --wfa-band-min-k \
         --wfa-band-max-k --format --coords --backend --threads --device --batch-size --batch-bases \
         --output --quiet --help --version; do
    grep -q -- "$o" "$TMP/stdout" || fail "gale wfa --help does not describe $o"
done
grep -q 'Exit status: 0 success, 1 bad input or run failure, 2 usage error' "$TMP/stdout" ||
    fail "gale wfa --help does not give the exit statuses"
pass "gale wfa --help describes every option and the exit statuses"
cp "$TMP/stdout" "$TMP/help1"
expect 0 "gale help wfa" help wfa
same_file "$TMP/help1" "$TMP/stdout" "'gale help wfa' = 'gale wfa --help'"
expect 0 "gale wfa -h (with other options)" wfa --edit -h
expect 0 "gale wfa --version" wfa --version
grep -q '^gale [0-9][0-9.]*$' "$TMP/stdout" || fail "gale wfa --version: no 'gale X.Y.Z' line"

# ---- xdrop is still there
expect 0 "gale xdrop --help" xdrop --help

# ---- --backend cuda: runs where a GPU is usable, fails cleanly where not
"$GALE" --version > "$TMP/version"
NDEV=$(sed -n 's/.*CUDA devices: \([0-9]*\).*/\1/p' "$TMP/version")
[ -n "$NDEV" ] || fail "gale --version does not say how many CUDA devices there are"
if [ "$NDEV" -eq 0 ]; then
    expect 1 "--backend cuda without a GPU" wfa --backend cuda "$SEQ"
    grep -q -i 'cuda' "$TMP/stderr" || fail "--backend cuda failure does not mention cuda"
    expect 1 "--backend cuda without a GPU, with -o" wfa --backend cuda -o "$TMP/cuda.tsv" "$SEQ"
    [ ! -e "$TMP/cuda.tsv" ] || fail "--backend cuda failure created the -o file"
    "$GALE" wfa -q --backend cpu "$SEQ" > "$TMP/cpu.out" || fail "--backend cpu failed"
    "$GALE" wfa -q --backend auto "$SEQ" > "$TMP/auto.out" || fail "--backend auto failed"
    same_file "$TMP/cpu.out" "$TMP/auto.out" "--backend auto falls back to the CPU"
else
    for a in "" "--edit" "--ends-free 30,30,30,30" "--gap-open2 24 --gap-extend2 1" "--score-only"; do
        # shellcheck disable=SC2086
        "$GALE" wfa -q --coords --backend cpu $a "$SEQ" > "$TMP/cpu.out" || fail "--backend cpu $a failed"
        # shellcheck disable=SC2086
        "$GALE" wfa -q --coords --backend cuda $a "$SEQ" > "$TMP/cuda.out" || fail "--backend cuda $a failed with $NDEV device(s)"
        same_file "$TMP/cpu.out" "$TMP/cuda.out" "--backend cuda equals --backend cpu ($NDEV device(s); ${a:-defaults})"
    done
    expect 2 "--device beyond the devices" wfa --backend cuda --device 4096 "$SEQ"
fi

done_checks
