#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs dependencies (Debian), builds gale
# (with CUDA when nvcc is found), runs every meson suite, then builds and runs the
# suites again under ASan+UBSan and the unit and plugins suites under TSan (CPU backend;
# CUDA off there), runs the libFuzzer harnesses for a short while (tools/fuzz.sh),
# checks that `meson install` gives a library a pkg-config user can link (gale.h, and
# each of its parts in gale/ alone) and that the installed plugin and CLI find the
# installed libgale under a prefix of their own, builds, lints, installs and uses the
# Debian packages (tools/deb-test.sh), and installs the Python package.
# Without a GPU the gpu suite skips, its fault-injection test (tests/gpu/faults.c) included;
# on a GPU machine tools/device/run.sh runs it (mode test), and mode sanitize runs the gpu
# suite under compute-sanitizer's memcheck and racecheck (doc/testing.md).
set -euo pipefail
# No `grep -q` at the end of a pipe here: it exits at its first match, the writer then dies of
# SIGPIPE and pipefail fails the pipe (CI failed so on `unzip -l WHEEL | grep -q`).
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
export GALE_TEST_SEED=${GALE_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "GALE_TEST_SEED=$GALE_TEST_SEED (set it to replay this run's random cases)"

echo "== build (debugoptimized, CUDA auto)"
[ -f build/build.ninja ] || meson setup build -Dpython=enabled
meson compile -C build -j "$jobs"
echo "== test suites"
meson test -C build --print-errorlogs --num-processes "$jobs"

echo "== ASan+UBSan build and suites"
[ -f build-asan/build.ninja ] || meson setup build-asan -Dcuda=disabled -Dpython=disabled -Db_sanitize=address,undefined \
  -Db_lundef=false -Dbuildtype=debugoptimized
meson compile -C build-asan -j "$jobs"
GALE_TEST_SCALE=${GALE_ASAN_SCALE:-0.25} UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ASAN_OPTIONS=detect_leaks=1 meson test -C build-asan --print-errorlogs --num-processes "$jobs" \
  --no-suite gpu --timeout-multiplier 3

# ThreadSanitizer, on the suites that run threads (unit: threads, api_contract, add_tasks...;
# plugins: the bella plugin's driver threads and kept contexts). CPU only. -Dtarget_clones
# (auto) leaves the kernels' IFUNC clones out, whose resolvers ld.so would run before TSan
# is initialised, and the CPU kernels run uninstrumented (-Dtsan_kernels=false: meson.build
# says why). Only what those suites need is built (from meson's test introspection).
echo "== TSan build and the unit and plugins suites"
[ -f build-tsan/build.ninja ] || meson setup build-tsan -Dcuda=disabled -Dpython=disabled -Dcli=disabled \
  -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debugoptimized
ninja -C build-tsan build.ninja >/dev/null  # reconfigured first when meson.build changed
tsan_targets=$(meson introspect build-tsan --tests --targets | python3 -c '
import json, os, sys
d = json.load(sys.stdin)
files = {t["id"]: t["filename"] for t in d["targets"]}
want = {f for t in d["tests"] if {s.split(":")[-1] for s in t["suite"]} & {"unit", "plugins"}
        for dep in t["depends"] for f in files.get(dep, [])}
print(" ".join(sorted(os.path.relpath(f, "build-tsan") for f in want)))')
ninja -C build-tsan -j "$jobs" $tsan_targets
GALE_TEST_SCALE=${GALE_TSAN_SCALE:-0.5} TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  meson test -C build-tsan --no-rebuild --print-errorlogs --num-processes "$jobs" --suite unit --suite plugins \
  --timeout-multiplier 3

echo "== libFuzzer harnesses: the CLI's parsers and the C API, ${GALE_FUZZ_SECONDS:-20} s each (tools/fuzz.sh)"
bash tools/fuzz.sh

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
# gale.h's parts (include/gale/), installed in <includedir>/gale/: each compiles alone
# through pkg-config's flags, and one of them makes a program.
for part in include/gale/*.h; do
  printf '#include <gale/%s>\nint main(void) { return 0; }\n' "${part##*/}" \
    | cc -x c -std=c99 -Wall -Wextra -Wpedantic -Werror -fsyntax-only $(pkg-config --cflags gale) - \
    || { echo "installed gale/${part##*/} does not compile alone"; exit 1; }
done
cat > build/pc-check-part.c <<'C'
#include <gale/lastz.h>
int main(void) { gale_lastz_params p; gale_lastz_params_init(&p); return p.size == sizeof p ? 0 : 1; }
C
cc build/pc-check-part.c -o build/pc-check-part $(pkg-config --cflags --libs gale)
LD_LIBRARY_PATH="$stage/$libdir" ./build/pc-check-part
pkg-config --variable=plugindir gale

# The staged install above sits under DESTDIR, so the plugin directory compiled into
# that libgale (its final prefix) is not where the staged plugin lies. To see a
# program find the bella plugin in the INSTALLED plugin directory on its own (no
# GALE_PLUGIN_PATH), and the installed `gale` CLI find the installed libgale on its
# own (no LD_LIBRARY_PATH), install a small second configuration for real into a
# temporary prefix, outside the loader's default paths: only libgale, the plugin and
# the CLI are built (no tests, Python, CUDA or man pages), then installed without a rebuild. No MPI
# there: with it the run path of gale also holds Open MPI's library directory (meson keeps
# an external dependency's), and the exact run path is what is checked here.
echo "== the bella plugin and the gale CLI from a prefix install (GALE_PLUGIN_PATH and LD_LIBRARY_PATH unset)"
pfx="$PWD/build/prefix-check"
rm -rf "$pfx"
mkdir -p "$pfx"
if ! { meson setup "$pfx/build" --prefix="$pfx/inst" --libdir=lib -Dcuda=disabled -Dtests=false -Dcli=enabled -Dmpi=disabled \
         -Dpython=disabled -Dman=disabled -Dbuildtype=release \
         && meson compile -C "$pfx/build" -j "$jobs" gale:shared_library gale-bella:shared_module gale-ksw2:shared_module \
              gale-lastz:shared_module \
              tools/gale/gale:executable \
         && meson install -C "$pfx/build" --no-rebuild --quiet; } >"$pfx/log" 2>&1; then
  tail -40 "$pfx/log"; exit 1
fi
# The installed CLI: its run path is exactly the prefix's libdir (no build tree), and it
# runs from there with LD_LIBRARY_PATH unset, from another directory, giving what the
# build tree's CLI gives.
gale_bin="$pfx/inst/bin/gale"
[ -x "$gale_bin" ] || { echo "no gale in $pfx/inst/bin"; ls -l "$pfx/inst/bin" || true; exit 1; }
readelf -d "$gale_bin" | grep "(RUNPATH) *Library runpath: \[$pfx/inst/lib\]$" >/dev/null \
  || { echo "gale: RUNPATH is not $pfx/inst/lib"; readelf -d "$gale_bin"; exit 1; }
env -u LD_LIBRARY_PATH ldd "$gale_bin" | grep "libgale\.so\.0 => $pfx/inst/lib/libgale\.so\.0 " >/dev/null \
  || { echo "gale does not load $pfx/inst/lib/libgale.so.0"; env -u LD_LIBRARY_PATH ldd "$gale_bin"; exit 1; }
(cd / && env -u LD_LIBRARY_PATH "$gale_bin" --version)
(cd / && env -u LD_LIBRARY_PATH "$gale_bin" xdrop --quiet --backend cpu "$OLDPWD/examples/pairs.tsv") >"$pfx/xdrop.tsv"
./build/tools/gale/gale xdrop --quiet --backend cpu examples/pairs.tsv | cmp - "$pfx/xdrop.tsv" \
  || { echo "the installed gale's output differs from the build tree's"; exit 1; }
unset PKG_CONFIG_SYSROOT_DIR
export PKG_CONFIG_PATH="$pfx/inst/lib/pkgconfig"
plugindir=$(pkg-config --variable=plugindir gale)
[ "$plugindir" = "$pfx/inst/lib/gale/plugins" ] || { echo "gale.pc plugindir is $plugindir"; exit 1; }
[ -f "$plugindir/gale-bella.so" ] || { echo "no gale-bella.so in $plugindir"; exit 1; }
# The installed module finds the installed libgale by itself (its run path), never the build tree.
readelf -d "$plugindir/gale-bella.so" | grep "R.*PATH.*\[$pfx/inst/lib\]" >/dev/null \
  || { echo "gale-bella.so: run path is not $pfx/inst/lib"; readelf -d "$plugindir/gale-bella.so"; exit 1; }
c++ tests/install/bella_check.cpp -o "$pfx/check" $(pkg-config --cflags --libs gale)
env -u GALE_PLUGIN_PATH LD_LIBRARY_PATH="$pfx/inst/lib" "$pfx/check" "$plugindir"

# The Debian packages (debian/): built CPU only (the build profile pkg.gale.nocuda, to
# keep CI's time; the CUDA flavour is built by hand where nvcc is), linted, installed
# with dpkg -i on CI's throwaway machine (CI=true, root) and used from there: the
# README's C example through pkg-config, the gale CLI on examples/, the bella plugin
# from the system plugin directory; then dpkg -r. Elsewhere it skips the install
# (exit 77, saying why) after building and linting.
echo "== Debian packages: dpkg-buildpackage, lintian, dpkg -i, the README example, gale, bella, dpkg -r (tools/deb-test.sh)"
deb_rc=0
bash tools/deb-test.sh || deb_rc=$?
[ $deb_rc -eq 0 ] || [ $deb_rc -eq 77 ] || exit 1

# The Python package as its README installs it, in a venv of Debian's python3 (pip builds
# it with meson-python fetched from PyPI; CPU only here, to keep CI's time): a wheel by
# `python -m build --wheel`, then `pip install ./bindings/python`, then the same against
# the libgale installed above (-Dsystem_libgale=true). Each is used from outside the
# source tree, by a script that checks results it can work out on its own.
echo "== the Python package: python -m build --wheel, pip install ./bindings/python, system libgale"
venv="$PWD/build/py-venv"
rm -rf "$venv" build/py-dist
/usr/bin/python3 -m venv --system-site-packages "$venv"
pipq=(--quiet --disable-pip-version-check --root-user-action=ignore)
cat > build/py-smoke.py <<'PY'
import sys, gale
want_lib = sys.argv[1]
r = gale.align_pairs(["GATTACA", "ACGT"], ["GATCACA", "AGT"], context=gale.Context("cpu", threads=1))
assert list(r.score) == [-4, -8] and r.cigar_strings() == ["3=1X3=", "1=1I2="], (r.score, r.cigar_strings())
assert list(gale.align_pairs(["ACGT"], ["AGT"], kind="edit").score) == [1]
import gale._gale as ext, os
maps = open("/proc/self/maps").read()
lib = [l.split()[-1] for l in maps.splitlines() if "libgale.so" in l][0]
assert want_lib in lib, (want_lib, lib)
print(f"gale {gale.__version__} from {gale.__file__}, libgale {lib}: ok")
PY
{ "$venv/bin/pip" install "${pipq[@]}" build \
  && "$venv/bin/python" -m build --wheel --outdir build/py-dist -Csetup-args=-Dgale:cuda=disabled bindings/python \
  && "$venv/bin/pip" install "${pipq[@]}" build/py-dist/gale-*.whl; } >build/py-install.log 2>&1 \
  || { tail -40 build/py-install.log; exit 1; }
unzip -l build/py-dist/gale-*.whl | grep "\.gale\.mesonpy\.libs/libgale\.so" >/dev/null \
  || { echo "the wheel holds no libgale"; unzip -l build/py-dist/gale-*.whl; exit 1; }
(cd / && "$venv/bin/python" "$OLDPWD/build/py-smoke.py" .gale.mesonpy.libs/libgale.so)
"$venv/bin/pip" install "${pipq[@]}" --force-reinstall --no-deps ./bindings/python \
  --config-settings=setup-args=-Dgale:cuda=disabled >build/py-install.log 2>&1 || { tail -40 build/py-install.log; exit 1; }
(cd / && "$venv/bin/python" "$OLDPWD/build/py-smoke.py" .gale.mesonpy.libs/libgale.so)
PKG_CONFIG_PATH="$pfx/inst/lib/pkgconfig" "$venv/bin/pip" install "${pipq[@]}" --force-reinstall --no-deps \
  ./bindings/python --config-settings=setup-args=-Dsystem_libgale=true >build/py-install.log 2>&1 \
  || { tail -40 build/py-install.log; exit 1; }
(cd / && LD_LIBRARY_PATH="$pfx/inst/lib" "$venv/bin/python" "$OLDPWD/build/py-smoke.py" "$pfx/inst/lib/libgale.so.0")
rm -rf "$pfx"
echo "== all suites passed"
