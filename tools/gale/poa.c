/*
 * gale poa [options] FILE...
 *
 * Partial-order alignment of windows of sequences (GALE_POA), writing what Debian's
 * `spoa` 4.0.8 writes for each window, byte for byte, windows in input order. Windows:
 * each FASTA/FASTQ file (plain or gzip/bgzf; '-' = stdin) is one window, as `spoa`
 * reads its one file, unless a line holding only '=' separates windows inside it; a
 * file in cudapoa's sample format (a line with the number of sequences n, then n lines
 * of one sequence each, repeated; ../shared/bench/gen_windows.py writes it) holds one
 * window per count line, its sequences named 1, 2, ... The windows are aligned in
 * batches on all threads. See doc/cli.md ("gale poa").
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "input.h"
#include "options.h"
#include "poa_scores.h"
#include "subcommands.h"

#define DEFAULT_BATCH_WINDOWS 4096

void usage_poa(FILE *out)
{
    fprintf(out,
        "Usage: gale poa [options] FILE...\n"
        "\n"
        "Partial-order alignment of windows of sequences, with the results of SPOA 4.0.8\n"
        "(Debian's spoa): the same options and output bytes as `spoa`. Each FASTA/FASTQ\n"
        "FILE (plain or gzip/bgzf; '-' = stdin) is a window, or several separated by a\n"
        "line holding only '='; a file in cudapoa's format (a line with a count n, then\n"
        "n sequence lines, repeated) holds one window per count, sequences named 1..n.\n"
        "FASTQ qualities weigh the bases as in spoa. Windows are written in input order.\n"
        "\n"
        "Options (spoa's):\n");
    usage_poa_scores(out,
        "  -r, --result N       0 consensus (FASTA, default), 1 MSA (FASTA), 2 both,\n"
        "                       3 graph (GFA), 4 consensus and graph (GFA); repeatable\n"
        "  -d, --dot FILE       also write the graph as DOT to FILE (the first window's;\n"
        "                       window N >= 2 goes to FILE.N)\n"
        "  -s, --strand-ambiguous\n"
        "                       for each sequence pick the strand with the better alignment\n");
    fprintf(out,
        "\n"
        "gale's:\n"
        "  --threads N          CPU threads (default: one per core)\n"
        "  --batch-size N       windows aligned per batch (default %d)\n"
        "  --backend B          auto, cpu or cuda (default auto: cuda when a GPU is usable;\n"
        "                       the CUDA kernel is experimental: GALE_EXPERIMENTAL_GPU=1)\n"
        "  -h, --help           show this help\n"
        "  --version            show the versions\n"
        "\n"
        "Scores must fit in [-128, 127] (spoa truncates to 8 bits).\n",
        DEFAULT_BATCH_WINDOWS);
}

/* One window: its records' names, bases and qualities (NULL when none). */
typedef struct window {
    size_t n, cap;
    char **names, **seqs, **quals;
    int64_t *lens;
} window;

typedef struct window_list {
    window *w;
    size_t n, cap;
} window_list;

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static void window_free(window *w)
{
    size_t i;
    for (i = 0; i < w->n; i++) {
        free(w->names[i]);
        free(w->seqs[i]);
        free(w->quals[i]);
    }
    free(w->names);
    free(w->seqs);
    free(w->quals);
    free(w->lens);
    memset(w, 0, sizeof *w);
}

/* Appends a record (takes name, seq, qual): 0, or -1 out of memory. */
static int window_push(window *w, char *name, char *seq, int64_t len, char *qual)
{
    if (w->n == w->cap) {
        size_t c = w->cap ? 2 * w->cap : 16;
        char **a = realloc(w->names, c * sizeof *a), **b2, **q2;
        int64_t *l2;
        if (!a) return -1;
        w->names = a;
        if (!(b2 = realloc(w->seqs, c * sizeof *b2))) return -1;
        w->seqs = b2;
        if (!(q2 = realloc(w->quals, c * sizeof *q2))) return -1;
        w->quals = q2;
        if (!(l2 = realloc(w->lens, c * sizeof *l2))) return -1;
        w->lens = l2;
        w->cap = c;
    }
    w->names[w->n] = name;
    w->seqs[w->n] = seq;
    w->quals[w->n] = qual;
    w->lens[w->n] = len;
    w->n++;
    return 0;
}

/* A fresh empty window at the end of the list: its index, or -1. */
static long list_new(window_list *l)
{
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 16;
        window *p = realloc(l->w, c * sizeof *p);
        if (!p) return -1;
        l->w = p;
        l->cap = c;
    }
    memset(&l->w[l->n], 0, sizeof l->w[l->n]);
    return (long)l->n++;
}

