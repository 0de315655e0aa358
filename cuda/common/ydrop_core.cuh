// LASTZ's one-sided Y-drop extension (gapped_extend.c, ydrop_one_sided_align) without
// bounds, for phase 1 of the parallel scheme (doc/ydrop.md, "Parallel extension"): what
// lib/cpu/ydrop_run.h's Run::one_sided computes for a SideRec when no alignment exists
// yet, bit for bit (the cells, the DP row it leaves, the traceback bytes, the rows'
// records, the truncation, the traceback and its reads of bytes not written), written
// for a group of G::size threads that sweep each row together. cuda/ydrop.cu runs it
// with a warp per extension, or a block of several warps for the longest ones;
// tests/unit/ydrop_core_host.cpp runs it on host groups of 1 and 4 threads against the
// CPU kernel.
//
// LASTZ sweeps a row from left to right with three values carried along it: c (the
// diagonal of the next cell), i (the horizontal gap) and the best score, and prunes a
// cell below best - ydrop. The group computes G::size cells at a time:
//  - The diagonal and the vertical gap d of a cell come from the row above (its DP row),
//    so each lane reads them itself; only the last lane's value is carried on.
//  - The gap i obeys I(j+1) = max(I(j), open(j) + e (j+1)) with I(j) = i(j) + e j, where
//    open(j) = diag(j) - (q + e) unless d(j) > diag(j) (LASTZ's gap cells extend i by -e
//    and open none; "no back-to-back gaps"), and a pruned cell resets i to -infinity:
//    a segmented prefix maximum (scan B).
//  - Which cells are pruned depends on i and on the best score, which depends on which
//    cells are pruned. Scan A breaks the circle: it computes i' without the resets. i'
//    differs from i only by values that descend from a pruned cell, which stay below
//    best - ydrop (the best only grows), so max(d, i', diag) is below best - ydrop exactly
//    when max(d, i, diag) is, an unpruned cell is a diagonal or a gap cell under i' as
//    under i, and the best before each cell (a prefix maximum of the diagonal cells'
//    scores: a cell that is pruned cannot raise it) is the same. Then scan B gives the
//    exact i for the cells' links (iExtend) and for the row's tail.
//  - The leading pruned cells move LY (they write no DP cell; i stays -infinity, which
//    the reset gives too); the other cells write the DP row in place, at col - LY, never
//    past what a lane of the same step has read.
// Values are LASTZ's 32-bit ints with its wrapping arithmetic; the scans run in 64 bits,
// which equals LASTZ's int only while i - e does not wrap below INT_MIN (a row of about
// 7 million cells of one gap at e = 30): such a half is marked failed, and the walk
// computes it on the CPU.
#ifndef GALE_CUDA_YDROP_CORE_CUH
#define GALE_CUDA_YDROP_CORE_CUH

#include <climits>
#include <cstdint>

#if defined(__CUDACC__)
#define GALE_YD_HD __host__ __device__ __forceinline__
#define GALE_YD_GROUP __device__ __forceinline__  // calls the group's (device) functions
#else
#define GALE_YD_HD inline
#define GALE_YD_GROUP inline
#endif

