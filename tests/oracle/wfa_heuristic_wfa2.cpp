// Oracle test: WFA2-lib 2.3.3's heuristics (GALE_P_WFA_HEURISTIC, since 0.7) against
// Debian's libwfa2 (2.3.3), CPU backend, public API only.
//
// Fresh random pairs (seed printed, GALE_TEST_SEED reproduces, GALE_TEST_SCALE scales the
// count; default 1,500 pairs in batches of 10 sharing random settings): every strategy
// (wf-adaptive, wfmash, x-drop, z-drop, banded-static, banded-adaptive, and combinations
// of one of each group as WFA2-lib's flags combine) with random parameters, on
// gap-affine, two-piece, gap-linear (match 0 or negative), edit and indel (no drops
// there: WFA2-lib refuses them), both scopes, end-to-end and (match 0) ends-free.
// Pairs: lengths 20..600, divergence 0..30%, one in four with a long insertion or
// random flanks, so that the cut-offs bite. WFA2-lib runs with the same heuristic in
// memory mode med. Checked: unfeasible (WF_STATUS_UNFEASIBLE) exactly when gale flags
// GALE_RF_UNFEASIBLE; otherwise the score equals cigar->score and, with scope
// ALIGNMENT, the CIGAR is an alignment of the reported region (= and X on the right
// bases, begin and end within the free lengths) that rescores to the score or above it
// (a pruned path may take two gaps of one kind back to back, which a CIGAR shows as one
// gap, in WFA2-lib's as in gale's). The CIGAR
// is not required to equal WFA2-lib's: the two backtraces break ties between paths of
// one penalty differently (gale/wfa.h), with or without heuristics; how many differ is
// printed. Edit and indel run with heuristics
// that cannot lose every path (WFA2-lib 2.3.3 does not stop then); long edit pairs far
// apart check WFA2-lib's exact prune of wavefronts of 1,000 diagonals (edit_prune_cases).
// Exit 1 on any failure.
#include "wfa2_attr.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gale.h"
#include "testgale.h"
#include "testgen.h"

namespace {

int failures = 0;
long checks = 0, unfeasible_seen = 0, cigars_compared = 0, cigars_differ = 0, no_ref = 0, rescored_better = 0, wfa2_rescored_better = 0, e2e_rescored_better = 0;

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
    int kind = GALE_WFA;
    int64_t match = 0, x = 4, o = 6, e = 2, o2 = 0, e2 = 0, indel = 2;
    int scope = GALE_SCOPE_ALIGNMENT;
    int64_t pb = 0, pe = 0, tb = 0, te = 0;
    int strategy = 0;
    int64_t min_len = 10, max_dist = 50, steps = 1, xdrop = 100, zdrop = 100, min_k = -100, max_k = 100;
    bool two() const { return kind == GALE_WFA && e2 > 0; }
    bool ends_free() const { return pb || pe || tb || te; }
    std::string str() const {
        char b[400];
        snprintf(b, sizeof b,
                 "%s match=%lld x=%lld o=%lld e=%lld o2=%lld e2=%lld indel=%lld scope=%d free=(%lld %lld %lld %lld) "
                 "heuristic=0x%x (len %lld dist %lld steps %lld xdrop %lld zdrop %lld band [%lld, %lld])",
                 gale_kind_name(kind), (long long)match, (long long)x, (long long)o, (long long)e, (long long)o2,
                 (long long)e2, (long long)indel, scope, (long long)pb, (long long)pe, (long long)tb, (long long)te,
                 strategy, (long long)min_len, (long long)max_dist, (long long)steps, (long long)xdrop,
                 (long long)zdrop, (long long)min_k, (long long)max_k);
        return b;
    }
};

struct Pair {
    std::string pattern, text;
};

struct Ref {
    bool unfeasible;
    int64_t score;
    std::string ops;  // WFA2-lib's operations (M X I D), alignment scope only
    int status;
};

