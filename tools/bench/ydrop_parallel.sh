#!/usr/bin/env bash
# LASTZ's gapped stage in gale (lib/cpu/ydrop.cpp): the serial walk against the two-phase
# parallel scheme (doc/ydrop.md, "Parallel extension") on 1 and 2 threads, and lastz itself,
# on a gen_genomes.py pair with anchors from `lastz --nogapped`; every output is compared
# with the serial one (and lastz's) byte for byte. Figures: bench/RESULTS.md.
# usage: ydrop_parallel.sh DRIVER (build/tests/oracle/ydrop_lastz) [LEN_BP (2e6)] [THREADS... (1 2)]
set -euo pipefail
driver=$(realpath "$1")
len=${2:-2e6}
shift $(( $# >= 2 ? 2 : 1 ))
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2)
here=$(dirname "$(realpath "$0")")
gen=${GEN_GENOMES:-$here/../../../shared/bench/gen_genomes.py}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 "$gen" P "$len" 7 0.10 0.3
lastz P.target.fa P.query.fa --nogapped --format=segments > P.seg 2>/dev/null
echo "$(wc -l < P.seg) anchors"
run() {  # NAME ARGS...
  local name=$1
  shift
  echo "== $name"
  /usr/bin/time -f "wall %e s, user %U s, maxrss %M KB" "$driver" P.target.fa P.query.fa P.seg "$@" --gale-stats \
    > "$name.out" 2> "$name.err" || { cat "$name.err"; exit 1; }
  grep -v '^truncating' "$name.err"
}
run serial --gale-serial
for t in "${threads[@]}"; do
  run "threads$t" --gale-threads="$t"
  cmp serial.out "threads$t.out"
done
fmt=general-:score,name1,strand1,size1,zstart1,end1,name2,strand2,size2,zstart2,end2,cigar
echo "== lastz"
/usr/bin/time -f "wall %e s, user %U s" lastz P.target.fa P.query.fa --segments=P.seg --format=$fmt > lastz.out \
  2> lastz.err
grep -v '^truncat' lastz.err || true
cmp lastz.out serial.out
echo "all outputs identical"
