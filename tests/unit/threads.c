/*
 * threads.c - thread safety of the C API (gale.h, "Thread safety"):
 *  1. 8 threads share one context; each creates, fills, submits, polls (mixing
 *     gale_poll(b, 0), gale_poll(b, 5) and gale_wait) and reads many batches,
 *     several at a time, and cancels some of its own. Every result of every
 *     batch that completed equals the result of the same tasks run one batch
 *     after the other on a separate single-threaded context (every field).
 *  2. Several threads poll, wait on, and read one batch at the same time.
 *  3. One thread waits on a batch while another cancels it.
 *
 * Suite 'unit'. Random batches from a printed seed (GALE_TEST_SEED), amount
 * scaled by GALE_TEST_SCALE.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gale.h"

static pthread_mutex_t tu_mutex = PTHREAD_MUTEX_INITIALIZER;
#define TU_LOCK() pthread_mutex_lock(&tu_mutex)
#define TU_UNLOCK() pthread_mutex_unlock(&tu_mutex)
#include "testutil.h"

#define N_THREADS 8

/* One batch: parameters, tasks (pointing into pairs), the reference results. */
typedef struct spec {
    int64_t match, mismatch, gap, X;
    int dir, npol;
    int cancel; /* the owning thread cancels it right after submit */
    int poll_mode; /* 0: poll(b, 0) spinning, 1: poll(b, 5), 2: gale_wait */
    size_t n;
    tu_pair *pairs;
    gale_task *tasks;
    gale_result *ref;
} spec;

static spec *specs;
static int n_specs;
static gale_ctx *shared_ctx;
static int cancels_seen, cancels_asked;

static void make_spec(tu_rng *r, spec *s, int allow_cancel)
{
    size_t i;
    uint64_t kind = tu_next(r) % 4;
    if (kind == 0) {
        s->match = 1;
        s->mismatch = -1;
        s->gap = -1;
    } else if (kind == 1) {
        s->match = tu_range(r, 1, 5);
        s->gap = -tu_range(r, 1, 4);
        s->mismatch = s->gap - tu_range(r, 1, 6); /* mismatch below gap */
    } else {
        s->match = tu_range(r, 1, 10);
        s->mismatch = -tu_range(r, 0, 10);
        s->gap = -tu_range(r, 1, 10);
    }
    s->X = (tu_next(r) & 1) ? tu_range(r, 0, 30) : tu_range(r, 0, 300);
    s->dir = (int)tu_range(r, GALE_DIR_LEFT, GALE_DIR_BOTH);
    if (tu_next(r) & 1) s->dir = GALE_DIR_BOTH;
    s->npol = (int)(tu_next(r) & 1);
    s->cancel = allow_cancel && tu_range(r, 0, 4) == 0;
    s->poll_mode = (int)tu_range(r, 0, 2);
    s->n = (size_t)tu_range(r, 1, 40);
    if (tu_range(r, 0, 9) == 0) s->n = 0; /* some empty batches */
    s->pairs = (tu_pair *)calloc(s->n + 1, sizeof(tu_pair));
    s->tasks = (gale_task *)calloc(s->n + 1, sizeof(gale_task));
    s->ref = (gale_result *)calloc(s->n + 1, sizeof(gale_result));
    REQUIRE(s->pairs && s->tasks && s->ref);
    for (i = 0; i < s->n; ++i) {
        int64_t len = tu_logrange(r, 1, 2500);
        int64_t k = tu_range(r, 1, len < 25 ? len : 25);
        int opts = (int)(tu_next(r) & 3);
        tu_pair_make(r, &s->pairs[i], len, k, tu_unif(r) * 0.3, opts);
        tu_task_from_pair(&s->tasks[i], &s->pairs[i], tu_next(r));
    }
}

static gale_batch *fill_batch(gale_ctx *ctx, const spec *s)
{
    gale_batch *b = NULL;
    size_t i;
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    tu_xdrop_settings(b, s->match, s->mismatch, s->gap, s->X, s->dir, s->npol);
    for (i = 0; i < s->n; ++i) REQUIRE_OK(gale_batch_add(b, &s->tasks[i]));
    return b;
}

/* Checks a finished batch's results and stats against the reference. */
static void check_results(gale_batch *b, const spec *s, const char *what)
{
    size_t i;
    uint64_t cells = 0;
    gale_stats st;
    for (i = 0; i < s->n; ++i) {
        gale_result r;
        memset(&r, 0x33, sizeof r);
        r.size = sizeof r;
        CHECK_ST(gale_result_get(b, i, &r), GALE_OK);
        CHECK_MSG(tu_result_eq(&r, &s->ref[i], 1, what), "%s: result %zu differs from the reference", what, i);
        cells += r.cells;
    }
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    CHECK_ST(gale_batch_stats(b, &st), GALE_OK);
    CHECK_EQ_I64(st.tasks, s->n);
    CHECK_EQ_I64(st.cells, cells);
}

