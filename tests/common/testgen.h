/*
 * testgen.h - the one random-case generator of gale's tests and benchmarks, for C
 * and C++ alike: the run's seed (GALE_TEST_SEED, else the clock; always printed),
 * GALE_TEST_SCALE, a seeded random generator (splitmix64 seeding a xoshiro256**),
 * random sequences, mutated copies (substitutions, insertions, deletions at a
 * divergence, with optional indel runs), pairs diverged from one ancestor, and
 * X-drop pairs around an exact seed.
 *
 * Header-only (static functions), C99 plus POSIX (clock_gettime); needs no gale
 * header, so the C++ oracles with their own check macros include it alone. For
 * C++ it adds, at the end, tu::Rng (the same generator as a small class) and
 * std::string forms of the sequence functions.
 */
#ifndef GALE_TESTGEN_H
#define GALE_TESTGEN_H

#if !defined(_POSIX_C_SOURCE) && !defined(__cplusplus)
#define _POSIX_C_SOURCE 200809L
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__GNUC__)
#define TU_UNUSED __attribute__((unused))
#else
#define TU_UNUSED
#endif

/* ------------------------------------------------------------------ */
/* Environment                                                          */
/* ------------------------------------------------------------------ */

/* GALE_TEST_SCALE: float, default 1.0 (ASan builds set it lower). */
static TU_UNUSED double tu_scale(void)
{
    const char *s = getenv("GALE_TEST_SCALE");
    double v;
    if (!s || !*s) return 1.0;
    v = strtod(s, NULL);
    if (!(v > 0.0)) return 1.0;
    return v;
}

/* n scaled by GALE_TEST_SCALE (rounded), at least lo. */
static TU_UNUSED long tu_scaled(long n, long lo)
{
    double v = (double)n * tu_scale();
    long r = (long)(v + 0.5);
    return r < lo ? lo : r;
}

/* GALE_TEST_LONG=0 leaves out a test's long cases (the gpu suite's 100-200 kbp pairs and
 * wide bands), which take the longest under compute-sanitizer's racecheck
 * (tools/device/run.sh sanitize sets it there). Default: they run. */
static TU_UNUSED int tu_long_cases(void)
{
    const char *s = getenv("GALE_TEST_LONG");
    return !(s && strcmp(s, "0") == 0);
}

static TU_UNUSED double tu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Random numbers (splitmix64 seeding a xoshiro256**)                   */
/* ------------------------------------------------------------------ */

typedef struct tu_rng {
    uint64_t s[4];
} tu_rng;

static TU_UNUSED uint64_t tu_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static TU_UNUSED void tu_rng_init(tu_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    int i;
    for (i = 0; i < 4; ++i) r->s[i] = tu_splitmix(&x);
}

/* Stream `i` of a run's seed: independent of the other streams, so that one case
 * (one stream) can be replayed alone. */
static TU_UNUSED void tu_rng_stream(tu_rng *r, uint64_t seed, uint64_t i)
{
    tu_rng_init(r, seed ^ (i * 0xD1B54A32D192ED03ull + 0x8BB84B93962EACC9ull));
}

static TU_UNUSED uint64_t tu_next(tu_rng *r)
{
    uint64_t *s = r->s;
    uint64_t t = s[1] << 17;
    uint64_t res = s[1] * 5;
    res = ((res << 7) | (res >> 57)) * 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return res;
}

/* Uniform in [0, n) (0 when n is 0). */
static TU_UNUSED uint64_t tu_below(tu_rng *r, uint64_t n) { return n ? tu_next(r) % n : 0; }

/* Uniform in [lo, hi] (inclusive); lo when hi <= lo. */
static TU_UNUSED int64_t tu_range(tu_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span;
    if (hi <= lo) return lo;
    span = (uint64_t)(hi - lo) + 1u;
    return lo + (int64_t)(tu_next(r) % span);
}

