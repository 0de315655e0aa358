// ksw2's Z-drop extension for the CUDA kernel (cuda/zdrop.cu): lib/cpu/zdrop.cpp's
// transcription of ksw_ext{z,d,s}2_sse restated cell by cell, so that a group of threads
// (a warp on the GPU) computes an anti-diagonal together and the same code runs on the
// host with a one-thread group (tests/unit/zdrop_core_host.cpp checks it against the
// CPU backend, bit for bit, without a GPU).
//
// Why it is exact: in ksw2's 16-lane code every cell of anti-diagonal r reads only
// anti-diagonal r - 1 (u, y at its own column; x, v, x2 at the column before, carried
// across blocks in a register) and writes its own column. Here a round of G::size
// consecutive cells loads its old values, takes the left neighbours' by a shuffle (the
// round before hands over its last old value: ksw2's carry), then writes; with the
// quirks of lib/cpu/zdrop.cpp at the same places (Q1-Q11 there): the cells of the whole
// padded band are computed, the scores are stored in whole 16-byte blocks from st0 (Q9),
// extz2's carried-in bytes are sign-extended into lanes 1-3 (Q4), and the anti-diagonal
// maximum follows ksw2's four-lane scan (Q6), as a reduction over a priority:
//   H[en0] first; then the cells st0 <= t < en1 (en1 = st0 + (en0 - st0) / 4 * 4) by
//   lane (t - st0) % 4, then t; then the tail en1 <= t < en0 by t.
//
// Uniform rounds: the per-anti-diagonal loops over cells (scores, H and its maximum) run
// the same number of rounds on every lane, the lane's cell guarded, rather than a trip
// count per lane. With a trip count per lane, nvcc derived the bound from en0 = min(tlen -
// 1, r, (r + w) >> 1) as max(~r, -tlen, ~((r + w) >> 1)), and CUDA 13.0's ptxas compiles
// max(max(a, -b), c) for sm_90 into one VIMNMX3 without the negation: the trip count came
// out huge, and on an H200 lane 0 read H[32] of 16 (GALE_ZD_CHECKED, below) and then the
// device's memory end. tools/ptx_neg_chains.py finds such chains in PTX; the unit test
// ptx_neg_chains keeps every CUDA source free of them (doc/zdrop.md, "GPU status").
//
// A task's device memory (ZdLayout): ksw2's byte block (mem) and H as the CPU kernel
// keeps them, the backtrack codes of each anti-diagonal (p) with its start (prow) and
// band (off, off_end), and the CIGAR.
#ifndef GALE_CUDA_ZDROP_CORE_CUH
#define GALE_CUDA_ZDROP_CORE_CUH

#include <cstdint>
#include <cstring>

#include "zdrop.h"

#define GALE_ZD_DEV GALE_ZD_HD  // lib/zdrop.h
#if defined(__CUDACC__)
#define GALE_ZD_GROUP __device__ __forceinline__  // calls the group's (device) functions
#else
#define GALE_ZD_GROUP inline
#endif

