/* Several device entries in one context (gale_ctx_opts.n_devices), tested on one GPU
 * by listing it twice (each entry has its own streams, thread and share of the
 * memory) and with GALE_DEVICES_ALL (both GPUs of nvidia-h200-x2, tools/device/run.sh
 * multigpu): X-drop, WFA (CIGARs), edit and the three Z-drop kinds' batches whose
 * tasks vary in size, so that the split by estimated cells cuts unevenly, give
 * results identical, field by field and in submission order, to one device and to
 * the CPU backend; stats count every task, and the device parts (gale_batch_device_stats)
 * cover the batch and add up to its statistics; a kind's results never depend on the split.
 * Exits 77 (SKIP) without a usable CUDA device. */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

typedef struct run {
    gale_result *r;
    gale_zdrop_result *z; /* Z-drop kinds' own fields */
    uint32_t **cigar;
    size_t *n_ops;
} run;

static int is_zdrop(int kind)
{
    return kind == GALE_ZDROP_EXTZ2 || kind == GALE_ZDROP_EXTD2 || kind == GALE_ZDROP_EXTS2;
}

/* The batch's device parts (gale_batch_device_stats) against its statistics: on a
 * CUDA context one contiguous part per entry at most, in the context's device order,
 * covering every task; cells, rescued and kernel time adding up to the batch's. The
 * array's stride is larger than the struct, so the bytes past it must read 0. */
static void check_parts(gale_ctx *ctx, const gale_batch *b, const gale_stats *st, size_t n)
{
    enum { kMax = 8, kStride = sizeof(gale_device_stats) + 16 };
    unsigned char buf[kMax * kStride];
    int dev[kMax];
    size_t nd = 0, np = 0, i, k, next = 0;
    uint64_t cells = 0, rescued = 0, kernel = 0;
    int be = -1;
    REQUIRE_OK(gale_ctx_backend(ctx, &be));
    REQUIRE_OK(gale_ctx_devices(ctx, dev, kMax, &nd));
    memset(buf, 0x5A, sizeof buf);
    ((gale_device_stats *)(void *)buf)->size = kStride;
    CHECK_ST(gale_batch_device_stats(b, (gale_device_stats *)(void *)buf, kMax, &np), GALE_OK);
    if (be != GALE_BACKEND_CUDA || n == 0) {
        CHECK_MSG(np == 0, "%zu device parts of a batch the CPU ran (%zu tasks)", np, n);
        return;
    }
    CHECK_MSG(np >= 1 && np <= nd && np <= n, "%zu device parts of %zu tasks on %zu entries", np, n, nd);
    for (i = 0; i < np && i < kMax; ++i) {
        gale_device_stats d;
        memcpy(&d, buf + i * kStride, sizeof d);
        CHECK_EQ_I64(d.size, kStride);
        CHECK_EQ_I64(d.device, dev[i]);
        CHECK_MSG(d.first_task == next && d.tasks > 0, "part %zu: tasks [%llu, +%llu), expected to start at %zu", i,
                  (unsigned long long)d.first_task, (unsigned long long)d.tasks, next);
        CHECK(d.elapsed_ns > 0 && d.elapsed_ns <= st->elapsed_ns);
        for (k = sizeof d; k < kStride; ++k) CHECK_MSG(buf[i * kStride + k] == 0, "part %zu: byte %zu past the struct", i, k);
        next = (size_t)(d.first_task + d.tasks);
        cells += d.cells;
        rescued += d.rescued;
        if (d.kernel_ns > kernel) kernel = d.kernel_ns;
    }
    CHECK_EQ_I64(next, n);
    CHECK_EQ_I64(cells, st->cells);
    CHECK_EQ_I64(rescued, st->rescued);
    CHECK_EQ_I64(kernel, st->kernel_ns); /* the batch's kernel time is its longest device's */
    if (np < kMax) CHECK_MSG(buf[np * kStride] == 0x5A, "a part written past the %zu there are", np);
}

