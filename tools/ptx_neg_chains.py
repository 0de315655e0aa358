#!/usr/bin/env python3
"""ptx_neg_chains.py - finds, in PTX, the min/max chains that ptxas 13.0 (CUDA 13.0.88)
miscompiles for sm_90: an inner min.s32/max.s32 reading the result of a neg.s32 whose own
result feeds a second min/max of the same kind. ptxas fuses the pair into one three-input
VIMNMX3 and drops the negation: max(max(a, -b), c) compiles to the very bytes of
max(max(a, b), c) (--canary shows it). It broke the Z-drop kernel's loop bounds (the trip
count of `for (t = st0 + lane; t < en0; t += 32)`, whose en0 is a min of three terms,
became huge: doc/zdrop.md, "GPU status"), so the kernels must not contain such a chain.

  ptx_neg_chains.py FILE.ptx...     exit 1 and list the chains if any file has one
  ptx_neg_chains.py --canary NVCC   say whether NVCC's ptxas drops the negation (exit 0)
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

MINMAX = re.compile(r'\s*(max|min)\.([su]32)\s+(%r\d+),\s*(%r\d+|-?\d+),\s*(%r\d+|-?\d+);')
NEG = re.compile(r'\s*neg\.s32\s+(%r\d+),')


def chains(text):
    """(inner, outer) instruction pairs, per function (PTX register names restart in each)."""
    found = []
    for func in re.split(r'\n(?=\.(?:visible |weak )?\.?(?:entry|func)\b)', text):
        negs, defs = set(), {}
        for line in func.split('\n'):
            m = NEG.match(line)
            if m:
                negs.add(m.group(1))
            m = MINMAX.match(line)
            if m:
                defs[m.group(3)] = (m.group(1), m.group(2), m.group(4), m.group(5), line.strip())
        for dst, (op, ty, a, b, line) in defs.items():
            if a not in negs and b not in negs:
                continue
            for op2, ty2, a2, b2, line2 in defs.values():
                if (op2, ty2) == (op, ty) and dst in (a2, b2):
                    found.append((line, line2))
    return found


def text_sections(path):
    data = open(path, 'rb').read()
    shoff = struct.unpack_from('<Q', data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    secs = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]

    def name(off):
        s = data[names + off:]
        return s[:s.index(b'\0')].decode()
    return {name(s[0]): data[s[4]:s[4] + s[5]] for s in secs if name(s[0]).startswith('.text.')}


def canary(nvcc):
    src = ('extern "C" __global__ void plain(const int *i, int *o) { o[0] = max(max(i[0], i[1]), i[2]); }\n'
           'extern "C" __global__ void negated(const int *i, int *o) { o[0] = max(max(i[0], -i[1]), i[2]); }\n')
    with tempfile.TemporaryDirectory() as d:
        cu, cubin = os.path.join(d, 'c.cu'), os.path.join(d, 'c.cubin')
        open(cu, 'w').write(src)
        subprocess.run([nvcc, '-cubin', '-arch=sm_90', '-O3', cu, '-o', cubin], check=True)
        t = text_sections(cubin)
    same = t.get('.text.plain') == t.get('.text.negated')
    print('ptxas (sm_90) %s the negation in max(max(a, -b), c)' % ('DROPS' if same else 'keeps'))


def main(argv):
    if len(argv) == 3 and argv[1] == '--canary':
        canary(argv[2])
        return 0
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    for path in argv[1:]:
        found = chains(open(path).read())
        print('%s: %d min/max chain(s) with an inner negation' % (os.path.basename(path), len(found)))
        for inner, outer in found[:10]:
            print('    %s  ->  %s' % (inner, outer))
        bad += len(found)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
