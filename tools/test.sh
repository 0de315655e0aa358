#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs dependencies (Debian), builds gale
# (with CUDA when nvcc is found), runs every meson suite, then builds and runs the
# suites again under ASan+UBSan (CPU backend; CUDA off there), and checks that
# `meson install` gives a library a pkg-config user can link.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
export GALE_TEST_SEED=${GALE_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "GALE_TEST_SEED=$GALE_TEST_SEED (set it to replay this run's random cases)"

echo "== build (debugoptimized, CUDA auto)"
[ -f build/build.ninja ] || meson setup build
meson compile -C build -j "$jobs"
echo "== test suites"
meson test -C build --print-errorlogs --num-processes "$jobs"

echo "== ASan+UBSan build and suites"
[ -f build-asan/build.ninja ] || meson setup build-asan -Dcuda=disabled -Db_sanitize=address,undefined \
  -Db_lundef=false -Dbuildtype=debugoptimized
meson compile -C build-asan -j "$jobs"
GALE_TEST_SCALE=${GALE_ASAN_SCALE:-0.25} UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ASAN_OPTIONS=detect_leaks=1 meson test -C build-asan --print-errorlogs --num-processes "$jobs" \
  --no-suite gpu --timeout-multiplier 3

echo "== install and link through pkg-config"
rm -rf build/stage
DESTDIR="$PWD/build/stage" meson install -C build --quiet
prefix=$(meson introspect build --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
libdir=$(meson introspect build --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="libdir"][0])')
stage="$PWD/build/stage$prefix"
pcdir="$stage/$libdir/pkgconfig"
export PKG_CONFIG_PATH="$pcdir"
export PKG_CONFIG_SYSROOT_DIR="$PWD/build/stage"
cat > build/pc-check.c <<'C'
#include <gale.h>
#include <stdio.h>
int main(void) { printf("gale %s\n", gale_version_string()); return gale_version() == GALE_VERSION_NUMBER ? 0 : 1; }
C
cc build/pc-check.c -o build/pc-check $(pkg-config --cflags --libs gale)
LD_LIBRARY_PATH="$stage/$libdir" ./build/pc-check
pkg-config --variable=plugindir gale
echo "== all suites passed"
