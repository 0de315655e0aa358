/*
 * gale CLI: the output module. The output file (stdout, or -o FILE written to
 * a temporary next to it and renamed over FILE only when the whole run
 * succeeded), and the writers: xdrop's TSV; wfa's TSV, PAF and SAM (header,
 * @SQ references, records).
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

typedef struct out_file {
    FILE *fp;               /* NULL until opened */
    char *tmp;              /* -o FILE: the temporary being written */
    const char *path;       /* -o FILE; NULL: stdout */
    const char *display;    /* name for messages: FILE or "(stdout)" */
} out_file;

/* Opens path (NULL: stdout): 0, or EXIT_FAIL after a message. */
int out_open(out_file *o, const char *path);
/* Flushes and closes what out_open opened. With rc (the run's status so far)
 * EXIT_OK, -o FILE's temporary is renamed to FILE, else removed. Returns the
 * final status. */
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
/* An unlinked temporary file for the SAM records, next to output (-o FILE)
 * or else in $TMPDIR or /tmp: NULL after a message. */
FILE *sam_body_file(const char *output);
/* Copies all of from (rewound) behind what to holds: 0 or -1. */
int copy_stream(FILE *from, FILE *to);

#endif