static gale_ctx *ctx_with(int backend, int n_devices, const int *devices, uint64_t memory)
{
    gale_ctx_opts o;
    gale_ctx *c = NULL;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.n_devices = n_devices;
    o.devices = devices;
    o.device_memory = memory;
    REQUIRE_OK(gale_ctx_create(&c, &o));
    return c;
}

/* Runs the pairs as one batch of `kind` on ctx and keeps everything. */
static run run_batch(gale_ctx *ctx, int kind, const tu_pair *p, size_t n)
{
    run out;
    gale_batch *b = NULL;
    size_t i;
    gale_stats st;
    out.r = (gale_result *)calloc(n, sizeof *out.r);
    out.z = (gale_zdrop_result *)calloc(n + 1, sizeof *out.z);
    out.cigar = (uint32_t **)calloc(n, sizeof *out.cigar);
    out.n_ops = (size_t *)calloc(n, sizeof *out.n_ops);
    REQUIRE(out.r && out.z && out.cigar && out.n_ops);
    REQUIRE_OK(gale_batch_create(ctx, kind, &b));
    if (kind == GALE_XDROP) REQUIRE_OK(gale_batch_set(b, GALE_P_XDROP, 40));
    for (i = 0; i < n; ++i) {
        gale_task t;
        tu_task_from_pair(&t, &p[i], i * 3 + 11);
        if (kind != GALE_XDROP) t.h_begin = t.h_end = t.v_begin = t.v_end = 0;
        REQUIRE_OK(gale_batch_add(b, &t));
    }
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    if (n > 0) {
        out.r[0].size = sizeof out.r[0];
        CHECK_ST(gale_result_get_range(b, 0, n, out.r), GALE_OK);
    }
    for (i = 0; i < n && is_zdrop(kind); ++i) {
        out.z[i].size = sizeof out.z[i];
        CHECK_ST(gale_result_zdrop(b, i, &out.z[i]), GALE_OK);
    }
    for (i = 0; i < n && kind != GALE_XDROP; ++i) {
        const uint32_t *c;
        CHECK_ST(gale_result_cigar(b, i, &c, &out.n_ops[i]), GALE_OK);
        out.cigar[i] = (uint32_t *)malloc(out.n_ops[i] * sizeof(uint32_t) + 1);
        REQUIRE(out.cigar[i]);
        if (out.n_ops[i]) memcpy(out.cigar[i], c, out.n_ops[i] * sizeof(uint32_t));
    }
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    CHECK_ST(gale_batch_stats(b, &st), GALE_OK);
    CHECK_EQ_I64((int64_t)st.tasks, (int64_t)n);
    check_parts(ctx, b, &st, n);
    gale_batch_destroy(b);
    return out;
}

static void run_free(run *r, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) free(r->cigar[i]);
    free(r->r);
    free(r->z);
    free(r->cigar);
    free(r->n_ops);
}

static void compare(const run *a, const run *b, size_t n, const char *what)
{
    size_t i, bad = 0;
    for (i = 0; i < n; ++i) {
        char w[128];
        int same;
        snprintf(w, sizeof w, "%s, task %zu", what, i);
        /* The rescue flag may differ (budgets differ); every computed field may not. */
        same = tu_result_eq(&a->r[i], &b->r[i], 0, w) && a->n_ops[i] == b->n_ops[i] &&
               (a->n_ops[i] == 0 || memcmp(a->cigar[i], b->cigar[i], a->n_ops[i] * sizeof(uint32_t)) == 0);
        /* Z-drop's fields from max to reserved0 (flags aside, as above), and its cells */
        same = same &&
               memcmp(&a->z[i].max, &b->z[i].max, offsetof(gale_zdrop_result, cells) - offsetof(gale_zdrop_result, max)) == 0 &&
               a->z[i].cells == b->z[i].cells;
        if (!same && ++bad <= 5) CHECK_MSG(0, "%s differs", w);
        tu_count_check();
    }
    CHECK_MSG(bad == 0, "%s: %zu of %zu tasks differ", what, bad, n);
}

