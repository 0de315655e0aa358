/*
 * gale lastz TARGET QUERY --segments=FILE [options]: LASTZ 1.04.22's gapped stage from
 * anchors (gale_lastz_extend), writing what `lastz TARGET QUERY --segments=FILE` writes
 * with the same options. See doc/cli.md ("gale lastz") for what is covered so far:
 * FASTA input (one target record, any number of query records), both strands, LASTZ's
 * scoring and gapped options, and the formats lav (the default), general[-][:fields],
 * cigar, axt, maf[-], [soft]sam[-], rdotplot and segments.
 */
#define _POSIX_C_SOURCE 200809L /* getline, ssize_t */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "options.h"
#include "subcommands.h"

#define CMD "lastz"

void usage_lastz(FILE *out)
{
    fprintf(out,
        "Usage: gale lastz TARGET QUERY --segments=FILE [options]\n"
        "\n"
        "LASTZ 1.04.22's gapped extension from anchors, with lastz's output: replaces\n"
        "'lastz TARGET QUERY --segments=FILE' (e.g. after KegAlign/SegAlign seeding).\n"
        "TARGET: FASTA, one record; QUERY: FASTA, one or more records. SEGMENTS: lines\n"
        "'name1 start1 end1 name2 start2 end2 strand2 [score]' (lastz --format=segments),\n"
        "in the order lastz reads them (query records in file order, + strand first).\n"
        "TARGET and QUERY as lastz's specifiers: [NICK::]FILE[[ACTION,...]] with the\n"
        "actions unmask, nickname=NAME, subset=FILE (or @FILE), nameparse=darkspace|\n"
        "alnum|full, format=fasta and the subranges START..END, START,END, START..,\n"
        "..END, START#LENGTH; lastz's other actions (multiple, revcomp, other subrange\n"
        "forms, ...) are refused so far. Names are parsed from headers as lastz does.\n"
        "\n"
        "Options (as lastz's):\n"
        "  --segments=FILE          the anchors (required; --anchors=FILE is the same)\n"
        "  --format=FORMAT          lav (the default, as lastz's), general (default\n"
        "                           fields), general:F1,F2,..., general-[:...], cigar,\n"
        "                           axt, maf, maf-, sam, sam-, softsam, softsam-,\n"
        "                           rdotplot, segments (the anchors, merged, without\n"
        "                           gapped extension: as lastz)\n"

        "  --gap=OPEN,EXTEND        gap penalties (400,30)\n"
        "  --ydrop=N                y-drop (OPEN + 300 * EXTEND)\n"
        "  --gappedthresh=N         score threshold of the alignments (3000)\n"
        "  --noytrim                do not trim an extension that reaches a sequence end\n"
        "  --allgappedbounds        low-scoring alignments still bound later ones\n"
        "  --notrivial              drop the trivial self-alignment of identical sequences\n"
        "  --strand=both|plus|minus query strands (both)\n"
        "  --allocate:traceback=N   LASTZ's traceback memory in bytes (80M); 0: unlimited\n"
        "                           (gale only: lastz cuts longer extensions)\n"
        "\n"
        "general fields: score name1 number1 strand1 size1 start1 zstart1 end1 length1\n"
        "align1 text1 nucs1 name2 number2 strand2 size2 start2 zstart2 end2 start2+\n"
        "zstart2+ end2+ length2 align2 text2 nucs2 nmatch nmismatch npair ncolumn ngap\n"
        "cgap diff cigar cigar- diagonal identity idfrac id%% blastid%% coverage covfrac\n"
        "cov%% continuity confrac con%% gaprate number znumber NA, and LASTZ's aliases\n"
        "(n1 s1 z1 e1 l1 a1 t1 n2 s2 z2 s2+ z2+ e2 e2+ l2 a2 t2 d diag s id ident cov\n"
        "con con%% gap). Not yet: qalign1/2, quals1/2, cigarx[1][-], shingle, chore,\n"
        "diff=CHARS.\n");
}

typedef struct {
    char *name;
    char *header; /* the whole header line, '>' included (lav's h stanza) */
    char *seq;
    size_t len;
    long contig; /* the record's number in its file, from 1 (LASTZ's contig) */
    size_t start_loc; /* a subrange's start on the record, from 1 (1: none; LASTZ's startLoc) */
    size_t true_len;  /* the record's whole length (LASTZ's trueLen); len is the subrange's */
} record;

typedef struct {
    char *name1, *name2;
    uint32_t start1, end1, start2, end2;
    char strand;
    int32_t score;
    long line; /* in the segments file */
} seg_line;

static char *xstrdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d) strcpy(d, s);
    return d;
}

/* Reads every record of a FASTA file; returns the number, or -1 (message said). */
static long read_fasta(const char *path, record **out)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, n = 0, rcap = 0, scap = 0;
    ssize_t len;
    long lineno = 0;
    record *recs = NULL;
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        return -1;
    }
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (line[0] == '>') {
            char *p = line + 1, *e;
            if (n == rcap) {
                rcap = rcap ? 2 * rcap : 4;
                recs = realloc(recs, rcap * sizeof *recs);
            }
            while (*p && isspace((unsigned char)*p)) p++;
            {
                size_t hl = strlen(line);
                while (hl > 0 && isspace((unsigned char)line[hl - 1])) line[--hl] = 0;
            }
            recs[n].header = xstrdup(line);
            e = p;
            while (*e && !isspace((unsigned char)*e)) e++;
            *e = 0;
            recs[n].name = xstrdup(p);
            recs[n].seq = NULL;
            recs[n].len = 0;
            recs[n].contig = (long)n + 1;
            recs[n].start_loc = 1;
            scap = 0;
            n++;
            continue;
        }
        if (n == 0) {
            if (len == 0) continue;
            msg("%s line %ld: sequence before the first '>' header", path, lineno);
            fclose(f);
            free(line);
            return -1;
        }
        for (ssize_t k = 0; k < len; k++) {
            unsigned char c = (unsigned char)line[k];
            if (isspace(c)) continue;
            if (!isalpha(c)) {
                msg("%s line %ld: byte 0x%02x is not a sequence letter", path, lineno, c);
                fclose(f);
                free(line);
                return -1;
            }
            if (recs[n - 1].len + 1 >= scap) {
                scap = scap ? 2 * scap : 4096;
                recs[n - 1].seq = realloc(recs[n - 1].seq, scap);
            }
            recs[n - 1].seq[recs[n - 1].len++] = (char)c;
        }
    }
    fclose(f);
    free(line);
    for (size_t k = 0; k < n; k++) recs[k].true_len = recs[k].len;
    *out = recs;
    return (long)n;
}

static char complement(char c)
{
    switch (c) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    case 'a': return 't';
    case 'c': return 'g';
    case 'g': return 'c';
    case 't': return 'a';
    default: return c;
    }
}

/* Reads the segments file as LASTZ's read_segment_table does (comments after '#', blank
 * lines skipped, 7 or 8 fields, 1-based inclusive intervals of equal length). */
static long read_segments(const char *path, seg_line **out)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, n = 0, scap = 0;
    long lineno = 0;
    seg_line *segs = NULL;
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        return -1;
    }
    while (getline(&line, &cap, f) >= 0) {
        char n1[1024], n2[1024], strand[8], extra[8];
        long long s1, e1, s2, e2, sc = 0;
        int k;
        char *hash = strchr(line, '#');
        lineno++;
        if (hash) *hash = 0;
        k = sscanf(line, "%1023s %lld %lld %1023s %lld %lld %7s %lld %7s", n1, &s1, &e1, n2, &s2, &e2, strand, &sc,
                   extra);
        if (k <= 0) continue;
        if (k < 7 || k > 8 || (strand[0] != '+' && strand[0] != '-') || strand[1] || s1 < 1 || s2 < 1 || e1 < s1 ||
            e2 < s2 || e1 - s1 != e2 - s2 || e1 > UINT32_MAX || e2 > UINT32_MAX) {
            msg("%s line %ld: not a segment 'name1 start1 end1 name2 start2 end2 strand2 [score]' with 1-based "
                "intervals of equal length",
                path, lineno);
            fclose(f);
            free(line);
            return -1;
        }
        if (n == scap) {
            scap = scap ? 2 * scap : 1024;
            segs = realloc(segs, scap * sizeof *segs);
        }
        segs[n].name1 = xstrdup(n1);
        segs[n].name2 = xstrdup(n2);
        segs[n].start1 = (uint32_t)s1;
        segs[n].end1 = (uint32_t)e1;
        segs[n].start2 = (uint32_t)s2;
        segs[n].end2 = (uint32_t)e2;
        segs[n].strand = strand[0];
        segs[n].score = (int32_t)sc;
        segs[n].line = lineno;
        n++;
    }
    fclose(f);
    free(line);
    *out = segs;
    return (long)n;
}

