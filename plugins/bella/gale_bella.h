/*
 * gale_bella.h - the "bella" plugin of gale: LOGAN's batched seed extension
 * (the call BELLA makes) computed by gale, for C callers.
 *
 * C++ callers written against LOGAN use gale_bella.hpp instead (same types and
 * call as LOGAN's extendSeedL). Plain C99; compiles as C and as C++.
 *
 * Reaching the plugin (module gale-bella.so in gale's plugin directory):
 *   - through libgale: gale_plugin_open("bella", &p), then
 *     gale_plugin_get_info(p, &info) and (const gale_bella_api *)info->api;
 *   - or without libgale at build time: dlopen the module and call
 *     gale_plugin_entry (gale_plugin.h shows how);
 *   - or by linking the module itself and calling gale_bella_extend (its
 *     exported symbol) directly.
 *
 * What gale_bella_extend computes, per alignment i < n
 * ----------------------------------------------------
 * Gapped X-drop extension of seeds[i] between target[i] (SeqAn's database,
 * horizontal, "H") and query[i] (the query, vertical, "V") with SeqAn 2.4's
 * semantics (gale's GALE_XDROP kind; gale.h states them exactly), in the given
 * direction, with X = xdrop and the linear scoring scheme scoring[i] (or
 * scoring[0] for every pair when n_scoring == 1). Letters are read as SeqAn's
 * Dna5 (case folded, other IUPAC codes read as N, N matches only N), which is
 * what BELLA computes with SeqAn; LOGAN's GPU kernel compares raw bytes.
 *
 *   res[i]   = score_left + score_right + kmer_length, as LOGAN and BELLA
 *              report it (kmer_length is added as given, whatever the seed's
 *              length). A side not extended (direction, or the seed touches
 *              that end of a sequence) scores 0.
 *   seeds[i] = begin_h/begin_v from the left extension, end_h/end_v from the
 *              right extension (unchanged on a side not extended).
 *
 * Where SeqAn finds no alive end cell on a side it returns its "undefined"
 * marker as that side's score and leaves the seed there; gale reports
 * INT32_MIN - gap for that side (gale.h). res[i] is then the sum above
 * computed in 64 bits and clamped to [INT32_MIN, INT32_MAX]: equal to what
 * BELLA computes with SeqAn (the same sum in int) wherever BELLA's int sum
 * does not overflow, and INT32_MIN (very negative, failing any score
 * threshold) where BELLA's sum would overflow. Scores are 32-bit throughout
 * (LOGAN: 16-bit).
 *
 * Where it runs: ngpus >= 1 and gale_cuda_device_count() >= 1: on
 * min(ngpus, device count) GPUs (devices 0, 1, ...) through one gale context
 * over all of them (gale_ctx_opts.n_devices), which splits each batch across
 * the GPUs by work, two batches in flight; otherwise
 * (ngpus == 0, or no usable GPU): gale's CPU backend with n_threads worker
 * threads (0: one per online core). Pairs are grouped by scoring scheme and
 * fed to gale in batches of at most GALE_BELLA_BATCH_BASES bases (target +
 * query; default 2^27; the environment variable GALE_BELLA_BATCH_BASES
 * overrides it), so any number of pairs fits in memory. (For tests,
 * GALE_BELLA_CPU_CONTEXTS=k spreads the CPU path over k contexts, each with
 * its own driver thread.) Results do not depend on where or how they
 * were computed.
 *
 * Contexts kept between calls: BELLA calls once per ~30,000 x numGPU pairs,
 * and a gale context is costly to make (a CUDA one allocates its device
 * memory pool - by default half the free device memory, at most 8 GiB - and
 * pinned host buffers; every one starts its CPU worker threads). So the plugin
 * makes a context on first use for each (number of GPUs, CPU worker threads) - on the CPU
 * path for each (GALE_BELLA_CPU_CONTEXTS slot, n_threads) - and keeps it, with
 * its memory and threads, for later calls; concurrent calls share them. A
 * caller that changes ngpus or n_threads from call to call gets one more kept
 * context per new combination. The kept contexts are destroyed when the
 * module is unloaded (gale_plugin_close of its last handle, or dlclose), and
 * at process exit; the module leaves nothing behind that keeps it loaded.
 *
 * Unlike LOGAN: every scoring scheme is honoured per pair (LOGAN uses only
 * penalties[0] and hard-codes +1/-1/-1), scores are 32-bit, seeds touching a
 * sequence end are extended on their other side (LOGAN writes no score for
 * them), any number of pairs is accepted, the direction is honoured (LOGAN
 * always extends both ways), and errors are returned, never printed or exited
 * on.
 *
 * Errors: the return value is a gale_status (gale.h); GALE_OK on success.
 * On any failure res and seeds are left untouched, and the message is given by
 * the plugin's last_error (thread-local, like gale_last_error): invalid
 * arguments (GALE_E_INVALID), direction other than 1..3 or a parameter out of
 * gale's bounds (GALE_E_RANGE), a bad sequence byte or a seed outside its
 * sequence or of unequal lengths (GALE_E_INPUT; the message names the
 * alignment index), and anything gale reports.
 *
 * Thread safety: calls from several threads at once are allowed.
 */
