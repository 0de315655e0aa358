/*
 * example_batch.c - a minimap2-style extension loop, and the same work converted to
 * one gale_ksw2_extend call per batch of reads.
 *
 * Reads are drawn from a random 2 Mbp reference in blocks of 200-800 bp with 8% errors
 * (an eighth of them unrelated to the reference), starting with an exact 15-mer each
 * (the anchors), with random heads and tails. Per read, the
 * loop does what minimap2's mm_align1 does with ksw2:
 *   1. left extension: the read and the reference before the first anchor, both
 *      reversed, ksw_extd2_sse with the end bonus and EXTZ_ONLY | RIGHT | REV_CIGAR;
 *   2. gap filling between consecutive anchors: first with APPROX_MAX (approximate
 *      maximum and Z-drop), and where its CIGAR drops by more than Z-drop (minimap2's
 *      mm_test_zdrop, here without its inversion test), again exactly;
 *   3. right extension: after the last anchor, with the end bonus and EXTZ_ONLY.
 * The loop makes these calls one by one (each a gale task on the CPU here, as the
 * plugin runs single calls). The batched form gathers every call of a batch of reads
 * into one job array - left extensions, first gap-filling passes, right extensions -
 * runs it with one gale_ksw2_extend (on the GPU when there is one), then gathers the
 * gap fills that Z-dropped into a second call. Every ksw_extz_t of both forms is
 * compared (exit 1 on a difference), and both are timed.
 *
 * Usage: example_batch [READS [BATCH [BACKEND]]]   (defaults 400 reads, 100 reads per
 * batch, backend 0 = GALE_BACKEND_AUTO; 1 = CPU). Built with the plugin (not installed);
 * the plugins suite runs it small (test ksw2_example).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gale_ksw2.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* minimap2's scoring (map-ont): a 2, b 4, q/e 4/2, q2/e2 24/1, Z-drop 400, band 500,
 * end bonus -1 (its default); sc_ambi 1. */
enum { A = 2, B = 4, Q = 4, E = 2, Q2 = 24, E2 = 1, ZDROP = 400, BW = 500, END_BONUS = 10 };

typedef struct {
    uint8_t *seq;  /* codes 0..4 */
    int len;
    int n_anchor;
    int *qa, *ta; /* anchor i: read position qa[i], reference position ta[i] (both starts of an exact k-mer) */
} read_t;

static int8_t mat[25];
static uint8_t *ref;
static int ref_len;

/* A read from a random place of the reference: blocks of 200-800 bp, each with 8%
 * errors, an exact 15-mer at each block start (an anchor), and random head and tail. */
static void make_read(read_t *r) {
    int n_blocks = 2 + (int)(rnd() % 8), pos = 2000 + (int)(rnd() % (uint32_t)(ref_len - 12000)), cap = 16000, i;
    int head = (int)(rnd() % 300), tail = (int)(rnd() % 300);
    r->seq = malloc((size_t)cap);
    r->qa = malloc(sizeof(int) * (size_t)n_blocks);
    r->ta = malloc(sizeof(int) * (size_t)n_blocks);
    r->len = 0;
    r->n_anchor = n_blocks;
    for (i = 0; i < head; ++i) r->seq[r->len++] = (uint8_t)(rnd() & 3);
    for (i = 0; i < n_blocks; ++i) {
        int bl = 200 + (int)(rnd() % 600), j, junk = i > 0 && rnd() % 8 == 0;
        r->qa[i] = r->len, r->ta[i] = pos;
        for (j = 0; j < 15; ++j) r->seq[r->len++] = ref[pos + j];
        if (junk) bl += 1000; /* an unrelated block (a structural variant): its gap fill Z-drops */
        if (junk)
            for (j = 15; j < bl && r->len < cap - 2; ++j) r->seq[r->len++] = (uint8_t)(rnd() & 3);
        for (j = 15; !junk && j < bl && r->len < cap - 2;) {
            uint32_t x = rnd() % 100;
            if (x < 4) r->seq[r->len++] = (uint8_t)((ref[pos + j] + 1 + rnd() % 3) & 3), ++j; /* substitution */
            else if (x < 6) r->seq[r->len++] = (uint8_t)(rnd() & 3);                        /* insertion */
            else if (x < 8) ++j;                                                           /* deletion */
            else r->seq[r->len++] = ref[pos + j], ++j;
        }
        pos += bl;
    }
    for (i = 0; i < tail && r->len < cap; ++i) r->seq[r->len++] = (uint8_t)(rnd() & 3);
}

