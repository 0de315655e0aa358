/*
 * gale CLI: the input module (input.h): lines over htslib's BGZF streams, and
 * LOGAN's TSV, FASTA/FASTQ and .seq on them.
 *
 * FASTA/FASTQ are read here rather than with kseq.h: kseq counts no lines and
 * skips what precedes a header, and the CLI names the line of every bad record
 * and refuses such text (doc/cli.md).
 */
#define _POSIX_C_SOURCE 200809L

#include "input.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <htslib/hfile.h>

/* ------------------------------------------------------------------ */
/* Lines                                                               */
/* ------------------------------------------------------------------ */

int in_open(in_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->display = strcmp(path, "-") == 0 ? "(stdin)" : path;
    errno = 0;
    f->fp = bgzf_open(path, "r");
    if (!f->fp) {
        msg("%s: cannot open: %s", f->display, errno ? strerror(errno) : "unknown error");
        return EXIT_FAIL;
    }
    {
        struct stat st;
        int ok = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(path, &st);
        f->size = ok == 0 && S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
    }
    return 0;
}

double in_fraction(const in_file *f)
{
    if (!f->fp || f->size <= 0)
        return -1.0;
    /* where the file is read to (htslib reads ahead a block at most) */
    return (double)htell(f->fp->fp) / (double)f->size;
}

int in_close(in_file *f)
{
    int rc = 0;
    if (f->fp && bgzf_close(f->fp) != 0)
        rc = -1;
    f->fp = NULL;
    free(f->line.s);
    f->line.s = NULL;
    f->line.l = f->line.m = 0;
    return rc;
}

int in_close_checked(in_file *f)
{
    if (in_close(f) != 0) {
        msg("%s: error while closing the input", f->display);
        return EXIT_FAIL;
    }
    return 0;
}

/* Reports why f's stream stopped: a read error, compressed data that is cut
 * short or corrupt, or BGZF data without its end-of-file marker. htslib
 * keeps its own messages to itself (main sets its log level off), so this is
 * the one message the user gets, naming the line that could not be read.
 * Returns -1. */
static int read_failure(const in_file *f)
{
    const BGZF *fp = f->fp;
    uint64_t line = f->lineno + 1, recno = f->records ? f->nrec + 1 : 0;
    const char *kind = fp->is_gzip ? "gzip" : "BGZF";
    if (!fp->errcode && !fp->no_eof_block) /* bgzf_getline could not grow the line */
        in_error(f, line, recno, "out of memory");
    else if (!fp->errcode) /* the BGZF end-of-file marker is missing */
        in_error(f, line, recno,
                 "truncated BGZF input: the file ends without BGZF's end-of-file marker (%" PRIu64
                 " lines read)", f->lineno);
    else if (!fp->is_compressed)
        in_error(f, line, recno, "read error: %s", errno ? strerror(errno) : "unknown error");
    else if (fp->errcode & (BGZF_ERR_IO | BGZF_ERR_HEADER))
        /* htslib's IO error of a compressed stream: the file ended inside
         * the compressed data (a gzip stream or a BGZF block cut short) */
        in_error(f, line, recno, "truncated %s input: the file ends inside its compressed data (%" PRIu64
                 " lines read)", kind, f->lineno);
    else
        in_error(f, line, recno, "corrupt %s input: the compressed data cannot be decompressed (%" PRIu64
                 " lines read)", kind, f->lineno);
    return -1;
}

int in_getline(in_file *f)
{
    int r;
    errno = 0;
    r = bgzf_getline(f->fp, '\n', &f->line);
    /* bgzf_getline hands out what it has of a line before its stream fails:
     * ask the stream first, so that a cut line is not taken for a malformed
     * one */
    if (f->fp->errcode || r < -1 || (f->fp->is_compressed && !f->fp->is_gzip && f->fp->no_eof_block))
        return read_failure(f);
    if (r == -1)
        return 0;
    f->lineno++;
    if (f->line.l > 0 && f->line.s[f->line.l - 1] == '\r')
        f->line.s[--f->line.l] = '\0';
    return 1;
}

