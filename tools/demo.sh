#!/usr/bin/env bash
# Sets everything up on a fresh Debian 12 machine and runs gale's main jobs on the
# bundled examples (on a GPU when the build found nvcc, so has the CUDA backend, and
# the machine has a usable GPU; otherwise on the CPU backend):
#   X-drop seed extension of examples/pairs.tsv, then
#   wavefront alignment (gap-affine, with CIGAR) of examples/wfa_pairs.seq.
# Results go to stdout as TSV; what runs is announced on stderr, and each job's
# closing summary (stderr) names the backend and the device that ran it.
#   bash tools/demo.sh [xdrop|wfa]     (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
job=${1:-both}
case "$job" in xdrop|wfa|both) ;; *) echo "usage: $0 [xdrop|wfa]" >&2; exit 2 ;; esac
bash tools/setup-deps.sh >&2
[ -f build/build.ninja ] || meson setup build >&2
meson compile -C build >&2
gale=./build/tools/gale/gale
# what this libgale can run on: its backends and the CUDA devices it sees
echo "== $("$gale" --version | grep '^libgale ')" >&2
# Each job's last line on stderr is its summary: "gale: CMD: N pairs in T s,
# backend cpu (K threads)" or "backend cuda (device D)", the one that ran.
if [ "$job" != wfa ]; then
  echo "== gale xdrop examples/pairs.tsv   (index score_left score_right score begH endH begV endV)" >&2
  "$gale" xdrop examples/pairs.tsv
fi
if [ "$job" != xdrop ]; then
  echo "== gale wfa examples/wfa_pairs.seq   (index score cigar)" >&2
  "$gale" wfa examples/wfa_pairs.seq
fi
