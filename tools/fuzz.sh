#!/usr/bin/env bash
# Builds gale's libFuzzer harnesses (tests/fuzz: the CLI's LOGAN TSV, .seq and
# FASTA/FASTQ readers, gale lastz's sequence, scores and segments readers, and the C API) with clang, ASan and UBSan, and runs each for a
# fixed time. Fails on any crash, leak, sanitizer report, broken promise or timeout.
#
#   bash tools/fuzz.sh [HARNESS ...]     # default: logan seq fastx api lastz_input
#
# Environment:
#   GALE_FUZZ_SECONDS  seconds per harness (default 20)
#   GALE_FUZZ_BUILD    build directory (default build-fuzz)
#   GALE_FUZZ_ARGS     more libFuzzer flags (e.g. "-jobs=2 -workers=2")
#
# New inputs that reach new code go to $GALE_FUZZ_BUILD/fuzz-corpus/NAME/ (kept
# between runs; the seeds in tests/fuzz/corpus/NAME/ are only read); a crashing input
# is written to $GALE_FUZZ_BUILD/fuzz-artifacts/NAME/ and named in the log. How to run
# longer and to reproduce a crash: doc/fuzzing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${GALE_FUZZ_SECONDS:-20}
build=${GALE_FUZZ_BUILD:-build-fuzz}
jobs=$(nproc 2>/dev/null || echo 2)
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(logan seq fastx api lastz_input)

if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
  echo "tools/fuzz.sh: clang and clang++ are needed (bash tools/setup-deps.sh installs them)" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  mkdir -p "$build"
  CC=clang CXX=clang++ meson setup "$build" -Dfuzz=true -Dcuda=disabled -Dpython=disabled -Dtests=false \
    -Dplugins=false -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized >"$build/setup.log" 2>&1 \
    || { tail -30 "$build/setup.log"; exit 1; }
fi
meson compile -C "$build" -j "$jobs" "${harnesses[@]/#/fuzz_}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
failed=()
for h in "${harnesses[@]}"; do
  exe="$build/tests/fuzz/fuzz_$h"
  work="$build/fuzz-corpus/$h"
  art="$build/fuzz-artifacts/$h"
  log="$build/fuzz-$h.log"
  mkdir -p "$work" "$art"
  seeds=("tests/fuzz/corpus/$h" "tests/fuzz/regress/$h")
  echo "== fuzz_$h: ${secs} s (log $log)"
  # -close_fd_mask=2: the CLI's messages about bad input stay out of the log (the
  # sanitizers' and the harness's reports still reach it).
  # shellcheck disable=SC2086
  if "$exe" -max_total_time="$secs" -timeout=30 -rss_limit_mb=3072 -max_len=4096 -close_fd_mask=2 \
       -print_final_stats=1 -artifact_prefix="$art/" ${GALE_FUZZ_ARGS:-} "$work" "${seeds[@]}" >"$log" 2>&1; then
    grep -E "^#[0-9]+[[:space:]]+DONE" "$log" | tail -1 || true
    grep -E "^stat::number_of_executed_units" "$log" | tail -1 || true
  else
    echo "fuzz_$h FAILED:"
    grep -vE "^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)" "$log" | tail -60
    failed+=("$h")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "tools/fuzz.sh: failed: ${failed[*]} (inputs in $build/fuzz-artifacts/; doc/fuzzing.md says how to reproduce)"
  exit 1
fi
echo "== fuzzing passed: ${harnesses[*]}"
