/* gale_batch_add_tasks (0.4) on whatever backend GALE_BACKEND_AUTO picks: the same
 * batch as gale_batch_add one task at a time (every result field, the CIGARs, the
 * count), for WFA and X-drop, inline and registered sequences, enough tasks for the
 * checks and copies to be split over several threads; all or none on a failure, which
 * names the first task at fault as n single calls would (a bad byte before a failed
 * check wins, a failed check before a bad byte wins), whichever thread's part it lies
 * in; sizes, NULLs, state. Random cases from a printed seed (GALE_TEST_SEED). */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "testgale.h"

/* n random pairs (and X-drop seeds), some of the h sides windows of one registered
 * sequence when reg is not NULL (it is then the batch's sequence 1). */
typedef struct {
    size_t n;
    gale_task *t;
    tu_pair *p;
} cases;

static void cases_make(cases *c, tu_rng *rng, size_t n, int seeded, const char *reg, int64_t reg_len) {
    size_t i;
    c->n = n;
    c->t = calloc(n ? n : 1, sizeof *c->t);
    c->p = calloc(n ? n : 1, sizeof *c->p);
    if (!c->t || !c->p) exit(1);
    for (i = 0; i < n; ++i) {
        int64_t len = tu_logrange(rng, 17, 600);
        tu_pair_make(rng, &c->p[i], len, 17, 0.08, 0);
        tu_task_from_pair(&c->t[i], &c->p[i], i);
        if (!seeded) c->t[i].h_begin = c->t[i].h_end = c->t[i].v_begin = c->t[i].v_end = 0;
        if (reg && tu_chance(rng, 0.3)) { /* a window of the registered sequence instead of inline h */
            int64_t off = tu_range(rng, 0, reg_len - 40), wl = tu_range(rng, 0, reg_len - off);
            c->t[i].h = NULL;
            c->t[i].h_seq = 1;
            c->t[i].h_offset = off;
            c->t[i].h_len = wl;
            if (seeded) { /* the seed must lie inside: put a zero-length one at the start */
                c->t[i].h_begin = c->t[i].h_end = 0;
                c->t[i].v_begin = c->t[i].v_end = 0;
            }
        }
    }
}

static void cases_free(cases *c) {
    size_t i;
    for (i = 0; i < c->n; ++i) tu_pair_free(&c->p[i]);
    free(c->t);
    free(c->p);
}

static gale_batch *new_batch(gale_ctx *ctx, int kind, const char *reg, int64_t reg_len) {
    gale_batch *b = NULL;
    uint32_t id = 0;
    REQUIRE_OK(gale_batch_create(ctx, kind, &b));
    if (reg) {
        REQUIRE_OK(gale_batch_add_sequence(b, reg, reg_len, &id));
        CHECK(id == 1);
    }
    return b;
}

