// Oracle test: gale's wavefront alignment (GALE_WFA, GALE_EDIT; CPU backend, public
// API only) against WFA2-lib 2.3.3 (libwfa2-dev) with heuristics off, plus an O(nm)
// dynamic program (tests/common/wfa_check.h) for short pairs.
//
// Every case checks: the score equals WFA2-lib's (and the DP's where the pair is
// short); with GALE_SCOPE_ALIGNMENT the CIGAR is a valid alignment of the reported
// region (=/X right under the N policy, free ends within their limits) whose
// penalty is exactly the score; with GALE_SCOPE_SCORE the end is a valid end and
// the begins are as gale/wfa.h says.
//
// Parts:
//   1. fixed edge cases: empty sequences, length 1, all-N, free lengths longer than
//      the sequences (WFA2 gets them clamped: it aborts otherwise), IUPAC/lowercase
//      input (WFA2 gets the upper-case sequence with IUPAC codes as N).
//   2. >= 10,000 fresh random pairs (GALE_TEST_SCALE scales the count), lengths
//      0..20,000 (mostly short), divergence 0..30%, random penalties, all metrics,
//      both spans, both scopes, the three alphabet policies (GALE_N_MISMATCH: WFA2
//      compares bytes, so there only the DP is a reference; GALE_N_BYTES: WFA2 gets
//      gale's very bytes, a third of those pairs with lower case and IUPAC codes);
//      seed printed, GALE_TEST_SEED reproduces.
//      About 4% of them (batches of their own) run under GALE_P_MEMORY_LIMIT = 1
//      with longer, noisier pairs, both metrics and both spans in turn.
//   3. low-memory mode forced (GALE_P_MEMORY_LIMIT = 1) on long noisy pairs: flag
//      GALE_RF_LOWMEM, same score as WFA2, valid CIGAR that rescores exactly.
//   4. 40% divergence pairs of a few kbp; a 1 Mbp pair (GALE_TEST_SCALE >= 1 only),
//      once with the default limit and once forced into low-memory mode.
//   5. the memory limit's boundary: pairs whose codes need exactly the limit, or
//      one score's row more, or the widest ones just under and over it.
// Wherever the optimal penalty s is known (WFA2 or the DP), the memory accounting
// is checked against code_bytes(), which recomputes the bytes of backtrace codes
// of a full-memory alignment from lib/wfa.h's range rules alone: with scope
// ALIGNMENT the alignment is flagged GALE_RF_LOWMEM iff they exceed the limit;
// otherwise (and always with scope SCORE) cells equals them exactly.
// Exit 1 on any failure.
#include "wfa2_attr.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gale.h"
#include "testgale.h"
#include "wfa_check.h"

