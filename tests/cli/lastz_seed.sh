#!/usr/bin/env bash
# cli-lastz-seed: `gale lastz TARGET QUERY [options]` without --segments (LASTZ's seeding
# and gap-free stages, gale_lastz_seeder_find, then the gapped stage) against Debian's
# `lastz` with the same arguments, byte for byte (the header lines that name the program
# masked), on fresh random homologous pairs (tests/oracle/ydrop_gen.py: repeats, an
# inverted block, soft masking, N runs; the query split into three records), one of them
# longer than 65,536 bases so that LASTZ's diagonal hash has collisions:
#   --nogapped --format=segments under the seeding options (--seed 12of19, 14of22,
#   match<N>, patterns with T; half-weight and overweight seeds on a diverged pair;
#   --transition 0, 1, 2; --step; --xdrop; --hspthresh;
#   --noentropy; --strand; --ambiguous), on one thread and on three over small query windows
#   (GALE_LASTZ_SEED_WINDOW, doc/testing.md); --nogapped in the other formats; the whole run in several
#   formats and options; file actions on both sides ([multiple] on the query: its records
#   seeded as one sequence); a sequence shorter than the seed.
# Then what both refuse (seeds LASTZ cannot index among them), and what gale alone refuses
# (options it does not reproduce yet), with nothing written. Fails (never skips) when lastz is missing.
# Then [multiple] targets (tests/oracle/lastz_multi_gen.py: records of varied lengths, some
# shorter than the seed, homology on both strands and across two records' junction; some
# with [separator=_] too), seeded as lastz seeds the joined records, under the seeding
# options, on one thread and on three, --nogapped and whole runs in several formats, and
# [separator=X] on a one-record target. Then scoring files (--scores) with seeding: A C G T,
# with N, with a c g t and N, with step=, bad_score and fill_score; an N run that a file's N
# scores let an HSP through.
# usage: lastz_seed.sh GALE GENERATOR MULTI_GENERATOR
set -euo pipefail
gale=$1
gen=$2
mgen=$3
. "$(cd "$(dirname "$0")/../common" && pwd)/lastz_cases.sh"
lastz_begin 2 "the reference"
fail=0
total=0
seedopts=("" "--step=3" "--seed=14of22" "--seed=match12" "--notransition" "--transition=2" "--xdrop=300"
          "--hspthresh=2000" "--noentropy" "--seed=1T1T0011101TT111" "--strand=minus"
          "--strand=plus --hspthresh=1500 --noentropy" "--step=25 --seed=match8 --transition" "--seed=111011"
          "--ambiguous=n,60" "--ambiguous=iupac,10,50")
for ((c = 0; c < cases; c++)); do
  s=$((seed + c))
  d=$work/$c
  # the first case long enough for diagonals 65,536 apart (lastz's hash collides there)
  len=$((c == 0 ? 70000 : 12000 + (s % 20000)))
  python3 "$gen" "$s" "$len" "$d"
  lastz_split_query "$d/query.fa" "some description"
  # the seeding's two paths (doc/lastz-seed.md): case 0 LASTZ's loop on one thread, the
  # others three threads over windows of 3,000 query positions (many windows a record)
  win=1048576
  if [ "$c" -eq 0 ]; then gale_only=(--threads=1); else gale_only=(--threads=3); win=3000; fi
  for o in "${seedopts[@]}"; do
    # shellcheck disable=SC2086
    GALE_LASTZ_SEED_WINDOW=$win same_as_lastz "case $c (seed $s, $len bases) --nogapped --format=segments '$o' ${gale_only[*]} window $win" any \
      "$d/target.fa" "$d/query.fa" --nogapped --format=segments $o
  done
  gale_only=()
  # (run time: the other formats and most whole runs on the shorter pairs only)
  if [ "$c" -gt 0 ]; then
    for f in general "general:name1,start1,end1,name2,strand2,start2,end2,score,hspid,identity,cigar" lav axt maf sam softsam rdotplot; do
      same_as_lastz "case $c --nogapped --format=$f" some "$d/target.fa" "$d/query.fa" --nogapped --format="$f"
    done
  fi
  wholeopts=("" "--hspthresh=2500 --seed=match12 --step=2")
  [ "$c" -gt 0 ] && wholeopts+=("--xdrop=500 --ydrop=3000 --gappedthresh=4000" "--notransition --noentropy")
  for o in "${wholeopts[@]}"; do
    for f in "" "general:name1,start1,end1,name2,strand2,start2,end2,score,hspid,cigar" maf; do
      fo=()
      [ -n "$f" ] && fo=(--format="$f")
      # shellcheck disable=SC2086
      same_as_lastz "case $c whole run '$o' format '$f'" some "$d/target.fa" "$d/query.fa" $o "${fo[@]}"
    done
  done
