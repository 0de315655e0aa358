// CUDA kernels of wavefront alignment (GALE_WFA, GALE_EDIT), bit-identical to
// lib/cpu/wfa.cpp: both implement lib/wfa.h (recurrence, ranges, tie-break, codes,
// backtrace); the per-cell and per-score code is in cuda/common/wfa_core.cuh.
//
// After WFA-GPU (Aguado-Puig et al.): one group of threads per alignment with the
// threads across the diagonals of each wavefront; the backtrace code bytes of
// lib/wfa.h written as the wavefronts are computed; bases compared 16 at a time
// from 2-bit packed sequences (an N mask is read only for tasks that hold an N);
// persistent groups take the next alignment off an atomic counter. Groups are a
// warp (4 independent warps per block) for wavefronts up to kWarpCap diagonals,
// else a block of 256 threads (pick_group). The backtrace is walked on the GPU by
// one thread (start diagonal and ops); the host rebuilds the CIGAR with wfa_replay().
// WFA-GPU's own backtrace, 2-bit steps carried beside every offset and spilled in
// blocks, gave the same results 2.9x to 11x slower at 10 kbp here (bench/RESULTS.md,
// steps 15-19); it is kept as bench/experiments/wfa-piggyback-bt-layout.diff, and
// GALE_P_GPU_BACKTRACE no longer has an effect.
//
// A cell reads five offsets from the rings, then the sequence words of its first
// extension step, and writes three offsets. So each thread computes its cells of a
// score U at a time with their loads issued together (wfa_core.cuh, align),
// registers are capped at 64 for 32 resident warps per SM, and tasks with both
// lengths < 32768 keep int16 offsets (half the ring bytes). Per score, one thread
// plans the ranges for its group (Plan); interior cells run without range tests and,
// until an offset reaches a sequence end, without bound tests (cell_clear). ncu: about
// 3.7 warp instructions per cell at 10 kbp, score scope, 90 per 4 cells in the loop
// (bench/RESULTS.md, steps 12-14).
//
// Memory budget. A task's score budget is
//     S = ceil(err * (m + n) / 2000) * pmax + gap(|n - m|)
// with err = GALE_P_EXPECTED_ERROR (per mille), pmax = max(x, o + e [, o2 + e2])
// (edit: 1) and gap(d) the cheapest gap of length d (0 for d = 0): err/1000 edits
// per base on average over the two lengths, each at the highest single-edit
// penalty, plus the length difference as one gap. Ranges do not depend on the
// sequences, so the dispatcher runs the range recurrence alone up to S and gets
// the task's exact diagonal window W (cap = its width) and code bytes C (the sum
// of M's widths). A unit (one alignment in flight) takes
//     rings (max(x, o+e, o2+e2) + 1 + 2(e + 1) [+ 2(e2 + 1)]) * cap * 4 bytes
//   + (S + 1) * 8 + C bytes (alignment scope only: per-score headers and codes).
// The work area (the pool's scratch plus the part of the pool the slots leave, split
// between the two slots) holds as many units as fit, at most one per resident
// group. A task whose unit exceeds a slot's work area is rescued at once; a task
// that reaches a score above S is stopped and rescued on the CPU (GALE_RF_RESCUED)
// while the GPU goes on. The result never depends on the budget.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/device.cuh"
#include "common/group.cuh"
#include "common/pack.cuh"
#include "common/wfa_core.cuh"
#include "cuda_backend.h"
#include "parallel.h"

