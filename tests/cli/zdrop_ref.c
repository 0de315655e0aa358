/*
 * zdrop_ref: the reference of the cli-zdrop test, independent of gale. Reads
 * PAIRS.tsv (query TAB target per line), calls minimap2 2.24's ksw2 from Debian's
 * libminimap2-dev exactly as minimap2 does (5x5 matrix from ksw_gen_simple_mat's rule,
 * bases through minimap2's table: A C G T either case 0..3, anything else 4, U as T as
 * gale reads it) and prints gale zdrop's TSV line per pair. Options: the subset of
 * gale zdrop's that the test uses, with minimap2's letters and defaults.
 *
 *   zdrop_ref [-A a] [-B b] [-O q[,q2]] [-E e[,e2]] [-z zdrop] [-r w] [-C noncan]
 *             [--end-bonus n] [--score-N n] [--flags HEX] [--splice] PAIRS.tsv
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ksw2.h>

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
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint64_t index = 0;
    while ((n = getline(&line, &cap, f)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        char *tab = strchr(line, '\t');
        if (!tab) { fprintf(stderr, "zdrop_ref: line %llu: no TAB\n", (unsigned long long)index + 1); return 2; }
        *tab = 0;
        int ql = (int)strlen(line), tl = (int)strlen(tab + 1);
        uint8_t *qs = malloc((size_t)ql + 1), *ts = malloc((size_t)tl + 1);
        for (int k = 0; k < ql; k++) qs[k] = (uint8_t)code(line[k]);
        for (int k = 0; k < tl; k++) ts[k] = (uint8_t)code(tab[1 + k]);
        ksw_extz_t ez;
        memset(&ez, 0, sizeof ez);
        if (splice)
            ksw_exts2_sse(0, ql, qs, tl, ts, 5, mat, (int8_t)q, (int8_t)e, (int8_t)q2, (int8_t)noncan, z, 0, flag, 0, &ez);
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
        index++;
    }
    free(line);
    fclose(f);
    return 0;
}
