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

/* ------------------------------------------------------------------ */
/* LOGAN's demo format: seqV TAB posV TAB seqH TAB posH TAB strand      */
/* ------------------------------------------------------------------ */

typedef struct logan_reader {
    in_file f;
    char *rc_buf;          /* reverse complement of seqH */
    size_t rc_cap;
} logan_reader;

/* Opens path ('-' = stdin): 0, or EXIT_FAIL after a message. */
int logan_open(logan_reader *rd, const char *path);
/* The next line as a task with seeds of length k (h and v point into the
 * reader's buffers, valid until the next call): 1, 0 at the end, -1 after a
 * message. Strand c: h is the reverse complement of seqH. */
int logan_read(logan_reader *rd, int64_t k, gale_task *t);
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
} pair_reader;

/* Opens the n (1: .seq, 2: PATTERNS TEXTS) files: 0, or EXIT_FAIL after a
 * message. */
int pair_open(pair_reader *rd, const char *const *paths, int n);
/* 1: a pair into p (pattern) and t (text); 0: the end; -1: error (reported). */
int read_pair(pair_reader *rd, seq_rec *p, seq_rec *t);
/* Closes what is open; with check, reports a failure and returns EXIT_FAIL. */
int pair_close(pair_reader *rd, int check);
/* The part of the input read so far, 0..1 (both files together); -1 when
 * a size is not known. */
double pair_fraction(const pair_reader *rd);

#endif
