/*
 * gale xdrop [options] FILE
 *
 * Reads seed-extension tasks in LOGAN's demo format (plain or gzipped, '-' for
 * stdin), runs them through the public gale API and writes one TSV line per
 * pair, in input order. The input is streamed (stream.c): chunks of lines are
 * parsed on several threads and aligned while the next is read, and results
 * are written chunk by chunk. A malformed line fails the run: the results of
 * the chunks before it may already be written (a regular -o FILE is left as
 * it was).
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
#include "ranks.h"
#include "stream.h"
#include "subcommands.h"
#include "threads.h"

#define DEFAULT_K          17
#define DEFAULT_X          100
#define DEFAULT_MATCH      1
#define DEFAULT_MISMATCH   (-1)
#define DEFAULT_GAP        (-1)
#define DEFAULT_BATCH_SIZE 65536
#define DEFAULT_BATCH_BASES ((int64_t)1 << 25)

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
        "                       included (default: SeqAn Dna5, N matches N)\n"
        "  --bytes              compare bytes exactly: case and IUPAC codes as they\n"
        "                       are (SeqAn's char alphabet, LOGAN's kernel)\n",
        DEFAULT_K, DEFAULT_X, DEFAULT_MATCH, DEFAULT_MISMATCH, DEFAULT_GAP);
    usage_backend_opts(out, HELP_WIDTH);
    fprintf(out,
        "  --batch-size N       at most N pairs per gale batch (default %d)\n"
        "  --batch-bases N      close a batch once its lines hold N bytes (default %" PRId64 ");\n"
        "                       memory is about 3 batches' worth (doc/cli.md)\n",
        DEFAULT_BATCH_SIZE, DEFAULT_BATCH_BASES);
    usage_output_opts(out, HELP_WIDTH);
}

/* ------------------------------------------------------------------ */
/* Options                                                             */
/* ------------------------------------------------------------------ */

typedef struct xdrop_opts {
    int64_t k, xdrop, match, mismatch, gap;
    int n_mismatch, bytes;
    common_opts com;
    int64_t batch_bases;
    const char *input;
} xdrop_opts;

enum {
    OPT_MATCH = 270,
    OPT_MISMATCH,
    OPT_GAP,
    OPT_NMISMATCH,
    OPT_BYTES,
    OPT_BATCH_BASES
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
        {"bytes",       no_argument,       NULL, OPT_BYTES},
        {"batch-bases", required_argument, NULL, OPT_BATCH_BASES},
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
    o->bytes = 0;
    common_opts_init(&o->com, DEFAULT_BATCH_SIZE);
    o->batch_bases = DEFAULT_BATCH_BASES;
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
        case OPT_BYTES:
            o->bytes = 1;
            break;
        case OPT_BATCH_BASES:
            if (option_number("xdrop", "--batch-bases", optarg, 1, INT64_MAX, &v) != 0)
                return EXIT_USAGE;
            o->batch_bases = v;
            break;
        }
    }
    if (o->n_mismatch && o->bytes)
        return usage_error("xdrop", "xdrop: --n-mismatch and --bytes are two alphabet policies: give one");
    if (optind >= argc)
        return usage_error("xdrop", "xdrop: missing input FILE ('-' for stdin)");
    if (argc - optind > 1)
        return usage_error("xdrop", "xdrop: expected one input FILE, got %d arguments", argc - optind);
    o->input = argv[optind];
    return -1;
}

/* ------------------------------------------------------------------ */
/* The run                                                             */
/* ------------------------------------------------------------------ */

typedef struct xdrop_run {
    const xdrop_opts *o;
    logan_reader rd;
    int opened;               /* rd is open (by the reader thread's first fill) */
    line_chunk lc[STREAM_SLOTS + 1]; /* each slot's lines (its tasks point into them); the last: another rank's
                                        chunk, read past (stream.h) */
    out_file *out_file;
    int threads;              /* the parsers' */
    FILE *out;
    const char *outname;
    progress *pg;
    run_totals totals;
} xdrop_run;

/* Sets every parameter; on failure prints a message and returns the exit
 * status (2 for a value out of the library's bounds). */
static int set_params(gale_batch *b, const void *opts)
{
    const xdrop_opts *o = opts;
    param_value p[6];
    p[0].id = GALE_P_MATCH;    p[0].v = o->match;    p[0].name = "--match";
    p[1].id = GALE_P_MISMATCH; p[1].v = o->mismatch; p[1].name = "--mismatch";
    p[2].id = GALE_P_GAP;      p[2].v = o->gap;      p[2].name = "--gap";
    p[3].id = GALE_P_XDROP;    p[3].v = o->xdrop;    p[3].name = "-x";
    p[4].id = GALE_P_N_POLICY;
    p[4].v = o->bytes ? GALE_N_BYTES : o->n_mismatch ? GALE_N_MISMATCH : GALE_N_DNA5;
    p[4].name = o->bytes ? "--bytes" : "--n-mismatch";
    p[5].id = GALE_P_DIRECTION; p[5].v = GALE_DIR_BOTH; p[5].name = "direction";
    return set_param_values(b, p, 6, "xdrop");
}

static int xdrop_setup(void *self, gale_ctx **ctx, gale_batch *b[STREAM_SLOTS])
{
    xdrop_run *run = self;
    int rc = stream_make_batches("xdrop", &run->o->com, GALE_XDROP, "a batch", set_params, run->o, ctx, b);
    return stream_open_output(rc, run->out_file, run->o->com.output, NULL, &run->out, &run->outname);
}

