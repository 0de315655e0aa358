/*
 * compare_gpu.c - gale_compare (GPUGECKO-style whole-genome comparison, doc/compare.md) on a
 * CUDA context, whose calls run on the GPU (cuda/compare.cu), against a CPU context
 * (lib/cpu/compare.cpp, the semantics of record; tests/cli/compare.sh checks it against
 * the brute-force oracle): the same fragments in the same order, every field.
 *
 * Suite 'gpu'. Exits 77 (meson: SKIP) when there is no usable CUDA device.
 *
 * Cases (seed printed, GALE_TEST_SEED reproduces; GALE_TEST_SCALE scales the pairs):
 * random pairs of 20 - 300 kbp: A random with tandem repeats and copies of a few repeat
 * elements (words occurring tens of times: max_occ matters), B built from A's pieces
 * (mutated copies at 0 - 15% divergence, inverted ones, duplicated ones, random stretches);
 * both with N runs, IUPAC codes, soft-masked (lowercase) stretches and byte-0 record
 * separators. Option sets: the defaults, k 12 to 28 (odd ones too), match 2 / mismatch 3,
 * mismatch 0 (extensions that never drop), xdrop 0, min_length and min_identity 0 (every
 * fragment kept), max_occ 3 and 20, one strand only. Every other pair runs with the test
 * hook GALE_COMPARE_CHUNK (windows of 1 - 5000 positions, runs of 1 - 3000 hits: the
 * diagonals' `covered` carried across many windows and runs, a position alone past the
 * cap); a pair's B against itself as A too (every diagonal near the main one busy).
 *
 * Every call on the GPU context passes GALE_COMPARE_GPU_ONLY, so that none passes by
 * running on the CPU. Then the device's memory made to fail (GALE_FAULT_INJECT, alloc=N+ for
 * N past gale_ctx_create's allocations): with GALE_COMPARE_GPU_ONLY a call is done on the GPU
 * or refused with GALE_E_NOMEM (some plan must be refused: the faults reach its own
 * allocations); without it gale_compare must succeed with the CPU's fragments
 * (lib/backend_cuda.cpp, compare_device: memory that runs out sends the call to the CPU),
 * twice on the same context.
 *
 * GALE_GPU_TEST_FAKE=1 replaces the CUDA context by a CPU context of 3 threads: a
 * self-check of this harness without a GPU (never used by meson).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "testgen.h"
#include "testutil.h"


/* Byte-0 record separators. */
static void separators(tu_rng *r, char *s, int64_t n)
{
    int64_t k;
    if (n < 200) return;
    for (k = tu_range(r, 0, 4); k > 0; k--) s[tu_range(r, 1, n - 2)] = 0;
}

/* A and B (see the header). */
static void make_pair(tu_rng *r, int64_t n, char **pa, int64_t *la, char **pb, int64_t *lb)
{
    char *a = (char *)malloc((size_t)n);
    char elem[3][400];
    tu_buf b = {0};
    tu_mut m = tu_mut_rate(tu_unif(r) * 0.15);
    int64_t i, k;
    REQUIRE(a != NULL);
    tu_bases(r, a, n);
    for (k = 0; k < 3; k++) tu_bases(r, elem[k], (int64_t)sizeof elem[k]);
    for (k = tu_range(r, 0, 40); k > 0; k--) { /* repeat elements: their words many times in A */
        const int e = (int)tu_below(r, 3);
        const int64_t el = tu_range(r, 40, (int64_t)sizeof elem[e]), p = tu_range(r, 0, n - 1);
        for (i = 0; i < el && p + i < n; i++) a[p + i] = elem[e][i];
    }
    for (k = tu_range(r, 0, 6); k > 0; k--) { /* tandem repeats */
        const int64_t unit = tu_range(r, 1, 40), p = tu_range(r, 0, n - 1), rl = tu_range(r, 50, 3000);
        for (i = p + unit; i < n && i < p + rl; i++) a[i] = a[i - unit];
    }
    m.run = 0.3;
    m.run_max = 10;
    tu_rearranged(r, &b, a, n, &m, 0.2);
    tu_buf_take(&b, pb, lb);
    *pa = a;
    *la = n;
    tu_blemish(r, *pa, *la);
    tu_blemish(r, *pb, *lb);
    separators(r, *pa, *la);
    separators(r, *pb, *lb);
}

typedef struct {
    const char *name;
    int word, match, mismatch, xdrop;
    uint64_t min_length;
    uint32_t min_identity, flags;
    uint64_t max_occ;
} option_set;

