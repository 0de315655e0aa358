/*
 * zdrop_junc.c - exts2's junction array (gale_task.junc) and GALE_P_JUNC_BONUS (since
 * 0.7) through the public API: the parameter's bounds, the checks of an array (its kind,
 * its bytes: refused naming the task and the position, nothing added), that gale copies
 * it, that gale_task structs of 0.2 and of 0.3-0.6 (without junc) still pass, alone and
 * in bulk (the bulk call reading nothing past their size: ASan sees it), and one spliced
 * pair whose intron only the marks make worth taking. The values against ksw2 are the
 * oracle's (tests/oracle/zdrop_ksw2.cpp).
 *
 * Suite 'unit'; the backend AUTO picks (CPU here); fixed input.
 */
#include "testutil.h" /* first: it sets _POSIX_C_SOURCE */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

#define EXON1 30
#define INTRON 100
#define EXON2 40

static char query[EXON1 + EXON2 + 1], target[EXON1 + INTRON + EXON2 + 1];
static uint8_t marks[EXON1 + INTRON + EXON2];   /* the intron's ends marked (forward strand) */
static uint8_t zeros[EXON1 + INTRON + EXON2];   /* no junction */

/* A pair whose intron is non-canonical (C...C: neither GT/CT nor AG/AC at its ends):
 * with minimap2's splice scoring (a 1, b 2, q 2, e 1, q2 32, noncan 9) the second exon's
 * 40 matches do not pay for it (40 < 32 + 2 * 9), so the best cell ends the first exon;
 * a bonus of 20 at each marked end makes the spliced alignment the best. */
static void make_pair(void)
{
    uint32_t x = 12345u;
    int i;
    for (i = 0; i < EXON1 + EXON2; ++i) {
        x = x * 1103515245u + 12345u;
        query[i] = "ACGT"[(x >> 16) & 3];
    }
    memcpy(target, query, EXON1);
    for (i = 0; i < INTRON; ++i) {
        x = x * 1103515245u + 12345u;
        target[EXON1 + i] = (i == 0 || i == INTRON - 1) ? 'C' : "ACT"[(x >> 16) % 3];
    }
    memcpy(target + EXON1 + INTRON, query + EXON1, EXON2);
    marks[EXON1] = GALE_ZD_JUNC_FOR_DONOR;
    marks[EXON1 + INTRON - 1] = GALE_ZD_JUNC_FOR_ACCEPTOR;
}

static gale_batch *new_exts2(gale_ctx *ctx, int64_t bonus)
{
    gale_batch *b = NULL;
    REQUIRE_OK(gale_batch_create(ctx, GALE_ZDROP_EXTS2, &b));
    REQUIRE_OK(gale_batch_set(b, GALE_P_ZDROP_FLAGS, GALE_ZD_SPLICE_FOR));
    REQUIRE_OK(gale_batch_set(b, GALE_P_JUNC_BONUS, bonus));
    return b;
}

static void task_of(gale_task *t, const uint8_t *junc)
{
    gale_task_init(t);
    t->h = target;
    t->h_len = (int64_t)strlen(target);
    t->v = query;
    t->v_len = (int64_t)strlen(query);
    t->junc = junc;
}

static size_t count_of(gale_batch *b)
{
    size_t n = 0;
    REQUIRE_OK(gale_batch_count(b, &n));
    return n;
}

static gale_zdrop_result zres(gale_batch *b, size_t i)
{
    gale_zdrop_result z;
    memset(&z, 0, sizeof z);
    z.size = sizeof z;
    REQUIRE_OK(gale_result_zdrop(b, i, &z));
    return z;
}

/* Two results the same in every field and CIGAR op (user aside). */
static int same_result(gale_batch *b, size_t i, gale_batch *b2, size_t j)
{
    gale_zdrop_result x = zres(b, i), y = zres(b2, j);
    const uint32_t *cx = NULL, *cy = NULL;
    size_t nx = 0, ny = 0;
    REQUIRE_OK(gale_result_cigar(b, i, &cx, &nx));
    REQUIRE_OK(gale_result_cigar(b2, j, &cy, &ny));
    x.user = y.user = 0;
    return memcmp(&x, &y, sizeof x) == 0 && nx == ny && (nx == 0 || memcmp(cx, cy, nx * 4) == 0);
}

