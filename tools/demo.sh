#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs gale's main job on the
# bundled example: X-drop seed extension of examples/pairs.tsv (GPU when one is
# found, otherwise the CPU backend). Results go to stdout as TSV.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh >&2
[ -f build/build.ninja ] || meson setup build >&2
meson compile -C build >&2
./build/tools/gale/gale xdrop "${@:---quiet}" examples/pairs.tsv