/* general fields */
enum { F_SCORE, F_NAME1, F_STRAND1, F_SIZE1, F_START1, F_ZSTART1, F_END1, F_NAME2, F_STRAND2, F_SIZE2, F_START2,
       F_ZSTART2, F_END2, F_START2P, F_ZSTART2P, F_END2P, F_IDENTITY, F_IDFRAC, F_IDPCT, F_COVERAGE, F_COVFRAC,
       F_COVPCT, F_CIGAR, F_NUMBER1, F_NUMBER2, F_LENGTH1, F_LENGTH2, F_ALIGN1, F_TEXT1, F_ALIGN2, F_TEXT2, F_NMATCH,
       F_NMISMATCH, F_NPAIR, F_NCOLUMN, F_NGAP, F_CGAP, F_DIFF, F_CIGARL, F_DIAGONAL, F_BLASTID, F_CONTINUITY,
       F_CONFRAC, F_CONPCT, F_GAPRATE, F_NUCS1, F_NUCS2, F_NUMBER, F_ZNUMBER, F_NA, F_N };
/* LASTZ's field names (genpaf.h genpafName), then its aliases (genpafAliases) */
static const char *const field_names[F_N] = {
    "score", "name1", "strand1", "size1", "start1", "zstart1", "end1", "name2", "strand2", "size2", "start2",
    "zstart2", "end2", "start2+", "zstart2+", "end2+", "identity", "idfrac", "id%", "coverage", "covfrac", "cov%",
    "cigar", "number1", "number2", "length1", "length2", "align1", "text1", "align2", "text2", "nmatch", "nmismatch",
    "npair", "ncolumn", "ngap", "cgap", "diff", "cigar-", "diagonal", "blastid%", "continuity", "confrac", "con%",
    "gaprate", "nucs1", "nucs2", "number", "znumber", "NA"};
static const struct { const char *alias; int field; } field_aliases[] = {
    {"n1", F_NAME1}, {"s1", F_START1}, {"z1", F_ZSTART1}, {"e1", F_END1}, {"l1", F_LENGTH1}, {"a1", F_ALIGN1},
    {"t1", F_TEXT1}, {"n2", F_NAME2}, {"s2", F_START2}, {"z2", F_ZSTART2}, {"s2+", F_START2P}, {"z2+", F_ZSTART2P},
    {"e2", F_END2}, {"e2+", F_END2P}, {"l2", F_LENGTH2}, {"a2", F_ALIGN2}, {"t2", F_TEXT2}, {"d", F_DIAGONAL},
    {"diag", F_DIAGONAL}, {"s", F_SCORE}, {"id", F_IDENTITY}, {"ident", F_IDENTITY}, {"cov", F_COVERAGE},
    {"con", F_CONTINUITY}, {"con%", F_CONPCT}, {"gap", F_GAPRATE}};
/* LASTZ's fields gale does not write (yet): named in the refusal */
static const char *const fields_not_written[] = {"qalign1", "qalign2", "cigarx", "cigarx-", "cigarx1", "cigarx1-",
                                                 "shingle", "quals1", "quals2", "chore", "hspid", "phash", "ahash"};
/* the header names LASTZ writes for them (genpaf.c print_genpaf_job_header; identity,
 * coverage, continuity and gaprate take two columns, NA none) */
static const char *const field_headers[F_N] = {
    "score", "name1", "strand1", "size1", "start1", "zstart1", "end1", "name2", "strand2", "size2", "start2",
    "zstart2", "end2", "start2+", "zstart2+", "end2+", "identity\tidPct", "idfrac", "id%", "coverage\tcovPct",
    "covfrac", "cov%", "cigar", "number1", "number2", "length1", "length2", "align1", "text1", "align2", "text2",
    "nmatch", "nmismatch", "npair", "ncolumn", "ngap", "cgap", "diff", "cigar-", "diagonal", "blastid%",
    "continuity\tconPct", "confrac", "con%", "gaprate\tgapPct", "nucs1", "nucs2", "number", "znumber", ""};

static int nuc_bits(char c)
{
    switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': return 3;
    default: return -1;
    }
}

/* align1/text1 (row 0) and align2/text2 (row 1): the gapped row (genpaf.c; dna_toprint) */
static void print_row(FILE *out, const record *t, const char *qs, const gale_lastz_alignment *a, int row)
{
    const char *p1 = t->seq + a->beg1 - 1, *p2 = qs + a->beg2 - 1;
    for (uint32_t k = 0; k < a->n_ops; k++) {
        const uint32_t op = GALE_CIGAR_OP(a->cigar[k]), len = GALE_CIGAR_LEN(a->cigar[k]);
        for (uint32_t j = 0; j < len; j++) {
            char c;
            if (op == GALE_CIGAR_MATCH) c = row == 0 ? p1[j] : p2[j];
            else if (op == GALE_CIGAR_INS) c = row == 0 ? '-' : p2[j];
            else c = row == 0 ? p1[j] : '-';
            fputc(c >= 0x20 && c <= 0x7e ? c : '*', out);
        }
        if (op != GALE_CIGAR_INS) p1 += len;
        if (op != GALE_CIGAR_DEL) p2 += len;
    }
}

/* diff (genpaf.c diff_char, default characters .:x--X) */
static void print_diff(FILE *out, const record *t, const char *qs, const gale_lastz_alignment *a)
{
    const char *p1 = t->seq + a->beg1 - 1, *p2 = qs + a->beg2 - 1;
    for (uint32_t k = 0; k < a->n_ops; k++) {
        const uint32_t op = GALE_CIGAR_OP(a->cigar[k]), len = GALE_CIGAR_LEN(a->cigar[k]);
        for (uint32_t j = 0; j < len; j++) {
            if (op == GALE_CIGAR_MATCH) {
                const int b1 = nuc_bits(p1[j]), b2 = nuc_bits(p2[j]);
                /* A G purines (0, 2), C T pyrimidines (1, 3) */
                fputc(b1 < 0 || b2 < 0 ? 'X' : b1 == b2 ? '.' : (b1 & 1) == (b2 & 1) ? ':' : 'x', out);
            } else {
                fputc('-', out);
            }
        }
        if (op != GALE_CIGAR_INS) p1 += len;
        if (op != GALE_CIGAR_DEL) p2 += len;
    }
}

typedef struct {
    int fields[256];
    int n_fields;
    int header;
    int cigar_format;
    int axt;            /* --format=axt */
    int maf;            /* --format=maf (2: maf-, without the job header) */
    int lav;            /* --format=lav (lastz's default) */
    int sam;            /* 1 sam, 2 sam-, 3 softsam, 4 softsam- */
    int rdotplot;       /* --format=rdotplot */
    int segments;       /* --format=segments: the anchors, merged, without gapped extension */
    uint64_t number;    /* axt's alignment number */
    uint64_t gen_number; /* general's alignment number (number, znumber) */
    const char *paths[2]; /* the TARGET and QUERY files as given (lav's s stanza) */
    long contig;        /* the query record's number, from 1 (lav's s stanza) */
    int strand_header;  /* this query strand's header written (lav) */
    const char *prev1, *prev2; /* rdotplot: the names of the last name line */
    int sq_done;        /* sam: the @SQ line written */
} out_spec;

/* lav (lav.c print_lav_header): once per query strand, before its first alignment */
static void lav_strand_header(FILE *out, const out_spec *os, const record *t, const record *q, char strand)
{
    fprintf(out, "#:lav\ns {\n  \"%s\" %zu %zu 0 %ld\n  \"%s%s\" %zu %zu %d %ld\n}\n", os->paths[0], t->start_loc,
            t->start_loc + t->len - 1, t->contig, os->paths[1], strand == '-' ? "-" : "", q->start_loc,
            q->start_loc + q->len - 1, strand == '-', os->contig);
    fprintf(out, "h {\n   \"%s\"\n   \"%s%s\"\n}\n", t->header, q->header,
            strand == '-' ? " (reverse complement)" : "");
}

static int same_base(char a, char b) { return toupper((unsigned char)a) == toupper((unsigned char)b); }

/* lav's a stanza (lav.c print_lav_align): one l line per run of substitutions, also the
 * empty runs between two gaps (edit_script_run_of_subs_match, then one gap op) */
