#!/usr/bin/env bash
# cli-compare: `gale compare` (gale_compare, doc/compare.md).
#  1. Against the brute-force oracle tests/oracle/compare_ref.py, exactly, on fresh random
#     small pairs (tests/oracle/compare_gen.py small: several records, N runs, lower case,
#     IUPAC letters, inversions, tandem repeats): --format=segments under several option
#     sets, on 1 and 3 threads and with tiny chunks (GALE_COMPARE_CHUNK, doc/testing.md);
#     --format=paf under two.
#  2. Sensitivity against Debian's lastz on a generated 3 Mbp pair (compare_gen.py big: 10%
#     divergence with indels, inversions, replaced blocks): every alignment of `lastz A B`
#     (default options) must be overlapped by a gale fragment on its strand whose A interval
#     overlaps the alignment's and whose diagonal lies in the alignment's diagonal range
#     (its ends' diagonals widened by its indel bases); at least 95% of them.
#  3. Round trip: `gale lastz A B --segments=<gale compare --format=segments>` succeeds and
#     writes alignments.
#  4. --format=general agrees with segments; --dotplot writes well-formed SVG with one line
#     a fragment; refusals name the option or file.
# Seed: GALE_TEST_SEED (else fresh, printed); GALE_TEST_SCALE scales the cases. Fails (never
# skips) when lastz is missing.
# usage: compare.sh GALE ORACLE GENERATOR
set -euo pipefail
gale=$1
ref=$2
gen=$3
# (lastz_begin: seed, scale, cases = max(2, 5 * scale), the work folder; lastz required)
. "$(cd "$(dirname "$0")/../common" && pwd)/lastz_cases.sh"
lastz_begin 5 "the sensitivity reference"
fail=0
total=0

check() {  # check LABEL FILE1 FILE2: the files must be equal
  total=$((total + 1))
  if ! cmp -s "$2" "$3"; then
    echo "FAIL: $1"
    diff "$2" "$3" | head -10 || true
    fail=$((fail + 1))
  fi
}

# 1. the oracle
optsets=("" "-k 16 --xdrop 5 --min-length 20 --min-identity 70"
         "-k 12 --match 2 --mismatch 3 --xdrop 20 --min-length 0 --min-identity 0 --max-occ 3"
         "--strand minus -k 20 --min-length 30" "--strand plus -k 14 --mismatch 0 --xdrop 0"
         "-k 13 --xdrop 0 --min-length 13 --min-identity 100" "-k 24 --match 3 --mismatch 1 --xdrop 40 --min-identity 80")
for ((c = 0; c < cases; c++)); do
  s=$((seed + c))
  d=$work/$c
  python3 "$gen" small "$s" "$d"
  for o in "${optsets[@]}"; do
    # shellcheck disable=SC2086
    python3 "$ref" "$d/A.fa" "$d/B.fa" $o > "$d/ref"
    for t in 1 3; do
      # shellcheck disable=SC2086
      "$gale" compare "$d/A.fa" "$d/B.fa" --format=segments --threads=$t $o > "$d/out" || echo "(gale exit $?)" >> "$d/out"
      check "case $c (seed $s) '$o' threads $t" "$d/ref" "$d/out"
    done
    # shellcheck disable=SC2086
    GALE_COMPARE_CHUNK=7,5 "$gale" compare "$d/A.fa" "$d/B.fa" --format=segments --threads=3 $o > "$d/out" || echo "(gale exit $?)" >> "$d/out"
    check "case $c (seed $s) '$o' tiny chunks" "$d/ref" "$d/out"
  done
  for o in "" "-k 15 --min-length 25"; do
    # shellcheck disable=SC2086
    python3 "$ref" "$d/A.fa" "$d/B.fa" --format paf $o > "$d/ref"
    # shellcheck disable=SC2086
    "$gale" compare "$d/A.fa" "$d/B.fa" --format=paf --threads=2 $o > "$d/out" || echo "(gale exit $?)" >> "$d/out"
    check "case $c (seed $s) paf '$o'" "$d/ref" "$d/out"
  done
