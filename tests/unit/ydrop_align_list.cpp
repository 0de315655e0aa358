// ydrop_align_list.cpp - the walk's index of the alignments found so far (lib/cpu/ydrop_run.h,
// AlignList) against LASTZ's own walks of its two lists (gapped_extend.c: insert_align,
// msp_left_right, get_above_below, align_left_right, restated below as they walk the lists
// from their heads): the same lists (obi by start, oed by end, every link), and for every
// query the same answer: the same alignments and segments found, the same "on a path"
// verdict, ties decided alike (the first in obi's order wins). No GPU.
//
// Cases (seed printed, GALE_TEST_SEED reproduces, GALE_TEST_SCALE scales): random sets of up
// to 400 alignments on targets of 1 kbp to 1 Mbp, short and long (past several of the
// index's buckets), many with equal starts, ends and diagonals (the ties), with diagonal,
// horizontal and vertical segments, inserted one by one with random queries between:
// anchors anywhere and on an alignment's diagonal, and new alignments' ranges.
#include "testutil.h"
#include "testgen.h"

#include "cpu/ydrop_run.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

using namespace gale;
using namespace gale::ydrop_run;

namespace {

// ---- LASTZ's walks of the lists (the reference) ----

void ref_insert(Galign *m, Galign **_obi, Galign **_oed) {
    Galign *obi = *_obi, *oed = *_oed, *mp, *mq;
    for (mq = nullptr, mp = obi; mp != nullptr; mq = mp, mp = mp->next)
        if (mp->pos1 >= m->pos1) break;
    if (mq != nullptr) { mq->next = m; m->next = mp; }
    else { m->next = obi; obi = m; }
    for (mq = nullptr, mp = oed; mp != nullptr; mq = mp, mp = mp->prev)
        if (mp->end1 <= m->end1) break;
    if (mq != nullptr) { mq->prev = m; m->prev = mp; }
    else { m->prev = oed; oed = m; }
    *_obi = obi;
    *_oed = oed;
}

bool ref_msp_left_right(Galign *obi, Galign *m) {
    const unspos pos1 = m->pos1, pos2 = m->pos2;
    unspos right = kInfinity, left = kInfinity;
    Galign *mRight = nullptr, *mLeft = nullptr;
    Seg *bRight = nullptr, *bLeft = nullptr;
    for (; obi != nullptr && obi->pos1 <= pos1; obi = obi->next) {
        if (obi->end1 < pos1) continue;
        Seg *bp;
        for (bp = obi->firstSeg; bp != nullptr; bp = bp->next)
            if (bp->e1 >= pos1) break;
        if (bp == nullptr) continue;
        sgnpos x;
        if (bp->type == kDiag) x = (sgnpos)((uint32_t)sdiff(bp->b2, pos2) + (uint32_t)sdiff(pos1, bp->b1));
        else x = sdiff(bp->b2, pos2);
        if (x == 0) return false;
        if (x > 0 && (unspos)x < right) { right = (unspos)x; mRight = obi; bRight = bp; }
        else if (x < 0 && (unspos)-x < left) { left = (unspos)-x; mLeft = obi; bLeft = bp; }
    }
    m->rightAlign1 = m->rightAlign2 = mRight;
    m->rightSeg1 = m->rightSeg2 = bRight;
    m->leftAlign1 = m->leftAlign2 = mLeft;
    m->leftSeg1 = m->leftSeg2 = bLeft;
    return true;
}

void ref_get_above_below(AlignIo &io, Galign *obi, Galign *oed) {
    const unspos pos1 = io.anchor1;
    Galign *mp;
    for (mp = oed; mp != nullptr; mp = mp->prev)
        if (mp->end1 < pos1) break;
    io.belowList = mp;
    for (mp = obi; mp != nullptr; mp = mp->next)
        if (mp->pos1 > pos1) break;
    io.aboveList = mp;
}

void ref_align_left_right(Galign *obi, Galign *m) {
    const unspos pos1 = m->pos1, pos2 = m->pos2, end1 = m->end1, end2 = m->end2;
    unspos rob = kInfinity, rot = kInfinity, lob = kInfinity, lot = kInfinity;
    Galign *mRob = nullptr, *mRot = nullptr, *mLob = nullptr, *mLot = nullptr;
    Seg *bRob = nullptr, *bRot = nullptr, *bLob = nullptr, *bLot = nullptr;
    for (; obi != nullptr; obi = obi->next) {
        if (obi->pos1 > end1 || obi->end1 < pos1) continue;
        Seg *bp;
        for (bp = obi->firstSeg; bp != nullptr; bp = bp->next)
            if (bp->type != kHorz && bp->e1 >= pos1) break;
        if (bp != nullptr && bp->b1 <= pos1) {
            sgnpos x;
            if (bp->type == kDiag) x = (sgnpos)((uint32_t)sdiff(bp->b2, pos2) + (uint32_t)sdiff(pos1, bp->b1));
            else x = sdiff(bp->b2, pos2);
            if (x > 0 && (unspos)x < rob) { rob = (unspos)x; mRob = obi; bRob = bp; }
            else if (x < 0 && (unspos)-x < lob) { lob = (unspos)-x; mLob = obi; bLob = bp; }
        }
        for (; bp != nullptr; bp = bp->next)
            if (bp->type != kHorz && bp->e1 >= end1) break;
        if (bp != nullptr && bp->type != kHorz && bp->e1 >= end1) {
            sgnpos x;
            if (bp->type == kDiag) x = (sgnpos)((uint32_t)sdiff(bp->b2, end2) + (uint32_t)sdiff(end1, bp->b1));
            else x = sdiff(bp->b2, end2);
            if (x > 0 && (unspos)x < rot) { rot = (unspos)x; mRot = obi; bRot = bp; }
            else if (x < 0 && (unspos)-x < lot) { lot = (unspos)-x; mLot = obi; bLot = bp; }
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

// ---- the cases ----

// One alignment's segments from (p1, p2) to end1 on the target: diagonal runs with gaps
// between them (horizontal: the query moves; vertical: the target moves), as
// Run::save_seg leaves them (b1..e1, b2..e2, linked).
void make_segs(tu_rng *r, std::deque<Seg> &store, Galign &a, unspos p1, unspos p2, unspos end1) {
    Seg *prev = nullptr;
    a.firstSeg = nullptr;
    while (true) {
        const unspos run = (unspos)tu_logrange(r, 1, 3000);
        store.push_back(Seg{p1, p2, std::min(end1, p1 + run - 1), 0, kDiag, prev, nullptr});
        Seg *s = &store.back();
        s->e2 = p2 + (s->e1 - p1);
        if (prev) prev->next = s;
        else a.firstSeg = s;
        prev = s;
        p2 = s->e2 + 1;
        p1 = s->e1 + 1;
        if (p1 > end1) break;
        const unspos gap = (unspos)tu_range(r, 1, 30);
        if (tu_chance(r, 0.5)) {  // horizontal: the query skips
            store.push_back(Seg{p1 - 1, p2, p1 - 1, p2 + gap - 1, kHorz, prev, nullptr});
            p2 += gap;
        } else {  // vertical: the target skips
            const unspos g = std::min(gap, end1 - p1 + 1);
            store.push_back(Seg{p1, p2 - 1, p1 + g - 1, p2 - 1, kVert, prev, nullptr});
            p1 += g;
        }
        prev->next = &store.back();
        prev = &store.back();
        if (p1 > end1) break;
    }
    a.lastSeg = prev;
    a.end2 = prev->e2;
}

long idx_of(const Galign *p, const Galign *base) { return p ? (long)(p - base) : -1; }

}  // namespace

int main() {
    const uint64_t seed = tu_seed("ydrop_align_list");
    const long cases = tu_scaled(300, 10);
    long queries = 0, on_path = 0;
    for (long c = 0; c < cases; ++c) {
        tu_rng r;
        tu_rng_stream(&r, seed, (uint64_t)c);
        const unspos len1 = (unspos)tu_logrange(&r, 1000, 1000000);
        const size_t n = (size_t)tu_range(&r, 1, 400);
        std::deque<Seg> segs;
        std::deque<SegIndex> ixs;
        std::vector<Galign> A(n + 1), B(n + 1);  // (the last: the probes)
        std::memset(A.data(), 0, sizeof(Galign) * A.size());
        // a few starts and diagonals that many alignments share (the ties)
        std::vector<unspos> starts, diags;
        for (int k = 0; k < 6; ++k) starts.push_back((unspos)tu_below(&r, len1));
        for (int k = 0; k < 4; ++k) diags.push_back((unspos)tu_below(&r, 200));
        for (size_t k = 0; k < n; ++k) {
            Galign &a = A[k];
            const unspos p1 = tu_chance(&r, 0.3) ? starts[tu_below(&r, starts.size())] : (unspos)tu_below(&r, len1);
            const unspos span = (unspos)tu_logrange(&r, 1, tu_chance(&r, 0.1) ? 200000 : 8000);
            const unspos e1 = std::min<unspos>(len1 - 1, p1 + span - 1);
            const unspos p2 = tu_chance(&r, 0.4) ? p1 + diags[tu_below(&r, diags.size())] : (unspos)tu_below(&r, len1);
            a.pos1 = p1;
            a.pos2 = p2;
            a.end1 = e1;
            make_segs(&r, segs, a, p1, p2, e1);
            if (tu_chance(&r, 0.5)) {  // Run::index_segs
                ixs.emplace_back();
                unspos top = 0;
                for (Seg *bp = a.firstSeg; bp != nullptr; bp = bp->next) {
                    top = ixs.back().segs.empty() ? bp->e1 : std::max(top, bp->e1);
                    ixs.back().segs.push_back(bp);
                    ixs.back().maxE1.push_back(top);
                }
                a.segIndex = &ixs.back();
            }
            a.align = -1;
        }
        B = A;
        AlignList list;
        Galign *obi = nullptr, *oed = nullptr;
        for (size_t k = 0; k < n; ++k) {
            // queries against the alignments so far
            const int q = (int)tu_range(&r, 1, 6);
            for (int t = 0; t < q; ++t) {
                Galign &pa = A[n], &pb = B[n];
                std::memset(&pa, 0, sizeof pa);
                unspos p1 = (unspos)tu_below(&r, len1), p2 = (unspos)tu_below(&r, len1);
                if (k > 0 && tu_chance(&r, 0.5)) {  // on or near an alignment's diagonal
                    const Galign &o = A[tu_below(&r, k)];
                    p1 = o.pos1 + (unspos)tu_below(&r, o.end1 - o.pos1 + 1);
                    p2 = (unspos)((int64_t)o.pos2 + (p1 - o.pos1) + tu_range(&r, -3, 3));
                }
                pa.pos1 = p1;
                pa.pos2 = p2;
                pa.end1 = std::min<unspos>(len1 - 1, p1 + (unspos)tu_logrange(&r, 1, 20000));
                pa.end2 = p2 + (pa.end1 - p1);
                pb = pa;
                const bool ra = list.msp_left_right(&pa), rb = ref_msp_left_right(obi, &pb);
                CHECK_MSG(ra == rb, "case %ld: msp_left_right at (%u,%u): %d, LASTZ's walk %d", c, p1, p2, ra, rb);
                if (ra && rb) {
                    CHECK_MSG(idx_of(pa.leftAlign1, A.data()) == idx_of(pb.leftAlign1, B.data()) &&
                                  idx_of(pa.rightAlign1, A.data()) == idx_of(pb.rightAlign1, B.data()) &&
                                  pa.leftSeg1 == pb.leftSeg1 && pa.rightSeg1 == pb.rightSeg1,
                              "case %ld: msp_left_right at (%u,%u): neighbours %ld/%ld, LASTZ's walk %ld/%ld", c, p1,
                              p2, idx_of(pa.leftAlign1, A.data()), idx_of(pa.rightAlign1, A.data()),
                              idx_of(pb.leftAlign1, B.data()), idx_of(pb.rightAlign1, B.data()));
                } else {
                    on_path++;
                }
                AlignIo ia{}, ib{};
                ia.anchor1 = ib.anchor1 = p1;
                list.get_above_below(ia);
                ref_get_above_below(ib, obi, oed);
                CHECK_MSG(idx_of(ia.aboveList, A.data()) == idx_of(ib.aboveList, B.data()) &&
                              idx_of(ia.belowList, A.data()) == idx_of(ib.belowList, B.data()),
                          "case %ld: get_above_below at %u", c, p1);
                std::memset(&pa, 0, sizeof pa);
                pa.pos1 = p1;
                pa.pos2 = p2;
                pa.end1 = pb.end1;
                pa.end2 = pb.end2;
                pb = pa;
                list.align_left_right(&pa);
                ref_align_left_right(obi, &pb);
                CHECK_MSG(idx_of(pa.leftAlign1, A.data()) == idx_of(pb.leftAlign1, B.data()) &&
                              idx_of(pa.leftAlign2, A.data()) == idx_of(pb.leftAlign2, B.data()) &&
                              idx_of(pa.rightAlign1, A.data()) == idx_of(pb.rightAlign1, B.data()) &&
                              idx_of(pa.rightAlign2, A.data()) == idx_of(pb.rightAlign2, B.data()) &&
                              pa.leftSeg1 == pb.leftSeg1 && pa.leftSeg2 == pb.leftSeg2 &&
                              pa.rightSeg1 == pb.rightSeg1 && pa.rightSeg2 == pb.rightSeg2,
                          "case %ld: align_left_right over [%u,%u]", c, pa.pos1, pa.end1);
                queries++;
            }
            list.insert(&A[k]);
            ref_insert(&B[k], &obi, &oed);
        }
        // the lists themselves, every link
        long ka = 0;
        Galign *x = list.obi, *y = obi;
        for (; x != nullptr && y != nullptr; x = x->next, y = y->next, ++ka)
            CHECK_MSG(idx_of(x, A.data()) == idx_of(y, B.data()), "case %ld: obi's element %ld", c, ka);
        CHECK_MSG(x == nullptr && y == nullptr, "case %ld: obi's length", c);
        ka = 0;
        for (x = list.oed, y = oed; x != nullptr && y != nullptr; x = x->prev, y = y->prev, ++ka)
            CHECK_MSG(idx_of(x, A.data()) == idx_of(y, B.data()), "case %ld: oed's element %ld", c, ka);
        CHECK_MSG(x == nullptr && y == nullptr, "case %ld: oed's length", c);
        if (tu_failures > 20) break;
    }
    printf("ydrop_align_list: %ld cases, %ld queries (%ld anchors on a path), lists compared\n", cases, queries,
           on_path);
    return tu_finish("ydrop_align_list");
}