static void write_lav(FILE *out, const record *t, const char *qs, const gale_lastz_alignment *a)
{
    uint32_t i = 0, j = 0, k = 0;
    const uint32_t height = a->end1 - a->beg1 + 1, width = a->end2 - a->beg2 + 1;
    fprintf(out, "a {\n  s %d\n  b %u %u\n  e %u %u\n", a->score, a->beg1, a->beg2, a->end1, a->end2);
    while (i < height || j < width) {
        const uint32_t pi = i, pj = j;
        uint32_t run = 0, match = 0;
        while (k < a->n_ops && GALE_CIGAR_OP(a->cigar[k]) == GALE_CIGAR_MATCH) {
            const uint32_t len = GALE_CIGAR_LEN(a->cigar[k++]);
            for (uint32_t x = 0; x < len; x++)
                match += same_base(t->seq[a->beg1 - 1 + i + run + x], qs[a->beg2 - 1 + j + run + x]);
            run += len;
        }
        i += run;
        j += run;
        fprintf(out, "  l %u %u %u %u %d\n", a->beg1 + pi, a->beg2 + pj, a->beg1 + i - 1, a->beg2 + j - 1,
                run ? (int)((200 * (uint64_t)match + run) / (2 * (uint64_t)run)) : 0);
        if ((i < height || j < width) && k < a->n_ops) {
            const uint32_t op = GALE_CIGAR_OP(a->cigar[k]), len = GALE_CIGAR_LEN(a->cigar[k]);
            k++;
            if (op == GALE_CIGAR_INS) j += len;
            else i += len;
        } else if (i < height || j < width) {
            break; /* a script shorter than its box: cannot happen for gale's results */
        }
    }
    fputs("}\n", out);
}

/* sam (sam.c print_sam_align): hard (H) or soft (S) clipping of the rest of the query */
static void write_sam(FILE *out, const out_spec *os, const record *t, const record *q, const char *qs, char strand,
                      const gale_lastz_alignment *a, const gale_lastz_alignment *rel)
{
    const int soft = os->sam >= 3;
    const char mask = soft ? 'S' : 'H';
    const uint32_t len2 = a->end2 - a->beg2 + 1, qlen = (uint32_t)q->true_len;
    uint32_t start2, end2, pre = 0, post = 0;
    if (strand == '+') {
        start2 = a->beg2;
        end2 = start2 - 1 + len2;
    } else {
        start2 = (qlen - a->beg2) - (len2 - 1) + 1;
        end2 = 1 + (qlen - a->beg2);
    }
    fprintf(out, "%s\t%d\t%s\t%u\t%d\t", q->name, strand == '-' ? 16 : 0, t->name, a->beg1, 255);
    if (start2 > 1) pre = start2 - 1;
    if (end2 < qlen) post = qlen - end2;
    if (strand == '-') {
        const uint32_t x = pre;
        pre = post;
        post = x;
    }
    if (pre) fprintf(out, "%u%c", pre, mask);
    for (uint32_t k = 0; k < a->n_ops;) {
        const uint32_t op = GALE_CIGAR_OP(a->cigar[k]);
        uint32_t len = 0;
        if (op == GALE_CIGAR_MATCH) {
            while (k < a->n_ops && GALE_CIGAR_OP(a->cigar[k]) == GALE_CIGAR_MATCH) len += GALE_CIGAR_LEN(a->cigar[k++]);
            fprintf(out, "%uM", len);
        } else {
            fprintf(out, "%u%c", GALE_CIGAR_LEN(a->cigar[k]), op == GALE_CIGAR_INS ? 'I' : 'D');
            k++;
        }
    }
    if (post) fprintf(out, "%u%c", post, mask);
    fputs("\t*\t0\t0\t", out);
    /* print_query_bases: on the query strand aligned; the clipped parts lowercase when soft */
    if (soft)
        for (uint32_t x = 0; x < rel->beg2 - 1; x++) fputc(tolower((unsigned char)qs[x]), out);
    for (uint32_t x = 0; x < len2; x++) fputc(toupper((unsigned char)qs[rel->beg2 - 1 + x]), out);
    if (soft)
        for (uint32_t x = rel->end2; x < q->len; x++) fputc(tolower((unsigned char)qs[x]), out);
    fputs("\t*\n", out);
}

/* rdotplot (output.c print_align_list_segments, genpaf.c keys 02!13!XX): each run of
 * substitutions (empty ones too) as start1 start2 / end1 end2 / NA NA; on the - strand
 * the query positions count down on the + strand */
static void write_rdotplot(FILE *out, out_spec *os, const record *t, const record *q, char strand,
                           const gale_lastz_alignment *a)
{
    uint32_t i = 0, j = 0, k = 0;
    const uint32_t height = a->end1 - a->beg1 + 1, width = a->end2 - a->beg2 + 1;
    if (!os->prev1 || strcmp(os->prev1, t->name) || strcmp(os->prev2, q->name)) {
        fprintf(out, "%s\t%s\n", t->name, q->name);
        os->prev1 = t->name;
        os->prev2 = q->name;
    }
    while (i < height || j < width) {
        const uint32_t pi = i, pj = j;
        uint32_t run = 0;
        while (k < a->n_ops && GALE_CIGAR_OP(a->cigar[k]) == GALE_CIGAR_MATCH) run += GALE_CIGAR_LEN(a->cigar[k++]);
        i += run;
        j += run;
        if ((i < height || j < width) && k < a->n_ops) {
            const uint32_t op = GALE_CIGAR_OP(a->cigar[k]), len = GALE_CIGAR_LEN(a->cigar[k]);
            k++;
            if (op == GALE_CIGAR_INS) j += len;
            else i += len;
        }
        {
            const uint32_t pos1 = a->beg1 - 1 + pi, pos2 = a->beg2 - 1 + pj;
            const uint32_t s1 = pos1 + 1, e1 = s1 + run - 1;
            uint32_t s2, e2;
            if (strand == '+') {
                s2 = pos2 + 1;
                e2 = s2 + run - 1;
            } else {
                s2 = (uint32_t)q->true_len - pos2;
                e2 = s2 - run + 1;
            }
            fprintf(out, "%u\t%u\n%u\t%u\nNA\tNA\n", s1, s2, e1, e2);
        }
        if (k >= a->n_ops && (i < height || j < width)) break;
    }
}

