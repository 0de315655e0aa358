/*
 * gale CLI: the input module every subcommand reads through. One line reader
 * over htslib's BGZF streams (plain, gzip or BGZF files; '-' = stdin), and on
 * it the formats: LOGAN's TSV (xdrop), FASTA/FASTQ and WFA2-lib's .seq (wfa).
 * Every message names the file, the line and, where there are records, the
 * record: "gale: FILE:LINE: [record N: ]MESSAGE".
 */
#ifndef GALE_CLI_INPUT_H
#define GALE_CLI_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include <htslib/bgzf.h>
#include <htslib/kstring.h>

#include "gale.h"
#include "options.h"

/* ------------------------------------------------------------------ */
/* Lines                                                               */
/* ------------------------------------------------------------------ */

typedef struct in_file {
    const char *display;   /* name for messages; "(stdin)" for '-' */
    BGZF *fp;
    kstring_t line;
    uint64_t lineno;
    uint64_t nrec;         /* records read */
    int records;           /* the file holds records (FASTA/FASTQ/.seq): messages name them */
    int64_t size;          /* bytes of a regular file (compressed or not); 0: not known (a pipe) */
    int pending;           /* line holds the next record's header, not consumed yet */
    int64_t pos;           /* bytes of the file read so far (atomic: the progress bar reads it from another thread) */
    kstring_t carry;       /* plain input read in bulk: the bytes after the last whole line handed out */
    int eof;               /* plain input read in bulk: the end was met */
} in_file;

/* Opens path ('-' = stdin): 0, or EXIT_FAIL after a message. */
int in_open(in_file *f, const char *path);
/* Closes f (again is harmless): 0, or -1 when closing failed. */
int in_close(in_file *f);
/* in_close with "FILE: error while closing the input" on failure. */
int in_close_checked(in_file *f);
/* Next line into f->line (CR stripped): 1, 0 at the end, -1 after a message. */
int in_getline(in_file *f);
/* The part of f read so far, 0..1 (bytes of the file as stored, compressed
 * or not), for the progress bar; -1 when the size is not known. */
double in_fraction(const in_file *f);
/* "gale: FILE:LINE: MESSAGE", with "record RECNO: " before MESSAGE when
 * recno is not 0. */
void in_error(const in_file *f, uint64_t line, uint64_t recno, const char *fmt, ...) CLI_PRINTF(4, 5);
/* A short printable rendering of a field for messages (into dst[0..cap)). */
void quote_field(char *dst, size_t cap, const char *s, size_t n);

/* Whole lines in bulk, for the parsers that run on several threads: the
 * lines of a chunk are read at once (copied out of htslib's blocks, no
 * line-by-line calls), then parsed in parallel. */
typedef struct line_chunk {
    kstring_t buf;         /* the lines, each NUL-terminated where its '\n' was */
    size_t *off;           /* line i is buf.s + off[i], of off[i+1] - off[i] - 1 bytes (a CR kept) */
    size_t nlines, cap;
    uint64_t first_line;   /* the line number of line 0 */
    int failed;            /* the stream failed after these lines: in_report_failure says why */
} line_chunk;

/* Reads whole lines into lc (replacing what it held): up to max_lines, and
 * no more once it holds max_bytes bytes, but always a multiple of per_record
 * lines unless the input ends first. Returns the lines read (0: the end), or
 * -1 after a message (out of memory). A read failure (a truncated or corrupt
 * compressed stream, an I/O error) stops it with lc->failed set: the lines
 * before are returned, and in_report_failure reports the failure once the
 * caller has found nothing wrong with them - as line-by-line reading would. */
int64_t in_read_lines(in_file *f, line_chunk *lc, size_t max_lines, size_t max_bytes, size_t per_record);
/* The message of the failure that stopped in_read_lines. Returns -1. */
int in_report_failure(const in_file *f);
/* The next chunk of lines of a reader that stops at the stream's failure:
 * in_report_failure's -1 when its last chunk ended at one (failed_before, its
 * lc->failed), else in_read_lines, where an end at a failure with no lines
 * before it is that failure's -1. > 0: lines; 0: the end; -1: after a message. */
int64_t in_next_lines(in_file *f, int failed_before, line_chunk *lc, size_t max_lines, size_t max_bytes,
                      size_t per_record);
void line_chunk_free(line_chunk *lc);

/* Messages of the reader thread while the main thread is still starting the
 * context: held until in_release_messages, then printed (print) or dropped
 * (the run failed for another reason, which the main thread reports). */
void in_hold_messages(void);
void in_release_messages(int print);
/* The reader's first message while on is kept back (on and off nest): it read
 * ahead, and chunks before the one that failed are still to be checked by the
 * library, whose message must come first. in_release_deferred prints it
 * (print) or drops it. Reader thread only. */
void in_defer_messages(int on);
void in_release_deferred(int print);
/* The reader thread's messages dropped (on) or not (off), while it reads
 * past another MPI rank's chunk: that rank reports what is wrong with it. */
void in_mute_messages(int on);

/* ------------------------------------------------------------------ */
/* LOGAN's demo format: seqV TAB posV TAB seqH TAB posH TAB strand      */
/* ------------------------------------------------------------------ */

