/*
 * gale CLI: the output module. The output file (stdout, or -o FILE: a
 * regular file is replaced only when the whole run succeeded, anything else
 * is written through, never replaced), and the writers: xdrop's TSV; wfa's
 * TSV, PAF and SAM (header, @SQ references, records).
 */
#ifndef GALE_CLI_OUTPUT_H
#define GALE_CLI_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <htslib/kstring.h>

#include "gale.h"

/* ------------------------------------------------------------------ */
/* The output file                                                     */
/* ------------------------------------------------------------------ */

/* How the output is written; out_open picks it from what -o names. */
enum {
    OUT_STDOUT,  /* no -o, or -o - */
    OUT_REPLACE, /* a regular file, or nothing yet: written to FILE.tmp.XXXXXX next to it, renamed over it at the
                    end of a successful run (an existing file's mode and, where allowed, owner are kept) */
    OUT_THROUGH, /* a FIFO, a device, a socket, or an open descriptor (/dev/stdout, /dev/stderr, /dev/fd/N,
                    /proc/self/fd/N): opened and written as the results come, never removed or replaced */
    OUT_COPY     /* a symbolic link to a regular file (or to nothing yet): the results are kept in an unlinked
                    temporary and copied through the link at the end of a successful run, so that the link
                    stays a link and its target is untouched by a failed run */
};

typedef struct out_file {
    FILE *fp;               /* what the writers write to; NULL until opened */
    int how;                /* OUT_* */
    char *tmp;              /* OUT_REPLACE: the temporary's name */
    int target;             /* OUT_COPY: the link's target opened for writing; -1: created at the end */
    const char *path;       /* -o FILE; NULL: stdout */
    const char *display;    /* name for messages: FILE or "(stdout)" */
    const char *scratch_near; /* other temporaries (SAM's records) go next to this name; NULL: $TMPDIR */
} out_file;

/* Opens path (NULL: stdout) as OUT_* says: 0, or EXIT_FAIL after a message
 * (a directory, a name that cannot be written). */
int out_open(out_file *o, const char *path);
/* Flushes and closes what out_open opened (nothing when it did not). With rc
 * (the run's status so far) EXIT_OK, OUT_REPLACE's temporary is renamed over
 * FILE and OUT_COPY's results are copied through the link; else the
 * temporary is removed and FILE left as it was. Returns the final status. */
int out_close(out_file *o, int rc);

/* ------------------------------------------------------------------ */
/* xdrop                                                               */
/* ------------------------------------------------------------------ */

/* index score_left score_right score begH endH begV endV: fprintf's value. */
int put_xdrop_tsv(FILE *out, uint64_t index, const gale_result *res);

/* ------------------------------------------------------------------ */
/* wfa                                                                 */
/* ------------------------------------------------------------------ */

enum { FMT_TSV = 0, FMT_SAM, FMT_PAF };

#define SAM_MAX_QNAME 254

typedef struct cigar_sum {
    int64_t match, mismatch, ins, del;   /* bases of =, X, I (pattern only), D (text only) */
    int64_t ins_runs, del_runs;
} cigar_sum;

/* Appends the CIGAR ops (GALE_CIGAR_*) to s as text and sums them; -1 on an
 * op other than = X I D, which the library must not produce. */
int put_cigar(kstring_t *s, const uint32_t *ops, size_t n, cigar_sum *sum);

/* One alignment as the writers see it. */
typedef struct aln_rec {
    uint64_t index;
    const gale_result *res;
    const char *cigar;          /* text of the CIGAR, "" when none */
    cigar_sum sum;
    int64_t as_score;           /* AS:i, higher is better */
    int64_t plen, tlen;
    const char *qname, *tname;  /* SAM, PAF */
    const char *seq, *qual;     /* SAM: the pattern's bases and qualities; NULL: '*' */
} aln_rec;

/* Appends a's line (with its newline) in format (FMT_*) to ln; coords: TSV's
 * extra columns. Returns -1 when out of memory. */
int put_aln(kstring_t *ln, int format, int coords, const aln_rec *a);

/* SAM's references (@SQ lines): each text name once. */
typedef struct sq_table {
    struct kh_sqmap_s *map;
    struct sq_entry *e;
    size_t n, cap;
} sq_table;

/* 0, or -1 after a message. */
int sq_init(sq_table *st);
/* Registers a text seq[0..len) named name, first met in record recno. Same
 * name and same (case-folded) sequence: one @SQ. Returns 0; 1 when the name
 * stands for another sequence already (*first: the record that gave it);
 * -1 after a message. */
int sq_add(sq_table *st, const char *name, const char *seq, size_t len, uint64_t recno, uint64_t *first);
void sq_free(sq_table *st);

/* "gale ARGS" on one line, for SAM's @PG CL; NULL when out of memory. */
char *command_line(int argc, char **argv);
/* The SAM header; cl is the command line for @PG. 0 or -1. */
int write_sam_header(const sq_table *sq, FILE *out, const char *cl);
/* An unlinked temporary file for the SAM records, next to the output's
 * file (out->scratch_near) or else in $TMPDIR or /tmp: NULL after a message. */
FILE *sam_body_file(const out_file *out);
/* Copies all of from (rewound) behind what to holds: 0 or -1. */
int copy_stream(FILE *from, FILE *to);
/* SAM's end (rank 0, the run done): the header (every @SQ of sq known now; @PG's CL
 * from argv) on out, then the records kept in body. 0, or EXIT_FAIL after a message. */
int sam_finish(const sq_table *sq, FILE *body, const out_file *out, int argc, char **argv);

#endif
