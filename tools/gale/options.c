/*
 * gale CLI: messages, the common options and what they set up (options.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <htslib/hts.h>

#include "ranks.h"

const char *const prog = "gale";

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

static int messages;

int msg_count(void)
{
    return messages;
}

static void vmsg(const char *fmt, va_list ap)
{
    ++messages;
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
}

void gale_msg(const char *what, gale_status st)
{
    const char *detail = gale_last_error();
    if (detail && *detail)
        msg("%s: %s (%s)", what, gale_status_string(st), detail);
    else
        msg("%s: %s", what, gale_status_string(st));
}

int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    /* every MPI rank reads the same command line: rank 0 says what is wrong */
    if (ranks_me() > 0)
        return EXIT_USAGE;
    va_start(ap, fmt);
    vmsg(fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try 'gale %s --help'.\n", cmd);
    return EXIT_USAGE;
}

int bad_value(const char *cmd, const char *opt, const char *val, const char *why)
{
    return usage_error(cmd, "invalid value '%s' for %s: %s", val, opt, why);
}

const char *strip_task_prefix(const char *e)
{
    if (strncmp(e, "task ", 5) == 0) {
        const char *p = e + 5;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p > e + 5 && p[0] == ':' && p[1] == ' ')
            return p + 2;
    }
    return e;
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

int parse_number(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    uint64_t mag = 0, limit;
    /* a '-' is read whatever lo is: "-3" where lo is 0 is out of range, not
     * junk */
    if (i < n && s[i] == '-') {
        neg = 1;
        i++;
    }
    if (i == n)
        return NUM_NOT_INTEGER;
    /* the magnitude may reach 2^63 (INT64_MIN); beyond it nothing fits */
    limit = (uint64_t)INT64_MAX + (neg ? 1u : 0u);
    for (; i < n; i++) {
        unsigned d;
        if (s[i] < '0' || s[i] > '9')
            return NUM_NOT_INTEGER;
        d = (unsigned)(s[i] - '0');
        if (mag > (limit - d) / 10) {
            /* too many digits; the rest must still be digits to be a number */
            for (i++; i < n; i++)
                if (s[i] < '0' || s[i] > '9')
                    return NUM_NOT_INTEGER;
            return NUM_OUT_OF_RANGE;
        }
        mag = mag * 10 + d;
    }
    if (neg) {
        int64_t v = mag == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)mag;
        if (v < lo || v > hi)
            return NUM_OUT_OF_RANGE;
        *out = v;
        return NUM_OK;
    }
    if ((int64_t)mag < lo || (int64_t)mag > hi)
        return NUM_OUT_OF_RANGE;
    *out = (int64_t)mag;
    return NUM_OK;
}

