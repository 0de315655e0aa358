// WFA2-lib 2.3.3's heuristic cut-offs (gale/wfa.h, GALE_P_WFA_HEURISTIC), written once for
// both backends: the CPU kernel (lib/cpu/wfa_heuristic.cpp, Dir::cutoff) and the CUDA
// kernel's heuristic mode (cuda/common/wfa_heuristic.cuh, align_heuristic), which call
// wfa_cutoff on the last score's M wavefront and cut every component of that score to
// the range it returns. Each rule below is the one of WFA2-lib's
// wavefront/wavefront_heuristic.c with the same name, rule for rule; the comments
// of lib/cpu/wfa_heuristic.cpp say what makes gale's wavefronts see WFA2-lib's ranges.
#ifndef GALE_WFA_HEURISTIC_H
#define GALE_WFA_HEURISTIC_H

#include <climits>
#include <cstdint>

#include "wfa.h"

namespace gale {

// The heuristic's parameters and the state its cut-offs keep between scores
// (WFA2-lib's wavefront_heuristic_t), reset per alignment (clear).
struct WfaHeuristic {
    int32_t strategy = 0;  // GALE_WFA_H_* bits; 0: none
    int32_t min_wavefront_length = 0, max_distance_threshold = 0, steps_between_cutoffs = 0;
    int32_t xdrop = 0, zdrop = 0, min_k = 0, max_k = 0;
    int32_t match = 0;     // WFA2-lib's penalties->match (0 or the match score, < 0)
    int32_t gap_e = 1;     // Z-drop's gap extension (WFA2-lib: gap_extension1, or 1 if not > 0)
    // state
    int32_t steps_wait = 0;
    int64_t max_sw_score = 0;
    int32_t max_sw_k = 0, max_sw_offset = 0;
    bool max_sw_set = false;  // max_sw_score_k != DPMATRIX_DIAGONAL_NULL

    GALE_HD void clear() {
        steps_wait = steps_between_cutoffs;
        max_sw_score = 0;
        max_sw_k = 0;
        max_sw_offset = kNull;
        max_sw_set = false;
    }
};

// The parameters of p's heuristic (state cleared by the caller per alignment).
GALE_HD WfaHeuristic wfa_heuristic_of(const WfaParams &p) {
    WfaHeuristic H;
    H.strategy = p.heuristic;
    H.min_wavefront_length = p.h_min_wavefront_length;
    H.max_distance_threshold = p.h_max_distance_threshold;
    H.steps_between_cutoffs = p.h_steps_between_cutoffs;
    H.xdrop = p.h_xdrop;
    H.zdrop = p.h_zdrop;
    H.min_k = p.h_band_min_k;
    H.max_k = p.h_band_max_k;
    H.match = p.match;
    // WFA2-lib's penalties->gap_extension1: the (transformed) e of gap-affine and
    // two-piece; gap-linear leaves it -1, so Z-drop takes 1.
    H.gap_e = p.kind_metric == kKindAffine || p.kind_metric == kKindAffine2p ? p.e : 1;
    return H;
}

namespace wfa_heur {

GALE_HD int32_t imax(int32_t a, int32_t b) { return a > b ? a : b; }
GALE_HD int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }

// -WAVEFRONT_OFFSET_NULL: the distance WFA2-lib gives a null cell.
constexpr int32_t kNullDistance = 1 << 30;

// wf_distance_end2end
GALE_HD int32_t distance_end2end(int32_t offset, int32_t k, int32_t m, int32_t n) {
    if (offset < 0) return kNullDistance;
    const int32_t left_v = m - (offset - k), left_h = n - offset;
    return imax(left_v, left_h);
}

// C's float-to-int conversion as x86-64 does it (cvttss2si): out of range and NaN
// give INT_MIN (WFA2-lib divides by a length that may be 0).
GALE_HD int32_t float_to_int(float f) {
    if (!(f > -2147483904.0f && f < 2147483648.0f)) return INT_MIN;
    return (int32_t)f;
}

// IEEE single-precision division and product, rounded to nearest, never contracted
// (WFA2-lib's float arithmetic as x86-64 computes it, on either side).
GALE_HD float fdiv(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fdiv_rn(a, b);
#else
    volatile float q = a / b;  // volatile: no contraction, no reordering
    return q;
#endif
}
GALE_HD float fmul(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    volatile float q = a * b;
    return q;
#endif
}

// wf_distance_end2end_weighted (wfmash): WFA2-lib's float arithmetic, step by step.
GALE_HD int32_t distance_weighted(int32_t offset, int32_t k, int32_t m, int32_t n, int32_t mfactor) {
    const int32_t v = offset - k, h = offset;
    const float lv = fdiv((float)(m - v), (float)m);
    const float lh = fdiv((float)(n - h), (float)n);
    const int32_t left_v = float_to_int(fmul(lv, (float)mfactor));
    const int32_t left_h = float_to_int(fmul(lh, (float)mfactor));
    return offset >= 0 ? imax(left_v, left_h) : kNullDistance;
}

}  // namespace wfa_heur