/* Trailing whitespace (bioparser's RightStrip) off s[0..*n). */
static void rstrip(const char *s, size_t *n)
{
    while (*n > 0 && (s[*n - 1] == ' ' || s[*n - 1] == '\t' || s[*n - 1] == '\r' || s[*n - 1] == '\n'))
        (*n)--;
}

/* The name of a header line (after '>' or '@'): up to the first space or tab, as spoa. */
static char *header_name(const char *h, size_t n)
{
    size_t k = 0;
    while (k < n && h[k] != ' ' && h[k] != '\t') k++;
    return dup_n(h, k);
}

/* Reads one file into windows appended to l: 0, or EXIT_FAIL after a message. */
static int read_file(const char *path, window_list *l)
{
    in_file f;
    int r, fmt = 0; /* '>' FASTA, '@' FASTQ, 'n' cudapoa */
    long cur = -1;
    kstring_t seq = {0, 0, NULL}, qual = {0, 0, NULL};
    char *name = NULL;
    uint64_t left = 0; /* cudapoa: sequences still to read in this window */
    int state = 0;     /* FASTQ: 0 header, 1 sequence, 2 quality */
    uint64_t hdr_line = 0;
    int st = in_open(&f, path);
    if (st) return st;
    f.records = 1;

#define FLUSH_RECORD()                                                                                \
    do {                                                                                              \
        if (name) {                                                                                   \
            char *s_ = dup_n(seq.s ? seq.s : "", seq.l);                                              \
            char *q_ = fmt == '@' ? dup_n(qual.s ? qual.s : "", qual.l) : NULL;                       \
            if (!s_ || (fmt == '@' && !q_) || window_push(&l->w[cur], name, s_, (int64_t)seq.l, q_)) { \
                free(s_);                                                                             \
                free(q_);                                                                             \
                goto out_of_memory;                                                                   \
            }                                                                                         \
            name = NULL;                                                                              \
            seq.l = qual.l = 0;                                                                       \
        }                                                                                             \
    } while (0)

    while ((r = in_getline(&f)) > 0) {
        const char *s = f.line.s;
        size_t n = f.line.l;
        rstrip(s, &n);
        if (fmt == 0) {
            if (n == 0) continue;
            if (s[0] == '>' || s[0] == '@') {
                fmt = s[0];
            } else if (s[0] >= '0' && s[0] <= '9') {
                fmt = 'n';
            } else {
                in_error(&f, f.lineno, 0, "not FASTA ('>'), FASTQ ('@') or cudapoa's format (a count)");
                goto fail;
            }
            if ((cur = list_new(l)) < 0) goto out_of_memory;
        }
        if (fmt == 'n') {
            if (left == 0) {
                int64_t v;
                if (n == 0) continue;
                if (parse_number(s, n, 0, INT32_MAX, &v) != NUM_OK) {
                    in_error(&f, f.lineno, 0, "expected the number of sequences of the next window");
                    goto fail;
                }
                if (l->w[cur].n > 0 || cur < 0) {
                    if ((cur = list_new(l)) < 0) goto out_of_memory;
                }
                left = (uint64_t)v;
                f.nrec = 0;
                continue;
            }
            {
                char nm[32];
                char *nmd, *sd;
                snprintf(nm, sizeof nm, "%zu", l->w[cur].n + 1);
                nmd = dup_n(nm, strlen(nm));
                sd = dup_n(s, n);
                if (!nmd || !sd || window_push(&l->w[cur], nmd, sd, (int64_t)n, NULL)) {
                    free(nmd);
                    free(sd);
                    goto out_of_memory;
                }
                left--;
            }
            continue;
        }
        if (fmt == '>' ) {
            if (n == 1 && s[0] == '=') { /* window separator */
                FLUSH_RECORD();
                if ((cur = list_new(l)) < 0) goto out_of_memory;
                continue;
            }
            if (n == 0) continue;
            if (s[0] == '>') {
                FLUSH_RECORD();
                if (!(name = header_name(s + 1, n - 1))) goto out_of_memory;
                f.nrec++;
                hdr_line = f.lineno;
                continue;
            }
            if (!name) {
                in_error(&f, f.lineno, 0, "sequence line before the first '>' header");
                goto fail;
            }
            if (kputsn(s, n, &seq) < 0) goto out_of_memory;
            continue;
        }
        /* FASTQ: header, sequence lines, '+' line, quality lines (as long as the sequence). */
        if (state == 0) {
            if (n == 0) continue;
            if (n == 1 && s[0] == '=') {
                if ((cur = list_new(l)) < 0) goto out_of_memory;
                continue;
            }
            if (s[0] != '@') {
                in_error(&f, f.lineno, f.nrec + 1, "expected a FASTQ header ('@')");
                goto fail;
            }
            if (!(name = header_name(s + 1, n - 1))) goto out_of_memory;
            f.nrec++;
            hdr_line = f.lineno;
            state = 1;
        } else if (state == 1) {
            if (n > 0 && s[0] == '+') {
                state = 2;
                if (seq.l == 0) {
                    FLUSH_RECORD();
                    state = 0;
                }
            } else if (kputsn(s, n, &seq) < 0) {
                goto out_of_memory;
            }
        } else {
            if (kputsn(s, n, &qual) < 0) goto out_of_memory;
            if (qual.l >= seq.l) {
                if (qual.l != seq.l) {
                    in_error(&f, hdr_line, f.nrec, "%zu quality values for %zu bases", qual.l, seq.l);
                    goto fail;
                }
                FLUSH_RECORD();
                state = 0;
            }
        }
    }
    if (r < 0) goto fail;
    if (fmt == '@' && state != 0) {
        in_error(&f, hdr_line, f.nrec, "the file ends inside this FASTQ record");
        goto fail;
    }
    if (fmt == 'n' && left > 0) {
        in_error(&f, f.lineno, 0, "the file ends %" PRIu64 " sequence(s) short of its last window", left);
        goto fail;
    }
    if (fmt == '>') FLUSH_RECORD();
    if (fmt == 0 && list_new(l) < 0) goto out_of_memory; /* an empty file: one empty window, as spoa */
    free(seq.s);
    free(qual.s);
    return in_close_checked(&f) ? EXIT_FAIL : 0;
out_of_memory:
    msg("out of memory");
fail:
    free(name);
    free(seq.s);
    free(qual.s);
    in_close(&f);
    return EXIT_FAIL;
#undef FLUSH_RECORD
}