typedef struct logan_reader {
    in_file f;
    int failed;            /* the stream failed after the last chunk: the next call reports it */
} logan_reader;

/* Opens path ('-' = stdin): 0, or EXIT_FAIL after a message. */
int logan_open(logan_reader *rd, const char *path);
/* Reads the next lines into lc (at most max, no more once max_bytes bytes are
 * read) and parses them on threads threads into t[0..n) with seeds of length
 * k; t NULL: the lines are only read (another MPI rank's chunk: same lines, no
 * parse, no check). Line i is line lc->first_line + i. h and v point into lc,
 * valid while it is (the caller may read the next chunks into other line
 * chunks meanwhile); strand c: h is the reverse complement of
 * seqH, made in place. Returns n (0: the end), or -1 after a message naming
 * the first bad line. When the stream fails (truncated, corrupt), the whole
 * lines before the failure come first (logan_failing says so), and the next
 * call reports the failure. */
int64_t logan_read_chunk(logan_reader *rd, line_chunk *lc, int64_t k, gale_task *t, size_t max, size_t max_bytes,
                         int threads);
/* Whether reading stopped on a failure after the chunk just returned: its
 * tasks are still to be checked (an earlier bad line is the one to report),
 * and the next call reports the failure. */
int logan_failing(const logan_reader *rd);
/* One line s[0..len) (NUL-terminated, a final CR allowed; strand c reverse
 * complements seqH in s) as a task: 0, or -1 with the reason in err[0..cap). */
int logan_parse(char *s, size_t len, int64_t k, gale_task *t, char *err, size_t cap);
/* Closes the file and frees the buffers; with check, reports a failure to
 * close and returns EXIT_FAIL. */
int logan_close(logan_reader *rd, int check);

/* ------------------------------------------------------------------ */
/* FASTA / FASTQ / .seq                                                */
/* ------------------------------------------------------------------ */

typedef struct seq_rec {
    kstring_t name, seq, qual;
    int has_qual;
    uint64_t line;         /* the line of its header (FASTA/FASTQ) or of its sequence (.seq) */
    in_file *file;
} seq_rec;

void seq_rec_free(seq_rec *r);

/* Pairs: record i of PATTERNS with record i of TEXTS (two FASTA/FASTQ
 * files), or the pairs of one .seq file. */
typedef struct pair_reader {
    in_file f[2];
    int nfiles;              /* 1: .seq */
    int opened;              /* files open */
    seq_rec p, t;            /* FASTA/FASTQ: the last records read */
    int failed;              /* the input failed after the last chunk's pairs: the next call reports it
                                (FASTA/FASTQ: its message was kept back) */
    int tsv;                 /* one file of 'query<TAB>target' lines (pair_open_tsv) instead of .seq */
} pair_reader;

/* A pair of a chunk (pair_read_chunk): the pattern and the text, their names
 * and the pattern's qualities where the input has them (NULL: none), and
 * where they are, for messages. */
typedef struct pair_view {
    const char *p, *t;
    size_t plen, tlen;
    const char *pname, *tname;   /* FASTA/FASTQ: the records' names (maybe ""); .seq: NULL */
    const char *qual;            /* FASTQ: the pattern's qualities; else NULL */
    uint64_t pline, tline;       /* the line of each record (.seq: of each sequence) */
    uint64_t recno;              /* 1-based */
} pair_view;

/* Opens the n (1: .seq, 2: PATTERNS TEXTS) files: 0, or EXIT_FAIL after a
 * message. */
int pair_open(pair_reader *rd, const char *const *paths, int n);
/* Opens one file of 'first<TAB>second' lines, one pair per line (gale zdrop's
 * PAIRS.tsv: query, target), read through pair_read_chunk as .seq would be:
 * 0, or EXIT_FAIL after a message. */
int pair_open_tsv(pair_reader *rd, const char *path);
/* 1: a pair into p (pattern) and t (text); 0: the end; -1: error (reported). */
int read_pair(pair_reader *rd, seq_rec *p, seq_rec *t);
/* The next pairs, at most max, and no more once max_bytes bytes are read,
 * into pv[0..n): a .seq file's lines are read in bulk into lc and checked on
 * threads threads; FASTA/FASTQ records are read one after the other and
 * copied into pool. pv NULL: the same pairs are read past (another MPI rank's
 * chunk): a .seq file's lines are not checked, FASTA/FASTQ records are read as
 * ever. The views point into lc or pool, valid while they are. Returns n (0:
 * the end), or -1 after a
 * message naming the first bad record. A failure of the input after some
 * pairs comes after them (pair_failing), as for logan_read_chunk. */
int64_t pair_read_chunk(pair_reader *rd, line_chunk *lc, kstring_t *pool, pair_view *pv, size_t max,
                        size_t max_bytes, int threads);
/* As logan_failing, for pairs. */
int pair_failing(const pair_reader *rd);
/* The file of the pattern (0) or text (1) of a pair, for messages. */
in_file *pair_file(pair_reader *rd, int text);
/* Closes what is open; with check, reports a failure and returns EXIT_FAIL. */
int pair_close(pair_reader *rd, int check);
/* The part of the input read so far, 0..1 (both files together); -1 when
 * a size is not known. */
double pair_fraction(const pair_reader *rd);

#endif