// wavefront_heuristic_cufoff on M at score s, whose range [lo, hi] (non-empty) is
// already trimmed to its first and last non-null cell; O(k) is M's offset on diagonal
// k in [lo, hi] (negative: null). Updates H's state and narrows [lo, hi] to the range
// every component of score s keeps (empty when lo > hi: Z-dropped); the caller cuts
// them to it (WFA2-lib's wf_heuristic_equate, which it applies whether or not M was cut).
template <class Offset>
GALE_HD void wfa_cutoff(WfaHeuristic &H, int64_t s, int32_t m, int32_t n, const Offset &O, int32_t &lo_, int32_t &hi_) {
    using namespace wfa_heur;
    int32_t lo = lo_, hi = hi_;
    --H.steps_wait;
    const int32_t alignment_k = n - m;
    // WF-adaptive / wfmash: wf_compute_distance_end2end(_weighted), then
    // wf_heuristic_wfadaptive_reduce with min_k = max_k = the alignment's diagonal.
    if (H.strategy & (GALE_WFA_H_WFADAPTIVE | GALE_WFA_H_WFMASH)) {
        const bool wfmash = !(H.strategy & GALE_WFA_H_WFADAPTIVE);
        if (H.steps_wait <= 0 && hi - lo + 1 >= H.min_wavefront_length) {
            const int32_t mfactor = float_to_int((float)(m + n) / 2);
            const auto dist = [&](int32_t k) {
                return wfmash ? distance_weighted(O(k), k, m, n, mfactor) : distance_end2end(O(k), k, m, n);
            };
            int32_t min_distance = imax(m, n);
            for (int32_t k = lo; k <= hi; ++k) min_distance = imin(min_distance, dist(k));
            const int32_t thr = H.max_distance_threshold;
            const int32_t top_limit = imin(alignment_k, hi);
            int32_t lo_reduced = lo;
            for (int32_t k = lo; k < top_limit; ++k) {
                if (dist(k) - min_distance <= thr) break;
                ++lo_reduced;
            }
            lo = lo_reduced;
            const int32_t bottom_limit = imax(alignment_k, lo);
            int32_t hi_reduced = hi;
            for (int32_t k = hi; k > bottom_limit; --k) {
                if (dist(k) - min_distance <= thr) break;
                --hi_reduced;
            }
            hi = hi_reduced;
            H.steps_wait = H.steps_between_cutoffs;
        }
    }
    // X-drop / Z-drop: Smith-Waterman scores of the cells (wf_heuristic_compute_sw_scores)
    if ((H.strategy & (GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP)) && H.steps_wait <= 0) {
        const bool xdrop = (H.strategy & GALE_WFA_H_XDROP) != 0;
        const int64_t swg_match = H.match == 0 ? 1 : -(int64_t)H.match;
        const int64_t wf_score = s;
        const auto sw_of = [&](int32_t k) {
            const int64_t v = (int64_t)O(k) - k, h = O(k);
            return H.match == 0 ? swg_match * (v + h) - wf_score : (swg_match * (v + h) - wf_score) / 2;
        };
        int64_t cmax = INT_MIN;
        int32_t cmax_k = 0, cmax_offset = 0;
        for (int32_t k = lo; k <= hi; ++k) {
            if (O(k) < 0) continue;
            const int64_t sw = sw_of(k);
            if (cmax < sw) {
                cmax = sw;
                cmax_k = k;
                cmax_offset = O(k);
            }
        }
        if (xdrop) {
            if (H.max_sw_set) {
                const int64_t max_sw = H.max_sw_score;
                int32_t k;
                for (k = lo; k <= hi; ++k) {
                    if (O(k) < 0) continue;
                    if (max_sw - sw_of(k) < H.xdrop) break;
                }
                lo = k;
                for (k = hi; k >= lo; --k) {
                    if (O(k) < 0) continue;
                    if (max_sw - sw_of(k) < H.xdrop) break;
                }
                hi = k;
                if (cmax > H.max_sw_score) {
                    H.max_sw_score = cmax;
                    H.max_sw_k = cmax_k;
                }
            } else {
                H.max_sw_score = cmax;
                H.max_sw_k = cmax_k;
                H.max_sw_set = true;
            }
            H.steps_wait = H.steps_between_cutoffs;
        } else {
            bool dropped = false;
            if (H.max_sw_set) {
                if (cmax > H.max_sw_score) {
                    H.max_sw_score = cmax;
                    H.max_sw_k = cmax_k;
                    H.max_sw_offset = cmax_offset;
                } else {
                    // wf_zdrop_gap_score
                    int64_t dh = (int64_t)cmax_offset - H.max_sw_offset;
                    if (dh < 0) dh = -dh;
                    int64_t dv = ((int64_t)cmax_offset - cmax_k) - ((int64_t)H.max_sw_offset - H.max_sw_k);
                    if (dv < 0) dv = -dv;
                    const int64_t gap_length = dh >= dv ? dh - dv : dv - dh;
                    const int64_t gap_score = gap_length * H.gap_e;
                    if (H.max_sw_score - cmax > (int64_t)H.zdrop + gap_score) {
                        lo = hi + 1;  // Z-dropped (no new wait: WFA2-lib returns here)
                        dropped = true;
                    }
                }
            } else {
                H.max_sw_score = cmax;
                H.max_sw_k = cmax_k;
                H.max_sw_offset = cmax_offset;
                H.max_sw_set = true;
            }
            if (!dropped) H.steps_wait = H.steps_between_cutoffs;
        }
    }
    // Banded
    if (H.strategy & GALE_WFA_H_BANDED_STATIC) {
        if (lo < H.min_k) lo = H.min_k;
        if (hi > H.max_k) hi = H.max_k;
    } else if ((H.strategy & GALE_WFA_H_BANDED_ADAPTIVE) && H.steps_wait <= 0) {
        const int32_t wf_length = hi - lo + 1;
        if (wf_length >= 4) {
            const int64_t max_wf_length = (int64_t)H.max_k - H.min_k + 1;
            if (wf_length > max_wf_length) {
                const int32_t leeway = (int32_t)((wf_length - max_wf_length) / 2);
                const int32_t quarter = wf_length / 4;
                const int32_t p0 = distance_end2end(O(lo), lo, m, n);
                const int32_t p1 = distance_end2end(O(lo + quarter), lo + quarter, m, n);
                const int32_t p2 = distance_end2end(O(lo + 2 * quarter), lo + 2 * quarter, m, n);
                const int32_t p3 = distance_end2end(O(hi), hi, m, n);
                int32_t new_lo = lo;
                if (p0 > p3) new_lo += leeway;
                if (p1 > p2) new_lo += leeway;
                const int32_t old_lo = lo, old_hi = hi;
                lo = imax(new_lo, old_lo);
                const int64_t top = (int64_t)new_lo + max_wf_length - 1;
                hi = top < old_hi ? (int32_t)top : old_hi;
            }
            H.steps_wait = H.steps_between_cutoffs;
        }
    }
    lo_ = lo;
    hi_ = hi;
}

