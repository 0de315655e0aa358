/*
 * gale lastz's internal interface: what lastz.c (the command: options, the run), its
 * readers lastz_seqfile.c (the sequence files), lastz_segments.c (the anchors),
 * lastz_actions.c (LASTZ's sequence specifiers and file actions) and lastz_scores.c
 * (numbers and scoring files), and lastz_format.c (the output formats) share. Not a public
 * header.
 */
#ifndef GALE_CLI_LASTZ_INT_H
#define GALE_CLI_LASTZ_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gale.h"

#define CMD "lastz"

/* A, C, G, T as 0..3 (LASTZ's order: the purines A, G even), -1 for any other byte,
 * lower case included (a caller that folds case passes toupper(c)) */
static inline int lastz_nuc(int c)
{
    switch (c) {
    case 'A': return 0;
    case 'C': return 1;
    case 'G': return 2;
    case 'T': return 3;
    default: return -1;
    }
}

typedef struct {
    char *name;
    char *header; /* the whole header line, '>' included (lav's h stanza); a 2bit record's
                   * name as its file gives it, without '>' */
    char *seq;
    size_t len;
    long contig; /* the record's number in its file, from 1 (LASTZ's contig) */
    size_t start_loc; /* a subrange's start on the record, from 1 (1: none; LASTZ's startLoc) */
    size_t true_len;  /* the record's whole length (LASTZ's trueLen); len is the subrange's */
    int format;       /* the file's: SEQ_FASTA, SEQ_2BIT, SEQ_FASTQ or SEQ_NIB */
    char *qual;       /* FASTQ: the base-call qualities, one a base, as seq is held; else NULL */
} record;

/* sequence file types (a [format=] action's values too; 0: from the file's first bytes) */
enum { SEQ_FASTA = 1, SEQ_2BIT = 2, SEQ_FASTQ = 3, SEQ_NIB = 4 };

typedef struct {
    /* a line of the file (rec -1): its own copies, malloc'd; a line of gale lastz's seeding
     * (rec >= 0): the target's and query record's names, borrowed (two mallocs an HSP
     * saved), read while the records live. free_seg_lines frees only the owned ones. */
    char *name1, *name2;
    uint32_t start1, end1, start2, end2;
    char strand;
    int32_t score;
    long line; /* in the segments file */
    long rec;  /* -1: a line of the file (its name2 picks the query record); else the query
                * record gale lastz's seeding found it on */
} seg_line;

typedef struct {
    int fields[256];
    int n_fields;
    int header;
    int cigar_format;
    int axt;            /* --format=axt */
    int maf;            /* --format=maf (2: maf-, without the job header) */
    int lav;            /* --format=lav (lastz's default) */
    int sam;            /* 1 sam, 2 sam-, 3 softsam, 4 softsam- */
    int rdotplot;       /* --format=rdotplot */
    int segments;       /* --format=segments: the anchors, merged, without gapped extension */
    uint64_t number;    /* axt's alignment number */
    uint64_t gen_number; /* general's alignment number (number, znumber) */
    const char *paths[2]; /* the TARGET and QUERY files as given (lav's s stanza) */
    long contig;        /* the query record's number, from 1 (lav's s stanza) */
    uint64_t hspid;     /* the alignment's anchor's number in the segments file, from 1 (general's hspid;
                         * 0 for the trivial self-alignment, where lastz writes memory it never set) */
    int strand_header;  /* this query strand's header written (lav) */
    const char *prev1, *prev2; /* rdotplot: the names of the last name line */
    int sq_done;        /* sam: the @SQ line written */
    int notrivial;      /* --notrivial: a [multiple] query's alignments checked after (write_job) */
    char diff_chars[7]; /* general's diff: match, transition, transversion, a target base against a gap,
                         * a query base against one, anything else (".:x--X"; diffCCCCCC sets them) */
} out_spec;

/* A TARGET or QUERY specifier as LASTZ 1.04.22 reads it (sequences.c parse_sequence_name):
 * [nickname::]filename[[actions]][-], actions comma-separated (or "][") */
