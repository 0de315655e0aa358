// The wavefront recurrence of lib/wfa.h for the CUDA kernel (cuda/wfa.cu), written
// against a "group" of threads (a warp or a block) so that the same code also
// compiles on the host with a one-thread group: the dispatcher sizes its memory
// with the range functions below, and a host emulation can run whole alignments.
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
#ifndef GALE_CUDA_WFA_CORE_CUH
#define GALE_CUDA_WFA_CORE_CUH

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>

#include "cancel.cuh"
#include "wfa.h"
#include "wfa_heuristic.h"

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

// Sequences of one task in the chunk's 2-bit packed arrays (cuda/common/pack.cuh):
// pattern bases at [p0, p0 + m), text bases at [t0, t0 + n). Positions are 32-bit.
// Under GALE_N_BYTES mask is nullptr and code holds one byte per base (pack.cuh).
struct Seqs {
    const uint32_t *code, *mask;
    uint32_t p0, t0;
    int32_t has_n;     // either sequence holds an N: the mask must be read
    int32_t n_policy;  // GALE_N_*
};

// 16 bases from base position pos, 2 bits each, the first in the low bits.
GALE_WFA_DEV uint32_t win16(const uint32_t *code, uint32_t pos) {
    const uint32_t w = pos >> 4;
    return funnel_r(code[w], code[w + 1], (pos & 15u) * 2u);
}
// 4 byte codes from base position pos (GALE_N_BYTES), the first in the low byte.
GALE_WFA_DEV uint32_t win4_bytes(const uint32_t *code, uint32_t pos) {
    const uint32_t w = pos >> 2;
    return funnel_r(code[w], code[w + 1], (pos & 3u) * 8u);
}
// The N bits of 16 bases from pos (bit i: base pos + i is N).
GALE_WFA_DEV uint32_t nbits16(const uint32_t *mask, uint32_t pos) {
    const uint32_t w = pos >> 5;
    return funnel_r(mask[w], mask[w + 1], pos & 31u) & 0xffffu;
}

// One step of the greedy extension of offset h on diagonal k (lib/wfa.h: while h < n and
// v < m and P[v] matches T[h]), given lim = min(n, m + k) (the offset where diagonal k
// leaves the matrix: rem = lim - h) and a valid h (0 <= h <= lim): up to 16 bases; *more
// says whether the extension may go on (all 16 matched).
GALE_WFA_DEV int32_t extend_step_lim(const Seqs &q, int32_t h, int32_t k, int32_t lim, bool &more) {
    const int32_t rem = lim - h;
    if (!q.mask) {  // GALE_N_BYTES: equal codes are equal bytes; 16 bases as 4 words of 4
        int32_t first = 16;
        for (uint32_t j = 0; j < 16; j += 4) {
            const uint32_t d = win4_bytes(q.code, q.p0 + (uint32_t)(h - k) + j) ^ win4_bytes(q.code, q.t0 + (uint32_t)h + j);
            if (d) {
                first = (int32_t)j + ((ffs32(d) - 1) >> 3);
                break;
            }
        }
        const int32_t adv = imin(first, rem);
        more = adv == 16;
        return h + adv;
    }
    uint32_t x = win16(q.code, q.p0 + (uint32_t)(h - k)) ^ win16(q.code, q.t0 + (uint32_t)h);
    x = (x | (x >> 1)) & 0x55555555u;
    int32_t first = x ? (ffs32(x) - 1) >> 1 : 16;
    if (q.has_n) {
        // DNA5: an N matches an N (both pack as A) and nothing else; MISMATCH: nothing.
        const uint32_t np = nbits16(q.mask, q.p0 + (uint32_t)(h - k)), nt = nbits16(q.mask, q.t0 + (uint32_t)h);
        const uint32_t bad = q.n_policy ? (np | nt) : (np ^ nt);
        if (bad) first = imin(first, ffs32(bad) - 1);
    }
    const int32_t adv = imin(first, rem);
    more = adv == 16;
    return h + adv;
}

// The same from the lengths, for any h (an offset at or past the end stays).
GALE_WFA_DEV int32_t extend_step(const Seqs &q, int32_t h, int32_t k, int32_t m, int32_t n, bool &more) {
    const int32_t lim = imin(n, m + k);
    more = false;
    if (lim - h <= 0) return h;
    return extend_step_lim(q, h, k, lim, more);
}

