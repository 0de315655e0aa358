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
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <htslib/hfile.h>

#include "ranks.h"
#include "threads.h"

/* ------------------------------------------------------------------ */
/* Lines                                                               */
/* ------------------------------------------------------------------ */

static void input_msg(const char *fmt, ...) CLI_PRINTF(1, 2);

int in_open(in_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->display = strcmp(path, "-") == 0 ? "(stdin)" : path;
    errno = 0;
    f->fp = bgzf_open(path, "r");
    if (!f->fp) {
        input_msg("%s: cannot open: %s", f->display, errno ? strerror(errno) : "unknown error");
        return EXIT_FAIL;
    }
    {
        struct stat st;
        int ok = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(path, &st);
        f->size = ok == 0 && S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
        /* Under MPI each rank reads the whole input itself (ranks.h): a
         * stream read by several would give each a part, and mpirun gives
         * standard input to rank 0 alone */
        if (ranks_n() > 1 && (strcmp(path, "-") == 0 || ok != 0 || !S_ISREG(st.st_mode))) {
            input_msg("%s: not a regular file: under MPI every rank reads the whole input itself, which standard "
                      "input, a pipe or a FIFO cannot give %d processes", f->display, ranks_n());
            bgzf_close(f->fp);
            f->fp = NULL;
            return EXIT_FAIL;
        }
    }
    return 0;
}

double in_fraction(const in_file *f)
{
    if (!f->fp || f->size <= 0)
        return -1.0;
    /* where the file is read to (htslib reads ahead a block at most) */
    return (double)__atomic_load_n(&f->pos, __ATOMIC_RELAXED) / (double)f->size;
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
    free(f->carry.s);
    f->carry.s = NULL;
    f->carry.l = f->carry.m = 0;
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
    __atomic_store_n(&f->pos, (int64_t)htell(f->fp->fp), __ATOMIC_RELAXED);
    f->lineno++;
    if (f->line.l > 0 && f->line.s[f->line.l - 1] == '\r')
        f->line.s[--f->line.l] = '\0';
    return 1;
}

/* ------------------------------------------------------------------ */
/* Lines in bulk                                                       */
/* ------------------------------------------------------------------ */

/* Appends the line chunk's next offset (the end of the line just read). */
static int lc_push(line_chunk *lc)
{
    if (lc->nlines + 2 > lc->cap) {
        size_t *no = grow_array(lc->off, &lc->cap, sizeof *no, 1024);
        if (!no)
            return -1;
        lc->off = no;
    }
    lc->off[++lc->nlines] = lc->buf.l;
    return 0;
}

/* in_read_lines for plain (uncompressed) input: large reads straight into the
 * chunk (hread bypasses htslib's buffer for them), the lines cut in place, and
 * the piece of a line after the chunk's last kept for the next chunk. One copy
 * of each byte, where reading through BGZF's blocks makes three. */
