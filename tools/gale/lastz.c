/*
 * gale lastz TARGET QUERY --segments=FILE [options]: LASTZ 1.04.22's gapped stage from
 * anchors (gale_lastz_extend), writing what `lastz TARGET QUERY --segments=FILE` writes
 * with the same options. See doc/cli.md ("gale lastz") for what is covered so far:
 * FASTA, FASTQ, 2bit and nib input (one target record, any number of query records), both strands,
 * LASTZ's scoring (--scores) and gapped options, and the formats lav (the default), general[-][:fields],
 * cigar, axt, maf[-], [soft]sam[-], rdotplot and segments.
 *
 * This file: the help, the options and the run; lastz_seqfile.c, lastz_segments.c,
 * lastz_actions.c and lastz_scores.c read the inputs, lastz_jobs.c runs the query strands'
 * extensions and writes them in order through lastz_format.c's formats (lastz_int.h
 * between them).
 */
#define _POSIX_C_SOURCE 200809L /* getline, ssize_t */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "lastz_int.h"
#include "threads.h"
#include "options.h"
#include "subcommands.h"

void usage_lastz(FILE *out)
{
    fprintf(out,
        "Usage: gale lastz TARGET QUERY [--segments=FILE] [options]\n"
        "\n"
        "LASTZ 1.04.22 with lastz's output: replaces 'lastz TARGET QUERY --segments=FILE'\n"
        "(the gapped stage from anchors, e.g. after KegAlign/SegAlign seeding), and\n"
        "without --segments 'lastz TARGET QUERY' (seeding, gap-free and gapped stages;\n"
        "--nogapped: without the gapped stage).\n"
        "TARGET: FASTA, FASTQ, 2bit or nib, one record (several with [multiple]); QUERY:\n"
        "the same, one or more records (FILE.2bit/NAME: the record NAME). SEGMENTS: lines\n"
        "'name1 start1 end1 name2 start2 end2 strand2 [score]' (lastz --format=segments),\n"
        "in the order lastz reads them (query records in file order, + strand first).\n"
        "TARGET and QUERY as lastz's specifiers: [NICK::]FILE[[ACTION,...]] with the\n"
        "actions unmask, nickname=NAME, subset=FILE (or @FILE), subsample=K/N,\n"
        "nameparse=darkspace|alnum|full|tag:MARKER, format=fasta|fastq|2bit|nib, the\n"
        "subranges START..END, START,END, START.., ..END, START#LENGTH, CENTER^LENGTH,\n"
        "START..END+ZOOM%%, softmask=, xmask=, nmask= (also =keep:FILE), on the target\n"
        "multiple and separator=C, on the query revcomp (or FILE-) and multiple (with a\n"
        "one-record target); separator= on the query is refused so far, chores= and\n"
        "quantum as lastz refuses them here. Names are parsed from headers as lastz does.\n"
        "\n"
        "Options (as lastz's):\n"
        "  --segments=FILE          the anchors (--anchors=FILE is the same); without it\n"
        "                           lastz's seeding finds them (doc/lastz-seed.md)\n"
        "  --format=FORMAT          lav (the default, as lastz's), general (default\n"
        "                           fields), general:F1,F2,..., general-[:...], cigar,\n"
        "                           axt, maf, maf-, sam, sam-, softsam, softsam-,\n"
        "                           rdotplot, segments (the anchors, merged, without\n"
        "                           gapped extension: as lastz; without --segments the\n"
        "                           HSPs, as --nogapped); --lav, --axt, --maf, --maf-,\n"
        "                           --cigar, --sam[-], --softsam[-]: the same\n"
        "Seeding (without --segments, as lastz's):\n"
        "  --seed=PATTERN           12of19 (the default), 14of22, match<N> (N in 1-15;\n"
        "                           no transitions unless --transition is given),\n"
        "                           half<N> (N Ts, N in 2-28: purine/pyrimidine only), or\n"
        "                           a pattern of 1 (match), 0 (any) and T (transition)\n"
        "  --transition[=0|1|2]     seed hits with up to 1 (the default) or 2 transitions;\n"
        "                           --notransition: 0\n"
        "  --step=N                 the target's words at every Nth position (1)\n"
        "  --xdrop=N                x-drop of the gap-free extension (10 times A-A: 910)\n"
        "  --hspthresh=N            score threshold of the HSPs (3000); also the gapped\n"
        "                           threshold unless --gappedthresh (K=N the same)\n"
        "  --[no]entropy            scale HSP scores up to 3 x hspthresh by the matched\n"
        "                           bases' entropy (on)\n"
        "  --nogapped, --gapped     stop after the gap-free stage, or not (--gapped)\n"

        "  --scores=FILE            substitution scores (DNA alphabets), gaps and\n"
        "                           thresholds from a LASTZ scoring file (HOXD70)\n"
        "  --match=R[,P]            scores R for a match, -P for a mismatch (P: R), with\n"
        "                           lastz's gaps and thresholds for them; --unitscores: 1,1\n"
        "  --ambiguous=n|iupac[,P] or [,M,P]  N (and with iupac the IUPAC codes, which\n"
        "                           lastz refuses without it) score M against their\n"
        "                           like and -P against A, C, G, T (0, 0)\n"
        "  --gap=OPEN,EXTEND        gap penalties (400,30)\n"
        "  --ydrop=N                y-drop (OPEN + 300 * EXTEND)\n"
        "  --gappedthresh=N         score threshold of the alignments (3000)\n"
        "  --noytrim                do not trim an extension that reaches a sequence end\n"
        "  --allgappedbounds        low-scoring alignments still bound later ones\n"
        "  --notrivial              drop the trivial self-alignment of identical sequences\n"
        "  --strand=both|plus|minus query strands (both)\n"
        "  --output=FILE            write the alignments to FILE (--out=FILE too)\n"
        "  --allocate:traceback=N   LASTZ's traceback memory in bytes (80M; K, M, G by\n"
        "                           1,024, as lastz reads them); 0: unlimited\n"
        "                           (gale only: lastz cuts longer extensions)\n"
        "\n"
        "gale's own (the output does not change with them; doc/ydrop.md):\n"
        "  --backend=B              auto, cpu or cuda (auto: the GPU's when one is usable):\n"
        "                           the one-sided extensions on the GPU, LASTZ's walk on\n"
        "                           the CPU\n"
        "  --threads=N              CPU threads (0: one per core); on the cpu backend one\n"
        "                           thread runs LASTZ's walk alone, more compute the\n"
        "                           extensions in parallel first\n"
        "  --device=N|N,M,...|all   the GPUs (default 0): with several, each wave of\n"
        "                           extensions is dealt out to all of them\n"
        "  --summary                per query strand on stderr: the phases' times and\n"
        "                           where the extensions ran (without --segments, a line\n"
        "                           for the seeding first)\n"
        "\n"
        "general fields: score name1 number1 strand1 size1 start1 zstart1 end1 length1\n"
        "align1 text1 nucs1 name2 number2 strand2 size2 start2 zstart2 end2 start2+\n"
        "zstart2+ end2+ length2 align2 text2 nucs2 nmatch nmismatch npair ncolumn ngap\n"
        "cgap diff cigar cigar- cigarx cigarx- cigarx1 cigarx1- diagonal identity idfrac\n"
        "id%% blastid%% coverage covfrac cov%% continuity confrac con%% gaprate number\n"
        "znumber NA, and LASTZ's aliases (n1 s1 z1 e1 l1 a1 t1 n2 s2 z2 s2+ z2+ e2 e2+\n"
        "l2 a2 t2 d diag s id ident cov con con%% gap), chore, shingle, phash, ahash,\n"
        "qalign1/2 (*), hspid. diffCCCCCC: diff with its own six characters;\n"
        "quals1/2 need FASTQ (refused).\n");
}

