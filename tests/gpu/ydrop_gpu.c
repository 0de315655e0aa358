/*
 * ydrop_gpu.c - LASTZ's gapped extension (gale_lastz_extend) on a CUDA context, whose
 * phase 1 runs on the GPU (cuda/ydrop.cu), against a CPU context of one thread, which
 * runs LASTZ's serial walk: the same alignments in the same order, every field and the
 * CIGAR op by op, and the same truncation count. The GPU must have computed halves
 * (gale_lastz_result_stats: sides_device - sides_device_failed > 0 over the run), and a
 * CUDA context with a small device memory budget (32 MiB: waves in several launches of few
 * slots, some halves too large for them) must give the same results too.
 *
 * Suite 'gpu'. Exits 77 (meson: SKIP) when there is no usable CUDA device.
 *
 * Cases (seed printed, GALE_TEST_SEED reproduces; GALE_TEST_SCALE scales the pairs):
 * random homologous pairs of 4 - 60 kbp (the query a mutated copy of the target with
 * 0 - 25% divergence, indels up to 30 bases, an inverted block, a duplicated block,
 * unrelated stretches, N runs, lowercase, x and X runs), both query strands (the minus strand
 * reverse-complemented with GALE_LASTZ_MINUS), anchors from exact 16-mer matches grown
 * ungapped (scored by HOXD70; as a seeding stage would write them) plus random ones, in
 * random order (also on device 0 listed twice, whose entries share each wave); option sets: LASTZ's defaults, a small ydrop, other gap penalties,
 * --noytrim with --ambiguous=n's N scores, --allgappedbounds with a low threshold, a traceback memory small
 * enough to truncate, and a scoring file's table (GALE_LASTZ_SCORES_FILE) with other X
 * and fill scores.
 *
 * GALE_GPU_TEST_FAKE=1 replaces the CUDA contexts by CPU contexts of 3 threads (the
 * two-phase path on threads): a self-check of this harness without a GPU (never used by
 * meson; the GPU assertions are skipped).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gale.h"
#include "testgen.h"
#include "testutil.h"

#define SKIP 77

static const int hoxd70[4][4] = {{91, -114, -31, -123}, {-114, 100, -125, -31}, {-31, -125, 100, -114},
                                 {-123, -31, -114, 91}};

static int code(char c)
{
    switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': return 3;
    default: return -1;
    }
}

/* A target, and a query made from it: mutated, with an inverted block, a duplicated
 * block and unrelated stretches; N runs and lowercase in both. */
static void make_pair(tu_rng *r, char **t, int64_t *tl, char **q, int64_t *ql)
{
    const int64_t n = tu_range(r, 4000, 60000);
    char *a = (char *)malloc((size_t)n);
    tu_buf b = {0};
    tu_mut m = tu_mut_rate(tu_unif(r) * 0.25);
    int64_t i, at, len;
    REQUIRE(a != NULL);
    tu_bases(r, a, n);
    m.run = 0.3;
    m.run_max = 30;
    at = 0;
    while (at < n) {
        len = tu_range(r, 500, 8000);
        if (len > n - at) len = n - at;
        if (tu_chance(r, 0.15)) { /* inverted */
            char *rc = (char *)malloc((size_t)len);
            REQUIRE(rc != NULL);
            tu_revcomp(a + at, len, rc);
            tu_mutate_with(r, &b, rc, len, &m);
            free(rc);
        } else if (tu_chance(r, 0.1)) { /* unrelated */
            for (i = 0; i < len; i++) tu_buf_push(&b, tu_base(r));
        } else {
            tu_mutate_with(r, &b, a + at, len, &m);
            if (tu_chance(r, 0.1)) tu_mutate_with(r, &b, a + at, len / 2, &m); /* duplicated */
        }
        at += len;
    }
    tu_buf_take(&b, q, ql);
    *t = a;
    *tl = n;
    for (i = 0; i < 3; i++) { /* N runs, lowercase */
        char *s = i % 2 ? *q : *t;
        const int64_t sl = i % 2 ? *ql : *tl;
        int64_t k, p;
        if (sl < 100) continue;
        p = tu_range(r, 0, sl - 50);
        if (tu_chance(r, 0.5))
            for (k = p; k < p + tu_range(r, 1, 40); k++) s[k] = 'N';
        p = tu_range(r, 0, sl - 50);
        for (k = p; k < sl && k < p + tu_range(r, 1, 2000); k++) s[k] = (char)(s[k] | 0x20);
        p = tu_range(r, 0, sl - 50); /* x or X (scored apart under GALE_LASTZ_SCORES_FILE) */
        if (tu_chance(r, 0.7))
            for (k = p; k < p + tu_range(r, 1, 8); k++) s[k] = tu_chance(r, 0.5) ? 'x' : 'X';
    }
}

