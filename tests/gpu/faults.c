/*
 * faults.c - the CUDA backend when CUDA fails: device and pinned allocations, kernel
 * launches and stream operations made to fail by GALE_FAULT_INJECT (a testing aid,
 * doc/testing.md, cuda/common/fault.cuh), for X-drop and for WFA with CIGARs.
 *
 * Suite 'gpu'. Exits 77 (meson: SKIP) when there is no usable CUDA device.
 *
 * Each kind's pairs (random ones from a printed seed, GALE_TEST_SEED reproduces them,
 * their number scaled by GALE_TEST_SCALE, and fixed edge cases) are run once on a CPU
 * context: the reference. Then, on a CUDA context with the default device budget and
 * on one with a 1 MiB budget (many small chunks), a clean context gives each batch's
 * number of rescued tasks with no fault (the baseline), and for each injection rule a
 * fresh context (GALE_FAULT_INJECT set while it is created, then unset) runs the same
 * batch up to three times, one after the other. Every batch either ends GALE_OK with
 * every result field, CIGAR and stats equal to the CPU's (flags but GALE_RF_RESCUED),
 * or fails with the status the rule's kind documents and a message that names the
 * injection; its results then read as failed. No wait lasts more than ten minutes. What
 * each rule must show:
 *   oom, once      (host=1, launch=1:oom, launch=2:oom, stream=2:oom, stream=7:oom):
 *                  every batch correct; the fault's batch rescues more tasks than the
 *                  baseline (the failed chunk went to the CPU), the last one exactly the
 *                  baseline (the context works as before);
 *   oom, setup     (stream=1:oom: a run's first event record; alloc=K+1: a run's timing
 *                  event, K the allocations of gale_ctx_create, found by counting): the
 *                  whole first batch is rescued, the next ones are not;
 *   oom, always    (host=1+, launch=1+:oom): every batch correct, every task rescued;
 *   error, once    (launch=1, stream=1, stream=3): exactly one batch fails, with
 *                  GALE_E_DEVICE, and a later one is correct with the baseline's rescues;
 *   sticky         (stream=4:sticky): a batch fails with GALE_E_DEVICE, saying the device
 *                  is lost, and so does every later batch; the context is destroyed cleanly;
 *   at creation    alloc=1 with the default budget (the pool is halved: the context works
 *                  and is correct), alloc=1 and alloc=2 with a set budget (GALE_E_NOMEM),
 *                  and rules that do not parse (GALE_E_INVALID).
 */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE (setenv) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

#define SKIP 77
#define ROUNDS 3
#define WAIT_MS (600 * 1000)

/* One kind's pairs and their CPU reference. */
typedef struct kset {
    const char *name;
    int kind;
    size_t n, cap;
    gale_task *tasks;
    char **bufs; /* the sequences, owned (2 per task) */
    gale_result *ref;
    uint32_t **ref_cigar;
    size_t *ref_ncig;
    uint64_t ref_cells;
} kset;

/* What one batch ended with. */
typedef struct outcome {
    gale_status st;
    size_t rescued;
    char msg[1024];
} outcome;

static void ks_add(kset *s, char *h, int64_t hl, char *v, int64_t vl, int64_t hb, int64_t vb, int64_t k)
{
    gale_task *t;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->tasks = (gale_task *)realloc(s->tasks, s->cap * sizeof *s->tasks);
        s->bufs = (char **)realloc(s->bufs, 2 * s->cap * sizeof *s->bufs);
        REQUIRE(s->tasks && s->bufs);
    }
    t = &s->tasks[s->n];
    tu_task_seqs(t, h, hl, v, vl);
    t->h_begin = hb;
    t->h_end = hb + k;
    t->v_begin = vb;
    t->v_end = vb + k;
    t->user = (uint64_t)s->n * 2654435761u + 17;
    s->bufs[2 * s->n] = h;
    s->bufs[2 * s->n + 1] = v;
    ++s->n;
}

