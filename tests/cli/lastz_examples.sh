#!/usr/bin/env bash
# cli-lastz-examples: the tests of Debian's lastz-examples that gale lastz can run (the
# gapped stage from anchors, and seeding with its default seed), with `gale lastz` in
# lastz's place, compared as the package's Makefile compares them (diff against its
# expected output). Those from anchors on its .2bit inputs as its Makefile names them
# (aglobin.2bit/human: the record of that name), then on the same records converted to
# FASTA (tests/cli/twobit_to_fa.py; N blocks as N, masked blocks lowercase).
#   base_test_anchors: aglobin.2bit/human against aglobin.2bit/cow, C=0 (no chaining, the
#     default from anchors: left out of gale's command), --format=maf-,
#     --anchors=base_test.anchors.anchors; expected base_test.anchors.maf.
#   base_test_anchors_multi: aglobin.2bit/human against shorties.fa[subset=shorties.names]
#     (the [subset=] file action), C=0 left out as above, --format=maf-,
#     --anchors=base_test.anchors_multi.anchors; expected base_test.anchors_multi.maf.
# Then the tests that seed (gale lastz without --segments, doc/lastz-seed.md), run as the
# Makefile runs them, from a test_results folder beside test_data (the paths appear in the
# output), the line naming the program masked (lav's command line, axt's first):
#   base_test_default: pseudocat.fa against pseudopig.fa, lav; expected base_test.default.lav.
#   base_test_axt: the same, --format=axt; expected base_test.default.axt.
#   base_test_segments: --nogapped --format=segments, then those HSPs as --segments: lav,
#     expected base_test.default.lav (the d stanza's command line masked too).
#   base_test_subrange: aglobin.2bit/human[10000,60000] against aglobin.2bit/cow[15000#40000],
#     lav; expected base_test.subrange.lav.
#   base_test_coi: aglobin.2bit/human against shorties.fa[subset=shorties.names], K=3000
#     --maf-; expected base_test.coi.maf (compared whole: maf- names no program).
#   base_test_mask: pseudocat.fa against pseudopig.fa[nmask=pseudopig.n.mask],
#     --ambiguous=n,60; expected base_test.mask.lav (its command line, lastz's older
#     --ambiguousn, masked).
# The others use options gale lastz does not take yet (chaining C=, W=/T= word and seed
# codes, --masking, [multi] queries; base_test_hw_seeded chains, C=3).
# Fails (never skips) when lastz-examples is missing. usage: lastz_examples.sh GALE CONVERTER
set -euo pipefail
gale=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # (absolute: the seeding tests run in a folder of their own)
conv=$2
src=/usr/share/doc/lastz/examples/test_data
if [ ! -f "$src/aglobin.2bit.gz" ]; then
  echo "FAIL: lastz-examples (Debian package) is not installed: $src/aglobin.2bit.gz missing" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in aglobin.2bit base_test.anchors.anchors base_test.anchors.maf shorties.fa base_test.anchors_multi.maf; do
  gunzip -c "$src/$f.gz" > "$work/$f"
done
cp "$src/shorties.names" "$src/base_test.anchors_multi.anchors" "$work/"
python3 "$conv" "$work/aglobin.2bit" human "$work/human.fa"
python3 "$conv" "$work/aglobin.2bit" cow "$work/cow.fa"
for input in 2bit fasta; do
  if [ "$input" = 2bit ]; then human=$work/aglobin.2bit/human cow=$work/aglobin.2bit/cow
  else human=$work/human.fa cow=$work/cow.fa; fi
  "$gale" lastz "$human" "$cow" --format=maf- --anchors="$work/base_test.anchors.anchors" \
    > "$work/base_test.anchors.maf.gale"
  if diff "$work/base_test.anchors.maf" "$work/base_test.anchors.maf.gale" > "$work/diff"; then
    echo "base_test_anchors ($input): identical to lastz-examples' expected output ($(grep -c '^a ' "$work/base_test.anchors.maf") alignments)"
  else
    echo "FAIL base_test_anchors ($input):"
    head -10 "$work/diff" | cut -c1-200
    exit 1
  fi
  "$gale" lastz "$human" "$work/shorties.fa[subset=$work/shorties.names]" --format=maf- \
    --anchors="$work/base_test.anchors_multi.anchors" > "$work/base_test.anchors_multi.maf.gale"
  n=$(grep -c '^a ' "$work/base_test.anchors_multi.maf")
  if [ "$n" -gt 0 ] && diff "$work/base_test.anchors_multi.maf" "$work/base_test.anchors_multi.maf.gale" > "$work/diff"; then
    echo "base_test_anchors_multi ($input): identical to lastz-examples' expected output ($n alignments)"
  else
    echo "FAIL base_test_anchors_multi ($input, $n expected alignments):"
    head -10 "$work/diff" | cut -c1-200
    exit 1
  fi
