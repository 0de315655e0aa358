/*
 * gale_lastz_plugin.h - the "lastz" plugin of gale: LASTZ 1.04.22's gapped stage
 * (lastz TARGET QUERY --segments=FILE) for a program that finds its own anchors
 * (SegAlign, KegAlign and the like seed and filter on a GPU): register the sequences
 * once, pass the anchor table, get the alignment list lastz would report, in its order.
 *
 * Load it with gale_plugin_open("lastz", &p), then gale_plugin_get_info(p, &info) and
 * (const gale_lastz_plugin_api *)info->api; or link gale-lastz.so and call the
 * functions below. plugins/lastz/example.c does the whole round trip.
 *
 * Semantics (doc/ydrop.md lists LASTZ's rules gale reproduces): for each registered
 * target, each registered query in registration order, its + strand then its - strand,
 * the anchors of that (target, query, strand) are extended as lastz extends the
 * segments of one query strand (gale_lastz_extend, gale/lastz.h), and the alignments are
 * appended in lastz's reporting order. So with one target and the queries registered
 * in file order, the list is what `lastz TARGET QUERY --segments=FILE` reports,
 * alignment for alignment; several targets are several lastz runs, one after the other.
 * The order of the anchors in the table does not matter.
 *
 * Sequences: bytes as lastz reads FASTA (A C G T in either case, N, X, IUPAC codes;
 * lowercase scores as uppercase). The plugin keeps the caller's pointers, it does not
 * copy them: they must stay valid and unchanged until the session is destroyed. The
 * reverse complement of a query is made once, when an anchor first needs it.
 *
 * Errors: a gale_status (gale.h); the message of the last failing call on the thread
 * is gale_lastz_plugin_last_error(). An anchor naming an unregistered sequence, with a
 * strand other than '+' or '-', or outside its sequences, is GALE_E_INPUT naming its
 * index in the table. On failure *out is untouched. Nothing is printed; no exception
 * crosses these functions. A session is used by one thread at a time; sessions are
 * independent.
 *
 * Plain C99; compiles as C and as C++.
 */
#ifndef GALE_LASTZ_PLUGIN_H
#define GALE_LASTZ_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "gale.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of gale_lastz_plugin_api (grows by appending; check api->size). */
#define GALE_LASTZ_PLUGIN_API_VERSION 1

typedef struct gale_lastz_session gale_lastz_session;
typedef struct gale_lastz_hits gale_lastz_hits;

/* One anchor, as a --segments line gives it. */
typedef struct gale_lastz_seed {
    uint32_t target;   /* the target's id (gale_lastz_session_add_target) */
    uint32_t query;    /* the query's id (gale_lastz_session_add_query) */
    uint32_t start1;   /* 1-based start on the target */
    uint32_t start2;   /* 1-based start on the query strand ('-': on its reverse complement) */
    uint32_t length;   /* > 0 */
    int32_t score;     /* the segment's score (0 when unknown, as lastz reads a line without one) */
    char strand;       /* '+' or '-' */
} gale_lastz_seed;

/* One reported alignment. */
typedef struct gale_lastz_hit {
    uint32_t target, query;
    char strand;            /* '+' or '-' */
    uint32_t beg1, end1;    /* on the target, 1-based, inclusive */
    uint32_t beg2, end2;    /* on the query strand ('-': on its reverse complement) */
    int32_t score;
    uint32_t n_ops;         /* CIGAR: gale's codes (GALE_CIGAR_MATCH, _INS: query bases, _DEL: target bases) */
    const uint32_t *cigar;  /* owned by the hits; valid until gale_lastz_hits_free */
} gale_lastz_hit;

#if defined(GALE_LASTZ_PLUGIN_BUILDING) && defined(__GNUC__)
#define GALE_LASTZ_PLUGIN_FN __attribute__((visibility("default")))
#else
#define GALE_LASTZ_PLUGIN_FN
#endif

/* A session with LASTZ's scoring and options (params NULL: gale_lastz_params_init's
 * defaults, lastz's; GALE_LASTZ_MINUS is the plugin's to set, per strand). */
GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_session_create(const gale_lastz_params *params, gale_lastz_session **out);
/* Registers a sequence (kept by pointer); *id: 0, 1, ... per kind, in call order. */
GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_session_add_target(gale_lastz_session *s, const char *seq, int64_t len,
                                                              uint32_t *id);
GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_session_add_query(gale_lastz_session *s, const char *seq, int64_t len,
                                                             uint32_t *id);
/* Extends the anchors; *out: the alignments, in lastz's order (see above). */
GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_session_run(gale_lastz_session *s, const gale_lastz_seed *seeds, size_t n,
                                                       gale_lastz_hits **out);
GALE_LASTZ_PLUGIN_FN void gale_lastz_session_destroy(gale_lastz_session *s);
/* The alignments: count (0 for NULL), one (GALE_E_RANGE past the end), free (NULL: nothing). */
GALE_LASTZ_PLUGIN_FN size_t gale_lastz_hits_count(const gale_lastz_hits *h);
GALE_LASTZ_PLUGIN_FN gale_status gale_lastz_hits_get(const gale_lastz_hits *h, size_t i, gale_lastz_hit *out);
/* Extensions cut where LASTZ's traceback memory ran out (lastz: "truncating alignment"). */
GALE_LASTZ_PLUGIN_FN uint64_t gale_lastz_hits_truncations(const gale_lastz_hits *h);
GALE_LASTZ_PLUGIN_FN void gale_lastz_hits_free(gale_lastz_hits *h);
/* Message of the last failing call on the calling thread ("" if none; at most 1023
 * characters). Valid until the next failing call on the thread, while the module is loaded. */
GALE_LASTZ_PLUGIN_FN const char *gale_lastz_plugin_last_error(void);

/* The function table the plugin's gale_plugin_info.api points to. */
typedef struct gale_lastz_plugin_api {
    size_t size;       /* sizeof(gale_lastz_plugin_api) of the plugin */
    unsigned version;  /* GALE_LASTZ_PLUGIN_API_VERSION of the plugin */
    gale_status (*session_create)(const gale_lastz_params *params, gale_lastz_session **out);
    gale_status (*session_add_target)(gale_lastz_session *s, const char *seq, int64_t len, uint32_t *id);
    gale_status (*session_add_query)(gale_lastz_session *s, const char *seq, int64_t len, uint32_t *id);
    gale_status (*session_run)(gale_lastz_session *s, const gale_lastz_seed *seeds, size_t n, gale_lastz_hits **out);
    void (*session_destroy)(gale_lastz_session *s);
    size_t (*hits_count)(const gale_lastz_hits *h);
    gale_status (*hits_get)(const gale_lastz_hits *h, size_t i, gale_lastz_hit *out);
    uint64_t (*hits_truncations)(const gale_lastz_hits *h);
    void (*hits_free)(gale_lastz_hits *h);
    const char *(*last_error)(void);
} gale_lastz_plugin_api;

#ifdef __cplusplus
}
#endif

#endif
