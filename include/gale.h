/*
 * gale.h - the public C API of gale, the GPU alignment engine.
 *
 * Plain C99; compiles as C and as C++. Every handle is opaque; every struct a
 * caller passes begins with a `size` field (set it to sizeof the struct, or use
 * the matching *_init function) so that the struct can grow without breaking
 * the ABI.
 *
 * Struct sizes (the one rule for every struct with a `size` field). Structs grow
 * only at their end; a field's comment says since which release it is there.
 *   - Structs the caller fills and gale reads (gale_ctx_opts, gale_task,
 *     gale_group, gale_graph): `size` is the size of some release's struct. An
 *     older release's size is accepted and the fields it lacks take their defaults;
 *     a smaller size, or one between two releases', is refused (GALE_E_INVALID).
 *     A size larger than this library's comes from a caller built against a newer
 *     gale.h: it is accepted only if every byte past this library's struct is 0
 *     (the newer fields left at their defaults). Otherwise the call fails with
 *     GALE_E_INVALID and gale_last_error() names the struct, its size, this
 *     library's size and the first nonzero byte: an option this library does not
 *     know is never silently ignored.
 *   - Structs gale fills (gale_result, gale_stats, gale_bounds): the caller sets
 *     `size` to the space it gives (a size smaller than the first release's struct
 *     is refused with GALE_E_INVALID). gale writes the fields it knows, sets every
 *     byte past them up to `size` to 0 (a newer caller's fields read 0; gale_version()
 *     tells which release the loaded library is), and leaves `size` as the caller
 *     set it, so that one struct, or one array for gale_result_get_range, can be
 *     passed again as it is. Nothing is written when the call fails (one exception:
 *     the results of a cancelled batch, gale_result_get).
 *   - A size above GALE_STRUCT_SIZE_MAX is refused (GALE_E_INVALID) before any byte
 *     past this library's struct is read or written: no struct will grow that
 *     large, so such a size is a `size` never set.
 * gale_plugin_info (gale_plugin.h) is versioned by its `abi` field instead.
 *
 * Life of a batch:
 *   gale_ctx_create -> gale_batch_create(kind) -> gale_batch_set (params)
 *   -> gale_batch_add (tasks; inputs are copied) -> gale_submit (returns at once)
 *   -> gale_poll / gale_wait -> gale_result (in submission order)
 *   -> gale_batch_destroy -> gale_ctx_destroy
 *
 * Errors: every function that can fail returns a gale_status. GALE_OK is 0;
 * other codes are pinned and never reused. gale_last_error() gives a message
 * for the last failing call made by the calling thread. The library never
 * prints, aborts or exits, and no C++ exception crosses this boundary.
 *
 * Thread safety:
 *   - gale_ctx_create/destroy and gale_batch_create may be called from any
 *     thread; one context may be shared by any number of threads.
 *   - Different batches (of one context or of several) may be used from
 *     different threads at the same time without locking.
 *   - One batch may be polled, waited on, cancelled and read (gale_poll,
 *     gale_wait, gale_cancel, gale_result, gale_batch_stats, gale_batch_get)
 *     from several threads at once. Calls that change a batch (gale_batch_set,
 *     gale_batch_add, gale_submit, gale_batch_reset) are serialised internally,
 *     but their order between threads is the caller's business.
 *   - A handle must not be destroyed while another thread is inside a call on
 *     it, and a batch must not be reset while another thread reads its results
 *     (results and CIGAR pointers belong to the batch until reset or destroy). A destroyed handle is detected (GALE_E_HANDLE) when it is used later,
 *     as long as its memory has not been handed out to a new handle.
 *   - gale_ctx_destroy cancels and waits for the context's batches in flight
 *     and destroys every batch that still belongs to it.
 */
#ifndef GALE_H
#define GALE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GALE_BUILDING)
#define GALE_API __attribute__((visibility("default")))
#else
#define GALE_API
#endif

/* The largest `size` gale accepts in any struct (see "Struct sizes" above; since 0.3). */
#define GALE_STRUCT_SIZE_MAX 4096

/* ------------------------------------------------------------------ */
/* Versions and features                                               */
/* ------------------------------------------------------------------ */

/* GALE_VERSION_MAJOR, _MINOR, _PATCH, GALE_VERSION_NUMBER (major * 10000 + minor * 100
 * + patch) and GALE_VERSION_STRING, generated from the build's project version. */
#include "gale_version.h"

/* Run-time version, as GALE_VERSION_NUMBER of the library actually loaded. */
GALE_API unsigned gale_version(void);
/* Run-time version string, e.g. "0.5.0" (GALE_VERSION_STRING of the library loaded). */
GALE_API const char *gale_version_string(void);

/* Feature bits returned by gale_features(). */
#define GALE_FEATURE_CPU  (1u << 0) /* CPU backend (always) */
#define GALE_FEATURE_CUDA (1u << 1) /* built with the CUDA backend */
#define GALE_FEATURE_DPX  (1u << 2) /* CUDA kernels use Hopper DPX instructions */
GALE_API unsigned gale_features(void);

/* Number of usable CUDA devices (0 when built without CUDA or when no driver
 * or device is present). Never fails. */
GALE_API int gale_cuda_device_count(void);

/* ------------------------------------------------------------------ */
/* Status codes (pinned; never reused)                                 */
/* ------------------------------------------------------------------ */

typedef int gale_status;
#define GALE_OK             0
#define GALE_E_AGAIN        1  /* not finished yet (poll timed out) */
#define GALE_E_INVALID      2  /* invalid argument (NULL pointer, bad value) */
#define GALE_E_HANDLE       3  /* NULL, destroyed or foreign handle */
#define GALE_E_RANGE        4  /* parameter id unknown or value out of bounds; index out of range */
#define GALE_E_STATE        5  /* call not allowed in the batch's state (e.g. submit twice) */
#define GALE_E_INPUT        6  /* bad input sequence (invalid byte, seed outside the sequence) */
#define GALE_E_NOMEM        7  /* host or device memory exhausted */
#define GALE_E_UNSUPPORTED  8  /* backend or kind not available in this build / on this machine */
#define GALE_E_DEVICE       9  /* CUDA runtime or kernel failure */
#define GALE_E_CANCELED     10 /* the batch was cancelled */
#define GALE_E_LIMIT        11 /* task exceeds a limit of the library (e.g. score overflow) */
#define GALE_E_INTERNAL     12 /* bug in gale: please report */
#define GALE_E_NOT_FOUND    13 /* plugin not found (since 0.2) */
#define GALE_E_ABI          14 /* plugin built for a newer plugin ABI than this library's (since 0.2) */

