#!/usr/bin/env bash
# A/B on the device machine (a measuring aid for bench/RESULTS.md, not a test): the WFA
# benchmark of a baseline tree and of this tree, alternated in one run on one GPU.
#   tools/device/ab.sh [test]      (test: run the gpu suite's wfa_gpu on this tree first)
# GALE_AB_SIDES (default "base new") may add "new24g": this tree on a 24,000 MiB device budget.
# The baseline is a copy of another commit's sources in .base (carry it), made here by
#   rm -rf .base && mkdir .base && git archive BASE_COMMIT | tar -x -C .base
# Both are built release with CUDA (no CLI, no tests for the baseline); each size runs
# base, new, base, new (wfa_bench --repeat 2), so that drift between runs shows up.
# Data: gen.py seq, 5% edits (the WFA-GPU anchors). Logs under $OUT.
set -u -o pipefail
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$out/device.txt"
date -u +"%Y-%m-%dT%H:%MZ" | tee -a "$out/device.txt"
new=${GALE_DEVICE_BUILD:-/tmp/gale-build}
base=/tmp/gale-base-build
gen() {  # gen LEN PAIRS
  local d=/tmp/wfa-$1.seq
  [ -s "$d" ] || python3 tools/bench/gen.py seq "$d" "$2" "$1" 0.05 >/dev/null || exit 1
}
gen 10000 10000 & gen 1000 100000 &
bash tools/device/run.sh build >"$out/build-new.log" 2>&1 || { tail -40 "$out/build-new.log"; exit 1; }
if [ -d .base ]; then
  { [ -f "$base/build.ninja" ] || meson setup "$base" .base -Dcuda=enabled -Dcli=disabled -Dtests=false \
      -Dbuildtype=release; } >"$out/build-base.log" 2>&1 && ninja -C "$base" >>"$out/build-base.log" 2>&1 \
    || { tail -40 "$out/build-base.log"; exit 1; }
fi
wait
if [ "${1:-}" = test ]; then
  meson test -C "$new" wfa_gpu --print-errorlogs --num-processes 1 -t 4 >"$out/wfa-gpu-test.log" 2>&1 || status=1
  grep -E "^ *[0-9]+/[0-9]+ |seed|checks|FAIL" "$out/wfa-gpu-test.log" | head -20
fi
for len in ${GALE_AB_LENS:-10000 1000}; do
  for round in 1 2; do
    for side in ${GALE_AB_SIDES:-base new}; do
      b=$new; [ $side = base ] && b=$base
      extra=(); [ $side = new24g ] && extra=(--device-memory 24000)
      [ -x "$b/tools/bench/wfa_bench" ] || continue
      echo "-- $len bp, $side, round $round"
      "$b/tools/bench/wfa_bench" /tmp/wfa-$len.seq --backend cuda --repeat 2 "${extra[@]}" 2>&1 \
        | tee -a "$out/ab-$len-$side.txt" | grep -E '^\| (alignment|score)' || status=1
    done
  done
done
echo "== done (status $status)"
exit $status
