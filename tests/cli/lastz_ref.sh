#!/usr/bin/env bash
# cli-lastz-ref: `gale lastz TARGET QUERY --segments=FILE [options]` against Debian's
# `lastz` with the same arguments, byte for byte, on fresh random homologous pairs
# (tests/oracle/ydrop_gen.py; the query split into several records, so that anchors are
# picked by name and strand), for the formats gale writes (general with its default and
# all its supported fields, general-, cigar, axt, maf, maf-, lav (also as the default,
# without --format), sam, sam-, softsam, softsam-, rdotplot, with the header lines that
# name the program masked) and a spread of gapped options. Also checks
# that bad segments lines are refused with the file and line named. Fails (never skips)
# when lastz is missing. usage: lastz_ref.sh GALE GENERATOR
set -euo pipefail
gale=$1
gen=$2
. "$(cd "$(dirname "$0")/../common" && pwd)/lastz_cases.sh"
lastz_begin 4 "the reference"
fail=0
total=0
# every general field gale writes, then LASTZ's aliases (genpaf.h genpafName, genpafAliases)
fields=score,name1,strand1,size1,start1,zstart1,end1,name2,strand2,size2,start2,zstart2,end2,start2+,zstart2+,end2+,identity,idfrac,id%,coverage,covfrac,cov%,cigar
fields=$fields,number1,number2,length1,length2,align1,text1,align2,text2,nmatch,nmismatch,npair,ncolumn,ngap,cgap,diff
fields=$fields,cigar-,diagonal,blastid%,continuity,confrac,con%,gaprate,number,znumber,NA,nucs1,nucs2,cigarx,cigarx-
fields=$fields,cigarx1,cigarx1-,chore,shingle,phash,ahash,qalign1,qalign2,hspid
fields=$fields,n1,s1,z1,e1,l1,a1,t1,n2,s2,z2,s2+,z2+,e2,e2+,l2,a2,t2,d,diag,s,id,ident,cov,con,gap
# "" is no --format: lastz writes lav, its default
formats=("" lav general "general:$fields" "general-:$fields" cigar axt maf maf- sam sam- softsam softsam- rdotplot segments)
optsets=("" "--ydrop=2000 --gappedthresh=2000" "--gap=300,20 --noytrim" "--allgappedbounds" "--allocate:traceback=150000")
for ((c = 0; c < cases; c++)); do
  s=$((seed + c))
  d=$work/$c
  python3 "$gen" "$s" 6000 "$d"
  # the query as three records (lastz processes them one by one, + then - strand each)
  lastz_split_query "$d/query.fa" "some description"
  lastz_anchors "$d"
  for o in "${optsets[@]}"; do
    for f in "${formats[@]}"; do
      # segments: lastz writes the anchors without gapped extension and refuses gapped
      # options (checked below)
      if [ "$f" = segments ] && [ -n "$o" ] && [ "${o#--allocate}" = "$o" ]; then continue; fi
      # (run time: the variants that only change how the same alignments are written run
      # with the default options only)
      case "$f" in general|general-:*|maf-|sam-|softsam|softsam-|lav) [ -n "$o" ] && continue;; esac
      fo=()
      [ -n "$f" ] && fo=(--format="$f")
      # shellcheck disable=SC2086
      same_as_lastz "case $c (seed $s) options '$o' format '$f'" any "$d/target.fa" "$d/query.fa" --segments="$d/seg" $o "${fo[@]}"
    done
  done
done
d=$work/0
# --strand=minus with plus-strand segments: both refuse
if lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --strand=minus > /dev/null 2>&1 ||
   "$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --strand=minus > /dev/null 2>&1; then
  echo "FAIL: --strand=minus with plus-strand segments was accepted by lastz or gale"; fail=$((fail + 1))
fi
total=$((total + 1))
# LASTZ's file actions on TARGET and QUERY (lastz --help=files) against lastz: nickname
# (both forms; the segments then name the nicknames), subset (a names file with a comment,
# a blank line and a name out of file order, which lastz then never finds), unmask
printf 'qry2 # the last\n\nqry0\nqry1\n' > "$work/names"
grep -v '^#' "$d/seg" | awk -v OFS='\t' '$4 == "qry2"' > "$work/q2.seg"
awk -v OFS='\t' '{$1 = "T"; $4 = "Q"; print}' "$work/q2.seg" > "$work/nick.seg"
while IFS='|' read -r tspec qspec sf; do
  for f in "" general:name1,number1,name2,number2,score,zstart1,end1,text1,text2 maf sam; do
    fo=()
    [ -n "$f" ] && fo=(--format="$f")
    same_as_lastz "'$tspec' '$qspec' format '$f'" some "$tspec" "$qspec" --segments="$work/$sf" "${fo[@]}"
  done
done <<EOF
$d/target.fa[nickname=T]|$d/query.fa[subset=$work/names,nickname=Q]|nick.seg
T::$d/target.fa|Q::$d/query.fa[subset=$work/names]|nick.seg
$d/target.fa[unmask]|$d/query.fa[@$work/names][unmask]|q2.seg
EOF
# --scores=FILE (LASTZ's scoring files, matrices over its DNA alphabets) against lastz: per
# case, random matrices over A C G T, A C G T N, A C G T a c g t or all nine (the rows, when
# labelled, sometimes over A C G T or A C G T N instead), the columns in a random order, rows
# with or without labels (in another order), random settings among LASTZ's names and
# aliases (some with a K/M suffix or a decimal point), x, X, n and N runs put into both
# sequences (a scoring file scores x as fill, lastz's default as X; N by the matrix when it
# has N); every output format of the --scores runs, the command line's --gap, --ydrop and
# --gappedthresh over the file's, and lastz's threshold warning on stderr. Then files lastz
# refuses (a setting twice, a bad value, too few rows) and files gale refuses (quantum DNA:
# an alphabet other than those): exit 2 naming the file. Also --match=R[,P] and --unitscores.
for ((c = 0; c < cases; c++)); do
  d=$work/$c
  python3 - "$((seed + c))" "$d" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
