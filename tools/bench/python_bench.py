#!/usr/bin/env python3
"""python_bench - the gale Python package on a WFA .seq file (gen.py seq), against
pywfa in a loop on the same pairs and against the C API doing the same round trip.

  python_bench.py FILE.seq [--backend auto|cpu|cuda] [--threads N] [--round-trip B,B,...]
                  [--repeat R] [--pywfa N] [--wfa-bench PATH]

WFA-GPU's anchor penalties (x=2, o=3, e=1), end to end, CIGARs on. Prints markdown:
  1. gale, all pairs in one call: from numpy buffers (Arrow layout) and from lists of str;
  2. pywfa (WavefrontAligner, heuristics off, the same penalties) over the first N pairs
     (default: all), reading each score and CIGAR as a user would; gale's scores are
     checked equal to pywfa's on those pairs;
  3. with --round-trip: per batch size B, the median and best of R calls of
     Context.wfa on the first B pairs (numpy input); with --wfa-bench, the same round
     trip through the C API (wfa_bench --round-trip) in a second process, run before
     and after the package's, and the package's overhead over the faster of the two;
     and, in this process, the share of one profiled call spent outside libgale.
Needs numpy and the gale package on PYTHONPATH (the build tree's bindings/python, or
an installed one), and pywfa for part 2.
"""
import argparse
import cProfile
import pstats
import statistics
import subprocess
import sys
import time

import numpy as np

import gale

PEN = dict(mismatch_penalty=2, gap_open_penalty=3, gap_extend_penalty=1)


def read_seq(path):
    pats, texts = [], []
    with open(path) as f:
        for line in f:
            if line.startswith(">"):
                pats.append(line[1:].rstrip("\n"))
            elif line.startswith("<"):
                texts.append(line[1:].rstrip("\n"))
    if len(pats) != len(texts):
        sys.exit(f"{path}: {len(pats)} patterns but {len(texts)} texts")
    return pats, texts


def arrow(seqs):
    data = np.frombuffer("".join(seqs).encode("ascii"), dtype=np.uint8)
    off = np.zeros(len(seqs) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in seqs], out=off[1:])
    return data, off


