/*
 * xdrop_gpu.c - the CUDA backend against the CPU backend, bit for bit.
 *
 * Suite 'gpu'. Exits 77 (meson: SKIP) when there is no usable CUDA device:
 * gale_cuda_device_count() == 0, or a CUDA context cannot be created with
 * GALE_E_UNSUPPORTED. Any other failure to create one is a test failure.
 *
 *   xdrop_gpu cases    random pairs like the oracle's (lengths 1..10,000, edit
 *                      rates 0..30%, X 0..5000, random schemes including
 *                      mismatch < gap and large scores, the three alphabet policies, N runs,
 *                      lowercase, all directions; >= 10,000 pairs at scale 1),
 *                      fixed edge cases, long pairs (200 kbp; a band wider than
 *                      any GPU block, with a huge X). Each batch runs on a CUDA
 *                      context and on a CPU context: every result field must be
 *                      equal (cells too), flags excepted. Then everything again
 *                      on a CUDA context with a tiny device memory budget, which
 *                      forces CPU rescue: same results, at least one result
 *                      flagged GALE_RF_RESCUED, stats.rescued = flagged results;
 *                      and a batch much larger than that budget (streaming).
 *   xdrop_gpu threads  4 threads submit batches to one CUDA context at once;
 *                      every result equals the CPU's.
 *
 * GPU batch timings are printed (informational, not asserted).
 * Random cases come from a printed seed (GALE_TEST_SEED reproduces it); the
 * number of cases scales with GALE_TEST_SCALE; GALE_TEST_LONG=0 leaves out the long
 * pairs and wide bands (tools/device/run.sh sanitize, under racecheck).
 *
 * GALE_GPU_TEST_FAKE=1 replaces the CUDA context by a second CPU context: a
 * self-check of this harness on a machine without GPU (never used by meson;
 * the rescue assertions are then skipped and the run says so).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

static pthread_mutex_t tu_mutex = PTHREAD_MUTEX_INITIALIZER;
#define TU_LOCK() pthread_mutex_lock(&tu_mutex)
#define TU_UNLOCK() pthread_mutex_unlock(&tu_mutex)
#include "testutil.h"

#define SKIP 77

static int fake_gpu = 0;

/* ------------------------------------------------------------------ */
/* Batches of cases                                                     */
/* ------------------------------------------------------------------ */

typedef struct cbatch {
    char label[96];
    int64_t match, mismatch, gap, X;
    int dir, npol;
    size_t n, cap;
    tu_pair *pairs;     /* owned sequences (NULL h/v entries for borrowed ones) */
    gale_task *tasks;
    gale_result *cpu;   /* CPU backend results */
} cbatch;

typedef struct cset {
    cbatch *b;
    size_t n, cap;
} cset;

static cbatch *cset_new(cset *s, const char *label)
{
    cbatch *b;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->b = (cbatch *)realloc(s->b, s->cap * sizeof(cbatch));
        REQUIRE(s->b != NULL);
    }
    b = &s->b[s->n++];
    memset(b, 0, sizeof *b);
    snprintf(b->label, sizeof b->label, "%s", label);
    b->match = 1;
    b->mismatch = -1;
    b->gap = -1;
    b->X = 100;
    b->dir = GALE_DIR_BOTH;
    b->npol = GALE_N_DNA5;
    return b;
}

/* Adds a pair (the batch takes ownership of its buffers). */
static void cb_add(cbatch *b, tu_pair *p, uint64_t user)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 16;
        b->pairs = (tu_pair *)realloc(b->pairs, b->cap * sizeof(tu_pair));
        b->tasks = (gale_task *)realloc(b->tasks, b->cap * sizeof(gale_task));
        REQUIRE(b->pairs && b->tasks);
    }
    b->pairs[b->n] = *p;
    tu_task_from_pair(&b->tasks[b->n], &b->pairs[b->n], user);
    ++b->n;
}

/* Adds a task whose sequences are owned elsewhere (edge cases share them). */
static void cb_add_borrowed(cbatch *b, const char *h, int64_t hl, const char *v, int64_t vl, int64_t hb,
                            int64_t vb, int64_t k, uint64_t user)
{
    tu_pair p;
    memset(&p, 0, sizeof p);
    cb_add(b, &p, user);
    b->pairs[b->n - 1].h = NULL; /* not owned */
    b->pairs[b->n - 1].v = NULL;
    {
        gale_task *t = &b->tasks[b->n - 1];
        t->h = h;
        t->h_len = hl;
        t->v = v;
        t->v_len = vl;
        t->h_begin = hb;
        t->h_end = hb + k;
        t->v_begin = vb;
        t->v_end = vb + k;
    }
}

