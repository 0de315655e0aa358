/*
 * api_contract.c - the public C API of gale against the contract in gale.h:
 * every function with bad arguments, handle and state rules, parameter bounds,
 * task validation (with the error message's content), cancel/destroy with work
 * in flight, versions/features/status strings, statistics, the alphabet rules
 * and a few X-drop known answers worked out by hand (see hand_cases below).
 *
 * Suite 'unit'. Random pairs (case folding check, cancel load) come from a seed
 * printed at the start (GALE_TEST_SEED reproduces it); GALE_TEST_SCALE scales
 * the amount of random work.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gale.h"
#include "gale_plugin.h"
#include "testutil.h"

static tu_rng rng;

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

typedef struct kv {
    int id;
    int64_t value;
} kv;

static gale_ctx *make_cpu_ctx(int threads)
{
    gale_ctx *ctx = NULL;
    REQUIRE_OK(tu_ctx_new(&ctx, GALE_BACKEND_CPU, threads));
    REQUIRE(ctx != NULL);
    return ctx;
}

static void set_task(gale_task *t, const char *h, const char *v, int64_t hb, int64_t he, int64_t vb, int64_t ve)
{
    gale_task_init(t);
    t->h = h;
    t->h_len = h ? (int64_t)strlen(h) : 0;
    t->v = v;
    t->v_len = v ? (int64_t)strlen(v) : 0;
    t->h_begin = hb;
    t->h_end = he;
    t->v_begin = vb;
    t->v_end = ve;
}

/* Creates a batch, sets params, adds the tasks, runs it to completion and
 * copies the results out. Any failure stops the test (callers rely on it). */
static void run_tasks(gale_ctx *ctx, const kv *params, int np, const gale_task *tasks, size_t n, gale_result *out)
{
    gale_batch *b = NULL;
    size_t i;
    int k;
    gale_stats st;
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    for (k = 0; k < np; ++k) REQUIRE_OK(gale_batch_set(b, params[k].id, params[k].value));
    for (i = 0; i < n; ++i) REQUIRE_OK(gale_batch_add(b, &tasks[i]));
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    for (i = 0; i < n; ++i) {
        memset(&out[i], 0xA5, sizeof out[i]);
        out[i].size = sizeof out[i];
        REQUIRE_OK(gale_result_get(b, i, &out[i]));
    }
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    REQUIRE_OK(gale_batch_stats(b, &st));
    CHECK_EQ_I64(st.tasks, n);
    REQUIRE_OK(gale_batch_destroy(b));
}

/* True if the decimal number `value` appears in msg as a whole digit run. */
static int has_number(const char *msg, long long value)
{
    const char *p = msg;
    while (*p) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            long long x = strtoll(p, &end, 10);
            if (x == value) return 1;
            p = end;
        } else {
            ++p;
        }
    }
    return 0;
}

static int is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* True if word appears in msg delimited by non-alphanumeric characters. */
static int has_word(const char *msg, const char *word)
{
    size_t n = strlen(word);
    const char *p = msg;
    while ((p = strstr(p, word)) != NULL) {
        int before_ok = (p == msg) || !is_alnum(p[-1]);
        int after_ok = !is_alnum(p[n]);
        if (before_ok && after_ok) return 1;
        ++p;
    }
    return 0;
}

/* A batch big enough that its run takes a good fraction of a second on two
 * cores, so that cancel, destroy and polling usually land while it runs. The
 * sequences are kept alive by the caller (they are copied by add anyway). */
typedef struct load {
    tu_pair *pairs;
    int n;
} load;

static load make_load(int n, int64_t len)
{
    load L;
    int i;
    L.n = n;
    L.pairs = (tu_pair *)calloc((size_t)n, sizeof(tu_pair));
    REQUIRE(L.pairs != NULL);
    for (i = 0; i < n; ++i) tu_pair_make(&rng, &L.pairs[i], len, 20, 0.15, 0);
    return L;
}

static void free_load(load *L)
{
    int i;
    for (i = 0; i < L->n; ++i) tu_pair_free(&L->pairs[i]);
    free(L->pairs);
    L->pairs = NULL;
}

static gale_batch *load_batch(gale_ctx *ctx, const load *L)
{
    gale_batch *b = NULL;
    int i;
    gale_task t;
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    REQUIRE_OK(gale_batch_set(b, GALE_P_XDROP, 300));
    for (i = 0; i < L->n; ++i) {
        tu_task_from_pair(&t, &L->pairs[i], (uint64_t)i);
        REQUIRE_OK(gale_batch_add(b, &t));
    }
    return b;
}

/* ------------------------------------------------------------------ */
/* Versions, features, status strings, last error                      */
/* ------------------------------------------------------------------ */

static void test_versions(void)
{
    char want[64];
    unsigned f = gale_features();
    CHECK_EQ_I64(gale_version(), GALE_VERSION_NUMBER);
    CHECK_EQ_I64(GALE_VERSION_NUMBER, GALE_VERSION_MAJOR * 10000 + GALE_VERSION_MINOR * 100 + GALE_VERSION_PATCH);
    snprintf(want, sizeof want, "%d.%d.%d", GALE_VERSION_MAJOR, GALE_VERSION_MINOR, GALE_VERSION_PATCH);
    REQUIRE(gale_version_string() != NULL);
    CHECK_MSG(strcmp(gale_version_string(), want) == 0, "gale_version_string() = \"%s\", expected \"%s\"",
              gale_version_string(), want);
    CHECK(f & GALE_FEATURE_CPU);
    CHECK((f & ~(unsigned)(GALE_FEATURE_CPU | GALE_FEATURE_CUDA | GALE_FEATURE_DPX)) == 0);
    /* DPX kernels only exist in a CUDA build. */
    if (f & GALE_FEATURE_DPX) CHECK(f & GALE_FEATURE_CUDA);
    CHECK(gale_cuda_device_count() >= 0);
    if (!(f & GALE_FEATURE_CUDA)) CHECK_EQ_I64(gale_cuda_device_count(), 0);
    printf("gale %s, features 0x%x, CUDA devices %d\n", gale_version_string(), f, gale_cuda_device_count());
}

static void test_status_strings(void)
{
    int s, t;
    const char *unknown = gale_status_string(1000);
    REQUIRE(unknown != NULL);
    CHECK(strcmp(unknown, "unknown status") == 0);
    CHECK(strcmp(gale_status_string(-1), "unknown status") == 0);
    CHECK(strcmp(gale_status_string(15), "unknown status") == 0);
    CHECK(strcmp(gale_status_string(INT_MAX), "unknown status") == 0);
    CHECK(strcmp(gale_status_string(INT_MIN), "unknown status") == 0);
    for (s = GALE_OK; s <= GALE_E_ABI; ++s) {
        const char *m = gale_status_string(s);
        CHECK_MSG(m != NULL && *m != '\0', "status %d has an empty string", s);
        if (!m) continue;
        CHECK_MSG(strcmp(m, "unknown status") != 0, "status %d is described as unknown", s);
        for (t = GALE_OK; t < s; ++t) {
            const char *o = gale_status_string(t);
            CHECK_MSG(o == NULL || strcmp(o, m) != 0, "statuses %d and %d share the string \"%s\"", t, s, m);
        }
    }
    /* The pinned values themselves (gale.h: never reused). */
    CHECK_EQ_I64(GALE_OK, 0);
    CHECK_EQ_I64(GALE_E_AGAIN, 1);
    CHECK_EQ_I64(GALE_E_INVALID, 2);
    CHECK_EQ_I64(GALE_E_HANDLE, 3);
    CHECK_EQ_I64(GALE_E_RANGE, 4);
    CHECK_EQ_I64(GALE_E_STATE, 5);
    CHECK_EQ_I64(GALE_E_INPUT, 6);
    CHECK_EQ_I64(GALE_E_NOMEM, 7);
    CHECK_EQ_I64(GALE_E_UNSUPPORTED, 8);
    CHECK_EQ_I64(GALE_E_DEVICE, 9);
    CHECK_EQ_I64(GALE_E_CANCELED, 10);
    CHECK_EQ_I64(GALE_E_LIMIT, 11);
    CHECK_EQ_I64(GALE_E_INTERNAL, 12);
    CHECK_EQ_I64(GALE_E_NOT_FOUND, 13);
    CHECK_EQ_I64(GALE_E_ABI, 14);
}

typedef struct err_thread_arg {
    int empty_at_start;
    int failed_nonempty;
    char msg[512];
} err_thread_arg;

static void *err_thread(void *p)
{
    err_thread_arg *a = (err_thread_arg *)p;
    const char *m = gale_last_error();
    gale_status st;
    a->empty_at_start = (m != NULL && m[0] == '\0');
    st = gale_ctx_backend(NULL, NULL);
    m = gale_last_error();
    a->failed_nonempty = (st != GALE_OK && m != NULL && m[0] != '\0');
    if (m) snprintf(a->msg, sizeof a->msg, "%s", m);
    return NULL;
}

/* gale_last_error: never NULL, "" before any failure on a thread, thread-local,
 * and not changed by successful calls. */
static void test_last_error(void)
{
    pthread_t th;
    err_thread_arg a;
    char mine[512];
    int threads = 0;
    gale_ctx *ctx;

    memset(&a, 0, sizeof a);
    REQUIRE(pthread_create(&th, NULL, err_thread, &a) == 0);
    REQUIRE(pthread_join(th, NULL) == 0);
    CHECK_MSG(a.empty_at_start, "gale_last_error() is not \"\" on a thread with no failed call");
    CHECK(a.failed_nonempty);

    /* A failure here; the other thread's failure must not show up here. */
    CHECK_ST(gale_batch_set(NULL, GALE_P_MATCH, 1), GALE_E_HANDLE);
    REQUIRE(gale_last_error() != NULL);
    snprintf(mine, sizeof mine, "%s", gale_last_error());
    CHECK(mine[0] != '\0');
    memset(&a, 0, sizeof a);
    REQUIRE(pthread_create(&th, NULL, err_thread, &a) == 0);
    REQUIRE(pthread_join(th, NULL) == 0);
    CHECK(a.empty_at_start);
    CHECK_MSG(strcmp(gale_last_error(), mine) == 0, "another thread's failure changed this thread's last error");

    /* Successful calls leave the message alone (it describes the last FAILING call). */
    ctx = make_cpu_ctx(1);
    CHECK_ST(gale_ctx_threads(ctx, &threads), GALE_OK);
    CHECK_MSG(strcmp(gale_last_error(), mine) == 0, "a successful call changed gale_last_error(): \"%s\"",
              gale_last_error());
    CHECK_ST(gale_ctx_destroy(ctx), GALE_OK);
}

/* ------------------------------------------------------------------ */
/* Contexts                                                             */
/* ------------------------------------------------------------------ */

