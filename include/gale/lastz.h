/*
 * gale/lastz.h - LASTZ 1.04.22: gapped extension from anchors, seeding and gap-free extension.
 *
 * Part of gale's public C API: gale.h includes it at its end, so a program includes
 * gale.h alone. It may also be included by itself (#include <gale/lastz.h>): it
 * includes gale.h, whose opening comment (struct sizes, life of a batch, errors,
 * thread safety) holds here too. Plain C99; compiles as C and as C++.
 *
 * gale_lastz_extend (gapped extension, its parameters, results and statistics) and
 * the seeder (gale_lastz_seeder_*: seed parameters, HSPs, statistics). Neither goes
 * through a batch.
 */
#ifndef GALE_H_LASTZ
#define GALE_H_LASTZ

#ifndef GALE_H
#include "../gale.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* LASTZ's gapped extension (since 0.6)                                 */
/* ------------------------------------------------------------------ */
/* GALE_LASTZ: LASTZ 1.04.22's gapped extension from anchors, identical to Debian's
 * `lastz TARGET QUERY --segments=FILE` (doc/ydrop.md lists LASTZ's rules gale reproduces).
 * Its result depends on the order in which LASTZ extends the anchors (an anchor on an
 * earlier alignment's path is skipped; an extension may not cross an earlier alignment),
 * so one call covers a target, one query strand and all of that strand's anchors:
 * gale_lastz_extend; the id has no batch kind (gale_batch_create: GALE_E_RANGE).
 * The sequences are read in place (chromosome-sized: never copied per anchor) as the bytes
 * LASTZ holds: any byte but 0; A C G T in either case score by the matrix, X/x by x_score,
 * every other letter (N...) by fill_score. A minus-strand query is passed
 * reverse-complemented, its anchors in minus-strand coordinates, as LASTZ reads them. */
#define GALE_LASTZ 10 /* kind id (pinned; since 0.6) */

/* One anchor: an ungapped segment as a --segments line gives it (0-based starts: the
 * line's start1 - 1 and start2 - 1), and its score (0 when the line has none). */
typedef struct gale_lastz_anchor {
    uint32_t pos1;   /* start on the target */
    uint32_t pos2;   /* start on the query strand */
    uint32_t length;
    int32_t score;
} gale_lastz_anchor;

#define GALE_LASTZ_NOYTRIM    1u /* --noytrim: an extension that reaches a sequence end is not trimmed to its peak */
#define GALE_LASTZ_ALLBOUNDS  2u /* --allgappedbounds: alignments below gapped_thresh still bound later ones */
#define GALE_LASTZ_NOTRIVIAL  4u /* --notrivial: drop the trivial self-alignment of identical sequences */
#define GALE_LASTZ_MINUS      8u /* the query is the minus strand (LASTZ then looks for no trivial self-alignment) */
/* --scores=FILE (since 0.7): the scores as LASTZ 1.04.22 builds them from a scoring file
 * (read_score_set) whose matrix has the rows and columns A C G T, instead of its default
 * (new_dna_score_set): lower-case a c g t score as upper case; x_score applies to upper-case
 * X only (lower-case x scores fill_score, but x_score against X); byte 0, LASTZ's sequence
 * terminator, scores its very bad score against X too. */
#define GALE_LASTZ_SCORES_FILE 16u
/* --ambiguous=n (since 0.7): N and n score ambi_n_n against N and n, ambi_n_other against
 * A C G T (either case) and they against them (LASTZ's ambiguate_n) */
#define GALE_LASTZ_AMBIGUOUS_N 32u
/* --ambiguous=iupac (since 0.7): also the IUPAC codes B D H K M R S V W Y (either case):
 * one against itself (either case) ambi_n_n, against any other of them, N, or A C G T
 * ambi_n_other (LASTZ's ambiguate_iupac, then ambiguate_n); implies the N rule */
