/*
 * gale CLI: the streaming run (stream.h).
 *
 * A chunk's life: FREE -> (reader: fill) FILLED -> (reader, once the context
 * is ready: add, submit) SUBMITTED -> (main: wait, write) FREE. Chunk i lives in slot i % STREAM_SLOTS, so the main
 * thread takes them back in input order. The reader waits for a free slot
 * and, before its first add, for the context; the main thread waits for the
 * next chunk. Either side stopping on an error sets abort, and the other
 * side stops at its next wait.
 *
 * Under MPI (N ranks), the reader counts every chunk of the input, k, and
 * hands its main thread only its own (k % N == rank); the others it reads
 * past in one chunk of its own, never added or submitted, its messages
 * muted (their owner reports them). The main thread's chunks are then one
 * per round of N: after each, every rank says what it has for the round (its
 * chunk's results, the end of the input, or a failure: ranks_allgather), a
 * failure anywhere stops every rank, and the ranks other than 0 send their
 * results, formatted into memory, to rank 0, which writes them in rank order
 * behind its own - input order.
 */
#define _POSIX_C_SOURCE 200809L

#include "stream.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "input.h"
#include "ranks.h"

enum { CHUNK_FREE, CHUNK_FILLED, CHUNK_SUBMITTED };

/* GALE_CLI_TRACE: the run's start; 0: no trace. */
static double trace_t0;

typedef struct stream {
    const stream_ops *ops;
    stream_chunk chunk[STREAM_SLOTS];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int ready;            /* setup succeeded: the batches exist */
    int abort;            /* stop: a failure on either side */
    int reader_done;      /* the reader has stopped (end of input, or a failure) */
    int reader_rc;
    uint64_t submitted;   /* chunks submitted */
    stream_chunk other;   /* the reader's chunk of another rank */
    uint64_t *round;      /* 3 values per rank: what each has for a round (write_all) */
} stream;

int stream_reserve(stream_chunk *c, size_t n)
{
    while (c->cap < n) {
        gale_task *nt = grow_array(c->task, &c->cap, sizeof *nt, 1024);
        if (!nt) {
            msg("out of memory");
            return -1;
        }
        c->task = nt;
    }
    return 0;
}

/* The index of the task a library message names ("task N: ..."); 0 when it
 * names none (a failure of the whole call). */
static size_t task_index(const char *e)
{
    size_t i = 0;
    if (strncmp(e, "task ", 5) == 0)
        for (e += 5; *e >= '0' && *e <= '9'; e++)
            i = i * 10 + (size_t)(*e - '0');
    return i;
}

/* GALE_CLI_TRACE=1: one line on stderr per step of each chunk, with the time since
 * the run started - a measuring aid (doc/cli.md), not an interface. */
static void trace(const stream *s, const char *what, uint64_t chunk, size_t n)
{
    (void)s;
    if (trace_t0 > 0.0)
        fprintf(stderr, "gale trace %8.1f ms: chunk %" PRIu64 " (%zu pairs): %s\n", 1e3 * (now_s() - trace_t0), chunk,
                n, what);
}

void stream_trace(const char *what)
{
    if (trace_t0 > 0.0)
        fprintf(stderr, "gale trace %8.1f ms: %s\n", 1e3 * (now_s() - trace_t0), what);
}

/* Waits until pred holds or the stream aborts; returns !abort. */
#define WAIT_FOR(s, pred) \
    do { \
        pthread_mutex_lock(&(s)->mu); \
        while (!(pred) && !(s)->abort) \
            pthread_cond_wait(&(s)->cv, &(s)->mu); \
    } while (0)

