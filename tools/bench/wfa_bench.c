/*
 * wfa_bench - gale's batched wavefront alignment on a WFA .seq file (as written by
 * `gen.py seq FILE N LEN RATE`: lines ">PATTERN" then "<TEXT").
 *
 *   wfa_bench FILE [--backend auto|cpu|cuda] [--penalties X,O,E] [--err PERMILLE]
 *                  [--limit N] [--repeat R] [--threads N] [--device D|D,E,...|all] [--verify N]
 *                  [--device-memory MIB] [--group-threads T] [--units-per-sm U]
 *
 * GALE_WFA, end-to-end, penalties x=2 o=3 e=1 by default (WFA-GPU's anchor runs),
 * N policy DNA5; two batches of all pairs: scope ALIGNMENT (CIGAR) and scope SCORE.
 * Per scope, with --repeat R, the best of R runs: add (copy + encode the inputs),
 * submit..wait, and end to end (first add to the end of wait); alignments/s over
 * submit..wait, over end to end and over the kernels alone (gale_batch_stats
 * kernel_ns, CUDA only), cells/s over the kernels, the number rescued on the CPU.
 * The checksum (scores, ends, CIGARs) must agree between repeats. --err sets
 * GALE_P_EXPECTED_ERROR (the GPU budget; default: the library's). --verify N
 * compares the first N pairs (both scopes) with a CPU context, field by field.
 * --device-memory sets the context's device memory budget (gale_ctx_options
 * device_memory, MiB; default: the library's). --group-threads (32, 128 or 256 threads
 * per alignment) and --units-per-sm (alignments in flight per multiprocessor) force
 * the GPU kernel's shape through the experimental parameters GALE_PX_WFA_GROUP_THREADS
 * and GALE_PX_WFA_UNITS_PER_SM (measurements only: results never depend on them; 0 =
 * the dispatcher's choice).
 *
 * --bulk adds each batch's pairs with one gale_batch_add_tasks call (checks and copies on
 * the context's threads) instead of one gale_batch_add call per pair.
 *
 * --round-trip B[,B...] measures instead what one call of the Python package's
 * Context.wfa does through the C API, for batches of the first B pairs: create the
 * batch, set the parameters, add the pairs, submit, wait, copy the results
 * (gale_result_get_range) and the CIGARs into flat arrays, destroy; the median and
 * the best of --repeat R round trips per B (tools/bench/python_bench.py compares the
 * package's time with these).
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GALE_EXPERIMENTAL_API /* GALE_PX_WFA_*: --group-threads, --units-per-sm */
#include "bench_devices.h"
#include "gale.h"

typedef struct {
    const char *p, *t;
    int64_t p_len, t_len;
} pair_t;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *msg, const char *arg) {
    fprintf(stderr, "wfa_bench: %s%s\n", msg, arg ? arg : "");
    exit(2);
}

static void check(gale_status s, const char *what) {
    if (s != GALE_OK) {
        fprintf(stderr, "wfa_bench: %s: %s (%s)\n", what, gale_status_string(s), gale_last_error());
        exit(1);
    }
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    long n;
    char *buf;
    if (!f) die("cannot open ", path);
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0) die("cannot size ", path);
    rewind(f);
    buf = (char *)malloc((size_t)n + 1);
    if (!buf) die("out of memory reading ", path);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) die("short read on ", path);
    fclose(f);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

/* Pairs: a '>' line (pattern) followed by a '<' line (text). */
static pair_t *parse(char *buf, size_t len, size_t limit, size_t *count) {
    size_t cap = 1024, n = 0, line = 0;
    pair_t *ps = (pair_t *)malloc(cap * sizeof *ps);
    char *p = buf, *end = buf + len;
    const char *pat = NULL;
    int64_t pat_len = 0;
    while (p < end && n < limit) {
        char *nl = (char *)memchr(p, '\n', (size_t)(end - p));
        int64_t l;
        if (!nl) nl = end;
        ++line;
        l = (int64_t)(nl - p);
        if (l > 0 && p[l - 1] == '\r') --l;
        if (l == 0) { p = nl + 1; continue; }
        if (p[0] == '>') {
            pat = p + 1;
            pat_len = l - 1;
        } else if (p[0] == '<') {
            if (!pat) {
                fprintf(stderr, "wfa_bench: line %zu: '<' line without a '>' line before it\n", line);
                exit(2);
            }
            if (n == cap) {
                cap *= 2;
                ps = (pair_t *)realloc(ps, cap * sizeof *ps);
                if (!ps) die("out of memory", NULL);
            }
            ps[n].p = pat;
            ps[n].p_len = pat_len;
            ps[n].t = p + 1;
            ps[n].t_len = l - 1;
            ++n;
            pat = NULL;
        } else {
            fprintf(stderr, "wfa_bench: line %zu: expected '>' or '<'\n", line);
            exit(2);
        }
        p = nl + 1;
    }
    *count = n;
    return ps;
}