// The whole greedy extension, 16 bases at a time.
GALE_WFA_DEV int32_t extend(const Seqs &q, int32_t h, int32_t k, int32_t m, int32_t n) {
    bool more = true;
    while (more) h = extend_step(q, h, k, m, n, more);
    return h;
}

// One task as the kernel gets it.
struct Task {
    uint32_t p0, t0;       // packed positions of pattern and text
    int32_t m, n;          // pattern and text lengths
    int32_t pb, pe, tb, te;  // begin/end-free lengths, clamped (lib/wfa.h wfa_free)
    int32_t s_limit;       // the score budget: beyond it the task is rescued
    int32_t kbase;         // first diagonal of the unit's offset arrays
    uint32_t ops_at;       // where its backtrace ops go (uint32 index)
    int32_t max_ops;       // how many it may write
    int32_t has_n;
    int32_t pad;
};

// kOutCanceled: the batch was cancelled before the alignment ended (common/cancel.cuh).
enum OutStatus : int32_t { kOutOk = 0, kOutOverflow = 1, kOutBroken = 2, kOutCanceled = 3 };

struct Out {
    int32_t status;
    int32_t score;   // final s
    int32_t k_end, h_end;
    int32_t k0;      // start diagonal
    int32_t n_ops;   // ops written, the path's last first
    uint64_t cells;
};

// The backtrace the GPU keeps: none in score scope, lib/wfa.h's code byte per cell in
// alignment scope (the choices of its tie-break, walked back on the GPU at the end).
enum BtMode : int {
    kBtNone = 0,   // score scope: no backtrace
    kBtCodes = 1,  // lib/wfa.h's code byte per cell, walked back on the GPU at the end
};

// The chunk-wide shape of a unit (same for every unit of a launch).
struct Shape {
    int32_t cap;           // diagonals per offset array
    int32_t off_bytes;     // bytes per stored offset: 4 (int32) or 2 (int16, lengths < 32768)
    int32_t hdr_scores;    // codes: hdr entries (max s_limit + 1); else 0
    uint64_t code_cap;     // codes: code bytes; else 0
    // byte offsets inside a unit
    uint64_t off_rr, off_m, off_d1, off_i1, off_d2, off_i2, off_hdr, off_codes, bytes;
};

inline uint64_t align_up8(uint64_t x) { return (x + 255) / 256 * 256; }

inline void shape_layout(Shape &sh, const Pen &q, int bt /* BtMode */) {
    const uint64_t cap = (uint64_t)sh.cap * (uint64_t)(sh.off_bytes == 2 ? 2 : 4);
    uint64_t at = 0;
    sh.off_rr = at;
    at = align_up8(at + (uint64_t)q.rm * kComps * 8);
    sh.off_m = at;
    at = align_up8(at + (uint64_t)q.rm * cap);
    sh.off_d1 = at;
    at = align_up8(at + (uint64_t)q.rd * cap);
    sh.off_i1 = at;
    at = align_up8(at + (uint64_t)q.rd * cap);
    sh.off_d2 = at;
    at = align_up8(at + (uint64_t)q.rd2 * cap);
    sh.off_i2 = at;
    at = align_up8(at + (uint64_t)q.rd2 * cap);
    sh.off_hdr = at;
    if (bt != kBtCodes) sh.hdr_scores = 0, sh.code_cap = 0;
    at = align_up8(at + (uint64_t)sh.hdr_scores * 8);
    sh.off_codes = at;
    at = align_up8(at + sh.code_cap);
    sh.bytes = at;
}

// Stored offsets: int32, or int16 when both lengths are below kOff16Limit. A stored
// null is any negative value (kNull, or INT16_MIN in int16).
constexpr int32_t kOff16Limit = 32768;
template <class OFF>
GALE_HD OFF to_off(int32_t h) {
    // int16: every null (kNull plus small numbers) clamps to some negative value.
    return sizeof(OFF) == 2 ? (OFF)imax(h, INT16_MIN) : (OFF)(h >= 0 ? h : kNull);
}

// Per-cell work of one score, affine (one or two pieces). Returns M's offset
// (extended) and the cell's backtrace code in *code.
template <class OFF>
struct Srcs {
    Range mx, moe, moe2, d1e, i1e, d2e, i2e;  // source ranges
    Range d1, i1, d2, i2;                      // this score's gap ranges
    const OFF *Mx, *Moe, *Moe2, *D1e, *I1e, *D2e, *I2e;  // source arrays (already minus kbase)
};

