// Oracle test: gale's CPU backend (public API only) against SeqAn 2.4's gapped X-drop.
//
// Reference and its justification: tests/oracle/seqan_xdrop_ref.hpp. In short: per
// direction, seqan::_extendSeedGappedXDropOneDirection called exactly as
// seqan::extendSeed [GappedXDrop] calls it, on Dna5Strings built from the bytes gale gets;
// SeqAn<int> where its arithmetic is sound, SeqAn<Wide64> (min() = -2^62) elsewhere;
// GALE_N_MISMATCH through a SeqAn Dna5 score matrix whose N-N entry is the mismatch;
// GALE_N_BYTES on SeqAn's char alphabet (CharString, Simple score: bytes compared exactly),
// a quarter of the random cases, mostly with lower case and ambiguity codes.
//
// Parts:
//   1. alphabet: SeqAn's Dna5 table equals gale's documented policy on every byte of
//      "ACGTNacgtnRYSWKMBDHVUryswkmbdhvu"; gale scores every pair of them as SeqAn does;
//      every other byte is rejected by gale_batch_add (GALE_E_INPUT).
//   2. fixed edge cases, each over a grid of schemes, X, directions and N policies;
//      cases where SeqAn returns its "undefined" end score; the same edge cases with
//      extreme schemes at gale's bounds (|score| 2^20, X 2^29; GALE_E_LIMIT allowed only
//      where the best score could overflow 32 bits); a demo of SeqAn<int>'s wrap.
//   3. >= 10,000 fresh random cases (GALE_TEST_SCALE scales the count; the default
//      run does 10,000), seed printed, GALE_TEST_SEED to reproduce, GALE_TEST_CASE=i
//      to rerun one case verbosely.
//   4. batches of several thousand tasks on contexts with 1 and 2 worker threads:
//      identical results (cells included), and equal to SeqAn.
// Every field is compared: score_left, score_right, score (= left + right + k), h_begin,
// h_end, v_begin, v_end (plus user and flags). Exit 1 on any failure.
#include "seqan_xdrop_ref.hpp"

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gale.h"
#include "testgale.h"

using namespace galeref;

