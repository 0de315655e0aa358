#!/usr/bin/env bash
# A/B on the device machine (a measuring aid for bench/RESULTS.md, not a test): a baseline
# tree and this tree, alternated in one run on one GPU.
#   tools/device/ab.sh [test]      (test: run the gpu suite's wfa_gpu on this tree first)
# GALE_AB_PARTS (default "wfa") picks what runs, in this order:
#   xdrop: xdrop_bench on gen.py's 100,000 LOGAN pairs, X = 10, 100, 1000, 5000;
#   wfa:   wfa_bench on gen.py seq, 5% edits, 10 kbp and 1 kbp (the WFA-GPU anchors);
#   cli:   the `gale` program as a user runs it (needs .hts carried for both trees): wall
#          time and peak RSS (tools/device/timed.py) of gale xdrop and gale wfa on the same
#          files, and their outputs compared byte for byte between the trees;
#   peers: the peer programs beside this tree's `gale`, same files, alternated, two rounds:
#          the LOGAN demo ($LOGAN_DEMO FILE 17 X 1) against gale xdrop at X = 10, 100, 1000,
#          5000, and WFA-GPU's aligner ($WFAGPU_ALIGNER -i F -g 2,3,1 [-x] -o OUT) against gale
#          wfa (x=2 o=3 e=1) at 1 kbp and 10 kbp, with and without CIGAR; wall and peak RSS
#          (timed.py). The peers are built by the caller from their public sources in an
#          ignored folder, never committed; unset paths skip their rows;
#   clisweep: this tree's `gale` over --batch-bases GALE_AB_BASES (default "8388608 16777216
#          33554432 67108864") on the peers' workloads, wall and peak RSS, and one run of each
#          WFA job with GALE_CLI_TRACE=1 (the stream's steps, in $OUT/trace-*.txt);
#   lastz: gale lastz --segments on the GPU on .sharedbench/lastz's pairs (GALE_AB_LASTZ_PAIRS,
#          default P10e6; carry .hts and .sharedbench), wall, peak RSS, --summary, outputs compared;
#   startup: a process's start (tools/bench/ctx_startup: context, first one-pair batch,
#          peak RSS; the baseline's built from this tree's source against its libgale),
#          five alternated runs a side, and the CUDA runtime's own (tools/bench/cuda_startup).
# GALE_DEVICE_TARGETS and GALE_AB_BASE_TARGETS: build only these ninja targets of the new and
# the base tree (a shorter call; e.g. "tools/gale/gale" for lastz).
# GALE_AB_SIDES (default "base new") may add "new24g": this tree on a 24,000 MiB device budget;
# lastz also takes "new+VAR=VALUE" (this tree with VAR=VALUE in its environment, e.g.
# new+GALE_YDROP_BLOCK_ALL=1), each side's output compared with base's (or new's).
# WFA: GALE_AB_LENS (default "10000 1000"), GALE_AB_ROUNDS (2), GALE_AB_REPEAT (2 per run).
# The baseline is a copy of another commit's sources in .base (carry it), made here by
#   rm -rf .base && mkdir .base && git archive BASE_COMMIT | tar -x -C .base
# Both are built release with CUDA (the baseline without tests, with the CLI when .hts is
# there); each workload runs base, new, base, new, so that drift between runs shows up.
# Logs under $OUT.
set -u -o pipefail
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$out/device.txt"
date -u +"%Y-%m-%dT%H:%MZ" | tee -a "$out/device.txt"
new=${GALE_DEVICE_BUILD:-/tmp/gale-build}
base=/tmp/gale-base-build
parts=${GALE_AB_PARTS:-wfa}
has() { case " $parts " in *" $1 "*) return 0;; esac; return 1; }
gen() {  # gen LEN PAIRS
  local d=/tmp/wfa-$1.seq
  [ -s "$d" ] || python3 tools/bench/gen.py seq "$d" "$2" "$1" 0.05 >/dev/null || exit 1
}
gen 10000 10000 & gen 1000 100000 &
xdata=/tmp/xdrop100k.txt
{ has xdrop || has cli || has peers || has clisweep; } && { [ -s $xdata ] || python3 tools/bench/gen.py xdrop $xdata 100000 >/dev/null; } &
basecli=(-Dcli=disabled)
if [ -f .hts/lib/pkgconfig/htslib.pc ]; then
  basecli=(-Dcli=enabled)
  export PKG_CONFIG_PATH=$PWD/.hts/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=$PWD/.hts/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
bash tools/device/run.sh build >"$out/build-new.log" 2>&1 || { tail -40 "$out/build-new.log"; exit 1; }
if [ -d .base ]; then
  { [ -f "$base/build.ninja" ] || meson setup "$base" .base -Dcuda=enabled "${basecli[@]}" -Dtests=false \
      -Dbuildtype=release; } >"$out/build-base.log" 2>&1 && ninja -C "$base" ${GALE_AB_BASE_TARGETS:-} >>"$out/build-base.log" 2>&1 \
    || { tail -40 "$out/build-base.log"; exit 1; }
