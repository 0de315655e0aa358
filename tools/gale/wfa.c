/*
 * gale wfa [options] PATTERNS TEXTS | PAIRS.seq
 *
 * Wavefront alignment of pattern/text pairs from two FASTA/FASTQ files (record
 * i of PATTERNS with record i of TEXTS) or from one file in WFA2-lib's .seq
 * format (input.c), written as TSV, SAM or PAF (output.c) in input order.
 *
 * Pairs are streamed (stream.c): a batch is filled up to --batch-size pairs
 * or --batch-bases bytes of input, a .seq file's lines are checked on
 * several threads, and three batches take turns (one read, one aligned, one
 * written), so memory stays bounded whatever the input size. Results are
 * written batch by batch, in input order. SAM needs every reference in its
 * header, before the first record: its records go to an unlinked temporary
 * file and are copied behind the header at the end. Under MPI, rank 0
 * collects the references of every chunk, the other ranks' too (it reads
 * every record anyway), and writes the header.
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

#define WFA_DEFAULT_MISMATCH    4
#define WFA_DEFAULT_GAP_OPEN    6
#define WFA_DEFAULT_GAP_EXTEND  2
#define WFA_DEFAULT_BATCH_SIZE  65536
#define WFA_DEFAULT_BATCH_BASES ((int64_t)1 << 24)

#define HELP_WIDTH 19 /* the options' column in the help */

typedef struct wfa_opts {
    int kind;                    /* GALE_WFA, GALE_EDIT, GALE_INDEL or GALE_WFA_LINEAR */
    int64_t x, o, e, o2, e2;
    int64_t match, indel;        /* WFA2-lib's match score (<= 0); gap-linear's gap penalty */
    const char *penalty_opt;     /* first penalty option given (refused with --edit, --indel) */
    const char *gap_opt;         /* first gap-affine option given (refused with gap-linear) */
    const char *metric_opt;      /* the option that chose the metric (two different ones: refused) */
    int have_o2, have_e2;
    int score_only, n_mismatch, bytes, coords;
    int ends_free;
    int64_t free_len[4];         /* pattern begin, pattern end, text begin, text end */
    int64_t memory_limit;        /* MiB; 0 = the library's default */
    int heuristic;               /* GALE_WFA_H_* bits (--wfa-heuristic) */
    int64_t hp[7];               /* the heuristic's parameters, in heur_params' order */
    int hp_set[7];               /* given (else the library's defaults) */
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
    OPT_W_BYTES,
    OPT_W_MEMORY,
    OPT_W_COORDS,
    OPT_W_BATCH_BASES,
    OPT_W_HEURISTIC,
    OPT_W_HEURISTIC_PARAMS,
    OPT_W_HP0, /* the seven OPT_W_HP0 + i of heur_params */
    OPT_W_HP6 = OPT_W_HP0 + 6,
    OPT_W_INDEL,
    OPT_W_MATCH,
    OPT_W_ALGORITHM,
    OPT_W_LINEAR_PEN,
    OPT_W_AFFINE_PEN,
    OPT_W_AFFINE2P_PEN
};

