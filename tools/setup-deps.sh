#!/usr/bin/env bash
# Installs gale's build and test dependencies on Debian 12 (needs root or sudo).
# Nothing here is needed at run time: libgale itself depends only on libc/libstdc++.
set -euo pipefail
pkgs=(meson ninja-build pkg-config g++ gcc libhts-dev zlib1g-dev libseqan2-dev libwfa2-dev libminimap2-dev samtools python3 python3-numpy gzip
      python3-dev python3-pytest python3-pip python3-venv unzip
      clang libclang-rt-dev llvm openmpi-bin libopenmpi-dev
      help2man debhelper dpkg-dev lintian abigail-tools
      lastz lastz-examples libspoa-dev spoa minimap2)
# clang and libclang-rt-dev: the libFuzzer harnesses (tools/fuzz.sh; -fsanitize=fuzzer's
# runtime is in libclang-rt-dev, which clang only recommends); llvm: llvm-symbolizer for
# readable sanitizer stacks. openmpi-bin and libopenmpi-dev: the CLI with MPI (mpirun -np N
# gale ...) and its test, cli-mpi (tools/device/mpi-libs.sh copies them for the GPU machine).
# help2man: the CLI's man pages (tools/gale/man.sh). debhelper, dpkg-dev, lintian: the
# Debian packages and their test (tools/deb-test.sh). abigail-tools: abidw and abidiff,
# the ABI guard (tools/abi.sh, unit test 'abi'). lastz and lastz-examples: the LASTZ
# gapped-extension oracle (tests/oracle/ydrop_lastz.sh) and its CLI tests. libspoa-dev and spoa: the POA oracle (SPOA 4.0.8)
# and `gale poa`'s byte-for-byte test. minimap2: Debian's minimap2 2.24, which minimap2 built with the
# ksw2 plugin must equal byte for byte (tests/plugins/ksw2_minimap2.sh).
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "install ok installed" >/dev/null || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Python suite's peers (bindings/python/tests/test_peers.py), pinned, from PyPI, into
# .pydeps/<python version>/ of this checkout, for the python3 that Debian's meson runs on
# (the one the extension is built for). --no-deps: numpy is Debian's. Skipped when present.
py=/usr/bin/python3
pyver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pydeps="$(cd "$(dirname "$0")/.." && pwd)/.pydeps/$pyver"
if ! PYTHONPATH="$pydeps" "$py" -c 'import pywfa, parasail, edlib' 2>/dev/null; then
  "$py" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --target "$pydeps" --upgrade \
    pywfa==0.6.0 parasail==1.3.4 edlib==1.3.9.post1
fi
