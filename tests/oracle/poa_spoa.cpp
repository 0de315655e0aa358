// Partial-order alignment against SPOA 4.0.8 (Debian's libspoa-dev, the library
// Debian's `spoa` links): gale's CPU kernel (lib/cpu/poa.cpp) and SPOA build the same
// windows read by read; every read's score and alignment, the graph (nodes, edges
// in order with their weights, aligned-node rings, rank order), the consensus and
// the MSA rows (with and without the consensus row) must be identical.
//
// Random windows each run (the seed is printed; GALE_TEST_SEED reproduces it):
// 2-100 reads of 50 bp-5 kbp mutated from one ancestor at 1-20%, local / global /
// semi-global, linear / affine / convex penalties (SPOA's defaults among them),
// per-read weights or FASTQ-style qualities on some windows; plus fixed edge cases.
// GALE_TEST_SCALE scales the number of windows and the largest window's size.
#include <spoa/spoa.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "gale.h"
#include "poa.h"
#include "spoa_cases.h"
#include "testgen.h"

namespace {

gale_ctx *ctx = nullptr;

// What spoa::Graph::PrintDot writes, read back from a scratch file.
std::string spoa_dot(const spoa::Graph &g) {
    const std::string path = "/tmp/gale_poa_spoa_" + std::to_string((long)getpid()) + ".dot";
    g.PrintDot(path);
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::remove(path.c_str());
    return ss.str();
}

// biosoup 0.10's Sequence::ReverseAndComplement (what `spoa -s` calls), restated.
std::string biosoup_rc(const std::string &s) {
    std::string o(s.rbegin(), s.rend());
    for (char &c : o) {
        switch (std::toupper(static_cast<unsigned char>(c))) {
        case 'A': c = 'T'; break;
        case 'C': c = 'G'; break;
        case 'G': c = 'C'; break;
        case 'T': case 'U': c = 'A'; break;
        case 'R': c = 'Y'; break;
        case 'Y': c = 'R'; break;
        case 'K': c = 'M'; break;
        case 'M': c = 'K'; break;
        case 'B': c = 'V'; break;
        case 'D': c = 'H'; break;
        case 'H': c = 'D'; break;
        case 'V': c = 'B'; break;
        default: break;
        }
    }
    return o;
}

struct Window {
    std::vector<std::string> seqs, quals;  // quals empty: weights (or 1)
    std::vector<uint32_t> weights;
};

bool run_window(const char *what, int type, const Pen &pn, const Window &w) {
    std::unique_ptr<spoa::AlignmentEngine> eng;
    bool spoa_ok = true;
    try {
        eng = spoa::AlignmentEngine::Create(static_cast<spoa::AlignmentType>(type), pn.m, pn.n, pn.g, pn.e, pn.q, pn.c);
    } catch (const std::invalid_argument &) {
        spoa_ok = false;
    }
    gale::poa::Params p;
    const char *why = nullptr;
    bool ok = gale::poa::make_params(type, pn.m, pn.n, pn.g, pn.e, pn.q, pn.c, &p, &why);
    CHECK(ok == spoa_ok, "%s: Create accepted %d, gale %d", what, spoa_ok, ok);
    if (!ok) return true;

    spoa::Graph sg;
    gale::poa::Graph gg;
    gale::poa::Engine ge(p);
    std::vector<int32_t> spoa_scores;
    for (size_t r = 0; r < w.seqs.size(); ++r) {
        const std::string &s = w.seqs[r];
        int32_t ss = 0, gs = 0;
        spoa::Alignment sa;
        bool threw = false;
        try {
            sa = eng->Align(s, sg, &ss);
        } catch (const std::invalid_argument &) {
            threw = true;
        }
        gale::poa::Graph::Alignment ga;
        bool gok = ge.align(s.data(), static_cast<uint32_t>(s.size()), gg, &gs, &ga);
        CHECK(gok == !threw, "%s: read %zu: SPOA threw %d, gale ok %d", what, r, threw, gok);
        if (threw) return true;
        CHECK(ss == gs, "%s: read %zu (len %zu, graph %zu nodes): score SPOA %d gale %d", what, r, s.size(),
              sg.nodes().size(), ss, gs);
        spoa_scores.push_back(ss);
        CHECK(sa.size() == ga.size(), "%s: read %zu: alignment length SPOA %zu gale %zu", what, r, sa.size(), ga.size());
        for (size_t k = 0; k < sa.size(); ++k)
            CHECK(sa[k].first == ga[k].first && sa[k].second == ga[k].second,
                  "%s: read %zu: alignment step %zu SPOA (%d,%d) gale (%d,%d)", what, r, k, sa[k].first, sa[k].second,
                  ga[k].first, ga[k].second);
        std::vector<uint32_t> wv;
        if (!w.quals.empty()) {
            sg.AddAlignment(sa, s, w.quals[r]);
            for (char qc : w.quals[r]) wv.push_back(static_cast<uint32_t>(qc - 33));
        } else {
            uint32_t wt = w.weights.empty() ? 1 : w.weights[r];
            sg.AddAlignment(sa, s, wt);
            wv.assign(s.size(), wt);
        }
        gg.add_alignment(ga, s.data(), static_cast<uint32_t>(s.size()), wv);
    }
    // the graph
    CHECK(sg.nodes().size() == gg.nodes.size(), "%s: nodes SPOA %zu gale %zu", what, sg.nodes().size(), gg.nodes.size());
    CHECK(sg.edges().size() == gg.edges.size(), "%s: edges SPOA %zu gale %zu", what, sg.edges().size(), gg.edges.size());
    for (size_t k = 0; k < gg.nodes.size(); ++k) {
        const auto &sn = *sg.nodes()[k];
        const auto &gn = gg.nodes[k];
        CHECK(sn.code == gn.code && sn.outedges.size() == gn.out.size() && sn.aligned_nodes.size() == gn.aligned.size(),
              "%s: node %zu differs", what, k);
        for (size_t x = 0; x < gn.out.size(); ++x) {
            const auto &se = *sn.outedges[x];
            const auto &ge2 = gg.edges[gn.out[x]];
            CHECK(se.head->id == ge2.head && se.weight == ge2.weight && se.labels == ge2.labels,
                  "%s: node %zu out-edge %zu differs", what, k, x);
        }
        for (size_t x = 0; x < gn.aligned.size(); ++x)
            CHECK(sn.aligned_nodes[x]->id == gn.aligned[x], "%s: node %zu aligned %zu differs", what, k, x);
    }
    for (size_t k = 0; k < gg.rank_to_node.size(); ++k)
        CHECK(sg.rank_to_node()[k]->id == gg.rank_to_node[k], "%s: rank %zu differs", what, k);
    std::string sc = sg.GenerateConsensus(), gc = gg.generate_consensus();
    CHECK(sc == gc, "%s: consensus differs (SPOA %zu bp, gale %zu bp)", what, sc.size(), gc.size());
    for (int inc = 0; inc < 2; ++inc) {
        auto sm = sg.GenerateMultipleSequenceAlignment(inc != 0);
        auto gm = gg.generate_msa(inc != 0);
        CHECK(sm == gm, "%s: MSA (consensus row %d) differs", what, inc);
    }

    // The same window through the public API (GALE_POA).
    gale_batch *b = nullptr;
    CHECK(gale_batch_create(ctx, GALE_POA, &b) == GALE_OK, "%s: batch: %s", what, gale_last_error());
    const int64_t vals[][2] = {{GALE_P_MATCH, pn.m}, {GALE_P_MISMATCH, pn.n}, {GALE_P_POA_ALGORITHM, type},
                               {GALE_P_POA_GAP_OPEN, pn.g}, {GALE_P_POA_GAP_EXTEND, pn.e}, {GALE_P_POA_GAP_OPEN2, pn.q},
                               {GALE_P_POA_GAP_EXTEND2, pn.c},
                               {GALE_P_POA_OUTPUT,
                                GALE_POA_OUT_CONSENSUS | GALE_POA_OUT_MSA | GALE_POA_OUT_GFA | GALE_POA_OUT_DOT}};
    for (const auto &v : vals)
        CHECK(gale_batch_set(b, (int)v[0], v[1]) == GALE_OK, "%s: set %d: %s", what, (int)v[0], gale_last_error());
    std::vector<const char *> ptrs, qptrs;
    std::vector<int64_t> lens;
    std::vector<int32_t> wts;
    for (size_t r = 0; r < w.seqs.size(); ++r) {
        ptrs.push_back(w.seqs[r].data());
        lens.push_back((int64_t)w.seqs[r].size());
        if (!w.quals.empty()) qptrs.push_back(w.quals[r].data());
        if (!w.weights.empty()) wts.push_back((int32_t)w.weights[r]);
    }
    gale_group grp;
    gale_group_init(&grp);
    grp.n = w.seqs.size();
    grp.seqs = ptrs.data();
    grp.lens = lens.data();
    grp.weights = wts.empty() ? nullptr : wts.data();
    grp.quals = qptrs.empty() ? nullptr : qptrs.data();
    grp.user = 7;
    CHECK(gale_batch_add_group(b, &grp) == GALE_OK, "%s: add_group: %s", what, gale_last_error());
    CHECK(gale_submit(b) == GALE_OK && gale_wait(b) == GALE_OK, "%s: run: %s", what, gale_last_error());
    gale_poa_result pr;
    std::memset(&pr, 0, sizeof pr);
    pr.size = sizeof pr;
    CHECK(gale_result_poa(b, 0, &pr) == GALE_OK, "%s: result: %s", what, gale_last_error());
    CHECK(pr.user == 7 && pr.n_seqs == w.seqs.size(), "%s: API user/n_seqs", what);
    for (size_t r = 0; r < w.seqs.size(); ++r)
        CHECK(pr.scores[r] == spoa_scores[r], "%s: API score %zu: gale %d SPOA %d", what, r, pr.scores[r], spoa_scores[r]);
    CHECK(std::string(pr.consensus, (size_t)pr.consensus_len) == sc, "%s: API consensus differs", what);
    auto sm = sg.GenerateMultipleSequenceAlignment(true);
    CHECK(pr.n_rows == sm.size(), "%s: API MSA rows %zu, SPOA %zu", what, pr.n_rows, sm.size());
    for (size_t r = 0; r < sm.size(); ++r)
        CHECK(std::string(pr.msa + r * pr.row_len, (size_t)pr.row_len) == sm[r], "%s: API MSA row %zu differs", what, r);
    CHECK(std::string(pr.gfa, (size_t)pr.gfa_len) == gg.gfa(), "%s: API GFA differs from the kernel's", what);
    CHECK(std::string(pr.dot, (size_t)pr.dot_len) == spoa_dot(sg), "%s: API DOT differs from SPOA's PrintDot", what);
    CHECK(pr.reversed == nullptr, "%s: reversed flags without GALE_P_POA_STRAND_AMBIGUOUS", what);
    gale_batch_destroy(b);
    return true;
}

// `spoa -s` (SPOA 4.0.8's main.cpp) with libspoa, against GALE_POA with
// GALE_P_POA_STRAND_AMBIGUOUS: each read aligned as it is and reverse complemented,
// the reverse complement added only when strictly better (else the read complemented
// twice, as spoa leaves it); scores, strands, consensus, MSA and DOT compared.
bool run_strands(const char *what, int type, const Pen &pn, const Window &w) {
    std::unique_ptr<spoa::AlignmentEngine> eng;
    try {
        eng = spoa::AlignmentEngine::Create(static_cast<spoa::AlignmentType>(type), pn.m, pn.n, pn.g, pn.e, pn.q, pn.c);
    } catch (const std::invalid_argument &) {
        return true;  // run_window checked the refusal
    }
    spoa::Graph sg;
    std::vector<int32_t> scores;
    std::vector<uint8_t> rev;
    for (size_t r = 0; r < w.seqs.size(); ++r) {
        std::string s = w.seqs[r], q = w.quals.empty() ? std::string() : w.quals[r];
        int32_t sf = 0, sr = 0;
        spoa::Alignment a = eng->Align(s, sg, &sf);
        s = biosoup_rc(s);
        std::reverse(q.begin(), q.end());
        spoa::Alignment ar = eng->Align(s, sg, &sr);
        if (sf >= sr) {
            s = biosoup_rc(s);
            std::reverse(q.begin(), q.end());
            rev.push_back(0);
            scores.push_back(sf);
        } else {
            a = ar;
            rev.push_back(1);
            scores.push_back(sr);
        }
        if (!q.empty()) sg.AddAlignment(a, s, q);
        else sg.AddAlignment(a, s, w.weights.empty() ? 1u : w.weights[r]);
    }
    const std::string sc = sg.GenerateConsensus();
    const auto sm = sg.GenerateMultipleSequenceAlignment(true);
    const std::string sd = spoa_dot(sg);

    gale_batch *b = nullptr;
    CHECK(gale_batch_create(ctx, GALE_POA, &b) == GALE_OK, "%s: batch: %s", what, gale_last_error());
    const int64_t vals[][2] = {{GALE_P_MATCH, pn.m}, {GALE_P_MISMATCH, pn.n}, {GALE_P_POA_ALGORITHM, type},
                               {GALE_P_POA_GAP_OPEN, pn.g}, {GALE_P_POA_GAP_EXTEND, pn.e}, {GALE_P_POA_GAP_OPEN2, pn.q},
                               {GALE_P_POA_GAP_EXTEND2, pn.c}, {GALE_P_POA_STRAND_AMBIGUOUS, 1},
                               {GALE_P_POA_OUTPUT, GALE_POA_OUT_CONSENSUS | GALE_POA_OUT_MSA | GALE_POA_OUT_DOT}};
    for (const auto &v : vals)
        CHECK(gale_batch_set(b, (int)v[0], v[1]) == GALE_OK, "%s: set %d: %s", what, (int)v[0], gale_last_error());
    std::vector<const char *> ptrs, qptrs;
    std::vector<int64_t> lens;
    std::vector<int32_t> wts;
    for (size_t r = 0; r < w.seqs.size(); ++r) {
        ptrs.push_back(w.seqs[r].data());
        lens.push_back((int64_t)w.seqs[r].size());
        if (!w.quals.empty()) qptrs.push_back(w.quals[r].data());
        if (!w.weights.empty()) wts.push_back((int32_t)w.weights[r]);
    }
    gale_group grp;
    gale_group_init(&grp);
    grp.n = w.seqs.size();
    grp.seqs = ptrs.data();
    grp.lens = lens.data();
    grp.weights = wts.empty() ? nullptr : wts.data();
    grp.quals = qptrs.empty() ? nullptr : qptrs.data();
    CHECK(gale_batch_add_group(b, &grp) == GALE_OK, "%s: add_group: %s", what, gale_last_error());
    CHECK(gale_submit(b) == GALE_OK && gale_wait(b) == GALE_OK, "%s: run: %s", what, gale_last_error());
    gale_poa_result pr;
    std::memset(&pr, 0, sizeof pr);
    pr.size = sizeof pr;
    CHECK(gale_result_poa(b, 0, &pr) == GALE_OK, "%s: result: %s", what, gale_last_error());
    CHECK(pr.n_seqs == w.seqs.size() && pr.reversed != nullptr, "%s: -s: n_seqs / reversed", what);
    for (size_t r = 0; r < w.seqs.size(); ++r)
        CHECK(pr.scores[r] == scores[r] && pr.reversed[r] == rev[r], "%s: -s: read %zu: gale %d/%d, spoa %d/%d", what,
              r, pr.scores[r], pr.reversed[r], scores[r], rev[r]);
    CHECK(std::string(pr.consensus, (size_t)pr.consensus_len) == sc, "%s: -s: consensus differs", what);
    CHECK(pr.n_rows == sm.size(), "%s: -s: MSA rows %zu, SPOA %zu", what, pr.n_rows, sm.size());
    for (size_t r = 0; r < sm.size(); ++r)
        CHECK(std::string(pr.msa + r * pr.row_len, (size_t)pr.row_len) == sm[r], "%s: -s: MSA row %zu differs", what, r);
    CHECK(std::string(pr.dot, (size_t)pr.dot_len) == sd, "%s: -s: DOT differs", what);
    gale_batch_destroy(b);
    return true;
}


}  // namespace