done
d=$work/1
printf 'qry2\nqry0\n' > "$work/names"
while IFS='|' read -r tspec qspec; do
  for o in "--nogapped --format=segments" "--format=general"; do
    # shellcheck disable=SC2086
    same_as_lastz "'$tspec' '$qspec' $o" any "$tspec" "$qspec" $o
  done
done <<EOF
$d/target.fa[unmask]|$d/query.fa
$d/target.fa[2001..9000]|$d/query.fa[subset=$work/names]
$d/target.fa[nickname=T]|$d/query.fa[nickname=Q]
$d/target.fa|$d/query.fa-
$d/target.fa|$d/query.fa[500..3500]
$d/target.fa|$d/query.fa[multiple]
$d/target.fa|$d/query.fa[multi,unmask]
EOF
# a query record shorter than the seed, one of N only, one all lower case: no HSPs there
printf '>t\nACGTACGTTTGACCAGTAGGACCATTAGACCAGGATTACAGATTAGAC\n' > "$work/short_t.fa"
printf '>a\nACGTACGTTTGA\n>b\nNNNNNNNNNNNNNNNNNNNNNNNNNNNN\n>c\nacgtacgtttgaccagtaggaccattag\n' > "$work/short_q.fa"
same_as_lastz "short and masked records" any "$work/short_t.fa" "$work/short_q.fa" --nogapped --format=segments --hspthresh=10
# LASTZ's diagonal hash (65,536 records): a query block found twice in the target, 65,536
# bases apart, lies on two diagonals of one record, and the first extension (the later
# copy: a word's target positions come highest first) blocks the other; lastz reports one
python3 - "$seed" "$work" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
block = "".join(rng.choice("ACGT") for _ in range(3000))
gap = "".join(rng.choice("ACGT") for _ in range(65536 - len(block)))
with open(sys.argv[2] + "/coll_t.fa", "w") as f:
    f.write(">t\n" + block + gap + block + "\n")
with open(sys.argv[2] + "/coll_q.fa", "w") as f:
    f.write(">q\n" + block + "\n")
PY
same_as_lastz "a repeat 65,536 bases apart (hash collision)" some "$work/coll_t.fa" "$work/coll_q.fa" --nogapped --format=segments
# half-weight seeds (one bit a base: purine or pyrimidine) and overweight seeds (over 28 bits:
# the last 1s resolved against the bases at each hit) on a diverged pair (12% transitions,
# 8% random substitutions, 2% indels, soft masking and N runs), so that the resolved bases
# reject hits and the half-weight words hit where full ones would not; on one thread and
# on three over small windows; seeding alone and whole runs
python3 - "$seed" "$work" "$(dirname "$gen")" <<'PY'
import random, sys
sys.path.insert(0, sys.argv[3])
from ydrop_gen import mutate, n_runs, soft_mask, write
rng = random.Random(int(sys.argv[1]))
t = "".join(rng.choice("ACGT") for _ in range(60000))
q = mutate(rng, t, 0.08, 0.02, transition=0.12)
write(sys.argv[2] + "/div_t.fa", "t", soft_mask(rng, t, 8))
write(sys.argv[2] + "/div_q.fa", "q", n_runs(rng, q, 4))
PY
for th in 1 3; do
  gale_only=(--threads=$th)
  for o in "--seed=half14" "--seed=TTT0T0T0TTT00T0T --step=2" "--seed=half20 --notransition" "--seed=match15" \
           "--seed=match15 --transition=2" "--seed=11111111111111T1 --transition=2 --strand=minus" \
           "--seed=111T111T1111T11111 --transition" "--seed=T0T0T0T0T0T0T0T0T0T0T0T0T0T0T0T0T0T0T0T0"; do
    # shellcheck disable=SC2086
    GALE_LASTZ_SEED_WINDOW=3000 same_as_lastz "diverged pair --nogapped --format=segments '$o' threads $th" some \
      "$work/div_t.fa" "$work/div_q.fa" --nogapped --format=segments $o
  done
done
gale_only=()
same_as_lastz "diverged pair whole run --seed=half16" some "$work/div_t.fa" "$work/div_q.fa" --seed=half16 --format=general
same_as_lastz "diverged pair whole run --seed=match15 --transition" some "$work/div_t.fa" "$work/div_q.fa" --seed=match15 \
  --transition --format=maf