static int64_t read_lines_plain(in_file *f, line_chunk *lc, size_t max_lines, size_t max_bytes, size_t per_record)
{
    BGZF *fp = f->fp;
    size_t scan = 0; /* bytes of buf already cut into lines */
    /* reads of 4 MiB, or less for small chunks */
    const size_t read_bytes = max_bytes < ((size_t)4 << 20) ? max_bytes + ((size_t)64 << 10) : (size_t)4 << 20;

    if (kputsn(f->carry.s ? f->carry.s : "", f->carry.l, &lc->buf) < 0)
        goto oom;
    f->carry.l = 0;
    for (;;) {
        char *nl;
        while ((nl = memchr(lc->buf.s + scan, '\n', lc->buf.l - scan)) != NULL) {
            *nl = '\0';
            scan = (size_t)(nl - lc->buf.s) + 1;
            if (lc_push(lc) < 0)
                goto oom;
            lc->off[lc->nlines] = scan;
            f->lineno++;
            if (lc->nlines % per_record == 0 && (lc->nlines >= max_lines || scan >= max_bytes))
                goto done;
        }
        if (f->eof) {
            if (scan < lc->buf.l) { /* a last line without its '\n' */
                if (kputc('\0', &lc->buf) < 0 || lc_push(lc) < 0)
                    goto oom;
                scan = lc->buf.l;
                f->lineno++;
            }
            goto done;
        }
        if (ks_resize(&lc->buf, lc->buf.l + read_bytes + 1) < 0)
            goto oom;
        if (fp->block_length > fp->block_offset) {
            /* what htslib read to find out the kind of file comes first */
            size_t n = (size_t)(fp->block_length - fp->block_offset);
            memcpy(lc->buf.s + lc->buf.l, (char *)fp->uncompressed_block + fp->block_offset, n);
            lc->buf.l += n;
            fp->block_offset = 0;
            fp->block_length = 0;
        } else {
            ssize_t n;
            errno = 0;
            n = hread(fp->fp, lc->buf.s + lc->buf.l, read_bytes);
            if (n < 0) {
                fp->errcode |= BGZF_ERR_IO;
                lc->failed = 1;
                lc->buf.l = scan;
                return (int64_t)lc->nlines;
            }
            if (n == 0)
                f->eof = 1;
            lc->buf.l += (size_t)n;
            __atomic_store_n(&f->pos, (int64_t)htell(fp->fp), __ATOMIC_RELAXED);
        }
    }
done:
    /* the rest waits for the next chunk (its lines are counted then) */
    f->carry.l = 0;
    if (kputsn(lc->buf.s + scan, lc->buf.l - scan, &f->carry) < 0)
        goto oom;
    lc->buf.l = scan;
    return (int64_t)lc->nlines;
oom:
    in_error(f, f->lineno + 1, 0, "out of memory");
    return -1;
}

int64_t in_read_lines(in_file *f, line_chunk *lc, size_t max_lines, size_t max_bytes, size_t per_record)
{
    BGZF *fp = f->fp;
    int partial = 0; /* bytes of an unfinished line are in buf */

    lc->buf.l = 0;
    lc->nlines = 0;
    lc->failed = 0;
    lc->first_line = f->lineno + 1;
    if (lc->cap == 0) {
        lc->off = grow_array(NULL, &lc->cap, sizeof *lc->off, 1024);
        if (!lc->off)
            goto oom;
    }
    lc->off[0] = 0;
    if (!fp->is_compressed)
        return read_lines_plain(f, lc, max_lines, max_bytes, per_record);
    while (partial || lc->nlines % per_record != 0 || (lc->nlines < max_lines && lc->buf.l < max_bytes)) {
        const char *blk, *nl;
        size_t avail, take;
        if (fp->block_length == 0) {
            errno = 0;
            if (bgzf_read_block(fp) != 0) {
                lc->failed = 1;
                break;
            }
            __atomic_store_n(&f->pos, (int64_t)htell(fp->fp), __ATOMIC_RELAXED);
            if (fp->block_length == 0) {
                /* BGZF data must end with its end-of-file marker (in_getline) */
                if (fp->is_compressed && !fp->is_gzip && fp->no_eof_block) {
                    lc->failed = 1;
                    break;
                }
                if (partial) { /* a last line without its '\n' */
                    if (kputc('\0', &lc->buf) < 0 || lc_push(lc) < 0)
                        goto oom;
                    f->lineno++;
                }
                break;
            }
        }
        blk = (const char *)fp->uncompressed_block + fp->block_offset;
        avail = (size_t)(fp->block_length - fp->block_offset);
        nl = memchr(blk, '\n', avail);
        take = nl ? (size_t)(nl - blk) + 1 : avail;
        if (kputsn(blk, take, &lc->buf) < 0)
            goto oom;
        fp->block_offset += (int)take;
        if (fp->block_offset >= fp->block_length) {
            /* as bgzf_getline leaves a used-up block: bgzf_read_block resets
             * the offset only for some kinds of stream */
            fp->block_offset = 0;
            fp->block_length = 0;
        }
        partial = !nl;
        if (nl) {
            lc->buf.s[lc->buf.l - 1] = '\0';
            if (lc_push(lc) < 0)
                goto oom;
            f->lineno++;
        }
    }
    if (lc->failed && partial) /* the piece of a line before the failure is not a line */
        lc->buf.l = lc->off[lc->nlines];
    return (int64_t)lc->nlines;
oom:
    in_error(f, f->lineno + 1, 0, "out of memory");
    return -1;
}

