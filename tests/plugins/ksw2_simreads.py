#!/usr/bin/env python3
"""ksw2_simreads.py SEED OUTDIR: the inputs of the ksw2 plugin's real-client test
(ksw2_minimap2.sh), drawn from SEED:

  ref.fa      a generated reference of about 1 Mbp in 4 chromosomes, with a few
              repeats (copies with some changes, so that reads map more than once)
              and N runs; genes: exons separated by introns whose ends are set to
              GT..AG (a few to other dinucleotides, which minimap2 scores as
              non-canonical);
  long.fa     long reads (1-12 kbp) from either strand with 2-15% errors
              (substitutions, insertions, deletions, some in runs), a few with
              random tails or a junction of two places (chimeras), a few N bases;
  splice.fa   spliced reads: a gene's exons joined (some exons skipped), from
              either strand, with 0-4% errors and a random tail now and then.
"""
import os
import random
import sys

BASES = "ACGT"
COMP = str.maketrans("ACGTN", "TGCAN")


def revcomp(s):
    return s.translate(COMP)[::-1]


def rand_seq(rng, n):
    return "".join(rng.choice(BASES) for _ in range(n))


def mutate(rng, s, rate, indel_run=0.2):
    out = []
    i = 0
    n = len(s)
    while i < n:
        r = rng.random()
        if r < rate * 0.5:  # substitution
            out.append(rng.choice([b for b in BASES if b != s[i]] if s[i] in BASES else BASES))
            i += 1
        elif r < rate * 0.75:  # insertion
            k = rng.randint(2, 8) if rng.random() < indel_run else 1
            out.append(rand_seq(rng, k))
        elif r < rate:  # deletion
            k = rng.randint(2, 8) if rng.random() < indel_run else 1
            i += k
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def wrap(s, width=80):
    return "\n".join(s[i:i + width] for i in range(0, len(s), width))


def main():
    seed = int(sys.argv[1])
    outdir = sys.argv[2]
    rng = random.Random(seed)
    n_long = int(os.environ.get("KSW2_TEST_LONG_READS", "300"))
    n_splice = int(os.environ.get("KSW2_TEST_SPLICED_READS", "300"))

    # Reference: 4 chromosomes, about 1 Mbp in all.
    chroms = []
    for c in range(4):
        chroms.append(list(rand_seq(rng, rng.randint(200_000, 300_000))))
    # Repeats: 30 copies of 1-5 kbp segments, 0-10% diverged, placed anywhere.
    for _ in range(30):
        a = rng.randrange(4)
        b = rng.randrange(4)
        ln = rng.randint(1000, 5000)
        sa = rng.randrange(len(chroms[a]) - ln)
        seg = mutate(rng, "".join(chroms[a][sa:sa + ln]), rng.uniform(0.0, 0.10))
        if rng.random() < 0.5:
            seg = revcomp(seg)
        sb = rng.randrange(len(chroms[b]) - len(seg))
        chroms[b][sb:sb + len(seg)] = list(seg)
    # A few N runs.
    for _ in range(8):
        c = rng.randrange(4)
        ln = rng.randint(1, 200)
        s = rng.randrange(len(chroms[c]) - ln)
        chroms[c][s:s + ln] = ["N"] * ln
    # Genes: exons of 60-400 bp, introns of 80-3000 bp, the intron ends set in the
    # reference (GT..AG mostly; GC..AG, AT..AC and random ones now and then).
    genes = []
    for _ in range(120):
        c = rng.randrange(4)
        n_exons = rng.randint(2, 7)
        exons = []
        pos = rng.randrange(1000, len(chroms[c]) - 30000)
        for k in range(n_exons):
            ln = rng.randint(60, 400)
            exons.append((pos, pos + ln))
            pos += ln
            if k + 1 < n_exons:
                intron = rng.randint(80, 3000)
                r = rng.random()
                donor, acceptor = ("GT", "AG") if r < 0.85 else ("GC", "AG") if r < 0.92 else \
                    ("AT", "AC") if r < 0.96 else (rand_seq(rng, 2), rand_seq(rng, 2))
                chroms[c][pos:pos + 2] = list(donor)
                chroms[c][pos + intron - 2:pos + intron] = list(acceptor)
                pos += intron
        genes.append((c, exons))
    chroms = ["".join(x) for x in chroms]
    with open(os.path.join(outdir, "ref.fa"), "w") as f:
        for c, s in enumerate(chroms):
            f.write(">chr%d\n%s\n" % (c + 1, wrap(s)))

    # Long reads.
    with open(os.path.join(outdir, "long.fa"), "w") as f:
        for i in range(n_long):
            c = rng.randrange(4)
            ln = int(min(12000, max(1000, rng.lognormvariate(8.3, 0.6))))
            s = rng.randrange(len(chroms[c]) - ln)
            seq = mutate(rng, chroms[c][s:s + ln], rng.uniform(0.02, 0.15))
            r = rng.random()
            if r < 0.08:  # chimera: a second piece from elsewhere
                c2 = rng.randrange(4)
                ln2 = rng.randint(500, 4000)
                s2 = rng.randrange(len(chroms[c2]) - ln2)
                seq += mutate(rng, chroms[c2][s2:s2 + ln2], 0.05)
            elif r < 0.18:  # random tail or head
                tail = rand_seq(rng, rng.randint(50, 1500))
                seq = seq + tail if rng.random() < 0.5 else tail + seq
            if rng.random() < 0.1:
                seq = list(seq)
                for _ in range(rng.randint(1, 5)):
                    seq[rng.randrange(len(seq))] = "N"
                seq = "".join(seq)
            if rng.random() < 0.5:
                seq = revcomp(seq)
            f.write(">long%d\n%s\n" % (i, wrap(seq)))

    # Spliced reads.
    with open(os.path.join(outdir, "splice.fa"), "w") as f:
        for i in range(n_splice):
            c, exons = genes[rng.randrange(len(genes))]
            kept = [e for k, e in enumerate(exons) if k in (0, len(exons) - 1) or rng.random() > 0.15]
            seq = "".join(chroms[c][a:b] for a, b in kept)
            # Start or end inside the first or last exon now and then.
            if rng.random() < 0.3:
                seq = seq[rng.randint(0, 50):]
            if rng.random() < 0.3:
                seq = seq[:len(seq) - rng.randint(0, 50)]
            seq = mutate(rng, seq, rng.uniform(0.0, 0.04))
            if rng.random() < 0.1:
                seq += rand_seq(rng, rng.randint(20, 300))
            if rng.random() < 0.5:
                seq = revcomp(seq)
            f.write(">spliced%d\n%s\n" % (i, wrap(seq)))


if __name__ == "__main__":
    main()
