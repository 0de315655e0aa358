/*
 * gale - command-line front end of the gale library.
 *
 *   gale xdrop [options] FILE
 *   gale wfa [options] PATTERNS TEXTS | PAIRS.seq
 *
 * xdrop reads seed-extension tasks in LOGAN's demo format (plain or gzipped,
 * '-' for stdin), runs them through the public gale API (include/gale.h) and
 * writes one TSV line per pair, in input order. The whole input is read and
 * validated before anything is computed or written: a malformed line fails the
 * run without a single result line.
 *
 * wfa reads pattern/text pairs from two FASTA/FASTQ files or a .seq file and
 * streams them through bounded batches (see the wfa section), writing TSV, SAM
 * or PAF in input order.
 *
 * See doc/cli.md. Only the public API (gale.h) and htslib are used.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <htslib/bgzf.h>
#include <htslib/hts.h>
#include <htslib/khash.h>
#include <htslib/kstring.h>

#include "gale.h"

#define EXIT_OK    0
#define EXIT_FAIL  1
#define EXIT_USAGE 2

#define DEFAULT_K          17
#define DEFAULT_X          100
#define DEFAULT_MATCH      1
#define DEFAULT_MISMATCH   (-1)
#define DEFAULT_GAP        (-1)
#define DEFAULT_BATCH_SIZE 65536

static const char *prog = "gale";

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

static void msg(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* A failed gale call: "gale: WHAT: STATUS (DETAIL)". */
static void gale_msg(const char *what, gale_status st)
{
    const char *detail = gale_last_error();
    if (detail && *detail)
        msg("%s: %s (%s)", what, gale_status_string(st), detail);
    else
        msg("%s: %s", what, gale_status_string(st));
}

/* ------------------------------------------------------------------ */
/* Usage                                                               */
/* ------------------------------------------------------------------ */

static void usage_main(FILE *out)
{
    fprintf(out,
        "Usage: gale <command> [options]\n"
        "\n"
        "Commands:\n"
        "  xdrop    gapped X-drop seed extension (SeqAn 2.4 semantics) of pairs in\n"
        "           LOGAN's demo format\n"
        "  wfa      wavefront alignment (gap-affine, two-piece or edit distance; WFA2-lib\n"
        "           scores) of pairs from FASTA/FASTQ files or a .seq file\n"
        "\n"
        "Options:\n"
        "  -h, --help     show this help\n"
        "  --version      show the versions of gale, libgale and htslib\n"
        "\n"
        "'gale xdrop --help' and 'gale wfa --help' describe the options of each\n"
        "command. Manual: doc/cli.md.\n");
}

static void usage_xdrop(FILE *out)
{
    fprintf(out,
        "Usage: gale xdrop [options] FILE\n"
        "\n"
        "Extends the seed of each pair of FILE (plain or gzip/bgzf; '-' = stdin) with\n"
        "gapped X-drop. Input lines: seqV TAB posV TAB seqH TAB posH TAB strand\n"
        "(strand n, or c: seqH is reverse complemented and posH becomes\n"
        "len(seqH) - posH - k, as BELLA does). Output, one line per pair in input order:\n"
        "index score_left score_right score begH endH begV endV (TAB-separated,\n"
        "0-based, end exclusive; for strand c, H coordinates are on the reverse\n"
        "complement of seqH).\n"
        "\n"
        "Options:\n"
        "  -k, --seed-length N  seed length k (default %d)\n"
        "  -x, --xdrop N        X-drop value X (default %d)\n"
        "  --match N            match score (default %d)\n"
        "  --mismatch N         mismatch score (default %d)\n"
        "  --gap N              linear gap score, negative (default %d)\n"
        "  --n-mismatch         N (and other IUPAC codes) mismatch everything, N\n"
        "                       included (default: SeqAn Dna5, N matches N)\n"
        "  --backend B          auto, cpu or cuda (default auto: cuda when a GPU is\n"
        "                       usable, else cpu)\n"
        "  --threads N          CPU worker threads, 0 = one per core (default 0)\n"
        "  --device N           CUDA device index (default 0)\n"
        "  --batch-size N       pairs per gale batch (default %d)\n"
        "  -o, --output FILE    write results to FILE (default stdout); FILE is\n"
        "                       replaced only when the whole run succeeds\n"
        "  -q, --quiet          no progress bar\n"
        "  -h, --help           show this help\n"
        "  --version            show versions\n"
        "\n"
        "Exit status: 0 success, 1 bad input or run failure, 2 usage error.\n",
        DEFAULT_K, DEFAULT_X, DEFAULT_MATCH, DEFAULT_MISMATCH, DEFAULT_GAP,
        DEFAULT_BATCH_SIZE);
}

static void print_version(void)
{
    unsigned f = gale_features();
    printf("gale %d.%d.%d\n", GALE_VERSION_MAJOR, GALE_VERSION_MINOR, GALE_VERSION_PATCH);
    printf("libgale %s (backends: cpu%s%s; CUDA devices: %d)\n", gale_version_string(),
           (f & GALE_FEATURE_CUDA) ? ", cuda" : "", (f & GALE_FEATURE_DPX) ? " (DPX)" : "",
           gale_cuda_device_count());
    printf("htslib %s\n", hts_version());
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */
/* ------------------------------------------------------------------ */

/* Strict signed decimal integer: optional sign, digits, nothing else. */
static int parse_int64(const char *s, int64_t *out)
{
    const char *p = s;
    char *end = NULL;
    long long v;
    if (*p == '+' || *p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno == ERANGE || *end != '\0')
        return -1;
    *out = (int64_t)v;
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Progress bar (stderr, only when it is a terminal)                   */
/* ------------------------------------------------------------------ */

typedef struct progress {
    int enabled;
    int shown;
    double start;
    double last;
} progress;

static void progress_init(progress *p, int quiet)
{
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->shown = 0;
    p->start = now_s();
    p->last = 0.0;
}

/* Only after half a second, at most ten times a second. */
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

static void progress_reading(progress *p, const char *name, uint64_t pairs)
{
    if (!progress_due(p))
        return;
    fprintf(stderr, "\r\033[K%s: reading %s: %" PRIu64 " pairs  %.1f s", prog, name, pairs,
            now_s() - p->start);
    fflush(stderr);
    p->shown = 1;
}

static void progress_running(progress *p, uint64_t done, uint64_t total)
{
    enum { WIDTH = 30 };
    char bar[WIDTH + 1];
    int i, fill;
    double frac;
    if (!progress_due(p))
        return;
    frac = total ? (double)done / (double)total : 1.0;
    fill = (int)(frac * WIDTH + 0.5);
    for (i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(stderr, "\r\033[K%s: [%s] %3d%%  %" PRIu64 "/%" PRIu64 " pairs  %.1f s", prog, bar,
            (int)(frac * 100.0), done, total, now_s() - p->start);
    fflush(stderr);
    p->shown = 1;
}

static void progress_clear(progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = 0;
    }
}

/* ------------------------------------------------------------------ */
/* Reverse complement                                                  */
/* ------------------------------------------------------------------ */

/* Complement of every byte gale accepts (ACGT, U, N and the IUPAC codes, in
 * either case; case is kept); 0 for any other byte. U complements to A. */
static unsigned char comp_table[256];

static void comp_table_init(void)
{
    static const char from[] = "ACGTUNRYSWKMBDHV";
    static const char to[]   = "TGCAANYRSWMKVHDB";
    size_t i;
    memset(comp_table, 0, sizeof comp_table);
    for (i = 0; from[i]; i++) {
        unsigned char f = (unsigned char)from[i], t = (unsigned char)to[i];
        comp_table[f] = t;
        comp_table[f + ('a' - 'A')] = (unsigned char)(t + ('a' - 'A'));
    }
}

/* Writes the reverse complement of s[0..n) to out. Returns -1 and the
 * offending position (in s) on a byte outside the alphabet. */
static int revcomp(const char *s, size_t n, char *out, size_t *bad)
{
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char c = comp_table[(unsigned char)s[i]];
        if (!c) {
            *bad = i;
            return -1;
        }
        out[n - 1 - i] = (char)c;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

/* The options every command has. */
typedef struct common_opts {
    int backend;
    int64_t threads, device, batch_size;
    int quiet;
    const char *output; /* NULL = stdout */
} common_opts;

/* getopt codes of the common long options; each command numbers its own from
 * a base of its own above these. */
enum {
    OPT_BACKEND = 256,
    OPT_THREADS,
    OPT_DEVICE,
    OPT_BATCH,
    OPT_VERSION
};

#define COMMON_LONGOPTS \
        {"backend",     required_argument, NULL, OPT_BACKEND}, \
        {"threads",     required_argument, NULL, OPT_THREADS}, \
        {"device",      required_argument, NULL, OPT_DEVICE}, \
        {"batch-size",  required_argument, NULL, OPT_BATCH}, \
        {"output",      required_argument, NULL, 'o'}, \
        {"quiet",       no_argument,       NULL, 'q'}, \
        {"help",        no_argument,       NULL, 'h'}, \
        {"version",     no_argument,       NULL, OPT_VERSION}

/* A usage error of command cmd: the message, then where to read more. */
static int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fprintf(stderr, "Try 'gale %s --help'.\n", cmd);
    return EXIT_USAGE;
}

static int bad_value(const char *cmd, const char *opt, const char *val, const char *why)
{
    return usage_error(cmd, "invalid value '%s' for %s: %s", val, opt, why);
}

static void common_opts_init(common_opts *o, int64_t batch_size)
{
    o->backend = GALE_BACKEND_AUTO;
    o->threads = 0;
    o->device = 0;
    o->batch_size = batch_size;
    o->quiet = 0;
    o->output = NULL;
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
        if (parse_int64(optarg, &v) != 0 || v < 0 || v > 65536)
            return bad_value(cmd, "--threads", optarg, "expected an integer in [0, 65536]");
        o->threads = v;
        return -1;
    case OPT_DEVICE:
        if (parse_int64(optarg, &v) != 0 || v < 0 || v > INT_MAX)
            return bad_value(cmd, "--device", optarg, "expected a non-negative integer");
        o->device = v;
        return -1;
    case OPT_BATCH:
        if (parse_int64(optarg, &v) != 0 || v < 1 || v > INT32_MAX)
            return bad_value(cmd, "--batch-size", optarg, "expected an integer in [1, 2147483647]");
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
        return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_FAIL;
    case OPT_VERSION:
        print_version();
        return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_FAIL;
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

typedef struct xdrop_opts {
    int64_t k, xdrop, match, mismatch, gap;
    int n_mismatch;
    common_opts com;
    const char *input;
} xdrop_opts;

enum {
    OPT_MATCH = 270,
    OPT_MISMATCH,
    OPT_GAP,
    OPT_NMISMATCH
};

/* Returns -1 to go on, else an exit status. */
static int parse_xdrop_args(int argc, char **argv, xdrop_opts *o)
{
    static const struct option longopts[] = {
        {"seed-length", required_argument, NULL, 'k'},
        {"xdrop",       required_argument, NULL, 'x'},
        {"match",       required_argument, NULL, OPT_MATCH},
        {"mismatch",    required_argument, NULL, OPT_MISMATCH},
        {"gap",         required_argument, NULL, OPT_GAP},
        {"n-mismatch",  no_argument,       NULL, OPT_NMISMATCH},
        COMMON_LONGOPTS,
        {NULL, 0, NULL, 0}
    };
    int c, longindex, rc;

    o->k = DEFAULT_K;
    o->xdrop = DEFAULT_X;
    o->match = DEFAULT_MATCH;
    o->mismatch = DEFAULT_MISMATCH;
    o->gap = DEFAULT_GAP;
    o->n_mismatch = 0;
    common_opts_init(&o->com, DEFAULT_BATCH_SIZE);
    o->input = NULL;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":k:x:o:qh", longopts, &longindex)) != -1) {
        int64_t v;
        const char *name;
        rc = parse_common_opt(c, "xdrop", usage_xdrop, argv, &o->com);
        if (rc != NOT_COMMON) {
            if (rc >= 0)
                return rc;
            continue;
        }
        switch (c) {
        case 'k':
            if (parse_int64(optarg, &v) != 0 || v < 1 || v > INT32_MAX)
                return bad_value("xdrop", "-k", optarg, "expected an integer in [1, 2147483647]");
            o->k = v;
            break;
        case 'x':
        case OPT_MATCH:
        case OPT_MISMATCH:
        case OPT_GAP:
            name = c == 'x' ? "-x" : c == OPT_MATCH ? "--match" : c == OPT_MISMATCH ? "--mismatch" : "--gap";
            if (parse_int64(optarg, &v) != 0)
                return bad_value("xdrop", name, optarg, "expected an integer");
            /* the library checks the bounds (gale_batch_set) */
            if (c == 'x') o->xdrop = v;
            else if (c == OPT_MATCH) o->match = v;
            else if (c == OPT_MISMATCH) o->mismatch = v;
            else o->gap = v;
            break;
        case OPT_NMISMATCH:
            o->n_mismatch = 1;
            break;
        }
    }
    if (optind >= argc)
        return usage_error("xdrop", "xdrop: missing input FILE ('-' for stdin)");
    if (argc - optind > 1)
        return usage_error("xdrop", "xdrop: expected one input FILE, got %d arguments", argc - optind);
    o->input = argv[optind];
    return -1;
}

