#!/usr/bin/env bash
# gale poa against Debian's spoa 4.0.8, byte for byte, on generated windows.
#
#   poa_ref.sh GALE SPOA PYTHON
#
# Fresh random windows each run (seed printed; GALE_TEST_SEED reproduces;
# GALE_TEST_SCALE scales their number): each window a backbone and reads mutated
# from it at 1-20%, written as FASTA (names with descriptions), FASTQ (random
# qualities, which weigh the bases) and gzipped FASTA. Every window is compared
# with spoa under several option sets (-l 0/1/2, -r 0..4 and repeated -r,
# linear/affine/convex scores); -s and -d on windows whose reads are on both
# strands (the DOT files byte for byte, one window and several); then all windows in one run, three ways (one file
# per window, '=' separators, cudapoa's count format) against spoa's outputs
# concatenated.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

GALE=$1
SPOA=$2
PY=$3

random_seed poa_ref
NW=$(scaled 8 2)
"$PY" - "$TMP" "$NW" "$SEEDNUM" <<'PY' || fail "cannot generate the windows"
import gzip, random, sys
d, nw, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
def mutate(s, rate):
    out = []
    for b in s:
        u = rng.random()
        if u < rate / 3: out.append(rng.choice("ACGT".replace(b, "")))
        elif u < 2 * rate / 3: out.append(b); out.append(rng.choice("ACGT"))
        elif u < rate: pass
        else: out.append(b)
    return "".join(out) or "A"
with open(f"{d}/all.cudapoa", "w") as cp, open(f"{d}/all_sep.fa", "w") as sep:
    for w in range(nw):
        L = rng.randint(50, 800)
        n = rng.randint(2, 30)
        rate = rng.uniform(0.01, 0.2)
        bb = "".join(rng.choice("ACGT") for _ in range(L))
        reads = [mutate(bb, rate) for _ in range(n)]
        cp.write(f"{n}\n" + "".join(r + "\n" for r in reads))
        with open(f"{d}/w{w}.fa", "w") as fa, open(f"{d}/w{w}.fq", "w") as fq, open(f"{d}/n{w}.fa", "w") as nf:
            for i, r in enumerate(reads):
                fa.write(f">read{i} window {w}\n")
                for k in range(0, len(r), 70):  # multi-line FASTA
                    fa.write(r[k:k + 70] + "\n")
                q = "".join(chr(33 + rng.randint(0, 40)) for _ in r)
                fq.write(f"@read{i}\n{r}\n+\n{q}\n")
                nf.write(f">{i + 1}\n{r}\n")
        with open(f"{d}/w{w}.fa") as fa:
            if w: sep.write("=\n")
            sep.write(fa.read())
        with open(f"{d}/w{w}.fa", "rb") as fa, gzip.open(f"{d}/w{w}.fa.gz", "wb") as gz:
            gz.write(fa.read())
        # Both strands (spoa -s): each read reverse-complemented with probability 1/2,
        # with a few lower-case and IUPAC bytes (biosoup's complement table upper-cases
        # them, and spoa leaves a read kept forward complemented twice).
        comp = {"A": "T", "C": "G", "G": "C", "T": "A"}
        with open(f"{d}/s{w}.fa", "w") as sf, open(f"{d}/s{w}.fq", "w") as sq:
            for i, r in enumerate(reads):
                if rng.random() < 0.5: r = "".join(comp[b] for b in reversed(r))
                r = "".join(rng.choice("acgtuNRYKMSWBDHVn") if rng.random() < 0.01 else b for b in r)
                sf.write(f">s{i} strand test\n{r}\n")
                q = "".join(chr(33 + rng.randint(0, 40)) for _ in r)
                sq.write(f"@s{i}\n{r}\n+\n{q}\n")
PY

OPTSETS=(
    ""
    "-r 2"
    "-l 1 -r 4"
    "-l 2 -r 0 -r 1 -r 3"
    "-l 1 -m 8 -n -6 -g -8 -e -8 -r 2"
    "-l 2 -m 5 -n -4 -g -8 -e -2 -q -8 -c -2 -r 2"
    "-l 0 -m 2 -n -4 -g -4 -e -2 -q -24 -c -1 -r 4"
)

for w in $(seq 0 $((NW - 1))); do
    for o in "${OPTSETS[@]}"; do
        for f in "w$w.fa" "w$w.fq" "w$w.fa.gz"; do
            # shellcheck disable=SC2086
            "$SPOA" $o "$TMP/$f" > "$TMP/spoa.out" || fail "spoa $o $f failed"
            # shellcheck disable=SC2086
            "$GALE" poa $o "$TMP/$f" > "$TMP/gale.out" || fail "gale poa $o $f failed"
            same_file "$TMP/spoa.out" "$TMP/gale.out" "window $w ($f), options '$o'"
        done
    done
done

