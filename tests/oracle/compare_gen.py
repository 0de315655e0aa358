#!/usr/bin/env python3
"""Random genome pairs for the `gale compare` tests (tests/cli/compare.sh). Plain Python.

usage: compare_gen.py small SEED OUTDIR
         A.fa: 2-4 records of 300-2,000 bases; B.fa: 2-4 records made of mutated pieces
         of A (1-6% substitutions and short indels), some reverse-complemented
         (inversions), random stretches, N runs, lower-case stretches, an IUPAC letter or two.
       compare_gen.py big SEED LENGTH OUTDIR
         A.fa: one record of LENGTH random bases, no repeats (lastz's spaced seeds find
         repeat copies ~20% apart, which exact 32-mers cannot: doc/compare.md); B.fa: one record,
         A with 10% divergence (substitutions 60%, 1-10 bp indels 40%) and
         one block of 2-10 kbp a 10 kbp of LENGTH reverse-complemented (inversions) or replaced by
         random sequence.
"""
import os
import random
import sys


def rnd(rng, n):
    return "".join(rng.choice("ACGT") for _ in range(n))


def revcomp(s):
    comp = {"A": "T", "C": "G", "G": "C", "T": "A", "a": "t", "c": "g", "g": "c", "t": "a"}
    return "".join(comp.get(c, c) for c in reversed(s))


def mutate(rng, s, rate):
    out, i = [], 0
    while i < len(s):
        r = rng.random()
        if r < rate * 0.6:
            out.append(rng.choice("ACGT"))
            i += 1
        elif r < rate * 0.8:
            out.append(rnd(rng, rng.randint(1, 10 if rate >= 0.1 else 4)))
        elif r < rate:
            i += rng.randint(1, 10 if rate >= 0.1 else 4)
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def sprinkle(rng, s, n, letters, lo, hi):
    s = list(s)
    for _ in range(n):
        if not s:
            break
        a = rng.randrange(len(s))
        for k in range(a, min(len(s), a + rng.randint(lo, hi))):
            s[k] = rng.choice(letters) if letters else s[k].lower()
    return "".join(s)


def write(path, recs):
    with open(path, "w") as f:
        for name, s in recs:
            f.write(">%s\n" % name)
            for k in range(0, len(s), 60):
                f.write(s[k:k + 60] + "\n")
            if not s:
                f.write("\n")


def small(seed, outdir):
    rng = random.Random(seed)
    a = []
    for r in range(rng.randint(2, 4)):
        s = rnd(rng, rng.randint(300, 2000))
        # a short tandem repeat now and then (many hits on a few words)
        if rng.random() < 0.5:
            p = rng.randrange(len(s))
            s = s[:p] + rnd(rng, rng.randint(2, 6)) * rng.randint(5, 20) + s[p:]
        a.append(("ctgA%d" % r, s))
    allA = "".join(s for _, s in a)
    b = []
    for r in range(rng.randint(2, 4)):
        parts = []
        for _ in range(rng.randint(1, 4)):
            x = rng.random()
            if x < 0.75:
                lo = rng.randrange(len(allA))
                piece = mutate(rng, allA[lo:lo + rng.randint(60, 900)], rng.choice([0.0, 0.01, 0.03, 0.06]))
                if rng.random() < 0.4:
                    piece = revcomp(piece)
                parts.append(piece)
            else:
                parts.append(rnd(rng, rng.randint(20, 300)))
        s = "".join(parts)
        s = sprinkle(rng, s, rng.randint(0, 3), "N", 1, 30)
        s = sprinkle(rng, s, rng.randint(0, 3), None, 10, 200)
        s = sprinkle(rng, s, rng.randint(0, 1), "RYKM", 1, 1)
        b.append(("qry%d" % r, s))
    a = [(n, sprinkle(rng, s, rng.randint(0, 2), None, 10, 200)) for n, s in a]
    a = [(n, sprinkle(rng, s, rng.randint(0, 2), "N", 1, 20)) for n, s in a]
    write(os.path.join(outdir, "A.fa"), a)
    write(os.path.join(outdir, "B.fa"), b)


def big(seed, length, outdir):
    rng = random.Random(seed)
    a = rnd(rng, length)
    b = mutate(rng, a, 0.10)
    # blocks inverted or replaced (both strands, non-homologous regions)
    for _ in range(max(1, length // 10000)):
        lo = rng.randrange(len(b))
        hi = min(len(b), lo + rng.randint(2000, 10000))
        b = b[:lo] + (revcomp(b[lo:hi]) if rng.random() < 0.6 else rnd(rng, hi - lo)) + b[hi:]
    write(os.path.join(outdir, "A.fa"), [("chrA", a)])
    write(os.path.join(outdir, "B.fa"), [("chrB", b)])


def main():
    os.makedirs(sys.argv[-1], exist_ok=True)
    if sys.argv[1] == "small":
        small(int(sys.argv[2]), sys.argv[3])
    else:
        big(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])


if __name__ == "__main__":
    main()