static char *seq_of(const char *text)
{
    size_t n = strlen(text);
    char *s = (char *)malloc(n + 1);
    REQUIRE(s != NULL);
    memcpy(s, text, n + 1);
    return s;
}

static char *seq_fill(tu_rng *r, int64_t n, char c)
{
    char *s = (char *)malloc((size_t)n + 1);
    int64_t i;
    REQUIRE(s != NULL);
    for (i = 0; i < n; ++i) s[i] = c ? c : tu_base(r);
    s[n] = 0;
    return s;
}

/* X-drop: fixed edge cases, then random pairs around exact seeds (default scoring, X 100). */
static void make_xdrop(tu_rng *r, kset *s, long n)
{
    long i;
    char *a = seq_fill(r, 400, 0);
    s->name = "xdrop";
    s->kind = GALE_XDROP;
    ks_add(s, seq_of("A"), 1, seq_of("A"), 1, 0, 0, 1);                     /* length 1 */
    ks_add(s, seq_of("A"), 1, seq_of("C"), 1, 0, 0, 1);                     /* length 1, the seed differs */
    ks_add(s, seq_of(a), 400, seq_of(a), 400, 0, 0, 400);                   /* the seed is everything */
    ks_add(s, seq_of(a), 400, seq_of(a), 400, 0, 0, 0);                     /* empty seed at 0 */
    ks_add(s, seq_of(a), 400, seq_of(a), 400, 390, 390, 10);                /* seed at the end */
    ks_add(s, seq_of(a), 400, seq_of(a + 100), 300, 100, 0, 20);            /* left side empty on v */
    ks_add(s, seq_fill(r, 300, 'N'), 300, seq_fill(r, 300, 'N'), 300, 100, 100, 20); /* all N */
    ks_add(s, seq_of(a), 400, seq_fill(r, 400, 'n'), 400, 200, 200, 5);     /* bases against lowercase N */
    free(a);
    for (i = 0; i < n; ++i) {
        tu_pair p;
        int64_t len = tu_logrange(r, 1, 2000);
        int64_t k = tu_range(r, 1, len < 32 ? len : 32);
        int opts = (tu_range(r, 0, 9) < 3 ? TU_LOWER : 0) | (tu_range(r, 0, 9) < 3 ? TU_NRUNS : 0);
        tu_pair_make(r, &p, len, k, tu_unif(r) * 0.25, opts);
        ks_add(s, p.h, p.h_len, p.v, p.v_len, p.h_begin, p.v_begin, p.h_end - p.h_begin);
    }
}

/* WFA, gap-affine at the default penalties, alignment scope: fixed edge cases, then
 * random pairs diverged from one ancestor. */
static void make_wfa(tu_rng *r, kset *s, long n)
{
    long i;
    char *a = seq_fill(r, 300, 0);
    s->name = "wfa (cigar)";
    s->kind = GALE_WFA;
    ks_add(s, seq_of(""), 0, seq_of(""), 0, 0, 0, 0);                     /* both empty */
    ks_add(s, seq_of(a), 300, seq_of(""), 0, 0, 0, 0);                    /* empty pattern */
    ks_add(s, seq_of(""), 0, seq_of(a), 300, 0, 0, 0);                    /* empty text */
    ks_add(s, seq_of("G"), 1, seq_of("T"), 1, 0, 0, 0);                   /* one mismatch */
    ks_add(s, seq_of(a), 300, seq_of(a), 300, 0, 0, 0);                   /* identical */
    ks_add(s, seq_of(a), 300, seq_fill(r, 300, 'N'), 300, 0, 0, 0);       /* all N */
    ks_add(s, seq_of(a), 300, seq_of(a + 250), 50, 0, 0, 0);              /* very different lengths */
    free(a);
    for (i = 0; i < n; ++i) {
        const tu_mut m = tu_mut_rate(tu_unif(r) * 0.12);
        char *h, *v;
        int64_t hl, vl;
        int opts = (tu_range(r, 0, 9) < 3 ? TU_LOWER : 0) | (tu_range(r, 0, 9) < 2 ? TU_NRUNS : 0);
        tu_diverged(r, tu_logrange(r, 1, 1500), &m, &h, &hl, &v, &vl);
        tu_decorate(r, h, hl, 0, 0, opts);
        tu_decorate(r, v, vl, 0, 0, opts);
        ks_add(s, h, hl, v, vl, 0, 0, 0);
    }
}