/* The longest N op of result i, 0 if none. */
static uint32_t longest_n(gale_batch *b, size_t i)
{
    const uint32_t *c = NULL;
    size_t n = 0, k;
    uint32_t best = 0;
    REQUIRE_OK(gale_result_cigar(b, i, &c, &n));
    for (k = 0; k < n; ++k)
        if (GALE_CIGAR_OP(c[k]) == GALE_CIGAR_REF_SKIP && GALE_CIGAR_LEN(c[k]) > best) best = GALE_CIGAR_LEN(c[k]);
    return best;
}

static void test_param(void)
{
    gale_bounds bd;
    int ids[64];
    size_t n = 0, i;
    int found = 0;
    memset(&bd, 0, sizeof bd);
    bd.size = sizeof bd;
    REQUIRE_OK(gale_param_bounds(GALE_ZDROP_EXTS2, GALE_P_JUNC_BONUS, &bd));
    CHECK_EQ_I64(bd.lower, -128);
    CHECK_EQ_I64(bd.upper, 127);
    CHECK_EQ_I64(bd.default_value, 9);
    CHECK(bd.name && strcmp(bd.name, "junc_bonus") == 0);
    CHECK_ST(gale_param_bounds(GALE_ZDROP_EXTZ2, GALE_P_JUNC_BONUS, &bd), GALE_E_RANGE);
    CHECK_ST(gale_param_bounds(GALE_ZDROP_EXTD2, GALE_P_JUNC_BONUS, &bd), GALE_E_RANGE);
    REQUIRE_OK(gale_kind_params(GALE_ZDROP_EXTS2, ids, 64, &n));
    REQUIRE(n <= 64);
    for (i = 0; i < n; ++i) {
        found += ids[i] == GALE_P_JUNC_BONUS;
        if (i) CHECK_MSG(ids[i - 1] < ids[i], "gale_kind_params(exts2): ids %d, %d not in order", ids[i - 1], ids[i]);
    }
    CHECK(found == 1);
}

static void test_checks(gale_ctx *ctx)
{
    gale_batch *b = NULL;
    gale_task t[2];
    uint8_t bad[EXON1 + INTRON + EXON2];
    int kinds[2] = {GALE_ZDROP_EXTZ2, GALE_ZDROP_EXTD2};
    int k;
    int64_t v = 0;

    /* the bounds of junc_bonus, set and read back */
    b = new_exts2(ctx, 127);
    REQUIRE_OK(gale_batch_get(b, GALE_P_JUNC_BONUS, &v));
    CHECK_EQ_I64(v, 127);
    CHECK_ST(gale_batch_set(b, GALE_P_JUNC_BONUS, 128), GALE_E_RANGE);
    CHECK(strstr(gale_last_error(), "junc_bonus") != NULL);
    CHECK_ST(gale_batch_set(b, GALE_P_JUNC_BONUS, -129), GALE_E_RANGE);
    REQUIRE_OK(gale_batch_set(b, GALE_P_JUNC_BONUS, -128));

    /* a byte with a bit ksw2 does not have: task and position named, nothing added */
    memcpy(bad, marks, sizeof bad);
    bad[77] = 0x10;
    task_of(&t[0], marks);
    REQUIRE_OK(gale_batch_add(b, &t[0]));
    task_of(&t[1], bad);
    CHECK_ST(gale_batch_add(b, &t[1]), GALE_E_INPUT);
    CHECK(strstr(gale_last_error(), "task 1") != NULL);
    CHECK(strstr(gale_last_error(), "junc[77]") != NULL);
    CHECK(strstr(gale_last_error(), "0x10") != NULL);
    CHECK_EQ_I64((int64_t)count_of(b), 1);
    /* in bulk: the first task at fault, by its index in the batch; all or none */
    task_of(&t[0], zeros);
    bad[77] = 0;
    bad[3] = 0xff;
    CHECK_ST(gale_batch_add_tasks(b, t, 2), GALE_E_INPUT);
    CHECK(strstr(gale_last_error(), "task 2") != NULL);
    CHECK(strstr(gale_last_error(), "junc[3]") != NULL);
    CHECK_EQ_I64((int64_t)count_of(b), 1);
    bad[3] = 0x0f; /* every bit ksw2 has: accepted */
    CHECK_ST(gale_batch_add_tasks(b, t, 2), GALE_OK);
    CHECK_EQ_I64((int64_t)count_of(b), 3);
    gale_batch_destroy(b);

    /* kinds without junctions refuse an array, naming the task */
    for (k = 0; k < 2; ++k) {
        REQUIRE_OK(gale_batch_create(ctx, kinds[k], &b));
        task_of(&t[0], NULL);
        REQUIRE_OK(gale_batch_add(b, &t[0]));
        task_of(&t[0], zeros);
        CHECK_ST(gale_batch_add(b, &t[0]), GALE_E_UNSUPPORTED);
        CHECK(strstr(gale_last_error(), "task 1") != NULL);
        CHECK(strstr(gale_last_error(), "junc") != NULL);
        task_of(&t[1], zeros);
        task_of(&t[0], NULL);
        CHECK_ST(gale_batch_add_tasks(b, t, 2), GALE_E_UNSUPPORTED);
        CHECK(strstr(gale_last_error(), "task 2") != NULL);
        CHECK_EQ_I64((int64_t)count_of(b), 1);
        CHECK_ST(gale_batch_set(b, GALE_P_JUNC_BONUS, 9), GALE_E_RANGE);
        gale_batch_destroy(b);
    }
    REQUIRE_OK(gale_batch_create(ctx, GALE_XDROP, &b));
    task_of(&t[0], zeros);
    CHECK_ST(gale_batch_add(b, &t[0]), GALE_E_UNSUPPORTED);
    gale_batch_destroy(b);
}

