/*
 * zdrop_gpu.c - the Z-drop kinds (GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2) on the CUDA backend
 * against the CPU backend, bit for bit: every field of gale_zdrop_result (cells
 * included; flags excepted) and the CIGAR op by op.
 *
 * Suite 'gpu'. Exits 77 (meson: SKIP) when there is no usable CUDA device:
 * gale_cuda_device_count() == 0, or a CUDA context cannot be created with
 * GALE_E_UNSUPPORTED. Any other failure to create one is a test failure.
 *
 * Cases: >= 5,000 random pairs at scale 1 (GALE_TEST_SCALE scales them; seed printed,
 * GALE_TEST_SEED reproduces) in batches of random parameters as the oracle's: the three
 * functions, bands 0 to none, Z-drop 0 to none, end bonus, minimap2's flag words and
 * random ones, simple and generic matrices, extreme penalties, lengths 0-20,000 skewed
 * short, divergence 0-30%, tails, N and lowercase. Then the same batches on a CUDA
 * context with a small device memory budget (64 MiB): the tasks the GPU cannot hold
 * are rescued on the CPU with the same results (among them a fixed unbanded 20 kbp pair
 * with its CIGAR, which needs about 800 MB); at least one result is flagged
 * GALE_RF_RESCUED, and stats.rescued counts them. GPU batch timings are printed
 * (informational).
 *
 * GALE_EXPERIMENTAL_GPU=1 is set here (harmless since the kernel is no longer experimental:
 * doc/zdrop.md, "GPU status"); every GPU result must come from the GPU (no GALE_RF_CPU).
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
    int kind, a, b, amb, q, e, q2, e2, w, zdrop, end_bonus, flag, matrix, noncan;
    int8_t mat[25];
} params;

static void set_params(gale_batch *bt, const params *p)
{
    int i;
    REQUIRE_OK(gale_batch_set(bt, GALE_P_MATCH, p->a));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_MISMATCH, p->b));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_N, p->amb));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_GAP_OPEN, p->q));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_GAP_EXTEND, p->e));
    if (p->kind != GALE_ZDROP_EXTZ2) REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_GAP_OPEN2, p->q2));
    if (p->kind == GALE_ZDROP_EXTD2) REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_GAP_EXTEND2, p->e2));
    if (p->kind != GALE_ZDROP_EXTS2) {
        REQUIRE_OK(gale_batch_set(bt, GALE_P_BAND, p->w));
        REQUIRE_OK(gale_batch_set(bt, GALE_P_END_BONUS, p->end_bonus));
    } else {
        REQUIRE_OK(gale_batch_set(bt, GALE_P_NONCAN, p->noncan));
    }
    REQUIRE_OK(gale_batch_set(bt, GALE_P_ZDROP, p->zdrop));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_ZDROP_FLAGS, p->flag));
    REQUIRE_OK(gale_batch_set(bt, GALE_P_ZDROP_MATRIX, p->matrix));
    for (i = 0; i < 25; i++) REQUIRE_OK(gale_batch_set(bt, GALE_P_ZDROP_MAT(i / 5, i % 5), p->mat[i]));
}

static void random_params(tu_rng *r, params *p)
{
    static const int mm2[] = {0, 0x40, 0x40 | 0x02 | 0x80, 0x08, 0x08 | 0x10, 0x01, 0x01 | 0x40, 0x02};
    const int extreme = tu_chance(r, 0.05);
    const double uw = tu_unif(r);
    int i, v = (int)tu_below(r, 3);
    memset(p, 0, sizeof *p);
    p->kind = v == 0 ? GALE_ZDROP_EXTZ2 : v == 1 ? GALE_ZDROP_EXTD2 : GALE_ZDROP_EXTS2;
    p->a = extreme ? (int)tu_range(r, -5, 127) : (int)tu_range(r, 1, 4);
    p->b = extreme ? (int)tu_range(r, -5, 128) : (int)tu_range(r, 1, 8);
    p->amb = tu_chance(r, 0.2) ? 0 : (int)tu_range(r, 1, 3);
    p->q = extreme ? (int)tu_range(r, 0, 127) : (int)tu_range(r, 0, 8);
    p->e = extreme ? (int)tu_range(r, 1, 127) : (int)tu_range(r, 1, 4);
    p->q2 = extreme ? (int)tu_range(r, 0, 127) : (int)tu_range(r, 8, 40);
    p->e2 = (int)tu_range(r, 0, 3);
    p->w = uw < 0.25 ? -1 : uw < 0.4 ? (int)tu_range(r, 0, 20) : (int)tu_range(r, 20, 1000);
    p->zdrop = tu_chance(r, 0.25) ? -1 : (int)tu_range(r, 0, 800);
    p->end_bonus = tu_chance(r, 0.5) ? -1 : (int)tu_range(r, 0, 100);
    p->flag = tu_chance(r, 0.7) ? mm2[tu_below(r, 8)] : (int)(tu_below(r, 256) & 0xdf);
    if (v == 2) p->flag |= (int)tu_below(r, 8) << 8;
    if (tu_chance(r, 0.2)) p->flag |= 0x04;
    p->matrix = tu_chance(r, 0.2);
    p->noncan = (int)tu_range(r, 0, 15);
    for (i = 0; i < 25; i++) p->mat[i] = (int8_t)tu_range(r, -6, 4);
}

static char *random_seq(tu_rng *r, int64_t n)
{
    char *s = (char *)malloc((size_t)n + 1);
    int64_t i;
    REQUIRE(s != NULL);
    for (i = 0; i < n; i++) s[i] = tu_chance(r, 0.01) ? "Nacgt"[tu_below(r, 5)] : "ACGT"[tu_below(r, 4)];
    s[n] = 0;
    return s;
}

static int64_t random_len(tu_rng *r)
{
    const double u = tu_unif(r);
    if (u < 0.05) return tu_range(r, 0, 3);
    if (u < 0.7) return tu_range(r, 3, 600);
    if (u < 0.97) return tu_range(r, 600, 5000);
    return tu_range(r, 5000, 20000);
}

/* One pair: query, and a target diverged from it with a random tail. */
static void random_pair(tu_rng *r, char **q, int64_t *ql, char **t, int64_t *tl)
{
    const int64_t n = random_len(r);
    tu_buf b;
    char *tail;
    int64_t tail_n = tu_chance(r, 0.3) ? tu_range(r, 1, 500) : 0, i;
    *q = random_seq(r, n);
    *ql = n;
    memset(&b, 0, sizeof b);
    tu_mutate_into(r, &b, *q, n, tu_unif(r) * 0.3);
    tail = random_seq(r, tail_n);
    for (i = 0; i < tail_n; i++) tu_buf_push(&b, tail[i]);
    free(tail);
    tu_buf_take(&b, t, tl);
}

