// CPU kernel of ksw2's Z-drop extension: ksw_extz2_sse, ksw_extd2_sse and ksw_exts2_sse
// of minimap2 2.24 as Debian's libminimap2-dev builds them (the SSE4.1 paths; Debian's
// library links them directly, not through ksw2's dispatcher), transcribed operation by
// operation onto 16-lane blocks of bytes (V16 below), so that every field, the CIGAR
// included, is bit-identical to ksw2 on every input (tests/oracle/zdrop_ksw2.cpp).
//
// Why a transcription and not the recurrence in 32 bits: ksw2's results depend on its
// 8-bit arithmetic and its memory layout. The quirks reproduced here, each where it
// happens (marked "Quirk"):
//  Q1 mte_q is r - en with en the band end rounded up to its 16-cell block, not the
//     cell's own column (fixed upstream after 2.24): identical 23-mers give mte_q 13.
//  Q2 Cells past the band's last column, up to the end of the 16-cell block, are
//     computed from stale or out-of-range bytes (scores of earlier anti-diagonals, the
//     reversed query after the target's bytes, zeros past the query) and read back by
//     the next anti-diagonal as its upper neighbours. With a band narrower than the
//     pair needs this changes scores: the reported score can differ from what its
//     CIGAR scores, and an extension's max can be below its CIGAR's score.
//  Q3 Score differences are 8-bit and wrap: extz2 clamps z to mat[0] + 2(q + e) with
//     unsigned byte compares; parameters whose differences leave int8 give ksw2's
//     wrapped results, not the true optimum.
//  Q4 extz2 loads the carried-in neighbour x1/v1 with _mm_cvtsi32_si128 of a signed
//     byte: a negative one sign-extends into lanes 1-3 of the band's first block,
//     which are then OR-ed with 0xff (extd2/exts2 cast to uint8 first).
//  Q5 extd2 swaps (q, e) with (q2, e2) when q2 + e2 < q + e, but its scalar qe (used
//     for H[0] on the first anti-diagonal) is taken before the swap; Z-drop applies
//     e2 (after the swap), not e. exts2 applies Z-drop with e = 0.
//  Q6 The maximum moves only on a strict '>'; the per-anti-diagonal maximum is found
//     four lanes at a time (ties resolved per lane, then lanes 0..3 in order, then the
//     tail scalarly), and the Z-drop test runs only when that maximum lies down-right of
//     the overall one (t >= max_t and q >= max_q).
//  Q7 With APPROX_MAX|APPROX_DROP, extz2 tests Z-drop only from the second
//     anti-diagonal on; extd2/exts2 test it on the first too.
//  Q8 If the matrix's last entry (N against N) is 0, non-generic scoring scores every
//     cell with an N as -e (extz2, exts2) or -e2 (extd2); with GENERIC_SC the whole
//     matrix is used, but only for the band's own cells (padded lanes keep stale bytes).
//  Q9 Writing the scores of a block that straddles the end of the score array spills
//     into the copy of the target (bytes no later anti-diagonal reads); reproduced by
//     keeping ksw2's layout in one buffer.
//  Q10 With a band too narrow for the lengths (st > en) the loop stops with zdropped set
//     and score KSW_NEG_INF; exts2 has no band.
//  Q11 extd2's gap cost min(q + l e, q2 + l e2) assumes q + e <= q2 + e2 (hence Q5's swap);
//     exts2 returns an empty result (max 0, everything else reset) unless q2 > q + e.
// The one deliberate difference: ksw2 keeps the backtrack codes in a rectangle of
// (qlen + tlen - 1) x (band blocks) x 16 bytes; gale keeps each anti-diagonal's bytes
// only (the same codes, less memory).
#include "zdrop.h"

#include <algorithm>
#include <cstring>