namespace gale {
namespace cuda {

namespace {

using namespace wfag;

// Host-side phase times of wfa_run, printed to stderr when built with
// -DGALE_WFA_PROFILE (a measuring aid: the library itself never prints).
#ifdef GALE_WFA_PROFILE
struct Prof {
    double est = 0, order = 0, plan = 0, fill = 0, pack = 0, sync = 0, replay = 0;
    int chunks = 0;
};
inline double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
#define GALE_PROF_START(x) const auto prof_t_##x = std::chrono::steady_clock::now()
#define GALE_PROF_STOP(x) prof.x += ms_since(prof_t_##x)
#else
#define GALE_PROF_START(x) (void)0
#define GALE_PROF_STOP(x) (void)0
#endif

constexpr int kWarpsPerBlock = 4;
constexpr int32_t kWarpCap = 1536;  // widest window computed by a warp

struct KArgs {
    const Task *tasks;
    Out *outs;
    uint32_t *ops;
    const uint32_t *code, *mask;
    int n_tasks;
    int *counter;
    Pen pen;
    int32_t n_policy;
    Shape shape;
    char *base_a, *base_b;  // units [0, units_a) at base_a, the rest at base_b
    uint64_t units_a, units;
};

// The range ring (every thread reads it at every score, written by thread 0 of the
// group) lives in shared memory when its scores fit: one memory round trip per score
// less for every thread. Penalties up to 31 keep it there. A template parameter (RRS)
// rather than a run-time choice: with a pointer that may be either, the compiler
// must use generic addressing, and the kernels spilled.
constexpr int kSharedRingScores = 32;
constexpr int kSharedRingInts = kSharedRingScores * kComps * 2;

template <int METRIC, int BT, class OFF, bool RRS, class G>
__device__ void run_group(G &g, const KArgs &a, uint64_t unit, int32_t *rr_smem, Plan *plans) {
    char *base = unit < a.units_a ? a.base_a + unit * a.shape.bytes : a.base_b + (unit - a.units_a) * a.shape.bytes;
    Unit u = unit_at(base, a.shape);
    if (RRS) u.rr = rr_smem;
    for (;;) {
        int i = 0;
        if (g.tid() == 0) i = atomicAdd(a.counter, 1);
        i = g.bcast(i);  // also a barrier: the last task's backtrace is done before the unit is reused
        if (i >= a.n_tasks) return;
        const Task t = a.tasks[i];
        const Seqs sq{a.code, a.mask, t.p0, t.t0, t.has_n, a.n_policy};
        // Cells per thread in flight: 4, or 2 for two-piece (more live values per cell; 4
        // spilled under the 64-register cap).
        align<METRIC, BT, OFF, METRIC == kMetricAffine2p ? 2 : 4>(g, a.pen, t, sq, a.shape, u, a.outs + i,
                                                                  a.ops + t.ops_at, plans);
    }
}

// Register caps (min blocks per SM): 64 registers a thread, so that 32 warps of an
// SM are resident; the per-cell work is latency-bound (ring loads), and the
// uncapped kernels took 74-108 registers (24 or fewer warps per SM).
template <int METRIC, int BT, class OFF, bool RRS>
__global__ void __launch_bounds__(kWarpsPerBlock * 32, 8) wfa_warps(KArgs a) {
    __shared__ int32_t rr[RRS ? kWarpsPerBlock : 1][RRS ? kSharedRingInts : 1];
    __shared__ Plan plans[kWarpsPerBlock][2];
    Group<32> g;
    const uint64_t unit = (uint64_t)blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    if (unit >= a.units) return;
    run_group<METRIC, BT, OFF, RRS>(g, a, unit, rr[RRS ? threadIdx.x >> 5 : 0], plans[threadIdx.x >> 5]);
}

template <int METRIC, int BT, class OFF, bool RRS, int T>
__global__ void __launch_bounds__(T, 1024 / T) wfa_block(KArgs a) {
    __shared__ int32_t red[Group<T>::kRedInts];
    __shared__ int32_t rr[RRS ? kSharedRingInts : 1];
    __shared__ Plan plans[2];
    Group<T> g{red};
    if (blockIdx.x >= a.units) return;
    run_group<METRIC, BT, OFF, RRS>(g, a, blockIdx.x, rr, plans);
}

typedef void (*KernelFn)(KArgs);

// threads: 32 (a warp per alignment, kWarpsPerBlock per block), 128 or 256.
template <int M, int BT, class OFF, bool RRS>
KernelFn pick_threads(int threads) {
    return threads == 32    ? wfa_warps<M, BT, OFF, RRS>
           : threads == 256 ? wfa_block<M, BT, OFF, RRS, 256>
                            : wfa_block<M, BT, OFF, RRS, 128>;
}
template <int M, int BT, class OFF>
KernelFn pick_rrs(bool rrs, int threads) {
    return rrs ? pick_threads<M, BT, OFF, true>(threads) : pick_threads<M, BT, OFF, false>(threads);
}
template <int M, int BT>
KernelFn pick_off(bool off16, bool rrs, int threads) {
    return off16 ? pick_rrs<M, BT, int16_t>(rrs, threads) : pick_rrs<M, BT, int32_t>(rrs, threads);
}
template <int M>
KernelFn pick_bt(int bt, bool off16, bool rrs, int threads) {
    return bt == kBtCodes ? pick_off<M, kBtCodes>(off16, rrs, threads) : pick_off<M, kBtNone>(off16, rrs, threads);
}
// rrs: the range ring fits shared memory (Pen::rm <= kSharedRingScores).
KernelFn pick_kernel(int metric, int bt, bool off16, bool rrs, int threads) {
    if (metric == kMetricAffine) return pick_bt<kMetricAffine>(bt, off16, rrs, threads);
    if (metric == kMetricAffine2p) return pick_bt<kMetricAffine2p>(bt, off16, rrs, threads);
    return pick_bt<kMetricEdit>(bt, off16, rrs, threads);
}

// ---- host side ----------------------------------------------------------------------

size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

// What one task needs, computed before chunking.
struct Est {
    int32_t s_limit = 0, klo = 0, khi = 0, max_ops = 0;  // max_ops: backtrace ops
    uint64_t cells = 0;  // cells up to s_limit (alignment scope): code bytes
    uint64_t bytes = 0;  // its unit alone
    bool gpu = false;
    bool off16 = false;  // both lengths < kOff16Limit: int16 offsets
};

// Chunks small enough that packing and finishing them overlap the kernels of the
// other slot, and that both slots' kernels (each with its own work area) overlap.
constexpr size_t kMaxChunkTasks = 16384;
constexpr size_t kMaxChunkBases = (size_t)64 << 20;
constexpr size_t kSlack = 4096;

struct Chunk {
    std::vector<size_t> tasks;  // batch indices
    Shape shape{};
    int threads = 32;    // per alignment (pick_group)
    bool off16 = false;  // int16 offsets (every task of the chunk allows them)
    uint64_t units = 0;
    size_t off_code = 0, off_mask = 0, off_task = 0, off_out = 0, off_ops = 0, in_bytes = 0, total = 0;
    size_t bases = 0, ops_words = 0;
    bool busy = false;
};

size_t task_slot_bytes(const PairTask &t, const Est &e, bool trace) {
    const int64_t bases = pack_round(t.h_len) + pack_round(t.v_len);
    return (size_t)(bases / 4 + bases / 8) + sizeof(Task) + sizeof(Out) + (trace ? (size_t)e.max_ops * 4 : 0);
}

}  // namespace

void wfa_run(Device *dev, WfaJob &job) {
    GALE_CUDA_CHECK(cudaSetDevice(dev->index));
    const WfaParams &p = job.params;
    const Pen q = make_pen(p);
    const bool trace = p.scope == 1;  // GALE_SCOPE_ALIGNMENT: a backtrace
    const int bt = trace ? kBtCodes : kBtNone;
#ifdef GALE_WFA_PROFILE
    Prof prof;
    const auto prof_t_all = std::chrono::steady_clock::now();
#endif

    // The work area: the scratch and what the slots leave of the pool, half per slot.
    char *const slots_end = dev->slots[kSlots - 1].dev + dev->slots[kSlots - 1].bytes;
    const size_t tail = (size_t)(dev->pool + dev->pool_bytes - slots_end) / 256 * 256;
    struct Area { char *a, *b; size_t a_bytes, b_bytes; } area[kSlots];
    const size_t scr_half = dev->scratch_bytes / kSlots / 256 * 256, tail_half = tail / kSlots / 256 * 256;
    for (int i = 0; i < kSlots; ++i) {
        area[i].a = reinterpret_cast<char *>(dev->scratch) + i * scr_half;
        area[i].a_bytes = scr_half;
        area[i].b = slots_end + i * tail_half;
        area[i].b_bytes = tail_half;
    }
    const uint64_t work_bytes = std::max(scr_half, tail_half);  // one unit lives in one region
    const size_t slot_bytes = dev->slots[0].bytes;

    // Resident groups per kernel shape.
    const int sms = dev->prop.multiProcessorCount;
    const bool rrs = q.rm <= kSharedRingScores;
    auto resident = [&](bool off16, int threads) -> uint64_t {
        int per_sm = 0;
        KernelFn k = pick_kernel(q.metric, bt, off16, rrs, threads);
        const bool warps = threads == 32;
        GALE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, (const void *)k, warps ? kWarpsPerBlock * 32 : threads, 0));
        return (uint64_t)std::max(1, per_sm) * sms * (warps ? kWarpsPerBlock : 1);
    };
    // Shape overrides for measurements only (results never depend on them), set by the
    // experimental parameters GALE_PX_WFA_GROUP_THREADS (32, 128 or 256 threads per
    // alignment) and GALE_PX_WFA_UNITS_PER_SM (alignments in flight per multiprocessor);
    // 0 leaves the choice to the dispatcher.
    const int force_threads = p.test_group_threads;
    if (force_threads != 0 && force_threads != 32 && force_threads != 128 && force_threads != 256)
        fail(GALE_E_RANGE, "WFA GPU group of %d threads: 32, 128 or 256 (0: automatic)", force_threads);
    // An SM holds at most 64 warps, so at most 64 alignments (a warp each) in flight.
    if (p.test_units_per_sm < 0 || p.test_units_per_sm > 64)
        fail(GALE_E_RANGE, "WFA GPU units per multiprocessor %d: 1 to 64 (0: automatic)", p.test_units_per_sm);
    const uint64_t units_cap = p.test_units_per_sm > 0 ? (uint64_t)p.test_units_per_sm * sms : UINT64_MAX;
    uint64_t res_groups[2][3];  // [off16][32, 256, 128 threads]
    for (int o16 = 0; o16 < 2; ++o16)
        for (int ti = 0; ti < 3; ++ti) res_groups[o16][ti] = resident(o16 != 0, ti == 0 ? 32 : ti == 1 ? 256 : 128);
    auto groups_of = [&](bool o16, int threads) { return res_groups[o16 ? 1 : 0][threads == 32 ? 0 : threads == 256 ? 1 : 2]; };
    // Threads per alignment: a warp for narrow windows (no block barrier, 4 x more
    // alignments per block), else 256. Measured at 10 kbp (bench/RESULTS.md, steps 6, 11
    // and 14): with codes 128 threads took 2x the time of 256 (each of twice the units
    // then holds half the code memory and more tasks need the second pass); scores alone
    // ran best on 128 threads while every thread planned each score itself, and on 256
    // (1.06x over 128, H100) once one thread plans it for the group (Plan). 512 was
    // slower than 256.
    auto pick_group = [&](int32_t cap) -> int {
        if (force_threads == 32 || force_threads == 128 || force_threads == 256) return force_threads;
        return cap <= kWarpCap ? 32 : 256;
    };

