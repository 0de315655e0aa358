/*
 * cancel.c - prompt cancellation (gale.h, gale_cancel; issue 13) on whatever backend
 * GALE_BACKEND_AUTO picks: the CPU here, the GPU on the device machine. With the
 * argument "cuda" (suite 'gpu', test cancel_gpu) it asks for the CUDA backend and
 * exits 77 (skipped) where there is none.
 *
 * Tasks that would run for minutes (wavefront alignments of unrelated 50 and 200 kbp
 * sequences, in both scopes and for GALE_EDIT; X-drop with X = 2^29 on 200 kbp of
 * near-identical sequence, whose band grows to the whole matrix) are cancelled a few
 * milliseconds after submit. Then:
 *   - gale_poll returns GALE_E_CANCELED (waited up to 30 s: this is not a timing test;
 *     the latency is printed, and measured by tools/bench/cancel_latency);
 *   - every one of those tasks reads back as cancelled: gale_result_get and
 *     gale_result_get_range give GALE_E_CANCELED and a result that is 0 but for its
 *     size, user and flags = GALE_RF_CANCELED; gale_result_cigar gives GALE_E_CANCELED,
 *     NULL and 0; gale_batch_stats gives GALE_E_CANCELED;
 *   - in a batch of one such task and many small ones, cancelled once the small ones
 *     have had time to finish, each small task reads back either as cancelled or
 *     exactly as a CPU context computes it without any cancel (score, coordinates,
 *     cells, CIGAR), and the long one as cancelled;
 *   - gale_batch_destroy of a running batch and gale_ctx_destroy of a context with
 *     such batches in flight return (an alarm ends the test if one hangs).
 *
 * On the GPU the long tasks run in the kernels first (the X-drop band within the
 * scratch tier, the wavefronts up to their score budget, past which they would be
 * rescued on the CPU), so what stops them there is the kernels' own poll of the
 * device's cancel word (cuda/common/cancel.cuh); on the CPU, the kernels' poll of the
 * batch's cancel flag.
 *
 * Suite 'unit' (and 'gpu'). Random sequences from a printed seed (GALE_TEST_SEED reproduces them);
 * GALE_TEST_SCALE scales the number of small pairs.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gale.h"
#include "testutil.h"

/* What a cancel may take before the test calls it a hang (gale.h promises ~100 ms). */
#define GENEROUS_S 30

static tu_rng rng;

static void sleep_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* A call that must return (destroy): SIGALRM's default action ends the process if it
 * has not within GENEROUS_S, so a hang fails the test instead of running for minutes. */
static void watchdog_on(void) { alarm(GENEROUS_S); }
static void watchdog_off(void) { alarm(0); }

/* One task of the batches below (tu_pair: a wavefront pair has an empty seed). */
typedef tu_pair job;

/* Two unrelated random sequences of len bases (a wavefront alignment of score ~len). */
static job unrelated(int64_t len)
{
    job j;
    memset(&j, 0, sizeof j);
    j.h = tu_random_seq(&rng, len);
    j.v = tu_random_seq(&rng, len);
    j.h_len = j.v_len = len;
    return j;
}

/* An X-drop pair of about len bases diverged by `rate` around a 20-base seed. */
static job seeded(int64_t len, double rate)
{
    job j;
    tu_pair_make(&rng, &j, len, 20, rate, 0);
    return j;
}

static void add_job(gale_batch *b, const job *j, uint64_t user)
{
    gale_task t;
    tu_task_from_pair(&t, j, user);
    REQUIRE_OK(gale_batch_add(b, &t));
}

/* gale_batch_destroy or gale_ctx_destroy (b NULL) with work in flight: must return. */
static double timed_destroy(gale_ctx *ctx, gale_batch *b)
{
    const double t0 = tu_now();
    watchdog_on();
    CHECK_ST(b ? gale_batch_destroy(b) : gale_ctx_destroy(ctx), GALE_OK);
    watchdog_off();
    return tu_now() - t0;
}

/* A batch of `kind` (WFA: scope as given, default penalties; X-drop: X = 2^29, the
 * largest, so that nothing is dropped on near-identical sequences). */
static gale_batch *new_batch(gale_ctx *ctx, int kind, int scope)
{
    gale_batch *b = NULL;
    REQUIRE_OK(gale_batch_create(ctx, kind, &b));
    if (kind == GALE_XDROP)
        REQUIRE_OK(gale_batch_set(b, GALE_P_XDROP, (int64_t)1 << 29));
    else
        REQUIRE_OK(gale_batch_set(b, GALE_P_SCOPE, scope));
    return b;
}

