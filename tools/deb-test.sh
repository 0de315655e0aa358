#!/usr/bin/env bash
# tools/deb-test.sh: gale's Debian packages as a Debian user gets them. Builds them
# (dpkg-buildpackage -us -uc -b, from a copy of the sources under build/deb/), runs
# lintian (errors and warnings fail; debian/README.source), installs them for real
# (dpkg -i), then, with nothing pointing into the build tree:
#   - compiles and runs the README's C example with `pkg-config --cflags --libs gale`;
#   - runs the installed `gale` on the bundled examples (the same output as the build
#     tree's CLI, which the cli suite checks against the references) and finds its
#     man pages;
#   - opens the bella plugin with gale_plugin_open, GALE_PLUGIN_PATH unset
#     (tests/install/bella_check.cpp);
# and removes them (dpkg -r), also on failure.
#
# Installing into /usr is for a throwaway machine: done as root when CI=true (CI's
# machine) or GALE_DEB_INSTALL=1; otherwise the packages are built and linted, and the
# script exits 77 (skipped) saying why. GALE_DEB_PROFILES: the build profiles
# (default pkg.gale.nocuda, CPU only, to keep CI's time; empty: CUDA when nvcc is
# found). GALE_BUILD_DIR: the build tree whose CLI's outputs the installed one must
# give (default build, tools/test.sh's). Called by tools/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
skip() { echo "deb-test: SKIPPED: $*"; exit 77; }

for t in dpkg-buildpackage dh lintian dpkg-parsechangelog; do
    command -v "$t" >/dev/null 2>&1 || skip "$t not found (a Debian machine with tools/setup-deps.sh's packages)"
done
profiles=${GALE_DEB_PROFILES-pkg.gale.nocuda}
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
pkgs=(libgale0 libgale-dev gale gale-plugins)

out=$src/build/deb
rm -rf "$out"
mkdir -p "$out/src"
# The sources as git sees them (tracked, and untracked but not ignored): never a build tree.
if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -cf - -T - 2>/dev/null | tar -xf - -C "$out/src"
else
    tar --exclude='./build*' -cf - . | tar -xf - -C "$out/src"
fi

echo "deb-test: dpkg-buildpackage -us -uc -b${profiles:+ -P$profiles} (log: build/deb/build.log)"
t0=$(date +%s)
if ! (cd "$out/src" && dpkg-buildpackage -us -uc -b ${profiles:+-P"$profiles"} -j"$(nproc 2>/dev/null || echo 2)") \
        >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log"
    echo "deb-test: dpkg-buildpackage failed"
    exit 1
fi
echo "deb-test: built in $(( $(date +%s) - t0 )) s: $(cd "$out" && ls ./*.deb | grep -v dbgsym | tr '\n' ' ')"
grep -F "Description" -A20 <(dpkg-deb -I "$out/libgale0_${version}_$arch.deb") | grep -F 'This build:'

changes=$out/gale_${version}_$arch.changes
echo "deb-test: lintian $(basename "$changes")"
lint=0
lintian --fail-on error,warning --info "$changes" >"$out/lintian.log" 2>&1 || lint=$?
grep -v '^running with root privileges' "$out/lintian.log" || true
if [ $lint -ne 0 ]; then
    echo "deb-test: lintian reported errors or warnings (fix them, or explain them in an override in debian/)"
    exit 1
fi

# ---- installed for real -------------------------------------------------------
if [ "$(id -u)" != 0 ]; then
    skip "installing into /usr needs root (packages built and linted in build/deb/)"
fi
if [ "${CI:-}" != true ] && [ "${GALE_DEB_INSTALL:-}" != 1 ]; then
    skip "not CI's throwaway machine (CI=true), nor GALE_DEB_INSTALL=1: packages built and linted, not installed into /usr"
fi
for p in "${pkgs[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "install ok installed" >/dev/null; then
        skip "$p is already installed here: not replacing or removing it (dpkg -r ${pkgs[*]} first)"
    fi
done
debs=()
for p in "${pkgs[@]}"; do debs+=("$out/${p}_${version}_$arch.deb"); done
cleanup() { dpkg -r "${pkgs[@]}" >"$out/remove.log" 2>&1 || { cat "$out/remove.log"; echo "deb-test: dpkg -r failed"; }; }
trap cleanup EXIT
# Another dpkg or apt may hold the lock for a while.
for try in 1 2 3 4 5 6 7 8 9 10; do
    if dpkg -i "${debs[@]}" >"$out/install.log" 2>&1; then break; fi
    grep -q "lock" "$out/install.log" && [ $try -lt 10 ] || { cat "$out/install.log"; echo "deb-test: dpkg -i failed"; exit 1; }
    sleep 6
done
echo "deb-test: installed ${pkgs[*]} $version"

work=$(mktemp -d)
trap 'cleanup; rm -rf "$work"' EXIT
# Nothing of the build tree or of an earlier setting may be found instead.
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH GALE_PLUGIN_PATH
lib=/usr/lib/$multiarch/libgale.so.0
[ -f "$lib" ] || { echo "deb-test: no $lib"; exit 1; }

