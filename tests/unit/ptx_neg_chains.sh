#!/usr/bin/env bash
# ptx_neg_chains.sh NVCC SOURCE_ROOT BUILD_ROOT PYTHON - every CUDA source's PTX free of the
# min/max chains that CUDA 13.0's ptxas miscompiles for sm_90 (tools/ptx_neg_chains.py: it
# drops the negation in max(max(a, -b), c), which broke the Z-drop kernel). Also says
# whether this nvcc's ptxas has the bug (informational). Suite 'unit', CUDA builds only.
set -euo pipefail
nvcc=$1 src=$2 bld=$3 py=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" "$src/tools/ptx_neg_chains.py" --canary "$nvcc"
ptx=()
for cu in "$src"/cuda/*.cu; do
  out=$tmp/$(basename "$cu" .cu).ptx
  "$nvcc" -ptx -std=c++17 --expt-relaxed-constexpr -DGALE_BUILDING -arch=compute_90 \
    -I"$src/lib" -I"$src/include" -I"$bld" -I"$src/cuda" -I"$src" "$cu" -o "$out"
  ptx+=("$out")
done
"$py" "$src/tools/ptx_neg_chains.py" "${ptx[@]}"