/* A static English description of a status code ("unknown status" if unknown). */
GALE_API const char *gale_status_string(gale_status s);

/* Message describing the last call made by the calling thread that returned a
 * status other than GALE_OK (thread-local, like errno): every such call sets it,
 * GALE_E_AGAIN from gale_poll included ("batch is still running after N ms"), so it
 * never shows an earlier call's failure. Calls that return GALE_OK leave it as it
 * is. Never NULL; "" if no call has returned anything but GALE_OK. The text stays
 * valid until the next such call on the same thread. */
GALE_API const char *gale_last_error(void);

/* ------------------------------------------------------------------ */
/* Context                                                              */
/* ------------------------------------------------------------------ */

typedef struct gale_ctx gale_ctx;

/* Backends */
#define GALE_BACKEND_AUTO 0 /* CUDA when built in and a device is present, else CPU */
#define GALE_BACKEND_CPU  1
#define GALE_BACKEND_CUDA 2

#define GALE_DEVICES_ALL (-1) /* gale_ctx_opts.n_devices: every CUDA device present (since 0.3) */
#define GALE_THREADS_MAX 4096 /* gale_ctx_opts.threads: the most a context takes (since 0.4) */

typedef struct gale_ctx_opts {
    size_t size;            /* sizeof(gale_ctx_opts) */
    int backend;            /* GALE_BACKEND_*; default AUTO */
    int device;             /* CUDA device index; default 0 (used when n_devices is 0) */
    int threads;            /* CPU worker threads, 0 .. GALE_THREADS_MAX; 0 = one per online core (default) */
    int reserved0;
    uint64_t device_memory; /* device memory budget in bytes of each device entry; 0 = default: half the
                               device's free memory, at most 8 GiB, shared equally by the entries that
                               list the same device (halved, down to an eighth, if it cannot be allocated
                               after all; a budget set here is allocated whole or GALE_E_NOMEM);
                               GALE_DEVICE_MEMORY_HALF_FREE: as the default without the 8 GiB cap */
    /* Since 0.3 (a caller built against 0.2 passes the smaller size and gets the
     * defaults): several GPUs in one context. 0 (default): `device` alone;
     * GALE_DEVICES_ALL: every device present; n > 0: the n indices in `devices`.
     * An index may be listed more than once: each entry gets its own streams, thread
     * and share of the device's memory. A batch is split across the entries by
     * estimated DP cells; results still come back in submission order, identical to
     * one device. Ignored by the CPU backend. */
    int n_devices;
    int reserved1;
    const int *devices;
} gale_ctx_opts;

/* gale_ctx_opts.device_memory: half the device's free memory, however large (since 0.7).
 * Kernels whose tasks each need much work memory run more of them at once with it: the
 * Z-drop kinds with the CIGAR keep a backtrack byte per cell of the band, megabytes per
 * long read (`gale zdrop` takes it by default; bench/RESULTS.md). */
#define GALE_DEVICE_MEMORY_HALF_FREE UINT64_MAX

/* Fills *opts with the defaults (and its size). */
GALE_API void gale_ctx_opts_init(gale_ctx_opts *opts);

/* Creates a context. opts may be NULL (defaults). With GALE_BACKEND_CUDA and
 * no usable device, fails with GALE_E_UNSUPPORTED; with AUTO it falls back to
 * the CPU backend. Memory: a CUDA context takes its device memory budget here and
 * pinned host memory as its batches need it (README, "Backends"); every context
 * keeps up to 256 MiB of its finished batches' host memory (their copies of the
 * inputs, their CIGARs) for its next batches, released by gale_ctx_destroy. */
GALE_API gale_status gale_ctx_create(gale_ctx **out, const gale_ctx_opts *opts);

/* Cancels and waits for work in flight, destroys the context's batches, and
 * frees the context. NULL is accepted (no-op, GALE_OK). Running tasks are stopped
 * where they are (gale_cancel), so it returns within about 100 ms whatever their size. */
GALE_API gale_status gale_ctx_destroy(gale_ctx *ctx);

/* The backend the context actually uses (GALE_BACKEND_CPU or _CUDA). */
GALE_API gale_status gale_ctx_backend(const gale_ctx *ctx, int *backend);

/* Number of CPU worker threads of the context. */
GALE_API gale_status gale_ctx_threads(const gale_ctx *ctx, int *threads);

/* The CUDA device entries of the context (since 0.3): copies up to cap indices into
 * devices (may be NULL when cap is 0) and their number into *n (0 on the CPU backend). */
GALE_API gale_status gale_ctx_devices(const gale_ctx *ctx, int *devices, size_t cap, size_t *n);

/* ------------------------------------------------------------------ */
/* Batches                                                              */
/* ------------------------------------------------------------------ */

typedef struct gale_batch gale_batch;

/* Task kinds (pinned). */
#define GALE_XDROP 1 /* gapped X-drop seed extension, SeqAn 2.4 semantics */
#define GALE_WFA   2 /* wavefront alignment, gap-affine or two-piece gap-affine (WFA2-lib scores) */
#define GALE_EDIT  3 /* wavefront alignment, edit (Levenshtein) distance */
#define GALE_INDEL 4 /* wavefront alignment, indel (LCS) distance: gaps only, no mismatch (since 0.6) */
#define GALE_WFA_LINEAR 5 /* wavefront alignment, gap-linear (WFA2-lib scores; since 0.6) */
/* Z-drop extension, minimap2 2.24's ksw2 bit for bit (since 0.6; see "Z-drop extension" below) */
#define GALE_ZDROP_EXTZ2 6 /* ksw_extz2_sse: affine gaps */
#define GALE_ZDROP_EXTD2 7 /* ksw_extd2_sse: two-piece affine gaps (minimap2's default for long reads) */
#define GALE_ZDROP_EXTS2 8 /* ksw_exts2_sse: spliced alignment */
#define GALE_POA   9 /* partial-order alignment of a group of sequences, SPOA 4.0.8's results (since 0.6;
                        see "Partial-order alignment" below) */

GALE_API gale_status gale_batch_create(gale_ctx *ctx, int kind, gale_batch **out);

