#!/usr/bin/env bash
# Oracle on real sequence: gale's WFA kinds against WFA2-lib 2.3.3 on real homologous pairs
# (tests/oracle/wfa_real_pairs.py: cat against pig and pig against pig from Debian's
# lastz-examples, aligned by lastz and cut into pieces at random op boundaries, fresh each
# run). wfa_metrics_wfa2 --pairs runs WFA2-lib's own test script's configurations
# (penalties, match scores, scopes, memory modes) and random metrics on them;
# wfa_heuristic_wfa2 --pairs runs the script's wfa-adaptive runs and every heuristic
# with random parameters. Fails (never skips) when lastz or its example data is missing.
# Seed printed (GALE_TEST_SEED replays it: the pieces and both programs' draws).
# usage: wfa_real.sh GENERATOR METRICS_ORACLE HEURISTIC_ORACLE
set -euo pipefail
gen=$1 metrics=$2 heuristic=$3
data=${GALE_LASTZ_TEST_DATA:-/usr/share/doc/lastz/examples/test_data}
if ! command -v lastz >/dev/null; then
  echo "FAIL: lastz (Debian package lastz) is not installed: the real pairs are missing" >&2
  exit 1
fi
if [ ! -f "$data/pseudocat.fa.gz" ]; then
  echo "FAIL: $data/pseudocat.fa.gz missing (Debian package lastz-examples)" >&2
  exit 1
fi
seed=${GALE_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "GALE_TEST_SEED=$seed"
export GALE_TEST_SEED=$seed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$gen" "$(command -v lastz)" "$data" "$work/real.seq" "$seed"
"$metrics" --pairs "$work/real.seq"
"$heuristic" --pairs "$work/real.seq"