/* ------------------------------------------------------------------ */
/* Batches                                                             */
/* ------------------------------------------------------------------ */

typedef struct batch_list {
    gale_batch **b;
    size_t n, cap;
} batch_list;

typedef struct param_value {
    int id;
    int64_t v;
    const char *name;    /* the option that gave it, for messages */
} param_value;

/* Sets p[0..n) on b; on failure prints a message and returns the exit status
 * (2, with a hint to cmd's help, for a value out of the library's bounds). */
static int set_param_values(gale_batch *b, const param_value *p, int n, const char *cmd)
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

/* Sets every parameter; on failure prints a message and returns the exit
 * status (2 for a value out of the library's bounds). */
static int set_params(gale_batch *b, const xdrop_opts *o)
{
    param_value p[6];
    p[0].id = GALE_P_MATCH;    p[0].v = o->match;    p[0].name = "--match";
    p[1].id = GALE_P_MISMATCH; p[1].v = o->mismatch; p[1].name = "--mismatch";
    p[2].id = GALE_P_GAP;      p[2].v = o->gap;      p[2].name = "--gap";
    p[3].id = GALE_P_XDROP;    p[3].v = o->xdrop;    p[3].name = "-x";
    p[4].id = GALE_P_N_POLICY; p[4].v = o->n_mismatch ? GALE_N_MISMATCH : GALE_N_DNA5;
    p[4].name = "--n-mismatch";
    p[5].id = GALE_P_DIRECTION; p[5].v = GALE_DIR_BOTH; p[5].name = "direction";
    return set_param_values(b, p, 6, "xdrop");
}

static int new_batch(gale_ctx *ctx, const xdrop_opts *o, batch_list *bl)
{
    gale_batch *b = NULL;
    gale_status st;
    int rc;
    if (bl->n == bl->cap) {
        size_t cap = bl->cap ? 2 * bl->cap : 16;
        gale_batch **nb = realloc(bl->b, cap * sizeof *nb);
        if (!nb) {
            msg("out of memory");
            return EXIT_FAIL;
        }
        bl->b = nb;
        bl->cap = cap;
    }
    st = gale_batch_create(ctx, GALE_XDROP, &b);
    if (st != GALE_OK) {
        gale_msg("cannot create a batch", st);
        return EXIT_FAIL;
    }
    bl->b[bl->n++] = b;
    rc = set_params(b, o);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Input                                                               */
/* ------------------------------------------------------------------ */

/* Parses a position field: a non-negative decimal integer. */
static int parse_pos(const char *s, size_t n, int64_t *out)
{
    int64_t v = 0;
    size_t i;
    if (n == 0)
        return -1;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        if (v > (INT64_MAX - (s[i] - '0')) / 10)
            return -2;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

static void quote_field(char *dst, size_t cap, const char *s, size_t n)
{
    /* a short printable rendering of a field for messages */
    size_t i, j = 0;
    for (i = 0; i < n && j + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 32 && c < 127 && c != '\\') {
            dst[j++] = (char)c;
        } else {
            j += (size_t)snprintf(dst + j, cap - j, "\\x%02x", c);
        }
    }
    if (i < n && j + 4 <= cap) {
        memcpy(dst + j, "...", 3);
        j += 3;
    }
    dst[j < cap ? j : cap - 1] = '\0';
}

typedef struct reader {
    const char *name;      /* for messages */
    uint64_t lineno;
    char *rc_buf;          /* reverse complement of seqH */
    size_t rc_cap;
} reader;

#define LINE_ERR(rd, ...) do { \
        fprintf(stderr, "%s: %s:%" PRIu64 ": ", prog, (rd)->name, (rd)->lineno); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
    } while (0)

/* Parses one line into a task (h/v point into line or rd->rc_buf).
 * Returns 0 or EXIT_FAIL after printing a message. */
static int parse_line(reader *rd, char *s, size_t len, int64_t k, gale_task *t)
{
    const char *f[5];
    size_t fl[5];
    size_t nf = 0, i, start = 0;
    int64_t posv, posh;
    size_t lenv, lenh;
    char q[64];
    int r;

    if (len == 0) {
        LINE_ERR(rd, "empty line (expected 5 TAB-separated fields: seqV posV seqH posH strand)");
        return EXIT_FAIL;
    }
    for (i = 0; i <= len; i++) {
        if (i == len || s[i] == '\t') {
            if (nf < 5) {
                f[nf] = s + start;
                fl[nf] = i - start;
            }
            nf++;
            start = i + 1;
        }
    }
    if (nf != 5) {
        LINE_ERR(rd, "expected 5 TAB-separated fields (seqV posV seqH posH strand), found %zu", nf);
        return EXIT_FAIL;
    }
    lenv = fl[0];
    lenh = fl[2];

    r = parse_pos(f[1], fl[1], &posv);
    if (r != 0) {
        quote_field(q, sizeof q, f[1], fl[1]);
        LINE_ERR(rd, "posV '%s' is %s", q, r == -2 ? "out of range" : "not a non-negative integer");
        return EXIT_FAIL;
    }
    r = parse_pos(f[3], fl[3], &posh);
    if (r != 0) {
        quote_field(q, sizeof q, f[3], fl[3]);
        LINE_ERR(rd, "posH '%s' is %s", q, r == -2 ? "out of range" : "not a non-negative integer");
        return EXIT_FAIL;
    }
    if (fl[4] != 1 || (f[4][0] != 'n' && f[4][0] != 'c')) {
        quote_field(q, sizeof q, f[4], fl[4]);
        LINE_ERR(rd, "strand must be 'n' or 'c', found '%s'", q);
        return EXIT_FAIL;
    }
    if (posv > (int64_t)lenv || k > (int64_t)lenv - posv) {
        LINE_ERR(rd, "seed [posV, posV+k) = [%" PRId64 ", %" PRIu64 ") runs past the end of seqV (length %zu)",
                 posv, (uint64_t)posv + (uint64_t)k, lenv);
        return EXIT_FAIL;
    }
    if (posh > (int64_t)lenh || k > (int64_t)lenh - posh) {
        LINE_ERR(rd, "seed [posH, posH+k) = [%" PRId64 ", %" PRIu64 ") runs past the end of seqH (length %zu)",
                 posh, (uint64_t)posh + (uint64_t)k, lenh);
        return EXIT_FAIL;
    }

    gale_task_init(t);
    t->v = f[0];
    t->v_len = (int64_t)lenv;
    t->v_begin = posv;
    t->v_end = posv + k;
    t->h_len = (int64_t)lenh;
    if (f[4][0] == 'c') {
        size_t bad = 0;
        if (lenh > rd->rc_cap) {
            size_t cap = lenh + lenh / 2 + 64;
            char *nb = realloc(rd->rc_buf, cap);
            if (!nb) {
                LINE_ERR(rd, "out of memory");
                return EXIT_FAIL;
            }
            rd->rc_buf = nb;
            rd->rc_cap = cap;
        }
        if (revcomp(f[2], lenh, rd->rc_buf, &bad) != 0) {
            unsigned char c = (unsigned char)f[2][bad];
            if (c >= 33 && c < 127)
                LINE_ERR(rd, "invalid base '%c' in seqH at position %zu (0-based)", c, bad);
            else
                LINE_ERR(rd, "invalid byte 0x%02x in seqH at position %zu (0-based)", c, bad);
            return EXIT_FAIL;
        }
        t->h = rd->rc_buf;
        /* BELLA's transform: the seed moves to the reverse complement */
        posh = (int64_t)lenh - posh - k;
    } else {
        t->h = f[2];
    }
    t->h_begin = posh;
    t->h_end = posh + k;
    return 0;
}