/* Cancels and waits for the batch if in flight (as promptly as gale_cancel stops it),
 * then frees it. NULL is a no-op. */
GALE_API gale_status gale_batch_destroy(gale_batch *batch);

/* Drops tasks and results so the batch (with its parameters) can be refilled.
 * Not allowed while the batch is in flight (GALE_E_STATE). */
GALE_API gale_status gale_batch_reset(gale_batch *batch);

/* Parameters: pinned ids, grouped by hundreds. Sticky until changed; may be
 * set only before submit (GALE_E_STATE otherwise). Out-of-range values and ids
 * that do not apply to the batch's kind give GALE_E_RANGE. */
/* 100s: scoring */
#define GALE_P_MATCH     100 /* match score;    X-drop default  1; [-2^20, 2^20]; Z-drop: see below */
#define GALE_P_MISMATCH  101 /* mismatch score; X-drop default -1; [-2^20, 2^20] */
#define GALE_P_GAP       102 /* linear gap score (per base); default -1; [-2^20, -1] */
/* 110s: penalties of GALE_WFA (positive numbers, as in WFA2-lib; match costs 0).
 * A gap of length L costs open + L * extend. Two-piece gap-affine: a gap costs
 * the smaller of the two pieces; it is on when GALE_P_GAP_EXTEND2 > 0.
 * The Z-drop kinds read the same ids as ksw2's arguments (since 0.6; bounds and
 * defaults under "Z-drop extension" below). */
#define GALE_P_PENALTY_MISMATCH   110 /* x; default 4; [1, 4096] */
#define GALE_P_PENALTY_GAP_OPEN   111 /* o; default 6; [0, 4096] */
#define GALE_P_PENALTY_GAP_EXTEND 112 /* e; default 2; [1, 4096] */
#define GALE_P_PENALTY_GAP_OPEN2  113 /* o2; default 0; [0, 4096] */
#define GALE_P_PENALTY_GAP_EXTEND2 114 /* e2; default 0 (one piece); [0, 4096] */
/* Match score of GALE_WFA and GALE_WFA_LINEAR (since 0.6), as WFA2-lib's `match`:
 * 0 (default) or negative, -m being the bonus of a match; [-4096, 0]. With m < 0
 * WFA2-lib aligns with Eizenga's penalties 2x - 2m, 2o, 2e - m (2o2, 2e2 - m;
 * gap-linear: 2i - m; at most 16384: the memory below grows with them), and the
 * score is WFA2-lib's: (-m (len(pattern) + len(text)) - P) / 2, rounded towards
 * zero, P the least transformed penalty (see "Wavefront alignment" below). */
#define GALE_P_PENALTY_MATCH      115
/* GALE_WFA_LINEAR's gap penalty per base (WFA2-lib's `indel`; since 0.6); default 2;
 * [1, 4096]. Its mismatch is GALE_P_PENALTY_MISMATCH. */
#define GALE_P_PENALTY_INDEL      116
#define GALE_P_PENALTY_N          117 /* Z-drop kinds (since 0.6): minimap2's sc_ambi, see below */
/* 200s: extension */
#define GALE_P_XDROP     200 /* X of the X-drop; default 100; [0, 2^29] */
#define GALE_P_DIRECTION 201 /* GALE_DIR_*; default GALE_DIR_BOTH */
/* 300s: alphabet */
#define GALE_P_N_POLICY  300 /* GALE_N_*; default GALE_N_DNA5; see GALE_N_DNA5 below */

/* 400s: wavefront alignment (GALE_WFA, GALE_EDIT, GALE_INDEL, GALE_WFA_LINEAR) */
#define GALE_P_SCOPE   400 /* GALE_SCOPE_*; default GALE_SCOPE_ALIGNMENT */
/* Ends-free span: leading/trailing bases of the pattern (v) or text (h) that may
 * stay unaligned at no cost. All 0 (default) = end-to-end (global). Each is
 * clamped per task to the sequence's length. [0, 2^31-1] */
#define GALE_P_PATTERN_BEGIN_FREE 401
#define GALE_P_PATTERN_END_FREE   402
#define GALE_P_TEXT_BEGIN_FREE    403
#define GALE_P_TEXT_END_FREE      404
/* Memory limit of the backtrace of one alignment, in MiB. Default 256;
 * [1, 2^20]. With GALE_SCOPE_ALIGNMENT a full-memory alignment keeps one byte
 * of backtrace code per wavefront cell (the result's cells); one whose codes
 * would exceed the limit is recomputed by the CPU in low-memory (BiWFA) mode
 * and flagged GALE_RF_LOWMEM (same score; the CIGAR may differ in ties). The
 * codes never exceed the limit. The limit covers the codes only; the rest of
 * an alignment's memory, for lengths m and n and penalty s, with
 * R = max(x, o+e, o2+e2) + 1 and C = 3 (edit: R = 2, C = 1;
 * two-piece: C = 5):
 *   wavefronts: at most R*C + 2 arrays of 4-byte offsets, each at most
 *     m + n + 18 long (about 1.5 times the widest diagonal range, at most
 *     2 s / min(e, e2) + 1 plus the begin-free lengths, when that is less);
 *   low-memory mode: instead of the codes, 2 ((R + max(o, o2) + 2) C + 1) + 1
 *     such arrays, m + n bytes, and at most min(limit, 8 MiB) of codes; more
 *     only with extreme penalties: a base case whose score is at most about 2 M,
 *     M = R - 1 + max(o, o2), runs in full memory whatever its codes, at most
 *     (2M + 1) (4M / min(e, e2) + 3) bytes (under 1 KB at the default penalties,
 *     0.5 GB at x = o = 4096, e = 1);
 *   GALE_SCOPE_SCORE: the wavefronts only (the limit does not apply);
 *   and 16 bytes per score, the sequences (m + n + 32 bytes), 8 bytes per
 *   backtrace operation and the CIGAR (4 bytes per op).
 * A CPU worker keeps these buffers for its next alignment, except codes or
 * wavefronts of more than 64 MiB, which it frees after the alignment. The GPU
 * sizes each alignment's memory from its lengths and GALE_P_EXPECTED_ERROR and
 * rescues on the CPU what outgrows it.
 * Example: a 1 Mbp pair at the default penalties and limit: codes <= 256 MiB,
 * wavefronts <= 232 MB (low-memory mode: <= 840 MB), bounds reached only when
 * the wavefronts span all 2,000,001 diagonals. At 0.4% divergence (s = 28,170):
 * 201 MB in full memory, 12 MB in low-memory mode, 6.5 MB for the score only.
 * This comment is the one statement of the WFA memory model; README.md and
 * lib/wfa.h refer to it. */
