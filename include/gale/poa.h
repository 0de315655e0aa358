/*
 * gale/poa.h - partial-order alignment: GALE_POA, SPOA 4.0.8's results.
 *
 * Part of gale's public C API: gale.h includes it at its end, so a program includes
 * gale.h alone. It may also be included by itself (#include <gale/poa.h>): it
 * includes gale.h, whose opening comment (struct sizes, life of a batch, errors,
 * thread safety) holds here too. Plain C99; compiles as C and as C++.
 *
 * The kind's own parameter ids (the 600s), its output bits, gale_poa_result and its
 * getter. Groups (gale_group, gale_batch_add_group) are gale.h's; aligning reads to a
 * fixed graph with the same engine is gale/graph.h.
 */
#ifndef GALE_H_POA
#define GALE_H_POA

#ifndef GALE_H
#include "../gale.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* 600s: partial-order alignment (GALE_POA, since 0.6): the arguments of SPOA's
 * AlignmentEngine::Create(type, m, n, g, e, q, c), with GALE_P_MATCH (m, default 5)
 * and GALE_P_MISMATCH (n, default -4), both in [-128, 127]. The gap model follows
 * from the numbers as in SPOA: linear if g >= e, else affine if g <= q or e >= c,
 * else convex; a gap of length L costs g + (L - 1) e (convex: the larger of that and
 * q + (L - 1) c). Defaults are the `spoa` program's. */
#define GALE_P_POA_ALGORITHM   600 /* GALE_POA_LOCAL (default), GALE_POA_GLOBAL, GALE_POA_SEMI_GLOBAL (spoa -l) */
#define GALE_P_POA_GAP_OPEN    601 /* g; default -8; [-128, 0] */
#define GALE_P_POA_GAP_EXTEND  602 /* e; default -6; [-128, 0] */
#define GALE_P_POA_GAP_OPEN2   603 /* q; default -10; [-128, 0] */
#define GALE_P_POA_GAP_EXTEND2 604 /* c; default -4; [-128, 0] */
#define GALE_P_POA_OUTPUT      605 /* GALE_POA_OUT_* bits; default CONSENSUS | MSA; [0, 15] (DOT since 0.7) */
/* spoa -s (since 0.7): 1 aligns each sequence and its reverse complement (biosoup's:
 * A<->T, C<->G, U->A, R<->Y, K<->M, B<->V, D<->H on the upper-cased byte, other bytes
 * kept, qualities reversed) and adds the better-scoring one, the forward one on a tie;
 * default 0; [0, 1]. As SPOA does, a sequence kept forward is added complemented twice
 * (lower-case acgtu and rykmbdhv upper-cased, U and u as T). A CUDA context computes
 * such batches on its CPU threads (GALE_RF_CPU). */
#define GALE_P_POA_STRAND_AMBIGUOUS 606

#define GALE_POA_LOCAL       0 /* SPOA's kSW */
#define GALE_POA_GLOBAL      1 /* kNW */
#define GALE_POA_SEMI_GLOBAL 2 /* kOV */

#define GALE_POA_OUT_CONSENSUS 1 /* the consensus (heaviest bundle) */
#define GALE_POA_OUT_MSA       2 /* the MSA rows, and the consensus row */
#define GALE_POA_OUT_GFA       4 /* the graph as GFA, as the `spoa` program writes it */
#define GALE_POA_OUT_DOT       8 /* the graph as DOT, as `spoa -d` writes it after its consensus (since 0.7) */

/* Partial-order alignment (GALE_POA, since 0.6)
 *
 * One task is one group (gale_batch_add_group): its sequences are aligned in order to
 * a graph that grows with each, as SPOA 4.0.8 does (Debian's libspoa-dev and `spoa`:
 * its SIMD engine's choice among equal-scoring alignments, doc/poa.md). Bytes: any
 * printable ASCII but space ('!' to '~'), compared as they are (case matters, as in
 * SPOA); gale_batch_add_sequence also takes them for a POA batch. A sequence of length
 * 0 is skipped, as SPOA skips it: it has no MSA row (n_rows counts the others).
 * gale_result_get gives flags, cells and user (score: the sum of the scores).
 *
 * gale_result_poa: the task's results; pointers into the batch, valid until it is
 * reset or destroyed; none is NUL-terminated.
 *   scores[0 .. n_seqs): each sequence's alignment score against the graph of the
 *     sequences before it (SPOA's Align; 0 for the first, for an empty sequence and
 *     where SPOA reports none);
 *   consensus (GALE_POA_OUT_CONSENSUS): consensus_len bytes;
 *   msa (GALE_POA_OUT_MSA): n_rows rows of row_len bytes each, row r at
 *     msa + r * row_len: the non-empty sequences in order, then the consensus row
 *     (SPOA's GenerateMultipleSequenceAlignment(true));
 *   gfa (GALE_POA_OUT_GFA): gfa_len bytes, what `spoa -r 4` writes, the paths named
 *     0, 1, ... in the order of the MSA rows, and the consensus path ("Consensus") last;
 *     under GALE_P_POA_STRAND_AMBIGUOUS a reversed sequence's path is written backwards,
 *     its nodes marked '-', as `spoa -s` does;
 *   reversed (since 0.7; GALE_P_POA_STRAND_AMBIGUOUS 1, else NULL): n_seqs bytes, 1 where
 *     the sequence's reverse complement was added (its MSA row is the reverse complement);
 *   dot (GALE_POA_OUT_DOT, since 0.7): dot_len bytes, what `spoa -d FILE` writes to FILE
 *     (the consensus nodes and edges coloured: spoa draws the consensus for -r 0, 2, 3, 4).
 * The caller's size may be that of 0.6's struct (up to `user`): the fields past it are
 * then not written.
 * Same errors as gale_result_get; GALE_E_RANGE for a batch of another kind. A
 * cancelled task: GALE_E_CANCELED, *out written with flags GALE_RF_CANCELED only. */
typedef struct gale_poa_result {
    size_t size;             /* sizeof(gale_poa_result): set by the caller, kept by gale */
    uint32_t flags;          /* GALE_RF_* */
    int32_t reserved0;
    size_t n_seqs;
    const int32_t *scores;
    const char *consensus;
    int64_t consensus_len;
    const char *msa;
    size_t n_rows;
    int64_t row_len;
    const char *gfa;
    int64_t gfa_len;
    uint64_t cells;
    uint64_t user;
    const uint8_t *reversed; /* since 0.7 */
    const char *dot;         /* since 0.7 */
    int64_t dot_len;         /* since 0.7 */
} gale_poa_result;
GALE_API gale_status gale_result_poa(const gale_batch *batch, size_t i, gale_poa_result *out);

#ifdef __cplusplus
}
#endif

#endif /* GALE_H_POA */
