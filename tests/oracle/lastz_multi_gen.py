#!/usr/bin/env python3
"""A multi-record target and its query, for gale lastz's seeding of a [multiple] target
against Debian's lastz (tests/cli/lastz_seed.sh).

usage: lastz_multi_gen.py SEED OUTDIR [SEPARATOR]
Writes OUTDIR/mtarget.fa: seven records of varied lengths, some shorter than the seeds
(3 to 25 bases), the longer ones with a soft-masked (lower-case) stretch and an N run;
with SEPARATOR, runs of it inside (and some at both ends of) every other long record (for
[separator=C]). OUTDIR/starget.fa: one record, the longest, cut by runs of X (for
[separator=X] alone). OUTDIR/mquery.fa: two records holding mutated copies of stretches of
the long records, about half reverse-complemented, and the bases around most junctions
of two records (the end of one and the start of the next: homology that runs across a
separator), between random bases.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_gen import write  # noqa: E402 (the generators' FASTA writer, 60 bases a line)
from ydrop_gen import mutate, revcomp  # noqa: E402

seed, out = int(sys.argv[1]), sys.argv[2]
sep = sys.argv[3] if len(sys.argv) > 3 else ""
rng = random.Random(seed)


def rand_bases(n):
    return "".join(rng.choice("ACGT") for _ in range(n))


lens = [rng.choice([3, 11, 18, 19, 25]), rng.randint(1500, 6000), 7, rng.randint(300, 900),
        rng.randint(2000, 8000), 19, rng.randint(800, 3000)]
rng.shuffle(lens)
recs = []
for n in lens:
    s = list(rand_bases(n))
    if n > 500:
        a = rng.randrange(n - 100)
        s[a:a + 60] = [c.lower() for c in s[a:a + 60]]
        b = rng.randrange(n - 30)
        s[b:b + 20] = "N" * 20
    recs.append("".join(s))
q = []
for k, r in enumerate(recs):
    if len(r) > 200:
        a = rng.randrange(len(r) // 2)
        b = min(len(r), a + rng.randint(200, 1500))
        piece = mutate(rng, r[a:b].upper(), 0.08, 0.01)
        q.append(revcomp(piece) if rng.random() < 0.5 else piece)
        q.append(rand_bases(rng.randint(50, 400)))
    if k + 1 < len(recs) and rng.random() < 0.7:
        q.append(recs[k][-300:].upper() + recs[k + 1][:300].upper())
        q.append(rand_bases(rng.randint(50, 200)))
q = "".join(q)
target = []
for k, r in enumerate(recs):
    if sep and len(r) > 600 and k % 2 == 0:
        c = rng.randrange(200, len(r) - 200)
        r = r[:c] + sep * rng.randint(1, 3) + r[c:]
        if rng.random() < 0.5:
            r = sep + r + sep
    target.append(("trg%d some text" % k, r))
write(out + "/mtarget.fa", target)
big = max(recs, key=len)
c = len(big) // 3
write(out + "/starget.fa", [("one", "XX" + big[:c] + "X" + big[c:2 * c] + "XXX" + big[2 * c:] + "X")])
h = len(q) // 2
write(out + "/mquery.fa", [("mq0", q[:h]), ("mq1", q[h:])])