void in_error(const in_file *f, uint64_t line, uint64_t recno, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s:%" PRIu64 ": ", prog, f->display, line);
    if (recno)
        fprintf(stderr, "record %" PRIu64 ": ", recno);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void quote_field(char *dst, size_t cap, const char *s, size_t n)
{
    size_t i, j = 0;
    for (i = 0; i < n && j + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 32 && c < 127 && c != '\\') {
            dst[j++] = (char)c;
        } else {
            j += (size_t)snprintf(dst + j, cap - j, "\\x%02x", c);
        }
    }
    if (i < n && j + 4 <= cap) {
        memcpy(dst + j, "...", 3);
        j += 3;
    }
    dst[j < cap ? j : cap - 1] = '\0';
}

/* A short printable rendering of the start of the current line. */
static const char *line_excerpt(const in_file *f, char *buf, size_t cap)
{
    quote_field(buf, cap, f->line.s ? f->line.s : "", f->line.l);
    return buf;
}

/* ------------------------------------------------------------------ */
/* LOGAN's demo format                                                 */
/* ------------------------------------------------------------------ */

/* Complement of every byte gale accepts (ACGT, U, N and the IUPAC codes, in
 * either case; case is kept); 0 for any other byte. U complements to A. */
static unsigned char comp_table[256];

static void comp_table_init(void)
{
    static const char from[] = "ACGTUNRYSWKMBDHV";
    static const char to[]   = "TGCAANYRSWMKVHDB";
    size_t i;
    memset(comp_table, 0, sizeof comp_table);
    for (i = 0; from[i]; i++) {
        unsigned char f = (unsigned char)from[i], t = (unsigned char)to[i];
        comp_table[f] = t;
        comp_table[f + ('a' - 'A')] = (unsigned char)(t + ('a' - 'A'));
    }
}

/* Writes the reverse complement of s[0..n) to out. Returns -1 and the
 * offending position (in s) on a byte outside the alphabet. */
static int revcomp(const char *s, size_t n, char *out, size_t *bad)
{
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned char c = comp_table[(unsigned char)s[i]];
        if (!c) {
            *bad = i;
            return -1;
        }
        out[n - 1 - i] = (char)c;
    }
    return 0;
}

int logan_open(logan_reader *rd, const char *path)
{
    rd->rc_buf = NULL;
    rd->rc_cap = 0;
    comp_table_init();
    return in_open(&rd->f, path);
}

int logan_close(logan_reader *rd, int check)
{
    free(rd->rc_buf);
    rd->rc_buf = NULL;
    rd->rc_cap = 0;
    if (!check) {
        in_close(&rd->f);
        return 0;
    }
    return in_close_checked(&rd->f);
}

#define LINE_ERR(rd, ...) in_error(&(rd)->f, (rd)->f.lineno, 0, __VA_ARGS__)

/* A position field (posV or posH: name is "V" or "H"), read by the number
 * parser the options use: 0, or -1 after a message. */
static int pos_field(logan_reader *rd, const char *name, const char *s, size_t n, int64_t *pos)
{
    char q[64], why[160];
    int r = parse_number(s, n, 0, INT64_MAX, pos);
    if (r != NUM_OK) {
        quote_field(q, sizeof q, s, n);
        LINE_ERR(rd, "invalid pos%s '%s': %s", name, q, number_problem(r, s, n, 0, INT64_MAX, why, sizeof why));
        return -1;
    }
    return 0;
}

/* The seed [pos, pos+k) must lie in the sequence: 0, or -1 after a message. */
static int check_seed_end(logan_reader *rd, const char *name, int64_t pos, int64_t k, size_t len)
{
    if (pos > (int64_t)len || k > (int64_t)len - pos) {
        LINE_ERR(rd, "seed [pos%s, pos%s+k) = [%" PRId64 ", %" PRIu64 ") runs past the end of seq%s (length %zu)",
                 name, name, pos, (uint64_t)pos + (uint64_t)k, name, len);
        return -1;
    }
    return 0;
}