#define GALE_P_MEMORY_LIMIT 405
/* Expected divergence in per mille (default 100 = 10%; [1, 1000]). Sizes the
 * GPU's per-alignment memory; alignments that exceed it are rescued on the CPU.
 * Never changes a result. */
#define GALE_P_EXPECTED_ERROR 406
/* GALE_P_GPU_BACKTRACE (0.2) chose the GPU's backtrace layout. Deprecated since 0.3
 * and without effect: GALE_GPU_BT_CODES and GALE_GPU_BT_PIGGYBACK are still
 * accepted (other values give GALE_E_RANGE) and read back, and every backend keeps
 * one code byte per wavefront cell. It never changed a result. WFA-GPU's piggybacked
 * layout measured 2.9-11x slower than the codes on an H100; its code and figures are
 * in bench/experiments/ and bench/RESULTS.md. */
#define GALE_P_GPU_BACKTRACE 407 /* deprecated since 0.3: see above */
/* WFA2-lib 2.3.3's heuristics (since 0.7), its wf_heuristic_strategy and parameters, for
 * GALE_WFA, GALE_EDIT, GALE_INDEL and GALE_WFA_LINEAR. GALE_P_WFA_HEURISTIC is a set of
 * GALE_WFA_H_* bits, WFA2-lib's own values, combined as WFA2-lib combines them: at most
 * one of WFADAPTIVE / WFMASH (WFADAPTIVE wins), one of XDROP / ZDROP (XDROP wins), one of
 * BANDED_STATIC / BANDED_ADAPTIVE (STATIC wins), applied in that order. The default is
 * GALE_WFA_H_NONE: gale stays exact unless asked. WFA2-lib's own default
 * (wavefront_aligner_attr_default) is GALE_WFA_H_WFADAPTIVE with 10, 50, 1: to get the
 * results of a WFA2-lib aligner built with its defaults, set GALE_P_WFA_HEURISTIC to
 * GALE_WFA_H_WFADAPTIVE. XDROP and ZDROP are refused on GALE_EDIT and GALE_INDEL (as
 * WFA2-lib refuses them: their upper bound is 0x47 there); any bit not below gives
 * GALE_E_RANGE.
 * Semantics, exactly WFA2-lib 2.3.3's (wavefront/wavefront_heuristic.c): after score s is
 * extended and has not reached the end, M's diagonal range at s (trimmed to its first and
 * last non-null cells) is cut; the gap components at s are cut to the same range. All
 * strategies but banded-static run only every steps_between_cutoffs scores (one counter,
 * counted on scores where M is not empty). With WF-adaptive, M is cut when it is at least
 * min_wavefront_length wide: from each end, diagonals whose distance to the end
 * (max of the pattern and text left; wfmash: each scaled by the mean length over its own
 * length, as WFA2-lib's floats) exceeds the least distance by more than
 * max_distance_threshold, keeping the diagonal n - m. X-drop and Z-drop compare the
 * Smith-Waterman score of a cell ((v + h) - s with match 0; (-m (v + h) - s) / 2 with a
 * match score m < 0) with the best seen at earlier cut-offs: X-drop cuts, from each end,
 * cells more than xdrop below it (WFA2-lib's strict "< xdrop" keeps), Z-drop drops the
 * whole wavefront when the best of this score lies more than zdrop + e * |gap| below
 * it (e: the gap extension, 1 for gap-linear). Banded-static keeps [band_min_k,
 * band_max_k]; banded-adaptive keeps band_max_k - band_min_k + 1 diagonals placed by
 * WFA2-lib's four samples. In heuristic mode the cells also follow WFA2-lib's kernel to
 * the letter (an M cell whose best candidate runs past a sequence is dropped), so that
 * the cut-offs see WFA2-lib's ranges. An alignment whose every path was cut ends without
 * a result, flagged GALE_RF_UNFEASIBLE (WFA2-lib's WF_STATUS_UNFEASIBLE; with edit and
 * indel WFA2-lib 2.3.3 never stops there, gale does). With a heuristic the score is
 * WFA2-lib's and need not be optimal; the CIGAR is an alignment of that score, breaking
 * ties as gale does without heuristics (not always as WFA2-lib), and since a pruned path
 * may take two gaps of one kind back to back, which a CIGAR shows as one gap, it may
 * rescore above the score. WFA2-lib's exact prune of edit end-to-end wavefronts of 1,000
 * diagonals or more (wavefront_compute_edit_exact_prune), which moves the ranges its
 * heuristics then see, is reproduced under a heuristic (since 0.7). There is no low-memory mode under a heuristic (WFA2-lib's heuristics run
 * unidirectionally): GALE_P_MEMORY_LIMIT does not apply. The CUDA backend computes
 * heuristic batches on the GPU with the CPU backend's results, bit for bit; a task past
 * its score budget is rescued on the CPU (GALE_RF_RESCUED). */
#define GALE_P_WFA_HEURISTIC          408 /* GALE_WFA_H_* bits; default GALE_WFA_H_NONE; [0, 0x77] (edit, indel: 0x47) */
#define GALE_P_WFA_MIN_WAVEFRONT_LENGTH 409 /* WF-adaptive, wfmash; default 10; [0, 2^30] */
#define GALE_P_WFA_MAX_DISTANCE_THRESHOLD 410 /* WF-adaptive, wfmash; default 50; [0, 2^30] */
#define GALE_P_WFA_STEPS_BETWEEN_CUTOFFS 411 /* all but banded-static; default 1; [0, 2^30] */
#define GALE_P_WFA_XDROP              412 /* default 100; [0, 2^30] */
#define GALE_P_WFA_ZDROP              413 /* default 100; [0, 2^30] */
#define GALE_P_WFA_BAND_MIN_K         414 /* banded; default -100; [-2^30, 2^30] */
#define GALE_P_WFA_BAND_MAX_K         415 /* banded; default 100; [-2^30, 2^30] */

#define GALE_WFA_H_NONE            0x00
#define GALE_WFA_H_BANDED_STATIC   0x01
#define GALE_WFA_H_BANDED_ADAPTIVE 0x02
#define GALE_WFA_H_WFADAPTIVE      0x04
#define GALE_WFA_H_XDROP           0x10
#define GALE_WFA_H_ZDROP           0x20
#define GALE_WFA_H_WFMASH          0x40

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