const char *number_problem(int r, const char *s, size_t n, int64_t lo, int64_t hi, char *buf, size_t cap)
{
    char range[96];
    const char *note = "";
    if (lo == INT64_MIN && hi == INT64_MAX)
        snprintf(range, sizeof range, "an integer");
    else if (hi == INT64_MAX && lo == 0)
        snprintf(range, sizeof range, "a non-negative integer");
    else if (hi == INT64_MAX && lo == 1)
        snprintf(range, sizeof range, "a positive integer");
    else if (hi == INT64_MAX)
        snprintf(range, sizeof range, "an integer of at least %" PRId64, lo);
    else
        snprintf(range, sizeof range, "an integer in [%" PRId64 ", %" PRId64 "]", lo, hi);
    /* say what is wrong with text that looks like a number at first sight */
    if (r == NUM_NOT_INTEGER && n > 0) {
        if (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t')
            note = " (no blanks before or after it)";
        else if (s[0] == '+')
            note = " (no '+' sign)";
    }
    if (r == NUM_OUT_OF_RANGE && lo == INT64_MIN && hi == INT64_MAX)
        snprintf(buf, cap, "out of range (beyond 64-bit integers)");
    else
        snprintf(buf, cap, "%sexpected %s%s", r == NUM_OUT_OF_RANGE ? "out of range: " : "", range, note);
    return buf;
}

int option_number(const char *cmd, const char *opt, const char *val, int64_t lo, int64_t hi, int64_t *out)
{
    char why[160];
    size_t n = strlen(val);
    int r = parse_number(val, n, lo, hi, out);
    if (r == NUM_OK)
        return 0;
    return bad_value(cmd, opt, val, number_problem(r, val, n, lo, hi, why, sizeof why));
}

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void print_version(void)
{
    unsigned f = gale_features();
    printf("gale %s\n", GALE_VERSION_STRING);
    printf("libgale %s (backends: cpu%s%s; CUDA devices: %d)\n", gale_version_string(),
           (f & GALE_FEATURE_CUDA) ? ", cuda" : "", (f & GALE_FEATURE_DPX) ? " (DPX)" : "",
           gale_cuda_device_count());
    printf("htslib %s\n", hts_version());
    printf("MPI: %s\n", ranks_library() ? ranks_library() : "none (built without it: meson option -Dmpi)");
}

void *grow_array(void *p, size_t *cap, size_t size, size_t first)
{
    size_t ncap = *cap ? 2 * *cap : first;
    void *np = realloc(p, ncap * size);
    if (np)
        *cap = ncap;
    return np;
}

int stdout_status(void)
{
    return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_FAIL;
}

/* ------------------------------------------------------------------ */
/* Common options                                                      */
/* ------------------------------------------------------------------ */

void common_opts_init(common_opts *o, int64_t batch_size)
{
    o->backend = GALE_BACKEND_AUTO;
    o->threads = 0;
    o->device = 0;
    o->device_set = 0;
    o->n_devices = 0;
    o->device_memory = 0;
    o->batch_size = batch_size;
    o->quiet = 0;
    o->output = NULL;
}

/* Help rows: each option padded to width, then its text; a text's second
 * line goes under its first. */
static void help_rows(FILE *out, int width, const char *const (*rows)[3], size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        fprintf(out, "  %-*s%s\n", width, rows[i][0], rows[i][1]);
        if (rows[i][2])
            fprintf(out, "  %*s%s\n", width, "", rows[i][2]);
    }
}

void usage_backend_opts(FILE *out, int width)
{
    static const char *const rows[][3] = {
        {"--backend B", "auto, cpu or cuda (default auto: cuda when a GPU is", "usable, else cpu)"},
        {"--threads N", "CPU worker threads, 0.." CLI_STR(GALE_THREADS_MAX) "; 0 = one per core (default 0)", NULL},
        {"--device N", "CUDA device index, one of those present (default 0;",
         "under MPI: the rank on its node modulo the devices);"},
        {"", "N,M,... or all: those devices in one run, each batch", "split across them;"},
        {"", "the cpu backend has no device and ignores it", NULL},
        {"--device-memory S", "device memory the GPU may take, bytes or with K, M, G",
         "(binary); default: half the free memory, at most 8G"},
    };
    help_rows(out, width, rows, sizeof rows / sizeof rows[0]);
}

void usage_output_opts(FILE *out, int width)
{
    static const char *const rows[][3] = {
        {"-o, --output FILE", "write results to FILE (default stdout); a regular FILE",
         "is replaced only when the whole run succeeds; a link,"},
        {"", "FIFO or device is written through, never replaced;", "a directory is refused"},
        {"-q, --quiet", "no progress bar (drawn when stderr is a terminal),", "no closing summary on stderr"},
        {"-h, --help", "show this help", NULL},
        {"--version", "show versions", NULL},
    };
    help_rows(out, width, rows, sizeof rows / sizeof rows[0]);
    fprintf(out, "\n"
        "Exit status: 0 success, 1 bad input or run failure, 2 usage error.\n");
}

/* --device N, N,M,... or all into o; -1 to go on, else an exit status (a usage error).
 * Whether the devices exist is known once the backend is (start_context). */
int device_option(const char *cmd, const char *arg, common_opts *o)
{
    int64_t v;
    o->device_set = 1;
    o->n_devices = 0;
    if (strcmp(arg, "all") == 0) {
        o->n_devices = GALE_DEVICES_ALL;
        return -1;
    }
    if (!strchr(arg, ',')) {
        if (option_number(cmd, "--device", arg, 0, INT_MAX, &v) != 0)
            return EXIT_USAGE;
        o->device = v;
        return -1;
    } else {
        const char *p = arg;
        for (;;) {
            const char *comma = strchr(p, ',');
            const size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char one[32];
            if (o->n_devices == CLI_MAX_DEVICES)
                return bad_value(cmd, "--device", arg, "at most " CLI_STR(CLI_MAX_DEVICES) " devices");
            if (len == 0 || len >= sizeof one)
                return bad_value(cmd, "--device", arg, "expected N, a list N,M,... of device indices, or all");
            memcpy(one, p, len);
            one[len] = 0;
            if (parse_number(one, len, 0, INT_MAX, &v) != NUM_OK)
                return bad_value(cmd, "--device", arg, "expected N, a list N,M,... of device indices, or all");
            o->devices[o->n_devices++] = (int)v;
            if (!comma)
                return -1;
            p = comma + 1;
        }
    }
}