/* Cancels b and waits for it: GALE_E_CANCELED within GENEROUS_S (else the test stops
 * here: destroying it would wait for the whole run). Returns the seconds waited. */
static double cancel_and_wait(gale_batch *b, const char *what)
{
    double t0 = tu_now(), dt;
    gale_status st;
    CHECK_ST(gale_cancel(b), GALE_OK);
    st = gale_poll(b, GENEROUS_S * 1000);
    dt = tu_now() - t0;
    if (st == GALE_E_AGAIN) {
        tu_fail_at(__FILE__, __LINE__, "%s: still running %d s after gale_cancel", what, GENEROUS_S);
        exit(tu_finish("cancel"));
    }
    CHECK_MSG(st == GALE_E_CANCELED, "%s: gale_poll after the cancel gave %d (%s: %s), expected GALE_E_CANCELED", what,
              st, gale_status_string(st), gale_last_error());
    return dt;
}

/* Result i of a cancelled batch reads back as a cancelled task, alike through
 * gale_result_get, gale_result_get_range (one element) and gale_result_cigar. */
static void check_cancelled(gale_batch *b, size_t i, uint64_t user, int has_cigar, const char *what)
{
    gale_result r, one;
    const uint32_t *cigar = (const uint32_t *)&r; /* anything but NULL */
    size_t n_ops = 7;
    CHECK_ST(tu_result_fetch(b, i, &r), GALE_E_CANCELED);
    CHECK_MSG(r.size == sizeof r && r.flags == GALE_RF_CANCELED && r.user == user && r.score == 0 &&
                  r.score_left == 0 && r.score_right == 0 && r.h_begin == 0 && r.h_end == 0 && r.v_begin == 0 &&
                  r.v_end == 0 && r.cells == 0,
              "%s: task %zu: flags 0x%x user %llu score %lld cells %llu: not a cancelled task's result", what, i,
              r.flags, (unsigned long long)r.user, (long long)r.score, (unsigned long long)r.cells);
    memset(&one, 0xA5, sizeof one);
    one.size = sizeof one;
    CHECK_ST(gale_result_get_range(b, i, 1, &one), GALE_E_CANCELED);
    CHECK(memcmp(&one, &r, sizeof r) == 0);
    if (has_cigar) {
        CHECK_ST(gale_result_cigar(b, i, &cigar, &n_ops), GALE_E_CANCELED);
        CHECK(cigar == NULL && n_ops == 0);
    }
}

/* ------------------------------------------------------------------ */
/* Long tasks, cancelled while they run                                 */
/* ------------------------------------------------------------------ */

static void test_long(gale_ctx *ctx, int kind, int scope, const job *jobs, size_t n, const char *what)
{
    gale_batch *b = new_batch(ctx, kind, scope);
    gale_result *all = (gale_result *)calloc(n, sizeof(gale_result));
    gale_stats stats;
    size_t i;
    double dt;
    REQUIRE(all != NULL);
    for (i = 0; i < n; ++i) add_job(b, &jobs[i], 100 + i);
    REQUIRE_OK(gale_submit(b));
    sleep_ms(30); /* the tasks are running (or about to) */
    dt = cancel_and_wait(b, what);
    printf("  %-40s cancelled in %.1f ms\n", what, dt * 1e3);
    CHECK_ST(gale_wait(b), GALE_E_CANCELED); /* stays so */
    all[0].size = sizeof(gale_result);
    CHECK_ST(gale_result_get_range(b, 0, n, all), GALE_E_CANCELED);
    for (i = 0; i < n; ++i) {
        CHECK_MSG(all[i].flags == GALE_RF_CANCELED, "%s: task %zu has flags 0x%x after the cancel", what, i,
                  all[i].flags);
        check_cancelled(b, i, 100 + i, kind != GALE_XDROP, what);
    }
    memset(&stats, 0, sizeof stats);
    stats.size = sizeof stats;
    CHECK_ST(gale_batch_stats(b, &stats), GALE_E_CANCELED);
    CHECK_ST(gale_submit(b), GALE_E_STATE);
    timed_destroy(NULL, b);
    free(all);
}

