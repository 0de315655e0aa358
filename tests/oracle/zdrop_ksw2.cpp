// Oracle test: the Z-drop kinds (GALE_ZDROP_EXTZ2, _EXTD2, _EXTS2) through the public
// API, CPU backend, against minimap2 2.24's ksw2 as Debian's libminimap2-dev builds it
// (libminimap2.a: ksw_extz2_sse, ksw_extd2_sse, ksw_exts2_sse, SSE4.1 builds).
//
// Every field of ksw_extz_t is compared (max, zdropped, max_q, max_t, mqe, mqe_t, mte,
// mte_q, score, reach_end, the CIGAR op by op), plus what gale_result derives from them
// and the user value. Parts:
//   1. fixed edge cases: empty and one-base sequences, identical 23-mers (ksw2's padded
//      mte_q), lengths around the 16-cell blocks, bands 0, 1 and narrower than the length
//      difference, Z-drop 0, q + e > q2 + e2 (extd2's swap), N against N scored 0 (-e),
//      8-bit wrap at extreme penalties, exts2 with q2 <= q + e; each with every variant
//      and a set of flag words;
//   2. >= 10,000 fresh random pairs (GALE_TEST_SCALE scales them), seed printed,
//      GALE_TEST_SEED to reproduce: lengths 0-20,000 skewed short, divergence 0-30%,
//      random tails, N and IUPAC letters in either case, bands from 0 to none, Z-drop
//      from 0 to none, end bonus, minimap2's flag words and random ones, the simple
//      matrix with and without sc_ambi and generic 5x5 matrices, spliced pairs (an
//      intron inserted) for exts2, with junction arrays (since 0.7: gale_task.junc; the
//      intron's ends marked as minimap2's mm_idx_bed_junc marks them, on either strand, and
//      random bits elsewhere) and junc_bonus over [-128, 127]; a run fails unless ksw2's
//      results with some arrays differ from its results without (the arrays must matter).
//      The cells of one pair are capped (a band is set when
//      an unbanded pair would exceed the cap) so that the suite and its ASan rerun fit
//      CI: ksw2 itself takes about 1 ns per cell here.
//   3. the same random tasks in batches of up to 40 on contexts of 1 and 2 threads.
// Exit 1 on any difference.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include <ksw2.h>
}

#include "gale.h"
#include "testgen.h"

namespace {

int failures = 0;
long compared = 0;
long seen_zdropped = 0, seen_reach_end = 0, seen_neg_inf = 0, seen_cigar = 0;  // what the cases reached
long seen_junc = 0, seen_junc_effect = 0;  // exts2 tasks with a junction array; those it changed

#define CHECK_OK(call)                                                                                 \
    do {                                                                                               \
        gale_status st_ = (call);                                                                      \
        if (st_ != GALE_OK) {                                                                          \
            std::fprintf(stderr, "FAIL %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,              \
                         gale_status_string(st_), gale_last_error());                                  \
            std::exit(1);                                                                              \
        }                                                                                              \
    } while (0)

// gale's letters as gale/zdrop.h reads them for these kinds: A C G T (U as T) in either case
// 0..3, N and the IUPAC codes 4; ksw2 gets the codes.
uint8_t code(char c) {
    switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': case 'U': case 'u': return 3;
    default: return 4;
    }
}

struct Params {
    int variant = 0;  // 0 extz2, 1 extd2, 2 exts2
    int a = 2, b = 4, amb = 1, q = 4, e = 2, q2 = 24, e2 = 1, w = 500, zdrop = 400, end_bonus = -1, flag = 0;
    int noncan = 9, junc_bonus = 9;
    bool matrix = false;
    int8_t mat[25] = {};
};

const int kKind[3] = {GALE_ZDROP_EXTZ2, GALE_ZDROP_EXTD2, GALE_ZDROP_EXTS2};
const char *kName[3] = {"extz2", "extd2", "exts2"};

// The matrix ksw2 gets: minimap2's ksw_gen_simple_mat, or the generic one.
void ksw_matrix(const Params &p, int8_t *mat) {
    if (p.matrix) {
        std::memcpy(mat, p.mat, 25);
        return;
    }
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) mat[i * 5 + j] = (int8_t)(i == 4 || j == 4 ? -p.amb : i == j ? p.a : -p.b);
}

void set_params(gale_batch *b, const Params &p) {
    CHECK_OK(gale_batch_set(b, GALE_P_MATCH, p.a));
    CHECK_OK(gale_batch_set(b, GALE_P_PENALTY_MISMATCH, p.b));
    CHECK_OK(gale_batch_set(b, GALE_P_PENALTY_N, p.amb));
    CHECK_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN, p.q));
    CHECK_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND, p.e));
    if (p.variant >= 1) CHECK_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_OPEN2, p.q2));
    if (p.variant == 1) CHECK_OK(gale_batch_set(b, GALE_P_PENALTY_GAP_EXTEND2, p.e2));
    if (p.variant <= 1) {
        CHECK_OK(gale_batch_set(b, GALE_P_BAND, p.w));
        CHECK_OK(gale_batch_set(b, GALE_P_END_BONUS, p.end_bonus));
    } else {
        CHECK_OK(gale_batch_set(b, GALE_P_NONCAN, p.noncan));
        CHECK_OK(gale_batch_set(b, GALE_P_JUNC_BONUS, p.junc_bonus));
    }
    CHECK_OK(gale_batch_set(b, GALE_P_ZDROP, p.zdrop));
    CHECK_OK(gale_batch_set(b, GALE_P_ZDROP_FLAGS, p.flag));
    CHECK_OK(gale_batch_set(b, GALE_P_ZDROP_MATRIX, p.matrix));
    for (int t = 0; t < 5; ++t)
        for (int q = 0; q < 5; ++q) CHECK_OK(gale_batch_set(b, GALE_P_ZDROP_MAT(t, q), p.mat[t * 5 + q]));
}

