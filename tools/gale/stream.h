/*
 * gale CLI: the streaming run every pair subcommand shares. A reader thread
 * reads and parses the input chunk by chunk (parsing on several threads,
 * input.c), adds each chunk to a batch in one bulk call (gale_batch_add_tasks,
 * whose checks and copying the library spreads over its threads) and submits
 * it; the main thread, meanwhile, starts the context, then waits for the
 * batches in input order and writes their results. STREAM_SLOTS batches take
 * turns: one being read, one aligned, one written. Memory is bounded by the
 * slots, not by the input (doc/cli.md, "Memory").
 *
 * Under MPI (ranks.h) every rank reads the whole input into the same chunks;
 * chunk k is rank k % N's. A rank reads past the others' chunks (fill with
 * skip set) and aligns its own; its main thread writes each of its chunks
 * into memory and sends it to rank 0, which writes every chunk in input
 * order: its own, then what it receives (doc/cli.md, "Several processes").
 */
#ifndef GALE_CLI_STREAM_H
#define GALE_CLI_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gale.h"
#include "input.h"
#include "options.h"
#include "output.h"

#define STREAM_SLOTS 3

typedef struct stream_chunk {
    gale_batch *b;         /* the slot's batch, reused chunk after chunk */
    gale_task *task;       /* the chunk's tasks, task[0..n) */
    size_t n, cap;
    uint64_t first;        /* the input index of task 0 */
    int slot;              /* 0..STREAM_SLOTS-1: the command's data for this chunk; STREAM_SLOTS: the
                              reader's chunk of another rank (skip) */
    int skip;              /* set by the stream: the chunk is another rank's. fill reads past it
                              (c->n: its pairs, c->check_only as ever) and need fill no tasks */
    int check_only;        /* set by fill: the input fails right after these tasks. They are only
                              checked (added, not run), so that a bad one among them is reported
                              first, as reading pair by pair would; then fill is called again and
                              reports the failure */
    int state;             /* the stream's (stream.c) */
} stream_chunk;

/* What a subcommand plugs into the stream. self is its own state. */
typedef struct stream_ops {
    void *self;
    /* Main thread, while the reader already reads: the context, and one batch
     * per slot with every parameter set. 0, or the exit status after a message. */
    int (*setup)(void *self, gale_ctx **ctx, gale_batch *b[STREAM_SLOTS]);
    /* Reader thread: the next pairs into c->task[0..c->n) (stream_reserve
     * grows it; c->first and c->slot are set). 0 with c->n == 0 at the end;
     * or the exit status after a message. */
    int (*fill)(void *self, stream_chunk *c);
    /* Reader thread: the library refused task i of c (status st,
     * gale_last_error): say which record, and why. */
    void (*add_error)(void *self, const stream_chunk *c, size_t i, gale_status st);
    /* Main thread, chunk after chunk in input order, once c's batch is done:
     * writes its results to *dest. 0, or the exit status after a message. */
    int (*write)(void *self, stream_chunk *c);
    /* Where write writes (the command's own variable), named *destname in
     * messages; set by setup. On ranks other than 0 the stream points it at
     * a buffer in memory for each chunk; rank 0 appends the other ranks'
     * results to it. */
    FILE **dest;
    const char **destname;
    /* Main thread: redraws the progress bar; done: pairs written. */
    void (*progress)(void *self, uint64_t done);
} stream_ops;

/* Room for n tasks in c->task: 0, or -1 after "out of memory". */
int stream_reserve(stream_chunk *c, size_t n);

/* Runs the whole input through ops. *ctx: the context setup made (NULL if
 * none), for the caller to destroy (which also cancels batches still in
 * flight after a failure); *done: the pairs written. pg: the bar, cleared
 * before a message. Returns 0 or the exit status. */
int stream_run(const stream_ops *ops, gale_ctx **ctx, progress *pg, uint64_t *done);

/* ---- What the commands' callbacks share (xdrop.c, wfa.c, zdrop.c) ---- */

/* setup's batches: the context (start_context for cmd), then one batch of kind per
 * slot, each given its parameters by set_params(b, params); what names the batch in a
 * failure ("cannot create WHAT"). 0, or the exit status after a message. */
int stream_make_batches(const char *cmd, const common_opts *com, int kind, const char *what,
                        int (*set_params)(gale_batch *b, const void *params), const void *params, gale_ctx **ctx,
                        gale_batch *b[STREAM_SLOTS]);
/* setup's output, once stream_make_batches returned rc (nothing is opened unless it is
 * 0): -o path opened before the work, so that a name that cannot be written fails the
 * run at once (a regular file is replaced only at the end); only rank 0 writes (ranks.h),
 * the others' results go to it. body (NULL: not SAM): SAM's records wait in a temporary
 * file there for the header, which needs every reference before the first record.
 * *dest and *destname: where write writes. Returns rc, or the exit status. */
int stream_open_output(int rc, out_file *out, const char *path, FILE **body, FILE **dest, const char **destname);

/* fill of a pair command (wfa, zdrop) for another rank's chunk: its pairs read past
 * (c->n and c->check_only set, as stream_chunk says). 0, or EXIT_FAIL after a message. */
int stream_skip_pairs(pair_reader *rd, stream_chunk *c, line_chunk *lc, kstring_t *raw, size_t max, size_t max_bytes,
                      int threads);
/* fill of a pair command for its own chunk: room for max tasks in c and max views in
 * *pv (capacity *pv_cap), then up to max pairs (no more once max_bytes are read) into
 * *pv. Their number (0 at the end), or -1 after a message. */
int64_t stream_read_pairs(pair_reader *rd, stream_chunk *c, line_chunk *lc, kstring_t *raw, pair_view **pv,
                          size_t *pv_cap, size_t max, size_t max_bytes, int threads);

/* The run's end: the context destroyed (which cancels what is still in flight and
 * destroys the batches; NULL: none), "output closed" and "context destroyed" traced.
 * Returns rc, or EXIT_FAIL when destroying failed after a run that had succeeded. */
int stream_release(gale_ctx *ctx, int rc);

/* GALE_CLI_TRACE=1 (a measuring aid, doc/cli.md): "gale trace T ms: WHAT" on
 * stderr, T since stream_run started; nothing otherwise. */
void stream_trace(const char *what);

#endif