# a [multiple] target (with [separator=_] in odd cases): lastz seeds its records joined,
# each after a byte 0, and reports each HSP on its record (doc/lastz-seed.md)
mseedopts=("" "--step=3" "--seed=14of22" "--seed=match12 --step=2" "--transition=2" "--strand=minus"
           "--notransition --xdrop=500" "--seed=1T1T0011101TT111 --hspthresh=2000 --noentropy")
for ((c = 0; c < cases; c++)); do
  s=$((seed + 1000 + c))
  md=$work/m$c
  mkdir -p "$md"
  tspec="$md/mtarget.fa[multiple]"
  if [ $((c % 2)) -eq 1 ]; then
    python3 "$mgen" "$s" "$md" _
    tspec="$md/mtarget.fa[multiple,separator=_]"
  else
    python3 "$mgen" "$s" "$md"
  fi
  win=1048576
  if [ "$c" -eq 0 ]; then gale_only=(--threads=1); else gale_only=(--threads=3); win=700; fi
  for o in "${mseedopts[@]}"; do
    # shellcheck disable=SC2086
    # (at least two HSPs with the default seeding: the generator's homology gives several)
    chk=some
    [ -z "$o" ] && chk=2
    GALE_LASTZ_SEED_WINDOW=$win same_as_lastz "multi case $c (seed $s) '$tspec' --nogapped --format=segments '$o' ${gale_only[*]}" $chk \
      "$tspec" "$md/mquery.fa" --nogapped --format=segments $o
  done
  gale_only=()
  for f in general sam maf; do
    same_as_lastz "multi case $c --nogapped --format=$f" 2 "$tspec" "$md/mquery.fa" --nogapped --format="$f"
  done
  for o in "" "--hspthresh=2500 --seed=match12 --step=2"; do
    for f in general "general:name1,start1,end1,name2,strand2,start2,end2,score,cigar" maf sam; do
      # shellcheck disable=SC2086
      same_as_lastz "multi case $c whole run '$o' format '$f'" some "$tspec" "$md/mquery.fa" $o --format="$f"
    done
  done
  same_as_lastz "multi case $c a [revcomp] query" some "$tspec" "$md/mquery.fa-" --format=general
  same_as_lastz "multi case $c [unmask] --strand=minus" some "${tspec%]},unmask]" "$md/mquery.fa" --format=general --strand=minus
  for o in "--nogapped --format=segments" "--format=general"; do
    # shellcheck disable=SC2086
    same_as_lastz "multi case $c [separator=X] on one record, $o" some "$md/starget.fa[separator=X]" "$md/mquery.fa" $o
  done
done
# scoring files with seeding: LASTZ's masked set of the file's scores (N keeps its row and
# column where the file labels it), the file's thresholds, x_drop and step
cat > "$work/sc_acgt" <<'SC'
bad_score = X:-1000
fill_score = -100
hsp_threshold = 2500
   A    C    G    T
A  91  -90  -25 -100
C -90  100 -100  -25
G -25 -100  100  -90
T -100 -25  -90   91
SC
cat > "$work/sc_n" <<'SC'
hsp_threshold = 2800
gapped_threshold = 3500
x_drop = 700
   A    C    G    T    N
A  91 -114  -31 -123  -10
C -114 100 -125  -31  -10
G -31 -125  100 -114  -10
T -123 -31 -114   91  -10
N  -10  -10  -10  -10   -5
SC
cat > "$work/sc_step" <<'SC'
step = 4
bad_score = -800
fill_score = -50
   A    C    G    T
A  100 -100  -40 -100
C -100  100 -100  -40
G  -40 -100  100 -100
T -100  -40 -100  100
SC
cat > "$work/sc_lower" <<'SC'
hsp_threshold = 2000
     A    C    G    T    a    c    g    t    N
A   91 -114  -31 -123   40  -50  -10  -60  -20
C -114  100 -125  -31  -50   45  -60  -10  -20
G  -31 -125  100 -114  -10  -60   45  -50  -20
T -123  -31 -114   91  -60  -10  -50   40  -20
a   40  -50  -10  -60   40  -50  -10  -60  -20
c  -50   45  -60  -10  -50   45  -60  -10  -20
g  -10  -60   45  -50  -10  -60   45  -50  -20
t  -60  -10  -50   40  -60  -10  -50   40  -20
N  -20  -20  -20  -20  -20  -20  -20  -20  -20
SC
printf 'seed = 12of19,notransition\n   A    C    G    T\nA  91 -114 -31 -123\nC -114 100 -125 -31\nG -31 -125 100 -114\nT -123 -31 -114 91\n' > "$work/sc_seed"
for sc in sc_acgt sc_n sc_step sc_lower; do
  for o in "" "--step=2 --seed=match12" "--ambiguous=n"; do
    # shellcheck disable=SC2086
    same_as_lastz "--scores=$sc '$o' --nogapped --format=segments" 2 "$d/target.fa" "$d/query.fa" --scores="$work/$sc" \
      --nogapped --format=segments $o
  done
  same_as_lastz "--scores=$sc whole run" some "$d/target.fa" "$d/query.fa" --scores="$work/$sc" --format=general
  same_as_lastz "--scores=$sc [multiple] target" some "$work/m1/mtarget.fa[multiple,separator=_]" "$work/m1/mquery.fa" \
    --scores="$work/$sc" --format=maf
