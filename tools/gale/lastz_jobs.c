/*
 * gale lastz's jobs (lastz_int.h): the segments file's runs as jobs, one a query strand (a
 * [multiple] query's strand: one job, a part for each of its records), their anchors merged
 * as lastz merges them, run at once on up to --threads threads (each its own LASTZ walk
 * through gale_lastz_extend) and written in lastz's order as each finishes.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "lastz_int.h"
#include "threads.h"
#include "options.h"
#include "subcommands.h"

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

struct job {
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
};

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

void free_jobs(job_list *jl)
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
int add_job(job_list *jl, long r, int s, const record *t, long nt, int multiple, const uint64_t *toff,
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
            if (g->rec >= 0 ? g->rec != r : strcmp(g->name2, q[r].name) != 0 && strcmp(g->name2, "*") != 0) break;
        } else { /* a [multiple] query: the strand's run names any of its records */
            if (g->rec >= 0) qi = g->rec;
            else for (qi = 0; qi < nq && strcmp(g->name2, q[qi].name) != 0; qi++) {}
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

char *strand_bases(const record *qr, int s)
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
/* SAM's @SQ lines before the first alignment: a partitioned target's every record (or
 * piece) at once, as lastz writes them (sam.c) */
static void sam_sq_lines(out_spec *os, const record *t, long nt)
{
    if ((os->sam != 1 && os->sam != 3) || os->sq_done) return;
    for (long j = 0; j < nt; j++) printf("@SQ\tSN:%s\tLN:%zu\n", t[j].name, t[j].true_len);
    os->sq_done = 1;
}

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
        if (count) sam_sq_lines(os, t, nt);
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

int run_jobs_in_order(job_list *jl, gale_ctx *ctx, const gale_lastz_params *p, const record *t, long nt,
                      const record *q, out_spec *os, int n_threads, int summary)
{
    /* a query strand's alignments never bound another's, so the output is the serial
     * run's, written in order */
    run_state rs;
    int ok = 1;
    memset(&rs, 0, sizeof rs);
    rs.jl = jl;
    rs.ctx = ctx;
    rs.p = p;
    rs.t = t;
    rs.q = q;
    rs.segments_only = os->segments;
    run_jobs(&rs, n_threads);
    for (size_t k = 0; ok && k < jl->n; k++) {
        job *jb = &jl->v[k];
        wait_job(&rs, k);
        if (jb->st != GALE_OK) {
            msg("gapped extension: %s", jb->err);
            ok = 0;
        } else if (write_job(os, jb, t, nt, q, summary) < 0) {
            msg("out of memory");
            ok = 0;
        } else {
            release_job(jb);
        }
    }
    finish_jobs(&rs);
    return ok ? 0 : -1;
}

/* A [multiple] query's strand as lastz holds it: a 0 byte (its separator), then each
 * record's bases on the strand (each record reverse-complemented in place on the -
 * strand), each followed by a 0 byte; record k starts at off[k] (malloc'd, nq entries) */
static char *joined_strand(const record *q, long nq, int s, uint64_t **off, size_t *len)
{
    size_t total = 1, at = 1;
    char *v;
    for (long k = 0; k < nq; k++) total += q[k].len + 1;
    if (!(v = malloc(total)) || !(*off = malloc((size_t)(nq > 0 ? nq : 1) * sizeof **off))) {
        free(v);
        return NULL;
    }
    v[0] = 0;
    for (long k = 0; k < nq; k++) {
        char *qs = strand_bases(&q[k], s);
        if (!qs) {
            free(v);
            free(*off);
            return NULL;
        }
        (*off)[k] = at;
        memcpy(v + at, qs, q[k].len);
        at += q[k].len;
        v[at++] = 0;
        free(qs);
    }
    *len = total;
    return v;
}

/* The record (or piece) of a partitioned sequence holding position pos on it: the last
 * whose start (off) is at or before it */
