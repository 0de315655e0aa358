#!/bin/sh
# The ABI guard of libgale.so.0 (libabigail: abidw, abidiff; Debian: abigail-tools).
#
#   tools/abi.sh check LIBGALE           compare a built libgale against every baseline
#   tools/abi.sh baseline LIBGALE NODE [INCLUDE]
#                                        write abi/NODE.abi from a debug build of a release
#                                        (INCLUDE: its headers, default include/)
#
# abi/NODE.abi is the exported interface (functions, their types, the layouts of the
# public structs; headers dir include/, with gale.h's parts in include/gale/) of the last
# release whose newest version node is NODE (lib/gale.map): each release that adds a node
# commits its baseline, and a release that appends struct members refreshes its own
# node's. `check` fails when, against any baseline:
#   - an existing symbol is removed or changes (its type, a parameter, the layout of a
#     struct it reaches), which abidiff reports, except members appended at the end of
#     a struct that begins with its size (gale's extension mechanism: gale.h, "Struct
#     sizes"; those structs are found in the public headers here, gale.h and its parts
#     include/gale/*.h, and trim() below says how);
#   - a symbol is added to a version node the baseline already has (a released node
#     is closed: new functions go into a new node).
# Additions in a new node pass, and are listed. Needs a library with DWARF (a debug or
# debugoptimized build: release builds hide struct layouts). The unit suite runs
# `check` on the build's libgale (tests/unit/meson.build, test 'abi').
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
abidir=$here/abi
inc=$here/include
mode=${1:-}
lib=${2:-}
usage="usage: $0 check LIBGALE | baseline LIBGALE NODE [INCLUDE]"
[ -n "$mode" ] && [ -n "$lib" ] || { echo "$usage" >&2; exit 2; }
for t in abidw abidiff; do
    command -v $t >/dev/null 2>&1 || { echo "abi.sh: $t not found (Debian: abigail-tools)" >&2; exit 77; }
done
[ -f "$lib" ] || { echo "abi.sh: no library at $lib" >&2; exit 1; }
# Without DWARF, abidw sees symbols only, not a single struct: refuse rather than pass.
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
    echo "abi.sh: $lib has no debug info (a release build?): configure a debug or debugoptimized build" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The one set of abidw options, for baselines and for the library under test.
dump() { # LIB OUT [HEADERS]
    abidw --no-corpus-path --no-comp-dir-path --short-locs --no-show-locs --drop-private-types \
        --exported-interfaces-only --headers-dir "${3:-$inc}" --out-file "$2" "$1"
}

# NAME VERSION of each exported function of an ABI dump.
symbols() {
    sed -n "s/.*<elf-symbol name='\([^']*\)' version='\([^']*\)'.*/\1 \2/p" "$1" | sort -u
}

case $mode in
baseline)
    node=${3:-}
    case $node in GALE_[0-9]*.[0-9]*) ;; *) echo "abi.sh baseline: NODE must be a version node (GALE_x.y)" >&2; exit 2 ;; esac
    mkdir -p "$abidir"
    dump "$lib" "$tmp/new.abi" "${4:-$inc}"
    newest=$(symbols "$tmp/new.abi" | awk '{ print $2 }' | sort -t. -k2n -u | tail -1)
    [ "$newest" = "$node" ] || { echo "abi.sh baseline: $lib's newest node is $newest, not $node" >&2; exit 1; }
    cp "$tmp/new.abi" "$abidir/$node.abi"
    echo "wrote abi/$node.abi: $(symbols "$tmp/new.abi" | wc -l) functions"
    exit 0
    ;;
check) ;;
*) echo "$usage" >&2; exit 2 ;;
esac

