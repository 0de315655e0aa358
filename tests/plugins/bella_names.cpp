// BELLA's GPU path, name for name, against gale_bella.hpp: the include swap is the whole
// change (plugins/bella/README.md).
//
// BELLA (github.com/PASSIONLab/BELLA) includes LOGAN's header ("../loganGPU/logan.cuh")
// in include/align.hpp, include/overlap.hpp and include/kmercount.hpp, each inside
// #ifdef __NVCC__, after `using namespace seqan;` (and `using namespace std;`), and
// uses from it exactly:
//   SeedL (the 4-int constructor, copies), getBeginPositionH/V, getEndPositionH/V,
//   setBeginPositionH/V, setEndPositionH/V, ScoringSchemeL(1, -1, -1, -1) in a
//   std::vector<ScoringSchemeL>, EXTEND_BOTHL, loganResult (score, strand, seed;
//   default-constructed, copied, kept in a std::vector), and the 10-argument
//   extendSeedL(seeds, EXTEND_BOTHL, target, query, scoring, xDrop, kmerSize, res,
//   numAlignments, numGPU) on non-const vectors and a malloc'd int *res.
// This file calls those names the same way (its own code written after the signatures,
// not BELLA's): the pair setup of RunPairWiseAlignmentsGPU (strand test on the seed's
// reverse complement, read 1 reverse-complemented with std::transform, the seed moved
// with the setters), alignLogan's batch loop (BATCH_SIZE * numGPU pairs a call, the
// last batch the remainder, vectors copied from iterators), and PostAlignDecisionGPU's
// reads of the result. It then checks every loganResult against
//   - SeqAn 2.4's gapped X-drop called as BELLA's alignSeqAn calls it (Dna5String,
//     Dna5StringReverseComplement, Score<int, Simple>(1, -1, -1), left + right + k:
//     galeref::extend spells out extendSeed's two one-direction calls), where SeqAn's
//     headers were found (BELLA_TEST_SEQAN); without them the test fails and says why;
//   - the plugin's CPU path (the C table, ngpus = 0, one call for all pairs).
// numGPU is the number of CUDA devices, at least 1 (BELLA divides its batches by it):
// on a machine without a GPU the plugin falls back to its CPU path.
#ifndef BELLA_TEST_SEQAN
#define BELLA_TEST_SEQAN 0
#endif

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if BELLA_TEST_SEQAN
#include "seqan_xdrop_ref.hpp"
using namespace seqan;  // as BELLA's overlap.hpp / align.hpp, before LOGAN's header
#endif
using namespace std;    // as BELLA's align.hpp

#include "gale_bella.hpp"  // BELLA: #include "../loganGPU/logan.cuh"

#include "testgen.h"

