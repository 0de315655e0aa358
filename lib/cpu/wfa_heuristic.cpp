// CPU wavefront kernel: WFA2-lib 2.3.3's heuristic cut-offs (gale.h, GALE_P_WFA_HEURISTIC).
// Each function below is the one of WFA2-lib's wavefront/wavefront_heuristic.c with
// the same name, rule for rule, so that a heuristic alignment gives WFA2-lib's result:
// the same diagonals are cut at the same scores. What makes that possible is that
// gale's wavefronts hold the same non-null cells as WFA2-lib's at every score, and
// that in heuristic mode every component is trimmed to its first and last non-null
// cell after it is computed (Dir::step), as WFA2-lib's wavefront_compute_trim_ends
// does: the ranges the cut-offs see (their widths, their samples) are WFA2-lib's.
// Not reproduced: WFA2-lib's "exact prune" of edit end-to-end wavefronts of 1,000
// diagonals or more (wavefront_compute_edit_exact_prune), which moves the ends the
// heuristics then see (README and gale.h say so).
#include <climits>

#include "wfa_core.h"

namespace gale {
namespace wfacpu {

namespace {

// -WAVEFRONT_OFFSET_NULL: the distance WFA2-lib gives a null cell.
constexpr int32_t kNullDistance = 1 << 30;

// wf_distance_end2end
inline int32_t distance_end2end(int32_t offset, int32_t k, int32_t m, int32_t n) {
    if (offset < 0) return kNullDistance;
    const int32_t left_v = m - (offset - k), left_h = n - offset;
    return std::max(left_v, left_h);
}

// C's float-to-int conversion as x86-64 does it (cvttss2si): out of range and NaN
// give INT_MIN (WFA2-lib divides by a length that may be 0).
inline int32_t float_to_int(float f) {
    if (!(f > -2147483904.0f && f < 2147483648.0f)) return INT_MIN;
    return (int32_t)f;
}

// wf_distance_end2end_weighted (wfmash): WFA2-lib's float arithmetic, step by step.
inline int32_t distance_weighted(int32_t offset, int32_t k, int32_t m, int32_t n, int32_t mfactor) {
    const int32_t v = offset - k, h = offset;
    volatile float lv = (float)(m - v) / (float)m;  // volatile: no contraction, no reordering
    volatile float lh = (float)(n - h) / (float)n;
    const int32_t left_v = float_to_int(lv * (float)mfactor);
    const int32_t left_h = float_to_int(lh * (float)mfactor);
    return offset >= 0 ? std::max(left_v, left_h) : kNullDistance;
}

}  // namespace

// Cuts M at the last score to [lo, hi] (empty when lo > hi) and the gap components
// at that score to the same range (wf_heuristic_equate); the cells cut become null,
// so that no later score reads them.
void Dir::cut_to(int32_t lo, int32_t hi) {
    for (int c = 0; c < kComps; ++c) {
        Wave &w = slot(s, c);
        if (!w.has) continue;
        const int32_t nlo = std::max(w.lo, lo), nhi = std::min(w.hi, hi);
        if (nlo > nhi) {
            std::fill(w.at(w.lo), w.at(w.hi) + 1, kNull);
            w.has = false;
            continue;
        }
        std::fill(w.at(w.lo), w.at(nlo), kNull);
        std::fill(w.at(nhi) + 1, w.at(w.hi) + 1, kNull);
        w.lo = nlo;
        w.hi = nhi;
    }
}

// wavefront_heuristic_cufoff, for M at score s (already trimmed by Dir::step).
void Dir::cutoff() {
    Heuristic &H = heur;
    Wave *Mw = get(s, cM);
    if (!Mw) return;  // WFA2-lib: mwavefront == NULL || lo > hi: no step counted
    const auto O = [Mw](int32_t k) { return *Mw->at(k); };  // M's offset on diagonal k (within its range)
    int32_t lo = Mw->lo, hi = Mw->hi;
    --H.steps_wait;
    const int32_t alignment_k = n - m;
    // WF-adaptive / wfmash
    if (H.strategy & (GALE_WFA_H_WFADAPTIVE | GALE_WFA_H_WFMASH)) {
        const bool wfmash = !(H.strategy & GALE_WFA_H_WFADAPTIVE);
        if (H.steps_wait <= 0 && hi - lo + 1 >= H.min_wavefront_length) {
            // wf_compute_distance_end2end(_weighted), then wf_heuristic_wfadaptive_reduce
            // with min_k = max_k = the alignment's diagonal.
            dist.resize((size_t)(hi - lo + 1));
            int32_t min_distance = std::max(m, n);
            const int32_t mfactor = float_to_int((float)(m + n) / 2);
            for (int32_t k = lo; k <= hi; ++k) {
                const int32_t d = wfmash ? distance_weighted(O(k), k, m, n, mfactor) : distance_end2end(O(k), k, m, n);
                dist[(size_t)(k - lo)] = d;
                min_distance = std::min(min_distance, d);
            }
            const int32_t base_lo = lo, thr = H.max_distance_threshold;
            const int32_t top_limit = std::min(alignment_k, hi);
            int32_t lo_reduced = lo;
            for (int32_t k = lo; k < top_limit; ++k) {
                if (dist[(size_t)(k - base_lo)] - min_distance <= thr) break;
                ++lo_reduced;
            }
            lo = lo_reduced;
            const int32_t bottom_limit = std::max(alignment_k, lo);
            int32_t hi_reduced = hi;
            for (int32_t k = hi; k > bottom_limit; --k) {
                if (dist[(size_t)(k - base_lo)] - min_distance <= thr) break;
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
                lo = std::max(new_lo, old_lo);
                hi = (int32_t)std::min<int64_t>((int64_t)new_lo + max_wf_length - 1, old_hi);
            }
            H.steps_wait = H.steps_between_cutoffs;
        }
    }
    // Always: WFA2-lib equates the gap components to M's range whether or not M was cut.
    cut_to(lo, hi);
}

}  // namespace wfacpu
}  // namespace gale
