// Oracle test: WFA2-lib's metrics and match score (since 0.6): GALE_INDEL,
// GALE_EDIT, GALE_WFA_LINEAR, GALE_WFA (one and two pieces) with a match score 0 or
// negative (GALE_P_PENALTY_MATCH), against WFA2-lib 2.3.3 (libwfa2-dev, heuristics
// off), CPU backend, public API only.
//
// Every case checks that gale's score equals WFA2-lib's cigar->score exactly (the
// distance for indel and edit, minus the penalty with match 0, WFA2-lib's
// translated score with a match score: gale/wfa.h). With GALE_SCOPE_ALIGNMENT the CIGAR
// must be an alignment of the reported region ('=' on equal bases, 'X' on different
// ones, none for indel), its begin and end within the free lengths, and rescore
// to the score: its penalty under the kernel's penalties (Eizenga's transformed
// ones with a match score), plus -match per free begin base, translated as WFA2-lib
// translates (with a match score and free ends WFA2-lib 2.3.3 reads uninitialised
// memory, so there only this check applies). With GALE_SCOPE_SCORE the end must be allowed and the begins as gale/wfa.h
// says. WFA2-lib compares bytes: the pairs are upper-case ACGT.
//
// Cases: fixed edge pairs on every metric; WFA2-lib's own test script's
// configurations (tests/wfa.utest.sh at v2.3.3; its wfa-adaptive runs are in
// wfa_heuristic_wfa2) on generated pairs: indel, edit, gap-affine,
// two-piece and gap-affine penalties p0..p5 (match 0, -5, -2, -3), each in the
// script's five modes (alignment, score only, memory mode med, BiWFA (ultralow)
// with alignment and score only), WFA2-lib run in that mode and gale in the
// matching scope (BiWFA: gale's low-memory mode forced, GALE_P_MEMORY_LIMIT = 1);
// then fresh random pairs (seed printed,
// GALE_TEST_SEED reproduces; GALE_TEST_SCALE scales the count, default 1,000 pairs
// in batches of 10 sharing random settings): lengths 1..600 (a few to 3,000),
// divergence 0..30%, flanks for the free ends, both scopes, end-to-end or random
// free lengths (clamped per pair for WFA2-lib, which aborts otherwise), and one
// batch in 10 under GALE_P_MEMORY_LIMIT = 1 MiB (low-memory mode on the longer
// pairs). Exit 1 on any failure.
#include "wfa2_attr.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gale.h"
#include "testgale.h"

