# Shared helpers of the cli test scripts (sourced, not run).
# Every check prints what it did; the first failure ends the script with 1.

set -u
set -o pipefail  # so no `grep -q` ends a pipe: its early exit can kill the writer (SIGPIPE)

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

# expect_status RC NAME PATTERN CMD...: CMD exits with status RC and its stderr
# matches PATTERN (an ERE); stdout goes to $TMP/out, stderr to $TMP/err.
expect_status() {
    local want=$1 name=$2 pat=$3 rc=0
    shift 3
    "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
    [ "$rc" -eq "$want" ] || { cat "$TMP/err" >&2; fail "$name: exit status $rc, expected $want"; }
    grep -Eq -- "$pat" "$TMP/err" || { cat "$TMP/err" >&2; fail "$name: message does not match '$pat'"; }
    pass "$name: $(head -n 1 "$TMP/err")"
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

# bgzf_to SRC DST [noeof]: a BGZF copy in blocks of 4096 bytes (python3), with
# BGZF's end-of-file marker unless noeof.
bgzf_to() {
    command -v python3 > /dev/null 2>&1 || fail "python3 is needed to make a BGZF file"
    python3 - "$@" <<'PY' || fail "cannot write $2 as BGZF"
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
with open(sys.argv[2], 'wb') as out:
    for i in range(0, len(data), 4096):
        chunk = data[i:i + 4096]
        z = zlib.compressobj(6, zlib.DEFLATED, -15)
        body = z.compress(chunk) + z.flush()
        # gzip header with the BC extra field: BSIZE = block size - 1
        out.write(struct.pack('<4BI2BH2BHH', 31, 139, 8, 4, 0, 0, 255, 6, 66, 67, 2, 18 + len(body) + 8 - 1))
        out.write(body)
        out.write(struct.pack('<II', zlib.crc32(chunk) & 0xffffffff, len(chunk)))
    if sys.argv[3:] != ['noeof']:
        out.write(bytes.fromhex('1f8b08040000000000ff0600424302001b0003000000000000000000'))
PY
}

# tmp_left DIR: true when a "*.tmp.*" file (an -o temporary) is in DIR
tmp_left() {
    compgen -G "$1/*.tmp.*" > /dev/null
}

# scaled N LO: N times GALE_TEST_SCALE (default 1), at least LO.
scaled() {
    awk -v s="${GALE_TEST_SCALE:-1.0}" -v n="$1" -v lo="$2" 'BEGIN { if (!(s > 0)) s = 1; v = int(n * s); if (v < lo) v = lo; print v }'
}

# random_seed WHAT: sets SEEDNUM (GALE_TEST_SEED, else a fresh random number) and
# seeds $RANDOM with it (scorings drawn in the script follow the seed); prints
# the seed with WHAT.
random_seed() {
    SEEDNUM=${GALE_TEST_SEED:-$(( (RANDOM << 15) | RANDOM ))}
    RANDOM=$SEEDNUM
    echo "$1: seed $SEEDNUM (GALE_TEST_SEED=$SEEDNUM reproduces)"
}

# expect RC NAME ARGS...: runs "$GALE" ARGS; exit status RC, nothing on stdout
# unless RC is 0, a "gale: " message on stderr when RC is not 0 (and the line
# $USAGE_HINT, where set, for RC 2).
expect() {
    local want=$1 name=$2 rc
    shift 2
    "$GALE" "$@" > "$TMP/stdout" 2> "$TMP/stderr" < /dev/null
    rc=$?
    [ "$rc" -eq "$want" ] || { cat "$TMP/stderr" >&2; fail "$name: exit status $rc, expected $want (gale $*)"; }
    if [ "$want" -ne 0 ]; then
        [ ! -s "$TMP/stdout" ] || fail "$name: wrote to stdout"
        grep -q '^gale: ' "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$name: no 'gale: ' message"; }
        if [ "$want" -eq 2 ] && [ -n "${USAGE_HINT:-}" ]; then
            grep -q -F "$USAGE_HINT" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$name: no pointer to the usage"; }
        fi
        pass "$name: exit $want, '$(grep -m1 '^gale: ' "$TMP/stderr" | cut -c1-100)'"
    else
        pass "$name: exit 0"
    fi
}

done_checks() {
    echo "all $CHECKS checks passed"
    exit 0
}
