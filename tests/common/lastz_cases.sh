# Sourced by the scripts that compare with Debian's lastz on random homologous pairs
# (tests/cli/lastz_ref.sh, tests/plugins/lastz_plugin.sh, tests/oracle/ydrop_lastz.sh):
# the preamble they share and the steps of a case. Not run by itself.

# lastz_begin BASE WHAT: fails (never skips) unless lastz is installed (WHAT: what is
# missing then, "the reference" or "the oracle"); sets seed (GALE_TEST_SEED, else fresh),
# scale (GALE_TEST_SCALE, 1) and cases = max(2, int(BASE * scale)), prints the seed line,
# and makes the work folder $work, removed at exit (kept with GALE_KEEP_WORK=1, to look
# at a failing case).
lastz_begin() {
  if ! command -v lastz >/dev/null; then
    echo "FAIL: lastz (Debian package lastz) is not installed: $2 is missing" >&2
    exit 1
  fi
  seed=${GALE_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
  scale=${GALE_TEST_SCALE:-1}
  cases=$(python3 -c "print(max(2, int($1 * float('$scale'))))")
  echo "GALE_TEST_SEED=$seed cases=$cases"
  work=$(mktemp -d)
  [ -n "${GALE_KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
}

# lastz_split_query FILE [DESCRIPTION]: the FASTA query FILE rewritten as three records
# qry0, qry1, qry2 (their headers followed by DESCRIPTION, if given), 70 bases a line:
# lastz processes them one by one, + then - strand each, and picks anchors by name.
lastz_split_query() {
  python3 - "$1" "${2:-}" <<'PY'
import sys
p, desc = sys.argv[1], sys.argv[2]
seq = "".join(l.strip() for l in open(p) if not l.startswith(">"))
k = len(seq) // 3
with open(p, "w") as f:
    for i, part in enumerate([seq[:k], seq[k:2 * k], seq[2 * k:]]):
        f.write(">qry%d%s\n" % (i, " " + desc if desc else ""))
        for j in range(0, len(part), 70):
            f.write(part[j:j + 70] + "\n")
PY
}

# lastz_anchors DIR: lastz's ungapped anchors of DIR/target.fa and DIR/query.fa as a
# segments file, DIR/seg.
lastz_anchors() {
  lastz "$1/target.fa" "$1/query.fa" --nogapped --format=segments > "$1/seg" 2>/dev/null
}

# The checks against lastz (they need $gale, $work, and the counters total and fail).
# same_as_lastz LABEL CHECK ARGS...: one check. lastz ARGS and gale lastz ARGS, the header
# lines that name the program and its version masked (axt's first, maf's first two, lav's
# third: lastz's, gale's); it fails (printing LABEL and the first differences) unless both
# exit 0 and every other byte is equal, and, by CHECK: any (nothing more), some (lastz
# wrote something), 2 (at least two lines besides the # and @ headers), warn (some, and
# lastz's threshold warning on stderr written by gale too), fail (lastz fails, and gale
# with the same exit status after writing the same bytes). The array gale_only holds
# options for gale alone (none unless set).
gale_only=()
# both_refuse LABEL PATTERN ARGS...: one check. lastz ARGS must fail, and gale lastz ARGS
# exit 1 without writing anything, its message matching the extended regex PATTERN.
both_refuse() {
  local label=$1 pattern=$2 lrc=0 grc=0
  shift 2
  lastz "$@" > /dev/null 2>&1 || lrc=$?
  "$gale" lastz "$@" > "$work/out" 2> "$work/err" || grc=$?
  total=$((total + 1))
  if [ "$lrc" -eq 0 ] || [ "$grc" -ne 1 ] || [ -s "$work/out" ] || ! grep -qE "$pattern" "$work/err"; then
    echo "FAIL: $label: lastz exit $lrc, gale exit $grc: $(cat "$work/err")"
    fail=$((fail + 1))
  fi
}
same_as_lastz() {
  local label=$1 check=$2 lrc=0 grc=0 ok=1
  shift 2
  lastz "$@" > "$work/l.out" 2> "$work/l.err" || lrc=$?
  "$gale" lastz "$@" "${gale_only[@]}" > "$work/g.out" 2> "$work/g.err" || grc=$?
  sed -i -E '1,3s/(lastz|gale)\.v[0-9.]+/PROGRAM/g' "$work/l.out" "$work/g.out"
  if [ "$check" = fail ]; then
    { [ "$lrc" -ne 0 ] && [ "$grc" -eq "$lrc" ] && cmp -s "$work/l.out" "$work/g.out"; } || ok=0
  else
    { [ "$lrc" -eq 0 ] && [ "$grc" -eq 0 ] && cmp -s "$work/l.out" "$work/g.out"; } || ok=0
  fi
  case $check in
    some|warn) grep -q . "$work/l.out" || ok=0 ;;
    2) [ "$(grep -vc '^[#@]' "$work/l.out")" -ge 2 ] || ok=0 ;;
  esac
  if [ "$check" = warn ] &&
     ! cmp -s <(grep -v '^gale:' "$work/l.err" | grep -A2 '^WARNING') <(grep -A2 '^WARNING' "$work/g.err"); then
    ok=0
  fi
  total=$((total + 1))
  if [ "$ok" = 0 ]; then
    echo "FAIL: $label: lastz exit $lrc, gale exit $grc"
    diff "$work/l.out" "$work/g.out" | head -4 | cut -c1-200 || true
    head -3 "$work/g.err"
    fail=$((fail + 1))
  fi
}
