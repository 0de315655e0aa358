/*
 * wfa_gpu.c - wavefront alignment (GALE_WFA, GALE_EDIT) on the CUDA backend
 * against the CPU backend, bit for bit, through the public API.
 *
 * Suite 'gpu'. Exits 77 (meson: SKIP) when there is no usable CUDA device.
 *
 *   random   >= 10,000 random pairs (scale 1) in batches of random settings:
 *            GALE_WFA one- and two-piece with random penalties, GALE_EDIT,
 *            GALE_INDEL, GALE_WFA_LINEAR, a match score 0 or negative (then free
 *            begins leave the task to the CPU, flagged GALE_RF_RESCUED); scope
 *            SCORE and ALIGNMENT; end-to-end and ends-free; the three alphabet policies;
 *            lengths 0..~5,000 (0..600 with penalties above 10, 12, 5), divergence
 *            0..30%, lowercase, N and IUPAC runs;
 *            the expected error at its default or random, the memory limit at
 *            its default or 1 MiB (CPU low-memory mode, which the GPU must leave to
 *            the CPU). Every result field (flags but GALE_RF_RESCUED), the stats
 *            and the CIGAR must equal the CPU's.
 *   rescue   the same batches with GALE_P_EXPECTED_ERROR = 1 (budgets far too
 *            small for divergent pairs) on a CUDA context with a tiny device
 *            memory budget: identical results, and at least one result flagged
 *            GALE_RF_RESCUED (stats.rescued = flagged results).
 *   long     100 kbp pairs at 1% (and 0%, and one at 5% with N runs), both scopes.
 *   small    the random batches on a CUDA context of 256 MiB: alignment-scope units
 *            then hold few codes, so the dispatcher's first pass stops many tasks
 *            early and its second pass reruns them with the full budget.
 *   heuristics  random batches under WFA2-lib's heuristics (GALE_P_WFA_HEURISTIC), every
 *            strategy and combinations, three parameter sets, and batches of pairs
 *            at most 2% apart: the CUDA kernel's heuristic mode against the CPU
 *            context, unfeasible alignments (GALE_RF_UNFEASIBLE) included, and the
 *            pairs of low divergence computed there (fewer than 1 in 20 rescued).
 *   boundary pairs of exactly 32767 and 32768 bases (the GPU keeps int16 offsets
 *            only while both lengths are < 32768), 0% and 1%, both scopes.
 *
 * Random cases come from a printed seed (GALE_TEST_SEED reproduces it); the
 * number of cases scales with GALE_TEST_SCALE; GALE_TEST_LONG=0 leaves out the
 * long and boundary pairs (tools/device/run.sh sanitize, under racecheck).
 * GALE_GPU_TEST_FAKE=1 replaces the CUDA context by a CPU one (harness self-check
 * without a GPU).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "testutil.h"

#define SKIP 77

static int fake_gpu = 0;

typedef struct wbatch {
    char label[160];
    int kind, scope, npol;
    int64_t x, o, e, o2, e2, match, indel;
    int64_t pbf, pef, tbf, tef, err, memlim; /* err / memlim: 0 = default */
    int heur;                                 /* GALE_P_WFA_HEURISTIC (0: none) */
    int hp;                                   /* its parameter set (wb_make) */
    size_t n, cap;
    char **h, **v;
    int64_t *hl, *vl;
    /* CPU reference */
    gale_result *ref;
    uint32_t **ref_cigar;
    size_t *ref_ncig;
    gale_stats ref_stats;
} wbatch;

static void wb_add(wbatch *b, char *h, int64_t hl, char *v, int64_t vl)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 32;
        b->h = (char **)realloc(b->h, b->cap * sizeof(char *));
        b->v = (char **)realloc(b->v, b->cap * sizeof(char *));
        b->hl = (int64_t *)realloc(b->hl, b->cap * sizeof(int64_t));
        b->vl = (int64_t *)realloc(b->vl, b->cap * sizeof(int64_t));
        REQUIRE(b->h && b->v && b->hl && b->vl);
    }
    b->h[b->n] = h;
    b->v[b->n] = v;
    b->hl[b->n] = hl;
    b->vl[b->n] = vl;
    ++b->n;
}

