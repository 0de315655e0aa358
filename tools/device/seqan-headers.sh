#!/usr/bin/env bash
# Copies SeqAn 2.4's headers (Debian's libseqan2-dev: /usr/include/seqan; header-only,
# about 14 MB) into DIR/seqan, so that a machine without Debian packages (the device
# machine) builds the SeqAn oracles (bella_seqan, bella_gpu against SeqAn) from them:
#
#   tools/device/seqan-headers.sh [DIR]        (default .seqan/include; /.seqan/ is git-ignored)
#
# then carry DIR's top folder (.seqan) to the device and configure there with
# -Dseqan_include=DIR (meson_options.txt). SEQAN_HEADERS=/other/seqan copies another tree.
set -euo pipefail
dest=${1:-.seqan/include}
src=${SEQAN_HEADERS:-/usr/include/seqan}
if [ ! -f "$src/seeds.h" ] || [ ! -f "$src/version.h" ]; then
  echo "seqan-headers.sh: no SeqAn 2 headers in $src (apt-get install libseqan2-dev)" >&2
  exit 1
fi
ver=$(sed -n 's/^#define SEQAN_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' "$src/version.h" | paste -sd.)
mkdir -p "$dest"
# Copy beside the old copy and swap, so that an interrupted run never leaves a partial tree
# that -Dseqan_include would accept.
rm -rf "$dest/seqan.new"
cp -RL "$src" "$dest/seqan.new"
# SeqAn's licence travels with its code.
copyright=/usr/share/doc/libseqan2-dev/copyright
if [ -f "$copyright" ]; then cp "$copyright" "$dest/seqan.new/COPYRIGHT.debian"; fi
rm -rf "$dest/seqan"
mv "$dest/seqan.new" "$dest/seqan"
echo "SeqAn $ver headers: $src -> $dest/seqan ($(du -sh "$dest/seqan" | cut -f1), $(find "$dest/seqan" -type f | wc -l) files)"