// Whether WFA2-lib prunes p's wavefronts exactly (wfa_edit_exact_prune below): edit distance
// with a heuristic, end-to-end (WFA2-lib's span is end-to-end when no free length is set at
// all, whatever the lengths they are clamped to).
GALE_HD bool wfa_edit_exact_prune_on(const WfaParams &p) {
    return p.heuristic != 0 && p.kind_metric == kKindEdit && p.pattern_begin_free == 0 && p.pattern_end_free == 0 &&
           p.text_begin_free == 0 && p.text_end_free == 0;
}

// wavefront_compute_edit_exact_prune (WFA2-lib 2.3.3, edit distance end-to-end; gale runs it
// in heuristic mode, where it moves the ranges the cut-offs see): on M of a score just
// computed (before its extension) and trimmed, [lo, hi], of 1,000 diagonals or more, the
// diagonals from either end whose best case (the length difference left) is worse than
// the best worst case (the longer rest) of any non-null cell are dropped. O(k): M's offset,
// negative for a null (whose best case is |m - n + k| whatever the null's value).
template <class Offset>
GALE_HD void wfa_edit_exact_prune(int32_t m, int32_t n, const Offset &O, int32_t &lo_, int32_t &hi_) {
    const int32_t lo = lo_, hi = hi_;
    if (hi - lo + 1 < 1000) return;
    const auto best = [&](int32_t k) {  // wf_compute_edit_best_score
        const int64_t left_v = (int64_t)m - ((int64_t)O(k) - k), left_h = (int64_t)n - O(k);
        return left_v >= left_h ? left_v - left_h : left_h - left_v;
    };
    const auto worst = [&](int32_t k) {  // wf_compute_edit_worst_score
        const int64_t left_v = (int64_t)m - ((int64_t)O(k) - k), left_h = (int64_t)n - O(k);
        return left_v > left_h ? left_v : left_h;
    };
    const int32_t sample_k = lo + (hi - lo) / 2;
    if (O(sample_k) < 0) return;  // WFA2-lib: an unlucky null in the middle
    const int64_t smax_sample = worst(sample_k);
    if (best(lo) <= smax_sample && best(hi) <= smax_sample) return;
    int64_t score_min_worst = INT_MAX;
    for (int32_t k = lo; k <= hi; ++k)
        if (O(k) >= 0 && worst(k) < score_min_worst) score_min_worst = worst(k);
    int32_t lo_reduced = lo;
    for (int32_t k = lo; k <= hi; ++k) {
        if (best(k) <= score_min_worst) break;
        ++lo_reduced;
    }
    int32_t hi_reduced = hi;
    for (int32_t k = hi; k > lo_reduced; --k) {
        if (best(k) <= score_min_worst) break;
        --hi_reduced;
    }
    lo_ = lo_reduced;
    hi_ = hi_reduced;
}

}  // namespace gale

#endif
