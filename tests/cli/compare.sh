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
#  5. --dotplot=FILE.png: decoded here (python3's zlib and struct) on a pair whose
#     fragments are known from its making; its pixels against doc/compare.md's layout;
#     the same bytes on a second run; --dotplot-format, --dotplot-size and their refusals.
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

# 5. PNG dot plots: a pair whose fragments are known from its making, not from gale's
# output: A = records a1 (1200 bases) and a2 (800), B = one record holding a1[200:600] at
# 100 (a + fragment) and a2[100:500] reverse-complemented at 700 (a - fragment), the rest
# random. The PNG is decoded here (signature, every chunk's CRC, IHDR, the zlib stream,
# the five row filters, the palette); its pixels are checked against doc/compare.md's
# layout: the fragments' lines in their colours, the box black, A's record boundary grey,
# every other pixel white.
p=$work/png
mkdir -p "$p"
python3 - "$seed" "$p" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
r = lambda n: "".join(rng.choice("ACGT") for _ in range(n))
a1, a2 = r(1200), r(800)
rc = a2[100:500][::-1].translate(str.maketrans("ACGT", "TGCA"))
b = list(r(100) + a1[200:600] + r(200) + rc + r(150))
# the flanks mismatch the bases each fragment would extend into, so that no fragment can
# run past its planted copy (a random flank extends an X-drop a few bases by chance)
comp = dict(zip("ACGT", "TGCA"))
avoid = [set() for _ in b]
for t in range(100): avoid[99 - t].add(a1[199 - t])
for t in range(200): avoid[500 + t].add(a1[600 + t]); avoid[699 - t].add(comp[a2[500 + t]])
for t in range(150): avoid[1100 + t].add(comp[a2[99 - t]])
for i, bad in enumerate(avoid):
    if b[i] in bad:
        b[i] = rng.choice([c for c in "ACGT" if c not in bad])
b = "".join(b)
open(sys.argv[2] + "/A.fa", "w").write(">a1\n%s\n>a2\n%s\n" % (a1, a2))
open(sys.argv[2] + "/B.fa", "w").write(">b1\n%s\n" % b)
PY
cat > "$p/check.py" <<'PY'
import struct, sys, zlib
path, size = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
def fail(why):
    print("FAIL: %s: %s" % (path, why))
    sys.exit(1)
if data[:8] != b"\x89PNG\r\n\x1a\n":
    fail("no PNG signature")
pos, chunks = 8, []
while pos < len(data):
    if pos + 12 > len(data):
        fail("a truncated chunk at byte %d" % pos)
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
    if len(body) != n or zlib.crc32(kind + body) & 0xffffffff != crc:
        fail("chunk %s at byte %d: bad CRC or length" % (kind, pos))
    chunks.append((kind, body))
    pos += 12 + n
kinds = [k for k, _ in chunks]
if kinds[0] != b"IHDR" or kinds[-1] != b"IEND" or b"IDAT" not in kinds:
    fail("chunks %s" % kinds)
w, h, depth, ctype, comp, filt, inter = struct.unpack(">IIBBBBB", chunks[0][1])
if (w, h) != (size, size) or depth != 8 or ctype not in (2, 3) or (comp, filt, inter) != (0, 0, 0):
    fail("IHDR %s, expected %d x %d, 8-bit palette or RGB, no interlace" % ((w, h, depth, ctype, comp, filt, inter), size, size))
bpp = 3 if ctype == 2 else 1
raw = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
stride = w * bpp
if len(raw) != h * (stride + 1):
    fail("%d bytes decompressed, expected %d" % (len(raw), h * (stride + 1)))
rows, prev = [], bytearray(stride)
for y in range(h):
    ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if ft == 0: pred = 0
        elif ft == 1: pred = a
        elif ft == 2: pred = b
        elif ft == 3: pred = (a + b) // 2
        elif ft == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
        else: fail("row %d: filter type %d" % (y, ft))
        line[i] = (line[i] + pred) & 0xff
    rows.append(line)
    prev = line
