#!/usr/bin/env bash
# gale xdrop input/output paths: FILE, stdin, gzip, -o, batching, threads,
# line endings, empty input, and the strand-c transform checked against the
# same pairs given on strand n (no SeqAn needed).
#
#   io.sh GALE EXAMPLE
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
EXAMPLE=$2
NPAIRS=$(wc -l < "$EXAMPLE")
[ "$NPAIRS" -gt 0 ] || fail "example file $EXAMPLE is empty"

# ---- the baseline: FILE to stdout
"$GALE" xdrop "$EXAMPLE" > "$TMP/base.out" 2> "$TMP/base.err" || fail "gale xdrop FILE exited with $?"
line_count "$TMP/base.out" "$NPAIRS" "gale xdrop FILE"
# stderr, no terminal: the closing summary and nothing else (no progress bar)
[ "$(wc -l < "$TMP/base.err")" -eq 1 ] && grep -q "^gale: xdrop: $NPAIRS pairs in " "$TMP/base.err" ||
    { cat "$TMP/base.err" >&2; fail "a good run wrote more than its summary to stderr (stderr is no terminal)"; }
"$GALE" xdrop -q "$EXAMPLE" > /dev/null 2> "$TMP/base.err" || fail "gale xdrop -q FILE exited with $?"
[ ! -s "$TMP/base.err" ] || { cat "$TMP/base.err" >&2; fail "gale -q wrote to stderr on a good run"; }
# 8 TAB-separated fields, index 0..n-1 in order, score = left + right + k,
# end >= begin, and the extended seed contains the input seed's length
awk -F'\t' -v k=17 '
    NF != 8 { print "line " NR ": " NF " fields"; bad = 1; exit }
    $1 != NR - 1 { print "line " NR ": index " $1; bad = 1; exit }
    $4 != $2 + $3 + k { print "line " NR ": score " $4 " != " $2 " + " $3 " + " k; bad = 1; exit }
    $6 - $5 < k || $8 - $7 < k { print "line " NR ": extended seed shorter than k"; bad = 1; exit }
    END { exit bad }' "$TMP/base.out" || fail "output format"
pass "output format: $NPAIRS lines of 8 fields, indexes in order, score = left + right + k"

# ---- stdin, pipes, gzip
"$GALE" xdrop - < "$EXAMPLE" > "$TMP/o.out" || fail "gale xdrop - exited with $?"
same_file "$TMP/base.out" "$TMP/o.out" "'-' reads stdin (redirect)"
# shellcheck disable=SC2002
cat "$EXAMPLE" | "$GALE" xdrop - > "$TMP/o.out" || fail "gale xdrop - (pipe) exited with $?"
same_file "$TMP/base.out" "$TMP/o.out" "'-' reads stdin (pipe)"

gzip_to "$EXAMPLE" "$TMP/pairs.tsv.gz"
"$GALE" xdrop "$TMP/pairs.tsv.gz" > "$TMP/o.out" || fail "gale xdrop FILE.gz exited with $?"
same_file "$TMP/base.out" "$TMP/o.out" "gzipped FILE"
"$GALE" xdrop - < "$TMP/pairs.tsv.gz" > "$TMP/o.out" || fail "gale xdrop - < FILE.gz exited with $?"
same_file "$TMP/base.out" "$TMP/o.out" "gzipped stdin"
cp "$TMP/pairs.tsv.gz" "$TMP/pairs_gz_without_suffix"
"$GALE" xdrop "$TMP/pairs_gz_without_suffix" > "$TMP/o.out" || fail "gzip without .gz suffix exited with $?"
same_file "$TMP/base.out" "$TMP/o.out" "gzip detected by content, not by name"
if command -v bgzip > /dev/null 2>&1; then
    bgzip -c "$EXAMPLE" > "$TMP/pairs.tsv.bgz"
    "$GALE" xdrop "$TMP/pairs.tsv.bgz" > "$TMP/o.out" || fail "gale xdrop FILE.bgz exited with $?"
    same_file "$TMP/base.out" "$TMP/o.out" "bgzipped FILE"
else
    echo "note: bgzip not installed; BGZF input covered by gzip only"
fi

# ---- -o FILE
"$GALE" xdrop -o "$TMP/out.tsv" "$EXAMPLE" > "$TMP/stdout" || fail "gale xdrop -o exited with $?"
same_file "$TMP/base.out" "$TMP/out.tsv" "-o FILE holds the results"
[ ! -s "$TMP/stdout" ] || fail "-o FILE: something was written to stdout"
pass "-o FILE: nothing on stdout"
echo "old content" > "$TMP/out2.tsv"
(umask 022 && "$GALE" xdrop --output "$TMP/out2.tsv" "$EXAMPLE") || fail "gale xdrop --output exited with $?"
same_file "$TMP/base.out" "$TMP/out2.tsv" "--output FILE replaces an existing file"
rm -f "$TMP/out3.tsv"
(umask 022 && "$GALE" xdrop -o "$TMP/out3.tsv" "$EXAMPLE") || fail "gale xdrop -o (new file) exited with $?"
MODE=$(stat -c %a "$TMP/out3.tsv" 2> /dev/null || echo unknown)
if [ "$MODE" = unknown ]; then
    echo "note: stat -c not available; file mode not checked"