/* lastz's names of --allocate:traceback=SIZE (lastz.c: and m=SIZE) */
static int traceback_option(const char *a)
{
    static const char *const names[] = {"--allocate:traceback=", "--alloc:traceback=", "--memory:traceback=",
                                        "--mem:traceback=", "--traceback=", "m="};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strncmp(a, names[k], strlen(names[k])) == 0) return 1;
    return 0;
}

/* Whether LASTZ's gap-free extension can run through a separator (byte 0) of a
 * partitioned sequence against the other sequence's records (other): the masked score of
 * 0 against a byte is the bad score x_score for X and x (new_dna_score_set, --match's
 * set; INT32_MIN for a scoring file's, where row and column 0 are very bad throughout) and
 * the very bad score against every other byte; an extension goes on past the 0 once that
 * score is at least -xdrop. */
static int separator_crossed(const record *other, long n, int32_t xdrop, int32_t x_score)
{
    const int64_t very_bad = 107374182; /* lib/cpu/ydrop_run.h's kVeryBad, negated */
    if ((int64_t)xdrop >= very_bad) return 1;
    if (x_score == INT32_MIN || (int64_t)x_score < -(int64_t)xdrop) return 0;
    for (long k = 0; k < n; k++)
        if (memchr(other[k].seq, 'X', other[k].len) || memchr(other[k].seq, 'x', other[k].len)) return 1;
    return 0;
}

/* --summary's line for the seeding and gap-free stages (gale_lastz_seeder_stats) */
static void seeding_summary(const gale_lastz_seeder *sd)
{
    gale_lastz_seed_stats st;
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    if (gale_lastz_seeder_stats(sd, &st) != GALE_OK) return;
    fprintf(stderr,
            "gale: lastz: seeding: %" PRIu64 " query strands (%" PRIu64 " on the GPU, %" PRIu64
            " found on the CPU for want of its memory), %" PRIu64 " seed hits, %" PRIu64
            " HSPs; %.3f s (strands found at once add up; GPU %.3f s)\n",
            st.finds, st.finds_device, st.finds_device_failed, st.hits, st.hsps, st.seconds, st.device_seconds);
}

/* --seed=<prefix>N or <prefix>(N) (match, half): N into *len, in [lo, hi]; 0, or
 * bad_value's status after its message */
static int seed_word_length(const char *v, const char *prefix, int lo, int hi, int *len)
{
    size_t n = strlen(prefix);
    char extra, why[48];
    if (!((v[n] == '(' && sscanf(v + n + 1, "%d)%c", len, &extra) == 1 && v[strlen(v) - 1] == ')') ||
          sscanf(v + n, "%d%c", len, &extra) == 1)) {
        snprintf(why, sizeof why, "expected %s<LENGTH>", prefix);
        return bad_value(CMD, "--seed", v, why);
    }
    if (*len < lo || *len > hi) {
        snprintf(why, sizeof why, "the word length must be in [%d, %d]", lo, hi);
        return bad_value(CMD, "--seed", v, why);
    }
    return 0;
}

