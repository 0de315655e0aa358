// zdrop_core_host.cpp - the CUDA Z-drop kernel's per-task code (cuda/common/zdrop_core.cuh)
// run on the host with a group of one thread, against the CPU backend (public API), bit
// for bit in every field of ksw_extz_t and the CIGAR. No GPU and no nvcc. Each task's
// memory is laid out as cuda/zdrop.cu lays it out (zd_layout), every region its own heap
// block of exactly its size, mem zeroed and the rest filled with a random byte first (a
// GPU slot is reused without clearing), so ASan catches an access outside a region and a
// read of a stale value changes the result.
//
// The same code then runs on groups of 4 and 32 host threads in lockstep (LaneGroup:
// pthread barriers for the warp's syncs, shuffles and reductions), on shorter pairs: the
// lanes' split of each anti-diagonal, the shuffled carry and the priority reduction of
// the maximum must give the one-thread result, which the GPU's warp then reproduces.
//
// Cases: >= 2,000 random pairs (GALE_TEST_SCALE scales them; seed printed, GALE_TEST_SEED
// reproduces) in batches of random parameters: the three functions, bands from 0 to none,
// Z-drop from 0 to none, end bonus, minimap2's flag words and random ones, simple and
// generic matrices, extreme penalties (8-bit wrap), lengths 0-3,000, divergence 0-30%,
// tails, N and lowercase; for exts2 (since 0.7) junction arrays (gale_task.junc) with
// random GALE_ZD_JUNC_* bits and junc_bonus from -128 to 127, introns inserted, beside
// tasks without one in the same batch.
#include "testutil.h"
#include "testgen.h"
#include "lane_group.hpp"

#include "cuda/common/zdrop_core.cuh"

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace gale;
using namespace gale::zdg;

namespace {

// The kernel's group interface with one thread.
struct HostGroup {
    static constexpr int size = 1;
    int tid() const { return 0; }
    void sync() const {}
    int32_t shfl_up(int32_t, int32_t carry) const { return carry; }
    int32_t last(int32_t v) const { return v; }
    int32_t max(int32_t v) const { return v; }
    uint64_t min(uint64_t v) const { return v; }
    bool stop(int) const { return false; }
};

// A group of N host threads, one per lane: LaneGroup (tests/common/lane_group.hpp).

struct LaneJob {
    const ZdropParams *P;
    int ql, tl;
    const uint8_t *q, *t, *junc;
    ZdMem M;
    ZdOut out[32];
    LaneShared *sh;
};

template <int N>
struct LaneArg {
    LaneJob *job;
    int lane;
};

template <int N>
void *lane_main(void *arg) {
    LaneArg<N> *a = static_cast<LaneArg<N> *>(arg);
    LaneJob &j = *a->job;
    LaneGroup<N> g{j.sh, a->lane};
    ZdOut &o = j.out[a->lane];
    if (j.P->variant == 0) zd_task<kZdExtz2>(g, *j.P, 5, j.P->mat, j.ql, j.q, j.tl, j.t, j.junc, j.M, o);
    else if (j.P->variant == 1) zd_task<kZdExtd2>(g, *j.P, 5, j.P->mat, j.ql, j.q, j.tl, j.t, j.junc, j.M, o);
    else zd_task<kZdExts2>(g, *j.P, 5, j.P->mat, j.ql, j.q, j.tl, j.t, j.junc, j.M, o);
    return nullptr;
}

// Runs the task on N lanes; every lane's ZdOut must be the same (lane 0's is returned).
template <int N>
ZdOut run_lanes(const ZdropParams &P, int ql, const uint8_t *q, int tl, const uint8_t *t, const uint8_t *junc,
                const ZdMem &M, bool &lanes_agree) {
    LaneShared sh;
    pthread_barrier_init(&sh.bar, nullptr, N);
    LaneJob job{&P, ql, tl, q, t, junc, M, {}, &sh};
    pthread_t th[N];
    LaneArg<N> args[N];
    for (int i = 0; i < N; ++i) {
        args[i] = LaneArg<N>{&job, i};
        REQUIRE(pthread_create(&th[i], nullptr, lane_main<N>, &args[i]) == 0);
    }
    for (int i = 0; i < N; ++i) pthread_join(th[i], nullptr);
    pthread_barrier_destroy(&sh.bar);
    lanes_agree = true;
    for (int i = 1; i < N; ++i) {
        ZdOut a = job.out[0], b = job.out[i];
        a.n_cigar = b.n_cigar = 0;  // thread 0 alone backtracks
        lanes_agree &= std::memcmp(&a, &b, sizeof a) == 0;
    }
    return job.out[0];
}

uint8_t code(char c) {
    switch (c) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': return 3;
    default: return 4;
    }
}