namespace {

int failures = 0;
long checks = 0;

#define EXPECT(cond, ...)                                      \
    do {                                                       \
        ++checks;                                              \
        if (!(cond)) {                                         \
            ++failures;                                        \
            if (failures <= 30) {                              \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
                fprintf(stderr, __VA_ARGS__);                  \
                fputc('\n', stderr);                           \
            }                                                  \
        }                                                      \
    } while (0)

#define REQUIRE_OK(call)                                                                              \
    do {                                                                                              \
        gale_status st_ = (call);                                                                     \
        if (st_ != GALE_OK) {                                                                         \
            fprintf(stderr, "FAIL %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,                  \
                    gale_status_string(st_), gale_last_error());                                      \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

using tu::Rng;

// The pairs' mutations (tests/common/testgen.h): per base, a substitution by
// another base with probability rate / 4, an insertion and a deletion with rate / 3
// each (a substitution drawn among all four bases at rate / 3); indels of 1..6
// bases 20% of the time.
std::string mutate(Rng &r, const std::string &s, double rate) {
    tu_mut m = tu_mut_thirds(rate);
    m.sub = rate / 4;
    m.run = 0.2;
    m.run_max = 6;
    return tu::mutate(r, s, m);
}

std::string random_seq(Rng &r, int64_t len) { return tu::bases(r, len); }

// What WFA2 sees for gale's input: upper case, IUPAC codes as N, U as T.
std::string canonical(const std::string &s) {
    static const char C[] = "ACGTN";
    std::string o(s);
    for (auto &c : o) c = C[wc_code(c)];
    return o;
}

struct Params {
    int kind = GALE_WFA;                 // GALE_WFA or GALE_EDIT
    int64_t x = 4, o = 6, e = 2, o2 = 0, e2 = 0;
    int scope = GALE_SCOPE_ALIGNMENT;
    int n_policy = GALE_N_DNA5;
    int64_t pb = 0, pe = 0, tb = 0, te = 0;
    int64_t memory_limit = 0;            // 0: default
    bool two() const { return kind == GALE_WFA && e2 > 0; }
    bool ends_free() const { return pb || pe || tb || te; }
    wc_params wc() const {
        wc_params w;
        w.metric = kind == GALE_EDIT ? WC_EDIT : two() ? WC_AFFINE2P : WC_AFFINE;
        w.x = x; w.o = o; w.e = e; w.o2 = o2; w.e2 = e2;
        w.n_policy = n_policy;
        w.pb = pb; w.pe = pe; w.tb = tb; w.te = te;
        return w;
    }
    std::string str() const {
        char b[256];
        snprintf(b, sizeof b, "%s x=%lld o=%lld e=%lld o2=%lld e2=%lld scope=%d npol=%d free=(pb %lld pe %lld tb %lld te %lld) memlim=%lld",
                 kind == GALE_EDIT ? "edit" : two() ? "affine2p" : "affine", (long long)x, (long long)o, (long long)e,
                 (long long)o2, (long long)e2, scope, n_policy, (long long)pb, (long long)pe, (long long)tb,
                 (long long)te, (long long)memory_limit);
        return b;
    }
};

struct Pair {
    std::string pattern, text;  // as given to gale
};

// GALE_N_BYTES runs of WFA2; those where the bytes are not the canonical sequences.
long g_bytes_refs = 0, g_bytes_raw = 0;

// WFA2-lib's penalty (positive) for one pair, or -1 where it is not a reference:
// GALE_N_MISMATCH, two-piece with a zero gap open (WFA2 refuses those), empty input.
// GALE_N_DNA5: WFA2 gets the canonical sequences (upper case, IUPAC codes as N);
// GALE_N_BYTES: the very bytes gale gets (WFA2 compares bytes).
int64_t wfa2_penalty(const Params &p, const Pair &q, bool score_only) {
    if (p.n_policy == GALE_N_MISMATCH) return -1;
    if (p.two() && (p.o == 0 || p.o2 == 0)) return -1;
    if (q.pattern.empty() || q.text.empty()) return -1;
    const bool bytes = p.n_policy == GALE_N_BYTES;
    const std::string P = bytes ? q.pattern : canonical(q.pattern), T = bytes ? q.text : canonical(q.text);
    if (bytes) {
        ++g_bytes_refs;
        g_bytes_raw += P != canonical(q.pattern) || T != canonical(q.text);
    }
    wavefront_aligner_attr_t a = wfa2_attr(p.kind == GALE_EDIT, p.two(), p.x, p.o, p.e, p.o2, p.e2);
    a.alignment_scope = score_only ? compute_score : compute_alignment;
    a.memory_mode = wavefront_memory_high;
    if (p.ends_free()) {
        // WFA2 kills the process on a free length longer than the sequence: clamp.
        a.alignment_form.span = alignment_endsfree;
        a.alignment_form.pattern_begin_free = (int)std::min<int64_t>(p.pb, (int64_t)P.size());
        a.alignment_form.pattern_end_free = (int)std::min<int64_t>(p.pe, (int64_t)P.size());
        a.alignment_form.text_begin_free = (int)std::min<int64_t>(p.tb, (int64_t)T.size());
        a.alignment_form.text_end_free = (int)std::min<int64_t>(p.te, (int64_t)T.size());
    } else {
        a.alignment_form.span = alignment_end2end;
    }
    wavefront_aligner_t *wf = wavefront_aligner_new(&a);
    wavefront_align(wf, P.data(), (int)P.size(), T.data(), (int)T.size());
    const int64_t score = wf->cigar->score;
    wavefront_aligner_delete(wf);
    return p.kind == GALE_EDIT ? score : -score;
}

// The penalty of aligning when one sequence is empty (no WFA2 call).
int64_t empty_penalty(const Params &p, const Pair &q) {
    const wc_params w = p.wc();
    const int64_t m = (int64_t)q.pattern.size(), n = (int64_t)q.text.size();
    if (m == 0 && n == 0) return 0;
    if (m == 0) {  // the text as one D gap, less what the free ends forgive
        const int64_t left = n - std::min(p.tb, n) - std::min(p.te, n);
        if (left <= 0 || std::min(p.tb, n) + std::min(p.te, n) >= n) return 0;
        return wc_gap(&w, left);
    }
    const int64_t left = m - std::min(p.pb, m) - std::min(p.pe, m);
    if (left <= 0) return 0;
    return wc_gap(&w, left);
}

// Bytes of backtrace codes that a full-memory alignment of penalty S needs, from
// the definitions in lib/wfa.h and gale/wfa.h only: one byte per cell of M's diagonal
// range at every score 0 .. S, where the ranges follow from the penalties, the
// lengths and the begin-free lengths alone (not from the sequences):
//   s = 0:  M = [-min(pb, m), min(tb, n)]
//   edit:   M[s] = M[s-1] widened by one diagonal on each side
//   affine: D[s] = hull(M[s-o-e], D[s-e]) + 1, I[s] = hull(M[s-o-e], I[s-e]) - 1
//           (two-piece: the same with o2, e2), each clamped to [-m, n];
//           M[s] = hull(M[s-x], the gap ranges at s).
// It is also what cells must be (lib/wfa.h: the sum of M's widths).
uint64_t code_bytes(const Params &p, int64_t m, int64_t n, int64_t S) {
    struct Rg {
        bool has = false;
        int64_t lo = 0, hi = -1;
    };
    enum { M, D1, I1, D2, I2, NC };
    const bool edit = p.kind == GALE_EDIT, two = p.two();
    std::vector<Rg> rg((size_t)(S + 1) * NC);
    auto at = [&](int64_t s, int c) -> Rg { return s < 0 ? Rg{} : rg[(size_t)s * NC + c]; };
    auto hull = [](Rg a, Rg b) {
        if (!a.has) return b;
        if (!b.has) return a;
        return Rg{true, std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
    };
    auto clamp = [&](Rg a, int64_t shift) {
        if (!a.has) return a;
        a.lo = std::max(a.lo + shift, -m);
        a.hi = std::min(a.hi + shift, n);
        if (a.lo > a.hi) a.has = false;
        return a;
    };
    uint64_t total = 0;
    for (int64_t s = 0; s <= S; ++s) {
        Rg *r = &rg[(size_t)s * NC];
        if (s == 0) {
            r[M] = Rg{true, -std::min(p.pb, m), std::min(p.tb, n)};
        } else if (edit) {
            Rg w = at(s - 1, M);
            if (w.has) {
                w.lo -= 1;
                w.hi += 1;
            }
            r[M] = clamp(w, 0);
        } else {
            r[D1] = clamp(hull(at(s - p.o - p.e, M), at(s - p.e, D1)), +1);
            r[I1] = clamp(hull(at(s - p.o - p.e, M), at(s - p.e, I1)), -1);
            if (two) {
                r[D2] = clamp(hull(at(s - p.o2 - p.e2, M), at(s - p.e2, D2)), +1);
                r[I2] = clamp(hull(at(s - p.o2 - p.e2, M), at(s - p.e2, I2)), -1);
            }
            r[M] = hull(hull(at(s - p.x, M), hull(r[D1], r[I1])), hull(r[D2], r[I2]));
        }
        if (r[M].has) total += (uint64_t)(r[M].hi - r[M].lo + 1);
    }
    return total;
}

int64_t limit_bytes(const Params &p) { return (p.memory_limit ? p.memory_limit : 256) << 20; }

gale_ctx *g_ctx = nullptr;
long g_lowmem = 0;  // results flagged GALE_RF_LOWMEM so far
long g_lowmem_by[2][2] = {{0, 0}, {0, 0}};  // the same by [edit][ends-free]

// Runs pairs through one batch with parameters p; checks each result.
void run_batch(const Params &p, const std::vector<Pair> &pairs, const char *what, bool expect_lowmem = false) {
    gale_batch *b = nullptr;
    REQUIRE_OK(gale_batch_create(g_ctx, p.kind, &b));
    if (p.kind == GALE_WFA) {
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, p.x));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN, p.o));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, p.e));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN2, p.o2));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND2, p.e2));
    }
    REQUIRE_OK(gale_batch_set(b, GALE_P_SCOPE, p.scope));
    REQUIRE_OK(gale_batch_set(b, GALE_P_N_POLICY, p.n_policy));
    REQUIRE_OK(gale_batch_set(b, GALE_P_PATTERN_BEGIN_FREE, p.pb));
    REQUIRE_OK(gale_batch_set(b, GALE_P_PATTERN_END_FREE, p.pe));
    REQUIRE_OK(gale_batch_set(b, GALE_P_TEXT_BEGIN_FREE, p.tb));
    REQUIRE_OK(gale_batch_set(b, GALE_P_TEXT_END_FREE, p.te));
    if (p.memory_limit) REQUIRE_OK(gale_batch_set(b, GALE_P_MEMORY_LIMIT, p.memory_limit));
    for (size_t i = 0; i < pairs.size(); ++i) {
        gale_task t;
        tu_task_seqs(&t, pairs[i].text.data(), (int64_t)pairs[i].text.size(), pairs[i].pattern.data(),
                     (int64_t)pairs[i].pattern.size());
        t.user = i;
        REQUIRE_OK(gale_batch_add(b, &t));
    }
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    const wc_params w = p.wc();
    for (size_t i = 0; i < pairs.size(); ++i) {
        const Pair &q = pairs[i];
        const int64_t m = (int64_t)q.pattern.size(), n = (int64_t)q.text.size();
        gale_result r;
        const uint32_t *cigar = nullptr;
        size_t n_ops = 0;
        REQUIRE_OK(tu_result_fetch_cigar(b, i, &r, &cigar, &n_ops));
        const int64_t pen = p.kind == GALE_EDIT ? r.score : -r.score;
        const std::string ctx = std::string(what) + " #" + std::to_string(i) + " (m " + std::to_string(m) + ", n " +
                                std::to_string(n) + ") " + p.str();
        EXPECT(r.user == i, "%s: user %" PRIu64, ctx.c_str(), r.user);
        EXPECT(pen >= 0, "%s: score %lld has the wrong sign", ctx.c_str(), (long long)r.score);
        // References.
        const int64_t ref = (m == 0 || n == 0) ? empty_penalty(p, q) : wfa2_penalty(p, q, true);
        if (ref >= 0) EXPECT(pen == ref, "%s: penalty %lld, WFA2-lib %lld", ctx.c_str(), (long long)pen, (long long)ref);
        int64_t dp = -1;
        if (m * n <= 60000) {
            dp = wc_dp_penalty(q.pattern.data(), m, q.text.data(), n, &w);
            EXPECT(pen == dp, "%s: penalty %lld, DP %lld", ctx.c_str(), (long long)pen, (long long)dp);
        }
        const bool lowmem = (r.flags & GALE_RF_LOWMEM) != 0;
        g_lowmem += lowmem;
        g_lowmem_by[p.kind == GALE_EDIT][p.ends_free()] += lowmem;
        EXPECT(!expect_lowmem || lowmem, "%s: low-memory mode expected (flags %u)", ctx.c_str(), r.flags);
        // Memory accounting, from the reference penalty (not gale's).
        const int64_t S = ref >= 0 ? ref : dp;
        if (S >= 0) {
            const uint64_t need = code_bytes(p, m, n, S), lim = (uint64_t)limit_bytes(p);
            if (p.scope == GALE_SCOPE_SCORE) {
                EXPECT(!lowmem, "%s: low-memory flag with scope SCORE", ctx.c_str());
            } else {
                EXPECT(lowmem == (need > lim), "%s: codes need %llu bytes, limit %llu, but low-memory flag %d",
                       ctx.c_str(), (unsigned long long)need, (unsigned long long)lim, (int)lowmem);
            }
            // In low-memory mode cells count the abandoned full-memory attempt (past
            // the limit) and both directions of the recomputation.
            if (lowmem) EXPECT(r.cells > lim, "%s: low-memory cells %llu within the limit %llu", ctx.c_str(),
                               (unsigned long long)r.cells, (unsigned long long)lim);
            else EXPECT(r.cells == need, "%s: cells %llu, the ranges give %llu", ctx.c_str(),
                        (unsigned long long)r.cells, (unsigned long long)need);
        }
        EXPECT(r.cells > 0, "%s: no cells counted", ctx.c_str());
        EXPECT(r.score_left == 0 && r.score_right == 0, "%s: score_left/right not 0", ctx.c_str());
        if (p.scope == GALE_SCOPE_ALIGNMENT) {
            char msg[512];
            int64_t cpen = -1;
            const bool ok = wc_check(q.pattern.data(), m, q.text.data(), n, &w, r.h_begin, r.h_end, r.v_begin, r.v_end,
                                     cigar, n_ops, &cpen, msg, sizeof msg);
            EXPECT(ok, "%s: invalid CIGAR: %s", ctx.c_str(), msg);
            if (ok) EXPECT(cpen == pen, "%s: CIGAR rescores to %lld, score %lld", ctx.c_str(), (long long)cpen,
                           (long long)pen);
        } else {
            EXPECT(n_ops == 0, "%s: %zu CIGAR ops with scope SCORE", ctx.c_str(), n_ops);
            const bool free_begin = std::min(p.pb, m) > 0 || std::min(p.tb, n) > 0;
            EXPECT(r.h_begin == (free_begin ? -1 : 0) && r.v_begin == (free_begin ? -1 : 0),
                   "%s: begins (%lld, %lld)", ctx.c_str(), (long long)r.h_begin, (long long)r.v_begin);
            const int64_t pe = std::min(p.pe, m), te = std::min(p.te, n);
            EXPECT(r.h_end >= 0 && r.h_end <= n && r.v_end >= 0 && r.v_end <= m &&
                       ((r.h_end == n && m - r.v_end <= pe) || (r.v_end == m && n - r.h_end <= te)),
                   "%s: end (%lld, %lld) not allowed", ctx.c_str(), (long long)r.h_end, (long long)r.v_end);
        }
    }
    REQUIRE_OK(gale_batch_destroy(b));
}