namespace gale {

struct ZdropScratch {
    std::vector<uint8_t> mem;   // ksw2's kcalloc'd block, byte for byte the same layout
    std::vector<int32_t> H;     // the exact 32-bit scores of the last anti-diagonal
    std::vector<uint8_t> p;     // backtrack codes: anti-diagonal r from prow[r], columns off[r]..off_end[r]
    std::vector<uint64_t> prow;
    std::vector<int32_t> off, off_end;
};

ZdropScratch *zdrop_scratch_new() { return new ZdropScratch(); }
void zdrop_scratch_free(ZdropScratch *s) { delete s; }

namespace {

constexpr uint64_t kCancelPollCells = (uint64_t)1 << 16;

// A worker keeps its buffers for the next task, except those over 64 MiB (an unbanded
// 20 kbp pair's backtrack codes take 800 MB), which go when the task ends, as the WFA
// kernel's do.
constexpr size_t kKeepBytes = (size_t)64 << 20;
template <class T>
void trim(std::vector<T> &v) {
    if (v.capacity() * sizeof(T) > kKeepBytes) std::vector<T>().swap(v);
}

// ---- SSE's byte lanes ---------------------------------------------------------------
// One __m128i as 16 signed bytes; each function is the intrinsic it is named after
// (SSE4.1's where ksw2's SSE4.1 path uses one). With GCC the lanes are a vector type, so
// that each function compiles to one or a few SSE instructions; elsewhere a plain array.
#if defined(__GNUC__) && !defined(__clang__) && !defined(GALE_ZD_NO_VECTOR)
typedef int8_t V16 __attribute__((vector_size(16)));
typedef uint8_t U16 __attribute__((vector_size(16)));
inline V16 set1(int v) { return V16{} + (int8_t)v; }
inline V16 load(const int8_t *p) {
    V16 r;
    std::memcpy(&r, p, 16);
    return r;
}
inline void store(int8_t *p, const V16 &a) { std::memcpy(p, &a, 16); }
inline V16 add8(V16 a, V16 c) { return (V16)((U16)a + (U16)c); }  // _mm_add_epi8 (wraps)
inline V16 sub8(V16 a, V16 c) { return (V16)((U16)a - (U16)c); }  // _mm_sub_epi8 (wraps)
inline V16 max_s(V16 a, V16 c) { return a > c ? a : c; }           // _mm_max_epi8
inline V16 min_s(V16 a, V16 c) { return a < c ? a : c; }           // _mm_min_epi8
inline V16 max_u(V16 a, V16 c) { return (V16)((U16)a > (U16)c ? (U16)a : (U16)c); }  // _mm_max_epu8
inline V16 min_u(V16 a, V16 c) { return (V16)((U16)a < (U16)c ? (U16)a : (U16)c); }  // _mm_min_epu8
inline V16 gt(V16 a, V16 c) { return (V16)(a > c); }               // _mm_cmpgt_epi8
inline V16 eq(V16 a, V16 c) { return (V16)(a == c); }              // _mm_cmpeq_epi8
inline V16 and8(V16 a, V16 c) { return a & c; }                   // _mm_and_si128
inline V16 or8(V16 a, V16 c) { return a | c; }                    // _mm_or_si128
inline V16 andnot8(V16 a, V16 c) { return ~a & c; }               // _mm_andnot_si128
// _mm_blendv_epi8(a, b, mask): b where the mask byte's top bit is set.
inline V16 blendv(V16 a, V16 c, V16 mask) { return mask < 0 ? c : a; }
// _mm_or_si128(_mm_slli_si128(a, 1), in): lanes move up one; `in` fills lane 0 (and,
// Q4, may carry bits into lanes 1-3).
inline V16 shift_in(V16 a, V16 in) {
    return __builtin_shuffle(a, V16{}, (V16){16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}) | in;
}
// _mm_srli_si128(a, 15): lane 15 alone, in lane 0.
inline V16 top_lane(V16 a) {
    return __builtin_shuffle(a, V16{}, (V16){15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16});
}
#else
struct V16 {
    int8_t b[16];
    int8_t operator[](int k) const { return b[k]; }
};
inline V16 set1(int v) {
    V16 r;
    for (int k = 0; k < 16; ++k) r.b[k] = (int8_t)v;
    return r;
}
inline V16 load(const int8_t *p) {
    V16 r;
    std::memcpy(r.b, p, 16);
    return r;
}
inline void store(int8_t *p, const V16 &a) { std::memcpy(p, a.b, 16); }
#define GALE_V16_OP(name, expr)                   \
    inline V16 name(const V16 &a, const V16 &c) { \
        V16 r;                                    \
        for (int k = 0; k < 16; ++k) {            \
            const int8_t x = a.b[k], y = c.b[k];  \
            r.b[k] = (int8_t)(expr);              \
        }                                         \
        return r;                                 \
    }
GALE_V16_OP(add8, (uint8_t)((uint8_t)x + (uint8_t)y))
GALE_V16_OP(sub8, (uint8_t)((uint8_t)x - (uint8_t)y))
GALE_V16_OP(max_s, x > y ? x : y)
GALE_V16_OP(min_s, x < y ? x : y)
GALE_V16_OP(max_u, (uint8_t)x > (uint8_t)y ? x : y)
GALE_V16_OP(min_u, (uint8_t)x < (uint8_t)y ? x : y)
GALE_V16_OP(gt, x > y ? -1 : 0)
GALE_V16_OP(eq, x == y ? -1 : 0)
GALE_V16_OP(and8, x &y)
GALE_V16_OP(or8, x | y)
GALE_V16_OP(andnot8, ~x & y)
#undef GALE_V16_OP
inline V16 blendv(const V16 &a, const V16 &c, const V16 &mask) {
    V16 r;
    for (int k = 0; k < 16; ++k) r.b[k] = mask.b[k] < 0 ? c.b[k] : a.b[k];
    return r;
}
inline V16 shift_in(const V16 &a, const V16 &in) {
    V16 r;
    r.b[0] = in.b[0];
    for (int k = 1; k < 16; ++k) r.b[k] = (int8_t)(a.b[k - 1] | in.b[k]);
    return r;
}
inline V16 top_lane(const V16 &a) {
    V16 r = set1(0);
    r.b[0] = a.b[15];
    return r;
}
#endif
// _mm_cvtsi32_si128(v): the four bytes of the 32-bit v in lanes 0-3.
inline V16 cvtsi32(int32_t v) {
    int8_t b[16] = {};
    const uint32_t u = (uint32_t)v;
    for (int k = 0; k < 4; ++k) b[k] = (int8_t)(uint8_t)(u >> (8 * k));
    return load(b);
}

inline int32_t add32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }  // _mm_add_epi32

// ---- the three functions, one template -------------------------------------------------

// MODE: 0 score only, 1 CIGAR with gaps left-aligned, 2 right-aligned (KSW_EZ_RIGHT): compile-time,
// so that the cell loop has no branch on them (GCC at -O2 does not unswitch it).
template <int V, int MODE>
bool run(const ZdropParams &P, int m, const int8_t *mat, int qlen, const uint8_t *query, int tlen,
         const uint8_t *target, const uint8_t *junc, ZdropOut &ez, std::vector<uint32_t> &cigar, ZdropScratch &ws,
         const std::atomic<bool> *cancel) {
    constexpr bool Z = V == kZdExtz2, D = V == kZdExtd2, S = V == kZdExts2;
    const int flag = P.flag, zdrop = P.zdrop, end_bonus = P.end_bonus;
    int8_t q = P.q, e = P.e, q2 = P.q2, e2 = P.e2;
    const int8_t noncan = P.noncan, junc_bonus = P.junc_bonus;
    int w = P.w;
    const int qe = q + e;  // Q5: before extd2's swap
    constexpr bool with_cigar = MODE != 0;
    const bool approx_max = (flag & kZdApproxMax) != 0;
    int32_t H0 = 0, last_H0_t = 0;
    int long_thres = 0, long_diff = 0;

    cigar.clear();
    zdrop_reset(ez);
    if (Z && (m <= 0 || qlen <= 0 || tlen <= 0)) return true;
    if (D && (m <= 1 || qlen <= 0 || tlen <= 0)) return true;
    if (S && (m <= 1 || qlen <= 0 || tlen <= 0 || q2 <= q + e)) return true;  // Q11

    if (D && q2 + e2 < q + e) std::swap(q, q2), std::swap(e, e2);  // Q5, Q11

    const V16 zero_ = set1(0), q_ = set1(q), q2_ = set1(q2), qe_ = set1(q + e), qe2_ = set1(Z ? (q + e) * 2 : q2 + e2);
    const V16 sc_mch_ = set1(mat[0]), sc_mis_ = set1(mat[1]);
    const V16 sc_N_ = mat[m * m - 1] == 0 ? set1(D ? -e2 : -e) : set1(mat[m * m - 1]);  // Q8
    const V16 m1_ = set1(m - 1);
    const V16 max_sc_ = set1(mat[0] + (q + e) * 2);  // Q3 (extz2)

    int wl = 0, wr = 0;
    if (!S) {
        if (w < 0) w = tlen > qlen ? tlen : qlen;
        wl = wr = w;
    }
    const int tlen_ = (tlen + 15) / 16, qlen_ = (qlen + 15) / 16;
    int min_sc = mat[1];
    for (int t = 1; t < m * m; ++t) min_sc = min_sc < mat[t] ? min_sc : mat[t];
    if (-min_sc > 2 * (q + e)) return true;  // ksw2: "otherwise, we won't see any mismatches"

    if (D) {
        long_thres = e != e2 ? (q2 - q) / (e - e2) - 1 : 0;
        if (q2 + e2 + long_thres * e2 > q + e + long_thres * e) ++long_thres;
        long_diff = long_thres * (e - e2) - (q2 - q) - e2;
    } else if (S) {
        long_thres = (q2 - q) / e - 1;
        if (q2 > q + e + long_thres * e) ++long_thres;
        long_diff = long_thres * e - (q2 - q);
    }

    // ksw2's block (Q2, Q9): the arrays, then the scores, the target, the reversed query.
    const size_t blocks = Z ? 6 : D ? 8 : 9, T = (size_t)tlen_ * 16;
    ws.mem.assign((blocks * tlen_ + qlen_ + 1) * 16, 0);
    int8_t *mem = reinterpret_cast<int8_t *>(ws.mem.data());
    int8_t *u = mem, *v = u + T, *x = v + T, *y = x + T, *x2 = nullptr, *y2 = nullptr, *donor = nullptr,
           *acceptor = nullptr, *s;
    if (Z) s = y + T;
    else if (D) x2 = y + T, y2 = x2 + T, s = y2 + T;
    else x2 = y + T, donor = x2 + T, acceptor = donor + T, s = acceptor + T;
    uint8_t *sf = reinterpret_cast<uint8_t *>(s + T), *qr = sf + T;
    if (D) {
        std::memset(u, -q - e, T), std::memset(v, -q - e, T), std::memset(x, -q - e, T), std::memset(y, -q - e, T);
        std::memset(x2, -q2 - e2, T), std::memset(y2, -q2 - e2, T);
    } else if (S) {
        std::memset(u, -q - e, 4 * T);
        std::memset(x2, -q2, T);
    }
    int32_t *H = nullptr;
    if (!approx_max) {
        ws.H.assign(T, kZdNegInf);
        H = ws.H.data();
    }
    const int n_rows = qlen + tlen - 1;
    if (with_cigar) {
        ws.off.resize(n_rows);
        ws.off_end.resize(n_rows);
        ws.prow.resize(n_rows);
        // every anti-diagonal's padded band: at most min(qlen, tlen, w + 1) cells and 30 of
        // padding, within the tlen_ * 16 columns (grown once, kept for the next tasks)
        uint64_t band = (uint64_t)std::min(qlen, tlen);
        if (!S && (uint64_t)w + 1 < band) band = (uint64_t)w + 1;
        const size_t need = (size_t)n_rows * (size_t)std::min<uint64_t>(band + 30, T);
        if (ws.p.size() < need) ws.p.resize(need);
    }
    for (int t = 0; t < qlen; ++t) qr[t] = query[qlen - 1 - t];
    std::memcpy(sf, target, tlen);

    if (S && (flag & (kZdSpliceFor | kZdSpliceRev))) {  // ksw2's donor and acceptor scores (0..3 codes)
        const int semi_cost = flag & kZdSpliceFlank ? -noncan / 2 : 0;
        std::memset(donor, -noncan, T);
        std::memset(acceptor, -noncan, T);
        const bool f = flag & kZdSpliceFor, rv = flag & kZdSpliceRev;
        if (!(flag & kZdRevCigar)) {
            for (int t = 0; t < tlen - 4; ++t) {
                int can_type = 0;
                if (f && target[t + 1] == 2 && target[t + 2] == 3) can_type = 1;
                if (rv && target[t + 1] == 1 && target[t + 2] == 3) can_type = 1;
                if (can_type && (target[t + 3] == 0 || target[t + 3] == 2)) can_type = 2;
                if (can_type) donor[t] = (int8_t)(can_type == 2 ? 0 : semi_cost);
            }
            if (junc)
                for (int t = 0; t < tlen - 1; ++t)
                    if ((f && (junc[t + 1] & 1)) || (rv && (junc[t + 1] & 8))) donor[t] = (int8_t)(donor[t] + junc_bonus);
            for (int t = 2; t < tlen; ++t) {
                int can_type = 0;
                if (f && target[t - 1] == 0 && target[t] == 2) can_type = 1;
                if (rv && target[t - 1] == 0 && target[t] == 1) can_type = 1;
                if (can_type && (target[t - 2] == 1 || target[t - 2] == 3)) can_type = 2;
                if (can_type) acceptor[t] = (int8_t)(can_type == 2 ? 0 : semi_cost);
            }
            if (junc)
                for (int t = 0; t < tlen; ++t)
                    if ((f && (junc[t] & 2)) || (rv && (junc[t] & 4))) acceptor[t] = (int8_t)(acceptor[t] + junc_bonus);
        } else {
            for (int t = 0; t < tlen - 4; ++t) {
                int can_type = 0;
                if (f && target[t + 1] == 2 && target[t + 2] == 0) can_type = 1;
                if (rv && target[t + 1] == 1 && target[t + 2] == 0) can_type = 1;
                if (can_type && (target[t + 3] == 1 || target[t + 3] == 3)) can_type = 2;
                if (can_type) donor[t] = (int8_t)(can_type == 2 ? 0 : semi_cost);
            }
            if (junc)
                for (int t = 0; t < tlen - 1; ++t)
                    if ((f && (junc[t + 1] & 2)) || (rv && (junc[t + 1] & 4))) donor[t] = (int8_t)(donor[t] + junc_bonus);
            for (int t = 2; t < tlen; ++t) {
                int can_type = 0;
                if (f && target[t - 1] == 3 && target[t] == 2) can_type = 1;
                if (rv && target[t - 1] == 3 && target[t] == 1) can_type = 1;
                if (can_type && (target[t - 2] == 0 || target[t - 2] == 2)) can_type = 2;
                if (can_type) acceptor[t] = (int8_t)(can_type == 2 ? 0 : semi_cost);
            }
            if (junc)
                for (int t = 0; t < tlen; ++t)
                    if ((f && (junc[t] & 1)) || (rv && (junc[t] & 8))) acceptor[t] = (int8_t)(acceptor[t] + junc_bonus);
        }
    }

    // extz2 reads u and v as unsigned bytes (its H adds them minus qe), extd2/exts2 signed.
    auto hd = [&](const int8_t *a, int t) -> int32_t { return Z ? (int32_t)(uint8_t)a[t] - qe : (int32_t)a[t]; };

    uint64_t cells = 0, since_poll = 0;
    int last_st = -1, last_en = -1;
    for (int r = 0; r < n_rows; ++r) {
        int st = 0, en = tlen - 1;
        const uint8_t *qrr = qr + (qlen - 1 - r);
        if (st < r - qlen + 1) st = r - qlen + 1;
        if (en > r) en = r;
        if (!S) {
            if (st < (r - wr + 1) >> 1) st = (r - wr + 1) >> 1;
            if (en > (r + wl) >> 1) en = (r + wl) >> 1;
            if (st > en) {  // Q10
                ez.zdropped = 1;
                break;
            }
        }
        const int st0 = st, en0 = en;
        st = st / 16 * 16, en = (en + 16) / 16 * 16 - 1;
        // boundary conditions
        int8_t x1, v1, x21 = 0;
        if (Z) {
            if (st > 0) {
                if (st - 1 >= last_st && st - 1 <= last_en) x1 = x[st - 1], v1 = v[st - 1];
                else x1 = v1 = 0;
            } else x1 = 0, v1 = r ? q : 0;
            if (en >= r) y[r] = 0, u[r] = r ? q : 0;
        } else {
            const int8_t first = (int8_t)(r == 0 ? -q - e : r < long_thres ? -e : r == long_thres ? long_diff : D ? -e2 : 0);
            const int8_t x2_init = (int8_t)(D ? -q2 - e2 : -q2);
            if (st > 0) {
                if (st - 1 >= last_st && st - 1 <= last_en) x1 = x[st - 1], x21 = x2[st - 1], v1 = v[st - 1];
                else x1 = (int8_t)(-q - e), x21 = x2_init, v1 = (int8_t)(-q - e);
            } else {
                x1 = (int8_t)(-q - e), x21 = x2_init;
                v1 = first;
            }
            if (en >= r) {
                y[r] = (int8_t)(-q - e);
                if (D) y2[r] = (int8_t)(-q2 - e2);
                u[r] = first;
            }
        }
        // scores first (Q8, Q9)
        if (!(flag & kZdGenericSc)) {
            for (int t = st0; t <= en0; t += 16) {
                const V16 sq = load(reinterpret_cast<const int8_t *>(sf + t)),
                          sT = load(reinterpret_cast<const int8_t *>(qrr + t));
                const V16 mask = or8(eq(sq, m1_), eq(sT, m1_));
                V16 tmp = eq(sq, sT);
                tmp = blendv(sc_mis_, sc_mch_, tmp);
                tmp = blendv(tmp, sc_N_, mask);
                store(s + t, tmp);
            }
        } else {
            for (int t = st0; t <= en0; ++t) s[t] = mat[sf[t] * m + qrr[t]];
        }
        // core loop. Q4: extz2's carried-in bytes are sign-extended into lanes 1-3.
        V16 x1_ = Z ? cvtsi32(x1) : cvtsi32((uint8_t)x1);
        V16 v1_ = Z ? cvtsi32(v1) : cvtsi32((uint8_t)v1);
        V16 x21_ = cvtsi32((uint8_t)x21);
        const int st_ = st / 16, en_ = en / 16;
        uint8_t *pr = nullptr;
        if (with_cigar) {
            ws.off[r] = st, ws.off_end[r] = en;
            ws.prow[r] = r ? ws.prow[r - 1] + (uint64_t)(ws.off_end[r - 1] - ws.off[r - 1] + 1) : 0;
            pr = ws.p.data() + ws.prow[r];
        }
        constexpr bool right = MODE == 2;
        for (int tb = st_; tb <= en_; ++tb) {
            int8_t *xb = x + tb * 16, *vb = v + tb * 16, *ub = u + tb * 16, *yb = y + tb * 16;
            V16 z = load(s + tb * 16);
            V16 xt1 = load(xb), tmp = top_lane(xt1);
            xt1 = shift_in(xt1, x1_);
            x1_ = tmp;
            V16 vt1 = load(vb);
            tmp = top_lane(vt1);
            vt1 = shift_in(vt1, v1_);
            v1_ = tmp;
            V16 a = add8(xt1, vt1);
            const V16 ut = load(ub);
            V16 b = add8(load(yb), ut);
            V16 d = set1(0);
            if (Z) {
                z = add8(z, qe2_);
                if (!with_cigar) {
                    z = max_s(z, a);
                } else if (!right) {
                    d = and8(gt(a, z), set1(1));
                    z = max_s(z, a);
                    d = blendv(d, set1(2), gt(b, z));
                } else {
                    d = andnot8(gt(z, a), set1(1));
                    z = max_s(z, a);
                    d = blendv(set1(2), d, gt(z, b));
                }
                z = max_u(z, b);  // Q3
                z = min_u(z, max_sc_);
                store(ub, sub8(z, vt1));
                store(vb, sub8(z, ut));
                z = sub8(z, q_);
                a = sub8(a, z);
                b = sub8(b, z);
                if (!with_cigar) {
                    store(xb, max_s(a, zero_));
                    store(yb, max_s(b, zero_));
                } else if (!right) {
                    tmp = gt(a, zero_);
                    store(xb, and8(tmp, a));
                    d = or8(d, and8(tmp, set1(0x08)));
                    tmp = gt(b, zero_);
                    store(yb, and8(tmp, b));
                    d = or8(d, and8(tmp, set1(0x10)));
                } else {
                    tmp = gt(zero_, a);
                    store(xb, andnot8(tmp, a));
                    d = or8(d, andnot8(tmp, set1(0x08)));
                    tmp = gt(zero_, b);
                    store(yb, andnot8(tmp, b));
                    d = or8(d, andnot8(tmp, set1(0x10)));
                }
            } else if (D) {
                int8_t *x2b = x2 + tb * 16, *y2b = y2 + tb * 16;
                V16 x2t1 = load(x2b);
                tmp = top_lane(x2t1);
                x2t1 = shift_in(x2t1, x21_);
                x21_ = tmp;
                V16 a2 = add8(x2t1, vt1), b2 = add8(load(y2b), ut);
                if (!with_cigar) {
                    z = max_s(z, a), z = max_s(z, b), z = max_s(z, a2), z = max_s(z, b2);
                } else if (!right) {
                    d = and8(gt(a, z), set1(1));
                    z = max_s(z, a);
                    d = blendv(d, set1(2), gt(b, z));
                    z = max_s(z, b);
                    d = blendv(d, set1(3), gt(a2, z));
                    z = max_s(z, a2);
                    d = blendv(d, set1(4), gt(b2, z));
                    z = max_s(z, b2);
                } else {
                    d = andnot8(gt(z, a), set1(1));
                    z = max_s(z, a);
                    d = blendv(set1(2), d, gt(z, b));
                    z = max_s(z, b);
                    d = blendv(set1(3), d, gt(z, a2));
                    z = max_s(z, a2);
                    d = blendv(set1(4), d, gt(z, b2));
                    z = max_s(z, b2);
                }
                z = min_s(z, sc_mch_);
                store(ub, sub8(z, vt1));
                store(vb, sub8(z, ut));
                tmp = sub8(z, q_);
                a = sub8(a, tmp);
                b = sub8(b, tmp);
                tmp = sub8(z, q2_);
                a2 = sub8(a2, tmp);
                b2 = sub8(b2, tmp);
                if (!with_cigar) {
                    store(xb, sub8(max_s(a, zero_), qe_));
                    store(yb, sub8(max_s(b, zero_), qe_));
                    store(x2b, sub8(max_s(a2, zero_), qe2_));
                    store(y2b, sub8(max_s(b2, zero_), qe2_));
                } else if (!right) {
                    tmp = gt(a, zero_);
                    store(xb, sub8(and8(tmp, a), qe_));
                    d = or8(d, and8(tmp, set1(0x08)));
                    tmp = gt(b, zero_);
                    store(yb, sub8(and8(tmp, b), qe_));
                    d = or8(d, and8(tmp, set1(0x10)));
                    tmp = gt(a2, zero_);
                    store(x2b, sub8(and8(tmp, a2), qe2_));
                    d = or8(d, and8(tmp, set1(0x20)));
                    tmp = gt(b2, zero_);
                    store(y2b, sub8(and8(tmp, b2), qe2_));
                    d = or8(d, and8(tmp, set1(0x40)));
                } else {
                    tmp = gt(zero_, a);
                    store(xb, sub8(andnot8(tmp, a), qe_));
                    d = or8(d, andnot8(tmp, set1(0x08)));
                    tmp = gt(zero_, b);
                    store(yb, sub8(andnot8(tmp, b), qe_));
                    d = or8(d, andnot8(tmp, set1(0x10)));
                    tmp = gt(zero_, a2);
                    store(x2b, sub8(andnot8(tmp, a2), qe2_));
                    d = or8(d, andnot8(tmp, set1(0x20)));
                    tmp = gt(zero_, b2);
                    store(y2b, sub8(andnot8(tmp, b2), qe2_));
                    d = or8(d, andnot8(tmp, set1(0x40)));
                }
            } else {
                int8_t *x2b = x2 + tb * 16;
                V16 x2t1 = load(x2b);
                tmp = top_lane(x2t1);
                x2t1 = shift_in(x2t1, x21_);
                x21_ = tmp;
                V16 a2 = add8(x2t1, vt1);
                const V16 a2a = add8(a2, load(acceptor + tb * 16));
                if (!with_cigar) {
                    z = max_s(z, a), z = max_s(z, b), z = max_s(z, a2a);
                } else if (!right) {
                    d = and8(gt(a, z), set1(1));
                    z = max_s(z, a);
                    d = blendv(d, set1(2), gt(b, z));
                    z = max_s(z, b);
                    d = blendv(d, set1(3), gt(a2a, z));
                    z = max_s(z, a2a);
                } else {
                    d = andnot8(gt(z, a), set1(1));
                    z = max_s(z, a);
                    d = blendv(set1(2), d, gt(z, b));
                    z = max_s(z, b);
                    d = blendv(set1(3), d, gt(z, a2a));
                    z = max_s(z, a2a);
                }
                store(ub, sub8(z, vt1));
                store(vb, sub8(z, ut));
                tmp = sub8(z, q_);
                a = sub8(a, tmp);
                b = sub8(b, tmp);
                a2 = sub8(a2, sub8(z, q2_));
                const V16 dn = load(donor + tb * 16);
                if (!with_cigar) {
                    store(xb, sub8(max_s(a, zero_), qe_));
                    store(yb, sub8(max_s(b, zero_), qe_));
                    store(x2b, sub8(max_s(a2, dn), q2_));
                } else if (!right) {
                    tmp = gt(a, zero_);
                    store(xb, sub8(and8(tmp, a), qe_));
                    d = or8(d, and8(tmp, set1(0x08)));
                    tmp = gt(b, zero_);
                    store(yb, sub8(and8(tmp, b), qe_));
                    d = or8(d, and8(tmp, set1(0x10)));
                    tmp = gt(a2, dn);
                    store(x2b, sub8(max_s(a2, dn), q2_));
                    d = or8(d, and8(tmp, set1(0x20)));
                } else {
                    tmp = gt(zero_, a);
                    store(xb, sub8(andnot8(tmp, a), qe_));
                    d = or8(d, andnot8(tmp, set1(0x08)));
                    tmp = gt(zero_, b);
                    store(yb, sub8(andnot8(tmp, b), qe_));
                    d = or8(d, andnot8(tmp, set1(0x10)));
                    tmp = gt(dn, a2);
                    store(x2b, sub8(max_s(dn, a2), q2_));
                    d = or8(d, andnot8(tmp, set1(0x20)));
                }
            }
            if (with_cigar) store(reinterpret_cast<int8_t *>(pr) + (size_t)(tb - st_) * 16, d);
        }
        const uint64_t row_cells = (uint64_t)(en0 - st0 + 1);
        cells += row_cells;
        if ((since_poll += row_cells) >= kCancelPollCells) {
            since_poll = 0;
            if (cancel && cancel->load(std::memory_order_relaxed)) return false;
        }
        const int8_t *u8 = u, *v8 = v;
        const int zd_e = Z ? e : D ? e2 : 0;  // Q5
        if (!approx_max) {  // the exact maximum in 32 bits (Q6)
            int32_t max_H, max_t;
            if (r > 0) {
                const int en1 = st0 + (en0 - st0) / 4 * 4;
                max_H = H[en0] = en0 > 0 ? add32(H[en0 - 1], hd(u8, en0)) : add32(H[en0], hd(v8, en0));
                max_t = en0;
                int32_t HH[4] = {max_H, max_H, max_H, max_H}, tt[4] = {max_t, max_t, max_t, max_t};
                int t = st0;
                for (; t < en1; t += 4)
                    for (int i = 0; i < 4; ++i) {
                        H[t + i] = add32(H[t + i], hd(v8, t + i));
                        if (H[t + i] > HH[i]) HH[i] = H[t + i], tt[i] = t;
                    }
                for (int i = 0; i < 4; ++i)
                    if (max_H < HH[i]) max_H = HH[i], max_t = tt[i] + i;
                for (; t < en0; ++t) {
                    H[t] = add32(H[t], hd(v8, t));
                    if (H[t] > max_H) max_H = H[t], max_t = t;
                }
            } else {
                H[0] = hd(v8, 0) - qe, max_H = H[0], max_t = 0;
            }
            if (en0 == tlen - 1 && H[en0] > ez.mte) ez.mte = H[en0], ez.mte_q = r - en;  // Q1: en, not en0
            if (r - st0 == qlen - 1 && H[st0] > ez.mqe) ez.mqe = H[st0], ez.mqe_t = st0;
            if (zdrop_apply(ez, max_H, r, max_t, zdrop, zd_e)) break;
            if (r == qlen + tlen - 2 && en0 == tlen - 1) ez.score = H[tlen - 1];
        } else {  // ksw2's approximate maximum, along one path
            if (r > 0) {
                if (last_H0_t >= st0 && last_H0_t <= en0 && last_H0_t + 1 >= st0 && last_H0_t + 1 <= en0) {
                    const int32_t d0 = hd(v8, last_H0_t), d1 = hd(u8, last_H0_t + 1);
                    if (d0 > d1) H0 += d0;
                    else H0 += d1, ++last_H0_t;
                } else if (last_H0_t >= st0 && last_H0_t <= en0) {
                    H0 += hd(v8, last_H0_t);
                } else {
                    ++last_H0_t, H0 += hd(u8, last_H0_t);
                }
                if (Z && (flag & kZdApproxDrop) && zdrop_apply(ez, H0, r, last_H0_t, zdrop, zd_e)) break;  // Q7
            } else {
                H0 = hd(v8, 0) - qe, last_H0_t = 0;
            }
            if (!Z && (flag & kZdApproxDrop) && zdrop_apply(ez, H0, r, last_H0_t, zdrop, zd_e)) break;  // Q7
            if (r == qlen + tlen - 2 && en0 == tlen - 1) ez.score = H0;
        }
        last_st = st, last_en = en;
    }
    ez.cells = cells;
    if (with_cigar) {
        const int rev_cigar = !!(flag & kZdRevCigar);
        const int intron = S ? long_thres : 0;
        int i0 = -1, j0 = -1;
        if (!ez.zdropped && !(flag & kZdExtzOnly)) {
            i0 = tlen - 1, j0 = qlen - 1;
        } else if (!S && !ez.zdropped && (flag & kZdExtzOnly) && ez.mqe + end_bonus > ez.max) {
            ez.reach_end = 1;
            i0 = ez.mqe_t, j0 = qlen - 1;
        } else if (ez.max_t >= 0 && ez.max_q >= 0) {
            i0 = ez.max_t, j0 = ez.max_q;
        }
        if (i0 >= 0) {
            cigar.resize((size_t)qlen + (size_t)tlen + 2);
            cigar.resize((size_t)zdrop_backtrack(rev_cigar, intron, ws.off.data(), ws.off_end.data(), ws.prow.data(),
                                                 ws.p.data(), i0, j0, cigar.data()));
        }
    }
    return true;
}

}  // namespace

