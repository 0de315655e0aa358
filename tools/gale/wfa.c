/*
 * gale wfa [options] PATTERNS TEXTS | PAIRS.seq
 *
 * Wavefront alignment of pattern/text pairs from two FASTA/FASTQ files (record
 * i of PATTERNS with record i of TEXTS) or from one file in WFA2-lib's .seq
 * format (input.c), written as TSV, SAM or PAF (output.c) in input order.
 *
 * Pairs are streamed: a batch is filled up to --batch-size pairs or
 * --batch-bases bases, and two batches take turns (one is aligned while the
 * next is read), so memory stays bounded whatever the input size. Results are
 * written batch by batch, in input order. SAM needs every reference in its
 * header, before the first record: its records go to an unlinked temporary
 * file and are copied behind the header at the end.
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

#define WFA_DEFAULT_MISMATCH    4
#define WFA_DEFAULT_GAP_OPEN    6
#define WFA_DEFAULT_GAP_EXTEND  2
#define WFA_DEFAULT_BATCH_SIZE  65536
#define WFA_DEFAULT_BATCH_BASES ((int64_t)1 << 26)

#define HELP_WIDTH 19 /* the options' column in the help */

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

void usage_wfa(FILE *out)
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
        "                     (0-based, end exclusive: the aligned part)\n",
        WFA_DEFAULT_MISMATCH, WFA_DEFAULT_GAP_OPEN, WFA_DEFAULT_GAP_EXTEND);
    usage_backend_opts(out, HELP_WIDTH);
    fprintf(out,
        "  --batch-size N     at most N pairs per gale batch (default %d)\n"
        "  --batch-bases N    close a batch once it holds N bases (default %" PRId64 ")\n",
        WFA_DEFAULT_BATCH_SIZE, WFA_DEFAULT_BATCH_BASES);
    usage_output_opts(out, HELP_WIDTH);
}

/* --ends-free PB,PE,TB,TE: four comma-separated numbers, each read by the
 * CLI's one number parser in [0, 2^31-1]. 0, or the usage error (exit
 * status) after a message that names the bad part. */