fi
wait
if [ "${1:-}" = test ]; then
  meson test -C "$new" wfa_gpu --print-errorlogs --num-processes 1 -t 4 >"$out/wfa-gpu-test.log" 2>&1 || status=1
  grep -E "^ *[0-9]+/[0-9]+ |seed|checks|FAIL" "$out/wfa-gpu-test.log" | head -20
fi
side_build() { if [ "$1" = base ]; then echo "$base"; else echo "$new"; fi; }
if has xdrop; then
  echo "== X-drop: xdrop_bench, $xdata"
  for round in 1 2; do
    for side in ${GALE_AB_SIDES:-base new}; do
      b=$(side_build $side)
      [ -x "$b/tools/bench/xdrop_bench" ] || continue
      echo "-- X-drop, $side, round $round"
      "$b/tools/bench/xdrop_bench" $xdata --backend cuda --x 10,100,1000,5000 --repeat 1 2>&1 \
        | tee -a "$out/ab-xdrop-$side.txt" | grep -E '^\| [0-9]' || status=1
    done
  done
fi
if has wfa; then
  for len in ${GALE_AB_LENS:-10000 1000}; do
    for round in $(seq 1 "${GALE_AB_ROUNDS:-2}"); do
      for side in ${GALE_AB_SIDES:-base new}; do
        b=$(side_build $side)
        extra=(); [ $side = new24g ] && extra=(--device-memory 24000)
        [ -x "$b/tools/bench/wfa_bench" ] || continue
        echo "-- $len bp, $side, round $round"
        "$b/tools/bench/wfa_bench" /tmp/wfa-$len.seq --backend cuda --repeat "${GALE_AB_REPEAT:-2}" "${extra[@]}" 2>&1 \
          | tee -a "$out/ab-$len-$side.txt" | grep -E '^\| (alignment|score)' || status=1
      done
    done
  done
fi
if has cli; then
  echo "== the gale program: wall time and peak RSS, base vs new, outputs compared"
  jobs=("xdrop -x 10 $xdata" "xdrop -x 1000 $xdata" "wfa --mismatch 2 --gap-open 3 --gap-extend 1 /tmp/wfa-1000.seq"
        "wfa --mismatch 2 --gap-open 3 --gap-extend 1 --score-only /tmp/wfa-1000.seq"
        "wfa --mismatch 2 --gap-open 3 --gap-extend 1 /tmp/wfa-10000.seq")
  for job in "${jobs[@]}"; do
    for round in 1 2; do
      for side in base new; do
        g=$(side_build $side)/tools/gale/gale
        [ -x "$g" ] || { echo "no gale CLI in the $side tree (carry .hts)"; status=1; continue 2; }
        # shellcheck disable=SC2086
        echo "$side round $round: gale $job: $(python3 tools/device/timed.py /tmp/cli-$side.out "$g" ${job%% *} \
          --backend cuda --quiet ${job#* } 2>>"$out/cli-$side.err")" | tee -a "$out/ab-cli.txt"
      done
      if cmp -s /tmp/cli-base.out /tmp/cli-new.out; then echo "   outputs identical ($(wc -l </tmp/cli-new.out) lines)"
      else echo "   OUTPUTS DIFFER"; status=1; fi
    done
  done
fi
if has peers; then
  echo "== peer programs beside gale (wall s, peak RSS MB), same files, alternated"
  for x in 10 100 1000 5000; do
    for round in 1 2; do
      if [ -x "${LOGAN_DEMO:-}" ]; then
        echo "LOGAN demo X=$x round $round: $(python3 tools/device/timed.py /tmp/peer.out "$LOGAN_DEMO" $xdata 17 $x 1 \
          2>>"$out/peers.err")" | tee -a "$out/ab-peers.txt"
      fi
      echo "gale xdrop X=$x round $round: $(python3 tools/device/timed.py /tmp/cli-new.out "$new/tools/gale/gale" xdrop \
        --backend cuda --quiet -k 17 -x $x $xdata 2>>"$out/peers.err")" | tee -a "$out/ab-peers.txt"
    done
  done
  for len in 1000 10000; do
    for scope in cigar score; do
      px=(); gx=(--score-only); [ $scope = cigar ] && { px=(-x); gx=(); }
      for round in 1 2; do
        if [ -x "${WFAGPU_ALIGNER:-}" ]; then
          echo "WFA-GPU $len bp $scope round $round: $(python3 tools/device/timed.py /tmp/peer.out "$WFAGPU_ALIGNER" \
            -i /tmp/wfa-$len.seq -g 2,3,1 "${px[@]}" -o /tmp/wfagpu.out 2>>"$out/peers.err")" | tee -a "$out/ab-peers.txt"
        fi
        echo "gale wfa $len bp $scope round $round: $(python3 tools/device/timed.py /tmp/cli-new.out "$new/tools/gale/gale" \
          wfa --backend cuda --quiet --mismatch 2 --gap-open 3 --gap-extend 1 "${gx[@]}" /tmp/wfa-$len.seq \
          2>>"$out/peers.err")" | tee -a "$out/ab-peers.txt"
      done
    done
  done
  # the CUDA runtime's own start in a new process, the floor under every row
  for round in 1 2 3; do "$new/tools/bench/cuda_startup" | tee -a "$out/ab-peers.txt"; done
