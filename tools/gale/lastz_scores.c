/*
 * gale lastz's numbers and scoring files (lastz_int.h): values as LASTZ 1.04.22's
 * utilities.c reads them (string_to_unitized_int), --scores=FILE as its
 * dna_utilities.c read_score_set reads it, and the score set as lastz prints it in the
 * headers and warns of it.
 */
#define _POSIX_C_SOURCE 200809L /* getline, ssize_t, fseeko, strdup */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "lastz_int.h"
#include "options.h"
#include "subcommands.h"

/* The number part of a unitized value (utilities.c string_to_unitized_int): a
 * last K, M or G (either case) sets *mult (by thousands, or by 1,024) and is cut off in buf;
 * a string too long for buf is parsed as it is (as there). */
static const char *unit_split(const char *s, char buf[20], int by_thousands, int64_t *mult)
{
    const size_t len = strlen(s);
    *mult = 1;
    if (len >= 20) return s;
    memcpy(buf, s, len + 1);
    if (len > 0) {
        const char u = buf[len - 1];
        const int64_t k = by_thousands ? 1000 : 1024;
        *mult = u == 'K' || u == 'k' ? k : u == 'M' || u == 'm' ? k * k : u == 'G' || u == 'g' ? k * k * k : 1;
        if (*mult != 1) buf[len - 1] = 0;
    }
    return buf;
}

int unitized_value(const char *s, int by_thousands, int32_t *out)
{
    char buf[20], extra;
    int64_t mult;
    const char *parse = unit_split(s, buf, by_thousands, &mult);
    int v;
    float vf;
    if (sscanf(parse, "%d%c", &v, &extra) == 1) {
        if (mult != 1 && (v > INT_MAX / mult || v < -(INT_MAX / mult))) return -1;
        *out = (int32_t)(v * mult);
        return 0;
    }
    if (sscanf(parse, "%f%c", &vf, &extra) != 1) return -1;
    /* lastz's test: the float product, then compared in double (2.0 times 2^30 overflows) */
    if ((vf > 0 && (double)(vf * (float)mult) > (double)INT_MAX) || (vf < 0 && (double)(-vf * (float)mult) > (double)INT_MAX))
        return -1;
    *out = (int32_t)(vf * (float)mult + .5);
    return 0;
}

int score_value(const char *s, int32_t *out)
{
    return unitized_value(s, 1, out);
}

/* blanks off both ends, in place */
static char *trim(char *s)
{
    char *e;
    while (*s == ' ' || *s == '\t' || *s == '\r') s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
    return s;
}

/* LASTZ's DNA alphabets (dna_utilities.c is_dna_alphabet): A C G T, then N, or a c g t,
 * or both (9 letters) */
static int dna_alphabet(const char *s)
{
    const size_t n = strlen(s);
    int m = 0;
    for (const char *p = "ACGT"; *p; p++) m += strchr(s, *p) != NULL;
    if (n == 4) return m == 4;
    if (n == 5) return m == 4 && strchr(s, 'N') != NULL;
    for (const char *p = "acgt"; *p; p++) m += strchr(s, *p) != NULL;
    if (n == 8) return m == 8;
    if (n == 9) return m == 8 && strchr(s, 'N') != NULL;
    return 0;
}

