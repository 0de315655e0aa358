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
 * Layout: this file is the core (versions, status codes, the context, batches, the
 * parameter ids several kinds share, tasks, results, CIGAR ops, statistics). What
 * belongs to one stage or format is in its own header under gale/, which this file
 * includes at its end: gale/wfa.h (wavefront alignment), gale/zdrop.h (Z-drop
 * extension), gale/poa.h (partial-order alignment), gale/lastz.h (LASTZ's gapped
 * extension and seeding), gale/compare.h (whole-genome comparison), gale/graph.h
 * (sequence-to-graph alignment) and gale/experimental.h (test hooks). Include gale.h;
 * each of those may also be included alone (it includes gale.h).
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
/* Z-drop extension, minimap2 2.24's ksw2 bit for bit (since 0.6; gale/zdrop.h) */
#define GALE_ZDROP_EXTZ2 6 /* ksw_extz2_sse: affine gaps */
#define GALE_ZDROP_EXTD2 7 /* ksw_extd2_sse: two-piece affine gaps (minimap2's default for long reads) */
#define GALE_ZDROP_EXTS2 8 /* ksw_exts2_sse: spliced alignment */
#define GALE_POA   9 /* partial-order alignment of a group of sequences, SPOA 4.0.8's results (since 0.6;
                        gale/poa.h) */
/* 10: GALE_LASTZ (gale/lastz.h), pinned with these, though no batch kind. */

GALE_API gale_status gale_batch_create(gale_ctx *ctx, int kind, gale_batch **out);

/* Cancels and waits for the batch if in flight (as promptly as gale_cancel stops it),
 * then frees it. NULL is a no-op. */
GALE_API gale_status gale_batch_destroy(gale_batch *batch);

/* Drops tasks and results so the batch (with its parameters) can be refilled.
 * Not allowed while the batch is in flight (GALE_E_STATE). */
GALE_API gale_status gale_batch_reset(gale_batch *batch);

/* Parameters: pinned ids, grouped by hundreds. Sticky until changed; may be
 * set only before submit (GALE_E_STATE otherwise). Out-of-range values and ids
 * that do not apply to the batch's kind give GALE_E_RANGE. Ids of one family of
 * kinds are in its header: 115, 116 and the 400s in gale/wfa.h, 117 and the 500s in
 * gale/zdrop.h, the 600s in gale/poa.h, 10000 and up in gale/experimental.h. */
/* 100s: scoring */
#define GALE_P_MATCH     100 /* match score;    X-drop default  1; [-2^20, 2^20]; Z-drop: gale/zdrop.h */
#define GALE_P_MISMATCH  101 /* mismatch score; X-drop default -1; [-2^20, 2^20] */
#define GALE_P_GAP       102 /* linear gap score (per base); default -1; [-2^20, -1] */
/* 110s: penalties of GALE_WFA (positive numbers, as in WFA2-lib; match costs 0).
 * A gap of length L costs open + L * extend. Two-piece gap-affine: a gap costs
 * the smaller of the two pieces; it is on when GALE_P_GAP_EXTEND2 > 0.
 * The Z-drop kinds read the same ids as ksw2's arguments (since 0.6; bounds and
 * defaults in gale/zdrop.h, "500s"). 115, 116: gale/wfa.h; 117: gale/zdrop.h. */
#define GALE_P_PENALTY_MISMATCH   110 /* x; default 4; [1, 4096] */
#define GALE_P_PENALTY_GAP_OPEN   111 /* o; default 6; [0, 4096] */
#define GALE_P_PENALTY_GAP_EXTEND 112 /* e; default 2; [1, 4096] */
#define GALE_P_PENALTY_GAP_OPEN2  113 /* o2; default 0; [0, 4096] */
#define GALE_P_PENALTY_GAP_EXTEND2 114 /* e2; default 0 (one piece); [0, 4096] */
/* 200s: extension */
#define GALE_P_XDROP     200 /* X of the X-drop; default 100; [0, 2^29] */
#define GALE_P_DIRECTION 201 /* GALE_DIR_*; default GALE_DIR_BOTH */
/* 300s: alphabet */
#define GALE_P_N_POLICY  300 /* GALE_N_*; default GALE_N_DNA5; see GALE_N_DNA5 below */

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
 * "Wavefront alignment" in gale/wfa.h. For GALE_XDROP: h is SeqAn's horizontal sequence ("database"),
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

/* The CIGAR of result i, for the kinds that have one: the wavefront kinds (gale/wfa.h,
 * "Wavefront alignment", which says what it covers) and the Z-drop kinds (gale/zdrop.h).
 *
 * gale_result_cigar: *cigar points into the batch and stays valid until the
 * batch is reset or destroyed; *n_ops is 0 for GALE_SCOPE_SCORE. Same errors
 * as gale_result_get; GALE_E_RANGE for a batch whose kind has no CIGAR. For a
 * cancelled task (GALE_E_CANCELED, since 0.5) *cigar is set to NULL and *n_ops to 0. */
GALE_API gale_status gale_result_cigar(const gale_batch *batch, size_t i, const uint32_t **cigar, size_t *n_ops);

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

#ifdef __cplusplus
}
#endif

/* The stages and formats, each in its own header (see "Layout" above). */
#include "gale/wfa.h"
#include "gale/zdrop.h"
#include "gale/poa.h"
#include "gale/lastz.h"
#include "gale/compare.h"
#include "gale/graph.h"

#endif /* GALE_H */

/* Outside the guard: a later #include <gale.h> with GALE_EXPERIMENTAL_API defined
 * brings the experimental section in (gale/experimental.h says how). */
#include "gale/experimental.h"
