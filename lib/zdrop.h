// ksw2's Z-drop extension (GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2): what the CPU kernel
// (lib/cpu/zdrop.cpp) and the table entry (lib/kinds.cpp) share.
//
// The semantics of record are minimap2 2.24's ksw_extz2_sse, ksw_extd2_sse and
// ksw_exts2_sse as Debian's libminimap2-dev builds them (the SSE4.1 code paths). ksw2
// computes with 8-bit score differences (Suzuki-Kasahara) over anti-diagonals cut into
// 16-cell blocks, and several of its results depend on that arithmetic: values wrap at
// 8 bits, padded lanes past the band are computed and read back, and mte_q is taken
// from the padded band end. gale reproduces the arithmetic lane by lane (not the
// recurrence in 32 bits), so that every field equals ksw2 on every input, quirks
// included; the quirks are listed in lib/cpu/zdrop.cpp, where each is reproduced.
//
// Names follow ksw2: the query is gale's v (the read, SAM's query), the target gale's h;
// both are encoded 0..4 (A C G T N), and the alphabet size m is 5.
#ifndef GALE_ZDROP_H
#define GALE_ZDROP_H

#include <atomic>
#include <cstdint>
#include <vector>

#include "arena.h"
#include "sequence.h"

#if defined(__CUDACC__)
#define GALE_ZD_HD __host__ __device__ __forceinline__
#else
#define GALE_ZD_HD inline
#endif