namespace gale {
namespace ydg {

// LASTZ's sentinels and traceback codes, as lib/cpu/ydrop_run.h has them (the host test
// checks that they agree).
constexpr int32_t kNegInf = (int32_t)(0.9 * (double)INT32_MIN);
constexpr uint32_t kMaxRepeat = (1u << 30) - 1;
constexpr uint8_t cFromC = 0, cFromI = 1, cFromD = 2, iExtend = 4, dExtend = 8, cidBits = 3;
constexpr uint32_t kOpIns = 1, kOpDel = 2, kOpSub = 3;  // lib/ydrop.h's kYdrop*
constexpr uint8_t kTail = 1, kTailLoop = 2, kTailIter = 4, kTailIStop = 8;  // RowRec's flags
constexpr int64_t kNone = INT64_MIN / 4;  // a scan's "no value"

// One half: the anchor (0-based on the target and the query strand) and which side.
struct YdIn {
    uint32_t anchor1, anchor2, left, pad;
};
// kYdOverCap: failed for want of room in its slot (a larger slot may take it)
enum : uint32_t { kYdFailed = 1, kYdTruncated = 2, kYdStale = 4, kYdOverCap = 8 };
struct YdOut {
    int32_t score;
    uint32_t end1, end2, flags;
    uint64_t cells;       // traceback bytes written (the CPU's SideRec::cells)
    uint32_t nrows, nops; // row records and script ops written
    uint32_t tail_op, pad;
};
struct YdRow {  // lib/cpu/ydrop_run.h's RowRec
    uint32_t LY, RY, Rw, flags;
};

// What every half of a launch shares: the sequences with a 0 byte before and after each
// (seq1 etc. point one past it, as the CPU's AlignIo), LASTZ's scores, its parameters.
struct YdParams {
    const uint8_t *seq1, *seq2, *rev1, *rev2;
    uint32_t len1, len2;
    const int32_t *sub;  // 256 x 256
    int32_t gapE, gapOE, yDrop;
    int32_t trimToPeak;
    int64_t tbLen;       // LASTZ's traceback cells (new_traceback), or "unlimited"
};

// One half's memory: its traceback bytes, the rows' records and offsets, the DP row
// (LASTZ's dynProg, DD and CC apart), the edit script.
struct YdSlot {
    uint8_t *tb;
    uint64_t tb_cap;
    YdRow *rows;
    uint32_t *tb_row;  // rows_cap + 1
    uint32_t rows_cap;
    int32_t *CC, *DD;
    uint32_t dp_cap;
    uint32_t *ops;
    uint32_t ops_cap;
};

// A slot's regions for the given capacities (a traceback of tb_cap bytes, rows_cap rows,
// a DP row of dp_cap cells, ops_cap script ops), and its size in bytes (256-aligned).
struct YdCaps {
    uint64_t tb_cap;
    uint32_t rows_cap, dp_cap, ops_cap;
};
GALE_YD_HD uint64_t yd_align(uint64_t b) { return (b + 255) / 256 * 256; }
GALE_YD_HD uint64_t yd_slot_bytes(const YdCaps &c) {
    return yd_align((uint64_t)c.rows_cap * sizeof(YdRow)) + yd_align(((uint64_t)c.rows_cap + 1) * 4) +
           2 * yd_align((uint64_t)c.dp_cap * 4) + yd_align((uint64_t)c.ops_cap * 4) + yd_align(c.tb_cap);
}
GALE_YD_HD YdSlot yd_slot(char *base, const YdCaps &c) {
    YdSlot s;
    uint64_t at = 0;
    s.rows_cap = c.rows_cap;
    s.rows = (YdRow *)(base + at);
    at += yd_align((uint64_t)c.rows_cap * sizeof(YdRow));
    s.tb_row = (uint32_t *)(base + at);
    at += yd_align(((uint64_t)c.rows_cap + 1) * 4);
    s.dp_cap = c.dp_cap;
    s.CC = (int32_t *)(base + at);
    at += yd_align((uint64_t)c.dp_cap * 4);
    s.DD = (int32_t *)(base + at);
    at += yd_align((uint64_t)c.dp_cap * 4);
    s.ops_cap = c.ops_cap;
    s.ops = (uint32_t *)(base + at);
    at += yd_align((uint64_t)c.ops_cap * 4);
    s.tb = (uint8_t *)(base + at);
    s.tb_cap = c.tb_cap;
    return s;
}

GALE_YD_HD int32_t wsub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
GALE_YD_HD int32_t wadd(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
GALE_YD_HD int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

// edit_script_add, on the half's op array (lane 0 alone).
GALE_YD_HD bool yd_script_add(const YdSlot &s, uint32_t &n, uint32_t &tailOp, uint32_t op, uint32_t rpt) {
    auto put = [&](uint32_t o, uint32_t r) {
        if (n >= s.ops_cap) return false;
        s.ops[n++] = (o & 3) | (r << 2);
        tailOp = o;
        return true;
    };
    if ((tailOp & 3) == op && n > 0) {
        uint32_t &tail = s.ops[n - 1];
        const uint32_t tailRpt = tail >> 2;
        if (tailRpt + rpt <= kMaxRepeat) {
            tail += rpt << 2;
            return true;
        }
        tail = (op & 3) | (kMaxRepeat << 2);
        rpt = tailRpt + rpt - kMaxRepeat;
    }
    while (rpt > kMaxRepeat) {
        if (!put(op, kMaxRepeat)) return false;
        rpt -= kMaxRepeat;
    }
    return put(op, rpt);
}

// One half with the group g (G: size, tid(), sync(), shfl_up_last, scan_max, scan_max32,
// seg_scan_max, any, last_where, first_where; cuda/ydrop.cu's WarpGroup and BlockGroup, the
// host test's groups), V columns a lane in each step (the scans run over the lanes' own V
// first). Lane 0 writes out. Nothing here assumes a warp: a lane is a thread of the group,
// so a block of several warps sweeps a row of G::size V columns in one step.
template <int V, class G>
GALE_YD_GROUP void yd_side(G &g, const YdParams &P, const YdIn &in, const YdSlot &S, YdOut &out) {
    constexpr int L = G::size;
    const int lane = g.tid();
    const bool lead = lane == 0;
    const uint8_t *A, *B;
    uint32_t M, N;
    if (in.left) {  // ydrop_align: the left half on the reversed copies, the anchor base in it
        A = P.rev1 + P.len1 - in.anchor1 - 2;
        B = P.rev2 + P.len2 - in.anchor2 - 2;
        M = in.anchor1 + 1;
        N = in.anchor2 + 1;
    } else {
        A = P.seq1 + in.anchor1;
        B = P.seq2 + in.anchor2;
        M = P.len1 - (in.anchor1 + 1);
        N = P.len2 - (in.anchor2 + 1);
    }
    uint32_t flags = 0, nrows = 0, nops = 0, tailOp = 0;
    int32_t bestScore = 0, boundaryScore = kNegInf;
    uint32_t end1 = 0, end2 = 0;
    bool endIsBoundary = false;
    uint64_t tbp = 0;
    const int32_t gapE = P.gapE, gapOE = P.gapOE, yDrop = P.yDrop;
    const int64_t tbLen = P.tbLen;
    int64_t yDropTail;
    uint32_t hw = 0;  // DP cells zeroed so far (LASTZ's dp_ready gives zeroed cells)
    auto ensure = [&](uint64_t n) -> bool {
        if (n > S.dp_cap) return false;
        if (n > hw) {
            for (uint64_t k = hw + (uint64_t)lane; k < n; k += L) S.CC[k] = S.DD[k] = 0;
            hw = (uint32_t)n;
            g.sync();
        }
        return true;
    };
    if (N == 0 || M == 0) goto done;
    if (gapE != 0) yDropTail = (yDrop / gapE) + 6;
    else yDropTail = N < 500000u ? (int64_t)N + 1 : 500000;
    if (yDropTail > tbLen) { flags |= kYdFailed; goto done; }  // (the CPU throws; the walk redoes it)
    {
        // first row (LASTZ's notes 8, 10, 13): col 0, then insertions while the last one >= -ydrop
        int64_t lim;
        if (gapOE > yDrop) lim = 1;
        else if (gapE == 0) lim = N;
        else lim = (int64_t)(yDrop - gapOE) / gapE + 2;
        const uint32_t RY0 = (uint32_t)((lim < (int64_t)N ? lim : (int64_t)N) + 1);
        if (!ensure(RY0) || RY0 > S.tb_cap || S.rows_cap < 1) { flags |= kYdFailed | kYdOverCap; goto done; }
        for (uint32_t k = (uint32_t)lane; k < RY0; k += L) {
            const int32_t cc = k == 0 ? 0 : (int32_t)(-(int64_t)gapOE - (int64_t)(k - 1) * gapE);
            S.CC[k] = cc;
            S.DD[k] = k == 0 ? -gapOE : wsub(cc, gapOE);
            S.tb[k] = k == 0 ? 0 : cFromI;
        }
        if (lead) S.tb_row[0] = 0;
        g.sync();
        tbp = RY0;
        uint32_t LY = 0, RY = RY0;
        const int32_t *sub0 = P.sub;
        for (uint32_t row = 1; row <= M; row++) {
            if (row > S.rows_cap) { flags |= kYdFailed | kYdOverCap; goto done; }
            if (lead) S.rows[row - 1] = YdRow{LY, RY, 0, 0};
            nrows = row;
            const uint32_t prevLY = LY;
            if (RY < LY) RY = LY;  // (LASTZ's note 11)
            const int64_t tbNeeded = (int64_t)(int)(RY - LY + (uint32_t)yDropTail);
            if ((int64_t)tbp + tbNeeded >= tbLen) { flags |= kYdTruncated; break; }
            if (lead) S.tb_row[row] = (uint32_t)tbp - LY;
            const uint32_t end = RY < N + 1 ? RY : N + 1;  // the sweep stops past column N
            if (!ensure((uint64_t)(RY - prevLY) + 1) || tbp + (end > LY ? end - LY : 0) > S.tb_cap) {
                flags |= kYdFailed | kYdOverCap;
                goto done;
            }
            const int32_t *sub = sub0 + 256 * A[row];
            const uint32_t LY0 = LY;
            int64_t carryA = (int64_t)kNegInf + (int64_t)gapE * LY0, carryB = carryA;
            int64_t bestC = bestScore, bndC = boundaryScore;
            int32_t lastCC = kNegInf;
            bool prefix = true;
            uint32_t prefixLen = 0, npCol = LY0;
            // this step's substitution scores, sub[B[col]], loaded a step ahead: the two
            // dependent loads would otherwise stand in the step's chain (a warp sweeps one
            // long half alone, so nothing hides their latency)
            int32_t sv[V];
#pragma unroll
            for (int v = 0; v < V; ++v) {
                const uint32_t c0 = LY0 + (uint32_t)(lane * V + v);
                sv[v] = c0 < end ? sub[B[c0]] : 0;
            }
            // a step: lane l takes the V columns base + l V .. + V - 1
            for (uint32_t base = LY0; base < end; base += (uint32_t)(L * V)) {
                const int64_t e64 = gapE;
                uint32_t col[V];
                bool act[V], pruned[V];
                int32_t d[V], cc[V], diag[V];
                int64_t wA[V], iA[V], bestj[V];
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    col[v] = base + (uint32_t)(lane * V + v);
                    act[v] = col[v] < end;
                    const uint32_t dp = col[v] - prevLY;
                    d[v] = act[v] ? S.DD[dp] : 0;
                    cc[v] = act[v] ? S.CC[dp] : 0;
                }
                int32_t svNext[V];
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const uint32_t c1 = col[v] + (uint32_t)(L * V);
                    svNext[v] = c1 < end ? sub[B[c1]] : 0;
                }
                const int32_t ccBefore = g.shfl_up_last(cc[V - 1], lastCC, lastCC);
                // scan A: the gap without the resets
                int64_t loc = kNone;
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const int32_t prevcc = v == 0 ? ccBefore : cc[v - 1];
                    diag[v] = !act[v] ? 0 : col[v] == LY0 ? kNegInf : wadd(prevcc, sv[v]);
                    const int64_t open = d[v] > diag[v] ? kNone : (int64_t)diag[v] - gapOE;
                    wA[v] = act[v] && open != kNone ? open + e64 * (col[v] + 1) : kNone;
                    iA[v] = loc;  // (the lane's part of the exclusive prefix, for now)
                    loc = max64(loc, wA[v]);
                }
                int64_t totA;
                const int64_t exA = g.scan_max(loc, carryA, totA);
                // the best before each cell (its diagonal cells' scores): LASTZ's ints, so a
                // 32-bit scan (INT32_MIN for none: the carry, the best so far, is 0 or more)
                int32_t locB = INT32_MIN, bestLoc[V];
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    iA[v] = max64(exA, iA[v]) - e64 * col[v];
                    const bool diagA = !(d[v] > diag[v] || iA[v] > diag[v]);
                    bestLoc[v] = locB;
                    if (act[v] && diagA && diag[v] > locB) locB = diag[v];
                }
                int32_t totBest;
                const int32_t exBest = g.scan_max32(locB, (int32_t)bestC, totBest);
                // pruned cells, then scan B: the gap with the resets
                bool segF = false;
                int64_t segV = kNone;
                int64_t wB[V];
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    bestj[v] = exBest > bestLoc[v] ? exBest : bestLoc[v];
                    const int64_t cA = max64(max64(d[v], iA[v]), diag[v]);
                    pruned[v] = act[v] && cA < bestj[v] - yDrop;
                    wB[v] = !act[v] ? kNone : pruned[v] ? (int64_t)kNegInf + e64 * (col[v] + 1) : wA[v];
                    if (pruned[v]) { segF = true; segV = wB[v]; }
                    else segV = max64(segV, wB[v]);
                }
                int64_t totB;
                int64_t curB = g.seg_scan_max(segF, segV, carryB, totB);
                int32_t c[V], ddNew[V];
                uint8_t link[V];
                bool gapCell[V], bad = false;
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const int64_t i64 = curB - e64 * col[v];
                    curB = pruned[v] ? wB[v] : max64(curB, wB[v]);
                    const bool live = act[v] && !pruned[v];
                    if (live && i64 - e64 < (int64_t)INT32_MIN) bad = true;
                    const int32_t i = (int32_t)i64;
                    // the cell as LASTZ computes it (exact for the unpruned cells)
                    gapCell[v] = d[v] > diag[v] || i > diag[v];
                    c[v] = diag[v];
                    if (gapCell[v]) {
                        if (d[v] >= i) { c[v] = d[v]; link[v] = cFromD | iExtend | dExtend; }
                        else { c[v] = i; link[v] = cFromI | iExtend | dExtend; }
                        ddNew[v] = wsub(d[v], gapE);
                    } else {
                        const int32_t cOpen = wsub(c[v], gapOE), dd = wsub(d[v], gapE);
                        if (cOpen > dd) { ddNew[v] = cOpen; link[v] = cFromC; }
                        else { ddNew[v] = dd; link[v] = cFromC | dExtend; }
                        if (!(cOpen > wsub(i, gapE))) link[v] |= iExtend;
                    }
                }
                if (g.any(bad)) { flags |= kYdFailed; goto done; }
                // the best's and the boundary's updates: the last of them in the step sets the end
                bool anyElig = false;
#pragma unroll
                for (int v = 0; v < V; ++v)
                    anyElig |= act[v] && !pruned[v] && !gapCell[v] && !P.trimToPeak && (row == M || col[v] == N);
                int64_t bndj[V];
                int64_t totBnd = bndC;
#pragma unroll
                for (int v = 0; v < V; ++v) bndj[v] = bndC;
                if (g.any(anyElig)) {
                    int64_t locD = kNone;
#pragma unroll
                    for (int v = 0; v < V; ++v) {
                        const bool elig = act[v] && !pruned[v] && !gapCell[v] && !P.trimToPeak && (row == M || col[v] == N);
                        bndj[v] = locD;
                        if (elig) locD = max64(locD, c[v]);
                    }
                    const int64_t exD = g.scan_max(locD, bndC, totBnd);
#pragma unroll
                    for (int v = 0; v < V; ++v) bndj[v] = max64(exD, bndj[v]);
                }
                int lastEv = -1;
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    const bool live = act[v] && !pruned[v];
                    const bool bestEv = live && !gapCell[v] && (int64_t)c[v] >= bestj[v];
                    const bool elig = live && !gapCell[v] && !P.trimToPeak && (row == M || col[v] == N);
                    const bool bndEv = elig && (int64_t)c[v] >= bndj[v];
                    if (bestEv || bndEv) lastEv = 2 * v + (bndEv ? 1 : 0);
                }
                int32_t code;
                const int top = g.last_where(lastEv >= 0, lastEv, code);
                if (top >= 0) {
                    end1 = row;
                    end2 = base + (uint32_t)(top * V + code / 2);
                    endIsBoundary = (code & 1) != 0;
                }
                bestC = max64(bestC, (int64_t)totBest);
                bndC = totBnd;
                carryA = totA;
                carryB = totB;
                // the leading pruned cells move LY and write nothing
                int lastLive = -1, leadV = 0;
                bool allPruned = true;
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    if (act[v] && !pruned[v]) {
                        lastLive = v;
                        allPruned = false;
                    }
                    if (allPruned && act[v]) ++leadV;
                }
                int prefixLanes = 0, prefixCut = 0;  // this step's prefix cells: whole lanes, then cells
                if (prefix) {
                    int32_t cut;
                    const int leadN = g.first_where(!allPruned, leadV, cut);
                    prefixLanes = leadN;
                    if (leadN < L) {
                        prefixCut = cut;
                        prefixLen += (uint32_t)(leadN * V + prefixCut);
                        prefix = false;  // an unpruned cell ends it
                    } else {
                        prefixLen += end - base < (uint32_t)(L * V) ? end - base : (uint32_t)(L * V);
                    }
                }
                int32_t liveV;
                const int liveLane = g.last_where(lastLive >= 0, lastLive, liveV);
                if (liveLane >= 0) npCol = base + (uint32_t)(liveLane * V + liveV);
                g.sync();  // every lane has read its cells before any is overwritten