static void ks_free(kset *s)
{
    size_t i;
    for (i = 0; i < 2 * s->n; ++i) free(s->bufs[i]);
    for (i = 0; s->ref_cigar && i < s->n; ++i) free(s->ref_cigar[i]);
    free(s->tasks);
    free(s->bufs);
    free(s->ref);
    free(s->ref_cigar);
    free(s->ref_ncig);
}

/* A context of that backend and budget (0: the default); GALE_FAULT_INJECT set to
 * `inject` while it is created (the variable is read then, and only then; NULL: unset,
 * whatever the caller's environment held), unset after. Returns the status; *out is
 * NULL unless GALE_OK. */
static gale_status ctx_new(gale_ctx **out, int backend, uint64_t budget, const char *inject)
{
    gale_ctx_opts o;
    gale_status st;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.device_memory = budget;
    *out = NULL;
    if (inject) REQUIRE(setenv("GALE_FAULT_INJECT", inject, 1) == 0);
    else REQUIRE(unsetenv("GALE_FAULT_INJECT") == 0);
    st = gale_ctx_create(out, &o);
    REQUIRE(unsetenv("GALE_FAULT_INJECT") == 0);
    if (st != GALE_OK) *out = NULL;
    return st;
}

/* Runs the pairs as one batch on ctx. store: keeps the results as the reference (the
 * CPU). Otherwise an ended batch is compared with the reference, field by field (flags
 * but GALE_RF_RESCUED), CIGAR and stats; a failed one must read as failed. */
