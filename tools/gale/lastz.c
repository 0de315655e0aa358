/*
 * gale lastz TARGET QUERY --segments=FILE [options]: LASTZ 1.04.22's gapped stage from
 * anchors (gale_lastz_extend), writing what `lastz TARGET QUERY --segments=FILE` writes
 * with the same options. See doc/cli.md ("gale lastz") for what is covered so far:
 * FASTA, FASTQ, 2bit and nib input (one target record, any number of query records), both strands,
 * LASTZ's scoring (--scores) and gapped options, and the formats lav (the default), general[-][:fields],
 * cigar, axt, maf[-], [soft]sam[-], rdotplot and segments.
 *
 * This file: the help, the options and the run; lastz_seqfile.c, lastz_segments.c,
 * lastz_actions.c and lastz_scores.c read the inputs, lastz_format.c writes the formats
 * (lastz_int.h between them).
 */
#define _POSIX_C_SOURCE 200809L /* getline, ssize_t */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "lastz_int.h"
#include "threads.h"
#include "options.h"
#include "subcommands.h"

void usage_lastz(FILE *out)
{
    fprintf(out,
        "Usage: gale lastz TARGET QUERY --segments=FILE [options]\n"
        "\n"
        "LASTZ 1.04.22's gapped extension from anchors, with lastz's output: replaces\n"
        "'lastz TARGET QUERY --segments=FILE' (e.g. after KegAlign/SegAlign seeding).\n"
        "TARGET: FASTA, FASTQ, 2bit or nib, one record (several with [multiple]); QUERY:\n"
        "the same, one or more records (FILE.2bit/NAME: the record NAME). SEGMENTS: lines\n"
        "'name1 start1 end1 name2 start2 end2 strand2 [score]' (lastz --format=segments),\n"
        "in the order lastz reads them (query records in file order, + strand first).\n"
        "TARGET and QUERY as lastz's specifiers: [NICK::]FILE[[ACTION,...]] with the\n"
        "actions unmask, nickname=NAME, subset=FILE (or @FILE), subsample=K/N,\n"
        "nameparse=darkspace|alnum|full|tag:MARKER, format=fasta|fastq|2bit|nib, the\n"
        "subranges START..END, START,END, START.., ..END, START#LENGTH, CENTER^LENGTH,\n"
        "START..END+ZOOM%%, softmask=, xmask=, nmask= (also =keep:FILE), on the target\n"
        "multiple and separator=C, on the query revcomp (or FILE-) and multiple (with a\n"
        "one-record target); separator= on the query is refused so far, chores= and\n"
        "quantum as lastz refuses them here. Names are parsed from headers as lastz does.\n"
        "\n"
        "Options (as lastz's):\n"
        "  --segments=FILE          the anchors (required; --anchors=FILE is the same)\n"
        "  --format=FORMAT          lav (the default, as lastz's), general (default\n"
        "                           fields), general:F1,F2,..., general-[:...], cigar,\n"
        "                           axt, maf, maf-, sam, sam-, softsam, softsam-,\n"
        "                           rdotplot, segments (the anchors, merged, without\n"
        "                           gapped extension: as lastz)\n"

        "  --scores=FILE            substitution scores (DNA alphabets), gaps and\n"
        "                           thresholds from a LASTZ scoring file (HOXD70)\n"
        "  --match=R[,P]            scores R for a match, -P for a mismatch (P: R), with\n"
        "                           lastz's gaps and thresholds for them; --unitscores: 1,1\n"
        "  --ambiguous=n|iupac[,P] or [,M,P]  N (and with iupac the IUPAC codes, which\n"
        "                           lastz refuses without it) score M against their\n"
        "                           like and -P against A, C, G, T (0, 0)\n"
        "  --gap=OPEN,EXTEND        gap penalties (400,30)\n"
        "  --ydrop=N                y-drop (OPEN + 300 * EXTEND)\n"
        "  --gappedthresh=N         score threshold of the alignments (3000)\n"
        "  --noytrim                do not trim an extension that reaches a sequence end\n"
        "  --allgappedbounds        low-scoring alignments still bound later ones\n"
        "  --notrivial              drop the trivial self-alignment of identical sequences\n"
        "  --strand=both|plus|minus query strands (both)\n"
        "  --output=FILE            write the alignments to FILE (--out=FILE too)\n"
        "  --allocate:traceback=N   LASTZ's traceback memory in bytes (80M; K, M, G by\n"
        "                           1,024, as lastz reads them); 0: unlimited\n"
        "                           (gale only: lastz cuts longer extensions)\n"
        "\n"
        "gale's own (the output does not change with them; doc/ydrop.md):\n"
        "  --backend=B              auto, cpu or cuda (auto: the GPU's when one is usable):\n"
        "                           the one-sided extensions on the GPU, LASTZ's walk on\n"
        "                           the CPU\n"
        "  --threads=N              CPU threads (0: one per core); on the cpu backend one\n"
        "                           thread runs LASTZ's walk alone, more compute the\n"
        "                           extensions in parallel first\n"
        "  --device=N|N,M,...|all   the GPUs (default 0): with several, each wave of\n"
        "                           extensions is dealt out to all of them\n"
        "  --summary                per query strand on stderr: the phases' times and\n"
        "                           where the extensions ran\n"
        "\n"
        "general fields: score name1 number1 strand1 size1 start1 zstart1 end1 length1\n"
        "align1 text1 nucs1 name2 number2 strand2 size2 start2 zstart2 end2 start2+\n"
        "zstart2+ end2+ length2 align2 text2 nucs2 nmatch nmismatch npair ncolumn ngap\n"
        "cgap diff cigar cigar- cigarx cigarx- cigarx1 cigarx1- diagonal identity idfrac\n"
        "id%% blastid%% coverage covfrac cov%% continuity confrac con%% gaprate number\n"
        "znumber NA, and LASTZ's aliases (n1 s1 z1 e1 l1 a1 t1 n2 s2 z2 s2+ z2+ e2 e2+\n"
        "l2 a2 t2 d diag s id ident cov con con%% gap), chore, shingle, phash, ahash,\n"
        "qalign1/2 (*), hspid. diffCCCCCC: diff with its own six characters;\n"
        "quals1/2 need FASTQ (refused).\n");
}

/* dna_utilities.c nuc_to_complement: A C G T and the IUPAC codes (B-V, D-H, K-M, R-Y; N, S,
 * W their own) in either case; every other byte as it is */
static char complement(char c)
{
    static const char from[] = "ACGTBVDHKMRYacgtbvdhkmry", to[] = "TGCAVBHDMKYRtgcavbhdmkyr";
    const char *p = c ? strchr(from, c) : NULL;
    return p ? to[p - from] : c;
}

/* A query strand's gapped extension, one job of the run: against each target record its
 * segments name (the one record, or for a [multiple] target those named), in target order,
 * as lastz batches a partitioned target's anchors (gapped_extend.c: per partition, each
 * bounded by its own alignments and its partition's ends). */
typedef struct {
    long ti;                 /* the target record */
    long qi;                 /* the query record */
    char *qs;                /* a [multiple] query's part: its record's strand bases (made when it runs) */
    gale_lastz_anchor *an;   /* its anchors, in the file's order */
    long *seg;               /* each one's line among the file's segments, from 0 (LASTZ's hspid - 1) */
    size_t n;
    gale_lastz_result *res;
} job_part;

/* An anchor as read: its target record, its place in the run, its segments line */
typedef struct {
    long ti, qi;             /* its target and query records */
    size_t order;
    long seg;                /* the line among the file's segments, from 0; after merge_segments, the
                              * line of the segment that was at this index (LASTZ's hspId) */
    int64_t diag;            /* pos1 - pos2, on the joined target and query for [multiple] */
    uint64_t jpos2;          /* pos2 on the joined query (a [multiple] query's; else pos2) */
    gale_lastz_anchor a;     /* on its target record */
} placed_anchor;

