/*
 * gale compare [options] A.fa B.fa
 *
 * GPUGECKO-style whole-genome comparison (gale_compare, doc/compare.md): every ungapped
 * fragment of A (the target) against B (the query) on both strands, written as PAF,
 * LASTZ's segments (which `gale lastz A B --segments=FILE` reads) or LASTZ's general
 * format, with an optional SVG dot plot. The files' records are read as gale lastz reads
 * them (lastz_seqfile.c: FASTA, FASTQ, 2bit, nib; names as lastz takes them) and joined,
 * one byte 0 between records.
 */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gale.h"
#include "lastz_int.h"
#include "options.h"
#include "output.h"
#include "subcommands.h"

#define HELP_WIDTH 21
#define CCMD "compare"

void usage_compare(FILE *out)
{
    fprintf(out,
        "Usage: gale compare [options] A.fa B.fa\n"
        "\n"
        "Exhaustive seed-and-extend of two genomes, as GPUGECKO does: every k-mer of A\n"
        "(the target) equal to one of B (the query) or of B's reverse complement is a hit,\n"
        "extended along its diagonal by ungapped X-drop unless the diagonal's last\n"
        "extension passed it; fragments long and identical enough are written. Each\n"
        "file's records are joined (no word or extension crosses a record's end). Bases\n"
        "A C G T in either case; any other letter is a non-base. doc/compare.md has the\n"
        "exact rules. Output: per query record (in B's order), the + strand's fragments\n"
        "then the - strand's, each by diagonal then start.\n"
        "\n"
        "Options:\n"
        "  -k, --word N         word length, 12..32 (default 32)\n"
        "  --match N            match score, 1..2^20 (default 1)\n"
        "  --mismatch N         mismatch penalty, 0..2^20, scored -N (default 1)\n"
        "  --xdrop N            X-drop, 0..2^30 (default 10)\n"
        "  --min-length N       least fragment length (default 40)\n"
        "  --min-identity P     least identity, percent 0..100 (default 60)\n"
        "  --max-occ N          skip words occurring more than N times in A\n"
        "                       (default 0: no limit)\n"
        "  --strand S           both, plus or minus (default both)\n"
        "  --format F           paf (default), segments (lastz --format=segments, for\n"
        "                       gale lastz A B --segments=FILE) or general (lastz's\n"
        "                       --format=general default fields)\n"
        "  --dotplot FILE.svg   also write an SVG dot plot (A on x, B on y)\n");
    usage_backend_opts(out, HELP_WIDTH);
    fprintf(out, "                       (compare runs on the CPU on every backend: no GPU\n"
                 "                       kernel yet)\n");
    usage_output_opts(out, HELP_WIDTH);
}

enum { CF_PAF, CF_SEGMENTS, CF_GENERAL };

enum {
    OPT_C_MATCH = 300,
    OPT_C_MISMATCH,
    OPT_C_XDROP,
    OPT_C_MINLEN,
    OPT_C_MINID,
    OPT_C_MAXOCC,
    OPT_C_STRAND,
    OPT_C_FORMAT,
    OPT_C_DOTPLOT
};

/* One input: its records and the joined sequence (a byte 0 between records). */
typedef struct genome {
    const char *path;
    record *recs;
    long n;
    uint64_t *off; /* record k: joined[off[k] .. off[k] + recs[k].len) */
    char *joined;
    uint64_t len;
} genome;

static void genome_free(genome *g)
{
    free_records(g->recs, g->n);
    free(g->off);
    free(g->joined);
}

static int genome_read(genome *g, const char *path)
{
    seq_spec sp;
    uint64_t len = 0;
    memset(g, 0, sizeof *g);
    memset(&sp, 0, sizeof sp);
    g->path = path;
    g->n = read_sequences(path, 0, NULL, NULL, &g->recs);
    if (g->n < 0) return -1;
    if (g->n == 0) {
        msg("%s: no sequences", path);
        return -1;
    }
    apply_names(&sp, g->recs, g->n);
    g->off = malloc((size_t)g->n * sizeof *g->off);
    if (!g->off) goto oom;
    for (long k = 0; k < g->n; k++) {
        /* (an empty record may have no bytes at all: memchr and memcpy take no NULL) */
        const void *zero = g->recs[k].len ? memchr(g->recs[k].seq, 0, g->recs[k].len) : NULL;
        if (zero) {
            msg("%s: record %ld (%s): byte 0 at position %zu (it separates records)", path, k + 1, g->recs[k].name,
                (size_t)((const char *)zero - g->recs[k].seq) + 1);
            return -1;
        }
        g->off[k] = len;
        len += g->recs[k].len + (k + 1 < g->n);
    }
    g->joined = malloc(len ? len : 1);
    if (!g->joined) goto oom;
    for (long k = 0; k < g->n; k++) {
        if (g->recs[k].len) memcpy(g->joined + g->off[k], g->recs[k].seq, g->recs[k].len);
        if (k + 1 < g->n) g->joined[g->off[k] + g->recs[k].len] = 0;
    }
    g->len = len;
    return 0;
oom:
    msg("%s: out of memory", path);
    return -1;
}

