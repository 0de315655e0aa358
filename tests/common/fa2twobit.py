#!/usr/bin/env python3
"""fa2twobit.py IN.fa OUT.2bit [big]: writes a FASTA file as UCSC's 2bit format (the tests
of `gale lastz` on 2bit input, tests/cli/lastz_ref.sh; lastz reading the same file is the
check that it is one): each record named by its header's first word; N (either case) as N
blocks, lower case as mask blocks, every other base as A C G T (2 bits, T C A G = 0 1 2 3,
four a byte from the high bits). Little-endian unless "big" is given."""
import struct
import sys


def records(path):
    name, seq = None, []
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith(">"):
            if name is not None:
                yield name, "".join(seq)
            name, seq = line[1:].split()[0], []
        else:
            seq.append(line.strip())
    if name is not None:
        yield name, "".join(seq)


def blocks(seq, test):
    out, start = [], None
    for i, c in enumerate(seq + "\0"):
        if c != "\0" and test(c):
            if start is None:
                start = i
        elif start is not None:
            out.append((start, i - start))
            start = None
    return out


def main():
    src, dst = sys.argv[1], sys.argv[2]
    end = ">" if len(sys.argv) > 3 and sys.argv[3] == "big" else "<"
    recs = list(records(src))
    u32 = lambda v: struct.pack(end + "I", v)
    head = u32(0x1A412743) + u32(0) + u32(len(recs)) + u32(0)
    index_len = sum(1 + len(n) + 4 for n, _ in recs)
    bodies, offset = [], len(head) + index_len
    index = b""
    for name, seq in recs:
        nb = blocks(seq, lambda c: c in "Nn")
        mb = blocks(seq, lambda c: c.islower())
        code = {"T": 0, "C": 1, "A": 2, "G": 3}
        packed = bytearray((len(seq) + 3) // 4)
        for i, c in enumerate(seq.upper()):
            packed[i // 4] |= code.get(c, 0) << (6 - 2 * (i % 4))
        body = u32(len(seq)) + u32(len(nb)) + b"".join(u32(s) for s, _ in nb) + b"".join(u32(l) for _, l in nb)
        body += u32(len(mb)) + b"".join(u32(s) for s, _ in mb) + b"".join(u32(l) for _, l in mb) + u32(0) + bytes(packed)
        index += bytes([len(name)]) + name.encode() + u32(offset)
        bodies.append(body)
        offset += len(body)
    with open(dst, "wb") as f:
        f.write(head + index + b"".join(bodies))


if __name__ == "__main__":
    main()
