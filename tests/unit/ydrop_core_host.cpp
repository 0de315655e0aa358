// ydrop_core_host.cpp - the CUDA Y-drop kernel's per-half code (cuda/common/ydrop_core.cuh)
// run on the host against the CPU kernel's phase 1 (lib/cpu/ydrop_run.h, Run::side with a
// SideRec: LASTZ's one-sided extension without bounds), bit for bit: score, end, truncation,
// DP cells, every row's record (LY, RY, the tail's end and flags), the reads of traceback
// bytes not written, and the edit script (unless such a read made it depend on what the
// buffer held). No GPU and no nvcc. Each half runs on a group of one thread and on a group
// of 4 host threads in lockstep (LaneGroup: pthread barriers for the warp's syncs,
// shuffles, scans and ballots), one column a lane in each step and several (5 on one
// thread, 2 on four; the GPU's warp takes 4), which must agree: the lanes' split of each
// row, the scans of the gap and the best score, the pruned prefix and the in-place DP row,
// which the GPU's warp of 32 then reproduces. A few short halves also run on 64 lanes (two
// warps' worth, as the GPU's block of 128 for the longest halves: nothing in yd_side may
// assume a warp; the block's own exchanges are CUDA only, checked by ydrop_gpu_block). The
// slot is filled with a random byte first and reused without clearing (as on the GPU), so
// a read of a stale value changes the result. The slot is small (4 MiB of traceback); a
// half that outgrows it must fail with kYdOverCap only when the CPU's half needs more, and
// then give the CPU's result in a large slot, as cuda/ydrop.cu runs it again.
//
// Cases (seed printed, GALE_TEST_SEED reproduces, GALE_TEST_SCALE scales): random homologous
// pairs (200 - 3,000 bases, 0 - 30% divergence, indels up to 40 bases, N runs, lowercase,
// unrelated tails) with anchors on the shared diagonal and anywhere, both halves, under
// random settings: HOXD70 or a random matrix, gap open 0 - 800 and extend 0 - 60, ydrop
// from 0 to 20,000, --noytrim, and traceback memories small enough to truncate.
#include "testutil.h"
#include "testgen.h"
#include "lane_group.hpp"

#include "cuda/common/ydrop_core.cuh"
#include "cuda/common/ydrop_side.h"
#include "cpu/ydrop_run.h"

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace gale;