struct Pair {
    Pair() = default;
    Pair(std::string q, std::string t) : query(std::move(q)), target(std::move(t)) {}
    std::string query, target;  // letters: query = gale's v, target = gale's h
    std::vector<uint8_t> junc;  // exts2: target.size() bytes of KSW junction bits, or empty: none
    bool has_junc = false;
};

// ksw2 on one pair; the caller frees ez.cigar. no_junc: exts2 with junc = NULL whatever
// the pair holds.
ksw_extz_t run_ksw2(const Params &p, const Pair &x, bool no_junc = false) {
    std::vector<uint8_t> q(x.query.size()), t(x.target.size());
    for (size_t i = 0; i < q.size(); ++i) q[i] = code(x.query[i]);
    for (size_t i = 0; i < t.size(); ++i) t[i] = code(x.target[i]);
    int8_t mat[25];
    ksw_matrix(p, mat);
    ksw_extz_t ez;
    std::memset(&ez, 0, sizeof ez);
    const int ql = (int)q.size(), tl = (int)t.size();
    if (p.variant == 0)
        ksw_extz2_sse(nullptr, ql, q.data(), tl, t.data(), 5, mat, (int8_t)p.q, (int8_t)p.e, p.w, p.zdrop, p.end_bonus,
                      p.flag, &ez);
    else if (p.variant == 1)
        ksw_extd2_sse(nullptr, ql, q.data(), tl, t.data(), 5, mat, (int8_t)p.q, (int8_t)p.e, (int8_t)p.q2,
                      (int8_t)p.e2, p.w, p.zdrop, p.end_bonus, p.flag, &ez);
    else
        ksw_exts2_sse(nullptr, ql, q.data(), tl, t.data(), 5, mat, (int8_t)p.q, (int8_t)p.e, (int8_t)p.q2,
                      (int8_t)p.noncan, p.zdrop, (int8_t)p.junc_bonus, p.flag,
                      x.has_junc && !no_junc ? x.junc.data() : nullptr, &ez);
    return ez;
}