int in_report_failure(const in_file *f)
{
    return read_failure(f);
}

int64_t in_next_lines(in_file *f, int failed_before, line_chunk *lc, size_t max_lines, size_t max_bytes,
                      size_t per_record)
{
    int64_t n;
    if (failed_before) /* the failure after the last chunk */
        return in_report_failure(f);
    n = in_read_lines(f, lc, max_lines, max_bytes, per_record);
    if (n == 0 && lc->failed) /* nothing before the failure */
        return in_report_failure(f);
    return n;
}

void line_chunk_free(line_chunk *lc)
{
    free(lc->buf.s);
    free(lc->off);
    memset(lc, 0, sizeof *lc);
}

/* The gate of the reader thread's messages (in_hold_messages). */
enum { GATE_OPEN, GATE_HELD, GATE_MUTED };
static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int gate = GATE_OPEN;
static int muted; /* in_mute_messages: only the reader thread reads and sets it */

void in_hold_messages(void)
{
    pthread_mutex_lock(&gate_mu);
    gate = GATE_HELD;
    pthread_mutex_unlock(&gate_mu);
}

void in_release_messages(int print)
{
    pthread_mutex_lock(&gate_mu);
    gate = print ? GATE_OPEN : GATE_MUTED;
    pthread_cond_broadcast(&gate_cv);
    pthread_mutex_unlock(&gate_mu);
}

void in_mute_messages(int on)
{
    muted = on;
}

/* Waits while messages are held: 1 to print, 0 to drop. */
static int gate_pass(void)
{
    int pass;
    pthread_mutex_lock(&gate_mu);
    while (gate == GATE_HELD)
        pthread_cond_wait(&gate_cv, &gate_mu);
    pass = gate == GATE_OPEN;
    pthread_mutex_unlock(&gate_mu);
    return pass;
}

/* A message of the reader kept back (defer_messages): the record that
 * failed to read comes after pairs that are still to be checked by the
 * library, whose message, if any, must come first - as it would have when
 * records were added one at a time. Only the reader thread reads records. */
static int deferring; /* a depth: in_defer_messages and fx_read_chunk may nest */
static char *deferred;

/* Every message of the input module: "gale: TEXT" on stderr, through the
 * gate, or kept back while deferring (the first one). */
static void input_message(const char *fmt, va_list ap)
{
    char buf[1024];
    if (muted)
        return;
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (deferring) {
        if (!deferred)
            deferred = strdup(buf);
        return;
    }
    if (gate_pass())
        fprintf(stderr, "%s: %s\n", prog, buf);
}

static void input_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    input_message(fmt, ap);
    va_end(ap);
}

void in_defer_messages(int on)
{
    deferring += on ? 1 : -1;
}

void in_release_deferred(int print)
{
    char *m = deferred;
    deferred = NULL;
    if (m && print)
        input_msg("%s", m);
    free(m);
}

/* Prints the message kept back, if any: 1 when there was one. */
static int flush_deferred(void)
{
    char *m = deferred;
    if (!m)
        return 0;
    deferred = NULL;
    input_msg("%s", m);
    free(m);
    return 1;
}