/* The calls of one read, in minimap2's order: left, gap fills (first pass), right.
 * Sequences of the left extension are reversed copies (freed by free_calls). */
typedef struct {
    gale_ksw2_job *jobs;
    size_t n, cap;
    uint8_t **owned;
    size_t n_owned, cap_owned;
} calls_t;

static void push(calls_t *c, const gale_ksw2_job *j) {
    if (c->n == c->cap) c->cap = c->cap ? 2 * c->cap : 64, c->jobs = realloc(c->jobs, c->cap * sizeof *c->jobs);
    c->jobs[c->n++] = *j;
}
static uint8_t *own(calls_t *c, size_t n) {
    if (c->n_owned == c->cap_owned)
        c->cap_owned = c->cap_owned ? 2 * c->cap_owned : 64, c->owned = realloc(c->owned, c->cap_owned * sizeof(uint8_t *));
    return c->owned[c->n_owned++] = malloc(n ? n : 1);
}

static gale_ksw2_job base_job(void) {
    gale_ksw2_job j;
    memset(&j, 0, sizeof j);
    j.fn = GALE_KSW2_EXTD2, j.m = 5, j.mat = mat, j.gapo = Q, j.gape = E, j.gapo2 = Q2, j.gape2 = E2;
    j.w = BW, j.zdrop = ZDROP, j.end_bonus = -1;
    return j;
}

/* Appends read r's first-pass calls (their ez set later). */
static void read_calls(calls_t *c, const read_t *r) {
    gale_ksw2_job j = base_job();
    int i, ql = r->qa[0], tl = ql + ql / 2 + 50;
    uint8_t *q, *t;
    if (tl > r->ta[0]) tl = r->ta[0];
    q = own(c, (size_t)ql), t = own(c, (size_t)tl);
    for (i = 0; i < ql; ++i) q[i] = r->seq[ql - 1 - i];
    for (i = 0; i < tl; ++i) t[i] = ref[r->ta[0] - 1 - i];
    j.qlen = ql, j.query = q, j.tlen = tl, j.target = t, j.end_bonus = END_BONUS;
    j.flag = KSW_EZ_EXTZ_ONLY | KSW_EZ_RIGHT | KSW_EZ_REV_CIGAR;
    push(c, &j);
    for (i = 0; i + 1 < r->n_anchor; ++i) {
        j = base_job();
        j.qlen = r->qa[i + 1] - r->qa[i], j.query = r->seq + r->qa[i];
        j.tlen = r->ta[i + 1] - r->ta[i], j.target = ref + r->ta[i];
        j.flag = KSW_EZ_APPROX_MAX;
        push(c, &j);
    }
    j = base_job();
    i = r->n_anchor - 1;
    j.qlen = r->len - r->qa[i], j.query = r->seq + r->qa[i];
    j.tlen = j.qlen + j.qlen / 2 + 50, j.target = ref + r->ta[i];
    if (r->ta[i] + j.tlen > ref_len) j.tlen = ref_len - r->ta[i];
    j.end_bonus = END_BONUS, j.flag = KSW_EZ_EXTZ_ONLY;
    push(c, &j);
}

static void free_calls(calls_t *c) {
    size_t i;
    for (i = 0; i < c->n_owned; ++i) free(c->owned[i]);
    free(c->owned), free(c->jobs);
    memset(c, 0, sizeof *c);
}

/* The per-call loop: ksw_extd2_sse job by job, one ez per read reused as minimap2 does;
 * each result copied out (cigar included) into out[k]. Second pass of a Z-dropped gap
 * fill into out2[k] (out2[k].max = 0 and n_cigar = 0 when there was none). */