/* Reads the whole input into batches. Returns 0 or an exit status. */
static int read_input(const xdrop_opts *o, gale_ctx *ctx, batch_list *bl, progress *pg,
                      uint64_t *npairs)
{
    const char *display = strcmp(o->input, "-") == 0 ? "(stdin)" : o->input;
    BGZF *fp;
    kstring_t line = {0, 0, NULL};
    reader rd;
    size_t in_batch = 0;
    int r, rc = 0;

    rd.name = display;
    rd.lineno = 0;
    rd.rc_buf = NULL;
    rd.rc_cap = 0;
    *npairs = 0;

    errno = 0;
    fp = bgzf_open(o->input, "r");
    if (!fp) {
        msg("%s: cannot open: %s", display, errno ? strerror(errno) : "unknown error");
        return EXIT_FAIL;
    }

    /* the first batch exists already (parameters were checked on it) */
    in_batch = 0;
    while ((r = bgzf_getline(fp, '\n', &line)) >= 0) {
        gale_task t;
        gale_status st;
        size_t len = line.l;
        rd.lineno++;
        if (len > 0 && line.s[len - 1] == '\r')
            line.s[--len] = '\0';
        rc = parse_line(&rd, line.s, len, o->k, &t);
        if (rc != 0)
            break;
        t.user = *npairs;
        if (in_batch == (size_t)o->com.batch_size) {
            rc = new_batch(ctx, o, bl);
            if (rc != 0)
                break;
            in_batch = 0;
        }
        st = gale_batch_add(bl->b[bl->n - 1], &t);
        if (st != GALE_OK) {
            if (st == GALE_E_INPUT) {
                /* the library names the task by its index in the batch; the
                 * line number says more, so drop a leading "task N: " */
                const char *e = gale_last_error();
                if (strncmp(e, "task ", 5) == 0) {
                    const char *p = e + 5;
                    while (*p >= '0' && *p <= '9')
                        p++;
                    if (p > e + 5 && p[0] == ':' && p[1] == ' ')
                        e = p + 2;
                }
                LINE_ERR(&rd, "invalid pair: %s (h = %sseqH, v = seqV)", e,
                         t.h == rd.rc_buf ? "reverse-complemented " : "");
            } else {
                fprintf(stderr, "%s: %s:%" PRIu64 ": cannot add the pair: %s (%s)\n", prog, rd.name,
                        rd.lineno, gale_status_string(st), gale_last_error());
            }
            rc = EXIT_FAIL;
            break;
        }
        in_batch++;
        (*npairs)++;
        progress_reading(pg, display, *npairs);
    }
    if (rc == 0 && r < -1) {
        msg("%s: read error after line %" PRIu64 " (truncated or corrupt compressed input?)",
            display, rd.lineno);
        rc = EXIT_FAIL;
    }
    if (bgzf_close(fp) != 0 && rc == 0) {
        msg("%s: error while closing the input", display);
        rc = EXIT_FAIL;
    }
    free(line.s);
    free(rd.rc_buf);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* Creates the context the common options ask for. On failure prints a message
 * and returns EXIT_USAGE (a backend, device or thread count the library
 * refuses) or EXIT_FAIL. */
static int start_context(const common_opts *o, gale_ctx **ctx)
{
    gale_ctx_opts co;
    gale_status st;
    gale_ctx_opts_init(&co);
    co.backend = o->backend;
    co.device = (int)o->device;
    co.threads = (int)o->threads;
    st = gale_ctx_create(ctx, &co);
    if (st != GALE_OK) {
        const char *b = o->backend == GALE_BACKEND_CUDA ? "cuda" : o->backend == GALE_BACKEND_CPU ? "cpu" : "auto";
        char what[64];
        snprintf(what, sizeof what, "cannot start the %s backend", b);
        gale_msg(what, st);
        return (st == GALE_E_RANGE || st == GALE_E_INVALID) ? EXIT_USAGE : EXIT_FAIL;
    }
    return EXIT_OK;
}

static int write_results(const batch_list *bl, FILE *out, const char *outname)
{
    size_t i, j;
    uint64_t index = 0;
    for (i = 0; i < bl->n; i++) {
        size_t count = 0;
        gale_status st = gale_batch_count(bl->b[i], &count);
        if (st != GALE_OK) {
            gale_msg("cannot count results", st);
            return EXIT_FAIL;
        }
        for (j = 0; j < count; j++) {
            gale_result res;
            memset(&res, 0, sizeof res);
            res.size = sizeof res;
            st = gale_result_get(bl->b[i], j, &res);
            if (st != GALE_OK) {
                gale_msg("cannot read a result", st);
                return EXIT_FAIL;
            }
            if (res.user != index) {
                msg("internal error: result %" PRIu64 " came back as %" PRIu64, index, res.user);
                return EXIT_FAIL;
            }
            if (fprintf(out, "%" PRIu64 "\t%" PRId32 "\t%" PRId32 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
                        "\t%" PRId64 "\t%" PRId64 "\n", index, res.score_left, res.score_right,
                        res.score, res.h_begin, res.h_end, res.v_begin, res.v_end) < 0) {
                msg("%s: write error: %s", outname, strerror(errno));
                return EXIT_FAIL;
            }
            index++;
        }
    }
    if (fflush(out) != 0 || ferror(out)) {
        msg("%s: write error: %s", outname, strerror(errno));
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

/* -o FILE is written to a temporary FILE.tmp.XXXXXX next to it (output_open)
 * and renamed over FILE only when the whole run succeeded (output_close), so
 * that FILE is either untouched or complete. */
static FILE *output_open(const char *path, char **tmp_out)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    int fd;
    FILE *out;
    mode_t mask;
    *tmp_out = NULL;
    if (!tmp) {
        msg("out of memory");
        return NULL;
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp.XXXXXX", 12);
    fd = mkstemp(tmp);
    if (fd < 0) {
        msg("%s: cannot create a temporary file next to it: %s", path, strerror(errno));
        free(tmp);
        return NULL;
    }
    /* mkstemp creates the file 0600: give it the usual 0666 & ~umask */
    mask = umask(0);
    umask(mask);
    if (fchmod(fd, (mode_t)(0666 & ~mask)) != 0) {
        /* not fatal: the file stays private */
    }
    out = fdopen(fd, "w");
    if (!out) {
        msg("%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    *tmp_out = tmp;
    return out;
}

/* Closes what output_open opened and, when rc (the run's status so far) is
 * EXIT_OK, renames it to path; else removes it. Frees tmp; returns the
 * final status. */
static int output_close(FILE *out, char *tmp, const char *path, int rc)
{
    if (fclose(out) != 0 && rc == EXIT_OK) {
        msg("%s: write error: %s", path, strerror(errno));
        rc = EXIT_FAIL;
    }
    if (rc == EXIT_OK && rename(tmp, path) != 0) {
        msg("%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
        rc = EXIT_FAIL;
    }
    if (rc != EXIT_OK)
        unlink(tmp);
    free(tmp);
    return rc;
}

static int write_output_file(const batch_list *bl, const char *path)
{
    char *tmp;
    FILE *out = output_open(path, &tmp);
    if (!out)
        return EXIT_FAIL;
    return output_close(out, tmp, path, write_results(bl, out, path));
}

/* ------------------------------------------------------------------ */
/* xdrop                                                               */
/* ------------------------------------------------------------------ */

static int wait_all(const batch_list *bl, progress *pg, uint64_t total)
{
    size_t i, j;
    uint64_t done_before = 0;
    for (i = 0; i < bl->n; i++) {
        gale_status st;
        size_t count = 0;
        for (;;) {
            st = gale_poll(bl->b[i], pg->enabled ? 100 : -1);
            if (st != GALE_E_AGAIN)
                break;
            {
                uint64_t done = done_before;
                for (j = i + 1; j < bl->n; j++) {
                    size_t c = 0;
                    if (gale_poll(bl->b[j], 0) == GALE_OK && gale_batch_count(bl->b[j], &c) == GALE_OK)
                        done += c;
                }
                progress_running(pg, done, total);
            }
        }
        if (st != GALE_OK) {
            char what[80];
            progress_clear(pg);
            snprintf(what, sizeof what, "batch %zu of %zu failed", i + 1, bl->n);
            gale_msg(what, st);
            return EXIT_FAIL;
        }
        if (gale_batch_count(bl->b[i], &count) == GALE_OK)
            done_before += count;
        progress_running(pg, done_before, total);
    }
    return EXIT_OK;
}

static int cmd_xdrop(int argc, char **argv)
{
    xdrop_opts o;
    gale_ctx *ctx = NULL;
    batch_list bl = {NULL, 0, 0};
    progress pg;
    uint64_t npairs = 0;
    size_t i;
    gale_status st;
    int rc;

    rc = parse_xdrop_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    comp_table_init();
    progress_init(&pg, o.com.quiet);

    rc = start_context(&o.com, &ctx);
    if (rc != EXIT_OK)
        return rc;

    /* the first batch, also to check the scoring parameters before reading */
    rc = new_batch(ctx, &o, &bl);
    if (rc == 0)
        rc = read_input(&o, ctx, &bl, &pg, &npairs);

    /* submit everything only once the whole input is valid */
    for (i = 0; rc == 0 && i < bl.n; i++) {
        st = gale_submit(bl.b[i]);
        if (st != GALE_OK) {
            progress_clear(&pg);
            gale_msg("cannot submit a batch", st);
            rc = EXIT_FAIL;
        }
    }
    if (rc == 0)
        rc = wait_all(&bl, &pg, npairs);
    progress_clear(&pg);

    /* and write only once every result is there */
    if (rc == 0) {
        if (o.com.output)
            rc = write_output_file(&bl, o.com.output);
        else
            rc = write_results(&bl, stdout, "(stdout)");
    }

    if (rc == 0 && pg.enabled) {
        uint64_t cells = 0;
        int backend = 0;
        for (i = 0; i < bl.n; i++) {
            gale_stats s;
            memset(&s, 0, sizeof s);
            s.size = sizeof s;
            if (gale_batch_stats(bl.b[i], &s) == GALE_OK)
                cells += s.cells;
        }
        gale_ctx_backend(ctx, &backend);
        msg("%" PRIu64 " pairs, %" PRIu64 " DP cells, %.2f s (%s backend)", npairs, cells,
            now_s() - pg.start, backend == GALE_BACKEND_CUDA ? "cuda" : "cpu");
    }

    /* gale_ctx_destroy destroys the batches too */
    st = gale_ctx_destroy(ctx);
    if (st != GALE_OK && rc == 0) {
        gale_msg("cannot release the context", st);
        rc = EXIT_FAIL;
    }
    free(bl.b);
    return rc;
}

/* ================================================================== */
/* wfa: wavefront alignment of pairs                                   */
/* ================================================================== */

/* Pairs come from two FASTA/FASTQ files (record i of PATTERNS with record i
 * of TEXTS) or from one file in WFA2-lib's .seq format. They are streamed:
 * a batch is filled up to --batch-size pairs or --batch-bases bases, and two
 * batches take turns (one is aligned while the next is read), so memory stays
 * bounded whatever the input size. Results are written batch by batch, in
 * input order. SAM needs every reference in its header, before the first
 * record: its records go to an unlinked temporary file and are copied behind
 * the header at the end. */

#define WFA_DEFAULT_MISMATCH    4
#define WFA_DEFAULT_GAP_OPEN    6
#define WFA_DEFAULT_GAP_EXTEND  2
#define WFA_DEFAULT_BATCH_SIZE  65536
#define WFA_DEFAULT_BATCH_BASES ((int64_t)1 << 26)
#define SAM_MAX_QNAME 254

enum { FMT_TSV = 0, FMT_SAM, FMT_PAF };

typedef struct wfa_opts {
    int kind;                    /* GALE_WFA or GALE_EDIT */
    int64_t x, o, e, o2, e2;
    const char *penalty_opt;     /* first penalty option given (refused with --edit) */
    int have_o2, have_e2;
    int score_only, n_mismatch, coords;
    int ends_free;
    int64_t free_len[4];         /* pattern begin, pattern end, text begin, text end */
    int64_t memory_limit;        /* MiB; 0 = the library's default */
    common_opts com;
    int64_t batch_bases;
    int format;
    const char *in[2];
    int nin;                     /* 1: .seq file; 2: PATTERNS TEXTS */
} wfa_opts;

enum {
    OPT_W_MISMATCH = 300,
    OPT_W_GAP_OPEN,
    OPT_W_GAP_EXTEND,
    OPT_W_GAP_OPEN2,
    OPT_W_GAP_EXTEND2,
    OPT_W_EDIT,
    OPT_W_SCORE_ONLY,
    OPT_W_ENDS_FREE,
    OPT_W_NMISMATCH,
    OPT_W_MEMORY,
    OPT_W_COORDS,
    OPT_W_BATCH_BASES
};

static void usage_wfa(FILE *out)
{
    fprintf(out,
        "Usage: gale wfa [options] PATTERNS TEXTS\n"
        "       gale wfa [options] PAIRS.seq\n"
        "\n"
        "Aligns each pattern to its text end to end (or ends-free) with the wavefront\n"
        "algorithm, gap-affine penalties as WFA2-lib (match 0). PATTERNS and TEXTS are\n"
        "FASTA or FASTQ files (plain or gzip/bgzf; '-' = stdin for one of them): record\n"
        "i of PATTERNS is aligned to record i of TEXTS. A single file is read in\n"
        "WFA2-lib's .seq format: a '>PATTERN' line, then a '<TEXT' line, per pair.\n"
        "The pattern is the query (SAM's read), the text the reference.\n"
        "\n"
        "Output (stdout or -o FILE), one line per pair in input order:\n"
        "  tsv (default)  index score cigar (TAB-separated; index 0-based; score is\n"
        "                 minus the penalty, or the edit distance with --edit; the\n"
        "                 CIGAR uses = X I D, I consuming the pattern only; '*' when\n"
        "                 empty or not computed)\n"
        "  sam            SAM with the texts as references\n"
        "  paf            PAF (query = pattern) with cg:Z: CIGAR, NM:i and AS:i\n"
        "\n"
        "Options:\n"
        "  --mismatch N       mismatch penalty x (default %d)\n"
        "  --gap-open N       gap-open penalty o (default %d)\n"
        "  --gap-extend N     gap-extend penalty e (default %d); a gap of length L\n"
        "                     costs o + L*e\n"
        "  --gap-open2 N      with --gap-extend2: two-piece gap-affine, a gap costs\n"
        "  --gap-extend2 N    min(o + L*e, o2 + L*e2) (default: one piece)\n"
        "  --edit             edit (Levenshtein) distance instead of penalties\n"
        "  --score-only       no CIGAR: TSV prints '*' (not with sam or paf)\n"
        "  --ends-free PB,PE,TB,TE\n"
        "                     ends-free: up to PB/PE leading/trailing bases of the\n"
        "                     pattern and TB/TE of the text may stay unaligned at no\n"
        "                     cost (default 0,0,0,0: end to end)\n"
        "  --n-mismatch       N (and other IUPAC codes) mismatch everything, N\n"
        "                     included (default: N matches N, as WFA2-lib on bytes)\n"
        "  --memory-limit MIB memory of one alignment's backtrace above which it is\n"
        "                     recomputed in low-memory (BiWFA) mode (default: the\n"
        "                     library's, 256)\n"
        "  -F, --format F     tsv, sam or paf (default tsv)\n"
        "  --coords           tsv: add pattern_begin pattern_end text_begin text_end\n"
        "                     (0-based, end exclusive: the aligned part)\n"
        "  --backend B        auto, cpu or cuda (default auto: cuda when a GPU is\n"
        "                     usable, else cpu)\n"
        "  --threads N        CPU worker threads, 0 = one per core (default 0)\n"
        "  --device N         CUDA device index (default 0)\n"
        "  --batch-size N     at most N pairs per gale batch (default %d)\n"
        "  --batch-bases N    close a batch once it holds N bases (default %" PRId64 ")\n"
        "  -o, --output FILE  write results to FILE (default stdout); FILE is\n"
        "                     replaced only when the whole run succeeds\n"
        "  -q, --quiet        no progress bar\n"
        "  -h, --help         show this help\n"
        "  --version          show versions\n"
        "\n"
        "Exit status: 0 success, 1 bad input or run failure, 2 usage error.\n",
        WFA_DEFAULT_MISMATCH, WFA_DEFAULT_GAP_OPEN, WFA_DEFAULT_GAP_EXTEND,
        WFA_DEFAULT_BATCH_SIZE, WFA_DEFAULT_BATCH_BASES);
}

/* --ends-free PB,PE,TB,TE: four non-negative integers up to 2^31-1. */
static int parse_ends_free(const char *s, int64_t out[4])
{
    const char *p = s;
    int i;
    for (i = 0; i < 4; i++) {
        int64_t v = 0;
        const char *start = p;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (*p - '0');
            if (v > INT32_MAX)
                return -1;
            p++;
        }
        if (p == start)
            return -1;
        out[i] = v;
        if (i < 3) {
            if (*p != ',')
                return -1;
            p++;
        }
    }
    return *p == '\0' ? 0 : -1;
}

/* Returns -1 to go on, else an exit status. */
static int parse_wfa_args(int argc, char **argv, wfa_opts *o)
{
    static const struct option longopts[] = {
        {"mismatch",     required_argument, NULL, OPT_W_MISMATCH},
        {"gap-open",     required_argument, NULL, OPT_W_GAP_OPEN},
        {"gap-extend",   required_argument, NULL, OPT_W_GAP_EXTEND},
        {"gap-open2",    required_argument, NULL, OPT_W_GAP_OPEN2},
        {"gap-extend2",  required_argument, NULL, OPT_W_GAP_EXTEND2},
        {"edit",         no_argument,       NULL, OPT_W_EDIT},
        {"score-only",   no_argument,       NULL, OPT_W_SCORE_ONLY},
        {"ends-free",    required_argument, NULL, OPT_W_ENDS_FREE},
        {"n-mismatch",   no_argument,       NULL, OPT_W_NMISMATCH},
        {"memory-limit", required_argument, NULL, OPT_W_MEMORY},
        {"format",       required_argument, NULL, 'F'},
        {"coords",       no_argument,       NULL, OPT_W_COORDS},
        {"batch-bases",  required_argument, NULL, OPT_W_BATCH_BASES},
        COMMON_LONGOPTS,
        {NULL, 0, NULL, 0}
    };
    int c, longindex, i, rc;

    memset(o, 0, sizeof *o);
    o->kind = GALE_WFA;
    o->x = WFA_DEFAULT_MISMATCH;
    o->o = WFA_DEFAULT_GAP_OPEN;
    o->e = WFA_DEFAULT_GAP_EXTEND;
    common_opts_init(&o->com, WFA_DEFAULT_BATCH_SIZE);
    o->batch_bases = WFA_DEFAULT_BATCH_BASES;
    o->format = FMT_TSV;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":F:o:qh", longopts, &longindex)) != -1) {
        int64_t v;
        rc = parse_common_opt(c, "wfa", usage_wfa, argv, &o->com);
        if (rc != NOT_COMMON) {
            if (rc >= 0)
                return rc;
            continue;
        }
        switch (c) {
        case OPT_W_MISMATCH:
        case OPT_W_GAP_OPEN:
        case OPT_W_GAP_EXTEND:
        case OPT_W_GAP_OPEN2:
        case OPT_W_GAP_EXTEND2: {
            const char *name = c == OPT_W_MISMATCH ? "--mismatch" : c == OPT_W_GAP_OPEN ? "--gap-open"
                             : c == OPT_W_GAP_EXTEND ? "--gap-extend" : c == OPT_W_GAP_OPEN2 ? "--gap-open2"
                             : "--gap-extend2";
            if (parse_int64(optarg, &v) != 0)
                return bad_value("wfa", name, optarg, "expected an integer");
            /* the library checks the bounds (gale_batch_set) */
            if (c == OPT_W_MISMATCH) o->x = v;
            else if (c == OPT_W_GAP_OPEN) o->o = v;
            else if (c == OPT_W_GAP_EXTEND) o->e = v;
            else if (c == OPT_W_GAP_OPEN2) { o->o2 = v; o->have_o2 = 1; }
            else { o->e2 = v; o->have_e2 = 1; }
            if (!o->penalty_opt)
                o->penalty_opt = name;
            break;
        }
        case OPT_W_EDIT:
            o->kind = GALE_EDIT;
            break;
        case OPT_W_SCORE_ONLY:
            o->score_only = 1;
            break;
        case OPT_W_ENDS_FREE:
            if (parse_ends_free(optarg, o->free_len) != 0)
                return bad_value("wfa", "--ends-free", optarg,
                                 "expected PB,PE,TB,TE: four integers in [0, 2147483647]");
            o->ends_free = 1;
            break;
        case OPT_W_NMISMATCH:
            o->n_mismatch = 1;
            break;
        case OPT_W_MEMORY:
            if (parse_int64(optarg, &v) != 0)
                return bad_value("wfa", "--memory-limit", optarg, "expected an integer (MiB)");
            o->memory_limit = v; /* bounds: the library's */
            if (v == 0)
                return bad_value("wfa", "--memory-limit", optarg, "expected at least 1 (MiB)");
            break;
        case 'F':
            if (strcmp(optarg, "tsv") == 0) o->format = FMT_TSV;
            else if (strcmp(optarg, "sam") == 0) o->format = FMT_SAM;
            else if (strcmp(optarg, "paf") == 0) o->format = FMT_PAF;
            else return bad_value("wfa", "--format", optarg, "expected tsv, sam or paf");
            break;
        case OPT_W_COORDS:
            o->coords = 1;
            break;
        case OPT_W_BATCH_BASES:
            if (parse_int64(optarg, &v) != 0 || v < 1)
                return bad_value("wfa", "--batch-bases", optarg, "expected a positive integer");
            o->batch_bases = v;
            break;
        }
    }

    o->nin = argc - optind;
    if (o->nin < 1)
        return usage_error("wfa", "wfa: missing input: PATTERNS TEXTS (FASTA/FASTQ) or PAIRS.seq");
    if (o->nin > 2)
        return usage_error("wfa", "wfa: expected PATTERNS TEXTS or PAIRS.seq, got %d arguments", o->nin);
    for (i = 0; i < o->nin; i++) {
        o->in[i] = argv[optind + i];
        if (*o->in[i] == '\0')
            return usage_error("wfa", "wfa: empty input file name");
    }
    if (o->nin == 2 && strcmp(o->in[0], "-") == 0 && strcmp(o->in[1], "-") == 0)
        return usage_error("wfa", "wfa: PATTERNS and TEXTS cannot both be '-' (stdin)");

    /* combinations */
    if (o->kind == GALE_EDIT && o->penalty_opt)
        return usage_error("wfa", "%s does not apply to --edit (edit distance has no penalties)", o->penalty_opt);
    if (o->have_o2 != o->have_e2)
        return usage_error("wfa", "two-piece penalties need both --gap-open2 and --gap-extend2");
    if (o->score_only && o->format != FMT_TSV)
        return usage_error("wfa", "--score-only computes no alignment, which %s needs: use the TSV output",
                           o->format == FMT_SAM ? "SAM" : "PAF");
    if (o->coords && o->format != FMT_TSV)
        return usage_error("wfa", "--coords applies to the TSV output only (SAM and PAF give coordinates)");
    return -1;
}

/* ------------------------------------------------------------------ */
/* wfa input: FASTA / FASTQ / .seq                                     */
/* ------------------------------------------------------------------ */

typedef struct in_file {
    const char *display;   /* name for messages; "(stdin)" for '-' */
    BGZF *fp;
    kstring_t line;
    uint64_t lineno;
    uint64_t nrec;         /* records read */
    int pending;           /* line holds the next record's header, not consumed yet */
} in_file;

typedef struct seq_rec {
    kstring_t name, seq, qual;
    int has_qual;
    uint64_t line;         /* the line of its header (FASTA/FASTQ) or of its sequence (.seq) */
    in_file *file;
} seq_rec;

#define REC_ERR(f, line, recno, ...) do { \
        fprintf(stderr, "%s: %s:%" PRIu64 ": record %" PRIu64 ": ", prog, (f)->display, (uint64_t)(line), \
                (uint64_t)(recno)); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
    } while (0)

static int in_open(in_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->display = strcmp(path, "-") == 0 ? "(stdin)" : path;
    errno = 0;
    f->fp = bgzf_open(path, "r");
    if (!f->fp) {
        msg("%s: cannot open: %s", f->display, errno ? strerror(errno) : "unknown error");
        return EXIT_FAIL;
    }
    return 0;
}

static int in_close(in_file *f)
{
    int rc = 0;
    if (f->fp && bgzf_close(f->fp) != 0)
        rc = -1;
    f->fp = NULL;
    free(f->line.s);
    f->line.s = NULL;
    f->line.l = f->line.m = 0;
    return rc;
}

/* Next line into f->line (CR stripped): 1, 0 at the end, -1 after a message. */
static int in_getline(in_file *f)
{
    int r = bgzf_getline(f->fp, '\n', &f->line);
    if (r == -1)
        return 0;
    if (r < -1) {
        msg("%s: read error after line %" PRIu64 " (truncated or corrupt compressed input?)", f->display,
            f->lineno);
        return -1;
    }
    f->lineno++;
    if (f->line.l > 0 && f->line.s[f->line.l - 1] == '\r')
        f->line.s[--f->line.l] = '\0';
    return 1;
}

/* A short printable rendering of the start of a line, for messages. */
static const char *line_excerpt(const in_file *f, char *buf, size_t cap)
{
    quote_field(buf, cap, f->line.s ? f->line.s : "", f->line.l);
    return buf;
}

static int set_kstr(kstring_t *k, const char *s, size_t n)
{
    k->l = 0;
    if (kputsn(s, n, k) < 0)
        return -1;
    return 0;
}

/* The name of a FASTA/FASTQ record: the header up to the first blank. */
static int take_name(seq_rec *r, const char *h, size_t n)
{
    size_t i = 0;
    while (i < n && h[i] != ' ' && h[i] != '\t')
        i++;
    return set_kstr(&r->name, h, i);
}

/* Reads one FASTA or FASTQ record (multi-line FASTA and FASTQ allowed; empty
 * lines between records are skipped). 1: a record; 0: end of file; -1: error
 * (reported). */
static int fx_read(in_file *f, seq_rec *r)
{
    char q[64];
    uint64_t recno = f->nrec + 1;
    int k;
    char kind;

    if (!f->pending) {
        do {
            k = in_getline(f);
            if (k <= 0)
                return k;
        } while (f->line.l == 0);
    }
    f->pending = 0;
    kind = f->line.s[0];
    r->line = f->lineno;
    r->file = f;
    if (kind != '>' && kind != '@') {
        REC_ERR(f, f->lineno, recno, "expected a FASTA ('>') or FASTQ ('@') header, found '%s'",
                line_excerpt(f, q, sizeof q));
        return -1;
    }
    if (take_name(r, f->line.s + 1, f->line.l - 1) < 0)
        goto oom;
    r->seq.l = 0;
    r->qual.l = 0;
    r->has_qual = kind == '@';
    if (kind == '>') {
        for (;;) {
            k = in_getline(f);
            if (k < 0)
                return -1;
            if (k == 0)
                break;
            if (f->line.l > 0 && f->line.s[0] == '>') {
                f->pending = 1;
                break;
            }
            if (kputsn(f->line.s, f->line.l, &r->seq) < 0)
                goto oom;
        }
    } else {
        size_t i;
        for (;;) {
            k = in_getline(f);
            if (k < 0)
                return -1;
            if (k == 0) {
                REC_ERR(f, r->line, recno, "truncated FASTQ record: no '+' line");
                return -1;
            }
            if (f->line.l > 0 && f->line.s[0] == '+')
                break;
            if (kputsn(f->line.s, f->line.l, &r->seq) < 0)
                goto oom;
        }
        while (r->qual.l < r->seq.l) {
            k = in_getline(f);
            if (k < 0)
                return -1;
            if (k == 0) {
                REC_ERR(f, r->line, recno, "truncated FASTQ record: %zu quality values for %zu bases",
                        r->qual.l, r->seq.l);
                return -1;
            }
            if (kputsn(f->line.s, f->line.l, &r->qual) < 0)
                goto oom;
        }
        if (r->qual.l > r->seq.l) {
            REC_ERR(f, r->line, recno, "FASTQ quality is longer than the sequence (%zu values for %zu bases)",
                    r->qual.l, r->seq.l);
            return -1;
        }
        for (i = 0; i < r->qual.l; i++) {
            unsigned char c = (unsigned char)r->qual.s[i];
            if (c < 33 || c > 126) {
                REC_ERR(f, r->line, recno, "invalid quality byte 0x%02x at position %zu (0-based)", c, i);
                return -1;
            }
        }
    }
    if (!r->seq.s && kputsn("", 0, &r->seq) < 0)
        goto oom;
    f->nrec++;
    return 1;
oom:
    REC_ERR(f, f->lineno, recno, "out of memory");
    return -1;
}

/* Reads one pair of a .seq file: a '>PATTERN' line, then a '<TEXT' line. */
static int seqfile_read(in_file *f, seq_rec *p, seq_rec *t)
{
    char q[64];
    uint64_t recno = f->nrec + 1;
    int k = in_getline(f);
    if (k <= 0)
        return k;
    if (f->line.l == 0 || f->line.s[0] != '>') {
        if (f->line.l == 0)
            REC_ERR(f, f->lineno, recno, "empty line (expected '>PATTERN')");
        else
            REC_ERR(f, f->lineno, recno, "expected a '>PATTERN' line, found '%s'%s", line_excerpt(f, q, sizeof q),
                    recno == 1 ? " (FASTA/FASTQ input takes two files: PATTERNS TEXTS)" : "");
        return -1;
    }
    p->line = f->lineno;
    p->file = f;
    p->has_qual = 0;
    p->name.l = 0;
    if (set_kstr(&p->seq, f->line.s + 1, f->line.l - 1) < 0)
        goto oom;
    k = in_getline(f);
    if (k < 0)
        return -1;
    if (k == 0) {
        REC_ERR(f, p->line, recno, "'>PATTERN' line without its '<TEXT' line (truncated file?)");
        return -1;
    }
    if (f->line.l == 0 || f->line.s[0] != '<') {
        if (f->line.l == 0)
            REC_ERR(f, f->lineno, recno, "empty line (expected '<TEXT')");
        else
            REC_ERR(f, f->lineno, recno, "expected a '<TEXT' line, found '%s'%s", line_excerpt(f, q, sizeof q),
                    recno == 1 ? " (FASTA/FASTQ input takes two files: PATTERNS TEXTS)" : "");
        return -1;
    }
    t->line = f->lineno;
    t->file = f;
    t->has_qual = 0;
    t->name.l = 0;
    if (set_kstr(&t->seq, f->line.s + 1, f->line.l - 1) < 0)
        goto oom;
    f->nrec++;
    return 1;
oom:
    REC_ERR(f, f->lineno, recno, "out of memory");
    return -1;
}

typedef struct pair_reader {
    in_file f[2];
    int nfiles;              /* 1: .seq */
} pair_reader;

/* 1: a pair into p, t; 0: the end; -1: error (reported). */
static int read_pair(pair_reader *rd, seq_rec *p, seq_rec *t)
{
    int a, b;
    if (rd->nfiles == 1)
        return seqfile_read(&rd->f[0], p, t);
    a = fx_read(&rd->f[0], p);
    if (a < 0)
        return -1;
    b = fx_read(&rd->f[1], t);
    if (b < 0)
        return -1;
    if (a == b)
        return a;
    {
        in_file *shorter = a ? &rd->f[1] : &rd->f[0];
        in_file *longer = a ? &rd->f[0] : &rd->f[1];
        msg("%s has %" PRIu64 " records but %s has more: record %" PRIu64 " of %s (line %" PRIu64
            ") has no partner; PATTERNS and TEXTS must hold the same number of records",
            shorter->display, shorter->nrec, longer->display, longer->nrec, longer->display,
            a ? p->line : t->line);
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* wfa: references of the SAM header                                   */
/* ------------------------------------------------------------------ */

KHASH_MAP_INIT_STR(sqmap, size_t)

typedef struct sq_entry {
    char *name;
    int64_t len;
    uint64_t hash;          /* of the case-folded sequence */
    uint64_t recno;         /* first record that named it */
} sq_entry;

typedef struct sq_table {
    khash_t(sqmap) *map;
    sq_entry *e;
    size_t n, cap;
} sq_table;

static uint64_t fold_hash(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 'a' && c <= 'z')
            c = (unsigned char)(c - 'a' + 'A');
        h = (h ^ c) * 1099511628211ull;
    }
    return h;
}

/* Registers a text as a SAM reference. Same name and same (case-folded)
 * sequence: one @SQ. Same name, other sequence: an error (a reference name
 * stands for one sequence). Returns 0 or -1 (reported). */
static int sq_add(sq_table *st, const char *name, const seq_rec *t, uint64_t recno)
{
    khiter_t it;
    int absent;
    uint64_t h = fold_hash(t->seq.s, t->seq.l);
    it = kh_get(sqmap, st->map, name);
    if (it != kh_end(st->map)) {
        const sq_entry *e = &st->e[kh_value(st->map, it)];
        if (e->len != (int64_t)t->seq.l || e->hash != h) {
            REC_ERR(t->file, t->line, recno,
                    "text name '%s' was given to a different sequence by record %" PRIu64
                    " (SAM needs one sequence per reference name; rename it, or use --format tsv or paf)",
                    name, e->recno);
            return -1;
        }
        return 0;
    }
    if (st->n == st->cap) {
        size_t cap = st->cap ? 2 * st->cap : 1024;
        sq_entry *ne = realloc(st->e, cap * sizeof *ne);
        if (!ne)
            goto oom;
        st->e = ne;
        st->cap = cap;
    }
    st->e[st->n].name = strdup(name);
    if (!st->e[st->n].name)
        goto oom;
    st->e[st->n].len = (int64_t)t->seq.l;
    st->e[st->n].hash = h;
    st->e[st->n].recno = recno;
    it = kh_put(sqmap, st->map, st->e[st->n].name, &absent);
    if (absent < 0) {
        free(st->e[st->n].name);
        goto oom;
    }
    kh_value(st->map, it) = st->n;
    st->n++;
    return 0;
oom:
    msg("out of memory");
    return -1;
}

static void sq_free(sq_table *st)
{
    size_t i;
    for (i = 0; i < st->n; i++)
        free(st->e[i].name);
    free(st->e);
    if (st->map)
        kh_destroy(sqmap, st->map);
}

/* ------------------------------------------------------------------ */
/* wfa: batches                                                        */
/* ------------------------------------------------------------------ */

/* What the writers need of a pair once its sequences are in the library:
 * offsets into the chunk's string pool (SIZE_MAX: none). */
typedef struct wfa_item {
    size_t qname, tname, seq, qual;
    int64_t plen, tlen;
} wfa_item;

typedef struct wfa_chunk {
    gale_batch *b;
    wfa_item *it;
    size_t n, cap;
    kstring_t pool;
    uint64_t first;          /* index of its first pair */
} wfa_chunk;

typedef struct wfa_run {
    const wfa_opts *o;
    pair_reader rd;
    seq_rec p, t;
    uint64_t next_index;
    int eof;
    sq_table sq;
    kstring_t line;          /* output line */
    kstring_t cig;           /* CIGAR of the current result */
    kstring_t name;          /* scratch */
    uint64_t cells;          /* DP cells of the finished batches */
} wfa_run;

static int wfa_set_params(gale_batch *b, const wfa_opts *o)
{
    param_value p[12];
    int n = 0;
    if (o->kind == GALE_WFA) {
        p[n].id = GALE_P_PENALTY_MISMATCH;   p[n].v = o->x;  p[n++].name = "--mismatch";
        p[n].id = GALE_P_PENALTY_GAP_OPEN;   p[n].v = o->o;  p[n++].name = "--gap-open";
        p[n].id = GALE_P_PENALTY_GAP_EXTEND; p[n].v = o->e;  p[n++].name = "--gap-extend";
        if (o->have_e2) {
            p[n].id = GALE_P_PENALTY_GAP_OPEN2;   p[n].v = o->o2; p[n++].name = "--gap-open2";
            p[n].id = GALE_P_PENALTY_GAP_EXTEND2; p[n].v = o->e2; p[n++].name = "--gap-extend2";
        }
    }
    p[n].id = GALE_P_SCOPE;
    p[n].v = o->score_only ? GALE_SCOPE_SCORE : GALE_SCOPE_ALIGNMENT;
    p[n++].name = "--score-only";
    p[n].id = GALE_P_N_POLICY; p[n].v = o->n_mismatch ? GALE_N_MISMATCH : GALE_N_DNA5;
    p[n++].name = "--n-mismatch";
    if (o->ends_free) {
        p[n].id = GALE_P_PATTERN_BEGIN_FREE; p[n].v = o->free_len[0]; p[n++].name = "--ends-free (PB)";
        p[n].id = GALE_P_PATTERN_END_FREE;   p[n].v = o->free_len[1]; p[n++].name = "--ends-free (PE)";
        p[n].id = GALE_P_TEXT_BEGIN_FREE;    p[n].v = o->free_len[2]; p[n++].name = "--ends-free (TB)";
        p[n].id = GALE_P_TEXT_END_FREE;      p[n].v = o->free_len[3]; p[n++].name = "--ends-free (TE)";
    }
    if (o->memory_limit) {
        p[n].id = GALE_P_MEMORY_LIMIT; p[n].v = o->memory_limit; p[n++].name = "--memory-limit";
    }
    return set_param_values(b, p, n, "wfa");
}

#define POOL_NOMEM (SIZE_MAX - 1)

/* Appends s[0..n) and a NUL to the pool; returns its offset or POOL_NOMEM. */
static size_t pool_put(kstring_t *pool, const char *s, size_t n)
{
    size_t off = pool->l;
    if (kputsn(s, n, pool) < 0 || kputc('\0', pool) < 0)
        return POOL_NOMEM;
    return off;
}

/* The library names the task by its index in the batch and the sequence as
 * h or v; the user knows records, patterns and texts. Reports a failed
 * gale_batch_add. */
static void report_add_error(const wfa_run *run, gale_status st, uint64_t recno)
{
    const char *e = gale_last_error();
    const char *p;
    const seq_rec *r = &run->p;
    int which = 0; /* 0: unknown, 'v' pattern, 'h' text */
    size_t len;
    if (strncmp(e, "task ", 5) == 0) {
        p = e + 5;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p > e + 5 && p[0] == ':' && p[1] == ' ')
            e = p + 2;
    }
    len = strlen(e);
    if (len > 13 && strcmp(e + len - 13, "of sequence h") == 0)
        which = 'h';
    else if (len > 13 && strcmp(e + len - 13, "of sequence v") == 0)
        which = 'v';
    if (which == 'h')
        r = &run->t;
    if (st == GALE_E_INPUT && which) {
        REC_ERR(r->file, r->line, recno, "%.*sof the %s", (int)(len - 13), e, which == 'h' ? "text" : "pattern");
    } else if (st == GALE_E_INPUT) {
        REC_ERR(r->file, r->line, recno, "invalid pair: %s (h = text, v = pattern)", e);
    } else {
        REC_ERR(r->file, r->line, recno, "cannot add the pair: %s (%s)", gale_status_string(st), e);
    }
}