#ifndef GALE_BELLA_H
#define GALE_BELLA_H

#include <stddef.h>
#include <stdint.h>

#include "gale.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of gale_bella_api (grows by appending; check api->size). */
#define GALE_BELLA_API_VERSION 1

/* Default batch budget in bases (target + query) per gale batch. */
#define GALE_BELLA_BATCH_BASES (1 << 27)

/* A seed: [begin_h, end_h) on the target, [begin_v, end_v) on the query, of
 * equal lengths; updated in place. LOGAN's SeedL positions. */
typedef struct gale_bella_seed {
    int32_t begin_h, begin_v, end_h, end_v;
} gale_bella_seed;

/* A linear scoring scheme (gale's bounds: |match|, |mismatch| <= 2^20,
 * -2^20 <= gap <= -1). */
typedef struct gale_bella_scoring {
    int32_t match, mismatch, gap;
} gale_bella_scoring;

/* The direction values are gale's (and LOGAN's ExtensionDirectionL):
 * GALE_DIR_LEFT 1, GALE_DIR_RIGHT 2, GALE_DIR_BOTH 3. */

/*
 * seeds       n seeds, updated in place
 * direction   GALE_DIR_LEFT, GALE_DIR_RIGHT or GALE_DIR_BOTH
 * target      n sequences (H); target_len: their lengths, or NULL for
 *             NUL-terminated strings
 * query       n sequences (V); query_len: as target_len
 * scoring     n_scoring schemes: 1 (used for every pair) or >= n (per pair)
 * xdrop       X, in [0, 2^29]
 * kmer_length added to every res[i]
 * res         n scores (out)
 * ngpus       0: CPU; >= 1: that many GPUs at most (CPU when none is usable)
 * n_threads   CPU worker threads (0: one per online core)
 */
typedef gale_status (*gale_bella_extend_fn)(gale_bella_seed *seeds, int direction, const char *const *target,
                                            const int64_t *target_len, const char *const *query,
                                            const int64_t *query_len, const gale_bella_scoring *scoring,
                                            size_t n_scoring, int32_t xdrop, int32_t kmer_length, int32_t *res,
                                            size_t n, int ngpus, int n_threads);

/* The function table the plugin's gale_plugin_info.api points to. */
typedef struct gale_bella_api {
    size_t size;                    /* sizeof(gale_bella_api) of the plugin */
    unsigned version;               /* GALE_BELLA_API_VERSION of the plugin */
    gale_bella_extend_fn extend;    /* gale_bella_extend */
    const char *(*last_error)(void); /* gale_bella_last_error */
} gale_bella_api;

/* The same two functions, exported by gale-bella.so for callers that link the
 * module directly. (GALE_BELLA_BUILDING is defined only when building it.) */
#if defined(GALE_BELLA_BUILDING) && defined(__GNUC__)
#define GALE_BELLA_FN __attribute__((visibility("default")))
#else
#define GALE_BELLA_FN
#endif
GALE_BELLA_FN gale_status gale_bella_extend(gale_bella_seed *seeds, int direction, const char *const *target,
                                            const int64_t *target_len, const char *const *query,
                                            const int64_t *query_len, const gale_bella_scoring *scoring,
                                            size_t n_scoring, int32_t xdrop, int32_t kmer_length, int32_t *res,
                                            size_t n, int ngpus, int n_threads);
/* Message of the last failing gale_bella_extend on the calling thread ("" if
 * none; at most 1023 characters, a longer one is cut and ends in " [...]").
 * Valid until the next failing call on the same thread, while the module is
 * loaded. */
GALE_BELLA_FN const char *gale_bella_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* GALE_BELLA_H */