Params random_params(Rng &r, int kind) {
    Params p;
    p.kind = kind;
    if (kind == GALE_WFA) {
        p.x = r.range(1, 10);
        p.o = r.range(0, 12);
        p.e = r.range(1, 6);
        if (r.chance(0.5)) {  // two-piece: a long-gap piece with a higher open and a lower extend
            p.o = std::max<int64_t>(p.o, 1);
            p.e2 = r.range(1, p.e);
            p.o2 = p.o + r.range(1, 30);
            if (r.chance(0.1)) p.o2 = r.range(0, 30);  // any order of the pieces (DP reference only if 0)
        }
    }
    p.scope = r.chance(0.5) ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
    const double u = r.unit();
    p.n_policy = u < 0.1 ? GALE_N_MISMATCH : u < 0.35 ? GALE_N_BYTES : GALE_N_DNA5;
    return p;
}

void set_random_free(Rng &r, Params &p, int64_t len) {
    if (!r.chance(0.5)) return;
    const int64_t top = std::max<int64_t>(len / 3, 1);
    p.pb = r.chance(0.5) ? r.range(0, top) : 0;
    p.pe = r.chance(0.5) ? r.range(0, top) : 0;
    p.tb = r.chance(0.5) ? r.range(0, top) : 0;
    p.te = r.chance(0.5) ? r.range(0, top) : 0;
    if (r.chance(0.1)) p.pb = p.pe = p.tb = p.te = len + 100;  // longer than the sequences: clamped
}

