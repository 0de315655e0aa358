#!/usr/bin/env bash
# The GPU check, in one call on the device machine (no htslib, no Debian oracles there):
# build with CUDA, run the gpu and unit test suites, then the X-drop benchmark on gen.py data.
#   tools/device/run.sh [all|test|bench]    (default all)
# Writes logs under $OUT (or ./device-out) and prints a short summary last.
set -u -o pipefail
mode=${1:-all}
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
build=${GALE_DEVICE_BUILD:-/tmp/gale-build}
export PYTHONUNBUFFERED=1
status=0

echo "== device"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1 | tee "$out/device.txt"
date -u +"%Y-%m-%dT%H:%MZ" | tee -a "$out/device.txt"

echo "== build"
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dcuda=enabled -Dcli=disabled -Dbuildtype=release >"$out/setup.log" 2>&1 \
    || { tail -40 "$out/setup.log"; exit 1; }
fi
ninja -C "$build" >"$out/build.log" 2>&1 || { tail -60 "$out/build.log"; exit 1; }
echo "built: $(ls "$build"/libgale.so*)"

if [ "$mode" = all ] || [ "$mode" = test ]; then
  # unit too: there AUTO picks the GPU, so the API contract runs through the CUDA backend.
  echo "== gpu and unit test suites"
  meson test -C "$build" --suite gpu --suite unit --print-errorlogs --num-processes 1 -t 4 \
    >"$out/gpu-tests.log" 2>&1 || status=1
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|Expected Fail|Unexpected" "$out/gpu-tests.log"
  cp "$build/meson-logs/testlog.txt" "$out/gpu-testlog.txt" 2>/dev/null
fi

if [ "$mode" = all ] || [ "$mode" = bench ]; then
  echo "== X-drop benchmark"
  data=${GALE_BENCH_DATA:-/tmp/xdrop100k.txt}
  pairs=${GALE_BENCH_PAIRS:-100000}
  if [ ! -s "$data" ]; then
    t0=$(date +%s); python3 tools/bench/gen.py xdrop "$data" "$pairs" || exit 1
    echo "generated $data ($pairs pairs) in $(( $(date +%s) - t0 )) s"
  fi
  if [ -x "$build/tools/bench/xdrop_bench" ]; then
    "$build/tools/bench/xdrop_bench" "$data" --backend cuda --x 10,100,1000,5000 --repeat 2 2>&1 | tee "$out/bench.txt" || status=1
  else
    echo "no xdrop_bench built"; status=1
  fi
fi
echo "== done (status $status)"
exit $status