static void copy_ez(ksw_extz_t *dst, const ksw_extz_t *src) {
    *dst = *src;
    dst->cigar = malloc(sizeof(uint32_t) * (size_t)(src->n_cigar + 1));
    if (src->n_cigar) memcpy(dst->cigar, src->cigar, sizeof(uint32_t) * (size_t)src->n_cigar);
    dst->m_cigar = src->n_cigar;
}

static int same(const ksw_extz_t *a, const ksw_extz_t *b) {
    return a->max == b->max && a->zdropped == b->zdropped && a->max_q == b->max_q && a->max_t == b->max_t &&
           a->mqe == b->mqe && a->mqe_t == b->mqe_t && a->mte == b->mte && a->mte_q == b->mte_q &&
           a->score == b->score && a->reach_end == b->reach_end && a->n_cigar == b->n_cigar &&
           (a->n_cigar == 0 || memcmp(a->cigar, b->cigar, sizeof(uint32_t) * (size_t)a->n_cigar) == 0);
}

static int is_gap_fill(const gale_ksw2_job *j) { return j->flag == KSW_EZ_APPROX_MAX; }

/* minimap2's mm_test_zdrop without its inversion test: whether the first pass's CIGAR
 * drops by more than Z-drop (less e per base off the diagonal) somewhere, in which case
 * minimap2 aligns the gap again without APPROX_MAX. */
static int needs_rerun(const gale_ksw2_job *j, const ksw_extz_t *ez) {
    int32_t score = 0, max = INT32_MIN, max_i = -1, max_j = -1, i = 0, j2 = 0, max_zdrop = 0;
    int k;
    for (k = 0; k < ez->n_cigar; ++k) {
        uint32_t op = ez->cigar[k] & 0xf, len = ez->cigar[k] >> 4, l;
        for (l = 0; l < (op == KSW_CIGAR_MATCH ? len : 1); ++l) {
            int li, lj, z;
            if (op == KSW_CIGAR_MATCH) score += mat[j->target[i + (int)l] * 5 + j->query[j2 + (int)l]];
            else score -= Q + E * (int32_t)len, i += op == KSW_CIGAR_INS ? 0 : (int)len, j2 += op == KSW_CIGAR_INS ? (int)len : 0;
            if (score < max) {
                li = (op == KSW_CIGAR_MATCH ? i + (int)l : i) - max_i;
                lj = (op == KSW_CIGAR_MATCH ? j2 + (int)l : j2) - max_j;
                z = max - score - (li > lj ? li - lj : lj - li) * E;
                if (z > max_zdrop) max_zdrop = z;
            } else {
                max = score, max_i = op == KSW_CIGAR_MATCH ? i + (int)l : i, max_j = op == KSW_CIGAR_MATCH ? j2 + (int)l : j2;
            }
        }
        if (op == KSW_CIGAR_MATCH) i += (int)len, j2 += (int)len;
    }
    return max_zdrop > ZDROP;
}

