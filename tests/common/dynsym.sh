# dynsym.sh - sourced (POSIX sh) by the export checks, tests/unit/exports.sh and
# tests/plugins/plugin_exports.sh.
#
# dynsym_dump FILE NAME: needs nm; makes the directory $tmp (removed on exit),
# writes FILE's defined dynamic symbols to $tmp/nm and prints them. Any failure
# ends the script with 1.
dynsym_dump() {
    if ! command -v nm >/dev/null 2>&1; then
        echo "FAIL: nm not found (binutils is needed for this test)" >&2
        exit 1
    fi
    tmp=${TMPDIR:-/tmp}/$2.$$
    mkdir -p "$tmp" || exit 1
    trap 'rm -rf "$tmp"' EXIT INT TERM
    if ! nm -D --defined-only "$1" >"$tmp/nm"; then
        echo "FAIL: nm -D --defined-only $1 failed" >&2
        exit 1
    fi
    echo "defined dynamic symbols of $1:"
    sed 's/^/  /' "$tmp/nm"
}
