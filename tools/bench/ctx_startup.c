/*
 * ctx_startup - what a process pays before its first alignment on a backend: creating
 * a context, its first small batch (one WFA pair: add, submit, wait), a second one, and
 * destroying the context; with the process's peak resident memory after each step.
 *
 *   ctx_startup [--backend auto|cpu|cuda] [--device-memory MIB] [--idle MS] [--device D|D,E,...|all]
 *
 * --idle MS: the caller's own work between creating the context and its first
 * batch (a program reads its input meanwhile), as a sleep; what the context does in
 * the background then (loading its kernels) is not waited for by the first batch.
 *
 * One process measures one start: run it several times (each run is a cold start of
 * the CUDA runtime in a new process). tools/bench/cuda_startup (built with CUDA) times
 * the CUDA runtime's own start-up alone, for comparison.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_devices.h"
#include "gale.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static long peak_rss_mb(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

static void check(gale_status s, const char *what) {
    if (s != GALE_OK) {
        fprintf(stderr, "ctx_startup: %s: %s (%s)\n", what, gale_status_string(s), gale_last_error());
        exit(1);
    }
}

static double one_pair(gale_ctx *ctx) {
    gale_batch *b = NULL;
    gale_task t;
    gale_result r;
    double t0 = now_ms();
    check(gale_batch_create(ctx, GALE_WFA, &b), "gale_batch_create");
    gale_task_init(&t);
    t.v = "GATTACAGATTACAGATTACA";
    t.v_len = (int64_t)strlen(t.v);
    t.h = "GATCACAGATTACAGATTTACA";
    t.h_len = (int64_t)strlen(t.h);
    check(gale_batch_add(b, &t), "gale_batch_add");
    check(gale_submit(b), "gale_submit");
    check(gale_wait(b), "gale_wait");
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    check(gale_result_get(b, 0, &r), "gale_result_get");
    t0 = now_ms() - t0;
    if (r.score != -12) { /* one mismatch (4) and one base of a gap (6 + 2), at the default penalties */
        fprintf(stderr, "ctx_startup: score %lld, expected -12\n", (long long)r.score);
        exit(1);
    }
    check(gale_batch_destroy(b), "gale_batch_destroy");
    return t0;
}

int main(int argc, char **argv) {
    int backend = GALE_BACKEND_AUTO, got = 0, i;
    long long mib = 0, idle_ms = 0;
    gale_ctx_opts o;
    gale_ctx *ctx = NULL;
    double t_create, t_first, t_second, t_destroy, t0;
    long rss_start = peak_rss_mb(), rss_create, rss_first;
    const char *device = "0";
    int devs[BENCH_MAX_DEVICES];
    char devtext[128];
    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            const char *v = argv[++i];
            backend = !strcmp(v, "cpu") ? GALE_BACKEND_CPU : !strcmp(v, "cuda") ? GALE_BACKEND_CUDA : GALE_BACKEND_AUTO;
        } else if (!strcmp(argv[i], "--device-memory") && i + 1 < argc) {
            mib = atoll(argv[++i]);
        } else if (!strcmp(argv[i], "--idle") && i + 1 < argc) {
            idle_ms = atoll(argv[++i]);
        } else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
            device = argv[++i];
        } else {
            fprintf(stderr, "usage: ctx_startup [--backend auto|cpu|cuda] [--device-memory MIB] [--idle MS]\n"
                            "                   [--device D|D,E,...|all]\n");
            return 2;
        }
    }
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.device_memory = (uint64_t)mib << 20;
    if (bench_set_devices(&o, device, devs) != 0) {
        fprintf(stderr, "ctx_startup: bad --device %s (D, D,E,... or all)\n", device);
        return 2;
    }
    t0 = now_ms();
    check(gale_ctx_create(&ctx, &o), "gale_ctx_create");
    t_create = now_ms() - t0;
    rss_create = peak_rss_mb();
    check(gale_ctx_backend(ctx, &got), "gale_ctx_backend");
    bench_devices_text(ctx, devtext, sizeof devtext);
    if (idle_ms > 0) {
        struct timespec idle = {(time_t)(idle_ms / 1000), (long)(idle_ms % 1000) * 1000000L};
        nanosleep(&idle, NULL);
    }
    t_first = one_pair(ctx);
    rss_first = peak_rss_mb();
    t_second = one_pair(ctx);
    t0 = now_ms();
    check(gale_ctx_destroy(ctx), "gale_ctx_destroy");
    t_destroy = now_ms() - t0;
    printf("ctx_startup backend %s (device(s) %s)%s: create %.1f ms, first pair %.1f ms, second pair %.2f ms, destroy %.1f ms; "
           "peak RSS %ld MB at start, %ld after create, %ld after the first pair, %ld at the end\n",
           got == GALE_BACKEND_CUDA ? "cuda" : "cpu", got == GALE_BACKEND_CUDA ? devtext : "-", idle_ms > 0 ? " (idle between create and first)" : "", t_create, t_first, t_second, t_destroy, rss_start, rss_create,
           rss_first, peak_rss_mb());
    return 0;
}
