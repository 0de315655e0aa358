#!/usr/bin/env bash
# Installs gale's build and test dependencies on Debian 12 (needs root or sudo).
# Nothing here is needed at run time: libgale itself depends only on libc/libstdc++.
set -euo pipefail
pkgs=(meson ninja-build pkg-config g++ gcc libhts-dev zlib1g-dev libseqan2-dev libwfa2-dev samtools python3 python3-numpy gzip)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
