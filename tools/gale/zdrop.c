/*
 * gale zdrop [options] QUERIES TARGETS | PAIRS.tsv
 *
 * ksw2's Z-drop extension (minimap2 2.24's ksw_extz2_sse / ksw_extd2_sse /
 * ksw_exts2_sse, bit for bit: the GALE_ZDROP_* kinds) of query/target pairs from two
 * FASTA/FASTQ files (record i with record i) or one file of 'query<TAB>target' lines,
 * with minimap2's option letters, written as TSV, SAM or PAF in input order. Streamed as
 * gale wfa is (stream.c): three batches take turns (read, aligned, written); SAM's records
 * wait in a temporary file for the header (every target is a reference).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "input.h"
#include "junc_bed.h"
#include "options.h"
#include "output.h"
#include "ranks.h"
#include "stream.h"
#include "subcommands.h"
#include "threads.h"

#define ZD_DEFAULT_BATCH_SIZE  65536
/* 128 MiB: each batch ends when its longest pair does (a warp per pair on the GPU, about
 * 0.1-0.2 s for a 9 kbp pair with minimap2's band on an H200), so on long reads small
 * batches leave the GPU mostly idle: AGAThA's workload ran 5x slower in 16 MiB batches
 * (bench/RESULTS.md). Memory is about 6x this (doc/cli.md, "Streaming and memory"). */
#define ZD_DEFAULT_BATCH_BASES ((int64_t)1 << 27)

#define HELP_WIDTH 20 /* the options' column in the help */

/* One of ksw2's arguments as an option: its value, and whether it was given (else the
 * kind's default, from the library). */
typedef struct zd_value {
    int64_t v;
    int given;
} zd_value;

typedef struct zdrop_opts {
    zd_value a, b, q, q2, e, e2, z, w, end_bonus, amb, noncan, junc_bonus;
    const char *junc_bed;        /* --junc-bed FILE */
    int flag;                    /* GALE_ZD_* from the flag options */
    int splice;
    int format;                  /* FMT_TSV, FMT_SAM, FMT_PAF */
    common_opts com;
    int64_t batch_bases;
    const char *in[2];
    int nin;                     /* 1: PAIRS.tsv; 2: QUERIES TARGETS */
    int kind;                    /* GALE_ZDROP_*, from the options (parse_zdrop_args) */
} zdrop_opts;

enum {
    OPT_Z_END_BONUS = 330,
    OPT_Z_SCORE_N,
    OPT_Z_SCORE_ONLY,
    OPT_Z_EXTZ_ONLY,
    OPT_Z_RIGHT,
    OPT_Z_APPROX_MAX,
    OPT_Z_APPROX_DROP,
    OPT_Z_REV_CIGAR,
    OPT_Z_SPLICE,
    OPT_Z_BATCH_BASES,
    OPT_Z_FORMAT,
    OPT_Z_JUNC_BED,
    OPT_Z_JUNC_BONUS
};