static outcome run_round(gale_ctx *ctx, kset *s, const char *what, int store)
{
    outcome out;
    gale_batch *b = NULL;
    gale_result *r;
    gale_stats st;
    size_t i, differ = 0;
    uint64_t cells = 0;
    memset(&out, 0, sizeof out);
    REQUIRE_OK(gale_batch_create(ctx, s->kind, &b));
    if (s->kind == GALE_WFA) REQUIRE_OK(gale_batch_set(b, GALE_P_SCOPE, GALE_SCOPE_ALIGNMENT));
    REQUIRE_OK(gale_batch_add_tasks(b, s->tasks, s->n));
    REQUIRE_OK(gale_submit(b));
    out.st = gale_poll(b, WAIT_MS);
    if (out.st == GALE_E_AGAIN) { /* a hang: report it, and do not wait forever for it */
        tu_fail_at(__FILE__, __LINE__, "%s: the batch did not end in %d s", what, WAIT_MS / 1000);
        exit(1);
    }
    if (out.st != GALE_OK) {
        gale_result one;
        const char *e = gale_last_error();
        snprintf(out.msg, sizeof out.msg, "%s", e);
        CHECK_MSG(e[0] != 0, "%s: the batch failed (%d) with an empty message", what, out.st);
        memset(&one, 0, sizeof one);
        one.size = sizeof one;
        CHECK_ST(gale_result_get(b, 0, &one), out.st);
        memset(&st, 0, sizeof st);
        st.size = sizeof st;
        CHECK_ST(gale_batch_stats(b, &st), out.st);
        REQUIRE_OK(gale_batch_destroy(b));
        return out;
    }
    r = (gale_result *)calloc(s->n, sizeof *r);
    REQUIRE(r != NULL);
    r[0].size = sizeof r[0];
    REQUIRE_OK(gale_result_get_range(b, 0, s->n, r));
    if (store) {
        s->ref = r;
        s->ref_cigar = (uint32_t **)calloc(s->n, sizeof *s->ref_cigar);
        s->ref_ncig = (size_t *)calloc(s->n, sizeof *s->ref_ncig);
        REQUIRE(s->ref_cigar && s->ref_ncig);
    }
    for (i = 0; i < s->n; ++i) {
        const uint32_t *cig = NULL;
        size_t ncig = 0;
        char w[256];
        int eq = 1;
        snprintf(w, sizeof w, "%s, task %zu (h_len %lld, v_len %lld)", what, i, (long long)s->tasks[i].h_len,
                 (long long)s->tasks[i].v_len);
        cells += r[i].cells;
        if (r[i].flags & GALE_RF_RESCUED) ++out.rescued;
        CHECK_MSG((r[i].flags & ~(GALE_RF_RESCUED | GALE_RF_LOWMEM)) == 0, "%s: unknown flags 0x%x", w, r[i].flags);
        if (s->kind == GALE_WFA) REQUIRE_OK(gale_result_cigar(b, i, &cig, &ncig));
        if (store) {
            CHECK_EQ_I64(r[i].flags & GALE_RF_RESCUED, 0);
            s->ref_ncig[i] = ncig;
            s->ref_cigar[i] = (uint32_t *)malloc((ncig + 1) * sizeof(uint32_t));
            REQUIRE(s->ref_cigar[i] != NULL);
            if (ncig) memcpy(s->ref_cigar[i], cig, ncig * sizeof(uint32_t));
            continue;
        }
        eq = tu_result_eq(&r[i], &s->ref[i], 0, w) && (r[i].flags & GALE_RF_LOWMEM) == (s->ref[i].flags & GALE_RF_LOWMEM);
        eq = eq && ncig == s->ref_ncig[i] && (ncig == 0 || memcmp(cig, s->ref_cigar[i], ncig * sizeof(uint32_t)) == 0);
        if (!eq && ++differ <= 10) tu_fail_at(__FILE__, __LINE__, "%s: differs from the CPU (CIGAR ops %zu vs %zu)", w,
                                             ncig, s->ref_ncig[i]);
        tu_count_check();
    }
    CHECK_MSG(differ == 0, "%s: %zu of %zu results differ from the CPU", what, differ, s->n);
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    REQUIRE_OK(gale_batch_stats(b, &st));
    CHECK_EQ_I64(st.tasks, s->n);
    CHECK_EQ_I64(st.rescued, out.rescued);
    CHECK_EQ_I64(st.cells, cells);
    if (store) s->ref_cells = cells;
    else CHECK_EQ_I64(st.cells, s->ref_cells);
    REQUIRE_OK(gale_batch_destroy(b));
    if (!store) free(r);
    return out;
}

/* What a rule must show (the header lists them). */
enum expect { OOM_ONCE, OOM_SETUP, OOM_ALWAYS, ERROR_ONCE, STICKY, CREATE_OK };

typedef struct rule {
    const char *inject;
    enum expect expect;
    int small_only; /* needs several chunks per batch: the 1 MiB context only */
} rule;

static const char *expect_name(enum expect e)
{
    switch (e) {
    case OOM_ONCE: return "oom once: rescued";
    case OOM_SETUP: return "oom at a run's setup: the batch rescued";
    case OOM_ALWAYS: return "oom always: everything rescued";
    case ERROR_ONCE: return "error once: that batch fails";
    case STICKY: return "sticky: the device is lost";
    case CREATE_OK: return "at creation: the context works";
    }
    return "?";
}

/* Runs the batch ROUNDS times on a context created under `inject` and checks what the
 * rule must show. base: rescued tasks of a clean context of that budget. */