#define GALE_SCOPE_SCORE     0 /* score and end coordinates only; no CIGAR */
#define GALE_SCOPE_ALIGNMENT 1 /* score, coordinates and CIGAR */

#define GALE_GPU_BT_CODES     0
#define GALE_GPU_BT_PIGGYBACK 1

#define GALE_DIR_LEFT  1
#define GALE_DIR_RIGHT 2
#define GALE_DIR_BOTH  3

/* How the alphabet is read (every kind). Every policy accepts the same bytes:
 * A C G T U N and the IUPAC ambiguity codes R Y S W K M B D H V, either case; any
 * other byte is rejected by gale_batch_add with GALE_E_INPUT.
 *   GALE_N_DNA5:     as SeqAn's Dna5 (what BELLA's SeqAn path computes): case is
 *                    folded, U is read as T, the IUPAC codes as N; N matches N and
 *                    mismatches A, C, G, T. The default: it reads soft-masked
 *                    (lower-case) and ambiguous input as the bases they stand for.
 *   GALE_N_MISMATCH: folded as GALE_N_DNA5, but N mismatches everything, N included.
 *   GALE_N_BYTES:    bytes compared exactly, nothing folded: a matches a only, A
 *                    only A, R only R, N only N (since 0.6). This is how WFA2-lib,
 *                    SeqAn's char alphabet (String<char>) and LOGAN's GPU kernel
 *                    compare letters: gale's results equal theirs on any input under
 *                    this policy, and under GALE_N_DNA5 on upper-case A C G T N
 *                    input, where the policies agree.
 * The policy decides how the batch stores its sequences: GALE_N_BYTES cannot be
 * set, nor left for another policy, while the batch holds tasks or registered
 * sequences (GALE_E_STATE; gale_batch_reset empties it). */
#define GALE_N_DNA5     0
#define GALE_N_MISMATCH 1
#define GALE_N_BYTES    2 /* since 0.6 */

/* 500s: Z-drop extension (GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2; since 0.6). Each kind takes
 * the arguments its ksw2 function takes, under these ids (and the 100s/110s above):
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

GALE_API gale_status gale_batch_set(gale_batch *batch, int param, int64_t value);
GALE_API gale_status gale_batch_get(const gale_batch *batch, int param, int64_t *value);

/* What a kind accepts, queryable before any batch exists (since 0.3), as zstd's
 * ZSTD_cParam_getBounds: the bounds, default and name of parameter `param` of
 * kind `kind` (GALE_E_RANGE if the kind or the parameter is unknown to it). */
typedef struct gale_bounds {
    size_t size;                 /* sizeof(gale_bounds): set by the caller, kept by gale */
    int64_t lower, upper;        /* inclusive */
    int64_t default_value;
    const char *name;            /* static, e.g. "xdrop" */
} gale_bounds;
GALE_API gale_status gale_param_bounds(int kind, int param, gale_bounds *out);

/* The parameter ids of a kind, in id order: up to cap into ids (NULL when cap is
 * 0), their number into *n. GALE_E_RANGE for an unknown kind. */
GALE_API gale_status gale_kind_params(int kind, int *ids, size_t cap, size_t *n);

/* The kind's static name ("xdrop", "wfa", "edit"), or NULL if unknown. */
GALE_API const char *gale_kind_name(int kind);

/* One task. For GALE_WFA and GALE_EDIT: v is the pattern (the query; SAM's
 * read) and h the text (the reference); the seed fields must be 0. See
 * "Wavefront alignment" below. For GALE_XDROP: h is SeqAn's horizontal sequence ("database"),
 * v the vertical one ("query"); the seed is [h_begin, h_end) on h and
 * [v_begin, v_end) on v, of equal lengths (0 allowed). Inputs are copied by
 * gale_batch_add.
 *
 * X-drop semantics: SeqAn 2.4's GappedXDrop, per direction as
 * seqan::extendSeed calls _extendSeedGappedXDropOneDirection (left on the
 * prefixes, right on the suffixes). A side's score is that of SeqAn's end cell,
 * not the peak. Where no end cell is alive SeqAn returns its "undefined"
 * marker and leaves the seed: gale reports INT32_MIN - gap for that side.
 * gale computes with the scores given: it does not copy SeqAn's int overflow
 * guards (the wrap of its marker when mismatch < gap, and its clamp of gap and
 * mismatch to INT_MIN / (2 * max(segment length + 1)) at extreme penalties);
 * there gale equals SeqAn run on a wide score type. A task whose best score
 * could exceed 2^30 (max(match, mismatch, 0) * min(h_len, v_len)) is refused
 * with GALE_E_LIMIT. */
typedef struct gale_task {
    size_t size;        /* sizeof(gale_task) */
    const char *h;      /* may be NULL only when h_len == 0 */
    int64_t h_len;      /* 0 .. 2^31-1 */
    const char *v;
    int64_t v_len;
    int64_t h_begin, h_end;
    int64_t v_begin, v_end;
    uint64_t user;      /* returned unchanged in the result */
    /* Since 0.3 (a caller built against 0.2 passes the smaller size and gets 0s):
     * sequences registered with gale_batch_add_sequence, referenced instead of
     * copied. h_seq != 0: h must be NULL and the task's h is bases
     * [h_offset, h_offset + h_len) of registered sequence h_seq (the seed
     * coordinates count from h_offset); likewise v. 0: h is given inline (h_offset 0). */
    uint32_t h_seq, v_seq;
    int64_t h_offset, v_offset;
    /* Since 0.7 (a caller built against 0.3 to 0.6 passes the smaller size and gets NULL):
     * GALE_ZDROP_EXTS2's junction array, ksw_exts2_sse's junc: NULL (none), or h_len bytes,
     * one per base of the task's h (of its window, for a registered h), each 0 or a set of
     * GALE_ZD_JUNC_* bits. Copied by gale_batch_add. Other kinds refuse a non-NULL junc
     * (GALE_E_UNSUPPORTED). */
    const uint8_t *junc;
} gale_task;

GALE_API void gale_task_init(gale_task *task);

/* Validates and copies one task. On failure nothing is added and the error
 * message names the task index and, for a bad byte, the sequence and position. */
GALE_API gale_status gale_batch_add(gale_batch *batch, const gale_task *task);

