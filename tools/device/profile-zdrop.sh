#!/usr/bin/env bash
# Nsight Compute profile of the Z-drop kernel (a measuring aid for bench/RESULTS.md, not a
# test): tools/device/profile-zdrop.sh [PAIRS] [EXTRA gale zdrop OPTIONS...]
# Builds with run.sh (carry .hts and .sharedbench), makes PAIRS pairs of AGAThA's workload
# (gen_pairs.py P PAIRS 1000 9000 0.10 5 0.2, default 3000), runs `gale zdrop` with
# minimap2's scoring (score-only unless EXTRA says otherwise) under ncu on one launch of
# the extz2 kernel: speed of light, occupancy, launch, warp states and source counters;
# writes prof-zdrop-details.txt and the per-SASS source page prof-zdrop-source.csv.
set -u -o pipefail
pairs=${1:-3000}; shift || true
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
build=${GALE_DEVICE_BUILD:-/tmp/gale-build}
bash tools/device/run.sh build >"$out/prof-build.log" 2>&1 || { tail -40 "$out/prof-build.log"; exit 1; }
export LD_LIBRARY_PATH=$PWD/.hts/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GALE_EXPERIMENTAL_GPU=1
zp=/tmp/zprof-$pairs
[ -s $zp.q.fa ] || python3 .sharedbench/gen_pairs.py $zp "$pairs" 1000 9000 0.10 5 0.2 || exit 1
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null) || { echo "no ncu"; exit 1; }
args=(-A 2 -B 4 -z 400 -r 751 --extz-only -O 4 -E 2)
[ $# -gt 0 ] && args+=("$@") || args+=(--score-only)
"$ncu" --target-processes all -k "regex:zdrop_kernel" --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
  --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis --import-source yes \
  -f -o /tmp/zprof "$build/tools/gale/gale" zdrop "${args[@]}" --backend cuda $zp.q.fa $zp.t.fa \
  >/tmp/zprof.tsv 2>"$out/prof-zdrop-run.log" || { tail -30 "$out/prof-zdrop-run.log"; exit 1; }
"$ncu" -i /tmp/zprof.ncu-rep --page details >"$out/prof-zdrop-details.txt" 2>&1
"$ncu" -i /tmp/zprof.ncu-rep --page source --csv --print-source sass >"$out/prof-zdrop-source.csv" 2>/dev/null
grep -E "Duration|Registers|Achieved Occupancy|Theoretical Occ|Block Limit|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued|No Eligible|L2 Hit|L1/TEX Hit|Mem Busy|Grid Size|Dynamic Shared|Stall|Waves" "$out/prof-zdrop-details.txt" | head -50
tail -2 "$out/prof-zdrop-run.log"
