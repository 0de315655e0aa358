#!/usr/bin/env python3
"""Generate pattern/text pairs for `gale wfa` (the bundled example and the tests).

Writes the same pairs in any of the input formats `gale wfa` reads:

    --seq FILE            WFA2-lib's .seq format: '>PATTERN' and '<TEXT' lines
    --fasta PAT TXT       two FASTA files (record i of PAT with record i of TXT;
                          sequences wrapped at 60 columns)
    --fastq PAT TXT       two FASTQ files (random qualities)

Each text is its pattern with random edits (substitutions, insertions,
deletions) at a per-pair rate of 0..25%; some texts carry unrelated flanks
(for ends-free alignment) and some pairs are dressed up with lowercase runs,
N runs and IUPAC codes (gale folds case and reads IUPAC codes as N).
--edge adds hand-picked edge pairs first (empty sequences, one base, identical,
unrelated); --plain keeps to upper-case A C G T; --rate fixes the edit rate.

Deterministic: python3 + the standard library only, fixed seed. Usage:

    python3 examples/make_wfa_example.py [--seed N] [--pairs N] [--max-len N]
        [--rate R] [--plain] [--edge] [--seq FILE] [--fasta PAT TXT] [--fastq PAT TXT]

The committed examples/wfa_pairs.seq, wfa_patterns.fa and wfa_texts.fa were
written with the defaults (see examples/README.md).
"""

import argparse
import random

BASES = "ACGT"
IUPAC = "RYSWKMBDHV"


def random_seq(rng, n):
    return "".join(rng.choice(BASES) for _ in range(n))


def mutate(rng, s, rate):
    """Copy s with about `rate` edits per base: 50% substitutions, 25%
    insertions (1-8 bases), 25% deletions (1-8 bases)."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if rng.random() >= rate:
            out.append(c)
            i += 1
            continue
        r = rng.random()
        if r < 0.5:
            out.append(rng.choice([b for b in BASES if b != c.upper()]))
            i += 1
        elif r < 0.75:
            out.append(c)
            out.append(random_seq(rng, rng.randint(1, 8)))
            i += 1
        else:
            i += rng.randint(1, 8)
    return "".join(out)


def decorate(rng, s):
    """Lowercase runs, N runs or IUPAC codes, sometimes."""
    if not s:
        return s
    kind = rng.choice(["plain", "plain", "plain", "lower", "n", "iupac"])
    chars = list(s)
    if kind == "lower":
        a = rng.randrange(len(chars))
        for i in range(a, min(len(chars), a + rng.randint(5, 100))):
            chars[i] = chars[i].lower()
    elif kind == "n":
        a = rng.randrange(len(chars))
        for i in range(a, min(len(chars), a + rng.randint(1, 6))):
            chars[i] = "N" if rng.random() < 0.8 else "n"
    elif kind == "iupac":
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice(IUPAC + IUPAC.lower())
    return "".join(chars)


def make_pair(rng, max_len, rate=None, plain=False):
    n = rng.randint(1, max_len)
    pattern = random_seq(rng, n)
    if not plain and rng.random() < 0.2:
        # an N run the text inherits: N against N (matches, or mismatches with --n-mismatch)
        a = rng.randrange(n)
        pattern = pattern[:a] + "N" * rng.randint(1, 8) + pattern[a:]
    if rate is None:
        rate = rng.choice([0.0, 0.01, 0.05, 0.1, 0.15, 0.25])
    text = mutate(rng, pattern, rate)
    style = rng.random()
    if style < 0.2:
        # unrelated flanks on the text: the pattern lies inside it
        text = random_seq(rng, rng.randint(0, 40)) + text + random_seq(rng, rng.randint(0, 40))
    elif style < 0.3:
        # unrelated flanks on the pattern
        pattern = random_seq(rng, rng.randint(0, 30)) + pattern + random_seq(rng, rng.randint(0, 30))
    if plain:
        return pattern, text
    return decorate(rng, pattern), decorate(rng, text)


def edge_pairs():
    return [
        ("", ""),
        ("ACGT", ""),
        ("", "ACGTA"),
        ("A", "A"),
        ("A", "C"),
        ("A", ""),
        ("ACGTACGTACGT", "ACGTACGTACGT"),
        ("acgtNNNNacgt", "ACGTNNNNACGT"),
        ("AAAAAAAAAA", "CCCCCCCCCC"),
        ("ACGTACGTTTTTTTTTTTTT", "ACGTACGT"),
        ("ACGTACGT", "GGGGGGGGGGGGACGTACGTGGGGGGGGGGGG"),
        ("GATTACA", "GATCACAGATTACA"),
        ("UUUACGU", "TTTACGT"),
        ("RYKMSWBDHV", "NNNNNNNNNN"),
    ]


def wrap(s, width=60):
    return "\n".join(s[i:i + width] for i in range(0, len(s), width)) if s else ""


def qualities(rng, n):
    return "".join(chr(rng.randint(33, 74)) for _ in range(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=20261122, help="random seed (default 20261122)")
    ap.add_argument("--pairs", type=int, default=100, help="number of random pairs (default 100)")
    ap.add_argument("--max-len", type=int, default=1000, help="longest random pattern core (default 1000)")
    ap.add_argument("--rate", type=float, help="edit rate of every pair (default: drawn per pair, 0..0.25)")
    ap.add_argument("--plain", action="store_true", help="upper-case A C G T only (no lowercase, N, IUPAC)")
    ap.add_argument("--edge", action="store_true", help="put the edge pairs first")
    ap.add_argument("--seq", metavar="FILE", help="write a .seq file")
    ap.add_argument("--fasta", nargs=2, metavar=("PAT", "TXT"), help="write two FASTA files")
    ap.add_argument("--fastq", nargs=2, metavar=("PAT", "TXT"), help="write two FASTQ files")
    args = ap.parse_args()
    if not (args.seq or args.fasta or args.fastq):
        ap.error("nothing to write: give --seq, --fasta and/or --fastq")

    rng = random.Random(args.seed)
    pairs = edge_pairs() if args.edge else []
    for _ in range(args.pairs):
        pairs.append(make_pair(rng, args.max_len, args.rate, args.plain))

    if args.seq:
        with open(args.seq, "w", newline="\n") as f:
            for p, t in pairs:
                f.write(">%s\n<%s\n" % (p, t))
    if args.fasta:
        with open(args.fasta[0], "w", newline="\n") as fp, open(args.fasta[1], "w", newline="\n") as ft:
            for i, (p, t) in enumerate(pairs):
                fp.write(">p%d len=%d\n" % (i, len(p)) + (wrap(p) + "\n" if p else ""))
                ft.write(">t%d len=%d\n" % (i, len(t)) + (wrap(t) + "\n" if t else ""))
    if args.fastq:
        qrng = random.Random(args.seed + 1)  # qualities do not change the pairs
        with open(args.fastq[0], "w", newline="\n") as fp, open(args.fastq[1], "w", newline="\n") as ft:
            for i, (p, t) in enumerate(pairs):
                fp.write("@p%d\n%s\n+\n%s\n" % (i, p, qualities(qrng, len(p))))
                ft.write("@t%d\n%s\n+\n%s\n" % (i, t, qualities(qrng, len(t))))


if __name__ == "__main__":
    main()
