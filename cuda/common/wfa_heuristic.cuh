// The CUDA WFA kernel's heuristic mode (GALE_P_WFA_HEURISTIC): align_heuristic, its
// cells and what it takes from the host (HeurArgs). The rules of the cut-offs are
// lib/wfa_heuristic.h's, shared with the CPU.
#ifndef GALE_CUDA_WFA_HEURISTIC_CUH
#define GALE_CUDA_WFA_HEURISTIC_CUH

#include "wfa_core.cuh"
#include "wfa_heuristic.h"

namespace gale {
namespace wfag {

// ---- heuristic mode (GALE_P_WFA_HEURISTIC): WFA2-lib's cut-offs -------------------
// lib/cpu/wfa_heuristic.cpp's scheme, step for step, so that the GPU cuts the same
// diagonals at the same scores as the CPU: WFA2-lib's unbounded cells (the CPU's RAW
// cells), every component of a score trimmed to its first and last non-null cell
// once computed, then (when the score does not end the alignment) lib/wfa_heuristic.h's
// wfa_cutoff on M and every component cut to the range it returns. Ranges then depend
// on the sequences, so the per-score plan is made after the cut (no pipelining), no
// cell skips its range tests (no interior, no "clear"), and offsets are int32 (the gap
// components keep WFA2-lib's unbounded values). The trims and the cut-off run on
// thread 0 (the others wait at the barrier): a trim usually stops within a few cells
// of each end, a cut-off reads M's range once or twice.

// What the kernel needs of the heuristic: WFA2-lib's parameters (state cleared per
// alignment) and the two ways a metric's recurrence differs there (lib/cpu/wfa_core.h,
// Penalties): gap-linear and indel have no gap components in WFA2-lib (a gap cell
// counts only where M is valid), and indel has no X candidate; and whether WFA2-lib prunes
// edit end-to-end wavefronts exactly (lib/cpu/wfa.cpp sets the CPU's the same way).
struct HeurArgs {
    WfaHeuristic h;
    int32_t linear, nox;
    int32_t exact_prune;  // edit end-to-end: WFA2-lib's exact prune (wfa_edit_exact_prune)
};

// The kernel's HeurArgs for p (host side; also what tests/unit/wfa_core_host.cpp passes).
inline HeurArgs wfa_heur_args(const WfaParams &p) {
    HeurArgs a;
    a.h = wfa_heuristic_of(p);
    a.linear = p.kind_metric == kKindLinear || p.kind_metric == kKindIndel;
    a.nox = p.kind_metric == kKindIndel;
    a.exact_prune = wfa_edit_exact_prune_on(p);
    return a;
}

// OutStatus of an alignment whose every path was cut (GALE_RF_UNFEASIBLE).
constexpr int32_t kOutUnfeasible = 4;

// One affine cell as WFA2-lib computes it (the CPU's affine_cells, RAW 1 / RAW 2):
// candidates unbounded, M their maximum nulled past either sequence; a source outside
// its range reads kNull (the CPU's buffers hold kNull there).
template <bool TWO>
GALE_WFA_DEV int32_t cell_raw(const Srcs<int32_t> &a, bool linear, int32_t k, int32_t m, int32_t n, int32_t &d1,
                              int32_t &i1, int32_t &d2, int32_t &i2, uint32_t &code) {
    auto rd = [](Range r, const int32_t *p, int32_t kk) { return kk >= r.lo && kk <= r.hi ? p[kk] : kNull; };
    const int32_t mo_d = rd(a.moe, a.Moe, k - 1), g_d = rd(a.d1e, a.D1e, k - 1);
    const int32_t mo_i = rd(a.moe, a.Moe, k + 1), g_i = rd(a.i1e, a.I1e, k + 1);
    d1 = imax(mo_d, g_d) + 1;
    i1 = imax(mo_i, g_i);
    const int32_t xv = rd(a.mx, a.Mx, k) + 1;
    int32_t mv = imax(xv, imax(d1, i1));
    int32_t mo2_d = kNull, g2_d = kNull, mo2_i = kNull, g2_i = kNull;
    d2 = kNull;
    i2 = kNull;
    if (TWO) {
        mo2_d = rd(a.moe2, a.Moe2, k - 1);
        g2_d = rd(a.d2e, a.D2e, k - 1);
        mo2_i = rd(a.moe2, a.Moe2, k + 1);
        g2_i = rd(a.i2e, a.I2e, k + 1);
        d2 = imax(mo2_d, g2_d) + 1;
        i2 = imax(mo2_i, g2_i);
        mv = imax(mv, imax(d2, i2));
    }
    const bool ok = mv >= 0 && mv <= n && mv - k >= 0 && mv - k <= m;
    if (!ok) mv = kNull;
    if (linear && !ok) d1 = i1 = kNull;
    uint32_t c = 0;
    if (TWO) {
        c = i2 == mv ? (uint32_t)kSrcI2 : c;
        c = d2 == mv ? (uint32_t)kSrcD2 : c;
    }
    c = i1 == mv ? (uint32_t)kSrcI1 : c;
    c = d1 == mv ? (uint32_t)kSrcD1 : c;
    c = xv == mv ? (uint32_t)kSrcX : c;
    c |= (d1 >= 0 && g_d >= mo_d) ? (uint32_t)kExtD1 : 0u;
    c |= (i1 >= 0 && g_i >= mo_i) ? (uint32_t)kExtI1 : 0u;
    if (TWO) {
        c |= (d2 >= 0 && g2_d >= mo2_d) ? (uint32_t)kExtD2 : 0u;
        c |= (i2 >= 0 && g2_i >= mo2_i) ? (uint32_t)kExtI2 : 0u;
    }
    code = c;
    // stored as the CPU stores them: a negative value is kNull
    d1 = d1 < 0 ? kNull : d1;
    i1 = i1 < 0 ? kNull : i1;
    if (TWO) {
        d2 = d2 < 0 ? kNull : d2;
        i2 = i2 < 0 ? kNull : i2;
    }
    return mv;
}

// One edit cell as WFA2-lib computes it (the CPU's edit_cells, RAW).
GALE_WFA_DEV int32_t cell_edit_raw(Range r1, const int32_t *M1, int32_t k, int32_t m, int32_t n, uint32_t &code) {
    auto rd = [&](int32_t kk) { return kk >= r1.lo && kk <= r1.hi ? M1[kk] : kNull; };
    const int32_t xv = rd(k) + 1, dv = rd(k - 1) + 1, iv = rd(k + 1);
    int32_t mv = imax(xv, imax(dv, iv));
    if (!(mv >= 0 && mv <= n && mv - k >= 0 && mv - k <= m)) mv = kNull;
    uint32_t c = iv == mv ? (uint32_t)kSrcI1 : 0u;
    c = dv == mv ? (uint32_t)kSrcD1 : c;
    c = xv == mv ? (uint32_t)kSrcX : c;
    code = mv >= 0 ? c : 0u;
    return mv;
}

// One whole alignment in heuristic mode by a group G (align()'s interface; int32
// offsets; hs: the heuristic). Thread 0 keeps the heuristic's state.
template <int METRIC, int BT, class G>
GALE_WFA_DEV void align_heuristic(G &g, const Pen &q, const HeurArgs &hs, const Task &t, const Seqs &sq,
                                  const Shape &sh, const Unit &u, Out *out, uint32_t *ops, cuda::CancelPoll &cancel) {
    using OFF = int32_t;
    constexpr bool CODES = BT == kBtCodes;
    constexpr bool TWO = METRIC == kMetricAffine2p;
    const int tid = g.tid();
    constexpr int T = G::size;
    const int32_t m = t.m, n = t.n, kb = t.kbase, cap = sh.cap;
    int32_t *const rr = u.rr;
    int32_t s = 0, sm = 0, sd = 0, sd2 = 0;
    auto get = [&](int c, int32_t ss) -> Range { return ring_range(rr, c, ring_back(sm, s - ss, q.rm)); };
    auto set_range = [&](int c, Range r) {
        int32_t *p = rr + ((size_t)sm * kComps + c) * 2;
        p[0] = r.lo;
        p[1] = r.hi;
    };
    auto status = [&](int32_t st) {
        if (tid == 0) { out->status = st; out->n_ops = 0; }
    };
    const Rings<OFF> rg{reinterpret_cast<OFF *>(u.M),  reinterpret_cast<OFF *>(u.D1), reinterpret_cast<OFF *>(u.I1),
                        reinterpret_cast<OFF *>(u.D2), reinterpret_cast<OFF *>(u.I2), cap, kb};
    auto row_of = [&](int c) -> OFF * {
        return c == cM    ? rg.row(rg.M, sm)
               : c == cD1 ? rg.row(rg.D1, sd)
               : c == cI1 ? rg.row(rg.I1, sd)
               : c == cD2 ? rg.row(rg.D2, sd2)
                          : rg.row(rg.I2, sd2);
    };
    // Thread 0: every component of score s trimmed to its first and last cell that is
    // neither null nor past either sequence (wavefront_compute_trim_ends).
    auto trim = [&]() {
        for (int c = 0; c < kComps; ++c) {
            Range r = get(c, s);
            if (rempty(r)) continue;
            const OFF *w = row_of(c);
            auto bad = [&](int32_t k) {
                const int32_t h = w[k];
                return h < 0 || h > n || h - k > m;
            };
            while (r.hi >= r.lo && bad(r.hi)) --r.hi;
            while (r.lo <= r.hi && bad(r.lo)) ++r.lo;
            set_range(c, rempty(r) ? rnone() : r);
        }
    };

    // s = 0: the start diagonals, offsets max(k, 0), extended.
    StepRanges r0;
    if (!start_ranges<CODES>(tid, T, q, t, sh, u, r0)) {
        status(kOutOverflow);
        return;
    }
    uint64_t cum = 0;
    int32_t found = INT32_MAX;
    {
        OFF *M0 = rg.row(rg.M, 0);
        for (int32_t k = r0.r[cM].lo + tid; k <= r0.r[cM].hi; k += T) {
            const int32_t h = extend(sq, k > 0 ? k : 0, k, m, n);
            M0[k] = h;
            if (CODES) u.codes[k - r0.r[cM].lo] = 0;
            if (found == INT32_MAX && is_end(h, k, m, n, t.pe, t.te)) found = k;
        }
    }
    found = g.min(found);
    if (tid == 0) trim();
    WfaHeuristic H = hs.h;
    H.clear();
    int32_t null_steps = 0;
    uint64_t cells = (uint64_t)rwidth(r0.r[cM]);
    cum = cells;
    g.min(0);  // the trim is published
    while (found == INT32_MAX) {
        // The cut-off of score s (thread 0), published by the barrier.
        if (tid == 0) {
            const Range mr = get(cM, s);
            if (!rempty(mr)) {
                const OFF *Mrow = row_of(cM);
                const auto O = [Mrow](int32_t k) { return Mrow[k]; };
                int32_t lo = mr.lo, hi = mr.hi;
                wfa_cutoff(H, s, m, n, O, lo, hi);
                for (int c = 0; c < kComps; ++c) {
                    const Range r = get(c, s);
                    if (rempty(r)) continue;
                    const Range x{imax(r.lo, lo), imin(r.hi, hi)};
                    set_range(c, rempty(x) ? rnone() : x);
                }
            }
        }
        g.min(0);
        ++s;
        sm = ring_step(sm, q.rm);
        if (METRIC != kMetricEdit) {
            sd = ring_step(sd, q.rd);
            if (TWO) sd2 = ring_step(sd2, q.rd2);
        }
        if (s > t.s_limit) {
            status(kOutOverflow);
            return;
        }
        // Indel: WFA2-lib's recurrence has no X (the CPU's step_affine: Mx = nullptr).
        const bool nox = hs.nox != 0;
        auto src = [&](int c, int32_t ss) -> Range {
            if (ss < 0) return rnone();
            if (nox && c == cM && ss == s - q.x) return rnone();
            return get(c, ss);
        };
        const StepRanges r = step_ranges(q, s, m, n, src);
        bool inputs_null;
        Srcs<OFF> a;
        if (METRIC == kMetricEdit) {
            inputs_null = rempty(src(cM, s - 1));
        } else {
            source_ranges<TWO>(q, s, src, r, a);
            a.Mx = rg.row(rg.M, ring_back(sm, q.x, q.rm));
            a.Moe = rg.row(rg.M, ring_back(sm, q.o + q.e, q.rm));
            a.D1e = rg.row(rg.D1, ring_back(sd, q.e, q.rd));
            a.I1e = rg.row(rg.I1, ring_back(sd, q.e, q.rd));
            a.Moe2 = a.D2e = a.I2e = nullptr;
            inputs_null = rempty(a.mx) && rempty(a.moe) && rempty(a.d1e) && rempty(a.i1e);
            if (TWO) {
                a.Moe2 = rg.row(rg.M, ring_back(sm, q.o2 + q.e2, q.rm));
                a.D2e = rg.row(rg.D2, ring_back(sd2, q.e2, q.rd2));
                a.I2e = rg.row(rg.I2, ring_back(sd2, q.e2, q.rd2));
                inputs_null = inputs_null && rempty(a.moe2) && rempty(a.d2e) && rempty(a.i2e);
            }
        }
        const Range mr = r.r[cM];
        const int32_t w = rwidth(mr);
        if (w > 0 && (mr.lo < kb || mr.hi >= kb + cap || (CODES && cum + (uint64_t)w > sh.code_cap))) {
            status(kOutOverflow);
            return;
        }
        if (CODES && tid == 0) { u.hdr[2 * s] = mr.lo; u.hdr[2 * s + 1] = (int32_t)(uint32_t)cum; }
        // Score s's slot is no source of its own cells: thread 0 may publish its ranges now.
        if (tid == 0)
            for (int c = 0; c < kComps; ++c) set_range(c, r.r[c]);
        if (w > 0) {
            uint8_t *cc = CODES ? u.codes + cum - mr.lo : nullptr;
            OFF *Mc = rg.row(rg.M, sm);
            if (METRIC == kMetricEdit) {
                // The cells first, then (edit end-to-end) WFA2-lib's trim and exact prune
                // before the extension, as its wavefront_compute_edit does them.
                const Range r1 = src(cM, s - 1);
                const OFF *M1 = rg.row(rg.M, ring_back(sm, 1, q.rm));
                for (int32_t k = mr.lo + tid; k <= mr.hi; k += T) {
                    uint32_t code = 0;
                    Mc[k] = cell_edit_raw(r1, M1, k, m, n, code);
                    if (CODES) cc[k] = (uint8_t)code;
                }
                Range er = mr;
                if (hs.exact_prune) {
                    g.min(0);  // the cells are visible to thread 0
                    if (tid == 0) {
                        trim();
                        Range x = get(cM, s);
                        if (!rempty(x)) {
                            const auto O = [Mc](int32_t k) { return Mc[k]; };
                            wfa_edit_exact_prune(m, n, O, x.lo, x.hi);
                            set_range(cM, x);
                        }
                    }
                    g.min(0);  // the pruned range is visible to all
                    er = get(cM, s);
                }
                for (int32_t k = er.lo + tid; k <= er.hi; k += T) {
                    int32_t h = Mc[k];
                    if (h >= 0) h = extend(sq, h, k, m, n);
                    Mc[k] = h;
                    if (found == INT32_MAX && is_end(h, k, m, n, t.pe, t.te)) found = k;
                }
            } else {
                OFF *D1c = rg.row(rg.D1, sd), *I1c = rg.row(rg.I1, sd);
                OFF *D2c = TWO ? rg.row(rg.D2, sd2) : nullptr, *I2c = TWO ? rg.row(rg.I2, sd2) : nullptr;
                const bool linear = hs.linear != 0;
                for (int32_t k = mr.lo + tid; k <= mr.hi; k += T) {
                    int32_t d1, i1, d2, i2;
                    uint32_t code = 0;
                    int32_t h = cell_raw<TWO>(a, linear, k, m, n, d1, i1, d2, i2, code);
                    if (h >= 0) h = extend(sq, h, k, m, n);
                    Mc[k] = h;
                    D1c[k] = d1;
                    I1c[k] = i1;
                    if (TWO) { D2c[k] = d2; I2c[k] = i2; }
                    if (CODES) cc[k] = (uint8_t)code;
                    if (found == INT32_MAX && is_end(h, k, m, n, t.pe, t.te)) found = k;
                }
            }
        }
        found = g.min(found);  // also the barrier: the cells are visible to the trim
        cells += (uint64_t)w;
        cum += (uint64_t)w;
        // Thread 0: the trim, then WFA2-lib's end of an alignment that lost every path:
        // more than the ring's scores in a row with no source at all and no M.
        int32_t lost = 0;
        if (tid == 0) {
            trim();
            null_steps = inputs_null ? null_steps + 1 : 0;
            lost = inputs_null && rempty(get(cM, s)) && null_steps > q.rm;
        }
        lost = -g.min(-lost);  // thread 0's flag to all; also publishes the trim
        if (lost) {
            if (tid == 0) {
                out->status = kOutUnfeasible;
                out->n_ops = 0;
                out->cells = cells;
            }
            return;
        }
        if (cancel.stop(g, w + cuda::kCancelStepWork)) {
            status(kOutCanceled);
            return;
        }
    }
    if (tid == 0) finish_ok<METRIC, CODES>(q, t, u, rg.row(rg.M, sm), s, found, cells, out, ops);
}

}  // namespace wfag
}  // namespace gale

#endif
