#!/usr/bin/env bash
# Nsight Compute profile of LASTZ's phase-1 kernel on one of its longest halves (a
# measuring aid for bench/RESULTS.md, not a test): tools/device/profile-ydrop.sh [N]
# Builds with run.sh (carry .hts and .sharedbench: .sharedbench/lastz/P10e6.* as
# tools/device/run.sh's lastz mode has them), keeps the N best + strand anchors of the
# 10 Mbp pair (default 8: LASTZ's first wave, whose longest half sweeps 84 M cells up to its
# traceback truncation) and runs `gale lastz` on them under ncu on the first launch of
# ydrop_phase1_kernel: speed of light, occupancy, launch, warp states, memory and source
# counters; writes prof-ydrop-details.txt and the per-SASS source page prof-ydrop-source.csv.gz.
# Application replay and a traceback memory of 8 MiB (GALE_PROF_TRACEBACK; the longest half
# stops at about 8 M cells, its rows as long as at LASTZ's 80 MiB): with kernel replay ncu
# saved and restored the pool (half the free device memory) around each pass of a 1.9 s
# one-warp kernel, and did not end in 500 s (2026-12-06). ncu is cut after GALE_PROF_TIMEOUT
# seconds (default 240).
set -u -o pipefail
n=${1:-8}
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
build=${GALE_DEVICE_BUILD:-/tmp/gale-build}
d=.sharedbench/lastz
bash tools/device/run.sh build >"$out/prof-build.log" 2>&1 || { tail -40 "$out/prof-build.log"; exit 1; }
export LD_LIBRARY_PATH=$PWD/.hts/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -s $d/P10e6.segs ] && [ -s $d/P10e6.target.fa ] || { echo "no $d/P10e6.*"; exit 1; }
awk '$7 == "+"' $d/P10e6.segs | sort -k8,8nr | head -n "$n" >/tmp/yprof.segs
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null) || { echo "no ncu"; exit 1; }
timeout "${GALE_PROF_TIMEOUT:-240}" "$ncu" --target-processes all --replay-mode application \
  -k "regex:ydrop_phase1" --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
  --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis --import-source yes \
  -f -o /tmp/yprof "$build/tools/gale/gale" lastz $d/P10e6.target.fa $d/P10e6.query.fa --segments=/tmp/yprof.segs \
  --format=general --backend=cuda --threads=1 "--allocate:traceback=${GALE_PROF_TRACEBACK:-8M}" >/tmp/yprof.general 2>"$out/prof-ydrop-run.log" \
  || { tail -30 "$out/prof-ydrop-run.log"; exit 1; }
"$ncu" -i /tmp/yprof.ncu-rep --page details >"$out/prof-ydrop-details.txt" 2>&1
"$ncu" -i /tmp/yprof.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip >"$out/prof-ydrop-source.csv.gz"
grep -E "Duration|Registers|Achieved Occupancy|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued|No Eligible|L2 Hit|L1/TEX Hit|Mem Busy|Stall" "$out/prof-ydrop-details.txt" | head -40
tail -2 "$out/prof-ydrop-run.log"