#define WFA_DEFAULT_INDEL 2 /* WFA2-lib's align_benchmark: --linear-penalties 0,4,2 */
#define WFA_DEFAULT_GAP_OPEN2 24 /* and --affine2p-penalties 0,4,6,2,24,1 */
#define WFA_DEFAULT_GAP_EXTEND2 1

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
        "                 minus the penalty, or the distance with --edit/--indel; the\n"
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
        "  --indel            indel (LCS) distance: gaps of 1 each, no mismatch\n"
        "  --match N          match score, 0 (default) or negative (a bonus of -N per\n"
        "                     match), as WFA2-lib's: the score is then WFA2-lib's\n"
        "                     (-N (|pattern| + |text|) - P) / 2, P the penalty under\n"
        "                     2x - 2N, 2o, 2e - N (gale/wfa.h, GALE_P_PENALTY_MATCH)\n"
        "  As WFA2-lib's align_benchmark (M the match score, <= 0):\n"
        "  --linear-penalties M,X,I   gap-linear: mismatch X, I per gap base\n"
        "  --affine-penalties M,X,O,E gap-affine\n"
        "  --affine2p-penalties M,X,O1,E1,O2,E2  two-piece gap-affine\n"
        "  --algorithm A      indel-wfa, edit-wfa, gap-linear-wfa, gap-affine-wfa or\n"
        "                     gap-affine2p-wfa (with align_benchmark's default\n"
        "                     penalties unless given)\n"
        "  --score-only       no CIGAR: TSV prints '*' (not with sam or paf)\n"
        "  --ends-free PB,PE,TB,TE\n"
        "                     ends-free: up to PB/PE leading/trailing bases of the\n"
        "                     pattern and TB/TE of the text may stay unaligned at no\n"
        "                     cost (default 0,0,0,0: end to end)\n"
        "  --n-mismatch       N (and other IUPAC codes) mismatch everything, N\n"
        "                     included (default: case folded, IUPAC codes as N, N\n"
        "                     matches N)\n"
        "  --bytes            compare bytes exactly, case and IUPAC codes as they are\n"
        "                     (as WFA2-lib does)\n"
        "  --memory-limit MIB memory of one alignment's backtrace above which it is\n"
        "                     recomputed in low-memory (BiWFA) mode (default: the\n"
        "                     library's, 256)\n"
        "  --wfa-heuristic S  WFA2-lib 2.3.3's heuristic (default none: exact; WFA2-lib's\n"
        "                     own default is wfa-adaptive): wfa-adaptive, wfmash,\n"
        "                     xdrop, zdrop, banded-static, banded-adaptive, or several\n"
        "                     comma-separated, combined as WFA2-lib's flags\n"
        "  --wfa-heuristic-parameters P1,P2[,P3]\n"
        "                     as align_benchmark, for one strategy: banded-static\n"
        "                     MIN_K,MAX_K; banded-adaptive MIN_K,MAX_K,STEPS;\n"
        "                     wfa-adaptive, wfmash MIN_LENGTH,MAX_DISTANCE,STEPS;\n"
        "                     xdrop, zdrop X,STEPS (default: gale/wfa.h's)\n"
        "  --wfa-min-wavefront-length N, --wfa-max-distance-threshold N,\n"
        "  --wfa-steps-between-cutoffs N, --wfa-xdrop N, --wfa-zdrop N,\n"
        "  --wfa-band-min-k K, --wfa-band-max-k K\n"
        "                     one parameter each (defaults 10, 50, 1, 100, 100,\n"
        "                     -100, 100); a pair all of whose paths were cut has no\n"
        "                     alignment: TSV '*' for score and CIGAR, SAM unmapped,\n"
        "                     PAF no line\n"
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

/* A comma-separated list of exactly n integers (the library checks their bounds).
 * 0, or the usage error (exit status) after a message that names the bad part. */
static int parse_int_list(const char *opt, const char *s, int64_t *out, int n, const char *form)
{
    const char *p = s;
    int i;
    char why[160];
    for (i = 0; i < n; i++) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int r;
        if ((i < n - 1) != (comma != NULL))
            return usage_error("wfa", "invalid value '%s' for %s: expected %s", s, opt, form);
        r = parse_number(p, len, -((int64_t)1 << 31), ((int64_t)1 << 31) - 1, &out[i]);
        if (r != NUM_OK)
            return usage_error("wfa", "invalid value '%s' for %s: '%.*s': %s", s, opt, (int)len, p,
                               number_problem(r, p, len, -((int64_t)1 << 31), ((int64_t)1 << 31) - 1, why,
                                              sizeof why));
        p += len + (comma ? 1 : 0);
    }
    return 0;
}

/* WFA2-lib's heuristics (gale/wfa.h, GALE_P_WFA_HEURISTIC): the strategies as 2.3.3's
 * align_benchmark names them (--wfa-heuristic), wfmash for the one it does not name, and
 * each parameter's own option. */
static const struct {
    const char *name;
    int bit;
} heur_names[] = {
    {"none", GALE_WFA_H_NONE},
    {"wfa-adaptive", GALE_WFA_H_WFADAPTIVE},
    {"wfmash", GALE_WFA_H_WFMASH},
    {"xdrop", GALE_WFA_H_XDROP},
    {"zdrop", GALE_WFA_H_ZDROP},
    {"banded-static", GALE_WFA_H_BANDED_STATIC},
    {"banded", GALE_WFA_H_BANDED_STATIC}, /* align_benchmark's alias */
    {"banded-adaptive", GALE_WFA_H_BANDED_ADAPTIVE},
};
static const struct {
    const char *opt;
    int id;
    int64_t lo, hi;
} heur_params[7] = {
    {"--wfa-min-wavefront-length", GALE_P_WFA_MIN_WAVEFRONT_LENGTH, 0, (int64_t)1 << 30},
    {"--wfa-max-distance-threshold", GALE_P_WFA_MAX_DISTANCE_THRESHOLD, 0, (int64_t)1 << 30},
    {"--wfa-steps-between-cutoffs", GALE_P_WFA_STEPS_BETWEEN_CUTOFFS, 0, (int64_t)1 << 30},
    {"--wfa-xdrop", GALE_P_WFA_XDROP, 0, (int64_t)1 << 30},
    {"--wfa-zdrop", GALE_P_WFA_ZDROP, 0, (int64_t)1 << 30},
    {"--wfa-band-min-k", GALE_P_WFA_BAND_MIN_K, -((int64_t)1 << 30), (int64_t)1 << 30},
    {"--wfa-band-max-k", GALE_P_WFA_BAND_MAX_K, -((int64_t)1 << 30), (int64_t)1 << 30},
};
enum { HP_MINLEN, HP_MAXDIST, HP_STEPS, HP_XDROP, HP_ZDROP, HP_MINK, HP_MAXK };