static void check_rule(kset *s, uint64_t budget, const char *inject, enum expect ex, size_t base)
{
    gale_ctx *ctx;
    outcome rd[ROUNDS];
    char what[256];
    int k, failed = -1, nfailed = 0;
    gale_status st = ctx_new(&ctx, GALE_BACKEND_CUDA, budget, inject);
    snprintf(what, sizeof what, "%s, budget %llu, GALE_FAULT_INJECT=%s", s->name, (unsigned long long)budget, inject);
    if (st != GALE_OK) {
        tu_fail_at(__FILE__, __LINE__, "%s: context not created: %d (%s) %s", what, st, gale_status_string(st),
                   gale_last_error());
        return;
    }
    for (k = 0; k < ROUNDS; ++k) {
        char w[320];
        snprintf(w, sizeof w, "%s, batch %d", what, k + 1);
        rd[k] = run_round(ctx, s, w, 0);
        if (rd[k].st != GALE_OK) {
            ++nfailed;
            if (failed < 0) failed = k;
        }
    }
    printf("  %-64s %-40s", what, expect_name(ex));
    for (k = 0; k < ROUNDS; ++k) {
        if (rd[k].st == GALE_OK) printf(" | ok, %zu rescued", rd[k].rescued);
        else printf(" | %s", gale_status_string(rd[k].st));
    }
    printf("\n");
    for (k = 0; k < ROUNDS; ++k)
        if (rd[k].st != GALE_OK) printf("    batch %d: %s\n", k + 1, rd[k].msg);
    switch (ex) {
    case OOM_ONCE: {
        size_t more = 0;
        CHECK_MSG(nfailed == 0, "%s: %d batches failed (memory faults must be rescued)", what, nfailed);
        for (k = 0; k < ROUNDS; ++k) {
            CHECK_MSG(rd[k].st != GALE_OK || rd[k].rescued >= base, "%s, batch %d: %zu rescued, fewer than a clean "
                      "context's %zu", what, k + 1, rd[k].rescued, base);
            if (rd[k].st == GALE_OK && rd[k].rescued > base) more += rd[k].rescued - base;
        }
        CHECK_MSG(more > 0, "%s: no batch rescued more than a clean context (%zu): the fault never fired", what, base);
        CHECK_MSG(rd[ROUNDS - 1].rescued == base, "%s: the last batch rescued %zu, a clean context %zu", what,
                  rd[ROUNDS - 1].rescued, base);
        break;
    }
    case OOM_SETUP:
        CHECK_MSG(nfailed == 0, "%s: %d batches failed (memory faults must be rescued)", what, nfailed);
        CHECK_MSG(rd[0].rescued == s->n, "%s: the first batch rescued %zu of %zu tasks", what, rd[0].rescued, s->n);
        for (k = 1; k < ROUNDS; ++k)
            CHECK_MSG(rd[k].rescued == base, "%s, batch %d: %zu rescued, a clean context %zu", what, k + 1,
                      rd[k].rescued, base);
        break;
    case OOM_ALWAYS:
        CHECK_MSG(nfailed == 0, "%s: %d batches failed (memory faults must be rescued)", what, nfailed);
        for (k = 0; k < ROUNDS; ++k)
            CHECK_MSG(rd[k].rescued == s->n, "%s, batch %d: %zu of %zu tasks rescued", what, k + 1, rd[k].rescued, s->n);
        break;
    case ERROR_ONCE:
        CHECK_MSG(nfailed == 1 && failed < ROUNDS - 1, "%s: %d batches failed, the first at %d (one, not the last, "
                  "must)", what, nfailed, failed + 1);
        for (k = 0; k < ROUNDS; ++k) {
            if (rd[k].st == GALE_OK) {
                CHECK_MSG(rd[k].rescued == base, "%s, batch %d: %zu rescued, a clean context %zu", what, k + 1,
                          rd[k].rescued, base);
                continue;
            }
            CHECK_MSG(rd[k].st == GALE_E_DEVICE, "%s, batch %d: status %d, expected GALE_E_DEVICE", what, k + 1,
                      rd[k].st);
            CHECK_MSG(strstr(rd[k].msg, "GALE_FAULT_INJECT") != NULL, "%s, batch %d: the message does not name the "
                      "injection: %s", what, k + 1, rd[k].msg);
        }
        break;
    case STICKY:
        CHECK_MSG(failed >= 0 && failed < ROUNDS - 1, "%s: first failed batch %d (one before the last must fail)", what,
                  failed + 1);
        for (k = failed < 0 ? ROUNDS : failed; k < ROUNDS; ++k) {
            CHECK_MSG(rd[k].st == GALE_E_DEVICE, "%s, batch %d: status %d, expected GALE_E_DEVICE", what, k + 1,
                      rd[k].st);
            CHECK_MSG(strstr(rd[k].msg, "lost") != NULL, "%s, batch %d: the message does not say the device is lost: "
                      "%s", what, k + 1, rd[k].msg);
        }
        if (failed >= 0)
            CHECK_MSG(strstr(rd[failed].msg, "GALE_FAULT_INJECT") != NULL, "%s: the message does not name the "
                      "injection: %s", what, rd[failed].msg);
        break;
    case CREATE_OK:
        CHECK_MSG(nfailed == 0, "%s: %d batches failed", what, nfailed);
        break;
    }
    CHECK_ST(gale_ctx_destroy(ctx), GALE_OK);
}