/* Parses the current line into a task: 0, or -1 after a message. */
static int parse_line(logan_reader *rd, int64_t k, gale_task *t)
{
    char *s = rd->f.line.s;
    size_t len = rd->f.line.l;
    const char *f[5];
    size_t fl[5];
    size_t nf = 0, i, start = 0;
    int64_t posv, posh;
    size_t lenv, lenh;
    char q[64];

    if (len == 0) {
        LINE_ERR(rd, "empty line (expected 5 TAB-separated fields: seqV posV seqH posH strand)");
        return -1;
    }
    for (i = 0; i <= len; i++) {
        if (i == len || s[i] == '\t') {
            if (nf < 5) {
                f[nf] = s + start;
                fl[nf] = i - start;
            }
            nf++;
            start = i + 1;
        }
    }
    if (nf != 5) {
        /* a header line where pairs belong: say which command reads it */
        int seqfile = nf == 1 && (s[0] == '>' || s[0] == '@');
        LINE_ERR(rd, "expected 5 TAB-separated fields (seqV posV seqH posH strand), found %zu%s", nf,
                 seqfile ? " (a FASTA, FASTQ or .seq line? gale wfa reads those)" : "");
        return -1;
    }
    lenv = fl[0];
    lenh = fl[2];

    if (pos_field(rd, "V", f[1], fl[1], &posv) != 0 || pos_field(rd, "H", f[3], fl[3], &posh) != 0)
        return -1;
    if (fl[4] != 1 || (f[4][0] != 'n' && f[4][0] != 'c')) {
        quote_field(q, sizeof q, f[4], fl[4]);
        LINE_ERR(rd, "strand must be 'n' or 'c', found '%s'", q);
        return -1;
    }
    if (check_seed_end(rd, "V", posv, k, lenv) != 0 || check_seed_end(rd, "H", posh, k, lenh) != 0)
        return -1;

    gale_task_init(t);
    t->v = f[0];
    t->v_len = (int64_t)lenv;
    t->v_begin = posv;
    t->v_end = posv + k;
    t->h_len = (int64_t)lenh;
    if (f[4][0] == 'c') {
        size_t bad = 0;
        if (lenh > rd->rc_cap) {
            size_t cap = lenh + lenh / 2 + 64;
            char *nb = realloc(rd->rc_buf, cap);
            if (!nb) {
                LINE_ERR(rd, "out of memory");
                return -1;
            }
            rd->rc_buf = nb;
            rd->rc_cap = cap;
        }
        if (revcomp(f[2], lenh, rd->rc_buf, &bad) != 0) {
            unsigned char c = (unsigned char)f[2][bad];
            if (c >= 33 && c < 127)
                LINE_ERR(rd, "invalid base '%c' in seqH at position %zu (0-based)", c, bad);
            else
                LINE_ERR(rd, "invalid byte 0x%02x in seqH at position %zu (0-based)", c, bad);
            return -1;
        }
        t->h = rd->rc_buf;
        /* BELLA's transform: the seed moves to the reverse complement */
        posh = (int64_t)lenh - posh - k;
    } else {
        t->h = f[2];
    }
    t->h_begin = posh;
    t->h_end = posh + k;
    return 0;
}

int logan_read(logan_reader *rd, int64_t k, gale_task *t)
{
    int r = in_getline(&rd->f);
    if (r <= 0)
        return r;
    return parse_line(rd, k, t) == 0 ? 1 : -1;
}

/* ------------------------------------------------------------------ */
/* FASTA / FASTQ                                                       */
/* ------------------------------------------------------------------ */

void seq_rec_free(seq_rec *r)
{
    free(r->name.s);
    free(r->seq.s);
    free(r->qual.s);
    memset(r, 0, sizeof *r);
}

static int set_kstr(kstring_t *k, const char *s, size_t n)
{
    k->l = 0;
    if (kputsn(s, n, k) < 0)
        return -1;
    return 0;
}

/* The name of a FASTA/FASTQ record: the header up to the first blank. */
static int take_name(seq_rec *r, const char *h, size_t n)
{
    size_t i = 0;
    while (i < n && h[i] != ' ' && h[i] != '\t')
        i++;
    return set_kstr(&r->name, h, i);
}

/* The quality lines of a FASTQ record, after its '+' line, until there are
 * as many values as bases. seq_lines: the lines its sequence took. A line
 * starting with '@' that cannot be quality is the next record's header: the
 * quality was shorter than the sequence, and the message says so rather
 * than what reading on would find. 0, or -1 after a message. */
