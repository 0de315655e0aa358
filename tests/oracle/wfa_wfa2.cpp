// Oracle test: gale's wavefront alignment (GALE_WFA, GALE_EDIT; CPU backend, public
// API only) against WFA2-lib 2.3.3 (libwfa2-dev) with heuristics off, plus an O(nm)
// dynamic program (tests/common/wfa_check.h) for short pairs.
//
// Every case checks: the score equals WFA2-lib's (and the DP's where the pair is
// short); with GALE_SCOPE_ALIGNMENT the CIGAR is a valid alignment of the reported
// region (=/X right under the N policy, free ends within their limits) whose
// penalty is exactly the score; with GALE_SCOPE_SCORE the end is a valid end and
// the begins are as gale.h says.
//
// Parts:
//   1. fixed edge cases: empty sequences, length 1, all-N, free lengths longer than
//      the sequences (WFA2 gets them clamped: it aborts otherwise), IUPAC/lowercase
//      input (WFA2 gets the upper-case sequence with IUPAC codes as N).
//   2. >= 10,000 fresh random pairs (GALE_TEST_SCALE scales the count), lengths
//      0..20,000 (mostly short), divergence 0..30%, random penalties, all metrics,
//      both spans, both scopes, both N policies (GALE_N_MISMATCH: WFA2 compares
//      bytes, so there only the DP is a reference); seed printed, GALE_TEST_SEED
//      reproduces.
//   3. low-memory mode forced (GALE_P_MEMORY_LIMIT = 1) on long noisy pairs: flag
//      GALE_RF_LOWMEM, same score as WFA2, valid CIGAR that rescores exactly.
//   4. 40% divergence pairs of a few kbp; a 1 Mbp pair (GALE_TEST_SCALE >= 1 only).
// Exit 1 on any failure.
extern "C" {
#include "utils/commons.h"
#include "wavefront/wavefront_align.h"
}

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gale.h"
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

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int64_t range(int64_t lo, int64_t hi) { return lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)); }
    double unit() { return (double)(next() >> 11) * (1.0 / 9007199254740992.0); }
    bool chance(double p) { return unit() < p; }
};

double scale() {
    const char *e = getenv("GALE_TEST_SCALE");
    double s = e ? atof(e) : 1.0;
    return s > 0 ? s : 1.0;
}

uint64_t seed_of() {
    const char *e = getenv("GALE_TEST_SEED");
    uint64_t s = e ? strtoull(e, nullptr, 0)
                   : (uint64_t)std::chrono::steady_clock::now().time_since_epoch().count();
    printf("wfa_wfa2: seed %" PRIu64 " (GALE_TEST_SEED=%" PRIu64 " reproduces)\n", s, s);
    return s;
}

// Mutates s: each base is substituted, deleted or followed by an insertion with
// probability rate / 3 each; indels come in short runs sometimes.
std::string mutate(Rng &r, const std::string &s, double rate) {
    static const char B[] = "ACGT";
    std::string o;
    o.reserve(s.size() + s.size() / 4 + 8);
    for (size_t i = 0; i < s.size(); ++i) {
        const double u = r.unit();
        if (u < rate / 3) o += B[r.next() & 3];
        else if (u < 2 * rate / 3) {
            if (r.chance(0.2)) i += (size_t)r.range(0, 5);
        } else if (u < rate) {
            o += s[i];
            const int64_t len = r.chance(0.2) ? r.range(1, 6) : 1;
            for (int64_t j = 0; j < len; ++j) o += B[r.next() & 3];
        } else o += s[i];
    }
    return o;
}

std::string random_seq(Rng &r, int64_t len) {
    static const char B[] = "ACGT";
    std::string s((size_t)len, 'A');
    for (auto &c : s) c = B[r.next() & 3];
    return s;
}

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