static uint64_t mix(uint64_t h, int64_t v) {
    uint64_t u = (uint64_t)v;
    int i;
    for (i = 0; i < 8; ++i) {
        h ^= (u >> (8 * i)) & 0xff;
        h *= 0x100000001b3ULL;
    }
    return h;
}

typedef struct {
    double add_s, run_s, e2e_s, kernel_s;
    uint64_t cells, rescued, checksum;
    int64_t score_sum;
    double spread; /* the devices' end times apart, % (bench_print_parts) */
} row_t;

static int group_threads = 0, units_per_sm = 0; /* --group-threads, --units-per-sm (0: automatic) */
static int bulk = 0;                              /* --bulk: gale_batch_add_tasks instead of gale_batch_add */

static gale_batch *make(gale_ctx *ctx, const pair_t *ps, size_t n, int scope, const int pen[3], int err, double *add_s) {
    gale_batch *b = NULL;
    gale_task t;
    size_t i;
    double t0;
    check(gale_batch_create(ctx, GALE_WFA, &b), "gale_batch_create");
    check(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, pen[0]), "set x");
    check(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN, pen[1]), "set o");
    check(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, pen[2]), "set e");
    check(gale_batch_set(b, GALE_P_SCOPE, scope), "set scope");
    if (err > 0) check(gale_batch_set(b, GALE_P_EXPECTED_ERROR, err), "set expected error");
#ifdef GALE_PX_WFA_GROUP_THREADS
    if (group_threads) check(gale_batch_set(b, GALE_PX_WFA_GROUP_THREADS, group_threads), "set group threads");
    if (units_per_sm) check(gale_batch_set(b, GALE_PX_WFA_UNITS_PER_SM, units_per_sm), "set units per SM");
#endif
    gale_task_init(&t);
    t0 = now_s();
    if (bulk) { /* --bulk: one gale_batch_add_tasks call (the array's filling counts in the add time) */
        gale_task *ts = malloc((n ? n : 1) * sizeof *ts);
        if (!ts) die("out of memory", NULL);
        for (i = 0; i < n; ++i) {
            ts[i] = t;
            ts[i].h = ps[i].t;
            ts[i].h_len = ps[i].t_len;
            ts[i].v = ps[i].p;
            ts[i].v_len = ps[i].p_len;
            ts[i].user = i;
        }
        check(gale_batch_add_tasks(b, ts, n), "gale_batch_add_tasks");
        free(ts);
    } else {
        for (i = 0; i < n; ++i) {
            t.h = ps[i].t;
            t.h_len = ps[i].t_len;
            t.v = ps[i].p;
            t.v_len = ps[i].p_len;
            t.user = i;
            check(gale_batch_add(b, &t), "gale_batch_add");
        }
    }
    *add_s = now_s() - t0;
    return b;
}

