/*
 * gale compare [options] A.fa B.fa
 *
 * GPUGECKO-style whole-genome comparison (gale_compare, doc/compare.md): every ungapped
 * fragment of A (the target) against B (the query) on both strands, written as PAF,
 * LASTZ's segments (which `gale lastz A B --segments=FILE` reads) or LASTZ's general
 * format, with an optional dot plot (SVG or PNG). The files' records are read as gale lastz reads
 * them (lastz_seqfile.c: FASTA, FASTQ, 2bit, nib; names as lastz takes them) and joined,
 * one byte 0 between records.
 */
#define _POSIX_C_SOURCE 200809L

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "gale.h"
#include "lastz_int.h"
#include "options.h"
#include "output.h"
#include "png.h"
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
        "  --dotplot FILE       also write a dot plot (A on x, B on y): PNG when FILE\n"
        "                       ends in .png, SVG when it ends in .svg (either case);\n"
        "                       another name needs --dotplot-format\n"
        "  --dotplot-format F   png or svg, over FILE's extension\n"
        "  --dotplot-size N     the plot's width and height in pixels, 100..10000\n"
        "                       (default 800)\n");
    usage_backend_opts(out, HELP_WIDTH);
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
    OPT_C_DOTPLOT,
    OPT_C_DOTPLOT_FORMAT,
    OPT_C_DOTPLOT_SIZE
};

enum { DP_NONE, DP_SVG, DP_PNG };

/* The dot plot's size in pixels: default and bounds (--dotplot-size) */
#define DP_SIZE_DEFAULT 800
#define DP_SIZE_MIN 100
#define DP_SIZE_MAX 10000

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

/* The fragments' colours, + strand and - strand (both plots) */
#define DP_PLUS_RGB 0x1f4fd0u
#define DP_MINUS_RGB 0xd02f1fu

/* The dot plot's layout, in the units of an 800 x 800 canvas: the SVG is drawn in them
 * (its viewBox; its width and height are --dotplot-size's), the PNG's pixel of a point
 * (x, y) is (floor(x * size / W), floor(y * size / H)). The plot's box runs from M to
 * W - M (H - M); A's joined position p lies at x = M + sx * p, B's (its + strand, joined)
 * at y = M + sy * p, from the top. */
typedef struct plot_geom {
    double W, H, M, sx, sy;
} plot_geom;

static plot_geom plot_layout(const genome *a, const genome *b)
{
    plot_geom g;
    g.W = 800;
    g.H = 800;
    g.M = 60;
    g.sx = a->len ? (g.W - 2 * g.M) / (double)a->len : 1;
    g.sy = b->len ? (g.H - 2 * g.M) / (double)b->len : 1;
    return g;
}

/* p's fragment: its first base pair on the joined A and on the joined B's + strand (the -
 * strand's B coordinates mapped back, as place() does): the fragment runs from
 * (*x, *y) to (*x + length - 1, *y + length - 1) on +, from (*x, *y + length - 1) to
 * (*x + length - 1, *y) on -. */
static void fragment_origin(const genome *b, const placed *p, uint64_t *x, uint64_t *y)
{
    *x = p->f->a_start;
    *y = b->off[p->qb] + p->qstart_plus;
}

static void write_svg(FILE *o, const genome *a, const genome *b, const placed *pl, size_t n, int size)
{
    const plot_geom g = plot_layout(a, b);
    const double W = g.W, H = g.H, M = g.M, sx = g.sx, sy = g.sy;
    fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %.0f %.0f\">\n"
               "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n"
               "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n",
            size, size, W, H, W, H, M, M, W - 2 * M, H - 2 * M);
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
        uint64_t a0, qb0; /* on the joined A; on the joined B, + strand */
        fragment_origin(b, &pl[k], &a0, &qb0);
        const double x1 = M + sx * (double)a0, x2 = M + sx * (double)(a0 + f->length);
        double y1 = M + sy * (double)qb0, y2 = M + sy * (double)(qb0 + f->length);
        if (f->strand == '-') {
            const double t = y1;
            y1 = y2;
            y2 = t;
        }
        fprintf(o, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#%06x\" stroke-width=\"1\"/>\n", x1,
                y1, x2, y2, f->strand == '+' ? DP_PLUS_RGB : DP_MINUS_RGB);
    }
    fprintf(o, "</svg>\n");
}

/* The PNG's palette: its indices, then the colours (the SVG's: white, black, gray and
 * the two strands'). */
