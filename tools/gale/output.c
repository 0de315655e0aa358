/*
 * gale CLI: the output file and the writers (output.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <htslib/khash.h>

#include "options.h"

/* ------------------------------------------------------------------ */
/* The output file                                                     */
/* ------------------------------------------------------------------ */

/* mkstemp on path + suffix (suffix ends in XXXXXX): the descriptor, or -1
 * with *made NULL. *made is the name, to free. */
static int make_temp(const char *path, const char *suffix, char **made)
{
    size_t n = strlen(path), m = strlen(suffix);
    char *tmp = malloc(n + m + 1);
    int fd;
    *made = NULL;
    if (!tmp)
        return -1;
    memcpy(tmp, path, n);
    memcpy(tmp + n, suffix, m + 1);
    fd = mkstemp(tmp);
    *made = tmp;
    return fd;
}

/* -o FILE is written to a temporary FILE.tmp.XXXXXX next to it and renamed
 * over FILE only when the whole run succeeded (output_close), so that FILE is
 * either untouched or complete. */
static FILE *output_open(const char *path, char **tmp_out)
{
    char *tmp;
    int fd;
    FILE *out;
    mode_t mask;
    *tmp_out = NULL;
    fd = make_temp(path, ".tmp.XXXXXX", &tmp);
    if (!tmp) {
        msg("out of memory");
        return NULL;
    }
    if (fd < 0) {
        msg("%s: cannot create a temporary file next to it: %s", path, strerror(errno));
        free(tmp);
        return NULL;
    }
    /* mkstemp creates the file 0600: give it the usual 0666 & ~umask */
    mask = umask(0);
    umask(mask);
    if (fchmod(fd, (mode_t)(0666 & ~mask)) != 0) {
        /* not fatal: the file stays private */
    }
    out = fdopen(fd, "w");
    if (!out) {
        msg("%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    *tmp_out = tmp;
    return out;
}

/* Closes what output_open opened and, when rc is EXIT_OK, renames it to
 * path; else removes it. Frees tmp; returns the final status. */
static int output_close(FILE *out, char *tmp, const char *path, int rc)
{
    if (fclose(out) != 0 && rc == EXIT_OK) {
        msg("%s: write error: %s", path, strerror(errno));
        rc = EXIT_FAIL;
    }
    if (rc == EXIT_OK && rename(tmp, path) != 0) {
        msg("%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
        rc = EXIT_FAIL;
    }
    if (rc != EXIT_OK)
        unlink(tmp);
    free(tmp);
    return rc;
}

int out_open(out_file *o, const char *path)
{
    o->path = path;
    o->tmp = NULL;
    o->display = path ? path : "(stdout)";
    if (!path) {
        o->fp = stdout;
        return EXIT_OK;
    }
    o->fp = output_open(path, &o->tmp);
    return o->fp ? EXIT_OK : EXIT_FAIL;
}

int out_close(out_file *o, int rc)
{
    if (!o->fp)
        return rc;
    if (o->path) {
        rc = output_close(o->fp, o->tmp, o->path, rc);
        o->tmp = NULL;
    } else if ((fflush(o->fp) != 0 || ferror(o->fp)) && rc == EXIT_OK) {
        msg("%s: write error: %s", o->display, strerror(errno));
        rc = EXIT_FAIL;
    }
    o->fp = NULL;
    return rc;
}

/* ------------------------------------------------------------------ */
/* xdrop                                                               */
/* ------------------------------------------------------------------ */

int put_xdrop_tsv(FILE *out, uint64_t index, const gale_result *res)
{
    return fprintf(out, "%" PRIu64 "\t%" PRId32 "\t%" PRId32 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
                   "\t%" PRId64 "\n", index, res->score_left, res->score_right, res->score, res->h_begin,
                   res->h_end, res->v_begin, res->v_end);
}

/* ------------------------------------------------------------------ */
/* wfa: TSV, PAF, SAM records                                          */
/* ------------------------------------------------------------------ */

int put_cigar(kstring_t *s, const uint32_t *ops, size_t n, cigar_sum *sum)
{
    size_t i;
    memset(sum, 0, sizeof *sum);
    for (i = 0; i < n; i++) {
        uint32_t len = GALE_CIGAR_LEN(ops[i]), code = GALE_CIGAR_OP(ops[i]);
        switch (code) {
        case GALE_CIGAR_EQUAL:
            sum->match += len;
            break;
        case GALE_CIGAR_DIFF:
            sum->mismatch += len;
            break;
        case GALE_CIGAR_INS:
            sum->ins += len;
            sum->ins_runs++;
            break;
        case GALE_CIGAR_DEL:
            sum->del += len;
            sum->del_runs++;
            break;
        default:
            return -1;
        }
        kputuw(len, s);
        kputc(GALE_CIGAR_STR[code], s);
    }
    return 0;
}

/* index score cigar [pattern_begin pattern_end text_begin text_end] */
static void put_tsv(kstring_t *ln, int coords, const aln_rec *a)
{
    const gale_result *res = a->res;
    ksprintf(ln, "%" PRIu64 "\t%" PRId64 "\t", a->index, res->score);
    kputs(*a->cigar ? a->cigar : "*", ln);
    if (coords)
        ksprintf(ln, "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64, res->v_begin, res->v_end, res->h_begin,
                 res->h_end);
}

static void put_paf(kstring_t *ln, const aln_rec *a)
{
    const gale_result *res = a->res;
    const cigar_sum *s = &a->sum;
    ksprintf(ln, "%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t+\t%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
             "\t%" PRId64 "\t255\tNM:i:%" PRId64 "\tAS:i:%" PRId64,
             a->qname, a->plen, res->v_begin, res->v_end, a->tname, a->tlen, res->h_begin, res->h_end, s->match,
             s->match + s->mismatch + s->ins + s->del, s->mismatch + s->ins + s->del, a->as_score);
    if (*a->cigar) {
        kputs("\tcg:Z:", ln);
        kputs(a->cigar, ln);
    }
}

static void put_sam(kstring_t *ln, const aln_rec *a)
{
    const gale_result *res = a->res;
    const cigar_sum *s = &a->sum;
    const char *seq = a->seq ? a->seq : "*";
    const char *qual = a->qual ? a->qual : "*";
    /* mapped when the alignment covers at least one base of the text */
    if (a->tlen > 0 && s->match + s->mismatch + s->del > 0) {
        ksprintf(ln, "%s\t0\t%s\t%" PRId64 "\t255\t", a->qname, a->tname, res->h_begin + 1);
        if (res->v_begin > 0)
            ksprintf(ln, "%" PRId64 "S", res->v_begin);
        kputs(a->cigar, ln);
        if (res->v_end < a->plen)
            ksprintf(ln, "%" PRId64 "S", a->plen - res->v_end);
        ksprintf(ln, "\t*\t0\t0\t%s\t%s\tNM:i:%" PRId64 "\tAS:i:%" PRId64, seq, qual,
                 s->mismatch + s->ins + s->del, a->as_score);
    } else {
        ksprintf(ln, "%s\t4\t*\t0\t0\t*\t*\t0\t0\t%s\t%s\tAS:i:%" PRId64, a->qname, seq, qual, a->as_score);
    }
}

int put_aln(kstring_t *ln, int format, int coords, const aln_rec *a)
{
    if (format == FMT_TSV)
        put_tsv(ln, coords, a);
    else if (format == FMT_PAF)
        put_paf(ln, a);
    else
        put_sam(ln, a);
    return kputc('\n', ln) < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* wfa: SAM's header                                                   */
/* ------------------------------------------------------------------ */

KHASH_MAP_INIT_STR(sqmap, size_t)

typedef struct sq_entry {
    char *name;
    int64_t len;
    uint64_t hash;          /* of the case-folded sequence */
    uint64_t recno;         /* first record that named it */
} sq_entry;

static uint64_t fold_hash(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 'a' && c <= 'z')
            c = (unsigned char)(c - 'a' + 'A');
        h = (h ^ c) * 1099511628211ull;
    }
    return h;
}

int sq_init(sq_table *st)
{
    memset(st, 0, sizeof *st);
    st->map = kh_init(sqmap);
    if (!st->map) {
        msg("out of memory");
        return -1;
    }
    return 0;
}

int sq_add(sq_table *st, const char *name, const char *seq, size_t len, uint64_t recno, uint64_t *first)
{
    khiter_t it;
    int absent;
    uint64_t h = fold_hash(seq, len);
    sq_entry *e;
    it = kh_get(sqmap, st->map, name);
    if (it != kh_end(st->map)) {
        e = &st->e[kh_value(st->map, it)];
        *first = e->recno;
        return e->len != (int64_t)len || e->hash != h ? 1 : 0;
    }
    if (st->n == st->cap) {
        sq_entry *ne = grow_array(st->e, &st->cap, sizeof *ne, 1024);
        if (!ne)
            goto oom;
        st->e = ne;
    }
    e = &st->e[st->n];
    e->name = strdup(name);
    if (!e->name)
        goto oom;
    e->len = (int64_t)len;
    e->hash = h;
    e->recno = recno;
    it = kh_put(sqmap, st->map, e->name, &absent);
    if (absent < 0) {
        free(e->name);
        goto oom;
    }
    kh_value(st->map, it) = st->n;
    st->n++;
    return 0;
oom:
    msg("out of memory");
    return -1;
}

void sq_free(sq_table *st)
{
    size_t i;
    for (i = 0; i < st->n; i++)
        free(st->e[i].name);
    free(st->e);
    if (st->map)
        kh_destroy(sqmap, st->map);
    memset(st, 0, sizeof *st);
}

char *command_line(int argc, char **argv)
{
    kstring_t s = {0, 0, NULL};
    int i;
    size_t j;
    kputs("gale", &s);
    for (i = 0; i < argc; i++) {
        kputc(' ', &s);
        kputs(argv[i], &s);
    }
    for (j = 0; j < s.l; j++)
        if (s.s[j] == '\t' || s.s[j] == '\n' || s.s[j] == '\r')
            s.s[j] = ' ';
    return s.s;
}

int write_sam_header(const sq_table *sq, FILE *out, const char *cl)
{
    size_t i;
    fprintf(out, "@HD\tVN:1.6\tSO:unsorted\n");
    for (i = 0; i < sq->n; i++)
        fprintf(out, "@SQ\tSN:%s\tLN:%" PRId64 "\n", sq->e[i].name, sq->e[i].len);
    fprintf(out, "@PG\tID:gale\tPN:gale\tVN:%s\tCL:%s\n", gale_version_string(), cl);
    return ferror(out) ? -1 : 0;
}

int copy_stream(FILE *from, FILE *to)
{
    char buf[1 << 16];
    size_t n;
    if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, from)) > 0)
        if (fwrite(buf, 1, n, to) != n)
            return -1;
    return ferror(from) || ferror(to) ? -1 : 0;
}

FILE *sam_body_file(const char *output)
{
    const char *dir = getenv("TMPDIR");
    char *path;
    int fd;
    FILE *f;
    if (output) {
        fd = make_temp(output, ".body.tmp.XXXXXX", &path);
    } else {
        if (!dir || !*dir)
            dir = "/tmp";
        fd = make_temp(dir, "/gale-sam.XXXXXX", &path);
    }
    if (!path)
        return NULL;
    if (fd < 0) {
        msg("%s: cannot create a temporary file for the SAM records: %s", path, strerror(errno));
        free(path);
        return NULL;
    }
    unlink(path);
    f = fdopen(fd, "w+");
    if (!f) {
        msg("%s: %s", path, strerror(errno));
        close(fd);
    }
    free(path);
    return f;
}
