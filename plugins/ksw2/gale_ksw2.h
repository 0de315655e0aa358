/*
 * gale_ksw2.h - the "ksw2" plugin of gale: minimap2 2.24's ksw2 Z-drop extension
 * (ksw_extz2_sse, ksw_extd2_sse, ksw_exts2_sse) computed by gale, bit for bit, and a
 * batch entry that runs many such calls at once (on the GPU when there is one).
 *
 * A drop-in for ksw2's three extension files. A program built against ksw2 (minimap2
 * and tools built like it) links gale-ksw2.so in place of ksw2_extz2_sse.c,
 * ksw2_extd2_sse.c and ksw2_exts2_sse.c (and ksw2_dispatch.c) and changes nothing
 * else: ksw_extz_t below has ksw2.h's exact layout, the three functions ksw2.h's
 * exact signatures, and every field they write (max, zdropped, max_q, max_t, mqe,
 * mqe_t, mte, mte_q, score, reach_end, n_cigar, m_cigar, cigar) is what minimap2
 * 2.24's ksw2 writes (Debian's libminimap2-dev, SSE4.1 builds; doc/zdrop.md lists
 * the quirks reproduced). tests/plugins/ksw2_minimap2.sh builds minimap2 2.24 that
 * way and compares its output with Debian's minimap2 byte for byte.
 *
 * The CIGAR is grown as ksw2 grows it: ez->cigar and ez->m_cigar come in as the
 * caller left them (minimap2 keeps one buffer per read and frees it with kfree), and
 * while ez->m_cigar is smaller than the CIGAR the plugin doubles it (4 when 0) and
 * calls krealloc(km, ez->cigar, ez->m_cigar * 4) - the same calls, in the same
 * order, as ksw2.h's ksw_push_cigar makes. krealloc is the CALLER's: the plugin
 * refers to the symbol `krealloc` (kalloc.h's, which ksw2 calls when built with
 * HAVE_KALLOC, as minimap2 builds it) and binds to the one the program defines; a
 * program that defines none gets realloc(ptr, size), which is what ksw2 built
 * without HAVE_KALLOC calls. (A program that links the plugin at build time
 * exports its krealloc automatically; one that dlopens the plugin must export it,
 * e.g. -Wl,--export-dynamic-symbol=krealloc.) Nothing else is allocated from km.
 *
 * Including this header: it declares what ksw2.h declares publicly (the KSW_*
 * macros, ksw_extz_t, the three functions). Where ksw2.h was included first, its
 * declarations are used and this header only adds gale's; include ksw2.h after
 * this header and the two definitions of ksw_extz_t collide, so include it first
 * (or not at all).
 *
 * Where it runs: each ksw_ext*2_sse call is one task on a CPU context the plugin
 * keeps (made on first use, one worker per online core, shared by all threads;
 * calls from several threads at once are allowed): a single call gains nothing
 * from a GPU. gale_ksw2_extend runs an array of calls through gale batches, on
 * the GPU when one is present (GALE_BACKEND_AUTO), with results identical
 * wherever they were computed.
 *
 * Limits and errors. gale takes m = 5 (A C G T and N, minimap2's alphabet): codes
 * 0..3 are the bases, 4 and above N (ksw2's results for codes >= m are undefined
 * anyway). ksw2's functions return nothing, so a call that gale cannot compute (m
 * other than 5, an argument outside gale's bounds - doc/zdrop.md and gale/zdrop.h's
 * "500s" - no memory) leaves ez as ksw2's ksw_reset_extz leaves it, with zdropped
 * set to 1 and n_cigar 0 (cigar and m_cigar untouched), and records the failure:
 * gale_ksw2_last_status() and gale_ksw2_last_error() on the calling thread.
 * qlen <= 0, tlen <= 0 or m <= 0 is no error: ksw2 resets ez and returns, and so
 * does the plugin. exts2's junction array (since 0.7) is passed through: any junc
 * of tlen bytes gives ksw2's result (the bits ksw2 does not read are cleared in
 * the plugin's copy, as gale takes only ksw2's four).
 * No exception crosses these functions; the plugin never prints or exits.
 *
 * Plain C99; compiles as C and as C++.
 */
