// Wavefront alignment (GALE_WFA, GALE_EDIT): the definitions shared by the CPU
// kernel (lib/cpu/wfa.cpp) and the CUDA kernel (cuda/wfa.cu). Both compute exactly
// the recurrence below, with the same ranges, the same tie-break and the same
// backtrace, so that they agree on every bit of a result (score, coordinates,
// CIGAR, cells).
//
// Names. The pattern P = task.v (length m; SAM's read, the query) and the text
// T = task.h (length n; the reference). A point is (h, v): h bases of the text
// and v bases of the pattern consumed. Diagonal k = h - v; a wavefront cell holds
// the furthest offset h reached on diagonal k at score s (v = h - k).
// Components: M (ends in a match/mismatch column), D1/D2 (ends in a gap that
// consumes the TEXT only: SAM 'D', WFA2-lib's "I"), I1/I2 (a gap that consumes
// the PATTERN only: SAM 'I', WFA2-lib's "D"). Penalties: mismatch x, a gap of
// length L costs o + L*e (piece 1) or o2 + L*e2 (piece 2, two-piece only).
// Edit distance is the special case with M only: x = 1 and gaps of cost 1.
//
// The other metrics and the match score reduce to these kernels (lib/kinds.cpp
// sets metric and penalties; since 0.6), so both backends run them unchanged:
//  - gap-linear (mismatch x, gap i per base) is gap-affine with x, o = 0, e = i.
//    With o = 0, D1[s][k] = M[s-e][k-1] + 1 (D1 <= M on every cell, so the
//    opening source is the maximum either way; a tie takes the extension, which
//    costs the same), which is gap-linear's recurrence: the same offsets, scores
//    and ranges.
//  - indel (LCS distance: gaps of 1 only) is gap-affine with x = 2, o = 0, e = 1:
//    X = M[s-2][k] + 1 is the offset that an I then a D reach from M[s-2][k]
//    (with the same bounds), so the offsets are indel's. An X of the backtrace
//    is written to the CIGAR as a D then an I (wfa_replay), so the CIGAR has no
//    mismatch and its indel distance is the score.
//  - a match score m < 0 (WFA2-lib's Eizenga transformation): the penalties are
//    2x - 2m, 2o, 2e - m (2o2, 2e2 - m; gap-linear 2i - m), the kernels find the
//    least transformed penalty P, and the score reported is WFA2-lib's
//    (-m (M + N) - P) / 2 (wfa_report_score). With free begins, as in WFA2-lib,
//    the start on diagonal j != 0 costs -m |j|: it is not at s = 0 but at
//    s = -m |j| (the begin-free diagonals, kSrcStart below); the GPU does not run
//    those tasks (they are computed on the CPU, flagged GALE_RF_RESCUED).
//
// Offsets are int32; kNull marks "no path". A value is valid iff it is >= 0; every
// formula below may add small numbers to kNull and stays far below 0.
//
// Recurrence, for s = 1, 2, ... (affine; two-piece adds D2/I2 the same way):
//   D1[s][k] = max(M[s-o-e][k-1], D1[s-e][k-1]) + 1;   null if > n
//   I1[s][k] = max(M[s-o-e][k+1], I1[s-e][k+1]);       null if h - k > m (v > m)
//   X        = M[s-x][k] + 1;  null if M[s-x][k] is null, or X > n, or X - k > m
//   M[s][k]  = max(X, D1[s][k], I1[s][k] [, D2[s][k], I2[s][k]]), then extended:
//              while h < n and v < m and P[v] matches T[h]: h += 1.
// Edit: M[s][k] = max(X = M[s-1][k] + 1, D = M[s-1][k-1] + 1, I = M[s-1][k+1]),
//   each candidate nulled alone by the same bounds (X: h <= n and v <= m; D: h <= n;
//   I: v <= m), then extended.
// A source at a score < 0 or outside its stored range is null.
//
// Ranges. Each component of score s has a diagonal range [lo, hi] (or none):
//   D1: [min(lo of M[s-o-e], lo of D1[s-e]) + 1, max(hi of the two) + 1]
//   I1: [min(lo of the two sources) - 1,        max(hi of the two) - 1]
//   M:  the hull of the ranges of M[s-x], D1, I1 (, D2, I2) at s
//   (edit: M: [lo of M[s-1] - 1, hi of M[s-1] + 1]); sources without a range are
//   left out; a component with no source has no range. Each gap component's range
//   is clamped to [-m, n] first (none if empty); M's range is the hull of those
//   clamped ranges and M[s-x]'s, clamped again. Cells within a range may be null.
//
// Start (s = 0): M only, on the diagonals k in [-min(PB, m), min(TB, n)] with
//   offset max(k, 0) (PB, TB: the begin-free lengths; 0 and 0 = end-to-end), each
//   extended as above. With a match score (a = -match > 0) only k = 0 starts at
//   s = 0; diagonal j (1 <= j <= TB) and -j (j <= PB) start at s = a j: M's range
//   at that score takes them in, and the cell takes offset j (resp. 0) when its
//   computed offset is null or no further (WFA2-lib's tie), code source kSrcStart.
// End: after M[s] is extended, the alignment ends at the first s with a diagonal k
//   whose M offset h (v = h - k) satisfies (h == n and m - v <= PE) or
//   (v == m and n - h <= TE); among such diagonals the lowest k wins. End-to-end
//   (PE = TE = 0) is the diagonal n - m with h == n.
// cells = the sum over s = 0 .. final s of the width of M's range (0 if none).
//
// Tie-break (which source a cell took; the backtrace follows it):
//   M: the first maximum in the order X, D1, I1, D2, I2 (edit: X, D, I);
//   D1, I1, D2, I2: extension (from the same component at s - e) before opening
//   (from M at s - o - e).
// Backtrace codes, one byte per cell of M's range at every score (kept for the
// backtrace in full-memory mode):
//   bits 0-2: M's source (WfaSrc: kSrcX, kSrcD1, kSrcI1, kSrcD2, kSrcI2; edit
//             uses kSrcX, kSrcD1 for its D and kSrcI1 for its I, and no other bits)
//   bit 3: D1 extended   bit 4: I1 extended   bit 5: D2 extended   bit 6: I2 extended
//   (the field or bit of a component that is null, or outside its range, is 0;
//   cells of M's range outside every component's range have code 0)
// Backtrace: from (s_end, k_end, M), walk the codes back to s = 0, collecting the
// operations, which yields the start diagonal k0. Operations: X (len 1); for the
// affine metrics one op per gap run, from its opening to the M cell it ends in
// (len = the run's length; two runs back to back through M are two ops); for edit
// every D or I step is its own op of len 1 (each lands in M). The CIGAR is then rebuilt forwards by wfa_replay(): from (max(k0,0),
// max(-k0,0)), extend matches, apply an operation, and extend matches again
// whenever the path is back in M — the matches between two operations are exactly
// the greedy extension, because the recurrence extends greedily.
//
// Score-only scope: no codes, no CIGAR; the begins are reported as -1 when the
// task's clamped begin-free lengths are not both 0 (the start is then unknown),
// else 0 and 0.
//
// Low-memory mode (CPU only): when the codes of a full-memory alignment would
// exceed the memory limit, i.e. when its cells exceed GALE_P_MEMORY_LIMIT MiB, the
// CPU recomputes the task bidirectionally (BiWFA) and flags it GALE_RF_LOWMEM; the
// score is the same, the CIGAR is optimal but may break ties differently, cells
// counts the abandoned attempt and both directions. The GPU never runs it: such
// tasks exceed the GPU budget and are rescued on the CPU, so a result never
// depends on the backend.
//
// Memory of one alignment: the bounds are documented once, in gale/wfa.h
// (GALE_P_MEMORY_LIMIT). How the CPU kernel (lib/cpu/wfa*.cpp, lib/cpu/wfa_core.h)
// keeps to them: an offset array holds the diagonals -m - 1 .. n + 16 that the cell
// loops touch (about 1.5 W + 60 while the range W is narrower, with slack to grow
// into); the codes are kept in 1 MiB blocks (never copied on growth) plus one
// staging row, and the row that would take them past the limit is not stored (the
// alignment is then recomputed in low-memory mode, after the abandoned attempt's
// codes are freed); a half of a low-memory split where one sequence is empty is a
// single gap and runs without codes.
#ifndef GALE_WFA_H
#define GALE_WFA_H

