// The pieces of LASTZ 1.04.22's gapped extension that lib/cpu/ydrop.cpp (the public
// entries: scoring, rescoring) and lib/cpu/ydrop_parallel.cpp (the walk over the anchors,
// serial or in two phases) share: LASTZ's positions and sentinels, edit scripts, the DP row,
// and Run, gapped_extend.c's extension with its bound keeping. Internal to lib/cpu.
// LASTZ 1.04.22's gapped extension from anchors (lib/ydrop.h), reproducing Debian's
// lastz bit for bit: gapped_extend.c's gapped_extend, reduce_to_points, ydrop_align,
// ydrop_one_sided_align and their bound-keeping helpers, with LASTZ's 32-bit positions
// (unspos/sgnpos), its int scores and its sentinels. Each function below names the
// LASTZ function it follows; the comments say why a line is as it is where the reason
// is a LASTZ quirk (doc/ydrop.md lists them all).
#ifndef GALE_LIB_CPU_YDROP_RUN_H
#define GALE_LIB_CPU_YDROP_RUN_H

#include "ydrop.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>

#include "parallel.h"

namespace gale {
namespace ydrop_run {

using unspos = uint32_t;  // LASTZ's "sequence=31-bit" build (Debian's)
using sgnpos = int32_t;

// dna_utilities.h's sentinels, computed as LASTZ computes them (0.9 * INT_MIN truncated).
constexpr int32_t kWorst = INT32_MIN;
constexpr int32_t kBest = INT32_MAX;
constexpr int32_t kNegInf = (int32_t)(0.9 * (double)kWorst);
constexpr int32_t kVeryBad = -((kNegInf - kWorst) / 2);

constexpr unspos kInfinity = (unspos)-1;
constexpr unsigned kAnchorPeakLen = 31;
constexpr uint32_t kMaxRepeat = (1u << 30) - 1;

inline sgnpos sdiff(unspos a, unspos b) { return (sgnpos)((uint32_t)(sgnpos)a - (uint32_t)(sgnpos)b); }
// LASTZ's int arithmetic where it may run below INT_MIN (a gap extended from -infinity):
// gcc wraps it; here it wraps by definition.
inline int32_t wsub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
inline int32_t wadd(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

enum SegType : int { kDiag = 0, kHorz = 1, kVert = 2 };

struct Seg {
    unspos b1, b2, e1, e2;
    int type;
    Seg *prev, *next;
};

// An alignment's segments in list order with the running maximum of their e1, so that
// msp_left_right finds "the first segment with e1 >= pos1" by bisection instead of walking
// the list (most anchors lie on long alignments: the walk spent most of its own time there).
struct SegIndex {
    std::vector<Seg *> segs;
    std::vector<unspos> maxE1;
};

struct Galign {
    unspos pos1, pos2, end1, end2;
    Galign *next, *prev;
    Galign *leftAlign1, *leftAlign2, *rightAlign1, *rightAlign2;
    Seg *leftSeg1, *leftSeg2, *rightSeg1, *rightSeg2;
    Seg *firstSeg, *lastSeg;
    int64_t align;  // index of its YdropAlignment in Run::aligns, -1: none
    const SegIndex *segIndex;  // once its segment list is final (Run::index_segs), else null
    uint64_t serial;           // AlignList::insert's count: among equal starts obi puts the later first
};

// ---- edit scripts (edit_script.c) ------------------------------------------------------

struct Script {
    std::vector<uint32_t> op;
    uint32_t tailOp = 0;
};

inline uint32_t op_of(uint32_t e) { return e & 3; }
inline uint32_t rpt_of(uint32_t e) { return e >> 2; }
inline uint32_t mk(uint32_t op, uint32_t rpt) { return (op & 3) | (rpt << 2); }

inline void script_put(Script &s, uint32_t op, uint32_t rpt) {
    s.op.push_back(mk(op, rpt));
    s.tailOp = op;
}

// edit_script_add
inline void script_add(Script &s, uint32_t op, uint32_t rpt) {
    if (op_of(s.tailOp) == op) {
        uint32_t &tail = s.op.back();
        const uint32_t tailRpt = rpt_of(tail);
        if (tailRpt + rpt <= kMaxRepeat) {
            tail += rpt << 2;
            return;
        }
        tail = mk(op, kMaxRepeat);
        rpt = tailRpt + rpt - kMaxRepeat;
    }
    while (rpt > kMaxRepeat) {
        script_put(s, op, kMaxRepeat);
        rpt -= kMaxRepeat;
    }
    script_put(s, op, rpt);
}

// edit_script_append (merges the junction only when the source's first op equals the
// destination's tailOp, which edit_script_reverse leaves as it was)
inline void script_append(Script &dst, const Script &src) {
    if (src.op.empty()) return;
    size_t from = 0;
    const uint32_t sOp = op_of(src.op[0]);
    if (sOp == dst.tailOp) {
        uint32_t &d = dst.op.back();
        const uint32_t dRpt = rpt_of(d), sRpt = rpt_of(src.op[0]);
        if (dRpt + sRpt <= kMaxRepeat) {
            d += sRpt << 2;
        } else {
            d = mk(sOp, kMaxRepeat);
            dst.op.push_back(mk(sOp, dRpt + sRpt - kMaxRepeat));
        }
        from = 1;
    }
    dst.op.insert(dst.op.end(), src.op.begin() + from, src.op.end());
    dst.tailOp = src.tailOp;
}

// ---- DP row ---------------------------------------------------------------------------

struct DpCell {
    int32_t DD, CC;
    unspos mask;
};

// dp_ready: the sweep row, grown with zeroed cells (their masks 0) and never cleared
// within one one-sided extension: a cell the row did not write keeps an older row's values.
struct DpRow {
    std::vector<DpCell> p;
    void ready(size_t needed) {
        if (p.empty()) p.assign(needed + 1000, DpCell{0, 0, 0});
        else if (needed > p.size()) p.resize(needed + p.size() / 16 + 1000, DpCell{0, 0, 0});
    }
    void ensure(size_t index) {  // mask writes past the row (LASTZ would write past its allocation)
        if (index >= p.size()) p.resize(index + 1 + p.size() / 16 + 1000, DpCell{0, 0, 0});
    }
};

struct ActiveSeg {
    Seg *seg;
    int type;
    unspos x, lastRow;
    int filter;
};

struct AlignIo {
    const uint8_t *seq1, *seq2, *rev1, *rev2;
    unspos len1, len2, low1, high1, low2, high2;
    unspos anchor1, anchor2;
    Galign *leftAlign, *rightAlign;
    Seg *leftSeg, *rightSeg;
    Galign *aboveList, *belowList;
    unspos start1, start2, stop1, stop2;
    int32_t s;
    Script script;
};

// What a one-sided extension records for the parallel scheme (doc/ydrop.md, "Parallel
// extension"): for each row it swept, the column range [LY, RY) it had before the row's
// bounds were applied, and how the row's tail (the insertions past the last cell) ended;
// whether its traceback read a cell it had not written itself (such a cell holds what an
// earlier extension left in LASTZ's shared buffer); and its result.
struct RowRec {
    unspos LY, RY;  // before update_LR_bounds
    unspos Rw;      // RY after the tail (before the -infinity cell past it), when kTail
    uint8_t flags;
};
constexpr uint8_t kTail = 1,   // the row reached the tail (it did not end the sweep)
    kTailLoop = 2,             // the tail's insertion loop ran (RY <= npCol + 1)
    kTailIter = 4,             // ... and prolonged the row at least once
    kTailIStop = 8;            // ... and stopped on the Y-drop test, not on the bound
struct SideRec {
    std::vector<RowRec> rows;  // rows[r - 1]: row r
    bool stale = false, failed = false, truncated = false;
    bool absent = false;  // left out of phase 1 (predicted to be skipped)
    uint64_t cells = 0;   // DP cells swept (its traceback bytes)
    Script script;
    int32_t score = 0;
    unspos end1 = 0, end2 = 0;
};

constexpr uint8_t cFromC = 0, cFromI = 1, cFromD = 2, iExtend = 4, dExtend = 8, cidBits = 3;

struct Run {
    const YdropScoring &sc;
    const YdropParams &prm;
    YdropWorkspace &ws;
    std::deque<Seg> segs;
    std::deque<SegIndex> segIndexes;
    std::vector<YdropAlignment> aligns;

    Run(const YdropScoring &s, const YdropParams &p, YdropWorkspace &w) : sc(s), prm(p), ws(w) {}

    // ---- bounds (update_LR_bounds and its helpers) ----

    static unspos special_min(unspos RY, sgnpos R) {
        if (R <= 0) return 0;
        if ((unspos)R < RY) return (unspos)R;
        return RY;
    }

    static sgnpos next_sweep_seg(bool lookRight, Seg **bp, Galign **mp, unspos row, unspos anchor1, unspos anchor2) {
        *bp = (*bp)->next;
        if (*bp != nullptr) {
            if ((*bp)->type == kHorz) *bp = (*bp)->next;  // (LASTZ dies if that is NULL; it never is)
            return sdiff((*bp)->b2, anchor2);
        }
        if (lookRight) { *bp = (*mp)->rightSeg2; *mp = (*mp)->rightAlign2; }
        else { *bp = (*mp)->leftSeg2; *mp = (*mp)->leftAlign2; }
        if (*bp == nullptr) return 0;
        if ((*bp)->type == kDiag)
            return (sgnpos)((uint32_t)(sgnpos)row + (uint32_t)sdiff((*bp)->b2, anchor2) - (uint32_t)sdiff((*bp)->b1, anchor1));
        return sdiff((*bp)->b2, anchor2);
    }

    static sgnpos prev_sweep_seg(bool lookRight, Seg **bp, Galign **mp, unspos row, unspos anchor1, unspos anchor2) {
        *bp = (*bp)->prev;
        if (*bp != nullptr) {
            if ((*bp)->type == kHorz) *bp = (*bp)->prev;
            return sdiff(anchor2, (*bp)->e2);
        }
        if (lookRight) { *bp = (*mp)->rightSeg1; *mp = (*mp)->rightAlign1; }
        else { *bp = (*mp)->leftSeg1; *mp = (*mp)->leftAlign1; }
        if (*bp == nullptr) return 0;
        if ((*bp)->type == kDiag)
            return (sgnpos)((uint32_t)(sgnpos)row + (uint32_t)sdiff(anchor2, (*bp)->e2) - (uint32_t)sdiff(anchor1, (*bp)->e1));
        return sdiff(anchor2, (*bp)->e2);
    }

    static void update_LR_bounds(bool reversed, Seg **rightSeg, Seg **leftSeg, Galign **rightAlign, Galign **leftAlign,
                                 unspos row, unspos anchor1, unspos anchor2, sgnpos *L, sgnpos *R, unspos *LY,
                                 unspos *RY) {
        if (!reversed) {
            if (*leftSeg != nullptr) {
                if ((*leftSeg)->e1 >= row + anchor1) {
                    if ((*leftSeg)->type == kDiag) ++*L;
                } else {
                    *L = next_sweep_seg(false, leftSeg, leftAlign, row, anchor1, anchor2) + 1;
                }
            }
            if (*leftSeg != nullptr) *LY = (unspos)std::max((sgnpos)*LY, *L);
            if (*rightSeg != nullptr) {
                if ((*rightSeg)->e1 >= row + anchor1) {
                    if ((*rightSeg)->type == kDiag) ++*R;
                } else {
                    *R = next_sweep_seg(true, rightSeg, rightAlign, row, anchor1, anchor2) - 1;
                }
            }
            if (*rightSeg != nullptr) *RY = special_min(*RY, *R);
        } else {
            if (*rightSeg != nullptr) {
                if ((*rightSeg)->b1 <= anchor1 - row) {
                    if ((*rightSeg)->type == kDiag) ++*L;
                } else {
                    *L = prev_sweep_seg(true, rightSeg, rightAlign, row, anchor1, anchor2) + 1;
                }
            }
            if (*rightSeg != nullptr) *LY = (unspos)std::max((sgnpos)*LY, *L);
            if (*leftSeg != nullptr) {
                if ((*leftSeg)->b1 <= anchor1 - row) {
                    if ((*leftSeg)->type == kDiag) ++*R;
                } else {
                    *R = prev_sweep_seg(false, leftSeg, leftAlign, row, anchor1, anchor2) - 1;
                }
            }
            if (*leftSeg != nullptr) *RY = special_min(*RY, *R);
        }
    }

    // ---- active segments (update_active_segs and its helpers) ----
    // dp indexes the row array shifted so that dp(x) is column x (LASTZ: dynProg->p - prevLY).

    static void mask(DpRow &row_, unspos prevLY, unspos x, unspos row) {
        const size_t idx = (size_t)(x - prevLY);
        row_.ensure(idx);
        row_.p[idx].mask = row;
    }

    // mk(x): mask column x of the current row (the sweep writes it into the DP row; the
    // phase-2 check only asks whether it falls among the cells the row will compute).
    template <class Mk>
    static void build_active_seg(bool reversed, ActiveSeg *act, Mk &mk, unspos anchor1, unspos anchor2, unspos LY,
                                 unspos RY) {
        act->type = act->seg->type;
        if (!reversed) {
            act->x = act->seg->b2 - anchor2;
            act->lastRow = act->seg->e1 - anchor1;
        } else {
            act->x = anchor2 - act->seg->e2;
            act->lastRow = anchor1 - act->seg->b1;
        }
        if (act->type != kHorz) {
            if (act->x >= LY && act->x <= RY) mk(act->x);
        } else {
            const unspos horzEnd = !reversed ? act->seg->e2 - anchor2 : anchor2 - act->seg->b2;
            const unspos iMin = std::max(LY, act->x);
            const unspos iMax = std::min(RY, horzEnd);
            for (unspos i = iMin; i <= iMax; ++i) {
                mk(i);
                if (i == kInfinity) break;
            }
        }
    }

    template <class Mk>
    static void update_active_segs(bool reversed, std::vector<ActiveSeg> &active, Galign **alignList, Mk &mk,
                                   unspos row, unspos anchor1, unspos anchor2, unspos LY, unspos RY) {
        // LASTZ keeps a singly linked list with new segments pushed at its head; the order only
        // matters to the masks, which commute, so a vector (newest last) does the same.
        for (ActiveSeg &act : active) {
            if (act.lastRow >= row) {
                if (act.type == kDiag) act.x++;
                if (act.x >= LY && act.x <= RY) mk(act.x);
            } else if ((act.seg = reversed ? act.seg->prev : act.seg->next) != nullptr) {
                build_active_seg(reversed, &act, mk, anchor1, anchor2, LY, RY);
                if (act.type == kHorz) {
                    act.seg = reversed ? act.seg->prev : act.seg->next;
                    build_active_seg(reversed, &act, mk, anchor1, anchor2, LY, RY);
                }
            } else {
                act.filter = 1;
            }
        }
        if (!reversed) {
            while (*alignList != nullptr && (*alignList)->pos1 - anchor1 == row) {
                ActiveSeg a{(*alignList)->firstSeg, 0, 0, 0, 0};
                build_active_seg(reversed, &a, mk, anchor1, anchor2, LY, RY);
                active.push_back(a);
                *alignList = (*alignList)->next;
            }
        } else {
            while (*alignList != nullptr && anchor1 - (*alignList)->end1 == row) {
                ActiveSeg a{(*alignList)->lastSeg, 0, 0, 0, 0};
                build_active_seg(reversed, &a, mk, anchor1, anchor2, LY, RY);
                active.push_back(a);
                *alignList = (*alignList)->prev;
            }
        }
        active.erase(std::remove_if(active.begin(), active.end(), [](const ActiveSeg &a) { return a.filter != 0; }),
                     active.end());
    }

    // ---- ydrop_one_sided_align ----

    // The bounds' start (LASTZ's L and R before the first row, with the swap of its note 14).
    static void initial_LR(const AlignIo &io, bool reversed, unspos N, sgnpos *L_, sgnpos *R_) {
        sgnpos L = 0, R = (sgnpos)(N + 1);
        const unspos anchor1 = io.anchor1, anchor2 = io.anchor2;
        const Seg *leftSeg = io.leftSeg, *rightSeg = io.rightSeg;
        if (leftSeg != nullptr) {
            L = sdiff(leftSeg->b2, anchor2);
            if (leftSeg->type == kDiag) L -= sdiff(leftSeg->b1, anchor1);
        }
        if (rightSeg != nullptr) {
            R = sdiff(rightSeg->b2, anchor2);
            if (rightSeg->type == kDiag) R -= sdiff(rightSeg->b1, anchor1);
        }
        if (reversed) {  // LASTZ's swap of the bounds (its note 14)
            sgnpos temp;
            if (leftSeg == nullptr && rightSeg != nullptr) { L = -R + 1; R = (sgnpos)(N + 1); }
            else if (leftSeg != nullptr && rightSeg == nullptr) { R = -L - 1; L = 0; }
            else if (leftSeg != nullptr && rightSeg != nullptr) { temp = -L - 1; L = -R + 1; R = temp; }
        }
        *L_ = L;
        *R_ = R;
    }

    // rec (the parallel scheme): record the rows swept and flag reads of cells not written here.
    int32_t one_sided(AlignIo &io, bool reversed, const uint8_t *A, const uint8_t *B, unspos M, unspos N,
                      bool trimToPeak, Script &script, unspos *_end1, unspos *_end2, SideRec *rec = nullptr) {
        if (N <= 0 || M <= 0) {
            *_end1 = *_end2 = 0;
            return 0;
        }
        const int32_t gapE = sc.gap_extend;
        const int32_t gapOE = sc.gap_open + gapE;
        const int32_t yDrop = prm.ydrop;
        // new_traceback: cells = 1 + (size - sizeof(tback)); 0 = gale's unlimited
        const uint64_t tbLen64 = prm.traceback_bytes == 0 ? UINT64_MAX / 4 : prm.traceback_bytes - 8 + 1;
        const int64_t tbLen = (int64_t)std::min<uint64_t>(tbLen64, (uint64_t)INT64_MAX / 4);

        int yDropTail;
        if (gapE != 0) yDropTail = (yDrop / gapE) + 6;
        else {
            const int maxYDropTail = 500 * 1000;
            yDropTail = N < (unsigned)maxYDropTail ? (int)N + 1 : maxYDropTail;
        }

        sgnpos L, R;
        initial_LR(io, reversed, N, &L, &R);
        const unspos anchor1 = io.anchor1, anchor2 = io.anchor2;
        Seg *leftSeg = io.leftSeg, *rightSeg = io.rightSeg;

        std::vector<ActiveSeg> active;
        Galign *rightAlign = io.rightAlign, *leftAlign = io.leftAlign;
        Galign *alignList = !reversed ? io.aboveList : io.belowList;

        std::vector<uint8_t> &tb = ws.tb;
        std::vector<uint32_t> &tbRow = ws.tb_row;
        if (tbRow.empty()) tbRow.resize(1024);
        tbRow[0] = 0;
        size_t tbp = 0;  // offset of LASTZ's tbp in tb->space
        auto tb_put = [&](uint8_t v) {
            if (tbp >= tb.size()) tb.resize(std::max<size_t>(tb.size() * 2, tbp + 65536), 0);
            tb[tbp++] = v;
        };

        if ((int64_t)yDropTail > tbLen) throw std::runtime_error("not enough space in trace_back array");
        DpRow dyn;
        dyn.ready((size_t)yDropTail);

        // first row (LASTZ's notes 8, 10, 13)
        size_t dq = 0;
        int32_t cTemp, c;
        dyn.p[dq].CC = cTemp = 0;
        c = dyn.p[dq++].DD = -gapOE;
        tb_put(0);
        unspos col;
        for (col = 1; col <= N && cTemp >= -yDrop; col++) {
            dyn.p[dq].CC = cTemp = c;
            dyn.p[dq++].DD = wsub(c, gapOE);
            c = wsub(c, gapE);
            tb_put(cFromI);
        }
        unspos LY = 0, RY = col;

        unspos end1 = 0, end2 = 0;
        int32_t bestScore = 0, boundaryScore = kNegInf;
        bool endIsBoundary = false;
        unspos row;
        uint8_t link = 0;
        for (row = 1; row <= M; row++) {
            const unspos prevLY = LY;
            if (rec != nullptr) rec->rows.push_back(RowRec{LY, RY, 0, 0});
            update_LR_bounds(reversed, &rightSeg, &leftSeg, &rightAlign, &leftAlign, row, anchor1, anchor2, &L, &R, &LY,
                             &RY);
            auto mk = [&](unspos x) { mask(dyn, prevLY, x, row); };
            update_active_segs(reversed, active, &alignList, mk, row, anchor1, anchor2, LY, RY);

            if ((size_t)row + 1 > tbRow.size()) tbRow.resize(std::max<size_t>(tbRow.size() * 2, (size_t)row + 2));
            if (RY < LY) RY = LY;  // (LASTZ's note 11)
            const int64_t tbNeeded = (int64_t)(int)(RY - LY + (unspos)yDropTail);
            if ((int64_t)tbp + tbNeeded >= tbLen) {  // LASTZ's traceback truncation
                ws.truncations++;
                if (rec != nullptr) rec->truncated = true;
                goto dp_finished;
            }
            tbRow[row] = (uint32_t)tbp - LY;

            dyn.ready((size_t)tbNeeded);
            dq = 0;
            size_t dp = (size_t)(LY - prevLY);
            const int32_t *sub = sc.sub[A[row]];
            col = LY;
            const uint8_t *b = B + col + 1;
            unspos npCol = col;
            int32_t i = kNegInf;
            c = kNegInf;
            for (; col < RY && (unspos)(b - B) <= N + 1; col++) {
                int32_t d = dyn.p[dp].DD;
                bool pruned = false;
                if (!active.empty() && dyn.p[dp].mask == row) {
                    pruned = true;
                } else if (d > c || i > c) {
                    if (d >= i) { c = d; link = cFromD | iExtend | dExtend; }
                    else { c = i; link = cFromI | iExtend | dExtend; }
                    if (c < bestScore - yDrop) pruned = true;
                    else {
                        // Debian's build: allowBackToBackGaps OFF
                        i = wsub(i, gapE);
                        dyn.p[dq].DD = wsub(d, gapE);
                    }
                } else {
                    if (c < bestScore - yDrop) pruned = true;
                    else {
                        if (c >= bestScore) {
                            bestScore = c;
                            end1 = row;
                            end2 = col;
                            endIsBoundary = false;
                        }
                        if (!trimToPeak && c >= boundaryScore && (row == M || col == N)) {
                            boundaryScore = c;
                            end1 = row;
                            end2 = col;
                            endIsBoundary = true;
                        }
                        const int32_t cOpen = wsub(c, gapOE);
                        d = wsub(d, gapE);
                        if (cOpen > d) { dyn.p[dq].DD = cOpen; link = cFromC; }
                        else { dyn.p[dq].DD = d; link = cFromC | dExtend; }
                        i = wsub(i, gapE);
                        if (cOpen > i) i = cOpen;
                        else link |= iExtend;
                    }
                }
                if (pruned) {  // LASTZ's prune macro
                    c = wadd(dyn.p[dp].CC, sub[*(b++)]);
                    if (col == LY) LY++;
                    else {
                        i = dyn.p[dq].DD = dyn.p[dq].CC = kNegInf;
                        dq++;
                    }
                    dp++;
                    tb_put(0);
                    continue;
                }
                npCol = col;
                const int32_t cNext = wadd(dyn.p[dp++].CC, sub[*(b++)]);
                dyn.p[dq++].CC = c;
                c = cNext;
                tb_put(link);
            }
            if (LY >= RY) goto dp_finished;

            {
                const sgnpos NN = (rightSeg != nullptr && R > 0) ? (R - 1) : (sgnpos)N;
                uint8_t tailFlags = kTail;
                if (RY > npCol + 1) {
                    RY = npCol + 1;
                } else {
                    tailFlags |= kTailLoop;
                    while (i >= bestScore - yDrop && (sgnpos)RY <= NN) {
                        if (dq >= dyn.p.size()) throw std::runtime_error("ydrop: DP row overrun");
                        dyn.p[dq].CC = i;
                        dyn.p[dq++].DD = wsub(i, gapOE);
                        i = wsub(i, gapE);
                        tb_put(cFromI);
                        RY++;
                        tailFlags |= kTailIter;
                    }
                    if (!(i >= bestScore - yDrop)) tailFlags |= kTailIStop;
                }
                if (rec != nullptr) {
                    rec->rows.back().Rw = RY;
                    rec->rows.back().flags = tailFlags;
                }
                if ((sgnpos)RY <= NN) {
                    if (dq >= dyn.p.size()) throw std::runtime_error("ydrop: DP row overrun");
                    dyn.p[dq].DD = dyn.p[dq].CC = kNegInf;
                    RY++;
                }
            }
        }
    dp_finished:
        if (rec != nullptr) rec->cells = tbp;
        *_end1 = row = end1;
        *_end2 = col = end2;

        uint8_t op = 0, prevOp = 0;
        for (prevOp = 0; row >= 1 || col > 0; prevOp = op) {
            const size_t at = (size_t)(uint32_t)(tbRow[row] + col);
            if (rec != nullptr && at >= tbp) rec->stale = true;
            link = at < tb.size() ? tb[at] : 0;  // (a cell never written: LASTZ's buffer is mostly zero)
            op = link & cidBits;
            if (prevOp == cFromI && (link & iExtend) != 0) op = cFromI;
            if (prevOp == cFromD && (link & dExtend) != 0) op = cFromD;
            if (op == cFromI) { col--; script_add(script, kYdropIns, 1); }
            else if (op == cFromD) { row--; script_add(script, kYdropDel, 1); }
            else { row--; col--; script_add(script, kYdropSub, 1); }
        }
        return endIsBoundary ? boundaryScore : bestScore;
    }

    int32_t score_script(const uint8_t *seq1, unspos pos1, const uint8_t *seq2, unspos pos2, const Script &s) const {
        const uint8_t *s1 = seq1 + pos1, *s2 = seq2 + pos2;
        int32_t sim = 0;
        for (uint32_t e : s.op) {
            const uint32_t rpt = rpt_of(e);
            if (rpt == 0) continue;
            switch (op_of(e)) {
            case kYdropSub:
                for (uint32_t k = 0; k < rpt; ++k) sim = wadd(sim, sc.sub[*s1++][*s2++]);
                break;
            case kYdropIns:
                sim = wsub(sim, wadd(sc.gap_open, (int32_t)(rpt * (uint32_t)sc.gap_extend)));
                s2 += rpt;
                break;
            case kYdropDel:
                sim = wsub(sim, wadd(sc.gap_open, (int32_t)(rpt * (uint32_t)sc.gap_extend)));
                s1 += rpt;
                break;
            }
        }
        return sim;
    }

    // lop_initial_indels / lop_final_indels
    void lop_initial(AlignIo &io) {
        unspos pos1 = io.start1, pos2 = io.start2;
        size_t k;
        for (k = 0; k < io.script.op.size(); ++k) {
            const uint32_t op = op_of(io.script.op[k]), rpt = rpt_of(io.script.op[k]);
            if (op == kYdropSub) break;
            if (op == kYdropIns) pos2 += rpt;
            else if (op == kYdropDel) pos1 += rpt;
        }
        if (k == io.script.op.size()) {
            io.s = kWorst;
            return;
        }
        io.start1 = pos1;
        io.start2 = pos2;
        io.script.op.erase(io.script.op.begin(), io.script.op.begin() + (ptrdiff_t)k);
        io.s = score_script(io.seq1, io.start1, io.seq2, io.start2, io.script);
    }

    void lop_final(AlignIo &io) {
        unspos pos1 = io.stop1, pos2 = io.stop2;
        size_t k;
        for (k = io.script.op.size(); k > 0;) {
            k--;
            const uint32_t op = op_of(io.script.op[k]), rpt = rpt_of(io.script.op[k]);
            if (op == kYdropSub) { k++; break; }
            if (op == kYdropIns) pos2 -= rpt;
            else if (op == kYdropDel) pos1 -= rpt;
        }
        if (k == 0) {
            io.s = kWorst;
            return;
        }
        io.stop1 = pos1;
        io.stop2 = pos2;
        io.script.op.resize(k);
        io.s = score_script(io.seq1, io.start1, io.seq2, io.start2, io.script);
    }

    // ydrop_align: left on the reversed sequences (the anchor base in this half), then right
    // from the next base. side computes one half, join makes the alignment of the two.
    int32_t side(AlignIo &io, bool left, Script &script, unspos *end1, unspos *end2, SideRec *rec) {
        const unspos anchor1 = io.anchor1, anchor2 = io.anchor2;
        if (left)
            return one_sided(io, true, io.rev1 + io.len1 - anchor1 - 2, io.rev2 + io.len2 - anchor2 - 2,
                             (anchor1 + 1) - io.low1, side_N(io, true), prm.trim_to_peak, script, end1, end2, rec);
        return one_sided(io, false, io.seq1 + anchor1, io.seq2 + anchor2, io.high1 - (anchor1 + 1), side_N(io, false),
                         prm.trim_to_peak, script, end1, end2, rec);
    }
    static unspos side_N(const AlignIo &io, bool left) {
        return left ? (io.anchor2 + 1) - io.low2 : io.high2 - (io.anchor2 + 1);
    }

    void join(AlignIo &io, int32_t scoreLeft, Script &left, unspos lend1, unspos lend2, int32_t scoreRight,
              Script &right, unspos rend1, unspos rend2) {
        io.start1 = io.anchor1 + 1 - lend1;
        io.start2 = io.anchor2 + 1 - lend2;
        io.stop1 = io.anchor1 + rend1;
        io.stop2 = io.anchor2 + rend2;
        std::reverse(right.op.begin(), right.op.end());  // (edit_script_reverse keeps tailOp)
        script_append(left, right);
        io.s = wadd(scoreRight, scoreLeft);
        io.script = std::move(left);
        if (!io.script.op.empty()) {
            if (op_of(io.script.op[0]) != kYdropSub) lop_initial(io);
            if (op_of(io.script.op.back()) != kYdropSub) lop_final(io);
        }
    }

    void ydrop_align(AlignIo &io) {
        Script left, right;
        unspos lend1, lend2, rend1, rend2;
        const int32_t scoreLeft = side(io, true, left, &lend1, &lend2, nullptr);
        const int32_t scoreRight = side(io, false, right, &rend1, &rend2, nullptr);
        join(io, scoreLeft, left, lend1, lend2, scoreRight, right, rend1, rend2);
    }

    // Phase 2's test (doc/ydrop.md, "Parallel extension"): does the one-sided extension with
    // io's bounds (the alignments accepted so far) sweep exactly what rec's extension, computed
    // without them, swept? It replays the bounds over rec's rows. By induction on the rows: if
    // row r starts with the same LY and RY (and the same DP row and best score), the bounds
    // leave LY and RY as they are, no mask falls on a cell the row computes ([LY, RY)), and the
    // tail's bound NN stops the tail where N stopped it, then row r computes the same cells,
    // values and traceback bytes and ends with the same LY, RY and best score. The bounds
    // (L, R, the segments followed, the active segments) move with the row number alone, never
    // with the DP, so the replay needs no DP. Masks at RY or outside [LY, RY) are never read.
    static bool side_clean(const AlignIo &io, bool reversed, unspos N, const SideRec &rec) {
        Galign *alignList = !reversed ? io.aboveList : io.belowList;
        Seg *leftSeg = io.leftSeg, *rightSeg = io.rightSeg;
        if (leftSeg == nullptr && rightSeg == nullptr && alignList == nullptr) return true;
        sgnpos L, R;
        initial_LR(io, reversed, N, &L, &R);
        const unspos anchor1 = io.anchor1, anchor2 = io.anchor2;
        Galign *rightAlign = io.rightAlign, *leftAlign = io.leftAlign;
        std::vector<ActiveSeg> active;
        for (size_t k = 0; k < rec.rows.size(); ++k) {
            // no bound left and none to come (a null segment or list stays null)
            if (leftSeg == nullptr && rightSeg == nullptr && alignList == nullptr && active.empty()) return true;
            const RowRec &rr = rec.rows[k];
            const unspos row = (unspos)(k + 1);
            unspos LY = rr.LY, RY = rr.RY;
            update_LR_bounds(reversed, &rightSeg, &leftSeg, &rightAlign, &leftAlign, row, anchor1, anchor2, &L, &R, &LY,
                             &RY);
            if (LY != rr.LY || RY != rr.RY) return false;
            bool hit = false;
            auto mk = [&](unspos x) {
                if (x >= LY && x < RY) hit = true;
            };
            update_active_segs(reversed, active, &alignList, mk, row, anchor1, anchor2, LY, RY);
            if (hit) return false;
            if ((rr.flags & kTail) != 0 && rightSeg != nullptr && R > 0) {
                const sgnpos NN = R - 1, Nn = (sgnpos)N, Rw = (sgnpos)rr.Rw;
                if (NN != Nn) {
                    if ((rr.flags & kTailLoop) != 0) {
                        // every prolongation passed RY <= NN, and the loop stops at Rw with NN too
                        if ((rr.flags & kTailIter) != 0 && Rw - 1 > NN) return false;
                        if ((rr.flags & kTailIStop) == 0 && !(Rw > NN)) return false;
                    }
                    if ((Rw <= Nn) != (Rw <= NN)) return false;  // the -infinity cell past the row
                }
            }
        }
        return true;
    }

    // ---- alignment lists ----

    Seg *new_seg(unspos b1, unspos b2, unspos e1, unspos e2, int type) {
        segs.push_back(Seg{b1, b2, e1, e2, type, nullptr, nullptr});
        return &segs.back();
    }

    static void insert_seg_to_tail(Galign *mp, Seg *bp) {
        bp->prev = mp->firstSeg->prev;
        bp->next = mp->firstSeg;
        mp->firstSeg->prev->next = bp;
        mp->firstSeg->prev = bp;
    }

    void save_seg(Galign *m, unspos b1, unspos b2, unspos e1, unspos e2) {
        Seg *bp = new_seg(b1, b2, e1, e2, kDiag);
        if (m->firstSeg == nullptr) {
            m->firstSeg = bp->prev = bp->next = bp;
            return;
        }
        Seg *last = m->firstSeg->prev;
        Seg *bq = new_seg(last->e1 + 1, last->e2 + 1, b1 - 1, b2 - 1, b1 == last->e1 + 1 ? kHorz : kVert);
        insert_seg_to_tail(m, bq);
        insert_seg_to_tail(m, bp);
    }

    // format_alignment: the alignment's gap-free pieces as segments (with the horizontal or
    // vertical segments between them) and its alignel.
    YdropAlignment format_alignment(AlignIo &io, Galign *m) {
        const unspos beg1 = io.start1 + 1, end1 = io.stop1 + 1, beg2 = io.start2 + 1, end2 = io.stop2 + 1;
        const unspos height = end1 - beg1 + 1, width = end2 - beg2 + 1;
        size_t opIx = 0;
        const std::vector<uint32_t> &ops = io.script.op;
        for (unspos i = 0, j = 0; i < height || j < width;) {
            const unspos startI = i, startJ = j;
            // edit_script_run_of_subs
            unspos run = 0;
            while (opIx < ops.size() && op_of(ops[opIx]) == kYdropSub) run += rpt_of(ops[opIx++]);
            i += run;
            j += run;
            save_seg(m, beg1 + startI - 1, beg2 + startJ - 1, beg1 + i - 2, beg2 + j - 2);
            if (i < height || j < width) {
                // edit_script_indel_len: one operation (an insertion next to a deletion makes a
                // diagonal segment of length 0 between them, as in LASTZ)
                if (opIx < ops.size()) {
                    const uint32_t e = ops[opIx++];
                    if (op_of(e) == kYdropIns) j += rpt_of(e);
                    else if (op_of(e) == kYdropDel) i += rpt_of(e);
                }
            }
        }
        YdropAlignment a;
        a.beg1 = beg1;
        a.end1 = end1;
        a.beg2 = beg2;
        a.end2 = end2;
        a.score = io.s;
        a.script = ops;
        return a;
    }

    // Indexes m's segment list, which is final (before insert_align).
    void index_segs(Galign *m) {
        segIndexes.emplace_back();
        SegIndex &ix = segIndexes.back();
        unspos top = 0;
        for (Seg *bp = m->firstSeg; bp != nullptr; bp = bp->next) {
            top = ix.segs.empty() ? bp->e1 : std::max(top, bp->e1);
            ix.segs.push_back(bp);
            ix.maxE1.push_back(top);
        }
        m->segIndex = &ix;
    }

};

// The alignments found so far: LASTZ's two lists (obi by increasing start, a new one before
// the first with an equal or later start; oed, linked through prev, by decreasing end, a
// new one before the first with an equal or earlier end), which the extension walks for its
// bounds, and an index of them. LASTZ walks the lists from their heads for every anchor
// (msp_left_right, get_above_below) and every new alignment (align_left_right,
// insert_align): a cost in the number of alignments each time, which on a 10 Mbp pair
// (107,000 anchors a strand, 8,000 alignments) took 6 s of a strand's walk. Here the same
// alignments are found in the same order: those whose target range [pos1, end1] meets a
// range by buckets of 2^kBucketShift target positions, ordered as obi orders them (start up,
// then the later inserted first), and the lists' insertion points and the above and below
// lists by bisection of the lists copied into vectors.
struct AlignList {
    static constexpr unsigned kBucketShift = 12;
    Galign *obi = nullptr, *oed = nullptr;
    std::vector<Galign *> starts;  // obi's order
    std::vector<Galign *> ends;    // oed's order
    std::vector<std::vector<Galign *>> buckets;
    std::vector<Galign *> found;   // meeting()'s answer
    uint64_t inserted = 0;

    // insert_align
    void insert(Galign *m) {
        const size_t i = (size_t)(std::partition_point(starts.begin(), starts.end(),
                                                       [&](const Galign *a) { return a->pos1 < m->pos1; }) -
                                  starts.begin());
        Galign *mp = i < starts.size() ? starts[i] : nullptr, *mq = i > 0 ? starts[i - 1] : nullptr;
        if (mq != nullptr) { mq->next = m; m->next = mp; }
        else { m->next = obi; obi = m; }
        const size_t j = (size_t)(std::partition_point(ends.begin(), ends.end(),
                                                       [&](const Galign *a) { return a->end1 > m->end1; }) -
                                  ends.begin());
        mp = j < ends.size() ? ends[j] : nullptr;
        mq = j > 0 ? ends[j - 1] : nullptr;
        if (mq != nullptr) { mq->prev = m; m->prev = mp; }
        else { m->prev = oed; oed = m; }
        starts.insert(starts.begin() + (std::ptrdiff_t)i, m);
        ends.insert(ends.begin() + (std::ptrdiff_t)j, m);
        m->serial = inserted++;
        const size_t b0 = m->pos1 >> kBucketShift, b1 = m->end1 >> kBucketShift;
        if (buckets.size() <= b1) buckets.resize(b1 + 1);
        for (size_t b = b0; b <= b1; ++b) buckets[b].push_back(m);
    }

    // The alignments with pos1 <= hi and end1 >= lo, in obi's order.
    const std::vector<Galign *> &meeting(unspos lo, unspos hi) {
        found.clear();
        if (buckets.empty()) return found;
        const size_t b0 = lo >> kBucketShift, b1 = std::min<size_t>(hi >> kBucketShift, buckets.size() - 1);
        for (size_t b = b0; b <= b1 && b < buckets.size(); ++b)
            for (Galign *a : buckets[b])
                if (a->pos1 <= hi && a->end1 >= lo && std::max<size_t>(a->pos1 >> kBucketShift, b0) == b)
                    found.push_back(a);  // (once: from the first of the range's buckets it lies in)
        std::sort(found.begin(), found.end(), [](const Galign *x, const Galign *y) {
            return x->pos1 != y->pos1 ? x->pos1 < y->pos1 : x->serial > y->serial;
        });
        return found;
    }

    // msp_left_right: false when m lies on an alignment's path; else sets its neighbours.
    bool msp_left_right(Galign *m) {
        const unspos pos1 = m->pos1, pos2 = m->pos2;
        unspos right = kInfinity, left = kInfinity;
        Galign *mRight = nullptr, *mLeft = nullptr;
        Seg *bRight = nullptr, *bLeft = nullptr;
        for (Galign *a : meeting(pos1, pos1)) {  // (LASTZ: obi while pos1 <= m's, those ending before skipped)
            Seg *bp;
            if (a->segIndex != nullptr) {  // the first segment with e1 >= pos1
                const SegIndex &ix = *a->segIndex;
                const size_t k = (size_t)(std::lower_bound(ix.maxE1.begin(), ix.maxE1.end(), pos1) - ix.maxE1.begin());
                bp = k < ix.segs.size() ? ix.segs[k] : nullptr;
            } else {
                for (bp = a->firstSeg; bp != nullptr; bp = bp->next)
                    if (bp->e1 >= pos1) break;
            }
            if (bp == nullptr) continue;
            sgnpos x;
            if (bp->type == kDiag) x = (sgnpos)((uint32_t)sdiff(bp->b2, pos2) + (uint32_t)sdiff(pos1, bp->b1));
            else x = sdiff(bp->b2, pos2);  // (LASTZ dies on a horizontal one: never)
            if (x == 0) return false;
            if (x > 0 && (unspos)x < right) { right = (unspos)x; mRight = a; bRight = bp; }
            else if (x < 0 && (unspos)-x < left) { left = (unspos)-x; mLeft = a; bLeft = bp; }
        }
        m->rightAlign1 = m->rightAlign2 = mRight;
        m->rightSeg1 = m->rightSeg2 = bRight;
        m->leftAlign1 = m->leftAlign2 = mLeft;
        m->leftSeg1 = m->leftSeg2 = bLeft;
        return true;
    }

    // get_above_below: the first of oed with end1 < the anchor's, the first of obi with pos1 > it
    void get_above_below(AlignIo &io) const {
        const unspos pos1 = io.anchor1;
        auto b = std::partition_point(ends.begin(), ends.end(), [&](const Galign *a) { return a->end1 >= pos1; });
        io.belowList = b == ends.end() ? nullptr : *b;
        auto a = std::partition_point(starts.begin(), starts.end(), [&](const Galign *x) { return x->pos1 <= pos1; });
        io.aboveList = a == starts.end() ? nullptr : *a;
    }

    // align_left_right, for m before its insertion
    void align_left_right(Galign *m) {
        const unspos pos1 = m->pos1, pos2 = m->pos2, end1 = m->end1, end2 = m->end2;
        unspos rob = kInfinity, rot = kInfinity, lob = kInfinity, lot = kInfinity;
        Galign *mRob = nullptr, *mRot = nullptr, *mLob = nullptr, *mLot = nullptr;
        Seg *bRob = nullptr, *bRot = nullptr, *bLob = nullptr, *bLot = nullptr;
        for (Galign *a : meeting(pos1, end1)) {  // (LASTZ: all of obi, those outside skipped)
            Seg *bp;
            for (bp = a->firstSeg; bp != nullptr; bp = bp->next)
                if (bp->type != kHorz && bp->e1 >= pos1) break;
            if (bp != nullptr && bp->b1 <= pos1) {
                sgnpos x;
                if (bp->type == kDiag) x = (sgnpos)((uint32_t)sdiff(bp->b2, pos2) + (uint32_t)sdiff(pos1, bp->b1));
                else x = sdiff(bp->b2, pos2);
                if (x > 0 && (unspos)x < rob) { rob = (unspos)x; mRob = a; bRob = bp; }
                else if (x < 0 && (unspos)-x < lob) { lob = (unspos)-x; mLob = a; bLob = bp; }
            }
            for (; bp != nullptr; bp = bp->next)
                if (bp->type != kHorz && bp->e1 >= end1) break;
            if (bp != nullptr && bp->type != kHorz && bp->e1 >= end1) {
                sgnpos x;
                if (bp->type == kDiag) x = (sgnpos)((uint32_t)sdiff(bp->b2, end2) + (uint32_t)sdiff(end1, bp->b1));
                else x = sdiff(bp->b2, end2);
                if (x > 0 && (unspos)x < rot) { rot = (unspos)x; mRot = a; bRot = bp; }
                else if (x < 0 && (unspos)-x < lot) { lot = (unspos)-x; mLot = a; bLot = bp; }
            }
        }
        m->rightAlign1 = mRob;
        m->rightSeg1 = bRob;
        m->rightAlign2 = mRot;
        m->rightSeg2 = bRot;
        m->leftAlign1 = mLob;
        m->leftSeg1 = bLob;
        m->leftAlign2 = mLot;
        m->leftSeg2 = bLot;
    }
};

// segment_peak: the middle of the best 31-bp window (first best on ties), or the middle
// of a segment of 31 bp or less.
inline unspos segment_peak(const YdropScoring &sc, const uint8_t *s1, const uint8_t *s2, unspos len) {
    if (len <= kAnchorPeakLen) return len / 2;
    const uint8_t *t1 = s1, *t2 = s2;
    int32_t sim = 0;
    unspos ix;
    for (ix = 0; ix < kAnchorPeakLen; ix++) sim += sc.sub[*t1++][*t2++];
    int32_t best = sim;
    unspos peak = kAnchorPeakLen / 2;
    for (; ix < len; ix++) {
        sim -= sc.sub[*s1++][*s2++];
        sim += sc.sub[*t1++][*t2++];
        if (sim > best) {
            best = sim;
            peak = ix - (kAnchorPeakLen / 2);
        }
    }
    return peak;
}

inline uint8_t up(uint8_t c) { return (c >= 'a' && c <= 'z') ? (uint8_t)(c - 'a' + 'A') : c; }

}  // namespace ydrop_run
}  // namespace gale

#endif