static void write_alignment(FILE *out, out_spec *os, const record *t, const record *q, const char *qs, char strand,
                            const gale_lastz_alignment *rel)
{
    /* rel: on the sequences as held (a subrange's, the - strand's reverse complement);
     * a: on the whole record (+ strand) or its whole reverse complement (- strand), as
     * every format but lav's alignments writes them */
    gale_lastz_alignment abs_ = *rel;
    const gale_lastz_alignment *a = &abs_;
    const uint32_t o1 = (uint32_t)(t->start_loc - 1),
                   o2 = (uint32_t)(strand == '+' ? q->start_loc - 1 : q->true_len - (q->start_loc - 1 + q->len));
    abs_.beg1 += o1;
    abs_.end1 += o1;
    abs_.beg2 += o2;
    abs_.end2 += o2;
    if (os->lav) {
        write_lav(out, t, qs, rel);
        return;
    }
    if (os->sam) {
        write_sam(out, os, t, q, qs, strand, a, rel);
        return;
    }
    if (os->rdotplot) {
        write_rdotplot(out, os, t, q, strand, a);
        return;
    }
    if (os->axt) {
        /* axt (axt.c print_axt_align): number, target interval, query interval on its strand
         * (1-based), strand, score; then the two gapped rows and a blank line */
        const uint32_t height = a->end1 - a->beg1 + 1, width = a->end2 - a->beg2 + 1;
        fprintf(out, "%" PRIu64 " %s %u %u %s %u %u %c %d\n", os->number++, t->name, a->beg1, a->beg1 + height - 1,
                q->name, a->beg2, a->beg2 + width - 1, strand, a->score);
        for (int row = 0; row < 2; row++) {
            const char *p1 = t->seq + rel->beg1 - 1, *p2 = qs + rel->beg2 - 1;
            for (uint32_t k = 0; k < a->n_ops; k++) {
                const uint32_t op = GALE_CIGAR_OP(a->cigar[k]), len = GALE_CIGAR_LEN(a->cigar[k]);
                for (uint32_t j = 0; j < len; j++) {
                    if (op == GALE_CIGAR_MATCH) fputc(row == 0 ? p1[j] : p2[j], out);
                    else if (op == GALE_CIGAR_INS) fputc(row == 0 ? '-' : p2[j], out);
                    else fputc(row == 0 ? p1[j] : '-', out);
                }
                if (op != GALE_CIGAR_INS) p1 += len;
                if (op != GALE_CIGAR_DEL) p2 += len;
            }
            fputs(row == 0 ? "\n" : "\n\n", out);
        }
        return;
    }
    if (os->maf) {
        /* maf (maf.c print_maf_align): names padded to one width, start (its width from the
         * 1-based starts, as lastz computes it), length, strand, sequence size, gapped row */
        const uint32_t len1 = a->end1 + 1 - a->beg1, len2 = a->end2 + 1 - a->beg2;
        const int nl1 = (int)strlen(t->name), nl2 = (int)strlen(q->name);
        const int nameW = nl1 >= nl2 ? nl1 : nl2;
        char b1[24], b2[24];
        int startW, endW, lenW, w1, w2;
        w1 = snprintf(b1, sizeof b1, "%u", a->beg1);
        w2 = snprintf(b2, sizeof b2, "%u", a->beg2);
        startW = w1 >= w2 ? w1 : w2;
        w1 = snprintf(b1, sizeof b1, "%u", len1);
        w2 = snprintf(b2, sizeof b2, "%u", len2);
        endW = w1 >= w2 ? w1 : w2;
        w1 = snprintf(b1, sizeof b1, "%zu", t->true_len);
        w2 = snprintf(b2, sizeof b2, "%zu", q->true_len);
        lenW = w1 >= w2 ? w1 : w2;
        fprintf(out, "a score=%d\n", a->score);
        for (int row = 0; row < 2; row++) {
            const char *p1 = t->seq + rel->beg1 - 1, *p2 = qs + rel->beg2 - 1;
            if (row == 0)
                fprintf(out, "s %s%*s%*u %*u + %*zu ", t->name, nameW + 1 - nl1, " ", startW, a->beg1 - 1, endW, len1,
                        lenW, t->true_len);
            else
                fprintf(out, "s %s%*s%*u %*u %c %*zu ", q->name, nameW + 1 - nl2, " ", startW, a->beg2 - 1, endW, len2,
                        strand, lenW, q->true_len);
            for (uint32_t k = 0; k < a->n_ops; k++) {
                const uint32_t op = GALE_CIGAR_OP(a->cigar[k]), len = GALE_CIGAR_LEN(a->cigar[k]);
                for (uint32_t j = 0; j < len; j++) {
                    if (op == GALE_CIGAR_MATCH) fputc(row == 0 ? p1[j] : p2[j], out);
                    else if (op == GALE_CIGAR_INS) fputc(row == 0 ? '-' : p2[j], out);
                    else fputc(row == 0 ? p1[j] : '-', out);
                }
                if (op != GALE_CIGAR_INS) p1 += len;
                if (op != GALE_CIGAR_DEL) p2 += len;
            }
            fputs(row == 0 ? "\n" : "\n\n", out);
        }
        return;
    }
    if (os->cigar_format) {
        /* cigar: the query's interval on the plus strand (start > end on minus), then the target's */
        uint32_t qb = a->beg2 - 1, qe = a->end2;
        if (strand == '-') {
            qb = (uint32_t)q->true_len - (a->beg2 - 1);
            qe = (uint32_t)q->true_len - a->end2;
        }
        fprintf(out, "cigar: %s %u %u %c %s %u %u + %d", q->name, qb, qe, strand, t->name, a->beg1 - 1, a->end1,
                a->score);
        for (uint32_t k = 0; k < a->n_ops; k++)
            fprintf(out, " %c %u", GALE_CIGAR_STR[GALE_CIGAR_OP(a->cigar[k])], GALE_CIGAR_LEN(a->cigar[k]));
        fputc('\n', out);
        return;
    }
    /* identity (alignment_identity: ACGT pairs of the substitution runs, case folded) and
     * coverage (of the shorter sequence) */
    uint32_t id_num = 0, id_den = 0, cov_num, cov_den;
    if (qs) { /* NULL for --format=segments, which has no identity field */
        const char *s1 = t->seq + rel->beg1 - 1, *s2 = qs + rel->beg2 - 1;
        for (uint32_t k = 0; k < a->n_ops; k++) {
            const uint32_t op = GALE_CIGAR_OP(a->cigar[k]), len = GALE_CIGAR_LEN(a->cigar[k]);
            if (op == GALE_CIGAR_MATCH) {
                for (uint32_t j = 0; j < len; j++) {
                    const int c1 = nuc_bits(s1[j]), c2 = nuc_bits(s2[j]);
                    if (c1 >= 0 && c2 >= 0) {
                        id_den++;
                        if (c1 == c2) id_num++;
                    }
                }
                s1 += len;
                s2 += len;
            } else if (op == GALE_CIGAR_INS) {
                s2 += len;
            } else {
                s1 += len;
            }
        }
    }
    if (t->true_len < q->true_len) {
        cov_num = a->end1 + 1 - a->beg1;
        cov_den = (uint32_t)t->true_len;
    } else {
        cov_num = a->end2 + 1 - a->beg2;
        cov_den = (uint32_t)q->true_len;
    }
    uint32_t gap_cols = 0, nongap_cols = 0, n_gaps = 0;
    for (uint32_t k = 0; k < a->n_ops; k++) {
        if (GALE_CIGAR_OP(a->cigar[k]) == GALE_CIGAR_MATCH) {
            nongap_cols += GALE_CIGAR_LEN(a->cigar[k]);
        } else {
            gap_cols += GALE_CIGAR_LEN(a->cigar[k]);
            n_gaps++;
        }
    }
    os->gen_number++;
    for (int k = 0; k < os->n_fields; k++) {
        const uint32_t qlen = (uint32_t)q->true_len;
        /* plus-strand query coordinates (start2+ ...) */
        const uint32_t zs2p = strand == '-' ? qlen - a->end2 : a->beg2 - 1;
        const uint32_t e2p = strand == '-' ? qlen - (a->beg2 - 1) : a->end2;
        if (k) fputc('\t', out);
        switch (os->fields[k]) {
        case F_SCORE: fprintf(out, "%d", a->score); break;
        case F_NAME1: fputs(t->name, out); break;
        case F_STRAND1: fputc('+', out); break;
        case F_SIZE1: fprintf(out, "%zu", t->true_len); break;
        case F_START1: fprintf(out, "%u", a->beg1); break;
        case F_ZSTART1: fprintf(out, "%u", a->beg1 - 1); break;
        case F_END1: fprintf(out, "%u", a->end1); break;
        case F_NAME2: fputs(q->name, out); break;
        case F_STRAND2: fputc(strand, out); break;
        case F_SIZE2: fprintf(out, "%zu", q->true_len); break;
        case F_START2: fprintf(out, "%u", a->beg2); break;
        case F_ZSTART2: fprintf(out, "%u", a->beg2 - 1); break;
        case F_END2: fprintf(out, "%u", a->end2); break;
        case F_START2P: fprintf(out, "%u", zs2p + 1); break;
        case F_ZSTART2P: fprintf(out, "%u", zs2p); break;
        case F_END2P: fprintf(out, "%u", e2p); break;
        case F_IDENTITY:
            fprintf(out, "%u/%u\t", id_num, id_den);
            if (id_den) fprintf(out, "%.1f%%", 100.0 * id_num / id_den);
            else fputs("NA", out);
            break;
        case F_IDFRAC: fprintf(out, "%u/%u", id_num, id_den); break;
        case F_IDPCT:
            if (id_den) fprintf(out, "%.1f%%", 100.0 * id_num / id_den);
            else fputs("NA", out);
            break;
        case F_COVERAGE:
            fprintf(out, "%u/%u\t", cov_num, cov_den);
            if (cov_den) fprintf(out, "%.1f%%", 100.0 * cov_num / cov_den);
            else fputs("NA", out);
            break;
        case F_COVFRAC: fprintf(out, "%u/%u", cov_num, cov_den); break;
        case F_COVPCT:
            if (cov_den) fprintf(out, "%.1f%%", 100.0 * cov_num / cov_den);
            else fputs("NA", out);
            break;
        case F_CIGAR:
        case F_CIGARL:
            for (uint32_t j = 0; j < a->n_ops; j++) {
                const char c = GALE_CIGAR_STR[GALE_CIGAR_OP(a->cigar[j])];
                fprintf(out, "%u%c", GALE_CIGAR_LEN(a->cigar[j]), os->fields[k] == F_CIGARL ? tolower(c) : c);
            }
            break;
        case F_NUMBER1: fprintf(out, "%ld", t->contig - 1); break;
        case F_NUMBER2: fprintf(out, "%ld", os->contig - 1); break;
        case F_LENGTH1: fprintf(out, "%u", a->end1 + 1 - a->beg1); break;
        case F_LENGTH2: fprintf(out, "%u", a->end2 + 1 - a->beg2); break;
        case F_ALIGN1: case F_TEXT1: print_row(out, t, qs, rel, 0); break;
        case F_ALIGN2: case F_TEXT2: print_row(out, t, qs, rel, 1); break;
        case F_NMATCH: fprintf(out, "%u", id_num); break;
        case F_NMISMATCH: fprintf(out, "%u", id_den - id_num); break;
        case F_NPAIR: fprintf(out, "%u", id_den); break;
        case F_NCOLUMN: fprintf(out, "%u", nongap_cols + gap_cols); break;
        case F_NGAP: fprintf(out, "%u", n_gaps); break;
        case F_CGAP: fprintf(out, "%u", gap_cols); break;
        case F_DIFF: print_diff(out, t, qs, rel); break;
        case F_DIAGONAL: fprintf(out, "%" PRId64, (int64_t)a->beg1 - (int64_t)a->beg2); break;
        case F_BLASTID:
            if (nongap_cols + gap_cols) fprintf(out, "%.2f", 100.0 * id_num / (nongap_cols + gap_cols));
            else fputs("NA", out);
            break;
        case F_CONTINUITY:
            fprintf(out, "%u/%u\t", nongap_cols, nongap_cols + gap_cols);
            if (nongap_cols + gap_cols) fprintf(out, "%.1f%%", 100.0 * nongap_cols / (nongap_cols + gap_cols));
            else fputs("NA", out);
            break;
        case F_CONFRAC: fprintf(out, "%u/%u", nongap_cols, nongap_cols + gap_cols); break;
        case F_CONPCT:
            if (nongap_cols + gap_cols) fprintf(out, "%.1f%%", 100.0 * nongap_cols / (nongap_cols + gap_cols));
            else fputs("NA", out);
            break;
        case F_GAPRATE:
            fprintf(out, "%u/%u\t", gap_cols, nongap_cols);
            if (nongap_cols) fprintf(out, "%.1f%%", 100.0 * gap_cols / nongap_cols);
            else fputs("NA", out);
            break;
        case F_NUCS1:
            for (size_t x = 0; x < t->len; x++)
                fputc(t->seq[x] >= 0x20 && t->seq[x] <= 0x7e ? t->seq[x] : '*', out);
            break;
        case F_NUCS2: { /* on the - strand, the complement of the reversed strand: the + strand */
            const char *s2 = strand == '-' ? q->seq : qs;
            for (size_t x = 0; x < q->len; x++) fputc(s2[x] >= 0x20 && s2[x] <= 0x7e ? s2[x] : '*', out);
            break;
        }
        case F_NUMBER: fprintf(out, "%" PRIu64, os->gen_number); break;
        case F_ZNUMBER: fprintf(out, "%" PRIu64, os->gen_number - 1); break;
        case F_NA: fputs("NA", out); break;
        }
    }
    fputc('\n', out);
}