typedef struct {
    char *file;            /* the file name alone (lav's s stanza names it) */
    char *nickname;        /* nickname:: or [nickname=NAME]: the records' name in the output */
    char *subset;          /* [subset=FILE] or [@FILE] */
    int unmask;            /* [unmask] */
    int revcomp;           /* [revcomp] or a trailing '-' (each toggles it) */
    int multiple;          /* [multiple]: the file's records as one partitioned sequence */
    char separator;        /* [separator=C]: each record cut at runs of C (partitioned as with multiple) */
    int nameparse;         /* 0: lastz's default (core), 1 darkspace, 2 alnum, 3 full */
    const char *name_tag;  /* [nameparse=tag:MARKER]: the name is what follows MARKER */
    int subsample_k, subsample_n; /* [subsample=K/N]: records K, K+N, ... (0: all) */
    /* [softmask=[keep:]FILE], [xmask=...], [nmask=...]: lower case, X or N over the file's
     * intervals (keep: over everything else), in that order after unmask */
    const char *mask_file[3];
    int mask_keep[3];
    int format;            /* [format=fasta|2bit|fastq|nib]: SEQ_*; 0: from the file's first bytes */
    const char *contig;    /* FILE.2bit/NAME: that record alone (LASTZ's contig of interest) */
    const char *chores;    /* [chores=FILE] (lastz refuses it with --segments) */
    int quantum;           /* [quantum] or [quantum=FILE] (quantum DNA: needs quantum scores) */
    unsigned long long sub_start, sub_end; /* a subrange, 1-based inclusive (0: not given) */
    int sub_end_soft;      /* start#length: an end past the record is clipped */
    int sub_end_open;      /* start..: to the record's end */
    int sub_pending;       /* start, waiting for ,end */
    char buf[4096];
} seq_spec;

/* --scores=FILE as LASTZ 1.04.22 reads it (dna_utilities.c read_score_set): settings,
 * then a matrix over one of LASTZ's DNA alphabets (A C G T, with N, with a c g t, or with
 * both, in any order; the rows' alphabet may differ from the columns'); gale takes no
 * quantum DNA. */
#define LASTZ_SCORE_LABELS 16 /* labels held (a DNA alphabet has 9 at most), with a 0 after them */
typedef struct {
    int32_t *table;                  /* 256 x 256 (target byte * 256 + query byte), as read_score_set
                                      * builds it; malloc'd: free it) */
    int32_t matrix[4][4];            /* its A C G T part, rows (target) and columns (query) in that order */
    char cols[LASTZ_SCORE_LABELS], rows[LASTZ_SCORE_LABELS]; /* the labels in the file's order (lav, axt
                                                             and maf print the upper-case ones) */
    int ncols, nrows;
    int32_t bad, fill, gap_open, gap_extend;
    int32_t hsp_thresh, gapped_thresh, x_drop, y_drop;
    int have_gap_open, have_gap_extend, have_hsp, have_gapped, have_x_drop, have_y_drop;
    int32_t step;       /* step= (Z=): the seeding's --step, unless the command line gives one */
    int have_step, have_seed; /* (seed= or T=: the seeding's --seed and transitions) */
} lastz_scores;

/* lastz_seqfile.c */
/* A record's strings (not the record itself). */
void free_record(record *r);
/* n records' strings and the array (NULL is fine, whatever n). */
void free_records(record *recs, long n);
/* A set of record names (a subset file's), sorted */
typedef struct {
    char **v;
    size_t n;
} name_set;
/* The names a [subset=FILE] lists (its lines as apply_subset reads them): 0, or -1
 * (message said). */
int read_subset_names(const char *path, name_set *out);
void free_name_set(name_set *s);
/* A subset file's line as lastz reads it (sequences.c read_contig_name): its name, cut in
 * place ('#' at the start or after a blank begins a comment), or NULL when it has none. */
const char *subset_line_name(char *line);
/* A FASTA, FASTQ, 2bit or nib file, told apart as lastz tells them (sequences.c
 * detect_file_type: the magic numbers, then '@' for FASTQ; format: the spec's format=, which
 * must then agree); the number of records, or -1 (message said; hsx and qdna files are
 * refused). Of a 2bit file, only the records named only (FILE.2bit/NAME), or in wanted (a
 * subset's names), are decoded when either is given (not NULL): the others keep their name
 * and number but no bases (seq NULL, len 0), and must be dropped (keep_contig,
 * apply_subset) before anything reads them. A whole genome's 2bit is read so for the few
 * records a KegAlign block names. */