fi
if has clisweep; then
  echo "== gale over --batch-bases (wall s, peak RSS MB)"
  wjobs=("1000 cigar" "1000 score" "10000 cigar" "10000 score")
  for bb in ${GALE_AB_BASES:-8388608 16777216 33554432 67108864}; do
    for x in 10 1000; do
      echo "xdrop X=$x --batch-bases $bb: $(python3 tools/device/timed.py /tmp/cli-new.out "$new/tools/gale/gale" xdrop \
        --backend cuda --quiet -x $x --batch-bases $bb $xdata 2>>"$out/sweep.err")" | tee -a "$out/ab-clisweep.txt"
    done
    for w in "${wjobs[@]}"; do
      set -- $w; gx=(); [ "$2" = score ] && gx=(--score-only)
      echo "wfa $1 bp $2 --batch-bases $bb: $(python3 tools/device/timed.py /tmp/cli-new.out "$new/tools/gale/gale" wfa \
        --backend cuda --quiet --mismatch 2 --gap-open 3 --gap-extend 1 "${gx[@]}" --batch-bases $bb /tmp/wfa-$1.seq \
        2>>"$out/sweep.err")" | tee -a "$out/ab-clisweep.txt"
    done
  done
  for w in "${wjobs[@]}"; do
    set -- $w; gx=(); [ "$2" = score ] && gx=(--score-only)
    GALE_CLI_TRACE=1 "$new/tools/gale/gale" wfa --backend cuda --quiet --mismatch 2 --gap-open 3 --gap-extend 1 \
      "${gx[@]}" /tmp/wfa-$1.seq 2>"$out/trace-wfa-$1-$2.txt" >/tmp/cli-new.out
  done
  GALE_CLI_TRACE=1 "$new/tools/gale/gale" xdrop --backend cuda --quiet -x 10 $xdata 2>"$out/trace-xdrop-10.txt" \
    >/tmp/cli-new.out
fi
if has startup; then
  echo "== start-up: context, first one-pair batch and peak RSS in a new process (CUDA runtime alone first)"
  cc -O2 tools/bench/ctx_startup.c -I.base/include -I"$base" -L"$base" -lgale -Wl,-rpath,"$base" \
    -o /tmp/ctx_startup_base 2>>"$out/startup.err" || status=1
  for round in 1 2 3 4 5; do
    "$new/tools/bench/cuda_startup" | tee -a "$out/ab-startup.txt"
    for side in base new; do
      p=/tmp/ctx_startup_base; [ $side = new ] && p=$new/tools/bench/ctx_startup
      echo "$side: $("$p" --backend cuda 2>&1)" | tee -a "$out/ab-startup.txt"
    done
    # the CUDA modules loaded when the context starts rather than at a kernel's first launch
    echo "new, CUDA_MODULE_LOADING=EAGER: $(CUDA_MODULE_LOADING=EAGER "$new/tools/bench/ctx_startup" --backend cuda 2>&1)" \
      | tee -a "$out/ab-startup.txt"
  done
fi
if has lastz; then
  # gale lastz --segments on the carried gen_genomes pairs (.sharedbench/lastz, as run.sh's lastz
  # mode has them; GALE_AB_LASTZ_PAIRS, default "P10e6"), GPU, both query strands at once:
  # base, new, base, new, wall and peak RSS (timed.py), the --summary lines, outputs compared
  echo "== gale lastz (GPU)"
  d=.sharedbench/lastz
  for p in ${GALE_AB_LASTZ_PAIRS:-P10e6}; do
    [ -s $d/$p.segs ] || { echo "no $d/$p.segs"; status=1; continue; }
    for round in $(seq 1 "${GALE_AB_ROUNDS:-2}"); do
      ref=
      for side in ${GALE_AB_SIDES:-base new}; do
        b=$(side_build "${side%%+*}")
        senv=(); case $side in *+*) senv=("${side#*+}");; esac
        f=/tmp/ab-lastz-$p-${side//[^A-Za-z0-9_]/_}.general
        echo "-- $p $side round $round: $(env "${senv[@]}" python3 tools/device/timed.py "$f" \
          "$b/tools/gale/gale" lastz $d/$p.target.fa $d/$p.query.fa --segments=$d/$p.segs --format=general \
          --backend=cuda --summary 2>/tmp/ab-lastz.err)" | tee -a "$out/ab-lastz.txt"
        grep -v "^gale: warning" /tmp/ab-lastz.err | tee -a "$out/ab-lastz.txt"
        if [ -z "$ref" ]; then ref=$f
        elif cmp -s "$ref" "$f"; then
          echo "   $p: $side's output = ${ref##*/}'s ($(wc -l <"$f") lines, md5 $(md5sum <"$f" | cut -c1-12))"
        else echo "   $p: $side's output DIFFERS from ${ref##*/}'s"; status=1; fi
      done
    done
  done
fi
echo "== done (status $status)"
exit $status
