#!/bin/sh
# exports.sh LIBRARY HEADER...
#
# Checks the dynamic symbol table of the built libgale:
#  - every defined dynamic symbol is a gale_* function carrying one of the
#    release versions (@@GALE_0.1, @@GALE_0.2, @@GALE_0.3, @@GALE_0.4, @@GALE_0.6, or @@GALE_0.7 (to be released); the only other entries allowed
#    are the version nodes themselves, which nm lists as absolute symbols);
#  - the functions of release 0.1 still carry @@GALE_0.1 (moving one to a later
#    node would break programs linked against 0.1);
#  - the exported functions are exactly the functions the headers declare
#    (lines "GALE_API <type> name(" in gale.h, its parts include/gale/*.h, gale_plugin.h,
#    ...), and the headers passed include every part gale.h includes;
#  - the SONAME is libgale.so.0.
# Suite 'unit' (meson passes the library target and the public headers).
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 LIBRARY HEADER..." >&2
    exit 2
fi
lib=$1
shift
versions="GALE_0.1 GALE_0.2 GALE_0.3 GALE_0.4 GALE_0.6 GALE_0.7"
# The functions of 0.1, pinned to the GALE_0.1 node.
v01="gale_version gale_version_string gale_features gale_cuda_device_count gale_status_string
gale_last_error gale_ctx_opts_init gale_ctx_create gale_ctx_destroy gale_ctx_backend gale_ctx_threads
gale_batch_create gale_batch_destroy gale_batch_reset gale_batch_set gale_batch_get gale_task_init
gale_batch_add gale_batch_count gale_submit gale_poll gale_wait gale_cancel gale_result_get
gale_batch_stats"
fail=0

if [ ! -f "$lib" ]; then
    echo "FAIL: no library at $lib" >&2
    exit 1
fi
. "$(dirname "$0")/../common/dynsym.sh"
dynsym_dump "$lib" gale-exports

if ! grep -q '@' "$tmp/nm"; then
    echo "FAIL: nm shows no symbol versions at all (library not versioned, or nm too old to show them)" >&2
    exit 1
fi

# name column (the last field; the value column is absent for some types)
awk '{ print $NF, $(NF-1) }' "$tmp/nm" >"$tmp/names"
: >"$tmp/exported"
: >"$tmp/versioned"
while read -r name type; do
    case "$name" in
    GALE_[0-9]*.[0-9]*)
        # a version definition itself (type A)
        if [ "$type" != "A" ]; then
            echo "FAIL: version node $name listed with type $type" >&2
            fail=1
        fi
        case " $versions " in
        *" $name "*) ;;
        *)
            echo "FAIL: unknown version node $name (known: $versions)" >&2
            fail=1
            ;;
        esac
        ;;
    gale_*@@GALE_*)
        ver=${name##*@@}
        fn=${name%@@*}
        case " $versions " in
        *" $ver "*) ;;
        *)
            echo "FAIL: $fn carries unknown version $ver (known: $versions)" >&2
            fail=1
            ;;
        esac
        case "$type" in
        T | t | W | i) ;;
        *)
            echo "FAIL: $name is exported with type $type (expected a function)" >&2
            fail=1
            ;;
        esac
        echo "$fn $ver" >>"$tmp/versioned"
        echo "$fn" >>"$tmp/exported"
        ;;
    *)
        echo "FAIL: unexpected exported symbol: $name (type $type)" >&2
        fail=1
        ;;
    esac
done <"$tmp/names"

# 0.1's functions keep their version.
for fn in $v01; do
    got=$(awk -v f="$fn" '$1 == f { print $2 }' "$tmp/versioned" 2>/dev/null)
    if [ "$got" != "GALE_0.1" ]; then
        echo "FAIL: $fn is exported as '${got:-missing}', expected @@GALE_0.1" >&2
        fail=1
    fi
done

# The functions the headers declare: "GALE_API <type> [*]name(".
: >"$tmp/declared.all"
for hdr in "$@"; do
    if [ ! -f "$hdr" ]; then
        echo "FAIL: no header at $hdr" >&2
        fail=1
        continue
    fi
    # Every line that begins with GALE_API must give a name (a header of macros only,
    # such as gale/wfa.h, has none); gale.h and gale_plugin.h must have some.
    n_api=$(grep -c '^GALE_API' "$hdr")
    n_found=$(sed -n 's/^GALE_API[^(]*[ *]\(gale_[a-z0-9_]*\)(.*/\1/p' "$hdr" | tee -a "$tmp/declared.all" | wc -l)
    if [ "$n_found" -ne "$n_api" ]; then
        echo "FAIL: $hdr has $n_api lines beginning with GALE_API, but $n_found read as \"GALE_API <type> name(\"" >&2
        fail=1
    fi
    case ${hdr##*/} in
    gale.h | gale_plugin.h)
        if [ "$n_found" -eq 0 ]; then
            echo "FAIL: found no GALE_API declarations in $hdr" >&2
            fail=1
        fi
        ;;
    esac
    # gale.h's parts (its lines #include "gale/X.h") must be among the headers checked.
    if [ "${hdr##*/}" = gale.h ]; then
        for part in $(sed -n 's/^#include "\(gale\/[a-z0-9_]*\.h\)".*/\1/p' "$hdr"); do
            listed=0
            for h in "$@"; do
                if [ "$h" -ef "$(dirname "$hdr")/$part" ]; then listed=1; fi
            done
            if [ $listed -eq 0 ]; then
                echo "FAIL: gale.h includes $part, which is not among the headers checked (tests/unit/meson.build)" >&2
                fail=1
            fi
        done
    fi
done
sort -u "$tmp/declared.all" >"$tmp/declared"
sort -u "$tmp/exported" >"$tmp/exported.sorted"
if ! cmp -s "$tmp/declared" "$tmp/exported.sorted"; then
    echo "FAIL: exported functions differ from the headers' declarations (< declared, > exported):" >&2
    diff "$tmp/declared" "$tmp/exported.sorted" >&2
    fail=1
else
    echo "exports: $(wc -l <"$tmp/declared") functions, all declared in $*, versions:" \
        "$(awk '{ print $2 }' "$tmp/versioned" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
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
