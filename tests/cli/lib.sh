# Shared helpers of the cli test scripts (sourced, not run).
# Every check prints what it did; the first failure ends the script with 1.

set -u
set -o pipefail

CHECKS=0

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gale-cli-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

pass() {
    CHECKS=$((CHECKS + 1))
    echo "ok: $*"
}

# same_file A B WHAT: the two files are byte-identical.
same_file() {
    if cmp -s "$1" "$2"; then
        pass "$3"
    else
        echo "--- first differences ($1 vs $2):" >&2
        diff "$1" "$2" | head -20 >&2
        fail "$3: outputs differ"
    fi
}

# differ_file A B WHAT: the two files differ.
differ_file() {
    if cmp -s "$1" "$2"; then
        fail "$3: outputs are identical"
    else
        pass "$3"
    fi
}

# line_count FILE N WHAT
line_count() {
    local n
    n=$(wc -l < "$1")
    [ "$n" -eq "$2" ] || fail "$3: expected $2 lines, got $n"
}

# gzip_to SRC DST: a gzip copy (gzip, else python3).
gzip_to() {
    if command -v gzip > /dev/null 2>&1; then
        gzip -c -n "$1" > "$2"
    elif command -v python3 > /dev/null 2>&1; then
        python3 -c 'import gzip,shutil,sys; shutil.copyfileobj(open(sys.argv[1],"rb"), gzip.open(sys.argv[2],"wb"))' "$1" "$2"
    else
        fail "neither gzip nor python3 found to make a gzip file"
    fi
}

# tmp_left DIR: true when a "*.tmp.*" file (an -o temporary) is in DIR
tmp_left() {
    compgen -G "$1/*.tmp.*" > /dev/null
}

done_checks() {
    echo "all $CHECKS checks passed"
    exit 0
}
