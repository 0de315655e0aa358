#!/usr/bin/env python3
"""wfa_real_pairs.py LASTZ TEST_DATA OUT.seq SEED: real homologous pairs for the WFA oracles.

Real sequence with real divergence: Debian's lastz-examples ships LASTZ's test data,
among it pseudocat.fa.gz (18.8 kbp of cat), pseudopig.fa.gz (three pig records,
68.8 kbp) and pseudopig2.fa.gz (one of them again, 22.9 kbp). lastz aligns cat against
pig and pig2 against pig (orthologs and paralogs, about 60-95% identity, with their
real indels and soft-masked repeats); each alignment's CIGAR is walked and cut at op
boundaries into pieces of a random length (SEED: fresh pieces each run), so that every
piece is a pair of homologous stretches (pattern from the first sequence, text from the
second on the aligned strand), upper-cased (WFA2-lib compares bytes). Writes WFA2-lib's
.seq format ('>' pattern, '<' text) and prints how many pairs and bases.
Exits 1, saying why, when lastz or the test data is missing or a piece does not check
(an '=' column whose bases differ: coordinates misread).
"""
import gzip
import os
import random
import re
import subprocess
import sys
import tempfile

COMP = str.maketrans("ACGTacgtNn", "TGCAtgcaNn")


def read_fasta_gz(path):
    recs, name, parts = {}, None, []
    with gzip.open(path, "rt") as f:
        for line in f:
            line = line.strip()
            if line.startswith(">"):
                if name is not None:
                    recs[name] = "".join(parts)
                name, parts = line[1:].strip().split()[0], []
            elif line:
                parts.append(line)
    if name is not None:
        recs[name] = "".join(parts)
    return recs


def alignments(lastz, t_gz, q_gz, tmp):
    t_fa, q_fa = os.path.join(tmp, "t.fa"), os.path.join(tmp, "q.fa")
    for gz, fa in ((t_gz, t_fa), (q_gz, q_fa)):
        with gzip.open(gz, "rb") as i, open(fa, "wb") as o:
            o.write(i.read())
    out = subprocess.run(
        [lastz, t_fa, q_fa + "[multiple]",
         "--format=general:name1,zstart1,end1,name2,strand2,zstart2,end2,cigarx"],
        check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        n1, s1, e1, n2, st2, s2, e2, cig = line.split("\t")
        yield n1, int(s1), int(e1), n2, st2, int(s2), int(e2), cig


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    lastz, data, out_path, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    rng = random.Random(seed)
    files = {k: os.path.join(data, k + ".fa.gz") for k in ("pseudocat", "pseudopig", "pseudopig2")}
    for f in files.values():
        if not os.path.exists(f):
            sys.exit("wfa_real_pairs: %s missing (Debian package lastz-examples)" % f)
    seqs = {}
    for f in files.values():
        seqs.update(read_fasta_gz(f))
    pairs = []
    with tempfile.TemporaryDirectory() as tmp:
        for t, q in (("pseudocat", "pseudopig"), ("pseudopig2", "pseudopig")):
            for n1, s1, e1, n2, st2, s2, e2, cig in alignments(lastz, files[t], files[q], tmp):
                a = seqs[n1].upper()
                b = seqs[n2].upper()
                if st2 == "-":  # zstart2 and end2 count along the reverse complement
                    b = b.translate(COMP)[::-1]
                if a[s1:e1] == b[s2:e2]:  # a sequence against itself: one small piece is enough
                    pairs.append((a[s1:s1 + 300], b[s2:s2 + 300]))
                    continue
                # cut at op boundaries after a random number of pattern bases
                want = rng.choice([100, 250, 600, 1200])
                p1, p2, b1, b2 = s1, s2, s1, s2
                for count, op in re.findall(r"(\d*)([=XID])", cig):
                    n = int(count) if count else 1
                    if op == "=":
                        if a[p1:p1 + n] != b[p2:p2 + n]:
                            sys.exit("wfa_real_pairs: '=' run at %s:%d / %s:%d differs: coordinates misread"
                                     % (n1, p1, n2, p2))
                    if op in "=X":
                        p1, p2 = p1 + n, p2 + n
                    elif op == "D":
                        p1 += n
                    else:
                        p2 += n
                    if p1 - b1 >= want:
                        pairs.append((a[b1:p1], b[b2:p2]))
                        b1, b2 = p1, p2
                        want = rng.choice([100, 250, 600, 1200])
                if (p1, p2) != (e1, e2):
                    sys.exit("wfa_real_pairs: CIGAR of %s:%d-%d ends at %d, %d" % (n1, s1, e1, p1, p2))
                if p1 > b1 or p2 > b2:
                    pairs.append((a[b1:p1], b[b2:p2]))
    pairs = [(p, t) for p, t in pairs if p and t and set(p + t) <= set("ACGT")]
    if len(pairs) < 20:
        sys.exit("wfa_real_pairs: only %d pairs" % len(pairs))
    with open(out_path, "w") as f:
        for p, t in pairs:
            f.write(">%s\n<%s\n" % (p, t))
    print("wfa_real_pairs: %d pairs, %d bases, lengths %d..%d (seed %d)"
          % (len(pairs), sum(len(p) + len(t) for p, t in pairs), min(len(p) for p, _ in pairs),
             max(len(p) for p, _ in pairs), seed))


if __name__ == "__main__":
    main()