done
same_as_lastz "--scores with seed= and --seed given" some "$d/target.fa" "$d/query.fa" --scores="$work/sc_seed" --seed=14of22 \
  --format=general
# an N run in both: with N among the file's labels one HSP runs through it, else two
python3 - "$seed" "$work" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
a, b = ("".join(rng.choice("ACGT") for _ in range(200)) for _ in range(2))
for n in ("nrun_t", "nrun_q"):
    with open(sys.argv[2] + "/" + n + ".fa", "w") as f:
        f.write(">" + n + "\n" + a + "N" * 10 + b + "\n")
PY
for sc in sc_n sc_acgt; do
  same_as_lastz "an N run in both, --scores=$sc" some "$work/nrun_t.fa" "$work/nrun_q.fa" --scores="$work/$sc" \
    --nogapped --format=segments
done
# both refuse: a seed pattern with a bad character; a query file with no record
both_refuse "--seed=11x1a" "illegal character" "$d/target.fa" "$d/query.fa" --nogapped --seed=11x1a
: > "$work/empty.fa"
both_refuse "an empty query file" "contains no sequence" "$d/target.fa" "$work/empty.fa" --format=general
both_refuse "an empty [multiple] query file" "contains no sequence" "$d/target.fa" "$work/empty.fa[multiple]" --format=segments
# half-weight and overweight seeds refused by both: --transition with a seed of no 1; Ts past
# the 28 index bits with no 1 to resolve them; a half-weight pattern over 63 positions; the
# resolved 1s spread over more than 16 bases
both_refuse "--seed=half20 --transition" "can only be used with strict seeds" "$d/target.fa" "$d/query.fa" \
  --nogapped --seed=half20 --transition
both_refuse "--seed=half29" "more resolving bits \(1\) than it has matches \(0\)" "$d/target.fa" "$d/query.fa" \
  --nogapped --seed=half29
both_refuse "a 64-position half-weight pattern" "cannot have length exceeding 63" "$d/target.fa" "$d/query.fa" \
  --nogapped --seed=T00000000000000000000000000000000000000000000000000000000000000T
both_refuse "resolved 1s over 16 bases" "spread too widely" "$d/target.fa" "$d/query.fa" --nogapped \
  --seed=1T1T1T1T1T1T1T1T1T1T1T1T11
# gale alone refuses what it does not reproduce yet, naming it, writing nothing
gale_refuses() {
  local label=$1 pattern=$2 grc=0
  shift 2
  "$gale" lastz "$@" > "$work/out" 2> "$work/err" || grc=$?
  total=$((total + 1))
  if [ "$grc" -eq 0 ] || [ -s "$work/out" ] || ! grep -qE "$pattern" "$work/err"; then
    echo "FAIL: $label: gale exit $grc: $(cat "$work/err")"
    fail=$((fail + 1))
  fi
}
gale_refuses "a scoring file's seed= with seeding" "sets the seed" "$d/target.fa" "$d/query.fa" --scores="$work/sc_seed" \
  --format=general
gale_refuses "--seed with --segments" "with --segments" "$d/target.fa" "$d/query.fa" --segments=/dev/null --seed=14of22
# lastz lets an extension run through a [multiple] target's separator where an X meets it
# and --xdrop is at least -X score (1000), reporting the HSP past its record's end
printf '>q\nACGTACGTTTGACCAGTAGGXACCATTAGACCAGGATTACAG\n' > "$work/x_q.fa"
gale_refuses "an X against a separator with --xdrop=2000" "cross the separators" "$work/m0/mtarget.fa[multiple]" \
  "$work/x_q.fa" --nogapped --xdrop=2000 --format=general
gale_refuses "an X in the target against a [multiple] query's separator with --xdrop=2000" "cross the separators" \
  "$work/x_q.fa" "$work/m0/mquery.fa[multiple]" --nogapped --xdrop=2000 --format=general
both_refuse "a [multiple] target with lav" "cannot be used with --lav" "$work/m0/mtarget.fa[multiple]" "$work/m0/mquery.fa"
echo "cli-lastz-seed: $total checks, $fail failed"
[ "$fail" -eq 0 ]
