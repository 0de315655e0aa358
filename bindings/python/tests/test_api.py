"""The Python API itself: inputs, parameters, results, errors, futures, threads.
Values are checked against independent computations (rescoring a CIGAR, the
definition of the edit distance on tiny cases), never against gale's own output
taken as truth."""
import concurrent.futures
import threading
import time

import numpy as np
import pytest

import gale
from conftest import cigar_ops, random_pairs, rescore_affine, scaled


def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        prev = cur
    return prev[-1]


def test_library_describes_itself():
    assert set(gale.kinds()) >= {"xdrop", "wfa", "edit"}
    p = gale.params("wfa")
    assert p["mismatch_penalty"].default == 4 and p["mismatch_penalty"].lower == 1
    assert p["gap_open_penalty"].default == 6 and p["gap_extend_penalty"].default == 2
    assert gale.params("xdrop")["xdrop"].default == 100
    assert gale.features()["cpu"] is True
    assert gale.__version__.count(".") == 2
    with pytest.raises(ValueError, match="unknown kind"):
        gale.params("nope")


def test_result_dtype_covers_the_public_fields():
    names = set(gale.RESULT_DTYPE.names)
    assert names == {"flags", "score_left", "score_right", "score", "h_begin", "h_end", "v_begin", "v_end",
                     "cells", "user"}


def test_edit_small_cases_are_the_edit_distance(cpu_ctx, rng):
    pats, texts = random_pairs(rng, scaled(300), 60)
    r = cpu_ctx.edit(pats, texts)
    assert len(r) == len(pats)
    for i, (p, t) in enumerate(zip(pats, texts)):
        assert r.score[i] == edit_distance(p, t), (i, p, t)
        ops = cigar_ops(r.cigar(i))
        assert sum(n for n, op in ops if op in "=XI") == len(p)
        assert sum(n for n, op in ops if op in "=XD") == len(t)
        assert sum(n for n, op in ops if op in "XID") == r.score[i]
    assert list(r.user) == list(range(len(pats)))


def test_lists_bytes_and_arrow_buffers_agree(ctx, rng):
    pats, texts = random_pairs(rng, scaled(200), 400)
    a = ctx.wfa(pats, texts)
    b = ctx.wfa([p.encode() for p in pats], [t.encode() for t in texts])
    pd = np.frombuffer("".join(pats).encode(), dtype=np.uint8)
    po = np.concatenate([[0], np.cumsum([len(p) for p in pats])]).astype(np.int32)  # int32 offsets are widened
    td = np.frombuffer("".join(texts).encode(), dtype=np.uint8)
    to = np.concatenate([[0], np.cumsum([len(t) for t in texts])])
    c = ctx.wfa((pd, po), (td, to))
    for x in (b, c):
        assert np.array_equal(a.records, x.records)
        assert np.array_equal(a.cigar_ops, x.cigar_ops) and np.array_equal(a.cigar_offsets, x.cigar_offsets)
    for i, (p, t) in enumerate(zip(pats, texts)):
        assert rescore_affine(a.cigar(i), p, t, 4, 6, 2) == -a.score[i]


def test_parameters_by_name_and_enums(ctx, rng):
    pats, texts = random_pairs(rng, scaled(100), 300)
    r = ctx.wfa(pats, texts, mismatch_penalty=3, gap_open_penalty=5, gap_extend_penalty=1,
                gap_open2_penalty=20, gap_extend2_penalty=1)
    for i, (p, t) in enumerate(zip(pats, texts)):
        assert rescore_affine(r.cigar(i), p, t, 3, 5, 1, 20, 1) == -r.score[i]
    s = ctx.wfa(pats, texts, mismatch_penalty=3, gap_open_penalty=5, gap_extend_penalty=1,
                gap_open2_penalty=20, gap_extend2_penalty=1, scope="score")
    assert s.cigar_ops is None and s.cigar(0) is None and s.cigar_strings() is None
    assert np.array_equal(s.score, r.score)
    assert np.array_equal(ctx.wfa(pats, texts, scope=gale._gale.SCOPE_SCORE).score, ctx.wfa(pats, texts).score)


