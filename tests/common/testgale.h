/*
 * testgale.h - gale-facing helpers shared by the C and C++ tests and the
 * benchmarks, with no check macros of their own (the C++ oracles keep theirs):
 * tasks from sequences and generated pairs, reading a result (and its CIGAR),
 * comparing two results. The random cases themselves: testgen.h.
 *
 * Header-only (static functions), C99; usable from C++.
 */
#ifndef GALE_TESTGALE_H
#define GALE_TESTGALE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gale.h"
#include "testgen.h"

/* A context of that backend and thread count (0: one per core), other options
 * at their defaults: gale_ctx_create's status. */
static TU_UNUSED gale_status tu_ctx_new(gale_ctx **ctx, int backend, int threads)
{
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.threads = threads;
    *ctx = NULL;
    return gale_ctx_create(ctx, &o);
}

/* A task over text h[0..hl) and pattern v[0..vl), all else as gale_task_init leaves it. */
static TU_UNUSED void tu_task_seqs(gale_task *t, const char *h, int64_t hl, const char *v, int64_t vl)
{
    gale_task_init(t);
    t->h = h;
    t->h_len = hl;
    t->v = v;
    t->v_len = vl;
}

/* Reads result i of a finished batch into *res (zeroed, size set first). */
static TU_UNUSED gale_status tu_result_fetch(gale_batch *b, size_t i, gale_result *res)
{
    memset(res, 0, sizeof *res);
    res->size = sizeof *res;
    return gale_result_get(b, i, res);
}

/* tu_result_fetch, then the result's CIGAR (*cigar, *n_ops). */
static TU_UNUSED gale_status tu_result_fetch_cigar(gale_batch *b, size_t i, gale_result *res, const uint32_t **cigar,
                                                   size_t *n_ops)
{
    gale_status st = tu_result_fetch(b, i, res);
    *cigar = NULL;
    *n_ops = 0;
    if (st != GALE_OK) return st;
    return gale_result_cigar(b, i, cigar, n_ops);
}

/* Fills a gale_task pointing at the pair's buffers. */
static TU_UNUSED void tu_task_from_pair(gale_task *t, const tu_pair *p, uint64_t user)
{
    tu_task_seqs(t, p->h, p->h_len, p->v, p->v_len);
    t->h_begin = p->h_begin;
    t->h_end = p->h_end;
    t->v_begin = p->v_begin;
    t->v_end = p->v_end;
    t->user = user;
}

/* Compares two results field by field (flags only when with_flags). Returns 1
 * if equal; otherwise prints the difference under `what` and returns 0. */
static TU_UNUSED int tu_result_eq(const gale_result *a, const gale_result *b, int with_flags, const char *what)
{
    int eq = a->score_left == b->score_left && a->score_right == b->score_right && a->score == b->score &&
             a->h_begin == b->h_begin && a->h_end == b->h_end && a->v_begin == b->v_begin &&
             a->v_end == b->v_end && a->cells == b->cells && a->user == b->user &&
             (!with_flags || a->flags == b->flags);
    if (!eq) {
        fprintf(stderr,
                "%s: results differ\n"
                "  A: left %d right %d score %lld h [%lld,%lld) v [%lld,%lld) cells %llu user %llu flags %u\n"
                "  B: left %d right %d score %lld h [%lld,%lld) v [%lld,%lld) cells %llu user %llu flags %u\n",
                what, a->score_left, a->score_right, (long long)a->score, (long long)a->h_begin,
                (long long)a->h_end, (long long)a->v_begin, (long long)a->v_end,
                (unsigned long long)a->cells, (unsigned long long)a->user, a->flags, b->score_left,
                b->score_right, (long long)b->score, (long long)b->h_begin, (long long)b->h_end,
                (long long)b->v_begin, (long long)b->v_end, (unsigned long long)b->cells,
                (unsigned long long)b->user, b->flags);
    }
    return eq;
}

#endif /* GALE_TESTGALE_H */