namespace {

static_assert(ydg::kNegInf == ydrop_run::kNegInf, "sentinel");
static_assert(ydg::kMaxRepeat == ydrop_run::kMaxRepeat, "repeat");
static_assert(sizeof(ydg::YdRow) == 16, "row record");

// The kernel's group interface with one thread.
struct HostGroup {
    static constexpr int size = 1;
    int tid() const { return 0; }
    void sync() const {}
    int32_t shfl_up_last(int32_t v, int32_t carry, int32_t &last) const {
        last = v;
        return carry;
    }
    int64_t scan_max(int64_t v, int64_t carry, int64_t &total) const {
        total = std::max(carry, v);
        return carry;
    }
    int64_t seg_scan_max(bool reset, int64_t v, int64_t carry, int64_t &total) const {
        total = reset ? v : std::max(carry, v);
        return carry;
    }
    int32_t scan_max32(int32_t v, int32_t carry, int32_t &total) const {
        total = std::max(carry, v);
        return carry;
    }
    bool any(bool p) const { return p; }
    int last_where(bool p, int32_t v, int32_t &value) const {
        value = v;
        return p ? 0 : -1;
    }
    int first_where(bool p, int32_t v, int32_t &value) const {
        value = v;
        return p ? 0 : 1;
    }
};

// N host threads in lockstep, one per lane: LaneGroup (tests/common/lane_group.hpp).

struct LaneJob {
    const ydg::YdParams *P;
    ydg::YdIn in;
    ydg::YdSlot S;
    ydg::YdOut out[kMaxLanes];
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
    LaneGroup<N> g{a->job->sh, a->lane};
    std::memset(&a->job->out[a->lane], 0, sizeof(ydg::YdOut));
    ydg::yd_side<2>(g, *a->job->P, a->job->in, a->job->S, a->job->out[a->lane]);
    return nullptr;
}
template <int N>
ydg::YdOut run_lanes(const ydg::YdParams &P, const ydg::YdIn &in, const ydg::YdSlot &S) {
    LaneShared sh;
    pthread_barrier_init(&sh.bar, nullptr, N);
    LaneJob job{&P, in, S, {}, &sh};
    pthread_t th[N];
    LaneArg<N> args[N];
    for (int i = 0; i < N; ++i) {
        args[i] = LaneArg<N>{&job, i};
        REQUIRE(pthread_create(&th[i], nullptr, lane_main<N>, &args[i]) == 0);
    }
    for (int i = 0; i < N; ++i) pthread_join(th[i], nullptr);
    pthread_barrier_destroy(&sh.bar);
    return job.out[0];
}

// What the kernel's half wrote, as a SideRec (as cuda/ydrop.cu makes it).
ydrop_run::SideRec to_rec(const ydg::YdOut &o, const ydg::YdSlot &S) { return ydg::yd_side_rec(o, S.rows, S.ops); }

long g_lanes = 0, g_lanes64 = 0, g_halves = 0, g_truncated = 0, g_stale = 0, g_rows = 0, g_failed_both = 0,
     g_over_cap = 0;

// Whether the CPU's half needs more room than a slot of these capacities has: more
// traceback bytes, rows or script ops, or a DP row wider than the slot's.
bool needs_more_than(const ydrop_run::SideRec &cpu, const ydg::YdCaps &caps) {
    uint64_t widest = 0;
    for (const ydrop_run::RowRec &row : cpu.rows) widest = std::max<uint64_t>(widest, (uint64_t)row.RY - row.LY + 2);
    return cpu.cells > caps.tb_cap || cpu.rows.size() > caps.rows_cap || cpu.script.op.size() > caps.ops_cap ||
           widest > caps.dp_cap;
}

// A slot that holds any half of this test's pairs (3,500 x 3,500 bases at most: 12.3
// million traceback bytes), as cuda/ydrop.cu's large slots; made on first use, filled with
// a random byte like the small one.
const ydg::YdSlot &large_slot() {
    static const ydg::YdCaps caps{16ull << 20, 100000, 30000, 200000};
    static std::vector<char> bytes;
    static ydg::YdSlot slot;
    if (bytes.empty()) {
        bytes.assign(ydg::yd_slot_bytes(caps), (char)0xa5);
        slot = ydg::yd_slot(bytes.data(), caps);
    }
    return slot;
}

bool same(const ydrop_run::SideRec &a, const ydrop_run::SideRec &b, const char *what, const std::string &ctx) {
    bool ok = a.failed == b.failed;
    if (ok && !a.failed) {
        ok = a.score == b.score && a.end1 == b.end1 && a.end2 == b.end2 && a.truncated == b.truncated &&
             a.stale == b.stale && a.cells == b.cells && a.rows.size() == b.rows.size();
        for (size_t k = 0; ok && k < a.rows.size(); ++k)
            ok = a.rows[k].LY == b.rows[k].LY && a.rows[k].RY == b.rows[k].RY && a.rows[k].Rw == b.rows[k].Rw &&
                 a.rows[k].flags == b.rows[k].flags;
        if (ok && !a.stale) ok = a.script.op == b.script.op && a.script.tailOp == b.script.tailOp;
    }
    if (!ok) {
        size_t bad = 0;
        while (bad < std::min(a.rows.size(), b.rows.size()) && a.rows[bad].LY == b.rows[bad].LY &&
               a.rows[bad].RY == b.rows[bad].RY && a.rows[bad].Rw == b.rows[bad].Rw &&
               a.rows[bad].flags == b.rows[bad].flags)
            ++bad;
        tu_fail_at(__FILE__, __LINE__,
                   "%s differs from the CPU (%s): failed %d/%d score %d/%d end %u,%u/%u,%u trunc %d/%d stale %d/%d "
                   "cells %llu/%llu rows %zu/%zu (first differing row %zu) ops %zu/%zu",
                   what, ctx.c_str(), b.failed, a.failed, b.score, a.score, b.end1, b.end2, a.end1, a.end2,
                   b.truncated, a.truncated, b.stale, a.stale, (unsigned long long)b.cells,
                   (unsigned long long)a.cells, b.rows.size(), a.rows.size(), bad + 1, b.script.op.size(),
                   a.script.op.size());
    }
    tu_count_check();
    return ok;
}

std::string random_seq(tu_rng *r, size_t n) {
    std::string s(n, 'A');
    for (char &c : s) c = tu_base(r);
    return s;
}

std::string mutate(tu_rng *r, const std::string &src, double rate, int maxIndel) {
    std::string o;
    for (size_t i = 0; i < src.size(); ++i) {
        const double u = tu_unif(r);
        if (u < rate * 0.6) o.push_back(tu_base(r));
        else if (u < rate * 0.8) {
            o.push_back(src[i]);
            const int n = (int)tu_range(r, 1, maxIndel);
            for (int k = 0; k < n; ++k) o.push_back(tu_base(r));
        } else if (u < rate) i += (size_t)tu_range(r, 0, maxIndel - 1);
        else o.push_back(src[i]);
    }
    return o;
}

void decorate(tu_rng *r, std::string &s) {
    if (s.empty()) return;
    if (tu_chance(r, 0.3)) {  // N runs
        const int runs = (int)tu_range(r, 1, 3);
        for (int k = 0; k < runs; ++k) {
            const size_t at = (size_t)tu_below(r, s.size()), n = (size_t)tu_range(r, 1, 30);
            for (size_t j = at; j < std::min(s.size(), at + n); ++j) s[j] = 'N';
        }
    }
    if (tu_chance(r, 0.3)) {  // lowercase stretches
        const size_t at = (size_t)tu_below(r, s.size()), n = (size_t)tu_range(r, 1, 400);
        for (size_t j = at; j < std::min(s.size(), at + n); ++j) s[j] = (char)std::tolower((unsigned char)s[j]);
    }
    if (tu_chance(r, 0.05)) s[(size_t)tu_below(r, s.size())] = 'X';
}

}  // namespace