static void wb_free(wbatch *b)
{
    size_t i;
    for (i = 0; i < b->n; ++i) {
        free(b->h[i]);
        free(b->v[i]);
        if (b->ref_cigar) free(b->ref_cigar[i]);
    }
    free(b->h);
    free(b->v);
    free(b->hl);
    free(b->vl);
    free(b->ref);
    free(b->ref_cigar);
    free(b->ref_ncig);
}

/* A pair: an ancestor of len bases, text and pattern each mutated from it
 * (divergence rate between them). */
static void make_pair(tu_rng *r, int64_t len, double rate, int opts, char **h, int64_t *hl, char **v, int64_t *vl)
{
    const tu_mut m = tu_mut_rate(rate / 2);
    tu_diverged(r, len, &m, h, hl, v, vl);
    tu_decorate(r, *h, *hl, 0, 0, opts);
    tu_decorate(r, *v, *vl, 0, 0, opts);
}

static gale_batch *wb_make(gale_ctx *ctx, const wbatch *c, int force_err)
{
    gale_batch *b = NULL;
    size_t i;
    gale_task t;
    REQUIRE_OK(gale_batch_create(ctx, c->kind, &b));
    tu_wfa_settings(b, c->kind, c->x, c->o, c->e, c->o2, c->e2, c->scope, c->npol,
                    c->pbf, c->pef, c->tbf, c->tef);
    if (c->kind == GALE_WFA || c->kind == GALE_WFA_LINEAR)
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_MATCH, c->match));
    if (c->kind == GALE_WFA_LINEAR) {
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, c->x));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_INDEL, c->indel));
    }
    if (force_err) REQUIRE_OK(gale_batch_set(b, GALE_P_EXPECTED_ERROR, force_err));
    else if (c->err) REQUIRE_OK(gale_batch_set(b, GALE_P_EXPECTED_ERROR, c->err));
    if (c->memlim) REQUIRE_OK(gale_batch_set(b, GALE_P_MEMORY_LIMIT, c->memlim));
    if (c->heur) {
        /* three parameter sets: tight cuts, WFA2-lib's defaults, cuts every 5th score */
        static const int64_t hp[3][7] = {{10, 20, 1, 40, 40, -30, 30},
                                         {10, 50, 1, 100, 100, -100, 100},
                                         {4, 10, 5, 25, 25, -8, 12}};
        const int64_t *q = hp[c->hp % 3];
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_HEURISTIC, c->heur));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_MIN_WAVEFRONT_LENGTH, q[0]));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_MAX_DISTANCE_THRESHOLD, q[1]));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_STEPS_BETWEEN_CUTOFFS, q[2]));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_XDROP, q[3]));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_ZDROP, q[4]));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_BAND_MIN_K, q[5]));
        REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_BAND_MAX_K, q[6]));
    }
    for (i = 0; i < c->n; ++i) {
        gale_task_init(&t);
        t.h = c->h[i];
        t.h_len = c->hl[i];
        t.v = c->v[i];
        t.v_len = c->vl[i];
        t.user = (uint64_t)i * 7919u;
        REQUIRE_OK(gale_batch_add(b, &t));
    }
    return b;
}

/* Runs the batch on ctx. ref == 0: stores the results as the reference; else
 * compares with it. Returns the number of results flagged GALE_RF_RESCUED. */
