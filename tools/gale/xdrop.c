/*
 * gale xdrop [options] FILE
 *
 * Reads seed-extension tasks in LOGAN's demo format (plain or gzipped, '-' for
 * stdin), runs them through the public gale API and writes one TSV line per
 * pair, in input order. The whole input is read and validated before anything
 * is computed or written: a malformed line fails the run without a single
 * result line.
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
#include "output.h"
#include "subcommands.h"

#define DEFAULT_K          17
#define DEFAULT_X          100
#define DEFAULT_MATCH      1
#define DEFAULT_MISMATCH   (-1)
#define DEFAULT_GAP        (-1)
#define DEFAULT_BATCH_SIZE 65536

#define HELP_WIDTH 21 /* the options' column in the help */

void usage_xdrop(FILE *out)
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
        "                       included (default: SeqAn Dna5, N matches N)\n",
        DEFAULT_K, DEFAULT_X, DEFAULT_MATCH, DEFAULT_MISMATCH, DEFAULT_GAP);
    usage_backend_opts(out, HELP_WIDTH);
    fprintf(out, "  --batch-size N       pairs per gale batch (default %d)\n", DEFAULT_BATCH_SIZE);
    usage_output_opts(out, HELP_WIDTH);
}

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

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
    int c, rc = 0;

    o->k = DEFAULT_K;
    o->xdrop = DEFAULT_X;
    o->match = DEFAULT_MATCH;
    o->mismatch = DEFAULT_MISMATCH;
    o->gap = DEFAULT_GAP;
    o->n_mismatch = 0;
    common_opts_init(&o->com, DEFAULT_BATCH_SIZE);
    o->input = NULL;

    opts_begin();
    while ((c = next_opt(argc, argv, ":k:x:o:qh", longopts, "xdrop", usage_xdrop, &o->com, &rc)) != OPTS_END) {
        int64_t v;
        const char *name;
        if (c == OPTS_EXIT)
            return rc;
        switch (c) {
        case 'k':
            if (option_number("xdrop", "-k", optarg, 1, INT32_MAX, &v) != 0)
                return EXIT_USAGE;
            o->k = v;
            break;
        case 'x':
        case OPT_MATCH:
        case OPT_MISMATCH:
        case OPT_GAP:
            name = c == 'x' ? "-x" : c == OPT_MATCH ? "--match" : c == OPT_MISMATCH ? "--mismatch" : "--gap";
            /* the library checks the bounds (gale_batch_set) */
            if (option_number("xdrop", name, optarg, INT64_MIN, INT64_MAX, &v) != 0)
                return EXIT_USAGE;
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
    if (bl->n == bl->cap) {
        gale_batch **nb = grow_array(bl->b, &bl->cap, sizeof *nb, 16);
        if (!nb) {
            msg("out of memory");
            return EXIT_FAIL;
        }
        bl->b = nb;
    }
    st = gale_batch_create(ctx, GALE_XDROP, &b);
    if (st != GALE_OK) {
        gale_msg("cannot create a batch", st);
        return EXIT_FAIL;
    }
    bl->b[bl->n++] = b;
    return set_params(b, o);
}

/* Reports a pair the library refused, by its line. */
static void report_add_error(const logan_reader *rd, const gale_task *t, gale_status st)
{
    if (st == GALE_E_INPUT)
        in_error(&rd->f, rd->f.lineno, 0, "invalid pair: %s (h = %sseqH, v = seqV)",
                 strip_task_prefix(gale_last_error()), t->h == rd->rc_buf ? "reverse-complemented " : "");
    else
        in_error(&rd->f, rd->f.lineno, 0, "cannot add the pair: %s (%s)", gale_status_string(st),
                 gale_last_error());
}

/* Reads the whole input into batches. Returns 0 or an exit status. */
static int read_input(const xdrop_opts *o, gale_ctx *ctx, batch_list *bl, progress *pg, uint64_t *npairs)
{
    logan_reader rd;
    gale_task t;
    size_t in_batch = 0;
    int r, rc = 0;

    *npairs = 0;
    if (logan_open(&rd, o->input) != 0)
        return EXIT_FAIL;

    /* the first batch exists already (parameters were checked on it) */
    while ((r = logan_read(&rd, o->k, &t)) > 0) {
        gale_status st;
        t.user = *npairs;
        if (in_batch == (size_t)o->com.batch_size) {
            rc = new_batch(ctx, o, bl);
            if (rc != 0)
                break;
            in_batch = 0;
        }
        st = gale_batch_add(bl->b[bl->n - 1], &t);
        if (st != GALE_OK) {
            report_add_error(&rd, &t, st);
            rc = EXIT_FAIL;
            break;
        }
        in_batch++;
        (*npairs)++;
        progress_bar(pg, in_fraction(&rd.f), "reading %s: %" PRIu64 " pairs", rd.f.display, *npairs);
    }
    if (rc == 0 && r < 0)
        rc = EXIT_FAIL;
    r = logan_close(&rd, rc == 0);
    return rc ? rc : r;
}

/* ------------------------------------------------------------------ */
/* Running and writing                                                 */
/* ------------------------------------------------------------------ */

static void progress_running(progress *p, uint64_t done, uint64_t total)
{
    progress_bar(p, total ? (double)done / (double)total : 1.0, "%" PRIu64 "/%" PRIu64 " pairs extended", done,
                 total);
}

static int wait_all(const batch_list *bl, progress *pg, uint64_t total)
{
    size_t i, j;
    uint64_t done_before = 0;
    for (i = 0; i < bl->n; i++) {
        gale_status st;
        size_t count = 0;
        for (;;) {
            uint64_t done = done_before;
            st = gale_poll(bl->b[i], progress_poll_ms(pg));
            if (st != GALE_E_AGAIN)
                break;
            for (j = i + 1; j < bl->n; j++) {
                size_t c = 0;
                if (gale_poll(bl->b[j], 0) == GALE_OK && gale_batch_count(bl->b[j], &c) == GALE_OK)
                    done += c;
            }
            progress_running(pg, done, total);
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
            if (put_xdrop_tsv(out, index, &res) < 0) {
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

/* Submits every batch; only once the whole input is valid. */
static int submit_all(const batch_list *bl, progress *pg)
{
    size_t i;
    for (i = 0; i < bl->n; i++) {
        gale_status st = gale_submit(bl->b[i]);
        if (st != GALE_OK) {
            progress_clear(pg);
            gale_msg("cannot submit a batch", st);
            return EXIT_FAIL;
        }
    }
    return EXIT_OK;
}

int cmd_xdrop(int argc, char **argv)
{
    xdrop_opts o;
    gale_ctx *ctx = NULL;
    batch_list bl = {NULL, 0, 0};
    progress pg;
    out_file out;
    uint64_t npairs = 0;
    size_t i;
    gale_status st;
    int rc;

    rc = parse_xdrop_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    progress_init(&pg, o.com.quiet);

    rc = start_context("xdrop", &o.com, &ctx);
    if (rc != EXIT_OK)
        return rc;

    memset(&out, 0, sizeof out);
    /* the first batch, also to check the scoring parameters before reading */
    rc = new_batch(ctx, &o, &bl);
    /* -o FILE before the work: a name that cannot be written fails the run
     * at once (a regular FILE is replaced only at the end) */
    if (rc == 0)
        rc = out_open(&out, o.com.output);
    if (rc == 0)
        rc = read_input(&o, ctx, &bl, &pg, &npairs);
    if (rc == 0)
        rc = submit_all(&bl, &pg);
    if (rc == 0)
        rc = wait_all(&bl, &pg, npairs);
    progress_clear(&pg);

    /* and write only once every result is there */
    if (rc == 0)
        rc = write_results(&bl, out.fp, out.display);
    rc = out_close(&out, rc);

    if (rc == 0) {
        run_totals tot;
        memset(&tot, 0, sizeof tot);
        tot.pairs = npairs;
        for (i = 0; i < bl.n; i++)
            run_totals_add(&tot, bl.b[i]);
        print_summary(&pg, "xdrop", ctx, &tot, "DP");
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