int main(int argc, char **argv) {
    int n_reads = argc > 1 ? atoi(argv[1]) : 400, batch = argc > 2 ? atoi(argv[2]) : 100;
    int backend = argc > 3 ? atoi(argv[3]) : GALE_BACKEND_AUTO, i, bad = 0;
    read_t *reads;
    calls_t all;
    ksw_extz_t *loop1, *loop2, *bat1, *bat2, ez;
    size_t *first_of_read, k, n_rerun = 0;
    double t0, t_loop, t_batch = 0;
    if (n_reads < 1 || batch < 1) return 2;
    for (i = 0; i < 25; ++i) mat[i] = (int8_t)(i / 5 == 4 || i % 5 == 4 ? -1 : i / 5 == i % 5 ? A : -B);
    ref_len = 2000000;
    ref = malloc((size_t)ref_len);
    for (i = 0; i < ref_len; ++i) ref[i] = (uint8_t)(rnd() & 3);
    reads = calloc((size_t)n_reads, sizeof *reads);
    memset(&all, 0, sizeof all);
    first_of_read = malloc(sizeof(size_t) * (size_t)(n_reads + 1));
    for (i = 0; i < n_reads; ++i) {
        make_read(&reads[i]);
        first_of_read[i] = all.n;
        read_calls(&all, &reads[i]);
    }
    first_of_read[n_reads] = all.n;
    loop1 = calloc(all.n, sizeof *loop1), loop2 = calloc(all.n, sizeof *loop2);
    bat1 = calloc(all.n, sizeof *bat1), bat2 = calloc(all.n, sizeof *bat2);

    /* 1. The loop, read by read, call by call. */
    t0 = now();
    for (i = 0; i < n_reads; ++i) {
        memset(&ez, 0, sizeof ez);
        for (k = first_of_read[i]; k < first_of_read[i + 1]; ++k) {
            const gale_ksw2_job *j = &all.jobs[k];
            ksw_extd2_sse(NULL, j->qlen, j->query, j->tlen, j->target, 5, mat, Q, E, Q2, E2, j->w, j->zdrop,
                          j->end_bonus, j->flag, &ez);
            copy_ez(&loop1[k], &ez);
            if (is_gap_fill(j) && needs_rerun(j, &ez)) { /* exact rerun */
                ksw_extd2_sse(NULL, j->qlen, j->query, j->tlen, j->target, 5, mat, Q, E, Q2, E2, j->w, j->zdrop,
                              j->end_bonus, 0, &ez);
                copy_ez(&loop2[k], &ez);
            }
        }
        free(ez.cigar);
    }
    t_loop = now() - t0;
    if (gale_ksw2_last_status() != GALE_OK) {
        fprintf(stderr, "example_batch: %s\n", gale_ksw2_last_error());
        return 1;
    }

    /* 2. One gale_ksw2_extend per batch of reads, plus one for the reruns. */
    for (i = 0; i < n_reads; i += batch) {
        int last = i + batch < n_reads ? i + batch : n_reads;
        size_t lo = first_of_read[i], hi = first_of_read[last], n2 = 0;
        gale_ksw2_job *rerun = malloc(sizeof(gale_ksw2_job) * (hi - lo + 1));
        t0 = now();
        for (k = lo; k < hi; ++k) all.jobs[k].ez = &bat1[k];
        if (gale_ksw2_extend(all.jobs + lo, hi - lo, backend, 0) != GALE_OK) {
            fprintf(stderr, "example_batch: %s\n", gale_ksw2_last_error());
            return 1;
        }
        for (k = lo; k < hi; ++k)
            if (is_gap_fill(&all.jobs[k]) && needs_rerun(&all.jobs[k], &bat1[k])) {
                rerun[n2] = all.jobs[k];
                rerun[n2].flag = 0;
                rerun[n2++].ez = &bat2[k];
            }
        if (gale_ksw2_extend(rerun, n2, backend, 0) != GALE_OK) {
            fprintf(stderr, "example_batch: %s\n", gale_ksw2_last_error());
            return 1;
        }
        t_batch += now() - t0;
        n_rerun += n2;
        free(rerun);
    }

    for (k = 0; k < all.n; ++k) {
        if (!same(&loop1[k], &bat1[k]) || !same(&loop2[k], &bat2[k])) {
            if (bad++ < 5) fprintf(stderr, "example_batch: call %zu differs between the loop and the batch\n", k);
        }
        free(loop1[k].cigar), free(loop2[k].cigar), free(bat1[k].cigar), free(bat2[k].cigar);
    }
    printf("example_batch: %d reads, %zu calls (%zu exact reruns): loop %.3f s, batches of %d reads %.3f s "
           "(backend %s): %.2fx\n",
           n_reads, all.n, n_rerun, t_loop, batch, t_batch, backend == GALE_BACKEND_CPU ? "CPU" : "AUTO",
           t_batch > 0 ? t_loop / t_batch : 0.0);
    for (i = 0; i < n_reads; ++i) free(reads[i].seq), free(reads[i].qa), free(reads[i].ta);
    free(reads), free(first_of_read), free(loop1), free(loop2), free(bat1), free(bat2), free(ref);
    free_calls(&all);
    if (bad) fprintf(stderr, "example_batch: %d calls differ\n", bad);
    return bad ? 1 : 0;
}