static size_t wb_run(gale_ctx *ctx, wbatch *c, int force_err, const char *name, int store, double *secs,
                     uint64_t *kernel_ns, size_t *differ)
{
    gale_batch *b = wb_make(ctx, c, force_err);
    gale_stats st;
    gale_status ws;
    size_t i, flagged = 0;
    double t0 = tu_now();
    REQUIRE_OK(gale_submit(b));
    ws = gale_wait(b);
    *secs += tu_now() - t0;
    if (ws != GALE_OK) {
        tu_fail_at(__FILE__, __LINE__, "%s, %s: batch failed: %d (%s) %s", name, c->label, ws, gale_status_string(ws),
                   gale_last_error());
        REQUIRE_OK(gale_batch_destroy(b));
        return 0;
    }
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    REQUIRE_OK(gale_batch_stats(b, &st));
    *kernel_ns += st.kernel_ns;
    if (store) {
        c->ref = (gale_result *)calloc(c->n + 1, sizeof(gale_result));
        c->ref_cigar = (uint32_t **)calloc(c->n + 1, sizeof(uint32_t *));
        c->ref_ncig = (size_t *)calloc(c->n + 1, sizeof(size_t));
        REQUIRE(c->ref && c->ref_cigar && c->ref_ncig);
        c->ref_stats = st;
    }
    for (i = 0; i < c->n; ++i) {
        gale_result r;
        const uint32_t *cig = NULL;
        size_t ncig = 99;
        memset(&r, 0x77, sizeof r);
        r.size = sizeof r;
        REQUIRE_OK(gale_result_get(b, i, &r));
        REQUIRE_OK(gale_result_cigar(b, i, &cig, &ncig));
        CHECK_MSG((r.flags & ~(GALE_RF_RESCUED | GALE_RF_LOWMEM | (c->heur ? GALE_RF_UNFEASIBLE : 0u))) == 0,
                  "%s, %s: result %zu has unknown flags 0x%x", name, c->label, i, r.flags);
        if (c->scope == GALE_SCOPE_SCORE) CHECK_EQ_I64(ncig, 0);
        if (r.flags & (GALE_RF_RESCUED | GALE_RF_CPU)) ++flagged;
        if (store) {
            CHECK_EQ_I64(r.flags & GALE_RF_RESCUED, 0);
            c->ref[i] = r;
            c->ref_ncig[i] = ncig;
            c->ref_cigar[i] = (uint32_t *)malloc((ncig + 1) * sizeof(uint32_t));
            REQUIRE(c->ref_cigar[i] != NULL);
            if (ncig) memcpy(c->ref_cigar[i], cig, ncig * sizeof(uint32_t));
        } else {
            char what[320];
            int eq;
            snprintf(what, sizeof what, "%s, %s, task %zu (h_len %lld v_len %lld)", name, c->label, i,
                     (long long)c->hl[i], (long long)c->vl[i]);
            eq = tu_result_eq(&r, &c->ref[i], 0, what);
            eq = eq && (r.flags & (GALE_RF_LOWMEM | GALE_RF_UNFEASIBLE)) ==
                           (c->ref[i].flags & (GALE_RF_LOWMEM | GALE_RF_UNFEASIBLE));
            eq = eq && ncig == c->ref_ncig[i] && (ncig == 0 || memcmp(cig, c->ref_cigar[i], ncig * 4) == 0);
            if (!eq) {
                ++*differ;
                if (*differ <= 20)
                    tu_fail_at(__FILE__, __LINE__, "%s: differs from the CPU (flags 0x%x vs 0x%x, CIGAR ops %zu vs %zu)",
                               what, r.flags, c->ref[i].flags, ncig, c->ref_ncig[i]);
            } else {
                tu_count_check();
            }
        }
    }
    if (!store) {
        CHECK_MSG(st.cells == c->ref_stats.cells, "%s, %s: stats.cells %llu vs CPU %llu", name, c->label,
                  (unsigned long long)st.cells, (unsigned long long)c->ref_stats.cells);
        CHECK_MSG(st.rescued == flagged, "%s, %s: stats.rescued %llu, %zu results flagged", name, c->label,
                  (unsigned long long)st.rescued, flagged);
        CHECK_EQ_I64(st.tasks, c->n);
    }
    REQUIRE_OK(gale_batch_destroy(b));
    return flagged;
}