/* The name of the MSA row / GFA path idx: the idx-th record with bases (records with
 * none have neither; spoa aborts on them), or NULL past the last. */
static const char *row_name(const window *w, size_t idx)
{
    size_t i;
    for (i = 0; i < w->n; i++)
        if (w->lens[i] > 0 && idx-- == 0) return w->names[i];
    return NULL;
}

/* Writes one window's results as spoa does for results[0..nres). */
static int write_window(FILE *out, const window *w, const gale_poa_result *r, const int *results, size_t nres)
{
    size_t k, i;
    for (k = 0; k < nres; k++) {
        switch (results[k]) {
        case 0:
            fprintf(out, ">Consensus LN:i:%" PRId64 "\n", r->consensus_len);
            fwrite(r->consensus, 1, (size_t)r->consensus_len, out);
            fputc('\n', out);
            break;
        case 1:
        case 2: {
            size_t rows = results[k] == 2 ? r->n_rows : r->n_rows - 1;
            for (i = 0; i < rows; i++) {
                const char *nm = i + 1 < r->n_rows ? row_name(w, i) : NULL;
                fprintf(out, ">%s\n", nm ? nm : "Consensus");
                fwrite(r->msa + i * (size_t)r->row_len, 1, (size_t)r->row_len, out);
                fputc('\n', out);
            }
            break;
        }
        case 3:
        case 4: {
            /* The library names paths 0, 1, ...; spoa names path i by record i. */
            const char *p = r->gfa, *end = r->gfa + r->gfa_len;
            while (p < end) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
                if (len > 2 && p[0] == 'P' && p[1] == '\t') {
                    const char *tab = memchr(p + 2, '\t', len - 2);
                    size_t nlen = tab ? (size_t)(tab - (p + 2)) : 0;
                    if (nlen == 9 && memcmp(p + 2, "Consensus", 9) == 0) {
                        if (results[k] == 4) fwrite(p, 1, len, out);
                    } else {
                        char *e;
                        unsigned long idx = strtoul(p + 2, &e, 10);
                        fputs("P\t", out);
                        const char *nm = row_name(w, idx);
                        (void)e;
                        fputs(nm ? nm : "", out);
                        fwrite(tab, 1, len - (size_t)(tab - p), out);
                    }
                } else {
                    fwrite(p, 1, len, out);
                }
                p += len;
            }
            break;
        }
        default: break;
        }
    }
    return 0;
}