namespace {

const int kBatch = 37;  // BELLA: BATCH_SIZE 30000; small here so the loop runs many times

char complement_of(char c) {
    switch (c) {
        case 'A': return 'T';
        case 'T': return 'A';
        case 'G': return 'C';
        case 'C': return 'G';
    }
    assert(false);
    return ' ';
}

string revcomp(const string &s) {
    string r(s.rbegin(), s.rend());
    std::transform(r.begin(), r.end(), r.begin(), complement_of);
    return r;
}

// A copy of s with about `rate` divergence (substitutions, 1-base insertions, deletions).
string mutate(tu_rng *r, const string &s, double rate) {
    string out;
    for (char c : s) {
        double u = tu_unif(r);
        if (u < rate / 2) {
            char b;
            do b = tu_base(r);
            while (b == c);
            out += b;
        } else if (u < rate * 3 / 4) {
            // deleted
        } else if (u < rate) {
            out += c;
            out += tu_base(r);
        } else {
            out += c;
        }
    }
    return out;
}

struct Pair {
    string read1, read2;  // read 1: H (target), read 2: V (query)
    int i, j;             // the shared k-mer: read1[i, i+k) (or its reverse complement), read2[j, j+k)
};

// Two reads sharing an exact k-mer, diverging around it; half on opposite strands
// (read 1 stored reverse-complemented, as BELLA would see it).
Pair make_pair_(tu_rng *r, int k) {
    const int len = (int)tu_range(r, 150, 2500);
    string anc(len, 'A');
    for (auto &c : anc) c = tu_base(r);
    const int i = (int)tu_range(r, 0, len - k);
    const double rate = tu_chance(r, 0.2) ? 0.45 : 0.12;  // some pairs barely related beyond the k-mer
    const int a = (int)tu_range(r, 0, i), b = (int)tu_range(r, i + k, len);
    // Outside read 2's window [a, b) read 1 draws from G/T, read 2's flanks (below) from
    // A/C: with +1/-1/-1 two uniform random sequences still align with a positive score
    // per base, so "unrelated" alone would let X-drop run on to a read end.
    for (int t = 0; t < len; ++t)
        if (t < a || t >= b) anc[t] = "GT"[tu_next(r) & 1];
    Pair p;
    string left = mutate(r, anc.substr(a, i - a), rate);
    p.read2 = left + anc.substr(i, k) + mutate(r, anc.substr(i + k, b - (i + k)), rate);
    p.j = (int)left.size();
    // Half of the reads 2 carry unrelated flanks (a chimeric read, a repeat's edge):
    // there the extension has to stop by X-drop, not at a read end.
    if (tu_chance(r, 0.5)) {
        string head((size_t)tu_range(r, 50, 400), 'A'), tail((size_t)tu_range(r, 50, 400), 'A');
        for (auto &c : head) c = "AC"[tu_next(r) & 1];
        for (auto &c : tail) c = "AC"[tu_next(r) & 1];
        p.read2 = head + p.read2 + tail;
        p.j += (int)head.size();
    }
    p.read1 = anc;
    p.i = i;
    if (tu_chance(r, 0.5)) {
        p.read1 = revcomp(anc);
        p.i = len - i - k;
    }
    return p;
}

struct Params {  // BELLA's BELLApars, the fields its GPU path reads
    int numGPU, xDrop, kmerSize;
};

// alignLogan's loop: BATCH_SIZE * numGPU pairs per extendSeedL call.
void align_batches(vector<string> &target, vector<string> &query, vector<SeedL> &seeds, const Params &bpars,
                   vector<loganResult> &longestExtensionScore) {
    ScoringSchemeL sscheme(1, -1, -1, -1);
    std::vector<ScoringSchemeL> scoring;
    scoring.push_back(sscheme);
    const int total = (int)seeds.size();
    int numAlignmentsLocal = kBatch * bpars.numGPU;
    for (int i = 0; i < total; i += kBatch * bpars.numGPU) {
        if (total < i + kBatch * bpars.numGPU) numAlignmentsLocal = total % (kBatch * bpars.numGPU);
        int *res = (int *)malloc(numAlignmentsLocal * sizeof(int));
        std::vector<string>::const_iterator first_t = target.begin() + i;
        std::vector<string>::const_iterator last_t = target.begin() + i + numAlignmentsLocal;
        std::vector<string> target_b(first_t, last_t);
        std::vector<string>::const_iterator first_q = query.begin() + i;
        std::vector<string>::const_iterator last_q = query.begin() + i + numAlignmentsLocal;
        std::vector<string> query_b(first_q, last_q);
        std::vector<SeedL>::const_iterator first_s = seeds.begin() + i;
        std::vector<SeedL>::const_iterator last_s = seeds.begin() + i + numAlignmentsLocal;
        std::vector<SeedL> seeds_b(first_s, last_s);

        extendSeedL(seeds_b, EXTEND_BOTHL, target_b, query_b, scoring, bpars.xDrop, bpars.kmerSize, res,
                    numAlignmentsLocal, bpars.numGPU);

        for (int j = 0; j < numAlignmentsLocal; j++) {
            longestExtensionScore[j + i].score = res[j];
            longestExtensionScore[j + i].seed = seeds_b[j];
        }
        free(res);
    }
}

struct Out {
    long long score;
    int bH, eH, bV, eV;
    string strand;
    bool operator==(const Out &o) const {
        return score == o.score && bH == o.bH && eH == o.eH && bV == o.bV && eV == o.eV && strand == o.strand;
    }
};

#if BELLA_TEST_SEQAN
// BELLA's alignSeqAn (its SeqAn path), for one pair.
Out seqan_ref(const Pair &p, int X, int k) {
    Score<int, Simple> scoringScheme(1, -1, -1);
    Dna5String seqH(p.read1.c_str());
    Dna5String seqV(p.read2.c_str());
    int i = p.i;
    const int j = p.j, rlen = (int)p.read1.size();
    Seed<Simple> seed(i, j, i + k, j + k);
    Dna5String seedH = infix(seqH, beginPositionH(seed), endPositionH(seed));
    Dna5String seedV = infix(seqV, beginPositionV(seed), endPositionV(seed));
    Dna5StringReverseComplement twin(seedH);
    const bool reverse = (twin == seedV);
    Dna5String H;
    if (reverse) {
        Dna5StringReverseComplement twinRead(seqH);
        H = twinRead;
        i = rlen - i - k;
    } else {
        H = seqH;
    }
    galeref::RefResult r = galeref::extend(H, seqV, i, i + k, j, j + k, galeref::DIR_BOTH, scoringScheme, X);
    long long s = r.score_left + r.score_right + k;
    s = s < INT32_MIN ? INT32_MIN : s > INT32_MAX ? INT32_MAX : s;
    return Out{s, (int)r.h_begin, (int)r.h_end, (int)r.v_begin, (int)r.v_end, reverse ? "c" : "n"};
}
#endif

int run(tu_rng *rng, int n, int X, int k, int numGPU) {
    vector<Pair> pairs;
    for (int t = 0; t < n; ++t) pairs.push_back(make_pair_(rng, k));

    // RunPairWiseAlignmentsGPU's setup, pair by pair.
    vector<string> seq1s, seq2s;
    vector<SeedL> seeds;
    vector<loganResult> maxExtScoreL;
    for (const Pair &p : pairs) {
        const string &seq1 = p.read1;
        const string &seq2 = p.read2;
        const int seq1len = (int)seq1.length();
        loganResult localRes;
        std::string strand = "n";
        SeedL seed(p.i, p.j, p.i + k, p.j + k);
        std::string seedH = seq1.substr(getBeginPositionH(seed), k);
        std::string seedV = seq2.substr(getBeginPositionV(seed), k);
        std::string seedHcpy = revcomp(seedH);
        std::string cpyseq1(seq1);
        if (seedHcpy == seedV) {
            strand = "c";
            std::reverse(std::begin(cpyseq1), std::end(cpyseq1));
            std::transform(std::begin(cpyseq1), std::end(cpyseq1), std::begin(cpyseq1), complement_of);
            setBeginPositionH(seed, seq1len - p.i - k);
            setBeginPositionV(seed, p.j);
            setEndPositionH(seed, seq1len - p.i);
            setEndPositionV(seed, p.j + k);
        }
        localRes.strand = strand;
        seeds.push_back(seed);
        seq2s.push_back(seq2);
        seq1s.push_back(cpyseq1);
        maxExtScoreL.push_back(localRes);
    }
    // The plugin's CPU path on the same inputs (before align_batches: it reads seeds).
    vector<gale_bella_seed> cs(n);
    vector<const char *> tp(n), qp(n);
    for (int t = 0; t < n; ++t) {
        cs[t] = gale_bella_seed{seeds[t].beginPositionH, seeds[t].beginPositionV, seeds[t].endPositionH,
                                seeds[t].endPositionV};
        tp[t] = seq1s[t].c_str();
        qp[t] = seq2s[t].c_str();
    }
    vector<int32_t> cres(n);
    gale_bella_scoring sc{1, -1, -1};
    gale_status st = gale_bella::api().extend(cs.data(), EXTEND_BOTHL, tp.data(), nullptr, qp.data(), nullptr, &sc,
                                               1, X, k, cres.data(), (size_t)n, 0, 1);
    if (st != GALE_OK) {
        printf("bella_names: FAIL: the plugin's CPU path: %s\n", gale_bella::api().last_error());
        return 1;
    }

    Params bpars{numGPU, X, k};
    align_batches(seq1s, seq2s, seeds, bpars, maxExtScoreL);

    int bad = 0, stopped = 0;
    for (int t = 0; t < n; ++t) {
        // PostAlignDecisionGPU's reads.
        loganResult maxExtScore = maxExtScoreL[t];
        SeedL maxseed = maxExtScore.seed;
        auto begpV = getBeginPositionV(maxseed);
        auto endpV = getEndPositionV(maxseed);
        auto begpH = getBeginPositionH(maxseed);
        auto endpH = getEndPositionH(maxseed);
        Out got{maxExtScore.score, begpH, endpH, begpV, endpV, maxExtScore.strand};
        // Sides that stopped short of both reads' ends: ended by X-drop.
        const int len1 = (int)pairs[t].read1.size(), len2 = (int)pairs[t].read2.size();
        stopped += (begpH > 0 && begpV > 0) + (endpH < len1 && endpV < len2);
        Out cpu{cres[t], cs[t].begin_h, cs[t].end_h, cs[t].begin_v, cs[t].end_v, got.strand};
        vector<pair<const char *, Out>> refs{{"the plugin's CPU path", cpu}};
#if BELLA_TEST_SEQAN
        refs.push_back({"SeqAn (alignSeqAn)", seqan_ref(pairs[t], X, k)});
#endif
        for (auto &w : refs)
            if (!(got == w.second)) {
                if (bad++ < 5)
                    printf("bella_names: X=%d pair %d: got %lld [%d,%d)x[%d,%d) %s, %s: %lld [%d,%d)x[%d,%d) %s\n", X,
                           t, got.score, got.bH, got.eH, got.bV, got.eV, got.strand.c_str(), w.first,
                           w.second.score, w.second.bH, w.second.eH, w.second.bV, w.second.eV,
                           w.second.strand.c_str());
            }
    }
    printf("bella_names: X=%d: %d pairs in batches of %d x %d, %d of %d sides stopped by X-drop, %d differ\n", X,
           n, kBatch, numGPU, stopped, 2 * n, bad);
    // Coverage: X-drop must end a fair share of the extensions (the unrelated flanks
    // make about half of the sides), not only read ends.
    if (stopped < 2 * n / 10) {
        printf("bella_names: FAIL: X=%d: fewer than 10%% of the sides stopped by X-drop\n", X);
        ++bad;
    }
    return bad;
}

}  // namespace

int main() {
    const uint64_t seed = tu_seed("bella_names");
    tu_rng rng;
    tu_rng_init(&rng, seed);
    const int numGPU = std::max(1, gale_cuda_device_count());
    const int n = (int)tu_scaled(400, 60);
    int bad = 0;
    try {
        for (int X : {7, 25, 100}) bad += run(&rng, n, X, 17, numGPU);
    } catch (const std::exception &e) {
        printf("bella_names: FAIL: %s\n", e.what());
        return 1;
    }
#if !BELLA_TEST_SEQAN
    printf("bella_names: FAIL: built without SeqAn 2 headers (seqan/seeds.h): compared with the plugin's CPU "
           "path only, never with SeqAn. Install libseqan2-dev or set -Dseqan_include.\n");
    return 1;
#endif
    if (bad) printf("bella_names: FAIL (%d differences)\n", bad);
    else printf("bella_names: PASS\n");
    return bad ? 1 : 0;
}