#include <atomic>
#include <cstdint>
#include <vector>

#include "arena.h"
#include "gale.h"
#include "sequence.h"
#include "xdrop.h"  // GALE_HD, kBaseN

namespace gale {

constexpr int32_t kNull = -(1 << 30);
constexpr int32_t kPenaltyBound = 4096;

// The metric the kernels run.
enum WfaMetric : int32_t { kMetricAffine = 0, kMetricAffine2p = 1, kMetricEdit = 2 };
// The metric of the batch's kind (what the score means; indel and gap-linear run as
// kMetricAffine, see above).
enum WfaKindMetric : int32_t { kKindAffine = 0, kKindAffine2p = 1, kKindEdit = 2, kKindIndel = 3, kKindLinear = 4 };

// M's source, bits 0-2 of a backtrace code. kSrcStart: a begin-free start at a
// score above 0 (match score < 0 only): the backtrace ends there.
enum WfaSrc : uint8_t { kSrcX = 0, kSrcD1 = 1, kSrcI1 = 2, kSrcD2 = 3, kSrcI2 = 4, kSrcStart = 5 };
constexpr uint8_t kExtD1 = 1u << 3, kExtI1 = 1u << 4, kExtD2 = 1u << 5, kExtI2 = 1u << 6;

struct WfaParams {
    int32_t metric = kMetricAffine;   // from the batch's kind and GALE_P_PENALTY_GAP_EXTEND2
    int32_t x = 4, o = 6, e = 2, o2 = 0, e2 = 0;  // the kernels' penalties; edit: 1, 0, 1, -, -
    int32_t kind_metric = kKindAffine; // WfaKindMetric
    int32_t match = 0;                // GALE_P_PENALTY_MATCH (<= 0); x..e2 are then transformed
    int32_t scope = GALE_SCOPE_ALIGNMENT;
    int32_t n_policy = GALE_N_DNA5;
    int64_t pattern_begin_free = 0, pattern_end_free = 0, text_begin_free = 0, text_end_free = 0;
    int64_t memory_limit_mib = 256;   // GALE_P_MEMORY_LIMIT
    int32_t expected_error = 100;     // GALE_P_EXPECTED_ERROR, per mille (GPU sizing only)
    int32_t gpu_backtrace = 0;        // GALE_P_GPU_BACKTRACE (deprecated: no effect)
    // WFA2-lib 2.3.3's heuristics (gale/wfa.h, GALE_P_WFA_HEURISTIC; since 0.7): the strategy
    // bits (GALE_WFA_H_*, WFA2-lib's wf_heuristic_strategy values) and its parameters.
    // Both backends (the CUDA kernel's heuristic mode: cuda/common/wfa_heuristic.cuh, align_heuristic).
    int32_t heuristic = 0;
    int32_t h_min_wavefront_length = 10, h_max_distance_threshold = 50, h_steps_between_cutoffs = 1;
    int32_t h_xdrop = 100, h_zdrop = 100, h_band_min_k = -100, h_band_max_k = 100;
    // Test-only hooks (gale/experimental.h, GALE_PX_*): force the GPU
    // kernel's group shape; 0 = chosen by the dispatcher. Never change a result.
    int32_t test_group_threads = 0;   // GALE_PX_WFA_GROUP_THREADS
    int32_t test_units_per_sm = 0;    // GALE_PX_WFA_UNITS_PER_SM
};

struct WfaResult {
    int64_t score = 0;                // as gale/wfa.h defines it (negative penalty / distance)
    int64_t h_begin = 0, h_end = 0, v_begin = 0, v_end = 0;
    uint64_t cells = 0;
    uint32_t flags = 0;
    VarSpan cigar;                    // BAM-style (GALE_CIGAR_*), in the batch's ResultArena
};

// Do two encoded bases match? (N per the policy, as in X-drop.)
GALE_HD bool wfa_match(uint8_t a, uint8_t b, int32_t n_policy) {
    return a == b && (a != kBaseN || n_policy != GALE_N_MISMATCH);
}

// The score gale reports for the kernels' least penalty s of a pattern of m and a
// text of n bases (gale/wfa.h, "Wavefront alignment"; C's division, as WFA2-lib's).
GALE_HD int64_t wfa_report_score(const WfaParams &p, int64_t s, int64_t m, int64_t n) {
    if (p.kind_metric == kKindEdit || p.kind_metric == kKindIndel) return s;
    if (p.match == 0) return -s;
    return ((int64_t)-p.match * (m + n) - s) / 2;
}

// The begin-free diagonals +-j start at s = j * a (a = -match > 0; lib/wfa.h above):
// the j that starts at score s, or 0 if none.
GALE_HD int64_t wfa_free_start(int32_t a, int64_t s) { return a > 0 && s > 0 && s % a == 0 ? s / a : 0; }

// Begin/end-free lengths of one task: the parameters clamped to its lengths.
struct WfaFree {
    int64_t pb, pe, tb, te;
};
GALE_HD WfaFree wfa_free(const WfaParams &p, int64_t m, int64_t n) {
    WfaFree f;
    f.pb = p.pattern_begin_free < m ? p.pattern_begin_free : m;
    f.pe = p.pattern_end_free < m ? p.pattern_end_free : m;
    f.tb = p.text_begin_free < n ? p.text_begin_free : n;
    f.te = p.text_end_free < n ? p.text_end_free : n;
    return f;
}

// One backtrace operation, in path order: an op code (GALE_CIGAR_DIFF, _INS, _DEL) and
// how many bases it covers (X runs are 1 each; a gap run is one whole gap).
struct WfaOp {
    uint32_t code;
    uint32_t len;
};

// Rebuilds the CIGAR from the start diagonal and the operations in path order
// (shared by both backends: the GPU hands back k0 and the ops). Appends to cigar,
// merging equal neighbours. Returns false if the ops do not fit the sequences
// (an internal error).
bool wfa_replay(const PairTask &t, const WfaParams &p, int64_t k0, const WfaOp *ops, size_t n_ops,
                int64_t *h_end, int64_t *v_end, std::vector<uint32_t> &cigar);

// CPU kernel (lib/cpu/wfa.cpp): computes one task into r and its CIGAR into cigar
// (cleared first; r.cigar is the caller's to set, from the batch's arena).
// ws is scratch reused between calls on one thread. Returns false, r and cigar
// meaningless, when it stopped because *cancel was raised (polled once per score, in
// every mode; cancel may be nullptr: never). Throws gale::Error (GALE_E_NOMEM when
// even low-memory mode cannot get its memory).
struct WfaWorkspace;
bool wfa_task_cpu(const PairTask &t, const WfaParams &p, WfaResult &r, std::vector<uint32_t> &cigar,
                  WfaWorkspace *&ws, const std::atomic<bool> *cancel = nullptr);
void wfa_workspace_free(WfaWorkspace *ws);

}  // namespace gale

#endif