namespace {

// ---------------------------------------------------------------------------------
// Random numbers: tests/common/testgen.h, one stream per case (so GALE_TEST_CASE can
// rerun one).
// ---------------------------------------------------------------------------------
using tu::Rng;

const char kAlphabet[] = "ACGTNacgtnRYSWKMBDHVUryswkmbdhvu";  // every byte gale accepts
const char kAmbig[] = "NRYSWKMBDHVUnryswkmbdhvu";
const char kACGT[] = "ACGT";
const long long kMaxLen = 10000;

// ---------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------
struct Params {
    int match = 1, mismatch = -1, gap = -1;
    long long X = 100;
    int dir = GALE_DIR_BOTH, npol = GALE_N_DNA5;
};

struct Case {
    std::string h, v;
    long long hb = 0, he = 0, vb = 0, ve = 0;
    Params p;
    std::string label;  // what made it (for the reproducer)
};

const char *dir_name(int d) { return d == GALE_DIR_LEFT ? "LEFT" : d == GALE_DIR_RIGHT ? "RIGHT" : "BOTH"; }
const char *npol_name(int n) { return n == GALE_N_DNA5 ? "N_DNA5" : n == GALE_N_MISMATCH ? "N_MISMATCH" : "N_BYTES"; }
const int kPolicies = 3;  // GALE_N_DNA5, GALE_N_MISMATCH, GALE_N_BYTES

std::string random_bases(Rng &r, long long n) { return tu::bases(r, n); }

// Substitutions, insertions and deletions, each at rate/3 per base.
std::string mutate(Rng &r, const std::string &s, double rate) { return tu::mutate(r, s, tu_mut_thirds(rate)); }

char flip_case(char c) {
    if (c >= 'A' && c <= 'Z') return (char)(c - 'A' + 'a');
    if (c >= 'a' && c <= 'z') return (char)(c - 'a' + 'A');
    return c;
}

// Lowercase, IUPAC codes, U, runs of N: applied to v before h is derived from it (so h
// inherits them at aligned positions), and sometimes to h on its own.
void decorate(Rng &r, std::string &s, int mode) {
    if (s.empty()) return;
    if (mode == 1) {  // lowercase
        double q = r.unit();
        for (auto &c : s)
            if (r.chance(q)) c = flip_case(c);
    } else if (mode == 2) {  // ambiguity codes and runs of N
        double q = r.unit() * 0.05;
        for (auto &c : s)
            if (r.chance(q)) c = kAmbig[r.below(sizeof kAmbig - 1)];
        int runs = (int)r.range(1, 3);
        for (int i = 0; i < runs; ++i) {
            long long len = r.range(1, std::min<long long>(50, (long long)s.size()));
            long long at = r.range(0, (long long)s.size() - len);
            char n = r.chance(0.8) ? 'N' : 'n';
            for (long long j = 0; j < len; ++j) s[(size_t)(at + j)] = n;
        }
    } else if (mode == 3) {  // anything gale accepts
        double q = r.unit() * 0.5;
        for (auto &c : s)
            if (r.chance(q)) c = kAlphabet[r.below(sizeof kAlphabet - 1)];
    }
}

Params random_params(Rng &r) {
    Params p;
    double u = r.unit();
    if (u < 0.10) {
        p.match = 1, p.mismatch = -1, p.gap = -1;  // BELLA / LOGAN
    } else if (u < 0.16) {
        p.match = 1, p.mismatch = -3, p.gap = -1;  // mismatch < gap: SeqAn<int> wraps
    } else if (u < 0.23) {
        // Non-standard schemes gale accepts.
        p.gap = -(int)r.range(1, 8);
        switch (r.below(4)) {
        case 0: p.match = 0, p.mismatch = -(int)r.range(1, 8); break;
        case 1: p.match = (int)r.range(1, 5), p.mismatch = (int)r.range(0, 3); break;  // mismatch >= 0
        case 2: p.match = -(int)r.range(1, 3), p.mismatch = -(int)r.range(1, 8); break;
        default: p.match = (int)r.range(1, 5), p.mismatch = p.match; break;            // mismatch == match
        }
    } else {
        p.match = (int)r.range(1, 5);
        p.mismatch = -(int)r.range(1, 8);
        p.gap = -(int)r.range(1, 8);
    }
    u = r.unit();
    if (u < 0.04) p.X = 0;
    else if (u < 0.30) p.X = r.range(1, 10);
    else if (u < 0.62) p.X = r.range(11, 100);
    else if (u < 0.87) p.X = r.range(101, 1000);
    else p.X = r.range(1001, 5000);
    u = r.unit();
    p.dir = u < 0.6 ? GALE_DIR_BOTH : u < 0.8 ? GALE_DIR_LEFT : GALE_DIR_RIGHT;
    u = r.unit();
    p.npol = u < 0.30 ? GALE_N_MISMATCH : u < 0.55 ? GALE_N_BYTES : GALE_N_DNA5;
    return p;
}

// A related pair around a planted seed k-mer (sometimes unrelated flanks, truncated
// flanks, seeds at the ends, k = 0), lengths 1..10,000 on each side, edit rate 0..30%.
Case random_case(Rng &r) {
    Case c;
    c.p = random_params(r);
    // Log-uniform lengths (every scale equally), plus a share of uniform ones (long pairs).
    long long L = r.chance(0.75) ? r.loguniform(1, kMaxLen) : r.range(1, kMaxLen);
    double uk = r.unit();
    long long k = uk < 0.03 ? 0 : uk < 0.55 ? 17 : r.range(1, 40);
    if (k > L) k = L;
    double up = r.unit();
    long long pos = up < 0.08 ? 0 : up < 0.16 ? L - k : r.range(0, L - k);
    std::string v = random_bases(r, L);
    // GALE_N_BYTES: mostly lower case and ambiguity codes, what it reads differently.
    double um = c.p.npol == GALE_N_BYTES ? 0.55 + 0.45 * r.unit() : r.unit();
    int mode = um < 0.70 ? 0 : um < 0.80 ? 1 : um < 0.90 ? 2 : 3;
    decorate(r, v, mode);
    std::string vl = v.substr(0, (size_t)pos), kmer = v.substr((size_t)pos, (size_t)k),
                vr = v.substr((size_t)(pos + k));
    double rate = r.unit() * 0.30;
    auto flank = [&](const std::string &src, const char **what) {
        double u = r.unit();
        if (u < 0.80) { *what = "related"; return mutate(r, src, rate); }
        if (u < 0.95) {
            *what = "unrelated";
            long long n = src.empty() ? r.range(0, 20) : r.loguniform(1, std::max<long long>(1, 2 * (long long)src.size()));
            return random_bases(r, n);
        }
        *what = "empty";
        return std::string();
    };
    const char *wl, *wr;
    std::string hl = flank(vl, &wl), hr = flank(vr, &wr);
    if (r.chance(0.12)) hl = hl.substr(hl.size() - (size_t)r.below(hl.size() + 1));  // truncate far ends
    if (r.chance(0.12)) hr = hr.substr(0, (size_t)r.below(hr.size() + 1));
    if (r.chance(0.06)) vl = vl.substr(vl.size() - (size_t)r.below(vl.size() + 1));
    if (r.chance(0.06)) vr = vr.substr(0, (size_t)r.below(vr.size() + 1));
    // Keep h within 10,000 (insertions may have made it longer): trim the far ends.
    while ((long long)(hl.size() + kmer.size() + hr.size()) > kMaxLen) {
        long long over = (long long)(hl.size() + kmer.size() + hr.size()) - kMaxLen;
        if (hl.size() >= hr.size()) hl = hl.substr((size_t)std::min<long long>(over, (long long)hl.size()));
        else hr = hr.substr(0, hr.size() - (size_t)std::min<long long>(over, (long long)hr.size()));
    }
    std::string hk = kmer;
    if (r.chance(0.1))
        for (auto &ch : hk) ch = flip_case(ch);
    c.h = hl + hk + hr;
    if (mode != 0 && r.chance(0.3)) decorate(r, c.h, mode);
    c.v = vl + kmer + vr;
    c.hb = (long long)hl.size(), c.he = c.hb + k;
    c.vb = (long long)vl.size(), c.ve = c.vb + k;
    char buf[160];
    snprintf(buf, sizeof buf, "random: rate %.3f, left %s, right %s, letters mode %d", rate, wl, wr, mode);
    c.label = buf;
    return c;
}

// ---------------------------------------------------------------------------------
// gale
// ---------------------------------------------------------------------------------
int g_failures = 0;

void fail_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fail_msg(const char *fmt, ...) {
    ++g_failures;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

gale_ctx *make_ctx(int threads) {
    gale_ctx *ctx = nullptr;
    gale_status s = tu_ctx_new(&ctx, GALE_BACKEND_CPU, threads);
    if (s != GALE_OK) {
        printf("FATAL: gale_ctx_create(CPU, %d threads): %s (%s)\n", threads, gale_status_string(s), gale_last_error());
        exit(1);
    }
    int backend = -1, nt = -1;
    if (gale_ctx_backend(ctx, &backend) != GALE_OK || backend != GALE_BACKEND_CPU) {
        printf("FATAL: context backend is %d, expected CPU\n", backend);
        exit(1);
    }
    if (threads > 0 && (gale_ctx_threads(ctx, &nt) != GALE_OK || nt != threads)) {
        printf("FATAL: context has %d threads, asked for %d\n", nt, threads);
        exit(1);
    }
    return ctx;
}

gale_task to_task(const Case &c, uint64_t user) {
    gale_task t;
    tu_task_seqs(&t, c.h.data(), (int64_t)c.h.size(), c.v.data(), (int64_t)c.v.size());
    t.h_begin = c.hb, t.h_end = c.he, t.v_begin = c.vb, t.v_end = c.ve;
    t.user = user;
    return t;
}

// Creates a batch with p, adds the tasks and submits it. Returns nullptr (and reports)
// on any error.
gale_batch *gale_start(gale_ctx *ctx, const Params &p, const std::vector<const Case *> &cs, const char *what) {
    gale_batch *b = nullptr;
    gale_status s = gale_batch_create(ctx, GALE_XDROP, &b);
    if (s != GALE_OK) {
        fail_msg("%s: gale_batch_create: %s (%s)", what, gale_status_string(s), gale_last_error());
        return nullptr;
    }
    const int ids[] = {GALE_P_MATCH, GALE_P_MISMATCH, GALE_P_GAP, GALE_P_XDROP, GALE_P_DIRECTION, GALE_P_N_POLICY};
    const int64_t vals[] = {p.match, p.mismatch, p.gap, p.X, p.dir, p.npol};
    for (int i = 0; i < 6; ++i) {
        s = gale_batch_set(b, ids[i], vals[i]);
        if (s != GALE_OK) {
            fail_msg("%s: gale_batch_set(%d, %" PRId64 "): %s (%s)", what, ids[i], vals[i], gale_status_string(s),
                     gale_last_error());
            gale_batch_destroy(b);
            return nullptr;
        }
    }
    for (size_t i = 0; i < cs.size(); ++i) {
        gale_task t = to_task(*cs[i], 1000000 + i);
        s = gale_batch_add(b, &t);
        if (s != GALE_OK) {
            fail_msg("%s: gale_batch_add(task %zu): %s (%s)", what, i, gale_status_string(s), gale_last_error());
            gale_batch_destroy(b);
            return nullptr;
        }
    }
    s = gale_submit(b);
    if (s != GALE_OK) {
        fail_msg("%s: gale_submit: %s (%s)", what, gale_status_string(s), gale_last_error());
        gale_batch_destroy(b);
        return nullptr;
    }
    return b;
}

// Waits, reads every result (checking user and flags) and destroys the batch.
bool gale_finish(gale_batch *b, size_t n, std::vector<gale_result> &out, const char *what) {
    bool ok = true;
    gale_status s = gale_wait(b);
    if (s != GALE_OK) {
        fail_msg("%s: gale_wait: %s (%s)", what, gale_status_string(s), gale_last_error());
        gale_batch_destroy(b);
        return false;
    }
    out.assign(n, gale_result());
    uint64_t cells = 0;
    for (size_t i = 0; i < n; ++i) {
        out[i].size = sizeof(gale_result);
        s = gale_result_get(b, i, &out[i]);
        if (s != GALE_OK) {
            fail_msg("%s: gale_result_get(%zu): %s (%s)", what, i, gale_status_string(s), gale_last_error());
            ok = false;
            break;
        }
        if (out[i].user != 1000000 + i) {
            fail_msg("%s: result %zu has user %" PRIu64 ", expected %zu (submission order)", what, i, out[i].user,
                     (size_t)(1000000 + i));
            ok = false;
        }
        if (out[i].flags != 0) {
            fail_msg("%s: result %zu has flags %u on the CPU backend", what, i, out[i].flags);
            ok = false;
        }
        cells += out[i].cells;
    }
    gale_stats st;
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    s = gale_batch_stats(b, &st);
    if (s != GALE_OK) {
        fail_msg("%s: gale_batch_stats: %s (%s)", what, gale_status_string(s), gale_last_error());
        ok = false;
    } else if (ok && (st.tasks != n || st.cells != cells || st.kernel_ns != 0 || st.rescued != 0)) {
        fail_msg("%s: stats tasks %" PRIu64 " cells %" PRIu64 " kernel_ns %" PRIu64 " rescued %" PRIu64
                 ", expected %zu tasks, %" PRIu64 " cells (sum of results), 0, 0",
                 what, st.tasks, st.cells, st.kernel_ns, st.rescued, n, cells);
        ok = false;
    }
    gale_batch_destroy(b);
    return ok;
}

// ---------------------------------------------------------------------------------
// Reference
// ---------------------------------------------------------------------------------
struct RefStats {
    long long int_runs = 0, wide_runs = 0, wide_checks = 0, matrix_checks = 0, public_checks = 0, undef_sides = 0;
    long long bytes_runs = 0, bytes_differ = 0;  // GALE_N_BYTES cases; those where Dna5 gives another result
};
RefStats g_ref;
uint64_t g_sample = 0;  // counter that picks the cases for the reference cross-checks

// Runs SeqAn with score type T on c (Simple score, or the Dna5 matrix for N_MISMATCH /
// when force_matrix is set; n_n is the matrix's N-N entry).
template <typename T, typename TStr>
RefResult ref_with(const Case &c, const TStr &H, const TStr &V, bool matrix, int n_n) {
    if (matrix) {
        MatrixScore<T> sc = matrix_score<T>(c.p.match, c.p.mismatch, c.p.gap, n_n);
        return extend(H, V, c.hb, c.he, c.vb, c.ve, c.p.dir, sc, T(c.p.X));
    }
    SimpleScore<T> sc = simple_score<T>(c.p.match, c.p.mismatch, c.p.gap);
    return extend(H, V, c.hb, c.he, c.vb, c.ve, c.p.dir, sc, T(c.p.X));
}

template <typename T, typename TStr>
void public_with(const Case &c, const TStr &H, const TStr &V, bool matrix, long long out[4]) {
    if (matrix) {
        MatrixScore<T> sc = matrix_score<T>(c.p.match, c.p.mismatch, c.p.gap, c.p.mismatch);
        public_extend_seed(H, V, c.hb, c.he, c.vb, c.ve, c.p.dir, sc, T(c.p.X), out);
    } else {
        SimpleScore<T> sc = simple_score<T>(c.p.match, c.p.mismatch, c.p.gap);
        public_extend_seed(H, V, c.hb, c.he, c.vb, c.ve, c.p.dir, sc, T(c.p.X), out);
    }
}

std::string show_ref(const RefResult &r, long long k) {
    char buf[256];
    snprintf(buf, sizeof buf, "left %lld%s right %lld%s score %lld h [%lld,%lld) v [%lld,%lld)", r.score_left,
             r.left_undef ? " (undefined)" : "", r.score_right, r.right_undef ? " (undefined)" : "",
             r.score_left + r.score_right + k, r.h_begin, r.h_end, r.v_begin, r.v_end);
    return buf;
}

void print_case(const Case &c) {
    printf("  scheme match %d mismatch %d gap %d, X %lld, direction %s, %s\n", c.p.match, c.p.mismatch, c.p.gap,
           c.p.X, dir_name(c.p.dir), npol_name(c.p.npol));
    printf("  h_len %zu v_len %zu seed h [%lld,%lld) v [%lld,%lld) k %lld (%s)\n", c.h.size(), c.v.size(), c.hb, c.he,
           c.vb, c.ve, c.he - c.hb, c.label.c_str());
    if (c.h.size() <= 400 && c.v.size() <= 400) {
        printf("  h = \"%s\"\n  v = \"%s\"\n", c.h.c_str(), c.v.c_str());
    } else {
        printf("  (sequences too long to print; rerun with GALE_TEST_CASE to dump them to files)\n");
    }
}

// The reference for c. Picks SeqAn<int> or SeqAn<Wide64> and, on a sample of cases,
// checks the reference against itself: Wide64 vs int (where int is sound), matrix with
// N-N = match vs Simple (N_DNA5), per-direction calls vs public extendSeed (positions).
// GALE_N_BYTES runs on SeqAn's char alphabet (CharString), the others on Dna5String.
template <typename TStr>
RefResult reference_on(const Case &c, const TStr &H, const TStr &V, const char *what) {
    const bool matrix = c.p.npol == GALE_N_MISMATCH;
    const bool sound = int_sound(c.p.match, c.p.mismatch, c.p.gap, c.p.X, (long long)c.h.size(), (long long)c.v.size());
    const long long k = c.he - c.hb;
    const uint64_t pick = g_sample++;
    RefResult r;
    if (sound) {
        ++g_ref.int_runs;
        r = ref_with<int>(c, H, V, matrix, c.p.mismatch);
        if (pick % 6 == 0) {
            ++g_ref.wide_checks;
            RefResult w = ref_with<Wide64>(c, H, V, matrix, c.p.mismatch);
            if (!same(r, w) || r.left_undef != w.left_undef || r.right_undef != w.right_undef) {
                fail_msg("%s: SeqAn<int> and SeqAn<Wide64> disagree on a sound case (the 64-bit reference is wrong)",
                         what);
                print_case(c);
                printf("  SeqAn<int>:    %s\n  SeqAn<Wide64>: %s\n", show_ref(r, k).c_str(), show_ref(w, k).c_str());
            }
        }
    } else {
        ++g_ref.wide_runs;
        r = ref_with<Wide64>(c, H, V, matrix, c.p.mismatch);
    }
    if (c.p.npol == GALE_N_DNA5 && pick % 8 == 3) {
        ++g_ref.matrix_checks;
        RefResult m = sound ? ref_with<int>(c, H, V, true, c.p.match) : ref_with<Wide64>(c, H, V, true, c.p.match);
        if (!same(r, m)) {
            fail_msg("%s: SeqAn Simple score and the Dna5 matrix (N-N = match) disagree", what);
            print_case(c);
            printf("  Simple: %s\n  Matrix: %s\n", show_ref(r, k).c_str(), show_ref(m, k).c_str());
        }
    }
    if (pick % 8 == 5) {
        ++g_ref.public_checks;
        long long pos[4];
        if (sound) public_with<int>(c, H, V, matrix, pos);
        else public_with<Wide64>(c, H, V, matrix, pos);
        if (pos[0] != r.h_begin || pos[1] != r.h_end || pos[2] != r.v_begin || pos[3] != r.v_end) {
            fail_msg("%s: seqan::extendSeed moved the seed to h [%lld,%lld) v [%lld,%lld), the per-direction calls "
                     "to h [%lld,%lld) v [%lld,%lld)",
                     what, pos[0], pos[1], pos[2], pos[3], r.h_begin, r.h_end, r.v_begin, r.v_end);
            print_case(c);
        }
    }
    g_ref.undef_sides += r.left_undef + r.right_undef;
    return r;
}

RefResult reference(const Case &c, const char *what) {
    if (c.p.npol == GALE_N_BYTES) {
        seqan::CharString H = c.h.c_str(), V = c.v.c_str();
        RefResult r = reference_on(c, H, V, what);
        // How often the policy matters: the same case read as Dna5 (SeqAn<Wide64>).
        seqan::Dna5String H5 = c.h.c_str(), V5 = c.v.c_str();
        ++g_ref.bytes_runs;
        g_ref.bytes_differ += !same(r, ref_with<Wide64>(c, H5, V5, false, 0));
        return r;
    }
    seqan::Dna5String H = c.h.c_str(), V = c.v.c_str();
    return reference_on(c, H, V, what);
}

// Compares gale's result with the reference, field by field.
int g_reported = 0;
bool g_verbose = false;  // GALE_TEST_CASE: print gale's result too
bool compare(const Case &c, const RefResult &e, const gale_result &g, const char *what) {
    const long long k = c.he - c.hb;
    const long long score = e.score_left + e.score_right + k;
    if (g_verbose)
        printf("  gale:  left %d right %d score %" PRId64 " h [%" PRId64 ",%" PRId64 ") v [%" PRId64 ",%" PRId64 ")\n",
               g.score_left, g.score_right, g.score, g.h_begin, g.h_end, g.v_begin, g.v_end);
    if (g.score_left == e.score_left && g.score_right == e.score_right && g.score == score &&
        g.h_begin == e.h_begin && g.h_end == e.h_end && g.v_begin == e.v_begin && g.v_end == e.v_end)
        return true;
    ++g_failures;
    if (++g_reported <= 10) {
        printf("MISMATCH %s\n", what);
        print_case(c);
        printf("  expected (SeqAn): %s\n", show_ref(e, k).c_str());
        printf("  got (gale):       left %d right %d score %" PRId64 " h [%" PRId64 ",%" PRId64 ") v [%" PRId64
               ",%" PRId64 ")\n",
               g.score_left, g.score_right, g.score, g.h_begin, g.h_end, g.v_begin, g.v_end);
        fflush(stdout);
    } else if (g_reported <= 100) {
        printf("MISMATCH %s (details omitted)\n", what);
    }
    return false;
}

uint64_t g_cells = 0;  // DP cells gale computed in the one-case runs

// One case: gale runs on the pool while SeqAn runs on this thread.
void run_case(gale_ctx *ctx, const Case &c, const char *what) {
    std::vector<const Case *> one{&c};
    gale_batch *b = gale_start(ctx, c.p, one, what);
    RefResult e = reference(c, what);
    if (!b) {
        print_case(c);
        return;
    }
    std::vector<gale_result> res;
    if (!gale_finish(b, 1, res, what)) {
        print_case(c);
        return;
    }
    g_cells += res[0].cells;
    compare(c, e, res[0], what);
}

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---------------------------------------------------------------------------------
// 1. Alphabet
// ---------------------------------------------------------------------------------
int documented_code(char c) {  // gale.h: case folded, U = T, IUPAC codes and N = N
    switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': case 'U': case 'u': return 3;
    default: return 4;
    }
}

void test_alphabet(gale_ctx *ctx) {
    const int n = (int)sizeof kAlphabet - 1;
    // SeqAn's Dna5 conversion equals gale's documented policy on every accepted byte.
    for (int i = 0; i < n; ++i) {
        int code = (int)seqan::ordValue(seqan::Dna5(kAlphabet[i]));
        if (code != documented_code(kAlphabet[i]))
            fail_msg("alphabet: SeqAn reads '%c' as Dna5 code %d, gale documents %d", kAlphabet[i], code,
                     documented_code(kAlphabet[i]));
    }
    // gale scores every pair of accepted bytes as SeqAn and as documented: h = a, v = b,
    // empty seed at (0, 0), right extension over one cell, +1/-1/-1, X = 10.
    std::vector<Case> cases;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            Case c;
            c.h = std::string(1, kAlphabet[i]);
            c.v = std::string(1, kAlphabet[j]);
            c.p.X = 10;
            c.p.dir = GALE_DIR_RIGHT;
            c.label = "alphabet pair";
            cases.push_back(c);
        }
    for (int pol = 0; pol < kPolicies; ++pol) {
        Params p;
        p.X = 10, p.dir = GALE_DIR_RIGHT, p.npol = pol;
        std::vector<const Case *> ptrs;
        for (auto &c : cases) {
            c.p = p;
            ptrs.push_back(&c);
        }
        char what[64];
        snprintf(what, sizeof what, "alphabet pairs (%s)", npol_name(pol));
        gale_batch *b = gale_start(ctx, p, ptrs, what);
        std::vector<gale_result> res;
        if (!b || !gale_finish(b, ptrs.size(), res, what)) continue;
        for (size_t t = 0; t < cases.size(); ++t) {
            const Case &c = cases[t];
            int a = documented_code(c.h[0]), bb = documented_code(c.v[0]);
            int expect = pol == GALE_N_BYTES ? (c.h[0] == c.v[0] ? 1 : -1)
                                             : (a == bb && (a != 4 || pol == GALE_N_DNA5)) ? 1 : -1;
            if (res[t].score_right != expect)
                fail_msg("alphabet (%s): h '%c' v '%c' scored %d, documented policy gives %d", npol_name(pol), c.h[0],
                         c.v[0], res[t].score_right, expect);
            char w[96];
            snprintf(w, sizeof w, "alphabet (%s) h '%c' v '%c'", npol_name(pol), c.h[0], c.v[0]);
            compare(c, reference(c, w), res[t], w);
        }
    }
    // Every other byte is rejected with GALE_E_INPUT (SeqAn would read it as N).
    gale_batch *b = nullptr;
    if (gale_batch_create(ctx, GALE_XDROP, &b) != GALE_OK) {
        fail_msg("alphabet: gale_batch_create failed");
        return;
    }
    int rejected = 0;
    for (int x = 0; x < 256; ++x) {
        if (x != 0 && strchr(kAlphabet, x)) continue;
        char h[4] = {'A', (char)x, 'C', 0}, v[3] = {'A', 'C', 0};
        gale_task t;
        gale_task_init(&t);
        t.h = h, t.h_len = 3, t.v = v, t.v_len = 2;
        gale_status s = gale_batch_add(b, &t);
        if (s != GALE_E_INPUT) fail_msg("alphabet: byte 0x%02x in h gave status %d, expected GALE_E_INPUT", x, s);
        else ++rejected;
        t.h = v, t.h_len = 2, t.v = h, t.v_len = 3;
        s = gale_batch_add(b, &t);
        if (s != GALE_E_INPUT) fail_msg("alphabet: byte 0x%02x in v gave status %d, expected GALE_E_INPUT", x, s);
    }
    size_t count = 99;
    gale_batch_count(b, &count);
    if (count != 0) fail_msg("alphabet: %zu rejected tasks were added anyway", count);
    gale_batch_destroy(b);
    printf("alphabet: %d accepted bytes checked against SeqAn's Dna5 table, %d x %d pairs x 3 policies, %d bytes "
           "rejected\n",
           n, n, n, rejected);
}