/* --wfa-heuristic S[,S...]: the bits of the named strategies (several combine as
 * WFA2-lib's flags). */
static int parse_heuristic(wfa_opts *o, const char *s)
{
    const char *p = s;
    int bits = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        size_t i;
        for (i = 0; i < sizeof heur_names / sizeof heur_names[0]; i++)
            if (strlen(heur_names[i].name) == len && strncmp(heur_names[i].name, p, len) == 0) break;
        if (i == sizeof heur_names / sizeof heur_names[0])
            return bad_value("wfa", "--wfa-heuristic", s,
                             "expected none, wfa-adaptive, wfmash, xdrop, zdrop, banded-static or banded-adaptive "
                             "(several: comma-separated)");
        bits |= heur_names[i].bit;
        if (!comma) break;
        p = comma + 1;
    }
    o->heuristic = bits;
    return -1;
}

/* --wfa-heuristic-parameters P1,P2[,P3], as align_benchmark reads them for its one
 * strategy: banded-static MIN_K,MAX_K; banded-adaptive MIN_K,MAX_K,STEPS; wfa-adaptive
 * and wfmash MIN_LENGTH,MAX_DISTANCE,STEPS; xdrop and zdrop X,STEPS. */
static int parse_heuristic_params(wfa_opts *o, const char *s)
{
    static const int slots[][3] = {
        /* banded-static */ {HP_MINK, HP_MAXK, -1},
        /* banded-adaptive */ {HP_MINK, HP_MAXK, HP_STEPS},
        /* wfa-adaptive, wfmash */ {HP_MINLEN, HP_MAXDIST, HP_STEPS},
        /* xdrop */ {HP_XDROP, HP_STEPS, -1},
        /* zdrop */ {HP_ZDROP, HP_STEPS, -1},
    };
    int which, n, i;
    int64_t v[3];
    switch (o->heuristic) {
    case GALE_WFA_H_BANDED_STATIC: which = 0; break;
    case GALE_WFA_H_BANDED_ADAPTIVE: which = 1; break;
    case GALE_WFA_H_WFADAPTIVE: case GALE_WFA_H_WFMASH: which = 2; break;
    case GALE_WFA_H_XDROP: which = 3; break;
    case GALE_WFA_H_ZDROP: which = 4; break;
    default:
        return usage_error("wfa", "--wfa-heuristic-parameters needs one strategy before it (--wfa-heuristic); "
                                  "with several, give each parameter's own option (--wfa-xdrop, ...)");
    }
    n = slots[which][2] >= 0 ? 3 : 2;
    if (parse_int_list("--wfa-heuristic-parameters", s, v, n, n == 3 ? "P1,P2,P3" : "P1,P2") != 0) return EXIT_USAGE;
    for (i = 0; i < n; i++) {
        const int k = slots[which][i];
        if (v[i] < heur_params[k].lo || v[i] > heur_params[k].hi)
            return usage_error("wfa", "invalid value '%s' for --wfa-heuristic-parameters: P%d (%s) must be in "
                                      "[%lld, %lld]", s, i + 1, heur_params[k].opt + 6,
                               (long long)heur_params[k].lo, (long long)heur_params[k].hi);
        o->hp[k] = v[i];
        o->hp_set[k] = 1;
    }
    return -1;
}

