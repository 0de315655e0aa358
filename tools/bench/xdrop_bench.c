/*
 * xdrop_bench - gale's batched X-drop on a gen.py / LOGAN-demo pair file.
 *
 *   xdrop_bench FILE [--backend auto|cpu|cuda] [--x 10,100,1000,5000] [--k 17]
 *                    [--threads N] [--limit N] [--repeat R] [--score M,MM,G] [--device D|D,E,...|all]
 *
 * FILE lines: seqV <TAB> posV <TAB> seqH <TAB> posH <TAB> strand (LOGAN demo format, as
 * written by tools/bench/gen.py xdrop). The task is h = seqH (SeqAn's database), v = seqV
 * (query), seed [posH, posH+k) x [posV, posV+k). Strand 'n' is taken as is; for strand 'c'
 * h is reverse-complemented and posH becomes len(h) - posH - k (BELLA's convention; LOGAN's
 * demo only complements, which is not a valid opposite-strand task).
 *
 * Per X: one batch of all pairs (scoring +1/-1/-1 unless --score, extension BOTH,
 * N policy DNA5), timed from the first gale_batch_add to the return of gale_wait
 * (end to end: copy and encode the inputs, transfers, kernels, results), plus the batch's
 * statistics (cells, kernel_ns). With --repeat R the best (smallest) time of R runs is
 * reported, and the checksums of all runs must agree. A final markdown table can be
 * pasted into bench/RESULTS.md. With several devices (--device 0,1 or all: one context, each
 * batch split across them) each device's part is printed, and how close their ends were.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_devices.h"
#include "gale.h"

typedef struct {
    const char *h, *v;
    int64_t h_len, v_len, h_pos, v_pos;
} pair_t;

typedef struct {
    long long x;
    size_t pairs;
    uint64_t cells, rescued;
    double kernel_s, e2e_s, elapsed_s; /* best of the repeats */
    double spread;                     /* the devices' end times apart, % (bench_print_parts) */
    int64_t score_sum;
    uint64_t checksum;
    int ok;
} row_t;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *fmt, const char *arg) {
    fprintf(stderr, "xdrop_bench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(2);
}

static void usage(void) {
    fprintf(stderr,
            "usage: xdrop_bench FILE [--backend auto|cpu|cuda] [--x 10,100,1000,5000] [--k 17]\n"
            "                        [--threads N] [--limit N] [--repeat R] [--score M,MM,G]\n"
            "                        [--device D|D,E,...|all]\n");
    exit(2);
}

/* Reads the whole file into one buffer (NUL-terminated). */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open %s", path);
    if (fseek(f, 0, SEEK_END) != 0) die("cannot seek in %s", path);
    long n = ftell(f);
    if (n < 0) die("cannot size %s", path);
    rewind(f);
    char *buf = (char *)malloc((size_t)n + 1);
    if (!buf) die("out of memory reading %s", path);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    if (got != (size_t)n) die("short read on %s", path);
    buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

static char complement(char c) {
    switch (c) {
    case 'A': return 'T'; case 'C': return 'G'; case 'G': return 'C'; case 'T': return 'A';
    case 'a': return 't'; case 'c': return 'g'; case 'g': return 'c'; case 't': return 'a';
    default: return c;
    }
}

/* Splits the buffer into pairs (pointers into buf; the tabs become NULs). */
static pair_t *parse(char *buf, size_t len, size_t limit, int k, size_t *count) {
    size_t cap = 1024, n = 0;
    pair_t *ps = (pair_t *)malloc(cap * sizeof *ps);
    char *p = buf, *end = buf + len;
    size_t line = 0;
    while (p < end && n < limit) {
        char *nl = (char *)memchr(p, '\n', (size_t)(end - p));
        if (!nl) nl = end;
        ++line;
        if (nl == p) { p = nl + 1; continue; }
        char *f[5];
        int nf = 0;
        char *q = p;
        f[nf++] = q;
        while (q < nl && nf < 5) {
            char *t = (char *)memchr(q, '\t', (size_t)(nl - q));
            if (!t) break;
            *t = 0;
            q = t + 1;
            f[nf++] = q;
        }
        if (nf < 4) {
            fprintf(stderr, "xdrop_bench: line %zu: expected seqV posV seqH posH strand\n", line);
            exit(2);
        }
        if (nl < end) *nl = 0;
        if (nl > p && nl[-1] == '\r') nl[-1] = 0;
        if (n == cap) {
            cap *= 2;
            ps = (pair_t *)realloc(ps, cap * sizeof *ps);
            if (!ps) die("%s", "out of memory");
        }
        pair_t *x = &ps[n];
        x->v = f[0];
        x->v_len = (int64_t)(f[1] - f[0] - 1);
        x->v_pos = strtoll(f[1], NULL, 10);
        x->h = f[2];
        x->h_len = (int64_t)(f[3] - f[2] - 1);
        x->h_pos = strtoll(f[3], NULL, 10);
        char strand = nf >= 5 ? f[4][0] : 'n';
        if (strand == 'c') {
            char *rc = (char *)malloc((size_t)x->h_len + 1);
            if (!rc) die("%s", "out of memory");
            for (int64_t i = 0; i < x->h_len; ++i) rc[i] = complement(x->h[x->h_len - 1 - i]);
            rc[x->h_len] = 0;
            x->h = rc;
            x->h_pos = x->h_len - x->h_pos - k;
        } else if (strand != 'n') {
            fprintf(stderr, "xdrop_bench: line %zu: strand '%c' is neither n nor c\n", line, strand);
            exit(2);
        }
        ++n;
        p = nl + 1;
    }
    *count = n;
    return ps;
}

/* GCUPS over the kernel time; "-" when there is none (CPU backend). */
static void fmt_gcups(char *out, size_t n, uint64_t cells, double seconds) {
    if (seconds > 0) snprintf(out, n, "%.1f", (double)cells / seconds / 1e9);
    else snprintf(out, n, "-");
}

static void check(gale_status s, const char *what) {
    if (s != GALE_OK) {
        fprintf(stderr, "xdrop_bench: %s: %s (%s)\n", what, gale_status_string(s), gale_last_error());
        exit(1);
    }
}

/* FNV-1a over the result fields, in submission order. */
static uint64_t mix(uint64_t h, int64_t v) {
    uint64_t u = (uint64_t)v;
    for (int i = 0; i < 8; ++i) {
        h ^= (u >> (8 * i)) & 0xff;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static int run_x(gale_ctx *ctx, const pair_t *ps, size_t n, int k, long long x, const int score[3], row_t *row,
                 int quiet) {
    gale_batch *b = NULL;
    check(gale_batch_create(ctx, GALE_XDROP, &b), "gale_batch_create");
    check(gale_batch_set(b, GALE_P_MATCH, score[0]), "set match");
    check(gale_batch_set(b, GALE_P_MISMATCH, score[1]), "set mismatch");
    check(gale_batch_set(b, GALE_P_GAP, score[2]), "set gap");
    check(gale_batch_set(b, GALE_P_XDROP, x), "set X");
    check(gale_batch_set(b, GALE_P_DIRECTION, GALE_DIR_BOTH), "set direction");
    check(gale_batch_set(b, GALE_P_N_POLICY, GALE_N_DNA5), "set N policy");
    gale_task t;
    gale_task_init(&t);
    double t0 = now_s();
    for (size_t i = 0; i < n; ++i) {
        t.h = ps[i].h, t.h_len = ps[i].h_len;
        t.v = ps[i].v, t.v_len = ps[i].v_len;
        t.h_begin = ps[i].h_pos, t.h_end = ps[i].h_pos + k;
        t.v_begin = ps[i].v_pos, t.v_end = ps[i].v_pos + k;
        t.user = i;
        gale_status s = gale_batch_add(b, &t);
        if (s != GALE_OK) {
            fprintf(stderr, "xdrop_bench: pair %zu: %s (%s)\n", i, gale_status_string(s), gale_last_error());
            exit(1);
        }
    }
    double t_added = now_s();
    check(gale_submit(b), "gale_submit");
    check(gale_wait(b), "gale_wait");
    double t1 = now_s();
    gale_stats st;
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    check(gale_batch_stats(b, &st), "gale_batch_stats");
    if (!quiet) bench_print_parts(stdout, b, "    ", &row->spread);
    uint64_t h = 0xcbf29ce484222325ULL;
    int64_t sum = 0;
    gale_result r;
    for (size_t i = 0; i < n; ++i) {
        r.size = sizeof r;
        check(gale_result_get(b, i, &r), "gale_result_get");
        sum += r.score;
        h = mix(h, r.score_left);
        h = mix(h, r.score_right);
        h = mix(h, r.h_begin);
        h = mix(h, r.h_end);
        h = mix(h, r.v_begin);
        h = mix(h, r.v_end);
    }
    gale_batch_destroy(b);
    row->x = x;
    row->pairs = n;
    row->cells = st.cells;
    row->rescued = st.rescued;
    row->kernel_s = 1e-9 * (double)st.kernel_ns;
    row->e2e_s = t1 - t0;
    row->elapsed_s = 1e-9 * (double)st.elapsed_ns;
    row->score_sum = sum;
    row->checksum = h;
    if (!quiet)
        printf("  X=%-6lld add %.3f s, submit..wait %.3f s (batch elapsed %.3f s), kernel %.3f s, e2e %.3f s, "
               "cells %" PRIu64 ", rescued %" PRIu64 ", checksum %016" PRIx64 "\n",
               x, t_added - t0, t1 - t_added, row->elapsed_s, row->kernel_s, row->e2e_s, st.cells, st.rescued, h);
    return 0;
}

int main(int argc, char **argv) {
    const char *file = NULL;
    int backend = GALE_BACKEND_AUTO, k = 17, threads = 0, repeat = 1;
    const char *device = "0";
    int devs[BENCH_MAX_DEVICES];
    size_t limit = (size_t)-1;
    long long xs[64];
    int nx = 0;
    int score[3] = {1, -1, -1};
    const char *xarg = "10,100,1000,5000";
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (!strcmp(a, "--backend") && val) {
            if (!strcmp(val, "auto")) backend = GALE_BACKEND_AUTO;
            else if (!strcmp(val, "cpu")) backend = GALE_BACKEND_CPU;
            else if (!strcmp(val, "cuda")) backend = GALE_BACKEND_CUDA;
            else usage();
            ++i;
        } else if (!strcmp(a, "--x") && val) {
            xarg = val, ++i;
        } else if (!strcmp(a, "--k") && val) {
            k = atoi(val), ++i;
        } else if (!strcmp(a, "--threads") && val) {
            threads = atoi(val), ++i;
        } else if (!strcmp(a, "--limit") && val) {
            limit = (size_t)strtoull(val, NULL, 10), ++i;
        } else if (!strcmp(a, "--repeat") && val) {
            repeat = atoi(val), ++i;
        } else if (!strcmp(a, "--device") && val) {
            device = val, ++i;
        } else if (!strcmp(a, "--score") && val) {
            if (sscanf(val, "%d,%d,%d", &score[0], &score[1], &score[2]) != 3) usage();
            ++i;
        } else if (a[0] == '-') {
            usage();
        } else if (!file) {
            file = a;
        } else {
            usage();
        }
    }
    if (!file || k < 0 || repeat < 1) usage();
    {
        char *copy = strdup(xarg), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok && nx < 64; tok = strtok_r(NULL, ",", &save))
            xs[nx++] = strtoll(tok, NULL, 10);
        free(copy);
        if (nx == 0) usage();
    }

    double t0 = now_s();
    size_t len = 0, n = 0;
    char *buf = read_file(file, &len);
    double t_read = now_s();
    pair_t *ps = parse(buf, len, limit, k, &n);
    double t_parse = now_s();
    uint64_t bases = 0;
    for (size_t i = 0; i < n; ++i) bases += (uint64_t)(ps[i].h_len + ps[i].v_len);
    printf("file %s: %zu pairs, %.1f MB, %" PRIu64 " bases; read %.2f s, parsed %.2f s\n", file, n, len / 1e6, bases,
           t_read - t0, t_parse - t_read);

    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.threads = threads;
    if (bench_set_devices(&o, device, devs) != 0) usage();
    gale_ctx *ctx = NULL;
    double tc = now_s();
    check(gale_ctx_create(&ctx, &o), "gale_ctx_create");
    double tc1 = now_s();
    int used = -1, nthreads = 0;
    gale_ctx_backend(ctx, &used);
    gale_ctx_threads(ctx, &nthreads);
    const char *bname = used == GALE_BACKEND_CUDA ? "cuda" : "cpu";
    unsigned feat = gale_features();
    char devtext[128];
    bench_devices_text(ctx, devtext, sizeof devtext);
    printf("gale %s, backend %s (device(s) %s of %d CUDA device(s); features%s%s%s), %d CPU threads, context created "
           "in %.2f s\n",
           gale_version_string(), bname, devtext, gale_cuda_device_count(), (feat & GALE_FEATURE_CPU) ? " cpu" : "",
           (feat & GALE_FEATURE_CUDA) ? " cuda" : "", (feat & GALE_FEATURE_DPX) ? " dpx" : "", nthreads, tc1 - tc);
    printf("scoring %+d/%+d/%+d, k %d, extension both, N policy DNA5, %d repeat(s)\n", score[0], score[1], score[2], k,
           repeat);

    row_t *rows = (row_t *)calloc((size_t)nx, sizeof *rows);
    int bad = 0;
    for (int xi = 0; xi < nx; ++xi) {
        row_t best;
        memset(&best, 0, sizeof best);
        for (int rep = 0; rep < repeat; ++rep) {
            row_t r;
            run_x(ctx, ps, n, k, xs[xi], score, &r, 0);
            if (rep == 0) {
                best = r;
            } else {
                if (r.checksum != best.checksum || r.cells != best.cells) {
                    fprintf(stderr, "xdrop_bench: X=%lld: repeat %d gave checksum %016" PRIx64 " cells %" PRIu64
                            ", first run %016" PRIx64 " %" PRIu64 "\n",
                            xs[xi], rep, r.checksum, r.cells, best.checksum, best.cells);
                    bad = 1;
                }
                if (r.e2e_s < best.e2e_s) best.e2e_s = r.e2e_s;
                if (r.kernel_s < best.kernel_s) best.kernel_s = r.kernel_s;
                if (r.elapsed_s < best.elapsed_s) best.elapsed_s = r.elapsed_s;
                if (r.spread > best.spread) best.spread = r.spread; /* the worst */
            }
        }
        rows[xi] = best;
        char gk[32];
        fmt_gcups(gk, sizeof gk, best.cells, best.kernel_s);
        double ge = best.cells / best.e2e_s / 1e9;
        printf("X=%lld: pairs %zu, cells %" PRIu64 ", kernel %.3f s, end-to-end %.3f s, GCUPS kernel %s, GCUPS "
               "end-to-end %.2f, score sum %" PRId64 ", checksum %016" PRIx64 "\n",
               best.x, best.pairs, best.cells, best.kernel_s, best.e2e_s, gk, ge, best.score_sum, best.checksum);
    }
    gale_ctx_destroy(ctx);

    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    printf("\n| date | backend | devices | threads | X | pairs | cells | kernel s | end-to-end s | GCUPS kernel | "
           "GCUPS e2e | devices apart | rescued | checksum |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int xi = 0; xi < nx; ++xi) {
        const row_t *r = &rows[xi];
        char gk[32];
        fmt_gcups(gk, sizeof gk, r->cells, r->kernel_s);
        printf("| %s | %s | %s | %d | %lld | %zu | %" PRIu64 " | %.3f | %.3f | %s | %.2f | %.1f%% | %" PRIu64
               " | %016" PRIx64 " |\n",
               date, bname, used == GALE_BACKEND_CUDA ? devtext : "-", nthreads, r->x, r->pairs, r->cells, r->kernel_s, r->e2e_s, gk, r->cells / r->e2e_s / 1e9,
               r->spread, r->rescued, r->checksum);
    }
    free(rows);
    free(ps); /* the reverse-complemented h of 'c' lines are left to the OS */
    free(buf);
    return bad;
}