/* Adds n tasks in one call (since 0.4): the same tasks, checks and messages as n
 * gale_batch_add calls in order, but all or none (on a failure nothing is added, and
 * the message names the first task at fault by its index in the batch) and with the
 * checks and the copying of the bases spread over the context's threads (gale_ctx_opts.
 * threads). tasks[0].size gives every element's size (gale_task_init; sizeof(gale_task),
 * the 0.4-0.6 size offsetof(gale_task, junc) - those tasks have no junction array - or
 * larger; each element the same; bytes past the gale_task this library knows must be
 * zero). n = 0 adds nothing (only the batch's state is checked). */
GALE_API gale_status gale_batch_add_tasks(gale_batch *batch, const gale_task *tasks, size_t n);

/* Registers a sequence with the batch, once (since 0.3): its bases are validated,
 * encoded and kept until the batch is reset or destroyed, and tasks refer to it by
 * *id (1, 2, ... in order) and coordinates instead of copying it (gale_task.h_seq,
 * v_seq). Meant for chromosome-sized sequences that many tasks share. A bad byte
 * gives GALE_E_INPUT naming the sequence and position; nothing is added. Lengths
 * 0 .. 2^40. */
GALE_API gale_status gale_batch_add_sequence(gale_batch *batch, const char *seq, int64_t len, uint32_t *id);

/* A task over a group of sequences (since 0.3), e.g. a window of reads for
 * partial-order alignment (consensus and MSA rows): n sequences, each inline
 * (seqs[i], lens[i]) or registered (seq_ids[i] != 0, then seqs[i] may be NULL and
 * the whole registered sequence is used). weights, if not NULL, has one weight per
 * sequence. quals (since 0.6), if not NULL, has per sequence NULL or a quality
 * string of lens[i] bytes ('!' to '~', Phred + 33): a base's weight is then its
 * quality - 33, as SPOA weighs FASTQ reads. Kinds that take pairs refuse it with
 * GALE_E_UNSUPPORTED. */
typedef struct gale_group {
    size_t size;                 /* sizeof(gale_group) */
    size_t n;
    const char *const *seqs;
    const int64_t *lens;
    const uint32_t *seq_ids;     /* may be NULL: all inline */
    const int32_t *weights;      /* may be NULL */
    uint64_t user;
    const char *const *quals;    /* since 0.6; may be NULL */
} gale_group;
GALE_API void gale_group_init(gale_group *group);
GALE_API gale_status gale_batch_add_group(gale_batch *batch, const gale_group *group);

/* A sequence graph (since 0.3), registered once per batch like a sequence: nodes
 * with their bases and directed edges (from, to) as node indices, for
 * sequence-to-graph alignment. Tasks refer to it by *id through gale_task.h_seq
 * (the read is v). Kinds that take no graph refuse it with GALE_E_UNSUPPORTED. */
typedef struct gale_graph {
    size_t size;                 /* sizeof(gale_graph) */
    size_t n_nodes;
    const char *const *node_seqs;
    const int64_t *node_lens;
    size_t n_edges;
    const uint32_t *edges;       /* 2 * n_edges node indices: from, to */
} gale_graph;
GALE_API void gale_graph_init(gale_graph *graph);
GALE_API gale_status gale_batch_add_graph(gale_batch *batch, const gale_graph *graph, uint32_t *id);

/* Number of tasks added so far. */
GALE_API gale_status gale_batch_count(const gale_batch *batch, size_t *count);

/* Starts the batch and returns at once. A batch is submitted once
 * (GALE_E_STATE on the second call; gale_batch_reset makes it fillable again).
 * Submitting an empty batch is allowed: it completes at once. */
GALE_API gale_status gale_submit(gale_batch *batch);

/* Waits up to timeout_ms (0: just look; negative: forever) for the batch.
 * GALE_OK: done, results ready (also when gale_cancel came after the last task had
 * finished). GALE_E_AGAIN: still running (gale_last_error says so, with the time
 * waited). GALE_E_CANCELED: cancelled before every task finished; the tasks that
 * finished first still read back (see gale_cancel). GALE_E_STATE: never submitted.
 * Any other code: the batch failed (gale_last_error says why). */
GALE_API gale_status gale_poll(gale_batch *batch, int timeout_ms);

/* Same as gale_poll(batch, -1). */
GALE_API gale_status gale_wait(gale_batch *batch);

/* Asks a batch in flight to stop, and returns at once (it neither waits for the work
 * to stop nor calls into the GPU runtime). Tasks not yet started are skipped, and tasks
 * running are stopped where they are, on the CPU and on the GPU alike: the kernels
 * look at the batch's cancel flag every few milliseconds' worth of work, so gale_poll
 * reports GALE_E_CANCELED within about 100 ms (since 0.5; before, a running task ran
 * to its end, which took minutes for a long wavefront alignment).
 * Then (since 0.5) each task reads back either as computed before the cancel, with
 * its full result (gale_result_get: GALE_OK), or as cancelled: gale_result_get
 * returns GALE_E_CANCELED and writes the result zeroed except `size`, `user` and
 * `flags` = GALE_RF_CANCELED. A task stopped partway is never reported as computed.
 * A batch whose tasks had all finished when the cancel came ends done (GALE_OK).
 * gale_batch_stats of a cancelled batch gives GALE_E_CANCELED. Cancelling a batch
 * that is done or not submitted has no effect (GALE_OK). gale_batch_destroy and
 * gale_ctx_destroy cancel what is in flight the same way, so they return as promptly. */
GALE_API gale_status gale_cancel(gale_batch *batch);

/* Result flags */
#define GALE_RF_RESCUED 1u /* computed on the CPU because it exceeded the GPU kernel's budget, or because
                              the device or pinned memory for it ran out (doc/testing.md) */
#define GALE_RF_LOWMEM  2u /* wavefront alignment computed in low-memory (BiWFA) mode */
#define GALE_RF_CPU     4u /* computed on the CPU of a CUDA context: the kind has no GPU kernel (since 0.3) */
#define GALE_RF_CANCELED 8u /* not computed: the batch was cancelled first; the only flag then set, and
                               every other field but size and user is 0 (since 0.5; see gale_cancel) */