// CHECK = false: the caller has checked that k lies inside every range the cell
// reads (interior), so the per-cell range tests are all true and are left out.
template <bool TWO, class OFF, bool CHECK = true>
GALE_WFA_DEV int32_t cell_affine(const Srcs<OFF> &a, int32_t k, int32_t m, int32_t n, int32_t &d1, int32_t &i1,
                                 int32_t &d2, int32_t &i2, uint32_t &code) {
    auto rin = [](Range r, int32_t kk) { return !CHECK || (kk >= r.lo && kk <= r.hi); };
    int32_t best = kNull;
    uint32_t src = kSrcX, c = 0;
    if (rin(a.mx, k)) {
        const int32_t x = a.Mx[k];
        if (x >= 0 && x + 1 <= n && x + 1 - k <= m) best = x + 1;
    }
    d1 = kNull;
    if (rin(a.d1, k)) {
        const int32_t o = rin(a.moe, k - 1) ? a.Moe[k - 1] : kNull;
        const int32_t g = rin(a.d1e, k - 1) ? a.D1e[k - 1] : kNull;
        const int32_t mx = imax(o, g);
        if (mx >= 0 && mx + 1 <= n) {
            d1 = mx + 1;
            if (g >= o) c |= kExtD1;
            if (d1 > best) { best = d1; src = kSrcD1; }
        }
    }
    i1 = kNull;
    if (rin(a.i1, k)) {
        const int32_t o = rin(a.moe, k + 1) ? a.Moe[k + 1] : kNull;
        const int32_t g = rin(a.i1e, k + 1) ? a.I1e[k + 1] : kNull;
        const int32_t mx = imax(o, g);
        if (mx >= 0 && mx - k <= m) {
            i1 = mx;
            if (g >= o) c |= kExtI1;
            if (i1 > best) { best = i1; src = kSrcI1; }
        }
    }
    d2 = kNull;
    i2 = kNull;
    if (TWO) {
        if (rin(a.d2, k)) {
            const int32_t o = rin(a.moe2, k - 1) ? a.Moe2[k - 1] : kNull;
            const int32_t g = rin(a.d2e, k - 1) ? a.D2e[k - 1] : kNull;
            const int32_t mx = imax(o, g);
            if (mx >= 0 && mx + 1 <= n) {
                d2 = mx + 1;
                if (g >= o) c |= kExtD2;
                if (d2 > best) { best = d2; src = kSrcD2; }
            }
        }
        if (rin(a.i2, k)) {
            const int32_t o = rin(a.moe2, k + 1) ? a.Moe2[k + 1] : kNull;
            const int32_t g = rin(a.i2e, k + 1) ? a.I2e[k + 1] : kNull;
            const int32_t mx = imax(o, g);
            if (mx >= 0 && mx - k <= m) {
                i2 = mx;
                if (g >= o) c |= kExtI2;
                if (i2 > best) { best = i2; src = kSrcI2; }
            }
        }
    }
    if (best < 0) {
        code = c;  // no M: its source field is 0 (the gap bits are 0 too: every gap was null)
        return kNull;
    }
    code = c | src;
    return best;
}

// The interior cell while the alignment is "clear": no M cell stored so far has reached
// the end of either sequence (h < n and v < m on every diagonal). Then no source
// offset can leave the matrix, so every bound test of cell_affine is true, and a null
// (negative) stays negative under max and + 1: the cell is three maxima and two adds.
// Nulls are not reset to kNull here: one rises by at most 1 per score (each candidate
// adds at most 1 to a source of a lower score), so int16 nulls (INT16_MIN when stored
// by cell_affine) stay below 0 while s < kClearScores16. Same values, same code byte
// as cell_affine<TWO, OFF, false> (the first maximum among valid candidates).
constexpr int32_t kClearScores16 = 16384;
template <bool TWO, bool CODES, class OFF>
GALE_WFA_DEV int32_t cell_clear(const Srcs<OFF> &a, int32_t k, int32_t &d1, int32_t &i1, int32_t &d2, int32_t &i2,
                                uint32_t &code) {
    const int32_t x = a.Mx[k] + 1;
    const int32_t od = a.Moe[k - 1], gd = a.D1e[k - 1];
    const int32_t oi = a.Moe[k + 1], gi = a.I1e[k + 1];
    d1 = imax(od, gd) + 1;
    i1 = imax(oi, gi);
    int32_t best = imax(x, imax(d1, i1));
    int32_t od2 = 0, gd2 = 0, oi2 = 0, gi2 = 0;
    d2 = kNull;
    i2 = kNull;
    if (TWO) {
        od2 = a.Moe2[k - 1];
        gd2 = a.D2e[k - 1];
        oi2 = a.Moe2[k + 1];
        gi2 = a.I2e[k + 1];
        d2 = imax(od2, gd2) + 1;
        i2 = imax(oi2, gi2);
        best = imax(best, imax(d2, i2));
    }
    if (CODES) {
        uint32_t c = 0;
        if (d1 >= 0 && gd >= od) c |= kExtD1;
        if (i1 >= 0 && gi >= oi) c |= kExtI1;
        uint32_t src = x >= best ? kSrcX : d1 >= best ? kSrcD1 : kSrcI1;
        if (TWO) {
            if (d2 >= 0 && gd2 >= od2) c |= kExtD2;
            if (i2 >= 0 && gi2 >= oi2) c |= kExtI2;
            src = x >= best ? kSrcX : d1 >= best ? kSrcD1 : i1 >= best ? kSrcI1 : d2 >= best ? kSrcD2 : kSrcI2;
        }
        code = best >= 0 ? (c | src) : 0u;
    }
    return best;
}