#define GALE_LASTZ_AMBIGUOUS_IUPAC 64u
/* --scores=FILE whatever its alphabet (since 0.7): gale_lastz_params.scores_table holds the
 * whole score set, 256 x 256 ints (row: the target's byte, column: the query's; gale lastz
 * builds it as LASTZ 1.04.22's read_score_set does, for a matrix over A C G T, with N or
 * a c g t too), instead of matrix, x_score and fill_score; the library copies it and sets
 * row and column 0 (LASTZ's sequence terminator) to LASTZ's very bad score itself. Every
 * other entry in [-2^20, 2^20]. Not with GALE_LASTZ_SCORES_FILE. */
#define GALE_LASTZ_SCORES_TABLE 128u
/* With GALE_LASTZ_SCORES_TABLE: N is one of the scoring file's row (column) labels. Only
 * the seeding reads them: LASTZ's masked score set (masked_score_set) then keeps N's row
 * (column) as the file gives it, where it otherwise scores N as x_score. */
#define GALE_LASTZ_SCORES_N_ROW 256u
#define GALE_LASTZ_SCORES_N_COL 512u

/* LASTZ's scoring and gapped-extension options; gale_lastz_params_init sets LASTZ's defaults. */
typedef struct gale_lastz_params {
    size_t size;            /* sizeof(gale_lastz_params) */
    int32_t matrix[4][4];   /* substitution scores, rows target A C G T, columns query; HOXD70 */
    int32_t x_score;        /* X or x against anything: -1000 */
    int32_t fill_score;     /* any other letter (N, IUPAC codes): -100 */
    int32_t gap_open;       /* 400: a gap of length L costs gap_open + L * gap_extend */
    int32_t gap_extend;     /* 30 */
    int32_t ydrop;          /* --ydrop: 9400 (LASTZ's default is gap_open + 300 * gap_extend) */
    int32_t gapped_thresh;  /* --gappedthresh (a score): 3000 */
    uint32_t flags;         /* GALE_LASTZ_*: 0 */
    uint32_t reserved0;     /* 0 */
    uint64_t traceback_bytes; /* --allocate:traceback: 80 MiB; LASTZ cuts an extension where its traceback
                                 would overflow (and may find the rest as separate alignments): 0 lifts that */
    /* since 0.7 (0.6's struct, which ends before them, is still taken): the scores of
     * GALE_LASTZ_AMBIGUOUS_N / _IUPAC; --ambiguous=n[,M[,P]] gives ambi_n_n = M (0) and
     * ambi_n_other = -P (0), as lastz's ambiMatch and -ambiMismatch */
    int32_t ambi_n_n;
    int32_t ambi_n_other;
    /* since 0.7: the score set of GALE_LASTZ_SCORES_TABLE (NULL: none; read during the call) */
    const int32_t *scores_table;
} gale_lastz_params;
GALE_API void gale_lastz_params_init(gale_lastz_params *params);

/* One reported alignment. The CIGAR uses gale's codes (GALE_CIGAR_MATCH for LASTZ's
 * substitutions, GALE_CIGAR_INS for query bases against a gap, GALE_CIGAR_DEL for target
 * bases), one op per LASTZ edit operation, from the target start. */
typedef struct gale_lastz_alignment {
    size_t size;            /* sizeof(gale_lastz_alignment): set by the caller, kept by gale */
    uint32_t beg1, end1;    /* on the target, 1-based, inclusive (LASTZ's) */
    uint32_t beg2, end2;    /* on the query strand */
    int32_t score;
    uint32_t n_ops;
    const uint32_t *cigar;  /* owned by the result; valid until gale_lastz_result_free */
    /* since 0.7 (0.6's struct ends before it, and gale_lastz_result_get still takes that
     * size): the index, in the call's anchors, of the anchor this alignment was extended
     * from (LASTZ's hspid is that anchor's number in its segments file, from 1);
     * GALE_LASTZ_NO_ANCHOR for the trivial self-alignment of identical sequences */
    uint32_t anchor;
} gale_lastz_alignment;
#define GALE_LASTZ_NO_ANCHOR UINT32_MAX

typedef struct gale_lastz_result gale_lastz_result;