static void sleep_us(long us)
{
    struct timespec ts;
    ts.tv_sec = us / 1000000;
    ts.tv_nsec = (us % 1000000) * 1000;
    nanosleep(&ts, NULL);
}

/* Polls until the batch is no longer running, the way the mode says. */
static gale_status poll_until_done(gale_batch *b, int mode)
{
    gale_status st;
    for (;;) {
        if (mode == 0) {
            st = gale_poll(b, 0);
            if (st == GALE_E_AGAIN) sleep_us(200);
        } else if (mode == 1) {
            st = gale_poll(b, 5);
        } else {
            st = gale_wait(b);
            CHECK_MSG(st != GALE_E_AGAIN, "gale_wait returned GALE_E_AGAIN");
        }
        if (st != GALE_E_AGAIN) return st;
    }
}

/* Worker of part 1: the batches t, t + N_THREADS, ... in groups of up to 3 in flight. */
static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg, j;
    int idx[3];
    gale_batch *b[3];
    int ng = 0;
    for (j = t; j < n_specs || ng > 0; j += N_THREADS) {
        int g;
        if (j < n_specs) {
            const spec *s = &specs[j];
            b[ng] = fill_batch(shared_ctx, s);
            idx[ng] = j;
            CHECK_ST(gale_submit(b[ng]), GALE_OK);
            if (s->cancel) CHECK_ST(gale_cancel(b[ng]), GALE_OK);
            ++ng;
            if (ng < 3 && j + N_THREADS < n_specs) continue;
        }
        /* finish the group: round-robin polls, each batch with its own mode */
        for (g = 0; g < ng; ++g) {
            const spec *s = &specs[idx[g]];
            char what[64];
            gale_status st = poll_until_done(b[g], s->poll_mode);
            snprintf(what, sizeof what, "batch %d (thread %d)", idx[g], t);
            if (s->cancel) {
                CHECK_MSG(st == GALE_E_CANCELED || st == GALE_OK, "%s: cancelled batch polled %d", what, st);
                TU_LOCK();
                ++cancels_asked;
                cancels_seen += st == GALE_E_CANCELED;
                TU_UNLOCK();
            } else {
                CHECK_MSG(st == GALE_OK, "%s: poll gave %d (%s): %s", what, st, gale_status_string(st),
                          gale_last_error());
            }
            if (st == GALE_OK) check_results(b[g], s, what);
            CHECK_ST(gale_batch_destroy(b[g]), GALE_OK);
        }
        ng = 0;
        if (j >= n_specs) break;
    }
    return NULL;
}

/* Part 2: several threads on one batch. */
typedef struct shared_arg {
    gale_batch *b;
    const spec *s;
    int mode;
    gale_status final;
} shared_arg;

static void *shared_poller(void *p)
{
    shared_arg *a = (shared_arg *)p;
    char what[64];
    a->final = poll_until_done(a->b, a->mode);
    snprintf(what, sizeof what, "shared batch, poller mode %d", a->mode);
    if (a->final == GALE_OK) check_results(a->b, a->s, what);
    return NULL;
}

static void *canceller(void *p)
{
    shared_arg *a = (shared_arg *)p;
    sleep_us(2000);
    CHECK_ST(gale_cancel(a->b), GALE_OK);
    a->final = poll_until_done(a->b, 1);
    return NULL;
}

/* A big spec for the shared-batch parts (results via the reference context). */
static void make_big_spec(tu_rng *r, spec *s, gale_ctx *ref_ctx)
{
    size_t i;
    gale_batch *b;
    memset(s, 0, sizeof *s);
    s->match = 1;
    s->mismatch = -1;
    s->gap = -1;
    s->X = 150;
    s->dir = GALE_DIR_BOTH;
    s->npol = GALE_N_DNA5;
    s->n = (size_t)tu_scaled(300, 30);
    s->pairs = (tu_pair *)calloc(s->n, sizeof(tu_pair));
    s->tasks = (gale_task *)calloc(s->n, sizeof(gale_task));
    s->ref = (gale_result *)calloc(s->n, sizeof(gale_result));
    REQUIRE(s->pairs && s->tasks && s->ref);
    for (i = 0; i < s->n; ++i) {
        tu_pair_make(r, &s->pairs[i], tu_range(r, 500, 4000), tu_range(r, 10, 30), tu_unif(r) * 0.2, 0);
        tu_task_from_pair(&s->tasks[i], &s->pairs[i], (uint64_t)i);
    }
    b = fill_batch(ref_ctx, s);
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    for (i = 0; i < s->n; ++i) {
        s->ref[i].size = sizeof s->ref[i];
        REQUIRE_OK(gale_result_get(b, i, &s->ref[i]));
    }
    REQUIRE_OK(gale_batch_destroy(b));
}

