#!/usr/bin/env python3
"""fa2other.py nib|nib-big|fastq IN.fa OUT: writes a FASTA file in the other formats lastz
reads, for the tests of `gale lastz` (tests/cli/lastz_ref.sh; lastz reading the same file is
the check that it is one).
  nib, nib-big: the first record as UCSC's nib (magic 0x6BE93D3A, little- or big-endian, the
    length, a base a nibble from the high one: T C A G N = 0..4, lower case +8, X 5);
  fastq: every record as four lines, '@' and the header, the bases, '+' and the header again
    on every other record (alone on the rest), and qualities cycling through '!'..'~' from a
    different start per record, so that an off-by-one in any output shows."""
import struct
import sys

NIB = {"T": 0, "C": 1, "A": 2, "G": 3, "N": 4, "X": 5}


def records(path):
    head, seq = None, []
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith(">"):
            if head is not None:
                yield head, "".join(seq)
            head, seq = line[1:], []
        else:
            seq.append(line.strip())
    if head is not None:
        yield head, "".join(seq)


def nib_code(c):
    return NIB[c.upper()] + (8 if c.islower() else 0)


def main():
    kind, src, dst = sys.argv[1:4]
    if kind.startswith("nib"):
        _, seq = next(records(src))
        body = bytearray()
        for i in range(0, len(seq), 2):
            lo = nib_code(seq[i + 1]) if i + 1 < len(seq) else 0
            body.append(nib_code(seq[i]) << 4 | lo)
        order = ">" if kind == "nib-big" else "<"
        with open(dst, "wb") as f:
            f.write(struct.pack(order + "II", 0x6BE93D3A, len(seq)))
            f.write(bytes(body))
    elif kind == "fastq":
        with open(dst, "w") as f:
            for k, (head, seq) in enumerate(records(src)):
                quals = "".join(chr(33 + (7 * k + 3 * i) % 94) for i in range(len(seq)))
                f.write("@%s\n%s\n+%s\n%s\n" % (head, seq, head if k % 2 else "", quals))
    else:
        sys.exit("fa2other.py: unknown kind %r (nib, nib-big, fastq)" % kind)


main()
