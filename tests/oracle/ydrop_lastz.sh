#!/usr/bin/env bash
# Oracle: gale's LASTZ gapped extension (lib/cpu/ydrop.cpp, through the ydrop_lastz driver)
# against Debian's lastz 1.04.22 on fresh random homologous pairs (tests/oracle/ydrop_gen.py:
# repeats, indels, an inversion, a duplicated block, soft-masked stretches, N runs). Anchors
# come from `lastz --nogapped --format=segments`; then `lastz --segments=FILE` and gale read
# the same anchors with default and varied gap penalties, ydrop, gappedthresh, --noytrim,
# --allgappedbounds and a small --allocate:traceback (LASTZ's truncation), and their outputs
# (score, both intervals, strands, sizes, CIGAR of every alignment, in order) must be equal
# byte for byte. Seed printed (GALE_TEST_SEED replays it); GALE_TEST_SCALE scales the cases.
# usage: ydrop_lastz.sh DRIVER GENERATOR
set -euo pipefail
driver=$1
gen=$2
. "$(cd "$(dirname "$0")/../common" && pwd)/lastz_cases.sh"
lastz_begin 24 "the oracle"
fmt=general-:score,name1,strand1,size1,zstart1,end1,name2,strand2,size2,zstart2,end2,cigar,hspid
# option sets: default, then variations (each applied to every case)
optsets=(
  ""
  "--ydrop=3000"
  "--gappedthresh=1500"
  "--gap=300,20"
  "--gap=600,50 --ydrop=20000"
  "--noytrim"
  "--allgappedbounds"
  "--allgappedbounds --gappedthresh=5000 --ydrop=1500"
  "--noytrim --ydrop=800 --gappedthresh=1000"
  "--allocate:traceback=200000"
)
fail=0
total=0
for ((c = 0; c < cases; c++)); do
  s=$((seed + c))
  len=$(python3 -c "import random; r=random.Random($s); print(r.choice([300, 1500, 4000, 9000]))")
  d=$work/$c
  python3 "$gen" "$s" "$len" "$d"
  lastz_anchors "$d"
  for o in "${optsets[@]}"; do
    total=$((total + 1))
    # shellcheck disable=SC2086
    lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" $o --format=$fmt > "$d/lastz.out" 2>/dev/null
    # shellcheck disable=SC2086
    "$driver" "$d/target.fa" "$d/query.fa" "$d/seg" $o > "$d/gale.out" 2>/dev/null
    if ! cmp -s "$d/lastz.out" "$d/gale.out"; then
      fail=$((fail + 1))
      echo "FAIL case $c (seed $s, length $len, options '$o'): $(wc -l < "$d/lastz.out") lastz lines"
      diff "$d/lastz.out" "$d/gale.out" | head -6 | cut -c1-200
      if [ -n "${GALE_YDROP_KEEP:-}" ]; then mkdir -p "$GALE_YDROP_KEEP"; cp -r "$d" "$GALE_YDROP_KEEP/case$c"; fi
    fi
  done
done
# identical sequences (target against itself): LASTZ's trivial self-alignment, kept and
# with --notrivial dropped
d=$work/0
lastz "$d/target.fa" "$d/target.fa" --nogapped --format=segments > "$d/self.seg" 2>/dev/null
for o in "" "--notrivial"; do
  total=$((total + 1))
  # shellcheck disable=SC2086
  lastz "$d/target.fa" "$d/target.fa" --segments="$d/self.seg" $o --format=$fmt > "$d/lastz.out" 2>/dev/null
  # shellcheck disable=SC2086
  "$driver" "$d/target.fa" "$d/target.fa" "$d/self.seg" $o > "$d/gale.out" 2>/dev/null
  # the trivial alignment's hspid: lastz writes memory it never set (gapped_extend.c's trivial
  # alignel has no hspId), gale 0; masked on that one line (whole sequences, + strand, one run)
  for f in lastz gale; do
    awk -F'\t' -v OFS='\t' '$5 == 0 && $6 == $4 && $10 == 0 && $11 == $9 && $8 == "+" && $12 == $4 "M" { $13 = "-" } { print }' \
      "$d/$f.out" > "$d/$f.masked" && mv "$d/$f.masked" "$d/$f.out"
  done
  if ! grep -q $'\t-$' "$d/lastz.out" && [ -z "$o" ]; then
    fail=$((fail + 1)); echo "FAIL self-comparison: lastz wrote no trivial alignment (the case is not what it claims)"
  fi
  if ! cmp -s "$d/lastz.out" "$d/gale.out"; then
    fail=$((fail + 1))
    echo "FAIL self-comparison (seed $seed, options '$o')"
    diff "$d/lastz.out" "$d/gale.out" | head -6 | cut -c1-200
  fi
done
echo "$((total - fail)) of $total comparisons identical"
[ "$fail" -eq 0 ]