static uint64_t cb_bases(const cbatch *b)
{
    uint64_t s = 0;
    size_t i;
    for (i = 0; i < b->n; ++i) s += (uint64_t)(b->tasks[i].h_len + b->tasks[i].v_len);
    return s;
}

static void cb_free(cbatch *b)
{
    size_t i;
    for (i = 0; i < b->n; ++i) tu_pair_free(&b->pairs[i]);
    free(b->pairs);
    free(b->tasks);
    free(b->cpu);
}

static gale_batch *cb_make(gale_ctx *ctx, const cbatch *c)
{
    gale_batch *b = NULL;
    size_t i;
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    tu_xdrop_settings(b, c->match, c->mismatch, c->gap, c->X, c->dir, c->npol);
    for (i = 0; i < c->n; ++i) {
        gale_status st = gale_batch_add(b, &c->tasks[i]);
        if (st != GALE_OK) {
            tu_fail_at(__FILE__, __LINE__, "%s: task %zu rejected: %d (%s) %s", c->label, i, st,
                       gale_status_string(st), gale_last_error());
            exit(1);
        }
    }
    return b;
}

/* Fetches all results of a finished batch; checks the stats against them.
 * Returns the number of results flagged GALE_RF_RESCUED. */
static size_t fetch(gale_batch *b, const cbatch *c, gale_result *out, gale_stats *st_out, const char *backend)
{
    size_t i, flagged = 0;
    uint64_t cells = 0;
    gale_stats st;
    for (i = 0; i < c->n; ++i) {
        memset(&out[i], 0x77, sizeof out[i]);
        out[i].size = sizeof out[i];
        REQUIRE_OK(gale_result_get(b, i, &out[i]));
        cells += out[i].cells;
        if (out[i].flags & GALE_RF_RESCUED) ++flagged;
        CHECK_MSG((out[i].flags & ~GALE_RF_RESCUED) == 0, "%s (%s): result %zu has unknown flags 0x%x", c->label,
                  backend, i, out[i].flags);
    }
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    REQUIRE_OK(gale_batch_stats(b, &st));
    CHECK_MSG(st.tasks == c->n, "%s (%s): stats.tasks %llu, batch has %zu", c->label, backend,
              (unsigned long long)st.tasks, c->n);
    CHECK_MSG(st.cells == cells, "%s (%s): stats.cells %llu, results sum to %llu", c->label, backend,
              (unsigned long long)st.cells, (unsigned long long)cells);
    CHECK_MSG(st.rescued == flagged, "%s (%s): stats.rescued %llu, %zu results flagged", c->label, backend,
              (unsigned long long)st.rescued, flagged);
    if (st_out) *st_out = st;
    return flagged;
}

/* Runs every batch of the set on the CPU context (all in flight at once) and
 * keeps the results as the reference. */
static void run_cpu(gale_ctx *cpu, cset *s)
{
    size_t i, j;
    gale_batch **bs = (gale_batch **)calloc(s->n, sizeof(gale_batch *));
    double t0 = tu_now();
    uint64_t cells = 0;
    REQUIRE(bs != NULL);
    for (i = 0; i < s->n; ++i) {
        bs[i] = cb_make(cpu, &s->b[i]);
        REQUIRE_OK(gale_submit(bs[i]));
    }
    for (i = 0; i < s->n; ++i) {
        cbatch *c = &s->b[i];
        gale_stats st;
        REQUIRE_OK(gale_wait(bs[i]));
        c->cpu = (gale_result *)calloc(c->n + 1, sizeof(gale_result));
        REQUIRE(c->cpu != NULL);
        CHECK_EQ_I64(fetch(bs[i], c, c->cpu, &st, "cpu"), 0);
        for (j = 0; j < c->n; ++j) CHECK_EQ_I64(c->cpu[j].flags, 0);
        cells += st.cells;
        REQUIRE_OK(gale_batch_destroy(bs[i]));
    }
    printf("  CPU reference: %zu batches, %.3g cells in %.2f s\n", s->n, (double)cells, tu_now() - t0);
    free(bs);
}

/* Runs every batch on ctx (a CUDA context) one after the other, compares with
 * the CPU results, prints timings; returns the number of rescued results. */