/* segment.c qSegmentsByDiag (the anchors of one query strand all have the same id) */
static int by_diag(const void *x, const void *y)
{
    const gale_lastz_anchor *a = x, *b = y;
    const int64_t da = (int64_t)a->pos1 - a->pos2, db = (int64_t)b->pos1 - b->pos2;
    if (da != db) return da < db ? -1 : 1;
    if (a->pos2 != b->pos2) return a->pos2 < b->pos2 ? -1 : 1;
    if (a->length != b->length) return a->length < b->length ? -1 : 1;
    if (a->score != b->score) return a->score < b->score ? -1 : 1;
    return 0;
}

/* --format=segments: lastz then does no gapped extension (lastz.c: formatIsSegments
 * without --gapped) and writes the anchors it read for this query strand as HSPs, after
 * merge_segments (segment.c: sorted by diagonal, overlapping ones on a diagonal merged,
 * keeping the higher score). Returns the number left in an. */
static size_t merge_anchors(gale_lastz_anchor *an, size_t n)
{
    size_t dst = 0;
    if (n < 2) return n;
    qsort(an, n, sizeof *an, by_diag);
    gale_lastz_anchor cur = an[0];
    for (size_t k = 1; k < n; k++) {
        const gale_lastz_anchor *g = &an[k];
        if ((int64_t)g->pos1 - g->pos2 == (int64_t)cur.pos1 - cur.pos2 && g->pos2 < cur.pos2 + cur.length) {
            if (g->pos2 + g->length > cur.pos2 + cur.length) cur.length = g->pos2 + g->length - cur.pos2;
            if (g->score > cur.score) cur.score = g->score;
            continue;
        }
        an[dst++] = cur;
        cur = *g;
    }
    an[dst++] = cur;
    return dst;
}

/* A TARGET or QUERY specifier as LASTZ 1.04.22 reads it (sequences.c parse_sequence_name):
 * [nickname::]filename[[actions]][-], actions comma-separated (or "][") */
typedef struct {
    char *file;            /* the file name alone (lav's s stanza names it) */
    char *nickname;        /* nickname:: or [nickname=NAME]: the records' name in the output */
    char *subset;          /* [subset=FILE] or [@FILE] */
    int unmask;            /* [unmask] */
    int nameparse;         /* 0: lastz's default (core), 1 darkspace, 2 alnum, 3 full */
    unsigned long long sub_start, sub_end; /* a subrange, 1-based inclusive (0: not given) */
    int sub_end_soft;      /* start#length: an end past the record is clipped */
    int sub_end_open;      /* start..: to the record's end */
    int sub_pending;       /* start, waiting for ,end */
    char buf[4096];
} seq_spec;

