// BELLA's call pattern through the bella plugin (gale_bella.hpp -> gale_plugin_open
// -> dlopen of gale-bella.so), checked against SeqAn 2.4 called the way BELLA calls it.
//
// Built twice (tests/plugins/meson.build):
//   bella_seqan  (BELLA_TEST_SEQAN): the plugin's CPU path (ngpus = 0) against SeqAn.
//   bella_gpu    (BELLA_TEST_GPU, plus BELLA_TEST_SEQAN where SeqAn's headers exist: the
//                system's, or -Dseqan_include on the device machine): the plugin's GPU
//                path (ngpus = number of devices) against SeqAn, called exactly as
//                bella_seqan calls it, against the plugin's CPU path and, with several
//                GPUs (nvidia-h200-x2: tools/device/run.sh multigpu), against ngpus = 1. Exit 77 (skip)
//                without a GPU. Built without SeqAn it still compares with the CPU path,
//                then FAILS: GPU results never compared with SeqAn are not a pass.
//                GALE_GPU_TEST_FAKE=1 runs it anyway (the "GPU" call then falls back to
//                the CPU: a self-check of this harness, never used by meson).
//
// BELLA's call, reproduced (BELLA include/overlap.hpp, RunPairWiseAlignmentsGPU, and
// include/align.hpp, alignLogan / alignSeqAn):
//   - a pair of reads and the k-mer positions i (read 1) and j (read 2) of a shared k-mer;
//     read 1 is horizontal (LOGAN's target), read 2 vertical (query);
//   - seed SeedL(i, j, i + k, j + k); if the reverse complement of read1[i, i+k) equals
//     read2[j, j+k) the pair is on opposite strands ('c'): read 1 is reverse-complemented
//     and i -> len1 - i - k;
//   - scoring +1/-1/-1 (ScoringSchemeL(1, -1, -1, -1), one scheme for the whole call),
//     k = 17, X = 7 (BELLA's default) and larger values;
//   - extendSeedL(seeds, EXTEND_BOTHL, target, query, scoring, X, k, res, n, ngpus):
//     res[i] and seeds[i] are BELLA's score and overlap.
// The reference is BELLA's SeqAn path (alignSeqAn; dead code in BELLA's shipped CPU
// build, which calls Xavier - plugins/bella/README.md): Dna5String reads, the reverse
// complement taken with SeqAn's Dna5StringReverseComplement, Score<int, Simple>(1,-1,-1),
// and BELLA's extendSeed, which returns left + right + k where left/right are what
// seqan::_extendSeedGappedXDropOneDirection returns on the prefixes / suffixes
// (galeref::extend calls it exactly so). The plugin's res is that sum computed in 64 bits
// and clamped to int32 (gale_bella.h): the test computes the same. Seeds: all four
// positions compared.
//
// Parts (counts scale with GALE_TEST_SCALE; the default run meets the 10,000):
//   1. >= 10,000 fresh random BELLA pairs (both strands, reads 200..4,000 bp, about 15%
//      divergence between the reads, some unrelated pairs, seeds touching read ends,
//      a few N's), split over X = 7, 25, 100 (one call per X, as BELLA calls). 30% of
//      them part at a junction on one or both sides of the k-mer, beyond which the two
//      reads have little in common (see random_pair): there extensions stop by X-drop
//      (most of them at X = 7) instead of at a read end. The test prints, per set, the share of extended sides
//      that reach a read end and the share that stop short, and requires more than 20%
//      to stop short at X = 7, so that X-drop termination stays covered.
//   2. per-pair scoring schemes (one ScoringSchemeL per alignment).
//   3. EXTEND_LEFTL and EXTEND_RIGHTL.
//   4. the same pairs cut into many small gale batches (GALE_BELLA_BATCH_BASES), also
//      spread over 3 CPU contexts (GALE_BELLA_CPU_CONTEXTS), as the GPU path spreads
//      them over GPUs; then cut in 4 and computed by 4 threads calling at once (the
//      plugin's contexts, kept between calls, shared by concurrent calls), with and
//      without small batches over 3 contexts: the same results.
//   5. errors: bad penalties, affine gaps, a seed outside its read, EXTEND_NONEL:
//      std::runtime_error, and res / seeds untouched.
#ifndef BELLA_TEST_SEQAN
#define BELLA_TEST_SEQAN 0
#endif
#ifndef BELLA_TEST_GPU
#define BELLA_TEST_GPU 0
#endif

