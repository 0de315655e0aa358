/*
 * gale/zdrop.h - Z-drop extension, minimap2 2.24's ksw2: GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2.
 *
 * Part of gale's public C API: gale.h includes it at its end, so a program includes
 * gale.h alone. It may also be included by itself (#include <gale/zdrop.h>): it
 * includes gale.h, whose opening comment (struct sizes, life of a batch, errors,
 * thread safety) holds here too. Plain C99; compiles as C and as C++.
 *
 * The kinds' own parameter ids (117, the 500s), the GALE_ZD_* flags and junction bits,
 * gale_zdrop_result and its getter. The kind ids, the scoring ids they share (100s,
 * 110s), gale_task.junc and gale_result_cigar are gale.h's.
 */
#ifndef GALE_H_ZDROP
#define GALE_H_ZDROP

#ifndef GALE_H
#include "../gale.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 110s, the Z-drop kinds' own (110..114, which they share with the WFA kinds, are gale.h's). */
#define GALE_P_PENALTY_N          117 /* Z-drop kinds (since 0.6): minimap2's sc_ambi, see the 500s below */

/* 500s: Z-drop extension (GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2; since 0.6). Each kind takes
 * the arguments its ksw2 function takes, under these ids (and gale.h's 100s/110s, with
 * GALE_P_PENALTY_N above):
 *
 *   ksw2 argument       id                          extz2  extd2  exts2   bounds
 *   mat (simple)        GALE_P_MATCH (a)                2      2      1   [-128, 127]
 *                       GALE_P_PENALTY_MISMATCH (b)     4      4      2   [-127, 128]
 *                       GALE_P_PENALTY_N (sc_ambi)      1      1      1   [-127, 128]
 *   q / gapo            GALE_P_PENALTY_GAP_OPEN         4      4      2   [0, 127]
 *   e / gape            GALE_P_PENALTY_GAP_EXTEND       2      2      1   [0, 127] (exts2 [1, 127])
 *   q2 / gapo2          GALE_P_PENALTY_GAP_OPEN2        -     24     32   [0, 127]
 *   e2                  GALE_P_PENALTY_GAP_EXTEND2      -      1      -   [0, 127]
 *   w                   GALE_P_BAND                   500    500      -   [-1, 2^30]; negative: no band
 *   zdrop               GALE_P_ZDROP                  400    400    200   [-1, 2^30]; negative: no Z-drop
 *   end_bonus           GALE_P_END_BONUS               -1     -1      -   [-2^30, 2^30]
 *   noncan              GALE_P_NONCAN                   -      -      9   [0, 127]
 *   flag                GALE_P_ZDROP_FLAGS              0      0  0x700   GALE_ZD_* bits
 *   junc_bonus          GALE_P_JUNC_BONUS               -      -      9   [-128, 127] (since 0.7)
 *   mat (5 x 5)         GALE_P_ZDROP_MATRIX             0      0      0   [0, 1]
 *                       GALE_P_ZDROP_MAT(t, q)          0      0      0   [-128, 127]
 * (defaults: minimap2 2.24's, its splice preset's for exts2). The matrix is 5 x 5
 * (m = 5; A C G T = 0..3, N and every other accepted letter 4, as GALE_N_DNA5 reads
 * them; GALE_P_N_POLICY does not apply): with GALE_P_ZDROP_MATRIX 0 it is minimap2's
 * ksw_gen_simple_mat(5, mat, a, b, sc_ambi): a on the diagonal, -b off it, -sc_ambi in
 * N's row and column; with 1 it is the 25 entries GALE_P_ZDROP_MAT(t, q), t the target
 * (h) base, q the query (v) base. Without GALE_ZD_GENERIC_SC ksw2 reads only mat[0]
 * (match), mat[1] (mismatch) and mat[24] (N; 0 there means -e, -e2 for extd2).
 * junc, ksw_exts2_sse's junction array (since 0.7), is per task: gale_task.junc, NULL
 * (ksw2's junc = NULL, minimap2 without --junc-bed) or one byte per base of the task's h
 * with ksw2's bits GALE_ZD_JUNC_*; junc_bonus (minimap2's, 9 in its splice preset) is added
 * to ksw2's donor and acceptor scores where the array marks a junction of a strand the
 * flags ask for (ksw2's int8_t arithmetic: the sums wrap at 8 bits). Without a junction
 * array junc_bonus changes nothing. */
#define GALE_P_BAND          500
#define GALE_P_ZDROP         501
#define GALE_P_END_BONUS     502
#define GALE_P_ZDROP_FLAGS   503
#define GALE_P_NONCAN        504
#define GALE_P_ZDROP_MATRIX  505
#define GALE_P_JUNC_BONUS    506 /* GALE_ZDROP_EXTS2 only (since 0.7) */
#define GALE_P_ZDROP_MAT(t, q) (520 + 5 * (t) + (q)) /* t, q in 0..4: ids 520..544 */

/* GALE_P_ZDROP_FLAGS: ksw2's KSW_EZ_* flags, the same bits, so that a ksw2 caller's flag
 * word passes unchanged. extz2/extd2 take the first seven below, exts2 all ten (its
 * EXTZ_ONLY has no end bonus: the CIGAR then ends at the maximum). Any other bit gives
 * GALE_E_RANGE. */
