/*
 * lastz_seed_gpu.c - LASTZ's seeding and gap-free extension (gale_lastz_seeder_*) on a
 * CUDA context, whose finds run on the GPU (cuda/lastz_seed.cu), against a CPU context of
 * one thread, which runs LASTZ's own loop (lib/cpu/lastz_seed.cpp; tests/cli/lastz_seed.sh
 * checks that against Debian's lastz): the same HSPs in the same order, every field. The
 * GPU must have taken every find (gale_lastz_seeder_stats: finds_device, no
 * finds_device_failed) and counted the same seed hits as the CPU.
 *
 * Suite 'gpu'. Exits 77 (meson: SKIP) when there is no usable CUDA device.
 *
 * Cases (seed printed, GALE_TEST_SEED reproduces; GALE_TEST_SCALE scales the pairs):
 * random pairs of 20 - 400 kbp (the query a mutated copy of the target with 0 - 30%
 * divergence, inverted, unrelated and duplicated blocks, tandem repeats, N runs, IUPAC
 * codes, soft-masked stretches), both query strands, and a query of several records
 * joined by 0 bytes (as gale lastz seeds a [multiple] query); option sets: LASTZ's
 * defaults, --notransition, --transition=2, 14of22 (28-bit words: a table with words),
 * match12, a spaced seed with Ts, --step=3, --noentropy, a low --hspthresh (many
 * candidates, entropy scaling often), a small --xdrop, and --ambiguous=iupac. Every other
 * pair also runs with the test hooks GALE_LASTZ_SEED_WINDOW (windows of a few thousand
 * positions: the records' state carried across windows) and GALE_LASTZ_SEED_GPU_HITS
 * (a window's hits a few hundred: windows cut short, a word whose hits alone overflow
 * them, candidates' buffer grown and the walk redone) (doc/testing.md).
 *
 * Then the device's memory made to fail (GALE_FAULT_INJECT, alloc=N+ for N past
 * gale_ctx_create's allocations): each find goes to the CPU, with the same HSPs, counted in
 * finds_device_failed.
 *
 * GALE_GPU_TEST_FAKE=1 replaces the CUDA context by a CPU context of 3 threads (the
 * windowed parallel path): a self-check of this harness without a GPU (never used by
 * meson; the GPU assertions are skipped).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "testgen.h"
#include "testutil.h"

/* A target and a query made from it (see the header). */
static void make_pair(tu_rng *r, int64_t n, char **t, int64_t *tl, char **q, int64_t *ql)
{
    char *a = (char *)malloc((size_t)n);
    tu_buf b = {0};
    tu_mut m = tu_mut_rate(tu_unif(r) * 0.3);
    int64_t i, k;
    REQUIRE(a != NULL);
    tu_bases(r, a, n);
    for (k = tu_range(r, 0, 6); k > 0; k--) { /* tandem repeats: many hits on few records */
        const int64_t unit = tu_range(r, 1, 40), p = tu_range(r, 0, n - 1), rl = tu_range(r, 50, 3000);
        for (i = p + unit; i < n && i < p + rl; i++) a[i] = a[i - unit];
    }
    m.run = 0.3;
    m.run_max = 20;
    tu_rearranged(r, &b, a, n, &m, 0.15);
    tu_buf_take(&b, q, ql);
    *t = a;
    *tl = n;
    tu_blemish(r, *t, *tl);
    tu_blemish(r, *q, *ql);
}

typedef struct {
    const char *name;
    const char *seed;
    int transitions, step, xdrop, hsp, flags, ambiguous;
} option_set;

static const option_set sets[] = {
    {"defaults", NULL, 1, 1, 910, 3000, 0, 0},
    {"notransition", NULL, 0, 1, 910, 3000, 0, 0},
    {"transition=2", NULL, 2, 1, 910, 3000, 0, 0},
    {"14of22", "1110101100110010101111", 1, 1, 910, 3000, 0, 0},
    {"match12", "111111111111", 0, 1, 910, 3000, 0, 0},
    {"T seed", "1T1011T0011011", 1, 1, 910, 3000, 0, 0},
    {"step=3", NULL, 1, 3, 910, 3000, 0, 0},
    {"noentropy", NULL, 1, 1, 910, 3000, GALE_LASTZ_SEED_NOENTROPY, 0},
    {"hspthresh=1200", NULL, 1, 1, 910, 1200, 0, 0},
    {"xdrop=300", NULL, 1, 1, 300, 2000, 0, 0},
    {"ambiguous=iupac", NULL, 1, 1, 910, 3000, 0, 1},
};
#define N_SETS (sizeof sets / sizeof sets[0])

static long total_hsps = 0;