/* spoa -d: the graph as PrintDot writes it to the window's file (FILE for the first
 * window, FILE.N for window N >= 2). colored: whether spoa would have drawn the
 * consensus before (-r 0, 2, 3 or 4); the library's DOT colours it, spoa's -r 1 alone
 * leaves it uncoloured. 0, or EXIT_FAIL after a message. */
static int write_dot(const char *path, size_t window_no, const gale_poa_result *r, int colored)
{
    static const char node_col[] = ", style = filled, fillcolor = goldenrod1]";
    static const char edge_col[] = ", color = goldenrod1]";
    char *name = malloc(strlen(path) + 32);
    FILE *f;
    const char *p = r->dot, *end = r->dot + r->dot_len;
    int bad;
    if (!name) {
        msg("out of memory");
        return EXIT_FAIL;
    }
    if (window_no == 1) strcpy(name, path);
    else sprintf(name, "%s.%zu", path, window_no);
    if (!(f = fopen(name, "w"))) {
        msg("-d: cannot write %s: %s", name, strerror(errno));
        free(name);
        return EXIT_FAIL;
    }
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p), keep = len;
        /* Lines end in "]\n" where a colour may stand; labels hold no ", ". */
        if (!colored && len > sizeof node_col && memcmp(p + len - sizeof node_col, node_col, sizeof node_col - 1) == 0)
            keep = len - sizeof node_col;
        else if (!colored && len > sizeof edge_col &&
                 memcmp(p + len - sizeof edge_col, edge_col, sizeof edge_col - 1) == 0)
            keep = len - sizeof edge_col;
        fwrite(p, 1, keep, f);
        if (keep != len) fputs("]\n", f);
        p += len;
    }
    bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        msg("-d: cannot write %s: %s", name, strerror(errno));
        free(name);
        return EXIT_FAIL;
    }
    free(name);
    return 0;
}

