#!/usr/bin/env python3
"""Random homologous pair for the LASTZ gapped-extension oracle (tests/oracle/ydrop_lastz.sh).

usage: ydrop_gen.py SEED LENGTH OUTDIR
Writes OUTDIR/target.fa and OUTDIR/query.fa: a random ancestor; the query a mutated copy
(substitutions, short indels), with a tandem-repeat stretch, an inverted block (so that
the minus strand has alignments), a soft-masked (lowercase) stretch and N runs in both.
"""
import os
import random
import sys


TRANSITION = {"A": "G", "G": "A", "C": "T", "T": "C"}


def mutate(rng, s, sub, indel, transition=0.0):
    """s with substitutions (a random base, the same one possibly), short indels and, at
    rate transition, transitions (A<->G, C<->T): the draws with transition 0 are the same
    as without it."""
    out = []
    i = 0
    while i < len(s):
        r = rng.random()
        if r < transition:
            out.append(TRANSITION[s[i]])
            i += 1
            continue
        r -= transition
        if r < sub:
            out.append(rng.choice("ACGT"))
            i += 1
        elif r < sub + indel / 2:
            out.append("".join(rng.choice("ACGT") for _ in range(rng.randint(1, 8))))
        elif r < sub + indel:
            i += rng.randint(1, 8)
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def revcomp(s):
    return s[::-1].translate(str.maketrans("ACGTNacgtn", "TGCANtgcan"))


def soft_mask(rng, s, n):
    s = list(s)
    for _ in range(n):
        a = rng.randrange(len(s))
        for k in range(a, min(len(s), a + rng.randint(20, 300))):
            s[k] = s[k].lower()
    return "".join(s)


def n_runs(rng, s, n):
    s = list(s)
    for _ in range(n):
        a = rng.randrange(len(s))
        for k in range(a, min(len(s), a + rng.randint(1, 40))):
            s[k] = "N"
    return "".join(s)


def write(path, name, s):
    with open(path, "w") as f:
        f.write(">%s\n" % name)
        for k in range(0, len(s), 60):
            f.write(s[k:k + 60] + "\n")


def main():
    seed, length, outdir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    anc = "".join(rng.choice("ACGT") for _ in range(length))
    # a tandem repeat in the ancestor: copies of a unit, slightly mutated
    unit = "".join(rng.choice("ACGT") for _ in range(rng.randint(20, 120)))
    rep = mutate(rng, unit * rng.randint(3, 8), 0.03, 0.01)
    p = rng.randrange(length)
    anc = anc[:p] + rep + anc[p:]
    div = rng.choice([0.02, 0.05, 0.1, 0.15, 0.2])
    t = mutate(rng, anc, div / 2, div / 8)
    q = mutate(rng, anc, div / 2, div / 8)
    # an inverted block in the query
    a = rng.randrange(len(q) // 2)
    b = a + rng.randint(len(q) // 8, len(q) // 3)
    q = q[:a] + revcomp(q[a:b]) + q[b:]
    # a duplicated block in the target (two alignments competing for one query region)
    a = rng.randrange(len(t) // 2)
    b = a + rng.randint(50, 400)
    t = t + mutate(rng, t[a:b], 0.05, 0.01)
    t = n_runs(rng, soft_mask(rng, t, 3), 2)
    q = n_runs(rng, soft_mask(rng, q, 3), 2)
    os.makedirs(outdir, exist_ok=True)
    write(os.path.join(outdir, "target.fa"), "tgt", t)
    write(os.path.join(outdir, "query.fa"), "qry", q)


if __name__ == "__main__":  # (lastz_multi_gen.py imports mutate and revcomp)
    main()
