// CPU kernel of gapped X-drop seed extension: the semantics of record.
// It reproduces SeqAn 2.4's _extendSeedGappedXDropOneDirection step for step
// (see lib/xdrop.h for the algorithm and for why dropped cells are kUndef).
#include "xdrop.h"

#include <algorithm>

namespace gale {

namespace {

// Cells between two looks at the cancel flag: about 30 us of one core's work, so
// that a cancel stops an extension of any size at once, for one compare per
// anti-diagonal and one relaxed load per 2^16 cells.
constexpr uint64_t kCancelPollCells = (uint64_t)1 << 16;

// One anti-diagonal: vals[i] is the cell in column off + i.
struct AntiDiag {
    int32_t *vals;
    int64_t off, len;
    int32_t at(int64_t col) const { return vals[col - off]; }
};

// The direction is a template parameter so that the cell loop reads both
// sequences with unit stride (and the compiler can vectorise it). Returns false,
// out unset, when it stopped on the cancel flag (may be nullptr).
template <int STEP>
bool extend(const uint8_t *h, const uint8_t *v, const XdropSpan &s, const XdropParams &p,
            std::vector<int32_t> &ws, const std::atomic<bool> *cancel, XdropSide &out) {
    out = XdropSide{};
    const int64_t cols = s.v_n + 1, rows = s.h_n + 1;
    if (rows == 1 || cols == 1) return true;

    // No anti-diagonal holds more than min(cols, rows) + 1 cells plus its two borders.
    const int64_t cap = std::min(cols, rows) + 3;
    if ((int64_t)ws.size() < 3 * cap) ws.resize(3 * cap);
    AntiDiag a1{ws.data(), 0, 0}, a2{ws.data() + cap, 0, 1}, a3{ws.data() + 2 * cap, 0, 2};

    // Locals, not p's fields: stores to the int32 anti-diagonals could alias them.
    const int32_t gap = p.gap, X = p.xdrop;
    // Substitution scores by table: a branch on match/mismatch would be mispredicted
    // on every edit. kByteCodes rows: every code of every policy (lib/sequence.h).
    int32_t subst[kByteCodes][kByteCodes];
    for (uint8_t a = 0; a < kByteCodes; ++a)
        for (uint8_t b = 0; b < kByteCodes; ++b) subst[a][b] = xdrop_subst(a, b, p);
    a2.vals[0] = 0;
    a3.vals[0] = a3.vals[1] = (-gap > X) ? kUndef : gap;  // anti-diagonal 1

    int64_t d = 1, minCol = 1, maxCol = 2;
    int32_t best = 0;
    uint64_t cells = 0, poll_at = kCancelPollCells;
    const uint8_t *hp = h + s.h0, *vp = v + s.v0;

    while (minCol < maxCol) {
        ++d;
        std::swap(a1, a2);  // a1 <- a2 <- a3 <- old a1
        std::swap(a2, a3);
        a3.off = minCol - 1;
        a3.len = maxCol + 1 - a3.off;
        int32_t *c3 = a3.vals;
        c3[0] = kUndef;
        c3[a3.len - 1] = kUndef;
        // Border cells (first column, first row): SeqAn keeps them only when strictly above best - X.
        if (d * (int64_t)gap > (int64_t)best - X) {
            if (a3.off == 0) c3[0] = (int32_t)(d * gap);
            if (d == maxCol) c3[maxCol - a3.off] = (int32_t)(d * gap);
        }

        const int32_t floor = best - X;
        int32_t diagBest = kUndef;
        const int32_t *p2 = a2.vals - a2.off, *p1 = a1.vals - a1.off;  // indexed by column
        int32_t *p3 = c3 - a3.off;
        for (int64_t col = minCol; col < maxCol; ++col) {
            const int64_t row = d - col;
            const uint8_t vb = vp[STEP * (col - 1)], hb = hp[STEP * (row - 1)];
            const int32_t s = subst[vb & (kByteCodes - 1)][hb & (kByteCodes - 1)];
            const int32_t t = std::max(std::max(p2[col - 1], p2[col]) + gap, p1[col - 1] + s);
            const bool keep = t >= floor;  // dropped: strictly below best - X
            p3[col] = keep ? t : kUndef;
            diagBest = std::max(diagBest, keep ? t : kUndef);
        }
        cells += (uint64_t)(maxCol - minCol);
        best = std::max(best, diagBest);
        if (cells >= poll_at) {
            if (cancel && cancel->load(std::memory_order_relaxed)) return false;
            poll_at = cells + kCancelPollCells;
        }

        // New band: first column alive on this anti-diagonal or (one column left) on the last,
        // and one past the last column alive on either.
        while (minCol <= maxCol && p3[minCol] == kUndef && p2[minCol - 1] == kUndef) ++minCol;
        while (maxCol > a3.off && p3[maxCol - 1] == kUndef && p2[maxCol - 1] == kUndef) --maxCol;
        ++maxCol;
        minCol = std::max(minCol, d + 2 - rows);  // end of h reached
        maxCol = std::min(maxCol, cols);          // end of v reached
    }

    // The end cell.
    int64_t col = a3.off + a3.len - 2, row = d - col;
    int32_t score = a3.at(col);
    if (score == kUndef) {
        if (a2.vals[a2.len - 2] != kUndef) {  // reached the end of v
            col = a2.off + a2.len - 2;
            row = d - 1 - col;
            score = a2.at(col);
        } else if (a2.len > 2 && a2.vals[a2.len - 3] != kUndef) {  // reached the end of h
            col = a2.off + a2.len - 3;
            row = d - 1 - col;
            score = a2.at(col);
        }
    }
    if (score == kUndef) {
        for (int64_t i = 0; i < a1.len; ++i) {
            if (a1.vals[i] > score) {
                score = a1.vals[i];
                col = i + a1.off;
                row = d - 2 - col;
            }
        }
    }
    out.cells = cells;
    if (score != kUndef) {
        out.score = score;
        out.rows = row;
        out.cols = col;
    } else {
        out.score = xdrop_no_end_score(p);
    }
    return true;
}

}  // namespace

bool xdrop_extend_cpu(const uint8_t *h, const uint8_t *v, const XdropSpan &s, const XdropParams &p,
                      std::vector<int32_t> &ws, const std::atomic<bool> *cancel, XdropSide &out) {
    return s.step > 0 ? extend<1>(h, v, s, p, ws, cancel, out) : extend<-1>(h, v, s, p, ws, cancel, out);
}

bool xdrop_task_cpu(const XdropTask &t, const XdropParams &p, XdropResult &r, std::vector<int32_t> &ws,
                    const std::atomic<bool> *cancel) {
    XdropSide left, right;
    if ((p.direction & GALE_DIR_LEFT) && !xdrop_extend_cpu(t.h, t.v, xdrop_span(t, true), p, ws, cancel, left))
        return false;
    if ((p.direction & GALE_DIR_RIGHT) && !xdrop_extend_cpu(t.h, t.v, xdrop_span(t, false), p, ws, cancel, right))
        return false;
    xdrop_finish(t, left, right, r);
    return true;
}

}  // namespace gale