static void random_settings(tu_rng *r, wbatch *b, int nb)
{
    int64_t u = tu_range(r, 0, 99);
    b->kind = u < 40 ? GALE_WFA : u < 70 ? GALE_WFA : u < 80 ? GALE_EDIT : u < 90 ? GALE_INDEL : GALE_WFA_LINEAR;
    b->x = 4, b->o = 6, b->e = 2, b->o2 = 0, b->e2 = 0, b->match = 0, b->indel = 2;
    if (b->kind == GALE_WFA_LINEAR) {
        b->x = tu_range(r, 1, 10);
        b->indel = tu_range(r, 1, 6);
    }
    if (b->kind == GALE_WFA) {
        int64_t v = tu_range(r, 0, 99);
        if (v < 25) { b->x = 2; b->o = 3; b->e = 1; }
        else if (v < 60) { b->x = tu_range(r, 1, 10); b->o = tu_range(r, 0, 12); b->e = tu_range(r, 1, 5); }
        else if (v < 65) { b->x = tu_range(r, 1, 200); b->o = tu_range(r, 0, 300); b->e = tu_range(r, 1, 100); }
        if (u >= 40) { /* two pieces: mostly the usual shape (a dearer opening, a cheaper extension) */
            if (tu_range(r, 0, 9) < 7) {
                b->o2 = b->o + tu_range(r, 1, 20);
                b->e2 = b->e > 1 ? tu_range(r, 1, b->e - 1) : 1;
                if (b->e == 1) b->o2 += 10;
            } else {
                b->o2 = tu_range(r, 0, 30);
                b->e2 = tu_range(r, 1, 6);
            }
        }
    }
    /* a match score, on the smaller penalties (Eizenga's transformation doubles them) */
    if ((b->kind == GALE_WFA || b->kind == GALE_WFA_LINEAR) && b->x <= 10 && b->o <= 12 && tu_range(r, 0, 9) < 3)
        b->match = -tu_range(r, 1, 5);
    b->scope = (tu_next(r) & 1) ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
    b->npol = (int)tu_range(r, 0, 2); /* GALE_N_DNA5, GALE_N_MISMATCH, GALE_N_BYTES */
    b->pbf = b->pef = b->tbf = b->tef = 0;
    if (tu_range(r, 0, 2) == 0) {
        b->pbf = tu_range(r, 0, 3) ? tu_range(r, 0, 100) : 0;
        b->pef = tu_range(r, 0, 3) ? tu_range(r, 0, 100) : 0;
        b->tbf = tu_range(r, 0, 3) ? tu_range(r, 0, 100) : 0;
        b->tef = tu_range(r, 0, 3) ? tu_range(r, 0, 2000) : 0;
    }
    b->err = tu_range(r, 0, 3) == 0 ? tu_range(r, 1, 400) : 0;
    b->memlim = tu_range(r, 0, 9) == 0 ? 1 : 0;
    snprintf(b->label, sizeof b->label, "batch %d (%s m%lld x%lld o%lld e%lld o2 %lld e2 %lld i%lld %s npol %d free "
             "%lld/%lld/%lld/%lld err %lld memlim %lld)", nb, gale_kind_name(b->kind), (long long)b->match,
             (long long)b->x, (long long)b->o, (long long)b->e, (long long)b->o2, (long long)b->e2, (long long)b->indel, b->scope ? "cigar" : "score", b->npol,
             (long long)b->pbf, (long long)b->pef, (long long)b->tbf, (long long)b->tef, (long long)b->err,
             (long long)b->memlim);
}

static size_t add_random(tu_rng *r, wbatch **set, size_t *nset, long npairs)
{
    long made = 0;
    size_t cap = 0;
    while (made < npairs) {
        wbatch *b;
        long n = (long)tu_range(r, 1, 600), i;
        int big;
        if (n > npairs - made) n = npairs - made;
        if (*nset == cap || cap == 0) {
            cap = *nset + 64;
            *set = (wbatch *)realloc(*set, cap * sizeof(wbatch));
            REQUIRE(*set != NULL);
        }
        b = &(*set)[(*nset)++];
        memset(b, 0, sizeof *b);
        random_settings(r, b, (int)*nset - 1);
        /* Penalties up to 200/300/100 make scores (and the wavefronts' cells) tens of times
         * those of the usual ones: such batches keep pairs short. With pairs up to 5 kbp,
         * one such batch took 7 of a pass's 10 s on the 2-core CI machine (seed
         * 248354206652910), and one run of this test on an H100 did not end in 8 minutes. */
        big = b->x > 10 || b->o > 12 || b->e > 5;
        for (i = 0; i < n; ++i) {
            int64_t len = tu_range(r, 0, 19) == 0 ? tu_range(r, 0, 8) : tu_logrange(r, 1, big ? 600 : 5000);
            double rate = tu_unif(r) * (len > 2000 ? 0.08 : len > 500 ? 0.15 : 0.30);
            int opts = 0;
            char *h, *v;
            int64_t hl, vl;
            if (tu_range(r, 0, 9) < 2) rate = 0.0;
            /* GALE_N_BYTES reads lower case and IUPAC codes as bytes: more of them there,
             * lower case over the same part of both (tu_lower_both says why) */
            if (b->npol != GALE_N_BYTES && tu_range(r, 0, 9) < 3) opts |= TU_LOWER;
            if (tu_range(r, 0, 9) < (b->npol == GALE_N_BYTES ? 4 : 2)) opts |= TU_NRUNS;
            make_pair(r, len, rate, opts, &h, &hl, &v, &vl);
            if (b->npol == GALE_N_BYTES && tu_range(r, 0, 9) < 6) tu_lower_both(r, h, hl, v, vl);
            if (tu_range(r, 0, 19) == 0) { /* very different lengths */
                if (tu_next(r) & 1) hl = tu_range(r, 0, hl);
                else vl = tu_range(r, 0, vl);
            }
            wb_add(b, h, hl, v, vl);
        }
        made += n;
    }
    return (size_t)made;
}