#ifndef GALE_KSW2_H
#define GALE_KSW2_H

#include <stddef.h>
#include <stdint.h>

#include "gale.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GALE_KSW2_BUILDING) && defined(__GNUC__)
#define GALE_KSW2_FN __attribute__((visibility("default")))
#else
#define GALE_KSW2_FN
#endif

#ifndef KSW2_H_ /* ksw2.h not included: its public part, identical */

#define KSW_NEG_INF -0x40000000

#define KSW_EZ_SCORE_ONLY  0x01 /* don't record alignment path/cigar */
#define KSW_EZ_RIGHT       0x02 /* right-align gaps */
#define KSW_EZ_GENERIC_SC  0x04 /* without this flag: match/mismatch only; last symbol is a wildcard */
#define KSW_EZ_APPROX_MAX  0x08 /* approximate max; this is faster with sse */
#define KSW_EZ_APPROX_DROP 0x10 /* approximate Z-drop; faster with sse */
#define KSW_EZ_EXTZ_ONLY   0x40 /* only perform extension */
#define KSW_EZ_REV_CIGAR   0x80 /* reverse CIGAR in the output */
#define KSW_EZ_SPLICE_FOR  0x100
#define KSW_EZ_SPLICE_REV  0x200
#define KSW_EZ_SPLICE_FLANK 0x400

#define KSW_CIGAR_MATCH  0
#define KSW_CIGAR_INS    1
#define KSW_CIGAR_DEL    2
#define KSW_CIGAR_N_SKIP 3

/* ksw2.h's ksw_extz_t, member for member. */
typedef struct {
    uint32_t max:31, zdropped:1;
    int max_q, max_t;      /* max extension coordinate */
    int mqe, mqe_t;        /* max score when reaching the end of query */
    int mte, mte_q;        /* max score when reaching the end of target */
    int score;             /* max score reaching both ends; may be KSW_NEG_INF */
    int m_cigar, n_cigar;
    int reach_end;
    uint32_t *cigar;
} ksw_extz_t;

#endif /* KSW2_H_ */

/* ksw2.h's three extension functions (minimap2 2.24), computed by gale. */
GALE_KSW2_FN void ksw_extz2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                                const int8_t *mat, int8_t q, int8_t e, int w, int zdrop, int end_bonus, int flag,
                                ksw_extz_t *ez);
GALE_KSW2_FN void ksw_extd2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                                const int8_t *mat, int8_t gapo, int8_t gape, int8_t gapo2, int8_t gape2, int w,
                                int zdrop, int end_bonus, int flag, ksw_extz_t *ez);
GALE_KSW2_FN void ksw_exts2_sse(void *km, int qlen, const uint8_t *query, int tlen, const uint8_t *target, int8_t m,
                                const int8_t *mat, int8_t gapo, int8_t gape, int8_t gapo2, int8_t noncan, int zdrop,
                                int8_t junc_bonus, int flag, const uint8_t *junc, ksw_extz_t *ez);

/* ---- gale's own part ------------------------------------------------------------ */

/* Version of gale_ksw2_api and of gale_ksw2_job's layout (grows by appending). */
#define GALE_KSW2_API_VERSION 1

/* gale_ksw2_job.fn: which ksw2 function the job is a call of. */
#define GALE_KSW2_EXTZ2 0 /* ksw_extz2_sse */
#define GALE_KSW2_EXTD2 1 /* ksw_extd2_sse */
#define GALE_KSW2_EXTS2 2 /* ksw_exts2_sse */

/* One call of a ksw2 function: its arguments under ksw2.h's names. Members a
 * function does not take are ignored (extz2: gapo2, gape2, noncan, junc_bonus, junc;
 * extd2: noncan, junc_bonus, junc; exts2: gape2, w, end_bonus). */
