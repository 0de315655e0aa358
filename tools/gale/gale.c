/*
 * gale - command-line front end of the gale library.
 *
 *   gale xdrop [options] FILE
 *
 * Reads seed-extension tasks in LOGAN's demo format (plain or gzipped, '-'
 * for stdin), runs them through the public gale API (include/gale.h) and
 * writes one TSV line per pair, in input order. See doc/cli.md.
 *
 * The whole input is read and validated before anything is computed or
 * written: a malformed line fails the run without a single result line.
 * Only the public API (gale.h) and htslib are used.
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
        "\n"
        "Options:\n"
        "  -h, --help     show this help\n"
        "  --version      show the versions of gale, libgale and htslib\n"
        "\n"
        "'gale xdrop --help' describes the options of xdrop. Manual: doc/cli.md.\n");
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

typedef struct xdrop_opts {
    int64_t k, xdrop, match, mismatch, gap;
    int n_mismatch;
    int backend;
    int64_t threads, device, batch_size;
    int quiet;
    const char *output; /* NULL = stdout */
    const char *input;
} xdrop_opts;

enum {
    OPT_MATCH = 256,
    OPT_MISMATCH,
    OPT_GAP,
    OPT_BACKEND,
    OPT_THREADS,
    OPT_DEVICE,
    OPT_NMISMATCH,
    OPT_BATCH,
    OPT_VERSION
};

static int bad_value(const char *opt, const char *val, const char *why)
{
    msg("invalid value '%s' for %s: %s", val, opt, why);
    fprintf(stderr, "Try 'gale xdrop --help'.\n");
    return EXIT_USAGE;
}