/* The HSPs of one query on both contexts' seeders: identical. */
static void compare(gale_lastz_seeder *gs, gale_lastz_seeder *cs, const char *q, int64_t ql, const char *what,
                    long pair, const char *opt)
{
    gale_lastz_anchor *hg = NULL, *hc = NULL;
    size_t ng = 0, nc = 0, i;
    REQUIRE_OK(gale_lastz_seeder_find(gs, q, ql, &hg, &ng));
    REQUIRE_OK(gale_lastz_seeder_find(cs, q, ql, &hc, &nc));
    CHECK_MSG(ng == nc, "pair %ld (%s, %s): %zu HSPs on the GPU, %zu on the CPU", pair, opt, what, ng, nc);
    for (i = 0; i < ng && i < nc; i++)
        if (hg[i].pos1 != hc[i].pos1 || hg[i].pos2 != hc[i].pos2 || hg[i].length != hc[i].length ||
            hg[i].score != hc[i].score) {
            CHECK_MSG(0, "pair %ld (%s, %s): HSP %zu is (%u, %u, %u, %d) on the GPU, (%u, %u, %u, %d) on the CPU",
                      pair, opt, what, i, hg[i].pos1, hg[i].pos2, hg[i].length, hg[i].score, hc[i].pos1, hc[i].pos2,
                      hc[i].length, hc[i].score);
            break;
        }
    total_hsps += (long)nc;
    gale_lastz_hsps_free(hg);
    gale_lastz_hsps_free(hc);
}