/* Sets the metric (kind) once; a second, different choice is a usage error. */
static int set_metric(wfa_opts *o, int kind, int two, const char *opt)
{
    if (o->metric_opt && (o->kind != kind || (kind == GALE_WFA && two != o->have_e2)))
        return usage_error("wfa", "%s and %s choose different metrics", o->metric_opt, opt);
    o->metric_opt = opt;
    o->kind = kind;
    return -1;
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
        {"indel",        no_argument,       NULL, OPT_W_INDEL},
        {"match",        required_argument, NULL, OPT_W_MATCH},
        {"algorithm",    required_argument, NULL, OPT_W_ALGORITHM},
        {"linear-penalties",   required_argument, NULL, OPT_W_LINEAR_PEN},
        {"affine-penalties",   required_argument, NULL, OPT_W_AFFINE_PEN},
        {"affine2p-penalties", required_argument, NULL, OPT_W_AFFINE2P_PEN},
        {"score-only",   no_argument,       NULL, OPT_W_SCORE_ONLY},
        {"ends-free",    required_argument, NULL, OPT_W_ENDS_FREE},
        {"n-mismatch",   no_argument,       NULL, OPT_W_NMISMATCH},
        {"bytes",        no_argument,       NULL, OPT_W_BYTES},
        {"memory-limit", required_argument, NULL, OPT_W_MEMORY},
        {"format",       required_argument, NULL, 'F'},
        {"coords",       no_argument,       NULL, OPT_W_COORDS},
        {"batch-bases",  required_argument, NULL, OPT_W_BATCH_BASES},
        {"wfa-heuristic", required_argument, NULL, OPT_W_HEURISTIC},
        {"wfa-heuristic-parameters", required_argument, NULL, OPT_W_HEURISTIC_PARAMS},
        {"wfa-min-wavefront-length", required_argument, NULL, OPT_W_HP0 + HP_MINLEN},
        {"wfa-max-distance-threshold", required_argument, NULL, OPT_W_HP0 + HP_MAXDIST},
        {"wfa-steps-between-cutoffs", required_argument, NULL, OPT_W_HP0 + HP_STEPS},
        {"wfa-xdrop", required_argument, NULL, OPT_W_HP0 + HP_XDROP},
        {"wfa-zdrop", required_argument, NULL, OPT_W_HP0 + HP_ZDROP},
        {"wfa-band-min-k", required_argument, NULL, OPT_W_HP0 + HP_MINK},
        {"wfa-band-max-k", required_argument, NULL, OPT_W_HP0 + HP_MAXK},
        COMMON_LONGOPTS,
        {NULL, 0, NULL, 0}
    };
    int c, i, rc = 0;

    memset(o, 0, sizeof *o);
    o->kind = GALE_WFA;
    o->x = WFA_DEFAULT_MISMATCH;
    o->o = WFA_DEFAULT_GAP_OPEN;
    o->e = WFA_DEFAULT_GAP_EXTEND;
    o->indel = WFA_DEFAULT_INDEL;
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
            if (c != OPT_W_MISMATCH && !o->gap_opt)
                o->gap_opt = name;
            break;
        }
        case OPT_W_EDIT:
            if ((rc = set_metric(o, GALE_EDIT, 0, "--edit")) >= 0) return rc;
            break;
        case OPT_W_INDEL:
            if ((rc = set_metric(o, GALE_INDEL, 0, "--indel")) >= 0) return rc;
            break;
        case OPT_W_MATCH:
            if (option_number("wfa", "--match", optarg, INT64_MIN, INT64_MAX, &v) != 0)
                return EXIT_USAGE;
            o->match = v;
            if (!o->penalty_opt)
                o->penalty_opt = "--match";
            break;
        case OPT_W_ALGORITHM: {
            int r = -1;
            if (strcmp(optarg, "indel-wfa") == 0) r = set_metric(o, GALE_INDEL, 0, "--algorithm");
            else if (strcmp(optarg, "edit-wfa") == 0) r = set_metric(o, GALE_EDIT, 0, "--algorithm");
            else if (strcmp(optarg, "gap-linear-wfa") == 0) r = set_metric(o, GALE_WFA_LINEAR, 0, "--algorithm");
            else if (strcmp(optarg, "gap-affine-wfa") == 0) r = set_metric(o, GALE_WFA, 0, "--algorithm");
            else if (strcmp(optarg, "gap-affine2p-wfa") == 0) {
                r = set_metric(o, GALE_WFA, o->have_e2, "--algorithm");
                if (r < 0 && !o->have_e2) {  /* align_benchmark's second piece unless given */
                    o->o2 = WFA_DEFAULT_GAP_OPEN2;
                    o->e2 = WFA_DEFAULT_GAP_EXTEND2;
                    o->have_o2 = o->have_e2 = 1;
                }
            } else {
                return bad_value("wfa", "--algorithm", optarg,
                                 "expected indel-wfa, edit-wfa, gap-linear-wfa, gap-affine-wfa or gap-affine2p-wfa");
            }
            if (r >= 0) return r;
            break;
        }
        case OPT_W_LINEAR_PEN: {
            int64_t l[3];
            if (parse_int_list("--linear-penalties", optarg, l, 3, "M,X,I") != 0) return EXIT_USAGE;
            if ((rc = set_metric(o, GALE_WFA_LINEAR, 0, "--linear-penalties")) >= 0) return rc;
            o->match = l[0];
            o->x = l[1];
            o->indel = l[2];
            if (!o->penalty_opt) o->penalty_opt = "--linear-penalties";
            break;
        }
        case OPT_W_AFFINE_PEN: {
            int64_t l[4];
            if (parse_int_list("--affine-penalties", optarg, l, 4, "M,X,O,E") != 0) return EXIT_USAGE;
            if ((rc = set_metric(o, GALE_WFA, 0, "--affine-penalties")) >= 0) return rc;
            o->match = l[0];
            o->x = l[1];
            o->o = l[2];
            o->e = l[3];
            if (!o->penalty_opt) o->penalty_opt = "--affine-penalties";
            break;
        }
        case OPT_W_AFFINE2P_PEN: {
            int64_t l[6];
            if (parse_int_list("--affine2p-penalties", optarg, l, 6, "M,X,O1,E1,O2,E2") != 0) return EXIT_USAGE;
            if ((rc = set_metric(o, GALE_WFA, 1, "--affine2p-penalties")) >= 0) return rc;
            o->match = l[0];
            o->x = l[1];
            o->o = l[2];
            o->e = l[3];
            o->o2 = l[4];
            o->e2 = l[5];
            o->have_o2 = o->have_e2 = 1;
            if (!o->penalty_opt) o->penalty_opt = "--affine2p-penalties";
            break;
        }
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
        case OPT_W_BYTES:
            o->bytes = 1;
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
        case OPT_W_HEURISTIC:
            if ((rc = parse_heuristic(o, optarg)) >= 0) return rc;
            break;
        case OPT_W_HEURISTIC_PARAMS:
            if ((rc = parse_heuristic_params(o, optarg)) >= 0) return rc;
            break;
        default:
            if (c >= OPT_W_HP0 && c <= OPT_W_HP6) {
                const int k = c - OPT_W_HP0;
                if (option_number("wfa", heur_params[k].opt, optarg, heur_params[k].lo, heur_params[k].hi, &v) != 0)
                    return EXIT_USAGE;
                o->hp[k] = v;
                o->hp_set[k] = 1;
            }
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
    if (o->n_mismatch && o->bytes)
        return usage_error("wfa", "wfa: --n-mismatch and --bytes are two alphabet policies: give one");
    if ((o->kind == GALE_EDIT || o->kind == GALE_INDEL) && o->penalty_opt)
        return usage_error("wfa", "%s does not apply to %s (a distance has no penalties)", o->penalty_opt,
                           o->kind == GALE_EDIT ? "edit distance" : "indel distance");
    if (o->kind == GALE_WFA_LINEAR && o->gap_opt)
        return usage_error("wfa", "%s does not apply to gap-linear (its gap penalty is the I of --linear-penalties)",
                           o->gap_opt);
    if (o->have_o2 != o->have_e2)
        return usage_error("wfa", "two-piece penalties need both --gap-open2 and --gap-extend2");
    if ((o->kind == GALE_EDIT || o->kind == GALE_INDEL) && (o->heuristic & (GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP)))
        return usage_error("wfa", "--wfa-heuristic xdrop and zdrop need penalties: not with %s (as in WFA2-lib)",
                           o->kind == GALE_EDIT ? "edit distance" : "indel distance");
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
 * offsets into its slot's string pool (SIZE_MAX: none). */