static void set_abort(stream *s)
{
    pthread_mutex_lock(&s->mu);
    s->abort = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* Adds c's tasks to its batch in one call and submits it: 0 or EXIT_FAIL. */
static int add_and_submit(stream *s, stream_chunk *c)
{
    gale_status st = gale_batch_reset(c->b);
    if (st != GALE_OK) {
        gale_msg("cannot reset a batch", st);
        return EXIT_FAIL;
    }
    st = gale_batch_add_tasks(c->b, c->task, c->n);
    if (st != GALE_OK) {
        s->ops->add_error(s->ops->self, c, task_index(gale_last_error()), st);
        return EXIT_FAIL;
    }
    if (c->check_only) { /* now the failure behind them */
        int rc = s->ops->fill(s->ops->self, c);
        return rc ? rc : EXIT_FAIL;
    }
    st = gale_submit(c->b);
    if (st != GALE_OK) {
        gale_msg("cannot submit a batch", st);
        return EXIT_FAIL;
    }
    return 0;
}

/* Reads past the next chunk of the input, another rank's: 0 to go on,
 * SKIP_END at the end of the input (or when the stream stops), or the exit
 * status of a failure (its owner says why; here the messages are muted). */
#define SKIP_END (-1)
static int skip_chunk(stream *s, uint64_t *next_index)
{
    stream_chunk *c = &s->other;
    int rc, stop;
    pthread_mutex_lock(&s->mu);
    stop = s->abort;
    pthread_mutex_unlock(&s->mu);
    if (stop)
        return SKIP_END;
    c->n = 0;
    c->check_only = 0;
    c->first = *next_index;
    in_mute_messages(1);
    rc = s->ops->fill(s->ops->self, c);
    in_mute_messages(0);
    if (rc != 0)
        return rc;
    if (c->n == 0)
        return SKIP_END;
    /* the input fails right after this chunk: its owner reports that, or
     * a bad pair in it, first */
    if (c->check_only)
        return EXIT_FAIL;
    *next_index += c->n;
    return 0;
}

/* The reader: fills chunk after chunk into free slots. Until the context is
 * ready it reads ahead into every free slot (the CUDA runtime's start takes
 * longer than a chunk's reading); once it is, it adds and submits the chunks it
 * holds, in order, and from then on each chunk as soon as it is read. */
static void *reader_main(void *arg)
{
    stream *s = arg;
    uint64_t next_index = 0, filled = 0, sent = 0, k = 0;
    uint64_t nranks = (uint64_t)ranks_n(), me = (uint64_t)ranks_me();
    int rc = 0, end = 0, fill_rc = 0, from_fill = 0;
    for (;;) {
        stream_chunk *c;
        int ready, stop, free_slot, ahead, skipped;
        pthread_mutex_lock(&s->mu);
        for (;;) {
            c = &s->chunk[filled % STREAM_SLOTS];
            ready = s->ready;
            stop = s->abort;
            free_slot = !end && c->state == CHUNK_FREE;
            if (stop || (ready && sent < filled) || free_slot || (end && sent == filled))
                break;
            pthread_cond_wait(&s->cv, &s->mu);
        }
        pthread_mutex_unlock(&s->mu);
        if (stop || (end && sent == filled))
            break;
        if (ready && sent < filled) {
            stream_chunk *d = &s->chunk[sent % STREAM_SLOTS];
            rc = add_and_submit(s, d);
            if (rc != 0)
                break;
            trace(s, "added and submitted", sent, d->n);
            pthread_mutex_lock(&s->mu);
            d->state = CHUNK_SUBMITTED;
            s->submitted++;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            sent++;
            continue;
        }
        /* under MPI, the chunks of the other ranks in between are read past */
        skipped = 0;
        while (k % nranks != me && (skipped = skip_chunk(s, &next_index)) == 0)
            k++;
        if (skipped == SKIP_END) {
            end = 1;
            continue;
        }
        if (skipped != 0) {
            rc = skipped;
            break;
        }
        k++;
        c->n = 0;
        c->check_only = 0;
        c->first = next_index;
        /* read ahead: a failure here comes after the chunks not checked yet */
        ahead = sent < filled;
        if (ahead)
            in_defer_messages(1);
        fill_rc = s->ops->fill(s->ops->self, c);
        if (ahead)
            in_defer_messages(0);
        if (fill_rc != 0 && !ahead) {
            rc = fill_rc;
            break;
        }
        if (fill_rc != 0) { /* the chunks before it first, then its message */
            end = 1;
            continue;
        }
        if (c->n == 0) {
            end = 1;
            continue;
        }
        trace(s, "read and parsed", filled, c->n);
        next_index += c->n;
        pthread_mutex_lock(&s->mu); /* (the main thread looks at every slot's state) */
        c->state = CHUNK_FILLED;    /* the reader's alone until submitted */
        pthread_mutex_unlock(&s->mu);
        filled++;
        /* a chunk the input fails after is the last */
        if (c->check_only)
            end = 1;
    }
    pthread_mutex_lock(&s->mu);
    if (fill_rc != 0 && rc == 0 && !s->abort) {
        rc = fill_rc;
        from_fill = 1;
    }
    pthread_mutex_unlock(&s->mu);
    /* the message of a chunk that failed to read, unless one before it failed first */
    in_release_deferred(from_fill);
    pthread_mutex_lock(&s->mu);
    s->reader_done = 1;
    s->reader_rc = rc;
    if (rc != 0)
        s->abort = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* Waits for c's batch, redrawing the bar: 0 or EXIT_FAIL. */
static int wait_chunk(const stream *s, const stream_chunk *c, progress *pg, uint64_t done)
{
    gale_status st;
    for (;;) {
        st = gale_poll(c->b, progress_poll_ms(pg));
        if (st != GALE_E_AGAIN)
            break;
        s->ops->progress(s->ops->self, done);
    }
    if (st != GALE_OK) {
        char what[96];
        progress_clear(pg);
        snprintf(what, sizeof what, "the batch of pairs %" PRIu64 "..%" PRIu64 " failed", c->first,
                 c->first + (c->n ? c->n - 1 : 0));
        gale_msg(what, st);
        return EXIT_FAIL;
    }
    return 0;
}

/* Writes c's results: rank 0 to the output, any other rank into memory
 * (*buf, *len: to free) for rank 0. 0 or the exit status. */
static int write_chunk(const stream *s, stream_chunk *c, char **buf, size_t *len)
{
    FILE *mem;
    int rc;
    if (ranks_me() == 0)
        return s->ops->write(s->ops->self, c);
    mem = open_memstream(buf, len);
    if (!mem) {
        msg("out of memory");
        return EXIT_FAIL;
    }
    *s->ops->dest = mem;
    *s->ops->destname = "(the results in memory)";
    rc = s->ops->write(s->ops->self, c);
    if (fclose(mem) != 0 && rc == 0) {
        msg("out of memory");
        rc = EXIT_FAIL;
    }
    *s->ops->dest = NULL;
    return rc;
}

/* What a rank has for a round (write_all). */
enum { ROUND_END, ROUND_DATA, ROUND_FAIL };

/* The end of a round of N ranks (N > 1): every rank says what it has
 * (state: ROUND_*; its chunk's pairs n and the bytes of its results, buf),
 * and rank 0 writes the others' results in rank order. Returns 1 for the
 * next round, 0 to stop: the end of the input, or a failure on any rank
 * (*rc then EXIT_FAIL where it was 0). A write error of rank 0's comes after
 * every result of the round is received: the next round stops. */
static int end_round(stream *s, int state, uint64_t n, const char *buf, size_t len, int *rc, uint64_t *done)
{
    uint64_t mine[3], *all = s->round;
    int nr = ranks_n(), me = ranks_me(), r, any_fail = 0, any_data = 0;
    mine[0] = (uint64_t)state;
    mine[1] = n;
    mine[2] = len;
    if (ranks_allgather(mine, 3, all) != 0) {
        msg("MPI: the ranks cannot agree on a round");
        any_fail = 1;
    }
    for (r = 0; r < nr && !any_fail; r++) {
        any_fail = all[3 * r] == ROUND_FAIL;
        any_data |= all[3 * r] == ROUND_DATA;
    }
    if (any_fail || !any_data) {
        if (any_fail && *rc == 0)
            *rc = EXIT_FAIL;
        return 0;
    }
    if (me != 0) {
        if (state == ROUND_DATA && ranks_send0(buf, len) != 0) {
            msg("MPI: cannot send results to rank 0");
            *rc = EXIT_FAIL;
        }
        return 1;
    }
    for (r = 1; r < nr; r++) {
        if (all[3 * r] != ROUND_DATA)
            continue;
        if (ranks_recv_write(r, (size_t)all[3 * r + 2], *rc ? NULL : *s->ops->dest) != 0 && *rc == 0) {
            msg("%s: write error: %s", *s->ops->destname, strerror(errno));
            *rc = EXIT_FAIL;
        }
        if (*rc == 0) {
            *done += all[3 * r + 1];
            s->ops->progress(s->ops->self, *done);
        }
    }
    return 1;
}

/* The main thread's part once the batches exist: chunk after chunk in order
 * (with N ranks, this rank's chunk of each round). */
static int write_all(stream *s, progress *pg, uint64_t *done)
{
    uint64_t seq;
    int rc = 0, multi = ranks_n() > 1;
    for (seq = 0;; seq++) {
        stream_chunk *c = &s->chunk[seq % STREAM_SLOTS];
        int have = 0, failed = 0, go;
        char *buf = NULL;
        size_t len = 0;
        uint64_t n = 0;
        if (rc == 0) { /* (a failure of the last round's writes: this round stops) */
            /* the next chunk: while the reader reads it, the bar goes on moving */
            pthread_mutex_lock(&s->mu);
            while (c->state != CHUNK_SUBMITTED && !(s->reader_done && s->submitted <= seq) && !s->abort) {
                if (progress_poll_ms(pg) < 0) {
                    pthread_cond_wait(&s->cv, &s->mu);
                } else {
                    struct timespec until;
                    clock_gettime(CLOCK_REALTIME, &until);
                    until.tv_nsec += 100 * 1000000L;
                    if (until.tv_nsec >= 1000000000L) {
                        until.tv_sec++;
                        until.tv_nsec -= 1000000000L;
                    }
                    pthread_cond_timedwait(&s->cv, &s->mu, &until);
                    pthread_mutex_unlock(&s->mu);
                    s->ops->progress(s->ops->self, *done);
                    pthread_mutex_lock(&s->mu);
                }
            }
            have = c->state == CHUNK_SUBMITTED;
            failed = !have && s->reader_rc != 0;
            pthread_mutex_unlock(&s->mu);
        }
        if (have) {
            n = c->n;
            rc = wait_chunk(s, c, pg, *done);
            trace(s, "aligned", seq, c->n);
            if (rc == 0)
                rc = write_chunk(s, c, &buf, &len);
            trace(s, "written", seq, c->n);
            if (rc == 0) {
                *done += c->n;
                s->ops->progress(s->ops->self, *done);
            }
            pthread_mutex_lock(&s->mu);
            c->state = CHUNK_FREE;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
        }
        if (!multi) {
            if (rc != 0 || !have)
                break;
            continue;
        }
        go = end_round(s, rc || failed ? ROUND_FAIL : have ? ROUND_DATA : ROUND_END, n, buf, len, &rc, done);
        free(buf);
        if (!go)
            break;
    }
    return rc;
}

int stream_run(const stream_ops *ops, gale_ctx **ctx, progress *pg, uint64_t *done)
{
    stream s;
    gale_batch *b[STREAM_SLOTS];
    pthread_t reader;
    int i, rc, started;

    memset(&s, 0, sizeof s);
    memset(b, 0, sizeof b);
    s.ops = ops;
    if (getenv("GALE_CLI_TRACE") && *getenv("GALE_CLI_TRACE") && strcmp(getenv("GALE_CLI_TRACE"), "0") != 0)
        trace_t0 = now_s();
    for (i = 0; i < STREAM_SLOTS; i++)
        s.chunk[i].slot = i;
    s.other.slot = STREAM_SLOTS;
    s.other.skip = 1;
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    *ctx = NULL;
    *done = 0;

    /* The reader's messages wait for setup: a bad option is reported alone,
     * as if it had been checked before the input was read. */
    in_hold_messages();
    s.round = malloc(3 * (size_t)ranks_n() * sizeof *s.round);
    started = s.round && pthread_create(&reader, NULL, reader_main, &s) == 0;
    if (!started) {
        in_release_messages(1);
        msg(s.round ? "cannot start the reader thread" : "out of memory");
        rc = EXIT_FAIL;
    } else {
        /* for the tests: a context as slow to start as CUDA's, so that the reader reads ahead */
        const char *delay = getenv("GALE_CLI_TEST_SETUP_DELAY_MS");
        if (delay && atoi(delay) > 0) {
            struct timespec d = {atoi(delay) / 1000, (long)(atoi(delay) % 1000) * 1000000L};
            nanosleep(&d, NULL);
        }
        rc = ops->setup(ops->self, ctx, b);
        trace(&s, "context and batches ready (setup)", 0, 0);
    }
    /* every rank set up, or none goes on (a rank that cannot start its
     * context, rank 0 that cannot open -o FILE) */
    rc = ranks_agree(rc);
    if (started)
        in_release_messages(rc == 0);
    if (rc == 0) {
        pthread_mutex_lock(&s.mu);
        for (i = 0; i < STREAM_SLOTS; i++)
            s.chunk[i].b = b[i];
        s.ready = 1;
        pthread_cond_broadcast(&s.cv);
        pthread_mutex_unlock(&s.mu);
        rc = write_all(&s, pg, done);
    }
    progress_clear(pg);
    set_abort(&s);
    if (started)
        pthread_join(reader, NULL);
    if (rc == 0)
        rc = s.reader_rc;
    trace(&s, "stream done", 0, 0);
    for (i = 0; i < STREAM_SLOTS; i++)
        free(s.chunk[i].task);
    free(s.other.task);
    free(s.round);
    pthread_cond_destroy(&s.cv);
    pthread_mutex_destroy(&s.mu);
    return rc;
}

/* ------------------------------------------------------------------ */
/* What the commands' callbacks share                                  */
/* ------------------------------------------------------------------ */

int stream_make_batches(const char *cmd, const common_opts *com, int kind, const char *what,
                        int (*set_params)(gale_batch *b, const void *params), const void *params, gale_ctx **ctx,
                        gale_batch *b[STREAM_SLOTS])
{
    int i, rc = start_context(cmd, com, ctx);
    char why[96];
    for (i = 0; i < STREAM_SLOTS && rc == 0; i++) {
        gale_status st = gale_batch_create(*ctx, kind, &b[i]);
        if (st != GALE_OK) {
            snprintf(why, sizeof why, "cannot create %s", what);
            gale_msg(why, st);
            return EXIT_FAIL;
        }
        rc = set_params(b[i], params);
    }
    return rc;
}

int stream_open_output(int rc, out_file *out, const char *path, FILE **body, FILE **dest, const char **destname)
{
    if (rc == 0 && ranks_me() == 0)
        rc = out_open(out, path);
    if (rc == 0 && ranks_me() == 0 && body && !(*body = sam_body_file(out)))
        rc = EXIT_FAIL;
    *dest = body && *body ? *body : out->fp;
    *destname = body && *body ? "(temporary SAM file)" : out->display;
    return rc;
}

int stream_skip_pairs(pair_reader *rd, stream_chunk *c, line_chunk *lc, kstring_t *raw, size_t max, size_t max_bytes,
                      int threads)
{
    int64_t n = pair_read_chunk(rd, lc, raw, NULL, max, max_bytes, threads);
    c->n = n > 0 ? (size_t)n : 0;
    c->check_only = pair_failing(rd);
    return n < 0 ? EXIT_FAIL : 0;
}

int64_t stream_read_pairs(pair_reader *rd, stream_chunk *c, line_chunk *lc, kstring_t *raw, pair_view **pv,
                          size_t *pv_cap, size_t max, size_t max_bytes, int threads)
{
    if (stream_reserve(c, max) != 0)
        return -1;
    while (*pv_cap < max) {
        pair_view *np = grow_array(*pv, pv_cap, sizeof *np, 1024);
        if (!np) {
            msg("out of memory");
            return -1;
        }
        *pv = np;
    }
    return pair_read_chunk(rd, lc, raw, *pv, max, max_bytes, threads);
}

int stream_release(gale_ctx *ctx, int rc)
{
    stream_trace("output closed");
    if (ctx) {
        gale_status st = gale_ctx_destroy(ctx);
        stream_trace("context destroyed");
        if (st != GALE_OK && rc == 0) {
            gale_msg("cannot release the context", st);
            rc = EXIT_FAIL;
        }
    }
    return rc;
}