namespace gale {

enum ZdropVariant : int32_t { kZdExtz2 = 0, kZdExtd2 = 1, kZdExts2 = 2 };

// ksw2's KSW_EZ_* flags (gale/zdrop.h's GALE_ZD_*): the same bits.
constexpr int32_t kZdScoreOnly = 0x01, kZdRight = 0x02, kZdGenericSc = 0x04, kZdApproxMax = 0x08,
                  kZdApproxDrop = 0x10, kZdExtzOnly = 0x40, kZdRevCigar = 0x80, kZdSpliceFor = 0x100,
                  kZdSpliceRev = 0x200, kZdSpliceFlank = 0x400;
constexpr int32_t kZdNegInf = -0x40000000;  // KSW_NEG_INF
constexpr int kZdAlphabet = 5;              // m: A C G T and the wildcard N (m - 1)

// The arguments of one ksw2 call but the sequences (ksw2.h's names).
struct ZdropParams {
    int32_t variant = kZdExtz2;
    int32_t w = 500, zdrop = 400, end_bonus = -1, flag = 0;
    int8_t q = 4, e = 2, q2 = 24, e2 = 1, noncan = 0, junc_bonus = 0;
    int8_t mat[kZdAlphabet * kZdAlphabet] = {};
};

// ksw_extz_t but the CIGAR's storage; the CIGAR goes to the batch's ResultArena.
struct ZdropResult {
    int32_t max = 0, zdropped = 0, max_q = 0, max_t = 0, mqe = 0, mqe_t = 0, mte = 0, mte_q = 0, score = 0,
            reach_end = 0;
    VarSpan cigar;
    uint64_t cells = 0;
    uint32_t flags = 0, reserved = 0;
};

// One call's output before it is stored: ksw_extz_t's fields and the CIGAR.
struct ZdropOut {
    int32_t max, zdropped, max_q, max_t, mqe, mqe_t, mte, mte_q, score, reach_end;
    uint64_t cells;
};

// ---- what the CPU kernel and the CUDA kernel (cuda/common/zdrop_core.cuh) share -----

// ksw2.h's ksw_push_cigar into a buffer of at least qlen + tlen ops; returns the count.
GALE_ZD_HD int zdrop_push_cigar(uint32_t *c, int n, uint32_t op, int len) {
    if (n == 0 || op != (c[n - 1] & 0xf)) c[n++] = (uint32_t)len << 4 | op;
    else c[n - 1] += (uint32_t)len << 4;
    return n;
}

// ksw2.h's ksw_backtrack with is_rot = 1 (every caller here), on anti-diagonal rows: row r's
// codes are p[prow[r] + i - off[r]] for i in [off[r], off_end[r]]. Writes the CIGAR into
// cigar (room for qlen + tlen + 2 ops) and returns its length.
template <class Prow>
GALE_ZD_HD int zdrop_backtrack(int is_rev, int min_intron_len, const int32_t *off, const int32_t *off_end,
                               const Prow *prow, const uint8_t *p, int i0, int j0, uint32_t *cigar) {
    int i = i0, j = j0, state = 0, n = 0;
    while (i >= 0 && j >= 0) {
        int force_state = -1;
        const int r = i + j;
        if (i < off[r]) force_state = 2;
        if (i > off_end[r]) force_state = 1;
        const uint32_t tmp = force_state < 0 ? p[prow[r] + (Prow)(i - off[r])] : 0;
        if (state == 0) state = tmp & 7;  // ksw2: the H state, or the one that maximises it
        else if (!(tmp >> (state + 2) & 1)) state = 0;
        if (state == 0) state = tmp & 7;
        if (force_state >= 0) state = force_state;
        if (state == 0) n = zdrop_push_cigar(cigar, n, 0, 1), --i, --j;
        else if (state == 1 || (state == 3 && min_intron_len <= 0)) n = zdrop_push_cigar(cigar, n, 2, 1), --i;
        else if (state == 3 && min_intron_len > 0) n = zdrop_push_cigar(cigar, n, 3, 1), --i;
        else n = zdrop_push_cigar(cigar, n, 1, 1), --j;
    }
    if (i >= 0) n = zdrop_push_cigar(cigar, n, min_intron_len > 0 && i >= min_intron_len ? 3 : 2, i + 1);
    if (j >= 0) n = zdrop_push_cigar(cigar, n, 1, j + 1);
    if (!is_rev)
        for (int k = 0; k < n >> 1; ++k) {
            const uint32_t x = cigar[k];
            cigar[k] = cigar[n - 1 - k], cigar[n - 1 - k] = x;
        }
    return n;
}

// ksw2.h's ksw_apply_zdrop with is_rot = 1 (Quirk Q6, lib/cpu/zdrop.cpp): the maximum moves
// on a strict '>', the test runs only down-right of it. Ez has ksw_extz_t's fields.
template <class Ez>
GALE_ZD_HD bool zdrop_apply(Ez &ez, int32_t H, int r, int t, int zdrop, int e) {
    if (H > ez.max) {
        ez.max = H, ez.max_t = t, ez.max_q = r - t;
    } else if (t >= ez.max_t && r - t >= ez.max_q) {
        const int tl = t - ez.max_t, ql = (r - t) - ez.max_q, l = tl > ql ? tl - ql : ql - tl;
        if (zdrop >= 0 && ez.max - H > zdrop + l * e) {
            ez.zdropped = 1;
            return true;
        }
    }
    return false;
}

// ksw_reset_extz.
template <class Ez>
GALE_ZD_HD void zdrop_reset(Ez &ez) {
    ez.max_q = ez.max_t = ez.mqe_t = ez.mte_q = -1;
    ez.max = 0, ez.score = ez.mqe = ez.mte = kZdNegInf;
    ez.zdropped = 0, ez.reach_end = 0;
    ez.cells = 0;
}

struct ZdropScratch;  // per-thread buffers of the CPU kernel, kept between tasks
ZdropScratch *zdrop_scratch_new();
void zdrop_scratch_free(ZdropScratch *s);

// Runs ksw_ext{z,d,s}2_sse(km, qlen, query, tlen, target, m, mat, ...) for p.variant, m
// any alphabet size >= 1 whose matrix mat is m*m (row = target base) and whose codes are
// < m; junc (exts2 only) is ksw2's per-target-base junction array or nullptr. The CIGAR
// (ksw2's uint32 ops, len << 4 | op; empty with SCORE_ONLY) is left in cigar. Returns
// false, output unset, if *cancel was raised (polled every 2^16 cells; cancel may be
// nullptr).
bool zdrop_run(const ZdropParams &p, int m, const int8_t *mat, int qlen, const uint8_t *query, int tlen,
               const uint8_t *target, const uint8_t *junc, ZdropOut &out, std::vector<uint32_t> &cigar,
               ZdropScratch &ws, const std::atomic<bool> *cancel);

}  // namespace gale

#endif