/* Uniform in [0, 1). */
static TU_UNUSED double tu_unif(tu_rng *r)
{
    return (double)(tu_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* 1 with probability p. */
static TU_UNUSED int tu_chance(tu_rng *r, double p) { return tu_unif(r) < p; }

/* Roughly log-uniform integer in [lo, hi] (lo >= 1): a bucket [lo*4^i, lo*4^(i+1))
 * is chosen uniformly, then a value uniformly inside it, so short and long
 * lengths are both common. */
static TU_UNUSED int64_t tu_logrange(tu_rng *r, int64_t lo, int64_t hi)
{
    int64_t blo = lo, bhi, v;
    int buckets = 0, k, i;
    if (lo < 1) lo = blo = 1;
    if (hi <= lo) return lo;
    for (bhi = lo; bhi <= hi; bhi *= 4) ++buckets;
    k = (int)tu_range(r, 0, buckets - 1);
    for (i = 0; i < k; ++i) blo *= 4;
    bhi = blo * 4 - 1;
    if (bhi > hi) bhi = hi;
    v = tu_range(r, blo, bhi);
    return v;
}

/* Log-uniform integer in [lo, hi] (lo >= 1), continuous: exp of a uniform in
 * [log lo, log(hi + 1)), truncated. */
static TU_UNUSED int64_t tu_loguniform(tu_rng *r, int64_t lo, int64_t hi)
{
    double x = exp(log((double)lo) + tu_unif(r) * (log((double)hi + 1.0) - log((double)lo)));
    int64_t v = (int64_t)x;
    return v < lo ? lo : v > hi ? hi : v;
}

/* The run's seed: GALE_TEST_SEED if set, else from the clock; printed as
 * "<test_name>: random seed N (reproduce with GALE_TEST_SEED=N)". */
static TU_UNUSED uint64_t tu_seed(const char *test_name)
{
    const char *s = getenv("GALE_TEST_SEED");
    uint64_t seed;
    if (s && *s) {
        seed = (uint64_t)strtoull(s, NULL, 0);
    } else {
        struct timespec ts;
        uint64_t x;
        clock_gettime(CLOCK_REALTIME, &ts);
        x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
        seed = tu_splitmix(&x) & 0xffffffffffffull;
    }
    printf("%s: random seed %llu (reproduce with GALE_TEST_SEED=%llu)\n", test_name,
           (unsigned long long)seed, (unsigned long long)seed);
    fflush(stdout);
    return seed;
}

/* ------------------------------------------------------------------ */
/* Random sequences and mutated copies                                  */
/* ------------------------------------------------------------------ */

static const char tu_acgt[4] = {'A', 'C', 'G', 'T'};

static TU_UNUSED char tu_base(tu_rng *r) { return tu_acgt[tu_next(r) & 3]; }

/* A base's complement, either case; any other byte as it is. */
static TU_UNUSED char tu_comp(char c)
{
    switch (c) {
    case 'A': return 'T'; case 'C': return 'G'; case 'G': return 'C'; case 'T': return 'A';
    case 'a': return 't'; case 'c': return 'g'; case 'g': return 'c'; case 't': return 'a';
    default: return c;
    }
}

/* out[0..n) = the reverse complement of s[0..n) (tu_comp). */
static TU_UNUSED void tu_revcomp(const char *s, int64_t n, char *out)
{
    int64_t i;
    for (i = 0; i < n; i++) out[i] = tu_comp(s[n - 1 - i]);
}

/* s[0..n) = random bases (no terminator written). */
static TU_UNUSED void tu_bases(tu_rng *r, char *s, int64_t n)
{
    int64_t i;
    for (i = 0; i < n; ++i) s[i] = tu_base(r);
}

/* A growable byte buffer. */
typedef struct tu_buf {
    char *p;
    int64_t n, cap;
} tu_buf;

static TU_UNUSED void tu_buf_push(tu_buf *b, char c)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->p = (char *)realloc(b->p, (size_t)b->cap);
        if (!b->p) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    b->p[b->n++] = c;
}

/* Hands out b's bytes NUL-terminated (malloc'd; the terminator is room, not part
 * of the sequence) and their length. */
static TU_UNUSED void tu_buf_take(tu_buf *b, char **p, int64_t *n)
{
    tu_buf_push(b, 0);
    *p = b->p;
    *n = b->n - 1;
}

/* A mutation model: per base of the source, a substitution (by another base)
 * with probability sub, the base followed by an insertion with probability ins,
 * a deletion with probability del; an insertion or deletion is a run of
 * 1..run_max bases with probability run, else one base. */
typedef struct tu_mut {
    double sub, ins, del;
    double run;
    int run_max;
} tu_mut;

/* Divergence `rate` shared out as substitutions 1/2, deletions 1/4, insertions
 * 1/4, single bases. */
static TU_UNUSED tu_mut tu_mut_rate(double rate)
{
    tu_mut m;
    m.sub = rate / 2;
    m.ins = m.del = rate / 4;
    m.run = 0;
    m.run_max = 1;
    return m;
}

/* Divergence `rate` in equal thirds (substitutions, insertions, deletions),
 * single bases: sequencing-like errors. */
static TU_UNUSED tu_mut tu_mut_thirds(double rate)
{
    tu_mut m;
    m.sub = m.ins = m.del = rate / 3;
    m.run = 0;
    m.run_max = 1;
    return m;
}

static TU_UNUSED int64_t tu_indel_len(tu_rng *r, const tu_mut *m)
{
    return m->run > 0 && tu_chance(r, m->run) ? tu_range(r, 1, m->run_max) : 1;
}

/* Appends to out a copy of src[0..n) mutated by m. */
static TU_UNUSED void tu_mutate_with(tu_rng *r, tu_buf *out, const char *src, int64_t n, const tu_mut *m)
{
    const double all = m->sub + m->ins + m->del;
    int64_t i, j, len;
    for (i = 0; i < n; ++i) {
        double u = all > 0.0 ? tu_unif(r) : 1.0;
        if (u < m->sub) {
            char c;
            do c = tu_base(r); while (c == src[i]);
            tu_buf_push(out, c);
        } else if (u < m->sub + m->ins) {
            tu_buf_push(out, src[i]);
            len = tu_indel_len(r, m);
            for (j = 0; j < len; ++j) tu_buf_push(out, tu_base(r));
        } else if (u < all) {
            i += tu_indel_len(r, m) - 1; /* deleted */
        } else {
            tu_buf_push(out, src[i]);
        }
    }
}

/* Appends a copy of anc[0..n) mutated at divergence rate (tu_mut_rate). */
static TU_UNUSED void tu_mutate_into(tu_rng *r, tu_buf *out, const char *anc, int64_t n, double rate)
{
    tu_mut m = tu_mut_rate(rate);
    tu_mutate_with(r, out, anc, n, &m);
}

/* Appends to out a genome-like relative of a[0..n) (the GPU tests' whole-sequence pairs):
 * blocks of 300 - 20000 bases, each inverted with probability p_inv (its reverse
 * complement, mutated), else replaced by random bases (10%), else a mutated copy (10% of
 * those followed by a mutated copy of its first half: a duplication). */
static TU_UNUSED void tu_rearranged(tu_rng *r, tu_buf *out, const char *a, int64_t n, const tu_mut *m, double p_inv)
{
    int64_t at = 0, len, i;
    while (at < n) {
        len = tu_range(r, 300, 20000);
        if (len > n - at) len = n - at;
        if (tu_chance(r, p_inv)) {
            char *rc = (char *)malloc((size_t)len);
            if (!rc) exit(1);
            tu_revcomp(a + at, len, rc);
            tu_mutate_with(r, out, rc, len, m);
            free(rc);
        } else if (tu_chance(r, 0.1)) {
            for (i = 0; i < len; i++) tu_buf_push(out, tu_base(r));
        } else {
            tu_mutate_with(r, out, a + at, len, m);
            if (tu_chance(r, 0.1)) tu_mutate_with(r, out, a + at, len / 2, m);
        }
        at += len;
    }
}

/* Genome-like blemishes over s[0..n) (none under 200 bases): 0 - 4 runs of N (1 - 300),
 * 0 - 8 single IUPAC codes (and n, x), 0 - 4 soft-masked (lowercase) stretches (1 - 5000). */
static TU_UNUSED void tu_blemish(tu_rng *r, char *s, int64_t n)
{
    static const char iupac[] = "NRYSWKMBDHVnx";
    int64_t runs, i;
    if (n < 200) return;
    for (runs = tu_range(r, 0, 4); runs > 0; runs--) {
        const int64_t p = tu_range(r, 0, n - 1), rl = tu_range(r, 1, 300);
        for (i = p; i < n && i < p + rl; i++) s[i] = 'N';
    }
    for (runs = tu_range(r, 0, 8); runs > 0; runs--) s[tu_range(r, 0, n - 1)] = iupac[tu_range(r, 0, 12)];
    for (runs = tu_range(r, 0, 4); runs > 0; runs--) {
        const int64_t p = tu_range(r, 0, n - 1), rl = tu_range(r, 1, 5000);
        for (i = p; i < n && i < p + rl; i++)
            if (s[i] >= 'A' && s[i] <= 'Z') s[i] = (char)(s[i] | 0x20);
    }
}

/* Options of tu_decorate and tu_pair_make. */
#define TU_LOWER  1 /* lowercase stretches */
#define TU_NRUNS  2 /* runs of N (and single IUPAC codes, U) */

/* Sprinkles case changes and N/IUPAC runs over s[0..n) (not over the seed
 * [sb, se), so that the seed stays exact; gale does not need that, but it keeps
 * the pairs realistic). */
static TU_UNUSED void tu_decorate(tu_rng *r, char *s, int64_t n, int64_t sb, int64_t se, int opts)
{
    static const char iupac[] = "NRYSWKMBDHVU";
    int64_t i, runs;
    if ((opts & TU_LOWER) && n > 0) {
        runs = tu_range(r, 1, 4);
        while (runs--) {
            int64_t a = tu_range(r, 0, n - 1), len = tu_range(r, 1, n);
            for (i = a; i < n && i < a + len; ++i)
                if (s[i] >= 'A' && s[i] <= 'Z') s[i] = (char)(s[i] - 'A' + 'a');
        }
    }
    if ((opts & TU_NRUNS) && n > 0) {
        runs = tu_range(r, 1, 3);
        while (runs--) {
            int64_t a = tu_range(r, 0, n - 1), len = tu_range(r, 1, 50);
            for (i = a; i < n && i < a + len; ++i)
                if (i < sb || i >= se) s[i] = 'N';
        }
        runs = tu_range(r, 0, 5);
        while (runs--) {
            int64_t a = tu_range(r, 0, n - 1);
            if (a < sb || a >= se) {
                char c = iupac[tu_range(r, 0, (int64_t)sizeof iupac - 2)];
                if (tu_next(r) & 1) c = (char)(c - 'A' + 'a');
                s[a] = c;
            }
        }
    }
}

/* A soft-masked (lower-case) stretch over the same part of both sequences of a pair
 * (the same fractions of their lengths): what GALE_N_BYTES reads differently from the
 * folding policies, without the long runs of mismatches that independent stretches
 * (TU_LOWER on each) give under it. */
static TU_UNUSED void tu_lower_both(tu_rng *r, char *h, int64_t hn, char *v, int64_t vn)
{
    double a = tu_unif(r), b = a + (1.0 - a) * tu_unif(r);
    char *s[2] = {h, v};
    int64_t n[2] = {hn, vn}, i;
    int k;
    for (k = 0; k < 2; ++k)
        for (i = (int64_t)(a * (double)n[k]); i < (int64_t)(b * (double)n[k]) && i < n[k]; ++i)
            if (s[k][i] >= 'A' && s[k][i] <= 'Z') s[k][i] = (char)(s[k][i] - 'A' + 'a');
}

/* ------------------------------------------------------------------ */
/* Pairs                                                                */
/* ------------------------------------------------------------------ */

/* A malloc'd, NUL-terminated random sequence of len bases. */
static TU_UNUSED char *tu_random_seq(tu_rng *r, int64_t len)
{
    char *s = (char *)malloc((size_t)len + 1);
    if (!s) exit(1);
    tu_bases(r, s, len);
    s[len] = 0;
    return s;
}

/* Two sequences diverged from one random ancestor of len bases, each an
 * independent mutated copy (m); malloc'd and NUL-terminated. */
static TU_UNUSED void tu_diverged(tu_rng *r, int64_t len, const tu_mut *m, char **h, int64_t *hl, char **v,
                                  int64_t *vl)
{
    char *anc = tu_random_seq(r, len);
    tu_buf a = {0, 0, 0}, b = {0, 0, 0};
    tu_mutate_with(r, &a, anc, len, m);
    tu_mutate_with(r, &b, anc, len, m);
    tu_buf_take(&a, h, hl);
    tu_buf_take(&b, v, vl);
    free(anc);
}

/* An X-drop pair: h and v with an exact seed at [h_begin, h_end) x [v_begin, v_end). */
typedef struct tu_pair {
    char *h, *v;
    int64_t h_len, v_len;
    int64_t h_begin, h_end, v_begin, v_end;
} tu_pair;

static TU_UNUSED void tu_pair_free(tu_pair *p)
{
    free(p->h);
    free(p->v);
    memset(p, 0, sizeof *p);
}

/* Makes a pair: an ancestor of about `len` bases (left flank, seed of k bases,
 * right flank at a random split), each flank mutated independently for h and v
 * at `rate` (tu_mut_rate); the seed is copied exactly. k >= 1, len >= k. */
static TU_UNUSED void tu_pair_make(tu_rng *r, tu_pair *p, int64_t len, int64_t k, double rate, int opts)
{
    int64_t left = tu_range(r, 0, len - k), right = len - k - left, i;
    char *anc = tu_random_seq(r, len);
    tu_buf h = {0, 0, 0}, v = {0, 0, 0};
    tu_mutate_into(r, &h, anc, left, rate);
    tu_mutate_into(r, &v, anc, left, rate);
    p->h_begin = h.n;
    p->v_begin = v.n;
    for (i = 0; i < k; ++i) {
        tu_buf_push(&h, anc[left + i]);
        tu_buf_push(&v, anc[left + i]);
    }
    p->h_end = h.n;
    p->v_end = v.n;
    tu_mutate_into(r, &h, anc + left + k, right, rate);
    tu_mutate_into(r, &v, anc + left + k, right, rate);
    tu_buf_take(&h, &p->h, &p->h_len);
    tu_buf_take(&v, &p->v, &p->v_len);
    free(anc);
    tu_decorate(r, p->h, p->h_len, p->h_begin, p->h_end, opts);
    tu_decorate(r, p->v, p->v_len, p->v_begin, p->v_end, opts);
}

#ifdef __cplusplus
#include <string>

namespace tu {

/* The same generator as a class, for the C++ tests. */
struct Rng {
    tu_rng st;
    explicit Rng(uint64_t seed) { tu_rng_init(&st, seed); }
    Rng(uint64_t seed, uint64_t stream) { tu_rng_stream(&st, seed, stream); }
    tu_rng *c() { return &st; }
    uint64_t next() { return tu_next(&st); }
    uint64_t below(uint64_t n) { return tu_below(&st, n); }
    int64_t range(int64_t lo, int64_t hi) { return tu_range(&st, lo, hi); }
    double unit() { return tu_unif(&st); }
    bool chance(double p) { return tu_chance(&st, p) != 0; }
    int64_t loguniform(int64_t lo, int64_t hi) { return tu_loguniform(&st, lo, hi); }
    int64_t logrange(int64_t lo, int64_t hi) { return tu_logrange(&st, lo, hi); }
};

inline std::string bases(tu_rng *r, int64_t n) {
    std::string s((size_t)(n > 0 ? n : 0), 'A');
    tu_bases(r, &s[0], (int64_t)s.size());
    return s;
}
inline std::string bases(Rng &r, int64_t n) { return bases(r.c(), n); }

inline std::string mutate(tu_rng *r, const std::string &s, const tu_mut &m) {
    tu_buf b = {nullptr, 0, 0};
    tu_mutate_with(r, &b, s.data(), (int64_t)s.size(), &m);
    std::string out(b.p ? b.p : "", (size_t)b.n);
    free(b.p);
    return out;
}
inline std::string mutate(Rng &r, const std::string &s, const tu_mut &m) { return mutate(r.c(), s, m); }

}  // namespace tu
#endif

#endif /* GALE_TESTGEN_H */