int read_scores(const char *path, lastz_scores *sc)
{
    FILE *f = fopen(path, "r");
    char *line = NULL, *l;
    size_t cap = 0;
    long lineno = 0;
    int have_bad = 0, have_fill = 0, have_ball = 0, stage = 0;
    int fields = -1, rc = -1;
    int32_t values[LASTZ_SCORE_LABELS][LASTZ_SCORE_LABELS]; /* (by the labels' indices) */
    memset(sc, 0, sizeof *sc);
    sc->bad = -1000; /* LASTZ's defaults (blastz's) */
    sc->fill = -100;
    sc->gap_open = 400;
    sc->gap_extend = 30;
    if (!f) {
        msg("--scores: %s: %s", path, strerror(errno));
        return -1;
    }
    while (getline(&line, &cap, f) >= 0) {
        char *hash, *eq;
        lineno++;
        line[strcspn(line, "\n")] = 0;
        if ((hash = strchr(line, '#')) != NULL) *hash = 0;
        l = trim(line);
        if (!*l) continue;
        eq = stage == 0 ? strchr(l, '=') : NULL;
        if (eq) { /* a setting: each name once (lastz: a repeated one is an invalid name) */
            char *name, *val;
            int ok;
            *eq = 0;
            name = trim(l);
            val = trim(eq + 1);
#define IS(a) (strcmp(name, a) == 0)
            if (!have_bad && (IS("bad") || IS("bad_score"))) {
                /* [ROW:[COL:]]SCORE: gale takes X (the default) as the bad character */
                char *v2 = val, *colon;
                while ((colon = strchr(v2, ':')) != NULL) {
                    if (colon - v2 != 1 || *v2 != 'X') {
                        msg("--scores: %s line %ld: %s=%s: gale lastz takes X as the bad_score character only", path,
                            lineno, name, val);
                        goto done;
                    }
                    v2 = colon + 1;
                }
                ok = score_value(v2, &sc->bad) == 0;
                have_bad = 1;
            } else if (!have_fill && (IS("fill") || IS("fill_score"))) {
                ok = score_value(val, &sc->fill) == 0;
                have_fill = 1;
            } else if (!sc->have_gap_open && (IS("O") || IS("open") || IS("gap_open") || IS("gap_open_penalty"))) {
                ok = score_value(val, &sc->gap_open) == 0;
                sc->have_gap_open = 1;
            } else if (!sc->have_gap_extend &&
                       (IS("E") || IS("extend") || IS("gap_extend") || IS("gap_extend_penalty"))) {
                ok = score_value(val, &sc->gap_extend) == 0;
                sc->have_gap_extend = 1;
            } else if (!sc->have_hsp && (IS("K") || IS("hsp_thresh") || IS("hsp_threshold"))) {
                ok = score_value(val, &sc->hsp_thresh) == 0;
                sc->have_hsp = 1;
            } else if (!sc->have_gapped && (IS("L") || IS("gapped_thresh") || IS("gapped_threshold"))) {
                ok = score_value(val, &sc->gapped_thresh) == 0;
                sc->have_gapped = 1;
            } else if (!sc->have_x_drop && (IS("X") || IS("x_drop"))) {
                ok = score_value(val, &sc->x_drop) == 0 && sc->x_drop > 0;
                sc->have_x_drop = 1;
            } else if (!sc->have_y_drop && (IS("Y") || IS("y_drop"))) {
                ok = score_value(val, &sc->y_drop) == 0 && sc->y_drop > 0;
                sc->have_y_drop = 1;
            } else if (!sc->have_step && (IS("Z") || IS("step"))) { /* seeding's: no effect on the gapped stage */
                ok = score_value(val, &sc->step) == 0 && sc->step > 0;
                sc->have_step = 1;
            } else if (!have_ball && IS("ball")) { /* quantum DNA's: no effect here */
                int32_t b;
                ok = score_value(val, &b) == 0 && b > 0;
                have_ball = 1;
            } else if (!sc->have_seed && (IS("T") || IS("seed"))) { /* seeding's: no effect on the gapped stage */
                static const char *const seeds[] = {"1", "2", "3", "4", "12of19,transition", "12_of_19,transition",
                                                    "12of19,notransition", "12_of_19,no_transition",
                                                    "14of22,transition", "14_of_22,transition",
                                                    "14of22,notransition", "14_of_22,no_transition"};
                ok = 0;
                for (size_t k = IS("T") ? 0 : 4; k < (IS("T") ? 4u : sizeof seeds / sizeof seeds[0]); k++)
                    ok = ok || strcmp(val, seeds[k]) == 0;
                sc->have_seed = 1;
            } else if (IS("bottleneck")) {
                msg("--scores: %s line %ld: %s=%s: a bottleneck alphabet is for quantum DNA, which gale lastz does "
                    "not take", path, lineno, name, val);
                goto done;
            } else {
                msg("--scores: %s line %ld: invalid name in assignment %s=%s", path, lineno, name, val);
                goto done;
            }
#undef IS
            if (!ok) {
                msg("--scores: %s line %ld: invalid value in %s=%s", path, lineno, name, val);
                goto done;
            }
            continue;
        }
        if (stage == 0) { /* the column labels: single characters, a DNA alphabet (checked below) */
            for (char *tok = strtok(l, " \t"); tok; tok = strtok(NULL, " \t")) {
                if (tok[1] != 0 || !isgraph((unsigned char)tok[0])) {
                    msg("--scores: %s line %ld: column '%s': gale lastz takes a single character as a label", path,
                        lineno, tok);
                    goto done;
                }
                if (strchr(sc->cols, tok[0])) {
                    msg("--scores: %s line %ld: duplicate column '%s'", path, lineno, tok);
                    goto done;
                }
                if (sc->ncols == LASTZ_SCORE_LABELS - 1) {
                    msg("--scores: %s line %ld: %d columns or more: gale lastz takes matrices over a DNA alphabet "
                        "(A C G T, with N, a c g t or both)", path, lineno, sc->ncols + 1);
                    goto done;
                }
                sc->cols[sc->ncols++] = tok[0];
            }
            if (!dna_alphabet(sc->cols)) {
                msg("--scores: %s line %ld: columns %s: gale lastz takes matrices over a DNA alphabet (A C G T, with "
                    "N, a c g t or both), not quantum DNA", path, lineno, sc->cols);
                goto done;
            }
            stage = 1;
            continue;
        }
        { /* a row: [LABEL] then a score a column; without labels the rows follow the columns' order */
            char *tok[LASTZ_SCORE_LABELS + 1];
            int n = 0, r;
            for (char *t = strtok(l, " \t"); t; t = strtok(NULL, " \t")) {
                if (n == LASTZ_SCORE_LABELS + 1) break;
                tok[n++] = t;
            }
            if (fields < 0) {
                if (n != sc->ncols && n != sc->ncols + 1) {
                    msg("--scores: %s line %ld: wrong number of score columns", path, lineno);
                    goto done;
                }
                fields = n;
            } else if (n != fields) {
                msg("--scores: %s line %ld: inconsistent number of score columns", path, lineno);
                goto done;
            }
            if (fields == sc->ncols) {
                if (sc->nrows == sc->ncols) {
                    msg("--scores: %s line %ld: too many score rows", path, lineno);
                    goto done;
                }
                r = sc->cols[sc->nrows];
            } else if (tok[0][1] != 0 || !isgraph((unsigned char)tok[0][0])) {
                msg("--scores: %s line %ld: row '%s': gale lastz takes a single character as a label", path, lineno,
                    tok[0]);
                goto done;
            } else if (strchr(sc->rows, tok[0][0])) {
                msg("--scores: %s line %ld: duplicate row '%s'", path, lineno, tok[0]);
                goto done;
            } else if (sc->nrows == LASTZ_SCORE_LABELS - 1) {
                msg("--scores: %s line %ld: too many score rows for a DNA alphabet", path, lineno);
                goto done;
            } else {
                r = tok[0][0];
            }
            sc->rows[sc->nrows] = (char)r;
            for (int c = 0; c < sc->ncols; c++)
                if (score_value(tok[fields - sc->ncols + c], &values[sc->nrows][c]) != 0) {
                    msg("--scores: %s line %ld: '%s' is not a score", path, lineno, tok[fields - sc->ncols + c]);
                    goto done;
                }
            sc->nrows++;
        }
    }
    if (ferror(f)) {
        msg("--scores: %s: %s", path, strerror(errno));
    } else if (stage == 0 || sc->nrows == 0) {
        msg("--scores: %s: no score matrix", path);
    } else if (fields == sc->ncols && sc->nrows != sc->ncols) {
        msg("--scores: %s: not enough score rows", path);
    } else if (!dna_alphabet(sc->rows)) {
        msg("--scores: %s: rows %s: gale lastz takes matrices over a DNA alphabet (A C G T, with N, a c g t or both), "
            "not quantum DNA", path, sc->rows);
    } else if (sc->have_gap_open && (int64_t)sc->gap_open + sc->gap_extend <= 0) {
        msg("--scores: %s: %d is not a valid gap open penalty with extension penalty %d", path, sc->gap_open,
            sc->gap_extend);
    } else if (sc->have_gap_extend && sc->gap_extend < 0) {
        msg("--scores: %s: %d is not a valid gap extension penalty", path, sc->gap_extend);
    } else {
        /* the table in read_score_set's order: the fill score everywhere, the matrix, each
         * column's score copied to the column 32 bytes up (a to A's, n to N's, and a's to
         * byte 129: lastz adds 'a' - 'A' to every label), then each row likewise, the bad
         * row and column X (row and column 0, LASTZ's very bad ones, the library sets itself) */
        if ((sc->table = malloc(256 * 256 * sizeof *sc->table)) == NULL) {
            msg("--scores: %s: out of memory", path);
            goto done;
        }
        for (int k = 0; k < 256 * 256; k++) sc->table[k] = sc->fill;
        for (int r = 0; r < sc->nrows; r++)
            for (int c = 0; c < sc->ncols; c++)
                sc->table[(unsigned char)sc->rows[r] * 256 + (unsigned char)sc->cols[c]] = values[r][c];
        for (int c = 0; c < sc->ncols; c++)
            for (int r = 0; r < sc->nrows; r++) {
                const int row = (unsigned char)sc->rows[r], col = (unsigned char)sc->cols[c];
                sc->table[row * 256 + col + 'a' - 'A'] = sc->table[row * 256 + col];
            }
        for (int r = 0; r < sc->nrows; r++) {
            const int row = (unsigned char)sc->rows[r];
            memcpy(&sc->table[(row + 'a' - 'A') * 256], &sc->table[row * 256], 256 * sizeof *sc->table);
        }
        for (int k = 0; k < 256; k++) sc->table['X' * 256 + k] = sc->table[k * 256 + 'X'] = sc->bad;
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) sc->matrix[r][c] = sc->table["ACGT"[r] * 256 + "ACGT"[c]];
        rc = 0;
    }