static long record_at(const uint64_t *off, long n, uint32_t pos)
{
    long k = 0, lo = 0, hi = n - 1;
    while (lo <= hi) {
        const long mid = (lo + hi) / 2;
        if (off[mid] <= pos) k = mid, lo = mid + 1;
        else hi = mid - 1;
    }
    return k;
}

/* One strand's HSPs handed to the sink in runs of one target and one query record, in
 * lastz's order, each moved onto its records (toff, qoff: the partitioned target's and
 * query's record starts, NULL for one record; r: the query record then). An HSP that
 * leaves its record (lastz's extension crossed a separator, reporting it past the record's
 * end: lastz.c's separator_crossed refuses the inputs that allow it, before any output) fails. */
static int sink_by_record(hsp_sink sink, void *arg, const record *t, long nt, const uint64_t *toff, const record *q,
                          long nq, const uint64_t *qoff, long r, char strand, const char *qs, gale_lastz_anchor *h,
                          size_t n)
{
    for (size_t a = 0, b; a < n; a = b) {
        const long ti = toff ? record_at(toff, nt, h[a].pos1) : 0, qi = qoff ? record_at(qoff, nq, h[a].pos2) : r;
        const uint64_t o1 = toff ? toff[ti] : 0, o2 = qoff ? qoff[qi] : 0;
        for (b = a; b < n && (!toff || record_at(toff, nt, h[b].pos1) == ti) &&
                    (!qoff || record_at(qoff, nq, h[b].pos2) == qi);
             b++) {
            if (h[b].pos1 < o1 || h[b].pos2 < o2 || h[b].pos1 - o1 + h[b].length > t[ti].len ||
                h[b].pos2 - o2 + h[b].length > q[qi].len) {
                msg("seeding %s%c: an HSP crosses a separator (lastz reports it past its record's end); gale lastz "
                    "does not reproduce that", q[qi].name, strand);
                return -1;
            }
            h[b].pos1 -= (uint32_t)o1;
            h[b].pos2 -= (uint32_t)o2;
        }
        if (sink(arg, &t[ti], &q[qi], strand, qs + o2, h + a, b - a) < 0) return -1;
    }
    return 0;
}

int seed_query_strands(const gale_lastz_seeder *sd, const record *t, long nt, const uint64_t *toff, const record *q,
                       long nq, int qmulti, int strands, int qrevcomp, hsp_sink sink, void *arg)
{
    const long runs = qmulti ? nq > 0 : nq; /* (a [multiple] query: one run, if it has records) */
    for (long r = 0; r < runs; r++)
        for (int pass = 0; pass < 2; pass++) {
            /* (a [revcomp] query: its - strand first, as lastz aligns it) */
            const int s = qrevcomp ? 1 - pass : pass;
            const char strand = s == 0 ? '+' : '-';
            gale_lastz_anchor *h = NULL;
            size_t n = 0, qlen = qmulti ? 0 : q[r].len;
            uint64_t *off = NULL;
            char *qs;
            int rc = 0;
            if (!(strands & (1 << s))) continue;
            /* a [multiple] query: its records seeded as one sequence (lastz's partitioned
             * query: one search, its diagonal records shared), each HSP then handed to the
             * sink on its record (the separators end every extension); a partitioned
             * target likewise (toff) */
            qs = qmulti ? joined_strand(q, nq, s, &off, &qlen) : strand_bases(&q[r], s);
            if (!qs) {
                msg("out of memory");
                return -1;
            }
            if (gale_lastz_seeder_find(sd, qs, (int64_t)qlen, &h, &n) != GALE_OK) {
                msg("seeding %s%c: %s", qmulti ? "the query" : q[r].name, strand, gale_last_error());
                free(qs);
                free(off);
                return -1;
            }
            if (!qmulti && !toff) rc = sink(arg, &t[0], &q[r], strand, qs, h, n);
            else rc = sink_by_record(sink, arg, t, nt, toff, q, nq, off, r, strand, qs, h, n);
            gale_lastz_hsps_free(h);
            free(qs);
            free(off);
            if (rc < 0) return -1;
        }
    return 0;
}