// One WFA2-lib aligner per batch (its settings), reused for every pair: an aligner
// allocates megabytes, which meson's MALLOC_PERTURB_ would fill for each pair.
wavefront_aligner_t *wfa2_new(const Params &p) {
    wavefront_aligner_attr_t a = wavefront_aligner_attr_default;
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
            a.affine2p_penalties = affine2p_penalties_t{(int)p.match, (int)p.x, (int)p.o, (int)p.e, (int)p.o2, (int)p.e2};
        } else {
            a.distance_metric = gap_affine;
            a.affine_penalties = affine_penalties_t{(int)p.match, (int)p.x, (int)p.o, (int)p.e};
        }
    }
    a.heuristic.strategy = (wf_heuristic_strategy)p.strategy;
    a.heuristic.min_wavefront_length = (int)p.min_len;
    a.heuristic.max_distance_threshold = (int)p.max_dist;
    a.heuristic.steps_between_cutoffs = (int)p.steps;
    a.heuristic.xdrop = (int)p.xdrop;
    a.heuristic.zdrop = (int)p.zdrop;
    a.heuristic.min_k = (int)p.min_k;
    a.heuristic.max_k = (int)p.max_k;
    a.alignment_scope = p.scope == GALE_SCOPE_ALIGNMENT ? compute_alignment : compute_score;
    // med: modular wavefronts; high sizes them from the unpruned worst case, which a
    // pruned alignment can pass (WFA2-lib then exits: "Maximum allocated wavefronts").
    a.memory_mode = wavefront_memory_med;
    a.alignment_form.span = alignment_end2end;
    return wavefront_aligner_new(&a);
}

Ref wfa2(wavefront_aligner_t *wf, const Params &p, const Pair &q) {
    const int m = (int)q.pattern.size(), n = (int)q.text.size();
    if (p.ends_free())  // clamped per pair, as gale clamps them (WFA2-lib exits otherwise)
        wavefront_aligner_set_alignment_free_ends(wf, (int)std::min<int64_t>(p.pb, m), (int)std::min<int64_t>(p.pe, m),
                                                  (int)std::min<int64_t>(p.tb, n), (int)std::min<int64_t>(p.te, n));
    const int status = wavefront_align(wf, q.pattern.data(), m, q.text.data(), n);
    Ref r{status == WF_STATUS_UNFEASIBLE, wf->cigar->score, {}, status};
    if (!r.unfeasible && p.scope == GALE_SCOPE_ALIGNMENT)
        r.ops.assign(wf->cigar->operations + wf->cigar->begin_offset,
                     (size_t)(wf->cigar->end_offset - wf->cigar->begin_offset));
    return r;
}

// gale's CIGAR in WFA2-lib's letters: = M, X X, SAM's I (pattern only) is WFA2-lib's D,
// SAM's D (text only) its I.
std::string as_wfa2_ops(const uint32_t *cigar, size_t n_ops) {
    std::string s;
    for (size_t j = 0; j < n_ops; ++j) {
        const uint32_t op = cigar[j] & 0xf, len = cigar[j] >> 4;
        const char c = op == GALE_CIGAR_EQUAL ? 'M' : op == GALE_CIGAR_DIFF ? 'X' : op == GALE_CIGAR_INS ? 'D'
                     : op == GALE_CIGAR_DEL ? 'I' : '?';
        s.append(len, c);
    }
    return s;
}

// The kernel's penalties (lib/wfa.h): Eizenga's transformation with a match score.
struct Pen {
    int64_t a, x, o, e, o2, e2;
    bool two, no_x, edit_like;
};
Pen pen_of(const Params &p) {
    Pen k{-p.match, p.x, p.o, p.e, p.o2, p.e2, p.two(), false, false};
    if (p.kind == GALE_EDIT) k = Pen{0, 1, 0, 1, 0, 0, false, false, true};
    if (p.kind == GALE_INDEL) k = Pen{0, 2, 0, 1, 0, 0, false, true, true};
    if (p.kind == GALE_WFA_LINEAR) k = Pen{-p.match, p.x, 0, p.indel, 0, 0, false, false, false};
    if (k.a > 0) {
        k.x = 2 * k.x + 2 * k.a;
        k.o = 2 * k.o;
        k.e = 2 * k.e + k.a;
        k.o2 = 2 * k.o2;
        k.e2 = 2 * k.e2 + k.a;
    }
    return k;
}
int64_t gap_cost(const Pen &k, int64_t len) {
    if (k.edit_like) return len;
    int64_t c = k.o + len * k.e;
    if (k.two) c = std::min(c, k.o2 + len * k.e2);
    return c;
}

