/*
 * gale lastz's output formats (lastz_int.h), as LASTZ 1.04.22 writes them: lav, general
 * (its fields), cigar, axt, maf, sam, rdotplot and segments; and --format's parser.
 */
#define _POSIX_C_SOURCE 200809L /* getline, ssize_t */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "lastz_int.h"
#include "options.h"
#include "subcommands.h"

/* general fields */
enum { F_SCORE, F_NAME1, F_STRAND1, F_SIZE1, F_START1, F_ZSTART1, F_END1, F_NAME2, F_STRAND2, F_SIZE2, F_START2,
       F_ZSTART2, F_END2, F_START2P, F_ZSTART2P, F_END2P, F_IDENTITY, F_IDFRAC, F_IDPCT, F_COVERAGE, F_COVFRAC,
       F_COVPCT, F_CIGAR, F_NUMBER1, F_NUMBER2, F_LENGTH1, F_LENGTH2, F_ALIGN1, F_TEXT1, F_ALIGN2, F_TEXT2, F_NMATCH,
       F_NMISMATCH, F_NPAIR, F_NCOLUMN, F_NGAP, F_CGAP, F_DIFF, F_CIGARL, F_DIAGONAL, F_BLASTID, F_CONTINUITY,
       F_CONFRAC, F_CONPCT, F_GAPRATE, F_NUCS1, F_NUCS2, F_NUMBER, F_ZNUMBER, F_NA, F_CIGARX, F_CIGARXL, F_CIGARX1,
       F_CIGARX1L, F_QUALS1, F_QUALS2, F_CHORE, F_SHINGLE, F_PHASH, F_AHASH, F_QALIGN1, F_QALIGN2, F_HSPID, F_N };
/* LASTZ's field names (genpaf.h genpafName), then its aliases (genpafAliases) */
static const char *const field_names[F_N] = {
    "score", "name1", "strand1", "size1", "start1", "zstart1", "end1", "name2", "strand2", "size2", "start2",
    "zstart2", "end2", "start2+", "zstart2+", "end2+", "identity", "idfrac", "id%", "coverage", "covfrac", "cov%",
    "cigar", "number1", "number2", "length1", "length2", "align1", "text1", "align2", "text2", "nmatch", "nmismatch",
    "npair", "ncolumn", "ngap", "cgap", "diff", "cigar-", "diagonal", "blastid%", "continuity", "confrac", "con%",
    "gaprate", "nucs1", "nucs2", "number", "znumber", "NA", "cigarx", "cigarx-", "cigarx1", "cigarx1-", "quals1",
    "quals2", "chore", "shingle", "phash", "ahash", "qalign1", "qalign2", "hspid"};
static const struct { const char *alias; int field; } field_aliases[] = {
    {"n1", F_NAME1}, {"s1", F_START1}, {"z1", F_ZSTART1}, {"e1", F_END1}, {"l1", F_LENGTH1}, {"a1", F_ALIGN1},
    {"t1", F_TEXT1}, {"n2", F_NAME2}, {"s2", F_START2}, {"z2", F_ZSTART2}, {"s2+", F_START2P}, {"z2+", F_ZSTART2P},
    {"e2", F_END2}, {"e2+", F_END2P}, {"l2", F_LENGTH2}, {"a2", F_ALIGN2}, {"t2", F_TEXT2}, {"d", F_DIAGONAL},
    {"diag", F_DIAGONAL}, {"s", F_SCORE}, {"id", F_IDENTITY}, {"ident", F_IDENTITY}, {"cov", F_COVERAGE},
    {"con", F_CONTINUITY}, {"con%", F_CONPCT}, {"gap", F_GAPRATE}};
/* the header names LASTZ writes for them (genpaf.c print_genpaf_job_header; identity,
 * coverage, continuity and gaprate take two columns, NA none) */
static const char *const field_headers[F_N] = {
    "score", "name1", "strand1", "size1", "start1", "zstart1", "end1", "name2", "strand2", "size2", "start2",
    "zstart2", "end2", "start2+", "zstart2+", "end2+", "identity\tidPct", "idfrac", "id%", "coverage\tcovPct",
    "covfrac", "cov%", "cigar", "number1", "number2", "length1", "length2", "align1", "text1", "align2", "text2",
    "nmatch", "nmismatch", "npair", "ncolumn", "ngap", "cgap", "diff", "cigar-", "diagonal", "blastid%",
    "continuity\tconPct", "confrac", "con%", "gaprate\tgapPct", "nucs1", "nucs2", "number", "znumber", "",
    "cigarx", "cigarx-", "cigarx1", "cigarx1-", "quals1", "quals2", "chore", "shingle", "phash", "ahash", "qalign1",
    "qalign2", "hspid"};