/* ------------------------------------------------------------------ */
/* Small tasks finished before the cancel, beside a long one            */
/* ------------------------------------------------------------------ */

/* The small pairs' results and CIGARs from a CPU context, no cancel. */
typedef struct reference {
    gale_result *r;
    uint32_t **cigar;
    size_t *n_ops;
} reference;

static reference cpu_reference(const job *small, size_t n)
{
    reference ref;
    gale_ctx *cpu = NULL;
    gale_batch *b;
    size_t i;
    ref.r = (gale_result *)calloc(n, sizeof(gale_result));
    ref.cigar = (uint32_t **)calloc(n, sizeof(uint32_t *));
    ref.n_ops = (size_t *)calloc(n, sizeof(size_t));
    REQUIRE(ref.r && ref.cigar && ref.n_ops);
    REQUIRE_OK(tu_ctx_new(&cpu, GALE_BACKEND_CPU, 2));
    b = new_batch(cpu, GALE_WFA, GALE_SCOPE_ALIGNMENT);
    for (i = 0; i < n; ++i) add_job(b, &small[i], 1 + i);
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    for (i = 0; i < n; ++i) {
        const uint32_t *c;
        REQUIRE_OK(tu_result_fetch_cigar(b, i, &ref.r[i], &c, &ref.n_ops[i]));
        ref.cigar[i] = (uint32_t *)malloc(ref.n_ops[i] * sizeof(uint32_t) + 1);
        REQUIRE(ref.cigar[i] != NULL);
        if (ref.n_ops[i]) memcpy(ref.cigar[i], c, ref.n_ops[i] * sizeof(uint32_t));
    }
    REQUIRE_OK(gale_batch_destroy(b));
    REQUIRE_OK(gale_ctx_destroy(cpu));
    return ref;
}

static void reference_free(reference *ref, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) free(ref->cigar[i]);
    free(ref->cigar);
    free(ref->n_ops);
    free(ref->r);
}

/* Task 0 is the long pair, tasks 1..n the small ones (user = index). Returns how many
 * small ones had finished. */
static size_t mixed_once(gale_ctx *ctx, const job *big, const job *small, size_t n, const reference *ref, long wait_ms)
{
    gale_batch *b = new_batch(ctx, GALE_WFA, GALE_SCOPE_ALIGNMENT);
    size_t i, finished = 0;
    double dt;
    add_job(b, big, 0);
    for (i = 0; i < n; ++i) add_job(b, &small[i], 1 + i);
    REQUIRE_OK(gale_submit(b));
    sleep_ms(wait_ms);
    dt = cancel_and_wait(b, "mixed batch");
    check_cancelled(b, 0, 0, 1, "mixed batch, the long pair");
    for (i = 0; i < n; ++i) {
        gale_result r;
        const uint32_t *c = NULL;
        size_t n_ops = 0;
        const gale_status st = tu_result_fetch_cigar(b, 1 + i, &r, &c, &n_ops);
        if (st == GALE_E_CANCELED) {
            check_cancelled(b, 1 + i, 1 + i, 1, "mixed batch, a small pair");
            continue;
        }
        CHECK_ST(st, GALE_OK);
        if (st != GALE_OK) continue;
        ++finished;
        /* the GPU may have rescued it on the CPU (GALE_RF_RESCUED): same result */
        CHECK_MSG((r.flags & ~(uint32_t)GALE_RF_RESCUED) == 0, "small pair %zu: flags 0x%x", i, r.flags);
        CHECK(tu_result_eq(&r, &ref->r[i], 0, "a small pair finished before the cancel, against the CPU"));
        CHECK_MSG(n_ops == ref->n_ops[i] && (n_ops == 0 || memcmp(c, ref->cigar[i], n_ops * sizeof *c) == 0),
                  "small pair %zu: CIGAR of %zu ops differs from the CPU's (%zu ops)", i, n_ops, ref->n_ops[i]);
    }
    printf("  mixed batch (1 long + %zu small, cancelled after %ld ms): %zu small finished first, cancelled in "
           "%.1f ms\n",
           n, wait_ms, finished, dt * 1e3);
    timed_destroy(NULL, b);
    return finished;
}