def test_n_policy_bytes_compares_bytes(cpu_ctx, rng):
    # Soft-masked copies: the default folds case (edit distance 0), "bytes" does not.
    pats, texts = random_pairs(rng, scaled(50), 100)
    low = [t.lower() for t in texts]
    folded = cpu_ctx.edit(low, texts)
    exact = cpu_ctx.edit(low, texts, n_policy="bytes")
    for i, t in enumerate(texts):
        assert folded.score[i] == 0
        assert exact.score[i] == sum(c != c.lower() for c in t)  # every upper-case base mismatches
    assert cpu_ctx.edit(["RYKM"], ["NNNN"]).score[0] == 0  # IUPAC codes read as N: N matches N
    assert cpu_ctx.edit(["RYKM"], ["NNNN"], n_policy="bytes").score[0] == 4
    assert cpu_ctx.edit(["NNNN"], ["NNNN"], n_policy="bytes").score[0] == 0


def test_xdrop_seeds_three_and_four_columns(ctx, rng):
    h, v, seeds = [], [], []
    for _ in range(scaled(100)):
        core = "".join(rng.choice("ACGT") for _ in range(rng.randrange(20, 300)))
        hh = "".join(rng.choice("ACGT") for _ in range(rng.randrange(0, 50))) + core
        vv = "".join(rng.choice("ACGT") for _ in range(rng.randrange(0, 50))) + core
        h.append(hh)
        v.append(vv)
        seeds.append((len(hh) - len(core), len(vv) - len(core), 17))
    s3 = np.array(seeds)
    s4 = np.stack([s3[:, 0], s3[:, 0] + 17, s3[:, 1], s3[:, 1] + 17], axis=1)
    a = ctx.xdrop(h, v, s3, xdrop=20)
    b = ctx.xdrop(h, v, s4, xdrop=20)
    assert np.array_equal(a.records, b.records)
    assert a.cigar_ops is None
    assert (a.score == a.score_left + a.score_right + 17).all()
    # The seed lies at the start of the shared core: the right extension runs over it.
    assert (a.h_end == [len(x) for x in h]).all() and (a.v_end == [len(x) for x in v]).all()


def test_xdrop_identical_sequences_extend_to_both_ends(ctx, rng):
    seqs = ["".join(rng.choice("ACGT") for _ in range(rng.randrange(17, 400))) for _ in range(scaled(100))]
    seeds = np.array([[b, b + 17, b, b + 17] for b in (rng.randrange(0, len(s) - 16) for s in seqs)])
    r = ctx.xdrop(seqs, seqs, seeds, match=2, mismatch=-3, gap=-2, xdrop=10)
    # gale.h: score = score_left + score_right + the seed's length.
    assert (r.score == [2 * (len(s) - 17) + 17 for s in seqs]).all()
    assert (r.h_begin == 0).all() and (r.v_begin == 0).all() and (r.h_end == [len(s) for s in seqs]).all()
    left = r.score_left // 2
    assert (left == seeds[:, 0]).all()


@pytest.mark.parametrize("bad,match", [
    (["ACGTZ"], r"pair 0: invalid byte 0x5a \('Z'\) at position 4"),
    (["AC\x00G"], r"pair 0: invalid byte 0x00"),
])
def test_bad_bytes_name_pair_and_position(cpu_ctx, bad, match):
    with pytest.raises(gale.GaleValueError, match=match) as e:
        cpu_ctx.wfa(["ACGT"] + bad, ["ACGT", "ACGT"][:1 + len(bad)]) if False else cpu_ctx.wfa(bad, ["ACG"])
    assert e.value.status == gale._gale.E_INPUT and e.value.status_name == "GALE_E_INPUT"


def test_bad_byte_in_a_later_pair_names_that_pair(cpu_ctx):
    pats = ["ACGT"] * 7 + ["ACGR!"] + ["A"]
    with pytest.raises(gale.GaleValueError, match=r"pair 7: invalid byte 0x21 \('!'\) at position 4"):
        cpu_ctx.wfa(pats, ["ACGT"] * 9)
    # the same through parts of a progress run: the pair's index in the caller's arrays
    with pytest.raises(gale.GaleValueError, match=r"pair 7: invalid byte 0x21"):
        cpu_ctx.align("wfa", ["ACGT"] * 9, pats, progress=lambda d, t: None, chunk_size=3)