d = sys.argv[2]
for name in ("target", "query"):   # runs of x, X, n, N into every record
    out, head, seq = [], None, []
    def flush():
        if head is None:
            return
        s = list("".join(seq))
        for _ in range(max(1, len(s) // 400)):
            i = rng.randrange(max(1, len(s) - 8))
            ch = rng.choice("xXnN")
            for j in range(i, min(len(s), i + rng.randrange(1, 7))):
                s[j] = ch
        out.append(head + "\n" + "".join(s) + "\n")
    for line in open(f"{d}/{name}.fa"):
        line = line.rstrip("\n")
        if line.startswith(">"):
            flush()
            head, seq = line, []
        else:
            seq.append(line)
    flush()
    open(f"{d}/{name}x.fa", "w").write("".join(out))
for k in range(3):
    lines = ["# scoring file %d" % k]
    settings = [("bad_score", "bad", "X:%d" % rng.randrange(-1500, -200)), ("fill_score", "fill", str(rng.randrange(-300, -10))),
                ("gap_open_penalty", "O", str(rng.randrange(150, 600))), ("gap_extend_penalty", "E", str(rng.randrange(5, 60))),
                ("y_drop", "Y", str(rng.randrange(2000, 12000))), ("gapped_threshold", "L", "%.1fK" % (rng.randrange(15, 40) / 10)),
                ("hsp_threshold", "K", str(rng.randrange(1500, 4000))), ("x_drop", "X", str(rng.randrange(300, 1500))),
                ("step", "Z", "1")]
    for long, short, val in settings:
        if rng.random() < 0.5:
            lines.append("%s = %s%s" % (rng.choice([long, short]), val, rng.choice(["", "   # why"])))
    alphabet = rng.choice(["ACGT", "ACGT", "ACGTN", "ACGTacgt", "ACGTacgtN"])
    cols = rng.sample(alphabet, len(alphabet))
    lines.append("   " + "    ".join(cols))
    labels = rng.random() < 0.5
    ralpha = rng.choice([alphabet, alphabet, "ACGT", "ACGTN"]) if labels else alphabet
    rows = rng.sample(ralpha, len(ralpha)) if labels else cols
    for r in rows:
        vals = [rng.randrange(60, 130) if r == c and r != "N" else rng.randrange(-120, 30) if "N" in (r, c)
                else rng.randrange(-150, -10) for c in cols]
        lines.append((r + " " if labels else "  ") + " ".join("%5d" % v for v in vals))
    open(f"{d}/scores{k}.txt", "w").write("\n".join(lines) + "\n")
PY
  for k in 0 1 2; do
    for o in "" "--gap=350,25 --ydrop=7000 --gappedthresh=2500"; do
      for f in "" general:score,name1,zstart1,end1,name2,strand2,zstart2,end2,identity,cigarx,text1,text2 axt maf segments; do
        [ -n "$o" ] && [ -n "$f" ] && continue
        [ "$f" = segments ] && [ -n "$o" ] && continue
        fo=()
        [ -n "$f" ] && fo=(--format="$f")
        # (the scoring file of a failing case: GALE_TEST_SEED and GALE_KEEP_WORK=1 keep it)
        # shellcheck disable=SC2086
        same_as_lastz "case $c (seed $((seed + c))) --scores=scores$k.txt '$o' format '$f'" warn \
          "$d/targetx.fa" "$d/queryx.fa" --segments="$d/seg" --scores="$d/scores$k.txt" $o "${fo[@]}"
      done
    done
  done
  # --match=R[,P] and --unitscores (lastz's unit scores: its gaps, thresholds and drops
  # derived from R and P), alone and under the command line's gap, ydrop and threshold
  for m in "--match=1,2" "--match=3" "--unitscores" "--match=1,5 --gap=6,1 --noytrim" \
           "--match=2,3 --ydrop=50 --gappedthresh=40" "--match=1.5K,2K"; do
    for f in "" general:score,name1,zstart1,end1,name2,strand2,zstart2,end2,identity,cigarx,diff=~ab\<\> axt maf; do
      fo=()
      [ -n "$f" ] && fo=(--format="$f")
      # shellcheck disable=SC2086
      same_as_lastz "case $c '$m' format '$f'" some "$d/targetx.fa" "$d/queryx.fa" --segments="$d/seg" $m "${fo[@]}"
    done
  done
  # --ambiguous (lastz.c: N, and with iupac the IUPAC codes, scored by ambiguate_n and
  # ambiguate_iupac): on the sequences with N runs, then on copies with IUPAC codes too
  # (either case; the minus strand complements them), anchors from lastz --nogapped there
  python3 - "$((seed + c))" "$d" <<'PY4'
import random, sys
rng = random.Random(int(sys.argv[1]) * 7 + 1)
d = sys.argv[2]
for name in ("target", "query"):
    out = []
    for rec in open(f"{d}/{name}x.fa").read().split(">")[1:]:
        head, seq = rec.split("\n", 1)
        s = list(seq.replace("\n", ""))
        for _ in range(max(1, len(s) // 300)):
            i = rng.randrange(max(1, len(s) - 4))
            for j in range(i, min(len(s), i + rng.randrange(1, 4))):
                s[j] = rng.choice("BDHKMRSVWYbdhkmrsvwyNn")
        out.append(">" + head + "\n" + "".join(s) + "\n")
    open(f"{d}/{name}i.fa", "w").write("".join(out))
PY4
  lastz "$d/targeti.fa" "$d/queryi.fa" --nogapped --format=segments --ambiguous=iupac > "$work/amb.seg" 2>/dev/null
  for m in "--ambiguous=n" "--ambiguous=n,50" "--ambiguous=N,5,60" "--ambiguousn" "--ambig=n,0,0"; do
    for f in general:score,name1,zstart1,end1,name2,strand2,zstart2,end2,identity,cigarx,text2 maf; do
      same_as_lastz "case $c '$m' format '$f'" some "$d/targetx.fa" "$d/queryx.fa" --segments="$d/seg" $m --format="$f"
    done
  done
  for m in "--ambiguous=iupac" "--ambiguous=iupac,100" "--ambiguous=IUPAC,10,150" "--ambig=iupac,-20,0"; do
    for f in general:score,name1,zstart1,end1,name2,strand2,zstart2,end2,identity,cigarx,text2,nucs2 maf sam; do
      same_as_lastz "case $c IUPAC '$m' format '$f'" some "$d/targeti.fa" "$d/queryi.fa" --segments="$work/amb.seg" $m --format="$f"
    done
  done
  # IUPAC codes without --ambiguous=iupac, and a negative penalty: both refuse, gale naming
  # the file and the record
  for m in "" "--ambiguous=n" "--ambiguous=iupac,-5"; do
    # shellcheck disable=SC2086
    both_refuse "case $c IUPAC codes with '$m'" "targeti.fa, >tgt|penalty for --ambiguous=iupac must be non-negative" \
      "$d/targeti.fa" "$d/queryi.fa" --segments="$work/amb.seg" $m
  done
  # without --scores the same sequences score x as X: the files above were not the default
  "$gale" lastz "$d/targetx.fa" "$d/queryx.fa" --segments="$d/seg" --format=general:score > "$work/g.out" 2>/dev/null
  lastz "$d/targetx.fa" "$d/queryx.fa" --segments="$d/seg" --format=general:score > "$work/l.out" 2>/dev/null
  cmp -s "$work/l.out" "$work/g.out" || { echo "FAIL: case $c, x and X without --scores"; fail=$((fail + 1)); }
  total=$((total + 1))
done
d=$work/0
printf 'gap_open = 400\nO = 300\n A C G T\n 1 2 3 4\n 1 2 3 4\n 1 2 3 4\n 1 2 3 4\n' > "$work/twice.txt"
printf 'x_drop = 0\n A C G T\n 1 2 3 4\n 1 2 3 4\n 1 2 3 4\n 1 2 3 4\n' > "$work/xdrop0.txt"
printf 'nosuch = 1\n A C G T\n 1 2 3 4\n 1 2 3 4\n 1 2 3 4\n 1 2 3 4\n' > "$work/name.txt"
printf ' A C G T\n 1 2 3 4\n 1 2 3 4\n 1 2 3 4\n' > "$work/rows3.txt"
printf ' A C G T B\n 1 2 3 4 0\n 1 2 3 4 0\n 1 2 3 4 0\n 1 2 3 4 0\n 0 0 0 0 0\n' > "$work/quantum.txt"
# --match refused as lastz refuses it: no match score, no mismatch penalty, with --scores
for bad in "--match=0" "--match=1,0" "--match=1,-2" "--match=1,2 --scores=$work/name.txt"; do
  lrc=0; grc=0
  # shellcheck disable=SC2086
  lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" $bad > /dev/null 2>&1 || lrc=$?
  # shellcheck disable=SC2086
  "$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" $bad > "$work/out" 2> "$work/err" || grc=$?
  if [ "$grc" -ne 2 ] || [ "$lrc" -eq 0 ] || [ -s "$work/out" ] || ! grep -q "match" "$work/err"; then
    echo "FAIL: $bad: lastz exit $lrc, gale exit $grc: $(cat "$work/err")"; fail=$((fail + 1))
  fi
  total=$((total + 1))
done
for sf in twice xdrop0 name rows3 quantum; do
  lrc=0; grc=0
  lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --scores="$work/$sf.txt" > /dev/null 2>&1 || lrc=$?
  "$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --scores="$work/$sf.txt" > "$work/out" 2> "$work/err" || grc=$?
  if [ "$grc" -ne 2 ] || [ -s "$work/out" ] || ! grep -q "$sf.txt" "$work/err" || [ "$lrc" -eq 0 ]; then
    echo "FAIL: --scores=$sf.txt: lastz exit $lrc, gale exit $grc: $(cat "$work/err")"; fail=$((fail + 1))
  fi
  total=$((total + 1))
done
# 2bit input (tests/common/fa2twobit.py writes the case's FASTA files as 2bit, the query
# big-endian): against lastz on the same files, plain and with file actions; a truncated
# 2bit file, and format=fasta on a 2bit file, are refused naming it
d=$work/0
python3 "$(dirname "$0")/../common/fa2twobit.py" "$d/target.fa" "$work/t.2bit"
python3 "$(dirname "$0")/../common/fa2twobit.py" "$d/query.fa" "$work/q.2bit" big
awk -v OFS='\t' '!/^#/ {$1 = "T"; print}' "$d/seg" > "$work/nick2.seg"
while IFS='|' read -r tspec qspec sf; do
  # (gen: the anchors lastz finds on these specifiers)
  [ "$sf" = gen ] && { sf=$work/gen.seg; lastz "$tspec" "$qspec" --nogapped --format=segments > "$sf" 2>/dev/null; }
  for f in "" general:name1,number1,name2,number2,score,zstart1,end1,zstart2,end2,text1,text2 maf; do
    fo=()
    [ -n "$f" ] && fo=(--format="$f")
    same_as_lastz "2bit '$tspec' '$qspec' format '$f'" some "$tspec" "$qspec" --segments="$sf" "${fo[@]}"
  done
done <<SPECS
$work/t.2bit|$work/q.2bit|$d/seg
$work/t.2bit[unmask]|$work/q.2bit[101..1500]|gen
T::$work/t.2bit[format=2bit]|$work/q.2bit[unmask]|$work/nick2.seg
$d/target.fa|$work/q.2bit|$d/seg
SPECS
head -c 40 "$work/t.2bit" > "$work/short.2bit"
for bad in "$work/short.2bit" "$work/t.2bit[format=fasta]"; do
  rc=0
  "$gale" lastz "$bad" "$work/q.2bit" --segments="$d/seg" > "$work/out" 2> "$work/err" || rc=$?
  if [ "$rc" -ne 1 ] || [ -s "$work/out" ] || ! grep -q "2bit" "$work/err"; then
    echo "FAIL: $bad: exit $rc, $(wc -c < "$work/out") bytes out: $(cat "$work/err")"; fail=$((fail + 1))
  fi
  total=$((total + 1))
done
# FASTQ and nib input (tests/common/fa2other.py writes the case's files so; lastz reading
# them is the check that they are): the query as FASTQ (its qualities in sam's and softsam's
# QUAL, general's quals2 and qalign2, on both strands), the target as FASTQ (quals1, and
# lav's h stanza without '>') and as nib in both byte orders (named from its path and
# range, which a subrange changes), with subsets and subranges; anchors from lastz on the
# same specifiers ("gen") or the case's
conv="$(dirname "$0")/../common/fa2other.py"
python3 "$conv" fastq "$d/query.fa" "$work/q.fq"
python3 "$conv" fastq "$d/target.fa" "$work/t.fq"
python3 "$conv" nib "$d/target.fa" "$work/t.nib"
python3 "$conv" nib-big "$d/target.fa" "$work/tb.nib"
printf 'qry2\n' > "$work/q2.name"
qfields=name1,name2,strand2,zstart2,end2,quals2,qalign2,cigar
while IFS='|' read -r tspec qspec sf; do
  [ "$sf" = gen ] && { sf=$work/gen.seg; lastz "$tspec" "$qspec" --nogapped --format=segments > "$sf" 2>/dev/null; }
  for f in "" sam softsam sam- general:$qfields general:name1,quals1,zstart1,end1 maf; do
    # (quals1 and quals2 need a FASTQ target and query; softsam no query subrange)
    case "$tspec|$f" in *.fq*\|*quals1*) ;; *quals1*) continue;; esac
    case "$qspec|$f" in *.fq*\|*quals2*) ;; *quals2*) continue;; esac
    case "$qspec|$f" in *\[1*softsam) continue;; esac
    fo=()
    [ -n "$f" ] && fo=(--format="$f")
    same_as_lastz "'$tspec' '$qspec' format '$f'" some "$tspec" "$qspec" --segments="$sf" "${fo[@]}"
  done