done
# edge cases: sequences shorter than a word, a record of N only, case, an empty record
printf '>a\nACGTACGTAC\n' > "$work/short.fa"
printf '>n\nNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN\n>e\n\n>x\nacgtagctagcatcgatcgactagcatcgacgatcagcatcgac\n' > "$work/odd.fa"
printf '>y\nACGTAGCTAGCATCGATCGACTAGCATCGACGATCAGCATCGAC\n' > "$work/up.fa"
# an N run shared by both inside a homology (N against N scores -mismatch: the score
# tells), and a word found exactly three times in A (--max-occ 2 and 3 tell > from >=)
python3 - "$work" <<'PY'
import random, sys
rng = random.Random(17)
r = lambda n: "".join(rng.choice("ACGT") for _ in range(n))
x, y, u = r(60), r(60), r(20)
open(sys.argv[1] + "/nA.fa", "w").write(">nA\n" + x + "NNNNNNNN" + y + "\n")
open(sys.argv[1] + "/nB.fa", "w").write(">nB\n" + r(10) + x + "NNNNNNNN" + y.lower() + r(10) + "\n")
open(sys.argv[1] + "/oA.fa", "w").write(">oA\n" + u + r(30) + u + r(30) + u + r(30) + "\n")
open(sys.argv[1] + "/oB.fa", "w").write(">oB\n" + r(30) + u + r(30) + "\n")
PY
while IFS='|' read -r p1 p2 o; do
  # shellcheck disable=SC2086
  python3 "$ref" "$work/$p1" "$work/$p2" $o > "$work/ref"
  # shellcheck disable=SC2086
  "$gale" compare "$work/$p1" "$work/$p2" $o --format=segments > "$work/out" || echo "(gale exit $?)" >> "$work/out"
  check "edge case $p1 $p2 $o" "$work/ref" "$work/out"
done <<EOF
short.fa|odd.fa|-k 12 --min-length 12
odd.fa|up.fa|-k 12 --min-length 12
up.fa|odd.fa|-k 12 --min-length 12
nA.fa|nB.fa|-k 12 --min-length 12
nA.fa|nB.fa|--xdrop 7
oA.fa|oB.fa|-k 12 --min-length 0 --max-occ 2
oA.fa|oB.fa|-k 12 --min-length 0 --max-occ 3
odd.fa|odd.fa|-k 12 --min-length 12
EOF
[ "$(grep -c . "$work/out")" -ge 2 ] || { echo "FAIL: the edge case odd.fa odd.fa found no fragment"; fail=$((fail + 1)); }

# 2. sensitivity against lastz
b=$work/big
python3 "$gen" big "$seed" 3000000 "$b"
lastz "$b/A.fa" "$b/B.fa" --format=general:name1,strand2,zstart1,end1,zstart2,end2,cigar > "$b/lz" 2>/dev/null
"$gale" compare "$b/A.fa" "$b/B.fa" --format=segments --threads=2 > "$b/seg"
total=$((total + 1))
python3 - "$b/lz" "$b/seg" <<'PY' || fail=$((fail + 1))
import re, sys
frags = []
for line in open(sys.argv[2]):
    if line.startswith("#"):
        continue
    f = line.split("\t")
    s1, e1, s2, st = int(f[1]) - 1, int(f[2]), int(f[4]) - 1, f[6]
    frags.append((st, s1, e1, s1 - s2))
aln = []
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    f = line.rstrip("\n").split("\t")
    st, s1, e1, s2, e2, cig = f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5]), f[6]
    span = sum(int(n) for n, op in re.findall(r"(\d+)([ID])", cig))
    d0, d1 = s1 - s2, e1 - e2
    aln.append((st, s1, e1, min(d0, d1) - span, max(d0, d1) + span))
hit = 0
for st, s1, e1, dlo, dhi in aln:
    if any(fs == st and fa < e1 and fe > s1 and dlo <= d <= dhi for fs, fa, fe, d in frags):
        hit += 1
    else:
        print("  not overlapped: lastz %s %d..%d, diagonals %d..%d" % (st, s1, e1, dlo, dhi))
