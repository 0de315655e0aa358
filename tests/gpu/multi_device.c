/* Several device entries in one context (gale_ctx_opts.n_devices), tested on one GPU
 * by listing it twice (each entry has its own streams, thread and share of the
 * memory) and with GALE_DEVICES_ALL: X-drop, WFA (CIGARs) and edit batches whose
 * tasks vary in size, so that the split by estimated cells cuts unevenly, give
 * results identical, field by field and in submission order, to one device and to
 * the CPU backend; stats count every task; a kind's results never depend on the split.
 * Exits 77 (SKIP) without a usable CUDA device. */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

typedef struct run {
    gale_result *r;
    uint32_t **cigar;
    size_t *n_ops;
} run;

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
    out.cigar = (uint32_t **)calloc(n, sizeof *out.cigar);
    out.n_ops = (size_t *)calloc(n, sizeof *out.n_ops);
    REQUIRE(out.r && out.cigar && out.n_ops);
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
    gale_batch_destroy(b);
    return out;
}

static void run_free(run *r, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) free(r->cigar[i]);
    free(r->r);
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
    const int kinds[3] = {GALE_XDROP, GALE_WFA, GALE_EDIT};
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
    for (k = 0; k < 3; ++k) {
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
