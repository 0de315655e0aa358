/*
 * gale zdrop --junc-bed (junc_bed.h). minimap2 2.24 reads the file with
 * mm_idx_read_bed(mi, fn, 1) and marks, for each extension, the introns that lie wholly
 * in the target window (mm_idx_bed_junc): 0x01 on an intron's first base and 0x02 on its
 * last on the '+' strand, 0x08 and 0x04 on '-', nothing without a strand. A BED12 line
 * (12 or more fields) gives the introns between its blocks, any other line its interval
 * [start, end) as one intron. gale zdrop's window is the whole target record.
 *
 * Where minimap2 reads a line it does not understand as best it can (atol, the first
 * character of the strand, block lists shorter than their count), this refuses it with
 * its line: the bits of every well-formed file are minimap2's. What minimap2 skips in
 * silence is skipped too: lines of names no target has (found out per target, as the
 * targets stream by), empty intervals, and comment, track and browser lines.
 */
#define _POSIX_C_SOURCE 200809L

#include "junc_bed.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <htslib/khash.h>

#include "gale.h"
#include "input.h"
#include "options.h"

typedef struct junc_intron {
    int64_t st, en; /* [st, en) on the target */
    int strand;     /* 1 '+', -1 '-' (unstranded ones are not kept: they mark nothing) */
} junc_intron;

typedef struct junc_target {
    junc_intron *a;
    size_t n, cap;
} junc_target;

KHASH_MAP_INIT_STR(juncmap, size_t)

struct junc_bed {
    khash_t(juncmap) *map; /* name (owned) -> index in t */
    junc_target *t;
    size_t n, cap;
};

#define BED_MAX_FIELDS 12

static int by_start(const void *x, const void *y)
{
    const junc_intron *a = x, *b = y;
    return a->st < b->st ? -1 : a->st > b->st ? 1 : a->en < b->en ? -1 : a->en > b->en;
}

/* The target called name, created when absent; NULL out of memory. */
static junc_target *target_of(junc_bed *jb, const char *name)
{
    int absent;
    khint_t k = kh_get(juncmap, jb->map, name);
    if (k != kh_end(jb->map))
        return &jb->t[kh_val(jb->map, k)];
    if (jb->n == jb->cap) {
        junc_target *nt = grow_array(jb->t, &jb->cap, sizeof *nt, 16);
        if (!nt)
            return NULL;
        jb->t = nt;
    }
    char *key = strdup(name);
    if (!key)
        return NULL;
    k = kh_put(juncmap, jb->map, key, &absent);
    if (absent < 0) {
        free(key);
        return NULL;
    }
    kh_val(jb->map, k) = jb->n;
    memset(&jb->t[jb->n], 0, sizeof jb->t[jb->n]);
    return &jb->t[jb->n++];
}

static int add_intron(junc_target *t, int64_t st, int64_t en, int strand)
{
    if (t->n == t->cap) {
        junc_intron *na = grow_array(t->a, &t->cap, sizeof *na, 16);
        if (!na)
            return -1;
        t->a = na;
    }
    t->a[t->n].st = st;
    t->a[t->n].en = en;
    t->a[t->n++].strand = strand;
    return 0;
}

/* The i-th number of a comma-separated BED12 list (field fnum, 1-based, for messages);
 * 0 or -1 after a message. */
static int list_item(const in_file *f, const char *list, int fnum, int64_t i, int64_t *out)
{
    const char *p = list;
    int64_t k;
    for (k = 0; k < i; k++) {
        p = strchr(p, ',');
        if (!p)
            break;
        p++;
    }
    size_t n = p ? strcspn(p, ",") : 0;
    if (!p || n == 0) {
        in_error(f, f->lineno, 0, "column %d lists fewer than the %" PRId64 " blocks column 10 gives", fnum, i + 1);
        return -1;
    }
    if (parse_number(p, n, 0, INT32_MAX, out) != NUM_OK) {
        char q[64];
        quote_field(q, sizeof q, p, n);
        in_error(f, f->lineno, 0, "column %d: block %" PRId64 ": '%s' is not a whole number in [0, 2^31-1]", fnum,
                 i + 1, q);
        return -1;
    }
    return 0;
}