std::string describe(const Params &p, const Pair &x) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s qlen %zu tlen %zu a %d b %d amb %d q %d e %d q2 %d e2 %d w %d zdrop %d end_bonus %d flag 0x%x "
                  "noncan %d matrix %d junc_bonus %d junc %s",
                  kName[p.variant], x.query.size(), x.target.size(), p.a, p.b, p.amb, p.q, p.e, p.q2, p.e2, p.w,
                  p.zdrop, p.end_bonus, p.flag, p.noncan, (int)p.matrix, p.junc_bonus, x.has_junc ? "given" : "NULL");
    std::string s = buf;
    if (x.query.size() + x.target.size() <= 200) {
        s += "\n  query  " + x.query + "\n  target " + x.target;
        if (x.has_junc) {
            s += "\n  junc   ";
            for (uint8_t j : x.junc) s += "0123456789abcdef"[j & 15];
        }
    }
    return s;
}

// Runs pairs[] in one batch of ctx with p; compares each with ksw2.
void check_batch(gale_ctx *ctx, const Params &p, const std::vector<Pair> &pairs, const char *label) {
    gale_batch *b = nullptr;
    CHECK_OK(gale_batch_create(ctx, kKind[p.variant], &b));
    set_params(b, p);
    for (size_t i = 0; i < pairs.size(); ++i) {
        gale_task t;
        gale_task_init(&t);
        t.h = pairs[i].target.data();
        t.h_len = (int64_t)pairs[i].target.size();
        t.v = pairs[i].query.data();
        t.v_len = (int64_t)pairs[i].query.size();
        t.user = 1000 + i;
        t.junc = pairs[i].has_junc ? pairs[i].junc.data() : nullptr;
        CHECK_OK(gale_batch_add(b, &t));
    }
    CHECK_OK(gale_submit(b));
    CHECK_OK(gale_wait(b));
    for (size_t i = 0; i < pairs.size(); ++i) {
        gale_zdrop_result z;
        std::memset(&z, 0, sizeof z);
        z.size = sizeof z;
        CHECK_OK(gale_result_zdrop(b, i, &z));
        gale_result r;
        std::memset(&r, 0, sizeof r);
        r.size = sizeof r;
        CHECK_OK(gale_result_get(b, i, &r));
        const uint32_t *cig = nullptr;
        size_t n = 0;
        CHECK_OK(gale_result_cigar(b, i, &cig, &n));
        ksw_extz_t ez = run_ksw2(p, pairs[i]);
        std::string diff;
        auto field = [&](const char *name, long long g, long long k) {
            if (g != k) diff += std::string(" ") + name + " gale " + std::to_string(g) + " ksw2 " + std::to_string(k);
        };
        field("max", z.max, (int)ez.max);
        field("zdropped", z.zdropped, (int)ez.zdropped);
        field("max_q", z.max_q, ez.max_q);
        field("max_t", z.max_t, ez.max_t);
        field("mqe", z.mqe, ez.mqe);
        field("mqe_t", z.mqe_t, ez.mqe_t);
        field("mte", z.mte, ez.mte);
        field("mte_q", z.mte_q, ez.mte_q);
        field("score", z.score, ez.score);
        field("reach_end", z.reach_end, ez.reach_end);
        field("n_cigar", (long long)n, ez.n_cigar);
        if ((int)n == ez.n_cigar && n && std::memcmp(cig, ez.cigar, n * 4) != 0) diff += " cigar ops differ";
        field("user", (long long)z.user, 1000 + (long long)i);
        field("result.score", r.score, ez.score);
        field("result.score_left", r.score_left, (int)ez.max);
        field("result.h_end", r.h_end, ez.max_t + 1);
        field("result.v_end", r.v_end, ez.max_q + 1);
        field("result.cells", (long long)r.cells, (long long)z.cells);
        field("flags", z.flags, 0);
        ++compared;
        seen_zdropped += ez.zdropped, seen_reach_end += ez.reach_end, seen_neg_inf += ez.score == KSW_NEG_INF;
        seen_cigar += ez.n_cigar > 0;
        if (pairs[i].has_junc) {  // did the array change ksw2's result?
            ++seen_junc;
            ksw_extz_t ez0 = run_ksw2(p, pairs[i], true);
            const bool same = ez0.max == ez.max && ez0.max_q == ez.max_q && ez0.max_t == ez.max_t &&
                              ez0.mqe == ez.mqe && ez0.mte == ez.mte && ez0.score == ez.score &&
                              ez0.zdropped == ez.zdropped && ez0.n_cigar == ez.n_cigar &&
                              (ez.n_cigar == 0 || std::memcmp(ez0.cigar, ez.cigar, (size_t)ez.n_cigar * 4) == 0);
            seen_junc_effect += !same;
            std::free(ez0.cigar);
        }
        if (!diff.empty() && ++failures <= 20)
            std::fprintf(stderr, "FAIL %s, task %zu:%s\n  %s\n", label, i, diff.c_str(), describe(p, pairs[i]).c_str());
        std::free(ez.cigar);
    }
    gale_batch_destroy(b);
}