// Edit distance: X, D, I from M[s-1].
template <class OFF>
GALE_WFA_DEV int32_t cell_edit(Range r1, const OFF *M1, int32_t k, int32_t m, int32_t n, uint32_t &code) {
    int32_t best = kNull;
    uint32_t src = kSrcX;
    if (rin(r1, k)) {
        const int32_t x = M1[k];
        if (x >= 0 && x + 1 <= n && x + 1 - k <= m) best = x + 1;
    }
    if (rin(r1, k - 1)) {
        const int32_t d = M1[k - 1];
        if (d >= 0 && d + 1 <= n && d + 1 > best) { best = d + 1; src = kSrcD1; }
    }
    if (rin(r1, k + 1)) {
        const int32_t i = M1[k + 1];
        if (i >= 0 && i - k <= m && i > best) { best = i; src = kSrcI1; }
    }
    if (best < 0) {
        code = 0;
        return kNull;
    }
    code = src;
    return best;
}

// The diagonals whose cells read only inside their ranges: [klo, khi] lies inside every
// range that cell_affine reads for it iff lo <= klo and khi <= hi of this (empty when
// a range is). One pair of tests per thread and iteration instead of a dozen, and the
// loop keeps two registers instead of the source ranges.
template <bool TWO, class OFF>
GALE_HD Range interior(const Srcs<OFF> &a) {
    int32_t lo = imax(imax(a.mx.lo, a.moe.lo + 1), imax(imax(a.d1e.lo + 1, a.i1e.lo - 1), imax(a.d1.lo, a.i1.lo)));
    int32_t hi = imin(imin(a.mx.hi, a.moe.hi - 1), imin(imin(a.d1e.hi + 1, a.i1e.hi - 1), imin(a.d1.hi, a.i1.hi)));
    if (TWO) {
        lo = imax(lo, imax(imax(a.moe2.lo + 1, a.d2e.lo + 1), imax(a.i2e.lo - 1, imax(a.d2.lo, a.i2.lo))));
        hi = imin(hi, imin(imin(a.moe2.hi - 1, a.d2e.hi + 1), imin(a.i2e.hi - 1, imin(a.d2.hi, a.i2.hi))));
    }
    return Range{lo, hi};
}

GALE_HD bool is_end(int32_t h, int32_t k, int32_t m, int32_t n, int32_t pe, int32_t te) {
    const int32_t v = h - k;
    return h >= 0 && ((h == n && m - v <= pe) || (v == m && n - h <= te));
}

// A unit's pointers.
struct Unit {
    int32_t *rr;  // [slot][comp][2]
    char *M, *D1, *I1, *D2, *I2;  // offsets rings (int32 or int16, Shape::off_bytes)
    int32_t *hdr;  // codes: [s][2]: lo of M, code start (uint32)
    uint8_t *codes;
};

GALE_HD Unit unit_at(char *base, const Shape &sh) {
    Unit u;
    u.rr = reinterpret_cast<int32_t *>(base + sh.off_rr);
    u.M = base + sh.off_m;
    u.D1 = base + sh.off_d1;
    u.I1 = base + sh.off_i1;
    u.D2 = base + sh.off_d2;
    u.I2 = base + sh.off_i2;
    u.hdr = reinterpret_cast<int32_t *>(base + sh.off_hdr);
    u.codes = reinterpret_cast<uint8_t *>(base + sh.off_codes);
    return u;
}

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