static void test_contexts(void)
{
    gale_ctx_opts o;
    gale_ctx *ctx = NULL, *stale;
    int backend = -1, threads = -1;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int ndev = gale_cuda_device_count();
    static unsigned char foreign[4096];

    gale_ctx_opts_init(&o);
    CHECK_EQ_I64(o.size, sizeof(gale_ctx_opts));
    CHECK_EQ_I64(o.backend, GALE_BACKEND_AUTO);
    CHECK_EQ_I64(o.device, 0);
    CHECK_EQ_I64(o.threads, 0);
    CHECK_EQ_I64(o.device_memory, 0);

    /* NULL out-pointer */
    CHECK_ST(gale_ctx_create(NULL, NULL), GALE_E_INVALID);
    CHECK_ST(gale_ctx_create(NULL, &o), GALE_E_INVALID);

    /* opts struct too small (size 0, one byte short) */
    o.size = 0;
    CHECK_FAILS(gale_ctx_create(&ctx, &o));
    o.size = sizeof(gale_ctx_opts) - 1;
    CHECK_FAILS(gale_ctx_create(&ctx, &o));
    o.size = offsetof(gale_ctx_opts, device_memory);
    CHECK_FAILS(gale_ctx_create(&ctx, &o));

    /* bad backend values, negative thread count */
    gale_ctx_opts_init(&o);
    o.backend = 3;
    CHECK_FAILS(gale_ctx_create(&ctx, &o));
    o.backend = -1;
    CHECK_FAILS(gale_ctx_create(&ctx, &o));
    gale_ctx_opts_init(&o);
    o.threads = -1;
    CHECK_FAILS(gale_ctx_create(&ctx, &o));

    /* CUDA on a machine without a device: GALE_E_UNSUPPORTED. */
    if (ndev == 0) {
        gale_ctx_opts_init(&o);
        o.backend = GALE_BACKEND_CUDA;
        ctx = NULL;
        CHECK_ST(gale_ctx_create(&ctx, &o), GALE_E_UNSUPPORTED);
        CHECK(strlen(gale_last_error()) > 0);
    } else {
        printf("  (CUDA device present: the GALE_E_UNSUPPORTED check for a CUDA context is skipped)\n");
    }

    /* NULL opts = defaults = AUTO: CPU here unless a CUDA build sees a device. */
    ctx = NULL;
    REQUIRE_OK(gale_ctx_create(&ctx, NULL));
    REQUIRE(ctx != NULL);
    CHECK_ST(gale_ctx_backend(ctx, &backend), GALE_OK);
    if (ndev == 0)
        CHECK_EQ_I64(backend, GALE_BACKEND_CPU);
    else
        CHECK_EQ_I64(backend, GALE_BACKEND_CUDA);
    /* threads = 0: one per online core */
    CHECK_ST(gale_ctx_threads(ctx, &threads), GALE_OK);
    CHECK_EQ_I64(threads, online);
    CHECK_ST(gale_ctx_backend(ctx, NULL), GALE_E_INVALID);
    CHECK_ST(gale_ctx_threads(ctx, NULL), GALE_E_INVALID);
    CHECK_ST(gale_ctx_destroy(ctx), GALE_OK);

    /* explicit AUTO and CPU, threads honoured */
    REQUIRE_OK(tu_ctx_new(&ctx, GALE_BACKEND_AUTO, 3));
    CHECK_ST(gale_ctx_threads(ctx, &threads), GALE_OK);
    CHECK_EQ_I64(threads, 3);
    CHECK_ST(gale_ctx_destroy(ctx), GALE_OK);
    REQUIRE_OK(tu_ctx_new(&ctx, GALE_BACKEND_CPU, 1));
    CHECK_ST(gale_ctx_backend(ctx, &backend), GALE_OK);
    CHECK_EQ_I64(backend, GALE_BACKEND_CPU);
    CHECK_ST(gale_ctx_threads(ctx, &threads), GALE_OK);
    CHECK_EQ_I64(threads, 1);
    /* structs larger than this library's (a newer caller): tests/unit/struct_sizes.c */

    /* NULL and stale context handles */
    stale = ctx;
    CHECK_ST(gale_ctx_destroy(ctx), GALE_OK);
    CHECK_ST(gale_ctx_destroy(NULL), GALE_OK);
    CHECK_ST(gale_ctx_backend(NULL, &backend), GALE_E_HANDLE);
    CHECK_ST(gale_ctx_threads(NULL, &threads), GALE_E_HANDLE);
    CHECK_ST(gale_ctx_backend(stale, &backend), GALE_E_HANDLE);
    CHECK_ST(gale_ctx_threads(stale, &threads), GALE_E_HANDLE);
    {
        gale_batch *b = NULL;
        CHECK_ST(gale_batch_create(stale, GALE_XDROP, &b), GALE_E_HANDLE);
        CHECK_ST(gale_batch_create(NULL, GALE_XDROP, &b), GALE_E_HANDLE);
        CHECK_ST(gale_batch_create((gale_ctx *)(void *)foreign, GALE_XDROP, &b), GALE_E_HANDLE);
    }
    CHECK_ST(gale_ctx_destroy(stale), GALE_E_HANDLE);
    CHECK_ST(gale_ctx_backend((const gale_ctx *)(void *)foreign, &backend), GALE_E_HANDLE);
    CHECK_ST(gale_ctx_destroy((gale_ctx *)(void *)foreign), GALE_E_HANDLE);
}

/* ------------------------------------------------------------------ */
/* Batch creation and parameters                                        */
/* ------------------------------------------------------------------ */

static void test_batch_create(gale_ctx *ctx)
{
    gale_batch *b = NULL;
    size_t n = 99;
    CHECK_ST(gale_batch_create(ctx, GALE_XDROP, NULL), GALE_E_INVALID);
    /* an unknown kind: gale.h says "kind not available" (UNSUPPORTED) or an
     * out-of-range value (RANGE) - it does not pin which. */
    CHECK_FAILS(gale_batch_create(ctx, 0, &b));
    CHECK_FAILS(gale_batch_create(ctx, 999, &b));
    CHECK_FAILS(gale_batch_create(ctx, -1, &b));
    b = NULL;
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    REQUIRE(b != NULL);
    CHECK_ST(gale_batch_count(b, &n), GALE_OK);
    CHECK_EQ_I64(n, 0);
    CHECK_ST(gale_batch_count(b, NULL), GALE_E_INVALID);
    CHECK_ST(gale_batch_count(NULL, &n), GALE_E_HANDLE);
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
    CHECK_ST(gale_batch_destroy(NULL), GALE_OK);
}

typedef struct bound {
    int id;
    const char *name;
    int64_t def, lo, hi;
} bound;

static void test_params(gale_ctx *ctx)
{
    static const bound bounds[] = {
        {GALE_P_MATCH, "match", 1, -(1 << 20), 1 << 20},
        {GALE_P_MISMATCH, "mismatch", -1, -(1 << 20), 1 << 20},
        {GALE_P_GAP, "gap", -1, -(1 << 20), -1},
        {GALE_P_XDROP, "X", 100, 0, 1 << 29},
        {GALE_P_DIRECTION, "direction", GALE_DIR_BOTH, GALE_DIR_LEFT, GALE_DIR_BOTH},
        {GALE_P_N_POLICY, "N policy", GALE_N_DNA5, GALE_N_DNA5, GALE_N_BYTES},
    };
    static const int unknown_ids[] = {0, 1, 99, 103, 199, 202, 299, 301, 400, -1, -100, 1000, INT_MAX, INT_MIN};
    gale_batch *b = NULL;
    size_t i, j;
    int64_t v;

    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    for (i = 0; i < sizeof bounds / sizeof bounds[0]; ++i) {
        const bound *p = &bounds[i];
        const int64_t bad[] = {p->lo - 1, p->hi + 1, INT64_MIN, INT64_MAX,
                               /* values that a cast to 32 bits would turn into valid ones */
                               ((int64_t)1 << 32) + p->lo, ((int64_t)1 << 32) + p->hi, -((int64_t)1 << 32) + p->hi};
        v = 12345;
        CHECK_ST(gale_batch_get(b, p->id, &v), GALE_OK);
        CHECK_MSG(v == p->def, "default of %s is %lld, gale.h says %lld", p->name, (long long)v, (long long)p->def);
        /* just inside the bounds */
        CHECK_ST(gale_batch_set(b, p->id, p->lo), GALE_OK);
        CHECK_ST(gale_batch_get(b, p->id, &v), GALE_OK);
        CHECK_EQ_I64(v, p->lo);
        CHECK_ST(gale_batch_set(b, p->id, p->hi), GALE_OK);
        CHECK_ST(gale_batch_get(b, p->id, &v), GALE_OK);
        CHECK_EQ_I64(v, p->hi);
        /* just outside (and far outside): GALE_E_RANGE, value unchanged */
        for (j = 0; j < sizeof bad / sizeof bad[0]; ++j) {
            gale_status st = gale_batch_set(b, p->id, bad[j]);
            CHECK_MSG(st == GALE_E_RANGE, "set %s = %lld: got %d (%s), expected GALE_E_RANGE", p->name,
                      (long long)bad[j], st, gale_status_string(st));
            CHECK_ST(gale_batch_get(b, p->id, &v), GALE_OK);
            CHECK_MSG(v == p->hi, "a rejected set of %s changed it to %lld", p->name, (long long)v);
        }
        CHECK_ST(gale_batch_set(b, p->id, p->def), GALE_OK);
        CHECK_ST(gale_batch_get(b, p->id, NULL), GALE_E_INVALID);
        CHECK_ST(gale_batch_get(NULL, p->id, &v), GALE_E_HANDLE);
        CHECK_ST(gale_batch_set(NULL, p->id, p->def), GALE_E_HANDLE);
    }
    /* gap >= 0 rejected */
    CHECK_ST(gale_batch_set(b, GALE_P_GAP, 0), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(b, GALE_P_GAP, 1), GALE_E_RANGE);
    /* every documented direction / policy value is accepted; neighbours are not */
    CHECK_ST(gale_batch_set(b, GALE_P_DIRECTION, GALE_DIR_LEFT), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_DIRECTION, GALE_DIR_RIGHT), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_DIRECTION, GALE_DIR_BOTH), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_DIRECTION, 0), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(b, GALE_P_DIRECTION, 4), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_MISMATCH), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_DNA5), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_BYTES), GALE_OK);
    CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, 3), GALE_E_RANGE);
    CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, -1), GALE_E_RANGE);
    /* gale.h: GALE_N_BYTES decides how the batch stores its sequences, so it is neither
     * set nor left while the batch holds any (GALE_E_STATE, value kept); the folding
     * policies store alike and switch freely. */
    {
        gale_task t;
        gale_task_init(&t);
        t.h = t.v = "ACGTacgtRN";
        t.h_len = t.v_len = 10;
        t.h_end = t.v_end = 2;
        REQUIRE_OK(gale_batch_add(b, &t));
        CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_DNA5), GALE_E_STATE);
        CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_MISMATCH), GALE_E_STATE);
        CHECK_ST(gale_batch_get(b, GALE_P_N_POLICY, &v), GALE_OK);
        CHECK_EQ_I64(v, GALE_N_BYTES);
        CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_BYTES), GALE_OK);
        REQUIRE_OK(gale_batch_reset(b));
        CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_DNA5), GALE_OK);
        REQUIRE_OK(gale_batch_add(b, &t));
        CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_MISMATCH), GALE_OK);
        CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_BYTES), GALE_E_STATE);
        CHECK_ST(gale_batch_get(b, GALE_P_N_POLICY, &v), GALE_OK);
        CHECK_EQ_I64(v, GALE_N_MISMATCH);
        REQUIRE_OK(gale_batch_reset(b));
        {
            uint32_t id = 0;
            REQUIRE_OK(gale_batch_add_sequence(b, "ACGT", 4, &id)); /* a registered sequence counts too */
        }
        CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_BYTES), GALE_E_STATE);
        REQUIRE_OK(gale_batch_reset(b));
        CHECK_ST(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_DNA5), GALE_OK);
    }
    /* unknown parameter ids */
    for (i = 0; i < sizeof unknown_ids / sizeof unknown_ids[0]; ++i) {
        gale_status st = gale_batch_set(b, unknown_ids[i], 1);
        CHECK_MSG(st == GALE_E_RANGE, "set of unknown parameter %d: got %d, expected GALE_E_RANGE", unknown_ids[i],
                  st);
        st = gale_batch_get(b, unknown_ids[i], &v);
        CHECK_MSG(st == GALE_E_RANGE, "get of unknown parameter %d: got %d, expected GALE_E_RANGE", unknown_ids[i],
                  st);
    }
    /* parameters are per batch: another batch still has the defaults */
    {
        gale_batch *b2 = NULL;
        REQUIRE_OK(gale_batch_set(b, GALE_P_XDROP, 7));
        REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b2));
        CHECK_ST(gale_batch_get(b2, GALE_P_XDROP, &v), GALE_OK);
        CHECK_EQ_I64(v, 100);
        CHECK_ST(gale_batch_destroy(b2), GALE_OK);
    }
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
}

