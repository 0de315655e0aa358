#!/usr/bin/env bash
# The parallel scheme of LASTZ's gapped extension (doc/ydrop.md, "Parallel extension")
# against the serial walk it replaces, on fresh random homologous pairs with many anchors
# (tests/oracle/ydrop_gen.py; anchors from `lastz --nogapped`, half of the cases with a low
# --hspthresh for more of them) and a target against itself (every extension meets the
# trivial self-alignment): the two-phase path on 1 and 3 threads must write exactly what the
# serial path writes (tests/oracle/ydrop_lastz.sh compares the default path with lastz
# itself), with varied options, a small traceback memory among them. Over the whole run both
# of phase 2's branches must be taken (a precomputed half kept, one redone), or the test
# exercises nothing. Seed printed (GALE_TEST_SEED replays it); GALE_TEST_SCALE scales it.
# usage: ydrop_parallel.sh DRIVER GENERATOR
set -euo pipefail
driver=$1
gen=$2
if ! command -v lastz >/dev/null; then
  echo "FAIL: lastz (Debian package lastz) is not installed: the anchors' source is missing" >&2
  exit 1
fi
seed=${GALE_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
scale=${GALE_TEST_SCALE:-1}
cases=$(python3 -c "print(max(2, int(6 * float('$scale'))))")
echo "GALE_TEST_SEED=$seed cases=$cases"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
optsets=(
  ""
  "--ydrop=3000 --gappedthresh=1500"
  "--allgappedbounds --gappedthresh=5000"
  "--noytrim --ydrop=800"
  "--allocate:traceback=200000"
)
fail=0
total=0
kept=0
redone=0
reruns=0
compare() {  # DIR TARGET QUERY SEGMENTS OPTIONS...
  local d=$1 t=$2 q=$3 seg=$4
  shift 4
  "$driver" "$t" "$q" "$seg" "$@" --gale-serial > "$d/serial.out" 2>/dev/null
  for th in 1 3; do
    total=$((total + 1))
    "$driver" "$t" "$q" "$seg" "$@" --gale-threads=$th --gale-stats > "$d/par.out" 2> "$d/par.err"
    if ! cmp -s "$d/serial.out" "$d/par.out"; then
      fail=$((fail + 1))
      echo "FAIL $d, $th threads, options '$*': $(wc -l < "$d/serial.out") serial lines"
      diff "$d/serial.out" "$d/par.out" | head -6 | cut -c1-200
    fi
    # "(W walked, R redone, ...; K serial reruns)"
    read -r w r k < <(sed -n 's/.*(\([0-9]*\) walked, \([0-9]*\) redone.*; \([0-9]*\) serial reruns).*/\1 \2 \3/p' "$d/par.err")
    kept=$((kept + w - r))
    redone=$((redone + r))
    reruns=$((reruns + k))
  done
}
for ((c = 0; c < cases; c++)); do
  s=$((seed + c))
  read -r len hsp < <(python3 -c "import random; r=random.Random($s); print(r.choice([4000, 9000, 15000]), r.choice([3000, 1500]))")
  d=$work/$c
  python3 "$gen" "$s" "$len" "$d"
  lastz "$d/target.fa" "$d/query.fa" --nogapped --hspthresh="$hsp" --format=segments > "$d/seg" 2>/dev/null
  echo "case $c: seed $s, length $len, $(wc -l < "$d/seg") anchors"
  for o in "${optsets[@]}"; do
    # shellcheck disable=SC2086
    compare "$d" "$d/target.fa" "$d/query.fa" "$d/seg" $o
  done
done
d=$work/0
lastz "$d/target.fa" "$d/target.fa" --nogapped --format=segments > "$d/self.seg" 2>/dev/null
compare "$d" "$d/target.fa" "$d/target.fa" "$d/self.seg"
compare "$d" "$d/target.fa" "$d/target.fa" "$d/self.seg" --notrivial
echo "$((total - fail)) of $total comparisons identical; phase 2 kept $kept precomputed halves, redid $redone; $reruns serial reruns"
if [ "$kept" -eq 0 ] || [ "$redone" -eq 0 ]; then
  echo "FAIL: phase 2 never $([ "$kept" -eq 0 ] && echo kept || echo redid) a half: the comparison exercised one branch only"
  fail=$((fail + 1))
fi
[ "$fail" -eq 0 ]