#define NOT_COMMON (-2)

/* Handles getopt's answer c when it is a common option (or a getopt error) of
 * command cmd. Returns -1 to go on, NOT_COMMON when c is the command's own,
 * else an exit status. */
static int parse_common_opt(int c, const char *cmd, void (*usage)(FILE *), char **argv, common_opts *o)
{
    int64_t v;
    switch (c) {
    case OPT_BACKEND:
        if (strcmp(optarg, "auto") == 0) o->backend = GALE_BACKEND_AUTO;
        else if (strcmp(optarg, "cpu") == 0) o->backend = GALE_BACKEND_CPU;
        else if (strcmp(optarg, "cuda") == 0) o->backend = GALE_BACKEND_CUDA;
        else return bad_value(cmd, "--backend", optarg, "expected auto, cpu or cuda");
        return -1;
    case OPT_THREADS:
        if (option_number(cmd, "--threads", optarg, 0, GALE_THREADS_MAX, &v) != 0)
            return EXIT_USAGE;
        o->threads = v;
        return -1;
    case OPT_DEVICE:
        return device_option(cmd, optarg, o);
    case OPT_DEVICE_MEMORY: {
        /* a size in bytes, or with a binary suffix K, M, G or T; at least 1M (the library's floor) */
        char *end = NULL;
        unsigned long long n;
        int shift = 0;
        errno = 0;
        n = strtoull(optarg, &end, 10);
        if (end && *end) {
            const char u = (char)toupper((unsigned char)*end);
            shift = u == 'K' ? 10 : u == 'M' ? 20 : u == 'G' ? 30 : u == 'T' ? 40 : -1;
            if (shift < 0 || end[1] != '\0') shift = -1;
        }
        if (!isdigit((unsigned char)optarg[0]) || errno || shift < 0 || n > (UINT64_MAX >> shift) ||
            (n << shift) < (1u << 20))
            return bad_value(cmd, "--device-memory", optarg, "expected a size of at least 1M (bytes, or with K, M, G, T)");
        o->device_memory = (uint64_t)n << shift;
        return -1;
    }
    case OPT_BATCH:
        if (option_number(cmd, "--batch-size", optarg, 1, INT32_MAX, &v) != 0)
            return EXIT_USAGE;
        o->batch_size = v;
        return -1;
    case 'o':
        if (*optarg == '\0')
            return bad_value(cmd, "-o", optarg, "empty file name");
        o->output = strcmp(optarg, "-") == 0 ? NULL : optarg;
        return -1;
    case 'q':
        o->quiet = 1;
        return -1;
    case 'h':
        usage(stdout);
        return stdout_status();
    case OPT_VERSION:
        print_version();
        return stdout_status();
    case ':':
        if (optopt && optopt < 256)
            return usage_error(cmd, "option -%c needs a value", optopt);
        return usage_error(cmd, "option %s needs a value", argv[optind - 1]);
    case '?':
        if (optopt && optopt < 256)
            return usage_error(cmd, "unknown option -%c", optopt);
        return usage_error(cmd, "unknown option %s", argv[optind - 1]);
    default:
        return NOT_COMMON;
    }
}

void opts_begin(void)
{
    opterr = 0;
    optind = 1;
}

int next_opt(int argc, char **argv, const char *shortopts, const struct option *longopts, const char *cmd,
             void (*usage)(FILE *), common_opts *com, int *status)
{
    int c, rc;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        rc = parse_common_opt(c, cmd, usage, argv, com);
        if (rc == NOT_COMMON)
            return c;
        if (rc >= 0) {
            *status = rc;
            return OPTS_EXIT;
        }
    }
    return OPTS_END;
}

/* ------------------------------------------------------------------ */
/* What the options set up                                             */
/* ------------------------------------------------------------------ */