done <<SPECS
$d/target.fa|$work/q.fq|$d/seg
$work/t.fq|$work/q.fq|$d/seg
$work/t.fq[unmask]|$work/q.fq[subset=$work/q2.name]|$work/q2.seg
$work/t.nib|$work/q.fq|$d/seg
$work/tb.nib[unmask]|$d/query.fa|$d/seg
$work/t.nib[1001..4500]|$work/q.fq[101..1500]|gen
$work/t.nib[nameparse=full,2001..]|$work/q.fq[format=fastq]|gen
SPECS
# a FASTQ target and general's qalign1: lastz writes bytes it never set against the
# target's gaps, gale refuses it; the qualities fields without qualities, format= against
# the file, and malformed FASTQ: lastz and gale both fail
rc=0
"$gale" lastz "$work/t.fq" "$work/q.fq" --segments="$d/seg" --format=general:qalign1 > "$work/out" 2> "$work/err" || rc=$?
total=$((total + 1))
if [ "$rc" -ne 1 ] || [ -s "$work/out" ] || ! grep -q "qalign1" "$work/err"; then
  echo "FAIL: qalign1 with a FASTQ target: exit $rc: $(cat "$work/err")"; fail=$((fail + 1))
fi
printf '@r1\nACGTACGTAC\nGTACG\n+\n!!!!!!!!!!!!!!!\n' > "$work/wrapped.fq"
printf '@r1\nACGTACGTAC\n+r2\n!!!!!!!!!!\n' > "$work/plus.fq"
printf '@r1\nACGTACGTAC\n+\n!!!!!!!!!\n' > "$work/short.fq"
printf '@r1\nACGTACGTAC\n+\n' > "$work/cut.fq"
# (a FASTQ file's subset fails on a name out of order even after its last record, where a
# FASTA file's ends quietly)
for args in "$d/target.fa|$work/q.fq|$d/seg|general:quals1" "$d/target.fa|$d/query.fa|$d/seg|general:name1,quals2" \
            "$d/target.fa|$work/q.fq[subset=$work/names]|$work/q2.seg|general"; do
  IFS='|' read -r tspec qspec sf f <<< "$args"
  same_as_lastz "'$tspec' '$qspec' format '$f'" fail "$tspec" "$qspec" --segments="$sf" --format="$f"
