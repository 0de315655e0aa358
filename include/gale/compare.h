/*
 * gale/compare.h - whole-genome comparison, GPUGECKO-style (gale_compare).
 *
 * Part of gale's public C API: gale.h includes it at its end, so a program includes
 * gale.h alone. It may also be included by itself (#include <gale/compare.h>): it
 * includes gale.h, whose opening comment (struct sizes, life of a batch, errors,
 * thread safety) holds here too. Plain C99; compiles as C and as C++.
 */
#ifndef GALE_H_COMPARE
#define GALE_H_COMPARE

#ifndef GALE_H
#include "../gale.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Whole-genome comparison, GPUGECKO-style (since 0.7)                  */
/* ------------------------------------------------------------------ */
/* gale_compare: every fragment of an exhaustive seed-and-extend of A (the target) against
 * B (the query) on both strands, by the exact rules of doc/compare.md (the GPU kernel to
 * come must reproduce them):
 *   - a and b are each one sequence of a file's records joined with one byte 0 between
 *     records; A C G T in either case are bases (case ignored), every other byte a
 *     non-base; each shorter than 2^32 bytes (GALE_E_LIMIT).
 *   - words: every window of `word` bases with no non-base, 2-bit packed; plus strand:
 *     B's words; minus strand: those of B's reverse complement B' (of the joined b).
 *   - hits: every (i on A, j on B or B') with equal words (max_occ > 0: a word occurring
 *     more than max_occ times in A gives none).
 *   - per strand and diagonal d = i - j, hits in increasing i: a hit with i < covered
 *     (the end, exclusive, of the diagonal's last rightward search; 0 at first) is skipped;
 *     otherwise ungapped X-drop from i + word rightward and from i - 1 leftward (not below
 *     covered): +match for equal bases, -mismatch for anything else, a byte 0 or either
 *     sequence's end stops, running < best - xdrop stops; fragment = [best left start, best
 *     right end), score = best left + word * match + best right; covered = where the
 *     rightward search stopped.
 *   - kept: length >= min_length and 100 * matches >= min_identity * length.
 * Order: the + strand's fragments, then the - strand's, each by diagonal (a_start -
 * b_start, ascending), then a_start: the same on any number of threads. On a CUDA context
 * the CPU computes it too (no GPU kernel yet), on the context's threads. Memory: A's word
 * table (12 bytes a word of A), B's reverse complement (minus strand), and chunks of B's
 * words and hits of bounded size (doc/compare.md, "Memory"). */
#define GALE_COMPARE_PLUS  1u /* the + strand (flags 0: both) */
#define GALE_COMPARE_MINUS 2u /* the - strand */
#define GALE_COMPARE_GPU_ONLY 4u /* on the context's GPU or not at all: GALE_E_UNSUPPORTED where it has
                                  * none that runs gale_compare, GALE_E_NOMEM where the GPU's memory
                                  * cannot hold it (without it: computed on the CPU then) */
typedef struct gale_compare_params {
    size_t size;            /* sizeof(gale_compare_params) */
    int32_t word;           /* word length k, 12..32: 32 */
    int32_t match;          /* score of a matching base pair, 1..2^20: 1 */
    int32_t mismatch;       /* penalty of any other pair, 0..2^20: 1 (scored -1) */
    int32_t xdrop;          /* 0..2^30: 10 */
    uint64_t min_length;    /* kept fragments' least length: 40 */
    uint32_t min_identity;  /* kept fragments' least identity, percent, 0..100: 60 */
    uint32_t flags;         /* GALE_COMPARE_PLUS / _MINUS (neither: both), GALE_COMPARE_GPU_ONLY: 0 */
    uint64_t max_occ;       /* repeat filter (0: none): 0 */
    uint64_t reserved0;     /* 0 */
} gale_compare_params;
GALE_API void gale_compare_params_init(gale_compare_params *params);

/* One fragment: [a_start, a_start + length) on A against [b_start, b_start + length) on B
 * (strand '+') or on B's reverse complement B' (strand '-'; on B it is [lb - b_start -
 * length, lb - b_start), lb = b_len), 0-based on the joined sequences. matches: the
 * position pairs of equal bases. */
typedef struct gale_fragment {
    uint64_t a_start, b_start, length;
    int64_t score;
    uint32_t matches;
    char strand;            /* '+' or '-' */
    char reserved[3];       /* 0 */
} gale_fragment;

/* *frags (malloc'd, gale_fragments_free; NULL when none) and *n. params NULL: the defaults.
 * ctx: any live context (its threads). GALE_E_INVALID / GALE_E_RANGE name the field. */
GALE_API gale_status gale_compare(gale_ctx *ctx, const char *a, int64_t a_len, const char *b, int64_t b_len,
                                  const gale_compare_params *params, gale_fragment **frags, size_t *n);
/* Frees what gale_compare returned (NULL: no-op). */
GALE_API void gale_fragments_free(gale_fragment *frags);

#ifdef __cplusplus
}
#endif

#endif /* GALE_H_COMPARE */
