#!/usr/bin/env bash
# lastz_plugin: plugins/lastz/example.c (gale-lastz.so loaded by name: sequences
# registered once, the anchor table passed, the alignment list printed) against Debian's
# lastz --segments with the same anchors, byte for byte, on fresh random homologous pairs
# (tests/oracle/ydrop_gen.py; the query as three records). The anchors are passed in a
# shuffled order (the plugin groups them by query and strand itself; lastz needs them in
# file order). Also: an anchor outside its sequences is refused naming its index. Fails
# (never skips) when lastz is missing. usage: lastz_plugin.sh EXAMPLE PLUGIN_DIR GENERATOR
set -euo pipefail
example=$1
export GALE_PLUGIN_PATH=$2
gen=$3
. "$(cd "$(dirname "$0")/../common" && pwd)/lastz_cases.sh"
lastz_begin 3 "the reference"
fields=score,name1,zstart1,end1,name2,strand2,zstart2,end2,cigar
fail=0
total=0
for ((c = 0; c < cases; c++)); do
  s=$((seed + c))
  d=$work/$c
  python3 "$gen" "$s" 6000 "$d"
  lastz_split_query "$d/query.fa"
  lastz_anchors "$d"
  lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --format=general-:$fields > "$d/lastz.out"
  grep -v '^#' "$d/seg" | python3 -c "import random,sys; l=sys.stdin.readlines(); random.Random($s).shuffle(l); sys.stdout.writelines(l)" > "$d/shuf.seg"
  total=$((total + 1))
  if ! "$example" "$d/target.fa" "$d/query.fa" "$d/shuf.seg" > "$d/plugin.out"; then
    echo "FAIL case $c (seed $s): the example failed"; fail=$((fail + 1))
  elif ! cmp -s "$d/lastz.out" "$d/plugin.out" || [ "$(grep -c . "$d/lastz.out")" -lt 2 ]; then
    echo "FAIL case $c (seed $s): $(grep -c . "$d/lastz.out") alignments from lastz"
    diff "$d/lastz.out" "$d/plugin.out" | head -4 | cut -c1-200; fail=$((fail + 1))
  fi
done
# an anchor past the query's end: GALE_E_INPUT naming the anchor's index
d=$work/0
printf 'tgt 1 10 qry0 1 10 +\ntgt 1 10 qry1 999999 1000008 -\n' > "$work/bad.seg"
total=$((total + 1))
if "$example" "$d/target.fa" "$d/query.fa" "$work/bad.seg" > /dev/null 2> "$work/err" ||
   ! grep -q "anchor 1: .*outside" "$work/err"; then
  echo "FAIL: an anchor outside the query: $(cat "$work/err")"; fail=$((fail + 1))
fi
echo "$((total - fail)) of $total checks passed"
[ "$fail" -eq 0 ]