/* ------------------------------------------------------------------ */
/* Task validation                                                      */
/* ------------------------------------------------------------------ */

static size_t count_of(gale_batch *b)
{
    size_t n = (size_t)-1;
    REQUIRE_OK(gale_batch_count(b, &n));
    return n;
}

/* Adds a task with a bad byte and checks status, count and message. */
static void check_bad_byte(gale_batch *b, int in_h, int64_t pos, unsigned char byte)
{
    char h[300], v[300];
    gale_task t;
    size_t before = count_of(b);
    const char *m;
    gale_status st;
    int64_t i;
    for (i = 0; i < 299; ++i) h[i] = v[i] = "ACGT"[i & 3];
    h[299] = v[299] = 0;
    if (in_h)
        h[pos] = (char)byte;
    else
        v[pos] = (char)byte;
    gale_task_init(&t);
    t.h = h;
    t.v = v;
    t.h_len = t.v_len = 299; /* lengths given explicitly: a NUL byte is inside */
    t.h_begin = t.v_begin = 250;
    t.h_end = t.v_end = 260;
    st = gale_batch_add(b, &t);
    CHECK_MSG(st == GALE_E_INPUT, "byte 0x%02x at %s[%lld]: got %d (%s), expected GALE_E_INPUT", byte,
              in_h ? "h" : "v", (long long)pos, st, gale_status_string(st));
    CHECK_MSG(count_of(b) == before, "a rejected task was added");
    m = gale_last_error();
    /* gale.h: the message names the task index and, for a bad byte, the
     * sequence and the position. Which base (0 or 1) the position uses is not
     * pinned: accept either. The index is the one the task would have had. */
    CHECK_MSG(has_number(m, (long long)before), "message does not name task index %zu: \"%s\"", before, m);
    CHECK_MSG(has_number(m, pos) || has_number(m, pos + 1), "message does not name position %lld: \"%s\"",
              (long long)pos, m);
    CHECK_MSG(has_word(m, in_h ? "h" : "v"), "message does not name sequence %s: \"%s\"", in_h ? "h" : "v", m);
}

static void test_tasks(gale_ctx *ctx)
{
    gale_batch *b = NULL;
    gale_task t;
    static const char *good = "ACGTACGTACGTACGTACGT"; /* 20 */
    int c;
    size_t n0;
    static unsigned char foreign[4096];

    gale_task_init(&t);
    CHECK_EQ_I64(t.size, sizeof(gale_task));

    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    set_task(&t, good, good, 5, 10, 5, 10);
    CHECK_ST(gale_batch_add(b, &t), GALE_OK);
    CHECK_ST(gale_batch_add(NULL, &t), GALE_E_HANDLE);
    CHECK_ST(gale_batch_add((gale_batch *)(void *)foreign, &t), GALE_E_HANDLE);
    CHECK_ST(gale_batch_add(b, NULL), GALE_E_INVALID);
    CHECK_EQ_I64(count_of(b), 1);

    /* struct size 0 / too small */
    set_task(&t, good, good, 5, 10, 5, 10);
    t.size = 0;
    CHECK_FAILS(gale_batch_add(b, &t));
    t.size = offsetof(gale_task, user);
    CHECK_FAILS(gale_batch_add(b, &t));
    t.size = sizeof(gale_task) - 1;
    CHECK_FAILS(gale_batch_add(b, &t));
    CHECK_EQ_I64(count_of(b), 1);

    /* NULL sequence with nonzero length */
    set_task(&t, good, good, 5, 10, 5, 10);
    t.h = NULL;
    CHECK_ST(gale_batch_add(b, &t), GALE_E_INVALID);
    set_task(&t, good, good, 5, 10, 5, 10);
    t.v = NULL;
    CHECK_ST(gale_batch_add(b, &t), GALE_E_INVALID);
    /* NULL sequence with length 0 is fine (the seed is then empty on both) */
    set_task(&t, NULL, NULL, 0, 0, 0, 0);
    CHECK_ST(gale_batch_add(b, &t), GALE_OK);
    set_task(&t, NULL, good, 0, 0, 3, 3);
    CHECK_ST(gale_batch_add(b, &t), GALE_OK);
    CHECK_EQ_I64(count_of(b), 3);

    /* negative lengths, lengths above 2^31-1 (code not pinned: invalid argument or input) */
    set_task(&t, good, good, 0, 0, 0, 0);
    t.h_len = -1;
    CHECK_ST2(gale_batch_add(b, &t), GALE_E_INVALID, GALE_E_INPUT);
    set_task(&t, good, good, 0, 0, 0, 0);
    t.v_len = -5;
    CHECK_ST2(gale_batch_add(b, &t), GALE_E_INVALID, GALE_E_INPUT);
    set_task(&t, good, good, 0, 0, 0, 0);
    t.v_len = INT64_MIN;
    CHECK_ST2(gale_batch_add(b, &t), GALE_E_INVALID, GALE_E_INPUT);
    set_task(&t, good, good, 0, 0, 0, 0);
    t.h_len = (int64_t)1 << 31; /* gale.h: h_len 0 .. 2^31-1; never read (rejected first) */
    CHECK_FAILS(gale_batch_add(b, &t));
    CHECK_EQ_I64(count_of(b), 3);

    /* seed outside the sequence: GALE_E_INPUT (gale.h pins it) */
    set_task(&t, good, good, 15, 21, 15, 21); /* ends past 20 */
    CHECK_ST(gale_batch_add(b, &t), GALE_E_INPUT);
    set_task(&t, good, good, -1, 4, -1, 4);
    CHECK_ST(gale_batch_add(b, &t), GALE_E_INPUT);
    set_task(&t, good, good, 20, 21, 20, 21);
    CHECK_ST(gale_batch_add(b, &t), GALE_E_INPUT);
    set_task(&t, good, "ACGT", 0, 5, 0, 5); /* fits h, not v */
    CHECK_ST(gale_batch_add(b, &t), GALE_E_INPUT);
    set_task(&t, good, good, 10, 5, 10, 5); /* begin > end */
    CHECK_FAILS(gale_batch_add(b, &t));
    set_task(&t, good, good, INT64_MAX - 1, INT64_MAX, 0, 1);
    CHECK_FAILS(gale_batch_add(b, &t));
    /* seed lengths on h and v differ */
    set_task(&t, good, good, 2, 6, 2, 7);
    CHECK_ST2(gale_batch_add(b, &t), GALE_E_INPUT, GALE_E_INVALID);
    set_task(&t, good, good, 0, 0, 0, 1);
    CHECK_ST2(gale_batch_add(b, &t), GALE_E_INPUT, GALE_E_INVALID);
    CHECK_EQ_I64(count_of(b), 3);
    /* seed at the very end is inside: [20,20) on both; and [19,20) */
    set_task(&t, good, good, 19, 20, 19, 20);
    CHECK_ST(gale_batch_add(b, &t), GALE_OK);
    CHECK_EQ_I64(count_of(b), 4);

    /* invalid bytes: status, nothing added, message names index/sequence/position */
    check_bad_byte(b, 1, 0, 'X');
    check_bad_byte(b, 0, 298, '-');
    check_bad_byte(b, 1, 137, 0);
    check_bad_byte(b, 0, 77, '.');
    check_bad_byte(b, 1, 255, 0xC3);
    check_bad_byte(b, 0, 254, '*');
    check_bad_byte(b, 1, 251, 'e'); /* inside the seed */
    check_bad_byte(b, 0, 13, '\n');
    /* add more good tasks so that the index in the message changes */
    set_task(&t, good, good, 5, 10, 5, 10);
    REQUIRE_OK(gale_batch_add(b, &t));
    REQUIRE_OK(gale_batch_add(b, &t));
    REQUIRE_OK(gale_batch_add(b, &t)); /* count 7 */
    check_bad_byte(b, 1, 222, 'Z');
    check_bad_byte(b, 0, 111, ' ');
    CHECK_ST(gale_batch_destroy(b), GALE_OK);

    /* Every byte value: exactly ACGTU, N and the IUPAC codes R Y S W K M B D H V
     * (either case) are accepted. */
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    n0 = 0;
    for (c = 0; c < 256; ++c) {
        char s[2];
        int ok = c != 0 && strchr("ACGTUNRYSWKMBDHVacgtunryswkmbdhv", c) != NULL;
        gale_status st;
        s[0] = (char)c;
        s[1] = 0;
        gale_task_init(&t);
        t.h = s;
        t.v = "A";
        t.h_len = t.v_len = 1;
        t.h_begin = t.h_end = t.v_begin = t.v_end = 0;
        st = gale_batch_add(b, &t);
        if (ok) {
            CHECK_MSG(st == GALE_OK, "byte 0x%02x ('%c') rejected: %s", c, c, gale_last_error());
            n0 += st == GALE_OK;
        } else {
            CHECK_MSG(st == GALE_E_INPUT, "byte 0x%02x: got %d, expected GALE_E_INPUT", c, st);
        }
        /* the same byte in v */
        t.h = "A";
        t.v = s;
        st = gale_batch_add(b, &t);
        if (ok) {
            CHECK_MSG(st == GALE_OK, "byte 0x%02x in v rejected", c);
            n0 += st == GALE_OK;
        } else {
            CHECK_MSG(st == GALE_E_INPUT, "byte 0x%02x in v: got %d, expected GALE_E_INPUT", c, st);
        }
    }
    CHECK_EQ_I64(count_of(b), n0);
    CHECK_EQ_I64(n0, 64);
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
}

/* ------------------------------------------------------------------ */
/* Batch states                                                         */
/* ------------------------------------------------------------------ */