int main() {
    uint64_t seed = tu_seed("poa_spoa");
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 2;
    if (gale_ctx_create(&ctx, &o) != GALE_OK) {
        std::printf("FAIL: gale_ctx_create: %s\n", gale_last_error());
        return 1;
    }
    double scale = tu_scale();
    const Pen fixed[] = {
        {5, -4, -8, -6, -10, -4},  // spoa's defaults: convex
        {8, -6, -8, -8, -8, -8},   // cudapoa's sample scoring: linear
        {5, -4, -8, -8, -8, -8},   // linear
        {5, -4, -8, -2, -8, -2},   // affine
        {2, -4, -4, -2, -24, -1},  // convex (minimap2-like)
        {1, -1, -1, -1, -1, -1},   // linear, many ties
        {3, -5, -4, -2, -10, -1},  // convex
    };
    const size_t n_fixed = sizeof fixed / sizeof fixed[0];
    int cases = 0;

    // Edge cases.
    {
        Window w;
        w.seqs = {"ACGT", "ACGT"};
        for (int t = 0; t < 3; ++t)
            for (const Pen &pn : fixed) cases += run_window("two equal reads", t, pn, w);
        w.seqs = {"A", "C", "G", "T", "A"};
        for (int t = 0; t < 3; ++t)
            for (const Pen &pn : fixed) cases += run_window("single bases", t, pn, w);
        w.seqs = {"AAAAAAAA", "TTTTTTTT", "AAAATTTT", "acgtACGT", "ACGTNNNNACGT"};
        for (int t = 0; t < 3; ++t)
            for (const Pen &pn : fixed) cases += run_window("unrelated reads, lower case, N", t, pn, w);
        w.seqs = {"ACGTACGT", "", "ACGAACGT"};
        for (int t = 0; t < 3; ++t) cases += run_window("an empty read", t, fixed[0], w);
        Pen bad = {5, -4, 1, -6, -10, -4};
        cases += run_window("positive gap open (refused)", 0, bad, w);
    }

    // Random windows.
    long n_windows = tu_scaled(60, 6);
    long max_len = tu_scaled(5000, 300);
    for (long k = 0; k < n_windows; ++k) {
        tu::Rng r(seed, static_cast<uint64_t>(k));
        Window w;
        // Mostly short windows; every 10th one long with few reads (SPOA's and gale's
        // scalar DP cost reads x graph nodes x length).
        long len, n_reads;
        if (k % 10 == 9) {
            len = tu_range(r.c(), 1000, max_len > 1000 ? max_len : 1000);
            n_reads = tu_range(r.c(), 2, 6);
        } else {
            len = tu_logrange(r.c(), 50, 600);
            n_reads = tu_logrange(r.c(), 2, k % 3 == 0 ? 100 : 30);
        }
        double rate = 0.01 + 0.19 * tu_unif(r.c());
        std::string anc = tu::bases(r, len);
        tu_mut mut = tu_mut_rate(rate);
        for (long i = 0; i < n_reads; ++i) {
            std::string s = tu::mutate(r, anc, mut);
            if (tu_chance(r.c(), 0.2)) {  // ragged ends, as reads of a window
                long cut = tu_range(r.c(), 0, (long)s.size() / 5);
                s = tu_chance(r.c(), 0.5) ? s.substr((size_t)cut) : s.substr(0, s.size() - (size_t)cut);
            }
            if (s.empty()) s = "A";
            w.seqs.push_back(s);
        }
        int wmode = (int)tu_below(r.c(), 3);  // 0 plain, 1 weights, 2 qualities
        if (wmode == 1)
            for (long i = 0; i < n_reads; ++i) w.weights.push_back((uint32_t)tu_range(r.c(), 1, 60));
        if (wmode == 2)
            for (const std::string &s : w.seqs) {
                std::string qs(s.size(), '!');
                for (char &qc : qs) qc = (char)('!' + tu_range(r.c(), 0, 60));
                w.quals.push_back(qs);
            }
        int type = (int)tu_below(r.c(), 3);
        const Pen pn = random_pen(r, fixed, n_fixed);
        char what[200];
        std::snprintf(what, sizeof what, "window %ld (%ld reads of ~%ld bp, %.1f%%, %s, m%d n%d g%d e%d q%d c%d, w%d)", k,
                      n_reads, len, 100 * rate, kTypeName[type], pn.m, pn.n, pn.g, pn.e, pn.q, pn.c, wmode);
        cases += run_window(what, type, pn, w);
        // Both strands: half the reads reverse-complemented, a few IUPAC / lower-case bytes.
        if (w.seqs.size() <= 40 && len <= 1000) {
            for (std::string &s : w.seqs) {
                if (tu_chance(r.c(), 0.5)) s = biosoup_rc(s);
                for (char &c : s)
                    if (tu_chance(r.c(), 0.01)) c = "acgtuNRYKMSWBDHVn"[tu_below(r.c(), 17)];
            }
            for (std::string &q : w.quals) std::reverse(q.begin(), q.end());
            std::string sw = std::string(what) + " -s";
            cases += run_strands(sw.c_str(), type, pn, w);
        }
    }
    gale_ctx_destroy(ctx);
    std::printf("poa_spoa: %d windows, %d failures (scale %.2f)\n", cases, failures, scale);
    return failures ? 1 : 0;
}