static int64_t sub_score(char x, char y)
{
    const int a = code(x), b = code(y);
    return a < 0 || b < 0 ? -100 : hoxd70[a][b];
}

/* Anchors: exact 16-mer matches at every 23rd target position (by a sorted index of the
 * query's 16-mers), grown ungapped while the running score stays above its best minus
 * 1,000, kept when they score 2,000 or more; and a few random ones; shuffled. */
typedef struct kmer {
    uint32_t key, pos;
} kmer;

static int kmer_cmp(const void *x, const void *y)
{
    const kmer *a = (const kmer *)x, *b = (const kmer *)y;
    return a->key != b->key ? (a->key < b->key ? -1 : 1) : (a->pos < b->pos ? -1 : a->pos > b->pos);
}

static int key_of(const char *s, uint32_t *key)
{
    int i;
    uint32_t k = 0;
    for (i = 0; i < 16; i++) {
        const int c = code(s[i]);
        if (c < 0) return 0;
        k = k << 2 | (uint32_t)c;
    }
    *key = k;
    return 1;
}

static size_t make_anchors(tu_rng *r, const char *t, int64_t tl, const char *q, int64_t ql, gale_lastz_anchor **out)
{
    kmer *idx = (kmer *)malloc((size_t)(ql + 1) * sizeof *idx);
    size_t ni = 0, n = 0, cap = 1024;
    gale_lastz_anchor *an = (gale_lastz_anchor *)malloc(cap * sizeof *an);
    int64_t p, i, extra;
    REQUIRE(idx != NULL && an != NULL);
    for (p = 0; p + 16 <= ql; p++) {
        uint32_t key;
        if (key_of(q + p, &key)) { idx[ni].key = key; idx[ni].pos = (uint32_t)p; ni++; }
    }
    qsort(idx, ni, sizeof *idx, kmer_cmp);
    for (p = 0; p + 16 <= tl; p += 23) {
        uint32_t key;
        size_t lo = 0, hi = ni, h;
        if (!key_of(t + p, &key)) continue;
        while (lo < hi) { const size_t mid = (lo + hi) / 2; if (idx[mid].key < key) lo = mid + 1; else hi = mid; }
        for (h = lo; h < ni && idx[h].key == key && h < lo + 4; h++) {
            const int64_t d = (int64_t)idx[h].pos - p;
            int64_t b = p, e = p + 16, s = 0, best = 0, bestb = p, beste = p + 16;
            for (i = p; i < p + 16; i++) s += sub_score(t[i], q[i + d]);
            best = s;
            for (i = e, s = best; i < tl && i + d < ql; i++) { /* right */
                s += sub_score(t[i], q[i + d]);
                if (s > best) { best = s; beste = i + 1; }
                if (s < best - 1000) break;
            }
            e = beste;
            for (i = b - 1, s = best; i >= 0 && i + d >= 0; i--) { /* left */
                s += sub_score(t[i], q[i + d]);
                if (s > best) { best = s; bestb = i; }
                if (s < best - 1000) break;
            }
            b = bestb;
            if (best < 2000) continue;
            if (n == cap) { cap *= 2; an = (gale_lastz_anchor *)realloc(an, cap * sizeof *an); REQUIRE(an != NULL); }
            an[n].pos1 = (uint32_t)b;
            an[n].pos2 = (uint32_t)(b + d);
            an[n].length = (uint32_t)(e - b);
            an[n].score = (int32_t)best;
            n++;
        }
    }
    for (extra = tu_range(r, 0, 10); extra > 0; extra--) {
        const uint32_t len = (uint32_t)tu_range(r, 1, 60);
        if (tl <= len || ql <= len) break;
        if (n == cap) { cap *= 2; an = (gale_lastz_anchor *)realloc(an, cap * sizeof *an); REQUIRE(an != NULL); }
        an[n].pos1 = (uint32_t)tu_range(r, 0, tl - len);
        an[n].pos2 = (uint32_t)tu_range(r, 0, ql - len);
        an[n].length = len;
        an[n].score = (int32_t)tu_range(r, 0, 5000);
        n++;
    }
    for (i = (int64_t)n - 1; i > 0; i--) { /* shuffled */
        const int64_t j = tu_range(r, 0, i);
        const gale_lastz_anchor x = an[i];
        an[i] = an[j];
        an[j] = x;
    }
    free(idx);
    *out = an;
    return n;
}