/* One line: 0 (kept or skipped), 1 when it had a strand, -1 after a message. */
static int read_line(junc_bed *jb, const in_file *f, char *s)
{
    char *fld[BED_MAX_FIELDS];
    int nf = 0, strand = 0;
    int64_t st, en;
    char *p = s;
    if (*s == '\0' || *s == '#' || (strncmp(s, "track", 5) == 0 && strchr(" \t", s[5])) ||
        (strncmp(s, "browser", 7) == 0 && strchr(" \t", s[7])))
        return 0;
    while (nf < BED_MAX_FIELDS) {
        fld[nf++] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = '\0';
    }
    if (nf < 3) {
        in_error(f, f->lineno, 0, "expected at least 3 TAB-separated fields (name, start, end), found %d", nf);
        return -1;
    }
    if (*fld[0] == '\0') {
        in_error(f, f->lineno, 0, "empty target name in column 1");
        return -1;
    }
    for (int i = 1; i <= 2; i++) {
        int64_t *v = i == 1 ? &st : &en;
        if (parse_number(fld[i], strlen(fld[i]), 0, INT32_MAX, v) != NUM_OK) {
            char q[64];
            quote_field(q, sizeof q, fld[i], strlen(fld[i]));
            in_error(f, f->lineno, 0, "column %d (%s): '%s' is not a whole number in [0, 2^31-1]", i + 1,
                     i == 1 ? "start" : "end", q);
            return -1;
        }
    }
    if (st > en) {
        in_error(f, f->lineno, 0, "start %" PRId64 " is after end %" PRId64, st, en);
        return -1;
    }
    if (nf >= 6) {
        if (strcmp(fld[5], "+") == 0)
            strand = 1;
        else if (strcmp(fld[5], "-") == 0)
            strand = -1;
        else if (strcmp(fld[5], ".") != 0) {
            char q[64];
            quote_field(q, sizeof q, fld[5], strlen(fld[5]));
            in_error(f, f->lineno, 0, "column 6 (strand): '%s', expected +, - or .", q);
            return -1;
        }
    }
    int64_t nblk = 0, bst, bsz;
    if (nf >= 12 && parse_number(fld[9], strlen(fld[9]), 0, INT32_MAX, &nblk) != NUM_OK) {
        char q[64];
        quote_field(q, sizeof q, fld[9], strlen(fld[9]));
        in_error(f, f->lineno, 0, "column 10 (block count): '%s' is not a whole number", q);
        return -1;
    }
    /* the block lists are checked whole even where nothing is kept (messages name the line) */
    for (int64_t i = 0; i < nblk; i++)
        if (list_item(f, fld[10], 11, i, &bsz) != 0 || list_item(f, fld[11], 12, i, &bst) != 0)
            return -1;
    if (st == en || strand == 0) /* minimap2 skips the one, the other marks nothing */
        return strand != 0;
    junc_target *t = target_of(jb, fld[0]);
    if (!t)
        goto oom;
    if (nf < 12) {
        if (add_intron(t, st, en, strand) != 0)
            goto oom;
        return 1;
    }
    /* BED12: the introns between consecutive blocks (mm_idx_read_bed's loop) */
    if (nblk > 0) {
        int64_t end;
        list_item(f, fld[10], 11, 0, &bsz);
        list_item(f, fld[11], 12, 0, &bst);
        end = st + bst + bsz;
        for (int64_t i = 1; i < nblk; i++) {
            list_item(f, fld[10], 11, i, &bsz);
            list_item(f, fld[11], 12, i, &bst);
            if (st + bst > end && add_intron(t, end, st + bst, strand) != 0)
                goto oom;
            end = st + bst + bsz;
        }
    }
    return 1;
oom:
    msg("out of memory");
    return -1;
}

int junc_bed_read(const char *path, int warn, junc_bed **out)
{
    in_file f;
    junc_bed *jb = calloc(1, sizeof *jb);
    int r, stranded = 0, lines = 0;
    *out = NULL;
    if (!jb || !(jb->map = kh_init(juncmap))) {
        free(jb);
        msg("out of memory");
        return EXIT_FAIL;
    }
    if (in_open(&f, path) != 0) {
        junc_bed_free(jb);
        return EXIT_FAIL;
    }
    while ((r = in_getline(&f)) > 0) {
        int k = read_line(jb, &f, f.line.s);
        if (k < 0) {
            r = -1;
            break;
        }
        stranded += k;
        lines++;
    }
    if (r == 0 && in_close_checked(&f) != 0)
        r = -1;
    in_close(&f);
    if (r < 0) {
        junc_bed_free(jb);
        return EXIT_FAIL;
    }
    for (size_t i = 0; i < jb->n; i++)
        qsort(jb->t[i].a, jb->t[i].n, sizeof *jb->t[i].a, by_start);
    if (warn && lines > 0 && stranded == 0)
        msg("warning: %s: no line has a strand (+ or - in column 6): as in minimap2, such lines mark no junction",
            f.display);
    *out = jb;
    return 0;
}

static const junc_target *find(const junc_bed *jb, const char *name)
{
    khint_t k = kh_get(juncmap, jb->map, name);
    return k == kh_end(jb->map) ? NULL : &jb->t[kh_val(jb->map, k)];
}

int junc_bed_marks(const junc_bed *jb, const char *name, size_t len)
{
    const junc_target *t = find(jb, name);
    for (size_t i = 0; t && i < t->n && t->a[i].st < (int64_t)len; i++)
        if (t->a[i].en <= (int64_t)len)
            return 1;
    return 0;
}

void junc_bed_fill(const junc_bed *jb, const char *name, uint8_t *s, size_t len, int reverse)
{
    const junc_target *t = find(jb, name);
    memset(s, 0, len);
    /* mm_idx_bed_junc(mi, id, 0, len, s): only introns wholly in the window */
    for (size_t i = 0; t && i < t->n && t->a[i].st < (int64_t)len; i++) {
        const junc_intron *a = &t->a[i];
        if (a->en > (int64_t)len)
            continue;
        if (a->strand > 0)
            s[a->st] |= GALE_ZD_JUNC_FOR_DONOR, s[a->en - 1] |= GALE_ZD_JUNC_FOR_ACCEPTOR;
        else
            s[a->st] |= GALE_ZD_JUNC_REV_FIRST, s[a->en - 1] |= GALE_ZD_JUNC_REV_LAST;
    }
    for (size_t i = 0; reverse && i < len / 2; i++) {
        uint8_t x = s[i];
        s[i] = s[len - 1 - i];
        s[len - 1 - i] = x;
    }
}

void junc_bed_free(junc_bed *jb)
{
    if (!jb)
        return;
    if (jb->map) {
        for (khint_t k = kh_begin(jb->map); k != kh_end(jb->map); k++)
            if (kh_exist(jb->map, k))
                free((char *)kh_key(jb->map, k));
        kh_destroy(juncmap, jb->map);
    }
    for (size_t i = 0; i < jb->n; i++)
        free(jb->t[i].a);
    free(jb->t);
    free(jb);
}