static const option_set sets[] = {
    {"defaults", 32, 1, 1, 10, 40, 60, 0, 0},
    {"k12 max_occ=20", 12, 1, 1, 10, 40, 60, 0, 20},
    {"k16 xdrop=20 min_length=30", 16, 1, 1, 20, 30, 60, 0, 0},
    {"k20 match=2 mismatch=3 min_identity=80", 20, 2, 3, 15, 40, 80, 0, 0},
    {"k24 mismatch=0", 24, 1, 0, 10, 40, 60, 0, 0},
    {"k12 max_occ=3 plus", 12, 1, 1, 10, 40, 60, GALE_COMPARE_PLUS, 3},
    {"k28 xdrop=0 minus", 28, 1, 1, 0, 40, 60, GALE_COMPARE_MINUS, 0},
    {"k13 everything kept", 13, 1, 1, 10, 0, 0, 0, 0},
    {"k17 max_occ=1", 17, 1, 2, 30, 50, 70, 0, 1},
};
#define N_SETS (sizeof sets / sizeof sets[0])

static long total_frags = 0;
static int fake = 0;        /* GALE_GPU_TEST_FAKE: "gpu" is a CPU context */
static int fallback_ok = 0; /* the fault cases: the GPU's call may go to the CPU */

/* One comparison on both contexts: identical. On a real GPU context the GPU's call has
 * GALE_COMPARE_GPU_ONLY, so that it cannot pass by falling back to the CPU. */
static void check(gale_ctx *gpu, gale_ctx *cpu, const char *a, int64_t la, const char *b, int64_t lb,
                  const gale_compare_params *p, const char *what, long pair, const char *opt)
{
    gale_fragment *fg = NULL, *fc = NULL;
    size_t ng = 0, nc = 0, i;
    gale_compare_params pg = *p;
    if (!fake && !fallback_ok) pg.flags |= GALE_COMPARE_GPU_ONLY;
    REQUIRE_OK(gale_compare(gpu, a, la, b, lb, &pg, &fg, &ng));
    REQUIRE_OK(gale_compare(cpu, a, la, b, lb, p, &fc, &nc));
    CHECK_MSG(ng == nc, "pair %ld (%s, %s): %zu fragments on the GPU, %zu on the CPU", pair, opt, what, ng, nc);
    for (i = 0; i < ng && i < nc; i++)
        if (fg[i].a_start != fc[i].a_start || fg[i].b_start != fc[i].b_start || fg[i].length != fc[i].length ||
            fg[i].score != fc[i].score || fg[i].matches != fc[i].matches || fg[i].strand != fc[i].strand ||
            memcmp(fg[i].reserved, fc[i].reserved, sizeof fg[i].reserved) != 0) {
            CHECK_MSG(0,
                      "pair %ld (%s, %s): fragment %zu is (%llu, %llu, %llu, %lld, %u, %c) on the GPU, "
                      "(%llu, %llu, %llu, %lld, %u, %c) on the CPU",
                      pair, opt, what, i, (unsigned long long)fg[i].a_start, (unsigned long long)fg[i].b_start,
                      (unsigned long long)fg[i].length, (long long)fg[i].score, fg[i].matches, fg[i].strand,
                      (unsigned long long)fc[i].a_start, (unsigned long long)fc[i].b_start,
                      (unsigned long long)fc[i].length, (long long)fc[i].score, fc[i].matches, fc[i].strand);
            break;
        }
    total_frags += (long)nc;
    gale_fragments_free(fg);
    gale_fragments_free(fc);
}

static void params_of(const option_set *os, gale_compare_params *p)
{
    gale_compare_params_init(p);
    p->word = os->word;
    p->match = os->match;
    p->mismatch = os->mismatch;
    p->xdrop = os->xdrop;
    p->min_length = os->min_length;
    p->min_identity = os->min_identity;
    p->flags = os->flags;
    p->max_occ = os->max_occ;
}

