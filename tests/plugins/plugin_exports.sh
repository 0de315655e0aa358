#!/bin/sh
# plugin_exports.sh MODULE SYMBOL...
#
# The plugin's dynamic symbol table defines exactly the given symbols (its entry
# and its documented C functions): nothing internal leaks, no C++ symbol (_Z...),
# no symbol of the C++ runtime instantiated in the module. Also: the module needs
# libgale.so.0 (it calls the public API) and has no SONAME of a library of its own.
# Suite 'plugins'.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 MODULE SYMBOL..." >&2
    exit 2
fi
mod=$1
shift
fail=0
. "$(dirname "$0")/../common/dynsym.sh"
dynsym_dump "$mod" gale-plugin-exports
awk '{ print $NF }' "$tmp/nm" | sed 's/@.*//' | sort -u >"$tmp/defined"
printf '%s\n' "$@" | sort -u >"$tmp/expected"
if ! cmp -s "$tmp/defined" "$tmp/expected"; then
    echo "FAIL: the module's exports differ from the documented ones (< exported, > expected):" >&2
    diff "$tmp/defined" "$tmp/expected" >&2
    fail=1
fi
for s in $(cat "$tmp/defined"); do
    t=$(awk -v s="$s" '{ n = $NF; sub(/@.*/, "", n); if (n == s) print $(NF-1) }' "$tmp/nm" | head -1)
    case "$t" in
    T) ;;
    *)
        echo "FAIL: $s is exported with type $t (expected a function, T)" >&2
        fail=1
        ;;
    esac
done
if command -v readelf >/dev/null 2>&1; then
    readelf -d "$mod" >"$tmp/dyn"
    if ! grep -q 'NEEDED.*\[libgale\.so\.0\]' "$tmp/dyn"; then
        echo "FAIL: $mod does not depend on libgale.so.0" >&2
        fail=1
    fi
    if grep -q 'SONAME' "$tmp/dyn"; then
        echo "FAIL: $mod has a SONAME (a plugin is a module, not a library)" >&2
        fail=1
    fi
fi
if [ $fail -ne 0 ]; then
    echo "plugin exports: FAILED" >&2
    exit 1
fi
echo "plugin exports: ok ($(wc -l <"$tmp/defined") symbols: $(tr '\n' ' ' <"$tmp/defined"))"