def timed(fn, repeat):
    ts = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), min(ts), out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--round-trip", default="")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pywfa", type=int, default=-1, help="pairs for the pywfa loop (-1: all, 0: none)")
    ap.add_argument("--wfa-bench", default="")
    a = ap.parse_args()

    t0 = time.perf_counter()
    pats, texts = read_seq(a.file)
    read_s = time.perf_counter() - t0
    n = len(pats)
    pd, po = arrow(pats)
    td, to = arrow(texts)
    ctx = gale.Context(a.backend, threads=a.threads)
    print(f"python_bench {a.file}: {n} pairs, {(len(pd) + len(td)) / 1e6:.1f} Mbases; {ctx!r}; "
          f"gale {gale.__version__}, Python {sys.version.split()[0]}, numpy {np.__version__}; "
          f"file read in {read_s:.2f} s")

    print("\n| gale, one call | pairs | median s | best s | aln/s |\n|---|---|---|---|---|")
    med, best, res = timed(lambda: ctx.wfa((pd, po), (td, to), **PEN), a.repeat)
    print(f"| numpy buffers | {n} | {med:.3f} | {best:.3f} | {n / med:,.0f} |")
    med_l, best_l, res_l = timed(lambda: ctx.wfa(pats, texts, **PEN), a.repeat)
    print(f"| lists of str | {n} | {med_l:.3f} | {best_l:.3f} | {n / med_l:,.0f} |")
    assert np.array_equal(res.records, res_l.records)
    print(f"  {res!r}")

    if a.pywfa != 0:
        import pywfa
        m = n if a.pywfa < 0 else min(n, a.pywfa)
        al = pywfa.WavefrontAligner(distance="affine", mismatch=2, gap_opening=3, gap_extension=1,
                                    span="end-to-end", heuristic=None, scope="full", memory_mode="high")
        scores = np.empty(m, dtype=np.int64)
        t0 = time.perf_counter()
        for i in range(m):
            scores[i] = al.wavefront_align(texts[i], pats[i])
            _ = al.cigarstring
        py_s = time.perf_counter() - t0
        same = int((scores == res.score[:m]).sum())
        print(f"\n| pywfa loop | pairs | s | aln/s | gale (numpy) speed-up | scores equal to gale's |\n"
              f"|---|---|---|---|---|---|\n"
              f"| pywfa {getattr(pywfa, '__version__', '0.6.0')} | {m} | {py_s:.3f} | {m / py_s:,.0f} | "
              f"{(py_s / m) / (med / n):.1f}x | {same} of {m} |")
        if same != m:
            print("python_bench: gale and pywfa disagree", file=sys.stderr)
            sys.exit(1)

    if a.round_trip:
        sizes = [int(x) for x in a.round_trip.split(",")]

        def c_api():
            # The same round trip through the C API in a second process (wfa_bench --round-trip).
            # --bulk: the package adds each batch with one gale_batch_add_tasks call, so the C side does too.
            cmd = [a.wfa_bench, a.file, "--backend", a.backend, "--penalties", "2,3,1", "--repeat", str(a.repeat),
                   "--round-trip", a.round_trip, "--bulk"]
            if a.threads:
                cmd += ["--threads", str(a.threads)]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            print(out.strip())
            got = {}
            for line in out.splitlines():
                cells = [c.strip() for c in line.strip("|").split("|")]
                if len(cells) == 5 and cells[0] == "C API round trip" and cells[1].isdigit():
                    got[int(cells[1])] = (float(cells[2]) / 1e3, float(cells[3]) / 1e3)
            return got

        # C, then Python, then C again: the overhead is taken against the C run that was
        # faster, so that neither the order nor the GPU's clocks favour the package.
        c_runs = [c_api()] if a.wfa_bench else []
        print("\n| Python round trip | pairs | median ms | best ms |\n|---|---|---|---|")
        py = {}
        for b in sizes:
            med_b, best_b, _ = timed(lambda: ctx.wfa((pd, po[:b + 1]), (td, to[:b + 1]), **PEN), a.repeat)
            py[b] = (med_b, best_b)
            print(f"| Context.wfa | {b} | {1e3 * med_b:.3f} | {1e3 * best_b:.3f} |")
        # The package's own share, in this process: one profiled call per size; the time
        # inside the extension's calls into libgale (adding, submitting, waiting, copying
        # results) against the call's whole time. The profiler's cost and the batch's
        # creation and destruction (type calls it does not time) count as the package's:
        # the share is an upper bound.
        print("\n| profiled Context.wfa | pairs | whole ms | in libgale calls ms | package's share |\n"
              "|---|---|---|---|---|")
        for b in sizes:
            prof = cProfile.Profile()
            t0 = time.perf_counter()
            prof.runcall(ctx.wfa, (pd, po[:b + 1]), (td, to[:b + 1]), **PEN)
            whole = time.perf_counter() - t0
            st = pstats.Stats(prof)
            inside = sum(v[2] for k, v in st.stats.items() if "gale._gale" in k[2])
            print(f"| Context.wfa | {b} | {1e3 * whole:.3f} | {1e3 * inside:.3f} | "
                  f"{100 * (whole - inside) / whole:.2f}% |")
        ctx.close()
        if a.wfa_bench:
            print()
            c_runs.append(c_api())
            print("\n| batch | C API median ms (best of the two runs) | Python median ms | overhead (median) | "
                  "overhead (best) |\n|---|---|---|---|---|")
            for b in sizes:
                c_med = min(r[b][0] for r in c_runs)
                c_best = min(r[b][1] for r in c_runs)
                p_med, p_best = py[b]
                print(f"| {b} | {1e3 * c_med:.3f} | {1e3 * p_med:.3f} | {100 * (p_med / c_med - 1):+.1f}% | "
                      f"{100 * (p_best / c_best - 1):+.1f}% |")


if __name__ == "__main__":
    main()