// ---- random cases ---------------------------------------------------------------------

const char kLetters[] = "ACGT";
const char kOdd[] = "NNNNacgtnRYKMSWBDHVU";

std::string random_seq(tu::Rng &r, int64_t n, double odd) {
    std::string s((size_t)n, 'A');
    for (auto &c : s) c = r.chance(odd) ? kOdd[r.below(sizeof kOdd - 1)] : kLetters[r.below(4)];
    return s;
}

// A copy of s with substitutions, insertions and deletions at rate div (a third each).
std::string mutate(tu::Rng &r, const std::string &s, double div) {
    std::string o;
    o.reserve(s.size() + s.size() / 8 + 8);
    for (char c : s) {
        const double u = r.unit();
        if (u < div / 3) continue;                                  // deletion
        if (u < 2 * div / 3) o += kLetters[r.below(4)];             // insertion before
        if (u >= 2 * div / 3 && u < div) { o += kLetters[r.below(4)]; continue; }  // substitution
        o += c;
    }
    return o;
}

int64_t random_len(tu::Rng &r) {
    const double u = r.unit();
    if (u < 0.05) return r.range(0, 2);
    if (u < 0.15) return r.range(3, 40);
    if (u < 0.75) return r.logrange(40, 1500);
    if (u < 0.97) return r.logrange(1500, 8000);
    return r.range(8000, 20000);
}

Params random_params(tu::Rng &r, int variant) {
    Params p;
    p.variant = variant;
    const bool extreme = r.chance(0.06);  // penalties whose 8-bit differences wrap in ksw2
    if (variant == 2) p.a = 1, p.b = 2, p.q = 2, p.e = 1, p.q2 = 32;
    p.a = extreme ? (int)r.range(-5, 127) : (int)r.range(1, 4);
    p.b = extreme ? (int)r.range(-5, 128) : (int)r.range(1, 8);
    p.amb = r.chance(0.2) ? 0 : extreme ? (int)r.range(-10, 128) : (int)r.range(1, 3);
    p.q = extreme ? (int)r.range(0, 127) : (int)r.range(0, 8);
    p.e = extreme ? (int)r.range(0, 127) : (int)r.range(1, 4);
    p.q2 = extreme ? (int)r.range(0, 127) : (int)r.range(8, 40);
    p.e2 = extreme ? (int)r.range(0, 127) : (int)r.range(0, 3);
    if (variant == 2) {
        if (p.e == 0) p.e = 1;
        if (!extreme) p.q2 = std::max(0, std::min(127, p.q + p.e + (int)r.range(-2, 40)));  // sometimes q2 <= q + e: empty
        p.noncan = (int)r.range(0, r.chance(0.1) ? 127 : 15);
        const double j = r.unit();  // minimap2's 9 and splice:hq's 5, any small bonus, or any int8_t
        p.junc_bonus = j < 0.3 ? 9 : j < 0.4 ? 5 : j < 0.85 ? (int)r.range(0, 30) : (int)r.range(-128, 127);
    }
    if (r.chance(0.05) && variant == 1) std::swap(p.q, p.q2), std::swap(p.e, p.e2);  // q + e > q2 + e2
    const double u = r.unit();
    p.w = u < 0.25 ? -1 : u < 0.4 ? (int)r.range(0, 20) : u < 0.8 ? (int)r.logrange(20, 1000) : (int)r.range(1000, 20000);
    const double z = r.unit();
    p.zdrop = z < 0.25 ? -1 : z < 0.4 ? (int)r.range(0, 30) : (int)r.logrange(30, 2000);
    p.end_bonus = r.chance(0.5) ? -1 : (int)r.range(0, 200);
    // minimap2's calls (align.c), then anything
    static const int kMm2[] = {0, 0x40, 0x40 | 0x02 | 0x80, 0x40 | 0x02, 0x08, 0x08 | 0x10, 0x01, 0x01 | 0x40, 0x01 | 0x08};
    int flag = r.chance(0.7) ? kMm2[r.below(sizeof kMm2 / sizeof kMm2[0])] : (int)(r.below(256) & 0xdf);
    if (variant == 2) {
        flag |= (int)r.below(8) << 8;
        if (r.chance(0.5)) flag |= 0x100 | 0x200 | 0x400 | 0x40 | 0x02 | 0x80;  // minimap2's left splice extension
    }
    if (r.chance(0.2)) flag |= 0x04;
    p.flag = flag;
    if ((flag & 0x04) || r.chance(0.1)) {
        p.matrix = r.chance(0.8);
        for (int i = 0; i < 25; ++i) {
            const int t = i / 5, q = i % 5;
            p.mat[i] = (int8_t)(t == 4 || q == 4 ? -r.range(0, 3) : t == q ? r.range(1, 4) : -r.range(1, 6));
            if (extreme && r.chance(0.3)) p.mat[i] = (int8_t)r.range(-128, 127);
        }
    }
    return p;
}

