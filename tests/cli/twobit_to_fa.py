#!/usr/bin/env python3
"""UCSC .2bit (either byte order) to FASTA (N blocks as N, mask blocks lowercase), for the lastz-examples
tests that gale lastz runs (gale reads FASTA; LASTZ reads .2bit itself).
usage: twobit_to_fa.py FILE.2bit NAME OUT.fa"""
import struct
import sys


def main():
    path, want, out = sys.argv[1], sys.argv[2], sys.argv[3]
    data = open(path, "rb").read()
    e = "<" if struct.unpack_from("<I", data, 0)[0] == 0x1A412743 else ">"
    sig, _version, count, _ = struct.unpack_from(e + "IIII", data, 0)
    if sig != 0x1A412743:
        sys.exit("%s: not a .2bit file" % path)
    pos = 16
    index = {}
    for _ in range(count):
        n = data[pos]
        name = data[pos + 1:pos + 1 + n].decode()
        (off,) = struct.unpack_from(e + "I", data, pos + 1 + n)
        index[name] = off
        pos += 1 + n + 4
    if want not in index:
        sys.exit("%s: no sequence %s" % (path, want))
    p = index[want]
    (size, nblocks) = struct.unpack_from(e + "II", data, p)
    p += 8
    nstarts = struct.unpack_from(e + "%dI" % nblocks, data, p)
    p += 4 * nblocks
    nsizes = struct.unpack_from(e + "%dI" % nblocks, data, p)
    p += 4 * nblocks
    (mblocks,) = struct.unpack_from(e + "I", data, p)
    p += 4
    mstarts = struct.unpack_from(e + "%dI" % mblocks, data, p)
    p += 4 * mblocks
    msizes = struct.unpack_from(e + "%dI" % mblocks, data, p)
    p += 4 * mblocks + 4
    seq = bytearray(size)
    for i in range(size):
        byte = data[p + i // 4]
        seq[i] = b"TCAG"[(byte >> (6 - 2 * (i % 4))) & 3]
    for s, n in zip(nstarts, nsizes):
        seq[s:s + n] = b"N" * n
    for s, n in zip(mstarts, msizes):
        seq[s:s + n] = bytes(seq[s:s + n]).lower()
    with open(out, "w") as f:
        f.write(">%s\n" % want)
        for i in range(0, size, 60):
            f.write(seq[i:i + 60].decode() + "\n")


main()