static int fq_qual(in_file *f, seq_rec *r, uint64_t recno, uint64_t seq_lines)
{
    size_t i;
    uint64_t qual_lines = 0;
    int k;
    while (r->qual.l < r->seq.l) {
        k = in_getline(f);
        if (k < 0)
            return -1;
        if (k == 0) {
            in_error(f, r->line, recno, "truncated FASTQ record '%s': the file ends after %zu quality values for %zu bases",
                     r->name.s, r->qual.l, r->seq.l);
            return -1;
        }
        /* '@' is a quality value too (Q31), so only a line that cannot be
         * this record's quality is taken for the next header: after a
         * quality line, one that overshoots the sequence's length, or any
         * line at all when the sequence took one line (wrapped quality
         * follows wrapped sequence) */
        if (qual_lines > 0 && f->line.l > 0 && f->line.s[0] == '@' &&
            (seq_lines <= 1 || r->qual.l + f->line.l > r->seq.l)) {
            in_error(f, r->line, recno,
                     "FASTQ record '%s': its quality is shorter than its sequence (%zu values for %zu bases); line %"
                     PRIu64 " is the next record's header", r->name.s, r->qual.l, r->seq.l, f->lineno);
            return -1;
        }
        if (kputsn(f->line.s, f->line.l, &r->qual) < 0) {
            in_error(f, f->lineno, recno, "out of memory");
            return -1;
        }
        qual_lines++;
    }
    if (r->qual.l > r->seq.l) {
        in_error(f, r->line, recno, "FASTQ record '%s': its quality is longer than its sequence (%zu values for %zu bases)",
                 r->name.s, r->qual.l, r->seq.l);
        return -1;
    }
    for (i = 0; i < r->qual.l; i++) {
        unsigned char c = (unsigned char)r->qual.s[i];
        if (c < 33 || c > 126) {
            in_error(f, r->line, recno, "FASTQ record '%s': invalid quality byte 0x%02x at position %zu (0-based)",
                     r->name.s, c, i);
            return -1;
        }
    }
    return 0;
}

/* Reads one FASTA or FASTQ record (multi-line FASTA and FASTQ allowed; empty
 * lines between records are skipped). 1: a record; 0: end of file; -1: error
 * (reported). */
static int fx_read(in_file *f, seq_rec *r)
{
    char q[64];
    uint64_t recno = f->nrec + 1, seq_lines = 0;
    int k;
    char kind;

    if (!f->pending) {
        do {
            k = in_getline(f);
            if (k <= 0)
                return k;
        } while (f->line.l == 0);
    }
    f->pending = 0;
    kind = f->line.s[0];
    r->line = f->lineno;
    r->file = f;
    if (kind != '>' && kind != '@') {
        in_error(f, f->lineno, recno, "expected a FASTA ('>') or FASTQ ('@') header, found '%s'%s",
                 line_excerpt(f, q, sizeof q),
                 memchr(f->line.s, '\t', f->line.l) ? " (TAB-separated pairs are gale xdrop's input)" : "");
        return -1;
    }
    if (take_name(r, f->line.s + 1, f->line.l - 1) < 0)
        goto oom;
    r->seq.l = 0;
    r->qual.l = 0;
    r->has_qual = kind == '@';
    /* the sequence lines: up to the next header (FASTA) or the '+' line */
    for (;;) {
        k = in_getline(f);
        if (k < 0)
            return -1;
        if (k == 0) {
            if (kind == '>')
                break;
            in_error(f, r->line, recno, "truncated FASTQ record '%s': the file ends before its '+' line", r->name.s);
            return -1;
        }
        if (kind == '>' && f->line.l > 0 && f->line.s[0] == '>') {
            f->pending = 1;
            break;
        }
        if (kind == '@' && f->line.l > 0 && f->line.s[0] == '+')
            break;
        /* neither '<' nor '@' is a base: name what the line must be instead
         * of letting the library refuse a byte of it */
        if (kind == '>' && f->line.l > 0 && f->line.s[0] == '<') {
            in_error(f, f->lineno, recno,
                     "a '<TEXT' line: this is a .seq file (WFA2-lib's '>PATTERN' and '<TEXT' lines), which is "
                     "given alone: gale wfa [options] PAIRS.seq");
            return -1;
        }
        if (kind == '@' && f->line.l > 0 && f->line.s[0] == '@') {
            in_error(f, r->line, recno,
                     "FASTQ record '%s' has no '+' line: line %" PRIu64 " starts the next record before it",
                     r->name.s, f->lineno);
            return -1;
        }
        if (kputsn(f->line.s, f->line.l, &r->seq) < 0)
            goto oom;
        seq_lines++;
    }
    if (kind == '@' && fq_qual(f, r, recno, seq_lines) != 0)
        return -1;
    /* seq and qual as kstrings always are: NUL-terminated at their length, even
     * when empty after a longer record (r->seq.l = 0 above leaves its bytes) */
    if (kputsn("", 0, &r->seq) < 0 || kputsn("", 0, &r->qual) < 0)
        goto oom;
    f->nrec++;
    return 1;
oom:
    in_error(f, f->lineno, recno, "out of memory");
    return -1;
}

