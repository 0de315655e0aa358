// poa_core_host.cpp - the CUDA POA kernel's per-window code (cuda/common/poa_core.cuh)
// run on the host against the CPU backend (public API), bit for bit: every read's score,
// the cells, and the graph rebuilt from the core's projected alignments the way
// cuda/poa.cu rebuilds it (poa::Graph::add_projected), whose consensus, MSA rows and GFA
// (node ids, edges, weights, paths) must equal the CPU backend's. No GPU and no nvcc.
// The window's work memory is one heap block of exactly pg_layout's size, filled with a
// random byte first (a GPU slot is reused without clearing), so ASan catches an access
// outside it and a read of a stale value changes the result.
//
// Groups: one thread for most windows (PG_GROUP=1 or 2 forces groups of 4 or 32 on all); groups of 4 and 32 host threads in lockstep
// (LaneGroup: pthread barriers for the warp's syncs and reductions) for the smaller
// ones: the columns' split over the lanes, the two-pass scan of the horizontal gaps and
// the row maximum's reduction must give the CPU kernel's numbers.
//
// A quarter of the windows run first with a random node cap (pg_layout's node_cap, as the
// kernel's first pass): one the graph outgrows must end with kPgCapacity (and then run
// with the bound), one it does not must give the CPU's results.
//
// Cases: windows from a printed seed (GALE_TEST_SEED; GALE_TEST_SCALE scales the count):
// local, global and semi-global; linear, affine and convex penalties (random, SPOA's
// defaults, cudapoa's sample scoring); 1-12 reads of 1-1,500 bases, 0-25% divergence,
// empty reads, N runs and lowercase, per-sequence weights or qualities.
#include "testutil.h"
#include "testgen.h"
#include "lane_group.hpp"

#include "cuda/common/poa_core.cuh"
#include "gale.h"

#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace gale;
using namespace gale::poag;

namespace {

struct HostGroup {
    static constexpr int size = 1;
    int tid() const { return 0; }
    void sync() const {}
    int32_t max(int32_t v) const { return v; }
    int32_t bcast(int32_t v) const { return v; }
    bool stop() const { return false; }
};

// N host threads in lockstep, one per lane: LaneGroup (tests/common/lane_group.hpp).

struct Win {
    poa::Params P;
    PgLayout lay;
    char *work;
    uint32_t n;
    std::string bases;
    std::vector<int64_t> lens;
    int32_t *proj;
    PgRead *out;
};

struct LaneRes {
    int32_t st;
    uint64_t cells;
};

template <int N>
struct LaneArg {
    Win *w;
    LaneShared *sh;
    int lane;
    LaneRes res;
};

template <int N>
void *lane_main(void *arg) {
    LaneArg<N> *a = static_cast<LaneArg<N> *>(arg);
    LaneGroup<N> g{a->sh, a->lane};
    Win &w = *a->w;
    const PgMem M = pg_mem(w.work, w.lay);
    a->res.st = pg_window(g, w.P, w.lay, M, w.n, reinterpret_cast<const uint8_t *>(w.bases.data()), w.lens.data(), w.proj, w.out, &a->res.cells);
    return nullptr;
}

template <int N>
LaneRes run_lanes(Win &w, bool &agree) {
    LaneShared sh;
    pthread_barrier_init(&sh.bar, nullptr, N);
    pthread_t th[N];
    LaneArg<N> args[N];
    for (int i = 0; i < N; ++i) {
        args[i] = LaneArg<N>{&w, &sh, i, {0, 0}};
        REQUIRE(pthread_create(&th[i], nullptr, lane_main<N>, &args[i]) == 0);
    }
    for (int i = 0; i < N; ++i) pthread_join(th[i], nullptr);
    pthread_barrier_destroy(&sh.bar);
    for (int i = 1; i < N; ++i) agree = agree && args[i].res.st == args[0].res.st && args[i].res.cells == args[0].res.cells;
    return args[0].res;
}

struct Pen {
    int m, n, g, e, q, c;
};

}  // namespace