static int xdrop_fill(void *self, stream_chunk *c)
{
    xdrop_run *run = self;
    const xdrop_opts *o = run->o;
    int64_t n, i;
    if (!run->opened) {
        if (logan_open(&run->rd, o->input) != 0)
            return EXIT_FAIL;
        run->opened = 1;
    }
    if (c->skip) { /* another rank's: its lines, unparsed */
        n = logan_read_chunk(&run->rd, &run->lc[c->slot], o->k, NULL, (size_t)o->com.batch_size,
                             (size_t)o->batch_bases, run->threads);
        c->n = n > 0 ? (size_t)n : 0;
        c->check_only = logan_failing(&run->rd);
        return n < 0 ? EXIT_FAIL : 0;
    }
    if (stream_reserve(c, (size_t)o->com.batch_size) != 0)
        return EXIT_FAIL;
    n = logan_read_chunk(&run->rd, &run->lc[c->slot], o->k, c->task, (size_t)o->com.batch_size,
                         (size_t)o->batch_bases, run->threads);
    if (n < 0)
        return EXIT_FAIL;
    for (i = 0; i < n; i++)
        c->task[i].user = c->first + (uint64_t)i;
    c->n = (size_t)n;
    c->check_only = logan_failing(&run->rd);
    return 0;
}

/* Reports a pair the library refused, by its line. */
static void xdrop_add_error(void *self, const stream_chunk *c, size_t i, gale_status st)
{
    xdrop_run *run = self;
    const line_chunk *lc = &run->lc[c->slot];
    uint64_t line = lc->first_line + i;
    /* the line's last byte is its strand (a CR was cut off by the parser) */
    const char *s = lc->buf.s + lc->off[i];
    size_t len = lc->off[i + 1] - lc->off[i] - 1;
    int rc_h = len >= 1 && (s[len - 1] == 'c' || (len >= 2 && s[len - 1] == '\0' && s[len - 2] == 'c'));
    if (st == GALE_E_INPUT)
        in_error(&run->rd.f, line, 0, "invalid pair: %s (h = %sseqH, v = seqV)", strip_task_prefix(gale_last_error()),
                 rc_h ? "reverse-complemented " : "");
    else
        in_error(&run->rd.f, line, 0, "cannot add the pair: %s (%s)", gale_status_string(st), gale_last_error());
}

static int xdrop_write(void *self, stream_chunk *c)
{
    enum { RANGE = 1024 };
    xdrop_run *run = self;
    gale_result res[RANGE];
    size_t i, j, m;
    for (i = 0; i < c->n; i += m) {
        gale_status st;
        m = c->n - i < RANGE ? c->n - i : RANGE;
        for (j = 0; j < m; j++) {
            memset(&res[j], 0, sizeof res[j]);
            res[j].size = sizeof res[j];
        }
        st = gale_result_get_range(c->b, i, m, res);
        if (st != GALE_OK) {
            gale_msg("cannot read the results", st);
            return EXIT_FAIL;
        }
        for (j = 0; j < m; j++) {
            uint64_t index = c->first + i + j;
            if (res[j].user != index) {
                msg("internal error: result %" PRIu64 " came back as %" PRIu64, index, res[j].user);
                return EXIT_FAIL;
            }
            if (put_xdrop_tsv(run->out, index, &res[j]) < 0) {
                msg("%s: write error: %s", run->outname, strerror(errno));
                return EXIT_FAIL;
            }
        }
    }
    run_totals_add(&run->totals, c->b);
    return EXIT_OK;
}

static void xdrop_progress(void *self, uint64_t done)
{
    xdrop_run *run = self;
    progress_bar(run->pg, in_fraction(&run->rd.f), "of %s read, %" PRIu64 " pairs extended", run->rd.f.display, done);
}

int cmd_xdrop(int argc, char **argv)
{
    xdrop_opts o;
    xdrop_run run;
    gale_ctx *ctx = NULL;
    progress pg;
    out_file out;
    uint64_t done = 0;
    int rc, i;

    rc = parse_xdrop_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    progress_init(&pg, o.com.quiet || ranks_me() > 0); /* the bar and the summary: rank 0's */
    memset(&run, 0, sizeof run);
    memset(&out, 0, sizeof out);
    run.o = &o;
    run.pg = &pg;
    run.threads = cli_threads(o.com.threads);

    run.out_file = &out;
    {
        const stream_ops ops = {.self = &run, .setup = xdrop_setup, .fill = xdrop_fill, .add_error = xdrop_add_error,
                                .write = xdrop_write, .dest = &run.out, .destname = &run.outname,
                                .progress = xdrop_progress};
        rc = stream_run(&ops, &ctx, &pg, &done);
    }
    if (rc == 0 && out.fp && (fflush(out.fp) != 0 || ferror(out.fp))) {
        msg("%s: write error: %s", out.display, strerror(errno));
        rc = EXIT_FAIL;
    }
    if (rc == 0 && run.opened)
        rc = logan_close(&run.rd, 1);
    /* every rank read its input to the end before -o FILE is replaced */
    rc = ranks_agree(rc);
    rc = out_close(&out, rc);
    rc = ranks_totals(rc, &run.totals);

    if (rc == 0) {
        run.totals.pairs = done;
        print_summary(&pg, "xdrop", ctx, &run.totals, "DP");
    }

    if (run.opened)
        logan_close(&run.rd, 0);
    for (i = 0; i <= STREAM_SLOTS; i++)
        line_chunk_free(&run.lc[i]);
    return stream_release(ctx, rc);
}