/* The record holding joined position x (the last one starting at or before it). */
static long genome_record(const genome *g, uint64_t x)
{
    long lo = 0, hi = g->n - 1;
    while (lo < hi) {
        const long mid = (lo + hi + 1) / 2;
        if (g->off[mid] <= x) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* A fragment placed on its records: the target record ta and start on it (0-based), the
 * query record qb, its start on the query record's + strand (PAF) and on the strand
 * aligned (the - strand: on the record's reverse complement, as lastz counts). */
typedef struct placed {
    const gale_fragment *f;
    long ta, qb;
    uint64_t tstart, qstart_plus, qstart_strand;
} placed;

static placed place(const genome *a, const genome *b, const gale_fragment *f)
{
    placed p;
    p.f = f;
    p.ta = genome_record(a, f->a_start);
    p.tstart = f->a_start - a->off[p.ta];
    if (f->strand == '+') {
        p.qb = genome_record(b, f->b_start);
        p.qstart_plus = p.qstart_strand = f->b_start - b->off[p.qb];
    } else {
        /* on B': [b_start, b_start + length); on B: [lb - b_start - length, lb - b_start) */
        const uint64_t qs = b->len - f->b_start - f->length;
        p.qb = genome_record(b, qs);
        p.qstart_plus = qs - b->off[p.qb];
        p.qstart_strand = b->recs[p.qb].len - (p.qstart_plus + f->length);
    }
    return p;
}

/* The CLI's order: by query record, + strand before -, each group in the library's order. */
static int cmp_placed(const void *x, const void *y)
{
    const placed *p = x, *q = y;
    if (p->qb != q->qb) return p->qb < q->qb ? -1 : 1;
    if (p->f->strand != q->f->strand) return p->f->strand == '+' ? -1 : 1;
    return p->f < q->f ? -1 : p->f > q->f;
}

/* s as SVG text (<, & and > escaped) */
static void svg_text(FILE *o, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", o);
        else if (*s == '&') fputs("&amp;", o);
        else if (*s == '>') fputs("&gt;", o);
        else fputc(*s, o);
    }
}

static void write_svg(FILE *o, const genome *a, const genome *b, const placed *pl, size_t n)
{
    const double W = 800, H = 800, M = 60;
    const double sx = a->len ? (W - 2 * M) / (double)a->len : 1, sy = b->len ? (H - 2 * M) / (double)b->len : 1;
    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
               "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n"
               "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n",
            W, H, W, H, W, H, M, M, W - 2 * M, H - 2 * M);
    /* record boundaries and names (A on x at the bottom, B on y at the left, B from the top) */
    for (long k = 0; k < a->n; k++) {
        const double x = M + sx * (double)a->off[k];
        if (k > 0)
            fprintf(o, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"gray\" stroke-width=\"0.5\"/>\n",
                    x, M, x, H - M);
        fprintf(o, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"10\" font-family=\"sans-serif\">", x + 2, H - M + 14);
        svg_text(o, a->recs[k].name);
        fprintf(o, "</text>\n");
    }
    for (long k = 0; k < b->n; k++) {
        const double y = M + sy * (double)b->off[k];
        if (k > 0)
            fprintf(o, "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"gray\" stroke-width=\"0.5\"/>\n",
                    M, y, W - M, y);
        fprintf(o, "<text x=\"%.0f\" y=\"%.2f\" font-size=\"10\" font-family=\"sans-serif\" "
                   "transform=\"rotate(-90 %.0f %.2f)\" text-anchor=\"end\">", M - 4, y + 2, M - 4, y + 2);
        svg_text(o, b->recs[k].name);
        fprintf(o, "</text>\n");
    }
    fprintf(o, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" font-family=\"sans-serif\" text-anchor=\"middle\">A: ",
            W / 2, H - 12);
    svg_text(o, a->path);
    fprintf(o, "</text>\n<text x=\"14\" y=\"%.0f\" font-size=\"12\" font-family=\"sans-serif\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 14 %.0f)\">B: ", H / 2, H / 2);
    svg_text(o, b->path);
    fprintf(o, "</text>\n");
    for (size_t k = 0; k < n; k++) {
        const gale_fragment *f = pl[k].f;
        const uint64_t qb0 = b->off[pl[k].qb] + pl[k].qstart_plus; /* on the joined B, + strand */
        const double x1 = M + sx * (double)f->a_start, x2 = M + sx * (double)(f->a_start + f->length);
        double y1 = M + sy * (double)qb0, y2 = M + sy * (double)(qb0 + f->length);
        if (f->strand == '-') {
            const double t = y1;
            y1 = y2;
            y2 = t;
        }
        fprintf(o, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1\"/>\n", x1,
                y1, x2, y2, f->strand == '+' ? "#1f4fd0" : "#d02f1f");
    }
    fprintf(o, "</svg>\n");
}

int cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"word",         required_argument, NULL, 'k'},
        {"match",        required_argument, NULL, OPT_C_MATCH},
        {"mismatch",     required_argument, NULL, OPT_C_MISMATCH},
        {"xdrop",        required_argument, NULL, OPT_C_XDROP},
        {"min-length",   required_argument, NULL, OPT_C_MINLEN},
        {"min-identity", required_argument, NULL, OPT_C_MINID},
        {"max-occ",      required_argument, NULL, OPT_C_MAXOCC},
        {"strand",       required_argument, NULL, OPT_C_STRAND},
        {"format",       required_argument, NULL, OPT_C_FORMAT},
        {"dotplot",      required_argument, NULL, OPT_C_DOTPLOT},
        COMMON_LONGOPTS,
        {NULL, 0, NULL, 0}
    };
    gale_compare_params p;
    common_opts com;
    int c, rc = 0, format = CF_PAF;
    const char *dotplot = NULL;
    genome a, b;
    gale_ctx *ctx = NULL;
    gale_fragment *frags = NULL;
    size_t nf = 0;
    placed *pl = NULL;
    out_file out;
    int out_opened = 0;
    gale_status st;

    gale_compare_params_init(&p);
    common_opts_init(&com, 1);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    opts_begin();
    while ((c = next_opt(argc, argv, ":k:o:qh", longopts, CCMD, usage_compare, &com, &rc)) != OPTS_END) {
        int64_t v;
        if (c == OPTS_EXIT) return rc;
        switch (c) {
        case 'k':
        case OPT_C_MATCH:
        case OPT_C_MISMATCH:
        case OPT_C_XDROP:
        case OPT_C_MINLEN:
        case OPT_C_MINID:
        case OPT_C_MAXOCC: {
            /* the numeric options: their name and bounds (gale_compare's), then the field */
            static const struct { int opt; const char *name; int64_t lo, hi; } nums[] = {
                {'k', "--word", 12, 32},          {OPT_C_MATCH, "--match", 1, 1 << 20},
                {OPT_C_MISMATCH, "--mismatch", 0, 1 << 20}, {OPT_C_XDROP, "--xdrop", 0, 1 << 30},
                {OPT_C_MINLEN, "--min-length", 0, INT64_MAX}, {OPT_C_MINID, "--min-identity", 0, 100},
                {OPT_C_MAXOCC, "--max-occ", 0, INT64_MAX},
            };
            size_t k = 0;
            while (nums[k].opt != c) k++;
            if (option_number(CCMD, nums[k].name, optarg, nums[k].lo, nums[k].hi, &v)) return EXIT_USAGE;
            if (c == 'k') p.word = (int32_t)v;
            else if (c == OPT_C_MATCH) p.match = (int32_t)v;
            else if (c == OPT_C_MISMATCH) p.mismatch = (int32_t)v;
            else if (c == OPT_C_XDROP) p.xdrop = (int32_t)v;
            else if (c == OPT_C_MINLEN) p.min_length = (uint64_t)v;
            else if (c == OPT_C_MINID) p.min_identity = (uint32_t)v;
            else p.max_occ = (uint64_t)v;
            break;
        }
        case OPT_C_STRAND:
            if (strcmp(optarg, "both") == 0) p.flags = 0;
            else if (strcmp(optarg, "plus") == 0) p.flags = GALE_COMPARE_PLUS;
            else if (strcmp(optarg, "minus") == 0) p.flags = GALE_COMPARE_MINUS;
            else return bad_value(CCMD, "--strand", optarg, "expected both, plus or minus");
            break;
        case OPT_C_FORMAT:
            if (strcmp(optarg, "paf") == 0) format = CF_PAF;
            else if (strcmp(optarg, "segments") == 0) format = CF_SEGMENTS;
            else if (strcmp(optarg, "general") == 0) format = CF_GENERAL;
            else return bad_value(CCMD, "--format", optarg, "expected paf, segments or general");
            break;
        case OPT_C_DOTPLOT:
            dotplot = optarg;
            break;
        default:
            return usage_error(CCMD, "unknown option or missing value: %s", argv[optind - 1]);
        }
    }
    if (argc - optind != 2) return usage_error(CCMD, "expected two files, A.fa and B.fa");

    if (genome_read(&a, argv[optind]) || genome_read(&b, argv[optind + 1])) {
        rc = EXIT_FAIL;
        goto done;
    }
    if (a.len >= ((uint64_t)1 << 32) || b.len >= ((uint64_t)1 << 32)) {
        msg("%s: %" PRIu64 " bytes joined: gale compare takes less than 2^32", a.len >= ((uint64_t)1 << 32) ?
            a.path : b.path, a.len >= ((uint64_t)1 << 32) ? a.len : b.len);
        rc = EXIT_FAIL;
        goto done;
    }
    if ((rc = start_context(CCMD, &com, &ctx)) != EXIT_OK) goto done;
    st = gale_compare(ctx, a.joined, (int64_t)a.len, b.joined, (int64_t)b.len, &p, &frags, &nf);
    if (st != GALE_OK) {
        gale_msg("compare", st);
        rc = EXIT_FAIL;
        goto done;
    }
    pl = malloc((nf ? nf : 1) * sizeof *pl);
    if (!pl) {
        msg("out of memory (%zu fragments)", nf);
        rc = EXIT_FAIL;
        goto done;
    }
    for (size_t k = 0; k < nf; k++) pl[k] = place(&a, &b, &frags[k]);
    qsort(pl, nf, sizeof *pl, cmp_placed);

    if (out_open(&out, com.output)) {
        rc = EXIT_FAIL;
        goto done;
    }
    out_opened = 1;
    if (format == CF_PAF) {
        for (size_t k = 0; k < nf; k++) {
            const placed *x = &pl[k];
            const record *qr = &b.recs[x->qb], *tr = &a.recs[x->ta];
            fprintf(out.fp, "%s\t%zu\t%" PRIu64 "\t%" PRIu64 "\t%c\t%s\t%zu\t%" PRIu64 "\t%" PRIu64 "\t%u\t%" PRIu64
                    "\t255\n", qr->name, qr->len, x->qstart_plus, x->qstart_plus + x->f->length, x->f->strand,
                    tr->name, tr->len, x->tstart, x->tstart + x->f->length, x->f->matches, x->f->length);
        }
    } else {
        out_spec os;
        char *qs = NULL;
        long qs_rec = -1;
        char qs_strand = 0;
        memset(&os, 0, sizeof os);
        if (parse_format(format == CF_SEGMENTS ? "segments" : "general", &os)) {
            rc = EXIT_FAIL;
            goto done;
        }
        if (os.header) print_general_header(out.fp, &os);
        for (size_t k = 0; k < nf && rc == 0; k++) {
            const placed *x = &pl[k];
            gale_lastz_alignment al;
            const uint32_t op = GALE_CIGAR_MATCH | ((uint32_t)x->f->length << GALE_CIGAR_SHIFT);
            if (format == CF_GENERAL && (x->qb != qs_rec || x->f->strand != qs_strand)) {
                free(qs);
                qs = strand_bases(&b.recs[x->qb], x->f->strand == '+' ? 0 : 1);
                if (!qs) {
                    msg("out of memory");
                    rc = EXIT_FAIL;
                    break;
                }
                qs_rec = x->qb;
                qs_strand = x->f->strand;
            }
            memset(&al, 0, sizeof al);
            al.size = sizeof al;
            al.beg1 = (uint32_t)x->tstart + 1;
            al.end1 = (uint32_t)(x->tstart + x->f->length);
            al.beg2 = (uint32_t)x->qstart_strand + 1;
            al.end2 = (uint32_t)(x->qstart_strand + x->f->length);
            al.score = x->f->score > INT32_MAX ? INT32_MAX : (int32_t)x->f->score;
            al.n_ops = 1;
            al.cigar = &op;
            write_alignment(out.fp, &os, &a.recs[x->ta], &b.recs[x->qb], qs, x->f->strand, &al);
        }
        free(qs);
    }
    if (rc == 0 && dotplot) {
        /* as -o: a regular file replaced only once the plot is whole, a link or a FIFO
         * written through (output.h) */
        out_file svg;
        struct stat st;
        if (stat(dotplot, &st) == 0 && S_ISDIR(st.st_mode)) { /* (out_open's message names -o) */
            msg("%s: is a directory: --dotplot takes a file", dotplot);
            rc = EXIT_FAIL;
        } else if (out_open(&svg, dotplot) != 0) {
            rc = EXIT_FAIL;
        } else {
            write_svg(svg.fp, &a, &b, pl, nf);
            rc = out_close(&svg, EXIT_OK);
        }
    }
done:
    if (out_opened) rc = out_close(&out, rc);
    free(pl);
    gale_fragments_free(frags);
    if (ctx) gale_ctx_destroy(ctx);
    genome_free(&a);
    genome_free(&b);
    return rc;
}