/* Returns -1 to go on, else an exit status. */
static int parse_xdrop_args(int argc, char **argv, xdrop_opts *o)
{
    static const struct option longopts[] = {
        {"seed-length", required_argument, NULL, 'k'},
        {"xdrop",       required_argument, NULL, 'x'},
        {"match",       required_argument, NULL, OPT_MATCH},
        {"mismatch",    required_argument, NULL, OPT_MISMATCH},
        {"gap",         required_argument, NULL, OPT_GAP},
        {"backend",     required_argument, NULL, OPT_BACKEND},
        {"threads",     required_argument, NULL, OPT_THREADS},
        {"device",      required_argument, NULL, OPT_DEVICE},
        {"n-mismatch",  no_argument,       NULL, OPT_NMISMATCH},
        {"batch-size",  required_argument, NULL, OPT_BATCH},
        {"output",      required_argument, NULL, 'o'},
        {"quiet",       no_argument,       NULL, 'q'},
        {"help",        no_argument,       NULL, 'h'},
        {"version",     no_argument,       NULL, OPT_VERSION},
        {NULL, 0, NULL, 0}
    };
    int c, longindex;

    o->k = DEFAULT_K;
    o->xdrop = DEFAULT_X;
    o->match = DEFAULT_MATCH;
    o->mismatch = DEFAULT_MISMATCH;
    o->gap = DEFAULT_GAP;
    o->n_mismatch = 0;
    o->backend = GALE_BACKEND_AUTO;
    o->threads = 0;
    o->device = 0;
    o->batch_size = DEFAULT_BATCH_SIZE;
    o->quiet = 0;
    o->output = NULL;
    o->input = NULL;

    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":k:x:o:qh", longopts, &longindex)) != -1) {
        int64_t v;
        const char *name;
        switch (c) {
        case 'k':
            if (parse_int64(optarg, &v) != 0 || v < 1 || v > INT32_MAX)
                return bad_value("-k", optarg, "expected an integer in [1, 2147483647]");
            o->k = v;
            break;
        case 'x':
        case OPT_MATCH:
        case OPT_MISMATCH:
        case OPT_GAP:
            name = c == 'x' ? "-x" : c == OPT_MATCH ? "--match" : c == OPT_MISMATCH ? "--mismatch" : "--gap";
            if (parse_int64(optarg, &v) != 0)
                return bad_value(name, optarg, "expected an integer");
            /* the library checks the bounds (gale_batch_set) */
            if (c == 'x') o->xdrop = v;
            else if (c == OPT_MATCH) o->match = v;
            else if (c == OPT_MISMATCH) o->mismatch = v;
            else o->gap = v;
            break;
        case OPT_BACKEND:
            if (strcmp(optarg, "auto") == 0) o->backend = GALE_BACKEND_AUTO;
            else if (strcmp(optarg, "cpu") == 0) o->backend = GALE_BACKEND_CPU;
            else if (strcmp(optarg, "cuda") == 0) o->backend = GALE_BACKEND_CUDA;
            else return bad_value("--backend", optarg, "expected auto, cpu or cuda");
            break;
        case OPT_THREADS:
            if (parse_int64(optarg, &v) != 0 || v < 0 || v > 65536)
                return bad_value("--threads", optarg, "expected an integer in [0, 65536]");
            o->threads = v;
            break;
        case OPT_DEVICE:
            if (parse_int64(optarg, &v) != 0 || v < 0 || v > INT_MAX)
                return bad_value("--device", optarg, "expected a non-negative integer");
            o->device = v;
            break;
        case OPT_BATCH:
            if (parse_int64(optarg, &v) != 0 || v < 1 || v > INT32_MAX)
                return bad_value("--batch-size", optarg, "expected an integer in [1, 2147483647]");
            o->batch_size = v;
            break;
        case OPT_NMISMATCH:
            o->n_mismatch = 1;
            break;
        case 'o':
            if (*optarg == '\0')
                return bad_value("-o", optarg, "empty file name");
            o->output = strcmp(optarg, "-") == 0 ? NULL : optarg;
            break;
        case 'q':
            o->quiet = 1;
            break;
        case 'h':
            usage_xdrop(stdout);
            return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_FAIL;
        case OPT_VERSION:
            print_version();
            return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_FAIL;
        case ':':
            if (optopt && optopt < 256)
                msg("option -%c needs a value", optopt);
            else
                msg("option %s needs a value", argv[optind - 1]);
            fprintf(stderr, "Try 'gale xdrop --help'.\n");
            return EXIT_USAGE;
        default: /* '?' */
            if (optopt && optopt < 256)
                msg("unknown option -%c", optopt);
            else
                msg("unknown option %s", argv[optind - 1]);
            fprintf(stderr, "Try 'gale xdrop --help'.\n");
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        msg("xdrop: missing input FILE ('-' for stdin)");
        fprintf(stderr, "Try 'gale xdrop --help'.\n");
        return EXIT_USAGE;
    }
    if (argc - optind > 1) {
        msg("xdrop: expected one input FILE, got %d arguments", argc - optind);
        fprintf(stderr, "Try 'gale xdrop --help'.\n");
        return EXIT_USAGE;
    }
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

/* Sets every parameter; on failure prints a message and returns the exit
 * status (2 for a value out of the library's bounds). */
static int set_params(gale_batch *b, const xdrop_opts *o)
{
    struct { int id; int64_t v; const char *name; } p[6];
    int i;
    p[0].id = GALE_P_MATCH;    p[0].v = o->match;    p[0].name = "--match";
    p[1].id = GALE_P_MISMATCH; p[1].v = o->mismatch; p[1].name = "--mismatch";
    p[2].id = GALE_P_GAP;      p[2].v = o->gap;      p[2].name = "--gap";
    p[3].id = GALE_P_XDROP;    p[3].v = o->xdrop;    p[3].name = "-x";
    p[4].id = GALE_P_N_POLICY; p[4].v = o->n_mismatch ? GALE_N_MISMATCH : GALE_N_DNA5;
    p[4].name = "--n-mismatch";
    p[5].id = GALE_P_DIRECTION; p[5].v = GALE_DIR_BOTH; p[5].name = "direction";
    for (i = 0; i < 6; i++) {
        gale_status st = gale_batch_set(b, p[i].id, p[i].v);
        if (st == GALE_E_RANGE) {
            const char *detail = gale_last_error();
            msg("invalid value %" PRId64 " for %s: out of range%s%s%s", p[i].v, p[i].name,
                *detail ? " (" : "", detail, *detail ? ")" : "");
            fprintf(stderr, "Try 'gale xdrop --help'.\n");
            return EXIT_USAGE;
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
        if (in_batch == (size_t)o->batch_size) {
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

/* Writes to a temporary file next to path and renames it on success, so that
 * path is either untouched or complete. */
static int write_output_file(const batch_list *bl, const char *path)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    int fd, rc;
    FILE *out;
    mode_t mask;

    if (!tmp) {
        msg("out of memory");
        return EXIT_FAIL;
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp.XXXXXX", 12);
    fd = mkstemp(tmp);
    if (fd < 0) {
        msg("%s: cannot create a temporary file next to it: %s", path, strerror(errno));
        free(tmp);
        return EXIT_FAIL;
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
        return EXIT_FAIL;
    }
    rc = write_results(bl, out, path);
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
    gale_ctx_opts co;
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
    progress_init(&pg, o.quiet);

    gale_ctx_opts_init(&co);
    co.backend = o.backend;
    co.device = (int)o.device;
    co.threads = (int)o.threads;
    st = gale_ctx_create(&ctx, &co);
    if (st != GALE_OK) {
        const char *b = o.backend == GALE_BACKEND_CUDA ? "cuda" : o.backend == GALE_BACKEND_CPU ? "cpu" : "auto";
        char what[64];
        snprintf(what, sizeof what, "cannot start the %s backend", b);
        gale_msg(what, st);
        return (st == GALE_E_RANGE || st == GALE_E_INVALID) ? EXIT_USAGE : EXIT_FAIL;
    }

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
        if (o.output)
            rc = write_output_file(&bl, o.output);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        msg("missing command");
        usage_main(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "xdrop") == 0)
        return cmd_xdrop(argc - 1, argv + 1);
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        if (argc > 2 && strcmp(argv[1], "help") == 0 && strcmp(argv[2], "xdrop") == 0)
            usage_xdrop(stdout);
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
