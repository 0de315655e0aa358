#!/usr/bin/env python3
"""Generate examples/pairs.tsv, the example input of `gale xdrop`.

The format is LOGAN's demo format, one pair per line:

    seqV <TAB> posV <TAB> seqH <TAB> posH <TAB> strand

Every pair shares a planted k-mer (k = 17): it is at [posV, posV+17) on V and,
after the strand transform gale applies (for strand `c`: H is reverse
complemented and posH becomes len(H) - posH - 17, as BELLA does), at
[posH, posH+17) on H. Outside the seed, H is V's sequence with about 15% random
edits (substitutions, insertions, deletions), or unrelated sequence for some
flanks so that the X-drop stops before the sequence ends.

Deterministic: python3 + the standard library only, fixed seed. Usage:

    python3 examples/make_example.py [--seed N] [--pairs N] [-o FILE]

The committed examples/pairs.tsv was written with the defaults.
"""

import argparse
import random
import sys

K = 17
BASES = "ACGT"
IUPAC = "RYSWKMBDHV"
COMPLEMENT = str.maketrans(
    "ACGTUNRYSWKMBDHVacgtunryswkmbdhv",
    "TGCAANYRSWMKVHDBtgcaanyrswmkvhdb",
)


def revcomp(s):
    return s.translate(COMPLEMENT)[::-1]


def random_seq(rng, n):
    return "".join(rng.choice(BASES) for _ in range(n))


def mutate(rng, s, rate):
    """Copy s with about `rate` edits per base: 60% substitutions, 20%
    insertions, 20% deletions."""
    out = []
    for c in s:
        r = rng.random()
        if r >= rate:
            out.append(c)
            continue
        r = rng.random()
        if r < 0.6:
            out.append(rng.choice([b for b in BASES if b != c.upper()]))
        elif r < 0.8:
            out.append(c)
            out.append(rng.choice(BASES))
        # else: deletion
    return "".join(out)


def decorate(rng, s, kind):
    """Optional dressing of a flank: lowercase runs, N runs, IUPAC codes."""
    if not s or kind == "plain":
        return s
    chars = list(s)
    if kind == "lower":
        a = rng.randrange(len(chars))
        b = min(len(chars), a + rng.randint(20, 200))
        for i in range(a, b):
            chars[i] = chars[i].lower()
    elif kind == "n":
        a = rng.randrange(len(chars))
        b = min(len(chars), a + rng.randint(1, 12))
        for i in range(a, b):
            chars[i] = "N" if rng.random() < 0.8 else "n"
    elif kind == "iupac":
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(chars))
            chars[i] = rng.choice(IUPAC + IUPAC.lower())
    return "".join(chars)


def make_pair(rng, index, k):
    """Returns (seqV, posV, seqH, posH) on the forward strand of H."""
    lv = rng.randint(300, 3000)
    style = index % 5
    if index == 0:
        # seed at the very start of both sequences
        posv = 0
    elif index == 1:
        # seed at the very end of both sequences
        posv = lv - k
    else:
        posv = rng.randint(0, lv - k)
    seed = random_seq(rng, k)
    left = random_seq(rng, posv)
    right = random_seq(rng, lv - posv - k)

    if style == 3:
        # overlap-like: H's left flank is unrelated beyond some distance
        keep = rng.randint(0, len(left))
        hleft = random_seq(rng, rng.randint(0, 400)) + mutate(rng, left[len(left) - keep:], 0.15)
        hright = mutate(rng, right, 0.15)
    elif style == 4:
        # right flank unrelated after a short stretch
        keep = rng.randint(0, min(len(right), 300))
        hleft = mutate(rng, left, 0.15)
        hright = mutate(rng, right[:keep], 0.15) + random_seq(rng, rng.randint(0, 600))
    else:
        hleft = mutate(rng, left, 0.15)
        hright = mutate(rng, right, 0.15)

    # keep H's length in 300..3000 as well
    while len(hleft) + k + len(hright) < 300:
        hright += random_seq(rng, 300)
    excess = len(hleft) + k + len(hright) - 3000
    if excess > 0:
        hright = hright[: max(0, len(hright) - excess)]
        excess = len(hleft) + k + len(hright) - 3000
        if excess > 0:
            hleft = hleft[excess:]

    deco = ["plain", "plain", "lower", "n", "iupac"]
    left = decorate(rng, left, rng.choice(deco))
    right = decorate(rng, right, rng.choice(deco))
    hleft = decorate(rng, hleft, rng.choice(deco))
    hright = decorate(rng, hright, rng.choice(deco))
    if rng.random() < 0.1:
        seed = seed.lower()  # a soft-masked seed still matches (case is folded)

    seqv = left + seed + right
    seqh = hleft + seed + hright
    return seqv, len(left), seqh, len(hleft)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=20261121, help="random seed (default 20261121)")
    ap.add_argument("--pairs", type=int, default=200, help="number of pairs (default 200)")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    lines = []
    for i in range(args.pairs):
        seqv, posv, seqh, posh = make_pair(rng, i, K)
        assert seqv[posv:posv + K].upper() == seqh[posh:posh + K].upper()
        # about a third of the pairs are on the opposite strand: H is written
        # reverse complemented, with posH moved as BELLA's transform expects
        if i % 3 == 2:
            strand = "c"
            seqh = revcomp(seqh)
            posh = len(seqh) - posh - K
            # gale's transform undoes it
            back = revcomp(seqh)
            p = len(seqh) - posh - K
            assert back[p:p + K].upper() == seqv[posv:posv + K].upper()
        else:
            strand = "n"
        lines.append("%s\t%d\t%s\t%d\t%s\n" % (seqv, posv, seqh, posh, strand))

    out = sys.stdout if args.output == "-" else open(args.output, "w", newline="\n")
    try:
        out.writelines(lines)
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == "__main__":
    main()