// ---------------------------------------------------------------------------------
// 2. Fixed edge cases
// ---------------------------------------------------------------------------------

Case make(const std::string &h, const std::string &v, long long hb, long long vb, long long k, const char *label) {
    Case c;
    c.h = h, c.v = v, c.hb = hb, c.he = hb + k, c.vb = vb, c.ve = vb + k, c.label = label;
    return c;
}

std::vector<Case> fixed_cases(Rng &r) {
    std::vector<Case> out;
    const std::string a = random_bases(r, 300);
    std::string b = mutate(r, a, 0.1);
    // Seeds: plant a 17-mer at the start / end / middle of both.
    {
        std::string h = a, v = b;
        v.replace(0, 17, h.substr(0, 17));
        out.push_back(make(h, v, 0, 0, 17, "seed at position 0 of both"));
        std::string v2 = b;
        v2.replace(v2.size() - 17, 17, h.substr(h.size() - 17));
        out.push_back(make(h, v2, (long long)h.size() - 17, (long long)v2.size() - 17, 17, "seed ending at both ends"));
        std::string v3 = b;
        v3.replace(100, 17, h.substr(0, 17));
        out.push_back(make(h, v3, 0, 100, 17, "seed at 0 of h only (empty left on h)"));
        std::string v4 = b;
        v4.replace(0, 17, h.substr(150, 17));
        out.push_back(make(h, v4, 150, 0, 17, "seed at 0 of v only (empty left on v)"));
        std::string v5 = b;
        v5.replace(120, 17, h.substr(h.size() - 17));
        out.push_back(make(h, v5, (long long)h.size() - 17, 120, 17, "seed at the end of h only (empty right on h)"));
        std::string v6 = b;
        v6.replace(v6.size() - 17, 17, h.substr(140, 17));
        out.push_back(make(h, v6, 140, (long long)v6.size() - 17, 17, "seed at the end of v only (empty right on v)"));
    }
    out.push_back(make(a.substr(0, 40), a.substr(0, 40), 0, 0, 40, "both sequences equal to the seed"));
    out.push_back(make("ACGTTGCA", "acgttgca", 0, 0, 8, "both equal to the seed, other case"));
    out.push_back(make("A", "A", 0, 0, 1, "length 1, k = 1"));
    out.push_back(make("A", "C", 0, 0, 0, "length 1, k = 0 at (0,0)"));
    out.push_back(make("A", "A", 1, 1, 0, "length 1, k = 0 at (1,1)"));
    out.push_back(make("A", "A", 0, 1, 0, "length 1, k = 0 at (0,1)"));
    out.push_back(make("G", "G", 1, 0, 0, "length 1, k = 0 at (1,0)"));
    out.push_back(make("", "", 0, 0, 0, "both empty"));
    out.push_back(make("", "ACGT", 0, 2, 0, "h empty"));
    out.push_back(make("ACGT", "", 3, 0, 0, "v empty"));
    out.push_back(make(a, b, 150, 150, 0, "k = 0 in the middle of related sequences"));
    {
        std::string h = a.substr(0, 100) + std::string(30, 'N') + a.substr(100, 100);
        std::string v = b.substr(0, 100) + std::string(30, 'N') + b.substr(100, 100);
        v.replace(60, 17, h.substr(60, 17));
        out.push_back(make(h, v, 60, 60, 17, "runs of N in both at the same place"));
        std::string v2 = b.substr(0, 100) + std::string(30, 'n') + b.substr(100, 100);
        v2.replace(60, 17, h.substr(60, 17));
        out.push_back(make(h, v2, 60, 60, 17, "runs of N in both (lowercase in v)"));
        std::string h3 = std::string(30, 'N') + h;
        std::string v3 = std::string(40, 'N') + v;
        out.push_back(make(h3, v3, 90, 100, 17, "runs of N at the far ends"));
    }
    out.push_back(make(std::string(50, 'N'), std::string(60, 'N'), 20, 25, 10, "all N"));
    out.push_back(make(std::string(50, 'N'), std::string(60, 'n'), 0, 0, 0, "all N, k = 0"));
    {
        std::string h = a, v = b;
        for (auto &c : v) c = flip_case(c);
        v.replace(50, 17, h.substr(50, 17));
        out.push_back(make(h, v, 50, 50, 17, "v in lowercase"));
        std::string h2 = h;
        for (size_t i = 0; i < h2.size(); i += 2) h2[i] = flip_case(h2[i]);
        out.push_back(make(h2, v, 50, 50, 17, "mixed case on both"));
    }
    {
        std::string h, v;
        for (int i = 0; i < 200; ++i) h += kAmbig[r.below(sizeof kAmbig - 1)];
        v = h;
        for (int i = 0; i < 200; i += 7) v[(size_t)i] = kACGT[r.below(4)];
        out.push_back(make(h, v, 100, 100, 10, "IUPAC codes and U"));
        std::string u = a;
        for (auto &c : u)
            if (c == 'T') c = 'U';
        out.push_back(make(a, u, 120, 120, 17, "U in v where h has T"));
    }
    {
        // Opposite strands, as BELLA: read1 and read2 come from a genome segment on opposite
        // strands; the task is h = galeref::revcomp(read1), h_begin = len1 - p1 - k, v = read2.
        std::string g = random_bases(r, 400);
        const long long k = 17, q = 180;
        std::string gl = g.substr(0, (size_t)q), gk = g.substr((size_t)q, (size_t)k), gr = g.substr((size_t)(q + k));
        std::string m1l = mutate(r, gl, 0.12), m1r = mutate(r, gr, 0.12);
        std::string fwd1 = m1l + gk + m1r;  // read1 on the genome strand
        std::string read1 = galeref::revcomp(fwd1);  // read1 as sequenced (opposite strand)
        long long p1 = (long long)read1.size() - (long long)m1l.size() - k;  // seed in read1's coordinates
        std::string read2 = mutate(r, gl, 0.12);
        long long p2 = (long long)read2.size();
        read2 += gk + mutate(r, gr, 0.12);
        std::string h = galeref::revcomp(read1);
        long long len1 = (long long)read1.size();
        out.push_back(make(h, read2, len1 - p1 - k, p2, k, "opposite-strand pair (h reverse-complemented)"));
        std::string low = read1;
        for (auto &c : low) c = flip_case(c);
        out.push_back(make(galeref::revcomp(low), read2, len1 - p1 - k, p2, k, "opposite-strand pair, lowercase read1"));
    }
    {
        // Unrelated flanks around a seed: with +1/-3/-1 SeqAn<int> wraps here.
        std::string h = random_bases(r, 1500), v = random_bases(r, 1400);
        v.replace(700, 17, h.substr(750, 17));
        out.push_back(make(h, v, 750, 700, 17, "unrelated flanks"));
        std::string h2 = random_bases(r, 1500), v2 = mutate(r, h2, 0.3);
        long long pv = std::min<long long>(700, (long long)v2.size() - 17);
        v2.replace((size_t)pv, 17, h2.substr(700, 17));
        out.push_back(make(h2, v2, 700, pv, 17, "30% edits, 1.5 kbp"));
    }
    {
        // Long identical sequences: the extension runs to both ends.
        std::string h = random_bases(r, 1000);
        out.push_back(make(h, h, 500, 500, 17, "identical 1 kbp"));
        std::string v = h.substr(0, 700);
        out.push_back(make(h, v, 300, 300, 17, "v a prefix of h"));
    }
    return out;
}