static size_t run_gpu(gale_ctx *ctx, cset *s, const char *name, int verbose)
{
    size_t i, j, rescued = 0, tasks = 0, mismatches = 0;
    double total = 0.0;
    uint64_t kernel = 0, cells = 0;
    for (i = 0; i < s->n; ++i) {
        cbatch *c = &s->b[i];
        gale_result *r = (gale_result *)calloc(c->n + 1, sizeof(gale_result));
        gale_stats st;
        gale_batch *b;
        double t0, dt;
        size_t flagged;
        gale_status ws;
        REQUIRE(r != NULL);
        b = cb_make(ctx, c);
        t0 = tu_now();
        REQUIRE_OK(gale_submit(b));
        ws = gale_wait(b);
        dt = tu_now() - t0;
        if (ws != GALE_OK) {
            tu_fail_at(__FILE__, __LINE__, "%s, %s: batch failed: %d (%s) %s", name, c->label, ws,
                       gale_status_string(ws), gale_last_error());
            REQUIRE_OK(gale_batch_destroy(b));
            free(r);
            continue;
        }
        flagged = fetch(b, c, r, &st, name);
        for (j = 0; j < c->n; ++j) {
            char what[320];
            snprintf(what, sizeof what, "%s, %s, task %zu (h_len %lld v_len %lld seed %lld/%lld k %lld)", name,
                     c->label, j, (long long)c->tasks[j].h_len, (long long)c->tasks[j].v_len,
                     (long long)c->tasks[j].h_begin, (long long)c->tasks[j].v_begin,
                     (long long)(c->tasks[j].h_end - c->tasks[j].h_begin));
            if (!tu_result_eq(&r[j], &c->cpu[j], 0, what)) {
                ++mismatches;
                if (mismatches <= 20)
                    tu_fail_at(__FILE__, __LINE__, "%s: GPU result differs from CPU (scheme %lld/%lld/%lld X %lld "
                               "dir %d npol %d)", what, (long long)c->match, (long long)c->mismatch,
                               (long long)c->gap, (long long)c->X, c->dir, c->npol);
                else
                    tu_fail_at(__FILE__, __LINE__, "(further differences not detailed)");
            }
        }
        rescued += flagged;
        tasks += c->n;
        total += dt;
        kernel += st.kernel_ns;
        cells += st.cells;
        if (verbose == 1 || (verbose == 2 && strncmp(c->label, "random", 6) != 0))
            printf("    %-44s %6zu tasks %10.3g cells %8.2f ms (kernels %8.2f ms) rescued %zu\n", c->label, c->n,
                   (double)st.cells, dt * 1e3, (double)st.kernel_ns * 1e-6, flagged);
        REQUIRE_OK(gale_batch_destroy(b));
        free(r);
    }
    printf("  %s: %zu batches, %zu tasks, %.3g cells: %.3f s wall, %.3f s in kernels (%.2f GCUPS wall), %zu rescued, "
           "%zu results differ\n",
           name, s->n, tasks, (double)cells, total, (double)kernel * 1e-9,
           total > 0 ? (double)cells / total * 1e-9 : 0.0, rescued, mismatches);
    return rescued;
}

/* ------------------------------------------------------------------ */
/* Case generation                                                      */
/* ------------------------------------------------------------------ */