static void test_states(gale_ctx *ctx)
{
    gale_batch *b = NULL, *stale;
    gale_task t;
    gale_result r;
    gale_stats st;
    int64_t v;
    size_t n;
    static const char *s = "ACGTACGTACGTACGT";

    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    set_task(&t, s, s, 4, 8, 4, 8);
    t.user = 77;
    REQUIRE_OK(gale_batch_add(b, &t));

    /* before submit */
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    CHECK_ST(gale_poll(b, 0), GALE_E_STATE);
    CHECK_ST(gale_poll(b, 10), GALE_E_STATE);
    CHECK_ST(gale_wait(b), GALE_E_STATE);
    CHECK_ST(gale_result_get(b, 0, &r), GALE_E_STATE);
    CHECK_ST(gale_batch_stats(b, &st), GALE_E_STATE);
    {
        size_t nparts = 99;
        CHECK_ST(gale_batch_device_stats(b, NULL, 0, &nparts), GALE_E_STATE);
        CHECK_EQ_I64(nparts, 99); /* nothing written by a failed call */
    }
    CHECK_ST(gale_cancel(b), GALE_OK); /* no effect */
    CHECK_ST(gale_poll(b, 0), GALE_E_STATE);
    CHECK_ST(gale_batch_reset(b), GALE_OK); /* allowed on an open batch */
    CHECK_EQ_I64(count_of(b), 0);
    REQUIRE_OK(gale_batch_set(b, GALE_P_XDROP, 3));
    REQUIRE_OK(gale_batch_add(b, &t));

    /* a cancel before submit has no effect on the run that follows */
    {
        gale_batch *c = NULL;
        REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &c));
        REQUIRE_OK(gale_batch_add(c, &t));
        CHECK_ST(gale_cancel(c), GALE_OK);
        CHECK_ST(gale_submit(c), GALE_OK);
        CHECK_ST(gale_wait(c), GALE_OK);
        CHECK_ST(gale_result_get(c, 0, &r), GALE_OK);
        /* nor does a cancel after done on the run after a reset */
        CHECK_ST(gale_cancel(c), GALE_OK);
        CHECK_ST(gale_batch_reset(c), GALE_OK);
        REQUIRE_OK(gale_batch_add(c, &t));
        CHECK_ST(gale_submit(c), GALE_OK);
        CHECK_ST(gale_wait(c), GALE_OK);
        CHECK_ST(gale_result_get(c, 0, &r), GALE_OK);
        CHECK_ST(gale_batch_destroy(c), GALE_OK);
    }

    /* submit, then the state rules */
    CHECK_ST(gale_submit(b), GALE_OK);
    CHECK_ST(gale_submit(b), GALE_E_STATE);
    CHECK_ST(gale_batch_add(b, &t), GALE_E_STATE);
    CHECK_ST(gale_batch_set(b, GALE_P_XDROP, 5), GALE_E_STATE);
    CHECK_ST(gale_batch_set(b, GALE_P_MATCH, 2), GALE_E_STATE);
    CHECK_ST(gale_wait(b), GALE_OK);
    CHECK_ST(gale_poll(b, 0), GALE_OK); /* stays done */
    CHECK_ST(gale_poll(b, -1), GALE_OK);
    CHECK_ST(gale_submit(b), GALE_E_STATE);
    CHECK_ST(gale_batch_add(b, &t), GALE_E_STATE);
    CHECK_ST(gale_batch_set(b, GALE_P_XDROP, 5), GALE_E_STATE);
    CHECK_ST(gale_batch_get(b, GALE_P_XDROP, &v), GALE_OK); /* get is fine */
    CHECK_EQ_I64(v, 3);
    CHECK_ST(gale_batch_count(b, &n), GALE_OK);
    CHECK_EQ_I64(n, 1);

    /* results: index range, struct size, NULL, user round trip */
    CHECK_ST(gale_result_get(b, 0, &r), GALE_OK);
    CHECK_EQ_I64(r.user, 77);
    CHECK_EQ_I64(r.size, sizeof r);
    CHECK_ST(gale_result_get(b, 1, &r), GALE_E_RANGE);
    CHECK_ST(gale_result_get(b, (size_t)-1, &r), GALE_E_RANGE);
    CHECK_ST(gale_result_get(b, 0, NULL), GALE_E_INVALID);
    CHECK_ST(gale_result_get(NULL, 0, &r), GALE_E_HANDLE);
    {
        gale_result small;
        memset(&small, 0x5A, sizeof small);
        small.size = 0;
        CHECK_FAILS(gale_result_get(b, 0, &small));
        small.size = offsetof(gale_result, user);
        CHECK_FAILS(gale_result_get(b, 0, &small));
        /* nothing written past what the caller declared */
        CHECK_EQ_I64(small.user, 0x5A5A5A5A5A5A5A5Aull);
        small.size = sizeof(gale_result) - 1;
        CHECK_FAILS(gale_result_get(b, 0, &small));
    }
    /* stats: size, NULL, handle */
    CHECK_ST(gale_batch_stats(b, &st), GALE_OK);
    CHECK_EQ_I64(st.tasks, 1);
    CHECK_ST(gale_batch_stats(b, NULL), GALE_E_INVALID);
    CHECK_ST(gale_batch_stats(NULL, &st), GALE_E_HANDLE);
    {
        gale_stats small;
        memset(&small, 0, sizeof small);
        small.size = 0;
        CHECK_FAILS(gale_batch_stats(b, &small));
        small.size = sizeof(gale_stats) - 8;
        CHECK_FAILS(gale_batch_stats(b, &small));
    }
    /* device parts: none on the CPU backend, one covering the batch on one device */
    {
        gale_device_stats d[2];
        size_t nparts = 99;
        int be = -1;
        REQUIRE_OK(gale_ctx_backend(ctx, &be));
        CHECK_ST(gale_batch_device_stats(b, NULL, 0, &nparts), GALE_OK);
        CHECK_EQ_I64(nparts, be == GALE_BACKEND_CUDA ? 1 : 0);
        CHECK_ST(gale_batch_device_stats(b, NULL, 0, NULL), GALE_E_INVALID);
        CHECK_ST(gale_batch_device_stats(b, NULL, 1, &nparts), GALE_E_INVALID);
        CHECK_ST(gale_batch_device_stats(NULL, d, 2, &nparts), GALE_E_HANDLE);
        memset(d, 0x5A, sizeof d);
        d[0].size = sizeof d[0] - 8;
        CHECK_FAILS(gale_batch_device_stats(b, d, 2, &nparts));
        d[0].size = sizeof d[0];
        nparts = 99;
        CHECK_ST(gale_batch_device_stats(b, d, 2, &nparts), GALE_OK);
        CHECK_EQ_I64(nparts, be == GALE_BACKEND_CUDA ? 1 : 0);
        if (nparts == 1) {
            int dev = -1;
            size_t nd = 0;
            REQUIRE_OK(gale_ctx_devices(ctx, &dev, 1, &nd));
            CHECK_EQ_I64(d[0].size, sizeof d[0]);
            CHECK_EQ_I64(d[0].device, dev);
            CHECK_EQ_I64(d[0].first_task, 0);
            CHECK_EQ_I64(d[0].tasks, st.tasks);
            CHECK_EQ_I64(d[0].cells, st.cells);
            CHECK_EQ_I64(d[0].rescued, st.rescued);
            CHECK(d[0].elapsed_ns > 0 && d[0].elapsed_ns <= st.elapsed_ns);
            CHECK(d[0].kernel_ns == st.kernel_ns);
        }
        CHECK_EQ_I64(d[1].tasks, 0x5A5A5A5A5A5A5A5Aull); /* only the parts there are */
    }
    /* cancel after done: no effect */
    CHECK_ST(gale_cancel(b), GALE_OK);
    CHECK_ST(gale_poll(b, 0), GALE_OK);
    CHECK_ST(gale_result_get(b, 0, &r), GALE_OK);

    /* reset: tasks and results dropped, parameters kept, batch reusable */
    CHECK_ST(gale_batch_reset(b), GALE_OK);
    CHECK_ST(gale_batch_count(b, &n), GALE_OK);
    CHECK_EQ_I64(n, 0);
    CHECK_ST(gale_poll(b, 0), GALE_E_STATE);
    CHECK_ST(gale_result_get(b, 0, &r), GALE_E_STATE);
    CHECK_ST(gale_batch_get(b, GALE_P_XDROP, &v), GALE_OK);
    CHECK_EQ_I64(v, 3);
    CHECK_ST(gale_batch_set(b, GALE_P_XDROP, 100), GALE_OK);
    set_task(&t, "ACGTACGTAC", "ACGTACGTAC", 4, 6, 4, 6);
    t.user = 0xFEEDFACECAFEBEEFull;
    CHECK_ST(gale_batch_add(b, &t), GALE_OK);
    t.user = 0;
    CHECK_ST(gale_batch_add(b, &t), GALE_OK);
    CHECK_ST(gale_submit(b), GALE_OK);
    CHECK_ST(gale_wait(b), GALE_OK);
    CHECK_ST(gale_result_get(b, 0, &r), GALE_OK);
    /* identical 10-mers, seed in the middle: the whole pair (hand case 1 below) */
    CHECK_EQ_I64(r.score, 10);
    CHECK_EQ_I64(r.user, 0xFEEDFACECAFEBEEFull);
    CHECK_ST(gale_result_get(b, 1, &r), GALE_OK);
    CHECK_EQ_I64(r.user, 0);
    CHECK_ST(gale_result_get(b, 2, &r), GALE_E_RANGE);

    /* stale batch handle */
    stale = b;
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
    CHECK_ST(gale_poll(stale, 0), GALE_E_HANDLE);
    CHECK_ST(gale_wait(stale), GALE_E_HANDLE);
    CHECK_ST(gale_cancel(stale), GALE_E_HANDLE);
    CHECK_ST(gale_submit(stale), GALE_E_HANDLE);
    CHECK_ST(gale_batch_reset(stale), GALE_E_HANDLE);
    CHECK_ST(gale_batch_add(stale, &t), GALE_E_HANDLE);
    CHECK_ST(gale_batch_set(stale, GALE_P_XDROP, 1), GALE_E_HANDLE);
    CHECK_ST(gale_batch_get(stale, GALE_P_XDROP, &v), GALE_E_HANDLE);
    CHECK_ST(gale_batch_count(stale, &n), GALE_E_HANDLE);
    CHECK_ST(gale_result_get(stale, 0, &r), GALE_E_HANDLE);
    CHECK_ST(gale_batch_stats(stale, &st), GALE_E_HANDLE);
    CHECK_ST(gale_batch_destroy(stale), GALE_E_HANDLE);

    /* NULL handles on the remaining functions */
    CHECK_ST(gale_submit(NULL), GALE_E_HANDLE);
    CHECK_ST(gale_poll(NULL, 0), GALE_E_HANDLE);
    CHECK_ST(gale_wait(NULL), GALE_E_HANDLE);
    CHECK_ST(gale_cancel(NULL), GALE_E_HANDLE);
    CHECK_ST(gale_batch_reset(NULL), GALE_E_HANDLE);
}

static void test_empty_batch(gale_ctx *ctx)
{
    gale_batch *b = NULL;
    gale_stats st;
    gale_result r;
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    CHECK_ST(gale_submit(b), GALE_OK);
    CHECK_ST(gale_poll(b, 1000), GALE_OK);
    CHECK_ST(gale_wait(b), GALE_OK);
    memset(&st, 0xFF, sizeof st);
    st.size = sizeof st;
    CHECK_ST(gale_batch_stats(b, &st), GALE_OK);
    CHECK_EQ_I64(st.tasks, 0);
    CHECK_EQ_I64(st.cells, 0);
    CHECK_EQ_I64(st.rescued, 0);
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    CHECK_ST(gale_result_get(b, 0, &r), GALE_E_RANGE);
    CHECK_ST(gale_submit(b), GALE_E_STATE);
    /* reset and reuse an emptied batch */
    CHECK_ST(gale_batch_reset(b), GALE_OK);
    CHECK_ST(gale_submit(b), GALE_OK);
    CHECK_ST(gale_wait(b), GALE_OK);
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
}

/* Statistics on a nontrivial batch: tasks, cells = sum of the results' cells
 * and > 0; CPU backend: no kernel time, nothing rescued, no flags. */