void in_error(const in_file *f, uint64_t line, uint64_t recno, const char *fmt, ...)
{
    char text[900], rec[40] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (recno)
        snprintf(rec, sizeof rec, "record %" PRIu64 ": ", recno);
    input_msg("%s:%" PRIu64 ": %s%s", f->display, line, rec, text);
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

int logan_open(logan_reader *rd, const char *path)
{
    rd->failed = 0;
    comp_table_init();
    return in_open(&rd->f, path);
}

int logan_close(logan_reader *rd, int check)
{
    if (!check) {
        in_close(&rd->f);
        return 0;
    }
    return in_close_checked(&rd->f);
}

/* The parsers of lines below run on several threads at once: they write their
 * message into err[0..cap) and return -1, and the caller reports the first
 * failing line (in_error) once every thread is done. */
#define LINE_ERR(...) (snprintf(err, cap, __VA_ARGS__), -1)

/* A position field (posV or posH: name is "V" or "H"), read by the number
 * parser the options use: 0, or -1 with the message in err. */
static int pos_field(const char *name, const char *s, size_t n, int64_t *pos, char *err, size_t cap)
{
    char q[64], why[160];
    int r = parse_number(s, n, 0, INT64_MAX, pos);
    if (r != NUM_OK) {
        quote_field(q, sizeof q, s, n);
        return LINE_ERR("invalid pos%s '%s': %s", name, q, number_problem(r, s, n, 0, INT64_MAX, why, sizeof why));
    }
    return 0;
}

/* The seed [pos, pos+k) must lie in the sequence: 0, or -1 with the message. */
static int check_seed_end(const char *name, int64_t pos, int64_t k, size_t len, char *err, size_t cap)
{
    if (pos > (int64_t)len || k > (int64_t)len - pos)
        return LINE_ERR("seed [pos%s, pos%s+k) = [%" PRId64 ", %" PRIu64 ") runs past the end of seq%s (length %zu)",
                        name, name, pos, (uint64_t)pos + (uint64_t)k, name, len);
    return 0;
}

/* Reverse-complements s[0..n) where it is (no copy: the line is the
 * chunk's), after checking every byte: -1 and the first offending position
 * on a byte outside the alphabet, s unchanged. */
static int revcomp_in_place(char *s, size_t n, size_t *bad)
{
    size_t i, j;
    for (i = 0; i < n; i++) {
        if (!comp_table[(unsigned char)s[i]]) {
            *bad = i;
            return -1;
        }
    }
    for (i = 0, j = n; i < j--; i++) {
        char a = (char)comp_table[(unsigned char)s[i]];
        s[i] = (char)comp_table[(unsigned char)s[j]];
        s[j] = a;
    }
    return 0;
}

int logan_parse(char *s, size_t len, int64_t k, gale_task *t, char *err, size_t cap)
{
    const char *f[5];
    size_t fl[5];
    size_t nf = 0, i, start = 0;
    int64_t posv, posh;
    size_t lenv, lenh;
    char q[64];

    if (len > 0 && s[len - 1] == '\r')
        s[--len] = '\0';
    if (len == 0)
        return LINE_ERR("empty line (expected 5 TAB-separated fields: seqV posV seqH posH strand)");
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
        return LINE_ERR("expected 5 TAB-separated fields (seqV posV seqH posH strand), found %zu%s", nf,
                        seqfile ? " (a FASTA, FASTQ or .seq line? gale wfa reads those)" : "");
    }
    lenv = fl[0];
    lenh = fl[2];

    if (pos_field("V", f[1], fl[1], &posv, err, cap) != 0 || pos_field("H", f[3], fl[3], &posh, err, cap) != 0)
        return -1;
    if (fl[4] != 1 || (f[4][0] != 'n' && f[4][0] != 'c')) {
        quote_field(q, sizeof q, f[4], fl[4]);
        return LINE_ERR("strand must be 'n' or 'c', found '%s'", q);
    }
    if (check_seed_end("V", posv, k, lenv, err, cap) != 0 || check_seed_end("H", posh, k, lenh, err, cap) != 0)
        return -1;

    gale_task_init(t);
    t->v = f[0];
    t->v_len = (int64_t)lenv;
    t->v_begin = posv;
    t->v_end = posv + k;
    t->h = f[2];
    t->h_len = (int64_t)lenh;
    if (f[4][0] == 'c') {
        size_t bad = 0;
        if (revcomp_in_place((char *)f[2], lenh, &bad) != 0) {
            unsigned char c = (unsigned char)f[2][bad];
            if (c >= 33 && c < 127)
                return LINE_ERR("invalid base '%c' in seqH at position %zu (0-based)", c, bad);
            return LINE_ERR("invalid byte 0x%02x in seqH at position %zu (0-based)", c, bad);
        }
        /* BELLA's transform: the seed moves to the reverse complement */
        posh = (int64_t)lenh - posh - k;
    }
    t->h_begin = posh;
    t->h_end = posh + k;
    return 0;
}