/* Returns 0, or writes a usage error naming the action and returns -1. */
static int parse_spec(const char *arg, seq_spec *sp)
{
    char *s, *act, *colons;
    memset(sp, 0, sizeof *sp);
    if (strlen(arg) >= sizeof sp->buf) return usage_error(CMD, "%s: specifier too long", arg) ? -1 : -1;
    strcpy(sp->buf, arg);
    s = sp->buf;
    colons = strstr(s, "::");
    if (colons && (!strchr(s, '[') || colons < strchr(s, '['))) {
        *colons = 0;
        if (!*s) return usage_error(CMD, "%s: an empty nickname before '::'", arg) ? -1 : -1;
        sp->nickname = s;
        s = colons + 2;
    }
    sp->file = s;
    act = strchr(s, '[');
    if (!act) {
        size_t l = strlen(s);
        FILE *probe = l > 1 && s[l - 1] == '-' ? fopen(s, "r") : NULL;
        if (probe) fclose(probe); /* a file whose name ends with '-' */
        else if (l > 1 && s[l - 1] == '-' && s[l - 2] != '/')
            return usage_error(CMD, "%s: LASTZ's trailing '-' (reverse complement, action revcomp) is not supported "
                                    "by gale lastz yet", arg) ? -1 : -1;
        return 0;
    }
    *act++ = 0;
    {
        size_t l = strlen(act);
        if (l && act[l - 1] == '-') {
            return usage_error(CMD, "%s: LASTZ's trailing '-' (reverse complement, action revcomp) is not supported "
                                    "by gale lastz yet", arg) ? -1 : -1;
        }
        if (l == 0 || act[l - 1] != ']')
            return usage_error(CMD, "%s: the actions list must end with ']'", arg) ? -1 : -1;
        act[l - 1] = 0;
    }
    while (act) {
        char *a = act, *next = strchr(act, ',');
        char *bb = strstr(act, "][");
        if (bb && (!next || bb < next)) {
            *bb = 0;
            next = bb + 1;
        } else if (next) {
            *next = 0;
        }
        act = next ? next + 1 : NULL;
        if (!*a) return usage_error(CMD, "%s: an empty action", arg) ? -1 : -1;
        if (isdigit((unsigned char)a[0]) || a[0] == '.') {
            /* subranges (sequences.c parse_sequence_name): start..end, start,end (two actions
             * as lastz splits them), start.., ..end, start#length */
            unsigned long long x, y;
            int used = -1;
            if (sp->sub_start && !sp->sub_end && !sp->sub_end_open && sscanf(a, "%llu%n", &y, &used) == 1 &&
                !a[used] && sp->sub_pending) {
                sp->sub_end = y;
                sp->sub_pending = 0;
                if (y == 0) return usage_error(CMD, "%s: bad subrange limits in '%s'", arg, a) ? -1 : -1;
                continue;
            }
            if (sp->sub_start || sp->sub_end)
                return usage_error(CMD, "%s: more than one subrange", arg) ? -1 : -1;
            used = -1;
            if (sscanf(a, "%llu..%llu%n", &x, &y, &used) == 2 && !a[used]) {
                sp->sub_start = x;
                sp->sub_end = y;
            } else if ((used = -1, sscanf(a, "%llu..%n", &x, &used) == 1) && used > 0 && !a[used]) {
                sp->sub_start = x;
                sp->sub_end_open = 1;
            } else if ((used = -1, sscanf(a, "..%llu%n", &y, &used) == 1) && used > 0 && !a[used]) {
                sp->sub_start = 1;
                sp->sub_end = y;
            } else if ((used = -1, sscanf(a, "%llu#%llu%n", &x, &y, &used) == 2) && !a[used]) {
                if (y == 0) return usage_error(CMD, "%s: bad subrange limits in '%s'", arg, a) ? -1 : -1;
                sp->sub_start = x;
                sp->sub_end = x + y - 1;
                sp->sub_end_soft = 1;
            } else if ((used = -1, sscanf(a, "%llu%n", &x, &used) == 1) && !a[used]) {
                sp->sub_start = x; /* start,end: the end is the next action */
                sp->sub_pending = 1;
            } else {
                return usage_error(CMD, "%s: LASTZ's subrange '%s' is not supported by gale lastz yet (supported: "
                                        "start..end, start,end, start.., ..end, start#length)", arg, a) ? -1 : -1;
            }
            if (sp->sub_start == 0 || (sp->sub_end == 0 && !sp->sub_end_open && !sp->sub_pending))
                return usage_error(CMD, "%s: bad subrange limits in '%s'", arg, a) ? -1 : -1;
            if (sp->sub_end && sp->sub_end < sp->sub_start)
                return usage_error(CMD, "%s: subrange '%s' ends before it starts (lastz: the reverse complement, "
                                        "which --segments cannot take)", arg, a) ? -1 : -1;
            continue;
        }
        if (sp->sub_pending)
            return usage_error(CMD, "%s: the subrange start %llu has no end", arg, sp->sub_start) ? -1 : -1;
        if (strcmp(a, "unmask") == 0) {
            sp->unmask = 1;
        } else if (strncmp(a, "nickname=", 9) == 0) {
            if (!a[9]) return usage_error(CMD, "%s: an empty nickname", arg) ? -1 : -1;
            sp->nickname = a + 9;
        } else if ((strncmp(a, "subset=", 7) == 0 && a[7]) || (a[0] == '@' && a[1])) {
            if (sp->subset) return usage_error(CMD, "%s: more than one subset file", arg) ? -1 : -1;
            sp->subset = a[0] == '@' ? a + 1 : a + 7;
        } else if (strcmp(a, "nameparse=darkspace") == 0) {
            sp->nameparse = 1;
        } else if (strcmp(a, "nameparse=alnum") == 0 || strcmp(a, "nameparse=alphanum") == 0 ||
                   strcmp(a, "name:alnum") == 0 || strcmp(a, "name:alphanum") == 0) {
            sp->nameparse = 2;
        } else if (strcmp(a, "nameparse=full") == 0 || strcmp(a, "fullname") == 0 || strcmp(a, "fullnames") == 0) {
            sp->nameparse = 3;
        } else if (strcmp(a, "format=fasta") == 0 || strcmp(a, "format=FASTA") == 0) {
            /* gale reads FASTA: nothing to override */
        } else {
            /* the others of lastz --help=files: a clear refusal naming the action */
            const char *what = a;
            if (strcmp(a, "multi") == 0) what = "multiple";
            return usage_error(CMD, "%s: LASTZ's file action '%s'%s%s%s is not supported by gale lastz yet (supported: "
                                    "unmask, nickname=NAME, subset=FILE, nameparse=darkspace|alnum|full, format=fasta, subranges)",
                               arg, a, what != a ? " (" : "", what != a ? what : "", what != a ? ")" : "") ? -1 : -1;
        }
    }
    if (sp->sub_pending)
        return usage_error(CMD, "%s: the subrange start %llu has no end", arg, sp->sub_start) ? -1 : -1;
    return 0;
}

/* A record's name as lastz takes it from the header (sequences.c shorten_header):
 * "reverse complement of " and "positions ... of " skipped, then up to a blank, '|' or
 * ':' (darkspace: a blank; alnum: letters, digits and '_'), less a .nib, .2bit, .hsx,
 * .fasta or .fa suffix (not for alnum); full: the whole header line. */
static char *short_name(const char *header, int type)
{
    const char *h = header;
    size_t len;
    char *n;
    if (type == 3) return xstrdup(header);
    if (*h == '>') h++;
    while (*h == ' ' || *h == '\t') h++;
    if (strncmp(h, "reverse complement of ", 22) == 0) {
        h += 22;
        while (*h == ' ' || *h == '\t') h++;
    }
    if (strncmp(h, "positions ", 10) == 0) {
        const char *hh = h + 10;
        while (*hh == ' ' || *hh == '\t') hh++;
        while (*hh && *hh != ' ' && *hh != '\t') hh++;
        while (*hh == ' ' || *hh == '\t') hh++;
        if (strncmp(hh, "of ", 3) == 0) {
            h = hh + 3;
            while (*h == ' ' || *h == '\t') h++;
        }
    }
    while (*h == ' ' || *h == '\t') h++;
    if (type == 2) {
        len = strspn(h, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
    } else {
        static const char *const sfx[] = {".nib", ".2bit", ".hsx", ".fasta", ".fa"};
        len = strcspn(h, type == 1 ? " \t" : " \t|:");
        for (int k = 0; k < 5; k++) {
            const size_t sl = strlen(sfx[k]);
            if (len > sl && strncmp(h + len - sl, sfx[k], sl) == 0) len -= sl;
        }
    }
    n = malloc(len + 1);
    memcpy(n, h, len);
    n[len] = 0;
    return n;
}

static void apply_names(const seq_spec *sp, record *recs, long n)
{
    for (long k = 0; k < n; k++) {
        free(recs[k].name);
        recs[k].name = short_name(recs[k].header, sp->nameparse);
    }
}

/* [subset=FILE] (sequences.c read_contig_name, find_next_fasta_coi): the names, one a line
 * (the first word; '#' comments), each sought forward from the record after the previous
 * match; the first not found ends the list. Keeps the records' numbers. Returns the count
 * kept, or -1 (message said). */
static long apply_subset(const char *path, record *recs, long n)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    long pos = 0, kept = 0;
    char *keep;
    if (!f) {
        msg("%s (subset=): %s", path, strerror(errno));
        return -1;
    }
    keep = calloc((size_t)n + 1, 1);
    while (getline(&line, &cap, f) >= 0) {
        char *p = line, *e, *h;
        for (h = strchr(p, '#'); h; h = strchr(h + 1, '#'))
            if (h == p || h[-1] == ' ' || h[-1] == '\t') {
                *h = 0;
                break;
            }
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) continue;
        e = p;
        while (*e && !isspace((unsigned char)*e)) e++;
        *e = 0;
        while (pos < n && strcmp(recs[pos].name, p) != 0) pos++;
        if (pos == n) break;
        keep[pos++] = 1;
    }
    fclose(f);
    free(line);
    for (long k = 0; k < n; k++) {
        if (keep[k]) {
            /* lastz then knows the record by its name alone (lav's h stanza: ">NAME") */
            char *h = malloc(strlen(recs[k].name) + 2);
            h[0] = '>';
            strcpy(h + 1, recs[k].name);
            free(recs[k].header);
            recs[k].header = h;
            recs[kept++] = recs[k];
        } else {
            free(recs[k].name);
            free(recs[k].header);
            free(recs[k].seq);
        }
    }
    free(keep);
    return kept;
}

/* nickname, unmask and the subrange on the records read; returns 0, or -1 (message said) */
static int apply_spec(const seq_spec *sp, record *recs, long n)
{
    for (long k = 0; k < n; k++) {
        if (sp->sub_start) {
            /* lastz: "beyond end" when the start, or a hard end, lies past the record */
            unsigned long long end = sp->sub_end_open ? recs[k].len : sp->sub_end;
            if (sp->sub_end_soft && end > recs[k].len) end = recs[k].len;
            if (sp->sub_start > recs[k].len || end > recs[k].len) {
                msg("%s, %s: subrange %llu..%llu beyond the end (%zu bases)", sp->file, recs[k].name, sp->sub_start,
                    sp->sub_end_open ? sp->sub_start : sp->sub_end, recs[k].len);
                return -1;
            }
            memmove(recs[k].seq, recs[k].seq + sp->sub_start - 1, (size_t)(end + 1 - sp->sub_start));
            recs[k].start_loc = (size_t)sp->sub_start;
            recs[k].len = (size_t)(end + 1 - sp->sub_start);
        }
        if (sp->nickname) {
            /* lastz names every record so, in the alignments and in lav's h stanza */
            free(recs[k].name);
            free(recs[k].header);
            recs[k].name = xstrdup(sp->nickname);
            recs[k].header = xstrdup(sp->nickname);
        }
        if (sp->unmask)
            for (size_t x = 0; x < recs[k].len; x++) recs[k].seq[x] = (char)toupper((unsigned char)recs[k].seq[x]);
    }
    return 0;
}