int main(void)
{
    tu_rng rng;
    const int ngpu = gale_cuda_device_count();
    const int twice[2] = {0, 0};
    const int kinds[] = {GALE_XDROP, GALE_WFA, GALE_EDIT, GALE_ZDROP_EXTZ2, GALE_ZDROP_EXTD2, GALE_ZDROP_EXTS2};
    size_t n, i, k;
    tu_pair *pairs;
    gale_ctx *cpu, *one, *two, *all;
    if (ngpu == 0) {
        printf("multi_device: no CUDA device: SKIP\n");
        return 77;
    }
    tu_rng_init(&rng, tu_seed("multi_device"));
    /* (at least 60, not 600: racecheck runs this at GALE_TEST_SCALE 0.002, run.sh sanitize) */
    n = (size_t)tu_scaled(6000, 60);
    pairs = (tu_pair *)calloc(n, sizeof *pairs);
    REQUIRE(pairs);
    for (i = 0; i < n; ++i) /* sizes over three orders of magnitude, heavy tasks anywhere */
        tu_pair_make(&rng, &pairs[i], tu_logrange(&rng, 20, 4000), 17, tu_range(&rng, 0, 12) / 100.0,
                     TU_LOWER | TU_NRUNS);
    cpu = ctx_with(GALE_BACKEND_CPU, 0, NULL, 0);
    one = ctx_with(GALE_BACKEND_CUDA, 0, NULL, 0);
    two = ctx_with(GALE_BACKEND_CUDA, 2, twice, (uint64_t)2 << 30);
    all = ctx_with(GALE_BACKEND_CUDA, GALE_DEVICES_ALL, NULL, 0);
    {
        int d[4];
        size_t nd = 0;
        CHECK_ST(gale_ctx_devices(two, d, 4, &nd), GALE_OK);
        CHECK_MSG(nd == 2 && d[0] == 0 && d[1] == 0, "devices of the twice-listed context: %zu", nd);
        CHECK_ST(gale_ctx_devices(all, d, 4, &nd), GALE_OK);
        CHECK_EQ_I64((int64_t)nd, ngpu);
    }
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        run rc = run_batch(cpu, kinds[k], pairs, n), r1 = run_batch(one, kinds[k], pairs, n),
            r2 = run_batch(two, kinds[k], pairs, n), ra = run_batch(all, kinds[k], pairs, n);
        char what[96];
        snprintf(what, sizeof what, "kind %d: one device vs CPU", kinds[k]);
        compare(&r1, &rc, n, what);
        snprintf(what, sizeof what, "kind %d: device 0 twice vs one device", kinds[k]);
        compare(&r2, &r1, n, what);
        snprintf(what, sizeof what, "kind %d: all devices vs one device", kinds[k]);
        compare(&ra, &r1, n, what);
        /* A batch smaller than the number of entries, and an empty one. */
        {
            run s2 = run_batch(two, kinds[k], pairs, 1), s1 = run_batch(one, kinds[k], pairs, 1);
            run e2 = run_batch(two, kinds[k], pairs, 0);
            compare(&s2, &s1, 1, "one task on two entries");
            run_free(&s2, 1);
            run_free(&s1, 1);
            run_free(&e2, 0);
        }
        run_free(&rc, n);
        run_free(&r1, n);
        run_free(&r2, n);
        run_free(&ra, n);
    }
    gale_ctx_destroy(all);
    gale_ctx_destroy(two);
    gale_ctx_destroy(one);
    gale_ctx_destroy(cpu);
    for (i = 0; i < n; ++i) tu_pair_free(&pairs[i]);
    free(pairs);
    return tu_finish("multi_device");
}
