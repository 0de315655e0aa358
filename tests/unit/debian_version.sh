#!/bin/sh
# debian_version.sh CHANGELOG VERSION: the newest entry of debian/changelog carries
# VERSION, meson.build's project version (one version for the library, the CLI and
# the Debian packages). A native package's version has no revision; were one added
# ("-1"), its upstream part must still be VERSION.
set -eu
changelog=$1 want=$2
got=$(sed -n '1s/^gale (\([^)]*\)) .*/\1/p' "$changelog")
[ -n "$got" ] || { echo "FAIL: $changelog does not begin with 'gale (VERSION) ...'" >&2; exit 1; }
if command -v dpkg-parsechangelog >/dev/null 2>&1; then
    parsed=$(dpkg-parsechangelog -l "$changelog" -S Version)
    [ "$parsed" = "$got" ] || { echo "FAIL: dpkg-parsechangelog reads $parsed, the first line says $got" >&2; exit 1; }
fi
upstream=${got%-*}
if [ "$upstream" != "$want" ]; then
    echo "FAIL: debian/changelog's version is $got, meson.build's is $want: add a changelog entry (dch -v $want)" >&2
    exit 1
fi
echo "debian/changelog: $got = meson.build's $want"