static int parse_format(const char *v, out_spec *os)
{
    static const int defaults[] = {F_SCORE, F_NAME1, F_STRAND1, F_SIZE1, F_ZSTART1, F_END1, F_NAME2, F_STRAND2,
                                   F_SIZE2, F_ZSTART2, F_END2, F_IDENTITY, F_COVERAGE};
    memset(os, 0, sizeof *os);
    if (strcmp(v, "lav") == 0 || strcmp(v, "LAV") == 0) {
        os->lav = 1;
        return 0;
    }
    if (strcmp(v, "sam") == 0 || strcmp(v, "SAM") == 0) {
        os->sam = 1;
        return 0;
    }
    if (strcmp(v, "sam-") == 0 || strcmp(v, "SAM-") == 0) {
        os->sam = 2;
        return 0;
    }
    if (strcmp(v, "softsam") == 0 || strcmp(v, "SOFTSAM") == 0) {
        os->sam = 3;
        return 0;
    }
    if (strcmp(v, "softsam-") == 0 || strcmp(v, "SOFTSAM-") == 0) {
        os->sam = 4;
        return 0;
    }
    if (strcmp(v, "segments") == 0) {
        static const int keys[] = {F_NAME1, F_START1, F_END1, F_NAME2, F_START2, F_END2, F_STRAND2, F_SCORE};
        os->segments = 1;
        os->header = 1;
        memcpy(os->fields, keys, sizeof keys);
        os->n_fields = (int)(sizeof keys / sizeof keys[0]);
        return 0;
    }
    if (strcmp(v, "rdotplot") == 0) {
        os->rdotplot = 1;
        return 0;
    }
    if (strcmp(v, "cigar") == 0) {
        os->cigar_format = 1;
        return 0;
    }
    if (strcmp(v, "axt") == 0) {
        os->axt = 1;
        return 0;
    }
    if (strcmp(v, "maf") == 0 || strcmp(v, "maf-") == 0) {
        os->maf = v[3] ? 2 : 1;
        return 0;
    }
    if (strncmp(v, "general", 7) != 0) return -1;
    v += 7;
    os->header = 1;
    if (*v == '-') {
        os->header = 0;
        v++;
    }
    if (*v == 0) {
        memcpy(os->fields, defaults, sizeof defaults);
        os->n_fields = (int)(sizeof defaults / sizeof defaults[0]);
        return 0;
    }
    if (*v != ':') return -1;
    v++;
    while (*v) {
        const char *e = strchr(v, ',');
        size_t len = e ? (size_t)(e - v) : strlen(v);
        int f;
        for (f = 0; f < F_N; f++)
            if (strlen(field_names[f]) == len && strncmp(field_names[f], v, len) == 0) break;
        for (size_t x = 0; f == F_N && x < sizeof field_aliases / sizeof field_aliases[0]; x++)
            if (strlen(field_aliases[x].alias) == len && strncmp(field_aliases[x].alias, v, len) == 0)
                f = field_aliases[x].field;
        if (f == F_N) {
            for (size_t x = 0; x < sizeof fields_not_written / sizeof fields_not_written[0]; x++)
                if (strlen(fields_not_written[x]) == len && strncmp(fields_not_written[x], v, len) == 0)
                    return usage_error(CMD, "--format: LASTZ's field '%.*s' is not written by gale lastz yet", (int)len,
                                       v) ? -2 : -2;
            if (len > 4 && strncmp(v, "diff", 4) == 0)
                return usage_error(CMD, "--format: the field '%.*s' (diff with its own characters) is not written by "
                                        "gale lastz yet", (int)len, v) ? -2 : -2;
            return usage_error(CMD, "--format: '%.*s' is not one of LASTZ's general fields (gale lastz --help lists "
                                    "them)", (int)len, v) ? -2 : -2;
        }
        if (os->n_fields == 256) return -1;
        os->fields[os->n_fields++] = f;
        v += len;
        if (*v == ',') v++;
    }
    return os->n_fields ? 0 : -1;
}