namespace {

int failures = 0;
long checks = 0;

#define EXPECT(cond, ...)                                            \
    do {                                                             \
        ++checks;                                                    \
        if (!(cond)) {                                               \
            ++failures;                                              \
            if (failures <= 30) {                                    \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
                fprintf(stderr, __VA_ARGS__);                        \
                fputc('\n', stderr);                                 \
            }                                                        \
        }                                                            \
    } while (0)

#define REQUIRE_OK(call)                                                                 \
    do {                                                                                 \
        gale_status st_ = (call);                                                        \
        if (st_ != GALE_OK) {                                                            \
            fprintf(stderr, "FAIL %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,     \
                    gale_status_string(st_), gale_last_error());                         \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

using tu::Rng;

struct Params {
    int kind = GALE_WFA;  // GALE_INDEL, GALE_EDIT, GALE_WFA_LINEAR, GALE_WFA
    int64_t match = 0, x = 4, o = 6, e = 2, o2 = 0, e2 = 0, indel = 2;
    int scope = GALE_SCOPE_ALIGNMENT;
    int64_t pb = 0, pe = 0, tb = 0, te = 0;
    int64_t memory_limit = 0;
    bool two() const { return kind == GALE_WFA && e2 > 0; }
    bool ends_free() const { return pb || pe || tb || te; }
    bool distance() const { return kind == GALE_EDIT || kind == GALE_INDEL; }
    std::string str() const {
        char b[320];
        snprintf(b, sizeof b,
                 "%s match=%lld x=%lld o=%lld e=%lld o2=%lld e2=%lld indel=%lld scope=%d free=(pb %lld pe %lld tb %lld "
                 "te %lld) memlim=%lld",
                 gale_kind_name(kind), (long long)match, (long long)x, (long long)o, (long long)e, (long long)o2,
                 (long long)e2, (long long)indel, scope, (long long)pb, (long long)pe, (long long)tb, (long long)te,
                 (long long)memory_limit);
        return b;
    }
};

struct Pair {
    std::string pattern, text;
};

// WFA2-lib's memory mode for the reference (wfa.utest.sh's modes); high by default.
wavefront_memory_t g_wfa2_memory = wavefront_memory_high;
bool g_wfa2_alignment = false;  // compute_alignment instead of compute_score

// WFA2-lib's cigar->score for the pair (both sequences non-empty).
int64_t wfa2_score(const Params &p, const Pair &q) {
    wavefront_aligner_attr_t a = wavefront_aligner_attr_default;
    a.heuristic.strategy = wf_heuristic_none;
    switch (p.kind) {
    case GALE_INDEL: a.distance_metric = indel; break;
    case GALE_EDIT: a.distance_metric = edit; break;
    case GALE_WFA_LINEAR:
        a.distance_metric = gap_linear;
        a.linear_penalties.match = (int)p.match;
        a.linear_penalties.mismatch = (int)p.x;
        a.linear_penalties.indel = (int)p.indel;
        break;
    default:
        if (p.two()) {
            a.distance_metric = gap_affine_2p;
            a.affine2p_penalties =
                affine2p_penalties_t{(int)p.match, (int)p.x, (int)p.o, (int)p.e, (int)p.o2, (int)p.e2};
        } else {
            a.distance_metric = gap_affine;
            a.affine_penalties = affine_penalties_t{(int)p.match, (int)p.x, (int)p.o, (int)p.e};
        }
    }
    a.alignment_scope = g_wfa2_alignment ? compute_alignment : compute_score;
    a.memory_mode = g_wfa2_memory;
    const int64_t m = (int64_t)q.pattern.size(), n = (int64_t)q.text.size();
    if (p.ends_free()) {
        a.alignment_form.span = alignment_endsfree;
        a.alignment_form.pattern_begin_free = (int)std::min(p.pb, m);
        a.alignment_form.pattern_end_free = (int)std::min(p.pe, m);
        a.alignment_form.text_begin_free = (int)std::min(p.tb, n);
        a.alignment_form.text_end_free = (int)std::min(p.te, n);
    } else {
        a.alignment_form.span = alignment_end2end;
    }
    wavefront_aligner_t *wf = wavefront_aligner_new(&a);
    wavefront_align(wf, q.pattern.data(), (int)m, q.text.data(), (int)n);
    const int64_t s = wf->cigar->score;
    wavefront_aligner_delete(wf);
    return s;
}

// The kernel's penalties (lib/wfa.h): Eizenga's transformation with a match score.
struct Pen {
    int64_t a, x, o, e, o2, e2;
    bool two, no_x;
};
Pen pen_of(const Params &p) {
    Pen k{-p.match, p.x, p.o, p.e, p.o2, p.e2, p.two(), false};
    if (p.kind == GALE_EDIT) k = Pen{0, 1, 0, 1, 0, 0, false, false};
    if (p.kind == GALE_INDEL) k = Pen{0, 2, 0, 1, 0, 0, false, true};
    if (p.kind == GALE_WFA_LINEAR) k = Pen{-p.match, p.x, 0, p.indel, 0, 0, false, false};
    if (k.a > 0) {
        k.x = 2 * k.x + 2 * k.a;
        k.o = 2 * k.o;
        k.e = 2 * k.e + k.a;
        k.o2 = 2 * k.o2;
        k.e2 = 2 * k.e2 + k.a;
    }
    return k;
}
int64_t gap_cost(const Pen &k, int64_t len, bool edit_like) {
    if (edit_like) return len;  // edit and indel: every gap base costs 1
    int64_t c = k.o + len * k.e;
    if (k.two) c = std::min(c, k.o2 + len * k.e2);
    return c;
}
int64_t translate(const Params &p, int64_t P, int64_t m, int64_t n) {
    if (p.distance()) return P;
    if (p.match == 0) return -P;
    return (-p.match * (m + n) - P) / 2;
}

gale_ctx *g_ctx = nullptr;
long g_no_ref = 0;  // pairs without a WFA2-lib reference (see run_batch)

void run_batch(const Params &p, const std::vector<Pair> &pairs, const char *what) {
    gale_batch *b = nullptr;
    REQUIRE_OK(gale_batch_create(g_ctx, p.kind, &b));
    if (p.kind == GALE_WFA || p.kind == GALE_WFA_LINEAR) {
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_MATCH, p.match));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, p.x));
    }
    if (p.kind == GALE_WFA) {
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN, p.o));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, p.e));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN2, p.o2));
        REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND2, p.e2));
    }
    if (p.kind == GALE_WFA_LINEAR) REQUIRE_OK(gale_batch_set(b, GALE_P_PENALTY_INDEL, p.indel));
    REQUIRE_OK(gale_batch_set(b, GALE_P_SCOPE, p.scope));
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
    const Pen k = pen_of(p);
    const bool edit_like = p.distance();
    for (size_t i = 0; i < pairs.size(); ++i) {
        const Pair &q = pairs[i];
        const int64_t m = (int64_t)q.pattern.size(), n = (int64_t)q.text.size();
        gale_result r;
        const uint32_t *cigar = nullptr;
        size_t n_ops = 0;
        REQUIRE_OK(tu_result_fetch_cigar(b, i, &r, &cigar, &n_ops));
        const std::string ctx = std::string(what) + " #" + std::to_string(i) + " (m " + std::to_string(m) + ", n " +
                                std::to_string(n) + ") " + p.str();
        // WFA2-lib 2.3.3 is no reference with a match score and free ends: it reads
        // uninitialised offsets there (its issues #84 and #87, fixed in 2.3.5) and
        // may crash; gale takes them as null, as 2.3.5 does. Only the CIGAR is checked.
        if (m > 0 && n > 0 && p.match < 0 && p.ends_free()) ++g_no_ref;
        if (m > 0 && n > 0 && !(p.match < 0 && p.ends_free())) {
            const int64_t ref = wfa2_score(p, q);
            EXPECT(r.score == ref, "%s: score %lld, WFA2-lib %lld", ctx.c_str(), (long long)r.score, (long long)ref);
        }
        const int64_t pb = std::min(p.pb, m), pe = std::min(p.pe, m), tb = std::min(p.tb, n), te = std::min(p.te, n);
        const bool end_ok = r.h_end >= 0 && r.h_end <= n && r.v_end >= 0 && r.v_end <= m &&
                            ((r.h_end == n && m - r.v_end <= pe) || (r.v_end == m && n - r.h_end <= te));
        EXPECT(end_ok, "%s: end (%lld, %lld) not allowed", ctx.c_str(), (long long)r.h_end, (long long)r.v_end);
        if (p.scope == GALE_SCOPE_SCORE) {
            EXPECT(n_ops == 0, "%s: CIGAR with scope SCORE", ctx.c_str());
            const bool fb = pb > 0 || tb > 0;
            EXPECT(r.h_begin == (fb ? -1 : 0) && r.v_begin == (fb ? -1 : 0), "%s: begins (%lld, %lld)", ctx.c_str(),
                   (long long)r.h_begin, (long long)r.v_begin);
            continue;
        }
        const bool begin_ok = (r.h_begin == 0 && r.v_begin >= 0 && r.v_begin <= pb) ||
                              (r.v_begin == 0 && r.h_begin >= 0 && r.h_begin <= tb);
        EXPECT(begin_ok, "%s: begin (%lld, %lld) not allowed", ctx.c_str(), (long long)r.h_begin,
               (long long)r.v_begin);
        if (!begin_ok || !end_ok) continue;
        // Walk the CIGAR over the region, summing the kernel's penalty.
        int64_t h = r.h_begin, v = r.v_begin, P = k.a * (r.h_begin + r.v_begin);
        bool ok = true;
        std::string why;
        for (size_t j = 0; j < n_ops && ok; ++j) {
            const uint32_t op = cigar[j] & 0xf, len = cigar[j] >> 4;
            if (len == 0) { ok = false; why = "empty op"; break; }
            switch (op) {
            case GALE_CIGAR_EQUAL:
            case GALE_CIGAR_DIFF:
                if (h + len > n || v + len > m) { ok = false; why = "=/X past the end"; break; }
                for (uint32_t l = 0; l < len; ++l) {
                    const bool eq = q.pattern[(size_t)(v + l)] == q.text[(size_t)(h + l)];
                    if (eq != (op == GALE_CIGAR_EQUAL)) { ok = false; why = "= or X on the wrong bases"; }
                }
                if (op == GALE_CIGAR_DIFF) {
                    if (k.no_x) { ok = false; why = "X in an indel CIGAR"; }
                    P += (int64_t)len * k.x;
                }
                h += len;
                v += len;
                break;
            case GALE_CIGAR_INS:
                if (v + len > m) { ok = false; why = "I past the end"; break; }
                P += gap_cost(k, len, edit_like);
                v += len;
                break;
            case GALE_CIGAR_DEL:
                if (h + len > n) { ok = false; why = "D past the end"; break; }
                P += gap_cost(k, len, edit_like);
                h += len;
                break;
            default: ok = false; why = "unknown op";
            }
            // Two gap runs of one kind back to back would be one gap: the kernels never
            // write them (push_op merges), and they would rescore differently.
            if (ok && j > 0 && (cigar[j - 1] & 0xf) == op) { ok = false; why = "equal ops back to back"; }
        }
        EXPECT(ok, "%s: invalid CIGAR: %s", ctx.c_str(), why.c_str());
        if (!ok) continue;
        EXPECT(h == r.h_end && v == r.v_end, "%s: CIGAR ends at (%lld, %lld), result (%lld, %lld)", ctx.c_str(),
               (long long)h, (long long)v, (long long)r.h_end, (long long)r.v_end);
        const int64_t rescored = translate(p, P, m, n);
        EXPECT(rescored == r.score, "%s: CIGAR rescores to %lld, score %lld", ctx.c_str(), (long long)rescored,
               (long long)r.score);
    }
    REQUIRE_OK(gale_batch_destroy(b));
}