static void run(gale_ctx *ctx, const pair_t *ps, size_t n, int scope, const int pen[3], int err, row_t *row) {
    double add_s, t0, t1;
    gale_batch *b = make(ctx, ps, n, scope, pen, err, &add_s);
    gale_stats st;
    gale_result r;
    uint64_t h = 0xcbf29ce484222325ULL;
    int64_t sum = 0;
    size_t i, k;
    t0 = now_s();
    check(gale_submit(b), "gale_submit");
    check(gale_wait(b), "gale_wait");
    t1 = now_s();
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    check(gale_batch_stats(b, &st), "gale_batch_stats");
    bench_print_parts(stderr, b, "    ", &row->spread);
    for (i = 0; i < n; ++i) {
        const uint32_t *cig;
        size_t nc;
        r.size = sizeof r;
        check(gale_result_get(b, i, &r), "gale_result_get");
        check(gale_result_cigar(b, i, &cig, &nc), "gale_result_cigar");
        sum += r.score;
        h = mix(h, r.score);
        h = mix(h, r.h_begin);
        h = mix(h, r.h_end);
        h = mix(h, r.v_begin);
        h = mix(h, r.v_end);
        for (k = 0; k < nc; ++k) h = mix(h, cig[k]);
    }
    gale_batch_destroy(b);
    row->add_s = add_s;
    row->run_s = t1 - t0;
    row->e2e_s = add_s + (t1 - t0);
    row->kernel_s = 1e-9 * (double)st.kernel_ns;
    row->cells = st.cells;
    row->rescued = st.rescued;
    row->checksum = h;
    row->score_sum = sum;
}