enum { PX_WHITE, PX_BLACK, PX_GREY, PX_PLUS, PX_MINUS, PX_COLOURS };
#define RGB3(c) (uint8_t)((c) >> 16), (uint8_t)((c) >> 8 & 0xff), (uint8_t)((c) & 0xff)
static const uint8_t dp_palette[PX_COLOURS * 3] = {
    255, 255, 255, 0, 0, 0, 128, 128, 128, RGB3(DP_PLUS_RGB), RGB3(DP_MINUS_RGB),
};

/* A size x size image of palette indices, and the pixel of a layout coordinate. */
typedef struct raster {
    uint8_t *pix;
    int32_t size;
    double scale; /* pixels per layout unit */
} raster;

static int32_t raster_px(const raster *r, double u)
{
    const double v = floor(u * r->scale);
    return v < 0 ? 0 : v > r->size - 1 ? r->size - 1 : (int32_t)v;
}

/* floor(p / q), q > 0 */
static int64_t floor_div(int64_t p, int64_t q)
{
    return p >= 0 ? p / q : -((-p + q - 1) / q);
}

/* The pixels from (x0, y0) to (x1, y1), both ends in: one a column or row along the
 * longer extent, the other coordinate rounded (half up) from the exact line. */
static void raster_line(raster *r, int32_t x0, int32_t y0, int32_t x1, int32_t y1, uint8_t c)
{
    const int64_t dx = (int64_t)x1 - x0, dy = (int64_t)y1 - y0;
    const int64_t steps = (dx < 0 ? -dx : dx) > (dy < 0 ? -dy : dy) ? (dx < 0 ? -dx : dx) : (dy < 0 ? -dy : dy);
    for (int64_t t = 0; t <= steps; t++) {
        const int64_t x = x0 + (steps ? floor_div(2 * t * dx + steps, 2 * steps) : 0);
        const int64_t y = y0 + (steps ? floor_div(2 * t * dy + steps, 2 * steps) : 0);
        r->pix[(size_t)y * (size_t)r->size + (size_t)x] = c;
    }
}

/* The PNG plot drawn into r (r->pix: size x size bytes): white; the records' boundaries
 * grey, the plot's box black, as the SVG's; each fragment a line of its strand's colour
 * between the pixels of its first and last base pairs' centres (position p at
 * p + 0.5 in the layout), in the output's order. No text: the PNG has no names. */