long read_sequences(const char *path, int format, const char *only, const name_set *wanted, record **out);
/* FILE.2bit/NAME: the record named NAME (by its 2bit name) alone, first, keeping its number
 * (the others freed); returns 1, or -1 when there is none (message said: then the caller
 * still frees all n). */
long keep_contig(const char *path, const char *name, record *recs, long n);

/* lastz_segments.c */
/* Reads the segments file as LASTZ's read_segment_table does; the number, or -1. */
long read_segments(const char *path, seg_line **out);
/* Frees n lines and v: the names of those that own them (rec -1) */
void free_seg_lines(seg_line *v, long n);

/* lastz_actions.c */
/* Returns 0, or writes a usage error naming the action and returns -1. */
int parse_spec(const char *arg, seq_spec *sp);
/* The records' names from their headers, as sp's name parsing takes them. */
void apply_names(const seq_spec *sp, record *recs, long n);
/* The letters lastz takes in a sequence (sequences.c: A C G T N X in either case, and
 * with --ambiguous=iupac B D H K M R S V W Y too): 0, or -1 with the first other one named
 * (file, record, position, the letter) as lastz names it. */
int check_bases(const char *path, const record *recs, long n, int iupac, char separator);
/* [separator=C] (sequences.c separate_sequence): each record cut at its runs of C into
 * pieces, each a record of its own with the record's name, number and whole length and its
 * place on it (start_loc, as a subrange's); the number of pieces, or -1 (out of memory,
 * message said). */
long split_at_separator(char separator, record **recs, long n);
/* A partitioned target ([multiple], [separator=C]) laid out as lastz joins it: *off, each
 * record's (after split_at_separator: each piece's) first base on the joined sequence
 * (malloc'd); with join, *joined the joined bytes themselves (byte 0 at 0 and after each
 * record, the Cs turned into 0s; *joined_len of them, as lastz counts its length: the last
 * 0 not counted). *recs and *n become the pieces with separator. 0, or -1 with the failure
 * said (*recs and *n as they were). */
int partition_target(record **recs, long *n, char separator, int join, uint64_t **off, char **joined, size_t *joined_len);
/* [subsample=K/N]: records K, K+N, K+2N, ... kept (of those a subset left; they keep
 * their numbers); the count kept. */
long apply_subsample(const seq_spec *sp, record *recs, long n);
/* [subset=FILE]: the records it names kept; the count kept, or -1 (message said). A name
 * lastz would fail on (not in the file, or out of its order) ends the list there and is
 * written to missing as lastz words it (file: the sequence file's name); else missing[0]
 * is 0. */
long apply_subset(const char *path, const char *file, record *recs, long n, char *missing, size_t missing_len);
/* nickname, unmask and the subrange on the records read; returns 0, or -1 (message said) */
int apply_spec(const seq_spec *sp, record *recs, long n);

/* lastz_scores.c */
/* Reads a scores file; returns 0, or -1 (message said: the file, the line and what is wrong,
 * or that gale does not take it yet). */
int read_scores(const char *path, lastz_scores *sc);
/* The matrix as lastz prints its score set (dna_utilities.c private_print_score_matrix),
 * each line after prefix; with row labels (axt, maf) or without (lav). */
void print_matrix(const gale_lastz_params *p, const lastz_scores *sc, const char *prefix, int labels);
/* lastz's warning on stderr for a scoring file that sets no hsp threshold */
void scores_warning(const char *path, const int32_t m[4][4]);
/* A score as lastz reads one (string_to_score: an integer, or a decimal rounded, with an
 * optional K, M or G for thousands); 0, or -1 for anything else. */
int score_value(const char *s, int32_t *out);
/* A number as lastz 1.04.22 reads one (utilities.c string_to_unitized_int: an integer, or a
 * decimal rounded, with an optional K, M or G, by thousands or by 1,024, within an int);
 * 0, or -1 when bad or out of range. score_value is its by-thousands form. */
int unitized_value(const char *s, int by_thousands, int32_t *out);