namespace gale {
namespace zdg {

// What one task reports (the CIGAR's ops lie in its own buffer).
struct ZdOut {
    int32_t max, zdropped, max_q, max_t, mqe, mqe_t, mte, mte_q, score, reach_end;
    int32_t n_cigar, status;  // status: kZdOk, or kZdCanceled (no result)
    uint64_t cells;
};
enum : int32_t { kZdOk = 0, kZdCanceled = 2 };

// The anti-diagonals' bands, a function of r and the lengths alone (not of the scores).
struct ZdBand {
    int st0, en0, st, en;
    bool empty;  // st0 > en0: ksw2 stops (Q10)
};
GALE_ZD_DEV ZdBand zd_band(int r, int qlen, int tlen, int w, bool banded) {
    ZdBand b;
    int st = 0, en = tlen - 1;
    if (st < r - qlen + 1) st = r - qlen + 1;
    if (en > r) en = r;
    if (banded) {
        if (st < (r - w + 1) >> 1) st = (r - w + 1) >> 1;
        if (en > (r + w) >> 1) en = (r + w) >> 1;
    }
    b.empty = st > en;
    b.st0 = st, b.en0 = en;
    b.st = st / 16 * 16, b.en = (en + 16) / 16 * 16 - 1;
    return b;
}

// The effective band of a task (ksw2's w < 0: the longer length; exts2: none).
GALE_ZD_DEV int zd_w(const ZdropParams &p, int qlen, int tlen) {
    return p.w < 0 ? (tlen > qlen ? tlen : qlen) : p.w;
}

// The columns of the per-column state ring (ZdMem::st, st2, H): a power of two that holds
// every column an anti-diagonal reads or writes. Anti-diagonal r writes its padded band
// [st, en] and reads the previous one's [last_st, last_en] (column st - 1 included) and
// nothing older: columns only enter on the right (st and en never decrease), a column new
// to the band (t > last_en) starts from ksw2's initial values, and the band's padded width
// is at most min(qlen, tlen, w + 1) + 30 columns, st moving by 16 at most (so the live
// columns [last_st, en] number at most that + 17). A ring of at least that many columns
// never gives two live columns one slot; tlen_ * 16 columns (no wrap) is always enough.
GALE_ZD_DEV uint32_t zd_state_cols(const ZdropParams &p, int qlen, int tlen) {
    const uint32_t T = (uint32_t)(tlen + 15) / 16 * 16;
    uint32_t need = (uint32_t)(qlen < tlen ? qlen : tlen);
    if (p.variant != kZdExts2 && p.w >= 0 && (uint32_t)p.w + 1 < need) need = (uint32_t)p.w + 1;
    need += 48;
    if (need > T) need = T;
    uint32_t cols = 16;
    while (cols < need) cols <<= 1;
    return cols;
}
// Bytes of the state ring: u v x y (one word), x2 y2 (extd2, exts2: one word), H (unless APPROX_MAX).
GALE_ZD_DEV uint64_t zd_state_bytes(const ZdropParams &p, int qlen, int tlen) {
    if (qlen <= 0 || tlen <= 0) return 0;
    const uint64_t per = 4 + (p.variant != kZdExtz2 ? 4 : 0) + ((p.flag & kZdApproxMax) ? 0 : 4);
    return per * zd_state_cols(p, qlen, tlen);
}

// Byte sizes of one task's regions; p bounds the backtrack codes: an anti-diagonal's
// band holds at most min(qlen, tlen, w + 1) cells, padded to whole 16-cell blocks (at
// most 30 more) and within the tlen_ * 16 columns. mem keeps ksw2's whole block as the
// CPU kernel lays it out, though only s, sf, qr (and exts2's donor and acceptor) are used
// there: the scores overrun s into sf and qr exactly as in ksw2 (Q9). state is the
// ring above when it does not go to shared memory (cuda/zdrop.cu).
struct ZdLayout {
    uint64_t mem, state, rows, p, cigar;  // bytes of mem; the state ring; off/off_end/prow (12 per row); p; CIGAR ops (4 each)
    uint64_t work() const { return al(mem) + al(state) + al(rows) + al(p); }  // all but the CIGAR
    static uint64_t al(uint64_t b) { return (b + 15) / 16 * 16; }
};
GALE_ZD_DEV size_t zd_blocks(int variant) { return variant == kZdExtz2 ? 6 : variant == kZdExtd2 ? 8 : 9; }
inline ZdLayout zd_layout(const ZdropParams &p, int qlen, int tlen) {
    ZdLayout l{};
    if (qlen <= 0 || tlen <= 0) return l;
    const uint64_t tlen_ = (uint64_t)(tlen + 15) / 16, qlen_ = (uint64_t)(qlen + 15) / 16;
    l.mem = (zd_blocks(p.variant) * tlen_ + qlen_ + 1) * 16;
    l.state = zd_state_bytes(p, qlen, tlen);
    if (!(p.flag & kZdScoreOnly)) {
        const uint64_t rows = (uint64_t)qlen + (uint64_t)tlen - 1;
        uint64_t band = (uint64_t)(qlen < tlen ? qlen : tlen);
        if (p.variant != kZdExts2 && p.w >= 0 && (uint64_t)p.w + 1 < band) band = (uint64_t)p.w + 1;
        uint64_t width = band + 30;
        if (width > tlen_ * 16) width = tlen_ * 16;
        l.rows = rows * 12;
        l.p = rows * width;
        l.cigar = (uint64_t)(qlen + tlen + 2) * 4;
    }
    return l;
}

// 8-bit lanes (lib/cpu/zdrop.cpp's V16, one byte).
GALE_ZD_DEV int8_t a8(int8_t a, int8_t b) { return (int8_t)(uint8_t)((uint8_t)a + (uint8_t)b); }
GALE_ZD_DEV int8_t s8(int8_t a, int8_t b) { return (int8_t)(uint8_t)((uint8_t)a - (uint8_t)b); }
GALE_ZD_DEV int8_t mx(int8_t a, int8_t b) { return a > b ? a : b; }
GALE_ZD_DEV int8_t mn(int8_t a, int8_t b) { return a < b ? a : b; }
GALE_ZD_DEV int8_t mxu(int8_t a, int8_t b) { return (uint8_t)a > (uint8_t)b ? a : b; }
GALE_ZD_DEV int8_t mnu(int8_t a, int8_t b) { return (uint8_t)a < (uint8_t)b ? a : b; }
GALE_ZD_DEV int32_t add32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
// Four bytes in one word (byte 0 lowest), and back.
GALE_ZD_DEV uint32_t pack4(int8_t a, int8_t b, int8_t c, int8_t d) {
    return (uint32_t)(uint8_t)a | (uint32_t)(uint8_t)b << 8 | (uint32_t)(uint8_t)c << 16 | (uint32_t)(uint8_t)d << 24;
}
GALE_ZD_DEV int8_t byte_of(uint32_t w, int i) { return (int8_t)(uint8_t)(w >> (8 * i)); }

// The task's memory, set up by the caller: mem zeroed, the rest as it comes. The state
// ring (zd_state_cols columns, mask = columns - 1) holds, per column t at slot t & mask,
// ksw2's u v x y bytes (st: byte 0 u, 1 v, 2 x, 3 y), x2 y2 (st2: byte 0 x2, 1 y2;
// extd2 and exts2) and H (unless APPROX_MAX); zd_task initialises it.
struct ZdMem {
    int8_t *mem;
    uint32_t *st, *st2;
    int32_t *H;
    uint32_t mask;
    int32_t *off, *off_end;
    uint32_t *prow;
    uint8_t *p;
    uint32_t *cigar;
    long long n_H = 0;  // H's length (checked builds only)
};

// Carves the state ring of a task out of `ring` (zd_state_bytes(p, qlen, tlen) bytes, 4-aligned).
GALE_ZD_DEV void zd_state_at(ZdMem &M, void *ring, const ZdropParams &p, int qlen, int tlen) {
    const uint32_t cols = qlen > 0 && tlen > 0 ? zd_state_cols(p, qlen, tlen) : 16;
    uint32_t *w = static_cast<uint32_t *>(ring);
    M.mask = cols - 1;
    M.st = w;
    w += cols;
    M.st2 = nullptr;
    if (p.variant != kZdExtz2) M.st2 = w, w += cols;
    M.H = (p.flag & kZdApproxMax) ? nullptr : reinterpret_cast<int32_t *>(w);
    M.n_H = (p.flag & kZdApproxMax) ? 0 : cols;
}

// GALE_ZD_CHECKED (a debugging build only: -DGALE_ZD_CHECKED in NVCC_APPEND_FLAGS): every
// access to H is checked against its length (ZdMem::n_H); the first one outside is
// recorded in zd_diag (read by cuda/zdrop.cu after each chunk) and redirected to H[0].
#if defined(GALE_ZD_CHECKED) && defined(__CUDACC__)
struct ZdDiag {
    int hit, line, r, i, st0, en0, qlen, tlen, tid, block;
    long long n_H;
};
__device__ ZdDiag zd_diag;
__device__ char *zd_work_end;  // the launch's work area end
__device__ __forceinline__ int32_t &zd_h_at(int32_t *H, long long i, long long n, int line, int r, int st0, int en0,
                                            int qlen, int tlen) {
    if (i < 0 || i >= n) {
        if (atomicCAS(&zd_diag.hit, 0, 1) == 0) {
            zd_diag.line = line, zd_diag.r = r, zd_diag.i = (int)i, zd_diag.st0 = st0, zd_diag.en0 = en0;
            zd_diag.qlen = qlen, zd_diag.tlen = tlen, zd_diag.tid = (int)threadIdx.x, zd_diag.block = (int)blockIdx.x;
            zd_diag.n_H = n;
            __threadfence();
            printf("ZD_CHECKED(dev): H[%lld] of %lld at line %d, r %d st0 %d en0 %d qlen %d tlen %d tid %d block %d H %p\n",
                   i, n, line, r, st0, en0, qlen, tlen, (int)threadIdx.x, (int)blockIdx.x, (void *)H);
        }
        return H[0];
    }
    return H[i];
}
#define ZD_H(i) zd_h_at(M.H, (long long)((i) & M.mask), M.n_H, __LINE__, dbg_r, dbg_st0, dbg_en0, qlen, tlen)
#define ZD_DBG(...) __VA_ARGS__
#else
#define ZD_H(i) M.H[(i) & M.mask]
#define ZD_DBG(...)
#endif

// One task, by a group G of threads (G: size, tid(), sync(), shfl_up(v, carry),
// last(v), max(int32), min(uint64), and stop(work): the cancel poll, uniform). query and
// target are codes < m; mat is m x m; junc (exts2) is ksw2's junction array, tlen bytes,
// or nullptr. Every thread returns the same status; thread 0 has written out (and the
// CIGAR).
template <int V, class G>
GALE_ZD_GROUP int32_t zd_task(G &g, const ZdropParams &P, int m, const int8_t *mat, int qlen, const uint8_t *query,
                            int tlen, const uint8_t *target, const uint8_t *junc, const ZdMem &M, ZdOut &ez) {
    constexpr bool Z = V == kZdExtz2, D = V == kZdExtd2, S = V == kZdExts2;
    const int tid = g.tid();
    ZD_DBG(int dbg_r = -1, dbg_st0 = -1, dbg_en0 = -1;)
    const int flag = P.flag, zdrop = P.zdrop, end_bonus = P.end_bonus;
    int8_t q = P.q, e = P.e, q2 = P.q2, e2 = P.e2;
    const int8_t noncan = P.noncan, junc_bonus = P.junc_bonus;
    const int qe = q + e;  // Q5: before extd2's swap
    const bool with_cigar = !(flag & kZdScoreOnly), approx_max = (flag & kZdApproxMax) != 0;
    int32_t H0 = 0, last_H0_t = 0;
    int long_thres = 0, long_diff = 0;

    zdrop_reset(ez);
    ez.n_cigar = 0, ez.status = kZdOk;
    if (Z && (m <= 0 || qlen <= 0 || tlen <= 0)) return kZdOk;
    if (D && (m <= 1 || qlen <= 0 || tlen <= 0)) return kZdOk;
    if (S && (m <= 1 || qlen <= 0 || tlen <= 0 || q2 <= q + e)) return kZdOk;
    if (D && q2 + e2 < q + e) {
        int8_t t = q; q = q2; q2 = t;
        t = e; e = e2; e2 = t;
    }
    const int8_t qe8 = (int8_t)(q + e), qe2_8 = (int8_t)(Z ? (q + e) * 2 : q2 + e2);
    const int8_t sc_mch = mat[0], sc_mis = mat[1];
    const int8_t sc_N = mat[m * m - 1] == 0 ? (int8_t)(D ? -e2 : -e) : mat[m * m - 1];
    const int8_t m1 = (int8_t)(m - 1), max_sc = (int8_t)(mat[0] + (q + e) * 2);
    const bool banded = !S;
    const int w = banded ? (P.w < 0 ? (tlen > qlen ? tlen : qlen) : P.w) : 0;
    const int tlen_ = (tlen + 15) / 16;
    int min_sc = mat[1];
    for (int t = 1; t < m * m; ++t) min_sc = min_sc < mat[t] ? min_sc : mat[t];
    if (-min_sc > 2 * (q + e)) return kZdOk;
    if (D) {
        long_thres = e != e2 ? (q2 - q) / (e - e2) - 1 : 0;
        if (q2 + e2 + long_thres * e2 > q + e + long_thres * e) ++long_thres;
        long_diff = long_thres * (e - e2) - (q2 - q) - e2;
    } else if (S) {
        long_thres = (q2 - q) / e - 1;
        if (q2 > q + e + long_thres * e) ++long_thres;
        long_diff = long_thres * e - (q2 - q);
    }

    // ksw2's block (the caller zeroed it): s, the target and the reversed query (and exts2's
    // donor and acceptor) are used from it; ksw2's u v x y (x2 y2) live in the state ring,
    // whose slots start as ksw2's initial values wherever a column enters the band.
    const size_t T = (size_t)tlen_ * 16;
    int8_t *donor = nullptr, *acceptor = nullptr, *s;
    s = M.mem + T * (Z ? 4 : D ? 6 : 7);
    if (S) donor = M.mem + T * 5, acceptor = M.mem + T * 6;
    uint8_t *sf = reinterpret_cast<uint8_t *>(s + T), *qr = sf + T;
    const int G_ = G::size;
    const int8_t init = Z ? (int8_t)0 : (int8_t)(-q - e);
    const uint32_t st_init = pack4(init, init, init, init);
    const uint32_t st2_init = D ? pack4((int8_t)(-q2 - e2), (int8_t)(-q2 - e2), 0, 0) : S ? pack4((int8_t)-q2, 0, 0, 0) : 0;
    for (uint32_t k = tid; k <= M.mask; k += G_)
        if (!approx_max) M.H[k] = kZdNegInf;
    for (size_t t = tid; t < T; t += G_)
        if (t < (size_t)tlen) sf[t] = target[t];
    for (int t = tid; t < qlen; t += G_) qr[t] = query[qlen - 1 - t];
    if (S && (flag & (kZdSpliceFor | kZdSpliceRev))) {
        const int semi_cost = flag & kZdSpliceFlank ? -noncan / 2 : 0;
        const bool f = flag & kZdSpliceFor, rv = flag & kZdSpliceRev, rev = flag & kZdRevCigar;
        for (int t = tid; t < (int)T; t += G_) donor[t] = acceptor[t] = (int8_t)-noncan;
        g.sync();
        for (int t = tid; t < tlen - 4; t += G_) {
            int can_type = 0;
            if (!rev) {
                if (f && target[t + 1] == 2 && target[t + 2] == 3) can_type = 1;
                if (rv && target[t + 1] == 1 && target[t + 2] == 3) can_type = 1;
                if (can_type && (target[t + 3] == 0 || target[t + 3] == 2)) can_type = 2;
            } else {
                if (f && target[t + 1] == 2 && target[t + 2] == 0) can_type = 1;
                if (rv && target[t + 1] == 1 && target[t + 2] == 0) can_type = 1;
                if (can_type && (target[t + 3] == 1 || target[t + 3] == 3)) can_type = 2;
            }
            if (can_type) donor[t] = (int8_t)(can_type == 2 ? 0 : semi_cost);
        }
        for (int t = 2 + tid; t < tlen; t += G_) {
            int can_type = 0;
            if (!rev) {
                if (f && target[t - 1] == 0 && target[t] == 2) can_type = 1;
                if (rv && target[t - 1] == 0 && target[t] == 1) can_type = 1;
                if (can_type && (target[t - 2] == 1 || target[t - 2] == 3)) can_type = 2;
            } else {
                if (f && target[t - 1] == 3 && target[t] == 2) can_type = 1;
                if (rv && target[t - 1] == 3 && target[t] == 1) can_type = 1;
                if (can_type && (target[t - 2] == 0 || target[t - 2] == 2)) can_type = 2;
            }
            if (can_type) acceptor[t] = (int8_t)(can_type == 2 ? 0 : semi_cost);
        }
        // the junction array, as lib/cpu/zdrop.cpp (ksw2): junc_bonus added, in 8 bits, to
        // the donor before a marked intron start and the acceptor at a marked intron end,
        // after the canonical scores above (written by other threads: hence the sync)
        if (junc) {
            g.sync();
            const uint8_t d_bits = (uint8_t)(!rev ? (f ? 1 : 0) | (rv ? 8 : 0) : (f ? 2 : 0) | (rv ? 4 : 0));
            const uint8_t a_bits = (uint8_t)(!rev ? (f ? 2 : 0) | (rv ? 4 : 0) : (f ? 1 : 0) | (rv ? 8 : 0));
            for (int t = tid; t < tlen - 1; t += G_)
                if (junc[t + 1] & d_bits) donor[t] = a8(donor[t], junc_bonus);
            for (int t = tid; t < tlen; t += G_)
                if (junc[t] & a_bits) acceptor[t] = a8(acceptor[t], junc_bonus);
        }
    }
    g.sync();

    // extz2 reads u and v as unsigned bytes (its H adds them minus qe), extd2/exts2 signed.
    auto hd = [&](int8_t a) -> int32_t { return Z ? (int32_t)(uint8_t)a - qe : (int32_t)a; };
    auto u_at = [&](int t) -> int8_t { return byte_of(M.st[t & M.mask], 0); };
    auto v_at = [&](int t) -> int8_t { return byte_of(M.st[t & M.mask], 1); };

    const int n_rows = qlen + tlen - 1;
    uint32_t p_at = 0;
    uint64_t cells = 0;
    int last_st = -1, last_en = -1;
    bool zdropped_early = false;
    for (int r = 0; r < n_rows; ++r) {
        const ZdBand b = zd_band(r, qlen, tlen, w, banded);
        if (b.empty) {  // Q10
            zdropped_early = true;
            break;
        }
        const int st0 = b.st0, en0 = b.en0, st = b.st, en = b.en;
        ZD_DBG(dbg_r = r, dbg_st0 = st0, dbg_en0 = en0;)
        const uint8_t *qrr = qr + (qlen - 1 - r);
        // boundary conditions: column st - 1 of the previous anti-diagonal, if it had one
        int8_t x1, v1, x21 = 0;
        const bool left_live = st > 0 && st - 1 >= last_st && st - 1 <= last_en;
        const uint32_t left = left_live ? M.st[(st - 1) & M.mask] : 0;
        const uint32_t left2 = left_live && !Z ? M.st2[(st - 1) & M.mask] : 0;
        if (Z) {
            if (st > 0) {
                if (left_live) x1 = byte_of(left, 2), v1 = byte_of(left, 1);
                else x1 = v1 = 0;
            } else x1 = 0, v1 = r ? q : 0;
        } else {
            const int8_t first = (int8_t)(r == 0 ? -q - e : r < long_thres ? -e : r == long_thres ? long_diff : D ? -e2 : 0);
            const int8_t x2_init = (int8_t)(D ? -q2 - e2 : -q2);
            if (st > 0) {
                if (left_live) x1 = byte_of(left, 2), x21 = byte_of(left2, 0), v1 = byte_of(left, 1);
                else x1 = (int8_t)(-q - e), x21 = x2_init, v1 = (int8_t)(-q - e);
            } else {
                x1 = (int8_t)(-q - e), x21 = x2_init;
                v1 = first;
            }
        }
        // ksw2 sets y[r] and u[r] (y2[r]) here when the padded band reaches column r; the
        // cell loop below takes them in place of column r's old values
        const bool set_r = en >= r;
        int8_t y_r = 0, u_r = 0, y2_r = 0;
        if (Z) y_r = 0, u_r = r ? q : 0;
        else {
            y_r = (int8_t)(-q - e);
            if (D) y2_r = (int8_t)(-q2 - e2);
            u_r = (int8_t)(r == 0 ? -q - e : r < long_thres ? -e : r == long_thres ? long_diff : D ? -e2 : 0);
        }
        // scores (Q8, Q9): ksw2 writes s for st0 <= t <= s_end (non-generic ones in whole
        // 16-byte blocks from st0, past en and past s's end into sf when the blocks reach
        // there) and the cells of [st, en] outside that read what an earlier anti-diagonal
        // left in s. The cell loop computes the scores of its own cells and writes them;
        // the rest of [st0, s_end] is written after it.
        const bool generic_sc = (flag & kZdGenericSc) != 0;
        const int s_end = generic_sc ? en0 : st0 + ((en0 - st0) / 16 + 1) * 16 - 1;
        auto score_at = [&](int t) -> int8_t {
            if (generic_sc) return mat[sf[t] * m + qrr[t]];
            const int8_t sq = (int8_t)sf[t], sT = (int8_t)qrr[t];
            return sq == m1 || sT == m1 ? sc_N : sq == sT ? sc_mch : sc_mis;
        };
        // H[en0 - 1] as the previous anti-diagonal left it, read before the cells below
        // change it (H[en0] is computed from it)
        const int32_t h_left = !approx_max && r > 0 && en0 > 0 ? ZD_H(en0 - 1) : 0;
        // Q4: extz2's carried-in bytes, sign-extended into lanes 1-3 of the first block
        const int8_t x_ext = Z && x1 < 0 ? (int8_t)-1 : 0, v_ext = Z && v1 < 0 ? (int8_t)-1 : 0;
        // the left neighbours' old x, v, x2, handed across rounds as one word (ksw2's carry)
        int32_t carry = (int32_t)pack4(x1, v1, x21, 0);
        uint8_t *pr = with_cigar ? M.p + p_at : nullptr;
        if (with_cigar && tid == 0) M.off[r] = st, M.off_end[r] = en, M.prow[r] = p_at;
        const bool right = (flag & kZdRight) != 0;
        // this anti-diagonal's H maximum, by ksw2's priority (see the top of this file): each
        // lane's best (value, then the smallest priority), H[en0] having priority 0
        const int en1 = st0 + (en0 - st0) / 4 * 4;
        int32_t best_v = INT32_MIN;
        uint64_t best_p = ~(uint64_t)0;
        // Every lane runs the same rounds, its cell guarded (see "Uniform rounds" at the top
        // of this file).
        for (int base = st; base <= en; base += G_) {
            const int t = base + tid;
            const bool act = t <= en;
            const uint32_t slot = (uint32_t)t & M.mask;
            uint32_t old = act ? (t <= last_en ? M.st[slot] : st_init) : 0;
            uint32_t old2 = act && !Z ? (t <= last_en ? M.st2[slot] : st2_init) : 0;
            if (set_r && t == r) {
                old = (old & 0x00ffff00u) | (uint32_t)(uint8_t)u_r | (uint32_t)(uint8_t)y_r << 24;
                if (D) old2 = (old2 & 0xffff00ffu) | (uint32_t)(uint8_t)y2_r << 8;
            }
            const int8_t ut = byte_of(old, 0), ov = byte_of(old, 1), ox = byte_of(old, 2), oy = byte_of(old, 3);
            const int8_t ox2 = byte_of(old2, 0), oy2 = D ? byte_of(old2, 1) : (int8_t)0;
            const int32_t mine = (int32_t)pack4(ox, ov, ox2, 0);
            const int32_t lft = g.shfl_up(mine, carry);
            carry = g.last(mine);
            int8_t xt1 = byte_of((uint32_t)lft, 0), vt1 = byte_of((uint32_t)lft, 1);
            const int8_t x2t1 = byte_of((uint32_t)lft, 2);
            if (t - st >= 1 && t - st <= 3) xt1 = (int8_t)(xt1 | x_ext), vt1 = (int8_t)(vt1 | v_ext);
            if (!act) continue;
            int8_t z;
            if (t >= st0 && t <= s_end) s[t] = z = score_at(t);
            else z = s[t];
            int8_t a = a8(xt1, vt1), bb = a8(oy, ut), d = 0, tmp;
            int8_t nu, nv, nx, ny, nx2 = 0, ny2 = 0;
            if (Z) {
                z = a8(z, qe2_8);
                if (!with_cigar) {
                    z = mx(z, a);
                } else if (!right) {
                    d = a > z ? 1 : 0;
                    z = mx(z, a);
                    d = bb > z ? 2 : d;
                } else {
                    d = z > a ? 0 : 1;
                    z = mx(z, a);
                    d = z > bb ? d : 2;
                }
                z = mxu(z, bb);
                z = mnu(z, max_sc);
                nu = s8(z, vt1);
                nv = s8(z, ut);
                z = s8(z, q);
                a = s8(a, z);
                bb = s8(bb, z);
                if (!with_cigar || !right) {
                    nx = a > 0 ? a : 0;
                    ny = bb > 0 ? bb : 0;
                    d = (int8_t)(d | (a > 0 ? 0x08 : 0) | (bb > 0 ? 0x10 : 0));
                } else {
                    nx = 0 > a ? 0 : a;
                    ny = 0 > bb ? 0 : bb;
                    d = (int8_t)(d | (0 > a ? 0 : 0x08) | (0 > bb ? 0 : 0x10));
                }
            } else if (D) {
                int8_t a2 = a8(x2t1, vt1), b2 = a8(oy2, ut);
                if (!with_cigar) {
                    z = mx(z, a), z = mx(z, bb), z = mx(z, a2), z = mx(z, b2);
                } else if (!right) {
                    d = a > z ? 1 : 0;
                    z = mx(z, a);
                    d = bb > z ? 2 : d;
                    z = mx(z, bb);
                    d = a2 > z ? 3 : d;
                    z = mx(z, a2);
                    d = b2 > z ? 4 : d;
                    z = mx(z, b2);
                } else {
                    d = z > a ? 0 : 1;
                    z = mx(z, a);
                    d = z > bb ? d : 2;
                    z = mx(z, bb);
                    d = z > a2 ? d : 3;
                    z = mx(z, a2);
                    d = z > b2 ? d : 4;
                    z = mx(z, b2);
                }
                z = mn(z, sc_mch);
                nu = s8(z, vt1);
                nv = s8(z, ut);
                tmp = s8(z, q);
                a = s8(a, tmp);
                bb = s8(bb, tmp);
                tmp = s8(z, q2);
                a2 = s8(a2, tmp);
                b2 = s8(b2, tmp);
                if (!with_cigar || !right) {
                    nx = s8(a > 0 ? a : 0, qe8);
                    ny = s8(bb > 0 ? bb : 0, qe8);
                    nx2 = s8(a2 > 0 ? a2 : 0, qe2_8);
                    ny2 = s8(b2 > 0 ? b2 : 0, qe2_8);
                    d = (int8_t)(d | (a > 0 ? 0x08 : 0) | (bb > 0 ? 0x10 : 0) | (a2 > 0 ? 0x20 : 0) | (b2 > 0 ? 0x40 : 0));
                } else {
                    nx = s8(0 > a ? 0 : a, qe8);
                    ny = s8(0 > bb ? 0 : bb, qe8);
                    nx2 = s8(0 > a2 ? 0 : a2, qe2_8);
                    ny2 = s8(0 > b2 ? 0 : b2, qe2_8);
                    d = (int8_t)(d | (0 > a ? 0 : 0x08) | (0 > bb ? 0 : 0x10) | (0 > a2 ? 0 : 0x20) | (0 > b2 ? 0 : 0x40));
                }
            } else {
                int8_t a2 = a8(x2t1, vt1);
                const int8_t a2a = a8(a2, acceptor[t]);
                if (!with_cigar) {
                    z = mx(z, a), z = mx(z, bb), z = mx(z, a2a);
                } else if (!right) {
                    d = a > z ? 1 : 0;
                    z = mx(z, a);
                    d = bb > z ? 2 : d;
                    z = mx(z, bb);
                    d = a2a > z ? 3 : d;
                    z = mx(z, a2a);
                } else {
                    d = z > a ? 0 : 1;
                    z = mx(z, a);
                    d = z > bb ? d : 2;
                    z = mx(z, bb);
                    d = z > a2a ? d : 3;
                    z = mx(z, a2a);
                }
                nu = s8(z, vt1);
                nv = s8(z, ut);
                tmp = s8(z, q);
                a = s8(a, tmp);
                bb = s8(bb, tmp);
                a2 = s8(a2, s8(z, q2));
                const int8_t dn = donor[t];
                nx2 = s8(mx(a2, dn), q2);
                if (!with_cigar || !right) {
                    nx = s8(a > 0 ? a : 0, qe8);
                    ny = s8(bb > 0 ? bb : 0, qe8);
                    d = (int8_t)(d | (a > 0 ? 0x08 : 0) | (bb > 0 ? 0x10 : 0) | (a2 > dn ? 0x20 : 0));
                } else {
                    nx = s8(0 > a ? 0 : a, qe8);
                    ny = s8(0 > bb ? 0 : bb, qe8);
                    d = (int8_t)(d | (0 > a ? 0 : 0x08) | (0 > bb ? 0 : 0x10) | (dn > a2 ? 0 : 0x20));
                }
            }
            M.st[slot] = pack4(nu, nv, nx, ny);
            if (!Z) M.st2[slot] = pack4(nx2, ny2, 0, 0);
            if (with_cigar) pr[t - st] = (uint8_t)d;
            // H of this cell (lib/cpu/zdrop.cpp's loop over the anti-diagonal, done here)
            if (!approx_max && t >= st0 && t <= en0) {
                int32_t h;
                uint64_t pri;
                if (r == 0) {
                    h = hd(nv) - qe, pri = 0;  // the first anti-diagonal: its one cell
                } else if (t < en0) {
                    h = add32(ZD_H(t), hd(nv));
                    pri = t < en1 ? ((uint64_t)1 << 62) + ((uint64_t)((t - st0) & 3) << 32) + (uint64_t)t
                                  : ((uint64_t)2 << 62) + (uint64_t)t;
                } else {
                    h = en0 > 0 ? add32(h_left, hd(nu)) : add32(ZD_H(en0), hd(nv));
                    pri = 0;
                }
                ZD_H(t) = h;
                if (h > best_v || (h == best_v && pri < best_p)) best_v = h, best_p = pri;
            }
        }
        if (s_end > en) {  // the scores past the padded band, once every cell has read sf (Q9)
            g.sync();
            for (int base = en + 1; base <= s_end; base += G_) {
                const int t = base + tid;
                if (t <= s_end) s[t] = score_at(t);
            }
        }
        if (with_cigar) p_at += (uint32_t)(en - st + 1);
        cells += (uint64_t)(en0 - st0 + 1);
        g.sync();
        if (g.stop(en - st + 1)) {
            ez.status = kZdCanceled;
            return kZdCanceled;
        }
        const int zd_e = Z ? e : D ? e2 : 0;
        if (!approx_max) {
            const int32_t max_H = g.max(best_v);
            const uint64_t win = g.min(best_v == max_H ? best_p : ~(uint64_t)0);
            const int32_t max_t = win == 0 ? en0 : (int32_t)(win & 0xffffffffu);
            if (en0 == tlen - 1 && ZD_H(en0) > ez.mte) ez.mte = ZD_H(en0), ez.mte_q = r - en;  // Q1
            if (r - st0 == qlen - 1 && ZD_H(st0) > ez.mqe) ez.mqe = ZD_H(st0), ez.mqe_t = st0;
            if (zdrop_apply(ez, max_H, r, max_t, zdrop, zd_e)) break;
            if (r == qlen + tlen - 2 && en0 == tlen - 1) ez.score = ZD_H(tlen - 1);
        } else {
            if (r > 0) {
                if (last_H0_t >= st0 && last_H0_t <= en0 && last_H0_t + 1 >= st0 && last_H0_t + 1 <= en0) {
                    const int32_t d0 = hd(v_at(last_H0_t)), d1 = hd(u_at(last_H0_t + 1));
                    if (d0 > d1) H0 += d0;
                    else H0 += d1, ++last_H0_t;
                } else if (last_H0_t >= st0 && last_H0_t <= en0) {
                    H0 += hd(v_at(last_H0_t));
                } else {
                    ++last_H0_t, H0 += hd(u_at(last_H0_t));
                }
                if (Z && (flag & kZdApproxDrop) && zdrop_apply(ez, H0, r, last_H0_t, zdrop, zd_e)) break;  // Q7
            } else {
                H0 = hd(v_at(0)) - qe, last_H0_t = 0;
            }
            if (!Z && (flag & kZdApproxDrop) && zdrop_apply(ez, H0, r, last_H0_t, zdrop, zd_e)) break;
            if (r == qlen + tlen - 2 && en0 == tlen - 1) ez.score = H0;
        }
        g.sync();  // every read of this anti-diagonal's H and bytes before the next one writes
        last_st = st, last_en = en;
    }
    if (zdropped_early) ez.zdropped = 1;
    ez.cells = cells;
    g.sync();
    if (with_cigar) {  // where the CIGAR ends: on every thread (the same); thread 0 walks it
        int i0 = -1, j0 = -1;
        if (!ez.zdropped && !(flag & kZdExtzOnly)) {
            i0 = tlen - 1, j0 = qlen - 1;
        } else if (!S && !ez.zdropped && (flag & kZdExtzOnly) && ez.mqe + end_bonus > ez.max) {
            ez.reach_end = 1;
            i0 = ez.mqe_t, j0 = qlen - 1;
        } else if (ez.max_t >= 0 && ez.max_q >= 0) {
            i0 = ez.max_t, j0 = ez.max_q;
        }
        if (i0 >= 0 && tid == 0)
            ez.n_cigar = zdrop_backtrack(!!(flag & kZdRevCigar), S ? long_thres : 0, M.off, M.off_end, M.prow, M.p,
                                         i0, j0, M.cigar);
    }
    return kZdOk;
}

}  // namespace zdg
}  // namespace gale

#endif
