/*
 * testutil.h - small self-contained helpers for gale's C tests (unit, gpu):
 * a seeded random generator (seed printed, settable with GALE_TEST_SEED),
 * GALE_TEST_SCALE, check macros that count failures, and generation of random
 * X-drop pairs (a common ancestor mutated twice around an exact seed).
 *
 * Header-only (static functions); C99 plus POSIX. Include it after defining
 * _POSIX_C_SOURCE if the includer needs more of POSIX than clock_gettime.
 */
#ifndef GALE_TESTUTIL_H
#define GALE_TESTUTIL_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gale.h"

#if defined(__GNUC__)
#define TU_UNUSED __attribute__((unused))
#else
#define TU_UNUSED
#endif

/* ------------------------------------------------------------------ */
/* Failure counting                                                     */
/* ------------------------------------------------------------------ */

/* Multi-threaded tests define TU_LOCK()/TU_UNLOCK() (a mutex) before including
 * this header, so that the counters and messages stay consistent. */
#ifndef TU_LOCK
#define TU_LOCK() ((void)0)
#define TU_UNLOCK() ((void)0)
#endif

static int tu_failures = 0;
static long tu_checks = 0;

static TU_UNUSED void tu_fail_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    TU_LOCK();
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    ++tu_failures;
    TU_UNLOCK();
}

static TU_UNUSED void tu_count_check(void)
{
    TU_LOCK();
    ++tu_checks;
    TU_UNLOCK();
}

/* CHECK(cond): records a failure and goes on. */
#define CHECK(cond)                                                          \
    do {                                                                     \
        tu_count_check();                                                    \
        if (!(cond)) tu_fail_at(__FILE__, __LINE__, "CHECK(%s)", #cond);     \
    } while (0)

#define CHECK_MSG(cond, ...)                                                 \
    do {                                                                     \
        tu_count_check();                                                    \
        if (!(cond)) tu_fail_at(__FILE__, __LINE__, __VA_ARGS__);            \
    } while (0)

/* CHECK_EQ_I64(a, b): integers compared as int64. */
#define CHECK_EQ_I64(a, b)                                                   \
    do {                                                                     \
        long long tu_a_ = (long long)(a), tu_b_ = (long long)(b);            \
        tu_count_check();                                                    \
        if (tu_a_ != tu_b_)                                                  \
            tu_fail_at(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, \
                       tu_a_, tu_b_);                                        \
    } while (0)

/* CHECK_ST(call, expected): the call returns exactly that status. */
#define CHECK_ST(call, expected)                                             \
    do {                                                                     \
        gale_status tu_got_ = (call);                                        \
        gale_status tu_exp_ = (expected);                                    \
        tu_count_check();                                                    \
        if (tu_got_ != tu_exp_)                                              \
            tu_fail_at(__FILE__, __LINE__, "%s: got %d (%s), expected %d (%s); last error: %s", \
                       #call, tu_got_, gale_status_string(tu_got_), tu_exp_, \
                       gale_status_string(tu_exp_), gale_last_error());      \
    } while (0)

/* CHECK_ST2(call, e1, e2): the call returns e1 or e2 (where gale.h does not pin one). */
#define CHECK_ST2(call, e1, e2)                                              \
    do {                                                                     \
        gale_status tu_got_ = (call);                                        \
        tu_count_check();                                                    \
        if (tu_got_ != (e1) && tu_got_ != (e2))                              \
            tu_fail_at(__FILE__, __LINE__, "%s: got %d (%s), expected %s or %s; last error: %s", \
                       #call, tu_got_, gale_status_string(tu_got_), #e1, #e2, \
                       gale_last_error());                                   \
    } while (0)

/* CHECK_FAILS(call): any status but GALE_OK (gale.h pins no code). */
#define CHECK_FAILS(call)                                                    \
    do {                                                                     \
        gale_status tu_got_ = (call);                                        \
        tu_count_check();                                                    \
        if (tu_got_ == GALE_OK)                                              \
            tu_fail_at(__FILE__, __LINE__, "%s: succeeded, expected a failure", #call); \
    } while (0)

/* REQUIRE_OK(call): GALE_OK or the test stops here (the rest depends on it). */
#define REQUIRE_OK(call)                                                     \
    do {                                                                     \
        gale_status tu_got_ = (call);                                        \
        tu_count_check();                                                    \
        if (tu_got_ != GALE_OK) {                                            \
            tu_fail_at(__FILE__, __LINE__, "%s: got %d (%s): %s", #call,     \
                       tu_got_, gale_status_string(tu_got_), gale_last_error()); \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

/* The wavefront settings of a batch of kind GALE_WFA or GALE_EDIT (penalties for
 * GALE_WFA only: x, o, e, o2, e2), its scope, N policy and the four begin/end-free
 * lengths (pattern begin, pattern end, text begin, text end), each REQUIRE_OK. */
static TU_UNUSED void tu_wfa_settings(gale_batch *b, int kind, int64_t x, int64_t o, int64_t e, int64_t o2,
                                      int64_t e2, int64_t scope, int64_t npol, int64_t pb, int64_t pe, int64_t tb,
                                      int64_t te)
{
    if (kind == GALE_WFA) {
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, x));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN, o));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, e));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN2, o2));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND2, e2));
    }
    REQUIRE_OK(gale_batch_set(b, GALE_P_SCOPE, scope));
    REQUIRE_OK(gale_batch_set(b, GALE_P_N_POLICY, npol));
    REQUIRE_OK(gale_batch_set(b, GALE_P_PATTERN_BEGIN_FREE, pb));
    REQUIRE_OK(gale_batch_set(b, GALE_P_PATTERN_END_FREE, pe));
    REQUIRE_OK(gale_batch_set(b, GALE_P_TEXT_BEGIN_FREE, tb));
    REQUIRE_OK(gale_batch_set(b, GALE_P_TEXT_END_FREE, te));
}