// Pairs from a common ancestor; sometimes a flank only in one of them (for ends-free),
// sometimes N runs, IUPAC codes and lower case in gale's input.
Pair random_pair(Rng &r, int64_t len, double rate, bool flanks = true) {
    const std::string anc = random_seq(r, len);
    Pair q{mutate(r, anc, rate), mutate(r, anc, rate)};
    if (!flanks) return q;
    if (r.chance(0.15)) q.text = random_seq(r, r.range(0, len / 4 + 1)) + q.text + random_seq(r, r.range(0, len / 4 + 1));
    if (r.chance(0.1)) q.pattern = random_seq(r, r.range(0, len / 4 + 1)) + q.pattern;
    if (r.chance(0.1)) {
        static const char iupac[] = "NRYSWKMBDHVUnacgt";
        for (std::string *s : {&q.pattern, &q.text})
            for (size_t j = 0; j < s->size(); ++j)
                if (r.chance(0.02)) (*s)[j] = iupac[r.range(0, (int64_t)sizeof iupac - 2)];
    }
    if (r.chance(0.05) && !q.pattern.empty()) {  // an N run in both
        const size_t at = (size_t)r.range(0, (int64_t)std::min(q.pattern.size(), q.text.size()));
        for (size_t j = at; j < at + 5 && j < q.pattern.size() && j < q.text.size(); ++j) q.pattern[j] = q.text[j] = 'N';
    }
    return q;
}