// Cases where SeqAn returns its "undefined" marker as a side's score (no end cell alive,
// the seed does not move). Found by a search over small random pairs with SeqAn alone; each
// comes with its own scheme and X. Built as h = reverse(a) + a, v = reverse(b) + b with an
// empty seed in the middle, so that the left and the right extension both see (a, b).
struct UndefCase { const char *a, *b; int m, mm, g, X; };
const UndefCase kUndefCases[] = {
    {"TAGGT", "GCTTTCGC", 1, -2, -2, 5},
    {"AGAAT", "TACTGT", 1, -2, -2, 5},
    {"AACATTCTGGACA", "CGGCCAGATATAT", 2, -2, -4, 14},
    {"AGCTTGTCTCCCTG", "ATCACCGATGGTCCTTATCGGAG", 1, -4, -2, 14},  // mismatch < gap
    {"GCGGT", "AGCTAAGTGAGAACCCTTTACTT", 1, -7, -3, 8},
    {"TTCG", "GAATGGGGTT", 2, -8, -4, 18},
    {"TGGT", "AGATTAACGGTGTG", 1, -8, -3, 11},
};

void test_fixed(gale_ctx *ctx, Rng &r) {
    double t0 = now_s();
    std::vector<Case> base = fixed_cases(r);
    struct S { int m, mm, g; };
    const S schemes[] = {{1, -1, -1}, {1, -3, -1}, {2, -3, -2}, {5, -4, -8}, {1, -8, -8}, {0, -1, -1}, {3, 1, -2}};
    const long long xs[] = {0, 1, 7, 25, 100, 5000, 1LL << 29};
    const int dirs[] = {GALE_DIR_LEFT, GALE_DIR_RIGHT, GALE_DIR_BOTH};
    long long n = 0;
    std::vector<const Case *> ptrs;
    for (auto &c : base) ptrs.push_back(&c);
    // One batch per parameter set holds every edge case; SeqAn runs while gale does.
    for (const S &s : schemes)
        for (long long X : xs)
            for (int d : dirs)
                for (int pol = 0; pol < kPolicies; ++pol) {
                    Params p;
                    p.match = s.m, p.mismatch = s.mm, p.gap = s.g, p.X = X, p.dir = d, p.npol = pol;
                    for (auto &c : base) c.p = p;
                    char what[200];
                    snprintf(what, sizeof what, "fixed cases (match %d mismatch %d gap %d X %lld %s %s)", s.m, s.mm,
                             s.g, X, dir_name(d), npol_name(pol));
                    gale_batch *b = gale_start(ctx, p, ptrs, what);
                    std::vector<RefResult> refs;
                    for (size_t ci = 0; ci < base.size(); ++ci) {
                        char w[300];
                        snprintf(w, sizeof w, "fixed case %zu (%s)", ci, base[ci].label.c_str());
                        refs.push_back(reference(base[ci], w));
                    }
                    std::vector<gale_result> res;
                    if (!b || !gale_finish(b, ptrs.size(), res, what)) continue;
                    for (size_t ci = 0; ci < base.size(); ++ci) {
                        char w[300];
                        snprintf(w, sizeof w, "fixed case %zu (%s)", ci, base[ci].label.c_str());
                        compare(base[ci], refs[ci], res[ci], w);
                        ++n;
                    }
                }
    // The undefined-score cases, with their own parameters, all directions and policies.
    long long undef_before = g_ref.undef_sides, n_undef = 0;
    for (const UndefCase &u : kUndefCases) {
        std::string a = u.a, b = u.b;
        Case c = make(std::string(a.rbegin(), a.rend()) + a, std::string(b.rbegin(), b.rend()) + b,
                      (long long)a.size(), (long long)b.size(), 0, "SeqAn returns its undefined marker");
        for (int d : dirs)
            for (int pol = 0; pol < kPolicies; ++pol) {
                c.p.match = u.m, c.p.mismatch = u.mm, c.p.gap = u.g, c.p.X = u.X, c.p.dir = d, c.p.npol = pol;
                run_case(ctx, c, "fixed undefined-score case");
                ++n, ++n_undef;
            }
    }
    // kPolicies x (1 + 1 + 2) sides per case: every one of them must have been undefined.
    long long undef_sides = g_ref.undef_sides - undef_before;
    if (undef_sides != (long long)(sizeof kUndefCases / sizeof *kUndefCases) * 4 * kPolicies)
        fail_msg("fixed: the undefined-score cases gave %lld undefined sides in SeqAn, expected %lld (test bug)",
                 undef_sides, (long long)(sizeof kUndefCases / sizeof *kUndefCases) * 4 * kPolicies);
    printf("fixed: %zu edge cases x %lld parameter sets + %lld undefined-score runs = %lld comparisons in %.1f s\n",
           base.size(), (long long)(sizeof schemes / sizeof *schemes * (sizeof xs / sizeof *xs) * 3 * kPolicies), n_undef, n,
           now_s() - t0);
}

