/*
 * poa_gpu.c - partial-order alignment (GALE_POA) on the CUDA backend against the CPU
 * backend, bit for bit: every window's per-read scores, consensus, MSA rows, GFA and
 * cells (flags excepted).
 *
 * Suite 'gpu'. Exits 77 (meson: SKIP) when there is no usable CUDA device:
 * gale_cuda_device_count() == 0, or a CUDA context cannot be created with
 * GALE_E_UNSUPPORTED. Any other failure to create one is a test failure.
 *
 * Cases: >= 800 random windows at scale 1 (GALE_TEST_SCALE scales them; seed printed,
 * GALE_TEST_SEED reproduces) in batches of random parameters: local, global and
 * semi-global; linear, affine and convex penalties (random, spoa's defaults, cudapoa's
 * sample scoring); 1-40 reads per window (1-20 past 600 bases, 1-6 past 3,000),
 * mutated copies of an ancestor of 1-3,000 bases (a few of 3,000-6,000), 0-20%
 * divergence, empty reads, N runs and lowercase, per-sequence weights or qualities. Then the same batches on a CUDA context with a
 * small device memory budget (64 MiB): the windows the GPU cannot hold are rescued on
 * the CPU with the same results (among them a fixed window of 30 reads of 3 kbp, whose
 * DP matrices alone need about 1 GB); at least one result is flagged GALE_RF_RESCUED.
 * GPU batch timings are printed (informational).
 *
 * The POA kernel is experimental (doc/poa.md, "GPU status"): the CUDA backend runs it
 * only under GALE_EXPERIMENTAL_GPU=1, which this program sets for itself; every GPU
 * result must then come from the GPU or its rescue (no GALE_RF_CPU). A last round
 * sets GALE_P_POA_STRAND_AMBIGUOUS (spoa -s), which the kernel does not implement: its
 * results must be flagged GALE_RF_CPU (the kind's cpu_only hook) and equal the CPU
 * backend's, strands included.
 *
 * GALE_GPU_TEST_FAKE=1 replaces the CUDA contexts by CPU contexts: a self-check of this
 * harness without a GPU (never used by meson; the rescue assertions are skipped).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "testgen.h"
#include "testutil.h"

#define SKIP 77

typedef struct params {
    int type, m, n, g, e, q, c;
} params;

static void random_params(tu_rng *r, params *p)
{
    const int pick = (int)tu_below(r, 6);
    p->type = (int)tu_below(r, 3);
    if (pick == 0) { p->m = 5; p->n = -4; p->g = -8; p->e = -6; p->q = -10; p->c = -4; }      /* spoa's defaults */
    else if (pick == 1) { p->m = 8; p->n = -6; p->g = -8; p->e = -8; p->q = -8; p->c = -8; }  /* cudapoa's */
    else if (pick == 2) { p->m = 5; p->n = -4; p->g = -8; p->e = -6; p->q = -8; p->c = -6; }  /* affine */
    else {
        p->m = (int)tu_range(r, 1, 12);
        p->n = (int)tu_range(r, -12, 0);
        p->g = (int)tu_range(r, -16, 0);
        p->e = (int)tu_range(r, -8, 0);
        p->q = (int)tu_range(r, -24, 0);
        p->c = (int)tu_range(r, -4, 0);
    }
}

/* One window: n reads, mutated copies of an ancestor; the caller frees. */
typedef struct window {
    size_t n;
    char **seqs, **quals;
    int64_t *lens;
    int32_t *weights;
    int use_q, use_w;
} window;

static void random_window(tu_rng *r, window *w, int64_t alen, size_t n_reads)
{
    char *anc = tu_random_seq(r, alen);
    const double rate = tu_unif(r) * 0.2;
    const int opts = tu_chance(r, 0.15) ? (TU_LOWER | TU_NRUNS) : 0;
    size_t k;
    int64_t j;
    w->n = n_reads;
    w->seqs = (char **)calloc(n_reads, sizeof *w->seqs);
    w->quals = (char **)calloc(n_reads, sizeof *w->quals);
    w->lens = (int64_t *)calloc(n_reads, sizeof *w->lens);
    w->weights = (int32_t *)calloc(n_reads, sizeof *w->weights);
    REQUIRE(w->seqs && w->quals && w->lens && w->weights);
    w->use_q = tu_chance(r, 0.3);
    w->use_w = !w->use_q && tu_chance(r, 0.3);
    for (k = 0; k < n_reads; k++) {
        tu_buf b;
        memset(&b, 0, sizeof b);
        if (!tu_chance(r, 0.03)) tu_mutate_into(r, &b, anc, alen, rate);
        tu_buf_push(&b, 0);
        tu_buf_take(&b, &w->seqs[k], &w->lens[k]);
        w->lens[k]--; /* the terminating 0 */
        if (opts && w->lens[k] > 0) tu_decorate(r, w->seqs[k], w->lens[k], 0, 0, opts);
        w->quals[k] = (char *)malloc((size_t)w->lens[k] + 1);
        REQUIRE(w->quals[k] != NULL);
        for (j = 0; j < w->lens[k]; j++) w->quals[k][j] = (char)tu_range(r, '!', '~');
        w->quals[k][w->lens[k]] = 0;
        w->weights[k] = (int32_t)tu_range(r, 0, 100);
    }
    free(anc);
}