/* A random scheme, X and policy for a batch; returns the length cap for its pairs. */
static int64_t random_params(tu_rng *r, cbatch *b)
{
    int64_t cap = 10000;
    uint64_t u = (uint64_t)tu_range(r, 0, 99);
    int64_t xu = tu_range(r, 0, 99);
    if (xu < 40)
        b->X = tu_range(r, 0, 20);
    else if (xu < 70)
        b->X = tu_range(r, 21, 100);
    else if (xu < 90)
        b->X = tu_range(r, 101, 1000);
    else
        b->X = tu_range(r, 1001, 5000);

    if (u < 30) { /* BELLA's */
        b->match = 1;
        b->mismatch = -1;
        b->gap = -1;
    } else if (u < 45) { /* mismatch below gap (SeqAn's int arithmetic wraps here) */
        if (tu_next(r) % 3 == 0) {
            b->match = 1;
            b->mismatch = -3;
            b->gap = -1;
        } else {
            b->match = tu_range(r, 1, 3);
            b->gap = -tu_range(r, 1, 3);
            b->mismatch = b->gap - tu_range(r, 1, 5);
        }
    } else if (u < 70) { /* general */
        b->match = tu_range(r, 1, 10);
        b->mismatch = -tu_range(r, 1, 10);
        b->gap = -tu_range(r, 1, 10);
    } else if (u < 80) { /* odd: mismatch >= 0, match <= 0 ... all within gale's bounds */
        b->match = tu_range(r, -2, 5);
        b->mismatch = tu_range(r, -5, 5);
        b->gap = -tu_range(r, 1, 5);
    } else if (u < 90) { /* large scores near gale's bounds; short pairs keep match * len <= 2^30 */
        b->match = tu_range(r, 1, 1 << 20);
        b->mismatch = -tu_range(r, 0, 1 << 20);
        b->gap = -tu_range(r, 1, 1 << 20);
        b->X = (tu_next(r) & 1) ? (1 << 29) : tu_range(r, 0, 1 << 29) / tu_range(r, 1, 1000);
        cap = 1000;
    } else { /* affine-free classics: 2/-4/-4, 1/-4/-2, 5/-4/-10 */
        static const int64_t sch[3][3] = {{2, -4, -4}, {1, -4, -2}, {5, -4, -10}};
        int k = (int)tu_range(r, 0, 2);
        b->match = sch[k][0];
        b->mismatch = sch[k][1];
        b->gap = sch[k][2];
    }
    /* keep the work of the CPU reference bounded: big X, shorter pairs */
    if (b->X > 1000 && cap > 2000) cap = 2000;
    else if (b->X > 100 && cap > 5000) cap = 5000;
    {
        int64_t d = tu_range(r, 0, 99);
        b->dir = d < 70 ? GALE_DIR_BOTH : d < 85 ? GALE_DIR_LEFT : GALE_DIR_RIGHT;
    }
    b->npol = (int)tu_range(r, 0, 2); /* GALE_N_DNA5, GALE_N_MISMATCH, GALE_N_BYTES */
    return cap;
}

static void random_pair(tu_rng *r, tu_pair *p, int64_t cap)
{
    int64_t len = tu_logrange(r, 1, cap), k, ku = tu_range(r, 0, 99);
    double rate;
    int64_t ru = tu_range(r, 0, 99);
    int opts = 0;
    if (ku < 70)
        k = tu_range(r, 1, len < 32 ? len : 32);
    else if (ku < 85)
        k = len; /* the seed is the whole sequence */
    else
        k = tu_logrange(r, 1, len);
    if (ru < 10)
        rate = 0.0;
    else if (ru < 92 || len > 2000)
        rate = tu_unif(r) * 0.30;
    else
        rate = 0.30 + tu_unif(r) * 0.45; /* nearly unrelated flanks */
    if (tu_range(r, 0, 9) < 3) opts |= TU_LOWER;
    if (tu_range(r, 0, 9) < 3) opts |= TU_NRUNS;
    tu_pair_make(r, p, len, k, rate, opts);
}

static void add_random(tu_rng *r, cset *s, long npairs)
{
    long made = 0;
    int nb = 0;
    while (made < npairs) {
        char label[96];
        cbatch *b;
        long n = (long)tu_range(r, 1, 400), i;
        int64_t cap;
        if (n > npairs - made) n = npairs - made;
        snprintf(label, sizeof label, "random %d", nb++);
        b = cset_new(s, label);
        cap = random_params(r, b);
        snprintf(b->label, sizeof b->label, "random %d (%lld/%lld/%lld X %lld)", nb - 1, (long long)b->match,
                 (long long)b->mismatch, (long long)b->gap, (long long)b->X);
        for (i = 0; i < n; ++i) {
            tu_pair p;
            random_pair(r, &p, cap);
            cb_add(b, &p, tu_next(r));
        }
        made += n;
    }
}

/* Sequences shared by the edge cases (freed by free_edges). */
static char *edge_bufs[8];
static int n_edge_bufs;

static void free_edges(void)
{
    while (n_edge_bufs > 0) free(edge_bufs[--n_edge_bufs]);
}

static char *edge_seq(tu_rng *r, int64_t n, int mode)
{
    char *s = (char *)malloc((size_t)n + 1);
    int64_t i;
    REQUIRE(s != NULL);
    for (i = 0; i < n; ++i) s[i] = tu_base(r);
    if (mode == 1)
        for (i = 0; i < n; ++i) s[i] = (char)(s[i] - 'A' + 'a');
    if (mode == 2)
        for (i = 0; i < n; ++i) s[i] = 'N';
    s[n] = 0;
    edge_bufs[n_edge_bufs++] = s;
    return s;
}