static void test_stats(gale_ctx *ctx)
{
    enum { N = 40 };
    tu_pair p[N];
    gale_task t[N];
    gale_result r[N];
    gale_batch *b = NULL;
    gale_stats st;
    uint64_t sum = 0;
    int i;
    for (i = 0; i < N; ++i) {
        tu_pair_make(&rng, &p[i], tu_range(&rng, 50, 2000), tu_range(&rng, 1, 30), 0.1, TU_LOWER);
        tu_task_from_pair(&t[i], &p[i], (uint64_t)i * 1000003u);
    }
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    for (i = 0; i < N; ++i) REQUIRE_OK(gale_batch_add(b, &t[i]));
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    for (i = 0; i < N; ++i) {
        r[i].size = sizeof r[i];
        REQUIRE_OK(gale_result_get(b, (size_t)i, &r[i]));
        CHECK_EQ_I64(r[i].user, (uint64_t)i * 1000003u);
        CHECK_EQ_I64(r[i].flags, 0);
        CHECK_EQ_I64(r[i].score, (int64_t)r[i].score_left + r[i].score_right + (t[i].h_end - t[i].h_begin));
        CHECK(r[i].h_begin <= t[i].h_begin && r[i].h_end >= t[i].h_end);
        CHECK(r[i].v_begin <= t[i].v_begin && r[i].v_end >= t[i].v_end);
        CHECK(r[i].h_begin >= 0 && r[i].h_end <= t[i].h_len);
        CHECK(r[i].v_begin >= 0 && r[i].v_end <= t[i].v_len);
        /* a flank of at least one base on each sequence means at least one cell */
        if (t[i].h_begin > 0 && t[i].v_begin > 0) CHECK(r[i].cells > 0);
        sum += r[i].cells;
    }
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    REQUIRE_OK(gale_batch_stats(b, &st));
    CHECK_EQ_I64(st.tasks, N);
    CHECK(st.cells > 0);
    CHECK_EQ_I64(st.cells, sum);
    CHECK_EQ_I64(st.rescued, 0);
    CHECK_EQ_I64(st.kernel_ns, 0); /* gale.h: 0 on the CPU backend */
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
    for (i = 0; i < N; ++i) tu_pair_free(&p[i]);
}

/* ------------------------------------------------------------------ */
/* Cancel and destroy with work in flight                               */
/* ------------------------------------------------------------------ */

/* The results of a cancelled batch of L (gale.h, gale_cancel): every task reads back
 * either as finished (GALE_OK, a real result) or as cancelled (GALE_E_CANCELED, flags
 * GALE_RF_CANCELED, all else 0 but size and user), each alike through gale_result_get
 * and gale_result_get_range, and at least one is cancelled. Returns the index of a
 * cancelled task. */
static size_t check_cancelled_results(gale_batch *b, const load *L)
{
    gale_result *all = (gale_result *)calloc((size_t)L->n, sizeof(gale_result));
    size_t i, first = (size_t)-1, n_cancelled = 0;
    REQUIRE(all != NULL);
    all[0].size = sizeof(gale_result);
    CHECK_ST(gale_result_get_range(b, 0, (size_t)L->n, all), GALE_E_CANCELED);
    for (i = 0; i < (size_t)L->n; ++i) {
        gale_result r;
        const gale_result *a = &all[i];
        const int cancelled = (a->flags & GALE_RF_CANCELED) != 0;
        CHECK_EQ_I64(a->size, sizeof(gale_result));
        CHECK_EQ_I64(a->user, i);
        if (cancelled) {
            CHECK_EQ_I64(a->flags, GALE_RF_CANCELED);
            CHECK(a->score == 0 && a->score_left == 0 && a->score_right == 0 && a->cells == 0 && a->h_begin == 0 &&
                  a->h_end == 0 && a->v_begin == 0 && a->v_end == 0);
            if (n_cancelled++ == 0) first = i;
        }
        CHECK_ST(tu_result_fetch(b, i, &r), cancelled ? GALE_E_CANCELED : GALE_OK);
        CHECK(tu_result_eq(&r, a, 1, "gale_result_get against gale_result_get_range"));
    }
    CHECK_MSG(n_cancelled > 0, "a cancelled batch has no cancelled task");
    free(all);
    return first == (size_t)-1 ? 0 : first;
}

static void test_cancel(gale_ctx *ctx, const load *L)
{
    int tries = 6, k, cancelled = 0, finished = 0;
    for (k = 0; k < tries; ++k) {
        gale_batch *b = load_batch(ctx, L);
        gale_status st, st2;
        gale_result r;
        gale_stats stats;
        memset(&stats, 0, sizeof stats);
        stats.size = sizeof stats;
        REQUIRE_OK(gale_submit(b));
        CHECK_ST(gale_cancel(b), GALE_OK);
        CHECK_ST(gale_cancel(b), GALE_OK); /* twice is fine */
        st = gale_wait(b);
        CHECK_ST2(st, GALE_E_CANCELED, GALE_OK);
        st2 = gale_poll(b, 0);
        CHECK_MSG(st2 == st, "poll after wait gives %d, wait gave %d", st2, st);
        memset(&r, 0, sizeof r);
        r.size = sizeof r;
        if (st == GALE_E_CANCELED) {
            ++cancelled;
            check_cancelled_results(b, L);
            CHECK_ST(gale_batch_stats(b, &stats), GALE_E_CANCELED);
            CHECK_ST(gale_submit(b), GALE_E_STATE);
            /* reset makes a cancelled batch fillable again */
            CHECK_ST(gale_batch_reset(b), GALE_OK);
            CHECK_EQ_I64(count_of(b), 0);
        } else if (st == GALE_OK) {
            ++finished;
            CHECK_ST(gale_result_get(b, 0, &r), GALE_OK);
        }
        CHECK_ST(gale_batch_destroy(b), GALE_OK);
    }
    printf("  cancel: %d of %d tries cancelled, %d finished first\n", cancelled, tries, finished);
    CHECK_MSG(cancelled > 0, "no cancel took effect in %d tries", tries);
}

static void test_in_flight(const load *L)
{
    enum { NRUN = 6 };
    gale_batch *b, *b3, *b4, *running[NRUN];
    gale_ctx *ctx2;
    int i;
    gale_status st;
    gale_result r;
    size_t n;
    double t0, t_full, t_destroy;

    /* The time a full run of one load batch takes on a 2-thread context: the
     * yardstick for the destroys below, which cancel (gale.h) and so must take
     * much less. */
    ctx2 = make_cpu_ctx(2);
    b = load_batch(ctx2, L);
    t0 = tu_now();
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    t_full = tu_now() - t0;
    REQUIRE_OK(gale_batch_destroy(b));

    /* polls and results while running: AGAIN / STATE, or already done */
    b = load_batch(ctx2, L);
    REQUIRE_OK(gale_submit(b));
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    st = gale_poll(b, 0);
    CHECK_ST2(st, GALE_E_AGAIN, GALE_OK);
    {
        /* If the batch is still running after a call, it was running during
         * it: result, stats and reset must then have said GALE_E_STATE. */
        gale_stats sst;
        gale_status rs = gale_result_get(b, 0, &r), ss, zs;
        memset(&sst, 0, sizeof sst);
        sst.size = sizeof sst;
        ss = gale_batch_stats(b, &sst);
        zs = gale_batch_reset(b);
        if (gale_poll(b, 0) == GALE_E_AGAIN) {
            CHECK_ST(rs, GALE_E_STATE);
            CHECK_ST(ss, GALE_E_STATE);
            CHECK_ST(zs, GALE_E_STATE);
        } else {
            printf("  (the load batch finished too early for the in-flight state checks)\n");
        }
        CHECK_ST2(rs, GALE_E_STATE, GALE_OK);
    }
    CHECK_ST2(gale_poll(b, 1), GALE_E_AGAIN, GALE_OK);
    /* a timed poll on a running batch waits about its timeout ("waits up to
     * timeout_ms for the batch"): not much less, and not unboundedly more */
    t0 = tu_now();
    st = gale_poll(b, 100);
    t_destroy = tu_now() - t0;
    CHECK_ST2(st, GALE_E_AGAIN, GALE_OK);
    if (st == GALE_E_AGAIN) {
        CHECK_MSG(t_destroy >= 0.09, "gale_poll(b, 100) returned GALE_E_AGAIN after %.3f s", t_destroy);
        CHECK_MSG(t_destroy < 2.0, "gale_poll(b, 100) returned after %.3f s", t_destroy);
    }
    CHECK_ST(gale_batch_add(b, &(gale_task){sizeof(gale_task), "A", 1, "A", 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, NULL}), GALE_E_STATE);
    /* destroy a batch with work in flight: cancels and waits */
    t0 = tu_now();
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
    t_destroy = tu_now() - t0;
    printf("  destroy of a running batch took %.3f s (one full run: %.3f s)\n", t_destroy, t_full);
    CHECK_MSG(t_destroy < 0.5 * t_full, "gale_batch_destroy of a running batch took %.3f s, a full run %.3f s",
              t_destroy, t_full);
    CHECK_ST(gale_poll(b, 0), GALE_E_HANDLE);

    /* destroy a context with batches in flight and never submitted: six load
     * batches running (several, so that whatever order the library walks its
     * batches in, a destroy that waits for one batch before cancelling the
     * next is caught; they are submitted in the reverse order of creation),
     * one empty and one filled batch never submitted. */
    for (i = 0; i < NRUN; ++i) running[i] = load_batch(ctx2, L);
    REQUIRE_OK(gale_batch_create(ctx2, GALE_XDROP, &b3)); /* empty, never submitted */
    b4 = load_batch(ctx2, L);                             /* filled, never submitted */
    for (i = NRUN; i-- > 0;) REQUIRE_OK(gale_submit(running[i]));
    t0 = tu_now();
    CHECK_ST(gale_ctx_destroy(ctx2), GALE_OK);
    t_destroy = tu_now() - t0;
    printf("  destroy of a context with %d running batches took %.3f s (one full run: %.3f s)\n", NRUN, t_destroy,
           t_full);
    CHECK_MSG(t_destroy < 0.5 * t_full,
              "gale_ctx_destroy took %.3f s with %d batches in flight, a full run of one takes %.3f s: "
              "it does not cancel them before waiting",
              t_destroy, NRUN, t_full);
    /* every batch of it is gone: stale handles */
    CHECK_ST(gale_poll(running[0], 0), GALE_E_HANDLE);
    CHECK_ST(gale_wait(running[1]), GALE_E_HANDLE);
    CHECK_ST(gale_cancel(running[2]), GALE_E_HANDLE);
    CHECK_ST(gale_result_get(running[3], 0, &r), GALE_E_HANDLE);
    CHECK_ST(gale_batch_count(b3, &n), GALE_E_HANDLE);
    CHECK_ST(gale_submit(b4), GALE_E_HANDLE);
    CHECK_ST(gale_batch_destroy(b3), GALE_E_HANDLE);
    CHECK_ST(gale_batch_destroy(b4), GALE_E_HANDLE);
    CHECK_ST(gale_batch_destroy(running[NRUN - 1]), GALE_E_HANDLE);
    CHECK_ST(gale_ctx_destroy(ctx2), GALE_E_HANDLE);
}

/* ------------------------------------------------------------------ */
/* Every status but GALE_OK describes its own call                      */
/* ------------------------------------------------------------------ */

/* gale.h, gale_last_error: every call that returns a status other than GALE_OK sets
 * the calling thread's message, GALE_E_AGAIN included, so that the message is never
 * an earlier call's. Before each such call a known message is left (an unknown
 * kind's); the call must replace it with its own. */
static char earlier[512];