static int nuc_bits(char c) { return lastz_nuc(toupper((unsigned char)c)); } /* case folded */

/* LASTZ's hassock_hash (utilities.c, a MurmurHash2 variant): the key's bytes taken from
 * its end, four at a time as big-endian words. */
static uint32_t hassock_hash(const unsigned char *key, uint32_t len)
{
    const uint32_t m = 0x87C10417;
    const unsigned char *data = key + len;
    uint32_t h = 0x5C3FC4D3 ^ len, k;
    while (data >= key + 4) {
        k = *(--data);
        k |= (uint32_t) * (--data) << 8;
        k |= (uint32_t) * (--data) << 16;
        k |= (uint32_t) * (--data) << 24;
        k *= m;
        k ^= k >> 24;
        k *= m;
        h *= m;
        h ^= k;
        len -= 4;
    }
    switch (len) {
    case 3: h ^= (uint32_t) * (--data) << 16; /* fall through */
    case 2: h ^= (uint32_t) * (--data) << 8;  /* fall through */
    case 1:
        h ^= *(--data);
        h *= m;
        break;
    default: break;
    }
    h ^= h >> 13;
    h *= m;
    h ^= h >> 15;
    return h;
}

static void put_u32_le(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}

/* phash and ahash (edit_script.c alignment_hash, as lastz's x86-64 build lays it out): the
 * hash of its struct ahtemp, the 32-bit words beg1 beg2 rcFlags1 end1 end2 rcFlags2 in
 * memory order (little-endian), the positions 1-based on the sequences as held (rel), the
 * query's flags 3 (reversed and complemented) on the - strand; ahash xors in the hash of
 * the edit script's ops (op | repeat << 2: insert 1, delete 2, substitute 3). */
static uint32_t alignment_hash(const gale_lastz_alignment *rel, char strand, int with_script)
{
    unsigned char key[24];
    uint32_t h;
    put_u32_le(key, rel->beg1);
    put_u32_le(key + 4, rel->beg2);
    put_u32_le(key + 8, 0);
    put_u32_le(key + 12, rel->end1);
    put_u32_le(key + 16, rel->end2);
    put_u32_le(key + 20, strand == '-' ? 3 : 0);
    h = hassock_hash(key, 24);
    if (with_script && rel->n_ops > 0) {
        unsigned char *ops = malloc((size_t)rel->n_ops * 4);
        if (!ops) return h; /* (out of memory: the hash of the positions alone) */
        for (uint32_t k = 0; k < rel->n_ops; k++) {
            const uint32_t op = GALE_CIGAR_OP(rel->cigar[k]);
            const uint32_t code = op == GALE_CIGAR_INS ? 1 : op == GALE_CIGAR_DEL ? 2 : 3;
            put_u32_le(ops + 4 * k, code | GALE_CIGAR_LEN(rel->cigar[k]) << 2);
        }
        h ^= hassock_hash(ops, rel->n_ops * 4);
        free(ops);
    }
    return h;
}

/* One run of a cigarx field: the count, then the letter (LASTZ's letterAfter); with
 * hide_singles a run of 1 is the letter alone. */
static void cigarx_run(FILE *out, uint32_t len, char op, int hide_singles)
{
    if (hide_singles && len == 1)
        fputc(op, out);
    else
        fprintf(out, "%u%c", len, op);
}

/* cigarx, cigarx-, cigarx1, cigarx1- (cigar.c print_cigar_align with markMismatches and
 * letterAfter): each run of substitutions as runs of = (the same A, C, G or T, either
 * case) and X (anything else: N against N too), each indel op as its target bases (D)
 * or its query bases (I), in the script's order; cigarx writes a run of 1 as the letter alone
 * (hideSingles), cigarx1 with its count. The - forms in lower case (x, d, i), except
 * cigarx1-: lastz 1.04.22 asks for lower case only when the field is cigarx- (genpaf.c),
 * so cigarx1- comes out as cigarx1. s1, s2: the target and query at the alignment's start. */