int main() {
    const uint64_t seed = tu_seed("poa_core_host");
    tu::Rng r(seed);
    const long n_windows = tu_scaled(500, 20);
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    gale_ctx *ctx = nullptr;
    REQUIRE_OK(gale_ctx_create(&ctx, &o));
    long bad = 0, done = 0, lanes4 = 0, lanes32 = 0, n_capped_out = 0, n_capped_ok = 0;
    long by_type[3] = {0, 0, 0}, by_sub[3] = {0, 0, 0};
    for (long wi = 0; wi < n_windows; ++wi) {
        Pen pn;
        const int pick = (int)r.below(8);
        if (pick == 0) pn = Pen{5, -4, -8, -6, -10, -4};  // spoa's defaults (convex)
        else if (pick == 1) pn = Pen{8, -6, -8, -8, -8, -8};  // cudapoa's sample scoring (linear)
        else if (pick == 2) pn = Pen{5, -4, -8, -6, -8, -6};  // affine
        else if (pick == 3) pn = Pen{(int)r.range(0, 127), (int)r.range(-128, 127), (int)r.range(-128, 0),
                                     (int)r.range(-128, 0), (int)r.range(-128, 0), (int)r.range(-128, 0)};
        else pn = Pen{(int)r.range(1, 12), (int)r.range(-12, 0), (int)r.range(-16, 0), (int)r.range(-8, 0),
                      (int)r.range(-24, 0), (int)r.range(-4, 0)};
        const int type = (int)r.below(3);
        const char *why = nullptr;
        poa::Params P;
        REQUIRE(poa::make_params(type, (int8_t)pn.m, (int8_t)pn.n, (int8_t)pn.g, (int8_t)pn.e, (int8_t)pn.q,
                                 (int8_t)pn.c, &P, &why));
        // the window: mutated copies of an ancestor
        const int64_t alen = r.chance(0.1) ? r.range(400, 1500) : r.logrange(1, 400);
        const std::string anc = tu::bases(r, alen);
        const uint32_t n_reads = (uint32_t)r.range(1, 12);
        const double rate = r.unit() * 0.25;
        const tu_mut mut = tu_mut_rate(rate);
        std::vector<std::string> reads(n_reads), quals(n_reads);
        std::vector<int32_t> weights(n_reads);
        const bool use_q = r.chance(0.3), use_w = !use_q && r.chance(0.3);
        const int opts = r.chance(0.2) ? (TU_LOWER | TU_NRUNS) : 0;
        for (uint32_t k = 0; k < n_reads; ++k) {
            reads[k] = r.chance(0.05) ? std::string() : tu::mutate(r, anc, mut);
            if (opts && !reads[k].empty())
                tu_decorate(r.c(), &reads[k][0], (int64_t)reads[k].size(), 0, (int64_t)reads[k].size(), opts);
            quals[k].resize(reads[k].size());
            for (char &ch : quals[k]) ch = (char)r.range('!', '~');
            weights[k] = (int32_t)r.range(0, 100);
        }
        // the CPU backend
        std::vector<const char *> sp(n_reads), qp(n_reads);
        std::vector<int64_t> lens(n_reads);
        for (uint32_t k = 0; k < n_reads; ++k)
            sp[k] = reads[k].data(), qp[k] = quals[k].data(), lens[k] = (int64_t)reads[k].size();
        gale_batch *b = nullptr;
        REQUIRE_OK(gale_batch_create(ctx, GALE_POA, &b));
        REQUIRE_OK(gale_batch_set(b, GALE_P_MATCH, pn.m));
        REQUIRE_OK(gale_batch_set(b, GALE_P_MISMATCH, pn.n));
        REQUIRE_OK(gale_batch_set(b, GALE_P_POA_ALGORITHM, type));
        REQUIRE_OK(gale_batch_set(b, GALE_P_POA_GAP_OPEN, pn.g));
        REQUIRE_OK(gale_batch_set(b, GALE_P_POA_GAP_EXTEND, pn.e));
        REQUIRE_OK(gale_batch_set(b, GALE_P_POA_GAP_OPEN2, pn.q));
        REQUIRE_OK(gale_batch_set(b, GALE_P_POA_GAP_EXTEND2, pn.c));
        REQUIRE_OK(gale_batch_set(b, GALE_P_POA_OUTPUT, GALE_POA_OUT_CONSENSUS | GALE_POA_OUT_MSA | GALE_POA_OUT_GFA));
        gale_group gg;
        gale_group_init(&gg);
        gg.n = n_reads;
        gg.seqs = sp.data();
        gg.lens = lens.data();
        gg.weights = use_w ? weights.data() : nullptr;
        gg.quals = use_q ? qp.data() : nullptr;
        REQUIRE_OK(gale_batch_add_group(b, &gg));
        REQUIRE_OK(gale_submit(b));
        const gale_status wst = gale_wait(b);
        gale_poa_result cr;
        std::memset(&cr, 0, sizeof cr);
        cr.size = sizeof cr;
        if (wst != GALE_OK || gale_result_poa(b, 0, &cr) != GALE_OK) {
            gale_batch_destroy(b);  // refused by the CPU kernel (overflow): the core must say so too
            continue;
        }
        // the core
        std::vector<uint8_t> used(256, 0);
        uint64_t codes = 0;
        for (const std::string &s : reads)
            for (char ch : s)
                if (!used[(unsigned char)ch]) used[(unsigned char)ch] = 1, ++codes;
        Win w;
        w.P = P;
        // a quarter of the windows with a node cap (as cuda/poa.cu's first pass), often too
        // small: then the core must say so (kPgCapacity) and the bound must do
        const bool capped = r.chance(0.25);
        uint64_t sum = 0;
        for (int64_t L : lens) sum += (uint64_t)L;
        const uint64_t cap = capped ? (uint64_t)r.range(1, (int64_t)sum + 2) : 0;
        w.lay = pg_layout(lens.data(), n_reads, codes, P.subtype, cap);
        std::vector<char> work(w.lay.bytes);
        std::memset(work.data(), (int)r.below(256), work.size());
        w.work = work.data();
        w.n = n_reads;
        for (uint32_t k = 0; k < n_reads; ++k) w.bases += reads[k];
        w.lens = lens;
        std::vector<int32_t> proj(sum + 1, 0x5a5a5a5a);
        std::vector<PgRead> out(n_reads);
        w.proj = proj.data();
        w.out = out.data();
        bool agree = true;
        LaneRes res{0, 0};
        const bool small = sum <= 600;
        const int which = getenv("PG_GROUP") ? atoi(getenv("PG_GROUP")) : small ? (int)r.below(3) : 0;
        if (which == 1) {
            res = run_lanes<4>(w, agree);
            ++lanes4;
        } else if (which == 2) {
            res = run_lanes<32>(w, agree);
            ++lanes32;
        } else {
            HostGroup g;
            const PgMem M = pg_mem(w.work, w.lay);
            res.st = pg_window(g, P, w.lay, M, n_reads, reinterpret_cast<const uint8_t *>(w.bases.data()), lens.data(), w.proj, w.out, &res.cells);
        }
        if (capped && res.st == kPgCapacity) {  // too small: the bound, as cuda/poa.cu's second pass
            ++n_capped_out;
            w.lay = pg_layout(lens.data(), n_reads, codes, P.subtype);
            work.assign(w.lay.bytes, (char)r.below(256));
            w.work = work.data();
            HostGroup g;
            const PgMem M = pg_mem(w.work, w.lay);
            res.cells = 0;
            res.st = pg_window(g, P, w.lay, M, n_reads, reinterpret_cast<const uint8_t *>(w.bases.data()), lens.data(),
                               w.proj, w.out, &res.cells);
        } else if (capped) {
            ++n_capped_ok;
        }
        // the host's side: the graph from the projections, then consensus, MSA, GFA
        bool same = agree && res.st == kPgOk && res.cells == cr.cells && cr.n_seqs == n_reads;
        std::string why_not = !agree ? "lanes disagree" : res.st != kPgOk ? "status" : "cells";
        if (same) {
            poa::Graph graph;
            std::vector<uint32_t> wts;
            uint64_t at = 0;
            for (uint32_t k = 0; k < n_reads && same; ++k) {
                if (out[k].score != cr.scores[k]) same = false, why_not = "score of read " + std::to_string(k);
                const uint32_t L = (uint32_t)lens[k];
                if (L > 0) {
                    poa::weights_of(use_q ? reinterpret_cast<const uint8_t *>(qp[k]) : nullptr, use_w ? weights[k] : 1, L,
                                    wts);
                    graph.add_projected(proj.data() + at, out[k].vf, out[k].vb, reads[k].data(), L, wts);
                }
                at += L;
            }
            if (same) {
                const std::string cons = graph.generate_consensus();
                std::vector<std::string> rows = graph.generate_msa(true);
                std::string msa;
                for (const std::string &row : rows) msa += row;
                const std::string gfa = graph.gfa();
                if (cons != std::string(cr.consensus, (size_t)cr.consensus_len)) same = false, why_not = "consensus";
                else if (rows.size() != cr.n_rows || msa != std::string(cr.msa, cr.n_rows * (size_t)cr.row_len))
                    same = false, why_not = "msa";
                else if (gfa != std::string(cr.gfa, (size_t)cr.gfa_len)) same = false, why_not = "gfa";
            }
        }
        if (!same && ++bad <= 10)
            std::fprintf(stderr, "FAIL window %ld (group %d): %s; type %d subtype %d m %d n %d g %d e %d q %d c %d, %u reads, "
                                 "ancestor %lld, rate %.3f, status %d, cells %llu vs %llu\n",
                         wi, which == 0 ? 1 : which == 1 ? 4 : 32, why_not.c_str(), type, P.subtype, pn.m, pn.n, pn.g,
                         pn.e, pn.q, pn.c, n_reads, (long long)alen, rate, res.st, (unsigned long long)res.cells,
                         (unsigned long long)cr.cells);
        ++done;
        ++by_type[type];
        ++by_sub[P.subtype];
        gale_batch_destroy(b);
    }
    gale_ctx_destroy(ctx);
    if (bad) {
        std::printf("poa_core_host: %ld of %ld windows differ (seed %llu)\n", bad, done, (unsigned long long)seed);
        return 1;
    }
    if (done < n_windows / 2 || by_sub[0] == 0 || by_sub[1] == 0 || by_sub[2] == 0 || lanes4 + lanes32 == 0 ||
        n_capped_out == 0 || n_capped_ok == 0) {
        std::printf("poa_core_host: too few windows of some kind (%ld done) (seed %llu)\n", done,
                    (unsigned long long)seed);
        return 1;
    }
    std::printf("poa_core_host: all %ld windows equal the CPU backend (%ld on 4 threads, %ld on 32; local %ld, global %ld, "
                "semi-global %ld; linear %ld, affine %ld, convex %ld; node cap: %ld held, %ld too small) (seed %llu)\n",
                done, lanes4, lanes32, by_type[0], by_type[1], by_type[2], by_sub[0], by_sub[1], by_sub[2], n_capped_ok,
                n_capped_out,
                (unsigned long long)seed);
    return 0;
}