static void leave_earlier_message(void)
{
    gale_bounds bd;
    memset(&bd, 0, sizeof bd);
    bd.size = sizeof bd;
    CHECK_ST(gale_param_bounds(12345, GALE_P_MATCH, &bd), GALE_E_RANGE);
    snprintf(earlier, sizeof earlier, "%s", gale_last_error());
    CHECK(has_number(earlier, 12345));
}

/* call returns `expected` (any failure when expected is -1) and leaves its own message. */
#define CHECK_OWN_MESSAGE(call, expected)                                                                      \
    do {                                                                                                         \
        gale_status own_st_;                                                                                     \
        const char *own_m_;                                                                                      \
        leave_earlier_message();                                                                                 \
        own_st_ = (call);                                                                                        \
        own_m_ = gale_last_error();                                                                              \
        CHECK_MSG((expected) == -1 ? own_st_ != GALE_OK : own_st_ == (expected),                                 \
                  "%s: got %d (%s), expected %d", #call, own_st_, gale_status_string(own_st_), (int)(expected)); \
        CHECK_MSG(own_m_[0] != '\0' && strcmp(own_m_, earlier) != 0,                                           \
                  "%s returned %d (%s) and left gale_last_error() at \"%s\": not a message about this call",    \
                  #call, own_st_, gale_status_string(own_st_), own_m_);                                         \
    } while (0)

static void test_messages(gale_ctx *ctx, const load *L)
{
    static unsigned char foreign[4096];
    static const char *seqs[2] = {"ACGT", "ACGA"};
    static const int64_t lens[2] = {4, 4};
    static const uint32_t edges[2] = {0, 1};
    gale_ctx_opts o;
    gale_ctx *c = NULL;
    gale_batch *open = NULL, *b = NULL, *done = NULL;
    gale_task t, good;
    gale_group g;
    gale_graph gr;
    gale_bounds bd;
    gale_result r;
    gale_stats st;
    gale_plugin *p = NULL;
    const gale_plugin_info *info = NULL;
    const char *path = NULL;
    const uint32_t *cigar = NULL;
    size_t n = 0;
    int64_t v = 0;
    int x = 0, tries, again0 = 0, again_t = 0;
    uint32_t id = 0;

    gale_ctx_opts_init(&o);
    o.backend = 3;
    memset(&bd, 0, sizeof bd);
    bd.size = sizeof bd;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    memset(&st, 0, sizeof st);
    st.size = sizeof st;

    /* contexts */
    CHECK_OWN_MESSAGE(gale_ctx_create(NULL, NULL), GALE_E_INVALID);
    CHECK_OWN_MESSAGE(gale_ctx_create(&c, &o), -1);
    CHECK_OWN_MESSAGE(gale_ctx_destroy((gale_ctx *)(void *)foreign), GALE_E_HANDLE);
    CHECK_OWN_MESSAGE(gale_ctx_backend(NULL, &x), GALE_E_HANDLE);
    CHECK_OWN_MESSAGE(gale_ctx_threads(ctx, NULL), GALE_E_INVALID);
    CHECK_OWN_MESSAGE(gale_ctx_devices(ctx, NULL, 1, &n), GALE_E_INVALID);

    /* batches, parameters, kinds */
    CHECK_OWN_MESSAGE(gale_batch_create(ctx, 999, &b), -1);
    CHECK_OWN_MESSAGE(gale_batch_destroy((gale_batch *)(void *)foreign), GALE_E_HANDLE);
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &open));
    CHECK_OWN_MESSAGE(gale_batch_set(open, 99999, 1), GALE_E_RANGE);
    CHECK_OWN_MESSAGE(gale_batch_get(open, GALE_P_XDROP, NULL), GALE_E_INVALID);
    CHECK_OWN_MESSAGE(gale_param_bounds(GALE_XDROP, 99999, &bd), GALE_E_RANGE);
    CHECK_OWN_MESSAGE(gale_kind_params(999, NULL, 0, &n), GALE_E_RANGE);
    CHECK_OWN_MESSAGE(gale_batch_count(NULL, &n), GALE_E_HANDLE);

    /* adding */
    set_task(&t, "ACGTXCGT", "ACGTACGT", 0, 2, 0, 2);
    set_task(&good, "ACGT", "ACGT", 0, 1, 0, 1);
    CHECK_OWN_MESSAGE(gale_batch_add(open, &t), GALE_E_INPUT);
    CHECK_OWN_MESSAGE(gale_batch_add_sequence(open, "ACXT", 4, &id), GALE_E_INPUT);
    gale_group_init(&g);
    g.n = 2;
    g.seqs = seqs;
    g.lens = lens;
    CHECK_OWN_MESSAGE(gale_batch_add_group(open, &g), GALE_E_UNSUPPORTED);
    gale_graph_init(&gr);
    gr.n_nodes = 2;
    gr.node_seqs = seqs;
    gr.node_lens = lens;
    gr.n_edges = 1;
    gr.edges = edges;
    CHECK_OWN_MESSAGE(gale_batch_add_graph(open, &gr, &id), GALE_E_UNSUPPORTED);

    /* an open batch: not submitted */
    CHECK_OWN_MESSAGE(gale_poll(open, 0), GALE_E_STATE);
    CHECK_OWN_MESSAGE(gale_wait(open), GALE_E_STATE);
    CHECK_OWN_MESSAGE(gale_result_get(open, 0, &r), GALE_E_STATE);
    CHECK_OWN_MESSAGE(gale_batch_stats(open, &st), GALE_E_STATE);

    /* a running batch: GALE_E_AGAIN says so, with the time waited */
    for (tries = 0; tries < 5 && !(again0 && again_t); ++tries) {
        gale_status s;
        b = load_batch(ctx, L);
        REQUIRE_OK(gale_submit(b));
        leave_earlier_message();
        s = gale_poll(b, 0);
        if (s == GALE_E_AGAIN) {
            const char *m = gale_last_error();
            again0 = 1;
            CHECK_MSG(strcmp(m, earlier) != 0 && strstr(m, "running") != NULL,
                      "gale_poll(b, 0) returned GALE_E_AGAIN and left gale_last_error() at \"%s\"", m);
        }
        leave_earlier_message();
        s = gale_poll(b, 30);
        if (s == GALE_E_AGAIN) {
            const char *m = gale_last_error();
            again_t = 1;
            CHECK_MSG(strcmp(m, earlier) != 0 && strstr(m, "running") != NULL && has_number(m, 30),
                      "gale_poll(b, 30) returned GALE_E_AGAIN; gale_last_error() is \"%s\", not about a batch "
                      "still running after 30 ms",
                      m);
            /* the calls a running batch refuses */
            CHECK_OWN_MESSAGE(gale_submit(b), GALE_E_STATE);
            CHECK_OWN_MESSAGE(gale_batch_add(b, &good), GALE_E_STATE);
            CHECK_OWN_MESSAGE(gale_batch_set(b, GALE_P_XDROP, 1), GALE_E_STATE);
            /* a success in between leaves the message as it is (it describes the last call
             * that did not return GALE_OK) */
            REQUIRE_OK(gale_batch_count(b, &n));
            CHECK_MSG(strcmp(gale_last_error(), earlier) != 0, "a successful call brought back an older message");
        }
        CHECK_ST(gale_cancel(b), GALE_OK);
        s = gale_wait(b);
        if (s == GALE_E_CANCELED) {
            const size_t c = check_cancelled_results(b, L);
            CHECK_OWN_MESSAGE(gale_wait(b), GALE_E_CANCELED);
            CHECK_OWN_MESSAGE(gale_poll(b, 0), GALE_E_CANCELED);
            CHECK_OWN_MESSAGE(gale_result_get(b, c, &r), GALE_E_CANCELED);
            CHECK_OWN_MESSAGE(gale_batch_stats(b, &st), GALE_E_CANCELED);
        }
        CHECK_ST(gale_batch_destroy(b), GALE_OK);
    }
    if (!again0 || !again_t)
        printf("  (the load batches finished too early: GALE_E_AGAIN's message checked %s)\n",
               again0 || again_t ? "for one timeout only" : "for no timeout");
    CHECK_MSG(again0 || again_t, "no gale_poll returned GALE_E_AGAIN in %d tries", tries);

    /* a finished batch */
    done = open;
    REQUIRE_OK(gale_batch_add(done, &good));
    REQUIRE_OK(gale_submit(done));
    REQUIRE_OK(gale_wait(done));
    CHECK_OWN_MESSAGE(gale_submit(done), GALE_E_STATE);
    CHECK_OWN_MESSAGE(gale_result_get(done, 1, &r), GALE_E_RANGE);
    CHECK_OWN_MESSAGE(gale_result_get_range(done, 0, 1, NULL), GALE_E_INVALID);
    CHECK_OWN_MESSAGE(gale_result_cigar(done, 0, &cigar, &n), GALE_E_RANGE); /* X-drop has no CIGAR */
    CHECK_OWN_MESSAGE(gale_batch_get(done, 99999, &v), GALE_E_RANGE);
    CHECK_OWN_MESSAGE(gale_batch_reset(NULL), GALE_E_HANDLE);
    CHECK_OWN_MESSAGE(gale_cancel(NULL), GALE_E_HANDLE);
    CHECK_ST(gale_batch_destroy(done), GALE_OK);

    /* plugins */
    CHECK_OWN_MESSAGE(gale_plugin_open("gale-no-such-plugin", &p), GALE_E_NOT_FOUND);
    CHECK_OWN_MESSAGE(gale_plugin_open("bad/../name", &p), -1);
    CHECK_OWN_MESSAGE(gale_plugin_get_info(NULL, &info), GALE_E_HANDLE);
    CHECK_OWN_MESSAGE(gale_plugin_get_path(NULL, &path), GALE_E_HANDLE);
    CHECK_OWN_MESSAGE(gale_plugin_close((gale_plugin *)(void *)foreign), GALE_E_HANDLE);
}

/* ------------------------------------------------------------------ */
/* Known answers, worked out by hand                                    */
/* ------------------------------------------------------------------ */

/*
 * Notation: the right extension fills a DP matrix whose rows read h after the
 * seed and whose columns read v after it (the left extension does the same on
 * the reversed prefixes). Cells are computed anti-diagonal by anti-diagonal
 * (d = row + col); cell (0,0) = 0; the borders (i,0) and (0,j) are i*gap, kept
 * only while strictly above best - X. A cell is
 *     max(up + gap, left + gap, diag + s(h,v))
 * and is dropped when strictly below best - X, where best is the maximum over
 * the anti-diagonals finished before. The end cell is the last computed cell if
 * alive, else an alive end cell of the anti-diagonal before, else the best cell
 * of the anti-diagonal before that (gale.h / ORACLES.md). The seed end moves by
 * the end cell's row (h) and column (v); the side's score is the end cell's.
 * score = left + right + k, whatever the seed's own bases are.
 */
typedef struct hand_case {
    const char *what;
    const char *h, *v;
    int64_t hb, he, vb, ve;
    int64_t match, mismatch, gap, X;
    int dir, npol;
    int32_t left, right;
    int64_t score, h_begin, h_end, v_begin, v_end;
} hand_case;

#define D5 GALE_N_DNA5
#define NM GALE_N_MISMATCH
#define BOTH GALE_DIR_BOTH