/* Compares the first n pairs with a CPU context; returns the number that differ. */
static size_t verify(gale_ctx *ctx, gale_ctx *cpu, const pair_t *ps, size_t n, int scope, const int pen[3], int err) {
    double a;
    gale_batch *g = make(ctx, ps, n, scope, pen, err, &a), *c = make(cpu, ps, n, scope, pen, err, &a);
    size_t i, bad = 0;
    check(gale_submit(g), "submit");
    check(gale_submit(c), "submit");
    check(gale_wait(g), "wait");
    check(gale_wait(c), "wait");
    for (i = 0; i < n; ++i) {
        gale_result x, y;
        const uint32_t *cx, *cy;
        size_t nx, ny;
        x.size = y.size = sizeof x;
        check(gale_result_get(g, i, &x), "result");
        check(gale_result_get(c, i, &y), "result");
        check(gale_result_cigar(g, i, &cx, &nx), "cigar");
        check(gale_result_cigar(c, i, &cy, &ny), "cigar");
        if (x.score != y.score || x.h_begin != y.h_begin || x.h_end != y.h_end || x.v_begin != y.v_begin ||
            x.v_end != y.v_end || x.cells != y.cells || nx != ny || (nx && memcmp(cx, cy, nx * 4) != 0)) {
            if (bad < 5)
                fprintf(stderr, "wfa_bench: verify: pair %zu differs (score %lld vs %lld, cells %llu vs %llu)\n", i,
                        (long long)x.score, (long long)y.score, (unsigned long long)x.cells, (unsigned long long)y.cells);
            ++bad;
        }
    }
    gale_batch_destroy(g);
    gale_batch_destroy(c);
    return bad;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --round-trip: one batch's whole life through the C API, as the Python package drives it. */
static double round_trip(gale_ctx *ctx, const pair_t *ps, size_t n, const int pen[3], uint64_t *checksum) {
    double add_s, t0 = now_s();
    gale_batch *b = make(ctx, ps, n, GALE_SCOPE_ALIGNMENT, pen, 0, &add_s);
    gale_result *res = malloc((n ? n : 1) * sizeof *res);
    int64_t *off = malloc((n + 1) * sizeof *off);
    uint32_t *ops;
    const uint32_t *c;
    size_t k, i;
    if (!res || !off) die("out of memory", NULL);
    check(gale_submit(b), "gale_submit");
    check(gale_wait(b), "gale_wait");
    res[0].size = sizeof *res;
    if (n) check(gale_result_get_range(b, 0, n, res), "gale_result_get_range");
    off[0] = 0;
    for (i = 0; i < n; ++i) {
        check(gale_result_cigar(b, i, &c, &k), "gale_result_cigar");
        off[i + 1] = off[i] + (int64_t)k;
    }
    ops = malloc(((size_t)off[n] ? (size_t)off[n] : 1) * sizeof *ops);
    if (!ops) die("out of memory", NULL);
    for (i = 0; i < n; ++i) {
        check(gale_result_cigar(b, i, &c, &k), "gale_result_cigar");
        memcpy(ops + off[i], c, k * sizeof *c);
    }
    check(gale_batch_destroy(b), "gale_batch_destroy");
    t0 = now_s() - t0;
    for (i = 0; i < n; ++i) *checksum = mix(*checksum, res[i].score);
    for (i = 0; i < (size_t)off[n]; ++i) *checksum = mix(*checksum, ops[i]);
    free(res), free(off), free(ops);
    return t0;
}

int main(int argc, char **argv) {
    const char *file = NULL, *round_trips = NULL;
    int backend = GALE_BACKEND_AUTO, threads = 0, repeat = 1, err = 0, i, sc;
    const char *device = "0";
    int devs[BENCH_MAX_DEVICES];
    char devtext[128];
    long long device_mib = 0;
    int pen[3] = {2, 3, 1};
    size_t limit = (size_t)-1, n, len, nverify = 0;
    char *buf;
    pair_t *ps;
    gale_ctx_opts o;
    gale_ctx *ctx = NULL;
    int got_backend = 0, status = 0;
    uint64_t bases = 0;
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--backend") && val) {
            backend = !strcmp(val, "cpu") ? GALE_BACKEND_CPU : !strcmp(val, "cuda") ? GALE_BACKEND_CUDA : GALE_BACKEND_AUTO;
            ++i;
        } else if (!strcmp(a, "--penalties") && val) {
            if (sscanf(val, "%d,%d,%d", &pen[0], &pen[1], &pen[2]) != 3) die("bad --penalties ", val);
            ++i;
        } else if (!strcmp(a, "--err") && val) { err = atoi(val); ++i; }
        else if (!strcmp(a, "--limit") && val) { limit = (size_t)atoll(val); ++i; }
        else if (!strcmp(a, "--repeat") && val) { repeat = atoi(val); ++i; }
        else if (!strcmp(a, "--threads") && val) { threads = atoi(val); ++i; }
        else if (!strcmp(a, "--device") && val) { device = val; ++i; }
        else if (!strcmp(a, "--device-memory") && val && atoll(val) >= 0) { device_mib = atoll(val); ++i; }
        else if (!strcmp(a, "--verify") && val) { nverify = (size_t)atoll(val); ++i; }
        else if (!strcmp(a, "--group-threads") && val) { group_threads = atoi(val); ++i; }
        else if (!strcmp(a, "--units-per-sm") && val) { units_per_sm = atoi(val); ++i; }
        else if (!strcmp(a, "--round-trip") && val) { round_trips = val; ++i; }
        else if (!strcmp(a, "--bulk")) bulk = 1;
        else if (a[0] != '-' && !file) file = a;
        else {
            fprintf(stderr, "usage: wfa_bench FILE [--backend auto|cpu|cuda] [--penalties X,O,E] [--err PERMILLE]\n"
                            "                      [--limit N] [--repeat R] [--threads N] [--device D|D,E,...|all]\n"
                            "                      [--verify N]\n"
                            "                      [--device-memory MIB] [--group-threads T] [--units-per-sm U]\n"
                            "                      [--round-trip B[,B...]] [--bulk]\n");
            return 2;
        }
    }
    if (!file) die("no input file", NULL);
    if (repeat < 1) repeat = 1;
    buf = read_file(file, &len);
    ps = parse(buf, len, limit, &n);
    for (size_t k = 0; k < n; ++k) bases += (uint64_t)(ps[k].p_len + ps[k].t_len);
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.threads = threads;
    if (bench_set_devices(&o, device, devs) != 0) die("bad --device (D, D,E,... or all): ", device);
    o.device_memory = (uint64_t)device_mib << 20;
    check(gale_ctx_create(&ctx, &o), "gale_ctx_create");
    check(gale_ctx_backend(ctx, &got_backend), "gale_ctx_backend");
    gale_ctx_threads(ctx, &threads);
    bench_devices_text(ctx, devtext, sizeof devtext);
    printf("wfa_bench %s: %zu pairs, %.1f Mbases; backend %s (device(s) %s), %d CPU threads; x=%d o=%d e=%d end-to-end\n",
           file, n, (double)bases / 1e6, got_backend == GALE_BACKEND_CUDA ? "cuda" : "cpu",
           got_backend == GALE_BACKEND_CUDA ? devtext : "-", threads, pen[0], pen[1], pen[2]);
    if (err) printf("  GALE_P_EXPECTED_ERROR = %d\n", err);
#ifndef GALE_PX_WFA_GROUP_THREADS
    if (group_threads || units_per_sm) die("--group-threads / --units-per-sm: this gale.h has no GALE_PX_WFA_*", NULL);