print("sensitivity: %d of %d lastz alignments overlapped by a gale compare fragment (%.1f%%), %d fragments"
      % (hit, len(aln), 100.0 * hit / max(1, len(aln)), len(frags)))
if not aln or 100 * hit < 95 * len(aln):
    print("FAIL: sensitivity below 95% (or lastz found nothing)")
    sys.exit(1)
PY

# 3. round trip through gale lastz
total=$((total + 1))
if ! "$gale" lastz "$b/A.fa" "$b/B.fa" --segments="$b/seg" --format=general > "$b/rt" 2> "$b/rterr" ||
   [ "$(grep -vc '^#' "$b/rt")" -lt 1 ]; then
  echo "FAIL: gale lastz --segments=<gale compare's segments>: $(head -3 "$b/rterr")"
  fail=$((fail + 1))
fi

# 4. general against segments, the dot plot, refusals
d=$work/0
"$gale" compare "$d/A.fa" "$d/B.fa" -k 14 --format=segments > "$d/seg"
"$gale" compare "$d/A.fa" "$d/B.fa" -k 14 --format=general --dotplot="$d/plot.svg" > "$d/gen"
"$gale" compare "$d/A.fa" "$d/B.fa" -k 14 --format=paf > "$d/paf"
total=$((total + 1))
python3 - "$d/seg" "$d/gen" "$d/plot.svg" "$d/paf" <<'PY' || fail=$((fail + 1))
import sys, xml.etree.ElementTree as ET
seg = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if not l.startswith("#")]
gen = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if not l.startswith("#")]
paf = [l.rstrip("\n").split("\t") for l in open(sys.argv[4])]
bad = len(seg) != len(gen) or len(seg) != len(paf)
for s, g, p in zip(seg, gen, paf):
    # general: score name1 strand1 size1 zstart1 end1 name2 strand2 size2 zstart2 end2
    # identity (lastz's: matches / pairs without an N) ...; its matches are the fragment's
    want = [s[7], s[0], "+", None, str(int(s[1]) - 1), s[2], s[3], s[6], None, str(int(s[4]) - 1), s[5],
            None]
    if any(w is not None and w != x for w, x in zip(want, g)) or g[11].split("/")[0] != p[9]:
        print("FAIL: general line %s against segments %s and PAF %s" % (g, s, p))
        bad = True
        break
root = ET.parse(sys.argv[3]).getroot()
lines = [e for e in root.iter() if e.tag.endswith("line") and e.get("stroke") in ("#1f4fd0", "#d02f1f")]
if len(lines) != len(seg):
    print("FAIL: the dot plot has %d fragment lines, segments %d" % (len(lines), len(seg)))
    bad = True
sys.exit(1 if bad else 0)
PY
refuses() {  # refuses LABEL STATUS PATTERN ARGS...
  local label=$1 want=$2 pattern=$3 rc=0
  shift 3
  "$gale" compare "$@" > "$work/out" 2> "$work/err" || rc=$?
  total=$((total + 1))
  if [ "$rc" -ne "$want" ] || [ -s "$work/out" ] || ! grep -qE -e "$pattern" "$work/err"; then
    echo "FAIL: $label: exit $rc: $(cat "$work/err")"
    fail=$((fail + 1))
  fi
}
refuses "word 11" 2 "--word" "$d/A.fa" "$d/B.fa" --word=11
refuses "word 33" 2 "--word" "$d/A.fa" "$d/B.fa" -k 33
refuses "identity 101" 2 "--min-identity" "$d/A.fa" "$d/B.fa" --min-identity=101
refuses "strand" 2 "--strand" "$d/A.fa" "$d/B.fa" --strand=both2
refuses "format" 2 "--format" "$d/A.fa" "$d/B.fa" --format=sam
refuses "one file" 2 "two files" "$d/A.fa"
refuses "missing file" 1 "$work/nope.fa" "$d/A.fa" "$work/nope.fa"
: > "$work/empty.fa"
refuses "empty file" 1 "empty.fa" "$work/empty.fa" "$d/B.fa"
echo "cli-compare: $total checks, $fail failed"
[ "$fail" -eq 0 ]