// GALE_N_BYTES: a soft-masked (lower-case) stretch over the same part of both
// sequences, or a short one (at most 40 bases) on the pattern only, and a few IUPAC
// codes, which that policy reads as bytes. (A long stretch on one side only would be
// a long run of mismatches: a penalty in the tens of thousands, whose wavefronts
// would cost WFA2 and gale minutes.)
void soft_mask(Rng &r, Pair &q) {
    const bool one_side = r.chance(0.3);
    const double a = r.unit(), b = a + (1 - a) * r.unit();
    for (std::string *s : {&q.pattern, &q.text}) {
        if (s->empty() || (one_side && s == &q.text)) continue;
        const int64_t n = (int64_t)s->size();
        int64_t lo = (int64_t)(a * (double)n), hi = std::min<int64_t>(n, (int64_t)(b * (double)n));
        if (one_side) hi = std::min<int64_t>(hi, lo + r.range(1, 40));
        for (int64_t j = lo; j < hi; ++j) (*s)[(size_t)j] = (char)tolower((unsigned char)(*s)[(size_t)j]);
        static const char iupac[] = "NRYSWKMBDHVUnryswkmbdhvu";
        for (auto &c : *s)
            if (r.chance(0.01)) c = iupac[r.range(0, (int64_t)sizeof iupac - 2)];
    }
}