// Extreme schemes at gale's bounds (|score| up to 2^20, X up to 2^29) on the edge cases.
// SeqAn<int> is unsound there (its values would leave int, and it would clamp gap and
// mismatch to INT_MIN / (2 max(len) + 2)); the reference is SeqAn<Wide64>. A task whose
// best score could overflow 32 bits may be refused with GALE_E_LIMIT: that is accepted
// only where match * min(h_len, v_len) > 2^29, and any accepted task must be exact.
void test_extreme(gale_ctx *ctx, Rng &r) {
    double t0 = now_s();
    std::vector<Case> base = fixed_cases(r);
    const int B = 1 << 20;
    struct S { int m, mm, g; };
    const S schemes[] = {{B, -B, -B}, {1, -B, -1}, {1, -1, -B}, {B, 1, -1}, {-B, -B, -1}};
    const long long xs[] = {0, 1000, 1LL << 20, 1LL << 29};
    const int dirs[] = {GALE_DIR_LEFT, GALE_DIR_RIGHT, GALE_DIR_BOTH};
    long long n = 0, limited = 0;
    for (const S &s : schemes)
        for (long long X : xs)
            for (int d : dirs)
                for (int pol = 0; pol < 2; ++pol) {
                    Params p;
                    p.match = s.m, p.mismatch = s.mm, p.gap = s.g, p.X = X, p.dir = d, p.npol = pol;
                    std::vector<const Case *> ok;
                    for (auto &c : base) {
                        c.p = p;
                        long long shorter = (long long)std::min(c.h.size(), c.v.size());
                        if ((long long)std::max(p.match, 0) * shorter <= (1LL << 29)) {
                            ok.push_back(&c);
                            continue;
                        }
                        // Might be refused: GALE_E_LIMIT or an exact result.
                        gale_batch *b = nullptr;
                        if (gale_batch_create(ctx, GALE_XDROP, &b) != GALE_OK) {
                            fail_msg("extreme: gale_batch_create failed");
                            continue;
                        }
                        gale_batch_set(b, GALE_P_MATCH, p.match);
                        gale_batch_set(b, GALE_P_MISMATCH, p.mismatch);
                        gale_batch_set(b, GALE_P_GAP, p.gap);
                        gale_batch_set(b, GALE_P_XDROP, p.X);
                        gale_task t = to_task(c, 0);
                        gale_status st = gale_batch_add(b, &t);
                        gale_batch_destroy(b);
                        if (st == GALE_E_LIMIT) {
                            ++limited;
                        } else if (st == GALE_OK) {
                            run_case(ctx, c, "extreme scheme (near the limit)");
                            ++n;
                        } else {
                            fail_msg("extreme: gale_batch_add gave %s (%s), expected GALE_OK or GALE_E_LIMIT",
                                     gale_status_string(st), gale_last_error());
                            print_case(c);
                        }
                    }
                    char what[200];
                    snprintf(what, sizeof what, "extreme scheme (match %d mismatch %d gap %d X %lld %s %s)", s.m,
                             s.mm, s.g, X, dir_name(d), npol_name(pol));
                    gale_batch *b = gale_start(ctx, p, ok, what);
                    std::vector<RefResult> refs;
                    for (const Case *c : ok) refs.push_back(reference(*c, what));
                    std::vector<gale_result> res;
                    if (!b || !gale_finish(b, ok.size(), res, what)) continue;
                    for (size_t i = 0; i < ok.size(); ++i) {
                        char w[300];
                        snprintf(w, sizeof w, "%s: %s", what, ok[i]->label.c_str());
                        compare(*ok[i], refs[i], res[i], w);
                        ++n;
                    }
                }
    printf("extreme schemes: %lld comparisons, %lld tasks refused with GALE_E_LIMIT, in %.1f s\n", n, limited,
           now_s() - t0);
}