static const hand_case hand_cases[] = {
    /* 1. Identical 10-mers, seed [4,6) ("AC") in the middle, +1/-1/-1, X 100.
     *    Left: "ACGT" vs "ACGT" (4x4). Nothing can drop (every cell of a 5x5
     *    matrix is >= -8 > best - 100), so the band runs to the corner (4,4),
     *    which is the last computed cell, score 4 (four matches). Right: "GTAC"
     *    vs "GTAC", same, 4. Seed moves to [0,10) on both; 4 + 4 + 2 = 10. */
    {"identical, seed in the middle", "ACGTACGTAC", "ACGTACGTAC", 4, 6, 4, 6, 1, -1, -1, 100, BOTH, D5, 4, 4, 10,
     0, 10, 0, 10},
    /* 2. Same, seed at position 0 ([0,3)): the left side is empty (no rows),
     *    score_left 0, h_begin stays 0; right: 7x7 identical -> 7; 0+7+3 = 10. */
    {"seed at position 0", "ACGTACGTAC", "ACGTACGTAC", 0, 3, 0, 3, 1, -1, -1, 100, BOTH, D5, 0, 7, 10, 0, 10, 0,
     10},
    /* 3. Seed at the end ([7,10)): right side empty (0), left 7 -> 10. */
    {"seed at the end", "ACGTACGTAC", "ACGTACGTAC", 7, 10, 7, 10, 1, -1, -1, 100, BOTH, D5, 7, 0, 10, 0, 10, 0, 10},
    /* 4. h = v = "AAAA", seed [0,4): both sides empty -> 0, 0, score 4, seed unchanged. */
    {"seed = whole sequence", "AAAA", "AAAA", 0, 4, 0, 4, 1, -1, -1, 100, BOTH, D5, 0, 0, 4, 0, 4, 0, 4},
    /* 5. The seed's bases are not scored: "AAAA" vs "CCCC", seed [0,4) -> 4. */
    {"seed bases not scored", "AAAA", "CCCC", 0, 4, 0, 4, 1, -1, -1, 100, BOTH, D5, 0, 0, 4, 0, 4, 0, 4},
    /* 6. Right flank h "AGGG", v "CGGG": one mismatch, then three matches.
     *    X = 0: anti-diagonal 1 (borders -1) is dropped at once (-1 < 0 - 0);
     *    on anti-diagonal 2 the only cell (1,1) is max(mismatch 0-1, gaps from
     *    dropped cells) = -1 < 0: dropped, and its borders (-2) too. Nothing is
     *    alive, so the end cell is the best of anti-diagonal 0: (0,0), score 0;
     *    the seed does not move: score 4. */
    {"mismatch then matches, X 0", "ACGTAGGG", "ACGTCGGG", 0, 4, 0, 4, 1, -1, -1, 0, BOTH, D5, 0, 0, 4, 0, 4, 0,
     4},
    /* 7. Same with X = 5. best stays 0 until the diagonal recovers, so the
     *    drop line is 0 - 5 = -5. Every inner cell of the 5x5 matrix is
     *    >= -4 (at worst a mismatch and gaps), so none drops; borders are kept
     *    while d * gap > -5 (d <= 4). The band therefore covers the matrix up
     *    to the corner (4,4) = -1 + 1 + 1 + 1 = 2 (the best path: the mismatch,
     *    then three matches), which is the last computed cell: score_right 2,
     *    ends 8/8, score 0 + 2 + 4 = 6. */
    {"mismatch then matches, X 5", "ACGTAGGG", "ACGTCGGG", 0, 4, 0, 4, 1, -1, -1, 5, BOTH, D5, 0, 2, 6, 0, 8, 0, 8},
    /* 8. Right flank "TT" vs "GG" (all mismatches), X = 1. d1: the borders
     *    (-1) are kept (SeqAn drops the first anti-diagonal only when
     *    -gap > X; 1 > 1 is false). d2: cell (1,1) = max(-1 - 1, 0 - 1) = -1,
     *    not below 0 - 1: kept; the borders -2 are not above -1: dropped.
     *    best stays 0. d3: (1,2) and (2,1) = max(-1 - 1, -1 - 1) = -2 < -1:
     *    dropped. d4: (2,2) = -1 - 1 = -2: dropped, and the band is empty.
     *    End cell: the last cell (2,2) is dead, the end cells of d3 are dead,
     *    so it is the best cell of d2, (1,1), score -1: one base on each
     *    sequence, below the peak (0). */
    {"all mismatches, X 1", "ACGTTT", "ACGTGG", 0, 4, 0, 4, 1, -1, -1, 1, BOTH, D5, 0, -1, 3, 0, 5, 0, 5},
    /* 9. One base after the seed, equal: X 0 keeps (1,1) = 1: right 1, score 5. */
    {"one match, X 0", "ACGTA", "ACGTA", 0, 4, 0, 4, 1, -1, -1, 0, BOTH, D5, 0, 1, 5, 0, 5, 0, 5},
    /* 10. One base after the seed, different, X 100: (1,1) = max(0 - 1, -1 - 1)
     *     = -1, alive and the last cell: right -1, the seed grows by one. */
    {"one mismatch, X 100", "ACGTA", "ACGTC", 0, 4, 0, 4, 1, -1, -1, 100, BOTH, D5, 0, -1, 3, 0, 5, 0, 5},
    /* 11. Mismatch below two gaps: +1/-2^20/-1: (1,1) = max(0 - 2^20, -1 - 1)
     *     = -2 (a gap in each sequence), alive: right -2. */
    {"mismatch < 2 gaps", "ACGTA", "ACGTC", 0, 4, 0, 4, 1, -(1 << 20), -1, 100, BOTH, D5, 0, -2, 2, 0, 5, 0, 5},
    /* 12. Extreme scores: identical 10-mers (case 1) with match 2^20, mismatch
     *     and gap -2^20, X 2^29: no cell can drop (a cell of a 5x5 matrix is at
     *     most 8 steps of -2^20 from (0,0), far above best - 2^29, best being at
     *     most 4 * 2^20), so both sides reach the corner: 4 * 2^20 each;
     *     score 8 * 2^20 + 2. */
    {"extreme scores", "ACGTACGTAC", "ACGTACGTAC", 4, 6, 4, 6, 1 << 20, -(1 << 20), -(1 << 20), 1 << 29, BOTH, D5,
     4 << 20, 4 << 20, (8 << 20) + 2, 0, 10, 0, 10},
    /* 13/14. Directions: case 1 extended left only / right only; the other
     *     side scores 0 and its seed end does not move. */
    {"left only", "ACGTACGTAC", "ACGTACGTAC", 4, 6, 4, 6, 1, -1, -1, 100, GALE_DIR_LEFT, D5, 4, 0, 6, 0, 6, 0, 6},
    {"right only", "ACGTACGTAC", "ACGTACGTAC", 4, 6, 4, 6, 1, -1, -1, 100, GALE_DIR_RIGHT, D5, 0, 4, 6, 4, 10, 4,
     10},
    /* 15. N policy: h = v = "NNNN", seed [0,1). DNA5: N matches N, the 3x3
     *     flank is like identical sequences: right 3, score 4. */
    {"N-N under DNA5", "NNNN", "NNNN", 0, 1, 0, 1, 1, -1, -1, 100, BOTH, D5, 0, 3, 4, 0, 4, 0, 4},
    /* 16. GALE_N_MISMATCH: every pair mismatches, so every cell is
     *     max(diag - 1, up - 1, left - 1) = -max(row, col) (by induction from
     *     the borders -i); X 100 drops nothing; the corner (3,3) = -3 is the
     *     last cell: right -3, score 1 - 3 = -2, ends 4. */
    {"N-N under N_MISMATCH", "NNNN", "NNNN", 0, 1, 0, 1, 1, -1, -1, 100, BOTH, NM, 0, -3, -2, 0, 4, 0, 4},
    /* 17. IUPAC codes read as N: h "ACGT" + "RYKM" vs v "ACGT" + "NNNN", seed
     *     [0,4): DNA5 -> four N-N matches, right 4, score 8. */
    {"IUPAC as N (DNA5)", "ACGTRYKM", "ACGTNNNN", 0, 4, 0, 4, 1, -1, -1, 100, BOTH, D5, 0, 4, 8, 0, 8, 0, 8},
    /* 18. ... and under N_MISMATCH all four mismatch: -max(row,col) again,
     *     corner (4,4) = -4: score 0. */
    {"IUPAC as N (N_MISMATCH)", "ACGTSWBD", "ACGTNNNN", 0, 4, 0, 4, 1, -1, -1, 100, BOTH, NM, 0, -4, 0, 0, 8, 0, 8},
    /* 19. Case folded: lowercase h, same answer as 17. */
    {"lowercase IUPAC", "acgtrykm", "ACGTnnnn", 0, 4, 0, 4, 1, -1, -1, 100, BOTH, D5, 0, 4, 8, 0, 8, 0, 8},
    /* 20. N (here H, an IUPAC code) mismatches A under DNA5: like case 10, -1. */
    {"IUPAC vs A", "ACGTH", "ACGTA", 0, 4, 0, 4, 1, -1, -1, 100, BOTH, D5, 0, -1, 3, 0, 5, 0, 5},
    /* 21. U is T: "ACGU" vs "ACGT", seed [0,3): the last base matches: +1. */
    {"U as T", "ACGU", "ACGT", 0, 3, 0, 3, 1, -1, -1, 100, BOTH, D5, 0, 1, 4, 0, 4, 0, 4},
    {"u as t", "acgu", "ACGt", 0, 3, 0, 3, 1, -1, -1, 100, BOTH, NM, 0, 1, 4, 0, 4, 0, 4},
};

static void test_hand_cases(gale_ctx *ctx)
{
    size_t i, n = sizeof hand_cases / sizeof hand_cases[0];
    for (i = 0; i < n; ++i) {
        const hand_case *c = &hand_cases[i];
        kv params[6];
        gale_task t;
        gale_result r;
        params[0].id = GALE_P_MATCH;
        params[0].value = c->match;
        params[1].id = GALE_P_MISMATCH;
        params[1].value = c->mismatch;
        params[2].id = GALE_P_GAP;
        params[2].value = c->gap;
        params[3].id = GALE_P_XDROP;
        params[3].value = c->X;
        params[4].id = GALE_P_DIRECTION;
        params[4].value = c->dir;
        params[5].id = GALE_P_N_POLICY;
        params[5].value = c->npol;
        set_task(&t, c->h, c->v, c->hb, c->he, c->vb, c->ve);
        t.user = (uint64_t)i;
        run_tasks(ctx, params, 6, &t, 1, &r);
        CHECK_MSG(r.score_left == c->left && r.score_right == c->right && r.score == c->score &&
                      r.h_begin == c->h_begin && r.h_end == c->h_end && r.v_begin == c->v_begin &&
                      r.v_end == c->v_end && r.user == (uint64_t)i,
                  "hand case %zu (%s): got left %d right %d score %lld h [%lld,%lld) v [%lld,%lld); expected "
                  "left %d right %d score %lld h [%lld,%lld) v [%lld,%lld)",
                  i + 1, c->what, r.score_left, r.score_right, (long long)r.score, (long long)r.h_begin,
                  (long long)r.h_end, (long long)r.v_begin, (long long)r.v_end, c->left, c->right,
                  (long long)c->score, (long long)c->h_begin, (long long)c->h_end, (long long)c->v_begin,
                  (long long)c->v_end);
    }
    printf("  %zu hand cases run\n", n);
}

/* ------------------------------------------------------------------ */
/* Score limits                                                         */
/* ------------------------------------------------------------------ */

/* Adds t with the parameters (set before or after the add), submits and waits;
 * returns the first status that is not GALE_OK (GALE_OK if all succeeded). */