static void test_mixed(gale_ctx *ctx)
{
    const size_t n = (size_t)tu_scaled(1500, 60);
    job big = unrelated(100000);
    job *small = (job *)calloc(n, sizeof(job));
    reference ref;
    size_t i, finished = 0;
    long wait_ms = 300;
    int tries;
    tu_mut m = tu_mut_rate(0.08);
    REQUIRE(small != NULL);
    for (i = 0; i < n; ++i) {
        tu_diverged(&rng, tu_range(&rng, 100, 500), &m, &small[i].h, &small[i].h_len, &small[i].v, &small[i].v_len);
    }
    ref = cpu_reference(small, n);
    /* Whether a small pair finishes before the cancel is up to the machine: give them
     * longer until some did (the checks hold for any number). */
    for (tries = 0; tries < 4 && finished == 0; ++tries, wait_ms *= 3) finished = mixed_once(ctx, &big, small, n, &ref, wait_ms);
    CHECK_MSG(finished > 0, "no small pair finished before a cancel %ld ms after submit", wait_ms / 3);
    reference_free(&ref, n);
    for (i = 0; i < n; ++i) tu_pair_free(&small[i]);
    free(small);
    tu_pair_free(&big);
}

/* ------------------------------------------------------------------ */
/* Destroy with work in flight                                          */
/* ------------------------------------------------------------------ */

static void test_destroy(int backend, const job *wfa, const job *xd)
{
    gale_ctx *ctx = NULL;
    gale_batch *a, *b, *c;
    REQUIRE_OK(tu_ctx_new(&ctx, backend, 2));
    /* gale_batch_destroy of a running batch */
    a = new_batch(ctx, GALE_WFA, GALE_SCOPE_ALIGNMENT);
    add_job(a, wfa, 0);
    REQUIRE_OK(gale_submit(a));
    sleep_ms(30);
    printf("  gale_batch_destroy of a running batch returned in %.1f ms\n", timed_destroy(ctx, a) * 1e3);
    /* gale_ctx_destroy with two batches in flight (and one never submitted) */
    b = new_batch(ctx, GALE_WFA, GALE_SCOPE_SCORE);
    add_job(b, wfa, 0);
    c = new_batch(ctx, GALE_XDROP, 0);
    add_job(c, xd, 0);
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_submit(c));
    (void)new_batch(ctx, GALE_EDIT, GALE_SCOPE_ALIGNMENT);
    sleep_ms(30);
    printf("  gale_ctx_destroy with 2 long batches in flight returned in %.1f ms\n", timed_destroy(ctx, NULL) * 1e3);
}

int main(int argc, char **argv)
{
    gale_ctx *ctx = NULL;
    int backend = 0, want = GALE_BACKEND_AUTO;
    job wfa[2], xd[1];
    uint64_t seed;
    if (argc > 1 && strcmp(argv[1], "cuda") == 0) {
        if (gale_cuda_device_count() == 0) {
            printf("cancel: no CUDA device: skipped\n");
            return 77;
        }
        want = GALE_BACKEND_CUDA;
    } else if (argc > 1) {
        fprintf(stderr, "usage: cancel [cuda]\n");
        return 2;
    }
    seed = tu_seed("cancel");
    tu_rng_init(&rng, seed);
    REQUIRE_OK(tu_ctx_new(&ctx, want, 2));
    REQUIRE_OK(gale_ctx_backend(ctx, &backend));
    printf("backend %s, 2 CPU threads\n", backend == GALE_BACKEND_CUDA ? "CUDA" : "CPU");

    wfa[0] = unrelated(50000);
    wfa[1] = unrelated(200000);
    xd[0] = seeded(200000, 0.01);
    test_long(ctx, GALE_WFA, GALE_SCOPE_ALIGNMENT, wfa, 2, "WFA 50 + 200 kbp unrelated, CIGAR");
    test_long(ctx, GALE_WFA, GALE_SCOPE_SCORE, wfa, 2, "WFA 50 + 200 kbp unrelated, score");
    test_long(ctx, GALE_EDIT, GALE_SCOPE_ALIGNMENT, wfa, 2, "edit 50 + 200 kbp unrelated");
    test_long(ctx, GALE_XDROP, 0, xd, 1, "X-drop 200 kbp, X = 2^29");
    test_mixed(ctx);
    test_destroy(want, &wfa[1], &xd[0]);
    REQUIRE_OK(gale_ctx_destroy(ctx));
    tu_pair_free(&wfa[0]);
    tu_pair_free(&wfa[1]);
    tu_pair_free(&xd[0]);
    return tu_finish("cancel");
}