#define GALE_RF_UNFEASIBLE 16u /* wavefront alignment with a heuristic (GALE_P_WFA_HEURISTIC): every path
                               was cut, no alignment (WFA2-lib's WF_STATUS_UNFEASIBLE); score, coordinates
                               0, no CIGAR (since 0.7) */

typedef struct gale_result {
    size_t size;          /* sizeof(gale_result): set by the caller, kept by gale */
    uint32_t flags;       /* GALE_RF_* */
    int32_t score_left;   /* score of the left extension (0 if not extended) */
    int32_t score_right;  /* score of the right extension (0 if not extended) */
    int32_t reserved0;
    int64_t score;        /* score_left + score_right + seed length */
    int64_t h_begin, h_end; /* the extended seed on h (end exclusive) */
    int64_t v_begin, v_end; /* the extended seed on v */
    uint64_t cells;       /* DP cells computed for this task */
    uint64_t user;        /* the task's user value */
} gale_result;

/* Copies result i (submission order) into *out (out->size must be set).
 * GALE_E_STATE before the batch is done, GALE_E_RANGE if i >= number of tasks.
 * On a cancelled batch (since 0.5): GALE_OK and the result for a task that finished
 * before the cancel; GALE_E_CANCELED for one that did not, and *out is written all the
 * same, as a cancelled task (flags GALE_RF_CANCELED, see gale_cancel): the one
 * exception to "nothing is written when the call fails". */
GALE_API gale_status gale_result_get(const gale_batch *batch, size_t i, gale_result *out);

/* CIGAR operations: BAM's codes, as htslib's sam.h (BAM_CMATCH ...), so that a
 * gale CIGAR drops into a bam1_t. An op is (len << GALE_CIGAR_SHIFT) | code. */
#define GALE_CIGAR_MATCH     0 /* M */
#define GALE_CIGAR_INS       1 /* I: consumes the query (pattern, v) only */
#define GALE_CIGAR_DEL       2 /* D: consumes the reference (text, h) only */
#define GALE_CIGAR_REF_SKIP  3 /* N */
#define GALE_CIGAR_SOFT_CLIP 4 /* S */
#define GALE_CIGAR_HARD_CLIP 5 /* H */
#define GALE_CIGAR_PAD       6 /* P */
#define GALE_CIGAR_EQUAL     7 /* = */
#define GALE_CIGAR_DIFF      8 /* X */
#define GALE_CIGAR_BACK      9 /* B */
#define GALE_CIGAR_STR   "MIDNSHP=XB" /* GALE_CIGAR_STR[code] is the op's letter */
#define GALE_CIGAR_SHIFT 4
#define GALE_CIGAR_MASK  0xfu
#define GALE_CIGAR_OP(c)  ((c) & GALE_CIGAR_MASK)
#define GALE_CIGAR_LEN(c) ((c) >> GALE_CIGAR_SHIFT)

/* Copies results [first, first + n) into out[0 .. n) in one call (since 0.3).
 * out[0].size gives the struct size the caller uses (as gale_result_get's
 * out->size): the elements lie out[0].size bytes apart, and each is written as
 * "Struct sizes" above says, its size set to out[0].size. Same errors as gale_result_get;
 * GALE_E_RANGE when first + n exceeds the number of tasks (nothing is copied). On a
 * cancelled batch (since 0.5) every element is written, each as gale_result_get writes
 * it, and the call returns GALE_E_CANCELED if any task of the range was cancelled
 * (those have flags GALE_RF_CANCELED), GALE_OK if all of them had finished. */
GALE_API gale_status gale_result_get_range(const gale_batch *batch, size_t first, size_t n, gale_result *out);

/* Wavefront alignment (GALE_WFA, GALE_EDIT, GALE_INDEL, GALE_WFA_LINEAR)
 *
 * score: as WFA2-lib 2.3.3 reports it (cigar->score) with heuristics off (or, since 0.7,
 * with the same heuristic, GALE_P_WFA_HEURISTIC): the
 * distance for GALE_EDIT and GALE_INDEL (0 or positive); minus the penalty for
 * GALE_WFA and GALE_WFA_LINEAR with match score 0 (0 or negative); with a match
 * score m < 0 (since 0.6), WFA2-lib's translation of its transformed penalty P
 * (GALE_P_PENALTY_MATCH): (-m (len(pattern) + len(text)) - P) / 2, rounded towards
 * zero, with the whole lengths also when ends are free (so a free end's bases
 * count as half matches there, as in WFA2-lib; a free begin costs -m per base in P
 * and nets out).
 * Free end gaps of an ends-free span are not counted.
 * v_begin, v_end / h_begin, h_end: the aligned part of the pattern / text (end
 * exclusive). End-to-end: the whole sequences. Ends-free: the unaligned ends
 * are outside it. With GALE_SCOPE_SCORE and a free begin, the begins are -1.
 * score_left, score_right: 0. cells: wavefront cells computed.
 *
 * CIGAR (GALE_SCOPE_ALIGNMENT): BAM-style (GALE_INDEL: no 'X'), each op (len << 4) | code with
 * htslib's codes: GALE_CIGAR_EQUAL '=', GALE_CIGAR_DIFF 'X', GALE_CIGAR_INS
 * 'I' (consumes the pattern only), GALE_CIGAR_DEL 'D' (consumes the text only) -
 * the SAM convention, where the pattern is the read. It covers exactly the aligned part above.
 * Among optimal alignments gale picks one by a fixed rule (documented in
 * README.md, "Wavefront alignment"): the GPU and CPU backends give the same.
 *
 * gale_result_cigar: *cigar points into the batch and stays valid until the
 * batch is reset or destroyed; *n_ops is 0 for GALE_SCOPE_SCORE. Same errors
 * as gale_result_get; GALE_E_RANGE for a batch whose kind has no CIGAR. For a
 * cancelled task (GALE_E_CANCELED, since 0.5) *cigar is set to NULL and *n_ops to 0. */
GALE_API gale_status gale_result_cigar(const gale_batch *batch, size_t i, const uint32_t **cigar, size_t *n_ops);

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

typedef struct gale_stats {
    size_t size;          /* sizeof(gale_stats): set by the caller, kept by gale */
    uint64_t tasks;
    uint64_t cells;       /* DP cells computed, all tasks */
    uint64_t rescued;     /* tasks computed on the CPU by a GPU context (GALE_RF_RESCUED or GALE_RF_CPU) */
    uint64_t kernel_ns;   /* time spent in GPU kernels (0 on the CPU backend) */
    uint64_t elapsed_ns;  /* submit to completion */
} gale_stats;

/* Statistics of a finished batch (GALE_E_STATE before it is done; GALE_E_CANCELED for
 * a cancelled one: count its GALE_RF_CANCELED results instead). */
GALE_API gale_status gale_batch_stats(const gale_batch *batch, gale_stats *out);

/* One device's part of a finished batch (since 0.7). A context of several devices
 * (gale_ctx_opts.n_devices) splits each batch into contiguous parts of about equal
 * estimated DP cells, one per device (doc/architecture.md, "Several devices"); these
 * say how each part went, for instance whether the devices finished together. */
typedef struct gale_device_stats {
    size_t size;          /* sizeof(gale_device_stats): set by the caller in out[0], kept */
    int device;           /* CUDA device index */
    uint64_t first_task;  /* the part: tasks [first_task, first_task + tasks) */
    uint64_t tasks;
    uint64_t cells;       /* DP cells of the part's tasks, those rescued on the CPU included */
    uint64_t rescued;     /* tasks of the part computed on the CPU (GALE_RF_RESCUED) */
    uint64_t kernel_ns;   /* time in this device's kernels */
    uint64_t elapsed_ns;  /* submit to the end of the device's work on the part (its rescued
                           * tasks may end later, on the CPU) */
} gale_device_stats;

/* The device parts of a finished batch, in the context's device order (gale_ctx_devices):
 * writes min(cap, parts) of them to out (which may be NULL when cap is 0; out[0].size, set
 * by the caller, is every element's size, as for gale_result_get_range) and their number
 * to *n: 0 on the CPU backend and for a batch the CPU threads ran whole (GALE_RF_CPU), one
 * per device that received a part otherwise (fewer than the devices when the batch has
 * fewer tasks). Fails as gale_batch_stats does on a batch that is not done. */
GALE_API gale_status gale_batch_device_stats(const gale_batch *batch, gale_device_stats *out, size_t cap,
                                             size_t *n);

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
                             * transition); NULL: LASTZ's 12of19, 1110100110010101111 */
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
 * a seed pattern lastz refuses, or one gale does not take yet (half-weight, more than 28
 * bits), named in gale_last_error. Memory: 4 bytes a target word and 64 MiB of buckets
 * (none for a target shorter than the seed), built at the first find on the CPU; on a
 * CUDA context in each GPU's memory instead (host memory only if a find falls back to
 * the CPU). */
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