std::string mutate(Rng &r, const std::string &s, double rate) {
    tu_mut mm = tu_mut_thirds(rate);
    mm.run = 0.2;
    mm.run_max = 6;
    return tu::mutate(r, s, mm);
}

Pair random_pair(Rng &r, int64_t len, double rate) {
    const std::string anc = tu::bases(r, len);
    Pair q{mutate(r, anc, rate), mutate(r, anc, rate)};
    if (r.chance(0.2)) q.text = tu::bases(r, r.range(0, len / 4 + 1)) + q.text + tu::bases(r, r.range(0, len / 4 + 1));
    if (r.chance(0.15)) q.pattern = tu::bases(r, r.range(0, len / 4 + 1)) + q.pattern;
    if (q.pattern.empty()) q.pattern = "A";
    if (q.text.empty()) q.text = "C";
    return q;
}

const int kKinds[] = {GALE_INDEL, GALE_EDIT, GALE_WFA_LINEAR, GALE_WFA};

Params random_params(Rng &r) {
    Params p;
    p.kind = kKinds[r.range(0, 3)];
    if (p.kind == GALE_WFA_LINEAR || p.kind == GALE_WFA) {
        p.match = r.chance(0.6) ? -r.range(1, 6) : 0;
        p.x = r.range(1, 8);
        p.indel = r.range(1, 6);
        p.o = r.range(0, 10);
        p.e = r.range(1, 5);
        if (p.kind == GALE_WFA && r.chance(0.4)) {  // two pieces; WFA2-lib refuses a zero gap open there
            p.o = std::max<int64_t>(p.o, 1);
            p.e2 = r.range(1, p.e);
            p.o2 = p.o + r.range(1, 20);
        }
    }
    p.scope = r.chance(0.5) ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
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

void edge_cases() {
    const std::vector<Pair> pairs = {
        {"A", "A"}, {"A", "C"}, {"AAAAAAAAAA", "A"}, {"A", "AAAAAAAAAA"}, {"ACGTACGTACGT", "TTTT"},
        {"GATTACA", "GCATGCT"}, {"ACGT", "TGCA"}, {"AC", "CA"}, {"CCCCGATTACA", "GATTACAGGGG"},
    };
    for (int kind : kKinds)
        for (int64_t match : {0, -1, -3})
            for (int scope : {GALE_SCOPE_SCORE, GALE_SCOPE_ALIGNMENT})
                for (int fr = 0; fr < 3; ++fr) {
                    if (match && (kind == GALE_INDEL || kind == GALE_EDIT)) continue;
                    Params p;
                    p.kind = kind;
                    p.match = match;
                    p.x = 3;
                    p.o = 5;
                    p.e = 2;
                    p.indel = 2;
                    p.scope = scope;
                    if (fr == 1) p.pb = p.pe = p.tb = p.te = 4;
                    if (fr == 2) p.tb = p.te = 100;
                    run_batch(p, pairs, "edge");
                }
}

// WFA2-lib 2.3.3's tests/wfa.utest.sh: its metrics and penalties (align_benchmark's
// defaults where it gives none) in its five modes, on generated end-to-end pairs.
// given: pairs to draw from instead of generated ones (--pairs), twice as many a run.
void utest_configurations(Rng &r, const std::vector<Pair> *given = nullptr) {
    struct Config {
        const char *name;
        int kind;
        int64_t match, x, o, e, o2, e2;
    };
    const Config configs[] = {
        {"indel", GALE_INDEL, 0, 0, 0, 0, 0, 0},
        {"edit", GALE_EDIT, 0, 0, 0, 0, 0, 0},
        {"affine", GALE_WFA, 0, 4, 6, 2, 0, 0},
        {"affine2p", GALE_WFA, 0, 4, 6, 2, 24, 1},
        {"affine.p0", GALE_WFA, 0, 1, 2, 1, 0, 0},
        {"affine.p1", GALE_WFA, 0, 3, 1, 4, 0, 0},
        {"affine.p2", GALE_WFA, 0, 5, 3, 2, 0, 0},
        {"affine.p3", GALE_WFA, -5, 1, 2, 1, 0, 0},
        {"affine.p4", GALE_WFA, -2, 3, 1, 4, 0, 0},
        {"affine.p5", GALE_WFA, -3, 5, 3, 2, 0, 0},
    };
    struct Mode {
        const char *name;
        bool alignment;
        wavefront_memory_t memory;
        bool biwfa;
    };
    const Mode modes[] = {
        {"test (--check=correct)", true, wavefront_memory_high, false},
        {"test.score (--wfa-score-only)", false, wavefront_memory_high, false},
        {"test.pb (--wfa-memory-mode=med)", true, wavefront_memory_med, false},
        {"test.biwfa (ultralow)", true, wavefront_memory_ultralow, true},
        {"test.biwfa.score (ultralow, score only)", false, wavefront_memory_ultralow, true},
    };
    const int per_run = (int)tu_scaled(6, 3);
    long n = 0;
    for (const Config &c : configs)
        for (const Mode &md : modes) {
            Params p;
            p.kind = c.kind;
            p.match = c.match;
            p.x = c.x;
            p.o = c.o;
            p.e = c.e;
            p.o2 = c.o2;
            p.e2 = c.e2;
            p.scope = md.alignment ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
            if (md.biwfa && md.alignment) p.memory_limit = 1;
            std::vector<Pair> pairs;
            for (int j = 0; given && j < 2 * per_run; ++j) pairs.push_back((*given)[(size_t)r.range(0, (int64_t)given->size() - 1)]);
            for (int j = 0; j < per_run && !given; ++j) {
                // wfa.utest.seq's shape: a few hundred to a few thousand bases, a few
                // percent apart; every third pair long and noisy enough for BiWFA's
                // recursion under the 1 MiB limit.
                const int64_t len = j % 3 == 2 ? r.range(1500, 2500) : r.range(50, 1000);
                const double rate = j % 3 == 2 ? 0.1 + 0.1 * r.unit() : 0.2 * r.unit();
                pairs.push_back(random_pair(r, len, rate));
            }
            g_wfa2_memory = md.memory;
            g_wfa2_alignment = md.alignment;
            const std::string what = std::string("utest ") + c.name + " " + md.name;
            run_batch(p, pairs, what.c_str());
            n += (long)pairs.size();
        }
    g_wfa2_memory = wavefront_memory_high;
    g_wfa2_alignment = false;
    printf("wfa_metrics_wfa2: wfa.utest.sh configurations: %zu x %zu runs, %ld %s pairs\n",
           sizeof configs / sizeof configs[0], sizeof modes / sizeof modes[0], n, given ? "given" : "generated");
}

}  // namespace