#define GALE_ZD_SCORE_ONLY   0x01  /* no CIGAR */
#define GALE_ZD_RIGHT        0x02  /* right-align gaps */
#define GALE_ZD_GENERIC_SC   0x04  /* use the whole matrix */
#define GALE_ZD_APPROX_MAX   0x08  /* ksw2's approximate maximum */
#define GALE_ZD_APPROX_DROP  0x10  /* ksw2's approximate Z-drop (with APPROX_MAX) */
#define GALE_ZD_EXTZ_ONLY    0x40  /* extension only: no global score's CIGAR */
#define GALE_ZD_REV_CIGAR    0x80  /* CIGAR reversed (for left extensions on reversed sequences) */
#define GALE_ZD_SPLICE_FOR   0x100 /* exts2: GT-AG introns */
#define GALE_ZD_SPLICE_REV   0x200 /* exts2: CT-AC introns */
#define GALE_ZD_SPLICE_FLANK 0x400 /* exts2: score the flanking bases */
#define GALE_ZD_NEG_INF (-0x40000000) /* KSW_NEG_INF: score, mqe, mte when not reached */

/* gale_task.junc's bytes (GALE_ZDROP_EXTS2; since 0.7): ksw2's junction bits, as minimap2
 * 2.24 sets them from --junc-bed (mm_idx_bed_junc): on the forward strand 0x01 marks a
 * donor (the first base of an intron) and 0x02 an acceptor (its last base); on the reverse
 * strand, in the target's orientation, 0x08 marks the intron's first base and 0x04 its
 * last. ksw2 reads 0x01/0x02 under GALE_ZD_SPLICE_FOR, 0x04/0x08 under GALE_ZD_SPLICE_REV,
 * with donor and acceptor exchanged under GALE_ZD_REV_CIGAR (a reversed target, as minimap2
 * passes it for left extensions, with the array reversed too). A byte with any other bit
 * set is refused (GALE_E_INPUT). */
#define GALE_ZD_JUNC_FOR_DONOR    0x01
#define GALE_ZD_JUNC_FOR_ACCEPTOR 0x02
#define GALE_ZD_JUNC_REV_LAST     0x04
#define GALE_ZD_JUNC_REV_FIRST    0x08
#define GALE_ZD_JUNC_MASK         0x0f

/* Z-drop extension (GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2; since 0.6)
 *
 * Each task is one call of the kind's ksw2 function as minimap2 2.24 makes it and
 * Debian's libminimap2-dev builds it (SSE4.1): query = v (the read), target = h; no
 * seed (the seed fields must be 0). Every field of ksw2's ksw_extz_t is reproduced bit
 * for bit, ksw2's quirks included (mte_q taken from the 16-cell-padded band end; with a
 * band too narrow for the pair, scores that differ from their CIGAR's, or KSW_NEG_INF
 * with zdropped set; 8-bit score differences that wrap at extreme parameters; ...):
 * doc/zdrop.md lists them. Sequences of any length; scores in 32 bits as ksw2's.
 *
 * gale_result_zdrop gives the fields; gale_result_cigar the CIGAR, ksw2's ops (BAM's
 * codes: M I D N, I consuming the query), empty with GALE_ZD_SCORE_ONLY. gale_result
 * gives for these kinds: score = ksw2's score, score_left = max, h_end = max_t + 1,
 * v_end = max_q + 1 (0 when ksw2 has -1), the begins 0, cells = cells computed. */
typedef struct gale_zdrop_result {
    size_t size;          /* sizeof(gale_zdrop_result): set by the caller, kept by gale */
    uint32_t flags;       /* GALE_RF_* */
    int32_t max;          /* ksw_extz_t.max: best score of the extension */
    int32_t zdropped;     /* 1 if Z-drop (or a band too narrow for the pair) stopped it */
    int32_t max_q, max_t; /* the best cell (query, target; -1 if none) */
    int32_t mqe, mqe_t;   /* best score reaching the query's end, and the target position there */
    int32_t mte, mte_q;   /* best score reaching the target's end, and ksw2's query position there */
    int32_t score;        /* score reaching both ends; GALE_ZD_NEG_INF if not reached */
    int32_t reach_end;    /* 1 if the CIGAR goes to the query's end (GALE_ZD_EXTZ_ONLY with end_bonus) */
    int32_t reserved0;
    uint64_t cells;       /* DP cells computed */
    uint64_t user;        /* the task's user value */
} gale_zdrop_result;

/* Copies Z-drop result i into *out (out->size must be set; since 0.6). Errors as
 * gale_result_get's, and GALE_E_RANGE for a batch of another kind. A cancelled task
 * gives GALE_E_CANCELED with *out written zeroed but size, user and flags
 * (GALE_RF_CANCELED), as gale_result_get. */
GALE_API gale_status gale_result_zdrop(const gale_batch *batch, size_t i, gale_zdrop_result *out);

#ifdef __cplusplus
}
#endif

#endif /* GALE_H_ZDROP */