int main(void)
{
    const uint64_t seed = tu_seed("lastz_seed_gpu");
    const long pairs = tu_scaled(12, 2);
    gale_ctx *gpu = NULL, *cpu = NULL;
    gale_ctx_opts o;
    tu_rng r;
    long pi;
    uint64_t device_finds = 0, finds = 0;
    gale_status st;
    int fake = 0;
    const int skip = tu_gpu_context("lastz_seed_gpu", 3, &gpu, &fake);
    if (skip) return skip;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 1;
    REQUIRE_OK(gale_ctx_create(&cpu, &o));
    tu_rng_init(&r, seed);
    for (pi = 0; pi < pairs; pi++) {
        const int64_t n = tu_logrange(&r, 20000, (int64_t)(400000 * tu_scale()) + 20000);
        const option_set *os = &sets[pi < (long)N_SETS ? pi : (long)tu_below(&r, N_SETS)];
        const int hooks = pi % 2 == 1;
        char *t = NULL, *q = NULL, *rc, *multi;
        int64_t tl = 0, ql = 0, ml;
        gale_lastz_seed_params sp;
        gale_lastz_params p;
        gale_lastz_seeder *gs = NULL, *cs = NULL;
        gale_lastz_seed_stats gst, cst;
        make_pair(&r, n, &t, &tl, &q, &ql);
        gale_lastz_seed_params_init(&sp);
        sp.seed = os->seed;
        sp.transitions = os->transitions;
        sp.step = (uint32_t)os->step;
        sp.xdrop = os->xdrop;
        sp.hsp_thresh = os->hsp;
        sp.flags = (uint32_t)os->flags;
        gale_lastz_params_init(&p);
        if (os->ambiguous) {
            p.flags |= GALE_LASTZ_AMBIGUOUS_IUPAC;
            p.ambi_n_n = -100;
            p.ambi_n_other = -100;
        }
        if (hooks) {
            char w[32], h[32];
            snprintf(w, sizeof w, "%ld", (long)tu_range(&r, 500, 20000));
            snprintf(h, sizeof h, "%ld", (long)tu_range(&r, 50, 2000));
            setenv("GALE_LASTZ_SEED_WINDOW", w, 1);
            setenv("GALE_LASTZ_SEED_GPU_HITS", h, 1);
            printf("pair %ld: %s, %lld x %lld bases, GALE_LASTZ_SEED_WINDOW=%s GALE_LASTZ_SEED_GPU_HITS=%s\n", pi,
                   os->name, (long long)tl, (long long)ql, w, h);
        } else {
            printf("pair %ld: %s, %lld x %lld bases\n", pi, os->name, (long long)tl, (long long)ql);
        }
        fflush(stdout);
        REQUIRE_OK(gale_lastz_seeder_create(gpu, t, tl, &p, &sp, &gs));
        REQUIRE_OK(gale_lastz_seeder_create(cpu, t, tl, &p, &sp, &cs));
        compare(gs, cs, q, ql, "+ strand", pi, os->name);
        rc = (char *)malloc((size_t)ql);
        REQUIRE(rc != NULL);
        tu_revcomp(q, ql, rc);
        compare(gs, cs, rc, ql, "- strand", pi, os->name);
        /* several records joined by 0 bytes: the query, a piece of the target, the query's
         * reverse complement */
        ml = 2 * ql + tl / 4 + 2;
        multi = (char *)malloc((size_t)ml);
        REQUIRE(multi != NULL);
        memcpy(multi, q, (size_t)ql);
        multi[ql] = 0;
        memcpy(multi + ql + 1, t + tl / 2, (size_t)(tl / 4));
        multi[ql + 1 + tl / 4] = 0;
        memcpy(multi + ql + 2 + tl / 4, rc, (size_t)ql);
        compare(gs, cs, multi, ml, "records joined", pi, os->name);
        /* the target against itself: every diagonal's records busy */
        compare(gs, cs, t, tl, "self", pi, os->name);
        gst.size = sizeof gst;
        cst.size = sizeof cst;
        REQUIRE_OK(gale_lastz_seeder_stats(gs, &gst));
        REQUIRE_OK(gale_lastz_seeder_stats(cs, &cst));
        CHECK_MSG(gst.finds == 4 && gst.finds_device_failed == 0,
                  "pair %ld: %llu finds, %llu the GPU could not take", pi, (unsigned long long)gst.finds,
                  (unsigned long long)gst.finds_device_failed);
        CHECK_MSG(gst.hits == cst.hits && gst.hsps == cst.hsps,
                  "pair %ld: GPU %llu hits, %llu HSPs; CPU %llu hits, %llu HSPs", pi, (unsigned long long)gst.hits,
                  (unsigned long long)gst.hsps, (unsigned long long)cst.hits, (unsigned long long)cst.hsps);
        CHECK(cst.finds_device == 0);
        device_finds += fake ? gst.finds : gst.finds_device;
        finds += gst.finds;
        gale_lastz_seeder_free(gs);
        gale_lastz_seeder_free(cs);
        if (hooks) {
            unsetenv("GALE_LASTZ_SEED_WINDOW");
            unsetenv("GALE_LASTZ_SEED_GPU_HITS");
        }
        free(multi);
        free(rc);
        free(t);
        free(q);
    }
    /* The device's memory failing (GALE_FAULT_INJECT: every allocation from the N-th of the
     * context on, N past those of gale_ctx_create, so that the seeder's own fail, at its
     * first find's setup or later): each find then runs on the CPU, with the same HSPs, and
     * is counted as such. */
    if (!fake) {
        char *t = NULL, *q = NULL;
        int64_t tl = 0, ql = 0, n;
        int failed_seen = 0;
        make_pair(&r, 30000, &t, &tl, &q, &ql);
        for (n = 6; n <= 40; n += 2) {
            char plan[32];
            gale_ctx *fctx = NULL;
            gale_lastz_seeder *fs = NULL, *cs = NULL;
            gale_lastz_seed_stats fst;
            snprintf(plan, sizeof plan, "alloc=%lld+", (long long)n);
            setenv("GALE_FAULT_INJECT", plan, 1);
            gale_ctx_opts_init(&o);
            o.backend = GALE_BACKEND_CUDA;
            st = gale_ctx_create(&fctx, &o);
            unsetenv("GALE_FAULT_INJECT");
            if (st != GALE_OK) continue; /* (the context's own allocations reached) */
            REQUIRE_OK(gale_lastz_seeder_create(fctx, t, tl, NULL, NULL, &fs));
            REQUIRE_OK(gale_lastz_seeder_create(cpu, t, tl, NULL, NULL, &cs));
            compare(fs, cs, q, ql, plan, -1, "faults");
            compare(fs, cs, q, ql, plan, -1, "faults, again");
            fst.size = sizeof fst;
            REQUIRE_OK(gale_lastz_seeder_stats(fs, &fst));
            CHECK_MSG(fst.finds == 2 && fst.finds_device + fst.finds_device_failed == 2,
                      "%s: %llu finds, %llu on the GPU, %llu failed there", plan, (unsigned long long)fst.finds,
                      (unsigned long long)fst.finds_device, (unsigned long long)fst.finds_device_failed);
            if (fst.finds_device_failed > 0) failed_seen++;
            gale_lastz_seeder_free(fs);
            gale_lastz_seeder_free(cs);
            gale_ctx_destroy(fctx);
        }
        printf("lastz_seed_gpu: device memory failing: %d plans sent finds to the CPU\n", failed_seen);
        CHECK_MSG(failed_seen > 0, "no fault plan made a find fail on the GPU");
        free(t);
        free(q);
    }
    printf("lastz_seed_gpu: %ld pairs, %ld HSPs compared, %llu of %llu finds on the GPU\n", pairs, total_hsps,
           (unsigned long long)device_finds, (unsigned long long)finds);
    CHECK_MSG(device_finds == finds && finds > 0, "%llu of %llu finds on the GPU", (unsigned long long)device_finds,
              (unsigned long long)finds);
    CHECK(total_hsps > 0);
    gale_ctx_destroy(gpu);
    gale_ctx_destroy(cpu);
    return tu_finish("lastz_seed_gpu");
}