static int run_batch(gale_ctx *ctx, const int64_t *params, window *ws, size_t nw, const int *results, size_t nres,
                     const char *dot_path, size_t first_no)
{
    static const int ids[] = {GALE_P_MATCH,         GALE_P_MISMATCH,       GALE_P_POA_GAP_OPEN,
                              GALE_P_POA_GAP_EXTEND, GALE_P_POA_GAP_OPEN2, GALE_P_POA_GAP_EXTEND2,
                              GALE_P_POA_ALGORITHM, GALE_P_POA_OUTPUT,    GALE_P_POA_STRAND_AMBIGUOUS};
    gale_batch *b = NULL;
    gale_status st;
    size_t i;
    int rc = EXIT_FAIL;
    if ((st = gale_batch_create(ctx, GALE_POA, &b)) != GALE_OK) {
        gale_msg("creating a batch", st);
        return EXIT_FAIL;
    }
    for (i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if ((st = gale_batch_set(b, ids[i], params[i])) != GALE_OK) {
            gale_msg("setting a parameter", st);
            goto done;
        }
    for (i = 0; i < nw; i++) {
        gale_group g;
        int has_q = ws[i].n > 0 && ws[i].quals[0] != NULL;
        gale_group_init(&g);
        g.n = ws[i].n;
        g.seqs = (const char *const *)ws[i].seqs;
        g.lens = ws[i].lens;
        g.quals = has_q ? (const char *const *)ws[i].quals : NULL;
        g.user = i;
        if ((st = gale_batch_add_group(b, &g)) != GALE_OK) {
            msg("window %zu (its first record: %s): %s", i + 1, ws[i].n ? ws[i].names[0] : "none",
                strip_task_prefix(gale_last_error()));
            goto done;
        }
    }
    if ((st = gale_submit(b)) != GALE_OK || (st = gale_wait(b)) != GALE_OK) {
        gale_msg("aligning", st);
        goto done;
    }
    for (i = 0; i < nw; i++) {
        gale_poa_result r;
        memset(&r, 0, sizeof r);
        r.size = sizeof r;
        if ((st = gale_result_poa(b, i, &r)) != GALE_OK) {
            gale_msg("reading a result", st);
            goto done;
        }
        write_window(stdout, &ws[i], &r, results, nres);
        if (dot_path) {
            size_t k;
            int colored = 0;
            for (k = 0; k < nres; k++) colored |= results[k] != 1;
            /* spoa writes the DOT after its output: keep that order for a FIFO reader. */
            if (fflush(stdout) != 0 || write_dot(dot_path, first_no + i, &r, colored)) goto done;
        }
    }
    rc = 0;
done:
    gale_batch_destroy(b);
    return rc;
}

int cmd_poa(int argc, char **argv)
{
    static const struct option longopts[] = {
        POA_SCORE_LONGOPTS,
        {"result", required_argument, NULL, 'r'},
        {"dot", required_argument, NULL, 'd'},
        {"strand-ambiguous", no_argument, NULL, 's'},
        {"threads", required_argument, NULL, 1001},
        {"batch-size", required_argument, NULL, 1002},
        {"backend", required_argument, NULL, 1004},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 1003},
        {NULL, 0, NULL, 0},
    };
    /* m n g e q c algorithm (poa_scores.h), output, strand-ambiguous */
    int64_t p[POA_N_SCORES + 2] = {0};
    const char *dot_path = NULL;
    int results[64];
    size_t nres = 0, i;
    int64_t threads = 0, batch = DEFAULT_BATCH_WINDOWS, v;
    int opt, rc = 0, backend = GALE_BACKEND_AUTO;
    window_list l = {NULL, 0, 0};
    gale_ctx_opts o;
    gale_ctx *ctx = NULL;
    gale_status st;

    poa_scores_init(p);
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, POA_SCORE_OPTSTRING "r:d:sh", longopts, NULL)) != -1) {
        const int sc = poa_score_option("poa", opt, optarg, p);
        if (sc < 0) return EXIT_USAGE;
        if (sc > 0) continue;
        switch (opt) {
        case 'r':
            if (option_number("poa", "-r", optarg, 0, 4, &v)) return EXIT_USAGE;
            if (nres == sizeof results / sizeof results[0]) return usage_error("poa", "too many -r options");
            results[nres++] = (int)v;
            break;
        case 'd': dot_path = optarg[0] ? optarg : NULL; break; /* spoa: an empty path writes nothing */
        case 's': p[POA_N_SCORES + 1] = 1; break;
        case 1001:
            if (option_number("poa", "--threads", optarg, 0, GALE_THREADS_MAX, &threads)) return EXIT_USAGE;
            break;
        case 1002:
            if (option_number("poa", "--batch-size", optarg, 1, 1 << 24, &batch)) return EXIT_USAGE;
            break;
        case 1004:
            if (strcmp(optarg, "auto") == 0) backend = GALE_BACKEND_AUTO;
            else if (strcmp(optarg, "cpu") == 0) backend = GALE_BACKEND_CPU;
            else if (strcmp(optarg, "cuda") == 0) backend = GALE_BACKEND_CUDA;
            else return usage_error("poa", "--backend: auto, cpu or cuda, not '%s'", optarg);
            break;
        case 'h':
            usage_poa(stdout);
            return stdout_status();
        case 1003:
            print_version();
            return stdout_status();
        default:
            return usage_error("poa", "unknown option or missing value: %s", argv[optind - 1]);
        }
    }
    if (optind >= argc) return usage_error("poa", "missing input file");
    if (nres == 0) results[nres++] = 0;
    for (i = 0; i < nres; i++)
        p[POA_N_SCORES] |= results[i] == 0 ? GALE_POA_OUT_CONSENSUS
              : results[i] <= 2 ? GALE_POA_OUT_MSA
                                : GALE_POA_OUT_GFA | GALE_POA_OUT_CONSENSUS;
    if (dot_path) p[POA_N_SCORES] |= GALE_POA_OUT_DOT;

    if (dot_path) { /* an unwritable DOT file refused before any output (spoa ignores it) */
        FILE *f = fopen(dot_path, "w");
        if (!f || fclose(f) != 0) {
            msg("-d: cannot write %s: %s", dot_path, strerror(errno));
            return EXIT_FAIL;
        }
    }
    for (; optind < argc && rc == 0; optind++) rc = read_file(argv[optind], &l);
    if (rc == 0) {
        gale_ctx_opts_init(&o);
        o.threads = (int)threads;
        o.backend = backend;
        if ((st = gale_ctx_create(&ctx, &o)) != GALE_OK) {
            gale_msg("creating the context", st);
            rc = EXIT_FAIL;
        }
    }
    for (i = 0; rc == 0 && i < l.n; i += (size_t)batch) {
        size_t nw = l.n - i < (size_t)batch ? l.n - i : (size_t)batch;
        rc = run_batch(ctx, p, l.w + i, nw, results, nres, dot_path, i + 1);
    }
    gale_ctx_destroy(ctx);
    for (i = 0; i < l.n; i++) window_free(&l.w[i]);
    free(l.w);
    if (rc == 0) rc = stdout_status();
    return rc;
}