/* The same tasks one by one and in one call: identical batches. */
static void test_same_as_single(gale_ctx *ctx, tu_rng *rng, int kind) {
    const int64_t reg_len = 5000;
    char *reg = tu_random_seq(rng, reg_len);
    cases c;
    gale_batch *one, *bulk;
    size_t i, n_one = 0, n_bulk = 0, diff = 0;
    cases_make(&c, rng, (size_t)tu_scaled(3000, 600), kind == GALE_XDROP, reg, reg_len);
    one = new_batch(ctx, kind, reg, reg_len);
    bulk = new_batch(ctx, kind, reg, reg_len);
    /* a task before the bulk call: the bulk tasks' indices continue from it */
    REQUIRE_OK(gale_batch_add(one, &c.t[0]));
    REQUIRE_OK(gale_batch_add(bulk, &c.t[0]));
    for (i = 1; i < c.n; ++i) REQUIRE_OK(gale_batch_add(one, &c.t[i]));
    CHECK_ST(gale_batch_add_tasks(bulk, c.t + 1, c.n - 1), GALE_OK);
    REQUIRE_OK(gale_batch_count(one, &n_one));
    REQUIRE_OK(gale_batch_count(bulk, &n_bulk));
    CHECK_EQ_I64((int64_t)n_one, (int64_t)c.n);
    CHECK_EQ_I64((int64_t)n_bulk, (int64_t)c.n);
    REQUIRE_OK(gale_submit(one));
    REQUIRE_OK(gale_submit(bulk));
    REQUIRE_OK(gale_wait(one));
    REQUIRE_OK(gale_wait(bulk));
    for (i = 0; i < c.n; ++i) {
        gale_result a, b;
        const uint32_t *ca = NULL, *cb = NULL;
        size_t na = 0, nb = 0;
        char what[64];
        snprintf(what, sizeof what, "kind %d task %zu", kind, i);
        REQUIRE_OK(tu_result_fetch(one, i, &a));
        REQUIRE_OK(tu_result_fetch(bulk, i, &b));
        if (!tu_result_eq(&a, &b, 1, what)) ++diff;
        if (kind != GALE_XDROP) {
            REQUIRE_OK(gale_result_cigar(one, i, &ca, &na));
            REQUIRE_OK(gale_result_cigar(bulk, i, &cb, &nb));
            if (na != nb || (na && memcmp(ca, cb, na * sizeof *ca) != 0)) ++diff;
        }
    }
    CHECK_MSG(diff == 0, "kind %d: %zu of %zu tasks differ between gale_batch_add and gale_batch_add_tasks", kind,
              diff, c.n);
    gale_batch_destroy(one);
    gale_batch_destroy(bulk);
    cases_free(&c);
    free(reg);
}

/* Failures: all or none, and the first task at fault named. */
static void expect_failure(gale_ctx *ctx, cases *c, gale_status want, const char *want_text) {
    gale_batch *b = new_batch(ctx, GALE_WFA, NULL, 0);
    size_t n = 99;
    CHECK_ST(gale_batch_add_tasks(b, c->t, c->n), want);
    CHECK_MSG(strstr(gale_last_error(), want_text) != NULL, "message '%s' lacks '%s'", gale_last_error(), want_text);
    REQUIRE_OK(gale_batch_count(b, &n));
    CHECK_MSG(n == 0, "a failed gale_batch_add_tasks left %zu tasks", n);
    /* the batch is still usable: the first task alone goes in */
    CHECK_ST(gale_batch_add_tasks(b, c->t, 1), GALE_OK);
    REQUIRE_OK(gale_batch_count(b, &n));
    CHECK(n == 1);
    gale_batch_destroy(b);
}