# The README's C example (its first ```c block), built as the README says.
awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on' README.md >"$work/readme.c"
[ -s "$work/readme.c" ] || { echo "deb-test: no \`\`\`c block in README.md"; exit 1; }
cc "$work/readme.c" -o "$work/readme" $(pkg-config --cflags --libs gale)
# (/lib is /usr/lib on a merged-/usr system: the loader may name either.)
loaded=$(ldd "$work/readme" | awk '$1 == "libgale.so.0" { print $3 }')
[ -n "$loaded" ] && [ "$(readlink -f "$loaded")" = "$(readlink -f "$lib")" ] \
    || { echo "deb-test: the example does not load $lib"; ldd "$work/readme"; exit 1; }
got=$(cd / && "$work/readme")
echo "deb-test: README example: $got"
# Worked out by hand with SeqAn's rules (shared ORACLES.md): with X = 50 no cell dies,
# so each extension ends at the last cell, the sequences' ends (h [0,20), v [0,18)).
# Left of the seed, TTTTACGT against CCACGT: 4 matches, then TTTT against CC, 2
# mismatches and 2 gaps: 0. Right, ACGTAGGG against ACGTAGCC: 6 - 2 = 4. With the
# seed's 4: 8.
want="score 8: h [0,20) v [0,18)"
[ "$got" = "$want" ] || { echo "deb-test: expected '$want'"; exit 1; }

# Which backends the installed libgale has, and which one AUTO takes here.
cc tests/install/backend_check.c -o "$work/backend_check" $(pkg-config --cflags --libs gale)
(cd / && "$work/backend_check")

# The installed CLI, from another directory, with the system's libgale and no run path.
[ "$(command -v gale)" = /usr/bin/gale ] || { echo "deb-test: gale is $(command -v gale), not /usr/bin/gale"; exit 1; }
! readelf -d /usr/bin/gale | grep 'R.*PATH' >/dev/null || { echo "deb-test: /usr/bin/gale has a run path"; readelf -d /usr/bin/gale; exit 1; }
(cd / && gale --version)
ex=$src/examples
(cd / && gale xdrop --quiet --backend cpu "$ex/pairs.tsv") >"$work/xdrop.tsv"
(cd / && gale wfa --quiet --backend cpu "$ex/wfa_pairs.seq") >"$work/wfa_seq.tsv"
(cd / && gale wfa --quiet --backend cpu "$ex/wfa_patterns.fa" "$ex/wfa_texts.fa") >"$work/wfa_fa.tsv"
n=$(wc -l <"$ex/pairs.tsv")
[ "$(wc -l <"$work/xdrop.tsv")" -eq "$n" ] || { echo "deb-test: gale xdrop gave $(wc -l <"$work/xdrop.tsv") lines for $n pairs"; exit 1; }
n=$(grep -c '^>' "$ex/wfa_pairs.seq")
[ "$(wc -l <"$work/wfa_seq.tsv")" -eq "$n" ] || { echo "deb-test: gale wfa gave $(wc -l <"$work/wfa_seq.tsv") lines for $n pairs"; exit 1; }
n=$(grep -c '^>' "$ex/wfa_patterns.fa")
[ "$(wc -l <"$work/wfa_fa.tsv")" -eq "$n" ] || { echo "deb-test: gale wfa gave $(wc -l <"$work/wfa_fa.tsv") lines for $n records"; exit 1; }
tree_gale=$src/${GALE_BUILD_DIR:-build}/tools/gale/gale
if [ -x "$tree_gale" ]; then
    "$tree_gale" xdrop --quiet --backend cpu "$ex/pairs.tsv" | cmp - "$work/xdrop.tsv"
    "$tree_gale" wfa --quiet --backend cpu "$ex/wfa_pairs.seq" | cmp - "$work/wfa_seq.tsv"
    "$tree_gale" wfa --quiet --backend cpu "$ex/wfa_patterns.fa" "$ex/wfa_texts.fa" | cmp - "$work/wfa_fa.tsv"
    echo "deb-test: the installed gale's outputs on examples/ equal the build tree's"
else
    echo "deb-test: no build tree gale ($tree_gale) to compare the outputs with: line counts checked"
fi
for page in gale gale-xdrop gale-wfa; do
    f=/usr/share/man/man1/$page.1.gz
    zcat "$f" | grep -i "^\.TH \"\?$page\"\? \"\?1" >/dev/null || { echo "deb-test: no man page $page(1) at $f"; exit 1; }
done
echo "deb-test: man pages gale(1), gale-xdrop(1), gale-wfa(1)"

# The bella plugin from gale.pc's plugindir, found by gale_plugin_open on its own.
plugindir=$(pkg-config --variable=plugindir gale)
[ "$plugindir" = "/usr/lib/$multiarch/gale/plugins" ] || { echo "deb-test: gale.pc's plugindir is $plugindir"; exit 1; }
c++ tests/install/bella_check.cpp -o "$work/bella_check" $(pkg-config --cflags --libs gale)
(cd / && "$work/bella_check" "$plugindir")
echo "deb-test: ok"