typedef struct {
    long r;                  /* the query record; -1: all of a [multiple] query's (a part each) */
    int s;                   /* 0: + strand, 1: - */
    placed_anchor *merged;   /* --format=segments: the anchors after merge_segments, in its order */
    size_t n_merged;
    job_part *parts;
    size_t n_parts;
    char *qs;                /* the strand's bases (made when the job runs) */
    gale_status st;
    char err[512];           /* the failure, with gale_last_error()'s detail */
    int state;               /* 0 waiting, 1 running, 2 done */
} job;

typedef struct {
    job *v;
    size_t n, cap;
    int warned_target_name; /* a segment naming another target than the one said so */
} job_list;

static void release_job(job *jb)
{
    for (size_t k = 0; k < jb->n_parts; k++) {
        free(jb->parts[k].an);
        free(jb->parts[k].qs);
        free(jb->parts[k].seg);
        gale_lastz_result_free(jb->parts[k].res);
    }
    free(jb->parts);
    free(jb->qs);
    free(jb->merged);
    jb->merged = NULL;
    jb->parts = NULL;
    jb->n_parts = 0;
    jb->qs = NULL;
}

static void free_jobs(job_list *jl)
{
    for (size_t k = 0; k < jl->n; k++) release_job(&jl->v[k]);
    free(jl->v);
}

