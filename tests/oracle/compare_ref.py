#!/usr/bin/env python3
"""Brute-force oracle of `gale compare` (doc/compare.md), written from the rules alone.

usage: compare_ref.py A.fa B.fa [-k N] [--match N] [--mismatch N] [--xdrop N]
                      [--min-length N] [--min-identity P] [--max-occ N] [--strand both|plus|minus]
                      [--format segments|paf]
Writes what `gale compare --format=segments` (or paf) must write (lastz's segments format:
the header, then per B record (file order) its + strand's fragments then its - strand's, each
group by diagonal then start on A; paf: the same lines as PAF). Plain Python, naive on purpose: every word of B (or of
its reverse complement) looked up in a dict of A's words, every hit listed, each diagonal's
hits walked in increasing i with its `covered`, each extension scored position by position.
Record names: the header's first word (what lastz calls them for simple headers).
"""
import argparse
import sys

BASES = "ACGT"


def read_fasta(path):
    recs = []
    name, seq = None, []
    for line in open(path):
        line = line.rstrip("\n").rstrip("\r")
        if line.startswith(">"):
            if name is not None:
                recs.append((name, "".join(seq)))
            name, seq = line[1:].split()[0], []
        else:
            seq.append(line.strip())
    if name is not None:
        recs.append((name, "".join(seq)))
    return recs


def join(recs):
    """The records joined with one byte 0 between them, and each record's start."""
    offs, parts, pos = [], [], 0
    for k, (_, s) in enumerate(recs):
        offs.append(pos)
        parts.append(s)
        pos += len(s) + (1 if k + 1 < len(recs) else 0)
    return "\0".join(parts), offs


def revcomp(s):
    comp = {"A": "T", "C": "G", "G": "C", "T": "A", "a": "t", "c": "g", "g": "c", "t": "a"}
    return "".join(comp.get(c, c) for c in reversed(s))


def is_base(c):
    return c.upper() in BASES


def words(s, k):
    """(position, upper-case word) of every window of k bases with no non-base."""
    out = []
    for p in range(len(s) - k + 1):
        w = s[p:p + k]
        if all(is_base(c) for c in w):
            out.append((p, w.upper()))
    return out


def score(x, y, o):
    return o.match if is_base(x) and x.upper() == y.upper() else -o.mismatch


def search(a, s, d, p, step, covered, o):
    """One side's ungapped X-drop search on diagonal d from A position p, rightward (step 1)
    or leftward (step -1, never below covered): (best, its matches, its edge, stop), edge the
    best end (rightward, exclusive) or start (leftward), stop where the scored positions end:
    before the position that stopped it, or after the one whose drop did."""
    run = best = m = best_m = 0
    edge = p if step > 0 else p + 1  # nothing scored: no extension
    while True:
        q = p - d
        if p < 0 or q < 0 or p >= len(a) or q >= len(s) or (step < 0 and p < covered) \
                or a[p] == "\0" or s[q] == "\0":
            return best, best_m, edge, p
        sc = score(a[p], s[q], o)
        run += sc
        if sc > 0:
            m += 1
        if run > best:
            best, best_m, edge = run, m, (p + 1 if step > 0 else p)
        if run < best - o.xdrop:
            return best, best_m, edge, p + step
        p += step


def extend(a, s, i, j, covered, o):
    """The fragment of hit (i, j) and the new covered (doc/compare.md, "The rules", 5)."""
    k, d = o.word, i - j
    best_r, best_mr, best_end, stop = search(a, s, d, i + k, 1, covered, o)
    best_l, best_ml, best_start, _ = search(a, s, d, i - 1, -1, covered, o)
    frag = dict(a_start=best_start, b_start=best_start - d, length=best_end - best_start,
                score=best_l + k * o.match + best_r, matches=k + best_ml + best_mr)
    return frag, stop


def strand_fragments(a, s, o, table):
    diags = {}
    for j, w in words(s, o.word):
        occ = table.get(w, [])
        if o.max_occ and len(occ) > o.max_occ:
            continue
        for i in occ:
            diags.setdefault(i - j, []).append(i)
    out = []
    for d in sorted(diags):
        covered = 0
        for i in sorted(diags[d]):
            if i < covered:
                continue
            f, covered = extend(a, s, i, i - d, covered, o)
            if f["length"] >= o.min_length and 100 * f["matches"] >= o.min_identity * f["length"]:
                out.append(f)
    return out


def record_of(offs, x):
    r = 0
    while r + 1 < len(offs) and offs[r + 1] <= x:
        r += 1
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("-k", "--word", type=int, default=32)
    ap.add_argument("--match", type=int, default=1)
    ap.add_argument("--mismatch", type=int, default=1)
    ap.add_argument("--xdrop", type=int, default=10)
    ap.add_argument("--min-length", type=int, default=40)
    ap.add_argument("--min-identity", type=int, default=60)
    ap.add_argument("--max-occ", type=int, default=0)
    ap.add_argument("--strand", default="both")
    ap.add_argument("--format", default="segments", choices=["segments", "paf"])
    o = ap.parse_args()
    ra, rb = read_fasta(o.a), read_fasta(o.b)
    a, aoff = join(ra)
    b, boff = join(rb)
    table = {}
    for i, w in words(a, o.word):
        table.setdefault(w, []).append(i)
    lines = {}  # (B record, strand) -> lines
    for strand in "+-":
        if o.strand == "plus" and strand == "-" or o.strand == "minus" and strand == "+":
            continue
        s = b if strand == "+" else revcomp(b)
        for f in strand_fragments(a, s, o, table):
            ta = record_of(aoff, f["a_start"])
            t0 = f["a_start"] - aoff[ta]
            if strand == "+":
                qb = record_of(boff, f["b_start"])
                q0 = f["b_start"] - boff[qb]
            else:
                qs = len(b) - f["b_start"] - f["length"]  # on B's + strand
                qb = record_of(boff, qs)
                q0 = len(rb[qb][1]) - (qs - boff[qb] + f["length"])  # on the record's reverse complement
            if o.format == "paf":  # query start and end on the query's + strand
                qp = q0 if strand == "+" else len(rb[qb][1]) - q0 - f["length"]
                line = "%s\t%d\t%d\t%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t255" % (
                    rb[qb][0], len(rb[qb][1]), qp, qp + f["length"], strand, ra[ta][0], len(ra[ta][1]), t0,
                    t0 + f["length"], f["matches"], f["length"])
            else:
                line = "%s\t%d\t%d\t%s\t%d\t%d\t%s\t%d" % (
                    ra[ta][0], t0 + 1, t0 + f["length"], rb[qb][0], q0 + 1, q0 + f["length"], strand, f["score"])
            lines.setdefault((qb, strand), []).append(line)
    out = sys.stdout
    if o.format == "segments":
        out.write("#name1\tstart1\tend1\tname2\tstart2\tend2\tstrand2\tscore\n")
    for qb in range(len(rb)):
        for strand in "+-":
            for line in lines.get((qb, strand), []):
                out.write(line + "\n")


if __name__ == "__main__":
    main()
