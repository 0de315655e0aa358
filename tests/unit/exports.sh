#!/bin/sh
# exports.sh LIBRARY HEADER
#
# Checks the dynamic symbol table of the built libgale:
#  - every defined dynamic symbol is a gale_* function carrying the default
#    version @@GALE_0.1 (the only other entry allowed is the version node
#    GALE_0.1 itself, which nm lists as an absolute symbol);
#  - the exported functions are exactly the functions gale.h declares (GALE_API);
#  - the SONAME is libgale.so.0.
# Suite 'unit' (meson passes the library target and gale.h).
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 LIBRARY HEADER" >&2
    exit 2
fi
lib=$1
hdr=$2
fail=0

for tool in nm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "FAIL: $tool not found (binutils is needed for this test)" >&2
        exit 1
    fi
done
if [ ! -f "$lib" ]; then
    echo "FAIL: no library at $lib" >&2
    exit 1
fi

tmp=${TMPDIR:-/tmp}/gale-exports.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if ! nm -D --defined-only "$lib" >"$tmp/nm"; then
    echo "FAIL: nm -D --defined-only $lib failed" >&2
    exit 1
fi
echo "defined dynamic symbols of $lib:"
sed 's/^/  /' "$tmp/nm"

if ! grep -q '@' "$tmp/nm"; then
    echo "FAIL: nm shows no symbol versions at all (library not versioned, or nm too old to show them)" >&2
    exit 1
fi

# name column (the last field; the value column is absent for some types)
awk '{ print $NF, $(NF-1) }' "$tmp/nm" >"$tmp/names"
: >"$tmp/exported"
while read -r name type; do
    case "$name" in
    GALE_[0-9]*.[0-9]*)
        # the version definition itself (type A)
        if [ "$type" != "A" ]; then
            echo "FAIL: version node $name listed with type $type" >&2
            fail=1
        fi
        ;;
    gale_*@@GALE_0.1)
        case "$type" in
        T | t | W | i) ;;
        *)
            echo "FAIL: $name is exported with type $type (expected a function)" >&2
            fail=1
            ;;
        esac
        echo "${name%@@GALE_0.1}" >>"$tmp/exported"
        ;;
    *)
        echo "FAIL: unexpected exported symbol: $name (type $type)" >&2
        fail=1
        ;;
    esac
done <"$tmp/names"

# The functions gale.h declares: "GALE_API <type> [*]name(".
sed -n 's/^GALE_API[^(]*[ *]\(gale_[a-z0-9_]*\)(.*/\1/p' "$hdr" | sort -u >"$tmp/declared"
sort -u "$tmp/exported" >"$tmp/exported.sorted"
if [ ! -s "$tmp/declared" ]; then
    echo "FAIL: found no GALE_API declarations in $hdr" >&2
    fail=1
fi
if ! cmp -s "$tmp/declared" "$tmp/exported.sorted"; then
    echo "FAIL: exported functions differ from gale.h's declarations (< declared, > exported):" >&2
    diff "$tmp/declared" "$tmp/exported.sorted" >&2
    fail=1
else
    echo "exports: $(wc -l <"$tmp/declared") functions, all declared in gale.h, all @@GALE_0.1"
fi

# SONAME
soname=
if command -v readelf >/dev/null 2>&1; then
    soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
elif command -v objdump >/dev/null 2>&1; then
    soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
else
    echo "FAIL: neither readelf nor objdump found" >&2
    fail=1
fi
if [ "$soname" != "libgale.so.0" ]; then
    echo "FAIL: SONAME is '$soname', expected libgale.so.0" >&2
    fail=1
else
    echo "SONAME: $soname"
fi

if [ $fail -ne 0 ]; then
    echo "exports: FAILED" >&2
    exit 1
fi
echo "exports: ok"
exit 0