// gale's CIGAR is an alignment of its reported region (= on equal bases, X on different
// ones, none for indel; begin and end within the free lengths) whose penalty, translated
// as WFA2-lib translates it, is the score. Returns why not, or "".
std::string check_cigar(const Params &p, const Pair &q, const gale_result &r, const uint32_t *cigar, size_t n_ops) {
    const int64_t m = (int64_t)q.pattern.size(), n = (int64_t)q.text.size();
    const int64_t pb = std::min(p.pb, m), pe = std::min(p.pe, m), tb = std::min(p.tb, n), te = std::min(p.te, n);
    if (!((r.h_begin == 0 && r.v_begin >= 0 && r.v_begin <= pb) || (r.v_begin == 0 && r.h_begin >= 0 && r.h_begin <= tb)))
        return "begin not allowed";
    if (!((r.h_end == n && m - r.v_end <= pe) || (r.v_end == m && r.h_end <= n && n - r.h_end <= te)))
        return "end not allowed";
    const Pen k = pen_of(p);
    int64_t h = r.h_begin, v = r.v_begin, P = k.a * (r.h_begin + r.v_begin);
    for (size_t j = 0; j < n_ops; ++j) {
        const uint32_t op = cigar[j] & 0xf, len = cigar[j] >> 4;
        if (len == 0) return "empty op";
        if (j > 0 && (cigar[j - 1] & 0xf) == op) return "equal ops back to back";
        switch (op) {
        case GALE_CIGAR_EQUAL:
        case GALE_CIGAR_DIFF:
            if (h + len > n || v + len > m) return "=/X past the end";
            for (uint32_t l = 0; l < len; ++l)
                if ((q.pattern[(size_t)(v + l)] == q.text[(size_t)(h + l)]) != (op == GALE_CIGAR_EQUAL))
                    return "= or X on the wrong bases";
            if (op == GALE_CIGAR_DIFF) {
                if (k.no_x) return "X in an indel CIGAR";
                P += (int64_t)len * k.x;
            }
            h += len;
            v += len;
            break;
        case GALE_CIGAR_INS:
            if (v + len > m) return "I past the end";
            P += gap_cost(k, len);
            v += len;
            break;
        case GALE_CIGAR_DEL:
            if (h + len > n) return "D past the end";
            P += gap_cost(k, len);
            h += len;
            break;
        default: return "unknown op";
        }
    }
    if (h != r.h_end || v != r.v_end) return "does not reach the end";
    const int64_t score = k.edit_like ? P : p.match == 0 ? -P : (-p.match * (m + n) - P) / 2;
    // A heuristic path may hold two gaps of one kind back to back (through M), which
    // a CIGAR cannot tell from one gap (WFA2-lib's cannot either): the CIGAR then
    // rescores better than the path's penalty, never worse.
    if (score < r.score) return "rescores to " + std::to_string(score) + ", below the score";
    if (score > r.score) ++rescored_better;
    return "";
}

gale_ctx *g_ctx = nullptr;