if ctype == 3:
    plte = dict(chunks)[b"PLTE"]
    pal = [tuple(plte[3 * i:3 * i + 3]) for i in range(len(plte) // 3)]
    px = lambda x, y: pal[rows[y][x]]
else:
    px = lambda x, y: tuple(rows[y][3 * x:3 * x + 3])
WHITE, BLACK, GREY, PLUS, MINUS = (255, 255, 255), (0, 0, 0), (128, 128, 128), (0x1f, 0x4f, 0xd0), (0xd0, 0x2f, 0x1f)
# doc/compare.md's layout: an 800-unit square, the box from 60 to 740, joined position p
# of A at x = 60 + 680 p / len(A), of B at y = 60 + 680 p / len(B), pixel floor(u size / 800);
# a base pair at its centre (p + 0.5). A joined: a1, a byte 0, a2 (2001); B: 1250.
la, lb = 1200 + 1 + 800, 1250
pix = lambda u: min(size - 1, max(0, int(u * size // 800)))
X = lambda p: pix(60 + 680 * (p + 0.5) / la)
Y = lambda p: pix(60 + 680 * (p + 0.5) / lb)
lo, hi = pix(60), pix(740)
# the fragments: (A position, B position) of each pair; + along the diagonal, - anti
frags = [(PLUS, [(200 + t, 100 + t) for t in range(400)]),
         (MINUS, [(1201 + 100 + t, 700 + 399 - t) for t in range(400)])]
bad = []
for colour, pairs in frags:
    inner = pairs[40:-40]
    for a, b in inner:  # each base pair's pixel, or one next to it, has the colour
        near = [px(X(a) + i, Y(b) + j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
        if colour not in near:
            bad.append("pair (%d, %d) at pixel (%d, %d): no %s near" % (a, b, X(a), Y(b), colour))
    if len({(X(a), Y(b)) for a, b in inner}) < 20:
        bad.append("too few pixels along a fragment to tell anything")
def dist(x, y, x0, y0, x1, y1):  # from (x, y) to the segment
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / float(dx * dx + dy * dy or 1)))
    return ((x - x0 - t * dx) ** 2 + (y - y0 - t * dy) ** 2) ** 0.5
# the segments widened by 10 base pairs each way (the flanks mismatch, so this is margin;
# a fragment cannot run into them) and by 2 pixels
segs = []
for colour, pairs in frags:
    (a0, b0), (a1, b1) = pairs[0], pairs[-1]
    sa, sb = (a1 - a0) // abs(a1 - a0), (b1 - b0) // abs(b1 - b0)
    segs.append((X(a0 - 10 * sa), Y(b0 - 10 * sb), X(a1 + 10 * sa), Y(b1 + 10 * sb)))
xb = pix(60 + 680 * 1201 / la)  # a2's start: A's record boundary
counts = {}
for y in range(h):
    for x in range(w):
        c = px(x, y)
        counts[c] = counts.get(c, 0) + 1
        on_box = lo <= x <= hi and lo <= y <= hi and (x in (lo, hi) or y in (lo, hi))
        if on_box:
            want = (BLACK,)
        elif x == xb and lo < y < hi:
            want = (GREY,)
        elif any(dist(x, y, *s) <= 2 for s in segs):
            continue
        else:
            want = (WHITE,)
        if c not in want:
            bad.append("pixel (%d, %d) is %s, expected %s" % (x, y, c, want[0]))
            if len(bad) > 10:
                break
    if len(bad) > 10:
        break
if bad:
    fail("; ".join(bad[:10]))
print("%s: %d x %d, %d IDAT chunks, colours %s" % (path, w, h, kinds.count(b"IDAT"), sorted(counts.items())))
PY
for sz in "" 300; do
  total=$((total + 1))
  out=$p/plot$sz.png
  if ! "$gale" compare "$p/A.fa" "$p/B.fa" -o "$p/paf" --dotplot="$out" ${sz:+--dotplot-size=$sz} 2> "$p/err"; then
    echo "FAIL: --dotplot=$out ${sz:+--dotplot-size=$sz}: $(cat "$p/err")"
    fail=$((fail + 1))
  else
    python3 "$p/check.py" "$out" "${sz:-800}" || fail=$((fail + 1))
  fi
done
# the flanks mismatch, so the fragments are exactly the planted copies
printf 'b1\t1250\t100\t500\t+\ta1\t1200\t200\t600\nb1\t1250\t700\t1100\t-\ta2\t800\t100\t500\n' > "$p/planted"
cut -f1-9 "$p/paf" > "$p/paf9"
check "PNG pair: the planted fragments and no others" "$p/planted" "$p/paf9"
# the same bytes again (other threads and chunks); an upper-case extension; any name with
# --dotplot-format; an SVG whose size is --dotplot-size's; -- and the plots' fragment lines
# where the PAF says (one line per fragment, 2 here)
GALE_COMPARE_CHUNK=7,5 "$gale" compare "$p/A.fa" "$p/B.fa" --threads=3 --dotplot="$p/again.PNG" > /dev/null
check "PNG dot plot written twice" "$p/plot.png" "$p/again.PNG"
"$gale" compare "$p/A.fa" "$p/B.fa" --dotplot="$p/noext" --dotplot-format=png > /dev/null
check "--dotplot-format=png on a name without extension" "$p/plot.png" "$p/noext"
"$gale" compare "$p/A.fa" "$p/B.fa" --dotplot="$p/svg.png" --dotplot-format=svg --dotplot-size=300 > /dev/null
total=$((total + 1))
if ! head -3 "$p/svg.png" | grep -q '<svg .* width="300" height="300" viewBox="0 0 800 800"' ||
   [ "$(grep -c 'stroke="#1f4fd0"' "$p/svg.png")" -ne 1 ] || [ "$(grep -c 'stroke="#d02f1f"' "$p/svg.png")" -ne 1 ] ||
   [ "$(grep -c . "$p/paf")" -ne 2 ]; then
  echo "FAIL: --dotplot-format=svg --dotplot-size=300: $(head -3 "$p/svg.png"); PAF: $(cat "$p/paf")"
  fail=$((fail + 1))
fi
# refusals: nothing written, an existing plot left as it was
refuses "dotplot extension" 2 "--dotplot-format" "$p/A.fa" "$p/B.fa" --dotplot="$p/plot.jpg"
refuses "dotplot no extension" 2 "--dotplot-format" "$p/A.fa" "$p/B.fa" --dotplot="$p/plot"
refuses "dotplot format" 2 "--dotplot-format" "$p/A.fa" "$p/B.fa" --dotplot="$p/plot.png" --dotplot-format=gif
refuses "dotplot size 99" 2 "--dotplot-size" "$p/A.fa" "$p/B.fa" --dotplot="$p/plot.png" --dotplot-size=99
refuses "dotplot size 10001" 2 "--dotplot-size" "$p/A.fa" "$p/B.fa" --dotplot="$p/plot.png" --dotplot-size=10001
refuses "dotplot size alone" 2 "--dotplot-size without --dotplot" "$p/A.fa" "$p/B.fa" --dotplot-size=500
refuses "dotplot format alone" 2 "--dotplot-format without --dotplot" "$p/A.fa" "$p/B.fa" --dotplot-format=png
mkdir -p "$p/dir.png"
refuses "dotplot directory" 1 "dir.png: is a directory: --dotplot" "$p/A.fa" "$p/B.fa" --dotplot="$p/dir.png"
cp "$p/plot.png" "$p/keep.png"
refuses "dotplot, missing input" 1 "nope.fa" "$p/A.fa" "$work/nope.fa" --dotplot="$p/plot.png"
check "a failed run leaves the plot as it was" "$p/keep.png" "$p/plot.png"
total=$((total + 1))
if ls "$p" | grep -q '\.tmp\.'; then
  echo "FAIL: temporaries left: $(ls "$p")"
  fail=$((fail + 1))
fi
echo "cli-compare: $total checks, $fail failed"
[ "$fail" -eq 0 ]