# -s and -d (the DOT file, byte for byte too) on reads of both strands. -r 1 alone:
# spoa draws no consensus, its DOT has no colours.
SOPTS=(
    "-s"
    "-s -r 2"
    "-s -l 1 -r 4"
    "-s -l 2 -r 0 -r 1 -r 3"
    "-s -l 0 -m 2 -n -4 -g -4 -e -2 -q -24 -c -1 -r 2"
    "-d DOT"
    "-d DOT -r 1"
    "-s -d DOT -r 1 -r 3"
    "-s -d DOT -l 1 -r 4"
)
for w in $(seq 0 $((NW - 1))); do
    for o in "${SOPTS[@]}"; do
        for f in "s$w.fa" "s$w.fq"; do
            rm -f "$TMP/spoa.dot" "$TMP/gale.dot"
            # shellcheck disable=SC2086
            "$SPOA" ${o//DOT/$TMP/spoa.dot} "$TMP/$f" > "$TMP/spoa.out" || fail "spoa $o $f failed"
            # shellcheck disable=SC2086
            "$GALE" poa ${o//DOT/$TMP/gale.dot} "$TMP/$f" > "$TMP/gale.out" || fail "gale poa $o $f failed"
            same_file "$TMP/spoa.out" "$TMP/gale.out" "window $w ($f), options '$o'"
            if [[ $o == *DOT* ]]; then
                same_file "$TMP/spoa.dot" "$TMP/gale.dot" "window $w ($f), options '$o': the DOT file"
            fi
        done
    done
done
# -d with several windows: FILE for the first, FILE.N for window N >= 2.
files=()
: > "$TMP/spoa_s.out"
for w in $(seq 0 $((NW - 1))); do
    "$SPOA" -s -r 2 -d "$TMP/spoa_w$w.dot" "$TMP/s$w.fa" >> "$TMP/spoa_s.out" || fail "spoa failed"
    files+=("$TMP/s$w.fa")
done
"$GALE" poa -s -r 2 -d "$TMP/gale_all.dot" --batch-size 3 "${files[@]}" > "$TMP/gale.out" ||
    fail "gale poa -s -d (files) failed"
same_file "$TMP/spoa_s.out" "$TMP/gale.out" "$NW windows, -s -r 2 -d"
same_file "$TMP/spoa_w0.dot" "$TMP/gale_all.dot" "$NW windows, -d: window 1's DOT"
for w in $(seq 1 $((NW - 1))); do
    same_file "$TMP/spoa_w$w.dot" "$TMP/gale_all.dot.$((w + 1))" "$NW windows, -d: window $((w + 1))'s DOT"
done

# Many windows in one run.
for o in "${OPTSETS[@]}"; do
    : > "$TMP/spoa_fa.out"
    : > "$TMP/spoa_n.out"
    files=()
    for w in $(seq 0 $((NW - 1))); do
        # shellcheck disable=SC2086
        "$SPOA" $o "$TMP/w$w.fa" >> "$TMP/spoa_fa.out" || fail "spoa failed"
        # shellcheck disable=SC2086
        "$SPOA" $o "$TMP/n$w.fa" >> "$TMP/spoa_n.out" || fail "spoa failed"
        files+=("$TMP/w$w.fa")
    done
    # shellcheck disable=SC2086
    "$GALE" poa $o --batch-size 5 "${files[@]}" > "$TMP/gale.out" || fail "gale poa (files) failed"
    same_file "$TMP/spoa_fa.out" "$TMP/gale.out" "$NW windows as $NW files, options '$o'"
    # shellcheck disable=SC2086
    "$GALE" poa $o "$TMP/all_sep.fa" > "$TMP/gale.out" || fail "gale poa (separators) failed"
    same_file "$TMP/spoa_fa.out" "$TMP/gale.out" "$NW windows separated by '=', options '$o'"
    # shellcheck disable=SC2086
    "$GALE" poa $o "$TMP/all.cudapoa" > "$TMP/gale.out" || fail "gale poa (cudapoa format) failed"
    same_file "$TMP/spoa_n.out" "$TMP/gale.out" "$NW windows in cudapoa's format, options '$o'"
done

# Refusals: a clear message, nothing on stdout.
USAGE_HINT=""
expect 2 "positive gap penalty" poa -g 3 "$TMP/w0.fa"
expect 2 "score out of int8" poa -m 300 "$TMP/w0.fa"
expect 2 "bad algorithm" poa -l 3 "$TMP/w0.fa"
printf '>r1\nAC GT\n' > "$TMP/bad.fa"
expect 1 "a space inside a sequence" poa "$TMP/bad.fa"
printf 'ACGT\n' > "$TMP/bad2.fa"
expect 1 "not a known format" poa "$TMP/bad2.fa"
printf '2\nACGT\n' > "$TMP/short.txt"
expect 1 "cudapoa window cut short" poa "$TMP/short.txt"
expect 1 "missing file" poa "$TMP/none.fa"
expect 1 "DOT file not writable" poa -d "$TMP/no/such/dir.dot" "$TMP/w0.fa"
done_checks