// minimap2's marks of an intron [st, en) (mm_idx_bed_junc): its first base 1 and last 2 on
// the forward strand, 8 and 4 on the reverse.
void mark_intron(std::vector<uint8_t> &junc, size_t st, size_t en, bool reverse) {
    if (st >= en || en > junc.size()) return;
    junc[st] |= reverse ? 8 : 1;
    junc[en - 1] |= reverse ? 4 : 2;
}

Pair random_pair(tu::Rng &r, const Params &p) {
    Pair x;
    const double odd = r.chance(0.3) ? r.unit() * 0.03 : 0.0;
    const int64_t n = random_len(r);
    x.query = random_seq(r, n, odd);
    const double u = r.unit();
    if (u < 0.05) x.target = random_seq(r, random_len(r), odd);  // unrelated
    else x.target = mutate(r, x.query, r.unit() * 0.30);
    size_t intron_at = 0, intron_len = 0;
    if (p.variant == 2 && x.target.size() > 20 && r.chance(0.6)) {  // an intron, canonical or not
        const size_t at = (size_t)r.below(x.target.size());
        std::string intron = random_seq(r, r.range(20, 1500), 0);
        if (r.chance(0.7)) intron = (r.chance(0.5) ? "GT" : "CT") + intron + (r.chance(0.5) ? "AG" : "AC");
        x.target.insert(at, intron);
        intron_at = at, intron_len = intron.size();
    }
    // random tails on either side (the extension stops in them, or not)
    if (r.chance(0.4)) x.target += random_seq(r, r.logrange(1, 2000), 0);
    if (r.chance(0.3)) x.query += random_seq(r, r.logrange(1, 500), 0);
    const bool swapped = r.chance(0.05);
    if (swapped) std::swap(x.query, x.target);
    if (p.variant == 2 && r.chance(0.7)) {  // a junction array: the intron's ends, other marks, noise
        x.has_junc = true;
        x.junc.assign(x.target.size(), 0);
        const double u = r.unit();
        if (!swapped && intron_len) mark_intron(x.junc, intron_at, intron_at + intron_len, r.chance(0.4));
        if (u < 0.3) {  // annotated introns elsewhere
            for (int k = (int)r.range(1, 5); k-- > 0 && x.target.size() > 2;) {
                const size_t st = (size_t)r.below(x.target.size() - 1);
                mark_intron(x.junc, st, std::min(x.target.size(), st + (size_t)r.range(2, 400)), r.chance(0.5));
            }
        } else if (u < 0.5) {  // any bits, anywhere
            const double dense = r.chance(0.5) ? 0.5 : 0.02;
            for (auto &j : x.junc)
                if (r.chance(dense)) j = (uint8_t)r.range(0, 15);
        }
        // minimap2's left extension: target and array reversed (REV_CIGAR)
        if (p.flag & 0x80) std::reverse(x.junc.begin(), x.junc.end());
    }
    return x;
}

// Caps a pair's cells (lengths product, or length sum times band) by setting a band.
const double kCellCap = 8e6;