/* Extends the anchors as LASTZ does and returns its alignments in LASTZ's reporting order
 * (by target start; see doc/ydrop.md). ctx: any live context: on a CUDA context the
 * anchors' one-sided extensions run on its GPUs (since 0.7; with several, each wave of
 * extensions dealt out to all), on a CPU context of
 * several threads on those threads, and LASTZ's walk over them on the calling thread. GALE_E_INPUT names a byte 0 in a sequence or an anchor outside
 * the sequences; GALE_E_LIMIT a sequence of 2^31 - 11 bases or more (LASTZ's limit). */
GALE_API gale_status gale_lastz_extend(gale_ctx *ctx, const char *target, int64_t target_len, const char *query,
                                       int64_t query_len, const gale_lastz_anchor *anchors, size_t n_anchors,
                                       const gale_lastz_params *params, gale_lastz_result **out);
/* Number of alignments (0 for NULL). */
GALE_API size_t gale_lastz_result_count(const gale_lastz_result *result);
/* Alignment i (GALE_E_RANGE past the end). */
GALE_API gale_status gale_lastz_result_get(const gale_lastz_result *result, size_t i, gale_lastz_alignment *out);
/* Extensions LASTZ's traceback memory cut (what lastz reports as "truncating alignment"). */
GALE_API uint64_t gale_lastz_result_truncations(const gale_lastz_result *result);
/* Frees a result (NULL: no-op). */
GALE_API void gale_lastz_result_free(gale_lastz_result *result);

/* What a call did (since 0.7; doc/ydrop.md, "Parallel extension"): phase 1 computes the
 * anchors' one-sided extensions without bounds (on the context's GPU, or on its threads),
 * phase 2 walks the anchors in LASTZ's order as phase 1 decides them, keeping each
 * precomputed half it proves equal to its own and computing the others. All zero on the serial path (one CPU thread). */
typedef struct gale_lastz_stats {
    size_t size;                  /* sizeof(gale_lastz_stats): set by the caller */
    uint64_t sides_phase1;        /* one-sided extensions computed in phase 1 */
    uint64_t sides_device;        /* ... of those, on a GPU (the CUDA backend) */
    uint64_t sides_device_failed; /* ... that the GPU could not take (its memory): the walk computed them */
    uint64_t sides_walked;        /* halves of the anchors the walk reached */
    uint64_t sides_redone;        /* ... that the walk computed itself */
    uint64_t serial_reruns;       /* calls rerun serially (doc/ydrop.md) */
    uint64_t cells_phase1;        /* DP cells phase 1 swept */
    double phase1_seconds, phase2_seconds, kernel_seconds; /* wall time (the walk runs beside phase 1,
                                                              from the start); GPU kernels' time */
} gale_lastz_stats;
GALE_API gale_status gale_lastz_result_stats(const gale_lastz_result *result, gale_lastz_stats *out);

/* LASTZ's seeding and gap-free extension (since 0.7): the HSPs `lastz TARGET QUERY
 * --nogapped` finds on each query strand, in its order (doc/lastz-seed.md lists the rules
 * reproduced). Scoring: gale_lastz_params' matrix, x_score and fill_score (LASTZ's masked
 * score set: lower case a c g t, N, n and X score x_score against everything, then
 * GALE_LASTZ_AMBIGUOUS_*'s scores; with GALE_LASTZ_SCORES_FILE or _SCORES_TABLE the masked
 * set of the file's scores: the same, but N as the file scores it where N is one of its
 * labels, GALE_LASTZ_SCORES_N_ROW and _N_COL); the other fields are the gapped stage's and
 * ignored. */
