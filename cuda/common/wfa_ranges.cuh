// The range recurrence of lib/wfa.h for the CUDA WFA kernel (cuda/wfa.cu) and its
// dispatcher: diagonal ranges, the penalties as the kernel uses them, the ranges of a
// score from those before it (step_ranges), and on the host what a task needs (the
// score budget, and the diagonal window and code bytes by running the recurrence
// alone: ranges do not depend on the sequences). The rest of the kernel:
// wfa_cells.cuh (the unit, extension and cells), wfa_core.cuh (align(), by stages),
// wfa_heuristic.cuh (the heuristic mode).
#ifndef GALE_CUDA_WFA_RANGES_CUH
#define GALE_CUDA_WFA_RANGES_CUH

#include <algorithm>
#include <climits>
#include <cstdint>

#include "wfa.h"

namespace gale {
namespace wfag {


#if defined(__CUDACC__)
#define GALE_WFA_DEV __device__ __forceinline__
__device__ __forceinline__ uint32_t funnel_r(uint32_t lo, uint32_t hi, uint32_t sh) { return __funnelshift_r(lo, hi, sh); }
__device__ __forceinline__ int ffs32(uint32_t x) { return __ffs((int)x); }
#else
#define GALE_WFA_DEV inline
inline uint32_t funnel_r(uint32_t lo, uint32_t hi, uint32_t sh) {
    return (uint32_t)((((uint64_t)hi << 32) | lo) >> (sh & 31));
}
inline int ffs32(uint32_t x) { return __builtin_ffs((int)x); }
#endif
GALE_HD int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }
GALE_HD int32_t imax(int32_t a, int32_t b) { return a > b ? a : b; }

enum Comp : int { cM = 0, cD1 = 1, cI1 = 2, cD2 = 3, cI2 = 4 };
constexpr int kComps = 5;

// A diagonal range [lo, hi]. Every empty range is the one value rnone() = {kNoLo,
// kNoHi}: then hull, shift and clamp need no emptiness tests (hull's min/max leave
// the sentinel out, a shift by a few diagonals keeps it empty, clamp maps every
// empty result back to it). The kernel computes these at every score on every
// thread, and their tests were about a tenth of its instructions (ncu, bench/RESULTS.md).
struct Range {
    int32_t lo, hi;  // empty when lo > hi
};
constexpr int32_t kNoLo = 1 << 29, kNoHi = -(1 << 29);  // far beyond any GPU task's diagonals (< 2^27)
GALE_HD Range rnone() { return Range{kNoLo, kNoHi}; }
GALE_HD bool rempty(Range r) { return r.lo > r.hi; }
GALE_HD bool rin(Range r, int32_t k) { return k >= r.lo && k <= r.hi; }
GALE_HD Range rhull(Range a, Range b) { return Range{imin(a.lo, b.lo), imax(a.hi, b.hi)}; }
GALE_HD Range rshift(Range r, int32_t d) { return Range{r.lo + d, r.hi + d}; }  // clamp it before use
GALE_HD Range rclamp(Range r, int32_t m, int32_t n) {
    const Range c{imax(r.lo, -m), imin(r.hi, n)};
    return rempty(c) ? rnone() : c;
}
GALE_HD int32_t rwidth(Range r) { return rempty(r) ? 0 : r.hi - r.lo + 1; }

// The penalties as the kernel uses them (edit: x = 1, o = 0, e = 1, no second piece).
struct Pen {
    int32_t metric, x, o, e, o2, e2;
    int32_t rm, rd, rd2;  // ring lengths (scores) of M, D1/I1, D2/I2
};

GALE_HD Pen make_pen(const WfaParams &p) {
    Pen q;
    q.metric = p.metric;
    if (p.metric == kMetricEdit) {
        q.x = 1; q.o = 0; q.e = 1; q.o2 = 0; q.e2 = 0;
        q.rm = 2; q.rd = 0; q.rd2 = 0;
        return q;
    }
    q.x = p.x; q.o = p.o; q.e = p.e;
    const bool two = p.metric == kMetricAffine2p;
    q.o2 = two ? p.o2 : 0;
    q.e2 = two ? p.e2 : 0;
    int32_t r = q.x > q.o + q.e ? q.x : q.o + q.e;
    if (two && q.o2 + q.e2 > r) r = q.o2 + q.e2;
    q.rm = r + 1;
    q.rd = q.e + 1;
    q.rd2 = two ? q.e2 + 1 : 0;
    return q;
}

// The ranges of score s >= 1, from those of earlier scores: get(comp, s') returns
// the stored range (the caller answers "none" for s' < 0). lib/wfa.h, "Ranges".
struct StepRanges {
    Range r[kComps];
};
template <class Get>
GALE_HD StepRanges step_ranges(const Pen &q, int32_t s, int32_t m, int32_t n, const Get &get) {
    StepRanges out;
    for (int c = 0; c < kComps; ++c) out.r[c] = rnone();
    if (q.metric == kMetricEdit) {
        Range p = get(cM, s - 1);
        out.r[cM] = rclamp(Range{p.lo - 1, p.hi + 1}, m, n);
        return out;
    }
    const Range moe = get(cM, s - q.o - q.e);
    out.r[cD1] = rclamp(rshift(rhull(moe, get(cD1, s - q.e)), 1), m, n);
    out.r[cI1] = rclamp(rshift(rhull(moe, get(cI1, s - q.e)), -1), m, n);
    Range mr = rhull(get(cM, s - q.x), rhull(out.r[cD1], out.r[cI1]));
    if (q.metric == kMetricAffine2p) {
        const Range moe2 = get(cM, s - q.o2 - q.e2);
        out.r[cD2] = rclamp(rshift(rhull(moe2, get(cD2, s - q.e2)), 1), m, n);
        out.r[cI2] = rclamp(rshift(rhull(moe2, get(cI2, s - q.e2)), -1), m, n);
        mr = rhull(mr, rhull(out.r[cD2], out.r[cI2]));
    }
    out.r[cM] = rclamp(mr, m, n);
    return out;
}

// ---- host side: what a task needs ------------------------------------------------

// The ops a codes backtrace of a path up to score s may write: each costs at least the
// cheapest of x and a gap's o + e (edit: 1).
inline int32_t codes_max_ops(const Pen &q, int64_t s) {
    const int64_t minc = q.metric == kMetricEdit ? 1
                                                 : std::min<int64_t>({q.x, q.o + q.e,
                                                                      q.metric == kMetricAffine2p ? q.o2 + q.e2 : INT32_MAX});
    return (int32_t)std::min<int64_t>(s / minc + 2, INT32_MAX);
}

// The score budget of a task (see cuda/wfa.cu, "Memory budget").
inline int64_t score_budget(const Pen &q, int32_t err_permille, int64_t m, int64_t n) {
    const int64_t errors = (err_permille * (m + n) + 1999) / 2000;  // expected edits, rounded up
    int64_t pmax = q.x;
    if (q.o + q.e > pmax) pmax = q.o + q.e;
    if (q.metric == kMetricAffine2p && q.o2 + q.e2 > pmax) pmax = q.o2 + q.e2;
    const int64_t d = m > n ? m - n : n - m;
    int64_t gap = 0;
    if (d > 0) {
        gap = q.o + d * q.e;
        if (q.metric == kMetricAffine2p && q.o2 + d * q.e2 < gap) gap = q.o2 + d * q.e2;
    }
    return errors * pmax + gap;
}

// Exact needs of a task up to score s_limit: the diagonal window of M's ranges and
// the code bytes (sum of M's widths), by running the range recurrence alone (ranges
// do not depend on the sequences). With a code limit, it stops at the last score
// whose codes (from s = 0) stay within it: s_reached < s_limit then.
struct Need {
    int32_t klo, khi;
    int64_t s_reached;
    uint64_t cells;
};

inline Need simulate_ranges(const Pen &q, int32_t m, int32_t n, int32_t pb, int32_t tb, int64_t s_limit,
                            uint64_t limit, bool codes, Range *ring /* q.rm * kComps */) {
    Need nd;
    Range r0{-pb, tb};
    nd.klo = r0.lo;
    nd.khi = r0.hi;
    nd.cells = (uint64_t)rwidth(r0);
    nd.s_reached = nd.cells <= limit ? 0 : -1;
    if (nd.s_reached < 0) return nd;
    for (int32_t i = 0; i < q.rm * kComps; ++i) ring[i] = rnone();
    ring[0 * kComps + cM] = r0;
    auto get = [&](int c, int32_t s) -> Range { return s < 0 ? rnone() : ring[(s % q.rm) * kComps + c]; };
    for (int64_t s = 1; s <= s_limit; ++s) {
        StepRanges r = step_ranges(q, (int32_t)s, m, n, get);
        for (int c = 0; c < kComps; ++c) ring[(s % q.rm) * kComps + c] = r.r[c];
        const Range mr = r.r[cM];
        if (!rempty(mr)) {
            if (codes && nd.cells + (uint64_t)rwidth(mr) > limit) return nd;
            nd.klo = imin(nd.klo, mr.lo);
            nd.khi = imax(nd.khi, mr.hi);
            nd.cells += (uint64_t)rwidth(mr);
        }
        nd.s_reached = s;
        // Score only: once the window spans every diagonal it cannot grow.
        if (!codes && nd.klo == -m && nd.khi == n) {
            nd.s_reached = s_limit;
            return nd;
        }
    }
    return nd;
}

}  // namespace wfag
}  // namespace gale

#endif