void usage_zdrop(FILE *out)
{
    fprintf(out,
        "Usage: gale zdrop [options] QUERIES TARGETS\n"
        "       gale zdrop [options] PAIRS.tsv\n"
        "\n"
        "Extends each query against its target with ksw2's banded, Z-dropped extension as\n"
        "minimap2 2.24 computes it (ksw_extz2_sse, ksw_extd2_sse or ksw_exts2_sse), bit for\n"
        "bit. QUERIES and TARGETS are FASTA or FASTQ files (plain or gzip/bgzf; '-' =\n"
        "stdin for one of them): record i of QUERIES with record i of TARGETS. A single\n"
        "file holds one pair per line: query TAB target. Both are aligned from their\n"
        "first base (extension to the right; reverse both for a left extension, with\n"
        "--rev-cigar, as minimap2 does).\n"
        "\n"
        "Output (stdout or -o FILE), one TAB-separated line per pair in input order:\n"
        "  index max max_q max_t mqe mqe_t mte mte_q score zdropped reach_end cigar\n"
        "ksw_extz_t's fields (-1 and %d where ksw2 leaves them unset); the CIGAR with\n"
        "ksw2's operations M I D N (I consumes the query), '*' when empty.\n"
        "With --format sam or paf, the alignment the CIGAR gives (from the first base of\n"
        "both; the rest of the query soft-clipped in SAM), AS:i ksw2's score of it (score\n"
        "end to end, mqe when it reaches the query's end, else max) and NM:i.\n"
        "\n"
        "Which function: --splice: ksw_exts2_sse; else ksw_extz2_sse when -O and -E give\n"
        "one piece (q = q2 and e = e2, minimap2's rule), ksw_extd2_sse otherwise (the\n"
        "default). Defaults are minimap2's (its splice preset's with --splice).\n"
        "\n"
        "Options (minimap2's letters):\n"
        "  -A INT            match score (default 2; --splice 1)\n"
        "  -B INT            mismatch penalty (default 4; --splice 2)\n"
        "  -O INT[,INT]      gap open penalties q, q2 (default 4,24; --splice 2,32)\n"
        "  -E INT[,INT]      gap extension penalties e, e2 (default 2,1; --splice 1,0);\n"
        "                    a gap of length L costs min(q + L*e, q2 + L*e2)\n"
        "  -z INT            Z-drop (default 400; --splice 200; negative: none)\n"
        "  -r INT            band width w (default 500; negative: none; not with --splice)\n"
        "  -C INT            --splice: non-canonical splice site penalty (default 9)\n"
        "  --end-bonus INT   bonus for reaching the query's end (default -1)\n"
        "  --score-N INT     penalty of N against anything, sc_ambi (default 1)\n"
        "  --score-only      no CIGAR (KSW_EZ_SCORE_ONLY)\n"
        "  --extz-only       extension only (KSW_EZ_EXTZ_ONLY)\n"
        "  --right           right-align gaps (KSW_EZ_RIGHT)\n"
        "  --approx-max      approximate maximum (KSW_EZ_APPROX_MAX)\n"
        "  --approx-drop     approximate Z-drop (KSW_EZ_APPROX_DROP)\n"
        "  --rev-cigar       reversed CIGAR (KSW_EZ_REV_CIGAR)\n"
        "  --splice          spliced alignment: ksw_exts2_sse with GT-AG and CT-AC\n"
        "                    introns and flanks scored (KSW_EZ_SPLICE_FOR|REV|FLANK)\n"
        "  --junc-bed FILE   --splice: annotated introns, BED (name, start, end, strand in\n"
        "                    column 6; BED12: between the blocks), marked on the targets\n"
        "                    they name as minimap2 2.24's --junc-bed marks them (PAIRS.tsv:\n"
        "                    target0, target1, ...; with --rev-cigar on the target before\n"
        "                    it was reversed)\n"
        "  --junc-bonus INT  --splice: score of an annotated junction (default 9)\n"
        "  -F, --format F    tsv, sam or paf (default tsv)\n",
        GALE_ZD_NEG_INF);
    usage_backend_opts(out, HELP_WIDTH);
    fprintf(out,
        "                      (zdrop's --device-memory default: half the free memory,\n"
        "                      without the 8G cap)\n"
        "  --batch-size N    at most N pairs per gale batch (default %d)\n"
        "  --batch-bases N   close a batch once it holds N bases (default %" PRId64 ")\n",
        ZD_DEFAULT_BATCH_SIZE, ZD_DEFAULT_BATCH_BASES);
    usage_output_opts(out, HELP_WIDTH);
}

/* -O / -E: INT or INT,INT (minimap2's: one value sets both pieces). 0 or a usage error. */
static int parse_pair(const char *opt, const char *s, zd_value *first, zd_value *second)
{
    const char *comma = strchr(s, ',');
    size_t n = comma ? (size_t)(comma - s) : strlen(s);
    char why[160];
    int r = parse_number(s, n, INT64_MIN, INT64_MAX, &first->v);
    if (r != NUM_OK)
        return usage_error("zdrop", "invalid value '%s' for %s: %s", s, opt,
                           number_problem(r, s, n, INT64_MIN, INT64_MAX, why, sizeof why));
    first->given = 1;
    second->given = 1;
    if (!comma) {
        second->v = first->v;
        return 0;
    }
    r = parse_number(comma + 1, strlen(comma + 1), INT64_MIN, INT64_MAX, &second->v);
    if (r != NUM_OK)
        return usage_error("zdrop", "invalid value '%s' for %s: after the comma: %s", s, opt,
                           number_problem(r, comma + 1, strlen(comma + 1), INT64_MIN, INT64_MAX, why, sizeof why));
    return 0;
}

