// The CUDA WFA kernel's data and cells: a task's sequences and their greedy extension
// (16 bases at a time from 2-bit codes, 4 from bytes), the task, result and unit records
// (cuda/wfa.cu fills and reads them), the unit's layout (wfa_core.cuh's header says what
// it holds), and the cells of one score (affine with and without range tests, "clear",
// edit). Written for the GPU and, with a one-thread group, the host.
#ifndef GALE_CUDA_WFA_CELLS_CUH
#define GALE_CUDA_WFA_CELLS_CUH

#include "wfa_ranges.cuh"

namespace gale {
namespace wfag {

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

}  // namespace wfag
}  // namespace gale

#endif