done
# a record the 2bit file does not have: refused naming it
rc=0
"$gale" lastz "$work/aglobin.2bit/nosuch" "$work/aglobin.2bit/cow" --anchors="$work/base_test.anchors.anchors" \
  > "$work/out" 2> "$work/err" || rc=$?
if [ "$rc" -ne 1 ] || [ -s "$work/out" ] || ! grep -q "nosuch" "$work/err"; then
  echo "FAIL: aglobin.2bit/nosuch: exit $rc: $(cat "$work/err")"
  exit 1
fi
# ---- the tests that seed ----
ex=$work/ex
mkdir -p "$ex/test_data" "$ex/test_results"
for f in pseudocat.fa pseudopig.fa base_test.default.lav base_test.default.axt base_test.subrange.lav base_test.coi.maf \
         base_test.mask.lav aglobin.2bit shorties.fa; do
  gunzip -c "$src/$f.gz" > "$ex/test_data/$f"
done
cp "$src/shorties.names" "$src/pseudopig.n.mask" "$ex/test_data/"
cd "$ex/test_results"
# same_as_expected NAME EXPECTED MASK: gale's output (test_results/NAME) against the
# package's; MASK: a sed script for both (the lines naming the program)
same_as_expected() {
  if diff <(sed -E "$3" "../test_data/$2") <(sed -E "$3" "$1") > ../diff; then
    echo "$1: identical to lastz-examples' $2"
  else
    echo "FAIL $1 against $2:"
    head -10 ../diff | cut -c1-200
    exit 1
  fi
}
"$gale" lastz ../test_data/pseudocat.fa ../test_data/pseudopig.fa | sed "s/\"gale\.[^ ]* //g" > default.lav
same_as_expected default.lav base_test.default.lav ''
"$gale" lastz ../test_data/pseudocat.fa ../test_data/pseudopig.fa --format=axt > default.axt
same_as_expected default.axt base_test.default.axt '1s/.*/PROGRAM/'
"$gale" lastz ../test_data/pseudocat.fa ../test_data/pseudopig.fa --nogapped --format=segments > segments.hsps
"$gale" lastz ../test_data/pseudocat.fa ../test_data/pseudopig.fa --segments=segments.hsps | sed "s/\"gale\.[^ ]* //g" > segments.lav
same_as_expected segments.lav base_test.default.lav '3s/.*/COMMAND/'
"$gale" lastz "../test_data/aglobin.2bit/human[10000,60000]" "../test_data/aglobin.2bit/cow[15000#40000]" > subrange.lav
same_as_expected subrange.lav base_test.subrange.lav '3s/(lastz|gale)\.v[0-9.]+/PROGRAM/'
"$gale" lastz ../test_data/aglobin.2bit/human "../test_data/shorties.fa[subset=../test_data/shorties.names]" K=3000 --maf- > coi.maf
same_as_expected coi.maf base_test.coi.maf ''
"$gale" lastz ../test_data/pseudocat.fa "../test_data/pseudopig.fa[nmask=../test_data/pseudopig.n.mask]" --ambiguous=n,60 > mask.lav
same_as_expected mask.lav base_test.mask.lav '3s/.*/COMMAND/'