/* lastz_format.c */
/* --format's value into os: 0, or -1 after a usage error. */
int parse_format(const char *v, out_spec *os);
/* general's header line (#name1 ...), for --format=general (os->header) */
void print_general_header(FILE *out, const out_spec *os);
/* lav (lav.c print_lav_header): once per query strand, before its first alignment */
void lav_strand_header(FILE *out, const out_spec *os, const record *t, const record *q, char strand);
/* general's quals1 (quals2) when the target (query) record has no base-call qualities:
 * that field's name (lastz refuses it: "has no base-call qualities"), else NULL */
const char *quals_field_missing(const out_spec *os, const record *t, const record *q);
/* general's qalign1 with a FASTQ target: lastz writes bytes it never set there */
int qalign1_unset(const out_spec *os, const record *t);
/* One alignment in os's format; rel on the sequences as held (qs: the query strand's). */
void write_alignment(FILE *out, out_spec *os, const record *t, const record *q, const char *qs, char strand,
                     const gale_lastz_alignment *rel);

/* lastz_jobs.c */
/* A query record's bases on strand s (the - strand: its reverse complement), malloc'd */
char *strand_bases(const record *qr, int s);
/* LASTZ's seeding and gap-free stages (gale_lastz_seeder_find on the target's seeder) on
 * each query record's strands in lastz's order (the - strand first for a [revcomp] query;
 * qmulti, a [multiple] query: all records as one sequence a strand, as lastz seeds them),
 * each strand's HSPs handed to sink in runs of one target record tr and query record qr,
 * on them (qs: qr's strand's bases; toff: a partitioned target's record starts on the
 * joined target the seeder holds, partition_target's; NULL: the one record t[0]): 0, or -1
 * with the failure said (a sink's -1 stops the run). */
typedef int (*hsp_sink)(void *arg, const record *tr, const record *qr, char strand, const char *qs,
                        const gale_lastz_anchor *h, size_t n);
int seed_query_strands(const gale_lastz_seeder *sd, const record *t, long nt, const uint64_t *toff, const record *q,
                       long nq, int qmulti, int strands, int qrevcomp, hsp_sink sink, void *arg);
/* --nogapped without --segments: the HSPs written in lastz's order in os's format */
int write_hsps_in_order(const gale_lastz_seeder *sd, const record *t, long nt, const uint64_t *toff, const record *q,
                        long nq, int qmulti, int strands, int qrevcomp, out_spec *os);
/* The whole run without --segments: the HSPs as the lines of the segments file lastz's
 * --nogapped would write (*out, malloc'd; their count returned, -1 with the failure said),
 * for the gapped stage to take as it takes --segments (lastz's result is the same) */
long seed_segments(const gale_lastz_seeder *sd, const record *t, long nt, const uint64_t *toff, const record *q, long nq,
                   int qmulti, int strands, int qrevcomp, seg_line **out);
/* A query strand's gapped extension, one job of the run (its parts, anchors, result) */
typedef struct job job;
typedef struct {
    job *v;
    size_t n, cap;
    int warned_target_name; /* a segment naming another target than the one said so */
} job_list;
/* The job of query record r's strand s (r = -1: every record of a [multiple] query, one
 * part each), from the segments file's run of lines from *cursor on (lastz reads the file
 * once, in order), its anchors merged as lastz merges them; toff, qoff: a [multiple]
 * target's and query's records' starts on the joined sequences (NULL: one record).
 * Returns 0 with the job added, or with stop written (a bad line: no job, and the caller
 * stops there); -1 out of memory. */
int add_job(job_list *jl, long r, int s, const record *t, long nt, int multiple, const uint64_t *toff,
            const record *q, long nq, const uint64_t *qoff, const seg_line *segs, long ns, long *cursor,
            int segments_only, const char *segpath, char *stop, size_t stop_len);
void free_jobs(job_list *jl);
/* Runs jl's jobs on up to n_threads threads (gale_lastz_extend on ctx), at most a window
 * ahead of the one being written, and writes each in turn to stdout in os's format (with
 * --summary its figures on stderr): 0, or -1 with the first failure said (the jobs before
 * it written). */
int run_jobs_in_order(job_list *jl, gale_ctx *ctx, const gale_lastz_params *p, const record *t, long nt,
                      const record *q, out_spec *os, int n_threads, int summary);

#endif
