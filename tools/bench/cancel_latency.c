/*
 * cancel_latency - how promptly gale stops work in flight (issue 13): per workload, the
 * time from gale_cancel to the return of gale_wait, and from the call of
 * gale_ctx_destroy (with the batch in flight) to its return.
 *
 *   cancel_latency [--backend cpu|cuda|auto] [--repeat R] [--delay MS] [--threads N]
 *                  [--device-memory MIB]
 *
 * Workloads, one task each, run for minutes if not stopped: wavefront alignment
 * (GALE_WFA, default penalties) of two unrelated random sequences of 50 kbp and of
 * 200 kbp, with CIGAR and score only; X-drop with X = 2^29 (nothing is dropped, the
 * band grows to the whole matrix) on 200 kbp of sequence 1% diverged around a seed.
 * Each is submitted, left running --delay ms (default 200), then cancelled (or its
 * context destroyed). R runs (default 5) of each; the median and the largest time are
 * printed, in ms. A run whose task finished before the cancel is reported as such (it
 * measures nothing). The context of the cancel runs is made once per workload; each
 * destroy run makes its own.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gale.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static void check(gale_status s, const char *what)
{
    if (s != GALE_OK) {
        fprintf(stderr, "cancel_latency: %s: %s (%s)\n", what, gale_status_string(s), gale_last_error());
        exit(1);
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static char *random_seq(int64_t n)
{
    char *s = (char *)malloc((size_t)n + 1);
    int64_t i;
    if (!s) exit(2);
    for (i = 0; i < n; ++i) s[i] = "ACGT"[next_u64() & 3];
    s[n] = 0;
    return s;
}

/* A copy of s with about rate of its bases substituted. */
static char *diverged(const char *s, int64_t n, double rate)
{
    char *d = (char *)malloc((size_t)n + 1);
    int64_t i;
    if (!d) exit(2);
    memcpy(d, s, (size_t)n + 1);
    for (i = 0; i < n; ++i)
        if ((double)(next_u64() >> 11) * 0x1.0p-53 < rate) d[i] = "ACGT"[next_u64() & 3];
    return d;
}

typedef struct workload {
    const char *name;
    int kind, scope;
    int64_t len;
    char *h, *v;
    int64_t seed_at; /* X-drop: a 20-base seed at h[seed_at] = v[seed_at] */
} workload;

typedef struct options {
    int backend, threads, repeat;
    long delay_ms;
    uint64_t device_memory;
} options;

static gale_ctx *new_ctx(const options *o)
{
    gale_ctx_opts opts;
    gale_ctx *ctx = NULL;
    gale_ctx_opts_init(&opts);
    opts.backend = o->backend;
    opts.threads = o->threads;
    opts.device_memory = o->device_memory;
    check(gale_ctx_create(&ctx, &opts), "gale_ctx_create");
    return ctx;
}

static gale_batch *submit(gale_ctx *ctx, const workload *w)
{
    gale_batch *b = NULL;
    gale_task t;
    check(gale_batch_create(ctx, w->kind, &b), "gale_batch_create");
    if (w->kind == GALE_XDROP) check(gale_batch_set(b, GALE_P_XDROP, (int64_t)1 << 29), "gale_batch_set");
    else check(gale_batch_set(b, GALE_P_SCOPE, w->scope), "gale_batch_set");
    gale_task_init(&t);
    t.h = w->h;
    t.h_len = w->len;
    t.v = w->v;
    t.v_len = w->len;
    if (w->kind == GALE_XDROP) {
        t.h_begin = t.v_begin = w->seed_at;
        t.h_end = t.v_end = w->seed_at + 20;
    }
    check(gale_batch_add(b, &t), "gale_batch_add");
    check(gale_submit(b), "gale_submit");
    return b;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* "median / max" of the n times (sorted here), or a note when none. */
static void summary(char *out, size_t cap, double *t, int n, int finished)
{
    if (n == 0) {
        snprintf(out, cap, "- (all %d finished first)", finished);
        return;
    }
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    if (finished)
        snprintf(out, cap, "%.1f / %.1f (%d finished first)", n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]),
                 t[n - 1], finished);
    else
        snprintf(out, cap, "%.1f / %.1f", n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]), t[n - 1]);
}