void cap_cells(Params &p, const Pair &x) {
    const double m = (double)x.query.size(), n = (double)x.target.size();
    if (p.variant == 2) return;  // exts2 has no band: its pairs are kept short instead
    const double band = p.w < 0 ? std::min(m, n) : std::min<double>(std::min(m, n), p.w + 1.0);
    if ((m + n) * band > kCellCap) p.w = (int)std::max(0.0, kCellCap / (m + n) - 1);
}

// ---- fixed cases ------------------------------------------------------------------------

void fixed_cases(gale_ctx *ctx) {
    std::vector<Pair> pairs = {
        {"", ""}, {"A", ""}, {"", "A"}, {"A", "A"}, {"A", "C"}, {"N", "N"}, {"ACGT", "ACGT"},
        {"ACGTACGTACGTACGTACGTACG", "ACGTACGTACGTACGTACGTACG"},  // identical 23-mers: ksw2's padded mte_q
        {std::string(16, 'A'), std::string(16, 'A')}, {std::string(17, 'C'), std::string(15, 'C')},
        {std::string(31, 'G'), std::string(33, 'G')}, {std::string(48, 'T'), std::string(47, 'T')},
        {"ACGTTGCAACGTTGCA", "ACGTTGCAACGTTGCAGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG"},
        {"ACGTTGCAACGTTGCAACGTAAAAAAAAAAAAAAAAAAA", "ACGTTGCAACGTTGCAACGT"},
        {"NNNNNNNNNN", "ACGTACGTAC"}, {"ACGTNNACGT", "ACGTNNACGT"},
        {"GATTACAGATTACAGATTACA", "GATTACATTTTTTTTTTTTGATTACAGATTACA"},
        {"CCCCCCCCCCAGGTAAGTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTCAGGGGGGGGGGG",
         "CCCCCCCCCCAGGGGGGGGGGG"},
    };
    for (auto &x : std::vector<Pair>(pairs)) pairs.push_back({x.target, x.query});
    const int flags[] = {0, 0x40, 0x40 | 0x02 | 0x80, 0x08, 0x08 | 0x10, 0x01, 0x02, 0x04, 0x80, 0x40 | 0x08 | 0x10};
    const int bands[] = {-1, 0, 1, 2, 5, 16};
    const int zdrops[] = {-1, 0, 3, 400};
    for (int v = 0; v < 3; ++v)
        for (int f : flags)
            for (int w : bands)
                for (int z : zdrops) {
                    if (v == 2 && (w != -1)) continue;
                    Params p;
                    p.variant = v;
                    p.flag = f | (v == 2 ? 0x700 : 0);
                    p.w = w;
                    p.zdrop = z;
                    p.end_bonus = z == 3 ? 50 : -1;
                    p.amb = z == 0 ? 0 : 1;  // N against N scored 0: ksw2 uses -e
                    if (v == 2) p.a = 1, p.b = 2, p.q = 2, p.e = 1, p.q2 = 32;
                    check_batch(ctx, p, pairs, "fixed");
                    // extreme penalties: 8-bit differences wrap
                    p.q = 100, p.e = 27, p.q2 = 120, p.e2 = 7, p.a = 90, p.b = 110;
                    check_batch(ctx, p, pairs, "fixed, extreme penalties");
                    // extd2 with q + e > q2 + e2 (swapped by ksw2); exts2 with q2 <= q + e (empty)
                    p.q = 30, p.e = 3, p.q2 = 4, p.e2 = 2, p.a = 2, p.b = 4;
                    check_batch(ctx, p, pairs, "fixed, q + e > q2 + e2");
                }
    // exts2's junction arrays (since 0.7): all zeros, all four bits everywhere, and every
    // byte value in turn, under both strands, either, REV_CIGAR, and bonuses to the ends
    // of int8_t (ksw2 adds them in 8 bits)
    for (int pattern = 0; pattern < 3; ++pattern) {
        std::vector<Pair> jp = pairs;
        for (Pair &x : jp) {
            x.has_junc = true;
            x.junc.assign(x.target.size(), 0);
            for (size_t i = 0; i < x.junc.size(); ++i) x.junc[i] = (uint8_t)(pattern == 0 ? 0 : pattern == 1 ? 15 : i % 16);
        }
        const int sflags[] = {0x100, 0x200, 0x300, 0x700, 0x700 | 0x40 | 0x02 | 0x80, 0x100 | 0x80, 0x200 | 0x01};
        const int bonuses[] = {0, 9, 127, -128, -9};
        for (int f : sflags)
            for (int bonus : bonuses) {
                Params p;
                p.variant = 2;
                p.a = 1, p.b = 2, p.q = 2, p.e = 1, p.q2 = 32;
                p.flag = f;
                p.zdrop = 200;
                p.junc_bonus = bonus;
                check_batch(ctx, p, jp, "fixed, junction array");
            }
    }
}

}  // namespace