static int new_ctx(gale_ctx **ctx, int backend, uint64_t memory)
{
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.device_memory = memory;
    return gale_ctx_create(ctx, &o);
}

static long n_tasks = 0, n_rescued = 0;
static int fake_run = 0;

/* Runs tasks[0..n) with p on ctx; the results and CIGARs go to the caller's arrays. */
static gale_batch *run_batch(gale_ctx *ctx, const params *p, const gale_task *tasks, size_t n, double *secs)
{
    gale_batch *bt = NULL;
    double t0;
    REQUIRE_OK(gale_batch_create(ctx, p->kind, &bt));
    set_params(bt, p);
    REQUIRE_OK(gale_batch_add_tasks(bt, tasks, n));
    t0 = tu_now();
    REQUIRE_OK(gale_submit(bt));
    REQUIRE_OK(gale_wait(bt));
    *secs = tu_now() - t0;
    return bt;
}

static void compare(gale_batch *gpu, gale_batch *cpu, size_t n, const params *p, const char *what, int count_rescued)
{
    size_t i;
    for (i = 0; i < n; i++) {
        gale_zdrop_result a, b;
        const uint32_t *ca = NULL, *cb = NULL;
        size_t na = 0, nb = 0;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        a.size = b.size = sizeof a;
        REQUIRE_OK(gale_result_zdrop(gpu, i, &a));
        REQUIRE_OK(gale_result_zdrop(cpu, i, &b));
        REQUIRE_OK(gale_result_cigar(gpu, i, &ca, &na));
        REQUIRE_OK(gale_result_cigar(cpu, i, &cb, &nb));
        if (count_rescued && (a.flags & GALE_RF_RESCUED)) n_rescued++;
        if (!fake_run) CHECK_MSG(!(a.flags & GALE_RF_CPU), "%s: task %zu ran on the CPU threads, not on the GPU", what, i);
        a.flags = b.flags = 0;
        CHECK_MSG(memcmp(&a, &b, sizeof a) == 0 && na == nb && (na == 0 || memcmp(ca, cb, na * 4) == 0),
                  "%s: task %zu (kind %d, w %d, zdrop %d, flag 0x%x): GPU max %d zdropped %d max_q %d max_t %d mqe %d "
                  "mqe_t %d mte %d mte_q %d score %d reach_end %d cells %llu n_cigar %zu; CPU %d %d %d %d %d %d %d %d "
                  "%d %d %llu %zu",
                  what, i, p->kind, p->w, p->zdrop, p->flag, a.max, a.zdropped, a.max_q, a.max_t, a.mqe, a.mqe_t, a.mte,
                  a.mte_q, a.score, a.reach_end, (unsigned long long)a.cells, na, b.max, b.zdropped, b.max_q, b.max_t,
                  b.mqe, b.mqe_t, b.mte, b.mte_q, b.score, b.reach_end, (unsigned long long)b.cells, nb);
    }
}

