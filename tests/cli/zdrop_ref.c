/*
 * zdrop_ref: the reference of the cli-zdrop test, independent of gale. Reads
 * PAIRS.tsv (query TAB target per line), calls minimap2 2.24's ksw2 from Debian's
 * libminimap2-dev exactly as minimap2 does (5x5 matrix from ksw_gen_simple_mat's rule,
 * bases through minimap2's table: A C G T either case 0..3, anything else 4, U as T as
 * gale reads it) and prints gale zdrop's TSV line per pair. Options: the subset of
 * gale zdrop's that the test uses, with minimap2's letters and defaults.
 *
 *   zdrop_ref [-A a] [-B b] [-O q[,q2]] [-E e[,e2]] [-z zdrop] [-r w] [-C noncan]
 *             [--end-bonus n] [--score-N n] [--flags HEX] [--splice]
 *             [--junc-bed BED] [--junc-bonus n] PAIRS.tsv
 *
 * --junc-bed: minimap2's own code reads the BED and marks the junctions: an index of
 * the targets named target0, target1, ... (gale zdrop's names for PAIRS.tsv's targets),
 * mm_idx_bed_read(mi, BED, 1) as minimap2's --junc-bed does, then mm_idx_bed_junc over
 * each whole target, reversed under KSW_EZ_REV_CIGAR as minimap2 reverses it with the
 * target for a left extension; ksw_exts2_sse gets the array and the bonus.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ksw2.h>
#include <minimap.h>

static int code(char c)
{
    switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': case 'U': case 'u': return 3;
    default: return 4;
    }
}

static void two(const char *s, int *a, int *b)
{
    const char *c = strchr(s, ',');
    *a = *b = atoi(s);
    if (c) *b = atoi(c + 1);
}

int main(int argc, char **argv)
{
    int a = 2, b = 4, q = 4, q2 = 24, e = 2, e2 = 1, z = 400, w = 500, noncan = 9, end_bonus = -1, amb = 1;
    int junc_bonus = 9;
    const char *junc_bed = NULL;
    int flag = 0, splice = 0, i, given_a = 0, given_b = 0, given_q = 0, given_e = 0, given_z = 0;
    const char *path = NULL;
    for (i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : "0";
        if (!strcmp(o, "-A")) a = atoi(v), given_a = 1, i++;
        else if (!strcmp(o, "-B")) b = atoi(v), given_b = 1, i++;
        else if (!strcmp(o, "-O")) two(v, &q, &q2), given_q = 1, i++;
        else if (!strcmp(o, "-E")) two(v, &e, &e2), given_e = 1, i++;
        else if (!strcmp(o, "-z")) z = atoi(v), given_z = 1, i++;
        else if (!strcmp(o, "-r")) w = atoi(v), i++;
        else if (!strcmp(o, "-C")) noncan = atoi(v), i++;
        else if (!strcmp(o, "--end-bonus")) end_bonus = atoi(v), i++;
        else if (!strcmp(o, "--score-N")) amb = atoi(v), i++;
        else if (!strcmp(o, "--flags")) flag = (int)strtol(v, NULL, 16), i++;
        else if (!strcmp(o, "--splice")) splice = 1;
        else if (!strcmp(o, "--junc-bed")) junc_bed = v, i++;
        else if (!strcmp(o, "--junc-bonus")) junc_bonus = atoi(v), i++;
        else if (o[0] == '-') { fprintf(stderr, "zdrop_ref: unknown option %s\n", o); return 2; }
        else path = o;
    }
    if (splice) { /* minimap2's splice preset where not given */
        if (!given_a) a = 1;
        if (!given_b) b = 2;
        if (!given_q) q = 2, q2 = 32;
        if (!given_e) e = 1, e2 = 0;
        if (!given_z) z = 200;
        flag |= KSW_EZ_SPLICE_FOR | KSW_EZ_SPLICE_REV | KSW_EZ_SPLICE_FLANK;
    }
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) { fprintf(stderr, "zdrop_ref: cannot open %s\n", path ? path : "(none)"); return 2; }
    int8_t mat[25];
    for (int t = 0; t < 5; t++)
        for (int k = 0; k < 5; k++) mat[t * 5 + k] = (int8_t)(t == 4 || k == 4 ? -amb : t == k ? a : -b);
    char *line = NULL, **lines = NULL;
    size_t cap = 0, nl = 0, lcap = 0;
    ssize_t n;
    uint64_t index = 0;
    /* every line first: the index takes every target's name */
    while ((n = getline(&line, &cap, f)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (nl == lcap) lines = realloc(lines, (lcap = lcap ? 2 * lcap : 1024) * sizeof *lines);
        lines[nl++] = strdup(line);
    }
    mm_idx_t mi;
    memset(&mi, 0, sizeof mi);
    if (junc_bed) {
        mi.n_seq = (uint32_t)nl;
        mi.seq = calloc(nl ? nl : 1, sizeof *mi.seq);
        for (size_t k = 0; k < nl; k++) {
            char nm[32];
            snprintf(nm, sizeof nm, "target%zu", k);
            mi.seq[k].name = strdup(nm);
            mi.seq[k].len = (uint32_t)strlen(strchr(lines[k], '\t') ? strchr(lines[k], '\t') + 1 : "");
        }
        if (mm_idx_bed_read(&mi, junc_bed, 1) != 0) { fprintf(stderr, "zdrop_ref: cannot read %s\n", junc_bed); return 2; }
    }
    for (size_t li = 0; li < nl; li++) {
        free(line);
        line = lines[li];
        char *tab = strchr(line, '\t');
        if (!tab) { fprintf(stderr, "zdrop_ref: line %llu: no TAB\n", (unsigned long long)index + 1); return 2; }
        *tab = 0;
        int ql = (int)strlen(line), tl = (int)strlen(tab + 1);
        uint8_t *qs = malloc((size_t)ql + 1), *ts = malloc((size_t)tl + 1);
        for (int k = 0; k < ql; k++) qs[k] = (uint8_t)code(line[k]);
        for (int k = 0; k < tl; k++) ts[k] = (uint8_t)code(tab[1 + k]);
        uint8_t *junc = NULL;
        if (junc_bed) {
            junc = malloc((size_t)tl + 1);
            mm_idx_bed_junc(&mi, (int32_t)index, 0, tl, junc);
            for (int k = 0; (flag & KSW_EZ_REV_CIGAR) && k < tl / 2; k++) {
                uint8_t x = junc[k];
                junc[k] = junc[tl - 1 - k], junc[tl - 1 - k] = x;
            }
        }
        ksw_extz_t ez;
        memset(&ez, 0, sizeof ez);
        if (splice)
            ksw_exts2_sse(0, ql, qs, tl, ts, 5, mat, (int8_t)q, (int8_t)e, (int8_t)q2, (int8_t)noncan, z,
                          (int8_t)junc_bonus, flag, junc, &ez);
        else if (q == q2 && e == e2)
            ksw_extz2_sse(0, ql, qs, tl, ts, 5, mat, (int8_t)q, (int8_t)e, w, z, end_bonus, flag, &ez);
        else
            ksw_extd2_sse(0, ql, qs, tl, ts, 5, mat, (int8_t)q, (int8_t)e, (int8_t)q2, (int8_t)e2, w, z, end_bonus, flag, &ez);
        printf("%llu\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", (unsigned long long)index, (int)ez.max, ez.max_q,
               ez.max_t, ez.mqe, ez.mqe_t, ez.mte, ez.mte_q, ez.score, (int)ez.zdropped, ez.reach_end);
        for (int k = 0; k < ez.n_cigar; k++) printf("%u%c", ez.cigar[k] >> 4, "MIDN"[ez.cigar[k] & 0xf]);
        printf("%s\n", ez.n_cigar ? "" : "*");
        free(ez.cigar);
        free(qs);
        free(ts);
        free(junc);
        index++;
    }
    free(line);
    free(lines);
    fclose(f);
    if (junc_bed) {
        for (uint32_t k = 0; k < mi.n_seq; k++) free(mi.seq[k].name);
        free(mi.seq);
    }
    return 0;
}

/* The junction intervals mm_idx_bed_read hangs on mi.I: their type is private to
 * minimap2's index.c (and mm_idx_destroy would free an index this driver never built), so
 * they live until exit; LeakSanitizer (the ASan run of the cli suite) is told so. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:mm_idx_read_bed\n"; }