else
    [ "$MODE" = 644 ] || fail "-o FILE created with mode $MODE under umask 022 (expected 644)"
    pass "-o FILE gets the umask's mode (644)"
fi
! tmp_left "$TMP" || fail "temporary files left next to -o FILE: $(ls "$TMP")"
pass "no temporary file left next to -o FILE"
"$GALE" xdrop -o - "$EXAMPLE" > "$TMP/o.out" || fail "gale xdrop -o - exited with $?"
same_file "$TMP/base.out" "$TMP/o.out" "-o - is stdout"

# ---- batching, threads, backend, quiet: same results
for opt in "--batch-size 1" "--batch-size 7" "--batch-size 64" "--threads 1" "--threads 3" \
           "--backend cpu" "--quiet" "-q --threads 2 --batch-size 50"; do
    # shellcheck disable=SC2086
    "$GALE" xdrop $opt "$EXAMPLE" > "$TMP/o.out" || fail "gale xdrop $opt exited with $?"
    same_file "$TMP/base.out" "$TMP/o.out" "same results with $opt"
done
# options after the file name (GNU-style permutation)
"$GALE" xdrop "$EXAMPLE" --threads 2 -x 100 > "$TMP/o.out" || fail "options after FILE: exit $?"
same_file "$TMP/base.out" "$TMP/o.out" "options after FILE"

# ---- line endings
sed 's/$/\r/' "$EXAMPLE" > "$TMP/crlf.tsv"
"$GALE" xdrop "$TMP/crlf.tsv" > "$TMP/o.out" || fail "CRLF input exited with $?"
same_file "$TMP/base.out" "$TMP/o.out" "CRLF line endings"
head -c -1 "$EXAMPLE" > "$TMP/nonl.tsv"
[ "$(tail -c 1 "$TMP/nonl.tsv" | od -An -c | tr -d ' ')" != '\n' ] || fail "could not strip the final newline"
"$GALE" xdrop "$TMP/nonl.tsv" > "$TMP/o.out" || fail "input without final newline exited with $?"
same_file "$TMP/base.out" "$TMP/o.out" "no newline at the end of the last line"

# ---- empty input
: > "$TMP/empty.tsv"
"$GALE" xdrop "$TMP/empty.tsv" > "$TMP/o.out" || fail "empty input exited with $?"
[ ! -s "$TMP/o.out" ] || fail "empty input gave output"
pass "empty input: exit 0, no output"
"$GALE" xdrop -o "$TMP/empty.out" "$TMP/empty.tsv" || fail "empty input with -o exited with $?"
[ -f "$TMP/empty.out" ] && [ ! -s "$TMP/empty.out" ] || fail "empty input with -o: no empty file"
pass "empty input with -o: an empty file"

# ---- strand c is BELLA's transform: give every strand-n pair as strand c
# (seqH reverse complemented, posH -> len - posH - k); the results must be the
# same, H coordinates being on the reverse complement of the new seqH, i.e. on
# the original seqH.
awk -F'\t' -v OFS='\t' -v k=17 '
    BEGIN {
        split("A C G T U N R Y S W K M B D H V", f, " ")
        split("T G C A A N Y R S W M K V H D B", t, " ")
        for (i in f) { c[f[i]] = t[i]; c[tolower(f[i])] = tolower(t[i]) }
    }
    $5 == "n" {
        h = $3; r = ""
        for (i = length(h); i >= 1; i--) r = r c[substr(h, i, 1)]
        print $1, $2, r, length(h) - $4 - k, "c"
    }' "$EXAMPLE" > "$TMP/flipped.tsv"
awk -F'\t' '$5 == "n"' "$EXAMPLE" > "$TMP/forward.tsv"
NF_=$(wc -l < "$TMP/forward.tsv")
[ "$NF_" -gt 10 ] || fail "too few strand-n pairs in the example ($NF_)"
"$GALE" xdrop "$TMP/forward.tsv" > "$TMP/fwd.out" || fail "forward pairs exited with $?"
"$GALE" xdrop "$TMP/flipped.tsv" > "$TMP/flip.out" || fail "flipped pairs exited with $?"
same_file "$TMP/fwd.out" "$TMP/flip.out" "strand c of the reverse complement equals strand n ($NF_ pairs)"
# and the example's own strand-c pairs are seeds: each extends beyond k
awk -F'\t' '$5 == "c" { print NR - 1 }' "$EXAMPLE" > "$TMP/c_idx"
[ -s "$TMP/c_idx" ] || fail "the example has no strand-c pair"
awk -F'\t' 'NR == FNR { want[$1] = 1; next } ($1 in want) && $4 > 17 { n++ } END { print n + 0 }' \
    "$TMP/c_idx" "$TMP/base.out" > "$TMP/c_ext"
[ "$(cat "$TMP/c_ext")" -ge "$(( $(wc -l < "$TMP/c_idx") * 9 / 10 ))" ] ||
    fail "only $(cat "$TMP/c_ext") of $(wc -l < "$TMP/c_idx") strand-c pairs of the example extend (planted seed not found?)"
pass "$(cat "$TMP/c_ext") of $(wc -l < "$TMP/c_idx") strand-c example pairs extend beyond the seed"

done_checks