static gale_status run_status(gale_ctx *ctx, const kv *params, int np, int set_after_add, const gale_task *t,
                              gale_result *r)
{
    gale_batch *b = NULL;
    gale_status st = GALE_OK;
    int k;
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    if (!set_after_add)
        for (k = 0; k < np; ++k) REQUIRE_OK(gale_batch_set(b, params[k].id, params[k].value));
    st = gale_batch_add(b, t);
    if (st == GALE_OK && set_after_add)
        for (k = 0; k < np; ++k) REQUIRE_OK(gale_batch_set(b, params[k].id, params[k].value));
    if (st == GALE_OK) st = gale_submit(b);
    if (st == GALE_OK) st = gale_wait(b);
    if (st == GALE_OK) {
        memset(r, 0, sizeof *r);
        r->size = sizeof *r;
        st = gale_result_get(b, 0, r);
    }
    CHECK_ST(gale_batch_destroy(b), GALE_OK);
    return st;
}

/* Side scores are int32 in gale_result: a task whose score cannot fit must be
 * refused with GALE_E_LIMIT (at add, submit or completion), never returned
 * wrapped. One that fits must be computed exactly. */
static void test_limits(gale_ctx *ctx)
{
    enum { L1 = 1000, L2 = 2100, L3 = 3001 };
    static char same1[L1 + 1], same2[L2 + 1], hc[L3 + 1], vg[L3 + 1];
    gale_task t;
    gale_result r;
    gale_status st;
    kv big_match[2], pos_mismatch[2];
    int i;
    for (i = 0; i < L2; ++i) same2[i] = tu_base(&rng);
    memcpy(same1, same2, L1);
    memset(hc, 'C', L3);
    memset(vg, 'G', L3);
    hc[0] = vg[0] = 'A';
    big_match[0].id = GALE_P_MATCH;
    big_match[0].value = 1 << 20;
    big_match[1].id = GALE_P_XDROP;
    big_match[1].value = 1 << 29;
    pos_mismatch[0].id = GALE_P_MISMATCH;
    pos_mismatch[0].value = 1 << 20;
    pos_mismatch[1].id = GALE_P_XDROP;
    pos_mismatch[1].value = 100;

    /* Fits: identical 1000-mers, seed [0,1), match 2^20, X 2^29: the right
     * side runs along the diagonal to the corner (999,999), the last computed
     * cell and the best: 999 * 2^20 = 1,047,527,424 < 2^31. */
    set_task(&t, same1, same1, 0, 1, 0, 1);
    st = run_status(ctx, big_match, 2, 0, &t, &r);
    CHECK_ST(st, GALE_OK);
    if (st == GALE_OK) {
        CHECK_EQ_I64(r.score_right, 999LL << 20);
        CHECK_EQ_I64(r.score, (999LL << 20) + 1);
        CHECK_EQ_I64(r.h_end, L1);
        CHECK_EQ_I64(r.v_end, L1);
    }

    /* Does not fit: identical 2100-mers: 2099 * 2^20 > 2^31 - 1. */
    set_task(&t, same2, same2, 0, 1, 0, 1);
    st = run_status(ctx, big_match, 2, 0, &t, &r);
    CHECK_MSG(st == GALE_E_LIMIT, "score 2099 * 2^20: got %d (%s), expected GALE_E_LIMIT%s", st,
              gale_status_string(st), st == GALE_OK ? " (a result was returned)" : "");
    /* ... also when the scores are set after the task was added */
    st = run_status(ctx, big_match, 2, 1, &t, &r);
    CHECK_MSG(st == GALE_E_LIMIT, "score 2099 * 2^20, set after add: got %d (%s), expected GALE_E_LIMIT", st,
              gale_status_string(st));

    /* Does not fit either: a POSITIVE mismatch score (allowed: [-2^20, 2^20])
     * larger than match. h = A + C*3000, v = A + G*3000, seed [0,1): every
     * pair of the right flanks mismatches and scores +2^20, so the diagonal
     * reaches 3000 * 2^20 = 3,145,728,000 > 2^31 - 1. */
    set_task(&t, hc, vg, 0, 1, 0, 1);
    st = run_status(ctx, pos_mismatch, 2, 0, &t, &r);
    CHECK_MSG(st == GALE_E_LIMIT,
              "mismatch +2^20 over 3000 bases: got %d (%s), expected GALE_E_LIMIT%s%s", st, gale_status_string(st),
              st == GALE_OK ? "; returned score_right " : "", st == GALE_OK ? "(wrapped or clamped)" : "");
    if (st == GALE_OK)
        printf("  positive mismatch case returned score_right %d, h_end %lld\n", r.score_right, (long long)r.h_end);
}

/* Every IUPAC code behaves like N (against N and against A), in both cases. */
static void test_iupac(gale_ctx *ctx)
{
    static const char codes[] = "NRYSWKMBDHVnryswkmbdhv";
    size_t i, n = sizeof codes - 1;
    int pol;
    for (pol = 0; pol < 2; ++pol) {
        kv params[1];
        gale_task t[2 * sizeof codes];
        gale_result r[2 * sizeof codes];
        char hs[2 * sizeof codes][6];
        params[0].id = GALE_P_N_POLICY;
        params[0].value = pol;
        for (i = 0; i < n; ++i) {
            snprintf(hs[2 * i], 6, "ACGT%c", codes[i]);
            set_task(&t[2 * i], hs[2 * i], "ACGTN", 0, 4, 0, 4);
            snprintf(hs[2 * i + 1], 6, "ACGT%c", codes[i]);
            set_task(&t[2 * i + 1], hs[2 * i + 1], "ACGTA", 0, 4, 0, 4);
        }
        run_tasks(ctx, params, 1, t, 2 * n, r);
        for (i = 0; i < n; ++i) {
            /* vs N: +1 under DNA5, -1 under N_MISMATCH (hand cases 9 and 10) */
            CHECK_MSG(r[2 * i].score_right == (pol == GALE_N_DNA5 ? 1 : -1), "code %c vs N, policy %d: right %d",
                      codes[i], pol, r[2 * i].score_right);
            /* vs A: a mismatch either way */
            CHECK_MSG(r[2 * i + 1].score_right == -1, "code %c vs A, policy %d: right %d", codes[i], pol,
                      r[2 * i + 1].score_right);
        }
    }
}

/* Lowercase input gives the same results (every field) as uppercase; so do
 * U for T and mixed case. Random pairs from the printed seed. */
static void test_case_folding(gale_ctx *ctx)
{
    int n = (int)tu_scaled(60, 10), i, k;
    tu_pair *p = (tu_pair *)calloc((size_t)n, sizeof(tu_pair));
    char **lower_h = (char **)calloc((size_t)n, sizeof(char *)), **lower_v = (char **)calloc((size_t)n, sizeof(char *));
    gale_task *t = (gale_task *)calloc((size_t)n, sizeof(gale_task)), *tl = (gale_task *)calloc((size_t)n, sizeof(gale_task));
    gale_result *r = (gale_result *)calloc((size_t)n, sizeof(gale_result)), *rl = (gale_result *)calloc((size_t)n, sizeof(gale_result));
    int pol;
    REQUIRE(p && lower_h && lower_v && t && tl && r && rl);
    for (i = 0; i < n; ++i) {
        int64_t len = tu_range(&rng, 1, 1500);
        tu_pair_make(&rng, &p[i], len, tu_range(&rng, 1, len < 20 ? len : 20), tu_unif(&rng) * 0.3, TU_NRUNS);
        tu_task_from_pair(&t[i], &p[i], (uint64_t)i);
        lower_h[i] = (char *)malloc((size_t)p[i].h_len + 1);
        lower_v[i] = (char *)malloc((size_t)p[i].v_len + 1);
        REQUIRE(lower_h[i] && lower_v[i]);
        for (k = 0; k <= p[i].h_len; ++k) {
            char c = p[i].h[k];
            if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
            if (c == 't' && (k & 1)) c = 'u'; /* U is T */
            lower_h[i][k] = c;
        }
        for (k = 0; k <= p[i].v_len; ++k) {
            char c = p[i].v[k];
            if (c >= 'A' && c <= 'Z' && (k % 3) != 0) c = (char)(c - 'A' + 'a'); /* mixed case */
            if (c == 'T' && (k % 5) == 0) c = 'U';
            lower_v[i][k] = c;
        }
        tl[i] = t[i];
        tl[i].h = lower_h[i];
        tl[i].v = lower_v[i];
    }
    for (pol = 0; pol < 2; ++pol) {
        kv params[2];
        params[0].id = GALE_P_N_POLICY;
        params[0].value = pol;
        params[1].id = GALE_P_XDROP;
        params[1].value = 30;
        run_tasks(ctx, params, 2, t, (size_t)n, r);
        run_tasks(ctx, params, 2, tl, (size_t)n, rl);
        for (i = 0; i < n; ++i) {
            char what[64];
            snprintf(what, sizeof what, "case folding, pair %d, policy %d", i, pol);
            CHECK(tu_result_eq(&r[i], &rl[i], 1, what));
        }
    }
    for (i = 0; i < n; ++i) {
        tu_pair_free(&p[i]);
        free(lower_h[i]);
        free(lower_v[i]);
    }
    free(p);
    free(lower_h);
    free(lower_v);
    free(t);
    free(tl);
    free(r);
    free(rl);
}

/* Results come back in submission order, each with its own user value, and
 * the same task gives the same result wherever it sits in a batch. */
static void test_order(gale_ctx *ctx)
{
    enum { N = 200 };
    tu_pair p[8];
    gale_task t[N];
    gale_result r[N], single[8];
    int i;
    for (i = 0; i < 8; ++i) {
        tu_pair_make(&rng, &p[i], tu_range(&rng, 20, 800), tu_range(&rng, 1, 20), 0.08, 0);
        tu_task_from_pair(&t[0], &p[i], 1000u + (uint64_t)i);
        run_tasks(ctx, NULL, 0, &t[0], 1, &single[i]);
    }
    for (i = 0; i < N; ++i) {
        int j = (int)tu_range(&rng, 0, 7);
        tu_task_from_pair(&t[i], &p[j], 1000u + (uint64_t)j);
    }
    run_tasks(ctx, NULL, 0, t, N, r);
    for (i = 0; i < N; ++i) {
        int j = (int)(t[i].user - 1000u);
        CHECK(tu_result_eq(&r[i], &single[j], 1, "result of a task inside a batch vs alone"));
    }
    for (i = 0; i < 8; ++i) tu_pair_free(&p[i]);
}

int main(void)
{
    gale_ctx *ctx;
    load L;
    int nload;

    tu_rng_init(&rng, tu_seed("api_contract"));

    test_versions();
    test_status_strings();
    test_last_error();
    test_contexts();

    ctx = make_cpu_ctx(0);
    test_batch_create(ctx);
    test_params(ctx);
    test_tasks(ctx);
    test_states(ctx);
    test_empty_batch(ctx);
    test_stats(ctx);
    test_hand_cases(ctx);
    test_limits(ctx);
    test_iupac(ctx);
    test_case_folding(ctx);
    test_order(ctx);

    /* the load for cancel/destroy: a full run takes about a second on two cores */
    nload = (int)tu_scaled(64, 16);
    L = make_load(nload, 6000);
    test_cancel(ctx, &L);
    test_messages(ctx, &L);
    test_in_flight(&L);
    free_load(&L);

    CHECK_ST(gale_ctx_destroy(ctx), GALE_OK);
    return tu_finish("api_contract");
}
