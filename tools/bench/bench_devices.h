/* The benchmarks' --device option and per-device report (xdrop_bench, wfa_bench): a
 * context given several devices splits each batch across them (gale_ctx_opts.n_devices);
 * what each device took tells whether they finished together (issue 21's "within 10%"). */
#ifndef GALE_BENCH_DEVICES_H
#define GALE_BENCH_DEVICES_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"

#define BENCH_MAX_DEVICES 16

/* --device D, D,E,... or all into o (n_devices 0 for one device). Returns 0, or -1 for a
 * value that is none of these. */
static inline int bench_set_devices(gale_ctx_opts *o, const char *arg, int devs[BENCH_MAX_DEVICES]) {
    int n = 0;
    const char *p = arg;
    if (!strcmp(arg, "all")) {
        o->n_devices = GALE_DEVICES_ALL;
        return 0;
    }
    for (;;) {
        char *end = NULL;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 1 << 20 || n == BENCH_MAX_DEVICES || (*end != ',' && *end != 0)) return -1;
        devs[n++] = (int)v;
        if (*end == 0) break;
        p = end + 1;
    }
    if (n == 1) {
        o->device = devs[0];
        o->n_devices = 0;
    } else {
        o->n_devices = n;
        o->devices = devs;
    }
    return 0;
}

/* The context's devices, "0" or "0,1". */
static inline void bench_devices_text(gale_ctx *ctx, char *out, size_t cap) {
    int d[BENCH_MAX_DEVICES];
    size_t n = 0, i, len = 0;
    out[0] = 0;
    if (gale_ctx_devices(ctx, d, BENCH_MAX_DEVICES, &n) != GALE_OK || n == 0) {
        snprintf(out, cap, "-");
        return;
    }
    for (i = 0; i < n && i < BENCH_MAX_DEVICES && len < cap; ++i)
        len += (size_t)snprintf(out + len, cap - len, "%s%d", i ? "," : "", d[i]);
}

/* On out, one line per device part of finished batch b (with several), and the spread of their
 * end times: (latest - earliest) / latest, in percent, into *spread (0 with one part). */
static inline void bench_print_parts(FILE *out, const gale_batch *b, const char *indent, double *spread) {
    gale_device_stats d[BENCH_MAX_DEVICES];
    size_t n = 0, i;
    double lo = 0, hi = 0;
    *spread = 0;
    d[0].size = sizeof d[0];
    if (gale_batch_device_stats(b, d, BENCH_MAX_DEVICES, &n) != GALE_OK || n < 2) return;
    for (i = 0; i < n && i < BENCH_MAX_DEVICES; ++i) {
        const double e = 1e-9 * (double)d[i].elapsed_ns;
        fprintf(out, "%sdevice %d: tasks [%" PRIu64 ", +%" PRIu64 "), cells %" PRIu64 ", rescued %" PRIu64
               ", kernel %.3f s, done at %.3f s\n",
               indent, d[i].device, d[i].first_task, d[i].tasks, d[i].cells, d[i].rescued, 1e-9 * (double)d[i].kernel_ns, e);
        if (i == 0 || e < lo) lo = e;
        if (i == 0 || e > hi) hi = e;
    }
    *spread = hi > 0 ? 100.0 * (hi - lo) / hi : 0;
    fprintf(out, "%sdevices done within %.1f%% of each other\n", indent, *spread);
}

#endif