done:
    free(line);
    fclose(f);
    return rc;
}

/* The matrix as lastz prints its score set (dna_utilities.c private_print_score_matrix):
 * the columns and rows in the scoring file's order (A C G T without a file), the lower-case
 * ones left out (the alphabets are DNA), each line after prefix; with row labels where
 * lastz prints its extras (axt, maf), without for lav. */
void print_matrix(const gale_lastz_params *p, const lastz_scores *sc, const char *prefix, int labels)
{
    printf("%s%s", prefix, labels ? "   " : " ");
    for (int c = 0; c < sc->ncols; c++)
        if (sc->cols[c] >= 'A' && sc->cols[c] <= 'Z') printf(" %4c", sc->cols[c]);
    printf("\n");
    for (int r = 0; r < sc->nrows; r++) {
        const int row = (unsigned char)sc->rows[r];
        if (row < 'A' || row > 'Z') continue;
        printf("%s ", prefix);
        if (labels) printf("%2c", row);
        for (int c = 0; c < sc->ncols; c++) {
            const int col = (unsigned char)sc->cols[c];
            if (col < 'A' || col > 'Z') continue;
            printf(" %4d", sc->table ? sc->table[row * 256 + col] : p->matrix[lastz_nuc(row)][lastz_nuc(col)]);
        }
        printf("\n");
    }
}