static void add_edges(tu_rng *r, cset *s)
{
    static const int64_t schemes[][4] = {
        {1, -1, -1, 7}, {1, -1, -1, 0}, {1, -3, -1, 20}, {2, -3, -2, 0}, {5, -4, -3, 1 << 29}, {1, -1, -1, 5000},
    };
    int64_t L = 300;
    char *a = edge_seq(r, L, 0), *b = edge_seq(r, L, 0), *lo, *nn;
    const char *one_a = "A", *one_c = "C";
    size_t sc;
    int dir, pol;
    int64_t i;
    /* b: a with 10% substitutions */
    for (i = 0; i < L; ++i) b[i] = (tu_range(r, 0, 9) == 0) ? tu_base(r) : a[i];
    b[L] = 0;
    lo = edge_seq(r, L, 1);
    nn = edge_seq(r, L, 2);
    for (sc = 0; sc < sizeof schemes / sizeof schemes[0]; ++sc) {
        for (dir = GALE_DIR_LEFT; dir <= GALE_DIR_BOTH; ++dir) {
            for (pol = 0; pol <= GALE_N_BYTES; ++pol) {
                char label[96];
                cbatch *c;
                snprintf(label, sizeof label, "edges %lld/%lld/%lld X %lld dir %d npol %d", (long long)schemes[sc][0],
                         (long long)schemes[sc][1], (long long)schemes[sc][2], (long long)schemes[sc][3], dir, pol);
                c = cset_new(s, label);
                c->match = schemes[sc][0];
                c->mismatch = schemes[sc][1];
                c->gap = schemes[sc][2];
                c->X = schemes[sc][3];
                c->dir = dir;
                c->npol = pol;
                cb_add_borrowed(c, a, L, b, L, 0, 0, 10, 1);          /* seed at 0 on both */
                cb_add_borrowed(c, a, L, b, L, L - 10, L - 10, 10, 2); /* seed at the end on both */
                cb_add_borrowed(c, a, L, b, L, 0, 40, 10, 3);          /* left side empty on h only */
                cb_add_borrowed(c, a, L, b, L, 40, 0, 10, 4);          /* left side empty on v only */
                cb_add_borrowed(c, a, L, b, L, L - 5, 100, 5, 5);      /* right side empty on h only */
                cb_add_borrowed(c, a, L, b, L, 100, L - 5, 5, 6);      /* right side empty on v only */
                cb_add_borrowed(c, one_a, 1, one_a, 1, 0, 0, 1, 7);    /* length 1 */
                cb_add_borrowed(c, one_a, 1, one_c, 1, 0, 0, 1, 8);    /* length 1, seed bases differ */
                cb_add_borrowed(c, a, L, a, L, 0, 0, L, 9);            /* k = whole sequence */
                cb_add_borrowed(c, a, L, b, L, 150, 150, 1, 10);       /* k = 1 in the middle */
                cb_add_borrowed(c, a, 1, b, L, 0, 150, 1, 11);         /* h of length 1 */
                cb_add_borrowed(c, a, L, b, 1, 150, 0, 1, 12);         /* v of length 1 */
                cb_add_borrowed(c, a, 2, b, L, 1, 150, 1, 13);         /* one base left of the seed on h */
                cb_add_borrowed(c, a, L, lo, L, 120, 120, 20, 14);     /* lowercase v (unrelated) */
                cb_add_borrowed(c, lo, L, lo, L, 120, 120, 20, 15);    /* identical lowercase */
                cb_add_borrowed(c, nn, L, nn, L, 120, 120, 20, 16);    /* all N */
                cb_add_borrowed(c, a, L, nn, L, 120, 120, 20, 17);     /* bases vs N */
                cb_add_borrowed(c, a, L, b, L, 0, 0, 0, 18);           /* empty seed at 0 */
                cb_add_borrowed(c, a, 5, b, L, 2, 3, 3, 19);           /* short h */
                cb_add_borrowed(c, a, L, b, 5, 3, 2, 3, 20);           /* short v */
            }
        }
    }
}