static long n_aligns = 0, n_calls = 0, n_trunc = 0;
static uint64_t dev_sides = 0, dev_failed = 0, dev_walked = 0, dev_redone = 0;
static double dev_kernel = 0, dev_p1 = 0, dev_p2 = 0;

static void compare(gale_ctx *gpu, gale_ctx *cpu, const char *t, int64_t tl, const char *q, int64_t ql,
                    const gale_lastz_anchor *an, size_t n, const gale_lastz_params *p, const char *what, int count)
{
    gale_lastz_result *a = NULL, *b = NULL;
    gale_lastz_stats s;
    size_t i, na, nb;
    REQUIRE_OK(gale_lastz_extend(gpu, t, tl, q, ql, an, n, p, &a));
    REQUIRE_OK(gale_lastz_extend(cpu, t, tl, q, ql, an, n, p, &b));
    na = gale_lastz_result_count(a);
    nb = gale_lastz_result_count(b);
    CHECK_MSG(na == nb, "%s: %zu alignments on the GPU context, %zu on the CPU's", what, na, nb);
    CHECK_MSG(gale_lastz_result_truncations(a) == gale_lastz_result_truncations(b), "%s: truncations %llu vs %llu",
              what, (unsigned long long)gale_lastz_result_truncations(a),
              (unsigned long long)gale_lastz_result_truncations(b));
    for (i = 0; i < na && i < nb; i++) {
        gale_lastz_alignment x, y;
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        x.size = y.size = sizeof x;
        REQUIRE_OK(gale_lastz_result_get(a, i, &x));
        REQUIRE_OK(gale_lastz_result_get(b, i, &y));
        CHECK_MSG(x.beg1 == y.beg1 && x.end1 == y.end1 && x.beg2 == y.beg2 && x.end2 == y.end2 && x.score == y.score &&
                      x.n_ops == y.n_ops && (x.n_ops == 0 || memcmp(x.cigar, y.cigar, x.n_ops * 4) == 0),
                  "%s: alignment %zu: GPU context %u-%u %u-%u score %d ops %u; CPU %u-%u %u-%u score %d ops %u", what,
                  i, x.beg1, x.end1, x.beg2, x.end2, x.score, x.n_ops, y.beg1, y.end1, y.beg2, y.end2, y.score,
                  y.n_ops);
    }
    memset(&s, 0, sizeof s);
    s.size = sizeof s;
    REQUIRE_OK(gale_lastz_result_stats(a, &s));
    if (count) {
        dev_sides += s.sides_device;
        dev_failed += s.sides_device_failed;
        dev_walked += s.sides_walked;
        dev_redone += s.sides_redone;
        dev_kernel += s.kernel_seconds;
        dev_p1 += s.phase1_seconds;
        dev_p2 += s.phase2_seconds;
    }
    n_aligns += (long)na;
    n_trunc += (long)gale_lastz_result_truncations(b);
    n_calls++;
    gale_lastz_result_free(a);
    gale_lastz_result_free(b);
}