def test_bad_inputs_raise_clear_errors(cpu_ctx):
    with pytest.raises(TypeError, match="wrap it in a list"):
        cpu_ctx.wfa("ACGT", ["ACGT"])
    with pytest.raises(ValueError, match="non-ASCII character 'é' at position 2"):
        cpu_ctx.wfa(["AC", "ACé"], ["A", "A"])
    with pytest.raises(TypeError, match=r"queries \(v\)\[1\]: expected str or bytes, got int"):
        cpu_ctx.wfa(["AC", 5], ["A", "A"])
    with pytest.raises(ValueError, match="pair up one to one"):
        cpu_ctx.wfa(["AC", "AC"], ["A"])
    with pytest.raises(TypeError, match="dtype float64"):
        cpu_ctx.wfa((np.zeros(4), np.array([0, 4])), ["A"])
    with pytest.raises(TypeError, match="offsets must be a 1-D integer array"):
        cpu_ctx.wfa((b"ACGT", np.array([0.0, 4.0])), ["A"])
    with pytest.raises(ValueError, match=r"offsets\[1\] = 9 lies outside the data \(4 bytes\)"):
        cpu_ctx.wfa((b"ACGT", np.array([0, 9])), ["A"])
    with pytest.raises(ValueError, match=r"offsets\[2\] = 1 is below offsets\[1\] = 3"):
        cpu_ctx.wfa((b"ACGT", np.array([0, 3, 1])), ["A", "C"])
    with pytest.raises(ValueError, match=r"offsets\[0\] = -1"):
        cpu_ctx.wfa((b"ACGT", np.array([-1, 3])), ["A"])
    with pytest.raises(TypeError, match="has no parameter 'mismatch'"):
        cpu_ctx.wfa(["A"], ["A"], mismatch=3)
    with pytest.raises(gale.GaleValueError, match=r"gap_extend_penalty must be in \[1, 4096\] \(got 0\)"):
        cpu_ctx.wfa(["A"], ["A"], gap_extend_penalty=0)
    with pytest.raises(ValueError, match="'both' is not a value|is not a value"):
        cpu_ctx.wfa(["A"], ["A"], scope="both")
    with pytest.raises(TypeError, match="expected an int, got float"):
        cpu_ctx.wfa(["A"], ["A"], mismatch_penalty=2.5)
    with pytest.raises(ValueError, match=r"seeds: expected shape \(1, 4\)"):
        cpu_ctx.xdrop(["ACGT"], ["ACGT"], [[0, 1]])
    with pytest.raises(gale.GaleValueError, match="pair 0: seed"):
        cpu_ctx.xdrop(["ACGT"], ["ACGT"], [[2, 9, 2, 9]])
    with pytest.raises(ValueError, match="backend must be one of"):
        gale.Context("tpu")


def test_empty_batch(cpu_ctx):
    r = cpu_ctx.wfa([], [])
    assert len(r) == 0 and r.cigar_strings() == []
    assert "n=0" in repr(r)


def test_progress_parts_equal_one_batch(cpu_ctx, rng):
    pats, texts = random_pairs(rng, scaled(500, 50), 300)
    whole = cpu_ctx.wfa(pats, texts)
    seen = []
    parted = cpu_ctx.align("wfa", texts, pats, progress=lambda done, total: seen.append((done, total)),
                           chunk_size=7)
    assert np.array_equal(whole.records, parted.records)
    assert np.array_equal(whole.cigar_ops, parted.cigar_ops)
    assert np.array_equal(whole.cigar_offsets, parted.cigar_offsets)
    assert seen[-1] == (len(pats), len(pats)) and all(a[0] < b[0] for a, b in zip(seen, seen[1:]))

    class Bar:  # a tqdm-like object
        n = 0

        def update(self, k):
            self.n += k
    bar = Bar()
    cpu_ctx.align("wfa", texts, pats, progress=bar, chunk_size=50)
    assert bar.n == len(pats)


def test_future(cpu_ctx, rng):
    pats, texts = random_pairs(rng, scaled(200), 500)
    f = cpu_ctx.submit("wfa", texts, pats)
    r = f.result(timeout=120)
    assert f.done() and not f.cancelled()
    assert np.array_equal(r.records, cpu_ctx.wfa(pats, texts).records)
    assert f.result() is r and f.exception() is None