static gale_ctx *make_ctx(int backend, uint64_t budget, gale_status *st)
{
    gale_ctx_opts o;
    gale_ctx *ctx = NULL;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.device_memory = budget;
    *st = gale_ctx_create(&ctx, &o);
    return *st == GALE_OK ? ctx : NULL;
}

static gale_ctx *gpu_ctx(uint64_t budget)
{
    gale_status st;
    gale_ctx *ctx = make_ctx(fake_gpu ? GALE_BACKEND_CPU : GALE_BACKEND_CUDA, budget, &st);
    if (!ctx && st == GALE_E_UNSUPPORTED && budget == 0) {
        printf("SKIP: a CUDA context cannot be created: %s\n", gale_last_error());
        exit(SKIP);
    }
    if (!ctx)
        printf("  CUDA context with budget %llu refused: %d (%s) %s\n", (unsigned long long)budget, st,
               gale_status_string(st), gale_last_error());
    return ctx;
}

static size_t run_set(gale_ctx *ctx, wbatch *set, size_t nset, int force_err, const char *name, int store,
                      size_t *differ)
{
    size_t i, rescued = 0, tasks = 0, batches = 0;
    double secs = 0;
    uint64_t kns = 0;
    for (i = 0; i < nset; ++i) {
        rescued += wb_run(ctx, &set[i], force_err, name, store, &secs, &kns, differ);
        tasks += set[i].n;
        ++batches;
    }
    printf("  %-32s %5zu batches %7zu tasks: %.2f s (kernels %.3f s), %zu rescued, %zu differ\n", name, batches, tasks,
           secs, (double)kns * 1e-9, rescued, *differ);
    return rescued;
}