#include "gale_bella.hpp"

#if BELLA_TEST_SEQAN
#include "seqan_xdrop_ref.hpp"
#endif

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "testgen.h"

namespace {

int g_failures = 0;
long g_checks = 0;

#define FAILF(...)                          \
    do {                                    \
        ++g_failures;                       \
        fprintf(stderr, "FAIL: " __VA_ARGS__); \
        fputc('\n', stderr);                \
    } while (0)

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

using tu::Rng;

const char kACGT[] = "ACGT";
const int K = 17;

std::string random_bases(Rng &r, long long n) { return tu::bases(r, n); }

// Sequencing-like errors at `rate`: substitutions, insertions, deletions in equal parts.
std::string mutate(Rng &r, const std::string &s, double rate) { return tu::mutate(r, s, tu_mut_thirds(rate)); }

// BELLA's reverse complement of a read (reversecomplement / complementbase): A<->T,
// C<->G, other bytes (N) kept.
std::string revcomp(const std::string &s) {
    std::string o(s.rbegin(), s.rend());
    for (auto &c : o) c = c == 'A' ? 'T' : c == 'T' ? 'A' : c == 'C' ? 'G' : c == 'G' ? 'C' : c;
    return o;
}

// A pair as BELLA's overlap stage hands it to the aligner: two reads and the positions
// of a shared k-mer (i on read 1, j on read 2, each on its read's own strand).
struct Pair {
    std::string r1, r2;
    int i = 0, j = 0;
    const char *kind = "";
};

// n bases drawn mostly from `two` (two letters), any letter with probability `other`.
std::string biased_bases(Rng &r, size_t n, const char *two, double other) {
    std::string s(n, 'A');
    for (auto &c : s) c = r.chance(other) ? kACGT[r.below(4)] : two[r.below(2)];
    return s;
}

// Two reads from one stretch of "genome" with errors at `err` each (so about 2 * err
// between them), overlapping, around one exact shared k-mer; read 2 from the opposite
// strand half of the time; sometimes unrelated outside the k-mer, sometimes with the
// k-mer at a read end, sometimes with N's; and 30% of the time the reads part at a
// junction (a chimeric read, a repeat's edge) on one or both sides, some way from the
// k-mer.
//
// Beyond a junction the two reads draw from disjoint letter pairs (one from A/C, the
// other from G/T, plus up to 15% of any letter): with BELLA's +1/-1/-1, two independent
// uniform random sequences still align with a positive score per base (their common
// subsequences are long), so an X-drop extension runs through them to a read end -
// "unrelated" alone barely exercises X-drop termination. The two pairs stay disjoint
// under reverse complement (A/C <-> T/G), so both strands keep it.
Pair random_pair(Rng &r) {
    Pair p;
    const long long L1 = r.loguniform(200, 4000), L2 = r.loguniform(200, 4000);
    const double err = r.unit() < 0.1 ? r.unit() * 0.02 : 0.05 + r.unit() * 0.05;
    const int shape = (int)r.below(100);
    // k-mer position within each read's ancestor window
    long long left1 = r.range(0, L1 - K), left2 = r.range(0, L2 - K);
    if (shape < 8) left1 = 0, p.kind = "k-mer at the start of read 1";
    else if (shape < 16) left2 = L2 - K, p.kind = "k-mer at the end of read 2";
    else if (shape < 20) left1 = L1 - K, left2 = 0, p.kind = "k-mer at read 1's end and read 2's start";
    else if (shape < 30) p.kind = "unrelated reads sharing one k-mer";
    else if (shape < 60) p.kind = "reads parting at a junction";
    else p.kind = "overlapping reads";
    const long long right1 = L1 - K - left1, right2 = L2 - K - left2;
    const std::string kmer = random_bases(r, K);
    // One ancestor around the k-mer, long enough for both reads.
    const std::string anc_left = random_bases(r, std::max(left1, left2));
    const std::string anc_right = random_bases(r, std::max(right1, right2));
    std::string l1 = anc_left.substr(anc_left.size() - (size_t)left1), r1 = anc_right.substr(0, (size_t)right1);
    std::string l2 = anc_left.substr(anc_left.size() - (size_t)left2), r2 = anc_right.substr(0, (size_t)right2);
    if (shape >= 20 && shape < 30) {
        l2 = random_bases(r, left2);
        r2 = random_bases(r, right2);
    }
    if (shape >= 30 && shape < 60) {
        // Sides: both (4 in 6), left only, right only (a side where a read has no flank
        // has no junction).
        const int sides = (int)r.below(6);
        const double other = r.unit() * 0.15;
        const bool swap = r.chance(0.5);
        const char *a1 = swap ? "GT" : "AC", *a2 = swap ? "AC" : "GT";
        const long long lmin = std::min(left1, left2), rmin = std::min(right1, right2);
        if (sides != 5 && lmin > 0) {
            // d: bases shared next to the k-mer. At least 30 bases of the shorter flank lie
            // beyond the junction where the flank allows it: the score falls by about one
            // per base there, so a stretch much shorter than X lets the extension run on
            // to the read's end before X-drop stops it (SeqAn's seed ends where the
            // extension stops, not at the best cell).
            const long long d = r.range(0, std::max(0LL, lmin - 31));
            l1.replace(0, (size_t)(left1 - d), biased_bases(r, (size_t)(left1 - d), a1, other));
            l2.replace(0, (size_t)(left2 - d), biased_bases(r, (size_t)(left2 - d), a2, other));
        }
        if (sides != 4 && rmin > 0) {
            const long long d = r.range(0, std::max(0LL, rmin - 31));
            r1.replace((size_t)d, std::string::npos, biased_bases(r, (size_t)(right1 - d), a1, other));
            r2.replace((size_t)d, std::string::npos, biased_bases(r, (size_t)(right2 - d), a2, other));
        }
    }
    std::string m1 = mutate(r, l1, err), m2 = mutate(r, l2, err);
    p.r1 = m1 + kmer + mutate(r, r1, err);
    p.r2 = m2 + kmer + mutate(r, r2, err);
    p.i = (int)m1.size();
    p.j = (int)m2.size();
    if (r.chance(0.05)) {  // a few N's outside the k-mer
        for (int t = 0; t < 3; ++t) {
            size_t a = (size_t)r.below(p.r1.size());
            if ((int)a < p.i || (int)a >= p.i + K) p.r1[a] = 'N';
            size_t b = (size_t)r.below(p.r2.size());
            if ((int)b < p.j || (int)b >= p.j + K) p.r2[b] = 'N';
        }
    }
    if (r.chance(0.5)) {  // read 2 sequenced from the other strand
        p.r2 = revcomp(p.r2);
        p.j = (int)p.r2.size() - p.j - K;
    }
    return p;
}

// What BELLA gives LOGAN for a pair (overlap.hpp): the seed, read 1 as target (reverse
// complemented for strand 'c'), read 2 as query.
struct Call {
    std::vector<SeedL> seeds;
    std::vector<std::string> target, query;
    std::vector<char> strand;
};

Call bella_inputs(const std::vector<Pair> &pairs) {
    Call c;
    for (const Pair &p : pairs) {
        const int len1 = (int)p.r1.size();
        SeedL seed(p.i, p.j, p.i + K, p.j + K);
        std::string seedH = p.r1.substr((size_t)getBeginPositionH(seed), K);
        std::string seedV = p.r2.substr((size_t)getBeginPositionV(seed), K);
        std::string cpy = p.r1;
        char strand = 'n';
        if (revcomp(seedH) == seedV) {
            strand = 'c';
            cpy = revcomp(p.r1);
            setBeginPositionH(seed, len1 - p.i - K);
            setBeginPositionV(seed, p.j);
            setEndPositionH(seed, len1 - p.i);
            setEndPositionV(seed, p.j + K);
        }
        c.seeds.push_back(seed);
        c.target.push_back(cpy);
        c.query.push_back(p.r2);
        c.strand.push_back(strand);
    }
    return c;
}

// One result: the score and the extended seed.
struct Res {
    long long score;
    int bh, bv, eh, ev;
    bool operator==(const Res &o) const {
        return score == o.score && bh == o.bh && bv == o.bv && eh == o.eh && ev == o.ev;
    }
};

std::string show(const Res &r) {
    char b[160];
    snprintf(b, sizeof b, "score %lld, H [%d, %d), V [%d, %d)", r.score, r.bh, r.eh, r.bv, r.ev);
    return b;
}

struct Scheme {
    int match, mismatch, gap;
};

// The plugin, called as BELLA calls LOGAN. tenArgs: BELLA's 10-argument form (older
// LOGAN); otherwise LOGAN's 11-argument one with n_threads (default 2).
std::vector<Res> run_plugin(const std::vector<Pair> &pairs, const std::vector<Scheme> &schemes, int X,
                            ExtensionDirectionL dir, int ngpus, bool tenArgs, int n_threads = 2) {
    Call c = bella_inputs(pairs);
    std::vector<ScoringSchemeL> scoring;
    for (const Scheme &s : schemes) scoring.push_back(ScoringSchemeL(s.match, s.mismatch, s.gap, s.gap));
    std::vector<int> res(pairs.size(), INT_MIN + 12345);
    const int n = (int)pairs.size();
    if (tenArgs)
        extendSeedL(c.seeds, dir, c.target, c.query, scoring, X, K, res.data(), n, ngpus);
    else
        extendSeedL(c.seeds, dir, c.target, c.query, scoring, X, K, res.data(), n, ngpus, n_threads);
    // Read back as BELLA's alignLogan does: one loganResult per pair (score from res,
    // seed from the updated seeds).
    std::vector<loganResult> kept(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
        kept[i].score = res[i];
        kept[i].seed = c.seeds[i];
    }
    std::vector<Res> out(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
        const SeedL &s = kept[i].seed;
        out[i] = Res{kept[i].score, getBeginPositionH(s), getBeginPositionV(s), getEndPositionH(s), getEndPositionV(s)};
    }
    return out;
}

#if BELLA_TEST_SEQAN
long long clamp32(long long v) { return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v; }

// BELLA's alignSeqAn, with its extendSeed's two per-direction calls spelled out by
// galeref::extend (the Debian SeqAn's public extendSeed returns no score).
Res seqan_bella(const Pair &p, const Scheme &s, int X, int dir) {
    using namespace seqan;  // as BELLA's sources do: LOGAN's names (ours) must coexist
    Score<int, Simple> scoringScheme(s.match, s.mismatch, s.gap);
    Dna5String seqH(p.r1.c_str());
    Dna5String seqV(p.r2.c_str());
    int i = p.i, j = p.j;
    const int rlen = (int)p.r1.size();
    Seed<Simple> seed(i, j, i + K, j + K);
    Dna5String seedH = infix(seqH, beginPositionH(seed), endPositionH(seed));
    Dna5String seedV = infix(seqV, beginPositionV(seed), endPositionV(seed));
    Dna5StringReverseComplement twin(seedH);
    const bool reverse = (twin == seedV);
    Dna5String H;
    if (reverse) {
        Dna5StringReverseComplement twinRead(seqH);
        H = twinRead;
        i = rlen - i - K;
    } else {
        H = seqH;
    }
    galeref::RefResult r = galeref::extend(H, seqV, i, i + K, j, j + K, dir, scoringScheme, X);
    // BELLA's extendSeed: (int)(left + right + kmerLen); the plugin: the same in 64 bits,
    // clamped (they differ only where BELLA's int sum overflows).
    return Res{clamp32(r.score_left + r.score_right + K), (int)r.h_begin, (int)r.v_begin, (int)r.h_end,
               (int)r.v_end};
}
#endif

// Compares got with want pair by pair; prints the first few differences.
void compare(const std::vector<Pair> &pairs, const std::vector<Res> &got, const std::vector<Res> &want,
             const char *what, const char *got_name, const char *want_name, int X) {
    int shown = 0, bad = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        ++g_checks;
        if (got[i] == want[i]) continue;
        ++bad;
        if (++shown <= 5) {
            FAILF("%s, pair %zu (%s, X %d, read lengths %zu/%zu, k-mer at %d/%d): %s gives %s, %s gives %s", what, i,
                  pairs[i].kind, X, pairs[i].r1.size(), pairs[i].r2.size(), pairs[i].i, pairs[i].j, got_name,
                  show(got[i]).c_str(), want_name, show(want[i]).c_str());
        }
    }
    if (bad > 5) {
        g_failures += bad - 5;
        fprintf(stderr, "FAIL: %s: %d pairs differ in all\n", what, bad);
    }
}