def test_cancel_a_long_batch(rng):
    with gale.Context("cpu", threads=1) as c:
        t = "".join(rng.choice("ACGT") for _ in range(3000))
        u = "".join(rng.choice("ACGT") for _ in range(3000))
        f = c.submit("edit", [t] * 2000, [u] * 2000)
        assert f.cancel() in (True, False)  # False only if it already finished
        if f.cancelled():
            with pytest.raises(gale.GaleCancelledError):
                f.result(timeout=60)
            with pytest.raises(concurrent.futures.CancelledError):
                f.result(timeout=60)
            assert f.done()


def test_result_timeout(rng):
    with gale.Context("cpu", threads=1) as c:
        t = "".join(rng.choice("ACGT") for _ in range(5000))
        u = "".join(rng.choice("ACGT") for _ in range(5000))
        f = c.submit("edit", [t] * 400, [u] * 400)
        try:
            with pytest.raises(concurrent.futures.TimeoutError):
                f.result(timeout=0)
        finally:
            f.cancel()


def test_waiting_releases_the_gil(rng):
    # A second Python thread keeps counting while the first waits on a long batch.
    with gale.Context("cpu", threads=1) as c:
        t = "".join(rng.choice("ACGT") for _ in range(4000))
        u = "".join(rng.choice("ACGT") for _ in range(4000))
        counter = [0]
        stop = threading.Event()

        def count():
            while not stop.is_set():
                counter[0] += 1
        th = threading.Thread(target=count)
        th.start()
        start = time.monotonic()
        try:
            c.edit([t] * 60, [u] * 60)
        finally:
            stop.set()
            th.join()
        elapsed = time.monotonic() - start
        # Without releasing the GIL the counter would only advance in the interpreter's
        # switch intervals between bytecodes of the waiting thread: it cannot reach this.
        assert counter[0] > 1000, (counter[0], elapsed)


def test_threads_share_one_context(cpu_ctx, rng):
    cases = [random_pairs(rng, scaled(150), 400) for _ in range(6)]
    expect = [cpu_ctx.wfa(p, t) for p, t in cases]
    with concurrent.futures.ThreadPoolExecutor(6) as ex:
        got = list(ex.map(lambda c: cpu_ctx.wfa(*c), cases * 3))
    for i, r in enumerate(got):
        e = expect[i % len(cases)]
        assert np.array_equal(r.records, e.records) and np.array_equal(r.cigar_ops, e.cigar_ops)


def test_closed_context_refuses_use():
    c = gale.Context("cpu", threads=1)
    done = c.submit("wfa", ["ACGT"], ["ACG"])
    r = done.result(timeout=60)
    pending = c.submit("wfa", ["ACGT"], ["ACG"])
    c.close()  # cancels and ends what is in flight
    assert "closed" in repr(c) and "closed" in repr(pending)
    with pytest.raises(RuntimeError, match="closed"):
        c.wfa(["A"], ["A"])
    with pytest.raises(RuntimeError, match="Context is closed"):
        pending.result(timeout=1)
    assert done.result() is r and done.done()  # results already taken stay
    assert list(r.score) == [-8]
    c.close()  # twice is fine


def test_align_pairs_and_reprs():
    r = gale.align_pairs(["GATTACA"], ["GATCACA"], context=gale.Context("cpu", threads=1))
    assert list(r.score) == [-4] and r.cigar_strings() == ["3=1X3="]
    assert repr(r).startswith("<gale.Alignments kind=wfa n=1 backend=cpu")
    a = r[0]
    assert a.score == -4 and a.cigar == "3=1X3=" and (a.v_begin, a.v_end, a.h_begin, a.h_end) == (0, 7, 0, 7)
    assert r[-1] == a and list(r) == [a]
    e = gale.align_pairs(["GATTACA"], ["GATCACA"], kind="edit", context=gale.Context("cpu", threads=1))
    assert list(e.score) == [1]
    x = gale.align_pairs(["GATTACA"], ["GATTACA"], kind="xdrop", seeds=[[0, 3, 0, 3]],
                         context=gale.Context("cpu", threads=1))
    assert list(x.score) == [7] and x.cigar(0) is None
    assert gale.default_context() is gale.default_context()