/* Refills the chunk (not in flight) with the next pairs of the input: up to
 * --batch-size pairs, closed once it holds --batch-bases bases. c->n == 0 at
 * the end of the input. */
static int fill_chunk(wfa_run *run, wfa_chunk *c)
{
    const wfa_opts *o = run->o;
    uint64_t bases = 0;
    gale_status st;

    st = gale_batch_reset(c->b);
    if (st != GALE_OK) {
        gale_msg("cannot reset a batch", st);
        return EXIT_FAIL;
    }
    c->n = 0;
    c->pool.l = 0;
    c->first = run->next_index;
    while (!run->eof && c->n < (size_t)o->com.batch_size && (c->n == 0 || bases < (uint64_t)o->batch_bases)) {
        gale_task task;
        wfa_item item;
        uint64_t index = run->next_index;
        uint64_t recno = index + 1;
        int k = read_pair(&run->rd, &run->p, &run->t);
        if (k < 0)
            return EXIT_FAIL;
        if (k == 0) {
            run->eof = 1;
            break;
        }
        if ((uint64_t)run->p.seq.l > (uint64_t)INT32_MAX || (uint64_t)run->t.seq.l > (uint64_t)INT32_MAX) {
            const seq_rec *r = run->p.seq.l > (size_t)INT32_MAX ? &run->p : &run->t;
            REC_ERR(r->file, r->line, recno, "sequence of %zu bases: gale takes at most 2^31-1", r->seq.l);
            return EXIT_FAIL;
        }

        gale_task_init(&task);
        task.v = run->p.seq.s;
        task.v_len = (int64_t)run->p.seq.l;
        task.h = run->t.seq.s;
        task.h_len = (int64_t)run->t.seq.l;
        task.user = index;
        st = gale_batch_add(c->b, &task);
        if (st != GALE_OK) {
            report_add_error(run, st, recno);
            return EXIT_FAIL;
        }

        item.qname = item.tname = item.seq = item.qual = SIZE_MAX;
        item.plen = task.v_len;
        item.tlen = task.h_len;
        if (o->format != FMT_TSV) {
            /* names: the record's, or for .seq (and empty names) the index */
            kstring_t *nm = &run->name;
            if (run->p.name.l > 0) {
                item.qname = pool_put(&c->pool, run->p.name.s, run->p.name.l);
            } else {
                nm->l = 0;
                ksprintf(nm, "%" PRIu64, index);
                item.qname = pool_put(&c->pool, nm->s, nm->l);
            }
            if (run->t.name.l > 0) {
                item.tname = pool_put(&c->pool, run->t.name.s, run->t.name.l);
            } else {
                nm->l = 0;
                ksprintf(nm, "text%" PRIu64, index);
                item.tname = pool_put(&c->pool, nm->s, nm->l);
            }
            if (item.qname == POOL_NOMEM || item.tname == POOL_NOMEM)
                goto oom;
        }
        if (o->format == FMT_SAM) {
            const char *qn = c->pool.s + item.qname, *tn = c->pool.s + item.tname;
            if (strlen(qn) > SAM_MAX_QNAME) {
                REC_ERR(run->p.file, run->p.line, recno, "pattern name of %zu characters: SAM allows at most %d",
                        strlen(qn), SAM_MAX_QNAME);
                return EXIT_FAIL;
            }
            if (run->t.seq.l > 0 && sq_add(&run->sq, tn, &run->t, recno) != 0)
                return EXIT_FAIL;
            item.seq = pool_put(&c->pool, run->p.seq.s, run->p.seq.l);
            if (item.seq == POOL_NOMEM)
                goto oom;
            if (run->p.has_qual && run->p.qual.l > 0) {
                item.qual = pool_put(&c->pool, run->p.qual.s, run->p.qual.l);
                if (item.qual == POOL_NOMEM)
                    goto oom;
            }
        }
        if (c->n == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 1024;
            wfa_item *ni = realloc(c->it, cap * sizeof *ni);
            if (!ni)
                goto oom;
            c->it = ni;
            c->cap = cap;
        }
        c->it[c->n++] = item;
        bases += (uint64_t)task.v_len + (uint64_t)task.h_len;
        run->next_index++;
    }
    return EXIT_OK;
oom:
    msg("out of memory");
    return EXIT_FAIL;
}