/* The lines of a chunk parsed on several threads (logan_read_chunk). */
typedef struct logan_job {
    line_chunk *lc;
    int64_t k;
    gale_task *t;
    first_error err;
} logan_job;

static void logan_parse_part(void *arg, size_t begin, size_t end)
{
    logan_job *job = arg;
    const line_chunk *lc = job->lc;
    char err[sizeof job->err.text];
    size_t i;
    for (i = begin; i < end; i++) {
        char *s = lc->buf.s + lc->off[i];
        if (logan_parse(s, lc->off[i + 1] - lc->off[i] - 1, job->k, &job->t[i], err, sizeof err) != 0) {
            first_error_put(&job->err, i, err);
            return;
        }
    }
}

int64_t logan_read_chunk(logan_reader *rd, line_chunk *lc, int64_t k, gale_task *t, size_t max, size_t max_bytes,
                         int threads)
{
    logan_job job;
    int64_t n;
    n = in_next_lines(&rd->f, rd->failed, lc, max, max_bytes, 1);
    if (n <= 0)
        return n;
    rd->failed = lc->failed;
    if (!t) /* another MPI rank's lines: read past, not parsed */
        return n;
    job.lc = lc;
    job.k = k;
    job.t = t;
    first_error_init(&job.err);
    /* parts of at least 64 lines: a thread's start costs about as much */
    parallel_for(threads, (size_t)n, 64, logan_parse_part, &job);
    if (job.err.index != SIZE_MAX) {
        in_error(&rd->f, lc->first_line + job.err.index, 0, "%s", job.err.text);
        n = -1;
    }
    first_error_free(&job.err);
    return n;
}