static void window_free(window *w)
{
    size_t k;
    for (k = 0; k < w->n; k++) {
        free(w->seqs[k]);
        free(w->quals[k]);
    }
    free(w->seqs);
    free(w->quals);
    free(w->lens);
    free(w->weights);
}

/* memory 0: a CUDA context takes every device (GALE_DEVICES_ALL: both GPUs of
 * nvidia-h200-x2, where each batch is split across them), else device 0 alone. */
static int new_ctx(gale_ctx **ctx, int backend, uint64_t memory)
{
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.device_memory = memory;
    if (backend == GALE_BACKEND_CUDA && memory == 0) o.n_devices = GALE_DEVICES_ALL;
    return gale_ctx_create(ctx, &o);
}

static long n_windows = 0, n_rescued = 0, n_reads_total = 0;
static int fake_run = 0;
static int strand_mode = 0; /* GALE_P_POA_STRAND_AMBIGUOUS: CPU threads only (doc/poa.md) */

static gale_batch *run_batch(gale_ctx *ctx, const params *p, const window *ws, size_t n, double *secs)
{
    gale_batch *bt = NULL;
    size_t i;
    double t0;
    REQUIRE_OK(gale_batch_create(ctx, GALE_POA, &bt));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_MATCH, p->m));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_MISMATCH, p->n));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_POA_ALGORITHM, p->type));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_POA_GAP_OPEN, p->g));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_POA_GAP_EXTEND, p->e));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_POA_GAP_OPEN2, p->q));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_POA_GAP_EXTEND2, p->c));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_POA_OUTPUT, GALE_POA_OUT_CONSENSUS | GALE_POA_OUT_MSA | GALE_POA_OUT_GFA));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_POA_STRAND_AMBIGUOUS, strand_mode));
    for (i = 0; i < n; i++) {
        gale_group g;
        gale_group_init(&g);
        g.n = ws[i].n;
        g.seqs = (const char *const *)ws[i].seqs;
        g.lens = ws[i].lens;
        g.weights = ws[i].use_w ? ws[i].weights : NULL;
        g.quals = ws[i].use_q ? (const char *const *)ws[i].quals : NULL;
        g.user = i;
        REQUIRE_OK(gale_batch_add_group(bt, &g));
    }
    t0 = tu_now();
    REQUIRE_OK(gale_submit(bt));
    REQUIRE_OK(gale_wait(bt));
    *secs = tu_now() - t0;
    return bt;
}

static int same_bytes(const char *a, const char *b, size_t n)
{
    return n == 0 || (a && b && memcmp(a, b, n) == 0);
}

static void compare(gale_batch *gpu, gale_batch *cpu, size_t n, const params *p, const window *ws, const char *what,
                    int count_rescued)
{
    size_t i, k;
    for (i = 0; i < n; i++) {
        gale_poa_result a, b;
        int same;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        a.size = b.size = sizeof a;
        REQUIRE_OK(gale_result_poa(gpu, i, &a));
        REQUIRE_OK(gale_result_poa(cpu, i, &b));
        if (count_rescued && (a.flags & GALE_RF_RESCUED)) n_rescued++;
        if (!fake_run && !strand_mode)
            CHECK_MSG(!(a.flags & GALE_RF_CPU), "%s: window %zu ran on the CPU threads, not on the GPU", what, i);
        if (!fake_run && strand_mode)
            CHECK_MSG(a.flags & GALE_RF_CPU, "%s: window %zu (-s) not flagged GALE_RF_CPU", what, i);
        for (k = 0; strand_mode && k < a.n_seqs; k++)
            CHECK_MSG(a.reversed && b.reversed && a.reversed[k] == b.reversed[k], "%s: window %zu: strand of read %zu",
                      what, i, k);
        same = a.n_seqs == b.n_seqs && a.consensus_len == b.consensus_len && a.n_rows == b.n_rows &&
               a.row_len == b.row_len && a.gfa_len == b.gfa_len && a.cells == b.cells && a.user == b.user;
        for (k = 0; same && k < a.n_seqs; k++) same = a.scores[k] == b.scores[k];
        same = same && same_bytes(a.consensus, b.consensus, (size_t)a.consensus_len) &&
               same_bytes(a.msa, b.msa, a.n_rows * (size_t)a.row_len) && same_bytes(a.gfa, b.gfa, (size_t)a.gfa_len);
        CHECK_MSG(same,
                  "%s: window %zu (type %d, m %d n %d g %d e %d q %d c %d; %zu reads, first %lld bases): GPU "
                  "consensus %lld rows %zu x %lld gfa %lld cells %llu; CPU %lld, %zu x %lld, %lld, %llu",
                  what, i, p->type, p->m, p->n, p->g, p->e, p->q, p->c, ws[i].n, (long long)(ws[i].n ? ws[i].lens[0] : 0),
                  (long long)a.consensus_len, a.n_rows, (long long)a.row_len, (long long)a.gfa_len,
                  (unsigned long long)a.cells, (long long)b.consensus_len, b.n_rows, (long long)b.row_len,
                  (long long)b.gfa_len, (unsigned long long)b.cells);
    }
}