/* ------------------------------------------------------------------ */
/* wfa: output                                                         */
/* ------------------------------------------------------------------ */

static const char cigar_chars[] = "MIDNSHP=XB";

typedef struct cigar_sum {
    int64_t match, mismatch, ins, del;   /* bases of =, X, I (pattern only), D (text only) */
    int64_t ins_runs, del_runs;
} cigar_sum;

/* Appends the CIGAR ops to s and sums them; -1 on an op the library must not
 * produce. */
static int put_cigar(kstring_t *s, const uint32_t *ops, size_t n, cigar_sum *sum)
{
    size_t i;
    memset(sum, 0, sizeof *sum);
    for (i = 0; i < n; i++) {
        uint32_t len = ops[i] >> 4, code = ops[i] & 0xf;
        if (code != 7 && code != 8 && code != 1 && code != 2)
            return -1;
        kputuw(len, s);
        kputc(cigar_chars[code], s);
        if (code == 7) sum->match += len;
        else if (code == 8) sum->mismatch += len;
        else if (code == 1) { sum->ins += len; sum->ins_runs++; }
        else { sum->del += len; sum->del_runs++; }
    }
    return 0;
}

/* Writes the results of a finished chunk. */
static int write_chunk(wfa_run *run, const wfa_chunk *c, FILE *out, const char *outname)
{
    const wfa_opts *o = run->o;
    kstring_t *cg = &run->cig, *ln = &run->line;
    size_t i;
    for (i = 0; i < c->n; i++) {
        const wfa_item *it = &c->it[i];
        uint64_t index = c->first + i;
        gale_result res;
        const uint32_t *ops = NULL;
        size_t nops = 0;
        cigar_sum sum;
        gale_status st;
        int64_t as_score, nm;

        memset(&res, 0, sizeof res);
        res.size = sizeof res;
        st = gale_result_get(c->b, i, &res);
        if (st == GALE_OK && !o->score_only)
            st = gale_result_cigar(c->b, i, &ops, &nops);
        if (st != GALE_OK) {
            gale_msg("cannot read a result", st);
            return EXIT_FAIL;
        }
        if (res.user != index) {
            msg("internal error: result %" PRIu64 " came back as %" PRIu64, index, res.user);
            return EXIT_FAIL;
        }
        cg->l = 0;
        if (put_cigar(cg, ops, nops, &sum) != 0) {
            msg("internal error: pair %" PRIu64 ": the library returned an unknown CIGAR operation", index);
            return EXIT_FAIL;
        }
        /* what SAM and PAF derive from the CIGAR must be consistent: check it */
        if (!o->score_only &&
            (sum.match + sum.mismatch + sum.ins != res.v_end - res.v_begin ||
             sum.match + sum.mismatch + sum.del != res.h_end - res.h_begin || res.v_begin < 0 ||
             res.h_begin < 0 || res.v_end > it->plen || res.h_end > it->tlen)) {
            msg("internal error: pair %" PRIu64 ": the CIGAR does not cover the aligned part [%" PRId64 ", %" PRId64
                ") x [%" PRId64 ", %" PRId64 ")", index, res.v_begin, res.v_end, res.h_begin, res.h_end);
            return EXIT_FAIL;
        }
        /* AS:i: higher is better under both metrics */
        as_score = o->kind == GALE_EDIT ? -res.score : res.score;
        nm = sum.mismatch + sum.ins + sum.del;

        ln->l = 0;
        if (o->format == FMT_TSV) {
            ksprintf(ln, "%" PRIu64 "\t%" PRId64 "\t", index, res.score);
            if (cg->l == 0)
                kputc('*', ln);
            else
                kputsn(cg->s, cg->l, ln);
            if (o->coords)
                ksprintf(ln, "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64, res.v_begin, res.v_end,
                         res.h_begin, res.h_end);
        } else if (o->format == FMT_PAF) {
            ksprintf(ln, "%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t+\t%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64
                     "\t%" PRId64 "\t%" PRId64 "\t255\tNM:i:%" PRId64 "\tAS:i:%" PRId64,
                     c->pool.s + it->qname, it->plen, res.v_begin, res.v_end, c->pool.s + it->tname, it->tlen,
                     res.h_begin, res.h_end, sum.match, sum.match + sum.mismatch + sum.ins + sum.del, nm, as_score);
            if (cg->l > 0) {
                kputs("\tcg:Z:", ln);
                kputsn(cg->s, cg->l, ln);
            }
        } else {
            const char *seq = it->plen > 0 ? c->pool.s + it->seq : "*";
            const char *qual = it->qual != SIZE_MAX ? c->pool.s + it->qual : "*";
            /* mapped when the alignment covers at least one base of the text */
            if (it->tlen > 0 && sum.match + sum.mismatch + sum.del > 0) {
                ksprintf(ln, "%s\t0\t%s\t%" PRId64 "\t255\t", c->pool.s + it->qname, c->pool.s + it->tname,
                         res.h_begin + 1);
                if (res.v_begin > 0)
                    ksprintf(ln, "%" PRId64 "S", res.v_begin);
                kputsn(cg->s, cg->l, ln);
                if (res.v_end < it->plen)
                    ksprintf(ln, "%" PRId64 "S", it->plen - res.v_end);
                ksprintf(ln, "\t*\t0\t0\t%s\t%s\tNM:i:%" PRId64 "\tAS:i:%" PRId64, seq, qual, nm, as_score);
            } else {
                ksprintf(ln, "%s\t4\t*\t0\t0\t*\t*\t0\t0\t%s\t%s\tAS:i:%" PRId64, c->pool.s + it->qname, seq, qual,
                         as_score);
            }
        }
        if (kputc('\n', ln) < 0) {
            msg("out of memory");
            return EXIT_FAIL;
        }
        if (fwrite(ln->s, 1, ln->l, out) != ln->l)
            goto werr;
    }
    if (ferror(out))
        goto werr;
    return EXIT_OK;
werr:
    msg("%s: write error: %s", outname, strerror(errno));
    return EXIT_FAIL;
}