    // Estimates. An estimate depends on the two lengths only, and tasks of a batch
    // mostly repeat them: each thread maps its tasks to the distinct (m, n) it saw,
    // the distinct shapes of all threads are estimated once each (in parallel: the
    // range recurrence of a 10 kbp task runs thousands of scores), and the tasks
    // then take their shape's estimate.
    GALE_PROF_START(est);
    const int est_threads = std::max(1, job.pack_threads);
    const size_t per = (job.n + (size_t)est_threads - 1) / (size_t)est_threads;
    std::vector<uint32_t> sid(job.n);  // task -> index into sest
    std::vector<std::vector<uint64_t>> local_keys((size_t)est_threads);
    auto key_of = [&](size_t i) { return ((uint64_t)job.tasks[i].v_len << 32) | (uint64_t)job.tasks[i].h_len; };
    parallel_for((size_t)est_threads, est_threads, 1, [&](size_t lo, size_t hi) {
        for (size_t w = lo; w < hi; ++w) {
            std::unordered_map<uint64_t, uint32_t> ids;
            for (size_t i = w * per; i < std::min(job.n, (w + 1) * per); ++i) {
                const auto ins = ids.emplace(key_of(i), (uint32_t)local_keys[w].size());
                if (ins.second) local_keys[w].push_back(key_of(i));
                sid[i] = ins.first->second;  // local id for now
            }
        }
    });
    std::vector<uint64_t> keys;
    for (auto &lk : local_keys) keys.insert(keys.end(), lk.begin(), lk.end());
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    // Two passes (alignment scope): the codes of a unit are sized for the score budget
    // S, but most tasks end far below it (the budget is an upper bound on the
    // divergence). When S's codes would leave fewer units than resident groups, pass 1
    // runs each task with the codes that a slot's work area holds for every resident
    // group; a task that outgrows them is run again in pass 2 with its full S. Results
    // never depend on the pass: both compute the same recurrence, pass 1 only stops
    // earlier.
    std::vector<Est> sest(keys.size()), sest_full(keys.size());
    const uint64_t slot_area = scr_half + tail_half;
    parallel_for(keys.size(), job.pack_threads, 1, [&](size_t lo, size_t hi) {
        std::vector<Range> ring((size_t)q.rm * kComps);
        for (size_t j = lo; j < hi; ++j) {
            PairTask t{};
            t.v_len = (int64_t)(keys[j] >> 32);
            t.h_len = (int64_t)(keys[j] & 0xffffffffu);
            Est &e = sest_full[j];
            const int64_t bases = pack_round(t.h_len) + pack_round(t.v_len);
            e = Est{};
            e.off16 = t.v_len < kOff16Limit && t.h_len < kOff16Limit;
            const WfaFree f = wfa_free(p, t.v_len, t.h_len);
            const int64_t S = score_budget(q, p.expected_error, t.v_len, t.h_len);
            if (t.v_len + t.h_len + bases >= ((int64_t)1 << 27) || S >= ((int64_t)1 << 26)) continue;  // longer recurrences: the CPU
            // The cells stop at the CPU's full-memory limit (its codes take a byte a cell;
            // beyond it the CPU runs BiWFA, whose CIGAR may break ties otherwise) and at what
            // a slot's work area holds of codes: the score budget shrinks to the last score
            // within both.
            const uint64_t area_cells = work_bytes / 2;
            const uint64_t limit = std::min<uint64_t>({area_cells, (uint64_t)p.memory_limit_mib << 20, 0xffffff00ull});
            const Need nd = simulate_ranges(q, (int32_t)t.v_len, (int32_t)t.h_len, (int32_t)f.pb, (int32_t)f.tb, S,
                                            limit, trace, ring.data());
            if (nd.s_reached < 0) continue;
            // The unit of x.
            auto layout = [&](Est &x) {
                Shape sh{};
                sh.cap = x.khi - x.klo + 1;
                sh.off_bytes = x.off16 ? 2 : 4;
                sh.hdr_scores = x.s_limit + 1;
                sh.code_cap = x.cells;
                shape_layout(sh, q, bt);
                x.bytes = sh.bytes;
                x.gpu = sh.bytes <= work_bytes && task_slot_bytes(t, x, trace) + kSlack + 16 * 1024 <= slot_bytes;
            };
            e.s_limit = (int32_t)nd.s_reached;
            e.klo = nd.klo;
            e.khi = nd.khi;
            e.cells = trace ? nd.cells : 0;
            e.max_ops = trace ? codes_max_ops(q, e.s_limit) : 0;
            layout(e);
            sest[j] = e;
            if (!trace || !e.gpu) continue;
            const uint64_t per_unit = slot_area / std::max<uint64_t>(1, groups_of(e.off16, pick_group(e.khi - e.klo + 1)));
            const uint64_t share = per_unit / 4 * 3;
            Est &e1 = sest[j];
            if (e.cells <= share) continue;  // pass 1 stops at the share's cells
            const Need n1 = simulate_ranges(q, (int32_t)t.v_len, (int32_t)t.h_len, (int32_t)f.pb, (int32_t)f.tb,
                                            e.s_limit, share, trace, ring.data());
            if (n1.s_reached < 1 || n1.s_reached >= e.s_limit) continue;
            e1.s_limit = (int32_t)n1.s_reached;
            e1.klo = n1.klo;
            e1.khi = n1.khi;
            e1.cells = n1.cells;
            e1.max_ops = codes_max_ops(q, e1.s_limit);
            layout(e1);
        }
    });
    parallel_for((size_t)est_threads, est_threads, 1, [&](size_t lo, size_t hi) {
        for (size_t w = lo; w < hi; ++w) {
            std::vector<uint32_t> to_global(local_keys[w].size());
            for (size_t l = 0; l < to_global.size(); ++l)
                to_global[l] = (uint32_t)(std::lower_bound(keys.begin(), keys.end(), local_keys[w][l]) - keys.begin());
            for (size_t i = w * per; i < std::min(job.n, (w + 1) * per); ++i) sid[i] = to_global[sid[i]];
        }
    });
    int pass = 1;
    auto E = [&](size_t i) -> const Est & { return pass == 1 ? sest[sid[i]] : sest_full[sid[i]]; };
    // Pass 2 runs a task again when pass 1 stopped it where pass 2 would go on (at a
    // lower score budget).
    auto retry_ok = [&](size_t i, int32_t status) {
        const Est &a = sest[sid[i]], &b = sest_full[sid[i]];
        if (pass != 1) return false;
        return status == kOutOverflow && a.s_limit < b.s_limit;
    };
    std::vector<size_t> retry;  // pass 1 overflows that pass 2 runs with the full budget
    GALE_PROF_STOP(est);

