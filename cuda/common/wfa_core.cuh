// The wavefront recurrence of lib/wfa.h for the CUDA kernel (cuda/wfa.cu), written
// against a "group" of threads (a warp or a block) so that the same code also
// compiles on the host with a one-thread group: the dispatcher sizes its memory
// with the range functions (wfa_ranges.cuh), and a host emulation can run whole
// alignments.
//
// Memory of one alignment in flight (a "unit" of the work area, see cuda/wfa.cu):
//   rr     range ring: RM scores x 5 components x (lo, hi)
//   M      offsets ring: RM scores x cap diagonals   (RM = max(x, o+e, o2+e2) + 1)
//   D1, I1 RD = e + 1 scores x cap each; D2, I2 RD2 = e2 + 1 scores x cap each
//          Offsets are int32, or int16 for tasks with both lengths < 32768 (Off16):
//          the rings are read and written once per cell and score, so halving them
//          halves most of the kernel's memory traffic. Any negative stored value
//          means null (a null int16 widens to a negative int32, and every test
//          below is "valid iff >= 0"), so both widths compute the same cells.
//   alignment scope, the backtrace codes (kBtCodes):
//   hdr    per score s <= s_limit: lo of M's range and where its codes start
//   codes  one byte per cell of M's range at every score (lib/wfa.h's layout)
// (WFA-GPU's piggybacked backtrace, once a second layout here, is kept as
// bench/experiments/wfa-piggyback-bt-layout.diff; bench/RESULTS.md, steps 15-19.)
// Offsets are indexed by absolute diagonal: [k - kbase], k in [kbase, kbase + cap).
//
// This file: align(), one alignment by stages. The range recurrence and the host's
// sizing are wfa_ranges.cuh, the records, extension and cells wfa_cells.cuh, the
// heuristic mode wfa_heuristic.cuh.
#ifndef GALE_CUDA_WFA_CORE_CUH
#define GALE_CUDA_WFA_CORE_CUH

#include <type_traits>

#include "cancel.cuh"
#include "wfa_cells.cuh"