#define GALE_LASTZ_SEED_NOENTROPY 1u /* --noentropy: no entropy scaling of low-scoring HSPs */
typedef struct gale_lastz_seed_params {
    size_t size;            /* sizeof(gale_lastz_seed_params) */
    const char *seed;       /* --seed: a pattern of 1 (match), 0 (either base) and T (match or
                             * transition; T and 0 only: half-weight, transitions 0); NULL: LASTZ's 12of19,
                             * 1110100110010101111 */
    int32_t transitions;    /* --transition: seed hits with up to this many transitions, 0, 1 or 2: 1 */
    uint32_t step;          /* --step: the target's words whose end is a multiple of it, >= 1: 1 */
    int32_t xdrop;          /* --xdrop (>= 0): 910 (lastz: 10 times the matrix's A-A score) */
    int32_t hsp_thresh;     /* --hspthresh (a score): 3000 */
    uint32_t flags;         /* GALE_LASTZ_SEED_*: 0 */
    uint32_t reserved0;     /* 0 */
} gale_lastz_seed_params;
GALE_API void gale_lastz_seed_params_init(gale_lastz_seed_params *params);
/* A target's seed-word table (LASTZ builds it once per target), for any number of query
 * strands. Byte 0 separates records seeded as one sequence, as lastz seeds a [multiple]
 * target (byte 0, then each record followed by byte 0, the last not counted in target_len):
 * no word spans it and every extension stops there (the HSPs' pos1 are on the
 * joined target). The target is read in place and must stay as it is until the seeder is freed;
 * so must the context (a CUDA context's devices hold the target and its table too).
 * scoring NULL: LASTZ's defaults; params NULL: gale_lastz_seed_params_init's. GALE_E_INVALID:
 * a seed pattern lastz refuses (named in gale_last_error), or a half-weight seed (T and 0
 * only: no 1 to flip) with transitions other than 0, as lastz refuses --transition with one.
 * Half-weight and overweight seeds (over 28 bits: the last 1s resolved at each hit) are
 * LASTZ's (doc/lastz-seed.md), found on the CPU, also on a CUDA context, for now. Memory:
 * 4 bytes a target word and 64 MiB of buckets (none for a target shorter than the seed),
 * built at the first find on the CPU; on a CUDA context in each GPU's memory instead (host
 * memory only if a find falls back to the CPU). */
typedef struct gale_lastz_seeder gale_lastz_seeder;
GALE_API gale_status gale_lastz_seeder_create(gale_ctx *ctx, const char *target, int64_t target_len,
                                              const gale_lastz_params *scoring, const gale_lastz_seed_params *params,
                                              gale_lastz_seeder **out);
/* The HSPs of a query strand (a minus strand passed reverse-complemented, as to
 * gale_lastz_extend; byte 0 separates records seeded as one sequence, as lastz seeds a
 * [multiple] query: no word spans it and every extension stops there) against the seeder's
 * target: *hsps (malloc'd: gale_lastz_hsps_free; NULL when none) and *n_hsps, each HSP's
 * starts, length and score (after the entropy scaling), in the order lastz writes them
 * with --nogapped. On a CUDA context computed on its GPU (calls made at once go to its
 * device entries in turn), or on the CPU when the device's memory cannot take the query
 * (gale_lastz_seeder_stats counts those); on a CPU context, on as many threads as it has
 * (one: LASTZ's own loop, on the calling thread). The result is the same everywhere;
 * calls on one seeder may run at once. */
GALE_API gale_status gale_lastz_seeder_find(const gale_lastz_seeder *seeder, const char *query, int64_t query_len,
                                            gale_lastz_anchor **hsps, size_t *n_hsps);
/* What a seeder's finds did, all calls so far (since 0.7). */
typedef struct gale_lastz_seed_stats {
    size_t size;                  /* sizeof(gale_lastz_seed_stats): set by the caller */
    uint64_t finds;               /* gale_lastz_seeder_find calls that searched */
    uint64_t finds_device;        /* ... on a GPU */
    uint64_t finds_device_failed; /* ... that the GPU could not take (its memory): found on the CPU */
    uint64_t hits;                /* seed hits (LASTZ's), before its diagonal check */
    uint64_t hsps;                /* HSPs returned */
    double device_seconds;        /* GPU time (copies included) */
    double seconds;               /* wall time in gale_lastz_seeder_find (calls at once add up) */
} gale_lastz_seed_stats;
GALE_API gale_status gale_lastz_seeder_stats(const gale_lastz_seeder *seeder, gale_lastz_seed_stats *out);
/* Frees a seeder (NULL: no-op). */
GALE_API void gale_lastz_seeder_free(gale_lastz_seeder *seeder);
/* Frees what gale_lastz_seeder_find returned (NULL: no-op). */
GALE_API void gale_lastz_hsps_free(gale_lastz_anchor *hsps);

#ifdef __cplusplus
}
#endif

#endif /* GALE_H_LASTZ */