int cmd_lastz(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL}, *segpath = NULL, *format = NULL;
    int npaths = 0, rc = EXIT_FAIL, strands = 3;
    gale_lastz_params p;
    int have_ydrop = 0;
    const char *gapped_opt = NULL; /* the first option of the gapped stage given */
    out_spec os;
    record *t = NULL, *q = NULL;
    seg_line *segs = NULL;
    long nt = 0, nq = 0, ns = 0, cursor = 0;
    static seq_spec specs[2];
    gale_ctx *ctx = NULL;
    gale_lastz_params_init(&p);
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
        } else if (strncmp(a, "--gap=", 6) == 0) {
            if (!gapped_opt) gapped_opt = a;
            int o, e, used = 0;
            if (sscanf(a + 6, "%d,%d%n", &o, &e, &used) != 2 || a[6 + used] || o < 0 || e < 0)
                return bad_value(CMD, "--gap", a + 6, "expected OPEN,EXTEND (non-negative)");
            p.gap_open = o;
            p.gap_extend = e;
        } else if (strncmp(a, "--ydrop=", 8) == 0) {
            if (!gapped_opt) gapped_opt = a;
            if (option_number(CMD, "--ydrop", a + 8, 0, 1 << 28, &v)) return EXIT_USAGE;
            p.ydrop = (int32_t)v;
            have_ydrop = 1;
        } else if (strncmp(a, "--gappedthresh=", 15) == 0) {
            if (!gapped_opt) gapped_opt = a;
            if (option_number(CMD, "--gappedthresh", a + 15, INT32_MIN, INT32_MAX, &v)) return EXIT_USAGE;
            p.gapped_thresh = (int32_t)v;
        } else if (strcmp(a, "--noytrim") == 0) {
            if (!gapped_opt) gapped_opt = a;
            p.flags |= GALE_LASTZ_NOYTRIM;
        } else if (strcmp(a, "--allgappedbounds") == 0) {
            if (!gapped_opt) gapped_opt = a;
            p.flags |= GALE_LASTZ_ALLBOUNDS;
        } else if (strcmp(a, "--notrivial") == 0) {
            p.flags |= GALE_LASTZ_NOTRIVIAL;
        } else if (strncmp(a, "--allocate:traceback=", 21) == 0) {
            if (option_number(CMD, "--allocate:traceback", a + 21, 0, INT32_MAX, &v)) return EXIT_USAGE;
            if (v != 0 && v < 16) return bad_value(CMD, "--allocate:traceback", a + 21, "0 or at least 16 bytes");
            p.traceback_bytes = (uint64_t)v;
        } else if (strncmp(a, "--strand=", 9) == 0) {
            if (strcmp(a + 9, "both") == 0) strands = 3;
            else if (strcmp(a + 9, "plus") == 0) strands = 1;
            else if (strcmp(a + 9, "minus") == 0) strands = 2;
            else return bad_value(CMD, "--strand", a + 9, "expected both, plus or minus");
        } else if (a[0] == '-' && a[1]) {
            return usage_error(CMD, "unknown or unsupported option '%s'", a);
        } else if (npaths < 2) {
            paths[npaths++] = a;
        } else {
            return usage_error(CMD, "more than two sequence files ('%s')", a);
        }
    }
    if (npaths < 2) return usage_error(CMD, "expected TARGET and QUERY files");
    if (!segpath) return usage_error(CMD, "--segments=FILE is required (gale lastz runs the gapped stage from anchors)");
    if (!format) format = "lav"; /* lastz's default */
    {
        const int pf = parse_format(format, &os);
        if (pf == -2) return EXIT_USAGE;
        if (pf) return bad_value(CMD, "--format", format,
                         "expected lav, general[-][:fields], cigar, axt, maf, maf-, sam, sam-, softsam, softsam- or "
                         "rdotplot, segments");
    }
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
    if (!have_ydrop) p.ydrop = p.gap_open + 300 * p.gap_extend; /* LASTZ's default */

    if ((nt = read_fasta(specs[0].file, &t)) < 0 || (nq = read_fasta(specs[1].file, &q)) < 0 ||
        (ns = read_segments(segpath, &segs)) < 0)
        goto done;
    apply_names(&specs[0], t, nt);
    apply_names(&specs[1], q, nq);
    if ((specs[0].subset && (nt = apply_subset(specs[0].subset, t, nt)) < 0) ||
        (specs[1].subset && (nq = apply_subset(specs[1].subset, q, nq)) < 0))
        goto done;
    if (apply_spec(&specs[0], t, nt) || apply_spec(&specs[1], q, nq)) goto done;
    if (nt != 1) {
        msg("%s: %ld records; the target must have exactly one (lastz's [multiple] is not supported yet)", paths[0], nt);
        goto done;
    }
    for (long k = 0; k < ns; k++)
        if (!(strands & (segs[k].strand == '+' ? 1 : 2))) {
            /* lastz stops there too ("extra segments in file") */
            msg("%s line %ld: the segment is on the %c strand, which --strand excludes", segpath, segs[k].line, segs[k].strand);
            goto done;
        }
    {
        gale_status st = gale_ctx_create(&ctx, NULL);
        if (st != GALE_OK) {
            gale_msg("creating the context", st);
            goto done;
        }
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
               3000, p.gapped_thresh, 10 * p.matrix[0][0], p.ydrop, p.gap_open,
               p.gap_extend);
        printf("#        A    C    G    T\n");
        for (int r = 0; r < 4; r++)
            printf("#   %c %4d %4d %4d %4d\n", "ACGT"[r], p.matrix[r][0], p.matrix[r][1], p.matrix[r][2], p.matrix[r][3]);
    }
    if (os.lav) {
        /* lav's d stanza (lav.c print_lav_job_header): program, files and options (lastz names
         * itself: gale writes its own name), the matrix, gaps and thresholds (K: lastz's
         * --hspthresh, 3000 with --segments; M: dynamic masking, 0) */
        printf("#:lav\nd {\n  \"gale.v%s %s %s ", gale_version_string(), specs[0].file, specs[1].file);
        for (int k = 1; k < argc; k++)
            if (argv[k][0] == '-' && argv[k][1]) printf("%s ", argv[k]);
        printf("\n     A    C    G    T\n");
        for (int r = 0; r < 4; r++)
            printf("  %4d %4d %4d %4d\n", p.matrix[r][0], p.matrix[r][1], p.matrix[r][2], p.matrix[r][3]);
        printf("  O = %d, E = %d, K = %d, L = %d, M = 0\"\n}\n", p.gap_open, p.gap_extend, 3000, p.gapped_thresh);
    }
    if (os.sam == 1 || os.sam == 3) printf("@HD\tVN:1.0\tSO:unsorted\n");
    if (os.header) {
        fputc('#', stdout);
        for (int k = 0; k < os.n_fields; k++) fprintf(stdout, "%s%s", k ? "\t" : "", field_headers[os.fields[k]]);
        fputc('\n', stdout);
    }
    for (long r = 0; r < nq; r++) {
        for (int s = 0; s < 2; s++) {
            const char strand = s == 0 ? '+' : '-';
            gale_lastz_anchor *an;
            size_t n = 0;
            char *qs;
            gale_lastz_result *res = NULL;
            gale_status st;
            if (!(strands & (1 << s))) continue;
            an = malloc(((size_t)ns + 1) * sizeof *an);
            /* LASTZ reads the segments file once, in order (segment.c read_segment_table): each
             * query strand takes the run of lines that name it (or '*') from where the previous
             * one stopped; a line that names another stops the run */
            for (; cursor < ns; cursor++) {
                const long k = cursor;
                const seg_line *g = &segs[k];
                if (g->strand != strand) break;
                if (strcmp(g->name2, q[r].name) != 0 && strcmp(g->name2, "*") != 0) break;
                if (strcmp(g->name1, t[0].name) != 0 && strcmp(g->name1, "*") != 0) {
                    msg("%s line %ld: the segment names target '%s', not '%s'", segpath, g->line, g->name1, t[0].name);
                    free(an);
                    goto done;
                }
                {
                    /* on the whole record (its whole reverse complement on the - strand); it
                     * must lie in the subrange (segment.c: "interval out of range") */
                    const size_t o1 = t[0].start_loc - 1,
                                 o2 = strand == '+' ? q[r].start_loc - 1
                                                    : q[r].true_len - (q[r].start_loc - 1 + q[r].len);
                    if (g->start1 - 1 < o1 || g->end1 > o1 + t[0].len || g->start2 - 1 < o2 ||
                        g->end2 > o2 + q[r].len) {
                        msg("%s line %ld: segment out of range of '%s' (%zu..%zu) or '%s%c' (%zu..%zu)", segpath,
                            g->line, t[0].name, o1 + 1, o1 + t[0].len, q[r].name, strand, o2 + 1, o2 + q[r].len);
                        free(an);
                        goto done;
                    }
                    an[n].pos1 = (uint32_t)(g->start1 - 1 - o1);
                    an[n].pos2 = (uint32_t)(g->start2 - 1 - o2);
                }
                an[n].length = g->end1 + 1 - g->start1;
                an[n].score = g->score;
                n++;
            }
            if (os.segments) {
                n = merge_anchors(an, n);
                for (size_t k = 0; k < n; k++) {
                    gale_lastz_alignment a;
                    uint32_t op = GALE_CIGAR_MATCH | (an[k].length << GALE_CIGAR_SHIFT);
                    memset(&a, 0, sizeof a);
                    a.beg1 = an[k].pos1 + 1;
                    a.end1 = an[k].pos1 + an[k].length;
                    a.beg2 = an[k].pos2 + 1;
                    a.end2 = an[k].pos2 + an[k].length;
                    a.score = an[k].score;
                    a.n_ops = 1;
                    a.cigar = &op;
                    write_alignment(stdout, &os, &t[0], &q[r], NULL, strand, &a);
                }
                free(an);
                continue;
            }
            qs = malloc(q[r].len + 1);
            for (size_t k = 0; k < q[r].len; k++)
                qs[k] = s == 0 ? q[r].seq[k] : complement(q[r].seq[q[r].len - 1 - k]);
            p.flags = (p.flags & ~GALE_LASTZ_MINUS) | (s ? GALE_LASTZ_MINUS : 0);
            st = gale_lastz_extend(ctx, t[0].seq, (int64_t)t[0].len, qs, (int64_t)q[r].len, an, n, &p, &res);
            free(an);
            if (st != GALE_OK) {
                free(qs);
                gale_msg("gapped extension", st);
                goto done;
            }
            if (gale_lastz_result_truncations(res))
                msg("warning: %" PRIu64 " extensions of %s%c were cut where LASTZ's traceback memory ran out "
                    "(as lastz does; --allocate:traceback=0 lifts it)",
                    gale_lastz_result_truncations(res), q[r].name, strand);
            os.contig = q[r].contig;
            if (os.lav && gale_lastz_result_count(res)) lav_strand_header(stdout, &os, &t[0], &q[r], strand);
            if ((os.sam == 1 || os.sam == 3) && !os.sq_done && gale_lastz_result_count(res)) {
                printf("@SQ\tSN:%s\tLN:%zu\n", t[0].name, t[0].true_len);
                os.sq_done = 1;
            }
            for (size_t k = 0; k < gale_lastz_result_count(res); k++) {
                gale_lastz_alignment a;
                a.size = sizeof a;
                gale_lastz_result_get(res, k, &a);
                write_alignment(stdout, &os, &t[0], &q[r], qs, strand, &a);
            }
            gale_lastz_result_free(res);
            free(qs);
        }
    }
    if (cursor < ns) {
        /* lastz: "extra segments in file" (after writing what came before, as gale has) */
        msg("%s line %ld: segment for %s%c out of order: segments must appear in the order of the query "
            "file's records, each record's + strand segments before its - strand ones (as lastz requires)",
            segpath, segs[cursor].line, segs[cursor].name2, segs[cursor].strand);
        fflush(stdout);
        goto done;
    }
    if (os.lav) printf("m {\n  n 0\n}\n#:eof\n"); /* print_m_stanza (no census), the job footer */
    rc = stdout_status();
done:
    gale_ctx_destroy(ctx);
    for (long k = 0; k < nt; k++) { free(t[k].name); free(t[k].header); free(t[k].seq); }
    for (long k = 0; k < nq; k++) { free(q[k].name); free(q[k].header); free(q[k].seq); }
    for (long k = 0; k < ns; k++) { free(segs[k].name1); free(segs[k].name2); }
    free(t);
    free(q);
    free(segs);
    return rc;
}
