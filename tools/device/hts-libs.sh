#!/usr/bin/env bash
# Copies htslib 1.16 (Debian's libhts-dev: headers and the shared library with the two
# libraries it needs that a plain Ubuntu machine lacks) into DIR, with a pkg-config file,
# so that the device machine, which has no htslib, can build and run the gale CLI:
#
#   tools/device/hts-libs.sh [DIR]          (default .hts; /.hts/ is git-ignored)
#
# then carry DIR to the device; tools/device/run.sh finds .hts and builds the CLI with it
# (PKG_CONFIG_PATH=DIR/lib/pkgconfig, run time LD_LIBRARY_PATH=DIR/lib). The link line
# carries -rpath-link so that the linker finds libhts's own libraries in DIR/lib.
set -euo pipefail
dest=${1:-.hts}
lib=/usr/lib/x86_64-linux-gnu
if [ ! -f /usr/include/htslib/hts.h ] || [ ! -f "$lib/libhts.so.3" ]; then
  echo "hts-libs.sh: no htslib here (apt-get install libhts-dev)" >&2
  exit 1
fi
rm -rf "$dest.new"
mkdir -p "$dest.new/lib/pkgconfig" "$dest.new/include"
cp -RL /usr/include/htslib "$dest.new/include/"
# Real files, not links (a link travels to the device only as a link).
cp -L "$lib/libhts.so.3" "$dest.new/lib/libhts.so.3"
cp -L "$lib/libhts.so.3" "$dest.new/lib/libhts.so"
for d in libdeflate.so.0 libhtscodecs.so.2; do
  src=$(ldconfig -p | awk -v n="$d" '$1 == n && /x86-64/ && !f {print $NF; f = 1}')  # no early exit: ldconfig would get SIGPIPE
  [ -n "$src" ] || { echo "hts-libs.sh: $d not found" >&2; exit 1; }
  cp -L "$src" "$dest.new/lib/$d"
done
cat > "$dest.new/lib/pkgconfig/htslib.pc" <<'PC'
prefix=${pcfiledir}/../..
includedir=${prefix}/include
libdir=${prefix}/lib

Name: htslib
Description: htslib 1.16 carried from Debian's libhts-dev (tools/device/hts-libs.sh)
Version: 1.16
Cflags: -I${includedir}
Libs: -L${libdir} -lhts -Wl,-rpath-link,${libdir}
PC
# htslib's licence travels with it.
[ -f /usr/share/doc/libhts3/copyright ] && cp /usr/share/doc/libhts3/copyright "$dest.new/COPYRIGHT.debian"
rm -rf "$dest"
mv "$dest.new" "$dest"
echo "htslib $(sed -n 's/^Version: //p' "$dest/lib/pkgconfig/htslib.pc"): $dest ($(du -sh "$dest" | cut -f1))"