/* the parts' order: target record, then query record ([multiple] query), then merge order */
static int by_target(const void *x, const void *y)
{
    const placed_anchor *a = x, *b = y;
    if (a->ti != b->ti) return a->ti < b->ti ? -1 : 1;
    if (a->qi != b->qi) return a->qi < b->qi ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* segment.c qSegmentsByDiag (one strand's anchors share their id): diagonal, pos2, length,
 * score; then the file's order (glibc's qsort, a merge sort, keeps it for equal ones) */
static int by_diag(const void *x, const void *y)
{
    const placed_anchor *a = x, *b = y;
    if (a->diag != b->diag) return a->diag < b->diag ? -1 : 1;
    if (a->jpos2 != b->jpos2) return a->jpos2 < b->jpos2 ? -1 : 1;
    if (a->a.length != b->a.length) return a->a.length < b->a.length ? -1 : 1;
    if (a->a.score != b->a.score) return a->a.score < b->a.score ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* segment.c merge_segments, which finish_one_strand runs on the anchors read (lastz sets
 * mergeAnchors with --segments) before any extension: sorted by diagonal, a segment that
 * starts inside the one before it on its diagonal merged into it (the further end, the
 * higher score). As there, the merged segments are written in place from index 0 and keep
 * the hspId of the segment that was at their index (merge_segments rewrites positions,
 * length and score only). Returns the number left. */
static size_t merge_segments(placed_anchor *pa, size_t n)
{
    size_t dst = 0;
    if (n < 2) return n;
    qsort(pa, n, sizeof *pa, by_diag);
    placed_anchor cur = pa[0];
    uint64_t end2 = cur.jpos2 + cur.a.length;
    for (size_t k = 1; k < n; k++) {
        const placed_anchor g = pa[k];
        if (g.diag == cur.diag && g.jpos2 < end2) {
            if (g.jpos2 + g.a.length > end2) end2 = g.jpos2 + g.a.length;
            if (g.a.score > cur.a.score) cur.a.score = g.a.score;
            continue;
        }
        cur.a.length = (uint32_t)(end2 - cur.jpos2);
        cur.seg = pa[dst].seg;
        pa[dst++] = cur;
        cur = g;
        end2 = cur.jpos2 + cur.a.length;
    }
    cur.a.length = (uint32_t)(end2 - cur.jpos2);
    cur.seg = pa[dst].seg;
    pa[dst++] = cur;
    return dst;
}

/* The job of query record r's strand s: LASTZ reads the segments file once, in order
 * (segment.c read_segment_table): the strand takes the run of lines that name it (or '*')
 * from *cursor on; a line that names another stops the run. Each line must lie in the query's
 * subrange and in the target: with multiple (a partitioned target, [multiple] or
 * [separator=], even with one record left of it) in the record it names; else in the one
 * target, whatever it names (lastz does not look). The run's anchors are merged as lastz
 * merges them (toff: each [multiple] record's start on the joined target, NULL for one
 * record), then kept as they are (segments_only: --format=segments writes them) or dealt
 * out to the target records they name. Returns 0 with the job added, or with stop written
 * (the bad line: no job then, and the caller stops); -1 out of memory. */
static int add_job(job_list *jl, long r, int s, const record *t, long nt, int multiple, const uint64_t *toff,
                   const record *q, long nq, const uint64_t *qoff, const seg_line *segs, long ns, long *cursor,
                   int segments_only, const char *segpath, char *stop, size_t stop_len)
{
    const char strand = s == 0 ? '+' : '-';
    placed_anchor *pa = NULL;
    size_t n = 0, cap = 0;
    long last = 0;
    job jb;
    memset(&jb, 0, sizeof jb);
    jb.r = r;
    jb.s = s;
    for (; *cursor < ns; ++*cursor) {
        const seg_line *g = &segs[*cursor];
        long ti = 0, qi = r;
        const record *qr;
        size_t o2;
        if (g->strand != strand) break;
        if (r >= 0) {
            if (strcmp(g->name2, q[r].name) != 0 && strcmp(g->name2, "*") != 0) break;
        } else { /* a [multiple] query: the strand's run names any of its records */
            for (qi = 0; qi < nq && strcmp(g->name2, q[qi].name) != 0; qi++) {}
            if (qi == nq) {
                snprintf(stop, stop_len, "%s line %ld: the segment names query '%s', which the [multiple] query has no "
                         "record of", segpath, g->line, g->name2);
                goto stopped;
            }
        }
        qr = &q[qi];
        o2 = strand == '+' ? qr->start_loc - 1 : qr->true_len - (qr->start_loc - 1 + qr->len);
        if (!multiple) {
            /* lastz ignores the target name of a one-record target's segments (the anchor is
             * taken on it whatever it names): so does gale, saying so once */
            if (strcmp(g->name1, t[0].name) != 0 && strcmp(g->name1, "*") != 0 && !jl->warned_target_name) {
                msg("warning: %s line %ld names target '%s', not '%s': taken on '%s' (as lastz takes it)", segpath,
                    g->line, g->name1, t[0].name, t[0].name);
                jl->warned_target_name = 1;
            }
        } else {
            /* (a run names a few records, many lines each: the last one found is tried first);
             * a record cut by [separator=C] is several pieces of one name: the one holding
             * the segment's start (else the first, whose range check then refuses it) */
            long named = -1;
#define HOLDS(k) (strcmp(g->name1, t[k].name) == 0 && g->start1 >= t[k].start_loc && g->start1 < t[k].start_loc + t[k].len)
            if (HOLDS(last)) ti = last;
            else {
                for (ti = 0; ti < nt && !HOLDS(ti); ti++)
                    if (named < 0 && strcmp(g->name1, t[ti].name) == 0) named = ti;
                if (ti == nt && named >= 0) ti = named;
            }
#undef HOLDS
            if (ti == nt) {
                snprintf(stop, stop_len, "%s line %ld: the segment names target '%s', which the [multiple] target has no "
                         "record of%s", segpath, g->line, g->name1,
                         strcmp(g->name1, "*") == 0 ? " ('*' names no one record of a [multiple] target)" : "");
                goto stopped;
            }
            last = ti;
        }
        {
            /* on the whole record (its whole reverse complement on the - strand); it must lie in
             * the subrange (segment.c: "interval out of range") */
            const record *tr = &t[ti];
            const size_t o1 = tr->start_loc - 1;
            if (g->start1 - 1 < o1 || g->end1 > o1 + tr->len || g->start2 - 1 < o2 || g->end2 > o2 + qr->len) {
                snprintf(stop, stop_len, "%s line %ld: segment out of range of '%s' (%zu..%zu) or '%s%c' (%zu..%zu)",
                         segpath, g->line, tr->name, o1 + 1, o1 + tr->len, qr->name, strand, o2 + 1, o2 + qr->len);
                goto stopped;
            }
            if (n == cap) {
                placed_anchor *np = realloc(pa, (cap = cap ? 2 * cap : 1024) * sizeof *pa);
                if (!np) goto oom;
                pa = np;
            }
            pa[n].ti = ti;
            pa[n].qi = qi;
            pa[n].order = n;
            pa[n].seg = *cursor;
            pa[n].jpos2 = (qoff ? qoff[qi] : 0) + (g->start2 - 1 - o2);
            pa[n].diag = (int64_t)(toff ? toff[ti] : 0) + (int64_t)(g->start1 - 1 - o1) - (int64_t)pa[n].jpos2;
            pa[n].a.pos1 = (uint32_t)(g->start1 - 1 - o1);
            pa[n].a.pos2 = (uint32_t)(g->start2 - 1 - o2);
            pa[n].a.length = g->end1 + 1 - g->start1;
            pa[n].a.score = g->score;
            n++;
        }
    }
    n = merge_segments(pa, n);
    if (segments_only) {
        jb.merged = pa; /* (NULL for a strand without anchors) */
        jb.n_merged = n;
        pa = NULL;
        goto add;
    }
    for (size_t k = 0; k < n; k++) pa[k].order = k;
    if ((multiple || r < 0) && n > 1) qsort(pa, n, sizeof *pa, by_target);
    /* the parts: one per target record (and, for a [multiple] query, query record) named
     * (the one target's and query record's even with no anchors), its anchors in
     * merge_segments' order */
    for (size_t k = 0; k < n || (!multiple && r >= 0 && jb.n_parts == 0);) {
        size_t e = k;
        job_part *np;
        while (e < n && pa[e].ti == pa[k].ti && pa[e].qi == pa[k].qi) e++;
        np = realloc(jb.parts, (jb.n_parts + 1) * sizeof *np);
        if (!np) goto oom;
        jb.parts = np;
        np = &jb.parts[jb.n_parts++];
        memset(np, 0, sizeof *np);
        np->ti = k < n ? pa[k].ti : 0;
        np->qi = k < n ? pa[k].qi : r;
        np->n = e - k;
        np->an = malloc((np->n ? np->n : 1) * sizeof *np->an);
        np->seg = malloc((np->n ? np->n : 1) * sizeof *np->seg);
        if (!np->an || !np->seg) goto oom;
        for (size_t j = k; j < e; j++) {
            np->an[j - k] = pa[j].a;
            np->seg[j - k] = pa[j].seg;
        }
        k = e;
    }
    free(pa);
add:
    if (jl->n == jl->cap) {
        job *nv = realloc(jl->v, (jl->cap = jl->cap ? 2 * jl->cap : 16) * sizeof *nv);
        if (!nv) {
            release_job(&jb);
            return -1;
        }
        jl->v = nv;
    }
    jl->v[jl->n++] = jb;
    return 0;
stopped:
    free(pa);
    release_job(&jb);
    return 0;
oom:
    free(pa);
    release_job(&jb);
    return -1;
}

/* The jobs running: up to T threads take them in order, at most a window ahead of the
 * one being written (the results wait in memory until then). */
typedef struct {
    job_list *jl;
    gale_ctx *ctx;
    const gale_lastz_params *p;
    const record *t, *q;
    int segments_only;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next, written, window;
    pthread_t *threads;
    int n_threads, started;
} run_state;

/* A query record's bases on strand s (the - strand: its reverse complement), malloc'd */
static char *strand_bases(const record *qr, int s)
{
    char *qs = malloc(qr->len + 1);
    if (!qs) return NULL;
    for (size_t k = 0; k < qr->len; k++) qs[k] = s == 0 ? qr->seq[k] : complement(qr->seq[qr->len - 1 - k]);
    qs[qr->len] = 0;
    return qs;
}

static void run_job(run_state *rs, job *jb)
{
    gale_lastz_params p = *rs->p;
    jb->st = GALE_OK;
    if (rs->segments_only) return;
    if (jb->r >= 0 && !(jb->qs = strand_bases(&rs->q[jb->r], jb->s))) {
        jb->st = GALE_E_NOMEM;
        snprintf(jb->err, sizeof jb->err, "%s", gale_status_string(jb->st));
        return;
    }
    /* (GALE_LASTZ_MINUS: no trivial self-alignment looked for first, as on lastz's - strand
     * and for its partitioned query, which it checks after instead: write_job) */
    p.flags = (p.flags & ~GALE_LASTZ_MINUS) | (jb->s || jb->r < 0 ? GALE_LASTZ_MINUS : 0);
    for (size_t k = 0; k < jb->n_parts; k++) {
        job_part *pt = &jb->parts[k];
        const record *tr = &rs->t[pt->ti], *qr = &rs->q[pt->qi];
        const char *qs = jb->qs;
        if (jb->r < 0) {
            if (!(pt->qs = strand_bases(qr, jb->s))) {
                jb->st = GALE_E_NOMEM;
                snprintf(jb->err, sizeof jb->err, "%s", gale_status_string(jb->st));
                return;
            }
            qs = pt->qs;
        }
        jb->st = gale_lastz_extend(rs->ctx, tr->seq, (int64_t)tr->len, qs, (int64_t)qr->len, pt->an, pt->n, &p,
                                   &pt->res);
        if (jb->r >= 0) { /* (a [multiple] query's anchors stay: their scores order its output) */
            free(pt->an);
            pt->an = NULL;
        }
        if (jb->st != GALE_OK) {
            const char *detail = gale_last_error();
            snprintf(jb->err, sizeof jb->err, "%s%s%s%s", gale_status_string(jb->st), detail && *detail ? " (" : "",
                     detail && *detail ? detail : "", detail && *detail ? ")" : "");
            return;
        }
    }
}

static void *job_worker(void *arg)
{
    run_state *rs = arg;
    pthread_mutex_lock(&rs->mu);
    for (;;) {
        while (rs->next < rs->jl->n && rs->next >= rs->written + rs->window) pthread_cond_wait(&rs->cv, &rs->mu);
        if (rs->next >= rs->jl->n) break;
        job *jb = &rs->jl->v[rs->next++];
        jb->state = 1;
        pthread_mutex_unlock(&rs->mu);
        run_job(rs, jb);
        pthread_mutex_lock(&rs->mu);
        jb->state = 2;
        pthread_cond_broadcast(&rs->cv);
    }
    pthread_mutex_unlock(&rs->mu);
    return NULL;
}

/* Starts up to n_threads workers (with 1, or when none starts, the writer runs each job
 * itself when it wants it). */
static void run_jobs(run_state *rs, int n_threads)
{
    pthread_mutex_init(&rs->mu, NULL);
    pthread_cond_init(&rs->cv, NULL);
    if (n_threads > (int)rs->jl->n) n_threads = (int)rs->jl->n;
    rs->window = n_threads > 1 ? 4 * (size_t)n_threads : 1;
    rs->threads = n_threads > 1 ? calloc((size_t)n_threads, sizeof *rs->threads) : NULL;
    for (int k = 0; rs->threads && k < n_threads; k++)
        if (pthread_create(&rs->threads[rs->started], NULL, job_worker, rs) == 0) rs->started++;
}

/* Waits for job k (or runs it here if no worker has taken it), then counts it written. */
static void wait_job(run_state *rs, size_t k)
{
    job *jb = &rs->jl->v[k];
    pthread_mutex_lock(&rs->mu);
    if (jb->state == 0 && rs->next == k) { /* (no worker: the writer runs it) */
        rs->next++;
        jb->state = 1;
        pthread_mutex_unlock(&rs->mu);
        run_job(rs, jb);
        pthread_mutex_lock(&rs->mu);
        jb->state = 2;
    }
    while (jb->state != 2) pthread_cond_wait(&rs->cv, &rs->mu);
    rs->written = k + 1;
    pthread_cond_broadcast(&rs->cv);
    pthread_mutex_unlock(&rs->mu);
}

/* Stops the workers (those still to take a job take none) and frees the state. */
static void finish_jobs(run_state *rs)
{
    pthread_mutex_lock(&rs->mu);
    rs->next = rs->jl->n;
    pthread_cond_broadcast(&rs->cv);
    pthread_mutex_unlock(&rs->mu);
    for (int k = 0; k < rs->started; k++) pthread_join(rs->threads[k], NULL);
    free(rs->threads);
    pthread_cond_destroy(&rs->cv);
    pthread_mutex_destroy(&rs->mu);
}

/* One alignment of a [multiple] query's strand: its part and its index there */
typedef struct {
    size_t part, j;
    uint32_t beg1;
    int32_t score; /* its anchor's */
    long qi;
} part_alignment;

/* gapped_extend.c's reporting order across a [multiple] query's parts: by target start;
 * on a tie the alignment extended later first (insert_align puts each before those that
 * start where it does), and lastz extends by anchor score down, then by position on the
 * joined query (so an earlier record's anchor first on equal scores); a part's own ties are
 * in that order already */
static int by_report_order(const void *x, const void *y)
{
    const part_alignment *a = x, *b = y;
    if (a->beg1 != b->beg1) return a->beg1 < b->beg1 ? -1 : 1;
    if (a->part == b->part) return a->j < b->j ? -1 : a->j > b->j;
    if (a->score != b->score) return a->score < b->score ? -1 : 1;
    return a->qi > b->qi ? -1 : a->qi < b->qi;
}

/* --notrivial on a [multiple] query (gapped_extend.c's delayed check): an alignment that is
 * one run of matched bases over the whole of a target and a query record of one length and
 * one name is the trivial self-alignment, dropped */
static int delayed_trivial(const gale_lastz_alignment *a, const record *tr, const record *qr, const char *qs)
{
    const char *n1 = tr->header, *n2 = qr->header;
    if (a->n_ops != 1 || GALE_CIGAR_OP(a->cigar[0]) != GALE_CIGAR_MATCH) return 0;
    if (tr->true_len != qr->true_len || (size_t)(a->end1 - a->beg1 + 1) != tr->true_len) return 0;
    if (*n1 == '>') for (n1++; *n1 == ' ' || *n1 == '\t'; n1++) {}
    if (*n2 == '>') for (n2++; *n2 == ' ' || *n2 == '\t'; n2++) {}
    if (strcmp(n1, n2) != 0) return 0;
    return memcmp(tr->seq + a->beg1 - 1, qs + a->beg2 - 1, a->end1 - a->beg1 + 1) == 0;
}

/* A finished job's output, in lastz's order: the summary and truncation lines on stderr,
 * then each part's alignments (parts in target order, alignments by target start; a
 * [multiple] query's parts merged in lastz's one order), or with --format=segments the
 * merged anchors. Returns 0, -1 out of memory. */
static int write_job(out_spec *os, job *jb, const record *t, long nt, const record *q, int summary)
{
    const char strand = jb->s == 0 ? '+' : '-';
    const record *qr = jb->r >= 0 ? &q[jb->r] : NULL; /* (NULL: a [multiple] query's parts name theirs) */
    if (os->segments) { /* the anchors after merge_segments, in its order (no gapped extension) */
        for (size_t k = 0; k < jb->n_merged; k++) {
            const placed_anchor *m = &jb->merged[k];
            gale_lastz_alignment a;
            uint32_t op = GALE_CIGAR_MATCH | (m->a.length << GALE_CIGAR_SHIFT);
            memset(&a, 0, sizeof a);
            a.beg1 = m->a.pos1 + 1;
            a.end1 = m->a.pos1 + m->a.length;
            a.beg2 = m->a.pos2 + 1;
            a.end2 = m->a.pos2 + m->a.length;
            a.score = m->a.score;
            a.n_ops = 1;
            a.cigar = &op;
            write_alignment(stdout, os, &t[m->ti], &q[m->qi], NULL, strand, &a);
        }
        return 0;
    }
    for (size_t k = 0; k < jb->n_parts; k++) {
        job_part *pt = &jb->parts[k];
        const record *tr = &t[pt->ti];
        const size_t count = gale_lastz_result_count(pt->res);
        qr = &q[pt->qi];
        if (summary) {
            gale_lastz_stats ls;
            memset(&ls, 0, sizeof ls);
            ls.size = sizeof ls;
            if (gale_lastz_result_stats(pt->res, &ls) == GALE_OK)
                fprintf(stderr,
                        "gale: lastz: %s%c%s%s: %zu anchors, %zu alignments; phase 1 %.3f s (%" PRIu64 " halves, %" PRIu64
                        " on the GPU, %" PRIu64 " of them too large for it; %" PRIu64 " cells; kernels %.3f s), the walk %.3f s (beside phase 1; %" PRIu64
                        " halves walked, %" PRIu64 " computed there)\n",
                        qr->name, strand, nt > 1 ? " on " : "", nt > 1 ? tr->name : "", pt->n, count,
                        ls.phase1_seconds, ls.sides_phase1, ls.sides_device, ls.sides_device_failed, ls.cells_phase1,
                        ls.kernel_seconds, ls.phase2_seconds, ls.sides_walked, ls.sides_redone);
        }
        if (gale_lastz_result_truncations(pt->res))
            msg("warning: %" PRIu64 " extensions of %s%c%s%s were cut where LASTZ's traceback memory ran out "
                "(as lastz does; --allocate:traceback=0 lifts it)",
                gale_lastz_result_truncations(pt->res), qr->name, strand, nt > 1 ? " on " : "", nt > 1 ? tr->name : "");
        os->contig = qr->contig;
        if (os->lav && count) lav_strand_header(stdout, os, tr, qr, strand);
        if ((os->sam == 1 || os->sam == 3) && !os->sq_done && count) {
            /* (a [multiple] target: every record's line at once, as lastz writes them) */
            for (long j = 0; j < nt; j++) printf("@SQ\tSN:%s\tLN:%zu\n", t[j].name, t[j].true_len);
            os->sq_done = 1;
        }
        for (size_t j = 0; jb->r >= 0 && j < count; j++) {
            gale_lastz_alignment a;
            a.size = sizeof a;
            gale_lastz_result_get(pt->res, j, &a);
            os->hspid = a.anchor == GALE_LASTZ_NO_ANCHOR ? 0 : (uint64_t)pt->seg[a.anchor] + 1;
            write_alignment(stdout, os, tr, qr, jb->qs, strand, &a);
        }
    }
    if (jb->r < 0) { /* a [multiple] query's strand: its records' alignments in lastz's one order */
        size_t total = 0, m = 0;
        part_alignment *all;
        for (size_t k = 0; k < jb->n_parts; k++) total += gale_lastz_result_count(jb->parts[k].res);
        if (!(all = malloc((total ? total : 1) * sizeof *all))) return -1;
        for (size_t k = 0; k < jb->n_parts; k++)
            for (size_t j = 0; j < gale_lastz_result_count(jb->parts[k].res); j++) {
                gale_lastz_alignment a;
                a.size = sizeof a;
                gale_lastz_result_get(jb->parts[k].res, j, &a);
                all[m].part = k;
                all[m].j = j;
                all[m].beg1 = a.beg1;
                all[m].score = a.anchor == GALE_LASTZ_NO_ANCHOR ? INT32_MAX : jb->parts[k].an[a.anchor].score;
                all[m].qi = jb->parts[k].qi;
                m++;
            }
        if (m > 1) qsort(all, m, sizeof *all, by_report_order);
        for (size_t x = 0; x < m; x++) {
            const job_part *pt = &jb->parts[all[x].part];
            gale_lastz_alignment a;
            a.size = sizeof a;
            gale_lastz_result_get(pt->res, all[x].j, &a);
            if (os->notrivial && delayed_trivial(&a, &t[pt->ti], &q[pt->qi], pt->qs)) continue;
            os->contig = q[pt->qi].contig;
            os->hspid = a.anchor == GALE_LASTZ_NO_ANCHOR ? 0 : (uint64_t)pt->seg[a.anchor] + 1;
            write_alignment(stdout, os, &t[pt->ti], &q[pt->qi], pt->qs, strand, &a);
        }
        free(all);
    }
    return 0;
}

/* The matrix as lastz prints its score set (dna_utilities.c private_print_score_matrix):
 * the columns and rows in the scoring file's order (A C G T without a file), the lower-case
 * ones left out (the alphabets are DNA), each line after prefix; with row labels where
 * lastz prints its extras (axt, maf), without for lav. */
static void print_matrix(const gale_lastz_params *p, const lastz_scores *sc, const char *prefix, int labels)
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
static void scores_warning(const char *path, const int32_t m[4][4])
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

/* lastz's names of --allocate:traceback=SIZE (lastz.c: and m=SIZE) */
static int traceback_option(const char *a)
{
    static const char *const names[] = {"--allocate:traceback=", "--alloc:traceback=", "--memory:traceback=",
                                        "--mem:traceback=", "--traceback=", "m="};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strncmp(a, names[k], strlen(names[k])) == 0) return 1;
    return 0;
}

int cmd_lastz(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL}, *segpath = NULL, *format = NULL;
    int npaths = 0, rc = EXIT_FAIL, strands = 3;
    gale_lastz_params p;
    int have_ydrop = 0, have_gap = 0, have_gapped = 0, summary = 0;
    const char *scores_path = NULL; /* --scores=FILE */
    const char *output_path = NULL; /* --output=FILE (else stdout) */
    char target_missing[1024] = "", query_missing[1024] = ""; /* a [subset=] name lastz fails on */
    char no_quals[1100] = ""; /* quals2 asked of a query without qualities */
    int32_t unit_match = 0, unit_mismatch = 0; /* --match=R,P (--unitscores: 1,1); 0: not given */
    lastz_scores sc = {0};
    const char *gapped_opt = NULL; /* the first option of the gapped stage given */
    out_spec os;
    record *t = NULL, *q = NULL;
    seg_line *segs = NULL;
    long nt = 0, nq = 0, ns = 0, cursor = 0;
    uint64_t *toff = NULL; /* a [multiple] target's record starts on the joined target */
    uint64_t *qoff = NULL; /* a [multiple] query's record starts on the joined query */
    static seq_spec specs[2];
    gale_ctx *ctx = NULL;
    common_opts co; /* gale's --backend, --threads (lastz's = form) */
    common_opts_init(&co, 0);
    co.device_memory = GALE_DEVICE_MEMORY_HALF_FREE; /* a slot holds a whole extension: LASTZ's 80 MiB of traceback */
    gale_lastz_params_init(&p);
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        int64_t v;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage_lastz(stdout);
            return stdout_status();
        } else if (strncmp(a, "--segments=", 11) == 0) {
            segpath = a + 11;
        } else if (strncmp(a, "--anchors=", 10) == 0) { /* lastz's older name of --segments */
            segpath = a + 10;
        } else if (strncmp(a, "--format=", 9) == 0) {
            format = a + 9;
        } else if (strncmp(a, "--gap=", 6) == 0) {
            if (!gapped_opt) gapped_opt = a;
            int o, e, used = 0;
            if (sscanf(a + 6, "%d,%d%n", &o, &e, &used) != 2 || a[6 + used] || o < 0 || e < 0)
                return bad_value(CMD, "--gap", a + 6, "expected OPEN,EXTEND (non-negative)");
            p.gap_open = o;
            p.gap_extend = e;
            have_gap = 1;
        } else if (strncmp(a, "--ydrop=", 8) == 0) {
            if (!gapped_opt) gapped_opt = a;
            if (option_number(CMD, "--ydrop", a + 8, 0, 1 << 28, &v)) return EXIT_USAGE;
            p.ydrop = (int32_t)v;
            have_ydrop = 1;
        } else if (strncmp(a, "--gappedthresh=", 15) == 0) {
            if (!gapped_opt) gapped_opt = a;
            if (option_number(CMD, "--gappedthresh", a + 15, INT32_MIN, INT32_MAX, &v)) return EXIT_USAGE;
            p.gapped_thresh = (int32_t)v;
            have_gapped = 1;
        } else if (strncmp(a, "--scores=", 9) == 0) { /* (lastz takes it with --format=segments too) */
            scores_path = a + 9;
        } else if (strcmp(a, "--unitscores") == 0 || strcmp(a, "--unitscore") == 0) {
            unit_match = 1, unit_mismatch = 1;
        } else if (strncmp(a, "--match=", 8) == 0) {
            /* --match=R[,P] (lastz.c): match R > 0, mismatch -P with P > 0 (default R) */
            char buf[64];
            char *comma;
            if (strlen(a + 8) >= sizeof buf) return bad_value(CMD, "--match", a + 8, "expected MATCH[,MISMATCH]");
            strcpy(buf, a + 8);
            comma = strchr(buf, ',');
            if (comma) *comma++ = 0;
            /* (at most 2^20 each: the library's bound on scores, and -10 P fits an int) */
            if (score_value(buf, &unit_match) || unit_match <= 0 || unit_match > (1 << 20))
                return bad_value(CMD, "--match", a + 8, "the match score must be a number in [1, 2^20]");
            unit_mismatch = unit_match;
            if (comma && (score_value(comma, &unit_mismatch) || unit_mismatch <= 0 || unit_mismatch > (1 << 20)))
                return bad_value(CMD, "--match", a + 8, "the mismatch penalty must be a number in [1, 2^20]");
        } else if (strncmp(a, "--ambiguous", 11) == 0 || strncmp(a, "--ambig=", 8) == 0) {
            /* --ambiguous=n|iupac[,PENALTY] or [,MATCH,PENALTY] (lastz.c; --ambig= the same,
             * --ambiguousn, N and IUPAC in upper case too): the penalty non-negative */
            const char *v = strcmp(a, "--ambiguousn") == 0 ? "n" : strchr(a, '=') ? strchr(a, '=') + 1 : "";
            const int iupac = (strncmp(v, "iupac", 5) == 0 || strncmp(v, "IUPAC", 5) == 0) && (v[5] == 0 || v[5] == ',');
            const int n = (v[0] == 'n' || v[0] == 'N') && (v[1] == 0 || v[1] == ',');
            const char *rest = iupac ? v + 5 : n ? v + 1 : NULL;
            int32_t m = 0, pen = 0;
            if (!rest || (strncmp(a, "--ambiguous", 11) == 0 && a[11] != '=' && strcmp(a, "--ambiguousn") != 0))
                return bad_value(CMD, "--ambiguous", a, "expected --ambiguous=n or iupac, optionally ,PENALTY or ,MATCH,PENALTY");
            if (*rest == ',') {
                char buf[64];
                char *c2;
                if (strlen(rest + 1) >= sizeof buf) return bad_value(CMD, "--ambiguous", a, "too long");
                strcpy(buf, rest + 1);
                c2 = strchr(buf, ',');
                if (c2) *c2++ = 0;
                if (score_value(c2 ? c2 : buf, &pen) || pen > (1 << 20) ||
                    (c2 && (score_value(buf, &m) || m < -(1 << 20) || m > (1 << 20))))
                    return bad_value(CMD, "--ambiguous", a, "the scores must be numbers in [-2^20, 2^20]");
                if (pen < 0) {
                    msg("penalty for --ambiguous=%s must be non-negative", iupac ? "iupac" : "n");
                    return EXIT_FAIL;
                }
            }
            p.flags |= iupac ? GALE_LASTZ_AMBIGUOUS_IUPAC : GALE_LASTZ_AMBIGUOUS_N;
            p.ambi_n_n = m;
            p.ambi_n_other = -pen;
        } else if (strcmp(a, "--noytrim") == 0) {
            if (!gapped_opt) gapped_opt = a;
            p.flags |= GALE_LASTZ_NOYTRIM;
        } else if (strcmp(a, "--allgappedbounds") == 0) {
            if (!gapped_opt) gapped_opt = a;
            p.flags |= GALE_LASTZ_ALLBOUNDS;
        } else if (strcmp(a, "--notrivial") == 0) {
            p.flags |= GALE_LASTZ_NOTRIVIAL;
        } else if (traceback_option(a)) {
            /* lastz 1.04.22's sizes (80M, 1.99G: by 1,024, within an int: 2G is refused there);
             * gale also takes 0 (no limit) and sizes from 16 bytes, where lastz wants 100K */
            const char *val = strchr(a, '=') + 1;
            int32_t bytes;
            if (unitized_value(val, 0, &bytes) || bytes < 0)
                return bad_value(CMD, "--allocate:traceback", val, "expected a size below 2G (e.g. 80M, 1.99G), or 0");
            if (bytes != 0 && bytes < 16) return bad_value(CMD, "--allocate:traceback", val, "0 or at least 16 bytes");
            p.traceback_bytes = (uint64_t)bytes;
        } else if (strncmp(a, "--output=", 9) == 0 || strncmp(a, "--out=", 6) == 0) {
            output_path = strchr(a, '=') + 1;
            if (!*output_path) return bad_value(CMD, "--output", output_path, "expected a file name");
        } else if (strncmp(a, "--strand=", 9) == 0) {
            if (strcmp(a + 9, "both") == 0) strands = 3;
            else if (strcmp(a + 9, "plus") == 0) strands = 1;
            else if (strcmp(a + 9, "minus") == 0) strands = 2;
            else return bad_value(CMD, "--strand", a + 9, "expected both, plus or minus");
        } else if (strncmp(a, "--backend=", 10) == 0) {
            if (strcmp(a + 10, "auto") == 0) co.backend = GALE_BACKEND_AUTO;
            else if (strcmp(a + 10, "cpu") == 0) co.backend = GALE_BACKEND_CPU;
            else if (strcmp(a + 10, "cuda") == 0) co.backend = GALE_BACKEND_CUDA;
            else return bad_value(CMD, "--backend", a + 10, "expected auto, cpu or cuda");
        } else if (strncmp(a, "--device=", 9) == 0) {
            const int dr = device_option(CMD, a + 9, &co);
            if (dr != -1) return dr;
        } else if (strcmp(a, "--summary") == 0) {
            summary = 1;
        } else if (strncmp(a, "--threads=", 10) == 0) {
            if (option_number(CMD, "--threads", a + 10, 0, GALE_THREADS_MAX, &v)) return EXIT_USAGE;
            co.threads = v;
        } else if (a[0] == '-' && a[1]) {
            return usage_error(CMD, "unknown or unsupported option '%s'", a);
        } else if (npaths < 2) {
            paths[npaths++] = a;
        } else {
            return usage_error(CMD, "more than two sequence files ('%s')", a);
        }
    }
    if (npaths < 2) return usage_error(CMD, "expected TARGET and QUERY files");
    if (!segpath) return usage_error(CMD, "--segments=FILE is required (gale lastz runs the gapped stage from anchors)");
    if (!format) format = "lav"; /* lastz's default */
    {
        const int pf = parse_format(format, &os);
        if (pf == -2) return EXIT_USAGE;
        if (pf) return bad_value(CMD, "--format", format,
                         "expected lav, general[-][:fields], cigar, axt, maf, maf-, sam, sam-, softsam, softsam- or "
                         "rdotplot, segments");
    }
    if (os.segments && gapped_opt)
        return usage_error(CMD, "--format=segments writes the anchors without gapped extension (as lastz does): "
                                "it takes no gapped option ('%s'; lastz: requires --gapped)", gapped_opt);
    for (int k = 0; k < 2; k++)
        if (parse_spec(paths[k], &specs[k])) return EXIT_USAGE;
    if (os.sam >= 3 && specs[1].sub_start)
        /* lastz's print_query_bases then reads before the subrange's buffer (it writes bytes
         * that are not the query's): there is nothing right to reproduce */
        return usage_error(CMD, "--format=%s with a query subrange: lastz writes bytes from outside its sequence "
                                "there; gale lastz refuses it (use sam or sam-)", format);
    os.paths[0] = specs[0].file;
    os.paths[1] = specs[1].file;
    /* [multiple] (sequences.c: the file's records one sequence, each after a separator): on
     * the target, per record as lastz's partition batches are (add_job); lastz refuses lav
     * with it (lastz.c), and what gale does not reproduce yet is refused */
    for (int k = 0; k < 2; k++) {
        /* lastz's own refusals, in its words */
        if (specs[k].chores) {
            msg("can't use [chores] with --segments");
            return EXIT_FAIL;
        }
        if (specs[k].quantum) {
            msg("%s is quantum DNA, but %s scores are not (gale lastz takes scoring files for DNA only)",
                k ? "query" : "target", k ? "column" : "row");
            return EXIT_FAIL;
        }
    }
    if ((specs[0].multiple || specs[0].separator || specs[1].multiple) && os.lav) {
        msg("multiple action cannot be used with --lav\n(lav has requirements on the order of alignments that would "
            "require additional\n computation;  use \"--help=formats\" to see other options for output)");
        return EXIT_FAIL;
    }
    if (specs[1].separator)
        return usage_error(CMD, "%s: the action [separator] on the query is not supported by gale lastz yet (on the "
                           "target it is)", paths[1]);
    if (specs[1].multiple && (specs[0].multiple || specs[0].separator || specs[1].revcomp || specs[1].sub_start ||
                              specs[1].sub_end || os.rdotplot))
        return usage_error(CMD, "%s: [multiple] on the query is supported by gale lastz with a one-record target, "
                           "without [revcomp], a subrange or rdotplot so far", paths[1]);
    if ((specs[0].multiple || specs[0].separator) && (specs[0].sub_start || specs[0].sub_end || os.rdotplot))
        return usage_error(CMD, "%s: [%s] with %s is not supported by gale lastz yet (lastz then counts on the "
                                "records joined)", paths[0], specs[0].multiple ? "multiple" : "separator",
                           os.rdotplot ? "--format=rdotplot" : "a subrange");
    if (specs[0].revcomp) { /* lastz.c: refused after the sequences are read, before any output */
        msg("can't use --segments with reverse-complement of target (%s)", specs[0].file);
        return EXIT_FAIL;
    }
    /* The query's reverse complement ([revcomp], a trailing '-'): lastz 1.04.22 then
     * aligns each record's strands the other way round (its + strand is the file's -) and
     * reports every alignment on the file's strands as before; with --segments what a user
     * sees change is --strand=plus and minus trading places and each record's - strand
     * coming first (its segments, then its alignments). */
    if (specs[1].revcomp) strands = (strands & 1) << 1 | (strands & 2) >> 1;
    /* --scores (lastz.c parse_options): the file's scores and settings, the command
     * line's --gap, --ydrop and --gappedthresh over them; with --segments lastz's gapped
     * threshold defaults to its hsp threshold, the file's when it sets one */
    memset(&sc, 0, sizeof sc);
    memcpy(sc.cols, "ACGT", 4);
    memcpy(sc.rows, "ACGT", 4);
    sc.ncols = sc.nrows = 4;
    if (scores_path && unit_match)
        return usage_error(CMD, "can't use --match (or --unitscores) and --scores together (as lastz)");
    if (scores_path) {
        if (read_scores(scores_path, &sc)) return EXIT_USAGE;
        memcpy(p.matrix, sc.matrix, sizeof p.matrix);
        p.x_score = sc.bad;
        p.fill_score = sc.fill;
        p.scores_table = sc.table; /* (the whole table: the file's alphabet may hold N, a c g t) */
        p.flags |= GALE_LASTZ_SCORES_TABLE;
        if (!have_gap) {
            p.gap_open = sc.gap_open;
            p.gap_extend = sc.gap_extend;
        }
        if (p.gap_open < 0 || p.gap_extend < 0) {
            free(sc.table);
            return usage_error(CMD, "--scores: %s: gap penalties %d, %d: gale lastz takes non-negative ones",
                               scores_path, p.gap_open, p.gap_extend);
        }
        if (!have_ydrop && sc.have_y_drop) {
            p.ydrop = sc.y_drop;
            have_ydrop = 1;
        }
        if (!have_gapped && (sc.have_gapped || sc.have_hsp)) p.gapped_thresh = sc.have_gapped ? sc.gapped_thresh : sc.hsp_thresh;
        if (!sc.have_hsp) scores_warning(scores_path, p.matrix);
    }
    /* --match=R,P (lastz.c parse_options, useUnitScores): R on the diagonal and -P off it,
     * X -10P, fill -P, gaps ceil(3.25P) and ceil(0.24375P) unless --gap, hsp (and so the
     * gapped) threshold ceil(30R), x_drop ceil(10 sqrt(P)) and y_drop twice that */
    int32_t unit_hsp = 0, unit_xdrop = 0;
    if (unit_match) {
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) p.matrix[r][c] = r == c ? unit_match : -unit_mismatch;
        p.x_score = (int32_t)(-10.0 * unit_mismatch);
        p.fill_score = (int32_t)(-1.0 * unit_mismatch);
        if (!have_gap) {
            p.gap_open = (int32_t)ceil(3.25 * unit_mismatch);
            p.gap_extend = (int32_t)ceil(0.24375 * unit_mismatch);
        }
        unit_hsp = (int32_t)ceil(30.0 * unit_match);
        unit_xdrop = (int32_t)ceil(10.0 * sqrt((double)unit_mismatch));
        if (!have_gapped) p.gapped_thresh = unit_hsp;
        if (!have_ydrop) {
            p.ydrop = 2 * unit_xdrop;
            have_ydrop = 1;
        }
    }
    if (!have_ydrop) p.ydrop = p.gap_open + 300 * p.gap_extend; /* LASTZ's default */
    /* lav's K, axt's and maf's hsp_threshold (lastz takes no --hspthresh with --segments)
     * and x_drop (10 times the matrix's first score, in the file's order) */
    const int32_t hsp_thresh = unit_match ? unit_hsp : sc.have_hsp ? sc.hsp_thresh : 3000;
    const int32_t x_drop = unit_match       ? unit_xdrop
                           : sc.have_x_drop ? sc.x_drop
                           : sc.table       ? 10 * sc.table[(unsigned char)sc.rows[0] * 256 + (unsigned char)sc.cols[0]]
                                            : 10 * p.matrix[lastz_nuc(sc.rows[0])][lastz_nuc(sc.cols[0])];

    for (int k = 0; k < 2; k++) {
        /* a subset's names first: of a 2bit file only those records are decoded */
        name_set wanted;
        long got;
        if (specs[k].subset && read_subset_names(specs[k].subset, &wanted) < 0) goto done;
        got = read_sequences(specs[k].file, specs[k].format, specs[k].contig, specs[k].subset ? &wanted : NULL, k ? &q : &t);
        if (specs[k].subset) free_name_set(&wanted);
        if (got < 0) goto done;
        *(k ? &nq : &nt) = got;
    }
    if ((ns = read_segments(segpath, &segs)) < 0) goto done;
    if (specs[0].contig) {
        if (keep_contig(specs[0].file, specs[0].contig, t, nt) < 0) goto done;
        nt = 1;
    }
    if (specs[1].contig) {
        if (keep_contig(specs[1].file, specs[1].contig, q, nq) < 0) goto done;
        nq = 1;
    }
    for (int k = 0; k < 2; k++)
        if (specs[k].name_tag && (k ? nq : nt) > 0 && (k ? q : t)[0].format != SEQ_FASTA &&
            (k ? q : t)[0].format != SEQ_FASTQ) {
            msg("\"nameparse=tag:%s\" only valid for fasta, fastq or csfasta files", specs[k].name_tag);
            goto done;
        }
    for (int k = 0; k < 2; k++)
        if ((k ? nq : nt) > 0 && (k ? q : t)[0].format == SEQ_NIB && (specs[k].nameparse == 1 || specs[k].nameparse == 2)) {
            msg("\"nameparse=%s\" only valid for fasta, fastq, csfasta or 2bit files (%s is a nib file)",
                specs[k].nameparse == 1 ? "darkspace" : "alphanum", specs[k].file);
            goto done;
        }
    apply_names(&specs[0], t, nt);
    apply_names(&specs[1], q, nq);
    for (int k = 0; k < 2; k++)
        if (specs[k].subset) {
            char *missing = k ? query_missing : target_missing;
            const long kept = apply_subset(specs[k].subset, specs[k].file, k ? q : t, k ? nq : nt, missing, sizeof target_missing);
            if (kept < 0) goto done; /* (all the records still there to free) */
            *(k ? &nq : &nt) = kept;
            /* lastz reads the target whole, and the query record by record: a name it fails on
             * stops it before any output, or after the query records found before it */
            if (missing[0] && (k == 0 || kept == 0)) {
                msg("%s", missing);
                goto done;
            }
        }
    /* (subsampling counts the records the subset left, as lastz skips them) */
    nt = apply_subsample(&specs[0], t, nt);
    nq = apply_subsample(&specs[1], q, nq);
    if (check_bases(specs[0].file, t, nt, (p.flags & GALE_LASTZ_AMBIGUOUS_IUPAC) != 0, specs[0].separator) ||
        check_bases(specs[1].file, q, nq, (p.flags & GALE_LASTZ_AMBIGUOUS_IUPAC) != 0, 0))
        goto done;
    if (apply_spec(&specs[0], t, nt) || apply_spec(&specs[1], q, nq)) goto done;
    if (nt > 0 && nq > 0) {
        /* the qualities the general fields need (lastz checks as it loads each sequence) */
        const char *field = quals_field_missing(&os, &t[0], &q[0]);
        if (field) {
            snprintf(no_quals, sizeof no_quals, "%s has no base-call qualities (required for --format=general:%s)",
                     strcmp(field, "quals1") == 0 ? specs[0].file : specs[1].file, field);
            if (strcmp(field, "quals1") == 0) { /* (the target's: before any output; the query's after the header) */
                msg("%s", no_quals);
                goto done;
            }
        }
        if (qalign1_unset(&os, &t[0])) {
            msg("--format=general:qalign1 with a FASTQ target: lastz writes bytes it never set against the "
                "target's gaps there; gale lastz refuses it (qalign2 and quals1 it writes)");
            goto done;
        }
    }
    if (nt != 1 && !specs[0].multiple) {
        msg("%s: %ld records; the target must have exactly one, or the action [multiple] (as lastz requires)", paths[0], nt);
        goto done;
    }
    if (specs[0].separator) {
        const long pieces = split_at_separator(specs[0].separator, &t, nt); /* (t as it was on failure) */
        if (pieces < 0) goto done;
        nt = pieces;
    }
    if (nt > 1) {
        /* each record's (or separator piece's) start on the joined target (sequences.c: a
         * separator byte at 0 and after each record; a record's separators stay in place),
         * where lastz's merge_segments sees the diagonals */
        uint64_t base = 1;
        toff = malloc((size_t)nt * sizeof *toff);
        if (!toff) {
            msg("out of memory");
            goto done;
        }
        for (long k = 0; k < nt; k++) {
            if (k > 0 && t[k].contig != t[k - 1].contig) base += t[k - 1].true_len + 1;
            toff[k] = base + (t[k].start_loc - 1);
        }
    }
    if (specs[1].multiple && nq > 0) {
        /* each query record's start on the joined query (a separator at 0 and after each;
         * lastz reverses each record in place for the - strand, so the starts hold there) */
        uint64_t base = 1;
        if (!(qoff = malloc((size_t)nq * sizeof *qoff))) {
            msg("out of memory");
            goto done;
        }
        for (long k = 0; k < nq; k++) {
            qoff[k] = base;
            base += q[k].true_len + 1;
        }
    }
    for (long k = 0; k < ns; k++)
        if (!(strands & (segs[k].strand == '+' ? 1 : 2))) {
            /* lastz stops there too ("extra segments in file") */
            msg("%s line %ld: the segment is on the %c strand, which --strand excludes", segpath, segs[k].line, segs[k].strand);
            goto done;
        }
    {
        const int sc = start_context(CMD, &co, &ctx);
        if (sc != EXIT_OK) {
            rc = sc;
            goto done;
        }
    }
    /* --output: opened once the inputs have been read and checked (lastz opens it before
     * reading them: a bad input there leaves an empty file, here the file as it was) */
    if (output_path && !freopen(output_path, "w", stdout)) {
        msg("%s: %s", output_path, strerror(errno));
        goto done;
    }
    if (os.maf == 1) printf("##maf version=1 scoring=gale.v%s\n", gale_version_string());
    if (os.axt || os.maf == 1) {
        /* axt's and maf's job header (axt.c print_axt_job_header, maf.c): the program and its option arguments
         * (lastz names itself here: gale writes its own name), the thresholds, drops and scores.
         * With --segments lastz takes no --hspthresh or --xdrop: they show their defaults
         * (3000; 10 times the A-A score). */
        printf("# gale.v%s", gale_version_string());
        for (int k = 1; k < argc; k++)
            if (argv[k][0] == '-') printf(" %s", argv[k]);
        printf(" ");
        printf("\n#\n# hsp_threshold      = %d\n# gapped_threshold   = %d\n# x_drop             = %d\n"
               "# y_drop             = %d\n# gap_open_penalty   = %d\n# gap_extend_penalty = %d\n",
               hsp_thresh, p.gapped_thresh, x_drop, p.ydrop, p.gap_open, p.gap_extend);
        print_matrix(&p, &sc, "# ", 1);
    }
    if (os.lav) {
        /* lav's d stanza (lav.c print_lav_job_header): program, files and options (lastz names
         * itself: gale writes its own name), the matrix, gaps and thresholds (K: lastz's
         * --hspthresh, 3000 with --segments; M: dynamic masking, 0) */
        printf("#:lav\nd {\n  \"gale.v%s %s %s ", gale_version_string(), specs[0].file, specs[1].file);
        for (int k = 1; k < argc; k++)
            if (argv[k][0] == '-' && argv[k][1]) printf("%s ", argv[k]);
        printf("\n");
        print_matrix(&p, &sc, "", 0);
        printf("  O = %d, E = %d, K = %d, L = %d, M = 0\"\n}\n", p.gap_open, p.gap_extend, hsp_thresh, p.gapped_thresh);
    }
    if (os.sam == 1 || os.sam == 3) printf("@HD\tVN:1.0\tSO:unsorted\n");
    if (os.header) {
        print_general_header(stdout, &os);
    }
    if (no_quals[0]) {
        fflush(stdout);
        msg("%s", no_quals);
        goto done;
    }
    /* The segments file's runs as jobs, in output order (each query record, its strands in
     * lastz's order); the first bad line stops the list there: what comes before it is
     * aligned and written, then the message (lastz dies at that point too) */
    {
        job_list jl;
        char stop[1024] = "";
        memset(&jl, 0, sizeof jl);
        /* (a [multiple] query: one job a strand, its records' anchors read as one run, as
         * lastz reads them for its partitioned query: all + strand lines, then all - ones) */
        const long jobs_r = specs[1].multiple ? 1 : nq;
        os.notrivial = (p.flags & GALE_LASTZ_NOTRIVIAL) != 0;
        for (long r = 0; r < jobs_r && !stop[0]; r++) {
            for (int pass = 0; pass < 2 && !stop[0]; pass++) {
                const int s = specs[1].revcomp ? 1 - pass : pass;
                if (!(strands & (1 << s))) continue;
                if (add_job(&jl, specs[1].multiple ? -1 : r, s, t, nt, specs[0].multiple || specs[0].separator, toff, q,
                            nq, qoff, segs, ns, &cursor, os.segments, segpath, stop, sizeof stop) < 0) {
                    msg("out of memory");
                    free_jobs(&jl);
                    goto done;
                }
            }
        }
        if (!stop[0] && query_missing[0]) /* (lastz looks for the next query record first) */
            snprintf(stop, sizeof stop, "%s", query_missing);
        if (!stop[0] && cursor < ns)
            /* lastz: "extra segments in file" (after writing what came before, as gale has) */
            snprintf(stop, sizeof stop,
                     "%s line %ld: segment for %s%c out of order: segments must appear in the order of the query "
                     "file's records, each record's + strand segments before its - strand ones (as lastz requires)",
                     segpath, segs[cursor].line, segs[cursor].name2, segs[cursor].strand);
        {
            /* jobs run at once on up to --threads threads (each its own LASTZ walk, and its
             * phase 1 on the context's GPU or threads): a query strand's alignments never
             * bound another's, so the output is the serial run's, written in order */
            run_state rs;
            int ok = 1;
            memset(&rs, 0, sizeof rs);
            rs.jl = &jl;
            rs.ctx = ctx;
            rs.p = &p;
            rs.t = t;
            rs.q = q;
            rs.segments_only = os.segments;
            run_jobs(&rs, os.segments ? 1 : (co.threads == 1 ? 1 : cli_threads(co.threads)));
            for (size_t k = 0; ok && k < jl.n; k++) {
                job *jb = &jl.v[k];
                wait_job(&rs, k);
                if (jb->st != GALE_OK) {
                    msg("gapped extension: %s", jb->err);
                    ok = 0;
                    break;
                }
                if (write_job(&os, jb, t, nt, q, summary) < 0) {
                    msg("out of memory");
                    ok = 0;
                    break;
                }
                release_job(jb);
            }
            finish_jobs(&rs);
            free_jobs(&jl);
            if (!ok) goto done;
        }
        if (stop[0]) {
            fflush(stdout);
            msg("%s", stop);
            goto done;
        }
    }
    if (os.lav) printf("m {\n  n 0\n}\n#:eof\n"); /* print_m_stanza (no census), the job footer */
    rc = stdout_status();
done:
    gale_ctx_destroy(ctx);
    free(sc.table);
    free_records(t, nt);
    free_records(q, nq);
    for (long k = 0; k < ns; k++) { free(segs[k].name1); free(segs[k].name2); }
    free(toff);
    free(qoff);
    free(segs);
    return rc;
}