    // Largest units first: chunks of alike tasks share a unit shape, and the long
    // alignments start early. A counting sort over the shapes (by bytes, descending),
    // tasks of one shape in batch order.
    GALE_PROF_START(order);
    std::vector<size_t> order, rescue_now;
    {
        std::vector<uint32_t> rank(sest.size());
        std::iota(rank.begin(), rank.end(), 0u);
        std::stable_sort(rank.begin(), rank.end(), [&](uint32_t a, uint32_t b) { return sest[a].bytes > sest[b].bytes; });
        std::vector<size_t> at(sest.size() + 1, 0);
        for (size_t i = 0; i < job.n; ++i) at[sid[i]] += E(i).gpu ? 1 : 0;
        size_t sum = 0;
        for (uint32_t r : rank) { const size_t c = at[r]; at[r] = sum; sum += c; }
        order.resize(sum);
        for (size_t i = 0; i < job.n; ++i) {
            if (E(i).gpu) order[at[sid[i]]++] = i;
            else rescue_now.push_back(i);
        }
    }
    if (!rescue_now.empty()) job.rescue(std::move(rescue_now));
    GALE_PROF_STOP(order);

    Chunk chunks[kSlots];
    std::vector<std::pair<float, float>> spans;
    cudaEvent_t t0;
    GALE_CUDA_CHECK(cudaEventCreate(&t0));
    struct EventGuard { cudaEvent_t e; ~EventGuard() { cudaEventDestroy(e); } } guard{t0};
    GALE_CUDA_CHECK(cudaEventRecord(t0, dev->slots[0].stream));