namespace gale {
namespace wfag {

// The plan of one score of the affine metrics: what every thread needs of the range
// recurrence there. Thread 0 makes it during the score before (plan_score) and the
// others read it after the barrier.
struct Plan {
    Range r[kComps];   // the score's ranges (StepRanges)
    int32_t ilo, ihi;  // its interior cells: M's range within interior() (empty when ilo > ihi)
};

// ---- one alignment, by stages ----------------------------------------------------
// align() below runs one alignment: s = 0, then per score the planning of its
// ranges (plan_score), the cells and their extension (edit_cells, affine_cells), and
// at the end the backtrace (walk_codes). Each stage is its own function so that it
// can be read, and tested on the host, apart; all are inlined into the kernel.

// Ring slots. Score s lives in slot s % len of a ring of len scores; align keeps
// s's slots (sm, sd, sd2) and steps them by one per score, and every row it reads is
// d in [1, len) scores back, one conditional add away. (An integer remainder by a
// run-time length costs ~20 instructions, and one score took 19 of them on every
// thread.)
GALE_HD int32_t ring_back(int32_t slot, int32_t d, int32_t len) { return slot >= d ? slot - d : slot - d + len; }
GALE_HD int32_t ring_step(int32_t slot, int32_t len) { return slot + 1 == len ? 0 : slot + 1; }
// The range of component c stored in slot `slot` of the range ring rr.
GALE_HD Range ring_range(const int32_t *rr, int c, int32_t slot) {
    const int32_t *p = rr + ((size_t)slot * kComps + c) * 2;
    return Range{p[0], p[1]};
}

// The offsets rings of a unit, indexed by absolute diagonal: a row d scores back is
// row(ring, ring_back(slot, d, len)) (unused when that score is < 0).
template <class OFF>
struct Rings {
    OFF *M, *D1, *I1, *D2, *I2;
    int32_t cap, kb;
    GALE_WFA_DEV OFF *row(OFF *ring, int32_t slot) const { return ring + (size_t)slot * cap - kb; }
};

// The source ranges of an affine score s's cells (get(comp, s') as step_ranges takes it)
// and its own gap ranges r, into a (the arrays are the caller's).
template <bool TWO, class OFF, class Get>
GALE_HD void source_ranges(const Pen &q, int32_t s, const Get &get, const StepRanges &r, Srcs<OFF> &a) {
    a.mx = get(cM, s - q.x);
    a.moe = get(cM, s - q.o - q.e);
    a.d1e = get(cD1, s - q.e);
    a.i1e = get(cI1, s - q.e);
    a.d1 = r.r[cD1];
    a.i1 = r.r[cI1];
    a.moe2 = a.d2e = a.i2e = a.d2 = a.i2 = rnone();
    if (TWO) {
        a.moe2 = get(cM, s - q.o2 - q.e2);
        a.d2e = get(cD2, s - q.e2);
        a.i2e = get(cI2, s - q.e2);
        a.d2 = r.r[cD2];
        a.i2 = r.r[cI2];
    }
}

// Per-score planning (affine metrics): the plan of score sn (slot smn of M's ring)
// into pl, from the ranges of the scores before it. Thread 0 makes it during the
// score before and the others read it after the barrier: when every thread ran
// step_ranges and interior itself, that was about a seventh of the kernel's
// instructions (bench/RESULTS.md).
template <int METRIC, class OFF>
GALE_WFA_DEV void plan_score(const Pen &q, int32_t m, int32_t n, const int32_t *rr, int32_t sn, int32_t smn, Plan &pl) {
    auto getn = [&](int c, int32_t ss) -> Range { return ring_range(rr, c, ring_back(smn, sn - ss, q.rm)); };
    const StepRanges r = step_ranges(q, sn, m, n, getn);
    for (int c = 0; c < kComps; ++c) pl.r[c] = r.r[c];
    Srcs<OFF> a;
    source_ranges<METRIC == kMetricAffine2p>(q, sn, getn, r, a);
    const Range in = interior<METRIC == kMetricAffine2p, OFF>(a);
    pl.ilo = imax(r.r[cM].lo, in.lo);
    pl.ihi = imin(r.r[cM].hi, in.hi);
}

// Where a score's cells end the search: found (the lowest diagonal whose cell ends
// the alignment, INT32_MAX while none) and reached (this thread stored an M cell at
// the end of a sequence: the alignment is no longer "clear", cell_clear).
struct EndSearch {
    int32_t found, end_min;  // end_min = n - te: is_end needs h >= end_min (one test a cell)
    bool reached;
};

// Extension, edit distance: the cells of M's range mr at the current score (slot Mc
// of M's ring; r1: the range of s - 1, its row M1) with their greedy extension, U
// cells per thread with their loads issued together.
template <class OFF, int U, int T, bool CODES>
GALE_WFA_DEV void edit_cells(int tid, const Task &t, const Seqs &sq, Range mr, Range r1, const OFF *M1, OFF *Mc,
                             uint8_t *cc, EndSearch &es) {
    const int32_t m = t.m, n = t.n;
    for (int32_t k0 = mr.lo + tid; k0 <= mr.hi; k0 += T * U) {
        int32_t h[U];
        uint32_t code[U];
        bool more[U];
#pragma unroll
        for (int j = 0; j < U; ++j) {
            const int32_t k = k0 + j * T;
            h[j] = kNull;
            code[j] = 0;
            if (k <= mr.hi) h[j] = cell_edit<OFF>(r1, M1, k, m, n, code[j]);
        }
#pragma unroll
        for (int j = 0; j < U; ++j) {
            more[j] = false;
            if (h[j] >= 0) h[j] = extend_step(sq, h[j], k0 + j * T, m, n, more[j]);
        }
#pragma unroll
        for (int j = 0; j < U; ++j)
            if (more[j]) h[j] = extend(sq, h[j], k0 + j * T, m, n);
#pragma unroll
        for (int j = 0; j < U; ++j) {
            const int32_t k = k0 + j * T;
            if (k > mr.hi) break;
            Mc[k] = to_off<OFF>(h[j]);
            if (CODES) cc[k] = (uint8_t)code[j];
            if (h[j] >= es.end_min && es.found == INT32_MAX && is_end(h[j], k, m, n, t.pe, t.te)) es.found = k;
        }
    }
}

// Extension, affine metrics: the cells of score s (ranges r; slots sm, sd, sd2 of the
// rings of M, D1/I1, D2/I2) with their greedy extension. Interior cells [ilo, ihi]
// (Plan) read only inside their source ranges and skip the range tests (and, while
// the alignment is clear, the bound tests: cell_clear); the few cells at either edge
// of M's range (all of them while the interior is empty) come after them, with the
// tests.
template <bool TWO, bool CODES, class OFF, int U, int T>
GALE_WFA_DEV void affine_cells(int tid, const Pen &q, const Task &t, const Seqs &sq, const Rings<OFF> &rg,
                               int32_t *rr, const StepRanges &r, int32_t ilo, int32_t ihi, int32_t s, int32_t sm,
                               int32_t sd, int32_t sd2, bool clear, uint8_t *cc, EndSearch &es) {
    const int32_t m = t.m, n = t.n;
    const Range mr = r.r[cM];
    const int32_t w = rwidth(mr);
    OFF *Mc = rg.row(rg.M, sm);
    // Source ranges: only the edge cells test them (read there); the interior
    // cells test none.
    Srcs<OFF> a;
    a.mx = a.moe = a.d1e = a.i1e = rnone();
    a.d1 = r.r[cD1];
    a.i1 = r.r[cI1];
    a.Mx = rg.row(rg.M, ring_back(sm, q.x, q.rm));
    a.Moe = rg.row(rg.M, ring_back(sm, q.o + q.e, q.rm));
    a.D1e = rg.row(rg.D1, ring_back(sd, q.e, q.rd));
    a.I1e = rg.row(rg.I1, ring_back(sd, q.e, q.rd));
    OFF *D1c = rg.row(rg.D1, sd), *I1c = rg.row(rg.I1, sd), *D2c = nullptr, *I2c = nullptr;
    if (TWO) {
        a.moe2 = a.d2e = a.i2e = rnone();
        a.d2 = r.r[cD2];
        a.i2 = r.r[cI2];
        a.Moe2 = rg.row(rg.M, ring_back(sm, q.o2 + q.e2, q.rm));
        a.D2e = rg.row(rg.D2, ring_back(sd2, q.e2, q.rd2));
        a.I2e = rg.row(rg.I2, ring_back(sd2, q.e2, q.rd2));
        D2c = rg.row(rg.D2, sd2);
        I2c = rg.row(rg.I2, sd2);
    } else {
        a.moe2 = a.d2e = a.i2e = a.d2 = a.i2 = rnone();
        a.Moe2 = a.D2e = a.I2e = nullptr;
    }
    // Slots of the source ranges, for the edge cells (below).
    const int32_t sl_x = ring_back(sm, q.x, q.rm), sl_oe = ring_back(sm, q.o + q.e, q.rm),
                  sl_e = ring_back(sm, q.e, q.rm), sl_oe2 = TWO ? ring_back(sm, q.o2 + q.e2, q.rm) : 0,
                  sl_e2 = TWO ? ring_back(sm, q.e2, q.rm) : 0;
    // Stores a cell; lim = min(n, m + k). Only a cell at h >= lim (the end of a
    // sequence) can end the alignment (is_end), and it makes it no longer clear.
    // RAW: the values need no clamp to OFF (cell_clear's stay within int16).
    auto finish = [&](auto raw_tag, int32_t k, int32_t lim, int32_t h, int32_t d1, int32_t i1, int32_t d2, int32_t i2,
                      uint32_t code) {
        constexpr bool RAW = decltype(raw_tag)::value;
        auto st = [](int32_t v) { return RAW ? (OFF)v : to_off<OFF>(v); };
        Mc[k] = st(h);
        D1c[k] = st(d1);
        I1c[k] = st(i1);
        if (TWO) { D2c[k] = st(d2); I2c[k] = st(i2); }
        if (CODES) cc[k] = (uint8_t)code;
        if (h >= lim) {
            es.reached = true;
            // Interior cells come before the left edge's: keep the lowest k.
            if (h >= es.end_min && k < es.found && is_end(h, k, m, n, t.pe, t.te)) es.found = k;
        }
    };
    // U cells per thread from k0 (k0 + j T), their loads issued together; cells past
    // ihi are left out one by one. CLEAR: cell_clear, else cell_affine without
    // range tests. (A separate last iteration, its full ones without the ihi tests,
    // took registers and spilled: bench/RESULTS.md, step 14.)
    auto cells_u = [&](auto clear_tag, int32_t k0) {
        constexpr bool CLEAR = decltype(clear_tag)::value;
        int32_t h[U], d1[U], i1[U], d2[U], i2[U];
        // lim of cell j: recomputed where needed (one instruction; as an array it
        // held U registers and the kernels spilled).
        auto lim = [&](int j) { return imin(n, m + k0 + j * T); };
        uint32_t code[U];
        bool more[U];
#pragma unroll
        for (int j = 0; j < U; ++j) {
            const int32_t k = k0 + j * T;
            h[j] = d1[j] = i1[j] = d2[j] = i2[j] = kNull;
            code[j] = 0;
            if (k <= ihi) {
                if (CLEAR)
                    h[j] = cell_clear<TWO, CODES, OFF>(a, k, d1[j], i1[j], d2[j], i2[j], code[j]);
                else
                    h[j] = cell_affine<TWO, OFF, false>(a, k, m, n, d1[j], i1[j], d2[j], i2[j], code[j]);
            }
        }
        bool any = false;
#pragma unroll
        for (int j = 0; j < U; ++j) {
            more[j] = false;
            if (h[j] >= 0) h[j] = extend_step_lim(sq, h[j], k0 + j * T, lim(j), more[j]);
            any |= more[j];
        }
        if (any) {  // rare: a run of 16 matches or more
#pragma unroll
            for (int j = 0; j < U; ++j)
                while (more[j]) h[j] = extend_step_lim(sq, h[j], k0 + j * T, lim(j), more[j]);
        }
#pragma unroll
        for (int j = 0; j < U; ++j) {
            const int32_t k = k0 + j * T;
            if (k > ihi) break;
            finish(std::integral_constant<bool, CLEAR>{}, k, lim(j), h[j], d1[j], i1[j], d2[j], i2[j], code[j]);
        }
    };
    auto interior_cells = [&](auto clear_tag) {
        for (int32_t k0 = ilo + tid; k0 <= ihi; k0 += T * U) cells_u(clear_tag, k0);
    };
    if (ilo <= ihi) {
        // Nulls rise by one per score at most in cell_clear: int16 ones stay negative
        // below kClearScores16.
        if (clear && (sizeof(OFF) == 4 || s < kClearScores16)) interior_cells(std::true_type{});
        else interior_cells(std::false_type{});
    }
    // The edges: nl cells left of the interior, then those right of it.
    const int32_t nl = ilo <= ihi ? ilo - mr.lo : w, ne = ilo <= ihi ? nl + (mr.hi - ihi) : w;
    if (tid < ne) {
        // The source ranges are read again here (volatile: not hoisted out of the
        // loops above, where they would hold 16 registers). Their slots are older
        // scores, stable during this one.
        Srcs<OFF> b = a;
        auto vget = [&](int c, int32_t slot) -> Range {
            const volatile int32_t *p = rr + ((size_t)slot * kComps + c) * 2;
            return Range{p[0], p[1]};
        };
        b.mx = vget(cM, sl_x);
        b.moe = vget(cM, sl_oe);
        b.d1e = vget(cD1, sl_e);
        b.i1e = vget(cI1, sl_e);
        if (TWO) {
            b.moe2 = vget(cM, sl_oe2);
            b.d2e = vget(cD2, sl_e2);
            b.i2e = vget(cI2, sl_e2);
        }
        for (int32_t e = tid; e < ne; e += T) {
            const int32_t k = e < nl ? mr.lo + e : ihi + 1 + (e - nl);
            int32_t d1, i1, d2, i2;
            uint32_t code = 0;
            int32_t h = cell_affine<TWO, OFF>(b, k, m, n, d1, i1, d2, i2, code);
            if (h >= 0) h = extend(sq, h, k, m, n);
            finish(std::false_type{}, k, imin(n, m + k), h, d1, i1, d2, i2, code);
        }
    }
}

// Backtrace (codes): from (s, k_end, M) back to s = 0 through the code bytes (one
// thread), ops written to ops the last first; Out::k0 is the start diagonal. A walk
// that leaves the codes or runs past max_ops cannot happen: Out status kOutBroken.
template <int METRIC>
GALE_WFA_DEV void walk_codes(const Pen &q, const Task &t, const Unit &u, int32_t s, int32_t k_end, Out *out,
                             uint32_t *ops) {
    auto code_at = [&](int32_t ss, int32_t k) -> uint32_t {
        const int32_t lo = u.hdr[2 * ss];
        const uint32_t at = (uint32_t)u.hdr[2 * ss + 1];
        return u.codes[(uint64_t)at + (uint64_t)(k - lo)];
    };
    int32_t n_ops = 0, k = k_end, comp = cM, run = 0;
    auto push = [&](uint32_t op, uint32_t len) -> bool {
        if (n_ops >= t.max_ops) return false;
        ops[n_ops++] = (len << GALE_CIGAR_SHIFT) | op;
        return true;
    };
    bool ok = true;
    while (ok) {
        if (s < 0) { ok = false; break; }
        if (comp == cM) {
            if (s == 0) break;
            const uint32_t src = code_at(s, k) & 7u;
            if (METRIC == kMetricEdit) {
                if (src == kSrcX) ok = push(GALE_CIGAR_DIFF, 1);
                else if (src == kSrcD1) { ok = push(GALE_CIGAR_DEL, 1); k -= 1; }
                else if (src == kSrcI1) { ok = push(GALE_CIGAR_INS, 1); k += 1; }
                else ok = false;
                s -= 1;
                continue;
            }
            if (src == kSrcX) { ok = push(GALE_CIGAR_DIFF, 1); s -= q.x; continue; }
            if (src > kSrcI2 || (!(METRIC == kMetricAffine2p) && src > kSrcI1)) { ok = false; break; }
            comp = (int)src;  // kSrcD1.. == cD1..
            run = 0;
            continue;
        }
        const uint32_t c = code_at(s, k);
        const bool del = comp == cD1 || comp == cD2;
        const bool piece1 = comp == cD1 || comp == cI1;
        const uint32_t bit = comp == cD1 ? kExtD1 : comp == cI1 ? kExtI1 : comp == cD2 ? kExtD2 : kExtI2;
        const int32_t e = piece1 ? q.e : q.e2, o = piece1 ? q.o : q.o2;
        ++run;
        k += del ? -1 : 1;
        if (c & bit) {
            s -= e;
        } else {
            s -= o + e;
            ok = push(del ? GALE_CIGAR_DEL : GALE_CIGAR_INS, (uint32_t)run);
            comp = cM;
        }
    }
    if (!ok) {
        out->status = kOutBroken;
        return;
    }
    out->k0 = k;
    out->n_ops = n_ops;
}

// Score 0 of an alignment (align, align_heuristic): M's range on the start diagonals
// [-pb, tb] into r0 and the range ring's slot 0 (thread 0), the slots of the scores below
// 0 empty until the alignment writes them (the first barrier after s = 0 publishes both),
// and with codes score 0's header. False when the start does not fit the unit.
template <bool CODES>
GALE_WFA_DEV bool start_ranges(int tid, int T, const Pen &q, const Task &t, const Shape &sh, const Unit &u,
                               StepRanges &r0) {
    for (int c = 0; c < kComps; ++c) r0.r[c] = rnone();
    r0.r[cM] = Range{-t.pb, t.tb};
    if (r0.r[cM].lo < t.kbase || r0.r[cM].hi >= t.kbase + sh.cap ||
        (CODES && (uint64_t)rwidth(r0.r[cM]) > sh.code_cap))
        return false;
    if (tid == 0)
        for (int c = 0; c < kComps; ++c) { u.rr[2 * c] = r0.r[c].lo; u.rr[2 * c + 1] = r0.r[c].hi; }
    for (int32_t i = kComps * 2 + tid; i < q.rm * kComps * 2; i += T) u.rr[i] = (i & 1) ? kNoHi : kNoLo;
    if (CODES && tid == 0) { u.hdr[0] = r0.r[cM].lo; u.hdr[1] = 0; }
    return true;
}

// The end of an alignment that reached diagonal k_end of M (its row Mrow) at score s
// (thread 0): Out and, with codes, the backtrace.
template <int METRIC, bool CODES, class OFF>
GALE_WFA_DEV void finish_ok(const Pen &q, const Task &t, const Unit &u, const OFF *Mrow, int32_t s, int32_t k_end,
                            uint64_t cells, Out *out, uint32_t *ops) {
    out->score = s;
    out->k_end = k_end;
    out->h_end = Mrow[k_end];
    out->cells = cells;
    out->k0 = 0;
    out->n_ops = 0;
    out->status = kOutOk;
    if (CODES) walk_codes<METRIC>(q, t, u, s, k_end, out, ops);
}

// One whole alignment by a group G of threads:
//   G::size, g.tid(), g.min(int32_t) (a group-wide minimum that is also a barrier;
//   cuda/common/group.cuh), g.bcast(int32_t) (thread 0's value to all: the cancel poll).
// cancel: the group's poll of the cancel word, kept across its alignments (common/
// cancel.cuh): once per score, counting the score's cells; a cancelled alignment ends
// with status kOutCanceled.
// plans: 2 Plan of memory the group shares (affine metrics; shared memory on the GPU).
// BT: the backtrace (BtMode): none (GALE_SCOPE_SCORE), or codes, walked back at the
// end (CODES).
// OFF: the stored offset type (int32_t, or int16_t when sh.off_bytes == 2).
// U: cells per thread computed together. A cell costs two dependent memory round
// trips (its source offsets, then the sequence words of its first extension step);
// a thread's cells of one score are independent, so U of them issue their loads
// together (loads first, stores last: within a score no stored row is a source
// row, so the reordering cannot change a value).
template <int METRIC, int BT, class OFF, int U = 4, class G>
GALE_WFA_DEV void align(G &g, const Pen &q, const Task &t, const Seqs &sq, const Shape &sh, const Unit &u,
                        Out *out, uint32_t *ops, Plan *plans, cuda::CancelPoll &cancel) {
    constexpr bool CODES = BT == kBtCodes;
    const int tid = g.tid();
    constexpr int T = G::size;
    const int32_t m = t.m, n = t.n, kb = t.kbase, cap = sh.cap;
    int32_t *const rr = u.rr;
    int32_t s = 0, sm = 0, sd = 0, sd2 = 0;  // the current score and its slots in the rings of M, D1/I1, D2/I2
    // The range of component c at score ss, d = s - ss in [1, rm) scores back (the
    // slots of scores below 0 hold rnone(), see below).
    auto get = [&](int c, int32_t ss) -> Range { return ring_range(rr, c, ring_back(sm, s - ss, q.rm)); };
    auto put = [&](const StepRanges &r) {
        if (tid == 0) {
            int32_t *p = rr + (size_t)sm * kComps * 2;
            for (int c = 0; c < kComps; ++c) { p[2 * c] = r.r[c].lo; p[2 * c + 1] = r.r[c].hi; }
        }
    };
    auto status = [&](int32_t st) {
        if (tid == 0) { out->status = st; out->n_ops = 0; }
    };
    const Rings<OFF> rg{reinterpret_cast<OFF *>(u.M),  reinterpret_cast<OFF *>(u.D1), reinterpret_cast<OFF *>(u.I1),
                        reinterpret_cast<OFF *>(u.D2), reinterpret_cast<OFF *>(u.I2), cap, kb};

    // s = 0: the start diagonals, offsets max(k, 0), extended.
    StepRanges r0;
    if (!start_ranges<CODES>(tid, T, q, t, sh, u, r0)) {
        status(kOutOverflow);
        return;
    }
    uint64_t cum = 0;
    EndSearch es{INT32_MAX, n - t.te, false};
    // clear: no M cell stored so far has reached the end of either sequence (cell_clear).
    // A thread that stores one sets reached; the score's minimum carries it to the group
    // as kReached (below every k that ends the alignment's search, INT32_MAX), and from
    // then on the alignment is never clear again.
    constexpr int32_t kReached = INT32_MAX - 1;
    bool clear = true;
    auto reduce = [&]() {
        int32_t f = g.min(es.found != INT32_MAX ? es.found : es.reached ? kReached : INT32_MAX);
        if (f == kReached) {
            clear = false;
            f = INT32_MAX;
        }
        es.found = f;
    };
    {
        OFF *M0 = rg.row(rg.M, 0);
        for (int32_t k = r0.r[cM].lo + tid; k <= r0.r[cM].hi; k += T) {
            const int32_t h = extend(sq, k > 0 ? k : 0, k, m, n);
            M0[k] = to_off<OFF>(h);
            if (CODES) u.codes[k - r0.r[cM].lo] = 0;
            if (h >= es.end_min && es.found == INT32_MAX && is_end(h, k, m, n, t.pe, t.te)) es.found = k;
            if (h >= imin(n, m + k)) es.reached = true;
        }
    }
    reduce();
    uint64_t cells = (uint64_t)rwidth(r0.r[cM]);
    cum = cells;
    while (es.found == INT32_MAX) {
        ++s;
        sm = ring_step(sm, q.rm);
        if (METRIC != kMetricEdit) {
            sd = ring_step(sd, q.rd);
            if (METRIC == kMetricAffine2p) sd2 = ring_step(sd2, q.rd2);
        }
        if (s > t.s_limit) {
            status(kOutOverflow);
            return;
        }
        StepRanges r;
        int32_t ilo = 0, ihi = -1;  // affine: the interior cells (Plan)
        if (METRIC == kMetricEdit) {
            r = step_ranges(q, s, m, n, get);
        } else {
            if (s == 1) {  // the first plan, once the barrier after s = 0 has published the ring's slots
                if (tid == 0) plan_score<METRIC, OFF>(q, m, n, rr, 1, sm, plans[1]);
                g.min(0);
            }
            const Plan &pl = plans[s & 1];
            for (int c = 0; c < kComps; ++c) r.r[c] = pl.r[c];
            ilo = pl.ilo;
            ihi = pl.ihi;
            // Thread 0 publishes this score's ranges and plans the next score (read after
            // this score's barrier; the other buffer, whose plan every thread has read).
            put(r);
            if (tid == 0) plan_score<METRIC, OFF>(q, m, n, rr, s + 1, ring_step(sm, q.rm), plans[(s + 1) & 1]);
        }
        const Range mr = r.r[cM];
        const int32_t w = rwidth(mr);
        if (w > 0 && (mr.lo < kb || mr.hi >= kb + cap || (CODES && cum + (uint64_t)w > sh.code_cap))) {
            status(kOutOverflow);
            return;
        }
        if (CODES && tid == 0) { u.hdr[2 * s] = mr.lo; u.hdr[2 * s + 1] = (int32_t)(uint32_t)cum; }
        // Edit: put(r) comes after the cells' source ranges are read: with no store between
        // them and step_ranges' reads of the same slots, each is loaded once.
        if (METRIC == kMetricEdit && w == 0) put(r);
        if (w > 0) {
            uint8_t *cc = CODES ? u.codes + cum - mr.lo : nullptr;
            if (METRIC == kMetricEdit) {
                const Range r1 = get(cM, s - 1);
                put(r);
                edit_cells<OFF, U, T, CODES>(tid, t, sq, mr, r1, rg.row(rg.M, ring_back(sm, 1, q.rm)),
                                             rg.row(rg.M, sm), cc, es);
            } else {
                affine_cells<METRIC == kMetricAffine2p, CODES, OFF, U, T>(tid, q, t, sq, rg, rr, r, ilo, ihi, s, sm,
                                                                          sd, sd2, clear, cc, es);
            }
        }
        // The minimum is also the barrier: this score's ranges and cells are visible to the next.
        reduce();
        cells += (uint64_t)w;
        cum += (uint64_t)w;
        // Converged (the barrier above), and w is the group's: every thread takes the same branch.
        if (cancel.stop(g, w + cuda::kCancelStepWork)) {
            status(kOutCanceled);
            return;
        }
    }
    if (tid == 0) finish_ok<METRIC, CODES>(q, t, u, rg.row(rg.M, sm), s, es.found, cells, out, ops);
}

}  // namespace wfag
}  // namespace gale

#endif