typedef struct wfa_item {
    size_t qname, tname, seq, qual;
    int64_t plen, tlen;
} wfa_item;

/* The command's data of a stream slot (stream.h): the chunk's items. */
typedef struct wfa_slot {
    wfa_item *it;
    size_t cap;
    kstring_t pool;          /* the writers' names, bases and qualities */
    line_chunk lc;           /* .seq: the chunk's lines (its tasks point into them) */
    kstring_t raw;           /* FASTA/FASTQ: the chunk's records (its tasks point into them) */
    pair_view *pv;           /* the chunk's pairs as read */
    size_t pv_cap;
} wfa_slot;

typedef struct wfa_run {
    const wfa_opts *o;
    pair_reader rd;
    int opened;               /* rd is open (by the reader thread's first fill) */
    out_file *out;
    FILE *body;               /* SAM: the records, until the header can be written */
    int threads;              /* the parsers' */
    wfa_slot slot[STREAM_SLOTS + 1]; /* the last: another rank's chunk (stream.h), read for its references */
    int collect_sq;           /* SAM on rank 0: the references of every chunk go to sq */
    sq_table sq;              /* SAM: filled by the reader, written by the main thread at the end */
    kstring_t line;           /* output line (main thread) */
    kstring_t cig;            /* CIGAR of the current result (main thread) */
    kstring_t name;           /* scratch (reader thread) */
    FILE *dest;               /* the results: the output, or SAM's temporary body */
    const char *destname;
    progress *pg;
    run_totals totals;        /* of the finished batches, for the summary */
} wfa_run;