/* A context that must not be created: that status, a message naming the injection. */
static void check_refused(uint64_t budget, const char *inject, gale_status want)
{
    gale_ctx *ctx;
    gale_status st = ctx_new(&ctx, GALE_BACKEND_CUDA, budget, inject);
    printf("  context, budget %llu, GALE_FAULT_INJECT=%s: %s: %s\n", (unsigned long long)budget, inject,
           gale_status_string(st), st == GALE_OK ? "" : gale_last_error());
    CHECK_MSG(st == want, "GALE_FAULT_INJECT=%s: gale_ctx_create gave %d (%s), expected %d (%s)", inject, st,
              gale_status_string(st), want, gale_status_string(want));
    if (st != GALE_OK)
        CHECK_MSG(strstr(gale_last_error(), "GALE_FAULT_INJECT") != NULL,
                  "GALE_FAULT_INJECT=%s: the message does not name the injection: %s", inject, gale_last_error());
    if (ctx) gale_ctx_destroy(ctx);
}

/* alloc=N for N = 1, 2, ...: a context of a set budget fails (GALE_E_NOMEM) while N
 * falls in gale_ctx_create; the first N past them is a run's timing event, whose
 * batch goes to the CPU whole. */
static void check_alloc_count(kset *s, uint64_t budget, size_t base)
{
    int n;
    for (n = 1; n <= 32; ++n) {
        char inject[32];
        gale_ctx *ctx;
        gale_status st;
        snprintf(inject, sizeof inject, "alloc=%d", n);
        st = ctx_new(&ctx, GALE_BACKEND_CUDA, budget, inject);
        if (st == GALE_OK) {
            gale_ctx_destroy(ctx);
            printf("  %s: gale_ctx_create makes %d device allocations\n", s->name, n - 1);
            CHECK_MSG(n > 1, "GALE_FAULT_INJECT=alloc=1 with a set budget: the context was created");
            check_rule(s, budget, inject, OOM_SETUP, base);
            return;
        }
        CHECK_MSG(st == GALE_E_NOMEM, "GALE_FAULT_INJECT=%s: gale_ctx_create gave %d (%s), expected GALE_E_NOMEM: %s",
                  inject, st, gale_status_string(st), gale_last_error());
        CHECK_MSG(strstr(gale_last_error(), "GALE_FAULT_INJECT") != NULL,
                  "GALE_FAULT_INJECT=%s: the message does not name the injection: %s", inject, gale_last_error());
    }
    tu_fail_at(__FILE__, __LINE__, "no context created with alloc=1..32");
}

static const rule kRules[] = {
    {"host=1", OOM_ONCE, 0},
    {"launch=1:oom", OOM_ONCE, 0},
    {"launch=2:oom", OOM_ONCE, 1},
    {"stream=2:oom", OOM_ONCE, 0},
    {"stream=7:oom", OOM_ONCE, 0},
    {"stream=1:oom", OOM_SETUP, 0},
    {"host=1+", OOM_ALWAYS, 0},
    {"launch=1+:oom", OOM_ALWAYS, 1},
    {"launch=1", ERROR_ONCE, 0},
    {"stream=1", ERROR_ONCE, 0},
    {"stream=3", ERROR_ONCE, 1},
    {"stream=4:sticky", STICKY, 0},
};