# The structs that begin with `size_t size;` (gale.h and its parts under include/gale/):
# appending members at their end is the extension gale's "Struct sizes" rule allows, and
# the only change let through.
awk '/^typedef struct gale_[a-z_]* \{$/ { name = $3; getline; if ($0 ~ /^ *size_t size;/) print name }' \
    "$inc"/*.h "$inc"/gale/*.h | sort -u >"$tmp/sized"
[ -s "$tmp/sized" ] || { echo "abi.sh: found no size-prefixed struct in $inc/*.h $inc/gale/*.h" >&2; exit 1; }

# Members appended to those structs are let through by trimming them from the dump of
# the library under test before abidiff compares it with a baseline: each such struct
# loses the members at offsets at or past the baseline's size, and takes that size
# back. Every other difference, including a change to any member the baseline has, is
# then abidiff's to report. (libabigail's own suppression for this, a [suppress_type]
# with has_data_member_inserted_at = end, is not exact: abidiff 2.2 then also hides a
# changed type of an existing member of that struct, which a deliberate break showed.)
# A member put into the baseline's tail padding lies below its size: it is reported,
# as an older caller's struct has uninitialised bytes there.
trim() { # BASELINE DUMP OUT
    python3 - "$tmp/sized" "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
sized = set(open(sys.argv[1]).read().split())
base, cur, out = sys.argv[2:5]
def structs(root):
    return [e for e in root.iter('class-decl')
            if e.get('name') in sized and e.get('is-declaration-only') != 'yes' and e.get('size-in-bits')]
old = {e.get('name'): int(e.get('size-in-bits')) for e in structs(ET.parse(base).getroot())}
tree = ET.parse(cur)
for e in structs(tree.getroot()):
    size = old.get(e.get('name'))
    if size is None or int(e.get('size-in-bits')) < size:
        continue  # a new struct, or a smaller one: abidiff's to judge
    for m in [m for m in e.findall('data-member') if int(m.get('layout-offset-in-bits', '0')) >= size]:
        e.remove(m)
    e.set('size-in-bits', str(size))
tree.write(out, encoding='unicode')
PY
}

# Oldest first (GALE_0.10 after GALE_0.9).
set -- $(ls "$abidir"/GALE_*.abi 2>/dev/null | sort -V)
[ $# -gt 0 ] || { echo "abi.sh: no baseline in $abidir" >&2; exit 1; }
newest=$(basename "$(eval echo \"\${$#}\")" .abi)
dump "$lib" "$tmp/cur.abi"
symbols "$tmp/cur.abi" >"$tmp/cur.syms"
fail=0
for base in "$@"; do
    b=$(basename "$base" .abi)
    symbols "$base" >"$tmp/base.syms"
    rc=0
    trim "$base" "$tmp/cur.abi" "$tmp/cur.trimmed.abi"
    abidiff --no-added-syms "$base" "$tmp/cur.trimmed.abi" >"$tmp/diff" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: the ABI changed against abi/$b.abi (abidiff status $rc):"
        cat "$tmp/diff"
        fail=1
    fi
    # Added functions: allowed only in nodes the baseline does not have.
    awk '{ print $2 }' "$tmp/base.syms" | sort -u >"$tmp/base.nodes"
    comm -13 "$tmp/base.syms" "$tmp/cur.syms" >"$tmp/added"
    while read -r fn node; do
        if grep -qx "$node" "$tmp/base.nodes"; then
            echo "FAIL: $fn@$node added to the released node $node (abi/$b.abi): new functions go into a new node"
            fail=1
        elif [ "$b" = "$newest" ]; then
            echo "added since abi/$b.abi: $fn@$node (a new node)"
        fi
    done <"$tmp/added"
    [ $rc -ne 0 ] || echo "abi/$b.abi: its $(wc -l <"$tmp/base.syms") functions and their types unchanged;" \
        "$(wc -l <"$tmp/added") functions added since"
done
echo "size-prefixed structs (may grow at the end): $(tr '\n' ' ' <"$tmp/sized")"
[ $fail -eq 0 ] || { echo "abi: FAILED (tools/abi.sh explains the rules)"; exit 1; }
echo "abi: ok"