int logan_failing(const logan_reader *rd)
{
    return rd->failed;
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

int pair_open_tsv(pair_reader *rd, const char *path)
{
    int r = pair_open(rd, &path, 1);
    rd->tsv = 1;
    return r;
}

int pair_open(pair_reader *rd, const char *const *paths, int n)
{
    int i;
    memset(rd, 0, sizeof *rd);
    rd->nfiles = n;
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
    seq_rec_free(&rd->p);
    seq_rec_free(&rd->t);
    /* a failure kept back behind pairs the library refused: that one was said */
    free(deferred);
    deferred = NULL;
    return rc;
}

in_file *pair_file(pair_reader *rd, int text)
{
    return &rd->f[text && rd->nfiles == 2 ? 1 : 0];
}

/* .seq: pair i of a chunk is lines 2i ('>PATTERN') and 2i+1 ('<TEXT'). */
typedef struct seq_job {
    const line_chunk *lc;
    uint64_t recno0;     /* the record number of pair 0 */
    pair_view *pv;
    first_error err;     /* indexed by line */
} seq_job;

/* Line i of the chunk as the sequence marked mark: its bases, or NULL with
 * the reason in err (as seq_line says it). */
static const char *seq_chunk_line(const line_chunk *lc, size_t i, char mark, const char *what, uint64_t recno,
                                  size_t *len, char *err, size_t cap)
{
    char *s = lc->buf.s + lc->off[i], q[64];
    size_t n = lc->off[i + 1] - lc->off[i] - 1;
    if (n > 0 && s[n - 1] == '\r')
        s[--n] = '\0';
    if (n == 0) {
        snprintf(err, cap, "empty line (expected '%s')", what);
        return NULL;
    }
    if (s[0] != mark) {
        quote_field(q, sizeof q, s, n);
        snprintf(err, cap, "expected a '%s' line, found '%s'%s", what, q,
                 recno == 1 ? " (FASTA/FASTQ input takes two files: PATTERNS TEXTS)" : "");
        return NULL;
    }
    *len = n - 1;
    return s + 1;
}

static void seq_parse_part(void *arg, size_t begin, size_t end)
{
    seq_job *job = arg;
    const line_chunk *lc = job->lc;
    char err[sizeof job->err.text];
    size_t i;
    for (i = begin; i < end; i++) {
        pair_view *v = &job->pv[i];
        uint64_t recno = job->recno0 + i;
        memset(v, 0, sizeof *v);
        v->recno = recno;
        v->pline = lc->first_line + 2 * i;
        v->tline = v->pline + 1;
        v->p = seq_chunk_line(lc, 2 * i, '>', ">PATTERN", recno, &v->plen, err, sizeof err);
        if (!v->p) {
            first_error_put(&job->err, 2 * i, err);
            return;
        }
        if (2 * i + 1 >= lc->nlines) {
            first_error_put(&job->err, 2 * i, "'>PATTERN' line without its '<TEXT' line (truncated file?)");
            return;
        }
        v->t = seq_chunk_line(lc, 2 * i + 1, '<', "<TEXT", recno, &v->tlen, err, sizeof err);
        if (!v->t) {
            first_error_put(&job->err, 2 * i + 1, err);
            return;
        }
    }
}

/* A TSV pair file: line i of the chunk is pair i, 'first<TAB>second' (either may be
 * empty; a '\r' before the newline is dropped). */
static void tsv_parse_part(void *arg, size_t begin, size_t end)
{
    seq_job *job = arg;
    const line_chunk *lc = job->lc;
    size_t i;
    for (i = begin; i < end; i++) {
        pair_view *v = &job->pv[i];
        char *s = lc->buf.s + lc->off[i], *tab, q[64], err[256];
        size_t n = lc->off[i + 1] - lc->off[i] - 1, tabs = 0, k;
        memset(v, 0, sizeof *v);
        v->recno = job->recno0 + i;
        v->pline = v->tline = lc->first_line + i;
        if (n > 0 && s[n - 1] == '\r')
            s[--n] = '\0';
        for (k = 0; k < n; k++)
            tabs += s[k] == '\t';
        if (n == 0 || tabs != 1) {
            quote_field(q, sizeof q, s, n);
            if (n == 0)
                snprintf(err, sizeof err, "empty line (expected 'query<TAB>target')");
            else
                snprintf(err, sizeof err, "expected 2 TAB-separated fields (query, target), found %zu: '%s'%s",
                         tabs + 1, q, s[0] == '>' || s[0] == '@' ? " (FASTA/FASTQ input takes two files: QUERIES TARGETS)" : "");
            first_error_put(&job->err, i, err);
            return;
        }
        tab = memchr(s, '\t', n);
        *tab = '\0';
        v->p = s;
        v->plen = (size_t)(tab - s);
        v->t = tab + 1;
        v->tlen = n - v->plen - 1;
    }
}

static int64_t seq_read_chunk(pair_reader *rd, line_chunk *lc, pair_view *pv, size_t max, size_t max_bytes,
                              int threads)
{
    in_file *f = &rd->f[0];
    seq_job job;
    size_t npairs;
    int64_t n;
    n = in_next_lines(f, rd->failed, lc, rd->tsv ? max : 2 * max, max_bytes, rd->tsv ? 1 : 2);
    if (n <= 0)
        return n;
    /* a pair cut short by a failing stream is the failure's, not a bad pair */
    npairs = rd->tsv ? (size_t)n : lc->failed ? (size_t)n / 2 : ((size_t)n + 1) / 2;
    if (!pv) { /* read past: the rank that parses these reports what is wrong */
        if (npairs == 0)
            return in_report_failure(f);
        f->nrec += npairs;
        rd->failed = lc->failed;
        return (int64_t)npairs;
    }
    job.lc = lc;
    job.recno0 = f->nrec + 1;
    job.pv = pv;
    first_error_init(&job.err);
    /* parts of at least 64 pairs: a thread's start costs about as much */
    parallel_for(threads, npairs, 64, rd->tsv ? tsv_parse_part : seq_parse_part, &job);
    if (job.err.index != SIZE_MAX) {
        in_error(f, lc->first_line + job.err.index, job.recno0 + job.err.index / (rd->tsv ? 1 : 2), "%s",
                 job.err.text);
        n = -1;
    } else if (npairs == 0) { /* the stream failed inside the first pair */
        n = in_report_failure(f);
    } else {
        f->nrec += npairs;
        rd->failed = lc->failed;
        n = (int64_t)npairs;
    }
    first_error_free(&job.err);
    return n;
}

/* Appends s[0..n) and a NUL to the pool: its offset, or SIZE_MAX when out of
 * memory. */
static size_t pool_add(kstring_t *pool, const char *s, size_t n)
{
    size_t off = pool->l;
    if (kputsn(s, n, pool) < 0 || kputc('\0', pool) < 0)
        return SIZE_MAX;
    return off;
}

/* FASTA/FASTQ: one record after the other (fx_read), copied into the pool;
 * the views take their pointers once the pool has stopped moving. */
static int64_t fx_read_chunk(pair_reader *rd, kstring_t *pool, pair_view *pv, size_t max, size_t max_bytes)
{
    size_t n = 0, i;
    size_t (*off)[5] = NULL; /* p, t, pname, tname, qual */
    size_t cap = 0;
    pool->l = 0;
    if (rd->failed) { /* the failure kept back by the last call */
        flush_deferred();
        return -1;
    }
    while (n < max && pool->l < max_bytes) {
        int r;
        deferring += n > 0;
        r = read_pair(rd, &rd->p, &rd->t);
        deferring -= n > 0;
        if (r < 0 && n > 0) {
            /* the pairs before it first: the next call reports it */
            rd->failed = 1;
            break;
        }
        if (r < 0)
            goto fail;
        if (r == 0)
            break;
        if (n == cap) {
            void *no = grow_array(off, &cap, sizeof *off, 256);
            if (!no) {
                msg("out of memory");
                goto fail;
            }
            off = no;
        }
        if (pv) {
            pair_view *v = &pv[n];
            memset(v, 0, sizeof *v);
            v->plen = rd->p.seq.l;
            v->tlen = rd->t.seq.l;
            v->pline = rd->p.line;
            v->tline = rd->t.line;
            v->recno = rd->f[0].nrec;
        }
        /* (read past, pv NULL, the pool is filled all the same: it is what
         * closes the chunk at max_bytes, where the other ranks close it) */
        off[n][0] = pool_add(pool, rd->p.seq.s, rd->p.seq.l);
        off[n][1] = pool_add(pool, rd->t.seq.s, rd->t.seq.l);
        off[n][2] = pool_add(pool, rd->p.name.s ? rd->p.name.s : "", rd->p.name.l);
        off[n][3] = pool_add(pool, rd->t.name.s ? rd->t.name.s : "", rd->t.name.l);
        off[n][4] = rd->p.has_qual ? pool_add(pool, rd->p.qual.s ? rd->p.qual.s : "", rd->p.qual.l) : SIZE_MAX - 1;
        for (i = 0; i < 5; i++) {
            if (off[n][i] == SIZE_MAX) {
                msg("out of memory");
                goto fail;
            }
        }
        n++;
    }
    for (i = 0; i < n && pv; i++) {
        pv[i].p = pool->s + off[i][0];
        pv[i].t = pool->s + off[i][1];
        pv[i].pname = pool->s + off[i][2];
        pv[i].tname = pool->s + off[i][3];
        pv[i].qual = off[i][4] == SIZE_MAX - 1 ? NULL : pool->s + off[i][4];
    }
    free(off);
    return (int64_t)n;
fail:
    free(off);
    return -1;
}

int pair_failing(const pair_reader *rd)
{
    return rd->failed;
}

int64_t pair_read_chunk(pair_reader *rd, line_chunk *lc, kstring_t *pool, pair_view *pv, size_t max,
                        size_t max_bytes, int threads)
{
    if (rd->nfiles == 1)
        return seq_read_chunk(rd, lc, pv, max, max_bytes, threads);
    return fx_read_chunk(rd, pool, pv, max, max_bytes);
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
        input_msg("%s has %" PRIu64 " records but %s has more: record %" PRIu64 " of %s (line %" PRIu64
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
        read += (double)__atomic_load_n(&rd->f[i].pos, __ATOMIC_RELAXED);
        size += (double)rd->f[i].size;
    }
    return size > 0.0 ? read / size : -1.0;
}