/* ------------------------------------------------------------------ */
/* .seq                                                                */
/* ------------------------------------------------------------------ */

/* The current line as the sequence of a .seq pair: mark ('>' pattern, '<'
 * text) then the bases. 0, or -1 after a message. */
static int seq_line(in_file *f, seq_rec *r, uint64_t recno, char mark, const char *what)
{
    char q[64];
    if (f->line.l == 0) {
        in_error(f, f->lineno, recno, "empty line (expected '%s')", what);
        return -1;
    }
    if (f->line.s[0] != mark) {
        in_error(f, f->lineno, recno, "expected a '%s' line, found '%s'%s", what, line_excerpt(f, q, sizeof q),
                 recno == 1 ? " (FASTA/FASTQ input takes two files: PATTERNS TEXTS)" : "");
        return -1;
    }
    r->line = f->lineno;
    r->file = f;
    r->has_qual = 0;
    r->name.l = 0;
    if (set_kstr(&r->seq, f->line.s + 1, f->line.l - 1) < 0) {
        in_error(f, f->lineno, recno, "out of memory");
        return -1;
    }
    return 0;
}

/* Reads one pair of a .seq file: a '>PATTERN' line, then a '<TEXT' line. */
static int seqfile_read(in_file *f, seq_rec *p, seq_rec *t)
{
    uint64_t recno = f->nrec + 1;
    int k = in_getline(f);
    if (k <= 0)
        return k;
    if (seq_line(f, p, recno, '>', ">PATTERN") != 0)
        return -1;
    k = in_getline(f);
    if (k < 0)
        return -1;
    if (k == 0) {
        in_error(f, p->line, recno, "'>PATTERN' line without its '<TEXT' line (truncated file?)");
        return -1;
    }
    if (seq_line(f, t, recno, '<', "<TEXT") != 0)
        return -1;
    f->nrec++;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Pairs                                                               */
/* ------------------------------------------------------------------ */

int pair_open(pair_reader *rd, const char *const *paths, int n)
{
    int i;
    rd->nfiles = n;
    rd->opened = 0;
    for (i = 0; i < n; i++) {
        if (in_open(&rd->f[i], paths[i]) != 0)
            return EXIT_FAIL;
        rd->f[i].records = 1;
        rd->opened = i + 1;
    }
    return 0;
}

int pair_close(pair_reader *rd, int check)
{
    int i, rc = 0;
    for (i = 0; i < rd->opened; i++) {
        if (!check)
            in_close(&rd->f[i]);
        else if (in_close_checked(&rd->f[i]) != 0)
            rc = EXIT_FAIL;
    }
    rd->opened = 0;
    return rc;
}

int read_pair(pair_reader *rd, seq_rec *p, seq_rec *t)
{
    int a, b;
    if (rd->nfiles == 1)
        return seqfile_read(&rd->f[0], p, t);
    a = fx_read(&rd->f[0], p);
    if (a < 0)
        return -1;
    b = fx_read(&rd->f[1], t);
    if (b < 0)
        return -1;
    if (a == b)
        return a;
    {
        in_file *shorter = a ? &rd->f[1] : &rd->f[0];
        in_file *longer = a ? &rd->f[0] : &rd->f[1];
        msg("%s has %" PRIu64 " records but %s has more: record %" PRIu64 " of %s (line %" PRIu64
            ") has no partner; PATTERNS and TEXTS must hold the same number of records",
            shorter->display, shorter->nrec, longer->display, longer->nrec, longer->display,
            a ? p->line : t->line);
    }
    return -1;
}

double pair_fraction(const pair_reader *rd)
{
    double read = 0.0, size = 0.0;
    int i;
    for (i = 0; i < rd->opened; i++) {
        if (rd->f[i].size <= 0)
            return -1.0;
        read += (double)htell(rd->f[i].fp->fp);
        size += (double)rd->f[i].size;
    }
    return size > 0.0 ? read / size : -1.0;
}