    auto collect = [&](int si) {
        Chunk &c = chunks[si];
        Slot &s = dev->slots[si];
        GALE_PROF_START(sync);
        GALE_CUDA_CHECK(cudaStreamSynchronize(s.stream));
        GALE_PROF_STOP(sync);
        GALE_PROF_START(replay);
        float a = 0, b = 0;
        GALE_CUDA_CHECK(cudaEventElapsedTime(&a, t0, s.start));
        GALE_CUDA_CHECK(cudaEventElapsedTime(&b, t0, s.stop));
        spans.emplace_back(a, b);
        const Out *outs = reinterpret_cast<const Out *>(s.host + c.off_out);
        const uint32_t *ops = reinterpret_cast<const uint32_t *>(s.host + c.off_ops);
        const Task *tasks = reinterpret_cast<const Task *>(s.host + c.off_task);
        std::vector<char> bad(c.tasks.size(), 0);
        parallel_for(c.tasks.size(), job.pack_threads, 32, [&](size_t lo, size_t hi) {
            std::vector<WfaOp> path;
            std::vector<uint32_t> cigar;
            for (size_t j = lo; j < hi; ++j) {
                const Out &o = outs[j];
                const size_t ti = c.tasks[j];
                if (o.status != kOutOk) {  // 2: run again in pass 2; 1: rescue on the CPU; 3: a bug
                    bad[j] = retry_ok(ti, o.status) ? 2 : 1;
                    continue;
                }
                const PairTask &t = job.tasks[ti];
                WfaResult &r = job.results[ti];
                r.cigar = VarSpan{};
                cigar.clear();
                r.score = q.metric == kMetricEdit ? o.score : -(int64_t)o.score;
                r.cells = o.cells;
                r.flags = 0;
                r.h_end = o.h_end;
                r.v_end = (int64_t)o.h_end - o.k_end;
                if (trace) {
                    const uint32_t *w = ops + tasks[j].ops_at;
                    int64_t k0 = o.k0;
                    bool ok = o.n_ops >= 0 && o.n_ops <= tasks[j].max_ops;
                    if (ok) {
                        path.resize((size_t)o.n_ops);
                        for (int32_t x = 0; x < o.n_ops; ++x) {  // the kernel wrote them last first
                            const uint32_t op = w[o.n_ops - 1 - x];
                            path[(size_t)x] = WfaOp{op & 15u, op >> 4};
                        }
                    }
                    int64_t he = -1, ve = -1;
                    ok = ok && wfa_replay(t, p, k0, path.data(), path.size(), &he, &ve, cigar);
                    if (!ok || he != r.h_end || ve != r.v_end) {  // a bug: fail loudly, never hide it
                        bad[j] = 3;
                        continue;
                    }
                    r.cigar = job.var->put(cigar.data(), cigar.size());
                    r.h_begin = std::max<int64_t>(k0, 0);
                    r.v_begin = std::max<int64_t>(-k0, 0);
                } else {
                    const WfaFree f = wfa_free(p, t.v_len, t.h_len);
                    const bool free_begin = f.pb > 0 || f.tb > 0;
                    r.h_begin = free_begin ? -1 : 0;
                    r.v_begin = free_begin ? -1 : 0;
                }
            }
        });
        std::vector<size_t> rescue;
        for (size_t j = 0; j < c.tasks.size(); ++j) {
            if (bad[j] == 3)
                fail(GALE_E_INTERNAL, "GPU backtrace of task %zu does not rebuild into the alignment it scored",
                     c.tasks[j]);
            if (bad[j] == 2) retry.push_back(c.tasks[j]);
            else if (bad[j]) rescue.push_back(c.tasks[j]);
        }
        if (!rescue.empty()) job.rescue(std::move(rescue));
        c.busy = false;
        GALE_PROF_STOP(replay);
    };

