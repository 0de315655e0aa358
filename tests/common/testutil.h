/*
 * testutil.h - small self-contained helpers for gale's C tests (unit, gpu):
 * check macros that count failures, batch settings, tasks from generated pairs
 * and result comparison. The random cases (seed, GALE_TEST_SCALE, sequences,
 * mutated pairs) come from testgen.h, included here.
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
#include "testgale.h"

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

/* The X-drop settings of a batch of kind GALE_XDROP, each REQUIRE_OK. */
static TU_UNUSED void tu_xdrop_settings(gale_batch *b, int64_t match, int64_t mismatch, int64_t gap, int64_t x,
                                        int64_t dir, int64_t npol)
{
    REQUIRE_OK(gale_batch_set(b, GALE_P_MATCH, match));
    REQUIRE_OK(gale_batch_set(b, GALE_P_MISMATCH, mismatch));
    REQUIRE_OK(gale_batch_set(b, GALE_P_GAP, gap));
    REQUIRE_OK(gale_batch_set(b, GALE_P_XDROP, x));
    REQUIRE_OK(gale_batch_set(b, GALE_P_DIRECTION, dir));
    REQUIRE_OK(gale_batch_set(b, GALE_P_N_POLICY, npol));
}

#define REQUIRE(cond)                                                        \
    do {                                                                     \
        tu_count_check();                                                    \
        if (!(cond)) {                                                       \
            tu_fail_at(__FILE__, __LINE__, "REQUIRE(%s)", #cond);            \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

/* The context a gpu-suite test runs on the GPU: a CUDA context, or with
 * GALE_GPU_TEST_FAKE=1 a CPU context of fake_threads threads standing in (a self-check of
 * the harness without a GPU; *fake set). Returns 0, or 77 (meson: SKIP, said on stdout)
 * when there is no usable CUDA device. */
static TU_UNUSED int tu_gpu_context(const char *name, int fake_threads, gale_ctx **ctx, int *fake)
{
    gale_ctx_opts o;
    *fake = getenv("GALE_GPU_TEST_FAKE") && atoi(getenv("GALE_GPU_TEST_FAKE")) == 1;
    if (!*fake && gale_cuda_device_count() == 0) {
        printf("%s: no CUDA device: SKIP\n", name);
        return 77;
    }
    gale_ctx_opts_init(&o);
    o.backend = *fake ? GALE_BACKEND_CPU : GALE_BACKEND_CUDA;
    if (*fake) o.threads = fake_threads;
    if (gale_ctx_create(ctx, &o) != GALE_OK) {
        printf("%s: no usable CUDA device (%s): SKIP\n", name, gale_last_error());
        return 77;
    }
    return 0;
}

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

#endif /* GALE_TESTUTIL_H */