/* Long pairs: 200 kbp, and a band wider than any GPU block could hold. */
static void add_long(tu_rng *r, cset *s)
{
    cbatch *c;
    tu_pair p;
    c = cset_new(s, "long: 200 kbp, 1% edits, X 100");
    tu_pair_make(r, &p, 200000, 17, 0.01, 0);
    cb_add(c, &p, 1);
    tu_pair_make(r, &p, 200000, 31, 0.05, TU_LOWER | TU_NRUNS);
    cb_add(c, &p, 2);
    tu_pair_make(r, &p, 200000, 200000, 0.0, 0); /* the whole pair is the seed */
    cb_add(c, &p, 3);

    c = cset_new(s, "long: 200 kbp identical flanks, X 50, 1/-3/-1");
    c->mismatch = -3;
    c->X = 50;
    tu_pair_make(r, &p, 200000, 20, 0.0, 0);
    cb_add(c, &p, 4);
    tu_pair_make(r, &p, 200000, 20, 0.02, 0);
    cb_add(c, &p, 5);

    /* Unrelated flanks with X = 2^29: nothing ever drops, so every anti-diagonal
     * is as wide as the shorter flank (~12,000 cells, wider than any block). */
    c = cset_new(s, "wide band: 24 kbp unrelated, X 2^29");
    c->X = 1 << 29;
    tu_pair_make(r, &p, 24000, 10, 0.75, 0);
    cb_add(c, &p, 6);

    /* A wide but not full band: related flanks, high divergence, large X. */
    c = cset_new(s, "wide band: 30 kbp at 25%, X 5000");
    c->X = 5000;
    tu_pair_make(r, &p, 30000, 20, 0.25, 0);
    cb_add(c, &p, 7);
}

/* One pair whose sequences alone exceed a device budget (rescue is the only way). */
static void add_huge(tu_rng *r, cset *s, uint64_t budget)
{
    cbatch *c;
    tu_pair p;
    int64_t len = (int64_t)(budget + budget / 2);
    if (budget > ((uint64_t)64 << 20)) {
        printf("  (the smallest budget accepted is %llu bytes: no pair larger than it is made)\n",
               (unsigned long long)budget);
        return;
    }
    c = cset_new(s, "huge: sequences larger than the device budget");
    c->X = 30;
    tu_pair_make(r, &p, len, 25, 0.005, 0);
    cb_add(c, &p, 1);
}

/* Many tasks whose sequences together are many times the device budget
 * (16x, at least 4000 tasks, at most 40000). */
static void add_stream(tu_rng *r, cset *s, uint64_t budget)
{
    char label[96];
    cbatch *c;
    long n = (long)(16.0 * (double)budget / 3500.0), i;
    if (n < 4000) n = 4000;
    if (n > 40000) n = 40000;
    n = tu_scaled(n, 500);
    snprintf(label, sizeof label, "stream: %ld tasks, %llu-byte budget", n, (unsigned long long)budget);
    c = cset_new(s, label);
    c->X = 20;
    for (i = 0; i < n; ++i) {
        tu_pair p;
        tu_pair_make(r, &p, tu_range(r, 500, 3000), tu_range(r, 11, 31), tu_unif(r) * 0.08, 0);
        cb_add(c, &p, (uint64_t)i);
    }
    printf("  streaming batch: %zu tasks, %.1f MB of sequence (budget %.2f MB)\n", c->n, (double)cb_bases(c) / 1e6,
           (double)budget / 1e6);
}

/* ------------------------------------------------------------------ */
/* Contexts                                                             */
/* ------------------------------------------------------------------ */

/* Creates the context under test: CUDA (or, in fake mode, CPU). Exits 77 when
 * no GPU is usable. */
static gale_ctx *gpu_ctx(uint64_t budget, gale_status *st_out)
{
    gale_ctx_opts o;
    gale_ctx *ctx = NULL;
    gale_status st;
    gale_ctx_opts_init(&o);
    o.backend = fake_gpu ? GALE_BACKEND_CPU : GALE_BACKEND_CUDA;
    o.device_memory = budget;
    st = gale_ctx_create(&ctx, &o);
    if (st_out) *st_out = st;
    if (st != GALE_OK) return NULL;
    return ctx;
}

static gale_ctx *cpu_ctx(void)
{
    gale_ctx *ctx = NULL;
    REQUIRE_OK(tu_ctx_new(&ctx, GALE_BACKEND_CPU, 0));
    return ctx;
}