/* The SAM header; cl is the command line for @PG. */
static int write_sam_header(const sq_table *sq, FILE *out, const char *cl)
{
    size_t i;
    fprintf(out, "@HD\tVN:1.6\tSO:unsorted\n");
    for (i = 0; i < sq->n; i++)
        fprintf(out, "@SQ\tSN:%s\tLN:%" PRId64 "\n", sq->e[i].name, sq->e[i].len);
    fprintf(out, "@PG\tID:gale\tPN:gale\tVN:%s\tCL:%s\n", gale_version_string(), cl);
    return ferror(out) ? -1 : 0;
}

static int copy_stream(FILE *from, FILE *to)
{
    char buf[1 << 16];
    size_t n;
    if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, from)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            return -1;
    return ferror(from) || ferror(to) ? -1 : 0;
}

/* An unlinked temporary file for the SAM records: nothing is left behind
 * whatever happens. Next to the output file, else in $TMPDIR or /tmp. */
static FILE *sam_body_file(const char *output)
{
    const char *dir = getenv("TMPDIR");
    char *path;
    size_t n;
    int fd;
    FILE *f;
    if (output) {
        n = strlen(output);
        path = malloc(n + 24);
        if (!path)
            return NULL;
        memcpy(path, output, n);
        memcpy(path + n, ".body.tmp.XXXXXX", 17);
    } else {
        if (!dir || !*dir)
            dir = "/tmp";
        n = strlen(dir);
        path = malloc(n + 24);
        if (!path)
            return NULL;
        memcpy(path, dir, n);
        memcpy(path + n, "/gale-sam.XXXXXX", 17);
    }
    fd = mkstemp(path);
    if (fd < 0) {
        msg("%s: cannot create a temporary file for the SAM records: %s", path, strerror(errno));
        free(path);
        return NULL;
    }
    unlink(path);
    f = fdopen(fd, "w+");
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        close(fd);
    }
    free(path);
    return f;
}