/* lastz's warning for a scoring file that sets no hsp threshold (lastz.c parse_options,
 * on stderr): a diagonal score below 70 or above 120 may not suit the default 3000 (its
 * scan: C, G, T each either a new minimum or else a new maximum) */
void scores_warning(const char *path, const int32_t m[4][4])
{
    char min_nuc = 'A', max_nuc = 'A';
    int32_t min_sub = m[0][0], max_sub = m[0][0];
    for (int k = 1; k < 4; k++) {
        if (m[k][k] < min_sub) min_sub = m[k][k], min_nuc = "ACGT"[k];
        else if (m[k][k] > max_sub) max_sub = m[k][k], max_nuc = "ACGT"[k];
    }
    if (min_sub < 70)
        fprintf(stderr, "WARNING.  Scores file may warrant setting of thresholds absent from %s.\n"
                        "Minimum match score is %d, for matrix entry (%c,%c).\n"
                        "This may not work well with default %s=%d (may result in few alignments).\n",
                path, min_sub, min_nuc, min_nuc, "--hspthresh", 3000);
    else if (max_sub > 120)
        fprintf(stderr, "WARNING.  Scores file may warrant setting of thresholds absent from %s.\n"
                        "Maximum match score is %d, for matrix entry (%c,%c).\n"
                        "This may not work well with default %s=%d (may result in too many alignments).\n",
                path, max_sub, max_nuc, max_nuc, "--hspthresh", 3000);
}