typedef struct gale_ksw2_job {
    int fn;                 /* GALE_KSW2_EXTZ2, _EXTD2 or _EXTS2 */
    int qlen;
    const uint8_t *query;   /* codes 0..m-1 */
    int tlen;
    const uint8_t *target;
    int8_t m;               /* 5 */
    int8_t gapo, gape;      /* extz2's q, e */
    int8_t gapo2, gape2;
    int8_t noncan, junc_bonus;
    int8_t reserved0;
    const int8_t *mat;      /* m * m */
    int w, zdrop, end_bonus, flag;
    const uint8_t *junc;    /* exts2: NULL or tlen bytes (see "Limits and errors" above) */
    void *km;               /* the km the CIGAR is grown with (krealloc(km, ...)) */
    ksw_extz_t *ez;         /* in: cigar, m_cigar as the function takes them; out: as it leaves them */
} gale_ksw2_job;

/*
 * Runs n jobs, each as the ksw2 function it names would, and writes each job's *ez
 * as that call would (the CIGAR grown with krealloc(job.km, ...), as above). Jobs
 * with the same arguments but the sequences go into one gale batch; the batches of
 * one call are all in flight together, their results in job order whatever ran
 * them. Two jobs must not share an ez.
 *
 * backend   GALE_BACKEND_AUTO (a GPU when gale was built with CUDA and one is
 *           usable, else the CPU), GALE_BACKEND_CPU or GALE_BACKEND_CUDA
 * n_threads CPU worker threads (0: one per online core)
 *
 * The context for each (backend, n_threads) is made on first use and kept until
 * the module is unloaded (or the process exits): a CUDA context is costly to make.
 * Returns GALE_OK, or a gale_status with the message in gale_ksw2_last_error();
 * on failure no ez is written (jobs with qlen, tlen or m <= 0 included) and no
 * krealloc was made. A job that would fail a single call (m other than 5,
 * arguments outside gale's bounds) fails the whole call, and the message
 * names its index. Calls from several threads at once are allowed.
 */
GALE_KSW2_FN gale_status gale_ksw2_extend(const gale_ksw2_job *jobs, size_t n, int backend, int n_threads);

/* Status of the last ksw_ext*2_sse or gale_ksw2_extend call on the calling thread
 * (GALE_OK when it succeeded). */
GALE_KSW2_FN gale_status gale_ksw2_last_status(void);

/* Message of the last failing call on the calling thread ("" if none; at most 1023
 * characters, a longer one is cut and ends in " [...]"). Valid until the next
 * failing call on the same thread, while the module is loaded. */
GALE_KSW2_FN const char *gale_ksw2_last_error(void);

typedef void (*gale_ksw2_extz2_fn)(void *, int, const uint8_t *, int, const uint8_t *, int8_t, const int8_t *, int8_t,
                                   int8_t, int, int, int, int, ksw_extz_t *);
typedef void (*gale_ksw2_extd2_fn)(void *, int, const uint8_t *, int, const uint8_t *, int8_t, const int8_t *, int8_t,
                                   int8_t, int8_t, int8_t, int, int, int, int, ksw_extz_t *);
typedef void (*gale_ksw2_exts2_fn)(void *, int, const uint8_t *, int, const uint8_t *, int8_t, const int8_t *, int8_t,
                                   int8_t, int8_t, int8_t, int, int8_t, int, const uint8_t *, ksw_extz_t *);

/* The function table the plugin's gale_plugin_info.api points to (gale_plugin_open("ksw2")). */
typedef struct gale_ksw2_api {
    size_t size;                                  /* sizeof(gale_ksw2_api) of the plugin */
    unsigned version;                             /* GALE_KSW2_API_VERSION of the plugin */
    gale_ksw2_extz2_fn extz2;                     /* ksw_extz2_sse */
    gale_ksw2_extd2_fn extd2;                     /* ksw_extd2_sse */
    gale_ksw2_exts2_fn exts2;                     /* ksw_exts2_sse */
    gale_status (*extend)(const gale_ksw2_job *, size_t, int, int); /* gale_ksw2_extend */
    gale_status (*last_status)(void);             /* gale_ksw2_last_status */
    const char *(*last_error)(void);              /* gale_ksw2_last_error */
} gale_ksw2_api;

#ifdef __cplusplus
}
#endif

#endif /* GALE_KSW2_H */