/* The name of a GALE_BACKEND_* value, as --backend spells it. */
static const char *backend_name(int backend)
{
    return backend == GALE_BACKEND_CUDA ? "cuda" : backend == GALE_BACKEND_CPU ? "cpu" : "auto";
}

int start_context(const char *cmd, const common_opts *o, gale_ctx **ctx)
{
    gale_ctx_opts co;
    gale_status st;
    int ndev = gale_cuda_device_count();
    /* Without --device, each MPI rank takes a GPU of its node in turn: its
     * rank among the node's ranks, modulo the devices (0 for a single
     * process) */
    int64_t device = o->device_set || ndev <= 0 ? o->device : ranks_local() % ndev;
    /* The library would refuse a missing device as out of range too, but
     * without naming the option; the CPU backend (--backend cpu, or auto
     * without a GPU) ignores --device, as the library does. */
    int i;
    char device_text[64]; /* --device as given, for the library's refusal */
    for (i = 0; i < o->n_devices; i++) /* a list: every index must exist, as a single one */
        if (o->backend != GALE_BACKEND_CPU && ndev > 0 && o->devices[i] >= ndev) {
            device = o->devices[i];
            break;
        }
    if (o->backend != GALE_BACKEND_CPU && ndev > 0 && device >= ndev) {
        /* (a node of fewer GPUs than rank 0's: said by the rank that has it) */
        if (ranks_me() > 0)
            msg("rank %d: invalid value '%" PRId64 "' for --device: there %s %d CUDA device%s (0..%d)", ranks_me(),
                device, ndev == 1 ? "is" : "are", ndev, ndev == 1 ? "" : "s", ndev - 1);
        return usage_error(cmd, "invalid value '%" PRId64 "' for --device: there %s %d CUDA device%s (0..%d)",
                           device, ndev == 1 ? "is" : "are", ndev, ndev == 1 ? "" : "s", ndev - 1);
    }
    gale_ctx_opts_init(&co);
    co.backend = o->backend;
    co.device = (int)device;
    co.n_devices = o->n_devices;
    if (o->n_devices == GALE_DEVICES_ALL) {
        snprintf(device_text, sizeof device_text, "all");
    } else if (o->n_devices > 0) {
        size_t len = 0;
        for (i = 0; i < o->n_devices && len < sizeof device_text; i++)
            len += (size_t)snprintf(device_text + len, sizeof device_text - len, "%s%d", i ? "," : "", o->devices[i]);
    } else {
        snprintf(device_text, sizeof device_text, "%" PRId64, device);
    }
    co.devices = o->n_devices > 0 ? o->devices : NULL;
    co.threads = (int)o->threads;
    co.device_memory = o->device_memory;
    st = gale_ctx_create(ctx, &co);
    if (st == GALE_E_RANGE || st == GALE_E_INVALID)
        return usage_error(cmd, "the library refuses --backend %s --threads %" PRId64 " --device %s: %s",
                           backend_name(o->backend), o->threads, device_text, gale_last_error());
    if (st != GALE_OK) {
        char what[64];
        snprintf(what, sizeof what, "cannot start the %s backend", backend_name(o->backend));
        gale_msg(what, st);
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

int set_param_values(gale_batch *b, const param_value *p, int n, const char *cmd)
{
    int i;
    for (i = 0; i < n; i++) {
        gale_status st = gale_batch_set(b, p[i].id, p[i].v);
        if (st == GALE_E_RANGE) {
            const char *detail = gale_last_error();
            return usage_error(cmd, "invalid value %" PRId64 " for %s: out of range%s%s%s", p[i].v, p[i].name,
                               *detail ? " (" : "", detail, *detail ? ")" : "");
        }
        if (st != GALE_OK) {
            char what[64];
            snprintf(what, sizeof what, "cannot set %s", p[i].name);
            gale_msg(what, st);
            return EXIT_FAIL;
        }
    }
    return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Progress bar and summary                                            */
/* ------------------------------------------------------------------ */

void progress_init(progress *p, int quiet)
{
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->quiet = quiet;
    p->shown = 0;
    p->start = now_s();
    p->last = 0.0;
}

/* Whether to redraw now: only after half a second (a short run shows no
 * bar), at most ten times a second. */
static int progress_due(progress *p)
{
    double t;
    if (!p->enabled)
        return 0;
    t = now_s();
    if (t - p->start < 0.5 || t - p->last < 0.1)
        return 0;
    p->last = t;
    return 1;
}

void progress_bar(progress *p, double frac, const char *fmt, ...)
{
    enum { WIDTH = 30 };
    char bar[WIDTH + 1];
    va_list ap;
    int i, fill;
    if (!progress_due(p))
        return;
    fprintf(stderr, "\r\033[K%s: ", prog);
    if (frac >= 0.0) {
        if (frac > 1.0)
            frac = 1.0;
        fill = (int)(frac * WIDTH + 0.5);
        for (i = 0; i < WIDTH; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[WIDTH] = '\0';
        fprintf(stderr, "[%s] %3d%%  ", bar, (int)(frac * 100.0));
    }
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "  %.1f s", now_s() - p->start);
    fflush(stderr);
    p->shown = 1;
}

void progress_clear(progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = 0;
    }
}

int progress_poll_ms(const progress *p)
{
    return p->enabled ? 100 : -1;
}

void run_totals_add(run_totals *t, const gale_batch *b)
{
    gale_stats s;
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    if (gale_batch_stats(b, &s) == GALE_OK) {
        t->cells += s.cells;
        t->rescued += s.rescued;
        t->kernel_ns += s.kernel_ns;
    }
    {
        gale_device_stats d[CLI_MAX_DEVICES];
        size_t n = 0, i;
        d[0].size = sizeof d[0];
        if (gale_batch_device_stats(b, d, CLI_MAX_DEVICES, &n) == GALE_OK)
            for (i = 0; i < n && i < CLI_MAX_DEVICES; i++)
                t->device_kernel_ns[i] += d[i].kernel_ns;
    }
}

void print_summary(const progress *p, const char *cmd, gale_ctx *ctx, const run_totals *t, const char *kind)
{
    char where[160], kernels[256] = "";
    int backend = GALE_BACKEND_CPU, threads = 0;
    if (p->quiet)
        return;
    gale_ctx_backend(ctx, &backend);
    if (backend == GALE_BACKEND_CUDA) {
        int dev[16];
        size_t n = 0, i, len;
        gale_ctx_devices(ctx, dev, sizeof dev / sizeof dev[0], &n);
        len = (size_t)snprintf(where, sizeof where, "cuda (device%s", n == 1 ? "" : "s");
        for (i = 0; i < n && i < sizeof dev / sizeof dev[0] && len < sizeof where; i++)
            len += (size_t)snprintf(where + len, sizeof where - len, "%s%d", i ? ", " : " ", dev[i]);
        if (len < sizeof where)
            snprintf(where + len, sizeof where - len, ")");
        /* the kernels' share of the wall time: what the GPU itself took (rank 0's under MPI);
         * with several devices, each one's, which differ by how evenly the batches split */
        len = (size_t)snprintf(kernels, sizeof kernels, ", kernels %.2f s%s", (double)t->kernel_ns / 1e9,
                               ranks_n() > 1 ? " on rank 0" : "");
        for (i = 0; n > 1 && i < n && i < CLI_MAX_DEVICES && len < sizeof kernels; i++)
            len += (size_t)snprintf(kernels + len, sizeof kernels - len, "%s%.2f s%s", i ? ", " : " (per device: ",
                                    (double)t->device_kernel_ns[i] / 1e9, i + 1 == n ? ")" : "");
    } else {
        gale_ctx_threads(ctx, &threads);
        snprintf(where, sizeof where, "cpu (%d thread%s)", threads, threads == 1 ? "" : "s");
    }
    if (ranks_n() > 1) /* rescued and cells: of every rank (ranks_totals) */
        msg("%s: %" PRIu64 " pair%s in %.2f s, %d ranks, backend %s on rank 0, %" PRIu64 " rescued, %" PRIu64
            " %s cells%s", cmd, t->pairs, t->pairs == 1 ? "" : "s", now_s() - p->start, ranks_n(), where, t->rescued,
            t->cells, kind, kernels);
    else
        msg("%s: %" PRIu64 " pair%s in %.2f s, backend %s, %" PRIu64 " rescued, %" PRIu64 " %s cells%s", cmd,
            t->pairs, t->pairs == 1 ? "" : "s", now_s() - p->start, where, t->rescued, t->cells, kind, kernels);
}