#endif
    if (group_threads) printf("  GALE_PX_WFA_GROUP_THREADS = %d\n", group_threads);
    if (units_per_sm) printf("  GALE_PX_WFA_UNITS_PER_SM = %d\n", units_per_sm);
    if (round_trips) {
        const char *p = round_trips;
        double *t = malloc((size_t)repeat * sizeof *t);
        if (!t) die("out of memory", NULL);
        printf("| C API round trip | pairs | median ms | best ms | checksum |\n|---|---|---|---|---|\n");
        while (*p) {
            char *end;
            size_t bsz = (size_t)strtoull(p, &end, 10);
            uint64_t sum = 0;
            if (end == p || bsz == 0 || bsz > n) die("--round-trip: batch sizes from 1 to the pairs in the file: ", p);
            for (int k = 0; k < repeat; ++k) t[k] = round_trip(ctx, ps, bsz, pen, &sum);
            qsort(t, (size_t)repeat, sizeof *t, cmp_double);
            printf("| C API round trip | %zu | %.3f | %.3f | %016" PRIx64 " |\n", bsz, 1e3 * t[repeat / 2], 1e3 * t[0], sum);
            p = *end == ',' ? end + 1 : end;
        }
        free(t);
        gale_ctx_destroy(ctx);
        free(ps), free(buf);
        return 0;
    }
    if (nverify) {
        gale_ctx *cpu = NULL;
        gale_ctx_opts co;
        gale_ctx_opts_init(&co);
        co.backend = GALE_BACKEND_CPU;
        check(gale_ctx_create(&cpu, &co), "cpu context");
        if (nverify > n) nverify = n;
        for (sc = 1; sc >= 0; --sc) {
            size_t bad = verify(ctx, cpu, ps, nverify, sc, pen, err);
            printf("  verify (%s): %zu of the first %zu pairs differ from the CPU backend\n", sc ? "cigar" : "score",
                   bad, nverify);
            if (bad) status = 1;
        }
        gale_ctx_destroy(cpu);
    }
    printf("| scope | pairs | add s | submit..wait s | kernels s | aln/s (submit..wait) | aln/s (end to end) | "
           "aln/s (kernels) | Gcells/s (kernels) | cells | rescued | devices apart | checksum |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (sc = 1; sc >= 0; --sc) {
        row_t best, r;
        int k;
        memset(&best, 0, sizeof best);
        for (k = 0; k < repeat; ++k) {
            run(ctx, ps, n, sc, pen, err, &r);
            fprintf(stderr, "  %s run %d: add %.3f s, submit..wait %.3f s, kernels %.3f s, rescued %" PRIu64
                    ", checksum %016" PRIx64 ", score sum %" PRId64 "\n", sc ? "cigar" : "score", k, r.add_s, r.run_s,
                    r.kernel_s, r.rescued, r.checksum, r.score_sum);
            if (k > 0 && r.checksum != best.checksum) {
                fprintf(stderr, "wfa_bench: checksum differs between repeats\n");
                status = 1;
            }
            if (k == 0 || r.run_s < best.run_s) {
                uint64_t c = best.checksum;
                double spread = best.spread;
                best = r;
                if (k > 0) best.checksum = c;
                if (k > 0 && spread > best.spread) best.spread = spread; /* the worst */
            } else if (r.spread > best.spread) {
                best.spread = r.spread;
            }
        }
        char kern[32] = "-", gcells[32] = "-";  /* no kernels: the CPU backend */
        if (best.kernel_s > 0) {
            snprintf(kern, sizeof kern, "%.0f", (double)n / best.kernel_s);
            snprintf(gcells, sizeof gcells, "%.1f", (double)best.cells / best.kernel_s / 1e9);
        }
        printf("| %s | %zu | %.3f | %.3f | %.3f | %.0f | %.0f | %s | %s | %" PRIu64 " | %" PRIu64 " | %.1f%% | %016" PRIx64
               " |\n",
               sc ? "alignment (CIGAR)" : "score only", n, best.add_s, best.run_s, best.kernel_s, (double)n / best.run_s,
               (double)n / best.e2e_s, kern, gcells, best.cells, best.rescued, best.spread, best.checksum);
    }
    gale_ctx_destroy(ctx);
    free(ps);
    free(buf);
    return status;
}