void run_batch(const Params &p, const std::vector<Pair> &pairs) {
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
    REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_HEURISTIC, p.strategy));
    REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_MIN_WAVEFRONT_LENGTH, p.min_len));
    REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_MAX_DISTANCE_THRESHOLD, p.max_dist));
    REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_STEPS_BETWEEN_CUTOFFS, p.steps));
    REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_XDROP, p.xdrop));
    REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_ZDROP, p.zdrop));
    REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_BAND_MIN_K, p.min_k));
    REQUIRE_OK(gale_batch_set(b, GALE_P_WFA_BAND_MAX_K, p.max_k));
    for (size_t i = 0; i < pairs.size(); ++i) {
        gale_task t;
        tu_task_seqs(&t, pairs[i].text.data(), (int64_t)pairs[i].text.size(), pairs[i].pattern.data(),
                     (int64_t)pairs[i].pattern.size());
        t.user = i;
        REQUIRE_OK(gale_batch_add(b, &t));
    }
    REQUIRE_OK(gale_submit(b));
    REQUIRE_OK(gale_wait(b));
    wavefront_aligner_t *wf = wfa2_new(p);
    for (size_t i = 0; i < pairs.size(); ++i) {
        const Pair &q = pairs[i];
        gale_result r;
        const uint32_t *cigar = nullptr;
        size_t n_ops = 0;
        REQUIRE_OK(tu_result_fetch_cigar(b, i, &r, &cigar, &n_ops));
        const std::string ctx = "#" + std::to_string(i) + " (m " + std::to_string(q.pattern.size()) + ", n " +
                                std::to_string(q.text.size()) + ") " + p.str();
        const Ref ref = wfa2(wf, p, q);
        const bool unf = (r.flags & GALE_RF_UNFEASIBLE) != 0;
        if (ref.status != WF_STATUS_SUCCESSFUL && ref.status != WF_STATUS_UNFEASIBLE) {
            ++no_ref;
            fprintf(stderr, "note: %s: WFA2-lib status %d\n", ctx.c_str(), ref.status);
            continue;
        }
        unfeasible_seen += ref.unfeasible;
        EXPECT(unf == ref.unfeasible, "%s: gale %s, WFA2-lib %s", ctx.c_str(), unf ? "unfeasible" : "aligned",
               ref.unfeasible ? "unfeasible" : "aligned");
        if (unf || ref.unfeasible) continue;
        EXPECT(r.score == ref.score, "%s: score %lld, WFA2-lib %lld", ctx.c_str(), (long long)r.score,
               (long long)ref.score);
        if (r.score != ref.score && getenv("GALE_TEST_DUMP"))
            fprintf(stderr, "pattern %s\ntext %s\n", q.pattern.c_str(), q.text.c_str());
        if (p.scope == GALE_SCOPE_ALIGNMENT) {
            const std::string ops = as_wfa2_ops(cigar, n_ops);
            ++cigars_compared;
            if (ops != ref.ops) ++cigars_differ;
            const long better = rescored_better;
            const std::string why = check_cigar(p, q, r, cigar, n_ops);
            EXPECT(why.empty(), "%s: invalid CIGAR: %s", ctx.c_str(), why.c_str());
            if (rescored_better > better && !p.ends_free()) {
                ++e2e_rescored_better;
                // Does WFA2-lib's own CIGAR rescore above its score too? (It shows the same
                // path's gaps, merged as gale's are.)
                std::vector<uint32_t> w;
                for (char c : ref.ops) {
                    const uint32_t op = c == 'M' ? GALE_CIGAR_EQUAL : c == 'X' ? GALE_CIGAR_DIFF
                                      : c == 'I' ? GALE_CIGAR_DEL : GALE_CIGAR_INS;
                    if (!w.empty() && (w.back() & 0xf) == op) w.back() += 16;
                    else w.push_back(16 | op);
                }
                const long before = rescored_better;
                check_cigar(p, q, r, w.data(), w.size());
                wfa2_rescored_better += rescored_better > before;
                rescored_better = before;
            }
        }
    }
    wavefront_aligner_delete(wf);
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
    if (r.chance(0.15)) {  // a long insertion in the text: the cut-offs lose the way
        const size_t at = (size_t)r.range(0, (int64_t)q.text.size());
        q.text.insert(at, tu::bases(r, r.range(len / 8 + 1, len / 2 + 2)));
    }
    if (r.chance(0.1)) q.text = tu::bases(r, r.range(0, len / 4 + 1)) + q.text + tu::bases(r, r.range(0, len / 4 + 1));
    if (q.pattern.empty()) q.pattern = "A";
    if (q.text.empty()) q.text = "C";
    return q;
}

const int kKinds[] = {GALE_INDEL, GALE_EDIT, GALE_WFA_LINEAR, GALE_WFA, GALE_WFA};