// Demonstration (not an assertion about gale): SeqAn<int> on +1/-3/-1 with unrelated
// flanks, against the Wide64 reference. Shows why the 64-bit reference is needed. This file
// is compiled with -fwrapv, so SeqAn<int>'s wrap is defined behaviour (and not reported by
// UBSan in the sanitizer build).
void demo_int_wrap(Rng &r) {
    if (getenv("GALE_ORACLE_NO_WRAP_DEMO")) return;
    int differ = 0, n = 50;
    for (int i = 0; i < n; ++i) {
        Case c;
        c.h = random_bases(r, 600), c.v = random_bases(r, 600);
        c.v.replace(300, 17, c.h.substr(300, 17));
        c.hb = 300, c.he = 317, c.vb = 300, c.ve = 317;
        c.p.match = 1, c.p.mismatch = -3, c.p.gap = -1, c.p.X = 30 + 10 * i, c.p.dir = GALE_DIR_BOTH;
        seqan::Dna5String H = c.h.c_str(), V = c.v.c_str();
        RefResult a = ref_with<int>(c, H, V, false, 0), w = ref_with<Wide64>(c, H, V, false, 0);
        differ += !same(a, w);
    }
    printf("overflow demo: on +1/-3/-1 with unrelated flanks SeqAn<int> differs from SeqAn<Wide64> in %d of %d "
           "cases (why the reference is Wide64 there)\n",
           differ, n);
}