done
# chores= (not with --segments) and quantum (without a quantum scoring file): both refuse,
# gale in lastz's words
printf '%s 1 500 qry0 1 400\n' "$(head -1 "$d/target.fa" | cut -c2- | cut -d' ' -f1)" > "$work/chores"
both_refuse "[chores=] on the query" "can't use \\[chores\\] with --segments" "$d/target.fa" "$d/query.fa[chores=$work/chores]" --segments="$d/seg"
both_refuse "[quantum] on the query" "query is quantum DNA, but column scores are not" "$d/target.fa" "$d/query.fa[quantum]" --segments="$d/seg"
both_refuse "[quantum] on the target" "target is quantum DNA, but row scores are not" "$d/target.fa[quantum]" "$d/query.fa" --segments="$d/seg"
# (gale refuses these before any output, lastz as it meets them: after the general header)
for args in "$d/target.fa[format=nib]|$d/query.fa|clashing" "$work/t.nib[format=fasta]|$d/query.fa|clashing" \
            "$d/target.fa|$d/query.fa[format=fastq]|clashing" "$work/t.nib[nameparse=darkspace]|$d/query.fa|darkspace" \
            "$d/target.fa|$work/wrapped.fq|line 3: bad fastq third line" "$d/target.fa|$work/plus.fq|line 3: fastq third line mismatch" \
            "$d/target.fa|$work/short.fq|line 4: not enough fastq quality" "$d/target.fa|$work/cut.fq|line 3: premature end"; do
  IFS='|' read -r tspec qspec pattern <<< "$args"
  both_refuse "'$tspec' '$qspec'" "$pattern" "$tspec" "$qspec" --segments="$d/seg" --format=general
done
# subranges (start..end, start,end, start.., ..end, start#length[K], center^length[K],
# start..end+zoom%) on the target and on
# every query record, with anchors that lastz --nogapped finds on the same subranges (on
# the whole records' coordinates, as lastz reads them back), in every format
fields=score,name1,size1,zstart1,end1,name2,strand2,size2,zstart2,end2,start2+,end2+,coverage,cigar,text1,text2,nucs1,nucs2
while IFS='|' read -r tspec qspec; do
  lastz "$tspec" "$qspec" --nogapped --format=segments > "$work/sub.seg" 2>/dev/null
  for f in "" general:$fields maf axt cigar sam sam- rdotplot segments; do
    fo=()
    [ -n "$f" ] && fo=(--format="$f")
    same_as_lastz "'$tspec' '$qspec' format '$f'" 2 "$tspec" "$qspec" --segments="$work/sub.seg" "${fo[@]}"
  done