struct Mode {
    int ngpus_main;  // ngpus of the path under test
    bool gpu;        // path under test is the GPU one: compare it with the CPU path too
};

// Runs pairs through the plugin (path under test), and checks them against SeqAn and/or
// the CPU path. Returns the results of the path under test; *stop_short (if given):
// the share of extended sides that stopped short of a read end.
std::vector<Res> check_set(const Mode &m, const std::vector<Pair> &pairs, const std::vector<Scheme> &schemes, int X,
                           ExtensionDirectionL dir, bool tenArgs, const char *what, double *stop_short = nullptr) {
    double t0 = now_s();
    std::vector<Res> got = run_plugin(pairs, schemes, X, dir, m.ngpus_main, tenArgs);
    double t1 = now_s();
    if (m.gpu) {
        std::vector<Res> cpu = run_plugin(pairs, schemes, X, dir, 0, tenArgs);
        compare(pairs, got, cpu, what, "GPU path", "CPU path", X);
        // With several GPUs (the core splits each batch across them), also against one.
        if (m.ngpus_main > 1) {
            std::vector<Res> one = run_plugin(pairs, schemes, X, dir, 1, tenArgs);
            compare(pairs, got, one, what, "GPU path on all GPUs", "GPU path on one GPU", X);
        }
    }
    double t2 = now_s();
#if BELLA_TEST_SEQAN
    std::vector<Res> ref(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i)
        ref[i] = seqan_bella(pairs[i], schemes.size() == 1 ? schemes[0] : schemes[i], X, (int)dir);
    compare(pairs, got, ref, what, m.gpu ? "GPU path" : "plugin", "SeqAn as BELLA calls it", X);
#endif
    double t3 = now_s();
    // How far the extensions went, and how they ended: at a read end (of either read),
    // or short of it, where X-drop stopped them (so that a run shows it tested both,
    // not only dead ends or only runs to the end). Sides not extended (direction) are
    // not counted; a seed touching a read end counts as at the end.
    double span = 0;
    long sides = 0, at_end = 0;
    const bool left = dir == EXTEND_LEFTL || dir == EXTEND_BOTHL, right = dir == EXTEND_RIGHTL || dir == EXTEND_BOTHL;
    Call in = bella_inputs(pairs);
    for (size_t i = 0; i < pairs.size(); ++i) {
        span += got[i].eh - got[i].bh;
        if (left) ++sides, at_end += got[i].bh == 0 || got[i].bv == 0;
        if (right) ++sides, at_end += got[i].eh == (int)in.target[i].size() || got[i].ev == (int)in.query[i].size();
    }
    const double end_share = sides ? (double)at_end / (double)sides : 0.0;
    if (stop_short) *stop_short = 1.0 - end_share;
    printf("  %-52s %6zu pairs, mean overlap %6.0f bp, sides: %4.1f%% to a read end, %4.1f%% stopped short "
           "(X-drop): plugin %.2f s",
           what, pairs.size(), span / (double)pairs.size(), 100.0 * end_share, 100.0 * (1.0 - end_share), t1 - t0);
    if (m.gpu) printf(", CPU path %.2f s", t2 - t1);
    if (BELLA_TEST_SEQAN) printf(", SeqAn %.2f s", t3 - t2);
    printf("\n");
    fflush(stdout);
    return got;
}