int main(void)
{
    const uint64_t seed = tu_seed("poa_gpu");
    const int fake = getenv("GALE_GPU_TEST_FAKE") && strcmp(getenv("GALE_GPU_TEST_FAKE"), "1") == 0;
    const int gpu_backend = fake ? GALE_BACKEND_CPU : GALE_BACKEND_CUDA;
    long want = tu_scaled(800, 40);
    gale_ctx *gpu = NULL, *small = NULL, *cpu = NULL;
    double gpu_s = 0, cpu_s = 0;
    int first = 1;
    tu_rng r;
    gale_status st;

    fake_run = fake;
    REQUIRE(setenv("GALE_EXPERIMENTAL_GPU", "1", 1) == 0); /* before the first context */
    if (!fake && gale_cuda_device_count() == 0) {
        printf("poa_gpu: no CUDA device: SKIP\n");
        return SKIP;
    }
    st = new_ctx(&gpu, gpu_backend, 0);
    if (st == GALE_E_UNSUPPORTED) {
        printf("poa_gpu: no usable CUDA device (%s): SKIP\n", gale_last_error());
        return SKIP;
    }
    REQUIRE(st == GALE_OK);
    REQUIRE_OK(new_ctx(&small, gpu_backend, (uint64_t)64 << 20));
    REQUIRE_OK(new_ctx(&cpu, GALE_BACKEND_CPU, 0));
    tu_rng_init(&r, seed);
    while (n_windows < want) {
        params p;
        size_t n = (size_t)tu_range(&r, 1, 64), i;
        window *ws = (window *)calloc(n, sizeof *ws);
        gale_batch *bg, *bs, *bc;
        double sg, ss, sc;
        REQUIRE(ws != NULL);
        random_params(&r, &p);
        for (i = 0; i < n; i++) {
            const double u = tu_unif(&r);
            int64_t alen = u < 0.6 ? tu_logrange(&r, 1, 600) : u < 0.97 ? tu_range(&r, 600, 3000) : tu_range(&r, 3000, 6000);
            size_t reads = (size_t)(alen > 3000 ? tu_range(&r, 1, 6) : alen > 600 ? tu_range(&r, 1, 20) : tu_range(&r, 1, 40));
            if (first) { /* the fixed large window: about 1 GB of DP matrices, rescued under 64 MiB */
                alen = 3000;
                reads = 30;
                first = 0;
            }
            random_window(&r, &ws[i], alen, reads);
            n_reads_total += (long)reads;
        }
        bc = run_batch(cpu, &p, ws, n, &sc);
        bg = run_batch(gpu, &p, ws, n, &sg);
        bs = run_batch(small, &p, ws, n, &ss);
        compare(bg, bc, n, &p, ws, "CUDA", 0);
        compare(bs, bc, n, &p, ws, "CUDA, 64 MiB budget", 1);
        gpu_s += sg;
        cpu_s += sc;
        gale_batch_destroy(bg);
        gale_batch_destroy(bs);
        gale_batch_destroy(bc);
        for (i = 0; i < n; i++) window_free(&ws[i]);
        free(ws);
        n_windows += (long)n;
        /* The last round once more under spoa -s: a CUDA context's CPU threads. */
        if (n_windows >= want && !strand_mode) {
            strand_mode = 1;
            want += (long)tu_range(&r, 1, 32);
        }
    }
    printf("poa_gpu: %ld windows, %ld reads (seed %llu); GPU %.2f s, CPU %.2f s (informational); %ld rescued with a "
           "64 MiB budget\n",
           n_windows, n_reads_total, (unsigned long long)seed, gpu_s, cpu_s, n_rescued);
    if (!fake) CHECK_MSG(n_rescued > 0, "no window was rescued on the CPU with a 64 MiB device budget");
    gale_ctx_destroy(gpu);
    gale_ctx_destroy(small);
    gale_ctx_destroy(cpu);
    return tu_finish("poa_gpu");
}