int main() {
    const uint64_t seed = tu_seed("zdrop_ksw2");
    gale_ctx *ctx1 = nullptr, *ctx2 = nullptr;
    {
        gale_ctx_opts o;
        gale_ctx_opts_init(&o);
        o.backend = GALE_BACKEND_CPU;
        o.threads = 1;
        CHECK_OK(gale_ctx_create(&ctx1, &o));
        o.threads = 2;
        CHECK_OK(gale_ctx_create(&ctx2, &o));
    }
    fixed_cases(ctx1);
    std::printf("fixed cases: %ld tasks compared, %d failures\n", compared, failures);

    const long n_cases = tu_scaled(10000, 200);
    tu::Rng r(seed);
    long done = 0, batches = 0;
    double cells = 0;
    long by_variant[3] = {}, with_cigar = 0;
    seen_zdropped = seen_reach_end = seen_neg_inf = seen_cigar = seen_junc = seen_junc_effect = 0;
    while (done < n_cases) {
        const int variant = (int)r.below(3);
        Params p = random_params(r, variant);
        const size_t n = std::min<long>((long)r.range(1, 40), n_cases - done);
        std::vector<Pair> pairs;
        for (size_t i = 0; i < n; ++i) {
            Pair x = random_pair(r, p);
            if (variant == 2 && (double)x.query.size() * (double)x.target.size() > kCellCap) {
                x.query.resize(std::min<size_t>(x.query.size(), 2000));
                x.target.resize(std::min<size_t>(x.target.size(), 2000));
            }
            pairs.push_back(std::move(x));
        }
        for (const Pair &x : pairs) cap_cells(p, x);  // one band for the batch: the narrowest needed
        for (const Pair &x : pairs) {
            const double m = (double)x.query.size(), k = (double)x.target.size();
            cells += variant == 2 || p.w < 0 ? m * k : (m + k) * std::min<double>(std::min(m, k), p.w + 1.0);
        }
        check_batch(batches % 2 ? ctx2 : ctx1, p, pairs, "random");
        by_variant[variant] += (long)n;
        with_cigar += (p.flag & 1) ? 0 : (long)n;
        done += (long)n;
        ++batches;
    }
    std::printf("random: %ld pairs in %ld batches (extz2 %ld, extd2 %ld, exts2 %ld; %ld with CIGAR), about %.3g cells\n",
                done, batches, by_variant[0], by_variant[1], by_variant[2], with_cigar, cells);
    std::printf("random: ksw2 gave zdropped %ld, reach_end %ld, score KSW_NEG_INF %ld, a non-empty CIGAR %ld times\n",
                seen_zdropped, seen_reach_end, seen_neg_inf, seen_cigar);
    std::printf("random: %ld exts2 tasks with a junction array, %ld of them changed by it in ksw2\n", seen_junc,
                seen_junc_effect);
    if (seen_junc_effect == 0) {  // the arrays never mattered: the test would not see them ignored
        std::fprintf(stderr, "FAIL: no junction array changed a ksw2 result (%ld tasks with one)\n", seen_junc);
        ++failures;
    }
    gale_ctx_destroy(ctx1);
    gale_ctx_destroy(ctx2);
    if (failures) {
        std::printf("zdrop_ksw2: %d of %ld tasks differ from ksw2 (seed %" PRIu64 ")\n", failures, compared, seed);
        return 1;
    }
    std::printf("zdrop_ksw2: all %ld tasks equal ksw2 in every field (seed %" PRIu64 ")\n", compared, seed);
    return 0;
}