// ---------------------------------------------------------------------------------
// 3. Random cases
// ---------------------------------------------------------------------------------
void test_random(gale_ctx *ctx, uint64_t seed, long long n, long long only) {
    double t0 = now_s();
    long long lo = 0, hi = n;
    if (only >= 0) lo = only, hi = only + 1;
    long long len_hist[5] = {0, 0, 0, 0, 0};
    const uint64_t cells0 = g_cells;
    for (long long i = lo; i < hi; ++i) {
        Rng r(seed, (uint64_t)i);
        Case c = random_case(r);
        if (only >= 0) {
            printf("case %lld:\n", i);
            print_case(c);
            FILE *f = fopen("xdrop_case.txt", "w");
            if (f) {
                fprintf(f, "h\t%s\nv\t%s\nseed\t%lld\t%lld\t%lld\t%lld\nscheme\t%d\t%d\t%d\nX\t%lld\ndir\t%s\npolicy\t%s\n",
                        c.h.c_str(), c.v.c_str(), c.hb, c.he, c.vb, c.ve, c.p.match, c.p.mismatch, c.p.gap, c.p.X,
                        dir_name(c.p.dir), npol_name(c.p.npol));
                fclose(f);
                printf("  (written to xdrop_case.txt)\n");
            }
        }
        long long m = (long long)std::max(c.h.size(), c.v.size());
        ++len_hist[m < 10 ? 0 : m < 100 ? 1 : m < 1000 ? 2 : m < 5000 ? 3 : 4];
        char what[160];
        snprintf(what, sizeof what, "random case %lld (GALE_TEST_SEED=%" PRIu64 " GALE_TEST_CASE=%lld)", i, seed, i);
        run_case(ctx, c, what);
        if (only >= 0) printf("  SeqAn: %s\n", show_ref(reference(c, what), c.he - c.hb).c_str());
    }
    printf("random: %lld cases, %.2f G DP cells, in %.1f s (longer sequence <10: %lld, <100: %lld, <1000: %lld, "
           "<5000: %lld, <=10000: %lld)\n",
           hi - lo, (double)(g_cells - cells0) / 1e9, now_s() - t0, len_hist[0], len_hist[1], len_hist[2], len_hist[3],
           len_hist[4]);
}