// With --pairs FILE (WFA2-lib's .seq format: tests/oracle/wfa_real_pairs.py's real
// homologous pairs, test wfa_metrics_wfa2_real): the utest configurations and random
// settings on those pairs instead of generated ones.
int main(int argc, char **argv) {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    Rng r(tu_seed("wfa_metrics_wfa2"));
    const char *pairs_file = argc == 3 && std::string(argv[1]) == "--pairs" ? argv[2] : nullptr;
    if (argc != 1 && !pairs_file) {
        fprintf(stderr, "usage: wfa_metrics_wfa2 [--pairs FILE.seq]\n");
        return 2;
    }
    REQUIRE_OK(tu_ctx_new(&g_ctx, GALE_BACKEND_CPU, 2));
    long done = 0, batches = 0;
    if (pairs_file) {
        std::vector<Pair> given;
        for (auto &q : read_seq_pairs(pairs_file)) given.push_back(Pair{q.first, q.second});
        if (given.empty()) {
            fprintf(stderr, "FAIL: no pairs read from %s\n", pairs_file);
            return 1;
        }
        utest_configurations(r, &given);
        const long target = tu_scaled(200, 50);
        while (done < target) {
            Params p = random_params(r);
            std::vector<Pair> pairs;
            int64_t maxlen = 1;
            for (int j = 0; j < 10; ++j) {
                pairs.push_back(given[(size_t)r.range(0, (int64_t)given.size() - 1)]);
                maxlen = std::max<int64_t>(maxlen, (int64_t)pairs.back().pattern.size());
            }
            set_random_free(r, p, maxlen);
            run_batch(p, pairs, "given");
            done += (long)pairs.size();
            ++batches;
        }
        printf("wfa_metrics_wfa2: %ld given pairs in %ld random batches, %ld checks, %d failures\n", done, batches,
               checks, failures);
        gale_ctx_destroy(g_ctx);
        return failures ? 1 : 0;
    }
    edge_cases();
    utest_configurations(r);
    const long target = tu_scaled(1000, 100);
    while (done < target) {
        Params p = random_params(r);
        const bool tiny = batches % 10 == 5;
        if (tiny) {
            p.memory_limit = 1;
            p.scope = GALE_SCOPE_ALIGNMENT;
        }
        std::vector<Pair> pairs;
        int64_t maxlen = 1;
        for (int j = 0; j < 10; ++j) {
            const double u = r.unit();
            int64_t len = u < 0.9 ? r.range(1, 600) : r.range(600, 3000);
            if (tiny && j % 2) len = r.range(2000, 4000);
            const double rate = tiny && j % 2 ? 0.1 + 0.1 * r.unit() : 0.3 * r.unit();
            pairs.push_back(random_pair(r, len, rate));
            maxlen = std::max(maxlen, len);
        }
        set_random_free(r, p, maxlen);
        run_batch(p, pairs, tiny ? "random (1 MiB limit)" : "random");
        done += (long)pairs.size();
        ++batches;
    }
    printf("wfa_metrics_wfa2: %ld random pairs in %ld batches, %ld checks (%ld pairs with a match score and free "
           "ends: CIGAR only), %d failures\n",
           done, batches, checks, g_no_ref, failures);
    gale_ctx_destroy(g_ctx);
    return failures ? 1 : 0;
}