/* The marks make the intron worth taking; they are copied at gale_batch_add; a struct
 * without junc (0.2, 0.3-0.6 sizes), alone or in bulk, is a task without junctions. */
static void test_results(gale_ctx *ctx)
{
    gale_batch *b = new_exts2(ctx, 20), *b2 = NULL;
    gale_task t, *old;
    uint8_t mine[EXON1 + INTRON + EXON2];
    const size_t old_size = offsetof(gale_task, junc), v02 = offsetof(gale_task, h_seq);
    unsigned char *packed;
    gale_zdrop_result with, without;
    size_t i;

    task_of(&t, NULL);
    REQUIRE_OK(gale_batch_add(b, &t)); /* 0: no array */
    task_of(&t, zeros);
    REQUIRE_OK(gale_batch_add(b, &t)); /* 1: an array without marks */
    memcpy(mine, marks, sizeof mine);
    task_of(&t, mine);
    REQUIRE_OK(gale_batch_add(b, &t)); /* 2: the marks, then the caller's buffer cleared */
    memset(mine, 0, sizeof mine);
    /* 3: the 0.3-0.6 struct: the bytes where junc would be are garbage, not read */
    old = (gale_task *)calloc(1, sizeof(gale_task));
    REQUIRE(old != NULL);
    task_of(old, NULL);
    memset((unsigned char *)old + old_size, 0xa5, sizeof(gale_task) - old_size);
    old->size = old_size;
    REQUIRE_OK(gale_batch_add(b, old));
    /* 4: the 0.2 struct, likewise */
    old->size = v02;
    old->h_seq = 0x5a5a5a5au; /* past its size: not read either */
    REQUIRE_OK(gale_batch_add(b, old));
    /* 5, 6: the bulk call with the 0.3-0.6 stride, packed in a block of exactly their size */
    packed = (unsigned char *)malloc(2 * old_size);
    REQUIRE(packed != NULL);
    task_of(&t, NULL);
    t.size = old_size;
    memcpy(packed, &t, old_size);
    memcpy(packed + old_size, &t, old_size);
    REQUIRE_OK(gale_batch_add_tasks(b, (const gale_task *)(void *)packed, 2));
    /* 7, 8: the bulk call with junc, the marks (copied) and none */
    {
        gale_task two[2];
        memcpy(mine, marks, sizeof mine);
        task_of(&two[0], mine);
        task_of(&two[1], NULL);
        REQUIRE_OK(gale_batch_add_tasks(b, two, 2));
        memset(mine, 0xff, sizeof mine); /* what gale copied was the marks */
    }
    /* a size between the releases' is refused, naming the ones accepted */
    old->size = old_size - 8;
    CHECK_ST(gale_batch_add(b, old), GALE_E_INVALID);
    CHECK(strstr(gale_last_error(), "0.3 to 0.6") != NULL);
    CHECK_EQ_I64((int64_t)count_of(b), 9);
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));

    with = zres(b, 2);
    without = zres(b, 0);
    CHECK_MSG(with.max > without.max, "the marked intron should raise max: %d with, %d without", with.max, without.max);
    CHECK_MSG(longest_n(b, 2) == INTRON, "marked: longest N %u, want the intron's %d", longest_n(b, 2), INTRON);
    /* unmarked, the best cell lies before the second exon (the global CIGAR may still
     * take the intron: without GALE_ZD_EXTZ_ONLY it runs to both ends) */
    CHECK_MSG(without.max_t < EXON1 + INTRON, "unmarked: max %d at t %d, past the intron", without.max,
              without.max_t);
    /* by hand, ksw2's splice scoring: matches 1 each, the intron q2 = 32, each
     * non-canonical end -noncan = -9, each marked end +20 */
    CHECK_EQ_I64(with.max, EXON1 + EXON2 - 32 - 2 * 9 + 2 * 20);
    CHECK_EQ_I64(with.score, EXON1 + EXON2 - 32 - 2 * 9 + 2 * 20);
    CHECK_EQ_I64(without.max, EXON1);
    CHECK_EQ_I64(without.score, EXON1 + EXON2 - 32 - 2 * 9);
    /* the whole query aligned: both exons' matches, the intron's q2, the marks' bonus */
    CHECK_MSG(with.max_q == EXON1 + EXON2 - 1, "marked: max_q %d", with.max_q);
    CHECK_MSG(with.max_t == EXON1 + INTRON + EXON2 - 1, "marked: max_t %d", with.max_t);
    CHECK(same_result(b, 1, b, 0)); /* zeros = NULL */
    for (i = 3; i <= 6; ++i) CHECK_MSG(same_result(b, i, b, 0), "task %zu (a struct without junc) differs from NULL", i);
    CHECK(same_result(b, 7, b, 2));
    CHECK(same_result(b, 8, b, 0));

    /* junc_bonus 0 (or no splice flag for the marks' strand): the marks change nothing */
    b2 = new_exts2(ctx, 0);
    task_of(&t, marks);
    REQUIRE_OK(gale_batch_add(b2, &t));
    task_of(&t, NULL);
    REQUIRE_OK(gale_batch_add(b2, &t));
    REQUIRE_OK(gale_submit(b2));
    REQUIRE_OK(gale_wait(b2));
    CHECK(same_result(b2, 0, b2, 1));
    CHECK(same_result(b2, 1, b, 0));
    gale_batch_destroy(b2);
    b2 = new_exts2(ctx, 20);
    REQUIRE_OK(gale_batch_set(b2, GALE_P_ZDROP_FLAGS, GALE_ZD_SPLICE_REV));
    task_of(&t, marks);
    REQUIRE_OK(gale_batch_add(b2, &t));
    task_of(&t, NULL);
    REQUIRE_OK(gale_batch_add(b2, &t));
    REQUIRE_OK(gale_submit(b2));
    REQUIRE_OK(gale_wait(b2));
    CHECK(same_result(b2, 0, b2, 1));
    gale_batch_destroy(b2);

    free(packed);
    free(old);
    gale_batch_destroy(b);
}

int main(void)
{
    gale_ctx *ctx = NULL;
    make_pair();
    REQUIRE_OK(tu_ctx_new(&ctx, GALE_BACKEND_AUTO, 2));
    test_param();
    test_checks(ctx);
    test_results(ctx);
    gale_ctx_destroy(ctx);
    return tu_finish("zdrop_junc");
}