#define REQUIRE(cond)                                                        \
    do {                                                                     \
        tu_count_check();                                                    \
        if (!(cond)) {                                                       \
            tu_fail_at(__FILE__, __LINE__, "REQUIRE(%s)", #cond);            \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

/* Prints the summary; returns the process exit code (0 pass, 1 fail). */
static TU_UNUSED int tu_finish(const char *name)
{
    if (tu_failures) {
        fprintf(stderr, "%s: %d of %ld checks FAILED\n", name, tu_failures, tu_checks);
        return 1;
    }
    printf("%s: all %ld checks passed\n", name, tu_checks);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Environment                                                          */
/* ------------------------------------------------------------------ */

/* GALE_TEST_SCALE: float, default 1.0 (ASan builds set it lower). */
static TU_UNUSED double tu_scale(void)
{
    const char *s = getenv("GALE_TEST_SCALE");
    double v;
    if (!s || !*s) return 1.0;
    v = strtod(s, NULL);
    if (!(v > 0.0)) return 1.0;
    return v;
}

/* n scaled by GALE_TEST_SCALE, at least lo. */
static TU_UNUSED long tu_scaled(long n, long lo)
{
    double v = (double)n * tu_scale();
    long r = (long)(v + 0.5);
    return r < lo ? lo : r;
}

static TU_UNUSED double tu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Random numbers (splitmix64 seeding a xoshiro256**)                   */
/* ------------------------------------------------------------------ */

typedef struct tu_rng {
    uint64_t s[4];
} tu_rng;

static TU_UNUSED uint64_t tu_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static TU_UNUSED void tu_rng_init(tu_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    int i;
    for (i = 0; i < 4; ++i) r->s[i] = tu_splitmix(&x);
}

static TU_UNUSED uint64_t tu_next(tu_rng *r)
{
    uint64_t *s = r->s;
    uint64_t t = s[1] << 17;
    uint64_t res = s[1] * 5;
    res = ((res << 7) | (res >> 57)) * 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return res;
}

/* Uniform in [lo, hi] (inclusive). */
static TU_UNUSED int64_t tu_range(tu_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span;
    if (hi <= lo) return lo;
    span = (uint64_t)(hi - lo) + 1u;
    return lo + (int64_t)(tu_next(r) % span);
}

/* Uniform in [0, 1). */
static TU_UNUSED double tu_unif(tu_rng *r)
{
    return (double)(tu_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Roughly log-uniform integer in [lo, hi] (lo >= 1): a bucket [lo*4^i, lo*4^(i+1))
 * is chosen uniformly, then a value uniformly inside it, so short and long
 * lengths are both common. */
static TU_UNUSED int64_t tu_logrange(tu_rng *r, int64_t lo, int64_t hi)
{
    int64_t blo = lo, bhi, v;
    int buckets = 0, k, i;
    if (lo < 1) lo = blo = 1;
    if (hi <= lo) return lo;
    for (bhi = lo; bhi <= hi; bhi *= 4) ++buckets;
    k = (int)tu_range(r, 0, buckets - 1);
    for (i = 0; i < k; ++i) blo *= 4;
    bhi = blo * 4 - 1;
    if (bhi > hi) bhi = hi;
    v = tu_range(r, blo, bhi);
    return v;
}

/* The run's seed: GALE_TEST_SEED if set, else from the clock; printed. */
static TU_UNUSED uint64_t tu_seed(const char *test_name)
{
    const char *s = getenv("GALE_TEST_SEED");
    uint64_t seed;
    if (s && *s) {
        seed = (uint64_t)strtoull(s, NULL, 0);
    } else {
        struct timespec ts;
        uint64_t x;
        clock_gettime(CLOCK_REALTIME, &ts);
        x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
        seed = tu_splitmix(&x) & 0xffffffffffffull;
    }
    printf("%s: random seed %llu (reproduce with GALE_TEST_SEED=%llu)\n", test_name,
           (unsigned long long)seed, (unsigned long long)seed);
    fflush(stdout);
    return seed;
}

/* ------------------------------------------------------------------ */
/* Random sequences and X-drop pairs                                    */
/* ------------------------------------------------------------------ */

static const char tu_acgt[4] = {'A', 'C', 'G', 'T'};

static TU_UNUSED char tu_base(tu_rng *r) { return tu_acgt[tu_next(r) & 3]; }

/* A growable byte buffer. */
typedef struct tu_buf {
    char *p;
    int64_t n, cap;
} tu_buf;

static TU_UNUSED void tu_buf_push(tu_buf *b, char c)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->p = (char *)realloc(b->p, (size_t)b->cap);
        if (!b->p) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    b->p[b->n++] = c;
}

/* Appends a mutated copy of anc[0..n): each base is, with probability rate,
 * substituted (1/2), deleted (1/4) or followed by an inserted base (1/4). */
static TU_UNUSED void tu_mutate_into(tu_rng *r, tu_buf *out, const char *anc, int64_t n, double rate)
{
    int64_t i;
    for (i = 0; i < n; ++i) {
        if (rate > 0.0 && tu_unif(r) < rate) {
            uint64_t kind = tu_next(r) & 3;
            if (kind <= 1) {
                char c;
                do c = tu_base(r); while (c == anc[i]);
                tu_buf_push(out, c);
            } else if (kind == 2) {
                /* deletion */
            } else {
                tu_buf_push(out, anc[i]);
                tu_buf_push(out, tu_base(r));
            }
        } else {
            tu_buf_push(out, anc[i]);
        }
    }
}

/* Options of tu_pair_make. */
#define TU_LOWER  1 /* lowercase stretches */
#define TU_NRUNS  2 /* runs of N (and single IUPAC codes, U) */

typedef struct tu_pair {
    char *h, *v;
    int64_t h_len, v_len;
    int64_t h_begin, h_end, v_begin, v_end;
} tu_pair;

static TU_UNUSED void tu_pair_free(tu_pair *p)
{
    free(p->h);
    free(p->v);
    memset(p, 0, sizeof *p);
}

/* Sprinkles case changes and N/IUPAC runs over s[0..n) (not over the seed
 * [sb, se), so that the seed stays exact; gale does not need that, but it keeps
 * the pairs realistic). */
static TU_UNUSED void tu_decorate(tu_rng *r, char *s, int64_t n, int64_t sb, int64_t se, int opts)
{
    static const char iupac[] = "NRYSWKMBDHVU";
    int64_t i, runs;
    if ((opts & TU_LOWER) && n > 0) {
        runs = tu_range(r, 1, 4);
        while (runs--) {
            int64_t a = tu_range(r, 0, n - 1), len = tu_range(r, 1, n);
            for (i = a; i < n && i < a + len; ++i)
                if (s[i] >= 'A' && s[i] <= 'Z') s[i] = (char)(s[i] - 'A' + 'a');
        }
    }
    if ((opts & TU_NRUNS) && n > 0) {
        runs = tu_range(r, 1, 3);
        while (runs--) {
            int64_t a = tu_range(r, 0, n - 1), len = tu_range(r, 1, 50);
            for (i = a; i < n && i < a + len; ++i)
                if (i < sb || i >= se) s[i] = 'N';
        }
        runs = tu_range(r, 0, 5);
        while (runs--) {
            int64_t a = tu_range(r, 0, n - 1);
            if (a < sb || a >= se) {
                char c = iupac[tu_range(r, 0, (int64_t)sizeof iupac - 2)];
                if (tu_next(r) & 1) c = (char)(c - 'A' + 'a');
                s[a] = c;
            }
        }
    }
}

/* Makes a pair: an ancestor of about `len` bases (left flank, seed of k bases,
 * right flank at a random split), each flank mutated independently for h and v
 * at `rate`; the seed is copied exactly. k >= 1, len >= k. */
static TU_UNUSED void tu_pair_make(tu_rng *r, tu_pair *p, int64_t len, int64_t k, double rate, int opts)
{
    int64_t left = tu_range(r, 0, len - k), right = len - k - left, i;
    char *anc = (char *)malloc((size_t)len + 1);
    tu_buf h = {0, 0, 0}, v = {0, 0, 0};
    if (!anc) exit(1);
    for (i = 0; i < len; ++i) anc[i] = tu_base(r);
    tu_mutate_into(r, &h, anc, left, rate);
    tu_mutate_into(r, &v, anc, left, rate);
    p->h_begin = h.n;
    p->v_begin = v.n;
    for (i = 0; i < k; ++i) {
        tu_buf_push(&h, anc[left + i]);
        tu_buf_push(&v, anc[left + i]);
    }
    p->h_end = h.n;
    p->v_end = v.n;
    tu_mutate_into(r, &h, anc + left + k, right, rate);
    tu_mutate_into(r, &v, anc + left + k, right, rate);
    tu_buf_push(&h, 0); /* room, not part of the sequence */
    tu_buf_push(&v, 0);
    p->h = h.p;
    p->h_len = h.n - 1;
    p->v = v.p;
    p->v_len = v.n - 1;
    free(anc);
    tu_decorate(r, p->h, p->h_len, p->h_begin, p->h_end, opts);
    tu_decorate(r, p->v, p->v_len, p->v_begin, p->v_end, opts);
}

/* Fills a gale_task pointing at the pair's buffers. */
static TU_UNUSED void tu_task_from_pair(gale_task *t, const tu_pair *p, uint64_t user)
{
    gale_task_init(t);
    t->h = p->h;
    t->h_len = p->h_len;
    t->v = p->v;
    t->v_len = p->v_len;
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

#endif /* GALE_TESTUTIL_H */