Params random_params(Rng &r) {
    Params p;
    p.kind = kKinds[r.range(0, 4)];
    if (p.kind == GALE_WFA_LINEAR || p.kind == GALE_WFA) {
        p.match = r.chance(0.4) ? -r.range(1, 6) : 0;
        p.x = r.range(1, 8);
        p.indel = r.range(1, 6);
        p.o = r.range(0, 10);
        p.e = r.range(1, 5);
        if (p.kind == GALE_WFA && r.chance(0.4)) {
            p.o = std::max<int64_t>(p.o, 1);
            p.e2 = r.range(1, p.e);
            p.o2 = p.o + r.range(1, 20);
        }
    }
    p.scope = r.chance(0.6) ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
    const bool distance = p.kind == GALE_EDIT || p.kind == GALE_INDEL;
    // One strategy of each group, or none of a group; at least one.
    do {
        p.strategy = 0;
        const int64_t a = r.range(0, 2), d = distance ? 0 : r.range(0, 2), bnd = r.range(0, 2);
        if (a == 1) p.strategy |= GALE_WFA_H_WFADAPTIVE;
        if (a == 2) p.strategy |= GALE_WFA_H_WFMASH;
        if (d == 1) p.strategy |= GALE_WFA_H_XDROP;
        if (d == 2) p.strategy |= GALE_WFA_H_ZDROP;
        if (bnd == 1) p.strategy |= GALE_WFA_H_BANDED_STATIC;
        if (bnd == 2) p.strategy |= GALE_WFA_H_BANDED_ADAPTIVE;
        if (r.chance(0.5)) p.strategy &= (GALE_WFA_H_WFADAPTIVE | GALE_WFA_H_WFMASH | GALE_WFA_H_XDROP | GALE_WFA_H_ZDROP)
                                         ? ~(GALE_WFA_H_BANDED_STATIC | GALE_WFA_H_BANDED_ADAPTIVE) : ~0;
    } while (p.strategy == 0);
    p.min_len = r.range(0, 40);
    p.max_dist = r.range(0, 120);
    p.steps = r.range(1, 6);
    p.xdrop = r.range(0, 200);
    p.zdrop = r.range(0, 200);
    p.min_k = -r.range(0, 60);
    p.max_k = r.range(0, 60);
    if (p.kind == GALE_EDIT || p.kind == GALE_INDEL) {
        // WFA2-lib 2.3.3 does not stop when an edit alignment loses every path: only
        // heuristics that keep the path to the end there.
        p.strategy &= ~GALE_WFA_H_BANDED_ADAPTIVE;
        if (!p.strategy) p.strategy = GALE_WFA_H_WFADAPTIVE;
        p.min_k = -(1 << 20);
        p.max_k = 1 << 20;
    }
    return p;
}

void set_random_free(Rng &r, Params &p, int64_t len) {
    if (p.match != 0 || p.kind == GALE_EDIT || !r.chance(0.3)) return;
    p.pb = r.range(0, len / 3);
    p.pe = r.range(0, len / 3);
    p.tb = r.range(0, len / 3);
    p.te = r.range(0, len / 3);
}

// Edit end-to-end wavefronts of 1,000 diagonals and more, where WFA2-lib prunes exactly
// (wavefront_compute_edit_exact_prune, before the cut-offs see the wavefront): long pairs of
// very different lengths (a long insertion, or one a fragment of the other) under
// wf-adaptive or wfmash that cut only wide wavefronts.
long edit_prune_cases(Rng &r) {
    long n = 0;
    for (int b = 0; b < (int)tu_scaled(60, 6); ++b) {
        Params p;
        p.kind = GALE_EDIT;
        p.scope = r.chance(0.5) ? GALE_SCOPE_ALIGNMENT : GALE_SCOPE_SCORE;
        p.strategy = r.chance(0.7) ? GALE_WFA_H_WFADAPTIVE : GALE_WFA_H_WFMASH;
        p.min_len = r.range(1000, 2200);  // the prune often decides whether the front is that wide
        p.max_dist = r.range(5, 100);
        p.steps = r.range(1, 4);
        p.min_k = -(1 << 20);
        p.max_k = 1 << 20;
        std::vector<Pair> pairs;
        for (int i = 0; i < 5; ++i) {
            // far apart (a wide front near the end, where the prune bites), of alike or
            // different lengths
            const int64_t len = r.range(1500, 3000);
            const std::string anc = tu::bases(r, len);
            Pair q{mutate(r, anc, 0.25 + 0.25 * r.unit()), mutate(r, anc, 0.25 + 0.25 * r.unit())};
            if (r.chance(0.3)) q.text.insert((size_t)r.range(0, (int64_t)q.text.size()), tu::bases(r, r.range(len / 4, len)));
            else if (r.chance(0.2)) q.text = tu::bases(r, r.range(len / 2, 2 * len));
            if (r.chance(0.5)) std::swap(q.pattern, q.text);
            pairs.push_back(q);
        }
        run_batch(p, pairs);
        n += (long)pairs.size();
    }
    printf("wfa_heuristic_wfa2: %ld edit end-to-end pairs with wavefronts of 1,000 diagonals and more\n", n);
    return n;
}