static int parse_ends_free(const char *s, int64_t out[4])
{
    static const char *const part[4] = {"PB", "PE", "TB", "TE"};
    const char *p = s;
    int i;
    for (i = 0; i < 4; i++) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char why[160];
        int r;
        if ((i < 3) != (comma != NULL))
            return bad_value("wfa", "--ends-free", s, "expected PB,PE,TB,TE: four integers in [0, 2147483647]");
        r = parse_number(p, n, 0, INT32_MAX, &out[i]);
        if (r != NUM_OK)
            return usage_error("wfa", "invalid value '%s' for --ends-free: %s '%.*s': %s", s, part[i], (int)n, p,
                               number_problem(r, p, n, 0, INT32_MAX, why, sizeof why));
        p += n + (comma ? 1 : 0);
    }
    return 0;
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
    int c, i, rc = 0;

    memset(o, 0, sizeof *o);
    o->kind = GALE_WFA;
    o->x = WFA_DEFAULT_MISMATCH;
    o->o = WFA_DEFAULT_GAP_OPEN;
    o->e = WFA_DEFAULT_GAP_EXTEND;
    common_opts_init(&o->com, WFA_DEFAULT_BATCH_SIZE);
    o->batch_bases = WFA_DEFAULT_BATCH_BASES;
    o->format = FMT_TSV;

    opts_begin();
    while ((c = next_opt(argc, argv, ":F:o:qh", longopts, "wfa", usage_wfa, &o->com, &rc)) != OPTS_END) {
        int64_t v;
        if (c == OPTS_EXIT)
            return rc;
        switch (c) {
        case OPT_W_MISMATCH:
        case OPT_W_GAP_OPEN:
        case OPT_W_GAP_EXTEND:
        case OPT_W_GAP_OPEN2:
        case OPT_W_GAP_EXTEND2: {
            const char *name = c == OPT_W_MISMATCH ? "--mismatch" : c == OPT_W_GAP_OPEN ? "--gap-open"
                             : c == OPT_W_GAP_EXTEND ? "--gap-extend" : c == OPT_W_GAP_OPEN2 ? "--gap-open2"
                             : "--gap-extend2";
            /* the library checks the bounds (gale_batch_set) */
            if (option_number("wfa", name, optarg, INT64_MIN, INT64_MAX, &v) != 0)
                return EXIT_USAGE;
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
                return EXIT_USAGE;
            o->ends_free = 1;
            break;
        case OPT_W_NMISMATCH:
            o->n_mismatch = 1;
            break;
        case OPT_W_MEMORY:
            /* the upper bound is the library's (gale_batch_set); 0 would mean
             * its default here, so the CLI refuses it */
            if (option_number("wfa", "--memory-limit", optarg, 1, INT64_MAX, &v) != 0)
                return EXIT_USAGE;
            o->memory_limit = v;
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
            if (option_number("wfa", "--batch-bases", optarg, 1, INT64_MAX, &v) != 0)
                return EXIT_USAGE;
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
    run_totals totals;       /* of the finished batches, for the summary */
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

/* A record's name into the chunk's pool or, for .seq (and empty names),
 * prefix and the pair's index (nm: scratch). Its offset or POOL_NOMEM. */
static size_t pool_name(wfa_chunk *c, kstring_t *nm, const kstring_t *name, const char *prefix, uint64_t index)
{
    if (name->l > 0)
        return pool_put(&c->pool, name->s, name->l);
    nm->l = 0;
    ksprintf(nm, "%s%" PRIu64, prefix, index);
    return pool_put(&c->pool, nm->s, nm->l);
}

/* The library names the task by its index in the batch and the sequence as
 * h or v; the user knows records, patterns and texts. Reports a failed
 * gale_batch_add. */
static void report_add_error(const wfa_run *run, gale_status st, uint64_t recno)
{
    const char *e = strip_task_prefix(gale_last_error());
    const seq_rec *r = &run->p;
    int which = 0; /* 0: unknown, 'v' pattern, 'h' text */
    size_t len = strlen(e);
    if (len > 13 && strcmp(e + len - 13, "of sequence h") == 0)
        which = 'h';
    else if (len > 13 && strcmp(e + len - 13, "of sequence v") == 0)
        which = 'v';
    if (which == 'h')
        r = &run->t;
    if (st == GALE_E_INPUT && which)
        in_error(r->file, r->line, recno, "%.*sof the %s", (int)(len - 13), e, which == 'h' ? "text" : "pattern");
    else if (st == GALE_E_INPUT)
        in_error(r->file, r->line, recno, "invalid pair: %s (h = text, v = pattern)", e);
    else
        in_error(r->file, r->line, recno, "cannot add the pair: %s (%s)", gale_status_string(st), e);
}

/* Registers the current text as a SAM reference named name: 0, or -1 after a
 * message (a reference name stands for one sequence). */
static int sq_add_text(wfa_run *run, const char *name, uint64_t recno)
{
    const seq_rec *t = &run->t;
    uint64_t first = 0;
    int r = sq_add(&run->sq, name, t->seq.s, t->seq.l, recno, &first);
    if (r > 0)
        in_error(t->file, t->line, recno,
                 "text name '%s' was given to a different sequence by record %" PRIu64
                 " (SAM needs one sequence per reference name; rename it, or use --format tsv or paf)",
                 name, first);
    return r ? -1 : 0;
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
            in_error(r->file, r->line, recno, "sequence of %zu bases: gale takes at most 2^31-1", r->seq.l);
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
            item.qname = pool_name(c, &run->name, &run->p.name, "", index);
            item.tname = pool_name(c, &run->name, &run->t.name, "text", index);
            if (item.qname == POOL_NOMEM || item.tname == POOL_NOMEM)
                goto oom;
        }
        if (o->format == FMT_SAM) {
            const char *qn = c->pool.s + item.qname, *tn = c->pool.s + item.tname;
            if (strlen(qn) > SAM_MAX_QNAME) {
                in_error(run->p.file, run->p.line, recno, "pattern name of %zu characters: SAM allows at most %d",
                        strlen(qn), SAM_MAX_QNAME);
                return EXIT_FAIL;
            }
            if (run->t.seq.l > 0 && sq_add_text(run, tn, recno) != 0)
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
            wfa_item *ni = grow_array(c->it, &c->cap, sizeof *ni, 1024);
            if (!ni)
                goto oom;
            c->it = ni;
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

/* The name at offset off of the chunk's pool (NULL for none). */
static const char *pool_str(const wfa_chunk *c, size_t off)
{
    return off == SIZE_MAX ? NULL : c->pool.s + off;
}

/* Reads result i of a finished chunk into a (the CIGAR's text into cg) and
 * checks it: 0, or EXIT_FAIL after a message. */
static int get_aln(const wfa_run *run, const wfa_chunk *c, size_t i, gale_result *res, kstring_t *cg, aln_rec *a)
{
    const wfa_opts *o = run->o;
    const wfa_item *it = &c->it[i];
    const uint32_t *ops = NULL;
    size_t nops = 0;
    gale_status st;

    memset(a, 0, sizeof *a);
    a->index = c->first + i;
    memset(res, 0, sizeof *res);
    res->size = sizeof *res;
    st = gale_result_get(c->b, i, res);
    if (st == GALE_OK && !o->score_only)
        st = gale_result_cigar(c->b, i, &ops, &nops);
    if (st != GALE_OK) {
        gale_msg("cannot read a result", st);
        return EXIT_FAIL;
    }
    if (res->user != a->index) {
        msg("internal error: result %" PRIu64 " came back as %" PRIu64, a->index, res->user);
        return EXIT_FAIL;
    }
    cg->l = 0;
    if (put_cigar(cg, ops, nops, &a->sum) != 0) {
        msg("internal error: pair %" PRIu64 ": the library returned an unknown CIGAR operation", a->index);
        return EXIT_FAIL;
    }
    /* what SAM and PAF derive from the CIGAR must be consistent: check it */
    if (!o->score_only &&
        (a->sum.match + a->sum.mismatch + a->sum.ins != res->v_end - res->v_begin ||
         a->sum.match + a->sum.mismatch + a->sum.del != res->h_end - res->h_begin || res->v_begin < 0 ||
         res->h_begin < 0 || res->v_end > it->plen || res->h_end > it->tlen)) {
        msg("internal error: pair %" PRIu64 ": the CIGAR does not cover the aligned part [%" PRId64 ", %" PRId64
            ") x [%" PRId64 ", %" PRId64 ")", a->index, res->v_begin, res->v_end, res->h_begin, res->h_end);
        return EXIT_FAIL;
    }
    a->res = res;
    a->cigar = cg->l ? cg->s : "";
    /* AS:i: higher is better under both metrics */
    a->as_score = o->kind == GALE_EDIT ? -res->score : res->score;
    a->plen = it->plen;
    a->tlen = it->tlen;
    a->qname = pool_str(c, it->qname);
    a->tname = pool_str(c, it->tname);
    a->seq = it->plen > 0 ? pool_str(c, it->seq) : NULL;
    a->qual = pool_str(c, it->qual);
    return EXIT_OK;
}

/* Writes the results of a finished chunk. */
static int write_chunk(wfa_run *run, const wfa_chunk *c, FILE *out, const char *outname)
{
    const wfa_opts *o = run->o;
    kstring_t *ln = &run->line;
    size_t i;
    for (i = 0; i < c->n; i++) {
        gale_result res;
        aln_rec a;
        if (get_aln(run, c, i, &res, &run->cig, &a) != EXIT_OK)
            return EXIT_FAIL;
        ln->l = 0;
        if (put_aln(ln, o->format, o->coords, &a) < 0) {
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

/* ------------------------------------------------------------------ */
/* wfa: the command                                                    */
/* ------------------------------------------------------------------ */

/* The bar of wfa: how much of the input is read (the pairs are aligned a
 * batch or two behind it), and the pairs aligned so far. */
static void progress_aligned(progress *p, const wfa_run *run, uint64_t pairs)
{
    progress_bar(p, pair_fraction(&run->rd), "of the input read, %" PRIu64 " pairs aligned", pairs);
}

static int wait_chunk(const wfa_run *run, const wfa_chunk *c, progress *pg, uint64_t done)
{
    gale_status st;
    for (;;) {
        st = gale_poll(c->b, progress_poll_ms(pg));
        if (st != GALE_E_AGAIN)
            break;
        progress_aligned(pg, run, done);
    }
    if (st != GALE_OK) {
        char what[96];
        progress_clear(pg);
        snprintf(what, sizeof what, "the batch of pairs %" PRIu64 "..%" PRIu64 " failed", c->first,
                 c->first + (c->n ? c->n - 1 : 0));
        gale_msg(what, st);
        return EXIT_FAIL;
    }
    progress_aligned(pg, run, done + c->n);
    return EXIT_OK;
}

/* Both batches up front: the parameters are checked before any input is
 * read. 0 or an exit status. */
static int create_chunks(gale_ctx *ctx, const wfa_opts *o, wfa_chunk chunk[2])
{
    int i, rc = 0;
    for (i = 0; i < 2 && rc == 0; i++) {
        gale_status st = gale_batch_create(ctx, o->kind, &chunk[i].b);
        if (st != GALE_OK) {
            gale_msg(o->kind == GALE_EDIT ? "cannot create an edit-distance batch" : "cannot create a WFA batch", st);
            return EXIT_FAIL;
        }
        rc = wfa_set_params(chunk[i].b, o);
    }
    return rc;
}

/* Aligns the whole input and writes the results to dest: two batches take
 * turns, the next one is read while the last one runs. *done: pairs
 * aligned. 0 or an exit status. */
static int align_all(wfa_run *run, wfa_chunk chunk[2], progress *pg, FILE *dest, const char *destname,
                     uint64_t *done)
{
    size_t head = 0, inflight = 0;
    int rc = 0;
    while (rc == 0) {
        if (!run->eof && inflight < 2) {
            wfa_chunk *c = &chunk[(head + inflight) % 2];
            rc = fill_chunk(run, c);
            if (rc == 0 && c->n > 0) {
                gale_status st = gale_submit(c->b);
                if (st != GALE_OK) {
                    progress_clear(pg);
                    gale_msg("cannot submit a batch", st);
                    return EXIT_FAIL;
                }
                inflight++;
            }
            continue;
        }
        if (inflight == 0)
            break;
        rc = wait_chunk(run, &chunk[head], pg, *done);
        if (rc == 0)
            run_totals_add(&run->totals, chunk[head].b);
        if (rc == 0)
            rc = write_chunk(run, &chunk[head], dest, destname);
        *done += chunk[head].n;
        head = (head + 1) % 2;
        inflight--;
    }
    return rc;
}

/* SAM: the header (every @SQ is known now), then the records kept in body. */
static int finish_sam(const wfa_run *run, FILE *body, const out_file *out, int argc, char **argv)
{
    char *cl = command_line(argc, argv);
    int rc = EXIT_OK;
    if (!cl || write_sam_header(&run->sq, out->fp, cl) != 0 || copy_stream(body, out->fp) != 0) {
        msg("%s: write error: %s", out->display, strerror(errno));
        rc = EXIT_FAIL;
    }
    free(cl);
    return rc;
}

static void run_free(wfa_run *run, wfa_chunk chunk[2])
{
    int i;
    for (i = 0; i < 2; i++) {
        free(chunk[i].it);
        free(chunk[i].pool.s);
    }
    seq_rec_free(&run->p);
    seq_rec_free(&run->t);
    free(run->line.s);
    free(run->cig.s);
    free(run->name.s);
    sq_free(&run->sq);
}

int cmd_wfa(int argc, char **argv)
{
    wfa_opts o;
    gale_ctx *ctx = NULL;
    wfa_chunk chunk[2];
    wfa_run run;
    progress pg;
    out_file out;
    FILE *body = NULL;
    uint64_t done = 0;
    gale_status st;
    int rc;

    rc = parse_wfa_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    memset(chunk, 0, sizeof chunk);
    memset(&run, 0, sizeof run);
    memset(&out, 0, sizeof out);
    run.o = &o;
    progress_init(&pg, o.com.quiet);

    rc = start_context("wfa", &o.com, &ctx);
    if (rc != EXIT_OK)
        return rc;

    rc = create_chunks(ctx, &o, chunk);
    if (rc == 0)
        rc = pair_open(&run.rd, o.in, o.nin);
    if (rc == 0 && o.format == FMT_SAM && sq_init(&run.sq) != 0)
        rc = EXIT_FAIL;
    /* before the work: a -o FILE that cannot be written fails the run at once */
    if (rc == 0)
        rc = out_open(&out, o.com.output);
    /* SAM needs every reference in its header, before the first record */
    if (rc == 0 && o.format == FMT_SAM && !(body = sam_body_file(&out)))
        rc = EXIT_FAIL;

    if (rc == 0)
        rc = align_all(&run, chunk, &pg, body ? body : out.fp, body ? "(temporary SAM file)" : out.display, &done);
    progress_clear(&pg);

    if (rc == 0)
        rc = pair_close(&run.rd, 1);
    if (rc == 0 && body)
        rc = finish_sam(&run, body, &out, argc, argv);
    rc = out_close(&out, rc);

    if (rc == 0) {
        run.totals.pairs = done;
        print_summary(&pg, "wfa", ctx, &run.totals, "wavefront");
    }

    pair_close(&run.rd, 0);
    if (body)
        fclose(body);
    /* gale_ctx_destroy cancels what is in flight and destroys the batches */
    st = gale_ctx_destroy(ctx);
    if (st != GALE_OK && rc == 0) {
        gale_msg("cannot release the context", st);
        rc = EXIT_FAIL;
    }
    run_free(&run, chunk);
    return rc;
}