int main(void)
{
    const uint64_t seed = tu_seed("zdrop_gpu");
    const int fake = getenv("GALE_GPU_TEST_FAKE") && strcmp(getenv("GALE_GPU_TEST_FAKE"), "1") == 0;
    const int gpu_backend = fake ? GALE_BACKEND_CPU : GALE_BACKEND_CUDA;
    const long want = tu_scaled(5000, 100);
    gale_ctx *gpu = NULL, *small = NULL, *cpu = NULL;
    double gpu_s = 0, cpu_s = 0;
    tu_rng r;
    gale_status st;

    fake_run = fake;
    REQUIRE(setenv("GALE_EXPERIMENTAL_GPU", "1", 1) == 0);  /* before the first context */
    if (!fake && gale_cuda_device_count() == 0) {
        printf("zdrop_gpu: no CUDA device: SKIP\n");
        return SKIP;
    }
    st = new_ctx(&gpu, gpu_backend, 0);
    if (st == GALE_E_UNSUPPORTED) {
        printf("zdrop_gpu: no usable CUDA device (%s): SKIP\n", gale_last_error());
        return SKIP;
    }
    REQUIRE(st == GALE_OK);
    REQUIRE_OK(new_ctx(&small, gpu_backend, (uint64_t)64 << 20));
    REQUIRE_OK(new_ctx(&cpu, GALE_BACKEND_CPU, 0));
    tu_rng_init(&r, seed);
    while (n_tasks < want) {
        params p;
        size_t n = (size_t)tu_range(&r, 1, 200), i;
        gale_task *tasks = (gale_task *)calloc(n, sizeof *tasks);
        char **seqs = (char **)calloc(2 * n, sizeof *seqs);
        gale_batch *bg, *bs, *bc;
        double sg, ss, sc;
        REQUIRE(tasks && seqs);
        random_params(&r, &p);
        for (i = 0; i < n; i++) {
            int64_t ql, tl;
            random_pair(&r, &seqs[2 * i], &ql, &seqs[2 * i + 1], &tl);
            gale_task_init(&tasks[i]);
            tasks[i].v = seqs[2 * i];
            tasks[i].v_len = ql;
            tasks[i].h = seqs[2 * i + 1];
            tasks[i].h_len = tl;
            tasks[i].user = i;
        }
        bc = run_batch(cpu, &p, tasks, n, &sc);
        bg = run_batch(gpu, &p, tasks, n, &sg);
        bs = run_batch(small, &p, tasks, n, &ss);
        compare(bg, bc, n, &p, "CUDA", 0);
        compare(bs, bc, n, &p, "CUDA, 64 MiB budget", 1);
        gpu_s += sg;
        cpu_s += sc;
        gale_batch_destroy(bg);
        gale_batch_destroy(bs);
        gale_batch_destroy(bc);
        for (i = 0; i < 2 * n; i++) free(seqs[i]);
        free(seqs);
        free(tasks);
        n_tasks += (long)n;
    }
    {   /* A fixed case that no 64 MiB budget holds, at any scale: an unbanded 20 kbp pair with
         * its CIGAR needs about 800 MB of backtrack codes (zd_layout), so the small context must
         * rescue it on the CPU; the full one runs it on the GPU. */
        params p;
        gale_task task;
        int64_t ql = 20000, tl;
        char *q, *t;
        gale_batch *bg, *bs, *bc;
        double sg, ss, sc;
        tu_buf b;
        memset(&p, 0, sizeof p);
        p.kind = GALE_ZDROP_EXTZ2, p.a = 2, p.b = 4, p.amb = 1, p.q = 4, p.e = 2, p.w = -1, p.zdrop = -1;
        p.end_bonus = -1;
        q = random_seq(&r, ql);
        memset(&b, 0, sizeof b);
        tu_mutate_into(&r, &b, q, ql, 0.05);
        tu_buf_take(&b, &t, &tl);
        gale_task_init(&task);
        task.v = q, task.v_len = ql, task.h = t, task.h_len = tl;
        bc = run_batch(cpu, &p, &task, 1, &sc);
        bg = run_batch(gpu, &p, &task, 1, &sg);
        bs = run_batch(small, &p, &task, 1, &ss);
        compare(bg, bc, 1, &p, "CUDA, unbanded 20 kbp", 0);
        compare(bs, bc, 1, &p, "CUDA, 64 MiB budget, unbanded 20 kbp", 1);
        gale_batch_destroy(bg);
        gale_batch_destroy(bs);
        gale_batch_destroy(bc);
        free(q);
        free(t);
        n_tasks++;
    }
    printf("zdrop_gpu: %ld tasks (seed %llu); GPU %.2f s, CPU %.2f s (informational); %ld rescued with a 64 MiB budget\n",
           n_tasks, (unsigned long long)seed, gpu_s, cpu_s, n_rescued);
    if (!fake) CHECK_MSG(n_rescued > 0, "no task was rescued on the CPU with a 64 MiB device budget");
    gale_ctx_destroy(gpu);
    gale_ctx_destroy(small);
    gale_ctx_destroy(cpu);
    return tu_finish("zdrop_gpu");
}