void edge_cases() {
    std::vector<Pair> pairs = {
        {"", ""}, {"A", ""}, {"", "A"}, {"A", "A"}, {"A", "C"}, {"N", "N"}, {"NNNN", "NNNN"}, {"NNNN", "NN"},
        {"ACGT", ""}, {"", "ACGTACGT"}, {"acgtRYKM", "ACGTNNNN"}, {"ACGTU", "acgtt"}, {"AAAAAAAAAA", "A"},
        {"A", "AAAAAAAAAA"}, {"ACGTACGTACGT", "TTTT"}, {"GATTACA", "GCATGCT"},
    };
    int n_sets = 0;
    for (int kind : {GALE_WFA, GALE_EDIT})
        for (int two = 0; two < (kind == GALE_WFA ? 2 : 1); ++two)
            for (int scope : {GALE_SCOPE_SCORE, GALE_SCOPE_ALIGNMENT})
                for (int npol : {GALE_N_DNA5, GALE_N_MISMATCH, GALE_N_BYTES})
                    for (int fr = 0; fr < 4; ++fr) {
                        Params p;
                        p.kind = kind;
                        p.x = 3;
                        p.o = 5;
                        p.e = 2;
                        if (two) {
                            p.o2 = 12;
                            p.e2 = 1;
                        }
                        p.scope = scope;
                        p.n_policy = npol;
                        if (fr == 1) p.pb = p.pe = p.tb = p.te = 1000;  // longer than every sequence
                        if (fr == 2) { p.tb = 3; p.te = 2; }
                        if (fr == 3) { p.pb = 2; p.pe = 4; }
                        run_batch(p, pairs, "edge");
                        ++n_sets;
                    }
    // Extreme penalties (bounds of gale.h).
    Params p;
    p.x = 4096;
    p.o = 4096;
    p.e = 4096;
    run_batch(p, pairs, "edge-max");
    p.o = 0;
    p.e = 1;
    p.x = 1;
    run_batch(p, pairs, "edge-min");
    printf("wfa_wfa2: edge cases: %zu pairs x %d parameter sets\n", pairs.size(), n_sets + 2);
}

// The memory limit's boundary, on pairs with nothing in common (A^L against C^L;
// end-to-end unless said otherwise), where the codes grow steadily with L.
//  - edit: the distance is L and M's range at score s is [-s, s], so the codes
//    take (L + 1)^2 bytes, by hand: L = 1023 needs exactly 1 MiB (full memory, the
//    limit is inclusive) and L = 1024 needs 1 MiB + 2,049 (low memory); likewise
//    for 2 MiB (L = 1447 and 1448). code_bytes() must agree with that.
//  - gap-affine, two-piece and ends-free edit: the largest L whose codes
//    (code_bytes() with WFA2's penalty) fit 1 MiB runs in full memory, L + 1 in
//    low memory.
// run_batch checks the flag, the cells and the scores; here we check that each
// case really sits where it should.
void memory_limit_boundary() {
    auto pair_of = [](int64_t L) { return Pair{std::string((size_t)L, 'A'), std::string((size_t)L, 'C')}; };
    auto run_one = [&](const Params &p, int64_t L, bool low, const char *what) {
        const long before = g_lowmem;
        run_batch(p, {pair_of(L)}, what, low);
        EXPECT((g_lowmem > before) == low, "%s: L %lld: low-memory %d, expected %d", what, (long long)L,
               (int)(g_lowmem > before), (int)low);
    };
    Params ed;
    ed.kind = GALE_EDIT;
    for (int64_t mib : {1, 2}) {
        ed.memory_limit = mib;
        const int64_t lim = mib << 20;
        int64_t L = 0;
        while ((L + 2) * (L + 2) <= lim) ++L;  // the largest L with (L + 1)^2 <= lim
        EXPECT(code_bytes(ed, L, L, L) == (uint64_t)((L + 1) * (L + 1)), "edit L %lld: code_bytes %llu",
               (long long)L, (unsigned long long)code_bytes(ed, L, L, L));
        EXPECT(mib != 1 || ((L + 1) * (L + 1) == lim && L == 1023), "edit: L %lld for 1 MiB", (long long)L);
        run_one(ed, L, false, "boundary-edit-under");
        run_one(ed, L + 1, true, "boundary-edit-over");
    }

    Params af;  // x = 4, o = 6, e = 2
    af.memory_limit = 1;
    Params a2 = af;
    a2.o2 = 20;
    a2.e2 = 1;
    Params ef = ed;
    ef.memory_limit = 1;
    ef.tb = 40;
    ef.pe = 25;
    for (const Params *pp : {&af, &a2, &ef}) {
        const Params &p = *pp;
        auto need = [&](int64_t L) { return code_bytes(p, L, L, wfa2_penalty(p, pair_of(L), true)); };
        // Bisection for the largest L whose codes fit the limit (they grow with L).
        int64_t lo = 1, hi = 4096;
        EXPECT(need(lo) <= (uint64_t)limit_bytes(p) && need(hi) > (uint64_t)limit_bytes(p), "%s: bad bracket",
               p.str().c_str());
        while (hi - lo > 1) {
            const int64_t mid = (lo + hi) / 2;
            (need(mid) <= (uint64_t)limit_bytes(p) ? lo : hi) = mid;
        }
        run_one(p, lo, false, "boundary-under");
        run_one(p, lo + 1, true, "boundary-over");
    }
}

}  // namespace

