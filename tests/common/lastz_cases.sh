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