static void free_spec(spec *s)
{
    size_t i;
    for (i = 0; i < s->n; ++i) tu_pair_free(&s->pairs[i]);
    free(s->pairs);
    free(s->tasks);
    free(s->ref);
}

int main(void)
{
    tu_rng rng;
    gale_ctx *ref_ctx = NULL;
    pthread_t th[N_THREADS];
    int i;
    size_t k;
    double t0;
    spec big;

    tu_rng_init(&rng, tu_seed("threads"));
    n_specs = (int)tu_scaled(N_THREADS * 40, N_THREADS * 4);
    specs = (spec *)calloc((size_t)n_specs, sizeof(spec));
    REQUIRE(specs != NULL);
    for (i = 0; i < n_specs; ++i) make_spec(&rng, &specs[i], 1);

    /* the reference: a separate single-threaded context, one batch after the other */
    REQUIRE_OK(tu_ctx_new(&ref_ctx, GALE_BACKEND_CPU, 1));
    t0 = tu_now();
    for (i = 0; i < n_specs; ++i) {
        gale_batch *b = fill_batch(ref_ctx, &specs[i]);
        REQUIRE_OK(gale_submit(b));
        REQUIRE_OK(gale_wait(b));
        for (k = 0; k < specs[i].n; ++k) {
            specs[i].ref[k].size = sizeof specs[i].ref[k];
            REQUIRE_OK(gale_result_get(b, k, &specs[i].ref[k]));
        }
        REQUIRE_OK(gale_batch_destroy(b));
    }
    printf("reference: %d batches in %.2f s\n", n_specs, tu_now() - t0);

    /* part 1: 8 threads, one shared context (CPU, 4 workers: more threads than
     * workers, so batches queue behind each other) */
    REQUIRE_OK(tu_ctx_new(&shared_ctx, GALE_BACKEND_CPU, 4));
    t0 = tu_now();
    for (i = 0; i < N_THREADS; ++i) REQUIRE(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) == 0);
    for (i = 0; i < N_THREADS; ++i) REQUIRE(pthread_join(th[i], NULL) == 0);
    printf("part 1: %d batches from %d threads in %.2f s; %d of %d cancel requests took effect\n", n_specs,
           N_THREADS, tu_now() - t0, cancels_seen, cancels_asked);

    /* part 2: three threads poll (one each way) and read one batch at once */
    make_big_spec(&rng, &big, ref_ctx);
    {
        shared_arg a[3];
        pthread_t pt[3];
        gale_batch *b = fill_batch(shared_ctx, &big);
        REQUIRE_OK(gale_submit(b));
        for (i = 0; i < 3; ++i) {
            a[i].b = b;
            a[i].s = &big;
            a[i].mode = i;
            a[i].final = -1;
            REQUIRE(pthread_create(&pt[i], NULL, shared_poller, &a[i]) == 0);
        }
        for (i = 0; i < 3; ++i) REQUIRE(pthread_join(pt[i], NULL) == 0);
        for (i = 0; i < 3; ++i) CHECK_ST(a[i].final, GALE_OK);
        CHECK_ST(gale_batch_destroy(b), GALE_OK);
    }

    /* part 3: one thread waits, another cancels; both see the same end */
    {
        int tries, cancelled = 0;
        for (tries = 0; tries < 4; ++tries) {
            shared_arg a[2];
            pthread_t pt[2];
            gale_batch *b = fill_batch(shared_ctx, &big);
            REQUIRE_OK(gale_submit(b));
            a[0].b = a[1].b = b;
            a[0].s = a[1].s = &big;
            a[0].mode = 2;
            a[1].mode = 1;
            a[0].final = a[1].final = -1;
            REQUIRE(pthread_create(&pt[0], NULL, shared_poller, &a[0]) == 0);
            REQUIRE(pthread_create(&pt[1], NULL, canceller, &a[1]) == 0);
            REQUIRE(pthread_join(pt[0], NULL) == 0);
            REQUIRE(pthread_join(pt[1], NULL) == 0);
            CHECK_ST2(a[0].final, GALE_E_CANCELED, GALE_OK);
            CHECK_MSG(a[0].final == a[1].final, "waiter saw %d, canceller saw %d", a[0].final, a[1].final);
            cancelled += a[0].final == GALE_E_CANCELED;
            CHECK_ST(gale_batch_destroy(b), GALE_OK);
        }
        printf("part 3: %d of 4 cancels from another thread took effect\n", cancelled);
    }
    free_spec(&big);

    CHECK_ST(gale_ctx_destroy(shared_ctx), GALE_OK);
    CHECK_ST(gale_ctx_destroy(ref_ctx), GALE_OK);
    for (i = 0; i < n_specs; ++i) free_spec(&specs[i]);
    free(specs);
    return tu_finish("threads");
}