/* --nogapped: each HSP written as lastz's print_match writes it */
typedef struct {
    out_spec *os;
    const record *t;
    long nt;
} hsp_writer;
static int write_hsps(void *arg, const record *tr, const record *qr, char strand, const char *qs,
                      const gale_lastz_anchor *h, size_t n)
{
    hsp_writer *w = arg;
    w->os->contig = qr->contig;
    if (w->os->lav && n) lav_strand_header(stdout, w->os, tr, qr, strand);
    if (n) sam_sq_lines(w->os, w->t, w->nt);
    for (size_t k = 0; k < n; k++) {
        gale_lastz_alignment a;
        uint32_t op = GALE_CIGAR_MATCH | (h[k].length << GALE_CIGAR_SHIFT);
        memset(&a, 0, sizeof a);
        a.beg1 = h[k].pos1 + 1;
        a.end1 = h[k].pos1 + h[k].length;
        a.beg2 = h[k].pos2 + 1;
        a.end2 = h[k].pos2 + h[k].length;
        a.score = h[k].score;
        a.n_ops = 1;
        a.cigar = &op;
        w->os->hspid++; /* (lastz's report_hsps numbers them over the whole run) */
        write_alignment(stdout, w->os, tr, qr, qs, strand, &a);
    }
    return 0;
}

int write_hsps_in_order(const gale_lastz_seeder *sd, const record *t, long nt, const uint64_t *toff, const record *q,
                        long nq, int qmulti, int strands, int qrevcomp, out_spec *os)
{
    hsp_writer w = {os, t, nt};
    return seed_query_strands(sd, t, nt, toff, q, nq, qmulti, strands, qrevcomp, write_hsps, &w);
}

/* The full run: each HSP as the line of a segments file lastz would have written (the
 * coordinates write_alignment gives a segments line: on the whole record, the - strand's
 * on its whole reverse complement), for the gapped stage to read as it reads the file */
typedef struct {
    const record *q;
    seg_line *v;
    long n, cap;
} seg_collector;
static int collect_segs(void *arg, const record *tr, const record *qr, char strand, const char *qs,
                        const gale_lastz_anchor *h, size_t n)
{
    seg_collector *c = arg;
    const uint32_t o1 = (uint32_t)(tr->start_loc - 1),
                   o2 = (uint32_t)(strand == '+' ? qr->start_loc - 1 : qr->true_len - (qr->start_loc - 1 + qr->len));
    (void)qs;
    for (size_t k = 0; k < n; k++) {
        seg_line *sl;
        if (c->n == c->cap) {
            const long cap = c->cap ? 2 * c->cap : 1024;
            seg_line *v = realloc(c->v, (size_t)cap * sizeof *v);
            if (!v) goto oom;
            c->v = v;
            c->cap = cap;
        }
        sl = &c->v[c->n];
        memset(sl, 0, sizeof *sl);
        sl->name1 = tr->name; /* (borrowed: the records outlive the lines, rec >= 0 says so) */
        sl->name2 = qr->name;
        sl->start1 = h[k].pos1 + 1 + o1;
        sl->end1 = h[k].pos1 + h[k].length + o1;
        sl->start2 = h[k].pos2 + 1 + o2;
        sl->end2 = h[k].pos2 + h[k].length + o2;
        sl->strand = strand;
        sl->score = h[k].score;
        sl->rec = (long)(qr - c->q);
        sl->line = c->n + 2; /* (its line in lastz's --nogapped output, after the header) */
        c->n++;
    }
    return 0;
oom:
    msg("out of memory");
    return -1;
}

long seed_segments(const gale_lastz_seeder *sd, const record *t, long nt, const uint64_t *toff, const record *q, long nq,
                   int qmulti, int strands, int qrevcomp, seg_line **out)
{
    seg_collector c = {q, NULL, 0, 0};
    *out = NULL;
    if (seed_query_strands(sd, t, nt, toff, q, nq, qmulti, strands, qrevcomp, collect_segs, &c) < 0) {
        free_seg_lines(c.v, c.n);
        return -1;
    }
    *out = c.v;
    return c.n;
}
