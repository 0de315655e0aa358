#!/usr/bin/env bash
# cli-lastz-examples: the tests of Debian's lastz-examples that run the gapped stage from
# anchors, with `gale lastz` in lastz's place, compared as the package's Makefile compares
# them (diff against its expected output), on its .2bit inputs as its Makefile names them
# (aglobin.2bit/human: the record of that name), then on the same records converted to
# FASTA (tests/cli/twobit_to_fa.py; N blocks as N, masked blocks lowercase).
#   base_test_anchors: aglobin.2bit/human against aglobin.2bit/cow, C=0 (no chaining, the
#     default from anchors: left out of gale's command), --format=maf-,
#     --anchors=base_test.anchors.anchors; expected base_test.anchors.maf.
#   base_test_anchors_multi: aglobin.2bit/human against shorties.fa[subset=shorties.names]
#     (the [subset=] file action), C=0 left out as above, --format=maf-,
#     --anchors=base_test.anchors_multi.anchors; expected base_test.anchors_multi.maf.
# The package's other tests seed and extend ungapped themselves (not gale lastz's job);
# base_test_subrange and base_test_multi_subrange also take subranges, which gale lastz
# refuses so far.
# Fails (never skips) when lastz-examples is missing. usage: lastz_examples.sh GALE CONVERTER
set -euo pipefail
gale=$1
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
