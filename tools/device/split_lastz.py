#!/usr/bin/env python3
"""split_lastz.py N TIMEOUT_S LASTZ TARGET QUERY SEGMENTS [LASTZ ARGS...]

LASTZ's gapped stage split across N cores as KegAlign and SegAlign run it (issue 15's
performance clause): the anchor file cut into N parts of consecutive lines (the anchors
stay in the file's order, so each part covers a stretch of the target), one
`lastz TARGET QUERY --segments=PART` per part, all at once. Prints each part's wall and
CPU time and peak RSS, then the whole: the wall time of all parts together (the
all-cores figure) and the sum of their CPU times (the one-core figure). A part still
running after TIMEOUT_S is killed and reported as such (its figures then are lower
bounds). Outputs go to /tmp and are not compared: split anchors change LASTZ's
order-dependent result, which is why gale does not split them. A measuring aid for
tools/device/run.sh, not a test."""
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    n, timeout = int(sys.argv[1]), float(sys.argv[2])
    lastz, target, query, segs = sys.argv[3:7]
    extra = sys.argv[7:]
    with open(segs) as f:
        lines = f.readlines()
    header = [l for l in lines if l.startswith("#")]
    body = [l for l in lines if not l.startswith("#")]
    work = tempfile.mkdtemp(prefix="split-lastz-")
    per = (len(body) + n - 1) // n
    procs = {}
    t0 = time.perf_counter()
    for k in range(n):
        part = body[k * per:(k + 1) * per]
        if not part:
            break
        path = os.path.join(work, f"part{k}.segs")
        with open(path, "w") as f:
            f.writelines(header + part)
        out = open(os.path.join(work, f"part{k}.out"), "wb")
        err = open(os.path.join(work, f"part{k}.err"), "wb")
        p = subprocess.Popen([lastz, target, query, f"--segments={path}"] + extra, stdout=out, stderr=err)
        procs[p.pid] = (k, len(part), p)
    results = {}
    killed = set()

    def kill_rest():
        for pid, (k, _, _) in procs.items():
            if pid not in results:
                killed.add(k)
                os.kill(pid, signal.SIGKILL)

    timer = threading.Timer(timeout, kill_rest)
    timer.start()
    while len(results) < len(procs):
        pid, status, ru = os.wait4(-1, 0)
        if pid in procs:
            results[pid] = (time.perf_counter() - t0, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, status)
    timer.cancel()
    wall = time.perf_counter() - t0
    cpu_sum = 0.0
    for pid in sorted(results, key=lambda p: procs[p][0]):
        k, nseg, _ = procs[pid]
        w, cpu, rss, status = results[pid]
        cpu_sum += cpu
        alns = sum(1 for l in open(os.path.join(work, f"part{k}.out")) if not l.startswith("#"))
        print(f"part {k:2d}: {nseg} anchors, wall {w:.2f} s, cpu {cpu:.2f} s, rss {rss:.0f} MB, "
              f"{alns} output lines{' KILLED at the time limit' if k in killed else ''}")
    print(f"split lastz: {len(procs)} parts, wall_s {wall:.2f} (all cores), cpu_sum_s {cpu_sum:.2f} (one core)"
          f"{' (lower bounds: parts killed)' if killed else ''}")


if __name__ == "__main__":
    main()