// ---------------------------------------------------------------------------------
// 4. Big batches, 1 and 2 worker threads
// ---------------------------------------------------------------------------------
void test_threads(uint64_t seed, long long n) {
    double t0 = now_s();
    Rng r(seed, 0xffffffffULL);
    Params sets[2];
    sets[0].match = 1, sets[0].mismatch = -1, sets[0].gap = -1, sets[0].X = 50, sets[0].dir = GALE_DIR_BOTH;
    sets[1] = random_params(r);
    if (sets[1].X > 300) sets[1].X = r.range(0, 300);
    gale_ctx *c1 = make_ctx(1), *c2 = make_ctx(2);
    for (int si = 0; si < 2; ++si) {
        std::vector<Case> cases;
        cases.reserve((size_t)n);
        for (long long i = 0; i < n; ++i) {
            Case c = random_case(r);
            // Keep the sets moderate: lengths up to ~3,000.
            if (c.h.size() > 3000 || c.v.size() > 3000) {
                long long L = r.loguniform(1, 3000), k = std::min<long long>(17, L);
                c.h = random_bases(r, L);
                c.v = mutate(r, c.h, 0.15);
                if ((long long)c.v.size() < k) c.v = c.h;
                long long pos = r.range(0, L - k), pv = std::min<long long>(pos, (long long)c.v.size() - k);
                c.v.replace((size_t)pv, (size_t)k, c.h.substr((size_t)pos, (size_t)k));
                c.hb = pos, c.he = pos + k, c.vb = pv, c.ve = pv + k;
                c.label = "thread-test pair";
            }
            c.p = sets[si];
            cases.push_back(c);
        }
        std::vector<const Case *> ptrs;
        for (auto &c : cases) ptrs.push_back(&c);
        char what[128];
        snprintf(what, sizeof what, "threads set %d (match %d mismatch %d gap %d X %lld %s %s)", si, sets[si].match,
                 sets[si].mismatch, sets[si].gap, sets[si].X, dir_name(sets[si].dir), npol_name(sets[si].npol));
        gale_batch *b1 = gale_start(c1, sets[si], ptrs, what);
        gale_batch *b2 = gale_start(c2, sets[si], ptrs, what);
        std::vector<gale_result> r1, r2;
        bool ok1 = b1 && gale_finish(b1, ptrs.size(), r1, what);
        bool ok2 = b2 && gale_finish(b2, ptrs.size(), r2, what);
        if (!ok1 || !ok2) continue;
        long long diff = 0;
        for (size_t i = 0; i < ptrs.size(); ++i) {
            const gale_result &x = r1[i], &y = r2[i];
            if (x.score_left != y.score_left || x.score_right != y.score_right || x.score != y.score ||
                x.h_begin != y.h_begin || x.h_end != y.h_end || x.v_begin != y.v_begin || x.v_end != y.v_end ||
                x.cells != y.cells || x.user != y.user || x.flags != y.flags) {
                if (++diff <= 5) {
                    fail_msg("%s: task %zu differs between 1 and 2 threads", what, i);
                    print_case(cases[i]);
                }
            }
        }
        if (diff > 5) {
            g_failures += (int)(diff - 5);
            printf("FAIL: %s: %lld tasks differ between 1 and 2 threads\n", what, diff);
        }
        for (size_t i = 0; i < ptrs.size(); ++i) {
            char w[200];
            snprintf(w, sizeof w, "%s task %zu", what, i);
            compare(cases[i], reference(cases[i], w), r1[i], w);
        }
    }
    gale_ctx_destroy(c1);
    gale_ctx_destroy(c2);
    printf("threads: 2 batches of %lld tasks, 1 vs 2 worker threads, in %.1f s\n", n, now_s() - t0);
}

}  // namespace

int main() {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    const uint64_t seed = tu_seed("xdrop_seqan");
    const double scale = tu_scale();
    long long only = -1;
    const char *eo = getenv("GALE_TEST_CASE");
    if (eo && *eo) only = atoll(eo);
    const long long n_random = std::max<long long>(100, (long long)std::llround(10000 * scale));
    const long long n_batch = std::max<long long>(200, (long long)std::llround(3000 * scale));

    printf("xdrop_seqan: gale %s, seed %" PRIu64 " (GALE_TEST_SEED=%" PRIu64 " reproduces), scale %g, %lld random "
           "cases\n",
           gale_version_string(), seed, seed, scale, n_random);
    double t0 = now_s();
    gale_ctx *ctx = make_ctx(0);
    if (only >= 0) {
        g_verbose = true;
        test_random(ctx, seed, n_random, only);
    } else {
        Rng r(seed, 0xfffffffeULL);
        test_alphabet(ctx);
        test_fixed(ctx, r);
        test_extreme(ctx, r);
        demo_int_wrap(r);
        test_random(ctx, seed, n_random, -1);
        test_threads(seed, n_batch);
    }
    gale_ctx_destroy(ctx);
    printf("reference runs: SeqAn<int> %lld, SeqAn<Wide64> %lld; cross-checks: Wide64 vs int %lld, matrix vs "
           "Simple %lld, extendSeed positions %lld; undefined end scores %lld\n",
           g_ref.int_runs, g_ref.wide_runs, g_ref.wide_checks, g_ref.matrix_checks, g_ref.public_checks,
           g_ref.undef_sides);
    printf("GALE_N_BYTES: %lld reference runs on CharString, %lld of them with another result on Dna5String\n",
           g_ref.bytes_runs, g_ref.bytes_differ);
    if (only < 0 && g_ref.bytes_differ == 0) fail_msg("GALE_N_BYTES never gave another result than Dna5 (test bug)");
    printf("%s: %d failure(s), seed %" PRIu64 ", %.1f s\n", g_failures ? "FAILED" : "PASSED", g_failures, seed,
           now_s() - t0);
    return g_failures ? 1 : 0;
}
