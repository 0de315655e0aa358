#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs gale's main jobs on the
# bundled examples (on a GPU when the build found nvcc, so has the CUDA backend, and
# the machine has a usable GPU; otherwise on the CPU backend):
#   X-drop seed extension of examples/pairs.tsv, then
#   wavefront alignment (gap-affine, with CIGAR) of examples/wfa_pairs.seq.
# Results go to stdout as TSV; what runs is announced on stderr.
#   bash tools/demo.sh [xdrop|wfa]     (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
job=${1:-both}
case "$job" in xdrop|wfa|both) ;; *) echo "usage: $0 [xdrop|wfa]" >&2; exit 2 ;; esac
bash tools/setup-deps.sh >&2
[ -f build/build.ninja ] || meson setup build >&2
meson compile -C build >&2
if [ "$job" != wfa ]; then
  echo "== gale xdrop --quiet examples/pairs.tsv   (index score_left score_right score begH endH begV endV)" >&2
  ./build/tools/gale/gale xdrop --quiet examples/pairs.tsv
fi
if [ "$job" != xdrop ]; then
  echo "== gale wfa --quiet examples/wfa_pairs.seq   (index score cigar)" >&2
  ./build/tools/gale/gale wfa --quiet examples/wfa_pairs.seq
fi