struct Case {
    std::string q, t;
    bool has_junc = false;
    std::vector<uint8_t> junc;  // t.size() bytes when has_junc
};

std::string rnd_seq(tu::Rng &r, int64_t n) {
    std::string s((size_t)n, 'A');
    for (auto &c : s) c = r.chance(0.01) ? "Nacgt"[r.below(5)] : "ACGT"[r.below(4)];
    return s;
}

std::string mutate(tu::Rng &r, const std::string &s, double div) {
    std::string o;
    for (char c : s) {
        const double u = r.unit();
        if (u < div / 3) continue;
        if (u < 2 * div / 3) o += "ACGT"[r.below(4)];
        if (u >= 2 * div / 3 && u < div) { o += "ACGT"[r.below(4)]; continue; }
        o += c;
    }
    return o;
}

template <class T>
T *filled(std::vector<std::vector<uint8_t>> &keep, uint64_t bytes, int fill) {
    keep.emplace_back((size_t)bytes + 1, (uint8_t)fill);
    return reinterpret_cast<T *>(keep.back().data());
}

}  // namespace

int main() {
    const uint64_t seed = tu_seed("zdrop_core_host");
    tu::Rng r(seed);
    gale_ctx *ctx = nullptr;
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = GALE_BACKEND_CPU;
    o.threads = 2;
    REQUIRE_OK(gale_ctx_create(&ctx, &o));
    const long n_cases = tu_scaled(2000, 100), n_lanes = tu_scaled(60, 12);
    long done = 0, bad = 0, lanes_done = 0, with_junc = 0;
    while (done < n_cases + n_lanes) {
        const bool lanes = done >= n_cases;  // the second part: groups of 4 and 32 threads
        const int variant = (int)r.below(3);
        const int kind = variant == 0 ? GALE_ZDROP_EXTZ2 : variant == 1 ? GALE_ZDROP_EXTD2 : GALE_ZDROP_EXTS2;
        const bool extreme = r.chance(0.05);
        int a = extreme ? (int)r.range(-5, 127) : (int)r.range(1, 4), b = extreme ? (int)r.range(-5, 128) : (int)r.range(1, 8);
        int amb = r.chance(0.2) ? 0 : (int)r.range(1, 3), q = extreme ? (int)r.range(0, 127) : (int)r.range(0, 8);
        int e = extreme ? (int)r.range(1, 127) : (int)r.range(1, 4), q2 = extreme ? (int)r.range(0, 127) : (int)r.range(8, 40);
        int e2 = (int)r.range(0, 3);
        const double uw = r.unit();
        int w = uw < 0.3 ? -1 : uw < 0.5 ? (int)r.range(0, 20) : (int)r.range(20, 600);
        int zdrop = r.chance(0.3) ? -1 : (int)r.range(0, 500), end_bonus = r.chance(0.5) ? -1 : (int)r.range(0, 100);
        static const int kMm2[] = {0, 0x40, 0x40 | 0x02 | 0x80, 0x08, 0x08 | 0x10, 0x01, 0x01 | 0x40, 0x02};
        int flag = r.chance(0.7) ? kMm2[r.below(8)] : (int)(r.below(256) & 0xdf);
        if (variant == 2) flag |= (int)r.below(8) << 8;
        if (r.chance(0.2)) flag |= 0x04;
        const bool matrix = r.chance(0.2);
        // exts2's junctions: junc_bonus over its whole range, arrays in most batches
        const int junc_bonus = r.chance(0.7) ? (int)r.range(0, 20) : (int)r.range(-128, 127);
        const bool juncs = variant == 2 && r.chance(0.7);
        int8_t mat[25];
        for (int i = 0; i < 25; ++i) mat[i] = (int8_t)r.range(-6, 4);
        gale_batch *bt = nullptr;
        REQUIRE_OK(gale_batch_create(ctx, kind, &bt));
        REQUIRE_OK(gale_batch_set(bt, GALE_P_MATCH, a));
        REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_MISMATCH, b));
        REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_N, amb));
        REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_GAP_OPEN, q));
        REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_GAP_EXTEND, e));
        if (variant >= 1) REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_GAP_OPEN2, q2));
        if (variant == 1) REQUIRE_OK(gale_batch_set(bt, GALE_P_PENALTY_GAP_EXTEND2, e2));
        if (variant <= 1) {
            REQUIRE_OK(gale_batch_set(bt, GALE_P_BAND, w));
            REQUIRE_OK(gale_batch_set(bt, GALE_P_END_BONUS, end_bonus));
        }
        REQUIRE_OK(gale_batch_set(bt, GALE_P_ZDROP, zdrop));
        REQUIRE_OK(gale_batch_set(bt, GALE_P_ZDROP_FLAGS, flag));
        REQUIRE_OK(gale_batch_set(bt, GALE_P_ZDROP_MATRIX, matrix));
        for (int i = 0; i < 25; ++i) REQUIRE_OK(gale_batch_set(bt, GALE_P_ZDROP_MAT(i / 5, i % 5), mat[i]));
        if (variant == 2) REQUIRE_OK(gale_batch_set(bt, GALE_P_JUNC_BONUS, junc_bonus));
        // the kernel's parameter struct, as lib/kinds.cpp builds it
        ZdropParams P;
        P.variant = variant, P.w = w, P.zdrop = zdrop, P.end_bonus = end_bonus, P.flag = flag;
        P.q = (int8_t)q, P.e = (int8_t)e, P.q2 = (int8_t)q2, P.e2 = (int8_t)e2, P.noncan = 9;
        P.junc_bonus = variant == 2 ? (int8_t)junc_bonus : 0;
        for (int i = 0; i < 25; ++i)
            P.mat[i] = matrix ? mat[i] : (int8_t)(i / 5 == 4 || i % 5 == 4 ? -amb : i / 5 == i % 5 ? a : -b);
        std::vector<Case> cs((size_t)r.range(1, 20));
        for (auto &c : cs) {
            const int64_t n = r.chance(0.05) ? r.range(0, 3)
                              : lanes       ? r.range(3, r.chance(0.2) ? 250 : 100)
                              : r.chance(0.7) ? r.range(3, 300)
                                              : r.range(300, 3000);
            c.q = rnd_seq(r, n);
            c.t = mutate(r, c.q, r.unit() * 0.3);
            if (r.chance(0.3)) c.t += rnd_seq(r, r.range(1, lanes ? 60 : 400));
            if (r.chance(0.1)) std::swap(c.q, c.t);
            if (juncs && c.t.size() > 10 && r.chance(0.5)) {  // an intron, canonical or not
                const size_t at = (size_t)r.below(c.t.size());
                std::string intron = rnd_seq(r, r.range(10, lanes ? 60 : 300));
                if (r.chance(0.7)) intron = (r.chance(0.5) ? "GT" : "CT") + intron + (r.chance(0.5) ? "AG" : "AC");
                c.t.insert(at, intron);
            }
            if (juncs && r.chance(0.8)) {  // sparse marks, or any bits anywhere
                c.has_junc = true;
                c.junc.assign(c.t.size(), 0);
                const double dense = r.chance(0.3) ? 0.5 : 0.05;
                for (auto &j : c.junc)
                    if (r.chance(dense)) j = (uint8_t)r.range(1, 15);
            }
            gale_task t;
            gale_task_init(&t);
            t.h = c.t.data(), t.h_len = (int64_t)c.t.size(), t.v = c.q.data(), t.v_len = (int64_t)c.q.size();
            t.junc = c.has_junc ? c.junc.data() : nullptr;
            REQUIRE_OK(gale_batch_add(bt, &t));
        }
        REQUIRE_OK(gale_submit(bt));
        REQUIRE_OK(gale_wait(bt));
        for (size_t i = 0; i < cs.size(); ++i) {
            const Case &c = cs[i];
            gale_zdrop_result z;
            std::memset(&z, 0, sizeof z);
            z.size = sizeof z;
            REQUIRE_OK(gale_result_zdrop(bt, i, &z));
            const uint32_t *cig = nullptr;
            size_t n_ops = 0;
            REQUIRE_OK(gale_result_cigar(bt, i, &cig, &n_ops));
            const int ql = (int)c.q.size(), tl = (int)c.t.size();
            std::vector<uint8_t> qs(ql), ts(tl);
            for (int k = 0; k < ql; ++k) qs[k] = code(c.q[k]);
            for (int k = 0; k < tl; ++k) ts[k] = code(c.t[k]);
            const ZdLayout L = zd_layout(P, ql, tl);
            std::vector<std::vector<uint8_t>> keep;
            const int fill = (int)r.below(256);
            ZdMem M;
            M.mem = filled<int8_t>(keep, L.mem, 0);
            // the state ring, filled with garbage: zd_task must initialise what it reads
            zd_state_at(M, filled<uint32_t>(keep, L.state, fill), P, ql, tl);
            M.off = filled<int32_t>(keep, L.rows / 3, fill);
            M.off_end = filled<int32_t>(keep, L.rows / 3, fill);
            M.prow = filled<uint32_t>(keep, L.rows / 3, fill);
            M.p = filled<uint8_t>(keep, L.p, fill);
            M.cigar = filled<uint32_t>(keep, L.cigar, fill);
            ZdOut out;
            bool lanes_agree = true;
            // the junction array as cuda/zdrop.cu stages it: its own block of exactly tl bytes
            const uint8_t *junc = nullptr;
            if (c.has_junc) {
                keep.emplace_back(c.junc.begin(), c.junc.end());
                junc = keep.back().data();
            }
            if (lanes && r.chance(0.25)) {
                out = run_lanes<32>(P, ql, qs.data(), tl, ts.data(), junc, M, lanes_agree);
            } else if (lanes) {
                out = run_lanes<4>(P, ql, qs.data(), tl, ts.data(), junc, M, lanes_agree);
            } else {
                HostGroup g;
                if (variant == 0) zd_task<kZdExtz2>(g, P, 5, P.mat, ql, qs.data(), tl, ts.data(), junc, M, out);
                else if (variant == 1) zd_task<kZdExtd2>(g, P, 5, P.mat, ql, qs.data(), tl, ts.data(), junc, M, out);
                else zd_task<kZdExts2>(g, P, 5, P.mat, ql, qs.data(), tl, ts.data(), junc, M, out);
            }
            lanes_done += lanes;
            with_junc += c.has_junc;
            const bool same = lanes_agree && out.max == z.max && out.zdropped == z.zdropped && out.max_q == z.max_q &&
                              out.max_t == z.max_t && out.mqe == z.mqe && out.mqe_t == z.mqe_t && out.mte == z.mte &&
                              out.mte_q == z.mte_q && out.score == z.score && out.reach_end == z.reach_end &&
                              out.cells == z.cells && (size_t)out.n_cigar == n_ops &&
                              (n_ops == 0 || std::memcmp(M.cigar, cig, n_ops * 4) == 0);
            if (!same && ++bad <= 10)
                std::fprintf(stderr,
                             "FAIL%s variant %d qlen %d tlen %d w %d zdrop %d flag 0x%x junc %d bonus %d: core %d %d %d %d %d %d %d %d %d "
                             "%d n%d | cpu %d %d %d %d %d %d %d %d %d %d n%zu\n",
                             lanes ? " (lanes)" : "", variant, ql, tl, w, zdrop, flag, (int)c.has_junc, junc_bonus, out.max, out.zdropped, out.max_q, out.max_t, out.mqe,
                             out.mqe_t, out.mte, out.mte_q, out.score, out.reach_end, out.n_cigar, z.max, z.zdropped,
                             z.max_q, z.max_t, z.mqe, z.mqe_t, z.mte, z.mte_q, z.score, z.reach_end, n_ops);
            ++done;
        }
        gale_batch_destroy(bt);
    }
    gale_ctx_destroy(ctx);
    if (bad) {
        std::printf("zdrop_core_host: %ld of %ld tasks differ (seed %llu)\n", bad, done, (unsigned long long)seed);
        return 1;
    }
    if (with_junc < n_cases / 20) {  // about a sixth of the tasks: the junction path must have run
        std::printf("zdrop_core_host: only %ld tasks had a junction array (seed %llu)\n", with_junc,
                    (unsigned long long)seed);
        return 1;
    }
    std::printf("zdrop_core_host: all %ld tasks (%ld on groups of 4 or 32 threads, %ld with a junction array) equal "
                "the CPU backend (seed %llu)\n", done, lanes_done, with_junc, (unsigned long long)seed);
    return 0;
}
