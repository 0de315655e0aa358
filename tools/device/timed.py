#!/usr/bin/env python3
"""timed.py OUT CMD [ARG...]: runs CMD with stdout to OUT (stderr passed through) and
prints one line, 'wall_s W rss_mb R rc C', the whole process as a user feels it: wall
time and peak resident memory of CMD (getrusage of the waited-for child). A measuring
aid for tools/device/ab.sh, not a test."""
import resource
import subprocess
import sys
import time

if len(sys.argv) < 3:
    sys.exit(__doc__)
with open(sys.argv[1], "wb") as out:
    t0 = time.perf_counter()
    rc = subprocess.call(sys.argv[2:], stdout=out)
    wall = time.perf_counter() - t0
rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
print(f"wall_s {wall:.2f} rss_mb {rss_mb:.0f} rc {rc}")