int cmd_lastz(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL}, *segpath = NULL, *format = NULL;
    int npaths = 0, rc = EXIT_FAIL, strands = 3;
    gale_lastz_params p;
    int have_ydrop = 0, have_gap = 0, have_gapped = 0, summary = 0;
    const char *scores_path = NULL; /* --scores=FILE */
    const char *output_path = NULL; /* --output=FILE (else stdout) */
    char target_missing[1024] = "", query_missing[1024] = ""; /* a [subset=] name lastz fails on */
    char no_quals[1100] = ""; /* quals2 asked of a query without qualities */
    int32_t unit_match = 0, unit_mismatch = 0; /* --match=R,P (--unitscores: 1,1); 0: not given */
    lastz_scores sc = {0};
    const char *gapped_opt = NULL; /* the first option of the gapped stage given */
    /* LASTZ's seeding and gap-free stages (without --segments; gale_lastz_seeder_*) */
    gale_lastz_seed_params sp;
    const char *seed_opt = NULL;   /* the first seeding option given */
    char seed_pattern[256] = "";   /* --seed's pattern (empty: 12of19; blanks allowed) */
    int nogapped = 0, have_trans = 0, have_xdrop = 0, have_hsp = 0, have_step = 0;
    out_spec os;
    record *t = NULL, *q = NULL;
    seg_line *segs = NULL;
    long nt = 0, nq = 0, ns = 0, cursor = 0;
    uint64_t *toff = NULL; /* a [multiple] target's record starts on the joined target */
    char *tjoined = NULL;  /* without --segments: a partitioned target's joined bytes, which it seeds */
    size_t tjoined_len = 0;
    uint64_t *qoff = NULL; /* a [multiple] query's record starts on the joined query */
    static seq_spec specs[2];
    gale_ctx *ctx = NULL;
    gale_lastz_seeder *seeder = NULL;
    common_opts co; /* gale's --backend, --threads (lastz's = form) */
    common_opts_init(&co, 0);
    co.device_memory = GALE_DEVICE_MEMORY_HALF_FREE; /* a slot holds a whole extension: LASTZ's 80 MiB of traceback */
    gale_lastz_params_init(&p);
    gale_lastz_seed_params_init(&sp);
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        int64_t v;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage_lastz(stdout);
            return stdout_status();
        } else if (strncmp(a, "--segments=", 11) == 0) {
            segpath = a + 11;
        } else if (strncmp(a, "--anchors=", 10) == 0) { /* lastz's older name of --segments */
            segpath = a + 10;
        } else if (strncmp(a, "--format=", 9) == 0) {
            format = a + 9;
        } else if (strcmp(a, "--lav") == 0 || strcmp(a, "--axt") == 0 || strcmp(a, "--maf") == 0 ||
                   strcmp(a, "--maf-") == 0 || strcmp(a, "--cigar") == 0 || strcmp(a, "--sam") == 0 ||
                   strcmp(a, "--sam-") == 0 || strcmp(a, "--softsam") == 0 || strcmp(a, "--softsam-") == 0) {
            format = a + 2; /* lastz's shortcuts of --format= */
        } else if (strncmp(a, "--gap=", 6) == 0) {
            if (!gapped_opt) gapped_opt = a;
            int o, e, used = 0;
            if (sscanf(a + 6, "%d,%d%n", &o, &e, &used) != 2 || a[6 + used] || o < 0 || e < 0)
                return bad_value(CMD, "--gap", a + 6, "expected OPEN,EXTEND (non-negative)");
            p.gap_open = o;
            p.gap_extend = e;
            have_gap = 1;
        } else if (strncmp(a, "--ydrop=", 8) == 0) {
            if (!gapped_opt) gapped_opt = a;
            if (option_number(CMD, "--ydrop", a + 8, 0, 1 << 28, &v)) return EXIT_USAGE;
            p.ydrop = (int32_t)v;
            have_ydrop = 1;
        } else if (strncmp(a, "--gappedthresh=", 15) == 0) {
            if (!gapped_opt) gapped_opt = a;
            if (option_number(CMD, "--gappedthresh", a + 15, INT32_MIN, INT32_MAX, &v)) return EXIT_USAGE;
            p.gapped_thresh = (int32_t)v;
            have_gapped = 1;
        } else if (strncmp(a, "--scores=", 9) == 0) { /* (lastz takes it with --format=segments too) */
            scores_path = a + 9;
        } else if (strcmp(a, "--unitscores") == 0 || strcmp(a, "--unitscore") == 0) {
            unit_match = 1, unit_mismatch = 1;
        } else if (strncmp(a, "--match=", 8) == 0) {
            /* --match=R[,P] (lastz.c): match R > 0, mismatch -P with P > 0 (default R) */
            char buf[64];
            char *comma;
            if (strlen(a + 8) >= sizeof buf) return bad_value(CMD, "--match", a + 8, "expected MATCH[,MISMATCH]");
            strcpy(buf, a + 8);
            comma = strchr(buf, ',');
            if (comma) *comma++ = 0;
            /* (at most 2^20 each: the library's bound on scores, and -10 P fits an int) */
            if (score_value(buf, &unit_match) || unit_match <= 0 || unit_match > (1 << 20))
                return bad_value(CMD, "--match", a + 8, "the match score must be a number in [1, 2^20]");
            unit_mismatch = unit_match;
            if (comma && (score_value(comma, &unit_mismatch) || unit_mismatch <= 0 || unit_mismatch > (1 << 20)))
                return bad_value(CMD, "--match", a + 8, "the mismatch penalty must be a number in [1, 2^20]");
        } else if (strncmp(a, "--ambiguous", 11) == 0 || strncmp(a, "--ambig=", 8) == 0) {
            /* --ambiguous=n|iupac[,PENALTY] or [,MATCH,PENALTY] (lastz.c; --ambig= the same,
             * --ambiguousn, N and IUPAC in upper case too): the penalty non-negative */
            const char *v = strcmp(a, "--ambiguousn") == 0 ? "n" : strchr(a, '=') ? strchr(a, '=') + 1 : "";
            const int iupac = (strncmp(v, "iupac", 5) == 0 || strncmp(v, "IUPAC", 5) == 0) && (v[5] == 0 || v[5] == ',');
            const int n = (v[0] == 'n' || v[0] == 'N') && (v[1] == 0 || v[1] == ',');
            const char *rest = iupac ? v + 5 : n ? v + 1 : NULL;
            int32_t m = 0, pen = 0;
            if (!rest || (strncmp(a, "--ambiguous", 11) == 0 && a[11] != '=' && strcmp(a, "--ambiguousn") != 0))
                return bad_value(CMD, "--ambiguous", a, "expected --ambiguous=n or iupac, optionally ,PENALTY or ,MATCH,PENALTY");
            if (*rest == ',') {
                char buf[64];
                char *c2;
                if (strlen(rest + 1) >= sizeof buf) return bad_value(CMD, "--ambiguous", a, "too long");
                strcpy(buf, rest + 1);
                c2 = strchr(buf, ',');
                if (c2) *c2++ = 0;
                if (score_value(c2 ? c2 : buf, &pen) || pen > (1 << 20) ||
                    (c2 && (score_value(buf, &m) || m < -(1 << 20) || m > (1 << 20))))
                    return bad_value(CMD, "--ambiguous", a, "the scores must be numbers in [-2^20, 2^20]");
                if (pen < 0) {
                    msg("penalty for --ambiguous=%s must be non-negative", iupac ? "iupac" : "n");
                    return EXIT_FAIL;
                }
            }
            p.flags |= iupac ? GALE_LASTZ_AMBIGUOUS_IUPAC : GALE_LASTZ_AMBIGUOUS_N;
            p.ambi_n_n = m;
            p.ambi_n_other = -pen;
        } else if (strcmp(a, "--nogapped") == 0) {
            nogapped = 1;
        } else if (strcmp(a, "--gapped") == 0) {
            nogapped = 0;
        } else if (strncmp(a, "--seed=", 7) == 0) {
            /* lastz.c: 12of19, 14of22, match<N> or match(N) (N in [1, 15]; no transitions
             * unless --transition is given, before or after), half<N> (N Ts: a half-weight
             * seed), or a pattern */
            const char *v = a + 7;
            int len = 0;
            if (!seed_opt) seed_opt = a;
            if (strcmp(v, "12of19") == 0) strcpy(seed_pattern, "1110100110010101111");
            else if (strcmp(v, "14of22") == 0) strcpy(seed_pattern, "1110101100110010101111");
            else if (strncmp(v, "match", 5) == 0) {
                if (seed_word_length(v, "match", 1, 15, &len)) return EXIT_USAGE;
                memset(seed_pattern, '1', (size_t)len);
                seed_pattern[len] = 0;
                if (!have_trans) {
                    sp.transitions = 0;
                    have_trans = 1;
                }
            } else if (strncmp(v, "half", 4) == 0) { /* half<N> or half(N): N in [2, 31], Ts */
                if (seed_word_length(v, "half", 2, 31, &len)) return EXIT_USAGE;
                memset(seed_pattern, 'T', (size_t)len);
                seed_pattern[len] = 0;
            } else if (strlen(v) >= sizeof seed_pattern) {
                return bad_value(CMD, "--seed", v, "too long a pattern");
            } else {
                strcpy(seed_pattern, v);
            }
        } else if (strcmp(a, "--notransition") == 0 || strcmp(a, "--notrans") == 0 || strcmp(a, "--trans=0") == 0 ||
                   strcmp(a, "--transition=0") == 0) {
            if (!seed_opt) seed_opt = a;
            sp.transitions = 0;
        } else if (strcmp(a, "--transition") == 0 || strcmp(a, "--trans") == 0 || strcmp(a, "--trans=1") == 0 ||
                   strcmp(a, "--transition=1") == 0) {
            if (!seed_opt) seed_opt = a;
            sp.transitions = 1;
            have_trans = 1;
        } else if (strcmp(a, "--transition=2") == 0 || strcmp(a, "--trans=2") == 0 || strcmp(a, "--transitions=2") == 0) {
            if (!seed_opt) seed_opt = a;
            sp.transitions = 2;
            have_trans = 1;
        } else if (strncmp(a, "--step=", 7) == 0) {
            if (!seed_opt) seed_opt = a;
            if (option_number(CMD, "--step", a + 7, 1, UINT32_MAX, &v)) return EXIT_USAGE;
            sp.step = (uint32_t)v;
            have_step = 1;
        } else if (strncmp(a, "--xdrop=", 8) == 0) {
            if (!seed_opt) seed_opt = a;
            if (option_number(CMD, "--xdrop", a + 8, 0, INT32_MAX, &v)) return EXIT_USAGE;
            sp.xdrop = (int32_t)v;
            have_xdrop = 1;
        } else if (strncmp(a, "--hspthresh=", 12) == 0 || strncmp(a, "--hspthreshold=", 15) == 0 ||
                   strncmp(a, "--mspthresh=", 12) == 0 || strncmp(a, "--mspthreshold=", 15) == 0 ||
                   strncmp(a, "K=", 2) == 0) { /* (lastz's other names of it) */
            if (!seed_opt) seed_opt = a;
            if (option_number(CMD, "--hspthresh", strchr(a, '=') + 1, INT32_MIN, INT32_MAX, &v)) return EXIT_USAGE;
            sp.hsp_thresh = (int32_t)v;
            have_hsp = 1;
        } else if (strcmp(a, "--entropy") == 0) {
            if (!seed_opt) seed_opt = a;
            sp.flags &= ~GALE_LASTZ_SEED_NOENTROPY;
        } else if (strcmp(a, "--noentropy") == 0) {
            if (!seed_opt) seed_opt = a;
            sp.flags |= GALE_LASTZ_SEED_NOENTROPY;
        } else if (strcmp(a, "--noytrim") == 0) {
            if (!gapped_opt) gapped_opt = a;
            p.flags |= GALE_LASTZ_NOYTRIM;
        } else if (strcmp(a, "--allgappedbounds") == 0) {
            if (!gapped_opt) gapped_opt = a;
            p.flags |= GALE_LASTZ_ALLBOUNDS;
        } else if (strcmp(a, "--notrivial") == 0) {
            p.flags |= GALE_LASTZ_NOTRIVIAL;
        } else if (traceback_option(a)) {
            /* lastz 1.04.22's sizes (80M, 1.99G: by 1,024, within an int: 2G is refused there);
             * gale also takes 0 (no limit) and sizes from 16 bytes, where lastz wants 100K */
            const char *val = strchr(a, '=') + 1;
            int32_t bytes;
            if (unitized_value(val, 0, &bytes) || bytes < 0)
                return bad_value(CMD, "--allocate:traceback", val, "expected a size below 2G (e.g. 80M, 1.99G), or 0");
            if (bytes != 0 && bytes < 16) return bad_value(CMD, "--allocate:traceback", val, "0 or at least 16 bytes");
            p.traceback_bytes = (uint64_t)bytes;
        } else if (strncmp(a, "--output=", 9) == 0 || strncmp(a, "--out=", 6) == 0) {
            output_path = strchr(a, '=') + 1;
            if (!*output_path) return bad_value(CMD, "--output", output_path, "expected a file name");
        } else if (strncmp(a, "--strand=", 9) == 0) {
            if (strcmp(a + 9, "both") == 0) strands = 3;
            else if (strcmp(a + 9, "plus") == 0) strands = 1;
            else if (strcmp(a + 9, "minus") == 0) strands = 2;
            else return bad_value(CMD, "--strand", a + 9, "expected both, plus or minus");
        } else if (strncmp(a, "--backend=", 10) == 0) {
            if (strcmp(a + 10, "auto") == 0) co.backend = GALE_BACKEND_AUTO;
            else if (strcmp(a + 10, "cpu") == 0) co.backend = GALE_BACKEND_CPU;
            else if (strcmp(a + 10, "cuda") == 0) co.backend = GALE_BACKEND_CUDA;
            else return bad_value(CMD, "--backend", a + 10, "expected auto, cpu or cuda");
        } else if (strncmp(a, "--device=", 9) == 0) {
            const int dr = device_option(CMD, a + 9, &co);
            if (dr != -1) return dr;
        } else if (strcmp(a, "--summary") == 0) {
            summary = 1;
        } else if (strncmp(a, "--threads=", 10) == 0) {
            if (option_number(CMD, "--threads", a + 10, 0, GALE_THREADS_MAX, &v)) return EXIT_USAGE;
            co.threads = v;
        } else if (a[0] == '-' && a[1]) {
            return usage_error(CMD, "unknown or unsupported option '%s'", a);
        } else if (npaths < 2) {
            paths[npaths++] = a;
        } else {
            return usage_error(CMD, "more than two sequence files ('%s')", a);
        }
    }
    if (npaths < 2) return usage_error(CMD, "expected TARGET and QUERY files");
    if (segpath && (seed_opt || nogapped))
        return usage_error(CMD, "'%s' with --segments: the anchors come from the file (gale lastz seeds only without it)",
                           seed_opt ? seed_opt : "--nogapped");
    if (!format) format = "lav"; /* lastz's default */
    {
        const int pf = parse_format(format, &os);
        if (pf == -2) return EXIT_USAGE;
        if (pf) return bad_value(CMD, "--format", format,
                         "expected lav, general[-][:fields], cigar, axt, maf, maf-, sam, sam-, softsam, softsam- or "
                         "rdotplot, segments");
    }
    if (!segpath && os.segments) nogapped = 1; /* (lastz: the HSPs, whatever --gapped says) */
    if (nogapped && gapped_opt)
        return usage_error(CMD, "'%s' with --nogapped: an option of the gapped stage, which --nogapped skips", gapped_opt);
    if (os.segments && gapped_opt)
        return usage_error(CMD, "--format=segments writes the anchors without gapped extension (as lastz does): "
                                "it takes no gapped option ('%s'; lastz: requires --gapped)", gapped_opt);
    for (int k = 0; k < 2; k++)
        if (parse_spec(paths[k], &specs[k])) return EXIT_USAGE;
    if (os.sam >= 3 && specs[1].sub_start)
        /* lastz's print_query_bases then reads before the subrange's buffer (it writes bytes
         * that are not the query's): there is nothing right to reproduce */
        return usage_error(CMD, "--format=%s with a query subrange: lastz writes bytes from outside its sequence "
                                "there; gale lastz refuses it (use sam or sam-)", format);
    os.paths[0] = specs[0].file;
    os.paths[1] = specs[1].file;
    /* [multiple] (sequences.c: the file's records one sequence, each after a separator): on
     * the target, per record as lastz's partition batches are (add_job); lastz refuses lav
     * with it (lastz.c), and what gale does not reproduce yet is refused */
    for (int k = 0; k < 2; k++) {
        /* lastz's own refusals, in its words */
        if (specs[k].chores) {
            msg("can't use [chores] with --segments");
            return EXIT_FAIL;
        }
        if (specs[k].quantum) {
            msg("%s is quantum DNA, but %s scores are not (gale lastz takes scoring files for DNA only)",
                k ? "query" : "target", k ? "column" : "row");
            return EXIT_FAIL;
        }
    }
    if ((specs[0].multiple || specs[0].separator || specs[1].multiple) && os.lav) {
        msg("multiple action cannot be used with --lav\n(lav has requirements on the order of alignments that would "
            "require additional\n computation;  use \"--help=formats\" to see other options for output)");
        return EXIT_FAIL;
    }
    if (specs[1].separator)
        return usage_error(CMD, "%s: the action [separator] on the query is not supported by gale lastz yet (on the "
                           "target it is)", paths[1]);
    if (specs[1].multiple && (specs[0].multiple || specs[0].separator || specs[1].revcomp || specs[1].sub_start ||
                              specs[1].sub_end || os.rdotplot))
        return usage_error(CMD, "%s: [multiple] on the query is supported by gale lastz with a one-record target, "
                           "without [revcomp], a subrange or rdotplot so far", paths[1]);
    if ((specs[0].multiple || specs[0].separator) && (specs[0].sub_start || specs[0].sub_end || os.rdotplot))
        return usage_error(CMD, "%s: [%s] with %s is not supported by gale lastz yet (lastz then counts on the "
                                "records joined)", paths[0], specs[0].multiple ? "multiple" : "separator",
                           os.rdotplot ? "--format=rdotplot" : "a subrange");
    if (specs[0].revcomp) { /* lastz.c: refused after the sequences are read, before any output */
        msg("can't use --segments with reverse-complement of target (%s)", specs[0].file);
        return EXIT_FAIL;
    }
    /* The query's reverse complement ([revcomp], a trailing '-'): lastz 1.04.22 then
     * aligns each record's strands the other way round (its + strand is the file's -) and
     * reports every alignment on the file's strands as before; with --segments what a user
     * sees change is --strand=plus and minus trading places and each record's - strand
     * coming first (its segments, then its alignments). */
    if (specs[1].revcomp) strands = (strands & 1) << 1 | (strands & 2) >> 1;
    /* --scores (lastz.c parse_options): the file's scores and settings, the command
     * line's --gap, --ydrop and --gappedthresh over them; with --segments lastz's gapped
     * threshold defaults to its hsp threshold, the file's when it sets one */
    memcpy(sc.cols, "ACGT", 4); /* (sc zeroed where declared: a failure before here frees its table) */
    memcpy(sc.rows, "ACGT", 4);
    sc.ncols = sc.nrows = 4;
    if (scores_path && unit_match)
        return usage_error(CMD, "can't use --match (or --unitscores) and --scores together (as lastz)");
    if (scores_path) {
        if (read_scores(scores_path, &sc)) return EXIT_USAGE;
        memcpy(p.matrix, sc.matrix, sizeof p.matrix);
        p.x_score = sc.bad;
        p.fill_score = sc.fill;
        p.scores_table = sc.table; /* (the whole table: the file's alphabet may hold N, a c g t) */
        p.flags |= GALE_LASTZ_SCORES_TABLE;
        /* (the seeding's masked set keeps N's row and column where the file labels them) */
        if (memchr(sc.rows, 'N', (size_t)sc.nrows)) p.flags |= GALE_LASTZ_SCORES_N_ROW;
        if (memchr(sc.cols, 'N', (size_t)sc.ncols)) p.flags |= GALE_LASTZ_SCORES_N_COL;
        /* the file's seeding settings (lastz.c parse_options): its step unless --step is
         * given; its seed (seed=, T=: lastz reads it as command-line options unless --seed
         * is given) is not reproduced yet */
        if (!segpath && sc.have_step && !have_step) sp.step = (uint32_t)sc.step;
        if (!segpath && sc.have_seed && !seed_pattern[0]) {
            free(sc.table);
            return usage_error(CMD, "--scores: %s sets the seed (seed= or T=): not supported by gale lastz with "
                                    "seeding yet (give --seed, which lastz then takes instead)", scores_path);
        }
        if (!have_gap) {
            p.gap_open = sc.gap_open;
            p.gap_extend = sc.gap_extend;
        }
        if (p.gap_open < 0 || p.gap_extend < 0) {
            free(sc.table);
            return usage_error(CMD, "--scores: %s: gap penalties %d, %d: gale lastz takes non-negative ones",
                               scores_path, p.gap_open, p.gap_extend);
        }
        if (!have_ydrop && sc.have_y_drop) {
            p.ydrop = sc.y_drop;
            have_ydrop = 1;
        }
        if (!have_gapped && (sc.have_gapped || sc.have_hsp)) p.gapped_thresh = sc.have_gapped ? sc.gapped_thresh : sc.hsp_thresh;
        if (!sc.have_hsp) scores_warning(scores_path, p.matrix);
    }
    /* --match=R,P (lastz.c parse_options, useUnitScores): R on the diagonal and -P off it,
     * X -10P, fill -P, gaps ceil(3.25P) and ceil(0.24375P) unless --gap, hsp (and so the
     * gapped) threshold ceil(30R), x_drop ceil(10 sqrt(P)) and y_drop twice that */
    int32_t unit_hsp = 0, unit_xdrop = 0;
    if (unit_match) {
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) p.matrix[r][c] = r == c ? unit_match : -unit_mismatch;
        p.x_score = (int32_t)(-10.0 * unit_mismatch);
        p.fill_score = (int32_t)(-1.0 * unit_mismatch);
        if (!have_gap) {
            p.gap_open = (int32_t)ceil(3.25 * unit_mismatch);
            p.gap_extend = (int32_t)ceil(0.24375 * unit_mismatch);
        }
        unit_hsp = (int32_t)ceil(30.0 * unit_match);
        unit_xdrop = (int32_t)ceil(10.0 * sqrt((double)unit_mismatch));
        if (!have_gapped) p.gapped_thresh = unit_hsp;
        if (!have_ydrop) {
            p.ydrop = 2 * unit_xdrop;
            have_ydrop = 1;
        }
    }
    if (!have_ydrop) p.ydrop = p.gap_open + 300 * p.gap_extend; /* LASTZ's default */
    /* lav's K, axt's and maf's hsp_threshold (lastz takes no --hspthresh with --segments)
     * and x_drop (10 times the matrix's first score, in the file's order) */
    const int32_t hsp_thresh = unit_match ? unit_hsp : sc.have_hsp ? sc.hsp_thresh : 3000;
    const int32_t x_drop = unit_match       ? unit_xdrop
                           : sc.have_x_drop ? sc.x_drop
                           : sc.table       ? 10 * sc.table[(unsigned char)sc.rows[0] * 256 + (unsigned char)sc.cols[0]]
                                            : 10 * p.matrix[lastz_nuc(sc.rows[0])][lastz_nuc(sc.cols[0])];
    if (!have_xdrop) sp.xdrop = x_drop;
    if (!have_hsp) sp.hsp_thresh = hsp_thresh;
    /* without --segments the thresholds and drop are the seeding's (the job headers show
     * them), and the gapped threshold defaults to the hsp threshold (lastz.c), unless a
     * scoring file sets it */
    const int32_t shown_hsp = segpath ? hsp_thresh : sp.hsp_thresh, shown_xdrop = segpath ? x_drop : sp.xdrop;
    if (!segpath && !have_gapped && !(scores_path && sc.have_gapped)) p.gapped_thresh = sp.hsp_thresh;
    if (seed_pattern[0]) sp.seed = seed_pattern;
    /* lastz.c: a half-weight seed (Ts and 0s, no 1) takes no transitions unless --transition
     * is given (the library then refuses it, as lastz does) */
    if (seed_pattern[0] && !strchr(seed_pattern, '1') && !have_trans) sp.transitions = 0;

    for (int k = 0; k < 2; k++) {
        /* a subset's names first: of a 2bit file only those records are decoded */
        name_set wanted;
        long got;
        if (specs[k].subset && read_subset_names(specs[k].subset, &wanted) < 0) goto done;
        got = read_sequences(specs[k].file, specs[k].format, specs[k].contig, specs[k].subset ? &wanted : NULL, k ? &q : &t);
        if (specs[k].subset) free_name_set(&wanted);
        if (got < 0) goto done;
        if (got == 0 && !specs[k].subset) { /* (lastz's words; a subset's misses are said below) */
            msg("%s file %s contains no sequence", k ? "query" : "target", specs[k].file);
            goto done;
        }
        *(k ? &nq : &nt) = got;
    }
    if (segpath && (ns = read_segments(segpath, &segs)) < 0) goto done;
    if (specs[0].contig) {
        if (keep_contig(specs[0].file, specs[0].contig, t, nt) < 0) goto done;
        nt = 1;
    }
    if (specs[1].contig) {
        if (keep_contig(specs[1].file, specs[1].contig, q, nq) < 0) goto done;
        nq = 1;
    }
    for (int k = 0; k < 2; k++)
        if (specs[k].name_tag && (k ? nq : nt) > 0 && (k ? q : t)[0].format != SEQ_FASTA &&
            (k ? q : t)[0].format != SEQ_FASTQ) {
            msg("\"nameparse=tag:%s\" only valid for fasta, fastq or csfasta files", specs[k].name_tag);
            goto done;
        }
    for (int k = 0; k < 2; k++)
        if ((k ? nq : nt) > 0 && (k ? q : t)[0].format == SEQ_NIB && (specs[k].nameparse == 1 || specs[k].nameparse == 2)) {
            msg("\"nameparse=%s\" only valid for fasta, fastq, csfasta or 2bit files (%s is a nib file)",
                specs[k].nameparse == 1 ? "darkspace" : "alphanum", specs[k].file);
            goto done;
        }
    apply_names(&specs[0], t, nt);
    apply_names(&specs[1], q, nq);
    for (int k = 0; k < 2; k++)
        if (specs[k].subset) {
            char *missing = k ? query_missing : target_missing;
            const long kept = apply_subset(specs[k].subset, specs[k].file, k ? q : t, k ? nq : nt, missing, sizeof target_missing);
            if (kept < 0) goto done; /* (all the records still there to free) */
            *(k ? &nq : &nt) = kept;
            /* lastz reads the target whole, and the query record by record: a name it fails on
             * stops it before any output, or after the query records found before it */
            if (missing[0] && (k == 0 || kept == 0)) {
                msg("%s", missing);
                goto done;
            }
        }
    /* (subsampling counts the records the subset left, as lastz skips them) */
    nt = apply_subsample(&specs[0], t, nt);
    nq = apply_subsample(&specs[1], q, nq);
    if (check_bases(specs[0].file, t, nt, (p.flags & GALE_LASTZ_AMBIGUOUS_IUPAC) != 0, specs[0].separator) ||
        check_bases(specs[1].file, q, nq, (p.flags & GALE_LASTZ_AMBIGUOUS_IUPAC) != 0, 0))
        goto done;
    if (apply_spec(&specs[0], t, nt) || apply_spec(&specs[1], q, nq)) goto done;
    if (nt > 0 && nq > 0) {
        /* the qualities the general fields need (lastz checks as it loads each sequence) */
        const char *field = quals_field_missing(&os, &t[0], &q[0]);
        if (field) {
            snprintf(no_quals, sizeof no_quals, "%s has no base-call qualities (required for --format=general:%s)",
                     strcmp(field, "quals1") == 0 ? specs[0].file : specs[1].file, field);
            if (strcmp(field, "quals1") == 0) { /* (the target's: before any output; the query's after the header) */
                msg("%s", no_quals);
                goto done;
            }
        }
        if (qalign1_unset(&os, &t[0])) {
            msg("--format=general:qalign1 with a FASTQ target: lastz writes bytes it never set against the "
                "target's gaps there; gale lastz refuses it (qalign2 and quals1 it writes)");
            goto done;
        }
    }
    if (nt != 1 && !specs[0].multiple) {
        msg("%s: %ld records; the target must have exactly one, or the action [multiple] (as lastz requires)", paths[0], nt);
        goto done;
    }
    if (specs[0].multiple || specs[0].separator) {
        /* a partitioned target (sequences.c): its records one sequence, a separator byte 0 at
         * 0 and after each record, a [separator=C] record's Cs turned into 0s in place. Each
         * record's (or separator piece's) start on it (toff), where lastz's merge_segments
         * sees the diagonals; without --segments the joined bytes themselves (tjoined), which
         * lastz seeds as one sequence */
        if (partition_target(&t, &nt, specs[0].separator, !segpath, &toff, &tjoined, &tjoined_len) < 0) goto done;
    }
    if (specs[1].multiple && nq > 0) {
        /* each query record's start on the joined query (a separator at 0 and after each;
         * lastz reverses each record in place for the - strand, so the starts hold there) */
        uint64_t base = 1;
        if (!(qoff = malloc((size_t)nq * sizeof *qoff))) {
            msg("out of memory");
            goto done;
        }
        for (long k = 0; k < nq; k++) {
            qoff[k] = base;
            base += q[k].true_len + 1;
        }
    }
    if (!segpath && (tjoined || specs[1].multiple) &&
        separator_crossed(tjoined ? q : t, tjoined ? nq : nt, sp.xdrop,
                          scores_path ? INT32_MIN : p.x_score)) {
        msg("%s: with --xdrop=%d lastz's gap-free extension can cross the separators between the %s's records "
            "(byte 0 scores the X score against X and x, which the %s holds, or --xdrop passes its very bad "
            "score) and report an HSP past its record's end; gale lastz does not reproduce that",
            paths[tjoined ? 0 : 1], sp.xdrop, tjoined ? "target" : "query", tjoined ? "query" : "target");
        goto done;
    }
    for (long k = 0; k < ns; k++)
        if (!(strands & (segs[k].strand == '+' ? 1 : 2))) {
            /* lastz stops there too ("extra segments in file") */
            msg("%s line %ld: the segment is on the %c strand, which --strand excludes", segpath, segs[k].line, segs[k].strand);
            goto done;
        }
    {
        const int sc = start_context(CMD, &co, &ctx);
        if (sc != EXIT_OK) {
            rc = sc;
            goto done;
        }
    }
    /* without --segments: the target's seed words, once (its options checked there, before
     * any output) */
    if (!segpath && gale_lastz_seeder_create(ctx, tjoined ? tjoined : t[0].seq,
                                             (int64_t)(tjoined ? tjoined_len : t[0].len), &p, &sp, &seeder) != GALE_OK) {
        msg("%s", gale_last_error());
        goto done;
    }
    /* without --segments: the anchors from LASTZ's seeding, as the lines its --nogapped
     * would write (before any output: a failure there leaves the output as it was) */
    if (!segpath && !nogapped && (ns = seed_segments(seeder, t, nt, tjoined ? toff : NULL, q, nq, specs[1].multiple,
                                                     strands, specs[1].revcomp, &segs)) < 0)
        goto done;
    if (!segpath && !nogapped && summary) seeding_summary(seeder);
    /* --output: opened once the inputs have been read and checked (lastz opens it before
     * reading them: a bad input there leaves an empty file, here the file as it was) */
    if (output_path && !freopen(output_path, "w", stdout)) {
        msg("%s: %s", output_path, strerror(errno));
        goto done;
    }
    if (os.maf == 1) printf("##maf version=1 scoring=gale.v%s\n", gale_version_string());
    if (os.axt || os.maf == 1) {
        /* axt's and maf's job header (axt.c print_axt_job_header, maf.c): the program and its option arguments
         * (lastz names itself here: gale writes its own name), the thresholds, drops and scores.
         * With --segments lastz takes no --hspthresh or --xdrop: they show their defaults
         * (3000; 10 times the A-A score). */
        printf("# gale.v%s", gale_version_string());
        for (int k = 1; k < argc; k++)
            if (argv[k][0] == '-') printf(" %s", argv[k]);
        printf(" ");
        printf("\n#\n# hsp_threshold      = %d\n# gapped_threshold   = %d\n# x_drop             = %d\n"
               "# y_drop             = %d\n# gap_open_penalty   = %d\n# gap_extend_penalty = %d\n",
               shown_hsp, p.gapped_thresh, shown_xdrop, p.ydrop, p.gap_open, p.gap_extend);
        print_matrix(&p, &sc, "# ", 1);
    }
    if (os.lav) {
        /* lav's d stanza (lav.c print_lav_job_header): program, files and options (lastz names
         * itself: gale writes its own name), the matrix, gaps and thresholds (K: lastz's
         * --hspthresh, 3000 with --segments; M: dynamic masking, 0) */
        printf("#:lav\nd {\n  \"gale.v%s %s %s ", gale_version_string(), specs[0].file, specs[1].file);
        for (int k = 1; k < argc; k++)
            if (argv[k][0] == '-' && argv[k][1]) printf("%s ", argv[k]);
        printf("\n");
        print_matrix(&p, &sc, "", 0);
        printf("  O = %d, E = %d, K = %d, L = %d, M = 0\"\n}\n", p.gap_open, p.gap_extend, shown_hsp, p.gapped_thresh);
    }
    if (os.sam == 1 || os.sam == 3) printf("@HD\tVN:1.0\tSO:unsorted\n");
    if (os.header) {
        print_general_header(stdout, &os);
    }
    if (no_quals[0]) {
        fflush(stdout);
        msg("%s", no_quals);
        goto done;
    }
    /* The segments file's runs as jobs, in output order (each query record, its strands in
     * lastz's order); the first bad line stops the list there: what comes before it is
     * aligned and written, then the message (lastz dies at that point too) */
    if (nogapped) { /* the HSPs of LASTZ's seeding and gap-free stages */
        if (write_hsps_in_order(seeder, t, nt, tjoined ? toff : NULL, q, nq, specs[1].multiple, strands,
                                specs[1].revcomp, &os) < 0)
            goto done;
        if (summary) seeding_summary(seeder);
    } else {
        job_list jl;
        char stop[1024] = "";
        memset(&jl, 0, sizeof jl);
        /* (a [multiple] query: one job a strand, its records' anchors read as one run, as
         * lastz reads them for its partitioned query: all + strand lines, then all - ones) */
        const long jobs_r = specs[1].multiple ? 1 : nq;
        os.notrivial = (p.flags & GALE_LASTZ_NOTRIVIAL) != 0;
        for (long r = 0; r < jobs_r && !stop[0]; r++) {
            for (int pass = 0; pass < 2 && !stop[0]; pass++) {
                const int s = specs[1].revcomp ? 1 - pass : pass;
                if (!(strands & (1 << s))) continue;
                if (add_job(&jl, specs[1].multiple ? -1 : r, s, t, nt, specs[0].multiple || specs[0].separator, nt > 1 ? toff : NULL, q,
                            nq, qoff, segs, ns, &cursor, os.segments, segpath ? segpath : "(gale lastz's seeding)",
                            stop, sizeof stop) < 0) {
                    msg("out of memory");
                    free_jobs(&jl);
                    goto done;
                }
            }
        }
        if (!stop[0] && query_missing[0]) /* (lastz looks for the next query record first) */
            snprintf(stop, sizeof stop, "%s", query_missing);
        if (!stop[0] && cursor < ns)
            /* lastz: "extra segments in file" (after writing what came before, as gale has) */
            snprintf(stop, sizeof stop,
                     "%s line %ld: segment for %s%c out of order: segments must appear in the order of the query "
                     "file's records, each record's + strand segments before its - strand ones (as lastz requires)",
                     segpath, segs[cursor].line, segs[cursor].name2, segs[cursor].strand);
        {
            /* jobs run at once on up to --threads threads (each its own LASTZ walk, and its
             * phase 1 on the context's GPU or threads) */
            const int ok = run_jobs_in_order(&jl, ctx, &p, t, nt, q, &os,
                                             os.segments ? 1 : (co.threads == 1 ? 1 : cli_threads(co.threads)),
                                             summary) == 0;
            free_jobs(&jl);
            if (!ok) goto done;
        }
        if (stop[0]) {
            fflush(stdout);
            msg("%s", stop);
            goto done;
        }
    }
    if (os.lav) printf("m {\n  n 0\n}\n#:eof\n"); /* print_m_stanza (no census), the job footer */
    rc = stdout_status();
done:
    gale_lastz_seeder_free(seeder);
    gale_ctx_destroy(ctx);
    free(sc.table);
    free_records(t, nt);
    free_records(q, nq);
    free_seg_lines(segs, ns);
    free(toff);
    free(tjoined);
    free(qoff);
    return rc;
}