static void draw_png(raster *r, const genome *a, const genome *b, const placed *pl, size_t n)
{
    const plot_geom g = plot_layout(a, b);
    int32_t lo, hi;
    r->scale = r->size / g.W;
    lo = raster_px(r, g.M);
    hi = raster_px(r, g.W - g.M);
    memset(r->pix, PX_WHITE, (size_t)r->size * (size_t)r->size);
    for (long k = 1; k < a->n; k++) {
        const int32_t x = raster_px(r, g.M + g.sx * (double)a->off[k]);
        raster_line(r, x, lo, x, hi, PX_GREY);
    }
    for (long k = 1; k < b->n; k++) {
        const int32_t y = raster_px(r, g.M + g.sy * (double)b->off[k]);
        raster_line(r, lo, y, hi, y, PX_GREY);
    }
    raster_line(r, lo, lo, hi, lo, PX_BLACK);
    raster_line(r, lo, hi, hi, hi, PX_BLACK);
    raster_line(r, lo, lo, lo, hi, PX_BLACK);
    raster_line(r, hi, lo, hi, hi, PX_BLACK);
    for (size_t k = 0; k < n; k++) {
        const gale_fragment *f = pl[k].f;
        const uint64_t last = f->length ? f->length - 1 : 0;
        uint64_t a0, b0;
        fragment_origin(b, &pl[k], &a0, &b0);
        const int32_t x0 = raster_px(r, g.M + g.sx * ((double)a0 + 0.5));
        const int32_t x1 = raster_px(r, g.M + g.sx * ((double)(a0 + last) + 0.5));
        int32_t y0 = raster_px(r, g.M + g.sy * ((double)b0 + 0.5));
        int32_t y1 = raster_px(r, g.M + g.sy * ((double)(b0 + last) + 0.5));
        if (f->strand == '-') {
            const int32_t t = y0;
            y0 = y1;
            y1 = t;
        }
        raster_line(r, x0, y0, x1, y1, f->strand == '+' ? PX_PLUS : PX_MINUS);
    }
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
        {"dotplot-format", required_argument, NULL, OPT_C_DOTPLOT_FORMAT},
        {"dotplot-size", required_argument, NULL, OPT_C_DOTPLOT_SIZE},
        COMMON_LONGOPTS,
        {NULL, 0, NULL, 0}
    };
    gale_compare_params p;
    common_opts com;
    int c, rc = 0, format = CF_PAF, dp_format = DP_NONE, dp_size = DP_SIZE_DEFAULT, dp_size_given = 0;
    const char *dotplot = NULL;
    out_file plot;
    int plot_opened = 0;
    raster ras;
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
    memset(&ras, 0, sizeof ras);
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
        case OPT_C_MAXOCC:
        case OPT_C_DOTPLOT_SIZE: {
            /* the numeric options: their name and bounds (gale_compare's), then the field */
            static const struct { int opt; const char *name; int64_t lo, hi; } nums[] = {
                {'k', "--word", 12, 32},          {OPT_C_MATCH, "--match", 1, 1 << 20},
                {OPT_C_MISMATCH, "--mismatch", 0, 1 << 20}, {OPT_C_XDROP, "--xdrop", 0, 1 << 30},
                {OPT_C_MINLEN, "--min-length", 0, INT64_MAX}, {OPT_C_MINID, "--min-identity", 0, 100},
                {OPT_C_MAXOCC, "--max-occ", 0, INT64_MAX},
                {OPT_C_DOTPLOT_SIZE, "--dotplot-size", DP_SIZE_MIN, DP_SIZE_MAX},
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
            else if (c == OPT_C_MAXOCC) p.max_occ = (uint64_t)v;
            else {
                dp_size = (int)v;
                dp_size_given = 1;
            }
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
        case OPT_C_DOTPLOT_FORMAT:
            if (strcmp(optarg, "png") == 0) dp_format = DP_PNG;
            else if (strcmp(optarg, "svg") == 0) dp_format = DP_SVG;
            else return bad_value(CCMD, "--dotplot-format", optarg, "expected png or svg");
            break;
        default:
            return usage_error(CCMD, "unknown option or missing value: %s", argv[optind - 1]);
        }
    }
    if (argc - optind != 2) return usage_error(CCMD, "expected two files, A.fa and B.fa");
    if (!dotplot && (dp_format != DP_NONE || dp_size_given))
        return usage_error(CCMD, "%s without --dotplot FILE: it describes the dot plot's file",
                           dp_format != DP_NONE ? "--dotplot-format" : "--dotplot-size");
    if (dotplot && dp_format == DP_NONE) {
        /* the name's extension, either case: .png or .svg */
        const char *slash = strrchr(dotplot, '/'), *dot = strrchr(slash ? slash + 1 : dotplot, '.');
        if (dot && strcasecmp(dot, ".png") == 0) dp_format = DP_PNG;
        else if (dot && strcasecmp(dot, ".svg") == 0) dp_format = DP_SVG;
        else
            return usage_error(CCMD, "--dotplot %s: the name ends in neither .png nor .svg: give --dotplot-format=png "
                               "or --dotplot-format=svg", dotplot);
    }

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
    if (dotplot) {
        /* opened, and the PNG's image allocated, before any output is written: a directory
         * or an image too large for the memory is refused with nothing written. As -o: a
         * regular file replaced only once the plot is whole and the run succeeded, a link
         * or a FIFO written through (output.h). */
        struct stat sb;
        if (stat(dotplot, &sb) == 0 && S_ISDIR(sb.st_mode)) { /* (out_open's message names -o) */
            msg("%s: is a directory: --dotplot takes a file", dotplot);
            rc = EXIT_FAIL;
            goto done;
        }
        if (dp_format == DP_PNG) {
            ras.size = dp_size;
            ras.pix = malloc((size_t)dp_size * (size_t)dp_size);
            if (!ras.pix) {
                msg("out of memory (a %d x %d dot plot)", dp_size, dp_size);
                rc = EXIT_FAIL;
                goto done;
            }
        }
        if (out_open(&plot, dotplot) != 0) {
            rc = EXIT_FAIL;
            goto done;
        }
        plot_opened = 1;
    }
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
    if (rc == 0 && plot_opened) {
        if (dp_format == DP_SVG) {
            write_svg(plot.fp, &a, &b, pl, nf, dp_size);
        } else {
            draw_png(&ras, &a, &b, pl, nf);
            if (png_write_indexed(plot.fp, (uint32_t)ras.size, (uint32_t)ras.size, dp_palette, PX_COLOURS, ras.pix))
                rc = EXIT_FAIL;
        }
    }
done:
    /* the plot first, as before -o's output: each replaced only when the run succeeded */
    if (plot_opened) rc = out_close(&plot, rc);
    if (out_opened) rc = out_close(&out, rc);
    free(ras.pix);
    free(pl);
    gale_fragments_free(frags);
    if (ctx) gale_ctx_destroy(ctx);
    genome_free(&a);
    genome_free(&b);
    return rc;
}