/* memory 0: a CUDA context takes every device (GALE_DEVICES_ALL: on nvidia-h200-x2 both
 * GPUs, of which phase 1 uses the first), else device 0 alone. */
static int new_ctx(gale_ctx **ctx, int backend, int threads, uint64_t memory)
{
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.threads = threads;
    o.device_memory = memory;
    if (backend == GALE_BACKEND_CUDA && memory == 0) o.n_devices = GALE_DEVICES_ALL;
    return gale_ctx_create(ctx, &o);
}

int main(void)
{
    const uint64_t seed = tu_seed("ydrop_gpu");
    const int fake = getenv("GALE_GPU_TEST_FAKE") && strcmp(getenv("GALE_GPU_TEST_FAKE"), "1") == 0;
    const long pairs = tu_scaled(12, 2);
    gale_ctx *gpu = NULL, *small = NULL, *cpu = NULL, *twice = NULL;
    static const int dev00[2] = {0, 0};
    gale_status st;
    tu_rng r;
    long k;

    if (!fake && gale_cuda_device_count() == 0) {
        printf("ydrop_gpu: no CUDA device: SKIP\n");
        return SKIP;
    }
    st = fake ? new_ctx(&gpu, GALE_BACKEND_CPU, 3, 0) : new_ctx(&gpu, GALE_BACKEND_CUDA, 0, 0);
    if (st == GALE_E_UNSUPPORTED) {
        printf("ydrop_gpu: no usable CUDA device (%s): SKIP\n", gale_last_error());
        return SKIP;
    }
    REQUIRE(st == GALE_OK);
    REQUIRE_OK(fake ? new_ctx(&small, GALE_BACKEND_CPU, 2, 0)
                    : new_ctx(&small, GALE_BACKEND_CUDA, 0, (uint64_t)32 << 20));
    REQUIRE_OK(new_ctx(&cpu, GALE_BACKEND_CPU, 1, 0));
    { /* device 0 as two entries: each wave's anchors dealt out to both (as on two GPUs) */
        gale_ctx_opts o;
        gale_ctx_opts_init(&o);
        o.backend = fake ? GALE_BACKEND_CPU : GALE_BACKEND_CUDA;
        o.threads = fake ? 2 : 0;
        o.n_devices = fake ? 0 : 2;
        o.devices = fake ? NULL : dev00;
        o.device_memory = fake ? 0 : (uint64_t)4 << 30;
        REQUIRE_OK(gale_ctx_create(&twice, &o));
    }
    tu_rng_init(&r, seed);
    for (k = 0; k < pairs; k++) {
        char *t, *q, *qm;
        int64_t tl, ql;
        gale_lastz_anchor *an[2];
        size_t n[2];
        int set, strand;
        make_pair(&r, &t, &tl, &q, &ql);
        qm = (char *)malloc((size_t)ql);
        REQUIRE(qm != NULL);
        tu_revcomp(q, ql, qm);
        n[0] = make_anchors(&r, t, tl, q, ql, &an[0]);
        n[1] = make_anchors(&r, t, tl, qm, ql, &an[1]);
        for (set = 0; set < 7; set++) {
            gale_lastz_params p;
            char what[160];
            gale_lastz_params_init(&p);
            switch (set) {
            case 1: p.ydrop = (int32_t)tu_range(&r, 500, 4000); break;
            case 2: p.gap_open = (int32_t)tu_range(&r, 100, 600); p.gap_extend = (int32_t)tu_range(&r, 5, 60);
                    p.ydrop = p.gap_open + 300 * p.gap_extend; break;
            case 3: p.flags |= GALE_LASTZ_NOYTRIM | GALE_LASTZ_AMBIGUOUS_N; /* (N's scores: --ambiguous=n,M,P) */
                    p.ambi_n_n = (int32_t)tu_range(&r, -50, 50); p.ambi_n_other = -(int32_t)tu_range(&r, 0, 200); break;
            case 4: p.flags |= GALE_LASTZ_ALLBOUNDS; p.gapped_thresh = (int32_t)tu_range(&r, 500, 3000); break;
            case 5: p.traceback_bytes = (uint64_t)tu_range(&r, 20000, 400000); break;
            case 6: p.flags |= GALE_LASTZ_SCORES_FILE; p.x_score = (int32_t)tu_range(&r, -1500, -200);
                    p.fill_score = (int32_t)tu_range(&r, -300, -10); break;
            default: break;
            }
            for (strand = 0; strand < 2; strand++) {
                if (strand) p.flags |= GALE_LASTZ_MINUS;
                snprintf(what, sizeof what, "pair %ld (%lld x %lld), set %d, %s strand, %zu anchors", k, (long long)tl,
                         (long long)ql, set, strand ? "minus" : "plus", n[strand]);
                compare(gpu, cpu, t, tl, strand ? qm : q, ql, an[strand], n[strand], &p, what, 1);
                if (set == 0 || set == 5) {
                    char what2[200];
                    snprintf(what2, sizeof what2, "%s, 32 MiB device budget", what);
                    compare(small, cpu, t, tl, strand ? qm : q, ql, an[strand], n[strand], &p, what2, 0);
                }
                if (set == 0 || set == 3) {
                    char what2[200];
                    snprintf(what2, sizeof what2, "%s, device 0 as two entries", what);
                    compare(twice, cpu, t, tl, strand ? qm : q, ql, an[strand], n[strand], &p, what2, 0);
                }
            }
        }
        free(an[0]);
        free(an[1]);
        free(t);
        free(q);
        free(qm);
    }
    /* the target against itself: the trivial self-alignment, with and without --notrivial */
    {
        char *t, *q;
        int64_t tl, ql;
        gale_lastz_anchor *an;
        size_t n;
        gale_lastz_params p;
        make_pair(&r, &t, &tl, &q, &ql);
        n = make_anchors(&r, t, tl, t, tl, &an);
        gale_lastz_params_init(&p);
        compare(gpu, cpu, t, tl, t, tl, an, n, &p, "self", 1);
        p.flags |= GALE_LASTZ_NOTRIVIAL;
        compare(gpu, cpu, t, tl, t, tl, an, n, &p, "self, --notrivial", 1);
        free(an);
        free(t);
        free(q);
    }
    printf("ydrop_gpu: %ld calls, %ld alignments, %ld truncations; GPU: %llu halves (%llu failed: the walk computed "
           "them), walk: %llu halves, %llu redone; phase 1 %.2f s (kernels %.2f s), phase 2 %.2f s\n",
           n_calls, n_aligns, n_trunc, (unsigned long long)dev_sides, (unsigned long long)dev_failed,
           (unsigned long long)dev_walked, (unsigned long long)dev_redone, dev_p1, dev_kernel, dev_p2);
    CHECK_MSG(n_aligns > 0, "no alignment at all: the cases test nothing");
    CHECK_MSG(n_trunc > 0, "no truncation: LASTZ's traceback limit went untested");
    if (!fake) CHECK_MSG(dev_sides > dev_failed, "the GPU computed no half");
    gale_ctx_destroy(gpu);
    gale_ctx_destroy(small);
    gale_ctx_destroy(twice);
    gale_ctx_destroy(cpu);
    return tu_finish("ydrop_gpu");
}
