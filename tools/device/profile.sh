#!/usr/bin/env bash
# Nsight Compute profile of one wavefront kernel launch on the device machine (a
# measuring aid for the optimisation log in bench/RESULTS.md, not a test):
#   tools/device/profile.sh [LEN] [PAIRS] [KERNEL_REGEX]
# Builds with run.sh, runs wfa_bench on PAIRS gen.py pairs of LEN bp (5% edits) under
# ncu (full set, one launch of the matching kernel), and writes under $OUT: the
# details page (prof-details.txt) and the per-SASS-instruction source page
# (prof-source.csv: executed instructions, stalls) for reading on another machine.
# GALE_PROF_ARGS: more wfa_bench options (e.g. "--device-memory 24000").
set -u -o pipefail
len=${1:-10000}; pairs=${2:-600}; kre=${3:-wfa_blockILi0ELi0E}
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
build=${GALE_DEVICE_BUILD:-/tmp/gale-build}
# The build is run.sh's (mode "build": configure and compile only).
bash tools/device/run.sh build >"$out/prof-build.log" 2>&1 || { tail -40 "$out/prof-build.log"; exit 1; }
data=/tmp/wfa-prof-$len-$pairs.seq
[ -s "$data" ] || python3 tools/bench/gen.py seq "$data" "$pairs" "$len" 0.05 || exit 1
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null) || { echo "no ncu"; exit 1; }
"$ncu" --target-processes all --kernel-name-base mangled -k "regex:$kre" --launch-count 1 --set full --import-source yes \
  -f -o /tmp/prof "$build/tools/bench/wfa_bench" "$data" --backend cuda --repeat 1 ${GALE_PROF_ARGS:-} >"$out/prof-run.log" 2>&1 \
  || { tail -30 "$out/prof-run.log"; exit 1; }
"$ncu" -i /tmp/prof.ncu-rep --page details >"$out/prof-details.txt" 2>&1
"$ncu" -i /tmp/prof.ncu-rep --page source --csv --print-source sass >"$out/prof-source.csv" 2>"$out/prof-source.err"
grep -E "Duration|Registers|Achieved Occupancy|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued|No Eligible|Theoretical Occ|L2 Hit|L1/TEX Hit|Mem Busy|Branch Instructions Ratio|Avg. Divergent|Executed Instructions  " "$out/prof-details.txt" | head -40
ls -la "$out"