static gale_ctx *require_gpu(void)
{
    gale_status st;
    gale_ctx *ctx;
    int backend = -1;
    if (fake_gpu) {
        printf("GALE_GPU_TEST_FAKE is set: the 'GPU' context is a CPU context (harness self-check only)\n");
    } else {
        int ndev = gale_cuda_device_count();
        if (ndev == 0) {
            printf("SKIP: no usable CUDA device (gale_cuda_device_count() = 0; features 0x%x%s)\n", gale_features(),
                   (gale_features() & GALE_FEATURE_CUDA) ? "" : ": built without CUDA");
            exit(SKIP);
        }
        printf("CUDA devices: %d; features 0x%x\n", ndev, gale_features());
    }
    ctx = gpu_ctx(0, &st);
    if (!ctx && st == GALE_E_UNSUPPORTED) {
        printf("SKIP: a CUDA context cannot be created: %s\n", gale_last_error());
        exit(SKIP);
    }
    if (!ctx) {
        tu_fail_at(__FILE__, __LINE__, "CUDA context creation failed: %d (%s) %s", st, gale_status_string(st),
                   gale_last_error());
        exit(1);
    }
    REQUIRE_OK(gale_ctx_backend(ctx, &backend));
    CHECK_EQ_I64(backend, fake_gpu ? GALE_BACKEND_CPU : GALE_BACKEND_CUDA);
    return ctx;
}

/* The smallest budget from 1 MiB up (doubling) that a CUDA context accepts. */
static gale_ctx *tiny_gpu_ctx(uint64_t *budget)
{
    uint64_t b;
    for (b = (uint64_t)1 << 20; b <= (uint64_t)1 << 32; b *= 2) {
        gale_status st;
        gale_ctx *ctx = gpu_ctx(b, &st);
        if (ctx) {
            *budget = b;
            return ctx;
        }
        printf("  a device budget of %llu bytes is refused: %d (%s) %s\n", (unsigned long long)b, st,
               gale_status_string(st), gale_last_error());
    }
    tu_fail_at(__FILE__, __LINE__, "no device budget up to 4 GiB accepted");
    exit(1);
}

/* ------------------------------------------------------------------ */
/* Modes                                                                */
/* ------------------------------------------------------------------ */

static int mode_cases(tu_rng *r)
{
    gale_ctx *gpu = require_gpu(), *cpu = cpu_ctx(), *tiny;
    cset main_set = {0, 0, 0}, budget_set = {0, 0, 0};
    long npairs = tu_scaled(10000, 200);
    uint64_t budget = 0;
    size_t rescued_default, rescued_tiny, i;
    double t0 = tu_now();

    add_random(r, &main_set, npairs);
    add_edges(r, &main_set);
    if (tu_long_cases()) add_long(r, &main_set);
    else printf("GALE_TEST_LONG=0: the long pairs and wide bands are left out\n");
    printf("cases: %ld random pairs in %zu batches, edge cases, long pairs (generated in %.2f s)\n", npairs,
           main_set.n, tu_now() - t0);
    run_cpu(cpu, &main_set);

    printf("default device budget (timings of the edge and long batches, then the summary):\n");
    rescued_default = run_gpu(gpu, &main_set, "cuda", 2);
    printf("  %zu results rescued with the default budget\n", rescued_default);
    CHECK_ST(gale_ctx_destroy(gpu), GALE_OK);

    /* a tiny device budget: rescue and streaming */
    tiny = tiny_gpu_ctx(&budget);
    printf("tiny device budget: %llu bytes\n", (unsigned long long)budget);
    add_huge(r, &budget_set, budget);
    add_stream(r, &budget_set, budget);
    run_cpu(cpu, &budget_set);
    rescued_tiny = run_gpu(tiny, &main_set, "cuda (tiny budget)", 0);
    rescued_tiny += run_gpu(tiny, &budget_set, "cuda (tiny budget)", 1);
    if (fake_gpu) {
        printf("  (fake GPU: %zu rescued; the rescue assertion is skipped)\n", rescued_tiny);
    } else {
        CHECK_MSG(rescued_tiny > 0, "a %llu-byte device budget rescued no task (a task larger than the budget was "
                  "in the set)", (unsigned long long)budget);
    }
    CHECK_ST(gale_ctx_destroy(tiny), GALE_OK);
    CHECK_ST(gale_ctx_destroy(cpu), GALE_OK);
    free_edges();
    for (i = 0; i < main_set.n; ++i) cb_free(&main_set.b[i]);
    for (i = 0; i < budget_set.n; ++i) cb_free(&budget_set.b[i]);
    free(main_set.b);
    free(budget_set.b);
    return tu_finish(fake_gpu ? "xdrop_gpu cases (FAKE GPU)" : "xdrop_gpu cases");
}

typedef struct th_arg {
    gale_ctx *gpu;
    cset *set;
    int t;
    size_t batches, tasks;
} th_arg;