// WFA2-lib's penalty (positive) for one pair, or -1 where it is not a reference:
// GALE_N_MISMATCH, two-piece with a zero gap open (WFA2 refuses those), empty input.
int64_t wfa2_penalty(const Params &p, const Pair &q, bool score_only) {
    if (p.n_policy != GALE_N_DNA5) return -1;
    if (p.two() && (p.o == 0 || p.o2 == 0)) return -1;
    if (q.pattern.empty() || q.text.empty()) return -1;
    const std::string P = canonical(q.pattern), T = canonical(q.text);
    wavefront_aligner_attr_t a = wavefront_aligner_attr_default;
    a.heuristic.strategy = wf_heuristic_none;
    a.alignment_scope = score_only ? compute_score : compute_alignment;
    a.memory_mode = wavefront_memory_high;
    if (p.kind == GALE_EDIT) {
        a.distance_metric = edit;
    } else if (!p.two()) {
        a.distance_metric = gap_affine;
        a.affine_penalties.match = 0;
        a.affine_penalties.mismatch = (int)p.x;
        a.affine_penalties.gap_opening = (int)p.o;
        a.affine_penalties.gap_extension = (int)p.e;
    } else {
        a.distance_metric = gap_affine_2p;
        a.affine2p_penalties.match = 0;
        a.affine2p_penalties.mismatch = (int)p.x;
        a.affine2p_penalties.gap_opening1 = (int)p.o;
        a.affine2p_penalties.gap_extension1 = (int)p.e;
        a.affine2p_penalties.gap_opening2 = (int)p.o2;
        a.affine2p_penalties.gap_extension2 = (int)p.e2;
    }
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

gale_ctx *g_ctx = nullptr;

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
        gale_task_init(&t);
        t.h = pairs[i].text.data();
        t.h_len = (int64_t)pairs[i].text.size();
        t.v = pairs[i].pattern.data();
        t.v_len = (int64_t)pairs[i].pattern.size();
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
        memset(&r, 0, sizeof r);
        r.size = sizeof r;
        REQUIRE_OK(gale_result_get(b, i, &r));
        const uint32_t *cigar = nullptr;
        size_t n_ops = 0;
        REQUIRE_OK(gale_result_cigar(b, i, &cigar, &n_ops));
        const int64_t pen = p.kind == GALE_EDIT ? r.score : -r.score;
        const std::string ctx = std::string(what) + " #" + std::to_string(i) + " (m " + std::to_string(m) + ", n " +
                                std::to_string(n) + ") " + p.str();
        EXPECT(r.user == i, "%s: user %" PRIu64, ctx.c_str(), r.user);
        EXPECT(pen >= 0, "%s: score %lld has the wrong sign", ctx.c_str(), (long long)r.score);
        // References.
        const int64_t ref = (m == 0 || n == 0) ? empty_penalty(p, q) : wfa2_penalty(p, q, true);
        if (ref >= 0) EXPECT(pen == ref, "%s: penalty %lld, WFA2-lib %lld", ctx.c_str(), (long long)pen, (long long)ref);
        if (m * n <= 60000) {
            const int64_t dp = wc_dp_penalty(q.pattern.data(), m, q.text.data(), n, &w);
            EXPECT(pen == dp, "%s: penalty %lld, DP %lld", ctx.c_str(), (long long)pen, (long long)dp);
        }
        EXPECT(!expect_lowmem || (r.flags & GALE_RF_LOWMEM), "%s: low-memory mode expected (flags %u)", ctx.c_str(),
               r.flags);
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
    p.n_policy = r.chance(0.1) ? GALE_N_MISMATCH : GALE_N_DNA5;
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
                for (int npol : {GALE_N_DNA5, GALE_N_MISMATCH})
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

}  // namespace

int main() {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    const double sc = scale();
    Rng r(seed_of());
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 2;
    REQUIRE_OK(gale_ctx_create(&g_ctx, &o));
    const auto t0 = std::chrono::steady_clock::now();

    auto secs = [&t0]() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    edge_cases();
    printf("wfa_wfa2: edge cases done (%.1f s)\n", secs());

    // Random pairs: batches of 20 sharing a parameter set.
    const long target = std::max<long>(200, (long)(10000 * sc));
    long done = 0, long_pairs = 0;
    while (done < target) {
        const int kind = r.chance(0.65) ? GALE_WFA : GALE_EDIT;
        Params p = random_params(r, kind);
        std::vector<Pair> pairs;
        int64_t maxlen = 0;
        for (int j = 0; j < 20; ++j) {
            const double u = r.unit();
            // Lengths: 87% up to 300, 12% up to 2,000 (divergence up to 30%), 1% up to
            // 20,000 (up to 5%: WFA2's time grows with the square of the penalty).
            int64_t len = u < 0.87 ? r.range(0, 300) : u < 0.99 ? r.range(300, 2000) : r.range(2000, 20000);
            const bool lng = len > 2000;
            long_pairs += lng;
            const double rate = r.range(0, lng ? 5 : 30) / 100.0;
            pairs.push_back(random_pair(r, len, rate, !lng));
            maxlen = std::max(maxlen, len);
        }
        set_random_free(r, p, maxlen / 2);
        run_batch(p, pairs, "random");
        done += (long)pairs.size();
    }
    printf("wfa_wfa2: %ld random pairs (%ld longer than 2 kbp) (%.1f s)\n", done, long_pairs, secs());

    // Low-memory mode, forced.
    {
        const int n_low = std::max(2, (int)(4 * sc));
        for (int i = 0; i < n_low; ++i) {
            Params p = random_params(r, i % 3 == 2 ? GALE_EDIT : GALE_WFA);
            p.scope = GALE_SCOPE_ALIGNMENT;
            p.memory_limit = 1;
            if (i % 2) { p.pb = 200; p.te = 300; p.tb = 50; }
            // Long enough and noisy enough for > 1 MiB of codes.
            std::vector<Pair> pairs = {random_pair(r, 3000 + r.range(0, 3000), 0.2 + r.range(0, 10) / 100.0, false)};
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
        run_batch(p, pairs, "1Mbp");
        Params e;
        e.kind = GALE_EDIT;
        e.scope = GALE_SCOPE_SCORE;
        run_batch(e, pairs, "1Mbp-edit");
        printf("wfa_wfa2: 1 Mbp pair (%.1f s)\n", secs());
    }

    REQUIRE_OK(gale_ctx_destroy(g_ctx));
    if (failures) {
        fprintf(stderr, "wfa_wfa2: %d of %ld checks FAILED (%.1f s)\n", failures, checks, secs());
        return 1;
    }
    printf("wfa_wfa2: all %ld checks passed (%.1f s)\n", checks, secs());
    return 0;
}