bool zdrop_run(const ZdropParams &p, int m, const int8_t *mat, int qlen, const uint8_t *query, int tlen,
               const uint8_t *target, const uint8_t *junc, ZdropOut &out, std::vector<uint32_t> &cigar,
               ZdropScratch &ws, const std::atomic<bool> *cancel) {
    struct Trim {  // on every way out, a cancelled task's too
        ZdropScratch &ws;
        ~Trim() { trim(ws.mem), trim(ws.H), trim(ws.p), trim(ws.prow), trim(ws.off), trim(ws.off_end); }
    } trim_at_end{ws};
    const int mode = (p.flag & kZdScoreOnly) ? 0 : (p.flag & kZdRight) ? 2 : 1;
#define GALE_ZD_RUN(V)                                                                                          \
    return mode == 0   ? run<V, 0>(p, m, mat, qlen, query, tlen, target, junc, out, cigar, ws, cancel)       \
           : mode == 1 ? run<V, 1>(p, m, mat, qlen, query, tlen, target, junc, out, cigar, ws, cancel)       \
                       : run<V, 2>(p, m, mat, qlen, query, tlen, target, junc, out, cigar, ws, cancel)
    switch (p.variant) {
    case kZdExtz2: GALE_ZD_RUN(kZdExtz2);
    case kZdExtd2: GALE_ZD_RUN(kZdExtd2);
    default: GALE_ZD_RUN(kZdExts2);
    }
#undef GALE_ZD_RUN
}

}  // namespace gale
