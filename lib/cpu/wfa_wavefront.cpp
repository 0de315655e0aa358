// CPU wavefront kernel, stage one: computing the wavefronts. The cell loops (one
// score of M and the gap components, and their backtrace codes), the greedy match
// extension, and the score loop that runs them to the alignment's end (Dir,
// find_end, run_to_end). lib/cpu/wfa_core.h describes the layout and the memory.
#include "wfa_core.h"

#include "target_clones.h"

namespace gale {
namespace wfacpu {

namespace {

// The cell loops are compiled twice, for AVX2 and for the baseline ISA, and the
// loader picks one per machine (GCC's target_clones, through GALE_TARGET_CLONES of
// lib/target_clones.h, which also says when there is one copy only, e.g. under
// ThreadSanitizer): AVX2's eight lanes and its native max and unsigned compares
// make them about twice as fast. The results are integers, the same either way.
#define GALE_CELL_CLONES GALE_TARGET_CLONES("avx2", "default")

// The cells of one affine score over M's range [lo, lo + W). Offsets are kNull or in
// [0, n]; unsigned arithmetic keeps h + 1 and h - k exact (lengths < 2^31) and turns
// nulls into huge values. A separate function so that restrict holds (the loop
// vectorizes) and the branches are selects.
// RAW (heuristic mode, lib/cpu/wfa_heuristic.cpp): WFA2-lib's kernel exactly: the gap
// candidates are not bounded, M is their maximum with X, nulled when that maximum lies
// past either sequence (wavefront_compute_affine_idm). An M cell whose best candidate
// overflows is lost there although another candidate fits; without a cut-off that never
// changes a score, with one it changes the ranges the cut-offs see. RAW 1: gap-affine and
// two-piece (the gap components keep the unbounded values, as WFA2-lib's do); RAW 2:
// gap-linear and indel, whose WFA2-lib recurrence has no gap components: a gap cell
// counts only where M is valid.
template <bool TWO, bool CODES, int RAW = 0>
GALE_CELL_CLONES void affine_cells(int32_t W, int32_t lo, uint32_t un, uint32_t um, const int32_t *__restrict pMx,
                  const int32_t *__restrict pMo, const int32_t *__restrict pDe, const int32_t *__restrict pIe,
                  const int32_t *__restrict pMo2, const int32_t *__restrict pD2e, const int32_t *__restrict pI2e,
                  int32_t *__restrict oM, int32_t *__restrict oD1, int32_t *__restrict oI1, int32_t *__restrict oD2,
                  int32_t *__restrict oI2, uint8_t *__restrict code) {
    for (int32_t i = 0; i < W; ++i) {
        const uint32_t uk = (uint32_t)(lo + i);
        if (RAW) {
            int32_t d1 = std::max(pMo[i], pDe[i]) + 1;
            int32_t i1 = std::max(pMo[i + 2], pIe[i]);
            const int32_t xv = pMx[i] + 1;
            int32_t mv = std::max(xv, std::max(d1, i1));
            int32_t d2 = kNull, i2 = kNull;
            if (TWO) {
                d2 = std::max(pMo2[i], pD2e[i]) + 1;
                i2 = std::max(pMo2[i + 2], pI2e[i]);
                mv = std::max(mv, std::max(d2, i2));
            }
            const bool ok = mv >= 0 && (uint32_t)mv <= un && (uint32_t)mv - uk <= um;
            if (!ok) mv = kNull;
            if (RAW == 2) {
                d1 = ok ? d1 : kNull;
                i1 = ok ? i1 : kNull;
            }
            oM[i] = mv;
            oD1[i] = d1 < 0 ? kNull : d1;
            oI1[i] = i1 < 0 ? kNull : i1;
            if (TWO) {
                oD2[i] = d2 < 0 ? kNull : d2;
                oI2[i] = i2 < 0 ? kNull : i2;
            }
            if (CODES) {
                uint32_t c = 0;
                if (TWO) {
                    c = i2 == mv ? (uint32_t)kSrcI2 : c;
                    c = d2 == mv ? (uint32_t)kSrcD2 : c;
                }
                c = i1 == mv ? (uint32_t)kSrcI1 : c;
                c = d1 == mv ? (uint32_t)kSrcD1 : c;
                c = xv == mv ? (uint32_t)kSrcX : c;
                c |= ((d1 >= 0) & (pDe[i] >= pMo[i])) ? (uint32_t)kExtD1 : 0u;
                c |= ((i1 >= 0) & (pIe[i] >= pMo[i + 2])) ? (uint32_t)kExtI1 : 0u;
                if (TWO) {
                    c |= ((d2 >= 0) & (pD2e[i] >= pMo2[i])) ? (uint32_t)kExtD2 : 0u;
                    c |= ((i2 >= 0) & (pI2e[i] >= pMo2[i + 2])) ? (uint32_t)kExtI2 : 0u;
                }
                code[i] = (uint8_t)c;
            }
            continue;
        }
        const int32_t d1s = std::max(pMo[i], pDe[i]);
        const uint32_t d1u = (uint32_t)d1s + 1u;
        const int32_t d1 = d1u <= un ? (int32_t)d1u : kNull;
        const int32_t i1s = std::max(pMo[i + 2], pIe[i]);
        const int32_t i1 = ((i1s >= 0) & ((uint32_t)i1s - uk <= um)) ? i1s : kNull;
        const uint32_t xu = (uint32_t)pMx[i] + 1u;
        const int32_t xv = ((xu <= un) & (xu - uk <= um)) ? (int32_t)xu : kNull;
        int32_t mv = std::max(xv, std::max(d1, i1));
        int32_t d2 = kNull, i2 = kNull;
        if (TWO) {
            const int32_t d2s = std::max(pMo2[i], pD2e[i]);
            const uint32_t d2u = (uint32_t)d2s + 1u;
            d2 = d2u <= un ? (int32_t)d2u : kNull;
            const int32_t i2s = std::max(pMo2[i + 2], pI2e[i]);
            i2 = ((i2s >= 0) & ((uint32_t)i2s - uk <= um)) ? i2s : kNull;
            mv = std::max(mv, std::max(d2, i2));
            oD2[i] = d2;
            oI2[i] = i2;
        }
        oM[i] = mv;
        oD1[i] = d1;
        oI1[i] = i1;
        if (CODES) {
            // M's source: the first maximum in the order X, D1, I1, D2, I2 (all
            // null: 0); a gap extends (ties included) when its extension source
            // is at least its opening source.
            uint32_t c = 0;
            if (TWO) {
                c = i2 == mv ? (uint32_t)kSrcI2 : c;
                c = d2 == mv ? (uint32_t)kSrcD2 : c;
            }
            c = i1 == mv ? (uint32_t)kSrcI1 : c;
            c = d1 == mv ? (uint32_t)kSrcD1 : c;
            c = xv == mv ? (uint32_t)kSrcX : c;
            c |= ((d1 >= 0) & (pDe[i] >= pMo[i])) ? (uint32_t)kExtD1 : 0u;
            c |= ((i1 >= 0) & (pIe[i] >= pMo[i + 2])) ? (uint32_t)kExtI1 : 0u;
            if (TWO) {
                c |= ((d2 >= 0) & (pD2e[i] >= pMo2[i])) ? (uint32_t)kExtD2 : 0u;
                c |= ((i2 >= 0) & (pI2e[i] >= pMo2[i + 2])) ? (uint32_t)kExtI2 : 0u;
            }
            code[i] = (uint8_t)c;
        }
    }
}

// Edit cells (and with CODES their backtrace codes). RAW (heuristic mode): WFA2-lib's
// kernel (wavefront_compute_edit_idm): M is the maximum of the unbounded candidates,
// nulled when it lies past either sequence (see affine_cells).
template <bool CODES, bool RAW = false>
GALE_CELL_CLONES void edit_cells(int32_t W, int32_t lo, uint32_t un, uint32_t um, const int32_t *__restrict pM,
                int32_t *__restrict oM, uint8_t *__restrict code) {
    for (int32_t i = 0; i < W; ++i) {
        const uint32_t uk = (uint32_t)(lo + i);
        if (RAW) {
            const int32_t xv = pM[i + 1] + 1, dv = pM[i] + 1, iv = pM[i + 2];
            int32_t mv = std::max(xv, std::max(dv, iv));
            if (!(mv >= 0 && (uint32_t)mv <= un && (uint32_t)mv - uk <= um)) mv = kNull;
            oM[i] = mv;
            if (CODES) {
                uint32_t c = iv == mv ? (uint32_t)kSrcI1 : 0u;
                c = dv == mv ? (uint32_t)kSrcD1 : c;
                c = xv == mv ? (uint32_t)kSrcX : c;
                code[i] = (uint8_t)(mv >= 0 ? c : 0u);
            }
            continue;
        }
        const uint32_t xu = (uint32_t)pM[i + 1] + 1u;
        const int32_t xv = ((xu <= un) & (xu - uk <= um)) ? (int32_t)xu : kNull;
        const uint32_t du = (uint32_t)pM[i] + 1u;
        const int32_t dv = du <= un ? (int32_t)du : kNull;
        const int32_t is = pM[i + 2];
        const int32_t iv = ((is >= 0) & ((uint32_t)is - uk <= um)) ? is : kNull;
        const int32_t mv = std::max(xv, std::max(dv, iv));
        oM[i] = mv;
        if (CODES) {
            uint32_t c = iv == mv ? (uint32_t)kSrcI1 : 0u;
            c = dv == mv ? (uint32_t)kSrcD1 : c;
            c = xv == mv ? (uint32_t)kSrcX : c;
            code[i] = (uint8_t)(mv >= 0 ? c : 0u);  // a null M has code 0
        }
    }
}

}  // namespace

// Every diagonal a cell loop reads or writes lies in [-m - 1, n + kCellPad]:
// ranges are clamped to [-m, n], a loop writes up to kCellPad - 1 diagonals
// past hi and reads one more on each side. A buffer gets slack beyond what a
// score needs (so that a widening range rarely reallocates) but never beyond
// that window, so one buffer holds at most m + n + kCellPad + 2 offsets. (A
// request outside the window would still be covered whole.)
inline void Dir::buffer_span(int64_t lo, int64_t hi, int64_t &blo, int64_t &bhi) const {
    const int64_t slack = 16 + (hi - lo + 1) / 4;
    blo = std::max<int64_t>(lo - slack, std::min<int64_t>(lo, -(int64_t)m - 1));
    bhi = std::min<int64_t>(hi + slack, std::max<int64_t>(hi, (int64_t)n + kCellPad));
}

// Output buffer of w over [lo, hi], writable up to diagonal top >= hi; w
// becomes that range.
inline int32_t *Dir::dst(Wave &w, int32_t lo, int32_t hi, int64_t top) {
    if (lo < w.base || top >= w.base + (int64_t)w.buf.size()) {
        int64_t blo, bhi;
        buffer_span(lo, top, blo, bhi);
        w.base = blo;
        w.buf.assign((size_t)(bhi - blo + 1), kNull);
    }
    w.has = true;
    w.lo = lo;
    w.hi = hi;
    w.ilo = lo;
    // The cell loops write [lo, top]: the cells past hi come out null (each of
    // their sources lies past its own range, or is a null, or breaks a bound).
    w.ihi = top;
    return w.at(lo);
}

// Width: at most m + n + kCellPad + 2 (a padded range and one diagonal on each
// side), and so is the buffer.
inline void Dir::ensure_nullbuf(int64_t width) {
    if ((int64_t)nullbuf.size() < width)
        nullbuf.assign((size_t)std::max<int64_t>(width, std::min<int64_t>(width + width / 4 + 16,
                                                                           (int64_t)m + n + kCellPad + 2)),
                       kNull);
}

// Pointer p with p[i] = the source's offset on diagonal wlo + i, nulls outside
// its range. nullbuf must already be wide enough for a missing source.
inline const int32_t *Dir::src(Wave *w, int64_t wlo, int64_t whi) {
    if (!w) return nullbuf.data();
    if (wlo < w->base || whi >= w->base + (int64_t)w->buf.size()) {
        // Grow: keep the range's values, nulls everywhere else.
        int64_t nbase, ntop;
        buffer_span(std::min<int64_t>(wlo, w->lo), std::max<int64_t>(whi, w->hi), nbase, ntop);
        std::vector<int32_t> nb((size_t)(ntop - nbase + 1), kNull);
        std::memcpy(nb.data() + (w->lo - nbase), w->at(w->lo), sizeof(int32_t) * (size_t)(w->hi - w->lo + 1));
        w->buf.swap(nb);
        w->base = nbase;
        w->ilo = nbase;
        w->ihi = nbase + (int64_t)w->buf.size() - 1;
    } else {
        if (wlo < w->ilo) {
            std::fill(w->at(wlo), w->at(w->ilo), kNull);
            w->ilo = wlo;
        }
        if (whi > w->ihi) {
            std::fill(w->at(w->ihi + 1), w->at(whi + 1), kNull);
            w->ihi = whi;
        }
    }
    return w->at(wlo);
}

// Range of a component from its sources, shifted by d, clamped to [-m, n].
inline bool Dir::range_from(Wave *a, Wave *b, int d, int32_t &lo, int32_t &hi) {
    if (!a && !b) return false;
    int64_t l = INT64_MAX, h = INT64_MIN;
    if (a) { l = std::min<int64_t>(l, a->lo); h = std::max<int64_t>(h, a->hi); }
    if (b) { l = std::min<int64_t>(l, b->lo); h = std::max<int64_t>(h, b->hi); }
    l = std::max<int64_t>(l + d, -(int64_t)m);
    h = std::min<int64_t>(h + d, n);
    if (l > h) return false;
    lo = (int32_t)l;
    hi = (int32_t)h;
    return true;
}

inline void Dir::no_range(CodeBuf *codes, std::vector<CodeRow> *rows) {
    for (int c = 0; c < kComps; ++c) slot(s, c).has = false;
    if (codes) rows->push_back(CodeRow{codes->size, 0, -1});
}

template <bool TWO>
inline bool Dir::step_affine(CodeBuf *codes, std::vector<CodeRow> *rows) {
    const int32_t x = pen.x, o = pen.o, e = pen.e, o2 = pen.o2, e2 = pen.e2;
    Wave *Mx = get(s - x, cM), *Mo = get(s - o - e, cM), *De = get(s - e, cD1), *Ie = get(s - e, cI1);
    // Indel under a heuristic: WFA2-lib's indel recurrence has no X (lib/wfa.h: X is a D
    // then an I, which WFA2-lib takes through M at s - 1, where a cut-off may have
    // removed the diagonal in between); without a cut the two are the same.
    if (pen.split_x && heur.strategy) Mx = nullptr;
    Wave *Mo2 = nullptr, *D2e = nullptr, *I2e = nullptr;
    if (TWO) {
        Mo2 = get(s - o2 - e2, cM);
        D2e = get(s - e2, cD2);
        I2e = get(s - e2, cI2);
    }
    inputs_null = !Mx && !Mo && !De && !Ie && !Mo2 && !D2e && !I2e;
    int32_t rl[kComps] = {0, 0, 0, 0, 0}, rh[kComps] = {0, 0, 0, 0, 0};
    bool rk[kComps] = {false, false, false, false, false};
    rk[cD1] = range_from(Mo, De, +1, rl[cD1], rh[cD1]);
    rk[cI1] = range_from(Mo, Ie, -1, rl[cI1], rh[cI1]);
    if (TWO) {
        rk[cD2] = range_from(Mo2, D2e, +1, rl[cD2], rh[cD2]);
        rk[cI2] = range_from(Mo2, I2e, -1, rl[cI2], rh[cI2]);
    }
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    bool any = false;
    if (Mx) { lo = Mx->lo; hi = Mx->hi; any = true; }
    for (int c = 1; c < kComps; ++c)
        if (rk[c]) {
            lo = std::min(lo, rl[c]);
            hi = std::max(hi, rh[c]);
            any = true;
        }
    // Begin-free starts at this score (match score < 0; lib/wfa.h): M's range takes
    // their diagonals in (pb <= m and tb <= n, so they lie in [-m, n]).
    const int64_t j = wfa_free_start(pen.a, s);
    const bool start_t = j > 0 && tb >= j, start_p = j > 0 && pb >= j;
    if (start_t) { lo = std::min(lo, (int32_t)j); hi = std::max(hi, (int32_t)j); any = true; }
    if (start_p) { lo = std::min(lo, (int32_t)-j); hi = std::max(hi, (int32_t)-j); any = true; }
    if (!any) {
        no_range(codes, rows);
        return false;
    }
    const int64_t W = (int64_t)hi - lo + 1, Wp = padded_width(W);
    const int64_t top = (int64_t)lo + Wp - 1;  // the loop computes [lo, top]
    cells += (uint64_t)W;
    ensure_nullbuf(Wp + 2);
    // Sources may be one and the same wave (x == o + e, ...): pad every one to the
    // widest window first, so that taking the pointers below reallocates nothing.
    for (Wave *w : {Mx, Mo, De, Ie, Mo2, D2e, I2e}) src(w, (int64_t)lo - 1, top + 1);
    const int32_t *__restrict pMx = src(Mx, lo, top);
    const int32_t *__restrict pMo = src(Mo, (int64_t)lo - 1, top + 1);  // [i]: k-1, [i+2]: k+1
    const int32_t *__restrict pDe = src(De, (int64_t)lo - 1, top - 1);
    const int32_t *__restrict pIe = src(Ie, (int64_t)lo + 1, top + 1);
    const int32_t *__restrict pMo2 = nullptr, *__restrict pD2e = nullptr, *__restrict pI2e = nullptr;
    if (TWO) {
        pMo2 = src(Mo2, (int64_t)lo - 1, top + 1);
        pD2e = src(D2e, (int64_t)lo - 1, top - 1);
        pI2e = src(I2e, (int64_t)lo + 1, top + 1);
    }
    int32_t *__restrict oM = dst(slot(s, cM), lo, hi, top);
    int32_t *__restrict oD1 = dst(slot(s, cD1), lo, hi, top);
    int32_t *__restrict oI1 = dst(slot(s, cI1), lo, hi, top);
    int32_t *__restrict oD2 = nullptr, *__restrict oI2 = nullptr;
    if (TWO) {
        oD2 = dst(slot(s, cD2), lo, hi, top);
        oI2 = dst(slot(s, cI2), lo, hi, top);
    }
    for (int c = 1; c < kComps; ++c) {
        Wave &w = slot(s, c);
        if (!TWO && c >= cD2) { w.has = false; continue; }
        w.has = rk[c];
        if (rk[c]) { w.lo = rl[c]; w.hi = rh[c]; }
    }
    // A row that would take the codes past their limit is not stored, but the
    // score is still computed in full (without codes), so that the attempt
    // stops with the same score and cells whether or not codes are kept;
    // run_to_end then gives up.
    uint8_t *__restrict code = nullptr;
    if (codes && codes->room((uint64_t)W)) {
        rows->push_back(CodeRow{codes->size, lo, hi});
        code = codes->append((size_t)W, (size_t)Wp);
    }
    const uint32_t un = (uint32_t)n, um = (uint32_t)m;
    const int32_t iW = (int32_t)Wp;
    if (heur.strategy) {
        // WFA2-lib's kernel (affine_cells' RAW), so that the cut-offs see its ranges.
        if (pen.linear) {
            if (code) affine_cells<TWO, true, 2>(iW, lo, un, um, pMx, pMo, pDe, pIe, pMo2, pD2e, pI2e, oM, oD1, oI1, oD2, oI2, code);
            else affine_cells<TWO, false, 2>(iW, lo, un, um, pMx, pMo, pDe, pIe, pMo2, pD2e, pI2e, oM, oD1, oI1, oD2, oI2, code);
        } else {
            if (code) affine_cells<TWO, true, 1>(iW, lo, un, um, pMx, pMo, pDe, pIe, pMo2, pD2e, pI2e, oM, oD1, oI1, oD2, oI2, code);
            else affine_cells<TWO, false, 1>(iW, lo, un, um, pMx, pMo, pDe, pIe, pMo2, pD2e, pI2e, oM, oD1, oI1, oD2, oI2, code);
        }
    } else if (code) {
        affine_cells<TWO, true>(iW, lo, un, um, pMx, pMo, pDe, pIe, pMo2, pD2e, pI2e, oM, oD1, oI1, oD2, oI2, code);
    } else {
        affine_cells<TWO, false>(iW, lo, un, um, pMx, pMo, pDe, pIe, pMo2, pD2e, pI2e, oM, oD1, oI1, oD2, oI2, code);
    }
    // A start wins ties, as in WFA2-lib (wavefront_compute_endsfree_init): it takes
    // the cell when the computed offset is null or no further.
    if (start_t && oM[j - lo] <= (int32_t)j) {
        oM[j - lo] = (int32_t)j;
        if (code) code[j - lo] = (uint8_t)((code[j - lo] & ~7u) | kSrcStart);
    }
    if (start_p && oM[-j - lo] <= 0) {
        oM[-j - lo] = 0;
        if (code) code[-j - lo] = (uint8_t)((code[-j - lo] & ~7u) | kSrcStart);
    }
    if (code) codes->commit();
    return true;
}

inline bool Dir::step_edit(CodeBuf *codes, std::vector<CodeRow> *rows) {
    Wave *Mp = get(s - 1, cM);
    for (int c = 1; c < kComps; ++c) slot(s, c).has = false;
    inputs_null = !Mp;
    int32_t lo, hi;
    if (!range_from(Mp, nullptr, 0, lo, hi)) {
        no_range(codes, rows);
        return false;
    }
    // [lo - 1, hi + 1], clamped
    lo = (int32_t)std::max<int64_t>((int64_t)lo - 1, -(int64_t)m);
    hi = (int32_t)std::min<int64_t>((int64_t)hi + 1, n);
    const int64_t W = (int64_t)hi - lo + 1, Wp = padded_width(W);
    const int64_t top = (int64_t)lo + Wp - 1;  // the loop computes [lo, top]
    cells += (uint64_t)W;
    ensure_nullbuf(Wp + 2);
    const int32_t *__restrict pM = src(Mp, (int64_t)lo - 1, top + 1);  // [i] k-1, [i+1] k, [i+2] k+1
    int32_t *__restrict oM = dst(slot(s, cM), lo, hi, top);
    const uint32_t un = (uint32_t)n, um = (uint32_t)m;
    const int32_t iW = (int32_t)Wp;
    if (codes && codes->room((uint64_t)W)) {  // as in step_affine
        rows->push_back(CodeRow{codes->size, lo, hi});
        uint8_t *code = codes->append((size_t)W, (size_t)Wp);
        if (heur.strategy) edit_cells<true, true>(iW, lo, un, um, pM, oM, code);
        else edit_cells<true>(iW, lo, un, um, pM, oM, code);
        codes->commit();
    } else if (heur.strategy) {
        edit_cells<false, true>(iW, lo, un, um, pM, oM, nullptr);
    } else {
        edit_cells<false>(iW, lo, un, um, pM, oM, nullptr);
    }
    return true;
}

inline void Dir::extend_m(Wave &M) {
    if (padded) {
        if (nmis) extend_all<true, true>(M);
        else extend_all<false, true>(M);
    } else {
        if (nmis) extend_all<true, false>(M);
        else extend_all<false, false>(M);
    }
}
template <bool NMIS, bool PADDED>
inline void Dir::extend_all(Wave &M) {
    // Locals: the offset stores could alias the members otherwise.
    int32_t *__restrict pm = M.at(M.lo);
    const int32_t lo = M.lo, w = M.hi - M.lo + 1, nn = n, mm = m;
    const uint8_t *pp = P, *tt = T;
    for (int32_t i = 0; i < w; ++i) {
        const int32_t h = pm[i];
        if (h < 0) continue;
        pm[i] = PADDED ? extend_run_padded<NMIS>(pp, tt, h, h - (lo + i))
                       : extend_run<NMIS>(pp, tt, h, h - (lo + i), nn, mm);
    }
}

// Score 0 (the header says what each public member does).
void Dir::init(CodeBuf *codes, std::vector<CodeRow> *rows) {
    s = 0;
    for (int c = 0; c < kComps; ++c) slot(0, c).has = false;
    if (!start_m) {
        // The reverse of a half that must end inside gap cs: its first step
        // continues that gap; nothing else starts here.
        dst(slot(0, cs), 0, 0, 0)[0] = 0;
        if (codes) rows->push_back(CodeRow{codes->size, 0, -1});
        return;
    }
    // With a match score the begin-free diagonals start later (step_affine).
    const int32_t lo = pen.a > 0 ? 0 : (int32_t)-std::min<int64_t>(pb, m);
    const int32_t hi = pen.a > 0 ? 0 : (int32_t)std::min<int64_t>(tb, n);
    Wave &M = slot(0, cM);
    int32_t *pm = dst(M, lo, hi, hi);
    for (int32_t k = lo; k <= hi; ++k) pm[k - lo] = std::max(k, 0);
    if (cs != cM) {  // a half that begins inside a gap: that gap at offset 0, free
        Wave &g = slot(0, cs);
        dst(g, 0, 0, 0)[0] = 0;
    }
    cells += (uint64_t)(hi - lo + 1);
    if (codes && codes->room((uint64_t)(hi - lo + 1))) {
        rows->push_back(CodeRow{codes->size, lo, hi});
        std::memset(codes->append((size_t)(hi - lo + 1), (size_t)(hi - lo + 1)), 0, (size_t)(hi - lo + 1));
        codes->commit();
    }
    extend_m(M);
}

bool Dir::step(CodeBuf *codes, std::vector<CodeRow> *rows) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Stopped{};
    ++s;
    bool any;
    if (pen.metric == kMetricEdit) any = step_edit(codes, rows);
    else if (pen.metric == kMetricAffine2p) any = step_affine<true>(codes, rows);
    else any = step_affine<false>(codes, rows);
    // WFA2-lib prunes edit end-to-end wavefronts as it computes them, before their extension
    // (wavefront_compute_edit: trim, then wavefront_compute_edit_exact_prune).
    if (any && exact_prune) {
        trim_ends();
        Wave *M = get(s, cM);
        if (M) {
            int32_t lo = M->lo, hi = M->hi;
            wfa_edit_exact_prune(m, n, [M](int32_t k) { return *M->at(k); }, lo, hi);
            if (lo != M->lo || hi != M->hi) cut_to(lo, hi);
        }
        any = slot(s, cM).has;
    }
    if (any) extend_m(slot(s, cM));
    if (heur.strategy) {
        trim_ends();
        any = slot(s, cM).has;
    }
    return any;
}

// Heuristic mode: every component of the last score trimmed to its first and last
// non-null cell, none if it has none (WFA2-lib's wavefront_compute_trim_ends), so that
// the cut-offs see WFA2-lib's ranges (lib/cpu/wfa_heuristic.cpp). The cells trimmed
// are null already; later scores read them as nulls either way.
void Dir::trim_ends() {
    for (int c = 0; c < kComps; ++c) {
        Wave &w = slot(s, c);
        if (!w.has) continue;
        // WFA2-lib trims a cell that is null or lies past either sequence.
        const auto bad = [&](int32_t k) {
            const int32_t h = *w.at(k);
            return h < 0 || h > n || (int64_t)h - k > m;
        };
        int32_t lo = w.lo, hi = w.hi;
        while (hi >= lo && bad(hi)) --hi;
        while (lo <= hi && bad(lo)) ++lo;
        // A trimmed cell may hold an offset past the sequences (a gap component's,
        // WFA2-lib's unbounded kernel): null it, since later scores read the buffer.
        if (lo > hi) {
            std::fill(w.at(w.lo), w.at(w.hi) + 1, kNull);
            w.has = false;
            continue;
        }
        std::fill(w.at(w.lo), w.at(lo), kNull);
        std::fill(w.at(hi) + 1, w.at(w.hi) + 1, kNull);
        w.lo = lo;
        w.hi = hi;
    }
}

namespace {

// The end of an alignment at the last score of d: the lowest diagonal of M (or of
// component ce, end-to-end only) that reaches it. Returns false if none yet.
bool find_end(Dir &d, int ce, int64_t pe, int64_t te, int32_t &k_end, int32_t &h_end) {
    if (pe == 0 && te == 0) {
        const int64_t k = (int64_t)d.n - d.m;
        if (d.value(d.s, ce, k) == d.n) {
            k_end = (int32_t)k;
            h_end = d.n;
            return true;
        }
        return false;
    }
    int32_t lo, hi;
    if (!d.m_range(lo, hi)) return false;
    const int32_t *pm = d.slot(d.s, cM).at(lo);
    for (int32_t k = lo; k <= hi; ++k) {
        const int32_t h = pm[k - lo];
        if (h < 0) continue;
        const int64_t v = (int64_t)h - k;
        if ((h == d.n && d.m - v <= pe) || (v == d.m && d.n - h <= te)) {
            k_end = k;
            h_end = h;
            return true;
        }
    }
    return false;
}

}  // namespace

bool run_to_end(Dir &d, int ce, int64_t pe, int64_t te, CodeBuf *codes, std::vector<CodeRow> *rows,
                uint64_t max_codes, int32_t &k_end, int32_t &h_end) {
    if (codes) {
        codes->clear(max_codes);
        rows->clear();
    }
    d.init(codes, rows);
    if (d.heur.strategy) {
        d.trim_ends();
        d.heur.clear();
    }
    for (;;) {
        if (codes && codes->over) return false;
        if (find_end(d, ce, pe, te, k_end, h_end)) return true;
        if (d.heur.strategy) {
            d.cutoff();
            d.step(codes, rows);
            // WFA2-lib's end of a heuristic alignment that lost every path: more than its
            // score scope (the ring) of scores with no source at all and no M (a begin-free
            // start, with a match score, gives an M).
            d.null_steps = d.inputs_null ? d.null_steps + 1 : 0;
            if (d.inputs_null && !d.get(d.s, cM) && d.null_steps > d.R) {
                d.unfeasible = true;
                return true;
            }
            continue;
        }
        d.step(codes, rows);
    }
}

}  // namespace wfacpu
}  // namespace gale
