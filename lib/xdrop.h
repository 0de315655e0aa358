// X-drop seed extension: the definitions shared by the CPU kernel (lib/cpu/xdrop.cpp)
// and the CUDA kernel (cuda/xdrop.cu), so that both do the same arithmetic.
//
// The algorithm is SeqAn 2.4's _extendSeedGappedXDropOneDirection, restated:
//  - the DP matrix has cols (SeqAn's "query" = gale's v) and rows (SeqAn's
//    "database" = gale's h); it is filled anti-diagonal by anti-diagonal, d = col + row;
//  - a cell is dropped when its score is strictly below best - X, where best is
//    the maximum over the anti-diagonals finished before;
//  - [minCol, maxCol) is the live band; it grows by at most one cell per side and
//    anti-diagonal and the loop stops when it is empty;
//  - the end cell is the last computed cell if alive, else an alive end cell of
//    the previous anti-diagonal, else the best cell of the one before (lowest col).
// SeqAn marks dropped cells with INT_MIN - gap and lets arithmetic run on it; that
// wraps when mismatch < gap. gale uses kUndef = -2^30 instead: with the bounds on
// scores (|s| <= 2^20) and X (<= 2^29), every kept cell is >= -X > kUndef + |s|,
// so a value derived from a dropped cell never survives and never wraps. This is
// the algorithm's true result, equal to SeqAn wherever SeqAn's arithmetic is sound.
#ifndef GALE_XDROP_H
#define GALE_XDROP_H

#include <atomic>
#include <climits>
#include <cstdint>
#include <vector>

#include "gale.h"
#include "hd.h"
#include "sequence.h"

namespace gale {

constexpr int32_t kUndef = -(1 << 30);
constexpr int32_t kScoreBound = 1 << 20;  // |match|, |mismatch|, |gap| <= this
constexpr int32_t kXdropBound = 1 << 29;  // 0 <= X <= this
constexpr uint8_t kBaseN = 4;             // encoded bases: A C G T = 0..3, N = 4

struct XdropParams {
    int32_t match = 1, mismatch = -1, gap = -1, xdrop = 100;
    int32_t n_policy = GALE_N_DNA5;   // or GALE_N_MISMATCH, GALE_N_BYTES
    int32_t direction = GALE_DIR_BOTH;
};

// Substitution score of two encoded bases (lib/sequence.h: Dna5 codes 0..4, or under
// GALE_N_BYTES one code per byte, so that equal codes are equal bytes).
GALE_HD int32_t xdrop_subst(uint8_t a, uint8_t b, const XdropParams &p) {
    bool same = (a == b) && (a != kBaseN || p.n_policy != GALE_N_MISMATCH);
    return same ? p.match : p.mismatch;
}

// When no cell of the last three anti-diagonals is alive, SeqAn returns its
// "undefined" marker, INT_MIN - gap in its int instantiation, and leaves the seed
// where it was. gale reports the same value (the seed does not move either).
GALE_HD int32_t xdrop_no_end_score(const XdropParams &p) { return INT32_MIN - p.gap; }

using XdropTask = PairTask;

struct XdropResult {
    int32_t score_left = 0, score_right = 0;
    int64_t h_begin = 0, h_end = 0, v_begin = 0, v_end = 0;
    uint64_t cells = 0;
    uint32_t flags = 0;
};

// Result of one direction: the score and how far the seed moves on h (rows) and v (cols).
struct XdropSide {
    int32_t score = 0;
    int64_t rows = 0, cols = 0;
    uint64_t cells = 0;
};

// Where the sequence under one extension starts: row r (1-based) of the DP matrix
// reads h[h0 + step*(r-1)], col c reads v[v0 + step*(c-1)]; step is +1 to the
// right of the seed and -1 to the left.
struct XdropSpan {
    int64_t h0, h_n, v0, v_n;
    int step;
};

GALE_HD XdropSpan xdrop_span(const XdropTask &t, bool left) {
    XdropSpan s;
    if (left) { s.h0 = t.h_begin - 1; s.h_n = t.h_begin; s.v0 = t.v_begin - 1; s.v_n = t.v_begin; s.step = -1; }
    else { s.h0 = t.h_end; s.h_n = t.h_len - t.h_end; s.v0 = t.v_end; s.v_n = t.v_len - t.v_end; s.step = 1; }
    return s;
}

// CPU kernel (lib/cpu/xdrop.cpp). ws is scratch reused between calls. Both return
// false, their output unset, when they stopped because *cancel was raised (polled
// every 2^16 cells; cancel may be nullptr: never).
bool xdrop_extend_cpu(const uint8_t *h, const uint8_t *v, const XdropSpan &s, const XdropParams &p,
                      std::vector<int32_t> &ws, const std::atomic<bool> *cancel, XdropSide &out);
bool xdrop_task_cpu(const XdropTask &t, const XdropParams &p, XdropResult &r, std::vector<int32_t> &ws,
                    const std::atomic<bool> *cancel = nullptr);

// Combine the two sides into a result (shared by both backends).
GALE_HD void xdrop_finish(const XdropTask &t, const XdropSide &left, const XdropSide &right,
                          XdropResult &r) {
    r.score_left = left.score;
    r.score_right = right.score;
    r.h_begin = t.h_begin - left.rows;
    r.v_begin = t.v_begin - left.cols;
    r.h_end = t.h_end + right.rows;
    r.v_end = t.v_end + right.cols;
    r.cells = left.cells + right.cells;
}

}  // namespace gale

#endif
