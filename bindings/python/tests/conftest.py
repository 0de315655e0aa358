"""Shared fixtures of gale's Python suite: the seed (printed; GALE_TEST_SEED replays
a run), the scale of the random cases (GALE_TEST_SCALE), contexts, and the pair
generator every test file draws from."""
import os
import random

import pytest

import gale

SEED = int(os.environ.get("GALE_TEST_SEED") or random.SystemRandom().randrange(1 << 32))
SCALE = float(os.environ.get("GALE_TEST_SCALE") or 1.0)
# The backend the suite runs on: 'cpu' (default) or 'cuda' (the device's gpu runs).
BACKEND = os.environ.get("GALE_TEST_BACKEND", "cpu")


def pytest_report_header(config):
    return (f"GALE_TEST_SEED={SEED} (set it to replay this run's random cases), GALE_TEST_SCALE={SCALE}, "
            f"backend {BACKEND}, libgale {gale.__version__}, features {gale.features()}")


def scaled(n, least=1):
    return max(least, int(n * SCALE))


@pytest.fixture
def rng(request):
    # One stream per test, derived from the run's seed and the test's name, so that a
    # failing test replays alone.
    return random.Random(f"{SEED}:{request.node.nodeid}")


@pytest.fixture(scope="session")
def ctx():
    if BACKEND == "cuda" and gale.cuda_device_count() == 0:
        pytest.fail("GALE_TEST_BACKEND=cuda but no CUDA device is present")
    with gale.Context(BACKEND, threads=2 if BACKEND == "cpu" else 0) as c:
        yield c


@pytest.fixture(scope="session")
def cpu_ctx():
    with gale.Context("cpu", threads=2) as c:
        yield c


def mutate(rng, s, rate, alphabet="ACGT"):
    """s with about rate * len(s) substitutions, insertions and deletions."""
    out = []
    for ch in s:
        r = rng.random()
        if r < rate / 3:
            out.append(rng.choice(alphabet))
        elif r < 2 * rate / 3:
            out.append(ch)
            out.append(rng.choice(alphabet))
        elif r < rate:
            continue
        else:
            out.append(ch)
    return "".join(out)


def random_dna(rng, n, alphabet="ACGT"):
    return "".join(rng.choice(alphabet) for _ in range(n))


def random_pairs(rng, n, max_len, max_rate=0.3, alphabet="ACGT", n_rate=0.0):
    """n (pattern, text) pairs: random texts of 0..max_len bases (short ones
    favoured), patterns mutated from them at up to max_rate, a few unrelated and
    a few empty; N bases at n_rate."""
    pats, texts = [], []
    for i in range(n):
        length = int(max_len * rng.random() ** 2)
        t = random_dna(rng, length, alphabet)
        r = rng.random()
        if r < 0.03:
            p = ""
        elif r < 0.08:
            p = random_dna(rng, int(max_len * rng.random() ** 2), alphabet)
        else:
            p = mutate(rng, t, max_rate * rng.random(), alphabet)
        if n_rate:
            p = "".join("N" if rng.random() < n_rate else c for c in p)
            t = "".join("N" if rng.random() < n_rate else c for c in t)
        pats.append(p)
        texts.append(t)
    return pats, texts


def cigar_ops(cigar):
    """[(length, op)] of a SAM CIGAR string ('*': none)."""
    if cigar == "*":
        return []
    ops, num = [], ""
    for ch in cigar:
        if ch.isdigit():
            num += ch
        else:
            ops.append((int(num), ch))
            num = ""
    return ops


def rescore_affine(cigar, pattern, text, x, o, e, o2=0, e2=0):
    """Penalty of a CIGAR (= X I D; I consumes the pattern) over the pair, checking
    that it spells both sequences; two-piece when e2 > 0."""
    pi = ti = 0
    pen = 0
    for n, op in cigar_ops(cigar):
        if op == "=":
            assert pattern[pi:pi + n].upper() == text[ti:ti + n].upper(), "'=' over different bases"
            pi += n
            ti += n
        elif op == "X":
            for k in range(n):
                assert pattern[pi + k].upper() != text[ti + k].upper() or pattern[pi + k] in "Nn", \
                    "'X' over equal bases"
            pen += x * n
            pi += n
            ti += n
        elif op in "ID":
            g = o + n * e
            if e2 > 0:
                g = min(g, o2 + n * e2)
            pen += g
            if op == "I":
                pi += n
            else:
                ti += n
        else:
            raise AssertionError(f"unexpected op {op}")
    assert pi == len(pattern) and ti == len(text), "the CIGAR does not cover both sequences"
    return pen