static void test_failures(gale_ctx *ctx, tu_rng *rng) {
    cases c;
    char *bad1, *bad2;
    size_t n = (size_t)tu_scaled(4000, 2000), k1 = n / 2 + 7, k2 = n - 5;
    char text[160];
    gale_batch *b;
    gale_task big[2];
    cases_make(&c, rng, n, 0, NULL, 0);

    /* a bad byte late, in another thread's part than the first */
    bad1 = malloc((size_t)c.t[k2].v_len + 1);
    memcpy(bad1, c.t[k2].v, (size_t)c.t[k2].v_len);
    bad1[c.t[k2].v_len / 2] = '#';
    c.t[k2].v = bad1;
    snprintf(text, sizeof text, "task %zu: invalid byte 0x23 ('#') at position %lld of sequence v", k2,
             (long long)(c.t[k2].v_len / 2));
    expect_failure(ctx, &c, GALE_E_INPUT, text);

    /* a failed check after it: the bad byte (earlier) is still the one named */
    c.t[n - 1].h_len = -3;
    expect_failure(ctx, &c, GALE_E_INPUT, text);

    /* a failed check before it: that check is named */
    c.t[k1].h_offset = 4; /* inline h with an offset */
    snprintf(text, sizeof text, "task %zu: h_offset is 4 but h is inline", k1);
    expect_failure(ctx, &c, GALE_E_INVALID, text);

    /* a bad byte before both */
    bad2 = malloc((size_t)c.t[3].h_len + 1);
    memcpy(bad2, c.t[3].h, (size_t)c.t[3].h_len);
    bad2[0] = 'Z';
    c.t[3].h = bad2;
    expect_failure(ctx, &c, GALE_E_INPUT, "task 3: invalid byte 0x5a ('Z') at position 0 of sequence h");
    c.t[3].h = c.p[3].h;
    c.t[k1].h_offset = 0;
    c.t[n - 1].h_len = c.p[n - 1].h_len;
    c.t[k2].v = c.p[k2].v;

    /* sizes */
    b = new_batch(ctx, GALE_WFA, NULL, 0);
    CHECK_ST(gale_batch_add_tasks(b, NULL, 0), GALE_OK);
    CHECK_ST(gale_batch_add_tasks(b, NULL, 3), GALE_E_INVALID);
    c.t[1].size = sizeof(gale_task) - 8;
    CHECK_ST(gale_batch_add_tasks(b, c.t, 3), GALE_E_INVALID);
    CHECK(strstr(gale_last_error(), "tasks[1].size") != NULL);
    c.t[1].size = sizeof(gale_task);
    c.t[0].size = offsetof(gale_task, h_seq); /* the 0.2 size: not for the bulk call */
    CHECK_ST(gale_batch_add_tasks(b, c.t, 3), GALE_E_INVALID);
    CHECK(strstr(gale_last_error(), "tasks[0].size") != NULL);
    c.t[0].size = sizeof(gale_task);
    /* a newer caller's larger struct: accepted with zero extra bytes, refused otherwise */
    {
        const size_t stride = sizeof(gale_task) + 16;
        char *wide = calloc(2, stride);
        gale_task *w0 = (gale_task *)wide, *w1 = (gale_task *)(wide + stride);
        size_t cnt = 0;
        memcpy(w0, &c.t[0], sizeof(gale_task));
        memcpy(w1, &c.t[1], sizeof(gale_task));
        w0->size = w1->size = stride;
        CHECK_ST(gale_batch_add_tasks(b, w0, 2), GALE_OK);
        REQUIRE_OK(gale_batch_count(b, &cnt));
        CHECK(cnt == 2);
        wide[stride + sizeof(gale_task) + 3] = 1;
        CHECK_ST(gale_batch_add_tasks(b, w0, 2), GALE_E_INVALID);
        CHECK(strstr(gale_last_error(), "tasks[1]: byte") != NULL);
        free(wide);
    }
    /* state: not after submit */
    REQUIRE_OK(gale_submit(b));
    CHECK_ST(gale_batch_add_tasks(b, c.t, 2), GALE_E_STATE);
    CHECK_ST(gale_batch_add_tasks(b, c.t, 0), GALE_E_STATE);
    REQUIRE_OK(gale_wait(b));
    gale_batch_destroy(b);
    CHECK_ST(gale_batch_add_tasks(NULL, c.t, 1), GALE_E_HANDLE);
    /* seeds refused by a kind without one, as gale_batch_add refuses them */
    b = new_batch(ctx, GALE_EDIT, NULL, 0);
    big[0] = c.t[0];
    big[1] = c.t[1];
    big[1].h_end = big[1].v_end = 1;
    CHECK_ST(gale_batch_add_tasks(b, big, 2), GALE_E_INPUT);
    CHECK(strstr(gale_last_error(), "task 1: a edit task has no seed") != NULL);
    gale_batch_destroy(b);
    free(bad1);
    free(bad2);
    cases_free(&c);
}

int main(void) {
    tu_rng rng;
    gale_ctx *ctx = NULL;
    tu_rng_init(&rng, tu_seed("add_tasks"));
    /* several threads even on a small machine, so that the parts are split */
    REQUIRE_OK(tu_ctx_new(&ctx, GALE_BACKEND_AUTO, 4));
    test_same_as_single(ctx, &rng, GALE_WFA);
    test_same_as_single(ctx, &rng, GALE_XDROP);
    test_failures(ctx, &rng);
    gale_ctx_destroy(ctx);
    return tu_finish("add_tasks");
}