#pragma unroll
                for (int v = 0; v < V; ++v) {
                    if (!act[v]) continue;
                    const bool inPrefix = lane < prefixLanes || (lane == prefixLanes && v < prefixCut);
                    if (!inPrefix) {
                        const uint32_t dq = col[v] - (LY0 + prefixLen);
                        if (pruned[v]) S.CC[dq] = S.DD[dq] = kNegInf;
                        else { S.CC[dq] = c[v]; S.DD[dq] = ddNew[v]; }
                    }
                    S.tb[tbp + (col[v] - LY0)] = pruned[v] ? 0 : link[v];
                }
#pragma unroll
                for (int v = 0; v < V; ++v) sv[v] = svNext[v];
                g.sync();
            }
            bestScore = (int32_t)bestC;
            boundaryScore = (int32_t)bndC;
            tbp += end > LY0 ? end - LY0 : 0;
            LY = LY0 + prefixLen;
            if (LY >= RY) break;
            {
                const uint32_t NN = N;  // no right segment in phase 1
                uint32_t dq = end - LY;
                uint8_t tailFlags = kTail;
                if (RY > npCol + 1) {
                    RY = npCol + 1;
                } else {
                    tailFlags |= kTailLoop;
                    const int64_t iEnd = end > LY0 ? carryB - (int64_t)gapE * end : (int64_t)kNegInf;
                    const int64_t thr2 = (int64_t)bestScore - yDrop;
                    int64_t T = 0;
                    if (iEnd >= thr2 && RY <= NN) {
                        T = (int64_t)NN - RY + 1;
                        if (gapE > 0 && (iEnd - thr2) / gapE + 1 < T) T = (iEnd - thr2) / gapE + 1;
                    }
                    if (!ensure((uint64_t)dq + (uint64_t)T + 1) || tbp + (uint64_t)T > S.tb_cap) {
                        flags |= kYdFailed | kYdOverCap;
                        goto done;
                    }
                    for (int64_t t = lane; t < T; t += L) {
                        const int32_t v = (int32_t)(iEnd - (int64_t)gapE * t);
                        S.CC[dq + t] = v;
                        S.DD[dq + t] = wsub(v, gapOE);
                        S.tb[tbp + (uint64_t)t] = cFromI;
                    }
                    const int64_t iFin = iEnd - (int64_t)gapE * T;
                    if (T > 0) tailFlags |= kTailIter;
                    if (!(iFin >= thr2)) tailFlags |= kTailIStop;
                    dq += (uint32_t)T;
                    RY += (uint32_t)T;
                    tbp += (uint64_t)T;
                }
                if (lead) {
                    S.rows[row - 1].Rw = RY;
                    S.rows[row - 1].flags = tailFlags;
                }
                if (RY <= NN) {
                    if (lead) S.CC[dq] = S.DD[dq] = kNegInf;
                    RY++;
                }
                g.sync();
            }
        }
    }
    // the traceback, from the end (lane 0). Each step's one load on the chain is its
    // traceback byte: the rows' offsets are read a row ahead, and an op's run is counted
    // here and added to the script when the op changes (edit_script_add of the run at once
    // leaves the script that adding it one by one does).
    if (lead) {
        uint32_t row = end1, col = end2;
        uint8_t op = 0, prevOp = 0;
        uint32_t runOp = 0, runLen = 0;
        uint32_t rowOff = S.tb_row[row], upOff = row >= 1 ? S.tb_row[row - 1] : 0;
        for (prevOp = 0; row >= 1 || col > 0; prevOp = op) {
            const uint64_t at = (uint32_t)(rowOff + col);
            uint8_t link = 0;
            if (at >= tbp) flags |= kYdStale;
            else link = S.tb[at];
            op = link & cidBits;
            if (prevOp == cFromI && (link & iExtend) != 0) op = cFromI;
            if (prevOp == cFromD && (link & dExtend) != 0) op = cFromD;
            uint32_t sop;
            if (op == cFromI) { col--; sop = kOpIns; }
            else {
                row--;
                rowOff = upOff;
                upOff = row >= 1 ? S.tb_row[row - 1] : 0;
                if (op == cFromD) sop = kOpDel;
                else { col--; sop = kOpSub; }
            }
            if (sop != runOp && runLen > 0) {
                if (!yd_script_add(S, nops, tailOp, runOp, runLen)) { flags |= kYdFailed | kYdOverCap; runLen = 0; break; }
                runLen = 0;
            }
            runOp = sop;
            runLen++;
        }
        if (runLen > 0 && !yd_script_add(S, nops, tailOp, runOp, runLen)) flags |= kYdFailed | kYdOverCap;
    }
done:
    if (lead) {
        out.score = endIsBoundary ? boundaryScore : bestScore;
        out.end1 = end1;
        out.end2 = end2;
        out.flags = flags;
        out.cells = tbp;
        out.nrows = nrows;
        out.nops = nops;
        out.tail_op = tailOp;
        out.pad = 0;
    }
}

}  // namespace ydg
}  // namespace gale

#endif