    size_t next = 0;
    int si = 0;
    // The GPU idles until the first chunk is packed and copied: that one is an eighth of
    // the others (at 10 kbp, ~1 ms of packing instead of ~5 before the first kernel).
    size_t launched = 0;
    for (;;) {  // pass 1, then pass 2 when pass 1 left tasks to retry
        while (next < order.size() && !job.cancel->load()) {
            Slot &s = dev->slots[si];
            Chunk &c = chunks[si];
            if (c.busy) collect(si);

            // Plan: alike tasks in order while the slot holds their inputs and outputs
            // and the unit shape stays within 1.25x of the first task's.
            GALE_PROF_START(plan);
            c.tasks.clear();
            Shape sh{};
            size_t bytes = kSlack, bases = 0, ops_words = 0;
            uint64_t first_bytes = 0;
            const bool off16 = E(order[next]).off16;
            sh.off_bytes = off16 ? 2 : 4;
            while (next < order.size() && c.tasks.size() < kMaxChunkTasks) {
                const size_t ti = order[next];
                const PairTask &t = job.tasks[ti];
                const Est &e = E(ti);
                if (e.off16 != off16) break;
                const size_t need = task_slot_bytes(t, e, trace);
                const size_t tb = (size_t)(pack_round(t.h_len) + pack_round(t.v_len));
                if (bytes + need + 64 > slot_bytes || bases + tb >= ((size_t)1 << 31) - 1024) break;
                if (!c.tasks.empty() && bases + tb > (launched == 0 ? kMaxChunkBases / 8 : kMaxChunkBases)) break;
                Shape x = sh;
                x.cap = std::max(x.cap, e.khi - e.klo + 1);
                x.hdr_scores = std::max(x.hdr_scores, e.s_limit + 1);
                x.code_cap = std::max(x.code_cap, e.cells);
                // Alike tasks mostly leave the shape as it is: no layout to redo.
                if (c.tasks.empty() || x.cap != sh.cap || x.hdr_scores != sh.hdr_scores || x.code_cap != sh.code_cap)
                    shape_layout(x, q, bt);
                if (c.tasks.empty()) first_bytes = x.bytes;
                else if (x.bytes > first_bytes + first_bytes / 4 || x.bytes > work_bytes) break;
                sh = x;
                bytes += need;
                bases += tb;
                ops_words += trace ? (size_t)e.max_ops : 0;
                c.tasks.push_back(ti);
                ++next;
            }
            GALE_PROF_STOP(plan);
            c.shape = sh;
            c.bases = bases;
            c.ops_words = ops_words;
            c.threads = pick_group(sh.cap);
            c.off16 = off16;
            const size_t nt = c.tasks.size();
            c.off_code = 0;
            c.off_mask = align_up(c.off_code + bases / 4 + 16, 256);
            c.off_task = align_up(c.off_mask + bases / 8 + 16, 256);
            c.in_bytes = c.off_task + nt * sizeof(Task);
            c.off_out = align_up(c.in_bytes, 256);
            c.off_ops = align_up(c.off_out + nt * sizeof(Out), 256);
            c.total = c.off_ops + ops_words * 4;

            // Fill: pack the sequences and the task records.
            uint32_t *code = reinterpret_cast<uint32_t *>(s.host + c.off_code);
            uint32_t *mask = reinterpret_cast<uint32_t *>(s.host + c.off_mask);
            Task *tasks = reinterpret_cast<Task *>(s.host + c.off_task);
            GALE_PROF_START(fill);
            {
                int64_t at = 0;
                uint32_t ops_at = 0;
                for (size_t j = 0; j < nt; ++j) {
                    const PairTask &t = job.tasks[c.tasks[j]];
                    const Est &e = E(c.tasks[j]);
                    const WfaFree f = wfa_free(p, t.v_len, t.h_len);
                    Task &x = tasks[j];
                    x.p0 = (uint32_t)at;
                    at += pack_round(t.v_len);
                    x.t0 = (uint32_t)at;
                    at += pack_round(t.h_len);
                    x.m = (int32_t)t.v_len;
                    x.n = (int32_t)t.h_len;
                    x.pb = (int32_t)f.pb; x.pe = (int32_t)f.pe; x.tb = (int32_t)f.tb; x.te = (int32_t)f.te;
                    x.s_limit = e.s_limit;
                    x.kbase = e.klo;
                    x.ops_at = ops_at;
                    x.max_ops = trace ? e.max_ops : 0;
                    ops_at += trace ? (uint32_t)e.max_ops : 0;
                    x.has_n = 0;
                    x.pad = 0;
                }
                // The padding words read past the last sequence by the 16-base windows.
                for (int w = 0; w < 4; ++w) code[(size_t)at / 16 + w] = 0;
                for (int w = 0; w < 4; ++w) mask[(size_t)at / 32 + w] = 0;
                GALE_PROF_STOP(fill);
                GALE_PROF_START(pack);
                // Split by tasks, but a 10 kbp chunk holds only ~3,000 of them: a few dozen
                // per thread already amortize the thread's start.
                parallel_for(nt, job.pack_threads, 32, [&](size_t lo, size_t hi) {
                    for (size_t j = lo; j < hi; ++j) {
                        const PairTask &t = job.tasks[c.tasks[j]];
                        Task &x = tasks[j];
                        pack_bases(t.v, t.v_len, x.p0, code, mask);
                        pack_bases(t.h, t.h_len, x.t0, code, mask);
                        uint32_t any = 0;
                        for (int64_t w = x.p0 / 32; w < (x.t0 + pack_round(t.h_len)) / 32; ++w) any |= mask[w];
                        x.has_n = any != 0;
                    }
                });
                GALE_PROF_STOP(pack);
            }

            // Units: what the work area holds, at most one per resident group.
            const Area &ar = area[si];
            const uint64_t ua = ar.a_bytes / sh.bytes, ub = ar.b_bytes / sh.bytes;
            const uint64_t groups = groups_of(c.off16, c.threads);
            c.units = std::min<uint64_t>({ua + ub, groups, units_cap, (uint64_t)nt});
            if (c.units == 0) {  // cannot happen (each task fits a region); keep the tasks anyway
                job.rescue(std::vector<size_t>(c.tasks));
                continue;
            }

            int *counter = dev->counters + 16 * si;
            GALE_CUDA_CHECK(cudaMemcpyAsync(s.dev, s.host, c.in_bytes, cudaMemcpyHostToDevice, s.stream));
            GALE_CUDA_CHECK(cudaMemsetAsync(counter, 0, 16 * sizeof(int), s.stream));
            KArgs ka;
            ka.tasks = reinterpret_cast<const Task *>(s.dev + c.off_task);
            ka.outs = reinterpret_cast<Out *>(s.dev + c.off_out);
            ka.ops = reinterpret_cast<uint32_t *>(s.dev + c.off_ops);
            ka.code = reinterpret_cast<const uint32_t *>(s.dev + c.off_code);
            ka.mask = reinterpret_cast<const uint32_t *>(s.dev + c.off_mask);
            ka.n_tasks = (int)nt;
            ka.counter = counter;
            ka.pen = q;
            ka.n_policy = p.n_policy;
            ka.shape = sh;
            ka.base_a = ar.a;
            ka.base_b = ar.b;
            ka.units_a = std::min<uint64_t>(ua, c.units);
            ka.units = c.units;
            KernelFn k = pick_kernel(q.metric, bt, c.off16, rrs, c.threads);
            const bool warps = c.threads == 32;
            const unsigned blocks = warps ? (unsigned)((c.units + kWarpsPerBlock - 1) / kWarpsPerBlock) : (unsigned)c.units;
            GALE_CUDA_CHECK(cudaEventRecord(s.start, s.stream));
            k<<<blocks, warps ? kWarpsPerBlock * 32 : c.threads, 0, s.stream>>>(ka);
            GALE_CUDA_CHECK(cudaGetLastError());
            GALE_CUDA_CHECK(cudaEventRecord(s.stop, s.stream));
            GALE_CUDA_CHECK(cudaMemcpyAsync(s.host + c.off_out, s.dev + c.off_out, c.total - c.off_out,
                                            cudaMemcpyDeviceToHost, s.stream));
            c.busy = true;
            ++launched;
#ifdef GALE_WFA_PROFILE
            ++prof.chunks;
#endif
            si = (si + 1) % kSlots;
        }
        for (int k = 0; k < kSlots; ++k) {
            int i = (si + k) % kSlots;
            if (chunks[i].busy) collect(i);
        }
        if (pass == 2 || retry.empty() || job.cancel->load()) break;
        // Pass 2: the tasks that outgrew pass 1's codes, with their full budgets.
        pass = 2;
        order.swap(retry);
        retry.clear();
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return E(a).bytes > E(b).bytes; });
        next = 0;
    }
    job.kernel_ns = kernel_span_ns(spans);
#ifdef GALE_WFA_PROFILE
    fprintf(stderr,
            "wfa_run profile (ms): all %.2f kernels %.2f | est %.2f order %.2f plan %.2f fill %.2f pack %.2f sync %.2f "
            "replay %.2f | %zu tasks, %d chunks, backtrace %d\n",
            ms_since(prof_t_all), job.kernel_ns / 1e6, prof.est, prof.order, prof.plan, prof.fill, prof.pack, prof.sync, prof.replay,
            job.n, prof.chunks, bt);
#endif
}

}  // namespace cuda
}  // namespace gale