int main(void)
{
    const uint64_t seed = tu_seed("compare_gpu");
    const long pairs = tu_scaled(14, 2);
    gale_ctx *gpu = NULL, *cpu = NULL;
    gale_ctx_opts o;
    tu_rng r;
    long pi;
    gale_status st;
    const int skip = tu_gpu_context("compare_gpu", 3, &gpu, &fake);
    if (skip) return skip;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 2;
    REQUIRE_OK(gale_ctx_create(&cpu, &o));
    tu_rng_init(&r, seed);
    for (pi = 0; pi < pairs; pi++) {
        const int64_t n = tu_logrange(&r, 20000, (int64_t)(300000 * tu_scale()) + 20000);
        const option_set *os = &sets[pi < (long)N_SETS ? pi : (long)tu_below(&r, N_SETS)];
        const int hooks = pi % 2 == 1;
        char *a = NULL, *b = NULL;
        int64_t la = 0, lb = 0;
        gale_compare_params p;
        make_pair(&r, n, &a, &la, &b, &lb);
        params_of(os, &p);
        if (hooks) {
            char c[64];
            /* (runs of one hit on the smaller pairs only: each run is a round trip to the
             * device, and B x B has a hit a position) */
            snprintf(c, sizeof c, "%ld,%ld", (long)tu_range(&r, 1, 5000),
                     n < 60000 && tu_chance(&r, 0.3) ? 1L : (long)tu_range(&r, 20, 3000));
            setenv("GALE_COMPARE_CHUNK", c, 1);
            printf("pair %ld: %s, %lld x %lld bases, GALE_COMPARE_CHUNK=%s\n", pi, os->name, (long long)la,
                   (long long)lb, c);
        } else {
            printf("pair %ld: %s, %lld x %lld bases\n", pi, os->name, (long long)la, (long long)lb);
        }
        fflush(stdout);
        check(gpu, cpu, a, la, b, lb, &p, "A x B", pi, os->name);
        check(gpu, cpu, b, lb, b, lb, &p, "B x B", pi, os->name);
        check(gpu, cpu, b, lb / 3, a, la, &p, "part of B x A", pi, os->name);
        if (hooks) unsetenv("GALE_COMPARE_CHUNK");
        free(a);
        free(b);
    }
    /* Edge cases: shorter than a word, no word at all (N only), exactly one word. */
    {
        gale_compare_params p;
        char ns[100], w[32];
        gale_compare_params_init(&p);
        memset(ns, 'N', sizeof ns);
        memset(w, 'A', sizeof w);
        check(gpu, cpu, ns, (int64_t)sizeof ns, ns, (int64_t)sizeof ns, &p, "N only", -1, "edges");
        check(gpu, cpu, w, 31, w, 32, &p, "A shorter than a word", -1, "edges");
        p.min_length = 0;
        check(gpu, cpu, w, 32, w, 32, &p, "one word", -1, "edges");
    }
    /* The device's memory failing (GALE_FAULT_INJECT: every allocation from the N-th of the
     * context on, N past those of gale_ctx_create, so that gale_compare's own fail, at its
     * first buffer or later): the call then runs on the CPU, with the same fragments. */
    if (!fake) {
        char *a = NULL, *b = NULL;
        int64_t la = 0, lb = 0, n;
        int made = 0, refused = 0;
        gale_compare_params p;
        make_pair(&r, 40000, &a, &la, &b, &lb);
        params_of(&sets[1], &p);
        fallback_ok = 1;
        for (n = 2; n <= 60; n += 2) {
            char plan[32];
            gale_ctx *fctx = NULL;
            snprintf(plan, sizeof plan, "alloc=%lld+", (long long)n);
            setenv("GALE_FAULT_INJECT", plan, 1);
            gale_ctx_opts_init(&o);
            o.backend = GALE_BACKEND_CUDA;
            st = gale_ctx_create(&fctx, &o);
            unsetenv("GALE_FAULT_INJECT");
            if (st != GALE_OK) continue; /* (the context's own allocations reached) */
            made++;
            setenv("GALE_COMPARE_CHUNK", "3000,500", 1);
            { /* GPU only: done there, or refused for its memory (the fault reached the call) */
                gale_compare_params po = p;
                gale_fragment *f = NULL;
                size_t nf = 0;
                po.flags |= GALE_COMPARE_GPU_ONLY;
                st = gale_compare(fctx, a, la, b, lb, &po, &f, &nf);
                CHECK_MSG(st == GALE_OK || st == GALE_E_NOMEM, "%s, GPU only: status %d (%s)", plan, (int)st,
                          gale_last_error());
                refused += st == GALE_E_NOMEM;
                gale_fragments_free(f);
            }
            check(fctx, cpu, a, la, b, lb, &p, plan, -1, "faults");
            check(fctx, cpu, a, la, b, lb, &p, plan, -1, "faults, again");
            unsetenv("GALE_COMPARE_CHUNK");
            gale_ctx_destroy(fctx);
        }
        printf("compare_gpu: device memory failing: %d plans, %d of them refused by the GPU\n", made, refused);
        CHECK_MSG(made > 0, "no fault plan let a context be made");
        CHECK_MSG(refused > 0, "no fault plan reached gale_compare's own allocations");
        free(a);
        free(b);
    }
    printf("compare_gpu: %ld pairs, %ld fragments compared\n", pairs, total_frags);
    CHECK(total_frags > 0);
    gale_ctx_destroy(gpu);
    gale_ctx_destroy(cpu);
    return tu_finish("compare_gpu");
}