/* ------------------------------------------------------------------ */
/* Sequence-to-graph alignment (since 0.7)                              */
/* ------------------------------------------------------------------ */
/* Reads aligned one by one to a fixed graph with SPOA 4.0.8's recurrences and
 * tie-breaks (AlignmentEngine::Align against a graph that does not grow; the
 * GALE_POA kind's engine, doc/poa.md). Computed on the calling thread, CPU.
 *
 * gale_poa_graph_create: the graph is a gale_graph (nodes with their bytes, '!'..'~'
 * as GALE_POA takes them, each at least 1 byte; directed edges from the last byte of
 * `from` to the first byte of `to`). Each node's bytes become a chain of SPOA nodes, in
 * node order, then the edges in their order, then SPOA's TopologicalSort (without
 * aligned-node rings, which a graph given this way has none of). A cycle is refused
 * with GALE_E_INPUT naming the edge that closes it (found depth-first from node 0,
 * edges in order); *bad_edge (may be NULL) is then set to its index, else to SIZE_MAX.
 * The handle may be used by one thread at a time.
 *
 * gale_poa_graph_align: algorithm GALE_POA_LOCAL / GLOBAL / SEMI_GLOBAL and scores
 * (m, n, g, e, q, c) as GALE_POA's parameters (same bounds and defaults: 5 -4 -8 -6
 * -10 -4, the gap model inferred as SPOA does). Fills *out (size set by the caller);
 * its pointers belong to the handle, valid until the next align or the free. */
typedef struct gale_poa_graph gale_poa_graph;

typedef struct gale_poa_graph_alignment {
    size_t size;             /* sizeof(gale_poa_graph_alignment): set by the caller, kept by gale */
    int32_t score;           /* SPOA's score (0 where SPOA reports none: empty read, nothing aligned) */
    uint32_t n_path;         /* nodes on the path (0: nothing aligned) */
    const uint32_t *path;    /* gale_graph node indices, in path order */
    int64_t path_len;        /* bytes of the path's nodes */
    int64_t path_start;      /* aligned part of the path: [path_start, path_end) */
    int64_t path_end;
    int64_t query_start;     /* aligned part of the read: [query_start, query_end) */
    int64_t query_end;
    int64_t matches;         /* = columns */
    int64_t block_len;       /* columns of the alignment (=, X, I and D) */
    uint32_t n_ops;
    uint32_t reserved0;
    const uint32_t *cigar;   /* GALE_CIGAR_EQUAL, DIFF, INS (read only), DEL (path only) */
    uint64_t cells;          /* DP cells computed */
} gale_poa_graph_alignment;

GALE_API gale_status gale_poa_graph_create(const gale_graph *graph, gale_poa_graph **out, size_t *bad_edge);
GALE_API gale_status gale_poa_graph_align(gale_poa_graph *graph, int algorithm, int m, int n, int g, int e, int q,
                                          int c, const char *read, int64_t len, gale_poa_graph_alignment *out);
/* NULL: no-op. */
GALE_API void gale_poa_graph_free(gale_poa_graph *graph);

#ifdef __cplusplus
}
#endif

#endif /* GALE_H */

/* ------------------------------------------------------------------ */
/* Experimental: test and measuring hooks, outside the stable API       */
/* ------------------------------------------------------------------ */
/* Seen only with GALE_EXPERIMENTAL_API defined before including gale.h (as zstd's
 * ZSTD_STATIC_LINKING_ONLY). Ids 10000 and up may change or go in any release; they
 * never change a result, only how the GPU computes it (for benchmarks and tests). */
#if defined(GALE_EXPERIMENTAL_API) && !defined(GALE_H_EXPERIMENTAL)
#define GALE_H_EXPERIMENTAL /* its own guard, as zstd's: gale.h may have been included before without it */
/* GALE_WFA / GALE_EDIT: force the CUDA kernel's group shape (0 = the dispatcher's
 * choice, the default): threads per group, 32, 128 or 256; resident groups per SM, 1..64. */
#define GALE_PX_WFA_GROUP_THREADS 10000
#define GALE_PX_WFA_UNITS_PER_SM  10001
#endif
