#!/usr/bin/env bash
# gale graph-align: GAF output on a small graph, GFA input checks (malformed lines,
# reverse-strand links and cycles refused naming their line), usage errors, and a
# graph written by Debian's spoa (-r 3) where SPOA is given.
#
#   graph_align.sh GALE [SPOA]
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
SPOA=${2:-}
USAGE_HINT="gale graph-align --help"

T=$(printf '\t')
gfa() { # FILE LINE...: one GFA line per argument, fields separated by spaces there
    local f=$1
    shift
    : > "$f"
    for l in "$@"; do printf '%s\n' "$l" | tr ' ' '\t' >> "$f"; done
}

# A diamond a -> (b | c) -> d, links before and after their segments, both overlaps.
gfa "$TMP/g.gfa" "H VN:Z:1.0" "L a + b + 0M" "S a ACGT" "S b GG" "S c TT" "S d CA" "L a + c + OM" \
    "L b + d + 0M" "L c + d + OM" "P p a+,b+,d+ *"
printf '>r1 first read\nACGTGGCA\n>r2\nACGTTTCA\n>r3\nGTTTC\n>r4\n\n' > "$TMP/r.fa"
printf '@r1\nACGTGGCA\n+\nIIIIIIII\n' > "$TMP/r.fq"

expect 0 "global" graph-align -l 1 "$TMP/g.gfa" "$TMP/r.fa"
cat > "$TMP/want" <<EOF2
r1${T}8${T}0${T}8${T}+${T}>a>b>d${T}8${T}0${T}8${T}8${T}8${T}255${T}AS:i:40${T}cg:Z:8=
r2${T}8${T}0${T}8${T}+${T}>a>c>d${T}8${T}0${T}8${T}8${T}8${T}255${T}AS:i:40${T}cg:Z:8=
EOF2
head -2 "$TMP/stdout" > "$TMP/got"
same_file "$TMP/got" "$TMP/want" "global: paths through both branches"
[ "$(wc -l < "$TMP/stdout")" -eq 4 ] || fail "global: 4 GAF lines expected"
grep -q "^r4${T}0${T}0${T}0${T}\*${T}\*" "$TMP/stdout" || fail "an empty read: '*' strand and path"
pass "an empty read is written unaligned"

expect 0 "local, a piece starting inside a segment" graph-align "$TMP/g.gfa" "$TMP/r.fa"
grep -q "^r3${T}5${T}0${T}5${T}+${T}>a>c>d${T}8${T}2${T}7${T}5${T}5${T}255${T}AS:i:25${T}cg:Z:5=" "$TMP/stdout" ||
    { cat "$TMP/stdout" >&2; fail "local: r3's path offsets"; }
pass "local: path start and end inside segments"

expect 0 "FASTQ reads" graph-align -l 1 "$TMP/g.gfa" "$TMP/r.fq"
head -1 "$TMP/want" > "$TMP/want1"
same_file "$TMP/stdout" "$TMP/want1" "FASTQ: the same line as FASTA"

# Refused graphs: each message names the file and the line.
bad() { # NAME LINE_NO GREP_TEXT GFA_LINE...
    local name=$1 line=$2 text=$3
    shift 3
    gfa "$TMP/bad.gfa" "$@"
    expect 1 "$name" graph-align "$TMP/bad.gfa" "$TMP/r.fa"
    grep -q -F "bad.gfa:$line: " "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$name: line $line not named"; }
    grep -q -F "$text" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$name: message lacks '$text'"; }
    pass "$name: names line $line"
}
bad "reverse link (to)" 3 "reverse strand" "S a AC" "S b GT" "L a + b - 0M"
bad "reverse link (from)" 4 "bidirected" "S a AC" "S b GT" "L a + b + 0M" "L b - a + 0M"
bad "cycle" 5 "b -> a closes a cycle" "S a AC" "S b GT" "S c T" "L a + b + 0M" "L b + a + 0M" "L b + c + 0M"
bad "self loop" 3 "a -> a closes a cycle" "S a AC" "S b GT" "L a + a + 0M"
bad "longer cycle" 6 "c -> a closes a cycle" "S a AC" "S b GT" "S c T" "L a + b + 0M" "L b + c + 0M" "L c + a + 0M"
bad "S without sequence" 2 "malformed S line" "S a AC" "S b"
bad "S with '*'" 1 "no sequence" "S a *"
bad "duplicate segment" 3 "defined twice (first on line 1)" "S a AC" "S b G" "S a T"
bad "L with 5 fields" 3 "malformed L line" "S a AC" "S b G" "L a + b +"
bad "bad orientation" 3 "orientation x is not + or -" "S a AC" "S b G" "L a x b + 0M"
bad "unsupported overlap" 3 "overlap 2M is not supported" "S a AC" "S b G" "L a + b + 2M"
bad "unknown segment" 2 "no segment named z" "S a AC" "L a + z + 0M"
bad "record type of two letters" 2 "malformed line" "S a AC" "SX a"
bad "byte outside ASCII" 1 "not printable ASCII" $'S a A\001C'
gfa "$TMP/empty.gfa" "H VN:Z:1.0"
expect 1 "no segments" graph-align "$TMP/empty.gfa" "$TMP/r.fa"

# Reads: a bad byte names the read's line.
# (Reads are written as they are aligned: the lines of the reads before it stay.)
printf '>bad\nAC GT\n>ok\nACGT\n' > "$TMP/badr.fa"
expect 1 "read with a blank" graph-align "$TMP/g.gfa" "$TMP/badr.fa"
grep -q -F "badr.fa:1: read: byte 0x20 at position 2" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "bad read: line not named"; }
pass "bad read: its header's line named"

# Usage.
expect 2 "missing reads" graph-align "$TMP/g.gfa"
expect 2 "-l 3" graph-align -l 3 "$TMP/g.gfa" "$TMP/r.fa"
expect 2 "-g 1" graph-align -g 1 "$TMP/g.gfa" "$TMP/r.fa"
expect 0 "--help" graph-align --help

# A graph written by Debian's spoa (S per base, L lines with OM, P lines).
if [ -n "$SPOA" ]; then
    printf '>s1\nACGTACGTTGCAAGTCCGATAGGCTTACG\n>s2\nACGTACCTTGCAAGTCGATAGGCTTTACG\n>s3\nACGAACGTTGCAGTCCGATAGGCTTACG\n' > "$TMP/w.fa"
    "$SPOA" -r 3 "$TMP/w.fa" > "$TMP/spoa.gfa" || fail "spoa -r 3"
    expect 0 "spoa's GFA" graph-align -l 2 "$TMP/spoa.gfa" "$TMP/w.fa"
    [ "$(wc -l < "$TMP/stdout")" -eq 3 ] || fail "spoa's GFA: 3 GAF lines expected"
    awk -F'\t' '$3 != 0 || $4 != $2 || $10 != $2 { exit 1 }' "$TMP/stdout" ||
        { cat "$TMP/stdout" >&2; fail "spoa's GFA: each sequence of the graph aligns whole, all matches"; }
    pass "spoa's GFA: each of its sequences aligns to its own path"
fi
done_checks
