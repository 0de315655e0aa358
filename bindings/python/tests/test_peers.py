"""gale against the Python packages people use for the same alignments, on fresh
random pairs: pywfa (its own bundled WFA2-lib, heuristics off), parasail (Gotoh
global alignment: the same optimum as gap-affine WFA) and edlib (edit distance).
They are installed by tools/setup-deps.sh (pip, pinned versions); a missing peer
fails the test, it is never skipped."""
import importlib

import numpy as np
import pytest

from conftest import random_pairs, rescore_affine, scaled


def peer(name):
    try:
        return importlib.import_module(name)
    except ImportError as e:
        pytest.fail(f"peer package {name} is missing ({e}): run tools/setup-deps.sh, which installs the "
                    f"Python peers into .pydeps/")


PENALTIES = [  # (x, o, e, o2, e2): WFA2-lib's defaults, its test script's, two-piece
    (4, 6, 2, 0, 0), (1, 0, 1, 0, 0), (3, 5, 1, 0, 0), (6, 10, 3, 0, 0), (4, 6, 2, 24, 1), (2, 4, 2, 12, 1),
]


@pytest.mark.parametrize("x,o,e,o2,e2", PENALTIES)
def test_wfa_scores_equal_pywfa(ctx, rng, x, o, e, o2, e2):
    pywfa = peer("pywfa")
    pats, texts = random_pairs(rng, scaled(250), 1500, n_rate=0.01)
    two = e2 > 0
    kw = dict(mismatch_penalty=x, gap_open_penalty=o, gap_extend_penalty=e)
    if two:
        kw.update(gap_open2_penalty=o2, gap_extend2_penalty=e2)
    r = ctx.wfa(pats, texts, **kw)
    a = pywfa.WavefrontAligner(distance="affine2p" if two else "affine", mismatch=x, gap_opening=o,
                               gap_extension=e, gap_opening2=o2 if two else 24, gap_extension2=e2 if two else 1,
                               span="end-to-end", heuristic=None, scope="full", memory_mode="high")
    for i, (p, t) in enumerate(zip(pats, texts)):
        if not p and not t:
            continue  # WFA2-lib has nothing to align (gale: score 0, covered elsewhere)
        want = a.wavefront_align(t, p)
        assert a.status == 0, a.status_message
        assert r.score[i] == want, (i, p, t)
        assert rescore_affine(r.cigar(i), p, t, x, o, e, o2, e2) == -want


def test_edit_distance_equals_pywfa_and_edlib(ctx, rng):
    pywfa, edlib = peer("pywfa"), peer("edlib")
    pats, texts = random_pairs(rng, scaled(400), 2000)
    r = ctx.edit(pats, texts)
    a = pywfa.WavefrontAligner(distance="levenshtein", span="end-to-end", heuristic=None)
    for i, (p, t) in enumerate(zip(pats, texts)):
        d = edlib.align(p, t, mode="NW", task="distance")["editDistance"] if p and t else max(len(p), len(t))
        assert r.score[i] == d, (i, p, t)
        if p and t:
            assert a.wavefront_align(t, p) == d


@pytest.mark.parametrize("x,o,e", [(4, 6, 2), (2, 3, 1), (5, 0, 3)])
def test_wfa_scores_equal_parasail_global_affine(ctx, rng, x, o, e):
    parasail = peer("parasail")
    pats, texts = random_pairs(rng, scaled(250), 800)
    # parasail charges a gap of length L open + (L - 1) * extend; WFA2-lib o + L * e.
    matrix = parasail.matrix_create("ACGTN", 0, -x)
    r = ctx.wfa(pats, texts, mismatch_penalty=x, gap_open_penalty=o, gap_extend_penalty=e, scope="score")
    for i, (p, t) in enumerate(zip(pats, texts)):
        if not p or not t:
            continue  # parasail needs two non-empty sequences
        want = parasail.nw_scan_32(p, t, o + e, e, matrix).score
        assert r.score[i] == want, (i, p, t)
    assert r.cigar_ops is None and np.all(r.score <= 0)