template <class F>
void expect_throw(const char *what, const char *needle, F &&f) {
    ++g_checks;
    try {
        f();
        FAILF("%s: no exception", what);
    } catch (const std::runtime_error &e) {
        if (needle && !strstr(e.what(), needle)) FAILF("%s: message '%s' lacks '%s'", what, e.what(), needle);
        else printf("  %s: throws \"%s\"\n", what, e.what());
    }
}

void test_errors(int ngpus) {
    Rng r(42);
    std::vector<Pair> pairs;
    for (int t = 0; t < 5; ++t) pairs.push_back(random_pair(r));
    Call c = bella_inputs(pairs);
    std::vector<ScoringSchemeL> one(1, ScoringSchemeL(1, -1, -1, -1)), two(2, ScoringSchemeL(1, -1, -1, -1)),
        none, affine(1, ScoringSchemeL(1, -1, -1, -2));
    std::vector<int> res(5, 777);
    const std::vector<SeedL> before = c.seeds;
    expect_throw("no scoring scheme", "scoring scheme", [&] {
        extendSeedL(c.seeds, EXTEND_BOTHL, c.target, c.query, none, 7, K, res.data(), 5, ngpus);
    });
    expect_throw("2 schemes for 5 alignments", "scoring scheme", [&] {
        extendSeedL(c.seeds, EXTEND_BOTHL, c.target, c.query, two, 7, K, res.data(), 5, ngpus);
    });
    expect_throw("affine gaps", "gap_open", [&] {
        extendSeedL(c.seeds, EXTEND_BOTHL, c.target, c.query, affine, 7, K, res.data(), 5, ngpus);
    });
    expect_throw("EXTEND_NONEL", "direction", [&] {
        extendSeedL(c.seeds, EXTEND_NONEL, c.target, c.query, one, 7, K, res.data(), 5, ngpus);
    });
    expect_throw("more alignments than seeds", "numAlignments", [&] {
        extendSeedL(c.seeds, EXTEND_BOTHL, c.target, c.query, one, 7, K, res.data(), 6, ngpus);
    });
    expect_throw("negative X", "X", [&] {
        extendSeedL(c.seeds, EXTEND_BOTHL, c.target, c.query, one, -1, K, res.data(), 5, ngpus);
    });
    // A seed outside its read: the message names the alignment; nothing is written.
    std::vector<SeedL> bad = c.seeds;
    setEndPositionH(bad[3], (int)c.target[3].size() + 5);
    setBeginPositionH(bad[3], (int)c.target[3].size() + 5 - K);
    const std::vector<SeedL> bad_before = bad;
    expect_throw("seed outside read 1", "alignment 3", [&] {
        extendSeedL(bad, EXTEND_BOTHL, c.target, c.query, one, 7, K, res.data(), 5, ngpus);
    });
    // The same with every pair in its own batch, spread over 3 CPU contexts: one driver
    // fails, the others stop; still nothing written, no batch left behind (ASan run).
    setenv("GALE_BELLA_BATCH_BASES", "1", 1);
    setenv("GALE_BELLA_CPU_CONTEXTS", "3", 1);
    expect_throw("seed outside read 1, 5 batches over 3 contexts", "alignment 3", [&] {
        extendSeedL(bad, EXTEND_BOTHL, c.target, c.query, one, 7, K, res.data(), 5, ngpus);
    });
    unsetenv("GALE_BELLA_BATCH_BASES");
    unsetenv("GALE_BELLA_CPU_CONTEXTS");
    for (size_t i = 0; i < 5; ++i) {
        ++g_checks;
        if (res[i] != 777 || getBeginPositionH(bad[i]) != getBeginPositionH(bad_before[i]) ||
            getEndPositionV(bad[i]) != getEndPositionV(bad_before[i]) ||
            getBeginPositionH(c.seeds[i]) != getBeginPositionH(before[i]))
            FAILF("errors: alignment %zu was written by a failing call", i);
    }
    // No alignments: nothing to do, nothing written.
    ++g_checks;
    try {
        extendSeedL(c.seeds, EXTEND_BOTHL, c.target, c.query, one, 7, K, res.data(), 0, ngpus);
        if (res[0] != 777) FAILF("numAlignments 0 wrote res");
    } catch (const std::exception &e) {
        FAILF("numAlignments 0 threw: %s", e.what());
    }
}

}  // namespace