/* Returns -1 to go on, else an exit status. */
static int parse_zdrop_args(int argc, char **argv, zdrop_opts *o)
{
    static const struct option longopts[] = {
        {"end-bonus",   required_argument, NULL, OPT_Z_END_BONUS},
        {"score-N",     required_argument, NULL, OPT_Z_SCORE_N},
        {"score-only",  no_argument,       NULL, OPT_Z_SCORE_ONLY},
        {"extz-only",   no_argument,       NULL, OPT_Z_EXTZ_ONLY},
        {"right",       no_argument,       NULL, OPT_Z_RIGHT},
        {"approx-max",  no_argument,       NULL, OPT_Z_APPROX_MAX},
        {"approx-drop", no_argument,       NULL, OPT_Z_APPROX_DROP},
        {"rev-cigar",   no_argument,       NULL, OPT_Z_REV_CIGAR},
        {"splice",      no_argument,       NULL, OPT_Z_SPLICE},
        {"batch-bases", required_argument, NULL, OPT_Z_BATCH_BASES},
        {"format",      required_argument, NULL, 'F'},
        {"junc-bed",    required_argument, NULL, OPT_Z_JUNC_BED},
        {"junc-bonus",  required_argument, NULL, OPT_Z_JUNC_BONUS},
        COMMON_LONGOPTS,
        {NULL, 0, NULL, 0}
    };
    int c, i, rc = 0;

    memset(o, 0, sizeof *o);
    common_opts_init(&o->com, ZD_DEFAULT_BATCH_SIZE);
    /* With the CIGAR each long read keeps megabytes of backtrack codes on the GPU: the
     * library's 8 GiB default held a sixth of the tasks an H200 can run at once (AGAThA's
     * workload 6x slower; bench/RESULTS.md), so zdrop takes half the free memory */
    o->com.device_memory = GALE_DEVICE_MEMORY_HALF_FREE;
    o->batch_bases = ZD_DEFAULT_BATCH_BASES;

    opts_begin();
    while ((c = next_opt(argc, argv, ":A:B:O:E:z:r:C:F:o:qh", longopts, "zdrop", usage_zdrop, &o->com, &rc)) !=
           OPTS_END) {
        zd_value *one = NULL;
        const char *name = NULL;
        if (c == OPTS_EXIT)
            return rc;
        switch (c) {
        case 'A': one = &o->a; name = "-A"; break;
        case 'B': one = &o->b; name = "-B"; break;
        case 'z': one = &o->z; name = "-z"; break;
        case 'r': one = &o->w; name = "-r"; break;
        case 'C': one = &o->noncan; name = "-C"; break;
        case OPT_Z_END_BONUS: one = &o->end_bonus; name = "--end-bonus"; break;
        case OPT_Z_SCORE_N: one = &o->amb; name = "--score-N"; break;
        case OPT_Z_JUNC_BONUS: one = &o->junc_bonus; name = "--junc-bonus"; break;
        case OPT_Z_JUNC_BED:
            if (*optarg == '\0')
                return bad_value("zdrop", "--junc-bed", optarg, "expected a file name");
            o->junc_bed = optarg;
            break;
        case 'O':
            if (parse_pair("-O", optarg, &o->q, &o->q2) != 0)
                return EXIT_USAGE;
            break;
        case 'E':
            if (parse_pair("-E", optarg, &o->e, &o->e2) != 0)
                return EXIT_USAGE;
            break;
        case OPT_Z_SCORE_ONLY: o->flag |= GALE_ZD_SCORE_ONLY; break;
        case OPT_Z_EXTZ_ONLY: o->flag |= GALE_ZD_EXTZ_ONLY; break;
        case OPT_Z_RIGHT: o->flag |= GALE_ZD_RIGHT; break;
        case OPT_Z_APPROX_MAX: o->flag |= GALE_ZD_APPROX_MAX; break;
        case OPT_Z_APPROX_DROP: o->flag |= GALE_ZD_APPROX_DROP; break;
        case OPT_Z_REV_CIGAR: o->flag |= GALE_ZD_REV_CIGAR; break;
        case OPT_Z_SPLICE: o->splice = 1; break;
        case 'F':
            if (strcmp(optarg, "tsv") == 0) o->format = FMT_TSV;
            else if (strcmp(optarg, "sam") == 0) o->format = FMT_SAM;
            else if (strcmp(optarg, "paf") == 0) o->format = FMT_PAF;
            else return bad_value("zdrop", "--format", optarg, "expected tsv, sam or paf");
            break;
        case OPT_Z_BATCH_BASES: {
            int64_t v;
            if (option_number("zdrop", "--batch-bases", optarg, 1, INT64_MAX, &v) != 0)
                return EXIT_USAGE;
            o->batch_bases = v;
            break;
        }
        }
        /* the library checks the bounds (gale_batch_set) */
        if (one) {
            if (option_number("zdrop", name, optarg, INT64_MIN, INT64_MAX, &one->v) != 0)
                return EXIT_USAGE;
            one->given = 1;
        }
    }

    o->nin = argc - optind;
    if (o->nin < 1)
        return usage_error("zdrop", "zdrop: missing input: QUERIES TARGETS (FASTA/FASTQ) or PAIRS.tsv");
    if (o->nin > 2)
        return usage_error("zdrop", "zdrop: expected QUERIES TARGETS or PAIRS.tsv, got %d arguments", o->nin);
    for (i = 0; i < o->nin; i++) {
        o->in[i] = argv[optind + i];
        if (*o->in[i] == '\0')
            return usage_error("zdrop", "zdrop: empty input file name");
    }
    if (o->nin == 2 && strcmp(o->in[0], "-") == 0 && strcmp(o->in[1], "-") == 0)
        return usage_error("zdrop", "zdrop: QUERIES and TARGETS cannot both be '-' (stdin)");
    for (i = 0; o->junc_bed && strcmp(o->junc_bed, "-") == 0 && i < o->nin; i++)
        if (strcmp(o->in[i], "-") == 0)
            return usage_error("zdrop", "zdrop: --junc-bed and the input cannot both be '-' (stdin)");

    if ((o->flag & GALE_ZD_SCORE_ONLY) && o->format != FMT_TSV)
        return usage_error("zdrop", "--score-only computes no alignment, which %s needs: use the TSV output",
                           o->format == FMT_SAM ? "SAM" : "PAF");
    /* minimap2's choice of function (align.c, mm_align_pair) */
    if (o->splice) {
        if (o->w.given)
            return usage_error("zdrop", "-r does not apply to --splice (ksw_exts2_sse has no band)");
        if (o->end_bonus.given)
            return usage_error("zdrop", "--end-bonus does not apply to --splice (ksw_exts2_sse has none)");
        o->kind = GALE_ZDROP_EXTS2;
        o->flag |= GALE_ZD_SPLICE_FOR | GALE_ZD_SPLICE_REV | GALE_ZD_SPLICE_FLANK;
    } else {
        if (o->noncan.given)
            return usage_error("zdrop", "-C applies to --splice only");
        if (o->junc_bed)
            return usage_error("zdrop", "--junc-bed applies to --splice only (ksw_exts2_sse's junctions)");
        if (o->junc_bonus.given)
            return usage_error("zdrop", "--junc-bonus applies to --splice only");
        /* minimap2's defaults, -O 4,24 -E 2,1, where not given: one piece only if both say so */
        if (!o->q.given)
            o->q.v = 4, o->q2.v = 24, o->q.given = o->q2.given = 1;
        if (!o->e.given)
            o->e.v = 2, o->e2.v = 1, o->e.given = o->e2.given = 1;
        o->kind = o->q.v == o->q2.v && o->e.v == o->e2.v ? GALE_ZDROP_EXTZ2 : GALE_ZDROP_EXTD2;
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* The run                                                             */
/* ------------------------------------------------------------------ */

typedef struct zdrop_slot {
    line_chunk lc;           /* PAIRS.tsv: the chunk's lines (its tasks point into them) */
    kstring_t raw;           /* FASTA/FASTQ: the chunk's records (its tasks point into them) */
    pair_view *pv;           /* the chunk's pairs as read */
    size_t pv_cap;
    uint8_t *junc;           /* --junc-bed: the chunk's junction arrays, end to end */
    size_t junc_cap;
} zdrop_slot;

typedef struct zdrop_run {
    const zdrop_opts *o;
    pair_reader rd;
    int opened;
    out_file *out;
    int threads;
    zdrop_slot slot[STREAM_SLOTS + 1]; /* the last: another rank's chunk (stream.h) */
    kstring_t line, cig, name, seq;   /* the writer's (main thread) */
    kstring_t fill_name;              /* the reader thread's */
    FILE *body;               /* SAM: the records, until the header can be written */
    int collect_sq;           /* SAM on rank 0: every target of every chunk goes to sq */
    sq_table sq;
    FILE *dest;               /* the output (rank 0; SAM: body), once open */
    const char *destname;
    progress *pg;
    run_totals totals;
    junc_bed *jb;             /* --junc-bed's introns */
} zdrop_run;

static int zdrop_set_params(gale_batch *b, const void *opts)
{
    const zdrop_opts *o = opts;
    param_value p[16];
    int n = 0;
#define ZD_PARAM(field, ID, NAME)                         \
    if (o->field.given) {                                 \
        p[n].id = ID;                                     \
        p[n].v = o->field.v;                              \
        p[n++].name = NAME;                               \
    }
    ZD_PARAM(a, GALE_P_MATCH, "-A")
    ZD_PARAM(b, GALE_P_PENALTY_MISMATCH, "-B")
    ZD_PARAM(amb, GALE_P_PENALTY_N, "--score-N")
    ZD_PARAM(q, GALE_P_PENALTY_GAP_OPEN, "-O")
    ZD_PARAM(e, GALE_P_PENALTY_GAP_EXTEND, "-E")
    if (o->kind != GALE_ZDROP_EXTZ2) {
        ZD_PARAM(q2, GALE_P_PENALTY_GAP_OPEN2, "-O (second value)")
    }
    if (o->kind == GALE_ZDROP_EXTD2) {
        ZD_PARAM(e2, GALE_P_PENALTY_GAP_EXTEND2, "-E (second value)")
    }
    ZD_PARAM(z, GALE_P_ZDROP, "-z")
    ZD_PARAM(w, GALE_P_BAND, "-r")
    ZD_PARAM(end_bonus, GALE_P_END_BONUS, "--end-bonus")
    ZD_PARAM(noncan, GALE_P_NONCAN, "-C")
    ZD_PARAM(junc_bonus, GALE_P_JUNC_BONUS, "--junc-bonus")
#undef ZD_PARAM
    p[n].id = GALE_P_ZDROP_FLAGS;
    p[n].v = o->flag;
    p[n++].name = "the flags";
    return set_param_values(b, p, n, "zdrop");
}

/* The library names the task by its index in the batch and the sequence as h or v. */
static void zdrop_add_error(void *self, const stream_chunk *c, size_t i, gale_status st)
{
    zdrop_run *run = self;
    const pair_view *v = &run->slot[c->slot].pv[i];
    const char *e = strip_task_prefix(gale_last_error());
    size_t len = strlen(e);
    int which = 0;
    if (len > 13 && strcmp(e + len - 13, "of sequence h") == 0)
        which = 'h';
    else if (len > 13 && strcmp(e + len - 13, "of sequence v") == 0)
        which = 'v';
    if (st == GALE_E_INPUT && which)
        in_error(pair_file(&run->rd, which == 'h'), which == 'h' ? v->tline : v->pline, v->recno, "%.*sof the %s",
                 (int)(len - 13), e, which == 'h' ? "target" : "query");
    else
        in_error(pair_file(&run->rd, 0), v->pline, v->recno, "cannot add the pair: %s (%s; h = target, v = query)",
                 gale_status_string(st), e);
}

/* The names SAM and PAF give a pair: the records' (FASTA/FASTQ), or for PAIRS.tsv (and
 * empty names) the index and "target<index>", as gale wfa names .seq pairs. The made-up
 * target name is written into buf (the calling thread's); NULL when out of memory. */
static const char *target_name(kstring_t *buf, const pair_view *v, uint64_t index)
{
    if (v->tname && *v->tname)
        return v->tname;
    buf->l = 0;
    return ksprintf(buf, "target%" PRIu64, index) < 0 ? NULL : buf->s;
}

/* --junc-bed: the junction array of each of the chunk's n tasks whose target the BED
 * marks (the others keep junc NULL, which ksw2 reads as an array of zeros), in the slot's
 * buffer until gale_batch_add_tasks has copied them. 0, or -1 after a message. */
static int zdrop_fill_junc(zdrop_run *run, stream_chunk *c, zdrop_slot *sl, int64_t n)
{
    size_t need = 0, at = 0;
    int64_t i;
    for (i = 0; i < n; i++) {
        const pair_view *v = &sl->pv[i];
        const char *tn = target_name(&run->fill_name, v, c->first + (uint64_t)i);
        if (!tn)
            goto oom;
        if (junc_bed_marks(run->jb, tn, v->tlen))
            need += v->tlen;
    }
    if (need == 0)
        return 0;
    if (need > sl->junc_cap) {
        uint8_t *nj = realloc(sl->junc, need);
        if (!nj)
            goto oom;
        sl->junc = nj;
        sl->junc_cap = need;
    }
    for (i = 0; i < n; i++) {
        const pair_view *v = &sl->pv[i];
        const char *tn = target_name(&run->fill_name, v, c->first + (uint64_t)i);
        if (!tn)
            goto oom;
        if (!junc_bed_marks(run->jb, tn, v->tlen))
            continue;
        junc_bed_fill(run->jb, tn, sl->junc + at, v->tlen, (run->o->flag & GALE_ZD_REV_CIGAR) != 0);
        c->task[i].junc = sl->junc + at;
        at += v->tlen;
    }
    return 0;
oom:
    msg("out of memory");
    return -1;
}

static int zdrop_fill(void *self, stream_chunk *c)
{
    zdrop_run *run = self;
    const zdrop_opts *o = run->o;
    zdrop_slot *sl = &run->slot[c->slot];
    size_t max = (size_t)o->com.batch_size;
    int64_t n, i;

    if (!run->opened) {
        if ((o->nin == 1 ? pair_open_tsv(&run->rd, o->in[0]) : pair_open(&run->rd, o->in, o->nin)) != 0)
            return EXIT_FAIL;
        run->opened = 1;
    }
    if (c->skip && !run->collect_sq)
        return stream_skip_pairs(&run->rd, c, &sl->lc, &sl->raw, max, (size_t)o->batch_bases, run->threads);
    n = stream_read_pairs(&run->rd, c, &sl->lc, &sl->raw, &sl->pv, &sl->pv_cap, max, (size_t)o->batch_bases,
                          run->threads);
    if (n < 0)
        return EXIT_FAIL;
    for (i = 0; i < n; i++) {
        const pair_view *v = &sl->pv[i];
        gale_task *task = &c->task[i];
        /* ksw2 counts anti-diagonals in an int */
        if ((uint64_t)v->plen + (uint64_t)v->tlen > (uint64_t)INT32_MAX) {
            in_error(pair_file(&run->rd, 0), v->pline, v->recno,
                     "query and target of %zu + %zu bases: ksw2 takes at most 2^31-1 in all", v->plen, v->tlen);
            return EXIT_FAIL;
        }
        if (run->collect_sq && v->tlen > 0) {
            uint64_t first = 0;
            const char *tn = target_name(&run->fill_name, v, c->first + (uint64_t)i);
            int r = tn ? sq_add(&run->sq, tn, v->t, v->tlen, v->recno, &first) : -1;
            if (r > 0) {
                in_mute_messages(0); /* rank 0 alone sees every reference (as gale wfa) */
                in_error(pair_file(&run->rd, 1), v->tline, v->recno,
                         "target name '%s' was given to a different sequence by record %" PRIu64
                         " (SAM needs one sequence per reference name; rename it, or use --format tsv or paf)",
                         tn, first);
            }
            if (r != 0)
                return EXIT_FAIL;
        }
        gale_task_init(task);
        task->v = v->p;
        task->v_len = (int64_t)v->plen;
        task->h = v->t;
        task->h_len = (int64_t)v->tlen;
        task->user = c->first + (uint64_t)i;
    }
    if (run->jb && zdrop_fill_junc(run, c, sl, n) != 0)
        return EXIT_FAIL;
    c->n = (size_t)n;
    c->check_only = pair_failing(&run->rd);
    return EXIT_OK;
}

/* A base as the alignment compares it: A C G T (U as T) in either case 0..3, else 4. */
static int base_code(char b)
{
    switch (b) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': case 'U': case 'u': return 3;
    default: return 4;
    }
}

/* SAM or PAF of pair i: the CIGAR (ops) from the first base of both; -1 out of memory. */
static int put_zdrop_aln(zdrop_run *run, const stream_chunk *c, size_t i, const gale_zdrop_result *z,
                         const uint32_t *ops, size_t nops)
{
    const zdrop_opts *o = run->o;
    const pair_view *v = &run->slot[c->slot].pv[i];
    gale_result res;
    aln_rec a;
    char qn[32];
    int64_t qi = 0, ti = 0;
    size_t k;
    memset(&res, 0, sizeof res);
    memset(&a, 0, sizeof a);
    run->cig.l = 0;
    for (k = 0; k < nops; k++) {
        const uint32_t op = GALE_CIGAR_OP(ops[k]), len = GALE_CIGAR_LEN(ops[k]);
        uint32_t j;
        kputuw(len, &run->cig);
        kputc(GALE_CIGAR_STR[op], &run->cig);
        if (op == GALE_CIGAR_MATCH) {
            for (j = 0; j < len; j++) {
                const int qb = base_code(v->p[qi + j]), tb = base_code(v->t[ti + j]);
                if (qb == tb && qb < 4) a.sum.match++;
                else a.sum.mismatch++;
            }
            qi += len, ti += len;
        } else if (op == GALE_CIGAR_INS) {
            a.sum.ins += len, a.sum.ins_runs++, qi += len;
        } else if (op == GALE_CIGAR_DEL) {
            a.sum.del += len, a.sum.del_runs++, ti += len;
        } else {
            ti += len; /* N: an intron, neither aligned nor an edit */
        }
    }
    res.v_end = qi;
    res.h_end = ti;
    a.index = z->user;
    a.res = &res;
    a.cigar = run->cig.l ? run->cig.s : "";
    /* ksw2's score of the path the CIGAR takes */
    a.as_score = !z->zdropped && !(o->flag & GALE_ZD_EXTZ_ONLY) ? z->score : z->reach_end ? z->mqe : z->max;
    a.plen = (int64_t)v->plen;
    a.tlen = (int64_t)v->tlen;
    if (v->pname && *v->pname) {
        a.qname = v->pname;
    } else {
        snprintf(qn, sizeof qn, "%" PRIu64, z->user);
        a.qname = qn;
    }
    a.tname = target_name(&run->name, v, z->user);
    run->seq.l = 0;
    if (!a.tname || kputsn(v->p, v->plen, &run->seq) < 0)
        return -1;
    a.seq = v->plen > 0 ? run->seq.s : NULL;
    a.qual = v->qual && *v->qual ? v->qual : NULL;
    return put_aln(&run->line, o->format, 0, &a);
}

static int zdrop_write(void *self, stream_chunk *c)
{
    zdrop_run *run = self;
    kstring_t *ln = &run->line;
    FILE *fp = run->dest;
    size_t i, k;
    for (i = 0; i < c->n; i++) {
        gale_zdrop_result z;
        const uint32_t *ops = NULL;
        size_t nops = 0;
        gale_status st;
        memset(&z, 0, sizeof z);
        z.size = sizeof z;
        st = gale_result_zdrop(c->b, i, &z);
        if (st == GALE_OK)
            st = gale_result_cigar(c->b, i, &ops, &nops);
        if (st != GALE_OK) {
            gale_msg("cannot read a result", st);
            return EXIT_FAIL;
        }
        if (z.user != c->first + i) {
            msg("internal error: result %" PRIu64 " came back as %" PRIu64, (uint64_t)(c->first + i), z.user);
            return EXIT_FAIL;
        }
        ln->l = 0;
        if (run->o->format != FMT_TSV) {
            if (put_zdrop_aln(run, c, i, &z, ops, nops) < 0) {
                msg("out of memory");
                return EXIT_FAIL;
            }
            if (fwrite(ln->s, 1, ln->l, fp) != ln->l)
                goto werr;
            continue;
        }
        ksprintf(ln, "%" PRIu64 "\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", z.user, z.max, z.max_q, z.max_t, z.mqe,
                 z.mqe_t, z.mte, z.mte_q, z.score, z.zdropped, z.reach_end);
        for (k = 0; k < nops; k++) {
            uint32_t op = GALE_CIGAR_OP(ops[k]);
            if (op > GALE_CIGAR_REF_SKIP) {
                msg("internal error: pair %" PRIu64 ": the library returned CIGAR operation %u", z.user, op);
                return EXIT_FAIL;
            }
            kputuw(GALE_CIGAR_LEN(ops[k]), ln);
            kputc(GALE_CIGAR_STR[op], ln);
        }
        if (nops == 0)
            kputc('*', ln);
        if (kputc('\n', ln) < 0) {
            msg("out of memory");
            return EXIT_FAIL;
        }
        if (fwrite(ln->s, 1, ln->l, fp) != ln->l)
            goto werr;
    }
    if (ferror(fp))
        goto werr;
    run_totals_add(&run->totals, c->b);
    return EXIT_OK;
werr:
    msg("%s: write error: %s", run->destname, strerror(errno));
    return EXIT_FAIL;
}

static void zdrop_progress(void *self, uint64_t done)
{
    zdrop_run *run = self;
    progress_bar(run->pg, pair_fraction(&run->rd), "of the input read, %" PRIu64 " pairs extended", done);
}

static int zdrop_setup(void *self, gale_ctx **ctx, gale_batch *b[STREAM_SLOTS])
{
    zdrop_run *run = self;
    const zdrop_opts *o = run->o;
    int rc = stream_make_batches("zdrop", &o->com, o->kind, "a Z-drop batch", zdrop_set_params, o, ctx, b);
    return stream_open_output(rc, run->out, o->com.output, o->format == FMT_SAM ? &run->body : NULL, &run->dest,
                              &run->destname);
}

int cmd_zdrop(int argc, char **argv)
{
    zdrop_opts o;
    gale_ctx *ctx = NULL;
    zdrop_run run;
    stream_ops ops;
    progress pg;
    out_file out;
    uint64_t done = 0;
    int i, rc;

    rc = parse_zdrop_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    memset(&run, 0, sizeof run);
    memset(&out, 0, sizeof out);
    run.o = &o;
    run.pg = &pg;
    run.out = &out;
    run.threads = cli_threads(o.com.threads);
    progress_init(&pg, o.com.quiet || ranks_me() > 0);
    run.collect_sq = o.format == FMT_SAM && ranks_me() == 0;
    if (run.collect_sq && sq_init(&run.sq) != 0)
        return EXIT_FAIL;
    if (o.junc_bed && junc_bed_read(o.junc_bed, !o.com.quiet && ranks_me() == 0, &run.jb) != 0) {
        if (run.collect_sq)
            sq_free(&run.sq);
        return EXIT_FAIL;
    }

    ops.self = &run;
    ops.setup = zdrop_setup;
    ops.fill = zdrop_fill;
    ops.add_error = zdrop_add_error;
    ops.write = zdrop_write;
    ops.progress = zdrop_progress;
    ops.dest = &run.dest;
    ops.destname = &run.destname;
    rc = stream_run(&ops, &ctx, &pg, &done);

    if (rc == 0 && run.opened)
        rc = pair_close(&run.rd, 1);
    rc = ranks_agree(rc);
    if (rc == 0 && run.body) /* SAM: the header (every @SQ is known now), then the records */
        rc = sam_finish(&run.sq, run.body, &out, argc, argv);
    rc = out_close(&out, rc);
    rc = ranks_totals(rc, &run.totals);
    if (rc == 0) {
        run.totals.pairs = done;
        print_summary(&pg, "zdrop", ctx, &run.totals, "Z-drop");
    }
    if (run.opened)
        pair_close(&run.rd, 0);
    if (run.body)
        fclose(run.body);
    rc = stream_release(ctx, rc);
    for (i = 0; i <= STREAM_SLOTS; i++) {
        free(run.slot[i].raw.s);
        free(run.slot[i].pv);
        free(run.slot[i].junc);
        line_chunk_free(&run.slot[i].lc);
    }
    free(run.line.s);
    free(run.cig.s);
    free(run.name.s);
    free(run.seq.s);
    free(run.fill_name.s);
    if (run.collect_sq)
        sq_free(&run.sq);
    junc_bed_free(run.jb);
    return rc;
}