// WFA2-lib's own test script's heuristic runs (tests/wfa.utest.sh at v2.3.3:
// `-a gap-affine-wfa --wfa-heuristic=wfa-adaptive --wfa-heuristic-parameters=10,50,1`
// and `...=10,50,10`, default penalties 4, 6, 2), with the alignment and score only.
long utest_adaptive(const std::vector<Pair> &pairs, const char *what) {
    long n = 0;
    for (const int64_t steps : {1, 10})
        for (const int scope : {GALE_SCOPE_ALIGNMENT, GALE_SCOPE_SCORE}) {
            Params p;  // GALE_WFA 4, 6, 2, match 0, end-to-end
            p.strategy = GALE_WFA_H_WFADAPTIVE;
            p.min_len = 10;
            p.max_dist = 50;
            p.steps = steps;
            p.scope = scope;
            for (size_t i = 0; i < pairs.size(); i += 10) {
                std::vector<Pair> b(pairs.begin() + (ptrdiff_t)i, pairs.begin() + (ptrdiff_t)std::min(pairs.size(), i + 10));
                run_batch(p, b);
                n += (long)b.size();
            }
        }
    printf("wfa_heuristic_wfa2: wfa.utest.sh's wfa-adaptive runs (10,50,1 and 10,50,10, both scopes) on %s: %ld "
           "alignments\n",
           what, n);
    return n;
}

}  // namespace

// With --pairs FILE (WFA2-lib's .seq format: tests/oracle/wfa_real_pairs.py's real
// homologous pairs, test wfa_heuristic_wfa2_real), the utest runs and random heuristics
// on those pairs instead of generated ones.
int main(int argc, char **argv) {
    Rng r(tu_seed("wfa_heuristic_wfa2"));
    REQUIRE_OK(tu_ctx_new(&g_ctx, GALE_BACKEND_CPU, 2));
    const char *pairs_file = argc == 3 && std::string(argv[1]) == "--pairs" ? argv[2] : nullptr;
    if (argc != 1 && !pairs_file) {
        fprintf(stderr, "usage: wfa_heuristic_wfa2 [--pairs FILE.seq]\n");
        return 2;
    }
    std::vector<Pair> given;
    if (pairs_file) {
        for (auto &q : read_seq_pairs(pairs_file)) given.push_back(Pair{q.first, q.second});
        if (given.empty()) {
            fprintf(stderr, "FAIL: no pairs read from %s\n", pairs_file);
            return 1;
        }
    }
    long done = 0;
    if (pairs_file) {
        utest_adaptive(given, pairs_file);
        // every strategy and combination with random parameters, 10 of the given pairs a batch
        const long target = tu_scaled(400, 60);
        while (done < target) {
            Params p = random_params(r);
            p.pb = p.pe = p.tb = p.te = 0;
            std::vector<Pair> pairs;
            for (int i = 0; i < 10; ++i) pairs.push_back(given[(size_t)r.range(0, (int64_t)given.size() - 1)]);
            set_random_free(r, p, (int64_t)std::min(pairs[0].pattern.size(), pairs[0].text.size()));
            run_batch(p, pairs);
            done += (long)pairs.size();
        }
    } else {
        // wfa.utest.seq's shape: a few hundred to a few thousand bases, a few percent apart
        std::vector<Pair> utest;
        for (int j = 0; j < (int)tu_scaled(30, 10); ++j)
            utest.push_back(random_pair(r, j % 3 == 2 ? r.range(1500, 2500) : r.range(50, 1000), 0.1 * r.unit()));
        utest_adaptive(utest, "generated pairs");
        edit_prune_cases(r);
        const long target = tu_scaled(1500, 100);
        while (done < target) {
            Params p = random_params(r);
            const int64_t len = r.range(20, 600);
            set_random_free(r, p, len);
            std::vector<Pair> pairs;
            for (int i = 0; i < 10; ++i) pairs.push_back(random_pair(r, r.range(len / 2 + 1, len), r.unit() * 0.3));
            run_batch(p, pairs);
            done += (long)pairs.size();
        }
    }
    gale_ctx_destroy(g_ctx);
    printf("wfa_heuristic_wfa2: %ld %s pairs, %ld checks, %ld CIGARs (%ld differ from WFA2-lib's in ties, %ld rescore "
           "above the score: back-to-back gaps; WFA2-lib's too in %ld of the %ld end-to-end), %ld unfeasible, %ld "
           "without a reference, %d failures\n",
           done, pairs_file ? "given" : "random", checks, cigars_compared, cigars_differ, rescored_better,
           wfa2_rescored_better, e2e_rescored_better, unfeasible_seen, no_ref, failures);
    return failures ? 1 : 0;
}