static void measure(const options *o, const workload *w, const char *backend_name)
{
    double *tc = (double *)calloc((size_t)o->repeat, sizeof(double));
    double *td = (double *)calloc((size_t)o->repeat, sizeof(double));
    int r, nc = 0, nd = 0, fc = 0, fd = 0;
    char sc[96], sd[96];
    gale_ctx *ctx = new_ctx(o);
    if (!tc || !td) exit(2);
    for (r = 0; r < o->repeat; ++r) {
        gale_batch *b = submit(ctx, w);
        gale_status st;
        double t0;
        sleep_ms(o->delay_ms);
        t0 = now_ms();
        check(gale_cancel(b), "gale_cancel");
        st = gale_wait(b);
        if (st == GALE_E_CANCELED) tc[nc++] = now_ms() - t0;
        else if (st == GALE_OK) ++fc;
        else check(st, "gale_wait");
        check(gale_batch_destroy(b), "gale_batch_destroy");
    }
    check(gale_ctx_destroy(ctx), "gale_ctx_destroy");
    for (r = 0; r < o->repeat; ++r) {
        gale_ctx *c = new_ctx(o);
        gale_batch *b = submit(c, w);
        double t0;
        sleep_ms(o->delay_ms);
        /* finished already? then the destroy measures nothing */
        if (gale_poll(b, 0) != GALE_E_AGAIN) {
            ++fd;
            check(gale_ctx_destroy(c), "gale_ctx_destroy");
            continue;
        }
        t0 = now_ms();
        check(gale_ctx_destroy(c), "gale_ctx_destroy");
        td[nd++] = now_ms() - t0;
    }
    summary(sc, sizeof sc, tc, nc, fc);
    summary(sd, sizeof sd, td, nd, fd);
    printf("| %s | %s | %ld | %s | %s |\n", w->name, backend_name, o->delay_ms, sc, sd);
    fflush(stdout);
    free(tc);
    free(td);
}

static void usage(void)
{
    fprintf(stderr, "usage: cancel_latency [--backend cpu|cuda|auto] [--repeat R] [--delay MS] [--threads N] "
                    "[--device-memory MIB]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    options o = {GALE_BACKEND_CPU, 0, 5, 200, 0};
    workload w[5];
    int i, backend = 0;
    gale_ctx *probe;
    const char *name;
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (i + 1 >= argc) usage();
        if (!strcmp(a, "--backend")) {
            const char *v = argv[++i];
            o.backend = !strcmp(v, "cpu") ? GALE_BACKEND_CPU : !strcmp(v, "cuda") ? GALE_BACKEND_CUDA
                        : !strcmp(v, "auto") ? GALE_BACKEND_AUTO : -1;
            if (o.backend < 0) usage();
        } else if (!strcmp(a, "--repeat")) {
            o.repeat = atoi(argv[++i]);
        } else if (!strcmp(a, "--delay")) {
            o.delay_ms = atol(argv[++i]);
        } else if (!strcmp(a, "--threads")) {
            o.threads = atoi(argv[++i]);
        } else if (!strcmp(a, "--device-memory")) {
            o.device_memory = (uint64_t)strtoull(argv[++i], NULL, 10) << 20;
        } else {
            usage();
        }
    }
    if (o.repeat < 1 || o.delay_ms < 0) usage();
    probe = new_ctx(&o);
    check(gale_ctx_backend(probe, &backend), "gale_ctx_backend");
    check(gale_ctx_destroy(probe), "gale_ctx_destroy");
    name = backend == GALE_BACKEND_CUDA ? "cuda" : "cpu";

    memset(w, 0, sizeof w);
    w[0] = (workload){"WFA 50 kbp unrelated, CIGAR", GALE_WFA, GALE_SCOPE_ALIGNMENT, 50000, NULL, NULL, 0};
    w[1] = (workload){"WFA 200 kbp unrelated, CIGAR", GALE_WFA, GALE_SCOPE_ALIGNMENT, 200000, NULL, NULL, 0};
    w[2] = (workload){"WFA 50 kbp unrelated, score", GALE_WFA, GALE_SCOPE_SCORE, 50000, NULL, NULL, 0};
    w[3] = (workload){"WFA 200 kbp unrelated, score", GALE_WFA, GALE_SCOPE_SCORE, 200000, NULL, NULL, 0};
    w[4] = (workload){"X-drop 200 kbp 1% diverged, X = 2^29", GALE_XDROP, 0, 200000, NULL, NULL, 100000};
    for (i = 0; i < 2; ++i) {
        w[i].h = random_seq(w[i].len);
        w[i].v = random_seq(w[i].len);
        w[i + 2].h = w[i].h; /* the score-only workloads align the same pairs */
        w[i + 2].v = w[i].v;
    }
    w[4].h = random_seq(w[4].len);
    w[4].v = diverged(w[4].h, w[4].len, 0.01);
    memcpy(w[4].v + w[4].seed_at, w[4].h + w[4].seed_at, 20); /* the seed matches */

    printf("cancel_latency: gale %s, backend %s, threads %d (0: one per core), %d runs each, cancel %ld ms after "
           "submit\n\n",
           gale_version_string(), name, o.threads, o.repeat, o.delay_ms);
    printf("| workload | backend | delay ms | gale_cancel -> gale_wait ms (median / max) | gale_ctx_destroy ms "
           "(median / max) |\n|---|---|---|---|---|\n");
    for (i = 0; i < 5; ++i) measure(&o, &w[i], name);
    for (i = 0; i < 5; ++i) {
        if (i == 2 || i == 3) continue; /* shared with 0 and 1 */
        free(w[i].h);
        free(w[i].v);
    }

    return 0;
}