done <<EOF
$d/target.fa[301..4500]|$d/query.fa[101..1500]
$d/target.fa[301,4500]|$d/query.fa[..1500]
$d/target.fa[1001..]|$d/query.fa[201#100000]
$d/target.fa[3001^5000]|$d/query.fa[301..4500+10%]
$d/target.fa[101#4K]|$d/query.fa[2500^4K]
EOF
# [subsample=K/N]: records K, K+N, ... (of those a subset leaves; they keep their numbers),
# on the case's query cut in five records, anchors from lastz --nogapped on the same specifier
python3 - "$d/query.fa" "$work/q5.fa" <<'PY5'
import sys
seq = "".join(l.strip() for l in open(sys.argv[1]) if not l.startswith(">"))
k = len(seq) // 5
with open(sys.argv[2], "w") as f:
    for i in range(5):
        f.write(">q%d\n%s\n" % (i, seq[i * k:(i + 1) * k]))
PY5
printf 'q1\nq3\nq4\n' > "$work/q5.names"
for sub in "subsample=1/2" "subsample=2/3" "subsample=1/1" "subset=$work/q5.names,subsample=1/2" "subsample=2/2,nickname=Q"; do
  lastz "$d/target.fa" "$work/q5.fa[$sub]" --nogapped --format=segments > "$work/ss.seg" 2>/dev/null
  for f in "" general:name2,number2,score,zstart1,end1,zstart2,strand2 maf; do
    fo=()
    [ -n "$f" ] && fo=(--format="$f")
    same_as_lastz "'q5.fa[$sub]' format '$f'" some "$d/target.fa" "$work/q5.fa[$sub]" --segments="$work/ss.seg" "${fo[@]}"
  done
done
# masks ([softmask=], [xmask=], [nmask=], each also keep:FILE): the same intervals on every
# record (a comment, a blank line, words after the interval, one past the end, one
# backwards), after unmask and on a subrange's whole-record positions; anchors from lastz
# --nogapped on the same specifiers; a malformed interval refused by both, naming the line
printf '# masks\n%d %d\n\n%d %d words\n5900 9000\n3000 2990\n' $((seed % 300 + 1)) $((seed % 300 + 400)) \
  $((seed % 700 + 1500)) $((seed % 700 + 1600)) > "$work/mask.txt"
printf '10 2x\n' > "$work/badmask.txt"
while IFS='|' read -r tspec qspec; do
  lastz "$tspec" "$qspec" --nogapped --format=segments > "$work/mk.seg" 2>/dev/null || true
  for f in general:score,zstart1,end1,zstart2,end2,strand2,cigarx,text1,text2 maf; do
    same_as_lastz "masks '$tspec' '$qspec' format '$f'" any "$tspec" "$qspec" --segments="$work/mk.seg" --format="$f"
  done
done <<EOF
$d/target.fa[softmask=$work/mask.txt]|$d/query.fa
$d/target.fa[xmask=$work/mask.txt]|$d/query.fa[nmask=keep:$work/mask.txt]
$d/target.fa[softmask=keep:$work/mask.txt]|$d/query.fa[xmask=keep:$work/mask.txt]
$d/target.fa[unmask,softmask=$work/mask.txt]|$d/query.fa[501..1800,nmask=$work/mask.txt]
EOF
both_refuse "a bad mask interval" "badmask.txt, line 1" "$d/target.fa[softmask=$work/badmask.txt]" "$d/query.fa" \
  --segments="$d/seg"
# the query's reverse complement ([revcomp], a trailing '-', both: forward again; with
# unmask): lastz then takes each record's - strand first and --strand=plus and minus trade
# places; anchors from lastz --nogapped on the same specifier and strand
fields=score,name1,zstart1,end1,name2,strand2,size2,zstart2,end2,cigar,text1,text2,hspid
for spec in "$d/query.fa[revcomp]" "$d/query.fa-" "$d/query.fa[unmask]-" "$d/query.fa[revcomp]-"; do
  for st in both plus minus; do
    lastz "$d/target.fa" "$spec" --strand=$st --nogapped --format=segments > "$work/rc.seg" 2>/dev/null
    for f in "" general:$fields maf sam; do
      fo=()
      [ -n "$f" ] && fo=(--format="$f")
      same_as_lastz "'$spec' --strand=$st format '$f'" some "$d/target.fa" "$spec" --segments="$work/rc.seg" --strand=$st "${fo[@]}"
    done
  done
done
# [multiple] on the target: its records as one partitioned sequence (the case's target cut
# in three records; the query's three records, both strands), anchors from lastz --nogapped
# on the same specifiers, every format lastz takes with it (not lav), on all threads (the
# query strands at once: the default) and on one (formats whose header does not echo the
# options); lav refused by both
python3 - "$d/target.fa" "$work/t3.fa" <<'PY3'
import sys
seq = "".join(l.strip() for l in open(sys.argv[1]) if not l.startswith(">"))
k = len(seq) // 3
with open(sys.argv[2], "w") as f:
    for i, part in enumerate([seq[:k], seq[k:2 * k], seq[2 * k:]]):
        f.write(">tgt%d piece %d\n%s\n" % (i, i, part))
PY3
fields=name1,number1,size1,zstart1,end1,name2,number2,strand2,zstart2,end2,score,cigarx,identity,hspid
for tspec in "$work/t3.fa[multiple]" "$work/t3.fa[unmask][multiple]"; do
  lastz "$tspec" "$d/query.fa" --nogapped --format=segments > "$work/m.seg" 2>/dev/null
  for f in general:$fields maf axt sam cigar segments; do
    for th in 0 1; do
      [ "$th" = 1 ] && { [ "$f" = maf ] || [ "$f" = axt ]; } && continue
      gale_only=()
      [ "$th" = 1 ] && gale_only=(--threads=1)
      same_as_lastz "'$tspec' format '$f' --threads=$th" some "$tspec" "$d/query.fa" --segments="$work/m.seg" --format="$f"
      gale_only=()
    done
  done
done
both_refuse "[multiple] with lav" "multiple action cannot be used with --lav" "$work/t3.fa[multiple]" "$d/query.fa" \
  --segments="$work/m.seg"
# KegAlign's and SegAlign's own command, as their lastz-commands.txt gives it (2bit inputs,
# the target a [multiple] block of records named by a subset file, the query's block by
# another, one strand a run, maf-), with anchors lastz finds on the same specifiers
python3 "$(dirname "$0")/../common/fa2twobit.py" "$work/t3.fa" "$work/ref.2bit"
python3 "$(dirname "$0")/../common/fa2twobit.py" "$d/query.fa" "$work/query.2bit"
printf 'tgt0\ntgt2\n' > "$work/ref_block0.name"
printf 'qry0\nqry2\n' > "$work/query_block0.name"
kt="$work/ref.2bit[nameparse=darkspace][multiple][subset=$work/ref_block0.name]"
kq="$work/query.2bit[nameparse=darkspace][subset=$work/query_block0.name]"
for strand in plus minus; do
  lastz "$kt" "$kq" --nogapped --format=segments --strand=$strand > "$work/k.$strand.segments" 2>/dev/null
  for extra in "" "--ambiguous=iupac --notrivial"; do
    # shellcheck disable=SC2086
    same_as_lastz "KegAlign's command, --strand=$strand $extra" "$([ $strand = plus ] && echo some || echo any)" "$kt" "$kq" --format=maf- --ydrop=9400 \
      --gappedthresh=3000 --strand=$strand $extra --segments="$work/k.$strand.segments"
  done
done
# [multiple] on the query (a one-record target): lastz reads the strand's anchors of all
# its records as one run and reports them in one order by target start; anchors from lastz
# --nogapped on the same specifiers; and the self-comparison of a record with a query that
# holds it, with and without --notrivial (lastz's delayed check for a partitioned query)
mfields=name1,zstart1,end1,name2,strand2,zstart2,end2,score,number2,hspid,cigar
for extra in "" "--strand=minus" "--ydrop=2000 --gappedthresh=2000"; do
  sopt=()
  [ "${extra#--strand}" != "$extra" ] && sopt=("$extra")
  lastz "$d/target.fa" "$d/query.fa[multiple]" --nogapped --format=segments "${sopt[@]}" > "$work/qm.seg" 2>/dev/null
  for f in general:$mfields sam maf cigar segments; do
    [ "$f" = segments ] && [ -n "$extra" ] && [ "${extra#--strand}" = "$extra" ] && continue
    for th in 0 1; do
      [ "$th" = 1 ] && [ "$f" = maf ] && continue # (maf's header echoes the options)
      gale_only=()
      [ "$th" = 1 ] && gale_only=(--threads=1)
      # shellcheck disable=SC2086
      same_as_lastz "'query.fa[multiple]' $extra format '$f' --threads=$th" some "$d/target.fa" "$d/query.fa[multiple]" \
        --segments="$work/qm.seg" --format="$f" $extra
    done
  done
  gale_only=()
done
{ cat "$d/target.fa"; cat "$d/query.fa"; } > "$work/self_q.fa"
lastz "$d/target.fa" "$work/self_q.fa[multiple]" --nogapped --format=segments > "$work/self.seg" 2>/dev/null
for extra in "" --notrivial; do
  # shellcheck disable=SC2086
  same_as_lastz "self, query [multiple] $extra" some "$d/target.fa" "$work/self_q.fa[multiple]" --segments="$work/self.seg" \
    --format=general:$mfields $extra
done
both_refuse "[multiple] query with lav" "multiple action cannot be used with --lav" "$d/target.fa" "$d/query.fa[multiple]" \
  --segments="$work/qm.seg"
# [subset=] names lastz fails on (sequences.c find_next_*_coi): one not in the file, or out
# of its order, fails a 2bit file always, a FASTA file unless the previous name was its last
# record (lastz then stops at the end without looking); the target (read whole) before any
# output, the query after the records found before it. And a one-record target's segments
# may name any target (lastz does not look), a partitioned one's must name its records.
printf 'tgt2\ntgt0\n' > "$work/t.rev.name"
printf 'tgt0\nzz\n' > "$work/t.zz.name"
printf 'tgt0\n' > "$work/t.one.name"
printf 'qry2\nqry0\n' > "$work/q.rev.name"
printf 'qry0\nzz\n' > "$work/q.zz.name"
printf 'zz\n' > "$work/q.none.name"
awk -v OFS='\t' '/^#/ { print; next } { $1 = "elsewhere"; print }' "$work/k.plus.segments" > "$work/k.named.segments"
for tspec in "$kt" "$work/ref.2bit[multiple][subset=$work/t.rev.name]" "$work/t3.fa[multiple][subset=$work/t.rev.name]" \
             "$work/t3.fa[multiple][subset=$work/t.zz.name]" "$work/ref.2bit[subset=$work/t.one.name]" \
             "$work/ref.2bit[multiple][subset=$work/t.one.name]"; do
  for qspec in "$work/query.2bit[subset=$work/q.rev.name]" "$d/query.fa[subset=$work/q.rev.name]" \
               "$d/query.fa[subset=$work/q.zz.name]" "$work/query.2bit[subset=$work/q.none.name]" "$kq"; do
    for sf in k.plus k.named; do
      lrc=0
      lastz "$tspec" "$qspec" --segments="$work/$sf.segments" --format=general > /dev/null 2>&1 || lrc=$?
      same_as_lastz "'$tspec' '$qspec' $sf" "$([ $lrc = 0 ] && echo any || echo fail)" "$tspec" "$qspec" \
        --segments="$work/$sf.segments" --format=general
    done
  done
done
# [separator=C] (forces multiple: each record cut at its runs of C, no alignment crossing
# one): the three-record target with runs of '-' (one, two), and with X (a letter too)
# under [multiple]; anchors from lastz --nogapped on the same specifier
python3 - "$work/t3.fa" "$work/t3s.fa" "$((seed % 97))" <<'PY6'
import sys
recs = open(sys.argv[1]).read().split(">")[1:]
off = int(sys.argv[3])
with open(sys.argv[2], "w") as f:
    for i, r in enumerate(recs):
        head, seq = r.split("\n", 1)
        s = list(seq.replace("\n", ""))
        for p in (len(s) // 3 + off, len(s) // 3 + off + 1, 2 * len(s) // 3 - off):
            s[p] = "-"
        f.write(">" + head + "\n" + "".join(s) + "\n")
PY6
tr -- '-' 'X' < "$work/t3s.fa" > "$work/t3x.fa"
for tspec in "$work/t3s.fa[multiple,separator=-]" "$work/t3x.fa[multiple,separator=X]" "$d/target.fa[separator=A]"; do
  lastz "$tspec" "$d/query.fa" --nogapped --format=segments > "$work/sp.seg" 2>/dev/null
  for f in general:$fields sam segments; do
    same_as_lastz "'$tspec' format '$f'" some "$tspec" "$d/query.fa" --segments="$work/sp.seg" --format="$f"
  done
done
both_refuse "[separator=A] with lav" "multiple action cannot be used with --lav" "$d/target.fa[separator=A]" "$d/query.fa" \
  --segments="$work/sp.seg"
# [multiple] with a subrange or rdotplot (lastz counts on the records joined): refused
for extra in "[multiple,101..500]|general" "[multiple]|rdotplot"; do
  rc=0
  "$gale" lastz "$work/t3.fa${extra%%|*}" "$d/query.fa" --segments="$work/m.seg" --format="${extra#*|}" > "$work/out" 2> "$work/err" || rc=$?
  if [ "$rc" -ne 2 ] || [ -s "$work/out" ] || ! grep -q "multiple" "$work/err"; then
    echo "FAIL: t3.fa$extra: exit $rc: $(cat "$work/err")"; fail=$((fail + 1))
  fi
  total=$((total + 1))
done
# the target's reverse complement: lastz and gale refuse it with --segments
for spec in "$d/target.fa-" "$d/target.fa[revcomp]"; do
  both_refuse "$spec" "reverse-complement of target" "$spec" "$d/query.fa" --segments="$d/seg"
done
# softsam with a query subrange: lastz writes bytes from outside the query (a bug), gale
# refuses (a usage error)
rc=0
"$gale" lastz "$d/target.fa" "$d/query.fa[101..1500]" --segments="$d/seg" --format=softsam > "$work/out" 2> "$work/err" || rc=$?
if [ "$rc" -ne 2 ] || [ -s "$work/out" ] || ! grep -q "subrange" "$work/err"; then
  echo "FAIL: softsam with a query subrange: exit $rc: $(cat "$work/err")"; fail=$((fail + 1))
fi
total=$((total + 1))
# a segment outside the subrange: both refuse (gale naming the line)
rc=0
lastz "$d/target.fa[301..4500]" "$d/query.fa[101..1500]" --nogapped --format=segments > "$work/sub.seg" 2>/dev/null
# one segment moved to target positions 400.. (in 301..1000, outside 1001..4500), whatever
# the random pair's anchors are (they need not fall there)
# (a copy of the first segment, put before it: same record and strand, so in lastz's order)
awk -v OFS='\t' '!/^#/ && !done { line = $0; len = $3 - $2; $2 = 400; $3 = 400 + len; print; done = 1; print line; next }
                 { print }' "$work/sub.seg" > "$work/sub2.seg" && mv "$work/sub2.seg" "$work/sub.seg"
if lastz "$d/target.fa[1001..4500]" "$d/query.fa[101..1500]" --segments="$work/sub.seg" > /dev/null 2>&1; then
  echo "FAIL: lastz took a segment outside the target's subrange (the case is not what it claims)"; fail=$((fail + 1))
fi
"$gale" lastz "$d/target.fa[1001..4500]" "$d/query.fa[101..1500]" --segments="$work/sub.seg" > /dev/null 2> "$work/err" || rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "sub.seg line [0-9]*: segment out of range" "$work/err"; then
  echo "FAIL: a segment outside the subrange: exit $rc: $(cat "$work/err")"; fail=$((fail + 1))
fi
total=$((total + 2))
# record names as lastz parses headers (default: "positions ... of " and "reverse complement
# of " skipped, cut at a blank, '|' or ':', a .fa/.2bit/.nib suffix dropped; nameparse=
# darkspace, alnum, full), anchors from lastz --nogapped on the same specifiers
python3 - "$d/target.fa" "$d/query.fa" "$work/hn" <<'PY2'
import sys
t, q, out = sys.argv[1:]
seq = open(t).read().split("\n", 1)[1]
open(out + "_t.fa", "w").write(">  positions 1-100 of chrT.fa|x:y some words\n" + seq)
names = ["reverse complement of qA:1-5 d", "gi|123|qB.2bit more", "q_C-9.nib\tx"]
recs = open(q).read().split(">")[1:]
with open(out + "_q.fa", "w") as f:
    for n, r in zip(names, recs):
        f.write(">" + n + "\n" + r.split("\n", 1)[1])
PY2
# (nameparse=tag:MARKER: "of " is in the target's header, "|" in one query record's, "zz"
# in none)
for np in "" "[nameparse=darkspace]" "[nameparse=alnum]" "[nameparse=tag:of ]" "[nameparse=tag:|]" "[nameparse=tag:zz]"; do
  lastz "$work/hn_t.fa$np" "$work/hn_q.fa$np" --nogapped --format=segments > "$work/hn.seg" 2>/dev/null
  for f in "" general:name1,name2,score,zstart1,end1 sam; do
    fo=()
    [ -n "$f" ] && fo=(--format="$f")
    same_as_lastz "names, '$np' format '$f'" 2 "$work/hn_t.fa$np" "$work/hn_q.fa$np" --segments="$work/hn.seg" "${fo[@]}"
  done
done
# the other actions (chores and quantum are refused above, as lastz refuses them): a usage
# error naming the action, nothing written
for spec in "[separator=x]" "[separator=ab]" "[multiple,101..500]" "[multiple,revcomp]"; do
  rc=0
  "$gale" lastz "$d/target.fa" "$d/query.fa$spec" --segments="$d/seg" --format=general > "$work/out" 2> "$work/err" || rc=$?
  want=${spec#[}; want=${want%%]}; want=${want%%=*}; want=${want%%,*}
  if [ "$rc" -ne 2 ] || [ -s "$work/out" ] || ! grep -qF "$want" "$work/err"; then
    echo "FAIL: query.fa$spec: exit $rc, $(wc -c < "$work/out") bytes out: $(cat "$work/err")"; fail=$((fail + 1))
  fi
  total=$((total + 1))
done
# --format=segments with a gapped option: both refuse
if lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --format=segments --ydrop=2000 > /dev/null 2>&1 ||
   "$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --format=segments --ydrop=2000 > /dev/null 2>&1; then
  echo "FAIL: --format=segments with --ydrop was accepted by lastz or gale"; fail=$((fail + 1))
fi
total=$((total + 1))
# the same segments with duplicates (merged by lastz for --format=segments), and shuffled:
# lastz reads them in order and stops at the first out of order ("extra segments"); gale
# the same, with the same output before it, naming the line
# (dup: each line twice in a row, the copy without its score: lastz takes it; shuf: the
# second halves of those pairs after all the first ones: lastz refuses; split: each
# segment of 20 bp or more as two overlapping halves on its diagonal, the second scoring 1
# less, which lastz merges back before extending, the hspids shifting as its merge
# leaves them)
grep -v '^#' "$d/seg" | awk -v OFS='\t' '{print; $8 = ""; NF = 7; print}' > "$work/dup.seg"
awk 'NR % 2 == 1' "$work/dup.seg" > "$work/shuf.seg"
awk 'NR % 2 == 0' "$work/dup.seg" >> "$work/shuf.seg"
grep -v '^#' "$d/seg" | awk -v OFS='\t' '$3 - $2 + 1 < 20 { print; next }
  { h = int(($3 - $2 + 1) / 2); print $1, $2, $2 + h + 4, $4, $5, $5 + h + 4, $7, $8
    print $1, $2 + h - 4, $3, $4, $5 + h - 4, $6, $7, $8 - 1 }' > "$work/split.seg"
lrcs=""
for sf in dup split shuf; do
  for f in segments general general:score,zstart1,hspid; do
    lrc=0; grc=0
    lastz "$d/target.fa" "$d/query.fa" --segments="$work/$sf.seg" --format=$f > "$work/l.out" 2>/dev/null || lrc=$?
    "$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$work/$sf.seg" --format=$f > "$work/g.out" 2> "$work/err" || grc=$?
    lrcs="$lrcs $sf:$lrc"
    if ! cmp -s "$work/l.out" "$work/g.out" || [ $((lrc == 0)) -ne $((grc == 0)) ]; then
      echo "FAIL: segments $sf format $f: lastz exit $lrc, gale exit $grc"; { diff "$work/l.out" "$work/g.out" | head -4 || true; }
      fail=$((fail + 1))
    elif [ "$grc" -ne 0 ] && ! grep -q "$sf.seg line [0-9]" "$work/err"; then
      echo "FAIL: segments $sf: the message does not name the line: $(cat "$work/err")"; fail=$((fail + 1))
    fi
    total=$((total + 1))
  done
done
# the cases are what they claim: lastz takes dup and refuses shuf, after some output
case "$lrcs" in " dup:0 dup:0 dup:0 split:0 split:0 split:0 shuf:"[1-9]*" shuf:"[1-9]*" shuf:"[1-9]*) ;; *) echo "FAIL: lastz's exits on dup/shuf:$lrcs"; fail=$((fail + 1));; esac
[ "$(grep -c . "$work/l.out")" -gt 1 ] || { echo "FAIL: no output before the out-of-order line"; fail=$((fail + 1)); }
total=$((total + 2))
# a general field LASTZ does not have: a usage error naming the field, nothing written
for fld in nosuchfield; do
  rc=0
  "$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --format=general:score,$fld > "$work/out" 2> "$work/err" || rc=$?
  if [ "$rc" -ne 2 ] || [ -s "$work/out" ] || ! grep -q "'$fld'" "$work/err"; then
    echo "FAIL: general:score,$fld: exit $rc, $(wc -c < "$work/out") bytes out: $(cat "$work/err")"; fail=$((fail + 1))
  fi
  total=$((total + 1))
done
# malformed segments: refused, naming the file and the line
printf 'tgt 10 20 qry0 10 25 +\n' > "$work/bad.seg"
if "$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$work/bad.seg" --format=general > /dev/null 2> "$work/err"; then
  echo "FAIL: a segment with intervals of different lengths was accepted"; fail=$((fail + 1))
elif ! grep -q "bad.seg line 1" "$work/err"; then
  echo "FAIL: the message does not name the file and line: $(cat "$work/err")"; fail=$((fail + 1))
fi
total=$((total + 1))
# lav really has alignments in it (the comparison above would pass on two empty outputs)
"$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" > "$work/lav" 2>/dev/null || true
if ! grep -q '^a {' "$work/lav" || ! grep -q '^  l ' "$work/lav"; then
  echo "FAIL: gale lastz's default (lav) output has no alignment"; fail=$((fail + 1))
fi
total=$((total + 1))
# an unknown format: a usage error (exit 2) naming it, nothing written
rc=0
"$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --format=nosuch > "$work/out" 2> "$work/err" || rc=$?
if [ "$rc" -ne 2 ] || [ -s "$work/out" ] || ! grep -q "nosuch" "$work/err"; then
  echo "FAIL: --format=nosuch: exit $rc, $(wc -c < "$work/out") bytes out: $(cat "$work/err")"; fail=$((fail + 1))
fi
total=$((total + 1))
# --output=FILE (and --out=FILE), as KegAlign's commands write their results: the file
# holds what lastz's does, nothing goes to stdout; an existing file is replaced, as lastz
# replaces it
for oo in --output --out; do
  for f in maf- axt general; do
    printf 'old contents\n' > "$work/l.file"
    printf 'old contents\n' > "$work/g.file"
    lrc=0; grc=0
    lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --format=$f $oo="$work/l.file" > "$work/l.out" 2>/dev/null || lrc=$?
    "$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --format=$f $oo="$work/g.file" > "$work/g.out" 2>/dev/null || grc=$?
    sed -i -E '1,3s/(lastz|gale)\.v[0-9.]+/PROGRAM/g; 1,3s/--(output|out)=[^ ]*/--OUT/' "$work/l.file" "$work/g.file"
    total=$((total + 1))
    if [ "$lrc" -ne 0 ] || [ "$grc" -ne 0 ] || [ -s "$work/g.out" ] || ! grep -q . "$work/l.file" ||
       ! cmp -s "$work/l.file" "$work/g.file"; then
      echo "FAIL: $oo=FILE --format=$f: lastz exit $lrc, gale exit $grc, $(wc -c < "$work/g.out") bytes on stdout"
      diff "$work/l.file" "$work/g.file" | head -4 || true
      fail=$((fail + 1))
    fi
  done
done
# an --output file that cannot be written: refused naming it, nothing written to stdout
rc=0
"$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --output="$work/no/such/dir/out" > "$work/out" 2> "$work/err" || rc=$?
total=$((total + 1))
if [ "$rc" -ne 1 ] || [ -s "$work/out" ] || ! grep -q "no/such/dir/out" "$work/err"; then
  echo "FAIL: --output into a missing directory: exit $rc: $(cat "$work/err")"; fail=$((fail + 1))
fi
# --allocate:traceback's sizes and names as lastz reads them (K, M, G by 1,024; decimals;
# 100K and 0.1M are the same 102,400 bytes, lastz's least)
for tb in --allocate:traceback=100K --traceback=0.1M --alloc:traceback=1.99G --mem:traceback=150K --memory:traceback=2.5M; do
  same_as_lastz "$tb" 2 "$d/target.fa" "$d/query.fa" --segments="$d/seg" "$tb" --format=general
done
# 2G is past lastz 1.04.22's int: both refuse (gale with a usage error naming the value)
lrc=0; rc=0
lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --allocate:traceback=2G > /dev/null 2>&1 || lrc=$?
"$gale" lastz "$d/target.fa" "$d/query.fa" --segments="$d/seg" --allocate:traceback=2G > "$work/out" 2> "$work/err" || rc=$?
total=$((total + 1))
if [ "$lrc" -eq 0 ] || [ "$rc" -ne 2 ] || [ -s "$work/out" ] || ! grep -q "'2G'" "$work/err"; then
  echo "FAIL: --allocate:traceback=2G: lastz exit $lrc, gale exit $rc: $(cat "$work/err")"; fail=$((fail + 1))
fi
echo "$((total - fail)) of $total checks passed"
[ "$fail" -eq 0 ]