/* ------------------------------------------------------------------ */
/* wfa: the command                                                    */
/* ------------------------------------------------------------------ */

static void progress_aligned(progress *p, uint64_t pairs)
{
    if (!progress_due(p))
        return;
    fprintf(stderr, "\r\033[K%s: %" PRIu64 " pairs aligned  %.1f s", prog, pairs, now_s() - p->start);
    fflush(stderr);
    p->shown = 1;
}

static int wait_chunk(const wfa_chunk *c, progress *pg, uint64_t done)
{
    gale_status st;
    for (;;) {
        st = gale_poll(c->b, pg->enabled ? 100 : -1);
        if (st != GALE_E_AGAIN)
            break;
        progress_aligned(pg, done);
    }
    if (st != GALE_OK) {
        char what[96];
        progress_clear(pg);
        snprintf(what, sizeof what, "the batch of pairs %" PRIu64 "..%" PRIu64 " failed", c->first,
                 c->first + (c->n ? c->n - 1 : 0));
        gale_msg(what, st);
        return EXIT_FAIL;
    }
    progress_aligned(pg, done + c->n);
    return EXIT_OK;
}

/* "gale wfa ARGS" on one line, for SAM's @PG CL. */
static char *command_line(int argc, char **argv)
{
    kstring_t s = {0, 0, NULL};
    int i;
    size_t j;
    kputs("gale", &s);
    for (i = 0; i < argc; i++) {
        kputc(' ', &s);
        kputs(argv[i], &s);
    }
    for (j = 0; j < s.l; j++)
        if (s.s[j] == '\t' || s.s[j] == '\n' || s.s[j] == '\r')
            s.s[j] = ' ';
    return s.s;
}

