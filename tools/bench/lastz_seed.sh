#!/usr/bin/env bash
# LASTZ's seeding and gap-free stages in gale (`gale lastz --nogapped`, lib/cpu/lastz_seed.cpp)
# against Debian's `lastz --nogapped` on a ../shared/bench/gen_genomes.py pair (made here,
# or TARGET and QUERY given), the HSPs written as segments: lastz on its one core, then
# gale on each thread count given (1: LASTZ's own loop; more: the windowed parallel path,
# doc/lastz-seed.md); wall time and peak RSS of each whole process, and every output
# compared with lastz's byte for byte (a difference fails the script). Figures:
# bench/RESULTS.md.
# usage: lastz_seed.sh GALE [LEN_BP (2e6) | TARGET QUERY] [THREADS... (1 2)]
set -euo pipefail
gale=$(realpath "$1")
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -ge 2 ] && [ -f "$1" ] && [ -f "$2" ]; then
  target=$(realpath "$1") query=$(realpath "$2")
  shift 2
else
  len=${1:-2e6}
  [ $# -gt 0 ] && shift
  here=$(dirname "$(realpath "$0")")
  gen=${GEN_GENOMES:-$here/../../../shared/bench/gen_genomes.py}
  (cd "$work" && "${PYTHON:-python3}" "$gen" P "$len" 7 0.10 0.3 > /dev/null) # (a Python with numpy: PYTHON=)
  target=$work/P.target.fa query=$work/P.query.fa
fi
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2)
timed() {  # NAME COMMAND...: its output to $work/NAME.out, its figures on stdout
  local name=$1
  shift
  /usr/bin/time -f "$name: wall %e s, user %U s, peak RSS %M KB" "$@" > "$work/$name.out" 2> "$work/$name.err" ||
    { cat "$work/$name.err"; exit 1; }
  tail -1 "$work/$name.err"
}
timed lastz lastz "$target" "$query" --nogapped --format=segments
echo "lastz: $(($(wc -l < "$work/lastz.out") - 1)) HSPs"
for t in "${threads[@]}"; do
  timed "gale-$t" "$gale" lastz "$target" "$query" --nogapped --format=segments --threads="$t"
  if cmp -s "$work/lastz.out" "$work/gale-$t.out"; then echo "gale-$t: identical to lastz"
  else echo "gale-$t: DIFFERS from lastz"; exit 1; fi
done