int main(void)
{
    tu_rng rng;
    gale_ctx *cpu, *probe;
    kset sets[2];
    const uint64_t small = (uint64_t)1 << 20;
    uint64_t budgets[2];
    long npairs;
    size_t i, j, k;
    gale_status st;
    double t0 = tu_now();

    tu_rng_init(&rng, tu_seed("faults"));
    if (gale_cuda_device_count() == 0) {
        printf("SKIP: no usable CUDA device (features 0x%x)\n", gale_features());
        return SKIP;
    }
    st = ctx_new(&probe, GALE_BACKEND_CUDA, 0, NULL);
    if (st == GALE_E_UNSUPPORTED) {
        printf("SKIP: a CUDA context cannot be created: %s\n", gale_last_error());
        return SKIP;
    }
    REQUIRE_OK(st);
    REQUIRE_OK(gale_ctx_destroy(probe));
    budgets[0] = 0;
    budgets[1] = small;

    npairs = tu_scaled(3000, 600);
    memset(sets, 0, sizeof sets);
    make_xdrop(&rng, &sets[0], npairs);
    make_wfa(&rng, &sets[1], npairs);
    REQUIRE_OK(ctx_new(&cpu, GALE_BACKEND_CPU, 0, NULL));

    printf("rules that do not parse:\n");
    check_refused(0, "alloc=0", GALE_E_INVALID);
    check_refused(0, "alloc", GALE_E_INVALID);
    check_refused(0, "pool=1", GALE_E_INVALID);
    check_refused(0, "host=1:bad", GALE_E_INVALID);
    check_refused(0, "launch=1/0", GALE_E_INVALID);
    check_refused(0, "stream=2,stream=3", GALE_E_INVALID);
    printf("device allocations at creation:\n");
    check_refused(small, "alloc=1", GALE_E_NOMEM);
    check_refused(small, "alloc=2", GALE_E_NOMEM);

    for (k = 0; k < 2; ++k) {
        kset *s = &sets[k];
        outcome ref = run_round(cpu, s, s->name, 1);
        REQUIRE_OK(ref.st);
        printf("%s: %zu tasks; CPU reference %.3g cells\n", s->name, s->n, (double)s->ref_cells);
        for (j = 0; j < 2; ++j) {
            const uint64_t budget = budgets[j];
            gale_ctx *clean;
            char what[128];
            size_t base;
            outcome r1, r2;
            snprintf(what, sizeof what, "%s, budget %llu, no fault", s->name, (unsigned long long)budget);
            REQUIRE_OK(ctx_new(&clean, GALE_BACKEND_CUDA, budget, NULL));
            r1 = run_round(clean, s, what, 0);
            r2 = run_round(clean, s, what, 0);
            REQUIRE_OK(gale_ctx_destroy(clean));
            REQUIRE_OK(r1.st);
            REQUIRE_OK(r2.st);
            base = r1.rescued;
            printf("  %-64s %zu rescued (baseline)\n", what, base);
            CHECK_MSG(r2.rescued == base, "%s: one clean context rescued %zu, then %zu", what, base, r2.rescued);
            CHECK_MSG(base < s->n, "%s: a clean context rescued every task (%zu): nothing would show a fault", what, base);
            for (i = 0; i < sizeof kRules / sizeof kRules[0]; ++i)
                if (!kRules[i].small_only || budget == small)
                    check_rule(s, budget, kRules[i].inject, kRules[i].expect, base);
            if (budget == 0) check_rule(s, 0, "alloc=1", CREATE_OK, base); /* the pool halved */
            else check_alloc_count(s, budget, base);
        }
    }
    REQUIRE_OK(gale_ctx_destroy(cpu));
    for (k = 0; k < 2; ++k) ks_free(&sets[k]);
    printf("faults: %.1f s\n", tu_now() - t0);
    return tu_finish("faults");
}