#define GPU_THREADS 4

/* Thread of the threads mode: the batches t, t+4, ... two in flight at a time. */
static void *gpu_thread(void *p)
{
    th_arg *a = (th_arg *)p;
    size_t i, j;
    for (i = (size_t)a->t; i < a->set->n; i += 2 * GPU_THREADS) {
        size_t idx[2], k, nb = 0;
        gale_batch *b[2];
        idx[0] = i;
        idx[1] = i + GPU_THREADS;
        for (k = 0; k < 2; ++k) {
            if (idx[k] >= a->set->n) break;
            b[k] = cb_make(a->gpu, &a->set->b[idx[k]]);
            CHECK_ST(gale_submit(b[k]), GALE_OK);
            ++nb;
        }
        for (k = 0; k < nb; ++k) {
            const cbatch *c = &a->set->b[idx[k]];
            gale_result *r = (gale_result *)calloc(c->n + 1, sizeof(gale_result));
            gale_status st;
            REQUIRE(r != NULL);
            if (k == 0) {
                while ((st = gale_poll(b[k], 2)) == GALE_E_AGAIN) {
                }
            } else {
                st = gale_wait(b[k]);
            }
            CHECK_MSG(st == GALE_OK, "thread %d, %s: %d (%s) %s", a->t, c->label, st, gale_status_string(st),
                      gale_last_error());
            if (st == GALE_OK) {
                fetch(b[k], c, r, NULL, "cuda, threads");
                for (j = 0; j < c->n; ++j) {
                    char what[256];
                    snprintf(what, sizeof what, "threads mode, thread %d, %s, task %zu", a->t, c->label, j);
                    CHECK_MSG(tu_result_eq(&r[j], &c->cpu[j], 0, what), "%s: GPU differs from CPU", what);
                }
            }
            CHECK_ST(gale_batch_destroy(b[k]), GALE_OK);
            a->batches += 1;
            a->tasks += c->n;
            free(r);
        }
    }
    return NULL;
}

static int mode_threads(tu_rng *r)
{
    gale_ctx *gpu = require_gpu(), *cpu = cpu_ctx();
    cset set = {0, 0, 0};
    th_arg a[GPU_THREADS];
    pthread_t th[GPU_THREADS];
    int t;
    size_t i;
    double t0;
    add_random(r, &set, tu_scaled(4000, 200));
    run_cpu(cpu, &set);
    t0 = tu_now();
    for (t = 0; t < GPU_THREADS; ++t) {
        memset(&a[t], 0, sizeof a[t]);
        a[t].gpu = gpu;
        a[t].set = &set;
        a[t].t = t;
        REQUIRE(pthread_create(&th[t], NULL, gpu_thread, &a[t]) == 0);
    }
    for (t = 0; t < GPU_THREADS; ++t) REQUIRE(pthread_join(th[t], NULL) == 0);
    for (t = 0; t < GPU_THREADS; ++t)
        printf("  thread %d: %zu batches, %zu tasks\n", t, a[t].batches, a[t].tasks);
    printf("  %d threads on one CUDA context: %zu batches in %.2f s\n", GPU_THREADS, set.n, tu_now() - t0);
    {
        size_t total = 0;
        for (t = 0; t < GPU_THREADS; ++t) total += a[t].batches;
        CHECK_EQ_I64(total, set.n);
    }
    CHECK_ST(gale_ctx_destroy(gpu), GALE_OK);
    CHECK_ST(gale_ctx_destroy(cpu), GALE_OK);
    for (i = 0; i < set.n; ++i) cb_free(&set.b[i]);
    free(set.b);
    return tu_finish(fake_gpu ? "xdrop_gpu threads (FAKE GPU)" : "xdrop_gpu threads");
}

int main(int argc, char **argv)
{
    tu_rng rng;
    const char *mode = argc > 1 ? argv[1] : "cases";
    const char *fake = getenv("GALE_GPU_TEST_FAKE");
    fake_gpu = fake && *fake && strcmp(fake, "0") != 0;
    tu_rng_init(&rng, tu_seed(strcmp(mode, "threads") == 0 ? "xdrop_gpu threads" : "xdrop_gpu cases"));
    if (strcmp(mode, "cases") == 0) return mode_cases(&rng);
    if (strcmp(mode, "threads") == 0) return mode_threads(&rng);
    fprintf(stderr, "usage: %s [cases|threads]\n", argv[0]);
    return 2;
}