static int cmd_wfa(int argc, char **argv)
{
    wfa_opts o;
    gale_ctx *ctx = NULL;
    wfa_chunk chunk[2];
    wfa_run run;
    progress pg;
    FILE *out = NULL, *body = NULL, *dest;
    char *tmp = NULL, *cl = NULL;
    const char *outname;
    uint64_t done = 0;
    size_t head = 0, inflight = 0;
    gale_status st;
    int rc, i, opened = 0;

    rc = parse_wfa_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    rc = 0;

    memset(chunk, 0, sizeof chunk);
    memset(&run, 0, sizeof run);
    run.o = &o;
    progress_init(&pg, o.com.quiet);
    outname = o.com.output ? o.com.output : "(stdout)";

    rc = start_context(&o.com, &ctx);
    if (rc == EXIT_USAGE)
        fprintf(stderr, "Try 'gale wfa --help'.\n");
    if (rc != EXIT_OK)
        return rc;

    /* both batches up front: the parameters are checked before any input is read */
    for (i = 0; i < 2 && rc == 0; i++) {
        st = gale_batch_create(ctx, o.kind, &chunk[i].b);
        if (st != GALE_OK) {
            gale_msg(o.kind == GALE_EDIT ? "cannot create an edit-distance batch" : "cannot create a WFA batch", st);
            rc = EXIT_FAIL;
            break;
        }
        rc = wfa_set_params(chunk[i].b, &o);
    }
    if (rc == 0) {
        run.rd.nfiles = o.nin;
        for (i = 0; i < o.nin && rc == 0; i++) {
            rc = in_open(&run.rd.f[i], o.in[i]);
            if (rc == 0)
                opened = i + 1;
        }
    }
    if (rc == 0 && o.format == FMT_SAM) {
        run.sq.map = kh_init(sqmap);
        if (!run.sq.map) {
            msg("out of memory");
            rc = EXIT_FAIL;
        }
    }
    if (rc == 0 && o.format == FMT_SAM) {
        body = sam_body_file(o.com.output);
        if (!body)
            rc = EXIT_FAIL;
    }
    if (rc == 0 && o.com.output) {
        out = output_open(o.com.output, &tmp);
        if (!out)
            rc = EXIT_FAIL;
    } else if (rc == 0) {
        out = stdout;
    }
    dest = body ? body : out;

    /* two batches take turns: the next one is read while the last one runs */
    while (rc == 0) {
        if (!run.eof && inflight < 2) {
            wfa_chunk *c = &chunk[(head + inflight) % 2];
            rc = fill_chunk(&run, c);
            if (rc == 0 && c->n > 0) {
                st = gale_submit(c->b);
                if (st != GALE_OK) {
                    progress_clear(&pg);
                    gale_msg("cannot submit a batch", st);
                    rc = EXIT_FAIL;
                    break;
                }
                inflight++;
            }
            continue;
        }
        if (inflight == 0)
            break;
        rc = wait_chunk(&chunk[head], &pg, done);
        if (rc == 0 && pg.enabled) {
            gale_stats bs;
            memset(&bs, 0, sizeof bs);
            bs.size = sizeof bs;
            if (gale_batch_stats(chunk[head].b, &bs) == GALE_OK)
                run.cells += bs.cells;
        }
        if (rc == 0)
            rc = write_chunk(&run, &chunk[head], dest, body ? "(temporary SAM file)" : outname);
        done += chunk[head].n;
        head = (head + 1) % 2;
        inflight--;
    }
    progress_clear(&pg);

    if (rc == 0) {
        for (i = 0; i < opened; i++) {
            if (in_close(&run.rd.f[i]) != 0) {
                msg("%s: error while closing the input", run.rd.f[i].display);
                rc = EXIT_FAIL;
            }
        }
        opened = 0;
    }
    if (rc == 0 && body) {
        cl = command_line(argc, argv);
        if (!cl || write_sam_header(&run.sq, out, cl) != 0 || copy_stream(body, out) != 0) {
            msg("%s: write error: %s", outname, strerror(errno));
            rc = EXIT_FAIL;
        }
    }
    if (out && out != stdout) {
        rc = output_close(out, tmp, o.com.output, rc);
        tmp = NULL;
    } else if (out && (fflush(out) != 0 || ferror(out)) && rc == 0) {
        msg("%s: write error: %s", outname, strerror(errno));
        rc = EXIT_FAIL;
    }

    if (rc == 0 && pg.enabled) {
        int backend = 0;
        gale_ctx_backend(ctx, &backend);
        msg("%" PRIu64 " pairs, %" PRIu64 " wavefront cells, %.2f s (%s backend)", done, run.cells, now_s() - pg.start,
            backend == GALE_BACKEND_CUDA ? "cuda" : "cpu");
    }

    for (i = 0; i < opened; i++)
        in_close(&run.rd.f[i]);
    if (body)
        fclose(body);
    /* gale_ctx_destroy cancels what is in flight and destroys the batches */
    st = gale_ctx_destroy(ctx);
    if (st != GALE_OK && rc == 0) {
        gale_msg("cannot release the context", st);
        rc = EXIT_FAIL;
    }
    for (i = 0; i < 2; i++) {
        free(chunk[i].it);
        free(chunk[i].pool.s);
    }
    free(run.p.name.s); free(run.p.seq.s); free(run.p.qual.s);
    free(run.t.name.s); free(run.t.seq.s); free(run.t.qual.s);
    free(run.line.s);
    free(run.cig.s);
    free(run.name.s);
    sq_free(&run.sq);
    free(cl);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        msg("missing command");
        usage_main(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "xdrop") == 0)
        return cmd_xdrop(argc - 1, argv + 1);
    if (strcmp(argv[1], "wfa") == 0)
        return cmd_wfa(argc - 1, argv + 1);
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        if (argc > 2 && strcmp(argv[1], "help") == 0 && strcmp(argv[2], "xdrop") == 0)
            usage_xdrop(stdout);
        else if (argc > 2 && strcmp(argv[1], "help") == 0 && strcmp(argv[2], "wfa") == 0)
            usage_wfa(stdout);
        else
            usage_main(stdout);
        return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_FAIL;
    }
    if (strcmp(argv[1], "--version") == 0) {
        print_version();
        return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_FAIL;
    }
    msg("unknown command '%s'", argv[1]);
    usage_main(stderr);
    return EXIT_USAGE;
}