int main() {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    const double sc = tu_scale();
    Rng r(tu_seed("wfa_wfa2"));
    REQUIRE_OK(tu_ctx_new(&g_ctx, GALE_BACKEND_CPU, 2));
    const auto t0 = std::chrono::steady_clock::now();

    auto secs = [&t0]() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    edge_cases();
    printf("wfa_wfa2: edge cases done (%.1f s)\n", secs());

    // Random pairs: batches of 20 sharing a parameter set. Every 25th batch (4%)
    // runs under the smallest memory limit (1 MiB), with alignment scope and half
    // of its pairs long and noisy enough to need more codes than that; those
    // batches take edit and gap-affine, end-to-end and ends-free in turn.
    const long target = std::max<long>(200, (long)(10000 * sc));
    long done = 0, long_pairs = 0, batches = 0, tiny_pairs = 0;
    const long lowmem_before = g_lowmem;
    long by_before[2][2];
    memcpy(by_before, g_lowmem_by, sizeof by_before);
    while (done < target) {
        const bool tiny = batches % 25 == 12;
        const int kind = tiny ? ((batches / 25) % 2 ? GALE_EDIT : GALE_WFA) : r.chance(0.65) ? GALE_WFA : GALE_EDIT;
        Params p = random_params(r, kind);
        // Low-memory mode compares every new wavefront with the other direction's
        // last R + max(o, o2) + 2 scores, so its time grows with o2: keep o2 near o
        // under the tiny limit (part 3 takes any).
        if (tiny && p.two() && p.o2 > p.o + 10) p.o2 = p.o + r.range(1, 10);
        std::vector<Pair> pairs;
        int64_t maxlen = 0;
        for (int j = 0; j < 20; ++j) {
            const double u = r.unit();
            // Lengths: 87% up to 300, 12% up to 2,000 (divergence up to 30%), 1% up to
            // 20,000 (up to 5%: WFA2's time grows with the square of the penalty).
            int64_t len = u < 0.87 ? r.range(0, 300) : u < 0.99 ? r.range(300, 2000) : r.range(2000, 20000);
            // Under the tiny limit, every other pair is long and noisy enough for
            // about 1 to 10 MiB of codes at most penalties: gap-affine 800 to 2,000
            // bases at 8 to 20%, edit (whose codes grow more slowly with length)
            // 2,500 to 4,000 at 20 to 30%. Low-memory mode costs many times full
            // memory (30x and more at 2 kbp), so no pair there is longer than that.
            const bool big = tiny && j % 2;
            if (big) len = kind == GALE_EDIT ? r.range(2500, 4000) : r.range(800, 2000);
            else if (tiny && len > 2000) len = r.range(300, 2000);
            const bool lng = len > 2000 && !tiny;
            long_pairs += lng;
            const double rate =
                (big ? (kind == GALE_EDIT ? r.range(20, 30) : r.range(8, 20)) : r.range(0, lng ? 5 : 30)) / 100.0;
            pairs.push_back(random_pair(r, len, rate, !lng));
            if (p.n_policy == GALE_N_BYTES && r.chance(0.33)) soft_mask(r, pairs.back());
            maxlen = std::max(maxlen, len);
        }
        if (tiny) {
            p.memory_limit = 1;
            p.scope = GALE_SCOPE_ALIGNMENT;
            // Ends-free in every other tiny batch of each metric (low-memory mode
            // takes another path there: it searches the end and the begin first).
            if ((batches / 50) % 2) {
                const int64_t top = std::max<int64_t>(maxlen / 6, 1);
                int64_t *f[4] = {&p.pb, &p.pe, &p.tb, &p.te};
                for (int64_t *x : f) *x = r.range(0, top);
                *f[r.range(0, 3)] = r.range(1, top);  // at least one free end
            }
            tiny_pairs += (long)pairs.size();
        } else {
            set_random_free(r, p, maxlen / 2);
        }
        run_batch(p, pairs, tiny ? "random-1MiB" : "random");
        done += (long)pairs.size();
        ++batches;
    }
    long by[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) by[i][j] = g_lowmem_by[i][j] - by_before[i][j];
    printf("wfa_wfa2: %ld random pairs (%ld longer than 2 kbp; %ld under a 1 MiB limit, %ld in low-memory mode: "
           "gap-affine %ld + %ld ends-free, edit %ld + %ld ends-free) (%.1f s)\n",
           done, long_pairs, tiny_pairs, g_lowmem - lowmem_before, by[0][0], by[0][1], by[1][0], by[1][1], secs());
    // The tiny batches must really reach low-memory mode, in all four combinations
    // (at full scale each gets 5 batches of 10 long pairs, about half of them over
    // 1 MiB; fewer at penalties that keep the codes small, such as e = 6).
    if (sc >= 1.0)
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                EXPECT(by[i][j] >= 5, "only %ld random %s %s pairs in low-memory mode", by[i][j],
                       i ? "edit" : "gap-affine", j ? "ends-free" : "end-to-end");

    // Low-memory mode, forced.
    {
        // Both metrics, end-to-end and ends-free.
        const int n_low = std::max(4, (int)(4 * sc));
        for (int i = 0; i < n_low; ++i) {
            Params p = random_params(r, (i / 2) % 2 ? GALE_EDIT : GALE_WFA);
            p.scope = GALE_SCOPE_ALIGNMENT;
            p.memory_limit = 1;
            if (i % 2) { p.pb = 200; p.te = 300; p.tb = 50; }
            // Parameters WFA2-lib scores (wfa2_penalty), so that the loop below can make
            // sure the codes outgrow the limit: with no reference penalty it stopped at once
            // and a pair that still fit failed the expectation (GALE_TEST_SEED=812136002).
            p.n_policy = GALE_N_DNA5;
            if (p.two()) { p.o = std::max<int64_t>(p.o, 1); p.o2 = std::max<int64_t>(p.o2, 1); }
            // Long enough and noisy enough for > 1 MiB of codes: edit 3 to 6 kbp;
            // gap-affine 1.5 to 3 kbp (low-memory mode takes seconds there with a
            // large o2). Where WFA2 gives the penalty, a pair whose codes would
            // still fit is made twice as long, so that the mode is always reached.
            const double rate = 0.2 + r.range(0, 10) / 100.0;
            int64_t len = p.kind == GALE_EDIT ? r.range(3000, 6000) : r.range(1500, 3000);
            std::vector<Pair> pairs = {random_pair(r, len, rate, false)};
            for (int64_t S; (S = wfa2_penalty(p, pairs[0], true)) >= 0 &&
                            code_bytes(p, (int64_t)pairs[0].pattern.size(), (int64_t)pairs[0].text.size(), S) <=
                                (uint64_t)limit_bytes(p);)
                pairs[0] = random_pair(r, len *= 2, rate, false);
            run_batch(p, pairs, "lowmem", true);
        }
        printf("wfa_wfa2: %d low-memory pairs (%.1f s)\n", n_low, secs());
    }

    // 40% divergence, a few kbp.
    {
        for (int i = 0; i < 3; ++i) {
            Params p = random_params(r, i == 2 ? GALE_EDIT : GALE_WFA);
            std::vector<Pair> pairs = {random_pair(r, 2000 + r.range(0, 2000), 0.4, false)};
            run_batch(p, pairs, "div40");
        }
        printf("wfa_wfa2: 40%% divergence pairs (%.1f s)\n", secs());
    }

    // 1 Mbp, low divergence (full-scale runs only).
    if (sc >= 1.0) {
        Params p;
        p.x = 4; p.o = 6; p.e = 2;
        p.scope = GALE_SCOPE_ALIGNMENT;
        std::vector<Pair> pairs = {random_pair(r, 1000000, 0.002, false)};
        pairs[0].pattern.erase(std::remove(pairs[0].pattern.begin(), pairs[0].pattern.end(), 'N'), pairs[0].pattern.end());
        const long low0 = g_lowmem;
        run_batch(p, pairs, "1Mbp");  // the default limit: the flag as code_bytes() says
        const bool default_low = g_lowmem > low0;
        // Forced into low-memory mode: the long BiWFA recursion, checked like any other.
        Params pl = p;
        pl.memory_limit = 1;
        run_batch(pl, pairs, "1Mbp-lowmem", true);
        Params e;
        e.kind = GALE_EDIT;
        e.scope = GALE_SCOPE_SCORE;
        run_batch(e, pairs, "1Mbp-edit");
        printf("wfa_wfa2: 1 Mbp pair (default limit: %s memory; then forced low memory) (%.1f s)\n",
               default_low ? "low" : "full", secs());
    }

    memory_limit_boundary();
    printf("wfa_wfa2: memory limit boundary (%.1f s)\n", secs());

    REQUIRE_OK(gale_ctx_destroy(g_ctx));
    printf("wfa_wfa2: GALE_N_BYTES: %ld WFA2 references, %ld of them on lower-case or IUPAC bytes\n", g_bytes_refs,
           g_bytes_raw);
    if (g_bytes_raw == 0) {
        fprintf(stderr, "wfa_wfa2: no GALE_N_BYTES reference saw a lower-case or IUPAC byte (test bug)\n");
        ++failures;
    }
    if (failures) {
        fprintf(stderr, "wfa_wfa2: %d of %ld checks FAILED (%.1f s)\n", failures, checks, secs());
        return 1;
    }
    printf("wfa_wfa2: all %ld checks passed (%.1f s)\n", checks, secs());
    return 0;
}
