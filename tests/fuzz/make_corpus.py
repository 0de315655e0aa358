#!/usr/bin/env python3
"""Writes the seed corpora of gale's fuzz harnesses (tests/fuzz/corpus/NAME/).

Every seed is written out here by hand: small LOGAN TSV lines, .seq pairs and
FASTA/FASTQ files (each behind the two header bytes the harness reads: how the file
is written, then k or the batch options), and for fuzz_api short programs in the
harness's call encoding (fuzz_api.c: one byte per operation, then its arguments).
Run it again after changing an encoding:  python3 tests/fuzz/make_corpus.py
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, files):
    d = os.path.join(HERE, "corpus", name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for fname, data in files.items():
        with open(os.path.join(d, fname), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())


# ---- fuzz_logan: byte 0 'p' plain, 'q' gzip, 'r' BGZF, 's' gzip cut short; byte 1 k
# (k = 1 + c % 33: 'E' is 4, 'R' is 17, '0' is 17 too, '!' is 1).
T = "\t"
logan_good = ("ACGTACGTTTGA" + T + "2" + T + "CCACGTACGG" + T + "2" + T + "n\n"
              "GATTACAGATTACA" + T + "0" + T + "TGTAATCTGTAATC" + T + "0" + T + "c\n")
write("logan", {
    "plain": "pE" + logan_good,
    "gzip": "qE" + logan_good,
    "bgzf": "rE" + logan_good,
    "cut": "sE" + logan_good,
    "k17": "pR" + "ACGTACGTACGTACGTACGTAAA" + T + "3" + T + "TTACGTACGTACGTACGTACGTCC" + T + "4" + T + "n\n",
    "k1-iupac": "p!" + "acgtNRYSWKMBDHVu" + T + "5" + T + "ACGTnrysWKMBDHVU" + T + "7" + T + "c\n",
    "crlf-empty": "pE" + "ACGTACGT" + T + "0" + T + "ACGTACGT" + T + "4" + T + "n\r\n\r\n",
    "fields4": "pE" + "ACGTACGT" + T + "0" + T + "ACGTACGT" + T + "4\n",
    "badpos": "pE" + "ACGTACGT" + T + "9223372036854775807" + T + "ACGTACGT" + T + "-4" + T + "n\n",
    "seedpast": "pE" + "ACGTACGT" + T + "5" + T + "ACGTACGT" + T + "4" + T + "c\n",
    "badbase": "pE" + "ACGTAC!T" + T + "0" + T + "ACG\x01ACGT" + T + "0" + T + "c\n",
    "strand": "pE" + "ACGTACGT" + T + "0" + T + "ACGTACGT" + T + "0" + T + "x\n",
    "noeol": "p$" + "ACGTACGT" + T + "1" + T + "ACGTACGT" + T + "1" + T + "n",
})

# ---- fuzz_seq: byte 0 as above; byte 1 the options ('@' gap-affine, 'A' edit,
# 'B' score only, 'L' all ends free, 'P' N mismatches N, '`' two-piece).
seq_good = ">ACGT\n<ACGGT\n>GATTACA\n<GATCACA\n>\n<ACGT\n>TTTT\n<\n"
write("seq", {
    "plain": "p@" + seq_good,
    "edit": "pA" + seq_good,
    "score": "pB" + seq_good,
    "endsfree": "pL" + ">AAACGTACGTTT\n<CCCACGTACGGG\n",
    "nmismatch": "pP" + ">ACGNNT\n<ACGNNNT\n",
    "twopiece": "p`" + ">ACGTACGTACGTACGTACGTACGTACGTACGT\n<ACGTACGTACGTACGTACGT\n",
    "gzip": "q@" + seq_good,
    "bgzf": "r@" + seq_good,
    "cut": "s@" + seq_good,
    "crlf": "p@" + ">ACGT\r\n<ACGT\r\n",
    "notext": "p@" + ">ACGT\n",
    "swapped": "p@" + "<ACGT\n>ACGT\n",
    "empty-line": "p@" + ">ACGT\n\n<ACGT\n",
    "badbase": "p@" + ">AC-T\n<ACGT\n",
})

# ---- fuzz_fastx: byte 0 bits 0-1 PATTERNS, 2-3 TEXTS ('p' both plain, 'u' both
# gzip, 'z' both BGZF, 't' PATTERNS gzip / TEXTS BGZF... see fuzz_fastx.c); byte 1
# options as fuzz_seq; then PATTERNS, a line "%%", TEXTS.
fa_p = ">p1 first pattern\nACGTACGT\nACGT\n>p2\nGATTACA\n\n>p3\n"
fa_t = ">t1\nACGTACGAACGT\n>t2\tdesc\nGATCACA\n>t3\nAC\n"
fq_p = "@r1\nACGT\n+\nIIII\n@r2 x\nGGA\nTT\n+r2\n!!#\n$%\n"
fq_t = "@s1\nACGA\n+\n####\n@s2\nGATT\n+\n@@@@\n"
write("fastx", {
    "fasta": "p@" + fa_p + "%%\n" + fa_t,
    "fastq": "p@" + fq_p + "%%\n" + fq_t,
    "mixed": "pA" + fa_p[:30] + "\n%%\n" + fq_t,
    "gzip": "u@" + fa_p + "%%\n" + fa_t,
    "bgzf": "z@" + fq_p + "%%\n" + fq_t,
    "cut": "\x7f@" + fa_p + "%%\n" + fa_t,
    "same": "pL" + fa_p,
    "count": "p@" + fa_p + "%%\n" + ">t1\nACGT\n",
    "fq-trunc": "p@" + "@r1\nACGT\n+\nII\n" + "%%\n" + fq_t,
    "fq-long": "p@" + "@r1\nACGT\n+\nIIIIII\n" + "%%\n" + fq_t,
    "fq-badqual": "p@" + "@r1\nACGT\n+\nII \x7f\n" + "%%\n" + fq_t,
    "fq-noplus": "p@" + "@r1\nACGT\n" + "%%\n" + fq_t,
    "noheader": "p@" + "ACGT\n>p\nAC\n" + "%%\n" + fa_t,
    "crlf": "pB" + ">p1\r\nACGT\r\n%%\n>t1\r\nACCT\r\n",
})

# ---- fuzz_api: operations (fuzz_api.c's enum) and their argument bytes.
(CTX_CREATE, CTX_DESTROY, BATCH_CREATE, BATCH_DESTROY, SET, ADD, ADD2, ADD3, ADD_SEQ, GROUP_GRAPH,
 SUBMIT, POLL, WAIT, CANCEL, RESULT, RANGE, CIGAR, STATS, RESET, COUNT, STALE, STATIC, FINISH, SET2) = range(24)

u8 = lambda v: bytes([v & 0xFF])
u16 = lambda v: struct.pack("<H", v & 0xFFFF)
u64 = lambda v: struct.pack("<Q", v & 0xFFFFFFFFFFFFFFFF)


def ctx(slot=0, threads=1):
    return u8(CTX_CREATE) + u8(slot) + u8(28 + (threads - 1))  # case 14: the defaults, CPU


def batch(b, kind, c=0):
    return u8(BATCH_CREATE) + u8(b) + u8(c) + u8(kind - 1)


def seq_acgt(s):
    """gen_seq, mode 0 (bytes & 3 onto ACGT): s in ACGT, up to 47 bases."""
    assert len(s) < 48
    return u8(0) + u8(len(s)) + bytes("ACGT".index(c) for c in s)


def seq_raw(s):
    """gen_seq, mode 3: the bytes as they are."""
    return u8(3) + u8(len(s)) + s


def seq_long(unit, n):
    """gen_seq, mode 6: unit (ACGT) repeated to n bases."""
    return u8(6) + u8(len(unit) - 1) + bytes("ACGT".index(c) for c in unit) + u16(n)


def seq_related(edits):
    """gen_seq, mode 7: the last valid sequence with edits [(pos, what)]."""
    out = u8(7) + u8(len(edits))
    for pos, what in edits:
        out += u16(pos) + u8(what)
    return out


def side_inline(g):
    return u8(0) + g


def side_registered(id_, off, n, n_registered):
    """A window [off, off + n) of registered sequence id_ (n_registered so far)."""
    if id_ == 0 or id_ > n_registered:  # read as: id, offset % 3, length % 3
        return u8(6) + u8(id_) + u8(off) + u8(n)
    return u8(6) + u8(id_) + u8(0) + u16(off) + u16(n)


def add(b, h, v, user=0, seedhow=15, seed=None, how=4):
    out = u8(ADD) + u8(b) + u8(how) + h + v + u64(user) + u8(seedhow)
    if seed is not None:  # X-drop: (hb, vb, k) as the harness reads them
        hb, vb, k = seed
        out += u16(hb) + u16(vb) + u8(k)
    return out


def set_param(b, idx, how_value, extra=b""):
    # pick_param: how 0 (one of the kind's ids), other, index; then the value's how
    return u8(SET) + u8(b) + u8(0) + u8(0) + u8(idx) + u8(how_value) + extra


def add_seq(b, g):
    return u8(ADD_SEQ) + u8(b) + u8(4) + g


finish = lambda b: u8(FINISH) + u8(b)
submit = lambda b: u8(SUBMIT) + u8(b)
wait = lambda b: u8(WAIT) + u8(b)
poll = lambda b, ms=1: u8(POLL) + u8(b) + u8(ms)
cancel = lambda b: u8(CANCEL) + u8(b)
reset = lambda b: u8(RESET) + u8(b)
result = lambda b, i, how=4: u8(RESULT) + u8(b) + u8(how) + u8(i)
rng = lambda b, first, n, how=0: u8(RANGE) + u8(b) + u8(how) + u8(first) + u8(n)
cigar = lambda b, i: u8(CIGAR) + u8(b) + u8(0) + u8(i)
stats = lambda b: u8(STATS) + u8(b) + u8(0)
count = lambda b: u8(COUNT) + u8(b) + u8(0)

A = "ACGTTGCAAGGCTTACCGATTGACCATGGTACAGTCAGTA"
write("api", {
    "xdrop": (ctx() + batch(0, 1)
              + set_param(0, 3, 6) + u8(30)  # xdrop: inside, small
              + add(0, side_inline(seq_acgt(A)), side_inline(seq_related([(5, 0), (20, 1)])), user=7,
                    seed=(10, 10, 8))
              + add(0, side_inline(seq_acgt("ACGTACGTAC")), side_inline(seq_acgt("ACGTTCGTAC")), user=8,
                    seed=(2, 2, 3))
              + submit(0) + wait(0) + result(0, 0) + result(0, 1) + result(0, 5) + rng(0, 0, 2)
              + cigar(0, 0) + stats(0) + count(0) + finish(0)),
    "wfa": (ctx() + batch(1, 2)
            + add(1, side_inline(seq_acgt(A)), side_inline(seq_related([(3, 0), (9, 2), (30, 1)])), user=1)
            + add(1, side_inline(seq_long("ACGTT", 900)), side_inline(seq_related([(100, 0), (400, 5), (700, 2)])))
            + add(1, side_inline(seq_acgt("")), side_inline(seq_acgt("ACGT")))
            + submit(1) + poll(1, 0) + wait(1) + cigar(1, 0) + cigar(1, 1) + rng(1, 1, 2) + finish(1)),
    "edit-endsfree": (ctx(0, 2) + batch(2, 3)
                      + set_param(2, 2, 7) + u8(5)   # pattern_begin_free
                      + set_param(2, 5, 7) + u8(9)   # text_end_free
                      + add(2, side_inline(seq_acgt("GGGACGTACGTAAA")), side_inline(seq_acgt("ACGTACGT")))
                      + submit(2) + wait(2) + result(2, 0) + cigar(2, 0) + finish(2)),
    "registered": (ctx() + batch(0, 2)
                   + add_seq(0, seq_long("ACGGT", 300)) + add_seq(0, seq_related([(10, 1), (200, 0)]))
                   + add(0, side_registered(1, 20, 100, 2), side_registered(2, 25, 90, 2))
                   + add(0, side_registered(2, 0, 300, 2), side_inline(seq_acgt("ACGGTACGG")))
                   + add(0, side_registered(3, 0, 1, 2), side_registered(1, 299, 5, 2))  # bad id, bad window
                   + submit(0) + finish(0) + reset(0) + count(0)
                   + add(0, side_inline(seq_acgt("ACGT")), side_inline(seq_acgt("AGT"))) + submit(0) + finish(0)),
    "cancel": (ctx() + batch(0, 3) + batch(1, 1)
               + add(0, side_inline(seq_long("ACGTAC", 2000)), side_inline(seq_related([(1000, 1)] * 6)))
               + submit(0) + cancel(0) + poll(0, 3) + result(0, 0) + stats(0)
               + cancel(1) + submit(1) + wait(1) + cancel(1) + wait(1) + submit(1)
               + reset(0) + u8(BATCH_DESTROY) + u8(1) + u8(STALE) + u8(0) + u8(STALE) + u8(0x50)),
    "misuse": (u8(SUBMIT) + u8(3) + u8(STATIC) + u8(0) + u8(1) + u16(200)
               + u8(STATIC) + u8(1) + u8(2) + u16(0) + u8(5) + u8(STATIC) + u8(2) + u8(0) + u16(9999)
               + u8(CTX_CREATE) + u8(0) + u8(2 * 3) + u8(9) + u8(CTX_CREATE) + u8(0) + u8(2 * 8)
               + ctx(1) + batch(0, 2, 1) + u8(GROUP_GRAPH) + u8(0) + u8(1) + u8(GROUP_GRAPH) + u8(0) + u8(0)
               + add(0, side_inline(seq_acgt("ACGT")), side_inline(seq_acgt("ACGT")), how=1) + u8(3)
               + add(0, u8(8) + u8(0) + u8(5), side_inline(seq_acgt("AC")))
               + add(0, u8(8) + u8(1) + u8(2), side_inline(seq_acgt("AC")))
               + add(0, side_inline(seq_raw(b"AC!T")), side_inline(seq_acgt("AC")))
               + result(0, 0) + wait(0) + set_param(0, 0, 3) + set_param(0, 0, 2)
               + u8(STATIC) + u8(4) + u8(0) + u16(0) + u8(1)
               + u8(CTX_DESTROY) + u8(1) + u8(STALE) + u8(0x05) + u8(STALE) + u8(0x40)),
    # gale_task.junc (seedhow 0xF_): refused by the kinds the harness models, unread in a
    # 0.2-size task (how=0), then a clean task, run
    "junc": (ctx() + batch(0, 1) + batch(1, 2)
             + add(0, side_inline(seq_acgt("ACGTACGT")), side_inline(seq_acgt("ACGTACGT")), seedhow=0xF5,
                   seed=(0, 0, 4))
             + add(1, side_inline(seq_acgt("ACGT")), side_inline(seq_acgt("AGT")), seedhow=0xFF)
             + add(1, side_inline(seq_acgt("ACGT")), side_inline(seq_acgt("AGT")), seedhow=0xFF, how=0)
             + add(1, side_inline(seq_acgt("ACGTA")), side_inline(seq_acgt("AGTA")))
             + submit(1) + wait(1) + result(1, 0) + finish(1)),
})