static void print_cigarx(FILE *out, const char *s1, const char *s2, const gale_lastz_alignment *a, int hide_singles,
                         int lower)
{
    const char ch_x = lower ? 'x' : 'X', ch_d = lower ? 'd' : 'D', ch_i = lower ? 'i' : 'I';
    uint32_t k = 0;
    while (k < a->n_ops) {
        if (GALE_CIGAR_OP(a->cigar[k]) == GALE_CIGAR_MATCH) { /* a run of substitutions (ops in a row) */
            int mismatch = 0;
            uint32_t run = 0;
            for (; k < a->n_ops && GALE_CIGAR_OP(a->cigar[k]) == GALE_CIGAR_MATCH; k++) {
                for (uint32_t j = 0, len = GALE_CIGAR_LEN(a->cigar[k]); j < len; j++, s1++, s2++) {
                    const int b1 = nuc_bits(*s1), b2 = nuc_bits(*s2), mm = !(b1 == b2 && b1 >= 0);
                    if (run > 0 && mm != mismatch) {
                        cigarx_run(out, run, mismatch ? ch_x : '=', hide_singles);
                        run = 0;
                    }
                    mismatch = mm;
                    run++;
                }
            }
            if (run > 0) cigarx_run(out, run, mismatch ? ch_x : '=', hide_singles);
        } else { /* an indel op (edit_script_indel_len takes one op at a time) */
            const uint32_t len = GALE_CIGAR_LEN(a->cigar[k]);
            if (GALE_CIGAR_OP(a->cigar[k]) == GALE_CIGAR_INS) {
                s2 += len;
                cigarx_run(out, len, ch_i, hide_singles);
            } else {
                s1 += len;
                cigarx_run(out, len, ch_d, hide_singles);
            }
            k++;
        }
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

/* A FASTQ query's quality at x on the strand aligned (lastz reverses the qualities with the
 * bases for the - strand) */
static char strand_qual(const record *q, char strand, size_t x)
{
    return strand == '+' ? q->qual[x] : q->qual[q->len - 1 - x];
}

/* qalign2 (genpaf.c genpafQualsAlign2): the query's qualities along the alignment, '~'
 * against its gaps; '*' without qualities */
static void print_qalign2(FILE *out, const record *q, char strand, const gale_lastz_alignment *rel)
{
    size_t p = rel->beg2 - 1;
    if (!q->qual) {
        fputc('*', out);
        return;
    }
    for (uint32_t k = 0; k < rel->n_ops; k++) {
        const uint32_t op = GALE_CIGAR_OP(rel->cigar[k]), len = GALE_CIGAR_LEN(rel->cigar[k]);
        for (uint32_t j = 0; j < len; j++) fputc(op == GALE_CIGAR_DEL ? '~' : strand_qual(q, strand, p + j), out);
        if (op != GALE_CIGAR_DEL) p += len;
    }
}

/* diff (genpaf.c diff_char, default characters .:x--X) */
static void print_diff(FILE *out, const char *ch, const record *t, const char *qs, const gale_lastz_alignment *a)
{
    const char *p1 = t->seq + a->beg1 - 1, *p2 = qs + a->beg2 - 1;
    for (uint32_t k = 0; k < a->n_ops; k++) {
        const uint32_t op = GALE_CIGAR_OP(a->cigar[k]), len = GALE_CIGAR_LEN(a->cigar[k]);
        for (uint32_t j = 0; j < len; j++) {
            if (op == GALE_CIGAR_MATCH) {
                const int b1 = nuc_bits(p1[j]), b2 = nuc_bits(p2[j]);
                /* A G purines (0, 2), C T pyrimidines (1, 3) */
                fputc(b1 < 0 || b2 < 0 ? ch[5] : b1 == b2 ? ch[0] : (b1 & 1) == (b2 & 1) ? ch[1] : ch[2], out);
            } else {
                fputc(op == GALE_CIGAR_DEL ? ch[3] : ch[4], out); /* a target base, or a query base, against a gap */
            }
        }
        if (op != GALE_CIGAR_INS) p1 += len;
        if (op != GALE_CIGAR_DEL) p2 += len;
    }
}

/* lav (lav.c print_lav_header): once per query strand, before its first alignment */
void lav_strand_header(FILE *out, const out_spec *os, const record *t, const record *q, char strand)
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
    fputc('\t', out);
    /* print_query_quals: the qualities over the same bases ('*' without them) */
    if (!q->qual) fputc('*', out);
    else {
        const uint32_t from = soft ? 0 : rel->beg2 - 1, to = soft ? (uint32_t)q->len : rel->end2;
        for (uint32_t x = from; x < to; x++) fputc(strand_qual(q, strand, x), out);
    }
    fputc('\n', out);
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

const char *quals_field_missing(const out_spec *os, const record *t, const record *q)
{
    for (int k = 0; k < os->n_fields; k++) {
        if (os->fields[k] == F_QUALS1 && !t->qual) return "quals1";
        if (os->fields[k] == F_QUALS2 && !q->qual) return "quals2";
    }
    return NULL;
}

int qalign1_unset(const out_spec *os, const record *t)
{
    for (int k = 0; k < os->n_fields; k++)
        if (os->fields[k] == F_QALIGN1 && t->qual) return 1;
    return 0;
}

void write_alignment(FILE *out, out_spec *os, const record *t, const record *q, const char *qs, char strand,
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
        case F_CIGARX: case F_CIGARXL: case F_CIGARX1: case F_CIGARX1L:
            print_cigarx(out, t->seq + rel->beg1 - 1, qs + rel->beg2 - 1, a,
                         os->fields[k] == F_CIGARX || os->fields[k] == F_CIGARXL, os->fields[k] == F_CIGARXL);
            break;
        case F_CHORE: fputs("NA", out); break;                    /* (no chores file) */
        case F_QALIGN1: /* '*': a FASTQ target is refused with it (qalign1_unset) */
            fputc('*', out);
            break;
        case F_QALIGN2: print_qalign2(out, q, strand, rel); break;
        case F_QUALS1: /* the whole target as held, as nucs1 */
            if (t->qual) fwrite(t->qual, 1, t->len, out);
            else fputc('*', out);
            break;
        case F_QUALS2: /* the query as held, on the + strand whatever the alignment's (as nucs2) */
            if (q->qual) fwrite(q->qual, 1, q->len, out);
            else fputc('*', out);
            break;
        case F_SHINGLE: { /* genpaf.c: the diagonal's offset from the nearer corner, NA on the main one */
            const int64_t len1 = (int64_t)t->len, len2 = (int64_t)q->len;
            int64_t diag = (int64_t)a->beg1 - (int64_t)a->beg2;
            const int64_t se = len1 - diag, nw = len2 + diag;
            if (diag < 0) diag = nw < 0 || nw < len1 ? -nw : 0;
            else if (diag > 0) diag = se < 0 || se < len2 ? se : 0;
            if (diag == 0) fputs("NA", out);
            else fprintf(out, "%" PRId64, diag);
            break;
        }
        case F_PHASH: case F_AHASH:
            fprintf(out, "%08X", (unsigned)alignment_hash(rel, strand, os->fields[k] == F_AHASH));
            break;
        case F_NUMBER1: fprintf(out, "%ld", t->contig - 1); break;
        case F_NUMBER2: fprintf(out, "%ld", os->contig - 1); break;
        case F_HSPID: fprintf(out, "%" PRIu64, os->hspid); break;
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
        case F_DIFF: print_diff(out, os->diff_chars, t, qs, rel); break;
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

int parse_format(const char *v, out_spec *os)
{
    static const int defaults[] = {F_SCORE, F_NAME1, F_STRAND1, F_SIZE1, F_ZSTART1, F_END1, F_NAME2, F_STRAND2,
                                   F_SIZE2, F_ZSTART2, F_END2, F_IDENTITY, F_COVERAGE};
    memset(os, 0, sizeof *os);
    memcpy(os->diff_chars, ".:x--X", 7); /* genpaf.h genpafTDInfoDefault */
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
        if (f == F_N && len == 10 && strncmp(v, "diff", 4) == 0) {
            /* diffCCCCCC (genpaf.c parse_genpaf_keys): diff with its six characters */
            if (memchr(v + 4, ';', 6))
                return usage_error(CMD, "--format: the diff field cannot contain ';' (as lastz)") ? -2 : -2;
            memcpy(os->diff_chars, v + 4, 6);
            f = F_DIFF;
        }
        if (f == F_DIFF) { /* one diff field at most (lastz: "duplicate field name") */
            for (int x = 0; x < os->n_fields; x++)
                if (os->fields[x] == F_DIFF)
                    return usage_error(CMD, "--format: duplicate field name: diff (as lastz)") ? -2 : -2;
        }
        if (f == F_N) {
            if (len > 4 && strncmp(v, "diff", 4) == 0)
                return usage_error(CMD, "--format: '%.*s': diff takes six characters of its own, diffCCCCCC "
                                        "(match, transition, transversion, target base, query base, other)",
                                   (int)len, v) ? -2 : -2;
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

void print_general_header(FILE *out, const out_spec *os)
{
    fputc('#', out);
    for (int k = 0; k < os->n_fields; k++) fprintf(out, "%s%s", k ? "\t" : "", field_headers[os->fields[k]]);
    fputc('\n', out);
}