int main(void)
{
    tu_rng rng;
    const char *fake = getenv("GALE_GPU_TEST_FAKE");
    wbatch *set = NULL, *lng = NULL;
    size_t nset = 0, nlong = 0, i, differ = 0, rescued;
    long npairs;
    gale_ctx *gpu, *cpu, *tiny = NULL;
    gale_status st;
    uint64_t b;

    fake_gpu = fake && *fake && strcmp(fake, "0") != 0;
    tu_rng_init(&rng, tu_seed("wfa_gpu"));
    if (!fake_gpu && gale_cuda_device_count() == 0) {
        printf("SKIP: no usable CUDA device (features 0x%x)\n", gale_features());
        return SKIP;
    }
    if (fake_gpu) printf("GALE_GPU_TEST_FAKE is set: the 'GPU' context is a CPU context\n");
    gpu = gpu_ctx(0);
    cpu = make_ctx(GALE_BACKEND_CPU, 0, &st);
    REQUIRE(cpu != NULL);

    npairs = tu_scaled(10000, 300);
    add_random(&rng, &set, &nset, npairs);
    printf("random: %ld pairs in %zu batches\n", npairs, nset);

    /* long pairs: 100 kbp at 1% (budget 2%, so the GPU computes them), 0%, and 5% with N runs */
    lng = (wbatch *)calloc(6, sizeof(wbatch));
    REQUIRE(lng != NULL);
    if (!tu_long_cases()) printf("GALE_TEST_LONG=0: the long and boundary pairs are left out\n");
    for (i = 0; i < 4 && tu_long_cases(); ++i) {
        wbatch *c = &lng[nlong++];
        char *h, *v;
        int64_t hl, vl;
        c->kind = i == 3 ? GALE_EDIT : GALE_WFA;
        c->x = 4, c->o = 6, c->e = 2;
        if (i == 2) { c->o2 = 24; c->e2 = 1; }
        c->scope = (i == 1) ? GALE_SCOPE_SCORE : GALE_SCOPE_ALIGNMENT;
        c->err = 20;
        c->memlim = 2048;
        snprintf(c->label, sizeof c->label, "long %zu (%s, %s)", i, c->kind == GALE_EDIT ? "edit" : c->e2 ? "wfa 2p" : "wfa",
                 c->scope ? "cigar" : "score");
        make_pair(&rng, 100000, 0.01, 0, &h, &hl, &v, &vl);
        wb_add(c, h, hl, v, vl);
        make_pair(&rng, 100000, 0.0, 0, &h, &hl, &v, &vl);
        wb_add(c, h, hl, v, vl);
        make_pair(&rng, 30000, 0.05, TU_NRUNS | TU_LOWER, &h, &hl, &v, &vl);
        wb_add(c, h, hl, v, vl);
    }
    /* the int16 / int32 offsets boundary: pairs cut to exact lengths (h, v) */
    for (i = 0; i < 2 && tu_long_cases(); ++i) {
        static const int64_t cut[4][2] = {{32767, 32767}, {32767, 32767}, {32768, 32767}, {32767, 32768}};
        wbatch *c = &lng[nlong++];
        size_t j;
        c->kind = GALE_WFA;
        c->x = 4, c->o = 6, c->e = 2;
        c->scope = i == 0 ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
        c->err = 20;
        c->memlim = 2048;
        snprintf(c->label, sizeof c->label, "boundary 32767/32768 (wfa, %s)", c->scope ? "cigar" : "score");
        for (j = 0; j < 4; ++j) {
            char *h, *v;
            int64_t hl, vl;
            make_pair(&rng, 33000, j == 0 ? 0.0 : 0.01, 0, &h, &hl, &v, &vl);
            REQUIRE(hl >= cut[j][0] && vl >= cut[j][1]);
            wb_add(c, h, cut[j][0], v, cut[j][1]);
        }
    }

    run_set(cpu, set, nset, 0, "cpu (reference)", 1, &differ);
    run_set(cpu, lng, nlong, 0, "cpu (reference), long", 1, &differ);
    REQUIRE(differ == 0);
    run_set(gpu, set, nset, 0, fake_gpu ? "fake gpu" : "cuda", 0, &differ);
    run_set(gpu, lng, nlong, 0, fake_gpu ? "fake gpu, long" : "cuda, long", 0, &differ);
    CHECK_MSG(differ == 0, "%zu GPU results differ from the CPU", differ);
    REQUIRE_OK(gale_ctx_destroy(gpu));

    /* WFA2-lib's heuristics (GALE_P_WFA_HEURISTIC): the kernel's heuristic mode, identical
     * to the CPU context's results; most of them computed on the GPU (a task over its score
     * budget is rescued: a heuristic's score may lie above the optimum the budget assumes). */
    {
        wbatch *hset = NULL;
        size_t nh = 0;
        static const int strategies[] = {GALE_WFA_H_WFADAPTIVE, GALE_WFA_H_WFMASH, GALE_WFA_H_XDROP, GALE_WFA_H_ZDROP,
                                         GALE_WFA_H_BANDED_STATIC, GALE_WFA_H_BANDED_ADAPTIVE,
                                         GALE_WFA_H_WFADAPTIVE | GALE_WFA_H_XDROP | GALE_WFA_H_BANDED_STATIC,
                                         GALE_WFA_H_WFMASH | GALE_WFA_H_ZDROP | GALE_WFA_H_BANDED_ADAPTIVE};
        size_t nrandom;
        add_random(&rng, &hset, &nh, tu_scaled(1000, 100));
        nrandom = nh;
        /* then pairs the GPU keeps: every strategy, default budget (10%), pairs of 100 bp to
         * 3 kbp at most 2% apart, alike in length, no free ends, the usual penalties. The
         * random batches cannot show where the work ran: their pairs up to 30% apart exceed
         * the budget (rescued whatever the heuristic), in proportions that vary from batch to
         * batch (seed 97766613735552: 250 of 1,000 rescued, the old bound a quarter). */
        for (i = 0; i < 3 * 8; ++i) {
            wbatch *c;
            int j;
            hset = (wbatch *)realloc(hset, (nh + 1) * sizeof(wbatch));
            REQUIRE(hset != NULL);
            c = &hset[nh++];
            memset(c, 0, sizeof *c);
            c->kind = i % 3 == 0 ? GALE_WFA : i % 3 == 1 ? GALE_EDIT : GALE_WFA;
            c->x = 4, c->o = 6, c->e = 2, c->indel = 2;
            if (i % 3 == 2) { c->o2 = 24; c->e2 = 1; }
            c->scope = (i / 3) % 2 ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
            snprintf(c->label, sizeof c->label, "low divergence %zu (%s%s, %s)", i, gale_kind_name(c->kind),
                     c->e2 ? " 2p" : "", c->scope ? "cigar" : "score");
            for (j = 0; j < (int)tu_scaled(40, 5); ++j) {
                char *h, *v;
                int64_t hl, vl;
                make_pair(&rng, tu_logrange(&rng, 100, 3000), tu_unif(&rng) * 0.02, 0, &h, &hl, &v, &vl);
                wb_add(c, h, hl, v, vl);
            }
        }
        for (i = 0; i < nh; ++i) {
            const int drops = hset[i].kind == GALE_WFA || hset[i].kind == GALE_WFA_LINEAR;
            int h = strategies[i % (sizeof strategies / sizeof strategies[0])];
            if (!drops) h &= ~(GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP);
            hset[i].heur = h ? h : GALE_WFA_H_WFADAPTIVE;
            hset[i].hp = i < nrandom ? (int)tu_range(&rng, 0, 2) : (int)((i - nrandom) / 8 % 3);
        }
        printf("heuristics: %zu random batches, %zu of low divergence\n", nrandom, nh - nrandom);
        gpu = gpu_ctx(0);
        REQUIRE(gpu != NULL);
        differ = 0;
        run_set(cpu, hset, nh, 0, "cpu (reference), heuristics", 1, &differ);
        REQUIRE(differ == 0);
        {
            size_t ltasks = 0, lrescued;
            for (i = nrandom; i < nh; ++i) ltasks += hset[i].n;
            run_set(gpu, hset, nrandom, 0, fake_gpu ? "fake gpu, heuristics" : "cuda, heuristics", 0, &differ);
            lrescued = run_set(gpu, hset + nrandom, nh - nrandom, 0,
                               fake_gpu ? "fake gpu, heuristics, low div." : "cuda, heuristics, low div.", 0, &differ);
            CHECK_MSG(differ == 0, "%zu heuristic results of the CUDA context differ from the CPU", differ);
            /* their scores lie far below the budget (a heuristic's detour would have to
             * cost five times the optimum): the kernel's heuristic mode computes them */
            if (!fake_gpu)
                CHECK_MSG(lrescued * 20 < ltasks, "heuristics: %zu of %zu results of low divergence rescued on the CPU",
                          lrescued, ltasks);
        }
        REQUIRE_OK(gale_ctx_destroy(gpu));
        for (i = 0; i < nh; ++i) wb_free(&hset[i]);
        free(hset);
    }

    /* A small device pool: the two-pass path for alignment scope (see cuda/wfa.cu). */
    gpu = gpu_ctx((uint64_t)256 << 20);
    REQUIRE(gpu != NULL);
    differ = 0;
    run_set(gpu, set, nset, 0, fake_gpu ? "fake gpu, 256 MiB" : "cuda, 256 MiB", 0, &differ);
    CHECK_MSG(differ == 0, "%zu GPU results differ from the CPU on a 256 MiB context", differ);
    REQUIRE_OK(gale_ctx_destroy(gpu));

    /* Budgets far too small: GALE_P_EXPECTED_ERROR = 1 and a small device pool. */
    for (b = (uint64_t)16 << 20; b <= (uint64_t)1 << 32 && !tiny; b *= 2) tiny = gpu_ctx(b);
    REQUIRE(tiny != NULL);
    printf("rescue: expected error 1 per mille, device budget %llu bytes\n", (unsigned long long)(b / 2));
    differ = 0;
    rescued = run_set(tiny, set, nset, 1, fake_gpu ? "fake gpu, tiny" : "cuda, tiny", 0, &differ);
    rescued += run_set(tiny, lng, nlong, 1, fake_gpu ? "fake gpu, tiny, long" : "cuda, tiny, long", 0, &differ);
    CHECK_MSG(differ == 0, "%zu GPU results differ from the CPU under a tiny budget", differ);
    if (!fake_gpu) CHECK_MSG(rescued > 0, "a budget of 1 per mille on divergent pairs rescued nothing");
    REQUIRE_OK(gale_ctx_destroy(tiny));
    REQUIRE_OK(gale_ctx_destroy(cpu));

    for (i = 0; i < nset; ++i) wb_free(&set[i]);
    for (i = 0; i < nlong; ++i) wb_free(&lng[i]);
    free(set);
    free(lng);
    return tu_finish(fake_gpu ? "wfa_gpu (FAKE GPU)" : "wfa_gpu");
}