int main() {
    const uint64_t seed = tu_seed("ydrop_core_host");
    tu_rng rng;
    tu_rng_init(&rng, seed);
    const long pairs = tu_scaled(40, 6);
    const uint64_t slot_bytes = 8ull << 20;
    std::vector<char> slot(slot_bytes);
    std::memset(slot.data(), 0x5a, slot.size());
    YdropWorkspace ws;
    long lanes_left = tu_scaled(40, 4), lanes64_left = tu_scaled(6, 2);

    for (long p = 0; p < pairs; ++p) {
        tu_rng *r = &rng;
        // settings
        auto sc = std::make_unique<YdropScoring>();
        int32_t tmpl[4][4];
        if (tu_chance(r, 0.6)) std::memcpy(tmpl, kHoxd70, sizeof tmpl);
        else
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b) tmpl[a][b] = a == b ? (int32_t)tu_range(r, 20, 150) : (int32_t)tu_range(r, -200, 10);
        const int32_t open = tu_chance(r, 0.5) ? 400 : (int32_t)tu_range(r, 0, 800);
        const int32_t ext = tu_chance(r, 0.5) ? 30 : tu_chance(r, 0.1) ? 0 : (int32_t)tu_range(r, 1, 60);
        ydrop_scoring(*sc, tmpl, -1000, -100, open, ext);
        YdropParams prm;
        prm.ydrop = tu_chance(r, 0.4) ? open + 300 * ext : (int32_t)tu_logrange(r, 0, 20000);
        prm.trim_to_peak = !tu_chance(r, 0.3);
        prm.traceback_bytes = tu_chance(r, 0.25) ? (uint64_t)tu_logrange(r, 64, 200000) : kYdropTracebackBytes;
        if (ext == 0 && prm.traceback_bytes < 8000) prm.traceback_bytes = 8000;
        // a pair
        const size_t n = (size_t)tu_range(r, 200, 3000);
        std::string t = random_seq(r, n);
        std::string q = mutate(r, t, tu_unif(r) * 0.3, (int)tu_range(r, 1, 40));
        if (tu_chance(r, 0.3)) t += random_seq(r, (size_t)tu_range(r, 1, 500));
        if (tu_chance(r, 0.3)) q = random_seq(r, (size_t)tu_range(r, 1, 500)) + q;
        decorate(r, t);
        decorate(r, q);
        if (q.empty()) q = "A";
        // as the walk holds them (lib/cpu/ydrop_parallel.cpp)
        const uint32_t len1 = (uint32_t)t.size(), len2 = (uint32_t)q.size();
        std::vector<uint8_t> s1(len1 + 2, 0), s2(len2 + 2, 0), r1(len1 + 2, 0), r2(len2 + 2, 0);
        std::memcpy(s1.data() + 1, t.data(), len1);
        std::memcpy(s2.data() + 1, q.data(), len2);
        for (uint32_t k = 0; k < len1; ++k) r1[1 + k] = (uint8_t)t[len1 - 1 - k];
        for (uint32_t k = 0; k < len2; ++k) r2[1 + k] = (uint8_t)q[len2 - 1 - k];
        ydrop_run::AlignIo io{};
        io.seq1 = s1.data() + 1;
        io.seq2 = s2.data() + 1;
        io.rev1 = r1.data() + 1;
        io.rev2 = r2.data() + 1;
        io.len1 = io.high1 = len1;
        io.len2 = io.high2 = len2;
        std::vector<int32_t> sub(256 * 256);
        for (int a = 0; a < 256; ++a)
            for (int b = 0; b < 256; ++b) sub[(size_t)a * 256 + (size_t)b] = sc->sub[a][b];
        ydg::YdParams P{};
        P.seq1 = io.seq1;
        P.seq2 = io.seq2;
        P.rev1 = io.rev1;
        P.rev2 = io.rev2;
        P.len1 = len1;
        P.len2 = len2;
        P.sub = sub.data();
        P.gapE = ext;
        P.gapOE = open + ext;
        P.yDrop = prm.ydrop;
        P.trimToPeak = prm.trim_to_peak;
        const uint64_t tbLen64 = prm.traceback_bytes == 0 ? UINT64_MAX / 4 : prm.traceback_bytes - 8 + 1;
        P.tbLen = (int64_t)std::min<uint64_t>(tbLen64, (uint64_t)INT64_MAX / 4);
        // capacities as cuda/ydrop.cu gives a slot, scaled down to this test's pairs
        const ydg::YdCaps caps{slot_bytes / 2, 100000, 30000, 200000};
        REQUIRE(ydg::yd_slot_bytes(caps) <= slot_bytes);
        const ydg::YdSlot S = ydg::yd_slot(slot.data(), caps);
        ydrop_run::Run run(*sc, prm, ws);
        const int anchors = (int)tu_range(r, 2, 6);
        for (int a = 0; a < anchors; ++a) {
            uint32_t a1 = (uint32_t)tu_below(r, len1), a2;
            if (tu_chance(r, 0.7))  // near the shared diagonal
                a2 = (uint32_t)std::min<int64_t>(len2 - 1, std::max<int64_t>(0, (int64_t)a1 + tu_range(r, -20, 20)));
            else a2 = (uint32_t)tu_below(r, len2);
            if (tu_chance(r, 0.05)) a1 = tu_chance(r, 0.5) ? 0 : len1 - 1;
            io.anchor1 = a1;
            io.anchor2 = a2;
            for (int h = 0; h < 2; ++h) {
                char ctx[200];
                std::snprintf(ctx, sizeof ctx, "pair %ld (%u x %u), anchor %u,%u %s, gap %d,%d ydrop %d trim %d tb %llu",
                              p, len1, len2, a1, a2, h == 0 ? "left" : "right", open, ext, prm.ydrop,
                              prm.trim_to_peak, (unsigned long long)prm.traceback_bytes);
                ydrop_run::SideRec cpu;
                try {
                    cpu.score = run.side(io, h == 0, cpu.script, &cpu.end1, &cpu.end2, &cpu);
                } catch (...) {
                    cpu = ydrop_run::SideRec();
                    cpu.failed = true;
                }
                const ydg::YdIn in{a1, a2, (uint32_t)(h == 0), 0};
                HostGroup g1;
                ydg::YdOut o1{};
                ydg::yd_side<1>(g1, P, in, S, o1);
                // A half that outgrows the slot fails with kYdOverCap (cuda/ydrop.cu then runs it
                // again in a large slot): only when the CPU's half needs more than the slot holds,
                // and the large slot must then give the CPU's result.
                const bool overCap = (o1.flags & ydg::kYdOverCap) != 0;
                if (overCap) {
                    ++g_over_cap;
                    CHECK_MSG(!cpu.failed && needs_more_than(cpu, caps),
                              "group of 1 failed for want of room its half does not need (%s): cells %llu rows %zu "
                              "ops %zu",
                              ctx, (unsigned long long)cpu.cells, cpu.rows.size(), cpu.script.op.size());
                }
                const ydg::YdSlot &S1 = overCap ? large_slot() : S;
                if (overCap) ydg::yd_side<1>(g1, P, in, S1, o1);
                const ydrop_run::SideRec one = to_rec(o1, S1);
                bool ok1 = same(one, cpu, overCap ? "group of 1 in a large slot" : "group of 1", ctx);
                ydg::YdOut o5{};
                ydg::yd_side<5>(g1, P, in, S1, o5);  // the lane's own scans over several columns
                ok1 = same(to_rec(o5, S1), cpu, "group of 1, 5 columns a step", ctx) && ok1;
                // the lanes in lockstep are slow (a barrier per shuffle): short halves only
                bool ok4 = true;
                if (cpu.cells < 60000 && lanes_left > 0) {
                    --lanes_left;
                    ++g_lanes;
                    const ydg::YdOut o4 = run_lanes<4>(P, in, S);
                    ok4 = same(to_rec(o4, S), cpu, "group of 4", ctx);
                }
                // and a group of two warps' worth, as cuda/ydrop.cu's block (yd_side assumes no warp)
                if (cpu.cells < 8000 && lanes64_left > 0) {
                    --lanes64_left;
                    ++g_lanes64;
                    const ydg::YdOut o64 = run_lanes<64>(P, in, S);
                    ok4 = same(to_rec(o64, S), cpu, "group of 64", ctx) && ok4;
                }
                ++g_halves;
                g_truncated += cpu.truncated;
                g_stale += cpu.stale;
                g_rows += (long)cpu.rows.size();
                g_failed_both += cpu.failed && one.failed;
                if ((!ok1 || !ok4) && tu_failures > 20) return tu_finish("ydrop_core_host");
            }
        }
    }
    std::printf("ydrop_core_host: %ld halves (%ld rows; %ld also on 4 lanes, %ld on 64), %ld truncated, %ld with reads "
                "of bytes not written, %ld failed on both, %ld outgrew the slot\n",
                g_halves, g_rows, g_lanes, g_lanes64, g_truncated, g_stale, g_failed_both, g_over_cap);
    CHECK_MSG(g_truncated > 0 || pairs < 30, "no truncated half: the traceback limit went untested");
    return tu_finish("ydrop_core_host");
}
