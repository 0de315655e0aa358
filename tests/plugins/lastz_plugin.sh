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
if ! command -v lastz >/dev/null; then
  echo "FAIL: lastz (Debian package lastz) is not installed: the reference is missing" >&2
  exit 1
fi
seed=${GALE_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
scale=${GALE_TEST_SCALE:-1}
cases=$(python3 -c "print(max(2, int(3 * float('$scale'))))")
echo "GALE_TEST_SEED=$seed cases=$cases"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fields=score,name1,zstart1,end1,name2,strand2,zstart2,end2,cigar
fail=0
total=0
for ((c = 0; c < cases; c++)); do
  s=$((seed + c))
  d=$work/$c
  python3 "$gen" "$s" 6000 "$d"
  python3 - "$d/query.fa" <<'PY'
import sys
p = sys.argv[1]
seq = "".join(l.strip() for l in open(p) if not l.startswith(">"))
k = len(seq) // 3
with open(p, "w") as f:
    for i, part in enumerate([seq[:k], seq[k:2 * k], seq[2 * k:]]):
        f.write(">qry%d\n" % i)
        for j in range(0, len(part), 70):
            f.write(part[j:j + 70] + "\n")
PY
  lastz "$d/target.fa" "$d/query.fa" --nogapped --format=segments > "$d/seg" 2>/dev/null
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