int main() {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    const char *name =
#if BELLA_TEST_GPU
        "bella_gpu";
#else
        "bella_seqan";
#endif
    Mode m{0, false};
#if BELLA_TEST_GPU
    int devices = gale_cuda_device_count();
    const char *fake = getenv("GALE_GPU_TEST_FAKE");
    if (devices == 0 && !(fake && *fake && strcmp(fake, "0") != 0)) {
        printf("%s: no usable CUDA device: skipped\n", name);
        return 77;
    }
    m.ngpus_main = devices > 0 ? devices : 1;
    m.gpu = true;
    printf("%s: %d CUDA device(s)%s; GPU path (ngpus %d) against the CPU path%s\n", name, devices,
           devices ? "" : " (GALE_GPU_TEST_FAKE: the 'GPU' call falls back to the CPU)", m.ngpus_main,
           BELLA_TEST_SEQAN ? " and SeqAn" : " only (built without SeqAn: this run FAILS at the end)");
#else
    printf("%s: the plugin's CPU path against SeqAn 2.4 as BELLA calls it\n", name);
#endif

    const uint64_t seed = tu_seed(name);
    const double scale = tu_scale();
    auto scaled = [&](long n, long lo) { return tu_scaled(n, lo); };
    printf("%s: scale %g\n", name, scale);
    unsetenv("GALE_BELLA_BATCH_BASES");
    unsetenv("GALE_BELLA_CPU_CONTEXTS");
    Rng r(seed);
    const double t0 = now_s();

    // 1. BELLA pairs, one call per X.
    const long n_main = scaled(10000, 200);
    const int xs[] = {7, 25, 100};
    const double share[] = {0.5, 0.3, 0.2};
    const std::vector<Scheme> bella_scheme(1, Scheme{1, -1, -1});
    long done = 0;
    std::vector<Pair> keep;  // reused by part 4
    int keep_x = 25;
    std::vector<Res> keep_res;
    long strands[2] = {0, 0};
    for (int xi = 0; xi < 3; ++xi) {
        long n = xi == 2 ? n_main - done : (long)std::llround((double)n_main * share[xi]);
        done += n;
        std::vector<Pair> pairs;
        for (long t = 0; t < n; ++t) pairs.push_back(random_pair(r));
        for (const Pair &p : pairs) ++strands[revcomp(p.r1.substr((size_t)p.i, K)) == p.r2.substr((size_t)p.j, K)];
        char what[96];
        snprintf(what, sizeof what, "BELLA pairs, +1/-1/-1, X %d, EXTEND_BOTHL%s", xs[xi],
                 xi == 0 ? " (BELLA's 10-arg call)" : "");
        double stop_short = 0;
        std::vector<Res> got = check_set(m, pairs, bella_scheme, xs[xi], EXTEND_BOTHL, xi == 0, what, &stop_short);
        // X-drop termination must stay covered: the junction pairs (30%, most of them on
        // both sides) make about a quarter of the sides stop short at BELLA's X = 7.
        // Checked where the sample is large enough for the bound to be far from chance
        // (at the default scale, 10,000 sides).
        if (xs[xi] == 7) {
            ++g_checks;
            if (n >= 1000 && !(stop_short > 0.20))
                FAILF("X 7: only %.1f%% of extended sides stopped short of a read end (expected > 20%%): "
                      "the test no longer exercises X-drop termination", 100.0 * stop_short);
            else if (n < 1000)
                printf("  (only %ld pairs at X 7: the > 20%% stopped-short bound is not checked)\n", n);
        }
        if (xs[xi] == keep_x) {
            size_t nk = std::min<size_t>(pairs.size(), (size_t)scaled(2000, 100));
            keep.assign(pairs.begin(), pairs.begin() + (long)nk);
            keep_res.assign(got.begin(), got.begin() + (long)nk);
        }
    }
    printf("  (%ld pairs on the same strand, %ld on opposite strands)\n", strands[0], strands[1]);
    if (strands[0] == 0 || strands[1] == 0) FAILF("the random pairs did not cover both strands");

    // 2. A scoring scheme per pair (schemes where SeqAn's int arithmetic is sound).
    {
        const Scheme pool[] = {{1, -1, -1}, {2, -3, -3}, {1, -2, -2}, {5, -4, -10}, {3, -1, -2}, {1, -1, -2}};
        std::vector<Pair> pairs;
        std::vector<Scheme> schemes;
        long n = scaled(1500, 60);
        for (long t = 0; t < n; ++t) {
            pairs.push_back(random_pair(r));
            schemes.push_back(pool[r.below(sizeof pool / sizeof *pool)]);
        }
        check_set(m, pairs, schemes, 25, EXTEND_BOTHL, false, "per-pair scoring schemes, X 25");
    }

    // 3. One direction at a time.
    {
        std::vector<Pair> pairs;
        long n = scaled(800, 40);
        for (long t = 0; t < n; ++t) pairs.push_back(random_pair(r));
        check_set(m, pairs, bella_scheme, 7, EXTEND_LEFTL, false, "EXTEND_LEFTL, X 7");
        check_set(m, pairs, bella_scheme, 25, EXTEND_RIGHTL, false, "EXTEND_RIGHTL, X 25");
    }

    // 4. Many small gale batches: the same results as one big one.
    {
        setenv("GALE_BELLA_BATCH_BASES", "20000", 1);
        std::vector<Res> got = check_set(m, keep, bella_scheme, keep_x, EXTEND_BOTHL, false,
                                         "part of set 1 in batches of 20,000 bases");
        compare(keep, got, keep_res, "small batches vs one batch", "small batches", "default batches", keep_x);
        // The same split over 3 contexts (driver threads taking batches concurrently).
        setenv("GALE_BELLA_CPU_CONTEXTS", "3", 1);
        got = check_set(m, keep, bella_scheme, keep_x, EXTEND_BOTHL, false,
                        "the same, CPU path over 3 contexts");
        compare(keep, got, keep_res, "3 contexts vs one", "3 contexts, small batches", "default batches", keep_x);
        unsetenv("GALE_BELLA_CPU_CONTEXTS");
        unsetenv("GALE_BELLA_BATCH_BASES");

        // Concurrent calls: 4 threads, each a quarter of the pairs, all at once, with two
        // thread counts (two kept contexts per configuration, each shared by two calls),
        // then again in small batches over 3 CPU contexts (set before the threads start:
        // the plugin reads the environment at every call).
        for (int round = 0; round < 2; ++round) {
            if (round == 1) {
                setenv("GALE_BELLA_BATCH_BASES", "20000", 1);
                setenv("GALE_BELLA_CPU_CONTEXTS", "3", 1);
            }
            const int T = 4;
            std::vector<std::vector<Pair>> part(T);
            for (size_t i = 0; i < keep.size(); ++i) part[i % T].push_back(keep[i]);
            std::vector<std::vector<Res>> out(T);
            std::vector<std::string> err(T);
            const double c0 = now_s();
            std::vector<std::thread> th;
            for (int t = 0; t < T; ++t)
                th.emplace_back([&, t] {
                    try {
                        out[t] = run_plugin(part[t], bella_scheme, keep_x, EXTEND_BOTHL, m.ngpus_main, false,
                                            1 + t % 2);
                    } catch (const std::exception &e) {
                        err[t] = e.what();
                    }
                });
            for (auto &t : th) t.join();
            const double c1 = now_s();
            std::vector<Res> got(keep.size());
            bool ok = true;
            for (int t = 0; t < T; ++t) {
                ++g_checks;
                if (!err[t].empty() || out[t].size() != part[t].size()) {
                    FAILF("concurrent calls, round %d, thread %d: %s", round, t,
                          err[t].empty() ? "wrong number of results" : err[t].c_str());
                    ok = false;
                    continue;
                }
                for (size_t k = 0; k < out[t].size(); ++k) got[k * T + (size_t)t] = out[t][k];
            }
            if (ok)
                compare(keep, got, keep_res, round ? "4 concurrent calls, small batches over 3 contexts"
                                                   : "4 concurrent calls",
                        "concurrent calls", "one call", keep_x);
            printf("  %-52s %6zu pairs in 4 calls at once, same results as one call: %.2f s\n",
                   round ? "concurrent calls, small batches over 3 contexts" : "concurrent calls (n_threads 1 and 2)",
                   keep.size(), c1 - c0);
        }
        unsetenv("GALE_BELLA_CPU_CONTEXTS");
        unsetenv("GALE_BELLA_BATCH_BASES");
    }

#if !BELLA_TEST_GPU
    // ngpus >= 1 on a machine without a GPU: the CPU, same results.
    if (gale_cuda_device_count() == 0) {
        std::vector<Res> got = run_plugin(keep, bella_scheme, keep_x, EXTEND_BOTHL, 2, false);
        compare(keep, got, keep_res, "ngpus 2 without a GPU (CPU fallback)", "ngpus 2", "ngpus 0", keep_x);
        printf("  ngpus 2 without a GPU: %zu pairs, same results as the CPU path\n", keep.size());
    }
#endif

    // 5. Errors.
    test_errors(m.ngpus_main);

#if BELLA_TEST_GPU && !BELLA_TEST_SEQAN
    // Built without SeqAn's headers: the GPU results were compared with the CPU path
    // only. A skipped oracle is never a pass.
    FAILF("%s was built without SeqAn 2 headers: the GPU results were not compared with SeqAn. Configure with "
          "-Dseqan_include=DIR (tools/device/seqan-headers.sh makes a copy to carry) or install libseqan2-dev",
          name);
#endif
    if (g_failures) {
        fprintf(stderr, "%s: FAILED: %d failure(s) in %ld checks, seed %" PRIu64 ", %.1f s\n", name, g_failures,
                g_checks, seed, now_s() - t0);
        return 1;
    }
    printf("%s: PASSED: %ld checks, seed %" PRIu64 ", %.1f s\n", name, g_checks, seed, now_s() - t0);
    return 0;
}