static int wfa_set_params(gale_batch *b, const void *opts)
{
    const wfa_opts *o = opts;
    param_value p[32];
    int n = 0;
    if (o->kind == GALE_WFA_LINEAR) {
        p[n].id = GALE_P_PENALTY_MISMATCH; p[n].v = o->x;     p[n++].name = "--mismatch";
        p[n].id = GALE_P_PENALTY_MATCH;    p[n].v = o->match; p[n++].name = "--match";
        p[n].id = GALE_P_PENALTY_INDEL;    p[n].v = o->indel; p[n++].name = "--linear-penalties (I)";
    }
    if (o->kind == GALE_WFA) {
        p[n].id = GALE_P_PENALTY_MATCH;      p[n].v = o->match; p[n++].name = "--match";
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
    p[n].id = GALE_P_N_POLICY;
    p[n].v = o->bytes ? GALE_N_BYTES : o->n_mismatch ? GALE_N_MISMATCH : GALE_N_DNA5;
    p[n++].name = o->bytes ? "--bytes" : "--n-mismatch";
    if (o->ends_free) {
        p[n].id = GALE_P_PATTERN_BEGIN_FREE; p[n].v = o->free_len[0]; p[n++].name = "--ends-free (PB)";
        p[n].id = GALE_P_PATTERN_END_FREE;   p[n].v = o->free_len[1]; p[n++].name = "--ends-free (PE)";
        p[n].id = GALE_P_TEXT_BEGIN_FREE;    p[n].v = o->free_len[2]; p[n++].name = "--ends-free (TB)";
        p[n].id = GALE_P_TEXT_END_FREE;      p[n].v = o->free_len[3]; p[n++].name = "--ends-free (TE)";
    }
    if (o->memory_limit) {
        p[n].id = GALE_P_MEMORY_LIMIT; p[n].v = o->memory_limit; p[n++].name = "--memory-limit";
    }
    if (o->heuristic) {
        int k;
        p[n].id = GALE_P_WFA_HEURISTIC; p[n].v = o->heuristic; p[n++].name = "--wfa-heuristic";
        for (k = 0; k < 7; k++)
            if (o->hp_set[k]) {
                p[n].id = heur_params[k].id; p[n].v = o->hp[k]; p[n++].name = heur_params[k].opt;
            }
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

/* A record's name into the slot's pool or, for .seq (and empty names),
 * prefix and the pair's index (nm: scratch). Its offset or POOL_NOMEM. */
static size_t pool_name(wfa_slot *sl, kstring_t *nm, const char *name, const char *prefix, uint64_t index)
{
    if (name && *name)
        return pool_put(&sl->pool, name, strlen(name));
    nm->l = 0;
    ksprintf(nm, "%s%" PRIu64, prefix, index);
    return pool_put(&sl->pool, nm->s, nm->l);
}

/* The library names the task by its index in the batch and the sequence as
 * h or v; the user knows records, patterns and texts. Reports a failed
 * gale_batch_add_tasks for pair v. */
static void report_add_error(wfa_run *run, const pair_view *v, gale_status st)
{
    const char *e = strip_task_prefix(gale_last_error());
    int which = 0; /* 0: unknown, 'v' pattern, 'h' text */
    size_t len = strlen(e);
    in_file *f;
    uint64_t line;
    if (len > 13 && strcmp(e + len - 13, "of sequence h") == 0)
        which = 'h';
    else if (len > 13 && strcmp(e + len - 13, "of sequence v") == 0)
        which = 'v';
    f = pair_file(&run->rd, which == 'h');
    line = which == 'h' ? v->tline : v->pline;
    if (st == GALE_E_INPUT && which)
        in_error(f, line, v->recno, "%.*sof the %s", (int)(len - 13), e, which == 'h' ? "text" : "pattern");
    else if (st == GALE_E_INPUT)
        in_error(f, line, v->recno, "invalid pair: %s (h = text, v = pattern)", e);
    else
        in_error(f, line, v->recno, "cannot add the pair: %s (%s)", gale_status_string(st), e);
}

static void wfa_add_error(void *self, const stream_chunk *c, size_t i, gale_status st)
{
    wfa_run *run = self;
    report_add_error(run, &run->slot[c->slot].pv[i], st);
}

/* Registers the text of v as a SAM reference named name: 0, or -1 after a
 * message (a reference name stands for one sequence). */
static int sq_add_text(wfa_run *run, const pair_view *v, const char *name)
{
    uint64_t first = 0;
    int r = sq_add(&run->sq, name, v->t, v->tlen, v->recno, &first);
    if (r > 0) {
        /* rank 0 alone sees every reference: it says so also in another
         * rank's chunk, whose messages are muted otherwise (stream.c) */
        in_mute_messages(0);
        in_error(pair_file(&run->rd, 1), v->tline, v->recno,
                 "text name '%s' was given to a different sequence by record %" PRIu64
                 " (SAM needs one sequence per reference name; rename it, or use --format tsv or paf)",
                 name, first);
    }
    return r ? -1 : 0;
}

/* The next chunk of the input into c: up to --batch-size pairs, no more once
 * --batch-bases bytes are read. c->n == 0 at the end of the input. Another
 * rank's chunk (c->skip) is only read past, but for SAM on rank 0 it is read
 * as its owner reads it, for its references. */
static int wfa_fill(void *self, stream_chunk *c)
{
    wfa_run *run = self;
    const wfa_opts *o = run->o;
    wfa_slot *sl = &run->slot[c->slot];
    size_t max = (size_t)o->com.batch_size;
    int64_t n, i;

    if (!run->opened) {
        if (pair_open(&run->rd, o->in, o->nin) != 0)
            return EXIT_FAIL;
        run->opened = 1;
    }
    if (c->skip && !run->collect_sq)
        return stream_skip_pairs(&run->rd, c, &sl->lc, &sl->raw, max, (size_t)o->batch_bases, run->threads);
    sl->pool.l = 0;
    while (sl->cap < max) {
        wfa_item *ni = grow_array(sl->it, &sl->cap, sizeof *ni, 1024);
        if (!ni)
            goto oom;
        sl->it = ni;
    }
    n = stream_read_pairs(&run->rd, c, &sl->lc, &sl->raw, &sl->pv, &sl->pv_cap, max, (size_t)o->batch_bases,
                          run->threads);
    if (n < 0)
        return EXIT_FAIL;
    for (i = 0; i < n; i++) {
        const pair_view *v = &sl->pv[i];
        gale_task *task = &c->task[i];
        wfa_item *item = &sl->it[i];
        uint64_t index = c->first + (uint64_t)i;
        if ((uint64_t)v->plen > (uint64_t)INT32_MAX || (uint64_t)v->tlen > (uint64_t)INT32_MAX) {
            int text = v->plen <= (size_t)INT32_MAX;
            in_error(pair_file(&run->rd, text), text ? v->tline : v->pline, v->recno,
                     "sequence of %zu bases: gale takes at most 2^31-1", text ? v->tlen : v->plen);
            return EXIT_FAIL;
        }
        gale_task_init(task);
        task->v = v->p;
        task->v_len = (int64_t)v->plen;
        task->h = v->t;
        task->h_len = (int64_t)v->tlen;
        task->user = index;

        item->qname = item->tname = item->seq = item->qual = SIZE_MAX;
        item->plen = task->v_len;
        item->tlen = task->h_len;
        if (o->format != FMT_TSV) {
            /* names: the record's, or for .seq (and empty names) the index */
            item->qname = pool_name(sl, &run->name, v->pname, "", index);
            item->tname = pool_name(sl, &run->name, v->tname, "text", index);
            if (item->qname == POOL_NOMEM || item->tname == POOL_NOMEM)
                goto oom;
        }
        if (o->format == FMT_SAM) {
            const char *qn = sl->pool.s + item->qname, *tn = sl->pool.s + item->tname;
            if (strlen(qn) > SAM_MAX_QNAME) {
                in_error(pair_file(&run->rd, 0), v->pline, v->recno,
                         "pattern name of %zu characters: SAM allows at most %d", strlen(qn), SAM_MAX_QNAME);
                return EXIT_FAIL;
            }
            if (run->collect_sq && v->tlen > 0 && sq_add_text(run, v, tn) != 0)
                return EXIT_FAIL;
            item->seq = pool_put(&sl->pool, v->p, v->plen);
            if (item->seq == POOL_NOMEM)
                goto oom;
            if (v->qual && *v->qual) {
                item->qual = pool_put(&sl->pool, v->qual, strlen(v->qual));
                if (item->qual == POOL_NOMEM)
                    goto oom;
            }
        }
    }
    c->n = (size_t)n;
    c->check_only = pair_failing(&run->rd);
    return EXIT_OK;
oom:
    msg("out of memory");
    return EXIT_FAIL;
}

/* The name at offset off of the slot's pool (NULL for none). */
static const char *pool_str(const wfa_slot *sl, size_t off)
{
    return off == SIZE_MAX ? NULL : sl->pool.s + off;
}

/* Reads result i of a finished chunk into a (the CIGAR's text into cg) and
 * checks it: 0, or EXIT_FAIL after a message. */
static int get_aln(const wfa_run *run, const stream_chunk *c, size_t i, gale_result *res, kstring_t *cg, aln_rec *a)
{
    const wfa_opts *o = run->o;
    const wfa_slot *sl = &run->slot[c->slot];
    const wfa_item *it = &sl->it[i];
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
    a->as_score = o->kind == GALE_EDIT || o->kind == GALE_INDEL ? -res->score : res->score;
    a->plen = it->plen;
    a->tlen = it->tlen;
    a->qname = pool_str(sl, it->qname);
    a->tname = pool_str(sl, it->tname);
    a->seq = it->plen > 0 ? pool_str(sl, it->seq) : NULL;
    a->qual = pool_str(sl, it->qual);
    return EXIT_OK;
}

/* Writes the results of a finished chunk. */
static int wfa_write(void *self, stream_chunk *c)
{
    wfa_run *run = self;
    const wfa_opts *o = run->o;
    kstring_t *ln = &run->line;
    size_t i;
    for (i = 0; i < c->n; i++) {
        gale_result res;
        aln_rec a;
        if (get_aln(run, c, i, &res, &run->cig, &a) != EXIT_OK)
            return EXIT_FAIL;
        ln->l = 0;
        if (res.flags & GALE_RF_UNFEASIBLE) {
            /* --wfa-heuristic cut every path: no alignment. TSV: '*' for the score and
             * the CIGAR; SAM: an unmapped record; PAF: no line (it has no unmapped ones). */
            int r = 0;
            if (o->format == FMT_PAF) continue;
            if (o->format == FMT_TSV)
                r = ksprintf(ln, "%" PRIu64 "\t*\t*%s\n", a.index, o->coords ? "\t*\t*\t*\t*" : "") < 0;
            else
                r = ksprintf(ln, "%s\t4\t*\t0\t0\t*\t*\t0\t0\t%s\t%s\n", a.qname, a.seq ? a.seq : "*",
                             a.qual ? a.qual : "*") < 0;
            if (r) {
                msg("out of memory");
                return EXIT_FAIL;
            }
        } else if (put_aln(ln, o->format, o->coords, &a) < 0) {
            msg("out of memory");
            return EXIT_FAIL;
        }
        if (fwrite(ln->s, 1, ln->l, run->dest) != ln->l)
            goto werr;
    }
    if (ferror(run->dest))
        goto werr;
    run_totals_add(&run->totals, c->b);
    return EXIT_OK;
werr:
    msg("%s: write error: %s", run->destname, strerror(errno));
    return EXIT_FAIL;
}

/* ------------------------------------------------------------------ */
/* wfa: the command                                                    */
/* ------------------------------------------------------------------ */

/* The bar of wfa: how much of the input is read (the pairs are aligned a
 * batch or two behind it), and the pairs aligned so far. */
static void wfa_progress(void *self, uint64_t done)
{
    wfa_run *run = self;
    progress_bar(run->pg, pair_fraction(&run->rd), "of the input read, %" PRIu64 " pairs aligned", done);
}

/* The context and one batch per slot; the parameters are checked on the
 * first before any input is reported on. 0 or an exit status. */
static int wfa_setup(void *self, gale_ctx **ctx, gale_batch *b[STREAM_SLOTS])
{
    wfa_run *run = self;
    const wfa_opts *o = run->o;
    int rc = stream_make_batches("wfa", &o->com, o->kind, o->kind == GALE_EDIT ? "an edit-distance batch" : "a WFA batch",
                                 wfa_set_params, o, ctx, b);
    return stream_open_output(rc, run->out, o->com.output, o->format == FMT_SAM ? &run->body : NULL, &run->dest,
                              &run->destname);
}

static void run_free(wfa_run *run)
{
    int i;
    for (i = 0; i <= STREAM_SLOTS; i++) {
        free(run->slot[i].it);
        free(run->slot[i].pool.s);
        free(run->slot[i].raw.s);
        free(run->slot[i].pv);
        line_chunk_free(&run->slot[i].lc);
    }
    free(run->line.s);
    free(run->cig.s);
    free(run->name.s);
    sq_free(&run->sq);
}

int cmd_wfa(int argc, char **argv)
{
    wfa_opts o;
    gale_ctx *ctx = NULL;
    wfa_run run;
    progress pg;
    out_file out;
    uint64_t done = 0;
    int rc;

    rc = parse_wfa_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    memset(&run, 0, sizeof run);
    memset(&out, 0, sizeof out);
    run.o = &o;
    run.pg = &pg;
    run.threads = cli_threads(o.com.threads);
    progress_init(&pg, o.com.quiet || ranks_me() > 0); /* the bar and the summary: rank 0's */

    run.out = &out;
    run.collect_sq = o.format == FMT_SAM && ranks_me() == 0;
    rc = run.collect_sq && sq_init(&run.sq) != 0 ? EXIT_FAIL : 0;
    if (ranks_agree(rc) == 0) {
        const stream_ops ops = {.self = &run, .setup = wfa_setup, .fill = wfa_fill, .add_error = wfa_add_error,
                                .write = wfa_write, .dest = &run.dest, .destname = &run.destname,
                                .progress = wfa_progress};
        rc = stream_run(&ops, &ctx, &pg, &done);
    } else {
        rc = EXIT_FAIL;
    }

    if (rc == 0 && run.opened)
        rc = pair_close(&run.rd, 1);
    /* every rank read its input to the end before -o FILE is written */
    rc = ranks_agree(rc);
    if (rc == 0 && run.body)
        rc = sam_finish(&run.sq, run.body, &out, argc, argv);
    rc = out_close(&out, rc);
    rc = ranks_totals(rc, &run.totals);

    if (rc == 0) {
        run.totals.pairs = done;
        print_summary(&pg, "wfa", ctx, &run.totals, "wavefront");
    }

    if (run.opened)
        pair_close(&run.rd, 0);
    if (run.body)
        fclose(run.body);
    rc = stream_release(ctx, rc);
    run_free(&run);
    return rc;
}
